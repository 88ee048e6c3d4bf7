"""``excover count --workers N --checkpoint FILE --progress``: long counts, for the command line.

With ``--workers``, ``--tasks`` or ``--checkpoint`` the count is cut into subproblems
(:func:`excover.parallel.subproblems`) counted on ``--workers`` processes (1: in the command's
own process). As subproblems finish, the progress bar shows the fraction of the search
tree done (by the subproblems' estimated sizes) and the time left at the pace so far, and
the finished subproblems are saved to the ``--checkpoint`` file every
``--checkpoint-every`` seconds, on Ctrl-C, on ``--timeout`` and at the end. Running the
same command again reads the file and counts only the subproblems not yet finished, so
the total is exactly the same; a process killed outright loses only the subproblems
finished since the last save. A run holds the checkpoint's lock to its end: a second run
of the same ``--checkpoint`` waits for it, then resumes from it; one of the automatic
checkpoint (:func:`automatic_checkpoint`) counts without it. A damaged checkpoint is
renamed aside and the count starts over (:mod:`excover.parallel.checkpoint`).

The progress bar (:class:`TaskBar`) is tqdm's, as for every command, on stderr, by
default when it is a terminal. A run resumed from a checkpoint says so on stderr: the
file, the subproblems and solutions it took from it, and the time earlier runs spent.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from excover.cli.common import TimeUp, document, exact, say_method, stop_time
from excover.cli.common import deadline as alarm
from excover.cli.task_flags import CHECKPOINT_EVERY as CHECKPOINT_EVERY
from excover.cli.task_flags import SPLIT_AFTER as SPLIT_AFTER
from excover.cli.task_flags import add_task_options as add_task_options
from excover.cli.task_flags import uses_tasks as uses_tasks
from excover.errors import ExcoverWarning, LimitReached, UsageError
from excover.names import METHOD_TRAITS
from excover.numbers import abbreviated, to_decimal
from excover.solving import ExactCover

if TYPE_CHECKING:
    from excover.parallel.checkpoint import Checkpoint
    from excover.parallel.cluster import ClusterRun
    from excover.parallel.progress import LocalTasks
    from excover.parallel.run import TaskResult

__all__ = [
    "TaskBar",
    "add_task_options",
    "connect_dask",
    "count_tasks",
    "uses_tasks",
]


#: Seconds to wait for the Dask scheduler of ``--dask``.
CONNECT_SECONDS = 10

#: Seconds a split always has, even past ``--timeout``: the split of a small problem ends
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

_T = TypeVar("_T")

#: Exit codes, as in :mod:`excover.cli`.
EXIT_OK, EXIT_LIMIT, EXIT_INTERRUPT = 0, 1, 130


class TaskBar:
    """The progress bar of a count by subproblems, drawn by tqdm as every bar of the
    command (:func:`excover.cli.progress.progress`): the part of the search counted, in
    percent, the subproblems and solutions so far, and the time left. On this machine
    (``tasks``, :class:`~excover.parallel.progress.LocalTasks`) both come from
    :class:`~excover.parallel.progress.Forecast`, which calibrates the subproblems'
    estimated sizes on those finished and counts the share done inside the tasks
    running, so that the bar moves while they run; on a cluster, the share is the
    estimated size counted and the time left ``time_left()`` (its model of its workers,
    :meth:`~excover.parallel.cluster.ClusterRun.remaining`). A count run to its end
    closes it at 100%, and only such a count."""

    def __init__(
        self,
        args: argparse.Namespace,
        total: float,
        method: str,
        where: str,
        time_left: Callable[[], float | None] | None = None,
        tasks: LocalTasks | None = None,
    ) -> None:
        from excover.cli.progress import progress

        self.total = total
        self.time_left = time_left
        self.tasks = tasks
        self.bar = progress(args, total=100, desc=f"count ({method}, {where})", unit="%")

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
            if not state.split:  # weighed as the tasks weigh them (afresh, when a bar is drawn)
                done = sum(self.tasks.sizes[index] for index in counted)
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


#: The highest share of the search a bar shows before the count is complete.
MAX_SHARE = 0.999


def _options(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The method and search options of each subproblem, from the command line."""
    method = args.method
    traits = METHOD_TRAITS[method]
    if not traits.splits:
        raise UsageError(f"--method {method} cannot count by subproblems (--workers, --tasks, ...)")
    if args.max_nodes is not None:
        raise UsageError("--max-nodes does not go with --workers, --tasks or --checkpoint")
    options: dict[str, Any] = {}
    if args.heuristic != "mrv":
        options["heuristic"] = args.heuristic
    if args.seed is not None:
        options["seed"] = args.seed
    if getattr(args, "engine", None) is not None:
        options["engine"] = args.engine
    if traits.family and options:
        raise UsageError(f"--method {method} does not take --heuristic, --seed or --engine")
    return method, options


