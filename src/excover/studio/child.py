"""The studio's child processes: bounded in memory, waited on without blocking the server.

Whatever evaluates a user's program or builds a problem from a design (an import, a run)
happens in a process of its own, started by ``spawn`` (a fresh interpreter: the server's
threads are not forked), so that the server's own memory stays small whatever the
program asks for, and so that killing the child stops the work at once.

- :class:`~excover.studio.limits.Limits`: the address space a child may use
  (``resource.RLIMIT_AS``, set in the child before any work: past it an allocation fails
  with :class:`MemoryError`) and the seconds an import may take.
- :class:`Child`: the server's side. Its waits (:meth:`Child.receive`,
  :meth:`Child.stopped`) are ``async`` and watch the pipe and the process's sentinel
  with the event loop, so that no thread of the server is held while a child works:
  every endpoint (Cancel first) keeps answering however many children run.
- :func:`answer`: the one answer of a child that first says it is ``ready`` (its
  interpreter started, its modules loaded), its time limit counted from then.
- :class:`Outbox`: the child's side of the pipe. A child whose parent is gone (killed,
  crashed) ends quietly: a watch on the parent's sentinel ends it as soon as the parent
  goes, and a message that cannot be sent ends it too, without a traceback. A child
  ignores Ctrl-C (the terminal sends it to the whole process group): the server stops
  its children itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from excover.errors import UsageError
from excover.studio.limits import Limits

__all__ = ["STARTUP_SECONDS", "Child", "Outbox", "answer"]

Event = dict[str, Any]

#: Seconds a child may take to start (an interpreter, its modules) before its time limit
#: counts (see :func:`answer`).
STARTUP_SECONDS = 120.0
#: The seconds a killed child is waited for.
KILL_WAIT = 5.0
#: Seconds between two looks at a child that has closed its pipe but is not reaped yet.
REAP_STEP = 0.005
#: The numerical libraries' thread counts, set to one for the children: a pool of threads
#: per core reserves address space (stacks, buffers) that a bounded child cannot spare on
#: a machine of many cores, and the studio's work uses none of them.
_ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


class Outbox:
    """The child's end of the pipe: :meth:`send` ends the child quietly when the parent is
    gone (nobody is left to read; a traceback would only fill a log). ``memory_message``
    is what the child says when its memory bound stops it."""

    def __init__(self, connection: Connection, memory_message: str) -> None:
        self.connection = connection
        self.memory_message = memory_message

    def send(self, event: Event) -> None:
        try:
            self.connection.send(event)
        except OSError:  # a broken pipe: the server is gone
            os._exit(0)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.close()


def _enter(
    target: Callable[..., None],
    args: tuple[Any, ...],
    what: str,
    limits: Limits,
    connection: Connection,
) -> None:
    """The child's life: ignore Ctrl-C, bound its memory, watch its parent, do the work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if limits.memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
    _watch_parent()
    target(*args, Outbox(connection, limits.memory_message(what)))


