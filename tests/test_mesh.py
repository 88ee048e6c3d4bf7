"""STL export (excover.tiling.mesh): closed 2-manifold bodies of the right volume.

Every mesh is checked twice: by trimesh (``is_watertight``, ``is_winding_consistent``,
``is_volume``, ``volume``) and by this file's own count over the triangles: each directed
edge once and its reverse once, each vertex's triangles one fan closing on itself, Euler's
V - E + F = 2 per body (no piece here has a tunnel), the volume as a sum of signed
tetrahedra and the area as the number of uncovered cell faces. Gaps are checked against
the erosion computed voxel by voxel (cubes) and against exact areas (single cells).
"""

from __future__ import annotations

import io
import math
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from excover import ExcoverError
from excover.errors import UsageError
from excover.tiling import (
    CUBE,
    HEX,
    SQUARE,
    TRIANGLE,
    Grid,
    Pattern3,
    Tiling,
    pentominoes,
    polycubes,
    polyhexes,
    polyiamonds,
    polyominoes,
    soma_pieces,
    tiles,
)
from excover.tiling.mesh import (
    MeshLibraryError,
    cells_mesh,
    piece_stls,
    solution_mesh,
    solution_stl,
    write_stl,
)

if TYPE_CHECKING:
    import trimesh

# trimesh takes seconds to import: the tests that use it run on one pytest-xdist worker,
# and collecting the module on the others does not import it.
pytestmark = pytest.mark.xdist_group("trimesh")

SIZE = 10.0
Cells = list[tuple[int, ...]]

#: The area of one cell of each planar grid, of edge SIZE.
AREA = {
    "square": SIZE**2,
    "hex": 1.5 * math.sqrt(3) * SIZE**2,
    "triangle": math.sqrt(3) / 4 * SIZE**2,
}


def cell_volume(grid: Grid) -> float:
    return SIZE**3 if grid.name == "cube" else AREA[grid.name] * SIZE


