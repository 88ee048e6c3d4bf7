"""The piece catalog of the ``.cmb`` language: ``include "excover:NAME"``.

A program anywhere on disk can use the sets of pieces the tiling library ships without
copying a file: ``include "excover:pentominoes"`` defines the 12 pentominoes as patterns
(``F I L N P T U V W X Y Z``) and a tile list ``pentominoes`` that uses each of them
exactly once, turned and flipped at will. The text of each set is generated here from
:mod:`excover.tiling.catalog` (nothing is read from disk), so it is the same shapes the
Python API gives, and it is parsed like any included file: a program sees ordinary
``pattern`` (or ``pattern3``) and ``tiles`` (or ``tiles3``) statements.

Names: the classic sets keep their letters (pentominoes; tetrominoes with the suffix 4,
so that both sets can be included together; the Soma pieces, which are 3D patterns and
live in a namespace of their own); the other sets number their pieces after the family
(``hexomino1`` ... ``hexomino35``), in the catalog's order. Planar tile lists allow
every isometry (``~sym``); polycube lists allow rotations only (``~rot``), as a solid
piece cannot be mirrored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from excover.lang.evaluate import flat_drawing, layer_drawings
from excover.lang.layers import LAYERED_GRIDS
from excover.tiling import (
    Pattern,
    Pattern3,
    pentominoes,
    polycubes,
    polyhexes,
    polyiamonds,
    polyominoes,
    polyprisms,
    polyrhombic_dodecahedra,
    polyspheres,
    soma_pieces,
    tetrominoes,
)
from excover.tiling.tile import Shape

__all__ = ["PieceSet", "piece_set", "piece_sets", "set_text"]


@dataclass(frozen=True)
class PieceSet:
    """A named set of pieces: its include name, a line saying what it is, its grid
    (``square``, ``hex``, ``triangle``, ``cube``, ``prism``, ``sphere`` or ``rhombic``)
    and the pieces by name."""

    name: str
    title: str
    grid: str
    build: Callable[[], dict[str, Shape]]

    @property
    def pieces(self) -> dict[str, Shape]:
        """The pieces by name, in the catalog's order."""
        return _pieces(self.name)

    @property
    def three_d(self) -> bool:
        return self.grid == "cube" or self.grid in LAYERED_GRIDS


def _numbered(stem: str, shapes: Sequence[Shape]) -> dict[str, Shape]:
    return {f"{stem}{number}": shape for number, shape in enumerate(shapes, 1)}


def _trominoes() -> dict[str, Shape]:
    straight, bent = sorted(polyominoes(3), key=lambda p: -max(p.array.shape))
    return {"I3": straight, "L3": bent}


