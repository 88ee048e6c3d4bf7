"""What a ``.cmb`` program may touch: the files it reads and writes, the programs it runs.

A ``.cmb`` program is shared and downloaded like a document, so running one must be as
harmless as opening one. By default a program

- reads (``include``) only files in its own folder and below it, and in the folders of
  :data:`SHIPPED_READ_ROOTS`;
- writes (``solve ... svg "F"``, ``dimacs P "F"``) only in the current folder or its own
  folder (and below them), and never replaces a file that this run did not create;
- runs no outside program (``sat "ext:COMMAND"`` or a solver command line).

The user lifts each restriction with :class:`Permissions` (``excover run
--allow-external``, ``--allow-paths DIR``, ``--overwrite``). Paths are compared after
symbolic links are followed and ``..`` removed (:func:`os.path.realpath`), so neither a
link in the program's folder pointing elsewhere nor ``../`` leads out of a folder. A
refusal names the path as the program wrote it, never where a link leads outside the
folders (``/proc/self/cwd`` would tell the current folder of a server), and a path with
a NUL byte, which no file can have, is refused before it is looked at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from excover.lang.errors import LangError, Pos

__all__ = ["SAFE", "SHIPPED_READ_ROOTS", "Permissions", "refuse_nul"]

#: Folders every program may read besides its own: the place for a catalog of shapes
#: shipped with the package, should one come (none does yet).
SHIPPED_READ_ROOTS: tuple[str, ...] = ()

_PATHS_HINT = "pass --allow-paths DIR to allow one more"


@dataclass(frozen=True)
class Permissions:
    """The restrictions on a ``.cmb`` program that the user lifts; the default lifts none.

    ``allow_external``: the program may run outside solver commands. ``allow_paths``:
    folders the program may also read and write under (resolved, links followed, when the
    object is made: a relative folder is relative to the current folder then).
    ``overwrite``: the program may replace files it did not create.

    Each field is a switch of ``excover run`` (``--allow-external``, ``--allow-paths DIR``,
    ``--overwrite``), and a refusal names the switch, as a command-line user types it.
    """

    allow_external: bool = False
    allow_paths: tuple[str, ...] = ()
    overwrite: bool = False

    def __post_init__(self) -> None:
        resolved = tuple(os.path.realpath(os.fspath(folder)) for folder in self.allow_paths)
        object.__setattr__(self, "allow_paths", resolved)

    def read_roots(self, folder: str) -> tuple[str, ...]:
        """The folders a program whose own folder is ``folder`` may read under."""
        return (os.path.realpath(folder), *self.allow_paths, *SHIPPED_READ_ROOTS)

    def write_roots(self, folder: str) -> tuple[str, ...]:
        """The folders a program whose own folder is ``folder`` may write under: the
        current folder, its own, and the allowed ones."""
        return (os.path.realpath(os.getcwd()), os.path.realpath(folder), *self.allow_paths)

    def check_external(self, solver: str, pos: Pos) -> None:
        """Refuse, at ``pos``, to run the outside solver ``solver`` unless allowed."""
        if not self.allow_external:
            raise LangError(
                f"sat {solver!r} runs an outside program, which a .cmb program may not do "
                "by default; pass --allow-external to allow it",
                pos,
            )


#: The default: no restriction lifted.
SAFE = Permissions()


def refuse_nul(text: str, what: str, pos: Pos) -> None:
    """Refuse, at ``pos``, a ``what`` (a path, a command) holding a NUL byte: no file name
    has one, and the system calls would fail on it."""
    if "\0" in text:
        raise LangError(f"{what} {text!r} holds a NUL byte: no file name or command may", pos)


def resolve_read(path: str, roots: tuple[str, ...], pos: Pos, *, written: str | None = None) -> str:
    """The real path of ``path`` (absolute), refused at ``pos`` unless it lies under one of
    ``roots``. Nothing is opened or even tested for existence outside them. A refusal
    names the path as the program wrote it (``written``, default ``path``)."""
    written = path if written is None else written
    refuse_nul(path, "include: the path", pos)
    real = os.path.realpath(path)
    if not _under(real, roots):
        where = "the folders a program may read (its own and those allowed)"
        raise LangError(f"include: cannot read {written}: outside {where}; {_PATHS_HINT}", pos)
    return real


def resolve_write(
    path: str, roots: tuple[str, ...], pos: Pos, *, created: set[str], overwrite: bool
) -> str:
    """The real path to write ``path`` (relative to the current folder) at, refused at
    ``pos`` when it lies outside ``roots`` or names a file that exists and is not in
    ``created`` (unless ``overwrite``). The real path is named only when it lies under
    ``roots``."""
    refuse_nul(path, "cannot write: the path", pos)
    real = os.path.realpath(path)
    if not _under(real, roots):
        where = "the folders a program may write (the current one, its own and those allowed)"
        raise LangError(f"cannot write {path}: outside {where}; {_PATHS_HINT}", pos)
    if os.path.lexists(real) and real not in created and not overwrite:
        raise LangError(
            f"cannot write {path}{_via(path, real)}: it exists and this run did not create "
            "it; pass --overwrite to replace it",
            pos,
        )
    return real


def _under(real: str, roots: tuple[str, ...]) -> bool:
    return any(Path(real).is_relative_to(root) for root in roots)


def _via(path: str, real: str) -> str:
    """`` (that is REAL)`` when symbolic links lead ``path`` to another file."""
    return "" if os.path.abspath(path) == real else f" (that is {real})"
