"""Hard black-and-white nonograms: the survey puzzles and large random ones.

For each puzzle of ``benchmarks/data/nonogram_survey`` (Wolter's survey, the freely
redistributable part), then random puzzles of 60x60 and 100x100 (density 0.5, seeds from
``--seed``), times :func:`~excover.puzzles.nonogram.classify` (solve, and prove the
solution unique or find a second) under ``--timeout`` seconds, and prints the status, the
time and the rating's level when asked (``--rate``). ``--random N`` times N random 30x30
puzzles and prints the median and the slowest, by the wall clock and by CPU time (one
core's work, whatever the load), and the puzzles over 1 s (the target: none).

``--also FILE ...`` adds puzzles that are not shipped (the survey puzzles of gramcracker's
set fetched by ``nonogram_pbnsolve.py --fetch``: Gettys, Sierp, Thing, ...). Times are
given by the wall clock and in CPU seconds (this process and its Kissat children).

Usage: ``python benchmarks/nonogram_hard.py [--timeout S] [--rate] [--large N]
[--random N] [--only NAME ...] [--also FILE ...]``.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from collections.abc import Sequence
from pathlib import Path

from excover.errors import LimitReached
from excover.puzzles import nonogram

__all__ = ["main", "read_nin"]

SURVEY = Path(__file__).parent / "data" / "nonogram_survey"


def read_nin(path: Path) -> nonogram.Puzzle:
    """A ``.nin`` file: ``WIDTH HEIGHT``, the row clues, the column clues (0: empty)."""
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    width, height = int(lines[0][0]), int(lines[0][1])
    clues = [[int(x) for x in line if x != "0"] for line in lines[1:]]
    if len(clues) != width + height:
        raise ValueError(f"{path}: {len(clues)} clues for {height} rows and {width} columns")
    return nonogram.Puzzle.from_clues(clues[:height], clues[height:])


def _timed(name: str, puzzle: nonogram.Puzzle, timeout: float, rate: bool) -> float:
    started, cpu = time.perf_counter(), _cpu_seconds()
    status: str
    try:
        status = nonogram.classify(puzzle, timeout=timeout)
    except LimitReached:
        status = "timeout"
    seconds = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu
    rating = ""
    if rate and status != "timeout":
        try:
            rating = str(nonogram.rate(puzzle, timeout=timeout))
        except LimitReached:
            rating = "(rating timed out)"
    print(
        f"{name:14} {puzzle.height:>3}x{puzzle.width:<3} {status:9} {seconds:9.3f} s "
        f"(cpu {cpu:8.3f} s)  {rating}",
        flush=True,
    )
    return seconds


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print one line per puzzle."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per puzzle")
    parser.add_argument("--rate", action="store_true", help="also print each rating")
    parser.add_argument("--large", type=int, default=2, help="random puzzles per large size")
    parser.add_argument("--random", type=int, default=0, help="random 30x30 puzzles to time")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first random puzzle")
    parser.add_argument("--only", nargs="*", help="names of the survey puzzles to run")
    parser.add_argument(
        "--also", nargs="*", default=[], type=Path, help="more puzzle files (any format read)"
    )
    args = parser.parse_args(argv)
    for path in sorted(SURVEY.glob("*.nin")):
        if args.only is None or path.stem in args.only:
            _timed(path.stem, read_nin(path), args.timeout, args.rate)
    for path in args.also:
        _timed(path.stem, nonogram.read(path), args.timeout, args.rate)
    for size in (60, 100):
        for k in range(args.large):
            seed = args.seed + k
            puzzle = nonogram.generate(size, size, 0.5, random.Random(seed))
            _timed(f"random{size}-{seed}", puzzle, args.timeout, args.rate)
    if args.random:
        _random_30(args.seed, args.random)


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (Kissat runs in a child):
    the time on one core, whatever else the machine is doing."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _random_30(first_seed: int, count: int) -> None:
    """Classify ``count`` random 30x30 puzzles; print the median and the slowest, by the
    wall clock and by CPU time, and every puzzle over 1 s."""
    walls, cpus = [], []
    for seed in range(first_seed, first_seed + count):
        puzzle = nonogram.generate(30, 30, 0.5, random.Random(seed))
        started, cpu = time.perf_counter(), _cpu_seconds()
        nonogram.classify(puzzle)
        walls.append((time.perf_counter() - started, seed))
        cpus.append((_cpu_seconds() - cpu, seed))
    for name, times in (("wall", walls), ("cpu", cpus)):
        times.sort()
        over = [(seed, round(seconds, 2)) for seconds, seed in times if seconds > 1.0]
        print(
            f"{count} random 30x30 ({name}): median {times[len(times) // 2][0] * 1e3:.2f} ms, "
            f"slowest {times[-1][0]:.3f} s (seed {times[-1][1]}), over 1 s: {len(over)} {over}"
        )


if __name__ == "__main__":
    main()
