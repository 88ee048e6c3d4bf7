"""The ``excover unique`` command: make a tiling puzzle have exactly one solution.

``excover unique FILE`` reads a tiling, a ``.cmb`` program (its last problem, or
``--problem NAME``; the program's declarations run, its commands do not) or a board with
``--pieces PIECES`` (as ``excover count`` reads one), and prints what
:func:`excover.tiling.unique.make_unique` proposes: the fewest pieces to pre-place and the
fewest cells to remove so that exactly one solution is left, each proved by a count; for a
puzzle without solution, the cells no piece can cover. The command lives with the language
because it reads ``.cmb`` programs (``lang`` stands on ``tiling``, not the other way).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from excover.cli import common
from excover.errors import UsageError

if TYPE_CHECKING:
    from excover.tiling import Tiling
    from excover.tiling.unique import Proposal, Uniqueness

__all__ = ["add_unique_command"]

#: Proposals of each kind printed by default.
SHOWN = 10

_DESCRIPTION = """\
Make a tiling puzzle unique: propose the smallest changes that leave exactly one
solution, each proved by a count of the changed puzzle.

  pre-placed pieces  the fewest pieces to fix in place: every placement contained in
                     exactly one solution (then pairs, triples of them);
  removed cells      the fewest cells to take off the board, where the pieces' area
                     allows it: pieces that may be left out (maybe, any), or a board with
                     spare cells (larger than the pieces).

The solutions are listed once (at most --limit of them): the placements contained in one
listed solution are the proposals. Beyond the limit, each placement (each cell) is checked
by a count of its own, and larger changes only among the solutions listed. A puzzle with
no solution is told which cells no piece can cover, or that the pieces can cover every
cell but not together.

