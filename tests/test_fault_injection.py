"""Faults injected into real command-line runs: Ctrl-C once and twice, SIGKILL of the
main process, a time limit; with each method, with and without worker processes.

Each run is a child ``excover count`` on a problem too long to finish first (16 queens:
14,772,512 solutions; the 4x15 pentomino box by DXZ subproblems). Nothing may be lost
(a partial count printed, never more than the truth), nothing may hang (the run ends
within a few seconds of the signal), and no worker may survive its main process.
(Out-of-memory runs are in test_bad_input_boundaries.py.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runs import ended, wait_until_busy

from excover.puzzles import queens

KNUTH = Path(__file__).parent / "data" / "knuth"

#: The number of 16-queens solutions, to bound a partial count from above.
QUEENS16 = 14_772_512

#: (name, extra arguments) of the runs the faults hit.
RUNS = [
    ("dlx, one process", ["--method", "search"]),
    ("dlx, 2 workers", ["--method", "search", "--workers", "2"]),
    ("zdd subproblems, 2 workers", ["--method", "zdd", "--workers", "2", "--tasks", "8"]),
    ("sat", ["--method", "sat"]),
]


@pytest.fixture(scope="module")
def queens16(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("q") / "queens16.dlx"
    queens.queens(16).write(path)
    return str(path)


def start(problem: str, extra: list[str], tmp: Path) -> subprocess.Popen[str]:
    """The run, started in a new session so that its signals reach it alone."""
    return subprocess.Popen(
        [sys.executable, "-m", "excover", "count", problem, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp,
        start_new_session=True,
    )


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pids: list[int]) -> list[int]:
    """The pids that still run (zombies, waiting for their reaper, do not)."""
    running = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.append(pid)
    return running


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The pids still running after waiting up to ``seconds`` for them to end."""
    end = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < end:
        time.sleep(0.05)
    return alive(pids)


@pytest.mark.parametrize(("name", "extra"), RUNS, ids=[name for name, _ in RUNS])
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_ends_the_run_at_once_and_keeps_a_partial_count(
    queens16: str, tmp_path: Path, name: str, extra: list[str], presses: int
) -> None:
    run = start(queens16, extra, tmp_path)
    wait_until_busy(run, 1.0)
    workers = children(run.pid)
    for _ in range(presses):
        run.send_signal(signal.SIGINT)
        time.sleep(0.2)
    out, err = ended(run, 20)
    assert run.returncode == 130, err
    assert "interrupted" in err and "partial" in err
    if out.strip():  # a count so far: a lower bound of the truth
        assert 0 <= int(out.split()[0]) <= QUEENS16
    assert wait_gone(workers, 5) == []


@pytest.mark.parametrize(("name", "extra"), RUNS, ids=[name for name, _ in RUNS])
def test_a_time_limit_ends_the_run_with_a_partial_result(
    queens16: str, tmp_path: Path, name: str, extra: list[str]
) -> None:
    run = start(queens16, [*extra, "--timeout", "1"], tmp_path)
    out, err = ended(run, 30)
    assert run.returncode == 1, err
    assert "--timeout" in err and "partial" in err
    if out.strip():
        assert 0 <= int(out.split()[0]) <= QUEENS16


# specific methods: one of each kind of worker, a search's and a family count's
@pytest.mark.parametrize("method", ["search", "zdd"])
def test_workers_die_with_a_killed_main_process(tmp_path: Path, method: str) -> None:
    """SIGKILL leaves no chance to clean up: the workers end by themselves."""
    problem = str(KNUTH / "pento6x10.dlx") if method == "zdd" else None
    if problem is None:
        path = tmp_path / "queens16.dlx"
        queens.queens(16).write(path)
        problem = str(path)
    run = start(problem, ["--method", method, "--workers", "2"], tmp_path)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60  # a bound for a loaded machine: they start in a second
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
            workers = children(run.pid)
        assert len(workers) >= 2, f"the workers did not start (the run's status: {run.poll()})"
    finally:  # the SIGKILL; should the workers not start, no run is left going
        run.kill()
        run.wait()
    assert wait_gone(workers, 30) == []  # they die at once; a bound for a loaded machine


@pytest.mark.slow  # seconds of counting, twice
def test_a_stopped_parallel_count_keeps_its_work_for_the_same_command(tmp_path: Path) -> None:
    """Without --checkpoint, a parallel count stopped early keeps its finished subproblems
    in an automatic checkpoint whose path it prints; the same command then continues
    from it, prints the exact total, and removes it."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "excover", "count", str(KNUTH / "pento6x10.dlx")]
    # dancing links take seconds here (the bit-parallel engine could finish in 1.5 s)
    command += ["--method", "search", "--engine", "dlx", "--workers", "2", "--tasks", "24"]
    # stopped once some subproblem is done: 1.5 s on an idle machine, longer on a busy one
    for limit in (1.5, 3.0, 6.0, 12.0):
        first = subprocess.run(
            [*command, "--timeout", str(limit)], capture_output=True, text=True, env=env, timeout=60
        )
        assert first.returncode == 1, first.stderr
        if "run again to resume from" in first.stderr:
            break
    assert "run again to resume from" in first.stderr
    kept = Path(first.stderr.split("run again to resume from ")[1].split()[0])
    assert kept.exists() and kept.is_relative_to(tmp_path / "cache")
    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert second.returncode == 0, second.stderr
    assert f"resuming from {kept}" in second.stderr
    assert second.stdout.split()[0] == "9356" and not kept.exists()
