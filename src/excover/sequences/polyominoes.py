"""A328020: the n x n square tiled by free n-ominoes, up to the square's symmetries.

Jeff Bowermaster's sequence (2019) counts the "distinct tilings of an n X n square with
free n-polyominoes": the square is cut into n pieces of n cells each, any n-omino any
number of times (the 3 x 3 square cut into three straight trominoes counts), and two
tilings that a rotation or reflection of the square maps onto each other are one
(a(2) = 1: the two dominoes lie both across or both along, one tiling up to a quarter
turn; a(3) = 2). The pieces are not labelled: a tiling is the partition of the square.

The exact cover: one primary item per cell, one option per placement of each fixed
n-omino (every free n-omino turned and flipped every way, each distinct orientation
once), built by :class:`excover.tiling.Tiling` with each piece used any number of times.
The problem declares the 8 symmetries of the square, and the count is the number of
orbits of solutions under them (:meth:`excover.ExactCover.count` with
``up_to_symmetry=True``).

That search needs about 1,400 CPU-hours for a(8) (docs/records.md), so the term is
counted another way (:func:`classes_by_dissections`), by Burnside's lemma: the number of
classes is the mean over the square's 8 symmetries of the tilings each one fixes. The
identity fixes every tiling: the dissections of the square into connected pieces of n
cells, counted by :func:`excover.tiling.count_dissections` from the cells (A172477,
a(8) in about 2.5 minutes of CPU). The 7 others fix far fewer (1,511,030 in all at n = 8),
counted by searches of the quotient problems (:class:`excover.symmetry.Quotient`: the
options are the unions of placements a symmetry maps onto each other), a few seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from excover.deadlines import check, check_deadline
from excover.errors import UsageError
from excover.solving import ExactCover

__all__ = [
    "MAX_N",
    "DissectionClasses",
    "classes_by_dissections",
    "square_by_ominoes",
    "square_by_pieces",
]

#: The largest ``n`` whose exact cover :func:`square_by_ominoes` builds: at 10, its
#: 1,397,318 options (14 million nodes) take 22 s and 1.3 GB to build, and each n more
#: multiplies them by about five (the count of the dissections, the sequence's own
#: route, takes squares of up to 10 cells a side too).
MAX_N = 10


def square_by_ominoes(n: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover whose solutions are the tilings of the ``n x n`` square by
    ``n``-ominoes, declaring the square's symmetries (whose orbits A328020 counts).
    UsageError past :data:`MAX_N`, before anything is built; LimitReached once
    ``deadline`` (a ``time.monotonic()`` instant) has passed, looked at before and after
    the n-ominoes are listed (the tiling's own build, 22 s at most, looks at none)."""
    if n > MAX_N:
        raise UsageError(
            f"the {n} x {n} square by {n}-ominoes: its exact cover is built for n up to "
            f"{MAX_N} (excover.sequences.polyominoes.MAX_N), past which it has tens of "
            "millions of nodes"
        )
    return square_by_pieces(n, n, deadline=deadline)


def square_by_pieces(n: int, size: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover whose solutions are the cuts of the ``n x n`` square into pieces
    of ``size`` cells (every ``size``-omino, turned and flipped, any number of times),
    declaring the square's symmetries; LimitReached once ``deadline`` has passed,
    looked at before and after the polyominoes are listed."""
    from excover.tiling import Pattern, Tiling, polyominoes, tiles

    deadline = check_deadline(deadline)
    check(deadline)
    shapes = tiles(polyominoes(size), multiplicity="any")
    check(deadline)
    tiling = Tiling(Pattern.constant(n, n), shapes)
    problem = tiling.problem
    problem.declare_symmetries([maps.tolist() for maps in tiling.symmetry.option_maps])
    return problem


class DissectionClasses(NamedTuple):
    """A term counted by :func:`classes_by_dissections`: the classes, the dissections
    of the square (the tilings the identity fixes), the tilings each other symmetry of
    the square fixes, and the CPU seconds of each part."""

    classes: int
    dissections: int
    fixed: tuple[int, ...]
    dissection_seconds: float
    fixed_seconds: float


def classes_by_dissections(
    n: int,
    *,
    tick: Callable[[int, int, int], None] | None = None,
    timeout: float | None = None,
) -> DissectionClasses:
    """A328020(n) by Burnside's lemma (see the module's text): the square's dissections
    into n-cell pieces (``tick`` hears of their count's progress, as for
    :func:`excover.tiling.count_dissections`) plus the tilings fixed by each of the 7
    other symmetries, divided by 8. ``timeout`` (seconds) bounds the whole: past it,
    :class:`~excover.LimitReached` (no partial count: a class count needs every part)."""
    import time

    from excover.errors import LimitReached
    from excover.statistics import Stats
    from excover.symmetry.chain import is_identity
    from excover.symmetry.fixed import Quotient, elements_of
    from excover.tiling import count_dissections

    deadline = None if timeout is None else time.monotonic() + timeout

    def heard(done: int, cells: int, states: int) -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise LimitReached("timeout", Stats())
        if tick is not None:
            tick(done, cells, states)

    started = time.process_time()
    dissections = count_dissections(n, n, n, tick=heard)
    counted = time.process_time()
    cover = square_by_ominoes(n, deadline=deadline)
    elements = elements_of(cover.symmetries(), "A328020's fixed tilings")
    fixed = []
    for g in elements:
        if is_identity(g):
            continue
        left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        fixed.append(Quotient(cover, g).count(timeout=left))
    total = dissections + sum(fixed)
    if total % len(elements):  # pragma: no cover - Burnside's lemma says it divides
        raise AssertionError(f"{total} fixed tilings for a group of {len(elements)}")
    done = time.process_time()
    return DissectionClasses(
        total // len(elements), dissections, tuple(fixed), counted - started, done - counted
    )
