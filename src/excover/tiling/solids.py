"""Patterns of BurrTools' solid grids: triangular prisms, spheres, rhombic dodecahedra
(cut into tetrahedra) and tetrahedra-octahedra, as sets of cells.

Cells are those of :mod:`excover.tiling.grids` (``PRISM``, ``SPHERE``, ``RHOMBIC``,
``TETRAOCTA``); on all but the prism grid they are BurrTools' own voxel coordinates, so
:meth:`voxels` and :meth:`from_voxels` convert a pattern to and from the voxels of a
BurrTools shape only on the prism grid. :func:`rhombic_dodecahedron` gives the 48 cells of
the rhombic dodecahedron centred on a cube.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product
from typing import Self

import numpy as np

from excover.errors import UsageError
from excover.formats.burrtools.lattice import from_prism_strips, prism_strips
from excover.tiling.grids import PRISM, RHOMBIC, SPHERE, TETRAOCTA, Coords
from excover.tiling.polyform import Cell, _CellSet

__all__ = [
    "PrismPattern",
    "RhombicPattern",
    "SpherePattern",
    "TetraOctaPattern",
    "rhombic_dodecahedron",
]


class _SolidPattern(_CellSet):
    """A set of cells of one of BurrTools' solid grids."""

    __slots__ = ()
    #: BurrTools' number of the grid (``<gridType type="N"/>``).
    burrtools_grid: int

    def _check(self, cell: Cell) -> None:
        if not self.grid.is_cell(cell):
            raise UsageError(f"{cell} is not a cell of the {self.grid.name} grid")

    def voxels(self) -> list[tuple[int, int, int]]:
        """The cells as BurrTools' voxels ``(x, y, z)``, sorted."""
        return sorted((x, y, z) for x, y, z in self.coords().tolist())

    @classmethod
    def from_voxels(cls, voxels: Iterable[Sequence[int]]) -> Self:
        """The pattern of BurrTools' voxels ``(x, y, z)`` of this grid."""
        return cls(voxels)


class PrismPattern(_SolidPattern):
    """A finite set of triangular prisms ``(a, b, c, z)``: the triangle ``(a, b, c)`` of
    the triangular grid (``a + b + c`` in {1, 2}) in layer ``z``."""

    grid = PRISM
    burrtools_grid = 1
    __slots__ = ()

    def voxels(self) -> list[tuple[int, int, int]]:
        """The prisms as BurrTools' voxels ``(x, y, z)`` (see
        :func:`excover.formats.burrtools.lattice.prism_strips`), sorted."""
        if not self:
            return []
        return sorted((x, y, z) for x, y, z in from_prism_strips(self.coords()).tolist())

    @classmethod
    def from_voxels(cls, voxels: Iterable[Sequence[int]]) -> Self:
        """The prisms at BurrTools' voxels ``(x, y, z)``."""
        listed = np.array([tuple(v) for v in voxels], dtype=np.int64).reshape(-1, 3)
        return cls(prism_strips(listed).tolist())


class SpherePattern(_SolidPattern):
    """A finite set of spheres ``(x, y, z)``, ``x + y + z`` even, of the face-centred cubic
    packing."""

    grid = SPHERE
    burrtools_grid = 2
    __slots__ = ()


class RhombicPattern(_SolidPattern):
    """A finite set of the tetrahedra of BurrTools' rhombic grid (see
    :mod:`excover.formats.burrtools.lattice`); unions of :func:`rhombic_dodecahedron`
    make polyrhombic dodecahedra."""

    grid = RHOMBIC
    burrtools_grid = 3
    __slots__ = ()


class TetraOctaPattern(_SolidPattern):
    """A finite set of the tetrahedra of BurrTools' tetrahedra-octahedra grid."""

    grid = TETRAOCTA
    burrtools_grid = 4
    __slots__ = ()


def _block_cells(cube: Sequence[int]) -> Coords:
    """The 24 cells of the rhombic grid in one cube (a 5x5x5 block)."""
    block = np.array(list(product(range(5), repeat=3)), dtype=np.int64)
    cells: Coords = block[RHOMBIC.lattice.is_cell(block)] if RHOMBIC.lattice else block
    return cells + 5 * np.array(cube, dtype=np.int64)


def rhombic_dodecahedron(cube: Sequence[int]) -> list[tuple[int, int, int]]:
    """The 48 cells of the rhombic dodecahedron centred on the cube ``cube`` (block
    coordinates): the cube's 24 tetrahedra and, in each of its six neighbours, the 4 on
    the face they share."""
    x, y, z = (int(v) for v in cube)
    cells = [tuple(c) for c in _block_cells((x, y, z)).tolist()]
    for axis, side in product(range(3), (-1, 1)):
        neighbour = [x, y, z]
        neighbour[axis] += side
        face = 4 if side < 0 else 0  # the neighbour's face towards the centre
        cells += [tuple(c) for c in _block_cells(neighbour).tolist() if c[axis] % 5 == face]
    return sorted((a, b, c) for a, b, c in cells)
