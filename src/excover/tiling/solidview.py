"""Isometric pictures of solids on every solid grid, whole or exploded, as SVG.

The cells are the solids of :mod:`excover.tiling.geometry` (cubes, triangular prisms,
balls, tetrahedra), seen as :mod:`excover.tiling.isometric` sees cubes: along
``(-1, 1, -1)``, x to the right and away, y to the left and away, z up. Of each cell the
faces turned towards the viewer are drawn, shaded by their direction, except a face two
drawn cells share (it is inside the solid); balls are drawn as shaded discs.

The cells are drawn far to near, in the order of their centres' depth (the painter's
algorithm). That order is exact on all these grids: two cells that share a face are
mirror images across it, so the step between their centres is square to the face, and a
ray of sight crossing from one cell into the next goes deeper by that step; the cells a
ray meets, in space filled by cells, are met in the order of their centres' depth.

An *exploded* picture moves each piece away from the centre of the whole by ``explode``
times its own centre's offset from it, so that pieces inside show; it is drawn piece by
piece, far to near by the pieces' moved centres, one SVG group (``<g class="piece">``)
each, which is the right order as long as the moved pieces do not interlock. A dark line
runs along each edge where a piece's surface does not go on flat.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from excover.tiling.colours import shade
from excover.tiling.geometry import (
    Face,
    FloatArray,
    Key,
    cell_centres,
    cell_faces,
    point,
    unit_normal,
)
from excover.tiling.grids import Grid

__all__ = ["VIEW", "face_svg", "piece_surfaces", "project", "solid_svg"]

Point = tuple[float, float]

#: The direction the viewer looks along (unit).
VIEW = np.array([-1.0, 1.0, -1.0]) / math.sqrt(3)

_COS30 = math.cos(math.radians(30))
#: How much a face is lit (:func:`~excover.tiling.colours.shade`) per component of its
#: normal: the cubes' top, right and front shades of :mod:`excover.tiling.isometric`.
_LIGHT = np.array([-0.12, 0.32, 0.3])
#: The radius of a ball on the picture: 1/2, times the scale of the projection.
_BALL = 0.5 * math.sqrt(1.5)


def project(p: Sequence[float] | FloatArray) -> Point:
    """A point of space on the picture (y up), as :mod:`excover.tiling.isometric` has it."""
    x, y, z = (float(v) for v in p)
    return ((x + y) * _COS30, z + (y - x) / 2)


def depth(p: Sequence[float] | FloatArray) -> float:
    """How far a point is from the viewer, along :data:`VIEW`."""
    return float(np.dot(VIEW, np.asarray(p, dtype=float)))


class _Drawn:
    """What one cell puts on the picture: polygons (outline, fill, dark edges) or a disc."""

    def __init__(self, cell: tuple[int, ...], piece: int) -> None:
        self.cell = cell
        self.piece = piece
        self.polygons: list[tuple[list[Point], str, list[tuple[int, int]]]] = []
        self.disc: tuple[Point, int] | None = None


def solid_svg(
    grid: Grid,
    pieces: Sequence[Sequence[Sequence[int]]],
    fills: Sequence[str],
    cell_size: float = 24.0,
    explode: float = 0.0,
    *,
    fit: float | None = None,
) -> str:
    """An isometric SVG picture of ``pieces`` (lists of cells of a solid ``grid``), piece k
    in ``fills[k]``; with ``explode`` > 0, the pieces pulled apart (see the module's
    notes). Each cell is a group ``<g class="cell" data-piece="K" data-cell="x,y,z">``.
    With ``fit``, the cells' size is chosen instead so that the picture's longer side is
    ``fit`` pixels."""
    cells = [[tuple(int(v) for v in c) for c in piece] for piece in pieces]
    centres = [cell_centres(grid, piece) for piece in cells]
    every = np.concatenate([c for c in centres if len(c)] or [np.zeros((0, 3))])
    middle = every.mean(axis=0) if len(every) else np.zeros(3)
    moves = [explode * (c.mean(axis=0) - middle) if len(c) else np.zeros(3) for c in centres]
    counts: dict[Face, int] = {}
    if explode == 0:  # faces between two pieces are inside the whole
        for piece in cells:
            _count_faces(grid, piece, counts)
    drawn_pieces: list[tuple[float, list[tuple[float, _Drawn]]]] = []
    for number, piece in enumerate(cells):
        inside = counts if explode == 0 else _count_faces(grid, piece, {})
        edges = _surface_edges(grid, piece, inside)
        drawn = sorted(
            (
                (
                    depth(centre + moves[number]),
                    _cell(grid, cell, number, fills[number], inside, edges, moves[number]),
                )
                for cell, centre in zip(piece, centres[number], strict=True)
            ),
            key=lambda item: -item[0],
        )
        piece_depth = depth(centres[number].mean(axis=0) + moves[number]) if piece else 0.0
        drawn_pieces.append((piece_depth, drawn))
    if explode == 0:
        everything = sorted(
            (item for _, drawn in drawn_pieces for item in drawn), key=lambda item: -item[0]
        )
        return _document([d for _, d in everything], fills, cell_size, fit, grouped=False)
    drawn_pieces.sort(key=lambda item: -item[0])
    ordered = [d for _, drawn in drawn_pieces for _, d in drawn]
    return _document(ordered, fills, cell_size, fit, grouped=True)


Edges = dict[tuple[Key, Key], list[FloatArray]]

#: A face of a piece's surface: its corners in space, and for each edge (from corner k to
#: k + 1) whether the surface turns there.
SurfaceFace = tuple[list[list[float]], list[bool]]


def piece_surfaces(
    grid: Grid, pieces: Sequence[Sequence[Sequence[int]]]
) -> list[list[SurfaceFace]]:
    """The faces on the surface of each piece (of a grid other than the sphere's), for a
    viewer that turns the pieces itself (the studio's page): every face of its cells that
    no other cell of the piece has, its corners, and which of its edges are creases."""
    found = []
    for piece in pieces:
        cells = [tuple(int(v) for v in c) for c in piece]
        counts = _count_faces(grid, cells, {})
        edges = _surface_edges(grid, cells, counts)
        faces: list[SurfaceFace] = []
        for cell in cells:
            for face in cell_faces(grid, cell):
                if counts[tuple(sorted(face))] > 1:
                    continue
                points = [point(grid, key) for key in face]
                normal = unit_normal(points)
                creases = []
                for start, end in zip(face, face[1:] + face[:1], strict=True):
                    around = edges[min(start, end), max(start, end)]
                    flat = len(around) == 2 and all(
                        np.allclose(n, normal, atol=1e-6) for n in around
                    )
                    creases.append(not flat)
                faces.append(([[round(float(v), 6) for v in p] for p in points], creases))
        found.append(faces)
    return found


def _surface_edges(grid: Grid, cells: Sequence[tuple[int, ...]], counts: dict[Face, int]) -> Edges:
    """The edges of the faces on the surface of a piece (faces of its cells that no other
    drawn cell has), each with the normals of the faces that meet there."""
    edges: Edges = {}
    if grid.solid_cells().ball:
        return edges
    for cell in cells:
        for face in cell_faces(grid, cell):
            if counts.get(tuple(sorted(face)), 0) > 1:
                continue
            normal = unit_normal([point(grid, key) for key in face])
            for start, end in zip(face, face[1:] + face[:1], strict=True):
                edges.setdefault((min(start, end), max(start, end)), []).append(normal)
    return edges


def _count_faces(
    grid: Grid, cells: Sequence[tuple[int, ...]], counts: dict[Face, int]
) -> dict[Face, int]:
    """How many of ``cells`` have each face (by its corners, in any order)."""
    for cell in cells:
        for face in cell_faces(grid, cell):
            name = tuple(sorted(face))
            counts[name] = counts.get(name, 0) + 1
    return counts


def _cell(
    grid: Grid,
    cell: tuple[int, ...],
    piece: int,
    fill: str,
    counts: dict[Face, int],
    edges: Edges,
    move: FloatArray,
) -> _Drawn:
    """The faces of one cell that the viewer sees and that are not inside, each with its
    dark edges: those where the surface of the cell's piece turns (or ends)."""
    drawn = _Drawn(cell, piece)
    if grid.solid_cells().ball:
        centre = cell_centres(grid, [cell])[0] + move
        drawn.disc = (project(centre), piece)
        return drawn
    for face in cell_faces(grid, cell):
        if counts.get(tuple(sorted(face)), 0) > 1:
            continue
        points = [point(grid, key) + move for key in face]
        normal = unit_normal(points)
        if float(normal @ VIEW) > -1e-9:
            continue  # turned away
        lines = []
        for k, (start, end) in enumerate(zip(face, face[1:] + face[:1], strict=True)):
            around = edges.get((min(start, end), max(start, end)), [])
            flat = len(around) == 2 and all(np.allclose(n, normal, atol=1e-6) for n in around)
            if not flat:
                lines.append((k, (k + 1) % len(face)))
        light = float(np.clip(normal @ _LIGHT, -0.45, 0.45))
        drawn.polygons.append(([project(p) for p in points], shade(fill, light), lines))
    return drawn


def face_svg(
    outline: Sequence[Point],
    fill: str,
    lines: Sequence[tuple[int, int]],
    at: Callable[[Point], str],
    stroke: float,
) -> list[str]:
    """One seen face as SVG: its polygon in ``fill``, then the path of its dark edges
    (``lines``: pairs of corner numbers of ``outline``), ``stroke`` wide; ``at`` gives a
    point of the picture its place on the page."""
    out = [
        f'<polygon points="{" ".join(at(p) for p in outline)}" fill="{fill}" '
        f'stroke="{fill}" stroke-width="0.5" stroke-linejoin="round"/>'
    ]
    if lines:
        path = "".join(f"M{at(outline[a])}L{at(outline[b])}" for a, b in lines)
        out.append(
            f'<path d="{path}" stroke="#222" stroke-width="{stroke:.1f}" '
            'stroke-linecap="round" fill="none"/>'
        )
    return out


def _document(
    cells: list[_Drawn], fills: Sequence[str], size: float, fit: float | None, grouped: bool
) -> str:
    """The SVG document of the drawn cells, in order (in one group per piece when
    ``grouped``), ``size`` pixels a unit (or the longer side ``fit`` pixels)."""
    points = [p for d in cells for outline, _, _ in d.polygons for p in outline]
    for d in cells:
        if d.disc is not None:
            (x, y), _ = d.disc
            points += [(x - _BALL, y - _BALL), (x + _BALL, y + _BALL)]
    if not points:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>'
    margin = 0.25
    left = min(p[0] for p in points) - margin
    top = max(p[1] for p in points) + margin
    if fit is not None:
        extent = max(max(p[0] for p in points) + margin - left, top - min(p[1] for p in points))
        size = fit / (extent + margin)
    width = (max(p[0] for p in points) + margin - left) * size
    height = (top - min(p[1] for p in points) + margin) * size

    def at(p: Point) -> str:
        return f"{(p[0] - left) * size:.2f},{(top - p[1]) * size:.2f}"

    stroke = max(1.0, size / 20)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
    ]
    if any(d.disc is not None for d in cells):
        out.append("<defs>")
        for number, fill in enumerate(fills):
            out.append(
                f'<radialGradient id="ball{number}" cx="0.38" cy="0.32" r="0.75">'
                f'<stop offset="0" stop-color="{shade(fill, 0.6)}"/>'
                f'<stop offset="0.55" stop-color="{fill}"/>'
                f'<stop offset="1" stop-color="{shade(fill, -0.45)}"/></radialGradient>'
            )
        out.append("</defs>")
    out.append(f'<rect width="{width:.2f}" height="{height:.2f}" fill="white"/>')
    piece = None
    for d in cells:
        if grouped and d.piece != piece:
            if piece is not None:
                out.append("</g>")
            out.append(f'<g class="piece" data-piece="{d.piece}">')
            piece = d.piece
        name = ",".join(str(v) for v in d.cell)
        out.append(f'<g class="cell" data-piece="{d.piece}" data-cell="{name}">')
        if d.disc is not None:
            centre, number = d.disc
            cx, cy = at(centre).split(",")
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="{_BALL * size:.2f}" fill="url(#ball{number})" '
                f'stroke="#222" stroke-width="{stroke:.1f}"/>'
            )
        for outline, fill, lines in d.polygons:
            out += face_svg(outline, fill, lines, at, stroke)
        out.append("</g>")
    if grouped and piece is not None:
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
