"""Benchmark parallel counting and Knuth's estimates.

Speed-up: for each case, the count by one plain run of the method, then by
``count(workers=1)`` (the same subproblems one after the other in this process) and by
``count(workers=N)`` (a process pool of N, its start-up included), all in this process
one after the other, so the ratios compare runs under the same load. The last two
columns come from CPU times, which other work on the machine hardly changes: the CPU
cost of counting by subproblems (split included) against the plain count, and the
speed-up that N idle cores would give (the split, then the subproblems' measured CPU
times scheduled biggest first, as the pool does; its start-up left out). Cases: Knuth's
``pento6x10.dlx`` and ``queens14.dlx`` by dancing links, and the domino tilings of
combine's ring ``dominos_c4_22x22``, its large camel and the Euler shape by
``method="zdd"``, which runs the frontier count over DXZ's states on N threads (no
subproblems: those columns show "-").

Estimates: for each of Knuth's files in its MANIFEST.md, ``--runs`` estimates (seeds 0,
1, ...) with ``--samples`` probes (the library's default unless given), against the
manifest's solutions and DLX1's node counts: how many land within a factor 2 and how
many of their ranges hold the truth, the worst ratio, and the time of one estimate.

Usage: ``python benchmarks/parallel_bench.py [--workers N] [--cases NAME ...]
[--samples N] [--runs N] [--no-speedup] [--no-estimate]``.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import NamedTuple

from _data import COMBINE_DATA, KNUTH_DATA

from excover import ExactCover
from excover.engines import pick_engine
from excover.parallel import split
from excover.parallel.run import default_tasks, run_tasks
from excover.puzzles.queens import queens
from excover.zdd import frontier

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
SHARED = COMBINE_DATA
KNUTH_DIRS = [KNUTH_DATA]


def knuth_file(name: str) -> Path | None:
    """The first of Knuth's directories holding ``name``.dlx, if any."""
    for directory in KNUTH_DIRS:
        if (directory / f"{name}.dlx").exists():
            return directory / f"{name}.dlx"
    return None


def shape_dominoes(path: Path) -> ExactCover:
    """Domino tilings of a shape drawn with ``*`` cells (one item per cell, reading order;
    one option per pair of neighbouring cells)."""
    rows = [line for line in path.read_text().splitlines() if line.strip()]
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"]
    present = set(cells)
    problem = ExactCover(primary=[f"{r}_{c}" for r, c in cells])
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr, c + dc) in present:
                problem.add_option([f"{r}_{c}", f"{r + dr}_{c + dc}"])
    return problem


def pento6x10() -> ExactCover:
    path = knuth_file("pento6x10")
    if path is None:
        raise SystemExit("pento6x10.dlx not found in " + ", ".join(map(str, KNUTH_DIRS)))
    return ExactCover.read(path)


def queens14() -> ExactCover:
    path = knuth_file("queens14")
    return queens(14) if path is None else ExactCover.read(path)


def queens15() -> ExactCover:
    return queens(15)


def dominoes() -> ExactCover:
    return shape_dominoes(SHARED / "dominos_c4_22x22.txt")


def caml_large() -> ExactCover:
    return shape_dominoes(SHARED / "caml_large.txt")


def euler() -> ExactCover:
    return shape_dominoes(SHARED / "euler_30x27.txt")


#: The cases of the speed-up table: name, problem builder, method. The domino counts by
#: ``method="zdd"`` run the frontier count on threads (:mod:`excover.zdd.frontier`).
CASES: dict[str, tuple[Callable[[], ExactCover], str]] = {
    "pento6x10": (pento6x10, "search"),
    "queens14": (queens14, "search"),
    "queens15": (queens15, "search"),
    "dominos_c4_22x22": (dominoes, "zdd"),
    "caml_large": (caml_large, "zdd"),
    "euler_30x27": (euler, "zdd"),
}


def timed(call: Callable[[], int]) -> tuple[int, float]:
    """The result of ``call()`` and the wall-clock seconds it took."""
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def cpu(call: Callable[[], int]) -> tuple[int, float]:
    """The result of ``call()`` and the CPU seconds this process spent on it (less
    sensitive than wall-clock time to other work on the machine)."""
    started = time.process_time()
    result = call()
    return result, time.process_time() - started


