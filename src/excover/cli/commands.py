"""``excover count``, ``solve``, ``estimate``, ``dimacs`` and ``schema``: problems in Knuth's
DLX format.

``count`` and ``solve`` read a problem (``-``: standard input) and count or list its
solutions by any method (:mod:`excover.cli.solving`); ``dimacs`` writes its SAT encoding;
``estimate`` estimates a search before it runs; ``schema`` prints the JSON Schema of
every ``--json`` document. Their FILE is read by :mod:`excover.cli.problem_input`, and
the end of a run printed by :mod:`excover.cli.report`.
"""

from __future__ import annotations

import argparse
import sys

from excover.cli import common
from excover.cli.common import add_command, add_input, add_json, add_limits, add_method
from excover.cli.problem_input import load_problem
from excover.cli.report import exact_stats, finish, print_outcome
from excover.errors import UsageError
from excover.names import HEURISTICS, METHOD_TRAITS, ROUTES

#: The at-most-one encodings of :data:`excover.sat.amo.AMO_ENCODINGS` (named here so that
#: building the parser imports no SAT code; a test keeps the two equal).
AMO_NAMES = ("auto", "pairwise", "seqcounter", "product", "commander", "bitwise")
#: The default probes of :func:`excover.parallel.probes.estimate` (a test keeps them equal).
ESTIMATE_SAMPLES = 1000

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from excover.cli.problem_input import BoardReader, Drawing
    from excover.solving import ExactCover

__all__ = ["add_problem_commands", "as_count", "count_problem", "write_dlx"]

_FORMAT = """\
The problem is in Knuth's DLX1/DLX2/DLX3 text format: lines starting with '|' are
comments; the first other line names the items (primary items, then '|', then secondary
items); every following line is one option, a list of items ('item:color' on secondary
items). A FILE whose name ends in .xmpuzzle is a BurrTools puzzle (cube grid): its
problem (--problem N) is read as an exact cover problem, and --up-to-symmetry counts
assemblies as BurrTools does (see docs/files.md)."""

_BOARD = """\
With --pieces PIECES, FILE is a board to tile instead: '#' cells, '.' or space holes;
PIECES holds one piece a line, a list of [row, col] cells (rows downward), optionally
named ('L: [[0,0],[1,0],[2,0],[2,1]]'). Pieces turn and flip (--no-reflections: turn
only), each is used once (--multiplicity maybe|any), identical ones are interchangeable;
solve then draws each tiling, one letter a piece."""

_COUNT = f"""\
Count the solutions of an exact cover problem and print the count on stdout (exact, no
overflow); stderr names the method and engine that ran.

{_FORMAT}

{_BOARD}

--method auto (the default, as p.count() in the API) takes the frontier count where it
applies, else races the search engine and DXZ in growing steps, and names on stderr the
route that finished and why (--route NAME forces one route); search: one compiled
search (dancing links, bits or cells: --engine); zdd: the frontier count or the DXZ
family, as p.count(method="zdd"); sat: a SAT encoding (CaDiCaL, raced by ganak on long counts when
pyganak is installed)."""

_SOLVE = f"""\
Find solutions of an exact cover problem and print each one on stdout as soon as it is
found: a header line 'solution K:' then its options, one per line, as item names.

{_FORMAT}

{_BOARD}

--method auto means search (as p.solutions() in the API); zdd lists the solutions as the DXZ
search (memoised dancing links) meets them, without building the whole family first (its
memory bounded by --max-memory); sat finds each new solution after blocking the ones
before. With
--json the solutions stream inside one document, each as {{"options": [indices from 0],
"items": [[names], ...]}}."""

_DIMACS = f"""\
Write an exact cover problem as a SAT formula in DIMACS CNF, for any SAT solver.

Variable k is option k-1 of the problem (options numbered from 0 in file order); further
variables are auxiliary. Comment lines at the top repeat the problem ('c excover option k
...' lists the items of variable k) and give the projection set ('c p show ... 0'), so a
model printed by any solver decodes into a solution, and a projected model counter
(ganak, d4) counts the solutions.

--format knuth writes Knuth's SAT format instead (the input of his SAT13 and other SAT
solvers): one clause a line, literals as names of at most 8 characters, '~' negating.
Option variable k is named after its option's first item and k ('L.3': variable 3, whose
option starts with item 'L'); auxiliary variable k is '_k'; '_0' is the constant false
(an empty clause is the line '_0'). The same header, in '~ excover' comment lines, lets
CNF.read_knuth() in Python bring the problem back and decode SAT13's answer.

{_BOARD}"""


