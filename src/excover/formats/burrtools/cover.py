"""One problem of a BurrTools puzzle as an exact cover problem, and the symmetries under
which BurrTools counts its assemblies.

The reduction: one item per voxel of the result, primary for a filled voxel (``#``, it
must be covered) and secondary for a variable one (``+``, it may stay empty); one primary
item per piece *kind* (a shape of the problem) covered between the kind's ``min`` and
``max`` times, so that the copies of one shape are interchangeable and an assembly is
counted once, not once per permutation of identical pieces. An option is a placement of
a kind: its item and the result voxels the piece's filled voxels cover, for each
rotation of the puzzle's grid (BurrTools never mirrors a piece; a flat piece in a
one-layer puzzle is turned over by a rotation) and each translation of the grid that
puts every filled voxel on a non-empty result voxel whose colour the problem's colour
constraints allow. Orientations that give the same voxels with the same colours are one.
The grid (cubes, triangular prisms, spheres, rhombic dodecahedra or tetrahedra-octahedra)
gives the rotations, mirrors and translations (:mod:`excover.formats.burrtools.lattice`);
on the sphere grid some rotations apply to flat shapes only, as in BurrTools. When the piece
counts are ranges and the problem sets ``maxHoles``, the variable voxels become primary
items, each with a *hole* option, and a ``holes`` item counts the holes up to the limit.

Symmetry, as BurrTools' assembler decides it (``assembler_0.cpp``, ``assembly.cpp``): two
assemblies are the same when a symmetry of the result shape (voxel states and colours
included) maps one onto the other. Every rotation of the result that maps it onto
itself counts; the result's mirror symmetries count too, but only when every piece is
either mirror-symmetric or has a partner among the problem's shapes that is its mirror
image (a mirrored assembly then uses the partners in place of the pieces), as BurrTools'
mirror check asks; partners with different counts leave the mirrors out here.
The problem declares that group (:meth:`ExactCover.declare_symmetries
<excover.ExactCover.declare_symmetries>`), so its ``symmetries()`` and counts up to
symmetry use it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import product
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from excover.errors import FormatError, UsageError
from excover.formats.burrtools.lattice import GRIDS, LatticeGrid, Transformation
from excover.formats.burrtools.model import (
    FILLED,
    VARIABLE,
    Part,
    Problem,
    Puzzle,
    Shape,
    Voxel,
)

if TYPE_CHECKING:
    from excover.permutations import Generator
    from excover.problem import Problem as Model  # not model.Problem, BurrTools' own

P = TypeVar("P", bound="Model")

__all__ = ["kind_name", "result_symmetries", "to_exact_cover"]

#: A voxel set with states and colours, normalised: sorted ``(x, y, z, state, colour)``.
_Labelled = tuple[tuple[int, int, int, str, int], ...]
#: The name of the item counting holes when ``maxHoles`` applies.
HOLES = "holes"


def kind_name(puzzle: Puzzle, shape: int) -> str:
    """The item of the piece kind made of shape ``shape``: ``shape3``, followed by the
    shape's name (its letters, digits, ``.`` and ``-``; other runs become ``_``)."""
    name = re.sub(r"[^\w.-]+", "_", puzzle.shapes[shape].name, flags=re.ASCII).strip("_")
    return f"shape{shape}" + (f"_{name[:40]}" if name else "")


def _cell(voxel: Sequence[int]) -> str:
    """A voxel's item: its coordinates joined by commas, as tilings name cells."""
    return ",".join(str(int(v)) for v in voxel)


def _normal(grid: LatticeGrid, cells: Iterable[tuple[Voxel, str, int]]) -> _Labelled:
    """The labelled voxels moved by the grid's canonical translation, sorted."""
    listed = list(cells)
    if not listed:
        return ()
    low = grid.shift(np.array([v for v, _, _ in listed], dtype=np.int64)).tolist()
    return tuple(sorted((v[0] - low[0], v[1] - low[1], v[2] - low[2], s, c) for v, s, c in listed))


def _moved(
    grid: LatticeGrid, g: Transformation, cells: Sequence[tuple[Voxel, str, int]]
) -> _Labelled | None:
    """The normalised image of labelled voxels, None when ``g`` does not apply."""
    if not cells:
        return ()
    image = g.apply(np.array([v for v, _, _ in cells], dtype=np.int64))
    if image is None:
        return None
    voxels = [(int(x), int(y), int(z)) for x, y, z in image.tolist()]
    return _normal(grid, ((v, s, c) for v, (_, s, c) in zip(voxels, cells, strict=True)))


def _labelled(shape: Shape, states: str) -> list[tuple[Voxel, str, int]]:
    return [(v, s, c) for v, s, c in shape.voxels() if s in states]


def result_symmetries(shape: Shape, grid: int = 0) -> list[Transformation]:
    """The transformations of the grid (BurrTools' grid type ``grid``: rotations and
    mirrors) mapping the shape onto a translate of itself, states and colours kept:
    BurrTools' ``selfSymmetries``."""
    lattice = GRIDS[grid]
    cells = _labelled(shape, FILLED + VARIABLE)
    own = _normal(lattice, cells)
    return [g for g in lattice.transformations if _moved(lattice, g, cells) == own]


