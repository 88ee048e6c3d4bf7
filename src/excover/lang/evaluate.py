"""Values of ``.cmb`` expressions: patterns, tiles and problems over :mod:`excover.tiling`.

Expressions denote patterns of the square grid (:class:`~excover.tiling.Pattern`), or of
the hexagonal and triangular grids (``hex{...}``, ``triangle{...}``), on which only the
set operations apply. A 3D pattern is a list of square layers, bottom first. Every error
a tiling operation raises is reported at the expression or tile that caused it.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from excover.errors import ExcoverError, ProblemError
from excover.lang import syntax as s
from excover.lang.errors import LangError, Pos

if TYPE_CHECKING:
    from excover.tiling import Isometry, Pattern, Pattern3, Tiling
    from excover.tiling.tile import Multiplicity, Shape

__all__ = [
    "MAX_FRAME_CELLS",
    "Problem",
    "TileDef",
    "build_problem",
    "draw",
    "evaluate",
    "evaluate_layers",
    "located",
    "tile_defs",
]

#: The largest frame a pattern expression may make (width x height, one byte per cell).
MAX_FRAME_CELLS = 1 << 24

#: The set operations, by name.
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "union": operator.or_,
    "inter": operator.and_,
    "diff": operator.sub,
    "xor": operator.xor,
}

#: The characters allowed in ``hex{...}`` and ``triangle{...}`` drawings.
_POLYFORM_CHARS = frozenset("*. _-o\r")


@contextmanager
def located(pos: Pos) -> Iterator[None]:
    """Report an ExcoverError raised in the block as a LangError at ``pos``."""
    try:
        yield
    except LangError:
        raise
    except ProblemError as exc:
        raise LangError(exc.message, pos) from None
    except ExcoverError as exc:
        raise LangError(str(exc), pos) from None


def evaluate(expr: s.Expr, patterns: Mapping[str, Shape]) -> Shape:
    """The pattern an expression denotes, names looked up in ``patterns``."""
    from excover.tiling import Pattern, Pattern3

    if isinstance(expr, s.Var):
        return patterns[expr.name]
    if isinstance(expr, s.Art):
        return _art(expr)
    if isinstance(expr, s.Constant):
        _check_frame(expr.width, expr.height, pos=expr.pos)
        return Pattern.constant(expr.width, expr.height, expr.value)
    if isinstance(expr, s.Binary):
        left, right = evaluate(expr.left, patterns), evaluate(expr.right, patterns)
        if type(left) is not type(right):
            raise LangError(
                f"{expr.op}: cannot combine a {_kind(left)} with a {_kind(right)}", expr.pos
            )
        if isinstance(left, Pattern | Pattern3) and isinstance(right, Pattern | Pattern3):
            frame = (max(a, b) for a, b in zip(left.shape, right.shape, strict=True))
            _check_frame(*frame, pos=expr.pos)  # the result's frame holds both
        with located(expr.pos):
            result: Shape = _OPERATORS[expr.op](left, right)
        return result
    inner = evaluate(expr.expr, patterns)
    if not isinstance(inner, Pattern):
        name = type(expr).__name__.lower().replace("setcell", "set")
        raise LangError(f"{name} works on square patterns, not on a {_kind(inner)}", expr.pos)
    with located(expr.pos):
        if isinstance(expr, s.SetCell):
            return inner.set(expr.x, expr.y, expr.value)
        if isinstance(expr, s.Crop):
            _check_frame(expr.width, expr.height, pos=expr.pos)
            return inner.crop(expr.x, expr.y, expr.width, expr.height)
        if isinstance(expr, s.Shift):
            return _shifted(inner, expr)
        if isinstance(expr, s.Resize):
            _check_frame(expr.width, expr.height, pos=expr.pos)
            return inner.resize(expr.width, expr.height)
        return inner.apply(_isometry(expr.isometry))


def _shifted(pattern: Pattern, expr: s.Shift) -> Pattern:
    """``shift``: the cells moved right by ``dx`` and up by ``dy`` (both non-negative in
    the grammar), the frame grown to hold them. combine kept the frame and silently
    dropped the cells that left it, which could take cells off a tiling's board."""
    _check_frame(pattern.width + expr.dx, pattern.height + expr.dy, pos=expr.pos)
    return pattern.shift(expr.dx, expr.dy)


