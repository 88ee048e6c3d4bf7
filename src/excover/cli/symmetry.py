"""Running the command line's symmetry flags, ``--up-to-symmetry`` and ``--break-symmetry``
(declared with the other flags in :mod:`excover.cli.commands`).

``excover count FILE --up-to-symmetry`` counts the classes of solutions under the
problem's automorphism group and ``excover solve FILE --up-to-symmetry`` prints one
solution per class; ``--break-symmetry`` counts (or lists) every solution through the
symmetry-broken search. Both find the group first and say its order on stderr, within
``--timeout``.

A count of every solution breaks by default the group its problem declares (a BurrTools
puzzle's, the queens'), known without a search (:func:`by_default`, the default of the
API's ``count``), once a plain search has not finished it within a few hundredths of a
second; ``--no-break-symmetry`` counts without. The automorphisms of a problem that
declares none (a ``.dlx`` file) are found only when ``--break-symmetry`` asks.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from excover.cli import common
from excover.errors import LimitReached, UsageError
from excover.names import METHOD_TRAITS
from excover.numbers import to_decimal

if TYPE_CHECKING:
    from excover.cli.outcome import Outcome
    from excover.problem import Problem, SearchOptions
    from excover.solving import ExactCover
    from excover.symmetry import BrokenSearch, Group
    from excover.symmetry.widened import WidenedClasses

__all__ = ["by_default", "check", "count", "solutions"]

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


def by_default(problem: ExactCover, args: argparse.Namespace) -> bool:
    """Whether this count breaks the group ``problem`` declares by default: a count of
    every solution by a method that searches, none of the flags of a plain search given,
    and not finished by a plain search within
    :data:`~excover.solving.registry.SCOUT_NODES` nodes (a count so short is then done
    again the plain way, in as little time)."""
    from excover.solving import registry

    if args.up_to_symmetry or problem.declared_symmetries() is None:
        return False
    if any(common.given(args, dest) for dest in _PLAIN):
        return False
    if not registry.breaks_by_default(args.method, {}):
        return False
    try:
        return registry.scout(problem, _options(args)) is None
    except LimitReached:  # --timeout: the plain count says so
        return False


def check(args: argparse.Namespace, counting: bool = False) -> None:
    """Refuse the flags that do not go with the symmetry flags (``--workers`` goes with
    a count: its exact cover problems are counted on that many processes)."""
    if args.up_to_symmetry and getattr(args, "break_symmetry", False):
        raise UsageError("--up-to-symmetry and --break-symmetry are two different questions")
    if not counting:
        common.refuse(args, "workers", "counts on several processes: a listing is one search")
    for dest in ("tasks", "checkpoint", "dask", "heuristic", "seed", "solver", "amo", "max_memory"):
        common.refuse(args, dest, "does not go with --up-to-symmetry or --break-symmetry")
    if getattr(args, "workers", None) is not None:
        common.refuse(args, "max_nodes", "bounds one search: it does not go with --workers")
    if not METHOD_TRAITS[args.method].searches:
        raise UsageError(
            f"--method {args.method} does not go with --up-to-symmetry or --break-symmetry: "
            "the symmetric search is a search (dancing links or the bit-parallel engine)"
        )


def _options(args: argparse.Namespace) -> SearchOptions:
    options: SearchOptions = {}
    left = common.time_left(args)
    if left is not None:
        options["timeout"] = left
    if getattr(args, "max_nodes", None) is not None:
        options["max_nodes"] = args.max_nodes
    return options


def _group(problem: ExactCover, args: argparse.Namespace) -> Group:
    """The group the symmetry flags ask for, found within ``--timeout`` (past it,
    :class:`~excover.cli.common.TimeUp` or :class:`~excover.LimitReached`): the
    declared group a count breaks by default, else the problem's group
    (:meth:`~excover.ExactCover.symmetries`), said on stderr."""
    from excover.solving import registry

    started = time.perf_counter()
    with common.deadline(common.time_left(args)):
        if _default(args):
            group = registry.total_group(problem, args.method, {})
            if group is not None:  # said by the method's line (_engine)
                return group
        group = problem.symmetries().bounded(common.stop_time(args))
        orders = f"{to_decimal(group.order)} ({to_decimal(group.option_order)} on the options)"
    seconds = time.perf_counter() - started
    say = f"excover: symmetries: a group of order {orders}, found in {seconds:.2f} s"
    print(say, file=sys.stderr)
    return group


def _classes(
    problem: ExactCover, group: Group, args: argparse.Namespace, workers: int | None
) -> BrokenSearch | WidenedClasses:
    """The search of ``--up-to-symmetry`` under ``group``: when it is the group the
    problem declares (as :func:`_group` gives it) and the problem declares a widening of
    it, the classes under both (:mod:`excover.symmetry.widened`)."""
    from excover.solving.registry import symmetries
    from excover.symmetry import BrokenSearch
    from excover.symmetry.widened import WidenedClasses

    widening = problem.declared_widening()
    if widening is None or problem.declared_symmetries() is None:
        return BrokenSearch(problem, group, "search", workers=workers, **_options(args))

    def search(part: Problem, under: Group | None) -> BrokenSearch:
        chosen = group if part is problem else under if under is not None else symmetries(part)
        return BrokenSearch(part, chosen, "search", workers=workers, **_options(args))

    return WidenedClasses(problem, widening, search)


def _note(args: argparse.Namespace, group: Group) -> str:
    """What symmetry the count used, for ``--json``'s statistics."""
    which = "declared" if _default(args) else "automorphism"
    return f"{which} group of order {to_decimal(group.order)}"