def neighbours(grid: Grid, cell: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The cells sharing a face (a side, in the plane) with ``cell``."""
    if grid.name == "triangle":
        step = 1 if sum(cell) == 1 else -1
        return [tuple(v + step * (i == k) for i, v in enumerate(cell)) for k in range(3)]
    table: dict[str, list[tuple[int, ...]]] = {
        "square": [(1, 0), (-1, 0), (0, 1), (0, -1)],
        "hex": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)],
        "cube": [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)],
    }
    return [tuple(a + b for a, b in zip(cell, d, strict=True)) for d in table[grid.name]]


def open_sides(grid: Grid, cells: Cells) -> int:
    """The number of sides (faces of a cube, edges of a planar cell) on no other cell."""
    present = set(cells)
    return sum(1 for cell in cells for other in neighbours(grid, cell) if other not in present)


def own_checks(mesh: trimesh.Trimesh) -> tuple[int, float, float]:
    """Check the mesh is a closed, consistently oriented 2-manifold by counting; return its
    Euler characteristic, volume and area computed here."""
    faces = np.asarray(mesh.faces)
    points = np.asarray(mesh.vertices)
    directed = Counter(
        (int(a), int(b)) for tri in faces for a, b in zip(tri, np.roll(tri, -1), strict=True)
    )
    assert all(n == 1 for n in directed.values()), "a directed edge is used twice"
    assert all((b, a) in directed for a, b in directed), "an edge has only one side"
    around: dict[int, dict[int, int]] = {}  # vertex -> the fan of its triangles, as a map
    for a, b, c in faces.tolist():
        for v, nxt, prv in ((a, b, c), (b, c, a), (c, a, b)):
            fan = around.setdefault(v, {})
            assert nxt not in fan, f"vertex {v}: two triangles leave it along one edge"
            fan[nxt] = prv
    for vertex, fan in around.items():
        start = next(iter(fan))
        seen, at = 1, fan[start]
        while at != start:
            at, seen = fan[at], seen + 1
        assert seen == len(fan), f"vertex {vertex} is where two sheets of surface meet"
    euler = len(around) - len(directed) // 2 + len(faces)
    corners = points[faces]
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    volume = float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)
    area = float(np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2)
    return euler, volume, area


def check_piece(cells: Cells, grid: Grid) -> trimesh.Trimesh:
    """The mesh of a connected piece without tunnels, checked both ways."""
    mesh = cells_mesh(cells, grid, SIZE)
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume, cells
    expected = len(cells) * cell_volume(grid)
    assert mesh.volume == pytest.approx(expected, rel=1e-9), cells
    euler, volume, area = own_checks(mesh)
    assert euler == 2, cells
    assert volume == pytest.approx(expected, rel=1e-9), cells
    if grid.name == "cube":
        sides = open_sides(grid, cells) * SIZE**2
    else:  # top and bottom, and the walls
        sides = 2 * len(cells) * AREA[grid.name] + open_sides(grid, cells) * SIZE * SIZE
    assert area == pytest.approx(sides, rel=1e-9), cells
    return mesh


def cells_of(shape: object) -> Cells:
    coords = shape.coords()  # type: ignore[attr-defined]
    return [tuple(int(v) for v in row) for row in coords.tolist()]


def edge_only_contacts(cells: Cells) -> int:
    """The cube pairs of a polycube meeting along an edge with both cubes beside that edge
    missing: where four faces meet."""
    present = set(cells)
    found = 0
    for a in cells:
        for b in cells:
            d = [q - p for p, q in zip(a, b, strict=True)]
            if a < b and sorted(map(abs, d)) == [0, 1, 1]:
                i, j = [k for k in range(3) if d[k]]
                side_i = tuple(a[k] + (d[k] if k == i else 0) for k in range(3))
                side_j = tuple(a[k] + (d[k] if k == j else 0) for k in range(3))
                found += side_i not in present and side_j not in present
    return found


# ----- every shipped shape -----


ONE_SIDED_POLYCUBES = [p for n in range(1, 6) for p in polycubes(n, "rotations")]


def test_the_catalog_is_what_the_tests_walk() -> None:
    assert [len(polycubes(n, "rotations")) for n in range(1, 6)] == [1, 1, 2, 8, 29]
    assert len(ONE_SIDED_POLYCUBES) == 41


@pytest.mark.parametrize("number", range(len(ONE_SIDED_POLYCUBES)))
def test_every_polycube_up_to_five_cubes(number: int) -> None:
    check_piece(cells_of(ONE_SIDED_POLYCUBES[number]), CUBE)


def test_the_soma_pieces() -> None:
    for piece in soma_pieces().values():
        check_piece(cells_of(piece), CUBE)


@pytest.mark.parametrize("n", [5, 6])
def test_polycubes_whose_cubes_meet_along_an_edge_alone(n: int) -> None:
    """Where two cubes of a piece share only an edge, four faces meet along it: the mesh
    keeps two vertices at some of its points (one per wedge of solid) and is a closed
    2-manifold, where merging the vertices by position would not be."""
    hinged = [p for p in polycubes(n) if edge_only_contacts(cells_of(p))]
    assert len(hinged) >= 1  # n = 5: the pentacube bent around a missing column
    for piece in hinged:
        mesh = check_piece(cells_of(piece), CUBE)
        spots = Counter(tuple(v) for v in np.round(mesh.vertices, 9).tolist())
        assert max(spots.values()) == 2
        merged = mesh.copy()
        merged.merge_vertices()
        assert len(merged.vertices) < len(mesh.vertices) and not merged.is_watertight


def test_two_cubes_meeting_at_one_corner_make_two_bodies() -> None:
    mesh = cells_mesh([(0, 0, 0), (1, 1, 1)], CUBE, SIZE)
    assert mesh.is_volume and mesh.volume == pytest.approx(2 * SIZE**3)
    bodies = mesh.split()
    assert len(bodies) == 2 and all(body.is_volume for body in bodies)
    euler, _, _ = own_checks(mesh)
    assert euler == 4


@pytest.mark.parametrize("name", list(pentominoes()))
def test_every_pentomino(name: str) -> None:
    check_piece(cells_of(pentominoes()[name]), SQUARE)


@pytest.mark.parametrize(
    ("grid", "shapes"),
    [
        (SQUARE, [p for n in range(1, 5) for p in polyominoes(n)]),
        (HEX, [p for n in range(1, 5) for p in polyhexes(n)]),
        (TRIANGLE, [p for n in range(1, 7) for p in polyiamonds(n)]),
    ],
    ids=["polyominoes", "polyhexes", "polyiamonds"],
)
def test_planar_polyforms_as_prisms(grid: Grid, shapes: list[object]) -> None:
    assert shapes
    for shape in shapes:
        check_piece(cells_of(shape), grid)


def test_a_polyiamond_pinched_at_one_corner() -> None:
    """Six triangles around a hexagon's centre, less two opposite ones: the two halves meet
    at the centre only, whose points become two vertices."""
    centre_ring = [(1, 0, 0), (1, 0, 1), (0, 0, 1), (0, 1, 1), (0, 1, 0), (1, 1, 0)]
    cells = [c for c in centre_ring if c not in ((0, 0, 1), (1, 1, 0))]
    mesh = cells_mesh(cells, TRIANGLE, SIZE)
    assert mesh.is_volume and len(mesh.split()) == 2
    assert mesh.volume == pytest.approx(4 * cell_volume(TRIANGLE))
    euler, volume, _ = own_checks(mesh)
    assert euler == 4 and volume == pytest.approx(mesh.volume)


def test_a_polyhex_ring_is_a_torus() -> None:
    ring = [(1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)]
    mesh = cells_mesh(ring, HEX, SIZE)
    assert mesh.is_volume and mesh.volume == pytest.approx(6 * cell_volume(HEX))
    assert own_checks(mesh)[0] == 0


# ----- gaps -----


def eroded_volume(cells: Cells, inset: int) -> int:
    """The volume of the cells (side SIZE, an integer here) eroded by a cube of half-side
    ``inset``, counted over unit voxels: a voxel stays when all within ``inset`` of it do."""
    side = int(SIZE)
    low = np.min(cells, axis=0)
    extent = (np.max(cells, axis=0) - low + 1) * side + 2 * inset
    solid = np.zeros(tuple(extent), dtype=bool)
    for cell in cells:
        x, y, z = ((np.array(cell) - low) * side + inset).tolist()
        solid[x : x + side, y : y + side, z : z + side] = True
    kept = solid.copy()
    for step in np.ndindex(*(2 * inset + 1,) * 3):
        kept &= np.roll(solid, [inset - s for s in step], axis=(0, 1, 2))
    return int(kept.sum())


@pytest.mark.parametrize("number", [0, 1, 2, 3, 5, 9, 13, 20, 30, 40])
def test_a_gap_erodes_a_polycube(number: int) -> None:
    cells = cells_of(ONE_SIDED_POLYCUBES[number])
    mesh = cells_mesh(cells, CUBE, SIZE, gap=2)
    assert mesh.is_volume and len(mesh.split()) == 1
    euler, volume, _ = own_checks(mesh)
    assert euler == 2
    assert volume == pytest.approx(eroded_volume(cells, 1), rel=1e-9)
    assert mesh.volume == pytest.approx(volume, rel=1e-9)


def test_a_gap_on_single_cells() -> None:
    d = 0.5  # gap 1
    expected = {
        "cube": (SIZE - 2 * d) ** 3,
        "square": (SIZE - 2 * d) ** 2 * SIZE,
        "hex": 2 * math.sqrt(3) * (SIZE * math.sqrt(3) / 2 - d) ** 2 * SIZE,
        "triangle": 3 * math.sqrt(3) * (SIZE / (2 * math.sqrt(3)) - d) ** 2 * SIZE,
    }
    cells = {"cube": (0, 0, 0), "square": (0, 0), "hex": (0, 0), "triangle": (1, 0, 0)}
    for grid in (CUBE, SQUARE, HEX, TRIANGLE):
        mesh = cells_mesh([cells[grid.name]], grid, SIZE, gap=2 * d)
        assert mesh.is_volume
        assert mesh.volume == pytest.approx(expected[grid.name], rel=1e-9), grid.name


@pytest.mark.parametrize(
    ("grid", "shapes"),
    [(SQUARE, polyominoes(5)), (HEX, polyhexes(4)), (TRIANGLE, polyiamonds(6))],
    ids=["pentominoes", "tetrahexes", "hexiamonds"],
)
def test_a_gap_moves_the_walls_of_a_prism_inward(grid: Grid, shapes: Sequence[object]) -> None:
    """Each wall moves d inward: the area loses the perimeter times d, give or take the
    corners (d squared times at most cot 30 degrees each)."""
    d = 0.5
    for shape in shapes:
        cells = cells_of(shape)
        mesh = cells_mesh(cells, grid, SIZE, gap=2 * d)
        assert mesh.is_volume and own_checks(mesh)[0] == 2
        perimeter = open_sides(grid, cells) * SIZE
        corners = open_sides(grid, cells) * 2  # more than there are
        expected = (len(cells) * AREA[grid.name] - perimeter * d) * SIZE
        assert abs(mesh.volume - expected) <= corners * d * d * math.sqrt(3) * SIZE, cells


# ----- STL files -----


def load(data: bytes) -> trimesh.Trimesh:
    """An STL file as a program reading it sees it: equal points merged."""
    import trimesh

    mesh = trimesh.load(io.BytesIO(data), file_type="stl")
    assert isinstance(mesh, trimesh.Trimesh)
    return mesh


def test_piece_stls_one_file_per_tile() -> None:
    tiling = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations"))
    files = piece_stls(tiling)
    assert list(files) == list(soma_pieces())
    for name, data in files.items():
        size = soma_pieces()[name].size
        assert data[:5] != b"solid"  # binary STL: an 80-byte header, then a count
        count = int.from_bytes(data[80:84], "little")
        assert len(data) == 84 + 50 * count
        mesh = load(data)
        assert mesh.is_volume, name
        assert mesh.volume == pytest.approx(size * SIZE**3, rel=1e-6), name


def test_pentacube_stls_with_a_gap_stay_closed_when_read_back() -> None:
    """A reader of an STL file merges equal points; a gap leaves no edge where four faces
    meet, so every pentacube file reads back as a closed body."""
    for piece in polycubes(5, "rotations"):
        data = cells_mesh(piece, CUBE, SIZE, gap=0.4).export(file_type="stl")
        assert isinstance(data, bytes)
        mesh = load(data)
        assert mesh.is_volume, piece.cells
        assert len(mesh.split()) == 1


def test_solution_stl_has_one_body_per_piece() -> None:
    tiling = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations"))
    solution = tiling.first()
    assert solution is not None
    whole = solution_mesh(solution)  # touching pieces: their vertices are not shared
    bodies = whole.split()
    assert len(bodies) == 7 and all(body.is_volume for body in bodies)
    assert sorted(round(body.volume) for body in bodies) == sorted(
        len(p.cells) * 1000 for p in solution.placements
    )
    assert whole.volume == pytest.approx(27 * SIZE**3)
    printed = load(solution_stl(solution, gap=0.3))  # apart, so a reader sees 7 bodies
    bodies = printed.split()
    assert len(bodies) == 7 and all(body.is_watertight and body.is_volume for body in bodies)
    assert printed.volume < 27 * SIZE**3


def test_write_stl(tmp_path: Path) -> None:
    mesh = cells_mesh([(0, 0)], SQUARE, 2.0)
    write_stl(mesh, tmp_path / "a.stl")
    data = (tmp_path / "a.stl").read_bytes()
    write_stl(data, tmp_path / "b.stl")
    assert (tmp_path / "b.stl").read_bytes() == data
    assert load(data).volume == pytest.approx(8.0, rel=1e-6)


# ----- errors -----


@pytest.mark.parametrize(
    ("cells", "grid", "kwargs", "message"),
    [
        ([], CUBE, {}, "at least one cell"),
        ([(0, 0, 0), (0, 0, 0)], CUBE, {}, "(0, 0, 0) is given twice"),
        ([(0, 0)], CUBE, {}, "not a cell of the cube grid"),
        ([(0, 0.5)], SQUARE, {}, "not a cell of the square grid"),
        ([(0, 0, 0)], TRIANGLE, {}, "a + b + c is 1 or 2"),
        ([(0, 0)], "octagon", {}, "unknown grid"),
        ([(0, 0)], SQUARE, {"cell_size": 0}, "cell_size must be a positive"),
        ([(0, 0)], SQUARE, {"gap": -1}, "gap must be at least 0"),
        ([(0, 0)], SQUARE, {"gap": 3, "cell_size": 10}, "less than cell_size / 4"),
        (Pattern3.constant(1, 1, 1), SQUARE, {}, "on the cube grid, not square"),
    ],
)
def test_bad_input_is_a_usage_error(
    cells: object, grid: object, kwargs: dict[str, float], message: str
) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        cells_mesh(cells, grid, **kwargs)  # type: ignore[arg-type]


def test_without_trimesh_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "trimesh", None)  # import trimesh now fails
    with pytest.raises(MeshLibraryError, match=r'pip install "excover\[mesh\]"') as caught:
        cells_mesh([(0, 0)], SQUARE)
    assert isinstance(caught.value, ExcoverError)
