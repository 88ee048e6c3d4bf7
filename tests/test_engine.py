"""The compiled engine: Knuth's statistics, resumability, limits, heuristics, algorithms.

The node and update counts of Knuth's DLX1 on his own files (tests/data/knuth/MANIFEST.md,
parsed here, not retyped) are a strict check that the engine dances exactly as DLX1 does.
The other tests compare the engine with itself under different schedules (one solution at
a time, stopped and resumed, reset, another algorithm or seed), and must agree on every
total.
"""

from __future__ import annotations

import re
import threading
import time
from itertools import pairwise
from pathlib import Path
from typing import Literal

import numpy as np
import pytest
from budget import examples
from builders import Instance, Kind, instances, langford, queens
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from packed import packed

from excover import ExactCover, LimitReached, Search, UsageError
from excover.engines import CompiledEngine, new_engine
from excover.engines._links import DONE, MAX_NODES, MAX_SOLUTIONS, SOLUTION, TIMEOUT, LinksEngine
from excover.names import SEARCH_ENGINES

KNUTH = Path(__file__).parent / "data" / "knuth"

KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")

#: The engine's array arguments: n_primary, n_secondary, option_start, node_item,
#: node_color, lo, hi.
Arrays = tuple[int, int, list[int], list[int], list[int], list[int], list[int]]


def manifest() -> dict[str, tuple[int, int, int]]:
    """Knuth's (solutions, nodes, updates) for every file of the manifest's table that has
    them, by file name."""
    row = re.compile(r"^\| (\S+\.dlx)[^|]*\| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|")
    figures = {}
    for line in (KNUTH / "MANIFEST.md").read_text().splitlines():
        match = row.match(line)
        if match:
            name, *numbers = match.groups()
            solutions, nodes, updates = (int(n.replace(",", "")) for n in numbers)
            figures[name] = (solutions, nodes, updates)
    return figures


MANIFEST = manifest()
#: The files whose whole search takes under 100,000 nodes (well under a second each).
SMALL_FILES = sorted(
    path.name
    for path in KNUTH.glob("*.dlx")
    if path.name in MANIFEST and MANIFEST[path.name][1] < 100_000
)


def engine(
    problem: ExactCover,
    heuristic: str = "mrv",
    seed: int = 0,
    algorithm: Literal["X", "C", "M"] | None = None,
) -> CompiledEngine:
    """A fresh engine over the problem's arrays."""
    return new_engine(problem, heuristic, seed, algorithm)


def totals(run: CompiledEngine) -> tuple[int, int, int]:
    return run.solutions, run.nodes, run.updates


def one_by_one(run: CompiledEngine) -> list[list[int]]:
    """Every remaining solution, stopping the engine at each one."""
    found = []
    while run.run(False, -1, -1, 0.0) == SOLUTION:
        found.append(run.solution())
    return found


def colored_problem() -> ExactCover:
    """A small XCC problem: a row of four cells, each painted r or g by an option that
    gives the same color to the boundaries on both sides of its cell (colored secondary
    items), so neighbours must agree."""
    problem = ExactCover(primary=["c0", "c1", "c2", "c3"], secondary=["e0", "e1", "e2"])
    for cell in range(4):
        for color in "rg":
            items = [f"c{cell}"]
            if cell > 0:
                items.append(f"e{cell - 1}:{color}")
            if cell < 3:
                items.append(f"e{cell}:{color}")
            problem.add_option(items)
    return problem


def multiset_problem() -> ExactCover:
    """An MCC problem whose items are independent: three options for each of a (taken 1
    or 2 times), b (0 to 3 times) and c (exactly twice), so (3 + 3) * 2**3 * 3 = 144
    solutions."""
    problem = ExactCover(primary=["a", "b", "c"])
    for item in "abc":
        for _ in range(3):
            problem.add_option([item])
    problem.set_multiplicity("a", 1, 2)
    problem.set_multiplicity("b", 0, 3)
    problem.set_multiplicity("c", 2, 2)
    return problem


# --- Knuth's statistics ---------------------------------------------------------------


@pytest.mark.parametrize("name", SMALL_FILES)
def test_knuth_files_have_dlx1_nodes_and_updates(name: str) -> None:
    search = Search(ExactCover.read(KNUTH / name), engine="dlx")
    search.count()
    stats = search.stats
    assert (stats.solutions, stats.nodes, stats.updates) == MANIFEST[name]
    assert stats.algorithm == "X" and stats.complete and stats.engine == "dlx"


