"""Running subproblems on workers: a process pool, any executor, or a Dask cluster.

The problem travels once per task as a pickled byte string with a digest; each worker
process unpickles it the first time it sees the digest and keeps it (with its
:class:`~excover.parallel.tree.Layout`), so a task costs its reduction and its search,
nothing more. A task is a :class:`~excover.parallel.subproblems.Subproblem`'s two lists of
option indices, reduced to a small plain problem in the worker and solved there by the
method asked for (``"search"``, ``"zdd"`` or ``"auto"``, as :meth:`ExactCover.count`).

Tasks are submitted biggest first (by their estimated size), which keeps the workers busy
to the end; the results are added up, or for solutions yielded in the order of the tasks,
so the result never depends on the number of workers or on which task finished first.
``workers=1`` runs the tasks one after the other in the calling process.

A count by dancing links on several workers, with no subproblems asked for, goes another
way when the bit-parallel engine suits the problem: each worker runs one *share* of the
same search (``Search(share=(k, n))``), which needs no split and no reduced subproblems.

A count on a Dask ``Client`` goes to :mod:`excover.parallel.cluster`, which survives lost
and hung workers and keeps a ledger; listing solutions on a Client goes through its
``concurrent.futures`` executor, as here.
"""

from __future__ import annotations

import math
import os
import pickle
import time
import warnings
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from typing import Any

from excover.engines import Search, pick_engine
from excover.entries import check_count_limit
from excover.errors import ExcoverWarning, LimitReached, UsageError
from excover.names import METHOD_TRAITS, canonical_method
from excover.parallel.board import Board
from excover.parallel.subproblems import Subproblem, check_options, split
from excover.parallel.tasks import (
    TASKS_PER_WORKER,
    Job,
    Payload,
    TaskResult,
    check_task_options,
    preload,
    solve_task,
)
from excover.parallel.workers import check_workers
from excover.problem import Problem

__all__ = [
    "TASKS_PER_WORKER",
    "Job",
    "Payload",
    "TaskResult",
    "count",
    "default_tasks",
    "executor_for",
    "run_tasks",
    "solutions",
]

#: The number of workers assumed of an executor (whose size is not known) for the
#: default number of subproblems.
EXECUTOR_WORKERS = 4

#: Seconds between two ticks of :func:`run_tasks` while it waits for workers.
TICK = 0.2


def resolve_auto(problem: Problem, method: str, options: dict[str, Any]) -> tuple[str, int | None]:
    """The method of a parallel count asked for with ``method``: ``"auto"`` is resolved
    once, on the whole problem, by :func:`excover.counting.choice.scout` (a search when
    search options are given, as for a plain count), so that every subproblem runs the
    same method and the run can say which. Also the count, when the choice already found
    it."""
    if not METHOD_TRAITS[method].chooses:
        return method, None
    if set(options) - {"engine"}:
        return "search", None
    from excover.counting import choice

    return choice.scout(problem, options.get("engine", "auto"))


def executor_for(executor: object) -> Executor:
    """``executor`` as a concurrent.futures Executor: itself, or the executor of a Dask
    distributed ``Client`` (anything with ``get_executor()``)."""
    if isinstance(executor, Executor):
        return executor
    get_executor = getattr(executor, "get_executor", None)
    if callable(get_executor):
        result = get_executor()
        if isinstance(result, Executor):
            return result
    raise UsageError(
        f"executor must be a concurrent.futures.Executor or a Dask Client, not {executor!r}"
    )


def default_tasks(method: str, workers: int | None, executor: object | None) -> int:
    """How many subproblems to make when the caller does not say.

    Dancing links: :data:`TASKS_PER_WORKER` per worker, to even out the load. DXZ: one
    per worker, as each subproblem builds its own memo of the states of the search, which
    the subtrees of one DXZ run share (so more subproblems mean more work in all).
    """
    per_worker = 1 if METHOD_TRAITS[method].family else TASKS_PER_WORKER
    if executor is not None:
        return per_worker * EXECUTOR_WORKERS
    return per_worker * (workers or 1)


@contextmanager
def _pool(
    workers: int, executor: object | None, board: Board | None = None
) -> Iterator[Executor | None]:
    """The executor to run tasks on: the caller's, a process pool of ``workers`` made
    and shut down here (posting on ``board``), or None (``workers=1``: in this
    process)."""
    if executor is not None:
        yield executor_for(executor)
        return
    if workers == 1:
        yield None
        return
    from excover.parallel import workers as processes

    pool = processes.new_pool(workers, board)
    try:
        yield pool
    except BaseException:  # Ctrl-C, a time limit, an error: stop the workers now
        processes.stop(pool)
        raise
    pool.shutdown(wait=True)


