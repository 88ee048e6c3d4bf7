"""Tiling problems reduced to exact cover, and their solutions decoded.

:class:`Tiling` places tiles on a board. The reduction to :class:`~excover.ExactCover`:

- one primary item per board cell (named by its coordinates, ``"x,y"``), covered once;
- one item per tile used a bounded number of times, named by the tile: primary for
  ``"one"`` (and for counts and ranges, with Knuth's MCC multiplicities), secondary for
  ``"maybe"``; tiles used ``"any"`` number of times have no item;
- one option per placement: a tile's item (if any) and the cells of one orientation of the
  tile translated onto the board.

Option ``k`` of the problem decodes to a :class:`Placement` (tile, orientation, cells), a
solution to a :class:`TilingSolution`, which draws itself in ASCII and SVG.
"""

from __future__ import annotations

import bisect
import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple, Unpack

import numpy as np
import numpy.typing as npt

from excover.atomic import write_whole
from excover.counting.outcome import count_of
from excover.errors import UsageError, check_limit
from excover.names import METHOD_TRAITS, canonical_method
from excover.problem import SearchOptions
from excover.solving import ExactCover, orchestrate, registry
from excover.solving.orchestrate import Total
from excover.solving.request import api_request
from excover.tiling.grids import Coords, Grid, Isometry
from excover.tiling.pattern import Pattern
from excover.tiling.tile import Multiplicity, Shape, Tile

if TYPE_CHECKING:
    from excover.symmetry import BrokenSearch, Group
    from excover.tiling.symmetry import BoardSymmetry

__all__ = ["Placement", "Tiling", "TilingSolution"]

IntArray = npt.NDArray[np.int64]


def folds(method: str) -> bool:
    """Whether a count by ``method`` may be the frontier count, which folds its states
    by the symmetries a problem declares (:mod:`excover.zdd.folding`): a method that
    counts the family of solutions, or that chooses among routes. :meth:`Tiling.count`
    declares the board's mirrors (:mod:`excover.tiling.mirrors`) for its count by them."""
    traits = METHOD_TRAITS[method]
    return traits.family or traits.chooses


class Placement(NamedTuple):
    """One tile put on the board: which tile, which of its orientations (and the isometry
    giving it), the board cells it covers, and its option index in the exact cover."""

    tile: Tile
    orientation: int
    cells: tuple[tuple[int, ...], ...]
    option: int

    @property
    def isometry(self) -> Isometry:
        """The isometry turning the tile's normalised shape into this orientation."""
        return self.tile.isometries[self.orientation]


class _Block(NamedTuple):
    """Consecutive options: the placements of one orientation of one tile."""

    start: int
    tile: int
    orientation: int
    cells: IntArray  # one row of board cell numbers per placement