@pytest.mark.parametrize("name", SMALL_FILES)
def test_the_bit_parallel_engine_has_dlx1_solutions_and_nodes(name: str) -> None:
    """The same search tree as DLX1: same item choices, so the same number of nodes."""
    search = Search(ExactCover.read(KNUTH / name), engine="bits")
    search.count()
    stats = search.stats
    assert (stats.solutions, stats.nodes) == MANIFEST[name][:2]
    assert stats.algorithm == "X" and stats.complete and stats.engine == "bits"


def test_the_small_files_are_checked() -> None:
    assert len(SMALL_FILES) >= 5


@pytest.mark.parametrize("algorithm", ["C", "M"])
def test_general_algorithms_agree_with_x(algorithm: Literal["C", "M"]) -> None:
    """C dances exactly like X when there are no colors; M visits the same tree (it skips
    the one update DLX1 spends covering an item that has no option left)."""
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    reference = engine(problem)
    reference.run(True, -1, -1, 0.0)
    run = engine(problem, algorithm=algorithm)
    assert run.algorithm == algorithm
    run.run(True, -1, -1, 0.0)
    assert (run.solutions, run.nodes) == (reference.solutions, reference.nodes)
    if algorithm == "C":
        assert run.updates == reference.updates
    else:
        assert run.updates <= reference.updates


def test_memory_is_within_twice_knuths_byte_count() -> None:
    """Knuth's DLX1 reports 16 bytes per item, 16 per node (headers and spacers included)
    and 4 per level reached."""
    for name in SMALL_FILES:
        problem = ExactCover.read(KNUTH / name)
        arrays = problem.engine_input()
        n_options = len(arrays.option_start) - 1
        items = problem.n_items + 1
        nodes = items + n_options + 1 + len(arrays.node_item)
        knuth = 16 * items + 16 * nodes + 4 * problem.n_primary
        assert engine(problem).memory_bytes <= 2 * knuth


# --- one solution at a time, resuming, reset -------------------------------------------


def test_solutions_one_by_one_then_count_equals_a_straight_count() -> None:
    problem = queens(8)
    straight = engine(problem)
    assert straight.run(True, -1, -1, 0.0) == DONE
    run = engine(problem)
    first = [run.solution() for _ in range(10) if run.run(False, -1, -1, 0.0) == SOLUTION]
    assert len(first) == 10
    assert run.run(True, -1, -1, 0.0) == DONE
    assert totals(run) == totals(straight)
    assert run.finished


def test_solution_order_is_that_of_a_fresh_run() -> None:
    problem = langford(7)
    whole = one_by_one(engine(problem))
    assert len(whole) == 2 * 26
    run = engine(problem)
    head = [run.solution() for _ in range(5) if run.run(False, -1, -1, 0.0) == SOLUTION]
    run.run(True, -1, run.nodes + 50, 0.0)
    # Nodes stopped mid-tree: what follows continues the same sequence.
    tail = one_by_one(run)
    assert head == whole[:5]
    assert tail == whole[len(whole) - len(tail) :]
    assert all(problem.is_solution(solution) for solution in whole)
    assert len({frozenset(solution) for solution in whole}) == len(whole)


def test_reset_after_a_partial_run_replays_the_same_search() -> None:
    for problem in (queens(7), colored_problem(), multiset_problem()):
        fresh = engine(problem)
        expected = one_by_one(fresh)
        stats = totals(fresh)
        run = engine(problem)
        run.run(False, -1, -1, 0.0)
        run.run(True, -1, run.nodes + 7, 0.0)
        run.reset()
        assert totals(run) == (0, 0, 0) and not run.finished
        assert one_by_one(run) == expected
        assert totals(run) == stats
        run.reset()
        assert run.run(True, -1, -1, 0.0) == DONE and totals(run) == stats


def test_reset_after_the_end() -> None:
    run = engine(queens(6))
    run.run(True, -1, -1, 0.0)
    first = totals(run)
    run.reset()
    assert run.run(True, -1, -1, 0.0) == DONE
    assert totals(run) == first == (4, run.nodes, run.updates)


def test_engine_refuses_other_callers_while_it_runs() -> None:
    """run() works without the GIL; meanwhile another thread may not touch the state.
    A run of 3,000,000 nodes lasts about half a second: should this thread get no turn
    while it lasts (a loaded machine), a fresh run tries again, up to 20 times."""
    refused = False
    for _ in range(20):
        run = engine(queens(15))
        worker = threading.Thread(target=run.run, args=(True, -1, 3_000_000, 0.0))
        worker.start()
        while worker.is_alive() and not refused:
            try:
                run.reset()  # before the run starts, a reset is allowed (and changes nothing)
            except RuntimeError as error:
                refused = "another thread" in str(error)
            time.sleep(0.001)
        worker.join()
        assert run.nodes == 3_000_000 and not run.finished
        if refused:
            break
    assert refused


