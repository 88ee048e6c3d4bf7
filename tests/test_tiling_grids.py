"""BurrTools' solid grids in the tiling library (prism, sphere, rhombic, tetraocta) against
geometry computed here from first principles: each cell as a solid in space (vertices
and centroid), the point group of the grid found by searching the orthogonal maps that
move the cells onto cells, face neighbours as solids sharing three vertices, polyform
counts by a separate enumeration, and small tilings counted by a plain backtracking."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest

from excover.tiling import (
    PRISM,
    RHOMBIC,
    SPHERE,
    TETRAOCTA,
    PrismPattern,
    RhombicPattern,
    SpherePattern,
    TetraOctaPattern,
    Tile,
    Tiling,
    polyprisms,
    polyrhombic_dodecahedra,
    polyspheres,
    rhombic_dodecahedron,
)
from excover.tiling.catalog import polyforms
from excover.tiling.grids import GRIDS, Grid, IsometryGroup

Voxel = tuple[int, ...]
Point = tuple[Fraction, ...]

# ----- the cells as solids, from the description of each grid


def rhombic_solids(blocks: Iterable[Voxel]) -> Mapping[Voxel, frozenset[Point]]:
    """The 24 tetrahedra of each unit cube (block): centre, the centre of a face and the
    two ends of an edge of that face; BurrTools' voxel is 0 or 4 along the face's axis,
    1 or 3 across the edge (towards it), 2 along it."""
    half = Fraction(1, 2)
    solids: dict[Voxel, frozenset[Point]] = {}
    for block in blocks:
        centre = tuple(Fraction(b) + half for b in block)
        for face, side in product(range(3), (0, 1)):
            face_centre = list(centre)
            face_centre[face] = Fraction(block[face] + side)
            for across in (a for a in range(3) if a != face):
                along = 3 - face - across
                for edge_side in (0, 1):
                    ends = []
                    for end in (0, 1):
                        corner = [Fraction(0)] * 3
                        corner[face] = Fraction(block[face] + side)
                        corner[across] = Fraction(block[across] + edge_side)
                        corner[along] = Fraction(block[along] + end)
                        ends.append(tuple(corner))
                    voxel = [0, 0, 0]
                    voxel[face] = 4 * side
                    voxel[across] = 3 if edge_side else 1
                    voxel[along] = 2
                    key = (
                        5 * block[0] + voxel[0],
                        5 * block[1] + voxel[1],
                        5 * block[2] + voxel[2],
                    )
                    solids[key] = frozenset([centre, tuple(face_centre), *ends])
    return solids


def tetra_octa_solids(blocks: Iterable[Voxel]) -> Mapping[Voxel, frozenset[Point]]:
    """Each unit cube: the regular tetrahedron on four corners with the parity of the
    cube's, and the four corner tetrahedra on the others (each corner with its three
    neighbouring corners); voxel 1 (centre) or 0/2 (the corner) on each axis of the block."""
    solids: dict[Voxel, frozenset[Point]] = {}
    for block in blocks:
        parity = sum(block) % 2
        corners = list(product((0, 1), repeat=3))

        def point(k: tuple[int, ...], b: Voxel = block) -> Point:
            return tuple(Fraction(b[i] + k[i]) for i in range(3))

        regular = [k for k in corners if (sum(k) + parity) % 2 == 0]
        centre = tuple(3 * b + 1 for b in block)
        solids[(centre[0], centre[1], centre[2])] = frozenset(point(k) for k in regular)
        for k in corners:
            if k in regular:
                continue
            near = [m for m in corners if sum(abs(a - b) for a, b in zip(k, m, strict=True)) == 1]
            voxel = tuple(3 * block[i] + 2 * k[i] for i in range(3))
            solids[(voxel[0], voxel[1], voxel[2])] = frozenset(point(m) for m in [k, *near])
    return solids


def centroid(solid: Iterable[Point]) -> np.ndarray:
    points = np.array([[float(v) for v in p] for p in solid])
    mean: np.ndarray = points.mean(axis=0)
    return mean


def prism_centroid(voxel: Voxel) -> np.ndarray:
    """BurrTools' triangle at column x, row y: up when x + y is even, rows sqrt(3)/2
    apart, columns half a side apart; layers 1 apart."""
    x, y, z = voxel
    height = np.sqrt(3) / 2
    up = (x + y) % 2 == 0
    return np.array([0.5 + 0.5 * x, y * height + height * (1 / 3 if up else 2 / 3), float(z)])


BLOCKS = list(product(range(-1, 3), repeat=3))


def cell_points(name: str) -> dict[Voxel, tuple[np.ndarray, float]]:
    """BurrTools' voxels of the grid around the origin, each with its centroid and a label
    that isometries keep (the volume)."""
    if name == "rhombic":
        return {v: (centroid(s), 1.0) for v, s in rhombic_solids(BLOCKS).items()}
    if name == "tetraocta":
        solids = tetra_octa_solids(BLOCKS)
        return {v: (centroid(s), float(len(s))) for v, s in solids.items()}  # 4 vertices each
    if name == "sphere":
        span = range(-3, 4)
        return {
            v: (np.array(v, dtype=float), 1.0) for v in product(span, repeat=3) if sum(v) % 2 == 0
        }
    return {v: (prism_centroid(v), 1.0) for v in product(range(-8, 9), range(-6, 7), range(-3, 4))}


def label_of(name: str, voxel: Voxel) -> float:
    """Tetraocta: the regular tetrahedron is the centre of a block; others keep one label."""
    if name == "tetraocta":
        return 1.0 if all(v % 3 == 1 for v in voxel) else 0.0
    return 0.0


def point_group(name: str) -> tuple[int, int]:
    """The number of orthogonal maps (and of rotations among them) taking the centroids
    of the cells near the middle onto centroids of cells of the same kind, after some
    translation. A candidate sends three independent shortest steps from one cell to
    steps of the same lengths and angles from some cell near the middle."""
    cells = cell_points(name)
    key = {tuple(np.round(p, 6)): label_of(name, v) for v, (p, _) in cells.items()}
    points = np.array([p for p, _ in cells.values()])
    centre = points.mean(axis=0)
    middle = points[np.linalg.norm(points - centre, axis=1) < 1.6]
    labels = [key[tuple(np.round(p, 6))] for p in middle]

    def steps(p: np.ndarray) -> list[np.ndarray]:
        near = points[np.linalg.norm(points - p, axis=1) < 1.5] - p
        return [d for d in near if np.linalg.norm(d) > 1e-9]

    origin = middle[0]
    basis: list[np.ndarray] = []
    for d in sorted(steps(origin), key=lambda d: round(float(np.linalg.norm(d)), 6)):
        if np.linalg.matrix_rank(np.array([*basis, d]), tol=1e-6) > len(basis):
            basis.append(d)
        if len(basis) == 3:
            break
    base = np.array(basis).T
    gram = base.T @ base
    found: list[np.ndarray] = []
    for target in middle:
        if key[tuple(np.round(target, 6))] != key[tuple(np.round(origin, 6))]:
            continue
        around = steps(target)
        options = [[e for e in around if abs(e @ e - gram[i, i]) < 1e-6] for i in range(3)]
        triples = np.array(list(product(*options))).reshape(-1, 3, 3)  # rows e1, e2, e3
        grams = triples @ triples.transpose(0, 2, 1)  # image.T @ image of each image
        for triple in triples[np.all(np.isclose(grams, gram, atol=1e-6), axis=(1, 2))]:
            image = triple.T
            rotation = image @ np.linalg.inv(base)
            if found and np.all(np.isclose(rotation, found, atol=1e-6), axis=(1, 2)).any():
                continue  # one found already: np.allclose(rotation, r) for some r
            moved = np.round((middle - origin) @ rotation.T + target, 6)
            pairs = zip(moved, labels, strict=True)
            if all(key.get(tuple(m)) == lab for m, lab in pairs):
                found.append(rotation)
    proper = sum(1 for r in found if np.linalg.det(r) > 0)
    return len(found), proper


@pytest.mark.parametrize(
    ("grid", "isometries", "rotations"),
    [
        (PRISM, 24, 12),
        (SPHERE, 48, 24),
        pytest.param(RHOMBIC, 48, 24, marks=pytest.mark.slow),  # seconds of geometry
        (TETRAOCTA, 48, 24),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_group_orders_from_the_geometry(grid: Grid, isometries: int, rotations: int) -> None:
    assert point_group(grid.name) == (isometries, rotations)
    assert len(grid.isometries) == isometries
    assert len(grid.rotations) == rotations


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_every_grid_group_is_closed_and_has_inverses(name: str) -> None:
    """The grids' own groups are made without the check of every product (it would run
    at import); the checked constructor and inverses confirm that they are groups."""
    grid = GRIDS[name]
    for group in (grid.isometries, grid.rotations, grid.trivial):
        assert IsometryGroup(group.name, group.elements) == group  # raises if a product is missing
        assert all((g * g.inverse()).is_identity() for g in group)
    assert grid.rotations.is_subgroup_of(grid.isometries)
    assert len(grid.isometries) in (len(grid.rotations), 2 * len(grid.rotations))
    assert len(grid.trivial) == 1


def geometric_neighbours(solids: Mapping[Voxel, frozenset[Point]]) -> dict[Voxel, set[Voxel]]:
    """Solids sharing a face: three vertices in common."""
    found: dict[Voxel, set[Voxel]] = {v: set() for v in solids}
    by_vertex: dict[Point, list[Voxel]] = {}
    for voxel, solid in solids.items():
        for vertex in solid:
            by_vertex.setdefault(vertex, []).append(voxel)
    for voxel, solid in solids.items():
        near = {w for vertex in solid for w in by_vertex[vertex]} - {voxel}
        found[voxel] = {w for w in near if len(solid & solids[w]) == 3}
    return found


@pytest.mark.parametrize(
    ("grid", "solids"),
    [(RHOMBIC, rhombic_solids), (TETRAOCTA, tetra_octa_solids)],
    ids=["rhombic", "tetraocta"],
)
def test_cells_and_face_neighbours_match_the_solids(
    grid: Grid, solids: Callable[[Iterable[Voxel]], Mapping[Voxel, frozenset[Point]]]
) -> None:
    blocks = list(product(range(-1, 3), repeat=3))
    made = solids(blocks)
    period = 3 if grid is TETRAOCTA else 5
    inner = [v for v in made if all(0 <= c < 2 * period for c in v)]  # blocks 0 and 1
    box = product(range(min(min(v) for v in made), max(max(v) for v in made) + 1), repeat=3)
    assert {v for v in box if grid.is_cell(v)} == set(made)
    expected = geometric_neighbours(made)
    assert grid.lattice is not None
    for voxel in inner:
        assert set(grid.lattice.neighbours(voxel)) == expected[voxel], voxel


def test_rhombic_dodecahedron_is_the_tetrahedra_inside_it() -> None:
    """|x| + |y| <= 1 for each pair of axes, around the centre of the cube (0, 0, 0)."""
    inside = set()
    for voxel, solid in rhombic_solids(product(range(-1, 2), repeat=3)).items():
        c = centroid(solid) - 0.5
        if all(abs(c[i]) + abs(c[j]) <= 1 for i, j in combinations(range(3), 2)):
            inside.add(voxel)
    assert set(rhombic_dodecahedron((0, 0, 0))) == inside
    assert len(inside) == 48


# ----- polyforms, by another enumeration


def separate_count(
    cells: AbstractSet[Voxel],
    steps: Callable[[Voxel], list[Voxel]],
    n: int,
    maps: list[Callable[[Voxel], Voxel]],
    shift: Callable[[list[Voxel]], list[Voxel]],
) -> int:
    """Connected sets of n cells grown from every cell in ``cells`` (a set of cells
    holding one of each class up to translation), counted up to ``maps`` and translation
    (``shift`` brings a set to a canonical translate)."""
    seen: set[tuple[Voxel, ...]] = set()
    frontier = {tuple(shift([c])) for c in cells}
    for _ in range(n - 1):
        frontier = {
            tuple(sorted(shift([*shape, extra])))
            for shape in frontier
            for cell in shape
            for extra in steps(cell)
            if extra not in shape
        }
    for shape in frontier:
        seen.add(min(tuple(sorted(shift([g(c) for c in shape]))) for g in maps))
    return len(seen)


def fcc_shift(cells: list[Voxel]) -> list[Voxel]:
    low = [min(c[i] for c in cells) for i in range(3)]
    if sum(low) % 2:
        low[0] -= 1
    return sorted(tuple(c[i] - low[i] for i in range(3)) for c in cells)


def cube_maps(proper: bool) -> list[Callable[..., Voxel]]:
    maps = []
    for perm in ((0, 1, 2), (1, 2, 0), (2, 0, 1), (1, 0, 2), (0, 2, 1), (2, 1, 0)):
        odd = perm in ((1, 0, 2), (0, 2, 1), (2, 1, 0))
        for signs in product((1, -1), repeat=3):
            if proper and (odd != (np.prod(signs) < 0)):
                continue

            def g(v: Voxel, p: tuple[int, ...] = perm, s: tuple[int, ...] = signs) -> Voxel:
                return (s[0] * v[p[0]], s[1] * v[p[1]], s[2] * v[p[2]])

            maps.append(g)
    return maps


def fcc_steps(v: Voxel) -> list[Voxel]:
    return [
        (v[0] + a, v[1] + b, v[2] + c)
        for a, b, c in product((-1, 0, 1), repeat=3)
        if abs(a) + abs(b) + abs(c) == 2
    ]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_polyspheres_against_another_enumeration(n: int) -> None:
    origin = {(0, 0, 0)}
    free = separate_count(origin, fcc_steps, n, cube_maps(False), fcc_shift)
    one_sided = separate_count(origin, fcc_steps, n, cube_maps(True), fcc_shift)
    fixed = separate_count(origin, fcc_steps, n, [lambda v: v], fcc_shift)
    assert len(polyspheres(n)) == free
    assert len(polyspheres(n, "rotations")) == one_sided
    assert len(polyspheres(n, "none")) == fixed
    if n == 3:  # three touching spheres make an angle of 60, 90, 120 or 180 degrees
        assert free == 4


def test_polyrhombic_dodecahedra_are_polyspheres_of_48_cells() -> None:
    shapes = polyrhombic_dodecahedra(3)
    assert len(shapes) == len(polyspheres(3))
    for shape in shapes:
        assert len(shape) == 3 * 48
        # face-connected through the rhombic grid's neighbours
        cells = set(shape.cells)
        start = next(iter(cells))
        reached, todo = {start}, [start]
        while todo:
            assert RHOMBIC.lattice is not None
            for w in RHOMBIC.lattice.neighbours(todo.pop()):
                if w in cells and w not in reached:
                    reached.add(w)
                    todo.append(w)
        assert reached == cells


def prism_steps(v: Voxel) -> list[Voxel]:
    """Triangles share an edge with the two beside them in the row and the one above a
    down triangle's flat top or below an up one's; prisms share the layers' faces too."""
    x, y, z = v
    up = (x + y) % 2 == 0
    return [
        (x - 1, y, z),
        (x + 1, y, z),
        (x, y - 1 if up else y + 1, z),
        (x, y, z - 1),
        (x, y, z + 1),
    ]


