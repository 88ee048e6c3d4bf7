"""Limits of SAT runs: timeout, max_solutions, Ctrl-C, and how count() picks its counter.

The hard case is the pigeonhole problem (n+1 pigeons, n holes, as exact cover): it has no
solution, and with pairwise at-most-one clauses no resolution proof of that is short, so a
CDCL solver works on it for minutes. That lets a test stop a solver in the middle of a call.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from builders import dominoes, queens
from runs import ended, wait_until_busy

from excover import ExactCover, LimitReached
from excover.sat import solve

TESTS = Path(__file__).parent


def pigeonhole(holes: int) -> ExactCover:
    """``holes + 1`` pigeons (primary items), each put in one of ``holes`` holes
    (secondary items, at most one pigeon each): no solution."""
    problem = ExactCover(
        primary=[f"p{i}" for i in range(holes + 1)],
        secondary=[f"h{j}" for j in range(holes)],
    )
    for pigeon in range(holes + 1):
        for hole in range(holes):
            problem.add_option([f"p{pigeon}", f"h{hole}"])
    return problem


def test_small_pigeonhole_has_no_solution() -> None:
    """The hard instance's family really has no solution (checked on a small one by DLX)."""
    assert pigeonhole(5).count(method="search") == 0
    assert pigeonhole(5).first(method="sat", amo="pairwise") is None


def test_timeout_stops_a_solver_call() -> None:
    with pytest.raises(LimitReached) as stop:
        pigeonhole(12).first(method="sat", amo="pairwise", timeout=0.2)
    stats = stop.value.stats
    assert stop.value.reason == stats.stopped_by == "timeout"
    assert (stats.solutions, stats.nodes, stats.complete) == (0, 0, False)
    assert stats.algorithm == "SAT (cadical)"
    assert stats.seconds >= 0.2


@pytest.mark.parametrize("solver", ["kissat", "lingeling"])
def test_timeout_kills_a_solver_that_cannot_stop(solver: str) -> None:
    """Kissat and Lingeling run in a child process, killed at the time limit: none is
    left behind, and the next run works."""
    import multiprocessing

    with pytest.raises(LimitReached) as stop:
        pigeonhole(12).first(method="sat", amo="pairwise", solver=solver, timeout=0.3)
    assert stop.value.stats.stopped_by == "timeout" and stop.value.stats.seconds >= 0.3
    assert multiprocessing.active_children() == []
    assert pigeonhole(5).first(method="sat", solver=solver, timeout=60.0) is None
    assert queens(6).count(method="sat", solver=solver, timeout=60.0) == 4


def test_timeout_counts_the_solutions_found_so_far() -> None:
    """Enumerating 8x8 domino tilings (12,988,816) cannot end within 0.3 s; the statistics
    count exactly the solutions that were yielded before the stop."""
    yielded = []
    with pytest.raises(LimitReached) as stop:
        for solution in dominoes(8, 8).solutions(method="sat", timeout=0.3):
            yielded.append(frozenset(solution))
    # how many come before the limit depends on the machine's load, not the count's truth
    assert stop.value.stats.solutions == len(yielded) == len(set(yielded))
    with pytest.raises(LimitReached):
        dominoes(8, 8).count(method="sat", solver="glucose4", timeout=0.3)


def test_timeout_stops_ganak() -> None:
    """ganak needs about a minute for the 724 solutions of 10 queens."""
    with pytest.raises(LimitReached) as stop:
        queens(10).count(method="sat", solver="ganak", timeout=0.5)
    assert stop.value.stats.algorithm == "ganak"
    assert stop.value.stats.seconds >= 0.5


