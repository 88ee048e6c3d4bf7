"""The pieces and boards of packing designs, as a declaration names them.

A declaration (:mod:`excover.tiling.designs`) names a **catalog** of pieces to choose
from and a **board** (or box) to fill:

- catalogs by name: ``trominoes``, ``tetrominoes``, ``pentominoes``, ``hexominoes``,
  ``heptominoes``, ``octominoes``, ``tricubes``, ``tetracubes``, ``pentacubes``,
  ``hexacubes``, ``soma``, and any size or range of sizes as ``polyominoes:N``,
  ``polyominoes:A-B``, ``polycubes:N``, ``polycubes:A-B``; or a table of named drawings
  of the user's own. The pieces are the classes of shapes under the motions the pieces
  are allowed (``turn``: ``"all"``, rotations and reflections, the default on the plane;
  ``"rotations"``, the default in space, where a solid piece cannot be mirrored; or
  ``"none"``), each once: the 12 pentominoes, or the 29 pentacubes that turn in space.
  Pieces are named as the ``.cmb`` catalog names them (``excover:pentacubes``):
  ``pentacube1`` ... ``pentacube29`` in the catalog's order, the pentominoes by their
  letters, the tetrominoes ``I4 O4 T4 S4 L4``, the Soma pieces ``V L T Z A B P``;
- boards as ``WxH`` (a rectangle), ``WxHxD`` (a box) or a drawing (``*`` or ``#``
  cells), whose layers, bottom first, are separated by blank lines in space.

Only the square and the cubic grids are offered: their checkerboard colouring gives the
designs' colouring test (:mod:`excover.tiling.design_settle`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from excover.errors import ExcoverError
from excover.tiling.catalog import (
    numbered,
    pentominoes,
    polycubes,
    polyominoes,
    soma_pieces,
    tetrominoes,
)
from excover.tiling.grids import CUBE, GRIDS, SQUARE, Grid, Isometry, IsometryGroup
from excover.tiling.pattern import Pattern, Pattern3
from excover.tiling.tile import Shape

__all__ = [
    "CATALOGS",
    "TURNS",
    "Catalog",
    "board_symmetries",
    "catalog",
    "catalog_grid",
    "class_key",
    "default_turn",
    "parse_board",
]

#: How pieces may be moved.
TURNS = ("all", "rotations", "none")

#: The stems of the named families: cells -> (square name, cube name).
_STEMS = {
    1: ("monomino", "monocube"),
    2: ("domino", "dicube"),
    3: ("tromino", "tricube"),
    4: ("tetromino", "tetracube"),
    5: ("pentomino", "pentacube"),
    6: ("hexomino", "hexacube"),
    7: ("heptomino", "heptacube"),
    8: ("octomino", "octacube"),
}

#: The catalogs by name: their grid and the sizes of their pieces.
CATALOGS: dict[str, tuple[str, tuple[int, ...]]] = {
    **{
        stem + ("es" if stem.endswith("o") else "s"): ("square", (n,))
        for n, (stem, _) in _STEMS.items()
    },
    **{stem + "s": ("cube", (n,)) for n, (_, stem) in _STEMS.items() if n >= 3},
    "soma": ("cube", (3, 4)),
}

_GENERIC = re.compile(r"^(polyominoes|polycubes):(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class Catalog:
    """The pieces a design chooses from: their grid, and each piece by name (distinct
    classes under ``turn``), in a fixed order."""

    grid: Grid
    turn: str
    pieces: dict[str, Shape]

    @property
    def names(self) -> list[str]:
        return list(self.pieces)


def default_turn(grid: Grid) -> str:
    """How pieces move unless told: every isometry on the plane, rotations in space."""
    return "rotations" if grid.solid else "all"


def catalog_grid(spec: object) -> Grid | None:
    """The grid of a named catalog; None for a drawn catalog (of the board's grid) and
    for a name that is no catalog's (which :func:`catalog` refuses)."""
    if not isinstance(spec, str):
        return None
    generic = _GENERIC.match(spec)
    if generic:
        return SQUARE if generic.group(1) == "polyominoes" else CUBE
    if spec not in CATALOGS:
        return None
    return GRIDS[CATALOGS[spec][0]]


def catalog(spec: str | Mapping[str, str], grid: Grid, turn: str) -> Catalog:
    """The catalog ``spec`` (a name, or drawings by name) on ``grid``, its pieces moving
    by ``turn``. A ValueError says what is wrong (an unknown name, two drawings of one
    piece)."""
    if isinstance(spec, str):
        return Catalog(grid, turn, _named(spec, grid, turn))
    pieces: dict[str, Shape] = {}
    seen: dict[bytes, str] = {}
    group = grid.group(turn)
    for name, drawing in spec.items():
        if not isinstance(drawing, str):
            raise ValueError(f"piece {name!r} must be a drawing (a string), not {drawing!r}")
        try:
            shape = _drawn(drawing, grid, f"piece {name}")
        except ExcoverError as exc:
            raise ValueError(str(exc)) from None
        if shape.size == 0:
            raise ValueError(f"piece {name!r} has no cells")
        key = class_key(grid, shape.coords(), group)
        if key in seen:
            raise ValueError(f"piece {name!r} is piece {seen[key]!r} moved ({turn})")
        seen[key] = name
        pieces[name] = shape
    if not pieces:
        raise ValueError("the catalog draws no piece")
    return Catalog(grid, turn, pieces)


def _named(spec: str, grid: Grid, turn: str) -> dict[str, Shape]:
    generic = _GENERIC.match(spec)
    if generic:
        low = int(generic.group(2))
        high = int(generic.group(3) or low)
        if not 1 <= low <= high <= 12:
            raise ValueError(f"sizes from 1 to 12 cells, not {spec!r}")
        sizes = tuple(range(low, high + 1))
    elif spec in CATALOGS:
        sizes = CATALOGS[spec][1]
    else:
        raise ValueError(
            f"unknown catalog {spec!r}: one of {', '.join(CATALOGS)}, polyominoes:N, "
            "polycubes:N (or A-B), or a table of drawings"
        )
    if spec == "soma":
        pieces: dict[str, Shape] = dict(soma_pieces())
    elif turn == "all" and spec == "pentominoes":
        pieces = dict(pentominoes())
    elif turn == "all" and spec == "tetrominoes":
        pieces = {f"{k}4": p for k, p in tetrominoes().items()}
    elif turn == "all" and spec == "trominoes":
        straight, bent = sorted(polyominoes(3), key=lambda p: -max(p.array.shape))
        pieces = {"I3": straight, "L3": bent}
    else:
        make = polycubes if grid is CUBE else polyominoes
        pieces = {}
        for size in sizes:
            stem = _STEMS[size][grid is CUBE] if size in _STEMS else f"poly{size}_"
            pieces.update(numbered(stem, make(size, turn)))
    return _distinct(pieces, grid, turn)


def _distinct(pieces: dict[str, Shape], grid: Grid, turn: str) -> dict[str, Shape]:
    """The pieces, one per class under ``turn`` (the first name kept): the Soma pieces
    allowed to be mirrored are six."""
    group = grid.group(turn)
    seen: set[bytes] = set()
    kept = {}
    for name, shape in pieces.items():
        key = class_key(grid, shape.coords(), group)
        if key not in seen:
            seen.add(key)
            kept[name] = shape
    return kept


def board_symmetries(board: Shape, catalog: Catalog) -> list[tuple[Isometry, tuple[int, ...]]]:
    """The symmetries of ``board`` that map every piece of ``catalog`` onto a piece of
    it (a mirror sends a piece that may only turn to its mirror image, which must be
    there too), each with where it sends each piece (by number), the identity first."""
    grid = catalog.grid
    turn = grid.group(catalog.turn)
    shapes = [grid.normalize(shape.coords()) for shape in catalog.pieces.values()]
    number = {class_key(grid, shape, turn): k for k, shape in enumerate(shapes)}
    found = []
    for g in grid.symmetries(board.coords()):
        try:
            found.append((g, tuple(number[class_key(grid, g.apply(s), turn)] for s in shapes)))
        except KeyError:  # a piece's image is no piece of the catalog
            continue
    return found


def class_key(grid: Grid, coords: np.ndarray, group: IsometryGroup) -> bytes:
    """The canonical form of a shape under ``group``: the smallest of its normalised
    images, as bytes (equal for two shapes exactly when one is the other moved)."""
    return min(grid.normalize(g.apply(coords)).tobytes() for g in group)


_BOX = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*(?:x\s*(\d+)\s*)?$")


def parse_board(spec: str, grid: Grid | None) -> Pattern | Pattern3:
    """The board ``spec``: ``WxH``, ``WxHxD`` or a drawing, on ``grid`` (None: the
    board's own, a box with three sizes or a drawing with layers being in space). A
    ValueError says what is wrong."""
    box = _BOX.match(spec)
    if box:
        sizes = [int(v) for v in box.groups() if v is not None]
        if min(sizes) < 1:
            raise ValueError(f"a box has sizes >= 1, not {spec!r}")
        if grid is CUBE and len(sizes) == 2:
            sizes.append(1)
        if grid is SQUARE and len(sizes) == 3:
            raise ValueError(f"{spec!r} is a box in space, and the pieces are flat")
        return Pattern3.constant(*sizes) if len(sizes) == 3 else Pattern.constant(*sizes)
    if grid is None:
        lines = [line.strip() for line in spec.strip().split("\n")]
        grid = CUBE if "" in lines else SQUARE
    try:
        shape = _drawn(spec, grid, "board")
    except ExcoverError as exc:
        raise ValueError(str(exc)) from None
    if shape.size == 0:
        raise ValueError("the board has no cells")
    return shape


def _drawn(drawing: str, grid: Grid, source: str) -> Pattern | Pattern3:
    """A drawing on ``grid``: a flat pattern, or layers separated by blank lines."""
    if grid is CUBE:
        return Pattern3.from_ascii(drawing, source)
    return Pattern.from_ascii(drawing, source)
