"""Three runs of one checkpoint at once (issue 61): nothing lost, nothing damaged.

Three ``excover count FILE --checkpoint race.json --checkpoint-every 0.01`` commands start
together on one checkpoint, as the issue's reproduction did, while a reader process loads
the file (:meth:`Checkpoint.load`, which checks its checksum and its subproblems) until
it has read it ``--reads`` times (default 100). With one temporary name for every save,
two of three runs failed (``cannot write checkpoint``) and 12 of 107 reads found the
file damaged. The target: each run prints the exact count (a count without checkpoint)
or says the checkpoint is in use; 0 damaged reads; the file loads afterwards.

A second part saves without the lock: three processes save the checkpoint 400 times
each, as unlocked runs would (or runs where there is no lock, Windows), while the reader
reads it; every save being written whole, the reads must all find a whole checkpoint.

Usage: ``python benchmarks/checkpoint_sharing.py [--problem FILE] [--tasks N] [--reads N]``
(default: Knuth's 11 queens, 60 subproblems).
"""

from __future__ import annotations

import argparse
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from excover import ExactCover
from excover.errors import UsageError
from excover.parallel.checkpoint import Checkpoint, fingerprint
from excover.parallel.subproblems import split

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = ROOT / "tests" / "data" / "knuth" / "queens11.dlx"


def read_over_and_over(path: str, problem: str, reads: int, out: Any) -> None:
    """Load ``path`` until it was found ``reads`` times; send (reads, damaged reasons)."""
    exact_cover = ExactCover.read(problem)
    bad: list[str] = []
    done = 0
    end = time.monotonic() + 300
    while done < reads and time.monotonic() < end:
        try:
            found = Checkpoint.load(Path(path), exact_cover, "search")
        except UsageError as exc:
            bad.append(str(exc)[:100])
            done += 1
        else:
            done += found is not None
        time.sleep(0.005)
    out.send((done, bad))


def save_over_and_over(path: str, problem: str, saves: int, seed: int) -> None:
    """Save a checkpoint of ``problem`` ``saves`` times, without the lock."""
    exact_cover = ExactCover.read(problem)
    state = Checkpoint(Path(path), fingerprint(exact_cover), "search", split(exact_cover, tasks=30))
    for k in range(saves):
        state.done[(k + seed) % len(state.subproblems)] = (k, k)
        state.save()


def start_reader(path: Path, problem: Path, reads: int) -> tuple[Any, Any]:
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe(duplex=False)
    reader = context.Process(
        target=read_over_and_over, args=(str(path), str(problem), reads, there)
    )
    reader.start()
    return reader, here


def three_runs(folder: Path, problem: Path, tasks: int, reads: int) -> None:
    expected = ExactCover.read(problem).count()
    state = folder / "race.json"
    command = [
        sys.executable,
        "-m",
        "excover",
        "count",
        str(problem),
        "--method",
        "search",
        "--tasks",
        str(tasks),
        "--checkpoint",
        str(state),
        "--checkpoint-every",
        "0.01",
    ]
    reader, results = start_reader(state, problem, reads)
    started = time.monotonic()
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    print(f"three runs of {problem.name}, --tasks {tasks}; the exact count is {expected}")
    for k, run in enumerate(runs):
        out, err = run.communicate()
        seconds = time.monotonic() - started
        in_use = "in use by process" in err
        right = out.strip() == str(expected)
        print(
            f"  run {k + 1}: exit {run.returncode}, printed {out.strip() or '-'} "
            f"({'exact' if right else 'WRONG'}), {'said in use, waited' if in_use else 'first'}, "
            f"ended at {seconds:.1f} s"
        )
    done, bad = results.recv()
    reader.join()
    print(f"  reads: {done}, damaged: {len(bad)}")
    for reason in bad[:5]:
        print(f"    {reason}")
    saved = Checkpoint.load(state, ExactCover.read(problem), "search")
    loads = saved is not None and saved.complete and saved.count == expected
    print(f"  the file loads afterwards, complete and exact: {loads}")
    left = sorted(path.name for path in folder.iterdir() if path != state)
    print(f"  other files left beside it: {left or 'none'}")


def unlocked_saves(folder: Path, reads: int) -> None:
    state = folder / "unlocked.json"
    problem = ROOT / "tests" / "data" / "knuth" / "queens8.dlx"
    context = multiprocessing.get_context("fork")
    writers = [
        context.Process(target=save_over_and_over, args=(str(state), str(problem), 400, seed))
        for seed in range(3)
    ]
    for writer in writers:
        writer.start()
    reader, results = start_reader(state, problem, reads)
    done, bad = results.recv()
    reader.join()
    for writer in writers:
        writer.join()
    codes = [writer.exitcode for writer in writers]
    print(f"three unlocked writers, 400 saves each: exit codes {codes}")
    print(f"  reads: {done}, damaged: {len(bad)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", type=Path, default=PROBLEM)
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--reads", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        three_runs(Path(folder), args.problem, args.tasks, args.reads)
        unlocked_saves(Path(folder), args.reads)


if __name__ == "__main__":
    main()
