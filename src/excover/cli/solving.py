"""Counting and listing the solutions of an exact cover problem, for every method.

Every subcommand that solves an :class:`~excover.ExactCover` (``count``, ``solve``,
``queens``, ``sudoku --count/--all``) goes through :func:`count` or :func:`solutions`
here, so the flags mean the same everywhere and each method takes the route the API takes
for it (``excover count --method zdd`` counts as ``p.count(method="zdd")`` does).

Limits: ``--timeout`` is wall-clock time from the start of the command
(:func:`~excover.cli.common.stop_time`), whatever the time is spent on (printing
included). Dancing links runs in slices (:class:`DlxRunner`) and stops cleanly at
``--timeout``, ``--max-nodes``, ``--limit`` or Ctrl-C with its count so far; SAT honours
``--timeout`` and ``--limit`` itself; the ZDD method stops at ``--timeout`` by an alarm
(:func:`~excover.cli.common.deadline`) and at its memory bound (``--max-memory``), with
no partial count (a ZDD count is not a sum found solution by solution) but with the
solutions listed so far; ``--method auto`` races the routes of
:mod:`excover.counting` within ``--timeout`` (the partial count is its search's), says
which route finished and why (``route`` in ``--json``), and ``--route NAME`` forces one.
A method that cannot honour a flag refuses it at once.
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from excover.cli.common import given, refuse, stop_time, time_left
from excover.cli.outcome import ENGINE_NAMES, Outcome, dlx_engine, dlx_stats
from excover.cli.progress import progress
from excover.errors import LimitReached, UsageError

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from excover.counting import CountResult
    from excover.engines import Search
    from excover.preprocess import PreprocessStats
    from excover.solving import ExactCover

    _T = TypeVar("_T")

__all__ = ["DlxRunner", "Outcome", "check_method_flags", "count", "count_auto", "route_report"]
__all__ += ["solutions"]

#: The longest stretch of search (seconds) before the command looks at Ctrl-C again.
SLICE = 0.05


def check_method_flags(args: argparse.Namespace, method: str, counting: bool) -> None:
    """Refuse every flag that ``method`` cannot honour, at once and saying why."""
    dlx_only = f"chooses items in dancing links: it goes with --method dlx (or auto), not {method}"
    if method not in ("dlx", "auto"):
        refuse(args, "heuristic", dlx_only)
        refuse(args, "engine", dlx_only.replace("chooses items in", "chooses the engine of"))
    if getattr(args, "seed", None) is not None and getattr(args, "heuristic", None) != "random":
        raise UsageError("--seed goes with --heuristic random (the other heuristics draw nothing)")
    if method != "auto":
        refuse(args, "route", f"forces one route of --method auto, not of {method}")
    elif given(args, "route"):
        for name in ("heuristic", "seed", "engine", "limit", "max_nodes"):
            refuse(args, name, "does not go with --route (which forces one route)")
    if method != "sat":
        refuse(args, "solver", f"goes with --method sat, not {method}")
        refuse(args, "amo", f"goes with --method sat, not {method}")
    if method == "sat":
        refuse(args, "max_nodes", "counts nodes of a dancing-links search: a SAT solver has none")
    if method != "zdd":
        refuse(
            args,
            "max_memory",
            f"goes with --method zdd (it bounds the ZDD's nodes, DXZ's memo and the frontier "
            f"count's states), not {method}",
        )
    if method == "zdd":
        refuse(args, "max_nodes", "counts nodes of a dancing-links search: --method zdd has none")
        if counting:
            refuse(
                args,
                "limit",
                "stops an enumeration: --method zdd counts without enumerating (use dlx)",
            )


# --------------------------------------------------------------------------- dancing links


class _Stopped(Exception):
    """The run ended early; ``reason`` is a key of :data:`~excover.cli.common.STOP_CAUSES`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class DlxRunner:
    """Drives one :class:`~excover.Search` in slices of :data:`SLICE` seconds.

    The engine keeps its state when a slice ends, so slicing costs next to nothing, and the
    command can act between two slices: it enforces ``--timeout`` (a slice ends at the
    command's deadline or after :data:`SLICE` seconds, whichever is first, and no slice
    starts past the deadline, however the time went: printing solutions counts), draws
    the progress bar and notices Ctrl-C. ``--max-nodes`` is the search's own whole-run
    bound. Ctrl-C only raises a flag, so it never falls between the engine finding a
    solution and the command printing it: every solution the statistics count has been
    printed. A second Ctrl-C raises KeyboardInterrupt at once.
    """

    def __init__(self, search: Search, args: argparse.Namespace) -> None:
        self.search = search
        self.max_nodes: int | None = getattr(args, "max_nodes", None)
        self.deadline = stop_time(args)
        self.interrupted = False
        self.tick: Callable[[], None] | None = None  # called between slices (progress)

    def step(self, call: Callable[[], _T]) -> _T:
        """``call()`` (``search.count`` or ``search.first``), resumed until it returns."""
        search = self.search
        while True:
            if self.interrupted:
                raise _Stopped("interrupt")
            end = time.monotonic() + SLICE
            search.deadline = end if self.deadline is None else min(end, self.deadline)
            search.max_nodes = self.max_nodes
            try:
                return call()
            except LimitReached as exc:
                if exc.reason != "timeout":
                    raise _Stopped(exc.reason) from None
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    raise _Stopped("timeout") from None
                if self.tick is not None:
                    self.tick()

    def solutions(self, limit: int | None) -> Iterator[list[int]]:
        """The solutions, one by one, until the last one or ``limit`` of them."""
        found = 0
        while limit is None or found < limit:
            solution = self.step(self.search.first)
            if solution is None:
                return
            found += 1
            yield solution
            if self.tick is not None:
                self.tick()
        raise _Stopped("limit")

    def run(self, body: Callable[[], object]) -> str | None:
        """Run ``body``, which drives the search; return why it stopped early, or None."""
        with self._noting_ctrl_c():
            try:
                body()
            except _Stopped as exc:
                return exc.reason
            except KeyboardInterrupt:
                return "interrupt"
        return None

    @contextmanager
    def _noting_ctrl_c(self) -> Iterator[None]:
        """Within the block, Ctrl-C sets ``interrupted`` rather than raising (first time).

        Left alone when Ctrl-C is ignored (a background job) or handled by a program that
        calls :func:`~excover.cli.main`, or off the main thread: the engine's
        KeyboardInterrupt stops the run then.
        """

        def note(signum: int, frame: FrameType | None) -> None:
            if self.interrupted:
                raise KeyboardInterrupt
            self.interrupted = True

        noting = signal.getsignal(signal.SIGINT) is signal.default_int_handler
        if noting:
            try:
                signal.signal(signal.SIGINT, note)
            except ValueError:  # Python sets signal handlers in the main thread only
                noting = False
        if not noting:
            yield
            return
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def new_search(problem: ExactCover, args: argparse.Namespace) -> Search:
    """A dancing-links run with the command line's heuristic and seed."""
    return problem.search(
        heuristic=getattr(args, "heuristic", None) or "mrv",
        seed=getattr(args, "seed", None),
        max_solutions=getattr(args, "limit", None),
        engine=getattr(args, "engine", None) or "auto",
    )


