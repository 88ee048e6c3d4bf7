"""Tests of :mod:`excover.puzzles.killer` against a brute force and the rules.

On the 4x4 board every grid is known (the Latin squares obeying the boxes), so the count
of a killer puzzle is checked against the grids whose cages have the right sums and
distinct digits. On 9x9, cages cut at random from a solved grid must give back a grid
that obeys both the Sudoku rules and the cages.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import UsageError
from excover.puzzles import killer, sudoku


def random_cages(grid: str, n: int, rng: random.Random, biggest: int) -> list[killer.Cage]:
    """Cut the board into random connected cages of up to ``biggest`` cells, with the sums
    of ``grid``'s digits, no digit twice in a cage."""
    free = set(range(n * n))
    cages: list[killer.Cage] = []
    for start in rng.sample(range(n * n), n * n):
        if start not in free:
            continue
        free.discard(start)
        cells = [start]
        size = rng.randint(1, biggest)
        while len(cells) < size:
            border = [
                c + d
                for c in cells
                for d in (-n, n, -1, 1)
                if c + d in free
                and (abs(d) == n or (c + d) // n == c // n)
                and grid[c + d] not in {grid[k] for k in cells}
            ]
            if not border:
                break
            pick = rng.choice(border)
            free.discard(pick)
            cells.append(pick)
        total = sum(int(grid[c], 36) for c in cells)
        cages.append((total, [divmod(c, n) for c in cells]))
    return cages


def obeys(grid: str, cages: list[killer.Cage], n: int) -> bool:
    for total, places in cages:
        digits = [int(grid[r * n + c], 36) for r, c in places]
        if sum(digits) != total or len(set(digits)) != len(digits):
            return False
    return True


def sudoku_grids_4x4() -> list[str]:
    rows = ["".join(p) for p in itertools.permutations("1234")]
    grids = [
        "".join(g)
        for g in itertools.product(rows, repeat=4)
        if all(len({r[c] for r in g}) == 4 for c in range(4))
    ]
    return [g for g in grids if sudoku.classify(g) == "unique"]  # boxes: a full valid grid


GRIDS_4X4 = sudoku_grids_4x4()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), biggest=st.integers(1, 4))
def test_4x4_killer_counts_match_brute_force(seed: int, biggest: int) -> None:
    rng = random.Random(seed)
    grid = rng.choice(GRIDS_4X4)
    cages = random_cages(grid, 4, rng, biggest)
    expected = sorted(g for g in GRIDS_4X4 if obeys(g, cages, 4))
    assert grid in expected
    assert sorted(killer.solutions(cages, (2, 2))) == expected


@pytest.mark.parametrize("seed", range(3))
def test_9x9_killer_solution_obeys_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    grid = sudoku.solve(sudoku.generate(seed=seed))
    assert grid is not None
    cages = random_cages(grid, 9, rng, 4)
    solution = killer.solve(cages)
    assert solution is not None and obeys(solution, cages, 9)
    assert sudoku.classify(solution) == "unique"  # a full grid obeying the Sudoku rules


def test_givens_and_impossible_cages() -> None:
    cages: list[killer.Cage] = [(3, [(0, 0), (0, 1)])]  # 1 + 2 in some order
    with_given = killer.solve(cages, (2, 2), givens="2" + "." * 15)
    assert with_given is not None and with_given[:2] == "21"
    assert killer.solve([(8, [(0, 0), (0, 1)])], (2, 2)) is None  # 4 + 4 is not distinct


@pytest.mark.parametrize(
    ("cages", "message"),
    [
        ([(3, [(0, 0), (4, 0)])], "off the board"),
        ([(3, [(0, 0)]), (4, [(0, 0)])], "in cage 0"),
        ([(3, [])], "1 to 4 cells"),
    ],
)
def test_bad_cages(cages: list[killer.Cage], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        killer.cover(cages, (2, 2))
