"""The bit-parallel engine against dancing links, on problems past one machine word.

The brute-force oracle (``test_oracle.py``) covers both engines on tiny instances; here the
instances are larger than a 64-bit word in options, items and colors, so that every
boundary between words of the engine's bitsets is crossed. Dancing links are the
reference: with a deterministic heuristic both engines walk the same search tree, so they
must agree on the solutions, their order and the number of nodes.
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import pytest
from budget import examples
from builders import langford, two_regular_graphs, wide_problems
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from packed import packed

from excover import ExactCover, LimitReached, Search, UsageError
from excover.engines import pick_engine
from excover.engines._bits import MAX_BITS, SIMD, SIMD_LEVELS, BitEngine, bits_needed
from excover.engines._links import SOLUTION

KNUTH = Path(__file__).parent / "data" / "knuth"
HEURISTICS = ["mrv", "leftmost", "random"]


def same_search(
    problem: ExactCover, heuristic: str = "mrv", limit: int = 300, max_nodes: int = 50_000
) -> None:
    """Both engines: the same first ``limit`` solutions in the same order, then the same
    count and the same number of nodes (up to ``max_nodes``, where both must stop)."""
    # specific engines: this module checks the bit-parallel engine against dancing links
    # (the reference) on problems past a machine word; test_oracle.py covers every engine
    runs = [
        Search(problem, engine=engine, heuristic=heuristic, max_nodes=max_nodes)
        for engine in ("dlx", "bits")
    ]
    found: list[list[list[int]]] = [[], []]
    totals = []
    for run, solutions in zip(runs, found, strict=True):
        try:
            solutions.extend(run.solutions(limit))
            run.count()
        except LimitReached:
            assert run.stats.stopped_by == "max_nodes"
        totals.append((run.stats.solutions, run.stats.nodes, run.stats.algorithm))
    assert found[0] == found[1]
    assert totals[0] == totals[1]


@settings(max_examples=examples(120), deadline=None)
@given(wide_problems(), st.sampled_from(["mrv", "leftmost"]))
def test_wide_problems_walk_the_same_tree(problem: ExactCover, heuristic: str) -> None:
    same_search(problem, heuristic)


@settings(max_examples=examples(40), deadline=None)
@given(wide_problems(max_options=70), st.integers(0, 2**63 - 1))
def test_random_ties_find_the_same_solutions(problem: ExactCover, seed: int) -> None:
    """Random tie-breaking draws differently in the two engines: same solution set."""
    dlx = Search(problem, engine="dlx", heuristic="random", seed=seed)
    bits = Search(problem, engine="bits", heuristic="random", seed=seed)
    found = [frozenset(s) for s in bits.solutions()]
    assert len(set(found)) == len(found)
    assert set(found) == {frozenset(s) for s in dlx.solutions()}
    again = Search(problem, engine="bits", heuristic="random", seed=seed)
    assert [frozenset(s) for s in again.solutions()] == found  # the seed decides


@settings(max_examples=examples(40), deadline=None)
@given(wide_problems(max_options=70), st.lists(st.integers(0, 6), min_size=1, max_size=30))
def test_any_schedule_of_stops_reaches_the_same_search(
    problem: ExactCover, steps: list[int]
) -> None:
    """Stopping at solutions and at node limits, in any order, then finishing, gives the
    solutions of a run that never stopped, in its order, and its totals."""
    arrays = problem.engine_input()

    def fresh() -> BitEngine:
        return BitEngine(arrays, 0, 5)

    def every(run: BitEngine) -> list[list[int]]:
        found = []
        while run.run(False, -1, -1, 0.0) == SOLUTION:
            found.append(run.solution())
        return found

    reference = fresh()
    expected = every(reference)
    run = fresh()
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


@settings(max_examples=examples(150), deadline=None)
@given(wide_problems(max_options=40, multiplicities=True), st.sampled_from(HEURISTICS))
def test_multiplicities_find_the_solutions_of_dancing_links(
    problem: ExactCover, heuristic: str
) -> None:
    """Algorithm M: the engines branch differently, so they agree on the set of solutions
    (each found once), not on their order."""
    dlx = Search(problem, engine="dlx", max_nodes=20_000)
    try:
        expected = {frozenset(s) for s in dlx.solutions()}
    except LimitReached:
        assume(False)  # too large to list: rare with 40 options
    bits = Search(problem, engine="bits", heuristic=heuristic, seed=1)
    found = [frozenset(s) for s in bits.solutions()]
    assert len(set(found)) == len(found)
    assert set(found) == expected
    assert bits.stats.algorithm == dlx.stats.algorithm and bits.count() == len(expected)


@settings(max_examples=examples(60), deadline=None)
@given(
    wide_problems(max_options=30, multiplicities=True),
    st.lists(st.integers(0, 6), min_size=1, max_size=30),
)
def test_multiplicities_resume_after_any_stop(problem: ExactCover, steps: list[int]) -> None:
    """Stops at solutions and node limits leave Algorithm M's extra state (counts, items
    being closed) as a run that never stopped has it."""
    reference = Search(problem, engine="bits")
    expected = list(reference.solutions())
    run = Search(problem, engine="bits")
    found: list[list[int]] = []
    for step in steps:
        run.max_nodes = run.stats.nodes + step if step else None
        with contextlib.suppress(LimitReached):
            found.extend(run.solutions(1))
    run.max_nodes = None
    found.extend(run.solutions())
    assert found == expected
    assert (run.stats.nodes, run.stats.updates) == (reference.stats.nodes, reference.stats.updates)


@pytest.mark.parametrize(("n", "expected"), [(6, 70), (7, 465), (8, 3507)])
def test_two_regular_graphs(n: int, expected: int) -> None:
    """Every vertex covered exactly twice by edges: 2-regular spanning subgraphs of K_n
    (OEIS A001205)."""
    problem = two_regular_graphs(n)
    assert Search(problem, engine="bits").count() == expected


@pytest.mark.parametrize("simd", SIMD_LEVELS)
@pytest.mark.parametrize("name", ["queens11.dlx", "pento3x20.dlx", "scott-pfix.dlx"])
def test_every_instruction_set_counts_the_same(simd: str, name: str) -> None:
    """The kernels compiled for each instruction set (capped at what this CPU runs) give
    the same counts and nodes."""
    problem = ExactCover.read(KNUTH / name)
    run = BitEngine(problem.engine_input(), 0, 0, simd=simd)
    assert run.simd == SIMD_LEVELS[min(SIMD_LEVELS.index(simd), SIMD_LEVELS.index(SIMD))]
    run.run(True, -1, -1, 0.0)
    reference = Search(problem, engine="dlx")
    reference.count()
    assert (run.solutions, run.nodes) == (reference.stats.solutions, reference.stats.nodes)


@pytest.mark.parametrize("n", [7, 8, 11])
def test_langford_pairings_with_secondary_items(n: int) -> None:
    """Langford pairings (A014552 doubled: both orders of each pairing)."""
    known = {7: 52, 8: 300, 11: 35584}
    problem = langford(n)
    search = Search(problem, engine="bits")
    assert search.count() == known[n]
    same_search(problem, limit=50)


def test_branch_first_follows_dancing_links() -> None:
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    item = problem.items[3]
    dlx = Search(problem, engine="dlx", branch_first=item)
    bits = Search(problem, engine="bits", branch_first=item)
    assert list(bits.solutions()) == list(dlx.solutions())
    assert bits.stats.nodes == dlx.stats.nodes


@settings(max_examples=examples(60), deadline=None)
@given(wide_problems(max_options=80), st.data())
def test_root_solutions_count_each_option_of_the_first_item(
    problem: ExactCover, data: st.DataObject
) -> None:
    """The solutions under each option of the root's item are those holding it, counted
    across stops (a listing, then a count of the rest); they add up to the count."""
    assume(pick_engine(problem, "bits") == "bits")
    item = data.draw(st.integers(0, problem.n_primary - 1))
    listed = Search(problem, engine="dlx", max_nodes=50_000)
    with contextlib.suppress(LimitReached):
        solutions = list(listed.solutions())
    assume(listed.stats.complete)
    search = Search(problem, engine="bits", branch_first=item)
    for _ in itertools.islice(search.solutions(), data.draw(st.integers(0, 3))):
        pass
    total = search.count()
    under = search.root_solutions()
    assert under is not None
    data_in = problem.engine_input()
    starts, items = data_in.option_start, data_in.node_item
    options = [k for k in range(problem.n_options) if item in items[starts[k] : starts[k + 1]]]
    assert sorted(under) == options
    assert under == {k: sum(k in found for found in solutions) for k in options}
    assert sum(under.values()) == total == len(solutions)
    search.reset()
    assert search.root_solutions() == dict.fromkeys(options, 0)


@settings(max_examples=examples(80), deadline=None)
@given(wide_problems(max_options=120), st.data())
def test_levels_below_a_first_item_walk_the_same_tree(
    problem: ExactCover, data: st.DataObject
) -> None:
    """Below the root's item the engine renumbers the options in play ("Below the
    root"): the same solutions, in the same order with the same nodes as dancing links
    (MRV, leftmost), or the same solutions (forced moves, weighted choice), across stops."""
    assume(pick_engine(problem, "bits") == "bits")
    item = data.draw(st.integers(0, problem.n_primary - 1))
    heuristic = data.draw(st.sampled_from(["mrv", "leftmost", "forced", "weighted"]))
    reference = Search(problem, engine="dlx", branch_first=item, max_nodes=50_000)
    with contextlib.suppress(LimitReached):
        expected = list(reference.solutions())
    assume(reference.stats.complete)
    search = Search(problem, engine="bits", branch_first=item, heuristic=heuristic)
    found = list(itertools.islice(search.solutions(), data.draw(st.integers(0, 5))))
    counted = search.count()
    assert counted == len(expected)
    again = Search(problem, engine="bits", branch_first=item, heuristic=heuristic)
    listed = list(again.solutions())
    assert found == listed[: len(found)]
    if heuristic in ("mrv", "leftmost"):
        dlx = Search(problem, engine="dlx", branch_first=item, heuristic=heuristic)
        assert listed == list(dlx.solutions())
        assert again.stats.nodes == dlx.stats.nodes
    else:
        assert sorted(map(sorted, listed)) == sorted(map(sorted, expected))


def test_root_solutions_are_kept_only_where_they_can_be() -> None:
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    assert Search(problem, engine="bits").root_solutions() is None  # no first item
    assert Search(problem, engine="dlx", branch_first=0).root_solutions() is None
    multi = langford(4)
    multi.set_multiplicity(0, 0, 1)
    assert Search(multi, engine="bits", branch_first=1).root_solutions() is None  # Algorithm M


def test_options_without_primary_items_keep_their_numbers() -> None:
    """Options of secondary items only (the model refuses them; the engine's arrays may
    hold them) can never be chosen: the engine drops them, and the solutions still name
    the caller's option numbers."""
    # items a=0, b=1 primary, x=2 secondary; options: x | a x | x | b | a
    run = BitEngine(
        packed(2, 1, [0, 1, 3, 4, 5, 6], [2, 0, 2, 2, 1, 0], [0] * 6, [1, 1], [1, 1]), 0, 0
    )
    found = []
    while run.run(False, -1, -1, 0.0) == SOLUTION:
        found.append(sorted(run.solution()))
    assert sorted(found) == [[1, 3], [3, 4]]