def _default(args: argparse.Namespace) -> bool:
    """Whether the count breaks the declared group by default (no symmetry flag given)."""
    return args.break_symmetry is None and not args.up_to_symmetry


def _engine(
    args: argparse.Namespace,
    search: BrokenSearch | WidenedClasses | None,
    order: int,
    counting: bool = False,
) -> str:
    """How the search ran, for the stderr note (the engine is auto's choice for each of
    the searches the symmetric run makes); a count names the route that counted (see
    :mod:`excover.symmetry.broken`: :attr:`~excover.symmetry.BrokenSearch.count_route`
    for every solution, :attr:`~excover.symmetry.BrokenSearch.route` for classes), once
    the search is set up; a count on ``--workers`` says so."""
    from excover.symmetry import BrokenSearch

    workers = getattr(args, "workers", None)
    where = f", counted on {workers} processes" if workers and workers > 1 else ""
    if counting and isinstance(search, BrokenSearch) and not args.up_to_symmetry:
        where += _by(lambda: search.count_route)
    if _default(args):
        return (
            f"symmetry: declared group of order {to_decimal(order)}, broken by default "
            f"(--no-break-symmetry counts without it){where}"
        )
    if not args.up_to_symmetry:
        return f"symmetry-broken search under a group of order {to_decimal(order)}{where}"
    route = "" if search is None else _by(lambda: search.route)
    return f"classes under a group of order {to_decimal(order)}{route}{where}"


def _by(route: Callable[[], str]) -> str:
    """``, by ROUTE`` for the note, or nothing when the deadline passed before the route
    was settled (telling it takes group work, which stops at the deadline)."""
    try:
        return f", by {route()}"
    except LimitReached:
        return ""


def count(problem: ExactCover, args: argparse.Namespace) -> Outcome:
    """The count asked for by the symmetry flags."""
    from excover.cli.outcome import Outcome
    from excover.symmetry import BrokenSearch

    common.refuse(args, "limit", "does not go with --up-to-symmetry or --break-symmetry")
    check(args, counting=True)
    try:
        group = _group(problem, args)
    except (LimitReached, common.TimeUp):
        return Outcome("search", "finding the symmetries", None, "timeout")
    except KeyboardInterrupt:
        return Outcome("search", "finding the symmetries", None, "interrupt")
    search: BrokenSearch | None = None
    classes: BrokenSearch | WidenedClasses | None = None
    workers = getattr(args, "workers", None)
    started = time.perf_counter()
    stopped_by = None
    try:
        # the counts on --workers have no deadline of their own: the alarm stops them
        with common.deadline(common.time_left(args) if workers else None):
            if args.up_to_symmetry:
                classes = _classes(problem, group, args, workers)
                number = classes.count_orbits()
            else:
                search = BrokenSearch(problem, group, "search", workers=workers, **_options(args))
                number = search.count()
    except LimitReached as stop:
        stopped_by = stop.reason
    except common.TimeUp:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    engine = _engine(args, classes or search, group.option_order, counting=True)
    if stopped_by is not None:
        if args.up_to_symmetry or search is None:  # classes are no sum of solutions found
            return Outcome("search", engine, None, stopped_by)
        number = search.counted  # a lower bound: each solution found stands for distinct ones
    stats = {"solutions": number, "group_order": group.order, "symmetry": _note(args, group)}
    if search is not None and not workers and not args.up_to_symmetry:
        # every search of a symmetry-broken count ran here and added its nodes (a count
        # of classes may go by Burnside's lemma through counts that keep none)
        stats["nodes"] = search.nodes
    stats.update(seconds=time.perf_counter() - started, workers=workers or 1)
    return Outcome("search", engine, number, stopped_by, stats)


def solutions(
    problem: ExactCover, args: argparse.Namespace, emit: Callable[[list[int]], None]
) -> Outcome:
    """The solutions asked for by the symmetry flags, each given to ``emit``."""
    from excover.cli.outcome import Outcome
    from excover.symmetry import BrokenSearch

    check(args)
    try:
        group = _group(problem, args)
    except (LimitReached, common.TimeUp):
        return Outcome("search", "finding the symmetries", 0, "timeout", {"solutions": 0})
    except KeyboardInterrupt:
        return Outcome("search", "finding the symmetries", 0, "interrupt", {"solutions": 0})
    search: BrokenSearch | WidenedClasses | None = None
    found = 0
    stopped_by = None
    try:
        if args.up_to_symmetry:
            search = _classes(problem, group, args, None)
            listed = search.representatives()
        else:
            search = BrokenSearch(problem, group, "search", **_options(args))
            listed = search.solutions()
        for solution in itertools.islice(listed, args.limit):
            found += 1
            emit(solution)
    except LimitReached as stop:
        stopped_by = stop.reason
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if stopped_by is None and args.limit is not None and found >= args.limit:
        stopped_by = "limit"
    engine = _engine(args, search, group.option_order)
    return Outcome("search", engine, found, stopped_by, {"solutions": found})
