"""The runner of a SAT solver (``method="sat"``): the solver and the at-most-one
encoding of the request (see :mod:`excover.sat.solve`), bounded by its deadline and
solution limit (the solver honours both itself). A count takes the API's route
(:func:`excover.sat.solve.counted`); Ctrl-C stops it with no partial count (the race
against ganak keeps none), while a listing keeps the solutions handed over. The outcome
keeps the stop as the solver raised it, for the API."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from excover.counting.outcome import Outcome, stop_reason
from excover.errors import LimitReached

if TYPE_CHECKING:
    from excover.counting.request import MethodRequest
    from excover.problem import Problem

__all__ = ["SatListing", "count", "listing"]


def _engine(algorithm: str, amo: str) -> str:
    return f"{algorithm}, amo {amo}"


def count(problem: Problem, request: MethodRequest) -> Outcome:
    """Count with the SAT back end, as ``p.count(method="sat")`` does."""
    from excover.sat.solve import DEFAULT_SOLVER, counted

    amo = request.amo or "auto"
    solver = request.solver
    started = time.monotonic()
    stats: dict[str, Any]
    error: BaseException | None = None
    try:
        stats = counted(
            problem, solver, request.amo, timeout=request.time_left(), max_solutions=request.limit
        ).as_dict()
    except LimitReached as stop:
        stats, error = stop.stats.as_dict(), stop
    except KeyboardInterrupt as stop:
        error = stop
        stats = {
            "solutions": None,
            "seconds": time.monotonic() - started,
            "stopped_by": "interrupt",
            "algorithm": f"SAT ({solver or DEFAULT_SOLVER})",
        }
    stopped_by = {"max_solutions": "limit"}.get(stats["stopped_by"], stats["stopped_by"])
    stats.update(stopped_by=stopped_by, complete=stopped_by is None, amo=amo)
    engine = _engine(stats["algorithm"], amo)
    return Outcome("sat", engine, stats["solutions"], stopped_by, stats, error=error)


class SatListing:
    """The solutions the SAT back end finds, as it finds them (a
    :class:`~excover.counting.outcome.Listing`), within the request's deadline and
    limit, which the solver honours itself."""

    def __init__(self, problem: Problem, request: MethodRequest) -> None:
        from excover.sat.solve import DEFAULT_SOLVER
        from excover.sat.solve import solutions as sat_solutions

        self.amo = request.amo or "auto"
        self.solver = request.solver or DEFAULT_SOLVER
        self.limit = request.limit
        self.started = time.monotonic()
        self.found = sat_solutions(
            problem, request.solver, request.amo, request.limit, timeout=request.time_left()
        )

    def __iter__(self) -> Iterator[list[int]]:
        return self.found

    def guard(self) -> AbstractContextManager[object]:
        """Nothing to set up: the solver keeps its deadline itself."""
        return contextlib.nullcontext()

    def outcome(self, found: int, error: BaseException | None) -> Outcome:
        """The listing once ``found`` solutions were handed over."""
        stopped_by: str | None = None if error is None else stop_reason(error)
        if stopped_by is None and self.limit is not None and found == self.limit:
            stopped_by = "limit"
        algorithm = f"SAT ({self.solver})"
        stats = {
            "solutions": found,
            "seconds": time.monotonic() - self.started,
            "complete": stopped_by is None,
            "stopped_by": stopped_by,
            "algorithm": algorithm,
            "amo": self.amo,
        }
        return Outcome("sat", _engine(algorithm, self.amo), found, stopped_by, stats, error=error)


def listing(problem: Problem, request: MethodRequest) -> SatListing:
    """The solutions as :class:`SatListing` finds them."""
    return SatListing(problem, request)
