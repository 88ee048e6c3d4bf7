"""STL files for 3D printing: the pieces of a tiling and the assembly of a solution.

The meshes are :class:`trimesh.Trimesh` objects (the PyPI library trimesh, the ``mesh``
extra: ``pip install "excover[mesh]"``), imported only when a mesh is made. Each closed
body is watertight, consistently wound and 2-manifold as trimesh checks it, with the volume
of its cells: cubes of side ``cell_size``; squares, hexagons and triangles of edge
``cell_size`` extruded ``cell_size`` high; on BurrTools' other solid grids
(:mod:`excover.tiling.geometry`), triangular prisms of edge and height ``cell_size``, balls
of diameter ``cell_size`` (polyhedra; touching balls meet at a point), and the tetrahedra
of the rhombic and tetrahedra-octahedra grids in cubes of side ``cell_size``. Where two
cells of a piece meet only along an edge or at a corner the body's vertices are not merged
there (see
:mod:`excover.tiling.surface`), so such a piece is still a 2-manifold; an STL file has no
shared vertices at all, so a program that reads one and merges equal points sees four faces
on such an edge, as the shape itself has them.

``gap`` moves every face of each piece ``gap / 2`` inward, so that printed pieces that
touch in the assembly stand ``gap`` apart and fit together (on the planar grids the pieces
shrink in the plane only; BurrTools' other solid grids take no gap yet: :func:`gapped`).
:data:`PRINT_GAP` is the gap of a solution's STL file when none is asked for, the command
line's (``excover solve --stl --gap``) and the studio's: it leaves each piece a body of
its own to a program that reads the file and merges equal points.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from excover.atomic import write_whole
from excover.errors import ExcoverError, UsageError
from excover.tiling.grids import GRIDS, Coords, Grid
from excover.tiling.surface import Surface, surface
from excover.tiling.tile import Shape

if TYPE_CHECKING:
    import trimesh

    from excover.tiling.tiling import Tiling, TilingSolution

__all__ = [
    "PRINT_GAP",
    "MeshLibraryError",
    "cells_mesh",
    "default_gap",
    "gapped",
    "piece_stls",
    "solution_mesh",
    "solution_stl",
    "write_stl",
]

#: The gap between the pieces of a solution's STL file when none is asked for, in
#: millimetres (cells of 10): enough for a reader of the file to find each piece a body of
#: its own (touching faces merge) and for printed pieces to fit.
PRINT_GAP = 0.2


class MeshLibraryError(ExcoverError, ImportError):
    """The mesh library trimesh, which STL export needs, is not installed."""


def _trimesh() -> ModuleType:
    """The trimesh package, or a clear error naming the extra that brings it."""
    try:
        import trimesh
    except ImportError as error:
        raise MeshLibraryError(
            'STL export needs the mesh library trimesh: pip install "excover[mesh]"'
        ) from error
    return trimesh


def cells_mesh(
    cells: Shape | Iterable[Sequence[int]],
    grid: Grid | str,
    cell_size: float = 10.0,
    *,
    gap: float = 0.0,
) -> trimesh.Trimesh:
    """The closed surface of a set of cells of ``grid`` (a pattern, or cell coordinates):
    cubes of side ``cell_size``, or planar cells of edge ``cell_size`` extruded as prisms
    ``cell_size`` high; faces between two of the cells left out; each face moved ``gap / 2``
    inward."""
    grid = _grid(grid)
    coords = _coords(cells, grid)
    size, spacing = _sizes(cell_size, gap)
    return _mesh([surface(coords, grid, size, spacing)])


def piece_stls(tiling: Tiling, cell_size: float = 10.0, *, gap: float = 0.0) -> dict[str, bytes]:
    """One binary STL file per tile of ``tiling`` (by tile name, in the tiling's order): the
    tile's shape as :func:`cells_mesh` makes it."""
    size, spacing = _sizes(cell_size, gap)
    files: dict[str, bytes] = {}
    for tile in tiling.tiles:
        mesh = _mesh([surface(tile.cells, tiling.grid, size, spacing)])
        files[str(tile.name)] = _stl(mesh)
    return files


def solution_mesh(
    solution: TilingSolution, cell_size: float = 10.0, *, gap: float = 0.0
) -> trimesh.Trimesh:
    """The assembly of a tiling as one mesh of one closed body per placement, each where
    the solution puts it (``mesh.split()`` gives the pieces back)."""
    size, spacing = _sizes(cell_size, gap)
    grid = solution.tiling.grid
    return _mesh(
        [
            surface(np.array(p.cells, dtype=np.int64), grid, size, spacing)
            for p in solution.placements
        ]
    )


def solution_stl(solution: TilingSolution, gap: float = 0.0, *, cell_size: float = 10.0) -> bytes:
    """The assembly of a tiling as one binary STL file: :func:`solution_mesh`. With
    ``gap`` 0 neighbouring pieces touch face to face, which suits a picture; a gap of a few
    tenths of a millimetre (cells being ``cell_size`` millimetres) suits a print."""
    return _stl(solution_mesh(solution, cell_size, gap=gap))


def write_stl(data: bytes | trimesh.Trimesh, path: str | os.PathLike[str]) -> None:
    """Write an STL file: bytes from :func:`solution_stl` or :func:`piece_stls`, or a mesh
    (whole: :func:`excover.atomic.write_whole`)."""
    if not isinstance(data, bytes | bytearray):
        data = _stl(data)
    write_whole(path, bytes(data), follow_links=True)


# ----- helpers -----


def meshed(grid: Grid) -> bool:
    """Whether the cells of ``grid`` are meshed: solids, or polygons whose corners the
    grid's outline names (extruded one cell high)."""
    outline = grid.traits.outline
    return grid.solid or (outline.corners is not None and outline.placer is not None)


def default_gap(grid: Grid) -> float:
    """The gap of a solution's STL file on ``grid`` when none is asked for:
    :data:`PRINT_GAP` where its pieces may be moved apart (:func:`gapped`), else 0."""
    return PRINT_GAP if gapped(grid) else 0.0


def gapped(grid: Grid) -> bool:
    """Whether the pieces of ``grid``'s meshes may be moved apart by a gap: the planar
    grids' prisms and the cube's boxes (BurrTools' other solid grids take none yet)."""
    solid = grid.traits.solid
    return meshed(grid) and (solid is None or solid.boxes)


def _grid(grid: Grid | str) -> Grid:
    names = ", ".join(name for name, known in GRIDS.items() if meshed(known))
    if isinstance(grid, str) and grid in GRIDS:
        grid = GRIDS[grid]
    if not isinstance(grid, Grid):
        raise UsageError(f"unknown grid {grid!r}; choose one of {names}")
    if not meshed(grid):
        raise UsageError(f"meshes of the {grid.name} grid are not made yet; choose one of {names}")
    return grid


def _coords(cells: Shape | Iterable[Sequence[int]], grid: Grid) -> Coords:
    """The cells as rows of integers, checked: cells of ``grid``, none twice, at least one."""
    if isinstance(cells, Shape):
        if cells.grid is not grid:
            raise UsageError(f"the pattern is on the {cells.grid.name} grid, not {grid.name}")
        rows = [tuple(int(v) for v in cell) for cell in cells.coords().tolist()]
    else:
        rows = []
        for cell in cells:
            try:
                row = tuple(int(v) for v in cell)
                exact = all(float(v) == w for v, w in zip(cell, row, strict=True))
            except (TypeError, ValueError):
                exact = False
                row = ()
            if not exact or len(row) != grid.dimension:
                raise UsageError(f"{cell!r} is not a cell of the {grid.name} grid")
            if not grid.is_cell(row):
                rule = grid.traits.cell_rule
                raise UsageError(
                    f"{row} is not a cell of the {grid.name} grid" + (f": {rule}" if rule else "")
                )
            rows.append(row)
    if not rows:
        raise UsageError("a mesh needs at least one cell")
    if len(set(rows)) != len(rows):
        twice = next(row for row in rows if rows.count(row) > 1)
        raise UsageError(f"cell {twice} is given twice")
    return np.array(rows, dtype=np.int64)


def _sizes(cell_size: float, gap: float) -> tuple[float, float]:
    """The cell size and gap as floats, checked: a positive size, a gap from 0 to a quarter
    of it (so that even a triangle keeps a body)."""
    try:
        size, space = float(cell_size), float(gap)
    except (TypeError, ValueError):
        raise UsageError(
            f"cell_size and gap must be numbers, not {cell_size!r} and {gap!r}"
        ) from None
    if not (math.isfinite(size) and size > 0):
        raise UsageError(f"cell_size must be a positive number, not {cell_size!r}")
    if not (math.isfinite(space) and 0 <= space < size / 4):
        raise UsageError(f"gap must be at least 0 and less than cell_size / 4, not {gap!r}")
    return size, space


def _mesh(bodies: list[Surface]) -> trimesh.Trimesh:
    """One trimesh mesh of the bodies, vertices kept as made (not merged by position)."""
    library = _trimesh()
    vertices = []
    triangles = []
    offset = 0
    for body in bodies:
        vertices.append(body.vertices)
        triangles.append(body.triangles + offset)
        offset += len(body.vertices)
    mesh: trimesh.Trimesh = library.Trimesh(
        vertices=np.concatenate(vertices), faces=np.concatenate(triangles), process=False
    )
    return mesh


def _stl(mesh: trimesh.Trimesh) -> bytes:
    out = io.BytesIO()
    mesh.export(out, file_type="stl")
    return out.getvalue()
