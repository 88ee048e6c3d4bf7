"""Values of ``.cmb`` expressions: patterns, tiles and problems over :mod:`excover.tiling`.

Expressions denote patterns of the square grid (:class:`~excover.tiling.Pattern`), or of
the hexagonal and triangular grids (``hex{...}``, ``triangle{...}``), on which only the
set operations apply. A 3D pattern is a list of layers, bottom first: square layers on
the cube, and on BurrTools' other solid grids the layers :mod:`excover.lang.layers`
reads. Every error a tiling operation raises is reported at the expression or tile that
caused it.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping, Sequence, Sized
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from excover.errors import ExcoverError, ProblemError
from excover.lang import syntax as s
from excover.lang.errors import LangError, Pos
from excover.lang.limits import (
    CELL_SET_BYTES,
    MAX_FRAME_CELLS,
    Budget,
    check_frame,
    problem_bytes,
    tile_bytes,
)

if TYPE_CHECKING:
    from excover.tiling import Grid, Isometry, Pattern, Tiling
    from excover.tiling.tile import Multiplicity, Shape, Tile

__all__ = [
    "MAX_FRAME_CELLS",
    "DeclaredProblem",
    "TileDef",
    "build_problem",
    "draw",
    "evaluate",
    "evaluate_layers",
    "flat_drawing",
    "joined_tiles",
    "layer_drawings",
    "located",
    "tile_defs",
    "used_at",
]

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


def evaluate(expr: s.Expr, patterns: Mapping[str, Shape], budget: Budget | None = None) -> Shape:
    """The pattern an expression denotes, names looked up in ``patterns``. Every frame
    (or set of cells) it makes is checked and charged to ``budget`` (a budget of its own
    when None) before it is allocated: see :mod:`excover.lang.limits`."""
    return _evaluate(expr, patterns, Budget() if budget is None else budget)


def _evaluate(expr: s.Expr, patterns: Mapping[str, Shape], budget: Budget) -> Shape:
    from excover.tiling import Pattern

    if isinstance(expr, s.Var):
        return patterns[expr.name]
    if isinstance(expr, s.Art):
        return _square_art(expr, budget) if _arrays(expr.grid) else _polyform_art(expr, budget)
    if isinstance(expr, s.Constant):
        _frame((expr.width, expr.height), budget, expr.pos)
        return Pattern.constant(expr.width, expr.height, expr.value)
    if isinstance(expr, s.Binary):
        left = _evaluate(expr.left, patterns, budget)
        return _binary(expr, left, _evaluate(expr.right, patterns, budget), budget)
    inner = _evaluate(expr.expr, patterns, budget)
    if not isinstance(inner, Pattern):
        name = type(expr).__name__.lower().replace("setcell", "set")
        raise LangError(f"{name} works on square patterns, not on a {_kind(inner)}", expr.pos)
    _frame(_made_frame(expr, inner), budget, expr.pos)
    with located(expr.pos):
        if isinstance(expr, s.SetCell):
            return inner.set(expr.x, expr.y, expr.value)
        if isinstance(expr, s.Crop):
            return inner.crop(expr.x, expr.y, expr.width, expr.height)
        if isinstance(expr, s.Shift):
            # combine kept the frame and dropped the cells that left it, which could take
            # cells off a tiling's board: the frame grows to hold them instead
            return inner.shift(expr.dx, expr.dy)
        if isinstance(expr, s.Resize):
            return inner.resize(expr.width, expr.height)
        return inner.apply(_isometry(expr.isometry))


def _made_frame(
    expr: s.SetCell | s.Crop | s.Shift | s.Resize | s.Apply, pattern: Pattern
) -> tuple[int, int]:
    """The frame that a frame operation on ``pattern`` makes (``shift``'s offsets are
    non-negative in the grammar; an isometry may swap the sides)."""
    if isinstance(expr, s.Crop | s.Resize):
        return expr.width, expr.height
    if isinstance(expr, s.Shift):
        return pattern.width + expr.dx, pattern.height + expr.dy
    if isinstance(expr, s.Apply):
        rows = _isometry(expr.isometry).matrix
        sides = pattern.shape
        width, height = (sum(abs(m) * n for m, n in zip(row, sides, strict=True)) for row in rows)
        return width, height
    return pattern.width, pattern.height


def _frame(sizes: Sequence[int], budget: Budget, pos: Pos) -> None:
    """Refuse, at ``pos``, a frame too large or past the program's budget; charge it."""
    cells = check_frame(*sizes, pos=pos)
    budget.charge(cells, f"a {'x'.join(str(n) for n in sizes)} frame", pos)