def _check_frame(*sizes: int, pos: Pos) -> None:
    """Refuse frames too large to hold in memory, before numpy is asked for them (a side
    is bounded too: numpy refuses a ``0 x 10**20`` array)."""
    if math.prod(sizes) > MAX_FRAME_CELLS or max(sizes) > MAX_FRAME_CELLS:
        frame = "x".join(str(size) for size in sizes)
        raise LangError(f"a {frame} frame is too large (at most {MAX_FRAME_CELLS} cells)", pos)


def evaluate_layers(layers: Sequence[s.Expr], patterns: Mapping[str, Shape]) -> Pattern3:
    """The 3D pattern of square layers, bottom (z = 0) first."""
    from excover.tiling import Pattern, Pattern3

    flats: list[Pattern] = []
    for layer in layers:
        flat = evaluate(layer, patterns)
        if not isinstance(flat, Pattern):
            raise LangError(
                f"a layer of a 3D pattern must be square, not a {_kind(flat)}", layer.pos
            )
        flats.append(flat)
    if flats:  # the layers are padded to a common frame
        sizes = (max(f.width for f in flats), max(f.height for f in flats), len(flats))
        _check_frame(*sizes, pos=layers[0].pos)
    return Pattern3.from_layers(flats)


def _kind(shape: object) -> str:
    names = {"Pattern": "square pattern", "Pattern3": "3D pattern"}
    name = type(shape).__name__
    return names.get(name, name.replace("Pattern", "").lower() + " pattern")


def _isometry(name: str) -> Isometry:
    from excover.tiling import D4

    return next(g for g in D4 if g.name == name)


def _art(art: s.Art) -> Shape:
    """The pattern of an ASCII drawing.

    Square grid, as combine: blanks are ignored, a newline or ``$`` ends a row, empty rows
    are dropped, ``*`` is a cell and any other character a hole, short rows are padded
    with holes, the first row is the top. Hexagons and triangles keep their blanks (they
    place the cells), end rows at newlines and ``$`` too, and allow only ``*`` for cells
    and ``. _ - o`` or a blank for holes.
    """
    import numpy as np

    from excover.tiling import HexPattern, Pattern, TrianglePattern

    if art.grid == "square":
        rows = [
            row.replace(" ", "").replace("\t", "").replace("\r", "")
            for line in art.text.split("\n")
            for row in line.split("$")
        ]
        rows = [row for row in rows if row]
        width = max((len(row) for row in rows), default=0)
        array = np.zeros((width, len(rows)), dtype=bool)
        for number, row in enumerate(rows):
            array[: len(row), len(rows) - 1 - number] = [char == "*" for char in row]
        return Pattern(array)
    text = art.text.replace("\t", " ").replace("$", "\n")
    for number, line in enumerate(text.split("\n")):
        bad = [char for char in line if char not in _POLYFORM_CHARS]
        if bad:
            raise LangError(
                f"bad character {bad[0]!r} in row {number} of a {art.grid} pattern: "
                "cells are '*', holes '.' or blanks",
                art.pos,
            )
    with located(art.pos):
        if art.grid == "hex":
            return HexPattern.from_ascii(text, source=str(art.pos))
        return TrianglePattern.from_ascii(text, source=str(art.pos))


# --------------------------------------------------------------------------- tiles


@dataclass(frozen=True)
class TileDef:
    """A tile of a tile list: its shape, its name (the variable it was written as, if
    any), its multiplicity range and its symmetry, and where it was written."""

    pos: Pos
    shape: Shape
    name: str | None
    lo: int
    hi: int | None
    symmetry: str

    @property
    def multiplicity(self) -> Multiplicity:
        """The multiplicity in the tiling library's terms."""
        table: dict[tuple[int, int | None], Multiplicity] = {
            (0, None): "any",
            (1, 1): "one",
            (0, 1): "maybe",
        }
        return table.get((self.lo, self.hi), (self.lo, self.hi))

    def options(self) -> str:
        """The tile's options as written in the language (``~one ~sym``, ``~2..3``)."""
        words = []
        if (self.lo, self.hi) == (1, 1):
            words.append("~one")
        elif (self.lo, self.hi) == (0, 1):
            words.append("~maybe")
        elif (self.lo, self.hi) != (0, None):
            if self.lo == self.hi:
                words.append(f"~{self.lo}")
            else:
                words.append(f"~{self.lo}..{'' if self.hi is None else self.hi}")
        if self.symmetry != "none":
            words.append(
                {"all": "~sym", "rotations": "~rot"}.get(self.symmetry, f"~{self.symmetry}")
            )
        return " ".join(words)


