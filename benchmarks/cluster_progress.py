"""Honest progress on a Dask cluster: the time left shown against the real time left.

For each case, a count on a ``LocalCluster`` of ``--workers`` one-thread worker processes
by :class:`~excover.parallel.cluster.ClusterRun` (the engine of ``excover count --dask``,
subproblems cut for idle workers after ``--split-after`` seconds), sampled at every tick
of the run: the bar's fraction (:meth:`ClusterRun.progress
<excover.parallel.cluster.ClusterRun.progress>`: the ledger's share counted plus the
share done inside the tasks running, what ``--progress`` draws) and the time left it
shows (:meth:`ClusterRun.remaining
<excover.parallel.cluster.ClusterRun.remaining>`, what ``--progress`` prints). At the end
the real time left at each sample is known; the table gives, from 10% done on (and
before the last 2% of the run, where the real time left tends to 0):

* the worst factor between the time left shown and the real one (goal: at most 2);
* the median factor;
* the stall at the end: the longest time the bar's fraction did not move in the last
  quarter of the run, as a share of the run (goal: at most 5%);
* the workers' CPU time against the wall time of the run (2.0: two idle cores; lower on
  a shared machine, where wall-clock figures are noisy: the time left is a wall-clock
  promise, so it is checked in wall-clock time, and the CPU share says how steady the
  machine was).

A third row, ``first``, gives the same figures on the wall clock for the first model of
the time left (:class:`~excover.parallel.progress.Pace`, with a bar of the finished
subproblems only), fed by the same run: the two models side by side on one run.

With ``--log``, every sample: seconds, fraction, time left shown, real time left.

Usage: ``python benchmarks/cluster_progress.py [--cases pento6x10 queens16]
[--workers 2] [--split-after S] [--log]``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

from _data import KNUTH_DATA, require
from distributed import Client, LocalCluster

from excover import ExactCover
from excover.parallel.cluster import SPLIT_AFTER, ClusterRun, open_ledger
from excover.parallel.progress import Forecast, Pace
from excover.parallel.tasks import TaskResult
from excover.puzzles.queens import queens

__all__ = ["main"]

#: The cases: name, problem builder, search options, the published count (pento6x10:
#: Knuth's MANIFEST.md, 2339 packings times the 4 symmetries of the box; queens: OEIS
#: A000170). The bit-parallel engine counts pento6x10 in about a second, a run too short
#: to watch a bar: ``pento6x10-dlx`` counts it by dancing links proper, several times
#: longer.
CASES: dict[str, tuple[Callable[[], ExactCover], dict[str, Any], int]] = {
    "pento6x10": (lambda: ExactCover.read(require(KNUTH_DATA / "pento6x10.dlx")), {}, 9356),
    "pento6x10-dlx": (
        lambda: ExactCover.read(require(KNUTH_DATA / "pento6x10.dlx")),
        {"engine": "dlx"},
        9356,
    ),
    "queens15": (lambda: queens(15), {}, 2279184),
    "queens16": (lambda: queens(16), {}, 14772512),
}


def worker_cpu(client: Client) -> float:
    """The CPU seconds (user + system) of the cluster's worker processes so far."""
    import psutil

    def mine() -> float:
        times = psutil.Process().cpu_times()
        return float(times.user + times.system)

    return float(sum(client.run(mine).values()))


