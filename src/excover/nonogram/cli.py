"""The ``excover nonogram`` command: solve, count or classify a nonogram from a file.

By default it prints the first solution as rows of ``#`` and ``.`` (``none`` when there
is none); ``--count`` and ``--classify`` print the number of solutions or ``none``,
``unique`` or ``multiple``. ``--svg`` draws the puzzle with its clues and solution,
``--write`` saves the puzzle in another format, ``--json`` prints one JSON object.
Exit status as for every command: 0; 1 when ``--timeout`` stopped the run and 130 on
Ctrl-C (the count so far is printed; a classification not yet settled prints
``unknown``, a solution not yet found nothing); 2 for bad input (``file:line: message``).
"""

from __future__ import annotations

import argparse
import sys
import time

from excover.cli import common
from excover.cli.common import add_command, add_input, add_json, add_limits, add_method, add_svg
from excover.errors import FormatError, LimitReached, UsageError
from excover.numbers import to_decimal

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover import nonogram
    from excover.cli.options import RunOptions
    from excover.counting.outcome import Outcome

__all__ = ["add_nonogram_command"]

#: The methods of :data:`excover.nonogram.METHODS` and the formats of
#: :data:`excover.nonogram.FORMATS`, named here so that building the parser
#: imports no solver (a test keeps them equal).
METHODS = ("auto", "propagate", "xcc", "sat")
FORMATS = ("text", "non", "xml", "nin", "mk", "tcga", "ini", "g")

#: The engine behind each method, as the output names it.
_ENGINES = {
    "propagate": "line solving, probing and search (compiled)",
    "xcc": "exact cover with colours (dancing links)",
    "sat": "an automaton per line (SAT, CaDiCaL)",
}

#: The engine of ``auto`` on a black-and-white puzzle (the search module's hybrid route).
_AUTO_ENGINE = (
    "line solving, probing and search (compiled), decimation, restarts and CDCL when it takes long"
)


def _route(method: str, puzzle: nonogram.Puzzle) -> tuple[str, str]:
    """The method and engine a run reports: ``auto`` is the hybrid route on a
    black-and-white puzzle, the compiled search alone (``propagate``) on a colour one."""
    if method != "auto":
        return method, _ENGINES[method]
    if puzzle.palette is None:
        return "auto", _AUTO_ENGINE
    return "propagate", _ENGINES["propagate"]


_DESCRIPTION = """\
Solve a nonogram (paint by numbers): find the picture its row and column clues describe.

FILE is in the plain text format (row clues one per line, a blank line, column clues;
blocks separated by spaces or commas, 0 for an empty line, '#' comments), Simpson's .non
format, webpbn's XML export, Wilk's .nin, Olsak's .mk and .g, pynogram's INI files (a
.txt starting with [clues] or [colors]) or the tournaments' files of many puzzles (tcga:
'$N', then the column clues and the row clues; a .txt starting with '$'), whose puzzles
each get their result as it is found (one line each, or a picture after its '$N' line);
the suffix picks the format unless --format is given; '-' reads stdin. Colour puzzles: a
block is its length and its colour's char (3r), the colours declared by '# colour: r red
#ff0000' lines in the text format, 'color r #ff0000' in .non, <color> elements in XML,
'r = (red) %' in INI's [colors], 'r:% red' after '#d' in .g; blocks of different colours
need no white cell between them. Prints the first solution found as rows of '#' (black)
and '.' (white; in colour, one char per colour), or 'none'; --limit N prints up to N
solutions (each as found, a blank line between two), or with --count stops counting at
N. Methods: auto (line solving, probing and search, compiled, with restarts and CDCL
brought in when the search takes long on a black-and-white puzzle), propagate (the
compiled search alone), xcc (an exact cover with colours, dancing links; small puzzles),
sat (an automaton per line, CaDiCaL). With --json, one document of the shared schema,
with "input", "height", "width", "palette" (colour puzzles only: char -> {"name",
"rgb"}), "line_solvable", "solutions" ([{"grid": rows}]), "solution" (the first, or
null), "count" (with --count) and "status" (with --classify; null when unsettled); with
--rate, "status", "level" (line, probe or search) and "depth" (the probing depth: 0 line
solving, 1 or 2 probing, null search). --max-nodes bounds the nodes of the compiled
search (methods auto and propagate)."""


