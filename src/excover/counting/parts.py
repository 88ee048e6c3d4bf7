"""The ``parts`` route: a problem that falls apart is counted part by part, each part by
the route choice, and the counts multiplied.

When the options of a problem fall into groups that share no item (its *parts*, the
components of :mod:`excover.counting.components` taken once, at the top), every solution
is one solution of each part, chosen independently: the count is the product of the
parts' counts. No route that sees the whole problem gains from running on it whole: a
search walks the product of the parts' trees (on the SAT 2026 graph instances, 4 to 16
parts each, the bit-parallel engine passes seconds where the parts take milliseconds),
and DXZ and the component count walk every part with one method, where the best route
differs from part to part (on those instances the search counts most parts within its
scout, DXZ a few). So each part of :data:`SMALL_OPTIONS` options or more is counted by
:func:`excover.counting.choice.count`'s choice, as a problem of its own: the frontier
count, the search's scout, or a race. Smaller parts (most are a single option or a few)
are counted by DXZ on one shared node store, microseconds each, with no choice to make.

Parts are counted smallest first, so that a part without solutions ends the count before
the large ones start. The route is never raced (the parts' own races do that); it looks
at the deadline in each part's race. Multiplicities on primary items are not taken, as
for the component count (:func:`excover.counting.components.refusal`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING

from excover.counting import routes
from excover.counting.routes import Runner, Work
from excover.errors import UsageError

if TYPE_CHECKING:
    from excover.counting.choice import CountResult
    from excover.counting.components import Counting
    from excover.problem import Problem

__all__ = ["SMALL_OPTIONS", "Parts", "parts"]

#: Parts with fewer options than this are counted by DXZ without a choice of route (a
#: choice costs a search engine's set-up, more than DXZ's whole count of such a part;
#: measured in docs/performance.md, the route choice).
SMALL_OPTIONS = 64


def parts(problem: Problem) -> tuple[Counting, list[array[int]]] | None:
    """The component count of ``problem`` (whose graph cuts the parts out) and the options
    of each part (two or more), or None when the problem does not fall apart (or has
    multiplicities, or a primary item that no option covers: a count of 0 that any route
    finds at once)."""
    from excover.counting import components

    if not components.suits(problem):
        return None
    counting = components.Counting(problem)
    covered, found = counting.parts()
    if len(found) < 2 or covered < problem.engine_input().n_primary:
        return None
    return counting, found


class Parts(Runner):
    """The ``parts`` route on one problem (see the module notes): UsageError when the
    problem does not fall apart. ``count_part(part, deadline)`` counts a part by the
    route choice (:func:`excover.counting.choice.plan_whole`, which passes it in: this
    module is below the choice); ``results`` holds the
    :class:`~excover.counting.choice.CountResult` of each part counted so,
    ``small`` the number of parts counted by DXZ without a choice."""

    pausable = False  # never raced: alone, it runs to the end (or the deadline)

    def __init__(
        self,
        problem: Problem,
        count_part: Callable[[Problem, float | None], CountResult],
        found: tuple[Counting, list[array[int]]] | None = None,
    ) -> None:
        super().__init__("parts")
        found = parts(problem) if found is None else found
        if found is None:
            raise UsageError("the problem does not fall apart into independent parts")
        self.counting, split = found
        self.parts = sorted(split, key=len)
        self.count_part = count_part
        self.results: list[CountResult] = []
        self.small = 0

    @property
    def nodes(self) -> int:
        """The search nodes of every route on the parts counted by a choice of route."""
        return sum(work.nodes for found in self.results for work in found.work.values())

    def share(self, inside: float | None) -> float:
        """The share of the count done, given the share ``inside`` the part being
        counted (None: unknown, taken as 0): the parts counted by a choice of route,
        each an equal share (the small ones take no time), and that share of the part
        under way."""
        if self.count is not None:
            return 1.0
        big = sum(len(live) >= SMALL_OPTIONS for live in self.parts)
        if big == 0:
            return 0.0
        return min((len(self.results) + (inside or 0.0)) / big, 1.0)

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        total = 1
        for live in self.parts:
            if len(live) < SMALL_OPTIONS:
                self.small += 1
                counted = self.counting.leaf(live)
            else:
                routes._tell(self)  # a watcher's next runners are this part's
                found = self.count_part(self.counting.problem_of(live), deadline)
                self.results.append(found)
                counted = found.count
            total *= counted
            if total == 0:
                break
        return total

    def work(self) -> dict[str, Work]:
        """What the routes did on the parts, added up by route (the parts counted by DXZ
        without a choice are not in it)."""
        done: dict[str, Work] = {}
        for found in self.results:
            for name, work in found.work.items():
                was = done.get(name, Work(0.0, 0, 0))
                done[name] = Work(
                    was.seconds + work.seconds, was.nodes + work.nodes, was.steps + work.steps
                )
        return done

    def finishers(self) -> dict[str, int]:
        """How many parts each route counted (``dxz`` including the small parts)."""
        tally: dict[str, int] = {}
        for found in self.results:
            tally[found.route] = tally.get(found.route, 0) + 1
        if self.small:
            tally["dxz"] = tally.get("dxz", 0) + self.small
        return tally
