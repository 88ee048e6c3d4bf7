"""Faults at random points of cluster counts: the total must be exact every time.

For each kind of fault, ``--points`` runs (default 20) count Knuth's 14 queens problem
(by dancing links proper, cut into 12 subproblems) on two one-thread Dask workers, and
do the fault once, when a seeded random number of results (0 to 9) are in the ledger:

* ``kill``: a worker process running a task is killed with SIGKILL (a new cluster for
  each point);
* ``hang``: a worker process running a task is frozen with SIGSTOP (``task_timeout``
  2 s), and thawed after the run;
* ``client``: ``excover count --dask ... --checkpoint FILE`` is killed with SIGKILL, and
  the same command run again resumes from the ledger;
* ``scheduler``: ``dask scheduler`` is killed with SIGKILL and started again on its port,
  with new workers (a scheduler's workers end with it);
* ``split``: the whole search as one subproblem, cut for the idle worker after 0.3 s, the
  run stopped at the random point and resumed from its saved ledger.

Each line gives the point, the total (and whether it is exact), and the seconds. The
processes of each kind's cluster must all be gone when it closes (checked by
``tests/faults.py``). Usage: ``python benchmarks/cluster_faults.py [--points N]
[--seed S] [--kinds kill hang client scheduler split]``.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from distributed import Client
from faults import ProcessCluster, drive, kill_worker, local_cluster, stop_worker

from excover import ExactCover
from excover.parallel import split
from excover.parallel.checkpoint import Checkpoint, fingerprint
from excover.parallel.cluster import ClusterRun, open_ledger
from excover.parallel.subproblems import Subproblem

KNUTH = Path(__file__).resolve().parent.parent / "tests" / "data" / "knuth"
PROBLEM = KNUTH / "queens14.dlx"
OPTIONS = {"engine": "dlx"}
TASKS = 12

#: Seconds for the workers to be back after a fault.
WAIT_SECONDS = 180

#: A point: the number of results in the ledger when the fault comes.
Point = int


def ledger(problem: ExactCover, path: Path | None = None) -> Checkpoint:
    return Checkpoint(path, fingerprint(problem), "search", split(problem, tasks=TASKS))


def kill_points(problem: ExactCover, points: list[Point]) -> list[int]:
    """A new cluster for each point: LocalCluster may close the nanny of a killed worker
    instead of letting it start a new one, and the next point needs two workers."""
    totals = []
    for after in points:
        with local_cluster() as client:
            run = ClusterRun(problem, client, ledger(problem), options=OPTIONS, split_after=None)
            assert drive(run, after, lambda: kill_worker(client)) is not None, "no kill"
            totals.append(note("kill", after, run.ledger.count))
    return totals


def hang_points(problem: ExactCover, points: list[Point]) -> list[int]:
    totals = []
    frozen: list[int] = []
    with local_cluster() as client:

        def freeze() -> int | None:
            pid: int | None = stop_worker(client)
            frozen.extend([] if pid is None else [pid])
            return pid

        for after in points:
            run = ClusterRun(
                problem,
                client,
                ledger(problem),
                options=OPTIONS,
                task_timeout=2.0,
                split_after=None,
            )
            try:
                assert drive(run, after, freeze) is not None, "no hang"
            finally:
                for pid in frozen:
                    os.kill(pid, signal.SIGCONT)
                frozen.clear()
            totals.append(note("hang", after, run.ledger.count))
    return totals


def client_points(problem: ExactCover, points: list[Point]) -> list[int]:
    totals = []
    with local_cluster() as client, tempfile.TemporaryDirectory() as folder:
        address = str(client.scheduler_info()["address"])
        for number, after in enumerate(points):
            path = Path(folder) / f"ledger{number}.json"
            command = [
                sys.executable,
                "-m",
                "excover",
                "count",
                str(PROBLEM),
                "--method",
                "search",
                "--engine",
                "dlx",
                "--tasks",
                str(TASKS),
                "--dask",
                address,
                "--checkpoint",
                str(path),
                "--checkpoint-every",
                "0",
            ]
            first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            while first.poll() is None:
                state = Checkpoint.load(path, problem, "search") if path.exists() else None
                if state is not None and len(state.done) >= after:
                    break
                time.sleep(0.02)
            first.kill()
            first.wait()
            second = subprocess.run(command, capture_output=True, text=True, timeout=300)
            totals.append(note("client", after, int(second.stdout.strip())))
    return totals


def scheduler_points(problem: ExactCover, points: list[Point]) -> list[int]:
    totals = []
    cluster = ProcessCluster()
    try:
        cluster.start_scheduler()
        cluster.start_workers()
        client = Client(cluster.address, timeout=30)  # type: ignore[no-untyped-call]
        try:
            for after in points:
                client.wait_for_workers(2, timeout=WAIT_SECONDS)
                run = ClusterRun(
                    problem, client, ledger(problem), options=OPTIONS, split_after=None
                )

                def restart() -> int:
                    cluster.kill_scheduler()
                    cluster.start_scheduler()
                    cluster.start_workers()
                    return int(cluster.port)

                drive(run, after, restart)
                totals.append(note("scheduler", after, run.ledger.count))
        finally:
            client.close()  # type: ignore[no-untyped-call]
    finally:
        cluster.close()
    return totals


def split_points(problem: ExactCover, points: list[Point]) -> list[int]:
    totals = []
    with local_cluster() as client, tempfile.TemporaryDirectory() as folder:
        for number, after in enumerate(points):
            path = Path(folder) / f"ledger{number}.json"
            whole = Checkpoint(path, fingerprint(problem), "search", [Subproblem(())])
            steps = ClusterRun(problem, client, whole, options=OPTIONS, split_after=0.3).steps()
            for _ in steps:
                if whole.split and len(whole.done) >= after:
                    break
            steps.close()
            whole.save()
            resumed = open_ledger(problem, "search", client, path, None)
            for _ in ClusterRun(problem, client, resumed, options=OPTIONS, split_after=0.3).steps():
                pass
            totals.append(note("split", after, resumed.count))
    return totals


def note(kind: str, after: Point, total: int) -> int:
    """Print one point's total as it comes; the total."""
    print(f"  {kind} after {after} results: {total}", flush=True)
    return total


KINDS: dict[str, Callable[[ExactCover, list[Point]], list[int]]] = {
    "kill": kill_points,
    "hang": hang_points,
    "client": client_points,
    "scheduler": scheduler_points,
    "split": split_points,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    args = parser.parse_args()
    problem = ExactCover.from_dlx(PROBLEM.read_text())
    truth = problem.count(method="search")
    print(f"queens14: {truth} solutions by one plain count")
    failures = 0
    for kind in args.kinds:
        rng = random.Random(f"{args.seed}/{kind}")
        points = [rng.randrange(TASKS - 2) for _ in range(args.points)]
        started = time.monotonic()
        totals = KINDS[kind](problem, points)
        seconds = time.monotonic() - started
        wrong = [
            (point, total) for point, total in zip(points, totals, strict=True) if total != truth
        ]
        failures += len(wrong)
        print(
            f"{kind:9s} {len(totals)} points (after {sorted(set(points))} results): "
            f"{len(totals) - len(wrong)} exact, {len(wrong)} wrong {wrong}, {seconds:.0f} s, "
            "no process left"
        )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
