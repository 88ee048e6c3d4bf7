"""A studio design: a square board and the pieces to tile it with, read and written three
ways.

- As JSON, the form the page sends: ``{"board": ["**.", ...], "pieces": [{"name": "F",
  "cells": [".**", "**.", ".*."], "count": "1", "symmetry": "all"}, ...]}``. The rows are
  ASCII art, top row first (``*`` a cell, ``.`` none). A count is ``"N"``, ``"LO..HI"``,
  ``"LO.."`` or ``"any"``, as the ``.cmb`` language writes multiplicities. Everything the
  page sends is untrusted: :meth:`Design.from_json` checks every field and bounds every
  size, and names the field at fault when it refuses one.
- As a :class:`~excover.tiling.Tiling`, to solve (:meth:`Design.tiling`).
- As a ``.cmb`` program that ``excover run`` accepts (:meth:`Design.to_cmb`), and back from
  one (:func:`from_cmb`: the program's last square problem). A program is parsed by the
  safe language (:mod:`excover.lang`) with its default permissions: it runs no outside
  command and reads no file outside its own folder; an uploaded program has an empty
  folder of its own, so it includes nothing at all.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from excover.errors import UsageError
from excover.lang import syntax
from excover.lang.errors import LangError, Pos
from excover.lang.evaluate import TileDef, evaluate, tile_defs
from excover.lang.grammar import KEYWORDS
from excover.lang.parser import SUBGROUPS, parse
from excover.tiling import Pattern, Tile, Tiling
from excover.tiling.tile import Shape

__all__ = ["MAX_BOARD_SIDE", "MAX_PIECES", "MAX_PIECE_SIDE", "Design", "DesignError", "Piece"]
__all__ += ["from_cmb"]

#: The longest side of a board, in cells.
MAX_BOARD_SIDE = 64
#: The longest side of a piece, in cells.
MAX_PIECE_SIDE = 16
#: The most pieces in a design.
MAX_PIECES = 400

#: The symmetries a piece may have: those the ``.cmb`` language writes.
SYMMETRIES = ("all", "rotations", "none", *SUBGROUPS)

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_COUNT = re.compile(r"(\d{1,6})(?:(\.\.)(\d{1,6})?)?")
_RESERVED = {*KEYWORDS.values(), "board", "puzzle", "pieces"}


class DesignError(UsageError):
    """A design the studio cannot use; ``where`` names the field at fault (``board row
    3``, ``piece 2 'F'``)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.detail = message


@dataclass(frozen=True)
class Piece:
    """A piece: its name, its cells as ASCII art (top row first), how many copies the
    tiling uses (``hi`` None: any number from ``lo``) and the isometries it may be moved
    by."""

    name: str
    rows: tuple[str, ...]
    lo: int
    hi: int | None
    symmetry: str

    @property
    def count(self) -> str:
        """The multiplicity as the page and the ``.cmb`` language write it."""
        if self.hi is None:
            return "any" if self.lo == 0 else f"{self.lo}.."
        return str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"

    def tile(self) -> Tile:
        """The piece as a tile of the tiling library."""
        shape = Pattern.from_ascii("\n".join(self.rows), source=f"piece {self.name!r}")
        return Tile(shape, name=self.name, multiplicity=(self.lo, self.hi), symmetry=self.symmetry)


