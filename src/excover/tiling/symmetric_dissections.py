"""The dissections of the n x n square fixed by its symmetries, counted by a frontier on
the quotient board.

A dissection (a partition of the square's cells into connected pieces, of one size or of
any sizes: a composition of the grid graph) is fixed by a symmetry g when g maps each
piece onto a piece. Such a dissection is a set of edges of the square (those inside its
pieces) that g maps onto itself, so it is decided on one cell of each orbit of g's group
(a fundamental domain): the square's edges fall into orbits, each an edge of the
quotient board carrying the symmetry that takes one end's lift to the other's, and a
piece of the domain is either its own image (it crosses a mirror line, or turns about
the centre: its *holonomy* holds g) or one of several pieces that g maps onto each other.
:func:`excover.tiling.cell_frontier.count_partitions` counts the quotient's edge sets
that are dissections of the square, by a frontier over the domain's cells.

The domains and sweeps, for the n x n square (m = n // 2):

- a mirror in an axis: the half on one side, the middle column (odd n) included, its
  cells fixed by the mirror; on even n each cell beside the axis has a loop (its edge
  across the axis): a piece touching the axis either crosses it everywhere or nowhere.
  Swept across the half: a frontier of ceil(n/2) cells.
- a mirror in a diagonal: the triangle on one side, the diagonal's cells fixed by it,
  swept along the other diagonal: about n/2 + 1 cells.
- the half turn: the lower half and half of the middle row (odd n: the centre fixed),
  swept by rows, the middle row's edges across the fold carrying the half turn: n cells.
- the quarter turns: a quadrant (odd n: an m x (m + 1) blade of the pinwheel and the
  centre, fixed), swept along its anti-diagonals from the corner, its two inner sides
  joined by edges carrying the quarter turn: about n/2 + 1 cells.
- the Klein groups (both axes, both diagonals: the half turn with them): a quadrant or a
  quarter triangle, two mirror lines.

Second routes to the same counts: ``twin=True`` sweeps another domain (the quarter turns
from the far corner, the half turn's left half by columns, the Klein groups' opposite
quarter) or, for the identity, the whole square by rows with a step (the right half a
row behind); :func:`folded_program` folds the square onto a plain board along mirrors
through cells (the diagonals; the axes of odd n), whose compositions are the fixed ones,
with neither voltages nor holonomy.

The group's elements are named as :data:`excover.tiling.D4` names them; a group is one
of :data:`excover.tiling.D4_SUBGROUPS` (the abelian ones: all but ``all``), a symmetry
stands for the group it generates (the tilings it fixes are those its group fixes).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from excover.errors import UsageError
from excover.tiling.cell_frontier import SweepProgram, count_partitions, quotient_program
from excover.tiling.grids import D4, D4_SUBGROUPS, Isometry

__all__ = [
    "FOLDABLE",
    "GROUPS",
    "SYMMETRIES",
    "count_fixed_dissections",
    "fixed_counts",
    "folded_program",
    "square_program",
]

#: The square's symmetries by name, the identity first (as D4 lists them).
SYMMETRIES: tuple[str, ...] = tuple(g.name for g in D4)

#: The abelian subgroups of the square's symmetries whose fixed dissections are counted,
#: by name (as D4_SUBGROUPS names them).
GROUPS: tuple[str, ...] = tuple(name for name in D4_SUBGROUPS if name != "all")

#: The group each symmetry generates.
_GENERATED = {
    "Id": "none",
    "Rot90": "rotations",
    "Rot180": "rot180",
    "Rot270": "rotations",
    "VertRefl": "vertical",
    "HorizRefl": "horizontal",
    "Diag1Refl": "diag1",
    "Diag2Refl": "diag2",
}

Cell = tuple[int, int]
#: A domain: whether a cell (x, y) is in it, and the sweep's order of its cells.
Domain = tuple[Callable[[int, int], bool], Callable[[Cell], tuple[int, ...]]]


def _domain(name: str, n: int, twin: bool) -> Domain:
    """The fundamental domain of the group ``name`` on the n x n square and its sweep;
    ``twin`` picks another domain where there is one (Rot270's group is Rot90's: its
    count on another quadrant checks the first; the half turn's on the left half, swept
    by columns, checks its count on the lower half, swept by rows; the whole square's by
    rows with a step, a frontier of n + 1 cells, its count by rows; the Klein groups' on
    the opposite quarter, swept another way)."""
    m, odd = n // 2, n % 2

    def rows(c: Cell) -> tuple[int, ...]:
        return (c[1], c[0])

    def columns(c: Cell) -> tuple[int, ...]:
        return (c[0], c[1])

    def diagonals(c: Cell) -> tuple[int, ...]:
        return (c[0] + c[1], c[0])

    def from_the_far_corner(c: Cell) -> tuple[int, ...]:
        return (-c[0] - c[1], -c[0])

    if name == "none" and not twin:
        return (lambda x, y: True), rows
    if name == "none":  # by rows with a step: the right half a row behind the left
        return (lambda x, y: True), (lambda c: (c[1] + (2 * c[0] >= n), c[0]))
    if name == "vertical":
        return (lambda x, y: 2 * x <= n - 1), rows
    if name == "horizontal":
        return (lambda x, y: 2 * y <= n - 1), columns
    if name == "diag1":  # (x, y) -> (y, x)
        return (lambda x, y: x <= y), diagonals
    if name == "diag2":  # (x, y) -> (n-1-y, n-1-x)
        return (lambda x, y: x + y <= n - 1), (lambda c: (c[1] - c[0], c[0]))
    if name == "rot180" and not twin:
        return (lambda x, y: 2 * y < n - 1 or (2 * y == n - 1 and 2 * x <= n - 1)), rows
    if name == "rot180":  # the left half, swept by columns
        return (lambda x, y: 2 * x < n - 1 or (2 * x == n - 1 and 2 * y <= n - 1)), columns
    if name == "rotations" and not twin:
        if odd:
            return (lambda x, y: (x <= m and y < m) or x == y == m), diagonals
        return (lambda x, y: x < m and y < m), diagonals
    if name == "rotations":
        if odd:
            return (lambda x, y: (x >= m and y > m) or x == y == m), from_the_far_corner
        return (lambda x, y: x >= m and y >= m), from_the_far_corner
    if name == "axes" and not twin:
        return (lambda x, y: 2 * x <= n - 1 and 2 * y <= n - 1), rows
    if name == "axes":  # the far quadrant, from its far corner
        return (lambda x, y: 2 * x >= n - 1 and 2 * y >= n - 1), from_the_far_corner
    if name == "diagonals" and not twin:
        return (lambda x, y: x <= y and x + y <= n - 1), rows
    if name == "diagonals":  # the opposite quarter triangle, by columns from the right
        return (lambda x, y: x >= y and x + y >= n - 1), (lambda c: (-c[0], c[1]))
    raise UsageError(f"no domain for the group {name!r}")  # pragma: no cover


def _image(g: Isometry, n: int, cell: Cell) -> Cell:
    """The cell of the n x n square that g maps ``cell`` to (g about the square's centre)."""
    (a, b), (c, d) = g.matrix
    x, y = cell
    return (
        a * x + b * y + (n - 1 if min(a, b) < 0 else 0),
        c * x + d * y + (n - 1 if min(c, d) < 0 else 0),
    )


def group_of(symmetry: str | Isometry) -> str:
    """The name of the group ``symmetry`` is (a D4_SUBGROUPS name) or generates (a
    symmetry's name or an isometry of the square)."""
    if isinstance(symmetry, Isometry):
        symmetry = symmetry.name
    if symmetry in _GENERATED:
        return _GENERATED[symmetry]
    if symmetry in GROUPS:
        return symmetry
    if symmetry == "all":
        raise UsageError(
            "the dissections fixed by all the square's symmetries: D4 is not abelian, and"
            " its quotient's edges would carry its elements; count a subgroup"
        )
    raise UsageError(
        f"unknown symmetry {symmetry!r}: one of {', '.join(SYMMETRIES)} or a group of"
        f" {', '.join(GROUPS)}"
    )


def square_program(n: int, symmetry: str | Isometry = "Id", *, twin: bool = False) -> SweepProgram:
    """The program of the quotient of the n x n square by the group of ``symmetry`` (see
    :func:`group_of`): its domain swept, its edges' voltages. ``twin`` picks another
    domain or sweep for the quarter turns' group, the half turn, the identity and the
    Klein groups (a second route to the same count)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"n must be a positive integer, not {n!r}")
    name = group_of(symmetry)
    elements = list(D4_SUBGROUPS[name])
    index = {g.name: i for i, g in enumerate(elements)}
    table = [[index[(a * b).name] for b in elements] for a in elements]
    inside, sweep = _domain(name, n, twin or symmetry in ("Rot270", "HorizRefl", "Diag2Refl"))
    # each cell of the square: the domain's cell of its orbit and an element mapping it there
    where: dict[Cell, tuple[Cell, int]] = {}
    stabilizers: dict[Cell, int] = {}
    domain = sorted(
        ((x, y) for y in range(n) for x in range(n) if inside(x, y)), key=lambda c: sweep(c)
    )
    for cell in domain:
        stabilizers[cell] = 0
        for i, g in enumerate(elements):
            image = _image(g, n, cell)
            if image in where and where[image][0] != cell:
                raise AssertionError(f"two cells of one orbit in the domain of {name}")
            where.setdefault(image, (cell, i))
            if image == cell:
                stabilizers[cell] |= 1 << i
    if len(where) != n * n:  # pragma: no cover - each domain holds a cell of each orbit
        raise AssertionError(f"the domain of {name} misses an orbit on the {n} x {n} square")
    edges = []
    seen: set[frozenset[Cell]] = set()
    negate = [row.index(0) for row in table]
    for y in range(n):
        for x in range(n):
            for u, v in ((x + 1, y), (x, y + 1)):
                if u >= n or v >= n:
                    continue
                edge = frozenset({(x, y), (u, v)})
                if edge in seen:
                    continue
                seen.update(frozenset(_image(g, n, c) for c in edge) for g in elements)
                (a, s), (b, t) = where[(x, y)], where[(u, v)]
                edges.append((a, b, table[negate[s]][t]))  # (a, 0) - (b, t - s)
    return quotient_program(domain, edges, table, stabilizers, n * n)


#: The groups of mirrors whose lines run through cells on every n (the diagonals), or on
#: odd n only (the axes): the square folds onto a domain of them.
FOLDABLE: dict[str, bool] = {
    "diag1": True,
    "diag2": True,
    "diagonals": True,
    "vertical": False,
    "horizontal": False,
    "axes": False,
}


def folded_program(n: int, symmetry: str | Isometry) -> SweepProgram:
    """The plain board the n x n square folds onto by the mirrors of ``symmetry``'s
    group (a diagonal's, both diagonals', or on odd n an axis' or both axes'): its cells
    are the domain's, joined as on the square, with no voltage. A composition of the
    square that the mirrors fix is one of the folded board and back (folding onto the
    domain keeps cells that touch touching, so each piece's part in the domain is
    connected; unfolding a piece of the domain gives it with its images, which meet it
    on the mirror lines only): the plain count of this board, with no size, is a second
    route to the fixed compositions, with neither voltages nor holonomy. Sizes are not
    kept (a piece on a mirror line is counted once, its image's cells not)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"n must be a positive integer, not {n!r}")
    name = group_of(symmetry)
    if name not in FOLDABLE or (not FOLDABLE[name] and n % 2 == 0):
        raise UsageError(
            f"the square does not fold onto a domain of {name!r} for n = {n}: only mirrors"
            " through cells (the diagonals; the axes of odd n) fold it"
        )
    inside, sweep = _domain(name, n, False)
    cells = sorted(
        ((x, y) for y in range(n) for x in range(n) if inside(x, y)), key=lambda c: sweep(c)
    )
    region = set(cells)
    edges = [
        ((x, y), (u, v), 0)
        for (x, y) in cells
        for (u, v) in ((x + 1, y), (x, y + 1))
        if (u, v) in region
    ]
    return quotient_program(cells, edges, [[0]])


def count_fixed_dissections(
    n: int,
    symmetry: str | Isometry = "Id",
    size: int | None = None,
    *,
    twin: bool = False,
    max_bytes: int | None = None,
    tick: Callable[[int, int, int], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_every: float = 600.0,
) -> int:
    """The dissections of the ``n`` x ``n`` square into connected pieces of ``size``
    cells (None: of any sizes, the compositions of the grid graph) that ``symmetry``
    maps onto themselves (a name of :data:`SYMMETRIES` or an isometry of
    :data:`excover.tiling.D4`; or a group of :data:`GROUPS`: those all its elements
    fix), counted by a frontier over its quotient (the module's notes).

    The frontier is at most n + 1 cells (the half turn's, the plain square's n) and
    at most 15; ``max_bytes``, ``tick``, ``checkpoint`` and ``checkpoint_every`` as for
    :func:`~excover.tiling.cell_frontier.count_partitions`. With no size the states are
    few (the plain 10 x 10 square's widest layer a few hundred thousand); with a size,
    as many as :func:`excover.tiling.count_dissections` holds on the frontier's width."""
    program = square_program(n, symmetry, twin=twin)
    return count_partitions(
        program,
        size,
        max_bytes=max_bytes,
        tick=tick,
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
    )


def fixed_counts(n: int, size: int | None = None, **options: object) -> dict[str, int]:
    """The dissections of the n x n square (of pieces of ``size`` cells; None: any)
    fixed by each of its 8 symmetries, by name (``Id``: every dissection), each counted
    by :func:`count_fixed_dissections` (``options`` go to it)."""
    return {
        name: count_fixed_dissections(n, name, size, **options)  # type: ignore[arg-type]
        for name in SYMMETRIES
    }
