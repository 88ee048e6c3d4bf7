"""``excover studio [FILE] [--port N] [--no-browser]``: the designer's window.

Starts the studio's web application (:mod:`excover.studio.app`) on 127.0.0.1, prints its
address (with the run's token: nobody else can use it), opens the browser unless told
not to, and serves until Ctrl-C (exit status 130, as for every command): Ctrl-C ends the
event streams of the runs going on and kills every child at once, so that the server
stops within a second. ``FILE`` is opened in the page: a ``.cmb`` program's last problem
(on any grid), read by the safe language (no outside command runs), or a BurrTools
``.xmpuzzle`` file (told by its content) in the panel *BurrTools puzzle*, each read in a
child process bounded as every import is (``--memory-limit``, ``--import-timeout``).
``--max-run-time`` bounds every run and disassembly, whatever time limit the page sets.
The server and framework (uvicorn, Starlette) come with the ``studio`` extra: ``pip
install 'excover[studio]'``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from excover.cli.common import EXIT_OK, add_command
from excover.errors import UsageError
from excover.studio.limits import IMPORT_SECONDS, MEMORY, RUN_SECONDS, Limits

if TYPE_CHECKING:
    import socket
    from types import FrameType

    from excover.studio.design import StudioDesign

__all__ = ["add_studio_command", "listen"]

#: The bounds of ``--memory-limit`` (MiB), ``--import-timeout`` and ``--max-run-time``
#: (seconds).
MIN_MEMORY_MIB = 256
MAX_MEMORY_MIB = 1 << 20
MAX_IMPORT_SECONDS = 86400.0
MAX_RUN_SECONDS = 366 * 86400.0
#: Seconds the server waits for its connections to close when it stops (the streams of
#: runs end within a tick of Ctrl-C; a stuck client is not waited for longer).
GRACE = 2

_DESCRIPTION = """\
Design a tiling puzzle in the browser: draw a board, pick pieces from the catalog, find a
solution, count the solutions (all, or up to symmetry), export the design as a .cmb
program. The studio listens on 127.0.0.1 only and prints its address, which carries a
token of this run: requests without it are refused."""

_EPILOG = """\
examples:
  excover studio                          a new design
  excover studio examples/tetrominoes.cmb open a program's last problem
  excover studio examples/soma.xmpuzzle   open a BurrTools file
  excover studio --port 8765 --no-browser a fixed port, no browser
needs the 'studio' extra: pip install 'excover[studio]'. Imports and runs happen in
child processes, each bounded by --memory-limit; an import also by --import-timeout, a
run or a disassembly by --max-run-time. Ctrl-C stops the studio and every run it has
going (exit status 130)."""


def add_studio_command(commands: Any) -> None:
    """Add the ``studio`` command to the ``excover`` parser's subcommands."""
    parser = add_command(
        commands,
        "studio",
        help="design, solve and export a tiling puzzle in the browser",
        description=_DESCRIPTION,
        epilog=_EPILOG,
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a .cmb program or a BurrTools .xmpuzzle file (gzip or XML) to open",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="the port to listen on (default: a free one)"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="print the address only, open no browser"
    )
    parser.add_argument(
        "--checkpoints",
        metavar="FOLDER",
        help="where long counts keep their checkpoints, to resume from (default: "
        "$XDG_CACHE_HOME/excover/studio, or ~/.cache/excover/studio)",
    )
    parser.add_argument(
        "--memory-limit",
        type=int,
        default=MEMORY >> 20,
        metavar="MIB",
        help="the memory (address space) of each import and run, in MiB "
        f"(default: {MEMORY >> 20}); past it, the import or run stops with a message",
    )
    parser.add_argument(
        "--import-timeout",
        type=float,
        default=IMPORT_SECONDS,
        metavar="SECONDS",
        help=f"the time an import of a .cmb program may take (default: {IMPORT_SECONDS:g})",
    )
    parser.add_argument(
        "--max-run-time",
        type=float,
        default=RUN_SECONDS,
        metavar="SECONDS",
        help="the longest time a run or a disassembly may take, whatever time limit the "
        f"page sets (default: {RUN_SECONDS:g}, a day; a count stopped there can resume)",
    )
    parser.set_defaults(run=_studio)


