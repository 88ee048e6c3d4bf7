"""The assemblies of a BurrTools problem, as pieces placed in the result.

An :class:`Assembly` is what the disassembler starts from: each piece's filled voxels
where the assembly puts them, the piece's shape (its number in the puzzle, for names and
groups) and its weight. Pieces are numbered as BurrTools numbers them: the problem's
shapes in their order, the copies of one shape one after another, ordered by their
placements as BurrTools orders them (the order of their options in the exact cover
problem: :mod:`excover.burr.xmpuzzle.breaking`), unplaced copies of a ranged shape
left out.

:func:`assemblies` finds the assemblies the way ``excover count FILE.xmpuzzle
--up-to-symmetry`` counts them (:meth:`ExactCover.from_burrtools
<excover.ExactCover.from_burrtools>`, one assembly per class under the result's
symmetries, as BurrTools counts them), each class's the one BurrTools keeps, and
:func:`assembly_of` decodes one solution of that exact cover problem.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import cast

import numpy as np
import numpy.typing as npt

from excover.burr import _orbits
from excover.burr.xmpuzzle import BurrPuzzle
from excover.burr.xmpuzzle.cover import breaker, group_elements, item_voxels, kind_name
from excover.engines import Search
from excover.errors import LimitReached, UsageError
from excover.permutations import Automorphism
from excover.solving import ExactCover
from excover.solving.registry import SCOUT_NODES
from excover.symmetry.widened import InsideRows

__all__ = ["PLAIN_NODES", "AssembledPiece", "Assembly", "assemblies", "assembly_of", "cover_of"]

#: The most search nodes a plain search may take to list every solution of a problem
#: (a piece pinned) before its symmetry-broken search is run instead: the bound of a
#: count's scout (a search so short breaks no group), 20,000 nodes, a few milliseconds
#: to a few tens on BurrTools' examples, about what the broken search's own set-up
#: costs (its base, the partial solutions of the base and their orbits).
PLAIN_NODES = SCOUT_NODES

#: A voxel position.
Voxel = tuple[int, int, int]


@dataclass(frozen=True)
class AssembledPiece:
    """One piece of an assembly: the shape it is a copy of (its number in the puzzle),
    the problem's part it belongs to (its index in the problem's ``<shapes>``), its
    weight and its filled voxels in the assembled position."""

    shape: int
    part: int
    weight: int
    voxels: tuple[Voxel, ...]


@dataclass(frozen=True)
class Assembly:
    """The pieces of one assembly, numbered as BurrTools numbers them, and the groups
    of the problem's parts: ``groups[part]`` is that part's ``(group, count)`` pairs
    (group 0: none), BurrTools' pieces that may stay together. ``options`` are the
    options of the exact cover solution it was decoded from (empty when built by hand);
    ``grid`` is BurrTools' grid number (0 cubes, 1 triangular prisms), which gives the
    directions of the moves."""

    pieces: tuple[AssembledPiece, ...]
    groups: tuple[tuple[tuple[int, int], ...], ...] = ()
    options: tuple[int, ...] = ()
    grid: int = 0

    @classmethod
    def made(
        cls,
        pieces: tuple[AssembledPiece, ...],
        groups: tuple[tuple[tuple[int, int], ...], ...],
        options: tuple[int, ...],
        grid: int,
    ) -> Assembly:
        """``Assembly(pieces, groups, options, grid)`` made without the frozen
        dataclass's ``__init__`` (which sets each field through ``object.__setattr__``):
        the decoder makes one a solution, a thousand for some of BurrTools' examples."""
        found = object.__new__(cls)
        found.__dict__.update(pieces=pieces, groups=groups, options=options, grid=grid)
        return found

    @classmethod
    def of_voxels(cls, pieces: Sequence[Sequence[Voxel]], grid: int = 0) -> Assembly:
        """An assembly of the given voxel sets, each its own shape, without groups (for
        designs made in Python and for tests), on BurrTools' grid ``grid``."""
        return cls(
            tuple(
                AssembledPiece(k, k, 1, tuple(sorted(tuple(int(c) for c in v) for v in voxels)))  # type: ignore[misc]
                for k, voxels in enumerate(pieces)
            ),
            grid=grid,
        )


def cover_of(puzzle: BurrPuzzle, problem: int) -> ExactCover:
    """The exact cover problem of ``problem`` whose solutions are the assemblies."""
    return ExactCover.from_burrtools(puzzle, problem)


