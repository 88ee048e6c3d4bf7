"""The plane geometry of the hexagonal and triangular grids: where their cells are.

The grids (:mod:`excover.tiling.grids`) and the drawings of their cells
(:mod:`excover.tiling.outlines`, :mod:`excover.tiling.geometry`) read these constants;
:mod:`excover.tiling.grids` offers them under its own name too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = [
    "HEX_BASIS",
    "TRIANGLE_NORMALS",
    "TRIANGLE_SIDE",
    "TRIANGLE_TO_PLANE",
    "triangle_cell",
    "triangle_corners",
    "triangle_spot",
]

_SQRT3 = math.sqrt(3.0)

#: Plane positions (columns) of the axial unit vectors q and r of the hexagonal grid, for
#: hexagons of circumradius 1.
HEX_BASIS = np.array([[_SQRT3, _SQRT3 / 2], [0.0, 1.5]])

#: Unit normals (rows) of the three families of strips of the triangular grid: a point p of
#: the plane lies in the cell whose coordinates are the ceilings of ``TRIANGLE_NORMALS @ p``
#: when the strips have width 1 (triangles of height 1).
TRIANGLE_NORMALS = np.array([[0.0, 1.0], [-_SQRT3 / 2, -0.5], [_SQRT3 / 2, -0.5]])

#: The point of the plane at a corner of the strips ``(a, b, c)`` (triangles of height 1).
TRIANGLE_TO_PLANE = np.linalg.pinv(TRIANGLE_NORMALS)

#: The side of a triangle whose height is 1 (the strips of the grid have width 1).
TRIANGLE_SIDE = 2 / math.sqrt(3)


def triangle_corners(a: int, b: int, c: int) -> list[tuple[int, int, int]]:
    """The three corners of the triangle ``(a, b, c)``, as the strips that meet there."""
    if a + b + c == 1:
        return [(a - 1, b, c), (a, b - 1, c), (a, b, c - 1)]
    return [(a - 1, b - 1, c), (a - 1, b, c - 1), (a, b - 1, c - 1)]


def triangle_cell(x: int, y: int) -> tuple[int, ...]:
    """The triangle drawn at column ``x`` of row ``y`` (from the bottom) of a triangle
    drawing, where ``(0, 0)`` points down once drawn (see :mod:`excover.tiling.grids`)."""
    even = (x + y) % 2 == 0
    centre = np.array([x * TRIANGLE_SIDE / 2, y + (1 / 3 if even else 2 / 3)])
    return tuple(int(v) for v in np.ceil(TRIANGLE_NORMALS @ centre))


def triangle_spot(cell: Sequence[int]) -> tuple[int, int]:
    """The column and row of a triangle in a drawing: the inverse of :func:`triangle_cell`."""
    a, b, c = (int(v) for v in cell)
    corners = triangle_corners(a, b, c)
    plane = TRIANGLE_TO_PLANE @ np.array(corners, dtype=float).T
    centre_x, centre_y = plane.mean(axis=1)
    return round(centre_x / (TRIANGLE_SIDE / 2)), math.floor(centre_y)
