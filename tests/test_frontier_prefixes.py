"""Counts of prefixes from one frontier count (``Counting``'s ``watch``,
``frontier.prefix_counts``, ``tiling.count_heights``): the count of the state with an
empty window at a layer is the number of exact covers of the items before it. Checked
against separate counts of every height, Fibonacci and A001835 (dominoes on 2 x n and
3 x n boards), Kasteleyn's product past 64 bits, DXZ on every prefix of small problems
and of problems cut into runs; with and without the fold, on one and two threads, and
stopped part way."""

from __future__ import annotations

import itertools
from array import array

import pytest
from hypothesis import given, settings
from test_frontier_runs import blocks, dxz_count, joined, laid_out
from test_zdd_frontier import kasteleyn_exact

from excover import ExactCover, UsageError
from excover.tiling import Pattern, Tile, Tiling, count_heights
from excover.tiling.mirrors import mirror_maps
from excover.zdd import _frontier, frontier

DOMINO = Tile("**", "D", "any")
#: A219967's tiles (straight trominoes, 2 x 2 squares) and A220054's (right trominoes,
#: single cells).
STRAIGHT = [Tile("***", "I", "any"), Tile("**\n**", "O", "any", symmetry="none")]
RIGHT = [Tile("**\n*.", "L", "any"), Tile("*", "M", "any", symmetry="none")]

SETTINGS = [(1, True), (1, False), (2, True), (2, False)]  # workers, fold


def fibonacci(n: int) -> int:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def a001835(n: int) -> int:
    """Domino tilings of the 3 x 2n board: a(n) = 4 a(n-1) - a(n-2), a(0) = 1, a(1) = 3."""
    a, b = 1, 3
    for _ in range(n):
        a, b = b, 4 * b - a
    return a


def separately(width: int, tiles: list[Tile], height: int) -> int:
    """The tilings of the width x height board, counted on their own."""
    if height == 0:
        return 1
    fitting = [tile for tile in tiles if tile.size <= width * height]
    if not fitting:
        return 0
    found = frontier.count(Tiling(Pattern.constant(height, width), fitting).problem, fold=False)
    assert found is not None
    return found


@pytest.mark.parametrize(("workers", "fold"), SETTINGS)
def test_dominoes_on_two_and_three_rows(workers: int, fold: bool) -> None:
    two = count_heights(2, [DOMINO], 40, workers=workers, fold=fold)
    assert two == [fibonacci(n) for n in range(41)]
    three = count_heights(3, [DOMINO], 40, workers=workers, fold=fold)
    assert three == [0 if n % 2 else a001835(n // 2) for n in range(41)]


@pytest.mark.parametrize(("workers", "fold"), SETTINGS)
@pytest.mark.parametrize(("width", "tiles"), [(5, STRAIGHT), (6, STRAIGHT), (4, RIGHT), (5, RIGHT)])
def test_every_height_as_counted_on_its_own(
    width: int, tiles: list[Tile], workers: int, fold: bool
) -> None:
    heights = count_heights(width, tiles, 9, workers=workers, fold=fold)
    assert heights == [separately(width, tiles, n) for n in range(10)]
    assert sum(heights) > 100


def test_counts_past_64_bits_against_kasteleyn() -> None:
    heights = count_heights(8, [DOMINO], 60, workers=2)
    assert heights[1:] == [kasteleyn_exact(8, n) for n in range(1, 61)]
    assert heights[60].bit_length() > 128  # three words


def test_a_fold_keeps_every_watched_prefix() -> None:
    """Every position watched, the fold included: a left-right mirror keeps the rows
    together but not a row's first cells, so the layers inside rows must not fold."""
    board = Tiling(Pattern.constant(6, 4), [DOMINO, Tile("***", "I", "any")])
    problem = board.problem
    n = problem.n_primary
    plain = frontier.prefix_counts(problem, range(n + 1), fold=False)
    problem.declare_symmetries(mirror_maps(board.grid.name, board.cells))
    folded = frontier.prefix_counts(problem, range(n + 1), workers=2)
    rows = frontier.prefix_counts(problem, range(0, n + 1, 4))
    assert plain is not None and folded is not None and rows is not None
    assert folded == plain and rows == {cut: plain[cut] for cut in range(0, n + 1, 4)}
    data = problem.engine_input()
    position, layout = frontier.placed_layout(
        n, data.option_start, data.node_item, reorder=False
    ) or (None, None)
    assert position is not None and layout is not None
    assert frontier.folds_for(problem, position, layout) is not None  # the rows fold
    assert frontier.folds_for(problem, position, layout, range(n + 1)) is None
    for cut in (3, 9, 14, 24):  # against DXZ on the options within the prefix
        rows_in = [list(row) for row in board.option_cells() if max(row) < cut]
        assert plain[cut] == dxz_count(cut, rows_in)


@settings(max_examples=25, deadline=None)
@given(blocks())
def test_runs_and_wide_windows_watch_every_prefix(parts: list[tuple[int, list[list[int]]]]) -> None:
    n, rows = joined(parts)
    laid = laid_out(n, rows)
    if laid is None:
        return
    every = range(n + 1)
    started = frontier.start(laid, watch=every)
    total = started.advance()
    whole = _frontier.Counting(
        laid.n_items, memoryview(laid.starts), memoryview(laid.masks), 1, laid.words, watch=every
    )
    assert whole.advance() == total
    assert started.empties == whole.empties and len(whole.empties) == n + 1
    assert whole.empties[n] == total and whole.empties[0] == 1
    for cut in sorted({0, n // 3, n // 2, n})[1:]:
        within = [row for row in rows if row[-1] < cut]
        assert whole.empties[cut] == dxz_count(cut, within)


def test_a_stopped_count_has_the_heights_it_passed() -> None:
    full = count_heights(7, STRAIGHT, 30)
    asked = itertools.count()
    cut = count_heights(7, STRAIGHT, 30, stop=lambda: next(asked) >= 60)
    assert 2 <= len(cut) < len(full) and cut == full[: len(cut)]


def test_a_count_paused_and_resumed_keeps_its_prefixes() -> None:
    board = Tiling(Pattern.constant(10, 5), STRAIGHT)
    problem = board.problem
    data = problem.engine_input()
    n = data.n_primary
    layout = frontier.layout_of(n, data.option_start, data.node_item, reorder=False)
    assert layout is not None
    starts, masks = memoryview(layout[0]), memoryview(layout[1])
    counting = _frontier.Counting(n, starts, masks, 2, fine=True, watch=range(0, n + 1, 5))
    pauses = 0
    while counting.advance(stop=lambda: True) is None:
        pauses += 1
    assert pauses > n
    expected = frontier.prefix_counts(problem, range(0, n + 1, 5), fold=False)
    assert counting.empties == expected


def test_refusals() -> None:
    with pytest.raises(UsageError, match="any number of times"):
        count_heights(3, [Tile("**", "D", "one")], 4)
    with pytest.raises(UsageError, match="width"):
        count_heights(0, [DOMINO], 4)
    with pytest.raises(UsageError, match="too wide"):
        count_heights(40, [Tile("***", "I", "any")], 3)
    problem = ExactCover(primary=3)
    problem.add_option([0, 1])
    with pytest.raises(ValueError, match="cuts"):
        frontier.prefix_counts(problem, [4])
    with pytest.raises(ValueError, match="watched"):
        _frontier.Counting(1, memoryview(array("q", [0, 0])), memoryview(array("Q")), watch=[2])
    assert count_heights(3, [DOMINO], 0) == [1]
    assert count_heights(1, [Tile("**\n**", "O", "any")], 3) == [1, 0, 0, 0]