def _dlx_flags(parser: argparse.ArgumentParser) -> None:
    """The dancing-links and SAT options of ``count`` and ``solve``."""
    parser.add_argument(
        "--heuristic",
        choices=HEURISTICS,
        help="dancing links' item choice: mrv = fewest remaining options, ties to the "
        "leftmost (Knuth's DLX1, the default); leftmost = first uncovered primary item; "
        "random = mrv with ties broken at random; forced = mrv, and every item left with "
        "one option covered by it at once, in one node (bit-parallel engine; fewer nodes, "
        "faster where most moves are forced, as in Latin squares); weighted = fewest options "
        "per unit of weight, an item's weight growing each time it is found with no option "
        "left (Solnon's failure weights; bit-parallel engine)",
    )
    parser.add_argument(
        "--seed", type=int, metavar="N", help="seed of --heuristic random (default: fresh)"
    )
    common.add_flag(parser, "engine")
    common.add_flag(parser, "stats")
    common.add_flag(parser, "preprocess")
    parser.add_argument(
        "--solver",
        metavar="NAME",
        help="with --method sat: a python-sat solver (cadical, glucose4, minisat22, kissat, "
        "...), 'ext:COMMAND' for an outside solver, or ganak (count only); default cadical",
    )
    parser.add_argument(
        "--amo",
        choices=list(AMO_NAMES),
        help="with --method sat: the at-most-one encoding (default: auto)",
    )


def _symmetry_flags(parser: argparse.ArgumentParser, listing: bool) -> None:
    """``--up-to-symmetry`` and ``--break-symmetry`` (run by :mod:`excover.cli.symmetry`)."""
    what = "print one solution per class" if listing else "count the classes of solutions"
    common.add_flag(parser, "up_to_symmetry", what)
    if listing:
        common.add_flag(parser, "break_symmetry", "a listing breaks none unless asked")
    else:
        common.add_flag(parser, "break_symmetry")


#: What FILE is, for the commands that take any problem.
_ANY_PROBLEM = (
    "the problem in Knuth's DLX format, a BurrTools .xmpuzzle file, or a board with --pieces"
)


def _problem_command(
    commands: Any,
    name: str,
    read_board: BoardReader,
    help: str,
    description: str,
    epilog: str | None = common.EPILOG_SHORT,
    what: str = _ANY_PROBLEM,
) -> argparse.ArgumentParser:
    """Add the command ``name`` over one exact cover problem (see :func:`add_command`):
    FILE (``what`` it may be), and the flags that make it a board to tile."""
    parser = add_command(commands, name, help=help, description=description, epilog=epilog)
    add_input(parser, what)
    _tiling_flags(parser, read_board)
    return parser


def _tiling_flags(parser: argparse.ArgumentParser, read_board: BoardReader) -> None:
    """``--pieces`` and its companions: FILE is then a board to tile (see
    :mod:`excover.tiling.files`), read by ``read_board``."""
    parser.set_defaults(read_board=read_board)
    common.add_board_flags(
        parser,
        "FILE is a board ('#' cells, '.' or space holes) to tile with these pieces: "
        "one piece a line, a list of [row, col] cells, optionally named ('L: [[0,0],[1,0],"
        "[2,0],[2,1]]'); pieces turn and flip freely, identical ones are interchangeable",
    )


def _problem_flag(parser: argparse.ArgumentParser) -> None:
    """``--problem N``: which problem of a BurrTools file to run."""
    parser.add_argument(
        "--problem",
        type=common.non_negative_int,
        metavar="N",
        help="with a BurrTools .xmpuzzle file: the problem to run, numbered from 0 in the "
        "file's order (as BurrTools' burrTxt -o); default: the first",
    )


def _symmetric(args: argparse.Namespace) -> bool:
    return bool(args.up_to_symmetry or args.break_symmetry)


def _may_break(problem: ExactCover, args: argparse.Namespace) -> bool:
    """Whether a count may break the group ``problem`` declares by default (see
    :func:`excover.cli.symmetry.may_break`); the orchestrator's scout settles it. A
    problem that declares no group has none to break (and the symmetry module is left
    unimported)."""
    if args.break_symmetry is not None or problem.declared_symmetries() is None:
        return False
    from excover.cli import symmetry as symmetric

    return symmetric.may_break(problem, args)


