"""The runs of ``excover count``, ``solve``, ``dimacs``, ``estimate`` and ``schema``
(their parsers: :mod:`excover.cli.exact_cover.parsers`).

Each reads its Namespace once, as it starts: into a
:class:`~excover.cli.exact_cover.request.CoverRequest` (``count``, ``solve``) or the
run's :class:`~excover.cli.options.RunOptions` (``estimate``), and its FILE through
:mod:`excover.cli.exact_cover.problem_input`. ``count`` and ``solve`` count or list the
solutions by any method (:mod:`excover.cli.exact_cover.solving`; with symmetry,
:mod:`excover.cli.exact_cover.symmetry`; by subproblems,
:mod:`excover.cli.exact_cover.parallel`), and :func:`count_problem` counts a problem
that another command built (a puzzle's ``--count``, a sequence's term) as ``count``
does, from the request that command made; ``dimacs`` writes the SAT encoding;
``estimate`` estimates a search before it runs; ``schema`` prints the JSON Schema of
every ``--json`` document. The end of a run is printed by :mod:`excover.cli.report`.
"""

from __future__ import annotations

import sys

from excover.cli import common
from excover.cli.exact_cover.problem_input import load_problem
from excover.cli.exact_cover.request import CoverRequest
from excover.cli.options import RunOptions
from excover.cli.report import exact_stats, finish, print_outcome
from excover.errors import UsageError
from excover.names import METHOD_TRAITS

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse

    from excover.cli.exact_cover.problem_input import Totals
    from excover.parallel.probes import Estimate
    from excover.solving import ExactCover

__all__ = [
    "count_problem",
    "run_count",
    "run_dimacs",
    "run_estimate",
    "run_schema",
    "run_solve",
]


def run_count(args: argparse.Namespace) -> int:
    """``excover count``."""
    from excover.cli.exact_cover.problem_input import ProblemSource

    request = CoverRequest.read(args)
    source = ProblemSource(args)
    problem, _ = load_problem(args, source)
    return count_problem(problem, request, source.totals)


def count_problem(problem: ExactCover, request: CoverRequest, totals: Totals | None = None) -> int:
    """Count ``problem`` as ``excover count`` does (the symmetry flags, ``--workers`` and
    the other flags of a count by subproblems, or a plain count by any method, each
    through the orchestrator), print the count for ``request.command`` and give the exit
    status. A puzzle's ``--count`` and a sequence's term come here with the request
    their command made. ``totals`` (a board's: :meth:`excover.tiling.Tiling.total`) is
    how a count of every solution uses a symmetry known without a search, broken by
    default as the group a problem declares is."""
    from excover.cli.exact_cover import solving

    if request.symmetric:
        from excover.cli.exact_cover import symmetry as symmetric

        common.refuse(request, "preprocess", _PREPROCESS_WITH_SYMMETRY)
        return print_outcome(symmetric.count(problem, request), request)
    symmetry = None if _may_break(problem, request, totals) else False
    if symmetry is not None:
        totals = None
    if request.uses_tasks:
        common.refuse(request, "limit", "does not go with --workers, --tasks or --checkpoint")
        common.refuse(request, "max_memory", "does not go with --workers, --tasks or --checkpoint")
        solving.check_method_flags(request, counting=True)
        # the long counts' machinery, and json
        from excover.cli.exact_cover.parallel import count_tasks

        return count_tasks(problem, request, symmetry, totals)
    outcome = solving.count(problem, request, symmetry, totals)
    if symmetry is None:  # it may have broken the declared group: said so
        from excover.cli.exact_cover.symmetry import worded

        outcome = worded(outcome, request, counting=True)
    return print_outcome(outcome, request)


def _may_break(problem: ExactCover, request: CoverRequest, totals: Totals | None) -> bool:
    """Whether a count may break the group ``problem`` declares (or the board's, by
    ``totals``) by default (see :func:`excover.cli.exact_cover.symmetry.may_break`); the
    orchestrator's scout settles it. A problem that declares no group and has no
    ``totals`` has none to break (and the symmetry module is left unimported)."""
    if request.break_symmetry is not None:
        return False
    if totals is None and problem.declared_symmetries() is None:
        return False
    from excover.cli.exact_cover import symmetry as symmetric

    return symmetric.may_break(problem, request, totals is not None)


