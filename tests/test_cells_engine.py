"""The dancing-cells engine against dancing links and against the brute-force oracle.

Dancing links are the reference: with a deterministic heuristic (MRV or leftmost) both
engines walk the same search tree, so they must agree on the solutions, their order and
the number of nodes. The engines are driven directly through their flat arrays.
"""

from __future__ import annotations

import time
from pathlib import Path

import builders
import pytest
from budget import examples
from builders import Instance, instances, langford
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from packed import packed

from excover import ExactCover
from excover.engines import HEURISTICS, new_engine
from excover.engines._bits import BitEngine
from excover.engines._cells import CellEngine
from excover.engines._links import (
    DONE,
    MAX_NODES,
    MAX_SOLUTIONS,
    SOLUTION,
    TIMEOUT,
    LinksEngine,
)

KNUTH = Path(__file__).parent / "data" / "knuth"

Runner = LinksEngine | BitEngine | CellEngine


def cells(problem: ExactCover, heuristic: str = "mrv", seed: int = 0, **kw: int) -> CellEngine:
    return CellEngine(
        problem.engine_input(),
        HEURISTICS[heuristic],
        seed,
        **kw,  # type: ignore[arg-type]
    )


def links(problem: ExactCover, heuristic: str = "mrv", seed: int = 0) -> LinksEngine:
    engine = new_engine(problem, heuristic, seed, engine="dlx")
    assert isinstance(engine, LinksEngine)
    return engine


def every(run: Runner, limit: int = -1, max_nodes: int = -1) -> list[list[int]]:
    """The solutions of a run, in order (at most ``limit``, within ``max_nodes``)."""
    found: list[list[int]] = []
    while len(found) != limit and run.run(False, -1, max_nodes, 0.0) == SOLUTION:
        found.append(run.solution())
    return found


def wide_problems(max_options: int = 120) -> SearchStrategy[ExactCover]:
    """:func:`builders.wide_problems` with up to 60 primary items, 30 secondary items and
    4 colors."""
    return builders.wide_problems(max_options, max_primary=60, max_secondary=30, max_colors=4)


def same_tree(problem: ExactCover, heuristic: str, max_nodes: int = 20_000) -> None:
    """Both engines: the same solutions in the same order, the same nodes and status."""
    a, b = links(problem, heuristic), cells(problem, heuristic)
    assert every(b, max_nodes=max_nodes) == every(a, max_nodes=max_nodes)
    assert (b.solutions, b.nodes, b.finished) == (a.solutions, a.nodes, a.finished)
    assert b.algorithm == a.algorithm


@settings(max_examples=examples(150), deadline=None)
@given(wide_problems(), st.sampled_from(["mrv", "leftmost"]))
def test_random_problems_walk_the_tree_of_dancing_links(problem: ExactCover, h: str) -> None:
    same_tree(problem, h)


@settings(max_examples=examples(150), deadline=None)
@given(st.one_of(instances("X", 9), instances("XCC", 9)))
def test_small_instances_against_the_oracle(instance: Instance) -> None:
    problem = instance.build()
    expected = instance.all_covers()
    for heuristic in ("mrv", "leftmost", "random"):  # "forced" is the bit-parallel engine's
        found = [frozenset(s) for s in every(cells(problem, heuristic, seed=3))]
        assert len(found) == len(set(found))
        assert set(found) == expected
    same_tree(problem, "mrv")
    same_tree(problem, "leftmost")


@settings(max_examples=examples(40), deadline=None)
@given(wide_problems(max_options=80), st.integers(0, 2**63 - 1))
def test_random_ties_find_the_same_solutions(problem: ExactCover, seed: int) -> None:
    found = [frozenset(s) for s in every(cells(problem, "random", seed))]
    assert len(set(found)) == len(found)
    assert set(found) == {frozenset(s) for s in every(links(problem))}
    again = [frozenset(s) for s in every(cells(problem, "random", seed))]
    assert again == found  # the seed decides


@settings(max_examples=examples(50), deadline=None)
@given(wide_problems(max_options=70), st.lists(st.integers(0, 6), min_size=1, max_size=30))
def test_any_schedule_of_stops_reaches_the_same_search(
    problem: ExactCover, steps: list[int]
) -> None:
    """Stopping at solutions and at node limits, in any order, then finishing, gives the
    solutions of a run that never stopped, in its order, and its totals."""
    reference = cells(problem)
    expected = every(reference)
    run = cells(problem)
    for step in steps:
        status = run.run(step == 0, -1, run.nodes + step if step else -1, 0.0)
        if status == SOLUTION:
            assert run.solution() == expected[run.solutions - 1]
    while run.run(False, -1, -1, 0.0) == SOLUTION:
        assert run.solution() == expected[run.solutions - 1]
    assert (run.solutions, run.nodes, run.updates) == (
        reference.solutions,
        reference.nodes,
        reference.updates,
    )
    run.reset()
    assert every(run) == expected and run.nodes == reference.nodes


@pytest.mark.parametrize(
    ("name", "count", "nodes"),
    [
        ("queens8.dlx", 92, 1_049),
        ("queens10.dlx", 724, 11_578),
        ("queens11.dlx", 2_680, 45_393),
        ("pento3x20.dlx", 8, 32_644),
        ("scott-pfix.dlx", 65, 68_298),
    ],
)
def test_knuth_files_give_dlx1_figures(name: str, count: int, nodes: int) -> None:
    run = cells(ExactCover.read(KNUTH / name))
    assert run.run(True, -1, -1, 0.0) == DONE
    assert (run.solutions, run.nodes, run.finished, run.algorithm) == (count, nodes, True, "X")
    assert run.updates > 0 and run.memory_bytes > 0


