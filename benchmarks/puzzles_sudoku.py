"""Benchmark Sudoku throughput: puzzles per second through the compiled batch solver.

Generates ``--count`` minimal 9x9 puzzles with :func:`excover.puzzles.sudoku.generate`
(seeds 0, 1, ...; or reads them, one per line, from ``--file``), checks each solution
against the rules, then times :func:`~excover.puzzles.sudoku.solve_many` (one solution
each) and :func:`~excover.puzzles.sudoku.classify_many` (count up to 2, the uniqueness
check) on three sets, keeping the fastest of ``--repeat`` runs:

- all the generated puzzles;
- the hard ones among them: those that naked and hidden singles alone do not solve
  (:func:`~excover.puzzles.sudoku.needs_search`), so that the solver has to branch;
- famous hard puzzles (Easter Monster, Inkala 2012, Golden Nugget, tarek_052, coloin),
  repeated to fill a batch of 500.

Parsing and formatting of the text are included in the times. As a reference measured in
the same process, the generic dancing-links engine solves the first 50 hard puzzles, each
built as an :class:`~excover.ExactCover` of its own (:func:`~excover.puzzles.sudoku.problem`).

Usage: ``python benchmarks/puzzles_sudoku.py [--count N] [--repeat R] [--file F]
[--save F] [--clock wall|cpu]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from excover.puzzles import sudoku

__all__ = ["main"]

#: Famous hard puzzles, each with a unique solution: Easter Monster, Arto Inkala's 2012
#: puzzle, Golden Nugget, tarek_052 and coloin.
FAMOUS = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
    "..1..4.......6.3.5...9.....8.....7.3.......285...7.6..3...8...6..92......4...1...",
    ".2.4.37.........32........4.4.2...7.8...5.........1...5.....9...3.9....7..1..86..",
]


#: The clock of the timings: wall-clock time, or with ``--clock cpu`` the process's CPU
#: time, steadier on a machine shared with other work.
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def _best(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = CLOCK[0]()
        run()
        best = min(best, CLOCK[0]() - start)
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


def _reference(hard: list[str]) -> None:
    """The generic engine on a cover built per puzzle, and the batch solver on the same."""
    sample = hard[:50]
    start = CLOCK[0]()
    for puzzle in sample:
        cover = sudoku.problem(puzzle)
        found = cover.first()
        assert found is not None and _valid(puzzle, sudoku.grid_of(cover, found))
    generic = len(sample) / (CLOCK[0]() - start)
    batch = len(sample) / _best(lambda: sudoku.solve_many(sample), 5)
    print(
        f"reference: generic engine {generic:,.0f}/s on {len(sample)} hard puzzles, "
        f"batch solver {batch:,.0f}/s: {batch / generic:,.0f} times as fast"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to generate")
    parser.add_argument("--repeat", type=int, default=5, help="runs to keep the fastest of")
    parser.add_argument("--file", type=Path, help="read the puzzles from this file instead")
    parser.add_argument("--save", type=Path, help="write the generated puzzles here")
    parser.add_argument(
        "--clock", choices=["wall", "cpu"], default="wall", help="time by wall clock or CPU time"
    )
    args = parser.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
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
    hard = [p for p, h in zip(puzzles, sudoku.needs_search(puzzles), strict=True) if h]
    print(f"{len(hard)} of the {len(puzzles)} need search (singles alone do not solve them)")
    _measure(source, puzzles, args.repeat)
    if hard:
        _measure("  of which hard (need search)", hard, args.repeat)
    _measure(
        f"famous hard puzzles (x{500 // len(FAMOUS)})", FAMOUS * (500 // len(FAMOUS)), args.repeat
    )
    if hard:
        _reference(hard)


if __name__ == "__main__":
    main()
