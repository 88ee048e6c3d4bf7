"""Reading a file of Sudoku puzzles: one puzzle per line, or one grid over several lines.

``excover sudoku FILE`` reads its puzzles here. A file holds one puzzle per line in the
one-line format, or a single grid of N lines of N cells, which may be drawn with blanks
and ``|`` between cells and rules of ``-`` and ``+`` between boxes; :func:`read_puzzles`
tells the two apart by the rule of ``excover sudoku --help`` unless told which, and gives
each puzzle with the line it starts on, so that an error in it can name that line.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from excover.errors import FormatError, UsageError

__all__ = ["PuzzleText", "read_puzzles"]


class PuzzleText(NamedTuple):
    """A puzzle's text and the line of its file it starts on (None: the command line)."""

    text: str
    line: int | None = None


#: Characters that draw a grid: never cells. Blanks and bars may separate cells on a line.
_DRAWING = frozenset(" \t|+-")
_SEPARATORS = frozenset(" \t|")
_NO_DRAWING = str.maketrans("", "", "".join(_DRAWING))


def _symbols() -> str:
    """The digits of the boards, in order (imported on first use: the solvers behind
    them are not needed to read a file)."""
    from excover.puzzles.sudoku.board import SYMBOLS

    return SYMBOLS


def _cell_count(line: str) -> int:
    return len(line.translate(_NO_DRAWING))


def _is_one_line_size(cells: int) -> bool:
    """Whether ``cells`` cells make a square board with a box shape (16: 4x4, 81, ...)."""
    side = math.isqrt(cells)
    return (
        side * side == cells
        and side <= len(_symbols())
        and any(side % r == 0 for r in range(2, math.isqrt(side) + 1))
    )


def read_puzzles(text: str, layout: str = "auto", source: str = "<input>") -> list[PuzzleText]:
    """The puzzles of a file with the line each starts on: one per line, or one
    multi-line grid (``layout`` "lines", "grid", or "auto": the rule of ``--help``).

    Raises FormatError at ``source:line`` when ``layout`` is "grid" and a line does not
    have one cell per line of the grid, or holds a character that is no digit of it.
    """
    rows = [
        (number, line)
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#") and _cell_count(line)
    ]
    if not rows:
        raise UsageError(f"{source}: no puzzle in the input")
    size = len(rows)
    if layout == "auto":
        square = size <= len(_symbols()) and all(_cell_count(ln) == size for _, ln in rows)
        drawn = any(_SEPARATORS.intersection(ln.strip()) for _, ln in rows)
        layout = "grid" if square and (drawn or not _is_one_line_size(size)) else "lines"
    if layout == "lines":
        return [PuzzleText(line.strip(), number) for number, line in rows]
    allowed = set(".0" + _symbols()[:size] + _symbols()[9:size].lower())
    for number, line in rows:
        cells = [ch for ch in line if ch not in _DRAWING]
        if len(cells) != size:
            message = f"a {size}x{size} grid needs {size} cells on each line, not {len(cells)}"
            raise FormatError(message, source=source, line=number)
        for column, ch in enumerate(cells, 1):
            if ch not in allowed:
                message = f"bad character {ch!r} in column {column} of a {size}x{size} grid"
                raise FormatError(message, source=source, line=number)
    return [PuzzleText("\n".join(line for _, line in rows), rows[0][0])]
