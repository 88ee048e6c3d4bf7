"""The bit-parallel engine's own item choices, against plain MRV: forced moves
(``heuristic="forced"``) and failure weights (``heuristic="weighted"``).

Where some item has one option left, the forced heuristic covers every such item by its
option at once, in one node. Every solution holds those options, and MRV would take them
one node after another (it branches on an item of one option before any item of more),
reaching the same state before its next real branching; so the forced tree is MRV's tree
with its chains of single-child nodes drawn together. Hence the properties checked here
on random problems past one machine word (colors included): the same solutions in the
same order, each as a set of options, the same count, and never more nodes.

Weighted choice branches on other items than MRV (an item's weight grows each time it is
found with no option left, and the choice takes the fewest options per unit of weight),
so its tree is another: the same solutions, each once, in another order.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from budget import examples
from builders import wide_problems
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from excover import ExactCover, LimitReached, Search, UsageError
from excover.engines._bits import BitEngine
from excover.engines._links import SOLUTION
from excover.names import SEARCH_ENGINES

KNUTH = Path(__file__).parent / "data" / "knuth"
FORCED = 3  # the engine's codes of heuristics "forced" and "weighted"
WEIGHTED = 4


#: The node limits of the random searches below: a problem whose tree is larger is drawn
#: again. The few large trees take most of the time, so the default run stops at 20,000
#: nodes and the slow run (``-m slow``) goes to a million.
NODE_LIMITS = [20_000, pytest.param(10**6, marks=pytest.mark.slow)]


def run(
    problem: ExactCover, heuristic: str, max_nodes: int
) -> tuple[list[frozenset[int]], int, int] | None:
    """The solutions (as sets of options, in order), the count and the nodes of a search
    on the bit-parallel engine; None past ``max_nodes`` nodes."""
    search = Search(problem, engine="bits", heuristic=heuristic, max_nodes=max_nodes)
    try:
        found = [frozenset(solution) for solution in search.solutions()]
    except LimitReached:
        return None
    return found, search.stats.solutions, search.stats.nodes


@pytest.mark.parametrize("max_nodes", NODE_LIMITS)
@settings(max_examples=examples(150), deadline=None)
@given(problem=wide_problems(max_options=120))
def test_forced_moves_find_the_solutions_of_mrv_in_fewer_nodes(
    problem: ExactCover, max_nodes: int
) -> None:
    mrv = run(problem, "mrv", max_nodes)
    assume(mrv is not None)
    forced = run(problem, "forced", max_nodes)
    assert forced is not None and mrv is not None
    assert forced[0] == mrv[0]  # the same solutions, in the same order
    assert forced[1] == mrv[1]
    assert forced[2] <= mrv[2]


@pytest.mark.parametrize("max_nodes", NODE_LIMITS)
@settings(max_examples=examples(150), deadline=None)
@given(problem=wide_problems(max_options=120))
def test_weighted_choice_finds_the_solutions_of_mrv(problem: ExactCover, max_nodes: int) -> None:
    mrv = run(problem, "mrv", max_nodes)
    assume(mrv is not None)
    weighted = run(problem, "weighted", max_nodes)
    assume(weighted is not None)
    assert weighted is not None and mrv is not None
    assert len(set(weighted[0])) == len(weighted[0]) == weighted[1] == mrv[1]
    assert set(weighted[0]) == set(mrv[0])


@settings(max_examples=examples(60), deadline=None)
@given(
    wide_problems(max_options=70),
    st.lists(st.integers(0, 6), min_size=1, max_size=30),
    st.sampled_from([FORCED, WEIGHTED]),
)
def test_the_engines_own_choices_resume_after_any_stop(
    problem: ExactCover, steps: list[int], heuristic: int
) -> None:
    """Stopping at solutions and node limits in any order, then finishing, gives the
    solutions (each option once) and totals of a run that never stopped."""
    a = problem.engine_input()

    def fresh() -> BitEngine:
        return BitEngine(a, heuristic, 5)

    reference = fresh()
    expected = []
    while reference.run(False, -1, -1, 0.0) == SOLUTION:
        expected.append(reference.solution())
    stopped = fresh()
    found = []
    for step in steps:
        if step % 2:
            status = stopped.run(False, -1, -1, 0.0)
        else:
            status = stopped.run(False, -1, int(stopped.nodes) + step, 0.0)
        if status == SOLUTION:
            found.append(stopped.solution())
    while stopped.run(False, -1, -1, 0.0) == SOLUTION:
        found.append(stopped.solution())
    assert found == expected
    assert (stopped.solutions, stopped.nodes) == (reference.solutions, reference.nodes)
    for solution in found:
        assert len(solution) == len(set(solution))
        covered = sorted(i for option in solution for i in problem.option_items(option))
        primary = [i for i in covered if i in set(problem.primary_items)]
        assert sorted(primary) == sorted(problem.primary_items)


@pytest.mark.parametrize(
    ("name", "solutions"), [("queens12", 14200), ("pento3x20", 8), ("scott-pfix", 65)]
)
def test_knuth_files_count_the_same_in_fewer_nodes(name: str, solutions: int) -> None:
    problem = ExactCover.read(KNUTH / f"{name}.dlx")
    plain = Search(problem, engine="bits")
    forced = Search(problem, engine="bits", heuristic="forced")
    assert plain.count() == forced.count() == solutions
    assert forced.stats.nodes < plain.stats.nodes


def test_latin_squares_lose_most_of_their_nodes() -> None:
    """Latin squares of order 5 with the first row fixed (1,344: OEIS A002860(5) / 5!):
    most of MRV's nodes there are forced, and the forced search has under half of them."""
    cells = [f"p{r}{c}" for r in range(1, 5) for c in range(5)]
    rows = [f"r{r}{s}" for r in range(1, 5) for s in range(5)]
    columns = [f"c{c}{s}" for c in range(5) for s in range(5) if s != c]
    problem = ExactCover(cells + rows + columns)
    for r in range(1, 5):
        for c in range(5):
            for s in range(5):
                if s != c:
                    problem.add_option([f"p{r}{c}", f"r{r}{s}", f"c{c}{s}"])
    plain = Search(problem, engine="bits")
    forced = Search(problem, engine="bits", heuristic="forced")
    assert plain.count() == forced.count() == 161280 // 120
    assert 2 * forced.stats.nodes < plain.stats.nodes


