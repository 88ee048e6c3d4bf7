"""The ``excover`` command: one program for every front door and every method.

This module is the top of the house (docs/architecture.md): it builds the parser of every
command and runs the one asked for. Each subcommand lives with its area (``count``,
``solve`` and ``dimacs`` in :mod:`excover.cli.exact_cover`, ``queens`` and ``sudoku`` in
:mod:`excover.puzzles.cli`, ``nonogram`` in :mod:`excover.nonogram.cli`, ``run`` in
:mod:`excover.lang.cli`, ``studio`` in :mod:`excover.studio.cli`, ``sequence`` in
:mod:`excover.sequences.cli`, ``design`` in :mod:`excover.design.cli`) and builds its parser
from the command line's toolkit (:mod:`excover.cli`), so that flags, output, the ``--json``
schema and exit statuses are the same everywhere. Each run reads its Namespace once, as
it starts, into typed options (:class:`excover.cli.options.RunOptions`, or a request of
its own) that it hands down; nothing makes or changes a Namespace after parsing. Results
go to stdout, messages to stderr; ``docs/cli.md`` describes the conventions.

Building the parser imports no engine, and ``excover --version`` builds none (nor imports
argparse): it starts about as fast as Python itself. A run of a command builds that
command's parser alone (or its group's) and imports what it runs.
"""

from __future__ import annotations

import os
import sys
import time

from excover.cli.status import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPT,
    EXIT_OK,
    EXIT_RESOURCE,
    EXIT_USAGE,
    error_line,
    exit_statuses,
)
from excover.errors import ExcoverError, ResourceLimitError, UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import NoReturn

    from excover.cli.exact_cover.problem_input import ProblemSource
    from excover.design import Declaration, DesignSpace
    from excover.solving import ExactCover

__all__ = ["command", "leave", "main", "program"]

_DESCRIPTION = """\
Exact cover: dancing links (Knuth's Algorithms X, C and M), ZDDs of all the solutions
(DXZ), SAT encodings, combine's .cmb tiling language, and puzzles.

examples:
  excover count examples/pento6x10.dlx --stats      count the solutions, with statistics
  excover count examples/pento6x10.dlx --workers 2  the same on two processes
  excover solve examples/pento6x10.dlx --limit 3    print three solutions
  excover run examples/caml.cmb                     a .cmb program: tile the camel
  excover queens 8 --count                          92
  excover sudoku 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
  excover nonogram examples/nonograms/heart.non     paint a nonogram"""

EPILOG = f"""\
conventions (every command): FILE or '-' for standard input; the search flags --method
--engine --workers --stats --up-to-symmetry --break-symmetry/--no-break-symmetry
--timeout --limit --max-nodes --progress/--no-progress --preprocess/--no-preprocess
--quiet --json mean the same on
every command that searches, which takes each or refuses it saying why; --json prints
one document of one versioned schema ('excover schema' prints it); solutions are printed
as they are found; a flag that does not apply is refused.
{exit_statuses()}
Run 'excover COMMAND --help' for the options of a command."""


def _version() -> str:
    """``excover VERSION (simd: KERNEL)``: the version and the Sudoku core's kernel."""
    from excover import __version__
    from excover.puzzles.sudoku.simd import simd_kernel

    return f"excover {__version__} (simd: {simd_kernel()})"


def _read_board(
    source: ProblemSource,
) -> tuple[ExactCover, Callable[[list[int], bool], str]]:
    """``FILE --pieces PIECES`` as a tiling (imported only when a board is given)."""
    from excover.tiling.cli import read_board

    return read_board(source)


def _tiling_design(declaration: Declaration) -> DesignSpace:
    """The space of packing designs a declaration declares (imported only when one is
    searched)."""
    from excover.tiling.designs import declared_space

    return declared_space(declaration)


def _burr_design(declaration: Declaration) -> DesignSpace:
    """The space of six-piece burr designs a declaration declares (imported only when
    one is searched)."""
    from excover.burr.designs import declared_space

    return declared_space(declaration)


#: The kinds of design ``excover design`` searches, and what builds each one's space:
#: the domains stand above :mod:`excover.design`, which names none of them.
_DESIGN_KINDS = {"packing": _tiling_design, "boards": _tiling_design, "burrs": _burr_design}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole ``excover`` parser (cheap: no engine is imported), or with ``only`` the
    parser of that one command or of its group (one of :data:`_LIGHT`), which spares a
    run of it the import of every other command's module: a problem command (``count``,
    ``solve``, ...) builds its own parser alone, the others their group's."""
    from importlib import import_module

    from excover.cli.common import HelpFormatter, Parser, version_action

    parser = Parser(
        prog="excover",
        description=_DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action=version_action(_version))
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", required=True
    )
    whole = only not in _LIGHT
    for module, function, names in _GROUPS:
        if whole or only in names:
            add = getattr(import_module(module), function)
            if names is _PROBLEM_COMMANDS:  # they read boards with the tiling package
                add(commands, _read_board, None if whole else only)
            elif module == "excover.design.cli":  # the kinds of design are the domains'
                add(commands, _DESIGN_KINDS)
            else:
                add(commands)
    return parser


#: The commands of :func:`excover.cli.exact_cover.parsers.add_problem_commands`.
_PROBLEM_COMMANDS = ("count", "solve", "dimacs", "estimate", "schema")

