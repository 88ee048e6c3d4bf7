"""The flagship cluster run: a count with a published answer on Dask, with a worker
killed and the run interrupted and resumed, checked against OEIS.

The problems (``--problem``): ``queens`` is the n-queens count (OEIS A000170); ``latin``
counts the Latin squares of order n whose first row is 0, 1, ..., n-1 (each Latin square
is one of these with its symbols renamed, so the count times n! is OEIS A002860(n));
``onesided`` tiles a box of n rows and 90 / n columns with the 18 one-sided pentominoes
(pieces turn but do not flip, a piece and its mirror image being two pieces): ``--n 9``
is the 9x10 box of Hadoop's distributed pentomino example, ``--n 3`` the 3x30 box (184
tilings, a check in seconds). No count of the 9x10 box is published that we know of: the
script prints the total without a verdict.

What it does, logging each step with the time since the start:

1. writes the problem as a DLX file and starts a cluster as a user would: ``dask
   scheduler`` and ``dask worker --nworkers W --nthreads 1`` on the loopback interface;
2. runs ``excover count FILE --method search --tasks T --dask ADDRESS --checkpoint LEDGER
   --task-timeout S --stats``;
3. once ``--kill-at`` of the subproblems are counted (by the ledger), kills a worker
   process running a task with SIGKILL (its nanny starts a new one);
4. once ``--interrupt-at`` are counted, interrupts the count with SIGINT (Ctrl-C: it
   saves the ledger and exits with status 130);
5. runs the same command again: it resumes from the ledger and prints the total, which
   must be the published count;
6. stops the cluster, and fails if any of its processes is left.

The CPU time of the run is measured, not assumed: a thread samples every process this
script started (the scheduler, the workers, the processes their nannies start again after
a kill, and both ``excover count`` clients) with psutil every second and keeps each
process's last user + system time; the log gives the sum at each step and at the end (a
killed worker's last second is lost to the sampling, an undercount of at most a second).

A run too long for one sitting goes on later from its ledger: ``--resume`` with the same
``--folder`` skips steps 3 and 4 and runs the command of step 5 (on a new cluster, on
this machine or another one; the ledger names the problem by a digest of its DLX text).

Issue #43's run of at least 2 CPU-hours, the default: ``--problem latin --n 7`` is about
2.8 CPU-hours by ``excover estimate`` (1.01e+04 s); ``--problem queens --n 19`` about 1.3
(4.69e+03 s), ``--n 20`` about 8 times that; ``--problem queens --n 14`` to ``16`` or
``--problem latin --n 6`` show it working in seconds. Its ledger between sessions:
``benchmarks/data/flagship`` (docs/performance.md, "The flagship run"). Usage: ``python
benchmarks/cluster_flagship.py [--problem queens|latin|onesided] [--n N] [--workers W] [--tasks T]
[--kill-at F] [--interrupt-at F] [--task-timeout S] [--checkpoint-every S] [--folder DIR]
[--resume] [--no-faults] [--break-symmetry]``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _problems import latin_first_row
from distributed import Client
from faults import ProcessCluster, kill_worker

from excover import ExactCover
from excover.parallel.checkpoint import Checkpoint
from excover.puzzles.queens import queens
from excover.tiling.catalog import polyominoes, tiles
from excover.tiling.pattern import Pattern
from excover.tiling.tiling import Tiling

#: OEIS A000170: the number of ways to place n non-attacking queens on an n x n board.
A000170 = {
    1: 1,
    2: 0,
    3: 0,
    4: 2,
    5: 10,
    6: 4,
    7: 40,
    8: 92,
    9: 352,
    10: 724,
    11: 2680,
    12: 14200,
    13: 73712,
    14: 365596,
    15: 2279184,
    16: 14772512,
    17: 95815104,
    18: 666090624,
    19: 4968057848,
    20: 39029188884,
    21: 314666222712,
    22: 2691008701644,
    23: 24233937684440,
}

#: OEIS A002860: the number of Latin squares of order n.
A002860 = {
    1: 1,
    2: 2,
    3: 12,
    4: 576,
    5: 161280,
    6: 812851200,
    7: 61479419904000,
    8: 108776032459082956800,
}

STARTED = time.monotonic()


def published(problem: str, n: int) -> tuple[int | None, str]:
    """The published count of the problem and where it is published (None: unknown)."""
    if problem == "onesided":
        return None, "no published count"
    if problem == "queens":
        return A000170[n], f"OEIS A000170({n})"
    return A002860[n] // math.factorial(n), f"OEIS A002860({n}) / {n}!"


def onesided_box(rows: int) -> ExactCover:
    """The 18 one-sided pentominoes in a box of ``rows`` x ``90 / rows`` cells."""
    if rows <= 0 or 90 % rows:
        sys.exit(f"--problem onesided: --n must divide 90, not {rows}")
    board = Pattern.constant(rows, 90 // rows, True)
    pieces = tiles(polyominoes(5, "rotations"), symmetry="rotations")
    return Tiling(board, pieces).problem


def log(message: str) -> None:
    print(f"[{time.monotonic() - STARTED:8.1f} s] {message}", flush=True)


class CpuMeter:
    """The CPU seconds (user + system) used so far by every descendant of this process,
    dead ones included (each process's last sample is kept, by pid and start time)."""

    def __init__(self, every: float = 1.0) -> None:
        self.every = every
        self.seen: dict[tuple[int, float], float] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        """Read the CPU time of every living descendant."""
        for process in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                key = (process.pid, process.create_time())
                with self.lock:
                    self.seen[key] = times.user + times.system

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            self.sample()

    def seconds(self) -> float:
        """CPU seconds used so far."""
        self.sample()
        with self.lock:
            return sum(self.seen.values())

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


def default_sigint() -> None:
    """In the child, before it runs the count: SIGINT back to its default. A script
    started in the background by a shell without job control (``nohup ... &`` in a
    script) inherits SIGINT ignored, and so would the count: the interrupt of step 4
    would then do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def counted(path: Path, problem_path: Path) -> tuple[int, int]:
    """Subproblems counted and to count in the ledger at ``path`` (0, 0 before it is
    written)."""
    if not path.exists():
        return 0, 0
    state = Checkpoint.load(path, ExactCover.read(problem_path), "search")
    if state is None:
        return 0, 0
    return len(state.done), len(state.open_leaves())


def wait_for(
    path: Path,
    problem_path: Path,
    fraction: float,
    run: subprocess.Popen[str],
    meter: CpuMeter,
) -> None:
    """Wait until ``fraction`` of the subproblems are counted (or the run ended)."""
    while run.poll() is None:
        done, left = counted(path, problem_path)
        if done and done >= fraction * (done + left):
            cpu = meter.seconds()
            log(f"{done} subproblems counted, {left} to go; {cpu:.0f} CPU seconds so far")
            return
        time.sleep(1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", choices=("queens", "latin", "onesided"), default="latin")
    parser.add_argument("--n", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", type=int, default=400)
    parser.add_argument("--kill-at", type=float, default=0.2)
    parser.add_argument("--interrupt-at", type=float, default=0.5)
    parser.add_argument("--task-timeout", type=float, default=None)
    parser.add_argument("--checkpoint-every", type=float, default=30.0)
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument(
        "--resume", action="store_true", help="go on from the folder's ledger, no faults"
    )
    parser.add_argument(
        "--no-faults", action="store_true", help="skip steps 3 and 4: count straight through"
    )
    parser.add_argument(
        "--break-symmetry",
        action="store_true",
        help="count by a symmetry-broken search (excover count --break-symmetry)",
    )
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="excover-flagship-"))
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{args.problem}{args.n}"
    problem = folder / f"{name}.dlx"
    ledger = folder / f"{name}-ledger.json"
    if args.resume and not ledger.exists():
        sys.exit(f"--resume: no ledger {ledger}")
    builders = {"queens": queens, "latin": latin_first_row, "onesided": onesided_box}
    builders[args.problem](args.n).write(problem)
    expected, source = published(args.problem, args.n)
    cluster = ProcessCluster(args.workers)
    meter = CpuMeter()
    wall = time.monotonic()
    try:
        cluster.start_scheduler()
        cluster.start_workers()
        client = Client(cluster.address, timeout=30)  # type: ignore[no-untyped-call]
        client.wait_for_workers(args.workers, timeout=120)
        log(f"cluster up: scheduler {cluster.address}, {args.workers} one-thread workers")
        command = [
            sys.executable,
            "-m",
            "excover",
            "count",
            str(problem),
            "--method",
            "search",
            "--tasks",
            str(args.tasks),
            "--dask",
            cluster.address,
            "--checkpoint",
            str(ledger),
            "--checkpoint-every",
            str(args.checkpoint_every),
            "--stats",
        ]
        if args.task_timeout is not None:
            command += ["--task-timeout", str(args.task_timeout)]
        if args.break_symmetry:
            command.append("--break-symmetry")
        if args.resume:
            log(f"resuming from {ledger}: {counted(ledger, problem)[0]} subproblems counted")
        elif not args.no_faults:
            interrupted_run(command, ledger, problem, args, client, meter)
        log("$ " + " ".join(command[2:]) + ("" if args.no_faults else "   (again: resumes)"))
        second = subprocess.run(command, capture_output=True, text=True, preexec_fn=default_sigint)
        for line in (second.stdout + second.stderr).splitlines():
            log(f"  | {line}")
        if second.returncode != 0:
            log(f"count stopped, exit status {second.returncode}: go on later with --resume")
            sys.exit(second.returncode)
        total = int(second.stdout.split()[0])
        if expected is None:
            log(f"total {total} ({source})")
        else:
            verdict = "equal to" if total == expected else "DIFFERENT FROM"
            log(f"total {total}, {verdict} {source} = {expected}")
        client.close()  # type: ignore[no-untyped-call]
        cpu = meter.seconds()
        log(
            f"CPU time of the cluster and clients: {cpu:.0f} s = {cpu / 3600:.2f} CPU-hours; "
            f"wall time {time.monotonic() - wall:.0f} s"
        )
    finally:
        meter.close()
        cluster.close()
    log("cluster stopped, no process left")
    if expected is not None and total != expected:
        sys.exit(1)


def interrupted_run(
    command: list[str],
    ledger: Path,
    problem: Path,
    args: argparse.Namespace,
    client: Client,
    meter: CpuMeter,
) -> None:
    """Steps 2 to 4: the count, a worker killed with SIGKILL at ``args.kill_at`` of the
    subproblems, the count interrupted with SIGINT at ``args.interrupt_at``."""
    log("$ " + " ".join(command[2:]))
    first = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    wait_for(ledger, problem, args.kill_at, first, meter)
    killed = None
    while killed is None and first.poll() is None:
        killed = kill_worker(client)
        time.sleep(0.2)
    if killed is not None:
        log(f"worker process {killed} killed with SIGKILL in the middle of a task")
    wait_for(ledger, problem, args.interrupt_at, first, meter)
    ended = first.poll() is not None
    first.send_signal(signal.SIGINT)
    out, err = first.communicate()
    what = "count ended before the interrupt" if ended else "count interrupted (SIGINT)"
    log(f"{what}: exit status {first.returncode}; {meter.seconds():.0f} CPU seconds so far")
    for line in (out + err).splitlines():
        log(f"  | {line}")


if __name__ == "__main__":
    main()