def test_solution_needs_a_solution() -> None:
    run = engine(queens(4))
    with pytest.raises(RuntimeError):
        run.solution()
    run.run(True, -1, -1, 0.0)
    with pytest.raises(RuntimeError):
        run.solution()


@settings(max_examples=examples(50))
@given(
    st.sampled_from(KINDS).flatmap(
        lambda kind: st.tuples(st.just(kind), instances(kind, max_options=8))
    ),
    st.lists(st.integers(0, 6), min_size=1, max_size=40),
    st.sampled_from(["mrv", "leftmost", "random"]),
)
def test_any_schedule_of_stops_reaches_the_same_search(
    drawn: tuple[Kind, Instance], steps: list[int], heuristic: str
) -> None:
    """Stopping at solutions and at node limits, in any order, then finishing, visits the
    solutions of a run that never stopped, in its order, with its totals; forcing
    Algorithm M finds the same solutions."""
    kind, instance = drawn
    problem = instance.build()
    reference = engine(problem, heuristic, 11)
    expected = one_by_one(reference)
    assert {frozenset(solution) for solution in expected} == instance.all_covers()
    run = engine(problem, heuristic, 11)
    for step in steps:
        if step == 0:
            status = run.run(False, -1, -1, 0.0)
        else:
            status = run.run(True, -1, run.nodes + step, 0.0)
        if status == SOLUTION:
            assert run.solution() == expected[run.solutions - 1]
    while run.run(False, -1, -1, 0.0) == SOLUTION:
        assert run.solution() == expected[run.solutions - 1]
    assert totals(run) == totals(reference)
    forced = engine(problem, heuristic, 11, algorithm="M")
    assert {frozenset(found) for found in one_by_one(forced)} == instance.all_covers()
    if kind == "X" and heuristic != "random":
        assert forced.nodes == reference.nodes


# --- limits ----------------------------------------------------------------------------


def test_max_nodes_stops_exactly_at_the_bound_and_resumes() -> None:
    problem = queens(8)
    straight = engine(problem)
    straight.run(True, -1, -1, 0.0)
    run = engine(problem)
    stops = 0
    while (status := run.run(True, -1, 100 * (stops + 1), 0.0)) == MAX_NODES:
        stops += 1
        assert run.nodes == 100 * stops
    assert status == DONE
    assert stops == (straight.nodes - 1) // 100
    assert totals(run) == totals(straight)


def test_count_until_runs_a_search_in_steps() -> None:
    """count_until stops quietly at a node bound of the whole run (one past it when the
    last node entered is a solution, which counts as a node) and the steps add up to one
    uninterrupted count; the max_nodes limit, when lower, still raises."""
    problem = queens(8)
    whole = Search(problem)
    assert whole.count() == 92
    steps = Search(problem)
    bound = 0
    while not steps.count_until(bound):
        assert steps.stats.nodes in (bound, bound + 1) and steps.stats.stopped_by is None
        bound += 97
    assert steps.count() == 92 and steps.stats.nodes == whole.stats.nodes
    limited = Search(problem, max_nodes=100)
    with pytest.raises(LimitReached):
        limited.count_until(180)
    assert limited.stats.nodes == 100 and limited.stats.stopped_by == "max_nodes"
    assert Search(problem, max_nodes=100).count_until(30) is False
    with pytest.raises(UsageError):
        Search(problem).count_until(-1)


def test_max_solutions_counts_up_to_the_bound() -> None:
    run = engine(queens(8))
    assert run.run(True, 10, -1, 0.0) == MAX_SOLUTIONS
    assert run.solutions == 10 and not run.finished
    assert run.run(True, 10, -1, 0.0) == MAX_SOLUTIONS
    assert run.run(False, 11, -1, 0.0) == SOLUTION
    assert run.solutions == 11
    assert run.run(True, 0, -1, 0.0) == MAX_SOLUTIONS
    assert run.run(True, -1, -1, 0.0) == DONE and run.solutions == 92


def test_max_solutions_through_search() -> None:
    search = Search(queens(6), max_solutions=3)
    assert search.count() == 3
    assert search.stats.stopped_by == "max_solutions"
    assert list(Search(queens(6), max_solutions=3).solutions()) == list(
        Search(queens(6)).solutions(limit=3)
    )


