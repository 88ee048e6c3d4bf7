"""Make a tiling puzzle unique: the smallest changes that leave exactly one solution.

A designer's puzzle (a board and its pieces) with several solutions becomes a puzzle with
one in two ways, and :func:`make_unique` proposes the smallest changes of each:

- **Pre-placed pieces.** Fixing a placement in advance leaves exactly the solutions that
  contain it, so one listing of the solutions says, for every placement, how many
  solutions contain it: those contained in exactly one are the one-piece proposals. When
  there is none, a pair (then a triple, ...) of placements of one solution that no other
  solution holds together is a proposal of two (three, ...) pieces.
- **Removed cells.** A tiling of the board less a set R of k cells is a tiling of the
  whole board by the pieces and k holes (a one-cell tile used k times) whose holes fall on
  R; so one listing of the board with k holes gives, for every set of k cells, the number
  of tilings left once those cells are removed. Cells can go only where the pieces' area
  allows it: pieces that may be left out (``maybe``, ``any``, ranges), or a board with
  spare cells (larger than the pieces, so that it has no tiling until exactly that many
  cells are removed). The fewest cells are tried first.

Every proposal is proved by an exact count of the changed puzzle, built anew as a
:class:`Tiling` (the board less the removed or pre-placed cells, the pieces less the
pre-placed ones): a complete search, stopped at a second solution, that finds exactly
one.

The listing stops after ``limit`` solutions. Beyond, each placement (each cell) is
checked on its own by such a search, the placements seen in one listed solution first
(one seen in two is out), which settles the one-piece (one-cell) proposals; larger ones
are then only looked for among the listed solutions, and the report says that their
search was cut short by the limit. A ``timeout`` stops everything, with what was proved
so far.

A tiling with no solution gets its diagnosis: the cells that no placement covers at all,
or, when there are none, that the pieces can cover every cell but not all together.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from excover.deadlines import check
from excover.errors import LimitReached, UsageError
from excover.solving import ExactCover
from excover.tiling.pattern import Pattern, Pattern3
from excover.tiling.tile import Shape, Tile
from excover.tiling.tiling import Placement, Tiling, TilingSolution, area_obstruction

__all__ = ["DEFAULT_LIMIT", "Proposal", "Uniqueness", "make_unique"]

Cell = tuple[int, ...]
#: A candidate to prove: options to pre-place, or the numbers of cells to remove.
_Candidate = TypeVar("_Candidate", list[int], tuple[int, ...])

#: Solutions listed at most, by default, before placements are checked one by one.
DEFAULT_LIMIT = 10_000
#: The most pre-placed pieces, and removed cells, a proposal has by default.
DEFAULT_MAX_PIECES = 3
DEFAULT_MAX_CELLS = 4
#: Where the listing and the proofs check the deadline between searches: every this
#: many candidates.
_CHECK_EVERY = 256
#: The fill of free board cells and of removed ones in pictures.
_FREE = "#c8ccd4"
_REMOVED = "#33363d"


@dataclass(frozen=True)
class Proposal:
    """One change that leaves exactly one solution: pieces pre-placed (``placed``,
    placements of the original tiling) or cells removed (``removed``).

    ``puzzle`` is the changed puzzle, built anew (None when the pre-placed pieces cover
    the whole board); ``count`` is its number of solutions, 1, found by a complete search;
    ``solution`` is that one solution, drawn on the original board for pre-placed pieces
    (they are part of it), on the changed board for removed cells.
    """

    tiling: Tiling
    placed: tuple[Placement, ...]
    removed: tuple[Cell, ...]
    puzzle: Tiling | None
    solution: TilingSolution
    count: int

    @property
    def kind(self) -> str:
        """``"place"`` (pre-placed pieces) or ``"remove"`` (removed cells)."""
        return "place" if self.placed else "remove"

    def describe(self) -> str:
        """The change in words: ``place I on 0,0 1,0 2,0 3,0 4,0`` or ``remove 3,2 4,4``."""
        name = self.tiling.grid.cell_name
        if self.placed:
            return "; ".join(
                f"place {p.tile.name} on {' '.join(name(cell) for cell in p.cells)}"
                for p in self.placed
            )
        return "remove " + " ".join(name(cell) for cell in self.removed)

    def ascii(self, *, solved: bool = False) -> str:
        """The changed puzzle as text: the board (``.`` free cells) with the pre-placed
        pieces, or with the removed cells marked ``x``; with ``solved``, its one solution."""
        if solved:
            return self.solution.ascii()
        if self.placed:
            return TilingSolution(self.tiling, list(self.placed)).ascii()
        # the removed cells drawn as one piece named x (a mark, not a placement)
        marker = Tile(_cells_shape(self.tiling.board, self.removed[:1]), "x")
        return TilingSolution(self.tiling, [Placement(marker, 0, self.removed, -1)]).ascii()

    def svg(self, cell_size: float = 24.0, *, solved: bool = False) -> str:
        """The changed puzzle as SVG: the board's free cells grey, the pre-placed pieces in
        colour or the removed cells dark; with ``solved``, its one solution, each piece in
        its own colour."""
        if solved:
            return self.solution.svg(cell_size, each_piece=True)
        return board_svg(self.tiling, self.placed, self.removed, cell_size)

    def to_json(self) -> dict[str, Any]:
        """The proposal as JSON: its kind, pieces (tile and cells) or removed cells, the
        count that proves it, and its one solution."""
        return {
            "kind": self.kind,
            "change": self.describe(),
            "pieces": [_placement_json(p) for p in self.placed],
            "cells": [list(cell) for cell in self.removed],
            "count": self.count,
            "puzzle": self.ascii(),
            "solution": {
                "placements": [_placement_json(p) for p in self.solution.placements],
                "ascii": self.solution.ascii(),
            },
        }


@dataclass
class Uniqueness:
    """What :func:`make_unique` found.

    ``solutions``: the solutions of the tiling listed (all of them when ``listed_all``,
    else the first ``limit``). ``unique``: the solution, when it is the only one.
    ``placed`` and ``removed``: the proposals of the fewest pre-placed pieces and of the
    fewest removed cells (at most ``max_proposals`` of each, in order), ``placed_total``
    and ``removed_total`` how many changes of that size leave one solution in all (as the
    listing knows them; None when unknown). ``uncoverable``: for a tiling without
    solution, the cells that no placement covers. ``notes``: why a kind of change has no
    proposal, or what the limits left unsearched. ``stopped_by``: ``"limit"`` when the
    limit left a search incomplete, ``"timeout"`` when the deadline stopped the work,
    else None.
    """

    tiling: Tiling
    solutions: int = 0
    listed_all: bool = False
    unique: TilingSolution | None = None
    placed: list[Proposal] = field(default_factory=list)
    removed: list[Proposal] = field(default_factory=list)
    placed_total: int | None = None
    removed_total: int | None = None
    uncoverable: list[Cell] | None = None
    notes: list[str] = field(default_factory=list)
    stopped_by: str | None = None

    @property
    def proposals(self) -> list[Proposal]:
        """Every proposal: the pre-placed pieces, then the removed cells."""
        return self.placed + self.removed

    @property
    def complete(self) -> bool:
        """Whether nothing stopped the search early."""
        return self.stopped_by is None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (the counts, proposals, diagnosis and notes)."""
        name = self.tiling.grid.cell_name
        return {
            "listed": self.solutions,
            "listed_all": self.listed_all,
            "unique": None if self.unique is None else self.unique.ascii(),
            "placed": [p.to_json() for p in self.placed],
            "placed_total": self.placed_total,
            "removed": [p.to_json() for p in self.removed],
            "removed_total": self.removed_total,
            "uncoverable": None
            if self.uncoverable is None
            else [name(cell) for cell in self.uncoverable],
            "notes": self.notes,
        }


