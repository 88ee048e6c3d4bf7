"""What the disassembler finds: moves, separations, and the disassembly of an assembly.

A :class:`Separation` is one node of the separation tree: a part (some pieces in some
configuration), the moves that take it to the configuration where a set of its pieces
comes out, the last move taking that set out, and the separations of the two parts it
leaves: ``left`` (the pieces that stay) and ``removed`` (those taken out), each None
when its part is a single piece or a group allowed to stay together. The level is
BurrTools' notation: the moves of a separation, then (after a dot) the level of its
``left`` part, then that of its ``removed`` part, a part whose separations each take one
move being left out (``98.2.4.2``).

The compiled disassembler hands its tree out as a :class:`PackedSeparationTree`, a buffer of numbers
that gives the level, the total and BurrTools' sort key at once; a :class:`Disassembly`
holds it and makes it into :class:`Separation` and :class:`Move` objects only when its
``tree``, ``moves`` or ``states`` are asked for (most assemblies of a family are only
counted and sorted by level).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, overload

from excover.burr._moves import AXES
from excover.burr.assembly import Assembly

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Disassembly",
    "Move",
    "PackedSeparationTree",
    "Separation",
    "Status",
    "held_tree",
]

Vector = tuple[int, int, int]
State = tuple[Vector, ...]
#: A separation tree reduced to what its level needs: the moves of each separation and
#: the trees of its two parts (None: nothing to take apart).
Counts = tuple[int, "Counts | None", "Counts | None"]

#: The directions of a move on each grid (BurrTools' grid number), by number, in
#: BurrTools' order (each axis along, then against), as voxel vectors: on the cube grid
#: +x, -x, +y, -y, +z, -z; on the triangular-prism grid +z, -z, then the three
#: directions of the triangles' edges, x = (2, 0, 0), u = (1, 1, 0), v = (-1, 1, 0)
#: (one unit: the width of a triangle), each along then against.
DIRECTIONS: dict[int, tuple[Vector, ...]] = {
    grid: tuple(vector for x, y, z in axes for vector in ((x, y, z), (-x, -y, -z)))
    for grid, axes in AXES.items()
}
#: How moves name the directions of each grid.
DIRECTION_NAMES: dict[int, tuple[str, ...]] = {
    0: ("+x", "-x", "+y", "-y", "+z", "-z"),
    1: ("+z", "-z", "+x", "-x", "+u", "-u", "+v", "-v"),
}
#: What became of an assembly: it comes apart, it cannot, or the budget ran out first.
Status = Literal["solved", "stuck", "unknown"]


@dataclass(frozen=True)
class Move:
    """One move: the ``pieces`` (assembly piece numbers) slide ``distance`` units along
    ``direction`` (a number of :data:`DIRECTIONS` of the ``grid``: on the cube grid 0 to
    5, +x, -x, +y, -y, +z, -z); ``distance`` None takes them out."""

    pieces: tuple[int, ...]
    direction: int
    distance: int | None
    grid: int = 0

    @property
    def vector(self) -> Vector:
        """The voxel vector of one unit along the direction."""
        return DIRECTIONS[self.grid][self.direction]

    def __str__(self) -> str:
        amount = "out" if self.distance is None else str(self.distance)
        name = DIRECTION_NAMES[self.grid][self.direction]
        return f"{' '.join(str(p) for p in self.pieces)} {name} {amount}"


@dataclass(frozen=True)
class Separation:
    """A part taken apart in two: its ``pieces``, their translations from the assembled
    position at the ``start``, the ``moves`` (the last one takes the ``removed`` set out),
    and the separations of the two parts (None: nothing to take apart)."""

    pieces: tuple[int, ...]
    start: tuple[Vector, ...]
    moves: tuple[Move, ...]
    left: Separation | None = None
    removed: Separation | None = None

    @property
    def removed_pieces(self) -> tuple[int, ...]:
        """The pieces the last move takes out."""
        return self.moves[-1].pieces

    @property
    def left_pieces(self) -> tuple[int, ...]:
        """The pieces that stay."""
        out = set(self.removed_pieces)
        return tuple(p for p in self.pieces if p not in out)

    def states(self) -> list[tuple[Vector, ...]]:
        """The configurations of the part, from the start to the one the last move
        separates (one per move): translations of :attr:`pieces`, in their order."""
        where = {p: t for p, t in zip(self.pieces, self.start, strict=True)}
        found = [tuple(self.start)]
        for move in self.moves[:-1]:
            assert move.distance is not None
            dx, dy, dz = (c * move.distance for c in move.vector)
            for p in move.pieces:
                x, y, z = where[p]
                where[p] = (x + dx, y + dy, z + dz)
            found.append(tuple(where[p] for p in self.pieces))
        return found

    def counts(self) -> Counts:
        """The moves of each separation of the subtree, as a tree."""
        return (
            len(self.moves),
            None if self.left is None else self.left.counts(),
            None if self.removed is None else self.removed.counts(),
        )

    def total(self) -> int:
        """The moves of the whole subtree."""
        return _total(self.counts())

    def level(self) -> str:
        """BurrTools' level string of this subtree."""
        return _level(self.counts())

    def sequence(self) -> tuple[int, ...]:
        """The moves of every separation in pre-order (this one, its left part's, its
        removed part's): BurrTools sorts solutions by this, smallest first."""
        return _sequence(self.counts())

    def all_moves(self) -> list[Move]:
        """Every move of the subtree, in the order they are played (this separation's,
        then its left part's, then its removed part's)."""
        found = list(self.moves)
        for part in (self.left, self.removed):
            if part is not None:
                found += part.all_moves()
        return found


