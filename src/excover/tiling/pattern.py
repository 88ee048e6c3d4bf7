"""Patterns: finite sets of cells of the square grid (:class:`Pattern`) and of the cubic
grid (:class:`Pattern3`), each backed by a numpy boolean array.

A pattern has a *frame*, the box ``0 <= x < width``, ``0 <= y < height`` (and
``0 <= z < depth`` in 3D), and a set of cells inside it; ``array[x, y]`` is true on a cell.
Coordinates follow combine: x grows to the right and y upward, so in ASCII art the *last*
written row is ``y = 0`` and the first written row is the top. In 3D, z grows upward
through the layers, the first layer given being ``z = 0``.

Patterns are immutable values: every operation returns a new pattern. Binary operations
(``|``, ``&``, ``-``, ``^``) align both patterns at the origin and work on frames of any
two sizes; the result's frame is the smallest box holding both frames.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Self, cast

import numpy as np
import numpy.typing as npt

from excover.errors import FormatError, UsageError
from excover.formats.text import read_text
from excover.tiling.grids import CUBE, SQUARE, Coords, Grid, Isometry, IsometryGroup

if TYPE_CHECKING:
    from excover.tiling.tile import Shape

__all__ = ["CELL_CHARS", "HOLE_CHARS", "Pattern", "Pattern3", "drawing_lines"]

#: Characters that draw a cell in ASCII art.
CELL_CHARS = frozenset("*#")
#: Characters that draw a hole (a row may also simply be shorter than the others).
HOLE_CHARS = frozenset(". _-o")

BoolArray = npt.NDArray[np.bool_]


class _ClaimsGrid:
    """The base of the classes of patterns, framed (:class:`Pattern`) or not
    (:class:`~excover.tiling.polyform.HexPattern`, ...): a subclass that names its grid
    (``grid = HEX``) becomes that grid's class of patterns
    (:attr:`excover.tiling.grids.Grid.pattern`)."""

    grid: ClassVar[Grid]
    __slots__ = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "grid" in cls.__dict__:
            cls.grid.set_pattern(cast("type[Shape]", cls))


class _ArrayPattern(_ClaimsGrid):
    """The operations common to 2D and 3D patterns, written for any number of axes."""

    dimension = 2

    __slots__ = ("_array",)

    def __init__(self, array: npt.ArrayLike) -> None:
        data = np.array(array, dtype=bool)
        if data.ndim != self.dimension:
            raise UsageError(
                f"a {type(self).__name__} needs a {self.dimension}-dimensional array, "
                f"not one of shape {data.shape}"
            )
        data.setflags(write=False)
        self._array: BoolArray = data

    # ----- construction -----

    @classmethod
    def constant(cls, *shape_and_value: int | bool) -> Self:
        """A pattern of the given frame size, all cells (``value=True``) or all holes."""
        sizes, value = cls._sizes(shape_and_value)
        return cls(_frame(sizes, bool(value)))

    @classmethod
    def _sizes(cls, args: Sequence[int | bool]) -> tuple[tuple[int, ...], bool]:
        if len(args) not in (cls.dimension, cls.dimension + 1):
            raise UsageError(f"{cls.__name__}.constant takes {cls.dimension} sizes and a value")
        try:
            sizes = tuple(int(v) for v in args[: cls.dimension])
        except (TypeError, ValueError):
            raise UsageError(f"the sizes of a {cls.__name__} must be integers: {args}") from None
        if any(v < 0 for v in sizes):
            raise UsageError(f"negative size {sizes} for a {cls.__name__}")
        value = bool(args[cls.dimension]) if len(args) > cls.dimension else True
        return sizes, value

    @classmethod
    def from_cells(cls, cells: Iterable[Sequence[int]], size: Sequence[int] | None = None) -> Self:
        """A pattern holding the given cells (non-negative coordinates); its frame is
        ``size`` when given, else the smallest box from the origin holding the cells."""
        try:
            listed = [tuple(int(v) for v in cell) for cell in cells]
            coords = np.array(listed, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise UsageError(f"the cells of a {cls.__name__} must be integer tuples") from None
        if any(len(cell) != cls.dimension for cell in listed):
            raise UsageError(f"a cell of a {cls.__name__} has {cls.dimension} coordinates")
        coords = coords.reshape(-1, cls.dimension)
        if len(coords) and coords.min() < 0:
            raise UsageError(f"negative coordinate in the cells of a {cls.__name__}")
        extent = (
            tuple(int(v) + 1 for v in coords.max(axis=0)) if len(coords) else (0,) * cls.dimension
        )
        if size is not None:
            if len(size) != cls.dimension or any(a < b for a, b in zip(size, extent, strict=True)):
                raise UsageError(f"the frame {tuple(size)} does not hold the cells given")
            extent = tuple(int(v) for v in size)
        array = _frame(extent)
        array[tuple(coords.T)] = True
        return cls(array)

    # ----- reading -----

    @property
    def array(self) -> BoolArray:
        """The read-only boolean array, indexed ``[x, y]`` (``[x, y, z]`` in 3D)."""
        return self._array

    @property
    def shape(self) -> tuple[int, ...]:
        """The frame's sizes along x, y (and z)."""
        return tuple(int(v) for v in self._array.shape)

    @property
    def width(self) -> int:
        """The frame's size along x."""
        return self.shape[0]

    @property
    def height(self) -> int:
        """The frame's size along y."""
        return self.shape[1]

    @property
    def size(self) -> int:
        """The number of cells."""
        return int(self._array.sum())

    @property
    def cells(self) -> list[tuple[int, ...]]:
        """The cells as coordinate tuples, in lexicographic order."""
        return [tuple(int(v) for v in cell) for cell in np.argwhere(self._array)]

    def coords(self) -> Coords:
        """The cells as an integer array, one row per cell, lexicographic order."""
        result: Coords = np.argwhere(self._array).astype(np.int64)
        return result

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != self.dimension:
            return False
        if any(not 0 <= c < s for c, s in zip(cell, self._array.shape, strict=True)):
            return False
        return bool(self._array[cell])

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:
        """Same frame and same cells."""
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.shape == other.shape and bool(np.array_equal(self._array, other._array))

    def __hash__(self) -> int:
        return hash((self.shape, self._array.tobytes()))

    # ----- set operations -----

    def _aligned(self, other: object) -> tuple[BoolArray, BoolArray]:
        if not isinstance(other, type(self)):
            raise UsageError(f"cannot combine a {type(self).__name__} with {other!r}")
        shape = tuple(max(a, b) for a, b in zip(self.shape, other.shape, strict=True))
        return _padded(self._array, shape), _padded(other._array, shape)

    def __or__(self, other: Self) -> Self:
        a, b = self._aligned(other)
        return type(self)(a | b)

    def __and__(self, other: Self) -> Self:
        a, b = self._aligned(other)
        return type(self)(a & b)

    def __sub__(self, other: Self) -> Self:
        a, b = self._aligned(other)
        return type(self)(a & ~b)

    def __xor__(self, other: Self) -> Self:
        a, b = self._aligned(other)
        return type(self)(a ^ b)

    # ----- frame operations -----

    def _crop(self, origin: Sequence[int], sizes: Sequence[int]) -> Self:
        """The box of ``sizes`` starting at ``origin``, moved to the origin; parts of the
        box outside the frame are holes."""
        if any(s < 0 for s in sizes):
            raise UsageError(f"negative crop size {tuple(sizes)}")
        result = _frame(tuple(sizes))
        source = []
        target = []
        for start, size, extent in zip(origin, sizes, self.shape, strict=True):
            lo, hi = max(start, 0), min(start + size, extent)
            if lo >= hi:
                return type(self)(result)
            source.append(slice(lo, hi))
            target.append(slice(lo - start, hi - start))
        result[tuple(target)] = self._array[tuple(source)]
        return type(self)(result)

    def _shift(self, deltas: Sequence[int]) -> Self:
        """Cells moved by ``deltas``; the frame grows (or shrinks) by the same amounts and
        cells pushed below 0 are dropped."""
        sizes = [max(extent + delta, 0) for extent, delta in zip(self.shape, deltas, strict=True)]
        return self._crop([-d for d in deltas], sizes)

    def _resize(self, sizes: Sequence[int]) -> Self:
        """The frame set to ``sizes``, cutting cells beyond it or adding holes."""
        return self._crop([0] * self.dimension, sizes)

    def apply(self, isometry: Isometry) -> Self:
        """The image of the pattern by an isometry of its grid, its frame mapped onto the
        image of the frame (so a quarter turn swaps width and height)."""
        if not isinstance(isometry, Isometry):
            raise UsageError(f"apply needs an Isometry, not {isometry!r}")
        if isometry.grid != self.grid.name:
            raise UsageError(
                f"the isometry {isometry.name} acts on the {isometry.grid} grid, "
                f"not on the {self.grid.name} grid of a {type(self).__name__}"
            )
        # An isometry of the square or cubic grid permutes the axes and reverses some:
        # the image is the array's axes permuted and flipped, no cell listed (a list of
        # coordinates takes 16 or 24 bytes a cell where the array takes one).
        matrix = np.array(isometry.matrix, dtype=np.int64)
        axes = [int(np.flatnonzero(row)[0]) for row in matrix]
        image = np.transpose(self._array, axes)
        flipped = tuple(axis for axis, row in enumerate(matrix) if row[axes[axis]] < 0)
        return type(self)(np.flip(image, flipped) if flipped else image)

    def normalized(self) -> Self:
        """The pattern trimmed to the bounding box of its cells (empty: a 0-size frame)."""
        if not self._array.any():
            return type(self)(np.zeros((0,) * self.dimension, dtype=bool))
        coords = self.coords()
        low, high = coords.min(axis=0), coords.max(axis=0) + 1
        return type(self)(self._array[tuple(slice(a, b) for a, b in zip(low, high, strict=True))])

    def symmetries(self) -> IsometryGroup:
        """The isometries of the grid mapping the pattern onto a translate of itself."""
        return self.grid.symmetries(self.coords())

    # ----- pictures -----

    def _repr_svg_(self) -> str:
        from excover.tiling.render import pattern_svg

        return pattern_svg(self)