def _frameworks() -> None:
    """Refuse (exit 2) when the ``studio`` extra is not installed."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        raise UsageError(
            f"the studio needs {error.name}, which is not installed: pip install 'excover[studio]'"
        ) from None


def _limits(args: argparse.Namespace) -> Limits:
    """The bounds of the children, from ``--memory-limit``, ``--import-timeout`` and
    ``--max-run-time``."""
    if not MIN_MEMORY_MIB <= args.memory_limit <= MAX_MEMORY_MIB:
        raise UsageError(
            f"--memory-limit {args.memory_limit}: give {MIN_MEMORY_MIB} to {MAX_MEMORY_MIB} MiB"
        )
    if not 0 < args.import_timeout <= MAX_IMPORT_SECONDS:
        raise UsageError(
            f"--import-timeout {args.import_timeout:g}: give more than 0 and at most "
            f"{MAX_IMPORT_SECONDS:g} seconds"
        )
    if not 0 < args.max_run_time <= MAX_RUN_SECONDS:
        raise UsageError(
            f"--max-run-time {args.max_run_time:g}: give more than 0 and at most "
            f"{MAX_RUN_SECONDS:g} seconds"
        )
    return Limits(args.memory_limit << 20, args.import_timeout, args.max_run_time)


def _open(path: str, limits: Limits) -> StudioDesign | tuple[bytes, dict[str, Any]]:
    """The design of the program ``path`` (its includes found beside it), or the bytes
    and the summary of the BurrTools puzzle ``path`` (told by its content), read in a
    bounded child as the page's imports are."""
    import asyncio

    from excover.lang.parser import MAX_PROGRAM_BYTES
    from excover.studio.burrtools import MAX_PUZZLE_BYTES, is_puzzle, open_puzzle
    from excover.studio.imports import ImportFailed, import_design

    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            data = handle.read(MAX_PUZZLE_BYTES + 1)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        if is_puzzle(data):
            if size > MAX_PUZZLE_BYTES:
                raise UsageError(f"{path} is larger than {MAX_PUZZLE_BYTES} bytes")
            return data, asyncio.run(open_puzzle(data, os.path.basename(path), limits))
        if size > MAX_PROGRAM_BYTES:
            raise UsageError(f"{path} is larger than {MAX_PROGRAM_BYTES} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"cannot read {path}: not UTF-8 text") from None
        folder = os.path.dirname(os.path.abspath(path))
        return asyncio.run(import_design(text, path, folder, limits))
    except ImportFailed as error:
        raise UsageError(f"{path}: {error}") from None


def listen(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1 only (``port`` 0: a free port)."""
    import socket  # here: every other command builds this parser too

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {error.strerror}") from None
    sock.listen(64)
    return sock


def _default_checkpoints() -> str:
    """The folder of the checkpoints of long counts: ``excover/studio`` in the cache
    folder (``$XDG_CACHE_HOME``, or ``~/.cache``); made when a count first needs it."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "excover", "studio")


def _studio(args: argparse.Namespace) -> int:
    _frameworks()
    import uvicorn

    from excover.studio.app import create_app

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not a port number (0 to 65535)")
    limits = _limits(args)
    opened = None if args.file is None else _open(args.file, limits)
    design = opened if opened is None or not isinstance(opened, tuple) else None
    puzzle = opened if isinstance(opened, tuple) else None
    sock = listen(args.port)
    port = sock.getsockname()[1]
    import secrets

    token = secrets.token_urlsafe(24)
    app = create_app(
        token,
        port,
        design,
        None if args.file is None else os.path.basename(args.file),
        args.checkpoints or _default_checkpoints(),
        limits=limits,
        puzzle=puzzle,
    )
    address = f"http://127.0.0.1:{port}/?token={token}"
    print(f"excover studio: {address}", flush=True)
    print("(Ctrl-C stops the studio)", file=sys.stderr, flush=True)
    if not args.no_browser:
        import webbrowser

        webbrowser.open(address)
    studio = app.state.studio

    class Server(uvicorn.Server):
        """uvicorn's server, which on Ctrl-C (or SIGTERM) also tells the studio to stop:
        its event streams end and its children die, so the server need not wait for a
        count to end before it stops."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            studio.stop()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app, log_level="warning", lifespan="on", timeout_graceful_shutdown=GRACE
    )
    Server(config).run(sockets=[sock])
    return EXIT_OK
