"""Patterns of BurrTools' solid grids: triangular prisms, spheres, rhombic dodecahedra
(cut into tetrahedra) and tetrahedra-octahedra, as sets of cells.

Cells are those of :mod:`excover.tiling.grids` (``PRISM``, ``SPHERE``, ``RHOMBIC``,
``TETRAOCTA``); on all but the prism grid they are BurrTools' own voxel coordinates, so
:meth:`voxels` and :meth:`from_voxels` convert a pattern to and from the voxels of a
BurrTools shape only on the prism grid. :func:`rhombic_dodecahedron` gives the 48 cells of
the rhombic dodecahedron centred on a cube.

A pattern of these grids is written as its layers, bottom (``z = 0``) first
(:meth:`~_SolidPattern.from_layers`, :meth:`~_SolidPattern.layers`): the ``.cmb`` language
(``pattern3 NAME = GRID [layer, ...]``, :mod:`excover.lang.layers`) and the studio draw
it so. A layer is a 2D pattern of the grid's layer grid (``grid.traits.layer``); its cell
``(x, y)`` (x from the left, y from the layer's bottom row) stands for

- **prism**: a layer is a triangle pattern; its triangle ``(a, b, c)`` is the prism
  ``(a, b, c, z)``;
- **sphere**: the sphere ``(x, y, z)`` of the face-centred cubic packing: the spheres of
  a layer sit on one colour of a checkerboard (each touching four diagonally), those of
  the next layer on the other colour, in the hollows between them (``traits.packed``).
  ``x + y + z`` is even for every cell, or odd for every cell (the pattern is then moved
  by one column, onto the grid's cells);
- **rhombic**: the rhombic dodecahedron centred on the cube ``(x, y, z)`` (48 cells of
  the rhombic grid), the cubes on a checkerboard as the spheres are, so that two
  dodecahedra share a face where two spheres touch: the polyrhombic dodecahedra;
- **tetraocta**: the voxel ``(x, y, z)`` of BurrTools' tetrahedra-octahedra grid, which
  must be one of its cells (:mod:`excover.burr.xmpuzzle.lattice`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product
from typing import Self

import numpy as np

from excover.burr.xmpuzzle.lattice import from_prism_strips, prism_strips
from excover.errors import UsageError
from excover.tiling.grids import PRISM, RHOMBIC, SPHERE, TETRAOCTA, Coords
from excover.tiling.polyform import Cell, _CellSet

__all__ = [
    "LayerError",
    "PrismPattern",
    "RhombicPattern",
    "SpherePattern",
    "TetraOctaPattern",
    "rhombic_dodecahedron",
]


class LayerError(UsageError):
    """A cell of a layer that stands for no cell of its grid; ``layer`` is the layer's
    number from 0 (the bottom)."""

    def __init__(self, layer: int, message: str) -> None:
        super().__init__(message)
        self.layer = layer


class _SolidPattern(_CellSet):
    """A set of cells of one of BurrTools' solid grids, written as its layers."""

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

    @classmethod
    def from_layers(cls, layers: Sequence[Iterable[Cell]]) -> Self:
        """The pattern whose layers, bottom first, hold the given cells (``(x, y)`` on
        squares, ``(a, b, c)`` on triangles); a cell that stands for no cell of the grid
        is a :class:`LayerError` naming it (see the module notes)."""
        traits = cls.grid.traits
        cells: list[Cell] = []
        parity: int | None = None
        for z, layer in enumerate(layers):
            for spot in sorted(layer):
                if traits.packed:
                    x, y = spot
                    parity = (x + y + z) % 2 if parity is None else parity
                    if (x + y + z) % 2 != parity:
                        raise LayerError(
                            z,
                            f"the {traits.spot_noun} at x={x}, y={y} of layer {z + 1} is off "
                            "the packing of the cells before it: x + y + z must be all even or "
                            "all odd (x from the left, y from the layer's bottom row, z from 0)",
                        )
                    spot = (x + parity, y)  # the odd packing moved onto the even one
                cells.extend(cls._spot_cells(tuple(spot), z))
        return cls(cells)

    @classmethod
    def _spot_cells(cls, spot: Cell, z: int) -> list[Cell]:
        """The cells that the cell ``spot`` of layer ``z`` stands for: ``(*spot, z)``."""
        return [(*spot, z)]

    def layers(self) -> list[list[Cell]]:
        """The layers of the pattern, bottom first, the lowest being ``z = 0``: the
        inverse of :meth:`from_layers` up to a translation (squares from ``x = 0`` and
        ``y = 0``). A rhombic pattern that is no union of whole dodecahedra is a
        UsageError."""
        coords = self.coords()
        if len(coords) == 0:
            return []
        moved = self._layer_spots(coords)
        layers: list[list[Cell]] = [[] for _ in range(int(moved[:, -1].max()) + 1)]
        for *spot, z in moved.tolist():
            layers[z].append(tuple(spot))
        return layers

    def _layer_spots(self, coords: Coords) -> Coords:
        """The spots of the layers, one row ``(*spot, z)`` each, moved to ``x = 0``,
        ``y = 0`` and ``z = 0`` (on the packings, their coordinate sums then all even or
        all odd, as the layers may draw them)."""
        moved: Coords = coords - coords.min(axis=0)
        return moved