def _watch_parent() -> None:
    """End this process (quietly, at once) when its parent ends."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Child:
    """A child process doing ``target(*args, outbox)`` within the memory of ``limits``, its
    messages read through a pipe; ``what`` it does (``the import``) names it in messages."""

    def __init__(
        self, target: Callable[..., None], args: tuple[Any, ...], what: str, limits: Limits
    ) -> None:
        self._target = target
        self._args = args
        self.what = what
        self.limits = limits
        self._process: multiprocessing.process.BaseProcess | None = None
        self._news: Connection | None = None
        self.killed_at: float | None = None

    def start(self) -> None:
        """Start the child (once). It blocks for the time the interpreter takes to start
        reading its arguments: call it from a thread of the server."""
        if self._process is not None or self.killed_at is not None:
            return
        for name in _ONE_THREAD:  # spawn hands the children the server's environment
            os.environ.setdefault(name, "1")
        context = multiprocessing.get_context("spawn")
        news, child_end = context.Pipe(duplex=False)
        process = context.Process(
            target=_enter,
            args=(self._target, self._args, self.what, self.limits, child_end),
            daemon=True,
        )
        process.start()
        child_end.close()  # the child holds its own copy: EOF here when it ends
        self._process, self._news = process, news
        if self.killed_at is not None:  # killed while it started (its client went away)
            process.kill()

    @property
    def started(self) -> bool:
        return self._process is not None

    @property
    def alive(self) -> bool:
        """Whether the child runs."""
        return self._process is not None and self._process.is_alive()

    @property
    def exitcode(self) -> int | None:
        """The child's exit status once it has ended (negative: the signal that ended it)."""
        return None if self._process is None else self._process.exitcode

    async def receive(self, wait: float) -> Event | None:
        """The child's next message, waiting at most ``wait`` seconds (None when none came).
        Raises :class:`EOFError` once the child has ended and said all it had to say."""
        if self._news is None or self._news.closed:
            raise EOFError
        try:
            if self._news.poll() or await _readable(self._news.fileno(), wait):
                event: Event = self._news.recv()
                return event
        except OSError:
            raise EOFError from None
        return None

    def kill(self) -> None:
        """Kill the child (SIGKILL: every engine stops at once); do not wait for it."""
        if self.killed_at is None:
            self.killed_at = time.monotonic()
        if self._process is not None and self._process.exitcode is None:
            self._process.kill()

    async def stopped(self, wait: float = KILL_WAIT) -> bool:
        """Wait (at most ``wait`` seconds) until the child has ended; whether it has."""
        if self._process is None:
            return True
        end = time.monotonic() + wait
        if self._process.exitcode is None:
            await _readable(self._process.sentinel, wait)
        # the pipe closes as the child exits, a moment before the system can reap it
        while self._process.is_alive() and time.monotonic() < end:
            await asyncio.sleep(REAP_STEP)
        return not self._process.is_alive()

    def close(self) -> None:
        """Kill the child if it runs, reap it, release the pipe (the server shuts down or
        nobody listens any more)."""
        self.kill()
        if self._process is not None:
            self._process.join(KILL_WAIT)
        if self._news is not None:
            self._news.close()


async def _readable(fd: int, wait: float) -> bool:
    """Whether ``fd`` becomes readable within ``wait`` seconds, watched by the event loop
    (no thread waits)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def mark() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, mark)
    try:
        await asyncio.wait_for(ready, wait)
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)
    return True


async def answer(
    child: Child,
    seconds: float,
    too_long: str,
    failure: type[UsageError] = UsageError,
    running: set[Child] | None = None,
) -> Event:
    """Start ``child`` and return its first message after its ``ready`` (its interpreter
    started, its modules loaded: seconds on a busy machine, whatever the work), waiting
    at most :data:`STARTUP_SECONDS` for ``ready`` and then ``seconds`` for the answer;
    the child is killed and reaped then, and is in ``running`` while it lives (the server
    kills those when it stops). Raises ``failure`` when the child takes too long (saying
    ``too_long`` once ready) or dies without an answer."""
    running = set() if running is None else running
    running.add(child)
    try:
        await asyncio.to_thread(child.start)
        return await _first(child, seconds, too_long, failure)
    finally:
        child.kill()
        await child.stopped()
        child.close()
        running.discard(child)


async def _first(child: Child, seconds: float, too_long: str, failure: type[UsageError]) -> Event:
    """The first message of ``child`` after its ``ready`` (see :func:`answer`)."""
    end = time.monotonic() + STARTUP_SECONDS
    ready = False
    while True:
        left = end - time.monotonic()
        if left <= 0:
            if not ready:
                raise failure(f"{child.what}'s process did not start in {STARTUP_SECONDS:g} s")
            raise failure(too_long)
        try:
            event = await child.receive(left)
        except EOFError:
            raise failure(
                f"{child.what} stopped unexpectedly (exit code {child.exitcode})"
            ) from None
        if event is not None and event["type"] == "ready":
            ready, end = True, time.monotonic() + seconds
        elif event is not None:
            return event
