"""The conventions every ``excover`` subcommand shares, written once.

Each subcommand builds its parser from the flag helpers here (``add_input``,
``add_method``, ``add_limits``, ``add_workers``, ``add_progress``, ``add_json``,
``add_svg``, ``add_flag``) and adds only its own flags. The search flags are one table,
:data:`SEARCH_FLAGS`: the same flag has the same spelling, type, default and meaning on
every command that searches, which takes it or refuses it with its reason
(:func:`add_refused`: still parsed, then refused before the command runs):

* input: a file path, or ``-`` for standard input (:func:`read_input`);
* ``--method``, default ``auto`` as in the API;
* ``--limit N`` stops after N solutions (listed or counted: the result is then partial,
  ``complete`` false), ``--timeout S`` after S seconds of wall-clock time from the start
  of the command (:func:`start_clock`, :func:`stop_time`, :func:`time_left`) and
  ``--max-nodes N`` after N search nodes; ``--max-memory SIZE`` (:func:`add_max_memory`,
  on the commands that take ``--method zdd``) bounds the memory of the ZDD method;
* ``--json`` prints one document of the schema shipped beside this module
  (``schema.json``, version :data:`SCHEMA_VERSION`), built by :func:`document`;
* a flag that does not apply to the combination given is refused by :func:`refuse`
  (exit status 2, saying why), never ignored.

Exit statuses (:func:`exit_status`): :data:`EXIT_OK` 0 done, :data:`EXIT_LIMIT` 1 a
result cut short (a count stopped by ``--timeout``, ``--max-nodes``, ``--max-memory`` or
``--limit``, a listing by ``--timeout``, ``--max-nodes`` or ``--max-memory``; marked
partial), :data:`EXIT_USAGE` 2 bad
usage or input, :data:`EXIT_RESOURCE` 3 a resource limit (memory, ZDD nodes),
:data:`EXIT_INTERRUPT` 130 Ctrl-C (partial result printed), :data:`EXIT_BROKEN_PIPE` 141
the reader of stdout left.

This module imports nothing heavy: building the whole parser must stay cheap, because
``excover --version`` and a count of a tiny file are meant to start as fast as Python.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Mapping

from excover.deadlines import TimeUp
from excover.deadlines import alarm as deadline
from excover.errors import UsageError
from excover.numbers import json_count

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from typing import IO, Any, NoReturn

__all__ = [
    "EPILOG_SHORT",
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERRUPT",
    "EXIT_LIMIT",
    "EXIT_OK",
    "EXIT_RESOURCE",
    "EXIT_USAGE",
    "METHODS",
    "SCHEMA_VERSION",
    "SEARCH_FLAGS",
    "STOPS",
    "STOP_CAUSES",
    "Flag",
    "HelpFormatter",
    "JsonStream",
    "Parser",
    "Refused",
    "TimeUp",
    "add_flag",
    "add_input",
    "add_json",
    "add_limits",
    "add_max_memory",
    "add_method",
    "add_progress",
    "add_quiet",
    "add_refused",
    "add_svg",
    "add_workers",
    "add_write_dlx",
    "check_refused",
    "counting",
    "deadline",
    "did_you_mean",
    "document",
    "exact",
    "exit_status",
    "exit_statuses",
    "memory_size",
    "non_negative_int",
    "numbered",
    "positive_int",
    "read_input",
    "refuse",
    "say_method",
    "say_stopped",
    "seconds",
    "start_clock",
    "stop_time",
    "terminal_columns",
    "time_left",
    "workers_count",
    "write_file",
]


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter for descriptions laid out by hand, as wide as the terminal,
    found without ``shutil``: argparse's own formatter imports it (and ``bz2``, ``lzma``
    and ``zlib`` behind it) for every argument added, which is about 2 ms of the start-up
    of every run, asked for help or not. Every parser of the command uses this one."""

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


EXIT_OK, EXIT_LIMIT, EXIT_USAGE, EXIT_RESOURCE = 0, 1, 2, 3
EXIT_INTERRUPT, EXIT_BROKEN_PIPE = 130, 141

