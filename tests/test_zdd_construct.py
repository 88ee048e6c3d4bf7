"""All solutions as a Family (DXZ and the column merge) and ``count(method="zdd"/"auto")``,
against the brute-force oracle, the DLX engine, Kasteleyn's formula, a transfer-matrix
count and the figures of Knuth's files."""

from __future__ import annotations

import math
import os
import random
import signal
from pathlib import Path

import pytest
from budget import examples
from builders import (
    Instance,
    Kind,
    compositions,
    dominoes,
    instances,
    queens,
    two_regular_graphs,
    walks,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, Family, ResourceLimitError, UsageError
from excover.zdd import Manager, dxz

KNUTH = Path(__file__).parent / "data" / "knuth"


@pytest.mark.parametrize("kind", ["X", "XCC", "MCC"])
def test_families_are_the_oracle_solutions(kind: Kind) -> None:
    @settings(max_examples=examples(60))
    @given(instances(kind, 10))
    def check(data: Instance) -> None:
        _check(data)

    check()


def _check(data: Instance) -> None:
    problem = data.build()
    covers = data.all_covers()
    by_dxz = problem.zdd()
    by_columns = problem.zdd("columns")
    assert set(by_dxz) == covers
    assert by_dxz == by_columns
    assert problem.count(method="zdd") == len(covers) == problem.count(method="auto")


@settings(max_examples=examples(30))
@given(instances("X", 10))
def test_shuffled_option_order_is_renamed_back(data: Instance) -> None:
    options = list(data.options)
    random.Random(len(options)).shuffle(options)
    shuffled = Instance(data.n_primary, data.n_secondary, tuple(options), data.bounds)
    assert set(shuffled.build().zdd()) == shuffled.all_covers()


@pytest.mark.parametrize("kind", ["X", "XCC", "MCC"])
def test_solutions_and_first_come_in_the_order_of_the_search(kind: Kind) -> None:
    """Each solution once, sorted, in lexicographic order of the options as the search
    numbers them (by their first primary item, stably), a set before its prefixes; a
    limit lists the first ones, and first() is the first."""

    @settings(max_examples=examples(40))
    @given(instances(kind, 10), st.integers(0, 5))
    def check(data: Instance, limit: int) -> None:
        problem = data.build()
        covers = data.all_covers()
        listed = list(problem.solutions(method="zdd"))
        assert all(solution == sorted(solution) for solution in listed)
        assert len(listed) == len(covers)
        assert {frozenset(solution) for solution in listed} == covers
        rank = {old: new for new, old in enumerate(dxz._order(problem))}

        def searched(solution: list[int]) -> tuple[float, ...]:
            return (*sorted(rank[option] for option in solution), math.inf)

        assert listed == sorted(listed, key=searched)
        assert list(problem.solutions(method="zdd", limit=limit)) == listed[:limit]
        assert problem.first(method="zdd") == (listed[0] if listed else None)

    check()


def kasteleyn(m: int, n: int) -> float:
    """Kasteleyn's product formula for the domino tilings of an m x n rectangle (float)."""
    value = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            value *= (
                4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
            )
    return value


def transfer_matrix(m: int, n: int) -> int:
    """Domino tilings of an m x n rectangle, exactly, by a broken-profile recurrence: fill
    the cells in reading order; a profile says which of the next n cells are taken."""
    ways = {0: 1}
    for cell in range(m * n):
        after: dict[int, int] = {}
        for profile, count in ways.items():
            moves = []
            if profile & 1:
                moves.append(profile >> 1)
            else:
                if cell + n < m * n:  # a vertical domino down
                    moves.append((profile >> 1) | (1 << (n - 1)))
                if (cell + 1) % n and not profile & 2:  # a horizontal domino right
                    moves.append((profile >> 1) | 1)
            for new in moves:
                after[new] = after.get(new, 0) + count
        ways = after
    return ways.get(0, 0)


@pytest.mark.parametrize(("m", "n"), [(2, 3), (4, 7), (8, 8), (9, 10), (12, 12)])
def test_domino_rectangles_against_kasteleyn(m: int, n: int) -> None:
    count = dominoes(m, n).count(method="zdd")
    assert count == transfer_matrix(m, n)
    assert math.isclose(count, kasteleyn(m, n), rel_tol=1e-9)


def test_counts_beyond_two_to_the_128() -> None:
    count = dominoes(60, 8).count(method="zdd")
    assert count > 2**128
    assert count == transfer_matrix(60, 8)
    assert math.isclose(count, kasteleyn(60, 8), rel_tol=1e-9)


def test_knuth_files_agree_with_dlx() -> None:
    for name in ["domino6x6", "queens8", "queens10", "pento3x20", "scott-pfix"]:
        problem = ExactCover.read(KNUTH / f"{name}.dlx")
        reference = problem.count(method="search")
        assert problem.count(method="auto") == reference
        if not name.startswith(("pento", "scott")):  # DXZ is slow on polyomino packings
            assert problem.count(method="zdd") == reference
            assert problem.zdd().count() == reference


def test_domino_file_family_matches_combine_node_count() -> None:
    # combine's non-regression example: the 8x8 dominoes give a ZDD of 2298 nodes
    problem = dominoes(8, 8)
    family = problem.zdd()
    assert family.size == 2298 and family == problem.zdd("columns")
    assert all(problem.is_solution(sorted(s)) for s in family.sample(random.Random(3), 20))


#: combine's small camel (jfla-2013/caml.rem), 80 cells.
CAML_SMALL = """
..**..........
.***..........
****..**.**...
..**..*****...
..**.*******..
..***********.
..************
...****..***.*
....**....**..
....**....**..
....**....**..
....**....**..
....**....**..
"""


def shape_dominoes(picture: str, bottom_up: bool) -> ExactCover:
    """Domino tilings of a drawn shape: cells in reading order (rows from the bottom when
    ``bottom_up``, as combine numbers them), each cell's right then lower neighbour."""
    rows = picture.split()
    if bottom_up:
        rows.reverse()
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"]
    present = set(cells)
    problem = ExactCover(primary=[f"{r}_{c}" for r, c in cells])
    for r, c in cells:
        for near in ((r, c + 1), (r + 1, c)):
            if near in present:
                problem.add_option([f"{r}_{c}", f"{near[0]}_{near[1]}"])
    return problem


def test_combine_node_counts_in_combine_order() -> None:
    # combine reports 46976 tilings and a ZDD of 373 nodes (benchmarks INDEX)
    combine = shape_dominoes(CAML_SMALL, bottom_up=True)
    family = combine.zdd()
    assert family.count() == 46976 == combine.count(method="search")
    assert family.size == 373 and family == combine.zdd("columns")
    top_down = shape_dominoes(CAML_SMALL, bottom_up=False).zdd()
    assert top_down.count() == 46976 and top_down.size != 373


def test_colors_by_dxz_agree_with_dlx() -> None:
    edges = [("a", "b"), ("b", "a"), ("a", "a"), ("b", "c"), ("c", "a")]
    for length in (1, 4, 12):
        problem = walks(length, edges)
        family = problem.zdd()
        assert family.count() == problem.count(method="search") == problem.count(method="zdd")
        assert all(problem.is_solution(sorted(s)) for s in family.sample(random.Random(5), 30))


def test_wide_and_narrow_memo_keys_agree_with_the_recurrence() -> None:
    """The 60 x 3 board numbered row by row reaches 3 items ahead and uses the one-word
    memo key. A first item ``x`` with one option of its own and one reaching the last
    cell (which leaves an odd number of cells: no tiling) changes no count but makes the
    reach too wide for that key, so the search keys on the whole bitset. Both count the
    3 x 2k tilings of the recurrence a(k) = 4 a(k-1) - a(k-2)."""
    a = [1, 3]
    while len(a) <= 30:
        a.append(4 * a[-1] - a[-2])
    narrow = dominoes(60, 3)
    wide = ExactCover(primary=["x", *narrow.primary_items])
    for option in range(narrow.n_options):
        wide.add_option(narrow.option_items(option))
    wide.add_option(["x"])
    wide.add_option(["x", "r59c2"])
    assert dxz.Run(narrow, Manager()).compact_keys
    assert not dxz.Run(wide, Manager()).compact_keys
    assert dxz.count(narrow) == a[30] == dxz.count(wide)
    assert dxz.count(dominoes(3, 8)) == a[4] == dominoes(3, 8).count(method="search")


def test_multiplicities_by_dxz_against_closed_forms() -> None:
    """Algorithm M memoised: compositions of n into lo..hi parts number the sum of the
    binomials C(n-1, k-1); spanning 2-regular subgraphs of K_n are OEIS A001205. The memo
    must be doing the work: far fewer search nodes than the dancing-links search."""
    for n, lo, hi in [(9, 1, 9), (12, 3, 5), (10, 0, 2)]:
        expected = sum(math.comb(n - 1, k - 1) for k in range(max(lo, 1), hi + 1))
        assert dxz.count(compositions(n, lo, hi)) == expected
    a001205 = [1, 0, 0, 1, 3, 12, 70, 465, 3507, 30016, 286884, 3026655, 34944085, 438263364]
    for n in (4, 7, 10, 13):
        problem = two_regular_graphs(n)
        assert problem.count(method="zdd") == a001205[n]
    problem = two_regular_graphs(9)
    assert problem.zdd() == problem.zdd("columns")
    probe = dxz.Run(problem, Manager()).run()
    search = problem.search()
    assert search.count() == a001205[9]
    assert probe.nodes * 10 < search.stats.nodes


def test_a_search_with_multiplicities_stopped_by_its_budget_goes_on() -> None:
    problem = two_regular_graphs(8)
    manager = Manager()
    whole = dxz.Run(problem, manager).run()
    steps = dxz.Run(problem, manager)
    for budget in (1, 7, 8, 300):
        probe = steps.run(budget)
        assert probe.family is None and probe.nodes == budget
    final = steps.run()
    assert final.family is not None and final.family == whole.family
    assert (final.nodes, final.hits) == (whole.nodes, whole.hits)


def test_queens_families() -> None:
    for n, total in [(6, 4), (8, 92)]:
        family = queens(n).zdd()
        assert family.count() == total == queens(n).count(method="search")
        assert family == queens(n).zdd("columns")


def test_a_dxz_search_stopped_by_its_budget_goes_on_to_the_same_family() -> None:
    """Resumed in steps, the DXZ search enters exactly the nodes of one uninterrupted
    search and ends with the same family (canonical: the same node of the manager)."""
    problem = dominoes(6, 7)
    manager = Manager()
    whole = dxz.Run(problem, manager).run()
    steps = dxz.Run(problem, manager)
    budgets = [1, 2, 50, 51, 400]
    for budget in budgets:
        probe = steps.run(budget)
        assert probe.family is None
        assert probe.nodes == budget
    final = steps.run()
    assert final.family is not None and final.family == whole.family
    assert (final.nodes, final.hits) == (whole.nodes, whole.hits)
    assert final.family.count() == problem.count(method="search")
    with pytest.raises(ValueError, match="ended"):
        steps.run()


def test_node_limit_in_dxz() -> None:
    manager = Manager(max_nodes=500)
    with pytest.raises(ResourceLimitError):
        dxz.by_dxz(dominoes(10, 10), manager)
    assert Family.from_sets([{1}, {2}], manager).count() == 2


def test_bad_arguments() -> None:
    with pytest.raises(UsageError):
        dominoes(2, 2).zdd("frontier")
    with pytest.raises(UsageError):
        dominoes(2, 2).count(method="zdd", heuristic="mrv")
    with pytest.raises(UsageError, match="search options"):
        dominoes(2, 2).first(method="zdd", max_nodes=10)
    with pytest.raises(UsageError, match="search options"):
        dominoes(2, 2).solutions(method="zdd", timeout=1.0)
    with pytest.raises(UsageError, match="limit"):
        dominoes(2, 2).solutions(method="zdd", limit=-1)


def test_ctrl_c_stops_dxz_and_the_manager_stays_usable() -> None:
    """SIGINT comes from the kernel (an interval timer), as Ctrl-C does: the search holds
    the GIL, so a Python thread could not send it."""
    problem = ExactCover.read(KNUTH / "pento3x20.dlx")  # DXZ needs far more than 0.1 s here
    manager = Manager()

    def interrupt(signum: int, frame: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)

    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    previous_alarm = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(KeyboardInterrupt):
            dxz.by_dxz(problem, manager)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous_int)
    assert dxz.dxz(dominoes(4, 4), manager).count() == transfer_matrix(4, 4)