def count_tasks(problem: ExactCover, args: argparse.Namespace) -> int:
    """Count ``problem`` by subproblems as the command line says; print the count (and
    the statistics); return the exit status. The checkpoint's lock is held to the end
    (:func:`~excover.parallel.checkpoint.claimed`): a second run of an explicit
    ``--checkpoint`` waits for it, one of the automatic checkpoint counts without it."""
    with contextlib.ExitStack() as claims:
        return _count_tasks(problem, args, claims)


def _count_tasks(
    problem: ExactCover, args: argparse.Namespace, claims: contextlib.ExitStack
) -> int:
    from excover.parallel.checkpoint import Checkpoint, claimed, fingerprint
    from excover.parallel.run import default_tasks, resolve_auto, run_tasks
    from excover.parallel.subproblems import split

    asked, options = _options(args)
    if args.dask is not None:
        return _count_on_cluster(problem, args, asked, options, claims)
    _refuse_cluster_flags(args)
    started = time.monotonic()
    method, known = resolve_auto(problem, asked, options)
    if known is not None and args.checkpoint is None:
        engine = "chosen by auto, counted while choosing, in this process"
        return _whole_count(known, method, engine, args, started, 1)
    family = METHOD_TRAITS[method].family
    if family and args.checkpoint is None and args.tasks is None and not args.timeout:
        status = _frontier_count(problem, args, started)
        if status is not None:
            return status
    deadline = stop_time(args)  # --timeout counts from the start of the command
    digest = fingerprint(problem)
    automatic = args.checkpoint is None
    path = automatic_checkpoint(digest, asked) if automatic else Path(args.checkpoint)
    waited = time.monotonic()  # a wait for the checkpoint is no time spent on the count
    path = claims.enter_context(claimed(path, wait=not automatic, deadline=deadline, say=_say))
    waited = time.monotonic() - waited
    state = None if path is None else Checkpoint.resume(path, problem, asked, _say)
    resumed = 0 if state is None else len(state.done)
    if state is not None:
        _say_resumed(path, state, len(state.subproblems))
    if state is None:
        tasks = default_tasks(method, args.workers, None) if args.tasks is None else args.tasks
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ExcoverWarning)
            subproblems, stopped = _until_stopped(
                lambda: split(
                    problem,
                    tasks=tasks,
                    deadline=_split_deadline(deadline),
                    grace=SPLIT_GRACE,
                )
            )
        if subproblems is None:
            return _cut_short(args, method, stopped, tasks, time.monotonic() - started)
        if args.tasks is not None:
            for warning in caught:
                print(f"excover: {warning.message}", file=sys.stderr)
        state = Checkpoint(path, digest, asked, subproblems)
    args.checkpoint_path = path
    tasks = _local_tasks(problem, state, args, _split_deadline(deadline))
    bar = TaskBar(args, state.total_size(), method, _workers(args.workers or 1), tasks=tasks)
    earlier = state.seconds
    stopped_by: str | None = None

    def save() -> None:
        state.seconds = earlier + time.monotonic() - started - waited
        if not automatic or (stopped_by is not None and state.done):
            state.save()  # the automatic one only when a run stops with work to keep

    save()  # at once: a FILE that cannot be written fails before the work, not after it
    ctrl_c = _DeferredCtrlC(at_once=(args.workers or 1) == 1)
    runs = run_tasks(
        problem,
        state.subproblems,
        method,
        options,
        workers=args.workers or 1,
        skip=lambda index: index in state.split or state.settled(index),
        deadline=None if deadline is None else time.time() + deadline - time.monotonic(),
        board=tasks.board,
    )
    try:
        with ctrl_c:
            stopped_by = _collect(runs, state, _Watch(args, bar, deadline, save, ctrl_c))
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    except TimeUp:
        stopped_by = "timeout"
    finally:
        runs.close()
        save()
        if automatic and state.complete and path is not None:
            path.unlink(missing_ok=True)  # finished: nothing left to resume
        bar.close(state.done_size(), state)
    return _report(state, method, args, stopped_by, resumed, time.monotonic() - started)


