"""The ``excover queens`` and ``excover sudoku`` commands.

``excover queens N`` prints a placement of N queens as a board (``--count``: how many
there are, by any method; ``--svg``: the placement as a picture). ``excover sudoku``
takes a puzzle on the command line or a file of puzzles and prints solutions, counts or
classifications, all puzzles of a file going through the compiled batch solver at once.
Results go to stdout (``--json``: one JSON document); messages to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from excover.errors import UsageError
from excover.puzzles import queens, sudoku

__all__ = ["add_puzzle_commands", "read_puzzles"]

_QUEENS_DESCRIPTION = """\
Place N queens on an N x N board so that no two attack each other.

Prints the first placement found as a board ('Q' a queen, '.' an empty square), or with
--count the number of placements (OEIS A000170). --svg also writes the placement as SVG."""

_SUDOKU_DESCRIPTION = """\
Solve, count or classify Sudoku puzzles of any box shape.

PUZZLE is one puzzle in the one-line format (row by row, '.' or '0' for a blank, digits
then letters above 9), or a file: one puzzle per line (blank lines and lines starting
with '#' are skipped), or a single multi-line grid (a file of N lines of N cells). The
box shape is inferred from the size (9x9: 3x3, 6x6: 2x3, ...) unless --box is given.
Prints one line per puzzle: its solution, or 'none' when it has none (clashing givens
are then listed on stderr). With --json: one object {"results": [...]} whose entries
hold the puzzle, its solution (or null), status, count or solutions, and conflicts."""


def _box(text: str) -> tuple[int, int]:
    rows, _, columns = text.lower().partition("x")
    try:
        return int(rows), int(columns)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a box shape is ROWSxCOLUMNS, not {text!r}") from None


def add_puzzle_commands(commands: Any) -> None:
    """Add ``queens`` and ``sudoku`` to the command's sub-parsers."""
    raw = argparse.RawDescriptionHelpFormatter
    cmd = commands.add_parser(
        "queens", help="the N-queens puzzle", description=_QUEENS_DESCRIPTION, formatter_class=raw
    )
    cmd.add_argument("n", metavar="N", type=int, help="the size of the board")
    cmd.add_argument("--count", action="store_true", help="count the placements")
    cmd.add_argument(
        "--method",
        choices=["auto", "dlx", "zdd", "sat"],
        default="dlx",
        help="how to count (default: dlx, dancing links)",
    )
    cmd.add_argument("--svg", metavar="OUT", help="write the placement found as SVG to OUT")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(run=_queens)

    cmd = commands.add_parser(
        "sudoku", help="Sudoku puzzles", description=_SUDOKU_DESCRIPTION, formatter_class=raw
    )
    cmd.add_argument("puzzle", metavar="PUZZLE|FILE", help="a puzzle, or a file of puzzles")
    what = cmd.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="count the solutions (all of them)")
    what.add_argument("--all", action="store_true", help="print every solution")
    what.add_argument(
        "--classify", action="store_true", help="print none, unique or multiple per puzzle"
    )
    cmd.add_argument("--box", type=_box, metavar="RxC", help="box shape, e.g. 2x3")
    cmd.add_argument("--diagonal", action="store_true", help="X-sudoku: diagonals too")
    cmd.add_argument(
        "--regions", metavar="MAP", help="jigsaw: one symbol per cell naming its region"
    )
    cmd.add_argument(
        "--svg", metavar="OUT", help="write the first puzzle and its solution as SVG to OUT"
    )
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(run=_sudoku)


def _queens(args: argparse.Namespace) -> int:
    problem = queens.queens(args.n)
    if args.count:
        number = problem.count(method=args.method)
        print(json.dumps({"n": args.n, "count": number}) if args.json else number)
        return 0
    solution = problem.first()
    squares = None if solution is None else queens.decode(args.n, solution)
    if args.json:
        print(json.dumps({"n": args.n, "queens": squares}))
    elif squares is None:
        print(f"excover: no placement of {args.n} queens", file=sys.stderr)
    else:
        print(queens.ascii_board(args.n, squares))
    if args.svg and squares is not None:
        _write(args.svg, queens.svg_board(args.n, squares))
    return 0


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def read_puzzles(text: str) -> list[str]:
    """The puzzles of a file: one per line, or the whole file as one multi-line grid when
    it has as many (non-blank, non-comment) lines as its first line has cells (at most 35:
    N lines of N cells)."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise UsageError("no puzzle in the input")
    width = len("".join(ch for ch in lines[0] if ch not in " \t|+-"))
    if width == len(lines) <= len(sudoku.SYMBOLS) and width > 1:
        return ["\n".join(lines)]
    return lines


def _puzzles(source: str) -> list[str]:
    if os.path.exists(source):
        try:
            with open(source, encoding="utf-8") as handle:
                return read_puzzles(handle.read())
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {source}: {exc}") from None
    return [source]


def _sudoku(args: argparse.Namespace) -> int:
    puzzles = _puzzles(args.puzzle)
    rules: dict[str, Any] = {"box": args.box, "diagonal": args.diagonal, "regions": args.regions}
    if args.count or args.all:
        results = [_enumerate(p, rules, listing=args.all) for p in puzzles]
    elif args.classify:
        statuses = sudoku.classify_many(puzzles, **rules)
        results = [{"puzzle": p, "status": s} for p, s in zip(puzzles, statuses, strict=True)]
    else:
        solved = sudoku.solve_many(puzzles, **rules)
        results = [
            {"puzzle": p, "solution": s, "status": "none" if s is None else "solved"}
            for p, s in zip(puzzles, solved, strict=True)
        ]
    if args.svg:
        first = puzzles[0]
        solution = sudoku.solve(first, **rules)
        _write(args.svg, sudoku.svg_grid(first, solution, args.box, regions=args.regions))
    for number, result in enumerate(results, 1):
        if result["status"] == "none":
            result["conflicts"] = sudoku.conflicts(result["puzzle"], **rules)
            _report_none(number, result["conflicts"])
    if args.json:
        print(json.dumps({"results": results}))
        return 0
    for result in results:
        if args.count:
            print(result["count"])
        elif args.all:
            print("\n".join(result["solutions"]) or "none")
        elif args.classify:
            print(result["status"])
        else:
            print(result["solution"] or "none")
    return 0


def _enumerate(puzzle: str, rules: dict[str, Any], listing: bool) -> dict[str, Any]:
    """The count (and, when ``listing``, the list) of all solutions of ``puzzle``."""
    if listing:
        found = list(sudoku.solutions(puzzle, **rules))
        number = len(found)
    else:
        number = sudoku.count(puzzle, None, **rules)
    status = ("none", "unique", "multiple")[min(number, 2)]
    result: dict[str, Any] = {"puzzle": puzzle, "status": status, "count": number}
    if listing:
        result["solutions"] = found
    return result


def _report_none(number: int, clashes: list[tuple[int, int]]) -> None:
    where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in clashes)
    detail = f": clashing givens at {where}" if clashes else ""
    print(f"excover: puzzle {number} has no solution{detail}", file=sys.stderr)
