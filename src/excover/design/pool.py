"""Designs evaluated range by range, in this process or on worker processes.

:func:`evaluations` is the one loop over a range of indices: each candidate turned into
its design (or None), each design evaluated against the goal, the deadline checked
between designs. In this process the engine (:mod:`excover.design.searching`) runs it
directly; :func:`on_workers` runs it on ``workers`` processes
(:func:`excover.parallel.workers.new_pool`: they die with this process and ignore
Ctrl-C, which the process that started them takes, stopping them at once), a range of
indices to a task. A worker builds the design space once from its declaration (the
space is named by a digest of it and of its class) and keeps it between tasks, so whatever the space
shares across designs (the pieces' placements on the board, movement tables) is made
once per worker. Each task's range is sized to take about :data:`TASK_SECONDS`, from
the time the tasks so far took per index.

On a Dask cluster (``executor=`` a distributed ``Client``, or any ``concurrent.futures``
executor: :func:`excover.parallel.run.executor_for`, as for counts and disassemblies) the
same tasks go to the executor instead of a pool made here, :data:`AHEAD` for each of its
worker threads (:func:`executor_slots`). A task needs nothing but the space's
declaration: each worker process builds the space from it once and keeps it by digest
(a few spaces at most, :data:`KEPT_SPACES`: a cluster outlives searches), whichever of
its threads asks first. The executor is the caller's: a run that ends (done, the
deadline, Ctrl-C, an error) cancels only its own tasks not started; those running end
within a task's time, or at the deadline.

The deadline travels as a wall-clock time (``time.time()``), each worker turning it
back into its own ``time.monotonic()``; a task past it returns the designs it finished,
so that the ledger keeps them, and the one in flight is not recorded. ``beat`` (the
score of the last of the top K) is the one known when the task is sent.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from excover.deadlines import check
from excover.design.goal import Goal, Score
from excover.design.ledger import encode
from excover.design.space import DesignSpace, Evaluation
from excover.errors import LimitReached

__all__ = ["TASK_SECONDS", "entry", "evaluations", "executor_slots", "on_workers"]

#: Seconds of work a task is sized to take.
TASK_SECONDS = 1.0
#: The indices of the first tasks, before their time is known, and the most of a task.
FIRST_TASK, MOST_TASK = 4, 8192
#: Tasks sent ahead for each worker.
AHEAD = 2
#: Seconds between two looks at the workers while waiting (Ctrl-C is taken then).
TICK = 0.2
#: Seconds the tasks running at the deadline get to send back what they finished.
GRACE = 2.0
#: The design spaces a worker process keeps at most (the most recently used).
KEPT_SPACES = 4
#: The worker threads assumed of an executor that does not tell its number.
EXECUTOR_SLOTS = 4

#: A range's outcomes as they come back: its first index, its ledger entries (encoded,
#: scores kept for the designs that qualify) and the seconds they took.
Done = tuple[int, list[Any], float]


def evaluations(
    space: DesignSpace,
    start: int,
    stop: int,
    goal: Goal,
    beat: Callable[[], Score | None],
    deadline: float | None,
) -> Iterator[tuple[int, Evaluation | None, float]]:
    """``(index, outcome, seconds)`` for each index from ``start`` to ``stop``, in
    order: None for a candidate that is not a design. Past ``deadline`` (a
    ``time.monotonic()`` instant), :class:`~excover.LimitReached`."""
    for index, design in space.designs(start, stop):
        if design is None:
            yield index, None, 0.0
            continue
        check(deadline)
        started = time.perf_counter()
        outcome = space.evaluate(design, goal, beat(), deadline)
        yield index, outcome, time.perf_counter() - started


def entry(outcome: Evaluation | None, goal: Goal) -> Any:
    """An outcome as the ledger keeps it: scores kept for a design that qualifies."""
    keep = outcome is not None and goal.qualifies(outcome.solutions, outcome.exact)
    return encode(outcome, keep)


#: The design spaces a worker process has built, by the digest of their class and
#: declaration (the most recently used last), and the lock its threads build them under.
_SPACES: OrderedDict[str, DesignSpace] = OrderedDict()
_BUILDING = threading.Lock()


def _digest(kind: type[DesignSpace], declaration: Mapping[str, Any]) -> str:
    """The name of a space in a worker's keeping: its class (a subclass of a space may
    declare itself as the space does, and evaluate otherwise) and its declaration."""
    named = [f"{kind.__module__}.{kind.__qualname__}", declaration]
    return hashlib.sha256(json.dumps(named, sort_keys=True).encode()).hexdigest()


def _space(kind: type[DesignSpace], declaration: Mapping[str, Any], digest: str) -> DesignSpace:
    """The space ``kind`` declared so, built at the first task of this process that
    needs it and kept (at most :data:`KEPT_SPACES` of them) for the next ones."""
    with _BUILDING:  # the threads of a Dask worker build a space once between them
        space = _SPACES.get(digest)
        if space is None:
            space = _SPACES[digest] = kind.from_declaration(declaration)
            while len(_SPACES) > KEPT_SPACES:
                _SPACES.popitem(last=False)
        else:
            _SPACES.move_to_end(digest)
        return space


def executor_slots(executor: object) -> int:
    """The worker threads of ``executor`` (tasks are sent :data:`AHEAD` for each): a
    Dask ``Client``'s (or its executor's) across its workers, a ``concurrent.futures``
    pool's ``max_workers``, else :data:`EXECUTOR_SLOTS`."""
    client = getattr(executor, "_client", executor)  # a Client's executor: its Client
    nthreads = getattr(client, "nthreads", None)
    if callable(nthreads):
        try:
            threads = sum(int(n) for n in nthreads().values())
        except (TypeError, AttributeError, ValueError):
            threads = 0
        if threads > 0:
            return threads
    most = getattr(executor, "_max_workers", None)
    if isinstance(most, int) and most > 0:
        return most
    return EXECUTOR_SLOTS


