"""The targets of work shared fairly (issue 81 item 4), measured as ratios in one run.

1. ``queens(14).count(workers=2)`` against ``workers=1``: no slower than 1.1x (a short
   count runs alone first: :func:`excover.parallel.workers.solo_first` and the count in
   shares of :mod:`excover.parallel.run`); also with ``symmetry=False,
   method="search"`` (the plain search of a few tenths of a second);
2. ``queens(16).count(workers=2)`` against ``workers=1``: at least 1.8x faster on two
   quiet cores;
3. a one-worker ``excover count --checkpoint`` of the 8x8 square with the twelve
   pentominoes and the 2x2 square (129,168 packings), interrupted by SIGINT at half the
   time of a whole run (half its CPU time, which the load does not stretch as it does
   the wall-clock time): the share of the search's nodes its checkpoint keeps (at least
   half), and the time a run resumed from it takes against a whole run. The line also
   gives the most any checkpoint could keep: a run's first CPU seconds (the
   interpreter, the split, the first save: those of a run given ``--timeout 0``) come
   before any count, and the whole run's half-time includes them, so that a run
   stopped then has walked ``(whole / 2 - start) / (whole - start)`` of the nodes at
   most, short of half by about ``start / 2`` of the time of the nodes (0.48 for
   0.18 s of 4.7 s): the share kept is that less what the stop loses of the task it
   stops, and what cutting a subproblem that runs long costs.

Each run is a fresh process (its interpreter's start and imports left out of the time,
which begins just before the count), the runs of one comparison interleaved round after
round (:func:`_load.interleaved`) and the best of each kept. Every line gives the load
average and the CPU time the run got (``getrusage`` of the process and the workers it
waited for): on a machine shared with other work, a run on two workers can get far less
than two cores, and its wall-clock ratio then says nothing of two quiet cores; the line
then says how many cores the run got. A ratio taken above a load of
:data:`_load.QUIET_LOAD` is withheld unless ``--allow-load`` is given.

Usage: ``python benchmarks/workers_speedup.py [--rounds N] [--allow-load]
[--skip-checkpoint]``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from _load import add_load_flag, interleaved, load_line, ratio_text

#: Runs the count asked for in a fresh process and prints its wall time, CPU time
#: (this process and the workers it waited for) and count as JSON.
RUNNER = """
import json, resource, sys, time
from excover.puzzles.queens import queens
n, workers, extra = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
problem = queens(n)
def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
start, began = cpu(), time.perf_counter()
found = problem.count(workers=workers, **extra)
wall = time.perf_counter() - began
print(json.dumps({"wall": wall, "cpu": cpu() - start, "count": found}))
"""


def queens_run(n: int, workers: int, extra: dict[str, object]) -> dict[str, float]:
    """One count of ``queens(n)`` on ``workers`` in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", RUNNER, str(n), str(workers), json.dumps(extra)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def compare(label: str, n: int, extra: dict[str, object], rounds: int, allow: bool) -> None:
    """The best of ``rounds`` interleaved runs on one and two workers, as a line."""
    runs = [(str(w), partial(queens_run, n, w, extra)) for w in (1, 2)]
    results, load = interleaved(runs, rounds)
    one = min(results["1"], key=lambda run: run["wall"])
    two = min(results["2"], key=lambda run: run["wall"])
    assert one["count"] == two["count"], (one, two)
    cores = two["cpu"] / two["wall"] if two["wall"] > 0 else 0.0
    print(
        f"{label}: 1 worker {one['wall']:.3f} s ({one['cpu']:.3f} s CPU), 2 workers "
        f"{two['wall']:.3f} s ({two['cpu']:.3f} s CPU, {cores:.2f} cores got); "
        f"2 workers / 1 worker = {ratio_text(two['wall'] / one['wall'], load, allow)}, "
        f"speed-up {ratio_text(one['wall'] / two['wall'], load, allow)}; {load_line()}"
    )


def board_problem(path: Path) -> None:
    """The 8x8 square with the twelve pentominoes and the 2x2 square, one each, as a
    DLX file."""
    from excover.tiling import Pattern, Tile, Tiling
    from excover.tiling.catalog import pentominoes

    board = Pattern.from_ascii("\n".join(["********"] * 8))
    tiles = [Tile(shape, multiplicity="one", symmetry="all") for shape in pentominoes().values()]
    tiles.append(Tile(Pattern.from_ascii("**\n**"), multiplicity="one", symmetry="all"))
    Tiling(board, tiles).problem.write(path)