_ESTIMATE = f"""\
Estimate the search of an exact cover problem before running it: the number of
solutions, of search nodes and of updates of a dancing-links count, and its time, each
with a range (the confidence of three standard errors of a normal, by Student's t with
the degrees of freedom of the strata's effective samples: wider where a few large samples
carry the estimate), or "no range" when the random samples cannot measure their error
(they all agreed, on a tree too big to count in twice the estimate's time). A tree small
enough is searched in full and the figures are exact; otherwise random samples go down
the tree of the engine that would count (stratified at its top, one path per number of
items closed by Algorithm M's null branch), and count in full the small subtrees they
reach (p.estimate() in the API).

{_FORMAT}"""


def add_problem_commands(commands: Any, read_board: BoardReader, only: str | None = None) -> None:
    """Add ``count``, ``solve``, ``dimacs``, ``estimate`` and ``schema`` to the
    command's sub-parsers, or with ``only`` that one command alone (a run of one needs
    no other's parser, which would cost its start-up); ``read_board`` reads ``FILE
    --pieces PIECES`` (the tiling package, above this layer, provides it)."""
    for name, add in _ADDERS.items():
        if only is None or name == only:
            add(commands, read_board)


def _add_count(commands: Any, read_board: BoardReader) -> None:
    from excover.cli.task_flags import add_task_options

    count = _problem_command(
        commands, "count", read_board, help="count the solutions", description=_COUNT
    )
    add_method(count)
    add_limits(count)
    common.add_max_memory(count)
    _dlx_flags(count)
    count.add_argument(
        "--route",
        choices=[route for route in ROUTES if route != "parts"],
        help="with --method auto: count by this route alone instead of choosing (the "
        "search engines dlx, bits, cells; dxz; the frontier count; component decomposition)",
    )
    _symmetry_flags(count, listing=False)
    _problem_flag(count)
    add_json(count)
    common.add_quiet(count)
    add_task_options(count)  # --workers, --tasks, --checkpoint, --progress
    count.set_defaults(run=_count)


def _add_solve(commands: Any, read_board: BoardReader) -> None:
    solve = _problem_command(
        commands, "solve", read_board, help="print solutions", description=_SOLVE
    )
    add_method(
        solve,
        help="auto (default): search, as p.solutions(); search: a compiled search (dancing "
        "links, bits or cells: --engine); zdd: "
        "as the DXZ search meets them (memoised dancing links); sat: a SAT solver with "
        "blocking clauses",
    )
    add_limits(solve, limit="default: print them all")
    common.add_max_memory(solve)
    _dlx_flags(solve)
    _symmetry_flags(solve, listing=True)
    _problem_flag(solve)
    add_json(solve)
    common.add_quiet(solve)
    common.add_progress(solve, "the nodes of a dancing-links search against the estimated tree")
    common.add_svg(
        solve,
        "with --pieces: draw the first tiling found as SVG to OUT; with a BurrTools "
        ".xmpuzzle file: its first assembly, pieces pulled apart in an isometric view",
    )
    common.add_refused(
        solve,
        {
            "workers": "it prints solutions in the order one search finds them; 'excover "
            "count FILE --workers N' counts them on N processes",
        },
    )
    solve.set_defaults(run=_solve)


def _add_dimacs(commands: Any, read_board: BoardReader) -> None:
    dimacs = _problem_command(
        commands,
        "dimacs",
        read_board,
        help="write the problem as a SAT formula (DIMACS CNF, or Knuth's SAT format)",
        description=_DIMACS,
        epilog=None,
        what="the problem in Knuth's DLX format (a board with --pieces)",
    )
    _problem_flag(dimacs)
    dimacs.add_argument(
        "-o", "--output", metavar="OUT", default="-", help="output file (default: stdout)"
    )
    dimacs.add_argument(
        "--amo",
        choices=list(AMO_NAMES),
        default="auto",
        help="at-most-one encoding (default: auto = pairwise for at most 6 options, else "
        "seqcounter)",
    )
    dimacs.add_argument(
        "--format",
        choices=["dimacs", "knuth"],
        default="dimacs",
        help="dimacs (default): DIMACS CNF, variables as numbers; knuth: Knuth's SAT format "
        "(the input of his SAT13), one clause a line, literals named 'L.3' (option "
        "variable 3, after its first item 'L') or '_9' (auxiliary), '~' negating",
    )
    dimacs.set_defaults(run=_dimacs)


