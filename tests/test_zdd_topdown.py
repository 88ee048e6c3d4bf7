"""The top-down construction (``excover.zdd._topdown``): the same family as the oracle, as
DXZ and as the column merge, the route ``problem.zdd()`` and ``count(method="zdd")`` take,
its limits, and the N-queens node counts TdZdd's ddqueens prints."""

from __future__ import annotations

import os
import random
import signal
from array import array
from pathlib import Path

import pytest
from budget import examples
from builders import Instance, dominoes, instances, queens
from hypothesis import given, settings

from excover import ExactCover, Family, ResourceLimitError, UsageError
from excover.problem import EngineInput
from excover.zdd import Manager, _topdown, columns, dxz

KNUTH = Path(__file__).parent / "data" / "knuth"


@settings(max_examples=examples(80))
@given(instances("X", 10))
def test_topdown_families_are_the_oracle_solutions(data: Instance) -> None:
    problem = data.build()
    assert dxz.topdown_applies(problem)
    manager = Manager()
    family = dxz.topdown(problem, manager)
    assert set(family) == data.all_covers()
    assert family == dxz.by_dxz(problem, manager)  # one canonical node in one manager


@settings(max_examples=examples(40), deadline=None)
@given(instances("X", 150))
def test_topdown_agrees_with_dxz_and_columns_past_one_word_of_options(data: Instance) -> None:
    problem = data.build()
    manager = Manager()
    family = dxz.topdown(problem, manager)
    assert family == dxz.by_dxz(problem, manager) == columns.columns(problem, manager)
    assert family.count() == problem.count(method="search")


@settings(max_examples=examples(30))
@given(instances("X", 10))
def test_the_option_order_needs_no_renaming(data: Instance) -> None:
    options = list(data.options)
    random.Random(len(options)).shuffle(options)
    shuffled = Instance(data.n_primary, data.n_secondary, tuple(options), data.bounds)
    assert set(dxz.topdown(shuffled.build(), Manager())) == shuffled.all_covers()


def test_queens_node_counts_built_two_ways() -> None:
    """DXZ builds queens in another option order and renames the family back; the
    top-down construction builds it in the problem's order: the reduced node counts must
    agree, and for n = 12 they are the figure ddqueens prints."""
    sizes = {}
    for n in (1, 4, 6, 9, 12):
        problem = queens(n)
        manager = Manager()
        family = dxz.topdown(problem, manager)
        assert family == dxz.by_dxz(problem, manager)
        sizes[n] = family.size
        assert family.count() == problem.count(method="search")
    assert sizes[12] == 45_833


def test_samples_agree_across_managers() -> None:
    problem = queens(8)
    top, other = dxz.topdown(problem, Manager()), dxz.by_dxz(problem, Manager())
    assert [top.sample(random.Random(seed)) for seed in range(20)] == [
        other.sample(random.Random(seed)) for seed in range(20)
    ]


def _with_items_repeated(problem: ExactCover, times: int) -> EngineInput:
    """The top-down construction's input for ``problem`` with each primary item
    repeated ``times`` times (the copies used by the same options): the same solutions
    and the same states, with ``times`` as many primary items."""
    data = problem.engine_input()
    primary, secondary = data.n_primary, data.n_secondary
    items = []
    for item in data.node_item:
        copies = range(times) if item < primary else [times * primary - primary]
        items.append([item + copy * primary for copy in copies])
    start = [0]
    for option in range(problem.n_options):
        uses = items[data.option_start[option] : data.option_start[option + 1]]
        start.append(start[-1] + sum(len(use) for use in uses))
    flat = [item for use in items for item in use]
    ones = array("i", [1]) * (times * primary)
    return EngineInput(
        times * primary,
        secondary,
        array("i", start),
        array("i", flat),
        array("i", [0]) * len(flat),
        ones,
        ones,
    )


def test_each_width_of_the_hi_check() -> None:
    """The check that an option can be chosen has three forms, by the number of primary
    items: at most 32 (random instances, queens), at most 64, and more. One problem with
    its primary items repeated takes each: the same states, the same family."""
    problem = dominoes(4, 5)  # 20 primary items: 20, 40 and 80 repeated
    results = set()
    for times in (1, 2, 4):
        manager = Manager()
        root, states = _topdown.build(manager.store, _with_items_repeated(problem, times))
        family = Family(manager, root)
        results.add((states, family.size, frozenset(map(frozenset, family))))
    assert len(results) == 1
    assert len(next(iter(results))[2]) == problem.count(method="search")


