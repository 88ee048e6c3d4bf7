"""Isometric pictures of cubic tilings, and what a notebook shows of tilings.

The painter's order is checked against ray casting: at random points of the picture of a
random set of cubes, the last polygon drawn there must be the face that a ray from the
viewer meets first.
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

import pytest

from excover.errors import UsageError
from excover.tiling import (
    Pattern,
    Pattern3,
    Tile,
    Tiling,
    TilingSolution,
    pentominoes,
    soma_pieces,
    tiles,
)
from excover.tiling.colours import tile_colour
from excover.tiling.render import pattern_isometric_svg, solution_isometric_svg, solution_svg

SVG = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
Cell = tuple[int, int, int]


def polygons(svg: str) -> list[tuple[list[Point], str]]:
    """The polygons of an SVG document in drawing order: corners and fill."""
    root = ET.fromstring(svg)
    found = []
    for polygon in root.iter(f"{SVG}polygon"):
        corners = [
            (float(x), float(y))
            for x, y in (pair.split(",") for pair in polygon.attrib["points"].split())
        ]
        found.append((corners, polygon.attrib["fill"]))
    return found


def cube_tiling(cells: list[Cell]) -> TilingSolution:
    """The tiling of these cells by single cubes: one placement per cell."""
    monocube = Tile(Pattern3.from_cells([(0, 0, 0)]), "c", "any")
    solution = Tiling(Pattern3.from_cells(cells), [monocube]).first()
    assert solution is not None
    return solution


def family(fill: str, base: str) -> bool:
    """Whether ``fill`` is ``base`` lightened or darkened (the channels keep their order
    relative to pure white or black mixing)."""
    f = [int(fill[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i : i + 2], 16) for i in (1, 3, 5)]
    for target in (0, 255):
        ratios = {
            round((t - target) / (c - target), 2) for t, c in zip(f, b, strict=True) if c != target
        }
        if len(ratios) == 1 or max(ratios) - min(ratios) < 0.03:
            return True
    return False


def test_one_cube_shows_three_faces() -> None:
    found = polygons(solution_isometric_svg(cube_tiling([(0, 0, 0)])))
    assert len(found) == 3
    fills = {fill for _, fill in found}
    assert len(fills) == 3  # top, right, front: three shades
    assert all(family(fill, tile_colour(0)) for fill in fills)


def test_a_2x2x2_cube_shows_twelve_faces() -> None:
    cells = [(x, y, z) for x in range(2) for y in range(2) for z in range(2)]
    assert len(polygons(solution_isometric_svg(cube_tiling(cells)))) == 12
    assert len(polygons(pattern_isometric_svg(Pattern3.constant(2, 2, 2)))) == 12


def test_each_piece_gets_its_colour() -> None:
    """Two equal dominoes: two colours with each_piece, one without."""
    domino = Tile(Pattern3.from_cells([(0, 0, 0), (1, 0, 0)]), "d", "any")
    solution = Tiling(Pattern3.constant(2, 2, 1), [domino]).first()
    assert solution is not None and len(solution) == 2
    apart = polygons(solution_isometric_svg(solution))
    bases = [tile_colour(0), tile_colour(1)]
    assert {next(b for b in bases if family(fill, b)) for _, fill in apart} == set(bases)
    together = polygons(solution_isometric_svg(solution, each_piece=False))
    assert all(family(fill, tile_colour(0)) for _, fill in together)
    assert len(apart) == len(together) == 8  # 4 tops, 2 fronts, 2 right sides
    # one domino shows 2 tops and 1 end, the other 2 tops, 1 end and its 2-cube side
    assert sum(1 for _, fill in apart if family(fill, tile_colour(0))) in (3, 5)


def project(point: tuple[float, float, float]) -> Point:
    x, y, z = point
    return ((x + y) * math.cos(math.radians(30)), z + (y - x) / 2)


def face_corners(cell: Cell, axis: int) -> set[tuple[float, float, float]]:
    """The corners of the face of ``cell`` the viewer sees along ``axis`` (+x, -y, +z)."""
    low = [float(v) for v in cell]
    if axis != 1:
        low[axis] += 1
    corners = set()
    for a in (0, 1):
        for b in (0, 1):
            corner = list(low)
            others = [k for k in range(3) if k != axis]
            corner[others[0]] += a
            corner[others[1]] += b
            corners.add((corner[0], corner[1], corner[2]))
    return corners


def seen_along_ray(cells: list[Cell], u: float, w: float) -> tuple[Cell, int] | None:
    """The cube and the face a ray from the viewer meets first at picture point (u, w),
    None for the background or a point too near an edge to tell."""
    x0 = (u / math.cos(math.radians(30)) - 2 * w) / 2
    y0 = (u / math.cos(math.radians(30)) + 2 * w) / 2
    # the ray is (x0 + t, y0 - t, t); a larger t is nearer the viewer
    best: tuple[float, Cell, int] | None = None
    for cell in cells:
        x, y, z = cell
        lows = (x - x0, y0 - y - 1, z)
        highs = (x + 1 - x0, y0 - y, z + 1)
        enter, leave = max(lows), min(highs)
        if leave - enter < 1e-3:
            if leave - enter > -1e-3:
                return None  # grazing an edge
            continue
        ordered = sorted(highs)
        if ordered[1] - ordered[0] < 1e-3:
            return None  # on an edge between two faces
        if best is None or leave > best[0]:
            best = (leave, cell, highs.index(leave))
    return None if best is None else (best[1], best[2])


def inside(point: Point, corners: list[Point], margin: float) -> bool | None:
    """Whether a point is inside a convex polygon: None when within ``margin`` of an edge."""
    signs = []
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        length = math.hypot(bx - ax, by - ay)
        signs.append(((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)) / length)
    if all(s > margin for s in signs) or all(s < -margin for s in signs):
        return True
    if any(abs(s) <= margin for s in signs):
        return None
    return False


@pytest.mark.parametrize("seed", range(12))
def test_painters_order_matches_ray_casting(seed: int) -> None:
    rng = random.Random(seed)
    box = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)]
    cells = rng.sample(box, rng.randint(2, 14))
    size = 20.0
    drawn = polygons(solution_isometric_svg(cube_tiling(cells), size))
    spots = [project(c) for cell in cells for c in face_corners(cell, 2) | face_corners(cell, 0)]
    spots += [project(c) for cell in cells for c in face_corners(cell, 1)]
    left = min(u for u, _ in spots) - 0.25
    top = max(w for _, w in spots) + 0.25
    checked = 0
    for _ in range(400):
        u = left + rng.random() * 4.5
        w = top - rng.random() * 5
        expected = seen_along_ray(cells, u, w)
        point = ((u - left) * size, (top - w) * size)
        last = None
        unsure = False
        for corners, _ in drawn:
            where = inside(point, corners, 0.05)
            if where is None:
                unsure = True
            elif where:
                last = corners
        if unsure or (expected is None and seen_along_ray(cells, u, w + 1e-3) is not None):
            continue
        if expected is None:
            assert last is None, (cells, u, w)
        else:
            cell, axis = expected
            outline = {
                (round((p[0] - left) * size, 1), round((top - p[1]) * size, 1))
                for p in map(project, face_corners(cell, axis))
            }
            assert last is not None, (cells, u, w, expected)
            assert {(round(x, 1), round(y, 1)) for x, y in last} == outline, (cells, expected)
        checked += 1
    assert checked > 200


def test_a_pattern_in_grey_and_bad_grids() -> None:
    found = polygons(pattern_isometric_svg(Pattern3.from_layers(["**\n*.", "*.\n.."])))
    assert len(found) == 9
    assert all(family(fill, "#c8ccd4") for _, fill in found)
    flat = Tiling(Pattern.constant(5, 1), tiles({"I": pentominoes()["I"]}))
    solution = flat.first()
    assert solution is not None
    with pytest.raises(UsageError, match=r"solid grid .*not the square"):
        solution_isometric_svg(solution)
    with pytest.raises(UsageError, match=r"solid grid .*not the square"):
        pattern_isometric_svg(Pattern.constant(2, 2))


def soma() -> TilingSolution:
    tiling = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations"))
    solution = tiling.first()
    assert solution is not None
    return solution


def test_layers_with_each_piece_on_the_cubic_grid() -> None:
    solution = soma()
    layered = polygons(solution_svg(solution, each_piece=True))
    assert len(layered) == 27
    assert {fill for _, fill in layered} == {tile_colour(i) for i in range(7)}
    assert polygons(solution.svg(each_piece=True)) == layered


def test_what_a_notebook_shows() -> None:
    solution = soma()
    html = solution._repr_html_()
    pictures = ET.fromstring(html).findall(f"div/{SVG}svg")
    assert len(pictures) == 3  # the layers, the isometric view and the exploded one
    assert len(pictures[0].findall(f".//{SVG}polygon")) == 27
    assert len(pictures[1].findall(f"{SVG}polygon")) == 27  # 3 x 3 on each seen side
    assert ET.tostring(pictures[1]) == ET.tostring(ET.fromstring(solution.isometric_svg()))
    assert ET.tostring(pictures[2]) == ET.tostring(ET.fromstring(solution.exploded_svg()))
    board = ET.fromstring(solution.tiling._repr_html_()).findall(f"div/{SVG}svg")
    assert len(board) == 3  # the layers, the isometric view, the pieces
    flat = Tiling(Pattern.constant(5, 1), tiles({"I": pentominoes()["I"]}))
    first = flat.first()
    assert first is not None
    assert first._repr_html_() == first.svg() == first._repr_svg_()
    views = ET.fromstring(flat._repr_html_()).findall(f"div/{SVG}svg")
    assert len(views) == 2  # the board, the pieces
    assert ET.tostring(views[0]) == ET.tostring(ET.fromstring(flat._repr_svg_()))
