"""The layers of 3D patterns on BurrTools' solid grids: which cell of each grid a cell of a
layer stands for, and back.

The ``.cmb`` language (``pattern3 NAME = GRID [layer, ...]``) and the studio draw a solid
pattern as its layers, bottom (``z = 0``) first. The layered grids are those whose traits
say so (``grid.traits.layered``: the solid grids but the cube, whose patterns are arrays of
square layers of their own); each grid's class of patterns reads and writes its layers
(:meth:`excover.tiling.solids.PrismPattern.from_layers` and ``layers``, which
:mod:`excover.tiling.solids` describes grid by grid).

:func:`solid_pattern` makes the pattern of layers; :func:`solid_layers` gives the layers
of a pattern back (a rhombic pattern must then be made of whole dodecahedra).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from excover.errors import UsageError
from excover.tiling.grids import GRIDS, Grid, grid_names
from excover.tiling.polyform import Cell
from excover.tiling.solids import LayerError
from excover.tiling.tile import Shape

__all__ = ["LayerError", "layer_grid", "layered", "solid_layers", "solid_pattern"]


def __getattr__(name: str) -> tuple[str, ...]:
    """``LAYERED_GRIDS``: the names of the layered grids, read from the registry when
    asked (``grid.traits.layered`` says it of one grid)."""
    if name == "LAYERED_GRIDS":
        return tuple(grid_names(layered=True))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def layered(grid: str) -> Grid:
    """The layered grid called ``grid``; a UsageError naming the layered grids when there
    is none."""
    found = GRIDS.get(grid)
    if found is None or not found.traits.layered:
        raise UsageError(
            f"unknown grid {grid!r}; choose one of {', '.join(grid_names(layered=True))}"
        )
    return found


def layer_grid(grid: str) -> str:
    """The name of the grid of the layers of a pattern of ``grid``: triangles for
    prisms, squares for the cube and the other solid grids."""
    return GRIDS[grid].layer_grid.name


def solid_pattern(grid: str, layers: Sequence[Iterable[Cell]]) -> Shape:
    """The pattern of ``grid`` whose layers, bottom first, hold the given cells (``(x,
    y)`` on squares, ``(a, b, c)`` on triangles); a cell that stands for no cell of the
    grid is a :class:`LayerError` naming it."""
    pattern: Any = layered(grid).pattern
    shape: Shape = pattern.from_layers(layers)
    return shape


def solid_layers(shape: Shape) -> list[list[Cell]]:
    """The layers of a pattern of a layered grid, bottom first, the lowest being ``z =
    0``: the inverse of :func:`solid_pattern` up to a translation (squares from ``x = 0``
    and ``y = 0``). A rhombic pattern that is no union of whole dodecahedra is a
    UsageError."""
    if not shape.grid.traits.layered:
        raise UsageError(f"a {shape.grid.name} pattern is not drawn in layers of a solid grid")
    drawn: Any = shape
    layers: list[list[Cell]] = drawn.layers()
    return layers
