"""The share of the search tree walked (``Search.progress``, Knuth's estimate from the
choices on the current path) and its use in the route choice's race: the frontier count
keeps an even share only while it projects to finish no later than the search does."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover
from excover.counting import routes
from excover.puzzles.queens import queens
from excover.zdd import frontier

KNUTH = Path(__file__).parent / "data" / "knuth"


def shares(problem: ExactCover, step: int, **options: object) -> tuple[list[float], int]:
    """The share walked after every ``step`` nodes of a count on the bit-parallel
    engine, then the count."""
    search = problem.search(engine="bits", **options)  # type: ignore[arg-type]
    seen = [search.progress()]
    while not search.count_until(search.stats.nodes + step):
        seen.append(search.progress())
    total = search.count()
    seen.append(search.progress())
    assert all(share is not None for share in seen)
    return [float(share) for share in seen if share is not None], total


@pytest.mark.parametrize("name", ["pento6x10-xq", "scott", "queens10"])
def test_the_share_grows_from_zero_to_one(name: str) -> None:
    """0 before the first node, 1 once the count is over, never going back between (a
    branch done stays done: the shares only add up), within [0, 1] all along."""
    problem = ExactCover.read(KNUTH / f"{name}.dlx")
    seen, total = shares(problem, 2000)
    assert total == problem.count(method="dlx")
    assert seen[0] == 0.0 and seen[-1] == 1.0
    assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise(seen))
    assert len(set(seen)) > 3  # it moves inside the count, not only at its ends


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(min_value=4, max_value=9), st.sampled_from(["mrv", "forced", "weighted"]))
def test_the_share_never_goes_back_on_queens(n: int, heuristic: str) -> None:
    """Any board, any heuristic of the bit-parallel engine (forced levels count as one
    branch): the share only grows and ends at 1."""
    seen, total = shares(queens(n), 7, heuristic=heuristic)
    assert total == queens(n).count(method="dlx", engine="dlx")
    assert seen[-1] == 1.0
    assert all(a <= b for a, b in itertools.pairwise(seen))


def test_other_engines_and_multiplicities_do_not_tell() -> None:
    """Dancing links and dancing cells keep no such estimate; Algorithm M is not
    estimated this way (its branches close items): None."""
    problem = queens(6)
    for engine in ("dlx", "cells"):
        assert problem.search(engine=engine).progress() is None
    multi = ExactCover(["a", "b"])
    for option in (["a"], ["a"], ["b"]):
        multi.add_option(option)
    multi.set_multiplicity("a", 1, 2)
    assert multi.search(engine="bits").progress() is None


def test_the_search_projects_the_time_it_still_needs() -> None:
    """Infinite before it has walked anything; then its seconds times the share left over
    the share walked, which on pento6x10-xq is within a factor 2 of the truth once a
    quarter of the count is done."""
    runner = routes.SearchRunner(ExactCover.read(KNUTH / "pento6x10-xq.dlx"), "bits")
    assert runner.remaining() == float("inf")
    projections = []
    while runner.advance(0.005) is None:
        projections.append((runner.seconds, runner.remaining()))
    total = runner.seconds
    late = [(spent, left) for spent, left in projections if spent >= total / 4]
    assert late
    assert all(0.5 <= (spent + left) / total <= 2.0 for spent, left in late)


def test_the_frontier_count_drops_its_share_when_the_search_projects_to_finish_first() -> None:
    """The frontier count's projection against the search's: above a LEAD-th of it,
    LOW_WEIGHT even when the search has spent little; at or below, the share stays 1."""
    laid = frontier.wide_layout(ExactCover.read(KNUTH / "pento5x12.dlx"))
    assert laid is not None
    runner = routes.FrontierRunner(laid)
    while runner.counting is None or runner.counting.done < 4:
        assert runner.advance(0.002) is None
    projected = runner.remaining()
    spent = projected  # a rival that has spent as much: no drop by time alone
    assert runner.weight(spent) == 1.0
    assert runner.weight(spent, rival_left=projected / 2) == routes.LOW_WEIGHT
    assert runner.weight(spent, rival_left=projected * routes.LEAD * 0.9) == routes.LOW_WEIGHT
    assert runner.weight(spent, rival_left=projected * routes.LEAD * 1.1) == 1.0
