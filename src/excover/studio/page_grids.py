"""What the page knows of the grids, sent by the server (``api/catalog``'s ``grids`` and
``drawings``) so that the page keeps no copy of them (issue 79, item 2).

The page draws a layer of a drawing (rows of ``*`` and ``.``, :mod:`excover.studio.cells`)
in one of a few *drawings*: the square, hexagonal and triangular grids' cells, and the
discs of the packings' spots. Each is read off the grid's own outline
(:class:`~excover.tiling.outlines.Outline`): the polygon of the cell at column ``x``, row
``y`` of a frame (``y`` from the top) is ``polygons[(x + y) % 2]`` (one polygon but on
alternating grids) moved to ``(x * advance[0] + (y % 2) * stagger, y * advance[1])``, in
units of a cell of about the page's size; ``box`` is a cell's width and height, so that a
frame of ``w`` by ``h`` cells is ``(w - 1) * advance[0] + (stagger if h > 1) + box[0]``
wide and ``(h - 1) * advance[1] + box[1]`` high.

For each grid the studio edits (:data:`excover.studio.cells.GRIDS`): whether it is drawn
as a box of layers (``solid``), the drawing of its layers, which spots of a layer may
hold a cell (``mask``: the spots of a period, ``mask[z][y][x]`` with ``y`` from the
frame's bottom, or None when every spot may), the steps by which a drawing shifts onto
cells of the same kind (``shift``), whether its drawings turn and mirror spot by spot
(``turning``), the longest side of a board (``max_side``), BurrTools' number and how many
cells a spot stands for, the words for it in the page's grid menu (``label``) and the
width, height and layers of a new board (``frame``) (the grid's
:attr:`~excover.tiling.grids.GridTraits.studio_label` and ``studio_frame``), whether the
burr workshop plays puzzles on it (``plays``: a new puzzle starts on its grid), and the
gap in millimetres of a solution's STL file by default (``stl_gap``, the command line's
``--gap``; None where the pieces are not moved apart); and the workshop's plain voxels
(:data:`VOXELS`), drawn as BurrTools' cubes are, which the grid menu does not offer
(``label`` None).
"""

from __future__ import annotations

import math
from functools import cache
from itertools import product
from typing import Any

from excover.studio.cells import GRIDS, on_grid, shape
from excover.studio.design import max_side
from excover.studio.disassembly import BURR_GRIDS
from excover.studio.library import stl_gap
from excover.tiling.grids import GRIDS as REGISTRY
from excover.tiling.grids import Grid, by_burrtools

__all__ = ["BALL", "VOXELS", "page_grids"]

#: The drawing of the packings' spots: a disc in its square.
BALL = "ball"
#: The name of the workshop's drawing of BurrTools' voxels (any grid's, as its cube's).
VOXELS = "voxels"
#: A disc's radius, in squares.
_DISC = 0.48
#: A triangle's width on the page, in cells of the page's size (two triangles, up and
#: down, take one and a half of it); every other cell is one wide.
_TRIANGLE_WIDTH = 1.25
#: The longest period of the spots that may hold a cell that is looked for.
_MOST_PERIOD = 12

Point = tuple[float, float]


def _polygon(grid: Grid, x: int, y: int) -> list[Point]:
    """The outline, in the grid's own units (y upward), of the cell at column ``x``, row
    ``y`` of a frame two rows high."""
    rows = tuple("".join("*" if (j, i) == (x, y) else "." for j in range(x + 1)) for i in range(2))
    (cell,) = shape(grid.name, (rows,)).coords().tolist()
    return [(float(px), float(py)) for px, py in grid.traits.outline.polygon(cell)]


