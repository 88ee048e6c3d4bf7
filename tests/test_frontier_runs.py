"""The frontier count cut into runs (``_frontier.split_layout``, ``frontier.SplitCounting``): a
layout in a window of several words whose positions fall into runs that no option
reaches across is counted run by run, each in the window its own options need, the
counts multiplied. Checked against the definition of a cut, the whole layout counted in
one window, DXZ's family, and dancing links; paused after every layer and at once."""

from __future__ import annotations

import itertools
import random
from array import array

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_zdd_frontier import kasteleyn

from excover import ExactCover, counting
from excover.counting import choice
from excover.zdd import _frontier, dxz, frontier


@st.composite
def blocks(draw: st.DrawFn) -> list[tuple[int, list[list[int]]]]:
    """One to four blocks of items, each with options inside it: some blocks narrow
    (options of 1-4 items within a few places), some wide (options spanning up to 120
    places, past one word); a block may have no way to be covered."""
    found = []
    for _ in range(draw(st.integers(1, 4))):
        size = draw(st.integers(1, 130))
        spread = draw(st.sampled_from([3, 8, 70, 130]))
        rows = [[k] for k in range(size) if draw(st.booleans()) or spread <= 8]
        for _ in range(draw(st.integers(0, size))):
            low = draw(st.integers(0, size - 1))
            others = draw(st.lists(st.integers(1, spread), max_size=3))
            rows.append(sorted({low} | {min(size - 1, low + d) for d in others}))
        found.append((size, rows))
    return found


def joined(parts: list[tuple[int, list[list[int]]]]) -> tuple[int, list[list[int]]]:
    """The blocks side by side: one problem whose items are the blocks' in turn."""
    n, rows = 0, []
    for size, block in parts:
        rows += [[n + item for item in row] for row in block]
        n += size
    return n, rows


def laid_out(n: int, rows: list[list[int]]) -> frontier.FrontierLayout | None:
    """The rows laid out in the items' own order, in the fewest words that hold them."""
    starts, items = array("i", [0]), array("i")
    for row in rows:
        items.extend(row)
        starts.append(len(items))
    span = max((row[-1] - row[0] for row in rows), default=0)
    words = (span + 65) // 64
    if words > frontier.MAX_WORDS:
        return None
    place = memoryview(array("q", range(n)))
    found = _frontier.layout(n, memoryview(starts), memoryview(items), place, words)
    assert found is not None
    return frontier.FrontierLayout(n, words, *found)


def dxz_count(n: int, rows: list[list[int]]) -> int:
    problem = ExactCover(primary=n)
    for row in rows:
        problem.add_option(row)
    family = dxz.run_dxz(problem, dxz.search_manager()).family
    assert family is not None
    return family.count()


def whole(laid: frontier.FrontierLayout) -> int:
    """The layout counted in one window, without runs."""
    view = memoryview(laid.starts), memoryview(laid.masks)
    total = _frontier.Counting(laid.n_items, *view, 1, laid.words).advance()
    assert total is not None
    return total