def make_unique(
    tiling: Tiling,
    *,
    limit: int = DEFAULT_LIMIT,
    timeout: float | None = None,
    max_pieces: int = DEFAULT_MAX_PIECES,
    max_cells: int = DEFAULT_MAX_CELLS,
    max_proposals: int | None = None,
    place: bool = True,
    remove: bool = True,
) -> Uniqueness:
    """The smallest changes of ``tiling`` that leave exactly one solution (see the
    module's description): pre-placed pieces (at most ``max_pieces``) when ``place``,
    removed cells (at most ``max_cells``) when ``remove``, each proved by an exact count
    of the changed puzzle; at most ``max_proposals`` of each kind (None: all). At most
    ``limit`` solutions of a problem are listed; ``timeout`` seconds bound the whole work
    (the report then holds what was proved so far)."""
    if not isinstance(tiling, Tiling):
        raise UsageError(f"make_unique takes a Tiling, not {tiling!r}")
    for name, value, least in (
        ("limit", limit, 1),
        ("max_pieces", max_pieces, 1),
        ("max_cells", max_cells, 0),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UsageError(f"{name} must be an integer >= {least}, not {value!r}")
    if max_proposals is not None and (
        isinstance(max_proposals, bool) or not isinstance(max_proposals, int) or max_proposals < 0
    ):
        raise UsageError(f"max_proposals must be None or an integer >= 0, not {max_proposals!r}")
    if timeout is not None and (isinstance(timeout, bool) or not timeout >= 0):
        raise UsageError(f"timeout must be None or a number of seconds >= 0, not {timeout!r}")
    deadline = None if timeout is None else time.monotonic() + timeout
    work = _Work(tiling, limit, deadline, max_proposals)
    try:
        work.run(place, remove, max_pieces, max_cells)
    except LimitReached:
        work.report.stopped_by = "timeout"
        work.report.notes.append("stopped by the timeout: the proposals so far are proved")
    return work.report


@dataclass(eq=False)
class _Work:
    """The state of one :func:`make_unique`: the report, filled in as it goes (a timeout
    leaves what was proved)."""

    tiling: Tiling
    limit: int
    deadline: float | None
    max_proposals: int | None
    report: Uniqueness = field(init=False)
    #: The original tiling's options by tile name and cell numbers, and the numbers of
    #: its cells (made when first needed, by :meth:`_original`).
    _options: dict[tuple[str, tuple[int, ...]], int] | None = field(default=None, init=False)
    _numbers: dict[Cell, int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.report = Uniqueness(self.tiling)

    def run(self, place: bool, remove: bool, max_pieces: int, max_cells: int) -> None:
        tiling, report = self.tiling, self.report
        solutions, listed_all = (
            self._list(tiling.problem) if tiling.obstruction is None else ([], True)
        )
        report.solutions, report.listed_all = len(solutions), listed_all
        if listed_all and len(solutions) == 1:
            report.unique = tiling.decode(solutions[0])
            return
        if listed_all and not solutions:
            report.uncoverable = uncoverable_cells(tiling)
            if not report.uncoverable:
                report.notes.append(
                    "every cell can be covered by some piece, but the pieces cannot cover "
                    "them all together" + (f" ({tiling.obstruction})" if tiling.obstruction else "")
                )
        elif place:
            self._place(solutions, listed_all, max_pieces)
        if remove:
            self._remove(max_cells)

    # ----- searches -----

    def _search(self, problem: ExactCover, most: int) -> Iterator[list[int]]:
        """The solutions of ``problem``, at most ``most``, by a search bounded by the
        deadline (which raises :class:`LimitReached` when it passes)."""
        search = problem.search(max_solutions=most)
        search.deadline = self.deadline
        return search.solutions()

    def _list(self, problem: ExactCover) -> tuple[list[list[int]], bool]:
        """The first ``limit`` solutions of ``problem``, and whether they are all."""
        found = list(self._search(problem, self.limit + 1))
        return found[: self.limit], len(found) <= self.limit

    def _settle(self, puzzle: _Puzzle) -> list[list[int]]:
        """At most two solutions of a changed puzzle, by a complete search that stops at the
        second: exactly one found is an exact count of 1."""
        if puzzle.tiling is None:
            return [[]] if puzzle.empty_ok else []
        if puzzle.tiling.obstruction is not None:
            return []
        return list(self._search(puzzle.tiling.problem, 2))

    def _alone(self, problem: ExactCover, options: Sequence[int]) -> bool:
        """Whether exactly one solution of ``problem`` holds ``options`` (a search of the
        problem in which they are forced, stopped at a second solution)."""
        return len(list(self._search(_forcing(problem, options), 2))) == 1

    def _check(self, done: int) -> None:
        """Stop at the deadline (checked every :data:`_CHECK_EVERY` steps)."""
        if done % _CHECK_EVERY == 0:
            check(self.deadline, done)

    def _room(self, found: list[Proposal]) -> bool:
        return self.max_proposals is None or len(found) < self.max_proposals

    def _to_prove(
        self,
        candidates: list[_Candidate],
        found: list[Proposal],
        screen: Callable[[_Candidate], bool] | None,
    ) -> Iterator[_Candidate]:
        """The ``candidates`` that pass ``screen`` (each, when it is given), in order, until
        ``found`` holds enough proposals, the deadline checked on the way."""
        for done, candidate in enumerate(candidates, 1):
            if not self._room(found):
                return
            self._check(done)
            if screen is None or screen(candidate):
                yield candidate

    # ----- pre-placed pieces -----

    def _place(self, solutions: list[list[int]], listed_all: bool, max_pieces: int) -> None:
        report = self.report
        if listed_all:
            for size in range(1, max_pieces + 1):
                candidates = _unique_subsets(solutions, size, self._check)
                if candidates:
                    report.placed_total = len(candidates)
                    self._prove_placements(candidates)
                    return
            report.notes.append(
                f"no {max_pieces} pre-placed pieces or fewer leave exactly one solution"
            )
            return
        seen = Counter(option for solution in solutions for option in solution)
        order = sorted(range(self.tiling.problem.n_options), key=lambda o: (seen[o] != 1, o))
        checked = [[o] for o in order if seen[o] <= 1]
        problem = self.tiling.problem
        self._prove_placements(checked, lambda options: self._alone(problem, options))
        if self.report.placed:
            if self._room(self.report.placed):
                report.placed_total = len(report.placed)
            return
        report.notes.append(
            f"more than {self.limit} solutions: every placement was checked by a count, and "
            "no single pre-placed piece leaves exactly one solution; pairs need the whole "
            "list (raise the limit)"
        )
        report.stopped_by = "limit"

    def _prove_placements(
        self, candidates: list[list[int]], screen: Callable[[list[int]], bool] | None = None
    ) -> None:
        """Prove each set of options of ``candidates`` (each screened first, when
        ``screen`` is given, by a cheaper search), until there are enough proposals."""
        for options in self._to_prove(candidates, self.report.placed, screen):
            placed = tuple(self.tiling.placement(o) for o in options)
            puzzle = _changed(self.tiling, placed, ())
            found = self._settle(puzzle)
            if len(found) == 1:
                rest = [] if puzzle.tiling is None else puzzle.tiling.decode(found[0]).placements
                solution = TilingSolution(self.tiling, [*placed, *map(self._original, rest)])
                self.report.placed.append(
                    Proposal(self.tiling, placed, (), puzzle.tiling, solution, 1)
                )

    def _original(self, placement: Placement) -> Placement:
        """The placement of the original tiling that puts the same tile on the same cells
        as ``placement``, one of a changed puzzle."""
        if self._options is None:
            names = [str(tile.name) for tile in self.tiling.tiles]
            self._options = {
                (names[tile], cells): option
                for option, (tile, cells) in enumerate(
                    zip(self.tiling.option_tiles(), self.tiling.option_cells(), strict=True)
                )
            }
            self._numbers = {cell: number for number, cell in enumerate(_coords(self.tiling.board))}
        cells = tuple(sorted(self._numbers[cell] for cell in placement.cells))
        return self.tiling.placement(self._options[str(placement.tile.name), cells])

    # ----- removed cells -----

    def _remove(self, max_cells: int) -> None:
        tiling, report = self.tiling, self.report
        area = len(tiling.cells)
        sizes = [
            k
            for k in range(1, min(max_cells, area - 1) + 1)
            if area_obstruction(area - k, tiling.tiles) is None
        ]
        if not sizes:
            report.notes.append(_no_removal(tiling, max_cells))
            return
        for size in sizes:
            if self._remove_cells(size):
                return
        report.notes.append(
            f"removing {_sizes(sizes)} cells leaves no puzzle with exactly one solution"
        )

    def _remove_cells(self, size: int) -> bool:
        """Look for the sets of ``size`` cells whose removal leaves one solution; True when
        the search is over (proposals found, or a limit cut it short)."""
        tiling, report = self.tiling, self.report
        holes = _with_holes(tiling, size)
        hole = len(holes.tiles) - 1
        option_tiles = holes.option_tiles()
        option_cells = holes.option_cells()
        solutions, listed_all = self._list(holes.problem)
        sets: Counter[tuple[int, ...]] = Counter()
        for solution in solutions:
            sets[
                tuple(sorted(option_cells[o][0] for o in solution if option_tiles[o] == hole))
            ] += 1
        if listed_all:
            candidates = sorted(cells for cells, times in sets.items() if times == 1)
            if not candidates:
                return False
            report.removed_total = len(candidates)
            self._prove_removals(candidates)
            return True
        if size == 1:
            order = sorted(range(len(tiling.cells)), key=lambda c: (sets[(c,)] != 1, c))
            hole_at = {
                option_cells[o][0]: o for o in range(len(option_tiles)) if option_tiles[o] == hole
            }
            self._prove_removals(
                [(c,) for c in order if sets[(c,)] <= 1],
                lambda cells: self._alone(holes.problem, [hole_at[cells[0]]]),
            )
            if report.removed:
                if self._room(report.removed):
                    report.removed_total = len(report.removed)
                return True
            return False
        self._prove_removals(sorted(cells for cells, times in sets.items() if times == 1))
        report.notes.append(
            f"more than {self.limit} tilings with {size} cells removed: only the sets of "
            f"cells of those listed were checked (raise the limit for all)"
        )
        report.stopped_by = "limit"
        return True

    def _prove_removals(
        self,
        candidates: list[tuple[int, ...]],
        screen: Callable[[tuple[int, ...]], bool] | None = None,
    ) -> None:
        """Prove each set of cell numbers of ``candidates`` (screened first, when
        ``screen`` is given), until there are enough proposals."""
        coords = _coords(self.tiling.board)
        for numbers in self._to_prove(candidates, self.report.removed, screen):
            removed = tuple(coords[n] for n in numbers)
            puzzle = _changed(self.tiling, (), removed)
            found = self._settle(puzzle)
            if len(found) == 1 and puzzle.tiling is not None:
                solution = puzzle.tiling.decode(found[0])
                self.report.removed.append(
                    Proposal(self.tiling, (), removed, puzzle.tiling, solution, 1)
                )


# ----- the changed puzzles -----


def _forcing(problem: ExactCover, options: Sequence[int]) -> ExactCover:
    """The problem whose solutions are the solutions of ``problem`` (a tiling's) that hold
    ``options``: every other option covering a board cell of one of them left out (a
    cell, whose item comes after the tile's, is covered exactly once, so by that option)."""
    arrays = problem.engine_input()
    starts = np.asarray(arrays.option_start, dtype=np.int64)
    items = np.asarray(arrays.node_item, dtype=np.int64)
    owners = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    cells = [int(items[starts[o + 1] - 1]) for o in options]
    keep = np.ones(len(starts) - 1, dtype=bool)
    keep[owners[np.isin(items, cells)]] = False
    keep[list(options)] = True
    kept = keep[owners]
    lengths = np.diff(starts)[keep]
    forced = problem.derive()
    forced.add_options(np.concatenate([[0], np.cumsum(lengths)]), items[kept])
    for position in range(arrays.n_primary):
        lo, hi = arrays.lo[position], arrays.hi[position]
        if (lo, hi) != (1, 1):
            forced.set_multiplicity(position, lo, hi)
    return forced


@dataclass(frozen=True)
class _Puzzle:
    """A changed puzzle: its tiling, or None when no board is left (then ``empty_ok``:
    whether the empty tiling is a solution) or a piece that must be used no longer fits
    (``empty_ok`` False)."""

    tiling: Tiling | None
    empty_ok: bool = False


def _changed(tiling: Tiling, placed: Sequence[Placement], removed: Sequence[Cell]) -> _Puzzle:
    """The puzzle of ``tiling`` with the pieces ``placed`` fixed (their cells and one copy
    of their tile taken away) and the cells ``removed`` removed."""
    gone = {cell for placement in placed for cell in placement.cells} | set(removed)
    left = len(tiling.cells) - len(gone)
    used = Counter(placement.tile.name for placement in placed)
    tiles: list[Tile] = []
    for tile in tiling.tiles:
        copies = used[tile.name]
        lo = max(0, tile.lo - copies)
        hi = None if tile.hi is None else tile.hi - copies
        if hi == 0:
            continue
        if tile.size > left:
            if lo > 0:
                return _Puzzle(None, False)
            continue
        tiles.append(tile if copies == 0 else Tile(tile.shape, tile.name, (lo, hi), tile.group))
    if left == 0:
        return _Puzzle(None, True)
    return _Puzzle(Tiling(without(tiling.board, gone), tiles))


def _with_holes(tiling: Tiling, size: int) -> Tiling:
    """The tiling of the whole board by the pieces and ``size`` holes: a one-cell tile,
    the last tile, used exactly ``size`` times."""
    taken = {tile.name for tile in tiling.tiles}
    name = next(
        n for n in (f"hole{k}" if k else "hole" for k in itertools.count()) if n not in taken
    )
    first = tuple(int(v) for v in tiling.cells[0])
    hole = Tile(_cells_shape(tiling.board, [first]), name, size)
    return Tiling(tiling.board, [*tiling.tiles, hole])


def without(board: Shape, cells: Iterable[Cell]) -> Shape:
    """The pattern ``board`` less ``cells``, of the same kind."""
    gone = set(cells)
    keep = [cell for cell in _coords(board) if cell not in gone]
    return _cells_shape(board, keep)


def _cells_shape(board: Shape, cells: Sequence[Cell]) -> Shape:
    """A pattern of the same kind and grid as ``board`` holding ``cells`` (cells of the
    board): a square or cubic pattern keeps the board's frame."""
    if isinstance(board, Pattern | Pattern3):
        array = np.zeros(board.shape, dtype=bool)
        if cells:
            array[tuple(np.array(cells, dtype=np.int64).T)] = True
        return type(board)(array)
    try:
        shape: Shape = type(board)(cells)  # type: ignore[call-arg]
    except TypeError:
        shape = _Cells(board, cells)
    return shape


class _Cells:
    """Cells of a board's grid, for a board of a kind that cannot be built from cells."""

    def __init__(self, board: Shape, cells: Sequence[Cell]) -> None:
        self.grid = board.grid
        self._coords = np.array(cells, dtype=np.int64).reshape(-1, board.grid.dimension)

    def coords(self) -> Any:
        return self._coords


def _coords(board: Shape) -> list[Cell]:
    return [tuple(int(v) for v in cell) for cell in board.coords().tolist()]


# ----- the listing's arithmetic -----


def _unique_subsets(solutions: list[list[int]], size: int, check: Any) -> list[list[int]]:
    """The sets of ``size`` options that exactly one of ``solutions`` contains (sorted,
    each solution's in order): a solution's options as bit sets of the solutions holding
    them, whose intersection is that one solution alone."""
    holders: dict[int, int] = {}
    for number, solution in enumerate(solutions):
        for option in solution:
            holders[option] = holders.get(option, 0) | (1 << number)
    found: list[list[int]] = []
    done = 0
    for number, solution in enumerate(solutions):
        alone = 1 << number
        for subset in itertools.combinations(sorted(solution), size):
            done += 1
            check(done)
            common = holders[subset[0]]
            for option in subset[1:]:
                common &= holders[option]
            if common == alone:
                found.append(list(subset))
    return sorted(found)


def uncoverable_cells(tiling: Tiling) -> list[Cell]:
    """The cells of the board that no placement of any piece covers."""
    covered = set(itertools.chain.from_iterable(tiling.option_cells()))
    return [
        tuple(int(v) for v in cell)
        for number, cell in enumerate(tiling.cells.tolist())
        if number not in covered
    ]


def _no_removal(tiling: Tiling, max_cells: int) -> str:
    """Why no cell can be removed: the pieces' area."""
    area = len(tiling.cells)
    if all(tile.lo == tile.hi for tile in tiling.tiles):
        total = sum(tile.size * tile.lo for tile in tiling.tiles)
        if total >= area:
            return (
                f"cells cannot be removed: the pieces, each used a fixed number of times, "
                f"cover {total} cells, and the board has {area}"
            )
        return (
            f"the board has {area - total} cells more than the pieces cover: removing "
            f"that many is more than the {max_cells} cells allowed"
        )
    return f"removing {max_cells} cells or fewer leaves an area the pieces cannot make"


def _sizes(sizes: list[int]) -> str:
    return str(sizes[0]) if len(sizes) == 1 else f"{', '.join(map(str, sizes[:-1]))} or {sizes[-1]}"


def _placement_json(placement: Placement) -> dict[str, Any]:
    return {"tile": placement.tile.name, "cells": [list(cell) for cell in placement.cells]}


# ----- the picture -----


def board_svg(
    tiling: Tiling,
    placed: Sequence[Placement] = (),
    removed: Sequence[Cell] = (),
    cell_size: float = 24.0,
) -> str:
    """The board of ``tiling`` as SVG: its free cells grey, the pieces ``placed`` each in
    its own colour, the cells ``removed`` dark."""
    from excover.tiling.render import _svg, cell_polygons, layer_labels, tile_colour

    owner: dict[Cell, int] = {cell: -2 for cell in removed}
    for number, placement in enumerate(placed):
        for cell in placement.cells:
            owner[cell] = number
    coords = tiling.cells
    owners = [owner.get(tuple(cell), -1) for cell in coords.tolist()]
    fills = [_REMOVED if o == -2 else _FREE if o == -1 else tile_colour(o) for o in owners]
    polygons = cell_polygons(tiling.grid, coords)
    return _svg(polygons, fills, owners, cell_size, layer_labels(tiling.grid, coords), inner=True)