class Tiling:
    """Tiles placed on a board, as an exact cover problem.

    ``board`` is a pattern (or ASCII art of a square pattern); ``tiles`` are
    :class:`Tile` objects of the same grid, with distinct names (unnamed tiles are called
    ``t0``, ``t1``, ... by their position). With ``interchangeable=True``, tiles with the
    same orientations are merged into one tile whose multiplicity is the sum of theirs, so
    a tiling using two equal pieces is counted once, not once per way of telling them
    apart ("each tetromino twice"). ``progress``, when given, is called as the placements
    are found, with the orientations done and their number (for a progress bar on a big
    board).
    """

    def __init__(
        self,
        board: Shape | str,
        tiles: Iterable[Tile],
        *,
        interchangeable: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        if isinstance(board, str):
            board = Pattern.from_ascii(board, source="board")
        if not isinstance(board, Shape):
            raise UsageError(f"the board must be a pattern, not {board!r}")
        self.board = board
        self.grid: Grid = board.grid
        coords = board.coords()
        if len(coords) == 0:
            raise UsageError("the board has no cells")
        self.cells: Coords = coords
        if isinstance(tiles, Tile) or not isinstance(tiles, Iterable):
            raise UsageError(f"the tiles must be a list of Tile objects, not {tiles!r}")
        self.tiles = _named(list(tiles), self.grid, len(coords), interchangeable)
        self._cell_names = [self.grid.cell_name(cell) for cell in coords]
        self._blocks: list[_Block] = []
        self._order: IntArray = np.zeros(0, dtype=np.int64)  # option -> its block-major rank
        self._starts: list[int] | None = None  # of the blocks, for decoding
        self._cell_tuples: list[tuple[int, ...]] = []
        self._block_rows: dict[int, list[list[int]]] = {}
        self._symmetry: BoardSymmetry | None = None
        self.problem = self._reduce(progress)
        #: Why no tiling can exist, found before any search (None when the board's area
        #: can be made of the tiles' areas): see :func:`area_obstruction`.
        self.obstruction = area_obstruction(len(coords), self.tiles)

    @classmethod
    def from_files(
        cls,
        board: str | os.PathLike[str],
        pieces: str | os.PathLike[str],
        *,
        multiplicity: Multiplicity = "one",
        reflections: bool = True,
    ) -> Tiling:
        """The tiling of a board file (``#`` cells, ``.`` or space holes) by the pieces of a
        pieces file (one ``[[row, col], ...]`` list a line, optionally ``NAME: [...]``):
        each piece used ``multiplicity`` times, rotated and, unless ``reflections`` is
        False, reflected; identical pieces are interchangeable. See
        :mod:`excover.tiling.files`."""
        from excover.formats.text import read_text

        board_text, board_source = read_text(board)
        pieces_text, pieces_source = read_text(pieces)
        return cls.from_text(
            board_text,
            pieces_text,
            board_source=board_source,
            pieces_source=pieces_source,
            multiplicity=multiplicity,
            reflections=reflections,
        )

    @classmethod
    def from_text(
        cls,
        board: str,
        pieces: str,
        *,
        board_source: str = "<board>",
        pieces_source: str = "<pieces>",
        multiplicity: Multiplicity = "one",
        reflections: bool = True,
    ) -> Tiling:
        """:meth:`from_files` on the files' texts (the sources name them in errors)."""
        from excover.tiling.files import parse_board, parse_pieces

        shape = parse_board(board, board_source)
        tiles = parse_pieces(
            pieces, pieces_source, multiplicity=multiplicity, reflections=reflections
        )
        return cls(shape, tiles, interchangeable=True)

    # ----- the reduction -----

    def _reduce(self, progress: Callable[[int, int], None] | None) -> ExactCover:
        with_item = [t for t in self.tiles if not (t.lo == 0 and t.hi is None)]
        secondary = [str(t.name) for t in with_item if (t.lo, t.hi) == (0, 1)]
        primary = self._cell_names + [str(t.name) for t in with_item if (t.lo, t.hi) != (0, 1)]
        clash = set(self._cell_names) & {str(t.name) for t in with_item}
        if clash:
            raise UsageError(f"tile name {sorted(clash)[0]!r} is also the name of a board cell")
        problem = ExactCover(primary=primary, secondary=secondary)
        for tile in with_item:
            if (tile.lo, tile.hi) not in ((1, 1), (0, 1)):
                problem.set_multiplicity(str(tile.name), *_bounds(tile, len(self.cells)))
        position = {name: number for number, name in enumerate(problem.items)}
        finder = _CellFinder(self.grid, self.cells)
        rows: list[IntArray] = []
        firsts: list[IntArray] = []
        start = done = 0
        shapes = sum(len(tile.orientations) for tile in self.tiles)
        for number, tile in enumerate(self.tiles):
            head = position.get(str(tile.name)) if tile in with_item else None
            for orientation, shape in enumerate(tile.orientations):
                placements = finder.placements(shape)
                done += 1
                if progress is not None:
                    progress(done, shapes)
                if len(placements) == 0:
                    continue
                self._blocks.append(_Block(start, number, orientation, placements))
                start += len(placements)
                firsts.append(placements.min(axis=1))
                if head is not None:  # the tile's item first, then the cells
                    placements = np.hstack([np.full((len(placements), 1), head), placements])
                rows.append(placements)
        lengths = np.repeat([b.shape[1] for b in rows], [len(b) for b in rows]).astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
        flat = np.concatenate([block.ravel() for block in rows]) if rows else np.zeros(0, np.int64)
        # Options are numbered by their first board cell (stably), not block by block:
        # DXZ branches on the leftmost cell and builds the family over options in that
        # order, so the problem's own family (``problem.zdd()``) then needs no renaming,
        # which on a tiling's block-major order makes it hundreds of times larger.
        first = np.concatenate(firsts) if firsts else np.zeros(0, np.int64)
        self._order = np.argsort(first, kind="stable")
        new_lengths = lengths[self._order]
        new_starts = np.concatenate([[0], np.cumsum(new_lengths, dtype=np.int64)])
        source = np.repeat(starts[:-1][self._order] - new_starts[:-1], new_lengths)
        problem.add_options(new_starts, flat[source + np.arange(len(flat))])
        return problem

    def placement(self, option: int) -> Placement:
        """The placement of the problem's option ``option``."""
        if not 0 <= option < self.problem.n_options:
            raise UsageError(f"option {option} is out of range ({self.problem.n_options} options)")
        if self._starts is None:
            self._starts = [block.start for block in self._blocks]
            self._cell_tuples = [tuple(cell) for cell in self.cells.tolist()]
        rank = int(self._order[option])  # its place in block-major order
        number = bisect.bisect_right(self._starts, rank) - 1
        block = self._blocks[number]
        rows = self._block_rows.get(number)
        if rows is None:  # decoded once per block, as Python ints
            rows = self._block_rows[number] = block.cells.tolist()
        cells = tuple([self._cell_tuples[i] for i in rows[rank - block.start]])
        return Placement(self.tiles[block.tile], block.orientation, cells, option)

    def option_cells(self) -> list[tuple[int, ...]]:
        """For each option, the numbers (rows of :attr:`cells`) of the board cells it
        covers, sorted."""
        result: list[tuple[int, ...]] = []
        for block in self._blocks:
            result.extend(tuple(sorted(row)) for row in block.cells.tolist())
        return [result[rank] for rank in self._order.tolist()]

    def option_tiles(self) -> list[int]:
        """For each option, the number of its tile in :attr:`tiles`."""
        result: list[int] = []
        for block in self._blocks:
            result.extend([block.tile] * len(block.cells))
        return [result[rank] for rank in self._order.tolist()]

    def decode(self, solution: Sequence[int]) -> TilingSolution:
        """The tiling made of the placements of the options ``solution``."""
        return TilingSolution(self, [self.placement(option) for option in solution])

    # ----- solving -----

    def count(
        self,
        method: str = "auto",
        *,
        up_to_symmetry: bool = False,
        symmetry: bool = True,
        **options: Unpack[SearchOptions],
    ) -> int:
        """The number of tilings; with ``up_to_symmetry``, the number of classes of tilings
        equal up to a symmetry of the board (see :mod:`excover.tiling.symmetry`).

        Every count goes through the orchestrator (:mod:`excover.solving.orchestrate`):
        a count of every tiling by a method that searches uses the board's symmetries by
        default (its default group is :meth:`total`'s: :meth:`total_count`);
        ``symmetry=False`` counts the tiling problem as it is: the same number either
        way. Otherwise a count by a method that may take the frontier count
        (:func:`folds`) declares the board's mirrors on the problem while it counts, and
        the frontier count folds its states by them."""
        method = canonical_method(method, stacklevel=1)
        if self.obstruction is not None:
            return 0
        if up_to_symmetry:
            group = self._larger_group()
            if group is not None:  # the classes under it: the orchestrator's
                request = api_request(method, options, "count", up_to_symmetry=True, symmetry=group)
                return count_of(orchestrate.count(self.problem, request))
            return self.symmetry.count_orbits(method, options)
        request = api_request(
            method, options, "count", symmetry=None if symmetry else False, totals=self.total
        )
        if not symmetry or not folds(method) or self.problem.declared_symmetries():
            return count_of(orchestrate.count(self.problem, request))
        from excover.tiling.mirrors import mirror_maps

        self.problem.declare_symmetries(mirror_maps(self.grid, self.cells))
        try:
            return count_of(orchestrate.count(self.problem, request))
        finally:
            self.problem.declare_symmetries(None)

    def total_count(self, method: str, options: SearchOptions) -> tuple[int, Total] | None:
        """The number of tilings by the board's symmetries (:meth:`total`) and how it was
        counted; None when the default leaves the symmetries alone: a method that does
        not search, a count bounded by ``max_nodes`` or ``max_solutions``, a count that a
        plain search finishes within :data:`~excover.solving.registry.SCOUT_NODES` nodes (a
        count so short gains nothing), or a board without symmetry. ``timeout`` covers
        finding the symmetries (past it, :class:`~excover.LimitReached`)."""
        method = canonical_method(method, stacklevel=1)
        if self.obstruction is not None:
            return None
        request = api_request(method, options, "count", totals=self.total)
        outcome = orchestrate.count(self.problem, request)
        total = outcome.total if isinstance(outcome, orchestrate.SymmetricOutcome) else None
        return None if total is None else (count_of(outcome), total)

    def total(self, method: str = "auto", deadline: float | None = None) -> Total | None:
        """How a count of every tiling by ``method`` uses the board's symmetries, or None
        when it cannot: a free tile pinned to one placement per orbit, the count of that
        smaller problem times the group's order (any method, see
        :mod:`excover.tiling.symmetry`); else, for a method that is one search
        (:func:`~excover.solving.registry.breaks_by_search`: not ``"auto"``, whose
        other routes may be far faster), a symmetry-broken search under the board's
        group and the exchanges of equal tiles (:mod:`excover.symmetry.broken`). Past
        ``deadline`` (a ``time.monotonic()`` instant) finding the group raises
        :class:`~excover.LimitReached`."""
        method = canonical_method(method, stacklevel=1)
        board = self.board_symmetry(deadline)
        if board.order == 1:
            return None
        pinned = board.total()
        if pinned is not None or not registry.breaks_by_search(method):
            return pinned
        from excover.symmetry import Group

        group = Group(
            self.problem, [m.tolist() for m in board.option_maps] + self._tile_exchanges()
        )
        if group.option_order == 1:
            return None
        how = f"board group of order {board.order}, symmetry-broken search"
        return Total(self.problem, 1, group, how)

    def first(
        self, method: str = "search", **options: Unpack[SearchOptions]
    ) -> TilingSolution | None:
        """A tiling, or None when there is none."""
        method = canonical_method(method, stacklevel=1)
        if self.obstruction is not None:
            return None
        solution = self.problem.first(method=method, **options)
        return None if solution is None else self.decode(solution)

    def solutions(
        self,
        method: str = "search",
        limit: int | None = None,
        *,
        up_to_symmetry: bool = False,
        **options: Unpack[SearchOptions],
    ) -> Iterator[TilingSolution]:
        """Lazily yield tilings (at most ``limit``); with ``up_to_symmetry``, one
        representative of each class of tilings equal up to a symmetry of the board."""
        method = canonical_method(method, stacklevel=1)
        check_limit(limit)
        if self.obstruction is not None:
            return
        if up_to_symmetry:
            group = self._larger_group()
            if group is not None:  # the classes under it: the orchestrator's
                request = api_request(
                    method, options, "solutions", up_to_symmetry=True, symmetry=group
                )
                found = iter(orchestrate.listing(self.problem, request))
            else:
                found = self.symmetry.solutions(method, options)
        else:
            found = self.problem.solutions(method=method, **options)
        for solution in itertools.islice(found, limit):
            yield self.decode(solution)

    def representatives(self, solutions: Iterable[list[int]]) -> Iterator[list[int]]:
        """The solutions (option lists) that are the smallest of their class, under the
        group that :meth:`count` uses up to symmetry."""
        automatic = self._larger_automatic_group("search", {})
        if automatic is not None:
            return automatic.smallest_of_orbits(solutions)
        return self.symmetry.representatives(solutions)

    def _larger_automatic_group(self, method: str, options: SearchOptions) -> BrokenSearch | None:
        """The symmetry-broken search under :meth:`_larger_group`, or None."""
        group = self._larger_group()
        if group is None:
            return None
        from excover.symmetry import BrokenSearch

        return BrokenSearch(self.problem, group, method, **options)

    def _larger_group(self) -> Group | None:
        """The group generated by the board's symmetries and the exchanges of equal tiles
        (the same placements and multiplicity, so two tilings that differ only by which
        copy lies where are one class), when it moves the options in more ways than the
        board's symmetries alone; else None."""
        exchanges = self._tile_exchanges()
        if not exchanges:
            return None
        from excover.symmetry import Group

        board = self.symmetry
        group = Group(self.problem, [m.tolist() for m in board.option_maps] + exchanges)
        return None if group.option_order <= board.option_order else group

    def _tile_exchanges(self) -> list[list[int]]:
        """For each two tiles of equal placements and multiplicity (next to each other in a
        class of such tiles), the option permutation that exchanges them."""
        board = self.symmetry
        placements: dict[int, dict[tuple[int, ...], int]] = {}
        for option, (tile, cover) in enumerate(
            zip(board.option_tiles, board.option_cells, strict=True)
        ):
            placements.setdefault(tile, {})[tuple(sorted(cover))] = option
        classes: dict[tuple[frozenset[tuple[int, ...]], int, int | None], list[int]] = {}
        for tile, covers in placements.items():
            spec = self.tiles[tile]
            classes.setdefault((frozenset(covers), spec.lo, spec.hi), []).append(tile)
        exchanges = []
        for tiles in classes.values():
            for a, b in itertools.pairwise(tiles):
                perm = list(range(self.problem.n_options))
                for cover, option in placements[a].items():
                    other = placements[b][cover]
                    perm[option], perm[other] = other, option
                exchanges.append(perm)
        return exchanges

    @property
    def symmetry(self) -> BoardSymmetry:
        """The symmetries of the board acting on this tiling problem (computed once)."""
        return self.board_symmetry()

    def board_symmetry(self, deadline: float | None = None) -> BoardSymmetry:
        """:attr:`symmetry`, computed once, by ``deadline`` (a ``time.monotonic()``
        instant: past it, :class:`~excover.LimitReached`)."""
        if self._symmetry is None:
            from excover.tiling.symmetry import BoardSymmetry

            self._symmetry = BoardSymmetry(self, deadline)
        return self._symmetry

    def _repr_svg_(self) -> str:
        """The board alone (for a viewer without HTML; a notebook shows
        :meth:`_repr_html_`, the board with its pieces)."""
        from excover.tiling.render import pattern_svg

        return pattern_svg(self.board)

    def _repr_html_(self) -> str:
        """What a notebook shows: the problem, which is the board (for a board of a solid
        grid its layers beside its isometric view) and beside it the pieces, each named, with how
        many times it is used when that is not exactly once. No search is run."""
        from excover.tiling.render import (
            pattern_isometric_svg,
            pattern_svg,
            pieces_svg,
            views_html,
        )

        pieces = pieces_svg({_piece_label(tile): tile.shape for tile in self.tiles})
        if not self.grid.solid:
            return views_html(pattern_svg(self.board), pieces)
        return views_html(pattern_svg(self.board), pattern_isometric_svg(self.board), pieces)

    def __repr__(self) -> str:
        return (
            f"<Tiling: {len(self.cells)} cells, {len(self.tiles)} tiles, "
            f"{self.problem.n_options} placements>"
        )


def area_obstruction(area: int, tiles: Sequence[Tile]) -> str | None:
    """Why tiles of these sizes and multiplicities cannot cover exactly ``area`` cells, or
    None when some choice of copies adds up to it.

    The sums the tiles can make are a set of integers up to ``area`` (a Python int used
    as a bit set), grown tile by tile: a tile used k times, ``lo <= k <= hi``, adds k times
    its size. This takes O(tiles x area x copies / 64) word operations, nothing next to a
    search, and catches boards that no search could tile (12 pentominoes on 64 cells).
    """
    window = (1 << (area + 1)) - 1
    reachable = 1  # the empty sum
    for tile in tiles:
        most = area // tile.size if tile.hi is None else min(tile.hi, area // tile.size)
        if tile.lo > most:
            return (
                f"tile {tile.name} must be used at least {tile.lo} times, "
                f"but {tile.lo} copies of {tile.size} cells do not fit in {area} cells"
            )
        grown = 0
        for copies in range(tile.lo, most + 1):
            grown |= reachable << (copies * tile.size)
        reachable = grown & window
    if reachable >> area & 1:
        return None
    if all(tile.lo == tile.hi for tile in tiles):
        total = sum(tile.size * tile.lo for tile in tiles)
        return f"the tiles, each used as often as required, cover {total} cells, not {area}"
    sizes = sorted({(str(tile.name), tile.size, tile.lo, tile.hi) for tile in tiles})
    summary = ", ".join(
        f"{name} ({size} cells, {lo}..{'any' if hi is None else hi} times)"
        for name, size, lo, hi in sizes[:6]
    )
    more = f" and {len(sizes) - 6} more" if len(sizes) > 6 else ""
    return f"no choice of tiles covers exactly {area} cells: {summary}{more}"


def _bounds(tile: Tile, board_size: int) -> tuple[int, int]:
    """A tile's multiplicity range for the engines, with bounds beyond the number of copies
    that fit on the board brought down to it (plus one for a lower bound, which stays out
    of reach): unbounded and huge ranges then stay within the engines' integers."""
    fit = board_size // tile.size
    lo = min(tile.lo, fit + 1)
    hi = fit if tile.hi is None else min(tile.hi, fit)
    return lo, max(hi, lo, 1)


def _piece_label(tile: Tile) -> str:
    """A tile's name, with its multiplicity when it is not exactly once: ``V x2``,
    ``V 0-1``, ``V 0+``."""
    name = tile.name or "?"
    if (tile.lo, tile.hi) == (1, 1):
        return name
    if tile.hi is None:
        return f"{name} {tile.lo}+"
    return f"{name} x{tile.lo}" if tile.lo == tile.hi else f"{name} {tile.lo}-{tile.hi}"


def _named(tiles: list[Tile], grid: Grid, board_size: int, merge: bool) -> list[Tile]:
    """The tiles with names given to unnamed ones, checked, and merged when asked to."""
    named: list[Tile] = []
    for number, tile in enumerate(tiles):
        if not isinstance(tile, Tile):
            raise UsageError(f"tile {number} is not a Tile: {tile!r}")
        if tile.grid is not grid:
            raise UsageError(
                f"tile {tile.name or number!r} is on the {tile.grid.name} grid, "
                f"the board on the {grid.name} grid"
            )
        if tile.name is None:
            tile = Tile(tile.shape, f"t{number}", tile.multiplicity, tile.group)
        if tile.size > board_size and tile.lo > 0:
            # a tile that may stay unused is simply never placed (a catalog on a small board)
            raise UsageError(
                f"tile {tile.name!r} has {tile.size} cells, more than the board's "
                f"{board_size}, and must be used at least {tile.lo} time(s)"
            )
        named.append(tile)
    names = [tile.name for tile in named]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"two tiles are named {name!r}")
    if not merge:
        return named
    merged: dict[frozenset[bytes], list[Tile]] = {}
    for tile in named:
        merged.setdefault(tile.orientation_keys(), []).append(tile)
    result = []
    for group in merged.values():
        if len(group) == 1:
            result.append(group[0])
            continue
        lo = sum(t.lo for t in group)
        his = [t.hi for t in group]
        hi = None if None in his else sum(h for h in his if h is not None)
        first = group[0]
        result.append(Tile(first.shape, first.name, (lo, hi), first.group))
    return result


