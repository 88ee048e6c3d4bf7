"""The closed surface of a set of cells, as triangles: the geometry behind STL export.

Every cell is a convex solid whose corners have integer names (*keys*): a cube of the
cubic grid is a box of lattice points; a square, hexagon or triangle of a planar grid is
extruded into a prism one cell high; the cells of BurrTools' other solid grids (triangular
prisms, balls, the tetrahedra of the rhombic and tetrahedra-octahedra grids) are the solids
of :mod:`excover.tiling.geometry`. A face shared by two cells of the set lies inside the
solid and is dropped; the others make its surface. Balls touch their neighbours at a
single point, so a piece of balls is a set of closed bodies, one a ball.

Corners with the same key are one point, but not always one vertex of the surface. Two
cubes of a polycube may meet only along an edge (or a vertex), and two triangles of a
polyiamond only at a vertex: four faces then meet along one edge, which no 2-manifold
allows. So vertices are not merged by position. Each corner of each face is a *handle*;
across an edge that two faces share, their handles at its ends are joined, and across an
edge where four (or six) faces meet, each face is joined to the face that closes the same
wedge of solid around the edge (found by sorting the faces by their angle about it). The
classes of joined handles are the vertices: one point may be two vertices, one per sheet of
surface through it, and every edge of the result belongs to exactly two triangles.

A *gap* moves every face inward by ``gap / 2`` (two pieces so shrunk stand ``gap`` apart):
on the cubic grid each cell is cut into 3 x 3 x 3 boxes and the boxes within ``gap / 2`` of
the outside are left out (the solid eroded by a cube), which works at every kind of
corner; a prism's vertical faces move inward in the plane, each vertex to where the planes
of its faces meet (its height is kept). BurrTools' other solid grids take no gap yet.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

import numpy as np
import numpy.typing as npt

from excover.errors import UsageError
from excover.tiling.geometry import Face, FloatArray, Key, box_faces, unit_normal
from excover.tiling.grids import Coords, Grid

__all__ = ["Surface", "surface"]


@dataclass(frozen=True)
class Surface:
    """A closed triangulated surface: ``vertices`` (n x 3) and ``triangles`` (m x 3
    vertex numbers, counterclockwise seen from outside)."""

    vertices: FloatArray
    triangles: npt.NDArray[np.int64]


def surface(cells: Coords, grid: Grid, cell_size: float, gap: float = 0.0) -> Surface:
    """The surface of the solid made of ``cells`` (distinct cells of ``grid``), each cell
    ``cell_size`` across (cube side, prism height and polygon edge), every face moved
    ``gap / 2`` inward."""
    inset = gap / 2
    solid = grid.traits.solid
    if solid is not None and solid.boxes:
        faces, position = _boxes(cells, cell_size, inset)
        return _assemble(faces, position, None)
    if solid is not None:
        if gap > 0:
            raise UsageError(f"a gap between pieces is not made on the {grid.name} grid yet")
        faces = [face for cell in cells.tolist() for face in solid.faces(tuple(cell))]

        def placed(key: Key) -> FloatArray:
            result: FloatArray = solid.point(key) * cell_size
            return result

        return _assemble(faces, placed, None)
    faces, position = _prisms(cells, grid, cell_size)
    return _assemble(faces, position, inset if inset > 0 else None)


# ----- the cells as faces -----


def _boxes(
    cells: Coords, size: float, inset: float
) -> tuple[list[Face], Callable[[Key], FloatArray]]:
    """The faces of the cubes (with an inset, of the boxes of the eroded solid)."""
    present = {tuple(cell) for cell in cells.tolist()}
    cuts: tuple[float, ...]
    if inset == 0:
        boxes = sorted(present)
        cuts = (0.0,)
    else:  # along each axis a cell is cut at inset and size - inset into bands 0, 1, 2;
        # a box is kept when every cell that the bands it lies in touch is in the solid
        boxes = []
        cuts = (0.0, inset, size - inset)
        for cell in sorted(present):
            for spot in product((0, 1, 2), repeat=3):
                reach = [(0,) if o == 1 else (0, o - 1) for o in spot]  # cells the band touches
                if all(
                    tuple(c + s for c, s in zip(cell, step, strict=True)) in present
                    for step in product(*reach)
                ):
                    boxes.append(tuple(3 * c + o for c, o in zip(cell, spot, strict=True)))
    parts = len(cuts)

    def position(key: Key) -> FloatArray:
        return np.array([(m // parts) * size + cuts[m % parts] for m in key], dtype=float)

    faces = [face for box in boxes for face in box_faces(box)]
    return faces, position


def _prisms(
    cells: Coords, grid: Grid, size: float
) -> tuple[list[Face], Callable[[Key], FloatArray]]:
    """The faces of the planar cells extruded one cell high: the corners of each cell's
    outline (:class:`~excover.tiling.outlines.Outline`) at the bottom and the top."""
    outline = grid.traits.outline
    corners, placer = outline.corners, outline.placer
    if corners is None or placer is None:
        raise UsageError(f"the {grid.name} grid's cells are not drawn as prisms")
    polygons = [corners(cell) for cell in cells.tolist()]
    plane = placer(size)

    def position(key: Key) -> FloatArray:
        return np.array([*plane(key[:-1]), key[-1] * size])

    faces: list[Face] = []
    for polygon in polygons:
        points = [plane(corner) for corner in polygon]
        area = sum(
            p[0] * q[1] - q[0] * p[1] for p, q in zip(points, points[1:] + points[:1], strict=True)
        )
        if area < 0:
            polygon = polygon[::-1]
        faces.append(tuple((*corner, 1) for corner in polygon))
        faces.append(tuple((*corner, 0) for corner in polygon[::-1]))
        for p, q in zip(polygon, polygon[1:] + polygon[:1], strict=True):
            faces.append(((*p, 0), (*q, 0), (*q, 1), (*p, 1)))
    return faces, position


# ----- faces to a surface -----


def _assemble(
    cell_faces: list[Face], position: Callable[[Key], FloatArray], inset: float | None
) -> Surface:
    """The outer faces of the cells, their corners made into vertices (see the module
    notes), triangulated as fans; with ``inset``, prism vertices moved inward in the plane."""
    seen: dict[Face, int] = {}
    for face in cell_faces:
        name = tuple(sorted(face))
        seen[name] = seen.get(name, 0) + 1
    faces = [face for face in cell_faces if seen[tuple(sorted(face))] == 1]
    points = {key: position(key) for face in faces for key in face}
    normals = [unit_normal([points[key] for key in face]) for face in faces]

    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(handle: tuple[int, int]) -> tuple[int, int]:
        while parent.get(handle, handle) != handle:
            above = parent[handle]
            parent[handle] = parent.get(above, above)  # halve the path
            handle = above
        return handle

    def join(f: int, g: int, key: Key) -> None:
        a = find((f, faces[f].index(key)))
        b = find((g, faces[g].index(key)))
        if a != b:
            parent[a] = b

    edges: dict[tuple[Key, Key], list[int]] = {}
    for number, face in enumerate(faces):
        for start, end in zip(face, face[1:] + face[:1], strict=True):
            edges.setdefault((min(start, end), max(start, end)), []).append(number)
    for (start, end), around in edges.items():
        if len(around) == 2:
            pairs = [(around[0], around[1])]
        else:
            pairs = _wedges(start, end, around, faces, points, normals)
        for f, g in pairs:
            join(f, g, start)
            join(f, g, end)

    vertex: dict[tuple[int, int], int] = {}
    spots: list[FloatArray] = []
    normals_at: list[list[FloatArray]] = []
    triangles: list[tuple[int, int, int]] = []
    for number, face in enumerate(faces):
        corners = []
        for index, key in enumerate(face):
            root = find((number, index))
            if root not in vertex:
                vertex[root] = len(spots)
                spots.append(points[key])
                normals_at.append([])
            corners.append(vertex[root])
            normals_at[vertex[root]].append(normals[number])
        triangles.extend((corners[0], a, b) for a, b in itertools.pairwise(corners[1:]))
    vertices = np.array(spots, dtype=float)
    if inset is not None:
        for number, directions in enumerate(normals_at):
            vertices[number, :2] = _mitred(vertices[number, :2], directions, inset)
    return Surface(vertices, np.array(triangles, dtype=np.int64))


def _wedges(
    start: Key,
    end: Key,
    around: list[int],
    faces: list[Face],
    points: dict[Key, FloatArray],
    normals: list[FloatArray],
) -> list[tuple[int, int]]:
    """The faces meeting along one edge (more than two), paired by the wedges of solid
    they close: sorted by angle about the edge, each face with its neighbour on the side
    where the solid lies."""
    axis = points[end] - points[start]
    axis /= np.linalg.norm(axis)
    first = np.cross(axis, [1.0, 0.0, 0.0])
    if np.linalg.norm(first) < 0.5:
        first = np.cross(axis, [0.0, 1.0, 0.0])
    first /= np.linalg.norm(first)
    second = np.cross(axis, first)
    turns = []
    for f in around:
        face = faces[f]
        i = face.index(start)
        ahead = face[(i + 1) % len(face)] == end  # the face runs from start to end
        direction = axis if ahead else -axis
        inward = np.cross(normals[f], direction)  # into the face, away from the edge
        angle = math.atan2(float(inward @ second), float(inward @ first))
        solid_ahead = float(np.cross(axis, inward) @ -normals[f]) > 0
        turns.append((angle, f, solid_ahead))
    turns.sort()
    shift = next(i for i, turn in enumerate(turns) if turn[2])
    turns = turns[shift:] + turns[:shift]
    pairs = []
    for (_, f, solid_f), (_, g, solid_g) in zip(turns[::2], turns[1::2], strict=True):
        if not solid_f or solid_g:
            raise AssertionError(f"the faces about edge {start}-{end} do not close wedges")
        pairs.append((f, g))
    return pairs


def _mitred(point: FloatArray, normals: list[FloatArray], inset: float) -> FloatArray:
    """Where a prism vertex goes when the vertical faces through it move ``inset`` inward:
    the meeting point of their moved lines in the plane (a vertex inside the top or bottom
    face stays)."""
    sides: list[FloatArray] = []
    for normal in normals:
        flat = normal[:2]
        if abs(normal[2]) < 0.5 and not any(np.allclose(flat, side) for side in sides):
            sides.append(flat)
    if not sides:  # inside the top or bottom face
        return point
    if len(sides) == 1:
        return np.asarray(point - inset * sides[0], dtype=np.float64)
    if len(sides) != 2:
        raise AssertionError(f"a prism vertex with {len(sides)} side directions")
    matrix = np.array(sides)
    return np.asarray(np.linalg.solve(matrix, matrix @ point - inset), dtype=np.float64)