def prism_maps(proper: bool) -> list[Callable[..., Voxel]]:
    """The 24 (or 12) maps of BurrTools' prism voxels, by turning centroids in space."""
    height = np.sqrt(3) / 2
    maps = []
    for k, mirror, flip in product(range(6), (False, True), (False, True)):
        if proper and mirror != flip:
            continue
        angle = k * np.pi / 3
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        if mirror:
            turn = turn @ np.diag([1.0, -1.0])

        def g(v: Voxel, t: np.ndarray = turn, f: bool = flip) -> Voxel:
            p = prism_centroid(v)
            q = t @ p[:2]
            y = int(np.floor(q[1] / height))
            x = round(float(2 * q[0] - 1))
            return (x, y, -v[2] if f else v[2])

        maps.append(g)
    return maps


def prism_shift(cells: list[Voxel]) -> list[Voxel]:
    low = [min(c[i] for c in cells) for i in range(3)]
    if (low[0] + low[1]) % 2:
        low[0] -= 1
    return sorted(tuple(c[i] - low[i] for i in range(3)) for c in cells)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_polyprisms_against_another_enumeration(n: int) -> None:
    seeds = {(0, 0, 0), (1, 0, 0)}  # a triangle pointing up and one pointing down
    free = separate_count(seeds, prism_steps, n, prism_maps(False), prism_shift)
    one_sided = separate_count(seeds, prism_steps, n, prism_maps(True), prism_shift)
    fixed = separate_count(seeds, prism_steps, n, [lambda v: v], prism_shift)
    assert len(polyprisms(n)) == free
    assert len(polyprisms(n, "rotations")) == one_sided
    assert len(polyprisms(n, "none")) == fixed


