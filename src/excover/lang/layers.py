"""The layers of 3D patterns on BurrTools' solid grids: which cell of each grid a cell of a
layer stands for, and back.

The ``.cmb`` language (``pattern3 NAME = GRID [layer, ...]``) and the studio draw a solid
pattern as its layers, bottom (``z = 0``) first. A layer is a 2D pattern; its cell ``(x,
y)`` (x from the left, y from the layer's bottom row) stands for

- **prism**: a layer is a triangle pattern; its triangle ``(a, b, c)`` is the prism
  ``(a, b, c, z)``;
- **sphere**: the sphere ``(x, y, z)`` of the face-centred cubic packing: the spheres of
  a layer sit on one colour of a checkerboard (each touching four diagonally), those of
  the next layer on the other colour, in the hollows between them. ``x + y + z`` is even
  for every cell, or odd for every cell (the pattern is then moved by one column, onto
  the grid's cells);
- **rhombic**: the rhombic dodecahedron centred on the cube ``(x, y, z)`` (48 cells of
  the rhombic grid), the cubes on a checkerboard as the spheres are, so that two
  dodecahedra share a face where two spheres touch: the polyrhombic dodecahedra;
- **tetraocta**: the voxel ``(x, y, z)`` of BurrTools' tetrahedra-octahedra grid, which
  must be one of its cells (:mod:`excover.formats.burrtools.lattice`).

:func:`solid_pattern` makes the pattern of layers; :func:`solid_layers` gives the layers
of a pattern back (a rhombic pattern must then be made of whole dodecahedra).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from excover.errors import UsageError
from excover.tiling.grids import GRIDS, TETRAOCTA, Coords
from excover.tiling.polyform import Cell
from excover.tiling.solids import (
    PrismPattern,
    RhombicPattern,
    SpherePattern,
    TetraOctaPattern,
    rhombic_dodecahedron,
)
from excover.tiling.tile import Shape

__all__ = ["LAYERED_GRIDS", "LayerError", "layer_grid", "solid_layers", "solid_pattern"]

#: BurrTools' solid grids other than the cube, whose patterns are drawn as layers here.
LAYERED_GRIDS = ("prism", "sphere", "rhombic", "tetraocta")

_PATTERNS: dict[str, type[PrismPattern | SpherePattern | RhombicPattern | TetraOctaPattern]] = {
    "prism": PrismPattern,
    "sphere": SpherePattern,
    "rhombic": RhombicPattern,
    "tetraocta": TetraOctaPattern,
}

#: How many of a grid's cells one cell of a layer makes (a rhombic dodecahedron is 48).
CELLS_PER_SPOT = {"prism": 1, "sphere": 1, "rhombic": 48, "tetraocta": 1}


class LayerError(UsageError):
    """A cell of a layer that stands for no cell of its grid; ``layer`` is the layer's
    number from 0 (the bottom)."""

    def __init__(self, layer: int, message: str) -> None:
        super().__init__(message)
        self.layer = layer


def layer_grid(grid: str) -> str:
    """The grid of the layers of a pattern of ``grid``: triangles for prisms, else
    squares."""
    return "triangle" if grid == "prism" else "square"


def solid_pattern(grid: str, layers: Sequence[Iterable[Cell]]) -> Shape:
    """The pattern of ``grid`` whose layers, bottom first, hold the given cells (``(x,
    y)`` on squares, ``(a, b, c)`` on triangles); a cell that stands for no cell of the
    grid is a :class:`LayerError` naming it."""
    if grid not in _PATTERNS:
        raise UsageError(f"unknown grid {grid!r}; choose one of {', '.join(LAYERED_GRIDS)}")
    cells: list[Cell] = []
    parity: int | None = None
    for z, layer in enumerate(layers):
        for spot in sorted(layer):
            if grid == "prism":
                cells.append((*spot, z))
                continue
            x, y = spot
            if grid in ("sphere", "rhombic"):
                parity = (x + y + z) % 2 if parity is None else parity
                if (x + y + z) % 2 != parity:
                    what = "sphere" if grid == "sphere" else "rhombic dodecahedron"
                    raise LayerError(
                        z,
                        f"the {what} at x={x}, y={y} of layer {z + 1} is off the packing of "
                        "the cells before it: x + y + z must be all even or all odd (x from "
                        "the left, y from the layer's bottom row, z from 0)",
                    )
                x += parity  # the odd packing moved onto the even one
            elif grid == "tetraocta" and not TETRAOCTA.is_cell((x, y, z)):
                raise LayerError(
                    z, f"voxel x={x}, y={y} of layer {z + 1} is not a cell of the tetraocta grid"
                )
            if grid == "rhombic":
                cells.extend(rhombic_dodecahedron((x, y, z)))
            else:
                cells.append((x, y, z))
    return _PATTERNS[grid](cells)


def solid_layers(shape: Shape) -> list[list[Cell]]:
    """The layers of a pattern of a layered grid, bottom first, the lowest being ``z =
    0``: the inverse of :func:`solid_pattern` up to a translation (squares from ``x = 0``
    and ``y = 0``). A rhombic pattern that is no union of whole dodecahedra is a
    UsageError."""
    grid = shape.grid.name
    if grid not in _PATTERNS:
        raise UsageError(f"a {grid} pattern is not drawn in layers of a solid grid")
    coords = shape.coords()
    if len(coords) == 0:
        return []
    if grid == "prism":
        low = int(coords[:, 3].min())
        layers: list[list[Cell]] = [[] for _ in range(int(coords[:, 3].max()) - low + 1)]
        for a, b, c, z in coords.tolist():
            layers[z - low].append((a, b, c))
        return layers
    if grid == "rhombic":
        coords = np.array(_centres(shape), dtype=np.int64)
    moved = coords - GRIDS[grid].shift(coords) if grid == "tetraocta" else _lowest(coords)
    layers = [[] for _ in range(int(moved[:, 2].max()) + 1)]
    for x, y, z in moved.tolist():
        layers[z].append((x, y))
    return layers


def _lowest(coords: Coords) -> Coords:
    """Points moved to ``x = 0``, ``y = 0`` and ``z = 0`` (on the packings, their
    coordinate sums then all even or all odd, as the layers may draw them)."""
    moved: Coords = coords - coords.min(axis=0)
    return moved


def _centres(shape: Shape) -> list[tuple[int, int, int]]:
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