#: Why ``--preprocess`` is refused with the symmetry flags.
_PREPROCESS_WITH_SYMMETRY = (
    "does not go with --up-to-symmetry or --break-symmetry: their group is the problem's "
    "as given, which preprocessing changes"
)


def run_solve(args: argparse.Namespace) -> int:
    """``excover solve``: each solution printed as soon as it is found."""
    from excover.cli.exact_cover import solving
    from excover.cli.exact_cover.problem_input import ProblemSource

    request = CoverRequest.read(args)
    source = ProblemSource(args)
    problem, draw = load_problem(args, source)
    svg: str | None = args.svg  # the first solution's picture
    if svg is not None and draw is None:
        raise UsageError(_nothing_to_draw(args.file))
    stl: str | None = args.stl  # the first solution's assembly, to print
    apart = _gap(args.gap, stl)
    if stl is not None and source.mesh is None:
        raise UsageError(
            f"--stl: {args.file} is not a board with --pieces: only a tiling's solution is "
            "written as STL"
        )
    out = sys.stdout
    stream = common.JsonStream(out, "solve") if request.json else None
    found = 0

    def emit(solution: list[int]) -> None:
        nonlocal found
        found += 1
        if found == 1 and svg is not None and draw is not None:
            common.write_file(svg, draw(solution, True))
            if not request.quiet:
                print(f"excover: solution 1 drawn in {svg}", file=sys.stderr)
        if found == 1 and stl is not None and source.mesh is not None:
            data, apart_used = source.mesh(solution, apart)
            common.write_file(stl, data)
            if not request.quiet:
                spacing = f", {apart_used:g} mm apart" if apart_used else ""
                print(
                    f"excover: solution 1 written in {stl} (one closed body a piece{spacing})",
                    file=sys.stderr,
                )
        if stream is not None:
            items = [problem.option_items(option) for option in solution]
            stream.add({"options": solution, "items": items})
            return
        gap = "\n" if found > 1 else ""
        text = problem.format_solution(solution) if draw is None else draw(solution, False)
        out.write(f"{gap}solution {found}:\n{text}\n")
        out.flush()  # the next solution may be a long search away

    if request.symmetric:
        from excover.cli.exact_cover import symmetry as symmetric

        common.refuse(request, "preprocess", _PREPROCESS_WITH_SYMMETRY)
        outcome = symmetric.solutions(problem, request, emit)
    else:  # --preprocess: the orchestrator maps the reduced problem's solutions back
        outcome = solving.solutions(problem, request, emit)
    if stream is not None:
        stream.close(
            outcome.method,
            outcome.engine,
            outcome.stopped_by,
            count=outcome.count,
            stats=exact_stats(outcome.stats),
        )
    elif found == 0 and outcome.stopped_by is None:
        print("excover: no solution", file=sys.stderr)
    return finish(outcome, request)


def _nothing_to_draw(path: str) -> str:
    """Why ``solve --svg`` has no picture of a problem that is not a board."""
    return (
        f"--svg: {path} is an exact cover problem: its solutions are sets of options, with "
        "no picture; --svg draws the first tiling of a board given with --pieces ('excover "
        "solve BOARD --pieces PIECES --svg OUT') or the first assembly of a BurrTools "
        ".xmpuzzle file, and a .cmb program draws its tilings with 'solve dlx NAME svg \"OUT\"'"
    )


def _gap(gap: float | None, stl: str | None) -> float | None:
    """``--gap MM``, checked before the search: with ``--stl``, from 0 to under a quarter
    of the 10 mm cells (a triangle keeps a body); None when not given (the board's grid
    then takes its default: :func:`excover.tiling.mesh.default_gap`)."""
    import math

    if gap is None:
        return None
    if stl is None:
        raise UsageError("--gap goes with --stl (the gap between the printed pieces)")
    if not (math.isfinite(gap) and 0 <= gap < 2.5):
        raise UsageError(f"--gap must be at least 0 and under 2.5 (mm, cells of 10), not {gap:g}")
    return gap