class _CellFinder:
    """Finds every translate of a shape lying on the board, with numpy.

    The board's cells are numbered in a dense array over their bounding box (-1 for
    holes). For a shape, a translation is valid when every cell of the shape lands on a
    board cell: one boolean array over all candidate translations, AND-ed with the board
    mask shifted by each cell of the shape, finds them all at once.
    """

    def __init__(self, grid: Grid, cells: Coords) -> None:
        self.grid = grid
        self.low = cells.min(axis=0)
        extent = tuple(int(v) for v in cells.max(axis=0) - self.low + 1)
        try:
            self.index = np.full(extent, -1, dtype=np.int64)
        except (ValueError, MemoryError):  # only far-apart cells of a frameless grid
            box = "x".join(str(v) for v in extent)
            raise UsageError(f"the board's cells span a {box} box, too large to index") from None
        self.index[tuple((cells - self.low).T)] = np.arange(len(cells))
        self.mask = self.index >= 0

    def placements(self, shape: Coords) -> IntArray:
        """The board cell numbers covered by each translate of ``shape`` on the board, one
        row per translate (in the order of the shape's cells), translates in lexicographic
        order."""
        smin = shape.min(axis=0)
        room = np.array(self.index.shape) - (shape.max(axis=0) - smin)
        if np.any(room <= 0):
            return np.zeros((0, len(shape)), dtype=np.int64)
        valid = np.ones(tuple(int(v) for v in room), dtype=bool)
        for cell in (shape - smin).tolist():
            valid &= self.mask[tuple(slice(c, c + r) for c, r in zip(cell, room, strict=True))]
        moves = np.argwhere(valid) + (self.low - smin)
        moves = moves[self.grid.translations_ok(moves)]
        spots = moves[:, None, :] + (shape - self.low)[None, :, :]  # (moves, cells, axes)
        result: IntArray = self.index[tuple(np.moveaxis(spots, 2, 0))]
        return result


