"""STL meshes of BurrTools' solid grids: triangular prisms, balls, and the tetrahedra of the
rhombic and tetrahedra-octahedra grids.

Each mesh is checked as a closed surface from its triangles alone (every edge, as a pair
of vertex numbers, in exactly two triangles, once each way), and its volume against the
cells' volumes from their own formulas: a prism of edge and height s is sqrt(3)/4 s^3, a
rhombic cell a 24th of a cube (48 of them make a rhombic dodecahedron of two cubes), a
tetrahedron of the tetrahedra-octahedra grid the determinant of its edges over 6 (from
``test_tiling_grids``' own description of the solids), and a ball slightly less than
pi/6 s^3.
"""

from __future__ import annotations

import io
import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING

import numpy as np
import pytest
from test_tiling_grids import tetra_octa_solids

from excover.errors import UsageError
from excover.tiling import (
    PRISM,
    RHOMBIC,
    SPHERE,
    TETRAOCTA,
    RhombicPattern,
    Tile,
    Tiling,
    polyprisms,
    polyrhombic_dodecahedra,
    polyspheres,
    rhombic_dodecahedron,
)
from excover.tiling.grids import Grid
from excover.tiling.mesh import cells_mesh, piece_stls, solution_mesh

if TYPE_CHECKING:
    import trimesh

# trimesh takes seconds to import: the tests that use it run on one pytest-xdist worker
# (with test_mesh.py's), and collecting the module on the others does not import it.
pytestmark = pytest.mark.xdist_group("trimesh")

SIZE = 10.0


def closed(mesh: trimesh.Trimesh) -> bool:
    """Every edge in exactly two triangles, once in each direction."""
    directed: Counter[tuple[int, int]] = Counter()
    for a, b, c in mesh.faces.tolist():
        for edge in ((a, b), (b, c), (c, a)):
            directed[edge] += 1
    return all(n == 1 and directed[(b, a)] == 1 for (a, b), n in directed.items())


def volume(mesh: trimesh.Trimesh) -> float:
    """The signed volume enclosed (the divergence theorem), positive when wound outward."""
    v = mesh.vertices[mesh.faces]
    return float(np.einsum("ij,ij->i", v[:, 0], np.cross(v[:, 1], v[:, 2])).sum() / 6)