def _add_estimate(commands: Any, read_board: BoardReader) -> None:
    estimate = _problem_command(
        commands,
        "estimate",
        read_board,
        help="estimate the size of the search before running it",
        description=_ESTIMATE,
        epilog=common.exit_statuses("--timeout", "nothing printed", "nothing printed"),
    )
    _problem_flag(estimate)
    estimate.add_argument(
        "--samples",
        type=common.positive_int,
        default=ESTIMATE_SAMPLES,
        metavar="N",
        help="random probes (default: %(default)s)",
    )
    estimate.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the probes (default: 0; same seed, same figures)",
    )
    add_method(
        estimate,
        help="the estimate is of a compiled search (search; auto means search): zdd and sat "
        "have no search tree to probe",
    )
    common.add_flag(estimate, "timeout")
    add_json(estimate)
    common.add_quiet(estimate)
    common.add_refused(
        estimate,
        {
            "engine": "every engine walks the same search tree, the one the probes estimate",
            "workers": "its probes run in this process, in about a second",
            "stats": "its figures are all it prints",
            "up_to_symmetry": "it estimates the whole search, not its classes of solutions",
            "break_symmetry": "it estimates the plain search, the one a symmetry-broken "
            "search cuts down",
            "limit": "it finds no solutions one by one: it probes the search tree",
            "max_nodes": "its probes are bounded by their number (--samples)",
            "progress": "its probes take about a second",
            "preprocess": "it estimates the search of the problem as given; --preprocess on "
            "count or solve searches the reduced one",
        },
    )
    estimate.set_defaults(run=_estimate)


def _add_schema(commands: Any, read_board: BoardReader) -> None:
    schema = add_command(
        commands,
        "schema",
        help="print the JSON Schema of every --json document",
        description="Print the JSON Schema (draft 2020-12) that every --json document of "
        "every command follows.",
        epilog=None,
    )
    schema.set_defaults(run=_schema)


#: The problem commands, in the order ``excover --help`` lists them, and what adds each.
_ADDERS: dict[str, Callable[[Any, BoardReader], None]] = {
    "count": _add_count,
    "solve": _add_solve,
    "dimacs": _add_dimacs,
    "estimate": _add_estimate,
    "schema": _add_schema,
}


# --------------------------------------------------------------------------- commands


def _count(args: argparse.Namespace) -> int:
    problem, _ = load_problem(args)
    return count_problem(problem, args)


def count_problem(problem: ExactCover, args: argparse.Namespace) -> int:
    """Count ``problem`` as ``excover count`` does (the symmetry flags, ``--workers`` and
    the other flags of a count by subproblems, or a plain count by any method, each
    through the orchestrator), print the count for ``args.command`` and give the exit
    status. A puzzle's ``--count`` comes here with :func:`as_count`'s arguments."""
    from excover.cli import solving
    from excover.cli.task_flags import uses_tasks

    if _symmetric(args):
        from excover.cli import symmetry as symmetric

        common.refuse(args, "preprocess", _PREPROCESS_WITH_SYMMETRY)
        return print_outcome(args.command, symmetric.count(problem, args), args)
    symmetry = None if _may_break(problem, args) else False
    if uses_tasks(args):
        common.refuse(args, "limit", "does not go with --workers, --tasks or --checkpoint")
        common.refuse(args, "max_memory", "does not go with --workers, --tasks or --checkpoint")
        solving.check_method_flags(args, args.method, counting=True)
        from excover.cli.parallel import count_tasks  # the long counts' machinery, and json

        return count_tasks(problem, args, symmetry)
    outcome = solving.count(problem, args, symmetry)
    if symmetry is None:  # it may have broken the declared group: said so
        from excover.cli.symmetry import worded

        outcome = worded(outcome, args, counting=True)
    return print_outcome(args.command, outcome, args)


#: Why ``--preprocess`` is refused with the symmetry flags.
_PREPROCESS_WITH_SYMMETRY = (
    "does not go with --up-to-symmetry or --break-symmetry: their group is the problem's "
    "as given, which preprocessing changes"
)


def as_count(args: argparse.Namespace) -> argparse.Namespace:
    """The arguments of another command's count, completed with the defaults of every
    flag of ``excover count`` that the command does not have, for :func:`count_problem`."""

    def no_board(args: argparse.Namespace) -> tuple[ExactCover, Drawing]:
        raise UsageError("this command reads no board")

    parser = argparse.ArgumentParser()
    add_problem_commands(parser.add_subparsers(dest="command"), no_board, "count")
    defaults = vars(parser.parse_args(["count", "-"]))
    return argparse.Namespace(**{**defaults, **vars(args)})