_SETS = [
    PieceSet(
        "monomino", "the monomino (one square)", "square", lambda: {"monomino": polyominoes(1)[0]}
    ),
    PieceSet("domino", "the domino (two squares)", "square", lambda: {"domino": polyominoes(2)[0]}),
    PieceSet("trominoes", "the 2 trominoes: I3 and L3", "square", _trominoes),
    PieceSet(
        "tetrominoes",
        "the 5 tetrominoes: I4 O4 T4 S4 L4",
        "square",
        lambda: {f"{k}4": p for k, p in tetrominoes().items()},
    ),
    PieceSet(
        "pentominoes",
        "the 12 pentominoes by their letters: I V Z P N W Y T F U L X",
        "square",
        lambda: dict(pentominoes()),
    ),
    PieceSet(
        "hexominoes",
        "the 35 hexominoes: hexomino1 ... hexomino35",
        "square",
        lambda: _numbered("hexomino", polyominoes(6)),
    ),
    PieceSet(
        "triamonds",
        "the triamond (3 triangles)",
        "triangle",
        lambda: {"triamond": polyiamonds(3)[0]},
    ),
    PieceSet(
        "tetriamonds",
        "the 3 tetriamonds: tetriamond1 ... tetriamond3",
        "triangle",
        lambda: _numbered("tetriamond", polyiamonds(4)),
    ),
    PieceSet(
        "pentiamonds",
        "the 4 pentiamonds: pentiamond1 ... pentiamond4",
        "triangle",
        lambda: _numbered("pentiamond", polyiamonds(5)),
    ),
    PieceSet(
        "hexiamonds",
        "the 12 hexiamonds: hexiamond1 ... hexiamond12",
        "triangle",
        lambda: _numbered("hexiamond", polyiamonds(6)),
    ),
    PieceSet("dihex", "the dihex (two hexagons)", "hex", lambda: {"dihex": polyhexes(2)[0]}),
    PieceSet(
        "trihexes",
        "the 3 trihexes: trihex1 ... trihex3",
        "hex",
        lambda: _numbered("trihex", polyhexes(3)),
    ),
    PieceSet(
        "tetrahexes",
        "the 7 tetrahexes: tetrahex1 ... tetrahex7",
        "hex",
        lambda: _numbered("tetrahex", polyhexes(4)),
    ),
    PieceSet(
        "pentahexes",
        "the 22 pentahexes: pentahex1 ... pentahex22",
        "hex",
        lambda: _numbered("pentahex", polyhexes(5)),
    ),
    PieceSet(
        "tricubes",
        "the 2 tricubes: tricube1 tricube2",
        "cube",
        lambda: _numbered("tricube", polycubes(3, "rotations")),
    ),
    PieceSet(
        "tetracubes",
        "the 8 tetracubes, mirror pairs apart: tetracube1 ... tetracube8",
        "cube",
        lambda: _numbered("tetracube", polycubes(4, "rotations")),
    ),
    PieceSet(
        "pentacubes",
        "the 29 pentacubes, mirror pairs apart: pentacube1 ... pentacube29",
        "cube",
        lambda: _numbered("pentacube", polycubes(5, "rotations")),
    ),
    PieceSet("soma", "the 7 Soma pieces: V L T Z A B P", "cube", lambda: dict(soma_pieces())),
    PieceSet(
        "diprisms",
        "the 2 diprisms (two triangular prisms): diprism1 diprism2",
        "prism",
        lambda: _numbered("diprism", polyprisms(2, "rotations")),
    ),
    PieceSet(
        "triprisms",
        "the 3 triprisms: triprism1 ... triprism3",
        "prism",
        lambda: _numbered("triprism", polyprisms(3, "rotations")),
    ),
    PieceSet(
        "tetraprisms",
        "the 13 tetraprisms, mirror pairs apart: tetraprism1 ... tetraprism13",
        "prism",
        lambda: _numbered("tetraprism", polyprisms(4, "rotations")),
    ),
    PieceSet(
        "trispheres",
        "the 5 trispheres, mirror pairs apart: trisphere1 ... trisphere5",
        "sphere",
        lambda: _numbered("trisphere", polyspheres(3, "rotations")),
    ),
    PieceSet(
        "tetraspheres",
        "the 28 tetraspheres, mirror pairs apart: tetrasphere1 ... tetrasphere28",
        "sphere",
        lambda: _numbered("tetrasphere", polyspheres(4, "rotations")),
    ),
    PieceSet(
        "trirhombics",
        "the 5 tri-rhombic dodecahedra, mirror pairs apart: trirhombic1 ... trirhombic5",
        "rhombic",
        lambda: _numbered("trirhombic", polyrhombic_dodecahedra(3, "rotations")),
    ),
    PieceSet(
        "tetrarhombics",
        "the 28 tetra-rhombic dodecahedra, mirror pairs apart: tetrarhombic1 ... tetrarhombic28",
        "rhombic",
        lambda: _numbered("tetrarhombic", polyrhombic_dodecahedra(4, "rotations")),
    ),
]

_BY_NAME = {piece_set.name: piece_set for piece_set in _SETS}


def piece_sets() -> list[PieceSet]:
    """Every set of the catalog, planar sets first, small pieces first."""
    return list(_SETS)


def piece_set(name: str) -> PieceSet | None:
    """The set included as ``excover:NAME``, or None when there is none of that name."""
    return _BY_NAME.get(name)


@cache
def _pieces(name: str) -> dict[str, Shape]:
    return _BY_NAME[name].build()


@cache
def set_text(name: str) -> str:
    """The ``.cmb`` statements of the set ``name``: one pattern per piece, then a tile
    list named after the set that uses every piece exactly once."""
    piece_set = _BY_NAME[name]
    lines = [f'# include "excover:{name}": {piece_set.title}, generated by excover', ""]
    for piece, shape in piece_set.pieces.items():
        lines.append(_declaration(piece, shape))
        lines.append("")
    kind, rule = ("tiles3", "~rot") if piece_set.three_d else ("tiles", "~sym")
    uses = ", ".join(f"{piece} ~one {rule}" for piece in piece_set.pieces)
    lines.append(f"{kind} {name} = [{uses}]")
    return "\n".join(lines) + "\n"


def _declaration(name: str, shape: Shape) -> str:
    """A ``pattern`` (or ``pattern3``) statement that draws ``shape``."""
    if isinstance(shape, Pattern3):
        layers = ",\n".join("{\n" + shape.layer(z).ascii() + "\n}" for z in range(shape.depth))
        return f"pattern3 {name} = [\n{layers}\n]"
    if isinstance(shape, Pattern):
        return f"pattern {name} = {{\n{shape.ascii()}\n}}"
    grid = shape.grid.name
    if grid in LAYERED_GRIDS:
        art = "triangle" if grid == "prism" else ""
        drawn = ",\n".join(art + "{\n" + "\n".join(rows) + "\n}" for rows in layer_drawings(shape))
        return f"pattern3 {name} = {grid} [\n{drawn}\n]"
    rows = "\n".join(flat_drawing(grid, shape.coords().tolist()))
    return f"pattern {name} = {grid}{{\n{rows}\n}}"