def _total(counts: Counts | None) -> int:
    if counts is None:
        return 0
    return counts[0] + _total(counts[1]) + _total(counts[2])


def _multi(counts: Counts | None) -> bool:
    """Does a separation of the subtree take more than one move?"""
    return counts is not None and (counts[0] > 1 or _multi(counts[1]) or _multi(counts[2]))


def _level(counts: Counts) -> str:
    text = str(counts[0])
    for part in counts[1:]:
        if part is not None and _multi(part):
            text += "." + _level(part)
    return text


def _sequence(counts: Counts | None) -> tuple[int, ...]:
    if counts is None:
        return ()
    return (counts[0], *_sequence(counts[1]), *_sequence(counts[2]))


def _pieces(mask: int) -> tuple[int, ...]:
    """The pieces of a set (bit ``k``: piece ``k``)."""
    return tuple(k for k in range(mask.bit_length()) if mask >> k & 1)


class PackedSeparationTree:
    """A separation tree as the compiled disassembler hands it out (``words``: 64-bit
    numbers in native order; each separation in pre-order: its pieces as a set, its
    number of moves, whether it has a left and a removed subtree as bits 0 and 1, then
    each move as the set that moves, its direction and its distance plus one, 0 taking
    the set out; then its left subtree, then its removed one), on BurrTools' ``grid``."""

    __slots__ = ("_counts", "grid", "words")

    def __init__(self, words: bytes, grid: int = 0) -> None:
        self.words = words
        self.grid = grid
        self._counts: Counts | None = None

    def __reduce__(self) -> tuple[type[PackedSeparationTree], tuple[bytes, int]]:
        return PackedSeparationTree, (self.words, self.grid)

    def counts(self) -> Counts:
        """The moves of each separation, as :meth:`Separation.counts` gives them."""
        if self._counts is None:
            self._counts = self._read_counts(memoryview(self.words).cast("Q"), 0)[0]
        return self._counts

    @staticmethod
    def _read_counts(words: memoryview, at: int) -> tuple[Counts, int]:
        count, flags = words[at + 1], words[at + 2]
        at += 3 + 3 * count
        left = removed = None
        if flags & 1:
            left, at = PackedSeparationTree._read_counts(words, at)
        if flags & 2:
            removed, at = PackedSeparationTree._read_counts(words, at)
        return (count, left, removed), at

    def level(self) -> str:
        """BurrTools' level string."""
        return _level(self.counts())

    def total(self) -> int:
        """The moves of the whole tree."""
        return _total(self.counts())

    def sequence(self) -> tuple[int, ...]:
        """BurrTools' sort key (:meth:`Separation.sequence`)."""
        return _sequence(self.counts())

    def separation(self, start: State) -> Separation:
        """The tree as :class:`Separation` objects, the whole part starting at ``start``
        (the translations of its pieces) and each part where the moves before it leave
        it."""
        return self._read(memoryview(self.words).cast("Q"), 0, start)[0]

    def _read(self, words: memoryview, at: int, start: State) -> tuple[Separation, int]:
        pieces = _pieces(words[at])
        count, flags = words[at + 1], words[at + 2]
        moves = tuple(
            Move(
                _pieces(words[k]),
                words[k + 1],
                words[k + 2] - 1 if words[k + 2] else None,
                self.grid,
            )
            for k in range(at + 3, at + 3 + 3 * count, 3)
        )
        at += 3 + 3 * count
        where = dict(zip(pieces, start, strict=True))
        for move in moves[:-1]:
            _play(where, move)
        parts: list[Separation | None] = [None, None]
        for side in (0, 1):
            if flags >> side & 1:
                part = tuple(where[p] for p in _pieces(words[at]))
                parts[side], at = self._read(words, at, part)
        return Separation(pieces, start, moves, parts[0], parts[1]), at


def _play(where: dict[int, Vector], move: Move) -> None:
    """Slide the pieces of a finite ``move`` in ``where`` (piece -> translation)."""
    assert move.distance is not None
    dx, dy, dz = (c * move.distance for c in move.vector)
    for p in move.pieces:
        x, y, z = where[p]
        where[p] = (x + dx, y + dy, z + dz)