@settings(max_examples=examples(60), deadline=None)
@given(blocks())
def test_runs_are_cut_where_no_option_reaches_across(
    parts: list[tuple[int, list[list[int]]]],
) -> None:
    """The runs cover the positions in order; no option crosses a run's end; each run's
    window is the fewest words its own options need; two runs side by side differ in
    words (else they would be one); and a layout is split only when a run needs fewer
    words than the whole."""
    n, rows = joined(parts)
    laid = laid_out(n, rows)
    if laid is None:
        return
    runs = _frontier.split_layout(n, memoryview(laid.starts), memoryview(laid.masks), laid.words)
    if runs is None:
        return
    assert len(runs) >= 2
    assert any(words < laid.words for _, _, words, _, _ in runs)
    assert runs[0][0] == 0 and sum(positions for _, positions, _, _, _ in runs) == n
    for (first, positions, _, _, _), following in itertools.pairwise(runs):
        assert following[0] == first + positions
    for (_, _, words, _, _), following in itertools.pairwise(runs):
        assert words != following[2]
    for first, positions, words, starts, masks in runs:
        inside = [row for row in rows if first <= row[0] < first + positions]
        assert all(row[-1] < first + positions for row in inside)  # nothing reaches out
        span = max((row[-1] - row[0] for row in inside), default=0)
        assert words == max(1, (span + 65) // 64)
        assert len(starts) == positions + 1 and len(masks) == starts[-1] * words
        assert starts[-1] == len(inside)


@settings(max_examples=examples(60), deadline=None)
@given(blocks())
def test_runs_count_what_the_whole_window_and_dxz_count(
    parts: list[tuple[int, list[list[int]]]],
) -> None:
    n, rows = joined(parts)
    laid = laid_out(n, rows)
    if laid is None:
        return
    expected = dxz_count(n, rows)
    assert whole(laid) == expected
    assert frontier.start(laid).advance() == expected
    assert frontier.start(laid, workers=2).advance() == expected


def wide_then_narrow(seed: int) -> tuple[ExactCover, int]:
    """A block of 80 items whose options span up to 79 (two words), then an 8 x 9 domino
    board (one word): the count is the product of the block's (by dancing links) and
    Kasteleyn's, and the runs split it."""
    rng = random.Random(seed)
    block = ExactCover(primary=80)
    for _ in range(3):  # pieces of three random cuts of the block into four
        ends = [0, *sorted(rng.sample(range(1, 79), 3)), 80]
        for low, high in itertools.pairwise(ends):
            block.add_option(list(range(low, high)))
    block.add_option(list(range(80)))  # and one option covering all of it
    problem = ExactCover(primary=80 + 72)
    data = block.engine_input()
    for k in range(len(data.option_start) - 1):
        problem.add_option(list(data.node_item[data.option_start[k] : data.option_start[k + 1]]))
    for r in range(8):
        for c in range(9):
            cell = 80 + 9 * r + c
            if c < 8:
                problem.add_option([cell, cell + 1])
            if r < 7:
                problem.add_option([cell, cell + 9])
    return problem, block.count(method="search") * kasteleyn(8, 9)


def test_a_wide_part_and_a_narrow_part_are_counted_apart() -> None:
    """The wide part sets two words for the whole layout; the domino board is counted
    in one. The product is the count, paused after every layer (``done`` then steps
    one layer at a time across the runs) or not at all; ``tick`` sees every layer of
    the problem once, in order."""
    problem, expected = wide_then_narrow(1)
    data = problem.engine_input()
    rows = [
        list(data.node_item[data.option_start[k] : data.option_start[k + 1]])
        for k in range(len(data.option_start) - 1)
    ]
    laid = laid_out(data.n_primary, [sorted(row) for row in rows])
    assert laid is not None and laid.words == 2
    started = frontier.start(laid)
    assert isinstance(started, frontier.SplitCounting)
    assert [words for _, _, words, _, _ in started.runs] == [2, 1]
    layers: list[int] = []
    assert started.advance(lambda done, states: layers.append(done)) == expected
    assert layers == list(range(1, laid.n_items + 1))
    paused = frontier.start(laid)
    calls, seen = 0, [paused.done]
    while (total := paused.advance(None, lambda: True)) is None:
        calls += 1
        seen.append(paused.done)
    assert total == expected
    assert seen == sorted(set(seen)) and calls >= laid.n_items // 2  # a layer or two a call
    assert paused.advance() == expected and paused.done == laid.n_items


def test_a_run_without_a_cover_ends_the_count() -> None:
    """A first run that cannot be covered (an item in no option) gives 0 without
    counting the runs after it."""
    rows = [[0, 70], [1, 2]]  # item 3..69 uncovered: 0
    rows += [[71 + k, 72 + k] for k in range(0, 20, 2)]
    laid = laid_out(91, sorted(rows))
    assert laid is not None and laid.words == 2
    runs = frontier.start(laid)
    assert isinstance(runs, frontier.SplitCounting)
    assert runs.advance() == 0 == dxz_count(91, rows)
    assert runs.next < len(runs.runs)  # the narrow run never started


def test_auto_counts_a_split_layout_in_its_first_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A problem past the scout's size whose order of few states falls into a wide part
    (20 random cuts of 80 items into four pieces, and the whole: two words) and a 2 x
    1100 strip of dominoes (one word): auto's first slice of the frontier count counts
    it run by run (the slice made long enough for any machine's load), as the forced
    route does, to the block's count (dancing links) times Fibonacci."""
    monkeypatch.setattr(choice, "FIRST_SLICE", 60.0)
    rng = random.Random(3)
    block = ExactCover(primary=80)
    for _ in range(20):
        ends = [0, *sorted(rng.sample(range(1, 79), 3)), 80]
        for low, high in itertools.pairwise(ends):
            block.add_option(list(range(low, high)))
    block.add_option(list(range(80)))
    n = 1100
    problem = ExactCover(primary=80 + 2 * n)
    data = block.engine_input()
    for k in range(len(data.option_start) - 1):
        problem.add_option(list(data.node_item[data.option_start[k] : data.option_start[k + 1]]))
    for j in range(n):
        top, bottom = 80 + j, 80 + n + j
        problem.add_option([top, bottom])
        if j + 1 < n:
            problem.add_option([top, top + 1])
            problem.add_option([bottom, bottom + 1])
    assert len(problem.engine_input().node_item) > choice.SCOUT_FIRST
    laid = frontier.wide_layout(problem)
    assert laid is not None and laid.words == 2
    assert isinstance(frontier.start(laid), frontier.SplitCounting)
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b  # b: the tilings of a 2 x n strip, F(n + 1)
    expected = block.count(method="search") * b
    found = counting.count(problem)
    assert (found.count, found.route) == (expected, "frontier")
    assert "first slice" in found.reason
    assert counting.count(problem, route="frontier").count == expected