def run_dimacs(args: argparse.Namespace) -> int:
    """``excover dimacs``."""
    cnf = load_problem(args)[0].to_cnf(args.amo)
    text = cnf.to_knuth() if args.format == "knuth" else cnf.to_dimacs()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            cnf.write(args.output, text)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return common.EXIT_OK


def run_estimate(args: argparse.Namespace) -> int:
    """``excover estimate``."""
    import math
    import time

    from excover.cli.outcome import ENGINE_NAMES, UPDATES
    from excover.engines import pick_engine

    run = RunOptions.read(args)
    if not METHOD_TRAITS[args.method].searches:
        raise UsageError(
            f"--method {args.method} does not go with estimate: it estimates a dancing-links "
            "search (zdd and sat have no search tree to probe)"
        )
    problem = load_problem(args)[0]
    spent: float | None = None  # the probes' seconds, when asked for with --samples
    try:
        with common.deadline(run.time_left()):
            if args.samples is None:  # the default: a count where it costs less
                guess, counted = _estimate(problem, args.default_samples, args.seed, run)
            else:  # the probes asked for
                began = time.perf_counter()
                guess, counted = problem.estimate(args.samples, seed=args.seed), None
                spent = time.perf_counter() - began
    except common.TimeUp:
        print("excover: stopped by --timeout before the estimate was done", file=sys.stderr)
        return common.EXIT_LIMIT
    engine = pick_engine(problem)  # the engine of the exact search, and of the time
    how = "exact search" if guess.exact else f"{guess.samples} stratified probes"
    if counted is not None:
        how = "exact search (a count cheaper than the probes)"
    if run.json:
        import json

        result = common.document("estimate", "search", how, None, estimate=guess.as_dict())
        print(json.dumps(result, allow_nan=False))
        return common.EXIT_OK
    lines = []
    for name in ("solutions", "nodes"):
        value = getattr(guess, name)
        low, high = guess.interval(name)
        if guess.exact:
            how_sure = ""
        elif high == math.inf:
            how_sure = (
                "  (estimate, no range: the random samples all agreed, so their spread "
                "says nothing of the error)"
            )
        else:
            how_sure = f"  (estimate, range {low:,.0f} .. {high:,.0f})"
        lines.append(f"{name}: {value:,.0f}{how_sure}")
    if guess.exact:
        updates = f"exact: {UPDATES[engine].split(' (')[0]}"  # no advice on --engine here
    else:
        updates = (
            "estimate of the probes' cost model: items covered plus the nodes of the options "
            "taken out of play; not DLX1's link updates"
        )
    lines.append(f"updates: {guess.updates:,.0f}  ({updates})")
    if guess.seconds is not None:
        what = "measured" if guess.exact else "estimate"
        lines.append(f"time of a count by {ENGINE_NAMES[engine]}: {guess.seconds:.3g} s ({what})")
    if counted is not None:
        lines.append(f"exact: {counted}")
    elif guess.exact:
        lines.append("exact: the tree was small enough to search to its end")
    else:
        cut = "" if guess.cutoff is None else f", subtrees below depth {guess.cutoff} counted"
        lines.append(
            f"estimates from {guess.samples} random samples of the tree of the "
            f"{ENGINE_NAMES[engine]} (seed {args.seed}{cut})"
        )
    print("\n".join(lines))
    sys.stdout.flush()
    common.say_method(run, "search", f"{how}, timed by {ENGINE_NAMES[engine]}")
    note = None if spent is None or run.quiet else _costly_probes(guess, spent)
    if note is not None:
        print(f"excover: {note}", file=sys.stderr)
    return common.EXIT_OK


#: ``excover estimate --samples N`` notes that its probes cost about as much as the
#: count they estimate when they take at least this share of its estimated time.
COSTLY_SHARE = 0.5


