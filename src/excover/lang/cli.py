"""The ``excover run`` command: run a ``.cmb`` program.

``excover run FILE.cmb`` parses the whole program (included files too) and runs it,
printing what its commands print. ``-`` reads the program from standard input (includes
are then relative to the current directory). Errors print as ``file:line:column:
message`` with the offending line and a caret, and exit with status 2; nothing after the
error runs (a lexical, syntax or name error anywhere stops the program before it starts).

``--write-dlx PROBLEM=FILE`` runs the program's declarations, not its commands, and writes
the exact cover problem of PROBLEM to FILE in Knuth's DLX format, for ``excover count``.

A program is harmless by default (see :mod:`excover.lang.sandbox`): it reads only under
its own folder, writes only under the current folder or its own, replaces no file it did
not create, and runs no outside program; ``--allow-paths DIR``, ``--overwrite`` and
``--allow-external`` lift these restrictions.

A count stopped by ``--timeout`` or Ctrl-C says, after its method and route, the solutions
it had counted so far (the interpreter's record of it; ``complete`` false in ``--json``).

Exit status: 0 success; 1 stopped by ``--timeout``; 2 bad usage or an error in the
program (a refusal too); 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from excover.cli import common
from excover.cli.common import add_command, add_input, add_json, add_limits, add_progress
from excover.errors import UsageError
from excover.numbers import to_decimal

if TYPE_CHECKING:
    from collections.abc import Callable

    from excover.cli.options import RunOptions
    from excover.lang.errors import LangError
    from excover.lang.interp import Interpreter
    from excover.lang.parser import Program
    from excover.lang.sandbox import Permissions

__all__ = ["add_run_command"]

_DESCRIPTION = """\
Run a program of the .cmb description language (combine's): patterns drawn in ASCII art,
tile lists and tiling problems, then commands that count, solve or list the tilings.

  pattern domino = {**}
  problem board = constant 8x8 true [domino ~sym]
  count zdd board                     # board : (ZDD) 12988816 solutions

Statements: pattern, pattern3, tiles, tiles3, problem, problem3, assert, print, solve,
solve3, all, all3, count, count3, dimacs, debug on|off, timing on|off, include, exit.
Methods: dlx, zdd, auto, sat "SOLVER". include "excover:pentominoes" (hexominoes,
hexiamonds, pentahexes, pentacubes, soma, ...) takes a set of pieces from excover's
catalog, from any folder. The language: docs/language.md.

Each count, solve and all names on stderr the method and the engine or route that ran, as
'excover count' does (file:line: count NAME: method auto, route bits: ...); --quiet or
--json silences these lines. With --json, stdout gets one document of the shared schema whose
"results" hold one entry per command (count, solve, all, print, assert, dimacs, exit)
with its statement, file, line, method (a count's engine and route too) and result;
after an error it also holds "error" (file, line, column, message). Each command of the
program names its own method, so the document's "method" is null.

A program is harmless by default, as a downloaded document should be: it reads (include)
only files under its own folder, writes (svg, dimacs) only under the current folder or its
own, replaces no file that the run did not create, and runs no outside program. A refusal
is an error naming the path and the switch that lifts it: --allow-paths DIR (read and
write under DIR too), --overwrite, --allow-external. Includes read each file once, at most
1000 files, 100 deep, 16 MiB and 100,000 tokens in all. What a program makes is bounded
too: frames of 16,777,216 cells, 512 MiB in all. See docs/security.md and the limits of
docs/language.md."""

_EPILOG = """\
A count stopped by --timeout or Ctrl-C prints its solutions so far (a lower bound) on
stderr: 'FILE:LINE: count NAME: stopped by --timeout after S s (N solutions so far)'.

exit status: 0 success; 1 stopped by --timeout; 2 bad usage or an error in the program
(file:line:column: message on stderr, with the line and a caret); 130 interrupted by
Ctrl-C."""


def add_run_command(commands: Any) -> None:
    """Add ``run`` to the command's sub-parsers."""
    run = add_command(
        commands,
        "run",
        help="run a .cmb program (combine's description language)",
        description=_DESCRIPTION,
        epilog=_EPILOG,
    )
    add_input(run, "the program (.cmb)")
    run.add_argument(
        "--debug",
        action="store_true",
        help="start with 'debug on': print the exact cover size before each command "
        "(and the ZDD size, on stderr, for count zdd)",
    )
    run.add_argument(
        "--timing",
        action="store_true",
        help="start with 'timing on': print the time of each count, solve and all",
    )
    run.add_argument(
        "--parse-only",
        action="store_true",
        help="parse and check the program (syntax, includes, names) without running it",
    )
    run.add_argument(
        "--allow-external",
        action="store_true",
        help='let the program run outside SAT solvers (sat "ext:CMD", sat "COMMAND")',
    )
    run.add_argument(
        "--allow-paths",
        action="append",
        default=[],
        type=_folder,
        metavar="DIR",
        help="let the program read and write under DIR too (repeatable)",
    )
    run.add_argument(
        "--overwrite",
        action="store_true",
        help="let the program replace files that exist (that this run did not create)",
    )
    run.add_argument(
        "--write-dlx",
        action="append",
        default=[],
        type=_problem_file,
        metavar="PROBLEM=FILE",
        help="write the exact cover problem of the program's PROBLEM (problem or problem3) to "
        "FILE in Knuth's DLX format (repeatable); the program's declarations run, its "
        "commands do not ('excover count FILE' counts the problem, with any flag of count)",
    )
    add_json(run)
    common.add_quiet(run)
    add_progress(run, "the placements of each problem being built")
    add_limits(run, limit=False, max_nodes=False)
    each = "each command of a program says it (count dlx NAME, count zdd NAME, solve ...)"
    common.add_refused(
        run,
        {
            "method": f"the method is the program's: {each}",
            "engine": "a program's commands take the engine auto picks; --write-dlx PROBLEM=FILE "
            "writes a problem, which 'excover count FILE --engine E' runs",
            "workers": "a program runs its commands in this process; --write-dlx PROBLEM=FILE "
            "writes a problem, which 'excover count FILE --workers N' counts on N processes",
            "stats": "--timing prints the time of each command and --debug the size of each "
            "problem",
            "up_to_symmetry": "a program asks for it command by command "
            "(count dlx NAME ~up_to_symmetry)",
            "break_symmetry": "a program's counts break the board's symmetry by default, "
            "command by command: count dlx NAME ~no_break_symmetry counts without",
            "limit": "each command says how many solutions it wants (solve: one, all: every "
            "one, count: the number)",
            "max_nodes": "a program's commands are bounded by --timeout alone",
            "preprocess": "a program's commands search its problems as built; --write-dlx "
            "PROBLEM=FILE writes a problem, which 'excover count FILE --preprocess' counts",
        },
    )
    run.set_defaults(run=_run)


def _problem_file(text: str) -> tuple[str, str]:
    """``PROBLEM=FILE``, for ``--write-dlx``."""
    name, equals, path = text.partition("=")
    if not (name and equals and path):
        raise argparse.ArgumentTypeError(
            f"write PROBLEM=FILE (a problem's name, '=', a file), not {text!r}"
        )
    return name, path


def _folder(text: str) -> str:
    """An existing folder, for ``--allow-paths``."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def _permissions(args: argparse.Namespace) -> Permissions:
    from excover.lang.sandbox import Permissions

    return Permissions(
        allow_external=args.allow_external,
        allow_paths=tuple(args.allow_paths),
        overwrite=args.overwrite,
    )


def _load(path: str, permissions: Permissions) -> Program:
    """The program in ``path`` (``-``: standard input, whose folder is the current one)."""
    from excover.cli.kinds import other_kind
    from excover.lang.errors import LangError, Source
    from excover.lang.parser import parse, parse_file  # lark: only when a program runs

    if path != "-":
        try:
            return parse_file(path, permissions=permissions)
        except LangError:
            hint = other_kind(path, "run")
            if hint is not None:
                raise UsageError(f"{hint}; 'excover run' runs .cmb programs") from None
            raise
    try:
        text = sys.stdin.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise LangError(f"cannot read standard input: {exc}", Source("<stdin>", "").end()) from None
    return parse(text, "<stdin>", permissions=permissions)


def _build_bars(run: RunOptions) -> Callable[[str, int, int], None] | None:
    """A progress bar for each problem whose placements take long to find (a big board),
    when the command line wants bars; None when it does not."""
    from excover.cli.progress import Progress, progress, wanted

    if not wanted(run):
        return None
    bars: dict[str, Progress] = {}

    def report(name: str, done: int, total: int) -> None:
        bar = bars.get(name)
        if bar is None:
            bar = bars[name] = progress(run, total=total, desc=f"placing {name}", unit="shape")
        bar.set(done, total)
        if done == total:
            bar.close()

    return report


def _write_dlx(interpreter: Interpreter, program: Program, targets: list[tuple[str, str]]) -> None:
    """``--write-dlx PROBLEM=FILE``: run the program's declarations (not its commands, up
    to an ``exit``), then write each PROBLEM's exact cover to its FILE, saying so on
    stderr. A name the program does not declare is an error listing those it does."""
    interpreter.declare(program)
    known = {**interpreter.problems, **interpreter.problems3}
    for name, path in targets:
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            raise UsageError(
                f"--write-dlx: {program.source.name} declares no problem {name!r} "
                f"(its problems: {names})"
            )
        common.write_problem(interpreter.cover(known[name]), path, f"problem {name}")


def _say_how(record: dict[str, Any]) -> None:
    """Name on stderr the method and the engine or route of a count, solve or all of the
    program, as ``excover count`` does for its one count (``--quiet`` and ``--json``
    silence it)."""
    if record["statement"] not in ("count", "solve", "all"):
        return
    from excover.names import ENGINE_NAMES, METHOD_TRAITS

    method = record["method"]
    engine, route = record.get("engine"), record.get("route")
    if record.get("symmetry") is not None:
        how = f"symmetry: {record['symmetry']} (~no_break_symmetry counts without it)"
    elif route is not None:
        how = f"route {route['name']}: {route['reason']}"
    elif METHOD_TRAITS[method].solver and engine is not None:
        how = f"solver {engine}"
    elif engine is not None:
        how = ENGINE_NAMES.get(engine, "DXZ")
    else:
        how = "up to symmetry" if record.get("up_to_symmetry") else ""
    where = f"{record['file']}:{record['line']}: {record['statement']} {record['problem']}"
    print(f"excover: {where}: method {method}" + (f", {how}" if how else ""), file=sys.stderr)


def _exact(entry: dict[str, Any]) -> dict[str, Any]:
    """A statement's result for JSON, its count (if any) exact at any size."""
    if isinstance(entry.get("count"), int):
        entry["count"] = common.exact(entry["count"])
    return entry


def _say_stopped(results: list[dict[str, Any]], timeout: float | None) -> None:
    """Say on stderr that ``--timeout`` (after ``timeout`` seconds) or Ctrl-C (``timeout``
    None) stopped the program and, when a count was running, its solutions so far."""
    cause = "interrupted" if timeout is None else f"stopped by --timeout after {timeout:g} s"
    stopped = results[-1] if results and results[-1].get("complete") is False else None
    if stopped is None:
        print(f"excover: {cause}", file=sys.stderr)
        return
    found = stopped["count"]
    detail = "no partial count" if found is None else f"{to_decimal(found)} solutions so far"
    where = f"{stopped['file']}:{stopped['line']}: count {stopped['problem']}"
    print(f"excover: {where}: {cause} ({detail}); the result is partial", file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    from excover.cli.options import RunOptions
    from excover.lang.errors import LangError
    from excover.lang.interp import Interpreter

    run = RunOptions.read(args)
    permissions = _permissions(args)
    interpreter = Interpreter(
        deadline=run.deadline,
        debug=args.debug,
        timing=args.timing,
        quiet=args.json,
        on_build=_build_bars(run),
        on_record=None if args.json or args.quiet else _say_how,
        permissions=permissions,
    )
    error: LangError | None = None
    interrupted = timed_out = False
    if args.write_dlx:
        for dest in ("parse_only", "json"):
            common.refuse(args, dest, "does not go with --write-dlx, which writes problems")
    try:
        with common.deadline(run.time_left()):
            program = _load(args.file, permissions)
            if args.write_dlx:
                _write_dlx(interpreter, program, args.write_dlx)
            elif args.parse_only and not args.json:
                print(f"{program.source.name}: ok, {len(program.statements)} statements")
        if not (args.write_dlx or args.parse_only):
            interpreter.run(program)  # under alarms of its own, up to the same deadline
    except LangError as exc:
        error = exc
    except KeyboardInterrupt:
        interrupted = True
    except common.TimeUp:
        timed_out = True
    sys.stdout.flush()
    if args.json:
        stopped_by = "interrupt" if interrupted else "timeout" if timed_out else None
        results = [_exact({"complete": True, **entry}) for entry in interpreter.results]
        document = common.document("run", None, None, stopped_by, input=args.file, results=results)
        if error is not None:
            document["error"] = {
                "file": error.pos.source.name,
                "line": error.pos.line,
                "column": error.pos.column,
                "message": error.message,
            }
        print(json.dumps(document))
    if interrupted or timed_out:
        _say_stopped(interpreter.results, args.timeout if timed_out else None)
        return 130 if interrupted else 1
    if error is not None:
        print(error.report(), file=sys.stderr)
        return 2
    return 0
