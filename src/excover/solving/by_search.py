"""A run by one compiled search (``method="search"``, and ``auto`` given search options):
driven in slices, so that the run can stop at the request's deadline, draw its progress
and notice Ctrl-C between two slices, and answer with its count so far. Its bar
(:class:`SearchBar`) is its nodes against the estimated size of its tree."""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from excover.errors import LimitReached
from excover.solving.outcome import Outcome, search_engine, search_stats

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import TypeVar

    from excover.engines import Search
    from excover.problem import Problem
    from excover.solving.request import Bar, Request

    _T = TypeVar("_T")

__all__ = ["SLICE", "SearchBar", "Slices", "TreeSize", "count", "new_search", "solutions"]

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


#: Seconds a search runs before its bar gets a size for the tree.
SIZE_AFTER = 1.0
#: The share of a search's time the probes that size its tree may take, in all.
PROBE_SHARE = 0.04
#: The longest batch of probes (seconds) at one look.
PROBE_BATCH = 0.25
#: The relative standard error of the probes' mean below which no more are made ...
PROBE_ENOUGH = 0.03
#: ... and above which the mean sizes no bar (it counts up instead).
PROBE_USELESS = 0.5
#: The share of the probes' size a search may walk before that size is taken as too
#: small (the probes' mean of a heavy-tailed tree is mostly below the truth).
PROBES_PROVED_SMALL = 0.95


class TreeSize:
    """The size of a search's tree (its nodes) as its progress bar needs it, for the
    engines that do not tell the share of their tree walked (dancing cells, and any
    engine on Algorithm M; the bit-parallel engine's and dancing links'
    :meth:`~excover.engines.Search.progress` is used where it tells). Knuth's random
    probes (:func:`excover.parallel.probes.probe`), made in batches while the search
    goes on, within :data:`PROBE_SHARE` of its time, and pooled: the mean of all of
    them, sharper the longer the count runs. None while their standard error is more
    than :data:`PROBE_USELESS` of the mean."""

    def __init__(self, problem: Problem, clock: Callable[[], float] = time.monotonic) -> None:
        self.problem = problem
        self.clock = clock
        self.started = clock()
        self.spent = 0.0
        self.values: list[float] = []
        self._root: object = None
        self._rng: object = None

    def nodes(self, walked: int) -> float | None:
        """The estimated nodes of the whole tree, of which ``walked`` are walked,
        probing more first when the time allows; None: unknown yet, or the search has
        walked :data:`PROBES_PROVED_SMALL` of it and goes on (the probes' mean was too
        small: a bar stuck near 100% would say the end is near when nothing says so)."""
        now = self.clock()
        elapsed = now - self.started
        if elapsed < SIZE_AFTER:
            return None
        if not self._sharp() and self.spent < PROBE_SHARE * elapsed:
            self._probe(min(PROBE_BATCH, PROBE_SHARE * elapsed - self.spent))
        if not self.values or self._error() > PROBE_USELESS:
            return None
        mean = sum(self.values) / len(self.values)
        return None if walked >= PROBES_PROVED_SMALL * mean else mean

    def _error(self) -> float:
        """The relative standard error of the probes' mean (inf: too few probes)."""
        n = len(self.values)
        if n < 2:
            return math.inf
        mean = sum(self.values) / n
        spread = sum((v - mean) ** 2 for v in self.values) / (n - 1)
        return math.sqrt(spread / n) / mean if mean > 0 else math.inf

    def _sharp(self) -> bool:
        return self._error() <= PROBE_ENOUGH

    def _probe(self, seconds: float) -> None:
        import random

        from excover.parallel.probes import probe
        from excover.parallel.tree import Layout, State

        started = time.monotonic()
        if self._root is None:
            self._root = State(Layout.of(self.problem))
            self._rng = random.Random(0)
        root, rng = self._root, self._rng
        assert isinstance(root, State) and isinstance(rng, random.Random)
        end = started + seconds
        while not self.values or time.monotonic() < end:
            self.values.append(float(probe(root.copy(), rng).nodes))
        self.spent += time.monotonic() - started


class SearchBar:
    """The progress bar of a search (a count, or a listing): its nodes so far against
    the size of its tree, the nodes over the share walked where the engine tells it
    (Knuth's estimate from its path, by the bit-parallel engine and dancing links),
    else :class:`TreeSize`'s probes; a bar that counts up while neither knows. Ended at
    100% by :meth:`close` when the search ran to its end. Also the race's measure of a search
    (:mod:`excover.solving.by_routes`): :meth:`share`."""

    def __init__(self, problem: Problem, bar: Bar | None = None) -> None:
        self.problem = problem
        self.bar = bar
        self.size: TreeSize | None = None
        self.drawn = -math.inf  # when the bar was last drawn

    def share(self, search: Search) -> tuple[float | None, float | None]:
        """The share of ``search``'s tree walked and the tree's estimated nodes (None,
        None while unknown)."""
        stats = search.stats
        walked = search.progress()
        if walked is not None and 0 < walked < 1:
            return walked, stats.nodes / walked
        if walked is None:
            if self.size is None:
                self.size = TreeSize(self.problem)
            total = self.size.nodes(stats.nodes)
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
        stats = search.stats
        if self.bar.shown and stats.complete:
            self.bar.finish(stats.nodes, solutions=stats.solutions)
        self.bar.close()


def count(problem: Problem, request: Request) -> Outcome:
    """Count by one search, in slices."""
    search = new_search(problem, request)
    slices = Slices(search, request.max_nodes, request.deadline)
    bar = SearchBar(problem, request.bar("count", "node"))
    slices.tick = lambda: bar(search)
    stopped_by = slices.run(lambda: slices.step(search.count))
    bar.close(search)
    if stopped_by is None and search.stats.stopped_by == "max_solutions":
        stopped_by = "limit"
    stats = search_stats(search, stopped_by)
    return Outcome("search", search_engine(search), search.stats.solutions, stopped_by, stats)


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution to ``emit`` as soon as the search finds it."""
    search = new_search(problem, request)
    search.max_solutions = None  # the slices count the limit themselves
    slices = Slices(search, request.max_nodes, request.deadline)
    bar = SearchBar(problem, request.bar("solve", "node"))
    slices.tick = lambda: bar(search)
    found = 0

    def body() -> None:
        nonlocal found
        for solution in slices.solutions(request.limit):
            emit(solution)
            found += 1  # counted once handed out: a stop inside emit leaves it out

    stopped_by = slices.run(body)
    bar.close(search)
    return Outcome(
        "search", search_engine(search), found, stopped_by, search_stats(search, stopped_by)
    )
