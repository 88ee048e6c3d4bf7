"""The N-queens problem as an exact cover, with ASCII and SVG pictures of a placement.

Every square is an option covering its rank ``r*``, its file ``c*`` and its two
diagonals: ``a*`` (constant ``row + column``) and ``b*`` (constant ``column - row + n - 1``).
Ranks and files are primary (exactly one queen each); diagonals are secondary (at most one
queen each). As in Knuth's ``queens-dlx`` generator, the ranks and files are listed from the
middle of the board outward (``r4 c4 r3 c3 r5 c5 ...`` for n = 8), which makes the MRV
search branch on the most constrained lines first, and the two one-cell diagonals at each
end (the corner squares' diagonals) are left out: a queen alone on a diagonal needs no item
to say so. With this order the problem is Knuth's file item for item and option for option,
so the engine's statistics match his DLX1 run exactly.

Option ``k`` is the square ``(k // n, k % n)``; :func:`decode` turns a solution into the
list of ``(row, column)`` squares, one per row.

The problem has ``n**2`` options, so a size typed on a command line can ask for hours of
building: :func:`queens` takes a ``deadline`` and stops at it with
:class:`~excover.LimitReached` (see :mod:`excover.deadlines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import SupportsIndex

from excover.deadlines import check, check_deadline
from excover.errors import UsageError
from excover.solving import ExactCover

__all__ = ["ascii_board", "decode", "middle_out", "queens", "svg_board"]

#: One character per coordinate, as Knuth's generator writes them (when they fit).
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def middle_out(n: int) -> list[int]:
    """``0..n-1`` from the middle outward: ``n//2``, then alternately one below, one above."""
    middle = n // 2
    order = [middle]
    for step in range(1, n):
        order += [k for k in (middle - step, middle + step) if 0 <= k < n]
    return order[:n]


def _check_n(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"the board size must be a positive integer, not {n!r}")
    return n


def queens(n: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover whose solutions are the placements of ``n`` non-attacking queens.

    Past ``deadline`` (a ``time.monotonic()`` value), checked at every square, the
    building stops with :class:`~excover.LimitReached`."""
    n = _check_n(n)
    deadline = check_deadline(deadline)
    code = _DIGITS.__getitem__ if 2 * n - 1 <= len(_DIGITS) else str

    def name(prefix: str, k: int) -> str:
        return prefix + code(k)

    primary = [name(p, k) for k in middle_out(n) for p in "rc"]
    # Diagonals 1..2n-3 of each kind: 0 and 2n-2 hold a single (corner) square.
    secondary = [name(p, d) for d in range(1, 2 * n - 2) for p in "ab"]
    problem = ExactCover(primary=primary, secondary=secondary)
    for row in range(n):
        for column in range(n):
            check(deadline, problem.n_options)
            items = [name("r", row), name("c", column)]
            for prefix, diagonal in (("a", row + column), ("b", column - row + n - 1)):
                if 0 < diagonal < 2 * n - 2:
                    items.append(name(prefix, diagonal))
            problem.add_option(items)
    problem.declare_symmetries(square_symmetries(n, deadline=deadline))
    return problem


def square_symmetries(n: int, *, deadline: float | None = None) -> list[list[int]]:
    """Generators of the 8 symmetries of the ``n x n`` board, as permutations of the
    options of :func:`queens` (option ``n * row + column`` is the queen on that square):
    the quarter turn and the mirror image left to right. Declared by :func:`queens`, so
    that its counts up to symmetry need no search for the group (nor python-igraph).
    Past ``deadline``, checked at every row: :class:`~excover.LimitReached`."""
    n = _check_n(n)
    deadline = check_deadline(deadline)
    turn: list[int] = []
    mirror: list[int] = []
    for row in range(n):
        check(deadline, len(turn))
        turn.extend(n * column + (n - 1 - row) for column in range(n))
        mirror.extend(n * row + (n - 1 - column) for column in range(n))
    return [turn, mirror]


def decode(n: int, solution: Iterable[SupportsIndex]) -> list[tuple[int, int]]:
    """The squares ``(row, column)`` of a solution of :func:`queens` ``(n)``, by row."""
    n = _check_n(n)
    squares = sorted(divmod(int(option), n) for option in solution)
    if any(not 0 <= row < n for row, _ in squares):
        raise UsageError(f"not a solution of queens({n}): option out of range in {squares}")
    return squares


def ascii_board(n: int, squares: Sequence[tuple[int, int]]) -> str:
    """The board as text, row 0 on top: ``Q`` for a queen, ``.`` for an empty square."""
    n = _check_n(n)
    board = [["."] * n for _ in range(n)]
    for row, column in squares:
        board[row][column] = "Q"
    return "\n".join(" ".join(line) for line in board)


def svg_board(n: int, squares: Sequence[tuple[int, int]], cell: int = 32) -> str:
    """The board as an SVG picture: a chequered board with a dark disc for each queen."""
    n = _check_n(n)
    size = n * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        f'<rect width="{size}" height="{size}" fill="#f0d9b5"/>',
    ]
    for row in range(n):
        for column in range(n):
            if (row + column) % 2:
                parts.append(
                    f'<rect x="{column * cell}" y="{row * cell}" width="{cell}" '
                    f'height="{cell}" fill="#b58863"/>'
                )
    radius = cell * 0.35
    for row, column in squares:
        cx, cy = (column + 0.5) * cell, (row + 0.5) * cell
        parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="#222"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
