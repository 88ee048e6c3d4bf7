"""The operations around one method, and the runs the front ends ask for.

:class:`~excover.ExactCover`'s solving methods go through the operations their
arguments ask for, outermost first: preprocessing (``preprocess=True``),
a symmetry-broken search (``symmetry``, ``up_to_symmetry``: :func:`broken`, over the
group :func:`symmetries` gives), a parallel run (``workers``, ``executor``, ``tasks``);
what is left is one method in one process, which its runner runs
(:mod:`excover.counting.methods`). The front ends ask the orchestrator
(:mod:`excover.solving.orchestrate`), which builds on the operations here.
This module sits above every engine and operation and imports each only when a call asks
for it, so that ``import excover`` stays cheap.
"""

from __future__ import annotations

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.problem import Problem, SearchOptions
    from excover.symmetry import BrokenSearch, Group
    from excover.symmetry.widened import WidenedClasses

__all__ = [
    "SCOUT_NODES",
    "breaks_by_default",
    "breaks_by_search",
    "broken",
    "check_no_symmetry",
    "check_symmetric",
    "classes",
    "declares_group",
    "group_of",
    "options_left",
    "scout",
    "symmetries",
    "total_group",
]


def symmetries(problem: Problem) -> Group:
    """The work of :meth:`ExactCover.symmetries`: the declared group, else the
    automorphism group."""
    declared = problem.declared_symmetries()
    if declared is not None:
        from excover.symmetry import Group

        return Group(problem, declared)
    from excover.symmetry.automorphisms import automorphism_group

    return automorphism_group(problem)


def check_symmetric(
    method: str,
    solver: str | None,
    amo: str | None,
    executor: object | None,
    tasks: int | None,
    options: SearchOptions,
) -> None:
    """Refuse what a symmetry-broken search cannot run: a SAT solver, an executor or
    tasks, ``max_solutions``, the search options of a method that takes none."""
    from excover.counting import methods
    from excover.names import METHOD_TRAITS

    methods.check_not_sat(method, solver, amo)
    if METHOD_TRAITS[method].solver:
        raise UsageError(f"counting with symmetry runs dancing links; method {method!r} cannot")
    if executor is not None or tasks is not None:
        raise UsageError(
            "symmetry goes with workers=, not with executor= or tasks= (cannot be combined yet)"
        )
    if options.get("max_solutions") is not None:
        raise UsageError("max_solutions does not combine with symmetry; use limit")
    methods.check_search_options(method, options)


def group_of(problem: Problem, symmetry: object) -> Group | None:
    """The group ``symmetry`` names for ``problem``: a :class:`~excover.symmetry.Group`
    of it (checked), or one made of generators; None for ``True`` (or None), whose group
    is found by a search (:func:`symmetries`)."""
    from collections.abc import Iterable

    from excover.symmetry import Group

    if symmetry is None or symmetry is True:
        return None
    if isinstance(symmetry, Group):
        if symmetry.problem is not problem and symmetry.problem != problem:
            raise UsageError("the group given is the group of another problem")
        return symmetry
    if isinstance(symmetry, str | bytes) or not isinstance(symmetry, Iterable):
        raise UsageError(
            f"symmetry must be True, a Group or a list of generators, not {type(symmetry).__name__}"
        )
    return Group(problem, symmetry)


def broken(
    problem: Problem, group: Group, method: str, workers: int | None, options: SearchOptions
) -> BrokenSearch:
    """The symmetry-broken search of ``problem`` under ``group`` (see
    :mod:`excover.symmetry.broken`), by ``method`` with the search ``options``."""
    from excover.symmetry import BrokenSearch

    return BrokenSearch(problem, group, method, workers=workers, **options)


def classes(
    problem: Problem,
    group: Group,
    method: str,
    workers: int | None,
    options: SearchOptions,
    declared: bool,
) -> BrokenSearch | WidenedClasses:
    """The search of the classes of solutions under ``group``: :func:`broken`'s, or,
    when the group is the one the problem declares (``declared``) and the problem
    declares a widening of it too (:meth:`~excover.problem.Problem.declared_widening`),
    the classes under both (:class:`~excover.symmetry.widened.WidenedClasses`: three
    searches, the time limit covering them all)."""
    widening = problem.declared_widening()
    if widening is None or not declared:
        return broken(problem, group, method, workers, options)
    import time

    from excover.symmetry.widened import WidenedClasses

    started = time.monotonic()

    def search(part: Problem, under: Group | None) -> BrokenSearch:
        chosen = group if part is problem else under if under is not None else symmetries(part)
        return broken(part, chosen, method, workers, options_left(options, started))

    return WidenedClasses(problem, widening, search)


