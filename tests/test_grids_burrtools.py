"""BurrTools puzzles on the triangular prism, sphere, rhombic dodecahedron and
tetrahedra-octahedra grids, drawn here: their counts up to symmetry against BurrTools'
command-line solver, the assemblies against the tiling library's own reduction, and round
trips through .xmpuzzle files.

The counts are those burrTxt (built from github.com/burr-tools/burr-tools at commit
b72a71d) printed for these designs, written to files by ``write_xmpuzzle`` and run with
``burrTxt -q FILE``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from excover import ExactCover
from excover.formats.burrtools import (
    Part,
    Problem,
    Puzzle,
    Shape,
    cover,
    parse_xmpuzzle,
    read_xmpuzzle,
    write_xmpuzzle,
)
from excover.formats.burrtools.cover import result_symmetries
from excover.formats.burrtools.lattice import GRIDS
from excover.tiling import (
    PrismPattern,
    RhombicPattern,
    SpherePattern,
    TetraOctaPattern,
    Tile,
    Tiling,
    rhombic_dodecahedron,
)
from excover.tiling.catalog import polyforms

V = Shape.from_voxels


def rd(centres: list[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    return {c for centre in centres for c in rhombic_dodecahedron(centre)}


def spheres() -> Puzzle:
    """The tetrahedron of 10 spheres from 5 pairs."""
    tetra = {(0, 0, 0), (1, 1, 0), (1, 0, 1), (0, 1, 1), (2, 2, 0), (2, 0, 2), (0, 2, 2)}
    tetra |= {(2, 1, 1), (1, 2, 1), (1, 1, 2)}
    pair = V({(0, 0, 0), (1, 1, 0)}, name="pair")
    return Puzzle((pair, V(tetra, name="tetrahedron")), (Problem((Part(0, 5, 5),), 1),), grid=2)


def prisms() -> Puzzle:
    """A parallelogram of 6 triangles, 2 layers high, from flat and tall rhombs."""
    board = {
        (x, y, z) for z in range(2) for x, y in [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (3, 1)]
    }
    flat = V({(0, 0, 0), (1, 0, 0)}, name="rhomb")
    tall = V({(0, 0, 0), (0, 0, 1)}, name="tall")
    parts = (Part(0, 0, 6), Part(1, 0, 6))
    return Puzzle((flat, tall, V(board, name="board")), (Problem(parts, 2),), grid=1)


def rhombic() -> Puzzle:
    """Four mutually touching rhombic dodecahedra from two pairs."""
    four = rd([(1, 1, 1), (2, 2, 1), (2, 1, 2), (1, 2, 2)])
    two = V(rd([(1, 1, 1), (2, 2, 1)]), name="two")
    return Puzzle((two, V(four, name="four")), (Problem((Part(0, 2, 2),), 1),), grid=3)


def tetra_octa() -> Puzzle:
    """An octahedron and the 8 regular tetrahedra on its faces, from the two dimers."""
    corners = {(x, y, z) for x in (2, 3) for y in (2, 3) for z in (2, 3)}
    regular = {(3 * (x // 3) + 1, 3 * (y // 3) + 1, 3 * (z // 3) + 1) for x, y, z in corners}
    dimers = [
        V({(a, b, c) for a, b, c in d.tolist()}, name=f"d{k}")
        for k, d in enumerate(polyforms("tetraocta", 2))
    ]
    parts = tuple(Part(k, 0, 8) for k in range(len(dimers)))
    star = V(corners | regular, name="star")
    return Puzzle((*dimers, star), (Problem(parts, len(dimers)),), grid=4)


#: Each design with burrTxt's count of its assemblies.
DESIGNS = {
    "spheres": (spheres, 1),
    "prisms": (prisms, 11),
    "rhombic": (rhombic, 1),
    "tetraocta": (tetra_octa, 1),
}
PATTERNS = {1: PrismPattern, 2: SpherePattern, 3: RhombicPattern, 4: TetraOctaPattern}


@pytest.mark.parametrize("name", DESIGNS)
def test_counts_up_to_symmetry_match_burrtxt(name: str) -> None:
    make, burrtxt = DESIGNS[name]
    cover = ExactCover.from_burrtools(make(), 0)
    assert cover.count(up_to_symmetry=True) == burrtxt


@pytest.mark.parametrize("name", DESIGNS)
def test_assemblies_match_the_tiling_library(name: str) -> None:
    """The same pieces (any number of each, rotations only) on the same board: the
    tiling library's reduction finds as many assemblies."""
    puzzle = DESIGNS[name][0]()
    pattern = PATTERNS[puzzle.grid]
    problem = puzzle.problems[0]
    board = pattern.from_voxels(puzzle.shapes[problem.result].cells("#"))
    tiles = [
        Tile(
            pattern.from_voxels(puzzle.shapes[p.shape].cells("#")),
            f"k{p.shape}",
            (p.lo, p.hi),
            "rotations",
        )
        for p in problem.parts
    ]
    assert Tiling(board, tiles).count() == ExactCover.from_burrtools(puzzle, 0).count()


