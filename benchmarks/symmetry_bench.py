"""Symmetry: the symmetry-broken count and the count up to symmetry against the plain count.

For each problem three counts run in this process, interleaved round by round, the best
of ``--repeat`` rounds each in CPU time (``time.process_time``):

* the plain count on the fastest engine (``method="search"``: the bit-parallel engine when
  the problem suits it);
* the symmetry-broken count of every solution (``p.count(symmetry=True)``), finding the
  automorphism group included (the problem is read afresh each round, so nothing is
  cached), which must equal the plain count;
* the count of the orbits of solutions (``p.count(up_to_symmetry=True)``), likewise.

The nodes of the plain search and of the searches the symmetry-broken count runs are
printed beside the times: the ideal is the plain search's nodes divided by the group's
order. The problems are Knuth's files (``tests/data/knuth``) and, for the pentominoes,
the same boards built by the tiling library (their groups found the same way, by
BLISS). Then the automorphism group of the 317-queens problem (100,489 options) is found
and timed.

Targets (issue 45, "symmetry at full speed"): both symmetric counts at least 3x faster
than the plain count on queens13, queens14, pento6x10, pento5x12 and scott.

    python benchmarks/symmetry_bench.py [--repeat 3] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import COMBINE_DATA, KNUTH_DATA, require

from excover import ExactCover
from excover.puzzles.queens import queens
from excover.symmetry import BrokenSearch
from excover.tiling import Pattern, Tiling, pentominoes, tiles

FILES = ["queens12", "queens13", "queens14", "pento6x10", "pento5x12", "scott"]


def knuth(name: str) -> Callable[[], ExactCover]:
    """A reader of Knuth's file ``name``.dlx."""
    path = require(KNUTH_DATA / f"{name}.dlx")
    return lambda: ExactCover.read(path)


def tiled(board: Callable[[], Pattern]) -> Callable[[], ExactCover]:
    """A builder of the tiling of ``board`` with the twelve pentominoes, each once."""
    return lambda: Tiling(board(), tiles(pentominoes())).problem


PROBLEMS: dict[str, Callable[[], ExactCover]] = {
    **{name: knuth(name) for name in FILES},
    "pento6x10 (tiling)": tiled(lambda: Pattern.constant(10, 6)),
    "pento5x12 (tiling)": tiled(lambda: Pattern.constant(12, 5)),
    "scott (tiling)": tiled(lambda: Pattern.read(require(COMBINE_DATA / "scott_board.txt"))),
}


def cpu(run: Callable[[], int]) -> tuple[float, int]:
    """The CPU seconds ``run()`` took, and its result."""
    started = time.process_time()
    value = run()
    return time.process_time() - started, value


def group_order(problem: ExactCover) -> int:
    """The order of the problem's symmetry group, found afresh."""
    return problem.symmetries().order


def plain_nodes(problem: ExactCover) -> int:
    """The nodes of the plain search."""
    search = problem.search()
    search.count()
    return search.stats.nodes


def broken_nodes(problem: ExactCover) -> int:
    """The nodes of the searches of the symmetry-broken count of every solution."""
    broken = BrokenSearch(problem, problem.symmetries(), "search")
    broken.count()
    return broken.nodes


def measure(name: str, build: Callable[[], ExactCover], repeat: int) -> str:
    """One row of the table: the three counts, interleaved, best of ``repeat`` each."""
    best = {"plain": float("inf"), "broken": float("inf"), "orbits": float("inf")}
    results: dict[str, set[int]] = {key: set() for key in best}
    group = float("inf")
    for _ in range(repeat):
        problem = build()
        seconds, value = cpu(partial(problem.count, method="search"))
        best["plain"] = min(best["plain"], seconds)
        results["plain"].add(value)
        problem = build()
        seconds, value = cpu(partial(problem.count, method="search", symmetry=True))
        best["broken"] = min(best["broken"], seconds)
        results["broken"].add(value)
        problem = build()
        seconds, value = cpu(partial(problem.count, method="search", up_to_symmetry=True))
        best["orbits"] = min(best["orbits"], seconds)
        results["orbits"].add(value)
        problem = build()
        seconds, _ = cpu(partial(group_order, problem))
        group = min(group, seconds)
    if len(results["plain"]) != 1 or results["broken"] != results["plain"]:
        raise AssertionError(f"{name}: counts differ: {results}")
    if len(results["orbits"]) != 1:
        raise AssertionError(f"{name}: orbit counts differ: {results['orbits']}")
    problem = build()
    order = problem.symmetries().order
    (total,) = results["plain"]
    (classes,) = results["orbits"]
    nodes, broken = plain_nodes(problem), broken_nodes(problem)
    plain = best["plain"]
    return (
        f"| {name} | {total:,} | {classes:,} | {order} | {group:.3f} | {plain:.3f} | {nodes:,} "
        f"| {best['broken']:.3f} | {broken:,} ({nodes / max(broken, 1):.2f}x fewer) "
        f"| {plain / best['broken']:.2f}x | {best['orbits']:.3f} "
        f"| {plain / best['orbits']:.2f}x |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds (best kept)")
    parser.add_argument("--only", nargs="*", help="problems to run (default all)")
    args = parser.parse_args()
    print(
        "| problem | solutions | classes | group | finding it (s) | plain (s) | plain nodes "
        "| symmetry-broken (s) | its nodes | speed-up | up to symmetry (s) | speed-up |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name, build in PROBLEMS.items():
        if args.only and name not in args.only:
            continue
        print(measure(name, build, args.repeat), flush=True)
    if args.only:
        return 0
    large = queens(317)
    large.engine_input()
    seconds, order = cpu(lambda: large.symmetries().order)
    print(
        f"\nautomorphism group of queens(317) ({large.n_options:,} options, "
        f"{large.n_items} items): order {order}, {seconds:.3f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
