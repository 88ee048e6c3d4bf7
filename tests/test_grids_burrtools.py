"""BurrTools puzzles on the triangular prism, sphere, rhombic dodecahedron and
tetrahedra-octahedra grids, drawn here: their counts up to symmetry against BurrTools'
command-line solver, the assemblies against the tiling library's own reduction, and round
trips through .xmpuzzle files.

The counts are those burrTxt (built from github.com/burr-tools/burr-tools at commit
b72a71d) printed for these designs, written to files by ``write_xmpuzzle`` and run with
``burrTxt -q FILE``."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import numpy as np
import pytest

from excover import ExactCover
from excover.burr.xmpuzzle import (
    BurrProblem,
    BurrPuzzle,
    BurrShape,
    Part,
    cover,
    parse_xmpuzzle,
    read_xmpuzzle,
    write_xmpuzzle,
)
from excover.burr.xmpuzzle.cover import result_symmetries
from excover.burr.xmpuzzle.lattice import GRIDS
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

V = BurrShape.from_voxels


def rd(centres: list[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    return {c for centre in centres for c in rhombic_dodecahedron(centre)}


def spheres() -> BurrPuzzle:
    """The tetrahedron of 10 spheres from 5 pairs."""
    tetra = {(0, 0, 0), (1, 1, 0), (1, 0, 1), (0, 1, 1), (2, 2, 0), (2, 0, 2), (0, 2, 2)}
    tetra |= {(2, 1, 1), (1, 2, 1), (1, 1, 2)}
    pair = V({(0, 0, 0), (1, 1, 0)}, name="pair")
    return BurrPuzzle(
        (pair, V(tetra, name="tetrahedron")), (BurrProblem((Part(0, 5, 5),), 1),), grid=2
    )


def prisms() -> BurrPuzzle:
    """A parallelogram of 6 triangles, 2 layers high, from flat and tall rhombs."""
    board = {
        (x, y, z) for z in range(2) for x, y in [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (3, 1)]
    }
    flat = V({(0, 0, 0), (1, 0, 0)}, name="rhomb")
    tall = V({(0, 0, 0), (0, 0, 1)}, name="tall")
    parts = (Part(0, 0, 6), Part(1, 0, 6))
    return BurrPuzzle((flat, tall, V(board, name="board")), (BurrProblem(parts, 2),), grid=1)


def rhombic() -> BurrPuzzle:
    """Four mutually touching rhombic dodecahedra from two pairs."""
    four = rd([(1, 1, 1), (2, 2, 1), (2, 1, 2), (1, 2, 2)])
    two = V(rd([(1, 1, 1), (2, 2, 1)]), name="two")
    return BurrPuzzle((two, V(four, name="four")), (BurrProblem((Part(0, 2, 2),), 1),), grid=3)


def tetra_octa() -> BurrPuzzle:
    """An octahedron and the 8 regular tetrahedra on its faces, from the two dimers."""
    corners = {(x, y, z) for x in (2, 3) for y in (2, 3) for z in (2, 3)}
    regular = {(3 * (x // 3) + 1, 3 * (y // 3) + 1, 3 * (z // 3) + 1) for x, y, z in corners}
    dimers = [
        V({(a, b, c) for a, b, c in d.tolist()}, name=f"d{k}")
        for k, d in enumerate(polyforms("tetraocta", 2))
    ]
    parts = tuple(Part(k, 0, 8) for k in range(len(dimers)))
    star = V(corners | regular, name="star")
    return BurrPuzzle((*dimers, star), (BurrProblem(parts, len(dimers)),), grid=4)


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


@pytest.mark.parametrize("grid", sorted(GRIDS))
def test_the_compiled_images_and_self_maps_match_numpy(grid: int) -> None:
    """The compiled images of several shapes at once (moved to their canonical place,
    sorted, labels carried) and the compiled symmetries of a shape are numpy's, on
    every grid whose transformations move each voxel on its own (not the sphere
    grid's: it has numpy's alone); the identity comes first."""
    from excover.burr.xmpuzzle import cover
    from excover.burr.xmpuzzle._cover import normal_images, self_maps

    lattice = GRIDS[grid]
    assert lattice.transformations[0].is_identity()
    maps = cover._compiled(lattice)
    assert (maps is None) == (grid == 2)
    if maps is None:
        return
    rng = np.random.default_rng(grid)
    box = np.array([(x, y, z) for x in range(9) for y in range(9) for z in range(9)])
    cells = box[lattice.is_cell(box)]
    shapes = []
    for k in (1, 2, 3, 5, 8, 30):
        voxels = cells[rng.choice(len(cells), size=k, replace=False)]
        labels = rng.integers(0, 2, size=(k, 2))
        shapes.append(np.concatenate([voxels, labels], axis=1))
    # a sparse shape in a long box (sorted by a comparison sort, not by counting)
    far = np.array([0, 120, 240]) * lattice.period * 2
    sparse = cells[:3] + np.stack([far, np.zeros(3, np.int64), np.zeros(3, np.int64)], axis=1)
    shapes.append(np.concatenate([sparse, rng.integers(0, 2, size=(3, 2))], axis=1))
    firsts = np.cumsum([0, *(len(s) for s in shapes)])
    together = normal_images(np.concatenate(shapes), firsts, *maps)
    for k, shape in enumerate(shapes):
        images, ok = cover._images(lattice, shape)
        assert ok.all() and (together[:, firsts[k] : firsts[k + 1]] == images).all()
    # a shape with symmetries: a block of the grid's cells, labels alike or not
    block = cells[(cells < lattice.period * 2).all(axis=1)]
    counts = []
    for labels in (np.zeros((len(block), 2), np.int64), rng.integers(0, 2, (len(block), 2))):
        shape = np.concatenate([block, labels], axis=1)
        which, perms = self_maps(shape, *maps)
        expected, permutations = cover._symmetries_at_once(lattice, shape)
        assert which.tolist() == expected and (perms == permutations).all()
        counts.append(len(expected))
    assert counts[0] > 1  # the unlabelled block has symmetries to compare


def coloured() -> BurrPuzzle:
    """A red-blue domino and a blue-red one in a chequered box of 2 by 2, red on red
    and blue on blue (a colourless voxel of the box takes either)."""
    one = BurrShape((2, 1, 1), "##", (1, 2), name="red-blue")
    two = BurrShape((2, 1, 1), "##", (2, 1), name="blue-red")
    box = BurrShape((2, 2, 1), "####", (1, 2, 0, 1), name="box")
    problem = BurrProblem((Part(0), Part(1)), 2, color_pairs=frozenset({(0, 0), (1, 1)}))
    return BurrPuzzle((one, two, box), (problem,), colors=((255, 0, 0), (0, 0, 255)))


def placements_one_by_one(puzzle: BurrPuzzle) -> list[list[list[int]]]:
    """Each part's placements (the flat index of each voxel, as ``_Board`` numbers
    them), found one orientation and one translation at a time: every translation of
    the grid in a box around the result, in order (x slowest), kept when each voxel
    lands on a voxel of the result that its colour may cover."""
    problem = puzzle.problems[0]
    result = puzzle.shapes[problem.result]
    lattice = GRIDS[puzzle.grid]
    _, sy, sz = result.size
    on = {(x, y, z): colour for x, y, z, _, colour in cover._labelled(result, "#+").tolist()}
    pieces = cover._Pieces(puzzle)
    reach = max(result.size) + lattice.period
    moves = np.array(list(product(range(-reach, reach + 1), repeat=3)), dtype=np.int64)
    moves = moves[lattice.translations_ok(moves)].tolist()
    found = []
    for part in problem.parts:
        rows = []
        for orientation in pieces.orientations(part.shape).tolist():
            for dx, dy, dz in moves:
                row = []
                for x, y, z, _, colour in orientation:
                    at = (x + dx, y + dy, z + dz)
                    if at not in on or not cover._allowed(puzzle, problem, colour, on[at]):
                        break
                    row.append((at[0] * sy + at[1]) * sz + at[2])
                else:
                    rows.append(row)
        found.append(rows)
    return found


@pytest.mark.parametrize("name", [*DESIGNS, "coloured"])
def test_placements_are_every_translate_on_the_result(name: str) -> None:
    """The compiled placements of every part at once are those found one translate at a
    time, in the same order (the options' order, which names the assemblies)."""
    puzzle = coloured() if name == "coloured" else DESIGNS[name][0]()
    problem = puzzle.problems[0]
    result = puzzle.shapes[problem.result]
    board = cover._Board(puzzle, problem, result.size, cover._labelled(result, "#+"))
    pieces = cover._Pieces(puzzle)
    shapes = [pieces.orientations(part.shape) for part in problem.parts]
    found = [rows.tolist() for rows in board.placements(shapes)]
    assert found == placements_one_by_one(puzzle)
    assert all(found)
