"""A count cut into subproblems kept in a checkpoint: the orchestrator's split for the
front ends that show long counts (the command line's ``--workers``, ``--tasks``,
``--checkpoint``, ``--dask``; the studio's long counts).

The count is cut into subproblems (:func:`excover.parallel.subproblems.split`) counted
on the request's workers (1: in this process), or on a Dask cluster (the request's
executor, a ``Client``: :mod:`excover.parallel.cluster`, which survives lost and hung
workers and cuts long tasks for idle ones). As subproblems finish, the bar (the
request's, :class:`TaskBar`) shows the share of the search tree done (by the
subproblems' estimated sizes) and the time left at the pace so far, and the finished
subproblems are saved to the checkpoint file every ``checkpoint_every`` seconds, on
Ctrl-C, at the deadline and at the end. Counting the same problem again with the same
file reads it and counts only the subproblems not yet finished, so the total is exactly
the same; a process killed outright loses only the subproblems finished since the last
save. A run holds the checkpoint's lock to its end: a second run of the same file waits
for it (``checkpoint_wait``), then resumes from it, or counts without it. The automatic
checkpoint (``checkpoint=True``: a file named by the problem and the method in excover's
cache folder, :func:`automatic_checkpoint`) is written only when a run stops with work
to keep, and goes once the count is complete. A damaged checkpoint is renamed aside and
the count starts over (:mod:`excover.parallel.checkpoint`). What the run has to say (a
resumed checkpoint, a lock waited for, a file set aside, the split's warnings) goes to
the request's :class:`~excover.solving.request.Events`.

Before any split, ``method="auto"`` is resolved on the whole problem (and may count it
then), and a count by a family of solutions that the frontier count takes goes on the
workers' threads instead, when nothing asks for subproblems: a :class:`SplitOutcome` of
kind ``"whole"`` says so.
A count that *may* run long, cut only once estimated long, is
:mod:`excover.solving.long_count`'s.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from excover.counting.outcome import Outcome
from excover.deadlines import TimeUp, alarm
from excover.errors import ExcoverWarning, LimitReached
from excover.names import METHOD_TRAITS
from excover.records import Record

if TYPE_CHECKING:
    from dataclasses import KW_ONLY

    from excover.counting.request import Bar
    from excover.parallel.checkpoint import Checkpoint
    from excover.parallel.cluster import ClusterRun, ClusterStats
    from excover.parallel.progress import LocalTasks
    from excover.parallel.run import TaskResult
    from excover.problem import Problem
    from excover.solving.request import Request

__all__ = [
    "CHECKPOINT_EVERY",
    "FRESH_SECONDS",
    "SPLIT_GRACE",
    "SplitOutcome",
    "TaskBar",
    "automatic_checkpoint",
    "count",
    "local_tasks",
    "task_options",
    "tasks_outcome",
    "whole_count",
]

#: Seconds between two saves of the checkpoint, by default.
CHECKPOINT_EVERY = 30.0

#: Seconds a split always has, even past the deadline: the split of a small problem ends
#: well within them, so that a checkpointed count stopped before it counted anything
#: (``--timeout 0`` included) still leaves its subproblems in the checkpoint for the next
#: run; a split that takes longer stops at the later of the deadline and this grace.
#: Seconds of the clock for the work around the split (estimating the subproblems'
#: sizes) and of CPU time for the split itself, which a busy machine cannot then cut
#: short (a CI run once stopped queens8's 6-millisecond split at half a second).
SPLIT_GRACE = 0.5

#: The most seconds a count by subproblems with a bar spends on estimating their sizes
#: afresh before the first task (past them, it weighs them by the split's own sizes).
FRESH_SECONDS = 5.0

#: The highest share of the search a bar shows before the count is complete.
MAX_SHARE = 0.999

_T = TypeVar("_T")


class SplitOutcome(Outcome):
    """The outcome of a count by subproblems: ``kind`` is ``"tasks"`` (subproblems
    counted into ``state``, the checkpoint or the cluster's ledger: ``resumed`` of them
    taken from an earlier run, the file at ``path``), ``"whole"`` (the whole problem
    counted without subproblems: by the choice of route, or the frontier count on
    threads; ``stopped_by`` ``"interrupt"`` and no count when Ctrl-C stopped that) or
    ``"cut_short"`` (stopped while the problem was being cut into ``tasks``
    subproblems, None: as many as the cluster asks for); ``workers`` ran it, and
    ``cluster`` has the statistics of a run on a cluster."""

    _: KW_ONLY
    kind: str
    workers: int
    state: Checkpoint | None = None
    resumed: int = 0
    path: Path | None = None
    tasks: int | None = None
    cluster: ClusterStats | None = None


class TaskBar(Record):
    """The progress bar of a count by subproblems (``bar``, the front end's): the part
    of the search counted, in percent, the subproblems and solutions so far, and the time
    left. On this machine (``tasks``, :class:`~excover.parallel.progress.LocalTasks`)
    both come from :class:`~excover.parallel.progress.Forecast`, which calibrates the
    subproblems' estimated sizes on those finished and counts the share done inside the
    tasks running, so that the bar moves while they run; on a cluster, the share is the
    estimated size counted and the time left ``time_left()`` (its model of its workers,
    :meth:`~excover.parallel.cluster.ClusterRun.remaining`). A count run to its end
    closes it at 100%, and only such a count."""

    bar: Bar
    total: float
    time_left: Callable[[], float | None] | None = None
    tasks: LocalTasks | None = None

    def finished(self, index: int, result: TaskResult) -> None:
        """Subproblem ``index`` ended with ``result`` (for the time left)."""
        if self.tasks is not None:
            self.tasks.finished(index, result.nodes, result.complete)

    def draw(self, done: float, state: Checkpoint, finished: bool = False) -> None:
        """Show ``done`` of the estimated size counted, and the subproblems of ``state``."""
        if not self.bar.shown:
            return
        postfix = {"subproblems": _detail(state), "solutions": state.count}
        if finished:
            self.bar.finish(100, **postfix)
            return
        if self.tasks is not None:
            counted = list(state.done)
            # weighed as the tasks weigh them (afresh, when a bar is drawn)
            done = state.done_size(self.tasks.sizes)
            share, left = self.tasks.share(done, counted), self.tasks.remaining()
        else:
            share = done / self.total if 0 < self.total < math.inf else 0.0
            left = None if self.time_left is None else self.time_left()
        share = min(share, MAX_SHARE) if math.isfinite(share) else 0.0
        self.bar.set(100 * share, 100, left=left, **postfix)

    def close(self, done: float, state: Checkpoint) -> None:
        """Show the final state (100% when ``state`` is complete) and end the line."""
        self.draw(done, state, finished=state.complete)
        self.bar.close()


def task_options(request: Request) -> dict[str, Any]:
    """The search options of each subproblem (a front end refuses the others first)."""
    return dict(request.engine_options())


def count(problem: Problem, request: Request) -> SplitOutcome:
    """Count ``problem`` by subproblems with a checkpoint, as the module notes say. The
    checkpoint's lock is held to the end (:func:`~excover.parallel.checkpoint.claimed`)."""
    with contextlib.ExitStack() as claims:
        if request.executor is not None:  # a Dask client (asking loads Dask)
            from excover.parallel.cluster import is_client

            if is_client(request.executor):
                return _count_on_cluster(problem, request, claims)
        return _count_tasks(problem, request, claims)


def _count_tasks(problem: Problem, request: Request, claims: contextlib.ExitStack) -> SplitOutcome:
    from excover.parallel.checkpoint import Checkpoint, claimed, fingerprint
    from excover.parallel.local import LocalRun
    from excover.parallel.run import default_tasks, resolve_auto
    from excover.parallel.subproblems import split
    from excover.parallel.workers import CpuClock

    events = request.events
    asked, options = request.method, task_options(request)
    workers = request.workers or 1
    started = time.monotonic()
    clock = CpuClock()  # what the run gets of the cores it asks for, said in its stats
    method, known = resolve_auto(problem, asked, options)
    given = request.checkpoint
    explicit = not (given is None or isinstance(given, bool))  # a file named: kept
    if known is not None and not explicit:
        engine = "chosen by auto, counted while choosing, in this process"
        return whole_count(known, method, engine, started, 1)
    family = METHOD_TRAITS[method].family
    if family and not explicit and request.tasks is None and request.deadline is None:
        whole = _frontier_count(problem, workers, started)
        if whole is not None:
            return whole
    deadline = request.deadline
    digest = fingerprint(problem)
    if given is None or isinstance(given, bool):
        path: Path | None = automatic_checkpoint(digest, asked)
    else:
        path = Path(given)
    wait = explicit if request.checkpoint_wait is None else request.checkpoint_wait
    waited = time.monotonic()  # a wait for the checkpoint is no time spent on the count
    path = claims.enter_context(claimed(path, wait=wait, deadline=deadline, say=events.say))
    waited = time.monotonic() - waited
    state = None if path is None else Checkpoint.resume(path, problem, asked, events.say)
    resumed = 0 if state is None else len(state.done)
    if state is not None:
        events.resumed(path, state, len(state.subproblems))
    if state is None:
        tasks = (
            default_tasks(method, request.workers, None) if request.tasks is None else request.tasks
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ExcoverWarning)
            subproblems, stopped = _until_stopped(
                lambda: split(
                    problem, tasks=tasks, deadline=_split_deadline(deadline), grace=SPLIT_GRACE
                )
            )
        if subproblems is None:
            return _cut_short(method, stopped, tasks, time.monotonic() - started, workers)
        if request.tasks is not None:
            for warning in caught:
                events.say(str(warning.message))
        state = Checkpoint(path, digest, asked, subproblems)
    bar = request.bar(f"count ({method}, {_workers(workers)})", "%")
    tasks_run = local_tasks(problem, state, workers, bar.shown, _split_deadline(deadline))
    taskbar = TaskBar(bar, state.total_size(), tasks=tasks_run)
    earlier = state.seconds
    stopped_by: str | None = None
    automatic = not explicit

    def save() -> None:
        state.seconds = earlier + time.monotonic() - started - waited
        if not automatic or (stopped_by is not None and state.done):
            state.save()  # the automatic one only when a run stops with work to keep

    save()  # at once: a file that cannot be written fails before the work, not after it
    ctrl_c = _DeferredCtrlC(at_once=workers == 1)

    def cut(index: int, parts: list[int]) -> None:
        """The bar's weights follow a cut: the parts share the weight of the whole."""
        sizes = tasks_run.sizes + [0.0] * (len(state.subproblems) - len(tasks_run.sizes))
        whole = state.subproblems[index].size
        for part in parts:
            share = state.subproblems[part].size / whole if whole > 0 else 1 / len(parts)
            sizes[part] = sizes[index] * share
        tasks_run.cut(index, parts, sizes, here=workers == 1)

    assert tasks_run.board is not None  # made by local_tasks
    local = LocalRun(
        problem,
        state,
        method,
        options,
        workers=workers,
        deadline=deadline,
        board=tasks_run.board,
        on_cut=cut,
    )
    runs = local.steps()
    watch = _Watch(request.checkpoint_every, taskbar, deadline, save, ctrl_c)
    try:
        with ctrl_c:
            stopped_by = _collect(runs, state, watch)
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    except TimeUp:
        stopped_by = "timeout"
    finally:
        runs.close()
        save()
        if automatic and state.complete and path is not None:
            path.unlink(missing_ok=True)  # finished: nothing left to resume
        taskbar.close(state.done_size(), state)
    seconds = time.monotonic() - started
    outcome = tasks_outcome(state, method, stopped_by, resumed, seconds, workers, path)
    outcome.stats.update(clock.stats(workers), cuts=local.cuts)
    return outcome


def local_tasks(
    problem: Problem,
    state: Checkpoint,
    workers: int,
    drawn: bool,
    deadline: float | None,
) -> LocalTasks:
    """The subproblems of ``state`` this run counts on ``workers``, in the order the
    pool hands them out (:func:`~excover.parallel.run.run_tasks`: biggest estimate
    first), for the bar and the time left. When a bar is ``drawn``, their weights are
    their sizes estimated afresh (:func:`~excover.parallel.subproblems.resized`, as a
    cluster's ledger has them; within :data:`FRESH_SECONDS` and by ``deadline``, else
    the split's): the split's own are biased by its choice of what to cut (pento6x10
    cut in 12 has subproblems of 100,000 nodes estimated at 111, queens16's small ones
    are 1.3 to 2.8 times too small). With a bar on several workers, a
    :class:`~excover.parallel.board.Board` too, on which the workers post how far their
    tasks are."""
    from excover.parallel.local import board_for
    from excover.parallel.progress import LocalTasks
    from excover.parallel.subproblems import resized

    subs = state.subproblems
    order = sorted(
        (i for i in range(len(subs)) if not (i in state.split or state.settled(i))),
        key=lambda i: -subs[i].size,
    )
    if drawn and not state.split:
        budget = time.monotonic() + FRESH_SECONDS
        with contextlib.suppress(LimitReached):
            subs = resized(
                problem, subs, deadline=budget if deadline is None else min(deadline, budget)
            )
    sizes = [sub.size for sub in subs]
    # the tasks post how far they are (the time left of a task far bigger than the
    # others, running on alone, is known from nothing else), and are asked to stop
    # there when they are cut (:mod:`excover.parallel.local`)
    board = board_for(state)
    return LocalTasks(sizes, order, workers, sum(sizes[i] for i in state.top()), board=board)


def _workers(n: int) -> str:
    """``1 worker``, ``2 workers``."""
    return f"{n} worker" + ("s" if n != 1 else "")


def _count_on_cluster(
    problem: Problem, request: Request, claims: contextlib.ExitStack
) -> SplitOutcome:
    """A count on a Dask cluster (the request's executor, a ``Client``: see
    :mod:`excover.parallel.cluster`), the ledger saved to the request's checkpoint
    every ``checkpoint_every`` seconds, on Ctrl-C, at the deadline and at the end."""
    from excover.parallel.checkpoint import claimed
    from excover.parallel.cluster import drive, open_ledger
    from excover.parallel.run import resolve_auto

    events = request.events
    client = request.executor
    asked, options = request.method, task_options(request)
    started = time.monotonic()
    deadline = request.deadline
    given = request.checkpoint
    path = None if given is None or isinstance(given, bool) else Path(given)
    waited = time.monotonic()  # a wait for the ledger is no time spent on the count
    path = claims.enter_context(claimed(path, wait=True, deadline=deadline, say=events.say))
    waited = time.monotonic() - waited
    method, known = resolve_auto(problem, asked, options)
    if known is not None and path is None:
        engine = "chosen by auto, counted while choosing, in this process"
        return whole_count(known, method, engine, started, 1)
    ledger, stopped = _until_stopped(
        lambda: open_ledger(
            problem,
            asked,
            client,
            path,
            request.tasks,
            events.say,
            deadline=_split_deadline(deadline),
            grace=SPLIT_GRACE,
        )
    )
    if ledger is None:  # before the cluster's workers were counted: said as one
        return _cut_short(method, stopped, request.tasks, time.monotonic() - started, 1)
    workers = len(client.nthreads())  # type: ignore[attr-defined]
    resumed = len(ledger.done)
    if resumed:
        events.resumed(path, ledger, None)
    bar = request.bar(f"count ({method}, a Dask cluster)", "%")
    earlier = ledger.seconds

    def save() -> None:
        ledger.seconds = earlier + time.monotonic() - started - waited
        ledger.save()

    def follow(run: ClusterRun, steps: Generator[bool]) -> str | None:
        return _follow(run, steps, bar, request.checkpoint_every, deadline, save)

    run, stopped_by = drive(
        problem,
        client,
        ledger,
        method,
        options,
        follow,
        task_timeout=request.task_timeout,
        split_after=request.split_after or None,
        save=save,
    )
    seconds = time.monotonic() - started
    outcome = tasks_outcome(ledger, method, stopped_by, resumed, seconds, workers, path)
    outcome.cluster = run.stats
    return outcome


def _follow(
    run: ClusterRun,
    steps: Generator[bool],
    bar: Bar,
    every: float,
    deadline: float | None,
    save: Callable[[], None],
) -> str | None:
    """Follow a cluster run to its end or to a stop (Ctrl-C, ``deadline``), drawing the
    bar (with the share done by the tasks running,
    :meth:`~excover.parallel.cluster.ClusterRun.progress`) and saving the ledger every
    ``every`` seconds; what stopped it early, or None."""
    ledger = run.ledger
    taskbar = TaskBar(bar, ledger.total_size(), time_left=run.remaining)
    try:
        with _DeferredCtrlC() as ctrl_c:
            watch = _Watch(every, taskbar, deadline, save, ctrl_c)
            for changed in steps:
                stopped = watch.stopped(run.progress() * ledger.total_size(), ledger, changed)
                if stopped is not None:
                    return stopped
            return "interrupt" if ctrl_c.pressed else None
    except KeyboardInterrupt:
        return "interrupt"
    finally:
        taskbar.close(ledger.done_size(), ledger)


def automatic_checkpoint(digest: str, method: str) -> Path | None:
    """Where a count by subproblems without a checkpoint of its own keeps its finished
    subproblems when it is stopped early, so that the same count continues: a file named
    by the problem and the method in excover's cache folder (``$XDG_CACHE_HOME/excover``,
    or ``~/.cache/excover``); None when that folder cannot be made."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(cache) / "excover" / "checkpoints"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    from excover.parallel.checkpoint import named_file

    return named_file(folder, digest, method)


class _DeferredCtrlC:
    """Within the block, a first Ctrl-C only sets ``pressed`` (the loop then stops at its
    next tick, at most :data:`~excover.parallel.run.TICK` seconds later); a second one
    raises. A KeyboardInterrupt raised anywhere could land inside the process pool's own
    locks and hang its shutdown. Left alone off the main thread or when the program has
    its own SIGINT handler.

    ``at_once`` (one worker: the subproblems run in this process, with no pool) makes a
    Ctrl-C that comes while a subproblem runs (within :meth:`running`) raise at once,
    stopping its search: otherwise the run would stop only once that subproblem ends,
    however long it takes."""

    def __init__(self, at_once: bool = False) -> None:
        self.pressed = False
        self.at_once = at_once
        self._running = False
        self._installed = False

    def _note(self, signum: int, frame: FrameType | None) -> None:
        if self.pressed or self._running:
            self.pressed = True
            raise KeyboardInterrupt
        self.pressed = True

    @contextmanager
    def running(self) -> Iterator[None]:
        """Within the block a subproblem runs in this process, if ``at_once``: a Ctrl-C
        stops it there."""
        self._running = self.at_once
        try:
            yield
        finally:
            self._running = False

    def __enter__(self) -> _DeferredCtrlC:
        if (
            signal.getsignal(signal.SIGINT) is signal.default_int_handler
            and threading.current_thread() is threading.main_thread()
        ):
            signal.signal(signal.SIGINT, self._note)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            # once Ctrl-C was pressed the run is winding down (report, checkpoint): more
            # presses are swallowed rather than cut it short; the command's entry point
            # puts the default handler back
            signal.signal(signal.SIGINT, _swallow if self.pressed else signal.default_int_handler)


def _swallow(signum: int, frame: FrameType | None) -> None:
    """A SIGINT handler that does nothing (see :class:`_DeferredCtrlC`)."""


class _Watch:
    """What a count's loop does after each step, on local processes as on a cluster:
    stop at Ctrl-C, draw the bar, stop at the deadline, and ``save()`` the checkpoint
    (or ledger) every ``every`` seconds."""

    def __init__(
        self,
        every: float,
        bar: TaskBar,
        deadline: float | None,
        save: Callable[[], None],
        ctrl_c: _DeferredCtrlC,
    ) -> None:
        self.every = every
        self.saved = time.monotonic()
        self.bar = bar
        self.deadline = deadline
        self.save = save
        self.ctrl_c = ctrl_c

    def stopped(self, done: float, state: Checkpoint, changed: bool = True) -> str | None:
        """After a step (``changed``: one that changed ``state``, ``done`` of its
        estimated size counted): ``"interrupt"``, ``"timeout"``, or None to go on."""
        if self.ctrl_c.pressed:
            return "interrupt"
        self.bar.draw(done, state)
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline and not state.complete:
            return "timeout"
        if changed and now - self.saved >= self.every:
            self.save()
            self.saved = now
        return None


def _collect(
    runs: Generator[tuple[int, TaskResult] | None], state: Checkpoint, watch: _Watch
) -> str | None:
    """Take the finished subproblems into ``state`` as they come, drawing the bar and
    saving the checkpoint now and then; what stopped the run early, or None. A
    subproblem that finished is taken in before anything else, Ctrl-C included."""
    for finished in _steps(runs, watch.ctrl_c, watch.deadline):
        if finished is not None:
            watch.bar.finished(*finished)
        if finished is not None and finished[1].complete and not state.settled(finished[0]):
            index, result = finished  # (a part of a subproblem counted whole is not kept)
            state.done[index] = (result.total, result.nodes)
        stopped = watch.stopped(state.done_size(), state)
        if stopped is not None:
            return stopped
    if watch.ctrl_c.pressed:
        return "interrupt"
    return None if state.complete else "timeout"  # the last subproblems stopped at the deadline


def _steps(
    runs: Generator[tuple[int, TaskResult] | None],
    ctrl_c: _DeferredCtrlC,
    deadline: float | None,
) -> Iterator[tuple[int, TaskResult] | None]:
    """The steps of ``runs`` until it ends or Ctrl-C is pressed. With one worker, each
    step runs a subproblem in this process: within ``ctrl_c.running()``, so that Ctrl-C
    stops it at once, and within an alarm at ``deadline`` (:func:`~excover.deadlines.
    alarm`: :class:`~excover.deadlines.TimeUp`), as a DXZ count has no deadline of its
    own (on the main thread only, where Python takes signals)."""
    timed = ctrl_c.at_once and threading.current_thread() is threading.main_thread()
    while not ctrl_c.pressed:
        left = None if deadline is None or not timed else deadline - time.monotonic()
        with ctrl_c.running(), alarm(None if left is None else max(left, 0.0)):
            try:
                step = next(runs)
            except StopIteration:
                return
        yield step


def _split_deadline(deadline: float | None) -> float | None:
    """The deadline of a split starting now: the run's, or :data:`SPLIT_GRACE` from now
    if that is later."""
    return None if deadline is None else max(deadline, time.monotonic() + SPLIT_GRACE)


def _until_stopped(work: Callable[[], _T]) -> tuple[_T | None, str | None]:
    """``work()`` (cutting the problem into subproblems, which honours the deadline it is
    given), or None and what stopped it: ``"interrupt"`` (Ctrl-C) or ``"timeout"``."""
    try:
        return work(), None
    except KeyboardInterrupt:
        return None, "interrupt"
    except LimitReached as stop:
        if stop.reason != "timeout":
            raise
        return None, "timeout"


def _frontier_count(problem: Problem, workers: int, started: float) -> SplitOutcome | None:
    """Count a problem the frontier count suits on ``workers`` threads (see
    :mod:`excover.zdd.frontier`); None when it does not suit."""
    from excover.zdd import frontier

    try:
        total = frontier.count(problem, workers)
    except KeyboardInterrupt:
        stats = {"solutions": None, "complete": False, "stopped_by": "interrupt"}
        return SplitOutcome(
            "zdd", "frontier count", None, "interrupt", stats, kind="whole", workers=1
        )
    if total is None:
        return None
    return whole_count(total, "zdd", f"frontier count, {workers} threads", started, workers)


def whole_count(total: int, method: str, engine: str, started: float, workers: int) -> SplitOutcome:
    """The count of the whole problem, found without subproblems by ``workers`` threads
    or processes (not always the workers asked for)."""
    stats = {"solutions": total, "seconds": time.monotonic() - started, "workers": workers}
    return SplitOutcome(method, engine, total, None, stats, kind="whole", workers=workers)


def _cut_short(
    method: str, stopped_by: str | None, tasks: int | None, seconds: float, workers: int
) -> SplitOutcome:
    """A count stopped while its problem was being cut into ``tasks`` subproblems
    (None: as many as the cluster asks for): nothing counted, a partial count of 0."""
    stats = {
        "solutions": 0,
        "seconds": seconds,
        "complete": False,
        "stopped_by": stopped_by,
        "method": method,
        "workers": workers,
        "subproblems": 0,
        "done": 0,
    }
    into = "subproblems" if tasks is None else f"{tasks:,} subproblems"
    engine = f"cutting into {into}"
    return SplitOutcome(
        method, engine, 0, stopped_by, stats, kind="cut_short", workers=workers, tasks=tasks
    )


def _detail(state: Checkpoint) -> str:
    """The subproblems counted, for the progress bar: of all (``3/60``), or with those
    still to go once some were cut for idle workers."""
    if state.split:
        return f"{len(state.done)} counted, {len(state.open_leaves())} to go"
    return f"{len(state.done)}/{len(state.subproblems)}"


def tasks_outcome(
    state: Checkpoint,
    method: str,
    stopped_by: str | None,
    resumed: int,
    seconds: float,
    workers: int,
    path: Path | None,
) -> SplitOutcome:
    """The outcome of a count by the subproblems of ``state`` (``method``: the one that
    ran)."""
    stats = {
        "solutions": state.count,
        "nodes": state.nodes,
        "seconds": seconds,
        "total_seconds": state.seconds,
        "complete": state.complete,
        "stopped_by": stopped_by,
        "method": method,
        "workers": workers,
        "subproblems": len(state.subproblems),
        "done": len(state.done),
        "resumed": resumed,
    }
    engine = f"{len(state.subproblems)} subproblems on {_workers(workers)}"
    return SplitOutcome(
        method,
        engine,
        state.count,
        stopped_by,
        stats,
        kind="tasks",
        workers=workers,
        state=state,
        resumed=resumed,
        path=path,
    )
