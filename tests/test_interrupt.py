"""Stopping a search: Ctrl-C, timeouts and node limits, and carrying on afterwards.

A search stopped by any of these must leave its state consistent: continuing it must reach
exactly the totals (solutions, nodes, updates) of a run that was never stopped, and the
solutions it yields across the stops must be those of an uninterrupted run, each once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from builders import dominoes, queens
from runs import ended

from excover import ExactCover, LimitReached, Search

TESTS = Path(__file__).parent

#: A child process that counts the 16-queens solutions (billions of updates, many seconds)
#: and says when it starts.
LONG_COUNT = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from builders import queens
from excover import Search
search = Search(queens(16))
print("started", flush=True)
search.count()
print("finished", flush=True)
"""


def test_sigint_stops_a_long_count_in_a_child_process() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", LONG_COUNT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "started\n"
        # Let the engine get deep into the search before the interrupt arrives.
        threading.Event().wait(0.3)
        child.send_signal(signal.SIGINT)
        # a generous bound, for a loaded machine: the interrupt ends the count at once
        out, err = ended(child, 30)
    finally:
        child.kill()
        child.wait()
    assert "finished" not in out
    # An uncaught KeyboardInterrupt ends the interpreter by SIGINT, after its traceback.
    assert child.returncode == -signal.SIGINT
    assert "KeyboardInterrupt" in err


@contextmanager
def default_sigint() -> Iterator[None]:
    """Make SIGINT raise KeyboardInterrupt in the main thread, as in a plain interpreter."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupted_until_done(search: Search, call: Callable[[], object], times: int) -> int:
    """Run ``call`` (a method of ``search``), sending SIGINT to this process 20 ms into the
    first ``times`` attempts, and retry after every KeyboardInterrupt until a call
    returns. Returns how many interrupts landed inside the engine."""
    in_engine = 0
    attempts = 0
    with default_sigint():
        while True:
            timer = threading.Timer(0.02, os.kill, (os.getpid(), signal.SIGINT))
            try:
                if attempts < times:
                    timer.start()
                attempts += 1
                call()
                timer.cancel()
                if timer.is_alive():
                    timer.join()
            except KeyboardInterrupt:
                if timer.is_alive():
                    timer.join()
                in_engine += search.stats.stopped_by == "interrupt"
                continue
            return in_engine


@pytest.mark.slow  # a count of seconds, interrupted and resumed
def test_interrupted_count_resumes_without_loss() -> None:
    """Ctrl-C in the middle of count(), then count() again, several times: the totals are
    those of a run that was never interrupted."""
    problem = dominoes(8, 8)
    fresh = Search(problem)
    expected = fresh.count()
    search = Search(problem)
    interrupts = interrupted_until_done(search, search.count, times=4)
    assert interrupts >= 1, "no interrupt reached the engine: the problem is too small"
    assert search.count() == expected
    stats, reference = search.stats, fresh.stats
    assert (stats.solutions, stats.nodes, stats.updates) == (
        reference.solutions,
        reference.nodes,
        reference.updates,
    )
    assert stats.complete


def test_interrupted_count_after_some_solutions() -> None:
    """Solutions taken one by one, then an interrupted count: the count includes them
    (the 7 x 8 board's search walks 5 million nodes, ten times the 20 ms before a
    Ctrl-C lands)."""
    problem = dominoes(7, 8)
    expected = problem.count()
    search = Search(problem)
    taken = list(search.solutions(limit=1000))
    assert len({frozenset(solution) for solution in taken}) == 1000
    interrupted_until_done(search, search.count, times=2)
    assert search.count() == expected


def collect_through_limits(problem: ExactCover, step: int) -> tuple[list[list[int]], int]:
    """Every solution of a run that keeps stopping at a node limit, the limit raised by
    ``step`` nodes and the run resumed with a new solutions() iterator after each stop;
    also the number of stops."""
    search = Search(problem, max_nodes=step)
    found: list[list[int]] = []
    stops = 0
    while True:
        try:
            found.extend(search.solutions())
        except LimitReached as stop:
            stops += 1
            assert stop.stats.stopped_by == stop.reason
            assert not stop.stats.complete
            # The limit stops the run before it enters a new level, so at most the
            # solution node of the last level entered can come on top of it.
            assert stop.stats.nodes <= step * stops + 1
            search.max_nodes = step * (stops + 1)
            continue
        return found, stops


def test_max_nodes_stops_and_resumes() -> None:
    """A node limit bounds the whole run; raising it and calling again goes on, and the
    solutions over all the calls are those of one uninterrupted run."""
    problem = queens(8)
    reference = Search(problem)
    expected = list(reference.solutions())
    found, stops = collect_through_limits(problem, step=10)
    assert found == expected
    assert stops >= 1


def test_max_nodes_count_reaches_the_same_totals() -> None:
    problem = queens(9)
    reference = Search(problem)
    reference.count()
    cap = 300
    search = Search(problem, max_nodes=cap)
    stops = 0
    while True:
        before = search.stats.nodes
        try:
            total = search.count()
        except LimitReached as stop:
            assert stop.reason == "max_nodes"
            assert before < stop.stats.nodes <= cap + 1
            stops += 1
            cap += 300
            search.max_nodes = cap
            continue
        break
    assert stops >= 1
    assert total == reference.stats.solutions
    stats = search.stats
    assert (stats.nodes, stats.updates) == (reference.stats.nodes, reference.stats.updates)


def test_max_nodes_zero_stops_at_once() -> None:
    with pytest.raises(LimitReached) as stop:
        Search(queens(6), max_nodes=0).first()
    assert stop.value.reason == "max_nodes"
    assert stop.value.stats.nodes == 0


def test_timeout_raises_limit_reached() -> None:
    """A count of the 16-queens solutions cannot finish in 50 ms; the run stops with the
    reason "timeout", and once the time budget is raised the next call carries on from
    where the last one stopped."""
    search = Search(queens(16), timeout=0.05)
    with pytest.raises(LimitReached) as first_stop:
        search.count()
    assert first_stop.value.reason == "timeout"
    assert search.stats.stopped_by == "timeout"
    assert not search.stats.complete
    assert search.timeout is not None
    search.timeout += 0.05
    with pytest.raises(LimitReached) as second_stop:
        search.count()
    assert second_stop.value.stats.nodes > first_stop.value.stats.nodes
    assert second_stop.value.stats.solutions >= first_stop.value.stats.solutions