def test_a_timeout_spent_encoding_is_reported_as_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a loaded machine the encoding alone can use up the budget: the run then stops
    with its seconds at least the timeout, whichever solver was to follow."""
    encode = solve.to_cnf  # type: ignore[attr-defined]

    def slow_encoding(*args: object) -> object:
        time.sleep(0.3)
        return encode(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(solve, "to_cnf", slow_encoding)
    for solver in ("ganak", "cadical153"):
        with pytest.raises(LimitReached) as stop:
            queens(6).count(method="sat", solver=solver, timeout=0.2)
        assert stop.value.stats.stopped_by == "timeout"
        assert stop.value.stats.seconds >= 0.2


def test_timeout_stops_an_external_solver() -> None:
    sleeper = f"ext:{sys.executable} -c 'import time; time.sleep(60)'"
    with pytest.raises(LimitReached):
        queens(6).first(method="sat", solver=sleeper, timeout=0.2)


def test_a_generous_timeout_changes_nothing() -> None:
    """Solving in slices of conflicts finds the same solutions as one call."""
    for problem in (queens(7), dominoes(3, 4)):
        sliced = {frozenset(s) for s in problem.solutions(method="sat", timeout=60.0)}
        assert sliced == {frozenset(s) for s in problem.solutions()}
    assert pigeonhole(7).first(method="sat", timeout=60.0) is None


@pytest.mark.parametrize("cap", [0, 1, 5, 40, 1000])
def test_max_solutions_like_dlx(cap: int) -> None:
    problem = queens(8)
    assert problem.count(method="sat", max_solutions=cap) == problem.count(
        method="search", max_solutions=cap
    )
    found = list(problem.solutions(method="sat", max_solutions=cap, limit=3))
    assert len(found) == min(cap, 3)
    assert (problem.first(method="sat", max_solutions=cap) is None) == (cap == 0)
    capped = dominoes(4, 4).count(method="sat", solver="ganak", max_solutions=cap)
    assert capped == min(cap, dominoes(4, 4).count(method="search"))
    stats = solve.counted(problem, max_solutions=cap)
    dlx = problem.search(max_solutions=cap)
    dlx.count()
    assert (stats.complete, stats.stopped_by) == (dlx.stats.complete, dlx.stats.stopped_by)


def test_count_races_ganak_on_a_large_count() -> None:
    """6x8 dominoes (167,089 tilings): the probe finds many solutions, so ganak races the
    enumeration (and wins by far, though the test does not rely on who wins)."""
    stats = solve.counted(dominoes(6, 8))
    assert stats.solutions == dominoes(6, 8).count(method="search")
    assert stats.algorithm in ("SAT (cadical)", "ganak (raced against SAT (cadical))")
    assert stats.complete


def test_count_enumerates_a_small_count() -> None:
    stats = solve.counted(queens(8))
    assert (stats.solutions, stats.algorithm) == (92, "SAT (cadical)")


#: A child process that runs a SAT call on a problem it cannot finish for minutes, after
#: saying that it starts.
LONG_RUN = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from builders import queens
from test_sat_limits import pigeonhole
calls = {{
    "solve": lambda: pigeonhole(12).first(method="sat", amo="pairwise"),
    "sliced": lambda: pigeonhole(12).first(method="sat", amo="pairwise", timeout=600),
    "child": lambda: pigeonhole(12).first(method="sat", amo="pairwise", solver="kissat"),
    "ganak": lambda: queens(10).count(method="sat", solver="ganak"),
}}
print("started", flush=True)
calls[sys.argv[1]]()
print("finished", flush=True)
"""


@pytest.mark.parametrize("call", ["solve", "sliced", "child", "ganak"])
def test_sigint_stops_a_sat_run(call: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", LONG_RUN, call],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "started\n"
        wait_until_busy(child)  # into the solver call, however busy the machine
        child.send_signal(signal.SIGINT)
        # About 0.1 s on an idle machine; the bound only keeps a run that ignored the
        # signal (these never end unstopped) from hanging the suite.
        out, err = ended(child, 60)
    finally:
        child.kill()
        child.wait()
    assert "finished" not in out
    # Ended by SIGINT: Python could re-raise it, so PySAT left it unblocked (else 130).
    assert child.returncode == -signal.SIGINT
    assert "KeyboardInterrupt" in err


def test_the_encoding_is_bounded_by_the_time_limit_too() -> None:
    """A large formula takes seconds to build and to load: the encoder reads the clock
    (through ``check``) every CHECK_EVERY items, and a limit already spent stops the
    encoding of a nonogram at its first line, before any solving."""
    import time

    from excover import nonogram
    from excover.nonogram import sat as nonogram_sat
    from excover.sat.encode import CHECK_EVERY, to_cnf
    from excover.tiling import Pattern, Tiling, pentominoes, tiles

    problem = Tiling(Pattern.constant(20, 20), tiles(pentominoes(), "any")).problem
    calls: list[int] = []

    class Stop(Exception):
        pass

    def check() -> None:
        calls.append(1)
        if len(calls) == 2:
            raise Stop

    with pytest.raises(Stop):
        to_cnf(problem, "auto", check)
    assert problem.n_primary > CHECK_EVERY  # so the second check comes before the end
    puzzle = nonogram.puzzle_of([[1]] * 30, [[1]] * 30)
    with pytest.raises(LimitReached):
        nonogram_sat.encode(puzzle, deadline=time.monotonic())


def test_a_handler_raising_as_sigint_is_held_leaves_the_mask_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python runs pending signal handlers inside ``pthread_sigmask``, after changing the
    mask. When one raises there (a time limit's alarm) as the slice holds SIGINT, SIGINT
    must not stay blocked: a later Ctrl-C would never arrive."""
    real = signal.pthread_sigmask

    class Alarm(Exception):
        """Raised by the simulated handler."""

    def raising_after_the_change(how: int, mask: set[int]) -> set[int]:
        previous = real(how, mask)
        if how == signal.SIG_BLOCK and signal.SIGINT in mask:
            raise Alarm
        return set(previous)

    before = real(signal.SIG_BLOCK, ())
    monkeypatch.setattr(signal, "pthread_sigmask", raising_after_the_change)
    with pytest.raises(Alarm):
        solve._with_sigint_held(lambda: True)
    monkeypatch.undo()
    assert real(signal.SIG_BLOCK, ()) == before
    assert signal.SIGINT not in before
