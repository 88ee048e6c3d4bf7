"""The ``propagate`` route: the compiled line solver, propagation, probing and search.

:func:`solutions` drives :class:`~excover.nonogram._core.Core` (see its module for the
algorithms) one solution at a time; :func:`propagated` runs line propagation alone, the
way a person solves a puzzle line by line, and shows how far it gets.

``hybrid=True`` (what ``method="auto"`` asks for) adds three routes for the puzzles on
which the depth-first search gets lost, after it has spent :data:`DFS_NODES` nodes (or
the probes of :data:`DFS_WORK`): the solutions it found are kept, and from there two
searches take turns, in time slices that double (:data:`FIRST_SLICE` seconds first),
until one of them settles the question (while no picture is known, each round begins
with a third, *decimation*: see :data:`GUESS_SHARE`; when it fails in the first round,
a few short restarts follow at once, and Kissat's slice comes before CaDiCaL's: see
:data:`GUESS_FIRST_FAILURES`):

* *restarts* (:meth:`Core.hunt <excover.nonogram._core.Core.hunt>`): the same search,
  randomized and restarted from the root on Luby's schedule, looking for a solution other
  than those already found; heavy-tailed searches find solutions much sooner this way,
  and a run that exhausts its tree proves there is no other;
* *CDCL*: the order encoding of :mod:`excover.nonogram.sat`, with the cells
  probing decided at the root as unit clauses and a blocking clause per solution found,
  solved by CaDiCaL (:data:`CDCL_SOLVER`), whose learnt clauses prove "no other
  solution" where the depth-first search would go through an enormous tree. It tries
  first the values that belief propagation over the lines finds likelier
  (:meth:`Core.beliefs <excover.nonogram._core.Core.beliefs>`,
  :func:`~excover.nonogram.sat.order_phases`), for the cells and for the
  "block starts by" variables alike; after each solution, that solution's values, since
  the next is often close by.

On large puzzles, while no picture is known, the *culprit search* of
:mod:`excover.nonogram.culprit` takes the place of CDCL and Kissat
(:data:`CULPRIT_CELLS`): decimations from trusted values, whose wrong guesses Kissat
finds by bisection.

*Kissat* on the order encoding has a short slice of each round after CaDiCaL's
(:data:`KISSAT_EARLY_SHARE`). When the turns go :data:`KISSAT_AFTER` seconds without a
new answer, Kissat takes the restarts' place (:data:`KISSAT_SHARE`), twice: on the order
encoding, and on it with cover variables (each is far stronger than the other on some of
the largest puzzles). Kissat cannot be sliced, so each run is a child process that is
stopped between its slices and killed when a new solution makes its formula stale, at
the time limit or on Ctrl-C (:mod:`excover.sat.child`); excover runs one thing at a
time, so a run uses one core. After each new solution the turns begin again from the
first slice.

Every solution found, by any route, is followed by its *rectangle swap*
(:func:`~excover.nonogram.swap.swapped`) when it has one: four cells that can be
exchanged without changing a clue, which on random puzzles is the usual second picture.

Under ``max_nodes`` only the compiled searches run (a CDCL slice has no nodes to count).

The constants below were chosen by measurement: docs/performance.md ("Tuning the hybrid
route") gives the figures.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import islice

from excover.entries import check_count_limit, check_time_limit
from excover.errors import LimitReached, SolverError
from excover.nonogram import _core
from excover.nonogram.cores import (
    GUESS_FRACTION,
    GUESS_ROUNDS,
    UNKNOWN,
    Solver,
    colour_core,
    core,
    picture,
    picture_of,
    solver_for,
)
from excover.nonogram.model import Puzzle

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.engines import Stats
    from excover.nonogram.culprit import CulpritSearch
    from excover.sat.child import ChildRun

__all__ = [
    "ALGORITHM",
    "CDCL_SHARE",
    "CDCL_SHARE_BESIDE_KISSAT",
    "CDCL_SLICE",
    "CDCL_SOLVER",
    "CULPRIT_CELLS",
    "CULPRIT_SHARE",
    "DFS_NODES",
    "DFS_WORK",
    "FIRST_SLICE",
    "GUESS_FAILURES",
    "GUESS_FRACTION",
    "GUESS_ROUNDS",
    "GUESS_SHARE",
    "KISSAT_AFTER",
    "KISSAT_EARLY_SHARE",
    "KISSAT_SHARE",
    "LARGE_GUESS_CELLS",
    "LARGE_GUESS_FRACTION",
    "LARGE_GUESS_ROUNDS",
    "SWAP_AFTER",
    "UNKNOWN",
    "colour_core",
    "core",
    "count",
    "picture",
    "propagated",
    "solutions",
    "solver_for",
]

#: Nodes of plain depth-first search before the hybrid route brings in restarts and CDCL
#: (each node probes to its fixpoint): enough for most puzzles to be settled by the search
#: alone, few enough that the lost ones reach CDCL soon.
DFS_NODES = 300

#: Nodes the depth-first search may go past its first solution (found by a guess) before
#: that solution's rectangle swap is sought: the swap is worked out in Python, and most
#: random puzzles' second picture comes from the search within a few nodes.
SWAP_AFTER = 20

#: The depth-first search's budget in probes, besides its :data:`DFS_NODES`: this
#: divided by the number of lines (rows and columns), the budget nonosolve
#: (FastNonogramSolver) gives its own search. On large puzzles a node probes thousands
#: of cells and the search is seldom what settles them; a 25x25 or 30x30 puzzle reaches
#: its 300 nodes first.
DFS_WORK = 10_000_000

#: Seconds of the first time slice of restarts (the slices then double).
FIRST_SLICE = 0.25

#: How many times as long as the restarts' slice each CDCL slice is: on the puzzles where
#: the tree search is lost (large or random ones, with many pictures) CDCL finds pictures
#: far sooner, so it gets the larger share.
CDCL_SHARE = 3

#: The CDCL solver of the turns: CaDiCaL 1.9.5, with phases from belief propagation
#: (:data:`BELIEF_ROUNDS`), the fastest of the solvers tried on the tournament puzzles
#: the tree search leaves open.
CDCL_SOLVER = "cadical195"

#: Seconds CaDiCaL runs between two looks at the clock (and at Ctrl-C). Each call
#: restarts part of its search, so short calls cost: this is four times the ``sat``
#: route's slice.
CDCL_SLICE = 0.2

#: Seconds the turns of CDCL and restarts may go without a new answer before Kissat
#: joins them: it is much stronger on the largest puzzles, weaker on large random ones.
KISSAT_AFTER = 8.0

#: CDCL's share once Kissat has joined: the puzzles that get that far are mostly the
#: ones CaDiCaL does not settle.
CDCL_SHARE_BESIDE_KISSAT = 1

#: How many times as long as the restarts' slice each slice of each Kissat run is (one
#: run with cover variables, one without: each is far stronger than the other on some
#: of the largest puzzles).
KISSAT_SHARE = 3

#: Before that, from the first round, the Kissat run without cover variables has a
#: slice of each round after CaDiCaL's, this many times the restarts' slice (paused in
#: between like the others): on some random puzzles Kissat's first picture comes at once
#: where CaDiCaL takes seconds, at little cost to the others.
KISSAT_EARLY_SHARE = 1

#: Rounds of belief propagation (:meth:`Core.beliefs
#: <excover.nonogram._core.Core.beliefs>`) that set the CDCL solver's first phases.
BELIEF_ROUNDS = 20

#: While no picture is known, each round of the turns begins with *decimation*
#: (:meth:`Core.guess <excover.nonogram._core.Core.guess>`): belief propagation
#: names the surest cells, :data:`GUESS_FRACTION` of the unknown ones are decided so,
#: probing follows, and so on, with :data:`GUESS_ROUNDS` rounds of messages per step,
#: for this many times the restarts' slice, until it meets :data:`GUESS_FAILURES` dead
#: ends (it is deterministic: no point running it again). It finds the first picture of
#: most puzzles on which the depth-first search is lost, large ones too. The decimation
#: is paused at the end of its slice and resumed in the next round, so no step is made
#: twice.
GUESS_SHARE = 2
GUESS_FAILURES = 200

#: On puzzles of at least this many cells, a second decimation with smaller steps and
#: more rounds of messages (:data:`LARGE_GUESS_ROUNDS`, :data:`LARGE_GUESS_FRACTION`)
#: takes every other decimation turn: each of the two finds pictures of large random
#: puzzles that the other misses; below 100x100 the turns cost more than they bring.
LARGE_GUESS_CELLS = 10_000
LARGE_GUESS_ROUNDS = 60
LARGE_GUESS_FRACTION = 0.01

#: In the first round, decimation pauses after this many dead ends (the next round goes
#: on from there, up to :data:`GUESS_FAILURES`): the puzzles it settles seldom need more,
#: and the others reach CDCL and restarts sooner.
GUESS_FIRST_FAILURES = 100

#: When it does (not when its slice ends first), this many short restarts
#: (:meth:`Core.hunt <excover.nonogram._core.Core.hunt>`, seeds 1, 2, ...) of at most
#: :data:`FIRST_RESTART_NODES` nodes each (all within the restarts' first slice) come
#: before CDCL, and Kissat's early slice before CaDiCaL's: where decimation fails, the
#: search is heavy-tailed and some seeds find a picture in a few dozen nodes.
FIRST_RESTARTS = 3
FIRST_RESTART_NODES = 120

#: On puzzles of at least this many cells, while no picture is known, the culprit
#: search (:class:`~excover.nonogram.culprit.CulpritSearch`) has the slices of
#: CDCL and Kissat: a decimation's guesses are mostly right, but a wrong one shows only
#: thousands of cells deeper, where the tree search backtracks in vain and CDCL on the
#: whole formula finds no picture; Kissat refutes a wrong deepest state in seconds, and
#: bisection over its literals finds the guess to blame.
CULPRIT_CELLS = 10_000

#: How many times as long as the restarts' slice each slice of the culprit search is:
#: the slices of CaDiCaL and of Kissat's early run together.
CULPRIT_SHARE = CDCL_SHARE + KISSAT_EARLY_SHARE

#: The name of this route in statistics.
ALGORITHM = "nonogram line solving, probing and search"


def propagated(puzzle: Puzzle) -> tuple[str, ...] | None:
    """What line propagation alone decides: the picture with ``?`` for the cells it
    leaves open, or None when it finds a contradiction (no solution)."""
    solver = solver_for(puzzle)
    if not solver.propagate_only():
        return None
    return picture_of(solver, puzzle)


def solutions(
    puzzle: Puzzle,
    *,
    timeout: float | None = None,
    max_nodes: int | None = None,
    probing: bool = True,
    hybrid: bool = False,
) -> Iterator[tuple[str, ...]]:
    """Lazily yield every solution. ``timeout`` (seconds over the whole run) and
    ``max_nodes`` (search nodes) raise :class:`~excover.LimitReached`; ``probing=False``
    branches after propagation alone (slower, for comparisons); ``hybrid=True`` brings in
    restarts and CDCL when the search takes long (see the module's description)."""
    check_time_limit("timeout", timeout)
    check_count_limit("max_nodes", max_nodes)
    if hybrid and probing and puzzle.palette is None:
        return (picture(grid, puzzle.width) for grid in _hybrid(puzzle, timeout, max_nodes))
    return _run(puzzle, timeout, max_nodes, probing)


def count(
    puzzle: Puzzle,
    limit: int | None = None,
    *,
    timeout: float | None = None,
    max_nodes: int | None = None,
    hybrid: bool = False,
) -> int:
    """The number of solutions (at most ``limit``), without building their pictures
    (except on the hybrid route, which must block the ones it found)."""
    check_time_limit("timeout", timeout)
    check_count_limit("max_nodes", max_nodes)
    if hybrid and puzzle.palette is None:
        return sum(1 for _ in islice(_hybrid(puzzle, timeout, max_nodes), limit))
    found = 0
    for _ in _statuses(puzzle, timeout, max_nodes, True, limit):
        found += 1
    return found


def _run(
    puzzle: Puzzle, timeout: float | None, max_nodes: int | None, probing: bool
) -> Iterator[tuple[str, ...]]:
    for solver in _statuses(puzzle, timeout, max_nodes, probing, None):
        yield picture_of(solver, puzzle)


def _statuses(
    puzzle: Puzzle,
    timeout: float | None,
    max_nodes: int | None,
    probing: bool,
    limit: int | None,
) -> Iterator[Solver]:
    """The solver, yielded each time it holds a new solution (at most ``limit`` times);
    a limit of time or nodes raises :class:`~excover.LimitReached`."""
    solver = solver_for(puzzle)
    started = time.monotonic()
    deadline = -1.0 if timeout is None else started + timeout
    while limit is None or solver.solutions < limit:
        status = solver.next_solution(-1 if max_nodes is None else max_nodes, deadline, probing)
        if status == _core.EXHAUSTED:
            return
        if status == _core.SOLUTION:
            yield solver
            continue
        reason = "timeout" if status == _core.TIME_LIMIT else "max_nodes"
        raise LimitReached(reason, _stats(solver, time.monotonic() - started, reason))


def _hybrid(puzzle: Puzzle, timeout: float | None, max_nodes: int | None) -> Iterator[bytes]:
    """Every solution's grid (cell bytes, see :func:`picture`): depth-first search until
    it has gone :data:`DFS_NODES` nodes without a new solution (past the second, found
    ones renew the budget: enumerating, the search is the fastest route), then restarts
    and CDCL in turns, and Kissat when they take long (see the module's description).
    The first solution found by a guess is followed by its rectangle swap, when it has
    one and the search has not found a second within :data:`SWAP_AFTER` nodes, and so is
    every solution of the other routes."""
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    solver = core(puzzle)
    budget = DFS_NODES if max_nodes is None else min(DFS_NODES, max_nodes)
    work = int(DFS_WORK / (puzzle.height + puzzle.width))
    probes = work
    found = _Found(puzzle)
    pending: bytes | None = None  # a first solution whose swap is still to be sought
    swap_at = 0  # the node count at which it is sought
    while True:
        limit = budget if pending is None else min(budget, swap_at)
        status = solver.next_solution(limit, -1.0 if deadline is None else deadline, True, probes)
        if status == _core.EXHAUSTED:
            return
        if status == _core.SOLUTION:
            grid = solver.grid_bytes()
            # Reached without a guess, the solution is the only one; once two are known
            # the search enumerates faster than swaps help.
            if solver.depth > 0 and not found.grids:
                pending, swap_at = grid, solver.nodes + SWAP_AFTER
            else:
                pending = None
            yield from found.add(grid, swaps=False, exact=True)
            if len(found.grids) >= 2:  # enumerating: a search that finds goes on
                budget = solver.nodes + DFS_NODES
                probes = solver.probes + work
                if max_nodes is not None:
                    budget = min(budget, max_nodes)
            continue
        if status == _core.NODE_LIMIT and pending is not None:
            # the search has not found a second solution soon: a swap may answer at once
            yield from found.add_swap_of(pending)
            pending = None
            continue
        if status == _core.TIME_LIMIT or (budget == max_nodes and solver.nodes >= budget):
            reason = "timeout" if status == _core.TIME_LIMIT else "max_nodes"
            raise LimitReached(reason, _stats(solver, time.monotonic() - started, reason))
        break
    yield from _take_turns(puzzle, solver, found, started, deadline, max_nodes)


class _Found:
    """The solutions found so far, in order, each new one followed by its rectangle
    swap (:func:`~excover.nonogram.swap.swapped`) when that is new too."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.grids: list[bytes] = []
        self.seen: set[bytes] = set()

    def add(self, grid: bytes, swaps: bool = True, exact: bool = False) -> Iterator[bytes]:
        """Record ``grid`` and yield it, then (when ``swaps``) its swap, each if not seen
        before (the depth-first search meets again the swaps it was given). Each is
        checked against the clues, but ``grid`` itself when ``exact``: the compiled
        search stops only at pictures whose every line fits its clue."""
        while grid not in self.seen:
            if not exact:
                problem = self.puzzle.mismatch(picture(grid, self.puzzle.width))
                if problem is not None:
                    raise SolverError(f"the hybrid route found a wrong picture: {problem}")
            exact = False
            self.seen.add(grid)
            self.grids.append(grid)
            yield grid
            neighbour = self._swap_of(grid) if swaps else None
            if neighbour is None:
                return
            grid = neighbour

    def add_swap_of(self, grid: bytes) -> Iterator[bytes]:
        """:meth:`add` the swap of ``grid`` (and its own swaps), when it has one."""
        neighbour = self._swap_of(grid)
        if neighbour is not None:
            yield from self.add(neighbour)

    def _swap_of(self, grid: bytes) -> bytes | None:
        from excover.nonogram.swap import swapped

        return swapped(grid, self.puzzle.height, self.puzzle.width)


def _take_turns(
    puzzle: Puzzle,
    solver: _core.Core,
    found: _Found,
    started: float,
    deadline: float | None,
    max_nodes: int | None,
) -> Iterator[bytes]:
    """Decimation (while no solution is known), CDCL and restarts in turns, in time
    slices that double (CDCL's :data:`CDCL_SHARE` times as long as the restarts'). The
    decimation is paused in ``solver`` between its slices, so the restarts have a
    solver of their own; on large puzzles (:data:`LARGE_GUESS_CELLS`) a second one, with
    smaller steps, in a solver of its own, takes every other turn. Once the turns have
    gone :data:`KISSAT_AFTER` seconds without a new answer, CDCL and two Kissat runs
    (:data:`KISSAT_SHARE`). On large puzzles the culprit search has the slices of CDCL
    and Kissat until a picture is known (:data:`CULPRIT_CELLS`). Each new solution is
    yielded and forbidden to all, until one of them proves there is no other."""
    spent = solver.nodes  # nodes of the depth-first search, counted against max_nodes
    with_cdcl = max_nodes is None  # CDCL and decimation have no nodes to count
    cdcl: _Cdcl | None = None  # made when first needed: building its formula takes time
    # The decimations (the solver each is paused in, its rounds and fraction), taking
    # turns, each until it meets GUESS_FAILURES dead ends; a second one with smaller
    # steps on large puzzles (LARGE_GUESS_CELLS).
    decimations: list[tuple[_core.Core, int, float]] = []
    if with_cdcl:
        decimations.append((solver, GUESS_ROUNDS, GUESS_FRACTION))
        if puzzle.height * puzzle.width >= LARGE_GUESS_CELLS:
            decimations.append((core(puzzle), LARGE_GUESS_ROUNDS, LARGE_GUESS_FRACTION))
    turn = -1  # the decimation that had the last turn
    # On large puzzles the culprit search has CDCL's and Kissat's slices until a picture
    # is known (CULPRIT_CELLS); made when first needed, dropped once it has nothing to do.
    culprits: CulpritSearch | None = None
    seeking_culprits = with_cdcl and puzzle.height * puzzle.width >= CULPRIT_CELLS
    first_round = True
    # The restarts' solver: the search's own, unless a decimation is paused in it.
    hunter: _core.Core | None = None
    seed, length = 0, FIRST_SLICE
    quiet_since = time.monotonic()

    def until(share: float) -> float:
        end = time.monotonic() + share * length
        return end if deadline is None else min(end, deadline)

    def time_left() -> bool:
        return deadline is None or time.monotonic() < deadline

    try:
        while True:
            cells: bytes | None = b""  # b"": no answer within the slice
            kissat_joined = time.monotonic() - quiet_since >= KISSAT_AFTER
            kissat_first = False  # Kissat's early slice before CaDiCaL's
            if decimations and not found.grids and time_left():
                turn = (turn + 1) % len(decimations)
                decimation, rounds, fraction = decimations[turn]
                failures = GUESS_FIRST_FAILURES if first_round else GUESS_FAILURES
                status = decimation.guess(
                    until(GUESS_SHARE), rounds, fraction, failures, resume=True
                )
                if status == _core.EXHAUSTED:
                    return
                # paused at GUESS_FIRST_FAILURES, it goes on; at GUESS_FAILURES, the same
                # run again: no
                if status == _core.NODE_LIMIT and failures >= GUESS_FAILURES:
                    del decimations[turn]
                if status == _core.SOLUTION:
                    cells = decimation.grid_bytes()
                elif first_round and status == _core.NODE_LIMIT:
                    # lost early: short restarts, then Kissat before CaDiCaL (FIRST_RESTARTS)
                    kissat_first = True
                    hunter = hunter or core(puzzle)  # decimation stays paused in solver
                    cells, seed = _short_restarts(hunter, seed, until(1.0), found.grids)
            first_round = False
            culprit_turn = seeking_culprits and not found.grids
            if cells == b"" and with_cdcl and time_left():
                if cdcl is None:
                    cdcl = _Cdcl(puzzle, found.grids)
                if culprit_turn:
                    if culprits is None:
                        culprits = cdcl.culprit_search()
                    cells = culprits.advance(until(CULPRIT_SHARE)) or b""
                    if culprits.refuted:  # not taken for a proof: CDCL will say
                        seeking_culprits = False
                elif kissat_first:
                    cells = cdcl.next_by_kissat(until(KISSAT_EARLY_SHARE), False)
                if cells == b"" and time_left() and not culprit_turn:
                    cells = cdcl.next(
                        until(CDCL_SHARE_BESIDE_KISSAT if kissat_joined else CDCL_SHARE)
                    )
            for cover in (False, True):
                # Kissat on the order encoding (unless it came first), and with cover
                # variables too once it has joined the turns
                wanted = not culprit_turn and (kissat_joined if cover else not kissat_first)
                if cdcl is not None and cells == b"" and wanted and time_left():
                    share = KISSAT_SHARE if kissat_joined else KISSAT_EARLY_SHARE
                    cells = cdcl.next_by_kissat(until(share), cover)
            if cells is None:
                return
            new = cells or None
            if new is None and time_left() and not (with_cdcl and kissat_joined):
                seed += 1
                left = -1 if max_nodes is None else max_nodes - spent
                if hunter is None:
                    hunter = (
                        solver if all(d[0] is not solver for d in decimations) else core(puzzle)
                    )
                status = hunter.hunt(left, until(1.0), seed, 64, b"".join(found.grids))
                spent += hunter.nodes
                if status == _core.EXHAUSTED:
                    return
                if status == _core.SOLUTION:
                    new = hunter.grid_bytes()
            if new is not None:
                if culprits is not None:  # a picture is known: its work is done
                    culprits.close()
                    culprits = None
                for grid in found.add(new):
                    if cdcl is not None:
                        cdcl.block(grid)
                    yield grid
                if cdcl is not None:
                    cdcl.guide(new)
                seed, length = 0, FIRST_SLICE
                quiet_since = time.monotonic()
                continue
            if max_nodes is not None and spent >= max_nodes:
                raise LimitReached(
                    "max_nodes", _hybrid_stats(found.grids, spent, started, "max_nodes")
                )
            if not time_left():
                raise LimitReached("timeout", _hybrid_stats(found.grids, spent, started, "timeout"))
            length *= 2
    finally:
        if culprits is not None:
            culprits.close()
        if cdcl is not None:
            cdcl.close()


def _short_restarts(
    hunter: _core.Core, seed: int, end: float, found: list[bytes]
) -> tuple[bytes | None, int]:
    """Up to :data:`FIRST_RESTARTS` restarts from the root, seeds after ``seed``, of at
    most :data:`FIRST_RESTART_NODES` nodes each, until ``end``: the grid of a solution
    not in ``found``, ``b""`` when none turned up, or None when a restart proved there
    is none; and the last seed used."""
    for _ in range(FIRST_RESTARTS):
        if time.monotonic() >= end:
            break
        seed += 1
        status = hunter.hunt(FIRST_RESTART_NODES, end, seed, 64, b"".join(found))
        if status == _core.EXHAUSTED:
            return None, seed
        if status == _core.SOLUTION:
            return hunter.grid_bytes(), seed
    return b"", seed


class _Cdcl:
    """The CDCL route: the puzzle's order formula, the cells probing decided at the root
    as unit clauses, the solutions found so far blocked; solved by CaDiCaL in slices, or
    with cover variables by Kissat in one go."""

    def __init__(self, puzzle: Puzzle, found: list[bytes]) -> None:
        from excover.nonogram import sat
        from excover.sat.solve import _PySat

        self.puzzle = puzzle
        self.cells = puzzle.height * puzzle.width
        root = core(puzzle)
        root.probe_only()
        self.root = root.grid_bytes()
        self.units = [
            [v + 1] if value == 2 else [-(v + 1)] for v, value in enumerate(self.root) if value != 3
        ]
        self.blocks: list[list[int]] = []
        self.plain = sat.encode_order(puzzle).clauses + self.units
        self.covered: list[list[int]] | None = None  # with cover variables, made when needed
        self.kissats: dict[bool, ChildRun] = {}  # Kissat's runs under way (paused), by cover
        self.backend = _PySat(CDCL_SOLVER, self.plain, CDCL_SLICE)
        black, starts = root.beliefs(BELIEF_ROUNDS)
        self.backend.set_phases(sat.order_phases(puzzle, black, starts))
        for grid in found:
            self.block(grid)

    def culprit_search(self) -> CulpritSearch:
        """A culprit search on the same formula (see :data:`CULPRIT_CELLS`)."""
        from excover.nonogram.culprit import CulpritSearch

        return CulpritSearch(self.puzzle, self.plain, self.root)

    def block(self, grid: bytes) -> None:
        """Forbid the solution ``grid`` (its cells the root left open suffice)."""
        clause = [
            -(v + 1) if grid[v] == 2 else v + 1 for v in range(self.cells) if self.root[v] == 3
        ]
        self.blocks.append(clause)
        self.backend.add_clause(clause)
        for run in self.kissats.values():  # their formulas lack the clause: start afresh
            run.close()
        self.kissats.clear()

    def next(self, until: float) -> bytes | None:
        """A new solution's grid, None when there is none, empty when the slice ended."""
        from excover.sat.solve import _OutOfTime

        try:
            model = self.backend.solve(until)
        except _OutOfTime:
            return b""
        if model is None:
            return None
        return bytes(2 if model[v] > 0 else 1 for v in range(self.cells))

    def next_by_kissat(self, until: float, cover: bool) -> bytes | None:
        """Let Kissat run on the same formula, with cover variables or without, until
        ``until``: a new solution's grid, None when there is none, empty when it has not
        answered yet. The run is paused in between (a child process, see
        :mod:`excover.sat.child`) and goes on from where it was, until a solution found
        by anyone makes it stale."""
        from excover.nonogram import sat
        from excover.sat.child import ChildRun

        run = self.kissats.get(cover)
        if run is None:
            if not cover:
                formula = self.plain
            else:
                if self.covered is None:
                    self.covered = sat.encode_order(self.puzzle, cover=True).clauses + self.units
                formula = self.covered
            run = self.kissats[cover] = ChildRun("kissat404", formula + self.blocks)
        if not run.advance(until):
            return b""
        model = run.answer()
        del self.kissats[cover]
        if model is None:
            return None
        return bytes(2 if model[v] > 0 else 1 for v in range(self.cells))

    def guide(self, grid: bytes) -> None:
        """Make the CDCL solver try the values of ``grid`` first: the next solution is
        often close to the last."""
        self.backend.set_phases([v + 1 if grid[v] == 2 else -(v + 1) for v in range(self.cells)])

    def close(self) -> None:
        self.backend.close()
        for run in self.kissats.values():
            run.close()


def _hybrid_stats(found: list[bytes], nodes: int, started: float, reason: str) -> Stats:
    from excover.engines import Stats

    return Stats(
        solutions=len(found),
        nodes=nodes,
        seconds=time.monotonic() - started,
        complete=False,
        stopped_by=reason,
        algorithm=ALGORITHM + ", restarts and CDCL",
        engine="nonogram",
    )


def _stats(solver: Solver, seconds: float, reason: str) -> Stats:
    """The statistics of a run a limit stopped (nodes are search nodes; the line solves
    stand in for DLX's updates)."""
    from excover.engines import Stats

    return Stats(
        solutions=solver.solutions,
        nodes=solver.nodes,
        updates=solver.line_solves,
        seconds=seconds,
        complete=False,
        stopped_by=reason,
        algorithm=ALGORITHM,
        engine="nonogram",
    )
