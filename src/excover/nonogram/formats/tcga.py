"""The nonogram files of the TCGA, TAAI and ICGA tournaments, many puzzles in one file.

``$N`` opens puzzle N; its n column clues follow, then its n row clues (n x n cells, 25
in the tournaments), blocks separated by tabs; ``0`` or a blank line is an empty line of
the picture (blank lines at the end of a puzzle are dropped). Read such a file with
:func:`~excover.nonogram.formats.read_all`; a ``.txt`` file whose first line starts
with ``$`` is one.
"""

from __future__ import annotations

from collections.abc import Iterator

from excover.errors import FormatError, UsageError
from excover.nonogram.formats._clues import Clues, clue_line
from excover.nonogram.model import Puzzle

__all__ = ["puzzles", "read", "write"]


def puzzles(text: str, source: str) -> Iterator[tuple[Clues, int, int]]:
    """Each puzzle of a tournament file, its clues read with their lines, and the lines
    that start and end it."""
    blocks: list[tuple[Clues, int, list[tuple[str, int]]]] = []
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("$"):
            label = line[1:].strip()
            blocks.append((Clues(source, title=label or None), number, []))
        elif blocks:
            blocks[-1][2].append((line, number))
        elif line:
            raise FormatError("a clue before the first '$' line", source=source, line=number)
    if not blocks:
        raise FormatError("no puzzle: no '$N' line", source=source, line=number or None)
    for clues, start, lines in blocks:
        while lines and not lines[-1][0]:
            lines.pop()
        if not lines or len(lines) % 2:
            raise clues.fail(
                f"puzzle ${clues.title or ''} has {len(lines)} clue lines: an n x n puzzle "
                "has 2n (n columns, then n rows)",
                start,
            )
        half = len(lines) // 2
        for k, (line, line_number) in enumerate(lines):
            section = clues.cols if k < half else clues.rows
            section.append((clues.clue(line or "0", line_number), line_number))
        yield clues, start, lines[-1][1]


def read(text: str, source: str) -> Puzzle:
    """The puzzle of a tournament file holding one (read a file of many with
    :func:`~excover.nonogram.formats.read_all`)."""
    found = list(puzzles(text, source))
    if len(found) > 1:
        clues, start, _ = found[1]
        raise clues.fail(f"a file of {len(found)} puzzles: read it with read_all", start)
    clues, _, end = found[0]
    return clues.puzzle(end)


def write(puzzle: Puzzle, rank: int = 1) -> str:
    """``puzzle`` as one puzzle of a tournament file, labelled by its title when that is
    one word, else by ``rank``."""
    if puzzle.height != puzzle.width:
        raise UsageError(
            f"the tournament format holds n x n puzzles, not {puzzle.height}x{puzzle.width}"
        )
    title = puzzle.title
    label = title if title is not None and title.split() == [title] else str(rank)
    lines = [f"${label}"]
    lines += [clue_line(clue, "\t") for clue in puzzle.cols]
    lines += [clue_line(clue, "\t") for clue in puzzle.rows]
    return "\n".join(lines) + "\n"
