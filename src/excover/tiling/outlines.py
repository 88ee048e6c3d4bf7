"""How the cells of a grid are drawn in the plane: the :class:`Outline` each grid carries.

A planar grid's cell is a polygon (a square, a hexagon, a triangle); a solid grid's cell
is drawn in its layer, the layers side by side (bottom on the left), by its *footprint*:
a cube as a square, a triangular prism as its triangle, a ball as a circle around its
centre, a cell of the rhombic or tetrahedra-octahedra grid as a square at its voxel of
BurrTools' layers, as BurrTools' editor shows them. The same outline gives a cell's spot
in ASCII art (its column and row) and, on a planar grid, the prism one cell high that an
STL file makes of it. :mod:`excover.tiling.render`, :mod:`excover.tiling.surface` and the
``.cmb`` language's drawings (:mod:`excover.lang.evaluate`) read these; the grids
(:mod:`excover.tiling.grids`) hold one each.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from excover.tiling.plane import HEX_BASIS, TRIANGLE_SIDE, TRIANGLE_TO_PLANE, triangle_corners
from excover.tiling.plane import triangle_spot as _triangle_spot

__all__ = [
    "BALL",
    "CUBE_LAYERS",
    "HEXAGON",
    "PRISM_TRIANGLE",
    "SQUARE",
    "TRIANGLE",
    "VOXEL_SQUARE",
    "Outline",
    "Point",
]

Point = tuple[float, float]
Key = tuple[int, ...]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Outline:
    """How one grid's cells are drawn in the plane.

    - ``polygon(cell, dx)``: the cell's outline (y upward, one unit a square's side), on
      a solid grid its footprint in its layer, moved ``dx`` to the right (0 by default);
    - ``spot(cell)``: its column and row in ASCII art (on a solid grid, in its layer);
    - ``hole``: the character of a spot between cells in a drawing of cells (the blank
      of staggered hexagons, the ``.`` of triangles);
    - ``alternating``: spots alternate in kind along a row (triangles pointing up and
      down), so a drawing starts on a column of the right parity;
    - ``layers``: how a solid grid's layers stand side by side: ``"columns"`` one board
      width apart from x = 0 (the cube's, as combine draws its layers: the widest column
      and a gap), ``"extent"`` by the drawn extent of the footprints and a gap; None on a
      planar grid, whose cells are drawn where they are;
    - ``corners(cell)`` and ``placer(size)``: a planar cell's corners as integer keys
      (two cells name a shared corner alike) and, for cells ``size`` across, the function
      that says where a key is in the plane: the prism one cell high of
      :mod:`excover.tiling.surface` (None on solid grids, whose solids are
      :class:`excover.tiling.geometry.Solid`).
    """

    polygon: Callable[..., list[Point]]
    spot: Callable[[Sequence[int]], tuple[int, int]]
    hole: str = "."
    alternating: bool = False
    layers: Literal["columns", "extent"] | None = None
    corners: Callable[[Sequence[int]], list[Key]] | None = None
    placer: Callable[[float], Callable[[Key], FloatArray]] | None = None

    def layer(self, cell: Sequence[int]) -> int:
        """The layer of a cell of a solid grid (its last coordinate)."""
        return int(cell[-1])


def _square_polygon(cell: Sequence[int], dx: float = 0.0) -> list[Point]:
    x, y = float(cell[0]) + dx, float(cell[1])
    return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


def _square_spot(cell: Sequence[int]) -> tuple[int, int]:
    return int(cell[0]), int(cell[1])


def _square_corners(cell: Sequence[int]) -> list[Key]:
    x, y = int(cell[0]), int(cell[1])
    return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


def _square_placer(size: float) -> Callable[[Key], FloatArray]:
    def place(key: Key) -> FloatArray:
        return np.array(key, dtype=float) * size

    return place


#: Corner k of a hexagon of circumradius 1, at 30 + 60 k degrees.
_HEX_CORNERS = [
    (math.cos(math.radians(30 + 60 * k)), math.sin(math.radians(30 + 60 * k))) for k in range(6)
]
#: Axial steps to the six neighbours of a hexagon, in counterclockwise order from the
#: right; corner k of a hexagon (at 30 + 60 k degrees) is the centroid of the hexagon and
#: its neighbours k and k + 1 (keys are three times axial coordinates).
_HEX_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _hex_polygon(cell: Sequence[int], dx: float = 0.0) -> list[Point]:
    cx, cy = (HEX_BASIS @ np.array([cell[0], cell[1]], dtype=float)).tolist()
    cx += dx
    return [(cx + x, cy + y) for x, y in _HEX_CORNERS]


def _hex_spot(cell: Sequence[int]) -> tuple[int, int]:
    q, r = int(cell[0]), int(cell[1])
    return 2 * q + r, r


def _hex_corners(cell: Sequence[int]) -> list[Key]:
    q, r = int(cell[0]), int(cell[1])
    return [
        (3 * q + a[0] + b[0], 3 * r + a[1] + b[1])
        for a, b in zip(_HEX_STEPS, _HEX_STEPS[1:] + _HEX_STEPS[:1], strict=True)
    ]


def _hex_placer(size: float) -> Callable[[Key], FloatArray]:
    scale = size / 3

    def place(key: Key) -> FloatArray:
        result: FloatArray = HEX_BASIS @ np.array(key, dtype=float) * scale
        return result

    return place


def _triangle_polygon(cell: Sequence[int], dx: float = 0.0) -> list[Point]:
    a, b, c = cell[0], cell[1], cell[2]
    if a + b + c == 1:
        corners = ((a - 1, b, c), (a, b - 1, c), (a, b, c - 1))
    else:
        corners = ((a - 1, b - 1, c), (a - 1, b, c - 1), (a, b - 1, c - 1))
    to_plane = TRIANGLE_TO_PLANE
    points = [tuple((to_plane @ np.array(v, dtype=float)).tolist()) for v in corners]
    return [(x + dx, y) for x, y in points] if dx else points


def _triangle_spot3(cell: Sequence[int]) -> tuple[int, int]:
    return _triangle_spot(cell[:3])


def _triangle_corners(cell: Sequence[int]) -> list[Key]:
    a, b, c = (int(v) for v in cell[:3])
    return list(triangle_corners(a, b, c))


def _triangle_placer(size: float) -> Callable[[Key], FloatArray]:
    to_plane = TRIANGLE_TO_PLANE * (size / TRIANGLE_SIDE)

    def place(key: Key) -> FloatArray:
        result: FloatArray = to_plane @ np.array(key, dtype=float)
        return result

    return place


#: A ball's outline: a polygon of this many sides.
_BALL_SIDES = 24
_BALL_RADIUS = math.sqrt(2) / 2  # balls touch along the layer's diagonals


def _ball_polygon(cell: Sequence[int], dx: float = 0.0) -> list[Point]:
    x, y = int(cell[0]) + dx, int(cell[1])
    return [
        (
            x + _BALL_RADIUS * math.cos(2 * math.pi * k / _BALL_SIDES),
            y + _BALL_RADIUS * math.sin(2 * math.pi * k / _BALL_SIDES),
        )
        for k in range(_BALL_SIDES)
    ]


#: The square grid's cells: unit squares.
SQUARE = Outline(_square_polygon, _square_spot, corners=_square_corners, placer=_square_placer)
#: The hexagonal grid's pointy-top hexagons, staggered half a column a row in ASCII art.
HEXAGON = Outline(_hex_polygon, _hex_spot, hole=" ", corners=_hex_corners, placer=_hex_placer)
#: The triangular grid's triangles, of height 1.
TRIANGLE = Outline(
    _triangle_polygon,
    _triangle_spot3,
    alternating=True,
    corners=_triangle_corners,
    placer=_triangle_placer,
)
#: The cube's layers: squares, one board width apart.
CUBE_LAYERS = Outline(_square_polygon, _square_spot, layers="columns")
#: A prism's layer: its triangle.
PRISM_TRIANGLE = Outline(_triangle_polygon, _triangle_spot3, alternating=True, layers="extent")
#: A ball of the face-centred cubic packing: a circle around its centre in its layer.
BALL = Outline(_ball_polygon, _square_spot, layers="extent")
#: A cell of the rhombic or tetrahedra-octahedra grid: a square at its voxel.
VOXEL_SQUARE = Outline(_square_polygon, _square_spot, layers="extent")