#: A parser or an argument group: either takes the shared flags.
Container = argparse._ActionsContainer

#: The solving methods of every subcommand that solves an exact cover problem.
METHODS = ("auto", "dlx", "zdd", "sat")

#: The version of the JSON documents printed by ``--json`` (``schema.json``).
SCHEMA_VERSION = 1

#: How the command line names each reason for a run to stop early.
STOP_CAUSES = {
    "limit": "stopped by --limit",
    "max_nodes": "stopped by --max-nodes",
    "max_memory": "stopped by --max-memory",
    "timeout": "stopped by --timeout",
    "interrupt": "interrupted",
}

#: What stops a count early, with exit status 1, on every command that counts.
STOPS = "--timeout, --max-nodes or --limit"


def exit_statuses(
    stops: str | None = STOPS,
    partial: str = "the result so far printed, marked partial",
    interrupt: str = "the result so far printed, marked partial",
) -> str:
    """The exit statuses of a command, for the end of its --help: ``stops`` names what
    stops it early with status 1 (None: nothing does) and ``partial`` what is printed
    then, ``interrupt`` what Ctrl-C leaves."""
    lines = ["exit status: 0 done;"]
    if stops is not None:
        lines.append(f"1 stopped by {stops} ({partial});")
        if "--limit" in stops:
            lines.append("  a listing that printed the N solutions --limit asked for is done: 0;")
    lines.append("2 bad usage or input; 3 a resource limit (memory);")
    lines.append(f"130 Ctrl-C ({interrupt}).")
    return "\n".join(lines)


#: The end of every command's --help.
EPILOG_SHORT = exit_statuses() + "\n--json documents follow one schema: 'excover schema' prints it."

# --------------------------------------------------------------------------- argument types


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of at least 0."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, not {text!r}")
    return value


#: The units of :func:`memory_size`: powers of 1024 (``K``, ``KB`` and ``KiB`` alike).
_SIZE_UNITS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4}


def memory_size(text: str) -> int:
    """An argparse type: an amount of memory, a number of bytes or one followed by ``K``,
    ``M``, ``G`` or ``T`` (powers of 1024; ``B``, ``iB`` and lower case allowed:
    ``512M``, ``1.5GiB``, ``2g``); ``0`` for no bound."""
    body = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = body[-1:] if body[-1:] in _SIZE_UNITS else ""
    number = body[: len(body) - len(unit)].strip()
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an amount of memory: {text!r} (say 512M, 2G, or a number of bytes)"
        ) from None
    size = value * 1024 ** _SIZE_UNITS[unit]
    if not 0 <= size < 2**63:  # also rejects nan and inf
        raise argparse.ArgumentTypeError(f"must be a non-negative amount, not {text!r}")
    return int(size)


def workers_count(text: str) -> int:
    """An argparse type: a number of worker processes, from 1 to
    :func:`excover.parallel.workers.most_workers` (a few per CPU of the machine)."""
    value = positive_int(text)
    from excover.parallel.workers import WORKERS_PER_CPU, most_workers

    most = most_workers()
    if value > most:
        raise argparse.ArgumentTypeError(
            f"must be at most {most} ({WORKERS_PER_CPU} per CPU of this machine), not {text}: "
            "more processes than CPUs only share them; to count on more machines, give "
            "'excover count' a Dask cluster (--dask ADDRESS)"
        )
    return value


def seconds(text: str) -> float:
    """An argparse type: a finite, non-negative number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value < 1e9:  # also rejects nan and inf
        raise argparse.ArgumentTypeError(f"must be a non-negative number, not {text!r}")
    return value


# --------------------------------------------------------------------------- the shared flags


class Flag:
    """A search flag shared by every command that searches: how it is spelt, its
    argparse keywords (type, metavar, action), and its ``meaning``, the sentence every
    command's help starts with (a command adds only what is its own after a ``;``)."""

    def __init__(self, options: tuple[str, ...], meaning: str, **keywords: Any) -> None:
        self.options = options
        self.meaning = meaning
        self.keywords = keywords

    @property
    def spelling(self) -> list[str]:
        """Every option string of the flag (``--progress`` and ``--no-progress``)."""
        if self.keywords.get("action") is argparse.BooleanOptionalAction:
            return [*self.options, *(f"--no-{option[2:]}" for option in self.options)]
        return list(self.options)


