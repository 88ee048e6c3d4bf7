"""count(method="auto") with its own preprocessing (the default) against preprocess=False.

Issue #45 asks for preprocessing on by default where it is safe, with no regression on
any row of the performance tables. ``count()`` preprocesses on its own once the race's
search projects a long count (:data:`excover.counting.choice.PREPROCESS_ABOVE`); this
script shows what that changes: for each input, the CPU time of ``count()`` as it is and
of ``count(preprocess=False)``, each in a fresh process (the imports preprocessing needs
count against it, as for a user), the rounds interleaved and the least time kept, the
ratio (default over off), and what the default did (nothing, or the options and items
preprocessing removed before the count went on on the smaller problem). Every count is
checked against the other.

Inputs: Knuth's files of tests/data/knuth (those plain dancing links counts: not the
dominoes of 10x10 and 12x12), the two XCC nonograms of benchmarks/knuth_compare.py, and
the queens of 15 (a long count where nothing is removed: the cost of looking).

Usage: ``python benchmarks/preprocess_default.py [--rounds R] [--match REGEX]``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
KNUTH = HERE.parent / "tests" / "data" / "knuth"
#: Knuth's files whose plain count is not a search's (the frontier count takes them at
#: once: preprocessing never comes into play) or too long for dancing links.
SKIPPED = {"domino6x6.dlx", "domino8x8.dlx", "domino10x10.dlx", "domino12x12.dlx"}

#: The child: build or read the input, count it once, print the CPU time of the count,
#: the count and what the default's preprocessing did, as JSON.
CHILD = r"""
import json, sys, time
sys.path.insert(0, {benchmarks!r})
from excover import ExactCover
from excover.counting import choice
name, preprocess = sys.argv[1], sys.argv[2] == "on"
if name.startswith("nonogram"):
    from knuth_compare import nonogram_problem
    # the two of knuth_compare.py (2 solutions each)
    shape = {{"nonogram20x20": (20, 20, 0.6, 2), "nonogram18x18": (18, 18, 0.5, 1)}}[name]
    problem = nonogram_problem(*shape)
elif name.startswith("queens"):
    from excover.puzzles.queens import queens
    problem = queens(int(name[6:]))
else:
    problem = ExactCover.read(name)
problem.engine_input()
started = time.process_time()
found = choice.count(problem, preprocess=preprocess)
seconds = time.process_time() - started
done = found.preprocessed
print(json.dumps({{
    "seconds": seconds,
    "count": found.count,
    "route": found.route,
    "switched": found.reason.startswith("preprocessed"),
    "removed": None if done is None else [done.options_removed, done.items_removed],
}}))
"""


def run(name: str, setting: str) -> dict[str, object]:
    """One count in a fresh process."""
    code = CHILD.format(benchmarks=str(HERE))
    out = subprocess.run(
        [sys.executable, "-c", code, name, setting], capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(out.stdout)
    return found


def inputs() -> list[tuple[str, str]]:
    """(label, what the child reads) for every input."""
    found = [
        (path.stem, str(path)) for path in sorted(KNUTH.glob("*.dlx")) if path.name not in SKIPPED
    ]
    return [
        *found,
        ("nonogram20x20", "nonogram20x20"),
        ("nonogram18x18", "nonogram18x18"),
        ("queens15", "queens15"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--match", default=None, help="only the inputs matching REGEX")
    args = parser.parse_args(argv)
    print("| input | count | default s | off s | default/off | what the default did |")
    print("|---|--:|--:|--:|--:|---|")
    worst, mismatches = 0.0, 0
    for label, source in inputs():
        if args.match is not None and not re.search(args.match, label):
            continue
        best = {"on": float("inf"), "off": float("inf")}
        seen: dict[str, dict[str, object]] = {}
        for _ in range(args.rounds):
            for setting in ("on", "off"):
                found = run(source, setting)
                seen[setting] = found
                best[setting] = min(best[setting], float(found["seconds"]))  # type: ignore[arg-type]
        on, off = seen["on"], seen["off"]
        if on["count"] != off["count"]:
            mismatches += 1
        ratio = best["on"] / best["off"]
        worst = max(worst, ratio)
        if on["switched"]:
            removed: list[int] = on["removed"]  # type: ignore[assignment]
            did = (
                f"preprocessed ({removed[0]} options, {removed[1]} items removed), "
                f"then {on['route']}"
            )
        elif on["removed"] is not None:
            did = f"preprocessing removed nothing; {on['route']}"
        else:
            did = f"no preprocessing (a short count); {on['route']}"
        mark = "" if on["count"] == off["count"] else " MISMATCH"
        print(
            f"| {label} | {on['count']:,} | {best['on']:.3f} | {best['off']:.3f} | "
            f"{ratio:.2f} | {did}{mark} |",
            flush=True,
        )
    print(f"worst default/off {worst:.2f}; {mismatches} mismatches; {time.strftime('%F %T')}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
