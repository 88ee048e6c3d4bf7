"""The route choice of ``count(method="auto")``: the problem's shape first, then a race
of the routes in growing steps, weighted by what each has shown.

Which counting route is fastest depends on the problem in ways no single cheap test
foretells: on the SAT 2026 graph instances a search takes seconds or minutes where the
component count takes 10-50 ms, while on Kirkman triple systems, Latin squares and
pentomino packings dancing links finishes in milliseconds and DXZ takes a second or
more. :func:`count` therefore goes, in order:

1. **The frontier count**, when it takes the problem in the items' own order (primary
   items only, no colors or multiplicities, every option within 64 items:
   :func:`excover.zdd.frontier.layout`), without a race: on such problems it walks DXZ's
   states without the memo's cost and is the fastest route measured (bell, doublefact,
   domino tilings).
2. **A first slice of the frontier count on the whole problem**, in the order of few
   states it picks (:func:`excover.zdd.frontier.wide_layout`), on problems it may take
   that are too big for the scout first (more than :data:`SCOUT_FIRST` nodes) and have
   :data:`SLICE_MIN_ITEMS` primary items or more: :data:`FIRST_SLICE` seconds of it
   alone and :data:`SLICE_PER_NODE` more a node (items in all options). On the SAT 2026
   graph instances it finishes within that slice on all 201, and it is the best route on
   most: counting part by part costs more there, most of it fixed (the look for parts,
   each part's route choice, the engines' modules). If it does not finish, it pauses and
   the steps below follow: it is then the race's rival where the problem does not fall
   apart (no work lost: the search then has its share of the race first), and its slice
   is lost where it does.
3. **The parts route** (:mod:`excover.counting.parts`), when the problem falls apart into
   independent parts: each part is counted by this same choice and the counts are
   multiplied. A search would walk the product of the parts' trees; here each part
   takes the route that suits it (on the graph instances the search counts most parts
   within its scout, the frontier count some). Problems of at most :data:`SCOUT_FIRST`
   nodes get the search's scout first and are looked at for parts only if it does not
   finish (the look's module costs more than their count); larger ones are looked at
   first (a bit-parallel engine for a whole graph instance costs more to build than its
   parts' engines).
4. **The frontier count after reordering the items**, on problems of
   :data:`REORDER_MIN_ITEMS` primary items or more (the look for
   an order costs more than a small problem's count by the other routes).
5. **The search's scout**: the search alone for a fixed number of nodes
   (:func:`~excover.counting.routes.scout_nodes`: a few thousand, fewer where nodes are
   dear): a problem that small is counted by the search, the same way on any machine
   however loaded, before any race starts. The scout is the first step of the race's
   search, so its work is not lost when the race follows.
6. **The race**, on this thread: the search engine :func:`excover.engines.pick_engine`
   chooses (the three engines walk the same tree, so one of them is enough) against one
   rival (:func:`rivals`): the frontier count in a window of up to four words where it
   takes the problem (primary items only, every option within 254 items in the order of
   few states it picks; its memory bounded by :data:`RIVAL_BYTES` or a quarter of the
   machine's memory, the larger), else the component
   count where the problem splits below its first branching, else DXZ. The rival joins
   once the search has had :func:`rivals_after` seconds (10 ms and a microsecond a node:
   its first step costs a few milliseconds, and a count shorter than that stays the
   search's). **Preprocessing** comes there: if the search, alone until then, projects
   :data:`PREPROCESS_ABOVE` seconds more or longer (and :data:`PREPROCESS_PAYBACK` times
   its time so far), the problem is preprocessed
   (:func:`excover.preprocess.preprocess`, within :data:`PREPROCESS_SHARE` of that
   time), and if anything was removed the smaller problem is counted by this same choice
   from step 1 (the search's work so far is lost: on a count that long, a tenth or
   less), with the result's ``preprocessed`` and ``reason`` saying so;
   ``preprocess=False`` skips it. Round ``r`` raises the allotment to
   ``FIRST_STEP * (1 + GROWTH + ... + GROWTH**r)`` seconds, and each runner steps up to
   its *weight* times that (:meth:`~excover.counting.routes.Runner.weight`; one whose
   step overran waits until its share passes it). The search and the component count
   weigh 1; the frontier count 1 too, unless its pace so far projects a remaining time
   past :data:`~excover.counting.routes.BEHIND` times what the search has spent, or past
   a :data:`~excover.counting.routes.LEAD`-th of what the search projects it still needs
   (from the share of its tree walked,
   :meth:`Search.progress <excover.engines.Search.progress>`): then
   :data:`~excover.counting.routes.LOW_WEIGHT`
   (:meth:`~excover.counting.routes.FrontierRunner.weight`); DXZ weighs
   :data:`~excover.counting.routes.LOW_WEIGHT` (a fifth) while few of its nodes hit its
   memo, up to :data:`~excover.counting.routes.HIGH_WEIGHT` where many do. Every runner
   *pauses* between its steps and goes on later from where it stopped, so no work is
   thrown away (building its engine counts as part of its first step); a route that
   could not pause would start again, each try :data:`RESTART_GROWTH` times as long as
   its last. Seconds are CPU time.

The bound: when a runner of weight ``w``, needing ``T`` seconds alone, finishes, a rival
of weight ``v`` has had at most about ``v / w`` times its time (plus one round's growth
and one overrun step), so auto takes about ``(1 + v / w) * T``: about ``2 T`` where the
search and the frontier count race evenly with their projections even too (the
frontier count keeps its full share only while it projects half the search's remaining
time or less: on the pentomino box with its X piece fixed, where the two are even, auto
is then about 1.35 ``T``), 1.2 ``T`` where the search wins against a frontier count whose
states multiply (its projection far behind: the other pentomino boxes, Scott's puzzle),
1.2 ``T`` where the search beats a DXZ whose memo
hits little, ``1.5 T`` to ``2 T`` where DXZ's memo hits often and DXZ wins; at worst, a
DXZ that wins with few hits, about ``6 T``: never the hundredfold of a wrong guess. No
cheap signal names the winner outright (memo hit rates, solution density, Knuth's
estimates of the search tree and the problem's shape each fail on one of the benchmark
sets), so the weights only tilt the race. A runner that runs out of memory (DXZ's memo,
the frontier count past its bound) leaves the race, which goes on with the others.

Search options (a heuristic, limits on nodes or solutions) make the count one compiled
search, as for ``method="search"``; ``engine=`` chooses the engine of the race's
search; ``timeout=`` bounds the race (LimitReached, with the search's partial count).
:func:`count` returns a :class:`CountResult`: the count, the route that finished and why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Unpack

from excover.counting.parts import Parts, parts
from excover.counting.result import CountResult
from excover.counting.routes import (
    ROUTES,
    ComponentsRunner,
    DxzRunner,
    FrontierRunner,
    Route,
    Runner,
    SearchRunner,
    Work,
    frontier_may_take,
    frontier_runner,
    scout_nodes,
    start,
)
from excover.errors import LimitReached, ResourceLimitError, UsageError

if TYPE_CHECKING:
    from excover.engines import Stats
    from excover.preprocess import PreprocessStats
    from excover.problem import Problem, SearchOptions

__all__ = ["FIRST_STEP", "GROWTH", "RESTART_GROWTH", "RIVALS_AFTER", "SCOUT_FIRST"]
__all__ += ["REORDER_MIN_ITEMS", "RIVALS_AFTER_PER_NODE", "RIVAL_BYTES", "SCOUT_SECONDS"]
__all__ += ["FIRST_SLICE", "SLICE_MIN_ITEMS", "SLICE_PER_NODE"]
__all__ += ["MEMS_PER_SECOND", "PREPROCESS_ABOVE", "PREPROCESS_PAYBACK", "PREPROCESS_SHARE"]
__all__ += ["CountResult", "Plan", "Work"]
__all__ += ["candidates", "count", "partial", "plan", "plan_whole", "race", "rivals"]
__all__ += ["rivals_after", "run"]
__all__ += ["scout"]

#: Seconds each candidate has in the first round of a race.
FIRST_STEP = 0.001
#: How much longer each round's step is than the last one's: the closer to 1, the
#: closer to an even share at every moment (see the bound in the notes), for a few more
#: steps (about 40 rounds reach 10 s).
GROWTH = 1.25
#: How much longer each try of a route that cannot pause is than its last try: its lost
#: tries then take less time than the one that finishes.
RESTART_GROWTH = 2.0
#: Seconds of the search's own time after which its rivals (DXZ, the component count)
#: join the race: a few times what their first steps cost in a fresh process (their
#: modules, the component count's look for a split below the first branching, DXZ's
#: links), so that they cost a count that goes on past this at most a fraction of its
#: time, and a count that ends before it none.
#: Where a rival would win, it starts this much later than it could.
RIVALS_AFTER = 0.010
#: ... and this many seconds more per node of the problem (items in all options): the
#: rivals' first steps grow with it (the look for a split passes over the options once
#: per branch of the first item, DXZ builds its links).
RIVALS_AFTER_PER_NODE = 1e-6
#: Problems of at most this many nodes (items in all options) get the search's scout
#: before the look for parts (:mod:`excover.counting.parts`), which then comes only if
#: the scout does not finish: on a problem that small, the search's engine costs a
#: fraction of a millisecond to build and its scout about as much, less than loading
#: the look's module (the queens of 8, Latin squares of order 6 and 7). Larger ones are
#: looked at first: a bit-parallel engine for the whole of a SAT 2026 graph instance
#: costs several times what its parts' engines cost together.
SCOUT_FIRST = 4096
#: The fewest primary items for which the choice looks for an order of the items that
#: suits the frontier count (:data:`excover.zdd.frontier.REORDER_MIN_ITEMS`, whose notes
#: say why; repeated here so that a problem of another kind never loads that module).
REORDER_MIN_ITEMS = 256
#: CPU seconds of the frontier count's first slice on the whole problem (step 2 of the
#: module notes), its layout not included ...
FIRST_SLICE = 0.002
#: ... and this many more a node of the problem (items in all options): the frontier
#: count of the SAT 2026 graph instances takes less than that a node, and the other
#: routes' fixed costs grow with the nodes as well (the look for parts, the
#: search engine's build). The same rate as :data:`RIVALS_AFTER_PER_NODE`: where the
#: problem does not fall apart, the count is the race's rival, which would have joined
#: after about as long.
SLICE_PER_NODE = 1e-6
#: The fewest primary items of a problem given that first slice: the graph instances
#: have 130 or more; below, the pentomino boxes of Knuth's files (72 items) are the
#: search's, and a slice would only delay it.
SLICE_MIN_ITEMS = 128
#: Seconds of race a parallel count spends choosing the method of its subproblems.
SCOUT_SECONDS = 0.5
#: The most memory (bytes) of the frontier count as the search's rival: past it, it
#: leaves the race (its layers can grow faster than the search's count does).
RIVAL_BYTES = 2 << 30
#: CPU seconds the search must still project it needs (:meth:`SearchRunner.remaining
#: <excover.counting.routes.SearchRunner.remaining>`), once it has run alone until its
#: rivals would join, for the choice to preprocess the problem
#: (:func:`excover.preprocess.preprocess`) and count the smaller one instead: from there
#: on the search's projection is near the truth and the preprocessing pays
#: (docs/performance.md#preprocessing); on shorter counts the search already done, lost
#: in the switch, and the preprocessing would cost more than they save, and a tree that
#: grows when MRV's ties fall another way would cost twice a short count.
PREPROCESS_ABOVE = 0.1
#: ... and at least this many times the seconds it has spent: a switch to the smaller
#: problem loses them, and preprocessing gains a tenth to a quarter of a pentomino box's
#: count.
PREPROCESS_PAYBACK = 8.0
#: The share of that projected time the preprocessing may take (its budget of mems,
#: at :data:`MEMS_PER_SECOND`): some problems take longer to preprocess in full than to
#: count; a preprocessing cut short by its budget is still exact (every removal it made
#: was proven).
PREPROCESS_SHARE = 0.25
#: Mems (incidences looked at) the preprocessing looks at in a CPU second, about
#: (:data:`excover.preprocess.DEFAULT_BUDGET`'s 10**9 take half a second).
MEMS_PER_SECOND = 2e9


def _rival_bytes() -> int:
    """The frontier count's memory bound as the search's rival: :data:`RIVAL_BYTES`, or a
    quarter of the machine's memory where that is more, within the bound of every ZDD
    construction (:func:`excover.zdd.memory.default_bound`): a frontier count that would
    win may need more than 2 GiB."""
    from excover.zdd import memory

    machine = memory.machine_memory()
    rival = RIVAL_BYTES if machine is None else max(RIVAL_BYTES, machine // 4)
    bound = memory.default_bound()
    return min(rival, bound) if bound else rival


def _work(runners: list[Runner]) -> dict[str, Work]:
    """What each runner did, by name; the parts route adds what the routes did on its
    parts (added up by route)."""
    work: dict[str, Work] = {}
    for runner in runners:
        done = {runner.name: Work(runner.seconds, runner.nodes, runner.steps)}
        if isinstance(runner, Parts):
            done.update(runner.work())
        _add_work(work, done)
    return work


def _add_work(work: dict[str, Work], more: dict[str, Work]) -> None:
    """Add ``more`` to ``work``, route by route (the routes that took no step left out)."""
    for name, done in more.items():
        if done.steps:
            was = work.get(name, Work(0.0, 0, 0))
            work[name] = Work(
                was.seconds + done.seconds, was.nodes + done.nodes, was.steps + done.steps
            )


class _TimeUp(Exception):
    """The race's deadline passed."""


