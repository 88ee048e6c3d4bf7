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

from excover.errors import UsageError
from excover.lang.evaluate import flat_drawing, layer_drawings
from excover.tiling import (
    Pattern,
    Pattern3,
    numbered,
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
from excover.tiling.grids import GRIDS
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
        """Whether the pieces are solids (``tiles3`` in ``.cmb``)."""
        return GRIDS[self.grid].solid


def _trominoes() -> dict[str, Shape]:
    straight, bent = sorted(polyominoes(3), key=lambda p: -max(p.array.shape))
    return {"I3": straight, "L3": bent}


def _family(
    stem: str,
    count: int,
    grid: str,
    generate: Callable[..., Sequence[Shape]],
    cells: int,
    *,
    mirror_pairs: bool = False,
) -> PieceSet:
    """The set of the ``count`` pieces of ``cells`` cells that ``generate`` makes, named
    after ``stem`` (``hexomino1`` ... ``hexomino35``, the set ``hexominoes``). Solid
    pieces are generated up to rotation only (they cannot be mirrored), so a solid family
    with ``mirror_pairs`` keeps both pieces of each mirror pair."""
    name = stem + ("es" if stem[-1] in "ox" else "s")
    names = f"{stem}1 {stem}2" if count == 2 else f"{stem}1 ... {stem}{count}"
    called = _CALLED.get(name, name) + (", mirror pairs apart" if mirror_pairs else "")
    solid = GRIDS[grid].solid

    def build() -> dict[str, Shape]:
        return numbered(stem, generate(cells, "rotations") if solid else generate(cells))

    return PieceSet(name, f"the {count} {called}: {names}", grid, build)


#: What a title calls a family whose name does not say it all.
_CALLED = {
    "diprisms": "diprisms (two triangular prisms)",
    "trirhombics": "tri-rhombic dodecahedra",
    "tetrarhombics": "tetra-rhombic dodecahedra",
}

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
    _family("hexomino", 35, "square", polyominoes, 6),
    PieceSet(
        "triamonds",
        "the triamond (3 triangles)",
        "triangle",
        lambda: {"triamond": polyiamonds(3)[0]},
    ),
    _family("tetriamond", 3, "triangle", polyiamonds, 4),
    _family("pentiamond", 4, "triangle", polyiamonds, 5),
    _family("hexiamond", 12, "triangle", polyiamonds, 6),
    PieceSet("dihex", "the dihex (two hexagons)", "hex", lambda: {"dihex": polyhexes(2)[0]}),
    _family("trihex", 3, "hex", polyhexes, 3),
    _family("tetrahex", 7, "hex", polyhexes, 4),
    _family("pentahex", 22, "hex", polyhexes, 5),
    _family("tricube", 2, "cube", polycubes, 3),
    _family("tetracube", 8, "cube", polycubes, 4, mirror_pairs=True),
    _family("pentacube", 29, "cube", polycubes, 5, mirror_pairs=True),
    PieceSet("soma", "the 7 Soma pieces: V L T Z A B P", "cube", lambda: dict(soma_pieces())),
    _family("diprism", 2, "prism", polyprisms, 2),
    _family("triprism", 3, "prism", polyprisms, 3),
    _family("tetraprism", 13, "prism", polyprisms, 4, mirror_pairs=True),
    _family("trisphere", 5, "sphere", polyspheres, 3, mirror_pairs=True),
    _family("tetrasphere", 28, "sphere", polyspheres, 4, mirror_pairs=True),
    _family("trirhombic", 5, "rhombic", polyrhombic_dodecahedra, 3, mirror_pairs=True),
    _family("tetrarhombic", 28, "rhombic", polyrhombic_dodecahedra, 4, mirror_pairs=True),
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
    if shape.grid.traits.layered:
        art = shape.grid.layer_grid.traits.art or ""
        drawn = ",\n".join(art + "{\n" + "\n".join(rows) + "\n}" for rows in layer_drawings(shape))
        return f"pattern3 {name} = {grid} [\n{drawn}\n]"
    word = shape.grid.traits.art
    if word is None:
        raise UsageError(f"a pattern of the {grid} grid has no drawing in the .cmb language")
    rows = "\n".join(flat_drawing(grid, shape.coords().tolist()))
    return f"pattern {name} = {word}{{\n{rows}\n}}"
