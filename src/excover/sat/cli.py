"""``excover count --method sat``: counting with the SAT back end, for the command line.

Kept apart from :mod:`excover.cli` so that the command's own module stays about dancing
links. The count comes from ganak when pyganak is installed, else from enumerating the
solutions with CaDiCaL (see :func:`excover.sat.count`).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time

from excover.errors import UsageError
from excover.problem import ExactCover
from excover.sat.solve import DEFAULT_SOLVER, count

__all__ = ["count_sat"]


def count_sat(problem: ExactCover, args: argparse.Namespace) -> int:
    """Count ``problem`` with the SAT back end, print the result (and, with ``--stats``,
    the time and the counter used on stderr); return the exit status."""
    search_options = [
        flag
        for flag, given in [
            ("--heuristic", args.heuristic != "mrv"),
            ("--seed", args.seed is not None),
            ("--timeout", args.timeout is not None),
            ("--max-nodes", args.max_nodes is not None),
        ]
        if given
    ]
    if search_options:
        raise UsageError(f"--method sat does not take {', '.join(search_options)}")
    counter = "ganak" if importlib.util.find_spec("pyganak") is not None else DEFAULT_SOLVER
    start = time.perf_counter()
    solutions = count(problem, counter)
    seconds = time.perf_counter() - start
    how = "ganak (projected model count)" if counter == "ganak" else f"{counter} (enumeration)"
    stats = {"solutions": solutions, "seconds": seconds, "method": "sat", "solver": counter}
    if args.json:
        print(json.dumps({"count": solutions, "complete": True, "method": "sat", "stats": stats}))
    else:
        print(solutions)
    sys.stdout.flush()
    if args.stats:
        lines = [f"solutions: {solutions}", f"time: {seconds:.3f} s", f"method: sat, {how}"]
        print("\n".join(lines), file=sys.stderr)
    return 0