#: The search flags: the same spelling and meaning on every command that searches
#: (``count``, ``solve``, ``estimate``, ``queens``, ``sudoku``, ``nonogram``, ``run``),
#: which takes each of them or refuses it with its reason (:func:`add_refused`).
#: tests/test_cli_flags.py walks every parser against this table.
SEARCH_FLAGS: dict[str, Flag] = {
    "method": Flag(
        ("--method",),
        "the solving method; auto (the default, as in the API) takes the one that suits the "
        "problem and stderr names the one that ran",
        default="auto",
    ),
    "engine": Flag(
        ("--engine",),
        "the engine of a dancing-links search (--method dlx or auto): dlx = dancing links "
        "(Knuth's statistics exactly); bits = the bit-parallel engine (several times faster, "
        "the same search tree); cells = dancing cells (sparse sets; no multiplicities); auto "
        "= the one that suits the problem (the default)",
        choices=["auto", "dlx", "bits", "cells"],
    ),
    "workers": Flag(
        ("--workers",),
        "count on N processes, the problem cut into parts whose counts add up (the total is "
        "exact, the same for any N); at most 8 per CPU of the machine",
        type=workers_count,
        metavar="N",
    ),
    "stats": Flag(
        ("--stats",),
        "print the statistics of the run on stderr: solutions, nodes, updates, time, "
        "algorithm, engine, heuristic, search (complete or what stopped it), and per method "
        "amo, group order, workers, subproblems, puzzles, done; nodes and updates are "
        "followed by their definition in the engine or route that ran (every figure: "
        "docs/cli.md, Statistics)",
        action="store_true",
    ),
    "up_to_symmetry": Flag(
        ("--up-to-symmetry",),
        "take solutions that a symmetry of the problem maps onto each other as one (its "
        "automorphism group, found automatically; needs excover[symmetry])",
        action="store_true",
    ),
    "timeout": Flag(
        ("--timeout",),
        "stop once this many seconds (wall clock) have passed since the command started, the "
        "result so far printed and marked partial (exit status 1)",
        type=seconds,
        metavar="SECONDS",
    ),
    "limit": Flag(
        ("--limit",),
        "stop after N solutions: a listing prints at most N (exit status 0), a count stops "
        "at N and is marked partial (exit status 1)",
        type=positive_int,
        metavar="N",
    ),
    "max_nodes": Flag(
        ("--max-nodes",),
        "stop after N nodes of the search tree, the result so far printed and marked partial "
        "(exit status 1)",
        type=non_negative_int,
        metavar="N",
    ),
    "progress": Flag(
        ("--progress",),
        "show a progress bar (tqdm) on stderr once a run has lasted a second, or never "
        "(default: only when stderr is a terminal)",
        action=argparse.BooleanOptionalAction,
    ),
    "preprocess": Flag(
        ("--preprocess",),
        "shrink the problem before the search, as Knuth's DLX-PRE: options that can be in "
        "no solution and redundant items removed, the solutions the same; --stats says "
        "what it removed. By default only count --method auto does it, on its own, once "
        "its search projects a long count (it pays on large searches only); "
        "--no-preprocess stops that too",
        action=argparse.BooleanOptionalAction,
    ),
    "quiet": Flag(
        ("--quiet",),
        "say nothing on stderr about how the run went (the method, engine and route that "
        "ran); errors, warnings and the mark of a partial result are still printed",
        action="store_true",
    ),
    "json": Flag(
        ("--json",),
        f"print one JSON document (schema version {SCHEMA_VERSION}, the same for every command: "
        "see 'excover schema')",
        action="store_true",
    ),
}


