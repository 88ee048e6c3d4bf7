"""A run by one compiled search (``method="dlx"``, and ``auto`` given search options):
driven in slices, so that the run can stop at the request's deadline, draw its progress
and notice Ctrl-C between two slices, and answer with its count so far."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from excover.errors import LimitReached
from excover.solving.outcome import Outcome, search_engine, search_stats

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from typing import TypeVar

    from excover.engines import Search
    from excover.problem import Problem
    from excover.solving.request import Request

    _T = TypeVar("_T")

__all__ = ["SLICE", "Slices", "count", "new_search", "solutions"]

#: The longest stretch of search (seconds) before the run looks at Ctrl-C again.
SLICE = 0.05


class _Stopped(Exception):
    """The run ended early; ``reason`` is one of :data:`~excover.solving.outcome.STOP_REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Slices:
    """Drives one :class:`~excover.Search` in slices of :data:`SLICE` seconds.

    The engine keeps its state when a slice ends, so slicing costs next to nothing, and
    the run can act between two slices: it enforces the deadline (a slice ends at the
    deadline or after :data:`SLICE` seconds, whichever is first, and no slice starts past
    the deadline, however the time went: handing solutions to the caller counts), draws
    the progress bar (:attr:`tick`) and notices Ctrl-C. ``max_nodes`` is the search's own
    whole-run bound. Ctrl-C only raises a flag, so it never falls between the engine
    finding a solution and the caller receiving it: every solution the statistics count
    has been handed over. A second Ctrl-C raises KeyboardInterrupt at once.
    """

    def __init__(self, search: Search, max_nodes: int | None, deadline: float | None) -> None:
        self.search = search
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.interrupted = False
        self.tick: Callable[[], None] | None = None  # called between slices (progress)

    def step(self, call: Callable[[], _T]) -> _T:
        """``call()`` (``search.count`` or ``search.first``), resumed until it returns."""
        search = self.search
        while True:
            if self.interrupted:
                raise _Stopped("interrupt")
            end = time.monotonic() + SLICE
            search.deadline = end if self.deadline is None else min(end, self.deadline)
            search.max_nodes = self.max_nodes
            try:
                return call()
            except LimitReached as exc:
                if exc.reason != "timeout":
                    raise _Stopped(exc.reason) from None
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    raise _Stopped("timeout") from None
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
        raise _Stopped("limit")

    def run(self, body: Callable[[], object]) -> str | None:
        """Run ``body``, which drives the search; return why it stopped early, or None."""
        with self._noting_ctrl_c():
            try:
                body()
            except _Stopped as exc:
                return exc.reason
            except KeyboardInterrupt:
                return "interrupt"
        return None

    @contextmanager
    def _noting_ctrl_c(self) -> Iterator[None]:
        """Within the block, Ctrl-C sets ``interrupted`` rather than raising (first time).

        Left alone when Ctrl-C is ignored (a background job) or handled by a program that
        calls :func:`~excover.cli.main`, or off the main thread: the engine's
        KeyboardInterrupt stops the run then.
        """

        def note(signum: int, frame: FrameType | None) -> None:
            if self.interrupted:
                raise KeyboardInterrupt
            self.interrupted = True

        noting = signal.getsignal(signal.SIGINT) is signal.default_int_handler
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


def new_search(problem: Problem, request: Request) -> Search:
    """A search with the request's heuristic, seed, engine and solution limit."""
    from excover.engines import Search

    return Search(
        problem,
        heuristic=request.heuristic,
        seed=request.seed,
        max_solutions=request.limit,
        engine=request.engine,
    )


class _Progress:
    """The progress bar of a search (a count, or a listing): nodes so far against
    Knuth's estimate of the size of the tree, made by random probes once the search has
    run a second."""

    def __init__(self, problem: Problem, search: Search, request: Request, desc: str) -> None:
        self.problem = problem
        self.search = search
        self.bar = request.bar(desc, "node")
        self.started = time.monotonic()
        self.drawn = 0.0  # when the bar was last drawn
        self.estimated = False

    def __call__(self) -> None:
        if not self.bar.shown:
            return
        now = time.monotonic()
        if now - self.drawn < 0.1:  # a listing calls at every solution
            return
        self.drawn = now
        total = None
        if not self.estimated:
            if now - self.started < 1.0:
                return
            from excover.parallel.probes import quick_nodes

            total = quick_nodes(self.problem, 0.2)
            self.estimated = True
        stats = self.search.stats
        self.bar.set(stats.nodes, total, solutions=stats.solutions)

    def close(self) -> None:
        """End the bar: a search run to its end has done all its nodes, 100% of the
        tree (the estimate that sized the bar was an estimate)."""
        stats = self.search.stats
        if self.bar.shown and stats.complete:
            self.bar.set(stats.nodes, stats.nodes, solutions=stats.solutions)
        self.bar.close()


def count(problem: Problem, request: Request) -> Outcome:
    """Count by one search, in slices."""
    search = new_search(problem, request)
    slices = Slices(search, request.max_nodes, request.deadline)
    bar = _Progress(problem, search, request, "count")
    slices.tick = bar
    stopped_by = slices.run(lambda: slices.step(search.count))
    bar.close()
    if stopped_by is None and search.stats.stopped_by == "max_solutions":
        stopped_by = "limit"
    stats = search_stats(search, stopped_by)
    return Outcome("dlx", search_engine(search), search.stats.solutions, stopped_by, stats)


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution to ``emit`` as soon as the search finds it."""
    search = new_search(problem, request)
    search.max_solutions = None  # the slices count the limit themselves
    slices = Slices(search, request.max_nodes, request.deadline)
    bar = _Progress(problem, search, request, "solve")
    slices.tick = bar
    found = 0

    def body() -> None:
        nonlocal found
        for solution in slices.solutions(request.limit):
            found += 1
            emit(solution)

    stopped_by = slices.run(body)
    bar.close()
    return Outcome(
        "dlx", search_engine(search), found, stopped_by, search_stats(search, stopped_by)
    )