def _local_tasks(
    problem: ExactCover, state: Checkpoint, args: argparse.Namespace, deadline: float | None
) -> LocalTasks:
    """The subproblems of ``state`` this run counts, in the order the pool hands them
    out (:func:`~excover.parallel.run.run_tasks`: biggest estimate first), for the bar
    and the time left. When a bar is drawn, their weights are their sizes estimated
    afresh (:func:`~excover.parallel.subproblems.resized`, as a cluster's ledger has
    them; within :data:`FRESH_SECONDS` and by ``deadline``, else the split's): the
    split's own are biased by its choice of what to cut (pento6x10 cut in 12 has
    subproblems of 100,000 nodes estimated at 111, queens16's small ones are 1.3 to 2.8
    times too small). With a bar on several workers, a :class:`~excover.parallel.board.
    Board` too, on which the workers post how far their tasks are."""
    from excover.cli.progress import wanted
    from excover.parallel.board import Board
    from excover.parallel.progress import LocalTasks
    from excover.parallel.subproblems import resized

    subs = state.subproblems
    order = sorted(
        (i for i in range(len(subs)) if not (i in state.split or state.settled(i))),
        key=lambda i: -subs[i].size,
    )
    if wanted(args) and not state.split:
        budget = time.monotonic() + FRESH_SECONDS
        with contextlib.suppress(LimitReached):
            subs = resized(
                problem, subs, deadline=budget if deadline is None else min(deadline, budget)
            )
    sizes = [sub.size for sub in subs]
    # with a bar, the workers post how far their tasks are (the time left of a task far
    # bigger than the others, running on alone, is known from nothing else)
    board = Board(len(subs)) if wanted(args) and (args.workers or 1) > 1 else None
    slots = args.workers or 1
    return LocalTasks(sizes, order, slots, sum(sizes[i] for i in state.top()), board=board)


def _say(text: str) -> None:
    """A note on stderr."""
    print(f"excover: {text}", file=sys.stderr)


def _workers(n: int) -> str:
    """``1 worker``, ``2 workers``."""
    return f"{n} worker" + ("s" if n != 1 else "")


def _say_resumed(path: Path | None, state: Checkpoint, parts: int | None) -> None:
    """Tell on stderr what a run takes from its checkpoint: the subproblems counted (of
    ``parts``, when the run has that many), their solutions, the time spent on them."""
    of = "" if parts is None else f" of {parts}"
    print(
        f"excover: resuming from {path} ({len(state.done)}{of} subproblems counted by earlier "
        f"runs: {abbreviated(state.count)} solutions in {state.seconds:.1f} s)",
        file=sys.stderr,
    )


def _refuse_cluster_flags(args: argparse.Namespace) -> None:
    """--task-timeout and --split-after need --dask."""
    if args.task_timeout is not None:
        raise UsageError("--task-timeout goes with --dask")
    if args.split_after != SPLIT_AFTER:
        raise UsageError("--split-after goes with --dask")


def _count_on_cluster(
    problem: ExactCover,
    args: argparse.Namespace,
    asked: str,
    options: dict[str, Any],
    claims: contextlib.ExitStack,
) -> int:
    """``excover count --dask ADDRESS``: count on a Dask cluster (see
    :mod:`excover.parallel.cluster`), the ledger saved to ``--checkpoint`` every
    ``--checkpoint-every`` seconds, on Ctrl-C, on ``--timeout`` and at the end."""
    if args.workers is not None:
        raise UsageError("--workers does not go with --dask: the cluster has its workers")
    from excover.parallel.checkpoint import claimed
    from excover.parallel.cluster import ClusterRun, open_ledger
    from excover.parallel.run import resolve_auto

    started = time.monotonic()
    deadline = stop_time(args)
    path = None if args.checkpoint is None else Path(args.checkpoint)
    with connect_dask(args.dask) as client:
        waited = time.monotonic()  # a wait for the ledger is no time spent on the count
        path = claims.enter_context(claimed(path, wait=True, deadline=deadline, say=_say))
        waited = time.monotonic() - waited
        args.checkpoint_path = path
        method, known = resolve_auto(problem, asked, options)
        if known is not None and path is None:
            engine = "chosen by auto, counted while choosing, in this process"
            return _whole_count(known, method, engine, args, started, 1)
        ledger, stopped = _until_stopped(
            lambda: open_ledger(
                problem,
                asked,
                client,
                path,
                args.tasks,
                _say,
                deadline=_split_deadline(deadline),
                grace=SPLIT_GRACE,
            )
        )
        if ledger is None:
            return _cut_short(args, method, stopped, args.tasks, time.monotonic() - started)
        resumed = len(ledger.done)
        if resumed:
            _say_resumed(path, ledger, None)
        args.workers = len(client.nthreads())
        run = ClusterRun(
            problem,
            client,
            ledger,
            method,
            options,
            task_timeout=args.task_timeout,
            split_after=args.split_after or None,
        )
        stopped_by = _drive(run, args, started + waited, deadline)
    if args.stats:
        print(
            f"cluster: {run.stats.retried} retried, {run.stats.hung} hung, "
            f"{run.stats.splits} cut for idle workers, {run.stats.ignored} late results ignored",
            file=sys.stderr,
        )
    return _report(ledger, method, args, stopped_by, resumed, time.monotonic() - started)