def run_tasks(
    problem: Problem,
    subproblems: list[Subproblem],
    method: str = "search",
    options: dict[str, Any] | None = None,
    *,
    workers: int = 1,
    executor: object | None = None,
    enumerate_: bool = False,
    skip: Callable[[int], bool] = lambda index: False,
    deadline: float | None = None,
    board: Board | None = None,
) -> Generator[tuple[int, TaskResult] | None]:
    """Solve the subproblems; yield ``(index, result)`` as each one finishes.

    While it waits for workers it also yields None every :data:`TICK` seconds, so the
    caller can show progress, save a checkpoint or give up. Subproblems whose index
    ``skip`` accepts (already done) are not run. Counts by dancing links stop at
    ``deadline`` (seconds since the epoch), their results not ``complete``. Closing the
    iterator (or an exception, such as Ctrl-C) cancels the tasks not yet started.
    With ``board`` (:class:`~excover.parallel.board.Board`, one slot per subproblem),
    the workers of a pool made here post the progress of the tasks they run on it.
    """
    options = dict(options or {})
    check_task_options(method, options)
    check_options(problem, subproblems)
    job = Job(method, options, enumerate_, deadline)
    payload = Payload.of(problem)
    preload(problem, payload)
    order = sorted(
        (index for index in range(len(subproblems)) if not skip(index)),
        key=lambda index: -subproblems[index].size,
    )
    posting = board is not None and executor is None and workers > 1
    with _pool(workers, executor, board if posting else None) as pool:
        if pool is None:
            for index in order:
                sub = subproblems[index]
                yield index, solve_task(payload, job, sub.forced, sub.forbidden)
            return
        futures: dict[Future[TaskResult], int] = {}
        try:
            for index in order:
                sub = subproblems[index]
                slot = index if posting else None
                future = pool.submit(solve_task, payload, job, sub.forced, sub.forbidden, slot)
                futures[future] = index
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=TICK, return_when=FIRST_COMPLETED)
                if not finished:
                    yield None
                for future in sorted(finished, key=futures.__getitem__):
                    yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()


def _subproblems(
    problem: Problem,
    method: str,
    workers: int | None,
    executor: object | None,
    tasks: int | None,
) -> list[Subproblem]:
    """The subproblems of a parallel run: ``tasks`` of them, or the default number (and
    then no warning when the tree has fewer nodes to cut: the number was not asked for)."""
    if tasks is not None:
        return split(problem, tasks=tasks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExcoverWarning)
        return split(problem, tasks=default_tasks(method, workers, executor))


