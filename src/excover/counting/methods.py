"""One problem solved by one method in this process: the methods' one dispatch.

Every operation that solves a problem it made (a symmetry-broken part, a subproblem on a
worker, a quotient by a group) calls down here, never back up through
:class:`excover.ExactCover`: ``method`` picks the compiled search (``"search"``, with its
engine among the search options), the ZDD count or listing (``"zdd"``), the SAT solver
(``"sat"``) or the choice of counting routes (``"auto"``, :mod:`excover.counting.choice`).
:mod:`excover.solving.registry` puts the operations around these calls; this module is
the only other place that tells the methods apart.
"""

from __future__ import annotations

from excover.errors import LimitReached, UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any, Unpack

    from excover.problem import Problem, SearchOptions

    class MethodOptions(SearchOptions, total=False):
        """The search options, and the two of ``method="sat"`` (:mod:`excover.sat`):
        ``solver`` and ``amo``, refused with any other method."""

        solver: str | None
        amo: str | None


__all__ = ["check_not_sat", "check_search_options", "count", "first", "solutions"]


def first(
    problem: Problem, method: str = "search", **options: Unpack[MethodOptions]
) -> list[int] | None:
    """The first solution ``method`` finds (option indices), or None."""
    found: list[int] | None = _by(method, "first", problem, (), options)
    return found


def solutions(
    problem: Problem,
    method: str = "search",
    limit: int | None = None,
    **options: Unpack[MethodOptions],
) -> Iterator[list[int]]:
    """The solutions ``method`` finds, lazily, at most ``limit`` of them (``"auto"``
    lists by the compiled search, as ``"search"`` does)."""
    found: Iterator[list[int]] = _by(method, "solutions", problem, (limit,), options)
    return found


def count(
    problem: Problem,
    method: str = "auto",
    *,
    preprocess: bool = True,
    **options: Unpack[MethodOptions],
) -> int:
    """The number of solutions, by ``method``; ``preprocess`` lets ``"auto"`` preprocess
    a long count (:data:`excover.counting.choice.PREPROCESS_ABOVE`)."""
    if method == "auto":
        from excover.counting.choice import count as count_by_routes

        return count_by_routes(problem, preprocess=preprocess, **_not_sat(method, options)).count
    total: int = _by(method, "count", problem, (), options)
    return total


def _by(
    method: str,
    operation: str,
    problem: Problem,
    arguments: tuple[object, ...],
    options: MethodOptions,
) -> Any:
    """``operation`` (``first``, ``solutions`` or ``count``, which each method names
    alike) of ``method`` on ``problem``, with its ``arguments``: the SAT solver, the ZDD
    constructions (which take no search options) or the compiled search."""
    if method == "sat":
        from excover.sat import solve

        solver, amo = options.pop("solver", None), options.pop("amo", None)
        return getattr(solve, operation)(problem, solver, amo, *arguments, **options)
    search = _not_sat(method, options)
    if method == "zdd":
        from excover.zdd import dxz

        timeout = search.pop("timeout", None) if operation != "solutions" else None
        check_search_options(method, search)
        if timeout is None:
            return getattr(dxz, operation)(problem, *arguments)
        return _zdd_within(timeout, lambda: getattr(dxz, operation)(problem, *arguments))
    from excover.engines import wall_clock_search

    return getattr(wall_clock_search(problem, **search), operation)(*arguments)


def _zdd_within(timeout: float, run: Callable[[], Any]) -> Any:
    """``run()`` (a ZDD count or first solution, which has no deadline of its own) within
    ``timeout`` seconds, by the alarm (:func:`excover.deadlines.alarm`): past it,
    LimitReached with reason ``"timeout"``, as a search stopped by its ``timeout``."""
    from excover.deadlines import TimeUp, alarm
    from excover.statistics import Stats

    try:
        with alarm(max(timeout, 0.0)):
            return run()
    except TimeUp:
        raise LimitReached("timeout", Stats(stopped_by="timeout")) from None


def _not_sat(method: str, options: MethodOptions) -> SearchOptions:
    """The search options of ``options``, taking out ``solver`` and ``amo``, refused with
    a method other than ``"sat"`` (:func:`check_not_sat`)."""
    check_not_sat(method, options.pop("solver", None), options.pop("amo", None))
    return options


def check_not_sat(method: str, solver: str | None, amo: str | None) -> None:
    """Reject the SAT arguments ``solver`` and ``amo`` given with another method."""
    if solver is not None or amo is not None:
        raise UsageError(f"solver= and amo= go with method='sat', not method={method!r}")


def check_search_options(method: str, options: Mapping[str, object]) -> None:
    """UsageError when search options come with ``method="zdd"``, which has none."""
    if method == "zdd" and options:
        raise UsageError(f"method 'zdd' takes no search options, not {sorted(options)}")
