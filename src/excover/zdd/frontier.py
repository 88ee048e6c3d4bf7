"""Counting by DXZ's states, layer by layer and on several threads (see
:mod:`excover.zdd._frontier`).

This is how ``count(method="zdd")`` counts the problems it suits: only primary items, no
colors or multiplicities, and options spanning fewer than 64 items in *some* order of the
items. It walks the same states as DXZ's memo, forward, keeping only the 64 layers ahead
instead of the whole memo and building no ZDD, and it shares each layer among threads:
``workers=2`` is how a domino count runs on two cores. Other problems give None: the
caller counts on the DXZ family instead.

**Counts of any size.** The compiled count adds counts of K 64-bit words and widens them
by a word between two layers as soon as some sum's top word is nonzero; the module
docstring of :mod:`excover.zdd._frontier` proves that no addition then ever loses a carry,
so the result is exact however many bits it has (a 20 x 20 board's domino tilings: 160
bits). No bound on the count is needed in advance, and no modular arithmetic: the words
grow with the counts (one spare word above the largest: 2 words while the counts stay
below 2^64, 48 for the 2948 bits of a 5 x 1000 board of pentominoes).

**The item order.** The count depends on the order of the items only through its cost:
any order gives the same DXZ recursion over the same solutions (each solution is still
built by covering the leftmost uncovered item, now leftmost in the new order), so its
count is unchanged. The cost is set by the span of the options (the state is a window of
that many items) and by the number of states. A problem's own order is often good (a
tiling's cells in reading order: the frontier runs along a row), and often not (a 5 x n
board whose rows hold n cells: the span is about 4n). So the items are also put in
reverse Cuthill-McKee order over the item graph (items adjacent when an option holds
both), a breadth-first numbering from a pseudo-peripheral item that keeps the items of
every option close together, then smoothed by a few rounds of neighbour averaging; the
order with the smallest span is kept (the problem's own on a tie). A 5 x n board's span
falls to 20 (26 after Cuthill-McKee alone), whichever way its rows run. A smaller span
usually, not always, means fewer states: the order is a heuristic, the count exact.
"""

from __future__ import annotations

import os
from array import array
from typing import TYPE_CHECKING

import numpy as np

from excover.errors import ResourceLimitError

# Threads waiting at a layer's barrier sleep rather than spin: a spinning thread takes the
# core that the thread it waits for, or another process, needs (on a busy 2-core machine
# two spinning workers made a 0.24 s count take 5 s). The OpenMP runtime reads this when
# it loads, with the module below; a policy the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from excover.zdd import _frontier

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from excover.problem import ExactCover

    IntArray = NDArray[np.int64]

__all__ = ["count", "item_order", "span", "suits"]

#: The widest option span the 64-bit state window holds.
MAX_SPAN = 63
#: The widest span a reordering of the items may have for the count to use it. The
#: reordering is for boards given along their long side (a 5 x n strip read row by row
#: spans n items, column by column 20); where even the best order found stays wide (the
#: pentomino rectangles of Knuth's files, whose twelve piece items join every option:
#: 44-64 reordered), the layers grow towards 2^span states and DXZ's memo is far faster
#: (pento4x15: minutes here against a second), so the problem's own order, with the
#: :data:`MAX_SPAN` limit it always had, decides.
MAX_REORDERED_SPAN = 32

#: Item pairs (the sum of the squares of the options' sizes) above which
#: :func:`_may_narrow` does not bound the span and the order is searched for.
PAIR_BUDGET = 20_000_000

#: Breadth-first searches spent looking for a pseudo-peripheral item.
PERIPHERAL_ROUNDS = 4

#: Rounds of neighbour averaging tried on the Cuthill-McKee order.
SMOOTHING_ROUNDS = 6


class _Incidence:
    """The options' items and the items' options, as compressed rows."""

    def __init__(self, n_items: int, option_start: IntArray, node_item: IntArray) -> None:
        self.n_items = n_items
        self.option_start = option_start
        self.node_item = node_item
        lengths = np.diff(option_start)
        node_option = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        self.item_options = node_option[np.argsort(node_item, kind="stable")]
        self.item_start = np.zeros(n_items + 1, dtype=np.int64)
        np.cumsum(np.bincount(node_item, minlength=n_items), out=self.item_start[1:])
        #: Options holding each item: the degree that Cuthill-McKee sorts by.
        self.degree = np.diff(self.item_start)

    def options_of(self, items: IntArray) -> tuple[IntArray, IntArray]:
        """Every (index into ``items``, option holding that item) pair."""
        return _gather(self.item_start, self.item_options, items)


