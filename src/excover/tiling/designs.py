"""Packing puzzles as design spaces (:mod:`excover.design`): which sets of pieces fill a
board in exactly one way, which boards a set of pieces fills in exactly one way.

Two kinds of design, each a :class:`~excover.design.DesignSpace`:

- :class:`PackingSpace` (kind ``packing``): a board (or box) and a catalog of pieces;
  a design is a choice of ``pieces`` of them, each at most ``copies`` times: a multiset
  of catalog pieces, numbered in lexicographic order (:class:`~excover.design.Multisets`).
  The catalog's pieces are already the classes of shapes under the pieces' motions (the
  pieces' own symmetries); the board's symmetries may still map one design onto
  another (a mirror of the box swaps the two hands of a chiral pentacube), and of each
  orbit only its smallest multiset is a design (its weight the orbit's size).
- :class:`BoardSpace` (kind ``boards``): a fixed set of pieces; a design is a board of
  as many cells as the pieces have (a polyomino or polycube: :func:`polyforms`), one per
  class of boards under the isometries that map the set of pieces onto itself (its weight
  the number of boards, up to translation, in the class).

Each design is evaluated by :mod:`excover.tiling.design_settle` (pieces that cannot
cover the board rejected before any search; a search stopped as soon as the goal is
decided) and can be written as a ``.cmb`` program or an SVG picture of its solution;
:meth:`PackingSpace.tiling` gives its :class:`~excover.tiling.Tiling`, for any question
the tiling library answers.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from excover.atomic import write_whole
from excover.design import (
    Declaration,
    Design,
    DesignError,
    DesignSpace,
    Evaluation,
    Goal,
    Multisets,
    Score,
    Table,
    canonical,
)
from excover.design.space import DeclaredSpace, MultisetSpace
from excover.tiling.catalog import polyforms
from excover.tiling.design_pieces import (
    TURNS,
    Catalog,
    board_symmetries,
    catalog,
    catalog_grid,
    class_key,
    default_turn,
    parse_board,
)
from excover.tiling.design_settle import Placements, colourable, imbalance, settle_tiling
from excover.tiling.grids import CUBE, SQUARE, Grid
from excover.tiling.pattern import Pattern, Pattern3
from excover.tiling.tile import Shape, Tile
from excover.tiling.tiling import Tiling, TilingSolution

__all__ = ["KINDS", "BoardSpace", "PackingSpace", "declared_space"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _catalog(table: Table, board: Grid | None) -> Catalog:
    """The ``catalog`` of ``table``, on its own grid (a drawn one on the ``board``'s,
    else the square's), its pieces moving as the table's ``turn`` says."""
    spec = table.raw("catalog")
    if isinstance(spec, Mapping):
        bad = [name for name in spec if not _NAME.match(name)]
        if bad:
            raise table.error("catalog", f"piece name {bad[0]!r}: letters, digits and _ only")
    elif not isinstance(spec, str):
        raise table.error(
            "catalog", f"must be a catalog's name or a table of drawings, not {spec!r}"
        )
    own = catalog_grid(spec)
    if own is not None and board is not None and own is not board:
        raise table.error(
            "catalog",
            f"holds pieces of the {own.name} grid, the board is on the {board.name} grid",
        )
    grid = own or board or SQUARE
    turn = table.choice("turn", TURNS, default_turn(grid))
    try:
        return catalog(spec, grid, turn)
    except ValueError as exc:
        raise table.error("catalog", str(exc)) from None


def _drawing(shape: Shape) -> str:
    """A pattern drawn as a key: rows top first joined by ``/``, layers by ``|``."""
    if isinstance(shape, Pattern3):
        return "|".join(_drawing(shape.layer(z)) for z in range(shape.depth))
    assert isinstance(shape, Pattern)
    return "/".join(shape.ascii("#", ".").split("\n"))


def _cmb(name: str, shape: Shape) -> str:
    """A ``pattern`` (or ``pattern3``) statement drawing ``shape``."""
    if isinstance(shape, Pattern3):
        layers = ",\n".join("{\n" + shape.layer(z).ascii() + "\n}" for z in range(shape.depth))
        return f"pattern3 {name} = [\n{layers}\n]"
    assert isinstance(shape, Pattern)
    return f"pattern {name} = {{\n{shape.ascii()}\n}}"


_TURN_OPTION = {"all": " ~sym", "rotations": " ~rot", "none": ""}


class _TilingSpace(DeclaredSpace):
    """What the two kinds share: the tiling of a design, its pictures and programs."""

    scores: ClassVar[tuple[str, ...]] = ("solutions", "nodes")
    formats: ClassVar[tuple[str, ...]] = ("cmb", "svg")
    catalog: Catalog

    def __init__(self, table: Table) -> None:
        self._read(table)
        table.done()

    @abstractmethod
    def _read(self, table: Table) -> None:
        """Take the kind's fields from ``table``, each checked."""

    @classmethod
    def declared(cls, table: Table) -> DesignSpace:
        """The space the fields of ``table`` declare (errors name the field at fault)."""
        space = cls.__new__(cls)
        _TilingSpace.__init__(space, table)
        return space

    def tiling(self, design: Design) -> Tiling:
        """The tiling problem of ``design``: its board and pieces, copies interchangeable."""
        board, pieces = self._parts(design)
        tiles = [
            Tile(self.catalog.pieces[name], name, copies, self.catalog.turn)
            for name, copies in pieces.items()
        ]
        return Tiling(board, tiles, interchangeable=True)

    @abstractmethod
    def _parts(self, design: Design) -> tuple[Shape, dict[str, int]]:
        """The board of ``design`` and its pieces by name, with their copies."""

    def solution(self, design: Design) -> TilingSolution | None:
        """One solution of ``design`` (the first of its classes), None when it has none."""
        return next(iter(self.tiling(design).solutions(limit=1, up_to_symmetry=True)), None)

    def show(self, design: Design) -> str | None:
        """One solution of ``design`` drawn as text (None when it has none)."""
        solution = self.solution(design)
        return None if solution is None else solution.ascii().rstrip("\n")

    def write(self, design: Design, form: str, path: Path) -> None:
        """``cmb``: a program declaring the design's board and pieces that counts its
        solutions up to symmetry and prints one (copies are tiles of their own there, so
        its count is that many times larger); ``svg``: a picture of one solution, each
        piece in its own colour (a box layer by layer)."""
        board, pieces = self._parts(design)
        if form == "svg":
            solution = self.solution(design)
            if solution is None:
                raise DesignError(f"design {design.key} has no solution to draw")
            write_whole(path, solution.svg(each_piece=True), follow_links=True)
            return
        if form != "cmb":
            super().write(design, form, path)
        three = self.catalog.grid is CUBE
        suffix = "3" if three else ""
        option = _TURN_OPTION[self.catalog.turn]
        lines = [f"# excover design: {design.key}", f"# {self.describe()}", ""]
        lines += [_cmb(name, self.catalog.pieces[name]) + "\n" for name in pieces]
        lines.append(_cmb("board", board) + "\n")
        uses = ", ".join(
            f"{name} ~one{option}" for name, copies in pieces.items() for _ in range(copies)
        )
        lines.append(f"tiles{suffix} pieces = [{uses}]")
        lines.append(f"problem{suffix} design = board pieces")
        lines.append(f"count{suffix} dlx design ~up_to_symmetry")
        lines.append(f"solve{suffix} dlx design ascii")
        write_whole(path, "\n".join(lines) + "\n", follow_links=True)


class PackingSpace(_TilingSpace, MultisetSpace):
    """The sets of ``pieces`` catalog pieces (each at most ``copies`` times) that might
    fill ``board`` (see the module notes): ``PackingSpace(board="5x4x2",
    catalog="pentacubes", pieces=8)``."""

    kind: ClassVar[str] = "packing"

    def __init__(
        self,
        board: str,
        catalog: str | Mapping[str, str],
        pieces: int,
        copies: int = 1,
        turn: str | None = None,
    ) -> None:
        fields = {"board": board, "catalog": catalog, "pieces": pieces, "copies": copies}
        super().__init__(Table({**fields, "turn": turn}))

    def _read(self, table: Table) -> None:
        spec = table.text("board")
        try:  # a named catalog's grid says what a drawn board is
            self.board = parse_board(spec, catalog_grid(table.raw("catalog", None)))
        except ValueError as exc:
            raise table.error("board", str(exc)) from None
        self.catalog = _catalog(table, self.board.grid)
        size = len(self.catalog.pieces)
        self.pieces = table.integer("pieces", least=1)
        self.copies = table.integer("copies", 1, least=1)
        if self.pieces > size * self.copies:
            times = "once" if self.copies == 1 else f"{self.copies} times"
            raise table.error(
                "pieces", f"{self.pieces} pieces cannot be chosen from {size}, each at most {times}"
            )
        self._fields = {
            "board": spec,
            "catalog": table.raw("catalog"),
            "pieces": self.pieces,
            "copies": self.copies,
            "turn": self.catalog.turn,
        }
        self.names = self.catalog.names
        self.multisets = Multisets(size, self.pieces, self.copies)
        self._placements: Placements | None = None
        self._maps = self._piece_maps()

    def _piece_maps(self) -> list[tuple[int, ...]] | None:
        """The permutations of the catalog that the board's symmetries make, when one is
        not the identity (None: no two designs are one)."""
        maps = list(
            dict.fromkeys(pieces for _, pieces in board_symmetries(self.board, self.catalog))
        )
        return None if len(maps) <= 1 else maps

    @property
    def placements(self) -> Placements:
        """The placements every design shares (found at the first evaluation)."""
        if self._placements is None:
            self._placements = Placements(self.board, self.catalog)
        return self._placements

    def describe(self) -> str:
        board = self.board
        if board.array.all():
            box = "x".join(str(v) for v in board.shape)
            where = f"the {box} {'box' if board.grid is CUBE else 'rectangle'}"
        else:
            where = f"a board of {board.size} cells"
        given = self._fields["catalog"]
        named = (
            f"the {len(self.names)} {given}"
            if isinstance(given, str)
            else f"{len(self.names)} pieces"
        )
        copies = "" if self.copies == 1 else f", each up to {self.copies} times"
        return f"{self.pieces} of {named} (turn {self.catalog.turn}){copies} in {where}"

    def _design(self, index: int, chosen: tuple[int, ...]) -> Design | None:
        weight = 1
        if self._maps is not None:
            smallest, weight = canonical(chosen, self._maps)
            if not smallest:
                return None
        return Design(index, " ".join(self.names[k] for k in chosen), weight, chosen)

    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        return self.placements.evaluate(design.parts, goal, beat, deadline)

    def _parts(self, design: Design) -> tuple[Shape, dict[str, int]]:
        pieces: dict[str, int] = {}
        for k in design.parts:
            pieces[self.names[k]] = pieces.get(self.names[k], 0) + 1
        return self.board, pieces


#: The most cells of a board of :class:`BoardSpace` on each grid (every polyform of that
#: size is made).
MOST_CELLS = {SQUARE: 12, CUBE: 8}


class BoardSpace(_TilingSpace):
    """The boards that a fixed set of pieces might fill (see the module notes):
    ``BoardSpace(catalog="pentominoes", use=["L", "P", "Y"])``, the pieces ``use`` names
    (a name twice: two copies; by default every piece of the catalog once)."""

    kind: ClassVar[str] = "boards"

    def __init__(
        self,
        catalog: str | Mapping[str, str],
        use: list[str] | None = None,
        turn: str | None = None,
    ) -> None:
        super().__init__(Table({"catalog": catalog, "use": use, "turn": turn}))

    def _read(self, table: Table) -> None:
        self.catalog = _catalog(table, None)
        grid = self.catalog.grid
        use = table.raw("use", None)
        if use is None:
            names = list(self.catalog.pieces)
        elif isinstance(use, list) and use and all(isinstance(n, str) for n in use):
            unknown = [name for name in use if name not in self.catalog.pieces]
            if unknown:
                known = " ".join(self.catalog.pieces)
                raise table.error(
                    "use", f"no piece {unknown[0]!r} in the catalog (its pieces: {known})"
                )
            names = list(use)
        else:
            raise table.error("use", f"must be a list of piece names, not {use!r}")
        self.pieces = {name: names.count(name) for name in dict.fromkeys(names)}
        self.cells = sum(len(self.catalog.pieces[n].coords()) * c for n, c in self.pieces.items())
        if self.cells > MOST_CELLS[grid]:
            raise table.error(
                "use",
                f"the pieces have {self.cells} cells: boards of at most {MOST_CELLS[grid]} "
                f"cells on the {grid.name} grid are searched",
            )
        self._fields = {"catalog": table.raw("catalog"), "use": names, "turn": self.catalog.turn}
        self.group = self._stabilizer()
        if len(self.group) == len(grid.isometries):
            made = "all"
        elif len(self.group) == len(grid.rotations) and all(
            g in self.group for g in grid.rotations
        ):
            made = "rotations"
        else:
            made = "none"
        self._filter = len(grid.group(made)) != len(self.group)
        self.boards = polyforms(grid, self.cells, made)
        self._shape = Pattern3 if grid is CUBE else Pattern
        self._imbalances = [
            abs(imbalance(self.catalog.pieces[name].coords()))
            for name, copies in self.pieces.items()
            for _ in range(copies)
        ]

    def _stabilizer(self) -> list[Any]:
        """The isometries of the grid that map the set of pieces onto itself (a piece's
        image being the catalog piece it is, moved)."""
        grid = self.catalog.grid
        turn = grid.group(self.catalog.turn)
        keys = {name: class_key(grid, s.coords(), turn) for name, s in self.catalog.pieces.items()}
        wanted = sorted(keys[name] for name, copies in self.pieces.items() for _ in range(copies))
        kept = []
        for g in grid.isometries:
            moved = sorted(
                class_key(grid, g.apply(self.catalog.pieces[name].coords()), turn)
                for name, copies in self.pieces.items()
                for _ in range(copies)
            )
            if moved == wanted:
                kept.append(g)
        return kept

    @property
    def size(self) -> int:
        return len(self.boards)

    def describe(self) -> str:
        names = " ".join(n if c == 1 else f"{n}x{c}" for n, c in self.pieces.items())
        return f"boards of {self.cells} cells for the pieces {names} (turn {self.catalog.turn})"

    def design(self, index: int) -> Design | None:
        grid = self.catalog.grid
        cells = self.boards[index]
        images = {grid.normalize(g.apply(cells)).tobytes() for g in self.group}
        if self._filter and cells.tobytes() != min(images):
            return None
        board = self._shape.from_cells(cells.tolist())
        return Design(index, _drawing(board), len(images), (index,))

    def _parts(self, design: Design) -> tuple[Shape, dict[str, int]]:
        return self._shape.from_cells(self.boards[design.parts[0]].tolist()), self.pieces

    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        board, _ = self._parts(design)
        if not colourable(imbalance(board.coords()), self._imbalances):
            return Evaluation(0, rejected="colouring")
        return settle_tiling(self.tiling(design), goal, beat, deadline)


#: The kinds of packing design, by the name a declaration gives.
KINDS: dict[str, type[_TilingSpace]] = {"packing": PackingSpace, "boards": BoardSpace}


def declared_space(declaration: Declaration) -> DesignSpace:
    """The space a declaration (:func:`~excover.design.read_declaration`) of one of the
    :data:`KINDS` declares."""
    kind = KINDS.get(declaration.kind)
    if kind is None:
        raise DesignError(f"{declaration.source}: no kind of design {declaration.kind!r} here")
    return kind.declared(declaration.fields)
