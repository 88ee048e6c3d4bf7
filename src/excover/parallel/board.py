"""What the workers of a local run post of the tasks they are running: the search nodes
each task has entered so far and the share of its tree walked (the engine's own estimate,
:meth:`Search.progress <excover.engines.Search.progress>`, as a count in one process
shows it on its bar).

A run's progress otherwise learns of a task only when it ends. Between its start and its
end, the time left of a task is a guess from the tasks finished before it, and a task far
bigger than them (pento6x10 cut in 12 leaves one of 60% of the search) runs on alone past
every error they have shown: nothing then tells its end. Its worker knows how far it is.

A :class:`Board` is a block of shared memory, three numbers per subproblem, made before
the pool and handed to each worker as it starts (:func:`attach`, the pool's initializer);
a worker writes the numbers of the subproblem it runs (:func:`post`) and the run reads
them (:meth:`Board.read`). A read can meet a write half done: the nodes of one post with
the share of the next, a few hundredths apart, which a time left does not notice.

The third number goes the other way: the run sets it to ask the task of a subproblem to
stop (:meth:`Board.stop`; its worker looks at it after each post, :func:`stop_asked`),
as a run that cuts a long task into parts for idle workers does
(:mod:`excover.parallel.local`). A board has room for ``slots`` subproblems: those a
run appends later (the parts of a cut) have slots when the board was made with room
for them, else they neither post nor stop.
"""

from __future__ import annotations

import math
import multiprocessing
from typing import Any, NamedTuple

__all__ = ["POST_SECONDS", "Board", "Post", "attach", "attached", "post", "stop_asked"]

#: How often a worker posts its task's progress (seconds, about).
POST_SECONDS = 0.05


class Post(NamedTuple):
    """A task's progress as its worker last posted it: the search ``nodes`` entered
    (0: none posted) and the ``share`` of its tree walked (None: its engine cannot
    tell, or nothing posted)."""

    nodes: float
    share: float | None


class Board:
    """The progress of ``slots`` subproblems (by index), in memory shared with the
    workers of a process pool."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.cells: Any = multiprocessing.RawArray("d", 3 * max(slots, 1))
        for slot in range(slots):
            self.cells[3 * slot + 1] = math.nan

    def write(self, slot: int, nodes: int, share: float | None) -> None:
        """Post ``nodes`` and ``share`` for subproblem ``slot``."""
        self.cells[3 * slot] = float(nodes)
        self.cells[3 * slot + 1] = math.nan if share is None else float(share)

    def read(self, slot: int) -> Post:
        """The last post of subproblem ``slot`` (nothing posted beyond the board's
        room)."""
        if not 0 <= slot < self.slots:
            return Post(0.0, None)
        share = self.cells[3 * slot + 1]
        return Post(self.cells[3 * slot], None if math.isnan(share) else share)

    def stop(self, slot: int) -> bool:
        """Ask the task of subproblem ``slot`` to stop; False when the board has no room
        for that slot (its task cannot be asked)."""
        if not 0 <= slot < self.slots:
            return False
        self.cells[3 * slot + 2] = 1.0
        return True

    def stopping(self, slot: int) -> bool:
        """True when the task of subproblem ``slot`` was asked to stop."""
        return 0 <= slot < self.slots and self.cells[3 * slot + 2] != 0.0


#: The board of the run this worker process serves (None: no run asked for posts).
_BOARD: Board | None = None


def attach(board: Board | None) -> None:
    """Make ``board`` the one :func:`post` writes to (a pool's initializer calls this
    in each worker as it starts)."""
    global _BOARD
    _BOARD = board


def attached() -> Board | None:
    """The board this process posts to, if any."""
    return _BOARD


def post(slot: int, nodes: int, share: float | None) -> None:
    """Post a task's progress on the board attached, if there is one."""
    if _BOARD is not None and 0 <= slot < _BOARD.slots:
        _BOARD.write(slot, nodes, share)


def stop_asked(slot: int) -> bool:
    """True when the run asked the task of subproblem ``slot`` to stop (on the board
    attached; False without one)."""
    return _BOARD is not None and _BOARD.stopping(slot)