#: The groups of commands, in the order the whole parser lists them: the module and the
#: function that add a group, and the commands a run of which builds only that group's
#: parser, or its own for a problem command (see :func:`build_parser`; ``run`` always
#: builds the whole parser).
_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("excover.cli.exact_cover.parsers", "add_problem_commands", _PROBLEM_COMMANDS),
    ("excover.puzzles.cli", "add_puzzle_commands", ("queens", "sudoku")),
    ("excover.nonogram.cli", "add_nonogram_command", ("nonogram",)),
    ("excover.lang.cli", "add_run_command", ()),
    ("excover.studio.cli", "add_studio_command", ("studio",)),
    ("excover.sequences.cli", "add_sequence_command", ("sequence",)),
    ("excover.burr.cli", "add_disassemble_command", ("disassemble",)),
    ("excover.lang.unique_cli", "add_unique_command", ("unique",)),
    ("excover.design.cli", "add_design_command", ("design",)),
)

#: The commands whose runs build only their own parser, or their group's: their usage
#: lines, help and errors read the same as under the whole parser.
_LIGHT = tuple(name for _, _, names in _GROUPS for name in names)


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """The command line read by ``parser``; an argument no parser knows is an error
    shown with the usage of the command it was given to (argparse would show the whole
    program's)."""
    import argparse

    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = getattr(args, "command", None)
        commands = next(
            action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        )
        culprit = commands.choices.get(command, parser) if command else parser
        culprit.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _exit_status(exc: SystemExit) -> int:
    """The exit status a SystemExit asks for (argparse exits on --help, --version and errors)."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or EXIT_OK
    return EXIT_USAGE


def _detach_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the final flush stays quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``excover`` command with ``argv`` (default: ``sys.argv[1:]``).

    Returns the exit status instead of exiting, so tests can call it in-process.
    """
    started = time.monotonic()  # --timeout counts from here
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv == ["--version"]:  # the commonest quick question: answered without a parser
        try:
            print(_version())
        except UsageError as exc:  # EXCOVER_SIMD names a kernel this CPU cannot run
            print(error_line(exc), file=sys.stderr)
            return EXIT_USAGE
        return EXIT_OK
    import signal

    from excover.cli.common import check_refused

    # a run of a command that has a light parser of its own builds only that one (its
    # usage lines and errors are the same as under the whole parser)
    parser = build_parser(argv[0] if argv and argv[0] in _LIGHT else None)
    parser.set_defaults(started=started)  # the start of the clock of --timeout
    try:
        args = _parse(parser, argv)
    except SystemExit as exc:
        return _exit_status(exc)
    run: Callable[[argparse.Namespace], int] = args.run
    handler = signal.getsignal(signal.SIGINT)
    try:
        check_refused(args)
        return run(args)
    except (ResourceLimitError, MemoryError) as exc:
        sys.stdout.flush()
        print(f"excover: resource limit: {str(exc) or 'out of memory'}", file=sys.stderr)
        return EXIT_RESOURCE
    except ExcoverError as exc:
        print(error_line(exc), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("excover: interrupted", file=sys.stderr)
        return EXIT_INTERRUPT
    except BrokenPipeError:
        _detach_stdout()
        return EXIT_BROKEN_PIPE
    finally:
        if signal.getsignal(signal.SIGINT) is not handler:  # a run left its own handler
            signal.signal(signal.SIGINT, handler)


def _ignore_interrupts() -> None:
    """Ctrl-C ignored from now on (``signal`` is imported here: ``--version`` does without)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def command() -> NoReturn:
    """:func:`main`, then exit with its status (SystemExit, which a caller in the same
    process may catch; :func:`program` is the process's own entry). After an interrupted
    run no further Ctrl-C can cut the exit short (the report is printed, the checkpoint
    saved, the workers stopped: only the interpreter's exit is left)."""
    try:
        status = main()
        if status == EXIT_INTERRUPT:
            _ignore_interrupts()
    except KeyboardInterrupt:
        # a Ctrl-C that lands as the run ends, once main() has put the default handler
        # back: the same report and status as one that lands during the run
        _ignore_interrupts()
        print("excover: interrupted", file=sys.stderr)
        status = EXIT_INTERRUPT
    sys.exit(status)


def program() -> NoReturn:
    """The ``excover`` program, a process of its own (``python -m excover``, the
    ``excover`` script): :func:`command`, then the end of the process, without the
    interpreter's teardown when nothing is left for it to do (see :func:`leave`)."""
    try:
        command()
    except SystemExit as stop:
        leave(_exit_status(stop))


def leave(status: int) -> NoReturn:
    """End the process with ``status`` as the interpreter's exit would, less its teardown
    (every module and object freed one by one: 15-20 ms of CPU after a ZDD count, a
    twentieth of ``excover count queens13.dlx --method zdd``): the exit handlers run
    (:mod:`atexit`: coverage's, multiprocessing's, ``weakref.finalize``'s), the output is
    flushed, and the system takes the memory back at once. The files of a run are written
    in ``with`` blocks, closed by now. While another thread runs, or when a stream cannot
    be flushed (a closed pipe), it exits the ordinary way, which waits for the thread and
    reports the stream."""
    import atexit

    threading = sys.modules.get("threading")  # not imported: no thread was started by it
    if threading is not None and threading.active_count() > 1:
        sys.exit(status)
    atexit._run_exitfuncs()  # as the interpreter's exit would, in the same order
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe, a closed stream: the ordinary exit says so
        sys.exit(status)
    os._exit(status)