#: Search nodes a plain search of a count that could break a known group walks first: a
#: count it finishes is done (on so small a problem the group would cost more than it
#: saves), a longer one breaks the group (:func:`scout`). A bound in nodes, not
#: seconds, makes the choice the same on any machine and under any load.
SCOUT_NODES = 20_000


def breaks_by_default(method: str, options: SearchOptions) -> bool:
    """Whether a count of every solution by ``method`` with these search options may
    break a known group by default: a method that searches, and no ``max_nodes`` or
    ``max_solutions``, whose bound means the search as it is."""
    from excover.names import METHOD_TRAITS

    traits = METHOD_TRAITS.get(method)
    if traits is None or not traits.searches or traits.solver:
        return False
    return options.get("max_nodes") is None and options.get("max_solutions") is None


def scout(problem: Problem, options: SearchOptions) -> int | None:
    """The number of solutions of ``problem`` when a plain search (of the options'
    engine and heuristic) finds them all within :data:`SCOUT_NODES` nodes, else None: a
    count so short breaks no group. Past the options' ``timeout``,
    :class:`~excover.LimitReached`."""
    from excover.engines import wall_clock_search
    from excover.errors import LimitReached

    scouting: SearchOptions = {**options}
    scouting["max_nodes"] = SCOUT_NODES
    search = wall_clock_search(problem, **scouting)
    try:
        return search.count()
    except LimitReached as stop:
        if stop.reason != "max_nodes":
            raise
        return None


def declares_group(problem: Problem, method: str, options: SearchOptions) -> bool:
    """Whether a count of every solution of ``problem`` may break a group by default:
    one it declares, known without a search, and :func:`breaks_by_default`."""
    return problem.declared_symmetries() is not None and breaks_by_default(method, options)


def breaks_by_search(method: str) -> bool:
    """Whether a default count of a tiling by ``method`` may become a symmetry-broken
    search of the whole problem: only a method that is one search anyway. On tilings
    ``"auto"`` races routes whose counts (the ZDD, the frontier count) can be
    exponentially faster than any search (a .cmb count of 20,000 digits never ended as
    a broken search), so it takes only the pinned problem, which it counts by any route."""
    from excover.names import METHOD_TRAITS

    traits = METHOD_TRAITS.get(method)
    return traits is not None and traits.one_search


def total_group(problem: Problem, method: str, options: SearchOptions) -> Group | None:
    """The group a count of every solution breaks by default: the group ``problem``
    declares (:meth:`~excover.ExactCover.declare_symmetries`: known without a search),
    when it moves the options and :func:`breaks_by_default`; None otherwise. Finding
    the automorphisms of a problem that declares none is left to ``symmetry=True``: on
    counts of a few seconds it costs more than it saves."""
    if not declares_group(problem, method, options):
        return None
    from excover.symmetry import Group

    group = Group(problem, problem.declared_symmetries() or [])
    return group if group.moves_options() else None


def options_left(options: SearchOptions, started: float) -> SearchOptions:
    """``options`` with their ``timeout`` counted from ``started`` (a ``time.monotonic()``
    instant) instead of now, for a run that did some work first (finding a group); once
    it has passed, :class:`~excover.LimitReached`."""
    from excover.deadlines import left

    timeout = options.get("timeout")
    return options if timeout is None else {**options, "timeout": left(timeout, started)}


def check_no_symmetry(up_to_symmetry: bool, symmetry: object) -> None:
    """Refuse ``preprocess`` with a symmetry: the group is the original problem's, and
    the reduced problem may have other symmetries."""
    if up_to_symmetry or (symmetry is not None and symmetry is not False):
        raise UsageError(
            "preprocess does not combine with symmetry or up_to_symmetry: the group acts "
            "on the original problem, which preprocessing changes"
        )
