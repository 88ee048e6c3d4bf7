"""The counting routes, by name, each behind one small interface (:class:`Runner`).

A *route* is one way of counting every solution of an exact cover problem:

* ``dlx``, ``bits``, ``cells``: a counting search on one of the compiled engines
  (:mod:`excover.engines`: dancing links, the bit-parallel engine, dancing cells), with
  the MRV heuristic. The three walk the same search tree at different speeds.
* ``dxz``: DXZ, dancing links with a memo of sub-problems building the ZDD of all
  solutions (:mod:`excover.zdd.dxz`), which is then counted.
* ``frontier``: the layer-by-layer count over DXZ's states (:mod:`excover.zdd.frontier`),
  for problems of primary items only whose options each span fewer than 64 items in
  some order, or fewer than 255 in the order of few states that it picks (a window of
  up to four words).
* ``components``: the component-decomposition count of
  :mod:`excover.counting.components` (problems without multiplicities).

Every route is started as a :class:`Runner`, which counts in steps:
:meth:`Runner.advance` works for about the seconds it is given and returns the count once
the route has finished. Every route *pauses*: a step goes on from where the last one
stopped, so a run in many steps costs what one run costs (the component count repeats
only its walk down to the component it stopped in, from its cache; the frontier count
stops between two layers). A route that could not pause would start again at each step
(:class:`Restarting`); given steps that double, its lost work is less than its last
step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from excover.errors import LimitReached, ResourceLimitError, UsageError

if TYPE_CHECKING:
    from excover.engines import Search
    from excover.problem import ExactCover
    from excover.zdd._frontier import Counting
    from excover.zdd.dxz import Run
    from excover.zdd.frontier import Layout

__all__ = ["ENGINE_ROUTES", "ROUTES", "SCOUT_NODES", "SCOUT_WORK", "ComponentsRunner", "Restarting"]
__all__ += ["FrontierRunner", "Route", "Runner", "frontier_runner"]
__all__ += ["scout_nodes", "start"]

#: The routes that run one of the compiled search engines (named as ``engine=`` names it).
ENGINE_ROUTES = ("dlx", "bits", "cells")

#: Search nodes of a pausable route's first step, besides two per primary item (a few
#: times the depth of a solution: enough to finish a tiny problem at once).
FIRST_NODES = 64

#: Search nodes of the scout that runs before any race (:func:`scout_nodes`) ...
SCOUT_NODES = 4096
#: ... unless its MRV scans would pass this many word operations: a node of the
#: bit-parallel engine costs about (options / 64) x (primary items) of them.
SCOUT_WORK = 4_000_000


def scout_nodes(problem: ExactCover) -> int:
    """The node budget of the search's scout: :data:`SCOUT_NODES`, fewer where nodes are
    dear (:data:`SCOUT_WORK`); 0 (no scout) where even :data:`FIRST_NODES` would pass
    that work."""
    data = problem.engine_input()
    words_per_node = max(1, data.n_primary * (len(data.option_start) // 64 + 1))
    budget = min(SCOUT_NODES, SCOUT_WORK // words_per_node)
    return budget if budget >= FIRST_NODES else 0


#: A step's node budget grows at most this many times over the last step's nodes, so
#: that a rate measured on a short step cannot send a long one far past its time.
MAX_STEP_GROWTH = 8


#: A search's step stops at the clock after this many times its seconds, plus
#: :data:`MIN_SLACK` seconds, whatever its node budget.
STEP_SLACK = 2.0
MIN_SLACK = 0.002


class Runner:
    """One route started on one problem: counts in steps, and says how much it did.

    Subclasses implement :meth:`_step`; :meth:`advance` keeps the books (``seconds``
    spent, ``nodes`` entered, ``steps`` taken) and ``count`` once finished."""

    #: Whether a step goes on from where the last one stopped (else it starts again).
    pausable = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.seconds = 0.0
        self.steps = 0
        self.count: int | None = None

    @property
    def nodes(self) -> int:
        """The search nodes entered so far (0 for a route that has no nodes)."""
        return 0

    def advance(self, seconds: float | None, deadline: float | None = None) -> int | None:
        """Work for about ``seconds`` (None: to the end), never past the ``deadline`` (a
        ``time.monotonic()`` instant, None: none); return the count once finished, else
        None. Ctrl-C raises KeyboardInterrupt and leaves the runner able to go on."""
        if self.count is not None:
            return self.count
        started = time.perf_counter()
        try:
            self.count = self._step(seconds, deadline)
        finally:
            self.seconds += time.perf_counter() - started
            self.steps += 1
        return self.count

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        raise NotImplementedError

    def _node_budget(self, seconds: float, first: int) -> int:
        """The search nodes in all after a step of ``seconds``: ``first`` for the first
        step, then as many more as the rate measured so far fits in that time."""
        done = self.nodes
        if self.steps == 0 or self.seconds <= 0.0 or done == 0:
            return done + first
        rate = done / self.seconds
        more = max(first, min(int(rate * seconds), MAX_STEP_GROWTH * done))
        return done + more


class SearchRunner(Runner):
    """A counting search on one compiled engine (MRV), paused and resumed by node budgets;
    the ``deadline`` is handed to the engine as well. The engine is built in the first
    step, whose time includes it (the bit-parallel engine takes tens of milliseconds to
    build for a few thousand options: a race must count that against it)."""

    def __init__(self, problem: ExactCover, engine: str) -> None:
        from excover.engines import pick_engine

        super().__init__(pick_engine(problem, engine))  # UsageError if it cannot run it
        self.problem = problem
        self.search: Search | None = None
        self.first = FIRST_NODES + 2 * problem.engine_input().n_primary

    @property
    def nodes(self) -> int:
        return 0 if self.search is None else self.search.stats.nodes

    def scout(self, deadline: float | None) -> int | None:
        """Search for :func:`scout_nodes` nodes, by the node count alone (no clock but the
        caller's ``deadline``), as the first step; the count if that finished the search.
        A problem this small is counted the same way whatever the machine's load."""
        budget = scout_nodes(self.problem)
        if budget == 0:
            return None
        started = time.perf_counter()
        try:
            search = self._started()
            search.deadline = deadline
            finished = search.count_until(budget)
            self.count = search.count() if finished else None
        finally:
            self.seconds += time.perf_counter() - started
            self.steps += 1
        return self.count

    def _started(self) -> Search:
        if self.search is None:
            self.search = self.problem.search(seed=0, engine=self.name)  # MRV draws nothing
        return self.search

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        search = self._started()
        search.deadline = deadline
        if seconds is None:
            return search.count()
        # the node budget ends the step; the clock is a safety net for nodes far dearer
        # than measured (the engine looks at it every few milliseconds of work)
        late = time.monotonic() + STEP_SLACK * seconds + MIN_SLACK
        search.deadline = late if deadline is None else min(late, deadline)
        try:
            finished = search.count_until(self._node_budget(seconds, self.first))
        except LimitReached as stop:
            if stop.reason == "timeout" and (deadline is None or time.monotonic() < deadline):
                return None  # the step's own time, not the caller's deadline
            raise
        return search.count() if finished else None


class DxzRunner(Runner):
    """DXZ in a private manager, paused and resumed by node budgets (its search cannot
    look at a clock, so a step's budget comes from the rate of the steps before)."""

    def __init__(self, problem: ExactCover) -> None:
        super().__init__("dxz")
        self.problem = problem
        self.run: Run | None = None  # built in the first step, as a search's engine is
        self.first = FIRST_NODES + 2 * problem.engine_input().n_primary
        self._nodes = 0
        self.hits = 0

    @property
    def nodes(self) -> int:
        return self._nodes

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        if self.run is None:
            from excover.zdd import dxz

            self.run = dxz.Run(self.problem, dxz.search_manager())
        budget = -1 if seconds is None else self._node_budget(seconds, self.first)
        probe = self.run.run(budget)
        self._nodes, self.hits = probe.nodes, probe.hits
        return None if probe.family is None else probe.family.count()


class Restarting(Runner):
    """A route that cannot pause: ``count_until(stop)`` counts from scratch, calling
    ``stop()`` often (True: give up now, by raising LimitReached or returning None).
    Each step starts again with the time it is given; when steps double, the time thrown
    away is less than the last step's."""

    pausable = False

    def __init__(self, name: str, count_until: Callable[[Callable[[], bool]], int | None]):
        super().__init__(name)
        self.count_until = count_until

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        ends = [] if deadline is None else [deadline]
        if seconds is not None:
            ends.append(time.monotonic() + seconds)
        end = min(ends, default=None)
        try:
            return self.count_until(lambda: end is not None and time.monotonic() >= end)
        except LimitReached:
            return None


class FrontierRunner(Runner):
    """The frontier count (:func:`excover.zdd.frontier.start`), paused between two
    layers when its step's time is up and resumed at the next layer: no work is lost.
    Its memory is bounded by ``max_bytes`` (0: no bound); past it, or out of memory, it
    raises ResourceLimitError (and leaves a race)."""

    def __init__(self, laid_out: Layout, max_bytes: int = 0) -> None:
        super().__init__("frontier")
        self.laid_out = laid_out
        self.max_bytes = max_bytes
        self.counting: Counting | None = None  # made in the first step

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        from excover.zdd import frontier

        ends = [] if deadline is None else [deadline]
        if seconds is not None:
            ends.append(time.monotonic() + seconds)
        end = min(ends, default=None)
        try:
            if self.counting is None:
                self.counting = frontier.start(self.laid_out, max_bytes=self.max_bytes)
            if end is None:
                total = self.counting.advance()
            else:
                total = self.counting.advance(None, lambda: time.monotonic() >= end)
        except MemoryError as error:
            raise ResourceLimitError(f"out of memory: {error}") from None
        return None if total is None else int(total)


def frontier_runner(
    problem: ExactCover, reorder: bool = True, wide: bool = True, max_bytes: int = 0
) -> Runner | None:
    """The frontier count of ``problem`` in a window of one word
    (:func:`excover.zdd.frontier.layout`: the items' own order, or a reordering when
    ``reorder``), else, when ``wide``, in a wider one
    (:func:`excover.zdd.frontier.wide_layout`); None when it does not take the
    problem. ``max_bytes`` as for :class:`FrontierRunner`."""
    from excover.zdd import frontier

    laid_out = frontier.layout(problem, reorder)
    if laid_out is not None:
        starts, masks = laid_out
        n_primary = problem.engine_input().n_primary
        return FrontierRunner(frontier.Layout(n_primary, 1, starts, masks), max_bytes)
    wider = frontier.wide_layout(problem) if wide else None
    return None if wider is None else FrontierRunner(wider, max_bytes)


class ComponentsRunner(Runner):
    """The component count (:class:`excover.counting.components.Counting`), paused when
    its step's time is up and resumed where it stopped: the counts of the components
    already counted and the DXZ search under way are kept. UsageError for a problem it
    does not take (multiplicities on primary items)."""

    def __init__(self, problem: ExactCover) -> None:
        from excover.counting.components import Counting

        super().__init__("components")
        self.counting = Counting(problem)

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        ends = [] if deadline is None else [deadline]
        if seconds is not None:
            ends.append(time.monotonic() + seconds)
        end = min(ends, default=None)
        if end is None:
            return self.counting.advance()
        return self.counting.advance(lambda: time.monotonic() >= end)


def _components(problem: ExactCover) -> Runner | None:
    """The component-decomposition route: None for a problem it does not take."""
    try:
        return ComponentsRunner(problem)
    except UsageError:
        return None


def _engine(name: str) -> Callable[[ExactCover], Runner | None]:
    """A search-engine route: None when the engine cannot run the problem."""

    def start(problem: ExactCover) -> Runner | None:
        try:
            return SearchRunner(problem, name)
        except UsageError:
            return None

    return start


class Route(NamedTuple):
    """A route: its name, what it is (for the report), and how to start it on a problem
    (None when the route does not take the problem)."""

    name: str
    about: str
    start: Callable[[ExactCover], Runner | None]


#: Every counting route, by name.
ROUTES: dict[str, Route] = {
    "dlx": Route("dlx", "dancing links", _engine("dlx")),
    "bits": Route("bits", "bit-parallel engine", _engine("bits")),
    "cells": Route("cells", "dancing cells", _engine("cells")),
    "dxz": Route("dxz", "DXZ family", DxzRunner),
    "frontier": Route("frontier", "frontier count", frontier_runner),
    "components": Route("components", "component decomposition", _components),
}


def start(problem: ExactCover, name: str) -> Runner:
    """Route ``name`` started on ``problem``; UsageError when there is no such route or
    it does not take the problem."""
    route = ROUTES.get(name)
    if route is None:
        raise UsageError(f"unknown route {name!r}; choose one of {', '.join(ROUTES)}")
    runner = route.start(problem)
    if runner is None:
        raise UsageError(f"route {name!r} ({route.about}) does not take this problem")
    return runner