def test_more_primary_items_than_one_word() -> None:
    problem = dominoes(12, 12)  # 144 primary items: three words of items
    manager = Manager()
    family = dxz.topdown(problem, manager)
    assert family == dxz.by_dxz(problem, manager)
    assert family.count() == 53_060_477_521_960_000


def test_edge_cases() -> None:
    empty = ExactCover(primary=["a"])
    assert dxz.topdown(empty, Manager()).count() == 0
    manager = Manager()
    assert dxz.topdown(ExactCover(primary=0), manager) == Family.base(manager)
    uncovered = ExactCover(primary=["a", "b"])
    uncovered.add_option(["a"])
    assert dxz.topdown(uncovered, Manager()).count() == 0


def test_the_route_is_chosen_where_it_applies() -> None:
    colored = ExactCover(primary=["a"], secondary=["x"])
    colored.add_option(["a", "x:red"])
    bounded = ExactCover(primary=["a"])
    bounded.set_multiplicity("a", 1, 2)
    bounded.add_option(["a"])
    wide = dominoes(17, 17)  # 289 primary items
    for problem in (colored, bounded, wide):
        assert not dxz.topdown_applies(problem)
        with pytest.raises(UsageError, match="top-down"):
            dxz.topdown(problem, Manager())
    assert dxz.topdown_applies(queens(8))
    assert colored.zdd().count() == 1 and bounded.count(method="zdd") == 1
    assert queens(8).count(method="zdd") == 92


def test_open_width_counts_the_items_used_on_both_sides_of_a_cut() -> None:
    problem = ExactCover(primary=["a", "b", "c"])
    for items in (["a", "b"], ["c"], ["a"], ["b", "c"]):
        problem.add_option(items)
    # after the first two options a (options 0, 2), b (0, 3) and c (1, 3) are all open
    assert dxz.open_width(problem, [0, 1, 2, 3]) == 3
    assert dxz.open_width(problem, [0, 2, 1, 3]) == 2  # a closes before c opens
    assert dxz.open_width(problem, []) == 0


@pytest.mark.slow  # seconds of ZDD building
def test_dxz_builds_top_down_only_when_the_order_is_no_wider() -> None:
    assert dxz.prefers_topdown(queens(8)) and dxz.prefers_topdown(dominoes(6, 6))
    scott = ExactCover.read(KNUTH / "scott-pfix.dlx")  # options piece by piece
    assert dxz.topdown_applies(scott) and not dxz.prefers_topdown(scott)
    assert scott.count(method="zdd") == 65


def test_node_limit() -> None:
    manager = Manager(max_nodes=500)
    with pytest.raises(ResourceLimitError, match="max_nodes"):
        dxz.topdown(queens(9), manager)
    assert Family.from_sets([{1}, {2}], manager).count() == 2


def test_ctrl_c_stops_the_construction_and_the_manager_stays_usable() -> None:
    """SIGINT comes from the kernel (an interval timer), as Ctrl-C does."""
    problem = ExactCover.read(KNUTH / "pento3x20.dlx")  # many seconds top-down
    manager = Manager()

    def interrupt(signum: int, frame: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)

    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    previous_alarm = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(KeyboardInterrupt):
            dxz.topdown(problem, manager)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous_int)
    assert dxz.topdown(queens(6), manager).count() == 4


def test_the_merge_table_outlives_its_stamps() -> None:
    """The table that merges each level's requests is wiped only when its 255 stamps run
    out: a problem of 277 options (domino tilings of a 56 x 3 strip) merges more levels
    than that, its levels' tables of different sizes; the count must be the strip's,
    a(k) = 4 a(k - 1) - a(k - 2) for the 3 x 2k strip (a(0) = 1, a(1) = 3), as the DXZ
    construction's."""
    problem = dominoes(56, 3)
    assert problem.n_options > 255
    strips = [1, 3]
    while len(strips) <= 28:
        strips.append(4 * strips[-1] - strips[-2])
    manager = Manager()
    family = dxz.topdown(problem, manager)
    assert family.count() == strips[28]
    assert family == dxz.by_dxz(problem, manager)