def test_cells_of_every_class_seed_the_polyforms() -> None:
    assert len(polyforms("rhombic", 1, "none")) == 24  # the tetrahedra of a cube
    assert len(polyforms("tetraocta", 1)) == 2  # a regular and a corner tetrahedron
    assert len(polyforms("tetraocta", 1, "none")) == 10  # two blocks make a translation


def test_patterns_check_their_cells_and_convert_voxels() -> None:
    with pytest.raises(Exception, match="not a cell of the sphere grid"):
        SpherePattern([(1, 0, 0)])
    with pytest.raises(Exception, match="not a cell of the rhombic grid"):
        RhombicPattern([(2, 2, 2)])
    with pytest.raises(Exception, match="not a cell of the tetraocta grid"):
        TetraOctaPattern([(0, 0, 0)])
    voxels = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 3)]
    prisms = PrismPattern.from_voxels(voxels)
    assert prisms.voxels() == sorted(voxels)
    assert all(sum(c[:3]) in (1, 2) for c in prisms.cells)
    up = [(x, y, z) for x, y, z in voxels if (x + y) % 2 == 0]
    assert sorted(c for c in prisms.cells if sum(c[:3]) == 1) == sorted(
        PrismPattern.from_voxels(up).cells
    )


# ----- small tilings, counted by backtracking


