"""How a run ends: its exit status, the reasons it may stop early, the end of every
command's ``--help`` that lists them, and the lines on stderr that tell how the run went.

Exit statuses (:func:`exit_status`): :data:`EXIT_OK` 0 done, :data:`EXIT_LIMIT` 1 a
result cut short (a count stopped by ``--timeout``, ``--max-nodes``, ``--max-memory`` or
``--limit``, a listing by ``--timeout``, ``--max-nodes`` or ``--max-memory``; marked
partial), :data:`EXIT_USAGE` 2 bad usage or input, :data:`EXIT_RESOURCE` 3 a resource
limit (memory, ZDD nodes), :data:`EXIT_INTERRUPT` 130 Ctrl-C (partial result printed),
:data:`EXIT_BROKEN_PIPE` 141 the reader of stdout left.
"""

from __future__ import annotations

import sys

from excover.errors import ProblemError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.cli.options import RunOptions
    from excover.errors import ExcoverError

#: The exit statuses of every command (above).
EXIT_OK, EXIT_LIMIT, EXIT_USAGE, EXIT_RESOURCE = 0, 1, 2, 3
EXIT_INTERRUPT, EXIT_BROKEN_PIPE = 130, 141

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


def say_method(run: RunOptions, method: str, engine: str | None) -> None:
    """Tell on stderr which method (and engine) ran, unless ``--quiet``: stdout stays the
    result alone."""
    if run.quiet:
        return
    print(f"excover: method {method}" + (f", {engine}" if engine else ""), file=sys.stderr)


def say_cpu(run: RunOptions, stats: dict[str, Any]) -> None:
    """Tell on stderr, unless ``--quiet``, that a run on workers got less CPU time than
    the cores it asked for (a busy machine), with the CPU time it got: its wall-clock
    time then says little of the speed on free cores (:func:`excover.parallel.workers.cpu_note`)."""
    if run.quiet or "cores_asked" not in stats:
        return
    from excover.parallel.workers import cpu_note

    note = cpu_note(stats)
    if note is not None:
        print(f"excover: note: {note}", file=sys.stderr)


def say_route(run: RunOptions, route: dict[str, Any]) -> None:
    """Tell on stderr which counting route finished, why, and each route's time, unless
    ``--quiet``."""
    if run.quiet:
        return
    work = ", ".join(f"{name} {done['seconds']:.3f} s" for name, done in route["work"].items())
    times = f"; {work}" if work else ""  # no route ran: no times
    print(f"excover: route {route['name']}: {route['reason']}{times}", file=sys.stderr)


def error_line(exc: ExcoverError) -> str:
    """The one line on stderr of an error that ended a run: ``file:line: message`` for
    bad input, else ``excover: ...``."""
    text = str(exc) if isinstance(exc, ProblemError) else f"excover: {exc}"
    return text.replace("\n", " ")


def say_stopped(stopped_by: str | None, detail: str = "") -> None:
    """Tell on stderr that the run stopped early and its result is partial."""
    if stopped_by is None:
        return
    print(f"excover: {STOP_CAUSES[stopped_by]}{detail}; the result is partial", file=sys.stderr)


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
