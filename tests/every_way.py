"""Every way excover counts and lists one problem, for the cross-checks against brute force.

:func:`counts` runs each count the library offers on one problem: every method, every
engine, every route of the route choice (forced one by one), preprocessing on and off,
the parallel split in this process (``tasks=``) and, when asked, on two worker processes
(``workers=2``), and every at-most-one encoding of the SAT method. :func:`listings` does
the same for ``first()`` and ``solutions()``, :func:`orbit_counts` for the counts and
listings up to a given group of symmetries. Each result is labelled by the call that made
it, so a disagreement names the call to rerun.

:func:`check_counts`, :func:`check_listings` and :func:`check_orbits` compare them with an
answer found by brute force and fail with every label that disagrees; they return how many
results they compared, which ``benchmarks/crosscheck.py`` adds up. The brute-force oracles
themselves live beside the problems they know (``builders.Instance.all_covers``,
``symmetric.brute_orbits``, ``tilings.TilingCase``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from builders import Instance, union
from symmetric import all_solutions, build, duplicate_swaps, option_map, orbit_roots
from tilings import TilingCase, decoded

from excover import ExactCover, UsageError, counting
from excover.engines import pick_engine
from excover.names import METHOD_TRAITS, SEARCH_ENGINES, TASK_METHODS
from excover.names import METHODS as METHODS
from excover.sat import AMO_ENCODINGS
from excover.symmetry import Group

__all__ = [
    "METHODS",
    "check_counts",
    "check_instance",
    "check_listings",
    "check_orbits",
    "check_symmetric",
    "check_tiling",
    "check_union",
    "counts",
    "engines_for",
    "engines_telling_progress",
    "listings",
    "one_per_orbit",
    "orbit_counts",
]

#: The methods of ``count()``, ``first()`` and ``solutions()`` are :data:`METHODS`, read
#: from :mod:`excover.names`: a new method is checked here from the day it is named.

#: The methods that search: each takes an ``engine``.
SEARCHING: tuple[str, ...] = tuple(m for m in METHODS if METHOD_TRAITS[m].searches)

#: The methods that count under a group (a symmetry-broken search): all but a solver's.
SYMMETRIC: tuple[str, ...] = tuple(m for m in METHODS if not METHOD_TRAITS[m].solver)

#: The routes that take every problem; the others take only some (the route choice tries
#: them where they may apply).
ALWAYS_ROUTES: tuple[str, ...] = ("dlx", "bits", "dxz")  # specific routes: those that take all

#: The number of subproblems of the in-process parallel split.
TASKS = 3

Solution = frozenset[int]


def has_multiplicities(problem: ExactCover) -> bool:
    """Whether some primary item may be covered other than exactly once."""
    return any(problem.multiplicity(item) != (1, 1) for item in problem.primary_items)


def engines_for(problem: ExactCover) -> tuple[str, ...]:
    """The compiled engines of :data:`~excover.names.SEARCH_ENGINES` that run
    ``problem``, as the engines themselves say (dancing cells has no multiplicities)."""
    return tuple(engine for engine in SEARCH_ENGINES if _runs(problem, engine))


def engines_telling_progress() -> tuple[str, ...]:
    """The compiled engines of :data:`~excover.names.SEARCH_ENGINES` whose
    :meth:`~excover.engines.Search.progress` tells the share of the tree walked on
    Algorithms X and C, as the engines themselves say (None from one that keeps no such
    estimate: dancing cells)."""
    from excover.puzzles.queens import queens

    return tuple(e for e in SEARCH_ENGINES if queens(4).search(engine=e).progress() is not None)


def _runs(problem: ExactCover, engine: str) -> bool:
    """Whether ``engine`` runs ``problem`` (:func:`excover.engines.pick_engine` refuses
    an engine that cannot, saying why)."""
    try:
        pick_engine(problem, engine)
    except UsageError:
        return False
    return True


def _call(name: str, **kwargs: Any) -> str:
    """A call as text, for labels: ``count(method='search', engine='bits')``."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in kwargs.items())})"


