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
The options come kind by kind, each kind's orientations in BurrTools' numbering of the
rotations (the lowest number that gives each), then its positions by ``x``, ``y``, ``z``:
BurrTools' own order of placements (:mod:`excover.burr.xmpuzzle.breaking`), so that
the smallest sorted list of options of a class of assemblies is the assembly BurrTools
keeps of it.
The grid (cubes, triangular prisms, spheres, rhombic dodecahedra or tetrahedra-octahedra)
gives the rotations, mirrors and translations (:mod:`excover.burr.xmpuzzle.lattice`);
on the sphere grid some rotations apply to flat shapes only, as in BurrTools. When the piece
counts are ranges and the problem sets ``maxHoles``, the variable voxels become primary
items, each with a *hole* option, and a ``holes`` item counts the holes up to the limit.

Symmetry, as BurrTools' assemblers decide it (``assembler_0.cpp``, ``assembler_1.cpp``,
``assembly.cpp``): two assemblies are the same when a symmetry of the result shape (voxel
states and colours included) maps one onto the other. Every rotation of the result that
maps it onto itself counts. A mirror symmetry counts for an assembly when its mirror
image is an assembly of the puzzle: each piece used is mirror-symmetric or swapped with
its *mirror partner*, a piece whose shape is its mirror image. BurrTools pairs the
pieces (each copy of a shape is one) in their order, each piece that is not
mirror-symmetric with the first later one free that is its mirror image, and stops at
the first piece without one (:func:`_mirrors`). When every shape is used a fixed number
of times, it identifies mirror images only when every piece found a partner (then for
every assembly); when some shape may be used a range of times (``min`` < ``max``,
``assembler_1``), it keeps the partners found so far and looks at each assembly: its
mirror image counts when every piece it uses has a partner and the partners it uses
instead are used at least their ``min`` times. Copy ``c`` of a shape being paired with
copy ``c`` of its partner's, and an assembly using the first copies of each shape,
those are the assemblies whose count of each shape that is not mirror-symmetric lies
between the ``min`` of the shape and of its partner and the number of its copies that
found a partner (none when none did).

The problem declares the group of the rotations (:meth:`ExactCover.declare_symmetries
<excover.ExactCover.declare_symmetries>`), so its ``symmetries()``, counts of every
assembly and counts up to symmetry use it, with the mirrors (each kind swapped with its
partner's kind) when every assembly has its mirror image. When only some do, the
declared group is that of the rotations and the assemblies that have mirror images are
a sub-problem that declares the whole group (the same options, less those of shapes
without partners, the counts narrowed as above): a
:class:`~excover.problem.Widening` of the rotations, so that counts and listings up
to symmetry count each class as BurrTools does (:mod:`excover.symmetry.widened`). On the
random puzzles of ``benchmarks/burr_differential.py`` this is where the counts of
``assembler_1`` used to differ (a 2x4x4 box holding a spare chiral piece without a
partner: 20,312 assemblies, 40,624 under the rotations alone). A pairing of another
pattern (copy ``c`` of one shape paired with another copy number, or with copies of two
shapes) needs two shapes of the problem alike up to rotation; BurrTools' swaps then
depend on where the pieces lie, and mirror images are not identified here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from excover.burr.xmpuzzle._cover import (
    fitting,
    matching,
    normal_images,
    row_table,
    self_maps,
)
from excover.burr.xmpuzzle.breaking import compared_first, rotation_order
from excover.burr.xmpuzzle.lattice import GRIDS, LatticeGrid, Transformation, Voxels
from excover.burr.xmpuzzle.model import (
    FILLED,
    VARIABLE,
    BurrProblem,
    BurrPuzzle,
    BurrShape,
    Part,
)
from excover.burr.xmpuzzle.placements import TRANSFORMATIONS
from excover.entries import distinct, row_keys
from excover.errors import FormatError, UsageError
from excover.permutations import Automorphism
from excover.problem import Widening

if TYPE_CHECKING:
    from excover.permutations import Generator
    from excover.problem import Problem as Model  # excover's model, not BurrTools' problem

P = TypeVar("P", bound="Model")

__all__ = [
    "breaker",
    "group_elements",
    "item_voxels",
    "kind_name",
    "result_symmetries",
    "to_exact_cover",
]

#: A permutation of points: the image of each.
Perm = npt.NDArray[np.int64]
#: Labelled voxels: one row ``(x, y, z, state, colour)`` per voxel, the state as its
#: character's code.
_Labelled = npt.NDArray[np.int64]
#: A grid's transformations as the compiled loops take them (see :func:`_compiled`).
_Maps = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], bool, int, int]
#: The name of the item counting holes when ``maxHoles`` applies.
HOLES = "holes"


