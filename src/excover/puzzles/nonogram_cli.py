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
import json
import sys
from typing import Any

from excover.errors import FormatError, LimitReached, UsageError
from excover.puzzles import nonogram

__all__ = ["add_nonogram_command"]

#: Exit statuses, as in :mod:`excover.cli`.
_EXIT_OK, _EXIT_LIMIT, _EXIT_INTERRUPT = 0, 1, 130

_DESCRIPTION = """\
Solve a nonogram (paint by numbers): find the picture its row and column clues describe.

FILE is in the plain text format (row clues one per line, a blank line, column clues;
blocks separated by spaces or commas, 0 for an empty line, '#' comments), Simpson's .non
format, or webpbn's XML export; the suffix (.non, .xml) picks the format unless --format
is given; '-' reads stdin. Prints the first solution found as rows of '#' (black) and
'.' (white), or 'none'. Methods: propagate (line solving, probing and search, compiled;
what auto means), xcc (an exact cover with colours, dancing links; small puzzles), sat
(an automaton per line, CaDiCaL). With --json, one object:
  {"file", "height", "width", "method", "line_solvable", "solution": [rows] | null,
   "count" (with --count), "status" (with --classify; null when unsettled), "complete"
   (false when --timeout, Ctrl-C or the --limit of --count stopped the search)}
Exit status: 0; 1 when --timeout stopped the run, 130 on Ctrl-C (the partial result is
printed); 2 for bad input, with 'file:line: message' on stderr."""


def add_nonogram_command(commands: Any) -> None:
    """Add ``nonogram`` to the command's sub-parsers."""
    cmd = commands.add_parser(
        "nonogram",
        help="nonograms (paint by numbers)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("file", metavar="FILE", help="the puzzle; '-' reads stdin")
    what = cmd.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="count the solutions")
    what.add_argument(
        "--classify", action="store_true", help="print none, unique or multiple solutions"
    )
    cmd.add_argument(
        "--limit", type=int, metavar="N", help="with --count: stop counting at N solutions"
    )
    cmd.add_argument(
        "--method",
        choices=nonogram.METHODS,
        default="auto",
        help="propagate: line solving, probing and search (auto, the default); xcc: exact "
        "cover with colours by dancing links; sat: an automaton per line solved by CaDiCaL",
    )
    cmd.add_argument(
        "--format",
        choices=list(nonogram.FORMATS),
        help="the format of FILE (default: from its suffix; text for stdin)",
    )
    cmd.add_argument(
        "--clues", action="store_true", help="print the solution with the clues in the margins"
    )
    cmd.add_argument(
        "--svg", metavar="OUT", help="write the puzzle, clues and solution as SVG to OUT"
    )
    cmd.add_argument(
        "--write",
        metavar="OUT",
        help="also save the puzzle to OUT, in the format of its suffix (.non, .xml, text)",
    )
    cmd.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="stop after this many seconds (exit status 1)",
    )
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(run=_nonogram)


def _load(args: argparse.Namespace) -> nonogram.Puzzle:
    if args.file == "-":
        try:  # the bytes, decoded here: the stream's own error handler varies by locale
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError:
            raise FormatError("the input is not UTF-8 text", source="<stdin>") from None
        return nonogram.loads(text, args.format or "text", "<stdin>")
    return nonogram.read(args.file, args.format)


def _nonogram(args: argparse.Namespace) -> int:
    if args.limit is not None and (args.limit < 1 or not args.count):
        raise UsageError("--limit takes a positive number, with --count")
    puzzle = _load(args)
    if args.write:
        nonogram.write(puzzle, args.write)
    result: dict[str, Any] = {
        "file": args.file,
        "height": puzzle.height,
        "width": puzzle.width,
        "method": args.method,
        "line_solvable": nonogram.line_solvable(puzzle),
    }
    status = _EXIT_OK
    first: list[str] | None = None
    number = 0
    wanted = args.limit if args.count else 2 if args.classify else 1
    try:
        for picture in nonogram.solutions(
            puzzle, method=args.method, limit=wanted, timeout=args.timeout
        ):
            first = picture if first is None else first
            number += 1
    except LimitReached:
        status = _EXIT_LIMIT
        print("excover: stopped by --timeout", file=sys.stderr)
    except KeyboardInterrupt:
        status = _EXIT_INTERRUPT
        print("excover: interrupted", file=sys.stderr)
    # a count stopped at --limit is a lower bound, not the whole count
    complete = status == _EXIT_OK and not (args.count and number == args.limit)
    result["solution"] = first
    result["complete"] = complete
    if args.count:
        result["count"] = number
    if args.classify:  # two solutions settle it even in an unfinished run
        known = complete or number == 2
        result["status"] = ("none", "unique", "multiple")[number] if known else None
    if args.svg:
        _write(args.svg, nonogram.svg_grid(puzzle, first))
    if args.json:
        print(json.dumps(result))
    elif args.count:
        print(number)
    elif args.classify:
        print(result["status"] or "unknown")
    elif first is None:
        if complete:
            print("none")
    elif args.clues:
        print(nonogram.ascii_grid(puzzle, first), end="")
    else:
        print("\n".join(first))
    return status


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
