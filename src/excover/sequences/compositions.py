"""A145835, A291806, A291807: the n x n square cut into connected pieces of any sizes.

A *composition* of the n x n grid graph is a partition of its cells into edge-connected
pieces (Brian Kell's A145835: 12 of the 2 x 2 square, 1,434 of the 3 x 3). John Mason's
A291806 counts them up to the square's 8 symmetries (two compositions that a rotation or
reflection maps onto each other are one: 5 of the 2 x 2 square) and A291807 the classes
of those with a symmetry other than the identity (all 5 of the 2 x 2 square, 67 of the
216 of the 3 x 3).

The exact cover: one primary item per cell (``"r,c"``, row r from the top), one option per
connected set of cells (every piece a composition can have; :func:`connected_sets`), the
square's symmetries declared by their maps of the cells. Its solutions are the
compositions; the classes of its solutions (``count(up_to_symmetry=True)``) are A291806's
term. It has 11,506 options at n = 4 and 1,863,100 at n = 5, so it is built for n up to
:data:`MAX_N`.

The terms are counted another way, by a frontier over the cells
(:mod:`excover.tiling.cell_frontier`): the compositions fixed by a group H of the
square's symmetries are the compositions of the quotient board
(:func:`excover.tiling.symmetric_dissections.count_fixed_dissections`), F(H) of them
(F(1) the compositions themselves, A145835). By Burnside's lemma the classes number
(1/8) times the sum of F(g) over the 8 symmetries g (:func:`fixed`). The classes with a
symmetry are the classes less those whose compositions no symmetry but the identity
fixes; each of those is an orbit of 8, and the compositions with no symmetry number,
by Möbius inversion on the lattice of the subgroups of D4,

    N = F(1) - F(r^2) - F(v) - F(h) - F(d1) - F(d2) + 2 F(axes) + 2 F(diagonals)

(the Möbius function from the trivial group to H: -1 on the 5 subgroups of order 2,
2 on the two Klein four-groups, 0 on the cyclic group of the quarter turns and on D4,
which are not elementary abelian), so A291807 = A291806 - N / 8. Every part is checked:
the sums over the group and over each subgroup divisible by their orders, N by 8.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import NamedTuple

from excover.deadlines import check, check_deadline
from excover.errors import UsageError
from excover.solving import ExactCover

__all__ = [
    "MAX_N",
    "MOBIUS",
    "CompositionClasses",
    "compositions",
    "connected_sets",
    "count_compositions",
    "fixed",
]

#: The largest ``n`` whose exact cover :func:`compositions` builds: the 4 x 4 square's
#: 11,506 connected sets; the 5 x 5 square's 1,863,100 would take minutes of Python
#: to list, for a search of 19.7 billion solutions that no machine finishes soon.
MAX_N = 4

#: The Möbius function of the lattice of the square's symmetry groups, from the trivial
#: group to each group whose fixed compositions enter the count of those with no
#: symmetry (the others', the quarter turns' and D4's, is 0): the groups as
#: :data:`excover.tiling.D4_SUBGROUPS` names them.
MOBIUS: dict[str, int] = {
    "none": 1,
    "rot180": -1,
    "vertical": -1,
    "horizontal": -1,
    "diag1": -1,
    "diag2": -1,
    "axes": 2,
    "diagonals": 2,
}


def _cell(row: int, column: int) -> str:
    return f"{row},{column}"


def connected_sets(
    n: int, *, size: int | None = None, deadline: float | None = None
) -> Iterator[tuple[int, ...]]:
    """Every connected set of cells of the n x n square (of ``size`` cells; None: of
    any size), each once, as the sorted tuple of its cells' indices (row * n + column):
    grown from its smallest cell by only larger cells, each new cell one no earlier
    choice could have added (Wernicke's ESU enumeration of connected subgraphs).
    LimitReached once ``deadline`` (a ``time.monotonic()`` instant) passes."""
    neighbours = [
        [
            r * n + c
            for r, c in (
                (i // n - 1, i % n),
                (i // n + 1, i % n),
                (i // n, i % n - 1),
                (i // n, i % n + 1),
            )
            if 0 <= r < n and 0 <= c < n
        ]
        for i in range(n * n)
    ]
    limit = n * n if size is None else size
    walked = 0

    def grow(
        chosen: list[int], seen: set[int], extension: list[int], root: int
    ) -> Iterator[tuple[int, ...]]:
        nonlocal walked
        walked += 1
        check(deadline, walked)
        if size is None or len(chosen) == size:
            yield tuple(sorted(chosen))
        if len(chosen) == limit:
            return
        extension = list(extension)
        while extension:
            w = extension.pop()
            added = [u for u in neighbours[w] if u > root and u not in seen]
            chosen.append(w)
            seen.update(added)
            yield from grow(chosen, seen, extension + added, root)
            seen.difference_update(added)
            chosen.pop()

    for root in range(n * n):
        start = [u for u in neighbours[root] if u > root]
        yield from grow([root], {root, *start}, start, root)


def compositions(n: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover whose solutions are the compositions of the n x n grid graph (the
    module's text), declaring the square's symmetries. UsageError past :data:`MAX_N`,
    before anything is built; LimitReached once ``deadline`` (a ``time.monotonic()``
    instant) passes."""
    deadline = check_deadline(deadline)
    if n > MAX_N:
        raise UsageError(
            f"the compositions of the {n} x {n} square: their exact cover is built for n up"
            f" to {MAX_N} (excover.sequences.compositions.MAX_N), past which its options"
            " (every connected set of cells) number millions"
        )
    names = [_cell(r, c) for r in range(n) for c in range(n)]
    problem = ExactCover(primary=names)
    for cells in connected_sets(n, deadline=deadline):
        problem.add_option([names[i] for i in cells])
    declare_square(problem, n)
    return problem


def declare_square(problem: ExactCover, n: int) -> None:
    """Declare on ``problem`` (its items the cells ``"r,c"`` of the n x n square) the
    square's symmetries, by a quarter turn and a mirror."""
    turn = {_cell(r, c): _cell(c, n - 1 - r) for r in range(n) for c in range(n)}
    mirror = {_cell(r, c): _cell(r, n - 1 - c) for r in range(n) for c in range(n)}
    problem.declare_symmetries([turn, mirror])


def _ticking(deadline: float | None) -> Callable[[int, int, int], None]:
    def heard(done: int, ops: int, states: int) -> None:
        if deadline is not None and time.monotonic() > deadline:
            from excover.errors import LimitReached
            from excover.statistics import Stats

            raise LimitReached("timeout", Stats())

    return heard


def count_compositions(n: int, *, timeout: float | None = None) -> int:
    """A145835(n): the compositions of the n x n grid graph, counted by a frontier over
    its cells; past ``timeout`` seconds, :class:`~excover.LimitReached`."""
    from excover.tiling.symmetric_dissections import count_fixed_dissections

    deadline = None if timeout is None else time.monotonic() + timeout
    return count_fixed_dissections(n, "Id", tick=_ticking(deadline))


class CompositionClasses(NamedTuple):
    """The classes of the compositions of the n x n square under its symmetries
    (A291806), those with a symmetry (A291807), the compositions with none, and the
    compositions each group fixes (by the names of :data:`MOBIUS` and of the square's
    symmetries, :data:`excover.tiling.symmetric_dissections.SYMMETRIES`)."""

    classes: int
    symmetric: int
    asymmetric: int
    fixed: dict[str, int]


def fixed(n: int, *, timeout: float | None = None) -> CompositionClasses:
    """A291806(n) and A291807(n) from the compositions fixed by each of the square's
    symmetries and by its two Klein four-groups (the module's text), each counted by a
    frontier over the quotient board; past ``timeout`` seconds (for the whole),
    :class:`~excover.LimitReached`. Raises AssertionError if a check fails: the
    symmetries generating one group disagree, or a sum is not divisible by its group's
    order."""
    from excover.tiling.symmetric_dissections import SYMMETRIES, count_fixed_dissections

    deadline = None if timeout is None else time.monotonic() + timeout
    tick = _ticking(deadline)
    counts = {name: count_fixed_dissections(n, name, tick=tick) for name in SYMMETRIES}
    for group in ("axes", "diagonals"):
        counts[group] = count_fixed_dissections(n, group, tick=tick)
    by_group = {
        "none": counts["Id"],
        "rot180": counts["Rot180"],
        "vertical": counts["VertRefl"],
        "horizontal": counts["HorizRefl"],
        "diag1": counts["Diag1Refl"],
        "diag2": counts["Diag2Refl"],
        "axes": counts["axes"],
        "diagonals": counts["diagonals"],
    }
    pairs = (("Rot90", "Rot270"), ("VertRefl", "HorizRefl"), ("Diag1Refl", "Diag2Refl"))
    if any(counts[a] != counts[b] for a, b in pairs):
        raise AssertionError(f"conjugate symmetries fix different counts: {counts}")
    # each subgroup's own Burnside sum is divisible by its order
    subgroups = {
        "rotations": ("Id", "Rot90", "Rot180", "Rot270"),
        "axes": ("Id", "Rot180", "VertRefl", "HorizRefl"),
        "diagonals": ("Id", "Rot180", "Diag1Refl", "Diag2Refl"),
        "all": SYMMETRIES,
        **{
            name: ("Id", name)
            for name in ("Rot180", "VertRefl", "HorizRefl", "Diag1Refl", "Diag2Refl")
        },
    }
    for name, elements in subgroups.items():
        if sum(counts[g] for g in elements) % len(elements):
            raise AssertionError(f"the sum over {name} is not divisible by {len(elements)}")
    classes = sum(counts[g] for g in SYMMETRIES) // len(SYMMETRIES)
    asymmetric = sum(MOBIUS[name] * value for name, value in by_group.items())
    if asymmetric % len(SYMMETRIES) or asymmetric < 0:
        raise AssertionError(f"{asymmetric} compositions with no symmetry, not a multiple of 8")
    symmetric = classes - asymmetric // len(SYMMETRIES)
    return CompositionClasses(classes, symmetric, asymmetric, counts)
