"""The two routes of the count up to symmetry after a symmetry-broken search, and the
quotient problems they count, against brute force and against each other.

Burnside's lemma over the whole group with the identity's term taken from the
symmetry-broken count (``BrokenSearch._burnside_after_count``), and Burnside's lemma over
the stabilizer of each representative, must give the orbits the brute-force oracle
finds (``tests/symmetric.py``), on small random problems under hand-made groups and on
Knuth's small files; each quotient problem must have exactly the solutions its element
fixes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from budget import examples
from builders import KNUTH_DATA
from hypothesis import given, settings
from symmetric import (
    all_solutions,
    brute_orbits,
    build,
    duplicate_swaps,
    option_map,
    symmetric_problems,
)

from excover import ExactCover
from excover.symmetry import BrokenSearch, Group, burnside
from excover.symmetry.fixed import Quotient, cycle_labels, cycles, elements_of
from excover.tiling import Pattern, Tiling, pentominoes, tiles


def both_routes(problem: ExactCover, group: Group) -> tuple[int, int, int, int]:
    """The count of every solution, and the orbits by each route: the default (split
    below the base when it can), then, with no split, Burnside's lemma over the whole
    group after the broken count and Burnside's lemma over the stabilizers."""
    default = BrokenSearch(problem, group)
    total = default.count()
    after_count = BrokenSearch(problem, group)
    by_stabilizers = BrokenSearch(problem, group)
    if default.orbits is not None:
        for search in (after_count, by_stabilizers):
            search.__dict__["_split_orbits"] = search.orbits
        if default._fixed():
            after_count.__dict__["_burnside_after_count"] = True
        by_stabilizers.__dict__["_burnside_after_count"] = False
    return (
        total,
        default.count_orbits(),
        after_count.count_orbits(),
        by_stabilizers.count_orbits(),
    )


@settings(max_examples=examples(150), deadline=None)
@given(symmetric_problems(colors=True))
def test_both_routes_count_orbits_as_brute_force(drawn: Any) -> None:
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    generators = [option_map(options, sigma), *duplicate_swaps(options)]
    group = Group(problem, generators)
    solutions = all_solutions(problem)
    orbits = brute_orbits(solutions, generators)
    assert both_routes(problem, group) == (len(solutions), orbits, orbits, orbits)


@settings(max_examples=examples(200), deadline=None)
@given(symmetric_problems(colors=True))
def test_splitting_below_the_base_counts_as_brute_force(drawn: Any) -> None:
    """Every primary item covered exactly once (the bounds drawn are dropped, which
    keeps ``sigma`` a symmetry): the representatives with symmetries are split by the
    options of one more item, deeper while symmetries remain."""
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, [(1, 1)] * len(bounds))
    generators = [option_map(options, sigma), *duplicate_swaps(options)]
    group = Group(problem, generators)
    solutions = all_solutions(problem)
    orbits = brute_orbits(solutions, generators)
    assert both_routes(problem, group) == (len(solutions), orbits, orbits, orbits)


def test_scott_splits_its_representatives_with_symmetries() -> None:
    """On Scott's board the two placements of the base's piece that a symmetry maps onto
    themselves are split by the options of the next item until no symmetry is left."""
    problem = ExactCover.read(KNUTH_DATA / "scott.dlx")
    search = BrokenSearch(problem, problem.symmetries())
    assert search.orbits is not None
    assert any(orbit.size < search.group.option_order for orbit in search.orbits)
    split = search._deeper(search.orbits)
    assert len(split) > len(search.orbits)
    assert all(orbit.size == search.group.option_order for orbit in split)
    assert search.route == "one branch per orbit, below the base too"
    assert search.count() == 520
    assert search.count_orbits() == 65


@settings(max_examples=examples(150), deadline=None)
@given(symmetric_problems(colors=True))
def test_quotients_have_the_fixed_solutions(drawn: Any) -> None:
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    group = Group(problem, [option_map(options, sigma), *duplicate_swaps(options)])
    solutions = all_solutions(problem)
    for g in elements_of(group, "a test"):
        fixed = {s for s in solutions if sorted(int(g[k]) for k in s) == list(s)}
        quotient = Quotient(problem, g)
        assert {tuple(s) for s in quotient.solutions()} == fixed
        assert quotient.count() == len(fixed)


@settings(max_examples=examples(150), deadline=None)
@given(symmetric_problems(colors=True))
def test_an_element_that_fixes_no_partial_solution_fixes_no_solution(drawn: Any) -> None:
    """Burnside's lemma after the count skips the quotient of an element that maps no
    partial solution on the base onto itself: it fixes no solution."""
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    group = Group(problem, [option_map(options, sigma), *duplicate_swaps(options)])
    partials = BrokenSearch(problem, group)._partials
    if partials is None:
        return
    solutions = all_solutions(problem)
    for g in elements_of(group, "a test"):
        if not partials.fixed_by(g):
            assert not any(sorted(int(g[k]) for k in s) == list(s) for s in solutions)


def test_pento5x12_counts_one_quotient_after_the_count() -> None:
    """On pento5x12 only the mirror across the long axis fixes placements of the X
    pentomino (those on the middle row): the half turn and the other mirror need no
    quotient problem."""
    problem = ExactCover.read(KNUTH_DATA / "pento5x12.dlx")
    search = BrokenSearch(problem, problem.symmetries())
    assert search.route == "one branch per orbit, then Burnside's lemma over the group"
    partials = search._partials
    assert partials is not None
    fixing = [partials.fixed_by(g) for g in search._listed_elements]
    assert sorted(fixing) == [False, False, True, True]  # the identity fixes them all
    assert search.count_orbits() == 1010


@settings(max_examples=examples(100), deadline=None)
@given(symmetric_problems())
def test_cycle_labels_name_the_smallest_point_of_each_cycle(drawn: Any) -> None:
    _, _, options, _, sigma = drawn
    g = option_map(options, sigma)
    labels = cycle_labels(np.array(g, dtype=np.int64)).tolist()
    for cycle in cycles(np.array(g, dtype=np.int64)):
        assert all(labels[k] == min(cycle) for k in cycle)


@pytest.mark.parametrize("name", ["queens8", "queens10", "pento3x20", "domino6x6"])
def test_knuth_files_count_the_same_by_both_routes(name: str) -> None:
    problem = ExactCover.read(KNUTH_DATA / f"{name}.dlx")
    group = problem.symmetries()
    total, default, after_count, by_stabilizers = both_routes(problem, group)
    assert total == problem.count(method="search")
    assert default == after_count == by_stabilizers == burnside(problem, group)


def test_queens_take_the_route_after_the_count() -> None:
    """Queens: some first-row choices have a symmetry, no symmetry fixes half the
    options, so the orbits are Burnside's lemma over the group after the broken count."""
    problem = ExactCover.read(KNUTH_DATA / "queens10.dlx")
    search = BrokenSearch(problem, problem.symmetries())
    assert search.route == "one branch per orbit, then Burnside's lemma over the group"
    assert search.count_orbits() == 92  # OEIS A002562(10)


def test_a_tiling_built_board_counts_as_the_tiling_library() -> None:
    """The 3x20 pentomino problem built by the tiling library, counted up to the
    automorphisms of the problem, against the tiling library's own count up to the
    board's symmetries (its pinned tile or its Burnside's lemma): the same group here."""
    tiling = Tiling(Pattern.constant(20, 3), tiles(pentominoes()))
    problem = tiling.problem
    assert problem.count(symmetry=True) == tiling.count() == 8
    assert problem.count(up_to_symmetry=True) == tiling.count(up_to_symmetry=True) == 2
