"""Sudoku pictures: a board, its givens and solution digits, regions, diagonals and killer
cages as SVG (re-exported by :mod:`excover.puzzles.sudoku`)."""

from __future__ import annotations

from collections.abc import Sequence

from excover.errors import ProblemError
from excover.puzzles.sudoku.board import _text, board_for, parse

__all__ = ["svg_grid"]


def svg_grid(
    puzzle: str,
    solution: str | None = None,
    box: tuple[int, int] | None = None,
    *,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    cages: Sequence[tuple[int, Sequence[tuple[int, int]]]] = (),
    digits: str | None = None,
) -> str:
    """An SVG picture of ``puzzle``: givens in black, the digits ``solution`` adds in blue,
    thick lines around the boxes (or the jigsaw regions), the two long diagonals in grey
    on a diagonal board, and killer ``cages`` (``(sum, [(row, column), ...])``, from 0)
    as dashed outlines inside their cells with the sum in the top left corner. With cages
    the digits are a little smaller and lower (:data:`DIGIT_WITH_CAGES`), so that no sum
    touches the digit of its cell."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    givens = _text(parse(puzzle, board), board)
    filled = givens if solution is None else _text(parse(solution, board), board)
    n, (rows, columns), cell = board.size, board.box, 32
    region = board.regions or tuple(
        (k // n // rows) * (n // columns) + (k % n) // columns for k in range(n * n)
    )
    side = n * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side + 4}" height="{side + 4}" '
        f'viewBox="-2 -2 {side + 4} {side + 4}" font-family="sans-serif" '
        f'font-size="{cell * 0.6:g}" text-anchor="middle">',
        f'<rect width="{side}" height="{side}" fill="white" stroke="black" stroke-width="3"/>',
    ]
    if diagonal:
        grey = 'stroke="#b0b0b0" stroke-width="2"'
        parts.append(f'<line class="diagonal" x1="0" y1="0" x2="{side}" y2="{side}" {grey}/>')
        parts.append(f'<line class="diagonal" x1="{side}" y1="0" x2="0" y2="{side}" {grey}/>')
    for k in range(n * n):
        row, column = divmod(k, n)
        x, y = column * cell, row * cell
        if column + 1 < n:  # the edge to the right neighbour
            width = 3 if region[k] != region[k + 1] else 1
            parts.append(_line(x + cell, y, x + cell, y + cell, width))
        if row + 1 < n:  # the edge to the neighbour below
            width = 3 if region[k] != region[k + n] else 1
            parts.append(_line(x, y + cell, x + cell, y + cell, width))
    for total, places in cages:
        cage = {(r, c) for r, c in places}
        if not cage or not all(0 <= r < n and 0 <= c < n for r, c in cage):
            raise ProblemError(f"the cage of sum {total} needs cells on the {n}x{n} board")
        parts += _cage_svg(total, cage, cell)
    size, baseline = DIGIT_WITH_CAGES if cages else DIGIT
    for k, symbol in enumerate(filled):
        if symbol != ".":
            colour = "black" if givens[k] != "." else "#1f5fbf"
            cx, cy = (k % n + 0.5) * cell, (k // n + baseline) * cell
            parts.append(
                f'<text x="{cx:g}" y="{cy:g}" font-size="{size * cell:g}" fill="{colour}">'
                f"{symbol}</text>"
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


#: A digit's font size and baseline, as fractions of a cell's side: centred a little below
#: the middle ...
DIGIT = (0.6, 0.71)
#: ... and with killer cages, smaller and lower: a digit's top (its baseline less 0.72 of
#: its size, the height of a digit) stays below the cage sum's baseline (:data:`CAGE_SUM`).
DIGIT_WITH_CAGES = (0.5, 0.82)
#: A cage sum's font size and baseline, as fractions of a cell's side (its left edge is
#: just inside the cage's dashed outline).
CAGE_SUM = (0.3, 0.4)


def _cage_svg(total: int, cage: set[tuple[int, int]], cell: int) -> list[str]:
    """The dashed outline of a killer cage, ``inset`` inside its cells, and its sum.

    Each side of a cell that borders a cell outside the cage gets a segment parallel to
    it; at each end the segment stops short (an outer corner), runs on to the next
    cell's segment (a straight border) or reaches out to meet the neighbouring cell's
    perpendicular segment (an inner corner)."""
    inset = 4
    parts = []
    for row, column in sorted(cage):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):  # the side's outward normal
            if (row + dr, column + dc) in cage:
                continue
            ar, ac = abs(dc), abs(dr)  # along the side
            ends = []
            for sign in (-1, 1):
                neighbour = (row + sign * ar, column + sign * ac)
                beyond = (neighbour[0] + dr, neighbour[1] + dc)
                if neighbour not in cage:
                    ends.append(-inset)
                elif beyond in cage:
                    ends.append(inset)
                else:
                    ends.append(0)
            # The side's line, inset from the edge, and its extent along the side.
            if dr:
                y = (row + (dr > 0)) * cell - dr * inset
                x1, x2 = column * cell - ends[0], (column + 1) * cell + ends[1]
                parts.append(_dashed(x1, y, x2, y))
            else:
                x = (column + (dc > 0)) * cell - dc * inset
                y1, y2 = row * cell - ends[0], (row + 1) * cell + ends[1]
                parts.append(_dashed(x, y1, x, y2))
    top, left = min(cage)
    size, baseline = CAGE_SUM
    parts.append(
        f'<text class="cage-sum" x="{left * cell + inset + 1:g}" '
        f'y="{(top + baseline) * cell:g}" font-size="{size * cell:g}" '
        f'text-anchor="start">{total}</text>'
    )
    return parts


def _dashed(x1: float, y1: float, x2: float, y2: float) -> str:
    return (
        f'<line class="cage" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
        'stroke="#555555" stroke-width="1" stroke-dasharray="3 2"/>'
    )


def _line(x1: float, y1: float, x2: float, y2: float, width: int) -> str:
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="black" '
        f'stroke-width="{width}" stroke-linecap="square"/>'
    )
