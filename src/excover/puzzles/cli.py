"""The ``excover queens`` and ``excover sudoku`` commands.

``excover queens N`` prints placements of N queens as boards, each as soon as it is found
(the first one by default, ``--limit K`` for K of them; ``--count``: how many there are,
by any method; ``--svg``: the first placement as a picture). ``excover sudoku`` takes a
puzzle on the command line, a file of puzzles, or ``-`` for standard input, and prints
solutions, counts, every solution or classifications, one puzzle after the other as each
is done. Solving and classifying with ``--method auto`` go through the compiled grid
solver in batches (with a progress bar on long files); ``--count``, ``--all``, killer
puzzles (``--cages``) and the other methods go through the exact cover of each puzzle,
with the shared limits (:mod:`excover.cli.exact_cover.solving`). ``--write-dlx FILE``
writes a puzzle's exact cover in Knuth's format instead (``excover count FILE`` then
counts it, with ``--workers`` or any flag of ``count``). Results go to stdout
(``--json``: one document of the shared schema); messages to stderr, errors in a file
as ``FILE:LINE: message``.

This module builds both parsers and runs ``queens``; the run of ``sudoku`` is
:mod:`excover.puzzles.sudoku.cli` (its input and flags) and
:mod:`excover.puzzles.sudoku.runs` (the solving paths and their output), imported only
when it runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from excover.cli import common
from excover.cli.common import (
    add_command,
    add_json,
    add_limits,
    add_method,
    add_progress,
    add_svg,
    non_negative_int,
    refuse,
)

__all__ = ["add_puzzle_commands"]

_QUEENS_DESCRIPTION = """\
Place N queens on an N x N board so that no two attack each other.

Prints the first placement found as a board ('Q' a queen, '.' an empty square); --limit K
prints K placements, each as soon as it is found; --count prints the number of
placements (OEIS A000170). --svg writes the first placement as SVG."""

_SUDOKU_DESCRIPTION = """\
Solve, count or classify Sudoku puzzles of any box shape, and their variants.

PUZZLE is one puzzle in the one-line format (row by row, '.' or '0' for a blank, digits
then letters above 9), a file, or '-' for standard input. --digits names other digits:
--digits 0-F reads a 16x16 puzzle written 0-9A-F, with '.' alone for a blank. Without
it, a board above 9x9 whose givens use '0' beside '.' and not the last digit (G on
16x16) is read with '0' as a digit, and a puzzle that reads both ways the usual way,
each with a warning naming the digits assumed. Blank lines, lines starting
with '#' and lines of drawing characters only ('-', '+', '|') are skipped. A file is one
puzzle per line, except that it is read as a single multi-line grid when it has N lines
of N cells each (blanks and '|' between cells are layout) and either N cells cannot be a
one-line puzzle themselves (every N but 16) or its lines use blanks or '|' between
cells; --grid reads a bare 16x16 grid, and --lines forces one puzzle per line. All
puzzles of a file share one board, whose box shape is inferred from the size (9x9: 3x3,
6x6: 2x3, ...) unless --box is given.

Variants: --diagonal (X-sudoku), --regions (jigsaw: one symbol per cell naming its
region, given as a string or as a file holding the map), --cages FILE (killer: one cage
per line, 'SUM: CELLS' with cells rRcC counted from 1, e.g. '11: r1c1 r1c2 r2c1'; the
cages apply to every puzzle, whose givens may all be blank).

Prints one line per puzzle as soon as it is done: its solution, or 'none' (clashing
givens are then listed on stderr); --count its number of solutions, --classify none,
unique or multiple, --all every solution (as found), --limit N up to N solutions (as
--all does, one a line; with --count, the count stops at N). --method auto solves and
classifies
with the compiled solvers (a core of its own for classic 9x9 puzzles, a general grid
solver for every other board) and counts and lists by dancing links; search, zdd and sat
run on each puzzle's exact cover. A file of one-line 9x9 puzzles streams through the
compiled core a few thousand lines at a time, with a progress bar on long files
(--progress). --svg OUT draws each puzzle with its solution: OUT
itself for a single puzzle, else OUT-1.svg, OUT-2.svg, ... in the file's order.

