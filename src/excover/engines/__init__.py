"""The search engines: the Python face of the three compiled exact-cover searches.

:class:`Search` is one run of a compiled search over an :class:`~excover.ExactCover`, by
one of three engines that walk the same tree: dancing links (``excover.engines._links``,
:class:`LinksEngine`, Knuth's DLX1 with its statistics exactly), the bit-parallel engine
(``_bits``) and dancing cells (``_cells``). The search state (the links or bit sets and
the level stack) lives in the compiled engine, whose opening comment explains its data
structure, so a run can stop at a solution, at a limit or at Ctrl-C, and carry on
later from exactly where it stopped: nothing is recomputed between two solutions.

The engine picks the cheapest of Knuth's algorithms for the problem: X (exact cover with
primary and secondary items), C (colors on secondary items) or M (multiplicities on
primary items, with or without colors). Statistics follow Knuth's DLX1 definitions: a
*node* is one entry into a level of the search tree (one item chosen to branch on), plus
one per solution; an *update* is one item covered plus one node unlinked from an item's
list while covering.

Three engines can run a search (``engine=``):

* ``"dlx"``, dancing links (``excover.engines._links``), for every problem, with Knuth's
  statistics exactly;
* ``"bits"``, the bit-parallel engine (``excover.engines._bits``), for problems whose options
  fit in bitsets: on Algorithms X and C it walks the same search tree (same item choices,
  options in input order, same solutions in the same order, same ``nodes``) several times
  faster; on Algorithm M it branches its own way (the options of an item with a
  multiplicity smallest first, then "no more"), so it finds the same solutions in another
  order; its ``updates`` count options taken out of play;
* ``"cells"``, dancing cells (``excover.engines._cells``: the sparse sets of Knuth's SSXCC), for
  problems without multiplicities: the same search tree as dancing links, faster on
  problems whose items have many options each (large nonograms and Sudoku grids); its
  ``updates`` count options removed from items' sets.

``"auto"`` (the default) takes ``"bits"`` when the problem suits it (:func:`pick_engine`),
else ``"cells"`` or ``"dlx"`` by the problem's shape; ``Stats.engine`` says which ran.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from excover.engines._bits import MAX_BITS, MAX_OPTIONS, BitEngine, bits_needed, primary_counts
from excover.engines._cells import CellEngine
from excover.engines._links import MAX_NODES, MAX_SOLUTIONS, SOLUTION, TIMEOUT, LinksEngine
from excover.entries import check_count_limit, check_time_limit
from excover.errors import LimitReached, UsageError, check_limit
from excover.names import ENGINES
from excover.statistics import Stats

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Unpack

    import numpy as np
    from numpy.typing import NDArray

    from excover.problem import EngineInput, Problem, SearchOptions

__all__ = [
    "ENGINES",
    "HEURISTICS",
    "CompiledEngine",
    "Deadline",
    "Search",
    "Stats",
    "new_engine",
    "pick_engine",
    "wall_clock_search",
]

#: Any compiled engine: they have the same methods and properties.
CompiledEngine = LinksEngine | BitEngine | CellEngine

#: Item-choice rules, by name, with the engine's code for each.
#: ``mrv``: fewest remaining options, ties to the leftmost active item (Knuth's DLX1).
#: ``leftmost``: the first active primary item. ``random``: MRV, ties broken at random.
#: ``forced``: MRV, and where some item has one option left, every such item is covered
#: by its option at once, in one node (the bit-parallel engine only; see "Forced moves"
#: in :mod:`excover.engines._bits`). ``weighted``: fewest options per unit of weight, an
#: item's weight growing each time it is found with no option left (Christine Solnon's
#: failure weights; the bit-parallel engine only). ``sizes``: MRV, and a level is dead when
#: the number of primary items left is no sum of the sizes of distinct groups in play
#: (options that share a secondary item, each with as many primary items: the pieces of a
#: tiling used at most once; the bit-parallel engine only, see "The size bound" in
#: :mod:`excover.engines._bits`).
HEURISTICS: dict[str, int] = {
    "mrv": 0,
    "leftmost": 1,
    "random": 2,
    "forced": 3,
    "weighted": 4,
    "sizes": 5,
}


#: ``auto`` gives the bit-parallel engine problems of at most this many options (with a
#: primary item) ...
AUTO_BITS_OPTIONS = 1 << 16
#: ... and at most this many bits (items, plus the colors of secondary items) ...
AUTO_BITS_BITS = MAX_BITS
#: ... when it is cheap: a node of its search costs about ``W = (options / 64) x
#: (primary items)`` word operations, a node of dancing links about ``D = (options per
#: primary item) x (items per option)^2`` updates. Measured on queens, dominoes, sudoku
#: grids, nonograms and polyomino packings, the bit-parallel engine is the faster when
#: ``W`` is at most this many words ...
AUTO_BITS_SMALL = 2048
#: ... or at most this many times ``D`` (the ratios and timings it was set from:
#: docs/performance.md, the engines' table).
AUTO_BITS_RATIO = 4
#: ``auto`` gives dancing cells the uncolored problems it does not give the bit-parallel
#: engine whose primary items have at least this many options each on average (and no
#: secondary item).
AUTO_CELLS_OPTIONS = 20
#: ``share=`` deals out the option tries of this level of the search tree (and the
#: solutions above it): a few thousand units on the problems worth running in parts.
SHARE_DEPTH = 3

#: The most bytes the level stack of the bit-parallel engine may take on Algorithm M,
#: where a search can be as deep as the options are many.
BITS_STACK_BYTES = 1 << 28


def new_engine(
    problem: Problem,
    heuristic: str,
    seed: int,
    algorithm: Literal["X", "C", "M"] | None = None,
    first_item: int = -1,
    engine: Literal["dlx", "bits", "cells"] = "dlx",
    share: tuple[int, int] | None = None,
) -> CompiledEngine:
    """A fresh compiled engine over the problem's flat arrays.

    ``algorithm`` forces ``"X"``, ``"C"`` or ``"M"`` (the engine refuses one that cannot
    solve the problem); by default the engine picks the cheapest that can. ``first_item``
    (a primary item's position, -1 for none) is the item the root branches on. ``engine``
    is ``"dlx"``, ``"bits"`` or ``"cells"`` (see :func:`pick_engine`); ``share=(k, n)`` (bits only)
    runs part ``k`` of ``n`` of the search (see :class:`Search`).
    """
    kind: type[CompiledEngine] = {"dlx": LinksEngine, "bits": BitEngine, "cells": CellEngine}[
        engine
    ]
    extra: dict[str, Any] = {}
    if share is not None:  # only the bit-parallel engine splits its search
        kind, extra = BitEngine, {"share": (*share, SHARE_DEPTH)}
    return kind(
        problem.engine_input(),
        HEURISTICS[heuristic],
        seed,
        algorithm=algorithm,
        first_item=first_item,
        **extra,
    )


def _bits_misfit(problem: Problem, options_cap: int, bits_cap: int) -> str | None:
    """Why the bit-parallel engine would not take the problem under these caps, or None."""
    arrays = problem.engine_input()
    options = len(arrays.option_start) - 1
    if options > options_cap:
        return f"it has {options} options, more than {options_cap}"
    stack = _multiplicity_stack_bytes(arrays, options)
    if stack > BITS_STACK_BYTES:
        return (
            f"its multiplicities allow searches so deep that the level stack would take "
            f"{stack:,} bytes, more than {BITS_STACK_BYTES:,}"
        )
    bits = bits_needed(arrays.n_primary, arrays.n_secondary, arrays.node_item, arrays.node_color)
    if bits > bits_cap:
        return f"it needs {bits} bits (items and colors), more than {bits_cap}"
    return None


def _multiplicity_stack_bytes(arrays: EngineInput, options: int) -> int:
    """About the bytes of the bit-parallel engine's level stack for Algorithm M (0 without
    multiplicities): a level covers an item once more or closes an item with a
    multiplicity, and holds the options in play as a bitset."""
    n_primary, lo, hi = arrays.n_primary, arrays.lo, arrays.hi
    bounded = [t for t in range(n_primary) if lo[t] != 1 or hi[t] != 1]
    if not bounded:
        return 0
    options_of = primary_counts(n_primary, arrays.node_item)
    levels = 1 + len(bounded) + sum(min(hi[t], options_of[t]) for t in range(n_primary))
    return levels * ((options // 64 + 1) * 8 + 4 * len(bounded))


def _bits_are_cheap(problem: Problem) -> bool:
    """Whether the bit-parallel engine should beat dancing links on ``problem``, by the
    cost model of :data:`AUTO_BITS_SMALL` and :data:`AUTO_BITS_RATIO`."""
    arrays = problem.engine_input()
    options = len(arrays.option_start) - 1
    if arrays.n_primary == 0 or options == 0:
        return True
    words = (options // 64 + 1) * arrays.n_primary
    if words <= AUTO_BITS_SMALL:
        return True
    per_item = sum(primary_counts(arrays.n_primary, arrays.node_item)) / arrays.n_primary
    size = len(arrays.node_item) / options
    return words <= AUTO_BITS_RATIO * per_item * size * size


def pick_engine(problem: Problem, engine: str = "auto") -> Literal["dlx", "bits", "cells"]:
    """The engine that runs ``problem`` when ``engine`` is asked for.

    ``"auto"`` picks ``"bits"`` for problems of at most ``AUTO_BITS_OPTIONS`` options and
    ``AUTO_BITS_BITS`` bits (whose multiplicities, if any, keep its level stack under
    ``BITS_STACK_BYTES``) where its cost model says it is the faster (see
    :data:`AUTO_BITS_SMALL`); else ``"cells"`` for problems without multiplicities that
    have colors or whose primary items have :data:`AUTO_CELLS_OPTIONS` options or more
    each, with no secondary item; and ``"dlx"`` otherwise. Asking for ``"bits"`` or
    ``"cells"`` on a problem it cannot run raises :class:`~excover.UsageError` saying why.
    """
    if engine == "dlx":
        return "dlx"
    if engine == "bits":
        misfit = _bits_misfit(problem, MAX_OPTIONS, MAX_BITS)
        if misfit is not None:
            raise UsageError(f"the bit-parallel engine cannot run this problem: {misfit}")
        return "bits"
    if engine == "cells":
        if _has_multiplicities(problem):
            raise UsageError(
                "dancing cells cannot run this problem: it has multiplicities "
                "(engine='bits' or 'dlx' run Algorithm M)"
            )
        return "cells"
    if engine != "auto":
        raise UsageError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    fits = _bits_misfit(problem, AUTO_BITS_OPTIONS, AUTO_BITS_BITS) is None
    if fits and _bits_are_cheap(problem):
        return "bits"
    return "cells" if _cells_suit(problem) else "dlx"


def _check_bits_only(
    problem: Problem, heuristic: str, engine: str, share: tuple[int, int] | None
) -> None:
    """Refuse ``heuristic="forced"`` or ``"weighted"`` where it does not run: with
    multiplicities, in shares (a part's weights, learnt from its own subtrees, would
    change its choices at the top of the tree), or on another engine than the
    bit-parallel one (``engine="auto"`` takes it)."""
    if _has_multiplicities(problem):
        raise UsageError(f"heuristic {heuristic!r} does not run problems with multiplicities")
    if share is not None:
        raise UsageError(f"heuristic {heuristic!r} does not run in shares (share=)")
    if engine not in ("auto", "bits"):
        raise UsageError(
            f"heuristic {heuristic!r} runs on the bit-parallel engine, not on {engine!r}"
        )


def _has_multiplicities(problem: Problem) -> bool:
    arrays = problem.engine_input()
    return any(lo != 1 or hi != 1 for lo, hi in zip(arrays.lo, arrays.hi, strict=True))


def _cells_suit(problem: Problem) -> bool:
    """Whether dancing cells should beat dancing links on ``problem``: colored problems,
    and those whose primary items have many options each and no secondary item (it
    loses where options have secondary items or items with few options; measured in
    docs/performance.md, the engines' table)."""
    if _has_multiplicities(problem):
        return False
    arrays = problem.engine_input()
    if any(arrays.node_color):
        return True
    if arrays.n_secondary or arrays.n_primary == 0:
        return False
    per_item = sum(primary_counts(arrays.n_primary, arrays.node_item)) / arrays.n_primary
    return per_item >= AUTO_CELLS_OPTIONS


def _check_share(share: object) -> None:
    """``share`` as ``(k, n)`` with ``0 <= k < n``, or a UsageError."""
    if (
        not isinstance(share, tuple)
        or len(share) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in share)
        or not 0 <= share[0] < share[1]
    ):
        raise UsageError(f"share must be a pair (k, n) of integers with 0 <= k < n, not {share!r}")


