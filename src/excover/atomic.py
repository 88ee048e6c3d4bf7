"""Files written whole: every file excover writes for a user is the old one or the new
one, never a mix, an empty one or half of one, whatever stops the write.

Writing a file in place (``open(path, "w")``) empties it first: a Ctrl-C, a kill, a full
disk or an error of the code making the content, between that moment and the last byte,
leaves a user's file empty or cut short (a BurrTools puzzle saved over itself, a
checkpoint of hours of work). So each write here goes to a temporary file of its own in
the destination's folder, ``FILE.<random>.tmp``, created exclusively (``O_CREAT |
O_EXCL``: an existing name, a symbolic link planted there included, is never opened); the
content is written to it, flushed and forced to the disk (``fsync``), and only then is it
renamed over ``FILE`` (``os.replace``, one step for the file system), and the folder
forced to the disk too, so that the rename outlives a power cut. Any exception before
the rename (``BaseException``: Ctrl-C included) removes the temporary file and leaves
``FILE`` as it was; one raised in the ``with`` statement's own code, before the block
is left, leaves the generator below suspended, and closing it when the exception is
dropped removes the file then. A reader meanwhile finds the old file or the new one.

A file that exists keeps its permission bits; a new one gets the usual ones (the umask
applied). The folder must be one excover may create files in.

Two kinds of destination differ in how they treat a symbolic link at their name:

* a **user's file** (``follow_links=True``: ``--write``, ``--svg``, exports, ...) is
  written where the link leads, as writing to the name would: the link stays and its
  target is replaced. A destination that is neither a regular file nor missing (a
  device such as ``/dev/null``, a named pipe) has no old content to keep and is written
  directly.
* a **shared file** (``follow_links=False``: checkpoints, which a folder's other users
  may plant links beside) is replaced by name: a link planted there is replaced, never
  written through.

:func:`replacing` serves a writer that streams its content (the temporary file is open
while it writes), :func:`write_whole` one that holds it all.
"""

from __future__ import annotations

import io
import os
import stat
from contextlib import AbstractContextManager, contextmanager, suppress

TYPE_CHECKING = False  # typing is for type checkers: a run that writes need not import it
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, Any

__all__ = ["replacing", "write_whole"]


def replacing(
    path: str | os.PathLike[str], *, follow_links: bool = False
) -> AbstractContextManager[IO[bytes]]:
    """A ``with`` block writing the file ``path`` whole (see the module notes), for a
    writer that streams: it gives a binary stream open on a new temporary file beside
    ``path``, which replaces ``path`` when the block ends; an exception leaving the block
    removes it and leaves ``path`` as it was. ``follow_links`` says how a symbolic link
    at ``path`` is treated. Raises OSError when the file cannot be written (the
    temporary file is then removed)."""
    return _replacing(path, "wb", None, follow_links)


def write_whole(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    newline: str | None = None,
    follow_links: bool = False,
) -> None:
    """Replace the file ``path`` by one holding ``data`` (bytes, or text written in
    UTF-8 with ``newline`` as :func:`open` takes it), whole: see :func:`replacing`."""
    mode = "w" if isinstance(data, str) else "wb"
    with _replacing(path, mode, newline, follow_links) as stream:
        stream.write(data)


@contextmanager
def _replacing(
    path: str | os.PathLike[str], mode: str, newline: str | None, follow_links: bool
) -> Iterator[IO[Any]]:
    """The ``with`` block of :func:`replacing` and :func:`write_whole`: a stream of
    ``mode`` (``"wb"``, or ``"w"``: UTF-8 text with ``newline`` as :func:`open` takes it)."""
    encoding = "utf-8" if mode == "w" else None
    target = os.path.realpath(path) if follow_links else os.fspath(path)
    if follow_links and _special(target):
        with open(target, mode, encoding=encoding, newline=newline) as direct:
            yield direct
        return
    permissions = _permissions(target)
    binary: IO[bytes] | None = None
    temporary = None
    try:
        binary, temporary = _new_temporary(target)
        if permissions is not None and hasattr(os, "fchmod"):
            os.fchmod(binary.fileno(), permissions)
        stream = binary if encoding is None else io.TextIOWrapper(binary, encoding, None, newline)
        yield stream
        stream.flush()
        os.fsync(binary.fileno())
        stream.close()
        os.replace(temporary, target)
    except BaseException:
        if binary is not None:
            with suppress(OSError):
                binary.close()
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)
        raise
    _sync_folder(os.path.dirname(target) or os.curdir)


#: The longest file name (in bytes) kept whole in a temporary file's name: room is left
#: for the random part within the usual limit of 255.
_NAME_KEPT = 200


def _new_temporary(target: str) -> tuple[IO[bytes], str]:
    """A new file beside ``target``, created exclusively, open for writing (binary: a
    text stream is made over it once its name is known, so that whatever stops the
    making leaves a file the caller can remove); its name."""
    folder, name = os.path.split(target)
    if len(os.fsencode(name)) > _NAME_KEPT:
        name = os.fsdecode(os.fsencode(name)[:_NAME_KEPT])
    while True:
        temporary = os.path.join(folder, f"{name}.{os.urandom(6).hex()}.tmp")
        try:
            return open(temporary, "xb"), temporary  # O_CREAT | O_EXCL
        except FileExistsError:  # taken (by chance or planted): draw another name
            continue


def _special(target: str) -> bool:
    """True when ``target`` exists and is neither a regular file nor a folder (a device,
    a named pipe, a socket): something written to, not replaced."""
    try:
        found = os.stat(target)
    except OSError:
        return False
    return not stat.S_ISREG(found.st_mode) and not stat.S_ISDIR(found.st_mode)


def _permissions(target: str) -> int | None:
    """The permission bits of the regular file ``target`` (None: none there)."""
    try:
        found = os.lstat(target)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(found.st_mode) if stat.S_ISREG(found.st_mode) else None


def _sync_folder(folder: str) -> None:
    """Flush ``folder``'s entries to the disk, so that a rename outlives a power cut
    (where folders can be opened: not on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
