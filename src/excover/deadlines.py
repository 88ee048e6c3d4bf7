"""Deadlines for the Python work around a search: one instant at which all of it stops.

A deadline is a ``time.monotonic()`` value, as :attr:`excover.Search.deadline` takes it,
or None for no limit. The engines check theirs in their compiled loops; the work that
runs before a search or between searches in Python (building a puzzle's problem from a
size, cutting a search tree into subproblems, probing it) takes the same value and calls
:func:`check` as it goes, so that ``--timeout`` bounds a whole run, whatever it is
spending its time on. Past the deadline :func:`check` raises
:class:`~excover.LimitReached` with the reason ``"timeout"``, as a search does. Ctrl-C
needs nothing of the kind: in Python code the default handler raises
``KeyboardInterrupt`` at once.
"""

from __future__ import annotations

import math
import time

from excover.errors import LimitReached, UsageError
from excover.statistics import Stats

__all__ = ["check", "check_deadline"]


def check_deadline(deadline: object) -> float | None:
    """``deadline`` as a ``time.monotonic()`` instant (a finite number, or None for no
    limit), or a UsageError naming it."""
    if deadline is None:
        return None
    if (
        isinstance(deadline, bool)
        or not isinstance(deadline, int | float)
        or not math.isfinite(deadline)
    ):
        raise UsageError(f"deadline must be a time.monotonic() value or None, not {deadline!r}")
    return float(deadline)


def check(deadline: float | None, nodes: int = 0) -> None:
    """Raise :class:`~excover.LimitReached` (reason ``"timeout"``) once ``deadline`` has
    passed; ``nodes`` is the work done so far, for its statistics (what a node is depends
    on the caller: a node of a search tree, an option built)."""
    if deadline is not None and time.monotonic() >= deadline:
        raise LimitReached("timeout", Stats(nodes=nodes, stopped_by="timeout"))