class TilingSolution:
    """One tiling: its placements, drawn by :meth:`ascii` and :meth:`svg`."""

    def __init__(self, tiling: Tiling, placements: list[Placement]) -> None:
        self.tiling = tiling
        self.placements = placements

    @property
    def options(self) -> list[int]:
        """The option indices of the placements in the exact cover problem."""
        return [p.option for p in self.placements]

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    def __len__(self) -> int:
        return len(self.placements)

    def ascii(self) -> str:
        """The tiling as text, one character per placement (see
        :func:`excover.tiling.render.solution_ascii`)."""
        from excover.tiling.render import solution_ascii

        return solution_ascii(self)

    def svg(self, cell_size: float = 24.0, *, each_piece: bool = False) -> str:
        """The tiling as an SVG picture: one colour per tile (with ``each_piece``, one per
        placement), borders between pieces; a cubic tiling layer by layer."""
        from excover.tiling.render import solution_svg

        return solution_svg(self, cell_size, each_piece=each_piece)

    def write_svg(
        self, path: str | os.PathLike[str], cell_size: float = 24.0, *, each_piece: bool = False
    ) -> None:
        """Write :meth:`svg` to a file (whole: :func:`excover.atomic.write_whole`)."""
        write_whole(path, self.svg(cell_size, each_piece=each_piece), follow_links=True)

    def isometric_svg(self, cell_size: float = 24.0, *, each_piece: bool = True) -> str:
        """A tiling of a solid grid as an isometric SVG picture, each placement in its own
        colour (see :mod:`excover.tiling.isometric`)."""
        from excover.tiling.isometric import solution_isometric_svg

        return solution_isometric_svg(self, cell_size, each_piece=each_piece)

    def exploded_svg(self, cell_size: float = 24.0, explode: float = 0.6) -> str:
        """A tiling of a solid grid as an isometric SVG picture with its pieces pulled apart
        from the centre (``explode`` times their offsets from it), each in its own colour,
        so that inner pieces show (see :mod:`excover.tiling.solidview`)."""
        from excover.tiling.colours import tile_colour
        from excover.tiling.isometric import isometric_grid
        from excover.tiling.solidview import solid_svg

        grid = isometric_grid(self.tiling.grid)
        pieces = [p.cells for p in self.placements]
        fills = [tile_colour(number) for number in range(len(pieces))]
        return solid_svg(grid, pieces, fills, cell_size, explode)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        """What a notebook shows: the picture, and for a tiling of a solid grid its layers
        beside its isometric and exploded views, each piece in its own colour."""
        if not self.tiling.grid.solid:
            return self.svg()
        from excover.tiling.render import views_html

        return views_html(self.svg(each_piece=True), self.isometric_svg(), self.exploded_svg())

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        return f"<TilingSolution: {len(self.placements)} placements>"
