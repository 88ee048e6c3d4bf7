"""Symmetry: symmetry-broken counts against plain counts, and the cost of finding a group.

For each problem the plain dancing-links count and the symmetry-broken count
(``p.count(symmetry=True)``: finding the automorphism group included) run side by side in
this process, alternating, the best of ``--repeat`` runs each; the two totals must agree.
The classes (``p.count(up_to_symmetry=True)``) are printed beside them. Then the
automorphism group of the 317-queens problem (100,489 options) is found and timed.

Targets (issue "Symmetry for any problem"): the symmetry-broken count of queens14 and of
pento6x10 at least 3x faster than the plain count; the group of a 100,000-option problem
found in under 1 s.

    python benchmarks/symmetry_bench.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import KNUTH_DATA, require

from excover import ExactCover
from excover.puzzles.queens import queens

FILES = ["queens12", "queens13", "queens14", "pento6x10", "pento5x12", "scott"]


def best_of(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """The shortest of ``repeat`` timed runs, and the result (the same every time)."""
    best = float("inf")
    result = -1
    for _ in range(repeat):
        started = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - started)
        if result not in (-1, value):
            raise AssertionError(f"{value} != {result}")
        result = value
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure (best kept)")
    args = parser.parse_args()
    print("| problem | solutions | classes | group | plain count | symmetry-broken | speed-up |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for name in FILES:
        problem = ExactCover.read(require(KNUTH_DATA / f"{name}.dlx"))
        plain, total = best_of(args.repeat, partial(problem.count, method="dlx"))
        broken, again = best_of(args.repeat, partial(problem.count, method="dlx", symmetry=True))
        if again != total:
            raise AssertionError(f"{name}: symmetry-broken count {again} != {total}")
        classes = problem.count(up_to_symmetry=True)
        order = problem.symmetries().order
        print(
            f"| {name} | {total:,} | {classes:,} | {order} | {plain:.3f} s | {broken:.3f} s "
            f"| {plain / broken:.2f}x |"
        )
    large = queens(317)
    large.engine_input()
    seconds, order = best_of(args.repeat, lambda: large.symmetries().order)
    print(
        f"\nautomorphism group of queens(317) ({large.n_options:,} options, "
        f"{large.n_items} items): order {order}, {seconds:.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
