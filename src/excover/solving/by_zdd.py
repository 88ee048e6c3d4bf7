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

    started = time.perf_counter()
    bound = request.max_memory
    stats: dict[str, object] = {}
    engine = "frontier count"
    total: int | None = None
    bar = request.bar("frontier count", "item")
    try:
        with alarm(request.time_left()):
            tick = _layers(bar) if bar.shown else None
            total = frontier.count(problem, tick=tick, max_bytes=bound)
            if total is None and dxz.prefers_topdown(problem):
                engine = "top-down family"
                bar.close()
                bar = request.bar("top-down", "option")
                tick = _layers(bar) if bar.shown else None
                family = dxz.topdown(problem, dxz.search_manager(bound), tick)
                total = family.count()
                stats.update(zdd_nodes=family.size)
            if total is None:
                engine = "DXZ family"
                bar.close()
                bar = request.bar("DXZ", "node")
                probe = _dxz(dxz.Run(problem, dxz.search_manager(bound)), bar)
                assert probe.family is not None  # no budget, so the search ran to its end
                total = probe.family.count()
                stats.update(zdd_nodes=probe.family.size, nodes=probe.nodes, memo_hits=probe.hits)
        stopped_by = None
    except TimeUp:
        stopped_by = "timeout"
    except MemoryBoundError as past:
        stopped_by, bound = "max_memory", past.bound
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    finally:
        bar.close()
    stats.update(
        solutions=total,
        seconds=time.perf_counter() - started,
        complete=stopped_by is None,
        stopped_by=stopped_by,
    )
    if stopped_by == "max_memory":
        stats["memory_bound"] = bound
    return Outcome("zdd", engine, total, stopped_by, stats)


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
    show the nodes so far and the memo's hits (the size of the search is not known
    ahead: the bar counts up)."""
    if not bar.shown:
        return run.run()
    budget = 0
    while True:
        budget += DXZ_SLICE
        probe = run.run(budget)
        bar.set(probe.nodes, None, memo_hits=probe.hits)
        if probe.family is not None:
            return probe


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """The solutions as the DXZ search meets them (:class:`excover.zdd.dxz.Listing`),
    each handed to ``emit`` at once, until the request's limit, deadline or memory
    bound, or Ctrl-C."""
    from excover.zdd import dxz

    started = time.perf_counter()
    bound = request.max_memory
    found = 0
    stopped_by = None
    limit = request.limit
    listing: dxz.Listing | None = None
    try:
        with alarm(request.time_left()):
            listing = dxz.Listing(problem, bound)
            for solution in listing:
                found += 1
                emit(solution)
                if found == limit:
                    stopped_by = "limit"
                    break
    except TimeUp:
        stopped_by = "timeout"
    except MemoryBoundError as past:
        stopped_by, bound = "max_memory", past.bound
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    stats: dict[str, object] = {"solutions": found}
    if listing is not None:
        stats.update(nodes=listing.run.nodes, memo_hits=listing.run.hits)
    stats.update(
        seconds=time.perf_counter() - started,
        complete=stopped_by is None,
        stopped_by=stopped_by,
    )
    if stopped_by == "max_memory":
        stats["memory_bound"] = bound
    return Outcome("zdd", "DXZ search", found, stopped_by, stats)
