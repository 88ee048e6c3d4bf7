"""Hard black-and-white nonograms: the survey puzzles and large random ones.

For each puzzle of ``benchmarks/data/nonogram_survey`` (Wolter's survey, the freely
redistributable part), then random puzzles of 60x60 and 100x100 (density 0.5, seeds from
``--seed``), times :func:`~excover.nonogram.classify` (solve, and prove the
solution unique or find a second) under ``--timeout`` seconds, and prints the status, the
time and the rating's level when asked (``--rate``). ``--random N`` times N random 30x30
puzzles and prints the median and the slowest, by the wall clock and by CPU time (one
core's work, whatever the load), and the puzzles over 1 s (the target: none).

``--also FILE ...`` adds puzzles that are not shipped (the survey puzzles of gramcracker's
set fetched by ``nonogram_pbnsolve.py --fetch``: Gettys, Sierp, Thing, ...). Times are
given by the wall clock and in CPU seconds (this process and its Kissat children).

``--nonosolve`` runs nonosolve (FastNonogramSolver, built from its public source into
``~/.cache/excover-bench/nonosolve/bin/nonosolve``, see ``nonogram_tournament.py``; or
``--nonosolve PATH``) on the same puzzles, one after the other: each puzzle as a
``.nin`` file (``nonosolve -q --timeout S``, two solutions sought, its answer and CPU
seconds beside excover's, ``DISAGREE`` when the answers differ), and the ``--random``
puzzles as one file in its batch mode (``--taai FILE -n 2 --log LOG``, each puzzle's
seconds from its log), summed up the same way.

Usage: ``python benchmarks/nonogram_hard.py [--timeout S] [--rate] [--large N]
[--random N] [--only NAME ...] [--also FILE ...] [--nonosolve [PATH]]``.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from excover import nonogram
from excover.errors import LimitReached

__all__ = ["main", "read_nin"]

SURVEY = Path(__file__).parent / "data" / "nonogram_survey"
DEFAULT_NONOSOLVE = Path.home() / ".cache/excover-bench/nonosolve/bin/nonosolve"
#: nonosolve's words for its answers, and excover's.
ANSWERS = {"UNIQUE": "unique", "MULTIPLE": "multiple", "NONE": "none", "TIMEOUT": "timeout"}


def read_nin(path: Path) -> nonogram.Puzzle:
    """A ``.nin`` file: ``WIDTH HEIGHT``, the row clues, the column clues (0: empty)."""
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    width, height = int(lines[0][0]), int(lines[0][1])
    clues = [[int(x) for x in line if x != "0"] for line in lines[1:]]
    if len(clues) != width + height:
        raise ValueError(f"{path}: {len(clues)} clues for {height} rows and {width} columns")
    return nonogram.Puzzle.from_clues(clues[:height], clues[height:])


def _timed(
    name: str, puzzle: nonogram.Puzzle, timeout: float, rate: bool, nonosolve: Path | None
) -> float:
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
    beside = ""
    if nonosolve is not None:
        answer, theirs = _nonosolve_one(nonosolve, puzzle, timeout)
        agree = "" if answer == status or "timeout" in (answer, status) else "  DISAGREE"
        beside = f"  nonosolve {answer:9} cpu {theirs:8.3f} s{agree}"
    print(
        f"{name:14} {puzzle.height:>3}x{puzzle.width:<3} {status:9} {seconds:9.3f} s "
        f"(cpu {cpu:8.3f} s){beside}  {rating}",
        flush=True,
    )
    return seconds


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _nonosolve_one(binary: Path, puzzle: nonogram.Puzzle, timeout: float) -> tuple[str, float]:
    """nonosolve's answer on ``puzzle`` (unique, multiple, none, timeout) and its CPU
    seconds, the puzzle given as a ``.nin`` file."""
    with tempfile.TemporaryDirectory(prefix="excover-nonosolve-") as folder:
        path = Path(folder) / "puzzle.nin"
        path.write_text(nonogram.dumps(puzzle, "nin"))
        before = _children_cpu()
        command = [str(binary), "-q", "--timeout", f"{timeout:g}", str(path)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout + 60)
        except subprocess.TimeoutExpired:
            return "timeout", _children_cpu() - before
        words = done.stdout.split()
        answer = ANSWERS.get(words[2], words[2]) if len(words) > 2 else f"exit {done.returncode}"
        return answer, _children_cpu() - before


def _random_30_nonosolve(binary: Path, first_seed: int, count: int, ours: dict[int, str]) -> None:
    """The same random 30x30 puzzles in nonosolve's batch mode, two solutions sought:
    the median and the slowest by its log, the puzzles over 1 s, the answers that differ
    from excover's (``ours``, by seed)."""
    puzzles = [
        nonogram.generate(30, 30, 0.5, random.Random(seed))
        for seed in range(first_seed, first_seed + count)
    ]
    with tempfile.TemporaryDirectory(prefix="excover-nonosolve-") as folder:
        work = Path(folder)
        (work / "puzzles.tcga").write_text(nonogram.dumps_all(puzzles, "tcga"))
        before = _children_cpu()
        command = [str(binary), "--taai", "puzzles.tcga", "-n", "2", "-o", "sol.txt"]
        subprocess.run([*command, "--log", "log.txt"], cwd=work, capture_output=True, check=True)
        cpu = _children_cpu() - before
        times: list[tuple[float, int]] = []
        differ = []
        for line in (work / "log.txt").read_text().splitlines():
            if not line.startswith("#"):
                continue
            rank, seconds, answer = line[1:].split("\t")[:3]
            seed = first_seed + int(rank) - 1
            times.append((float(seconds), seed))
            if ANSWERS.get(answer, answer) != ours[seed]:
                differ.append((seed, answer, ours[seed]))
    times.sort()
    over = [(seed, round(seconds, 2)) for seconds, seed in times if seconds > 1.0]
    print(
        f"{count} random 30x30 (nonosolve, its log): median "
        f"{statistics.median(t for t, _ in times) * 1e3:.2f} ms, slowest {times[-1][0]:.3f} s "
        f"(seed {times[-1][1]}), over 1 s: {len(over)} {over}; {len(times)} answered, "
        f"{cpu:.1f} s of CPU in all; answers that differ from excover's: {differ or 'none'}"
    )


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
    parser.add_argument(
        "--nonosolve",
        nargs="?",
        const=DEFAULT_NONOSOLVE,
        type=Path,
        help="also run nonosolve (this binary, or the one built into ~/.cache/excover-bench)",
    )
    args = parser.parse_args(argv)
    if args.nonosolve is not None and not args.nonosolve.exists():
        parser.error(f"no nonosolve at {args.nonosolve}: build it first (see the docstring)")
    beside = args.nonosolve
    for path in sorted(SURVEY.glob("*.nin")):
        if args.only is None or path.stem in args.only:
            _timed(path.stem, read_nin(path), args.timeout, args.rate, beside)
    for path in args.also:
        _timed(path.stem, nonogram.read(path), args.timeout, args.rate, beside)
    for size in (60, 100):
        for k in range(args.large):
            seed = args.seed + k
            puzzle = nonogram.generate(size, size, 0.5, random.Random(seed))
            _timed(f"random{size}-{seed}", puzzle, args.timeout, args.rate, beside)
    if args.random:
        ours = _random_30(args.seed, args.random)
        if beside is not None:
            _random_30_nonosolve(beside, args.seed, args.random, ours)


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (Kissat runs in a child):
    the time on one core, whatever else the machine is doing."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _random_30(first_seed: int, count: int) -> dict[int, str]:
    """Classify ``count`` random 30x30 puzzles; print the median and the slowest, by the
    wall clock and by CPU time, and every puzzle over 1 s; return the answers by seed."""
    walls, cpus = [], []
    answers: dict[int, str] = {}
    for seed in range(first_seed, first_seed + count):
        puzzle = nonogram.generate(30, 30, 0.5, random.Random(seed))
        started, cpu = time.perf_counter(), _cpu_seconds()
        answers[seed] = nonogram.classify(puzzle)
        walls.append((time.perf_counter() - started, seed))
        cpus.append((_cpu_seconds() - cpu, seed))
    for name, times in (("wall", walls), ("cpu", cpus)):
        times.sort()
        over = [(seed, round(seconds, 2)) for seconds, seed in times if seconds > 1.0]
        print(
            f"{count} random 30x30 ({name}): median {times[len(times) // 2][0] * 1e3:.2f} ms, "
            f"slowest {times[-1][0]:.3f} s (seed {times[-1][1]}), over 1 s: {len(over)} {over}"
        )
    return answers


if __name__ == "__main__":
    main()
