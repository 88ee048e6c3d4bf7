"""The bounds on what a ``.cmb`` program makes, checked before anything is allocated.

A program is text shared like a document: a few kilobytes of it must not make the
interpreter hold gigabytes. Each bound is checked from the sizes of the operands, before
the value is made, and a program that passes one stops with a
:class:`~excover.lang.errors.LangError` at the expression or statement at fault:

- a frame (the box of a square or 3D pattern, one byte a cell) holds at most
  :data:`MAX_FRAME_CELLS` cells, and none of its sides is longer (:func:`check_frame`);
- the values a program makes are estimated, before each is made, to take at most
  :data:`MAX_PROGRAM_MEMORY` bytes in all (:class:`Budget`): every frame an expression
  makes (a name used again costs nothing), the cells of hexagonal and triangular
  patterns, the orientations of each tile, the placements of each problem and the
  records of ``print``, ``solve`` and ``all``. The estimate counts what is made, not
  what is still held (a pattern redefined still counts), so it bounds the work of a
  program as well as its memory.

The bounds on the program's text (its bytes, tokens, nesting and included files) are
the parser's (:mod:`excover.lang.parser`).
"""

from __future__ import annotations

import math

from excover.lang.errors import LangError, Pos

__all__ = [
    "BOARD_CELL_BYTES",
    "CELL_SET_BYTES",
    "ENTRY_BYTES",
    "MAX_FRAME_CELLS",
    "MAX_PROGRAM_MEMORY",
    "PLACEMENT_BYTES",
    "RECORD_CELL_BYTES",
    "Budget",
    "check_frame",
    "mebibytes",
    "problem_bytes",
    "tile_bytes",
]

#: The largest frame a pattern expression may make (width x height (x depth) cells).
MAX_FRAME_CELLS = 1 << 24

#: The most bytes the values a program makes may take in all, as estimated by
#: :class:`Budget`.
MAX_PROGRAM_MEMORY = 1 << 29

#: The bytes of a cell of a hexagonal or triangular pattern (a set of coordinate tuples),
#: while the set is made.
CELL_SET_BYTES = 256

#: The bytes of a tiling problem (its exact cover and the tables that decode it), while
#: it is built: for each cell of the board (an item and its name), each placement (an
#: option) and each cell of a placement (an entry of the option).
BOARD_CELL_BYTES = 200
PLACEMENT_BYTES = 300
ENTRY_BYTES = 64

#: The bytes of one cell of a solution kept in a ``solve`` or ``all`` record (a list of
#: coordinates), and of one character of a picture kept in a record.
RECORD_CELL_BYTES = 128

_MEBIBYTE = 1 << 20


def check_frame(*sizes: int, pos: Pos) -> int:
    """The cells of a frame of ``sizes``, refused at ``pos`` when there are more than
    MAX_FRAME_CELLS or a side is longer (numpy refuses a ``0 x 10**20`` array)."""
    cells = math.prod(sizes)
    if cells > MAX_FRAME_CELLS or max(sizes, default=0) > MAX_FRAME_CELLS:
        frame = "x".join(str(size) for size in sizes)
        raise LangError(f"a {frame} frame is too large (at most {MAX_FRAME_CELLS} cells)", pos)
    return cells


def tile_bytes(cells: int, dimension: int, isometries: int) -> int:
    """The bytes a tile of ``cells`` cells takes while its orientations are found: its
    coordinates, and those of each image and their keys (``isometries`` of them)."""
    return cells * dimension * 8 * (2 * isometries + 2)


def problem_bytes(board_cells: int, placements: int, entries: int) -> int:
    """The bytes a tiling problem takes while it is built, from the cells of its board, an
    upper bound on its placements and on the cells they cover in all."""
    return board_cells * BOARD_CELL_BYTES + placements * PLACEMENT_BYTES + entries * ENTRY_BYTES


def mebibytes(amount: int) -> str:
    """``amount`` bytes in MiB, as the errors say it."""
    return f"{amount / _MEBIBYTE:,.0f} MiB" if amount >= _MEBIBYTE else "under 1 MiB"


class Budget:
    """The bytes a program's values are estimated to take, charged as each is made.

    One budget is shared by everything an :class:`~excover.lang.interp.Interpreter`
    runs, so that many values each under its own bound cannot add up to gigabytes.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_PROGRAM_MEMORY if limit is None else limit
        self.used = 0

    def charge(self, amount: int, what: str, pos: Pos) -> None:
        """Count ``amount`` more bytes for ``what`` (a pattern, a problem...) made at
        ``pos``, or refuse it there when the total would pass the limit."""
        if self.used + amount > self.limit:
            raise LangError(
                f"{what} would take about {mebibytes(amount)} more than the "
                f"{mebibytes(self.used)} this program has made, past the "
                f"{mebibytes(self.limit)} a program's patterns, tiles, problems and "
                "results may take in all",
                pos,
            )
        self.used += amount