def _padded(array: BoolArray, shape: tuple[int, ...]) -> BoolArray:
    if array.shape == shape:
        return array
    result = _frame(shape)
    result[tuple(slice(0, s) for s in array.shape)] = array
    return result


def _frame(sizes: tuple[int, ...], value: bool = False) -> BoolArray:
    """A new array of the given sizes, every entry ``value``; a frame too large for numpy
    or for memory is a UsageError (numpy raises ValueError or MemoryError)."""
    try:
        return np.full(sizes, value, dtype=bool) if value else np.zeros(sizes, dtype=bool)
    except (ValueError, MemoryError):
        frame = "x".join(str(size) for size in sizes)
        raise UsageError(f"a {frame} frame is too large to hold in memory") from None


def drawing_lines(text: str) -> tuple[list[str], int]:
    """The lines of an ASCII drawing (without their ``\r``), the blank lines before and
    after it dropped, and the number of blank lines dropped before it (to number the
    lines of the text in an error)."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    skipped = 0
    while skipped < len(lines) and not lines[skipped].strip():
        skipped += 1
    while len(lines) > skipped and not lines[-1].strip():
        lines.pop()
    return lines[skipped:], skipped


def _parse_rows(text: str, source: str, first_line: int = 1) -> list[list[bool]]:
    """The rows of an ASCII drawing, top row first, as lists of cell flags.

    Leading and trailing blank lines are dropped; characters other than cells and holes
    raise :class:`~excover.FormatError` naming the line (``first_line`` being the number
    of the text's first line in its source) and column.
    """
    lines, skipped = drawing_lines(text)
    rows = []
    for number, line in enumerate(lines, first_line + skipped):
        for column, char in enumerate(line, 1):
            if char not in CELL_CHARS and char not in HOLE_CHARS:
                raise FormatError(
                    f"unexpected character {char!r} at column {column} "
                    f"(cells are '*' or '#', holes are '.', ' ', '_', '-' or 'o')",
                    source=source,
                    line=number,
                )
        rows.append([char in CELL_CHARS for char in line])
    return rows


def _rows_array(rows: list[list[bool]]) -> BoolArray:
    """An array ``[x, y]`` from rows written top first, padded with holes on the right."""
    width = max((len(row) for row in rows), default=0)
    array = np.zeros((width, len(rows)), dtype=bool)
    for number, row in enumerate(rows):
        array[: len(row), len(rows) - 1 - number] = row
    return array


class Pattern(_ArrayPattern):
    """A finite set of cells of the square grid, in a ``width`` x ``height`` frame.

    >>> board = Pattern.from_ascii('''
    ... ***
    ... *.*''')
    >>> board.cells  # (x, y), y = 0 being the bottom row
    [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)]
    """

    grid = SQUARE
    dimension = 2
    __slots__ = ()

    @classmethod
    def from_ascii(cls, text: str, source: str = "<string>") -> Self:
        """A pattern drawn in ASCII art: ``*`` or ``#`` is a cell; ``.``, space, ``_``,
        ``-`` and ``o`` are holes; short rows are padded with holes on the right; the first
        written row is the top. Blank lines before and after the drawing are ignored."""
        if not isinstance(text, str):
            raise UsageError(f"Pattern.from_ascii needs a string, not {text!r}")
        return cls(_rows_array(_parse_rows(text, source)))

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Self:
        """A pattern from a text file holding ASCII art (see :meth:`from_ascii`)."""
        return cls.from_ascii(*read_text(path))

    def set(self, x: int, y: int, value: bool = True) -> Self:
        """The pattern with cell ``(x, y)`` made a cell (or a hole); it must be in the frame."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise UsageError(f"cell ({x}, {y}) is outside the {self.width}x{self.height} frame")
        array = self._array.copy()
        array[x, y] = bool(value)
        return type(self)(array)

    def crop(self, x: int, y: int, width: int, height: int) -> Self:
        """The ``width`` x ``height`` box whose bottom-left cell is ``(x, y)``, as a pattern
        whose origin is that cell; parts of the box outside the frame are holes."""
        return self._crop((x, y), (width, height))

    def shift(self, dx: int, dy: int) -> Self:
        """The cells moved by ``(dx, dy)``; the frame grows by ``dx`` and ``dy``; cells
        moved to a negative coordinate are dropped."""
        return self._shift((dx, dy))

    def resize(self, width: int, height: int) -> Self:
        """The frame set to ``width`` x ``height``: cells beyond it dropped, holes added."""
        return self._resize((width, height))

    def ascii(self, cell: str = "*", hole: str = ".") -> str:
        """The pattern as ASCII art, top row first (:meth:`from_ascii` reads it back)."""
        return "\n".join(
            "".join(cell if self._array[x, y] else hole for x in range(self.width))
            for y in reversed(range(self.height))
        )

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        return f"Pattern.from_ascii('''\n{self.ascii()}''')"