def tile_defs(specs: Sequence[s.TileSpec], patterns: Mapping[str, Shape]) -> list[TileDef]:
    """The tiles of a list, their shapes evaluated."""
    return [
        TileDef(
            spec.pos,
            evaluate(spec.expr, patterns),
            spec.expr.name if isinstance(spec.expr, s.Var) else None,
            spec.lo,
            spec.hi,
            spec.symmetry,
        )
        for spec in specs
    ]


# --------------------------------------------------------------------------- problems


@dataclass
class Problem:
    """A declared problem: its board and tiles, and the tiling problem they make.

    ``tiling`` is None when the problem has no solution for a reason found while building
    it: a tile that must be used is larger than the board (``blocked`` is its name).
    """

    name: str
    pos: Pos
    board: Shape
    tiles: list[TileDef]
    names: list[str]
    tiling: Tiling | None
    blocked: str | None = None


def build_problem(
    name: str,
    pos: Pos,
    board: Shape,
    tiles: list[TileDef],
    interchangeable: bool,
    progress: Callable[[int, int], None] | None = None,
) -> Problem:
    """The tiling problem of ``tiles`` on ``board``.

    Tiles keep the names they were written with; a repeated name gets ``#2``, ``#3``, ...
    and a tile written as a pattern gets ``#k`` (its place in the list), names no
    variable can have. A tile larger than the board is dropped when it may be left out
    (combine gives it no placement); when it must be used, the problem has no solution.
    """
    from excover.tiling import Tile, Tiling

    grid = board.grid
    board_size = len(board.coords())
    if board_size == 0:
        raise LangError(f"the board of problem {name!r} has no cells", pos)
    names: list[str] = []
    seen: dict[str, int] = {}
    library: list[Tile] = []
    blocked = None
    for number, tile in enumerate(tiles, 1):
        base = tile.name if tile.name is not None else f"#{number}"
        seen[base] = seen.get(base, 0) + 1
        label = base if seen[base] == 1 else f"{base}#{seen[base]}"
        names.append(label)
        if tile.shape.grid is not grid:
            raise LangError(
                f"tile {label!r} is a {_kind(tile.shape)} but the board of {name!r} is a "
                f"{_kind(board)}",
                tile.pos,
            )
        with located(tile.pos):
            made = Tile(tile.shape, label, tile.multiplicity, tile.symmetry)
        if made.size > board_size:
            if tile.lo > 0 and blocked is None:
                blocked = label
            continue
        library.append(made)
    tiling = None
    if blocked is None:
        with located(pos):
            tiling = Tiling(board, library, interchangeable=interchangeable, progress=progress)
    return Problem(name, pos, board, tiles, names, tiling, blocked)


# --------------------------------------------------------------------------- pictures


def draw(shape: Shape) -> str:
    """A pattern as text, top row first: ``*`` cells and ``.`` holes; hexagons staggered
    as in their drawings; 3D patterns as their layers side by side, bottom on the left."""
    from excover.tiling import Pattern, Pattern3
    from excover.tiling.polyform import triangle_spot

    if isinstance(shape, Pattern):
        return shape.ascii()
    if isinstance(shape, Pattern3):
        layers = [shape.layer(z).ascii().split("\n") for z in range(shape.depth)]
        return "\n".join(" ".join(rows) for rows in zip(*layers, strict=True))
    cells = shape.coords().tolist()
    if not cells:
        return ""
    if shape.grid.name == "hex":
        spots = {(2 * q + r, r) for q, r in cells}
        hole = " "
    else:
        spots = {triangle_spot(cell) for cell in cells}
        hole = "."
    xs = [x for x, _ in spots]
    ys = [y for _, y in spots]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = "".join("*" if (x, y) in spots else hole for x in range(min(xs), max(xs) + 1))
        rows.append(row.rstrip())
    return "\n".join(rows)
