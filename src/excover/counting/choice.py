"""The route choice of ``count(method="auto")``: a race of the routes in growing steps.

Which counting route is fastest depends on the problem in ways no cheap test foretells:
on the SAT 2026 graph instances DXZ counts in 0.03-0.1 s what dancing links takes
seconds or minutes over (its memo merges sub-problems that repeat), while on Kirkman
triple systems and Latin squares with few solutions dancing links finishes in
milliseconds and DXZ takes a second. So :func:`count` does not guess; it races:

1. When the frontier count takes the problem (:func:`excover.zdd.frontier.suits`:
   primary items only, no colors or multiplicities, every option within 64 items), it
   counts, without a race: on such problems it walks DXZ's states without the memo's
   cost and is the fastest route measured (bell, doublefact, domino tilings). A
   reordering of the items is looked for only on problems of
   :data:`~excover.zdd.frontier.REORDER_MIN_ITEMS` items or more: the look costs more
   than a small problem's count by the other routes.
2. Otherwise the search first runs alone for a fixed number of nodes, its *scout*
   (:func:`~excover.counting.routes.scout_nodes`: a few thousand, fewer where nodes are
   dear): a problem that small is counted by the search, the same way on any machine
   however loaded, before any race starts. The scout is the first step of the race's
   search, so its work is not lost when the race follows.
3. Otherwise the candidates race, one after the other on this thread: the search engine
   :func:`excover.engines.pick_engine` chooses (the three engines walk the same tree, so
   one of them is enough), and one rival: the frontier count in a window of up to four
   words where it takes the problem (primary items only; :func:`rivals`), else the
   component count where the problem splits into independent parts (at once or below
   its first branching), else DXZ.
   Round ``r`` raises every candidate's allotment to ``FIRST_STEP * (1 + GROWTH + ... +
   GROWTH**r)`` seconds, and each candidate steps up to it (one whose step overran waits
   until the allotment passes it). A search *pauses* between its steps and goes on later
   from where it stopped, so no work is thrown away (building its engine counts as part
   of its first step); a route that cannot pause starts again, each try
   :data:`RESTART_GROWTH` times as long as its last.

The bound: when the fastest candidate, needing ``T`` seconds alone, finishes, every
other one has had at most the allotment of that round, less than ``GROWTH * T`` (plus
:data:`FIRST_STEP` and one overrun step: a DXZ step is sized in nodes from the rate
measured so far), or less than ``T`` if it stepped after the winner in that round. With
the usual two candidates auto takes at most about ``(1 + GROWTH) * T`` plus a few
milliseconds, about ``2 * T`` on average: never the hundredfold of a wrong guess, but
not better than twice the best route either, as no cheap signal seen so far tells the
winner early (memo hits, solution density and the shape of the problem all fail on one
of the benchmark sets). A route that cannot pause loses less than the try that
finishes, so it counts as at most twice its own time. A candidate that runs out of
memory (DXZ's memo) leaves the race, which goes on with the others.

Search options (a heuristic, limits on nodes or solutions) make the count one dancing-
links search, as for ``method="dlx"``; ``engine=`` chooses the engine of the race's
search; ``timeout=`` bounds the race (LimitReached, with the search's partial count).
:func:`count` returns a :class:`CountResult`: the count, the route that finished and why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Unpack

from excover.counting.routes import (
    ROUTES,
    ComponentsRunner,
    Runner,
    SearchRunner,
    frontier_runner,
    scout_nodes,
    start,
)
from excover.errors import LimitReached, ResourceLimitError, UsageError

if TYPE_CHECKING:
    from excover.engines import Stats
    from excover.problem import ExactCover, SearchOptions

__all__ = ["FIRST_STEP", "GROWTH", "RESTART_GROWTH", "RIVAL_BYTES", "SCOUT_SECONDS"]
__all__ += ["CountResult", "Plan", "Work"]
__all__ += ["candidates", "count", "partial", "plan", "race", "rivals", "run", "scout"]

#: Seconds each candidate has in the first round of a race.
FIRST_STEP = 0.001
#: How much longer each round's step is than the last one's: the closer to 1, the
#: closer to an even share at every moment (see the bound in the notes), for a few more
#: steps (about 40 rounds reach 10 s).
GROWTH = 1.25
#: How much longer each try of a route that cannot pause is than its last try: its lost
#: tries then take less time than the one that finishes.
RESTART_GROWTH = 2.0
#: Seconds of race a parallel count spends choosing the method of its subproblems.
SCOUT_SECONDS = 0.5
#: The most memory (bytes) of the frontier count as the search's rival: past it, it
#: leaves the race (its layers can grow faster than the search's count does).
RIVAL_BYTES = 2 << 30


class Work(NamedTuple):
    """What one route did: seconds spent, search nodes entered (0 where it has none), and
    steps taken."""

    seconds: float
    nodes: int
    steps: int


class CountResult:
    """A count and how it was made: the ``route`` that finished (a name of
    :data:`~excover.counting.routes.ROUTES`), ``reason``, why that route counted, in
    words; ``seconds`` in all; ``work``, what each route that ran did (the race's
    losers too), by name. (A plain class: ``count`` would clash with a tuple's method.)"""

    __slots__ = ("count", "reason", "route", "seconds", "work")

    def __init__(
        self, count: int, route: str, reason: str, seconds: float, work: dict[str, Work]
    ) -> None:
        self.count = count
        self.route = route
        self.reason = reason
        self.seconds = seconds
        self.work = work

    def __repr__(self) -> str:
        return (
            f"CountResult(count={self.count}, route={self.route!r}, reason={self.reason!r}, "
            f"seconds={self.seconds:.6f}, work={self.work!r})"
        )

    @property
    def method(self) -> str:
        """The method the route belongs to: ``"dlx"`` for a search engine, else ``"zdd"``."""
        return "dlx" if self.route in ("dlx", "bits", "cells") else "zdd"


def _work(runners: list[Runner]) -> dict[str, Work]:
    return {r.name: Work(r.seconds, r.nodes, r.steps) for r in runners if r.steps}


class _TimeUp(Exception):
    """The race's deadline passed."""


def race(runners: list[Runner], deadline: float | None = None) -> Runner:
    """The first of ``runners`` to finish, run in rounds as the module notes say; stops
    at ``deadline`` (a ``time.monotonic()`` instant) with :class:`_TimeUp`. A runner
    that runs out of memory leaves the race; if all do, the last error is raised."""
    active = list(runners)
    failure: ResourceLimitError | None = None
    step = allotted = FIRST_STEP
    while active:
        for runner in list(active):
            if deadline is not None and time.monotonic() >= deadline:
                raise _TimeUp
            if runner.seconds >= allotted:  # a step that overran: its route waits
                continue
            seconds: float | None = allotted - runner.seconds
            if not runner.pausable:  # starts again: each try twice as long as the last
                seconds = FIRST_STEP * RESTART_GROWTH**runner.steps
            if len(active) == 1 and (deadline is None or not runner.pausable):
                seconds = None  # alone, to the end (a route that cannot pause, or the
                # engines, still stop at the deadline; DXZ looks at it between steps)
            try:
                if runner.advance(seconds, deadline) is not None:
                    return runner
            except ResourceLimitError as error:
                active.remove(runner)
                failure = error
            except LimitReached as stop:  # the search's deadline
                if stop.reason != "timeout":
                    raise
                raise _TimeUp from None
        step *= GROWTH
        allotted += step
    assert failure is not None  # the loop ends only when every runner has failed
    raise failure


class Plan(NamedTuple):
    """A count about to run: the routes to race (one alone just runs), why, the deadline
    (a ``time.monotonic()`` instant, None: none), and the search's rivals, started only
    if its scout does not finish the count (None: ``runners`` is the whole field)."""

    runners: list[Runner]
    reason: str
    deadline: float | None
    rivals: Callable[[], list[Runner]] | None = None


def partial(runners: list[Runner], seconds: float) -> Stats:
    """The statistics of a race stopped early: the search's (its solutions so far are a
    lower bound on the count), or empty ones naming the route (``engine``) when no
    search ran."""
    for runner in runners:
        if isinstance(runner, SearchRunner) and runner.search is not None:
            return runner.search.stats
    from excover.engines import Stats

    return Stats(seconds=seconds, engine=runners[0].name)


def run(plan: Plan, started: float) -> CountResult:
    """Race the plan's routes (started at ``time.perf_counter()`` value ``started``) and
    say which finished and why; LimitReached at the deadline."""
    reason = plan.reason
    try:
        scouted = _scouted(plan)
        if scouted is not None:
            winner: Runner = scouted
            budget = scout_nodes(scouted.problem)
            reason = f"the search finished within its scout of {budget} nodes, before any race"
        else:
            if plan.rivals is not None:  # the field is complete only now
                plan.runners.extend(plan.rivals())
                reason = _race_reason(plan.runners)
            winner = race(plan.runners, plan.deadline)
    except LimitReached as stop:  # the scout's search met the deadline
        if stop.reason != "timeout":
            raise
        stats = partial(plan.runners, time.perf_counter() - started)
        stats.stopped_by = "timeout"
        raise LimitReached("timeout", stats) from None
    except _TimeUp:
        stats = partial(plan.runners, time.perf_counter() - started)
        stats.stopped_by = "timeout"
        raise LimitReached("timeout", stats) from None
    assert winner.count is not None
    seconds = time.perf_counter() - started
    return CountResult(winner.count, winner.name, reason, seconds, _work(plan.runners))


def _scouted(plan: Plan) -> SearchRunner | None:
    """The race's search when its scout (a fixed number of nodes, see
    :func:`~excover.counting.routes.scout_nodes`) finished the count: small problems
    are then counted the same way however loaded the machine is."""
    racing = len(plan.runners) > 1 or plan.rivals is not None
    if not racing or not isinstance(plan.runners[0], SearchRunner):
        return None
    search = plan.runners[0]
    return search if search.scout(plan.deadline) is not None else None


def _race_reason(runners: list[Runner]) -> str:
    names = ", ".join(runner.name for runner in runners)
    return f"it finished first in a race of {names} (the same time each, in growing steps)"


def candidates(problem: ExactCover, engine: str = "auto") -> list[Runner]:
    """The racers of step 2 of the module notes: the search on ``engine`` (``"auto"``:
    the engine :func:`~excover.engines.pick_engine` picks), and its rival
    (:func:`rivals`): two racers, so auto stays within about twice the better one."""
    return [SearchRunner(problem, engine), *rivals(problem)]


def rivals(problem: ExactCover) -> list[Runner]:
    """The search's rival in the race: the frontier count in a wide window where it takes
    the problem (:func:`excover.zdd.frontier.wide_layout`: primary items only, no colors
    or multiplicities; it walks DXZ's states in an order of few states, without the
    memo's ZDD, within :data:`RIVAL_BYTES` of memory: on the SAT 2026 sets it counts
    every instance it takes 4-1000 times faster than DXZ, docs/performance.md), else the
    component count where the problem splits
    (:meth:`excover.counting.components.Counting.splits`: it then counts the parts by
    DXZ or the frontier count), else DXZ. (The look for splits is the component count's
    first work, kept when it races.)"""
    frontier = frontier_runner(problem, reorder=False, max_bytes=RIVAL_BYTES)
    if frontier is not None:
        return [frontier]
    split = ROUTES["components"].start(problem)
    if isinstance(split, ComponentsRunner) and split.counting.splits():
        return [split]
    runner = ROUTES["dxz"].start(problem)
    return [] if runner is None else [runner]


def _deadline(timeout: float | None) -> float | None:
    """The ``time.monotonic()`` instant ``timeout`` seconds from now (None: no limit);
    UsageError for anything but a non-negative number. (Not the engines' ``Deadline``:
    a frontier count need not load the engines.)"""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout >= 0:
        raise UsageError(f"timeout must be a non-negative number, not {timeout!r}")
    return time.monotonic() + timeout


def plan(
    problem: ExactCover,
    route: str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
) -> Plan:
    """What :func:`count` runs without search options: ``route`` alone when given (a
    name of :data:`~excover.counting.routes.ROUTES`), else the frontier count when it
    takes the problem, else the race of :func:`candidates`; within ``timeout`` seconds."""
    deadline = _deadline(timeout)
    if route is not None:
        return Plan([start(problem, route)], f"asked for (route={route!r})", deadline)
    frontier = frontier_runner(problem, reorder=_worth_reordering(problem), wide=False)
    if frontier is not None:
        why = (
            "the frontier count takes this problem (primary items only, every option "
            "within 64 items), the fastest route on such problems: no race"
        )
        return Plan([frontier], why, deadline)
    search = SearchRunner(problem, engine)
    why = "the search finished within its scout, before any race"
    return Plan([search], why, deadline, lambda: rivals(problem))


def _worth_reordering(problem: ExactCover) -> bool:
    """Whether the route choice looks for an order of the items that suits the frontier
    count: on problems of :data:`~excover.zdd.frontier.REORDER_MIN_ITEMS` primary items
    or more (the look costs more than a small problem's count by another route)."""
    from excover.zdd.frontier import REORDER_MIN_ITEMS

    return problem.engine_input().n_primary >= REORDER_MIN_ITEMS


def count(
    problem: ExactCover, route: str | None = None, **options: Unpack[SearchOptions]
) -> CountResult:
    """Count the solutions of ``problem`` as the module notes say, or by ``route`` alone
    when given (a name of :data:`~excover.counting.routes.ROUTES`; with ``timeout=``
    only)."""
    started = time.perf_counter()
    others = sorted(set(options) - {"engine", "timeout"})
    if others and route is None:
        return _dlx(problem, started, others, **options)
    if route is not None and (others or "engine" in options):
        raise UsageError(f"route={route!r} takes no search options but timeout, not {others}")
    engine = options.get("engine", "auto")
    return run(plan(problem, route, engine, options.get("timeout")), started)


def _dlx(
    problem: ExactCover, started: float, given: list[str], **options: Unpack[SearchOptions]
) -> CountResult:
    """One dancing-links search, for counts given search options."""
    from excover.engines import wall_clock_search

    search = wall_clock_search(problem, **options)
    total = search.count()
    stats = search.stats
    why = f"search options given ({', '.join(given)}): one dancing-links search, no race"
    work: dict[str, Work] = {search.engine: Work(stats.seconds, stats.nodes, 1)}
    return CountResult(total, search.engine, why, time.perf_counter() - started, work)


def scout(problem: ExactCover, engine: str = "auto") -> tuple[str, int | None]:
    """The method for the subproblems of a parallel count, and the count when the choice
    already found it: ``"zdd"`` when the frontier count takes the problem (it runs on
    the workers' threads), else the race of :func:`count` for up to
    :data:`SCOUT_SECONDS`; if no route has finished by then, ``"dlx"`` (a search splits
    into subtrees without loss, while each DXZ subproblem would build its own memo)."""
    from excover.zdd import frontier

    if frontier.layout(problem, _worth_reordering(problem)) is not None:
        return "zdd", None
    runners = candidates(problem, engine)
    try:
        found = run(Plan(runners, "", time.monotonic() + SCOUT_SECONDS), time.perf_counter())
    except LimitReached:
        return "dlx", None
    return found.method, found.count
