"""The tiling library's meshes and isometric pictures, for the studio's exports and views.

STL files (one per distinct piece, and a solution's assembly) are made by
:mod:`excover.tiling.mesh` through the mesh library trimesh (which comes with the
``studio`` extra; without it the export says what to install), cells 10 mm a side; the
isometric views of a box and of a polycube solution by :mod:`excover.tiling.isometric`,
and the surfaces of a solution's pieces that the page turns in its exploded 3D view by
:mod:`excover.tiling.solidview`.
"""

from __future__ import annotations

import io
import zipfile
from typing import TYPE_CHECKING, Any

from excover.tiling.colours import tile_colour
from excover.tiling.geometry import cell_centres
from excover.tiling.isometric import pattern_isometric_svg, solution_isometric_svg
from excover.tiling.mesh import cells_mesh
from excover.tiling.mesh import solution_stl as assembly_stl
from excover.tiling.solidview import piece_surfaces

if TYPE_CHECKING:
    from excover.tiling import TilingSolution
    from excover.tiling.tile import Shape

__all__ = ["board_isometric_svg", "isometric_svg", "pieces_zip", "solid_view", "solution_stl"]


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


def solution_stl(solution: TilingSolution) -> bytes:
    """A binary STL file of a solution's assembly, one closed body per piece."""
    return assembly_stl(solution)


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
