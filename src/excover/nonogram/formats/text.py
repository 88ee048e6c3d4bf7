"""excover's plain text nonogram format.

``text``: the row clues, one per line, top to bottom; a blank line; the column clues,
left to right. A clue is its block lengths separated by spaces or commas, ``0`` for an
empty line. Lines starting with ``#`` are comments; ``# title: ...`` names the puzzle::

    # title: a plus sign
    1
    3
    1

    1
    3
    1

A colour puzzle declares its colours in ``# colour: CHAR NAME #rrggbb`` lines and gives
each block its colour's char (``3r 2b``). A ``.txt`` file in pynogram's or the
tournaments' format is recognised (see :mod:`excover.nonogram.formats`).
"""

from __future__ import annotations

from excover.nonogram.formats._clues import Clues, colour_text, one_line, one_word
from excover.nonogram.model import Puzzle

__all__ = ["read", "write"]


def read(text: str, source: str) -> Puzzle:
    """The puzzle of a plain text file (``source`` names it in errors)."""
    clues = Clues(source)
    section = clues.rows
    gap = False  # a blank line since the last clue
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            key, value = clues.comment(line)
            if key in ("colour", "color"):
                fields = value.split()
                if len(fields) != 3:
                    raise clues.fail("a colour line is '# colour: CHAR NAME #rrggbb'", number)
                clues.declare(fields[0], fields[1], fields[2], number)
        elif not line:
            gap = bool(clues.rows)
        else:
            if gap:
                if section is clues.cols:
                    raise clues.fail("a third section: rows, a blank line, then columns", number)
                section, gap = clues.cols, False
            clues.add(section, line, number)
    if not clues.rows:
        raise clues.fail("no clues", number or None)
    if section is clues.rows and gap:
        raise clues.fail("no column clues after the blank line", number)
    if section is clues.rows:
        raise clues.fail("no blank line between the row clues and the column clues", number)
    return clues.puzzle(number)


def write(puzzle: Puzzle) -> str:
    """``puzzle`` as plain text, its colours declared first."""
    lines = [] if puzzle.title is None else [f"# title: {one_line(puzzle.title)}"]
    if puzzle.palette is not None:
        lines += [f"# colour: {c.char} {one_word(c.name)} {c.hex}" for c in puzzle.palette]
        lines += [colour_text(puzzle, r, " ") for r in range(puzzle.height)]
        lines.append("")
        lines += [colour_text(puzzle, puzzle.height + c, " ") for c in range(puzzle.width)]
        return "\n".join(lines) + "\n"
    lines += [" ".join(map(str, clue)) or "0" for clue in puzzle.rows]
    lines.append("")
    lines += [" ".join(map(str, clue)) or "0" for clue in puzzle.cols]
    return "\n".join(lines) + "\n"
