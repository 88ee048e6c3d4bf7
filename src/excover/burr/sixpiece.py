"""Six-piece burrs: their shape, the notchable pieces, and puzzles made of them.

The six-piece burr is three pairs of 2x2x8 sticks, one pair along each axis, crossing in
a 4x4x4 core; here in the box ``0..7`` on each axis, the pair along x at ``z`` 3 and 4,
side by side in ``y`` (2, 3 and 4, 5), the pair along y at ``x`` 3 and 4, side by side in
``z``, the pair along z at ``y`` 3 and 4, side by side in ``x`` (:data:`STICKS`). The
sticks overlap in 32 voxels of the core, the *notchable* voxels (:data:`NOTCHABLE`):
each belongs to the piece of one of the two or three sticks through it, or to none (a
hole); the other 120 voxels of the shape (:data:`SHAPE`, 152 in all) are each in one
stick only, and filled.

A piece is a stick with notches cut into it (:func:`notchable_pieces`): at each of the
four places along it inside the core, it may lack a half of its 2x2 cross-section (two
cubes side by side) or two such halves (three cubes), made of notchable voxels only, and
it holds together. Up to the rotations of the stick there are 59 such pieces, Bill
Cutler's notchable pieces. A *general* piece (:func:`general_pieces`) may lack any of the
stick's 12 notchable voxels, provided it holds together: 837 pieces, the notchable ones
among them (the others need a chisel or glued cubes to make).

The sticks here are 8 long; :func:`at_length` gives the burr of sticks 6 long (its
pieces and shape), the other length designers use: the core is the same, each end of a
stick one unit shorter.

:func:`burr_puzzle` makes a BurrTools puzzle of some of them, each usable up to
``copies`` times: a solid burr (every voxel filled) or, with ``holes``, a holey one
(the notchable voxels may stay empty), the family of the "level" burrs whose pieces come
apart only after many moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part

__all__ = [
    "LENGTHS",
    "NOTCHABLE",
    "SHAPE",
    "STICKS",
    "at_length",
    "burr_puzzle",
    "general_pieces",
    "notchable_pieces",
]

Voxel = tuple[int, int, int]


def _sticks() -> tuple[frozenset[Voxel], ...]:
    found = []
    for low in (2, 4):
        pair = (low, low + 1)
        found.append(frozenset((x, y, z) for x in range(8) for y in pair for z in (3, 4)))
        found.append(frozenset((x, y, z) for y in range(8) for z in pair for x in (3, 4)))
        found.append(frozenset((x, y, z) for z in range(8) for x in pair for y in (3, 4)))
    return tuple(found)


#: The six sticks, each a set of 32 voxels.
STICKS: tuple[frozenset[Voxel], ...] = _sticks()
#: The voxels of the assembled burr.
SHAPE: frozenset[Voxel] = frozenset().union(*STICKS)
#: The voxels that two or three sticks pass through.
NOTCHABLE: frozenset[Voxel] = frozenset(v for v in SHAPE if sum(v in stick for stick in STICKS) > 1)

_STEPS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def _connected(voxels: frozenset[Voxel]) -> bool:
    start = min(voxels)
    seen = {start}
    todo = [start]
    while todo:
        x, y, z = todo.pop()
        for dx, dy, dz in _STEPS:
            near = (x + dx, y + dy, z + dz)
            if near in voxels and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(voxels)


def _cuts(stick: frozenset[Voxel], x: int) -> list[frozenset[Voxel]]:
    """What a piece of ``stick`` (the first one, along x) may lack at ``x``: nothing, a
    half of the cross-section, or two halves, of notchable voxels only."""
    section = [v for v in stick if v[0] == x]
    halves = [
        half
        for axis, value in ((1, 2), (1, 3), (2, 3), (2, 4))
        if (half := frozenset(v for v in section if v[axis] == value)) <= NOTCHABLE
    ]
    found = {frozenset[Voxel]()} | {a | b for a in halves for b in halves}
    return sorted((cut for cut in found if len(cut) < len(section)), key=sorted)


def _canonical(voxels: frozenset[Voxel]) -> tuple[Voxel, ...]:
    """The same form for a piece of the first stick and its turns within the stick (a
    quarter turn about its axis, a half turn end over end)."""
    forms = []
    for flip, turns in product((False, True), range(4)):
        form = []
        for x, y, z in voxels:
            a, b = 2 * y - 5, 2 * z - 7  # twice the offsets from the stick's axis
            for _ in range(turns):
                a, b = -b, a
            if flip:
                x, a = 7 - x, -a
            form.append((x, a, b))
        forms.append(tuple(sorted(form)))
    return min(forms)


def notchable_pieces() -> list[frozenset[Voxel]]:
    """The notchable pieces (see the module's notes), one per class under the rotations
    of the stick, each as it lies in the first stick (along x, ``y`` 2 and 3): biggest
    first."""
    stick = STICKS[0]
    found: dict[tuple[Voxel, ...], frozenset[Voxel]] = {}
    for cuts in product(*(_cuts(stick, x) for x in range(2, 6))):
        piece = stick.difference(*cuts)
        if _connected(piece):
            found.setdefault(_canonical(piece), piece)
    return sorted(found.values(), key=lambda piece: (-len(piece), sorted(piece)))


def general_pieces() -> list[frozenset[Voxel]]:
    """The general pieces (see the module's notes): the first stick less any of its
    notchable voxels, holding together, one per class under the rotations of the stick,
    each as it lies in the first stick: biggest first."""
    stick = STICKS[0]
    removable = sorted(stick & NOTCHABLE)
    found: dict[tuple[Voxel, ...], frozenset[Voxel]] = {}
    for cut in range(1 << len(removable)):
        piece = stick.difference(v for k, v in enumerate(removable) if cut >> k & 1)
        if _connected(piece):
            found.setdefault(_canonical(piece), piece)
    return sorted(found.values(), key=lambda piece: (-len(piece), sorted(piece)))


#: The lengths of stick the burrs are built with: the ends of a stick are 2 units long
#: at length 8 (the coordinates of this module), 1 unit at length 6.
LENGTHS = (6, 8)


def at_length(voxels: frozenset[Voxel], length: int) -> frozenset[Voxel]:
    """Voxels of the burr of 8-long sticks (pieces, the shape) as they are in the burr of
    sticks ``length`` long (one of :data:`LENGTHS`): the ends cut short, everything moved
    so that the burr's box starts at 0 again (the core stays the core)."""
    if length not in LENGTHS:
        raise ValueError(f"sticks are {' or '.join(map(str, LENGTHS))} long, not {length}")
    cut = (8 - length) // 2
    return frozenset(
        (x - cut, y - cut, z - cut)
        for x, y, z in voxels
        if all(cut <= c < 8 - cut for c in (x, y, z))
    )


def burr_puzzle(
    pieces: Sequence[frozenset[Voxel]], copies: int = 6, holes: bool = True
) -> BurrPuzzle:
    """A puzzle of one problem: the six-piece burr made of ``pieces``, each used up to
    ``copies`` times; with ``holes`` the notchable voxels may stay empty."""
    shapes = [BurrShape.from_voxels(piece, name=f"piece {k + 1}") for k, piece in enumerate(pieces)]
    variable = NOTCHABLE if holes else frozenset()
    shapes.append(BurrShape.from_voxels(SHAPE - variable, variable, name="burr"))
    parts = tuple(Part(k, 0, copies) for k in range(len(pieces)))
    return BurrPuzzle(tuple(shapes), (BurrProblem(parts, len(pieces)),))
