"""The frontier count on big boards: time, memory and the count's size, each case in a
fresh process.

Run from the repository root: ``python benchmarks/frontier_bench.py`` prints a Markdown
table of every case on 1 and 2 threads; ``--case NAME --workers N`` runs one and prints
its JSON line; ``--cases`` and ``--workers`` pick some. The boards are built by excover's
tilings (``Tiling`` over ``Pattern.constant``): domino tilings of n x n squares (OEIS
A004003) and pentomino tilings of 5 x 1000 boards (OEIS A174249), the latter with rows of
1000 cells (the frontier count reorders the items, see :mod:`excover.zdd.frontier`) and
of 5. Each count is checked: the two 5 x 1000 boards must agree, and the squares must
match Kasteleyn's product (to the 53 bits of a float, as a relative error). The load
average is printed before and after the table: on a shared machine the times stretch.

Each problem declares its board's symmetries (the tiling's, timed apart as
``symmetry_s``), by which the frontier count folds its states
(:mod:`excover.zdd.folding`; its own look at them is in ``count_s`` and
``count_cpu_s``); ``--no-fold`` counts without. ``--user`` counts as a user would,
``Tiling(...).count(method="zdd")``, which declares the board's mirrors itself
(:mod:`excover.tiling.mirrors`; their cost is in ``count_s``, the states are not seen).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time

from _load import load_line

from excover.tiling import Pattern, Tile, Tiling, pentominoes, tiles
from excover.zdd import frontier, ordering

CASES = ("dominoes16", "dominoes20", "dominoes24", "pento5x1000", "pento1000x5")


def build(case: str) -> Tiling:
    """The tiling of a case."""
    if case.startswith("dominoes"):
        side = int(case.removeprefix("dominoes"))
        return Tiling(Pattern.constant(side, side), [Tile("**", "d", "any")])
    width, height = (int(side) for side in case.removeprefix("pento").split("x"))
    return Tiling(Pattern.constant(height, width), tiles(pentominoes(), "any"))


def kasteleyn_log2(side: int) -> float:
    """log2 of the domino tilings of a side x side square, by Kasteleyn's product."""
    total = 0.0
    for j in range(1, side // 2 + 1):
        for k in range(1, side // 2 + 1):
            x, y = math.cos(math.pi * j / (side + 1)), math.cos(math.pi * k / (side + 1))
            total += math.log2(4 * x * x + 4 * y * y)
    return total


def run_case(case: str, workers: int, fold: bool = True, user: bool = False) -> dict[str, object]:
    """Build and count one case (its states folded by its symmetries unless ``fold`` is
    False; with ``user``, by ``Tiling.count(method="zdd")``, one thread); its figures."""
    started = time.perf_counter()
    tiling = build(case)
    problem = tiling.problem
    built = time.perf_counter()
    if user:
        return user_count(case, tiling, started, built)
    if fold:  # the board's symmetries, which the frontier count folds its states by
        problem.declare_symmetries([maps.tolist() for maps in tiling.symmetry.option_maps])
    declared = time.perf_counter()
    states: list[int] = []
    cpu = time.process_time()
    total = frontier.count(problem, workers, lambda done, n, layer: states.append(layer), fold=fold)
    cpu = time.process_time() - cpu
    counted = time.perf_counter()
    assert total is not None, f"{case}: the frontier count does not suit it"
    order = ordering.item_order(problem)
    return {
        "case": case,
        "workers": workers,
        "fold": fold,
        "bits": total.bit_length(),
        "count_head": str(total)[:12],
        "count_mod_1e9_7": total % 1_000_000_007,
        "span": ordering.span(problem, order),
        "reordered": order is not None,
        "states": sum(states),
        "widest_layer": max(states),
        "build_s": round(built - started, 3),
        "symmetry_s": round(declared - built, 3),
        "count_s": round(counted - declared, 3),
        "count_cpu_s": round(cpu, 3),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "check": check(case, total),
    }


def user_count(case: str, tiling: Tiling, started: float, built: float) -> dict[str, object]:
    """The figures of one case counted by ``Tiling.count(method="zdd")``, the user's path."""
    cpu = time.process_time()
    total = tiling.count(method="zdd")
    cpu = time.process_time() - cpu
    counted = time.perf_counter()
    return {
        "case": case,
        "workers": 1,
        "fold": "user",
        "bits": total.bit_length(),
        "count_head": str(total)[:12],
        "count_mod_1e9_7": total % 1_000_000_007,
        "span": "-",
        "states": "-",
        "widest_layer": "-",
        "build_s": round(built - started, 3),
        "count_s": round(counted - built, 3),
        "count_cpu_s": round(cpu, 3),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "check": check(case, total),
    }


def check(case: str, total: int) -> str:
    """What the count was checked against here (the pentomino pair is checked by the
    table, one against the other)."""
    if case.startswith("dominoes"):
        side = int(case.removeprefix("dominoes"))
        error = abs(math.log2(total) - kasteleyn_log2(side))
        assert error < 1e-9, f"{case}: {total} is not Kasteleyn's product"
        return "Kasteleyn"
    return "other orientation"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", choices=CASES, help="run one case, print its JSON line")
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per case")
    parser.add_argument(
        "--no-fold", action="store_true", help="count without folding the states by symmetry"
    )
    parser.add_argument(
        "--user", action="store_true", help='count by Tiling.count(method="zdd"), one thread'
    )
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.workers[0], not args.no_fold, args.user)))
        return
    print(load_line())
    print(
        "| case | threads | bits | span | states | widest layer | build s | count s | cpu s | MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    pento: dict[int, set[int]] = {}
    for case in args.cases:
        for workers in [1] if args.user else args.workers:
            command = [sys.executable, __file__, "--case", case, "--workers", str(workers)]
            command += ["--no-fold"] if args.no_fold else []
            command += ["--user"] if args.user else []
            try:
                done = subprocess.run(
                    command, capture_output=True, text=True, timeout=args.timeout, check=True
                )
            except subprocess.TimeoutExpired:
                print(f"| {case} | {workers} | timeout after {args.timeout:g} s |")
                continue
            row = json.loads(done.stdout)
            if case.startswith("pento"):
                pento.setdefault(workers, set()).add(int(row["count_mod_1e9_7"]))
            print(
                f"| {case} | {workers} | {row['bits']} | {row['span']} | {row['states']} "
                f"| {row['widest_layer']} | {row['build_s']} | {row['count_s']} "
                f"| {row['count_cpu_s']} | {row['peak_mb']} |"
            )
    print(load_line())
    for workers, residues in pento.items():
        assert len(residues) == 1, f"the two 5 x 1000 boards disagree on {workers} threads"


if __name__ == "__main__":
    main()
