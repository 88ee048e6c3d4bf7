"""Pictures of the solid grids (prisms, balls, rhombic and tetrahedra-octahedra cells): the
layers in SVG, the isometric and exploded views, and ``excover solve PUZZLE --svg``.

The painter's order of the isometric view is checked against ray casting: at random
points of the picture of random cells, the last shape drawn there must belong to the cell
a ray from the viewer meets first, each cell being the convex hull of its corners (on
the rhombic and tetrahedra-octahedra grids, the corners of ``test_tiling_grids``' own
description of the solids) or a ball.
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from functools import cache
from itertools import combinations, product
from pathlib import Path

import numpy as np
import pytest
from test_grids_burrtools import DESIGNS
from test_tiling_grids import rhombic_solids, tetra_octa_solids

from excover.burr.xmpuzzle import write_xmpuzzle
from excover.main import main
from excover.tiling import (
    CUBE,
    PRISM,
    RHOMBIC,
    SPHERE,
    TETRAOCTA,
    PrismPattern,
    RhombicPattern,
    SpherePattern,
    Tile,
    Tiling,
    TilingSolution,
    polyprisms,
    polyspheres,
    rhombic_dodecahedron,
)
from excover.tiling.colours import tile_colour
from excover.tiling.geometry import cell_faces, point
from excover.tiling.grids import Grid
from excover.tiling.render import pattern_svg, pieces_svg
from excover.tiling.solidview import VIEW, solid_svg

SVG = "{http://www.w3.org/2000/svg}"
GRIDS = [CUBE, PRISM, SPHERE, RHOMBIC, TETRAOCTA]


def sphere_solution() -> TilingSolution:
    board = SpherePattern([v for v in product(range(4), range(3), range(2)) if sum(v) % 2 == 0])
    pieces = [Tile(p, f"t{k}", "any") for k, p in enumerate(polyspheres(3))]
    found = Tiling(board, pieces).first()
    assert found is not None
    return found


def prism_solution() -> TilingSolution:
    board = PrismPattern.from_voxels(product(range(6), range(2), range(2)))
    pieces = [Tile(s, f"t{k}", "any") for k, s in enumerate(polyprisms(3))]
    found = Tiling(board, pieces).first()
    assert found is not None
    return found


def rhombic_solution() -> TilingSolution:
    centres = [(1, 1, 1), (2, 2, 1), (2, 1, 2), (1, 2, 2)]
    board = RhombicPattern([c for centre in centres for c in rhombic_dodecahedron(centre)])
    one = Tile(RhombicPattern(rhombic_dodecahedron((0, 0, 0))), "rd", "any")
    found = Tiling(board, [one]).first()
    assert found is not None
    return found


SOLUTIONS = {"prism": prism_solution, "sphere": sphere_solution, "rhombic": rhombic_solution}


def groups(svg: str, kind: str | None = None) -> list[ET.Element]:
    """The groups of a picture that carry ``data-piece`` (of one class, if given)."""
    root = ET.fromstring(svg)
    return [
        g
        for g in root.iter(f"{SVG}g")
        if "data-piece" in g.attrib and (kind is None or g.get("class") == kind)
    ]


@pytest.mark.parametrize("name", SOLUTIONS)
def test_layers_one_group_per_piece_one_outline_per_cell(name: str) -> None:
    solution = SOLUTIONS[name]()
    found = groups(solution.svg(each_piece=True))
    assert len(found) == len(solution.placements)
    for group, placement in zip(found, solution.placements, strict=True):
        outlines = group.findall(f"{SVG}polygon")
        assert len(outlines) == len(placement.cells)
        assert {p.get("fill") for p in outlines} == {tile_colour(int(group.get("data-piece", 0)))}
    captions = [t.text for t in ET.fromstring(solution.svg()).iter(f"{SVG}text")]
    layer = 3 if name == "prism" else 2
    assert captions == [f"z = {z}" for z in sorted({c[layer] for p in solution for c in p.cells})]


@pytest.mark.parametrize("name", SOLUTIONS)
def test_exploded_view_one_group_per_piece_one_group_per_cell(name: str) -> None:
    solution = SOLUTIONS[name]()
    pieces = groups(solution.exploded_svg(), "piece")
    assert sorted(int(g.get("data-piece", -1)) for g in pieces) == list(range(len(solution)))
    for group in pieces:
        placement = solution.placements[int(group.get("data-piece", -1))]
        cells = group.findall(f"{SVG}g")
        assert {tuple(int(v) for v in c.get("data-cell", "").split(",")) for c in cells} == set(
            placement.cells
        )
        shapes = group.findall(f".//{SVG}polygon") + group.findall(f".//{SVG}circle")
        assert shapes  # each piece shows


def test_exploded_pieces_move_away_from_the_centre() -> None:
    """Two prisms side by side: pulled apart, the gap between their pictures grows."""
    left, right = [(0, 0, 1, 0)], [(1, 0, 1, 0)]
    fills = ["#ff0000", "#0000ff"]

    def gap(explode: float) -> float:
        root = ET.fromstring(solid_svg(PRISM, [left, right], fills, 20, explode))
        xs = {}
        for g in root.iter(f"{SVG}g"):
            if g.get("class") == "cell":
                points = [
                    float(p.split(",")[0])
                    for polygon in g.iter(f"{SVG}polygon")
                    for p in polygon.get("points", "").split()
                ]
                xs[g.get("data-piece")] = (min(points), max(points))
        first, second = sorted(xs.values())
        return second[0] - first[1]

    assert gap(0.0) < gap(0.5) < gap(1.0)


def test_a_ball_is_a_disc_and_cells_are_drawn_once() -> None:
    balls = [(0, 0, 0), (1, 1, 0), (2, 0, 0)]
    root = ET.fromstring(solid_svg(SPHERE, [balls], ["#808080"]))
    assert len(root.findall(f".//{SVG}circle")) == 3
    assert not root.findall(f".//{SVG}polygon")


def test_pieces_and_patterns_of_every_solid_grid() -> None:
    sheet = ET.fromstring(pieces_svg({f"p{k}": s for k, s in enumerate(polyspheres(3))}))
    assert [t.text for t in sheet.iter(f"{SVG}text")] == [f"p{k}" for k in range(4)]
    assert len(sheet.findall(f".//{SVG}circle")) == 12
    outline = ET.fromstring(pattern_svg(RhombicPattern(rhombic_dodecahedron((0, 0, 0)))))
    assert len(outline.findall(f".//{SVG}polygon")) == 48  # a square at each voxel


# ----- the painter's order against ray casting


def corners(grid: Grid, cell: tuple[int, ...]) -> np.ndarray:
    """The corners of a cell: from ``test_tiling_grids``' solids where it has them."""
    if grid is RHOMBIC or grid is TETRAOCTA:
        block = tuple(v // (5 if grid is RHOMBIC else 3) for v in cell)
        make = rhombic_solids if grid is RHOMBIC else tetra_octa_solids
        solid = make([block])[cell]
        return np.array([[float(v) for v in p] for p in solid])
    keys = {key for face in cell_faces(grid, cell) for key in face}
    return np.array([point(grid, key) for key in sorted(keys)])


def planes(points: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The planes of the faces of the convex hull of a few points: those through three of
    them with all the others on one side, as outward normals and offsets."""
    found: list[tuple[np.ndarray, float]] = []
    for a, b, c in combinations(range(len(points)), 3):
        normal = np.cross(points[b] - points[a], points[c] - points[a])
        if np.linalg.norm(normal) < 1e-9:
            continue
        normal = normal / np.linalg.norm(normal)
        heights = (points - points[a]) @ normal
        if heights.max() < 1e-9:
            found.append((normal, -float(normal @ points[a])))
        elif heights.min() > -1e-9:
            found.append((-normal, float(normal @ points[a])))
    return found


@cache
def cell_planes(grid: Grid, cell: tuple[int, ...]) -> list[tuple[np.ndarray, float]]:
    """The :func:`planes` of a cell's :func:`corners`, found once for all the rays."""
    return planes(corners(grid, cell))


def first_hit(grid: Grid, cells: list[tuple[int, ...]], origin: np.ndarray) -> object:
    """The cell a ray from the viewer through ``origin`` (along VIEW) meets first, None for
    none, or "unsure" when two cells are met within a hair of each other (an edge)."""
    entries = []
    for cell in cells:
        if grid is SPHERE:
            centre = np.array(cell, dtype=float) / math.sqrt(2)
            along = float((centre - origin) @ VIEW)
            miss = float(np.linalg.norm(origin + along * VIEW - centre))
            if miss < 0.5 - 1e-3:
                entries.append((along - math.sqrt(0.25 - miss**2), cell))
            elif miss < 0.5 + 1e-3:
                return "unsure"
            continue
        enter, leave = -math.inf, math.inf
        for normal, offset in cell_planes(grid, cell):  # normal . x + offset <= 0 inside
            slope = float(np.dot(normal, VIEW))
            height = float(np.dot(normal, origin) + offset)
            if abs(slope) < 1e-12:
                if height > 0:
                    enter, leave = 1.0, 0.0
                continue
            bound = -height / slope
            if slope > 0:
                leave = min(leave, bound)
            else:
                enter = max(enter, bound)
        if leave - enter > 1e-3:
            entries.append((enter, cell))
        elif leave - enter > -1e-3:
            return "unsure"
    if not entries:
        return None
    entries.sort()
    if len(entries) > 1 and entries[1][0] - entries[0][0] < 1e-3:
        return "unsure"
    return entries[0][1]


@cache
def polygon(points: str) -> list[tuple[float, ...]]:
    """The corners of an SVG polygon's ``points``, read once for all the rays."""
    return [tuple(float(v) for v in p.split(",")) for p in points.split()]


def inside(spot: tuple[float, float], shape: ET.Element, margin: float) -> bool | None:
    """Whether a picture point is inside a convex polygon or a disc; None near its edge."""
    if shape.tag == f"{SVG}circle":
        r = float(shape.get("r", 0))
        d = math.hypot(spot[0] - float(shape.get("cx", 0)), spot[1] - float(shape.get("cy", 0)))
        return None if abs(d - r) < margin else d < r
    outline = polygon(shape.get("points", ""))
    signs = []
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1], strict=True):
        length = math.hypot(bx - ax, by - ay)
        signs.append(((bx - ax) * (spot[1] - ay) - (by - ay) * (spot[0] - ax)) / length)
    if all(s > margin for s in signs) or all(s < -margin for s in signs):
        return True
    if any(abs(s) <= margin for s in signs):
        return None
    return False