def race(
    runners: list[Runner],
    deadline: float | None = None,
    rivals: Callable[[], list[Runner]] | None = None,
    after: float = RIVALS_AFTER,
) -> Runner:
    """The first of ``runners`` to finish, run in rounds as the module notes say; stops
    at ``deadline`` (a ``time.monotonic()`` instant) with :class:`_TimeUp`. ``rivals``
    makes more runners, who join once the rounds have given ``after`` seconds (they are
    appended to ``runners``). A runner that runs out of memory leaves the race; if all
    do, the last error is raised."""
    active = list(runners)
    failure: ResourceLimitError | None = None
    step = allotted = FIRST_STEP
    while active:
        if rivals is not None and allotted >= after:
            joining = rivals()
            runners.extend(joining)
            active.extend(joining)
            rivals = None
        for runner in list(active):
            if deadline is not None and time.monotonic() >= deadline:
                raise _TimeUp
            share = allotted * _weight(runner, active)
            if runner.seconds >= share:  # a step that overran: its route waits
                continue
            seconds: float | None = share - runner.seconds
            if not runner.pausable:  # starts again: each try twice as long as the last
                seconds = FIRST_STEP * RESTART_GROWTH**runner.steps
            alone = len(active) == 1 and rivals is None
            if alone and (deadline is None or not runner.pausable):
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
    #: The problem's parts route, looked for only if the scout does not finish (None:
    #: no look); it then counts alone, and the scout's search stops there.
    split: Callable[[], Parts | None] | None = None
    #: Whether the route was asked for (``route=``), not chosen.
    forced: bool = False
    #: Seconds of the race after which the rivals join (see :func:`rivals_after`).
    after: float = RIVALS_AFTER
    #: When given, ``runners[0]`` first runs alone for ``slice`` seconds (step 2 of the
    #: module notes); if it does not finish, this makes the plan that follows (which may
    #: race the paused runner again).
    then: Callable[[], Plan] | None = None
    slice: float = 0.0
    #: When given, the search (``runners[0]``) runs alone until its rivals would join;
    #: if it then projects :data:`PREPROCESS_ABOVE` seconds more or longer, this
    #: preprocesses the problem within a budget of mems and gives what it did and the
    #: plan of the smaller problem (None where nothing was removed).
    shrink: Callable[[int], tuple[PreprocessStats, Plan | None]] | None = None