class _Decoder:
    """The assemblies of the solutions of ``cover`` (made by :func:`cover_of`), each
    option's piece made once: an option places one piece (its kind's item and the voxels
    it covers) or a hole (a problem with maxHoles: no piece)."""

    def __init__(self, puzzle: BurrPuzzle, problem: int, cover: ExactCover) -> None:
        self.puzzle = puzzle
        self.spec = spec = puzzle.problems[problem]
        self.cover = cover
        kinds = {
            kind_name(puzzle, part.shape): k for k, part in enumerate(spec.parts) if part.hi > 0
        }
        #: The part of each item naming a kind.
        self.kind: list[int | None] = [kinds.get(name) for name in cover.items]
        data = cover.engine_input()
        self.starts, self.items = data.option_start, data.node_item
        self.pieces: dict[int, tuple[int, AssembledPiece] | None] = {}
        #: The voxel each item names, None for the kinds' items and the holes'.
        self.voxel_of = item_voxels(puzzle, problem)
        self.groups = tuple(part.groups for part in spec.parts)
        self.grid = puzzle.grid
        #: Whether some option met so far places a hole (no piece).
        self.holes = False

    def piece(self, option: int) -> tuple[int, AssembledPiece] | None:
        """The piece ``option`` places, after the number that orders the pieces of an
        assembly (the option's own: its part, then its placement in BurrTools' order),
        None for a hole."""
        if option not in self.pieces:
            items = self.items[self.starts[option] : self.starts[option + 1]]
            part = next((k for i in items if (k := self.kind[i]) is not None), None)
            if part is None:
                self.pieces[option] = None
                self.holes = True
            else:
                of = self.voxel_of
                voxels = tuple(sorted([v for i in items if (v := of[i]) is not None]))
                shape = self.spec.parts[part].shape
                piece = AssembledPiece(shape, part, self.puzzle.shapes[shape].weight, voxels)
                self.pieces[option] = (option, piece)
        return self.pieces[option]

    def assembly(self, options: Sequence[int]) -> Assembly:
        """The assembly of one solution, its options in increasing order."""
        known = self.pieces  # each option's piece, once made (most are, past the first)
        try:
            placed = [known[option] for option in options]
        except KeyError:
            placed = [self.piece(option) for option in options]
        if self.holes and None in placed:
            placed = [found for found in placed if found is not None]
        pieces = cast("list[tuple[int, AssembledPiece]]", placed)
        pieces.sort()  # by the numbers, which differ
        return Assembly.made(
            tuple([piece for _, piece in pieces]),
            self.groups,
            tuple(options),
            self.grid,
        )

    def assemblies(
        self, table: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64]
    ) -> list[Assembly]:
        """The assemblies of many solutions at once: the rows of ``table``, their
        options sorted and padded (see :meth:`_Orbits.smallest_members`),
        ``lengths[k]`` options in row ``k``. Each option's piece is made and ranked
        once, and the rows are decoded in compiled code
        (:func:`excover.burr._orbits.decoded`)."""
        n_options = self.cover.n_options
        used = np.unique(table)
        made = [
            (found, option)
            for option in used[used < n_options].tolist()
            if (found := self.piece(option)) is not None
        ]
        made.sort(key=lambda known: known[0][0])  # options tied never meet in a solution
        piece_of: list[AssembledPiece | None] = [None] * n_options
        rank = np.full(n_options, -1, dtype=np.int64)  # -1: a hole, no piece
        for place, ((_, piece), option) in enumerate(made):
            piece_of[option] = piece
            rank[option] = place
        return cast(
            "list[Assembly]",
            _orbits.decoded(table, lengths, rank, piece_of, self.groups, self.grid, Assembly.made),
        )


def assembly_of(
    puzzle: BurrPuzzle, problem: int, cover: ExactCover, options: Sequence[int]
) -> Assembly:
    """The assembly of one solution (``options``) of ``cover`` (made by :func:`cover_of`)."""
    return _Decoder(puzzle, problem, cover).assembly(sorted(options))


