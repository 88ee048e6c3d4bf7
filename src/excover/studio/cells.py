"""The studio's drawings of boards and pieces on each grid, and the patterns they are.

The page edits every grid as a frame of rows of ``*`` (a cell) and ``.`` (none), top row
first, so that one editor serves them all:

- **square**: the character in column ``j`` of row ``i`` is the square of that column and
  row (as :meth:`~excover.tiling.Pattern.ascii` draws it);
- **hex**: *offset rows* of hexagons: row ``i`` is shifted right by half a hexagon when
  ``i`` is odd (the top row is not), which is the ``.cmb`` language's hexagon drawing with
  one character per hexagon instead of two;
- **triangle**: the characters of a row are the triangles of a strip, pointing up and
  down in turn, the top-left one pointing up (cell ``(j, i)`` points up when ``i + j`` is
  even);
- **cube**: a box of square layers, bottom layer (``z = 0``) first, each drawn as on the
  square grid;
- **prism**: a box of layers of triangles, each drawn as on the triangular grid, a
  triangle of layer ``z`` standing for the prism on it in that layer;
- **sphere**, **rhombic**: a box of square layers whose cells sit on a checkerboard, the
  character in column ``j`` of row ``i`` of layer ``z`` (in a frame of ``h`` rows) being
  the ball, or the rhombic dodecahedron, ``(j, h - 1 - i, z)`` of
  :mod:`excover.lang.layers`; only those with ``j + h - 1 - i + z`` even are cells
  (:func:`on_grid`), so that the balls of a layer sit in the hollows of the layer below;
- **tetraocta**: a box of layers of BurrTools' voxels, the same way, only the voxels that
  are cells of the tetrahedra-octahedra grid being cells.

A drawing is a tuple of layers (one on the planar grids), each a tuple of rows.
:func:`shape` turns a drawing into the tiling library's pattern; :func:`drawing` draws
a pattern in the smallest frame holding its cells (the same drawing for every translate
of it); :func:`cmb_pattern` writes a drawing as the ``.cmb`` language's pattern.
"""

from __future__ import annotations

from typing import Any

from excover.lang.layers import LayerError, solid_layers, solid_pattern
from excover.tiling import HexPattern, Pattern, Pattern3, TrianglePattern
from excover.tiling.grids import Grid, triangle_cell, triangle_spot
from excover.tiling.registry import GRIDS as REGISTRY
from excover.tiling.registry import grid_names
from excover.tiling.tile import Shape

__all__ = ["GRIDS", "LAYERED", "Layers", "cmb_pattern", "drawing", "on_grid", "shape"]

#: The grids the studio edits, as the page and the design name them: the planar grids,
#: then the solid ones (read from the registry).
GRIDS = (*grid_names(solid=False), *grid_names(solid=True))

#: The grids drawn as a box of layers: the solid grids.
LAYERED = tuple(grid_names(solid=True))

#: A drawing: layers (one on the planar grids, bottom first on the cube), each a tuple of
#: rows of ``*`` and ``.``, top row first.
Layers = tuple[tuple[str, ...], ...]


def _spots(rows: tuple[str, ...]) -> list[tuple[int, int]]:
    """The column and row (from the top) of each cell of a layer."""
    return [(j, i) for i, row in enumerate(rows) for j, char in enumerate(row) if char == "*"]


def _staggered(grid: Grid) -> bool:
    """Whether a planar grid's cells are drawn in offset rows (its patterns hexagons)."""
    return issubclass(grid.pattern, HexPattern)


def on_grid(grid: str, x: int, y: int, z: int) -> bool:
    """Whether the spot ``(x, y)`` of layer ``z`` (``y`` from the frame's bottom row) of a
    drawing on ``grid`` may hold a cell: on the packings a square of the checkerboard, on
    the other layered grids of BurrTools' voxels (tetraocta) one of the grid's voxels,
    everywhere on the other grids."""
    found = REGISTRY[grid]
    if found.traits.packed:
        return (x + y + z) % 2 == 0
    if found.traits.layered and found.lattice is not None:
        return found.is_cell((x, y, z))
    return True


