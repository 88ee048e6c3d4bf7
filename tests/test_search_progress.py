"""The share of the search tree walked (``Search.progress``, Knuth's estimate from the
choices on the current path) and its use in the route choice's race: the frontier count
keeps an even share only while it projects to finish no later than the search does."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from budget import examples
from every_way import engines_for, engines_telling_progress
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover
from excover.counting import routes
from excover.names import SEARCH_ENGINES
from excover.puzzles.queens import queens
from excover.zdd import frontier

KNUTH = Path(__file__).parent / "data" / "knuth"


def shares(
    problem: ExactCover, step: int, engine: str = "bits", **options: object
) -> tuple[list[float], int]:
    """The share walked after every ``step`` nodes of a count on ``engine`` (one of
    :func:`engines_telling_progress`), then the count."""
    search = problem.search(engine=engine, **options)  # type: ignore[arg-type]
    seen = [search.progress()]
    while not search.count_until(search.stats.nodes + step):
        seen.append(search.progress())
    total = search.count()
    seen.append(search.progress())
    assert all(share is not None for share in seen)
    return [float(share) for share in seen if share is not None], total


@pytest.mark.parametrize("engine", engines_telling_progress())
@pytest.mark.parametrize("name", ["pento3x20", "scott", "queens10"])
def test_the_share_grows_from_zero_to_one(name: str, engine: str) -> None:
    """0 before the first node, 1 once the count is over, never going back between (a
    branch done stays done: the shares only add up), within [0, 1] all along."""
    problem = ExactCover.read(KNUTH / f"{name}.dlx")
    seen, total = shares(problem, 2000, engine)
    assert total == problem.count(method="search")
    assert seen[0] == 0.0 and seen[-1] == 1.0
    assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise(seen))
    assert len(set(seen)) > 3  # it moves inside the count, not only at its ends


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(min_value=4, max_value=9), st.sampled_from(["mrv", "forced", "weighted"]))
def test_the_share_never_goes_back_on_queens(n: int, heuristic: str) -> None:
    """Any board, any heuristic of the bit-parallel engine (forced levels count as one
    branch): the share only grows and ends at 1."""
    seen, total = shares(queens(n), 7, heuristic=heuristic)
    assert total == queens(n).count(method="search", engine="dlx")
    assert seen[-1] == 1.0
    assert all(a <= b for a, b in itertools.pairwise(seen))


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(min_value=4, max_value=9), st.integers(min_value=1, max_value=50))
def test_the_links_share_never_goes_back_on_queens(n: int, step: int) -> None:
    """Dancing links, stopped every ``step`` nodes anywhere in its tree (at a solution
    or not): the share only grows and ends at 1, and the count is the true one."""
    seen, total = shares(queens(n), step, "dlx")
    assert total == queens(n).count(method="search", engine="bits")
    assert seen[-1] == 1.0
    assert all(a <= b for a, b in itertools.pairwise(seen))


@pytest.mark.parametrize("name", ["pento3x20", "queens10"])
def test_links_tells_the_share_the_bit_parallel_engine_tells(name: str) -> None:
    """The two engines walk the same tree (same heuristic, no multiplicities): stopped
    after the same nodes, dancing links tells the share the bit-parallel engine tells,
    though each reads it off its own structure (the items' lists, the bitsets)."""
    problem = ExactCover.read(KNUTH / f"{name}.dlx")
    links, bits = problem.search(engine="dlx"), problem.search(engine="bits")
    told = 0
    while True:
        ended = links.count_until(links.stats.nodes + 997)
        assert bits.count_until(links.stats.nodes) == ended
        assert links.progress() == pytest.approx(bits.progress(), rel=1e-9, abs=1e-12)
        told += 1
        if ended:
            break
    assert told > 3 and links.stats.nodes == bits.stats.nodes


def test_cells_and_multiplicities_do_not_tell() -> None:
    """Dancing cells keeps no such estimate; Algorithm M is not estimated this way (its
    branches close items): None, from every engine that runs it."""
    assert "cells" not in engines_telling_progress()
    assert set(engines_telling_progress()) <= set(SEARCH_ENGINES)
    assert queens(6).search(engine="cells").progress() is None
    multi = ExactCover(["a", "b"])
    for option in (["a"], ["a"], ["b"]):
        multi.add_option(option)
    multi.set_multiplicity("a", 1, 2)
    assert engines_for(multi)
    for engine in engines_for(multi):
        assert multi.search(engine=engine).progress() is None


def test_dxz_and_the_component_count_tell_their_share() -> None:
    """DXZ's share of its tree (memo hits done at once) and the component count's,
    read between steps: within [0, 1], never going back, 1 at the end, and the counts
    are the true ones."""
    problem = queens(11)
    dxz = routes.DxzRunner(problem)
    components = routes.ComponentsRunner(problem)
    for runner in (dxz, components):
        seen = []
        while runner.advance(0.002) is None:
            share = runner.progress()
            if share is not None:
                seen.append(share)
        assert len(set(seen)) > 3  # measured inside the count, not only at its end
        final = runner.progress()
        assert runner.count == 2680 and final == 1.0
        seen.append(final)
        assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise(seen))


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
