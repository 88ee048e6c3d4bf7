"""The ``excover design`` command: search a space of designs for those that meet a goal.

``excover design FILE.toml`` runs the search a declaration file describes
(:mod:`excover.design.fields`); ``excover design KIND --flag ...`` declares it on the
command line for the common case (each declaration flag gives the field of its name:
``--board 5x4x2`` is ``board = "5x4x2"``). The kinds of design are the domains': this
module, below them, knows none, and :mod:`excover.main` hands it a function per kind that
builds the space from a declaration (as it hands the problem commands their reader of
boards). The search is :func:`excover.design.search`; the report is printed as text or,
with ``--json``, as a document of the shared schema; ``--write DIR`` writes each
qualifying design as a ``.cmb`` program or an SVG picture. ``--dask ADDRESS`` searches
on the workers of a Dask scheduler (the search's ``executor=``), as ``excover count``
and ``excover disassemble`` run there.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from excover.cli import common
from excover.design.errors import DesignError
from excover.design.orders import ORDERS

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.cli.options import RunOptions
    from excover.design.fields import Declaration, Table
    from excover.design.report import Report
    from excover.design.space import DesignSpace

__all__ = ["add_design_command"]

#: Builds the space of one kind from a declaration.
Maker = Callable[["Declaration"], "DesignSpace"]

#: The qualifying designs printed by default.
SHOWN = 20

#: The declaration flags: each gives the field of its name (a kind refuses the fields
#: it does not know, naming the flag), with its help.
FIELD_FLAGS: dict[str, tuple[str, dict[str, Any]]] = {
    "board": ("the board or box to fill: WxH, WxHxD, or a drawing ('*' cells)", {}),
    "catalog": (
        "the pieces to choose from: pentominoes, hexominoes, pentacubes, soma, "
        "polyominoes:N, polycubes:A-B, ...; burrs: notchable (Cutler's 59 notchable "
        "pieces), general (the 837 pieces with any removable cubies) or a BurrTools file "
        "(FILE.xmpuzzle: its shapes), each followed by :N,N,... for some of them "
        "(numbered from 1)",
        {},
    ),
    "pieces": ("how many pieces a design has", {"type": common.positive_int, "metavar": "N"}),
    "copies": (
        "the most copies of one piece in a design (default 1; burrs: 6)",
        {"type": common.positive_int, "metavar": "N"},
    ),
    "turn": (
        "how pieces may be moved: all (rotations and reflections; default on the plane), "
        "rotations (default in space), none",
        {"choices": ["all", "rotations", "none"]},
    ),
    "use": (
        "boards: the pieces to place, by name, comma-separated (a name twice: two "
        "copies; default: every piece of the catalog once)",
        {},
    ),
    "length": (
        "burrs: the length of the sticks, 8 (the default) or 6",
        {"type": common.positive_int, "metavar": "N"},
    ),
    "result": (
        "burrs: what the pieces make: burr (the six-piece burr, the default) or a "
        "BurrTools file (FILE.xmpuzzle: the result of its first problem)",
        {"metavar": "RESULT"},
    ),
    "holes": (
        "burrs: the notchable voxels may stay empty (--holes, the default: holey burrs) "
        "or must all be filled (--no-holes: solid burrs)",
        {"action": argparse.BooleanOptionalAction},
    ),
}

#: The goal's flags: the field each gives.
GOAL_FLAGS = {
    "goal": "solutions",
    "top": "top",
    "by": "by",
    "order": "order",
    "least": "least",
    "most": "most",
    "every_solution": "up_to_symmetry",
}

#: A declaration file (the fields of :mod:`excover.design.fields`), shown by the
#: command's help.
EXAMPLE = """\
kind = "packing"
board = "5x4x2"
catalog = "pentacubes"
pieces = 8
[goal]
solutions = "unique"
[run]
ledger = "pentacubes.ledger"
"""

_DESCRIPTION = f"""\
Search a space of designs for those worth making: every design once up to the result's
symmetry and the pieces' own, each searched only as far as the goal needs (a second
solution ends a design when one is asked for), every outcome kept in a ledger so that a
stopped search resumes where it stopped.

DECLARATION is a TOML file declaring the search ('-': standard input), or a kind of
design declared by the flags below:
  packing   which sets of --pieces pieces of --catalog fill --board
  boards    which boards of as many cells as they have the pieces --use fill
  burrs     which burrs of pieces of --catalog come apart (the six-piece burr, or
            the --result of a BurrTools file)

