"""The component-decomposition count (excover.counting.components) against the oracles.

Random instances are built to split: disjoint unions of small random problems with their
items interleaved (so that no item order keeps the parts apart), some coupled through a
shared secondary item that must *not* be split. Every count is compared with the
brute-force oracle of tests/builders.py (the product of the parts' oracles for a disjoint
union, which is that union's oracle), and with dancing links and DXZ. The thresholds that
decide where the route branches are lowered in some tests so that the branching, the
splitting and the cache run on instances small enough for the oracle.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from math import prod

import pytest
from budget import examples
from builders import Instance, dominoes, instances, queens, union
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, UsageError
from excover.counting import components
from excover.zdd import dxz

Use = tuple[int, str | None]


@contextmanager
def low_thresholds() -> Iterator[None]:
    """Branch on every component, and split off parts of any size and share (a context, not a
    fixture: hypothesis runs many examples in one test call)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(components, "SMALL", 0)
        patch.setattr(components, "MIN_PART", 1)
        patch.setattr(components, "MAX_SHARE", 1.0)
        yield


parts_strategy = st.lists(
    st.one_of(instances("X", max_options=7), instances("XCC", max_options=7)),
    min_size=1,
    max_size=3,
)


@settings(max_examples=examples(150), deadline=None)
@given(parts=parts_strategy, seed=st.integers(0, 2**16))
def test_a_disjoint_union_counts_the_product_of_its_parts(parts: list[Instance], seed: int) -> None:
    whole = union(parts, seed)
    expected = prod(len(part.all_covers()) for part in parts)
    problem = whole.build()
    assert components.count(problem) == expected
    assert problem.count(method="search") == expected


@settings(max_examples=examples(150), deadline=None)
@given(parts=parts_strategy, seed=st.integers(0, 2**16))
def test_branching_at_every_level_counts_right(parts: list[Instance], seed: int) -> None:
    problem = union(parts, seed).build()
    with low_thresholds():
        assert components.count(problem) == prod(len(part.all_covers()) for part in parts)


@settings(max_examples=examples(150), deadline=None)
@given(
    parts=st.lists(instances("XCC", max_options=5), min_size=2, max_size=2),
    seed=st.integers(0, 2**16),
)
def test_a_shared_secondary_item_is_not_split(parts: list[Instance], seed: int) -> None:
    whole = union(parts, seed, shared=True)
    problem = whole.build()
    expected = len(whole.all_covers())
    with low_thresholds():
        assert components.count(problem) == expected
    assert dxz.count(problem) == expected


@settings(max_examples=examples(100), deadline=None)
@given(instance=st.one_of(instances("X"), instances("XCC")))
def test_random_instances_agree_with_the_oracle(instance: Instance) -> None:
    with low_thresholds():
        assert components.count(instance.build()) == len(instance.all_covers())


@settings(max_examples=examples(30), deadline=None)
@given(instance=instances("MCC"))
def test_multiplicities_are_refused_not_miscounted(instance: Instance) -> None:
    problem = instance.build()
    assert not components.suits(problem)
    with pytest.raises(UsageError, match="multiplicities"):
        components.count(problem)


def hubs(blocks: int, block_items: int, seed: int) -> ExactCover:
    """A problem shaped like the SAT 2026 graph instances that split only after a choice:
    ``blocks`` groups of ``block_items`` primary items, each group with random options
    inside it (all its single items among them, so that every group can be covered), and
    "hub" items whose options each cover the hub and some items of two neighbouring
    groups: while a hub is open its options join the groups, and choosing one of them
    leaves the groups apart."""
    rng = random.Random(seed)
    n_hubs = blocks - 1
    problem = ExactCover(primary=blocks * block_items + n_hubs)
    hub_item = blocks * block_items
    for block in range(blocks):
        cells = [block * block_items + i for i in range(block_items)]
        for cell in cells:
            problem.add_option([cell])
        for _ in range(2 * block_items):
            problem.add_option(sorted(rng.sample(cells, rng.randint(2, 3))))
    for hub in range(n_hubs):
        lefts = rng.sample(range(block_items), 3)
        rights = rng.sample(range(block_items), 2)
        for left, right in zip(lefts, [rights[0], *rights], strict=True):
            # the first two options leave the same right-hand part: a cache hit
            problem.add_option(
                [hub * block_items + left, (hub + 1) * block_items + right, hub_item + hub]
            )
    return problem


