"""The ``--timeout`` of a run: one deadline fixed when the command starts, from which
every part of the run spends (:func:`start_clock`, :func:`stop_time`, :func:`time_left`),
and an alarm for the engines that cannot stop at a deadline of their own
(:func:`deadline`, :class:`TimeUp`).
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from types import FrameType


def start_clock(args: argparse.Namespace, started: float) -> None:
    """Fix the run's deadline: ``--timeout`` seconds after ``started`` (a
    ``time.monotonic()`` value: when the command started), in ``args.deadline``. Every
    part of the run (reading and building the problem, searching, printing) spends from
    this one budget."""
    timeout = getattr(args, "timeout", None)
    args.deadline = None if timeout is None else started + timeout


def stop_time(args: argparse.Namespace) -> float | None:
    """The ``time.monotonic()`` value at which the run must stop (None: no ``--timeout``);
    the clock starts here when :func:`start_clock` was not called (a command run on its
    own, as tests do)."""
    if getattr(args, "timeout", None) is None:
        return None
    if getattr(args, "deadline", None) is None:
        start_clock(args, time.monotonic())
    deadline: float = args.deadline
    return deadline


def time_left(args: argparse.Namespace) -> float | None:
    """The seconds left before :func:`stop_time` (0 once it has passed; None: no limit),
    to hand to the API's ``timeout=`` arguments, which count wall-clock time from the
    call."""
    deadline = stop_time(args)
    return None if deadline is None else max(0.0, deadline - time.monotonic())


class TimeUp(Exception):
    """Raised by :func:`deadline` wherever the program is when ``--timeout`` runs out
    (the compiled engines check for signals regularly, as they do for Ctrl-C)."""


#: Seconds between two rings of :func:`deadline`'s alarm once the time is up.
ALARM_REPEAT = 0.02


@contextmanager
def deadline(limit: float | None) -> Iterator[None]:
    """Within the block, raise :class:`TimeUp` after ``limit`` seconds (None: never).

    For engines that cannot stop at a deadline of their own: it needs a Unix alarm and
    the main thread, and refuses otherwise. Once the time is up the alarm goes on
    ringing every :data:`ALARM_REPEAT` seconds until the block is left: a signal
    handler's exception raised inside a garbage-collector callback or a ``__del__``
    is swallowed by Python ("Exception ignored in ..."), and a single alarm lost that
    way would let the run go on to its end."""
    if limit is None:
        yield
        return
    refusal = "--timeout needs a Unix system and the main thread here"
    if not hasattr(signal, "setitimer"):
        raise UsageError(refusal)

    def alarm(signum: int, frame: FrameType | None) -> None:
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
