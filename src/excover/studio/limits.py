"""The bounds of the studio's work, with their defaults (``excover studio
--memory-limit``, ``--import-timeout``, ``--max-run-time``); a module of its own, light,
because every ``excover`` command's parser names the defaults."""

from __future__ import annotations

from excover.records import Record

__all__ = ["ABANDON_SECONDS", "IMPORT_SECONDS", "MEMORY", "RUN_SECONDS", "Limits", "size_text"]

#: The address space a child may use by default, in bytes (1 GiB).
MEMORY = 1 << 30
#: The seconds an import (reading a ``.cmb`` program) may take by default.
IMPORT_SECONDS = 30.0
#: The seconds a run or a disassembly may take at most by default, whatever time limit
#: the page set (none, or a longer one): a day. A count stopped there keeps its
#: checkpoint, and Resume goes on with it.
RUN_SECONDS = 86400.0
#: The seconds a run goes on without its page saying that it still follows it (the page
#: says so every few seconds of events it reads) before it is cancelled by default.
ABANDON_SECONDS = 60.0


def size_text(size: int) -> str:
    """A size in bytes as the messages say it: ``1 GiB``, ``512 MiB``."""
    if size % (1 << 30) == 0:
        return f"{size >> 30} GiB"
    return f"{size / (1 << 20):.0f} MiB"


class Limits(Record):
    """What the studio's work may use: each child ``memory`` bytes of address space
    (None: no bound); an import ``seconds`` of time; a run or a disassembly
    ``run_seconds`` at most, whatever the page asks; a run ``abandon_seconds`` without
    word from its page (then nobody follows it: it is cancelled and its place goes to
    the next run). (A :class:`~excover.records.Record`: :mod:`dataclasses` would cost
    every command's start-up more than this module's whole import.)"""

    memory: int | None = MEMORY
    seconds: float = IMPORT_SECONDS
    run_seconds: float = RUN_SECONDS
    abandon_seconds: float = ABANDON_SECONDS

    def memory_message(self, what: str) -> str:
        """What ``what`` (``the import``, ``the run``) says when memory stopped it."""
        if self.memory is None:
            return f"{what} stopped: it needed more memory than the machine could give"
        return (
            f"{what} stopped: it needed more than {size_text(self.memory)} of memory "
            "(excover studio --memory-limit)"
        )
