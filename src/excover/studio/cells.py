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
  square grid.

A drawing is a tuple of layers (one on the planar grids), each a tuple of rows.
:func:`shape` turns a drawing into the tiling library's pattern; :func:`drawing` draws
a pattern in the smallest frame holding its cells (the same drawing for every translate
of it); :func:`cmb_pattern` writes a drawing as the ``.cmb`` language's pattern.
"""

from __future__ import annotations

from excover.tiling import HexPattern, Pattern, Pattern3, TrianglePattern
from excover.tiling.grids import triangle_cell, triangle_spot
from excover.tiling.tile import Shape

__all__ = ["GRIDS", "Layers", "cmb_pattern", "drawing", "shape"]

#: The grids the studio edits, as the page and the design name them.
GRIDS = ("square", "hex", "triangle", "cube")

#: A drawing: layers (one on the planar grids, bottom first on the cube), each a tuple of
#: rows of ``*`` and ``.``, top row first.
Layers = tuple[tuple[str, ...], ...]


def _spots(rows: tuple[str, ...]) -> list[tuple[int, int]]:
    """The column and row (from the top) of each cell of a layer."""
    return [(j, i) for i, row in enumerate(rows) for j, char in enumerate(row) if char == "*"]


def shape(grid: str, layers: Layers) -> Shape:
    """The pattern of a drawing on ``grid``."""
    if grid == "cube":
        return Pattern3.from_layers([Pattern.from_ascii("\n".join(layer)) for layer in layers])
    (rows,) = layers
    height = len(rows)
    if grid == "square":
        return Pattern.from_ascii("\n".join(rows))
    if grid == "hex":
        # drawing column x = 2j + i % 2, drawing row y = height - 1 - i; the hexagon
        # (q, r) = ((x - y - parity) / 2, y), the parity being the same for every cell
        parity = (1 - height) % 2
        return HexPattern(
            ((2 * j + i % 2 - (height - 1 - i) - parity) // 2, height - 1 - i)
            for j, i in _spots(rows)
        )
    # drawing column x = j + height % 2 keeps cell (j, i) pointing up when i + j is even
    return TrianglePattern(triangle_cell(j + height % 2, height - 1 - i) for j, i in _spots(rows))


def _frame(spots: dict[tuple[int, int], bool]) -> tuple[str, ...]:
    """Rows of a layer holding the cells at ``spots`` (column, row from the top)."""
    width = max(j for j, _ in spots) + 1
    height = max(i for _, i in spots) + 1
    return tuple(
        "".join("*" if (j, i) in spots else "." for j in range(width)) for i in range(height)
    )


def drawing(pattern: Shape) -> Layers:
    """The drawing of a pattern with at least one cell, in the smallest frame that holds
    it on the page's layout (on the triangular grid the frame may start with an empty
    column, the top-left triangle of a frame pointing up)."""
    grid = pattern.grid.name
    if isinstance(pattern, Pattern3):
        trimmed = pattern.normalized()
        return tuple(tuple(trimmed.layer(z).ascii().splitlines()) for z in range(trimmed.depth))
    if isinstance(pattern, Pattern):
        return (tuple(pattern.normalized().ascii().splitlines()),)
    cells = pattern.coords().tolist()
    if grid == "hex":
        top = max(r for _, r in cells)
        columns = [(2 * q + r - (top - r) % 2, top - r) for q, r in cells]
        left = min(x for x, _ in columns)
        return (_frame({((x - left) // 2, i): True for x, i in columns}),)
    spots = [triangle_spot(cell) for cell in cells]
    top = max(y for _, y in spots)
    left = min(x for x, _ in spots)
    left -= (left - top - 1) % 2  # the first column where a triangle of the top row is up
    return (_frame({(x - left, top - y): True for x, y in spots}),)


def cmb_pattern(grid: str, layers: Layers) -> str:
    """The drawing as a pattern expression of the ``.cmb`` language (a list of layers
    for ``pattern3`` on the cube)."""
    if grid == "cube":
        return "[" + ", ".join(_braces("", layer) for layer in layers) + "]"
    (rows,) = layers
    if grid == "square":
        return _braces("", rows)
    if grid == "hex":
        return _braces("hex", tuple(" " * (i % 2) + " ".join(row) for i, row in enumerate(rows)))
    return _braces("triangle", tuple("." * (len(rows) % 2) + row for row in rows))


def _braces(word: str, rows: tuple[str, ...]) -> str:
    return word + "{\n" + "\n".join(rows) + "\n}"