def _task(
    kind: type[DesignSpace],
    declaration: Mapping[str, Any],
    digest: str,
    span: tuple[int, int],
    goal: Goal,
    beat: Score | None,
    wall_deadline: float | None,
    ticket: tuple[str, int] = ("", 0),
) -> Done:
    """A worker's task: the range ``span`` of the space ``kind`` declared so, until the
    deadline (a ``time.time()`` value). ``ticket`` (the run's and the task's number) is
    not used: a Dask client names a task by its arguments, and a task of a run stopped
    (cancelled) must not be taken for the same range sent again by the next run."""
    space = _space(kind, declaration, digest)
    deadline = None
    if wall_deadline is not None:
        deadline = time.monotonic() + wall_deadline - time.time()
    entries: list[Any] = []
    seconds = 0.0
    try:
        for _, outcome, spent in evaluations(space, *span, goal, lambda: beat, deadline):
            entries.append(entry(outcome, goal))
            seconds += spent
    except LimitReached:  # the design in flight is not recorded
        pass
    return span[0], entries, seconds


def on_workers(
    space: DesignSpace,
    goal: Goal,
    gaps: Iterable[tuple[int, int]],
    workers: int,
    deadline: float | None,
    beat: Callable[[], Score | None],
    record: Callable[[int, list[Any], float], None],
    tick: Callable[[], None],
    executor: object | None = None,
) -> None:
    """Evaluate the ranges ``gaps`` on ``workers`` processes, or on ``executor`` (a Dask
    ``Client`` or a ``concurrent.futures`` executor; ``workers`` then its worker threads,
    :func:`executor_slots`), handing each range done to ``record`` (its first index,
    its entries, its seconds) as it comes, and calling ``tick`` now and then, until
    every range is done or the deadline has passed (the tasks then running send back
    what they finished). Ctrl-C (KeyboardInterrupt) stops the workers at once (an
    executor's tasks not started are cancelled) and goes up."""
    from excover.parallel.run import executor_for
    from excover.parallel.workers import give_up, ignoring_interrupts, new_pool

    declaration = space.declaration()
    digest = _digest(type(space), declaration)
    wall = None if deadline is None else time.time() + deadline - time.monotonic()
    spans = _Spans(gaps)
    pending: set[Future[Done]] = set()
    started = 0
    run = uuid.uuid4().hex
    own = None
    if executor is None:
        with ignoring_interrupts():  # the workers start ignoring Ctrl-C
            own = new_pool(workers)
    pool: Executor = executor_for(executor) if own is None else own
    try:
        while True:
            late = deadline is not None and time.monotonic() >= deadline
            while not late and len(pending) < AHEAD * workers:
                span = spans.next()
                if span is None:
                    break
                ticket = (run, started)
                arguments = (type(space), declaration, digest, span, goal, beat(), wall, ticket)
                if own is not None and started < workers:  # a pool starts a process a task
                    with ignoring_interrupts():
                        pending.add(pool.submit(_task, *arguments))
                else:
                    pending.add(pool.submit(_task, *arguments))
                started += 1
            if not pending:
                return
            patience = GRACE if late else TICK
            finished, pending = wait(pending, timeout=patience, return_when=FIRST_COMPLETED)
            failed: BaseException | None = None
            for future in finished:
                try:
                    first, entries, seconds = future.result()
                except Exception as exc:  # the other tasks' outcomes kept, then it goes up
                    failed = failed or exc
                    continue
                spans.timed(len(entries), seconds)
                record(first, entries, seconds)
            if failed is not None:
                raise failed
            tick()
            if late and not finished:
                return
    finally:
        give_up(own, pending)


class _Spans:
    """The ranges of indices to send, cut from the gaps to take about
    :data:`TASK_SECONDS` each at the time per index seen so far."""

    def __init__(self, gaps: Iterable[tuple[int, int]]) -> None:
        self._gaps = iter(gaps)
        self._current: tuple[int, int] | None = None
        self._indices = 0
        self._seconds = 0.0

    def timed(self, indices: int, seconds: float) -> None:
        self._indices += indices
        self._seconds += seconds

    def _size(self) -> int:
        if self._indices == 0 or self._seconds <= 0:
            return FIRST_TASK
        per_index = self._seconds / self._indices
        return max(1, min(MOST_TASK, int(TASK_SECONDS / per_index)))

    def next(self) -> tuple[int, int] | None:
        if self._current is None:
            self._current = next(self._gaps, None)
            if self._current is None:
                return None
        start, stop = self._current
        end = min(stop, start + self._size())
        self._current = None if end == stop else (end, stop)
        return start, end
