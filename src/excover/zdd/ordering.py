"""An order of the items that keeps every option's items close together, for the frontier
count (:mod:`excover.zdd.frontier`), whose cost grows with the options' span.

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

from array import array
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from excover.problem import Problem

    IntArray: TypeAlias = NDArray[np.int64]

__all__ = ["item_order", "order_of", "span", "span_of"]

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


def span(problem: Problem, order: IntArray | None = None) -> int:
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


def item_order(problem: Problem) -> IntArray | None:
    """The order of the items the frontier count uses: None for the problem's own, or the
    reverse Cuthill-McKee order when its span is smaller (``order[k]`` is the item at
    position k)."""
    data = problem.engine_input()
    return order_of(data.n_primary + data.n_secondary, data.option_start, data.node_item)


def order_of(n_items: int, option_start: array[int], node_item: array[int]) -> IntArray | None:
    """:func:`item_order` of the options given as compressed rows (arrays of C ints)."""
    starts = np.frombuffer(option_start, dtype=np.intc).astype(np.int64)
    items = np.frombuffer(node_item, dtype=np.intc).astype(np.int64)
    best, chosen = _span(items, starts), None
    if best < 2 or n_items < 3:
        return None
    graph = _Incidence(n_items, starts, items)
    order = _cuthill_mckee(graph)
    for candidate in [order, *_smoothed(graph, order)]:
        width = _span(_positions(items, candidate), starts)
        if width < best:
            best, chosen = width, candidate
    return chosen


def span_of(order: IntArray, option_start: array[int], node_item: array[int]) -> int:
    """The widest option's span with the items numbered by ``order``, the options given
    as compressed rows (arrays of C ints)."""
    starts = np.frombuffer(option_start, dtype=np.intc).astype(np.int64)
    items = np.frombuffer(node_item, dtype=np.intc).astype(np.int64)
    return _span(_positions(items, order), starts)
