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

import _thread
import _weakrefset
import gc
import math
import os
import signal
import sys
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from excover.errors import LimitReached, UsageError
from excover.statistics import Stats

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

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


#: The standard library's modules that call back code of a dying object's (weakref
#: callbacks of weak dictionaries and sets, :class:`weakref.finalize`): an exception
#: raised in those callbacks is swallowed and reported, never raised to the caller.
_CALLBACK_FILES = frozenset({weakref.__file__, _weakrefset.__file__})


def _in_finaliser(frame: FrameType | None) -> bool:
    """True when ``frame`` runs inside a finaliser, where Python swallows an exception
    ("Exception ignored in ...", through ``sys.unraisablehook``) instead of raising it
    to the caller: a garbage-collector callback, a ``__del__``, or a callback of the
    standard library's weak references (a weak dictionary's entry removed, a
    :class:`weakref.finalize`). A callback that Python calls from a weak reference of
    its own (``weakref.ref(obj, callback)``) leaves no trace in the stack; the alarm's
    ``sys.unraisablehook`` catches a ring swallowed there (see :func:`alarm`)."""
    callbacks = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code in callbacks or code.co_name == "__del__" or code.co_filename in _CALLBACK_FILES:
            return True
        frame = frame.f_back
    return False


#: The folder of excover's own modules, wherever they are installed.
_HOME = os.path.dirname(os.path.abspath(__file__))


def _in_a_library(frame: FrameType | None) -> bool:
    """True when ``frame`` runs code of an installed package other than excover (in a
    ``site-packages`` or ``dist-packages`` folder). Such code may have been called back
    by the package's own C code, which can turn an exception it did not expect into
    one of its own: numpy, its structured arrays compared, once reported a ring as
    "Cannot compare structured arrays unless they have a common dtype"."""
    if frame is None:
        return False
    name = frame.f_code.co_filename
    return ("site-packages" in name or "dist-packages" in name) and not name.startswith(_HOME)


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
    """Raised by :func:`alarm` when its time runs out, where the program is once it is
    safe to raise there (see :func:`alarm`; the compiled engines check for signals
    regularly, as they do for Ctrl-C)."""


#: Seconds between two rings of :func:`alarm` once the time is up.
ALARM_REPEAT = 0.02
#: Seconds before the next ring when a ring was swallowed (see :func:`alarm`).
_RING_AGAIN = 0.001


class _Block:
    """One :func:`alarm` block open: when it ends, how many imports were under way
    when it began (those are not waited for), and its thread."""

    __slots__ = ("deadline", "imports", "thread")

    def __init__(self, deadline: float, imports: int) -> None:
        self.deadline = deadline
        self.imports = imports
        self.thread = _thread.get_ident()


#: The :func:`alarm` blocks open, outermost first (the main thread's: signals are
#: delivered there only).
_blocks: list[_Block] = []


def _ring(signum: int, frame: FrameType | None) -> None:
    """The alarm's signal handler: the time of the innermost block is up. It raises
    :class:`TimeUp` where that is safe (see :func:`alarm`); elsewhere the next ring,
    :data:`ALARM_REPEAT` seconds later, raises it."""
    if not _blocks or time.monotonic() < _blocks[-1].deadline:
        return  # a ring of a block that has ended: the timer is being set again
    if frame is not None and frame.f_code in _HANDLER_CODE:
        return  # a ring inside this handler (a loaded machine): the first one decides
    if _in_finaliser(frame) or _in_a_library(frame) or _imports(frame) > _blocks[-1].imports:
        # whatever rang (the timer, or a signal sent by hand), the next ring is near
        signal.setitimer(signal.ITIMER_REAL, ALARM_REPEAT, ALARM_REPEAT)
        return
    raise TimeUp


#: The code of the handler and what it calls: a second ring that lands there while the
#: first is being handled (rings come every ALARM_REPEAT seconds, and a loaded machine
#: can hold a process back longer) leaves the decision to the first.
_HANDLER_CODE = frozenset(f.__code__ for f in (_ring, _in_finaliser, _in_a_library, _imports))


