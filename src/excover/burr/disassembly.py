"""What the disassembler finds: moves, separations, and the disassembly of an assembly.

A :class:`Separation` is one node of the separation tree: a part (some pieces in some
configuration), the moves that take it to the configuration where a set of its pieces
comes out, the last move taking that set out, and the separations of the two parts it
leaves: ``left`` (the pieces that stay) and ``removed`` (those taken out), each None
when its part is a single piece or a group allowed to stay together. The level is
BurrTools' notation: the moves of a separation, then (after a dot) the level of its
``left`` part, then that of its ``removed`` part, a part whose separations each take one
move being left out (``98.2.4.2``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from excover.burr._moves import AXES
from excover.burr.assembly import Assembly

__all__ = ["DIRECTIONS", "DIRECTION_NAMES", "Disassembly", "Move", "Separation", "Status"]

Vector = tuple[int, int, int]

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

    def total(self) -> int:
        """The moves of the whole subtree."""
        return len(self.moves) + sum(
            part.total() for part in (self.left, self.removed) if part is not None
        )

    def _multi(self) -> bool:
        return len(self.moves) > 1 or any(
            part is not None and part._multi() for part in (self.left, self.removed)
        )

    def level(self) -> str:
        """BurrTools' level string of this subtree."""
        text = str(len(self.moves))
        for part in (self.left, self.removed):
            if part is not None and part._multi():
                text += "." + part.level()
        return text

    def sequence(self) -> tuple[int, ...]:
        """The moves of every separation in pre-order (this one, its left part's, its
        removed part's): BurrTools sorts solutions by this, smallest first."""
        found: tuple[int, ...] = (len(self.moves),)
        for part in (self.left, self.removed):
            if part is not None:
                found += part.sequence()
        return found

    def all_moves(self) -> list[Move]:
        """Every move of the subtree, in the order they are played (this separation's,
        then its left part's, then its removed part's)."""
        found = list(self.moves)
        for part in (self.left, self.removed):
            if part is not None:
                found += part.all_moves()
        return found


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
    tree: Separation | None = None
    beyond_greedy: bool = False
    states_explored: int = 0
    reason: str = ""
    groups: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def level(self) -> str | None:
        """BurrTools' level string (``98.2.4.2``), None unless solved."""
        return None if self.tree is None else self.tree.level()

    @property
    def total(self) -> int | None:
        """The number of moves of the whole disassembly, None unless solved."""
        return None if self.tree is None else self.tree.total()

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
        return () if self.tree is None else self.tree.sequence()

    def _repr_html_(self) -> str:
        """Jupyter's picture of it: a strip of isometric pictures, one per state
        (:func:`excover.burr.pictures.strip_html`)."""
        from excover.burr.pictures import strip_html

        return strip_html(self)
