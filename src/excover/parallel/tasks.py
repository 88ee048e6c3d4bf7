"""One subproblem's task, as every kind of worker runs it: the problem as tasks carry it
(:class:`Payload`), what to do with it (:class:`Job`) and what came of it
(:class:`TaskResult`), and :func:`solve_task`, which counts or lists the solutions of one
subproblem in a worker. Shared by the process pools and executors of
:mod:`excover.parallel.run` and the Dask runs of :mod:`excover.parallel.cluster`.
"""

from __future__ import annotations

import hashlib
import pickle
import time
from typing import Any, NamedTuple

from excover.counting import methods
from excover.engines import Search
from excover.errors import LimitReached, UsageError
from excover.names import METHOD_TRAITS, TASK_METHODS
from excover.parallel import board
from excover.parallel.tree import Layout, State
from excover.problem import Problem

__all__ = [
    "TASKS_PER_WORKER",
    "TASK_METHODS",
    "TASK_OPTIONS",
    "Job",
    "Payload",
    "TaskResult",
    "check_task_options",
    "load",
    "preload",
    "solve_task",
]

#: Subproblems per worker made by default: enough to even out the load, few enough
#: that splitting (in the calling process, before the workers start) stays cheap.
TASKS_PER_WORKER = 6

#: The nodes of a posting count's first step (:func:`_count_posting`).
FIRST_STEP = 4096

#: Search options that make sense per task (limits would apply to each task alone).
TASK_OPTIONS = ("heuristic", "seed", "engine")


class TaskResult(NamedTuple):
    """What one subproblem gave: its number of solutions, its search nodes (0 unless
    counted by a search engine), the CPU seconds it took in the worker, its solutions when they
    were asked for, and whether it ran to its end (not when stopped by a deadline)."""

    total: int
    nodes: int
    seconds: float
    solutions: list[list[int]] | None
    complete: bool = True


class Payload(NamedTuple):
    """A problem as tasks carry it: pickled, with a digest that names it in the workers."""

    data: bytes
    digest: str

    @classmethod
    def of(cls, problem: Problem) -> Payload:
        data = pickle.dumps(problem, protocol=pickle.HIGHEST_PROTOCOL)
        return cls(data, hashlib.sha256(data).hexdigest())


#: The problems a worker process has seen, by digest (only the latest is kept).
_LOADED: dict[str, tuple[Problem, Layout]] = {}


def load(payload: Payload) -> tuple[Problem, Layout]:
    """The problem of ``payload`` and its layout, unpickled once per worker process."""
    found = _LOADED.get(payload.digest)
    if found is None:
        problem = pickle.loads(payload.data)
        found = (problem, Layout.of(problem))
        _LOADED.clear()
        _LOADED[payload.digest] = found
    return found


def preload(problem: Problem, payload: Payload) -> None:
    """Put the problem and its layout where :func:`load` looks first, and import numpy
    (which reducing a subproblem needs): tasks run in this process and worker processes
    forked after this (the process pool's start on Linux) find them ready."""
    import numpy  # noqa: F401

    _LOADED.clear()
    _LOADED[payload.digest] = (problem, Layout.of(problem))


class Job(NamedTuple):
    """What to do with every subproblem of a run: the ``method`` and search ``options``,
    whether to list the solutions (``enumerate_``) or only count them, and a ``deadline``
    (seconds since the epoch, or None) at which counts by dancing links stop."""

    method: str
    options: dict[str, Any]
    enumerate_: bool = False
    deadline: float | None = None


def solve_task(
    payload: Payload,
    job: Job,
    forced: tuple[int, ...],
    forbidden: tuple[int, ...],
    slot: int | None = None,
) -> TaskResult:
    """Count (or list) the solutions of one subproblem, as ``job`` says.

    Runs in a worker; the solutions are option indices of the whole problem, each the
    forced options followed by the rest in the engine's order (sorted with DXZ). A count
    that reaches the job's deadline gives up: its result is not ``complete``. A count by
    a search engine, with ``slot`` (the subproblem's index) and a board attached to this
    worker (:mod:`excover.parallel.board`), posts its nodes and the share of its tree
    walked there as it goes (:func:`_count_posting`).
    """
    started = time.process_time()
    layout = load(payload)[1]
    options = dict(job.options)
    traits = METHOD_TRAITS[job.method]
    if job.deadline is not None and not traits.family and not job.enumerate_:
        options["timeout"] = job.deadline - time.time()
        if options["timeout"] <= 0:
            return TaskResult(0, 0, 0.0, None, complete=False)
    small, original = State.after(layout, forced, forbidden).reduced()
    nodes = 0
    found: list[list[int]] | None = None
    try:
        if job.enumerate_:
            found = [
                [*forced, *(original[k] for k in solution)]
                for solution in methods.solutions(small, job.method, **options)
            ]
            if traits.family:  # listed in the family's order
                found = [sorted(solution) for solution in found]
            total = len(found)
        elif traits.one_search:
            search = Search(small, **options)
            if slot is None or board.attached() is None:
                total = search.count()
            else:
                counted = _count_posting(search, slot)
                if counted is None:  # asked to stop: its subproblem was cut into parts
                    return TaskResult(0, 0, time.process_time() - started, None, complete=False)
                total = counted
            nodes = search.stats.nodes
        else:
            total = methods.count(small, job.method, **options)
    except LimitReached:
        return TaskResult(0, 0, time.process_time() - started, None, complete=False)
    return TaskResult(total, nodes, time.process_time() - started, found)


def _count_posting(search: Search, slot: int) -> int | None:
    """Count ``search`` to its end in steps of about :data:`~excover.parallel.board.
    POST_SECONDS` (the steps double or halve to keep to that), posting its nodes and
    the share of its tree walked on the board after each; None when the run asks it to
    stop (:func:`~excover.parallel.board.stop_asked`)."""
    step = FIRST_STEP
    while True:
        began = time.perf_counter()
        ended = search.count_until(search.stats.nodes + step)
        board.post(slot, search.stats.nodes, search.progress())
        if ended:
            return search.count()
        if board.stop_asked(slot):
            return None
        took = time.perf_counter() - began
        if took < board.POST_SECONDS / 2:
            step *= 2
        elif took > board.POST_SECONDS * 2 and step > FIRST_STEP:
            step //= 2


def check_task_options(method: str, options: dict[str, Any]) -> None:
    """Reject what cannot be split: SAT, and limits meant for a whole search."""
    if method not in TASK_METHODS:
        raise UsageError(
            f"method {method!r} cannot run split into subproblems; choose one of "
            f"{', '.join(TASK_METHODS)}"
        )
    for name in options:
        if name not in TASK_OPTIONS:
            raise UsageError(f"{name}= does not go with workers=, executor= or tasks=")
    if METHOD_TRAITS[method].family and any(
        name != "engine" or value != "auto" for name, value in options.items()
    ):
        raise UsageError(f"method 'zdd' takes no search options, not {sorted(options)}")
