"""The search of a design space: every design evaluated against the goal, recorded in a
ledger, summed up in a report.

:func:`search` walks the candidates of a :class:`~excover.design.space.DesignSpace`
(all of them, or the range ``start`` to ``stop`` of its indices, so that a search can be
cut into ranges run apart), evaluates each design (:mod:`excover.design.pool`: in this
process, on ``workers`` processes, or on an ``executor``: a Dask ``Client`` runs the
ranges on its cluster's workers) and tallies the outcomes
(:class:`~excover.design.report.Tally`). With a ``ledger`` file
(:mod:`excover.design.ledger`) every outcome is written as it comes and the outcomes
already there are taken instead of searched: a search stopped by Ctrl-C, a ``timeout``,
a killed process or a lost machine resumes where it stopped, the same call finishing it
with the report an unbroken run would have given (no design is evaluated twice).

``progress``, when given, is called with a :class:`SearchProgress` at most every
:data:`PROGRESS_EVERY` seconds and at the end: the candidates done (earlier runs
included) of the range, the designs and qualifying designs so far, and the time left at
this run's pace. A ``timeout`` or Ctrl-C ends the run with the report of what was done
(``stopped_by`` ``"timeout"`` or ``"interrupt"``); any other error goes up, the ledger
keeping what was done before it. All of it holds alike on ``workers`` and on an
``executor``: the ledger is written by this process, as the ranges come back.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from excover.design.errors import DesignError, LedgerError
from excover.design.goal import Goal
from excover.design.ledger import Ledger, Range, decode
from excover.design.pool import entry, evaluations, on_workers
from excover.design.report import KEEP, Found, Report, Tally, sorted_distribution
from excover.design.space import DesignSpace
from excover.errors import LimitReached

__all__ = ["PROGRESS_EVERY", "SearchProgress", "search"]

#: Seconds between two calls of the progress callback.
PROGRESS_EVERY = 0.25
#: A run in this process writes a ledger line at least every this many seconds, and at
#: most this many outcomes a line.
LINE_SECONDS, LINE_MOST = 1.0, 4096


@dataclass(frozen=True)
class SearchProgress:
    """How far a search is: ``done`` candidates of ``total`` (the range's; earlier runs'
    included), ``designs`` and ``qualifying`` designs among them, ``elapsed`` seconds of
    this run and the seconds ``left`` at its pace (None until known)."""

    done: int
    total: int
    designs: int
    qualifying: int
    elapsed: float
    left: float | None


def search(
    space: DesignSpace,
    goal: Goal | None = None,
    *,
    ledger: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    executor: object | None = None,
    timeout: float | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
    start: int = 0,
    stop: int | None = None,
    keep: int = KEEP,
) -> Report:
    """Search ``space`` for the designs that meet ``goal`` (by default: exactly one
    solution up to symmetry); see the module notes. ``workers`` (default 1: this process)
    evaluates the designs on that many processes; ``executor`` (a Dask distributed
    ``Client``, its ``get_executor()``, or any ``concurrent.futures`` executor) on its
    workers instead, which build the space from its declaration (they need excover
    installed): the two do not go together. ``keep`` bounds the qualifying designs
    listed when the goal keeps no top K."""
    if not isinstance(space, DesignSpace):
        raise DesignError(f"search needs a DesignSpace, not {space!r}")
    goal = Goal() if goal is None else goal
    if not isinstance(goal, Goal):
        raise DesignError(f"the goal must be a Goal, not {goal!r}")
    goal.check_scores(space.scores)
    if executor is not None:
        from excover.design.pool import executor_slots
        from excover.parallel.run import executor_for

        if workers is not None:
            raise DesignError(
                f"workers={workers!r} does not go with executor=: the executor has its workers"
            )
        executor_for(executor)  # a UsageError for what is not an executor
        workers = executor_slots(executor)
    else:
        from excover.parallel.workers import check_workers

        workers = check_workers(1 if workers is None else workers)
    if timeout is not None and (isinstance(timeout, bool) or not timeout >= 0):
        raise DesignError(f"timeout must be None or a number of seconds >= 0, not {timeout!r}")
    size = space.size
    stop = size if stop is None else stop
    for name, value in (("start", start), ("stop", stop)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= size:
            raise DesignError(f"{name} must be an index from 0 to {size}, not {value!r}")
    if start > stop:
        raise DesignError(f"start ({start}) is after stop ({stop})")
    run = _Run(space, goal, Tally(goal, keep), start, stop, timeout, progress)
    header = {"kind": space.kind, "space": space.declaration(), "size": size}
    header["goal"] = goal.as_dict()
    opened = Ledger(ledger, header) if ledger is not None else None
    with opened if opened is not None else contextlib.nullcontext():
        ranges = [] if opened is None else opened.ranges
        run.resume(ranges)
        run.go(_gaps(ranges, start, stop), workers, opened, executor)
    return run.report(workers, None if ledger is None else os.fspath(ledger))


def _gaps(ranges: list[Range], start: int, stop: int) -> Iterator[tuple[int, int]]:
    """The ranges of indices from ``start`` to ``stop`` that no range of ``ranges``
    (sorted, disjoint) covers."""
    at = start
    for done in ranges:
        if done.stop <= at:
            continue
        if done.start >= stop:
            break
        if done.start > at:
            yield at, done.start
        at = max(at, done.stop)
    if at < stop:
        yield at, stop


class _Run:
    """One run of :func:`search`: its tally, its clock and its progress."""

    def __init__(
        self,
        space: DesignSpace,
        goal: Goal,
        tally: Tally,
        start: int,
        stop: int,
        timeout: float | None,
        progress: Callable[[SearchProgress], None] | None,
    ) -> None:
        self.space, self.goal, self.tally = space, goal, tally
        self.start, self.stop = start, stop
        self.started = time.monotonic()
        self.deadline = None if timeout is None else self.started + timeout
        self.progress = progress
        self.resumed = 0
        self.before = 0  # the candidates done by earlier runs
        self.shown = -float("inf")
        self.stopped_by: str | None = None

    def resume(self, ranges: Iterable[Range]) -> None:
        """Tally the outcomes of earlier runs (those within the range searched)."""
        tally = self.tally
        for done in ranges:
            inside = 0
            for index, outcome in done:
                if self.start <= index < self.stop:
                    tally.add(index, outcome)
                    inside += 1
            tally.seconds += done.seconds * inside / (done.stop - done.start)
        self.resumed = tally.designs
        self.before = tally.candidates

    def go(
        self,
        gaps: Iterator[tuple[int, int]],
        workers: int,
        ledger: Ledger | None,
        executor: object | None = None,
    ) -> None:
        """Evaluate the ``gaps`` (in this process, on ``workers`` processes or on
        ``executor``), recording each outcome in the tally and the ledger."""

        def record(first: int, entries: list[Any], seconds: float) -> None:
            if not entries:
                return
            for index, value in enumerate(entries, first):
                self.tally.add(index, decode(value))
            self.tally.seconds += seconds
            if ledger is not None:
                ledger.append(first, entries, seconds)

        try:
            if workers == 1 and executor is None:
                self._here(gaps, ledger)
            else:
                on_workers(
                    self.space,
                    self.goal,
                    gaps,
                    workers,
                    self.deadline,
                    self.tally.beat,
                    record,
                    self.tick,
                    executor,
                )
        except KeyboardInterrupt:
            self.stopped_by = "interrupt"
        except LimitReached:
            self.stopped_by = "timeout"
        missing = self.tally.candidates < self.stop - self.start
        if self.stopped_by is None and missing and self.deadline is not None:
            self.stopped_by = "timeout"  # the workers stopped at the deadline
        self.tick(final=True)

    def _here(self, gaps: Iterator[tuple[int, int]], ledger: Ledger | None) -> None:
        """Evaluate the gaps in this process, a ledger line at least every
        :data:`LINE_SECONDS` (and whatever stops the run writes the line in hand)."""
        pending: list[Any] = []
        first, spent, written = 0, 0.0, time.monotonic()

        def flush() -> None:
            nonlocal spent, written
            if ledger is not None and pending:
                ledger.append(first, pending, spent)
            pending.clear()
            spent, written = 0.0, time.monotonic()

        tally, goal = self.tally, self.goal
        try:
            for low, high in gaps:
                found = evaluations(self.space, low, high, goal, tally.beat, self.deadline)
                for index, outcome, seconds in found:
                    if not pending:
                        first = index
                    pending.append(entry(outcome, goal))
                    spent += seconds
                    tally.add(index, outcome)
                    tally.seconds += seconds
                    if len(pending) >= LINE_MOST or time.monotonic() - written >= LINE_SECONDS:
                        flush()
                    self.tick()
                flush()  # a line holds consecutive indices: one gap at most
        finally:
            flush()

    def tick(self, final: bool = False) -> None:
        """Call the progress callback, at most every :data:`PROGRESS_EVERY` seconds."""
        if self.progress is None:
            return
        now = time.monotonic()
        if not final and now - self.shown < PROGRESS_EVERY:
            return
        self.shown = now
        tally = self.tally
        elapsed = now - self.started
        total = self.stop - self.start
        here = tally.candidates - self.before
        left = None
        if here and elapsed > 0:
            left = (total - tally.candidates) * elapsed / here
        self.progress(
            SearchProgress(tally.candidates, total, tally.designs, tally.qualifying, elapsed, left)
        )

    def report(self, workers: int, ledger: str | None) -> Report:
        tally, space = self.tally, self.space
        found = []
        for _, index, outcome in tally.best:
            design = space.design(index)
            if design is None:
                raise LedgerError(
                    f"ledger {ledger} records an outcome at index {index}, which holds no "
                    "design of this space"
                )
            found.append(
                Found(index, design.key, design.weight, outcome.solutions, dict(outcome.scores))
            )
        return Report(
            kind=space.kind,
            space=space.describe(),
            goal=self.goal,
            size=space.size,
            start=self.start,
            stop=self.stop,
            candidates=tally.candidates,
            designs=tally.designs,
            resumed=self.resumed,
            rejected=dict(tally.rejected),
            distribution=sorted_distribution(tally.distribution),
            qualifying=tally.qualifying,
            found=found,
            kept_all=tally.qualifying == len(found),
            seconds=tally.seconds,
            elapsed=time.monotonic() - self.started,
            workers=workers,
            stopped_by=self.stopped_by,
            ledger=ledger,
        )
