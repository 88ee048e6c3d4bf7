"""The bounds of the studio's child processes, with their defaults (``excover studio
--memory-limit``, ``--import-timeout``); a module of its own, light, because every
``excover`` command's parser names the defaults."""

from __future__ import annotations

__all__ = ["IMPORT_SECONDS", "MEMORY", "Limits", "size_text"]

#: The address space a child may use by default, in bytes (1 GiB).
MEMORY = 1 << 30
#: The seconds an import (reading a ``.cmb`` program) may take by default.
IMPORT_SECONDS = 30.0


def size_text(size: int) -> str:
    """A size in bytes as the messages say it: ``1 GiB``, ``512 MiB``."""
    if size % (1 << 30) == 0:
        return f"{size >> 30} GiB"
    return f"{size / (1 << 20):.0f} MiB"


class Limits:
    """What a child may use: ``memory`` bytes of address space (None: no bound) and, for
    an import, ``seconds`` of time. (A plain class: :mod:`dataclasses` would cost every
    command's start-up more than this module's whole import.)"""

    __slots__ = ("memory", "seconds")

    def __init__(self, memory: int | None = MEMORY, seconds: float = IMPORT_SECONDS) -> None:
        self.memory = memory
        self.seconds = seconds

    def __repr__(self) -> str:
        return f"Limits(memory={self.memory!r}, seconds={self.seconds!r})"

    def memory_message(self, what: str) -> str:
        """What ``what`` (``the import``, ``the run``) says when memory stopped it."""
        if self.memory is None:
            return f"{what} stopped: it needed more memory than the machine could give"
        return (
            f"{what} stopped: it needed more than {size_text(self.memory)} of memory "
            "(excover studio --memory-limit)"
        )
