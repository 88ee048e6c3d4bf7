"""Where a ring of ``--timeout``'s alarm lands, and what it does there.

The alarm (:func:`excover.deadlines.alarm`) raises :class:`~excover.deadlines.TimeUp`
from a signal handler, wherever the program is. Each test below rings the first ring by
hand (the ``ring`` fixture) exactly where it must land, so what it checks depends
neither on the machine's load nor on threads other tests left: a weak reference's
callback, where Python
would swallow the exception; C code that hands the exception back wrongly; nested
blocks. The waits for the next ring are bounded generously (a ring comes every
:data:`~excover.deadlines.ALARM_REPEAT` seconds; the bounds are seconds).
"""

from __future__ import annotations

import gc
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest

from excover import deadlines
from excover.deadlines import ALARM_REPEAT, TimeUp, alarm
from excover.errors import UsageError

#: How long a test waits for a ring that must come (every ALARM_REPEAT seconds).
WAIT = 10.0


def spin(seconds: float) -> None:
    """Run Python code (calls and jumps, where a handler runs) for ``seconds``."""
    ends = time.monotonic() + seconds
    while True:
        if time.monotonic() >= ends:
            break
        len(())


@pytest.fixture
def ring(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Rings by hand: the alarm's timer is not set when a block opens, and the function
    returned rings once, in its caller's frame (``raise_signal`` sends the signal to
    this thread and Python runs the handler as the call returns). Blocking the signal
    until the right moment is not enough: a thread of another test still alive takes a
    signal sent to the process, and the handler then runs in the main thread at once
    (the hunt of #80 saw it). After a ring that raises nothing, the alarm sets its timer
    itself, so the next rings come as they would."""
    monkeypatch.setattr(deadlines, "_arm", lambda deadline: None)
    return lambda: signal.raise_signal(signal.SIGALRM)


class Thing:
    """An object that weak references can point at."""


def test_a_ring_in_a_weak_dictionarys_callback_waits_for_the_next(
    monkeypatch: pytest.MonkeyPatch, ring: Callable[[], None]
) -> None:
    """A ring that lands under a weak dictionary's entry removal (the suite once failed
    on one landing in ``WeakKeyDictionary``'s ``remove``) raises nothing there, where
    Python would swallow and report it; the next ring, once the callback is done,
    stops the run."""
    reported: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    happened: list[str] = []
    table: weakref.WeakKeyDictionary[Thing, Thing] = weakref.WeakKeyDictionary()
    key, value = Thing(), Thing()
    table[key] = value

    def value_gone(_: object) -> None:  # runs inside the table's removal of the key
        ring()
        try:
            spin(0.2)  # the held ring and later ones land here
            happened.append("callback done")
        except TimeUp:
            happened.append("raised in the callback")
            raise

    watch = weakref.ref(value, value_gone)
    del value
    with pytest.raises(TimeUp), alarm(0):
        del key  # the table drops its entry, and with it the value
        spin(WAIT)
    assert watch() is None
    assert happened == ["callback done"]
    assert reported == []


def test_a_ring_in_a_finalize_callback_waits_for_the_next(
    monkeypatch: pytest.MonkeyPatch, ring: Callable[[], None]
) -> None:
    """The same for a :class:`weakref.finalize` callback."""
    reported: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    happened: list[str] = []

    def finalised() -> None:
        ring()
        try:
            spin(0.2)
            happened.append("callback done")
        except TimeUp:
            happened.append("raised in the callback")
            raise

    thing = Thing()
    weakref.finalize(thing, finalised)
    with pytest.raises(TimeUp), alarm(0):
        del thing
        spin(WAIT)
    assert happened == ["callback done"]
    assert reported == []


def test_a_ring_swallowed_where_no_frame_tells_rings_again_at_once(
    monkeypatch: pytest.MonkeyPatch, ring: Callable[[], None]
) -> None:
    """A plain weak reference's callback leaves no trace in the stack: the ring raises
    there and Python swallows it. The block's unraisable hook catches it, reports
    nothing, and the alarm rings again at once: the run still stops."""
    reported: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    happened: list[str] = []

    def gone(_: object) -> None:
        # nothing is recorded after the ring: on a loaded machine a second ring can
        # be due by the time an except clause would run (the hunt saw it)
        happened.append("entered")
        ring()  # the ring lands as this call returns, and stops the callback
        spin(WAIT)
        happened.append("finished")

    thing = Thing()
    watch = weakref.ref(thing, gone)
    with pytest.raises(TimeUp), alarm(0):
        del thing
        spin(WAIT)
    assert watch() is None
    assert happened == ["entered"]  # stopped inside, and the stop swallowed there
    assert reported == []
    assert sys.unraisablehook == reported.append  # the block gave the hook back


def test_other_unraisable_reports_pass_through_the_blocks_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The block's hook keeps every report that is not the alarm's own."""
    reported: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    class Broken:
        def __del__(self) -> None:
            raise ValueError("broken finaliser")

    with alarm(60):
        Broken()
        gc.collect()
    assert [type(report.exc_value) for report in reported] == [ValueError]  # type: ignore[attr-defined]


def test_a_systemerror_caused_by_the_ring_leaves_the_block_as_timeup() -> None:
    """A C extension that returns a result with the handler's exception still set
    surfaces as a SystemError caused by it: the block turns it back into TimeUp, and
    leaves every other SystemError alone."""
    with pytest.raises(TimeUp), alarm(60):
        raise SystemError("returned a result with an exception set") from TimeUp()
    with pytest.raises(SystemError), alarm(60):
        raise SystemError("something else")


def test_the_group_search_stops_cleanly_wherever_the_ring_lands() -> None:
    """The ring swept over igraph's automorphism search (BLISS, which hands a signal's
    exception back as a SystemError): every stop is TimeUp, or the search finished."""
    pytest.importorskip("igraph")
    from builders import queens

    problem = queens(20)
    started = time.perf_counter()
    problem.symmetries()
    window = time.perf_counter() - started
    outcomes = set()
    for step in range(40):
        try:
            with alarm(window * step / 30):
                problem.symmetries()
                outcomes.add("finished")
                spin(WAIT)
        except TimeUp:
            outcomes.add("stopped")
    assert outcomes <= {"finished", "stopped"} and "stopped" in outcomes


def test_an_inner_block_gives_the_outer_its_time_back() -> None:
    """Blocks nest: an inner block that ends leaves the outer one's alarm set, and an
    inner block longer than the outer stops at the outer's time."""
    with pytest.raises(TimeUp), alarm(0.05):
        with alarm(3600):
            pass
        spin(WAIT)
    with pytest.raises(TimeUp), alarm(0.05), alarm(3600):
        spin(WAIT)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_ring_of_an_ended_inner_block_does_not_stop_the_outer(ring: Callable[[], None]) -> None:
    """A ring of an inner block that lands as it ends (held, here, until the inner
    block is gone) does not stop the outer block before its own time."""
    with alarm(3600):
        with alarm(0):
            pass
        ring()
        spin(5 * ALARM_REPEAT)  # would be stopped here if the ring counted


def test_the_alarm_refuses_other_threads() -> None:
    """Signals reach the main thread only: a block elsewhere is a usage error."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            with alarm(1):
                pass
        except UsageError as error:
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert len(errors) == 1 and "main thread" in str(errors[0])


def test_a_ring_in_an_installed_packages_code_waits_for_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ring: Callable[[], None]
) -> None:
    """A ring that lands in the Python code of an installed package (numpy's, called
    back by its own C code, once turned the ring into a TypeError of its own) raises
    nothing there; the next ring, back in the caller's code, stops the run."""
    library = tmp_path / "site-packages"
    library.mkdir()
    (library / "slow_library.py").write_text(
        "import _signal, time\n"
        "def work():\n"
        "    _signal.raise_signal(_signal.SIGALRM)  # the ring lands here\n"
        "    ends = time.monotonic() + 0.2\n"
        "    while True:\n"
        "        if time.monotonic() >= ends:\n"
        "            break\n"
        "        len(())\n"
        "    global DONE\n"
        "    DONE = True\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(library))
    monkeypatch.delitem(sys.modules, "slow_library", raising=False)
    import slow_library  # type: ignore[import-not-found]

    with pytest.raises(TimeUp), alarm(0):
        slow_library.work()  # a ring due when it returns may stop the run at once
        spin(WAIT)
    assert slow_library.DONE  # recorded inside the library, where no ring raises
