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

import gc
import math
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from excover.errors import LimitReached, UsageError
from excover.statistics import Stats

__all__ = ["ALARM_REPEAT", "TimeUp", "alarm", "check", "check_deadline", "left"]


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


def left(timeout: float | None, started: float) -> float | None:
    """The seconds left of a ``timeout`` (None: no limit) counted from ``started`` (a
    ``time.monotonic()`` instant), for an API's ``timeout=`` whose run did some work
    first (finding a group); once none is left, :func:`check` raises."""
    if timeout is None:
        return None
    check(started + timeout)
    return started + timeout - time.monotonic()


def _in_finaliser(frame: FrameType | None) -> bool:
    """True when ``frame`` runs inside a garbage-collector callback or a ``__del__``,
    where Python swallows an exception ("Exception ignored in ...", through
    ``sys.unraisablehook``) instead of raising it to the caller."""
    callbacks = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        if frame.f_code in callbacks or frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _imports(frame: FrameType | None) -> int:
    """How many imports are under way in the stack ending at ``frame`` (one frame of
    the import system's ``_find_and_load`` each)."""
    count = 0
    while frame is not None:
        code = frame.f_code
        count += code.co_name == "_find_and_load" and code.co_filename.startswith("<frozen")
        frame = frame.f_back
    return count


class TimeUp(Exception):
    """Raised by :func:`alarm` wherever the program is when its time runs out (the
    compiled engines check for signals regularly, as they do for Ctrl-C)."""


#: Seconds between two rings of :func:`alarm` once the time is up.
ALARM_REPEAT = 0.02


@contextmanager
def alarm(limit: float | None) -> Iterator[None]:
    """Within the block, raise :class:`TimeUp` after ``limit`` seconds (None: never).

    For engines that cannot stop at a deadline of their own: it needs a Unix alarm and
    the main thread, and refuses otherwise. Once the time is up the alarm goes on
    ringing every :data:`ALARM_REPEAT` seconds until the block is left: a signal
    handler's exception raised inside a garbage-collector callback or a ``__del__``
    is swallowed by Python ("Exception ignored in ..."), and a single alarm lost that
    way would let the run go on to its end. A ring that lands there raises nothing
    (the next one does), so the swallowed exception is not reported either. Nor does
    a ring that lands in a module being imported (an import started within the
    block): an import cut short can leave a library half made for the rest of the
    process (numpy stopped in its C extensions refuses every later import), so the
    import is finished first and the next ring after it raises."""
    if limit is None:
        yield
        return
    refusal = "--timeout needs a Unix system and the main thread here"
    if not hasattr(signal, "setitimer"):
        raise UsageError(refusal)

    outer_imports = _imports(sys._getframe())  # a block inside a module's own import

    def alarm(signum: int, frame: FrameType | None) -> None:
        # in a finaliser or an import begun in the block, the next ring raises it
        if not _in_finaliser(frame) and _imports(frame) <= outer_imports:
            raise TimeUp

    try:
        previous = signal.signal(signal.SIGALRM, alarm)
    except ValueError:  # Python sets signal handlers in the main thread only
        raise UsageError(refusal) from None
    try:
        # Armed inside the try: a first ring that lands as soon as the alarm is set (a
        # limit of 0) must still find the cleanup below on its way out.
        signal.setitimer(signal.ITIMER_REAL, max(limit, 1e-6), ALARM_REPEAT)
        yield
    finally:
        # A ring can land here too, before the alarm is off: were it to cut this cleanup
        # short, the alarm would go on ringing after the block, anywhere. Python runs a
        # handler only at a call or a jump, so every one of those is inside the retry.
        while True:
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
                break
            except TimeUp:
                continue
