"""The evaluation of packing designs: every piece's placements found once, each design's
exact cover built from them, its solutions counted up to the goal's bound.

:class:`Placements` holds, for a board and a catalog, what every design of the search
shares: the placements of each piece on the board (one tiling problem of the whole
catalog, built once), the checkerboard imbalance of each piece, and what each symmetry
of the board does to the cells, to the pieces (a mirror swaps the two hands of a chiral
piece that may only turn) and so to the placements. A design (a multiset of catalog
pieces) is then decided in three steps:

1. **Rejected before any search** when its pieces cannot cover the board: their area
   is not the board's (the sum :func:`~excover.tiling.tiling.area_obstruction` makes for
   pieces used a fixed number of times), a piece fits nowhere on the board, or the
   **colouring**: colour the cells as a checkerboard (by the parity of the sum of the
   coordinates); every placement of a piece covers ``d`` more cells of one colour than of
   the other, always the same ``d`` up to its sign, so a tiling needs signs making the
   pieces' ``d`` add up to the board's own imbalance.
2. **Its exact cover** is made from the shared placements (a primary item per cell and
   per piece, its copies as the piece's multiplicity), with no tiling built.
3. :func:`settle` **counts** its solutions, up to the board's symmetries that map the
   design onto itself when the goal asks for classes: the search lists solutions until
   has found more than ``most`` classes, or more than ``most`` times the order of that
   group solutions (then more than ``most`` classes exist, whatever they are), the
   classes of those it listed told apart by their smallest image. Unbounded, it lists
   them all (or counts them, every solution counted).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from excover.design import Evaluation, Goal, Score
from excover.solving import ExactCover
from excover.tiling.design_pieces import Catalog, board_symmetries
from excover.tiling.tile import Shape, Tile
from excover.tiling.tiling import Tiling

__all__ = ["Placements", "bound", "imbalance", "settle"]

IntArray = npt.NDArray[np.int64]


def imbalance(coords: IntArray) -> int:
    """The checkerboard imbalance of cells: how many more have an even coordinate sum
    than an odd one."""
    parity = coords.sum(axis=1) % 2
    return int(len(coords) - 2 * parity.sum())


def colourable(board: int, pieces: Sequence[int]) -> bool:
    """Whether signs exist making the imbalances ``pieces`` add up to ``board``."""
    sums = {0}
    for d in pieces:
        if d:
            sums = {s + d for s in sums} | {s - d for s in sums}
    return board in sums


def bound(goal: Goal, beat: Score | None) -> int | None:
    """The most solutions worth counting: the goal's bound; without one, the score to
    beat when the top K is by fewest solutions (a design with more cannot enter it, and
    every design with a solution qualifies); None: count them all."""
    if goal.solutions is not None:
        return goal.solutions
    if isinstance(beat, int) and goal.by == "solutions" and goal.order == "low":
        return beat
    return None


def settle_tiling(
    tiling: Tiling, goal: Goal, beat: Score | None, deadline: float | None
) -> Evaluation:
    """The outcome of a design's own ``tiling`` under ``goal`` (:func:`settle`): a
    design with a piece that fits nowhere is rejected (``fit``); up to symmetry, its
    solutions are counted under the board's symmetries, each option map once."""
    if len(set(tiling.option_tiles())) < len(tiling.tiles):
        return Evaluation(0, rejected="fit")
    maps = None
    if goal.up_to_symmetry:
        kept = {m.tobytes(): m for m in tiling.board_symmetry(deadline).option_maps}
        maps = np.array(list(kept.values()), dtype=np.int64)
    return settle(tiling.problem, maps, bound(goal, beat), deadline)


def settle(
    problem: ExactCover, maps: IntArray | None, most: int | None, deadline: float | None
) -> Evaluation:
    """The solutions of ``problem``, as classes under the option permutations ``maps``
    (one row each, the identity among them) or each on its own (None), counted up to
    ``most`` (more: the outcome inexact); the search's nodes as the score ``nodes``.
    Past ``deadline``, :class:`~excover.LimitReached`."""
    if maps is None:
        search = problem.search(seed=0, max_solutions=None if most is None else most + 1)
        search.deadline = deadline
        found = search.count()
        stats = search.stats
        return Evaluation(found, stats.complete, {"nodes": stats.nodes})
    cap = None if most is None else most * len(maps) + 1
    search = problem.search(seed=0, max_solutions=cap)
    search.deadline = deadline
    seen: set[tuple[int, ...]] = set()
    for solution in search.solutions():
        images = maps[:, solution]
        images.sort(axis=1)
        seen.add(min(map(tuple, images.tolist())))
        if most is not None and len(seen) > most:  # more classes than the goal allows
            break
    stats = search.stats
    if stats.complete:
        return Evaluation(len(seen), True, {"nodes": stats.nodes})
    return Evaluation(max(len(seen), (most or 0) + 1), False, {"nodes": stats.nodes})