class Pattern3(_ArrayPattern):
    """A finite set of cells of the cubic grid, in a ``width`` x ``height`` x ``depth``
    frame; z grows upward through the layers."""

    grid = CUBE
    dimension = 3
    __slots__ = ()

    @classmethod
    def from_layers(cls, layers: Sequence[str | Pattern], source: str = "<string>") -> Self:
        """A 3D pattern from its horizontal layers, bottom (``z = 0``) first, each in ASCII
        art (see :meth:`Pattern.from_ascii`) or a :class:`Pattern`; layers are padded to a
        common width and height (from the bottom-left corner)."""
        if isinstance(layers, str):
            raise UsageError("Pattern3.from_layers needs a list of layers, not one string")
        flats = [
            layer
            if isinstance(layer, Pattern)
            else Pattern.from_ascii(layer, f"{source} layer {z}")
            for z, layer in enumerate(layers)
        ]
        width = max((p.width for p in flats), default=0)
        height = max((p.height for p in flats), default=0)
        array = np.zeros((width, height, len(flats)), dtype=bool)
        for z, flat in enumerate(flats):
            array[: flat.width, : flat.height, z] = flat.array
        return cls(array)

    @classmethod
    def from_ascii(cls, text: str, source: str = "<string>") -> Self:
        """A 3D pattern drawn as its layers in ASCII art (see :meth:`Pattern.from_ascii`),
        bottom layer (``z = 0``) first, separated by blank lines."""
        if not isinstance(text, str):
            raise UsageError(f"Pattern3.from_ascii needs a string, not {text!r}")
        layers: list[Pattern] = []
        block: list[str] = []
        start = 1
        for number, line in enumerate([*text.split("\n"), ""], 1):
            if line.strip():
                start = start if block else number
                block.append(line)
            elif block:
                rows = _parse_rows("\n".join(block), f"{source} layer {len(layers)}", start)
                layers.append(Pattern(_rows_array(rows)))
                block = []
        return cls.from_layers(layers, source)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Self:
        """A 3D pattern from a text file holding its layers (see :meth:`from_ascii`)."""
        return cls.from_ascii(*read_text(path))

    @property
    def depth(self) -> int:
        """The frame's size along z (the number of layers)."""
        return self.shape[2]

    def layer(self, z: int) -> Pattern:
        """The horizontal layer at height ``z`` as a 2D pattern."""
        return Pattern(self._array[:, :, z])

    def set(self, x: int, y: int, z: int, value: bool = True) -> Self:
        """The pattern with cell ``(x, y, z)`` made a cell (or a hole), inside the frame."""
        if not all(0 <= c < s for c, s in zip((x, y, z), self.shape, strict=True)):
            raise UsageError(f"cell ({x}, {y}, {z}) is outside the {self.shape} frame")
        array = self._array.copy()
        array[x, y, z] = bool(value)
        return type(self)(array)

    def crop(self, x: int, y: int, z: int, width: int, height: int, depth: int) -> Self:
        """The box of the given sizes whose lowest corner is ``(x, y, z)``, moved to the
        origin; parts outside the frame are holes."""
        return self._crop((x, y, z), (width, height, depth))

    def shift(self, dx: int, dy: int, dz: int) -> Self:
        """The cells moved by ``(dx, dy, dz)`` (see :meth:`Pattern.shift`)."""
        return self._shift((dx, dy, dz))

    def resize(self, width: int, height: int, depth: int) -> Self:
        """The frame set to the given sizes: cells beyond it dropped, holes added."""
        return self._resize((width, height, depth))

    def __repr__(self) -> str:
        layers = ", ".join(repr(self.layer(z).ascii()) for z in range(self.depth))
        return f"Pattern3.from_layers([{layers}])"
