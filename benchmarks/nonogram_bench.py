"""Benchmark nonogram validation: solve each random puzzle and prove it unique, or find a
second solution.

Generates ``--per-size`` puzzles (default 20) of each square size 10, 15, ..., 40 from
random pictures (:func:`excover.nonogram.generate`, seed ``--seed`` onwards,
density drawn from 50% to 65% black), so 140 puzzles by default. For each it times
:func:`~excover.nonogram.classify` with the default (compiled ``propagate``)
route, checks that a solution found satisfies every clue, and records whether line
solving alone finishes the puzzle. It prints the distribution of times per size (median,
90th percentile, maximum), how many puzzles were unique, multiple and beyond line
solving. Then, for the 0.1 s target, ``--thirty`` more 30x30 puzzles (default 200, seeds
from 10000): their time distribution and how many missed the target. ``--sat N`` also
validates the first N 30x30 puzzles of the first set by the SAT route (CaDiCaL), in the
same process, and prints the ratio of the two times.

Usage: ``python benchmarks/nonogram_bench.py [--per-size N] [--seed S] [--thirty N]
[--sat N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from excover import nonogram

__all__ = ["main"]

SIZES = (10, 15, 20, 25, 30, 35, 40)

#: The target: seconds to validate a random 30x30 puzzle.
TARGET = 0.1


def _timed_classify(puzzle: nonogram.Puzzle, method: str) -> tuple[str, float]:
    started = time.perf_counter()
    status = nonogram.classify(puzzle, method=method)
    return status, time.perf_counter() - started


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=20, help="puzzles per size")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first puzzle")
    parser.add_argument("--thirty", type=int, default=200, help="extra 30x30 puzzles")
    parser.add_argument("--sat", type=int, default=0, help="30x30 puzzles to time by SAT too")
    args = parser.parse_args(argv)
    print(
        f"{'size':>6} {'puzzles':>7} {'unique':>6} {'multi':>5} {'not LS':>6} "
        f"{'median ms':>9} {'p90 ms':>8} {'max ms':>8}"
    )
    seed = args.seed
    all_times: list[float] = []
    sat_pairs: list[tuple[float, float]] = []
    for size in SIZES:
        times: list[float] = []
        statuses: list[str] = []
        hard = 0
        for _ in range(args.per_size):
            rng = random.Random(seed)
            seed += 1
            puzzle = nonogram.generate(size, size, rng.uniform(0.5, 0.65), rng)
            status, seconds = _timed_classify(puzzle, "auto")
            solution = nonogram.solve(puzzle)
            assert solution is not None and puzzle.is_solution(solution), "bad solution"
            assert status in ("unique", "multiple"), "a random picture has a solution"
            times.append(seconds)
            statuses.append(status)
            hard += not nonogram.line_solvable(puzzle)
            if size == 30 and len(sat_pairs) < args.sat:
                sat_status, sat_seconds = _timed_classify(puzzle, "sat")
                assert sat_status == status, "the SAT route disagrees"
                sat_pairs.append((seconds, sat_seconds))
        all_times += times
        print(
            f"{size:>3}x{size:<2} {len(times):>7} {statuses.count('unique'):>6} "
            f"{statuses.count('multiple'):>5} {hard:>6} "
            f"{1000 * statistics.median(times):>9.2f} {1000 * _percentile(times, 0.9):>8.2f} "
            f"{1000 * max(times):>8.2f}"
        )
    print(
        f"all {len(all_times)} puzzles: median {1000 * statistics.median(all_times):.2f} ms, "
        f"max {1000 * max(all_times):.2f} ms, total {sum(all_times):.2f} s"
    )
    thirty = []
    for seed in range(10000, 10000 + args.thirty):
        rng = random.Random(seed)
        puzzle = nonogram.generate(30, 30, rng.uniform(0.5, 0.65), rng)
        thirty.append(_timed_classify(puzzle, "auto")[1])
    if thirty:
        print(
            f"{len(thirty)} more 30x30 puzzles: median {1000 * statistics.median(thirty):.2f} ms, "
            f"p90 {1000 * _percentile(thirty, 0.9):.2f} ms, "
            f"p99 {1000 * _percentile(thirty, 0.99):.1f} ms, max {1000 * max(thirty):.1f} ms; "
            f"over the {TARGET} s target: {sum(seconds > TARGET for seconds in thirty)}"
        )
    if sat_pairs:
        ours = sum(pair[0] for pair in sat_pairs)
        sat = sum(pair[1] for pair in sat_pairs)
        print(
            f"SAT route on {len(sat_pairs)} 30x30 puzzles: {1000 * sat / len(sat_pairs):.1f} ms "
            f"each, {sat / ours:.0f} times the propagate route"
        )


if __name__ == "__main__":
    main()
