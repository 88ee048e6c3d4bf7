"""``excover studio [FILE.cmb] [--port N] [--no-browser]``: the designer's window.

Starts the studio's web application (:mod:`excover.studio.app`) on 127.0.0.1, prints its
address (with the run's token: nobody else can use it), opens the browser unless told
not to, and serves until Ctrl-C (exit status 130, as for every command). ``FILE.cmb`` is
opened in the page: its last problem (on any grid), read by the safe language (no outside
command runs). The server and framework
(uvicorn, Starlette) come with the ``studio`` extra: ``pip install 'excover[studio]'``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from excover.cli.common import EXIT_OK, HelpFormatter
from excover.errors import UsageError

if TYPE_CHECKING:
    import socket

    from excover.studio.design import Design

__all__ = ["add_studio_command", "listen"]

_DESCRIPTION = """\
Design a tiling puzzle in the browser: draw a board, pick pieces from the catalog, find a
solution, count the solutions (all, or up to symmetry), export the design as a .cmb
program. The studio listens on 127.0.0.1 only and prints its address, which carries a
token of this run: requests without it are refused."""

_EPILOG = """\
examples:
  excover studio                          a new design
  excover studio examples/tetrominoes.cmb open a program's last problem
  excover studio --port 8765 --no-browser a fixed port, no browser
needs the 'studio' extra: pip install 'excover[studio]'. Ctrl-C stops the studio and
every run it has going (exit status 130)."""


def add_studio_command(commands: Any) -> None:
    """Add the ``studio`` command to the ``excover`` parser's subcommands."""
    parser = commands.add_parser(
        "studio",
        help="design, solve and export a tiling puzzle in the browser",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("file", nargs="?", metavar="FILE.cmb", help="a .cmb program to open")
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


def _open(path: str) -> Design:
    """The design of the program ``path`` (its includes found beside it)."""
    from excover.lang.parser import MAX_PROGRAM_BYTES
    from excover.studio.program import from_cmb

    try:
        if os.path.getsize(path) > MAX_PROGRAM_BYTES:
            raise UsageError(f"{path} is larger than {MAX_PROGRAM_BYTES} bytes")
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {path}: {error}") from None
    return from_cmb(text, path, os.path.dirname(os.path.abspath(path)))


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
    design = None if args.file is None else _open(args.file)
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
    )
    address = f"http://127.0.0.1:{port}/?token={token}"
    print(f"excover studio: {address}", flush=True)
    print("(Ctrl-C stops the studio)", file=sys.stderr, flush=True)
    if not args.no_browser:
        import webbrowser

        webbrowser.open(address)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    server.run(sockets=[sock])
    return EXIT_OK