def _binary(expr: s.Binary, left: Shape, right: Shape, budget: Budget) -> Shape:
    """A set operation, its result checked and charged before it is made: a frame
    holding both frames, or a set of at most as many cells as the operation can give."""
    from excover.tiling import Pattern, Pattern3

    if type(left) is not type(right):
        raise LangError(
            f"{expr.op}: cannot combine a {_kind(left)} with a {_kind(right)}", expr.pos
        )
    if isinstance(left, Pattern | Pattern3) and isinstance(right, Pattern | Pattern3):
        _frame([max(a, b) for a, b in zip(left.shape, right.shape, strict=True)], budget, expr.pos)
    elif isinstance(left, Sized) and isinstance(right, Sized):  # hexagons and triangles
        cells = len(left) + len(right) if expr.op in ("union", "xor") else len(left)
        budget.charge(cells * CELL_SET_BYTES, f"a {_kind(left)} of {cells} cells", expr.pos)
    with located(expr.pos):
        result: Shape = _OPERATORS[expr.op](left, right)
    return result


def evaluate_layers(
    layers: Sequence[s.Expr],
    patterns: Mapping[str, Shape],
    budget: Budget | None = None,
    grid: str = s.DEFAULT_SOLID_GRID,
) -> Shape:
    """The 3D pattern of ``grid`` drawn by its layers, bottom (z = 0) first: square layers
    padded to a common frame on the cube, checked and charged to ``budget`` as
    :func:`evaluate` does; on the other solid grids, layers read as
    :mod:`excover.lang.layers` says, a cell that stands for none of the grid's an error
    at its layer."""
    from excover.lang.layers import LayerError, solid_pattern
    from excover.tiling import Pattern, Pattern3
    from excover.tiling.grids import GRIDS

    budget = Budget() if budget is None else budget
    flats: list[Shape] = []
    solid = GRIDS[grid]
    wanted = solid.layer_grid
    for layer in layers:
        flat = _evaluate(layer, patterns, budget)
        if flat.grid is not wanted:
            raise LangError(
                f"a layer of a {grid if solid.traits.layered else '3D'} pattern must be "
                f"{'square' if wanted.traits.art == '' else f'a {wanted.name} pattern'}, "
                f"not a {_kind(flat)}{_layers_hint(flat.grid)}",
                layer.pos,
            )
        flats.append(flat)
    if not solid.traits.layered:  # the cube's: an array of square layers
        squares = [flat for flat in flats if isinstance(flat, Pattern)]
        if squares:
            sizes = (max(f.width for f in squares), max(f.height for f in squares), len(squares))
            _frame(sizes, budget, layers[0].pos)
        return Pattern3.from_layers(squares)
    cells = sum(_cells(flat) for flat in flats) * solid.traits.spot_cells
    if layers:
        budget.charge(cells * CELL_SET_BYTES, f"a {grid} pattern of {cells} cells", layers[0].pos)
    spots = [[tuple(cell) for cell in flat.coords().tolist()] for flat in flats]
    try:
        return solid_pattern(grid, spots)
    except LayerError as exc:
        raise LangError(str(exc), layers[exc.layer].pos) from None


def _arrays(grid: str) -> bool:
    """Whether the patterns of the grid called ``grid`` are arrays with a frame (the
    square grid's :class:`~excover.tiling.Pattern`), not sets of cells."""
    from excover.tiling import Pattern
    from excover.tiling.grids import GRIDS

    return issubclass(GRIDS[grid].pattern, Pattern)


def _layers_hint(flat: Grid) -> str:
    """Which layered grids take layers of ``flat``'s patterns, said when a layer of
    another grid is one (none for the cube's square layers, the usual)."""
    from excover.tiling.grids import GRIDS

    if flat is GRIDS[s.DEFAULT_SOLID_GRID].layer_grid:
        return ""
    takers = [n for n, g in GRIDS.items() if g.traits.layered and g.traits.layer == flat.name]
    if not takers:
        return ""
    verb = "takes" if len(takers) == 1 else "take"
    return f" ({' or '.join(f'{name} [...]' for name in takers)} {verb} {flat.name} layers)"


def _kind(shape: object) -> str:
    names = {"Pattern": "square pattern", "Pattern3": "3D pattern"}
    name = type(shape).__name__
    return names.get(name, name.replace("Pattern", "").lower() + " pattern")


def _isometry(name: str) -> Isometry:
    from excover.tiling import D4

    return next(g for g in D4 if g.name == name)


#: A row of a square drawing (blanks removed): what stands between two row ends.
_ROW = re.compile(r"[^\n$]+")

#: The blanks a square drawing ignores.
_BLANKS = str.maketrans("", "", " \t\r")


