"""The bit-parallel engine of two checkouts, side by side, on Knuth's files and two XCC
nonograms.

A change to the bit-parallel engine that keeps its search tree (the same item choices,
the same options in the same order) is checked here for speed: each input is counted
with ``Search(problem, engine="bits").count()`` in a fresh process of each checkout in
turn (``PYTHONPATH`` pointing at the checkout's ``src``, its extensions built in place),
``--rounds`` times interleaved, so that a slow spell of the machine hits both alike. A
cell is the best of its rounds (each process counts 3 times and keeps its best), in CPU
seconds of the count, the engine's building included (the problem read beforehand); the
ratio is new / old. The counts and the nodes must be equal on both sides: the script
stops otherwise.

Inputs: Knuth's files of ``tests/data/knuth`` but the two domino files with too many
solutions, and the 20x20 and 18x18 nonograms in exact-cover-with-colors form of
``knuth_compare.py``.

Usage: ``python benchmarks/bits_compare.py OLD_SRC NEW_SRC [--rounds N] [--only NAME ...]``,
where each ``*_SRC`` is the ``src`` folder of a checkout built with ``python setup.py
build_ext --inplace``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CASES = [
    "domino6x6",
    "domino8x8",
    "pento3x20",
    "pento4x15",
    "pento5x12",
    "pento6x10-xq",
    "pento6x10",
    "queens10",
    "queens12",
    "queens13",
    "queens14",
    "scott-pfix",
    "scott",
    "nonogram20x20",
    "nonogram18x18",
]

_RUNNER = """
import json, sys, time
sys.path.insert(0, {here!r})
from excover.engines import Search
name = {name!r}
if name.startswith("nonogram"):
    import knuth_compare
    shape = {{"nonogram20x20": (20, 20, 0.6, 2), "nonogram18x18": (18, 18, 0.5, 1)}}[name]
    problem = knuth_compare.nonogram_problem(*shape)
else:
    from _data import KNUTH_DATA, require
    from excover import ExactCover
    problem = ExactCover.read(require(KNUTH_DATA / (name + ".dlx")))
problem.engine_input()
best = float("inf")
for _ in range(3):
    start = time.process_time()
    search = Search(problem, engine="bits")
    found = search.count()
    best = min(best, time.process_time() - start)
print(json.dumps([best, found, search.stats.nodes]))
"""


def run(src: str, name: str) -> tuple[float, int, int]:
    """The best CPU seconds of counting ``name`` with the checkout ``src``, its count and
    its nodes."""
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER.format(here=str(HERE), name=name)],
        env={**os.environ, "PYTHONPATH": src},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{name} with {src} failed:\n{done.stderr[-2000:]}")
    seconds, found, nodes = json.loads(done.stdout)
    return float(seconds), int(found), int(nodes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the src folder of the older checkout")
    parser.add_argument("new", help="the src folder of the newer checkout")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (best kept)")
    parser.add_argument("--only", nargs="*", help="inputs to run (default all)")
    args = parser.parse_args()
    names = [name for name in CASES if not args.only or name in args.only]
    best: dict[tuple[str, str], tuple[float, int, int]] = {}
    for _ in range(args.rounds):
        for name in names:
            for side in ("old", "new"):
                seconds, found, nodes = run(getattr(args, side), name)
                previous = best.get((name, side))
                if previous is not None and previous[1:] != (found, nodes):
                    raise SystemExit(f"{name}: {side} counted differently between rounds")
                if previous is None or seconds < previous[0]:
                    best[name, side] = (seconds, found, nodes)
    print("| input | solutions | nodes | old (s) | new (s) | new / old |")
    print("|---|--:|--:|--:|--:|--:|")
    for name in names:
        old, new = best[name, "old"], best[name, "new"]
        if old[1:] != new[1:]:
            raise SystemExit(f"{name}: the checkouts disagree: {old[1:]} against {new[1:]}")
        print(
            f"| {name} | {old[1]:,} | {old[2]:,} | {old[0]:.4f} | {new[0]:.4f} "
            f"| {new[0] / old[0]:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
