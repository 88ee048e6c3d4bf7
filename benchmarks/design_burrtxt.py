"""The top designs of a burr design search checked by BurrTools' ``burrTxt -d``.

A search declared as ``excover design`` reads it (a TOML file, see docs/design.md) is
run with ``--goal any`` semantics kept from the declaration, its top designs written as
solved ``.xmpuzzle`` files, and each file given to ``burrTxt -d``: BurrTools must find
the same number of assemblies, the same number of solutions, and the level string of
each solution that excover reports for the design's hardest. The time of both programs
on the written designs is printed side by side (excover's: the design's own puzzle
assembled and taken apart again, as the search does it).

    python benchmarks/design_burrtxt.py BURRTXT DECLARATION.toml [--top 20]

Exit status 1 on any disagreement. BURRTXT is BurrTools' command-line solver, built from
github.com/burr-tools/burr-tools (as for benchmarks/burr_differential.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from burr_differential import burrtxt

from excover.burr.designs import BurrDesigns
from excover.design import Goal, read_declaration, search


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("burrtxt", help="BurrTools' burrTxt")
    parser.add_argument("declaration", help="a burrs declaration (TOML)")
    parser.add_argument("--top", type=int, default=20, help="how many designs to check")
    args = parser.parse_args()

    declaration = read_declaration(args.declaration)
    space = BurrDesigns.declared(declaration.fields)
    declared = Goal.from_table(declaration.goal)
    by = declared.by if declared.by != "solutions" else "level"
    goal = Goal(declared.solutions, top=args.top, by=by)
    print(space.describe(), flush=True)
    report = search(space, goal)
    print(
        f"searched {report.designs:,} designs in {report.seconds:.1f} s (load "
        f"{os.getloadavg()[0]:.1f}); checking the top {len(report.found)} with burrTxt -d"
    )
    bad = 0
    mine = theirs = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for found in report.found:
            design = space.design(found.index)
            assert design is not None
            path = Path(folder) / f"design-{found.index}.xmpuzzle"
            space.write(design, "xmpuzzle", path)
            started = time.perf_counter()
            results, _ = space.results(design)
            mine += time.perf_counter() - started
            verdict = burrtxt(args.burrtxt, str(path), 600.0)
            theirs += verdict.seconds or 0.0
            levels = sorted(r.level or "" for r in results if r.status == "solved")
            level = ".".join(map(str, found.scores.get("level", ())))  # type: ignore[arg-type]
            agree = (
                verdict.assemblies == found.scores.get("assemblies")
                and verdict.solutions == found.solutions == len(levels)
                and sorted(verdict.levels.elements()) == levels
                and level in levels
            )
            bad += not agree
            print(
                f"{'agree' if agree else 'DISAGREE'}: {found.key}: excover "
                f"{found.scores.get('assemblies')} assemblies, {found.solutions} solutions, "
                f"level {level}; burrTxt {verdict.assemblies} assemblies, "
                f"{verdict.solutions} solutions, levels {dict(verdict.levels)}",
                flush=True,
            )
    print(
        f"{len(report.found) - bad} of {len(report.found)} agree; on these designs excover "
        f"{mine:.2f} s, burrTxt -d {theirs:.2f} s"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
