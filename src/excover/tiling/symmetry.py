"""Counting and listing tilings up to the symmetries of the board, exactly.

**The group.** An isometry ``g`` of the grid is a symmetry of a tiling problem when it
maps the board onto itself (after the translation bringing the image back onto the
board) and maps the placements of every tile onto the placements of a tile with the same
multiplicity: the tile itself, or another one, as when a mirror swaps the two chiral
pieces of the Soma cube. Tiles with equal placements are matched in their given order,
so that the matching composes. These ``g`` form a group ``G`` acting on the options of
the exact cover problem, hence on its solutions.

**Pinning a free tile.** When a tile used exactly once is mapped to itself by every
symmetry and no symmetry but the identity fixes one of its placements, ``G`` acts freely
on its placements and on the tilings; keeping only the first placement of each of its
orbits leaves exactly one tiling per class. Counting and listing then solve that smaller
problem (any asymmetric piece free to turn and flip qualifies; so does the I pentomino on
Scott's board, where no symmetry maps a placement of it onto itself).

**Counting** otherwise uses Burnside's lemma: the number of orbits of tilings is the
average over ``g`` in ``G`` of the number of tilings that ``g`` leaves unchanged. A tiling
fixed by ``g`` is a union of orbits of placements under the powers of ``g``, so those
tilings are the solutions of a smaller exact cover problem whose options are the orbits
whose placements do not overlap. A tile used at most once cannot appear twice in an
orbit; a tile with a wider range can, so when one is present the fixed tilings are
enumerated and the tile counts checked one by one.

**Listing** otherwise keeps each tiling that is the smallest of its orbit, comparing
tilings as sorted lists of option indices: exactly one tiling per orbit.

**Counting every tiling.** With a free tile pinned, every class holds exactly ``|G|``
tilings (only the identity fixes one), so the number of tilings is ``|G|`` times the
number of tilings of the pinned problem: a total count takes that smaller problem by
default (:meth:`BoardSymmetry.total`), whatever the method, the same count ``|G|``
times sooner or so.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from excover.deadlines import check
from excover.entries import row_keys
from excover.problem import SearchOptions
from excover.solving import ExactCover
from excover.solving.orchestrate import Total
from excover.symmetry.fixed import cycles
from excover.tiling.grids import Isometry

if TYPE_CHECKING:
    from excover.tiling.tiling import IntArray, Tiling

__all__ = ["BoardSymmetry", "Total"]


class BoardSymmetry:
    """The symmetry group of a tiling problem and its action on the options; past
    ``deadline`` (a ``time.monotonic()`` instant) finding it raises
    :class:`~excover.LimitReached`."""

    def __init__(self, tiling: Tiling, deadline: float | None = None) -> None:
        self.tiling = tiling
        grid = tiling.grid
        cells = tiling.cells
        position = {tuple(int(v) for v in cell): number for number, cell in enumerate(cells)}
        base = grid.shift(cells)
        option_cells = tiling.option_cells()
        option_tiles = tiling.option_tiles()
        # Each option as one row: its tile, then its cells in order, padded by a cell
        # number past the board's (which every symmetry keeps, last in every row).
        pad = len(cells)
        width = max((len(cover) for cover in option_cells), default=0)
        rows = np.full((len(option_cells), width + 1), pad, dtype=np.int64)
        rows[:, 0] = option_tiles
        for option, cover in enumerate(option_cells):
            rows[option, 1 : 1 + len(cover)] = cover
        keys = row_keys(rows)
        order = np.argsort(keys, kind="stable")
        known = keys[order]
        self._classes: dict[tuple[frozenset[bytes], int, int | None], list[int]] = {}
        for number, tile in enumerate(tiling.tiles):
            self._classes.setdefault((tile.orientation_keys(), tile.lo, tile.hi), []).append(number)
        #: The symmetries, identity first, with the permutation each induces on options.
        self.elements: list[Isometry] = []
        self.option_maps: list[IntArray] = []
        self.tile_maps: list[list[int]] = []
        for g in grid.isometries:
            check(deadline)
            image = g.apply(cells)
            image = image - grid.shift(image) + base
            cell_map = [position.get(tuple(int(v) for v in cell), -1) for cell in image]
            if -1 in cell_map:
                continue
            tile_map = self._tile_map(g)
            if tile_map is None:
                continue
            moved = np.sort(np.array([*cell_map, pad], dtype=np.int64)[rows[:, 1:]], axis=1)
            images = np.column_stack([np.array(tile_map, dtype=np.int64)[rows[:, 0]], moved])
            found = np.searchsorted(known, row_keys(images))
            option_map = order[found].astype(np.int64)
            self.elements.append(g)
            self.option_maps.append(option_map)
            self.tile_maps.append(tile_map)
        self.option_cells = option_cells
        self.option_tiles = option_tiles

    def _tile_map(self, g: Isometry) -> list[int] | None:
        """Where ``g`` sends each tile (by number), or None when some tile's placements are
        not all the placements of a tile with the same multiplicity. A tile free to move
        by ``g`` keeps its orientations."""
        tiles = self.tiling.tiles
        grid = self.tiling.grid
        classes = self._classes
        result = []
        for number, tile in enumerate(tiles):
            keys = tile.orientation_keys()
            if g in tile.group:
                image = keys
            else:
                image = frozenset(grid.normalize(g.apply(o)).tobytes() for o in tile.orientations)
            source = classes[keys, tile.lo, tile.hi]
            target = classes.get((image, tile.lo, tile.hi))
            if target is None or len(target) != len(source):
                return None
            result.append(target[source.index(number)])
        return result

    @property
    def order(self) -> int:
        """The number of symmetries."""
        return len(self.elements)

    @property
    def option_order(self) -> int:
        """The number of distinct permutations of the options among the symmetries."""
        return len({option_map.tobytes() for option_map in self.option_maps})

    # ----- one placement per orbit for a free tile -----

    def free_tile(self) -> tuple[int, IntArray] | None:
        """A tile that can be pinned, and the options it keeps: or None when none can.

        A tile can be pinned when it is used exactly once, every symmetry maps it to
        itself, and no symmetry but the identity maps one of its placements onto itself
        (an asymmetric piece, or any piece on a board whose symmetries never fix one of its
        placements). The symmetries then act freely on its placements and on the tilings,
        so each class of tilings holds exactly one tiling placing that tile at the first
        placement of its orbit. Among such tiles, the one keeping the fewest options wins.
        """
        if self.order == 1:
            return None
        tiles = self.tiling.tiles
        owners = np.array(self.option_tiles, dtype=np.int64)
        others = [
            (option_map, tile_map)
            for g, option_map, tile_map in zip(
                self.elements, self.option_maps, self.tile_maps, strict=True
            )
            if not g.is_identity()
        ]
        best: tuple[int, IntArray] | None = None
        for number, tile in enumerate(tiles):
            if (tile.lo, tile.hi) != (1, 1) or any(t[number] != number for _, t in others):
                continue
            mine = np.flatnonzero(owners == number)
            if any(np.any(option_map[mine] == mine) for option_map, _ in others):
                continue
            first = np.min([option_map[mine] for option_map, _ in others], axis=0)
            kept = mine[mine < first]
            if best is None or len(kept) < len(best[1]):
                best = (number, kept)
        return best

    def pinned(self) -> tuple[ExactCover, IntArray] | None:
        """The tiling problem with a free tile (see :meth:`free_tile`) limited to one
        placement per orbit, and the original number of each of its options; None when no
        tile is free. Its solutions are one tiling per class, exactly."""
        found = self.free_tile()
        return None if found is None else self._pin(*found)

    def _pin(self, number: int, kept: IntArray) -> tuple[ExactCover, IntArray]:
        """The tiling problem with tile ``number`` limited to the options ``kept``, and
        the original number of each of its options."""
        problem = self.tiling.problem
        keep = np.array(self.option_tiles, dtype=np.int64) != number
        keep[kept] = True
        data = problem.engine_input()
        starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
        items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
        lengths = np.diff(starts)
        smaller = ExactCover(problem.primary_items, problem.secondary_items)
        for item in range(problem.n_primary):
            lo, hi = problem.multiplicity(item)
            if (lo, hi) != (1, 1):
                smaller.set_multiplicity(item, lo, hi)
        new_starts = np.concatenate([[0], np.cumsum(lengths[keep])])
        smaller.add_options(new_starts, items[np.repeat(keep, lengths)])
        return smaller, np.flatnonzero(keep)

    def total(self) -> Total | None:
        """The total count's reduction: the problem with a free tile pinned (see
        :meth:`pinned`) and the group's order, whose product with that problem's count is
        the number of tilings; None when no tile is free."""
        found = self.free_tile()
        if found is None:
            return None
        tile = self.tiling.tiles[found[0]].name
        note = f"board group of order {self.order}, {tile} pinned to one placement per orbit"
        return Total(self._pin(*found)[0], self.order, None, note)

    # ----- counting -----

    def count_orbits(self, method: str, options: SearchOptions) -> int:
        """The number of tilings up to symmetry: the tilings of :meth:`pinned` when a tile
        is free, else by Burnside's lemma."""
        pinned = self.pinned()
        if pinned is not None:
            return pinned[0].count(method=method, **options)
        return self.burnside(method, options)

    def burnside(self, method: str, options: SearchOptions) -> int:
        """The number of tilings up to symmetry, by Burnside's lemma."""
        total = 0
        for g, option_map in zip(self.elements, self.option_maps, strict=True):
            if g.is_identity():
                total += self.tiling.problem.count(method=method, **options)
            else:
                total += self._fixed(option_map, method, options)
        if total % self.order:  # pragma: no cover - Burnside's lemma guarantees it
            raise AssertionError(f"{total} fixed tilings for a group of order {self.order}")
        return total // self.order

    def _fixed(self, option_map: IntArray, method: str, options: SearchOptions) -> int:
        """The number of tilings left unchanged by the symmetry acting as ``option_map``."""
        tiles = self.tiling.tiles
        n_cells = len(self.tiling.cells)
        counted = [(t.hi is not None and t.hi > 1) or (t.hi is None and t.lo > 0) for t in tiles]
        at_most_once = [t.hi == 1 for t in tiles]
        problem = ExactCover(
            primary=n_cells + sum(1 for t in tiles if (t.lo, t.hi) == (1, 1)),
            secondary=sum(1 for t in tiles if (t.lo, t.hi) == (0, 1)),
        )
        item_of: dict[int, int] = {}
        for number, tile in enumerate(tiles):
            if (tile.lo, tile.hi) == (1, 1):
                item_of[number] = n_cells + len(item_of)
        for number, tile in enumerate(tiles):
            if (tile.lo, tile.hi) == (0, 1):
                item_of[number] = n_cells + len(item_of)
        uses: list[dict[int, int]] = []
        for orbit in cycles(option_map):
            covered = [c for option in orbit for c in self.option_cells[option]]
            if len(set(covered)) < len(covered):
                continue
            used: dict[int, int] = {}
            for option in orbit:
                owner = self.option_tiles[option]
                used[owner] = used.get(owner, 0) + 1
            if any(at_most_once[t] and k > 1 for t, k in used.items()):
                continue
            problem.add_option(covered + [item_of[t] for t in used if t in item_of])
            uses.append(used)
        if not any(counted):
            return problem.count(method=method, **options)
        fixed = 0
        for solution in problem.solutions(method=method, **options):
            totals = [0] * len(tiles)
            for option in solution:
                for owner, k in uses[option].items():
                    totals[owner] += k
            fixed += all(
                t.lo <= k and (t.hi is None or k <= t.hi)
                for t, k, c in zip(tiles, totals, counted, strict=True)
                if c
            )
        return fixed

    # ----- listing -----

    def solutions(self, method: str, options: SearchOptions) -> Iterator[list[int]]:
        """One tiling per class (option numbers of the tiling problem): the tilings of
        :meth:`pinned` when a tile is free, else :meth:`representatives`."""
        pinned = self.pinned()
        if pinned is None:
            yield from self.representatives(self.tiling.problem.solutions(method=method, **options))
            return
        smaller, original = pinned
        for solution in smaller.solutions(method=method, **options):
            yield [int(original[option]) for option in solution]

    def representatives(self, solutions: Iterable[list[int]]) -> Iterator[list[int]]:
        """The solutions that are the smallest of their orbit (as sorted option lists)."""
        for solution in solutions:
            key = sorted(solution)
            chosen = np.array(key, dtype=np.int64)
            if all(sorted(option_map[chosen].tolist()) >= key for option_map in self.option_maps):
                yield solution
