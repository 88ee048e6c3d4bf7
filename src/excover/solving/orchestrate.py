"""The one composite policy of every front end: the operations around a method, then
the method's runner.

The API's solving methods (:class:`~excover.ExactCover`), :meth:`Tiling.count
<excover.tiling.Tiling.count>`, the command line, ``.cmb`` programs and the studio all
count through :func:`count` and list through :func:`listing` (or :func:`solutions`, which
hands each solution to the front end's printer), with a
:class:`~excover.solving.request.Request`; each answers with an
:class:`~excover.counting.outcome.Outcome`, the API reading its count or solutions off
it. The operations go outermost first:

1. **preprocess** (``preprocess=True``): the problem reduced by
   :func:`excover.preprocess.preprocess`, its solutions mapped back (no symmetry then);
2. **symmetry**: classes of solutions (``up_to_symmetry``) or every solution by a
   symmetry-broken search under the group asked for (found by a search when it must
   be: :meth:`Events.group_found <excover.solving.request.Events.group_found>`); by
   default, a count of every solution by a method that searches first **scouts** (a
   plain search of :data:`~excover.solving.registry.SCOUT_NODES` nodes: a count so
   short is done) and then breaks the group known without a search (the request's
   ``totals``, by default the group the problem declares): a
   :class:`~excover.solving.request.Total`, counted by a symmetry-broken search or as a
   smaller problem times a factor;
3. **split**: subproblems on workers (``workers``, ``executor``, ``tasks``:
   :mod:`excover.parallel`);
4. **the method**: its runner (:func:`excover.counting.methods.runs`).

A symmetric count answers a :class:`SymmetricOutcome`, which says which group it broke
and how, for the front ends' notes. A stop is the outcome's (``stopped_by``, and the
``error`` the API raises); what a count stopped early found is its count, when it has a
sum of solutions found (a lower bound).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext

from excover.counting.methods import runs
from excover.counting.outcome import (
    STOPS,
    Outcome,
    as_raised,
    count_of,
    emitted,
    listing_stop,
    stop_reason,
)
from excover.deadlines import TimeUp, alarm
from excover.errors import LimitReached
from excover.names import METHOD_TRAITS, SEARCH_METHOD
from excover.solving import registry

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import KW_ONLY
    from typing import Any

    from excover.counting.outcome import Listing
    from excover.preprocess import Preprocessed
    from excover.problem import Problem, SearchOptions
    from excover.solving.request import Request
    from excover.symmetry import BrokenSearch, Group
    from excover.symmetry.widened import WidenedClasses

__all__ = [
    "SymmetricOutcome",
    "Total",
    "count",
    "count_total",
    "listing",
    "search_options",
    "solutions",
]


class SymmetricOutcome(Outcome):
    """The outcome of a symmetric run: ``group`` (None: a stop came before it was
    found), the ``search`` that ran under it (a symmetry-broken search, or the classes
    under a widened group), whether it was broken ``by_default`` (a count of every
    solution, no symmetry asked for), the ``total`` that count went by, whether the run
    counted or listed ``classes``, and for a total counted as a smaller problem times a
    factor, that count's own outcome (``inner``, its count scaled). The front ends word
    the engine from it."""

    _: KW_ONLY
    group: Group | None
    search: BrokenSearch | WidenedClasses | None
    by_default: bool
    total: Total | None = None
    classes: bool = False
    inner: Outcome | None = None

    @classmethod
    def of(cls, outcome: Outcome, **symmetry: Any) -> SymmetricOutcome:
        """``outcome`` (its fields as an :class:`Outcome`'s) with the fields of the
        symmetry, given by name."""
        return cls(*(getattr(outcome, name) for name in Outcome._fields), **symmetry)


class Total:
    """How a count of every solution uses a symmetry (what a default count breaks): the
    count is ``factor`` times the count of ``problem``, by a symmetry-broken search under
    ``group`` when one is given; ``note`` says how, for the front ends. The group a
    problem declares is one (factor 1); a tiling's board gives others
    (:meth:`excover.tiling.Tiling.total`: a free tile pinned to one placement per orbit,
    the board's group times the exchanges of equal tiles)."""

    def __init__(self, problem: Problem, factor: int, group: Group | None, note: str) -> None:
        self.problem = problem
        self.factor = factor
        self.group = group
        self.note = note

    def count(self, method: str, options: SearchOptions) -> int:
        """The number of solutions it stands for, by ``method`` with the API's search
        ``options``. Stopped by a limit, :class:`~excover.LimitReached` whose
        ``stats.solutions`` is the solutions counted so far times ``factor``: each
        solution of the smaller problem stands for ``factor`` distinct ones."""
        from excover.solving.request import api_request

        return count_of(count_total(self, api_request(method, options, "count")))


# ----- counts


def count(problem: Problem, request: Request) -> Outcome:
    """Count the solutions of ``problem`` as ``request`` asks, within its limits: the
    :class:`Outcome` says what ran, what it found and why it stopped early, if it did."""
    if not request.preprocess:
        return _count(problem, request)
    registry.check_no_symmetry(request.up_to_symmetry, request.symmetry)
    reduced = _reduced(problem)
    return _with_preprocessing(_count(reduced.problem, request), reduced)


def _count(problem: Problem, request: Request) -> Outcome:
    """The count, past preprocessing: the symmetry, the split, or the method alone."""
    if request.symmetric:
        return _symmetric_count(problem, request)
    if request.symmetry is None and request.executor is None and request.tasks is None:
        found = _count_by_default(problem, request)
        if found is not None:
            return found
    return _plain_count(problem, request)


def _plain_count(problem: Problem, request: Request) -> Outcome:
    """The count without a symmetry: split into subproblems, or by the method (a count
    that may run long first, cut into subproblems only once it is estimated long:
    :func:`excover.solving.long_count.count_long`)."""
    if request.split_above is not None:
        from excover.solving import long_count

        return long_count.count_long(problem, request)
    if request.parallel:
        return _parallel_count(problem, request)
    return runs(request).count(problem, request)


def _count_by_default(problem: Problem, request: Request) -> Outcome | None:
    """The count of every solution by a group known without a search (the module's
    step 2), or None when the count goes on without it: a method that does not search
    or a bounded count, no such group, or a count the scout finished (then, when the
    request takes the scout's answer, its count)."""
    if not registry.breaks_by_default(request.method, _bounds(request)):
        return None
    if request.totals is None and problem.declared_symmetries() is None:
        return None
    started = time.monotonic()
    try:
        short = registry.scout(problem, search_options(request))
    except LimitReached:  # past the deadline: the plain count says so
        return None
    if short is not None:
        if not request.scout_answers:
            return None
        stats = {"solutions": short, "seconds": time.monotonic() - started, "complete": True}
        return Outcome(request.method, "a plain search, within its scout", short, None, stats)
    try:
        total = _total(problem, request)
    except LimitReached as stop:
        return _group_stopped(stop, counting=True)
    if total is None:
        return None
    return count_total(total, request)


def _total(problem: Problem, request: Request) -> Total | None:
    """How the default count uses a symmetry: the request's ``totals``, or the group
    ``problem`` declares (when it moves an option)."""
    if request.totals is not None:
        return request.totals(request.method, request.deadline)
    from excover.numbers import to_decimal

    group = registry.total_group(problem, request.method, _bounds(request))
    if group is None:
        return None
    return Total(problem, 1, group, f"declared group of order {to_decimal(group.order)}")


def count_total(total: Total, request: Request) -> Outcome:
    """A count by ``total``: a symmetry-broken search under its group, or its smaller
    problem counted as any (the split, the method), times its factor."""
    if total.group is not None:
        return _broken_count(total.problem, total.group, request, by_default=True, total=total)
    events = request.events
    events.factor = total.factor  # what the count tells is of the whole problem
    try:
        outcome = _scaled(_plain_count(total.problem, request), total.factor)
    finally:
        events.factor = 1
    return SymmetricOutcome.of(
        outcome, group=None, search=None, by_default=True, total=total, inner=outcome
    )


def _scaled(outcome: Outcome, factor: int) -> Outcome:
    """``outcome`` with its count multiplied by ``factor`` (each solution of the
    smaller problem stands for ``factor`` solutions), in place."""
    if factor == 1:
        return outcome
    if outcome.count is not None:
        outcome.count *= factor
    if isinstance(outcome.stats.get("solutions"), int):
        outcome.stats["solutions"] *= factor
    error = outcome.error
    if isinstance(error, LimitReached):
        from excover.statistics import Stats

        found = {**error.stats.as_dict(), "solutions": factor * error.stats.solutions}
        outcome.error = LimitReached(error.reason, Stats(**found))
    return outcome


def _symmetric_count(problem: Problem, request: Request) -> Outcome:
    """The count that ``up_to_symmetry`` or ``symmetry`` asks for."""
    try:
        group = _group(problem, request)
    except (*STOPS, TimeUp) as stop:
        return _group_stopped(stop, counting=True)
    if request.up_to_symmetry:
        return _classes_count(problem, group, request)
    return _broken_count(problem, group, request, by_default=False)


def _broken_count(
    problem: Problem,
    group: Group,
    request: Request,
    by_default: bool,
    total: Total | None = None,
) -> Outcome:
    """Every solution counted by a symmetry-broken search under ``group`` (times the
    ``total``'s factor): stopped early, its solutions counted for certain."""
    factor = 1 if total is None else total.factor
    started = time.perf_counter()
    search: BrokenSearch | None = None
    number: int | None = None
    error: BaseException | None = None
    try:
        with _alarm(request, on_workers=True):
            search = registry.broken(
                problem, group, _group_method(request), request.workers, search_options(request)
            )
            number = search.count()
    except STOPS as stop:
        error = stop
    if error is not None:
        number = None if search is None else search.counted
    if number is not None:
        number *= factor
    stats: dict[str, Any] = {"solutions": number, "group_order": group.order}
    note = total.note if total is not None else _group_note(group, by_default)
    stats["symmetry"] = note
    if search is not None and not request.workers:
        # every search of a symmetry-broken count ran here and added its nodes
        stats["nodes"] = search.nodes
    stats.update(seconds=time.perf_counter() - started, workers=request.workers or 1)
    if error is not None and search is None:
        stats = {}
    outcome = _symmetric_end(request, number, stats, error, factor)
    return SymmetricOutcome.of(
        outcome, group=group, search=search, by_default=by_default, total=total
    )


def _classes_count(problem: Problem, group: Group, request: Request) -> Outcome:
    """The classes of solutions under ``group``: no partial count when stopped."""
    started = time.perf_counter()
    search: BrokenSearch | WidenedClasses | None = None
    number: int | None = None
    error: BaseException | None = None
    try:
        with _alarm(request, on_workers=True):
            search = _classes(problem, group, request, request.workers)
            number = search.count_orbits()
    except STOPS as stop:
        error = stop
    stats: dict[str, Any] = {}
    if error is None:
        stats = {"solutions": number, "group_order": group.order}
        stats["symmetry"] = _group_note(group, False)
        stats.update(seconds=time.perf_counter() - started, workers=request.workers or 1)
    outcome = _symmetric_end(request, number, stats, error)
    return SymmetricOutcome.of(outcome, group=group, search=search, by_default=False, classes=True)


def _symmetric_end(
    request: Request,
    number: int | None,
    stats: dict[str, Any],
    error: BaseException | None,
    factor: int = 1,
) -> Outcome:
    """The outcome of a symmetric run that found ``number`` (stopped by ``error``: a
    lower bound, or None), the stop kept as the API raises it."""
    stopped_by = None if error is None else stop_reason(error)
    if isinstance(error, TimeUp):
        error = as_raised(error, number or 0)
    elif isinstance(error, LimitReached) and factor != 1:
        from excover.statistics import Stats

        found = {**error.stats.as_dict(), "solutions": factor * error.stats.solutions}
        error = LimitReached(error.reason, Stats(**found))
    return Outcome(_one_search(request), None, number, stopped_by, stats, error=error)


def _group_stopped(stop: BaseException, counting: bool) -> Outcome:
    """The outcome of a symmetric run stopped while it found its group: nothing found."""
    stopped_by = stop_reason(stop)
    stop = as_raised(stop)
    found = None if counting else 0
    stats = {} if counting else {"solutions": 0}
    engine = "finding the symmetries"
    outcome = Outcome(SEARCH_METHOD, engine, found, stopped_by, stats, error=stop)
    return SymmetricOutcome.of(outcome, group=None, search=None, by_default=False)


def _group_note(group: Group, by_default: bool) -> str:
    """Which group a symmetric count used, for its statistics."""
    from excover.numbers import to_decimal

    which = "declared" if by_default else "automorphism"
    return f"{which} group of order {to_decimal(group.order)}"


# ----- the operations


def _group(problem: Problem, request: Request) -> Group:
    """The group a symmetric run asks for: given, or found by a search (within the
    request's deadline; its later work bounded by it too), told to the front end."""
    given = registry.group_of(problem, request.symmetry)
    if given is not None:
        return given
    started = time.perf_counter()
    with _alarm(request):
        group = registry.symmetries(problem).bounded(request.deadline)
        request.events.group_found(group, time.perf_counter() - started)
    return group


def _classes(
    problem: Problem, group: Group, request: Request, workers: int | None
) -> BrokenSearch | WidenedClasses:
    """The search of the classes of solutions under ``group``: under the widening the
    problem declares too, when the group is the one it declares."""
    declared = request.symmetry in (None, True) and problem.declared_symmetries() is not None
    return registry.classes(
        problem, group, _group_method(request), workers, search_options(request), declared
    )


def _parallel_count(problem: Problem, request: Request) -> Outcome:
    """The count of ``problem`` cut into subproblems, on workers or an executor, with a
    checkpoint when asked (:mod:`excover.solving.checkpointed`)."""
    from excover.parallel import run

    if request.checkpoint is not None:
        from excover.solving import checkpointed

        return checkpointed.count(problem, request)

    from excover.parallel.workers import CpuClock

    started = time.perf_counter()
    clock = CpuClock()  # what the run gets of the cores it asks for
    error: BaseException | None = None
    number: int | None = None
    try:
        with _alarm(request, on_workers=True):
            number = run.count(
                problem,
                request.method,
                workers=request.workers,
                executor=request.executor,
                tasks=request.tasks,
                options=_task_options(request),
            )
    except STOPS as stop:
        error = stop
    stopped_by = None if error is None else stop_reason(error)
    stats: dict[str, Any] = {"solutions": number, "seconds": time.perf_counter() - started}
    stats.update(complete=error is None, stopped_by=stopped_by)
    stats.update(clock.stats(request.workers or 1))
    return Outcome(request.method, "subproblems on workers", number, stopped_by, stats, error=error)


def _alarm(request: Request, on_workers: bool = False) -> AbstractContextManager[object]:
    """The alarm at the request's deadline, around work that has no deadline of its
    own, when the request asks for it (``on_workers``: only when that work runs on
    workers)."""
    if not request.alarm or (on_workers and not request.workers):
        return nullcontext()
    return alarm(request.time_left())


def _reduced(problem: Problem) -> Preprocessed[Problem]:
    """``problem`` reduced by :func:`excover.preprocess.preprocess`."""
    from excover.preprocess import preprocess

    return preprocess(problem)


def _with_preprocessing(outcome: Outcome, reduced: Preprocessed[Problem]) -> Outcome:
    """``outcome`` with what preprocessing did (options and items removed, its rounds
    and seconds, why it was skipped) added to its statistics."""
    from excover.counting.by_routes import preprocessing_stats

    outcome.stats = {**outcome.stats, **preprocessing_stats(reduced.stats)}
    return outcome


def search_options(request: Request) -> SearchOptions:
    """The search options of ``request`` as the operations take them: those given, and
    the time left before its deadline as ``timeout``."""
    options = request.engine_options()
    if request.max_nodes is not None:
        options["max_nodes"] = request.max_nodes
    left = request.time_left()
    if left is not None:
        options["timeout"] = left
    return options


def _task_options(request: Request) -> dict[str, Any]:
    """The options of each subproblem's run (the split refuses those it cannot take)."""
    options: dict[str, Any] = dict(search_options(request))
    if request.limit is not None:
        options["max_solutions"] = request.limit
    return options


def _bounds(request: Request) -> SearchOptions:
    """The bounds of a count that keep it from breaking a group by default."""
    bounds: SearchOptions = {}
    if request.max_nodes is not None:
        bounds["max_nodes"] = request.max_nodes
    if request.limit is not None:
        bounds["max_solutions"] = request.limit
    return bounds


def _one_search(request: Request) -> str:
    """The method a symmetric run is: a choice among routes is read as one search."""
    method = _group_method(request)
    return SEARCH_METHOD if METHOD_TRAITS[method].chooses else method


def _group_method(request: Request) -> str:
    """The method of the searches under a group."""
    return request.group_method or request.method


# ----- listings


def listing(problem: Problem, request: Request) -> Listing:
    """The solutions of ``problem`` as ``request`` asks, found as they are read (a
    :class:`~excover.counting.outcome.Listing`): mapped back from the preprocessed
    problem, one per class or every one by a symmetry-broken search, from subproblems
    on workers, or as the method lists them."""
    if request.preprocess:
        registry.check_no_symmetry(request.up_to_symmetry, request.symmetry)
        reduced = _reduced(problem)
        return _Mapped(_listing(reduced.problem, request), reduced)
    return _listing(problem, request)


def _listing(problem: Problem, request: Request) -> Listing:
    if request.symmetric:
        return _SymmetricListing(problem, request)
    if request.parallel:
        return _ParallelListing(problem, request)
    return runs(request).listing(problem, request)


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution of ``problem`` to ``emit`` as soon as it is found (see
    :func:`listing`), within ``request``'s limits; a closed pipe (BrokenPipeError from
    ``emit``) propagates."""
    return emitted(listing(problem, request), emit)


class _Mapped:
    """A listing of the preprocessed problem, its solutions mapped back to the
    original's options."""

    def __init__(self, inner: Listing, reduced: Preprocessed[Problem]) -> None:
        self.inner = inner
        self.reduced = reduced

    def __iter__(self) -> Iterator[list[int]]:
        return map(self.reduced.original, self.inner)

    def guard(self) -> AbstractContextManager[object]:
        return self.inner.guard()

    def outcome(self, found: int, error: BaseException | None) -> Outcome:
        return _with_preprocessing(self.inner.outcome(found, error), self.reduced)


class _SymmetricListing:
    """The solutions a symmetric listing asks for: one per class, or every one, orbit
    by orbit, from a symmetry-broken search; the group found when the listing starts."""

    def __init__(self, problem: Problem, request: Request) -> None:
        self.problem = problem
        self.request = request
        self.group = registry.group_of(problem, request.symmetry)  # a given one checked now
        self.search: BrokenSearch | WidenedClasses | None = None

    def __iter__(self) -> Iterator[list[int]]:
        request = self.request
        if self.group is None:
            self.group = _group(self.problem, request)
        if request.up_to_symmetry:
            self.search = _classes(self.problem, self.group, request, None)
            listed = self.search.representatives()
        else:
            options = search_options(request)
            method = _group_method(request)
            self.search = registry.broken(self.problem, self.group, method, None, options)
            listed = self.search.solutions()
        return listed if request.limit is None else itertools.islice(listed, request.limit)

    def guard(self) -> AbstractContextManager[object]:
        return nullcontext()

    def outcome(self, found: int, error: BaseException | None) -> Outcome:
        stopped_by = listing_stop(found, self.request.limit, error)
        if self.search is None:  # stopped while it found its group
            stats = {"solutions": 0}
            outcome = Outcome(SEARCH_METHOD, "finding the symmetries", 0, stopped_by, stats)
        else:
            method = _one_search(self.request)
            outcome = Outcome(method, None, found, stopped_by, {"solutions": found})
        outcome.error = error
        return SymmetricOutcome.of(
            outcome,
            group=self.group,
            search=self.search,
            by_default=False,
            classes=self.request.up_to_symmetry,
        )


class _ParallelListing:
    """The solutions found as subproblems on workers, in the order of the subproblems
    (:func:`excover.parallel.solutions`)."""

    def __init__(self, problem: Problem, request: Request) -> None:
        from excover.parallel import run

        self.request = request
        self.listed = run.solutions(
            problem,
            request.method,
            request.limit,
            workers=request.workers,
            executor=request.executor,
            tasks=request.tasks,
            options=dict(search_options(request)),
        )

    def __iter__(self) -> Iterator[list[int]]:
        return self.listed

    def guard(self) -> AbstractContextManager[object]:
        return nullcontext()

    def outcome(self, found: int, error: BaseException | None) -> Outcome:
        stopped_by = listing_stop(found, self.request.limit, error)
        stats = {"solutions": found, "complete": stopped_by is None, "stopped_by": stopped_by}
        engine = "subproblems on workers"
        return Outcome(self.request.method, engine, found, stopped_by, stats, error=error)
