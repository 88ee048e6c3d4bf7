"""The SAT method on the command line: ``count|solve --method sat``.

``--solver NAME`` and ``--amo NAME`` choose the solver and the at-most-one encoding (see
:mod:`excover.sat.solve`); ``--timeout`` and ``--limit`` bound the run as they do for
dancing links (the solver honours both itself). A count takes the API's route
(:func:`excover.sat.solve.counted`); Ctrl-C stops it with no partial count (the race
against ganak keeps none), while a listing keeps the solutions printed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from excover.cli.common import time_left
from excover.cli.outcome import Outcome
from excover.errors import LimitReached

if TYPE_CHECKING:
    from excover.solving import ExactCover

__all__ = ["count_sat", "solve_sat"]


def _engine(algorithm: str, amo: str) -> str:
    return f"{algorithm}, amo {amo}"


def count_sat(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """Count ``problem`` with the SAT back end, as ``p.count(method="sat")`` does."""
    from excover.sat.solve import DEFAULT_SOLVER, counted

    amo = getattr(args, "amo", None) or "auto"
    solver = getattr(args, "solver", None)
    started = time.monotonic()
    stats: dict[str, Any]
    try:
        stats = counted(
            problem, solver, amo, timeout=time_left(args), max_solutions=args.limit
        ).as_dict()
    except LimitReached as stop:
        stats = stop.stats.as_dict()
    except KeyboardInterrupt:
        stats = {
            "solutions": None,
            "seconds": time.monotonic() - started,
            "stopped_by": "interrupt",
            "algorithm": f"SAT ({solver or DEFAULT_SOLVER})",
        }
    stopped_by = {"max_solutions": "limit"}.get(stats["stopped_by"], stats["stopped_by"])
    stats.update(stopped_by=stopped_by, complete=stopped_by is None, amo=amo)
    return Outcome("sat", _engine(stats["algorithm"], amo), stats["solutions"], stopped_by, stats)


def solve_sat(
    problem: ExactCover, args: argparse.Namespace, emit: Callable[[list[int]], None]
) -> Outcome:
    """Emit the solutions found by the SAT back end as they come."""
    from excover.sat.solve import DEFAULT_SOLVER, solutions

    amo = getattr(args, "amo", None) or "auto"
    solver = getattr(args, "solver", None) or DEFAULT_SOLVER
    found = 0
    stopped_by: str | None = None
    started = time.monotonic()
    try:
        for solution in solutions(problem, solver, amo, args.limit, timeout=time_left(args)):
            found += 1
            emit(solution)
    except LimitReached:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if stopped_by is None and args.limit is not None and found == args.limit:
        stopped_by = "limit"
    stats = {
        "solutions": found,
        "seconds": time.monotonic() - started,
        "complete": stopped_by is None,
        "stopped_by": stopped_by,
        "algorithm": f"SAT ({solver})",
        "amo": amo,
    }
    return Outcome("sat", _engine(f"SAT ({solver})", amo), found, stopped_by, stats)
