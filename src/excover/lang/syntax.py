"""The abstract syntax of ``.cmb`` programs: expressions and statements, with positions.

Expressions denote patterns. A program is the flat list of its statements, the statements
of included files spliced in where the ``include`` stood (see :mod:`excover.lang.parser`).
"""

from __future__ import annotations

from dataclasses import dataclass

from excover.lang.errors import Pos

__all__ = [
    "DEFAULT_SOLID_GRID",
    "Algo",
    "All",
    "Apply",
    "Art",
    "Assert",
    "Binary",
    "Constant",
    "Count",
    "Crop",
    "Dimacs",
    "Equal",
    "Exit",
    "Expr",
    "Pattern3Decl",
    "PatternDecl",
    "Print",
    "ProblemDecl",
    "Resize",
    "SetCell",
    "Shift",
    "Solve",
    "Statement",
    "Switch",
    "TileSpec",
    "TilesDecl",
    "TilesRef",
    "Var",
]


# ----- expressions -----


@dataclass(frozen=True)
class Var:
    """A pattern named by an earlier ``pattern`` (or ``pattern3``) declaration."""

    pos: Pos
    name: str


@dataclass(frozen=True)
class Art:
    """An ASCII-art pattern ``{...}`` of the square grid, or ``hex{...}`` /
    ``triangle{...}``; ``text`` is what stands between the braces, comments removed."""

    pos: Pos
    grid: str
    text: str


@dataclass(frozen=True)
class Constant:
    """``constant WxH b``: a ``width`` x ``height`` frame, all cells or all holes."""

    pos: Pos
    width: int
    height: int
    value: bool


@dataclass(frozen=True)
class Binary:
    """A set operation: ``union``/``||``, ``inter``/``&&``, ``diff``/``-``, ``xor``/``^``."""

    pos: Pos
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class SetCell:
    """``set e XxY b``: cell ``(x, y)`` (y from the bottom) made a cell or a hole."""

    pos: Pos
    expr: Expr
    x: int
    y: int
    value: bool


@dataclass(frozen=True)
class Crop:
    """``crop XxY WxH e``: the ``width`` x ``height`` box whose bottom-left cell is
    ``(x, y)``."""

    pos: Pos
    x: int
    y: int
    width: int
    height: int
    expr: Expr


@dataclass(frozen=True)
class Shift:
    """``shift e DXxDY``: the cells moved right by ``dx`` and up by ``dy``, the frame grown
    to hold them (combine dropped the cells that left the frame)."""

    pos: Pos
    expr: Expr
    dx: int
    dy: int


@dataclass(frozen=True)
class Resize:
    """``resize e WxH``: the frame set to ``width`` x ``height``."""

    pos: Pos
    expr: Expr
    width: int
    height: int


@dataclass(frozen=True)
class Apply:
    """``apply ISO e``: the image of a pattern by an isometry of the square (``Rot90``...)."""

    pos: Pos
    isometry: str
    expr: Expr


Expr = Var | Art | Constant | Binary | SetCell | Crop | Shift | Resize | Apply


# ----- pieces of statements -----


@dataclass(frozen=True)
class TileSpec:
    """One tile of a list: its shape, how often (``lo``..``hi``, ``hi`` None: no bound)
    and how it may move (``symmetry``: ``"none"``, ``"rotations"`` or ``"all"``)."""

    pos: Pos
    expr: Expr
    lo: int
    hi: int | None
    symmetry: str


@dataclass(frozen=True)
class TilesRef:
    """A tile list named in a sum of tile lists (``pentominoes + [O4 ~one]``): its tiles
    join the list there."""

    pos: Pos
    name: str


@dataclass(frozen=True)
class Algo:
    """How to solve: the method (:data:`excover.names.METHODS`) the program's algorithm
    names (``dlx``: ``search``, ``zdd``, ``auto``, ``sat "SOLVER"``: ``sat``)."""

    pos: Pos
    name: str
    solver: str | None = None


@dataclass(frozen=True)
class Equal:
    """The condition ``e1 = e2`` of an ``assert`` (``true``/``false``: ``left`` None and
    ``value`` given)."""

    pos: Pos
    left: Expr | None
    right: Expr | None
    value: bool = True


# ----- statements -----


@dataclass(frozen=True)
class PatternDecl:
    """``pattern ID = e``."""

    pos: Pos
    name: str
    expr: Expr


#: The grid of a ``pattern3`` that names none: the cube's (its layers square patterns).
DEFAULT_SOLID_GRID = "cube"


@dataclass(frozen=True)
class Pattern3Decl:
    """``pattern3 ID = GRID [layer0, layer1, ...]``, bottom layer first; ``grid`` is
    ``cube`` when no grid is named, else ``prism``, ``sphere``, ``rhombic`` or
    ``tetraocta`` (see :mod:`excover.lang.layers`)."""

    pos: Pos
    name: str
    layers: tuple[Expr, ...]
    grid: str = DEFAULT_SOLID_GRID


@dataclass(frozen=True)
class TilesDecl:
    """``tiles ID = [...]`` (``tiles3`` when ``three_d``); the list may join others,
    ``[...] + NAME + ...``."""

    pos: Pos
    name: str
    tiles: tuple[TileSpec | TilesRef, ...]
    three_d: bool


@dataclass(frozen=True)
class ProblemDecl:
    """``problem ID = board tiles [~interchangeable]`` (``problem3`` when ``three_d``);
    ``tiles`` is a tile list (which may join named ones) or the name of one alone."""

    pos: Pos
    name: str
    board: Expr
    tiles: tuple[TileSpec | TilesRef, ...] | Var
    three_d: bool
    interchangeable: bool


@dataclass(frozen=True)
class Assert:
    """``assert b``."""

    pos: Pos
    condition: Equal


@dataclass(frozen=True)
class Print:
    """``print ID``: the board and tiles of a problem."""

    pos: Pos
    name: str


@dataclass(frozen=True)
class Solve:
    """``solve algo ID ascii`` or ``... svg "file"`` (``solve3`` when ``three_d``)."""

    pos: Pos
    algo: Algo
    name: str
    svg: str | None
    three_d: bool


@dataclass(frozen=True)
class All:
    """``all algo ID [~up_to_symmetry]`` (``all3``): every solution, then their number."""

    pos: Pos
    algo: Algo
    name: str
    three_d: bool
    up_to_symmetry: bool


@dataclass(frozen=True)
class Count:
    """``count algo ID [~up_to_symmetry] [~no_break_symmetry]`` (``count3``): a count of
    every tiling breaks the board's symmetry unless ``~no_break_symmetry``."""

    pos: Pos
    algo: Algo
    name: str
    three_d: bool
    up_to_symmetry: bool
    break_symmetry: bool = True


@dataclass(frozen=True)
class Dimacs:
    """``dimacs ID "file"``: the SAT encoding of a problem, written in DIMACS CNF."""

    pos: Pos
    name: str
    path: str


@dataclass(frozen=True)
class Switch:
    """``debug on|off`` or ``timing on|off``."""

    pos: Pos
    flag: str
    on: bool


@dataclass(frozen=True)
class Exit:
    """``exit``: stop the program here."""

    pos: Pos


Statement = (
    PatternDecl
    | Pattern3Decl
    | TilesDecl
    | ProblemDecl
    | Assert
    | Print
    | Solve
    | All
    | Count
    | Dimacs
    | Switch
    | Exit
)
