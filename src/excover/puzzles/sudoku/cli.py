"""The ``excover sudoku`` command: its input read and checked, its flags checked, the run
chosen.

PUZZLE|FILE is one puzzle, a file of puzzles (:mod:`excover.puzzles.sudoku.files`) or
``-`` for standard input; every puzzle is parsed on the board of the first before any is
solved, so that an error names its line. The runs themselves, and what they print, are
:mod:`excover.puzzles.sudoku.runs`'; ``--generate N`` makes puzzles instead
(:mod:`excover.puzzles.sudoku.generator`). The parser is :mod:`excover.puzzles.cli`'s.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any

from excover.cli import common
from excover.cli.common import refuse
from excover.errors import ExcoverWarning, ProblemError, UsageError
from excover.names import METHOD_TRAITS
from excover.puzzles.sudoku.files import PuzzleText, read_puzzles
from excover.puzzles.sudoku.runs import (
    SudokuReport,
    SudokuRequest,
    puzzle_cover,
    run_batches,
    run_each,
    run_plain_lines,
)

if TYPE_CHECKING:
    from excover.puzzles import sudoku
    from excover.puzzles.sudoku import killer

# --------------------------------------------------------------------------- sudoku input


def _puzzles(source: str, layout: str, text: str | None) -> tuple[list[PuzzleText], str | None]:
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
    return [PuzzleText(source)], None


def _regions(value: str | None) -> str | None:
    """A jigsaw map given on the command line, or read from the file it names."""
    if value is None or not os.path.exists(value):
        return value
    lines = common.read_input(value).splitlines()
    return "".join(ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#"))


def _checked_board(
    puzzles: list[PuzzleText], source: str | None, rules: dict[str, Any]
) -> sudoku.SudokuBoard:
    """The board of the puzzles (the first one's size, the digits of them all: a guess
    at them is told on stderr), every puzzle parsed on it: errors name the line."""
    from excover.puzzles import sudoku

    board: sudoku.SudokuBoard | None = None
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
            if source is None:  # an argument that names no file, nor reads as a puzzle
                raise UsageError(f"{puzzle.text}: no such file, and not a puzzle ({exc})") from None
            raise ProblemError(exc.message, source=source, line=puzzle.line) from None
    assert board is not None  # read_puzzles returns at least one puzzle
    return board


# --------------------------------------------------------------------------- sudoku runs


def _check_sudoku_flags(args: argparse.Namespace) -> tuple[SudokuRequest, bool]:
    """Refuse the flags the mode cannot honour; the run asked for, and whether the
    compiled batch solver runs it."""
    listing_all = args.all
    if args.classify:
        refuse(args, "limit", "does not go with --classify (two solutions settle it)")
    elif args.limit is not None and not args.count:
        listing_all = True  # --limit N lists up to N solutions of each puzzle, as --all does
    listing = args.count or listing_all
    if args.json or args.count or args.classify:
        refuse(args, "pretty", "shapes printed solutions: not with --json, --count, --classify")
    if not listing:
        refuse(
            args,
            "up_to_symmetry",
            "counts or lists classes of solutions: it goes with --count, --all or --limit",
        )
    batch = (
        METHOD_TRAITS[args.method].chooses and not listing and not args.cages and not args.write_dlx
    )
    if batch:
        grid = "the compiled grid solver that solves and classifies with --method auto"
        refuse(
            args, "max_nodes", f"counts dancing-links nodes: {grid} has none (use --method search)"
        )
        refuse(
            args, "engine", f"chooses a dancing-links engine: {grid} is none (use --method search)"
        )
        refuse(args, "max_memory", f"bounds the tables of --method zdd: {grid} has none")
    request = SudokuRequest.read(args, all=listing_all, classify=args.classify, pretty=args.pretty)
    return request, batch


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


def _generate(args: argparse.Namespace) -> int:
    """``--generate N``: print N puzzles, one per line, each as soon as it is made."""
    from excover.puzzles.sudoku.generator import generate_many

    if args.puzzle is not None:
        raise UsageError("--generate makes puzzles: give no PUZZLE|FILE with it")
    for dest in ("count", "all", "classify", "svg", "json", "cages", "limit", "max_nodes"):
        refuse(args, dest, "does not go with --generate")
    refuse(args, "max_memory", "does not go with --generate")
    refuse(args, "timeout", "does not go with --generate (Ctrl-C stops it)")
    if not METHOD_TRAITS[args.method].chooses:
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


def run(args: argparse.Namespace) -> int:
    """Run ``excover sudoku`` (its parser's ``run``): the exit status."""
    if args.generate is not None:
        return _generate(args)
    for dest in ("givens", "difficulty", "seed"):
        refuse(args, dest, "goes with --generate")
    if args.puzzle is None:
        raise UsageError("give a PUZZLE, a FILE or '-' for stdin (or --generate N)")
    request, batch = _check_sudoku_flags(args)
    text = None
    if args.puzzle == "-" or os.path.exists(args.puzzle):
        name = "<stdin>" if args.puzzle == "-" else args.puzzle
        data = common.read_input(args.puzzle, binary=True)
        if batch and _plain_lines_apply(args):
            done = run_plain_lines(data, name, request)
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
        from excover.puzzles.sudoku import killer

        if board.digits is not None:
            raise UsageError(
                f"killer cages sum the digits 1-9A-Z: not digits {board.digits} (--digits)"
            )
        del rules["digits"]  # the killer functions read the default digits
        cages = killer.read_cages(common.read_input(args.cages), board.size, args.cages)
    texts = [p.text for p in puzzles]
    if args.write_dlx is not None:
        covers = [puzzle_cover(text, rules, cages) for text in texts]
        paths = common.numbered(args.write_dlx, len(texts))
        return common.write_dlx(args, list(zip(covers, paths, strict=True)), "the sudoku puzzle")
    report = SudokuReport(request, source)
    try:
        if batch:
            outcome = run_batches(texts, rules, request, report)
        else:
            outcome = run_each(texts, rules, cages, request, report)
    finally:
        report.bar.close()
    if args.svg:
        _draw(args.svg, texts, report.results, cages, rules)
    return report.close(outcome, digits=board.symbols)


def _draw(
    out: str,
    texts: list[str],
    results: list[dict[str, Any]],
    cages: list[killer.Cage],
    rules: dict[str, Any],
) -> None:
    """Write one SVG per puzzle: ``out`` for one, ``out`` numbered from 1 for several."""
    from excover.puzzles import sudoku
    from excover.puzzles.sudoku import killer

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
