"""How an :class:`~excover.ExactCover` reaches the engines: the work of its solving methods.

The model (:mod:`excover.problem`) sits below the engines: each engine reads an
``ExactCover``, so the model cannot import them back. Its solving methods (``search``,
``first``, ``solutions``, ``count``, ``symmetries``, ``split``, ``estimate``, ``zdd``,
``to_cnf``) check their arguments and hand the work to the :class:`Solving` object plugged
into :mod:`excover.port`; the package's ``__init__``, which Python runs before any other
excover module, plugs in the one defined here. This module sits above every engine
(dancing links, ZDDs, SAT, parallel runs, symmetry) and picks among them by ``method``;
it imports each only when a method asks for it, so that ``import excover`` stays cheap.
"""

from __future__ import annotations

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Unpack

    from excover.engines import Search
    from excover.parallel import Estimate, Subproblem
    from excover.preprocess import Preprocessed
    from excover.problem import ExactCover, SearchOptions
    from excover.sat import CNF
    from excover.symmetry import BrokenSearch, Generator, Group
    from excover.zdd import Family

__all__ = ["Solving"]


class Solving:
    """The solving methods of :class:`~excover.ExactCover`, each taking the problem first;
    the arguments have already been checked against the model's lists of methods and
    search options."""

    def search(
        self,
        problem: ExactCover,
        heuristic: str = "mrv",
        *,
        seed: int | None = None,
        max_solutions: int | None = None,
        max_nodes: int | None = None,
        timeout: float | None = None,
        engine: str = "auto",
    ) -> Search:
        """The work of :meth:`ExactCover.search`."""
        from excover.engines import Search

        return Search(
            problem,
            heuristic=heuristic,
            seed=seed,
            max_solutions=max_solutions,
            max_nodes=max_nodes,
            timeout=timeout,
            engine=engine,
        )

    def first(
        self,
        problem: ExactCover,
        method: str = "dlx",
        *,
        solver: str | None = None,
        amo: str | None = None,
        preprocess: bool = False,
        **options: Unpack[SearchOptions],
    ) -> list[int] | None:
        """The work of :meth:`ExactCover.first`."""
        if preprocess:
            reduced = _preprocessed(problem)
            found = self.first(reduced.problem, method, solver=solver, amo=amo, **options)
            return None if found is None else reduced.original(found)
        if method == "sat":
            from excover.sat import solve

            return solve.first(problem, solver, amo, **options)
        _check_not_sat(method, solver, amo)
        if method == "zdd":
            from excover.zdd import dxz

            _check_no_options_for_zdd(options)
            return dxz.first(problem)
        from excover.engines import wall_clock_search

        return wall_clock_search(problem, **options).first()

    def solutions(
        self,
        problem: ExactCover,
        method: str = "dlx",
        limit: int | None = None,
        *,
        solver: str | None = None,
        amo: str | None = None,
        workers: int | None = None,
        executor: object | None = None,
        tasks: int | None = None,
        up_to_symmetry: bool = False,
        symmetry: bool | Group | Iterable[Generator] | None = None,
        preprocess: bool = False,
        **options: Unpack[SearchOptions],
    ) -> Iterator[list[int]]:
        """The work of :meth:`ExactCover.solutions`."""
        if preprocess:
            _check_no_symmetry(up_to_symmetry, symmetry)
            reduced = _preprocessed(problem)
            listed = self.solutions(
                reduced.problem,
                method,
                limit,
                solver=solver,
                amo=amo,
                workers=workers,
                executor=executor,
                tasks=tasks,
                **options,
            )
            return map(reduced.original, listed)
        if up_to_symmetry or (symmetry is not None and symmetry is not False):
            if workers is not None:
                raise UsageError(
                    "a listing with symmetry is one search: workers= goes with count()"
                )
            found = self.broken(
                problem, method, symmetry, solver, amo, workers, executor, tasks, options
            )
            listed = found.representatives() if up_to_symmetry else found.solutions()
            return listed if limit is None else _first(listed, limit)
        if workers is not None or executor is not None or tasks is not None:
            from excover.parallel import run

            _check_not_sat(method, solver, amo)
            return run.solutions(
                problem,
                method,
                limit,
                workers=workers,
                executor=executor,
                tasks=tasks,
                options=dict(options),
            )
        if method == "sat":
            from excover.sat import solve

            return solve.solutions(problem, solver, amo, limit, **options)
        _check_not_sat(method, solver, amo)
        if method == "zdd":
            from excover.zdd import dxz

            _check_no_options_for_zdd(options)
            return dxz.solutions(problem, limit)
        from excover.engines import wall_clock_search

        return wall_clock_search(problem, **options).solutions(limit)

    def count(
        self,
        problem: ExactCover,
        method: str = "auto",
        *,
        solver: str | None = None,
        amo: str | None = None,
        workers: int | None = None,
        executor: object | None = None,
        tasks: int | None = None,
        up_to_symmetry: bool = False,
        symmetry: bool | Group | Iterable[Generator] | None = None,
        preprocess: bool | None = None,
        **options: Unpack[SearchOptions],
    ) -> int:
        """The work of :meth:`ExactCover.count`."""
        if preprocess:
            _check_no_symmetry(up_to_symmetry, symmetry)
            problem = _preprocessed(problem).problem
        if up_to_symmetry or (symmetry is not None and symmetry is not False):
            found = self.broken(
                problem, method, symmetry, solver, amo, workers, executor, tasks, options
            )
            return found.count_orbits() if up_to_symmetry else found.count()
        if workers is not None or executor is not None or tasks is not None:
            from excover.parallel import run

            _check_not_sat(method, solver, amo)
            return run.count(
                problem,
                method,
                workers=workers,
                executor=executor,
                tasks=tasks,
                options=dict(options),
            )
        if method == "sat":
            from excover.sat import solve

            return solve.count(problem, solver, amo, **options)
        _check_not_sat(method, solver, amo)
        if method == "zdd":
            from excover.zdd import dxz

            _check_no_options_for_zdd(options)
            return dxz.count(problem)
        if method == "auto":
            from excover import counting

            # None: the race may preprocess a long count; True: done above already
            return counting.count(problem, preprocess=preprocess is None, **options).count
        from excover.engines import wall_clock_search

        return wall_clock_search(problem, **options).count()

    def symmetries(self, problem: ExactCover) -> Group:
        """The work of :meth:`ExactCover.symmetries`: the declared group, else the
        automorphism group."""
        declared = problem.declared_symmetries()
        if declared is not None:
            from excover.symmetry import Group

            return Group(problem, declared)
        from excover.symmetry.automorphisms import automorphism_group

        return automorphism_group(problem)

    def broken(
        self,
        problem: ExactCover,
        method: str,
        symmetry: object,
        solver: str | None,
        amo: str | None,
        workers: int | None,
        executor: object | None,
        tasks: int | None,
        options: SearchOptions,
    ) -> BrokenSearch:
        """The symmetry-broken search that ``up_to_symmetry`` and ``symmetry`` ask for."""
        from collections.abc import Iterable

        from excover.symmetry import BrokenSearch, Group

        _check_not_sat(method, solver, amo)
        if method == "sat":
            raise UsageError("counting with symmetry runs dancing links; method 'sat' cannot")
        if executor is not None or tasks is not None:
            raise UsageError(
                "symmetry goes with workers=, not with executor= or tasks= (cannot be combined yet)"
            )
        if options.get("max_solutions") is not None:
            raise UsageError("max_solutions does not combine with symmetry; use limit")
        if method == "zdd":
            _check_no_options_for_zdd(options)
        if symmetry is None or symmetry is True:
            group = problem.symmetries()
        elif isinstance(symmetry, Group):
            if symmetry.problem is not problem and symmetry.problem != problem:
                raise UsageError("the group given is the group of another problem")
            group = symmetry
        elif isinstance(symmetry, str | bytes) or not isinstance(symmetry, Iterable):
            raise UsageError(
                "symmetry must be True, a Group or a list of generators, "
                f"not {type(symmetry).__name__}"
            )
        else:
            group = Group(problem, symmetry)
        return BrokenSearch(problem, group, method, workers=workers, **options)

    def split(
        self,
        problem: ExactCover,
        depth: int | None = None,
        tasks: int | None = None,
        *,
        seed: int = 0,
    ) -> list[Subproblem]:
        """The work of :meth:`ExactCover.split`."""
        from excover.parallel import split

        return split(problem, depth, tasks, seed=seed)

    def estimate(
        self,
        problem: ExactCover,
        samples: int | None = None,
        *,
        seed: int | None = 0,
        timed: bool = True,
    ) -> Estimate:
        """The work of :meth:`ExactCover.estimate`."""
        from excover.parallel import estimate

        return estimate(problem, samples, seed=seed, timed=timed)

    def zdd(self, problem: ExactCover, method: str = "dxz") -> Family:
        """The work of :meth:`ExactCover.zdd`."""
        from excover.zdd import columns, dxz

        if method == "dxz":
            return dxz.dxz(problem)
        if method == "columns":
            return columns.columns(problem)
        raise UsageError(f"unknown ZDD method {method!r}; choose 'dxz' or 'columns'")

    def to_cnf(self, problem: ExactCover, amo: str = "auto") -> CNF:
        """The work of :meth:`ExactCover.to_cnf`."""
        from excover.sat import to_cnf

        return to_cnf(problem, amo)


