"""Solving a design away from the server: one child process per run, killed to cancel.

A run (a first solution, a list of solutions, a count, a count up to symmetry) happens in
a process of its own (:class:`excover.studio.child.Child`: spawned, its address space
bounded), which does the work of :func:`excover.studio.runs.work` and sends its news
through a pipe as small dicts (described there). Cancelling kills the child: every
engine and every route stops at once, whatever it is doing (a compiled search, a ZDD
under construction, a SAT solver), and nothing of the run outlives it but the checkpoint
of a count, saved as each of its subproblems finishes. The server kills the child too
when the page that asked stops listening (the tab closed), when the page stops saying
that it follows the run (:meth:`StudioRun.followed`), past the studio's longest run time and
when it shuts down, see :mod:`excover.studio.app`. The waits are ``async``: no thread of
the server is held while a run goes on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from excover.studio.child import Child
from excover.studio.limits import Limits
from excover.studio.runs import Settings, work

__all__ = ["StudioRun"]

Event = dict[str, Any]


class StudioRun:
    """One run of ``task`` on a design (its JSON, already checked by the server) within
    ``settings`` and the studio's longest run time (``limits.run_seconds``), its child
    bounded by ``limits``. ``clock`` (seconds, :func:`time.monotonic` by default) dates
    its making, its start and the last word of its page. The child does ``target``
    (:func:`excover.studio.runs.work` by default; a design search's is
    :func:`excover.studio.design_search.work`), called as ``target(design, task,
    settings, *extra, outbox)``; ``what`` names it in messages (``the run``)."""

    def __init__(
        self,
        design: dict[str, Any],
        task: str,
        settings: Settings,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        *,
        target: Callable[..., None] = work,
        extra: tuple[Any, ...] = (),
        what: str = "the run",
    ) -> None:
        self.design = design
        self.task = task
        #: The studio's longest run time when it, not the page's own time limit, bounds
        #: the run (None: the page's limit is the shorter).
        self.maximum: float | None = None
        if settings.seconds is None or settings.seconds > limits.run_seconds:
            self.maximum = limits.run_seconds
            settings = replace(settings, seconds=limits.run_seconds)
        self.settings = settings
        self.clock = clock
        self.created = clock()
        self.started: float | None = None
        #: When the page last said that it follows the run (its start, then
        #: :meth:`followed`).
        self.seen = self.created
        self.cancelled_at: float | None = None
        #: Why the server cancelled the run (None: the page cancelled it, or nobody).
        self.reason: str | None = None
        #: Seconds from :meth:`cancel` until the child was gone, once it is.
        self.stop_seconds: float | None = None
        self._child = Child(target, (design, task, settings.as_json(), *extra), what, limits)
        self._reported_stop = False

    async def start(self) -> None:
        """Start the child (once; never after :meth:`cancel`). The run counts as started
        at once; the child starts in a thread (an interpreter takes a moment to start)."""
        if self.started is not None:
            return
        self.started = self.seen = self.clock()
        if self.cancelled_at is None:
            await asyncio.to_thread(self._child.start)

    async def next_event(self, wait: float) -> Event | None:
        """The child's next message, waiting at most ``wait`` seconds (None when none came);
        a ``cancelled`` event once :meth:`cancel` has stopped the child, and an ``error``
        when the child died without a word."""
        if self.cancelled_at is not None:
            return self._stopped_event()
        try:
            return await self._child.receive(wait)
        except EOFError:
            return self._died()

    def followed(self) -> None:
        """The page says that it still follows the run."""
        self.seen = self.clock()

    def _stopped_event(self) -> Event | None:
        if self._reported_stop:
            return None
        self._reported_stop = True
        event: Event = {"type": "cancelled", "stop_seconds": round(self.stop_seconds or 0.0, 3)}
        return event if self.reason is None else {**event, "message": self.reason}

    def _died(self) -> Event:
        if self.cancelled_at is not None:
            return self._stopped_event() or {"type": "cancelled"}
        code = self._child.exitcode
        return {"type": "error", "message": f"the solving process stopped (exit code {code})"}

    async def cancel(self, reason: str | None = None) -> None:
        """Stop the run: kill the child and wait (without holding a thread) until it is
        gone; ``reason`` is what the stream says (None: the page asked)."""
        if self.cancelled_at is not None:
            return
        self.cancelled_at = time.monotonic()
        self.reason = reason
        self._child.kill()
        await self._child.stopped()
        self.stop_seconds = time.monotonic() - self.cancelled_at

    def halt(self) -> None:
        """Stop the run at once, waiting for nothing (the server shuts down): kill the
        child; the stream says the run was cancelled."""
        if self.cancelled_at is None:
            self.cancelled_at = time.monotonic()
        self._child.kill()

    def close(self) -> None:
        """Release the child and the pipe: the run is over or nobody listens any more."""
        if self.cancelled_at is None and self._child.alive:
            self.cancelled_at = time.monotonic()
        self._child.close()
        if self.cancelled_at is not None and self.stop_seconds is None:
            self.stop_seconds = time.monotonic() - self.cancelled_at

    @property
    def alive(self) -> bool:
        """Whether the child runs."""
        return self._child.alive
