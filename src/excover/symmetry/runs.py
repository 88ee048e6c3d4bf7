"""The searches a symmetry-broken search runs (:mod:`excover.symmetry.broken`): each by
its method and search options, all within one deadline, in this process or on a pool of
worker processes, with the nodes of the dancing-links searches added up, and the
solutions a count has found so far, each weighted by the solutions it stands for
(:attr:`Runs.counted`: what a count stopped early has counted for certain)."""

from __future__ import annotations

from collections.abc import Iterator

from excover.counting import methods
from excover.engines import Deadline, Search
from excover.errors import LimitReached
from excover.names import METHOD_TRAITS
from excover.problem import Problem, SearchOptions

__all__ = ["Runs"]


class Runs:
    """The searches of one symmetry-broken search: by ``method`` with ``options`` (without
    a ``timeout``: ``deadline`` bounds them all together), the large counts on ``workers``
    processes when not None. :attr:`nodes` adds up the nodes of the dancing-links
    searches run in this process; :attr:`counted` the solutions the weighted counts have
    found so far (a search stopped early included, by its solutions so far)."""

    def __init__(
        self, method: str, options: SearchOptions, deadline: Deadline, workers: int | None
    ) -> None:
        self.method = method
        self.traits = METHOD_TRAITS[method]
        self.deadline = deadline
        self.workers = workers
        #: The nodes of the dancing-links searches run so far in this process.
        self.nodes = 0
        #: The solutions the counts given a ``weight`` have found so far, each times its
        #: weight: every solution they found stands for that many distinct solutions of
        #: the whole problem, so a count stopped early has at least this many.
        self.counted = 0
        self._options = options

    @property
    def options(self) -> SearchOptions:
        """The search options of the next search, its ``timeout`` the time left."""
        return self.deadline.options(self._options)

    def plain_method(self) -> str:
        """The method, a choice among routes read as one search (the parts of a
        symmetry-broken search are many and small: choosing a route for each costs more
        than it saves)."""
        return "search" if self.traits.chooses else self.method

    def check_time(self) -> None:
        """Raise :class:`~excover.LimitReached` once the run's time is up."""
        from excover.statistics import Stats

        if self.deadline.left() == 0.0:
            raise LimitReached("timeout", Stats())

    def count(self, problem: Problem, first: str | None = None, weight: int = 0) -> int:
        """The solutions of ``problem`` by the method; the root branches on ``first``.
        The nodes of a dancing-links search are added to :attr:`nodes`, its solutions
        (so far, when it stops early) times ``weight`` to :attr:`counted`."""
        if self.traits.searches and first is not None:
            search = _branching_first(problem, first, self._options, self.deadline)
        elif self.traits.one_search:
            from excover.engines import wall_clock_search

            search = wall_clock_search(problem, **self.options)
        else:
            try:
                found = methods.count(problem, self.method, **self.options)
            except LimitReached as stop:
                self.counted += weight * stop.stats.solutions
                raise
            self.counted += weight * found
            return found
        try:
            return search.count()
        finally:  # a limit, Ctrl-C or an alarm: the search's solutions so far
            self.nodes += search.stats.nodes
            self.counted += weight * search.stats.solutions

    @property
    def may_count_by_root(self) -> bool:
        """Whether :meth:`count_by_root` may run: dancing links, in this process."""
        return self.workers is None and self.traits.searches

    def count_by_root(self, problem: Problem, weights: list[int]) -> dict[int, int] | None:
        """The solutions of ``problem`` under each option of its first item, from one
        run of the engine whose root branches on that item (the bit-parallel engine
        keeps those counts: :meth:`~excover.engines.Search.root_solutions`); None when
        the engine cannot. The solutions under option ``k`` (so far, when the run stops
        early) times ``weights[k]`` go to :attr:`counted`. Only when
        :attr:`may_count_by_root`."""
        search = _branching_first(problem, problem.items[0], self._options, self.deadline)
        if search.root_solutions() is None:
            return None
        try:
            search.count()
        finally:  # a limit, Ctrl-C or an alarm: the solutions so far under each option
            self.nodes += search.stats.nodes
            under = search.root_solutions()
            assert under is not None
            self.counted += sum(w * under.get(k, 0) for k, w in enumerate(weights))
        return under

    def solutions(self, problem: Problem, first: str | None = None) -> Iterator[list[int]]:
        """The solutions of ``problem`` by the method; the root branches on ``first``."""
        if self.traits.searches and first is not None:
            return _branching_first(problem, first, self._options, self.deadline).solutions()
        return methods.solutions(problem, self.method, **self.options)

    def every_solution(self, problem: Problem) -> Iterator[list[int]]:
        """Every solution of ``problem``, in the engine's order. With a deadline, the
        time spent on each solution by its reader counts too (testing it for the
        smallest of its orbit can take longer than finding it): once the deadline has
        passed, the search stops with :class:`~excover.LimitReached`."""
        if self.traits.family:
            yield from methods.solutions(problem, self.method)
            return
        search = Search(problem, **self._options)
        search.deadline = self.deadline.until
        for solution in search.solutions():
            yield solution
            if self.deadline.left() == 0.0:
                raise LimitReached("timeout", search.stats)

    def count_on_workers(self, problem: Problem) -> int:
        """The solutions of ``problem`` counted on :attr:`workers` processes, if time is
        left (the parallel count has no deadline of its own: it is looked at before)."""
        from excover.parallel import count

        self.check_time()
        options = {k: v for k, v in self._options.items() if k in ("heuristic", "seed", "engine")}
        return count(problem, self.method, workers=self.workers, options=dict(options))

    def count_parts(self, problems: list[Problem], weight: int = 0) -> int:
        """The solutions of ``problems`` (each branching first on its first item)
        counted on a pool of :attr:`workers` processes, within the run's time; those of
        each part counted to its end, times ``weight``, go to :attr:`counted`."""
        from excover.parallel import workers

        self.check_time()
        calls = [(problem, self.method, self.options) for problem in problems]
        # alone here first: a short count starts no process (workers.solo_first)
        counts = workers.solo_first(_count_part, calls, self.workers or 1)
        self.counted += weight * sum(found for found in counts if found is not None)
        if any(found is None for found in counts):  # a part ran out of time
            from excover.statistics import Stats

            raise LimitReached("timeout", Stats())
        return sum(found for found in counts if found is not None)


def _count_part(problem: Problem, method: str, options: SearchOptions) -> int | None:
    """The solutions of one problem, branching first on its first item (run in a worker
    of :meth:`Runs.count_parts`); None when its ``timeout`` ran out."""
    try:
        if METHOD_TRAITS[method].searches:
            deadline = Deadline(options.get("timeout"))
            rest: SearchOptions = {k: v for k, v in options.items() if k != "timeout"}  # type: ignore[assignment]
            return _branching_first(problem, problem.items[0], rest, deadline).count()
        return methods.count(problem, method, **options)
    except LimitReached:
        return None


def _branching_first(
    problem: Problem, first: str, options: SearchOptions, deadline: Deadline
) -> Search:
    """A dancing-links search of ``problem`` whose root branches on the item ``first``,
    stopping at ``deadline``."""
    search = Search(problem, branch_first=first, **options)
    search.deadline = deadline.until
    return search
