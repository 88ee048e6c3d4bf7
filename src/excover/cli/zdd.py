"""The ZDD method on the command line: ``--method zdd``.

A count takes the API's route (:func:`excover.zdd.dxz.count`): the frontier count when the
problem suits it, else the family built top-down when
:func:`excover.zdd.dxz.prefers_topdown` else the DXZ family. A listing takes the
solutions as the DXZ search meets them (:class:`excover.zdd.dxz.Listing`): the first
after one descent, and ``--limit N`` builds only the part of the family its N solutions
need.

``--timeout`` and Ctrl-C stop either within a few hundredths of a second: an alarm
(:func:`~excover.cli.common.deadline`) raises wherever the run is, and the compiled
constructions look for signals every few milliseconds. ``--max-memory`` (default: a
share of the machine's memory, :mod:`excover.zdd.memory`) bounds their tables; past it
the run stops as it does at ``--timeout`` (exit status 1), marked ``max_memory``. A ZDD
count has no partial result, so a stopped count is unknown (None); a stopped listing
has printed its solutions so far.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from excover.cli.common import TimeUp, deadline, time_left
from excover.cli.outcome import Outcome
from excover.cli.progress import Progress, progress
from excover.errors import MemoryBoundError

if TYPE_CHECKING:
    from excover.solving import ExactCover
    from excover.zdd.dxz import Probe, Run

__all__ = ["count_zdd", "solve_zdd"]


def _finish(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """Count as :func:`excover.zdd.dxz.count` does (the frontier count if it suits, else
    the top-down family if preferred, else the DXZ family)."""
    from excover.zdd import dxz, frontier

    started = time.perf_counter()
    bound = _bound(args)
    stats: dict[str, object] = {}
    engine = "frontier count"
    total: int | None = None
    bar = progress(args, desc="frontier count", unit="item")
    try:
        with deadline(time_left(args)):
            tick = _layers(bar) if bar.shown else None
            total = frontier.count(problem, tick=tick, max_bytes=bound)
            if total is None and dxz.prefers_topdown(problem):
                engine = "top-down family"
                bar.close()
                bar = progress(args, desc="top-down", unit="option")
                tick = _layers(bar) if bar.shown else None
                family = dxz.topdown(problem, dxz.search_manager(bound), tick)
                total = family.count()
                stats.update(zdd_nodes=family.size)
            if total is None:
                engine = "DXZ family"
                bar.close()
                bar = progress(args, desc="DXZ", unit="node")
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


def _bound(args: argparse.Namespace) -> int | None:
    """The memory bound of ``--max-memory`` (None: the default bound)."""
    bound: int | None = getattr(args, "max_memory", None)
    return bound


#: DXZ search nodes between two updates of the progress bar.
DXZ_SLICE = 20_000


def _layers(bar: Progress) -> Callable[[int, int, int], None]:
    """The frontier count's tick: layers (primary items) done out of all, and the
    states of the last layer."""

    def tick(done: int, layers: int, states: int) -> None:
        bar.set(done, layers, states=states)

    return tick


def _dxz(run: Run, bar: Progress) -> Probe:
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


def count_zdd(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """``--method zdd``: the count of :func:`excover.zdd.dxz.count`."""
    return _finish(problem, args)


def solve_zdd(
    problem: ExactCover, args: argparse.Namespace, emit: Callable[[list[int]], None]
) -> Outcome:
    """``solve --method zdd``: the solutions as the DXZ search meets them
    (:class:`excover.zdd.dxz.Listing`), each emitted at once, until ``--limit``,
    ``--timeout``, ``--max-memory`` or Ctrl-C."""
    from excover.zdd import dxz

    started = time.perf_counter()
    bound = _bound(args)
    found = 0
    stopped_by = None
    limit = getattr(args, "limit", None)
    listing: dxz.Listing | None = None
    try:
        with deadline(time_left(args)):
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