class Projection(NamedTuple):
    """The subproblems of a count run one after the other in this process, timed in CPU
    seconds: the number of solutions, the CPU of the split and of each subproblem."""

    total: int
    split_cpu: float
    sizes: list[float]
    task_cpu: list[float]

    def makespan(self, workers: int) -> float:
        """CPU seconds until the last of ``workers`` idle cores is done, each taking the
        next subproblem, biggest estimated first, as the process pool does."""
        loads = [0.0] * workers
        for index in sorted(range(len(self.sizes)), key=lambda k: -self.sizes[k]):
            loads[loads.index(min(loads))] += self.task_cpu[index]
        return self.split_cpu + max(loads)


def project(problem: ExactCover, method: str, tasks: int) -> Projection:
    started = time.process_time()
    subproblems = split(problem, tasks=tasks)
    split_cpu = time.process_time() - started
    task_cpu = [0.0] * len(subproblems)
    count = 0
    for done in run_tasks(problem, subproblems, method):
        if done is not None:
            task_cpu[done[0]] = done[1].seconds
            count += done[1].total
    return Projection(count, split_cpu, [sub.size for sub in subproblems], task_cpu)


def best_times(calls: list[Callable[[], int]], repeat: int) -> list[tuple[int, float]]:
    """Each call's result and its best wall-clock time over ``repeat`` rounds, the calls
    interleaved (a, b, c, a, b, c, ...) so that noise on the machine hits them alike."""
    best = [(0, float("inf"))] * len(calls)
    for _ in range(repeat):
        for index, call in enumerate(calls):
            result, seconds = timed(call)
            best[index] = (result, min(best[index][1], seconds))
    return best


def route(problem: ExactCover, method: str) -> str:
    """How ``count(workers=N)`` runs: shares of one search on the bit-parallel engine, or
    subproblems (see :mod:`excover.parallel.run`)."""
    return "shares" if method == "search" and pick_engine(problem) == "bits" else "subproblems"


def speedup(names: list[str], workers: int, repeat: int) -> None:
    """The speed-up table. Wall-clock times (best of ``repeat``, interleaved) of the plain
    count, of ``count(workers=1)`` (the subproblems one after the other in this process)
    and of ``count(workers=N)`` (shares of one search on the bit-parallel engine where it
    suits, else the subproblems on a pool: the "route"); then, from CPU times (which other
    work on the machine hardly changes), the cost of counting by subproblems against the
    plain count, and the speed-up N idle cores would give to the subproblems (the split,
    then their CPU times scheduled biggest first; the pool's start-up left out)."""
    print(
        f"| case | method | count | route | subproblems | plain | workers=1 | workers={workers} "
        f"| speed-up | CPU of subproblems / plain | subproblems on {workers} idle cores |"
    )
    print("|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|")
    for name in names:
        build, method = CASES[name]
        problem = build()
        if method == "zdd" and frontier.suits(problem):
            threaded(name, problem, workers, repeat)
            continue
        tasks = default_tasks(method, workers, None)
        plain, plain_cpu = cpu(partial(problem.count, method=method))
        projection = project(problem, method, tasks)
        (_, plain_seconds), (one, one_seconds), (many, many_seconds) = best_times(
            [
                partial(problem.count, method=method),
                partial(problem.count, method=method, workers=1, tasks=tasks),
                partial(problem.count, method=method, workers=workers),
            ],
            repeat,
        )
        if not plain == projection.total == one == many:
            raise SystemExit(f"{name}: counts differ: {plain}, {one}, {many}")
        overhead = projection.makespan(1) / plain_cpu
        ideal = plain_cpu / projection.makespan(workers)
        print(
            f"| {name} | {method} | {plain:,} | {route(problem, method)} "
            f"| {len(projection.sizes)} | {plain_seconds:.2f} s "
            f"| {one_seconds:.2f} s | {many_seconds:.2f} s | {plain_seconds / many_seconds:.2f}x "
            f"| {overhead:.2f} | {ideal:.2f}x |",
            flush=True,
        )