def test_many_colors_of_one_item() -> None:
    """Seventy colors on one secondary item: its bits span two words."""
    p = ExactCover([f"p{i}" for i in range(70)], ["x"])
    for i in range(70):
        p.add_option([f"p{i}", f"x:c{i % 70}"])
        p.add_option([f"p{i}", "x:c0"])
    assert bits_needed(70, 1, p.engine_input().node_item, p.engine_input().node_color) == 141
    same_search(p, limit=5)
    assert Search(p, engine="bits").count() == 2  # all x:c0, or p0 alone with ...:c0 too


def sudoku_grid(box: int) -> ExactCover:
    """The empty Sudoku grid of ``box`` x ``box`` boxes as an exact cover problem."""
    n = box * box
    grid = ExactCover([f"{kind}{a}_{b}" for kind in "crkx" for a in range(n) for b in range(n)])
    for r, c, d in itertools.product(range(n), repeat=3):
        square = r // box * box + c // box
        grid.add_option([f"c{r}_{c}", f"r{r}_{d}", f"k{c}_{d}", f"x{square}_{d}"])
    return grid


def test_auto_takes_bits_only_where_they_suit() -> None:
    small = ExactCover.read(KNUTH / "queens8.dlx")
    assert pick_engine(small) == "bits"
    assert Search(small).stats.engine == "bits"
    multiple = ExactCover.from_dlx("2:2|a b\na b\na\nb\n")
    assert pick_engine(multiple) == "bits"
    assert Search(multiple).count() == 1
    deep = ExactCover(["a"])
    deep.set_multiplicity("a", 0, 10**6)
    for _ in range(50_000):
        deep.add_option(["a"])  # any subset is a solution: 50,000 levels of 782 words
    with pytest.raises(UsageError, match="level stack"):
        pick_engine(deep, "bits")
    assert pick_engine(deep) == "dlx"
    # a 16x16 sudoku grid: 1,024 items, 4,096 options of 4 items each, few conflicts per
    # option: dancing links do less work per node
    grid = sudoku_grid(4)
    assert pick_engine(grid) == "dlx"
    assert pick_engine(grid, "bits") == "bits"
    assert Search(grid, engine="bits", max_solutions=1).count() == 1
    # 25x25: too many words per node for bitsets, and 25 options per item: dancing cells
    assert pick_engine(sudoku_grid(5)) == "cells"
    with pytest.raises(UsageError, match="dancing cells cannot run this problem"):
        pick_engine(multiple, "cells")
    too_wide = ExactCover([f"i{k}" for k in range(MAX_BITS + 1)])
    with pytest.raises(UsageError, match="bits"):
        pick_engine(too_wide, "bits")
    with pytest.raises(UsageError, match="unknown engine"):
        Search(small, engine="fast")


