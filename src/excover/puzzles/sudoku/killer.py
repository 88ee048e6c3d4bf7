"""Killer Sudoku: cages whose digits are distinct and add up to a given sum.

A cage chooses its set of digits, and its cells must use exactly that set. For a cage
``k`` of ``m`` cells with sum ``S`` there is a primary item ``k`` and one primary item
``k_d`` per digit d. Each set of m distinct digits adding up to S is an option covering
``k`` and the items ``k_d`` of the digits *not* in the set; each cell of the cage keeps its
plain options (the cell, and the digit in its row, column and box, or region and
diagonals on a variant board), each with the item ``k_d`` of its digit added. So a
digit outside the chosen set cannot be placed in the cage (its item is taken), and each
digit of the set is placed exactly once: the m cells hold the set, distinct and adding
up to S. The options grow with the number of digit sets, not with their orderings (a
9-cell cage of 9x9 has one set where it had 362,880 orderings).

Cages are given as ``(sum, [(row, column), ...])`` with rows and columns from 0; they may
not overlap and need not cover the board. Givens, if any, use the Sudoku text format.
:func:`read_cages` reads them from text, one cage per line::

    # sum: cells, each rRcC with the row R and column C counted from 1
    3: r1c1 r1c2
    15: r1c3 r2c3 r3c3
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from operator import index
from typing import TYPE_CHECKING, TypedDict

from excover.errors import FormatError, UsageError
from excover.puzzles.sudoku.board import SudokuBoard, board_for, parse
from excover.puzzles.sudoku.solver import grid_of
from excover.solving import ExactCover

if TYPE_CHECKING:
    from typing import Unpack

__all__ = ["Cage", "Variant", "count", "cover", "read_cages", "solutions", "solve"]

#: A cage: its sum and its cells ``(row, column)``.
Cage = tuple[int, Sequence[tuple[int, int]]]


class Variant(TypedDict, total=False):
    """The keywords of a variant board, taken alike by :func:`cover` and the solving
    functions: ``diagonal`` (the X-sudoku rule on both long diagonals) and ``regions``
    (jigsaw: one symbol per cell naming its region, or a list of region numbers, row by
    row). A misspelt keyword is a ``TypeError``, as for any function."""

    diagonal: bool
    regions: str | Sequence[int] | None


_CELL = re.compile(r"r(\d{1,9})c(\d{1,9})", re.IGNORECASE | re.ASCII)


def read_cages(text: str, size: int, source: str = "<cages>") -> list[Cage]:
    """The cages of ``text`` for a board of side ``size``: one cage per line, ``SUM:``
    then its cells ``rRcC`` (row and column from 1) separated by blanks; blank lines and
    lines starting with ``#`` are skipped. Raises FormatError at ``source:line`` on a
    malformed line, a cell off the board or in two cages, or a cage of more than
    ``size`` cells."""
    cages: list[Cage] = []
    owner: dict[tuple[int, int], int] = {}  # cell -> line of its cage
    for number, line in enumerate(text.splitlines(), 1):
        content = line.strip()
        if content and not content.startswith("#"):
            cages.append(_read_cage(content, size, owner, source, number))
    return cages


def _read_cage(
    content: str, size: int, owner: dict[tuple[int, int], int], source: str, line: int
) -> Cage:
    """The cage of one line, its cells added to ``owner``."""
    total_text, colon, cells_text = content.partition(":")
    total_text = total_text.strip()
    if not colon or not (total_text.isascii() and total_text.isdigit() and len(total_text) < 10):
        message = f"a cage is 'SUM: CELLS', e.g. '3: r1c1 r1c2', not {content!r}"
        raise FormatError(message, source=source, line=line)
    places: list[tuple[int, int]] = []
    for token in cells_text.split():
        match = _CELL.fullmatch(token)
        if match is None:
            message = f"{token!r} is not a cell: write rRcC, row and column from 1"
        elif not (1 <= int(match[1]) <= size and 1 <= int(match[2]) <= size):
            message = f"cell {token} is off the {size}x{size} board"
        elif (int(match[1]) - 1, int(match[2]) - 1) in owner:
            first = owner[int(match[1]) - 1, int(match[2]) - 1]
            where = "this cage" if first == line else f"the cage of line {first}"
            message = f"cell {token} is already in {where}"
        else:
            place = (int(match[1]) - 1, int(match[2]) - 1)
            owner[place] = line
            places.append(place)
            continue
        raise FormatError(message, source=source, line=line)
    if not 1 <= len(places) <= size:
        message = f"a cage has 1 to {size} cells, not {len(places)}"
        raise FormatError(message, source=source, line=line)
    return int(total_text), places


def _check(cages: Sequence[Cage], n: int) -> list[tuple[int, list[int]]]:
    """The cages as ``(sum, cells)`` with cells numbered row by row; errors name a cage."""
    seen: dict[int, int] = {}
    checked = []
    for number, cage in enumerate(cages):
        total, places = _cage_parts(cage, number)
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


def _cage_parts(cage: object, number: int) -> tuple[int, list[tuple[int, int]]]:
    """The sum and cells of ``cage``, checked to be an int and ``(row, column)`` pairs of
    ints; UsageError naming the cage otherwise."""
    try:
        if isinstance(cage, str) or not isinstance(cage, Sequence) or len(cage) != 2:
            raise TypeError
        total: object = cage[0]
        cells = [(index(row), index(column)) for row, column in cage[1]]
        if isinstance(total, bool) or not isinstance(total, int):
            raise TypeError
    except (TypeError, ValueError):
        raise UsageError(
            f"cage {number}: a cage is (sum, [(row, column), ...]) of ints, not {cage!r}"
        ) from None
    return total, cells


def cover(
    cages: Sequence[Cage],
    box: tuple[int, int] = (3, 3),
    givens: str | None = None,
    *,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
) -> ExactCover:
    """The exact cover of a killer puzzle on a board of boxes ``box`` (or jigsaw
    ``regions``, and with the ``diagonal`` rule when asked); decode its solutions with
    :func:`excover.puzzles.sudoku.grid_of`."""
    n = SudokuBoard(box).size  # a bad shape fails here, not after a huge string
    board = board_for("." * n * n, box, diagonal=diagonal, regions=regions)
    values = parse(givens, board) if givens is not None else bytes(n * n)
    checked = _check(cages, n)
    plain = board.cover()
    cage_items = [name for number in range(len(checked)) for name in _cage_item_names(number, n)]
    problem = ExactCover(primary=[*plain.primary_items, *cage_items])
    cage_of: dict[int, int] = {}
    for number, (total, cells) in enumerate(checked):
        cage_of.update(dict.fromkeys(cells, number))
        given = {values[cell] for cell in cells} - {0}
        for digits in _digit_sets(n, len(cells), total):
            if given <= set(digits):
                absent = sorted(set(range(1, n + 1)) - set(digits))
                problem.add_option([f"k{number}", *(f"k{number}_{d}" for d in absent)])
    for cell in range(n * n):
        for digit in range(1, n + 1):
            if values[cell] in (0, digit):
                items = plain.option_items(cell * n + digit - 1)
                if cell in cage_of:
                    items.append(f"k{cage_of[cell]}_{digit}")
                problem.add_option(items)
    return problem


def _cage_item_names(number: int, n: int) -> list[str]:
    """The items of cage ``number``: its choice of a digit set, then one per digit."""
    return [f"k{number}", *(f"k{number}_{digit}" for digit in range(1, n + 1))]


def _digit_sets(n: int, size: int, total: int) -> Iterator[tuple[int, ...]]:
    """The sets of ``size`` distinct digits ``1..n`` adding up to ``total``, each in
    increasing order, found by a search that drops a branch as soon as the smallest or
    the largest digits still possible cannot reach the total."""

    def extend(start: int, left: int, remaining: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            if remaining == 0:
                yield ()
            return
        for digit in range(start, n + 1):
            smallest = digit * left + left * (left - 1) // 2  # digit, digit + 1, ...
            largest = digit + (left - 1) * (2 * n - left + 2) // 2  # digit, then the top ones
            if smallest > remaining:
                return
            if largest < remaining:
                continue
            for rest in extend(digit + 1, left - 1, remaining - digit):
                yield (digit, *rest)

    return extend(1, size, total)


def solutions(
    cages: Sequence[Cage],
    box: tuple[int, int] = (3, 3),
    givens: str | None = None,
    limit: int | None = None,
    **variant: Unpack[Variant],
) -> Iterator[str]:
    """The solutions of a killer puzzle (at most ``limit``), in the one-line format."""
    problem = cover(cages, box, givens, **variant)
    for solution in problem.solutions(limit=limit):
        yield grid_of(problem, solution)


def solve(
    cages: Sequence[Cage],
    box: tuple[int, int] = (3, 3),
    givens: str | None = None,
    **variant: Unpack[Variant],
) -> str | None:
    """A solution of a killer puzzle, or None."""
    found = solutions(cages, box, givens, limit=1, **variant)
    return next(found, None)


def count(
    cages: Sequence[Cage],
    box: tuple[int, int] = (3, 3),
    givens: str | None = None,
    limit: int | None = None,
    **variant: Unpack[Variant],
) -> int:
    """The number of solutions of a killer puzzle, counting no further than ``limit``."""
    problem = cover(cages, box, givens, **variant)
    if limit is None:
        return problem.count(method="search")
    return sum(1 for _ in problem.solutions(limit=limit))