--generate N prints N new puzzles instead, one per line, each with a unique solution
(minimal unless --givens K asks for exactly K givens; --difficulty singles or search;
--seed S to repeat a batch; --box, --diagonal and --regions choose the board)."""


def _box(text: str) -> tuple[int, int]:
    rows, _, columns = text.lower().partition("x")
    try:
        return int(rows), int(columns)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a box shape is ROWSxCOLUMNS, not {text!r}") from None


def add_puzzle_commands(commands: Any) -> None:
    """Add ``queens`` and ``sudoku`` to the command's sub-parsers."""
    cmd = add_command(
        commands, "queens", help="the N-queens puzzle", description=_QUEENS_DESCRIPTION
    )
    cmd.add_argument("n", metavar="N", type=int, help="the size of the board")
    cmd.add_argument("--count", action="store_true", help="count the placements")
    add_method(cmd)
    common.add_flag(cmd, "engine")
    common.add_flag(cmd, "workers", "with --count")
    common.add_flag(cmd, "stats")
    common.add_flag(
        cmd,
        "up_to_symmetry",
        "the 8 symmetries of the square: count the classes (OEIS A002562), or print one "
        "placement per class",
    )
    common.add_flag(
        cmd,
        "break_symmetry",
        "--count breaks the 8 symmetries of the square by default (declared by the problem)",
    )
    add_limits(cmd, limit="without --count, the placements printed (default 1)")
    common.add_max_memory(cmd)
    add_progress(cmd, "the nodes of the search against the estimated tree")
    add_json(cmd)
    common.add_quiet(cmd)
    add_svg(cmd, "write the first placement found as SVG to OUT")
    common.add_write_dlx(cmd, "the N-queens puzzle")
    common.add_refused(
        cmd,
        {
            "preprocess": "no option of the queens problem can be removed; --write-dlx FILE "
            "writes it, which 'excover count FILE --preprocess' counts",
        },
    )
    cmd.set_defaults(run=_queens)

    cmd = add_command(commands, "sudoku", help="Sudoku puzzles", description=_SUDOKU_DESCRIPTION)
    cmd.add_argument(
        "puzzle",
        metavar="PUZZLE|FILE",
        nargs="?",
        help="a puzzle, a file of puzzles, or '-' for stdin (none with --generate)",
    )
    what = cmd.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="count the solutions")
    what.add_argument("--all", action="store_true", help="print every solution, as found")
    what.add_argument(
        "--classify", action="store_true", help="print none, unique or multiple per puzzle"
    )
    add_method(cmd)
    common.add_flag(cmd, "engine")
    common.add_flag(cmd, "stats")
    common.add_flag(
        cmd,
        "up_to_symmetry",
        "with --count, --all or --limit: the symmetries of each puzzle's exact cover",
    )
    add_limits(
        cmd,
        limit="of each puzzle; without --count, it prints up to N solutions of each, one a line "
        "as --all does (the default prints 1, the solution)",
    )
    common.add_max_memory(cmd)
    cmd.add_argument("--box", type=_box, metavar="RxC", help="box shape, e.g. 2x3")
    layout = cmd.add_mutually_exclusive_group()
    layout.add_argument(
        "--grid",
        dest="layout",
        action="store_const",
        const="grid",
        help="read FILE as one multi-line grid (N lines of N cells)",
    )
    layout.add_argument(
        "--lines",
        dest="layout",
        action="store_const",
        const="lines",
        help="read FILE as one puzzle per line",
    )
    cmd.set_defaults(layout="auto")
    cmd.add_argument(
        "--digits",
        metavar="SET",
        help="the digits, in order: ranges along 0-9A-Z or the symbols themselves, e.g. 0-F, "
        "1-9A-G (default: 1-9 then A-Z, as many as the board needs)",
    )
    cmd.add_argument("--diagonal", action="store_true", help="X-sudoku: diagonals too")
    cmd.add_argument(
        "--regions",
        metavar="MAP|FILE",
        help="jigsaw: one symbol per cell naming its region, or a file holding that map",
    )
    cmd.add_argument(
        "--cages", metavar="FILE", help="killer: a file of cages, one 'SUM: r1c1 r1c2 ...' per line"
    )
    add_svg(cmd, "draw each puzzle and its solution as SVG: OUT, or OUT-1, OUT-2, ... for several")
    cmd.add_argument(
        "--pretty",
        action="store_true",
        help="print each solution as a grid over several lines, boxes set apart (and a "
        "blank line after it)",
    )
    add_progress(cmd, "the puzzles of a file done")
    add_json(cmd)
    common.add_quiet(cmd)
    common.add_write_dlx(cmd, "each puzzle (OUT, or OUT-1, OUT-2, ... for several)")
    common.add_refused(
        cmd,
        {
            "workers": "each puzzle is solved or counted by one search; --write-dlx FILE writes "
            "a puzzle's exact cover, which 'excover count FILE --workers N' counts on N processes",
            "break_symmetry": "a puzzle's givens leave it few symmetries, and its search is "
            "short; --write-dlx FILE writes its exact cover, which 'excover count FILE "
            "--break-symmetry' counts",
            "preprocess": "a puzzle's givens already take out every option they rule out; "
            "--write-dlx FILE writes its exact cover, which 'excover count FILE --preprocess' "
            "counts",
        },
    )
    made = cmd.add_argument_group("generating puzzles")
    made.add_argument(
        "--generate",
        type=non_negative_int,
        metavar="N",
        help="print N random puzzles with a unique solution each, one per line",
    )
    made.add_argument(
        "--givens", type=non_negative_int, metavar="K", help="with --generate: exactly K givens"
    )
    made.add_argument(
        "--difficulty",
        choices=["any", "singles", "search"],
        help="with --generate: singles = solved by naked and hidden singles alone; "
        "search = a solver has to branch; any (default)",
    )
    made.add_argument(
        "--seed", type=non_negative_int, metavar="S", help="with --generate: the random seed"
    )
    cmd.set_defaults(run=_sudoku)


