"""What a solving run found (:class:`Outcome`): the one answer of every method.

Every front end that solves a problem (the command line, ``.cmb`` programs, the studio)
gets an ``Outcome`` from :mod:`excover.solving.registry`, whatever method ran, and
renders it: the count (or the number of solutions listed), the method and the engine or
route that did the work, the statistics, and why the run stopped early, if it did.
"""

from __future__ import annotations

from excover.names import ENGINE_NAMES

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.engines import Search

__all__ = ["Outcome", "search_engine", "search_stats"]


class Outcome:
    """What a run found: the method and engine that ran, the count (of the solutions
    counted or listed; None when a stopped method has no partial count), why it stopped
    early (None: it finished; else a key of :data:`STOP_REASONS`), its statistics, and
    for a count by ``method="auto"`` the route that finished and why (``name``,
    ``reason``, each route's ``work``). (A plain class: dataclasses would cost the
    command's start-up the import of ``inspect``.)"""

    def __init__(
        self,
        method: str,
        engine: str | None,
        count: int | None,
        stopped_by: str | None,
        stats: dict[str, Any] | None = None,
        route: dict[str, Any] | None = None,
    ) -> None:
        self.method = method
        self.engine = engine
        self.count = count
        self.stopped_by = stopped_by
        self.stats: dict[str, Any] = {} if stats is None else stats
        self.route = route

    def __repr__(self) -> str:
        return (
            f"Outcome(method={self.method!r}, engine={self.engine!r}, count={self.count!r}, "
            f"stopped_by={self.stopped_by!r})"
        )

    def _repr_html_(self) -> str:
        """What a notebook shows: the count, method, engine, why it stopped, the
        statistics and, after a count by ``auto``, what each route did
        (:mod:`excover.display`)."""
        from excover.display import record_html

        route = self.route or {}
        facts = {"count": self.count, "method": self.method, "engine": self.engine}
        facts["stopped_by"] = self.stopped_by
        facts.update((k, v) for k, v in self.stats.items() if k not in facts)
        if route:
            facts.update({"route": route.get("name"), "reason": route.get("reason")})
        return record_html("outcome", "Outcome", facts.items(), route.get("work"))


#: Why a run may stop before its end.
STOP_REASONS = ("timeout", "max_nodes", "limit", "interrupt", "max_memory")


def search_engine(search: Search) -> str:
    """How outputs name a search run: the engine, the algorithm and the item choice."""
    heuristic = search.heuristic
    if heuristic == "random":
        heuristic += f", seed {search.seed}"
    return f"{ENGINE_NAMES[search.engine]}, Algorithm {search.stats.algorithm} ({heuristic})"


def search_stats(search: Search, stopped_by: str | None) -> dict[str, Any]:
    """The statistics of a search run, with what stopped it as the caller saw it."""
    stats = search.stats.as_dict()
    stats["stopped_by"] = stopped_by
    stats["complete"] = stopped_by is None
    stats["heuristic"] = search.heuristic
    stats["seed"] = search.seed if search.heuristic == "random" else None
    return stats