def test_deadline_in_the_past_stops_with_timeout_and_resumes() -> None:
    problem = queens(11)
    straight = engine(problem)
    straight.run(True, -1, -1, 0.0)
    run = engine(problem)
    status = run.run(True, -1, -1, time.monotonic() - 1.0)
    assert status == TIMEOUT and 0 < run.updates < straight.updates
    assert run.run(True, -1, -1, 0.0) == DONE
    assert totals(run) == totals(straight)


# --- listing in bulk -------------------------------------------------------------------


def table_rows(table: tuple[NDArray[np.int64], NDArray[np.int64]]) -> list[list[int]]:
    """The solutions of :meth:`Search.solution_table` as lists of option indices."""
    options, starts = table
    bounds = starts.tolist()
    return [options[a:b].tolist() for a, b in pairwise(bounds)]


@settings(max_examples=examples(60))
@given(
    st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, max_options=8)),
    st.sampled_from(SEARCH_ENGINES),
    st.integers(0, 4),
)
def test_the_solution_table_lists_what_solutions_lists(
    instance: Instance, engine_name: str, taken: int
) -> None:
    """After any number of solutions taken one by one, the table holds the rest: the
    solutions of ``solutions()``, in its order, each option in its place, with its
    totals."""
    problem = instance.build()
    if engine_name == "cells" and instance.bounds != tuple([(1, 1)] * instance.n_primary):
        engine_name = "dlx"  # dancing cells run no multiplicities
    expected = list(Search(problem, engine=engine_name, seed=3).solutions())
    search = Search(problem, engine=engine_name, seed=3)
    first = list(search.solutions(limit=taken))
    assert first + table_rows(search.solution_table()) == expected
    assert search.stats.complete and search.stats.solutions == len(expected)
    assert table_rows(search.solution_table()) == []  # nothing left


def test_the_solution_table_keeps_the_limits() -> None:
    """``max_solutions`` ends the table quietly; ``max_nodes`` and a deadline raise as
    :meth:`Search.first` does, and the search goes on from there."""
    every = list(Search(queens(6)).solutions())
    assert table_rows(Search(queens(6), max_solutions=3).solution_table()) == every[:3]
    limited = Search(queens(8), max_nodes=50)
    with pytest.raises(LimitReached):
        limited.solution_table()
    assert limited.stats.stopped_by == "max_nodes"
    late = Search(queens(6))
    late.deadline = time.monotonic() - 1.0
    with pytest.raises(LimitReached):
        late.solution_table()
    late.deadline = None
    assert table_rows(late.solution_table()) == every
    assert table_rows(Search(ExactCover(primary=["a"])).solution_table()) == []
    assert table_rows(Search(ExactCover()).solution_table()) == [[]]


# --- heuristics ------------------------------------------------------------------------


def test_random_ties_are_reproducible_and_keep_the_count() -> None:
    problem = langford(8)
    stats = set()
    for seed in (1, 2, 3, 4):
        first = engine(problem, "random", seed)
        first.run(True, -1, -1, 0.0)
        again = engine(problem, "random", seed)
        again.run(True, -1, -1, 0.0)
        assert totals(first) == totals(again)
        assert first.solutions == 2 * 150
        stats.add(totals(first))
    assert len(stats) > 1


def test_random_solution_sequence_depends_only_on_the_seed() -> None:
    problem = queens(7)
    assert one_by_one(engine(problem, "random", 9)) == one_by_one(engine(problem, "random", 9))
    shuffled = {frozenset(solution) for solution in one_by_one(engine(problem, "random", 8))}
    assert shuffled == {frozenset(solution) for solution in one_by_one(engine(problem))}


@pytest.mark.parametrize("heuristic", ["mrv", "leftmost", "random"])
def test_every_heuristic_finds_every_algorithms_solutions(heuristic: str) -> None:
    for problem, count in ((queens(6), 4), (colored_problem(), 2), (multiset_problem(), 144)):
        run = engine(problem, heuristic, 5)
        solutions = one_by_one(run)
        assert len(solutions) == count == run.solutions
        assert all(problem.is_solution(solution) for solution in solutions)


def test_leftmost_ignores_lengths_and_mrv_prefers_short_lists() -> None:
    """Item a has two options and b one: MRV branches on b first, leftmost on a, which
    shows in the level order of the first solution."""
    problem = ExactCover(primary=["a", "b"])
    for items in (["a"], ["a"], ["b"]):
        problem.add_option(items)
    for heuristic, first in (("mrv", [2, 0]), ("leftmost", [0, 2]), ("random", [2, 0])):
        run = engine(problem, heuristic, 3)
        assert run.run(False, -1, -1, 0.0) == SOLUTION
        assert run.solution() == first