#: The engine counts in signed 64-bit integers: a cap at or beyond this is no cap at all
#: (no search enters 2**63 nodes), and is passed on as "none".
_NO_CAP = 2**63 - 1


def _cap(value: int | None) -> int:
    """A count limit as the engine takes it: -1 for none."""
    return -1 if value is None or value >= _NO_CAP else value


class Search:
    """One run of a compiled search over an exact cover problem (dancing links, the
    bit-parallel engine or dancing cells: ``engine``), holding its state and statistics.

    ``heuristic`` is ``"mrv"`` (default), ``"leftmost"`` or ``"random"`` (MRV with ties
    broken by a generator seeded with ``seed``; a random seed when ``seed`` is None).
    The limits bound the whole run, however many calls it takes: ``max_solutions`` stops it
    quietly after that many solutions; ``max_nodes`` (nodes of the search tree),
    ``timeout`` (seconds spent searching, ``stats.seconds``: a budget of engine time that
    the caller's own time between calls does not use up) and ``deadline`` (a wall-clock
    instant, a ``time.monotonic()`` value: no call goes on past it, whoever spent the time
    before) raise :class:`~excover.LimitReached` with the reason ``"timeout"`` when they
    stop it. The engine looks at the clock where it looks for Ctrl-C (every few
    milliseconds of work), and a call made once the deadline has passed stops at once.
    (The solving shortcuts, ``p.count(timeout=...)`` and the like, and the command line
    turn their ``timeout`` into a ``deadline``: for them it is wall-clock time.) They are
    plain attributes: after a limit, raise it (``s.timeout += 10``, ``s.deadline =
    time.monotonic() + 10``) and call again to continue the same search from where it
    stopped; after a ``KeyboardInterrupt`` the next call continues as well.
    ``branch_first`` names a primary item (or gives its position) that the root of the
    tree branches on whatever the heuristic says; the levels below follow the heuristic.
    ``engine`` is ``"auto"`` (default), ``"dlx"``, ``"bits"`` or ``"cells"`` (see
    :func:`pick_engine`);
    without multiplicities every engine finds the same solutions in the same order (with
    them, the same solutions in another order), and ``stats.engine`` names the one that ran.

    ``share=(k, n)`` runs part ``k`` (from 0) of ``n`` of the search, on the bit-parallel
    engine: the ``n`` parts, run anywhere with the same heuristic and seed, find every
    solution exactly once between them, with no communication. Every part walks the top
    of the search tree, and part ``k`` takes every ``n``-th branch at its third level
    (:data:`SHARE_DEPTH`), so the parts have about the same work when the tree is bushy.
    """

    def __init__(
        self,
        problem: Problem,
        *,
        heuristic: str = "mrv",
        seed: int | None = None,
        max_solutions: int | None = None,
        max_nodes: int | None = None,
        timeout: float | None = None,
        branch_first: str | int | None = None,
        engine: str = "auto",
        share: tuple[int, int] | None = None,
    ) -> None:
        if heuristic not in HEURISTICS:
            known = ", ".join(HEURISTICS)
            raise UsageError(f"unknown heuristic {heuristic!r}; choose one of {known}")
        check_count_limit("max_solutions", max_solutions)
        check_count_limit("max_nodes", max_nodes)
        check_time_limit("timeout", timeout)
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little") >> 1
        elif not isinstance(seed, int):
            raise UsageError(f"seed must be an integer, not {seed!r}")
        self.problem = problem
        self.heuristic = heuristic
        self.seed = seed
        self.max_solutions = max_solutions
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.deadline: float | None = None
        first = (
            -1
            if branch_first is None
            else problem.primary_position(branch_first, "be branched on first")
        )
        if heuristic in ("forced", "weighted"):
            _check_bits_only(problem, heuristic, engine, share)
            engine = "bits"  # its only engine (auto included)
        elif heuristic == "sizes":
            if engine not in ("auto", "bits"):
                raise UsageError(
                    f"heuristic 'sizes' runs on the bit-parallel engine, not on {engine!r}"
                )
            engine = "bits"
        self.engine = pick_engine(problem, engine)
        if share is not None:
            _check_share(share)
            if self.engine != "bits":
                raise UsageError(
                    "share= runs on the bit-parallel engine, which this problem does not "
                    f"suit: {_bits_misfit(problem, MAX_OPTIONS, MAX_BITS) or 'engine=dlx'}"
                )
        self._engine = new_engine(
            problem,
            heuristic,
            seed & 0x7FFF_FFFF_FFFF_FFFF,
            first_item=first,
            engine=self.engine,
            share=share,
        )
        self._seconds = 0.0
        self._stopped_by: str | None = None

    def _repr_html_(self) -> str:
        """What a notebook shows: the problem, the heuristic and the statistics of the
        run so far (:mod:`excover.display`); nothing is run."""
        from excover.display import record_html

        facts = [("problem", repr(self.problem)), ("heuristic", self.heuristic)]
        return record_html("search", "Search", [*facts, *self.stats.as_dict().items()])

    @property
    def stats(self) -> Stats:
        """A snapshot of the statistics of this run so far."""
        engine = self._engine
        return Stats(
            solutions=engine.solutions,
            nodes=engine.nodes,
            updates=engine.updates,
            seconds=self._seconds,
            complete=engine.finished,
            stopped_by=self._stopped_by,
            algorithm=engine.algorithm,
            engine=self.engine,
        )

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the engine's arrays (links, lengths, level stack)."""
        return int(self._engine.memory_bytes)

    def _run(self, count_only: bool, stop_at: int | None = None) -> int:
        """One call of the engine, within the limits; ``stop_at`` ends this call (not the
        run) once the search has entered that many nodes in all."""
        run = self._engine.run
        node_cap = _cap(self.max_nodes)
        if stop_at is not None and stop_at < _NO_CAP and (node_cap < 0 or stop_at < node_cap):
            node_cap = stop_at
        solution_cap = _cap(self.max_solutions)
        return self._call(lambda deadline: run(count_only, solution_cap, node_cap, deadline))

    def _call(self, call: Callable[[float], int]) -> int:
        """The status of ``call(deadline)``, a call of the engine given the instant it must
        stop at (as the engines take it), timed into ``seconds``: no call once the deadline
        has passed, and a call stopped by a limit raises :class:`~excover.LimitReached`."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self._stopped_by = "timeout"  # not even one more solution past the deadline
            raise LimitReached("timeout", self.stats)
        deadline = self._engine_deadline()
        started = time.perf_counter()
        self._stopped_by = None
        try:
            status = int(call(deadline))
        except KeyboardInterrupt:
            self._stopped_by = "interrupt"
            raise
        finally:
            self._seconds += time.perf_counter() - started
        self._check_stop(status)
        return status

    def _check_stop(self, status: int) -> None:
        """Note why the engine's call ended with ``status``, raising
        :class:`~excover.LimitReached` for ``max_nodes`` and the time limits."""
        if status == MAX_SOLUTIONS:
            self._stopped_by = "max_solutions"
        elif (
            status == MAX_NODES
            and self.max_nodes is not None
            and self._engine.nodes >= self.max_nodes
        ):
            self._stopped_by = "max_nodes"
            raise LimitReached("max_nodes", self.stats)
        elif status == TIMEOUT:
            self._stopped_by = "timeout"
            raise LimitReached("timeout", self.stats)

    def _engine_deadline(self) -> float:
        """The ``time.monotonic()`` value at which the engine's call must stop: the earlier
        of ``deadline`` and the end of the ``timeout`` budget (0.0 for neither, as the
        engines take it)."""
        ends = [] if self.deadline is None else [self.deadline]
        if self.timeout is not None:
            ends.append(time.monotonic() + max(0.0, self.timeout - self._seconds))
        return min(ends, default=0.0)

    def count(self) -> int:
        """Run the search to its end and return the number of solutions of the whole run.

        Solutions already returned by :meth:`first` or :meth:`solutions` are included. The
        count is an exact Python int; with ``max_solutions`` it is at most that bound.
        """
        if not self._engine.finished:
            self._run(count_only=True)
        return int(self._engine.solutions)

    def count_until(self, nodes: int) -> bool:
        """Count on until the search ends or has entered ``nodes`` search nodes in all (the
        measure of ``max_nodes``); True when it ended. Reaching ``nodes`` is not an error:
        this is the way to run a search in steps (``method="auto"`` scouts with it). The
        ``max_nodes`` limit, when lower, still raises :class:`~excover.LimitReached`."""
        check_count_limit("nodes", nodes)
        if not self._engine.finished:
            self._run(count_only=True, stop_at=nodes)
        return bool(self._engine.finished)

    def first(self) -> list[int] | None:
        """The next solution (the first one, on a fresh run) as option indices, or None."""
        if self._engine.finished:
            return None
        status = self._run(count_only=False)
        return list(self._engine.solution()) if status == SOLUTION else None

    def solutions(self, limit: int | None = None) -> Iterator[list[int]]:
        """Lazily yield the remaining solutions (at most ``limit`` of them), each a list of
        option indices. The search resumes in the engine for each new solution."""
        check_limit(limit)
        produced = 0
        while limit is None or produced < limit:
            solution = self.first()
            if solution is None:
                return
            produced += 1
            yield solution

    def solution_table(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Every remaining solution, listed to the end in one call: ``(options, starts)``,
        the options of the ``k``-th solution being ``options[starts[k]:starts[k + 1]]``,
        as :meth:`solutions` would give them (same solutions, order and option order).
        The engine is resumed solution after solution without the per-call work of
        :meth:`first` (its limits are read once), so that listing a million small
        solutions costs about a second less than :meth:`solutions`. The limits apply as
        in :meth:`first`: ``max_solutions`` ends the list quietly, ``max_nodes`` and the
        time limits raise :class:`~excover.LimitReached` (the solutions of this call
        are then lost; ``stats`` counts them)."""
        import numpy as np

        engine = self._engine
        node_cap = _cap(self.max_nodes)
        solution_cap = _cap(self.max_solutions)
        found: list[int] = []
        starts = [0]
        run, solution, extend, append = engine.run, engine.solution, found.extend, starts.append

        def listed(deadline: float) -> int:
            while (status := run(False, solution_cap, node_cap, deadline)) == SOLUTION:
                extend(solution())
                append(len(found))
            return int(status)

        if not engine.finished:
            self._call(listed)
        return np.array(found, dtype=np.int64), np.array(starts, dtype=np.int64)

    def root_solutions(self) -> dict[int, int] | None:
        """The solutions found so far under each option of the ``branch_first`` item
        (option index: solutions; every option of the item in play at the root, zeros
        included), when the engine keeps them: the bit-parallel engine on Algorithms X
        and C; None otherwise. One run then counts several subproblems side by side,
        one per option of that item (see :mod:`excover.symmetry.broken`)."""
        if not isinstance(self._engine, BitEngine):
            return None
        found = self._engine.root_solutions()
        return None if found is None else {int(k): int(v) for k, v in found.items()}

    def progress(self) -> float | None:
        """The share of the search tree walked so far, 0 to 1, by Knuth's estimate from
        the choices on the current path (each branch of a node taken as an equal share
        of it: rough early, and biased where subtrees differ much), when the engine
        tells it: the bit-parallel engine and dancing links on Algorithms X and C; None
        otherwise."""
        if isinstance(self._engine, CellEngine):
            return None
        share = self._engine.progress()
        return None if share is None else float(share)

    def reset(self) -> None:
        """Forget all progress: the next call starts the search from the beginning."""
        self._engine.reset()
        self._seconds = 0.0
        self._stopped_by = None