A declaration file names the kind and its fields, the goal in a [goal] table and, if
wanted, how to run in a [run] table (workers, ledger, timeout, start, stop):
{"".join("  " + line for line in EXAMPLE.splitlines(True))}docs/design.md tells every field."""

_EPILOG = f"""\
examples:
  excover design packing --board 5x4 --catalog pentominoes --pieces 4
  excover design packing --board 5x4x2 --catalog pentacubes --pieces 8 --workers 2 \\
      --ledger pentacubes.ledger --progress
  excover design boards --catalog pentominoes --use L,P --goal unique --json
  excover design packing --board 5x4x2 --catalog pentacubes --pieces 8 \\
      --dask tcp://127.0.0.1:8786 --ledger pentacubes.ledger
  excover design search.toml --write designs --format svg
{
    common.exit_statuses(
        "--timeout",
        "the designs searched so far reported; the same command with --ledger resumes",
        "the designs searched so far reported and kept in the ledger",
    )
}"""


def add_design_command(commands: Any, kinds: Mapping[str, Maker]) -> None:
    """Add ``design`` to the command's sub-parsers; ``kinds`` builds the space of each
    kind of design from its declaration."""
    parser = common.add_command(
        commands,
        "design",
        "search a space of designs (sets of pieces, boards) for those with exactly one "
        "solution, at most N, or the best by a score",
        _DESCRIPTION,
        _EPILOG,
    )
    parser.add_argument(
        "declaration",
        metavar="DECLARATION",
        help=f"a TOML declaration file ('-': standard input), or a kind: {', '.join(kinds)}",
    )
    fields = parser.add_argument_group("the design (with a kind; a file declares its own)")
    for name, (text, keywords) in FIELD_FLAGS.items():
        fields.add_argument(f"--{name}", help=text, **keywords)
    goal = parser.add_argument_group("the goal (with a kind; a file declares its own)")
    goal.add_argument(
        "--goal",
        metavar="GOAL",
        help="unique (exactly one solution, the default), any (at least one), or N (at most N)",
    )
    goal.add_argument(
        "--every-solution",
        action="store_true",
        help="count solutions that a symmetry of the result maps onto each other as "
        "different (default: as one)",
    )
    goal.add_argument("--top", type=common.positive_int, metavar="K", help="keep the K best")
    goal.add_argument(
        "--by", metavar="SCORE", help="the score ranking them: solutions (default), nodes, ..."
    )
    goal.add_argument(
        "--order",
        choices=ORDERS,
        help="the highest or the lowest scores first (default: fewest solutions, highest "
        "other scores)",
    )
    goal.add_argument(
        "--least",
        metavar="SCORE",
        help="qualify only designs whose --by score is at least SCORE (a number, or a level "
        "such as 5.2: --by level --least 5 keeps 5, 5.4, 6, ...)",
    )
    goal.add_argument(
        "--most", metavar="SCORE", help="qualify only designs whose --by score is at most SCORE"
    )
    run = parser.add_argument_group("the run")
    run.add_argument(
        "--ledger",
        metavar="FILE",
        help="record every design's outcome in FILE (JSON lines) as it is found; if FILE "
        "holds the same search, take its outcomes and search only the rest (resume)",
    )
    run.add_argument(
        "--range",
        metavar="A:B",
        type=_index_range,
        help="search only the candidates numbered A to B-1 (a search cut into parts)",
    )
    common.add_workers(
        run, "here: the designs are searched on N processes, the report the same for any N"
    )
    run.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="search on the Dask scheduler at ADDRESS (such as tcp://127.0.0.1:8786), as "
        "'excover count --dask' counts: the ranges of candidates are searched by its "
        "workers (which need excover), the report the same as in this process; a worker "
        "lost mid-task costs time (Dask runs its task again elsewhere); the ledger, "
        "--timeout, --progress and Ctrl-C work as with --workers",
    )
    common.add_flag(run, "timeout", "the designs searched so far are reported (and kept)")
    common.add_progress(run, "here: the candidates done, designs, qualifying, time left")
    run.add_argument(
        "--show",
        type=common.non_negative_int,
        default=SHOWN,
        metavar="N",
        help=f"print the N best qualifying designs (default {SHOWN}), the first drawn",
    )
    run.add_argument(
        "--write",
        metavar="DIR",
        help="write each qualifying design the report lists to DIR (design-INDEX.cmb, "
        ".svg, .xmpuzzle or .stl)",
    )
    run.add_argument(
        "--format",
        choices=["cmb", "svg", "xmpuzzle", "stl"],
        help="with --write: a .cmb program (the default for packings) or an SVG picture of "
        "its solution; burrs: a BurrTools .xmpuzzle file, solved (their default), or their "
        "pieces to print side by side in one STL file (10 mm cubes; needs trimesh, the "
        "mesh extra)",
    )
    common.add_json(run)
    common.add_quiet(run)
    reason = "each design is settled by a search of its own, on the engine that suits it"
    common.add_refused(
        parser,
        {
            "method": reason,
            "engine": reason,
            "stats": "the report gives the designs' figures",
            "up_to_symmetry": "solutions are counted up to symmetry by default "
            "(--every-solution: each one)",
            "break_symmetry": reason,
            "limit": "the goal says how many solutions count (--goal N)",
            "max_nodes": "each design is searched as far as the goal needs",
            "preprocess": reason,
        },
    )
    parser.set_defaults(run=lambda args: _run(args, kinds))


def _index_range(text: str) -> tuple[int, int]:
    low, colon, high = text.partition(":")
    if not colon or not low.isdigit() or not high.isdigit() or int(low) > int(high):
        raise argparse.ArgumentTypeError(f"A:B with 0 <= A <= B, not {text!r}")
    return int(low), int(high)


def _declaration(args: argparse.Namespace, kinds: Mapping[str, Maker]) -> Declaration:
    """The declaration of the command line: a file, or a kind and its flags."""
    from excover.design.fields import parse_declaration, read_declaration

    fields = {name: getattr(args, name) for name in FIELD_FLAGS if getattr(args, name) is not None}
    goal = {
        field: getattr(args, dest)
        for dest, field in GOAL_FLAGS.items()
        if getattr(args, dest) not in (None, False)
    }
    source = args.declaration
    if source in kinds and not os.path.exists(source):
        return _from_flags(source, fields, goal)
    given = [*fields, *(dest for dest, field in GOAL_FLAGS.items() if field in goal)]
    if given:
        raise DesignError(
            f"--{given[0].replace('_', '-')} goes with a kind ({', '.join(kinds)}); "
            f"{source} declares the design"
        )
    if source == "-":
        return parse_declaration(common.read_input("-"), "<stdin>")
    if not os.path.exists(source):
        raise DesignError(
            f"no declaration file {source!r}, and no kind of design of that name "
            f"(the kinds: {', '.join(kinds)})"
        )
    return read_declaration(source)


def _from_flags(kind: str, fields: dict[str, Any], goal: dict[str, Any]) -> Declaration:
    """The declaration the flags make: the kind's fields and the goal's, each named by
    its flag in errors."""
    from excover.design.fields import Declaration, Table

    if "use" in fields:
        fields["use"] = [name.strip() for name in fields["use"].split(",") if name.strip()]
    if str(goal.get("solutions", "")).isdigit():
        goal["solutions"] = int(goal["solutions"])
    if goal.pop("up_to_symmetry", False):  # --every-solution
        goal["up_to_symmetry"] = False
    names = {field: f"--{dest.replace('_', '-')}" for dest, field in GOAL_FLAGS.items()}
    source = "<command line>"
    return Declaration(
        kind,
        Table(fields, source, flags=True),
        Table(goal, source, flags=True, names=names),
        Table({}, source, flags=True),
        source,
    )


def _run(args: argparse.Namespace, kinds: Mapping[str, Maker]) -> int:
    from excover.cli.options import RunOptions
    from excover.design.goal import Goal
    from excover.design.searching import search

    options = RunOptions.read(args)
    if args.dask is not None and args.workers is not None:
        raise DesignError("--workers does not go with --dask: the cluster has its workers")
    declaration = _declaration(args, kinds)
    maker = kinds.get(declaration.kind)
    if maker is None:
        raise declaration.fields.error(
            "kind", f"no kind of design {declaration.kind!r} (the kinds: {', '.join(kinds)})"
        )
    space = maker(declaration)
    goal = Goal.from_table(declaration.goal)
    goal.check_scores(space.scores, declaration.goal)
    settings = _settings(args, options, declaration.run, space.size)
    form = args.format or (space.formats[0] if space.formats else "cmb")
    if args.write is not None and form not in space.formats:
        written = ", ".join(space.formats) or "nothing"
        raise DesignError(f"--format {form}: {space.kind} designs are written as {written}")
    with contextlib.ExitStack() as claims:
        if args.dask is not None:
            from excover.cli.cluster import connect_dask

            settings["workers"] = None  # the cluster's workers, whatever [run] says
            settings["executor"] = claims.enter_context(connect_dask(args.dask))
        bar = _Bar(options)
        try:
            report = search(space, goal, progress=bar.show, **settings)
        finally:
            bar.close()
    if args.json:
        print(json.dumps(_document(args, report)))
    else:
        _print(space, report, args.show)
    if not args.quiet:
        _say_time(report, args.dask)
    if args.write is not None:
        _write(space, report, args.write, form, args.quiet)
    if report.stopped_by is not None and report.ledger is not None and not args.quiet:
        print(
            f"excover: the ledger {report.ledger} keeps what was done: the same command resumes",
            file=sys.stderr,
        )
    common.say_stopped(report.stopped_by)
    return common.exit_status(report.stopped_by)


def _settings(
    args: argparse.Namespace, options: RunOptions, run: Table, size: int
) -> dict[str, Any]:
    """The run's settings: the flags (the time left of the run's ``options``), else the
    declaration's [run] table."""
    workers = run.integer("workers", 1, least=1)
    ledger = run.text("ledger", None)
    timeout = run.number("timeout", None)
    start = run.integer("start", 0, least=0)
    stop = run.integer("stop", None, least=0)
    run.done()
    if args.range is not None:
        start, stop = args.range
    if stop is not None and stop > size:
        raise DesignError(f"the range ends at {stop}, past the {size:,} candidates")
    time_left = options.time_left()
    if args.timeout is None and timeout is not None:
        time_left = timeout
    return {
        "workers": args.workers or workers,
        "ledger": args.ledger or ledger,
        "timeout": time_left,
        "start": start,
        "stop": stop,
    }


