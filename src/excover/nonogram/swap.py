"""A second picture next to a first: the four corners of a rectangle swapped.

Puzzles with several pictures (most random ones) very often have two that differ in four
cells only, the corners of a rectangle, checkered one way in one picture and the other
way in the other: each row and column through the corners keeps its clue because a
block moves over by one cell, or a one-cell block moves within its gap. Given one
picture, :func:`swapped` looks for such a rectangle in time about linear in the number of
cells and moves, where a search for a second picture can take far longer; the hybrid
route tries it on every picture it finds (see :mod:`excover.nonogram.search`).
"""

from __future__ import annotations

import re

__all__ = ["swapped"]

#: The core's cell bytes.
_WHITE, _BLACK = 1, 2

#: A block of black cells.
_BLOCK = re.compile(b"\x02+")


def swapped(grid: bytes, height: int, width: int) -> bytes | None:
    """Another picture with the same clues as ``grid`` (cell bytes row by row: 1 white,
    2 black), differing from it in the four corners of a rectangle; None when there is
    no such rectangle."""
    cols = [grid[c::width] for c in range(width)]
    col_moves: dict[int, set[tuple[int, int]]] = {}  # worked out when first needed

    def moves_of_column(c: int) -> set[tuple[int, int]]:
        if c not in col_moves:
            col_moves[c] = _moves(cols[c])
        return col_moves[c]

    row_moves = [_moves(grid[r * width : (r + 1) * width]) for r in range(height)]
    for r1 in range(height):
        for a, b in row_moves[r1]:
            # Row r1: a black -> white, b white -> black. Column a takes r1 -> r2, so
            # row r2 must move b -> a and column b must take r2 -> r1.
            for source, r2 in moves_of_column(a):
                if source == r1 and (b, a) in row_moves[r2] and (r2, r1) in moves_of_column(b):
                    cells = bytearray(grid)
                    for r, c in ((r1, a), (r2, b)):
                        cells[r * width + c] = _WHITE
                    for r, c in ((r1, b), (r2, a)):
                        cells[r * width + c] = _BLACK
                    return bytes(cells)
    return None


def _moves(line: bytes) -> set[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i`` black and ``j`` white, whose exchange keeps the
    line's clue by moving one block: a block moved over by one cell (the cell beyond it
    stays white), or a one-cell block moved into its own gap or past other one-cell
    blocks into theirs (touching no block). (An exchange can also keep the clue by
    splitting one block and joining two others, as in ``#.###...`` to ``###.#...``;
    those are not sought.)"""
    n = len(line)
    blocks = [match.span() for match in _BLOCK.finditer(line)]

    def gap_before(m: int) -> range:
        """Where a one-cell block may go between blocks ``m - 1`` and ``m`` (``m`` may
        be one past the last) without touching either."""
        first = blocks[m - 1][1] + 1 if m else 0
        end = blocks[m][0] - 1 if m < len(blocks) else n
        return range(first, end)

    moves: set[tuple[int, int]] = set()
    for k, (start, end) in enumerate(blocks):
        left = blocks[k - 1][1] + 1 if k else 0  # first cell the block may cover
        right = blocks[k + 1][0] - 1 if k + 1 < len(blocks) else n  # end it may reach
        if end - start > 1:
            if end < right:
                moves.add((start, end))
            if start > left:
                moves.add((end - 1, start - 1))
            continue
        targets = [t for t in range(left, right) if t != start]
        m = k - 1
        while m >= 0 and blocks[m][1] - blocks[m][0] == 1:
            targets += gap_before(m)
            m -= 1
        m = k + 1
        while m < len(blocks) and blocks[m][1] - blocks[m][0] == 1:
            targets += gap_before(m + 1)
            m += 1
        moves.update((start, t) for t in targets)
    return moves
