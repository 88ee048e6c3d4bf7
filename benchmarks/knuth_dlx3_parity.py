"""Compare excover's statistics with Knuth's DLX1, DLX2 and DLX3 on random problems.

Each problem (random multiplicities on the primary items, colors on some secondary uses)
is written in Knuth's format and solved by excover's dancing links with the MRV
heuristic and by the Knuth program of the algorithm excover ran: DLX1 for Algorithm X,
DLX2 for C (colors), DLX3 for M (multiplicities). The three figures Knuth's programs
print (solutions, nodes, updates) must be equal. They are built from Knuth's CWEB
sources into ``--knuth DIR`` (default ``~/.cache/excover-bench/knuth``); without them the
script says so and stops with status 2.

Usage: ``python benchmarks/knuth_dlx3_parity.py [--problems N] [--seed S] [--knuth DIR]``.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from excover import ExactCover, Search

__all__ = ["main"]

DEFAULT_KNUTH = Path.home() / ".cache" / "excover-bench" / "knuth"

#: Knuth's program for each of excover's algorithms.
PROGRAMS = {"X": "dlx1", "C": "dlx2", "M": "dlx3"}

#: DLX3's closing line: "Altogether S solutions, ... U updates, ... N nodes, ...".
TOTALS = re.compile(r"Altogether (\d+) solutions?,.* (\d+) updates?,.* (\d+) nodes?")


def random_problem(rng: random.Random) -> ExactCover:
    """A small random MCC problem: up to 6 primary items with bounds lo..hi, up to 3
    secondary items used with or without one of two colors, up to 14 options."""
    n_primary, n_secondary = rng.randint(1, 6), rng.randint(0, 3)
    primary = [f"p{k}" for k in range(n_primary)]
    secondary = [f"s{k}" for k in range(n_secondary)]
    problem = ExactCover(primary=primary, secondary=secondary)
    for name in primary:
        hi = rng.randint(1, 3)
        problem.set_multiplicity(name, rng.randint(0, hi), hi)
    for _ in range(rng.randint(0, 14)):
        items = rng.sample(primary, rng.randint(1, n_primary))
        for name in rng.sample(secondary, rng.randint(0, n_secondary)):
            items.append(name + rng.choice(["", ":r", ":b"]))
        problem.add_option(items)
    return problem


def knuth(program: Path, problem: ExactCover) -> tuple[int, int, int]:
    """The (solutions, nodes, updates) that one of Knuth's programs prints."""
    done = subprocess.run(
        [str(program)], input=problem.to_dlx(), capture_output=True, text=True, check=True
    )
    match = TOTALS.search(done.stderr)
    if match is None:
        raise RuntimeError(f"unexpected output of {program.name}:\n{done.stderr}")
    solutions, updates, nodes = (int(v) for v in match.groups())
    return solutions, nodes, updates


def ours(problem: ExactCover) -> tuple[str, tuple[int, int, int]]:
    """The algorithm excover ran (X, C or M) and its (solutions, nodes, updates)."""
    search = Search(problem, heuristic="mrv")
    search.count()
    stats = search.stats
    return stats.algorithm, (stats.solutions, stats.nodes, stats.updates)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--knuth", type=Path, default=DEFAULT_KNUTH)
    args = parser.parse_args(argv)
    missing = [name for name in PROGRAMS.values() if not (args.knuth / name).exists()]
    if missing:
        print(f"missing in {args.knuth}: {', '.join(missing)} (build Knuth's CWEB sources)")
        return 2
    rng = random.Random(args.seed)
    runs = dict.fromkeys(PROGRAMS, 0)
    differ = 0
    for number in range(args.problems):
        problem = random_problem(rng)
        algorithm, mine = ours(problem)
        program = PROGRAMS[algorithm]
        theirs = knuth(args.knuth / program, problem)
        runs[algorithm] += 1
        if theirs != mine:
            differ += 1
            if differ <= 5:
                print(f"problem {number}: {program} {theirs}, excover {mine}")
                print(problem.to_dlx())
    by_program = ", ".join(f"{PROGRAMS[a]} {n}" for a, n in runs.items())
    same = args.problems - differ
    print(f"{same} of {args.problems} random problems ({by_program}): the same solutions,")
    print("nodes and updates as Knuth's program for the algorithm excover ran")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
