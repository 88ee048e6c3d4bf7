"""One problem solved by one method in this process: the registry of the methods' runners.

Each method of :data:`excover.names.METHODS` has one runner, a module of this package:
:mod:`~excover.counting.by_routes` counts for ``"auto"`` (its listings are a search's),
:mod:`~excover.counting.by_search` is ``"search"`` (and ``"auto"`` given search options,
as in the API), :mod:`~excover.counting.by_zdd` is ``"zdd"``,
:mod:`~excover.counting.by_sat` is ``"sat"``. A runner's ``count`` answers an
:class:`~excover.counting.outcome.Outcome`, its ``listing`` a
:class:`~excover.counting.outcome.Listing`; :func:`runs` is the one table a new method
joins. Every run of a method goes through its runner, whoever asks: the front ends through
the orchestrator (:mod:`excover.solving.orchestrate`), and the API's shortcuts and the
operations (a symmetry-broken part, a subproblem on a worker, a quotient by a group)
through :func:`count`, :func:`solutions` and :func:`first` here, which check the API's
keyword arguments and read the int or the solutions off the runner, raising what stopped
it as a search raises it. This module and :mod:`excover.names` are the only ones that tell
the methods apart by name (a test keeps it so).
"""

from __future__ import annotations

import time

from excover.counting.request import MethodRequest
from excover.entries import check_count_limit, check_time_limit
from excover.errors import UsageError
from excover.names import METHOD_TRAITS, METHODS

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Mapping
    from typing import Any, Unpack

    from excover.counting.outcome import Listing, Outcome
    from excover.names import MethodTraits
    from excover.problem import Problem, SearchOptions

    class MethodOptions(SearchOptions, total=False):
        """The search options, and the two of ``method="sat"`` (:mod:`excover.sat`):
        ``solver`` and ``amo``, refused with any other method."""

        solver: str | None
        amo: str | None


__all__ = [
    "MethodRuns",
    "check_not_sat",
    "check_search_options",
    "count",
    "first",
    "request_of",
    "runs",
    "solutions",
]


class MethodRuns:
    """The runner of one method: its count and its listing."""

    __slots__ = ("count", "listing")

    def __init__(
        self,
        count: Callable[[Problem, MethodRequest], Outcome],
        listing: Callable[[Problem, MethodRequest], Listing],
    ) -> None:
        self.count = count
        self.listing = listing


def runs(request: MethodRequest) -> MethodRuns:
    """The runner of ``request.method``: the one table of the methods' runs. A choice
    among routes given search options is one search, as in the API (``p.count(
    max_nodes=...)``)."""
    table = _TABLE or _table()
    found = table.get(request.method) if isinstance(request.method, str) else None
    if found is None:
        raise UsageError(f"unknown method {request.method!r}; choose one of {', '.join(table)}")
    if _traits(request.method).chooses and request.search_options_given():
        return table["search"]
    return found


#: The runners, by method: filled on first use (:func:`_table`).
_TABLE: dict[str, MethodRuns] = {}


def _table() -> dict[str, MethodRuns]:
    """The one table of the methods' runners (each module imported on first use, so
    that importing this module costs a run nothing more)."""
    from excover.counting import by_routes, by_sat, by_search, by_zdd

    _TABLE.update(
        auto=MethodRuns(by_routes.count, by_search.listing),
        search=MethodRuns(by_search.count, by_search.listing),
        zdd=MethodRuns(by_zdd.count, by_zdd.listing),
        sat=MethodRuns(by_sat.count, by_sat.listing),
    )
    return _TABLE


def _traits(method: str) -> MethodTraits:
    """What ``method`` is (:data:`excover.names.METHOD_TRAITS`); an unknown method
    refused, the methods listed."""
    traits = METHOD_TRAITS.get(method) if isinstance(method, str) else None
    if traits is None:
        raise UsageError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    return traits


def count(
    problem: Problem,
    method: str = "auto",
    *,
    preprocess: bool = True,
    **options: Unpack[MethodOptions],
) -> int:
    """The number of solutions, by ``method``, as the API counts (stopped early, what
    stopped it raised); ``preprocess`` lets ``"auto"`` preprocess a long count
    (:data:`excover.counting.choice.PREPROCESS_ABOVE`)."""
    from excover.counting.outcome import count_of

    request = request_of(method, options, "count", preprocess=None if preprocess else False)
    return count_of(runs(request).count(problem, request))