def add_flag(parser: Container, name: str, detail: str | None = None, **keywords: Any) -> None:
    """Add the shared flag ``name`` of :data:`SEARCH_FLAGS`, its help the shared meaning
    followed by ``detail`` (what is this command's own); ``keywords`` add to argparse's
    (``choices``, a ``default``)."""
    flag = SEARCH_FLAGS[name]
    help = flag.meaning if detail is None else f"{flag.meaning}; {detail}"
    parser.add_argument(*flag.options, help=help, **{**flag.keywords, **keywords})


class Refused(argparse.Action):
    """A shared flag a command does not take: parsed as everywhere (so that it is spelt
    the same and its value checked the same), then refused before the command runs, by
    :func:`check_refused`, with the reason its help gives."""

    def __init__(self, option_strings: list[str], dest: str, reason: str, **kwargs: Any) -> None:
        self.reason = reason
        if kwargs.get("nargs") is None and kwargs.pop("takes_value", True) is False:
            kwargs["nargs"] = 0
        kwargs.pop("takes_value", None)
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        refused = dict(getattr(namespace, "refused_flags", None) or {})
        refused[option_string or self.option_strings[0]] = self.reason
        namespace.refused_flags = refused
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


def add_refused(parser: argparse.ArgumentParser, reasons: Mapping[str, str]) -> None:
    """Add the shared flags that ``parser``'s command does not take, each refused with
    its reason (``reasons``: flag name to a sentence saying why), in a group of their own
    at the end of the command's help."""
    command = parser.prog.split()[-1]
    group = parser.add_argument_group(f"search flags that {command} does not take")
    for name, reason in reasons.items():
        flag = SEARCH_FLAGS[name]
        parsing = {key: flag.keywords[key] for key in ("type", "metavar") if key in flag.keywords}
        takes_value = "type" in flag.keywords or "choices" in flag.keywords
        group.add_argument(
            *flag.spelling,
            action=Refused,
            reason=f"does not apply to {command}: {reason}",
            takes_value=takes_value,
            help=f"not taken: {reason}",
            **parsing,
        )


def check_refused(args: argparse.Namespace) -> None:
    """Refuse, before the command runs, a shared flag it does not take (see
    :class:`Refused`), saying why."""
    for option, reason in (getattr(args, "refused_flags", None) or {}).items():
        raise UsageError(f"{option} {reason}")


def add_input(parser: Container, what: str = "the problem") -> None:
    """The positional input: a file, or ``-`` for standard input."""
    parser.add_argument("file", metavar="FILE", help=f"{what}; '-' reads standard input")


def add_method(
    parser: argparse.ArgumentParser,
    choices: tuple[str, ...] = METHODS,
    help: str | None = None,
) -> None:
    """``--method``, default ``auto`` (the API's default); ``help``: what the methods of
    this command are."""
    add_flag(
        parser,
        "method",
        help
        or "dlx: dancing links; zdd: the ZDD of all solutions (DXZ, or the frontier count); "
        "sat: a SAT encoding",
        choices=list(choices),
    )


def add_limits(
    parser: argparse.ArgumentParser,
    *,
    limit: bool | str = True,
    timeout: bool = True,
    max_nodes: bool = True,
) -> None:
    """``--limit``, ``--timeout`` and ``--max-nodes``: the bounds of any search (``limit``
    may be the command's own addition to the shared meaning)."""
    if limit:
        add_flag(parser, "limit", None if limit is True else limit)
    if timeout:
        add_flag(parser, "timeout")
    if max_nodes:
        add_flag(parser, "max_nodes")


def add_max_memory(parser: Container) -> None:
    """``--max-memory SIZE``: the memory bound of the ZDD method, the same on every
    command that takes ``--method zdd`` (refused with the other methods, which hold no
    tables that grow with the problem)."""
    parser.add_argument(
        "--max-memory",
        type=memory_size,
        metavar="SIZE",
        help="with --method zdd: stop once its tables (the ZDD's nodes, DXZ's memo, the "
        "frontier count's states) would hold more than SIZE bytes (512M, 4G, ...; 0: no "
        "bound), the result so far printed and marked partial (exit status 1); default: "
        "half of the machine's memory",
    )


