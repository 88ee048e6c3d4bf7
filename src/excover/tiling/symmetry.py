"""Counting and listing tilings up to the symmetries of the board, exactly.

**The group.** An isometry ``g`` of the grid is a symmetry of a tiling problem when it
maps the board onto itself (after the translation bringing the image back onto the
board) and maps the placements of every tile onto the placements of a tile with the same
multiplicity: the tile itself, or another one, as when a mirror swaps the two chiral
pieces of the Soma cube. Tiles with equal placements are matched in their given order,
so that the matching composes. These ``g`` form a group ``G`` acting on the options of
the exact cover problem, hence on its solutions.

**Counting** uses Burnside's lemma: the number of orbits of tilings is the average over
``g`` in ``G`` of the number of tilings that ``g`` leaves unchanged. A tiling fixed by ``g``
is a union of orbits of placements under the powers of ``g``, so those tilings are the
solutions of a smaller exact cover problem whose options are the orbits whose placements
do not overlap. A tile used at most once cannot appear twice in an orbit; a tile with a
wider range can, so when one is present the fixed tilings are enumerated and the tile
counts checked one by one.

**Listing** keeps each tiling that is the smallest of its orbit, comparing tilings as
sorted lists of option indices: exactly one tiling per orbit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from excover.problem import ExactCover, SearchOptions
from excover.tiling.grids import Isometry

if TYPE_CHECKING:
    from excover.tiling.tiling import IntArray, Tiling

__all__ = ["BoardSymmetry"]


class BoardSymmetry:
    """The symmetry group of a tiling problem and its action on the options."""

    def __init__(self, tiling: Tiling) -> None:
        self.tiling = tiling
        grid = tiling.grid
        cells = tiling.cells
        position = {tuple(int(v) for v in cell): number for number, cell in enumerate(cells)}
        base = grid.shift(cells)
        option_cells = tiling.option_cells()
        option_tiles = tiling.option_tiles()
        option_of = {
            (tile, cover): option
            for option, (tile, cover) in enumerate(zip(option_tiles, option_cells, strict=True))
        }
        #: The symmetries, identity first, with the permutation each induces on options.
        self.elements: list[Isometry] = []
        self.option_maps: list[IntArray] = []
        for g in grid.isometries:
            image = g.apply(cells)
            image = image - grid.shift(image) + base
            cell_map = [position.get(tuple(int(v) for v in cell), -1) for cell in image]
            if -1 in cell_map:
                continue
            tile_map = self._tile_map(g)
            if tile_map is None:
                continue
            option_map = np.empty(len(option_cells), dtype=np.int64)
            for option, (tile, cover) in enumerate(zip(option_tiles, option_cells, strict=True)):
                key = (tile_map[tile], tuple(sorted(cell_map[c] for c in cover)))
                option_map[option] = option_of[key]
            self.elements.append(g)
            self.option_maps.append(option_map)
        self.option_cells = option_cells
        self.option_tiles = option_tiles

    def _tile_map(self, g: Isometry) -> list[int] | None:
        """Where ``g`` sends each tile (by number), or None when some tile's placements are
        not all the placements of a tile with the same multiplicity."""
        tiles = self.tiling.tiles
        grid = self.tiling.grid
        classes: dict[tuple[frozenset[bytes], int, int | None], list[int]] = {}
        for number, tile in enumerate(tiles):
            classes.setdefault((tile.orientation_keys(), tile.lo, tile.hi), []).append(number)
        result = []
        for number, tile in enumerate(tiles):
            image = frozenset(grid.normalize(g.apply(o)).tobytes() for o in tile.orientations)
            source = classes[tile.orientation_keys(), tile.lo, tile.hi]
            target = classes.get((image, tile.lo, tile.hi))
            if target is None or len(target) != len(source):
                return None
            result.append(target[source.index(number)])
        return result

    @property
    def order(self) -> int:
        """The number of symmetries."""
        return len(self.elements)

    # ----- counting -----

    def count_orbits(self, method: str, options: SearchOptions) -> int:
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
        for orbit in _orbits(option_map):
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

    def representatives(self, solutions: Iterable[list[int]]) -> Iterator[list[int]]:
        """The solutions that are the smallest of their orbit (as sorted option lists)."""
        for solution in solutions:
            key = sorted(solution)
            chosen = np.array(key, dtype=np.int64)
            if all(sorted(option_map[chosen].tolist()) >= key for option_map in self.option_maps):
                yield solution


def _orbits(permutation: IntArray) -> Iterator[list[int]]:
    """The cycles of a permutation of ``0..n-1``."""
    seen = np.zeros(len(permutation), dtype=bool)
    for start in range(len(permutation)):
        if seen[start]:
            continue
        cycle = []
        current = start
        while not seen[current]:
            seen[current] = True
            cycle.append(current)
            current = int(permutation[current])
        yield cycle