def _square_art(art: s.Art, budget: Budget) -> Pattern:
    """The pattern of a drawing of the square grid, as combine read it: blanks are
    ignored, a newline or ``$`` ends a row, empty rows are dropped, ``*`` is a cell and
    any other character a hole, short rows are padded with holes, the first row is the
    top. The frame is measured row by row, nothing listed, then checked before the
    array is made: a short text may draw a huge frame (a long row, then many short ones)."""
    import numpy as np

    from excover.tiling import Pattern

    text = art.text.translate(_BLANKS)
    width = height = 0
    for row in _ROW.finditer(text):
        height += 1
        width = max(width, row.end() - row.start())
    _frame((width, height), budget, art.pos)
    array = np.zeros((width, height), dtype=bool)
    for number, row in enumerate(_ROW.finditer(text)):
        cells = np.frombuffer(row.group().encode("utf-32-le"), dtype="<u4") == ord("*")
        array[: len(cells), height - 1 - number] = cells
    return Pattern(array)


def _polyform_art(art: s.Art, budget: Budget) -> Shape:
    """The pattern of a ``hex{...}`` or ``triangle{...}`` drawing: blanks are kept (they
    place the cells), rows end at newlines and ``$``, only ``*`` is a cell and ``. _ - o``
    or a blank a hole."""
    from excover.tiling.grids import GRIDS

    text = art.text.replace("\t", " ").replace("$", "\n")
    bad = set(text) - _POLYFORM_CHARS - {"\n"}
    if bad:
        number, line = next((n, line) for n, line in enumerate(text.split("\n")) if set(line) & bad)
        char = next(char for char in line if char in bad)
        raise LangError(
            f"bad character {char!r} in row {number} of a {art.grid} pattern: "
            "cells are '*', holes '.' or blanks",
            art.pos,
        )
    cells = text.count("*")
    budget.charge(cells * CELL_SET_BYTES, f"a {art.grid} pattern of {cells} cells", art.pos)
    with located(art.pos):
        pattern: Any = GRIDS[art.grid].pattern
        drawn: Shape = pattern.from_ascii(text, source=str(art.pos))
        return drawn


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


def tile_defs(
    specs: Sequence[s.TileSpec], patterns: Mapping[str, Shape], budget: Budget | None = None
) -> list[TileDef]:
    """The tiles of a list, their shapes evaluated (and charged to ``budget``)."""
    budget = Budget() if budget is None else budget
    return [
        TileDef(
            spec.pos,
            _evaluate(spec.expr, patterns, budget),
            spec.expr.name if isinstance(spec.expr, s.Var) else None,
            spec.lo,
            spec.hi,
            spec.symmetry,
        )
        for spec in specs
    ]


def joined_tiles(
    items: Sequence[s.TileSpec | s.TilesRef],
    patterns: Mapping[str, Shape],
    lists: Mapping[str, list[TileDef]],
    budget: Budget | None = None,
) -> list[TileDef]:
    """The tiles of a sum of tile lists (``pentominoes + [O4 ~one]``), in order: the tiles
    written out evaluated, a named list's tiles (from ``lists``) as :func:`used_at` its
    name."""
    joined: list[TileDef] = []
    for item in items:
        if isinstance(item, s.TilesRef):
            joined.extend(used_at(lists[item.name], item.pos))
        else:
            joined.extend(tile_defs([item], patterns, budget))
    return joined


def used_at(tiles: list[TileDef], pos: Pos) -> list[TileDef]:
    """The tiles of a named list used at ``pos``: those of the piece catalog are located
    there, so that an error about one names the program's line and not the text excover
    generated for ``include "excover:NAME"``."""
    return [replace(tile, pos=pos) if tile.pos.source.catalog else tile for tile in tiles]


# --------------------------------------------------------------------------- problems


@dataclass
class DeclaredProblem:
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
    budget: Budget | None = None,
) -> DeclaredProblem:
    """The tiling problem of ``tiles`` on ``board``.

    Tiles keep the names they were written with; a repeated name gets ``#2``, ``#3``, ...
    and a tile written as a pattern gets ``#k`` (its place in the list), names no
    variable can have. A tile larger than the board is dropped when it may be left out
    (combine gives it no placement); when it must be used, the problem has no solution.

    The orientations of each tile, then the placements of the problem, are estimated and
    charged to ``budget`` (one of its own when None) before they are made.
    """
    from excover.tiling import Tile, Tiling

    budget = Budget() if budget is None else budget
    grid = board.grid
    board_size = _cells(board)
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
        size = _cells(tile.shape)
        if size > board_size:
            if tile.lo > 0 and blocked is None:
                blocked = label
            continue
        cost = tile_bytes(size, grid.dimension, len(grid.isometries))
        budget.charge(cost, f"tile {label!r} of {size} cells", tile.pos)
        with located(tile.pos):
            library.append(Tile(tile.shape, label, tile.multiplicity, tile.symmetry))
    tiling = None
    if blocked is None:
        placements = entries = 0
        for made in library:
            for count in _placements(made, board, board_size):
                placements += count
                entries += count * (made.size + 1)
        cost = problem_bytes(board_size, placements, entries)
        what = f"problem {name!r} (a board of {board_size} cells, up to {placements} placements)"
        budget.charge(cost, what, pos)
        with located(pos):
            tiling = Tiling(board, library, interchangeable=interchangeable, progress=progress)
    return DeclaredProblem(name, pos, board, tiles, names, tiling, blocked)