class PrismPattern(_SolidPattern):
    """A finite set of triangular prisms ``(a, b, c, z)``: the triangle ``(a, b, c)`` of
    the triangular grid (``a + b + c`` in {1, 2}) in layer ``z``."""

    grid = PRISM
    burrtools_grid = 1
    __slots__ = ()

    def voxels(self) -> list[tuple[int, int, int]]:
        """The prisms as BurrTools' voxels ``(x, y, z)`` (see
        :func:`excover.burr.xmpuzzle.lattice.prism_strips`), sorted."""
        if not self:
            return []
        return sorted((x, y, z) for x, y, z in from_prism_strips(self.coords()).tolist())

    @classmethod
    def from_voxels(cls, voxels: Iterable[Sequence[int]]) -> Self:
        """The prisms at BurrTools' voxels ``(x, y, z)``."""
        listed = np.array([tuple(v) for v in voxels], dtype=np.int64).reshape(-1, 3)
        return cls(prism_strips(listed).tolist())

    def _layer_spots(self, coords: Coords) -> Coords:
        """The triangles where they are, the layers from ``z = 0``."""
        moved: Coords = coords.copy()
        moved[:, 3] -= coords[:, 3].min()
        return moved


class SpherePattern(_SolidPattern):
    """A finite set of spheres ``(x, y, z)``, ``x + y + z`` even, of the face-centred cubic
    packing."""

    grid = SPHERE
    burrtools_grid = 2
    __slots__ = ()


class RhombicPattern(_SolidPattern):
    """A finite set of the tetrahedra of BurrTools' rhombic grid (see
    :mod:`excover.burr.xmpuzzle.lattice`); unions of :func:`rhombic_dodecahedron`
    make polyrhombic dodecahedra."""

    grid = RHOMBIC
    burrtools_grid = 3
    __slots__ = ()

    @classmethod
    def _spot_cells(cls, spot: Cell, z: int) -> list[Cell]:
        """The 48 cells of the dodecahedron centred on the cube ``(*spot, z)``."""
        return list(rhombic_dodecahedron((*spot, z)))

    def _layer_spots(self, coords: Coords) -> Coords:
        """The cubes on which the dodecahedra are centred, from ``x = y = z = 0``."""
        return super()._layer_spots(np.array(_centres(self), dtype=np.int64))


class TetraOctaPattern(_SolidPattern):
    """A finite set of the tetrahedra of BurrTools' tetrahedra-octahedra grid."""

    grid = TETRAOCTA
    burrtools_grid = 4
    __slots__ = ()

    @classmethod
    def _spot_cells(cls, spot: Cell, z: int) -> list[Cell]:
        """The voxel ``(*spot, z)``, which must be a cell (a :class:`LayerError`)."""
        x, y = spot
        if not TETRAOCTA.is_cell((x, y, z)):
            raise LayerError(
                z, f"voxel x={x}, y={y} of layer {z + 1} is not a cell of the tetraocta grid"
            )
        return [(x, y, z)]

    def _layer_spots(self, coords: Coords) -> Coords:
        """The voxels moved by a translation of the grid, to its cells near the origin."""
        moved: Coords = coords - TETRAOCTA.shift(coords)
        return moved


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


def _centres(shape: RhombicPattern) -> list[tuple[int, int, int]]:
    """The cubes on which the rhombic dodecahedra of a rhombic pattern are centred, their
    coordinate sums all even (or all odd, then moved by one cube, a translation of the
    grid); a UsageError when the pattern is no union of whole dodecahedra."""
    cells = {tuple(cell) for cell in shape.coords().tolist()}
    blocks = {(x // 5, y // 5, z // 5) for x, y, z in cells}
    for parity in (0, 1):
        centres = sorted(
            block
            for block in blocks
            if sum(block) % 2 == parity and all(cell in cells for cell in _block(block))
        )
        covered = {cell for centre in centres for cell in rhombic_dodecahedron(centre)}
        if covered == cells:
            return [(x + parity, y, z) for x, y, z in centres]
    raise UsageError(
        "this rhombic pattern is not made of whole rhombic dodecahedra, so it has no layers "
        "of dodecahedra to draw"
    )


def _block(cube: tuple[int, int, int]) -> list[Cell]:
    """The 24 cells of the rhombic grid inside one cube."""
    return [tuple(cell) for cell in rhombic_dodecahedron(cube) if _inside(cell, cube)]


def _inside(cell: Sequence[int], cube: tuple[int, int, int]) -> bool:
    return all(5 * c <= v < 5 * c + 5 for v, c in zip(cell, cube, strict=True))
