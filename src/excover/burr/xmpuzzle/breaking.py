"""How BurrTools' assemblers break the result's symmetry, so that excover picks the
assemblies BurrTools picks.

BurrTools counts one assembly per class of assemblies that the result's symmetries map
onto each other (:mod:`excover.burr.xmpuzzle.cover`), and the one it keeps is the
*smallest* of its class, two assemblies compared by their pieces' placements
(``assembly.cpp``, ``compare``): piece by piece in its numbering of the pieces (the
problem's shapes in order, the copies of one shape sorted by placement, a copy left out
after every placed one), each placement by its transformation's number (the lowest that
gives the piece's orientation), then the position of its hotspot, ``x``, ``y``, ``z``.
One piece may be compared before the others: its *symmetry breaker*, a shape used
exactly once whose orientations the assembler restricts to the first of each class under
the result's rotations (``assembler_0.cpp``, ``assembler_1.cpp``), the smallest of each
class having it in one of those. Which assembly stands for a class matters beyond the
count: the later stages of a level may differ between members of one class (where two
separations tie, a turned copy meets them in another order), and so may the order of
the pieces, in which the disassembler tries them.

This module holds the two rules that are BurrTools' own: its numbering of the rotations
(:func:`rotation_order`, on the cube and triangular-prism grids, the two it
disassembles) and the choice of the breaker (:func:`compared_first`), from the
symmetries of the result and of the shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from excover.burr.xmpuzzle.lattice import GRIDS, LatticeGrid
from excover.burr.xmpuzzle.model import Part
from excover.burr.xmpuzzle.placements import TRANSFORMATIONS, transform

__all__ = ["compared_first", "rotation_order"]

#: Voxels that no rotation of the cube or prism grid maps onto a translate of themselves.
_PROBE = np.array(
    [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (0, 0, 2)],
    dtype=np.int64,
)


def _key(grid: LatticeGrid, voxels: np.ndarray) -> bytes:
    """Voxels moved to the grid's canonical translate and sorted, as bytes."""
    moved = voxels - grid.shift(voxels)
    return moved[np.lexsort((moved[:, 2], moved[:, 1], moved[:, 0]))].tobytes()


@cache
def rotation_order(number: int) -> tuple[int, ...]:
    """The rotations of BurrTools' grid ``number`` (their indices in
    :attr:`LatticeGrid.rotations <excover.burr.xmpuzzle.lattice.LatticeGrid>`) in
    BurrTools' numbering of them (:mod:`excover.burr.xmpuzzle.placements`), each
    found by what it does to voxels; on the grids BurrTools does not disassemble
    (spheres, rhombic dodecahedra, tetrahedra-octahedra) their own order."""
    grid = GRIDS[number]
    turns = len(grid.rotations)
    if number not in TRANSFORMATIONS:
        return tuple(range(turns))
    images, _ = grid.images(_PROBE)
    ours = {_key(grid, images[k]): k for k in range(turns)}
    order = tuple(ours[_key(grid, transform(number, t, _PROBE))] for t in range(turns))
    assert sorted(order) == list(range(turns)), "the probe must tell the rotations apart"
    return order


def compared_first(
    grid: int,
    parts: Sequence[Part],
    result: Sequence[int],
    shapes: Sequence[Sequence[int]],
) -> int | None:
    """The part whose piece BurrTools compares first (its symmetry breaker), or None.

    ``parts`` are the problem's parts, ``result`` the transformations (indices into the
    grid's ``transformations``, rotations and mirrors) mapping the result onto itself,
    and ``shapes[i]`` those mapping part ``i``'s shape onto itself. Without a symmetry
    of the result there is none. BurrTools' first assembler (every shape used exactly
    once) takes the shape that has the fewest symmetries that are also symmetries of the
    result in some orientation (the first of those); the second (ranges or copies) the
    shape used the fewest times, of those the one with the fewest such symmetries, and
    compares it first only when it is used exactly once and no shape has a range."""
    if len(result) < 2 or grid not in TRANSFORMATIONS:
        return None
    common = _conjugates(grid, result)
    shared = [len(common & set(own)) for own in shapes]
    if all((p.lo, p.hi) == (1, 1) for p in parts):
        return min(range(len(parts)), key=lambda i: (shared[i], i))
    best = 0
    for i in range(1, len(parts)):
        fewer = parts[i].hi < parts[best].hi
        if fewer or (parts[i].hi == parts[best].hi and shared[i] < shared[best]):
            best = i
    if parts[best].hi > 1 or any(p.lo != p.hi for p in parts):
        return None
    return best


def _conjugates(number: int, transformations: Sequence[int]) -> frozenset[int]:
    """Every conjugate ``g t g^-1`` of the given transformations (indices) by the grid's
    transformations: the symmetries a shape has in some orientation."""
    return _conjugates_of(number, tuple(transformations))


@cache
def _conjugates_of(number: int, transformations: tuple[int, ...]) -> frozenset[int]:
    """:func:`_conjugates`, kept: a search of many designs asks again and again about
    the one result's symmetries."""
    table, inverse = _products(number)
    moved = table[:, list(transformations)]  # g t, for every g (rows) and t (columns)
    return frozenset(table[moved, inverse[:, None]].ravel().tolist())


@cache
def _products(number: int) -> tuple[np.ndarray, np.ndarray]:
    """The grid's transformations' products (``table[a, b]``: ``a`` after ``b``, by their
    linear parts) and each one's inverse."""
    matrices = [np.array(t.matrix, dtype=np.int64) for t in GRIDS[number].transformations]
    index = {m.tobytes(): k for k, m in enumerate(matrices)}
    table = np.array([[index[(a @ b).tobytes()] for b in matrices] for a in matrices])
    inverse = np.argmax(table == 0, axis=1)  # transformation 0 is the identity
    return table, inverse