@pytest.mark.parametrize("seed", range(4))
def test_a_problem_that_splits_after_a_choice_counts_as_dlx_and_dxz(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(components, "SMALL", 8)
    monkeypatch.setattr(components, "MAX_SHARE", 1.0)
    problem = hubs(blocks=4, block_items=6, seed=seed)
    found = components.count(problem)
    assert found == problem.count(method="search") == dxz.count(problem)
    assert found is not None and found > 1000


def test_components_are_cached_by_their_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two options of each hub leave the same part on their right: the part is counted
    once and found in the cache the second time, and the count stays right."""
    monkeypatch.setattr(components, "SMALL", 8)
    monkeypatch.setattr(components, "MAX_SHARE", 1.0)  # peeling a block off is a split
    problem = hubs(blocks=5, block_items=5, seed=11)
    calls: list[int] = []
    original = components._Counter._component

    def component(self: components._Counter, live: array[int], primaries: int, depth: int) -> int:
        calls.append(depth)
        return original(self, live, primaries, depth)

    monkeypatch.setattr(components._Counter, "_component", component)
    counter = components._Counter(problem, None)
    assert counter.total(problem) == problem.count(method="search")
    assert 0 < len(counter.cache) < len(calls)


@pytest.mark.parametrize(
    "problem",
    [queens(6), dominoes(4, 5), ExactCover(primary=3)],
    ids=["queens6", "dominoes4x5", "no-options"],
)
def test_problems_that_do_not_split_count_as_dxz(problem: ExactCover) -> None:
    assert components.count(problem) == dxz.count(problem)


def test_large_components_count_as_their_parts_alone() -> None:
    """Two domino boards of over FRONTIER_OPTIONS options each, their cells interleaved:
    each is counted by the frontier count, and the product is the product of the boards'
    own counts."""
    boards = [dominoes(12, 12), dominoes(8, 18)]  # 144 cells each
    assert all(board.n_options > components.FRONTIER_OPTIONS for board in boards)
    union = ExactCover(primary=sum(board.n_primary for board in boards))
    for number, board in enumerate(boards):
        data = board.engine_input()
        start, items = data.option_start, data.node_item
        for k in range(board.n_options):
            union.add_option([2 * i + number for i in items[start[k] : start[k + 1]]])
    assert components.count(union) == prod(dxz.count(board) for board in boards)


def test_a_primary_item_without_options_counts_zero() -> None:
    problem = ExactCover(primary=3)
    problem.add_option([0])
    problem.add_option([1])
    assert components.count(problem) == 0


def test_stop_gives_up() -> None:
    problem = hubs(blocks=4, block_items=6, seed=1)
    assert components.count(problem, stop=lambda: True) is None
    assert components.count(problem, stop=lambda: False) == problem.count(method="search")


def two_boards_of_queens(n: int) -> ExactCover:
    """Two n-queens problems side by side, sharing no item: two components, each with
    secondary items (so DXZ counts them, pausing where it is stopped)."""
    names = [f"{kind}{i}" for kind in "rc" for i in range(n)]
    diagonals = [f"{kind}{d}" for kind in "ab" for d in range(2 * n - 1)]
    problem = ExactCover(
        primary=[f"{b}{name}" for b in "xy" for name in names],
        secondary=[f"{b}{name}" for b in "xy" for name in diagonals],
    )
    for board in "xy":
        for i in range(n):
            for j in range(n):
                cells = [f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"]
                problem.add_option([board + cell for cell in cells])
    return problem


@pytest.mark.parametrize(
    "problem", [hubs(blocks=4, block_items=6, seed=3), two_boards_of_queens(7)]
)
def test_a_stopped_count_resumes_to_the_same_total(problem: ExactCover) -> None:
    """A count stopped again and again and resumed each time, as the route choice runs it
    (each step a little longer than the last: here ``stop`` says yes after 1, 2, 3, ...
    calls), ends with the count of a run never stopped, having stopped many times (DXZ's
    step is made small so that the stops land inside its runs too: the queens' boards are
    counted by DXZ, paused and resumed; the hubs by the frontier count, started again)."""
    expected = problem.count(method="search")
    calls, allowed = 0, 1

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls >= allowed

    counting = components.Counting(problem)
    stops = 0
    with low_thresholds(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(components, "STEP_NODES", 4)
        while (found := counting.advance(stop)) is None:
            stops += 1
            calls, allowed = 0, allowed + 1
            assert stops < 10_000
    assert found == expected and stops > 3
