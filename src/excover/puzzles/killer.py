"""Killer Sudoku: cages whose digits are distinct and add up to a given sum.

A cage becomes a set of options rather than a constraint on the search: for a cage of
cells ``c1..ck`` with sum ``S``, every assignment of distinct digits to the cells adding up
to ``S`` is one option, covering a new primary item for the cage and, for each of its
cells, the items the plain option of that cell and digit would cover (the cell, and the
digit in its row, column and box). Cells in no cage keep their plain options. A solution
picks one assignment per cage, so the cage rules hold by construction, and the board's
rules still hold through the shared items. Cages of many cells have many assignments
(a cage of 5 cells up to 15,120), which is what bounds this encoding.

Cages are given as ``(sum, [(row, column), ...])`` with rows and columns from 0; they may
not overlap and need not cover the board. Givens, if any, use the Sudoku text format.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import permutations

from excover.errors import UsageError
from excover.problem import ExactCover
from excover.puzzles.sudoku import Board, grid_of, parse

__all__ = ["Cage", "cover", "solutions", "solve"]

#: A cage: its sum and its cells ``(row, column)``.
Cage = tuple[int, Sequence[tuple[int, int]]]


def _check(cages: Sequence[Cage], n: int) -> list[tuple[int, list[int]]]:
    """The cages as ``(sum, cells)`` with cells numbered row by row; errors name a cage."""
    seen: dict[int, int] = {}
    checked = []
    for number, (total, places) in enumerate(cages):
        cells = []
        for row, column in places:
            if not (0 <= row < n and 0 <= column < n):
                raise UsageError(f"cage {number}: cell ({row}, {column}) is off the board")
            cell = row * n + column
            if cell in seen:
                raise UsageError(f"cage {number}: cell ({row}, {column}) is in cage {seen[cell]}")
            seen[cell] = number
            cells.append(cell)
        if not cells or not 1 <= len(cells) <= n:
            raise UsageError(f"cage {number} must have 1 to {n} cells, not {len(cells)}")
        checked.append((total, cells))
    return checked


def cover(
    cages: Sequence[Cage], box: tuple[int, int] = (3, 3), givens: str | None = None
) -> ExactCover:
    """The exact cover of a killer puzzle (decode its solutions with
    :func:`excover.puzzles.sudoku.grid_of`)."""
    board = Board(box)
    n = board.size
    values = parse(givens, board) if givens is not None else bytes(n * n)
    checked = _check(cages, n)
    plain = board.cover()
    problem = ExactCover(
        primary=[*plain.primary_items, *(f"k{number}" for number in range(len(checked)))]
    )
    caged: set[int] = set()
    for number, (total, cells) in enumerate(checked):
        caged.update(cells)
        for digits in permutations(range(1, n + 1), len(cells)):
            if sum(digits) != total or any(
                values[cell] not in (0, digit) for cell, digit in zip(cells, digits, strict=True)
            ):
                continue
            items = [f"k{number}"]
            for cell, digit in zip(cells, digits, strict=True):
                items += plain.option_items(cell * n + digit - 1)
            problem.add_option(items)
    for cell in range(n * n):
        if cell not in caged:
            for digit in range(1, n + 1):
                if values[cell] in (0, digit):
                    problem.add_option(plain.option_items(cell * n + digit - 1))
    return problem


def solutions(
    cages: Sequence[Cage],
    box: tuple[int, int] = (3, 3),
    givens: str | None = None,
    limit: int | None = None,
) -> Iterator[str]:
    """The solutions of a killer puzzle (at most ``limit``), in the one-line format."""
    problem = cover(cages, box, givens)
    for solution in problem.solutions(limit=limit):
        yield grid_of(problem, solution)


def solve(
    cages: Sequence[Cage], box: tuple[int, int] = (3, 3), givens: str | None = None
) -> str | None:
    """A solution of a killer puzzle, or None."""
    return next(solutions(cages, box, givens, limit=1), None)