def partial(runners: list[Runner], seconds: float) -> Stats:
    """The statistics of a race stopped early: the search's (its solutions so far are a
    lower bound on the count), or empty ones naming the route (``engine``) when no
    search ran."""
    for runner in runners:
        if isinstance(runner, SearchRunner) and runner.search is not None:
            return runner.search.stats
    from excover.engines import Stats

    return Stats(seconds=seconds, engine=runners[0].name)


def run(plan: Plan, started: float | None = None) -> CountResult:
    """Race the plan's routes (started at ``time.perf_counter()`` value ``started``,
    None: now) and say which finished and why; LimitReached at the deadline."""
    started = time.perf_counter() if started is None else started
    if plan.then is not None:
        return _sliced(plan, started)
    reason = plan.reason
    tried: PreprocessStats | None = None
    try:
        scouted = _scouted(plan)
        if scouted is not None:
            winner: Runner = scouted
            budget = scout_nodes(scouted.problem)
            reason = f"the search finished within its scout of {budget} nodes, before any race"
        else:
            split = None if plan.split is None else plan.split()
            if split is not None:
                plan.runners.append(split)
                winner = race([split], plan.deadline)
            else:
                if plan.shrink is not None:
                    left = _alone_until_rivals(plan)
                    if left is not None and _worth_preprocessing(left, plan.runners[0]):
                        tried, smaller = plan.shrink(_preprocess_budget(left))
                        if smaller is not None:
                            return _on_smaller(plan, smaller, tried, left, started)
                winner = race(plan.runners, plan.deadline, plan.rivals, plan.after)
                reason = _race_reason(plan.runners) if len(plan.runners) > 1 else _alone(plan)
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
    if isinstance(winner, Parts) and not plan.forced:
        reason = _parts_reason(winner)
    return CountResult(winner.count, winner.name, reason, seconds, _work(plan.runners), tried)


