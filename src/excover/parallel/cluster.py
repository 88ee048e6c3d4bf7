"""Counting on a Dask cluster so that faults cost time, never the total.

:class:`ClusterRun` drives the subproblems of a :class:`~excover.parallel.checkpoint.Checkpoint`
(the *ledger*) through a ``distributed.Client``. It hands out one task per worker thread
at a time (so a task starts when it is submitted, and its running time is known), and
writes every result into the ledger, where each part of the search is counted once:

* a worker killed mid-task (kill -9, out of memory): Dask runs the task again elsewhere;
  when it gives up (``KilledWorker``) or the task is lost, the subproblem goes back in the
  queue, up to :data:`MAX_FAILURES` times;
* a worker that hangs: a task running longer than ``task_timeout`` seconds is tried again
  on the other workers; whichever attempt finishes first is counted, a later one ignored;
* the client killed: the ledger saved by the caller is read back and only what it lacks is
  counted again (:meth:`Checkpoint.open_leaves`);
* workers idle at the end while a task runs long (``split_after`` seconds): its
  subproblem is cut into parts (:func:`~excover.parallel.subproblems.split_further`),
  the cut recorded in the ledger and the parts handed out, and the long task is asked to
  stop (a Dask ``Event``, checked by the dancing-links count every :data:`POLL` seconds).
  If it finishes first all the same, its count stands for the whole subproblem and the
  parts are dropped.

The run itself is a generator (:meth:`ClusterRun.steps`): it yields after each tick with
whether the ledger changed, so the caller saves it, draws progress and decides to stop.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
import uuid
import warnings
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from excover.engines import Search
from excover.errors import ExcoverError, ExcoverWarning, LimitReached
from excover.names import METHOD_TRAITS
from excover.parallel.checkpoint import Checkpoint, claimed, fingerprint, warn
from excover.parallel.cutting import BIG_SHARE, PARTS_PER_SLOT, cut, even_out, longest
from excover.parallel.progress import Forecast
from excover.parallel.subproblems import resized, split
from excover.parallel.tasks import (
    TASKS_PER_WORKER,
    Job,
    Payload,
    TaskResult,
    check_task_options,
    load,
    solve_task,
)
from excover.parallel.tree import State
from excover.problem import Problem

__all__ = [
    "BIG_SHARE",
    "MAX_FAILURES",
    "POLL",
    "SPLIT_AFTER",
    "ClusterRun",
    "count_on_cluster",
    "drive",
    "even_out",
    "is_client",
    "open_ledger",
    "solve_stoppable",
]

#: Seconds between two looks of a running count at its stop event.
POLL = 0.25

#: Seconds a task must have run before it is cut into parts for idle workers.
SPLIT_AFTER = 2.0

#: Times a subproblem may be lost with its worker before the run gives up on it.
MAX_FAILURES = 6

#: Seconds to wait for the result of a finished task to arrive from its worker (a few
#: bytes): a worker that hangs just after finishing a task still holds its result, and
#: the subproblem is then counted again elsewhere.
FETCH_SECONDS = 5.0

#: Seconds between two ticks of the run at most: a tick comes sooner when a task ends.
TICK = 0.1

#: Seconds between two saves of the ledger by :func:`count_on_cluster`.
SAVE_EVERY = 5.0

_T = TypeVar("_T")


def is_client(executor: object) -> bool:
    """True for a Dask distributed ``Client`` (what :class:`ClusterRun` drives)."""
    try:
        from distributed import Client
    except ImportError:
        return False
    return isinstance(executor, Client)


def solve_stoppable(
    payload: Payload, job: Job, forced: tuple[int, ...], forbidden: tuple[int, ...], stop: str
) -> tuple[TaskResult, str]:
    """Count one subproblem in a Dask worker; also the worker's address.

    A count by dancing links runs in slices of :data:`POLL` seconds of search and gives up
    (a result not ``complete``) when the Dask event named ``stop`` is set; other methods
    run whole (:func:`~excover.parallel.tasks.solve_task`)."""
    from distributed import get_worker

    address = str(get_worker().address)
    if not METHOD_TRAITS[job.method].one_search or job.enumerate_:
        return solve_task(payload, job, forced, forbidden), address
    started = time.process_time()
    small, _ = State.after(load(payload)[1], forced, forbidden).reduced()
    search = Search(small, **job.options)
    while True:
        search.timeout = search.stats.seconds + POLL
        try:
            total = search.count()
        except LimitReached:
            if _stop_asked(stop):
                return TaskResult(0, 0, time.process_time() - started, None, False), address
            continue
        return TaskResult(total, search.stats.nodes, time.process_time() - started, None), address


def _stop_asked(name: str) -> bool:
    """True when the Dask event ``name`` is set (False when the scheduler cannot say)."""
    from distributed import Event

    try:
        return bool(Event(name).is_set())  # type: ignore[no-untyped-call]
    except Exception:  # no scheduler to ask: go on counting
        return False


@dataclass
class _Attempt:
    """One submission of subproblem ``index``: its future, when it was handed out, the
    name of its stop event, and whether it is taken for hung."""

    index: int
    future: Any
    started: float
    stop: str
    hung: bool = False


@dataclass
class ClusterStats:
    """What happened in a run: tasks retried after a lost worker, tasks taken for hung,
    subproblems cut for idle workers, results ignored (a subproblem already counted),
    and the workers that returned results."""

    retried: int = 0
    hung: int = 0
    splits: int = 0
    ignored: int = 0
    workers: set[str] = field(default_factory=set)


class ClusterRun:
    """A count of ``ledger``'s open subproblems on the Dask ``client`` (see the module
    notes). ``task_timeout`` (seconds, None: never) takes a task for hung;
    ``split_after`` (None: never) lets a long task be cut for idle workers."""

    def __init__(
        self,
        problem: Problem,
        client: Any,
        ledger: Checkpoint,
        method: str = "search",
        options: dict[str, Any] | None = None,
        *,
        task_timeout: float | None = None,
        split_after: float | None = SPLIT_AFTER,
    ) -> None:
        options = dict(options or {})
        check_task_options(method, options)
        self.problem = problem
        self.client = client
        self.ledger = ledger
        self.job = Job(method, options)
        self.payload = Payload.of(problem)
        self.task_timeout = task_timeout
        self.split_after = split_after
        self.stats = ClusterStats()
        self.queue: list[int] = []
        self.attempts: dict[str, _Attempt] = {}
        self.failures: dict[int, int] = {}
        self.uncuttable: set[int] = set()
        self.run_id = uuid.uuid4().hex[:12]
        self.forecast = Forecast(ledger.total_size(), split_after)
        self.threads = 0
        self.shown = 0.0
        self.carried: dict[int, float] = {}  # the share a cut subproblem's task reached

    def steps(self) -> Generator[bool]:
        """Run until the ledger is complete; yield after each tick whether it changed.
        Closing the generator (or an exception) stops every task still out."""
        self.queue = sorted(self.ledger.open_leaves(), key=self._size, reverse=True)
        self.forecast.total = sum(self._size(index) for index in self.queue)
        try:
            while not self.ledger.complete:
                changed = self._harvest()
                self._watch_hung()
                changed = self._cut_for_idle() or changed
                self._hand_out()
                yield changed
                if not changed:
                    self._wait_for_a_task()
        finally:
            self._stop_all()

    def _size(self, index: int) -> float:
        return self.ledger.subproblems[index].size

    def _wait_for_a_task(self) -> None:
        """Wait up to :data:`TICK` seconds, less when a task ends: a worker that is
        done gets its next subproblem at once instead of at the next tick (on short
        tasks, the ticks' sleep was most of the run's wall time)."""
        from distributed import wait

        futures = [attempt.future for attempt in self.attempts.values()]
        if not futures:
            time.sleep(TICK)
            return
        with contextlib.suppress(TimeoutError):
            wait(futures, timeout=TICK, return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]

    def _slots(self) -> int:
        """Worker threads free of hung tasks."""
        self.threads = int(sum(self.client.nthreads().values()))
        return max(self.threads - sum(attempt.hung for attempt in self.attempts.values()), 0)

    def remaining(self) -> float | None:
        """Seconds left by :class:`~excover.parallel.progress.Forecast`: the tasks running
        and waiting, their estimates calibrated on the tasks finished, laid out on the
        worker threads (None before a task finished)."""
        slots = max(self.threads - sum(a.hung for a in self.attempts.values()), 1)
        return self.forecast.remaining(self._running(), self._waiting(), slots)

    def progress(self) -> float:
        """The share of the search counted, for a bar: the subproblems counted, each
        weighed by its estimated size as in :meth:`Checkpoint.done_size
        <excover.parallel.checkpoint.Checkpoint.done_size>`, plus the share done inside
        the tasks running (:meth:`Forecast.shares
        <excover.parallel.progress.Forecast.shares>`), so that the bar moves while they
        run. A subproblem cut for idle workers keeps the share its task had reached, and
        its parts fill the rest of its weight (its parts count its search again, so the
        bar moves slower there instead of going back or standing still). The bar never
        goes back (a task lost takes its share with it, and the bar waits for the work
        to catch up), and reaches 1 only when the ledger is complete."""
        total = self.ledger.total_size()
        if self.ledger.complete:
            return 1.0
        if not 0 < total < math.inf:
            return self.shown
        keys = self._running_keys()
        shares = self.forecast.shares(self._running(), self._waiting())
        inside = {self.attempts[key].index: share for key, share in zip(keys, shares, strict=True)}
        done = sum(self._done(index, inside) for index in self.ledger.top())
        self.shown = max(self.shown, min(done / total, 0.999))
        return self.shown

    def _done(self, index: int, inside: dict[int, float]) -> float:
        """The estimated size counted in subproblem ``index`` (see :meth:`progress`);
        ``inside`` holds the share done inside each subproblem whose task runs."""
        sub = self.ledger.subproblems[index]
        if index in self.ledger.done:
            return sub.size
        parts = self.ledger.split.get(index)
        if not parts:
            return min(inside.get(index, 0.0), sub.size)
        whole = sum(self.ledger.subproblems[part].size for part in parts)
        if not 0 < whole < math.inf:
            return 0.0
        share = sum(self._done(part, inside) for part in parts) / whole
        reached = self.carried.get(index, 0.0)
        return sub.size * (reached + (1 - reached) * min(share, 1.0))

    def _running_keys(self) -> list[str]:
        """The tasks that count toward the end: not hung, not cut, not settled."""
        return [
            key
            for key, attempt in self.attempts.items()
            if not attempt.hung
            and attempt.index not in self.ledger.split
            and not self.ledger.settled(attempt.index)
        ]

    def _running(self) -> list[tuple[float, float]]:
        """The estimated size and the seconds run of each task of :meth:`_running_keys`."""
        now = time.monotonic()
        return [
            (self._size(self.attempts[key].index), now - self.attempts[key].started)
            for key in self._running_keys()
        ]

    def _waiting(self) -> list[float]:
        return [self._size(index) for index in self.queue]

    def _busy(self) -> int:
        return sum(not attempt.hung for attempt in self.attempts.values())

    def _harvest(self) -> bool:
        """Take in the tasks that ended; True when the ledger changed."""
        changed = False
        for key, attempt in list(self.attempts.items()):
            if key not in self.attempts or not attempt.future.done():
                continue  # dropped by a result taken in just before, or still running
            del self.attempts[key]
            outcome = _outcome(attempt.future)
            if outcome is not None:
                changed = self._record(attempt, *outcome) or changed
            else:
                self._lost(attempt)
        return changed

    def _record(self, attempt: _Attempt, result: TaskResult, worker: str) -> bool:
        """A task's result into the ledger, unless its part of the search is settled."""
        index = attempt.index
        if not result.complete:
            return False  # asked to stop: it was cut, or counted elsewhere
        if self.ledger.settled(index):
            self.stats.ignored += 1
            return False
        self.ledger.done[index] = (result.total, result.nodes)
        self.forecast.finished(time.monotonic() - attempt.started, self._size(index), result.nodes)
        self.stats.workers.add(worker)
        self._drop_settled()
        return True

    def _lost(self, attempt: _Attempt) -> None:
        """A task that failed or vanished with its worker: queue its subproblem again
        (first in line), unless another attempt is out or it is settled."""
        index = attempt.index
        if attempt.future.status == "error":
            error = attempt.future.exception()
            if not _is_fault(error):
                self._stop_all()
                raise error
        if self.ledger.settled(index) or self._out(index) or index in self.queue:
            return
        self.failures[index] = self.failures.get(index, 0) + 1
        if self.failures[index] > MAX_FAILURES:
            raise ExcoverError(
                f"subproblem {list(self.ledger.subproblems[index].path)} was lost with its "
                f"worker {self.failures[index]} times; giving up (is it too big for a worker?)"
            )
        self.stats.retried += 1
        self.queue.insert(0, index)

    def _out(self, index: int) -> bool:
        """True when a task of subproblem ``index`` runs (and is not taken for hung)."""
        return any(
            attempt.index == index and not attempt.hung for attempt in self.attempts.values()
        )

    def _watch_hung(self) -> None:
        """Take tasks past ``task_timeout`` for hung and queue them again (first in
        line), for the other workers."""
        if self.task_timeout is None:
            return
        now = time.monotonic()
        for attempt in list(self.attempts.values()):
            if attempt.hung or now - attempt.started < self.task_timeout:
                continue
            attempt.hung = True
            self.stats.hung += 1
            if attempt.index not in self.queue and not self.ledger.settled(attempt.index):
                self.queue.insert(0, attempt.index)

    def _cut_for_idle(self) -> bool:
        """When threads are idle and nothing waits, cut the longest-running task's
        subproblem into parts and ask it to stop; True when the ledger changed."""
        if self.split_after is None or self.queue:
            return False
        idle = self._slots() - self._busy()
        if idle <= 0:
            return False
        now = time.monotonic()
        running = {
            attempt.index: attempt.started for attempt in self.attempts.values() if not attempt.hung
        }
        index = longest(running, self.ledger, self.uncuttable, now, self.split_after)
        if index is None:
            return False
        whole = self.ledger.subproblems[index]
        ran = [(whole.size, now - running[index])]
        reached = self.forecast.shares(ran, self._waiting())[0]
        parts = cut(self.problem, self.ledger, index, PARTS_PER_SLOT * self._slots())
        if parts is None:
            self.uncuttable.add(index)
            return False
        self.carried[index] = min(reached / whole.size, 0.99) if whole.size > 0 else 0.0
        self.queue.extend(parts)
        self.stats.splits += 1
        for attempt in self.attempts.values():
            if attempt.index == index and not attempt.hung:
                self._ask_stop(attempt)
        return True

    def _hand_out(self) -> None:
        """Submit queued subproblems while worker threads are free."""
        free = self._slots() - self._busy()
        while self.queue and free > 0:
            index = self.queue.pop(0)
            if self.ledger.settled(index) or index in self.ledger.split:
                continue
            self._submit(index)
            free -= 1

    def _submit(self, index: int) -> None:
        sub = self.ledger.subproblems[index]
        stop = f"excover-stop-{self.run_id}-{index}-{uuid.uuid4().hex[:8]}"
        restrictions: dict[str, Any] = {}
        hung = self._hung_workers()
        if hung:
            healthy = [worker for worker in self.client.nthreads() if worker not in hung]
            if healthy:
                restrictions = {"workers": healthy, "allow_other_workers": False}
        future = self.client.submit(
            solve_stoppable,
            self.payload,
            self.job,
            sub.forced,
            sub.forbidden,
            stop,
            pure=False,
            **restrictions,
        )
        self.attempts[future.key] = _Attempt(index, future, time.monotonic(), stop)

    def _hung_workers(self) -> set[str]:
        """The workers holding a task taken for hung."""
        keys = {attempt.future.key for attempt in self.attempts.values() if attempt.hung}
        if not keys:
            return set()
        processing = self.client.processing()
        return {worker for worker, held in processing.items() if keys & set(held)}

    def _drop_settled(self) -> None:
        """Stop the tasks and forget the queued subproblems that a new result settled."""
        self.queue = [index for index in self.queue if not self.ledger.settled(index)]
        for key, attempt in list(self.attempts.items()):
            if self.ledger.settled(attempt.index):
                self._ask_stop(attempt)
                if not attempt.hung:  # a hung one keeps its thread until it returns
                    attempt.future.cancel()
                    del self.attempts[key]

    def _ask_stop(self, attempt: _Attempt) -> None:
        from distributed import Event

        with contextlib.suppress(Exception):  # the scheduler is gone: nothing runs to stop
            Event(attempt.stop, client=self.client).set()  # type: ignore[no-untyped-call]

    def _stop_all(self) -> None:
        """Ask every task still out to stop, and cancel it."""
        for attempt in self.attempts.values():
            self._ask_stop(attempt)
            attempt.future.cancel()
        self.attempts.clear()