class Placements:
    """What every design of a board and a catalog shares (see the module notes)."""

    def __init__(self, board: Shape, catalog: Catalog) -> None:
        tiles = [Tile(shape, name, "maybe", catalog.turn) for name, shape in catalog.pieces.items()]
        whole = Tiling(board, tiles)
        self.grid = whole.grid
        self.cells = len(whole.cells)
        self.sizes = [tile.size for tile in tiles]
        owners = np.array(whole.option_tiles(), dtype=np.int64)
        covers = whole.option_cells()
        self.blocks: list[IntArray] = []
        self.offsets: list[int] = []
        found = 0
        for number, tile in enumerate(tiles):
            rows = [covers[o] for o in np.flatnonzero(owners == number)]
            self.blocks.append(np.array(rows, dtype=np.int64).reshape(len(rows), tile.size))
            self.offsets.append(found)
            found += len(rows)
        self.placements = found
        self.board_imbalance = imbalance(whole.cells)
        self.imbalances = [abs(imbalance(tile.cells)) for tile in tiles]
        self.symmetries = self._symmetries(board, catalog, whole.cells)

    def _symmetries(
        self, board: Shape, catalog: Catalog, cells: IntArray
    ) -> list[tuple[tuple[int, ...], IntArray]]:
        """For each symmetry of the board that maps the catalog onto itself: where it
        sends each piece (by number) and each placement (by global number: the
        placements of piece ``i`` are ``offsets[i]`` on)."""
        grid = self.grid
        where = [{tuple(row): p for p, row in enumerate(block.tolist())} for block in self.blocks]
        position = {tuple(int(v) for v in cell): n for n, cell in enumerate(cells.tolist())}
        base = grid.shift(cells)
        result = []
        for g, pieces in board_symmetries(board, catalog):
            moved_cells = g.apply(cells)
            moved_cells = moved_cells - grid.shift(moved_cells) + base
            cell_map = np.array([position[tuple(cell)] for cell in moved_cells.tolist()])
            image = np.empty(self.placements, dtype=np.int64)
            for k, block in enumerate(self.blocks):
                target = pieces[k]
                moved = np.sort(cell_map[block], axis=1)
                image[self.offsets[k] : self.offsets[k] + len(block)] = [
                    self.offsets[target] + where[target][tuple(row)] for row in moved.tolist()
                ]
            result.append((pieces, image))
        return result

    def rejected(self, chosen: Sequence[int]) -> str | None:
        """Why the pieces ``chosen`` (catalog numbers, a copy each time) cannot tile the
        board, before any search: ``"area"``, ``"fit"``, ``"colouring"``; None when they
        may."""
        if sum(self.sizes[k] for k in chosen) != self.cells:
            return "area"
        if any(len(self.blocks[k]) == 0 for k in set(chosen)):
            return "fit"
        if not colourable(self.board_imbalance, [self.imbalances[k] for k in chosen]):
            return "colouring"
        return None

    def problem(self, chosen: Sequence[int]) -> tuple[ExactCover, IntArray]:
        """The exact cover of the pieces ``chosen`` on the board (a primary item per
        cell, then one per piece, its copies its multiplicity) and the global number of
        each of its options' placements."""
        counts = Counter(chosen)
        pieces = sorted(counts)
        problem = ExactCover(primary=self.cells + len(pieces))
        rows, numbers = [], []
        for item, k in enumerate(pieces, self.cells):
            block = self.blocks[k]
            row = np.empty((len(block), block.shape[1] + 1), dtype=np.int64)
            row[:, 0] = item
            row[:, 1:] = block
            rows.append(row.ravel())
            numbers.append(np.arange(self.offsets[k], self.offsets[k] + len(block)))
            if counts[k] > 1:
                problem.set_multiplicity(item, counts[k], counts[k])
        lengths = np.repeat(
            [self.sizes[k] + 1 for k in pieces], [len(self.blocks[k]) for k in pieces]
        )
        starts = np.concatenate([[0], np.cumsum(lengths)])
        problem.add_options(starts, np.concatenate(rows))
        return problem, np.concatenate(numbers)

    def evaluate(
        self, chosen: tuple[int, ...], goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        """The outcome of the design ``chosen`` (sorted catalog numbers) under ``goal``."""
        why = self.rejected(chosen)
        if why is not None:
            return Evaluation(0, rejected=why)
        problem, numbers = self.problem(chosen)
        maps = None
        if goal.up_to_symmetry:
            local = np.full(self.placements, -1, dtype=np.int64)
            local[numbers] = np.arange(len(numbers))
            kept: dict[bytes, IntArray] = {}
            for pieces, image in self.symmetries:
                if tuple(sorted(pieces[k] for k in chosen)) == chosen:
                    moved = local[image[numbers]]
                    kept.setdefault(moved.tobytes(), moved)
            maps = np.array(list(kept.values()), dtype=np.int64)
        return settle(problem, maps, bound(goal, beat), deadline)
