"""The work of :class:`~excover.ExactCover`'s solving methods: which operation and
which method serve each call.

A call goes through the operations the arguments ask for, outermost first: preprocessing
(``preprocess=True``), a symmetry-broken search (``symmetry``, ``up_to_symmetry``), a
parallel run (``workers``, ``executor``, ``tasks``); what is left is one method in one
process, which :mod:`excover.counting.methods` runs. This module sits above every engine
and operation (dancing links, ZDDs, SAT, parallel runs, symmetry) and imports each only
when a call asks for it, so that ``import excover`` stays cheap.
"""

from __future__ import annotations

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import TypeVar, Unpack

    from excover.engines import Search
    from excover.parallel import Estimate, Subproblem
    from excover.preprocess import Preprocessed
    from excover.problem import Problem, SearchOptions
    from excover.sat import CNF
    from excover.solving.outcome import Outcome
    from excover.solving.request import Request
    from excover.symmetry import BrokenSearch, Generator, Group
    from excover.zdd import Family

    P = TypeVar("P", bound=Problem)

__all__ = [
    "broken",
    "count",
    "estimate",
    "first",
    "run_count",
    "run_solutions",
    "search",
    "solutions",
    "split",
    "symmetries",
    "to_cnf",
    "zdd",
]


def search(
    problem: Problem,
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
    problem: Problem,
    method: str = "dlx",
    *,
    solver: str | None = None,
    amo: str | None = None,
    preprocess: bool = False,
    **options: Unpack[SearchOptions],
) -> list[int] | None:
    """The work of :meth:`ExactCover.first`."""
    from excover.counting import methods

    if preprocess:
        reduced = _preprocessed(problem)
        found = first(reduced.problem, method, solver=solver, amo=amo, **options)
        return None if found is None else reduced.original(found)
    return methods.first(problem, method, solver=solver, amo=amo, **options)


