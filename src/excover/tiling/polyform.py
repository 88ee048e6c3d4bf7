"""Patterns of the hexagonal and triangular grids, as sets of cells.

These grids have no rectangular frame, so their patterns are plain finite sets of cells
(coordinates described in :mod:`excover.tiling.grids`) with the same set operations as
:class:`~excover.tiling.Pattern`. Both read ASCII art in which every row is a strip of
cells, the first written row being the top:

- hexagons: cells of a row are two characters apart and each row is shifted by one
  character from the next, as in ``" * *\\n* * *"``; the character in column ``x`` of the
  row ``y`` (counted from the bottom row, 0) is the cell ``q = (x - y) / 2, r = y`` up to
  one translation of the whole drawing;
- triangles: the characters of a row are the triangles of a strip, alternately pointing
  down and up; the bottom-left character points down (its flat side on top), so the
  drawing ``"***"`` is a trapezoid of three triangles, wider at the top.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Self

import numpy as np

from excover.errors import FormatError, UsageError
from excover.formats.text import read_text
from excover.tiling.grids import (
    HEX,
    TRIANGLE,
    Coords,
    Isometry,
    IsometryGroup,
    triangle_cell,
    triangle_spot,
)
from excover.tiling.pattern import CELL_CHARS, HOLE_CHARS, _ClaimsGrid, drawing_lines

__all__ = ["CellSet", "HexPattern", "TrianglePattern", "triangle_cell", "triangle_spot"]

Cell = tuple[int, ...]


class _CellSet(_ClaimsGrid):
    """A finite set of cells of a grid without frames: an immutable value."""

    __slots__ = ("_cells",)

    def __init__(self, cells: Iterable[Sequence[int]] = ()) -> None:
        found = frozenset(tuple(int(v) for v in cell) for cell in cells)
        for cell in found:
            self._check(cell)
        self._cells = found

    def _check(self, cell: Cell) -> None:
        if len(cell) != self.grid.dimension:
            raise UsageError(f"{cell} is not a cell of the {self.grid.name} grid")

    @property
    def cells(self) -> list[Cell]:
        """The cells, sorted."""
        return sorted(self._cells)

    @property
    def size(self) -> int:
        """The number of cells."""
        return len(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def coords(self) -> Coords:
        """The cells as an integer array, one row per cell, sorted."""
        return np.array(self.cells, dtype=np.int64).reshape(-1, self.grid.dimension)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._cells == other._cells

    def __hash__(self) -> int:
        return hash(self._cells)

    def _other(self, other: object) -> frozenset[Cell]:
        if not isinstance(other, type(self)):
            raise UsageError(f"cannot combine a {type(self).__name__} with {other!r}")
        return other._cells

    def __or__(self, other: Self) -> Self:
        return type(self)(self._cells | self._other(other))

    def __and__(self, other: Self) -> Self:
        return type(self)(self._cells & self._other(other))

    def __sub__(self, other: Self) -> Self:
        return type(self)(self._cells - self._other(other))

    def __xor__(self, other: Self) -> Self:
        return type(self)(self._cells ^ self._other(other))

    def apply(self, isometry: Isometry) -> Self:
        """The image of the pattern by an isometry of its grid (about the origin)."""
        if isometry.grid != self.grid.name:
            raise UsageError(
                f"the isometry {isometry.name} acts on the {isometry.grid} grid, "
                f"not on the {self.grid.name} grid"
            )
        return type(self)(isometry.apply(self.coords()).tolist())

    def normalized(self) -> Self:
        """The canonical translate of the pattern (see :meth:`Grid.normalize`)."""
        return type(self)(self.grid.normalize(self.coords()).tolist())

    def symmetries(self) -> IsometryGroup:
        """The isometries of the grid mapping the pattern onto a translate of itself."""
        return self.grid.symmetries(self.coords())

    def _repr_svg_(self) -> str:
        from excover.tiling.render import pattern_svg

        return pattern_svg(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.cells})"


def _drawing(text: str, source: str) -> list[tuple[int, int, int]]:
    """The column, row from the bottom and line number of every cell character of an
    ASCII drawing."""
    if not isinstance(text, str):
        raise UsageError(f"an ASCII drawing must be a string, not {text!r}")
    lines, skipped = drawing_lines(text)
    spots = []
    for row, line in enumerate(lines, 1):
        number = row + skipped
        for column, char in enumerate(line):
            if char in CELL_CHARS:
                spots.append((column, len(lines) - row, number))
            elif char not in HOLE_CHARS:
                raise FormatError(
                    f"unexpected character {char!r} at column {column + 1}",
                    source=source,
                    line=number,
                )
    return spots


#: The base of the classes of patterns that are sets of cells: a new grid's class of
#: patterns subclasses it, naming its grid (``grid = NEW``), and becomes the grid's
#: :attr:`~excover.tiling.grids.Grid.pattern`.
CellSet = _CellSet


class HexPattern(_CellSet):
    """A finite set of hexagons ``(q, r)`` (axial coordinates, see the module doc)."""

    grid = HEX
    __slots__ = ()

    @classmethod
    def from_ascii(cls, text: str, source: str = "<string>") -> Self:
        """A pattern drawn with rows shifted by half a cell (see the module doc)."""
        spots = _drawing(text, source)
        if not spots:
            return cls()
        parity = (spots[0][0] - spots[0][1]) % 2
        for x, y, line in spots:
            if (x - y) % 2 != parity:
                raise FormatError(
                    f"the hexagon at column {x + 1} is not on the staggered grid of the "
                    "others (the cells of a row are two columns apart, rows shift by one)",
                    source=source,
                    line=line,
                )
        return cls(((x - y - parity) // 2, y) for x, y, _ in spots)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Self:
        """A pattern from a text file holding its ASCII drawing (see :meth:`from_ascii`)."""
        return cls.from_ascii(*read_text(path))


class TrianglePattern(_CellSet):
    """A finite set of triangles ``(a, b, c)``, ``a + b + c`` in {1, 2} (see the module
    doc)."""

    grid = TRIANGLE
    __slots__ = ()

    def _check(self, cell: Cell) -> None:
        super()._check(cell)
        if sum(cell) not in (1, 2):
            raise UsageError(f"{cell} is not a triangle: its coordinates must sum to 1 or 2")

    @classmethod
    def from_ascii(cls, text: str, source: str = "<string>") -> Self:
        """A pattern drawn as strips of alternating triangles (see the module doc)."""
        return cls(triangle_cell(x, y) for x, y, _ in _drawing(text, source))

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Self:
        """A pattern from a text file holding its ASCII drawing (see :meth:`from_ascii`)."""
        return cls.from_ascii(*read_text(path))
