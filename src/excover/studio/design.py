"""A studio design: a board on one grid and the pieces to tile it with, read and written
three ways.

- As JSON, the form the page sends: ``{"grid": "hex", "board": ["**.", ...], "pieces":
  [{"name": "F", "cells": [".**", "**.", ".*."], "count": "1", "symmetry": "all"},
  ...]}``. The grid is ``square`` (the default), ``hex``, ``triangle``, ``cube``, or one
  of BurrTools' other solid grids, ``prism``, ``sphere``, ``rhombic``, ``tetraocta``; the
  board and each piece are drawn as rows of ``*`` (a cell) and ``.`` (none), top row
  first, on the grid's layout (:mod:`excover.studio.cells`); on the solid grids they are
  lists of such layers, bottom layer first, each ``*`` on a cell of the grid. A count is
  ``"N"``, ``"LO..HI"``, ``"LO.."`` or ``"any"``, as the ``.cmb`` language writes
  multiplicities. Everything the page sends is untrusted: :meth:`StudioDesign.from_json`
  checks every field and bounds every size, and names the field at fault when it
  refuses one. Pieces are kept in the smallest frame that holds them.
- As a :class:`~excover.tiling.Tiling`, to solve (:meth:`StudioDesign.tiling`).
- As a ``.cmb`` program that ``excover run`` accepts (:meth:`StudioDesign.to_cmb`); a program
  is read back by :func:`excover.studio.program.from_cmb`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from excover.errors import UsageError
from excover.lang.grammar import KEYWORDS
from excover.lang.layers import LayerError
from excover.lang.parser import SUBGROUPS
from excover.studio.cells import GRIDS, LAYERED, Layers, cmb_pattern, drawing, shape
from excover.tiling import Tile, Tiling
from excover.tiling.registry import GRIDS as REGISTRY
from excover.tiling.tile import Shape

__all__ = [
    "MAX_BOARD_SIDE",
    "MAX_CUBE_SIDE",
    "MAX_PIECES",
    "MAX_PIECE_SIDE",
    "MAX_RHOMBIC_SIDE",
    "RESERVED",
    "Piece",
    "StudioDesign",
    "StudioDesignError",
    "cells_json",
    "max_side",
]

#: The longest side of a planar board, in cells.
MAX_BOARD_SIDE = 64
#: The longest side of a box of the cubic grid (width, height and layers), in cells, and
#: of the other solid grids' boxes but the rhombic one.
MAX_CUBE_SIDE = 16
#: The longest side of a box of rhombic dodecahedra (48 cells of the grid each).
MAX_RHOMBIC_SIDE = 8
#: The longest side of a piece, in cells.
MAX_PIECE_SIDE = 16
#: The most pieces in a design.
MAX_PIECES = 400

#: The symmetries a piece may have: those the ``.cmb`` language writes (the subgroups of
#: the square's isometries on the square grid only).
SYMMETRIES = ("all", "rotations", "none", *SUBGROUPS)

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_COUNT = re.compile(r"(\d{1,6})(?:(\.\.)(\d{1,6})?)?")
#: Names a piece may not have: the language's keywords and the program's own names.
RESERVED = {*KEYWORDS.values(), "board", "puzzle", "pieces"}


class StudioDesignError(UsageError):
    """A design the studio cannot use; ``where`` names the field at fault (``board row
    3``, ``piece 2 'F'``)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.detail = message


def max_side(grid: str) -> int:
    """The longest side of a board on ``grid``, in cells."""
    if REGISTRY[grid].traits.spot_cells > 1:  # a spot is many cells (48 on the rhombic grid)
        return MAX_RHOMBIC_SIDE
    return MAX_CUBE_SIDE if grid in LAYERED else MAX_BOARD_SIDE


def cells_json(grid: str, layers: Layers) -> list[Any]:
    """A drawing as the JSON document writes it: a list of rows, or of layers on the solid
    grids."""
    if grid in LAYERED:
        return [list(layer) for layer in layers]
    return list(layers[0])


@dataclass(frozen=True)
class Piece:
    """A piece: its name, its cells (a drawing on the design's grid), how many copies the
    tiling uses (``hi`` None: any number from ``lo``) and the isometries it may be moved
    by."""

    name: str
    cells: Layers
    lo: int
    hi: int | None
    symmetry: str

    @property
    def count(self) -> str:
        """The multiplicity as the page and the ``.cmb`` language write it."""
        if self.hi is None:
            return "any" if self.lo == 0 else f"{self.lo}.."
        return str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"

    def tile(self, grid: str) -> Tile:
        """The piece as a tile of the tiling library."""
        return Tile(
            shape(grid, self.cells),
            name=self.name,
            multiplicity=(self.lo, self.hi),
            symmetry=self.symmetry,
        )