def _alone_until_rivals(plan: Plan) -> float | None:
    """Run the search (``plan.runners[0]``) alone until its rivals would join
    (``plan.after`` seconds of its time): None if that finished the count (the race
    then returns it at once), else the CPU seconds it projects it still needs."""
    search = plan.runners[0]
    assert isinstance(search, SearchRunner)
    while search.seconds < plan.after:  # in steps: each step's nodes grow from the last
        if search.advance(plan.after - search.seconds, plan.deadline) is not None:
            return None
    return search.remaining()


def _worth_preprocessing(left: float, search: Runner) -> bool:
    """Whether the search's projection of ``left`` seconds more is long enough for the
    choice to preprocess: :data:`PREPROCESS_ABOVE` and :data:`PREPROCESS_PAYBACK` times
    the search's time so far (an engine that projects nothing says inf: no)."""
    return max(PREPROCESS_ABOVE, PREPROCESS_PAYBACK * search.seconds) <= left < math.inf


#: The largest budget of mems the compiled preprocessing takes (a C ``long long``).
_MOST_MEMS = 2**62


def _preprocess_budget(left: float) -> int:
    """The mems the choice's preprocessing may look at when the search projects ``left``
    seconds more: :data:`PREPROCESS_SHARE` of them, at most what the compiled
    preprocessing's counter holds (a projection of a search far too long to finish, which
    the links engine's share of its tree can give, is no reason to overflow it)."""
    return int(min(PREPROCESS_SHARE * left * MEMS_PER_SECOND, _MOST_MEMS))