def _outcome(future: Any) -> tuple[TaskResult, str] | None:
    """What a task that ended gave, or None when it failed or its result was lost (its
    worker gone before the result was fetched, the scheduler restarted)."""
    if future.status != "finished":
        return None
    try:
        return future.result(timeout=FETCH_SECONDS)  # type: ignore[no-any-return]
    except Exception:  # lost on the way: the subproblem is counted again
        return None


def _is_fault(error: BaseException | None) -> bool:
    """True for the errors of a lost worker or connection (a task's own error is not)."""
    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    return isinstance(error, KilledWorker | CommClosedError | OSError | TimeoutError)


def open_ledger(
    problem: Problem,
    method: str,
    client: Any,
    path: Path | None,
    tasks: int | None,
    say: Callable[[str], None] = warn,
    *,
    deadline: float | None = None,
    grace: float = 0.0,
) -> Checkpoint:
    """The ledger of a count of ``problem`` by ``method`` on ``client``: the one saved in
    ``path`` (checked, see :meth:`Checkpoint.load`; a damaged one is set aside and said
    through ``say``, see :meth:`Checkpoint.resume`), else a new split into ``tasks``
    subproblems (default :data:`~excover.parallel.tasks.TASKS_PER_WORKER` per worker
    thread of the cluster), their sizes (the weights of progress) estimated afresh
    (:func:`~excover.parallel.subproblems.resized`) and the big ones cut
    (:func:`even_out`). Past ``deadline`` (a ``time.monotonic()`` value), while the
    split is being made (once it has spent ``grace`` seconds of CPU time, as :func:`~excover.
    parallel.subproblems.split` does): :class:`~excover.LimitReached`."""
    found = None if path is None else Checkpoint.resume(path, problem, method, say)
    if found is not None:
        return found
    threads = max(sum(client.nthreads().values()), 1)
    if tasks is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ExcoverWarning)
            subproblems = split(
                problem, tasks=TASKS_PER_WORKER * threads, deadline=deadline, grace=grace
            )
    else:
        subproblems = split(problem, tasks=tasks, deadline=deadline, grace=grace)
    subproblems = resized(problem, subproblems, deadline=deadline)
    subproblems = even_out(problem, subproblems, threads, deadline)
    return Checkpoint(path, fingerprint(problem), method, subproblems)