def threaded(name: str, problem: ExactCover, workers: int, repeat: int) -> None:
    """A row of the speed-up table for a count by the frontier count on threads: the
    plain count is the same count on one thread, and there are no subproblems."""
    (plain, plain_seconds), (one, one_seconds), (many, many_seconds) = best_times(
        [
            partial(problem.count, method="zdd"),
            partial(problem.count, method="zdd", workers=1),
            partial(problem.count, method="zdd", workers=workers),
        ],
        repeat,
    )
    if not plain == one == many:
        raise SystemExit(f"{name}: counts differ: {plain}, {one}, {many}")
    print(
        f"| {name} | zdd | {plain:,} | threads | - | {plain_seconds:.2f} s "
        f"| {one_seconds:.2f} s | {many_seconds:.2f} s | {plain_seconds / many_seconds:.2f}x "
        "| - | - |",
        flush=True,
    )


def manifest_figures() -> dict[str, tuple[int, int | None]]:
    """The solutions and DLX1's node count (None where the manifest has none) of each of
    Knuth's files, from the MANIFEST.md tables."""
    figures: dict[str, tuple[int, int | None]] = {}
    for directory in KNUTH_DIRS[:2]:
        manifest = directory / "MANIFEST.md"
        if not manifest.exists():
            continue
        for line in manifest.read_text().splitlines():
            match = re.match(r"\| (\S+)\.dlx[^|]*\| ([\d,]+) \| ([\d,]+)?", line)
            if match and (directory / f"{match[1]}.dlx").exists():
                nodes = None if match[3] is None else int(match[3].replace(",", ""))
                figures.setdefault(match[1], (int(match[2].replace(",", "")), nodes))
    return figures


def estimates(samples: int | None, runs: int) -> None:
    """The estimator's goal, checked on every file of the manifest: over ``runs`` seeds,
    how many estimates of the solutions and of the nodes fall within a factor 2 of the
    truth, and how many of the reported ranges hold it (goal: 9 runs out of 10)."""
    print(
        f"\n| file | solutions | nodes | within 2x: solutions | nodes | range holds: "
        f"solutions | nodes | worst ratio | time per estimate |  ({runs} seeds)"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name, (solutions, nodes) in sorted(manifest_figures().items()):
        path = knuth_file(name)
        assert path is not None
        problem = ExactCover.read(path)
        near = {"solutions": 0, "nodes": 0}
        held = {"solutions": 0, "nodes": 0}
        worst = 1.0
        started = time.perf_counter()
        for seed in range(runs):
            guess = problem.estimate(samples, seed=seed, timed=False)
            for what, truth in (("solutions", solutions), ("nodes", nodes)):
                if truth is None:
                    continue
                ratio = getattr(guess, what) / truth
                near[what] += 0.5 <= ratio <= 2
                low, high = guess.interval(what)
                held[what] += low <= truth <= high
                worst = max(worst, ratio, 1 / ratio if ratio else float("inf"))
        seconds = (time.perf_counter() - started) / runs
        cells = [f"{near['solutions']}/{runs}"]
        cells.append("-" if nodes is None else f"{near['nodes']}/{runs}")
        cells.append(f"{held['solutions']}/{runs}")
        cells.append("-" if nodes is None else f"{held['nodes']}/{runs}")
        print(
            f"| {name} | {solutions:,} | {'-' if nodes is None else f'{nodes:,}'} | "
            f"{' | '.join(cells)} | {worst:.2f} | {seconds:.2f} s |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--cases", nargs="+", choices=list(CASES), default=list(CASES), help="speed-up cases"
    )
    parser.add_argument(
        "--samples", type=int, default=None, help="probes per estimate (default: the library's)"
    )
    parser.add_argument("--runs", type=int, default=10, help="seeds per estimated file")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings of the speed-up table: best of N (3)"
    )
    parser.add_argument("--no-speedup", action="store_true", help="skip the speed-up table")
    parser.add_argument("--no-estimate", action="store_true", help="skip the estimates")
    args = parser.parse_args()
    if not args.no_speedup:
        speedup(args.cases, args.workers, args.repeat)
    if not args.no_estimate:
        estimates(args.samples, args.runs)


if __name__ == "__main__":
    main()
