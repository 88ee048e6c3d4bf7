"""The ``--timeout`` of a run: one deadline fixed when the command starts, from which
every part of the run spends (:func:`start_clock`, :func:`stop_time`, :func:`time_left`),
and the alarm for the engines that cannot stop at a deadline of their own
(:func:`deadline`, :class:`TimeUp`: :func:`excover.deadlines.alarm`, under the name the
commands know it by).
"""

from __future__ import annotations

import time

from excover.deadlines import ALARM_REPEAT as ALARM_REPEAT
from excover.deadlines import TimeUp as TimeUp
from excover.deadlines import alarm

#: The alarm under the name the commands know it by.
deadline = alarm

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse


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