@pytest.mark.parametrize("heuristic", ["forced", "weighted"])
def test_the_engines_own_choices_are_refused_where_they_do_not_run(heuristic: str) -> None:
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    for engine in (e for e in SEARCH_ENGINES if e != "bits"):
        with pytest.raises(UsageError, match="bit-parallel engine"):
            Search(problem, engine=engine, heuristic=heuristic)
    with pytest.raises(UsageError, match="shares"):
        Search(problem, heuristic=heuristic, share=(0, 2))
    multi = ExactCover(["a", "b"])
    multi.add_option(["a"])
    multi.add_option(["a", "b"])
    multi.set_multiplicity("a", 1, 2)
    with pytest.raises(UsageError, match="multiplicities"):
        Search(multi, heuristic=heuristic)


def test_weighted_choice_counts_knuth_files() -> None:
    for name, solutions in (("queens10", 724), ("pento3x20", 8), ("scott-pfix", 65)):
        problem = ExactCover.read(KNUTH / f"{name}.dlx")
        assert Search(problem, heuristic="weighted").count() == solutions


@pytest.mark.parametrize("heuristic", ["forced", "weighted"])
def test_a_count_on_workers_cuts_subproblems_instead_of_shares(heuristic: str) -> None:
    """Shares would deal out the units of one tree (forced levels are not units, and
    weights differ from share to share): a count on workers takes subproblems instead."""
    problem = ExactCover.read(KNUTH / "queens10.dlx")
    assert problem.count(workers=2, heuristic=heuristic) == 724
