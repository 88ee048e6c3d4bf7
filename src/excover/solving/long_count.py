"""A count that may run long, cut into subproblems only once it is estimated long: the
orchestrator's split for the request's ``split_above`` (the studio's counts).

The count (:func:`count_long`) is cut only when it must be. Its checkpoint is looked
for first (a count stopped earlier goes on from it, though the race of routes might
finish it at once); then the choice of route may count it, or name a method that is no one search,
which counts it; else it runs as one search for :data:`FIRST_LOOK` of the threshold (its
share walked told as it goes: :meth:`Events.advance
<excover.solving.request.Events.advance>`), one that has not ended by then is estimated
(:meth:`Events.estimated <excover.solving.request.Events.estimated>`), one of a few
seconds goes on as that search, and a longer one is cut into the request's ``tasks``
subproblems (:data:`SUBPROBLEMS` by default) counted in this process, each saved to the
checkpoint as it finishes (told by ``advance``). The file goes once the count is
complete. Its lock is claimed without waiting: a second count of the same problem
counts without the file (and says so through ``say``).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from excover.errors import ExcoverWarning, LimitReached
from excover.names import METHOD_TRAITS
from excover.solving.checkpointed import SplitOutcome, tasks_outcome, whole_count

if TYPE_CHECKING:
    from excover.parallel.checkpoint import Checkpoint
    from excover.problem import Problem
    from excover.solving.request import Events, Request

__all__ = [
    "ESTIMATE_SAMPLES",
    "FIRST_LOOK",
    "LOOK_SLICE",
    "SUBPROBLEMS",
    "count_long",
    "new_checkpoint",
]

#: Subproblems of a long count by one search (:func:`count_long`): enough for a smooth
#: progress bar.
SUBPROBLEMS = 64
#: Random probes of the estimate made before a long count goes on.
ESTIMATE_SAMPLES = 128
#: The share of the threshold a count that may run long runs as one search before it
#: is estimated: one that ends by then needs no estimate (which would cost it more than
#: its search), and a count then cut into subproblems has lost at most this share of
#: its time.
FIRST_LOOK = 0.1
#: Seconds between two looks at a count run as one search.
LOOK_SLICE = 0.25


def count_long(problem: Problem, request: Request) -> SplitOutcome:
    """Count ``problem``, which may run long, as the module notes say: from its
    checkpoint (``request.checkpoints(problem)``, claimed without waiting) when an
    earlier count of it stopped; else at once when the choice of route counts it; else
    by one search for its first look, then, estimated, on by that search or by
    subproblems, checkpointed when estimated longer than ``request.split_above``."""
    from excover.parallel.checkpoint import claimed

    path = None if request.checkpoints is None else request.checkpoints(problem)
    with claimed(path, wait=False, say=request.events.say) as held:
        return _count_long(problem, request, held)


def _count_long(problem: Problem, request: Request, path: Path | None) -> SplitOutcome:
    from excover.counting.methods import runs
    from excover.names import SEARCH_METHOD
    from excover.parallel.checkpoint import Checkpoint
    from excover.parallel.probes import estimate
    from excover.parallel.run import resolve_auto

    events = request.events
    started = time.monotonic()
    state = None if path is None else Checkpoint.resume(path, problem, SEARCH_METHOD, events.say)
    if state is not None:  # an earlier count of this problem was stopped: go on with it
        return _long_by_subproblems(problem, request, state)
    method, known = resolve_auto(problem, request.method, {})
    if known is not None:
        return whole_count(known, method, "chosen by auto, counted while choosing", started, 1)
    if not METHOD_TRAITS[method].one_search:
        outcome = runs(_as(request, method)).count(problem, _as(request, method))
        stats = {**outcome.stats, "workers": 1}
        found = outcome.count if outcome.stopped_by is None else None
        engine = outcome.engine or method
        return SplitOutcome(
            method, engine, found, outcome.stopped_by, stats, kind="whole", workers=1
        )
    counting = _OneSearch(problem, request)
    look = FIRST_LOOK * (request.split_above or 0.0)
    if look > 0:
        done = counting.run(events, time.monotonic() + look)
        if done is not None:
            return done
    guess = estimate(problem, ESTIMATE_SAMPLES)
    seconds = guess.seconds or 0.0
    events.estimated(guess.solutions, seconds)
    if path is None or seconds <= (request.split_above or 0.0):
        result = counting.run(events)
        assert result is not None  # without a pause it runs to its end or its deadline
        return result
    return _long_by_subproblems(problem, request, new_checkpoint(problem, path, request.tasks))


def _as(request: Request, method: str) -> Request:
    """``request``, for ``method``."""
    import copy

    asked = copy.copy(request)
    asked.method = method
    return asked


class _OneSearch:
    """A count of ``problem`` by one search, in slices of :data:`LOOK_SLICE` seconds
    between which its share of the tree walked goes to the events (as a bar has it:
    :class:`excover.counting.by_search.SearchBar`); it may pause and go on."""

    def __init__(self, problem: Problem, request: Request) -> None:
        from excover.counting.by_search import SearchBar, new_search

        self.search = new_search(problem, _as(request, request.method))
        self.sizer = SearchBar(problem, None, request.size_tree)
        self.end = request.deadline
        self.started = time.monotonic()

    def run(self, events: Events, pause: float | None = None) -> SplitOutcome | None:
        """Count on to the end or the deadline (the outcome), or to the ``pause``
        instant (None: not done yet)."""
        search, end = self.search, self.end
        while True:
            now = time.monotonic()
            search.deadline = min([now + LOOK_SLICE, *(t for t in (end, pause) if t is not None)])
            try:
                total = search.count()
            except LimitReached:
                now = time.monotonic()
                if end is not None and now >= end:
                    return self._outcome(search.stats.solutions, "timeout")
                events.advance(search.stats.solutions, self.sizer.share(search)[0], None)
                if pause is not None and now >= pause:
                    return None
                continue
            return self._outcome(total, None)

    def _outcome(self, found: int, stopped_by: str | None) -> SplitOutcome:
        from excover.counting.outcome import search_engine, search_stats
        from excover.names import SEARCH_METHOD

        stats = search_stats(self.search, stopped_by)
        engine = search_engine(self.search)
        return SplitOutcome(
            SEARCH_METHOD, engine, found, stopped_by, stats, kind="search", workers=1
        )


def new_checkpoint(problem: Problem, path: Path, tasks: int | None = None) -> Checkpoint:
    """A checkpoint of ``problem`` cut into ``tasks`` subproblems (default
    :data:`SUBPROBLEMS`), none done, to be counted by one search each."""
    from excover.names import SEARCH_METHOD
    from excover.parallel.checkpoint import Checkpoint, fingerprint
    from excover.parallel.subproblems import split

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExcoverWarning)
        parts = split(problem, tasks=SUBPROBLEMS if tasks is None else tasks)
    return Checkpoint(path, fingerprint(problem), SEARCH_METHOD, parts)


def _long_by_subproblems(problem: Problem, request: Request, state: Checkpoint) -> SplitOutcome:
    """Count ``problem`` by one search per subproblem of ``state``, in this process,
    saved to its file as each one finishes and told by ``advance``."""
    from excover.names import SEARCH_METHOD
    from excover.parallel.local import LocalRun, board_for
    from excover.parallel.progress import LocalTasks

    events = request.events
    path = state.path
    resumed = len(state.done)
    sizes = [sub.size for sub in state.subproblems]
    earlier = state.seconds
    started = time.monotonic()
    order = sorted(state.open_leaves(), key=lambda i: -sizes[i])
    board = board_for(state)
    tasks = LocalTasks(sizes, order, 1, sum(sizes[i] for i in state.top()), board=board)

    def cut(index: int, parts: list[int]) -> None:  # the parts are counted next
        tasks.cut(index, parts, [sub.size for sub in state.subproblems], here=True)

    def report() -> None:
        state.seconds = earlier + time.monotonic() - started
        state.save()
        done = state.done_size(tasks.sizes)
        events.advance(
            state.count,
            tasks.share(done, list(state.done)),
            tasks.remaining(),
            complete=state.complete,
            done=len(state.done),
            total=len(state.subproblems),
            resumed=resumed,
            saved=path is not None,
            seconds_before=round(earlier, 3),
        )

    report()  # at once: a folder that cannot be written fails before the work
    deadline = request.deadline
    # a long subproblem is cut as it runs, so that each part is saved as it finishes
    local = LocalRun(problem, state, SEARCH_METHOD, {}, deadline=deadline, board=board, on_cut=cut)
    runs = local.steps()
    try:
        for finished in runs:
            if finished is not None:
                tasks.finished(finished[0], finished[1].nodes, finished[1].complete)
            if finished is not None and finished[1].complete and not state.settled(finished[0]):
                index, result = finished
                state.done[index] = (result.total, result.nodes)
                report()
    finally:
        runs.close()
    if state.complete and path is not None:
        path.unlink(missing_ok=True)  # finished: nothing left to resume
    stopped_by = None if state.complete else "timeout"
    outcome = tasks_outcome(
        state, SEARCH_METHOD, stopped_by, resumed, time.monotonic() - started, 1, path
    )
    outcome.stats["total_seconds"] = round(earlier + time.monotonic() - started, 3)
    return outcome
