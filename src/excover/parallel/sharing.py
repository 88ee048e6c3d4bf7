"""Files that several runs may name at once: written whole, locked while in use, set
aside when damaged.

A checkpoint (:mod:`excover.parallel.checkpoint`) can be named by two runs at the same
time: two commands given the same ``--checkpoint``, two studio tabs counting one design,
a run left behind by a restarted studio. Three rules keep it whole:

* **Written whole** (:func:`excover.atomic.write_whole`, as every file excover writes).
  Each save goes to a temporary file of its own, ``FILE.<random>.tmp``, created
  exclusively in the file's folder, written, flushed to the disk, then renamed over
  ``FILE``, which replaces a link planted at ``FILE`` rather than write through it. A
  reader finds the old file or the new one, never a mix, whoever else saves meanwhile;
  a save that fails removes its temporary file.
* **One run at a time** (:class:`FileLock`). A run holds an advisory lock
  (``fcntl.flock``) on a sidecar file, ``FILE.lock``, from before it reads ``FILE`` until
  it has written it for the last time, and writes its process id in it, so a second run
  can say who holds it. The operating system drops the lock when the process ends,
  however it ends (``kill -9`` included): a lock file left behind is free, never stale.
  The run that held the lock removes the sidecar. The sidecar is opened without
  following a symbolic link, and written only when it is a lock file: a regular file
  with no other name (a hard link planted there to another file is refused, never
  emptied) holding nothing or a process id. Where ``fcntl`` does not exist (Windows)
  there is no lock: two runs then each save their own whole state in turn, a resume
  takes one of them, and the count stays exact; only the other run's progress is not
  kept.
* **Damage set aside** (:func:`set_aside`). A file found damaged is renamed
  ``FILE.damaged-<date>-<time>`` rather than deleted, or left to block every later run.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from contextlib import suppress
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no lock (see the module notes)
    fcntl = None  # type: ignore[assignment]

__all__ = ["POLL", "FileLock", "set_aside"]

#: Seconds between two tries of a lock held by another process.
POLL = 0.05

#: Opens a name as it is, never through a symbolic link (0 where unknown: Windows).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: Binary mode, where it matters (Windows).
_BINARY = getattr(os, "O_BINARY", 0)
#: What a lock file holds: nothing yet, or the process id of the run that holds it.
_LOCK_TEXT = re.compile(rb"[0-9]{0,20}\n?")


def set_aside(path: Path) -> Path:
    """Rename ``path`` to ``path.damaged-<date>-<time>`` (with a number after it when
    that name is taken) and return the new name. Raises OSError when it cannot."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while os.path.lexists(aside):
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    os.rename(path, aside)
    return aside


class FileLock:
    """The advisory lock of ``path`` (the file ``path.lock`` beside it), see the module
    notes. :meth:`take` tries once, :meth:`release` lets go; :meth:`holder` names the
    process holding it."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + ".lock")
        self._descriptor: int | None = None

    @property
    def held(self) -> bool:
        """True while this process holds the lock."""
        return self._descriptor is not None

    def take(self) -> bool:
        """Take the lock if it is free; True when this process holds it. Raises OSError
        when the lock file cannot be opened (a folder that cannot be written, a link or
        something else than a lock file planted at its name: see the module notes). An
        exception on the way (Ctrl-C included) closes the file, which lets the lock go."""
        if self.held:
            return True
        if fcntl is None:
            return True
        for _ in range(100):  # the holder may remove the file between open and lock
            descriptor = self._open()
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                current = self._current(descriptor)
                if current:
                    os.ftruncate(descriptor, 0)
                    os.write(descriptor, f"{os.getpid()}\n".encode())
            except BlockingIOError:
                os.close(descriptor)
                return False
            except BaseException:
                os.close(descriptor)
                raise
            if current:
                self._descriptor = descriptor
                return True
            os.close(descriptor)  # locked a file its holder had just removed: again
        return False

    def holder(self) -> int | None:
        """The process id written in the lock file by its holder (None: unknown)."""
        try:
            descriptor = os.open(self.path, os.O_RDONLY | _NOFOLLOW | _BINARY)
        except OSError:
            return None
        try:
            text = os.read(descriptor, 32).decode("ascii", "replace").strip()
        finally:
            os.close(descriptor)
        return int(text) if text.isdigit() else None

    def release(self) -> None:
        """Let go of the lock (nothing when not held), removing its file first so that a
        process waiting on it opens a new one."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None or fcntl is None:
            return
        try:
            with suppress(OSError):
                os.unlink(self.path)
            fcntl.flock(descriptor, fcntl.LOCK_UN)  # also for the workers forked meanwhile
        finally:
            os.close(descriptor)

    def _open(self) -> int:
        """The lock file, opened (made when missing) without following a link; an
        OSError naming it when what is there is not a lock file (see the module notes):
        a link, a folder, a file with other names or another content."""
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _BINARY, 0o666)
        try:
            found = os.fstat(descriptor)
            if not stat.S_ISREG(found.st_mode):
                raise OSError(errno.EPERM, "its lock file is not a regular file", str(self.path))
            if found.st_nlink != 1:
                raise OSError(
                    errno.EPERM,
                    "its lock file has other names (a hard link): excover does not write it",
                    str(self.path),
                )
            if not _LOCK_TEXT.fullmatch(os.pread(descriptor, 64, 0)):
                raise OSError(
                    errno.EPERM,
                    "its lock file holds something else than a process id: remove it if "
                    "nothing needs it",
                    str(self.path),
                )
        except BaseException:
            os.close(descriptor)
            raise
        return descriptor

    def _current(self, descriptor: int) -> bool:
        """True when ``descriptor`` is still the file at the lock's name."""
        try:
            named = os.stat(self.path, follow_symlinks=False)
        except FileNotFoundError:
            return False
        opened = os.fstat(descriptor)
        return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)
