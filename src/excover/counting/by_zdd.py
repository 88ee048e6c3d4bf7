"""The runner of the ZDD method (``method="zdd"``).

A count takes the API's route (:func:`excover.zdd.dxz.count`): the frontier count when the
problem suits it, else the family built top-down when
:func:`excover.zdd.dxz.prefers_topdown` else the DXZ family. A listing takes the
solutions as the DXZ search meets them (:class:`excover.zdd.dxz.DxzListing`): the first
after one descent, and a solution limit builds only the part of the family its
solutions need.

The deadline and Ctrl-C stop either within a few hundredths of a second: an alarm
(:func:`excover.deadlines.alarm`) raises wherever the run is, and the compiled
constructions look for signals every few milliseconds. The request's ``max_memory``
(default: a share of the machine's memory, :mod:`excover.zdd.memory`) bounds their
tables; past it the run stops as it does at the deadline, marked ``max_memory``. A ZDD
count has no partial result, so a stopped count is unknown (None); a stopped listing
has handed over its solutions so far. The outcome keeps the stop as the API raises it
(:class:`~excover.LimitReached` at the deadline, :class:`~excover.MemoryBoundError`,
KeyboardInterrupt).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from excover.counting.outcome import Outcome, as_raised, listing_stop
from excover.deadlines import TimeUp, alarm
from excover.errors import MemoryBoundError

if TYPE_CHECKING:
    from excover.counting.request import Bar, MethodRequest
    from excover.problem import Problem
    from excover.zdd.dxz import DxzListing, DxzResult, Run

__all__ = ["ZddListing", "count", "listing"]


def count(problem: Problem, request: MethodRequest) -> Outcome:
    """Count as :func:`excover.zdd.dxz.count` does (the frontier count if it suits, else
    the top-down family if preferred, else the DXZ family)."""
    from excover.zdd import dxz, frontier

    run = _Stop(request)
    stats: dict[str, object] = {}
    engine = "frontier count"
    total: int | None = None
    bar = request.bar("frontier count", "item")
    try:
        with run, alarm(request.time_left()):
            tick = _layers(bar) if bar.shown else None
            total = frontier.count(problem, tick=tick, max_bytes=run.bound)
            if total is None and dxz.prefers_topdown(problem):
                engine = "top-down family"
                bar.close()
                bar = request.bar("top-down", "option")
                tick = _layers(bar) if bar.shown else None
                family = dxz.topdown(problem, dxz.search_manager(run.bound), tick)
                total = family.count()
                stats.update(zdd_nodes=family.size)
            if total is None:
                engine = "DXZ family"
                bar.close()
                bar = request.bar("DXZ", "node")
                probe = _dxz(dxz.Run(problem, dxz.search_manager(run.bound)), bar)
                assert probe.family is not None  # no budget, so the search ran to its end
                total = probe.family.count()
                stats.update(zdd_nodes=probe.family.size, nodes=probe.nodes, memo_hits=probe.hits)
    finally:
        bar.close()
    stats["solutions"] = total
    return Outcome("zdd", engine, total, run.stopped_by, run.ended(stats), error=run.error)


#: DXZ search nodes between two updates of the progress bar.
DXZ_SLICE = 20_000


def _layers(bar: Bar) -> Callable[[int, int, int], None]:
    """The frontier count's tick: layers (primary items) done out of all, and the
    states of the last layer."""

    def tick(done: int, layers: int, states: int) -> None:
        bar.set(done, layers, states=states)

    return tick


def _dxz(run: Run, bar: Bar) -> DxzResult:
    """Run DXZ to its end; with a bar, in slices of :data:`DXZ_SLICE` search nodes that
    show the nodes so far against the size of the search, the nodes over the share of
    its tree walked (:meth:`~excover.zdd.dxz.Run.progress`: the bar counts up where
    that is unknown), and the memo's hits."""
    if not bar.shown:
        return run.run()
    budget = 0
    while True:
        budget += DXZ_SLICE
        probe = run.run(budget)
        if probe.family is not None:  # the end: every node the search had, 100%
            bar.finish(probe.nodes, memo_hits=probe.hits)
            return probe
        share = run.progress()
        size = probe.nodes / share if share is not None and 0 < share < 1 else 0
        bar.set(probe.nodes, size, memo_hits=probe.hits)


class ZddListing:
    """The solutions as the DXZ search meets them (:class:`excover.zdd.dxz.DxzListing`), a
    :class:`~excover.counting.outcome.Listing`: until the request's limit or memory
    bound, or Ctrl-C; within :meth:`guard`, until its deadline too (the alarm)."""

    def __init__(self, problem: Problem, request: MethodRequest) -> None:
        self.problem = problem
        self.request = request
        self.started = time.perf_counter()
        self.listing: DxzListing | None = None

    def __iter__(self) -> Iterator[list[int]]:
        from excover.zdd import dxz

        limit = self.request.limit
        if limit == 0:
            return
        self.listing = dxz.DxzListing(self.problem, self.request.max_memory)
        for found, solution in enumerate(self.listing, 1):
            yield solution
            if found == limit:
                return

    def guard(self) -> AbstractContextManager[object]:
        """The alarm at the request's deadline."""
        return alarm(self.request.time_left())

    def outcome(self, found: int, error: BaseException | None) -> Outcome:
        """The listing once ``found`` solutions were handed over; the alarm's stop kept
        as the API raises it (:class:`~excover.LimitReached`, reason ``"timeout"``)."""
        stopped_by = listing_stop(found, self.request.limit, error)
        if error is not None:
            error = as_raised(error, found)
        stats: dict[str, object] = {"solutions": found}
        if self.listing is not None:
            stats.update(nodes=self.listing.run.nodes, memo_hits=self.listing.run.hits)
        stats.update(
            seconds=time.perf_counter() - self.started,
            complete=stopped_by is None,
            stopped_by=stopped_by,
        )
        if isinstance(error, MemoryBoundError):
            stats["memory_bound"] = error.bound
        return Outcome("zdd", "DXZ search", found, stopped_by, stats, error=error)


def listing(problem: Problem, request: MethodRequest) -> ZddListing:
    """The solutions as :class:`ZddListing` finds them."""
    return ZddListing(problem, request)


class _Stop:
    """A ZDD run's clock and what stopped it: the deadline, the memory bound or Ctrl-C
    end a ``with`` block of it, recorded in :attr:`stopped_by`."""

    def __init__(self, request: MethodRequest) -> None:
        self.started = time.perf_counter()
        #: The memory bound of the run, the one it passed when it stopped there.
        self.bound = request.max_memory
        self.stopped_by: str | None = None
        #: What stopped the run, as the API raises it.
        self.error: BaseException | None = None

    def __enter__(self) -> None:
        """Nothing to set up: the run starts its clock when the stop is made."""

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> bool:
        if isinstance(error, TimeUp):
            self.stopped_by, self.error = "timeout", as_raised(error)
        elif isinstance(error, MemoryBoundError):
            self.stopped_by, self.bound, self.error = "max_memory", error.bound, error
        elif isinstance(error, KeyboardInterrupt):
            self.stopped_by, self.error = "interrupt", error
        else:
            return False
        return True

    def ended(self, stats: dict[str, object]) -> dict[str, object]:
        """``stats`` with the run's time, whether it is complete, and what stopped it."""
        stats.update(
            seconds=time.perf_counter() - self.started,
            complete=self.stopped_by is None,
            stopped_by=self.stopped_by,
        )
        if self.stopped_by == "max_memory":
            stats["memory_bound"] = self.bound
        return stats
