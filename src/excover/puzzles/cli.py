"""The ``excover queens`` and ``excover sudoku`` commands.

``excover queens N`` prints a placement of N queens as a board (``--count``: how many
there are, by any method; ``--svg``: the placement as a picture). ``excover sudoku``
takes a puzzle on the command line or a file of puzzles and prints solutions, counts or
classifications, all puzzles of a file going through the compiled batch solver at once
(killer puzzles, with ``--cages``, through the generic engine). Results go to stdout
(``--json``: one JSON document); messages to stderr, errors in a file as
``FILE:LINE: message``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from excover.errors import FormatError, ProblemError, UsageError
from excover.puzzles import killer, queens, sudoku

__all__ = ["Puzzle", "add_puzzle_commands", "read_puzzles"]

_QUEENS_DESCRIPTION = """\
Place N queens on an N x N board so that no two attack each other.

Prints the first placement found as a board ('Q' a queen, '.' an empty square), or with
--count the number of placements (OEIS A000170). --svg also writes the placement as SVG."""

_SUDOKU_DESCRIPTION = """\
Solve, count or classify Sudoku puzzles of any box shape, and their variants.

PUZZLE is one puzzle in the one-line format (row by row, '.' or '0' for a blank, digits
then letters above 9), or a file. Blank lines, lines starting with '#' and lines of
drawing characters only ('-', '+', '|') are skipped. A file is one puzzle per line,
except that it is read as a single multi-line grid when it has N lines of N cells each
(blanks and '|' between cells are layout) and either N cells cannot be a one-line puzzle
themselves (every N but 16) or its lines use blanks or '|' between cells. So a file of
sixteen one-line 4x4 puzzles is sixteen puzzles; --grid reads a bare 16x16 grid, and
--lines forces one puzzle per line. All puzzles of a file share one board, whose box
shape is inferred from the size (9x9: 3x3, 6x6: 2x3, ...) unless --box is given.

Variants: --diagonal (X-sudoku), --regions (jigsaw: one symbol per cell naming its
region, given as a string or as a file holding the map, over one or several lines),
--cages FILE (killer: one cage per line, 'SUM: CELLS' with cells rRcC counted from 1,
e.g. '11: r1c1 r1c2 r2c1'; the cages apply to every puzzle, whose givens may all be
blank; killer puzzles are solved by the generic engine).

Prints one line per puzzle: its solution, or 'none' when it has none (clashing givens
are then listed on stderr). With --json: one object {"results": [...]} whose entries
hold the puzzle, its solution (or null), status, count or solutions, and conflicts.
--svg OUT draws each puzzle with its solution: OUT itself for a single puzzle, else
OUT-1.svg, OUT-2.svg, ... (the number before the extension) in the file's order.
Exit status: 0; 1 when --count stopped at 2147483647 solutions, the most the compiled
solver counts (the count printed is then a lower bound); 2 for bad input."""


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
    cmd.add_argument("--diagonal", action="store_true", help="X-sudoku: diagonals too")
    cmd.add_argument(
        "--regions",
        metavar="MAP|FILE",
        help="jigsaw: one symbol per cell naming its region, or a file holding that map",
    )
    cmd.add_argument(
        "--cages", metavar="FILE", help="killer: a file of cages, one 'SUM: r1c1 r1c2 ...' per line"
    )
    cmd.add_argument(
        "--svg",
        metavar="OUT",
        help="draw each puzzle and its solution as SVG: OUT, or OUT-1, OUT-2, ... for several",
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


#: Characters that draw a grid: never cells. Blanks and bars may separate cells on a line.
_DRAWING = frozenset(" \t|+-")
_SEPARATORS = frozenset(" \t|")


def _cell_count(line: str) -> int:
    return sum(1 for ch in line if ch not in _DRAWING)


def _is_one_line_size(cells: int) -> bool:
    """Whether ``cells`` cells make a square board with a box shape (16: 4x4, 81, ...)."""
    side = math.isqrt(cells)
    return (
        side * side == cells
        and side <= len(sudoku.SYMBOLS)
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
        square = size <= len(sudoku.SYMBOLS) and all(_cell_count(ln) == size for _, ln in rows)
        drawn = any(_SEPARATORS.intersection(ln.strip()) for _, ln in rows)
        layout = "grid" if square and (drawn or not _is_one_line_size(size)) else "lines"
    if layout == "lines":
        return [Puzzle(line.strip(), number) for number, line in rows]
    allowed = set(".0" + sudoku.SYMBOLS[:size] + sudoku.SYMBOLS[9:size].lower())
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


@dataclass(frozen=True)
class Puzzle:
    """A puzzle's text and the line of its file it starts on (None: the command line)."""

    text: str
    line: int | None = None


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig") as handle:  # skips a byte order mark
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None


def _puzzles(source: str, layout: str) -> tuple[list[Puzzle], str | None]:
    """The puzzles of the PUZZLE|FILE argument, and the file's name when it is one."""
    if os.path.exists(source):
        return read_puzzles(_read(source), layout, source), source
    return [Puzzle(source)], None


