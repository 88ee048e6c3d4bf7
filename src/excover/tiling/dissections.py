"""The dissections of a rectangle into connected pieces of one size.

A dissection of the ``height`` x ``width`` rectangle into pieces of ``size`` cells is a
tiling by every ``size``-omino, each any number of times, counted as a partition of the
cells (two tilings that place the same shapes in the same cells are one, whatever the
pieces' names). The exact cover of such a tiling has a placement per fixed polyomino and
position (64,678 for octominoes on the 8 x 8 square), and its search or frontier count
(whose states are the placements reaching below the cell decided) grows out of reach
past 7 x 7: the search needs about 1,400 CPU-hours for the 1.9e11 dissections of the
8 x 8 square into octominoes, and the placement frontier more memory than the machine
holds.

This count looks at the cells instead (compiled: :mod:`excover.tiling._dissections`):
each cell joins the piece of its upper or left neighbour, both (joining them) or a new
piece, and the state after a cell is the pieces of the last ``width`` cells, their sizes
so far and which of them must stay apart. States that agree are merged. The 8 x 8 square
takes about 2.5 minutes of CPU and 446 MB (6.0 million states at the widest layer, 24
bytes each, and the table of the next layer being made); 7 x 7 about 4 s.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from excover.errors import UsageError
from excover.tiling.resume import Resume

__all__ = ["count_dissections"]


def count_dissections(
    height: int,
    width: int,
    size: int,
    *,
    max_bytes: int | None = None,
    tick: Callable[[int, int, int], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_every: float = 600.0,
) -> int:
    """The number of ways to cut the ``height`` x ``width`` rectangle into connected
    pieces of ``size`` cells each (edge-connected; every shape of that size allowed any
    number of times; OEIS A172477 on the n x n square with n-cell pieces).

    The rectangle is read along its longer side, so that the frontier is the shorter
    one, which may be at most :data:`~excover.tiling._dissections.MAX_WIDTH` (10) cells;
    ``size`` at most 31, and a state's key must fit 128 bits (10 across with pieces of up
    to 15 cells, 9 with up to 31); the board has fewer than 2**31 cells. The count is
    exact up to 2**64 (past it, :class:`~excover.ResourceLimitError`). ``max_bytes``
    bounds the count's tables (None: the ZDD constructions' default bound, a share of the
    machine's memory; 0: none; past it, :class:`~excover.MemoryBoundError`).
    ``tick(cells_done, cells, states)`` is called after each cell. Ctrl-C stops the count
    (KeyboardInterrupt).

    ``checkpoint`` (a file) keeps the states after the last cell decided, written every
    ``checkpoint_every`` seconds, when the count stops on an exception (Ctrl-C, an error
    raised by ``tick``) and at its end: the same call with the same file resumes from
    it (a file of another board is a UsageError, a damaged one a
    :class:`~excover.parallel.checkpoint.DamagedCheckpoint`). It is written whole to a
    file of its own beside it and moved into place (:func:`excover.atomic.replacing`: a
    link planted at either name is replaced, never written through), and held by a
    lock while the count runs: a second count given the same file waits for the first.
    A state takes 24 bytes in it (the 8 x 8 square's widest layer, 6 million states,
    about 150 MB)."""
    from excover.tiling import _dissections
    from excover.zdd import memory

    for name, value, least in (("height", height, 0), ("width", width, 0), ("size", size, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UsageError(f"{name} must be an integer of at least {least}, not {value!r}")
    if height * width % size:
        return 0
    if height == 0 or width == 0:
        return 1
    across = min(height, width)
    if across > _dissections.MAX_WIDTH:
        raise UsageError(
            f"a {height} x {width} rectangle is {across} cells across: the dissection count"
            f" takes at most {_dissections.MAX_WIDTH}"
        )
    if height * width > _dissections.MAX_CELLS:
        raise UsageError(
            f"a {height} x {width} rectangle has {height * width:,} cells: the dissection"
            f" count takes at most {_dissections.MAX_CELLS:,}"
        )
    if size > _dissections.MAX_SIZE:
        raise UsageError(
            f"pieces of {size} cells: the dissection count takes at most {_dissections.MAX_SIZE}"
        )
    if _dissections.key_bits(across, size) > _dissections.KEY_BITS:
        raise UsageError(
            f"a board {across} cells across cut into pieces of {size} cells has states of"
            f" {_dissections.key_bits(across, size)} bits: the dissection count takes at"
            f" most {_dissections.KEY_BITS} (10 across with pieces of up to 15 cells)"
        )
    bound = memory.default_bound() if max_bytes is None else memory.checked(max_bytes)
    long = max(height, width)
    if checkpoint is None:
        return _counted(long, across, size, bound, tick)
    if isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, int | float):
        raise UsageError(f"checkpoint_every must be a number of seconds, not {checkpoint_every!r}")
    from excover.atomic import replacing
    from excover.parallel.checkpoint import claimed  # the lock of every checkpoint

    path = Path(checkpoint)
    with claimed(path, wait=True) as held:
        assert held is not None  # waiting: the lock is held, or KeyboardInterrupt
        return _counted(
            long,
            across,
            size,
            bound,
            tick,
            resume=_resume(path, (long, across, size)) if path.exists() else None,
            save=lambda: replacing(path),
            every=float(checkpoint_every),
        )


def _counted(
    height: int, width: int, size: int, bound: int, tick: object, **checkpoint: Any
) -> int:
    """The compiled count (its peak of states left out)."""
    from excover.tiling import _dissections

    count, _ = _dissections.count_dissections(height, width, size, bound, tick, **checkpoint)
    return count


def _resume(path: Path, board: tuple[int, int, int]) -> Resume:
    """The checkpoint ``path`` of the count of ``board`` (height, width, size, the long
    side first), to resume from, its header read and checked against the file and the
    board."""
    from excover.parallel.checkpoint import DamagedCheckpoint
    from excover.tiling import _dissections

    size = 16 + 8 * _dissections.HEADER_WORDS
    with path.open("rb") as source:
        head = source.read(size)
    if head[:16] == b"excover-dissect1":
        raise DamagedCheckpoint(
            f"checkpoint {path} was written by an older version of excover, whose files this"
            " one does not read; move it aside to count from the start"
        )
    if len(head) < size or head[:16] != _dissections.MAGIC:
        raise DamagedCheckpoint(f"checkpoint {path} is not a dissection count's (or is damaged)")
    # in the machine's byte order, as the count writes it
    height, width, pieces, done, states, checksum = struct.unpack("=6Q", head[16:])
    if (height, width, pieces) != board:
        raise UsageError(
            f"checkpoint {path} is of a {height} x {width} board cut into pieces of {pieces}"
            f" cells, not {board[0]} x {board[1]} into {board[2]}"
        )
    if path.stat().st_size != size + 24 * states or done > height * width:
        raise DamagedCheckpoint(f"checkpoint {path} is damaged: its size is not its header's")
    return Resume.of(path, done, states, checksum)
