"""Reading a design back from a ``.cmb`` program: its last problem, on any grid.

A program is parsed by the safe language (:mod:`excover.lang`) with its default
permissions: it runs no outside command and reads no file outside its own folder; an
uploaded program has an empty folder of its own, so it includes nothing at all. Only the
declarations run (patterns, tile lists, problems: no solving, printing or writing).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping

from excover.lang import syntax
from excover.lang.errors import LangError, Pos
from excover.lang.evaluate import TileDef, evaluate, evaluate_layers, joined_tiles, used_at
from excover.lang.limits import Budget
from excover.lang.parser import parse
from excover.studio.cells import Layers, drawing
from excover.studio.design import (
    MAX_PIECE_SIDE,
    MAX_PIECES,
    RESERVED,
    Piece,
    StudioDesign,
    StudioDesignError,
    max_side,
)
from excover.tiling.tile import Shape

__all__ = ["from_cmb"]


def from_cmb(text: str, source: str = "<upload>", folder: str | None = None) -> StudioDesign:
    """The design of the last problem (``problem`` or ``problem3``) a program declares.

    ``folder`` is the program's own folder, where its includes are found; an uploaded
    program (``folder`` None) gets an empty one, so it includes nothing. Raises
    :class:`~excover.lang.LangError` (located) for a bad program or a problem too large
    for the studio.
    """
    if folder is None:
        with tempfile.TemporaryDirectory() as empty:
            program = parse(text, source, empty)
    else:
        program = parse(text, source, folder)
    flat: dict[str, Shape] = {}
    solid: dict[str, Shape] = {}
    tile_lists: dict[bool, dict[str, list[TileDef]]] = {False: {}, True: {}}
    budget = Budget()  # one for the whole program, as excover run has (lang.limits)
    last: tuple[syntax.ProblemDecl, Shape, list[TileDef]] | None = None
    for statement in program.statements:
        if isinstance(statement, syntax.PatternDecl):
            flat[statement.name] = evaluate(statement.expr, flat, budget)
        elif isinstance(statement, syntax.Pattern3Decl):
            solid[statement.name] = evaluate_layers(statement.layers, flat, budget, statement.grid)
        elif isinstance(statement, syntax.TilesDecl):
            patterns = solid if statement.three_d else flat
            lists = tile_lists[statement.three_d]
            lists[statement.name] = joined_tiles(statement.tiles, patterns, lists, budget)
        elif isinstance(statement, syntax.ProblemDecl):
            patterns = solid if statement.three_d else flat
            lists = tile_lists[statement.three_d]
            last = statement, *_problem_parts(statement, patterns, lists, budget)
    if last is None:
        raise LangError("the program declares no problem to open", program.source.end())
    statement, board, defs = last
    grid = board.grid.name
    if any(tile.shape.grid is not board.grid for tile in defs):
        bad = next(tile for tile in defs if tile.shape.grid is not board.grid)
        raise LangError(f"this tile is not on the board's grid ({grid})", bad.pos)
    side = max_side(grid)
    return StudioDesign(grid, _drawn(board, statement.pos, "the board", side), _pieces(defs))


def _problem_parts(
    statement: syntax.ProblemDecl,
    patterns: Mapping[str, Shape],
    tile_lists: Mapping[str, list[TileDef]],
    budget: Budget,
) -> tuple[Shape, list[TileDef]]:
    if statement.three_d:
        if not isinstance(statement.board, syntax.Var):
            raise LangError("a 3D problem's board must be a 3D pattern's name", statement.pos)
        board = patterns[statement.board.name]
    else:
        board = evaluate(statement.board, patterns, budget)
    if isinstance(statement.tiles, syntax.Var):
        return board, used_at(tile_lists[statement.tiles.name], statement.tiles.pos)
    return board, joined_tiles(statement.tiles, patterns, tile_lists, budget)


def _drawn(shape: Shape, pos: Pos, what: str, side: int) -> Layers:
    """A pattern's drawing on the studio's layout; a located error when it is empty or
    larger than ``side`` cells on some side."""
    if len(shape.coords()) == 0:
        raise LangError(f"{what} has no cells", pos)
    layers = drawing(shape)
    sizes = (len(layers), len(layers[0]), len(layers[0][0]))
    if max(sizes) > side:
        raise LangError(f"{what} is larger than the studio's {side} cells a side", pos)
    return layers


def _pieces(defs: list[TileDef]) -> tuple[Piece, ...]:
    """The pieces of a problem's tiles, each with a distinct name (an unnamed tile is
    ``piece1``, ...; a name used twice gets ``_2``, ... after it)."""
    if len(defs) > MAX_PIECES:
        raise StudioDesignError("pieces", f"{len(defs)} pieces, more than {MAX_PIECES}")
    pieces: list[Piece] = []
    names: set[str] = set()
    for number, tile in enumerate(defs, 1):
        base = tile.name if tile.name is not None and tile.name not in RESERVED else None
        name = base or f"piece{number}"
        suffix = 2
        while name in names:
            name, suffix = f"{base or 'piece'}_{suffix}", suffix + 1
        names.add(name)
        cells = _drawn(tile.shape, tile.pos, f"tile {name!r}", MAX_PIECE_SIDE)
        pieces.append(Piece(name, cells, tile.lo, tile.hi, tile.symmetry))
    return tuple(pieces)