def kind_name(puzzle: BurrPuzzle, shape: int) -> str:
    """The item of the piece kind made of shape ``shape``: ``shape3``, followed by the
    shape's name (its letters, digits, ``.`` and ``-``; other runs become ``_``)."""
    name = re.sub(r"[^\w.-]+", "_", puzzle.shapes[shape].name, flags=re.ASCII).strip("_")
    return f"shape{shape}" + (f"_{name[:40]}" if name else "")


def _cells(voxels: Voxels) -> list[str]:
    """The items of voxels: each one's coordinates joined by commas, as tilings name
    cells."""
    return [f"{x},{y},{z}" for x, y, z in voxels.tolist()]


def _labelled(shape: BurrShape, states: str) -> _Labelled:
    """The voxels of ``shape`` in ``states``, in the order of :meth:`Shape.voxels`."""
    codes = np.frombuffer(shape.states.encode("ascii"), dtype=np.uint8)
    wanted = np.zeros(len(codes), dtype=bool)
    for code in states.encode("ascii"):
        wanted |= codes == code
    index = np.flatnonzero(wanted)
    sx, sy, _ = shape.size
    if shape.colors.count(0) == len(shape.colors):  # no colours (converting them is slow)
        colors = np.zeros(len(index), dtype=np.int64)
    else:
        colors = np.asarray(shape.colors, dtype=np.int64)[index]
    state = codes[index].astype(np.int64)
    return np.stack([index % sx, index // sx % sy, index // (sx * sy), state, colors], axis=1)


def _normal(grid: LatticeGrid, cells: _Labelled) -> _Labelled:
    """The labelled voxels moved by the grid's canonical translation, sorted by
    position."""
    if not len(cells):
        return cells
    moved = cells.copy()
    moved[:, :3] -= grid.shift(cells[:, :3])
    result: _Labelled = moved[np.lexsort((moved[:, 2], moved[:, 1], moved[:, 0]))]
    return result


def _images(
    grid: LatticeGrid, cells: _Labelled
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The normalised images of non-empty labelled voxels under every transformation
    of the grid, each sorted as :func:`_normal` sorts, and which of them apply."""
    images, ok = grid.images(cells[:, :3])
    moved = images - grid.shifts(images)[:, None, :]
    base = int(moved.max()) + 1  # every coordinate is at least 0 once moved
    order = np.argsort((moved[..., 0] * base + moved[..., 1]) * base + moved[..., 2], axis=1)
    placed = np.take_along_axis(moved, order[..., None], axis=1)
    return np.concatenate([placed, cells[:, 3:][order]], axis=2), ok


@cache
def _compiled(grid: LatticeGrid) -> _Maps | None:
    """The grid's transformations as the compiled loops take them (their matrices and
    offsets, whether they act on the prism grid's strip coordinates, the translations'
    period and the parity they keep: 1 of x + y, 2 of x + y + z, 0 none), or None on
    the sphere grid, whose half turns look at a shape as a whole."""
    if any(t.denominator != 1 for t in grid.transformations):
        return None
    matrices = np.array([t.matrix for t in grid.transformations], dtype=np.int64)
    offsets = np.array([t.offset for t in grid.transformations], dtype=np.int64)
    parity = 0 if not grid.even else 1 if grid.number == 1 else 2
    return matrices, offsets, grid.number == 1, grid.period, parity


def _symmetries(grid: LatticeGrid, cells: _Labelled) -> tuple[list[int], npt.NDArray[np.int64]]:
    """The transformations of the grid mapping non-empty labelled voxels onto a
    translate of themselves, labels kept (their numbers in ``transformations``), and
    the permutation of the voxels each one makes: the number of the voxel each voxel
    goes to, the image moved back onto the voxels (one compiled call,
    :func:`~excover.burr.xmpuzzle._cover.self_maps`, except on the sphere grid)."""
    maps = _compiled(grid)
    if maps is not None:
        which, perms = self_maps(np.ascontiguousarray(cells), *maps)
        return which.tolist(), perms
    return _symmetries_at_once(grid, cells)


def _symmetries_at_once(
    grid: LatticeGrid, cells: _Labelled
) -> tuple[list[int], npt.NDArray[np.int64]]:
    """:func:`_symmetries` in numpy, every transformation at once (on any grid)."""
    voxels, labels = cells[:, :3], cells[:, 3:]
    images, ok = grid.images(voxels)
    moved = images - grid.shifts(images)[:, None, :] + grid.shift(voxels)
    box = voxels.max(axis=0) + 1
    strides = np.array([box[1] * box[2], box[2], 1], dtype=np.int64)
    number = np.full(int(box.prod()), -1, dtype=np.int64)
    number[voxels @ strides] = np.arange(len(voxels))
    inside = ((moved >= 0) & (moved < box)).all(axis=2)
    perms = np.where(inside, number[np.where(inside[..., None], moved, 0) @ strides], -1)
    same = ok & (perms >= 0).all(axis=1) & (labels[perms] == labels).all(axis=(1, 2))
    return np.flatnonzero(same).tolist(), perms[same]


def result_symmetries(shape: BurrShape, grid: int = 0) -> list[Transformation]:
    """The transformations of the grid (BurrTools' grid type ``grid``: rotations and
    mirrors) mapping the shape onto a translate of itself, states and colours kept:
    BurrTools' ``selfSymmetries``."""
    lattice = GRIDS[grid]
    cells = _labelled(shape, FILLED + VARIABLE)
    if not len(cells):
        return list(lattice.transformations)
    return [lattice.transformations[k] for k in _symmetries(lattice, cells)[0]]


def breaker(puzzle: BurrPuzzle, number: int) -> int | None:
    """The part of problem ``number`` (its index in the problem's ``parts``) whose piece
    BurrTools compares first when it picks one assembly of a class, or None
    (:func:`~excover.burr.xmpuzzle.breaking.compared_first`); parts used at most 0
    times play no part, here as in the exact cover problem (BurrTools may pick one of
    them)."""
    problem = _check(puzzle, number)
    if puzzle.grid not in TRANSFORMATIONS:
        return None  # BurrTools disassembles on the grids whose placements it stores only
    grid = GRIDS[puzzle.grid]
    cells = _labelled(puzzle.shapes[problem.result], FILLED + VARIABLE)
    if not len(cells):
        return None
    used = [k for k, part in enumerate(problem.parts) if part.hi > 0]
    parts = [problem.parts[k] for k in used]
    shapes = []
    for part in parts:
        filled = _labelled(puzzle.shapes[part.shape], FILLED)
        shapes.append(_symmetries(grid, filled)[0] if len(filled) else [])
    first = compared_first(puzzle.grid, parts, _symmetries(grid, cells)[0], shapes)
    return None if first is None else used[first]


class _Pieces:
    """The filled voxels of the puzzle's shapes and their normalised images under
    every transformation of the grid, each shape's made once (for its orientations
    and, when mirror images count, its mirror images)."""

    def __init__(self, puzzle: BurrPuzzle) -> None:
        self.puzzle = puzzle
        self.grid = GRIDS[puzzle.grid]
        self._made: dict[int, tuple[_Labelled, _Labelled, npt.NDArray[np.bool_]]] = {}
        self._own: dict[int, bytes] = {}

    def images(self, shape: int) -> tuple[_Labelled, _Labelled, npt.NDArray[np.bool_]]:
        """Shape ``shape``'s labelled filled voxels, their normalised images (an
        array of shape ``(transformations, voxels, 5)``) and which images apply."""
        if shape not in self._made:
            self.batch([shape])
        if shape not in self._made:  # on the sphere grid, or without filled voxels
            cells = _labelled(self.puzzle.shapes[shape], FILLED)
            count = len(self.grid.transformations)
            if len(cells):
                images, ok = _images(self.grid, cells)
            else:
                images, ok = np.zeros((count, 0, 5), np.int64), np.ones(count, dtype=bool)
            self._made[shape] = (cells, images, ok)
        return self._made[shape]

    def batch(self, shapes: Sequence[int]) -> None:
        """Make the images of several shapes at once, as :meth:`images` makes each, in
        one compiled call (:func:`~excover.burr.xmpuzzle._cover.normal_images`), on
        a grid whose transformations move each voxel on its own (not the sphere grid's,
        whose half turns look at a shape as a whole)."""
        maps = _compiled(self.grid)
        if maps is None:
            return
        todo = [s for s in dict.fromkeys(shapes) if s not in self._made]
        cells = [_labelled(self.puzzle.shapes[s], FILLED) for s in todo]
        todo = [s for s, c in zip(todo, cells, strict=True) if len(c)]
        cells = [c for c in cells if len(c)]
        if not todo:
            return
        firsts = np.concatenate([[0], np.cumsum([len(c) for c in cells])]).astype(np.int64)
        labelled = normal_images(np.concatenate(cells), firsts, *maps)
        ok = np.ones(len(labelled), dtype=bool)
        for k, shape in enumerate(todo):
            self._made[shape] = (cells[k], labelled[:, firsts[k] : firsts[k + 1]], ok)

    def orientations(self, shape: int) -> _Labelled:
        """The distinct orientations of the shape's filled voxels under the grid's
        rotations, an array of shape ``(orientations, voxels, 5)`` (none for a shape
        without filled voxels: it has no placement), in the order of BurrTools' numbers
        of the rotations (:func:`~excover.burr.xmpuzzle.breaking.rotation_order`),
        each orientation where the lowest number that gives it puts it, as BurrTools
        numbers a piece's orientations."""
        cells, images, ok = self.images(shape)
        if not len(cells):
            return images[:0]
        order = np.array(rotation_order(self.puzzle.grid), dtype=np.int64)
        turned = images[order][ok[order]]
        _, first = np.unique(row_keys(turned.reshape(len(turned), -1)), return_index=True)
        distinct: _Labelled = turned[np.sort(first)]
        return distinct

    def own(self, shape: int) -> bytes:
        """The shape's filled voxels, normalised, as a key (equal keys, equal voxels)."""
        if shape not in self._own:
            cells, images, _ = self.images(shape)
            # the first transformation is the identity: its image is the shape normalised
            own = images[0] if len(images) and len(cells) else _normal(self.grid, cells)
            self._own[shape] = own.tobytes()
        return self._own[shape]

    def mirrored(self, shape: int) -> set[bytes]:
        """The keys of the shape's images under the grid's mirrors."""
        _, images, ok = self.images(shape)
        turns = len(self.grid.rotations)
        return {image.tobytes() for image in images[turns:][ok[turns:]]}


class _Mirrors(NamedTuple):
    """The assemblies BurrTools identifies with their mirror images (see the module's
    text): those that use each kind ``i`` between ``bounds[i]`` times (``(0, 0)``: not
    at all), a mirror image putting kind ``partner[i]`` where kind ``i`` was (kinds left
    out are their own partners)."""

    partner: dict[int, int]
    bounds: list[tuple[int, int]]

    def every(self, parts: Sequence[Part]) -> bool:
        """Whether every assembly is one of them."""
        return all(b == (p.lo, p.hi) for b, p in zip(self.bounds, parts, strict=True))


def _mirrors(pieces: _Pieces, parts: Sequence[Part]) -> _Mirrors | None:
    """Which assemblies BurrTools identifies with their mirror images, on a result
    that has mirror symmetries (see the module's text), or None when none is.

    BurrTools pairs the pieces (each copy of a shape is a piece; the parts in order,
    their copies one after another): each piece whose shape is not mirror-symmetric, not
    paired yet, with the first later piece not paired yet whose shape is its mirror
    image, stopping at the first such piece without one. Without ranges it identifies
    mirror images only when every such piece found a partner; with ranges, it looks at
    each assembly's mirror image, kept when no piece in it is mirrored (each piece used
    has a partner, swapped with it) and it uses each shape at least its ``min`` times.
    Pieces are used first copy first, and when copy ``c`` of one part is paired with
    copy ``c`` of one other part (its *partner*), those images are the assemblies that
    use each part that is not mirror-symmetric at most as many times as it has paired
    copies and at least the ``min`` of both partners. Pairings of another pattern need
    two shapes of the problem alike up to rotation, and BurrTools' swaps then depend on
    where the pieces lie: mirror images are not identified there."""
    chiral = [pieces.own(p.shape) not in pieces.mirrored(p.shape) for p in parts]
    copies = [(i, c) for i, part in enumerate(parts) for c in range(part.hi)]
    paired: dict[int, int] = {}  # piece to piece, numbered as in ``copies``
    everyone = True
    for a, (i, _) in enumerate(copies):
        if a in paired or not chiral[i]:
            continue
        images = pieces.mirrored(parts[i].shape)
        later = range(a + 1, len(copies))
        shape_of = [part.shape for part in parts]
        found = next(
            (b for b in later if b not in paired and pieces.own(shape_of[copies[b][0]]) in images),
            None,
        )
        if found is None:
            everyone = False
            break
        paired[a], paired[found] = found, a
    if not everyone and all(p.lo == p.hi for p in parts):
        return None
    partner = {i: i for i in range(len(parts)) if not chiral[i]}
    used = [0] * len(parts)  # each part's copies paired
    for a, b in paired.items():
        (i, c), (j, d) = copies[a], copies[b]
        if c != d or partner.setdefault(i, j) != j:
            return None  # another pattern (see above)
        used[i] += 1
    bounds = []
    for i, part in enumerate(parts):
        lo, hi = part.lo, part.hi
        if chiral[i]:
            lo, hi = (max(lo, parts[partner[i]].lo) if used[i] else lo), used[i]
        if lo > hi:
            return None
        bounds.append((lo, hi))
    return _Mirrors(partner, bounds)


def _check(puzzle: BurrPuzzle, number: int) -> BurrProblem:
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


def _allowed(puzzle: BurrPuzzle, problem: BurrProblem, piece_color: int, result_color: int) -> bool:
    """BurrTools' colour constraint: may a piece voxel of this colour go on a result
    voxel of that colour (colour 0: no colour, goes anywhere)."""
    if not puzzle.colors or piece_color == 0 or result_color == 0:
        return True
    return (piece_color - 1, result_color - 1) in problem.color_pairs


class _Board:
    """The result's voxels as flat arrays (the box's voxels in C order: ``x``
    slowest), for finding every placement of an orientation."""

    def __init__(
        self, puzzle: BurrPuzzle, problem: BurrProblem, size: tuple[int, int, int], cells: _Labelled
    ) -> None:
        """The result's box is of ``size``; its labelled voxels are ``cells``."""
        self.grid = GRIDS[puzzle.grid]
        sx, sy, sz = size
        self.size = np.array(size, dtype=np.int64)
        #: The step in a flat index of one voxel along each axis.
        self.strides = np.array([sy * sz, sz, 1], dtype=np.int64)
        self.colors = np.zeros(sx * sy * sz, dtype=np.int64)
        self.used = np.zeros(sx * sy * sz, dtype=bool)
        self.used[cells[:, :3] @ self.strides] = True
        self.colors[cells[:, :3] @ self.strides] = cells[:, 4]
        self.puzzle = puzzle
        self.problem = problem
        self._masks: dict[int, npt.NDArray[np.bool_]] = {}

    def mask(self, piece_color: int) -> npt.NDArray[np.bool_]:
        """Where a piece voxel of this colour may go."""
        if piece_color not in self._masks:
            allowed = [
                _allowed(self.puzzle, self.problem, piece_color, c)
                for c in range(len(self.puzzle.colors) + 1)
            ]
            ok = np.array(allowed, dtype=bool)[np.minimum(self.colors, len(allowed) - 1)]
            self._masks[piece_color] = self.used & ok
        return self._masks[piece_color]

    def translations(self, low: Voxels, high: Voxels) -> Voxels:
        """The translations of the grid that may keep one of several boxes (rows of
        ``low`` and ``high``: their corners, inclusive) inside the result's box, in
        the order of their coordinates (x slowest); each box is checked apart."""
        period = self.grid.period
        first = -(low.max(axis=0) // period)  # in periods, rounded up
        last = (self.size - 1 - high.min(axis=0)) // period
        counts = np.maximum(last - first + 1, 0).tolist()
        moves: Voxels = period * (first + np.indices(counts).reshape(3, -1).T)
        return moves[self.grid.translations_ok(moves)]

    def placements(self, pieces: Sequence[_Labelled]) -> list[npt.NDArray[np.int64]]:
        """Every translate of each orientation of each piece (``pieces``: one array of
        shape ``(orientations, voxels, 5)`` a piece, at least one voxel and one
        orientation each) by a translation of the grid lying on the result: for each
        piece, the flat index of each of its voxels, one row a translate, the
        orientations in their order, each one's translates in the order of the
        translations (x slowest). Every orientation of every piece is tried in one
        compiled call (:func:`~excover.burr.xmpuzzle._cover.fitting`), each
        translate voxel by voxel until one falls outside."""
        flat = np.concatenate([piece.reshape(-1, 5) for piece in pieces])
        widths = np.repeat([piece.shape[1] for piece in pieces], [len(p) for p in pieces])
        bounds = np.concatenate([[0], np.cumsum(widths)])
        low = np.minimum.reduceat(flat[:, :3], bounds[:-1], axis=0)
        high = np.maximum.reduceat(flat[:, :3], bounds[:-1], axis=0)
        offsets = flat[:, :3] @ self.strides
        colors = distinct(flat[:, 4])
        masks = np.concatenate([self.mask(color) for color in colors.tolist()])
        in_mask = offsets + np.searchsorted(colors, flat[:, 4]) * len(self.used)
        moves = self.translations(low, high)
        which, starts = fitting(
            in_mask, bounds, low, high, moves, self.size, self.strides, masks.view(np.uint8)
        )
        found = []
        first = 0  # the first orientation of the piece
        for piece in pieces:
            last = first + len(piece)
            a, b = np.searchsorted(which, [first, last]).tolist()  # ``which`` is sorted
            own = offsets[bounds[first] : bounds[last]].reshape(len(piece), -1)
            found.append(starts[a:b, None] + own[which[a:b] - first])
            first = last
        return found


def _holes_apply(problem: BurrProblem, puzzle: BurrPuzzle) -> bool:
    """Does ``maxHoles`` bound the empty variable voxels (only when the pieces' total
    volume varies, as in BurrTools)?"""
    if problem.max_holes is None:
        return False
    volumes = [puzzle.shapes[p.shape].states.count(FILLED) for p in problem.parts]
    low = sum(v * p.lo for v, p in zip(volumes, problem.parts, strict=True))
    high = sum(v * p.hi for v, p in zip(volumes, problem.parts, strict=True))
    return low != high


def item_voxels(puzzle: BurrPuzzle, number: int) -> list[tuple[int, int, int] | None]:
    """The voxel of the result that each item of :func:`to_exact_cover`'s problem stands
    for, in the problem's order of items (its filled voxels, the kinds, its variable
    voxels, then ``holes``), None for the kinds and ``holes``: how an assembly is read
    back from a solution without parsing the items' names."""
    problem = _check(puzzle, number)
    cells = _labelled(puzzle.shapes[problem.result], FILLED + VARIABLE)
    filled = cells[:, 3] == ord(FILLED)
    kinds: list[tuple[int, int, int] | None] = [None] * sum(p.hi > 0 for p in problem.parts)
    return [
        *[(x, y, z) for x, y, z in cells[filled, :3].tolist()],
        *kinds,
        *[(x, y, z) for x, y, z in cells[~filled, :3].tolist()],
        *([None] if _holes_apply(problem, puzzle) else []),
    ]


def to_exact_cover(puzzle: BurrPuzzle, number: int, factory: type[P]) -> P:
    """The exact cover problem of problem ``number`` (from 0, as BurrTools' ``burrTxt
    -o``) of a puzzle on any of BurrTools' grids, built by ``factory`` (Problem or a
    subclass: see :meth:`ExactCover.from_burrtools <excover.ExactCover.from_burrtools>`),
    its symmetries declared; see the module's text for the reduction."""
    problem = _check(puzzle, number)
    result = puzzle.shapes[problem.result]
    parts = [part for part in problem.parts if part.hi > 0]
    cells = _labelled(result, FILLED + VARIABLE)
    names = _cells(cells[:, :3])
    kept = (cells[:, 3] == ord(FILLED)).tolist()
    filled = [name for name, keep in zip(names, kept, strict=True) if keep]
    variable = [name for name, keep in zip(names, kept, strict=True) if not keep]
    holes = _holes_apply(problem, puzzle)
    kinds = [kind_name(puzzle, part.shape) for part in parts]
    if len(set(kinds)) != len(kinds):
        raise FormatError(f"{problem.label(number)} names a shape twice", source=puzzle.source)
    primary = filled + kinds + ([*variable, HOLES] if holes else [])
    # the names are good tokens: coordinates, kind_name's letters, digits, '.' and '-'
    cover = factory._of_checked_names(primary, [] if holes else variable)
    for part, kind in zip(parts, kinds, strict=True):
        if (part.lo, part.hi) != (1, 1):
            cover.set_multiplicity(kind, part.lo, part.hi)
    if holes:
        assert problem.max_holes is not None
        cover.set_multiplicity(HOLES, 0, max(problem.max_holes, 1))
    board = _Board(puzzle, problem, result.size, cells)
    position = {name: k for k, name in enumerate(cover.items)}
    item_of = np.full(len(board.used), -1, dtype=np.int64)  # the item of each voxel
    item_of[cells[:, :3] @ board.strides] = [position[name] for name in names]
    blocks: list[npt.NDArray[np.int64]] = []  # the options, one row each, kind by kind
    owners: list[int | None] = []  # the part whose options each block holds (None: holes)
    pieces = _Pieces(puzzle)
    pieces.batch([part.shape for part in parts])
    placed = [(k, pieces.orientations(part.shape)) for k, part in enumerate(parts)]
    placed = [(k, turned) for k, turned in placed if len(turned)]
    if placed:
        every = board.placements([turned for _, turned in placed])
        for (k, _), rows in zip(placed, every, strict=True):
            items = item_of[rows]
            item = position[kinds[k]]
            blocks.append(np.concatenate([np.full((len(items), 1), item), items], axis=1))
            owners.append(k)
    if holes and problem.max_holes:
        pairs = [[position[name], position[HOLES]] for name in variable]
        blocks.append(np.array(pairs, dtype=np.int64))
        owners.append(None)
    _fill(cover, blocks)
    voxels = item_of[cells[:, :3] @ board.strides]
    kind_items = [position[k] for k in kinds]
    symmetry = _Symmetry(puzzle, parts, voxels, kind_items, blocks, len(cover.items))
    if not len(cells):
        return cover
    found = _symmetries(GRIDS[puzzle.grid], cells)
    mirrored = any(not GRIDS[puzzle.grid].transformations[k].proper for k in found[0])
    mirrors = _mirrors(pieces, parts) if mirrored else None
    if mirrors is None or mirrors.every(parts):
        partner = None if mirrors is None else mirrors.partner
        cover.declare_symmetries(symmetry.generators(found, partner))
        return cover
    # the assemblies that have mirror images: a sub-problem, of the options of the parts
    # it may use, that declares the whole group
    inside = cover.derive()
    for name in inside.primary_items:
        inside.set_multiplicity(name, *cover.multiplicity(name))
    for kind, (lo, hi) in zip(kinds, mirrors.bounds, strict=True):
        inside.set_multiplicity(kind, lo, max(hi, 1))  # hi 0: its options are left out
    kept = [k for k, part in enumerate(owners) if part is None or mirrors.bounds[part][1]]
    if not kept:  # no placement of a part with a mirror image: the rotations only
        cover.declare_symmetries(symmetry.generators(found, None))
        return cover
    _fill(inside, [blocks[k] for k in kept])
    firsts = np.cumsum([0, *(len(rows) for rows in blocks)])
    options = np.concatenate([np.arange(firsts[k], firsts[k + 1]) for k in kept]).tolist()
    narrow = _Symmetry(
        puzzle, parts, voxels, kind_items, [blocks[k] for k in kept], len(cover.items)
    )
    inside.declare_symmetries(narrow.generators(found, mirrors.partner))
    widening = Widening(inside, options, narrow.generators(found, None))
    cover.declare_symmetries(symmetry.generators(found, None), widening)
    return cover


def _fill(cover: Model, blocks: Sequence[npt.NDArray[np.int64]]) -> None:
    """Add the options, the rows of ``blocks`` in order, to ``cover``. Each holds its
    kind's item (or a variable voxel's) and distinct voxels of the result, all primary
    or secondary items of this problem: add_options' checks (a few milliseconds on a
    large result) would find nothing."""
    lengths = np.repeat([rows.shape[1] for rows in blocks], [len(rows) for rows in blocks])
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    flat = np.concatenate([np.zeros(0, np.int64), *(b.ravel() for b in blocks)])
    cover._add_checked_options(starts, flat, np.zeros(len(flat), np.int64), ())


class _Symmetry:
    """How a symmetry of the result acts on the exact cover problem: the result's voxels
    are items ``voxels`` (in the order of its labelled voxels), the problem's kinds items
    ``kinds`` (in the order of ``parts``), its options the rows of ``blocks`` in their
    order. Options are matched by their items in any order, those of one length at a
    time (no two options hold the same items), each length's rows put in a hash table
    once here (:mod:`~excover.burr.xmpuzzle._cover`)."""

    def __init__(
        self,
        puzzle: BurrPuzzle,
        parts: Sequence[Part],
        voxels: npt.NDArray[np.int64],
        kinds: list[int],
        blocks: Sequence[npt.NDArray[np.int64]],
        n_items: int,
    ) -> None:
        self.puzzle = puzzle
        self.parts = parts
        self.voxels = voxels
        self.kinds = kinds
        self.n_items = n_items
        firsts = np.cumsum([0, *(len(rows) for rows in blocks)])
        self.n_options = int(firsts[-1])
        #: For each length: its options' rows, their numbers, and the rows in a hash
        #: table (:func:`row_table`).
        self.lengths: list[tuple[Perm, Perm, Perm]] = []
        for width in sorted({rows.shape[1] for rows in blocks if len(rows)}):
            which = [k for k, rows in enumerate(blocks) if rows.shape[1] == width]
            rows = np.concatenate([blocks[k] for k in which])
            numbers = np.concatenate([np.arange(firsts[k], firsts[k + 1]) for k in which])
            self.lengths.append((rows, numbers, row_table(rows)))

    def generators(
        self, result: tuple[list[int], Perm], partner: dict[int, int] | None
    ) -> list[Generator]:
        """Generators of the group of the result's rotations, and of its mirrors too when
        ``partner`` gives each kind's partner in a mirror image (see the module's text),
        each an :class:`~excover.permutations.Automorphism`; ``result``: the result's
        symmetries and the permutations of its labelled voxels they make
        (:func:`_symmetries`)."""
        grid = GRIDS[self.puzzle.grid]
        symmetries, permutations = result
        kept = [
            k
            for k, s in enumerate(symmetries)
            if partner is not None or grid.transformations[s].proper
        ]
        chosen: list[tuple[Perm]] = []
        generated = group_elements(chosen, (permutations.shape[1],))
        found: list[Generator] = []
        for k in kept:
            images = permutations[k]
            if images.tobytes() in generated:
                continue
            chosen.append((images,))
            generated = group_elements(chosen, (permutations.shape[1],), generated)
            mirror = grid.transformations[symmetries[k]].determinant < 0
            items = self._items(images, partner if mirror else None)
            found.append(Automorphism(self._options(items), items))
        return found

    def _items(
        self, images: npt.NDArray[np.int64], partner: dict[int, int] | None
    ) -> npt.NDArray[np.int64]:
        """The item permutation of a symmetry of the result: each voxel to its image
        (``images``: the voxel each voxel goes to, moved back onto the result), each kind
        to itself or, for a mirror (``partner`` given), its partner."""
        items = np.arange(self.n_items, dtype=np.int64)
        items[self.voxels] = self.voxels[images]
        for i, j in (partner or {}).items():
            items[self.kinds[i]] = self.kinds[j]
        return items

    def _options(self, items: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The option permutation that the item permutation ``items`` makes: each option
        goes to the option holding the images of its items."""
        options = np.arange(self.n_options, dtype=np.int64)
        for rows, numbers, table in self.lengths:
            options[numbers] = numbers[matching(rows, items, table)]
        return options


def group_elements(
    generators: Sequence[tuple[Perm, ...]],
    sizes: tuple[int, ...],
    known: dict[bytes, tuple[Perm, ...]] | None = None,
) -> dict[bytes, tuple[Perm, ...]]:
    """The group generated by ``generators`` (a group small enough to list, as the
    symmetries of BurrTools' grids are), each generator a tuple of permutations that act
    together (of ``sizes`` points each: a symmetry's action on the items and on the
    options, say), the first of which tells the elements apart: each element by the
    bytes of its first permutation, the identity first. ``known``, when given, is the
    group of every generator but the last (as this function gave it): its elements are
    multiplied by the last one only, as products of two of them are in it already."""
    identity = tuple(np.arange(size, dtype=np.int64) for size in sizes)
    found = dict(known) if known else {identity[0].tobytes(): identity}
    frontier = list(found.values())
    step = generators[-1:] if known else generators
    while frontier:
        reached = []
        for a in frontier:
            for g in step:
                key = a[0][g[0]].tobytes()
                if key not in found:
                    b = tuple(p[q] for p, q in zip(a, g, strict=True))
                    found[key] = b
                    reached.append(b)
        frontier = reached
        step = generators
    return found
