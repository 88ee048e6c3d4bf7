"""The top of the search tree in Python: the states that splitting and estimating walk.

Splitting a search and estimating its size both look at the search tree the dancing-links
engine would explore, without running the engine: they need its first few levels (to cut
the tree into subproblems) and random paths from the root to a leaf (Knuth's probes). A
:class:`State` is one node of that tree, held as plain Python sets and lists: the options
still *live* (neither chosen, nor excluded, nor in conflict with a chosen one), how many
more times each primary item must and may be covered, and the color settled on each
secondary item. :meth:`State.choose` picks the item to branch on by the engine's own MRV
rule and :meth:`State.branches` lists the branches in the engine's order, so the tree
here is the engine's tree: same nodes, same order of the solutions.

Each branch of an item ``i`` whose live options are ``o_1, o_2, ...`` (in input order) is
"``o_k`` is in the solution and ``o_1 .. o_{k-1}`` are not"; when ``i`` may still be
left as it is (multiplicities with a lower bound already met, Knuth's Algorithm M) one
more branch is "none of ``o_1, o_2, ...``". The branches partition the solutions of the
node, whatever the kind of problem: that is what makes subproblems add up exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from heapq import heapify, heappop, heappush
from itertools import chain
from typing import TYPE_CHECKING

from excover.problem import EngineInput, Problem

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Branch", "Layout", "State", "reduced_after"]

#: A branch of a node: the option it puts in (None for "none of the item's options") and
#: the options it leaves out.
Branch = tuple[int | None, tuple[int, ...]]


@dataclass(frozen=True)
class Layout:
    """A problem's options and items as the tree walk reads them, built once per problem.

    ``option_items[k]`` and ``option_colors[k]`` list the items of option ``k`` and their
    colors (0: none); ``item_options[i]`` and ``item_colors[i]`` list the options holding
    item ``i`` in input order and the color each gives it, and ``item_sets[i]`` the same
    options as a set; ``option_primary[k]`` lists the primary items of option ``k`` and
    ``option_cost[k]`` is the number of its nodes unlinked when it is hidden (all but
    one).
    ``multiplicities`` is true when some primary item has bounds other than 1..1 (the
    engine then runs Algorithm M).
    """

    problem: Problem
    n_primary: int
    option_items: list[tuple[int, ...]]
    option_colors: list[tuple[int, ...]]
    item_options: list[list[int]]
    item_colors: list[list[int]]
    item_sets: list[frozenset[int]]
    option_primary: list[tuple[int, ...]]
    option_cost: list[int]
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    multiplicities: bool
    _unlike: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)
    _flat: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = field(default_factory=list)

    @classmethod
    def of(cls, problem: Problem) -> Layout:
        """The layout of ``problem`` (the last one made is kept while the problem does
        not change: the engine input it was made from is still the problem's)."""
        arrays = problem.engine_input()
        if _LAST and _LAST[0][0] is arrays and _LAST[0][1].problem is problem:
            return _LAST[0][1]
        layout = cls._make(problem)
        _LAST[:] = [(arrays, layout)]
        return layout

    @classmethod
    def _make(cls, problem: Problem) -> Layout:
        """A new layout of ``problem``, from its engine input."""
        arrays = problem.engine_input()
        starts = arrays.option_start
        nodes = arrays.node_item.tolist()
        colors = arrays.node_color.tolist()
        option_items = [tuple(nodes[starts[k] : starts[k + 1]]) for k in range(len(starts) - 1)]
        option_colors = [tuple(colors[starts[k] : starts[k + 1]]) for k in range(len(starts) - 1)]
        n_items = arrays.n_primary + arrays.n_secondary
        item_options: list[list[int]] = [[] for _ in range(n_items)]
        item_colors: list[list[int]] = [[] for _ in range(n_items)]
        for option, (items, shades) in enumerate(zip(option_items, option_colors, strict=True)):
            for item, shade in zip(items, shades, strict=True):
                item_options[item].append(option)
                item_colors[item].append(shade)
        lo = tuple(arrays.lo)
        hi = tuple(arrays.hi)
        return cls(
            problem=problem,
            n_primary=arrays.n_primary,
            option_items=option_items,
            option_colors=option_colors,
            item_options=item_options,
            item_colors=item_colors,
            item_sets=[frozenset(options) for options in item_options],
            option_primary=[
                tuple(item for item in items if item < arrays.n_primary) for items in option_items
            ],
            option_cost=[len(items) - 1 for items in option_items],
            lo=lo,
            hi=hi,
            multiplicities=any(bound != 1 for bound in lo + hi),
        )

    def primary_arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(starts, items)``: the primary items of option ``k`` are
        ``items[starts[k]:starts[k + 1]]`` (:attr:`option_primary` as flat arrays, made
        once, for :meth:`State._forget` of many options at a time)."""
        if not self._flat:
            import numpy as np

            lengths = [len(items) for items in self.option_primary]
            starts = np.zeros(len(lengths) + 1, dtype=np.int64)
            np.cumsum(lengths, out=starts[1:])
            flat = np.fromiter(
                chain.from_iterable(self.option_primary), dtype=np.int64, count=int(starts[-1])
            )
            self._flat.append((starts, flat))
        return self._flat[0]

    def unlike(self, item: int, color: int) -> frozenset[int]:
        """The options that give the secondary ``item`` another color than ``color``, or
        none (computed once per item and color)."""
        found = self._unlike.get((item, color))
        if found is None:
            found = frozenset(
                option
                for option, shade in zip(
                    self.item_options[item], self.item_colors[item], strict=True
                )
                if shade != color
            )
            self._unlike[item, color] = found
        return found


#: The bias on ``State.count[i]`` of a primary item ``i`` without room left: above any
#: number of options.
COVERED = 1 << 62

#: :meth:`State._forget` counts the primary items of this many options or more by numpy
#: (below, a ``Counter`` costs less than numpy's calls).
BULK_OPTIONS = 32

#: Up to this many primary items :meth:`State.choose` looks at every item (a ``min`` that
#: runs in C, cheaper than keeping a heap up to date); above, it keeps the heap.
SCAN_ITEMS = 512


#: The last layout made, with the engine input of its problem (see :meth:`Layout.of`);
#: it keeps that one problem alive.
_LAST: list[tuple[EngineInput, Layout]] = []


class State:
    """A node of the search tree: what is left of the problem after some choices.

    ``live`` holds the options still in play; ``room[i]`` is how many more options may
    cover primary item ``i`` and ``need[i]`` how many more must (it goes below 0 when
    the lower bound is passed); ``dropped`` holds the primary items left by a "none"
    branch (they take no further option); ``count[i]`` is the number of live options
    holding primary item ``i``, plus :data:`COVERED` once ``i`` has no room left (as the
    engine biases the length of a covered item, so that ``min`` finds the MRV item among
    the others in C); ``settled`` maps each secondary item already used to its
    color (0: used without one). The work is done by set operations and counters that run
    in C: taking an option computes the set of options it rules out in one go.

    On a problem of more than :data:`SCAN_ITEMS` primary items, ``ranks`` finds the item
    to branch on without looking at every item: a heap of ``(key, item)`` with the
    engine's ranking key of each item still to decide, pushed anew whenever an item's key
    changes (its old entries go stale and are dropped when they reach the top). A path
    down a tree of ``n`` levels then costs about ``n log n``, not the ``n**2`` of a look
    at every item at every node (None: :meth:`choose` looks at every item).
    """

    __slots__ = ("count", "dead", "dropped", "layout", "live", "need", "ranks", "room", "settled")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.live = set(range(len(layout.option_items)))
        self.room = list(layout.hi)
        self.need = list(layout.lo)
        self.dropped: set[int] = set()
        #: Forced options conflicted here (:meth:`after`): nothing below is a solution.
        self.dead = False
        self.count = [len(layout.item_options[i]) for i in range(layout.n_primary)]
        self.settled: dict[int, int] = {}
        self.ranks: list[tuple[tuple[int, ...], int]] | None = None
        if layout.n_primary > SCAN_ITEMS:
            self._rank_all()

    @classmethod
    def after(cls, layout: Layout, forced: tuple[int, ...], forbidden: tuple[int, ...]) -> State:
        """The node where every ``forced`` option is in and every ``forbidden`` one out;
        a dead end when the forced options conflict."""
        state = cls(layout)
        state.exclude(forbidden)
        for option in forced:
            if state.take(option) < 0:
                state._dead_end()
                break
        return state

    def _dead_end(self) -> None:
        """Make this node a dead end: no option left, and every primary item still to
        be covered, so that neither a walk of the tree nor :meth:`reduced` can take it
        for a solution (forced options that filled every item and then conflicted left
        nothing to do, which reads as solved)."""
        self.exclude(list(self.live))
        self.dead = True
        self.dropped = set()
        self.room = [max(room, 1) for room in self.room]
        self.need = [max(need, 1) for need in self.need]
        self.count = [0] * self.layout.n_primary
        if self.ranks is not None:
            self._rank_all()

    def copy(self) -> State:
        """An independent copy of this node."""
        other = type(self).__new__(type(self))
        other.layout = self.layout
        other.live = set(self.live)
        other.room = list(self.room)
        other.need = list(self.need)
        other.dropped = set(self.dropped)
        other.dead = self.dead
        other.count = list(self.count)
        other.settled = dict(self.settled)
        other.ranks = None
        if self.ranks is not None:
            if len(self.ranks) > 2 * self.layout.n_primary:  # mostly stale: start afresh
                other._rank_all()
            else:
                other.ranks = list(self.ranks)
        return other

    def _key(self, item: int) -> tuple[int, ...]:
        """The engine's ranking of ``item`` (the smallest is branched on; ties go to the
        leftmost item): its live options (DLX1's MRV) or, with multiplicities, DLX3's
        (degree, then the smaller ``min(slack, room)``, then the longer list)."""
        layout = self.layout
        if not layout.multiplicities:
            return (self.count[item],)
        slack = layout.hi[item] - layout.lo[item]
        return (self.degree(item), min(slack, self.room[item]), -self.count[item])

    def _rank(self, ranks: list[tuple[tuple[int, ...], int]], item: int) -> None:
        """Push the current key of ``item`` on ``ranks``, if it is still to be decided."""
        if self.active(item):
            heappush(ranks, (self._key(item), item))

    def _rank_all(self) -> None:
        """The heap of :meth:`choose`, made from every item still to be decided."""
        self.ranks = [
            (self._key(item), item) for item in range(self.layout.n_primary) if self.active(item)
        ]
        heapify(self.ranks)

    def take(self, option: int) -> int:
        """Put ``option`` in the solution; return the engine's updates for it (Knuth's
        definition: items covered plus nodes unlinked), or -1 if it is not live."""
        live = self.live
        if option not in live:
            return -1
        layout = self.layout
        n_primary = layout.n_primary
        ranks = self.ranks
        doomed = {option}
        covered = 0
        for item, shade in zip(
            layout.option_items[option], layout.option_colors[option], strict=True
        ):
            if item < n_primary:
                self.room[item] -= 1
                self.need[item] -= 1
                if self.room[item] > 0:
                    if ranks is not None:
                        self._rank(ranks, item)
                    continue
                self.count[item] += COVERED
            elif shade:
                if self.settled.get(item) != shade:
                    self.settled[item] = shade
                    doomed |= layout.unlike(item, shade) & live
                continue
            else:
                self.settled[item] = 0
            covered += 1
            doomed |= layout.item_sets[item] & live
        self._forget(doomed)
        return covered + sum(map(layout.option_cost.__getitem__, doomed))

    def _forget(self, options: Collection[int]) -> None:
        """Take live ``options`` out of play, and their primary items' counts down (in
        bulk, by numpy, for :data:`BULK_OPTIONS` options or more)."""
        self.live.difference_update(options)
        count = self.count
        if len(options) >= BULK_OPTIONS:
            import numpy as np

            starts, flat = self.layout.primary_arrays()
            chosen = np.fromiter(options, dtype=np.int64, count=len(options))
            times = np.bincount(flat[_nodes_of(starts, chosen)], minlength=len(count))
            hit = np.flatnonzero(times)
            lost: Collection[int] = hit.tolist()
            for item, fewer in zip(lost, times[hit].tolist(), strict=True):
                count[item] -= fewer
        else:
            tally: Counter[int] = Counter(
                chain.from_iterable(map(self.layout.option_primary.__getitem__, options))
            )
            for item, fewer in tally.items():
                count[item] -= fewer
            lost = tally
        ranks = self.ranks
        if ranks is not None:
            for item in lost:
                self._rank(ranks, item)

    def exclude(self, options: Iterable[int]) -> None:
        """Leave ``options`` out of every solution below this node."""
        self._forget(self.live.intersection(options))

    def active(self, item: int) -> bool:
        """True when the primary ``item`` is still to be decided (in the engine's list)."""
        return self.room[item] > 0 and item not in self.dropped

    def degree(self, item: int) -> int:
        """How many branches ``item`` has here (0: the node is a dead end)."""
        if self.layout.multiplicities:
            return self.count[item] + 1 - max(self.need[item], 0)
        return self.count[item]

    def choose(self) -> int | None:
        """The item the engine branches on here (its MRV rule), or None at a solution.

        Without multiplicities: the first active primary item with the fewest live options
        (DLX1's rule). With them, DLX3's: the smallest degree, then the smaller
        ``min(slack, room)``, then the longer list, then the leftmost item. The heap
        (``ranks``) gives the same item; only at a dead end with multiplicities (an item
        of degree 0 or less, at most once per path) is every item looked at, as DLX3 takes
        the first item of degree 0 it meets rather than the smallest key.
        """
        ranks = self.ranks
        if ranks is None:
            return self._scan()
        while ranks:
            key, item = ranks[0]
            if self.active(item) and self._key(item) == key:
                return self._ranked(key, item)
            heappop(ranks)  # stale: the item's key changed, or it was decided
        return None

    def _ranked(self, key: tuple[int, ...], item: int) -> int | None:
        """The engine's choice when ``item``, of current ``key``, tops the heap."""
        return self._scan() if key[0] <= 0 and self.layout.multiplicities else item

    def _scan(self) -> int | None:
        """The engine's choice by a look at every item."""
        best: int | None = None
        layout = self.layout
        if not layout.multiplicities:
            count = self.count
            best = min(range(layout.n_primary), key=count.__getitem__, default=None)
            return None if best is None or count[best] >= COVERED else best
        best_key: tuple[int, ...] | None = None
        for item in range(layout.n_primary):
            if not self.active(item):
                continue
            key = self._key(item)
            if best_key is None or key < best_key:
                best, best_key = item, key
                if key[0] == 0:
                    break
        return best

    def branches(self, item: int) -> list[Branch]:
        """The branches of ``item`` here, in the engine's order (dead ones left out)."""
        options = [o for o in self.layout.item_options[item] if o in self.live]
        if not self.layout.multiplicities:
            return [(option, ()) for option in options]
        need = self.need[item]
        result: list[Branch] = [
            (option, tuple(options[:k]))
            for k, option in enumerate(options[: len(options) - max(need, 1) + 1])
        ]
        if need <= 0:
            result.append((None, tuple(options)))
        return result

    def follow(self, item: int, branch: Branch) -> tuple[tuple[int, ...], int]:
        """Go down ``branch`` of ``item``, in place. Return the options left out that
        taking the branch's option did not already exclude (those a subproblem must name),
        and the updates of taking that option."""
        option, left_out = branch
        updates = 0 if option is None else self.take(option)
        named = tuple(other for other in left_out if other in self.live)
        self._forget(named)
        if option is None:
            self.dropped.add(item)
        return named, updates

    def reduced(self) -> tuple[Problem, list[int]]:
        """What is left as a plain problem, and the original index of each of its options.

        Primary items still active keep their name, with bounds ``max(need, 0)..room``;
        secondary items not yet used stay secondary; a secondary item whose color is
        settled leaves the options that remain (they all agree with that color). The
        options are copied in bulk (:meth:`ExactCover.add_options`).
        """
        layout = self.layout
        if self.dead:  # one item to cover and no option: no solution, whatever the items
            return _left(layout.problem, [0], [], [(1, 1)], [])
        n_primary = layout.n_primary
        primary = [i for i in range(n_primary) if self.active(i)]
        secondary = [
            i for i in range(n_primary, len(layout.problem.items)) if i not in self.settled
        ]
        bounds = [(max(self.need[i], 0), self.room[i]) for i in primary]
        return _left(layout.problem, primary, secondary, bounds, sorted(self.live))


def reduced_after(
    problem: Problem, forced: tuple[int, ...], forbidden: tuple[int, ...]
) -> tuple[Problem, list[int]]:
    """``State.after(Layout.of(problem), forced, forbidden).reduced()``, computed on the
    problem's flat arrays at once, without a layout or a state: the problem left once
    the ``forced`` options are chosen and the ``forbidden`` ones left out, and the
    original index of each of its options. When the forced options fit together, the
    node does not depend on the order they are taken in: an option is left out when it
    is forced or forbidden, when it holds a primary item the forced options fill up to
    its upper bound, or a secondary item they use without a color or with another color
    than its own. Forced options that conflict go the state's way (a dead end)."""
    import numpy as np

    arrays = problem.engine_input()
    n_primary, n_options = arrays.n_primary, problem.n_options
    starts = np.frombuffer(arrays.option_start, dtype=np.intc).astype(np.int64)
    node_item = np.frombuffer(arrays.node_item, dtype=np.intc)
    node_color = np.frombuffer(arrays.node_color, dtype=np.intc)
    hi = np.frombuffer(arrays.hi, dtype=np.intc).astype(np.int64)
    lo = np.frombuffer(arrays.lo, dtype=np.intc).astype(np.int64)
    chosen = np.array(forced, dtype=np.int64)
    nodes = _nodes_of(starts, chosen)
    items, colors = node_item[nodes].astype(np.int64), node_color[nodes].astype(np.int64)
    uses = np.bincount(items[items < n_primary], minlength=n_primary)
    on_secondary = items >= n_primary
    shared, shades = items[on_secondary], colors[on_secondary]
    order = np.lexsort((shades, shared))
    shared, shades = shared[order], shades[order]
    same = shared[1:] == shared[:-1]
    conflict = (
        len(set(forced)) < len(forced)
        or not set(forced).isdisjoint(forbidden)
        or bool((uses > hi).any())
        or bool((same & ((shades[:-1] == 0) | (shades[1:] != shades[:-1]))).any())
    )
    if conflict:
        return State.after(Layout.of(problem), forced, forbidden).reduced()
    n_items = problem.n_items
    shade_of = np.full(n_items, -1, dtype=np.int64)  # -1: a secondary item still free
    shade_of[shared] = shades
    doomed_item = np.zeros(n_items, dtype=bool)
    doomed_item[:n_primary] = uses >= hi
    doomed_item[n_primary:] = shade_of[n_primary:] == 0
    wanted = shade_of[node_item]
    doomed_node = doomed_item[node_item] | ((wanted > 0) & (node_color != wanted))
    live = np.ones(n_options, dtype=bool)
    live[np.repeat(np.arange(n_options), np.diff(starts))[doomed_node]] = False
    live[list(forbidden)] = False
    live[chosen] = False
    room, need = hi - uses, np.maximum(lo - uses, 0)
    primary = np.flatnonzero(room > 0).tolist()
    secondary = (np.flatnonzero(shade_of[n_primary:] < 0) + n_primary).tolist()
    bounds = list(zip(need[primary].tolist(), room[primary].tolist(), strict=True))
    return _left(problem, primary, secondary, bounds, np.flatnonzero(live).tolist())


def _left(
    problem: Problem,
    primary: list[int],
    secondary: list[int],
    bounds: list[tuple[int, int]],
    kept: list[int],
) -> tuple[Problem, list[int]]:
    """The problem over the ``primary`` items of ``problem`` (with ``bounds``) and its
    ``secondary`` ones whose options are the ``kept`` options of ``problem``, each
    without its other items; and ``kept``. The options are copied in bulk
    (:meth:`ExactCover.add_options`)."""
    import numpy as np

    names = problem.items
    result = problem.derive([names[i] for i in primary], [names[i] for i in secondary])
    for item, (low, high) in zip(primary, bounds, strict=True):
        if (low, high) != (1, 1):
            result.set_multiplicity(names[item], low, high)
    if not kept:
        return result, kept
    position = np.full(len(names), -1, dtype=np.int64)
    position[primary + secondary] = np.arange(len(primary) + len(secondary))
    arrays = problem.engine_input()
    starts = np.frombuffer(arrays.option_start, dtype=np.intc).astype(np.int64)
    chosen = np.array(kept, dtype=np.int64)
    owner = np.repeat(np.arange(len(kept)), starts[chosen + 1] - starts[chosen])
    nodes = _nodes_of(starts, chosen)
    items = position[np.frombuffer(arrays.node_item, dtype=np.intc)[nodes]]
    keep = items >= 0
    counts = np.bincount(owner[keep], minlength=len(kept))
    result.add_options(
        np.concatenate(([0], np.cumsum(counts))),
        items[keep],
        np.frombuffer(arrays.node_color, dtype=np.intc)[nodes][keep],
        problem.color_names,
    )
    return result, kept


def _nodes_of(
    starts: npt.NDArray[np.int64], options: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The nodes of ``options`` (option ``k`` holds the nodes ``starts[k]`` up to
    ``starts[k + 1]``), option after option."""
    import numpy as np

    lengths = starts[options + 1] - starts[options]
    nodes = np.repeat(starts[options] - np.cumsum(lengths) + lengths, lengths)
    return nodes + np.arange(len(nodes), dtype=np.int64)
