"""Solver calls in a child process that runs only while the parent waits for it."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

from excover.sat.child import ChildRun
from excover.sat.pool import Clause


def pigeonhole_clauses(holes: int) -> list[Clause]:
    """``holes + 1`` pigeons in ``holes`` holes, at most one per hole: unsatisfiable, and
    slow for any CDCL solver from about 10 holes on."""

    def var(pigeon: int, hole: int) -> int:
        return pigeon * holes + hole + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            clauses.append([-var(p, h), -var(q, h)])
    return clauses


def state(pid: int) -> str:
    """The process state letter Linux reports (R running, S sleeping, T stopped, ...),
    once it is T or after 30 s (a signal takes effect a little later, and on a loaded
    machine a process may wait seconds for the CPU it needs to stop)."""
    deadline = time.monotonic() + 30
    while True:
        letter = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if letter == "T" or time.monotonic() > deadline:
            return letter
        time.sleep(0.01)


def test_the_child_is_stopped_between_turns_and_killed_on_close() -> None:
    run = ChildRun("kissat404", pigeonhole_clauses(11))
    pid = run.child.pid
    assert pid is not None
    assert state(pid) == "T"
    assert not run.advance(time.monotonic() + 0.2)
    assert state(pid) == "T"
    run.close()
    assert not run.child.is_alive()


def test_a_run_in_many_turns_answers_like_one_call() -> None:
    rng = random.Random(7)
    for _ in range(5):
        clauses = [[rng.choice([-1, 1]) * rng.randint(1, 60) for _ in range(3)] for _ in range(250)]
        whole = ChildRun("kissat404", clauses)
        assert whole.advance(None)
        expected = whole.answer()
        pieces = ChildRun("kissat404", clauses)
        while not pieces.advance(time.monotonic() + 0.001):
            pass
        got = pieces.answer()
        assert (got is None) == (expected is None)
        if got is not None:
            true = set(got)
            assert all(any(literal in true for literal in clause) for clause in clauses)
