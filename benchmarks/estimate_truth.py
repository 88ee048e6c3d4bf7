"""Do the ranges of ``ExactCover.estimate`` hold the truth? 40 problems, half of them with
multiplicities or colors.

Each problem is built here (or read from Knuth's files in ``tests/data/knuth``) and is
small enough to count exactly in a few seconds, but its search tree is beyond the
estimate's exact search (100,000 nodes), so the figures are estimated. For each problem
the script counts the solutions and the search nodes of the engine that would count it
(``Search(problem)``: the tree the estimate is of), then estimates with the default
samples and each ``--seeds`` seed, and prints the estimates, their ranges (three
standard errors on each side: ``Estimate.interval``, widened by Student's t at the
estimate's degrees of freedom), whether they hold the truth, and the time of one
estimate; then, seed by seed, how many hold by kind of problem and the median width of
the ranges of the solutions relative to the estimate (0 when exact, infinite for no
range). A range that is not promised (an infinite error: the samples could not measure
it) counts as not holding.

The 20 plain problems: queens, Langford pairs, domino and polyomino tilings, Knuth's
pentomino and Scott files, random exact covers. The 20 others: polyomino tilings whose
pieces may be used 0..2 times or 1..3 times or whose board has cells that may stay empty,
queens with the diagonals as primary items of bounds 0..1, compositions, 2-regular
graphs, random problems with multiplicities (Algorithm M); walks in a graph, double word
squares of random words and random problems with colored secondary items (Algorithm C).

Usage: ``python benchmarks/estimate_truth.py [--seeds 0 1 ...] [--samples N] [--only
NAME ...]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _data import KNUTH_DATA, require

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from builders import (
    compositions,
    dominoes,
    langford,
    queens,
    two_regular_graphs,
    walks,
    word_squares,
)

from excover import ExactCover, Search
from excover.parallel.probes import estimate

__all__ = ["PROBLEMS", "main"]

Cell = tuple[int, int]

#: The 12 pentominoes and the 5 tetrominoes, as cells.
PENTOMINOES: dict[str, list[Cell]] = {
    "F": [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)],
    "I": [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
    "L": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
    "N": [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
    "P": [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
    "T": [(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)],
    "U": [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
    "V": [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
    "W": [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
    "X": [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
    "Y": [(1, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
    "Z": [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
}
TETROMINOES: dict[str, list[Cell]] = {
    "I": [(0, 0), (1, 0), (2, 0), (3, 0)],
    "O": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "T": [(0, 0), (1, 0), (2, 0), (1, 1)],
    "L": [(0, 0), (0, 1), (0, 2), (1, 2)],
    "S": [(1, 0), (2, 0), (0, 1), (1, 1)],
}


def orientations(shape: list[Cell]) -> list[tuple[Cell, ...]]:
    """The distinct rotations and reflections of ``shape``, each moved to the origin."""
    found = set()
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                cells = [(sx * y, sy * x) if swap else (sx * x, sy * y) for x, y in shape]
                low_x = min(x for x, _ in cells)
                low_y = min(y for _, y in cells)
                found.add(tuple(sorted((x - low_x, y - low_y) for x, y in cells)))
    return sorted(found)


def rectangle(width: int, height: int) -> set[Cell]:
    return {(x, y) for x in range(width) for y in range(height)}


def tiling(
    board: set[Cell],
    pieces: dict[str, list[Cell]],
    bounds: tuple[int, int] = (1, 1),
    optional: tuple[Cell, ...] = (),
) -> ExactCover:
    """Tilings of ``board`` by ``pieces`` (rotated and reflected), each piece used
    ``bounds`` times (a primary item per piece), the ``optional`` cells covered 0 or 1
    times and the others once."""
    cells = sorted(board)
    name = {cell: f"{cell[0]}_{cell[1]}" for cell in cells}
    problem = ExactCover(primary=[*pieces, *name.values()])
    if bounds != (1, 1):
        for piece in pieces:
            problem.set_multiplicity(piece, *bounds)
    for cell in optional:
        problem.set_multiplicity(name[cell], 0, 1)
    for piece, shape in pieces.items():
        for turned in orientations(shape):
            for bx, by in cells:
                placed = [(bx + x, by + y) for x, y in turned]
                if all(cell in board for cell in placed):
                    problem.add_option([piece, *(name[cell] for cell in placed)])
    return problem


def copies(pieces: dict[str, list[Cell]], times: int) -> dict[str, list[Cell]]:
    """``times`` distinct copies of each piece, each to be used once."""
    return {f"{piece}{k}": shape for piece, shape in pieces.items() for k in range(times)}


def diagonal_queens(n: int) -> ExactCover:
    """n queens with the diagonals as primary items of bounds 0..1 (Algorithm M) instead
    of secondary items: the same solutions, another search tree."""
    rows = [f"r{i}" for i in range(n)]
    columns = [f"c{j}" for j in range(n)]
    diagonals = [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    problem = ExactCover(primary=rows + columns + diagonals)
    for diagonal in diagonals:
        problem.set_multiplicity(diagonal, 0, 1)
    for i in range(n):
        for j in range(n):
            problem.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"])
    return problem


def random_cover(seed: int, items: int, options: int, size: tuple[int, int]) -> ExactCover:
    """Random options of ``size`` items each, out of ``items`` primary items."""
    rng = random.Random(seed)
    problem = ExactCover(primary=items)
    for _ in range(options):
        problem.add_option(sorted(rng.sample(range(items), rng.randint(*size))))
    return problem


def random_multiplicities(seed: int, items: int, options: int, size: tuple[int, int]) -> ExactCover:
    """Random options, and random bounds on the primary items (1..1 for a third)."""
    rng = random.Random(seed)
    problem = ExactCover(primary=items)
    for item in range(items):
        lo, hi = rng.choice([(1, 1), (1, 1), (0, 1), (1, 2), (0, 2), (2, 2), (1, 3)])
        if (lo, hi) != (1, 1):
            problem.set_multiplicity(str(item), lo, hi)
    for _ in range(options):
        problem.add_option(sorted(rng.sample(range(items), rng.randint(*size))))
    return problem


def random_colors(seed: int, primary: int, secondary: int, options: int) -> ExactCover:
    """Random options of 1 to 3 primary items and 1 to 3 secondary items, each of one of
    three colors."""
    rng = random.Random(seed)
    problem = ExactCover(primary=primary, secondary=secondary)
    for _ in range(options):
        items = sorted(rng.sample(range(primary), rng.randint(1, 3)))
        shared = sorted(rng.sample(range(primary, primary + secondary), rng.randint(1, 3)))
        problem.add_option([*items, *(f"{item}:{rng.choice('abc')}" for item in shared)])
    return problem


def random_words(seed: int, count: int, length: int, letters: str) -> list[str]:
    """About ``count`` distinct random words of ``length`` ``letters``."""
    rng = random.Random(seed)
    return sorted({"".join(rng.choice(letters) for _ in range(length)) for _ in range(count)})


def knuth(name: str) -> Callable[[], ExactCover]:
    return lambda: ExactCover.read(require(KNUTH_DATA / f"{name}.dlx"))


EDGES = [("a", "b"), ("b", "a"), ("b", "c"), ("c", "a"), ("a", "a"), ("c", "c")]
MORE_EDGES = [*EDGES, ("c", "d"), ("d", "a"), ("d", "b"), ("b", "b")]

#: The problems: name -> (kind, builder). "X": plain; "M": multiplicities; "C": colors.
PROBLEMS: dict[str, tuple[str, Callable[[], ExactCover]]] = {
    "queens12": ("X", lambda: queens(12)),
    "queens13": ("X", lambda: queens(13)),
    "knuth-queens14": ("X", knuth("queens14")),
    "langford11": ("X", lambda: langford(11)),
    "langford12": ("X", lambda: langford(12)),
    "dominoes6x8": ("X", lambda: dominoes(6, 8)),
    "dominoes7x8": ("X", lambda: dominoes(7, 8)),
    "tetrominoes4x10-twice": ("X", lambda: tiling(rectangle(4, 10), copies(TETROMINOES, 2))),
    "knuth-pento4x15": ("X", knuth("pento4x15")),
    "knuth-pento5x12": ("X", knuth("pento5x12")),
    "knuth-pento6x10": ("X", knuth("pento6x10")),
    "knuth-pento6x10-xq": ("X", knuth("pento6x10-xq")),
    "knuth-scott": ("X", knuth("scott")),
    "random-x1": ("X", lambda: random_cover(1, 40, 200, (2, 4))),
    "random-x2": ("X", lambda: random_cover(2, 36, 160, (2, 4))),
    "random-x3": ("X", lambda: random_cover(3, 44, 220, (2, 5))),
    "random-x4": ("X", lambda: random_cover(4, 40, 180, (2, 4))),
    "random-x7": ("X", lambda: random_cover(7, 40, 200, (2, 4))),
    "random-x8": ("X", lambda: random_cover(8, 42, 210, (2, 4))),
    "random-x9": ("X", lambda: random_cover(9, 38, 190, (2, 4))),
    "pentominoes4x10-0..1": ("M", lambda: tiling(rectangle(4, 10), PENTOMINOES, (0, 1))),
    "pentominoes5x6-0..2": ("M", lambda: tiling(rectangle(5, 6), PENTOMINOES, (0, 2))),
    "pentominoes6x6-corner-0..2": (
        "M",
        lambda: tiling(rectangle(6, 6) - {(0, 0)}, PENTOMINOES, (0, 2)),
    ),
    "tetrominoes5x8-1..3": ("M", lambda: tiling(rectangle(5, 8), TETROMINOES, (1, 3))),
    "tetrominoes6x6-0..3": ("M", lambda: tiling(rectangle(6, 6), TETROMINOES, (0, 3))),
    "tetrominoes5x7-holes": (
        "M",
        lambda: tiling(rectangle(5, 7), TETROMINOES, (1, 2), ((0, 0), (4, 6), (2, 3))),
    ),
    "diagonal-queens12": ("M", lambda: diagonal_queens(12)),
    "diagonal-queens13": ("M", lambda: diagonal_queens(13)),
    "compositions20": ("M", lambda: compositions(20, 4, 10)),
    "compositions22": ("M", lambda: compositions(22, 5, 8)),
    "two-regular10": ("M", lambda: two_regular_graphs(10)),
    "random-m2": ("M", lambda: random_multiplicities(2, 24, 80, (2, 4))),
    "random-m6": ("M", lambda: random_multiplicities(6, 26, 100, (3, 5))),
    "walks16": ("C", lambda: walks(16, EDGES)),
    "walks13": ("C", lambda: walks(13, MORE_EDGES)),
    "random-c2": ("C", lambda: random_colors(2, 24, 10, 260)),
    "random-c3": ("C", lambda: random_colors(3, 26, 8, 300)),
    "random-c4": ("C", lambda: random_colors(4, 22, 12, 200)),
    "word-squares1": ("C", lambda: word_squares(random_words(1, 120, 4, "abc"))),
    "word-squares4": ("C", lambda: word_squares(random_words(4, 90, 5, "ab"))),
}


def holds(value: float, interval: tuple[float, float]) -> bool:
    """True when ``interval`` is a promised range (finite) that holds ``value``."""
    low, high = interval
    return high != float("inf") and low <= value <= high


def main() -> None:
    parse = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parse.add_argument("--seeds", type=int, nargs="+", default=[0])
    parse.add_argument("--samples", type=int, default=None)
    parse.add_argument("--only", nargs="+", default=None, choices=sorted(PROBLEMS))
    args = parse.parse_args()
    names = args.only or list(PROBLEMS)
    print(
        "| problem | kind | solutions | nodes | seed | estimate of the solutions (range) "
        "| estimate of the nodes (range) | holds | time |"
    )
    print("|---|---|--:|--:|--:|--:|--:|:-:|--:|")
    runs = both = solutions_held = nodes_held = 0
    by_kind: dict[str, list[int]] = {}
    by_seed: dict[int, dict[str, list[int]]] = {seed: {} for seed in args.seeds}
    widths: dict[int, list[float]] = {seed: [] for seed in args.seeds}
    for name in names:
        kind, build = PROBLEMS[name]
        problem = build()
        search = Search(problem)
        count = search.count()
        nodes = search.stats.nodes
        for seed in args.seeds:
            started = time.perf_counter()
            guess = estimate(problem, args.samples, seed=seed, timed=False)
            seconds = time.perf_counter() - started
            good_solutions = holds(count, guess.interval("solutions"))
            good_nodes = holds(nodes, guess.interval("nodes"))
            runs += 1
            solutions_held += good_solutions
            nodes_held += good_nodes
            both += good_solutions and good_nodes
            for tally in (by_kind.setdefault(kind, [0, 0]), by_seed[seed].setdefault(kind, [0, 0])):
                tally[0] += good_solutions and good_nodes
                tally[1] += 1
            low, high = guess.interval("solutions")
            widths[seed].append(width(guess.solutions, low, high))
            node_low, node_high = guess.interval("nodes")
            mark = {(True, True): "yes", (True, False): "solutions", (False, True): "nodes"}
            print(
                f"| {name} | {kind} | {count:,} | {nodes:,} | {seed} "
                f"| {guess.solutions:,.0f} ({low:,.0f}..{high:,.0f}) "
                f"| {guess.nodes:,.0f} ({node_low:,.0f}..{node_high:,.0f}) "
                f"| {mark.get((good_solutions, good_nodes), 'no')} | {seconds:.1f} s |",
                flush=True,
            )
    print()
    print(f"ranges holding the solutions: {solutions_held}/{runs}")
    print(f"ranges holding the nodes: {nodes_held}/{runs}")
    for kind, (held, total) in sorted(by_kind.items()):
        print(f"kind {kind}: both ranges hold in {held}/{total}")
    print(f"both ranges hold the truth: {both}/{runs}")
    print()
    kinds = sorted(by_kind)
    print(f"| seed | both ranges hold | {' | '.join(kinds)} | median width of the range |")
    print(f"|---|--:|{'--:|' * len(kinds)}--:|")
    for seed, tallies in by_seed.items():
        held = sum(tally[0] for tally in tallies.values())
        total = sum(tally[1] for tally in tallies.values())
        cells = " | ".join("{}/{}".format(*tallies.get(kind, [0, 0])) for kind in kinds)
        print(f"| {seed} | {held}/{total} | {cells} | {statistics.median(widths[seed]):.2f} |")


def width(value: float, low: float, high: float) -> float:
    """The width of the range ``low..high`` relative to the estimate ``value``."""
    if high == math.inf:
        return math.inf
    return (high - low) / value if value else 0.0


if __name__ == "__main__":
    main()
