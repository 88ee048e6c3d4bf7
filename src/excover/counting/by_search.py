"""The runner of ``method="search"`` (and of ``auto`` given search options): one
compiled search, driven in slices, so that the run can stop at the request's deadline,
draw its progress and notice Ctrl-C between two slices, and answer with its count so far.
Its bar (:class:`SearchBar`) is its nodes against the estimated size of its tree. A stop
is raised as the search raises it (:class:`~excover.LimitReached`, ``KeyboardInterrupt``),
so that the API reads the run as it reads a plain search; the ``Outcome`` says it."""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from types import FrameType

from excover.counting.outcome import Outcome, search_engine, search_stats, stop_reason
from excover.errors import LimitReached

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from excover.counting.request import Bar, MethodRequest, TreeSizer
    from excover.engines import Search
    from excover.problem import Problem
    from excover.statistics import Stats

    _T = TypeVar("_T")

__all__ = [
    "SLICE",
    "SearchBar",
    "SearchListing",
    "SearchOutcome",
    "Slices",
    "count",
    "listing",
    "new_search",
]

#: The longest stretch of search (seconds) before the run looks at Ctrl-C again.
SLICE = 0.05


class Slices:
    """Drives one :class:`~excover.Search` in slices of :data:`SLICE` seconds.

    The engine keeps its state when a slice ends, so slicing costs next to nothing, and
    the run can act between two slices: it enforces the deadline (a slice ends at the
    deadline or after :data:`SLICE` seconds, whichever is first, and no slice starts past
    the deadline, however the time went: handing solutions to the caller counts), draws
    the progress bar (:attr:`tick`) and notices Ctrl-C. ``max_nodes`` is the search's own
    whole-run bound. Within :meth:`noting_ctrl_c`, Ctrl-C only raises a flag, so it never
    falls between the engine finding a solution and the caller receiving it: every
    solution the statistics count has been handed over. A second Ctrl-C raises
    KeyboardInterrupt at once. A stop is raised as the search raises it: the engine's
    :class:`~excover.LimitReached` (the deadline, ``max_nodes``), and KeyboardInterrupt
    once the flag is up.
    """

    def __init__(
        self,
        search: Search,
        max_nodes: int | None,
        deadline: float | None,
        note_ctrl_c: bool = True,
    ) -> None:
        self.search = search
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.note_ctrl_c = note_ctrl_c  # else Ctrl-C raises where it lands
        self.interrupted = False
        self.tick: Callable[[], None] | None = None  # called between slices (progress)

    def step(self, call: Callable[[], _T]) -> _T:
        """``call()`` (``search.count`` or ``search.first``), resumed until it returns;
        in one call to the deadline when nothing is done between slices (no bar drawn,
        Ctrl-C not noted: the API's runs)."""
        search = self.search
        if self.tick is None and not self.note_ctrl_c:
            search.deadline = self.deadline
            search.max_nodes = self.max_nodes
            return call()
        while True:
            if self.interrupted:
                raise KeyboardInterrupt
            end = time.monotonic() + SLICE
            search.deadline = end if self.deadline is None else min(end, self.deadline)
            search.max_nodes = self.max_nodes
            try:
                return call()
            except LimitReached as exc:
                if exc.reason != "timeout":
                    raise
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    raise
                if self.tick is not None:
                    self.tick()

    def solutions(self, limit: int | None) -> Iterator[list[int]]:
        """The solutions, one by one, until the last one or ``limit`` of them."""
        found = 0
        while limit is None or found < limit:
            solution = self.step(self.search.first)
            if solution is None:
                return
            found += 1
            yield solution
            if self.tick is not None:
                self.tick()

    def run(self, body: Callable[[], object]) -> BaseException | None:
        """Run ``body``, which drives the search, noting Ctrl-C; return what stopped it
        early (:class:`~excover.LimitReached`, KeyboardInterrupt), or None."""
        if not self.note_ctrl_c:  # no handler to set: Ctrl-C raises where it lands
            try:
                body()
            except (LimitReached, KeyboardInterrupt) as stop:
                return stop
            return None
        with self.noting_ctrl_c():
            try:
                body()
            except (LimitReached, KeyboardInterrupt) as stop:
                return stop
        return None

    @contextmanager
    def noting_ctrl_c(self) -> Iterator[None]:
        """Within the block, Ctrl-C sets ``interrupted`` rather than raising (first time).

        Left alone when the request does not ask it (the API's runs), when Ctrl-C is
        ignored (a background job) or handled by a program that calls
        :func:`~excover.cli.main`, or off the main thread: the engine's KeyboardInterrupt
        stops the run then.
        """

        def note(signum: int, frame: FrameType | None) -> None:
            if self.interrupted:
                raise KeyboardInterrupt
            self.interrupted = True

        noting = self.note_ctrl_c and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        if noting:
            try:
                signal.signal(signal.SIGINT, note)
            except ValueError:  # Python sets signal handlers in the main thread only
                noting = False
        if not noting:
            yield
            return
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def new_search(problem: Problem, request: MethodRequest) -> Search:
    """A search with the request's heuristic, seed, engine and limits."""
    from excover.engines import Search

    return Search(
        problem,
        heuristic=request.heuristic or "mrv",
        seed=request.seed,
        max_solutions=request.limit,
        max_nodes=request.max_nodes,
        engine=request.engine,
    )


