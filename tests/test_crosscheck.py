"""The cross-check: random problems counted and listed every way against brute force.

Each random exact cover problem (primary and secondary items, colors, multiplicities;
``builders.instances``) is counted by every method, engine and route, with preprocessing
on and off, split into subproblems and on two worker processes (``every_way.counts``),
and listed by ``first()`` and ``solutions()`` the same ways; every answer must match the
brute-force oracle, which enumerates every subset of the options. Problems made symmetric
on purpose (``symmetric.symmetric_problems``) are counted up to their known group against
a brute-force orbit count, and random tilings of small boards by random polyominoes
(``tilings.tiling_cases``) against a brute-force tiling and its canonical form under the
board's symmetries.

The same checks run at full size, thousands of problems, in ``benchmarks/crosscheck.py``;
here a few dozen of each kind keep the file to seconds.
"""

from __future__ import annotations

from typing import Any

from builders import Instance, instances, union
from every_way import METHODS, check_counts, check_listings, check_orbits, engines_for, one_per_orbit
from hypothesis import given, settings
from hypothesis import strategies as st
from symmetric import all_solutions, build, duplicate_swaps, option_map, orbit_roots
from symmetric import symmetric_problems
from tilings import TilingCase, decoded, tiling_cases

from excover.symmetry import Group

KINDS = st.sampled_from(["X", "XCC", "MCC"])


@settings(max_examples=40)
@given(KINDS.flatmap(instances))
def test_every_count_matches_brute_force(instance: Instance) -> None:
    check_counts(instance.build(), len(instance.all_covers()))


@settings(max_examples=30)
@given(KINDS.flatmap(instances))
def test_every_listing_gives_the_brute_force_solutions(instance: Instance) -> None:
    check_listings(instance.build(), instance.all_covers(), instance.is_cover)


@settings(max_examples=6)
@given(KINDS.flatmap(lambda kind: instances(kind, max_options=12)))
def test_counts_and_listings_on_two_workers_match_brute_force(instance: Instance) -> None:
    problem = instance.build()
    expected = instance.all_covers()
    check_counts(problem, len(expected), workers=True)
    check_listings(problem, expected, instance.is_cover, workers=True)


@settings(max_examples=15)
@given(st.lists(instances("X", max_options=4), min_size=2, max_size=3), st.integers(0, 99))
def test_problems_in_independent_parts_count_every_way(parts: list[Instance], seed: int) -> None:
    """Unions of independent parts, where the parts route and the component count have
    work to do: the count is the product of the parts' counts."""
    whole = union(parts, seed)
    product = 1
    for part in parts:
        product *= len(part.all_covers())
    check_counts(whole.build(), product)


@settings(max_examples=25)
@given(symmetric_problems(colors=True), st.booleans())
def test_counts_up_to_a_known_group_match_brute_force_orbits(drawn: Any, workers: bool) -> None:
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    generators = [option_map(options, sigma), *duplicate_swaps(options)]
    solutions = all_solutions(problem)
    roots = orbit_roots(solutions, generators)
    orbit_of = {frozenset(s): roots[s] for s in solutions}
    check_orbits(problem, Group(problem, generators), set(orbit_of), orbit_of, workers)


def check_tiling(case: TilingCase) -> None:
    """A tiling case counted and listed, plainly and up to symmetry, against brute force."""
    tiling = case.build()
    orbit_of = case.orbit_of()
    classes = set(orbit_of.values())
    check_counts(tiling.problem, len(orbit_of))
    for method in METHODS:
        assert tiling.count(method) == len(orbit_of), method
    assert {decoded(s) for s in tiling.solutions()} == set(orbit_of)
    calls: list[dict[str, Any]] = [{"method": method} for method in ("auto", "dlx", "zdd")]
    calls += [{"method": "dlx", "engine": engine} for engine in engines_for(tiling.problem)]
    for kwargs in calls:
        assert tiling.count(up_to_symmetry=True, **kwargs) == len(classes), kwargs
    for method in ("dlx", "zdd"):
        listed = [orbit_of[decoded(s)] for s in tiling.solutions(method, up_to_symmetry=True)]
        assert one_per_orbit(listed, orbit_of), method


@settings(max_examples=40)
@given(tiling_cases())
def test_random_tilings_match_brute_force(case: TilingCase) -> None:
    check_tiling(case)