def tetra_octa_volume(cell: Sequence[int]) -> float:
    block = tuple(v // 3 for v in cell)
    corners = sorted(tetra_octa_solids([block])[tuple(cell)])
    edges = [[float(p - q) for p, q in zip(c, corners[0], strict=True)] for c in corners[1:]]
    return abs(float(np.linalg.det(np.array(edges)))) / 6


def random_connected(
    grid: Grid, cells: list[tuple[int, ...]], size: int, seed: int
) -> list[tuple[int, ...]]:
    """A random connected set of ``size`` cells of a region: grown cell by cell among the
    neighbours (cells whose solids share a face: their faces' corners agree)."""
    from excover.tiling.geometry import cell_faces

    faces = {c: {tuple(sorted(f)) for f in cell_faces(grid, c)} for c in cells}
    rng = random.Random(seed)
    chosen = [rng.choice(cells)]
    while len(chosen) < size:
        near = [c for c in cells if c not in chosen and any(faces[c] & faces[d] for d in chosen)]
        chosen.append(rng.choice(near))
    return chosen


REGION = {
    "rhombic": [c for c in product(range(10), repeat=3) if RHOMBIC.is_cell(c)],
    "tetraocta": [c for c in product(range(6), repeat=3) if TETRAOCTA.is_cell(c)],
}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("grid", [RHOMBIC, TETRAOCTA], ids=lambda g: g.name)
def test_random_pieces_of_tetrahedra_are_closed_with_their_volume(grid: Grid, seed: int) -> None:
    cells = random_connected(grid, REGION[grid.name], 12, seed)
    mesh = cells_mesh(cells, grid, SIZE)
    assert closed(mesh) and mesh.is_watertight
    expected = len(cells) / 24 if grid is RHOMBIC else sum(tetra_octa_volume(c) for c in cells)
    assert volume(mesh) == pytest.approx(expected * SIZE**3)


def test_rhombic_dodecahedra_are_two_cubes_each() -> None:
    for piece in polyrhombic_dodecahedra(3):
        mesh = cells_mesh(piece, RHOMBIC, SIZE)
        assert closed(mesh) and len(mesh.split(only_watertight=False)) == 1
        assert volume(mesh) == pytest.approx(3 * 2 * SIZE**3)


def test_the_tetra_octa_cells_are_the_regular_and_corner_tetrahedra() -> None:
    assert tetra_octa_volume((1, 1, 1)) == pytest.approx(1 / 3)
    octahedron = [(x, y, z) for x in (2, 3) for y in (2, 3) for z in (2, 3)]
    assert sum(tetra_octa_volume(c) for c in octahedron) == pytest.approx(4 / 3)
    mesh = cells_mesh(octahedron, TETRAOCTA, SIZE)
    assert closed(mesh) and (len(mesh.vertices), len(mesh.faces)) == (6, 8)  # an octahedron
    assert volume(mesh) == pytest.approx(4 / 3 * SIZE**3)


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_polyprisms_are_closed_with_their_volume(size: int) -> None:
    for piece in polyprisms(size):
        mesh = cells_mesh(piece, PRISM, SIZE)
        assert closed(mesh) and mesh.is_winding_consistent
        assert volume(mesh) == pytest.approx(size * math.sqrt(3) / 4 * SIZE**3)


# the pieces of three balls by default, the many more of four in the slow run (-m slow)
@pytest.mark.parametrize("size", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_balls_are_closed_polyhedra_close_to_spheres(size: int) -> None:
    one = volume(cells_mesh([(0, 0, 0)], SPHERE, SIZE))
    assert 0.95 * math.pi / 6 * SIZE**3 < one < math.pi / 6 * SIZE**3
    for piece in polyspheres(size):
        mesh = cells_mesh(piece, SPHERE, SIZE)
        assert closed(mesh)
        assert len(mesh.split(only_watertight=True)) == size  # touching balls: one body each
        assert volume(mesh) == pytest.approx(size * one)
        centres = sorted(tuple(np.round(b.vertices.mean(axis=0), 6)) for b in mesh.split())
        expected = sorted(
            tuple(np.round(np.array(c) * SIZE / math.sqrt(2), 6)) for c in piece.cells
        )
        assert centres == expected  # balls of diameter SIZE whose neighbours touch


def test_stl_files_of_a_tiling_and_its_assembly() -> None:
    centres = [(1, 1, 1), (2, 2, 1), (2, 1, 2), (1, 2, 2)]
    board = RhombicPattern([c for centre in centres for c in rhombic_dodecahedron(centre)])
    pair = Tile(RhombicPattern(rhombic_dodecahedron((0, 0, 0)) + rhombic_dodecahedron((1, 1, 0))))
    solution = Tiling(board, [Tile(pair.shape, "pair", 2)]).first()
    assert solution is not None
    files = piece_stls(solution.tiling, SIZE)
    import trimesh

    piece = trimesh.load(io.BytesIO(files["pair"]), file_type="stl")
    assert isinstance(piece, trimesh.Trimesh) and piece.volume == pytest.approx(4 * SIZE**3)
    assembly = solution_mesh(solution, SIZE)
    assert closed(assembly) and len(assembly.split()) == 2
    assert volume(assembly) == pytest.approx(8 * SIZE**3)


def test_bad_cells_and_gaps_are_refused() -> None:
    with pytest.raises(UsageError, match=r"\(1, 0, 0\) is not a cell of the sphere grid"):
        cells_mesh([(1, 0, 0)], SPHERE)
    with pytest.raises(UsageError, match=r"gap .* not made on the rhombic grid"):
        cells_mesh(rhombic_dodecahedron((0, 0, 0)), RHOMBIC, gap=0.2)