def test_limits_stop_the_bit_parallel_engine() -> None:
    problem = ExactCover.read(KNUTH / "queens10.dlx")
    capped = Search(problem, engine="bits", max_nodes=500)
    with pytest.raises(LimitReached):
        capped.count()
    assert capped.stats.nodes == 500 and capped.stats.stopped_by == "max_nodes"
    capped.max_nodes = None
    assert capped.count() == 724
    # the deadline is checked between chunks of a few milliseconds of work
    timed = Search(ExactCover.read(KNUTH / "pento6x10.dlx"), engine="bits", timeout=0.0)
    with pytest.raises(LimitReached):
        timed.count()
    assert timed.stats.stopped_by == "timeout" and 0 < timed.stats.nodes < 3_620_988
    assert Search(problem, engine="bits", max_solutions=7).count() == 7


def test_bad_arrays_raise_value_error() -> None:
    with pytest.raises(ValueError, match=r"multiplicity 2\.\.1"):
        BitEngine(packed(1, 0, [0, 1], [0], [0], [2], [1]), 0, 0)
    with pytest.raises(ValueError, match="algorithm X cannot"):
        BitEngine(packed(1, 0, [0, 1], [0], [0], [0], [2]), 0, 0, "X")
    with pytest.raises(ValueError, match="twice"):
        BitEngine(packed(2, 0, [0, 2], [1, 1], [0, 0], [1, 1], [1, 1]), 0, 0)
    with pytest.raises(ValueError, match="out of range"):
        BitEngine(packed(2, 0, [0, 1], [5], [0], [1, 1], [1, 1]), 0, 0)
    with pytest.raises(ValueError, match="color to the primary"):
        BitEngine(packed(1, 0, [0, 1], [0], [3], [1], [1]), 0, 0)
    with pytest.raises(ValueError, match="instruction set"):
        BitEngine(packed(1, 0, [0, 1], [0], [0], [1], [1]), 0, 0, simd="sse9")