def add_workers(parser: Container, help: str | None = None) -> None:
    """``--workers N`` (``help``: this command's own addition to the shared meaning)."""
    add_flag(parser, "workers", help)


def add_progress(parser: Container, help: str | None = None) -> None:
    """``--progress`` / ``--no-progress``: a progress bar on stderr (default: when stderr
    is a terminal; ``help``: what the bar shows on this command)."""
    add_flag(parser, "progress", help)


def add_json(parser: Container) -> None:
    """``--json``: one document of the shared schema on stdout."""
    add_flag(parser, "json")


def add_quiet(parser: Container) -> None:
    """``--quiet``: no line on stderr naming the method, engine or route that ran."""
    add_flag(parser, "quiet")


def add_svg(parser: Container, help: str) -> None:
    """``--svg OUT``: a picture of the result."""
    parser.add_argument("--svg", metavar="OUT", help=help)


def add_write_dlx(parser: Container, what: str) -> None:
    """``--write-dlx FILE``: write the exact cover problem of ``what`` in Knuth's DLX
    format instead of solving it (``excover count FILE`` then counts it)."""
    parser.add_argument(
        "--write-dlx",
        metavar="FILE",
        help=f"write the exact cover problem of {what} to FILE in Knuth's DLX format and stop "
        "(no search: 'excover count FILE' counts it, with any method or --workers)",
    )


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the optional flag stored at ``dest`` was given (every shared flag has a
    default of None or False)."""
    value = getattr(args, dest, None)
    return value is not None and value is not False


def refuse(args: argparse.Namespace, dest: str, why: str) -> None:
    """Refuse the flag stored at ``dest`` if it was given: a usage error saying ``why``."""
    if given(args, dest):
        flag = "--" + dest.replace("_", "-")
        raise UsageError(f"{flag} {why}")


# --------------------------------------------------------------------------- input and output


def read_input(path: str, binary: bool = False) -> Any:
    """The text (or bytes) of the file ``path``, or of standard input for ``-``."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    return data if binary else decode_input(data, name)


def decode_input(data: bytes, name: str) -> str:
    """The text of a file's bytes (UTF-8, a byte order mark skipped), read as ``name``."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {name}: not UTF-8 text") from None


def write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (for ``--svg`` and the like); failures are usage errors."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def numbered(out: str, many: int) -> list[str]:
    """The files of ``many`` puzzles' drawings or problems: ``out`` itself for one, else
    ``out`` numbered from 1 before its suffix (``OUT-1.svg``, ``OUT-2.svg``, ...)."""
    if many == 1:
        return [out]
    from pathlib import Path

    where = Path(out)
    return [str(where.with_name(f"{where.stem}-{k}{where.suffix}")) for k in range(1, many + 1)]


def exact(number: int) -> int | str:
    """A count for JSON: an int, or a decimal string when a double could not hold it
    (:func:`excover.numbers.json_count`: any size)."""
    return json_count(number)


def document(
    command: str,
    method: str | None,
    engine: str | None,
    stopped_by: str | None,
    **fields: Any,
) -> dict[str, Any]:
    """A JSON document of the shared schema: its envelope, then ``fields``."""
    head = {
        "schema": SCHEMA_VERSION,
        "command": command,
        "method": method,
        "engine": engine,
        "complete": stopped_by is None,
        "stopped_by": stopped_by,
    }
    if "count" in fields and isinstance(fields["count"], int):
        fields["count"] = exact(fields["count"])
    return {**head, **fields}


class JsonStream:
    """One JSON document whose list ``key`` is written entry by entry, as entries come
    (so ``--json`` streams too); :meth:`close` ends it with the envelope and ``fields``."""

    def __init__(self, out: IO[str], command: str, key: str = "solutions") -> None:
        import json  # here, not at the top: a run without --json spares the import

        self.out = out
        self.count = 0
        out.write(json.dumps({"schema": SCHEMA_VERSION, "command": command})[:-1])
        out.write(f", {json.dumps(key)}: [")
        out.flush()  # a reader sees at once that the run has started

    def add(self, entry: Any) -> None:
        """Write one entry of the list."""
        import json

        self.count += 1
        self.out.write(("," if self.count > 1 else "") + "\n" + json.dumps(entry))
        self.out.flush()

    def close(
        self, method: str | None, engine: str | None, stopped_by: str | None, **fields: Any
    ) -> None:
        """End the list and the document."""
        import json

        tail = document("", method, engine, stopped_by, **fields)
        del tail["schema"], tail["command"]
        self.out.write(f"\n], {json.dumps(tail)[1:]}\n")
        self.out.flush()


def say_method(args: argparse.Namespace, method: str, engine: str | None) -> None:
    """Tell on stderr which method (and engine) ran, unless ``--quiet``: stdout stays the
    result alone."""
    if getattr(args, "quiet", False):
        return
    print(f"excover: method {method}" + (f", {engine}" if engine else ""), file=sys.stderr)


def say_route(args: argparse.Namespace, route: dict[str, Any]) -> None:
    """Tell on stderr which counting route finished, why, and each route's time, unless
    ``--quiet``."""
    if getattr(args, "quiet", False):
        return
    work = ", ".join(f"{name} {done['seconds']:.3f} s" for name, done in route["work"].items())
    print(f"excover: route {route['name']}: {route['reason']}; {work}", file=sys.stderr)


def say_stopped(stopped_by: str | None, detail: str = "") -> None:
    """Tell on stderr that the run stopped early and its result is partial."""
    if stopped_by is None:
        return
    print(f"excover: {STOP_CAUSES[stopped_by]}{detail}; the result is partial", file=sys.stderr)


def counting(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a count (``count``, or ``--count`` of a puzzle)
    rather than for solutions listed."""
    return getattr(args, "command", None) == "count" or getattr(args, "count", False) is True


