"""Batches of generated Sudoku puzzles, with a number of givens or a difficulty.

:func:`excover.puzzles.sudoku.generate` makes one random puzzle with a unique solution,
minimal by default (no given can go). :func:`generate_many` makes ``n`` of them from one
seed and shapes each to what is asked:

* ``givens=K``: exactly ``K`` givens. A minimal puzzle with more than ``K`` givens cannot
  lose any, so it is drawn again; one with fewer gets givens of its own solution, in
  random cells, until it has ``K`` (adding givens of the solution keeps it unique);
* ``difficulty="singles"``: naked and hidden singles alone solve it (no search);
  ``"search"``: they do not, and a solver has to branch
  (:func:`excover.puzzles.sudoku.needs_search`). Puzzles of the other kind are drawn
  again.

Each request gets at most :data:`ATTEMPTS` draws per puzzle; one that cannot be met (say
17 givens, which random minimal puzzles almost never reach) fails with a
:class:`~excover.UsageError` that says so.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple

from excover.errors import UsageError
from excover.puzzles import sudoku

__all__ = ["ATTEMPTS", "DIFFICULTIES", "generate_many"]

#: Draws allowed for each puzzle before a request is given up.
ATTEMPTS = 200

#: The values of ``difficulty``.
DIFFICULTIES = ("any", "singles", "search")

Difficulty = Literal["any", "singles", "search"]


def generate_many(
    n: int,
    box: tuple[int, int] = (3, 3),
    seed: int | None = None,
    *,
    givens: int | None = None,
    difficulty: Difficulty = "any",
    symmetric: bool = False,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
) -> Iterator[str]:
    """``n`` random puzzles with a unique solution each, in the one-line format, yielded
    one by one (see the module text for ``givens`` and ``difficulty``). The same seed
    gives the same puzzles."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise UsageError(f"the number of puzzles must be a non-negative integer, not {n!r}")
    if difficulty not in DIFFICULTIES:
        raise UsageError(f"unknown difficulty {difficulty!r}; choose one of {DIFFICULTIES}")
    cells = sudoku.SudokuBoard(box).size ** 2 if regions is None else len(regions)
    if givens is not None and (
        isinstance(givens, bool) or not isinstance(givens, int) or not 0 <= givens <= cells
    ):
        raise UsageError(f"givens must be a number from 0 to {cells}, not {givens!r}")
    rng = random.Random(seed)
    rules = _Rules(box, diagonal, regions)
    for _ in range(n):
        yield _one(rng, rules, givens, difficulty, symmetric)


class _Rules(NamedTuple):
    """The board of the puzzles."""

    box: tuple[int, int]
    diagonal: bool
    regions: str | Sequence[int] | None


def _one(
    rng: random.Random,
    rules: _Rules,
    givens: int | None,
    difficulty: Difficulty,
    symmetric: bool,
) -> str:
    """One puzzle that meets the request, within :data:`ATTEMPTS` draws."""
    box, diagonal, regions = rules
    for _ in range(ATTEMPTS):
        puzzle = sudoku.generate(
            box,
            rng.getrandbits(63),
            minimal=True,
            symmetric=symmetric,
            diagonal=diagonal,
            regions=regions,
        )
        if givens is not None:
            topped = _with_givens(puzzle, givens, rng, rules)
            if topped is None:
                continue
            puzzle = topped
        if difficulty != "any":
            hard = sudoku.needs_search([puzzle], box=box, diagonal=diagonal, regions=regions)[0]
            if hard != (difficulty == "search"):
                continue
        return puzzle
    wanted = []
    if givens is not None:
        wanted.append(f"{givens} givens")
    if difficulty != "any":
        wanted.append(f"difficulty {difficulty}")
    raise UsageError(
        f"no puzzle with {' and '.join(wanted)} in {ATTEMPTS} draws "
        "(minimal random puzzles rarely have fewer givens than about 22 on 9x9)"
    )


def _with_givens(puzzle: str, givens: int, rng: random.Random, rules: _Rules) -> str | None:
    """``puzzle`` topped up with givens of its solution to exactly ``givens`` of them, or
    None when it already has more (it is minimal: none can go)."""
    blanks = [k for k, symbol in enumerate(puzzle) if symbol == "."]
    have = len(puzzle) - len(blanks)
    if have > givens:
        return None
    solution = sudoku.solve(puzzle, box=rules.box, diagonal=rules.diagonal, regions=rules.regions)
    assert solution is not None  # generated puzzles have one
    grid = list(puzzle)
    for k in rng.sample(blanks, givens - have):
        grid[k] = solution[k]
    return "".join(grid)