def _on_smaller(
    plan: Plan, smaller: Plan, tried: PreprocessStats, left: float, started: float
) -> CountResult:
    """Count by ``smaller``, the plan of the problem preprocessing reduced, once the
    search of ``plan`` projected ``left`` seconds more; the work of both is reported.
    The smaller plan's runners join ``plan.runners`` (so that a stopped count finds the
    search that was under way)."""
    before = _work(plan.runners)
    spent = plan.runners[0].seconds
    try:
        found = run(smaller, started)
    finally:
        plan.runners.extend(smaller.runners)
    _add_work(before, found.work)
    found.work = before
    found.preprocessed = tried
    found.reason = (
        f"preprocessed once the search, after {spent * 1000:.3g} ms alone, projected "
        f"{left:.3g} s more ({tried.options_removed} options and {tried.items_removed} "
        f"items removed in {tried.seconds * 1000:.3g} ms), then on the smaller problem: "
        f"{found.reason}"
    )
    return found


def _sliced(plan: Plan, started: float) -> CountResult:
    """Run ``plan.runners[0]`` alone for ``plan.slice`` seconds; if that does not finish
    the count, the plan ``plan.then`` makes (whose runners join ``plan.runners``, so that
    a stopped count finds its search there)."""
    assert plan.then is not None
    first = plan.runners[0]
    try:
        total = first.advance(plan.slice, plan.deadline)
    except ResourceLimitError:  # past its memory bound: the rest of the choice goes on
        total = None
    if total is not None:
        seconds = time.perf_counter() - started
        return CountResult(total, first.name, plan.reason, seconds, _work(plan.runners))
    following = plan.then()
    plan.runners.extend(r for r in following.runners if r is not first)
    found = run(following, started)
    everyone = [first, *(r for r in following.runners if r is not first)]
    found.work = _work(everyone)
    return found