# --- algorithm selection and edge cases --------------------------------------------------


def test_the_cheapest_algorithm_is_chosen() -> None:
    assert engine(queens(4)).algorithm == "X"
    assert engine(colored_problem()).algorithm == "C"
    assert engine(multiset_problem()).algorithm == "M"
    with pytest.raises(ValueError):
        engine(colored_problem(), algorithm="X")
    with pytest.raises(ValueError):
        engine(multiset_problem(), algorithm="C")


def test_colored_count_matches_a_hand_count() -> None:
    """Every cell picks r or g and neighbours agree on the edge between them, so all four
    cells share one color: 2 solutions."""
    run = engine(colored_problem())
    assert run.run(True, -1, -1, 0.0) == DONE
    assert run.solutions == 2


def test_no_primary_items_gives_the_empty_solution() -> None:
    run = engine(ExactCover(secondary=["x"]))
    assert run.run(False, -1, -1, 0.0) == SOLUTION
    assert run.solution() == []
    assert run.run(False, -1, -1, 0.0) == DONE
    assert (run.solutions, run.nodes, run.updates) == (1, 1, 0)


def test_an_item_without_options_has_no_solution() -> None:
    problem = ExactCover(primary=["a", "b"])
    problem.add_option(["a"])
    run = engine(problem)
    assert run.run(True, -1, -1, 0.0) == DONE
    # DLX1 chooses b (LEN 0), covers it (one update) and backs up.
    assert (run.solutions, run.nodes, run.updates) == (0, 1, 1)


def test_option_of_secondary_items_only_does_not_crash() -> None:
    run = LinksEngine(packed(1, 1, [0, 1, 2], [0, 1], [0, 0], [1], [1]), 0, 0)
    assert run.run(True, -1, -1, 0.0) == DONE
    assert run.solutions == 1


def test_a_hundred_thousand_levels() -> None:
    """Deep searches need no recursion: one option per item (leftmost: O(1) per level), and
    one item taken 100,000 times (Algorithm M, which needs a level per option)."""
    n = 100_000
    run = LinksEngine(packed(n, 0, range(n + 1), range(n), [0] * n, [1] * n, [1] * n), 1, 0)
    assert run.run(False, -1, -1, 0.0) == SOLUTION
    assert run.solution() == list(range(n))
    assert run.run(True, -1, -1, 0.0) == DONE
    assert (run.solutions, run.nodes, run.updates) == (1, n + 1, n)
    deep = LinksEngine(packed(1, 0, range(n + 1), [0] * n, [0] * n, [n], [n]), 0, 0)
    assert deep.algorithm == "M"
    assert deep.run(False, -1, -1, 0.0) == SOLUTION
    assert sorted(deep.solution()) == list(range(n))
    deep.reset()
    assert deep.run(True, -1, -1, 0.0) == DONE and deep.solutions == 1


@pytest.mark.parametrize(
    "arguments",
    [
        (-1, 0, [0], [], [], [], []),  # negative count
        (1, 0, [0, 1], [1], [0], [1], [1]),  # item out of range
        (2, 0, [0, 2], [1, 1], [0, 0], [1, 1], [1, 1]),  # item twice in an option
        (1, 0, [0, 2, 1], [0, 0], [0, 0], [1], [1]),  # option_start decreasing
        (1, 0, [0, 1], [0], [0], [1], [1, 1]),  # hi of the wrong length
        (1, 0, [0, 1], [0], [], [1], [1]),  # colors of the wrong length
        (1, 0, [0, 1], [0], [3], [1], [1]),  # color on a primary item
        (1, 1, [0, 2], [0, 1], [0, -2], [1], [1]),  # negative color
        (1, 0, [0, 1], [0], [0], [2], [1]),  # lo > hi
        (1, 0, [0, 1], [0], [0], [0], [0]),  # hi = 0
        (1, 0, [1, 1], [0], [0], [1], [1]),  # option_start not from 0
    ],
)
def test_malformed_arrays_raise_value_error(arguments: Arrays) -> None:
    with pytest.raises(ValueError):
        LinksEngine(packed(*arguments), 0, 0)
    with pytest.raises(ValueError):
        LinksEngine(packed(1, 0, [0, 1], [0], [0], [1], [1]), 7, 0)  # unknown heuristic