def solutions(
    problem: Problem,
    method: str = "search",
    limit: int | None = None,
    **options: Unpack[MethodOptions],
) -> Iterator[list[int]]:
    """The solutions ``method`` finds, lazily, at most ``limit`` of them (``"auto"``
    lists by the compiled search, as ``"search"`` does); a stop raised as the method
    raises it."""
    request = request_of(method, options, "solutions", limit=limit)
    return iter(runs(request).listing(problem, request))


def first(
    problem: Problem, method: str = "search", **options: Unpack[MethodOptions]
) -> list[int] | None:
    """The first solution ``method`` finds (option indices), or None; within the
    deadline of ``timeout``, whatever the method (a ZDD's by the alarm)."""
    from excover.counting.outcome import emitted

    request = request_of(method, options, "first", limit=1)
    found: list[list[int]] = []
    outcome = emitted(runs(request).listing(problem, request), found.append)
    if outcome.error is not None:
        raise outcome.error
    return found[0] if found else None


def request_of(
    method: str,
    options: Mapping[str, Any],
    operation: str,
    limit: int | None = None,
    preprocess: bool | None = None,
    into: MethodRequest | None = None,
) -> MethodRequest:
    """The request (``into``, filled in: a request of the orchestrator's) of an API call
    of ``operation`` (``count``, ``solutions`` or ``first``) by ``method`` with the
    keyword arguments ``options``, checked as each method checks them: ``solver`` and
    ``amo`` go with a SAT solver alone, which refuses the options of a search; a
    family's count (``"zdd"``) takes none (but a ``timeout``, when it counts or finds
    one); ``timeout`` is a number of seconds from now (the request's deadline).
    ``limit`` and ``max_solutions`` both bound the solutions."""
    traits = _traits(method)
    get = options.get
    solver, amo = get("solver"), get("amo")
    if traits.solver:
        _check_solver_options(method, options)
    else:
        check_not_sat(method, solver, amo)
    if traits.family:
        timed = [
            k
            for k in options
            if k not in ("solver", "amo") and (k != "timeout" or operation == "solutions")
        ]
        check_search_options(method, timed)
    timeout, most, max_nodes = get("timeout"), get("max_solutions"), get("max_nodes")
    if timeout is not None:
        check_time_limit("timeout", timeout)
    if most is not None:
        check_count_limit("max_solutions", most)
        if limit is None or most < limit:
            limit = most
    if max_nodes is not None:
        check_count_limit("max_nodes", max_nodes)
    request = MethodRequest(method) if into is None else into
    request.heuristic = get("heuristic")
    request.seed = get("seed")
    request.engine = get("engine") or "auto"
    request.solver, request.amo = solver, amo
    request.limit, request.max_nodes = limit, max_nodes
    request.deadline = None if timeout is None else time.monotonic() + timeout
    request.preprocess = preprocess
    return request


def _check_solver_options(method: str, options: Mapping[str, Any]) -> None:
    """Refuse the options of a search given to a SAT solver, which cannot honour them
    (``timeout`` and ``max_solutions`` it honours)."""
    given = [
        name
        for name, value in options.items()
        if value is not None and name not in ("timeout", "max_solutions", "solver", "amo")
    ]
    if given:
        raise UsageError(f"method {method!r} does not take {', '.join(given)}")


def check_not_sat(method: str, solver: str | None, amo: str | None) -> None:
    """Reject the SAT arguments ``solver`` and ``amo`` given with another method."""
    if solver is not None or amo is not None:
        raise UsageError(f"solver= and amo= go with method='sat', not method={method!r}")


def check_search_options(method: str, options: Collection[str]) -> None:
    """UsageError when search options come with a method that counts the family of
    solutions as a whole (``"zdd"``), which has none."""
    if options and _traits(method).family:
        raise UsageError(f"method {method!r} takes no search options, not {sorted(options)}")
