"""The parser of every ``excover`` command: help laid out by hand, as wide as the
terminal, and errors that suggest the nearest spelling of a mistyped option or choice;
:func:`add_command` adds a subcommand's parser so made.
"""

from __future__ import annotations

import argparse
import os
import sys

from excover.cli.status import EPILOG_SHORT, EXIT_USAGE, error_line
from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

    Commands = argparse._SubParsersAction[argparse.ArgumentParser]


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter for descriptions laid out by hand, as wide as the terminal,
    found without ``shutil``: argparse's own formatter imports it (and ``bz2``, ``lzma``
    and ``zlib`` behind it) for every argument added, a cost to the start-up of every
    run, asked for help or not. Every parser of the command uses this one."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2  # the margin argparse leaves
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors suggest the nearest spelling ("did you mean
    --method?") of a mistyped option or of a choice (``--method dxz``, a command name).
    ``excover``'s parser is one, and so is each command's (argparse makes subparsers of
    their parent's class)."""

    def error(self, message: str) -> NoReturn:
        super().error(message + did_you_mean(self, message))


def version_action(version: Callable[[], str]) -> type[argparse.Action]:
    """The action of ``--version``, which prints ``version()``, read only when asked; a
    version that cannot be read (a UsageError: EXCOVER_SIMD names a kernel this CPU
    cannot run) is an error line and exit status 2."""

    class Version(argparse.Action):
        def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
            super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

        def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
            try:
                text = version()
            except UsageError as error:
                parser.exit(EXIT_USAGE, error_line(error) + "\n")
            print(text)
            parser.exit()

    return Version


def did_you_mean(parser: argparse.ArgumentParser, message: str) -> str:
    """`` (did you mean X?)`` for each mistyped option or choice that argparse's error
    ``message`` names and that is close to one ``parser`` knows; empty when none is."""
    import difflib  # only on a usage error: not part of every run's start-up
    import re

    wrong: list[tuple[str, list[str]]] = []
    choice = re.search(r"invalid choice: '?([^'(]*?)'? \(choose from (.*)\)$", message)
    if choice is not None:
        listed = choice.group(2)
        known = re.findall(r"'([^']*)'", listed) or [c.strip() for c in listed.split(",")]
        wrong.append((choice.group(1), known))
    elif message.startswith("unrecognized arguments: "):
        options = list(parser._option_string_actions)
        for word in message.split(": ", 1)[1].split():
            if word.startswith("-"):
                wrong.append((word.split("=", 1)[0], options))
    hints = []
    for word, known in wrong:
        close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
        if close:
            hints.append(f"{close[0]} for {word}" if len(wrong) > 1 else close[0])
    return f" (did you mean {', '.join(hints)}?)" if hints else ""


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it: ``$COLUMNS`` when it
    is a positive number, else the width of the terminal on standard output, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


def add_command(
    commands: Commands,
    name: str,
    help: str,
    description: str,
    epilog: str | None = EPILOG_SHORT,
) -> argparse.ArgumentParser:
    """Add the parser of the subcommand ``name`` to ``commands`` (the sub-parsers of the
    ``excover`` parser) and give it back: ``help`` is its line in the list of commands,
    ``description`` the top of its ``--help`` (laid out by hand, :class:`HelpFormatter`),
    ``epilog`` the end (by default the exit statuses and the ``--json`` schema, as most
    commands end; None: nothing)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        formatter_class=HelpFormatter,
    )
    return parser