def shape(grid: str, layers: Layers) -> Shape:
    """The pattern of a drawing on ``grid`` (on the sphere, rhombic and tetraocta grids a
    :class:`~excover.lang.layers.LayerError` when a cell is off the grid)."""
    found = REGISTRY[grid]
    if found.traits.layered:
        return _solid(found, layers)
    if found.solid:  # the cube: an array of layers of its own
        flat = found.layer_grid.name
        pattern: Any = found.pattern
        made: Shape = pattern.from_layers([shape(flat, (layer,)) for layer in layers])
        return made
    (rows,) = layers
    height = len(rows)
    if found.traits.outline.alternating:
        # drawing column x = j + height % 2 keeps cell (j, i) pointing up when i + j is even
        return TrianglePattern(
            triangle_cell(j + height % 2, height - 1 - i) for j, i in _spots(rows)
        )
    if _staggered(found):
        # drawing column x = 2j + i % 2, drawing row y = height - 1 - i; the hexagon
        # (q, r) = ((x - y - parity) / 2, y), the parity being the same for every cell
        parity = (1 - height) % 2
        return HexPattern(
            ((2 * j + i % 2 - (height - 1 - i) - parity) // 2, height - 1 - i)
            for j, i in _spots(rows)
        )
    return Pattern.from_ascii("\n".join(rows))


def _solid(grid: Grid, layers: Layers) -> Shape:
    """The pattern of a box of layers on a layered grid (BurrTools' solid grids other
    than the cube): each layer drawn as on the grid of its layers."""
    found = []
    flat = grid.layer_grid.name
    for z, rows in enumerate(layers):
        height = len(rows)
        for x, i in _spots(rows):
            if not on_grid(grid.name, x, height - 1 - i, z):
                raise LayerError(z, f"column {x + 1} of row {i + 1} is not a cell of the grid")
        found.append([tuple(cell) for cell in shape(flat, (rows,)).coords().tolist()])
    return solid_pattern(grid.name, found)


def _frame(
    spots: dict[tuple[int, int], bool], size: tuple[int, int] | None = None
) -> tuple[str, ...]:
    """Rows of a layer holding the cells at ``spots`` (column, row from the top), in a
    frame of ``size`` (width, height) or the smallest one."""
    width = max(j for j, _ in spots) + 1 if size is None else size[0]
    height = max(i for _, i in spots) + 1 if size is None else size[1]
    return tuple(
        "".join("*" if (j, i) in spots else "." for j in range(width)) for i in range(height)
    )


def drawing(pattern: Shape) -> Layers:
    """The drawing of a pattern with at least one cell, in the smallest frame that holds
    it on the page's layout (on the triangular grid the frame may start with an empty
    column, the top-left triangle of a frame pointing up)."""
    grid = pattern.grid
    if grid.traits.layered:
        return _solid_drawing(pattern)
    if isinstance(pattern, Pattern3):
        trimmed = pattern.normalized()
        return tuple(tuple(trimmed.layer(z).ascii().splitlines()) for z in range(trimmed.depth))
    if isinstance(pattern, Pattern):
        return (tuple(pattern.normalized().ascii().splitlines()),)
    cells = pattern.coords().tolist()
    if _staggered(grid):
        top = max(r for _, r in cells)
        columns = [(2 * q + r - (top - r) % 2, top - r) for q, r in cells]
        left = min(x for x, _ in columns)
        return (_frame({((x - left) // 2, i): True for x, i in columns}),)
    spots = [triangle_spot(cell) for cell in cells]
    top = max(y for _, y in spots)
    left = min(x for x, _ in spots)
    left -= (left - top - 1) % 2  # the first column where a triangle of the top row is up
    return (_frame({(x - left, top - y): True for x, y in spots}),)


def _solid_drawing(pattern: Shape) -> Layers:
    """The box of layers of a pattern of a layered grid, in the smallest frame whose
    cells are on the grid (see :func:`on_grid`)."""
    grid = pattern.grid
    layers = solid_layers(pattern)
    if grid.traits.outline.alternating:  # layers of triangles
        spots = [[triangle_spot(cell) for cell in layer] for layer in layers]
        every = [spot for layer in spots for spot in layer]
        top = max(y for _, y in every)
        left = min(x for x, _ in every)
        left -= (left - top - 1) % 2
        size = (max(x for x, _ in every) - left + 1, top - min(y for _, y in every) + 1)
        return tuple(_frame({(x - left, top - y): True for x, y in layer}, size) for layer in spots)
    every3 = [(x, y, z) for z, layer in enumerate(layers) for x, y in layer]
    if grid.traits.packed and sum(every3[0]) % 2:  # onto the even checkerboard
        layers = [[(x + 1, y) for x, y in layer] for layer in layers]
    width = max(x for layer in layers for x, _ in layer) + 1
    height = max(y for layer in layers for _, y in layer) + 1
    return tuple(
        _frame({(x, height - 1 - y): True for x, y in layer}, (width, height)) for layer in layers
    )


def cmb_pattern(grid: str, layers: Layers) -> str:
    """The drawing as a pattern expression of the ``.cmb`` language (a list of layers
    for ``pattern3`` on the solid grids; each layer, and a planar pattern, drawn with its
    grid's drawing word, ``traits.art``)."""
    found = REGISTRY[grid]
    if found.traits.layered:
        flat = found.layer_grid.name
        return f"{grid} [" + ", ".join(cmb_pattern(flat, (rows,)) for rows in layers) + "]"
    if found.solid:  # the cube: a list of square layers
        flat = found.layer_grid.name
        return "[" + ", ".join(cmb_pattern(flat, (layer,)) for layer in layers) + "]"
    (rows,) = layers
    art = found.traits.art or ""
    if found.traits.outline.alternating:
        return _braces(art, _triangle_rows(rows))
    if _staggered(found):
        return _braces(art, tuple(" " * (i % 2) + " ".join(row) for i, row in enumerate(rows)))
    return _braces(art, rows)


def _triangle_rows(rows: tuple[str, ...]) -> tuple[str, ...]:
    """The rows of a layer of triangles as ``triangle{...}`` reads them: a column of holes
    first when the frame has an odd number of rows, so that every triangle points the
    way it does on the page."""
    return tuple("." * (len(rows) % 2) + row for row in rows)


def _braces(word: str, rows: tuple[str, ...]) -> str:
    return word + "{\n" + "\n".join(rows) + "\n}"
