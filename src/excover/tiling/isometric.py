"""Isometric pictures of cubic patterns and tilings, as SVG (those of the other solid grids
are drawn by :mod:`excover.tiling.solidview`, in the same view).

The viewer looks down from the front right, along ``(-1, 1, -1)`` (x to the right, y away,
z up): of each cube it may see the top (+z), the front (-y) and the right side (+x), shaded
light, dark and between. A face is drawn when the cell beyond it is empty (faces between
two cells are inside the solid); the cubes are drawn far to near, in the order of
``x - y + z`` (two cubes with the same sum never overlap on the picture), so nearer faces
paint over hidden ones (the painter's algorithm). A dark line runs along a face's edge
unless the face goes on, flat, into the same piece, so each piece's outline and creases
show and equal pieces that touch stay apart.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from excover.errors import UsageError
from excover.tiling.colours import shade, tile_colour
from excover.tiling.grids import Grid, grid_names
from excover.tiling.solidview import face_svg, solid_svg

if TYPE_CHECKING:
    from excover.tiling.tile import Shape
    from excover.tiling.tiling import TilingSolution

__all__ = ["isometric_grid", "pattern_isometric_svg", "solution_isometric_svg"]

Cell = tuple[int, int, int]

#: The faces a viewer sees, as outward normals, with how much each is lit (see
#: :func:`~excover.tiling.colours.shade`): top, right side, front.
_FACES: tuple[tuple[Cell, float], ...] = (
    ((0, 0, 1), 0.3),
    ((1, 0, 0), -0.12),
    ((0, -1, 0), -0.32),
)

_COS30 = math.cos(math.radians(30))


def solution_isometric_svg(
    solution: TilingSolution, cell_size: float = 24.0, *, each_piece: bool = True
) -> str:
    """An isometric picture of a tiling of a solid grid: each placement in its own colour
    (with ``each_piece`` False, one colour per tile, as the layer view draws them), its
    faces shaded by their direction, dark lines along the pieces' edges."""
    tiling = solution.tiling
    if not _boxes(tiling.grid):
        number = {id(tile): k for k, tile in enumerate(tiling.tiles)}
        pieces = [p.cells for p in solution.placements]
        colours = [
            tile_colour(i if each_piece else number[id(p.tile)])
            for i, p in enumerate(solution.placements)
        ]
        return solid_svg(isometric_grid(tiling.grid), pieces, colours, cell_size)
    number_of = {id(tile): number for number, tile in enumerate(tiling.tiles)}
    owners: dict[Cell, int] = {}
    fills: list[str] = []
    for index, placement in enumerate(solution.placements):
        fills.append(tile_colour(index if each_piece else number_of[id(placement.tile)]))
        for cell in placement.cells:
            x, y, z = cell
            owners[x, y, z] = index
    return _draw(owners, fills, cell_size)


def pattern_isometric_svg(pattern: Shape, cell_size: float = 24.0, fill: str = "#c8ccd4") -> str:
    """An isometric picture of a pattern of a solid grid, in grey (or ``fill``)."""
    if not _boxes(pattern.grid):
        return solid_svg(
            isometric_grid(pattern.grid), [pattern.coords().tolist()], [fill], cell_size
        )
    owners = {(x, y, z): 0 for x, y, z in pattern.coords().tolist()}
    return _draw(owners, [fill], cell_size)


def isometric_grid(grid: Grid) -> Grid:
    """``grid``, checked to be one of the solid grids."""
    if not grid.solid:
        raise UsageError(
            f"an isometric view is drawn of a solid grid ({', '.join(grid_names(solid=True))}), "
            f"not the {grid.name}"
        )
    return grid


def _boxes(grid: Grid) -> bool:
    """Whether the cells of ``grid`` are the lattice's boxes (the cube's), which this module
    draws itself; other solid grids are drawn by :mod:`excover.tiling.solidview`."""
    solid = isometric_grid(grid).traits.solid
    return solid is not None and solid.boxes


def _draw(owners: dict[Cell, int], fills: list[str], size: float) -> str:
    """The SVG document: one polygon per seen face, far to near, each followed by the path
    of its dark edges."""
    shapes: list[tuple[list[tuple[float, float]], str, list[tuple[int, int]]]] = []
    for cell in sorted(owners, key=lambda c: (c[0] - c[1] + c[2], c)):
        owner = owners[cell]
        for normal, light in _FACES:
            if _plus(cell, normal) in owners:
                continue
            corners, lines = _face(cell, normal, owner, owners)
            shapes.append(([_project(p) for p in corners], shade(fills[owner], light), lines))
    points = [p for corners, _, _ in shapes for p in corners]
    if not points:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>'
    margin = 0.25
    left = min(p[0] for p in points) - margin
    top = max(p[1] for p in points) + margin
    width = (max(p[0] for p in points) + margin - left) * size
    height = (top - min(p[1] for p in points) + margin) * size

    def at(point: tuple[float, float]) -> str:
        return f"{(point[0] - left) * size:.2f},{(top - point[1]) * size:.2f}"

    stroke = max(1.2, size / 16)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f'<rect width="{width:.2f}" height="{height:.2f}" fill="white"/>',
    ]
    for outline, fill, lines in shapes:
        out += face_svg(outline, fill, lines, at, stroke)
    out.append("</svg>")
    return "\n".join(out)


def _face(
    cell: Cell, normal: Cell, owner: int, owners: dict[Cell, int]
) -> tuple[list[tuple[float, float, float]], list[tuple[int, int]]]:
    """The corners of a cube's face, and its edges (pairs of corner numbers) that get a
    dark line: those across which the face does not go on, flat, in the same piece."""
    axis = next(k for k in range(3) if normal[k])
    j, k = (axis + 1) % 3, (axis + 2) % 3
    base = [float(v) for v in cell]
    base[axis] += max(normal[axis], 0)
    square = ((0, 0), (1, 0), (1, 1), (0, 1))
    corners = []
    for dj, dk in square:
        corner = list(base)
        corner[j] += dj
        corner[k] += dk
        corners.append((corner[0], corner[1], corner[2]))
    lines = []
    for number, ((aj, ak), (bj, _)) in enumerate(zip(square, square[1:] + square[:1], strict=True)):
        step = [0, 0, 0]  # across the edge, away from the face
        if aj == bj:
            step[j] = 1 if aj else -1
        else:
            step[k] = 1 if ak else -1
        beyond = _plus(cell, (step[0], step[1], step[2]))
        goes_on = owners.get(beyond) == owner and _plus(beyond, normal) not in owners
        if not goes_on:
            lines.append((number, (number + 1) % 4))
    return corners, lines


def _plus(cell: Cell, step: Cell) -> Cell:
    return (cell[0] + step[0], cell[1] + step[1], cell[2] + step[2])


def _project(point: tuple[float, float, float]) -> tuple[float, float]:
    """The point on the picture (y up), one unit per cube edge."""
    x, y, z = point
    return ((x + y) * _COS30, z + (y - x) / 2)
