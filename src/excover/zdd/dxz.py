"""All solutions of an exact cover problem as a Family: top-down, or by DXZ.

Two constructions, both making the canonical family in a node store. :func:`dxz` picks
one: the top-down construction (:mod:`excover.zdd._topdown`: breadth-first over the
options in the problem's order, each state the set of options still available, as TdZdd
builds its N-queens ZDD) when it applies (no colors, no multiplicities, at most 4096
options and 256 primary items) and the problem's option order is no wider a frontier
than DXZ's own (:func:`prefers_topdown`), DXZ otherwise.

DXZ (Nishino, Yasuda, Minato and Nagata, AAAI 2017) runs Algorithm X and remembers, for
each set of still-uncovered items, the ZDD of the solutions of that sub-problem; when the
same set comes back, the search below it is skipped. The compiled search
(``excover.zdd._dxz``) compares memo keys in full, word by word: a hash collision can
cost a comparison, never a wrong merge.

The search always branches on the leftmost uncovered primary item. Renumbering the
options by their first primary item (stably) then makes the options chosen along every
path increase, so each ZDD node is made directly in canonical form. The renumbering is the
identity whenever the options already come in that order (they do for the usual
generators: cells in reading order, a square's options together); otherwise the finished
family is renamed back to the problem's option numbers.

A search can stop after a budget of search nodes and go on later (:class:`Run`): that is
how ``method="auto"`` probes DXZ without losing the probe's work when DXZ wins.

:func:`solutions` and :func:`first` do not wait for the family: the search stops at each
*leaf* that holds solutions (a sub-problem with nothing left to cover, or one found in
the memo) and the solutions below it are listed at once, the options chosen on the way
followed by each member of the leaf's family (:class:`DxzListing`). Every solution lies
below exactly one leaf, so each is listed once; the first comes after one descent of the
search, and a listing cut short (``limit``, a timeout) has built only the part of the
family it walked. The order is the search's: lexicographic, the options as increasing
sequences in the search's numbering (the problem's own when its options come sorted by
their first primary item), a set before its prefixes.

Every construction counts its tables against a memory bound (:mod:`excover.zdd.memory`:
by default a share of the machine's memory; ``max_bytes`` here), past which it stops with
:class:`~excover.errors.MemoryBoundError`.

Colors are handled as in Knuth's Algorithm C, the memo key holding the color given to each
secondary item as well. Multiplicities take Knuth's Algorithm M: an item is branched on
until it is covered as often as it may be or closed, and the memo key also holds how often
each primary item is covered and which options of the item being branched on are used up
(see ``Dxz.run_multi`` in :mod:`excover.zdd._dxz`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from excover.errors import ResourceLimitError, UsageError
from excover.zdd import _store, _topdown
from excover.zdd.manager import Manager, default, default_max_nodes

if TYPE_CHECKING:
    from excover.problem import Problem
    from excover.zdd.family import Family
    from excover.zdd.weighed import Share

__all__ = [
    "DxzListing",
    "DxzResult",
    "Run",
    "by_dxz",
    "count",
    "dxz",
    "first",
    "open_width",
    "prefers_topdown",
    "run_dxz",
    "search_manager",
    "solutions",
    "topdown",
    "topdown_applies",
]


_T = TypeVar("_T")


def search_manager(max_bytes: int | None = None) -> Manager:
    """A private manager for a family that will only be counted or iterated: the search
    makes its nodes directly, so a small operation cache does (a large one costs time to
    allocate and clear, and slows the search).
    Its limits are those :func:`excover.zdd.configure` set, ``max_bytes`` (None: the
    default bound) replacing the memory bound."""
    return Manager(nodes=1 << 14, cache=1 << 10, max_nodes=default_max_nodes(), max_bytes=max_bytes)


def _translated(call: Callable[[], _T]) -> _T:
    """``call()``, a construction's failures turned into ResourceLimitError: the node
    limit, the system refusing memory (MemoryBoundError, the memory bound, passes)."""
    try:
        return call()
    except _store.StoreFull as full:
        raise ResourceLimitError(
            f"the ZDD of the solutions needs more than {full.args[0]} nodes "
            "(raise the limit with excover.zdd.configure(max_nodes=...))"
        ) from None
    except ResourceLimitError:
        raise
    except MemoryError as error:  # the memo, the node store or the states could not grow
        raise ResourceLimitError(f"out of memory: {error}") from None


def _order(problem: Problem) -> list[int]:
    """The options sorted (stably) by their first primary item (an option's smallest
    item is primary: every option has one, and they are numbered before the secondary)."""
    data = problem.engine_input()
    start, items = data.option_start, data.node_item
    first = [min(items[start[k] : start[k + 1]]) for k in range(problem.n_options)]
    return sorted(range(problem.n_options), key=first.__getitem__)


class DxzResult(NamedTuple):
    """The outcome of a DXZ search: the family (None if the budget ran out), the
    renumbering of the options it uses (new -> old), search nodes and memo hits."""

    family: Family | None
    order: list[int]
    nodes: int
    hits: int


class Run:
    """A DXZ search over the options renumbered by :func:`_order`, which can stop after a
    number of search nodes and go on later from where it stopped (``method="auto"``
    probes with it). Between two calls nothing else may run on its manager: the partial
    results belong to no family yet, and a garbage collection would free them."""

    def __init__(self, problem: Problem, manager: Manager, ordered: bool = False) -> None:
        """``ordered``: the options already come sorted by their first primary item
        (:mod:`excover.counting.components` cuts its parts out that way), so the look
        for the order, in Python, is spared."""
        data = problem.engine_input()
        order = list(range(problem.n_options)) if ordered else _order(problem)
        start, items, colors = data.option_start, data.node_item, data.node_color
        if any(old != new for new, old in enumerate(order)):
            items = array("i", [item for k in order for item in items[start[k] : start[k + 1]]])
            colors = array("i", [c for k in order for c in colors[start[k] : start[k + 1]]])
            lengths = [start[k + 1] - start[k] for k in order]
            start = array("i", [0])
            for length in lengths:
                start.append(start[-1] + length)
        self.manager = manager
        self.order = order
        from excover.zdd import _dxz  # loaded by a DXZ run only: a top-down count needs it not

        #: The problem in the renumbering (:meth:`progress` makes its probes' links of it).
        self._arrays = data._replace(option_start=start, node_item=items, node_color=colors)
        self._search = _dxz.search(manager.store, self._arrays)
        self._share: Share | None = None

    @property
    def compact_keys(self) -> bool:
        """Whether the memo keys on one word (the leftmost item and a window from it)
        instead of the whole state: problems with only primary items and a narrow reach."""
        return bool(self._search.compact)

    def run(self, budget: int = -1) -> DxzResult:
        """Go on until the search ends or has entered ``budget`` search nodes in all (no
        limit when negative); the family is None while the search has not ended."""
        root, nodes, hits = self.step(budget)
        family = _family(self.manager, root) if root >= 0 else None
        return DxzResult(family, self.order, nodes, hits)

    def step(self, budget: int = -1) -> tuple[int, int, int]:
        """:meth:`run` without making the family (whose module a count need not load):
        the root's node in the store (-1 while the search has not ended), search nodes
        and memo hits."""
        from excover.zdd import _dxz

        root, _, nodes, hits = _translated(
            lambda: _dxz.run(self.manager.store, self._search, budget)
        )
        return root, nodes, hits

    def leaf(self) -> int:
        """Go on to the next leaf holding solutions (:func:`excover.zdd._dxz.next_leaf`):
        its node in the store, whose family completes :meth:`path`; -1 once the search
        has ended. Not to be mixed with :meth:`run` on one search."""
        from excover.zdd import _dxz

        return _translated(lambda: _dxz.next_leaf(self.manager.store, self._search))

    def path(self) -> list[int]:
        """The options (in the renumbering, see :attr:`order`) chosen on the way to the
        leaf of the last :meth:`leaf`."""
        return self._search.path()

    def progress(self) -> float | None:
        """The share of the search's tree walked so far, by Knuth's estimate from the
        current path, the options of its top levels weighed by the sizes of their
        subtrees, turned into a share of the work by the memo's reuse so far
        (:class:`excover.zdd.weighed.Share`); 0 before the search starts, 1 once it has
        ended, None with multiplicities."""
        places = self._search.places()
        if places is None or isinstance(places, float):
            return places
        if self._share is None:
            from excover.zdd import _dxz
            from excover.zdd.weighed import Share

            # the probes walk a copy of the links that never runs (the search's own are
            # in the middle of its path)
            prober = _dxz.Dxz(self._arrays)
            self._share = Share(lambda *probes: prober.child_sizes((), *probes))
        solved = self._search.n_memo
        return self._share.of(places, self._search.hits / solved if solved else 0.0)

    @property
    def nodes(self) -> int:
        """The search nodes entered so far."""
        return int(self._search.nodes)

    @property
    def hits(self) -> int:
        """The memo hits so far."""
        return int(self._search.hits)

    @property
    def memo(self) -> int:
        """The entries of the memo (the sub-problems solved) so far."""
        return int(self._search.n_memo)


def _family(manager: Manager, root: int) -> Family:
    """The family of node ``root`` of ``manager``'s store (the family's module loaded
    on first use: a count by DXZ needs only the store)."""
    from excover.zdd.family import Family

    return Family(manager, root)


def run_dxz(problem: Problem, manager: Manager, budget: int = -1) -> DxzResult:
    """DXZ over the options renumbered by :func:`_order`, stopping after ``budget`` search
    nodes when ``budget`` is not negative."""
    return Run(problem, manager).run(budget)


def topdown_applies(problem: Problem) -> bool:
    """Whether the top-down construction takes ``problem``: no colors, no multiplicities,
    at most ``_topdown.MAX_WORDS * 64`` options and ``_topdown.MAX_PRIMARY`` primary items
    (its states are bitsets over the options, its checks sets of primary items)."""
    data = problem.engine_input()
    return (
        problem.n_options <= 64 * _topdown.MAX_WORDS
        and data.n_primary <= _topdown.MAX_PRIMARY
        and not any(data.node_color)
        and all(lo == 1 for lo in data.lo)
        and all(hi == 1 for hi in data.hi)
    )


def open_width(problem: Problem, order: list[int]) -> int:
    """The most items *open* at a cut of the options taken in ``order``: used by an option
    before the cut and by one after it. A construction that decides the options in this
    order keeps, at the cut, a state that depends on those items, so their number bounds
    the states' variety (it is how wide a frontier the order has)."""
    data = problem.engine_input()
    start, items = data.option_start, data.node_item
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for position, option in enumerate(order):
        for item in items[start[option] : start[option + 1]]:
            first.setdefault(item, position)
            last[item] = position
    change = [0] * (len(order) + 2)
    for item, begin in first.items():
        if last[item] > begin:
            change[begin + 1] += 1
            change[last[item] + 1] -= 1
    widest = running = 0
    for step in change:
        running += step
        widest = max(widest, running)
    return widest