def solutions(
    problem: Problem,
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
    from excover.counting import methods

    if preprocess:
        _check_no_symmetry(up_to_symmetry, symmetry)
        reduced = _preprocessed(problem)
        listed = solutions(
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
            raise UsageError("a listing with symmetry is one search: workers= goes with count()")
        found = broken(problem, method, symmetry, solver, amo, workers, executor, tasks, options)
        listed = found.representatives() if up_to_symmetry else found.solutions()
        return listed if limit is None else _first(listed, limit)
    if workers is not None or executor is not None or tasks is not None:
        from excover.parallel import run

        methods.check_not_sat(method, solver, amo)
        return run.solutions(
            problem,
            method,
            limit,
            workers=workers,
            executor=executor,
            tasks=tasks,
            options=dict(options),
        )
    return methods.solutions(problem, method, limit, solver=solver, amo=amo, **options)


def count(
    problem: Problem,
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
    from excover.counting import methods

    if preprocess:
        _check_no_symmetry(up_to_symmetry, symmetry)
        problem = _preprocessed(problem).problem
    if up_to_symmetry or (symmetry is not None and symmetry is not False):
        found = broken(problem, method, symmetry, solver, amo, workers, executor, tasks, options)
        return found.count_orbits() if up_to_symmetry else found.count()
    if workers is not None or executor is not None or tasks is not None:
        from excover.parallel import run

        methods.check_not_sat(method, solver, amo)
        return run.count(
            problem,
            method,
            workers=workers,
            executor=executor,
            tasks=tasks,
            options=dict(options),
        )
    # None: the race may preprocess a long count; True: done above already
    return methods.count(
        problem, method, solver=solver, amo=amo, preprocess=preprocess is None, **options
    )


def symmetries(problem: Problem) -> Group:
    """The work of :meth:`ExactCover.symmetries`: the declared group, else the
    automorphism group."""
    declared = problem.declared_symmetries()
    if declared is not None:
        from excover.symmetry import Group

        return Group(problem, declared)
    from excover.symmetry.automorphisms import automorphism_group

    return automorphism_group(problem)


def broken(
    problem: Problem,
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

    from excover.counting import methods
    from excover.symmetry import BrokenSearch, Group

    methods.check_not_sat(method, solver, amo)
    if method == "sat":
        raise UsageError("counting with symmetry runs dancing links; method 'sat' cannot")
    if executor is not None or tasks is not None:
        raise UsageError(
            "symmetry goes with workers=, not with executor= or tasks= (cannot be combined yet)"
        )
    if options.get("max_solutions") is not None:
        raise UsageError("max_solutions does not combine with symmetry; use limit")
    methods.check_search_options(method, options)
    if symmetry is None or symmetry is True:
        group = symmetries(problem)
    elif isinstance(symmetry, Group):
        if symmetry.problem is not problem and symmetry.problem != problem:
            raise UsageError("the group given is the group of another problem")
        group = symmetry
    elif isinstance(symmetry, str | bytes) or not isinstance(symmetry, Iterable):
        raise UsageError(
            f"symmetry must be True, a Group or a list of generators, not {type(symmetry).__name__}"
        )
    else:
        group = Group(problem, symmetry)
    return BrokenSearch(problem, group, method, workers=workers, **options)


def split(
    problem: Problem,
    depth: int | None = None,
    tasks: int | None = None,
    *,
    seed: int = 0,
) -> list[Subproblem]:
    """The work of :meth:`ExactCover.split`."""
    from excover.parallel import split

    return split(problem, depth, tasks, seed=seed)


def estimate(
    problem: Problem,
    samples: int | None = None,
    *,
    seed: int | None = 0,
    timed: bool = True,
) -> Estimate:
    """The work of :meth:`ExactCover.estimate`."""
    from excover.parallel import estimate

    return estimate(problem, samples, seed=seed, timed=timed)


def zdd(problem: Problem, method: str = "dxz") -> Family:
    """The work of :meth:`ExactCover.zdd`."""
    from excover.zdd import columns, dxz

    if method == "dxz":
        return dxz.dxz(problem)
    if method == "columns":
        return columns.columns(problem)
    raise UsageError(f"unknown ZDD method {method!r}; choose 'dxz' or 'columns'")


def to_cnf(problem: Problem, amo: str = "auto") -> CNF:
    """The work of :meth:`ExactCover.to_cnf`."""
    from excover.sat import to_cnf

    return to_cnf(problem, amo)


def _first(found: Iterator[list[int]], limit: int) -> Iterator[list[int]]:
    """The first ``limit`` of ``found``."""
    for number, solution in enumerate(found):
        if number >= limit:
            return
        yield solution


def _preprocessed(problem: P) -> Preprocessed[P]:
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


# ----- runs for the front ends: one Outcome, whatever the method


def _runs(method: str) -> tuple[Callable[..., Outcome], Callable[..., Outcome]]:
    """The count and the listing of ``method`` as :class:`Outcome` runs: the one table
    a new method joins."""
    from excover.solving import by_routes, by_sat, by_search, by_zdd

    runs = {
        "auto": (by_routes.count, by_search.solutions),
        "dlx": (by_search.count, by_search.solutions),
        "zdd": (by_zdd.count, by_zdd.solutions),
        "sat": (by_sat.count, by_sat.solutions),
    }
    found = runs.get(method)
    if found is None:
        raise UsageError(f"unknown method {method!r}; choose one of {', '.join(runs)}")
    return found


def run_count(problem: Problem, request: Request) -> Outcome:
    """Count the solutions of ``problem`` as ``request`` asks, within its limits: the
    :class:`Outcome` says what ran, what it found and why it stopped early, if it did.
    ``method="auto"`` given search options runs one search, as in the API."""
    from excover.names import METHOD_TRAITS

    traits = METHOD_TRAITS.get(request.method)
    if traits is not None and traits.chooses and request.search_options_given():
        return _runs("dlx")[0](problem, request)
    return _runs(request.method)[0](problem, request)


def run_solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution of ``problem`` to ``emit`` as soon as ``request``'s method
    finds it (``auto``: one search, as in the API), within its limits; a closed pipe
    (BrokenPipeError from ``emit``) propagates."""
    return _runs(request.method)[1](problem, request, emit)