def _sudoku(args: argparse.Namespace) -> int:
    """``excover sudoku``, whose run is imported only when it runs."""
    from excover.puzzles.sudoku.cli import run

    return run(args)


# --------------------------------------------------------------------------- queens


def _queens(args: argparse.Namespace) -> int:
    from excover.cli import report
    from excover.cli.exact_cover import solving
    from excover.cli.exact_cover.commands import count_problem
    from excover.cli.exact_cover.request import CoverRequest
    from excover.errors import LimitReached
    from excover.puzzles import queens

    # without --count, the first placement by default
    request = CoverRequest.read(args, limit=args.limit if args.count else args.limit or 1)
    try:
        problem = queens.queens(args.n, deadline=request.deadline)
    except (LimitReached, KeyboardInterrupt) as stop:  # a big board takes a while to build
        return report.stopped_building(request, args.method, stop)
    if args.write_dlx is not None:
        return common.write_dlx(args, [(problem, args.write_dlx)], f"the {args.n}-queens puzzle")
    if args.count:
        refuse(args, "svg", "draws a placement: it does not go with --count")
        return count_problem(problem, request)
    refuse(args, "workers", "counts on several processes: it goes with --count")
    asked = args.limit
    out = sys.stdout
    stream = common.JsonStream(out, "queens") if request.json else None
    first: list[tuple[int, int]] | None = None
    found = 0

    def emit(solution: list[int]) -> None:
        nonlocal first, found
        squares = queens.decode(args.n, solution)
        board = queens.ascii_board(args.n, squares)
        first = first or squares
        found += 1
        if stream is not None:
            stream.add({"options": solution, "queens": squares, "grid": board.splitlines()})
        else:
            out.write(("\n" if found > 1 else "") + board + "\n")
            out.flush()

    if request.symmetric:
        from excover.cli.exact_cover import symmetry as symmetric

        outcome = symmetric.solutions(problem, request, emit)
    else:
        outcome = solving.solutions(problem, request, emit)
    fields: dict[str, Any] = {"n": args.n, "count": found}
    if asked is None and outcome.stopped_by == "limit":
        # the first placement, asked for by default, is the whole answer; but the one
        # placement found is no count of them all
        outcome.stopped_by = None
        del fields["count"]
    if stream is not None:
        stream.close(outcome.method, outcome.engine, outcome.stopped_by, **fields)
    elif found == 0 and outcome.stopped_by is None:
        print(f"excover: no placement of {args.n} queens", file=sys.stderr)
    if args.svg and first is not None:
        common.write_file(args.svg, queens.svg_board(args.n, first))
    return report.finish(outcome, request)
