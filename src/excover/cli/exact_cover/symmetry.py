"""The command line's symmetry flags, ``--up-to-symmetry`` and ``--break-symmetry``
(declared with the other flags in :mod:`excover.cli.exact_cover.parsers`): what they
refuse, and how a symmetric run is worded.

``excover count FILE --up-to-symmetry`` counts the classes of solutions under the
problem's automorphism group and ``excover solve FILE --up-to-symmetry`` prints one
solution per class; ``--break-symmetry`` counts (or lists) every solution through the
symmetry-broken search. Both find the group first and say its order on stderr, within
``--timeout``. The orchestrator runs them (:mod:`excover.solving.orchestrate`), always
as one search.

A count of every solution breaks by default the group its problem declares (a BurrTools
puzzle's, the queens'), known without a search (the default of the API's ``count``),
once a plain search has not finished it within a few hundredths of a second
(:func:`may_break`); ``--no-break-symmetry`` counts without. The automorphisms of a
problem that declares none (a ``.dlx`` file) are found only when ``--break-symmetry``
asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from excover.cli import common
from excover.errors import LimitReached, UsageError
from excover.names import METHOD_TRAITS
from excover.numbers import to_decimal

if TYPE_CHECKING:
    from excover.cli.exact_cover.request import CoverRequest
    from excover.counting.outcome import Outcome
    from excover.problem import Problem
    from excover.solving.orchestrate import SymmetricOutcome

__all__ = ["check", "count", "may_break", "solutions", "worded"]

#: The flags with which a count keeps its plain search (each refused by :func:`check`,
#: bounding the search as it is, or asking for its engine or its progress bar).
_PLAIN = (
    "engine",
    "progress",
    "tasks",
    "checkpoint",
    "dask",
    "heuristic",
    "seed",
    "solver",
    "amo",
    "max_memory",
    "limit",
    "max_nodes",
    "preprocess",
)


def may_break(problem: Problem, args: CoverRequest, board: bool = False) -> bool:
    """Whether this count may break the group ``problem`` declares (or, ``board`` True,
    the board's group of a tiling) by default: no symmetry flag, none of the flags of a
    plain search given; the orchestrator breaks it once its scout has not finished the
    count (a count so short is then done again the plain way, in as little time)."""
    if args.break_symmetry is not None or args.up_to_symmetry:
        return False
    if not board and problem.declared_symmetries() is None:
        return False
    return not any(common.given(args, dest) for dest in _PLAIN)


def check(args: CoverRequest, counting: bool = False) -> None:
    """Refuse the flags that do not go with the symmetry flags (``--workers`` goes with
    a count: its exact cover problems are counted on that many processes)."""
    if args.up_to_symmetry and args.break_symmetry:
        raise UsageError("--up-to-symmetry and --break-symmetry are two different questions")
    if not counting:
        common.refuse(args, "workers", "counts on several processes: a listing is one search")
    for dest in ("tasks", "checkpoint", "dask", "heuristic", "seed", "solver", "amo", "max_memory"):
        common.refuse(args, dest, "does not go with --up-to-symmetry or --break-symmetry")
    if args.workers is not None:
        common.refuse(args, "max_nodes", "bounds one search: it does not go with --workers")
    if not METHOD_TRAITS[args.method].searches:
        raise UsageError(
            f"--method {args.method} does not go with --up-to-symmetry or --break-symmetry: "
            "the symmetric search is a search (dancing links or the bit-parallel engine)"
        )


def _symmetry(args: CoverRequest) -> bool | None:
    """The request's symmetry of a symmetric run: the group found (True) for
    ``--break-symmetry``, the problem's group for ``--up-to-symmetry`` (None)."""
    return True if args.break_symmetry else None


def count(problem: Problem, args: CoverRequest) -> Outcome:
    """The count asked for by the symmetry flags."""
    from excover.cli.exact_cover import solving
    from excover.solving import orchestrate

    common.refuse(args, "limit", "does not go with --up-to-symmetry or --break-symmetry")
    check(args, counting=True)
    request = solving.orchestrator_request(
        args,
        symmetry=_symmetry(args),
        up_to_symmetry=bool(args.up_to_symmetry),
        workers=args.workers,
    )
    return worded(orchestrate.count(problem, request), args, counting=True)


def solutions(problem: Problem, args: CoverRequest, emit: Callable[[list[int]], None]) -> Outcome:
    """The solutions asked for by the symmetry flags, each given to ``emit``."""
    from excover.cli.exact_cover import solving
    from excover.solving import orchestrate

    check(args)
    request = solving.orchestrator_request(
        args, symmetry=_symmetry(args), up_to_symmetry=bool(args.up_to_symmetry)
    )
    return worded(orchestrate.solutions(problem, request, emit), args, counting=False)


def worded(outcome: Outcome, args: CoverRequest, counting: bool) -> Outcome:
    """``outcome``, when it is a symmetric run's, with its engine worded for the method
    line (:func:`_engine`); any other as it is."""
    from excover.solving.orchestrate import SymmetricOutcome

    if not isinstance(outcome, SymmetricOutcome):
        return outcome
    if outcome.total is not None and outcome.by_default and outcome.group is None:
        # a board's free tile pinned: the smaller problem counted by the method
        outcome.engine = (
            f"{outcome.engine}; symmetry: {outcome.total.note}, by default "
            "(--no-break-symmetry counts without it)"
        )
    elif outcome.group is not None:
        outcome.engine = _engine(args, outcome, counting)
    return outcome


def _engine(args: CoverRequest, outcome: SymmetricOutcome, counting: bool) -> str:
    """How the search ran, for the stderr note (the engine is auto's choice for each of
    the searches the symmetric run makes); a count names the route that counted (see
    :mod:`excover.symmetry.broken`: :attr:`~excover.symmetry.BrokenSearch.count_route`
    for every solution, :attr:`~excover.symmetry.BrokenSearch.route` for classes), once
    the search is set up; a count on ``--workers`` says so."""
    from excover.symmetry import BrokenSearch

    assert outcome.group is not None
    order = to_decimal(outcome.group.option_order)
    search = outcome.search
    workers = args.workers
    where = f", counted on {workers} processes" if workers and workers > 1 else ""
    if counting and isinstance(search, BrokenSearch) and not outcome.classes:
        where += _by(lambda: search.count_route)
    board = outcome.total is not None and not outcome.total.note.startswith("declared")
    if outcome.by_default and board:  # a board's group (its Total says which)
        assert outcome.total is not None
        return (
            f"symmetry: {outcome.total.note} by default "
            f"(--no-break-symmetry counts without it){where}"
        )
    if outcome.by_default:
        return (
            f"symmetry: declared group of order {order}, broken by default "
            f"(--no-break-symmetry counts without it){where}"
        )
    if not outcome.classes:
        return f"symmetry-broken search under a group of order {order}{where}"
    route = "" if search is None else _by(lambda: search.route)
    return f"classes under a group of order {order}{route}{where}"


def _by(route: Callable[[], str]) -> str:
    """``, by ROUTE`` for the note, or nothing when the deadline passed before the route
    was settled (telling it takes group work, which stops at the deadline)."""
    try:
        return f", by {route()}"
    except LimitReached:
        return ""