def prefers_topdown(problem: Problem) -> bool:
    """Whether :func:`dxz` builds top-down: when it applies and the problem's option order
    is no wider (:func:`open_width`) than DXZ's (options by first primary item). Queens
    (35 against 48 at n = 12), domino and polyomino tilings made by :mod:`excover.tiling`
    qualify; Knuth's pentomino files, whose options come piece by piece (61 against 41
    for scott.dlx, where the top-down construction is far slower than DXZ), do not."""
    if not topdown_applies(problem):
        return False
    natural = open_width(problem, list(range(problem.n_options)))
    return natural <= open_width(problem, _order(problem))


def topdown(
    problem: Problem,
    manager: Manager | None = None,
    tick: Callable[[int, int, int], None] | None = None,
) -> Family:
    """The family of all solutions of ``problem``, built top-down (see
    :mod:`excover.zdd._topdown`); the problem must pass :func:`topdown_applies`. ``tick``
    is called after each level (one per option) with the levels done, their number and
    the states of the level (for a progress bar)."""
    if not topdown_applies(problem):
        raise UsageError(
            "the top-down construction takes no colors, multiplicities, more "
            f"than {64 * _topdown.MAX_WORDS} options or more than "
            f"{_topdown.MAX_PRIMARY} primary items"
        )
    owner = manager or default()
    data = problem.engine_input()
    root, _ = _translated(lambda: _topdown.build(owner.store, data, tick))
    return _family(owner, root)