class Deadline:
    """One wall-clock limit for a run of one search or of many: ``timeout`` seconds
    (None: no limit) from the moment it is made, as a ``time.monotonic()`` instant
    (``until``). A run of several searches (a symmetry-broken count, Burnside's lemma)
    hands each the time :meth:`left`, so that together they stop on time."""

    def __init__(self, timeout: float | None) -> None:
        check_time_limit("timeout", timeout)
        self.until = None if timeout is None else time.monotonic() + timeout

    def left(self) -> float | None:
        """The seconds left (0 once past; None: no limit)."""
        return None if self.until is None else max(0.0, self.until - time.monotonic())

    def options(self, options: SearchOptions) -> SearchOptions:
        """``options`` (without a ``timeout``) with the time left as their ``timeout``."""
        left = self.left()
        return options if left is None else {**options, "timeout": left}


def wall_clock_search(problem: Problem, **options: Unpack[SearchOptions]) -> Search:
    """A :class:`Search` of ``problem`` with ``options``, its ``timeout`` taken as
    wall-clock seconds from now: the search's ``deadline``. This is how the solving
    shortcuts (``p.first``, ``p.solutions``, ``p.count``) read ``timeout``: a listing
    stops once that much time has passed since the call, the caller's time between two
    solutions and the building of the engine included."""
    deadline = Deadline(options.pop("timeout", None))
    search = Search(problem, **options)
    search.deadline = deadline.until
    return search
