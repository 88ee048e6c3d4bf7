"""Benchmark Sudoku throughput: puzzles per second through the compiled batch solver.

Generates ``--count`` minimal 9x9 puzzles with :func:`excover.puzzles.sudoku.generate`
(seeds 0, 1, ...; or reads them, one per line, from ``--file``), checks each solution
against the rules, then times :func:`~excover.puzzles.sudoku.solve_many` (one solution
each) and :func:`~excover.puzzles.sudoku.classify_many` (count up to 2, the uniqueness
check) on the whole batch, keeping the fastest of ``--repeat`` runs; then the same on a
few famous hard puzzles, repeated to fill a batch. Parsing and formatting of the text are
included in the times.

Usage: ``python benchmarks/puzzles_sudoku.py [--count N] [--repeat R] [--file F]
[--save F]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from excover.puzzles import sudoku

__all__ = ["main"]

#: Famous hard puzzles: "Easter Monster" and Arto Inkala's 2012 puzzle (unique solutions).
FAMOUS = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
]


def _best(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _valid(puzzle: str, solution: str | None) -> bool:
    if solution is None or len(solution) != 81:
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [
        [(3 * (b // 3) + r) * 9 + 3 * (b % 3) + c for r in range(3) for c in range(3)]
        for b in range(9)
    ]
    return all({solution[k] for k in unit} == set("123456789") for unit in units) and all(
        g in ".0" or g == s for g, s in zip(puzzle, solution, strict=True)
    )


def _measure(name: str, puzzles: list[str], repeat: int) -> None:
    solved = sudoku.solve_many(puzzles)
    assert all(_valid(p, s) for p, s in zip(puzzles, solved, strict=True)), "bad solution"
    assert set(sudoku.classify_many(puzzles)) == {"unique"}, "a puzzle is not unique"
    givens = sum(81 - p.count(".") for p in puzzles) / len(puzzles)
    solve = _best(lambda: sudoku.solve_many(puzzles), repeat)
    classify = _best(lambda: sudoku.classify_many(puzzles), repeat)
    print(
        f"{name:<34} {len(puzzles):>6} puzzles, {givens:4.1f} givens: "
        f"solve {len(puzzles) / solve:>9,.0f}/s   classify {len(puzzles) / classify:>9,.0f}/s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to generate")
    parser.add_argument("--repeat", type=int, default=5, help="runs to keep the fastest of")
    parser.add_argument("--file", type=Path, help="read the puzzles from this file instead")
    parser.add_argument("--save", type=Path, help="write the generated puzzles here")
    args = parser.parse_args(argv)
    if args.file:
        puzzles = [line.strip() for line in args.file.read_text().splitlines() if line.strip()]
        source = str(args.file)
    else:
        start = time.perf_counter()
        puzzles = [sudoku.generate(seed=seed) for seed in range(args.count)]
        seconds = time.perf_counter() - start
        print(f"generated {len(puzzles)} minimal puzzles in {seconds:.2f} s")
        source = "generated minimal puzzles"
        if args.save:
            args.save.write_text("\n".join(puzzles) + "\n")
    _measure(source, puzzles, args.repeat)
    _measure("famous hard puzzles (x250)", FAMOUS * 250, args.repeat)


if __name__ == "__main__":
    main()