def add_nonogram_command(commands: Any) -> None:
    """Add ``nonogram`` to the command's sub-parsers."""
    cmd = add_command(
        commands, "nonogram", help="nonograms (paint by numbers)", description=_DESCRIPTION
    )
    add_input(cmd, "the puzzle")
    what = cmd.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="count the solutions")
    what.add_argument(
        "--classify", action="store_true", help="print none, unique or multiple solutions"
    )
    what.add_argument(
        "--rate",
        action="store_true",
        help="print none, unique or multiple and what solving needs: line solving, "
        "probing (with its depth) or search",
    )
    add_method(
        cmd,
        METHODS,
        "propagate: line solving, probing and search (auto, the default); xcc: exact "
        "cover with colours by dancing links; sat: an automaton per line solved by CaDiCaL",
    )
    add_limits(cmd, limit="without --count, the solutions printed (default 1)")
    common.add_flag(cmd, "stats")
    common.add_progress(cmd, "the puzzles of a file of many done")
    cmd.add_argument(
        "--format",
        choices=list(FORMATS),
        help="the format of FILE (default: from its suffix; text for stdin)",
    )
    cmd.add_argument(
        "--clues", action="store_true", help="print the solution with the clues in the margins"
    )
    add_svg(cmd, "write the puzzle, clues and first solution as SVG to OUT")
    cmd.add_argument(
        "--write",
        metavar="OUT",
        help="also save the puzzle to OUT, in the format of its suffix (.non, .xml, text)",
    )
    add_json(cmd)
    common.add_quiet(cmd)
    common.add_write_dlx(
        cmd, "the puzzle (XCC: lines and coloured cells; OUT-1, OUT-2, ... for several)"
    )
    common.add_refused(
        cmd,
        {
            "engine": "its methods name their solvers (--method xcc is dancing links); "
            "--write-dlx FILE writes the exact cover, which 'excover count FILE --engine E' runs",
            "workers": "a puzzle is solved by one search; --write-dlx FILE writes its exact "
            "cover, which 'excover count FILE --workers N' counts on N processes",
            "up_to_symmetry": "its solvers are line solvers, not the exact cover search whose "
            "symmetries it takes; --write-dlx FILE writes the exact cover, which 'excover "
            "count FILE --up-to-symmetry' counts",
            "break_symmetry": "its solvers are line solvers, not the exact cover search "
            "whose symmetries it would break; --write-dlx FILE writes the exact cover, which "
            "'excover count FILE --break-symmetry' counts",
            "preprocess": "its line solving is its preprocessing; --write-dlx FILE writes the "
            "exact cover, which 'excover count FILE --preprocess' counts",
        },
    )
    cmd.set_defaults(run=_nonogram)