def assemblies(
    puzzle: BurrPuzzle, problem: int = 0, deadline: float | None = None
) -> Iterator[Assembly]:
    """Every assembly of problem ``problem`` of the puzzle, one per class under the
    result's symmetries, the one BurrTools keeps (docs/burr.md, "Which assembly of a
    symmetry class"): the member of the class whose sorted list of options is the
    smallest, the option of the piece BurrTools compares first (its symmetry breaker,
    :func:`~excover.burr.xmpuzzle.cover.breaker`) before the others. When only some
    assemblies have mirror images (a :class:`~excover.problem.Widening` of the
    rotations), the classes of the others (under the rotations), then theirs (under
    the whole group).

    One piece that every symmetry leaves as it is (a shape used once, not swapped with
    a mirror partner) is *pinned*: only the placements that are the smallest of their
    orbit are kept (every orbit of assemblies has a member that places the piece so).
    When a plain search of what is left lists every solution within
    :data:`PLAIN_NODES` nodes, the smallest member of each orbit met stands for it
    (on such small problems the symmetry-broken search costs more than it saves);
    otherwise the symmetry-broken search of the whole problem gives one member of each
    orbit, and again its smallest member stands for it.

    ``deadline`` (a ``time.monotonic()`` instant) bounds the search for them: past it,
    :class:`~excover.LimitReached` (reason ``"timeout"``) where the listing stands."""
    if not 0 <= problem < len(puzzle.problems):
        raise UsageError(f"{puzzle.source}: no problem {problem}")
    cover = cover_of(puzzle, problem)
    decoder = _Decoder(puzzle, problem, cover)
    widening = cover.declared_widening()
    if widening is None:
        yield from _members(
            cover, decoder, _first_options(puzzle, problem, cover), deadline=deadline
        )
        return
    # a widening comes with ranges, and then BurrTools compares no piece first
    yield from _members(
        cover, decoder, None, outside=InsideRows(cover, widening), deadline=deadline
    )
    inside = widening.problem
    assert isinstance(inside, ExactCover)  # derived from ``cover``: of its class
    yield from _members(inside, decoder, None, np.asarray(widening.options), deadline=deadline)


def _first_options(puzzle: BurrPuzzle, problem: int, cover: ExactCover) -> tuple[int, int] | None:
    """The options (``first:last``, the options of one kind are consecutive) of the
    piece BurrTools compares first, or None."""
    part = breaker(puzzle, problem)
    if part is None:
        return None
    item = cover.primary_position(kind_name(puzzle, puzzle.problems[problem].parts[part].shape))
    data = cover.engine_input()
    starts = np.frombuffer(data.option_start, dtype=np.intc)
    nodes = np.flatnonzero(np.frombuffer(data.node_item, dtype=np.intc) == item)
    owners = np.searchsorted(starts, nodes, side="right") - 1
    if not len(owners):
        return None
    return int(owners[0]), int(owners[-1]) + 1


def _members(
    cover: ExactCover,
    decoder: _Decoder,
    first: tuple[int, int] | None,
    options: npt.NDArray[np.int64] | None = None,
    outside: InsideRows | None = None,
    deadline: float | None = None,
) -> Iterator[Assembly]:
    """The assemblies of the classes of the solutions of ``cover`` under the group it
    declares, the options ``first`` compared first; ``options``: the number in the
    decoder's problem of each option of ``cover`` (a sub-problem's), when not the same;
    ``outside``: the solutions to leave out, those of a widening's sub-problem;
    ``deadline``: the instant the symmetry-broken search stops at (LimitReached)."""
    # the cover module declares the result's symmetries as automorphisms
    generators = [g for g in cover.declared_symmetries() or [] if isinstance(g, Automorphism)]
    orbits = _Orbits(generators, cover.n_items, cover.n_options, first)
    number = None if options is None else np.append(options, decoder.cover.n_options)
    pinned, kept = _pinned(cover, generators, orbits)
    listed = _listed(pinned)
    if listed is not None:
        found, starts = listed
        table, lengths = orbits.smallest_members(kept[found], starts)
        if outside is not None:
            keep = ~outside.rows(table)
            table, lengths = table[keep], lengths[keep]
        if number is not None:
            table = number[table]
        yield from decoder.assemblies(table, lengths)
        return
    from excover.symmetry import Group  # only here: the small problems never need it

    group = Group.of_automorphisms(cover, generators)
    timeout = None if deadline is None else max(deadline - time.monotonic(), 0.001)
    for solution in cover.solutions(up_to_symmetry=True, symmetry=group, timeout=timeout):
        smallest = orbits.smallest(solution)
        if outside is not None and outside.holds(smallest):
            continue
        yield decoder.assembly(smallest if number is None else number[smallest].tolist())


