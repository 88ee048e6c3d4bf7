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
* ``parts``: for a problem that falls apart into independent parts, each part counted by
  the route choice (:mod:`excover.counting.parts`; registered in :data:`ROUTES` by
  :mod:`excover.counting.choice`, which it counts by).

Every route is started as a :class:`Runner`, which counts in steps:
:meth:`Runner.advance` works for about the seconds it is given and returns the count once
the route has finished. Seconds are CPU time (``time.process_time``): on a loaded machine
a step's wall-clock time measures the other processes as much as the route. Every route
*pauses*: a step goes on from where the last one stopped, so a run in many steps costs
what one run costs (the component count repeats only its walk down to the component it
stopped in, from its cache; the frontier count stops between two groups of a layer). A
route that could not pause would start again at each step (:class:`Restarting`); given
steps that double, its lost work is less than its last step.

A front end follows a count through :func:`watching`: within it, each runner tells the
watcher after each of its steps, and every :data:`WATCH_SLICE` seconds within a long
one, so that a progress bar moves while a route runs alone to its end; each runner says
the share of its work done where it can measure it (:meth:`Runner.progress`).
"""

from __future__ import annotations

import math
import time
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, NamedTuple

from excover.errors import LimitReached, ResourceLimitError, UsageError
from excover.names import ENGINE_NAMES, SEARCH_ENGINES

if TYPE_CHECKING:
    from excover.counting.components import Counting
    from excover.engines import Search
    from excover.problem import Problem
    from excover.zdd._frontier import Counting as FrontierCounting
    from excover.zdd.dxz import Run
    from excover.zdd.folding import Folds
    from excover.zdd.frontier import FrontierLayout, SplitCounting

__all__ = ["ENGINE_ROUTES", "ROUTES", "SCOUT_NODES", "SCOUT_WORK", "ComponentsRunner", "Restarting"]
__all__ += ["FrontierRunner", "Route", "Runner", "frontier_may_take", "frontier_runner"]
__all__ += ["WATCH_SLICE", "Work", "scout_nodes", "start", "watching"]

#: The longest stretch (seconds) a watched runner works without telling its watcher.
WATCH_SLICE = 0.1

_WATCHER: ContextVar[Callable[[Runner], None] | None] = ContextVar("watcher", default=None)


@contextmanager
def watching(watcher: Callable[[Runner], None]) -> Iterator[None]:
    """Within the block, every runner calls ``watcher(runner)`` after each step and every
    :data:`WATCH_SLICE` seconds within one (a progress bar's hook: it must be quick)."""
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


def _tell(runner: Runner) -> None:
    """Tell the watcher, if any, that ``runner`` has worked on."""
    watcher = _WATCHER.get()
    if watcher is not None:
        watcher(runner)


def _telling(runner: Runner, stop: Callable[[], bool] | None) -> Callable[[], bool] | None:
    """``stop`` (None: never stop), which also tells the watcher every
    :data:`WATCH_SLICE` seconds; ``stop`` itself when nobody watches."""
    if _WATCHER.get() is None:
        return stop
    told = time.monotonic()

    def telling() -> bool:
        nonlocal told
        now = time.monotonic()
        if now - told >= WATCH_SLICE:
            told = now
            _tell(runner)
        return stop is not None and stop()

    return telling


#: The routes that run one of the compiled search engines (named as ``engine=`` names it).
ENGINE_ROUTES = SEARCH_ENGINES

#: Search nodes of a pausable route's first step, besides two per primary item (a few
#: times the depth of a solution: enough to finish a tiny problem at once).
FIRST_NODES = 64

#: Search nodes of the scout that runs before any race (:func:`scout_nodes`) ...
SCOUT_NODES = 4096
#: ... unless its MRV scans would pass this many word operations: a node of the
#: bit-parallel engine costs about (options / 64) x (primary items) of them.
SCOUT_WORK = 4_000_000


def scout_nodes(problem: Problem) -> int:
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


class Work(NamedTuple):
    """What one route did: seconds spent, search nodes entered (0 where it has none), and
    steps taken."""

    seconds: float
    nodes: int
    steps: int


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
        started = time.process_time()
        try:
            self.count = self._step(seconds, deadline)
        finally:
            self.seconds += time.process_time() - started
            self.steps += 1
        _tell(self)
        return self.count

    def progress(self) -> float | None:
        """The share of its work this route has done, 0 to 1 (1 once finished), where
        it can measure it; None where it cannot (a progress bar then counts up)."""
        return 1.0 if self.count is not None else None

    def weight(self, rival_seconds: float = 0.0, rival_left: float = math.inf) -> float:
        """This route's share of each round of a race, against the search's 1.0 (see
        :func:`excover.counting.choice.race`), given the most CPU seconds a rival in the
        race has spent so far (``rival_seconds``) and the fewest a rival projects it
        still needs (``rival_left``, :meth:`remaining`; infinite when none can tell)."""
        return 1.0

    def remaining(self) -> float:
        """The CPU seconds this route projects it still needs (infinite: it cannot
        tell)."""
        return math.inf

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

    def __init__(self, problem: Problem, engine: str) -> None:
        from excover.engines import pick_engine

        super().__init__(pick_engine(problem, engine))  # UsageError if it cannot run it
        self.problem = problem
        self.search: Search | None = None
        self.first = FIRST_NODES + 2 * problem.engine_input().n_primary
        #: Whether the frontier count leads this search in a race (see :meth:`weight`).
        self.behind = False

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
        started = time.process_time()
        try:
            search = self._started()
            search.deadline = deadline
            finished = search.count_until(budget)
            self.count = search.count() if finished else None
        finally:
            self.seconds += time.process_time() - started
            self.steps += 1
        return self.count

    def progress(self) -> float | None:
        """The share of the tree walked, where the engine tells it
        (:meth:`Search.progress <excover.engines.Search.progress>`)."""
        if self.count is not None:
            return 1.0
        return None if self.search is None else self.search.progress()

    def remaining(self) -> float:
        """The CPU seconds the search projects it still needs, from the share of its
        tree walked (:meth:`Search.progress <excover.engines.Search.progress>`, Knuth's
        estimate from the choices on its current path: on the pentomino boxes, queens
        and Scott's puzzle within 10-30 % of the truth once a fifth of the count is
        done); infinite where the engine does not tell or nothing is walked yet."""
        share = None if self.search is None else self.search.progress()
        if share is None or share <= 0.0:
            return math.inf
        return self.seconds * (1.0 - share) / share

    def weight(self, rival_seconds: float = 0.0, rival_left: float = math.inf) -> float:
        """1, unless the frontier count leads (:func:`frontier_leads`: its projection
        ``rival_left`` within a :data:`LEAD`-th of this search's, :meth:`remaining`, and
        either within :data:`BEHIND` times what this search has spent or
        :data:`FAR_AHEAD` times ahead): then :data:`LOW_WEIGHT`. The mirror of
        :meth:`FrontierRunner.weight`, for the problems where the frontier count wins
        by far, where an even share would cost twice the frontier count's time."""
        left = self.remaining()
        if left == math.inf or rival_left == math.inf:
            self.behind = False
            return 1.0
        self.behind = frontier_leads(rival_left, self.seconds, left, self.behind)
        return LOW_WEIGHT if self.behind else 1.0

    def _started(self) -> Search:
        if self.search is None:
            from excover.engines import Search

            self.search = Search(self.problem, seed=0, engine=self.name)  # MRV draws nothing
        return self.search

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        search = self._started()
        search.deadline = deadline
        if seconds is None:
            self._told(search, None, deadline)
            return search.count()
        # the node budget ends the step; the clock is a safety net for nodes far dearer
        # than measured (the engine looks at it every few milliseconds of work)
        late = time.monotonic() + STEP_SLACK * seconds + MIN_SLACK
        end = late if deadline is None else min(late, deadline)
        search.deadline = end
        try:
            finished = self._told(search, self._node_budget(seconds, self.first), end)
        except LimitReached as stop:
            if stop.reason == "timeout" and (deadline is None or time.monotonic() < deadline):
                return None  # the step's own time, not the caller's deadline
            raise
        return search.count() if finished else None

    def _told(self, search: Search, budget: int | None, end: float | None) -> bool:
        """Count until ``budget`` nodes in all (None: to the end), LimitReached at
        ``end``; True when the search ended. Watched (:func:`watching`), in slices of
        :data:`WATCH_SLICE` seconds with a word to the watcher between two."""
        if _WATCHER.get() is None:
            search.deadline = end
            if budget is None:
                search.count()
                return True
            return search.count_until(budget)
        while True:
            cut = time.monotonic() + WATCH_SLICE
            search.deadline = cut if end is None else min(cut, end)
            try:
                if budget is None:
                    search.count()
                    return True
                return search.count_until(budget)
            except LimitReached as stop:
                if stop.reason != "timeout" or (end is not None and time.monotonic() >= end):
                    search.deadline = end
                    raise
                _tell(self)


#: DXZ's share of a race (against the search's 1.0) while few of its nodes hit the memo
#: (see :meth:`DxzRunner.weight`). On the problems where the memo hits little, the search
#: has won every race measured, DXZ 5 to 100 times slower (N-queens: 0.1-1% of DXZ's
#: nodes hit; pentominoes, Scott's puzzle, Latin squares of order 7: 0.5-3%, of order 8:
#: 4-8%); so DXZ gets a fifth of the time, and auto is about 1.2 times the search's
#: time there, not twice (1.3 measured: DXZ's memo also slows the search's memory
#: traffic). Where DXZ wins on such a problem, auto is at most about 6 times DXZ's.
LOW_WEIGHT = 0.2
#: DXZ's share once many of its nodes hit the memo: there DXZ wins by orders of magnitude
#: (dominoes with a secondary item, where the frontier count does not go: 17-30% hit).
HIGH_WEIGHT = 2.0
#: The shares of DXZ's nodes that hit the memo between which its weight rises from
#: :data:`LOW_WEIGHT` to :data:`HIGH_WEIGHT`.
HIT_RATES = (0.10, 0.20)
#: DXZ's search nodes before its hits are taken as evidence (its first step enters
#: :data:`FIRST_NODES` and two per primary item).
HIT_EVIDENCE = 256


#: DXZ's search nodes between two words to the watcher when it runs to its end.
WATCH_NODES = 20_000


class DxzRunner(Runner):
    """DXZ in a private manager, paused and resumed by node budgets (its search cannot
    look at a clock, so a step's budget comes from the rate of the steps before)."""

    def __init__(self, problem: Problem, counting: Counting | None = None) -> None:
        super().__init__("dxz")
        self.problem = problem
        self.counting = counting
        self.run: Run | None = None  # built in the first step, as a search's engine is
        self.first = FIRST_NODES + 2 * problem.engine_input().n_primary
        self._nodes = 0
        self.hits = 0

    @property
    def nodes(self) -> int:
        return self._nodes

    def _started(self) -> Run:
        """DXZ's search, on the problem as the component count's graph cuts it out when
        one is given (its options sorted in compiled code; unless some primary item has
        no option, which that cut would drop), else as :class:`~excover.zdd.dxz.Run`
        sorts them."""
        from excover.zdd import dxz

        manager = dxz.search_manager()
        if self.counting is not None:
            covered, parts = self.counting.parts()
            if covered == self.problem.engine_input().n_primary:
                every = array("i", sorted(option for part in parts for option in part))
                return dxz.Run(self.counting.problem_of(every), manager, ordered=True)
        return dxz.Run(self.problem, manager)

    def progress(self) -> float | None:
        """The share of DXZ's tree walked (:meth:`excover.zdd.dxz.Run.progress`)."""
        if self.count is not None:
            return 1.0
        return None if self.run is None else self.run.progress()

    def weight(self, rival_seconds: float = 0.0, rival_left: float = math.inf) -> float:
        """DXZ's share of a race's rounds, by the share of its search nodes that hit the
        memo (see :data:`HIT_RATES`): :data:`LOW_WEIGHT` until it has entered
        :data:`HIT_EVIDENCE` nodes or while at most the lower rate hit, rising to
        :data:`HIGH_WEIGHT` at the higher rate."""
        if self._nodes < HIT_EVIDENCE:
            return LOW_WEIGHT
        low, high = HIT_RATES
        rate = self.hits / self._nodes
        if rate <= low:
            return LOW_WEIGHT
        if rate >= high:
            return HIGH_WEIGHT
        return LOW_WEIGHT + (HIGH_WEIGHT - LOW_WEIGHT) * (rate - low) / (high - low)

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        if self.run is None:
            self.run = self._started()
        budget = -1 if seconds is None else self._node_budget(seconds, self.first)
        if budget < 0 and _WATCHER.get() is not None:  # to the end, in slices
            budget = self._nodes + WATCH_NODES
            while True:
                root, self._nodes, self.hits = self.run.step(budget)
                if root >= 0 or self._nodes < budget:
                    break
                _tell(self)
                budget = self._nodes + WATCH_NODES
        else:
            root, self._nodes, self.hits = self.run.step(budget)
        return None if root < 0 else int(self.run.manager.store.count(root))


def _stop(seconds: float | None, deadline: float | None) -> Callable[[], bool]:
    """A test that says when a step is over: after ``seconds`` of CPU time (the measure
    of a race's steps) or at the ``deadline`` (a ``time.monotonic()`` instant), whichever
    comes first (None: no such end)."""
    spent = None if seconds is None else time.process_time() + seconds

    def stop() -> bool:
        if spent is not None and time.process_time() >= spent:
            return True
        return deadline is not None and time.monotonic() >= deadline

    return stop


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
        try:
            return self.count_until(_stop(seconds, deadline))
        except LimitReached:
            return None


def frontier_may_take(problem: Problem) -> bool:
    """Whether ``problem`` has the frontier count's kind (primary items only, without
    colors or multiplicities), told before its module is loaded (a millisecond)."""
    data = problem.engine_input()
    if data.n_secondary or data.node_color.count(0) != len(data.node_color):
        return False
    return data.lo.count(1) == len(data.lo) and data.hi.count(1) == len(data.hi)


#: The widest option span the frontier count takes in the items' own order
#: (:data:`excover.zdd.frontier.MAX_SPAN` less one; not imported from there, see
#: :func:`_too_wide`).
FRONTIER_SPAN = 62
#: Options sampled by :func:`_too_wide`, spread over the problem.
SPAN_SAMPLE = 64


def _too_wide(problem: Problem) -> bool:
    """Whether one of :data:`SPAN_SAMPLE` options spread over ``problem`` spans more than
    :data:`FRONTIER_SPAN` items in their own order: then the frontier count does not take
    it in that order, told in some microseconds, before its module is loaded (which costs
    more than some whole counts by the search). False says nothing: the compiled test
    decides."""
    data = problem.engine_input()
    start, items = data.option_start, data.node_item
    n_options = len(start) - 1
    for k in sorted({i * n_options // SPAN_SAMPLE for i in range(SPAN_SAMPLE)}):
        option = items[start[k] : start[k + 1]] if k < n_options else None
        if option and max(option) - min(option) > FRONTIER_SPAN:
            return True
    return False


#: How many times its rival's seconds so far the frontier count's projected remaining
#: time may be before its share of a race drops to :data:`LOW_WEIGHT` (see
#: :meth:`FrontierRunner.weight`).
BEHIND = 2.0
#: How many times shorter than the search's projected remaining time the frontier
#: count's own projection must be for it to keep an even share (see
#: :meth:`FrontierRunner.weight`): its projection runs low while its layers grow, the
#: search's is near the truth.
LEAD = 2.0
#: How many times shorter than the search's projected remaining time the frontier
#: count's projection must be for it to lead before the search has spent half as long
#: (:data:`BEHIND`): early in a count that projection runs low, by up to several times,
#: so only a lead beyond that is taken at its word.
FAR_AHEAD = 16.0


def frontier_leads(
    frontier_left: float, search_seconds: float, search_left: float, leading: bool
) -> bool:
    """Whether the frontier count, projecting ``frontier_left`` more seconds, leads a
    race against a search that has spent ``search_seconds`` and projects
    ``search_left`` more: within a :data:`LEAD`-th of the search's projection, and, to
    take the lead (not ``leading`` already), either within :data:`BEHIND` times what the
    search has spent or :data:`FAR_AHEAD` times ahead of it. (Once the frontier count
    leads, the search's time stands still: a test on it would hand the lead back and
    forth, the search catching up a whole round's share at once each time.) Against a
    search that projects nothing (``search_left`` infinite: an engine that does not
    tell), only the test on its time."""
    if frontier_left * LEAD > search_left:
        return False
    if search_left == math.inf:
        return frontier_left <= BEHIND * search_seconds
    if leading:
        return True
    return frontier_left <= BEHIND * search_seconds or frontier_left * FAR_AHEAD <= search_left


class FrontierRunner(Runner):
    """The frontier count (:func:`excover.zdd.frontier.start`), paused between two
    groups of a layer when its step's time is up and resumed at the next layer: no work is lost.
    Its memory is bounded by ``max_bytes`` (0: no bound); past it, or out of memory, it
    raises ResourceLimitError (and leaves a race)."""

    def __init__(
        self, laid_out: FrontierLayout, max_bytes: int = 0, folds: Folds | None = None
    ) -> None:
        super().__init__("frontier")
        self.laid_out = laid_out
        self.max_bytes = max_bytes
        self.folds = folds
        self.counting: FrontierCounting | SplitCounting | None = None  # made in the first step
        #: Whether this count leads the search in a race (see :meth:`weight`).
        self.leading = False

    def progress(self) -> float | None:
        """The layers (primary items) counted, of all."""
        if self.count is not None:
            return 1.0
        if self.counting is None:
            return 0.0
        return self.counting.done / max(self.laid_out.n_items, 1)

    def remaining(self) -> float:
        """The CPU seconds the count would still take if its layers to come cost what
        its layers so far did on average (the layer under way counted as not done):
        infinite before it has spent any time."""
        if self.counting is None or self.seconds <= 0.0:
            return float("inf")
        done = self.counting.done
        return self.seconds * (self.laid_out.n_items - done) / max(done, 1)

    def weight(self, rival_seconds: float = 0.0, rival_left: float = math.inf) -> float:
        """1, as the search's, while the count leads (:func:`frontier_leads`), else
        :data:`LOW_WEIGHT`: when its projected remaining time (:meth:`remaining`) passes
        a :data:`LEAD`-th of the time its rival projects it still needs (``rival_left``:
        the search's projection from the share of its tree walked,
        :meth:`SearchRunner.remaining`), or :data:`BEHIND` times what its rival has
        spent so far (unless :data:`FAR_AHEAD` times ahead of the rival's projection).
        The frontier count's own projection runs low while its layers grow, the search's
        is near the truth once a fifth is done; where the two are about even, giving the
        search the lead costs less than an even share. Whether its layers will stay few
        cannot be told in advance; how fast it moves through them can. Where its states
        multiply layer after layer (the pentomino boxes of Knuth's files and Scott's
        puzzle) an even race would cost twice the search's time, a fifth of the time much
        less. Where it wins by far (Latin squares of order 8) it leads from its first
        layers, FAR_AHEAD of the search's projection, and the search takes the low share
        (:meth:`SearchRunner.weight`). The figures: docs/performance.md, "The figures
        behind the choice's constants". A count whose share dropped gets it
        back once the rival's time catches up."""
        if rival_seconds <= 0.0:
            return 1.0
        self.leading = frontier_leads(self.remaining(), rival_seconds, rival_left, self.leading)
        return 1.0 if self.leading else LOW_WEIGHT

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        from excover.zdd import frontier

        try:
            if self.counting is None:
                self.counting = frontier.start(
                    self.laid_out, max_bytes=self.max_bytes, folds=self.folds
                )
            stop = None if seconds is None and deadline is None else _stop(seconds, deadline)
            stop = _telling(self, stop)
            total = self.counting.advance() if stop is None else self.counting.advance(None, stop)
        except MemoryError as error:
            raise ResourceLimitError(f"out of memory: {error}") from None
        return None if total is None else int(total)


def frontier_runner(
    problem: Problem,
    reorder: bool = True,
    wide: bool = True,
    max_bytes: int = 0,
    deadline: float | None = None,
) -> Runner | None:
    """The frontier count of ``problem`` in a window of one word
    (:func:`excover.zdd.frontier.placed_layout`: the items' own order, or a reordering
    when ``reorder``), its states folded by the problem's declared symmetries
    (:func:`excover.zdd.frontier.folds_for`), else, when ``wide``, in a wider one
    (:func:`excover.zdd.frontier.wide_layout`); None when it does not take the
    problem. ``max_bytes`` as for :class:`FrontierRunner`. A problem of another kind, or
    one too wide for a narrow window in its own order when neither ``reorder`` nor
    ``wide``, is turned away before the frontier's module is loaded. LimitReached once
    ``deadline`` (a ``time.monotonic()`` instant) passes while the wide window's order is
    found."""
    if not frontier_may_take(problem):
        return None
    if not reorder and not wide and _too_wide(problem):
        return None
    from excover.zdd import frontier

    data = problem.engine_input()
    placed = frontier.placed_layout(data.n_primary, data.option_start, data.node_item, reorder)
    if placed is not None:
        position, (starts, masks) = placed
        folds = frontier.folds_for(problem, position, (starts, masks))
        laid_out = frontier.FrontierLayout(data.n_primary, 1, starts, masks)
        return FrontierRunner(laid_out, max_bytes, folds)
    wider = frontier.wide_layout(problem, deadline) if wide else None
    return None if wider is None else FrontierRunner(wider, max_bytes)


class ComponentsRunner(Runner):
    """The component count (:class:`excover.counting.components.Counting`), paused when
    its step's time is up and resumed where it stopped: the counts of the components
    already counted and the DXZ search under way are kept. UsageError for a problem it
    does not take (multiplicities on primary items)."""

    def __init__(self, problem: Problem) -> None:
        from excover.counting.components import Counting

        super().__init__("components")
        self.counting = Counting(problem)

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        stop = _telling(self, _stop(seconds, deadline))
        assert stop is not None
        return self.counting.advance(stop)

    def progress(self) -> float | None:
        """The share of the count done, along the walk of its components
        (:meth:`~excover.counting.components.Counting.progress`)."""
        return 1.0 if self.count is not None else self.counting.progress()


def _components(problem: Problem) -> Runner | None:
    """The component-decomposition route: None for a problem it does not take."""
    try:
        return ComponentsRunner(problem)
    except UsageError:
        return None


def _engine(name: str) -> Callable[[Problem], Runner | None]:
    """A search-engine route: None when the engine cannot run the problem."""

    def start(problem: Problem) -> Runner | None:
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
    start: Callable[[Problem], Runner | None]


#: Every counting route, by name.
ROUTES: dict[str, Route] = {
    **{name: Route(name, ENGINE_NAMES[name], _engine(name)) for name in ENGINE_ROUTES},
    "dxz": Route("dxz", "DXZ family", DxzRunner),
    "frontier": Route("frontier", "frontier count", frontier_runner),
    "components": Route("components", "component decomposition", _components),
}  # and "parts", which counts by the route choice: registered by excover.counting.choice


def start(problem: Problem, name: str) -> Runner:
    """Route ``name`` started on ``problem``; UsageError when there is no such route or
    it does not take the problem."""
    route = ROUTES.get(name)
    if route is None:
        raise UsageError(f"unknown route {name!r}; choose one of {', '.join(ROUTES)}")
    runner = route.start(problem)
    if runner is None:
        raise UsageError(f"route {name!r} ({route.about}) does not take this problem")
    return runner
