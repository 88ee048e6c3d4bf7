"""The tiling library's meshes and isometric pictures, for the studio's exports and views.

STL files (one per distinct piece, and a solution's assembly) are made by
:mod:`excover.tiling.mesh` through the mesh library trimesh (which comes with the
``studio`` extra; without it the export says what to install), cells 10 mm a side, a
solution's pieces as many closed bodies a gap apart as ``excover solve --stl --gap``
writes them (the same function, the same default gap); the
isometric views of a box and of a polycube solution by :mod:`excover.tiling.isometric`,
and the surfaces of a solution's pieces that the page turns in its exploded 3D view by
:mod:`excover.tiling.solidview`.
"""

from __future__ import annotations

import io
import math
import zipfile
from typing import TYPE_CHECKING, Any

from excover.errors import UsageError
from excover.tiling.colours import tile_colour
from excover.tiling.geometry import cell_centres
from excover.tiling.isometric import pattern_isometric_svg, solution_isometric_svg
from excover.tiling.mesh import PRINT_GAP, cells_mesh, gapped
from excover.tiling.mesh import solution_stl as assembly_stl
from excover.tiling.solidview import piece_surfaces

if TYPE_CHECKING:
    from excover.tiling import TilingSolution
    from excover.tiling.grids import Grid
    from excover.tiling.tile import Shape

__all__ = [
    "board_isometric_svg",
    "isometric_svg",
    "pieces_zip",
    "read_gap",
    "solid_view",
    "solution_stl",
    "stl_gap",
]


def pieces_zip(pieces: dict[str, Shape]) -> bytes:
    """A zip archive of one binary STL file per piece (``NAME.stl``), each the closed
    mesh of its cells (:func:`excover.tiling.mesh.cells_mesh`, cells of 10 mm); the
    board's placements are not needed, so a large board costs nothing here."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, shape in pieces.items():
            data = cells_mesh(shape, shape.grid).export(file_type="stl")
            assert isinstance(data, bytes)  # trimesh writes binary STL as bytes
            archive.writestr(f"{name}.stl", data)
    return buffer.getvalue()


def stl_gap(grid: Grid) -> float | None:
    """The gap, in millimetres, of a solution's STL file on ``grid`` when none is asked
    for: the command line's (:data:`excover.tiling.mesh.PRINT_GAP`), or None where the
    pieces are not moved apart (:func:`excover.tiling.mesh.gapped`: they touch)."""
    return PRINT_GAP if gapped(grid) else None


def read_gap(text: str | None) -> float | None:
    """The ``gap`` of a request's query, in millimetres (None: not given); a UsageError
    unless it is as ``excover solve --gap`` takes it: from 0 to under a quarter of the
    10 mm cells."""
    if text is None:
        return None
    try:
        gap = float(text)
    except ValueError:
        gap = math.nan
    if not (math.isfinite(gap) and 0 <= gap < 2.5):
        raise UsageError(
            f"the gap must be at least 0 and under 2.5 (mm, cells of 10), not {text!r}"
        )
    return gap


def solution_stl(solution: TilingSolution, gap: float | None = None) -> bytes:
    """A binary STL file of a solution's assembly, one closed body per piece, pieces that
    touch ``gap`` millimetres apart (cells of 10 mm; None: :func:`stl_gap`): the command
    line's writer (``excover solve --stl FILE --gap GAP``,
    :func:`excover.tiling.mesh.solution_stl`)."""
    if gap is None:
        gap = stl_gap(solution.tiling.grid) or 0.0
    return assembly_stl(solution, gap)


def isometric_svg(solution: TilingSolution) -> str:
    """An isometric SVG picture of a polycube solution, each piece in its own colour."""
    return solution_isometric_svg(solution, 24.0, each_piece=True)


def solid_view(solution: TilingSolution) -> dict[str, Any]:
    """What the page's 3D view turns: each piece's colour, name and the faces of its surface
    (corners in space, one unit a cube, and which edges are creases), or on the sphere
    grid its balls' centres (diameter 1)."""
    grid = solution.tiling.grid
    cells = [p.cells for p in solution.placements]
    names = [p.tile.name for p in solution.placements]
    colours = [tile_colour(number) for number in range(len(cells))]
    if grid.traits.solid is not None and grid.traits.solid.ball:
        return {
            "pieces": [
                {
                    "colour": colour,
                    "name": name,
                    "balls": cell_centres(grid, piece).round(6).tolist(),
                }
                for colour, name, piece in zip(colours, names, cells, strict=True)
            ]
        }
    surfaces = piece_surfaces(grid, cells)
    return {
        "pieces": [
            {
                "colour": colour,
                "name": name,
                "faces": [{"points": p, "creases": c} for p, c in faces],
            }
            for colour, name, faces in zip(colours, names, surfaces, strict=True)
        ]
    }


def board_isometric_svg(board: Shape) -> str:
    """An isometric SVG picture of a box of the cubic grid, in grey."""
    return pattern_isometric_svg(board, 16.0)
