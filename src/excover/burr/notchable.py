"""Every holey six-piece burr of notchable pieces, each assembly once: Cutler's 1987 survey.

A notchable piece lacks notchable voxels only (:mod:`excover.burr.sixpiece`), so a piece
placed in a stick of the burr is known by the notchable voxels of that stick it keeps:
its *mask*, a subset of the burr's 32 notchable voxels (a 32-bit number). Each stick
takes 114 masks (the 59 notchable pieces in each of the orientations that put them in
the stick, the orientations that give the same voxels counted once), and an *assembly*
is a choice of one mask a stick, the six pairwise disjoint (a notchable voxel belongs to
one piece or to none: a hole). There are 286,442,338 such choices.

The burr's shape has 24 symmetries (12 rotations, and a reflection each: the shape is
not symmetric under a swap of two axes), and the 59 pieces are closed under reflection,
so an assembly and its images under all 24 are the same puzzle: one *class*. A class is
stood for by its smallest member, the six mask indices compared stick by stick
(:class:`NotchableCatalog` numbers the masks of each stick in increasing order), and the classes
are enumerated *by their first stick*: :meth:`NotchableCatalog.representatives` gives those whose
stick 0 holds a given mask, so that a survey is 114 independent chunks (a ledger line
each, a worker each). By Burnside's lemma there are 11,937,779 classes
(:func:`burnside_count`, the same figure by the fixed points of each symmetry).

A *design* is the multiset of its six pieces, a piece set and its mirror image the same
design (their assemblies are each other's reflections); its assemblies that come apart
are its *solutions*, and a design with one is *unique*.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache
from itertools import permutations, product

import numpy as np

from excover.burr.sixpiece import NOTCHABLE, SHAPE, STICKS, notchable_pieces
from excover.design.errors import DesignError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from excover.burr.disassembly import Separation

__all__ = [
    "NotchableCatalog",
    "StickPiece",
    "UnitSurvey",
    "assembly_count",
    "burnside_count",
    "catalog",
    "cutler_level",
    "first_piece_moves",
    "survey_unit",
]

Voxel = tuple[int, int, int]
Matrix = tuple[tuple[int, int, int], ...]

#: The notchable voxels in a fixed order: bit ``k`` of a mask is ``NOTCHABLE_ORDER[k]``.
NOTCHABLE_ORDER: tuple[Voxel, ...] = tuple(sorted(NOTCHABLE))
_BIT = {voxel: k for k, voxel in enumerate(NOTCHABLE_ORDER)}
#: The mask of a solid burr: every notchable voxel filled.
SOLID = (1 << len(NOTCHABLE_ORDER)) - 1
_CENTRE2 = 7  # twice the centre of the burr's box, 0..7 on each axis


def _matrices() -> list[Matrix]:
    """The 48 signed permutation matrices (the cube's symmetries about its centre)."""
    found: list[Matrix] = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            rows = [tuple(signs[i] if perm[i] == j else 0 for j in range(3)) for i in range(3)]
            found.append(tuple((r[0], r[1], r[2]) for r in rows))
    return found


def _det(m: Matrix) -> int:
    return round(float(np.linalg.det(np.array(m))))


def _moved(m: Matrix, voxels: frozenset[Voxel]) -> frozenset[Voxel]:
    """``voxels`` under the symmetry ``m`` about the centre of the burr's box."""
    out = set()
    for v in voxels:
        d = [2 * c - _CENTRE2 for c in v]
        w = [sum(m[i][j] * d[j] for j in range(3)) for i in range(3)]
        out.add(
            (
                (w[0] + _CENTRE2) // 2,
                (w[1] + _CENTRE2) // 2,
                (w[2] + _CENTRE2) // 2,
            )
        )
    return frozenset(out)


def _mask(voxels: frozenset[Voxel]) -> int:
    mask = 0
    for v in voxels & NOTCHABLE:
        mask |= 1 << _BIT[v]
    return mask


@dataclass(frozen=True, slots=True)
class StickPiece:
    """A piece where an assembly puts it (what the disassembler takes: its voxels and
    its weight)."""

    voxels: tuple[Voxel, ...]
    weight: int = 1


@dataclass(frozen=True, eq=False)
class NotchableCatalog:
    """The masks each stick takes, and how the burr's symmetries act on them.

    ``masks[s]``: stick ``s``'s masks in increasing order (uint32); ``pieces[s][i]``:
    the number of the notchable piece (in :func:`~excover.burr.sixpiece.notchable_pieces`'
    order) that mask ``i`` of stick ``s`` is; ``mirror[k]``: the number of piece ``k``'s
    mirror image; ``stick_image[g][s]``: the stick symmetry ``g`` takes stick ``s`` to;
    ``mask_image[g][s][i]``: the index, in that stick, of the image of mask ``i``.
    """

    masks: np.ndarray
    pieces: np.ndarray
    mirror: tuple[int, ...]
    stick_image: np.ndarray
    mask_image: np.ndarray

    @property
    def symmetries(self) -> int:
        """The order of the burr's group (24)."""
        return len(self.stick_image)

    def piece(self, stick: int, index: int) -> StickPiece:
        """Mask ``index`` of ``stick`` as a piece of an assembly."""
        return _pieces(self)[stick][index]

    def assembly(self, row: np.ndarray) -> tuple[StickPiece, ...]:
        """The six pieces of the assembly ``row`` (a mask index a stick)."""
        made = _pieces(self)
        return tuple(made[s][int(row[s])] for s in range(6))

    def design_key(self, row: np.ndarray) -> tuple[int, ...]:
        """The design of the assembly ``row`` (six mask indices): its pieces' numbers,
        sorted, or those of its mirror image when they sort first."""
        mine = sorted(int(self.pieces[s][row[s]]) for s in range(6))
        image = sorted(self.mirror[k] for k in mine)
        return tuple(min(mine, image))

    def units(self) -> list[tuple[int, int]]:
        """The units of work of a survey: the pairs (mask of stick 0, mask of stick 1)
        that can begin the smallest member of a class, in order."""
        found = []
        for first in range(self.masks.shape[1]):
            allowed = self._allowed(first)
            if allowed is None:
                continue
            for second in np.nonzero(allowed[1])[0]:
                if not int(self.masks[0][first]) & int(self.masks[1][second]):
                    found.append((first, int(second)))
        return found

    def _allowed(self, first: int) -> list[np.ndarray] | None:
        """Each stick's masks that may stand in a class's smallest member whose stick 0
        holds mask ``first`` (no symmetry may bring a smaller mask to stick 0); None
        when ``first`` itself cannot."""
        allowed = [np.ones(self.masks.shape[1], dtype=bool) for _ in range(6)]
        for g in range(self.symmetries):
            for s in range(6):
                if self.stick_image[g][s] == 0:
                    allowed[s] &= self.mask_image[g][s] >= first
        if not allowed[0][first]:
            return None
        allowed[0][:] = False
        allowed[0][first] = True
        return allowed

    def chunk(self, first: int, second: int, block: int = 20_000) -> np.ndarray:
        """The smallest member of every class whose smallest member holds mask
        ``first`` in stick 0 and ``second`` in stick 1 (rows of six mask indices, int16,
        in increasing order)."""
        allowed = self._allowed(first)
        masks = self.masks
        if allowed is None or not allowed[1][second] or masks[0][first] & masks[1][second]:
            return np.zeros((0, 6), dtype=np.int16)
        rows = np.array([[first, second]], dtype=np.int16)
        union = (masks[0][[first]] | masks[1][[second]]).astype(np.uint32)
        for stick in range(2, 5):
            rows, union = _extend(rows, union, masks[stick], stick, allowed[stick])
        kept = [np.zeros((0, 6), dtype=np.int16)]
        for start in range(0, len(rows), block):
            part, _ = _extend(
                rows[start : start + block], union[start : start + block], masks[5], 5, allowed[5]
            )
            kept.append(self._smallest(part))
        found = np.concatenate(kept)
        return found[np.lexsort(found.T[::-1])]

    def _smallest(self, rows: np.ndarray) -> np.ndarray:
        """The rows that are the smallest of their class (no image sorts before them)."""
        keep = np.ones(len(rows), dtype=bool)
        for g in range(self.symmetries):
            image = np.empty_like(rows)
            for s in range(6):
                image[:, self.stick_image[g][s]] = self.mask_image[g][s][rows[:, s]]
            undecided = np.ones(len(rows), dtype=bool)
            for s in range(6):
                smaller = image[:, s] < rows[:, s]
                keep &= ~(undecided & smaller)
                undecided &= image[:, s] == rows[:, s]
        return rows[keep]


@cache
def _pieces(cat: NotchableCatalog) -> list[list[StickPiece]]:
    """Every mask of every stick as a piece (made once: a survey builds millions of
    assemblies from them)."""
    made = []
    for stick in range(6):
        fixed = {v for v in STICKS[stick] if v not in NOTCHABLE}
        row = []
        for mask in cat.masks[stick]:
            keep = {NOTCHABLE_ORDER[k] for k in range(32) if int(mask) >> k & 1}
            row.append(StickPiece(tuple(sorted(fixed | keep))))
        made.append(row)
    return made


def _extend(
    rows: np.ndarray, union: np.ndarray, masks: np.ndarray, stick: int, allowed: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each row followed by every allowed mask of the next stick disjoint from the
    row's voxels."""
    fits = ((union[:, None] & masks[None, :]) == 0) & allowed[None, :]
    which, choice = np.nonzero(fits)
    grown = np.empty((len(which), stick + 1), dtype=np.int16)
    grown[:, :stick] = rows[which]
    grown[:, stick] = choice
    return grown, union[which] | masks[choice]


@cache
def catalog(family: tuple[int, ...] | None = None) -> NotchableCatalog:
    """The masks of the six sticks and the action of the burr's 24 symmetries on them:
    of all 59 notchable pieces, or of the pieces ``family`` (their numbers in
    :func:`~excover.burr.sixpiece.notchable_pieces`' order, from 0), which must hold
    the mirror image of each of its pieces (a DesignError names the one missing)."""
    pieces = notchable_pieces()
    if family is not None:
        mirror = catalog().mirror
        for number in family:
            if not 0 <= number < len(pieces):
                raise DesignError(f"no notchable piece {number}: they are 0 to {len(pieces) - 1}")
            if mirror[number] not in family:
                raise DesignError(
                    f"the family has piece {number} but not its mirror image, piece "
                    f"{mirror[number]}: the burr's reflections need both"
                )
    rotations = [m for m in _matrices() if _det(m) == 1]
    # the identity first (burnside_count counts the others)
    symmetries = [m for m in _matrices() if _moved(m, SHAPE) == SHAPE]
    per_stick: list[dict[int, int]] = [{} for _ in STICKS]
    corners = [tuple(min(v[a] for v in stick) for a in range(3)) for stick in STICKS]
    for number, piece in enumerate(pieces):
        if family is not None and number not in family:
            continue
        for m in rotations:
            image = _moved(m, piece)
            low = tuple(min(v[a] for v in image) for a in range(3))
            for s, stick in enumerate(STICKS):
                # turned, then moved into the stick (its ends are never notched, so the
                # piece spans the stick's box); its notches must fall on notchable voxels
                shift = tuple(corners[s][a] - low[a] for a in range(3))
                placed = frozenset((x + shift[0], y + shift[1], z + shift[2]) for x, y, z in image)
                if placed <= stick and stick - placed <= NOTCHABLE:
                    per_stick[s].setdefault(_mask(placed), number)
    masks = np.array([sorted(found) for found in per_stick], dtype=np.uint32)
    numbers = np.array(
        [[per_stick[s][int(mask)] for mask in masks[s]] for s in range(6)], dtype=np.int16
    )
    index = [{int(mask): i for i, mask in enumerate(masks[s])} for s in range(6)]
    stick_image = np.zeros((len(symmetries), 6), dtype=np.int8)
    mask_image = np.zeros((len(symmetries), 6, masks.shape[1]), dtype=np.int16)
    for g, m in enumerate(symmetries):
        for s, stick in enumerate(STICKS):
            target = STICKS.index(_moved(m, stick))
            stick_image[g][s] = target
            for i, mask in enumerate(masks[s]):
                voxels = frozenset(NOTCHABLE_ORDER[k] for k in range(32) if int(mask) >> k & 1)
                mask_image[g][s][i] = index[target][_mask(_moved(m, voxels))]
    reflection = next(m for m in symmetries if _det(m) == -1 and _moved(m, STICKS[0]) == STICKS[0])
    mirrors: list[int] = []
    for number in range(len(pieces)):
        held = np.nonzero(numbers[0] == number)[0]
        if not len(held):  # not in the family
            mirrors.append(number)
            continue
        image = mask_image[symmetries.index(reflection)][0][int(held[0])]
        mirrors.append(int(numbers[0][image]))
    return NotchableCatalog(masks, numbers, tuple(mirrors), stick_image, mask_image)


def burnside_count(
    assemblies: int, cat: NotchableCatalog | None = None, solid: bool = False
) -> int:
    """The number of classes by Burnside's lemma, given the number of ``assemblies``
    (the assemblies the identity leaves as they are; a survey's chunks sum them): the
    assemblies each other symmetry leaves as they are, added, over the order of the
    group. A check on :meth:`NotchableCatalog.chunk`'s classes, by another route; a sum that is
    not a multiple of the order is a DesignError. With ``solid``, the classes of the
    solid burrs (every notchable voxel filled), given their number of assemblies."""
    cat = catalog() if cat is None else cat
    total = assemblies + sum(_fixed(cat, g, solid) for g in range(1, cat.symmetries))
    if total % cat.symmetries:
        raise DesignError(f"Burnside's sum {total:,} is no multiple of {cat.symmetries}")
    return total // cat.symmetries


def _fixed(cat: NotchableCatalog, g: int, solid: bool = False) -> int:
    """The assemblies symmetry ``g`` leaves as they are: along each cycle of sticks
    under ``g``, the mask of the cycle's first stick decides the others."""
    image, seen, unions = cat.stick_image[g], set(), []
    for s in range(6):
        if s in seen:
            continue
        cycle = [s]
        while int(image[cycle[-1]]) != s:
            cycle.append(int(image[cycle[-1]]))
        seen.update(cycle)
        choices = []
        for i in range(cat.masks.shape[1]):
            union, at, ok = 0, i, True
            for stick in cycle:
                mask = int(cat.masks[stick][at])
                ok = ok and not union & mask
                union |= mask
                at = int(cat.mask_image[g][stick][at])
            if ok and at == i:
                choices.append(union)
        unions.append(choices)
    counts = {0: 1}
    for choices in unions:
        grown: dict[int, int] = {}
        for held, ways in counts.items():
            for union in choices:
                if not held & union:
                    grown[held | union] = grown.get(held | union, 0) + ways
        counts = grown
    return counts.get(SOLID, 0) if solid else sum(counts.values())


def assembly_count(cat: NotchableCatalog | None = None, solid: bool = False) -> int:
    """The number of assemblies (every member of every class), found without listing
    them: the unions of the notchable voxels of sticks 0-2 and of sticks 3-5, each with
    the number of ways to fill them, are joined where disjoint. Only the voxels both
    halves can hold decide that, so the second half's counts are summed over subsets of
    those voxels (a zeta transform over them), and each union of the first half reads
    the sum over the voxels it leaves free. With ``solid``, the solid burrs only (every
    notchable voxel filled: a union of each half and its complement)."""
    cat = catalog() if cat is None else cat
    halves = [_unions(cat, (0, 1, 2)), _unions(cat, (3, 4, 5))]
    reach = [0, 0]
    for h, sticks in enumerate(((0, 1, 2), (3, 4, 5))):
        for s in sticks:
            for mask in cat.masks[s]:
                reach[h] |= int(mask)
    shared = [k for k in range(32) if (reach[0] & reach[1]) >> k & 1]
    width = len(shared)

    def squeezed(union: int) -> int:
        return sum(1 << j for j, k in enumerate(shared) if union >> k & 1)

    sums = np.zeros(1 << width, dtype=np.int64)
    for union, ways in halves[1].items():
        sums[squeezed(union)] += ways
    every = np.arange(1 << width)
    for j in range(width):
        has = (every >> j) & 1 == 1
        sums[has] += sums[every[has] ^ (1 << j)]
    full = (1 << width) - 1
    if solid:  # the two halves' unions fill every notchable voxel between them
        return sum(ways * halves[1].get(SOLID ^ union, 0) for union, ways in halves[0].items())
    return sum(ways * int(sums[full ^ squeezed(union)]) for union, ways in halves[0].items())


def _unions(cat: NotchableCatalog, sticks: tuple[int, ...]) -> dict[int, int]:
    """The unions of disjoint masks, one a stick of ``sticks``, with their numbers."""
    counts = {0: 1}
    for s in sticks:
        grown: dict[int, int] = {}
        for held, ways in counts.items():
            for mask in cat.masks[s]:
                if not held & int(mask):
                    key = held | int(mask)
                    grown[key] = grown.get(key, 0) + ways
        counts = grown
    return counts


@dataclass
class UnitSurvey:
    """What one unit of a survey found (:func:`survey_unit`): its ``classes``, how many
    come apart (``solutions``), do not (``stuck``), come apart only in part
    (``partial``: some part stays together) or were left ``unknown`` past the cap on
    states; the level strings of the solutions (``levels``: string -> classes), the
    notchable voxels left empty (``holes``: number -> classes), and the ``candidates``:
    the solutions at least as deep as asked (their rows, level strings and total
    moves), from which the designs are judged."""

    unit: tuple[int, int]
    classes: int = 0
    solutions: int = 0
    stuck: int = 0
    partial: int = 0
    unknown: int = 0
    levels: dict[str, int] = field(default_factory=dict)
    holes: dict[int, int] = field(default_factory=dict)
    candidates: list[tuple[tuple[int, ...], str, int]] = field(default_factory=list)
    cpu_seconds: float = 0.0


def survey_unit(
    first: int,
    second: int,
    *,
    max_states: int = 2_000_000,
    keep_level: int = 4,
    keep_total: int = 16,
    cat: NotchableCatalog | None = None,
) -> UnitSurvey:
    """Take apart every class of the unit ``(first, second)`` (:meth:`NotchableCatalog.units`)
    as BurrTools does (the first separation of each part, its level strings), each
    within ``max_states`` configurations, and keep as candidates the solutions whose
    level begins with ``keep_level`` moves or more, or that take ``keep_total`` moves or
    more in all."""
    from excover.burr._moves import Batch, Geometry
    from excover.burr.disassembly import PackedSeparationTree
    from excover.burr.search import DisassemblyBudget, OutOfBudget

    cat = catalog() if cat is None else cat
    started = time.process_time()
    rows = cat.chunk(first, second)
    found = UnitSurvey((first, second), classes=len(rows))
    batch = Batch(Geometry(0), False)
    full = np.array([int(m) for m in cat.masks.ravel()], dtype=np.uint64).reshape(cat.masks.shape)
    filled = np.zeros(len(rows), dtype=np.uint64)
    for s in range(6):
        filled |= full[s][rows[:, s]]
    holes = 32 - np.array([int(x).bit_count() for x in filled])
    levels: dict[str, int] = {}
    for k, row in enumerate(rows):
        try:
            result = batch.run(cat.assembly(row), None, DisassemblyBudget(None, max_states))
        except OutOfBudget:
            found.unknown += 1
            continue
        if result is None:
            found.stuck += 1
            continue
        words, _, groups = result
        if groups:
            found.partial += 1
            continue
        found.solutions += 1
        plan = PackedSeparationTree(words, 0)
        level = plan.level()
        levels[level] = levels.get(level, 0) + 1
        found.holes[int(holes[k])] = found.holes.get(int(holes[k]), 0) + 1
        total = plan.total()
        if int(level.split(".")[0]) >= keep_level or total >= keep_total:
            found.candidates.append((tuple(int(x) for x in row), level, total))
    found.levels = levels
    found.cpu_seconds = round(time.process_time() - started, 3)
    return found


def first_piece_moves(separation: Separation) -> int:
    """Cutler's level of a disassembly: the moves until a single piece comes out. It is
    BurrTools' level's first number when the first separation frees a piece; when it
    parts the burr into two groups of pieces, the moves of the group that frees a piece
    first are added (the disassembly as found: its first separation of each part)."""
    moves = len(separation.moves)
    if len(separation.removed_pieces) == 1 or len(separation.left_pieces) == 1:
        return moves
    parts = [p for p in (separation.left, separation.removed) if p is not None]
    return moves + min(first_piece_moves(part) for part in parts)


def cutler_level(row: np.ndarray, cat: NotchableCatalog | None = None) -> int | None:
    """Cutler's level (:func:`first_piece_moves`) of the class ``row`` taken apart as
    BurrTools does, None when it does not come apart."""
    from excover.burr.api import disassemble
    from excover.burr.assembly import Assembly

    cat = catalog() if cat is None else cat
    pieces = cat.assembly(row)
    result = disassemble(Assembly.of_voxels([p.voxels for p in pieces]), complete=False)
    if result.status != "solved" or result.tree is None:
        return None
    return first_piece_moves(result.tree)
