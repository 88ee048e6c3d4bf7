"""A tiling given as two text files: a board drawn in ``#`` cells, and pieces as lists of
``[row, col]`` coordinates (the format of polyomino-tiling-by-SAT projects).

The board is ASCII art read by :meth:`Pattern.from_ascii`: ``#`` (or ``*``) is a cell,
``.`` or a space (or ``_``, ``-``, ``o``) a hole. The pieces file holds one piece a line,
its cells as a JSON list of ``[row, col]`` pairs, rows growing downward as in the board's
drawing, optionally named::

    L: [[0,0],[1,0],[2,0],[2,1]]
    [[0,0],[0,1]]

Blank lines and lines starting with ``#`` are skipped. An unnamed piece is called ``P``
and its number among the pieces, from 0 (``P1`` above). A name is letters, digits and
``_'+-``. Each piece may be rotated and reflected (``reflections=False``: rotated
only) and is used once (``multiplicity``: ``"one"``, ``"maybe"``, ``"any"`` or a count,
for every piece); identical pieces are interchangeable, so a tiling using two copies of
one shape is counted once. :meth:`Tiling.from_files` and :meth:`Tiling.from_text` read
a tiling given so.
"""

from __future__ import annotations

import json
import re

from excover.errors import FormatError
from excover.tiling.pattern import Pattern
from excover.tiling.tile import Multiplicity, Tile

__all__ = ["MAX_SPAN", "parse_board", "parse_pieces"]

#: The most rows (or columns) a piece may span: its cells are held in a dense frame.
MAX_SPAN = 1000

_LINE = re.compile(r"\s*(?:(?P<name>[A-Za-z0-9_'+-]+)\s*:)?\s*(?P<cells>\[.*)", re.DOTALL)


def parse_pieces(
    text: str,
    source: str = "<pieces>",
    *,
    multiplicity: Multiplicity = "one",
    reflections: bool = True,
) -> list[Tile]:
    """The pieces of a pieces file's text as tiles; errors name the line at fault."""
    tiles: list[Tile] = []
    lines: dict[str, int] = {}  # name -> its line
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise FormatError(
                "a piece is a list of [row, col] cells, optionally named: 'L: [[0,0],[1,0]]'",
                source=source,
                line=number,
            )
        name = match["name"] or f"P{len(tiles)}"
        if name in lines:
            raise FormatError(
                f"a second piece named {name!r} (the first is on line {lines[name]})",
                source=source,
                line=number,
            )
        lines[name] = number
        shape = _shape(match["cells"], name, source, number)
        symmetry = "all" if reflections else "rotations"
        tiles.append(Tile(shape, name, multiplicity, symmetry))
    if not tiles:
        raise FormatError("no pieces", source=source)
    return tiles


def _shape(cells_text: str, name: str, source: str, line: int) -> Pattern:
    """The cells of piece ``name``, rows down and columns right, as a pattern (x = column,
    y upward, so that the piece looks as it does in the board's drawing)."""

    def fail(message: str) -> FormatError:
        return FormatError(f"piece {name!r}: {message}", source=source, line=line)

    try:
        cells = json.loads(cells_text)
    except (ValueError, RecursionError) as error:
        detail = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
        raise fail(f"not a JSON list of [row, col] pairs ({detail})") from None
    if not isinstance(cells, list) or not cells:
        raise fail("expected a non-empty list of [row, col] pairs")
    for cell in cells:
        if not (
            isinstance(cell, list)
            and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            raise fail(f"the cell {json.dumps(cell)} is not a [row, col] pair of integers")
    pairs = [(row, col) for row, col in cells]
    seen: set[tuple[int, int]] = set()
    for row, col in pairs:
        if (row, col) in seen:
            raise fail(f"the cell [{row}, {col}] is listed twice")
        seen.add((row, col))
    rows, cols = [p[0] for p in pairs], [p[1] for p in pairs]
    if max(rows) - min(rows) >= MAX_SPAN or max(cols) - min(cols) >= MAX_SPAN:
        raise fail(f"the cells span more than {MAX_SPAN} rows or columns")
    top, left = max(rows), min(cols)
    return Pattern.from_cells([(col - left, top - row) for row, col in pairs])


def parse_board(text: str, source: str = "<board>") -> Pattern:
    """The board of a board file's text: its ``#`` cells (at least one)."""
    board = Pattern.from_ascii(text, source=source)
    if len(board) == 0:
        raise FormatError("the board has no '#' cell", source=source)
    return board
