"""A348453: the n x n square cut into d connected pieces of equal area, a triangle.

N. J. A. Sloane's irregular triangle (2021): T(n, k) is the number of ways to cut the
n x n square into d connected pieces of n^2 / d cells each, d the k-th divisor of n^2
(every cut counted: cuts that a symmetry maps onto each other count apart; the pieces
are not labelled, and any shapes may be used any number of times). Row n has one entry
per divisor of n^2, from d = 1 (the square itself: 1) to d = n^2 (the single cells: 1);
the OEIS reads the rows one after the other (offset 1: T(1, 1) is a(1)), and so do
:func:`excover.sequences.term` and :data:`excover.sequences.known.KNOWN`: the term of
index i is the entry :func:`position` names. Row 4 is 1, 70, 117, 36, 1 (d = 1, 2, 4, 8,
16: the 36 the domino tilings of the 4 x 4 square); T(n, k) with d = n is A172477(n).

The exact cover of an entry: one primary item per cell, one option per placement of
each fixed polyomino of n^2 / d cells (every free one turned and flipped), any number of
times, the square's symmetries declared: its pieces up to :data:`MAX_PIECE` cells, or
the whole square. The entry is counted by a frontier over the square's cells
(:func:`excover.tiling.cell_frontier.count_partitions` with the pieces' size): for a few
large pieces (d at most :data:`BLOCKS_UP_TO`) by blocks, each frontier cell's piece
guessed (T(8, 2), two pieces of 32 cells, in 0.15 s), else by the frontier's pieces and
their sizes.
"""

from __future__ import annotations

import time

from excover.errors import UsageError
from excover.solving import ExactCover

__all__ = [
    "BLOCKS_UP_TO",
    "MAX_PIECE",
    "count_entry",
    "divisors",
    "entry_cover",
    "index",
    "position",
]

#: The largest pieces (in cells) of an entry whose exact cover :func:`entry_cover`
#: builds (besides the whole square): the free polyominoes of 10 cells number 4,655.
MAX_PIECE = 10

#: The entries of at most this many pieces are counted by blocks.
BLOCKS_UP_TO = 4

#: The largest row :func:`position` walks to (row 10,000 is term 4.5 million or so).
MAX_ROW = 10_000


def divisors(n: int) -> tuple[int, ...]:
    """The divisors of n^2 in increasing order: the numbers of pieces of row n."""
    found = [1]
    m, p = n, 2
    while m > 1:  # each prime p of n, to twice its power in n
        if p * p > m:
            p = m
        power = 0
        while m % p == 0:
            m //= p
            power += 2
        found = [d * p**e for d in found for e in range(power + 1)]
        p += 1
    return tuple(sorted(found))


def position(i: int) -> tuple[int, int]:
    """The row n and column k (both from 1) of the triangle's term of index ``i`` (from
    1, as the OEIS numbers them). UsageError past row :data:`MAX_ROW`."""
    n = 1
    while i > len(divisors(n)):
        i -= len(divisors(n))
        n += 1
        if n > MAX_ROW:
            raise UsageError(f"a term past row {MAX_ROW} of A348453")
    return n, i


def index(n: int, k: int) -> int:
    """The index (from 1) of T(n, k) in the triangle read by rows; UsageError when row n
    has no column k."""
    width = len(divisors(n))
    if not 1 <= k <= width:
        raise UsageError(
            f"row {n} of A348453 has {width} entries (one per divisor of {n * n}), not a column {k}"
        )
    return sum(len(divisors(m)) for m in range(1, n)) + k


def entry_cover(n: int, k: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover whose solutions are the cuts T(n, k) counts (the module's text),
    the square's symmetries declared. UsageError for pieces of more than
    :data:`MAX_PIECE` cells short of the whole square, before anything is built;
    LimitReached once ``deadline`` (a ``time.monotonic()`` instant) passes."""
    from excover.sequences.compositions import declare_square
    from excover.sequences.polyominoes import square_by_pieces

    pieces = divisors(n)[index(n, k) - index(n, 1)]
    size = n * n // pieces
    if pieces == 1:
        names = [f"{r},{c}" for r in range(n) for c in range(n)]
        problem = ExactCover(primary=names)
        problem.add_option(names)
        declare_square(problem, n)
        return problem
    if size > MAX_PIECE:
        raise UsageError(
            f"T({n},{k}), {pieces} pieces of {size} cells: the exact cover is built for"
            f" pieces of up to {MAX_PIECE} cells (excover.sequences.equal_pieces.MAX_PIECE)"
            " or the whole square"
        )
    return square_by_pieces(n, size, deadline=deadline)


def count_entry(n: int, k: int, *, timeout: float | None = None) -> tuple[int, dict[str, object]]:
    """T(n, k) counted by a frontier over the square's cells (the module's text), and
    what it was: the pieces, their size, whether by blocks; past ``timeout`` seconds,
    :class:`~excover.LimitReached`."""
    from excover.errors import LimitReached
    from excover.statistics import Stats
    from excover.tiling.cell_frontier import count_partitions
    from excover.tiling.symmetric_dissections import square_program

    pieces = divisors(n)[index(n, k) - index(n, 1)]
    size = n * n // pieces
    parts: dict[str, object] = {"pieces": pieces, "piece_cells": size}
    if pieces == 1 or size == 1:
        return 1, parts
    deadline = None if timeout is None else time.monotonic() + timeout

    def heard(done: int, ops: int, states: int) -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise LimitReached("timeout", Stats())

    blocks = pieces <= BLOCKS_UP_TO
    parts["blocks"] = blocks
    return count_partitions(square_program(n), size, blocks=blocks, tick=heard), parts