def _pinned(
    cover: ExactCover, generators: Sequence[Automorphism], orbits: _Orbits
) -> tuple[ExactCover, npt.NDArray[np.int64]]:
    """``cover`` with one piece pinned (see :func:`assemblies`): of the primary items
    that every generator fixes and that are covered exactly once, the one with the
    smallest share of options that are the smallest of their orbit keeps only those;
    and the number in ``cover`` of each option kept. ``cover`` itself when none is cut."""
    data = cover.engine_input()
    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    lo = np.frombuffer(data.lo, dtype=np.intc)
    hi = np.frombuffer(data.hi, dtype=np.intc)
    lengths = np.diff(starts)
    fixed = np.zeros(cover.n_items, dtype=bool)
    fixed[: len(lo)] = (lo == 1) & (hi == 1)
    for g in generators:
        fixed &= g.items == np.arange(cover.n_items)
    every = np.arange(cover.n_options, dtype=np.int64)
    smallest = orbits.stacked.min(axis=0) == every
    # for each item fixed, the share of its options that are the smallest of their orbit
    # (the nodes of fixed items, a few of all, looked at apart: one pass over the nodes)
    on = np.flatnonzero(fixed[items])
    fixed_items = items[on]
    owner = np.searchsorted(starts, on, side="right") - 1  # the option of each
    smallest_on = smallest[owner]
    held = np.bincount(fixed_items, minlength=cover.n_items)
    share = np.bincount(fixed_items, smallest_on, minlength=cover.n_items)
    share = np.divide(share, held, out=np.ones(cover.n_items), where=held > 0)
    item = int(share.argmin()) if len(share) else 0
    if not len(share) or share[item] == 1:
        return cover, every
    keep = np.ones(cover.n_options, dtype=bool)
    keep[owner[(fixed_items == item) & ~smallest_on]] = False
    chosen = every[keep]
    firsts = np.concatenate([[0], np.cumsum(lengths[chosen])])
    nodes = np.repeat(keep, lengths)  # the nodes of the options kept
    colors = np.frombuffer(data.node_color, dtype=np.intc)
    pinned = cover.derive()
    for other in np.flatnonzero((lo != 1) | (hi != 1)).tolist():
        pinned.set_multiplicity(other, int(lo[other]), int(hi[other]))
    # the options of a checked problem, taken as they are
    kept_colors = colors[nodes].astype(np.int64)
    pinned._add_checked_options(firsts, items[nodes], kept_colors, cover.color_names)
    return pinned, chosen


def _listed(cover: ExactCover) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None:
    """Every solution of ``cover`` when a plain search finds them within
    :data:`PLAIN_NODES` nodes, as :meth:`Search.solution_table
    <excover.engines.Search.solution_table>` gives them (their options, where each
    starts); else None."""
    try:
        return Search(cover, max_nodes=PLAIN_NODES).solution_table()
    except LimitReached:
        return None


class _Orbits:
    """The orbits of solutions under the group ``generators`` generate (automorphisms
    of a problem of ``n_items`` items and ``n_options`` options), small enough to list
    (BurrTools' grids have at most 48 symmetries): their smallest members, comparing
    sorted option lists, the options ``first:last`` (``first``, when given) before the
    others (as if numbered first: a *rank*)."""

    def __init__(
        self,
        generators: Sequence[Automorphism],
        n_items: int,
        n_options: int,
        first: tuple[int, int] | None = None,
    ) -> None:
        pairs = [(g.items, g.options) for g in generators]
        self.elements = [g for _, g in group_elements(pairs, (n_items, n_options)).values()]
        #: Each option's rank, and the option of each rank (and the padding's, last).
        self.rank = np.arange(n_options, dtype=np.int64)
        if first is not None:
            low, high = first
            self.rank[low:high] = np.arange(high - low)
            self.rank[:low] += high - low
        self.option = np.append(np.argsort(self.rank), n_options)

    @cached_property
    def stacked(self) -> npt.NDArray[np.int64]:
        """The elements' option permutations, one row each."""
        return np.array(self.elements, dtype=np.int64).reshape(len(self.elements), -1)

    @cached_property
    def ranked(self) -> npt.NDArray[np.int64]:
        """The elements acting on ranks, one row each."""
        ranked = np.empty_like(self.stacked)
        ranked[:, self.rank] = self.rank[self.stacked]
        return ranked

    @cached_property
    def listed(self) -> list[list[int]]:
        """The elements acting on ranks, as lists, for one solution at a time."""
        return [g.tolist() for g in self.ranked]

    def smallest(self, solution: Sequence[int]) -> list[int]:
        """The smallest member of the orbit of ``solution``, its options sorted."""
        ranks = self.rank[np.asarray(solution, dtype=np.int64)].tolist()
        best = min(sorted(g[r] for r in ranks) for g in self.listed)
        return sorted(self.option[best].tolist())

    def smallest_members(
        self, options: npt.NDArray[np.int64], starts: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The smallest member of the orbit of each solution (the options of the
        ``k``-th at ``starts[k]:starts[k + 1]`` of ``options``), each orbit once, in the
        order they are first met: as a table, one row a member, its options sorted and
        padded at the end with ``n_options`` (a number no option has), and the number
        of options of each row (compiled: :func:`excover.burr._orbits.smallest_members`,
        on the ranks)."""
        n_options = self.stacked.shape[1]
        table, lengths = _orbits.smallest_members(
            self.ranked,
            np.ascontiguousarray(self.rank[options], dtype=np.int64),
            np.ascontiguousarray(starts, dtype=np.int64),
            n_options,
        )
        if self.option[0] != 0:  # ranks other than the options' own numbers
            table = np.sort(self.option[table], axis=1)
        return np.ascontiguousarray(table), lengths