def _parts_reason(winner: Parts) -> str:
    counted = ", ".join(f"{name} {n}" for name, n in sorted(winner.finishers().items()))
    return (
        f"the problem falls apart into {len(winner.parts)} independent parts, each "
        f"counted by its own route choice (parts by route: {counted}), the counts "
        "multiplied"
    )


def _scouted(plan: Plan) -> SearchRunner | None:
    """The race's search when its scout (a fixed number of nodes, see
    :func:`~excover.counting.routes.scout_nodes`) finished the count: small problems
    are then counted the same way however loaded the machine is."""
    racing = len(plan.runners) > 1 or plan.rivals is not None
    if not racing or not isinstance(plan.runners[0], SearchRunner):
        return None
    search = plan.runners[0]
    return search if search.scout(plan.deadline) is not None else None


def _alone(plan: Plan) -> str:
    """Why a race ended before the search's rivals joined it (or had none)."""
    if plan.rivals is None:
        return plan.reason or "the only route in the race"
    return (
        f"the search finished within {plan.after * 1000:.3g} ms of its own time, before "
        "its rivals joined the race"
    )


def _race_reason(runners: list[Runner]) -> str:
    names = ", ".join(runner.name for runner in runners)
    shares = ", ".join(f"{runner.name} {_weight(runner, runners):.3g}" for runner in runners)
    return (
        f"it finished first in a race of {names} (in growing steps of CPU time, shared "
        f"by weight: {shares})"
    )


def _weight(runner: Runner, runners: list[Runner]) -> float:
    """``runner``'s weight against the others of ``runners``: the most time one of them
    has spent, the least one projects it still needs."""
    others = [other for other in runners if other is not runner]
    spent = max((other.seconds for other in others), default=0.0)
    left = min((other.remaining() for other in others), default=math.inf)
    return runner.weight(spent, left)


def candidates(problem: Problem, engine: str = "auto") -> list[Runner]:
    """The racers of step 2 of the module notes: the search on ``engine`` (``"auto"``:
    the engine :func:`~excover.engines.pick_engine` picks), and its rival
    (:func:`rivals`): two racers, so auto stays within about twice the better one."""
    return [SearchRunner(problem, engine), *rivals(problem)]


def rivals(problem: Problem, deadline: float | None = None) -> list[Runner]:
    """The search's rival in the race: the frontier count in a wide window where it
    takes the problem (:func:`excover.zdd.frontier.wide_layout`: primary items only, no
    colors or multiplicities; it walks DXZ's states in an order of few states, without
    the memo's ZDD, within :data:`RIVAL_BYTES` of memory or a quarter of the machine's:
    on the SAT 2026 sets it counts every instance it takes 4-1000 times faster than DXZ,
    docs/performance.md), else the component count where the problem splits
    (:meth:`excover.counting.components.Counting.splits`: it then counts the parts by
    DXZ or the frontier count), else DXZ. (The look for splits is the component count's
    first work, kept when it races.) LimitReached once ``deadline`` (a
    ``time.monotonic()`` instant) passes while the frontier count is laid out."""
    frontier = frontier_runner(problem, reorder=False, max_bytes=_rival_bytes(), deadline=deadline)
    if frontier is not None:
        return [frontier]
    split = ROUTES["components"].start(problem)
    if not isinstance(split, ComponentsRunner):  # multiplicities
        return [DxzRunner(problem)]
    if split.counting.splits():
        return [split]
    return [DxzRunner(problem, split.counting)]


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
    problem: Problem,
    route: str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
    preprocess: bool = True,
) -> Plan:
    """What :func:`count` runs without search options: ``route`` alone when given (a
    name of :data:`~excover.counting.routes.ROUTES`), else the frontier count when it
    takes the problem, else the race of :func:`candidates`; within ``timeout`` seconds.
    ``preprocess``: whether the race may preprocess a problem whose search projects a
    long count (:data:`PREPROCESS_ABOVE`)."""
    deadline = _deadline(timeout)
    if route is not None:
        why = f"asked for (route={route!r})"
        return Plan([start(problem, route)], why, deadline, forced=True)
    return _chosen_plan(problem, engine, deadline, preprocess)