@pytest.mark.parametrize("name", DESIGNS)
def test_round_trip_keeps_the_puzzle_and_its_count(name: str, tmp_path: Path) -> None:
    puzzle = DESIGNS[name][0]()
    path = tmp_path / f"{name}.xmpuzzle"
    write_xmpuzzle(puzzle, path)
    back = read_xmpuzzle(path)
    assert back == puzzle
    assert parse_xmpuzzle(path.read_bytes()).grid == puzzle.grid
    assert ExactCover.from_burrtools(back, 0).count(
        up_to_symmetry=True
    ) == ExactCover.from_burrtools(puzzle, 0).count(up_to_symmetry=True)


def test_flat_sphere_shapes_turn_by_the_packing_half_turns() -> None:
    """Three touching spheres lie in a layer across a body diagonal of the cube: the
    triangle's 6 isometries in its plane, each also turning the layer over, are 12, half
    of them found only among BurrTools' half turns of the packing; a regular tetrahedron
    of spheres, in two layers, keeps its 24, all the cube's."""
    flat = V({(0, 0, 0), (1, 1, 0), (1, 0, 1)})
    assert len(result_symmetries(flat, 2)) == 12  # the triangle's 6, each also flipped over
    assert sum(g.denominator == 1 for g in result_symmetries(flat, 2)) == 6  # the cube's
    solid = V({(0, 0, 0), (1, 1, 0), (1, 0, 1), (0, 1, 1)})  # a regular tetrahedron
    assert len(result_symmetries(solid, 2)) == 24  # its 24 isometries, all the cube's
    assert all(g.denominator == 1 for g in result_symmetries(solid, 2))


@pytest.mark.parametrize("grid", sorted(GRIDS))
def test_all_transformations_at_once_match_each_one(grid: int) -> None:
    """``LatticeGrid.images`` gives every transformation's image of a shape at once, as
    ``Transformation.apply`` gives each (None where a sphere half turn leaves the
    packing), and ``shifts`` each image's canonical translation."""
    lattice = GRIDS[grid]
    rng = np.random.default_rng(grid)
    box = np.array([(x, y, z) for x in range(12) for y in range(12) for z in range(12)])
    cells = box[lattice.is_cell(box)]
    shapes = [cells[rng.choice(len(cells), size=k, replace=False)] for k in (1, 2, 3, 5, 8)]
    if grid == 2:  # a flat shape, which the packing's half turns keep on the grid
        shapes.append(np.array([[4, 4, 0], [5, 5, 0], [6, 4, 0], [5, 3, 0]]))
    for voxels in shapes:
        images, ok = lattice.images(voxels)
        for g, image, fits in zip(lattice.transformations, images, ok, strict=True):
            one = g.apply(voxels)
            assert (one is not None) == fits
            if one is not None:
                assert (image == one).all()
                assert (lattice.shifts(image[None])[0] == lattice.shift(one)).all()
    assert ok.any()


@pytest.mark.parametrize("name", DESIGNS)
def test_placements_checked_in_small_chunks_are_the_same(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every option comes out the same, in the same order, however many pairs of an
    orientation and a translation are checked together."""
    puzzle = DESIGNS[name][0]()

    def options() -> list[list[str]]:
        problem = ExactCover.from_burrtools(puzzle, 0)
        return [problem.option_items(k) for k in range(problem.n_options)]

    whole = options()
    monkeypatch.setattr(cover, "_PAIRS", 3)
    assert options() == whole
    assert whole
