"""The worker processes of a parallel run: they die with the process that started them,
and they are stopped at once when the run ends early.

A process pool's workers outlive a main process killed by SIGKILL (re-parented to init,
they would go on with their subproblems forever), and a run interrupted by Ctrl-C or a
time limit would otherwise wait for every running subproblem to finish (a DXZ count can
take minutes). So each worker asks the kernel to kill it when its parent dies (Linux's
``PR_SET_PDEATHSIG``) and, on any system, watches its parent from a thread; and
:func:`stop` terminates the workers of a pool that is given up.

A run asks for at most :data:`WORKERS_PER_CPU` processes per CPU of the machine
(:func:`most_workers`): a count keeps its processes busy, so more than there are CPUs
only share them, and a hundred thousand processes would take the machine down before
the first subproblem. More machines are a Dask cluster's workers (``executor=`` a Dask
``Client``, ``excover count --dask``), which this bound does not concern.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from excover.errors import UsageError
from excover.parallel.board import Board, attach

__all__ = [
    "FULL_CORE",
    "SOLO_SECONDS",
    "WATCH_SECONDS",
    "WORKERS_PER_CPU",
    "CoreShare",
    "CpuClock",
    "check_workers",
    "cpu_note",
    "give_up",
    "ignoring_interrupts",
    "most_workers",
    "new_pool",
    "solo_first",
    "stop",
]

#: How often a worker checks that the process that started it is still there.
WATCH_SECONDS = 0.5

#: The most worker processes a run may ask for, per CPU of the machine.
WORKERS_PER_CPU = 8

_PR_SET_PDEATHSIG = 1

#: Seconds a run of tasks on workers (:func:`solo_first`) runs them alone in this
#: process before it starts its workers.
SOLO_SECONDS = 0.05

#: The share of a core this process must get, while it runs alone, for a run to start
#: its workers (:class:`CoreShare`): on a machine busy with other work, where the run gets
#: less, its scheduler gives a second process little or nothing more (measured: two
#: workers got 0.61 cores where one got 0.73), so workers would only slow it.
FULL_CORE = 0.8

_T = TypeVar("_T")


class CoreShare:
    """The share of a core this process gets, measured between two looks."""

    def __init__(self) -> None:
        self.wall = time.monotonic()
        self.cpu = time.process_time()

    def got(self) -> float:
        """The CPU time of this process over the wall-clock time since the last look
        (or since this was made); 1.0 when no time has passed."""
        wall, cpu = time.monotonic(), time.process_time()
        share = (cpu - self.cpu) / (wall - self.wall) if wall > self.wall else 1.0
        self.wall, self.cpu = wall, cpu
        return share


def most_workers() -> int:
    """The most worker processes a run may ask for: :data:`WORKERS_PER_CPU` times the
    CPUs of the machine (``os.cpu_count()``)."""
    return WORKERS_PER_CPU * (os.cpu_count() or 1)


class CpuClock:
    """The CPU time a run gets, in this process and the worker processes it ends
    (``resource.getrusage``: user and system time of this process and of its children
    waited for, a pool's workers once it is shut down), from the moment it is made; on a
    machine shared with other work, a run on two workers may get far less than two
    cores, which its wall-clock speed-up then says nothing about."""

    def __init__(self) -> None:
        self.wall = time.monotonic()
        self.start = _cpu()

    def stats(self, workers: int) -> dict[str, float]:
        """``cpu_seconds`` used so far and ``cores``, that time over the wall-clock time
        (what the run got of the ``workers`` it asked for: near ``workers`` on a quiet
        machine with that many cores)."""
        used = _cpu() - self.start
        wall = time.monotonic() - self.wall
        cores = used / wall if wall > 0 else 0.0
        return {"cpu_seconds": round(used, 3), "cores": round(cores, 2), "cores_asked": workers}


#: The share of the cores asked for (at most the machine's) below which a run is said
#: to have got less than it asked (:func:`cpu_note`).
SHORT_OF_CORES = 0.85


def cpu_note(stats: Mapping[str, object]) -> str | None:
    """What a front end says of a run on workers that got less CPU than it asked for,
    from its outcome's statistics (:meth:`CpuClock.stats`): None when it got about
    what it asked (or the machine has fewer cores than that: then it got what there
    is), or ran on one worker."""
    used, cores, asked = stats.get("cpu_seconds"), stats.get("cores"), stats.get("cores_asked")
    if not (isinstance(used, float) and isinstance(cores, float) and isinstance(asked, int)):
        return None
    possible = min(asked, os.cpu_count() or 1)
    if possible < 2 or cores >= SHORT_OF_CORES * possible:
        return None
    return (
        f"the run got {used:.2f} s of CPU time, {cores:.2f} of the {possible} cores it "
        "asked for (the machine is busy with other work): its time says little of how "
        "fast it runs on free cores"
    )


def _cpu() -> float:
    """The CPU seconds of this process and its children waited for (0 where the
    ``resource`` module is missing: Windows)."""
    try:
        import resource
    except ImportError:
        return time.process_time()
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def check_workers(workers: object) -> int:
    """``workers`` as an int from 1 to :func:`most_workers`, or a UsageError saying why
    not."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise UsageError(f"workers must be a positive integer, not {workers!r}")
    most = most_workers()
    if workers > most:
        raise UsageError(
            f"workers must be at most {most} ({WORKERS_PER_CPU} per CPU of this machine), "
            f"not {workers}: more processes than CPUs only share them; to count on more "
            "machines, use a Dask cluster (executor=Client(...), or excover count --dask)"
        )
    return workers


def new_pool(workers: int, board: Board | None = None) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes that die with this process (at most
    :func:`most_workers`: a UsageError beyond), posting the progress of their tasks on
    ``board`` (:mod:`excover.parallel.board`) when one is given."""
    check_workers(workers)
    return ProcessPoolExecutor(workers, initializer=_start, initargs=(os.getpid(), board))


def solo_first(task: Callable[..., _T], calls: Sequence[tuple[Any, ...]], workers: int) -> list[_T]:
    """``task(*call)`` for each of ``calls``, in order, on ``workers`` processes counting
    this one, with no process started for a run that is short: the tasks run here one
    after the other until :data:`SOLO_SECONDS` have passed (a pool and the arguments
    sent to it cost more than a run of a few hundredths of a second), and on here when
    the tasks left, at the pace so far, take less time again, or while this process
    gets less than :data:`FULL_CORE` of a core (looked at again between tasks every
    :data:`SOLO_SECONDS`); else a pool
    of ``workers - 1`` processes takes the tasks not started, from the first, while this
    process takes them from the last, those no worker has started
    (:meth:`Future.cancel` says which). Ctrl-C or an error stops the workers at once
    (:func:`stop`)."""
    began = time.monotonic()
    pace = CoreShare()
    results: list[Any] = [None] * len(calls)
    first = 0
    look = began + SOLO_SECONDS
    while first < len(calls):
        if workers >= 2 and time.monotonic() >= look:
            ran = time.monotonic() - began
            if first and ran / first * (len(calls) - first) < SOLO_SECONDS:
                workers = 1  # as long again at most: not worth a pool
            elif pace.got() >= FULL_CORE:
                break
            else:  # a busy machine: a second process would get no more CPU
                look = time.monotonic() + SOLO_SECONDS
        results[first] = task(*calls[first])
        first += 1
    if first == len(calls):
        return results
    pool = new_pool(workers - 1)
    try:
        futures = {k: pool.submit(task, *calls[k]) for k in range(first, len(calls))}
        for k in reversed(range(first, len(calls))):
            if futures[k].cancel():
                results[k] = task(*calls[k])
        for k, future in futures.items():
            if not future.cancelled():
                results[k] = future.result()
    except BaseException:  # Ctrl-C, the alarm of a deadline, an error: stop the workers now
        stop(pool)
        raise
    pool.shutdown(wait=True)
    return results


def _start(parent: int, board: Board | None) -> None:
    """Worker initializer: die with ``parent`` (:func:`_die_with_parent`) and post on
    ``board``."""
    _die_with_parent(parent)
    attach(board)


def stop(pool: ProcessPoolExecutor) -> None:
    """Give up the pool: cancel its waiting tasks and terminate its workers now, instead
    of waiting for the running tasks to finish.

    The pool's queue of tasks may still hold data for the workers in its pipe: with no
    worker left to read it, the thread that feeds the pipe would block for ever, and the
    interpreter's exit waits for that thread. So the exit is told not to wait for it
    (``cancel_join_thread``; the tasks it held are given up anyway)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        call_queue.cancel_join_thread()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=2)
        if process.is_alive():
            process.kill()


def give_up(own: ProcessPoolExecutor | None, pending: Iterable[Future[Any]]) -> None:
    """End a run's work: its ``own`` pool stopped (:func:`stop`), or, on an executor that
    is the caller's (``own`` None), only this run's ``pending`` tasks cancelled."""
    if own is not None:
        stop(own)
    else:
        for future in pending:
            future.cancel()


@contextmanager
def ignoring_interrupts() -> Iterator[None]:
    """Within the block, SIGINT is ignored: worker processes a pool starts there keep
    that disposition, so that a Ctrl-C pressed at a terminal (sent to every process of
    the group) is left to the process that started them, which stops them with
    :func:`stop`. Off the main thread, where Python takes no signals, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when ``parent`` (the process that made the
    pool) dies, by the kernel's death signal where there is one and by a watching thread
    everywhere."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl here: the thread below does it
            pass
    if os.getppid() != parent:  # the parent died before the death signal was set
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)