def _chosen_plan(problem: Problem, engine: str, deadline: float | None, preprocess: bool) -> Plan:
    """The plan of :func:`plan` when no route is asked for."""
    frontier = _frontier_plan(problem, deadline, reorder=False)
    if frontier is not None:
        return frontier
    if len(problem.engine_input().node_item) <= SCOUT_FIRST:
        race_plan = plan_whole(problem, engine, deadline, tried=True, preprocess=preprocess)
        return race_plan._replace(split=lambda: _parts_route(problem, engine, preprocess))
    sliced = _slice_plan(problem, engine, deadline, preprocess)
    if sliced is not None:
        return sliced
    return _split_or_whole(problem, engine, deadline, preprocess)


def _slice_plan(
    problem: Problem, engine: str, deadline: float | None, preprocess: bool
) -> Plan | None:
    """Step 2 of the module notes: the frontier count of the whole problem in the order
    of few states, for a first slice, when the problem is of its kind and has
    :data:`SLICE_MIN_ITEMS` primary items or more; then the parts route or the race, in
    which the paused count is the search's rival."""
    data = problem.engine_input()
    if data.n_primary < SLICE_MIN_ITEMS or not frontier_may_take(problem):
        return None
    from excover.zdd import frontier

    laid_out = frontier.wide_layout(problem, deadline)
    if laid_out is None:
        return None
    first = FrontierRunner(laid_out, _rival_bytes())

    def then() -> Plan:
        following = _split_or_whole(problem, engine, deadline, preprocess)
        if following.rivals is not None:  # the race: the paused count is the rival
            return following._replace(rivals=lambda: [first])
        return following

    seconds = FIRST_SLICE + SLICE_PER_NODE * len(data.node_item)
    why = (
        f"the frontier count, in an order of few states, finished within its first "
        f"slice of {seconds * 1000:.3g} ms, before any look for parts or race"
    )
    return Plan([first], why, deadline, then=then, slice=seconds)


def _split_or_whole(
    problem: Problem, engine: str, deadline: float | None, preprocess: bool
) -> Plan:
    """The parts route when the problem falls apart, else :func:`plan_whole`."""
    found = _parts_route(problem, engine, preprocess)
    if found is not None:  # the reason is given once the parts are counted
        return Plan([found], "", deadline)
    return plan_whole(problem, engine, deadline, tried=True, preprocess=preprocess)


def _parts_route(problem: Problem, engine: str, preprocess: bool = True) -> Parts | None:
    """The parts route on ``problem`` when it falls apart (each part counted by
    :func:`plan_whole` on ``engine``), else None."""
    found = parts(problem)
    if found is None:
        return None

    def count_part(part: Problem, deadline: float | None) -> CountResult:
        return run(plan_whole(part, engine, deadline, preprocess=preprocess))

    return Parts(problem, count_part, found)


ROUTES["parts"] = Route(
    "parts", "independent parts, each by the route choice", lambda p: _parts_route(p, "auto")
)


def plan_whole(
    problem: Problem,
    engine: str,
    deadline: float | None,
    tried: bool = False,
    preprocess: bool = True,
) -> Plan:
    """What :func:`count` runs on a problem that does not fall apart (one part of one
    that does): the frontier count when it takes the problem (``tried``: it does not in
    the items' own order), else the search's scout and the race (which may preprocess,
    see :data:`PREPROCESS_ABOVE`, when ``preprocess``); until the ``deadline`` (a
    ``time.monotonic()`` instant)."""
    if not tried or _worth_reordering(problem):
        frontier = _frontier_plan(problem, deadline, reorder=_worth_reordering(problem))
        if frontier is not None:
            return frontier
    return _race_plan(problem, engine, deadline, preprocess)


