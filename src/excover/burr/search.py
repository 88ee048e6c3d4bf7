"""The disassembler: breadth-first searches for separations, tried until one works.

For a part (some pieces in a configuration) :class:`excover.burr._moves.Search` runs
BurrTools' breadth-first search over configurations (translations relative to the first
piece, so that moving every piece at once changes nothing), each move one set of pieces
slid any distance along one direction. A configuration in which a set is free ends the
search in BurrTools: that is the first separation, and the number of moves to it is the
first number of the level, a breadth-first minimum. Here the search hands out that
separation and, when asked again, goes on: the other sets free in that configuration,
then the configurations further on (one in which a set is free is not moved further:
both parts are taken apart on their own from there).

:class:`Disassembler` takes each separation apart recursively (the pieces left first,
then the pieces taken out, as BurrTools does), in compiled code
(:class:`excover.burr._moves.Stages`, run by :func:`excover.burr._moves.staged` from the
assembly's pieces: one call an assembly), which keeps the tree as arrays: the
:class:`Disassembly` makes it into objects only when asked. :class:`BatchDisassembler` takes the
assemblies of a problem one after another on one :class:`excover.burr._moves.Batch` (one
part and one stage-by-stage search, their buffers kept), most of them without a
:class:`Disassembler`. BurrTools stops at the first separation
of each part; here, when that one leaves a part that does not come apart, the next is
tried, and an assembly is called stuck only once every separation has failed (which
docs/burr.md shows never changes the answer: when an assembly comes apart, so does every
part any separation leaves).

Each part's search starts from its configuration with its first piece at the origin,
so that the outcomes are remembered by configuration.
A set of pieces that does not come apart is remembered as such in every configuration:
every configuration a part of one assembly is found in can be played back to the
assembled one (moves are reversible, and a move of the whole restricted to the part is
a move of the part), and whether a part comes apart does not depend on where, among
configurations one can play back to each other, it starts (docs/burr.md's argument).
Only the first configuration a stuck set is met in is searched, which spares the
complete search most of its work on the assemblies that do not come apart.

The minimum-total mode (``min_total``) minimises the moves of the whole disassembly
instead of those of each separation in turn: the search goes on past the configurations
in which a set is free, and every separation it finds is tried (each part taken apart
in its own fewest moves, remembered by configuration), the best total kept. Each part
starts from its stage-by-stage disassembly (a part that does not come apart that way
does not at all), whose total the search must beat; it stops once a separation's own
moves, plus one move for each separation still needed by its parts (the pieces less
two, none with groups), cannot. ``beyond_greedy`` is not reported in this mode. This mode
runs in Python (its trees are told from each part's start, and :func:`_placed` puts them
where their parts start once the whole tree is known), the compiled stage-by-stage
disassembly giving each part's starting answer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from excover.burr._moves import AXES, Batch, Geometry, Part, Search, Stages, staged
from excover.burr.assembly import Assembly
from excover.burr.disassembly import (
    Disassembly,
    Move,
    PackedSeparationTree,
    Separation,
    _pieces,
    _play,
)
from excover.burr.grouping import Groups
from excover.errors import ExcoverError, MemoryBoundError, UsageError

__all__ = [
    "OUT_OF_TIME",
    "BatchDisassembler",
    "Disassembler",
    "DisassemblyBudget",
    "OutOfBudget",
    "default_memory",
    "out_of_memory",
    "stop_of",
]

Vector = tuple[int, int, int]
State = tuple[Vector, ...]


class OutOfBudget(ExcoverError):
    """The time or the state cap ran out; the message says which."""


#: The share of the machine's memory the disassembler's tables may hold by default.
MEMORY_SHARE = 0.5


@cache
def default_memory() -> int:
    """The bytes the disassembler's tables may hold when no bound is given:
    :data:`MEMORY_SHARE` of the memory this process may use (the machine's, or its
    control group's), 0 (no bound) when that is unknown; read once (an assembly is
    often taken apart in a fraction of the time reading it takes)."""
    from excover.zdd.memory import machine_memory

    memory = machine_memory()
    return 0 if memory is None else int(memory * MEMORY_SHARE)


#: The reason of an assembly stopped by the deadline.
OUT_OF_TIME = "out of time"


def out_of_memory(bound: int) -> str:
    """The reason of an assembly stopped by the bound ``bound`` (bytes) on memory."""
    from excover.numbers import byte_size

    return f"more than {byte_size(bound)} of memory"


def stop_of(reason: str) -> str | None:
    """What stopped an assembly whose ``reason`` (of being unknown) this is:
    ``"timeout"``, ``"max_states"`` or ``"max_memory"`` (the command line's names);
    None for another reason (groups that do not fit)."""
    if reason == OUT_OF_TIME:
        return "timeout"
    if reason.startswith("more than") and reason.endswith(" states"):
        return "max_states"
    if reason.startswith("more than") and reason.endswith(" of memory"):
        return "max_memory"
    return None


@dataclass
class DisassemblyBudget:
    """The limits of one assembly's disassembly: a ``time.monotonic()`` deadline, a
    cap on the configurations explored (either None: none) and a bound on the bytes
    the search's tables hold in the process (``max_memory``; 0 or None: none). The
    compiled search checks them as it goes (:class:`excover.burr._moves.Meter`)."""

    deadline: float | None = None
    max_states: int | None = None
    states: int = 0
    max_memory: int | None = None

    def spend(self, states: int) -> None:
        """Count ``states`` more configurations; raise :class:`OutOfBudget` past a limit."""
        self.states += states
        if self.max_states is not None and self.states > self.max_states:
            raise OutOfBudget(f"more than {self.max_states:,} states")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfBudget(OUT_OF_TIME)


def _placed(tree: Separation, start: State) -> Separation:
    """``tree`` (a part's separations, each told from its own start: the same
    configurations up to a translation) with each part starting where the moves before
    it leave it, the whole part starting at ``start``."""
    where = dict(zip(tree.pieces, start, strict=True))
    for move in tree.moves[:-1]:
        _play(where, move)
    parts = [
        None if part is None else _placed(part, tuple(where[p] for p in part.pieces))
        for part in (tree.left, tree.removed)
    ]
    if start == tree.start and parts[0] is tree.left and parts[1] is tree.removed:
        return tree  # in place already
    return Separation(tree.pieces, start, tree.moves, parts[0], parts[1])


@dataclass(frozen=True)
class _Outcome:
    """A part's fate: taken apart (``tree``, None for a piece or a group), ``beyond``
    true when some separation of it is not the first its search found, and the sets
    left together as groups."""

    tree: Separation | None
    beyond: bool = False
    grouped: tuple[tuple[int, ...], ...] = ()


#: The outcome of a part left as it is (a single piece, or pieces all in one group).
_ALONE = _Outcome(None)
#: The groups of an assembly without any.
_NO_GROUPS = Groups(())


@lru_cache(maxsize=64)
def _has_groups(groups: tuple[tuple[tuple[int, int], ...], ...]) -> bool:
    """Does some part of a problem belong to a group (its parts' ``(group, count)``
    pairs, group 0: none)?"""
    return any(g for pairs in groups for g, _ in pairs)


@lru_cache(maxsize=64)
def _groups_of(groups: tuple[tuple[tuple[int, int], ...], ...]) -> Groups:
    """The :class:`Groups` of a problem's parts, made once for all its assemblies."""
    return Groups(groups)


class Disassembler:
    """Disassembles the assemblies of one problem (their pieces and groups)."""

    def __init__(
        self,
        assembly: Assembly,
        budget: DisassemblyBudget,
        complete: bool = True,
        geometry: Geometry | None = None,
        min_total: bool = False,
        batch: Batch | None = None,
    ) -> None:
        if len(assembly.pieces) > 64:
            raise UsageError(
                f"an assembly of {len(assembly.pieces)} pieces: excover disassembles "
                "assemblies of at most 64 pieces"
            )
        if assembly.grid not in AXES:
            raise UsageError(
                f"excover disassembles puzzles on the cube and triangular-prism grids, "
                f"not on BurrTools' grid {assembly.grid}"
            )
        self.assembly = assembly
        self.grouped = _has_groups(assembly.groups)
        self.budget = budget
        self.complete = complete or min_total
        self.min_total = min_total
        self.geometry = Geometry(assembly.grid) if geometry is None else geometry
        if self.geometry.grid != assembly.grid:
            raise UsageError("the movement tables are for another grid than the assembly's")
        #: The compiled search's buffers, when the caller shares them between assemblies
        #: (made for :attr:`geometry`, in this mode).
        self.batch = batch

    @cached_property
    def weights(self) -> list[int]:
        """The weight of each piece."""
        return [piece.weight for piece in self.assembly.pieces]

    @cached_property
    def weighted(self) -> bool:
        """Do the pieces' weights differ?"""
        return len(set(self.weights)) > 1

    @cached_property
    def groups(self) -> Groups:
        """The groups of the problem's parts."""
        return _groups_of(self.assembly.groups) if self.grouped else _NO_GROUPS

    def run(self) -> Disassembly:
        """The disassembly of the whole assembly (as in BurrTools, groups apply to the
        parts only, and an assembly of one piece is no solution)."""
        pieces = self.assembly.pieces
        if len(pieces) < 2:
            if pieces and not pieces[0].voxels:
                raise UsageError("a piece of the assembly has no voxels")
            return Disassembly(self.assembly, "stuck", reason="a single piece")
        tree: Separation | PackedSeparationTree | None
        try:
            if self.min_total:
                tree, grouped = self._least_of()
            elif self.batch is not None:
                found = self.batch.run(pieces, self._flags if self.grouped else None, self.budget)
            else:
                found = staged(
                    self.geometry,
                    pieces,
                    self._flags if self.grouped else None,
                    self.complete,
                    self.budget,
                )
        except OutOfBudget as stop:
            return Disassembly(
                self.assembly, "unknown", states_explored=self.budget.states, reason=str(stop)
            )
        except MemoryBoundError as stop:
            return Disassembly(
                self.assembly,
                "unknown",
                states_explored=self.budget.states,
                reason=out_of_memory(stop.bound),
            )
        explored = self.budget.states
        beyond = False
        if not self.min_total:
            if found is None:
                return Disassembly(self.assembly, "stuck", states_explored=explored)
            words, beyond, masks = found
            if not masks:
                return Disassembly.made(
                    self.assembly,
                    "solved",
                    PackedSeparationTree(words, self.assembly.grid),
                    beyond,
                    explored,
                )
            tree = PackedSeparationTree(words, self.assembly.grid)
            grouped = tuple(_pieces(mask) for mask in masks)
        if tree is None:
            return Disassembly(self.assembly, "stuck", states_explored=explored)
        if grouped and not self.groups.fit([self._parts(s) for s in grouped]):
            return Disassembly(
                self.assembly,
                "unknown",
                states_explored=explored,
                reason="the parts left together do not fit the groups at once",
            )
        return Disassembly(self.assembly, "solved", tree, beyond, explored, groups=grouped)

    def _parts(self, pieces: Sequence[int]) -> list[int]:
        parts = self.assembly.pieces
        return [parts[p].part for p in pieces]

    def _grouping(self, pieces: tuple[int, ...]) -> tuple[bool, bool]:
        """Whether the pieces are all in one group, and whether they fit a group
        (:meth:`Groups.answers`, remembered for all the problem's assemblies)."""
        return self.groups.answers(self._parts(pieces))

    def _flags(self, mask: int) -> int:
        """:meth:`_grouping` of a set of pieces as the compiled disassembly asks for it:
        1 for one group, plus 2 when they fit a group."""
        same, fits = self._grouping(_pieces(mask))
        return int(same) | int(fits) << 1

    # ------------------------------------------------------------------ minimum total

    def _least_of(self) -> tuple[Separation | None, tuple[tuple[int, ...], ...]]:
        """The disassembly with the fewest moves in all: its tree (None: stuck) and the
        sets left together as groups."""
        voxels = [piece.voxels for piece in self.assembly.pieces]
        if not all(voxels):
            raise UsageError("a piece of the assembly has no voxels")
        self.whole = whole = Part(self.geometry, voxels)
        self.memo: dict[tuple[tuple[int, ...], State], _Outcome | None] = {}
        # the stage-by-stage disassembly, whose answer seeds each part's minimum
        self.staged = Stages(
            whole,
            self.weights if self.weighted else None,
            self._flags if self.grouped else None,
            True,
        )
        pieces = tuple(range(len(voxels)))
        start: State = tuple((0, 0, 0) for _ in pieces)
        outcome = self._least(pieces, start)
        if outcome is None or outcome.tree is None:
            return None, ()
        return _placed(outcome.tree, start), outcome.grouped

    def _part(self, pieces: tuple[int, ...], start: State) -> _Outcome | None:
        """A part taken apart, None when it cannot be (as BurrTools decides: a single
        piece or a part all in one group is not taken apart; one that does not come
        apart may stay together when it fits a group)."""
        if len(pieces) == 1:
            return _ALONE
        if self.grouped and self._grouping(pieces)[0]:
            return _ALONE
        outcome = self._least(pieces, start)
        if outcome is None and self.grouped and self._grouping(pieces)[1]:
            return _Outcome(None, grouped=(pieces,))
        return outcome

    def _least(self, pieces: tuple[int, ...], start: State) -> _Outcome | None:
        """The part ``pieces`` taken apart from ``start`` (its first piece at the
        origin) in the fewest moves in all, its tree told from there (:func:`_placed`
        puts it where it starts)."""
        key = (pieces, start)
        if key in self.memo:
            return self.memo[key]
        staged = self.staged.separate(pieces, start, self.budget)
        if staged is None:  # no part comes apart, in any mode
            self.memo[key] = None
            return None
        words, masks = staged
        tree = PackedSeparationTree(words, self.assembly.grid).separation(start)
        outcome = _Outcome(tree, False, tuple(_pieces(mask) for mask in masks))
        best = tree.total()
        search = Search(self.whole, start, True, pieces)
        bound = len(pieces) - 2 if not self.grouped else 0
        while (found := search.next(self.budget)) is not None:
            mask, direction = found
            if search.depth() + 1 + bound >= best:
                break
            left = tuple(p for k, p in enumerate(pieces) if not mask >> k & 1)
            taken = tuple(p for k, p in enumerate(pieces) if mask >> k & 1)
            left_start, taken_start = search.parts(mask)
            if self._heavier(taken, left):  # the heavier set stays: the others come out
                left, taken, left_start, taken_start = taken, left, taken_start, left_start
            stays = self._part(left, left_start)
            goes = None if stays is None else self._part(taken, taken_start)
            if stays is not None and goes is not None:
                moves = [self._move(pieces, *step) for step in search.path()]
                moves.append(self._move(pieces, mask, direction, None))
                tree = Separation(pieces, start, tuple(moves), stays.tree, goes.tree)
                if tree.total() < best:
                    outcome = _Outcome(tree, False, stays.grouped + goes.grouped)
                    best = tree.total()
        self.memo[key] = outcome
        return outcome

    def _move(self, pieces: tuple[int, ...], mask: int, direction: int, step: int | None) -> Move:
        """The move of the pieces of ``mask``, told as the smaller side moving (the other
        side moving the opposite way is the same move); when the pieces told outweigh the
        others (BurrTools' weights), the others move instead (as the compiled
        disassembly tells its moves)."""
        moving = [p for k, p in enumerate(pieces) if mask >> k & 1]
        still = [p for k, p in enumerate(pieces) if not mask >> k & 1]
        if len(moving) > len(still) and step is not None:
            moving, still, direction = still, moving, direction ^ 1
        if self._heavier(moving, still):
            moving, direction = still, direction ^ 1
        return Move(tuple(moving), direction, step, self.assembly.grid)

    def _heavier(self, these: Sequence[int], others: Sequence[int]) -> bool:
        """Does a piece of ``these`` outweigh every piece of ``others`` (BurrTools'
        weights: the heavier side stays put)?"""
        return self.weighted and max(self.weights[p] for p in these) > max(
            self.weights[p] for p in others
        )


class BatchDisassembler:
    """Takes the assemblies of one problem apart one after another, as
    :class:`Disassembler` does each, sharing the movement tables (``geometry``) and
    the compiled search's buffers (:class:`excover.burr._moves.Batch`) between them.
    An assembly without groups, of 2 to 64 pieces, on the geometry's grid, taken apart
    stage by stage (the common case: a family of a thousand small assemblies) goes
    straight to the compiled search, without a :class:`Disassembler`; any other is
    given to one, with the same buffers."""

    def __init__(self, geometry: Geometry, complete: bool = True, min_total: bool = False) -> None:
        self.geometry = geometry
        self.complete = complete
        self.min_total = min_total
        self.batch = Batch(geometry, complete or min_total)
        # whether the last groups seen have a group: a problem's assemblies share one
        # groups object, so the verdict is found once, not once an assembly
        self._groups: tuple[tuple[tuple[int, int], ...], ...] | None = None
        self._grouped = False

    def run(self, assembly: Assembly, budget: DisassemblyBudget) -> Disassembly:
        """The disassembly of ``assembly`` within ``budget`` (as :meth:`Disassembler.run`
        gives it)."""
        if assembly.groups is not self._groups:
            self._groups = assembly.groups
            self._grouped = _has_groups(assembly.groups)
        if (
            self._grouped
            or self.min_total
            or assembly.grid != self.geometry.grid
            or not 2 <= len(assembly.pieces) <= 64
        ):
            return Disassembler(
                assembly, budget, self.complete, self.geometry, self.min_total, self.batch
            ).run()
        try:
            found = self.batch.run(assembly.pieces, None, budget)
        except OutOfBudget as stop:
            return Disassembly(assembly, "unknown", states_explored=budget.states, reason=str(stop))
        except MemoryBoundError as stop:
            reason = out_of_memory(stop.bound)
            return Disassembly(assembly, "unknown", states_explored=budget.states, reason=reason)
        if found is None:
            return Disassembly(assembly, "stuck", states_explored=budget.states)
        words, beyond, _ = found
        return Disassembly.made(
            assembly, "solved", PackedSeparationTree(words, assembly.grid), beyond, budget.states
        )