def dxz(problem: Problem, manager: Manager | None = None) -> Family:
    """The family of all solutions of ``problem`` (sets of option indices): built
    top-down when :func:`prefers_topdown` (several times faster than DXZ on the problems
    it picks), by DXZ otherwise."""
    if prefers_topdown(problem):
        return topdown(problem, manager)
    return by_dxz(problem, manager)


def by_dxz(problem: Problem, manager: Manager | None = None) -> Family:
    """The family of all solutions of ``problem``, by DXZ whatever the problem."""
    family, order, _, _ = run_dxz(problem, manager or default())
    assert family is not None  # no budget, so the search ran to its end
    if all(old == new for new, old in enumerate(order)):
        return family
    return _rename(family, order)


def _rename(family: Family, order: list[int]) -> Family:
    """The family with variable ``v`` renamed ``order[v]``, built bottom up."""
    from excover.zdd.family import Family

    store = family.manager.store
    renamed: dict[int, Family] = {0: Family.empty(family.manager), 1: Family.base(family.manager)}
    for node in store.nodes(family._id):
        var, lo, hi = store.triple(node)
        renamed[node] = renamed[lo] | renamed[hi].change(order[var])
    return renamed[family._id]


def count(problem: Problem, max_bytes: int | None = None) -> int:
    """The number of solutions (exact, however large): by the frontier count over DXZ's
    states when the problem suits it (:mod:`excover.zdd.frontier`: tilings and the like,
    faster and lighter, no ZDD built), otherwise on the family of :func:`dxz` (top-down
    or DXZ), which lives in a private manager freed on return. ``max_bytes`` bounds the
    memory of either (None: the default bound; past it MemoryBoundError)."""
    from excover.zdd import frontier

    counted = frontier.count(problem, max_bytes=max_bytes)
    if counted is not None:
        return counted
    return dxz(problem, search_manager(max_bytes)).count()


