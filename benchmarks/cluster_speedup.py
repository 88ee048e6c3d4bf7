"""Speed-up of counting on a Dask cluster: 2 one-thread workers against 1.

For each case the problem is split once (``TASKS_PER_WORKER`` per worker of the larger
cluster, sizes estimated afresh, big subproblems cut, as ``excover count --dask`` does),
then counted by :class:`~excover.parallel.cluster.ClusterRun` on a new ``LocalCluster``
of 1 and of 2 worker processes, interleaved, ``--runs`` rounds; the clusters' start-up
and the split are left out of the times (they are the same for both). Figures:

* wall: the best of the rounds for each size, and their ratio (the speed-up a user sees;
  on a shared machine it depends on what else runs);
* CPU: the workers' CPU time (user + system of their processes, Dask's own threads
  included), summed (``cpu``) and, with 2 workers, the busiest worker's (``busiest``);
  ``cpu speed-up`` = cpu(1 worker) / busiest(2 workers), what 2 idle cores give when no
  worker waits (an upper bound of the wall speed-up, which the machine's other work does
  not move), and ``overhead`` = cpu(2) / cpu(1) (work cut and counted again, Dask).

With ``--hog``, a process that keeps one core busy (a Python loop) runs beside the
counts, as ``benchmarks/parallel_hog.py`` does: 2 workers must then not lose to 1 (issue
#43: never below 0.9x).

Usage: ``python benchmarks/cluster_speedup.py [--cases pento6x10 queens16] [--runs N]
[--hog]``.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
import time
import warnings
from typing import Any

from cluster_progress import CASES
from distributed import Client, LocalCluster

from excover import ExactCover
from excover.parallel.checkpoint import Checkpoint, fingerprint
from excover.parallel.cluster import ClusterRun, even_out
from excover.parallel.subproblems import Subproblem, resized, split
from excover.parallel.tasks import TASKS_PER_WORKER

__all__ = ["main"]


def cpu_by_worker(client: Client) -> dict[str, float]:
    """The CPU seconds (user + system) of each worker process so far."""
    import psutil

    def mine() -> float:
        times = psutil.Process().cpu_times()
        return float(times.user + times.system)

    return {str(k): float(v) for k, v in client.run(mine).items()}


def one_run(
    problem: ExactCover, subproblems: list[Subproblem], options: dict[str, Any], workers: int
) -> tuple[int, float, list[float]]:
    """The count, wall seconds and each worker's CPU seconds of one run on a new cluster
    of ``workers``."""
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
            ledger = Checkpoint(None, fingerprint(problem), "search", list(subproblems))
            run = ClusterRun(problem, client, ledger, "search", options)
            before = cpu_by_worker(client)
            started = time.monotonic()
            for _ in run.steps():
                pass
            wall = time.monotonic() - started
            after = cpu_by_worker(client)
    finally:
        cluster.close()
    return ledger.count, wall, [after[k] - before.get(k, 0.0) for k in after]


def main() -> int:
    warnings.simplefilter("ignore", UserWarning)  # Dask's notes on busy dashboard ports
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["pento6x10", "queens16"], choices=CASES)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hog", action="store_true")
    args = parser.parse_args()
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.hog else None
    try:
        beside = f" beside a CPU hog (pid {hog.pid})" if hog else ""
        print(f"1 vs 2 one-thread workers{beside}, best of {args.runs} interleaved rounds")
        print(
            f"{'case':<14} {'wall 1':>8} {'wall 2':>8} {'speed-up':>8} "
            f"{'cpu 1':>8} {'cpu 2':>8} {'busiest':>8} {'cpu speed-up':>12} {'overhead':>8}"
        )
        for name in args.cases:
            build, options, expected = CASES[name]
            problem = build()
            fresh = resized(problem, split(problem, tasks=2 * TASKS_PER_WORKER))
            subproblems = even_out(problem, fresh, 2)
            wall = {1: float("inf"), 2: float("inf")}
            cpu = {1: float("inf"), 2: float("inf")}
            busiest = float("inf")
            for _ in range(args.runs):
                for workers in (1, 2):
                    total, seconds, by_worker = one_run(problem, subproblems, options, workers)
                    if total != expected:
                        print(f"{name}: counted {total}, not {expected}")
                        return 1
                    wall[workers] = min(wall[workers], seconds)
                    cpu[workers] = min(cpu[workers], sum(by_worker))
                    if workers == 2:
                        busiest = min(busiest, max(by_worker))
            print(
                f"{name:<14} {wall[1]:>7.2f}s {wall[2]:>7.2f}s {wall[1] / wall[2]:>7.2f}x "
                f"{cpu[1]:>7.2f}s {cpu[2]:>7.2f}s {busiest:>7.2f}s {cpu[1] / busiest:>11.2f}x "
                f"{cpu[2] / cpu[1]:>8.2f}",
                flush=True,
            )
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
