"""The frontier count in windows of 2 to 4 words, its order of few states, its pauses
and memory limit, and its place in the route choice's race: against the brute-force
oracle, the DXZ family, Fibonacci, Kasteleyn's product and dancing links."""

from __future__ import annotations

import random
from array import array

import pytest
from budget import examples
from builders import Instance, dominoes, instances
from hypothesis import given, settings
from hypothesis import strategies as st
from test_zdd_frontier import fibonacci, kasteleyn

from excover import ExactCover, ResourceLimitError, counting
from excover.counting import choice, routes
from excover.zdd import _frontier, dxz, frontier


def rows_arrays(rows: list[list[int]]) -> tuple[array[int], array[int]]:
    starts, items = array("i", [0]), array("i")
    for row in rows:
        items.extend(row)
        starts.append(len(items))
    return starts, items


def wide_count(
    n: int,
    rows: list[list[int]],
    place: list[int],
    window: int,
    threads: int = 1,
    fine: bool = False,
    words: int = 1,
) -> int | None:
    """The compiled count with item k at position ``place[k]``, ``window`` words a window
    (None when an option spans too far for them); ``fine`` and ``words`` (the counts'
    first width) as for Counting."""
    starts, items = rows_arrays(rows)
    positions = memoryview(array("q", place))
    laid = _frontier.layout(n, memoryview(starts), memoryview(items), positions, window)
    if laid is None:
        return None
    first, masks = laid
    view = (memoryview(first), memoryview(masks))
    return _frontier.Counting(n, *view, threads, window, fine=fine, words=words).advance()


@settings(max_examples=examples(80))
@given(instances("X", 10), st.randoms(use_true_random=False))
def test_every_window_width_matches_the_oracle(data: Instance, rng: random.Random) -> None:
    if data.n_secondary:
        return
    place = list(range(data.n_primary))
    rng.shuffle(place)
    expected = len(data.all_covers())
    rows = data.sparse_rows()
    for words in (1, 2, 3, 4):
        assert wide_count(data.n_primary, rows, place, words) == expected
        assert wide_count(data.n_primary, rows, place, words, 3, fine=True) == expected