@dataclass(frozen=True)
class Design:
    """A board (ASCII art, top row first) and its pieces (those used zero times left
    out of the tiling and of the program)."""

    board: tuple[str, ...]
    pieces: tuple[Piece, ...]

    @classmethod
    def from_json(cls, data: object) -> Design:
        """The design of a JSON document sent by the page, checked field by field."""
        if not isinstance(data, dict):
            raise DesignError("design", "expected an object with 'board' and 'pieces'")
        board = _art(data.get("board"), "board", MAX_BOARD_SIDE)
        pieces = data.get("pieces")
        if not isinstance(pieces, list):
            raise DesignError("pieces", "expected a list")
        if len(pieces) > MAX_PIECES:
            raise DesignError("pieces", f"{len(pieces)} pieces, more than {MAX_PIECES}")
        parsed = tuple(_piece(entry, number) for number, entry in enumerate(pieces, 1))
        _check_names(parsed)
        return cls(board, parsed)

    def to_json(self) -> dict[str, Any]:
        """The JSON document :meth:`from_json` reads back."""
        return {
            "board": list(self.board),
            "pieces": [
                {"name": p.name, "cells": list(p.rows), "count": p.count, "symmetry": p.symmetry}
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
            raise DesignError("pieces", "no piece is used: give some piece a count above 0")

    def tiling(self, progress: Callable[[int, int], None] | None = None) -> Tiling:
        """The tiling problem of the design (``progress`` as :class:`Tiling` takes it)."""
        self.check_usable()
        board = Pattern.from_ascii("\n".join(self.board), source="board")
        return Tiling(board, [p.tile() for p in self.used], progress=progress)

    def to_cmb(self) -> str:
        """The design as a ``.cmb`` program: the board and pieces as patterns, the tile
        list, the problem ``puzzle``, then one tiling and the counts."""
        self.check_usable()
        lines = [
            "# A puzzle designed in the excover studio (excover studio FILE.cmb opens it).",
            "",
        ]
        lines += _pattern("board", self.board)
        for piece in self.used:
            lines += _pattern(piece.name, piece.rows)
        specs = [_tile_spec(piece) for piece in self.used]
        lines.append("tiles pieces = [")
        lines += [f"  {spec}," for spec in specs[:-1]] + [f"  {specs[-1]}", "]", ""]
        lines += [
            "problem puzzle = board pieces",
            "solve dlx puzzle ascii",
            "count dlx puzzle",
            "count dlx puzzle ~up_to_symmetry",
            "",
        ]
        return "\n".join(lines)


def _art(rows: object, where: str, side: int) -> tuple[str, ...]:
    """Rows of ASCII art: a non-empty list of equally long strings of ``*`` and ``.``,
    at most ``side`` by ``side``."""
    if not isinstance(rows, list) or not rows:
        raise DesignError(where, "expected a non-empty list of rows of '*' and '.'")
    if len(rows) > side:
        raise DesignError(where, f"{len(rows)} rows, more than {side}")
    for number, row in enumerate(rows, 1):
        if not isinstance(row, str) or not row or len(row) > side:
            raise DesignError(f"{where} row {number}", f"expected 1 to {side} of '*' and '.'")
        if row.strip("*."):
            bad = row.strip("*.")[0]
            raise DesignError(f"{where} row {number}", f"{bad!r} is neither '*' nor '.'")
        if len(row) != len(rows[0]):
            raise DesignError(f"{where} row {number}", "the rows differ in length")
    if not any("*" in row for row in rows):
        raise DesignError(where, "it has no cells")
    return tuple(rows)


def _piece(entry: object, number: int) -> Piece:
    """One piece of the JSON document, the ``number``-th."""
    if not isinstance(entry, dict):
        raise DesignError(f"piece {number}", "expected an object")
    name = entry.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise DesignError(
            f"piece {number}", f"bad name {name!r}: a letter, then letters, digits or '_'"
        )
    where = f"piece {number} {name!r}"
    if name in _RESERVED:
        raise DesignError(where, "this name is reserved in .cmb programs: rename the piece")
    rows = _art(entry.get("cells"), where, MAX_PIECE_SIDE)
    lo, hi = _count(entry.get("count", "1"), where)
    symmetry = entry.get("symmetry", "all")
    if symmetry not in SYMMETRIES:
        raise DesignError(where, f"symmetry {symmetry!r} is none of {', '.join(SYMMETRIES)}")
    return Piece(name, rows, lo, hi, str(symmetry))


def _count(text: object, where: str) -> tuple[int, int | None]:
    """A count: ``N``, ``LO..HI``, ``LO..`` or ``any``, as a range."""
    if text == "any":
        return 0, None
    found = _COUNT.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise DesignError(where, f"bad count {text!r}: write N, LO..HI, LO.. or any")
    lo = int(found.group(1))
    if not found.group(2):
        return lo, lo
    hi = None if found.group(3) is None else int(found.group(3))
    if hi is not None and hi < lo:
        raise DesignError(where, f"bad count {text!r}: {hi} is less than {lo}")
    return lo, hi


def _check_names(pieces: tuple[Piece, ...]) -> None:
    seen: set[str] = set()
    for number, piece in enumerate(pieces, 1):
        if piece.name in seen:
            raise DesignError(f"piece {number} {piece.name!r}", "another piece has this name")
        seen.add(piece.name)


def _pattern(name: str, rows: tuple[str, ...]) -> list[str]:
    return [f"pattern {name} = {{", *rows, "}", ""]


def _tile_spec(piece: Piece) -> str:
    """A tile of the program's list: its name and options."""
    count = "~one" if (piece.lo, piece.hi) == (1, 1) else f"~{piece.count}"
    if piece.hi is None and piece.lo == 0:
        count = "~0.."
    symmetry = {"all": " ~sym", "rotations": " ~rot", "none": ""}.get(
        piece.symmetry, f" ~{piece.symmetry}"
    )
    return f"{piece.name} {count}{symmetry}"


# ----- reading a program -----


def from_cmb(text: str, source: str = "<upload>", folder: str | None = None) -> Design:
    """The design of the last square problem a ``.cmb`` program declares.

    Only the declarations run (patterns, tile lists, problems: no solving, printing or
    writing). ``folder`` is the program's own folder, where its includes are found; an
    uploaded program (``folder`` None) gets an empty one, so it includes nothing.
    Raises :class:`~excover.lang.LangError` (located) for a bad program.
    """
    if folder is None:
        with tempfile.TemporaryDirectory() as empty:
            program = parse(text, source, empty)
    else:
        program = parse(text, source, folder)
    patterns: dict[str, Shape] = {}
    tile_lists: dict[str, list[TileDef]] = {}
    last: tuple[syntax.ProblemDecl, Shape, list[TileDef]] | None = None
    for statement in program.statements:
        if isinstance(statement, syntax.PatternDecl):
            patterns[statement.name] = evaluate(statement.expr, patterns)
        elif isinstance(statement, syntax.TilesDecl) and not statement.three_d:
            tile_lists[statement.name] = tile_defs(statement.tiles, patterns)
        elif isinstance(statement, syntax.ProblemDecl) and not statement.three_d:
            last = statement, *_problem_parts(statement, patterns, tile_lists)
    if last is None:
        raise LangError("the program declares no square problem to open", program.source.end())
    statement, board, defs = last
    return Design(_rows(board, statement.pos, "the board"), _pieces(defs))


def _problem_parts(
    statement: syntax.ProblemDecl,
    patterns: Mapping[str, Shape],
    tile_lists: Mapping[str, list[TileDef]],
) -> tuple[Shape, list[TileDef]]:
    board = evaluate(statement.board, patterns)
    if isinstance(statement.tiles, syntax.Var):
        return board, tile_lists[statement.tiles.name]
    return board, tile_defs(statement.tiles, patterns)


def _rows(shape: Shape, pos: Pos, what: str) -> tuple[str, ...]:
    """A square pattern as rows of ASCII art; a located error for other grids."""
    if not isinstance(shape, Pattern) or shape.grid.name != "square":
        raise LangError(f"{what} is not on the square grid: the studio edits square ones", pos)
    rows = tuple(shape.ascii().splitlines())
    side = MAX_PIECE_SIDE if what != "the board" else MAX_BOARD_SIDE
    if len(rows) > side or max(len(row) for row in rows) > side:
        raise LangError(f"{what} is larger than {side} by {side} cells", pos)
    return rows


def _pieces(defs: list[TileDef]) -> tuple[Piece, ...]:
    """The pieces of a problem's tiles, each with a distinct name (an unnamed tile is
    ``piece1``, ...; a name used twice gets ``_2``, ... after it)."""
    pieces: list[Piece] = []
    names: set[str] = set()
    for number, tile in enumerate(defs, 1):
        base = tile.name if tile.name is not None and tile.name not in _RESERVED else None
        name = base or f"piece{number}"
        suffix = 2
        while name in names:
            name, suffix = f"{base or 'piece'}_{suffix}", suffix + 1
        names.add(name)
        rows = _rows(tile.shape, tile.pos, f"tile {name!r}")
        pieces.append(Piece(name, rows, tile.lo, tile.hi, tile.symmetry))
    if len(pieces) > MAX_PIECES:
        raise DesignError("pieces", f"{len(pieces)} pieces, more than {MAX_PIECES}")
    return tuple(pieces)