class CpuRun(ClusterRun):
    """A cluster run that also keeps its :class:`Forecast` in CPU seconds (each task's
    own CPU time), to give the time left on a clock the machine's other work does not
    move: the workers' CPU seconds, per worker. A running task's CPU seconds so far are
    its wall seconds times the CPU share of the finished tasks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cpu_forecast = Forecast(self.forecast.total, None)
        self.cpu_share = [0.0, 0.0]  # CPU and wall seconds of the finished tasks
        self.first = Pace()  # the first model, on the wall clock, for comparison

    def _record(self, attempt: Any, result: TaskResult, worker: str) -> bool:
        before = self.ledger.done_size()
        changed = super()._record(attempt, result, worker)
        if changed:
            seconds = time.monotonic() - attempt.started
            self.first.finished(seconds, self.ledger.done_size() - before)
            size = self.ledger.subproblems[attempt.index].size
            self.cpu_forecast.total = self.forecast.total
            self.cpu_forecast.finished(result.seconds, size, result.nodes)
            self.cpu_share[0] += result.seconds
            self.cpu_share[1] += time.monotonic() - attempt.started
        return changed

    def first_remaining(self) -> float | None:
        """The time left by the first model (:class:`Pace`), as ``--progress`` showed it
        before :class:`Forecast`."""
        left = self.ledger.total_size() - self.ledger.done_size()
        slots = max(self.threads, 1)
        return self.first.remaining(left, self._busy(), slots, len(self.queue))

    def cpu_remaining(self) -> float | None:
        """The time left in CPU seconds of a worker (:meth:`remaining`'s model)."""
        share = self.cpu_share[0] / self.cpu_share[1] if self.cpu_share[1] > 0 else 1.0
        running = [(size, seconds * share) for size, seconds in self._running()]
        slots = max(self.threads, 1)
        return self.cpu_forecast.remaining(running, self._waiting(), slots)


def judge(
    samples: list[tuple[float, float, float | None]], end: float, log: bool
) -> dict[str, float]:
    """The figures of one clock's (time, fraction done, time left shown) samples of a run
    that ended at ``end`` (see the notes)."""
    factors = []
    for now, fraction, shown in samples:
        real = end - now
        if fraction < 0.1 or real < 0.02 * end:
            continue
        shown = max(shown if shown is not None else 0.0, 1e-9)
        factors.append(max(shown / real, real / shown))
        if log:
            done = f"{now:8.2f} s  {100 * fraction:5.1f}%"
            print(f"  {done}  shown {shown:8.2f} s  real {real:8.2f} s")
    stall, last = 0.0, (0.0, 0.0)
    for now, fraction, _ in [*samples, (end, 1.0, None)]:
        if fraction != last[1]:
            if now >= 0.75 * end:
                stall = max(stall, now - last[0])
            last = (now, fraction)
    return {
        "seconds": end,
        "worst": max(factors, default=float("nan")),
        "median": statistics.median(factors) if factors else float("nan"),
        "stall": stall / end,
    }


def measure(
    problem: ExactCover, options: dict[str, Any], workers: int, split_after: float, log: bool
) -> tuple[int, dict[str, float], dict[str, float], dict[str, float], float]:
    """One count on a new local cluster: its total, its figures on the wall clock and on
    the workers' CPU clock, those of the first model (:class:`Pace` and a bar of the
    finished subproblems only) on the wall clock of the same run, and the subproblems
    cut for idle workers."""
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
    )
    try:
        with Client(cluster) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(workers)
            ledger = open_ledger(problem, "search", client, None, None)
            run = CpuRun(problem, client, ledger, "search", options, split_after=split_after)
            cpu = worker_cpu(client)
            started = time.monotonic()
            wall: list[tuple[float, float, float | None]] = []
            used: list[tuple[float, float, float | None]] = []
            first: list[tuple[float, float, float | None]] = []
            for _ in run.steps():
                fraction = run.progress()
                now = time.monotonic() - started
                wall.append((now, fraction, run.remaining()))
                counted = ledger.done_size() / ledger.total_size()
                first.append((now, counted, run.first_remaining()))
                clock = (worker_cpu(client) - cpu) / workers
                used.append((clock, fraction, run.cpu_remaining()))
            end = time.monotonic() - started
            cpu_end = (worker_cpu(client) - cpu) / workers
    finally:
        cluster.close()
    if log:
        print("  wall clock:")
    on_wall = judge(wall, end, log)
    if log:
        print("  CPU clock (CPU seconds of a worker):")
    on_cpu = judge(used, cpu_end, log)
    on_first = judge(first, end, False)
    return ledger.count, on_wall, on_cpu, on_first, float(run.stats.splits)


def main() -> int:
    warnings.simplefilter("ignore", UserWarning)  # Dask's notes on busy dashboard ports
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["pento6x10", "queens16"], choices=CASES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--split-after", type=float, default=SPLIT_AFTER)
    parser.add_argument("--log", action="store_true")
    args = parser.parse_args()
    cut = f"tasks cut for idle workers after {args.split_after} s"
    print(f"{args.workers} one-thread workers, {cut}")
    print(
        f"{'case':<14} {'count':>6} {'clock':<5} {'length':>8} {'worst':>6} {'median':>7} "
        f"{'end stall':>9} {'cuts':>5}"
    )
    for name in args.cases:
        build, options, expected = CASES[name]
        total, on_wall, on_cpu, on_first, cuts = measure(
            build(), options, args.workers, args.split_after, args.log
        )
        if total != expected:
            print(f"{name}: counted {total}, not {expected}")
            return 1
        for clock, figures in (("wall", on_wall), ("CPU", on_cpu), ("first", on_first)):
            print(
                f"{name:<14} {total:>6} {clock:<5} {figures['seconds']:>7.1f}s "
                f"{figures['worst']:>6.2f} {figures['median']:>7.2f} "
                f"{100 * figures['stall']:>8.1f}% {cuts:>5.0f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