def near_cells(grid: Grid, rng: random.Random) -> list[tuple[int, ...]]:
    """A random handful of the cells of a small region of the grid."""
    if grid is PRISM:
        box = product(range(-1, 3), range(-1, 3), range(-1, 4), range(2))
        region: list[tuple[int, ...]] = [c for c in box if grid.is_cell(c)]
    else:
        span = {"cube": 3, "sphere": 4, "rhombic": 10, "tetraocta": 6}[grid.name]
        region = [c for c in product(range(span), repeat=3) if grid.is_cell(c)]
    return rng.sample(region, rng.randint(2, min(len(region), 14)))


def projection_matrix() -> np.ndarray:
    c = math.cos(math.radians(30))
    return np.array([[c, c, 0.0], [-0.5, 0.5, 1.0]])


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.name)
# one random scene per grid by default, two more in the slow run (-m slow)
@pytest.mark.parametrize("seed", [2, *(pytest.param(s, marks=pytest.mark.slow) for s in (0, 1))])
def test_painters_order_matches_ray_casting(grid: Grid, seed: int) -> None:
    rng = random.Random(seed)
    cells = near_cells(grid, rng)
    size = 20.0
    svg = solid_svg(grid, [[c] for c in cells], [tile_colour(k) for k in range(len(cells))], size)
    drawn = [
        (tuple(int(v) for v in g.get("data-cell", "").split(",")), shape)
        for g in groups(svg, "cell")
        for shape in g
        if shape.tag in (f"{SVG}polygon", f"{SVG}circle")
    ]
    to_picture = projection_matrix()
    if grid is SPHERE:
        spots = [
            to_picture @ (np.array(c) / math.sqrt(2)) + d
            for c in cells
            for d in ([0.0, 0.0], [-0.613, 0], [0.613, 0], [0, -0.613], [0, 0.613])
        ]
    else:
        spots = [to_picture @ p for c in cells for p in corners(grid, c)]
    left = min(s[0] for s in spots) - 0.25
    top = max(s[1] for s in spots) + 0.25
    right = max(s[0] for s in spots) + 0.25
    bottom = min(s[1] for s in spots) - 0.25
    from_picture = np.linalg.pinv(to_picture)
    checked = 0
    for _ in range(300):
        u = left + rng.random() * (right - left)
        w = bottom + rng.random() * (top - bottom)
        expected = first_hit(grid, cells, from_picture @ np.array([u, w]))
        spot = ((u - left) * size, (top - w) * size)
        last = None
        unsure = False
        for cell, shape in drawn:
            where = inside(spot, shape, 0.05)
            if where is None:
                unsure = True
            elif where:
                last = cell
        if unsure or expected == "unsure":
            continue
        assert last == expected, (grid.name, cells, u, w)
        checked += 1
    assert checked > 150


# ----- the command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("name", DESIGNS)
def test_solve_draws_an_assembly_of_a_puzzle(
    name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    puzzle = tmp_path / f"{name}.xmpuzzle"
    write_xmpuzzle(DESIGNS[name][0](), puzzle)
    picture = tmp_path / "out.svg"
    status, out, err = run(capsys, "solve", str(puzzle), "--limit", "1", "--svg", str(picture))
    assert status == 0 and f"solution 1 drawn in {picture}" in err
    listed = out.split("solution 1:\n", 1)[1].strip().splitlines()
    pieces = groups(picture.read_text(), "piece")
    assert len(pieces) == len([line for line in listed if line.startswith("shape")])
    cells = sum(len(g.findall(f"{SVG}g")) for g in pieces)
    assert cells == sum(len(line.split()) - 1 for line in listed)


def test_solve_draws_a_cube_puzzle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[1] / "examples"
    picture = tmp_path / "soma.svg"
    soma = str(examples / "soma.xmpuzzle")
    status, _, _ = run(capsys, "solve", soma, "--limit", "1", "--svg", str(picture))
    assert status == 0
    assert len(groups(picture.read_text(), "piece")) == 7