class _CountProgress:
    """The progress bar of a dancing-links search (a count, or a listing): nodes so far
    against Knuth's estimate of the size of the tree, made by random probes once the
    search has run a second."""

    def __init__(
        self, problem: ExactCover, search: Search, args: argparse.Namespace, desc: str = "count"
    ) -> None:
        self.problem = problem
        self.search = search
        self.bar = progress(args, desc=desc, unit="node")
        self.started = time.monotonic()
        self.drawn = 0.0  # when the bar was last drawn
        self.estimated = False

    def __call__(self) -> None:
        if not self.bar.shown:
            return
        now = time.monotonic()
        if now - self.drawn < 0.1:  # a listing calls at every solution
            return
        self.drawn = now
        total = None
        if not self.estimated:
            if now - self.started < 1.0:
                return
            from excover.parallel.probes import quick_nodes

            total = quick_nodes(self.problem, 0.2)
            self.estimated = True
        stats = self.search.stats
        self.bar.set(stats.nodes, total, solutions=stats.solutions)

    def close(self) -> None:
        """End the bar: a search run to its end has done all its nodes, 100% of the
        tree (the estimate that sized the bar was an estimate)."""
        stats = self.search.stats
        if self.bar.shown and stats.complete:
            self.bar.set(stats.nodes, stats.nodes, solutions=stats.solutions)
        self.bar.close()


