"""A symmetry-broken count stopped early reports what it has counted (issue #60): the
solutions its searches found, each times the number of distinct solutions it stands for
(the size of its representative's orbit; a pinned tiling's group order), which is never
more than the true total, in the API (:class:`~excover.LimitReached`'s
``stats.solutions``, :attr:`BrokenSearch.counted`), on the command line (``N solutions
so far``, exit status 1) and in ``--json`` (the count, ``complete`` false, the route).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_totals_symmetry import TILINGS

from excover import LimitReached
from excover.main import main
from excover.names import SEARCH_ENGINES
from excover.puzzles.queens import queens
from excover.solving import registry
from excover.symmetry import BrokenSearch, Group
from excover.tiling import Pattern, Tiling, pentominoes, tiles


@pytest.fixture
def no_scout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every count that may use a symmetry does, however small (no plain scout first)."""
    monkeypatch.setattr(registry, "SCOUT_NODES", 0)
    yield


def _stopped_count(search: BrokenSearch) -> tuple[bool, int]:
    """Whether ``search`` counted to its end, and its count, or the solutions so far
    that its LimitReached carries (checked to be :attr:`BrokenSearch.counted`)."""
    try:
        return True, search.count()
    except LimitReached as stop:
        assert stop.reason == "max_nodes"
        assert stop.stats.solutions == search.counted
        return False, stop.stats.solutions


@pytest.mark.parametrize("n", [9, 10, 11, 12])
@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_a_stopped_broken_count_is_a_lower_bound_that_grows_to_the_total(
    n: int, engine: str
) -> None:
    problem = queens(n)
    group = Group(problem, problem.declared_symmetries() or [])
    true = problem.count(symmetry=False)
    partials = []
    for limit in (1, 30, 300, 3_000, 30_000, 300_000):
        done, found = _stopped_count(BrokenSearch(problem, group, engine=engine, max_nodes=limit))
        if done:  # finished within the limit: exactly the total
            assert found == true
            break
        partials.append(found)
    else:
        pytest.fail("no limit let the count finish")
    assert partials == sorted(partials) and all(0 <= p <= true for p in partials)
    assert any(p > 0 for p in partials)  # some limit stopped it with solutions counted


def test_the_counted_sum_is_the_weighted_solutions_of_the_searches_run() -> None:
    # Each search the count runs adds its solutions times its weight; run to its end, the
    # sum is the total, and every stand-in is an orbit of the group's order or a divisor.
    problem = queens(10)
    group = Group(problem, problem.declared_symmetries() or [])
    search = BrokenSearch(problem, group, engine="dlx")
    assert search.count() == search.counted == 724
    assert search.orbits is not None
    assert all(group.option_order % orbit.size == 0 for orbit in search.orbits)


@cache
def true_count(name: str) -> int:
    """The count of the tiling ``name`` of TILINGS without its symmetry (made once: the
    examples below draw the same few boards again and again)."""
    count: int = TILINGS[name]().count("search", symmetry=False)
    return count


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(sorted(TILINGS)), limit=st.integers(1, 400))
def test_a_stopped_tiling_total_never_passes_the_true_count(name: str, limit: int) -> None:
    tiling = TILINGS[name]()
    total = tiling.total("search")
    if total is None:  # no symmetry to break: nothing to check on this board
        return
    true = true_count(name)
    try:
        found = total.count("search", {"max_nodes": limit})
    except LimitReached as stop:
        assert 0 <= stop.stats.solutions <= true
        assert stop.stats.solutions % total.factor == 0  # pinned: each stands for |G|
    else:
        assert found == true


def test_a_pinned_tiling_total_stopped_by_its_time_limit_is_scaled(no_scout: None) -> None:
    """The 12 pentominoes and the square tetromino in the 8x8 square: 16,146 packings up
    to its 8 symmetries, seconds of CPU even pinned (the 6x10 box, once used here,
    finished within the limit on a quiet machine)."""
    pieces = tiles({**pentominoes(), "O4": Pattern.constant(2, 2)})
    tiling = Tiling(Pattern.constant(8, 8), pieces)
    total = tiling.total("search")
    assert total is not None and total.factor == 8 and total.group is None
    with pytest.raises(LimitReached) as stopped:
        tiling.count("search", timeout=0.3)
    found = stopped.value.stats.solutions
    assert found % 8 == 0 and found <= 16_146 * 8


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_cli_prints_the_partial_count_of_a_broken_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    status, out, err = _run(capsys, "queens", "20", "--count", "--timeout", "1")
    assert time.monotonic() - started < 30
    assert status == 1 and int(out) >= 0
    assert f"stopped by --timeout ({int(out)} solutions so far)" in err.replace(",", "")
    assert "broken by default" in err and "one branch per orbit" in err
    status, out, _ = _run(capsys, "queens", "20", "--count", "--timeout", "1", "--json")
    document = json.loads(out)
    assert status == 1 and document["complete"] is False
    assert document["stopped_by"] == "timeout" and document["count"] >= 0
    assert document["stats"]["solutions"] == document["count"]
    assert "one branch per orbit" in document["engine"]


def _wait_for_cpu(pid: int, seconds: float) -> None:
    """Wait until process ``pid`` has used ``seconds`` of CPU time (a minute at most:
    under load, wall-clock time says little of how far a child has got)."""
    tick = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + 60
    while time.monotonic() < end:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:  # utime + stime
            return
        time.sleep(0.1)


def test_ctrl_c_gives_the_partial_count_of_a_broken_count() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "excover", "queens", "20", "--count", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        _wait_for_cpu(child.pid, 1.5)  # past the start-up: the count is under way
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 130, err
    document = json.loads(out)
    assert document["stopped_by"] == "interrupt" and document["complete"] is False
    assert isinstance(document["count"], int) and document["count"] >= 0
    assert "solutions so far" in err