def _load(args: argparse.Namespace) -> list[nonogram.Puzzle]:
    """The puzzles of FILE: one, or the many of a tournament file."""
    from excover.cli.kinds import other_kind
    from excover.nonogram import formats

    if args.file == "-":
        try:  # the bytes, decoded here: the stream's own error handler varies by locale
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError:
            raise FormatError("the input is not UTF-8 text", source="<stdin>") from None
        return formats.loads_all(text, args.format or "text", "<stdin>")
    try:
        return formats.read_all(args.file, args.format)
    except FormatError:
        hint = None if args.format else other_kind(args.file, "nonogram")
        if hint is not None:
            raise UsageError(f"{hint}; 'excover nonogram' reads nonogram puzzles") from None
        raise


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse the flags that do not apply, saying why."""
    if args.method in ("xcc", "sat"):
        common.refuse(
            args, "max_nodes", f"counts the nodes of the compiled search, not of {args.method}"
        )
    if args.rate:
        if args.method != "auto":
            raise UsageError("--rate runs its own sequence of solvers: it takes no --method")
        for dest in ("limit", "max_nodes", "svg", "clues"):
            common.refuse(args, dest, "does not go with --rate")
    if args.classify:
        common.refuse(args, "limit", "does not go with --classify (two solutions settle it)")
    if args.count:
        common.refuse(args, "svg", "draws a solution: it does not go with --count")
        common.refuse(args, "clues", "prints a solution: it does not go with --count")
    if args.classify:
        common.refuse(args, "clues", "prints a solution: it does not go with --classify")


def _nonogram(args: argparse.Namespace) -> int:
    from excover.cli.options import RunOptions
    from excover.cli.report import finish
    from excover.counting.outcome import Outcome

    run = RunOptions.read(args)
    _check_flags(args)
    puzzles = _load(args)
    many = len(puzzles) > 1 or (args.format or _suffix_format(args.file)) == "tcga"
    if many:
        common.refuse(args, "svg", f"draws one puzzle: {args.file} holds {len(puzzles)}")
    if args.write:
        from excover.nonogram import formats

        formats.write_all(puzzles, args.write)
    if args.write_dlx is not None:
        from excover.nonogram import xcc

        paths = common.numbered(args.write_dlx, len(puzzles))
        covers = [xcc.problem(puzzle)[0] for puzzle in puzzles]
        return common.write_dlx(args, list(zip(covers, paths, strict=True)), "the nonogram")
    if args.rate:
        if many:
            raise UsageError(f"--rate rates one puzzle: {args.file} holds {len(puzzles)}")
        return _rate(puzzles[0], args, run)
    if not many:
        return finish(_solve(puzzles[0], args, run, None), run)
    from excover.cli.progress import progress

    method, engine = _route(args.method, puzzles[0])
    stops: list[str] = []
    bar = progress(run, total=len(puzzles), unit="puzzle", desc="nonogram")
    done = 0
    try:
        for rank, puzzle in enumerate(puzzles, start=1):
            outcome = _solve(puzzle, args, run, rank)
            done += 1
            bar.update()
            if outcome.stopped_by is not None:
                stops.append(outcome.stopped_by)
                if outcome.stopped_by in ("interrupt", "timeout"):
                    break  # the time is up for the puzzles after this one too
    finally:
        bar.close()
    stopped_by = next((stop for stop in ("interrupt", "timeout", "limit") if stop in stops), None)
    stats = {"puzzles": len(puzzles), "done": done}
    return finish(Outcome(method, engine, None, stopped_by, stats), run)


def _suffix_format(path: str) -> str:
    from excover.nonogram.formats import format_for

    return "text" if path == "-" else format_for(path)


def _solve(
    puzzle: nonogram.Puzzle, args: argparse.Namespace, run: RunOptions, rank: int | None
) -> Outcome:
    """Solve one puzzle as the flags ``args`` ask, within the run's deadline, and print
    its result (``rank``: its place in a file of many, whose results each take one line,
    or a picture after a ``$label``)."""
    from excover import nonogram
    from excover.counting.outcome import Outcome

    started = time.perf_counter()
    method, engine = _route(args.method, puzzle)
    listing = not (args.count or args.classify)
    wanted = args.limit if not args.classify else 2
    if listing and wanted is None:
        wanted = 1
    stopped_by: str | None = None
    found: list[list[str]] = []
    try:
        for picture in nonogram.solutions(
            puzzle,
            method=args.method,
            limit=wanted,
            timeout=run.time_left(),
            max_nodes=args.max_nodes,
        ):
            found.append(picture)
            if listing and not args.json:
                if rank is not None and len(found) == 1:
                    print(f"${_label(puzzle, rank)}")
                _show(puzzle, picture, args, len(found))
    except LimitReached as error:
        stopped_by = error.reason if error.reason == "max_nodes" else "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    number = len(found)
    # only a --limit of the user's makes a partial result: the first picture, asked for
    # by default, is the whole answer of a plain solve
    user_limit = args.limit is not None and not args.classify
    if stopped_by is None and user_limit and number == wanted:
        stopped_by = "limit"
    settled = stopped_by is None or (args.classify and number == 2)
    first = found[0] if found else None
    if args.svg:
        common.write_file(args.svg, nonogram.svg_grid(puzzle, first))
    fields: dict[str, Any] = {
        "input": args.file,
        "height": puzzle.height,
        "width": puzzle.width,
    }
    if args.json:  # one more propagation: only where it is printed
        fields["line_solvable"] = nonogram.line_solvable(puzzle)
    if puzzle.palette is not None:
        fields["palette"] = {
            colour.char: {"name": colour.name, "rgb": colour.hex} for colour in puzzle.palette
        }
    if args.count:
        fields["count"] = number
    else:
        fields["solution"] = first
        fields["solutions"] = [{"grid": rows} for rows in found]
    if args.classify:
        fields["status"] = ("none", "unique", "multiple")[number] if settled else None
    if puzzle.contradiction is not None:
        fields["reason"] = puzzle.contradiction
    if rank is not None:
        fields["puzzle"], fields["title"] = rank, puzzle.title
    stats = {"solutions": number, "seconds": time.perf_counter() - started}
    outcome = Outcome(method, engine, number, stopped_by, stats)
    if args.json:
        import json

        doc = common.document("nonogram", method, outcome.engine, stopped_by, **fields)
        if args.classify and settled:
            doc["complete"], doc["stopped_by"] = True, None
        print(json.dumps(doc))
    elif args.count:
        print(number if number is None else to_decimal(number))
    elif args.classify:
        print(fields["status"] or "unknown")
    elif first is None and stopped_by is None:
        if rank is not None:
            print(f"${_label(puzzle, rank)}")
        print("none")
    if rank is not None:
        if listing and not args.json:
            print()  # a blank line after each picture of a file of many
        sys.stdout.flush()
    if args.classify and settled:
        outcome.stopped_by = None
    if puzzle.contradiction is not None:
        where = "" if rank is None else f"puzzle ${_label(puzzle, rank)}: "
        print(f"excover: {where}no solution: {puzzle.contradiction}", file=sys.stderr)
    return outcome


def _label(puzzle: nonogram.Puzzle, rank: int) -> str:
    """How the results of a file of many name a puzzle: its label, else its rank."""
    return puzzle.title if puzzle.title is not None else str(rank)


def _show(
    puzzle: nonogram.Puzzle, picture: list[str], args: argparse.Namespace, number: int
) -> None:
    """Print one solution as soon as it is found (a blank line before all but the first)."""
    from excover import nonogram

    if number > 1:
        print()
    if args.clues:
        print(nonogram.ascii_grid(puzzle, picture), end="")
    else:
        print("\n".join(picture))
    sys.stdout.flush()


def _rate(puzzle: nonogram.Puzzle, args: argparse.Namespace, run: RunOptions) -> int:
    """``--rate``: the solution count and the level of reasoning the puzzle needs."""
    from excover import nonogram
    from excover.cli.report import finish
    from excover.counting.outcome import Outcome

    rating: nonogram.Rating | None = None
    stopped_by: str | None = None
    try:
        rating = nonogram.rate(puzzle, timeout=run.time_left())
    except LimitReached:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    number = None if rating is None else ("none", "unique", "multiple").index(rating.status)
    outcome = Outcome("auto", _AUTO_ENGINE, number, stopped_by, {})
    if args.json:
        import json

        fields: dict[str, Any] = {
            "input": args.file,
            "height": puzzle.height,
            "width": puzzle.width,
            "status": None if rating is None else rating.status,
            "level": None if rating is None else rating.level,
            "depth": None if rating is None else rating.depth,
        }
        if puzzle.contradiction is not None:
            fields["reason"] = puzzle.contradiction
        print(json.dumps(common.document("nonogram", "auto", _AUTO_ENGINE, stopped_by, **fields)))
    else:
        print("unknown" if rating is None else rating)
    if puzzle.contradiction is not None:
        print(f"excover: no solution: {puzzle.contradiction}", file=sys.stderr)
    return finish(outcome, run)
