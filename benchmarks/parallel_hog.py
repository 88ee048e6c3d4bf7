"""Parallel runs beside a CPU hog: ``--workers 2`` must never lose much to ``--workers 1``.

Another process keeps one core busy (a Python loop) while each case is counted with one
and with two workers, interleaved, the best of ``--runs`` each; the table gives the
ratio time(2 workers) / time(1 worker) (issue #14's goal: at most 1.10) and checks that
both counts agree. Cases: the frontier count (``method="zdd"`` on domino tilings: threads
sharing each layer) and DLX subproblems on worker processes.

Usage: ``python benchmarks/parallel_hog.py [--runs N] [--quick]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from _data import COMBINE_DATA, KNUTH_DATA, require
from parallel_bench import shape_dominoes

from excover import ExactCover

__all__ = ["main"]


def _dominoes(file: str) -> Callable[[], ExactCover]:
    return lambda: shape_dominoes(require(COMBINE_DATA / file))


def _knuth(file: str) -> Callable[[], ExactCover]:
    return lambda: ExactCover.read(require(KNUTH_DATA / file))


def cases(quick: bool) -> list[tuple[str, Callable[[], ExactCover], str]]:
    """(name, problem builder, method) of every case."""
    chosen = [
        ("caml_large dominoes", _dominoes("caml_large.txt"), "zdd"),
        ("22x22 dominoes (c4)", _dominoes("dominos_c4_22x22.txt"), "zdd"),
        ("euler dominoes", _dominoes("euler_30x27.txt"), "zdd"),
        ("queens13 (DLX)", _knuth("queens13.dlx"), "dlx"),
    ]
    if not quick:
        chosen.append(("pento6x10 (DLX)", _knuth("pento6x10.dlx"), "dlx"))
    return chosen


def timed(problem: ExactCover, method: str, workers: int) -> tuple[float, int]:
    """Seconds and count of one parallel count."""
    started = time.perf_counter()
    counted = problem.count(method=method, workers=workers)
    return time.perf_counter() - started, counted


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="leave out pento6x10")
    args = parser.parse_args(argv)
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)
        print(f"beside a CPU hog (pid {hog.pid}), best of {args.runs} runs each")
        print(f"{'case':<22} {'1 worker':>10} {'2 workers':>10} {'ratio':>7}")
        worst = 0.0
        for name, build, method in cases(args.quick):
            problem = build()
            best = {1: float("inf"), 2: float("inf")}
            counts = set()
            for _ in range(args.runs):
                for workers in (1, 2):
                    seconds, counted = timed(problem, method, workers)
                    best[workers] = min(best[workers], seconds)
                    counts.add(counted)
            if len(counts) != 1:
                print(f"{name}: the counts differ: {sorted(counts)}")
                return 1
            ratio = best[2] / best[1]
            worst = max(worst, ratio)
            print(f"{name:<22} {best[1]:>9.3f}s {best[2]:>9.3f}s {ratio:>7.2f}")
        print(f"worst ratio {worst:.2f} (goal: at most 1.10)")
    finally:
        hog.kill()
        hog.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
