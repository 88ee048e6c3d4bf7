"""Old against new: the same workloads timed on two checkouts of excover, in one run.

A change that should not alter speed (a fix, a redesign) is checked by timing fixed
workloads on the checkout before it and the checkout after it, side by side: each
workload runs in a fresh process of each checkout in turn (``PYTHONPATH`` pointing at the
checkout's ``src``, its extensions built in place), ``--rounds`` times interleaved, so a
slow spell of the machine hits both alike. Every cell is the best of its rounds, in
seconds of CPU time of the timed call (the process's own CPU, steadier than the wall
clock on a shared machine); the ratio is new / old. Each workload also prints a check
value (a count, a number of solved puzzles) that must be equal on both sides.
The search method is named ``SEARCH`` in the workloads: ``"search"``, or ``"dlx"`` on a
checkout from before issue #59 renamed it.

Workloads: search (pento6x10 on the default engine, 13 queens on dancing links),
counting (domino tilings of 16x16 by the frontier route, the ZDD of 12 queens), Sudoku
(the batch solver on 500 generated puzzles, 40 times over) and nonograms (40 random 30x30
puzzles classified).

``--extra`` adds longer ones (``EXTRA``): pento6x10 on each engine on its own, the ZDD of
13 queens, 20x20 dominoes, 13 queens by components, 150 counts of 16x16 Sudoku puzzles.

Usage: ``python benchmarks/compare_builds.py OLD_SRC NEW_SRC [--rounds N] [--extra]``, where each
``*_SRC`` is the ``src`` folder of a checkout built with ``python setup.py build_ext
--inplace`` (for example a ``git worktree`` of the older commit).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["EXTRA", "WORKLOADS", "main"]

_REPO = Path(__file__).resolve().parent.parent

#: Each workload: (setup, timed statement, check expression), run in a fresh process.
WORKLOADS: dict[str, tuple[str, str, str]] = {
    "search: pento6x10 (auto engine)": (
        f"import excover as xc; p = xc.ExactCover.from_dlx(open({str(_REPO)!r} + "
        "'/examples/pento6x10.dlx').read())",
        "result = p.count(method=SEARCH)",
        "result",
    ),
    "search: 13 queens (dancing links)": (
        "from excover.puzzles import queens; p = queens.queens(13)",
        "result = p.count(method=SEARCH, engine='dlx')",
        "result",
    ),
    "counting: dominoes 16x16 (frontier)": (
        "from excover.tiling import Pattern, Tile, Tiling\n"
        "t = Tiling(Pattern.from_ascii('\\n'.join(['*' * 16] * 16)), "
        "[Tile(Pattern.from_ascii('**'), multiplicity='any', symmetry='all')])",
        "result = t.count(method='zdd')",
        "result",
    ),
    "counting: ZDD of 12 queens": (
        "from excover.puzzles import queens; p = queens.queens(12)",
        "result = p.zdd().count()",
        "result",
    ),
    "sudoku: 500 puzzles solved 40 times": (
        "from excover.puzzles import sudoku\n"
        "puzzles = [sudoku.generate(seed=s) for s in range(500)] * 40",
        "result = sudoku.solve_many(puzzles)",
        "sum(r is not None for r in result)",
    ),
    "nonogram: 40 random 30x30 classified": (
        "import random\n"
        "from excover.puzzles import nonogram\n"
        "puzzles = []\n"
        "for s in range(40):\n"
        "    pic = nonogram.random_picture(30, 30, 0.55, random.Random(s))\n"
        "    rows = [nonogram.clue_of(line) for line in pic]\n"
        "    cols = [nonogram.clue_of(''.join(c)) for c in zip(*pic, strict=True)]\n"
        "    puzzles.append((rows, cols))",
        "result = [nonogram.classify(rows, cols) for rows, cols in puzzles]",
        "sorted(map(str, result))",
    ),
}

_PENTO = (
    f"import excover as xc; p = xc.ExactCover.from_dlx(open({str(_REPO)!r} + "
    "'/examples/pento6x10.dlx').read())"
)

#: Longer workloads, with ``--extra``: each search engine on its own, larger counts, the
#: component count and the general Sudoku solver (a change to how every module is built
#: touches them all).
EXTRA: dict[str, tuple[str, str, str]] = {
    "search: pento6x10 (bit-parallel engine)": (
        _PENTO,
        "result = p.count(method=SEARCH, engine='bits')",
        "result",
    ),
    "search: pento6x10 (dancing links)": (
        _PENTO,
        "result = p.count(method=SEARCH, engine='dlx')",
        "result",
    ),
    "search: pento6x10 (dancing cells)": (
        _PENTO,
        "result = p.count(method=SEARCH, engine='cells')",
        "result",
    ),
    "counting: ZDD of 13 queens": (
        "from excover.puzzles import queens; p = queens.queens(13)",
        "result = p.zdd().count()",
        "result",
    ),
    "counting: dominoes 20x20 (frontier)": (
        "from excover.tiling import Pattern, Tile, Tiling\n"
        "t = Tiling(Pattern.from_ascii('\\n'.join(['*' * 20] * 20)), "
        "[Tile(Pattern.from_ascii('**'), multiplicity='any', symmetry='all')])",
        "result = t.count(method='zdd')",
        "result",
    ),
    "counting: 13 queens by components": (
        "from excover.puzzles import queens\n"
        "from excover.counting import components\n"
        "p = queens.queens(13)",
        "result = components.count(p)",
        "result",
    ),
    "sudoku: 16x16, 3 puzzles counted 50 times": (
        "from excover.puzzles import sudoku\n"
        "puzzles = [sudoku.generate(box=(4, 4), seed=s) for s in range(3)] * 50",
        "result = [sudoku.count(x, box=(4, 4)) for x in puzzles]",
        "result",
    ),
}

_RUNNER = """
import json, sys, time
try:
    from excover.names import canonical_method
    SEARCH = "search"
except ImportError:  # a checkout from before the method "dlx" was renamed "search"
    SEARCH = "dlx"
{setup}
start = time.process_time()
{timed}
seconds = time.process_time() - start
print(json.dumps({{"seconds": seconds, "check": repr({check})}}))
"""


def run_once(src: str, name: str) -> tuple[float, str]:
    """Run workload ``name`` in a fresh process importing excover from ``src``."""
    setup, timed, check = {**WORKLOADS, **EXTRA}[name]
    code = _RUNNER.format(setup=setup, timed=timed, check=check)
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{name} failed under {src}:\n{done.stderr}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return float(answer["seconds"]), str(answer["check"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the src folder of the older checkout")
    parser.add_argument("new", help="the src folder of the newer checkout")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs (default 3)")
    parser.add_argument("--only", nargs="*", help="workloads whose name contains one of these")
    parser.add_argument("--extra", action="store_true", help="the longer workloads too")
    args = parser.parse_args(argv)
    workloads = {**WORKLOADS, **EXTRA} if args.extra else WORKLOADS
    names = [n for n in workloads if not args.only or any(w in n for w in args.only)]
    print("| workload | old s | new s | new/old | same answer |")
    print("|---|---|---|---|---|")
    for name in names:
        best = {"old": float("inf"), "new": float("inf")}
        checks: dict[str, str] = {}
        for _ in range(args.rounds):
            for side, src in (("old", args.old), ("new", args.new)):
                seconds, check = run_once(src, name)
                best[side] = min(best[side], seconds)
                checks[side] = check
        same = "yes" if checks["old"] == checks["new"] else "NO"
        ratio = best["new"] / best["old"]
        print(f"| {name} | {best['old']:.3f} | {best['new']:.3f} | {ratio:.2f} | {same} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
