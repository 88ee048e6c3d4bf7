"""How the pieces of a part can move: Cutler's tables and the moves of one state.

A *state* gives each piece of a part its translation from the assembled position. In a
state, ``gap(i, j, axis)`` is how far piece ``i`` can slide along ``+axis`` before it
touches piece ``j`` (:data:`FREE` when it never does): the smallest run of empty voxels
between a voxel of ``i`` and a later voxel of ``j`` on one line along the axis. These
pairwise values are Bill Cutler's tables ("Computer Analysis of All 6 Piece Burrs"),
cached per pair and relative offset, since the same offsets come back in state after
state.

A *move* slides one set of pieces any distance along one of the six directions
(``+x, -x, +y, -y, +z, -z``, numbered 0 to 5 in that order, as BurrTools numbers
them); it counts as one move whatever the distance. Moving set ``S`` by ``s`` is legal
when no piece of ``S`` meets a piece outside it on the way: ``gap >= s`` for every such
pair. The smallest legal set holding piece ``p`` (its *closure*) grows with ``s``;
BurrTools' move generator takes the closures of at most half the pieces, for each
direction, piece and distance, and every union of closures of one direction and
distance (its "merges"): together they reach every state one move away, in the order
BurrTools finds them, which this module keeps so that the first separation found is
BurrTools' own. A set that can slide infinitely far is *free*: moving it out separates
the part in two (single pieces are looked for first, then sets of at most half the
pieces, again as BurrTools does).

Sets are bit masks over the part's pieces (bit ``k``: piece ``k``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["DIRECTIONS", "FREE", "Motion"]

#: How far a piece slides along an axis where nothing is in its way.
FREE = 1 << 30

#: The six directions of a move, by number: +x, -x, +y, -y, +z, -z.
DIRECTIONS: tuple[tuple[int, int, int], ...] = (
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
)

Vector = tuple[int, int, int]
#: For each axis, the piece's voxels as lines along that axis: the other two
#: coordinates -> the sorted coordinates along the axis.
_Lines = tuple[dict[tuple[int, int], tuple[int, ...]], ...]


def _lines(voxels: Sequence[Vector]) -> _Lines:
    tables: list[dict[tuple[int, int], tuple[int, ...]]] = []
    for axis in range(3):
        u, v = (b for b in range(3) if b != axis)
        found: dict[tuple[int, int], list[int]] = {}
        for voxel in voxels:
            found.setdefault((voxel[u], voxel[v]), []).append(voxel[axis])
        tables.append({key: tuple(sorted(coords)) for key, coords in found.items()})
    return tuple(tables)


class Motion:
    """The pieces of one part (their voxels in the assembled position) and how they
    move; states are tuples of per-piece translations."""

    def __init__(
        self,
        voxels: Sequence[Sequence[Vector]],
        names: Sequence[int] | None = None,
        cache: dict[tuple[int, int, int, int, int], tuple[int, int, int]] | None = None,
    ) -> None:
        """``voxels``: each piece's voxels; ``names``: the pieces' numbers in the
        assembly and ``cache`` a table of gaps by those numbers, shared between the
        parts of one assembly."""
        self.n = len(voxels)
        self.full = (1 << self.n) - 1
        self._lines = [_lines(piece) for piece in voxels]
        self._names = list(range(self.n)) if names is None else list(names)
        self._cache = {} if cache is None else cache

    def _gaps(self, i: int, j: int, off: Vector) -> tuple[int, int, int]:
        """``gap(i, j, axis)`` for each axis, piece ``j`` translated by ``off`` from ``i``."""
        key = (self._names[i], self._names[j], *off)
        found = self._cache.get(key)
        if found is not None:
            return found
        result = []
        for axis in range(3):
            u, v = (b for b in range(3) if b != axis)
            theirs = self._lines[j][axis]
            best = FREE
            for (cu, cv), mine in self._lines[i][axis].items():
                other = theirs.get((cu - off[u], cv - off[v]))
                if other is None:
                    continue
                shift = off[axis]
                for w in other:
                    w += shift
                    below = [c for c in mine if c < w]
                    if below:
                        best = min(best, w - below[-1] - 1)
            result.append(best)
        gaps = (result[0], result[1], result[2])
        self._cache[key] = gaps
        return gaps

    def table(self, state: Sequence[Vector]) -> list[list[list[int]]]:
        """``table[axis][i][j]``: the gaps of every pair in ``state``."""
        n = self.n
        table = [[[FREE] * n for _ in range(n)] for _ in range(3)]
        for i in range(n):
            ti = state[i]
            for j in range(n):
                if i != j:
                    tj = state[j]
                    gaps = self._gaps(i, j, (tj[0] - ti[0], tj[1] - ti[1], tj[2] - ti[2]))
                    table[0][i][j], table[1][i][j], table[2][i][j] = gaps
        return table

    def closure(
        self, table: list[list[list[int]]], piece: int, direction: int, step: int, cap: int
    ) -> int:
        """The smallest set holding ``piece`` that can slide ``step`` along
        ``direction``, as a mask; 0 when it has more than ``cap`` pieces."""
        gaps = table[direction >> 1]
        negative = direction & 1
        n = self.n
        mask = 1 << piece
        todo = [piece]
        size = 1
        while todo:
            i = todo.pop()
            for j in range(n):
                if mask >> j & 1:
                    continue
                gap = gaps[j][i] if negative else gaps[i][j]
                if gap < step:
                    size += 1
                    if size > cap:
                        return 0
                    mask |= 1 << j
                    todo.append(j)
        return mask

    def removals(self, table: list[list[list[int]]]) -> list[tuple[int, int]]:
        """Every ``(mask, direction)`` in which a set can slide out for ever, in
        BurrTools' order: single pieces first, then sets of at most half the pieces;
        within each, by direction, then by piece."""
        found: list[tuple[int, int]] = []
        for cap in (1, self.n // 2):
            for direction in range(6):
                for piece in range(self.n):
                    mask = self.closure(table, piece, direction, FREE, cap)
                    if mask and (mask, direction) not in found:
                        found.append((mask, direction))
        return found

    def moves(self, table: list[list[list[int]]]) -> list[tuple[int, int, int]]:
        """Every move ``(mask, direction, step)`` of a state where nothing is free, in
        BurrTools' order (see the module's text)."""
        n = self.n
        cap = n // 2
        found: list[tuple[int, int, int]] = []
        for direction in range(6):
            seen: dict[tuple[int, int], None] = {}
            for piece in range(n):
                step = 1
                while True:
                    mask = self.closure(table, piece, direction, step, cap)
                    if not mask:
                        break
                    if (mask, step) not in seen:
                        earlier = [m for m, s in seen if s == step]
                        seen[mask, step] = None
                        found.append((mask, direction, step))
                        for other in earlier:
                            union = mask | other
                            if union not in (mask, other, self.full) and (union, step) not in seen:
                                seen[union, step] = None
                                found.append((union, direction, step))
                    step += 1
        return found

    @staticmethod
    def moved(state: Sequence[Vector], mask: int, direction: int, step: int) -> tuple[Vector, ...]:
        """``state`` after the pieces of ``mask`` slid ``step`` along ``direction``."""
        dx, dy, dz = DIRECTIONS[direction]
        dx, dy, dz = dx * step, dy * step, dz * step
        return tuple(
            (t[0] + dx, t[1] + dy, t[2] + dz) if mask >> k & 1 else t for k, t in enumerate(state)
        )