def exit_status(stopped_by: str | None, count: bool = True) -> int:
    """The exit status of a run that stopped for ``stopped_by`` (None: it finished).

    The rule of every command: a result cut short is partial, status 1. ``--limit``
    cuts a count short (``count`` true: the number printed is a lower bound), but a
    listing that printed the N solutions ``--limit`` asked for is done (0), although its
    JSON document says that more may exist (``complete`` false)."""
    if stopped_by == "interrupt":
        return EXIT_INTERRUPT
    if stopped_by in ("timeout", "max_nodes", "max_memory") or (stopped_by == "limit" and count):
        return EXIT_LIMIT
    return EXIT_OK


# --------------------------------------------------------------------------- time limits


def start_clock(args: argparse.Namespace, started: float) -> None:
    """Fix the run's deadline: ``--timeout`` seconds after ``started`` (a
    ``time.monotonic()`` value: when the command started), in ``args.deadline``. Every
    part of the run (reading and building the problem, searching, printing) spends from
    this one budget."""
    timeout = getattr(args, "timeout", None)
    args.deadline = None if timeout is None else started + timeout


def stop_time(args: argparse.Namespace) -> float | None:
    """The ``time.monotonic()`` value at which the run must stop (None: no ``--timeout``);
    the clock starts here when :func:`start_clock` was not called (a command run on its
    own, as tests do)."""
    if getattr(args, "timeout", None) is None:
        return None
    if getattr(args, "deadline", None) is None:
        start_clock(args, time.monotonic())
    deadline: float = args.deadline
    return deadline


def time_left(args: argparse.Namespace) -> float | None:
    """The seconds left before :func:`stop_time` (0 once it has passed; None: no limit),
    to hand to the API's ``timeout=`` arguments, which count wall-clock time from the
    call."""
    deadline = stop_time(args)
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def schema() -> Mapping[str, Any]:
    """The JSON Schema of ``--json`` documents, shipped in the package."""
    import json
    from importlib.resources import files

    text = files("excover.cli").joinpath("schema.json").read_text(encoding="utf-8")
    result: Mapping[str, Any] = json.loads(text)
    return result
