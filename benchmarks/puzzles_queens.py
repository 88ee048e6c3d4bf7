"""Benchmark N-queens counting with :func:`excover.puzzles.queens.queens` and dancing links.

Counts the placements for each n up to ``--max`` (default 14; 16 takes about 30 s)
and prints solutions, nodes, updates and time, checking each count against OEIS A000170
and, for n = 8 and 10-14, nodes and updates against Knuth's DLX1 figures on his
``queens-dlx`` files (tests/data/knuth/MANIFEST.md): the problem lists its items like his.

Usage: ``python benchmarks/puzzles_queens.py [--min N] [--max N]``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from excover.puzzles.queens import queens

__all__ = ["main"]

#: OEIS A000170, from n = 1.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]

#: Knuth's DLX1 on queens-dlx n: (nodes, updates).
DLX1 = {
    8: (1049, 16680),
    10: (11578, 198264),
    11: (45393, 783140),
    12: (211716, 3594752),
    13: (1046319, 17463157),
    14: (5474542, 91497926),
}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min", type=int, default=4)
    parser.add_argument("--max", type=int, default=14)
    args = parser.parse_args(argv)
    print(f"{'n':>3} {'solutions':>12} {'nodes':>12} {'updates':>14} {'seconds':>8}  check")
    for n in range(args.min, args.max + 1):
        search = queens(n).search()
        search.count()
        stats = search.stats
        checks = ["A000170 " + ("ok" if stats.solutions == A000170[n - 1] else "MISMATCH")]
        if n in DLX1:
            same = (stats.nodes, stats.updates) == DLX1[n]
            checks.append("DLX1 " + ("ok" if same else "MISMATCH"))
        print(
            f"{n:>3} {stats.solutions:>12,} {stats.nodes:>12,} {stats.updates:>14,} "
            f"{stats.seconds:>8.2f}  {', '.join(checks)}"
        )


if __name__ == "__main__":
    main()