@settings(max_examples=examples(80), deadline=None)
@given(
    wide_problems(max_options=40, multiplicities=True),
    st.integers(1, 5),
    st.sampled_from(HEURISTICS),
)
def test_shares_partition_the_solutions(problem: ExactCover, parts: int, heuristic: str) -> None:
    """The ``parts`` shares of a search find every solution exactly once between them."""
    whole = Search(problem, engine="bits", heuristic=heuristic, seed=7, max_nodes=20_000)
    try:
        expected = sorted(sorted(s) for s in whole.solutions())
    except LimitReached:
        assume(False)
    found: list[list[int]] = []
    for k in range(parts):
        share = Search(problem, heuristic=heuristic, seed=7, engine="bits", share=(k, parts))
        found.extend(sorted(s) for s in share.solutions())
    assert sorted(found) == expected


def test_shares_of_knuth_files_add_up() -> None:
    problem = ExactCover.read(KNUTH / "queens11.dlx")
    counts = [Search(problem, share=(k, 3)).count() for k in range(3)]
    assert sum(counts) == 2680 and min(counts) > 2680 // 4  # dealt out about evenly
    assert Search(ExactCover(["a"]), share=(1, 2)).count() == 0  # no units: all to part 0
    assert Search(ExactCover([]), share=(0, 2)).count() == 1


def test_bad_shares_are_refused() -> None:
    problem = ExactCover.read(KNUTH / "queens8.dlx")
    for share in [(2, 2), (-1, 2), (0, 0), (0,), (0.5, 2), (True, 2)]:
        with pytest.raises(UsageError, match="share must be"):
            Search(problem, share=share)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="bit-parallel engine"):
        Search(problem, engine="dlx", share=(0, 2))


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_parallel_count_by_shares(heuristic: str) -> None:
    """``count(workers=2)`` runs shares on a process pool when the bit-parallel engine
    suits the problem (a random heuristic gets one seed for both shares)."""
    problem = ExactCover.read(KNUTH / "queens10.dlx")
    assert problem.count(method="search", workers=2, heuristic=heuristic) == 724