@dataclass(frozen=True)
class StudioDesign:
    """A board (a drawing on ``grid``) and its pieces (those used zero times left out of
    the tiling and of the program)."""

    grid: str
    board: Layers
    pieces: tuple[Piece, ...]

    @classmethod
    def from_json(cls, data: object) -> StudioDesign:
        """The design of a JSON document sent by the page, checked field by field."""
        if not isinstance(data, dict):
            raise StudioDesignError("design", "expected an object with 'board' and 'pieces'")
        grid = data.get("grid", "square")
        if grid not in GRIDS:
            raise StudioDesignError("grid", f"{grid!r} is none of {', '.join(GRIDS)}")
        board = _drawing(grid, data.get("board"), "board", max_side(grid))
        pieces = data.get("pieces")
        if not isinstance(pieces, list):
            raise StudioDesignError("pieces", "expected a list")
        if len(pieces) > MAX_PIECES:
            raise StudioDesignError("pieces", f"{len(pieces)} pieces, more than {MAX_PIECES}")
        parsed = tuple(_piece(grid, entry, number) for number, entry in enumerate(pieces, 1))
        _check_names(parsed)
        return cls(str(grid), board, parsed)

    def to_json(self) -> dict[str, Any]:
        """The JSON document :meth:`from_json` reads back."""
        return {
            "grid": self.grid,
            "board": cells_json(self.grid, self.board),
            "pieces": [
                {
                    "name": p.name,
                    "cells": cells_json(self.grid, p.cells),
                    "count": p.count,
                    "symmetry": p.symmetry,
                }
                for p in self.pieces
            ],
        }

    @property
    def used(self) -> tuple[Piece, ...]:
        """The pieces the tiling may use (those whose count is not 0)."""
        return tuple(p for p in self.pieces if p.hi != 0)

    def check_usable(self) -> None:
        """Refuse a design that uses no piece (it has no tiling, nor a program)."""
        if not self.used:
            raise StudioDesignError("pieces", "no piece is used: give some piece a count above 0")

    def board_shape(self) -> Shape:
        """The board as a pattern of the tiling library."""
        return shape(self.grid, self.board)

    def tiling(self, progress: Callable[[int, int], None] | None = None) -> Tiling:
        """The tiling problem of the design (``progress`` as :class:`Tiling` takes it)."""
        self.check_usable()
        pieces = [p.tile(self.grid) for p in self.used]
        return Tiling(self.board_shape(), pieces, progress=progress)

    def to_cmb(self) -> str:
        """The design as a ``.cmb`` program: the board and pieces as patterns, the tile
        list, the problem ``puzzle``, then one tiling and the counts (``pattern3``,
        ``tiles3``, ``problem3`` and the commands ending in 3 on the solid grids)."""
        self.check_usable()
        three = "3" if self.grid in LAYERED else ""
        lines = [
            "# A puzzle designed in the excover studio (excover studio FILE.cmb opens it).",
            f"# Grid: {self.grid}.",
            "",
            f"pattern{three} board = {cmb_pattern(self.grid, self.board)}",
            "",
        ]
        for piece in self.used:
            lines += [f"pattern{three} {piece.name} = {cmb_pattern(self.grid, piece.cells)}", ""]
        specs = [_tile_spec(piece) for piece in self.used]
        lines.append(f"tiles{three} pieces = [")
        lines += [f"  {spec}," for spec in specs[:-1]] + [f"  {specs[-1]}", "]", ""]
        lines += [
            f"problem{three} puzzle = board pieces",
            f"solve{three} dlx puzzle ascii",
            f"count{three} dlx puzzle",
            f"count{three} dlx puzzle ~up_to_symmetry",
            "",
        ]
        return "\n".join(lines)