def _mirror_partners(puzzle: Puzzle, parts: Sequence[Part]) -> dict[int, int] | None:
    """Which kind each kind becomes in a mirrored assembly (itself when its shape is
    mirror-symmetric), or None when some piece has no mirror partner with the same
    counts: then BurrTools does not identify mirror images (see the module's text)."""
    grid = GRIDS[puzzle.grid]
    shapes = [_labelled(puzzle.shapes[part.shape], FILLED) for part in parts]
    partner: dict[int, int] = {}
    for i, cells in enumerate(shapes):
        if i in partner:
            continue
        own = _normal(grid, cells)
        images = {_moved(grid, g, cells) for g in grid.mirrors} - {None}
        if own in images:
            partner[i] = i
            continue
        later = range(i + 1, len(parts))
        found = next(
            (j for j in later if j not in partner and _normal(grid, shapes[j]) in images), None
        )
        if found is None or (parts[found].lo, parts[found].hi) != (parts[i].lo, parts[i].hi):
            return None
        partner[i], partner[found] = found, i
    return partner


def _check(puzzle: Puzzle, number: int) -> Problem:
    source = puzzle.source
    if puzzle.grid not in GRIDS:
        raise FormatError(
            f"the puzzle is on {puzzle.grid_name}; BurrTools' grids are numbered 0 to 4",
            source=source,
        )
    if not puzzle.problems:
        raise FormatError("the puzzle has no problem to solve", source=source)
    if not 0 <= number < len(puzzle.problems):
        last = len(puzzle.problems) - 1
        raise UsageError(f"{source}: no problem {number}: the problems are numbered 0 to {last}")
    problem = puzzle.problems[number]
    bad = [c for p in problem.color_pairs for c in p if c >= len(puzzle.colors)]
    if bad:
        raise FormatError(
            f"{problem.label(number)}: a colour pair names colour {bad[0]}, of "
            f"{len(puzzle.colors)} colours",
            source=source,
        )
    return problem


def _allowed(puzzle: Puzzle, problem: Problem, piece_color: int, result_color: int) -> bool:
    """BurrTools' colour constraint: may a piece voxel of this colour go on a result
    voxel of that colour (colour 0: no colour, goes anywhere)."""
    if not puzzle.colors or piece_color == 0 or result_color == 0:
        return True
    return (piece_color - 1, result_color - 1) in problem.color_pairs


class _Board:
    """The result's voxels as arrays, for finding every placement of an orientation."""

    def __init__(self, puzzle: Puzzle, problem: Problem, result: Shape) -> None:
        self.grid = GRIDS[puzzle.grid]
        self.size = np.array(result.size, dtype=np.int64)
        self.colors = np.zeros(result.size, dtype=np.int64)
        self.used = np.zeros(result.size, dtype=bool)
        for voxel, _state, color in result.voxels():
            self.used[voxel] = True
            self.colors[voxel] = color
        self.puzzle = puzzle
        self.problem = problem
        self._masks: dict[int, np.ndarray] = {}

    def mask(self, piece_color: int) -> np.ndarray:
        """Where a piece voxel of this colour may go."""
        if piece_color not in self._masks:
            allowed = [
                _allowed(self.puzzle, self.problem, piece_color, c)
                for c in range(len(self.puzzle.colors) + 1)
            ]
            ok = np.array(allowed, dtype=bool)[np.minimum(self.colors, len(allowed) - 1)]
            self._masks[piece_color] = self.used & ok
        return self._masks[piece_color]

    def placements(self, orientation: _Labelled) -> list[list[Voxel]]:
        """Every translate of the orientation by a translation of the grid lying on
        the result."""
        low = np.array([min(v[axis] for v in orientation) for axis in range(3)])
        extent = np.array([max(v[axis] for v in orientation) for axis in range(3)]) - low
        room = self.size - extent
        if (room <= 0).any():
            return []
        valid = np.ones(tuple(room.tolist()), dtype=bool)
        for x, y, z, _state, color in orientation:
            x, y, z = x - low[0], y - low[1], z - low[2]
            valid &= self.mask(color)[x : x + room[0], y : y + room[1], z : z + room[2]]
        moves = np.argwhere(valid) - low
        moves = moves[self.grid.translations_ok(moves)]
        return [
            [(x + dx, y + dy, z + dz) for x, y, z, _s, _c in orientation]
            for dx, dy, dz in moves.tolist()
        ]


def _orientations(grid: LatticeGrid, shape: Shape) -> list[_Labelled]:
    """The distinct orientations of a piece's filled voxels under the grid's rotations
    (none for a piece without filled voxels: it has no placement)."""
    cells = _labelled(shape, FILLED)
    if not cells:
        return []
    found = dict.fromkeys(_moved(grid, g, cells) for g in grid.rotations)
    return [orientation for orientation in found if orientation is not None]