def _drive(
    run: ClusterRun, args: argparse.Namespace, started: float, deadline: float | None
) -> str | None:
    """Run ``run`` to its end or to a stop (Ctrl-C, ``deadline``), with the progress bar
    and the saves of its ledger; what stopped it early, or None."""
    ledger = run.ledger
    earlier = ledger.seconds
    bar = TaskBar(
        args, ledger.total_size(), run.job.method, "a Dask cluster", time_left=run.remaining
    )

    def save() -> None:
        ledger.seconds = earlier + time.monotonic() - started
        ledger.save()

    save()  # at once: a ledger that cannot be written fails before the work, not after it
    steps = run.steps()
    try:
        with _DeferredCtrlC() as ctrl_c:
            return _follow(steps, run, _Watch(args, bar, deadline, save, ctrl_c))
    except KeyboardInterrupt:
        return "interrupt"
    finally:
        steps.close()
        save()
        bar.close(ledger.done_size(), ledger)


def connect_dask(address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or a UsageError saying why not
    (``--dask`` of ``excover count`` and ``excover disassemble``)."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--dask needs Dask: pip install 'excover[dask]'") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _follow(steps: Generator[bool], run: ClusterRun, watch: _Watch) -> str | None:
    """Follow a cluster run, drawing the bar (with the share done by the tasks running,
    :meth:`~excover.parallel.cluster.ClusterRun.progress`) and saving the ledger now
    and then; what stopped it early, or None."""
    ledger = run.ledger
    for changed in steps:
        stopped = watch.stopped(run.progress() * ledger.total_size(), ledger, changed)
        if stopped is not None:
            return stopped
    return "interrupt" if watch.ctrl_c.pressed else None


def automatic_checkpoint(digest: str, method: str) -> Path | None:
    """Where a parallel count without ``--checkpoint`` keeps its finished subproblems
    when it is stopped early, so that the same command continues: a file named by the
    problem and the method in excover's cache folder (``$XDG_CACHE_HOME/excover``, or
    ``~/.cache/excover``); None when that folder cannot be made."""
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
    (or ledger) every ``--checkpoint-every`` seconds."""

    def __init__(
        self,
        args: argparse.Namespace,
        bar: TaskBar,
        deadline: float | None,
        save: Callable[[], None],
        ctrl_c: _DeferredCtrlC,
    ) -> None:
        self.every: float = args.checkpoint_every
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
        if finished is not None and finished[1].complete:
            index, result = finished
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
    stops it at once, and within an alarm at ``deadline`` (:func:`~excover.cli.common.
    deadline`: :class:`~excover.cli.common.TimeUp`), as a DXZ count has no deadline of
    its own (on the main thread only, where Python takes signals)."""
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


def _cut_short(
    args: argparse.Namespace, method: str, stopped_by: str | None, tasks: int | None, seconds: float
) -> int:
    """Print the result of a count stopped while its problem was being cut into ``tasks``
    subproblems (None: as many as the cluster asks for): nothing counted, a partial
    count of 0; the exit status."""
    stats = {
        "solutions": 0,
        "seconds": seconds,
        "complete": False,
        "stopped_by": stopped_by,
        "method": method,
        "workers": args.workers or 1,
        "subproblems": 0,
        "done": 0,
    }
    into = "subproblems" if tasks is None else f"{tasks:,} subproblems"
    engine = f"cutting into {into}"
    if args.json:
        command = getattr(args, "command", None) or "count"
        print(json.dumps(document(command, method, engine, stopped_by, count=0, stats=stats)))
    else:
        print(0)
    sys.stdout.flush()
    if not args.json:
        say_method(args, method, engine)
    cause = "stopped by --timeout" if stopped_by == "timeout" else "interrupted"
    print(
        f"excover: {cause} while cutting the problem into {into}, before any was counted; "
        "the result is partial",
        file=sys.stderr,
    )
    return EXIT_INTERRUPT if stopped_by == "interrupt" else EXIT_LIMIT