def _gather(
    start: IntArray,
    values: IntArray,
    rows: IntArray,
    owner: IntArray | None = None,
) -> tuple[IntArray, IntArray]:
    """The entries ``values[start[r]:start[r + 1]]`` of every row r in ``rows``, each with
    the index into ``rows`` it came from (or ``owner`` of that index, when given)."""
    lengths = start[rows + 1] - start[rows]
    index = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
    offsets = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(
        np.cumsum(lengths) - lengths, lengths
    )
    gathered = values[start[rows][index] + offsets]
    return (index if owner is None else owner[index]), gathered


def _levels(graph: _Incidence, root: int, seen: NDArray[np.bool_]) -> list[IntArray]:
    """The breadth-first levels from ``root`` over the unseen items, in Cuthill-McKee
    order: each level's items by the rank of their first neighbour in the level before,
    then by degree, then by number. Marks them seen."""
    seen[root] = True
    level = np.array([root], dtype=np.int64)
    levels = [level]
    while True:
        owner, options = graph.options_of(level)
        rank, items = _gather(graph.option_start, graph.node_item, options, owner)
        fresh = ~seen[items]
        rank, items = rank[fresh], items[fresh]
        if len(items) == 0:
            return levels
        order = np.lexsort((rank, items))  # by item, then rank: keep its lowest rank
        items, rank = items[order], rank[order]
        first = np.ones(len(items), dtype=bool)
        first[1:] = items[1:] != items[:-1]
        items, rank = items[first], rank[first]
        level = items[np.lexsort((items, graph.degree[items], rank))]
        seen[level] = True
        levels.append(level)


def _cuthill_mckee(graph: _Incidence) -> IntArray:
    """The items in reverse Cuthill-McKee order, component by component, each from a
    pseudo-peripheral item (George and Liu: restart from a least-degree item of the last
    level while that makes the search deeper)."""
    seen = np.zeros(graph.n_items, dtype=bool)
    parts: list[IntArray] = []
    for start in range(graph.n_items):
        if seen[start]:
            continue
        root, depth = start, 0
        for _ in range(PERIPHERAL_ROUNDS):
            trial = seen.copy()
            levels = _levels(graph, root, trial)
            if len(levels) <= depth:
                break
            depth = len(levels)
            last = levels[-1]
            candidate = int(last[np.argmin(graph.degree[last])])
            if candidate == root:
                break
            root = candidate
        parts.extend(_levels(graph, root, seen))
    return np.concatenate(parts)[::-1] if parts else np.zeros(0, dtype=np.int64)


def _smoothed(graph: _Incidence, order: IntArray) -> list[IntArray]:
    """Orders after 1, 2, ... :data:`SMOOTHING_ROUNDS` rounds of moving every item to the
    mean position of the items of its options (a few steps of the diffusion whose slowest
    mode is a spectral ordering). A breadth-first level of a strip is a diagonal band a
    few cells wide; the averaging straightens it into a cross-section, which is what a 5
    x n board's pentominoes need (span 20 instead of 26)."""
    lengths = np.diff(graph.option_start)
    node_option = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    items = graph.node_item
    weight = np.bincount(items, weights=lengths[node_option], minlength=graph.n_items)
    weight[weight == 0] = 1.0  # an item in no option goes first (and nothing is counted)
    place = np.empty(graph.n_items)
    place[order] = np.arange(graph.n_items, dtype=np.float64)
    orders = []
    for _ in range(SMOOTHING_ROUNDS):
        totals = np.add.reduceat(place[items], graph.option_start[:-1])
        place = np.bincount(items, weights=totals[node_option], minlength=graph.n_items) / weight
        orders.append(np.argsort(place, kind="stable"))
    return orders


def span(problem: ExactCover, order: IntArray | None = None) -> int:
    """The widest option's span (last item's position less first item's) when the items
    are numbered by ``order`` (``order[k]`` is the item put at position k; None for the
    problem's own order); 0 without options."""
    data = problem.engine_input()
    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    return _span(_positions(items, order), starts)


def _positions(node_item: IntArray, order: IntArray | None) -> IntArray:
    """Each node's item's position in ``order``."""
    if order is None:
        return node_item
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order), dtype=np.int64)
    return position[node_item]


def _span(positions: IntArray, option_start: IntArray) -> int:
    if len(option_start) < 2 or len(positions) == 0:
        return 0
    heads = option_start[:-1]
    widths = np.maximum.reduceat(positions, heads) - np.minimum.reduceat(positions, heads)
    return int(widths.max())


