"""The runner of ``method="auto"``'s counts: the count of :func:`excover.counting.count`
(the frontier count, the parts route, or the race of routes), or the one route the
request forces; the deadline and Ctrl-C stop it with the partial count of the race's
search (none if no search ran), the stop kept as the race raised it (the outcome's
``error``, which the API raises). The outcome says which route finished and why
(:func:`route_report`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from excover.counting.by_search import SearchBar
from excover.counting.outcome import Outcome, search_engine, search_stats
from excover.errors import LimitReached
from excover.names import ENGINE_NAMES

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.counting import CountResult
    from excover.counting.parts import Parts
    from excover.counting.request import Bar, MethodRequest, TreeSizer
    from excover.counting.routes import Runner
    from excover.preprocess import PreprocessStats
    from excover.problem import Problem

__all__ = ["RaceBar", "count", "preprocessing_stats", "route_report"]

#: Seconds between two draws of the race's bar.
DRAW_EVERY = 0.1


class RaceBar:
    """The watcher of a count by routes (:func:`excover.counting.routes.watching`): it
    notes each runner that works (``running``: the last one) and draws the bar, in
    percent, from the runner furthest ahead that measures its share done (see the
    module notes). Under the parts route, the runners are those of the part being
    counted, and the share is the whole count's (:meth:`Parts.share
    <excover.counting.parts.Parts.share>`)."""

    def __init__(
        self,
        bar: Bar,
        clock: Callable[[], float] = time.monotonic,
        size_tree: Callable[[Problem], TreeSizer | None] | None = None,
    ) -> None:
        self.bar = bar
        self.clock = clock
        self.size_tree = size_tree  # sizes the tree of a search that tells no share
        self.seen: dict[int, Runner] = {}
        self.sizes: dict[int, SearchBar] = {}  # the probes of searches that tell no share
        self.running: Runner | None = None
        self.parts: Parts | None = None  # the parts route, when it counts
        self.drawn = -math.inf
        self.last: float | None = None  # the share of the part under way last drawn

    def __call__(self, runner: Runner) -> None:
        from excover.counting.parts import Parts

        if isinstance(runner, Parts):  # a new part: the runners seen were the last part's
            self.parts = runner
            self.seen.clear()
            self.sizes.clear()
            self.last = None
        else:
            self.seen[id(runner)] = runner
        self.running = runner
        if not self.bar.shown:
            return
        now = self.clock()
        if now - self.drawn < DRAW_EVERY:
            return
        self.drawn = now
        ahead, share = self.ahead()
        if share is None and any(seen.count is not None for seen in self.seen.values()):
            # the runners that measured their share have finished (the count, or the
            # part, is done): the share stays where it was, not unknown until the close
            share = self.last
        self.last = share
        if self.parts is not None:  # the share of the whole count, over its parts
            share = self.parts.share(share)
        shown = ahead or runner
        nodes = shown.nodes or None
        if share is None:
            self.bar.set(0, 0, route=shown.name, nodes=nodes)
        else:
            self.bar.set(100 * share, 100, route=shown.name, nodes=nodes)

    def ahead(self) -> tuple[Runner | None, float | None]:
        """The unfinished runner furthest ahead among those that measure their share
        done, and that share (None, None: none measures it)."""
        from excover.counting.routes import SearchRunner

        best: tuple[Runner | None, float | None] = (None, None)
        for runner in self.seen.values():
            if runner.count is not None:
                continue
            share = runner.progress()
            if share is None and isinstance(runner, SearchRunner) and runner.search:
                sizer = self.sizes.get(id(runner))
                if sizer is None:
                    sizer = SearchBar(runner.problem, None, self.size_tree)
                    self.sizes[id(runner)] = sizer
                share, _ = sizer.share(runner.search)
            if share is not None and (best[1] is None or share > best[1]):
                best = (runner, share)
        return best

    def close(self, finished: bool) -> None:
        """End the bar, at 100% when the count ``finished``."""
        if finished:
            self.bar.finish(100)
        self.bar.close()


def route_report(found: CountResult) -> dict[str, Any]:
    """The route that finished, why, and each route's seconds, search nodes and steps
    (the ``route`` of an :class:`~excover.solving.outcome.Outcome`)."""
    work = {
        name: {"seconds": done.seconds, "nodes": done.nodes, "steps": done.steps}
        for name, done in found.work.items()
    }
    return {"name": found.route, "reason": found.reason, "work": work}


def count(problem: Problem, request: MethodRequest) -> Outcome:
    """Count by the choice of routes, or by the route ``request.route`` forces."""
    from excover.counting import ROUTES, choice
    from excover.counting.routes import SearchRunner, watching

    started = time.perf_counter()
    # True: preprocessed already; False: never; None: the race decides
    automatic = request.preprocess is None
    try:
        plan = choice.plan(
            problem, request.route, request.engine, request.time_left(), preprocess=automatic
        )
    except LimitReached as error:  # the one step of the choice that meets the deadline
        return _stopped_laying_out(time.perf_counter() - started, error)
    watch = RaceBar(request.bar("count", "%"), size_tree=request.size_tree)
    try:
        with watching(watch):
            found = choice.run(plan, started)
    except (LimitReached, KeyboardInterrupt) as error:
        watch.close(finished=False)
        stopped_by = "timeout" if isinstance(error, LimitReached) else "interrupt"
        seconds = time.perf_counter() - started
        return _stopped(plan.runners, watch.running, stopped_by, seconds, error)
    watch.close(finished=True)
    counted = (r for r in plan.runners if isinstance(r, SearchRunner) and r.count is not None)
    search = next((r.search for r in counted), None)
    if search is not None and search.engine == found.route:  # the search counted
        stats = search_stats(search, None)
        stats.update(preprocessing_stats(found.preprocessed))
        return Outcome(
            "search", search_engine(search), found.count, None, stats, route_report(found)
        )
    stats = {"solutions": found.count, "nodes": found.work[found.route].nodes}
    stats.update(seconds=found.seconds, complete=True, stopped_by=None)
    stats.update(preprocessing_stats(found.preprocessed))
    engine = ROUTES[found.route].about
    return Outcome(found.method, engine, found.count, None, stats, route_report(found))


def _stopped(
    runners: list[Runner],
    running: Runner | None,
    stopped_by: str,
    seconds: float,
    error: BaseException,
) -> Outcome:
    """The outcome of a count stopped early: the route that was running (``running``,
    the last to work; ``parts`` when that was a route on one of its parts), the partial
    count and statistics of the search on the whole problem (or on the problem
    preprocessing made of it: same solutions) that walked the most nodes, a lower bound
    on the count (None: no such search ran), and what each route did."""
    from excover.counting import ROUTES
    from excover.counting.parts import Parts
    from excover.counting.routes import SearchRunner

    if running is not None and all(running is not runner for runner in runners):
        running = next((r for r in runners if isinstance(r, Parts)), running)
    searches = [r for r in runners if isinstance(r, SearchRunner) and r.search is not None]
    longest = max(searches, key=lambda r: r.nodes, default=None)
    name = running.name if running is not None else runners[0].name
    work: dict[str, dict[str, Any]] = {}
    for runner in runners:
        if runner.steps:
            was = work.setdefault(runner.name, {"seconds": 0.0, "nodes": 0, "steps": 0})
            was["seconds"] += runner.seconds
            was["nodes"] += runner.nodes
            was["steps"] += runner.steps
    method = "search" if name in ENGINE_NAMES else "zdd"
    about: str | None = ROUTES[name].about if name in ROUTES else None
    cause = {"timeout": "the time limit", "interrupt": "Ctrl-C"}.get(stopped_by, stopped_by)
    route = {"name": name, "reason": f"stopped by {cause} while it ran", "work": work}
    if longest is not None and longest.search is not None:
        search = longest.search
        stats = search_stats(search, stopped_by)
        stats["seconds"] = seconds
        if longest is running:
            about = search_engine(search)
        return Outcome(method, about, search.stats.solutions, stopped_by, stats, route, error)
    stats = {"solutions": None, "seconds": seconds, "complete": False, "stopped_by": stopped_by}
    return Outcome(method, about, None, stopped_by, stats, route, error)


def _stopped_laying_out(seconds: float, error: LimitReached) -> Outcome:
    """The outcome of a count whose deadline passed while the choice laid the problem
    out for the frontier count (:func:`excover.zdd.frontier.wide_layout`), before any
    route ran: no partial count."""
    from excover.counting import ROUTES

    reason = "stopped by the time limit while it laid the problem out, before any route ran"
    route = {"name": "frontier", "reason": reason, "work": {}}
    stats = {"solutions": None, "seconds": seconds, "complete": False, "stopped_by": "timeout"}
    return Outcome("zdd", ROUTES["frontier"].about, None, "timeout", stats, route, error)


def preprocessing_stats(done: PreprocessStats | None) -> dict[str, Any]:
    """What preprocessing did (options and items removed, forced options, its rounds
    and seconds, why it was skipped), as statistics; none when it did not run."""
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