def _first(found: Iterator[list[int]], limit: int) -> Iterator[list[int]]:
    """The first ``limit`` of ``found``."""
    for number, solution in enumerate(found):
        if number >= limit:
            return
        yield solution


def _preprocessed(problem: ExactCover) -> Preprocessed:
    """``problem`` reduced by :func:`excover.preprocess.preprocess`."""
    from excover.preprocess import preprocess

    return preprocess(problem)


def _check_no_symmetry(up_to_symmetry: bool, symmetry: object) -> None:
    """Refuse ``preprocess`` with a symmetry: the group is the original problem's, and
    the reduced problem may have other symmetries."""
    if up_to_symmetry or (symmetry is not None and symmetry is not False):
        raise UsageError(
            "preprocess does not combine with symmetry or up_to_symmetry: the group acts "
            "on the original problem, which preprocessing changes"
        )


def _check_not_sat(method: str, solver: str | None, amo: str | None) -> None:
    """Reject the SAT arguments ``solver`` and ``amo`` given with another method."""
    if solver is not None or amo is not None:
        raise UsageError(f"solver= and amo= go with method='sat', not method={method!r}")


def _check_no_options_for_zdd(options: SearchOptions) -> None:
    """UsageError when search options come with method "zdd", which has none."""
    if options:
        raise UsageError(f"method 'zdd' takes no search options, not {sorted(options)}")