def count_calls(problem: ExactCover, workers: bool) -> list[tuple[str, Callable[[], int]]]:
    """Every count of ``problem`` to run, as (label, thunk)."""
    calls: list[tuple[str, Callable[[], int]]] = []

    def add(**kwargs: Any) -> None:
        calls.append((_call("count", **kwargs), lambda: problem.count(**kwargs)))

    engines = engines_for(problem)
    for preprocess in (False, True):
        for method in METHODS:
            add(method=method, preprocess=preprocess)
        for engine in engines:
            for method in SEARCHING:
                add(method=method, engine=engine, preprocess=preprocess)
    for amo in AMO_ENCODINGS:
        add(method="sat", amo=amo)
    for method in TASK_METHODS:
        add(method=method, tasks=TASKS)
    for engine in engines:
        add(method="search", engine=engine, tasks=TASKS)
    if workers:
        for method in TASK_METHODS:
            add(method=method, workers=2)
        add(method="search", engine="bits", workers=2)  # counted in shares, not subproblems
        add(method="search", workers=2, tasks=TASKS + 2)
        add(method="zdd", workers=2, tasks=TASKS)
    return calls


def route_counts(problem: ExactCover) -> dict[str, int]:
    """The count of every route of ``count(method="auto")`` that takes ``problem``, forced
    one by one with preprocessing on and off, labelled by the call. The routes of
    :data:`ALWAYS_ROUTES`, and dancing cells and the component count on a problem without
    multiplicities, must take it."""
    found = {}
    for preprocess in (False, True):
        for name in counting.ROUTES:
            label = f"counting.count(problem, route={name!r}, preprocess={preprocess})"
            try:
                result = counting.count(problem, route=name, preprocess=preprocess)
            except UsageError:
                must = ALWAYS_ROUTES
                if not has_multiplicities(problem):
                    must += ("cells", "components")
                assert name not in must, f"{label} refused the problem"
                continue
            assert result.route == name, f"{label} counted by {result.route}"
            found[label] = result.count
    return found


def counts(problem: ExactCover, workers: bool = False) -> dict[str, int]:
    """Every count of ``problem``, labelled by its call; with ``workers``, the parallel
    counts on two processes too."""
    found = {label: run() for label, run in count_calls(problem, workers)}
    found.update(route_counts(problem))
    found["counting.count(problem)"] = counting.count(problem).count
    return found


def check_counts(problem: ExactCover, expected: int, workers: bool = False) -> int:
    """Every count of ``problem`` is ``expected``; the number of counts compared."""
    found = counts(problem, workers)
    wrong = {label: value for label, value in found.items() if value != expected}
    assert not wrong, f"expected {expected} solutions, got {wrong}"
    return len(found)


def listings(
    problem: ExactCover, workers: bool = False
) -> dict[str, list[list[int]] | list[int] | None]:
    """Every listing of ``problem``, labelled by its call: ``solutions()`` (a list of
    solutions) and ``first()`` (one solution or None) by every method, engine, with and
    without preprocessing, split into subproblems, and with ``workers`` on two
    processes."""
    found: dict[str, list[list[int]] | list[int] | None] = {}
    engines = engines_for(problem)
    for preprocess in (False, True):
        for method in METHODS:
            found[_call("solutions", method=method, preprocess=preprocess)] = list(
                problem.solutions(method, preprocess=preprocess)
            )
            found[_call("first", method=method, preprocess=preprocess)] = problem.first(
                method, preprocess=preprocess
            )
        for engine in engines:
            found[_call("solutions", engine=engine, preprocess=preprocess)] = list(
                problem.solutions(engine=engine, preprocess=preprocess)
            )
            found[_call("first", engine=engine, preprocess=preprocess)] = problem.first(
                engine=engine, preprocess=preprocess
            )
    parallel: list[dict[str, Any]] = [{"method": "search", "tasks": TASKS}]
    parallel += [{"method": "zdd", "tasks": TASKS}, {"engine": "bits", "tasks": TASKS}]
    if workers:
        parallel += [{"method": "search", "workers": 2}, {"method": "zdd", "workers": 2}]
    for kwargs in parallel:
        found[_call("solutions", **kwargs)] = list(problem.solutions(**kwargs))
    return found


