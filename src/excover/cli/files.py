"""The files of a command: its input read (a path, or ``-`` for standard input) and its
outputs written (``--svg``, ``--write-dlx``), every failure a usage error naming the file.
"""

from __future__ import annotations

import sys

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from excover.solving import ExactCover

__all__ = ["decode_input", "numbered", "read_input", "write_dlx", "write_file", "write_problem"]


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


def write_file(path: str, text: str | bytes) -> None:
    """Write ``text`` (or bytes: ``--stl``) to ``path`` (for ``--svg`` and the like), whole
    (:func:`excover.atomic.write_whole`); failures are usage errors."""
    from excover.atomic import write_whole  # on use: most runs write no file

    try:
        write_whole(path, text, follow_links=True)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_problem(problem: ExactCover, path: str, what: str) -> None:
    """Write ``problem`` (the exact cover of ``what``) to ``path`` in Knuth's DLX format
    for ``--write-dlx``, and say so on stderr with the command that counts it."""
    try:
        problem.write(path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(
        f"excover: wrote {what} to {path} ({problem.n_options} options, "
        f"{problem.n_items} items); 'excover count {path}' counts its solutions",
        file=sys.stderr,
    )


def write_dlx(args: argparse.Namespace, problems: list[tuple[ExactCover, str]], what: str) -> int:
    """``--write-dlx FILE`` of a command that builds exact cover problems (a puzzle's, a
    term's): write each problem to its file in Knuth's DLX format, and no search (any
    search flag given in ``args`` is refused: it would do nothing); the exit status."""
    from excover.cli.flags import refuse
    from excover.cli.status import EXIT_OK
    from excover.names import METHOD_TRAITS

    for dest in ("count", "all", "classify", "svg", "pretty", "json", "stats", "workers"):
        refuse(args, dest, "asks for a search: --write-dlx writes the problem instead")
    for dest in (
        "limit",
        "timeout",
        "max_nodes",
        "max_memory",
        "engine",
        "up_to_symmetry",
        "break_symmetry",
        "progress",
    ):
        refuse(args, dest, "bounds or shapes a search: --write-dlx writes the problem instead")
    method = getattr(args, "method", None)
    traits = None if method is None else METHOD_TRAITS.get(method)  # a puzzle's own, or None
    if method is not None and (traits is None or not traits.chooses):  # not the default
        raise UsageError("--method chooses how to solve: --write-dlx writes the problem instead")
    for problem, path in problems:
        write_problem(problem, path, what)
    return EXIT_OK


def numbered(out: str, many: int) -> list[str]:
    """The files of ``many`` puzzles' drawings or problems: ``out`` itself for one, else
    ``out`` numbered from 1 before its suffix (``OUT-1.svg``, ``OUT-2.svg``, ...)."""
    if many == 1:
        return [out]
    from pathlib import Path

    where = Path(out)
    return [str(where.with_name(f"{where.stem}-{k}{where.suffix}")) for k in range(1, many + 1)]