class _Bar:
    """The progress bar (or JSON events) of the command line, fed by the search."""

    def __init__(self, options: RunOptions) -> None:
        from excover.cli.progress import progress

        self.bar = progress(options, desc="design", unit="candidate")

    def show(self, seen: Any) -> None:
        self.bar.set(
            seen.done, seen.total, left=seen.left, designs=seen.designs, qualifying=seen.qualifying
        )

    def close(self) -> None:
        self.bar.close()


# ----- output -----


def _document(args: argparse.Namespace, report: Report) -> dict[str, Any]:
    body = report.as_dict()
    del body["complete"], body["stopped_by"]
    return common.document(
        "design", "search", None, report.stopped_by, input=args.declaration, **body
    )


def _solutions(count: int) -> str:
    return "1 solution" if count == 1 else f"{count:,} solutions"


def _print(space: DesignSpace, report: Report, shown: int) -> None:
    """The report as text on stdout (the time it took goes to stderr: :func:`_say_time`)."""
    print(f"{report.kind}: {report.space}")
    print(f"goal: {report.goal.describe()}")
    whole = (report.start, report.stop) == (0, report.size)
    part = "" if whole else f" (candidates {report.start} to {report.stop - 1})"
    resumed = f", {report.resumed:,} of them from the ledger" if report.resumed else ""
    print(
        f"searched: {report.designs:,} designs in {report.candidates:,} candidates{part}{resumed}"
    )
    if report.rejected:
        reasons = ", ".join(f"{count:,} by {why}" for why, count in report.rejected.items())
        print(f"rejected before any search: {reasons}")
    spread = ", ".join(
        f"{key.rstrip('+')}{' or more' if key.endswith('+') else ''}: {count:,}"
        for key, count in report.distribution.items()
    )
    print(f"designs by solutions: {spread or 'none searched'}")
    print(f"qualifying: {report.qualifying:,} designs")
    listed = report.found[:shown]
    for rank, found in enumerate(listed, 1):
        scores = "".join(f", {name} {_score(value)}" for name, value in found.scores.items())
        print(f"  {rank}. {found.key}  ({_solutions(found.solutions)}{scores})")
    hidden = report.qualifying - len(listed)
    if hidden > 0:
        why = "--show N lists more" if len(report.found) > len(listed) else "not kept"
        print(f"  ... and {hidden:,} more ({why})")
    if listed:
        design = space.design(listed[0].index)
        picture = None if design is None else space.show(design)
        if picture:
            print("the first, solved:")
            print(picture)