def limited(problem: ExactCover, limit: int) -> dict[str, list[list[int]]]:
    """``solutions(limit=...)`` by every method, labelled by the call."""
    return {
        _call("solutions", method=method, limit=limit): list(problem.solutions(method, limit))
        for method in METHODS
    }


def check_listings(
    problem: ExactCover,
    expected: set[Solution],
    is_cover: Callable[[Iterable[int]], bool],
    workers: bool = False,
) -> int:
    """Every listing of ``problem`` gives valid solutions (by the oracle ``is_cover``),
    each once, of the ``expected`` ones: all of them for ``solutions()``, one for
    ``first()`` (None when there are none), ``min(limit, all)`` for a limit. Returns the
    number of listings compared."""
    found = listings(problem, workers)
    limit = max(1, len(expected) // 2)
    found.update(limited(problem, limit))
    for label, listed in found.items():
        if label.startswith("first("):
            assert (listed is None) == (not expected), f"{label} gave {listed}"
            assert listed is None or frozenset(listed) in expected, f"{label} gave {listed}"
            continue
        assert isinstance(listed, list)
        solutions = []
        for solution in listed:
            assert isinstance(solution, list), f"{label} gave {solution!r}"
            assert len(set(solution)) == len(solution), f"{label}: an option twice in {solution}"
            solutions.append(frozenset(solution))
        assert all(is_cover(solution) for solution in solutions), f"{label}: not a cover"
        assert len(set(solutions)) == len(solutions), f"{label}: a solution twice"
        if "limit=" in label:
            assert set(solutions) <= expected and len(solutions) == min(limit, len(expected))
        else:
            assert set(solutions) == expected, f"{label}: {sorted(map(sorted, solutions))}"
    return len(found)


def one_per_orbit(names: list[Any], orbit_of: dict[Any, Any]) -> bool:
    """Whether ``names``, the orbits of some solutions listed, name every orbit of
    ``orbit_of`` (which maps each solution to its orbit) exactly once."""
    return len(names) == len(set(names)) and set(names) == set(orbit_of.values())


def orbit_counts(problem: ExactCover, group: Group, workers: bool = False) -> dict[str, int]:
    """Every count of ``problem``'s orbits of solutions under ``group``, labelled by its
    call: each method and engine that counts up to symmetry, and with ``workers`` on two
    processes."""
    calls: list[dict[str, Any]] = [{"method": method} for method in SYMMETRIC]
    calls += [{"method": "search", "engine": engine} for engine in engines_for(problem)]
    if workers:
        calls += [{"method": "search", "workers": 2}, {"method": "zdd", "workers": 2}]
    return {
        _call("count", up_to_symmetry=True, symmetry="group", **kwargs): problem.count(
            up_to_symmetry=True, symmetry=group, **kwargs
        )
        for kwargs in calls
    }


def check_orbits(
    problem: ExactCover,
    group: Group,
    solutions: set[Solution],
    orbit_of: dict[Solution, Any],
    workers: bool = False,
) -> int:
    """``problem`` counted and listed under ``group`` against brute force: ``solutions``
    are all of its solutions and ``orbit_of`` names the orbit of each. Every count of the
    orbits is their number, every count with ``symmetry`` is the number of solutions; the
    representatives listed up to symmetry are one per orbit, and the listing with
    ``symmetry`` is every solution once. Returns the number of results compared."""
    orbits = len(set(orbit_of.values()))
    found = orbit_counts(problem, group, workers)
    for method in SYMMETRIC:
        found[_call("count", symmetry="group", method=method)] = problem.count(
            method, symmetry=group
        )
    wrong = {
        label: value
        for label, value in found.items()
        if value != (orbits if "up_to_symmetry" in label else len(solutions))
    }
    assert not wrong, f"{len(solutions)} solutions in {orbits} orbits, got {wrong}"
    compared = len(found)
    for method in (m for m in SYMMETRIC if not METHOD_TRAITS[m].chooses):
        label = _call("solutions", up_to_symmetry=True, symmetry="group", method=method)
        listed = [
            frozenset(s) for s in problem.solutions(method, up_to_symmetry=True, symmetry=group)
        ]
        assert set(listed) <= solutions, f"{label} gave a non-solution"
        assert one_per_orbit([orbit_of[s] for s in listed], orbit_of), label
        label = _call("solutions", symmetry="group", method=method)
        every = [frozenset(s) for s in problem.solutions(method, symmetry=group)]
        assert len(every) == len(set(every)) and set(every) == solutions, label
        compared += 2
    return compared


# ----- the cross-checks of one random problem, each returning the results compared -----


def check_instance(instance: Instance, listings: bool = True, workers: bool = False) -> int:
    """A random instance counted (and listed) every way against its brute-force
    solutions."""
    problem = instance.build()
    expected = instance.all_covers()
    compared = check_counts(problem, len(expected), workers)
    if listings:
        compared += check_listings(problem, expected, instance.is_cover, workers)
    return compared


def check_union(parts: list[Instance], seed: int) -> int:
    """The union of independent ``parts`` (:func:`builders.union`, where the parts route
    and the component count have work to do) counted every way: the product of the
    parts' counts."""
    product = 1
    for part in parts:
        product *= len(part.all_covers())
    return check_counts(union(parts, seed).build(), product)


def check_symmetric(drawn: Any, workers: bool = False) -> int:
    """A problem made symmetric on purpose (:func:`symmetric.symmetric_problems`)
    counted and listed under its known group (the item permutation it was closed under,
    and the exchanges of equal options) against the brute-force orbits of its
    solutions."""
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    generators = [option_map(options, sigma), *duplicate_swaps(options)]
    solutions = all_solutions(problem)
    roots = orbit_roots(solutions, generators)
    orbit_of = {frozenset(s): roots[s] for s in solutions}
    return check_orbits(problem, Group(problem, generators), set(orbit_of), orbit_of, workers)


def check_tiling(case: TilingCase) -> int:
    """A tiling case counted and listed, plainly and up to the board's symmetries, against
    its brute-force tilings and their canonical forms."""
    tiling = case.build()
    orbit_of = case.orbit_of()
    classes = set(orbit_of.values())
    compared = check_counts(tiling.problem, len(orbit_of))
    for method in METHODS:
        assert tiling.count(method) == len(orbit_of), _call("Tiling.count", method=method)
    assert {decoded(s) for s in tiling.solutions()} == set(orbit_of), "Tiling.solutions()"
    calls: list[dict[str, Any]] = [{"method": method} for method in SYMMETRIC]
    calls += [{"method": "search", "engine": engine} for engine in engines_for(tiling.problem)]
    for kwargs in calls:
        label = _call("Tiling.count", up_to_symmetry=True, **kwargs)
        assert tiling.count(up_to_symmetry=True, **kwargs) == len(classes), label
    for method in (m for m in SYMMETRIC if not METHOD_TRAITS[m].chooses):
        listed = [orbit_of[decoded(s)] for s in tiling.solutions(method, up_to_symmetry=True)]
        label = _call("Tiling.solutions", method=method, up_to_symmetry=True)
        assert one_per_orbit(listed, orbit_of), label
    return compared + len(METHODS) + 1 + len(calls) + 2