def count_on_cluster(
    problem: Problem,
    client: Any,
    method: str = "search",
    options: dict[str, Any] | None = None,
    *,
    tasks: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    task_timeout: float | None = None,
    split_after: float | None = SPLIT_AFTER,
    asked: str | None = None,
) -> int:
    """The number of solutions of ``problem``, counted on the Dask ``client`` by
    :class:`ClusterRun`, the ledger saved to ``checkpoint`` (if given) every
    :data:`SAVE_EVERY` seconds and at the end, and resumed from it when it exists. The
    ledger's lock is held throughout: while another process holds it, this call waits
    for it (:func:`~excover.parallel.checkpoint.claimed`, with a warning).

    ``asked`` is the method as the caller asked for it (``"auto"`` before the route
    choice made it ``method``; default ``method``): the ledger records that one, as
    ``excover count --dask --checkpoint`` does, so that either front end resumes the
    other's count when asked the same."""
    where = None if checkpoint is None else Path(checkpoint)
    with claimed(where, wait=True) as path:
        ledger = open_ledger(problem, asked or method, client, path, tasks)
        drive(
            problem,
            client,
            ledger,
            method,
            options,
            _save_now_and_then,
            task_timeout=task_timeout,
            split_after=split_after,
        )
    return ledger.count


def drive(
    problem: Problem,
    client: Any,
    ledger: Checkpoint,
    method: str,
    options: dict[str, Any] | None,
    follow: Callable[[ClusterRun, Generator[bool]], _T],
    *,
    task_timeout: float | None = None,
    split_after: float | None = SPLIT_AFTER,
    save: Callable[[], None] | None = None,
) -> tuple[ClusterRun, _T]:
    """Count the open subproblems of ``ledger`` on the Dask ``client`` by a
    :class:`ClusterRun` (``task_timeout`` and ``split_after`` as there): the one Dask
    driver of :func:`count_on_cluster` and of the orchestrator's checkpointed count
    (:mod:`excover.solving.checkpointed`). ``follow(run, steps)`` takes the run's steps
    (:meth:`ClusterRun.steps`) for as long as it likes, saving the ledger now and then,
    drawing progress, stopping early; ``save()`` (default: ``ledger.save``) saves the
    ledger at once (a ledger that cannot be written fails before the work, not after
    it) and at the end, however the run ends. The run and what ``follow`` returned."""
    save = ledger.save if save is None else save
    run = ClusterRun(
        problem,
        client,
        ledger,
        method,
        options,
        task_timeout=task_timeout,
        split_after=split_after,
    )
    save()
    steps = run.steps()
    try:
        return run, follow(run, steps)
    finally:
        steps.close()
        save()


def _save_now_and_then(run: ClusterRun, steps: Generator[bool]) -> None:
    """Run ``steps`` to the end, saving the ledger every :data:`SAVE_EVERY` seconds."""
    saved = time.monotonic()
    for changed in steps:
        if changed and time.monotonic() - saved >= SAVE_EVERY:
            run.ledger.save()
            saved = time.monotonic()
