"""``excover count|solve --method sat``: the SAT back end on the command line.

Kept apart from :mod:`excover.cli` so that the command's own module stays about dancing
links. ``--solver NAME`` and ``--amo NAME`` choose the solver and the at-most-one
encoding (see :mod:`excover.sat.solve`); ``--timeout`` bounds the whole run as it does for
dancing links (exit status 1, partial result printed), and Ctrl-C stops it (exit status
130). The dancing-links options (``--heuristic``, ``--seed``, ``--max-nodes``) are refused.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from excover.errors import LimitReached, UsageError
from excover.problem import ExactCover
from excover.sat.solve import DEFAULT_SOLVER, counted, solutions

__all__ = ["check_sat_flags", "count_sat", "solve_sat"]

#: Exit statuses, as in :mod:`excover.cli`.
_EXIT_OK, _EXIT_LIMIT, _EXIT_INTERRUPT = 0, 1, 130


def check_sat_flags(args: argparse.Namespace) -> None:
    """Refuse ``--solver``/``--amo`` without ``--method sat``, and the dancing-links
    options with it."""
    if args.method != "sat":
        given = [flag for flag, value in (("--solver", args.solver), ("--amo", args.amo)) if value]
        if given:
            raise UsageError(f"{' and '.join(given)} go with --method sat, not {args.method}")
        return
    search_options = [
        flag
        for flag, given in [
            ("--heuristic", args.heuristic != "mrv"),
            ("--seed", args.seed is not None),
            ("--max-nodes", args.max_nodes is not None),
        ]
        if given
    ]
    if search_options:
        raise UsageError(f"--method sat does not take {', '.join(search_options)}")


def _stopped(stats: dict[str, Any]) -> None:
    """Say on stderr that --timeout stopped the run, and how far it got."""
    print(
        f"excover: stopped by --timeout after {stats['seconds']:.3f} s; the result is "
        f"partial ({stats['solutions']} solutions found)",
        file=sys.stderr,
    )


def _stats_lines(stats: dict[str, Any], amo: str) -> str:
    """The statistics of a SAT run for people, one ``name: value`` per line."""
    state = "complete" if stats["stopped_by"] is None else f"stopped by {stats['stopped_by']}"
    return "\n".join(
        [
            f"solutions: {stats['solutions']}",
            f"time: {stats['seconds']:.3f} s",
            f"method: sat, {stats['algorithm']}, amo {amo}",
            f"search: {state}",
        ]
    )


def count_sat(problem: ExactCover, args: argparse.Namespace) -> int:
    """Count ``problem`` with the SAT back end, print the result (and, with ``--stats``,
    the time and the counter used on stderr); return the exit status."""
    amo = args.amo or "auto"
    try:
        stats = counted(problem, args.solver, amo, timeout=args.timeout).as_dict()
    except LimitReached as stop:
        stats = stop.stats.as_dict()
    if args.json:
        result = {"count": stats["solutions"], "complete": stats["complete"], "method": "sat"}
        print(json.dumps({**result, "solver": args.solver, "amo": amo, "stats": stats}))
    else:
        print(stats["solutions"])
    sys.stdout.flush()
    if stats["stopped_by"] is not None:
        _stopped(stats)
    if args.stats:
        print(_stats_lines(stats, amo), file=sys.stderr)
    return _EXIT_OK if stats["stopped_by"] is None else _EXIT_LIMIT


def solve_sat(problem: ExactCover, args: argparse.Namespace) -> int:
    """Print the solutions found by the SAT back end as they come (in the format of
    ``excover solve``); return the exit status."""
    from excover.cli import _json_entry, _text_entry

    amo = args.amo or "auto"
    solver = args.solver or DEFAULT_SOLVER
    entry = _json_entry if args.json else _text_entry
    out = sys.stdout
    found = 0
    stopped_by: str | None = None
    started = time.monotonic()
    if args.json:
        out.write('{"solutions": [')
        out.flush()  # a reader sees at once that the run has started
    try:
        for solution in solutions(problem, solver, amo, args.limit, timeout=args.timeout):
            found += 1
            out.write(entry(problem, solution, found))
            out.flush()
    except LimitReached:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if stopped_by is None and args.limit is not None and found == args.limit:
        stopped_by = "max_solutions"
    stats = {
        "solutions": found,
        "seconds": time.monotonic() - started,
        "complete": stopped_by is None,
        "stopped_by": stopped_by,
        "algorithm": f"SAT ({solver})",
    }
    if args.json:
        tail = {"complete": stopped_by is None, "method": "sat", "solver": solver, "amo": amo}
        out.write(f"\n], {json.dumps({**tail, 'stats': stats})[1:]}\n")
    elif found == 0 and stopped_by is None:
        print("excover: no solution", file=sys.stderr)
    out.flush()
    if stopped_by == "timeout":
        _stopped(stats)
    if args.stats or stopped_by == "interrupt":
        print(_stats_lines(stats, amo), file=sys.stderr)
    if stopped_by == "interrupt":
        return _EXIT_INTERRUPT
    return _EXIT_LIMIT if stopped_by == "timeout" else _EXIT_OK