def _holes_apply(problem: Problem, puzzle: Puzzle) -> bool:
    """Does ``maxHoles`` bound the empty variable voxels (only when the pieces' total
    volume varies, as in BurrTools)?"""
    if problem.max_holes is None:
        return False
    volumes = [len(puzzle.shapes[p.shape].cells(FILLED)) for p in problem.parts]
    low = sum(v * p.lo for v, p in zip(volumes, problem.parts, strict=True))
    high = sum(v * p.hi for v, p in zip(volumes, problem.parts, strict=True))
    return low != high


def to_exact_cover(puzzle: Puzzle, number: int, factory: type[P]) -> P:
    """The exact cover problem of problem ``number`` (from 0, as BurrTools' ``burrTxt
    -o``) of a puzzle on any of BurrTools' grids, built by ``factory`` (Problem or a
    subclass: see :meth:`ExactCover.from_burrtools <excover.ExactCover.from_burrtools>`),
    its symmetries declared; see the module's text for the reduction."""
    problem = _check(puzzle, number)
    result = puzzle.shapes[problem.result]
    parts = [part for part in problem.parts if part.hi > 0]
    filled = [_cell(v) for v in result.cells(FILLED)]
    variable = [_cell(v) for v in result.cells(VARIABLE)]
    holes = _holes_apply(problem, puzzle)
    kinds = [kind_name(puzzle, part.shape) for part in parts]
    if len(set(kinds)) != len(kinds):
        raise FormatError(f"{problem.label(number)} names a shape twice", source=puzzle.source)
    primary = filled + kinds + ([*variable, HOLES] if holes else [])
    cover = factory(primary=primary, secondary=[] if holes else variable)
    for part, kind in zip(parts, kinds, strict=True):
        if (part.lo, part.hi) != (1, 1):
            cover.set_multiplicity(kind, part.lo, part.hi)
    if holes:
        assert problem.max_holes is not None
        cover.set_multiplicity(HOLES, 0, max(problem.max_holes, 1))
    board = _Board(puzzle, problem, result)
    position = {name: k for k, name in enumerate(cover.items)}
    starts, items = [0], []
    for part, kind in zip(parts, kinds, strict=True):
        for orientation in _orientations(board.grid, puzzle.shapes[part.shape]):
            for cells in board.placements(orientation):
                items.append(position[kind])
                items.extend(position[_cell(v)] for v in cells)
                starts.append(len(items))
    if holes and problem.max_holes:
        for name in variable:
            items += [position[name], position[HOLES]]
            starts.append(len(items))
    cover.add_options(starts, items)
    cover.declare_symmetries(_generators(puzzle, parts, result))
    return cover


def _generators(puzzle: Puzzle, parts: Sequence[Part], result: Shape) -> list[Generator]:
    """Generators of the symmetry group (see the module's text), as item mappings."""
    symmetries = result_symmetries(result, puzzle.grid)
    kept = [g for g in symmetries if g.determinant > 0]
    partner = None
    if len(kept) < len(symmetries):
        partner = _mirror_partners(puzzle, parts)
        if partner is not None:
            kept = symmetries
    cells = [v for v, _, _ in _labelled(result, FILLED + VARIABLE)]
    if not cells:
        return []
    generated = {tuple(range(len(cells)))}
    mappings: list[Generator] = []
    for g in kept:
        images = _images(GRIDS[puzzle.grid], g, cells)
        if images in generated:
            continue
        generated = _closure(generated | {images})
        mappings.append(_mapping(puzzle, g, cells, images, parts, partner))
    return mappings


def _images(grid: LatticeGrid, g: Transformation, cells: list[Voxel]) -> tuple[int, ...]:
    """The symmetry ``g`` of the result as a permutation of its voxels: the number of
    the voxel each voxel goes to, the image moved back onto the result."""
    voxels = np.array(cells, dtype=np.int64)
    image = g.apply(voxels)
    assert image is not None  # g is a symmetry of these voxels
    moved = image - grid.shift(image) + grid.shift(voxels)
    number = {v: k for k, v in enumerate(cells)}
    return tuple(number[(int(x), int(y), int(z))] for x, y, z in moved.tolist())


def _closure(maps: set[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """The group generated by the permutations ``maps``."""
    found = set(maps)
    while True:
        new = {tuple(a[i] for i in b) for a, b in product(found, repeat=2)}
        if new <= found:
            return found
        found |= new


def _mapping(
    puzzle: Puzzle,
    g: Transformation,
    cells: list[Voxel],
    images: tuple[int, ...],
    parts: Sequence[Part],
    partner: dict[int, int] | None,
) -> dict[str, str]:
    """The item mapping of the symmetry ``g`` of the result: each voxel to its image
    (moved back onto the result), each kind to itself or, for a mirror, its partner."""
    mapping = {_cell(v): _cell(cells[w]) for v, w in zip(cells, images, strict=True)}
    if g.determinant < 0 and partner is not None:
        for i, j in partner.items():
            mapping[kind_name(puzzle, parts[i].shape)] = kind_name(puzzle, parts[j].shape)
    return mapping
