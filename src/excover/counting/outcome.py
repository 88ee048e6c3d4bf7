"""What a solving run found (:class:`Outcome`): the one answer of every method.

Each method has one runner (:mod:`excover.counting.methods`), and every run of it answers
with an ``Outcome``, whoever asked: the front ends (the API, the command line, ``.cmb``
programs, the studio, through :mod:`excover.solving.orchestrate`) render it: the count (or
the number of solutions listed), the method and the engine or route that did the work,
the statistics, and why the run stopped early, if it did; the API and the operations read
the count from it (:func:`count_of`), raising what stopped the run, as a search raises
it. A listing is read as it goes (:class:`Listing`): the API pulls its solutions, a front
end hands each to its printer (:func:`emitted`) and gets the ``Outcome`` at the end.
"""

from __future__ import annotations

from excover.deadlines import TimeUp
from excover.errors import LimitReached, MemoryBoundError
from excover.names import ENGINE_NAMES
from excover.records import Record, field

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from contextlib import AbstractContextManager
    from typing import Any, Protocol

    from excover.engines import Search
    from excover.statistics import Stats

    class Listing(Protocol):
        """The solutions of one run of a method, found as they are read.

        Iterated (the API), each solution comes as soon as the method finds it, and a
        stop raises what the API raises (:class:`~excover.LimitReached` at the deadline
        or ``max_nodes``, ``KeyboardInterrupt``, :class:`~excover.MemoryBoundError`); a
        ``limit`` ends it quietly. A front end reads it through :func:`emitted`, within
        :meth:`guard`, and gets the run's :meth:`outcome`."""

        def __iter__(self) -> Iterator[list[int]]: ...
        def guard(self) -> AbstractContextManager[object]:
            """What a front end's listing runs within: Ctrl-C noted rather than raised
            (the run stops cleanly between two steps), the alarm of a method that
            cannot stop at a deadline of its own."""
            ...

        def outcome(self, found: int, error: BaseException | None) -> Outcome:
            """The run once ``found`` solutions were handed over, stopped by ``error``
            (None: it ended, at its last solution or its limit)."""
            ...


__all__ = [
    "STOPS",
    "STOP_REASONS",
    "Outcome",
    "as_raised",
    "count_of",
    "emitted",
    "listing_stop",
    "search_engine",
    "search_stats",
    "stop_reason",
]


class Outcome(Record):
    """What a run found: the method and engine that ran, the count (of the solutions
    counted or listed; None when a stopped method has no partial count), why it stopped
    early (None: it finished; else a key of :data:`STOP_REASONS`), its statistics, and
    for a count by ``method="auto"`` the route that finished and why (``name``,
    ``reason``, each route's ``work``); ``error`` is what stopped it (None: it finished,
    or stopped at its ``limit``), which the API raises (:func:`count_of`). (A
    :class:`~excover.records.Record`: dataclasses would cost the command's start-up the
    import of ``inspect``.)"""

    method: str
    engine: str | None
    count: int | None
    stopped_by: str | None
    stats: dict[str, Any] = field(default_factory=dict)
    route: dict[str, Any] | None = None
    error: BaseException | None = None

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(method={self.method!r}, engine={self.engine!r}, "
            f"count={self.count!r}, stopped_by={self.stopped_by!r})"
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

#: What stops a run early, as the runs raise it: the limits of a search (and of a route,
#: a SAT solver), Ctrl-C, the alarm of a method without a deadline of its own, the
#: memory bound of a ZDD's tables.
STOPS = (LimitReached, KeyboardInterrupt, TimeUp, MemoryBoundError)


def stop_reason(error: BaseException) -> str:
    """The key of :data:`STOP_REASONS` that ``error`` (one of :data:`STOPS`) stands for."""
    if isinstance(error, LimitReached):
        return "limit" if error.reason == "max_solutions" else error.reason
    if isinstance(error, MemoryBoundError):
        return "max_memory"
    return "interrupt" if isinstance(error, KeyboardInterrupt) else "timeout"


def as_raised(error: BaseException, solutions: int = 0) -> BaseException:
    """``error`` as the API raises it: the alarm of a method without a deadline of its
    own (:class:`~excover.deadlines.TimeUp`) as :class:`~excover.LimitReached`, reason
    ``"timeout"``, with the ``solutions`` found by then; any other stop as it is."""
    if isinstance(error, TimeUp):
        from excover.statistics import Stats

        return LimitReached("timeout", Stats(solutions=solutions, stopped_by="timeout"))
    return error


def listing_stop(found: int, limit: int | None, error: BaseException | None) -> str | None:
    """Why a listing stopped once ``found`` solutions were handed over: what stopped it
    (``error``, a key of :data:`STOP_REASONS`), ``"limit"`` when it reached its ``limit``,
    or None when it ended."""
    if error is not None:
        return stop_reason(error)
    return "limit" if limit is not None and found >= limit else None


def count_of(outcome: Outcome) -> int:
    """The count of a run, as the API returns it: what stopped the run early raised
    (a limit, Ctrl-C, the memory bound), a count stopped by its ``limit`` returned."""
    if outcome.error is not None:
        raise outcome.error
    assert outcome.count is not None  # a run with no count was stopped
    return outcome.count


def emitted(listing: Listing, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution of ``listing`` to ``emit`` as soon as it is found, within the
    listing's guard, until the end, the limit or a stop; the run's outcome. A solution
    is counted once handed out (a stop inside ``emit`` leaves it out); a closed pipe
    (BrokenPipeError from ``emit``) propagates."""
    found = 0
    error: BaseException | None = None
    try:
        with listing.guard():
            for solution in listing:
                emit(solution)
                found += 1
    except STOPS as stop:
        error = stop
    return listing.outcome(found, error)


def search_engine(search: Search, stats: Stats | None = None) -> str:
    """How outputs name a search run: the engine, the algorithm and the item choice
    (``stats``: the run's statistics, when the caller has them already)."""
    heuristic = search.heuristic
    if heuristic == "random":
        heuristic += f", seed {search.seed}"
    algorithm = (search.stats if stats is None else stats).algorithm
    return f"{ENGINE_NAMES[search.engine]}, Algorithm {algorithm} ({heuristic})"


def search_stats(
    search: Search, stopped_by: str | None, snapshot: Stats | None = None
) -> dict[str, Any]:
    """The statistics of a search run, with what stopped it as the caller saw it
    (``snapshot``: the run's statistics, when the caller has them already)."""
    stats = (search.stats if snapshot is None else snapshot).as_dict()
    stats["stopped_by"] = stopped_by
    stats["complete"] = stopped_by is None
    stats["heuristic"] = search.heuristic
    stats["seed"] = search.seed if search.heuristic == "random" else None
    return stats