def _score(value: object) -> str:
    """A score as text: ``1,291``, or a level's numbers joined by dots (``5.2.1``)."""
    if isinstance(value, tuple):
        return ".".join(f"{part:g}" for part in value)
    return f"{value:,}"


def _say_time(report: Report, dask: str | None) -> None:
    """The time the run took, on stderr (``dask``: the scheduler's address)."""
    workers = "1 process" if report.workers == 1 else f"{report.workers} processes"
    if dask is not None:
        threads = "1 worker thread" if report.workers == 1 else f"{report.workers} worker threads"
        workers = f"the Dask cluster at {dask} ({threads})"
    print(
        f"excover: {report.elapsed:.1f} s on {workers}; {report.seconds:.1f} s of search in all "
        "(earlier runs included)",
        file=sys.stderr,
    )


def _write(space: DesignSpace, report: Report, folder: str, form: str, quiet: bool) -> None:
    """Write each design the report lists to ``folder``."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DesignError(f"--write: cannot make {folder}: {exc.strerror or exc}") from None
    for found in report.found:
        design = space.design(found.index)
        if design is not None:
            space.write(design, form, path / f"design-{found.index}.{form}")
    if not quiet:
        print(f"excover: wrote {len(report.found)} designs to {folder}", file=sys.stderr)
