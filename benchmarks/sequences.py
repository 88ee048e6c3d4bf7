"""The sequences of excover.sequences: every published term, counted.

For each sequence of :data:`excover.sequences.SEQUENCES` and each published term from
``--from`` on (default: the first) up to ``--upto`` (default: the last published; the
test suite checks the first few, tests/test_sequences.py), the term is computed by
:func:`excover.sequences.term` (the symmetry-broken count, or the classes for A328020)
in this process (the rectangle sequences by the states of their partial tilings,
:func:`excover.tiling.count_rectangle_tilings`), timed in CPU seconds
(``time.process_time``, one core), and compared with the published value
(:mod:`excover.sequences.known`). With ``--search`` the symmetry-broken search of the
term's exact cover (the route before the state count, what ``--workers`` runs) follows
it in the same process, with the ratio of the two times. With ``--plain`` the plain
count (``method="search"``, no symmetry) runs beside it for the rectangle family, a second
route to the same number; with ``--nodes`` the term is counted by the same
symmetry-broken search made here, whose nodes are printed (a figure the load does not
move). The load average is printed first and last: the machine is shared.

Issue 58's target: A360498(9) in at most 10 s of CPU on one core (about 45 s before its
changes, 28 s after, 19-21 s with the engine's size bound, ``heuristic="sizes"``, once it
held in the symmetry-broken count's merged problems, 22.4 s quietly; the count by states
since); the other sequences' largest known terms within the same factor.

    python benchmarks/sequences.py [--only A360498 ...] [--from N] [--upto N] [--plain]
                                   [--nodes] [--search]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from excover.sequences import SEQUENCES, problem, term
from excover.sequences.known import KNOWN, OFFSET
from excover.symmetry import BrokenSearch


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="ID", help="these sequences alone")
    parser.add_argument("--from", dest="start", type=int, metavar="N", help="first n")
    parser.add_argument("--upto", type=int, metavar="N", help="last n (default: the last known)")
    parser.add_argument("--plain", action="store_true", help="the plain count beside it")
    parser.add_argument("--nodes", action="store_true", help="the symmetry-broken count's nodes")
    parser.add_argument(
        "--search", action="store_true", help="the symmetry-broken search beside it, timed"
    )
    args = parser.parse_args()
    print(f"load average {_load()}", flush=True)
    wrong = 0
    for sequence in args.only or list(SEQUENCES):
        known = KNOWN[sequence]
        last = OFFSET[sequence] + len(known) - 1
        start = OFFSET[sequence] if args.start is None else args.start
        for n in range(start, min(last, args.upto or last) + 1):
            expected = known[n - OFFSET[sequence]]
            began = time.process_time()
            nodes = None
            if args.nodes and not SEQUENCES[sequence].classes:
                cover = problem(sequence, n)
                search = BrokenSearch(
                    cover, cover.symmetries(), heuristic=SEQUENCES[sequence].heuristic
                )
                value = search.count()
                nodes = search.nodes
            else:
                value = term(sequence, n)
            seconds = time.process_time() - began
            line = f"{sequence}({n}) = {value:,}  {seconds:8.1f} s CPU"
            if nodes is not None:
                line += f"  {nodes:,} nodes"
            if args.search and SEQUENCES[sequence].searched_on_request:
                began = time.process_time()
                searched = problem(sequence, n).count(
                    symmetry=True, heuristic=SEQUENCES[sequence].heuristic
                )
                spent = time.process_time() - began
                line += f"  search {searched:,} in {spent:.1f} s ({seconds / spent:.2f}x)"
                wrong += searched != expected
            if args.plain and not SEQUENCES[sequence].classes:
                began = time.process_time()
                plain = problem(sequence, n).count(method="search")
                line += f"  plain {plain:,} in {time.process_time() - began:.1f} s"
                wrong += plain != expected
            ok = value == expected
            wrong += not ok
            print(f"{line}  {'as published' if ok else f'PUBLISHED {expected:,}'}", flush=True)
    print(f"load average {_load()}", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
