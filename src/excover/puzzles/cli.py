"""The ``excover queens`` and ``excover sudoku`` commands.

``excover queens N`` prints placements of N queens as boards, each as soon as it is found
(the first one by default, ``--limit K`` for K of them; ``--count``: how many there are,
by any method; ``--svg``: the first placement as a picture). ``excover sudoku`` takes a
puzzle on the command line, a file of puzzles, or ``-`` for standard input, and prints
solutions, counts, every solution or classifications, one puzzle after the other as each
is done. Solving and classifying with ``--method auto`` go through the compiled grid
solver in batches (with a progress bar on long files); ``--count``, ``--all``, killer
puzzles (``--cages``) and the other methods go through the exact cover of each puzzle,
with the shared limits (:mod:`excover.cli.solving`). ``--write-dlx FILE`` writes a
puzzle's exact cover in Knuth's format instead (``excover count FILE`` then counts it,
with ``--workers`` or any flag of ``count``). Results go to stdout (``--json``:
one document of the shared schema); messages to stderr, errors in a file as
``FILE:LINE: message``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from excover.cli import common
from excover.cli.common import (
    EPILOG_SHORT,
    add_json,
    add_limits,
    add_method,
    add_progress,
    add_svg,
    non_negative_int,
    refuse,
)
from excover.errors import ExcoverWarning, FormatError, ProblemError, UsageError

if TYPE_CHECKING:
    from excover.cli.solving import Outcome
    from excover.puzzles import killer, sudoku
    from excover.solving import ExactCover

__all__ = ["Puzzle", "add_puzzle_commands", "read_puzzles"]

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
solver for every other board) and counts and lists by dancing links; dlx, zdd and sat
run on each puzzle's exact cover. A file of one-line 9x9 puzzles streams through the
compiled core a few thousand lines at a time, with a progress bar on long files
(--progress). --svg OUT draws each puzzle with its solution: OUT
itself for a single puzzle, else OUT-1.svg, OUT-2.svg, ... in the file's order.

--generate N prints N new puzzles instead, one per line, each with a unique solution
(minimal unless --givens K asks for exactly K givens; --difficulty singles or search;
--seed S to repeat a batch; --box, --diagonal and --regions choose the board)."""

#: Puzzles given to the compiled solver at once: small enough for results to stream and
#: the progress bar to move, large enough for the batch to cost nothing.
BATCH = 256


def _box(text: str) -> tuple[int, int]:
    rows, _, columns = text.lower().partition("x")
    try:
        return int(rows), int(columns)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a box shape is ROWSxCOLUMNS, not {text!r}") from None


def _symbols() -> str:
    from excover.puzzles.sudoku import SYMBOLS

    return SYMBOLS


