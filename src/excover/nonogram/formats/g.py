"""Olsak's ``.g`` nonogram format.

The format of Olsak's griddler solver, read by pbnsolve too: free text (ignored; a
``# title: ...`` line names the puzzle) up to a line starting with ``:``, then the row
clues up to the next such line, then the column clues up to the next (or the end);
anything after is free text again. Blocks are separated by spaces or commas, a blank
line (or ``0``) is an empty line of the picture. A line starting with ``#d`` in the
free text opens the colour declarations, one per line up to the first ``:`` line:
``<inchar>:<outchar> <colour> <comment>`` where ``inchar`` is the char written after a
block's length (``3r``), ``outchar`` the char Olsak's program prints for it, and
``colour`` a colour name or ``#rrggbb`` (the comment, when the colour is given by RGB,
names it). ``inchar`` ``0`` declares the background (white here), ``1`` the colour of
the blocks written without a char (its char here is ``outchar``, else ``#``). Without
declarations the puzzle is black and white. Triangles (a colour ``black/orange``) and
triddlers (``#t``) are refused, as pbnsolve does.
"""

from __future__ import annotations

from excover.errors import FormatError, UsageError
from excover.nonogram.formats._clues import Clues, name_of, one_line
from excover.nonogram.model import BLACK, Puzzle

__all__ = ["read", "write"]


def read(text: str, source: str) -> Puzzle:
    """The puzzle of a ``.g`` file (``source`` names it in errors)."""
    clues = Clues(source)
    clues.declare_how = "colours are declared after a '#d' line, as in '  r:r  red'"
    sections: list[list[tuple[str, int]]] = [[], []]
    state, default = "free", None  # free, colours, rows, columns, after
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if state == "colours" and raw.lstrip().startswith(":"):
            state = "rows"
        elif state == "colours" and raw.strip():
            default = _g_colour(clues, raw, number, default)
        elif raw.startswith(":") and state != "after":
            state = {"free": "rows", "rows": "columns", "columns": "after"}[state]
        elif state in ("rows", "columns"):
            sections[state == "columns"].append((raw, number))
        elif state == "free" and raw[:2] in ("#d", "#D"):
            state = "colours"
        elif state == "free" and raw[:2] in ("#t", "#T"):
            raise clues.fail("triddlers (a '#t' line) are not supported", number)
        elif state == "free" and raw.startswith("#"):
            clues.comment(raw)
    if state in ("free", "colours"):
        raise clues.fail("no ':' line before the row clues", number or None)
    if state == "rows":
        raise clues.fail("no ':' line between the row clues and the column clues", number)
    while state == "columns" and sections[1] and not sections[1][-1][0].strip():
        sections[1].pop()  # blank lines at the end of a file without a closing ':' line
    for target, section in ((clues.rows, sections[0]), (clues.cols, sections[1])):
        for text_line, at in section:
            clues.add(target, text_line.strip() or "0", at)
    if clues.palette:  # blocks without a char take the default colour ('1:')
        lines = clues.rows + clues.cols
        for colours, (_, at) in zip(clues.row_colours + clues.col_colours, lines, strict=True):
            if None in colours and default is None:
                raise clues.fail("a block without a colour char, and no default colour", at)
        for found in (clues.row_colours, clues.col_colours):
            found[:] = [tuple(char or default for char in colours) for colours in found]
    return clues.puzzle(number)


def _g_colour(clues: Clues, raw: str, number: int, default: str | None) -> str | None:
    """Read one colour declaration (``  r:&  red  comment``) into ``clues``; the char of
    the default colour, when this line declares it, else ``default`` unchanged."""
    line = raw.strip()
    fields = line[3:].split()
    if len(line) < 4 or line[1] != ":" or not fields:
        raise clues.fail("a colour line is '<inchar>:<outchar> <colour> [comment]'", number)
    inchar, outchar, colour = line[0], line[2], fields[0]
    if "/" in colour or "\\" in colour:
        raise clues.fail(f"triangles (colour {colour!r}) are not supported", number)
    if inchar == "0":
        return default  # the background, white here
    if inchar == "1" and default is not None:
        raise clues.fail("a second default colour ('1:')", number)
    # the default colour takes Olsak's char for it when a colour may have it, else '#'
    taken = {known.char for known in clues.palette}
    chars = [inchar] if inchar != "1" else [c for c in (outchar, BLACK) if c not in taken]
    for k, char in enumerate(chars):
        hexed = colour.startswith("#")
        name = (" ".join(fields[1:]) or name_of(colour, char)) if hexed else colour
        try:
            clues.declare(char, name, colour, number)
        except FormatError:
            if k + 1 == len(chars):
                raise
            continue
        return char if inchar == "1" else default
    raise clues.fail("no char left for the default colour", number)


def write(puzzle: Puzzle) -> str:
    """``puzzle`` as a ``.g`` file, its colours declared after a ``#d`` line."""
    lines = [] if puzzle.title is None else [f"# title: {one_line(puzzle.title)}"]
    if puzzle.palette is not None:
        if any(colour.char == ":" for colour in puzzle.palette):
            raise UsageError("the g format cannot hold a colour whose char is ':'")
        lines.append("#d")
        lines += [f"   {c.char}:{c.char}  {c.hex}  {one_line(c.name)}" for c in puzzle.palette]
    lines.append(": rows")
    text = [_g_clue(puzzle, line) for line in range(puzzle.height + puzzle.width)]
    lines += text[: puzzle.height]
    lines.append(": columns")
    lines += text[puzzle.height :]
    lines.append(": end")
    return "\n".join(lines) + "\n"


def _g_clue(puzzle: Puzzle, line: int) -> str:
    """A clue of a ``.g`` file: blank when empty (pbnsolve refuses ``0``)."""
    if puzzle.palette is None:
        return " ".join(map(str, puzzle.lines()[line]))
    return " ".join(f"{length}{char}" for length, char in puzzle.blocks(line))
