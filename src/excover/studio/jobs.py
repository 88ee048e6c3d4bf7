"""Solving a design away from the server: one child process per run, killed to cancel.

A run (a first solution, a list of solutions, a count, a count up to symmetry) happens in
a process of its own, started by ``spawn`` (a fresh interpreter: the server's threads are
not forked), which does the work of :func:`excover.studio.runs.work` and sends its news
through a pipe as small dicts (described there). Cancelling kills the child: every
engine and every route stops at once, whatever it is doing (a compiled search, a ZDD
under construction, a SAT solver), and nothing of the run outlives it but the checkpoint
of a count, saved as each of its subproblems finishes. The server kills the child too
when the page that asked stops listening (the tab closed), see :mod:`excover.studio.app`.
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.connection import Connection
from typing import Any

from excover.studio.runs import Settings, work

__all__ = ["Job"]

Event = dict[str, Any]


class Job:
    """One run of ``task`` on a design (its JSON, already checked by the server) within
    ``settings``."""

    def __init__(self, design: dict[str, Any], task: str, settings: Settings) -> None:
        self.design = design
        self.task = task
        self.settings = settings
        self.started: float | None = None
        self.cancelled_at: float | None = None
        #: Seconds from :meth:`cancel` until the child was gone, once it is.
        self.stop_seconds: float | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._news: Connection | None = None
        self._reported_stop = False

    def start(self) -> None:
        """Start the child (once)."""
        if self._process is not None:
            return
        context = multiprocessing.get_context("spawn")
        news, child_end = context.Pipe(duplex=False)
        self._process = context.Process(
            target=work,
            args=(self.design, self.task, self.settings.as_json(), child_end),
            daemon=True,
        )
        self.started = time.monotonic()
        self._process.start()
        child_end.close()  # the child holds its own copy: EOF here when it ends
        self._news = news

    def next_event(self, wait: float) -> Event | None:
        """The child's next message, waiting at most ``wait`` seconds (None when none came);
        a ``cancelled`` event once :meth:`cancel` has stopped the child, and an ``error``
        when the child died without a word."""
        if self.cancelled_at is not None:
            return self._stopped_event()
        if self._news is None:
            raise RuntimeError("the job was not started")
        try:
            if self._news.poll(wait):
                event: Event = self._news.recv()
                return event
        except (EOFError, OSError):
            return self._died()
        return None

    def _stopped_event(self) -> Event | None:
        if self._reported_stop:
            return None
        self._reported_stop = True
        assert self.cancelled_at is not None
        return {"type": "cancelled", "stop_seconds": round(self.stop_seconds or 0.0, 3)}

    def _died(self) -> Event:
        if self.cancelled_at is not None:
            return self._stopped_event() or {"type": "cancelled"}
        code = None if self._process is None else self._process.exitcode
        return {"type": "error", "message": f"the solving process stopped (exit code {code})"}

    def cancel(self) -> None:
        """Stop the run: kill the child and wait until it is gone."""
        if self.cancelled_at is not None:
            return
        self.cancelled_at = time.monotonic()
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(5)
        self.stop_seconds = time.monotonic() - self.cancelled_at

    def close(self) -> None:
        """Release the child and the pipe: the run is over or nobody listens any more."""
        if self._process is not None and self._process.is_alive():
            self.cancel()
        if self._news is not None:
            self._news.close()

    @property
    def alive(self) -> bool:
        """Whether the child runs."""
        return self._process is not None and self._process.is_alive()
