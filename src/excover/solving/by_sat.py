"""A run by a SAT solver (``method="sat"``): the solver and the at-most-one encoding of
the request (see :mod:`excover.sat.solve`), bounded by its deadline and solution limit
(the solver honours both itself). A count takes the API's route
(:func:`excover.sat.solve.counted`); Ctrl-C stops it with no partial count (the race
against ganak keeps none), while a listing keeps the solutions handed over."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from excover.errors import LimitReached
from excover.solving.outcome import Outcome

if TYPE_CHECKING:
    from excover.problem import Problem
    from excover.solving.request import Request

__all__ = ["count", "solutions"]


def _engine(algorithm: str, amo: str) -> str:
    return f"{algorithm}, amo {amo}"


def count(problem: Problem, request: Request) -> Outcome:
    """Count with the SAT back end, as ``p.count(method="sat")`` does."""
    from excover.sat.solve import DEFAULT_SOLVER, counted

    amo = request.amo or "auto"
    solver = request.solver
    started = time.monotonic()
    stats: dict[str, Any]
    try:
        stats = counted(
            problem, solver, amo, timeout=request.time_left(), max_solutions=request.limit
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


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution the SAT back end finds to ``emit`` as it comes."""
    from excover.sat.solve import DEFAULT_SOLVER
    from excover.sat.solve import solutions as sat_solutions

    amo = request.amo or "auto"
    solver = request.solver or DEFAULT_SOLVER
    limit = request.limit
    found = 0
    stopped_by: str | None = None
    started = time.monotonic()
    try:
        for solution in sat_solutions(problem, solver, amo, limit, timeout=request.time_left()):
            emit(solution)
            found += 1  # counted once handed out: a stop inside emit leaves it out
    except LimitReached:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if stopped_by is None and limit is not None and found == limit:
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
