"""A survey of a family of holey six-piece burrs: every assembly found, taken apart on
worker processes, with the distribution of levels and the highest level found.

The family: the six-piece burrs made of a few of Bill Cutler's 59 notchable pieces
(:func:`excover.burr.sixpiece.notchable_pieces`, numbered from 0 as it lists them,
biggest first), each usable up to ``--copies`` times, the notchable voxels free to stay
empty (holey burrs: the family of the "level" burrs). The pieces are generated, the
puzzle is assembled by excover (one assembly per symmetry class, as BurrTools counts
them), and the assemblies are disassembled on ``--workers`` processes
(:func:`excover.burr.pool.disassemble_many`), each within ``--max-states``
configurations (past it, unknown). ``--limit N`` takes the first N assemblies only (a
reduced run on a busy machine).

Printed: the load average first and last (the machine may be shared), the assemblies,
the time to assemble them and to disassemble them (wall clock, and per assembly), the
assemblies that come apart, stuck or unknown, how many at each first number of the
level and the commonest level strings, and the highest levels found (BurrTools' order:
the most moves to the first separation, then to the next ones).

    python benchmarks/burr_survey.py [--pieces 1,20,34,41,55,56,57,58] [--copies 6]
        [--workers 2] [--limit N] [--max-states 1000000] [--save FILE.xmpuzzle]
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from excover.burr import Disassembly, assemblies
from excover.burr.pool import disassemble_many
from excover.burr.sixpiece import burr_puzzle, notchable_pieces
from excover.burr.xmpuzzle import write_xmpuzzle

#: The pieces of the default family (63,086 assemblies).
PIECES = "1,20,34,41,55,56,57,58"


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", default=PIECES, help="numbers of notchable pieces")
    parser.add_argument("--copies", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-states", type=int, default=1_000_000)
    parser.add_argument("--save", help="write the family's puzzle (.xmpuzzle) here")
    args = parser.parse_args()
    print(f"load average: {_load()}")
    every = notchable_pieces()
    picks = [int(k) for k in args.pieces.split(",")]
    puzzle = burr_puzzle([every[k] for k in picks], copies=args.copies)
    if args.save:
        write_xmpuzzle(puzzle, args.save)
    print(f"pieces: {picks} of the {len(every)} notchable ones, up to {args.copies} copies each")
    started = time.perf_counter()
    found = list(assemblies(puzzle))
    assembled = time.perf_counter() - started
    print(f"assemblies: {len(found)} found in {assembled:.1f} s")
    if args.limit is not None:
        found = found[: args.limit]
        print(f"taking the first {len(found)}")
    started = time.perf_counter()
    settings = (True, args.max_states, False)
    results: dict[int, Disassembly] = dict(disassemble_many(found, settings, workers=args.workers))
    spent = time.perf_counter() - started
    per = 1000 * spent / max(1, len(found))
    print(
        f"disassembled on {args.workers} workers in {spent:.1f} s ({per:.2f} ms an assembly, "
        f"{sum(r.states_explored for r in results.values()):,} states explored)"
    )
    statuses = Counter(r.status for r in results.values())
    print(
        f"come apart: {statuses['solved']}, stuck: {statuses['stuck']}, "
        f"unknown: {statuses['unknown']}"
    )
    solved = [r for r in results.values() if r.status == "solved"]
    firsts = Counter(r.tree.sequence()[0] for r in solved if r.tree is not None)
    print("first number of the level: " + ", ".join(f"{n}: {c}" for n, c in sorted(firsts.items())))
    levels = Counter(r.level for r in solved)
    print("commonest levels: " + ", ".join(f"{lv} ({c})" for lv, c in levels.most_common(12)))
    ranked = sorted(results.items(), key=lambda pair: pair[1].sort_key(), reverse=True)
    print("highest levels:")
    for index, result in ranked[:5]:
        if result.status == "solved":
            print(f"  assembly {index + 1}: level {result.level}, {result.total} moves")
    print(f"load average: {_load()}")


if __name__ == "__main__":
    main()