class _Tree:
    """The ``tree`` field of a :class:`Disassembly`: given a
    :class:`PackedSeparationTree`, it keeps it and makes it into :class:`Separation`
    objects when first read."""

    @overload
    def __get__(self, owner: None, kind: type | None = None) -> None: ...
    @overload
    def __get__(self, owner: Disassembly, kind: type | None = None) -> Separation | None: ...
    def __get__(self, owner: Disassembly | None, kind: type | None = None) -> Separation | None:
        if owner is None:
            return None  # the field's default
        held: Separation | PackedSeparationTree | None = owner.__dict__["tree"]
        if isinstance(held, PackedSeparationTree):
            held = held.separation(tuple((0, 0, 0) for _ in owner.assembly.pieces))
            owner.__dict__["tree"] = held
        return held

    def __set__(self, owner: Disassembly, value: Separation | PackedSeparationTree | None) -> None:
        owner.__dict__["tree"] = value


def held_tree(result: Disassembly) -> Separation | PackedSeparationTree | None:
    """The tree of ``result`` as it holds it: a :class:`PackedSeparationTree` until it is
    read (to send between processes without making the objects)."""
    held: Separation | PackedSeparationTree | None = result.__dict__["tree"]
    return held


@dataclass(frozen=True)
class Disassembly:
    """The disassembly of one assembly.

    ``status`` is ``"solved"`` (``tree`` holds the separations), ``"stuck"`` (no sequence
    of moves takes it apart: every first separation was tried) or ``"unknown"`` (the
    ``--timeout`` or the state cap ran out first; ``reason`` says which; an assembly of a
    single piece is stuck too, as BurrTools counts no solution there).
    ``beyond_greedy`` is true when a separation of the tree is not the first one the
    breadth-first search found for its part: BurrTools, which keeps only the first,
    calls such an assembly not disassemblable. ``states_explored`` counts the states of
    every breadth-first search made for it; ``groups`` holds the parts that stay
    together as groups (BurrTools' piece groups).
    """

    assembly: Assembly
    status: Status
    tree: _Tree = _Tree()
    beyond_greedy: bool = False
    states_explored: int = 0
    reason: str = ""
    groups: tuple[tuple[int, ...], ...] = field(default=())

    @classmethod
    def made(
        cls,
        assembly: Assembly,
        status: Status,
        tree: Separation | PackedSeparationTree | None,
        beyond_greedy: bool,
        states_explored: int,
    ) -> Disassembly:
        """``Disassembly(assembly, status, tree, beyond_greedy, states_explored)``
        made at a fraction of the frozen dataclass's ``__init__`` (which sets each field
        through ``object.__setattr__``): the disassembler makes one an assembly."""
        found = object.__new__(cls)
        found.__dict__.update(
            assembly=assembly,
            status=status,
            tree=tree,
            beyond_greedy=beyond_greedy,
            states_explored=states_explored,
            reason="",
            groups=(),
        )
        return found

    @property
    def level(self) -> str | None:
        """BurrTools' level string (``98.2.4.2``), None unless solved."""
        held = held_tree(self)
        return None if held is None else held.level()

    @property
    def total(self) -> int | None:
        """The number of moves of the whole disassembly, None unless solved."""
        held = held_tree(self)
        return None if held is None else held.total()

    @property
    def moves(self) -> list[Move]:
        """Every move, in the order they are played."""
        return [] if self.tree is None else self.tree.all_moves()

    @property
    def states(self) -> list[tuple[Vector, ...]]:
        """The translation of every piece after each move of :attr:`moves`, the
        assembled state first. A set taken out is put beyond the assembly's bounding
        box along its direction (far enough that it touches nothing left behind), then
        taken apart there."""
        pieces = self.assembly.pieces
        where: list[Vector] = [(0, 0, 0)] * len(pieces)
        extent = 1 + max(
            (
                max(v[a] for p in pieces for v in p.voxels)
                - min(v[a] for p in pieces for v in p.voxels)
            )
            for a in range(3)
        )
        found = [tuple(where)]
        for move in self.moves:
            distance = 2 * extent if move.distance is None else move.distance
            dx, dy, dz = (c * distance for c in move.vector)
            for p in move.pieces:
                x, y, z = where[p]
                where[p] = (x + dx, y + dy, z + dz)
            found.append(tuple(where))
        return found

    def sort_key(self) -> tuple[int, ...]:
        """BurrTools' order of solutions by level (see :meth:`Separation.sequence`)."""
        held = held_tree(self)
        return () if held is None else held.sequence()

    def _repr_html_(self) -> str:
        """Jupyter's picture of it: a strip of isometric pictures, one per state
        (:func:`excover.burr.pictures.strip_html`)."""
        from excover.burr.pictures import strip_html

        return strip_html(self)
