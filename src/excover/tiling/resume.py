"""What the two frontier counts resume from: a checkpoint file and its header's words,
handed to the compiled counts (``_dissections.count_dissections`` and
``_cell_frontier.count_program``) as one argument by their Python callers, which read
and check the header first."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

__all__ = ["Resume"]


class Resume(NamedTuple):
    """A checkpoint to resume a frontier count from: its file (``path``, as bytes) and
    what its header says: the layers ``done`` (the cells, or the ops, swept before it),
    the ``states`` it holds and their ``checksum``. The count reads the states and checks
    them against these words (a file that does not match is a DamagedCheckpoint)."""

    path: bytes
    done: int
    states: int
    checksum: int

    @classmethod
    def of(cls, path: Path, done: int, states: int, checksum: int) -> Resume:
        """The checkpoint at ``path``, whose header holds ``done``, ``states`` and
        ``checksum``."""
        return cls(os.fsencode(path), done, states, checksum)
