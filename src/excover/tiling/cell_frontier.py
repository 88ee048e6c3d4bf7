"""Partitions of a board into connected pieces, counted by a frontier over its cells, on
the board itself or on a quotient of it by a group of its symmetries.

A board is a graph of cells (the squares of a grid, joined across their sides). A
partition of its cells into connected pieces (a *composition* of the graph; with a size,
a *dissection* into pieces of that many cells) is the set of edges inside its pieces, an
edge set that leaves no edge out between two cells it connects. :func:`count_partitions`
counts them by a sweep: the cells in an order, each deciding its edges to the cells
before it (in a piece or not), the state after each cell the frontier's components and
which of them must stay apart, equal states merged
(:mod:`excover.tiling._cell_frontier`, its notes say how).

The same count runs on a **quotient**: the partitions fixed by a group G of the board's
symmetries (abelian, of order 2 or 4) are the edge sets on one cell of each orbit (a
*fundamental domain*) whose edges carry the element of G that takes one end's lift to
the other's (a voltage graph): a piece of the domain is then either its own image (its
holonomy holds the symmetry: a piece that crosses a mirror line, or turns about the
centre) or one of several pieces the symmetry maps onto each other.
:func:`quotient_program` makes the program of any such quotient;
:mod:`excover.tiling.symmetric_dissections` makes those of the square's symmetries.

A :class:`SweepProgram` is the sweep: an op per cell of the domain in order, its edges to the
cells before it and the cells that leave the frontier after it, on a fixed number of
slots (the frontier's width). The count's memory grows with the width: about five times
more states a cell of width for compositions (3,568 states at most on the 7 x 7 square,
width 7), far more with a size.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from excover.errors import UsageError
from excover.tiling.resume import Resume

__all__ = ["SweepProgram", "count_partitions", "quotient_program"]

#: An op: (slot of its cell, its stabilizer as a mask of the group's elements, its orbit's
#: cells, its edges as (first, other, voltage) with -1 for the new cell, the slots
#: forgotten after it, the board's cells decided after it).
Op = tuple[int, int, int, tuple[tuple[int, int, int], ...], tuple[int, ...], int]


@dataclass(frozen=True)
class SweepProgram:
    """A sweep of a (quotient) board: ``ops`` (see :data:`Op`), on ``width`` slots, over
    the group of addition table ``table`` (element 0 the identity; ``((0,),)`` for the
    plain board), of ``area`` cells of the board itself, ``edges`` edges of the quotient
    (a composition is a subset of them: the count is below ``2**edges``)."""

    ops: tuple[Op, ...]
    width: int
    table: tuple[tuple[int, ...], ...]
    area: int
    edges: int

    def digest(self, size: int, mode: int) -> int:
        """A 64-bit digest of the program and the count's parameters (a checkpoint
        names the count it belongs to by it)."""
        text = repr((self.ops, self.width, self.table, self.area, size, mode)).encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def quotient_program(
    cells: Sequence[Any],
    edges: Sequence[tuple[Any, Any, int]],
    table: Sequence[Sequence[int]],
    stabilizers: Mapping[Any, int] | None = None,
    area: int | None = None,
) -> SweepProgram:
    """The program of the quotient board whose ``cells`` (one of each orbit, in the
    sweep's order) are joined by ``edges`` ``(a, b, v)``: the lift ``(a, s)`` joined to
    ``(b, s + v)`` for every element s of the group of addition table ``table`` (an edge
    from a cell to itself is a loop, ``v`` not in its stabilizer). ``stabilizers`` gives
    the mask of the elements that fix a cell (default: the identity alone); ``area``
    the cells of the board (default: the orbits' cells)."""
    order = len(table)
    if order not in (1, 2, 4) or any(len(row) != order for row in table):
        raise UsageError(f"a group of 1, 2 or 4 elements, not a table of {order} rows")
    index = {cell: i for i, cell in enumerate(cells)}
    if len(index) != len(cells):
        raise UsageError("a cell is listed twice")
    negate = [row.index(0) for row in table]
    stab = [1 if stabilizers is None else stabilizers.get(cell, 1) for cell in cells]
    sigma = [order // bin(mask).count("1") for mask in stab]
    back: list[list[tuple[int, int]]] = [[] for _ in cells]
    last = list(range(len(cells)))
    for a, b, v in edges:
        if a not in index or b not in index:
            raise UsageError(f"the edge {a!r} - {b!r} has an end that is not a cell")
        i, j = index[a], index[b]
        if i > j:  # (b, s) - (a, s - v): kept from the later end
            i, j, v = j, i, negate[v]
        back[j].append((i, v))
        last[i] = max(last[i], j)
    ops: list[Op] = []
    slots: dict[int, int] = {}
    width = 0
    decided = 0
    for j in range(len(cells)):
        forget = [i for i in slots if last[i] == j]
        free = sorted(set(range(width + 1)) - {slots[i] for i in slots if last[i] != j})
        # (i, s) - (j, s + v) is (j, s) - (i, s - v): each edge from the new cell
        pairs = [(-1, -1, v) if i == j else (-1, slots[i], negate[v]) for i, v in back[j]]
        decided += sigma[j]
        goes = free[0] if last[j] > j else -1
        ops.append(
            (
                goes,
                stab[j],
                sigma[j],
                tuple(pairs),
                tuple(sorted(slots[i] for i in forget)),
                decided,
            )
        )
        for i in forget:
            del slots[i]
        if goes >= 0:
            slots[j] = goes
            width = max(width, len(slots), goes + 1)
    return SweepProgram(
        tuple(ops),
        max(width, 1),
        tuple(tuple(row) for row in table),
        decided if area is None else area,
        len(edges),
    )


def count_partitions(
    program: SweepProgram,
    size: int | None = None,
    *,
    blocks: bool = False,
    max_bytes: int | None = None,
    tick: Callable[[int, int, int], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_every: float = 600.0,
    limbs: int | None = None,
) -> int:
    """The partitions of the board of ``program`` into connected pieces (of ``size``
    cells each; None: any sizes), fixed by its group: the ways through the program.

    ``blocks`` counts by blocks (the plain board only, with a size): for few large
    pieces (each frontier cell's piece guessed, so that the pieces on the frontier are
    at most those left). ``max_bytes`` bounds the tables (None: the ZDD constructions'
    default bound, a share of the machine's memory; 0: none; past it,
    :class:`~excover.MemoryBoundError`); ``tick(ops_done, ops, states)`` after each op.
    Counts are exact: ``limbs`` 64-bit words each (default: enough for ``2**edges``,
    the most partitions there can be; past them, :class:`~excover.ResourceLimitError`).
    ``checkpoint`` (a file) keeps the states after the last op, written every
    ``checkpoint_every`` seconds, when the count stops on an exception and at its end:
    the same call with the same file resumes from it (a file of another count is a
    UsageError, a damaged one a :class:`~excover.parallel.checkpoint.DamagedCheckpoint`)."""
    from excover.tiling import _cell_frontier as core
    from excover.zdd import memory

    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise UsageError(f"size must be a positive integer or None, not {size!r}")
    if size is not None and size > core.MAX_SIZE:
        raise UsageError(f"pieces of {size} cells: the count takes at most {core.MAX_SIZE}")
    if program.width > core.MAX_WIDTH:
        raise UsageError(
            f"a frontier of {program.width} cells: the count takes at most {core.MAX_WIDTH}"
        )
    order = len(program.table)
    pieces = 0
    if blocks:
        if size is None or order != 1:
            raise UsageError("the count by blocks takes a size, on the plain board")
        pieces = program.area // size
    if size is not None and program.area % size:
        return 0
    bits = core.key_bits(program.width, order, size or 0, int(blocks), pieces)
    if bits > 64 * core.MAX_KEY_WORDS:
        raise UsageError(
            f"a frontier of {program.width} cells over a group of {order} has states of"
            f" {bits} bits: the count takes at most {64 * core.MAX_KEY_WORDS}"
        )
    if limbs is None:
        limbs = min(program.edges // 64 + 1, core.MAX_LIMBS)
    bound = memory.default_bound() if max_bytes is None else memory.checked(max_bytes)
    arguments: dict[str, Any] = {
        "size": size or 0,
        "mode": int(blocks),
        "pieces": pieces,
        "area": program.area,
        "limbs": limbs,
        "max_bytes": bound,
        "tick": tick,
        "digest": program.digest(size or 0, int(blocks)),
    }
    if checkpoint is None:
        return core.count_program(program.ops, program.width, program.table, **arguments)[0]
    if isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, int | float):
        raise UsageError(f"checkpoint_every must be a number of seconds, not {checkpoint_every!r}")
    from excover.atomic import replacing
    from excover.parallel.checkpoint import claimed

    path = Path(checkpoint)
    with claimed(path, wait=True) as held:
        assert held is not None  # waiting: the lock is held, or KeyboardInterrupt
        arguments["save"] = lambda: replacing(path)
        arguments["every"] = float(checkpoint_every)
        if path.exists():
            arguments["resume"] = _resume(path, arguments["digest"], program)
        return core.count_program(program.ops, program.width, program.table, **arguments)[0]


def _resume(path: Path, digest: int, program: SweepProgram) -> Resume:
    """The checkpoint ``path`` of the count whose digest is ``digest``, to resume from,
    its header read and checked against the file and the program."""
    from excover.parallel.checkpoint import DamagedCheckpoint
    from excover.tiling import _cell_frontier as core

    size = 16 + 8 * core.HEADER_WORDS
    with path.open("rb") as source:
        head = source.read(size)
    if len(head) < size or head[:16] != core.MAGIC:
        raise DamagedCheckpoint(f"checkpoint {path} is not a cell frontier count's (or is damaged)")
    named, words, limbs, done, states, total = struct.unpack("=6Q", head[16:])
    if named != digest:
        raise UsageError(f"checkpoint {path} is of another count (another board, size or group)")
    if path.stat().st_size != size + 8 * (words + limbs) * states or done > len(program.ops):
        raise DamagedCheckpoint(f"checkpoint {path} is damaged: its size is not its header's")
    return Resume.of(path, done, states, total)