@st.composite
def spread_problems(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """Up to 200 items, and options of 1 to 4 items each within a random distance of
    its first (3 to 200): spans from a few items to past three words."""
    n = draw(st.integers(1, 200))
    spread = draw(st.sampled_from([3, 10, 60, 100, 200]))
    rows = []
    for _ in range(draw(st.integers(n // 2, 2 * n))):
        low = draw(st.integers(0, n - 1))
        others = draw(st.lists(st.integers(0, spread - 1), max_size=3))
        rows.append(sorted({low} | {min(n - 1, low + d) for d in others}))
    return n, rows


@settings(max_examples=examples(25), deadline=None)
@given(spread_problems())
def test_windows_across_words_match_dxz(data: tuple[int, list[list[int]]]) -> None:
    """Options spanning up to 199 items, in the fewest words that hold them (the state's
    shift then crosses words), on one thread and on two sharing every layer, against
    DXZ's family."""
    n, rows = data
    problem = ExactCover(primary=n)
    for row in rows:
        problem.add_option(row)
    family = dxz.run_dxz(problem, dxz.search_manager()).family
    assert family is not None
    expected = family.count()
    span = max((row[-1] - row[0] for row in rows), default=0)
    words = (span + 65) // 64
    place = list(range(n))
    assert wide_count(n, rows, place, words) == expected
    assert wide_count(n, rows, place, words, 2, fine=True, words=2) == expected
    if words > 1:
        assert wide_count(n, rows, place, words - 1) is None  # it does not fit in fewer


@pytest.mark.parametrize(("gap", "words"), [(40, 2), (70, 3), (110, 4)])
def test_dominoes_spread_over_several_words(gap: int, words: int) -> None:
    """A 2 x 30 board numbered column by column, with ``gap`` items after each cell that
    only their own one-item option covers: the count stays Fibonacci(31), while a
    horizontal domino now spans 2 (gap + 1) items, past one word (two, three, four
    words); on one and two threads, and no window narrower holds it."""
    cells = 60
    rows = [[k * (gap + 1), (k + 1) * (gap + 1)] for k in range(0, cells, 2)]  # vertical
    rows += [[k * (gap + 1), (k + 2) * (gap + 1)] for k in range(cells - 2)]  # horizontal
    n = cells * (gap + 1)
    rows += [[k] for k in range(n) if k % (gap + 1)]
    place = list(range(n))
    assert wide_count(n, rows, place, words) == fibonacci(31)
    assert wide_count(n, rows, place, words, 2) == fibonacci(31)
    assert wide_count(n, rows, place, words - 1) is None


def latin_completion(n: int, given: dict[tuple[int, int], int]) -> ExactCover:
    """Completing an n x n Latin square from the ``given`` cells: items are the cells,
    (row, symbol) and (column, symbol) pairs still open, options the symbols each empty
    cell may take."""
    used_rows = {(r, s) for (r, _), s in given.items()}
    used_cols = {(c, s) for (_, c), s in given.items()}
    options = [
        [f"c{r}_{c}", f"r{r}s{s}", f"k{c}s{s}"]
        for r in range(n)
        for c in range(n)
        if (r, c) not in given
        for s in range(n)
        if (r, s) not in used_rows and (c, s) not in used_cols
    ]
    problem = ExactCover(primary=list(dict.fromkeys(item for option in options for item in option)))
    for option in options:
        problem.add_option(option)
    return problem


def partial_latin(n: int, given: int, seed: int) -> ExactCover:
    """The completions of ``given`` random cells of a random n x n Latin square (a
    cyclic one with its rows, columns and symbols shuffled)."""
    rng = random.Random(seed)
    rows, columns, symbols = (rng.sample(range(n), n) for _ in range(3))
    cells = rng.sample([(r, c) for r in range(n) for c in range(n)], given)
    square = {(rows[r], columns[c]): symbols[(r + c) % n] for r, c in cells}
    return latin_completion(n, square)


def test_partial_latin_squares_take_a_wide_window_and_few_states() -> None:
    """A 7 x 7 square with 14 cells given (its options span past one word in any
    order): the wide layout's count is dancing links', and its order of few states has
    less than a third of the states of the problem's own order (same count)."""
    problem = partial_latin(7, 14, 1)
    assert frontier.layout(problem) is None
    laid = frontier.wide_layout(problem)
    assert laid is not None and laid.words >= 2
    states: list[int] = []
    total = frontier.start(laid).advance(lambda done, layer: states.append(layer))
    assert total == problem.count(method="search") > 1000
    data = problem.engine_input()
    own = memoryview(array("q", range(data.n_primary)))
    starts, items = memoryview(data.option_start), memoryview(data.node_item)
    laid_own = _frontier.layout(data.n_primary, starts, items, own, 4)
    assert laid_own is not None
    own_states: list[int] = []
    first, masks = (memoryview(part) for part in laid_own)
    own_count = _frontier.Counting(data.n_primary, first, masks, 1, 4)
    assert own_count.advance(lambda done, layer: own_states.append(layer)) == total
    assert 3 * sum(states) < sum(own_states)


@settings(max_examples=examples(100))
@given(st.integers(1, 60), st.lists(st.lists(st.integers(0, 59), min_size=1, max_size=6)))
def test_the_order_of_few_states_is_a_permutation(n: int, raw: list[list[int]]) -> None:
    rows = [sorted({item % n for item in row}) for row in raw]
    starts, items = rows_arrays(rows)
    order = _frontier.narrow_order(n, memoryview(starts), memoryview(items))
    assert sorted(order) == list(range(n))


def greedy_order(n: int, rows: list[list[int]]) -> list[int]:
    """The rule of ``narrow_order``, in plain Python: among the open items (sharing an
    option with a placed one) the one with the fewest unopened partners, then the fewest
    options, then the lowest number; with none open, the unopened item of the fewest
    options."""
    partners: list[set[int]] = [set() for _ in range(n)]
    n_options = [0] * n
    for row in rows:
        for item in row:
            n_options[item] += 1
            partners[item].update(row)
    for item in range(n):
        partners[item].discard(item)
    fresh = [len(partners[item]) for item in range(n)]
    state = [0] * n
    opened: list[int] = []
    order: list[int] = []
    for _ in range(n):
        if opened:
            chosen = min(opened, key=lambda x: (fresh[x], n_options[x], x))
            opened.remove(chosen)
        else:
            chosen = min((x for x in range(n) if not state[x]), key=lambda x: (n_options[x], x))
            for partner in partners[chosen]:
                fresh[partner] -= 1
        state[chosen] = 2
        order.append(chosen)
        for partner in partners[chosen]:
            if not state[partner]:
                state[partner] = 1
                opened.append(partner)
                for other in partners[partner]:
                    fresh[other] -= 1
    return order


@settings(max_examples=examples(100))
@given(st.integers(1, 150), st.lists(st.lists(st.integers(0, 149), min_size=1, max_size=8)))
def test_the_order_of_few_states_follows_its_rule(n: int, raw: list[list[int]]) -> None:
    rows = [sorted({item % n for item in row}) for row in raw]
    starts, items = rows_arrays(rows)
    order = _frontier.narrow_order(n, memoryview(starts), memoryview(items))
    assert list(order) == greedy_order(n, rows)


@pytest.mark.parametrize("n", [4000, 5000])
def test_the_order_of_few_states_is_the_same_for_many_items(n: int) -> None:
    """Past 4096 items the partners are found without the bit matrix: same rule, same
    order (random triples over shuffled labels, both sides of that size)."""
    rng = random.Random(n)
    rows = [sorted(rng.sample(range(n), 3)) for _ in range(n)]
    starts, items = rows_arrays(rows)
    order = _frontier.narrow_order(n, memoryview(starts), memoryview(items))
    assert list(order) == greedy_order(n, rows)


def test_the_order_of_few_states_follows_a_path() -> None:
    """The items of a path, numbered at random: the order walks the path from an end
    (an item of one option), so every option spans 1."""
    rng = random.Random(5)
    label = list(range(50))
    rng.shuffle(label)
    rows = [sorted((label[k], label[k + 1])) for k in range(49)]
    starts, items = rows_arrays(rows)
    order = list(_frontier.narrow_order(50, memoryview(starts), memoryview(items)))
    place = array("q", [0] * 50)
    for position, item in enumerate(order):
        place[item] = position
    assert order[0] in (label[0], label[49])
    assert _frontier.span_at(memoryview(starts), memoryview(items), memoryview(place)) == 1


@settings(max_examples=examples(100))
@given(st.integers(1, 40), st.lists(st.lists(st.integers(0, 39), max_size=5)), st.randoms())
def test_span_at_matches_its_definition(n: int, raw: list[list[int]], rng: random.Random) -> None:
    rows = [sorted({item % n for item in row}) for row in raw]
    place = list(range(n))
    rng.shuffle(place)
    starts, items = rows_arrays(rows)
    got = _frontier.span_at(memoryview(starts), memoryview(items), memoryview(array("q", place)))
    spans = [max(place[i] for i in row) - min(place[i] for i in row) for row in rows if row]
    assert got == max(spans, default=0)


def test_a_count_stops_between_layers_and_goes_on() -> None:
    """Stopped after every layer, the count goes on from the next one: one layer per
    call, and the count of a run without stops."""
    laid = frontier.wide_layout(dominoes(8, 9))
    assert laid is not None
    counting_run = frontier.start(laid, workers=2)
    calls = 0
    while (total := counting_run.advance(None, lambda: True)) is None:
        calls += 1
        assert counting_run.done == calls
    assert calls == laid.n_items - 1 and total == counting_run.advance()
    assert total == frontier.start(laid).advance() == kasteleyn(8, 9)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_count_stops_inside_a_layer_and_goes_on(threads: int) -> None:
    """Split as finely as it goes (a group per post), a count asked to stop at once
    stops between two groups of a layer (one thread) or two batches of a few groups per
    thread (two), not only between layers, and goes on from there to Kasteleyn's count;
    so a race's step overruns its time by one group (or batch) at most."""
    laid = frontier.wide_layout(dominoes(8, 10))
    assert laid is not None
    split = _frontier.Counting(
        laid.n_items, memoryview(laid.starts), memoryview(laid.masks), threads, fine=True
    )
    inside = 0
    while True:
        before = split.done
        total = split.advance(None, lambda: True)
        if total is not None:
            break
        inside += split.done == before
    assert inside > 0 and total == kasteleyn(8, 10)


def test_the_memory_limit_stops_the_count() -> None:
    """A 16 x 16 board within 200 kB: MemoryError naming the limit, the memory held
    within it; the runner turns it into ResourceLimitError, and the count cannot go on."""
    laid = frontier.wide_layout(dominoes(16, 16))
    assert laid is not None
    bounded = frontier.start(laid, max_bytes=200_000)
    with pytest.raises(MemoryError, match="memory limit of 200000 bytes"):
        bounded.advance()
    assert 0 < bounded.bytes <= 200_000
    with pytest.raises(MemoryError):
        bounded.advance()
    runner = routes.FrontierRunner(laid, max_bytes=200_000)
    with pytest.raises(ResourceLimitError, match="memory limit"):
        runner.advance(None)


def test_a_latin_square_races_the_search_against_the_frontier_count() -> None:
    """With no one-word window, the search's rival is the frontier count in a wide one
    (not DXZ); the count that finishes is dancing links' either way, and forced, the
    frontier count's. (By default the race may preprocess this count first, and the
    smaller problem may fall apart into parts: the same count.)"""
    problem = partial_latin(8, 20, 3)
    assert [runner.name for runner in choice.candidates(problem)] == ["bits", "frontier"]
    found = counting.count(problem, preprocess=False)
    assert found.count == problem.count(method="search") > 10000
    assert found.route in ("bits", "frontier")
    assert counting.count(problem).count == found.count
    forced = counting.count(problem, route="frontier")
    assert (forced.count, forced.route) == (found.count, "frontier")
