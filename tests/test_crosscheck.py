"""The cross-check: random problems counted and listed every way against brute force.

Each random exact cover problem (primary and secondary items, colors, multiplicities;
``builders.instances``) is counted by every method, engine and route, with preprocessing
on and off, split into subproblems and on two worker processes, and listed by ``first()``
and ``solutions()`` the same ways (``every_way``); every answer must match the
brute-force oracle, which enumerates every subset of the options. Problems made
symmetric on purpose (``symmetric.symmetric_problems``) are counted up to their known
group against a brute-force orbit count, and random tilings of small boards by random
polyominoes (``tilings.tiling_cases``) against a brute-force tiling and the canonical
forms of the tilings under the board's symmetries.

The same checks run at full size, thousands of problems, in ``benchmarks/crosscheck.py``;
here a few dozen of each kind keep the file to seconds.
"""

from __future__ import annotations

from typing import Any

from budget import examples
from builders import Instance, Kind, instances
from every_way import check_instance, check_symmetric, check_tiling, check_union
from hypothesis import given, settings
from hypothesis import strategies as st
from symmetric import symmetric_problems
from tilings import TilingCase, tiling_cases

KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")


@settings(max_examples=examples(50))
@given(st.sampled_from(KINDS).flatmap(instances))
def test_every_count_and_listing_matches_brute_force(instance: Instance) -> None:
    assert check_instance(instance) > 0


@settings(max_examples=examples(6))
@given(st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, max_options=12)))
def test_counts_and_listings_on_two_workers_match_brute_force(instance: Instance) -> None:
    assert check_instance(instance, workers=True) > 0


@settings(max_examples=examples(15))
@given(st.lists(instances("X", max_options=4), min_size=2, max_size=3), st.integers(0, 99))
def test_problems_in_independent_parts_count_every_way(parts: list[Instance], seed: int) -> None:
    assert check_union(parts, seed) > 0


@settings(max_examples=examples(25))
@given(symmetric_problems(colors=True), st.booleans())
def test_counts_up_to_a_known_group_match_brute_force_orbits(drawn: Any, workers: bool) -> None:
    assert check_symmetric(drawn, workers) > 0


@settings(max_examples=examples(40))
@given(tiling_cases(max_area=10, max_tilings=300))
def test_random_tilings_match_brute_force(case: TilingCase) -> None:
    assert check_tiling(case) > 0