def _regions(value: str | None) -> str | None:
    """A jigsaw map given on the command line, or read from the file it names."""
    if value is None or not os.path.exists(value):
        return value
    lines = _read(value).splitlines()
    return "".join(ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#"))


def _checked_board(
    puzzles: list[Puzzle], source: str | None, rules: dict[str, Any]
) -> sudoku.Board:
    """The board of the first puzzle, every puzzle parsed on it: errors name the line."""
    board: sudoku.Board | None = None
    for puzzle in puzzles:
        try:
            if board is None:
                board = sudoku.board_for(puzzle.text, **rules)
            sudoku.parse(puzzle.text, board)
        except ProblemError as exc:
            if source is None:
                raise
            raise ProblemError(exc.message, source=source, line=puzzle.line) from None
    assert board is not None  # read_puzzles returns at least one puzzle
    return board


def _sudoku(args: argparse.Namespace) -> int:
    puzzles, source = _puzzles(args.puzzle, args.layout)
    rules: dict[str, Any] = {
        "box": args.box,
        "diagonal": args.diagonal,
        "regions": _regions(args.regions),
    }
    board = _checked_board(puzzles, source, rules)
    rules["box"] = board.box
    texts = [p.text for p in puzzles]
    cages: list[killer.Cage] = []
    if args.cages:
        cages = killer.read_cages(_read(args.cages), board.size, args.cages)
        results = [_killer(text, cages, rules, args) for text in texts]
    elif args.count or args.all:
        results = [_enumerate(text, rules, listing=args.all) for text in texts]
    elif args.classify:
        statuses = sudoku.classify_many(texts, **rules)
        results = [{"puzzle": p, "status": s} for p, s in zip(texts, statuses, strict=True)]
    else:
        solved = sudoku.solve_many(texts, **rules)
        results = [
            {"puzzle": p, "solution": s, "status": "none" if s is None else "solved"}
            for p, s in zip(texts, solved, strict=True)
        ]
    if args.svg:
        _draw(args.svg, texts, results, cages, rules)
    for number, result in enumerate(results, 1):
        if result["status"] == "none":
            result["conflicts"] = sudoku.conflicts(result["puzzle"], **rules)
            _report_none(number, result["conflicts"])
    status = 0
    if args.count and not cages:  # the compiled solver counts no further than its cap
        for number, result in enumerate(results, 1):
            if result["count"] >= sudoku._NO_LIMIT:
                status = 1
                print(
                    f"excover: puzzle {number}: counting stopped at {result['count']} "
                    "solutions, the most the compiled solver counts",
                    file=sys.stderr,
                )
    if args.json:
        print(json.dumps({"results": results}))
        return status
    for result in results:
        if args.count:
            print(result["count"])
        elif args.all:
            print("\n".join(result["solutions"]) or "none")
        elif args.classify:
            print(result["status"])
        else:
            print(result["solution"] or "none")
    return status


def _killer(
    puzzle: str, cages: list[killer.Cage], rules: dict[str, Any], args: argparse.Namespace
) -> dict[str, Any]:
    """The result of one killer puzzle (givens ``puzzle``) in the mode of ``args``."""
    givens = "".join(puzzle.split())
    if args.all:
        found = list(killer.solutions(cages, givens=givens, **rules))
        return {
            "puzzle": puzzle,
            "status": _STATUS[min(len(found), 2)],
            "count": len(found),
            "solutions": found,
        }
    if args.count or args.classify:
        number = killer.count(cages, givens=givens, limit=None if args.count else 2, **rules)
        result: dict[str, Any] = {"puzzle": puzzle, "status": _STATUS[min(number, 2)]}
        if args.count:
            result["count"] = number
        return result
    solution = killer.solve(cages, givens=givens, **rules)
    return {
        "puzzle": puzzle,
        "solution": solution,
        "status": "none" if solution is None else "solved",
    }


_STATUS = ("none", "unique", "multiple")


def _draw(
    out: str,
    texts: list[str],
    results: list[dict[str, Any]],
    cages: list[killer.Cage],
    rules: dict[str, Any],
) -> None:
    """Write one SVG per puzzle: ``out`` for one, ``out`` numbered from 1 for several."""
    for number, (text, result) in enumerate(zip(texts, results, strict=True), 1):
        if "solution" in result:
            solution = result["solution"]
        elif result.get("solutions"):
            solution = result["solutions"][0]
        elif cages:
            solution = killer.solve(cages, givens="".join(text.split()), **rules)
        else:
            solution = sudoku.solve(text, **rules)
        path = out
        if len(texts) > 1:
            where = Path(out)
            path = str(where.with_name(f"{where.stem}-{number}{where.suffix}"))
        _write(path, sudoku.svg_grid(text, solution, cages=cages, **rules))


def _enumerate(puzzle: str, rules: dict[str, Any], listing: bool) -> dict[str, Any]:
    """The count (and, when ``listing``, the list) of all solutions of ``puzzle``."""
    if listing:
        found = list(sudoku.solutions(puzzle, **rules))
        number = len(found)
    else:
        number = sudoku.count(puzzle, None, **rules)
    result: dict[str, Any] = {"puzzle": puzzle, "status": _STATUS[min(number, 2)], "count": number}
    if listing:
        result["solutions"] = found
    return result


def _report_none(number: int, clashes: list[tuple[int, int]]) -> None:
    where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in clashes)
    detail = f": clashing givens at {where}" if clashes else ""
    print(f"excover: puzzle {number} has no solution{detail}", file=sys.stderr)