def _swallowed(hook: object) -> object:
    """A ``sys.unraisablehook`` that passes every report on to ``hook`` but for a ring
    swallowed where the stack showed no finaliser (a weak reference's own callback):
    that one is not reported, and the alarm rings again at once, so that the run still
    stops within a millisecond or two of its time."""

    def unraisable(report: Any) -> None:
        if isinstance(report.exc_value, TimeUp) and _blocks:
            signal.setitimer(signal.ITIMER_REAL, _RING_AGAIN, ALARM_REPEAT)
            return
        hook(report)  # type: ignore[operator]

    return unraisable


def _arm(deadline: float) -> None:
    """Set the timer to ring at ``deadline`` (a ``time.monotonic()`` instant, now if it
    has passed), and every :data:`ALARM_REPEAT` seconds after it."""
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 1e-6), ALARM_REPEAT)


def _leave(previous: Any, hook: object, ours: object) -> None:
    """Set the timer back to the enclosing block's time, or, when the outermost block
    has ended, stop it and give back the previous handler and unraisable hook. A ring
    that lands here is the enclosing block's (with none left, the handler raises
    nothing), so this cleanup is never cut short by a ring of the block that ended."""
    if _blocks:
        _arm(_blocks[-1].deadline)
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)
    if sys.unraisablehook is ours:
        sys.unraisablehook = hook  # type: ignore[assignment]


@contextmanager
def alarm(limit: float | None) -> Iterator[None]:
    """Within the block, raise :class:`TimeUp` once ``limit`` seconds have passed
    (None: never).

    For engines that cannot stop at a deadline of their own: it needs a Unix alarm and
    the main thread, and refuses otherwise. The signal raises where the program is, as
    Ctrl-C does, but in three places, where a ring raises nothing and the alarm goes
    on ringing every :data:`ALARM_REPEAT` seconds until one lands where it may raise:

    * in a finaliser (a garbage-collector callback, a ``__del__``, a weak reference's
      callback), where Python would swallow the exception ("Exception ignored in ...");
      a ring swallowed where the stack showed no finaliser is caught by the block's
      ``sys.unraisablehook``, which says nothing of it and rings again at once;
    * in a module being imported (an import started within the block): an import cut
      short can leave a library half made for the rest of the process (numpy stopped in
      its C extensions refuses every later import), so the import is finished first;
    * in the Python code of an installed package other than excover, which the
      package's C code may have called and may not expect to fail that way.

    A C extension that passes the exception on wrongly (igraph's automorphism search
    returns a result with the exception set, which Python turns into a SystemError) is
    stopped too: such a SystemError caused by the ring leaves the block as TimeUp.
    Blocks nest: an inner block stops at the earlier of its own time and its outer
    block's, and gives the outer block its time back when it ends."""
    if limit is None:
        yield
        return
    refusal = "--timeout needs a Unix system and the main thread here"
    if not hasattr(signal, "setitimer") or (_blocks and _thread.get_ident() != _blocks[0].thread):
        raise UsageError(refusal)  # Python runs signal handlers in the main thread only
    block = _Block(time.monotonic() + max(limit, 0.0), _imports(sys._getframe()))
    if _blocks:
        block.deadline = min(block.deadline, _blocks[-1].deadline)
    outermost = not _blocks
    previous: Any = None
    hook: object = sys.unraisablehook
    ours: object = None
    if outermost:
        try:
            previous = signal.signal(signal.SIGALRM, _ring)
        except ValueError:  # not the main thread
            raise UsageError(refusal) from None
        ours = sys.unraisablehook = _swallowed(hook)  # type: ignore[assignment]
    try:
        # Opened and armed inside the try: a ring that lands as soon as the block is
        # open or the alarm set (a limit of 0) must still find the cleanup below.
        _blocks.append(block)
        _arm(block.deadline)
        yield
    except SystemError as error:
        if isinstance(error.__cause__, TimeUp) or isinstance(error.__context__, TimeUp):
            raise TimeUp from error
        raise
    finally:
        # Closed first, by no call (Python runs a handler after a call or at a jump, so
        # none runs before the block is off the list): later rings are not its own.
        if _blocks and _blocks[-1] is block:
            del _blocks[-1]
        _leave(previous, hook, ours)