def _costly_probes(guess: Estimate, spent: float) -> str | None:
    """Why an estimate by probes took about as long as a count, or longer (``spent``
    seconds against the ``guess.seconds`` it gives a count, :data:`COSTLY_SHARE` of them
    or more); None when it did not (or is exact). Each probe counts in full the subtrees
    it reaches at the cutoff: on a tree of a few million nodes those counts alone walk
    about as many nodes as the whole search (BurrTools' SolidSixPieceBurrs: 1000 probes
    count 2.2 million nodes of subtrees, the tree has 1.86 million), so no cut in the
    probes' own overhead brings them under the count."""
    if guess.exact or not guess.seconds or spent < COSTLY_SHARE * guess.seconds:
        return None
    return (
        f"note: the {guess.samples} probes took {spent:.2g} s, {spent / guess.seconds:.2g} "
        f"times the {guess.seconds:.2g} s they give a count: each counts in full the "
        f"subtrees it reaches, which on a tree of about {guess.nodes:,.0f} nodes costs "
        "as much as the search itself or more ('excover count' gives the exact figures; "
        "without --samples, estimate counts instead where that is cheaper)"
    )


#: The probes of ``excover estimate``'s first, smaller estimate, which prices the whole
#: estimate against the count it estimates (:func:`_estimate`).
FIRST_SAMPLES = 100


def _estimate(
    problem: ExactCover, samples: int, seed: int, run: RunOptions
) -> tuple[Estimate, str | None]:
    """The estimate of ``problem``'s search by ``samples`` probes, or its exact figures
    when counting is cheaper, and then why (else None).

    The probes cost time of their own (each counts in full the subtrees it reaches at
    the cutoff): on a tree of a few million nodes they cost more than the count they
    estimate (BurrTools' SolidSixPieceBurrs: 1000 probes take 2.9 s of CPU, the plain
    count 0.9 s). So a first estimate by :data:`FIRST_SAMPLES` probes prices both: the
    count by its estimated time, the whole estimate by :func:`_probes_cost`; when the
    count is no dearer, the tree is counted instead (bounded by twice the nodes the
    first estimate gives it at most, past which the probes run after all) and the
    figures are exact. The same ``seed`` gives the same estimate as before: the first
    estimate is the whole one when ``samples`` is no more."""
    import math
    import time

    first = min(samples, FIRST_SAMPLES)
    started = time.perf_counter()
    guess = problem.estimate(first, seed=seed)
    spent = time.perf_counter() - started
    if guess.exact or samples <= first or guess.seconds is None:
        return guess, None
    probes = _probes_cost(spent, first, samples)
    nodes = guess.interval("nodes")[1]
    if guess.seconds > probes or not math.isfinite(nodes):
        return problem.estimate(samples, seed=seed), None
    from excover.cli.exact_cover.solving import count_plain
    from excover.errors import LimitReached
    from excover.parallel.probes import Estimate

    started = time.perf_counter()
    outcome = count_plain(problem, max(2 * int(nodes), 1), run.deadline)
    seconds = time.perf_counter() - started
    if isinstance(outcome.error, LimitReached) and outcome.error.reason == "max_nodes":
        return problem.estimate(samples, seed=seed), None  # a tree larger than it looked
    if outcome.error is not None:
        raise outcome.error
    assert outcome.count is not None
    stats = outcome.stats
    exact = Estimate(
        stats.get("nodes", 0), outcome.count, stats.get("updates", 0), 0.0, seconds, 0, exact=True
    )
    why = (
        f"the tree was counted instead of probed: {first} probes ({spent:.2g} s) gave "
        f"its count {guess.seconds:.2g} s, {samples} probes about {probes:.2g} s"
    )
    return exact, why


#: The share of a first estimate's time that grows with its probes: the rest (the
#: exact search of the first nodes, the shape probes, the top of the tree) is paid once
#: (measured at 100 and 1000 probes on SolidSixPieceBurrs, the 8x8 board with the
#: pentominoes and the square, and the 6x10 one: 17-21%).
PROBES_SHARE = 0.2


def _probes_cost(spent: float, first: int, samples: int) -> float:
    """The time of an estimate by ``samples`` probes, from ``spent`` seconds of one by
    ``first`` (:data:`PROBES_SHARE`)."""
    return spent * (1 + PROBES_SHARE * (samples - first) / first)


def run_schema(args: argparse.Namespace) -> int:
    """``excover schema``."""
    import json

    print(json.dumps(common.schema(), indent=2))
    return common.EXIT_OK