class DxzListing:
    """The solutions of a problem as its DXZ search meets them (see the module notes),
    each a sorted list of option indices; the search's figures so far on the side, for
    statistics. The search runs in a private manager whose memory ``max_bytes`` bounds
    (None: the default bound)."""

    def __init__(self, problem: Problem, max_bytes: int | None = None) -> None:
        self.run = Run(problem, search_manager(max_bytes))

    def __iter__(self) -> Iterator[list[int]]:
        from excover.zdd.family import walk

        run = self.run
        store = run.manager.store
        order = run.order
        renumbered = any(old != new for new, old in enumerate(order))
        while True:
            leaf = run.leaf()
            if leaf < 0:
                return
            path = run.path()  # increasing, and below the options of the leaf's family
            for rest in walk(store, leaf, hi_first=True):
                if renumbered:
                    yield sorted(order[option] for option in path + rest)
                else:
                    yield path + rest


def solutions(
    problem: Problem, limit: int | None = None, max_bytes: int | None = None
) -> Iterator[list[int]]:
    """The solutions (at most ``limit``), each a sorted list of option indices, as the
    DXZ search meets them (:class:`DxzListing`): the first after one descent, each one once,
    in the search's lexicographic order (see the module notes), within the memory bound
    ``max_bytes`` (None: the default)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise UsageError(f"limit must be a non-negative integer, not {limit!r}")
    listed = iter(DxzListing(problem, max_bytes))
    return listed if limit is None else islice(listed, limit)


def first(problem: Problem, max_bytes: int | None = None) -> list[int] | None:
    """The first solution of :func:`solutions`, or None when there is none."""
    return next(solutions(problem, 1, max_bytes), None)