def backtrack(board: AbstractSet[Voxel], placements: list[frozenset[Voxel]]) -> int:
    if not board:
        return 1
    first = min(board)
    return sum(backtrack(board - p, placements) for p in placements if first in p and p <= board)


def every_placement(
    board: AbstractSet[Voxel],
    shape: Sequence[Voxel],
    maps: list[Callable[[Voxel], Voxel]],
    shift: Callable[[list[Voxel]], list[Voxel]],
) -> list[frozenset[Voxel]]:
    found = set()
    for g in maps:
        image = shift([g(c) for c in shape])
        for target in board:
            move = [target[i] - image[0][i] for i in range(3)]
            placed = frozenset((c[0] + move[0], c[1] + move[1], c[2] + move[2]) for c in image)
            if placed <= board and shift(list(placed)) == image:
                found.add(placed)
    return list(found)


def test_sphere_tiling_counted_by_backtracking() -> None:
    board = {v for v in product(range(4), range(3), range(2)) if sum(v) % 2 == 0}
    shapes = zip("abcd", polyspheres(3), strict=True)
    pieces = {name: [tuple(c) for c in p.cells] for name, p in shapes}
    tiles = [Tile(SpherePattern(cells), name, "any") for name, cells in pieces.items()]
    tiling = Tiling(SpherePattern(board), tiles)
    placements = [
        p
        for cells in pieces.values()
        for p in every_placement(board, cells, cube_maps(False), fcc_shift)
    ]
    assert tiling.count() == backtrack(board, placements) > 0


def test_prism_tiling_counted_by_backtracking() -> None:
    board = {(x, y, z) for x in range(6) for y in range(2) for z in range(2)}
    shapes = polyprisms(3)
    tiles = [Tile(s, f"t{k}", "any") for k, s in enumerate(shapes)]
    tiling = Tiling(PrismPattern.from_voxels(board), tiles)
    placements = [
        p
        for s in shapes
        for p in every_placement(board, s.voxels(), prism_maps(False), prism_shift)
    ]
    assert tiling.count() == backtrack(board, placements) > 0