def count(
    problem: Problem,
    method: str = "search",
    *,
    workers: int | None = None,
    executor: object | None = None,
    tasks: int | None = None,
    options: dict[str, Any] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> int:
    """The number of solutions, counted as ``tasks`` subproblems on ``workers`` processes
    (default 1, in this process) or on ``executor`` (a concurrent.futures Executor or a
    Dask Client). The same exact int whatever the workers.

    On a Dask ``Client`` the count survives lost and hung workers and cuts long
    subproblems for idle ones (:mod:`excover.parallel.cluster`); ``checkpoint`` (a path,
    only with a Client) keeps its ledger of finished subproblems, and a count started
    again with the same path resumes from it.

    With ``method="zdd"``, no ``tasks`` and no ``executor``, a problem the frontier count
    suits (:mod:`excover.zdd.frontier`) is counted on ``workers`` threads instead: DXZ's
    states are shared by all its subtrees, so subproblems would each redo most of them.
    """
    method = canonical_method(method, stacklevel=1)
    n = 1 if workers is None else check_workers(workers)
    check_task_options(method, dict(options or {}))
    if executor is not None:  # a bad one is refused even when no task would need it
        executor_for(executor)
    if tasks is not None and (isinstance(tasks, bool) or not isinstance(tasks, int) or tasks < 1):
        raise UsageError(f"tasks must be a positive integer, not {tasks!r}")
    from excover.parallel import cluster

    if checkpoint is not None and not cluster.is_client(executor):
        raise UsageError("checkpoint= goes with executor=, a Dask Client")
    asked = method
    method, known = resolve_auto(problem, method, dict(options or {}))
    if cluster.is_client(executor):
        if known is not None and checkpoint is None:
            return known
        return cluster.count_on_cluster(
            problem, executor, method, options, tasks=tasks, checkpoint=checkpoint, asked=asked
        )
    if known is not None:
        return known
    if METHOD_TRAITS[method].family and tasks is None and executor is None:
        from excover.zdd import frontier

        counted = frontier.count(problem, n)
        if counted is not None:
            return counted
    if METHOD_TRAITS[method].one_search and n > 1 and tasks is None and executor is None:
        shared = _share_options(problem, dict(options or {}))
        if shared is not None:
            return _count_by_shares(problem, shared, n)
    subproblems = _subproblems(problem, method, workers, executor, tasks)
    if n > 1 and executor is None:  # a long task is cut for idle workers
        return _count_locally(problem, subproblems, method, options, n)
    runs = run_tasks(problem, subproblems, method, options, workers=n, executor=executor)
    return sum(done[1].total for done in runs if done is not None)


def _count_locally(
    problem: Problem,
    subproblems: list[Subproblem],
    method: str,
    options: dict[str, Any] | None,
    workers: int,
) -> int:
    """The count of ``subproblems`` on a pool of ``workers`` that cuts a long task for
    idle workers (:class:`~excover.parallel.local.LocalRun`, over a checkpoint kept in
    memory)."""
    from excover.parallel.checkpoint import Checkpoint
    from excover.parallel.local import LocalRun

    ledger = Checkpoint(None, "", method, list(subproblems))
    steps = LocalRun(problem, ledger, method, options, workers=workers).steps()
    try:
        for step in steps:
            if step is not None and step[1].complete and not ledger.settled(step[0]):
                ledger.done[step[0]] = (step[1].total, step[1].nodes)
    finally:
        steps.close()
    return ledger.count


def _share_options(problem: Problem, options: dict[str, Any]) -> dict[str, Any] | None:
    """The search options for counting ``problem`` in shares (see :func:`_count_by_shares`),
    or None when it should be cut into subproblems: shares need the bit-parallel engine
    and a heuristic they run (not "forced", whose forced levels are not dealt out as
    units, nor "weighted", whose weights grow from the subtrees each share walks). A
    random heuristic gets one seed for all the shares, which must walk the same tree."""
    if options.get("heuristic") in ("forced", "weighted"):
        return None
    if pick_engine(problem, options.get("engine", "auto")) != "bits":
        return None
    if options.get("heuristic") == "random" and options.get("seed") is None:
        options["seed"] = int.from_bytes(os.urandom(8), "little") >> 1
    return options


#: The problem of the latest count in shares, by digest: workers forked after it is set
#: find it without unpickling.
_SHARED: dict[str, Problem] = {}

#: Seconds a count on workers runs alone in this process before it starts its workers
#: (a count that ends by then starts none: a pool of processes and the problem sent to
#: them cost more than such a count).
SOLO_SECONDS = 0.05

#: Shares of the search per worker: this process and its workers take them as they
#: free, so the one that started late (the workers, after :data:`SOLO_SECONDS`) takes
#: fewer.
SHARES_PER_WORKER = 4


def _count_share(payload: Payload, options: dict[str, Any], share: tuple[int, int]) -> int:
    """The solutions of one share of the search (runs in a worker)."""
    problem = _SHARED.get(payload.digest)
    if problem is None:
        problem = pickle.loads(payload.data)
        _SHARED.clear()
        _SHARED[payload.digest] = problem
    return Search(problem, share=share, **options).count()


def _count_by_shares(problem: Problem, options: dict[str, Any], workers: int) -> int:
    """Count on ``workers`` processes, each running shares of one search
    (``Search(share=(k, n))``, :data:`SHARES_PER_WORKER` shares a worker). No splitting
    beforehand and no reduced subproblems, and shares of about equal work.

    The count first runs alone in this process, share after share, for
    :data:`SOLO_SECONDS`: a count that ends by then (most counts of a few hundredths of
    a second), or that has less than as long again to go at its pace so far (by the
    shares counted and the share walked of the one running), starts no process; nor
    does one while this process gets less than :data:`~excover.parallel.workers.
    FULL_CORE` of a core (a machine busy with other work, whose scheduler would give
    two processes of this run no more CPU than one: it looks again every
    :data:`SOLO_SECONDS`). Past them, a pool of ``workers - 1`` processes takes
    the shares not started while this process goes on with the one it runs (nothing is
    counted twice), then takes more of them from the back of the pool's queue, those
    not yet handed to a worker (:meth:`Future.cancel` says which)."""
    from excover.parallel import workers as processes

    shares = SHARES_PER_WORKER * workers
    began = time.monotonic()
    problem.engine_input()  # built once here, inherited by forked workers
    waiting = list(range(shares))
    look = began + SOLO_SECONDS  # when to look again whether to start the workers
    pace = processes.CoreShare()
    pool = None
    parts: list[Future[int]] = []
    total = 0
    try:
        while waiting:
            search = Search(problem, share=(waiting.pop(0), shares), **options)
            while pool is None and look < math.inf and not search.stats.complete:
                search.deadline = look
                try:
                    search.count()
                except LimitReached:
                    now = time.monotonic()
                    if not _long(search, shares - len(waiting), now - began, shares):
                        look = math.inf  # short after all: on alone
                    elif pace.got() >= processes.FULL_CORE:  # the workers take the rest
                        pool, parts = _fan_out(problem, options, waiting, shares, workers - 1)
                        waiting = []
                    else:  # a busy machine: a second process would get no more CPU
                        look = now + max(SOLO_SECONDS, 0.001)
                search.deadline = None
            total += search.count()
        for part in reversed(parts):  # this process takes what no worker has started
            if part.cancel():
                total += Search(problem, share=_SHARE_OF[part], **options).count()
        total += sum(part.result() for part in parts if not part.cancelled())
    except BaseException:  # Ctrl-C, an error: stop the workers now
        if pool is not None:
            processes.stop(pool)
        raise
    if pool is not None:
        pool.shutdown(wait=True)
    return total


def _long(search: Search, started: int, ran: float, shares: int) -> bool:
    """True when a count in ``shares`` shares, ``ran`` seconds into the ``started``-th
    (its ``search``), has at least :data:`SOLO_SECONDS` to go at its pace so far (by
    the share of its tree walked; True when the engine cannot tell)."""
    walked = search.progress()
    if walked is None:
        return True
    done = started - 1 + walked
    return done <= 0 or ran / done * (shares - done) >= SOLO_SECONDS


#: The share each future of :func:`_fan_out` counts.
_SHARE_OF: dict[Future[int], tuple[int, int]] = {}


def _fan_out(
    problem: Problem, options: dict[str, Any], waiting: list[int], shares: int, workers: int
) -> tuple[Any, list[Future[int]]]:
    """A pool of ``workers`` processes counting the ``waiting`` shares (of ``shares``),
    and their futures."""
    from excover.parallel import workers as processes

    payload = Payload.of(problem)
    _SHARED.clear()
    _SHARED[payload.digest] = problem
    pool = processes.new_pool(workers)
    _SHARE_OF.clear()
    parts = []
    for k in waiting:
        part = pool.submit(_count_share, payload, options, (k, shares))
        _SHARE_OF[part] = (k, shares)
        parts.append(part)
    return pool, parts


def solutions(
    problem: Problem,
    method: str = "search",
    limit: int | None = None,
    *,
    workers: int | None = None,
    executor: object | None = None,
    tasks: int | None = None,
    options: dict[str, Any] | None = None,
) -> Iterator[list[int]]:
    """The solutions, found as subproblems in parallel and yielded in the order of the
    subproblems (the engine's depth-first order; within a subproblem the engine's order
    of that subproblem's search, or sorted with DXZ). At most ``limit`` of them.

    The solutions of each subproblem are collected in its worker and kept here until
    their turn comes, so this needs memory for the solutions of the subproblems that
    finished ahead of their turn.
    """
    method = canonical_method(method, stacklevel=1)
    check_count_limit("limit", limit)
    n = 1 if workers is None else check_workers(workers)
    check_task_options(method, dict(options or {}))
    subproblems = _subproblems(problem, method, workers, executor, tasks)
    return _in_order(
        run_tasks(
            problem, subproblems, method, options, workers=n, executor=executor, enumerate_=True
        ),
        limit,
    )


def _in_order(
    runs: Generator[tuple[int, TaskResult] | None], limit: int | None
) -> Iterator[list[int]]:
    """The solutions of finished tasks, task after task in index order."""
    waiting: dict[int, list[list[int]]] = {}
    turn = produced = 0
    if limit == 0:
        runs.close()
        return
    try:
        for done in runs:
            if done is None:
                continue
            index, result = done
            waiting[index] = result.solutions or []
            while turn in waiting:
                for solution in waiting.pop(turn):
                    yield solution
                    produced += 1
                    if limit is not None and produced >= limit:
                        return
                turn += 1
    finally:
        runs.close()
