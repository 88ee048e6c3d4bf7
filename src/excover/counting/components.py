"""Counting by component decomposition: when the residual problem falls apart, multiply.

After some options are chosen, the options still compatible with them (the *live*
options) may fall into groups that share no item: then every solution of the residual
problem is one solution of each group, chosen independently, and the count is the product
of the groups' counts. This is how #SAT model counters split formulas, and the idea of Fang
et al. (SAT 2026, "DXD") for exact covers. A group (a *component*) is counted by:

1. the cache: a component is keyed by its live options (a sorted array of option
   numbers, as bytes), compared in full by the dict, never by a hash alone (the paper's
   own code keys its cache by a 64-bit hash of the uncovered columns, so that two
   sub-problems whose hashes collide share one count: a wrong count of that kind is
   what it prints for ``Garr200212``, 81,321,915,600 for 80,905,591,800). The live
   options determine the sub-problem entirely: its primary items are theirs (every live
   option's primary items are uncovered), and a secondary item already colored is only
   touched by live options that agree on that color, so it constrains them exactly as
   if it were not colored yet. (Keying by the uncovered items alone would be wrong as
   soon as colors or secondary items let two different option sets share one set of
   uncovered items.)
2. branching on the primary item with the fewest live options (MRV): each of its options
   leaves a residual problem, split into components again and counted recursively -- but
   only when some branch *splits* (two parts of :data:`MIN_PART` primary items or more,
   the largest with at most :data:`MAX_SHARE` of them); otherwise branching here would
   only throw away the memo that DXZ shares across branches, so
3. the component is counted as a problem of its own (its items renumbered, its options
   sorted for DXZ's canonical order): by the frontier count (:mod:`excover.zdd.frontier`)
   when it has more than :data:`FRONTIER_OPTIONS` options and the frontier count takes
   it, else by DXZ (:mod:`excover.zdd.dxz`) on a ZDD store shared by the count's runs.

The whole problem gets the same test first: when it is one component and no branch of
its MRV item splits, :func:`count` counts it as ``count(method="zdd")`` does (the
frontier count when it takes the problem, else DXZ), after a few linear passes over the
options, so that the route costs next to nothing where decomposition does not pay. The
passes are compiled (:mod:`excover.counting._components`: union-find over the options).

Two options are joined in a component when they share any item, primary or secondary:
a secondary item shared by two parts couples their counts and must not be split.
Multiplicities on primary items (Knuth's Algorithm M) are not taken: :func:`refusal` says
why, and :func:`count` raises UsageError for such a problem, never a wrong count.

:func:`count` takes ``stop``, called between steps (and every :data:`STEP_NODES` search
nodes of DXZ): when it returns True the count gives up and returns None. A
:class:`Counting` does the same but can be resumed: it keeps the counts of the
components already counted and the DXZ search under way when it stopped, so the next
:meth:`Counting.advance` goes on from there (the walk down to it is repeated, from the
cache). This is what lets the route choice race the component count in short steps
without throwing work away. Ctrl-C raises KeyboardInterrupt from anywhere, as everywhere
in excover.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING

from excover.counting._components import Graph
from excover.errors import ResourceLimitError, UsageError

if TYPE_CHECKING:
    from excover.problem import EngineInput, Problem
    from excover.zdd._dxz import Dxz
    from excover.zdd._store import Store

__all__ = [
    "FRONTIER_OPTIONS",
    "MAX_BRANCHES",
    "MAX_DEPTH",
    "MAX_SHARE",
    "MIN_PART",
    "SMALL",
    "STEP_NODES",
    "Counting",
    "count",
    "refusal",
    "splits",
    "suits",
]

#: Components of at most this many options go to DXZ without a look for splits below
#: them: DXZ counts them in microseconds, less than the look would cost.
SMALL = 32
#: Components of primary items only with more options than this are counted by the
#: frontier count when it takes them; smaller ones by DXZ, which then costs less than
#: the frontier count's set-up (measured on the SAT 2026 graph instances: DXZ wins 1521
#: of 1537 components up to 256 options, the frontier all 14 above).
FRONTIER_OPTIONS = 256
#: A branch *splits* when its residual problem has two components of at least this many
#: primary items each: splitting off a smaller part (an item or two that a few options
#: cover) saves DXZ less than branching outside it costs (the branches' DXZ runs no
#: longer share their memo).
MIN_PART = 4
#: ... and when its largest component has at most this share of the primary items: a
#: branch that only peels a part off leaves a remainder almost as hard as the whole, and
#: every branch pays for it again.
MAX_SHARE = 0.75
#: A component whose MRV item has more options than this is not looked at for splits:
#: the look costs a pass over the component per option, which on an item with thousands
#: of options costs more than the frontier count of the whole.
MAX_BRANCHES = 64
#: Branching levels (each one a Python recursion) after which components are counted
#: as they are, whether they would split further or not.
MAX_DEPTH = 64
#: DXZ search nodes between two calls of ``stop`` (a few milliseconds at most: the
#: route choice's first steps are that short).
STEP_NODES = 1 << 12


def _splits(parts: list[tuple[array[int], int]]) -> bool:
    """Whether ``parts`` has two components of :data:`MIN_PART` primary items or more,
    the largest holding at most :data:`MAX_SHARE` of all their primary items."""
    sizes = sorted((primaries for _, primaries in parts), reverse=True)
    return len(sizes) > 1 and sizes[1] >= MIN_PART and sizes[0] <= MAX_SHARE * sum(sizes)


class _Stopped(Exception):
    """``stop()`` said to give up."""


def refusal(problem: Problem) -> str | None:
    """Why :func:`count` does not take ``problem``, or None when it does."""
    data = problem.engine_input()
    if any(lo != 1 for lo in data.lo) or any(hi != 1 for hi in data.hi):
        return "the component count does not take multiplicities on primary items"
    return None


def suits(problem: Problem) -> bool:
    """Whether :func:`count` takes ``problem`` (see :func:`refusal`)."""
    return refusal(problem) is None


def splits(problem: Problem) -> bool:
    """Whether :func:`count` would split ``problem`` into components, at once or below
    its first branching; where it does not, it counts as ``count(method="zdd")`` does,
    and the route choice races DXZ instead. UsageError as :func:`count`."""
    return Counting(problem).splits()


def count(problem: Problem, stop: Callable[[], bool] | None = None) -> int | None:
    """The number of solutions of ``problem`` by component decomposition (see the module
    notes), or None when ``stop()`` returned True; UsageError for a problem with
    multiplicities."""
    return Counting(problem).advance(stop)


class Counting:
    """A component count that can stop and go on (see the module notes); UsageError for
    a problem with multiplicities."""

    def __init__(self, problem: Problem) -> None:
        why = refusal(problem)
        if why is not None:
            raise UsageError(why)
        self.problem = problem
        self._counter = _Counter(problem, None)

    def splits(self) -> bool:
        """Whether the problem splits into components, at once or below its first
        branching (worked out once, as the count's first step)."""
        return not self._counter.top_level()[2]

    def parts(self) -> tuple[int, list[array[int]]]:
        """The primary items the options cover, and the options of each part of the
        whole problem (its components, without looking below them)."""
        covered, found = self._counter.graph.split(array("i", range(self.problem.n_options)))
        return covered, [live for live, _ in found]

    def leaf(self, live: array[int]) -> int:
        """The count of the part whose options are ``live`` as a problem of its own, by
        DXZ or the frontier count (see :meth:`_Counter.leaf`), without a stop."""
        self._counter.stop = None
        return self._counter.leaf(live)

    def problem_of(self, live: array[int]) -> Problem:
        """The part whose options are ``live`` as a problem of its own (items numbered,
        primary ones first, options sorted by their first primary item)."""
        from excover.problem import Problem

        part = self._counter.graph.subproblem(live)
        arrays = (part.option_start, part.node_item, part.node_color)
        names = self.problem.color_names
        return Problem._from_checked(part.n_primary, part.n_secondary, arrays, names)

    def progress(self) -> float | None:
        """The share of the count done where it stopped (see :meth:`_Counter.progress`);
        None while nothing measures it."""
        return self._counter.progress()

    def advance(self, stop: Callable[[], bool] | None = None) -> int | None:
        """Count until done (the count) or until ``stop()`` returns True (None: a later
        call goes on from there)."""
        self._counter.stop = stop
        try:
            return self._counter.total(self.problem)
        except _Stopped:
            return None


class _Counter:
    """One count: the problem's :class:`Graph`, the cache of component counts, and the
    number of primary items of each option."""

    def __init__(self, problem: Problem, stop: Callable[[], bool] | None) -> None:
        self.graph = Graph(problem.engine_input())
        self.primaries = self.graph.primary_counts()
        self.n_primary = self.graph.n_primary
        self.n_options = problem.n_options
        self.cache: dict[bytes, int] = {}
        self.stop = stop
        self.store: Store | None = None  # one ZDD store for every DXZ run of the count
        #: The whole problem's primary items covered, its parts, and whether it is
        #: counted whole (no split, even below its first branching).
        self.top: tuple[int, list[tuple[array[int], int]], bool] | None = None
        #: The branches of the components being counted (on the walk's current path).
        self.walking: dict[bytes, list[list[tuple[array[int], int]]] | None] = {}
        #: The DXZ search that ``stop`` interrupted: its component's key, the search and
        #: the node budget it had reached. The next walk comes back to it first (the
        #: components before it are cached), before any other run touches the store;
        #: should another component come first, the paused search is dropped.
        self.paused: tuple[bytes, Dxz, int] | None = None
        #: Where the walk is: for each nesting of components on its current path, the
        #: parts done of the parts of its branches (all branches' parts in a row), and
        #: how many there are; left as it was when ``stop`` interrupted the walk.
        self.path: list[list[int]] = []
        #: The DXZ search under way (or paused) at the end of that path, if any.
        self.searching: Dxz | None = None

    def progress(self) -> float | None:
        """The share of the count done, by Knuth's estimate along the walk's path: each
        part of a component's branches an equal share of it, the parts before the
        current one done, and inside the component whose DXZ search is under way or
        paused, that search's share of its tree (:meth:`excover.zdd._dxz.Dxz.progress`).
        None when nothing measures it (the whole problem counted by the frontier count,
        or not started)."""
        share, weight = 0.0, 1.0
        for done, parts in self.path:
            share += weight * done / parts
            weight /= parts
        inner = None if self.searching is None else self.searching.progress()
        if inner is None and not self.path:
            return None
        return min(share + weight * (inner or 0.0), 1.0)

    def total(self, problem: Problem) -> int:
        """The count of the whole problem: the components multiplied, or the whole
        problem counted as ``count(method="zdd")`` counts it (:meth:`leaf`) when it does
        not split even below its first branching."""
        live = array("i", range(problem.n_options))
        self.path = []
        primaries, parts, whole = self.top_level()
        if primaries < self.n_primary:
            return 0  # a primary item without options
        if whole:
            counted = self._frontier(problem)
            if counted is not None:
                return counted
            return self._dxz(live.tobytes(), self.graph.subproblem(live))
        return self._sum_of_products([parts], 0)

    def _sum_of_products(self, branches: list[list[tuple[array[int], int]]], depth: int) -> int:
        """The sum over ``branches`` of the product of the counts of their parts (each
        counted at ``depth``), the parts done kept on :attr:`path`."""
        place = [0, sum(len(parts) for parts in branches)]
        self.path.append(place)
        total = 0
        for parts in branches:
            product = 1
            for part, size in parts:
                product *= self._component(part, size, depth)
                place[0] += 1
            total += product
        self.path.pop()  # not on a stop: the path says where the walk stopped
        return total

    def top_level(self) -> tuple[int, list[tuple[array[int], int]], bool]:
        """The whole problem's primary items covered, its parts, and whether it is
        counted whole (one part, and no branch of its MRV item splits); worked out once,
        not again when a stopped count resumes."""
        if self.top is None:
            live = array("i", range(self.n_options))
            primaries, parts = self.graph.split(live)
            whole = len(parts) == 1 and self._branch(live, primaries) is None
            self.top = primaries, parts, whole
        return self.top

    def _check(self) -> None:
        if self.stop is not None and self.stop():
            raise _Stopped

    def _component(self, live: array[int], primaries: int, depth: int) -> int:
        """The count of one component: ``live`` options covering ``primaries`` items."""
        key = live.tobytes()
        known = self.cache.get(key)
        if known is not None:
            return known
        if key not in self.walking:  # new work; the path back to a resumed run is not
            self._check()  # (so each resumption gets on with the work it stopped in)
        branches = None
        if len(live) > SMALL and depth < MAX_DEPTH:
            branches = self._branch(live, primaries, key)
        if branches is None:
            counted = self.leaf(live)
        else:
            counted = self._sum_of_products(branches, depth + 1)
        self.cache[key] = counted
        self.walking.pop(key, None)
        return counted

    def _branch(
        self, live: array[int], primaries: int, key: bytes | None = None
    ) -> list[list[tuple[array[int], int]]] | None:
        """:meth:`branches` of a component, kept while the component is being counted
        (under its ``key``), so that a count that stops and resumes does not look for
        its branches again on the way back down."""
        if key is not None and key in self.walking:
            return self.walking[key]
        found = self.branches(live, primaries)
        if key is not None:
            self.walking[key] = found
        return found

    def branches(
        self, live: array[int], primaries: int
    ) -> list[list[tuple[array[int], int]]] | None:
        """The components left by each option of the MRV item of ``live`` (branches that
        leave a primary item without options are dropped), or None when no branch
        splits (see :data:`MIN_PART`) or the item has too many options to look
        (:data:`MAX_BRANCHES`)."""
        graph = self.graph
        _, options = graph.mrv(live)
        if len(options) > MAX_BRANCHES:
            return None
        branches = []
        splits = False
        for option in options:
            rest = graph.residual(live, option)
            covered, parts = graph.split(rest)
            if covered != primaries - self.primaries[option]:
                continue  # some primary item has no option left
            splits = splits or _splits(parts)
            branches.append(parts)
        return branches if splits else None

    def leaf(self, live: array[int]) -> int:
        """The count of the component ``live`` as a problem of its own: by the frontier
        count when the component is large (:data:`FRONTIER_OPTIONS`) and narrow in its
        items' own order, else DXZ. (The search for a better order of the items costs
        more than most components take to count, and on the SAT 2026 graph instances it
        found no order narrow enough.)"""
        part = self.graph.subproblem(live)
        n_primary = part.n_primary
        if len(live) > FRONTIER_OPTIONS and part.n_secondary == 0 and not any(part.node_color):
            from excover.zdd import frontier

            layout = frontier.layout_of(n_primary, part.option_start, part.node_item, reorder=False)
            if layout is not None:
                return frontier.count_layout(n_primary, layout, tick=self._tick)
        return self._dxz(live.tobytes(), part)

    def _frontier(self, problem: Problem) -> int | None:
        """The frontier count of ``problem``, or None when it does not suit the problem
        (secondary items, colors, an option spanning too many items)."""
        from excover.zdd import frontier

        return frontier.count(problem, tick=self._tick)

    def _tick(self, done: int, layers: int, states: int) -> None:
        """After each layer of a frontier count: give up when ``stop()`` says so."""
        self._check()

    def _dxz(self, key: bytes, part: EngineInput) -> int:
        """The count of a component (``key``: its live options; ``part``: it as a problem
        of its own, :meth:`Graph.subproblem`) by DXZ, resumed where
        ``stop`` interrupted it if it did. The runs share one private ZDD store: a count
        holds no node once it is returned, so the store's garbage collection reclaims the
        last run's nodes when it needs room (a store per run would cost more to allocate
        than most components take to count)."""
        from excover.zdd import _dxz, _store, dxz

        if self.store is None:
            self.store = dxz.search_manager().store
        store = self.store
        try:
            if self.paused is not None and self.paused[0] == key:
                _, search, budget = self.paused
            else:
                search = _dxz.search(store, part)
                budget = 0
            self.paused = None
            self.searching = search
            while True:
                budget += STEP_NODES
                root = _dxz.run(store, search, budget)[0]
                if root >= 0:
                    self.searching = None
                    return int(store.count(root))
                if self.stop is not None and self.stop():
                    self.paused = (key, search, budget)
                    raise _Stopped
        except _store.StoreFull as full:
            raise ResourceLimitError(
                f"the ZDD of a component needs more than {full.args[0]} nodes "
                "(raise the limit with excover.zdd.configure(max_nodes=...))"
            ) from None
        except ResourceLimitError:
            raise
        except MemoryError as error:  # the memo or the node store could not grow
            raise ResourceLimitError(f"out of memory: {error}") from None