def _solve(args: argparse.Namespace) -> int:
    from excover.cli import solving

    problem, draw = load_problem(args)
    if args.svg is not None and draw is None:
        raise UsageError(_nothing_to_draw(args.file))
    out = sys.stdout
    stream = common.JsonStream(out, "solve") if args.json else None
    found = 0

    def emit(solution: list[int]) -> None:
        nonlocal found
        found += 1
        if found == 1 and args.svg is not None and draw is not None:
            common.write_file(args.svg, draw(solution, True))
            if not args.quiet:
                print(f"excover: solution 1 drawn in {args.svg}", file=sys.stderr)
        if stream is not None:
            items = [problem.option_items(option) for option in solution]
            stream.add({"options": solution, "items": items})
            return
        gap = "\n" if found > 1 else ""
        text = problem.format_solution(solution) if draw is None else draw(solution, False)
        out.write(f"{gap}solution {found}:\n{text}\n")
        out.flush()  # the next solution may be a long search away

    if _symmetric(args):
        from excover.cli import symmetry as symmetric

        common.refuse(args, "preprocess", _PREPROCESS_WITH_SYMMETRY)
        outcome = symmetric.solutions(problem, args, emit)
    else:  # --preprocess: the orchestrator maps the reduced problem's solutions back
        outcome = solving.solutions(problem, args, emit)
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
    return finish(outcome, args)


def _nothing_to_draw(path: str) -> str:
    """Why ``solve --svg`` has no picture of a problem that is not a board."""
    return (
        f"--svg: {path} is an exact cover problem: its solutions are sets of options, with "
        "no picture; --svg draws the first tiling of a board given with --pieces ('excover "
        "solve BOARD --pieces PIECES --svg OUT') or the first assembly of a BurrTools "
        ".xmpuzzle file, and a .cmb program draws its tilings with 'solve dlx NAME svg \"OUT\"'"
    )


def write_dlx(args: argparse.Namespace, problems: list[tuple[ExactCover, str]], what: str) -> int:
    """``--write-dlx FILE``: write each problem to its file in Knuth's DLX format, and
    no search (any search flag given is refused: it would do nothing)."""
    for dest in ("count", "all", "classify", "svg", "pretty", "json", "stats", "workers"):
        common.refuse(args, dest, "asks for a search: --write-dlx writes the problem instead")
    for dest in (
        "limit",
        "timeout",
        "max_nodes",
        "max_memory",
        "engine",
        "up_to_symmetry",
        "break_symmetry",
        "progress",
    ):
        common.refuse(
            args, dest, "bounds or shapes a search: --write-dlx writes the problem instead"
        )
    method = getattr(args, "method", None)
    traits = None if method is None else METHOD_TRAITS.get(method)  # a puzzle's own, or None
    if method is not None and (traits is None or not traits.chooses):  # not the default
        raise UsageError("--method chooses how to solve: --write-dlx writes the problem instead")
    for problem, path in problems:
        common.write_problem(problem, path, what)
    return common.EXIT_OK


def _dimacs(args: argparse.Namespace) -> int:
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


def _estimate(args: argparse.Namespace) -> int:
    import math

    from excover.cli.outcome import ENGINE_NAMES, UPDATES
    from excover.engines import pick_engine

    if not METHOD_TRAITS[args.method].searches:
        raise UsageError(
            f"--method {args.method} does not go with estimate: it estimates a dancing-links "
            "search (zdd and sat have no search tree to probe)"
        )
    problem = load_problem(args)[0]
    try:
        with common.deadline(common.time_left(args)):
            guess = problem.estimate(args.samples, seed=args.seed)
    except common.TimeUp:
        print("excover: stopped by --timeout before the estimate was done", file=sys.stderr)
        return common.EXIT_LIMIT
    engine = pick_engine(problem)  # the engine of the exact search, and of the time
    how = "exact search" if guess.exact else f"{guess.samples} stratified probes"
    if args.json:
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
    if guess.exact:
        lines.append("exact: the tree was small enough to search to its end")
    else:
        cut = "" if guess.cutoff is None else f", subtrees below depth {guess.cutoff} counted"
        lines.append(
            f"estimates from {guess.samples} random samples of the tree of the "
            f"{ENGINE_NAMES[engine]} (seed {args.seed}{cut})"
        )
    print("\n".join(lines))
    sys.stdout.flush()
    common.say_method(args, "search", f"{how}, timed by {ENGINE_NAMES[engine]}")
    return common.EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    import json

    print(json.dumps(common.schema(), indent=2))
    return common.EXIT_OK