FILE is a .cmb program (its last problem, or --problem NAME) or, with --pieces PIECES, a
board to tile ('#' cells, '.' holes; as 'excover count FILE --pieces PIECES' reads it)."""

_EPILOG = f"""\
examples:
  excover unique examples/pentomino_rectangles.cmb --problem p3x20
  excover unique board.txt --pieces pieces.txt --multiplicity maybe --svg unique.svg
{
    common.exit_statuses(
        "--timeout, or --limit when it left a search incomplete",
        "the proposals proved so far printed",
        "nothing printed",
    )
}"""


def add_unique_command(commands: Any) -> None:
    """Add ``unique`` to the command's sub-parsers."""
    parser = commands.add_parser(
        "unique",
        help="make a tiling puzzle have exactly one solution (pieces to pre-place, cells to "
        "remove)",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=common.HelpFormatter,
    )
    common.add_input(parser, "the puzzle: a .cmb program, or a board with --pieces")
    parser.add_argument(
        "--problem",
        metavar="NAME",
        help="with a .cmb program: the problem to make unique (default: the last declared)",
    )
    common.add_board_flags(
        parser,
        "FILE is a board to tile with these pieces (one a line, a list of [row, col] "
        "cells, optionally named), as 'excover count' reads them",
    )
    parser.add_argument(
        "--max-pieces",
        type=common.positive_int,
        default=3,
        metavar="K",
        help="pre-place at most K pieces (default 3)",
    )
    parser.add_argument(
        "--max-cells",
        type=common.non_negative_int,
        default=4,
        metavar="K",
        help="remove at most K cells (default 4; 0: never remove cells)",
    )
    parser.add_argument(
        "--proposals",
        type=common.non_negative_int,
        default=SHOWN,
        metavar="N",
        help=f"prove and print at most N proposals of each kind (default {SHOWN}); the "
        "total is still said when the listing knows it",
    )
    common.add_svg(
        parser,
        "draw the first proposal as SVG to OUT: the board with the pre-placed pieces (or "
        "the removed cells dark); the solution itself when the puzzle is already unique",
    )
    common.add_limits(
        parser,
        limit="here: list at most N solutions of each problem searched (default 10000); "
        "beyond, each placement and cell is checked by a count of its own",
        max_nodes=False,
    )
    common.add_json(parser)
    reason = "'excover unique' searches by dancing links, the engine that suits the problem"
    common.add_refused(
        parser,
        {
            "method": reason,
            "engine": reason,
            "workers": "its searches are many and short; it runs them in this process",
            "stats": "the proposals say what was proved, each by a count",
            "up_to_symmetry": "each proposal is a change of the board as it lies",
            "break_symmetry": "each proposal is proved by counts of the board as it lies",
            "max_nodes": "its searches are bounded by --limit and --timeout",
            "progress": "its searches are many and short",
            "preprocess": reason,
            "quiet": "it says nothing on stderr but a stop or an error",
        },
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from excover.cli.options import RunOptions
    from excover.tiling.unique import DEFAULT_LIMIT, make_unique

    run = RunOptions.read(args)
    if args.pieces is None:
        common.refuse(args, "no_reflections", "needs --pieces (FILE is not a board)")
        common.refuse(args, "multiplicity", "needs --pieces (FILE is not a board)")
    else:
        common.refuse(args, "problem", "names a problem of a .cmb program, not of a board")
    try:
        with common.deadline(run.time_left()):
            name, tiling = _read(args)
    except common.TimeUp:
        print(f"excover: stopped by --timeout after {args.timeout:g} s", file=sys.stderr)
        return common.EXIT_LIMIT
    report = make_unique(
        tiling,
        limit=args.limit or DEFAULT_LIMIT,
        timeout=run.time_left(),
        max_pieces=args.max_pieces,
        max_cells=args.max_cells,
        max_proposals=args.proposals,
        remove=args.max_cells > 0,
    )
    if args.json:
        print(json.dumps(_document(args, name, report)))
    else:
        _print(name, report)
    if args.svg is not None:
        _draw(args.svg, report)
    if report.stopped_by == "limit" and args.limit is None:
        # the listing's own bound, not a --limit the user gave
        print(
            f"excover: stopped by the listing's limit of {DEFAULT_LIMIT:,} solutions (the "
            "default of --limit: raise it to search them all); the result is partial",
            file=sys.stderr,
        )
    else:
        common.say_stopped(report.stopped_by)
    return common.exit_status(report.stopped_by)


# ----- reading -----


def _read(args: argparse.Namespace) -> tuple[str, Tiling]:
    """The puzzle of the command line: its name and tiling."""
    if args.pieces is not None:
        from excover.tiling import Tiling

        tiling = Tiling.from_text(
            common.read_input(args.file),
            common.read_input(args.pieces),
            board_source=_source(args.file),
            pieces_source=_source(args.pieces),
            multiplicity=args.multiplicity or "one",
            reflections=not args.no_reflections,
        )
        return _source(args.file), tiling
    return _program_problem(args.file, args.problem)


def _source(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _program_problem(path: str, wanted: str | None) -> tuple[str, Tiling]:
    """The problem ``wanted`` of the ``.cmb`` program ``path`` (default: the last one it
    declares), from its declarations run up to an ``exit``, its commands not run."""
    from excover.cli.kinds import other_kind
    from excover.lang.errors import LangError
    from excover.lang.interp import Interpreter
    from excover.lang.parser import parse, parse_file

    if path == "-":
        text = common.read_input(path)
        program = parse(text, "<stdin>")
    else:
        try:
            program = parse_file(path)
        except LangError:
            hint = other_kind(path, "run")
            if hint is not None:
                raise UsageError(
                    f"{hint}; 'excover unique' takes a tiling: a .cmb program, or a board "
                    "with --pieces"
                ) from None
            raise
    interpreter = Interpreter(quiet=True)
    last = interpreter.declare(program)
    known = {**interpreter.problems, **interpreter.problems3}
    name = wanted if wanted is not None else last
    if name is None:
        raise LangError("the program declares no problem", program.source.end())
    if name not in known:
        names = ", ".join(sorted(known))
        raise UsageError(
            f"--problem: {program.source.name} declares no problem {name!r} (its problems: {names})"
        )
    problem = known[name]
    if problem.tiling is None:
        raise UsageError(
            f"problem {name} has no tiling: tile {problem.blocked} must be used and is larger "
            "than the board"
        )
    return name, problem.tiling


# ----- output -----


def _print(name: str, report: Uniqueness) -> None:
    """The report as text on stdout: the solutions of the puzzle as it stands (a board
    with spare cells, larger than the pieces, said to be one), the proposals of each
    kind, and, when there is none, that none was found and why."""
    listed = report.solutions
    spare = _spare_cells(report)
    notes = report.notes
    if spare is not None:
        area = len(report.tiling.cells)
        print(
            f"{name}: a board with {spare} spare cell{'s' if spare > 1 else ''}: no tiling "
            f"covers all {area} cells ({report.tiling.obstruction}): only removing cells can "
            "leave it one"
        )
        notes = [note for note in notes if not note.startswith("every cell can be covered")]
    elif report.listed_all:
        print(f"{name}: {_solutions(listed)}")
    else:
        print(f"{name}: more than {listed:,} solutions (the first {listed:,} listed)")
    if report.unique is not None:
        print("it has exactly one solution already:")
        print(report.unique.ascii())
    if report.uncoverable:
        cells = " ".join(report.tiling.grid.cell_name(cell) for cell in report.uncoverable)
        print(f"no piece can cover these cells: {cells}")
    for what, proposals, total in (
        ("pre-place", report.placed, report.placed_total),
        ("remove", report.removed, report.removed_total),
    ):
        if proposals:
            _print_proposals(what, proposals, total)
    if report.unique is None and not report.proposals:
        print("no proposal found" + (":" if notes else ""))
        for note in notes:
            print(f"  {note}")
        return
    for note in notes:
        print(note)


def _spare_cells(report: Uniqueness) -> int | None:
    """The cells a board has beyond the pieces' area (a board meant to keep holes,
    which has no tiling until that many are removed), when it has no tiling for that
    reason alone: every cell coverable, the pieces too few; else None."""
    from excover.tiling.tiling import area_obstruction

    tiling = report.tiling
    if report.solutions or not report.listed_all or report.uncoverable:
        return None
    if tiling.obstruction is None:
        return None
    area = len(tiling.cells)
    for spare in range(1, area):
        if area_obstruction(area - spare, tiling.tiles) is None:
            return spare
    return None


def _print_proposals(what: str, proposals: list[Proposal], total: int | None) -> None:
    size = len(proposals[0].placed) or len(proposals[0].removed)
    noun = ("piece" if what == "pre-place" else "cell") + ("s" if size > 1 else "")
    ways = f"{total:,} ways" if total is not None else f"at least {len(proposals):,} ways"
    print(f"{what} {size} {noun}: {ways}, each leaving exactly one solution (proved by a count):")
    for proposal in proposals:
        print(f"  {proposal.describe()}")
    if total is not None and total > len(proposals):
        print(f"  ... and {total - len(proposals):,} more (--proposals N shows more)")
    first = proposals[0]
    print("the first, and its solution:")
    print(first.ascii())
    print()
    print(first.ascii(solved=True))


def _solutions(count: int) -> str:
    return "no solution" if count == 0 else "1 solution" if count == 1 else f"{count:,} solutions"


def _document(args: argparse.Namespace, name: str, report: Uniqueness) -> dict[str, Any]:
    return common.document(
        "unique",
        "search",
        None,
        report.stopped_by,
        input=args.file,
        problem=name,
        **report.to_json(),
    )


def _draw(path: str, report: Uniqueness) -> None:
    """``--svg OUT``: the first proposal, or the one solution of a puzzle already unique."""
    if report.proposals:
        picture = report.proposals[0].svg()
    elif report.unique is not None:
        picture = report.unique.svg(each_piece=True)
    else:
        print(f"excover: no proposal to draw: {path} not written", file=sys.stderr)
        return
    common.write_file(path, picture)
