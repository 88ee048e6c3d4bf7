"""Pictures of patterns and tilings: ASCII art and SVG.

Every cell of every grid is drawn as a polygon in the plane (the cells of a solid grid
layer by layer, side by side, the bottom layer on the left, each captioned ``z = k``: a
cube as a square, a triangular prism as its triangle, a ball as a circle around its
centre, and a cell of the rhombic or tetrahedra-octahedra grid as a square at its voxel of
BurrTools' layers, as BurrTools' editor shows them). A tiling colours
each cell by its tile, one colour per tile, and draws a dark line on each polygon edge that
separates two different placements or a placement from the outside, so pieces stand out
even when equal tiles touch, and no line inside a piece. A pattern is drawn in grey with
faint lines between its cells. Patterns and tilings of the solid grids are also drawn in
an isometric view (:mod:`excover.tiling.isometric`, whose functions this module
re-exports; the other solid grids by :mod:`excover.tiling.solidview`), and
:func:`views_html` puts several pictures side by side for a notebook.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from excover.tiling.colours import tile_colour
from excover.tiling.grids import Coords, Grid
from excover.tiling.isometric import pattern_isometric_svg, solution_isometric_svg

if TYPE_CHECKING:
    from excover.tiling.tile import Shape
    from excover.tiling.tiling import TilingSolution

__all__ = [
    "cell_polygons",
    "layer_labels",
    "pattern_isometric_svg",
    "pattern_svg",
    "pieces_svg",
    "solution_ascii",
    "solution_isometric_svg",
    "solution_svg",
    "tile_colour",
    "views_html",
]

Point = tuple[float, float]

#: Characters for placements when tile names cannot serve.
_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def cell_polygons(grid: Grid, coords: Coords) -> list[list[Point]]:
    """The outline of each cell in the plane (y upward), one unit per square side: the
    grid's :class:`~excover.tiling.outlines.Outline`, the layers of a solid grid side by
    side (see the module's notes)."""
    outline = grid.traits.outline
    cells = coords.tolist()
    if outline.layers is None:
        return [outline.polygon(cell) for cell in cells]
    if outline.layers == "columns":
        width = int(coords[:, 0].max()) + 2 if len(coords) else 0
        return [outline.polygon(cell, outline.layer(cell) * width) for cell in cells]
    flat = [outline.polygon(cell) for cell in cells]
    layers = [outline.layer(cell) for cell in cells]
    step = _panel_width(flat)
    low = min(layers, default=0)
    return [
        [(x + (z - low) * step, y) for x, y in cell] for cell, z in zip(flat, layers, strict=True)
    ]


def _panel_width(cells: list[list[Point]]) -> float:
    """How far apart the layers are drawn: the cells' width and a gap."""
    left, right, _, _ = _extent(cells)
    return right - left + 1.5


def layer_labels(grid: Grid, coords: Coords) -> list[tuple[Point, str]]:
    """Captions ``z = k`` under the layers of a pattern of a solid grid drawn by
    :func:`cell_polygons` (none on the planar grids): where each goes, and its text."""
    outline = grid.traits.outline
    if outline.layers is None or len(coords) == 0:
        return []
    if outline.layers == "extent":
        cells = coords.tolist()
        flat = [outline.polygon(cell) for cell in cells]
        layers = [outline.layer(cell) for cell in cells]
        width = _panel_width(flat)
        left, right, bottom, _ = _extent(flat)
        low = min(layers)
        return [
            ((left + (z - low) * width + (right - left) / 2, bottom - 0.8), f"z = {z}")
            for z in sorted(set(layers))
        ]
    width = int(coords[:, 0].max()) + 2
    below = float(coords[:, 1].min()) - 0.8
    return [
        ((z * width + (width - 1) / 2, below), f"z = {z}")
        for z in sorted({int(v) for v in coords[:, -1]})
    ]


def _svg(
    polygons: list[list[Point]],
    fills: list[str],
    owners: list[int],
    size: float,
    labels: Sequence[tuple[Point, str]] = (),
    inner: bool = False,
) -> str:
    """An SVG document: the polygons filled (a run of polygons of one owner in a group
    ``<g data-piece="OWNER">``), and their edges drawn thick where the owners
    on both sides differ (or one side is outside), and thin elsewhere when ``inner`` (a
    pattern's cells; a tiling shows only the borders of its pieces); ``labels`` are
    captions centred on their points (the point being the text's baseline)."""
    points = [p for polygon in polygons for p in polygon]
    if not points:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>'
    for (middle, base), text in labels:  # room for the caption: a third of a cell a letter
        half = 0.17 * len(text)
        points += [(middle - half, base - 0.2), (middle + half, base - 0.2)]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    left, top = min(xs), max(ys)
    margin = 0.25

    def at(point: Point) -> str:
        return f"{(point[0] - left + margin) * size:.2f},{(top - point[1] + margin) * size:.2f}"

    width = (max(xs) - left + 2 * margin) * size
    height = (top - min(ys) + 2 * margin) * size
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f'<rect width="{width:.2f}" height="{height:.2f}" fill="white"/>',
    ]
    edges: dict[tuple[Point, Point], list[int]] = {}
    group = None
    for polygon, fill, owner in zip(polygons, fills, owners, strict=True):
        if owner != group:  # the cells of one placement (or pattern) in one group
            out.append(("</g>\n" if group is not None else "") + f'<g data-piece="{owner}">')
            group = owner
        out.append(
            f'<polygon points="{" ".join(at(p) for p in polygon)}" fill="{fill}" '
            f'stroke="{fill}" stroke-width="0.5"/>'
        )
        for start, end in zip(polygon, polygon[1:] + polygon[:1], strict=True):
            key = tuple(sorted((_rounded(start), _rounded(end))))
            edges.setdefault(key, []).append(owner)  # type: ignore[arg-type]
    if group is not None:
        out.append("</g>")
    thin: list[str] = []
    thick: list[str] = []
    for (start, end), sides in edges.items():
        line = f"M{at(start)}L{at(end)}"
        (thick if len(sides) == 1 or sides[0] != sides[1] else thin).append(line)
    if thin and inner:
        out.append(f'<path d="{"".join(thin)}" stroke="#00000022" stroke-width="1" fill="none"/>')
    stroke = max(2.0, size / 10)
    out.append(
        f'<path d="{"".join(thick)}" stroke="#222" stroke-width="{stroke:.1f}" '
        'stroke-linecap="round" fill="none"/>'
    )
    for point, text in labels:
        cx, cy = at(point).split(",")
        out.append(
            f'<text x="{cx}" y="{cy}" font-family="sans-serif" font-size="{size * 0.55:.1f}" '
            f'text-anchor="middle" fill="#333">{text}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _rounded(point: Point) -> Point:
    return (round(point[0], 4), round(point[1], 4))


def pattern_svg(pattern: Shape, cell_size: float = 24.0) -> str:
    """An SVG picture of a pattern: its cells in grey, its outline dark."""
    coords = pattern.coords()
    polygons = cell_polygons(pattern.grid, coords)
    labels = layer_labels(pattern.grid, coords)
    fills = ["#c8ccd4"] * len(polygons)
    return _svg(polygons, fills, [0] * len(polygons), cell_size, labels, inner=True)


def pieces_svg(shapes: Mapping[str, Shape], cell_size: float = 16.0, per_row: int = 8) -> str:
    """An SVG sheet of named shapes: each in its own colour, its name under it, laid out
    ``per_row`` to a row (a set of pieces at a glance; polycubes in isometric view)."""
    if shapes and all(s.grid.solid for s in shapes.values()):
        return _isometric_sheet(shapes, cell_size, per_row)
    polygons: list[list[Point]] = []
    fills: list[str] = []
    owners: list[int] = []
    labels: list[tuple[Point, str]] = []
    drawn = [cell_polygons(s.grid, s.coords()) for s in shapes.values()]
    boxes = [_extent(cells) for cells in drawn]
    slot_width = (
        max(
            (
                max(right - left, 0.36 * len(name))
                for name, (left, right, _, _) in zip(shapes, boxes, strict=True)
            ),
            default=0.0,
        )
        + 1.2
    )
    slot_height = max((top - bottom for _, _, bottom, top in boxes), default=0.0) + 2.0
    for number, (name, cells, box) in enumerate(zip(shapes, drawn, boxes, strict=True)):
        left, right, bottom, top = box
        row, column = divmod(number, per_row)
        middle = column * slot_width + slot_width / 2
        dx, dy = middle - (left + right) / 2, -row * slot_height - top
        for polygon in cells:
            polygons.append([(x + dx, y + dy) for x, y in polygon])
            fills.append(tile_colour(number))
            owners.append(number)
        labels.append(((middle, -row * slot_height - (top - bottom) - 0.8), name))
    return _svg(polygons, fills, owners, cell_size, labels)


def _isometric_sheet(shapes: Mapping[str, Shape], cell_size: float, per_row: int) -> str:
    """:func:`pieces_svg` of solid pieces: the isometric picture of each, nested in a grid of
    equal slots, its name under it."""
    pictures = [
        pattern_isometric_svg(shape, cell_size, tile_colour(number))
        for number, shape in enumerate(shapes.values())
    ]
    sizes = [
        [float(v) for v in re.findall(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', picture)[0]]
        for picture in pictures
    ]
    label = cell_size * 1.2
    slot_width = max(max(w for w, _ in sizes), *(0.6 * cell_size * len(n) for n in shapes)) + 8
    slot_height = max(h for _, h in sizes) + label
    rows = -(-len(pictures) // per_row)
    width, height = slot_width * min(per_row, len(pictures)), slot_height * rows
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f'<rect width="{width:.2f}" height="{height:.2f}" fill="white"/>',
    ]
    for number, (name, picture, (w, h)) in enumerate(zip(shapes, pictures, sizes, strict=True)):
        row, column = divmod(number, per_row)
        x = column * slot_width + (slot_width - w) / 2
        y = row * slot_height + (slot_height - label - h)
        inner = picture.split(">", 1)[1].rsplit("</svg>", 1)[0]
        out.append(
            f'<svg x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" '
            f'viewBox="0 0 {w:.2f} {h:.2f}">{inner}</svg>'
        )
        out.append(
            f'<text x="{column * slot_width + slot_width / 2:.2f}" '
            f'y="{(row + 1) * slot_height - label * 0.3:.2f}" font-family="sans-serif" '
            f'font-size="{cell_size * 0.55:.1f}" text-anchor="middle" fill="#333">{name}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _extent(polygons: list[list[Point]]) -> tuple[float, float, float, float]:
    """Left, right, bottom and top of polygons (zeros for none)."""
    xs = [x for polygon in polygons for x, _ in polygon] or [0.0]
    ys = [y for polygon in polygons for _, y in polygon] or [0.0]
    return min(xs), max(xs), min(ys), max(ys)


def solution_svg(
    solution: TilingSolution, cell_size: float = 24.0, *, each_piece: bool = False
) -> str:
    """An SVG picture of a tiling: one colour per tile (with ``each_piece``, one per
    placement, so the copies of a tile used several times differ), dark lines between
    placements."""
    tiling = solution.tiling
    number_of = {id(tile): number for number, tile in enumerate(tiling.tiles)}
    cells: list[Sequence[int]] = []
    fills: list[str] = []
    owners: list[int] = []
    for index, placement in enumerate(solution.placements):
        fill = tile_colour(index if each_piece else number_of[id(placement.tile)])
        for cell in placement.cells:
            cells.append(cell)
            fills.append(fill)
            owners.append(index)
    coords = np.array(cells, dtype=np.int64).reshape(-1, tiling.grid.dimension)
    polygons = cell_polygons(tiling.grid, coords)
    return _svg(polygons, fills, owners, cell_size, layer_labels(tiling.grid, coords))


def views_html(*pictures: str) -> str:
    """SVG pictures side by side (wrapping on a narrow page), as one HTML fragment: what
    a notebook shows of a cubic tiling, its layers and its isometric view."""
    cells = "".join(f"<div>{picture}</div>" for picture in pictures)
    return f'<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-end">{cells}</div>'


def solution_ascii(solution: TilingSolution) -> str:
    """A tiling as text, one character per placement: the tile's name when every tile
    has a one-character name and is placed once, else letters and digits in turn; ``.``
    for board cells left uncovered and blanks outside the board. The square grid is
    drawn top row first; the cubic grid as its layers side by side, bottom layer on the
    left (the other solid grids too, by their voxels or, on the prism grid, by the
    triangular grid's drawing); the hexagonal and triangular grids as their ASCII drawings
    (see :mod:`excover.tiling.polyform`)."""
    tiling = solution.tiling
    placements = solution.placements
    names = [p.tile.name or "" for p in placements]
    if all(len(n) == 1 and n != "." for n in names) and len(set(names)) == len(names):
        symbols = names
    else:
        symbols = [_SYMBOLS[i % len(_SYMBOLS)] for i in range(len(placements))]
    marks: dict[tuple[int, ...], str] = {
        tuple(int(v) for v in cell): "." for cell in tiling.cells.tolist()
    }
    for symbol, placement in zip(symbols, placements, strict=True):
        for cell in placement.cells:
            marks[cell] = symbol
    spots = _spots(tiling.grid, marks)
    xs = [x for x, _ in spots]
    ys = [y for _, y in spots]
    left = min(xs)
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = "".join(spots.get((x, y), " ") for x in range(left, max(xs) + 1))
        rows.append(row.rstrip())
    return "\n".join(rows)


def _spots(grid: Grid, marks: dict[tuple[int, ...], str]) -> dict[tuple[int, int], str]:
    """Where each cell's mark goes in ASCII art: its spot of the grid's outline, the
    layers of a solid grid side by side (the cube's a board width apart, the others' by
    the extent of their spots and a gap)."""
    outline = grid.traits.outline
    places = {cell: outline.spot(cell) for cell in marks}
    if outline.layers is None:
        return {places[cell]: mark for cell, mark in marks.items()}
    columns = [x for x, _ in places.values()]
    # the cube's layers a board width apart, the others' by their extent and a gap
    width = max(columns) + 2 if outline.layers == "columns" else max(columns) - min(columns) + 3
    return {
        (places[cell][0] + outline.layer(cell) * width, places[cell][1]): mark
        for cell, mark in marks.items()
    }
