"""A run by the ZDD method (``method="zdd"``).

A count takes the API's route (:func:`excover.zdd.dxz.count`): the frontier count when the
problem suits it, else the family built top-down when
:func:`excover.zdd.dxz.prefers_topdown` else the DXZ family. A listing takes the
solutions as the DXZ search meets them (:class:`excover.zdd.dxz.Listing`): the first
after one descent, and a solution limit builds only the part of the family its
solutions need.

The deadline and Ctrl-C stop either within a few hundredths of a second: an alarm
(:func:`excover.deadlines.alarm`) raises wherever the run is, and the compiled
constructions look for signals every few milliseconds. The request's ``max_memory``
(default: a share of the machine's memory, :mod:`excover.zdd.memory`) bounds their
tables; past it the run stops as it does at the deadline, marked ``max_memory``. A ZDD
count has no partial result, so a stopped count is unknown (None); a stopped listing
has handed over its solutions so far.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from excover.deadlines import TimeUp, alarm
from excover.errors import MemoryBoundError
from excover.solving.outcome import Outcome

if TYPE_CHECKING:
    from excover.problem import Problem
    from excover.solving.request import Bar, Request
    from excover.zdd.dxz import Probe, Run

__all__ = ["count", "solutions"]


def count(problem: Problem, request: Request) -> Outcome:
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
    return Outcome("zdd", engine, total, run.stopped_by, run.ended(stats))


#: DXZ search nodes between two updates of the progress bar.
DXZ_SLICE = 20_000


def _layers(bar: Bar) -> Callable[[int, int, int], None]:
    """The frontier count's tick: layers (primary items) done out of all, and the
    states of the last layer."""

    def tick(done: int, layers: int, states: int) -> None:
        bar.set(done, layers, states=states)

    return tick


def _dxz(run: Run, bar: Bar) -> Probe:
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


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """The solutions as the DXZ search meets them (:class:`excover.zdd.dxz.Listing`),
    each handed to ``emit`` at once, until the request's limit, deadline or memory
    bound, or Ctrl-C."""
    from excover.zdd import dxz

    run = _Stop(request)
    found = 0
    limit = request.limit
    listing: dxz.Listing | None = None
    with run, alarm(request.time_left()):
        listing = dxz.Listing(problem, run.bound)
        for solution in listing:
            emit(solution)
            found += 1  # counted once handed out: a stop inside emit leaves it out
            if found == limit:
                run.stopped_by = "limit"
                break
    stats: dict[str, object] = {"solutions": found}
    if listing is not None:
        stats.update(nodes=listing.run.nodes, memo_hits=listing.run.hits)
    return Outcome("zdd", "DXZ search", found, run.stopped_by, run.ended(stats))


class _Stop:
    """A ZDD run's clock and what stopped it: the deadline, the memory bound or Ctrl-C
    end a ``with`` block of it, recorded in :attr:`stopped_by`."""

    def __init__(self, request: Request) -> None:
        self.started = time.perf_counter()
        #: The memory bound of the run, the one it passed when it stopped there.
        self.bound = request.max_memory
        self.stopped_by: str | None = None

    def __enter__(self) -> None:
        """Nothing to set up: the run starts its clock when the stop is made."""

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> bool:
        if isinstance(error, TimeUp):
            self.stopped_by = "timeout"
        elif isinstance(error, MemoryBoundError):
            self.stopped_by, self.bound = "max_memory", error.bound
        elif isinstance(error, KeyboardInterrupt):
            self.stopped_by = "interrupt"
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