def _frontier_count(problem: ExactCover, args: argparse.Namespace, started: float) -> int | None:
    """Count a problem the frontier count suits on ``--workers`` threads (see
    :mod:`excover.zdd.frontier`) and print it; None when it does not suit."""
    from excover.zdd import frontier

    workers = args.workers or 1
    try:
        total = frontier.count(problem, workers)
    except KeyboardInterrupt:
        print("excover: interrupted; nothing counted", file=sys.stderr)
        return 130
    if total is None:
        return None
    return _whole_count(total, "zdd", f"frontier count, {workers} threads", args, started, workers)


def _whole_count(
    total: int, method: str, engine: str, args: argparse.Namespace, started: float, workers: int
) -> int:
    """Print the count of the whole problem, found without subproblems by ``workers``
    threads or processes (not always the ``--workers`` asked for); return 0."""
    seconds = time.monotonic() - started
    stats = {"solutions": exact(total), "seconds": seconds, "workers": workers}
    if args.json:
        print(
            json.dumps(
                document(
                    getattr(args, "command", None) or "count",
                    method,
                    engine,
                    None,
                    count=total,
                    stats=stats,
                )
            )
        )
    else:
        print(to_decimal(total))
    sys.stdout.flush()
    if not args.json:
        say_method(args, method, engine)
    if args.stats:
        print(
            f"solutions: {to_decimal(total)}\ntime: {seconds:.3f} s\nmethod: {method} ({engine})",
            file=sys.stderr,
        )
    return 0


def _detail(state: Checkpoint) -> str:
    """The subproblems counted, for the progress bar: of all (``3/60``), or with those
    still to go once some were cut for idle workers."""
    if state.split:
        return f"{len(state.done)} counted, {len(state.open_leaves())} to go"
    return f"{len(state.done)}/{len(state.subproblems)}"


def _report(
    state: Checkpoint,
    method: str,
    args: argparse.Namespace,
    stopped_by: str | None,
    resumed: int,
    seconds: float,
) -> int:
    """Print the count and the statistics (``method``: the one that ran); return the
    exit status."""
    stats = {
        "solutions": exact(state.count),
        "nodes": state.nodes,
        "seconds": seconds,
        "total_seconds": state.seconds,
        "complete": state.complete,
        "stopped_by": stopped_by,
        "method": method,
        "workers": args.workers or 1,
        "subproblems": len(state.subproblems),
        "done": len(state.done),
        "resumed": resumed,
    }
    engine = f"{len(state.subproblems)} subproblems on {_workers(args.workers or 1)}"
    if args.json:
        result = document(
            getattr(args, "command", None) or "count",
            method,
            engine,
            stopped_by,
            count=state.count,
            stats=stats,
        )
        print(json.dumps(result))
    else:
        print(to_decimal(state.count))
    sys.stdout.flush()
    if not args.json:
        say_method(args, method, engine)
    if stopped_by is not None:
        cause = "stopped by --timeout" if stopped_by == "timeout" else "interrupted"
        kept = getattr(args, "checkpoint_path", None)
        where = "" if kept is None or not state.done else f"; run again to resume from {kept}"
        print(
            f"excover: {cause} with {len(state.done)} of {len(state.subproblems)} subproblems "
            f"counted; the result is partial{where}",
            file=sys.stderr,
        )
    if args.stats or stopped_by == "interrupt":
        lines = [
            f"solutions: {to_decimal(state.count)}",
            f"nodes: {state.nodes} (in the subproblems counted by a search)",
            f"time: {seconds:.3f} s ({state.seconds:.3f} s in all runs)",
            f"subproblems: {len(state.done)} of {len(state.subproblems)} counted, "
            f"{resumed} from the checkpoint",
            f"workers: {args.workers or 1}",
            f"method: {method}",
        ]
        print("\n".join(lines), file=sys.stderr)
    if stopped_by == "interrupt":
        return EXIT_INTERRUPT
    return EXIT_LIMIT if stopped_by == "timeout" else EXIT_OK