def _cells(shape: Shape) -> int:
    """The number of cells of a pattern, counted without listing them."""
    return len(shape) if isinstance(shape, Sized) else len(shape.coords())


def _placements(tile: Tile, board: Shape, board_size: int) -> Iterator[int]:
    """For each orientation of ``tile``, at most how many placements it has on ``board``:
    the translations that keep its box in the board's frame, and one per board cell."""
    from excover.tiling import Pattern, Pattern3

    for orientation in tile.orientations:
        if isinstance(board, Pattern | Pattern3):  # orientations are normalised: from 0
            extent = (orientation.max(axis=0) + 1).tolist()
            room = zip(board.shape, extent, strict=True)
            fits = math.prod(max(0, side - int(e) + 1) for side, e in room)
            yield min(fits, board_size)
        else:
            yield board_size


# --------------------------------------------------------------------------- pictures


def draw(shape: Shape) -> str:
    """A pattern as text, top row first: ``*`` cells and ``.`` holes; hexagons staggered
    as in their drawings; 3D patterns as their layers side by side, bottom on the left
    (on BurrTools' solid grids the layers of :mod:`excover.lang.layers`)."""
    from excover.tiling import Pattern, Pattern3

    if isinstance(shape, Pattern):
        return shape.ascii()
    if isinstance(shape, Pattern3):
        layers = [shape.layer(z).ascii().split("\n") for z in range(shape.depth)]
        return "\n".join(" ".join(rows) for rows in zip(*layers, strict=True))
    if shape.grid.traits.layered:
        drawn = layer_drawings(shape)
        return "\n".join(" ".join(rows) for rows in zip(*drawn, strict=True))
    return "\n".join(flat_drawing(shape.grid.name, shape.coords().tolist()))


def flat_drawing(
    grid: str, cells: Sequence[Sequence[int]], frame: tuple[int, int, int] | None = None
) -> list[str]:
    """The rows of a drawing of hexagons or triangles, top row first, as their ``hex{...}``
    and ``triangle{...}`` drawings read them back: each cell at its spot of the grid's
    outline (:class:`~excover.tiling.outlines.Outline`), the outline's hole between
    (where spots alternate, as triangles do, starting on a column of the right parity so
    that each triangle points the right way). ``frame`` (the leftmost column, the bottom
    row and the top row) draws a triangle layer in a box shared with other layers."""
    from excover.tiling.grids import GRIDS

    outline = GRIDS[grid].traits.outline
    spots = {outline.spot(cell) for cell in cells}
    hole = outline.hole
    if frame is None:
        if not spots:
            return []
        left, bottom, top = (
            min(x for x, _ in spots),
            min(y for _, y in spots),
            max(y for _, y in spots),
        )
        if outline.alternating:
            left -= (left + bottom) % 2
    else:
        left, bottom, top = frame
    width = max((x for x, _ in spots), default=left) + 1
    rows = []
    for y in range(top, bottom - 1, -1):
        row = "".join("*" if (x, y) in spots else hole for x in range(left, width))
        rows.append(row.rstrip() or hole)
    return rows


def layer_drawings(shape: Shape) -> list[list[str]]:
    """The drawings of the layers of a pattern of BurrTools' solid grids (not the cube),
    bottom layer first, each in the box of all of them, as the ``.cmb`` language writes
    them in ``pattern3 NAME = GRID [...]``: square layers with ``*`` and ``.``, triangle
    layers as in ``triangle{...}``."""
    from excover.lang.layers import solid_layers

    layers = solid_layers(shape)
    flat = shape.grid.layer_grid
    if flat.traits.art:  # layers drawn as WORD{...}: each in the frame of all of them
        outline = flat.traits.outline
        spots = [outline.spot(cell) for layer in layers for cell in layer]
        left, bottom = min(x for x, _ in spots), min(y for _, y in spots)
        if outline.alternating:
            left -= (left + bottom) % 2
        frame = (left, bottom, max(y for _, y in spots))
        drawn = [flat_drawing(flat.name, layer, frame) for layer in layers]
        width = max(len(row) for rows in drawn for row in rows)
        return [[row.ljust(width, ".") for row in rows] for rows in drawn]
    width = max(x for layer in layers for x, _ in layer) + 1
    height = max(y for layer in layers for _, y in layer) + 1
    return [
        [
            "".join("*" if (x, y) in layer else "." for x in range(width))
            for y in range(height - 1, -1, -1)
        ]
        for layer in layers
    ]
