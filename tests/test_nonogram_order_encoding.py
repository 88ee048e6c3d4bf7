"""The order encoding of black-and-white lines (the hybrid route's CDCL formula), against
brute force and the plain search."""

from __future__ import annotations

import itertools
import random

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from excover import nonogram
from excover.nonogram import sat as nonogram_sat
from excover.sat.pool import Pool


def placements(clue: list[int], n: int) -> set[tuple[int, ...]]:
    """Every line of ``n`` cells (1 black, 0 white) whose runs of black are ``clue``."""
    return {
        bits
        for bits in itertools.product((0, 1), repeat=n)
        if [len(list(g)) for value, g in itertools.groupby(bits) if value] == clue
    }


def models_over_cells(clauses: list[list[int]], n: int) -> set[tuple[int, ...]]:
    """Every assignment of variables 1..n that extends to a model of ``clauses``."""
    found = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            found.add(tuple(1 if model[v] > 0 else 0 for v in range(n)))
            solver.add_clause([-model[v] for v in range(n)])
    return found


@settings(max_examples=examples(120), deadline=None)
@given(
    st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(1, n)))),
    st.booleans(),
)
def test_order_clauses_have_exactly_the_placements(
    case: tuple[int, list[int]], cover: bool
) -> None:
    n, clue = case
    if sum(clue) + len(clue) - 1 > n:
        clue = clue[:1]
    clauses = nonogram_sat.order_clauses(tuple(clue), list(range(1, n + 1)), Pool(n), cover)
    expected = placements(clue, n)
    if not expected:  # a clue too long: the formula must have no model
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            assert not solver.solve()
        return
    assert models_over_cells(clauses, n) == expected


@pytest.mark.parametrize("cover", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_order_encoding_counts_like_the_search(seed: int, cover: bool) -> None:
    rng = random.Random(seed)
    puzzle = nonogram.generate(8, 9, rng.uniform(0.3, 0.7), rng)
    cnf = nonogram_sat.encode_order(puzzle, cover)
    cells = puzzle.height * puzzle.width
    found = 0
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        while found < 4 and solver.solve():
            model = solver.get_model()
            picture = [
                "".join(
                    "#" if model[r * puzzle.width + c] > 0 else "." for c in range(puzzle.width)
                )
                for r in range(puzzle.height)
            ]
            assert puzzle.is_solution(picture)
            solver.add_clause([-model[v] for v in range(cells)])
            found += 1
    assert found == nonogram.count(puzzle, limit=4, method="propagate")
