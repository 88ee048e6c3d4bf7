"""Each cell of a solid grid as a solid in space: its faces, corners, centre and volume.

The pictures of solids (:mod:`excover.tiling.solidview`) and the STL meshes
(:mod:`excover.tiling.surface`) are drawn from this one description. A cell's faces are
polygons listed counterclockwise seen from outside, whose corners are integer *keys*:
two cells name a shared corner by the same key, so a face that two cells share has the
same keys in both (and lies inside the solid they make). :func:`point` turns a key into
a point of space, in these units:

- **cube**: cubes of side 1;
- **prism**: triangular prisms, triangles of side 1, one unit high (a key is a corner of
  the triangular grid's strips and a layer);
- **rhombic**: the cubes of BurrTools' 5x5x5 blocks have side 1; a key is twice a point
  (corners of the cube, centres of its faces and of itself are then integers), and a
  cell is the tetrahedron of the cube's centre, a face's centre and an edge of that face;
- **tetraocta**: the cubes of BurrTools' 3x3x3 blocks have side 1; a cell is the regular
  tetrahedron inside a cube or one of its four corner tetrahedra (a key is a corner);
- **sphere**: balls of diameter 1 (centres ``sqrt(2)/2`` voxel units apart along an axis,
  so that neighbours touch), approximated by a polyhedron: the surface of a cube cut into
  ``SPHERE_STEPS`` squares a side, each pushed out to the sphere, split into two
  triangles. Its corners towards the twelve neighbours (the middles of the cube's edges)
  are on the sphere, so two touching balls meet at a corner. A key is the cell followed by
  a point of that cube's surface: balls share no keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise, product
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from excover.errors import UsageError
from excover.tiling.plane import TRIANGLE_SIDE, TRIANGLE_TO_PLANE, triangle_corners
from excover.tiling.registry import grid_names

if TYPE_CHECKING:
    from excover.tiling.grids import Grid

__all__ = [
    "BALLS",
    "CUBES",
    "PRISMS",
    "RHOMBIC_TETRAHEDRA",
    "SPHERE_STEPS",
    "TETRA_OCTA",
    "Face",
    "FloatArray",
    "Key",
    "Solid",
    "box_faces",
    "cell_centres",
    "cell_faces",
    "cell_volume",
    "point",
    "solid_of",
    "unit_normal",
]

Key = tuple[int, ...]
Face = tuple[Key, ...]
FloatArray = npt.NDArray[np.float64]

#: Squares along each edge of the cube whose surface, pushed out, approximates a ball
#: (even, so that the middles of the cube's edges are corners).
SPHERE_STEPS = 8

#: A triangle's corners in the plane from its strip coordinates, for triangles of side 1.
_TO_PLANE = TRIANGLE_TO_PLANE / TRIANGLE_SIDE
_SQRT2 = math.sqrt(2.0)


@dataclass(frozen=True)
class Solid:
    """How the cells of one solid grid are solids in space (see the module notes): what a
    grid carries (``grid.traits.solid``) for its pictures and meshes.

    ``faces(cell)`` lists a cell's faces as keys, ``point(key)`` places a key in space;
    ``centres(rows)`` (the cells' centres at once) and ``volume(cell)`` are given where a
    formula is quicker than the faces (else the mean of a cell's corners and the volume of
    its polyhedron). ``boxes``: the cells are the boxes of the integer lattice, which an
    STL file erodes to leave a gap between pieces (:mod:`excover.tiling.surface`);
    ``ball``: a cell is a ball, drawn as a disc and touching its neighbours at one point.
    """

    faces: Callable[[Key], list[Face]]
    point: Callable[[Key], FloatArray]
    centres: Callable[[npt.NDArray[np.int64]], FloatArray] | None = None
    volume: Callable[[Key], float] | None = None
    boxes: bool = False
    ball: bool = False


def solid_of(grid: Grid) -> Solid:
    """The solids of ``grid``'s cells; a UsageError on a planar grid."""
    solid = grid.traits.solid
    if solid is None:
        solids = ", ".join(grid_names(solid=True))
        raise UsageError(f"the {grid.name} grid's cells are not solids; choose one of {solids}")
    return solid


def __getattr__(name: str) -> tuple[str, ...]:
    """``SOLID_GRIDS``: the names of the solid grids, read from the registry when asked
    (``grid.traits.solid`` says it of one grid)."""
    if name == "SOLID_GRIDS":
        return tuple(grid_names(solid=True))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def point(grid: Grid, key: Key) -> FloatArray:
    """Where the corner ``key`` of a cell of ``grid`` is in space."""
    return solid_of(grid).point(key)


def cell_centres(grid: Grid, cells: Sequence[Sequence[int]]) -> FloatArray:
    """The centre of each cell (its centroid: the mean of a tetrahedron's corners), n x 3.
    Two cells that share a face are mirror images across it on every grid, so the step
    between their centres is square to that face."""
    solid = solid_of(grid)
    rows = np.array([tuple(int(v) for v in c) for c in cells], dtype=np.int64)
    if solid.centres is not None:
        return solid.centres(rows)
    centres = []
    for cell in rows.tolist():
        keys = {key for face in solid.faces(tuple(cell)) for key in face}
        centres.append(np.mean([solid.point(key) for key in sorted(keys)], axis=0))
    return np.array(centres, dtype=float).reshape(-1, 3)


def cell_volume(grid: Grid, cell: Sequence[int]) -> float:
    """The volume of one cell, from the formulas of its solid (for a sphere, of the
    polyhedron that stands for it)."""
    solid = solid_of(grid)
    key = tuple(int(v) for v in cell)
    if solid.volume is not None:
        return solid.volume(key)
    return _polyhedron_volume(solid.point, solid.faces(key))


def _polyhedron_volume(place: Callable[[Key], FloatArray], faces: list[Face]) -> float:
    """The volume of a closed polyhedron (the divergence theorem over its faces as fans)."""
    total = 0.0
    for face in faces:
        first = place(face[0])
        for a, b in pairwise(face[1:]):
            total += float(np.dot(first, np.cross(place(a), place(b))))
    return total / 6


def cell_faces(grid: Grid, cell: Sequence[int]) -> list[Face]:
    """The faces of one cell, counterclockwise seen from outside, as keys."""
    return solid_of(grid).faces(tuple(int(v) for v in cell))


def _lattice_point(key: Key) -> FloatArray:
    return np.array(key, dtype=float)


def _prism_point(key: Key) -> FloatArray:
    a, b, c, z = key
    x, y = _TO_PLANE @ np.array([a, b, c], dtype=float)
    return np.array([x, y, float(z)])


def _half_point(key: Key) -> FloatArray:
    return np.array(key, dtype=float) / 2


def _ball_point(key: Key) -> FloatArray:
    centre = np.array(key[:3], dtype=float) / _SQRT2
    on_cube = np.array(key[3:], dtype=float)
    result: FloatArray = centre + on_cube / (2 * np.linalg.norm(on_cube))
    return result


def box_faces(cell: Key) -> list[Face]:
    """The six faces of the unit cube at ``cell`` (its lowest corner), as keys."""
    faces: list[Face] = []
    square = ((0, 0), (1, 0), (1, 1), (0, 1))  # counterclockwise about the third axis
    for axis in range(3):
        j, k = (axis + 1) % 3, (axis + 2) % 3
        for side in (0, 1):
            corners = []
            for dj, dk in square:
                corner = list(cell)
                corner[axis] += side
                corner[j] += dj
                corner[k] += dk
                corners.append(tuple(corner))
            faces.append(tuple(corners if side else corners[::-1]))
    return faces


def _prism_faces(cell: Key) -> list[Face]:
    a, b, c, z = cell
    triangle = triangle_corners(a, b, c)
    points = [_TO_PLANE @ np.array(t, dtype=float) for t in triangle]
    (x0, y0), (x1, y1), (x2, y2) = points
    if (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) < 0:
        triangle.reverse()
    faces: list[Face] = [
        tuple((*t, z + 1) for t in triangle),
        tuple((*t, z) for t in triangle[::-1]),
    ]
    for p, q in zip(triangle, triangle[1:] + triangle[:1], strict=True):
        faces.append(((*p, z), (*q, z), (*q, z + 1), (*p, z + 1)))
    return faces


def _ball_faces(cell: Key) -> list[Face]:
    """The pushed-out cube's triangles: each face of the cube ``[-n, n]^3`` (``n`` being
    half of :data:`SPHERE_STEPS`) cut into unit squares, each split along a diagonal."""
    half = SPHERE_STEPS // 2
    faces: list[Face] = []
    for square in box_faces((0, 0, 0)):
        origin = np.array(square[0]) * 2 * half - half  # the square as a face of [-n, n]^3
        u = (np.array(square[1]) - np.array(square[0])) * 2 * half
        v = (np.array(square[3]) - np.array(square[0])) * 2 * half
        du, dv = u // (2 * half), v // (2 * half)
        for i, j in product(range(2 * half), repeat=2):
            corners = [origin + (i + di) * du + (j + dj) * dv for di, dj in _UNIT_SQUARE]
            keys = [(*cell, *(int(w) for w in corner)) for corner in corners]
            faces.append((keys[0], keys[1], keys[2]))
            faces.append((keys[0], keys[2], keys[3]))
    return faces


_UNIT_SQUARE = ((0, 0), (1, 0), (1, 1), (0, 1))


def _rhombic_corners(cell: Key) -> list[Key]:
    """The tetrahedron of a rhombic cell, as keys (twice the points): the centre of its
    cube, the centre of its face and the ends of its edge (see
    :mod:`excover.burr.xmpuzzle.lattice`)."""
    block = [v // 5 for v in cell]
    offset = [v % 5 for v in cell]
    face = next(a for a in range(3) if offset[a] in (0, 4))
    edge = next(a for a in range(3) if offset[a] in (1, 3))
    along = 3 - face - edge
    centre = tuple(2 * b + 1 for b in block)
    face_centre = list(centre)
    face_centre[face] = 2 * block[face] + (2 if offset[face] == 4 else 0)
    ends = []
    for end in (0, 2):
        corner = list(face_centre)
        corner[edge] = 2 * block[edge] + (2 if offset[edge] == 3 else 0)
        corner[along] = 2 * block[along] + end
        ends.append(tuple(corner))
    return [centre, tuple(face_centre), *ends]


def _tetra_octa_corners(cell: Key) -> list[Key]:
    """The tetrahedron of a cell of the tetrahedra-octahedra grid: the regular one of a
    cube (voxel 1, 1, 1 of the block) on the corners of the cube's parity, or the corner
    (voxels 0 or 2) with its three neighbours along the cube's edges."""
    block = [v // 3 for v in cell]
    offset = [v % 3 for v in cell]
    if offset == [1, 1, 1]:
        parity = sum(block) % 2
        chosen = [k for k in product((0, 1), repeat=3) if (sum(k) + parity) % 2 == 0]
    else:
        corner = tuple(o // 2 for o in offset)
        chosen = [corner]
        for axis in range(3):
            near = list(corner)
            near[axis] = 1 - near[axis]
            chosen.append(tuple(near))
    return [tuple(b + k for b, k in zip(block, spot, strict=True)) for spot in chosen]


def _tetrahedron(place: Callable[[Key], FloatArray], corners: list[Key]) -> list[Face]:
    """The four faces of a tetrahedron, each turned so that the fourth corner is behind."""
    points = [place(key) for key in corners]
    faces: list[Face] = []
    for left_out in range(4):
        face = [k for k in range(4) if k != left_out]
        a, b, c = (points[k] for k in face)
        if np.dot(np.cross(b - a, c - a), points[left_out] - a) > 0:
            face.reverse()
        faces.append(tuple(corners[k] for k in face))
    return faces


def _rhombic_faces(cell: Key) -> list[Face]:
    return _tetrahedron(_half_point, _rhombic_corners(cell))


def _tetra_octa_faces(cell: Key) -> list[Face]:
    return _tetrahedron(_lattice_point, _tetra_octa_corners(cell))


def _cube_centres(rows: npt.NDArray[np.int64]) -> FloatArray:
    result: FloatArray = rows.astype(float) + 0.5
    return result


def _ball_centres(rows: npt.NDArray[np.int64]) -> FloatArray:
    result: FloatArray = rows.astype(float) / _SQRT2
    return result


def _tetra_octa_volume(cell: Key) -> float:
    """The regular tetrahedron of a block, or a corner cut off the cube."""
    return 1 / 3 if all(int(v) % 3 == 1 for v in cell) else 1 / 6


#: The cubic grid's cells: unit cubes.
CUBES = Solid(box_faces, _lattice_point, centres=_cube_centres, volume=lambda cell: 1.0, boxes=True)
#: The triangular prisms: triangles of side 1, one unit high.
PRISMS = Solid(_prism_faces, _prism_point, volume=lambda cell: math.sqrt(3) / 4)
#: The balls of the face-centred cubic packing (polyhedra standing for them).
BALLS = Solid(_ball_faces, _ball_point, centres=_ball_centres, ball=True)
#: The 24 tetrahedra of a cube of the rhombic grid (a cube cut into 24 equal ones).
RHOMBIC_TETRAHEDRA = Solid(_rhombic_faces, _half_point, volume=lambda cell: 1 / 24)
#: The tetrahedra of the tetrahedra-octahedra grid.
TETRA_OCTA = Solid(_tetra_octa_faces, _lattice_point, volume=_tetra_octa_volume)


def unit_normal(points: Sequence[FloatArray]) -> FloatArray:
    """The unit normal of a planar polygon listed counterclockwise (Newell's method):
    outward for a face listed counterclockwise seen from outside."""
    corners = np.asarray(points, dtype=float)
    # one cross product per edge, summed in order (the sum a loop over the edges would make)
    total = np.cross(corners, np.roll(corners, -1, axis=0)).sum(axis=0)
    result: FloatArray = total / np.linalg.norm(total)
    return result
