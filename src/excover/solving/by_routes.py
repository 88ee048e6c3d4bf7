"""A count by the choice of routes (``method="auto"``): the count of
:func:`excover.counting.count` (the frontier count, the parts route, or the race of
routes), or the one route the request forces; the deadline and Ctrl-C stop it with the
partial count of the race's search (none if no search ran). The outcome says which route
finished and why (:func:`route_report`)."""

from __future__ import annotations

import time

from excover.errors import LimitReached
from excover.names import ENGINE_NAMES
from excover.solving.outcome import Outcome, search_engine, search_stats

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from typing import Any

    from excover.counting import CountResult
    from excover.preprocess import PreprocessStats
    from excover.problem import Problem
    from excover.solving.request import Request

__all__ = ["count", "preprocessing_stats", "route_report"]


def route_report(found: CountResult) -> dict[str, Any]:
    """The route that finished, why, and each route's seconds, search nodes and steps
    (the ``route`` of an :class:`~excover.solving.outcome.Outcome`)."""
    work = {
        name: {"seconds": done.seconds, "nodes": done.nodes, "steps": done.steps}
        for name, done in found.work.items()
    }
    return {"name": found.route, "reason": found.reason, "work": work}


def count(problem: Problem, request: Request) -> Outcome:
    """Count by the choice of routes, or by the route ``request.route`` forces."""
    from excover.counting import ROUTES, choice
    from excover.counting.routes import SearchRunner

    started = time.perf_counter()
    # True: preprocessed already; False: never; None: the race decides
    automatic = request.preprocess is None
    plan = choice.plan(
        problem, request.route, request.engine, request.time_left(), preprocess=automatic
    )
    try:
        found = choice.run(plan, started)
    except (LimitReached, KeyboardInterrupt) as error:
        stopped_by = "timeout" if isinstance(error, LimitReached) else "interrupt"
        partial = choice.partial(plan.runners, time.perf_counter() - started)
        stats = {**partial.as_dict(), "stopped_by": stopped_by, "complete": False}
        stats["seconds"] = time.perf_counter() - started
        searched = partial.engine in ENGINE_NAMES  # else no route has a partial count
        return Outcome("auto", None, partial.solutions if searched else None, stopped_by, stats)
    counted = (r for r in plan.runners if isinstance(r, SearchRunner) and r.count is not None)
    search = next((r.search for r in counted), None)
    if search is not None and search.engine == found.route:  # the search counted
        stats = search_stats(search, None)
        stats.update(preprocessing_stats(found.preprocessed))
        return Outcome("dlx", search_engine(search), found.count, None, stats, route_report(found))
    stats = {"solutions": found.count, "nodes": found.work[found.route].nodes}
    stats.update(seconds=found.seconds, complete=True, stopped_by=None)
    stats.update(preprocessing_stats(found.preprocessed))
    engine = ROUTES[found.route].about
    return Outcome(found.method, engine, found.count, None, stats, route_report(found))


def preprocessing_stats(done: PreprocessStats | None) -> dict[str, Any]:
    """What preprocessing did (options and items removed, forced options, its rounds
    and seconds, why it was skipped), as statistics; none when it did not run."""
    if done is None:
        return {}
    fields: dict[str, Any] = {
        "options_removed": done.options_removed,
        "items_removed": done.items_removed,
        "forced_options": len(done.forced),
        "preprocess_rounds": done.rounds,
        "preprocess_seconds": round(done.seconds, 6),
    }
    if not done.complete:
        fields["preprocess_complete"] = False
    if done.skipped is not None:
        fields["preprocess_skipped"] = done.skipped
    return fields