def cli_count(
    dlx: Path, checkpoint: Path, stop_at_cpu: float | None = None, extra: tuple[str, ...] = ()
) -> dict[str, float]:
    """``excover count DLX --method search --checkpoint FILE`` (and ``extra``) on one
    worker (SIGINT once it has used ``stop_at_cpu`` seconds of CPU, if given: on a
    shared machine half a run's CPU time is half its work, where half its wall-clock
    time is not): its wall time, CPU time, exit status and count (0: none printed)."""
    command = [sys.executable, "-m", "excover", "count", str(dlx), "--method", "search"]
    command += ["--checkpoint", str(checkpoint), *extra]
    before = os.times()
    began = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if stop_at_cpu is not None:
        while process.poll() is None and _cpu_of(process.pid) < stop_at_cpu:
            time.sleep(0.01)
        process.send_signal(signal.SIGINT)
    out, _ = process.communicate()
    wall = time.monotonic() - began
    after = os.times()
    cpu = after.children_user + after.children_system
    cpu -= before.children_user + before.children_system
    return {"wall": wall, "cpu": cpu, "status": process.returncode, "count": int(out.strip() or 0)}


def _cpu_of(pid: int) -> float:
    """The CPU seconds process ``pid`` has used so far (Linux's ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def kept_nodes(checkpoint: Path, dlx: Path) -> int:
    """The search nodes of the subproblems finished in ``checkpoint`` (of the problem
    in ``dlx``), each part of the search once; 0 without a checkpoint."""
    from excover import ExactCover
    from excover.parallel.checkpoint import Checkpoint

    state = Checkpoint.load(checkpoint, ExactCover.read(dlx), "search")
    return 0 if state is None else state.nodes


def checkpoint_target(rounds: int, allow: bool) -> None:
    """Target 3 (see the module notes)."""
    with tempfile.TemporaryDirectory() as folder:
        dlx, state = Path(folder) / "board.dlx", Path(folder) / "state.json"
        board_problem(dlx)
        for round_ in range(rounds):
            complete = Path(folder) / "complete.json"
            state.unlink(missing_ok=True)
            complete.unlink(missing_ok=True)
            whole = cli_count(dlx, complete)
            nodes = kept_nodes(complete, dlx)
            start = cli_count(dlx, Path(folder) / "start.json", extra=("--timeout", "0"))
            (Path(folder) / "start.json").unlink(missing_ok=True)
            most = (whole["cpu"] / 2 - start["cpu"]) / max(whole["cpu"] - start["cpu"], 1e-9)
            load = float(os.getloadavg()[0])
            stopped = cli_count(dlx, state, stop_at_cpu=whole["cpu"] / 2)
            kept = kept_nodes(state, dlx)
            resumed = cli_count(dlx, state)
            assert resumed["count"] == whole["count"] == 129168, (whole, resumed)
            share = kept / nodes if nodes else 0.0
            print(
                f"8x8 pentominoes+square, one worker, round {round_ + 1}: whole run "
                f"{whole['wall']:.2f} s ({whole['cpu']:.2f} s CPU, "
                f"{whole['cpu'] / whole['wall']:.2f} cores got); SIGINT at half its CPU time, "
                f"{whole['cpu'] / 2:.2f} s (exit {stopped['status']}), kept "
                f"{ratio_text(share, load, allow)} of the nodes (at most "
                f"{ratio_text(most, load, allow)}: {start['cpu']:.2f} s of CPU before any "
                f"count); the resumed run took "
                f"{ratio_text(resumed['wall'] / whole['wall'], load, allow)} of a whole "
                f"run's time ({resumed['cpu'] / whole['cpu']:.2f} of its CPU time); "
                f"{load_line()}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each comparison")
    parser.add_argument("--skip-checkpoint", action="store_true", help="leave out target 3")
    add_load_flag(parser)
    args = parser.parse_args()
    print(load_line())
    compare("queens(14).count()", 14, {}, args.rounds, args.allow_load)
    plain = {"symmetry": False, "method": "search"}
    compare(
        "queens(14).count(symmetry=False, method='search')", 14, plain, args.rounds, args.allow_load
    )
    compare("queens(16).count()", 16, {}, args.rounds, args.allow_load)
    if not args.skip_checkpoint:
        checkpoint_target(args.rounds, args.allow_load)


if __name__ == "__main__":
    main()