def count_dlx(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """Count by dancing links, in slices."""
    search = new_search(problem, args)
    runner = DlxRunner(search, args)
    bar = _CountProgress(problem, search, args)
    runner.tick = bar
    stopped_by = runner.run(lambda: runner.step(search.count))
    bar.close()
    if stopped_by is None and search.stats.stopped_by == "max_solutions":
        stopped_by = "limit"
    stats = dlx_stats(search, stopped_by)
    return Outcome("dlx", dlx_engine(search), search.stats.solutions, stopped_by, stats)


# --------------------------------------------------------------------------- counting


def _dlx_options_given(args: argparse.Namespace) -> bool:
    """Whether the command line passes dancing-links options, which send ``auto`` to
    dancing links as they do in the API (``p.count(max_nodes=...)``); ``--timeout`` and
    ``--engine`` go with the race of routes."""
    return (getattr(args, "heuristic", None) or "mrv") != "mrv" or any(
        getattr(args, name, None) is not None for name in ("seed", "max_nodes", "limit")
    )


def route_report(found: CountResult) -> dict[str, Any]:
    """The ``route`` field of ``--json`` (and the stderr line): the route that finished,
    why, and each route's seconds, search nodes and steps."""
    work = {
        name: {"seconds": done.seconds, "nodes": done.nodes, "steps": done.steps}
        for name, done in found.work.items()
    }
    return {"name": found.route, "reason": found.reason, "work": work}


def count_auto(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """``--method auto``: the count of :func:`excover.counting.count` (the frontier count,
    or the race of routes), or the route ``--route`` forces; ``--timeout`` and Ctrl-C
    stop it with the partial count of the race's search (none if no search ran)."""
    from excover.counting import ROUTES, choice
    from excover.counting.routes import SearchRunner

    started = time.perf_counter()
    engine = getattr(args, "engine", None) or "auto"
    route = getattr(args, "route", None)
    # --preprocess reduced the problem already, --no-preprocess keeps it as it is
    automatic = getattr(args, "preprocess", None) is None
    plan = choice.plan(problem, route, engine, time_left(args), preprocess=automatic)
    try:
        found = choice.run(plan, started)
    except (LimitReached, KeyboardInterrupt) as error:
        stopped_by = "timeout" if isinstance(error, LimitReached) else "interrupt"
        partial = choice.partial(plan.runners, time.perf_counter() - started)
        stats = {**partial.as_dict(), "stopped_by": stopped_by, "complete": False}
        stats["seconds"] = time.perf_counter() - started
        searched = partial.engine in ENGINE_NAMES  # else no route has a partial count
        return Outcome("auto", None, partial.solutions if searched else None, stopped_by, stats)
    counted = (r for r in plan.runners if isinstance(r, SearchRunner) and r.count is not None)
    search = next((r.search for r in counted), None)
    if search is not None and search.engine == found.route:  # the search counted
        stats = dlx_stats(search, None)
        stats.update(preprocessing_stats(found.preprocessed))
        return Outcome("dlx", dlx_engine(search), found.count, None, stats, route_report(found))
    stats = {"solutions": found.count, "nodes": found.work[found.route].nodes}
    stats.update(seconds=found.seconds, complete=True, stopped_by=None)
    stats.update(preprocessing_stats(found.preprocessed))
    engine = ROUTES[found.route].about
    return Outcome(found.method, engine, found.count, None, stats, route_report(found))


def preprocessing_stats(done: PreprocessStats | None) -> dict[str, Any]:
    """What preprocessing did (options and items removed, forced options, its rounds
    and seconds, why it was skipped), as fields of ``--stats`` and ``--json``; none when
    it did not run."""
    if done is None:
        return {}
    fields: dict[str, Any] = {
        "options_removed": done.options_removed,
        "items_removed": done.items_removed,
        "forced_options": len(done.forced),
        "preprocess_rounds": done.rounds,
        "preprocess_seconds": round(done.seconds, 6),
    }
    if not done.complete:
        fields["preprocess_complete"] = False
    if done.skipped is not None:
        fields["preprocess_skipped"] = done.skipped
    return fields


def count(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """Count the solutions of ``problem`` by ``args.method`` within the command line's
    limits, as :meth:`ExactCover.count` would (same route for the same method)."""
    method = args.method
    check_method_flags(args, method, counting=True)
    if method == "sat":
        from excover.cli.sat import count_sat

        return count_sat(problem, args)
    if method == "zdd":
        from excover.cli.zdd import count_zdd

        return count_zdd(problem, args)
    if method == "auto" and not _dlx_options_given(args):
        return count_auto(problem, args)
    return count_dlx(problem, args)


# --------------------------------------------------------------------------- listing


def solutions(
    problem: ExactCover, args: argparse.Namespace, emit: Callable[[list[int]], None]
) -> Outcome:
    """Find the solutions of ``problem`` by ``args.method`` (``auto``: dancing links, as
    in the API), calling ``emit`` on each as soon as it is found; stops at the command
    line's limits, Ctrl-C or a closed pipe (BrokenPipeError propagates)."""
    method = "dlx" if args.method == "auto" else args.method
    check_method_flags(args, method, counting=False)
    limit = getattr(args, "limit", None)
    if method == "sat":
        from excover.cli.sat import solve_sat

        return solve_sat(problem, args, emit)
    if method == "zdd":
        from excover.cli.zdd import solve_zdd

        return solve_zdd(problem, args, emit)
    search = new_search(problem, args)
    search.max_solutions = None  # the runner counts --limit itself
    runner = DlxRunner(search, args)
    bar = _CountProgress(problem, search, args, "solve")
    runner.tick = bar
    found = 0

    def body() -> None:
        nonlocal found
        for solution in runner.solutions(limit):
            found += 1
            emit(solution)

    stopped_by = runner.run(body)
    bar.close()
    return Outcome("dlx", dlx_engine(search), found, stopped_by, dlx_stats(search, stopped_by))