def _frontier_plan(problem: Problem, deadline: float | None, reorder: bool) -> Plan | None:
    """The frontier count alone, when it takes the problem (in the items' own order
    only, unless ``reorder``)."""
    frontier = frontier_runner(problem, reorder=reorder, wide=False)
    if frontier is None:
        return None
    why = (
        "the frontier count takes this problem (primary items only, every option "
        "within 64 items), the fastest route on such problems: no race"
    )
    return Plan([frontier], why, deadline)


def _race_plan(
    problem: Problem, engine: str, deadline: float | None, preprocess: bool = False
) -> Plan:
    """The search's scout, then the race with its rivals (after preprocessing, when
    ``preprocess`` and the search projects a long count)."""
    search = SearchRunner(problem, engine)
    why = "the search finished within its scout, before any race"

    def shrink(budget: int) -> tuple[PreprocessStats, Plan | None]:
        from excover.preprocess import preprocess as reduce

        done = reduce(problem, budget=budget)
        if not done.stats.options_removed and not done.stats.items_removed:
            return done.stats, None
        return done.stats, _chosen_plan(done.problem, engine, deadline, preprocess=False)

    return Plan(
        [search],
        why,
        deadline,
        lambda: rivals(problem, deadline),
        after=rivals_after(problem),
        shrink=shrink if preprocess else None,
    )


def rivals_after(problem: Problem) -> float:
    """Seconds of the search's own time after which its rivals join the race on
    ``problem``: :data:`RIVALS_AFTER`, and :data:`RIVALS_AFTER_PER_NODE` a node."""
    return RIVALS_AFTER + RIVALS_AFTER_PER_NODE * len(problem.engine_input().node_item)


def _worth_reordering(problem: Problem) -> bool:
    """Whether the route choice looks for an order of the items that suits the frontier
    count: on problems of :data:`REORDER_MIN_ITEMS` primary items
    or more (the look costs more than a small problem's count by another route)."""
    return frontier_may_take(problem) and problem.engine_input().n_primary >= REORDER_MIN_ITEMS


def count(
    problem: Problem,
    route: str | None = None,
    preprocess: bool = True,
    **options: Unpack[SearchOptions],
) -> CountResult:
    """Count the solutions of ``problem`` as the module notes say, or by ``route`` alone
    when given (a name of :data:`~excover.counting.routes.ROUTES`; with ``timeout=``
    only). ``preprocess=False`` keeps the race from preprocessing a long count (see
    :data:`PREPROCESS_ABOVE`)."""
    started = time.perf_counter()
    others = sorted(set(options) - {"engine", "timeout"})
    if others and route is None:
        return _dlx(problem, started, others, **options)
    if route is not None and (others or "engine" in options):
        raise UsageError(f"route={route!r} takes no search options but timeout, not {others}")
    engine = options.get("engine", "auto")
    return run(plan(problem, route, engine, options.get("timeout"), preprocess), started)


def _dlx(
    problem: Problem, started: float, given: list[str], **options: Unpack[SearchOptions]
) -> CountResult:
    """One dancing-links search, for counts given search options."""
    from excover.engines import wall_clock_search

    search = wall_clock_search(problem, **options)
    total = search.count()
    stats = search.stats
    why = f"search options given ({', '.join(given)}): one dancing-links search, no race"
    work: dict[str, Work] = {search.engine: Work(stats.seconds, stats.nodes, 1)}
    return CountResult(total, search.engine, why, time.perf_counter() - started, work)


def scout(problem: Problem, engine: str = "auto") -> tuple[str, int | None]:
    """The method for the subproblems of a parallel count, and the count when the choice
    already found it: ``"zdd"`` when the frontier count takes the problem (it runs on
    the workers' threads), else the race of :func:`count` (the search alone first, its
    rivals joining after :func:`rivals_after`) for up to :data:`SCOUT_SECONDS`; if no
    route has finished by then, ``"search"`` (a search splits into subtrees without loss,
    while each DXZ subproblem would build its own memo)."""
    from excover.zdd import frontier

    if frontier.layout(problem, _worth_reordering(problem)) is not None:
        return "zdd", None
    deadline = time.monotonic() + SCOUT_SECONDS
    try:
        found = run(_race_plan(problem, engine, deadline), time.perf_counter())
    except LimitReached:
        return "search", None
    return found.method, found.count