def _drawing(grid: Grid) -> dict[str, Any]:
    """The drawing of a planar grid's cells on the page (see the module's notes)."""
    outline = grid.traits.outline
    first = _polygon(grid, 0, 0)
    width = max(x for x, _ in first) - min(x for x, _ in first)
    scale = (_TRIANGLE_WIDTH if outline.alternating else 1.0) / width

    def paged(points: list[Point]) -> list[Point]:
        return [(x * scale, -y * scale) for x, y in points]

    def origin(points: list[Point]) -> Point:
        return min(x for x, _ in points), min(y for _, y in points)

    cells = {(x, y): paged(_polygon(grid, x, y)) for x, y in product(range(2), repeat=2)}
    o00, o10, o01 = origin(cells[0, 0]), origin(cells[1, 0]), origin(cells[0, 1])
    kinds = [(0, 0), (1, 0)] if outline.alternating else [(0, 0)]
    polygons = []
    for key in kinds:
        ox, oy = origin(cells[key])
        polygons.append([[round(x - ox, 9), round(y - oy, 9)] for x, y in cells[key]])
    box = [
        round(max(x for x, _ in cells[0, 0]) - o00[0], 9),
        round(max(y for _, y in cells[0, 0]) - o00[1], 9),
    ]
    return {
        "advance": [round(o10[0] - o00[0], 9), round(o01[1] - o00[1], 9)],
        "stagger": round(o01[0] - o00[0], 9),
        "alternating": outline.alternating,
        "polygons": polygons,
        "box": box,
    }


def _disc(square: dict[str, Any]) -> dict[str, Any]:
    """The drawing of the packings' spots: the square's layout, each spot the outline of
    a ball (of the grid whose cells are balls) as a disc in its square."""
    ball = next(g for g in REGISTRY.values() if g.traits.solid is not None and g.traits.solid.ball)
    corners = ball.traits.outline.polygon((0, 0, 0))
    radius = max(math.hypot(x, y) for x, y in corners)
    half = square["box"][0] / 2
    disc = [
        [round(half + x * _DISC / radius, 9), round(half - y * _DISC / radius, 9)]
        for x, y in corners
    ]
    return {**square, "alternating": False, "polygons": [disc]}


def _period(grid: str) -> int:
    """The smallest period of the spots of ``grid``'s layers that may hold a cell."""
    box = range(_MOST_PERIOD)
    spots = {(x, y, z): on_grid(grid, x, y, z) for x, y, z in product(box, repeat=3)}
    for period in range(1, _MOST_PERIOD // 2 + 1):
        if all(on == spots[x % period, y % period, z % period] for (x, y, z), on in spots.items()):
            return period
    return _MOST_PERIOD


def _grid(name: str, drawings: dict[str, dict[str, Any]]) -> dict[str, Any]:
    grid = REGISTRY[name]
    flat = grid.layer_grid if grid.solid else grid
    layer = BALL if grid.traits.packed else flat.name
    if flat.name not in drawings:
        drawings[flat.name] = _drawing(flat)
    if layer not in drawings:
        drawings[layer] = _disc(drawings[flat.name])
    drawing = drawings[layer]
    period = _period(name)
    mask = None
    if period > 1 or not on_grid(name, 0, 0, 0):
        box = range(period)
        mask = [[[on_grid(name, x, y, z) for x in box] for y in box] for z in box]
    columns = 2 if drawing["alternating"] else 1
    rows = 2 if drawing["alternating"] or drawing["stagger"] else 1
    return {
        "solid": grid.solid,
        "layer": layer,
        "mask": mask,
        "shift": [math.lcm(columns, period), math.lcm(rows, period), period],
        "turning": mask is None and columns == rows == 1,
        "max_side": max_side(name),
        "burrtools": grid.traits.burrtools,
        "spot_cells": grid.traits.spot_cells,
        "label": grid.traits.studio_label or name,
        "frame": list(grid.traits.studio_frame),
        "plays": name in BURR_GRIDS,
        "stl_gap": stl_gap(grid),
    }


@cache
def page_grids() -> dict[str, Any]:
    """The grids the page edits, by name, and the drawings of their layers (see the
    module's notes)."""
    drawings: dict[str, dict[str, Any]] = {}
    grids = {name: _grid(name, drawings) for name in GRIDS}
    # the workshop's plain voxels of a BurrTools shape on any grid: drawn as the cube's
    grids[VOXELS] = {**grids[by_burrtools(0).name], "burrtools": None, "label": None}
    return {"grids": grids, "drawings": drawings}