def test_solutions_of_a_knuth_file_in_the_order_of_dancing_links() -> None:
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    assert every(cells(problem)) == every(links(problem))


def test_first_item_follows_dancing_links() -> None:
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    a = new_engine(problem, "mrv", 0, first_item=3, engine="dlx")
    b = cells(problem, first_item=3)
    assert every(b) == every(a) and b.nodes == a.nodes


def test_secondary_items_and_colors() -> None:
    problem = langford(5)
    same_tree(problem, "mrv")
    p = ExactCover(["a", "b", "c"], ["x", "y"])
    for option in (["a", "x:1"], ["b", "x:1", "y"], ["b", "x:2"], ["c", "y:3"], ["c", "x:2"]):
        p.add_option(option)
    for option in (["a", "b", "x"], ["c", "y:3"], ["a", "y:3"]):
        p.add_option(option)
    run = cells(p)
    assert run.algorithm == "C"
    same_tree(p, "mrv")
    same_tree(p, "leftmost")


def test_options_without_primary_items_keep_their_numbers() -> None:
    # items a=0, b=1 primary, x=2 secondary; options: x | a x | x | b | a
    run = CellEngine(
        packed(2, 1, [0, 1, 3, 4, 5, 6], [2, 0, 2, 2, 1, 0], [0] * 6, [1, 1], [1, 1]), 0, 0
    )
    assert sorted(sorted(s) for s in every(run)) == [[1, 3], [3, 4]]


def test_no_primary_items_and_no_options() -> None:
    empty = CellEngine(packed(0, 1, [0], [], [], [], []), 0, 0)
    assert every(empty) == [[]] and empty.nodes == 1 and empty.finished
    stuck = CellEngine(packed(2, 0, [0, 1], [0], [0], [1, 1], [1, 1]), 0, 0)
    assert stuck.run(True, -1, -1, 0.0) == DONE
    assert (stuck.solutions, stuck.nodes) == (0, 1)


def test_limits() -> None:
    problem = ExactCover.read(KNUTH / "queens10.dlx")
    run = cells(problem)
    assert run.run(True, -1, 500, 0.0) == MAX_NODES and run.nodes == 500
    cap = run.solutions + 7
    assert run.run(True, cap, -1, 0.0) == MAX_SOLUTIONS and run.solutions == cap
    assert run.run(True, cap, -1, 0.0) == MAX_SOLUTIONS
    assert run.run(True, -1, -1, 0.0) == DONE and run.solutions == 724
    assert run.nodes == 11_578 and run.finished
    assert run.run(False, -1, -1, 0.0) == DONE
    with pytest.raises(RuntimeError):
        run.solution()
    timed = cells(ExactCover.read(KNUTH / "pento6x10.dlx"))
    assert timed.run(True, -1, -1, time.monotonic() - 1.0) == TIMEOUT
    assert 0 < timed.nodes < 3_620_988 and not timed.finished


def test_bad_arrays_raise_value_error() -> None:
    with pytest.raises(ValueError, match="multiplicities"):
        CellEngine(packed(1, 0, [0, 1], [0], [0], [0], [2]), 0, 0)
    with pytest.raises(ValueError, match="multiplicities"):
        CellEngine(packed(1, 0, [0, 1], [0], [0], [1], [1]), 0, 0, "M")
    with pytest.raises(ValueError, match=r"2\.\.1"):
        CellEngine(packed(1, 0, [0, 1], [0], [0], [2], [1]), 0, 0)
    with pytest.raises(ValueError, match="algorithm X cannot"):
        CellEngine(packed(1, 1, [0, 2], [0, 1], [0, 1], [1], [1]), 0, 0, "X")
    with pytest.raises(ValueError, match="unknown algorithm"):
        CellEngine(packed(1, 0, [0, 1], [0], [0], [1], [1]), 0, 0, "Z")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="twice"):
        CellEngine(packed(2, 0, [0, 2], [1, 1], [0, 0], [1, 1], [1, 1]), 0, 0)
    with pytest.raises(ValueError, match="out of range"):
        CellEngine(packed(2, 0, [0, 1], [5], [0], [1, 1], [1, 1]), 0, 0)
    with pytest.raises(ValueError, match="color to the primary"):
        CellEngine(packed(1, 0, [0, 1], [0], [3], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="negative color"):
        CellEngine(packed(1, 1, [0, 2], [0, 1], [0, -1], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="option_start"):
        CellEngine(packed(1, 0, [0, 2], [0], [0], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="option_start"):
        CellEngine(packed(1, 0, [], [], [], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="decreases"):
        CellEngine(packed(1, 0, [0, 1, 0, 1], [0], [0], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="one entry per node"):
        CellEngine(packed(1, 0, [0, 1], [0], [], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="one entry per primary"):
        CellEngine(packed(2, 0, [0, 1], [0], [0], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="heuristic"):
        CellEngine(packed(1, 0, [0, 1], [0], [0], [1], [1]), 7, 0)
    with pytest.raises(ValueError, match="first_item"):
        CellEngine(packed(1, 0, [0, 1], [0], [0], [1], [1]), 0, 0, first_item=1)
    with pytest.raises(ValueError, match="fit in a C int"):
        CellEngine(packed(1, 0, [0, 1], [2**40], [0], [1], [1], typecode="q"), 0, 0)
