"""Counting the subproblems of a checkpoint on this machine, cutting a long one where it
runs, so that the work is shared fairly (the cut itself: :mod:`excover.parallel.cutting`,
the same as a Dask cluster's).

:class:`LocalRun` counts the open subproblems of a
:class:`~excover.parallel.checkpoint.Checkpoint`, biggest estimate first:

* **on one worker** (``workers=1``), in this process, one search at a time in steps of
  about :data:`STEP_SECONDS`, posting its nodes and its share walked on the run's board
  (so that a bar moves inside a task). A task that has run :data:`LOOK` seconds,
  and at least :data:`CUT_SHARE` of the run's time, and whose share walked says
  that it has more than :data:`LONG` seconds to go, is cut into
  :data:`SOLO_PARTS` parts (or more), counted next: the count then lands in the
  checkpoint part by part, so that a stop (Ctrl-C, a deadline) keeps what was done, at
  the cost of the time that task had run (the parts count it again). A subproblem of
  the split (not a part of a cut) estimated to hold more than :data:`PRECUT_SHARE` of
  the search is cut so before it runs: that one would be cut all the same, and its
  first steps would be lost (the 8x8 square with the twelve pentominoes and the 2x2
  square, split in 6 for one worker, has one of 77% of the search);
* **on several workers**, alone in this process first, as on one worker, for
  :data:`~excover.parallel.workers.SOLO_SECONDS` (a count that ends by then starts no
  process; the task running then is counted again by the pool), then in a process
  pool, one task per worker at a time (so that
  the run knows when each began and nothing waits in the pool). A task that is long by
  the same rule (the share walked that its worker posts on the board) is cut into
  :data:`~excover.parallel.cutting.PARTS_PER_SLOT` parts per worker, handed out next;
  and when a worker is idle and nothing waits, the task that has run longest (at
  least ``split_after`` seconds, :data:`SPLIT_AFTER` by default) is cut so for the
  idle workers. The worker of a cut task is asked to stop through the board
  (:meth:`Board.stop <excover.parallel.board.Board.stop>`); if it ends first all the
  same, its count stands for the whole subproblem and the parts are dropped (the
  checkpoint settles each part of the search once).

The run is a generator (:meth:`LocalRun.steps`) that yields ``(index, result)`` as each
task ends (a task stopped, or cut, gives a result that is not ``complete``, with the
nodes it had walked when it ran here) and None at least every :data:`TICK` seconds;
the caller takes each complete result into the checkpoint before it asks for the next
step.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

from excover.engines import Search
from excover.errors import LimitReached
from excover.names import METHOD_TRAITS
from excover.parallel import workers as processes
from excover.parallel.board import Board
from excover.parallel.checkpoint import Checkpoint
from excover.parallel.cutting import PARTS_PER_SLOT, cut, longest
from excover.parallel.tasks import (
    FIRST_STEP,
    Job,
    Payload,
    TaskResult,
    check_task_options,
    load,
    preload,
    solve_task,
)
from excover.parallel.tree import State
from excover.parallel.workers import CoreShare
from excover.problem import Problem

__all__ = [
    "CUT_ROOM",
    "CUT_SHARE",
    "LONG",
    "LOOK",
    "PRECUT_SHARE",
    "SOLO_PARTS",
    "SPLIT_AFTER",
    "LocalRun",
]

#: Seconds a task must have run before it is cut for idle workers (a cluster waits
#: longer: :data:`excover.parallel.cluster.SPLIT_AFTER`).
SPLIT_AFTER = 0.5

#: The seconds a task runs at least before it may be cut into parts because it is long
#: (its work is lost then: the parts count it again).
LOOK = 0.05

#: The share of the run's time so far that a task runs at least before it may be cut
#: into parts because it is long (so that the time cuts cost stays about this share of the run).
CUT_SHARE = 0.1

#: The seconds left, by the share of its tree walked, that make a task long enough to
#: cut (what a stop may lose of a task at most, about).
LONG = 1.0

#: One worker: the parts a long task is cut into.
SOLO_PARTS = 8

#: One worker: a subproblem of the split estimated to hold more than this share of the
#: search is cut into :data:`SOLO_PARTS` parts before it runs.
PRECUT_SHARE = 0.5

#: Slots a run's board keeps for the parts of its cuts, beyond its subproblems.
CUT_ROOM = 4096

#: Seconds between two ticks at most.
TICK = 0.2

#: Seconds of a step of a search run in this process, about.
STEP_SECONDS = 0.05


class LocalRun:
    """A count of the open subproblems of ``ledger`` on ``workers`` (see the module
    notes). ``deadline`` (a ``time.monotonic()`` value) stops the tasks (their results
    not ``complete``); ``split_after`` (seconds; 0: never) lets a long task be cut;
    ``board`` (:func:`board_for` makes one with room for cuts) is where the tasks post
    how far they are; ``on_cut(index, parts)`` is told of each cut."""

    def __init__(
        self,
        problem: Problem,
        ledger: Checkpoint,
        method: str = "search",
        options: dict[str, Any] | None = None,
        *,
        workers: int = 1,
        deadline: float | None = None,
        split_after: float | None = None,
        board: Board | None = None,
        on_cut: Callable[[int, list[int]], None] | None = None,
    ) -> None:
        options = dict(options or {})
        check_task_options(method, options)
        self.problem = problem
        self.ledger = ledger
        self.method = method
        self.options = options
        self.workers = max(workers, 1)
        self.deadline = deadline
        epoch = None if deadline is None else time.time() + deadline - time.monotonic()
        self.job = Job(method, options, False, epoch)
        self.payload = Payload.of(problem)
        self.split_after = SPLIT_AFTER if split_after is None else split_after
        self.board = board if board is not None else board_for(ledger)
        self.on_cut = on_cut
        self.uncuttable: set[int] = set()
        self.cuts = 0
        self.queue: list[int] = []
        self._pace: CoreShare | None = None  # the share of a core this process gets alone
        self._paused = False

    @property
    def cuttable(self) -> bool:
        """True when tasks may be cut: by a search, with cuts not turned off."""
        return self.split_after > 0 and METHOD_TRAITS[self.method].one_search

    def steps(self) -> Generator[tuple[int, TaskResult] | None]:
        """Count to the end; see the module notes for what is yielded. Closing the
        generator (or an exception, such as Ctrl-C) stops every task still out."""
        preload(self.problem, self.payload)
        self.queue = sorted(
            self.ledger.open_leaves(), key=lambda index: -self.ledger.subproblems[index].size
        )
        if self.workers == 1:
            yield from self._here()
            return
        if METHOD_TRAITS[self.method].one_search and processes.SOLO_SECONDS > 0:
            self._pace = processes.CoreShare()
            yield from self._here(time.monotonic() + processes.SOLO_SECONDS)
        if self.queue:
            yield from self._pooled()

    def _next(self) -> int | None:
        """The next subproblem of the queue that needs counting, or None."""
        while self.queue:
            index = self.queue.pop(0)
            if not (self.ledger.settled(index) or index in self.ledger.split):
                return index
        return None

    def _cut(self, index: int, parts: int, deadline: float | None = None) -> list[int] | None:
        """Cut subproblem ``index`` into about ``parts`` parts (None: it cannot be).
        Past ``deadline``: :class:`~excover.LimitReached`, the ledger as it was."""
        if index >= self.board.slots:  # its parts could neither post nor stop
            self.uncuttable.add(index)
            return None
        made = cut(self.problem, self.ledger, index, parts, resize=False, deadline=deadline)
        if made is None:
            self.uncuttable.add(index)
            return None
        self.cuts += 1
        if self.on_cut is not None:
            self.on_cut(index, made)
        return made

    # ----- one worker: in this process

    def _here(self, pause: float | None = None) -> Generator[tuple[int, TaskResult] | None]:
        """Count the queue in this process; with ``pause`` (a ``time.monotonic()``
        instant), only until then: the task running then goes back to the head of the
        queue (a run on several workers first runs alone, so that a short count starts
        no process)."""
        began = time.monotonic()
        top = set(self.ledger.top()) if self.workers == 1 else set()
        total = self.ledger.total_size()
        while (index := self._next()) is not None:
            if index in top and self._precut(index, total):
                continue
            if not METHOD_TRAITS[self.method].one_search:
                sub = self.ledger.subproblems[index]
                yield index, solve_task(self.payload, self.job, sub.forced, sub.forbidden)
                continue
            yield from self._search_here(index, began, pause)
            if self._paused:
                return

    def _search_here(
        self, index: int, began: float, pause: float | None = None
    ) -> Generator[tuple[int, TaskResult] | None]:
        """Count subproblem ``index`` in this process by steps, cut when it runs long;
        at ``pause``, put it back at the head of the queue (its work so far lost),
        unless this process gets less than :data:`~excover.parallel.workers.FULL_CORE`
        of a core (a busy machine: the pool would get no more CPU; it looks again every
        :data:`~excover.parallel.workers.SOLO_SECONDS`)."""
        sub = self.ledger.subproblems[index]
        cpu = time.process_time()
        small, _ = State.after(load(self.payload)[1], sub.forced, sub.forbidden).reduced()
        search = Search(small, **self.options)
        search.deadline = self.deadline
        started = ticked = time.monotonic()
        step = FIRST_STEP
        while True:
            clock = time.perf_counter()
            try:
                ended = search.count_until(search.stats.nodes + step)
            except LimitReached:
                yield index, self._stopped(search, cpu)
                return
            share = search.progress()
            if index < self.board.slots:
                self.board.write(index, search.stats.nodes, share)
            if ended:
                seconds = time.process_time() - cpu
                yield index, TaskResult(search.count(), search.stats.nodes, seconds, None)
                return
            took = time.perf_counter() - clock
            if took < STEP_SECONDS / 2:
                step *= 2
            elif took > STEP_SECONDS * 2 and step > FIRST_STEP:
                step //= 2
            now = time.monotonic()
            if pause is not None and now >= pause:
                if self._pace is None or self._pace.got() >= processes.FULL_CORE:
                    self.queue.insert(0, index)
                    self._paused = True
                    return
                pause = now + processes.SOLO_SECONDS  # a busy machine: alone a while more
            if self._long(index, now - started, now - began, share):
                parts = self._cut(index, SOLO_PARTS)
                if parts is not None:
                    self.queue[:0] = parts
                    yield index, self._stopped(search, cpu)
                    return
            if now - ticked >= TICK:
                ticked = now
                yield None

    def _precut(self, index: int, total: float) -> bool:
        """One worker: cut subproblem ``index`` before it runs when it is estimated to
        hold more than :data:`PRECUT_SHARE` of the search (``total``); True when it was
        (its parts first in the queue). Not past the run's deadline (the search then
        stops at once, with the subproblem whole)."""
        size = self.ledger.subproblems[index].size
        if not self.cuttable or not 0 < PRECUT_SHARE * total < size < math.inf:
            return False
        try:  # by the run's deadline: its search stops at once then
            parts = self._cut(index, SOLO_PARTS, self.deadline)
        except LimitReached:
            return False
        if parts is None:
            return False
        self.queue[:0] = parts
        return True

    @staticmethod
    def _stopped(search: Search, cpu: float) -> TaskResult:
        """The result of a task stopped (at the deadline, or cut): no count, the nodes
        it had walked (the work the stop cost)."""
        return TaskResult(0, search.stats.nodes, time.process_time() - cpu, None, complete=False)

    def _long(self, index: int, ran: float, elapsed: float, share: float | None) -> bool:
        """True when the task of subproblem ``index``, run ``ran`` seconds of the run's
        ``elapsed`` and ``share`` of its tree walked, is long: to be cut (see the
        notes)."""
        if not self.cuttable or index in self.uncuttable:
            return False
        if ran < max(LOOK, CUT_SHARE * elapsed):
            return False
        if share is None or not 0 < share < 1:
            return True
        return ran * (1 - share) / share >= LONG  # far from its end

    # ----- several workers: a process pool

    def _pooled(self) -> Generator[tuple[int, TaskResult] | None]:
        began = time.monotonic()
        pool = processes.new_pool(self.workers, self.board)
        running: dict[Future[TaskResult], int] = {}
        started: dict[int, float] = {}
        try:
            while True:
                while len(running) < self.workers and (index := self._next()) is not None:
                    sub = self.ledger.subproblems[index]
                    slot = index if index < self.board.slots else None
                    future = pool.submit(
                        solve_task, self.payload, self.job, sub.forced, sub.forbidden, slot
                    )
                    running[future] = index
                    started[index] = time.monotonic()
                if not running:
                    break
                finished, _ = wait(running, timeout=TICK, return_when=FIRST_COMPLETED)
                if not finished:
                    yield None
                for future in sorted(finished, key=running.__getitem__):
                    index = running.pop(future)
                    started.pop(index, None)
                    yield index, future.result()
                for index in running.values():
                    if self.ledger.settled(index):  # counted by its parts, or it is a part
                        self.board.stop(index)
                self._cut_long(started, began)
                self._cut_for_idle(running, started)
        except BaseException:  # Ctrl-C, a time limit, an error: stop the workers now
            processes.stop(pool)
            raise
        pool.shutdown(wait=True)

    def _cut_long(self, started: dict[int, float], began: float) -> None:
        """Cut a task that is long (:meth:`_long`, by the share of its tree its worker
        posted), its parts first in the queue, and ask it to stop."""
        now = time.monotonic()
        for index, since in started.items():
            if index >= self.board.slots or self.board.stopping(index):
                continue
            post = self.board.read(index)
            if post.nodes <= 0 or self.ledger.settled(index) or index in self.ledger.split:
                continue
            if self._long(index, now - since, now - began, post.share):
                parts = self._cut(index, PARTS_PER_SLOT * self.workers)
                if parts is not None:
                    self.queue[:0] = parts
                    self.board.stop(index)
                return  # one cut a tick

    def _cut_for_idle(
        self, running: dict[Future[TaskResult], int], started: dict[int, float]
    ) -> None:
        """When a worker is idle and nothing waits, cut the task that has run longest
        for the idle workers and ask it to stop."""
        if not self.cuttable or len(running) >= self.workers or self._waiting():
            return
        live = {
            index: began
            for index, began in started.items()
            if not self.board.stopping(index) and index < self.board.slots
        }
        index = longest(live, self.ledger, self.uncuttable, time.monotonic(), self.split_after)
        if index is None:
            return
        parts = self._cut(index, PARTS_PER_SLOT * self.workers)
        if parts is not None:
            self.queue.extend(parts)
            self.board.stop(index)

    def _waiting(self) -> bool:
        """True when a subproblem waits in the queue."""
        return any(
            not (self.ledger.settled(index) or index in self.ledger.split) for index in self.queue
        )


def board_for(ledger: Checkpoint) -> Board:
    """A board for a run of ``ledger``: a slot per subproblem, and :data:`CUT_ROOM`
    more for the parts of its cuts."""
    return Board(len(ledger.subproblems) + CUT_ROOM)