def item_order(problem: ExactCover) -> IntArray | None:
    """The order of the items the frontier count uses: None for the problem's own, or the
    reverse Cuthill-McKee order when its span is smaller (``order[k]`` is the item at
    position k)."""
    data = problem.engine_input()
    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    best, chosen = _span(items, starts), None
    n_items = data.n_primary + data.n_secondary
    if best < 2 or n_items < 3:
        return None
    graph = _Incidence(n_items, starts, items)
    order = _cuthill_mckee(graph)
    for candidate in [order, *_smoothed(graph, order)]:
        width = _span(_positions(items, candidate), starts)
        if width < best:
            best, chosen = width, candidate
    return chosen


def _may_narrow(option_start: IntArray, node_item: IntArray, n_items: int) -> bool:
    """Whether some order of the items might span at most :data:`MAX_REORDERED_SPAN`,
    by two lower bounds on every order's span: an option of k items spans k - 1, and an
    item that shares options with d others spans at least d / 2 (at most s of them fit
    within s places on each side). Looking for a good order costs up to a second on big
    problems (Cuthill-McKee and its smoothing); these bounds cost a few milliseconds and
    spare it on problems that no order makes narrow (graph instances whose items meet
    hundreds of others, pentomino rectangles' piece items). Past :data:`PAIR_BUDGET`
    item pairs the bound is not worked out, and the search for an order goes ahead."""
    lengths = np.diff(option_start)
    if len(lengths) == 0 or int(lengths.max()) - 1 > MAX_REORDERED_SPAN:
        return len(lengths) == 0
    if int((lengths * lengths).sum()) > PAIR_BUDGET:
        return True
    node_option = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    node, partner = _gather(option_start, node_item, node_option)
    pairs = np.unique(node_item[node] * n_items + partner)
    met = np.bincount(pairs // n_items, minlength=n_items) - 1  # less the item itself
    return (int(met.max()) + 1) // 2 <= MAX_REORDERED_SPAN  # ceil(most met / 2)


def _layout(problem: ExactCover) -> tuple[array[int], array[int]] | None:
    """Each position's options as bit masks from the position (options grouped by their
    first position, items numbered by :func:`item_order`), or None when the problem does
    not suit the frontier count."""
    data = problem.engine_input()
    if data.n_secondary or any(data.node_color):
        return None
    if any(lo != 1 for lo in data.lo) or any(hi != 1 for hi in data.hi):
        return None
    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    if np.any(np.diff(starts) == 0):
        return None  # an empty option: left to DXZ, which knows what it means
    items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    order = item_order(problem) if _may_narrow(starts, items, data.n_primary) else None
    positions = _positions(items, order)
    if _span(positions, starts) > MAX_REORDERED_SPAN:  # keep the problem's own order
        positions = _positions(items, None)
    if _span(positions, starts) > MAX_SPAN - 1:
        return None
    by_position = array("q", [0] * (data.n_primary + 1))
    if len(starts) < 2:
        return by_position, array("Q")
    heads = starts[:-1]
    first = np.minimum.reduceat(positions, heads)
    lengths = np.diff(starts)
    bits = np.left_shift(np.uint64(1), (positions - np.repeat(first, lengths)).astype(np.uint64))
    masks = np.bitwise_or.reduceat(bits, heads)
    grouped = np.argsort(first, kind="stable")
    counts = np.bincount(first, minlength=data.n_primary)
    by_position = array("q", np.concatenate([[0], np.cumsum(counts)]).tolist())
    return by_position, array("Q", masks[grouped].tolist())


def suits(problem: ExactCover) -> bool:
    """Whether :func:`count` can count ``problem``."""
    return _layout(problem) is not None


def count(
    problem: ExactCover, workers: int = 1, tick: Callable[[int, int, int], None] | None = None
) -> int | None:
    """The number of solutions (exact, however large) counted on ``workers`` threads, or
    None when the problem does not suit this count. ``tick`` is called after each layer
    (one per primary item) with the layers done, their number and the states of the layer
    just done (for a progress bar)."""
    layout = _layout(problem)
    if layout is None:
        return None
    starts, masks = layout
    n_items = problem.engine_input().n_primary
    try:
        layer = None if tick is None else (lambda done, states: tick(done, n_items, states))
        return _frontier.count(n_items, memoryview(starts), memoryview(masks), workers, layer)
    except ResourceLimitError:
        raise
    except MemoryError as error:  # the compiled count's tables could not grow
        raise ResourceLimitError(f"out of memory: {error}") from None