class SearchBar:
    """The progress bar of a search (a count, or a listing): its nodes so far against
    the size of its tree, the nodes over the share walked where the engine tells it
    (Knuth's estimate from its path, by the bit-parallel engine and dancing links),
    else the tree's size that ``size_tree`` estimates (the orchestrator's requests probe
    it: :class:`excover.solving.progress.TreeSize`); a bar that counts up while neither
    knows. Ended at 100% by :meth:`close` when the search ran to its end. Also the race's
    measure of a search (:mod:`excover.counting.by_routes`): :meth:`share`."""

    def __init__(
        self,
        problem: Problem,
        bar: Bar | None = None,
        size_tree: Callable[[Problem], TreeSizer | None] | None = None,
    ) -> None:
        self.problem = problem
        self.bar = bar
        self.size_tree = size_tree
        self.size: TreeSizer | None = None
        self.sized = False  # whether size_tree was asked
        self.drawn = -math.inf  # when the bar was last drawn

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn."""
        return self.bar is not None and self.bar.shown

    def share(self, search: Search) -> tuple[float | None, float | None]:
        """The share of ``search``'s tree walked and the tree's estimated nodes (None,
        None while unknown)."""
        stats = search.stats
        walked = search.progress()
        if walked is not None and 0 < walked < 1:
            return walked, stats.nodes / walked
        if walked is None:
            if not self.sized:
                self.sized = True
                self.size = None if self.size_tree is None else self.size_tree(self.problem)
            total = None if self.size is None else self.size.nodes(stats.nodes)
            if total is not None and total > 0:
                return stats.nodes / total, total
        return None, None

    def __call__(self, search: Search) -> None:
        bar = self.bar
        if bar is None or not bar.shown:
            return
        now = time.monotonic()
        if now - self.drawn < 0.1:  # a listing calls at every solution
            return
        self.drawn = now
        stats = search.stats
        _, total = self.share(search)
        bar.set(stats.nodes, 0 if total is None else total, solutions=stats.solutions)

    def close(self, search: Search) -> None:
        """End the bar: a search run to its end has done all its nodes, 100% of the
        tree (the size that drew the bar was an estimate)."""
        if self.bar is None:
            return
        if self.bar.shown:
            stats = search.stats
            if stats.complete:
                self.bar.finish(stats.nodes, solutions=stats.solutions)
        self.bar.close()


def count(problem: Problem, request: MethodRequest) -> Outcome:
    """Count by one search, in slices; a stop is the outcome's ``error``, as the search
    raised it."""
    search = new_search(problem, request)
    slices = Slices(search, request.max_nodes, request.deadline, request.note_ctrl_c)
    bar = SearchBar(problem, request.bar("count", "node"), request.size_tree)
    if bar.shown:
        slices.tick = lambda: bar(search)
    error = slices.run(lambda: slices.step(search.count))
    bar.close(search)
    done = search.stats
    stopped_by = None if error is None else stop_reason(error)
    if stopped_by is None and done.stopped_by == "max_solutions":
        stopped_by = "limit"
    return SearchOutcome(search, done, stopped_by, error)


class SearchOutcome(Outcome):
    """The outcome of a count by one search, whose statistics and engine are worded
    only when first read (the API reads the count alone: a tiny count should not pay
    for the words)."""

    def __init__(
        self, search: Search, done: Stats, stopped_by: str | None, error: BaseException | None
    ) -> None:
        self.method = "search"
        self.count = done.solutions
        self.stopped_by = stopped_by
        self.route = None
        self.error = error
        self._search = search
        self._done = done
        self._stats: dict[str, Any] | None = None
        self._engine: str | None = None

    @property  # type: ignore[misc]  # a field of Outcome, worded when first read
    def stats(self) -> dict[str, Any]:
        """The search's statistics, with what stopped it."""
        if self._stats is None:
            self._stats = search_stats(self._search, self.stopped_by, self._done)
        return self._stats

    @stats.setter
    def stats(self, value: dict[str, Any]) -> None:
        self._stats = value

    @property  # type: ignore[misc]  # a field of Outcome, worded when first read
    def engine(self) -> str | None:
        """The engine, the algorithm and the item choice."""
        if self._engine is None:
            self._engine = search_engine(self._search, self._done)
        return self._engine

    @engine.setter
    def engine(self, value: str | None) -> None:
        self._engine = value


class SearchListing:
    """The solutions of one search, in slices (a
    :class:`~excover.counting.outcome.Listing`): iterated, each as the search finds it;
    within :meth:`guard`, Ctrl-C is noted and stops the listing cleanly."""

    def __init__(self, problem: Problem, request: MethodRequest) -> None:
        search = self.search = new_search(problem, request)
        search.max_solutions = None  # the slices count the limit themselves
        self.slices = Slices(search, request.max_nodes, request.deadline, request.note_ctrl_c)
        self.bar = SearchBar(problem, request.bar("solve", "node"), request.size_tree)
        if self.bar.shown:
            self.slices.tick = lambda: self.bar(search)
        self.limit = request.limit

    def __iter__(self) -> Iterator[list[int]]:
        slices = self.slices
        if slices.tick is None and not slices.note_ctrl_c:  # nothing to do between slices
            self.search.deadline, self.search.max_nodes = slices.deadline, slices.max_nodes
            return self.search.solutions(self.limit)
        return slices.solutions(self.limit)

    def guard(self) -> AbstractContextManager[object]:
        """Ctrl-C noted, not raised, while a front end lists."""
        return self.slices.noting_ctrl_c()

    def outcome(self, found: int, error: BaseException | None) -> Outcome:
        """The listing once ``found`` solutions were handed over."""
        search = self.search
        self.bar.close(search)
        if error is not None:
            stopped_by: str | None = stop_reason(error)
        else:
            stopped_by = "limit" if self.limit is not None and found >= self.limit else None
        stats = search_stats(search, stopped_by)
        return Outcome("search", search_engine(search), found, stopped_by, stats, error=error)


def listing(problem: Problem, request: MethodRequest) -> SearchListing:
    """The solutions of one search, as :class:`SearchListing` finds them."""
    return SearchListing(problem, request)