def add_puzzle_commands(commands: Any) -> None:
    """Add ``queens`` and ``sudoku`` to the command's sub-parsers."""
    raw = common.HelpFormatter
    cmd = commands.add_parser(
        "queens",
        help="the N-queens puzzle",
        description=_QUEENS_DESCRIPTION,
        epilog=EPILOG_SHORT,
        formatter_class=raw,
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

    cmd = commands.add_parser(
        "sudoku",
        help="Sudoku puzzles",
        description=_SUDOKU_DESCRIPTION,
        epilog=EPILOG_SHORT,
        formatter_class=raw,
    )
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


# --------------------------------------------------------------------------- queens


def _queens(args: argparse.Namespace) -> int:
    from excover.cli import commands, solving
    from excover.errors import LimitReached
    from excover.puzzles import queens

    try:
        problem = queens.queens(args.n, deadline=common.stop_time(args))
    except (LimitReached, KeyboardInterrupt) as stop:  # a big board takes a while to build
        return commands.stopped_building(args, "queens", stop)
    if args.write_dlx is not None:
        return commands.write_dlx(args, [(problem, args.write_dlx)], f"the {args.n}-queens puzzle")
    if args.count:
        refuse(args, "svg", "draws a placement: it does not go with --count")
        return commands.count_problem(problem, commands.as_count(args))
    refuse(args, "workers", "counts on several processes: it goes with --count")
    asked = args.limit
    args.limit = asked or 1
    out = sys.stdout
    stream = common.JsonStream(out, "queens") if args.json else None
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

    if args.up_to_symmetry:
        from excover.cli import symmetry as symmetric

        outcome = symmetric.solutions(problem, args, emit)
    else:
        outcome = solving.solutions(problem, args, emit)
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
    return commands.finish(outcome, args)


#: Characters that draw a grid: never cells. Blanks and bars may separate cells on a line.
_DRAWING = frozenset(" \t|+-")
_SEPARATORS = frozenset(" \t|")
_NO_DRAWING = str.maketrans("", "", "".join(_DRAWING))


def _cell_count(line: str) -> int:
    return len(line.translate(_NO_DRAWING))


def _is_one_line_size(cells: int) -> bool:
    """Whether ``cells`` cells make a square board with a box shape (16: 4x4, 81, ...)."""
    side = math.isqrt(cells)
    return (
        side * side == cells
        and side <= len(_symbols())
        and any(side % r == 0 for r in range(2, math.isqrt(side) + 1))
    )


def read_puzzles(text: str, layout: str = "auto", source: str = "<input>") -> list[Puzzle]:
    """The puzzles of a file with the line each starts on: one per line, or one
    multi-line grid (``layout`` "lines", "grid", or "auto": the rule of ``--help``).

    Raises FormatError at ``source:line`` when ``layout`` is "grid" and a line does not
    have one cell per line of the grid, or holds a character that is no digit of it.
    """
    rows = [
        (number, line)
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#") and _cell_count(line)
    ]
    if not rows:
        raise UsageError(f"{source}: no puzzle in the input")
    size = len(rows)
    if layout == "auto":
        square = size <= len(_symbols()) and all(_cell_count(ln) == size for _, ln in rows)
        drawn = any(_SEPARATORS.intersection(ln.strip()) for _, ln in rows)
        layout = "grid" if square and (drawn or not _is_one_line_size(size)) else "lines"
    if layout == "lines":
        return [Puzzle(line.strip(), number) for number, line in rows]
    allowed = set(".0" + _symbols()[:size] + _symbols()[9:size].lower())
    for number, line in rows:
        cells = [ch for ch in line if ch not in _DRAWING]
        if len(cells) != size:
            message = f"a {size}x{size} grid needs {size} cells on each line, not {len(cells)}"
            raise FormatError(message, source=source, line=number)
        for column, ch in enumerate(cells, 1):
            if ch not in allowed:
                message = f"bad character {ch!r} in column {column} of a {size}x{size} grid"
                raise FormatError(message, source=source, line=number)
    return [Puzzle("\n".join(line for _, line in rows), rows[0][0])]


class Puzzle(NamedTuple):
    """A puzzle's text and the line of its file it starts on (None: the command line)."""

    text: str
    line: int | None = None


# --------------------------------------------------------------------------- sudoku input


def _puzzles(source: str, layout: str, text: str | None) -> tuple[list[Puzzle], str | None]:
    """The puzzles of the PUZZLE|FILE argument (``text``: the file's, already read), and
    the file's name when it is one.

    An argument that names no file must be a puzzle; when it is not one either, the error
    says both (``no such file``), not only what is wrong with it as a puzzle."""
    if text is not None:
        name = "<stdin>" if source == "-" else source
        return read_puzzles(text, layout, name), name
    from excover.puzzles import sudoku

    try:
        with warnings.catch_warnings():  # the digits are told once, by _checked_board
            warnings.simplefilter("ignore", ExcoverWarning)
            sudoku.board_for(source)
    except ProblemError as exc:
        raise UsageError(f"{source}: no such file, and not a puzzle ({exc})") from None
    return [Puzzle(source)], None


def _regions(value: str | None) -> str | None:
    """A jigsaw map given on the command line, or read from the file it names."""
    if value is None or not os.path.exists(value):
        return value
    lines = common.read_input(value).splitlines()
    return "".join(ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#"))


def _checked_board(
    puzzles: list[Puzzle], source: str | None, rules: dict[str, Any]
) -> sudoku.Board:
    """The board of the puzzles (the first one's size, the digits of them all: a guess
    at them is told on stderr), every puzzle parsed on it: errors name the line."""
    from excover.puzzles import sudoku

    board: sudoku.Board | None = None
    for puzzle in puzzles:
        try:
            if board is None:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", ExcoverWarning)
                    board = sudoku.board_for([p.text for p in puzzles], **rules)
                for warning in caught:
                    print(f"excover: warning: {warning.message}", file=sys.stderr)
            sudoku.parse(puzzle.text, board)
        except ProblemError as exc:
            if source is None:
                raise
            raise ProblemError(exc.message, source=source, line=puzzle.line) from None
    assert board is not None  # read_puzzles returns at least one puzzle
    return board


# --------------------------------------------------------------------------- sudoku runs

_STATUS = ("none", "unique", "multiple")


def _check_sudoku_flags(args: argparse.Namespace) -> bool:
    """Refuse the flags the mode cannot honour; whether the compiled batch solver runs."""
    if args.classify:
        refuse(args, "limit", "does not go with --classify (two solutions settle it)")
    elif args.limit is not None and not args.count:
        args.all = True  # --limit N lists up to N solutions of each puzzle, as --all does
    listing = args.count or args.all
    if args.json or args.count or args.classify:
        refuse(args, "pretty", "shapes printed solutions: not with --json, --count, --classify")
    if not listing:
        refuse(
            args,
            "up_to_symmetry",
            "counts or lists classes of solutions: it goes with --count, --all or --limit",
        )
    batch = args.method == "auto" and not listing and not args.cages and not args.write_dlx
    if batch:
        grid = "the compiled grid solver that solves and classifies with --method auto"
        refuse(args, "max_nodes", f"counts dancing-links nodes: {grid} has none (use --method dlx)")
        refuse(args, "engine", f"chooses a dancing-links engine: {grid} is none (use --method dlx)")
        refuse(args, "max_memory", f"bounds the tables of --method zdd: {grid} has none")
    return batch


def _generate(args: argparse.Namespace) -> int:
    """``--generate N``: print N puzzles, one per line, each as soon as it is made."""
    from excover.puzzles.sudoku_generate import generate_many

    if args.puzzle is not None:
        raise UsageError("--generate makes puzzles: give no PUZZLE|FILE with it")
    for dest in ("count", "all", "classify", "svg", "json", "cages", "limit", "max_nodes"):
        refuse(args, dest, "does not go with --generate")
    refuse(args, "max_memory", "does not go with --generate")
    refuse(args, "timeout", "does not go with --generate (Ctrl-C stops it)")
    if args.method != "auto":
        raise UsageError("--method does not go with --generate")
    refuse(args, "digits", "reads puzzles: generated ones are written with 1-9A-Z and '.'")
    puzzles = generate_many(
        args.generate,
        args.box or (3, 3),
        args.seed,
        givens=args.givens,
        difficulty=args.difficulty or "any",
        diagonal=args.diagonal,
        regions=_regions(args.regions),
    )
    for puzzle in puzzles:
        print(puzzle, flush=True)
    return 0


def _sudoku(args: argparse.Namespace) -> int:
    if args.generate is not None:
        return _generate(args)
    for dest in ("givens", "difficulty", "seed"):
        refuse(args, dest, "goes with --generate")
    if args.puzzle is None:
        raise UsageError("give a PUZZLE, a FILE or '-' for stdin (or --generate N)")
    batch = _check_sudoku_flags(args)
    text = None
    if args.puzzle == "-" or os.path.exists(args.puzzle):
        name = "<stdin>" if args.puzzle == "-" else args.puzzle
        data = common.read_input(args.puzzle, binary=True)
        if batch and _plain_lines_apply(args):
            done = _plain_lines(data, name, args)
            if done is not None:
                return done
        text = common.decode_input(data, name)
    puzzles, source = _puzzles(args.puzzle, args.layout, text)
    rules: dict[str, Any] = {
        "box": args.box,
        "diagonal": args.diagonal,
        "regions": _regions(args.regions),
        "digits": args.digits,
    }
    board = _checked_board(puzzles, source, rules)
    rules["box"] = board.box
    rules["digits"] = board.symbols  # read once: no later call guesses them again
    cages: list[killer.Cage] = []
    if args.cages:
        from excover.puzzles import killer

        if board.digits is not None:
            raise UsageError(
                f"killer cages sum the digits 1-9A-Z: not digits {board.digits} (--digits)"
            )
        del rules["digits"]  # the killer functions read the default digits
        cages = killer.read_cages(common.read_input(args.cages), board.size, args.cages)
    texts = [p.text for p in puzzles]
    if args.write_dlx is not None:
        covers = [_cover(text, rules, cages) for text in texts]
        from excover.cli.commands import write_dlx

        paths = common.numbered(args.write_dlx, len(texts))
        return write_dlx(args, list(zip(covers, paths, strict=True)), "the sudoku puzzle")
    report = _Report(args, source)
    try:
        if batch:
            outcome = _batch(texts, rules, args, report)
        else:
            outcome = _each(texts, rules, cages, args, report)
    finally:
        report.bar.close()
    if args.svg:
        _draw(args.svg, texts, report.results, cages, rules)
    return report.close(outcome, digits=board.symbols)


class _Report:
    """Prints each puzzle's result as soon as it is done (text, or an entry of the JSON
    document's ``results``), and keeps the results for ``--svg``."""

    def __init__(self, args: argparse.Namespace, source: str | None) -> None:
        from excover.cli.progress import progress

        self.args = args
        self.input = source
        self.results: list[dict[str, Any]] = []
        self.rules: dict[str, Any] = {}
        self.stream = common.JsonStream(sys.stdout, "sudoku", "results") if args.json else None
        self.bar = progress(args, unit="puzzle", desc="sudoku")

    def add(self, result: dict[str, Any], flush: bool = True) -> None:
        from excover.puzzles import sudoku

        number = len(self.results) + 1
        self.results.append(result)
        if result.get("status") == "none" and result["complete"]:
            result["conflicts"] = sudoku.conflicts(result["puzzle"], **self.rules)
            _report_none(number, result["conflicts"])
        if self.stream is not None:
            self.stream.add({"input": result["puzzle"], **result})
        else:
            args = self.args
            if args.count:
                # a count stopped with nothing to show (a ZDD count has no partial one)
                print("unknown" if result["count"] is None else result["count"])
            elif args.classify:
                print(result["status"] or "unknown")
            elif args.all:
                if not result["solutions"] and result["complete"]:
                    print("none")
            elif result["solution"] and args.pretty:
                print(_pretty(result["solution"], self.rules) + "\n")
            else:
                print(result["solution"] or "none")
            if flush:
                sys.stdout.flush()
        self.bar.update()

    def close(self, outcome: Outcome, digits: str = "123456789") -> int:
        """End the output (the JSON document names the ``digits`` the puzzles were read
        with) and give the exit status."""
        from excover.cli import commands

        if self.stream is not None:
            self.stream.close(
                outcome.method, outcome.engine, outcome.stopped_by, input=self.input, digits=digits
            )
        return commands.finish(outcome, self.args)


#: Lines of a file handed to the compiled 9x9 core at once on the plain-lines path.
LINES_BATCH = 4096


def _plain_lines_apply(args: argparse.Namespace) -> bool:
    """Whether the run may take the plain-lines path: classic 9x9 rules, the one-line
    layout allowed, and nothing printed but a line per puzzle."""
    return (
        args.box in (None, (3, 3))
        and not args.diagonal
        and args.regions is None
        and args.layout in ("auto", "lines")
        and args.digits is None
        and not (args.json or args.svg or args.pretty)
    )


def _plain_lines(data: bytes, name: str, args: argparse.Namespace) -> int | None:
    """Solve or classify a file of one-line 9x9 puzzles with the compiled core, which
    reads the file's bytes and writes the output lines itself, :data:`LINES_BATCH`
    puzzles at a time: the same output as the general path (a line per puzzle,
    unsolvable puzzles reported on stderr) without a Python object per puzzle. None,
    having printed nothing, when a line is anything but a puzzle of 81 cells
    (``.0123456789``), a blank or a comment: the general path then reads the file, and
    names the line of an error."""
    from excover.cli.solving import Outcome
    from excover.puzzles.simd import core

    _sudoku9 = core()

    total = _sudoku9.count_plain_lines(data)
    if total < 0:
        return None
    report = _Report(args, name)
    report.bar.set(0, total)
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
    at, done, stopped_by = 0, 0, None
    try:
        with common.deadline(common.time_left(args)):
            while at < len(data):
                lines, at, count, unsolvable = _sudoku9.run_lines(
                    data, at, LINES_BATCH, args.classify
                )
                if unsolvable:
                    from excover.puzzles import sudoku

                    for index, puzzle in unsolvable:
                        _report_none(done + index + 1, sudoku.conflicts(puzzle))
                if out is not None:
                    sys.stdout.flush()
                    out.write(lines)
                    out.flush()
                else:  # a text stream without bytes under it (tests capture so)
                    sys.stdout.write(lines.decode("ascii"))
                    sys.stdout.flush()
                done += count
                report.bar.update(count)
    except common.TimeUp:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    finally:
        report.bar.close()
    stats = {"puzzles": total, "done": done}
    return report.close(Outcome("grid", "compiled 9x9 core", None, stopped_by, stats))


def _batch(
    texts: list[str], rules: dict[str, Any], args: argparse.Namespace, report: _Report
) -> Outcome:
    """Solve or classify with the compiled solvers (the 9x9 core for the classic board),
    :data:`BATCH` puzzles at a time."""
    from excover.cli.solving import Outcome
    from excover.puzzles import sudoku

    report.rules = rules
    report.bar.set(0, len(texts))
    stopped_by = None
    try:
        with common.deadline(common.time_left(args)):
            for start in range(0, len(texts), BATCH):
                chunk = texts[start : start + BATCH]
                if args.classify:
                    statuses = sudoku.classify_many(chunk, **rules)
                    for text, kind in zip(chunk, statuses, strict=True):
                        report.add({"puzzle": text, "status": kind, "complete": True}, False)
                else:
                    solved = sudoku.solve_many(chunk, **rules)
                    for text, solution in zip(chunk, solved, strict=True):
                        status = "none" if solution is None else "solved"
                        grids = [] if solution is None else [{"grid": solution}]
                        report.add(
                            {
                                "puzzle": text,
                                "solution": solution,
                                "status": status,
                                "complete": True,
                                "solutions": grids,
                            },
                            False,
                        )
                sys.stdout.flush()  # the batch's lines at once
    except common.TimeUp:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    stats = {"puzzles": len(texts), "done": len(report.results)}
    classic = rules["box"] == (3, 3) and not rules["diagonal"] and rules["regions"] is None
    engine = "compiled 9x9 core" if classic else "compiled grid solver"
    return Outcome("grid", engine, None, stopped_by, stats)


def _each(
    texts: list[str],
    rules: dict[str, Any],
    cages: list[killer.Cage],
    args: argparse.Namespace,
    report: _Report,
) -> Outcome:
    """Every puzzle through its exact cover and the shared runs (any method, limits)."""
    from excover.cli import solving
    from excover.cli.solving import Outcome

    report.rules = rules
    report.bar.set(0, len(texts))
    outcome = Outcome(args.method, None, None, None)
    mode = argparse.Namespace(**vars(args))
    if args.classify:
        mode.limit = 2  # two solutions settle it
    elif not (args.count or args.all):
        mode.limit = 1
    stops: list[str] = []  # what cut a puzzle's result short, puzzle by puzzle
    for text in texts:
        cover = _cover(text, rules, cages)
        if args.count and args.up_to_symmetry:
            from excover.cli import symmetry

            outcome = symmetry.count(cover, mode)
        elif args.count:
            outcome = solving.count(cover, mode)
        else:
            outcome = _listed(cover, mode, _printer(args, rules), rules.get("digits"))
        result = _result(text, outcome, args)
        report.add(result)
        if outcome.stopped_by is not None and not result["complete"]:
            stops.append(outcome.stopped_by)
        if outcome.stopped_by not in (None, "limit"):
            break
    # the run stopped early only where a result is partial: the one or two solutions
    # that settle a solve or a classification are no stop; the last stop ended the run
    outcome.stopped_by = stops[-1] if stops else None
    if len(texts) > 1:  # the figures of the last puzzle are not the run's
        outcome.count = None
        outcome.stats = {"puzzles": len(texts), "done": len(report.results)}
    return outcome


def _cover(text: str, rules: dict[str, Any], cages: list[killer.Cage]) -> ExactCover:
    """The exact cover problem of one puzzle (with its killer cages, if any)."""
    from excover.puzzles import killer, sudoku

    if cages:
        return killer.cover(cages, givens="".join(text.split()), **rules)
    return sudoku.problem(text, **rules)


def _result(text: str, outcome: Outcome, args: argparse.Namespace) -> dict[str, Any]:
    """The result of one puzzle run through its exact cover, in the mode of ``args``."""
    number = outcome.count
    # classify and solve asked for 2 and 1 solutions: reaching them settles the answer
    settled = outcome.stopped_by is None or (
        outcome.stopped_by == "limit" and not (args.count or args.all)
    )
    result: dict[str, Any] = {"puzzle": text, "complete": settled}
    if number is not None:
        known = settled or number >= 2
        result["status"] = _STATUS[min(number, 2)] if known else None
    if args.count:
        result["count"] = None if number is None else common.exact(number)
        return result
    grids = [{"grid": grid} for grid in outcome.stats.pop("grids", [])]
    if not args.classify:
        result["solutions"] = grids
    if not (args.all or args.classify):
        result["solution"] = grids[0]["grid"] if grids else None
        result["status"] = "solved" if grids else ("none" if settled else None)
    return result


def _printer(args: argparse.Namespace, rules: dict[str, Any]) -> Callable[[str], None] | None:
    """Print each solution of ``--all`` as soon as it is found (text mode)."""
    if not args.all or args.json:
        return None

    def show(grid: str) -> None:
        print(_pretty(grid, rules) + "\n" if args.pretty else grid)
        sys.stdout.flush()

    return show


def _pretty(solution: str, rules: dict[str, Any]) -> str:
    """``--pretty``: a solution over several lines, boxes set apart (a jigsaw's regions
    are not boxes: its rows are printed plainly)."""
    from excover.puzzles import sudoku

    if rules.get("regions") is not None:
        size = math.isqrt(len(solution))
        return "\n".join(" ".join(solution[row * size : (row + 1) * size]) for row in range(size))
    return sudoku.format_grid(solution, rules.get("box"), digits=rules.get("digits"))


def _listed(
    cover: ExactCover,
    args: argparse.Namespace,
    show: Callable[[str], None] | None,
    digits: str | None = None,
) -> Outcome:
    """The solutions of one puzzle's cover (kept in the outcome's ``grids``), written
    with ``digits`` (default ``1-9A-Z``)."""
    from excover.cli import solving
    from excover.puzzles import sudoku

    grids: list[str] = []

    def emit(solution: list[int]) -> None:
        grid = sudoku.grid_of(cover, solution, digits=digits)
        grids.append(grid)
        if show is not None:
            show(grid)

    if args.up_to_symmetry:
        from excover.cli import symmetry

        outcome = symmetry.solutions(cover, args, emit)
    else:
        outcome = solving.solutions(cover, args, emit)
    outcome.stats["grids"] = grids
    return outcome


def _draw(
    out: str,
    texts: list[str],
    results: list[dict[str, Any]],
    cages: list[killer.Cage],
    rules: dict[str, Any],
) -> None:
    """Write one SVG per puzzle: ``out`` for one, ``out`` numbered from 1 for several."""
    from excover.puzzles import killer, sudoku

    paths = common.numbered(out, len(texts))
    for text, result, path in zip(texts, results, paths, strict=False):
        if result.get("solution"):
            solution = result["solution"]
        elif result.get("solutions"):
            solution = result["solutions"][0]["grid"]
        elif cages:
            solution = killer.solve(cages, givens="".join(text.split()), **rules)
        else:
            solution = sudoku.solve(text, **rules)
        common.write_file(path, sudoku.svg_grid(text, solution, cages=cages, **rules))


def _report_none(number: int, clashes: list[tuple[int, int]]) -> None:
    where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in clashes)
    detail = f": clashing givens at {where}" if clashes else ""
    print(f"excover: puzzle {number} has no solution{detail}", file=sys.stderr)