def _rows(rows: object, where: str, side: int) -> tuple[str, ...]:
    """Rows of one layer: a non-empty list of equally long strings of ``*`` and ``.``, at
    most ``side`` by ``side``."""
    if not isinstance(rows, list) or not rows:
        raise StudioDesignError(where, "expected a non-empty list of rows of '*' and '.'")
    if len(rows) > side:
        raise StudioDesignError(where, f"{len(rows)} rows, more than {side}")
    for number, row in enumerate(rows, 1):
        if not isinstance(row, str) or not row or len(row) > side:
            raise StudioDesignError(f"{where} row {number}", f"expected 1 to {side} of '*' and '.'")
        if row.strip("*."):
            bad = row.strip("*.")[0]
            raise StudioDesignError(f"{where} row {number}", f"{bad!r} is neither '*' nor '.'")
        if len(row) != len(rows[0]):
            raise StudioDesignError(f"{where} row {number}", "the rows differ in length")
    return tuple(rows)


def _drawing(grid: str, data: object, where: str, side: int) -> Layers:
    """A board's or piece's drawing on ``grid``: rows, or a list of layers of rows of one
    size on the solid grids, each cell on the grid; with at least one cell."""
    if grid not in LAYERED:
        layers: Layers = (_rows(data, where, side),)
    else:
        if not isinstance(data, list) or not data or not all(isinstance(d, list) for d in data):
            raise StudioDesignError(
                where, "expected a non-empty list of layers, each a list of rows"
            )
        if len(data) > side:
            raise StudioDesignError(where, f"{len(data)} layers, more than {side}")
        layers = tuple(_rows(layer, f"{where} layer {z}", side) for z, layer in enumerate(data, 1))
        size = (len(layers[0][0]), len(layers[0]))
        for z, layer in enumerate(layers, 1):
            if (len(layer[0]), len(layer)) != size:
                raise StudioDesignError(f"{where} layer {z}", "the layers differ in size")
    if not any("*" in row for layer in layers for row in layer):
        raise StudioDesignError(where, "it has no cells")
    try:
        shape(grid, layers)
    except LayerError as exc:
        raise StudioDesignError(f"{where} layer {exc.layer + 1}", str(exc)) from None
    return layers


def _piece(grid: str, entry: object, number: int) -> Piece:
    """One piece of the JSON document, the ``number``-th, in the smallest frame."""
    if not isinstance(entry, dict):
        raise StudioDesignError(f"piece {number}", "expected an object")
    name = entry.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise StudioDesignError(
            f"piece {number}", f"bad name {name!r}: a letter, then letters, digits or '_'"
        )
    where = f"piece {number} {name!r}"
    if name in RESERVED:
        raise StudioDesignError(where, "this name is reserved in .cmb programs: rename the piece")
    cells = drawing(shape(grid, _drawing(grid, entry.get("cells"), where, MAX_PIECE_SIDE)))
    lo, hi = _count(entry.get("count", "1"), where)
    symmetry = entry.get("symmetry", "all")
    allowed = [name for name in SYMMETRIES if _named(grid, name)]
    if symmetry not in allowed:
        raise StudioDesignError(where, f"symmetry {symmetry!r} is none of {', '.join(allowed)}")
    return Piece(name, cells, lo, hi, str(symmetry))


def _named(grid: str, symmetry: str) -> bool:
    """Whether ``grid`` names a group ``symmetry`` (every grid its rotations, all and
    none; the square grid the subgroups of its isometries too)."""
    try:
        REGISTRY[grid].group(symmetry)
    except UsageError:
        return False
    return True


def _count(text: object, where: str) -> tuple[int, int | None]:
    """A count: ``N``, ``LO..HI``, ``LO..`` or ``any``, as a range."""
    if text == "any":
        return 0, None
    found = _COUNT.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise StudioDesignError(where, f"bad count {text!r}: write N, LO..HI, LO.. or any")
    lo = int(found.group(1))
    if not found.group(2):
        return lo, lo
    hi = None if found.group(3) is None else int(found.group(3))
    if hi is not None and hi < lo:
        raise StudioDesignError(where, f"bad count {text!r}: {hi} is less than {lo}")
    return lo, hi


def _check_names(pieces: tuple[Piece, ...]) -> None:
    seen: set[str] = set()
    for number, piece in enumerate(pieces, 1):
        if piece.name in seen:
            raise StudioDesignError(f"piece {number} {piece.name!r}", "another piece has this name")
        seen.add(piece.name)


def _tile_spec(piece: Piece) -> str:
    """A tile of the program's list: its name and options."""
    count = "~one" if (piece.lo, piece.hi) == (1, 1) else f"~{piece.count}"
    if piece.hi is None and piece.lo == 0:
        count = "~0.."
    symmetry = {"all": " ~sym", "rotations": " ~rot", "none": ""}.get(
        piece.symmetry, f" ~{piece.symmetry}"
    )
    return f"{piece.name} {count}{symmetry}"
