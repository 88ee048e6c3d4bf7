"""The parsers of ``excover count``, ``solve``, ``dimacs``, ``estimate`` and ``schema``,
the commands over one exact cover problem: their descriptions, flags and refusals
(:func:`add_problem_commands`). Their runs are :mod:`excover.cli.exact_cover.commands`'.
"""

from __future__ import annotations

import argparse

from excover.cli import common
from excover.cli.common import add_command, add_input, add_json, add_limits, add_method
from excover.names import HEURISTICS, ROUTES

#: The at-most-one encodings of :data:`excover.sat.amo.AMO_ENCODINGS` (named here so that
#: building the parser imports no SAT code; a test keeps the two equal).
AMO_NAMES = ("auto", "pairwise", "seqcounter", "product", "commander", "bitwise")
#: The default probes of :func:`excover.parallel.probes.estimate` (a test keeps them equal).
ESTIMATE_SAMPLES = 1000

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from excover.cli.exact_cover.problem_input import BoardReader

__all__ = ["AMO_NAMES", "ESTIMATE_SAMPLES", "add_problem_commands"]

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
    """``--up-to-symmetry`` and ``--break-symmetry`` (run by
    :mod:`excover.cli.exact_cover.symmetry`)."""
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
    from excover.cli.exact_cover.task_flags import add_task_options

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
    count.set_defaults(run=_run_count)


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
    solve.add_argument(
        "--stl",
        metavar="OUT",
        help="with --pieces: write the first tiling found to OUT as a binary STL file to "
        "print, each piece its own closed (watertight) body where the tiling puts it, "
        "cells of 10 mm (needs the mesh extra: pip install 'excover[mesh]')",
    )
    solve.add_argument(
        "--gap",
        type=float,
        metavar="MM",
        help="with --stl: millimetres left between pieces that touch (each face moved "
        "MM/2 inward; from 0 to under 2.5; default 0.2, or 0 on the solid grids other than "
        "cubes, which take no gap yet), so that a program reading the "
        "file finds each piece a watertight body of its own and printed pieces fit; 0: "
        "the pieces touch face to face, and a reader merging equal points sees one mesh",
    )
    common.add_refused(
        solve,
        {
            "workers": "it prints solutions in the order one search finds them; 'excover "
            "count FILE --workers N' counts them on N processes",
        },
    )
    solve.set_defaults(run=_run_solve)


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
    dimacs.set_defaults(run=_run_dimacs)


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
        metavar="N",
        help=f"random probes (default: {ESTIMATE_SAMPLES}, or an exact count instead where "
        "counting costs less than the probes; given, the probes run as asked)",
    )
    estimate.set_defaults(default_samples=ESTIMATE_SAMPLES)
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
    estimate.set_defaults(run=_run_estimate)


def _add_schema(commands: Any, read_board: BoardReader) -> None:
    schema = add_command(
        commands,
        "schema",
        help="print the JSON Schema of every --json document",
        description="Print the JSON Schema (draft 2020-12) that every --json document of "
        "every command follows.",
        epilog=None,
    )
    schema.set_defaults(run=_run_schema)


#: The problem commands, in the order ``excover --help`` lists them, and what adds each.
_ADDERS: dict[str, Callable[[Any, BoardReader], None]] = {
    "count": _add_count,
    "solve": _add_solve,
    "dimacs": _add_dimacs,
    "estimate": _add_estimate,
    "schema": _add_schema,
}


# The runs, each imported when its command runs: building the parsers (``excover
# --help``, or a run's own parser) imports none of them.


def _run_count(args: argparse.Namespace) -> int:
    from excover.cli.exact_cover.commands import run_count

    return run_count(args)


def _run_solve(args: argparse.Namespace) -> int:
    from excover.cli.exact_cover.commands import run_solve

    return run_solve(args)


def _run_dimacs(args: argparse.Namespace) -> int:
    from excover.cli.exact_cover.commands import run_dimacs

    return run_dimacs(args)


def _run_estimate(args: argparse.Namespace) -> int:
    from excover.cli.exact_cover.commands import run_estimate

    return run_estimate(args)


def _run_schema(args: argparse.Namespace) -> int:
    from excover.cli.exact_cover.commands import run_schema

    return run_schema(args)
