"""Checkpoints named by several runs at once (issue 61): real concurrent processes on one
file, a reader meanwhile, links planted at the names a save uses, damaged files set aside,
too deep a nesting, a run killed outright, and the studio's counts of one design."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import KNUTH_DATA
from runs import children

from excover import ExactCover, atomic
from excover.errors import UsageError
from excover.main import main
from excover.parallel.checkpoint import Checkpoint, DamagedCheckpoint, claimed, fingerprint
from excover.parallel.sharing import FileLock
from excover.parallel.subproblems import split

QUEENS8 = KNUTH_DATA / "queens8.dlx"
QUEENS10 = KNUTH_DATA / "queens10.dlx"
PENTO3X20 = KNUTH_DATA / "pento3x20.dlx"
#: Seconds any one process of these tests may take, at most (a loaded machine included).
BOUND = 120


def _count_command(problem: Path, state: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "excover",
        "count",
        str(problem),
        "--method",
        "search",
        "--checkpoint",
        str(state),
        *extra,
    ]


def _wait_for(condition: Any, what: str, seconds: float = BOUND) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


@pytest.fixture
def lock_of(tmp_path: Path) -> Iterator[Any]:
    """Take the lock of a checkpoint path in this process (released at the end)."""
    held: list[FileLock] = []

    def take(path: Path) -> FileLock:
        lock = FileLock(path)
        assert lock.take()
        held.append(lock)
        return lock

    yield take
    for lock in held:
        lock.release()


def _read_checkpoints(path: str, problem: str, reads: int, out: Any) -> None:
    """A reader process: load ``path`` ``reads`` times while it exists; send how many of
    those reads found it damaged (or refused), and the reasons."""
    exact_cover = ExactCover.read(problem)
    bad: list[str] = []
    done = 0
    end = time.monotonic() + BOUND
    while done < reads and time.monotonic() < end:
        try:
            found = Checkpoint.load(Path(path), exact_cover, "search")
        except UsageError as exc:
            bad.append(str(exc))
            found = None
            done += 1
        else:
            done += found is not None
        time.sleep(0.005)
    out.send((done, bad))


def _reader(path: Path, problem: Path, reads: int = 100) -> tuple[Any, Any]:
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe(duplex=False)
    process = context.Process(
        target=_read_checkpoints, args=(str(path), str(problem), reads, there)
    )
    process.start()
    return process, here


def test_three_runs_of_one_checkpoint_each_print_the_count(tmp_path: Path, lock_of: Any) -> None:
    """Three commands given one --checkpoint while it is in use: each says so and waits,
    then all three print the exact count; a reader meanwhile never finds the file
    damaged, and it loads afterwards."""
    state = tmp_path / "race.json"
    expected = ExactCover.read(QUEENS10).count()
    lock = lock_of(state)
    command = _count_command(QUEENS10, state, "--tasks", "40", "--checkpoint-every", "0.01")
    errs = [tmp_path / f"err{k}" for k in range(3)]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err.open("w"), text=True)
        for err in errs
    ]
    in_use = f"checkpoint {state} is in use by process {os.getpid()}; waiting"
    _wait_for(lambda: all(in_use in err.read_text() for err in errs), "the runs to wait")
    reader, results = _reader(state, QUEENS10)
    lock.release()  # the three now take it in turn
    outputs = [run.communicate(timeout=BOUND)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0]
    assert outputs == [f"{expected}\n"] * 3
    for err in errs:
        assert "Traceback" not in err.read_text()
    done, bad = results.recv()
    reader.join()
    assert bad == [] and done == 100
    saved = Checkpoint.load(state, ExactCover.read(QUEENS10), "search")
    assert saved is not None and saved.complete and saved.count == expected
    assert not list(tmp_path.glob("race.json.*"))  # no temporary file, no lock file left


def _save_over_and_over(path: str, problem: str, saves: int, seed: int) -> None:
    """A writer process that saves a checkpoint of ``problem`` ``saves`` times, each
    with more subproblems done, without the lock (as two unlocked runs would)."""
    exact_cover = ExactCover.read(problem)
    state = Checkpoint(Path(path), fingerprint(exact_cover), "search", split(exact_cover, tasks=30))
    for k in range(saves):
        index = (k + seed) % len(state.subproblems)
        state.done[index] = (k, k)
        state.save()


def test_saves_that_race_never_leave_a_damaged_file(tmp_path: Path) -> None:
    """Three processes saving one file at once, without the lock: every one of 100
    reads meanwhile finds a whole checkpoint (one file name for every save left two of
    three runs failing and 12 reads in 107 damaged)."""
    state = tmp_path / "race.json"
    context = multiprocessing.get_context("fork")
    writers = [
        context.Process(target=_save_over_and_over, args=(str(state), str(QUEENS8), 200, seed))
        for seed in range(3)
    ]
    for writer in writers:
        writer.start()
    reader, results = _reader(state, QUEENS8)
    done, bad = results.recv()
    reader.join()
    for writer in writers:
        writer.join(BOUND)
    assert [writer.exitcode for writer in writers] == [0, 0, 0]
    assert bad == [] and done == 100
    assert Checkpoint.load(state, ExactCover.read(QUEENS8), "search") is not None
    assert not list(tmp_path.glob("*.tmp"))


def test_a_second_run_of_the_automatic_checkpoint_counts_without_it(
    tmp_path: Path, lock_of: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """The checkpoint a count keeps by itself (no --checkpoint) in use by another run:
    this one counts on without it rather than wait, and says so."""
    from excover.solving.checkpointed import automatic_checkpoint

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = automatic_checkpoint(fingerprint(ExactCover.read(QUEENS8)), "search")
    assert path is not None
    lock_of(path)
    assert main(["count", str(QUEENS8), "--method", "search", "--tasks", "6"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "92\n"
    assert f"is in use by process {os.getpid()}; counting without it" in captured.err


def test_a_wait_ends_at_the_time_limit(tmp_path: Path, lock_of: Any) -> None:
    state = tmp_path / "state.json"
    lock_of(state)
    command = _count_command(QUEENS8, state, "--timeout", "0.5")
    run = subprocess.run(command, capture_output=True, text=True, timeout=BOUND)
    assert run.returncode == 1 and "the result is partial" in run.stderr
    assert "waiting for it" in run.stderr and "still in use at the time limit" in run.stderr
    assert not state.exists()


def test_ctrl_c_ends_a_wait(tmp_path: Path, lock_of: Any) -> None:
    state = tmp_path / "state.json"
    lock_of(state)
    err = tmp_path / "err"
    run = subprocess.Popen(_count_command(QUEENS8, state), stderr=err.open("w"), text=True)
    _wait_for(lambda: "waiting for it" in err.read_text(), "the run to wait")
    run.send_signal(signal.SIGINT)
    assert run.wait(BOUND) == 130
    assert "excover: interrupted" in err.read_text() and "Traceback" not in err.read_text()
    assert not state.exists()


def test_a_process_cannot_wait_for_itself(tmp_path: Path, lock_of: Any) -> None:
    lock_of(tmp_path / "state.json")
    with (
        pytest.raises(UsageError, match="already in use by this process"),
        claimed(tmp_path / "state.json", wait=True, say=lambda text: None),
    ):
        pass


@pytest.mark.parametrize("planted", ["race.json.tmp", "race.json"])
def test_a_link_planted_beside_the_checkpoint_is_never_written_through(
    tmp_path: Path, capsys: Any, planted: str
) -> None:
    """A symbolic link at the old temporary name, or at the checkpoint's own name: the
    file it points to is left as it was."""
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    (tmp_path / planted).symlink_to(target)
    state = tmp_path / "race.json"
    assert main(["count", str(QUEENS8), "--checkpoint", str(state)]) == 0
    assert capsys.readouterr().out == "92\n"
    assert target.read_text() == "precious\n"
    assert not state.is_symlink() and Checkpoint.load(state, ExactCover.read(QUEENS8), "auto")


def test_a_link_planted_at_the_lock_is_refused(tmp_path: Path, capsys: Any) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    (tmp_path / "race.json.lock").symlink_to(target)
    state = tmp_path / "race.json"
    assert main(["count", str(QUEENS8), "--checkpoint", str(state)]) == 2
    assert f"cannot write checkpoint {state}" in capsys.readouterr().err
    assert target.read_text() == "precious\n" and not state.exists()


def test_a_failed_save_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state.json"
    state.write_text("before")

    def refuse(source: Any, destination: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_whole(state, b"after")
    assert state.read_text() == "before" and list(tmp_path.iterdir()) == [state]


@pytest.mark.parametrize("damage", ["torn", "empty", "not UTF-8", "checksum"])
def test_a_damaged_checkpoint_is_set_aside_and_the_count_starts_over(
    tmp_path: Path, capsys: Any, damage: str
) -> None:
    state = tmp_path / "state.json"
    assert main(["count", str(QUEENS8), "--checkpoint", str(state), "--timeout", "0"]) == 1
    text = state.read_bytes()
    edited = {**json.loads(text), "done": {"0": [1000, 1]}}  # the checksum left as it was
    broken = {
        "torn": text[: len(text) // 2],
        "empty": b"",
        "not UTF-8": b"\xff" + text,
        "checksum": json.dumps(edited).encode(),
    }[damage]
    state.write_bytes(broken)
    with pytest.raises(DamagedCheckpoint):
        Checkpoint.load(state, ExactCover.read(QUEENS8), "auto")
    capsys.readouterr()
    assert main(["count", str(QUEENS8), "--checkpoint", str(state)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "92\n"
    assert f"{state}: damaged checkpoint" in captured.err and "kept aside as" in captured.err
    (aside,) = tmp_path.glob("state.json.damaged-*")
    assert aside.read_bytes() == broken
    assert main(["count", str(QUEENS8), "--checkpoint", str(state)]) == 0  # and later runs
    assert capsys.readouterr().out == "92\n"


def test_another_problems_checkpoint_stays_refused_in_place(tmp_path: Path, capsys: Any) -> None:
    """Not damage but a mistake: an intact checkpoint of another problem is refused and
    left where it is."""
    state = tmp_path / "state.json"
    assert main(["count", str(QUEENS8), "--checkpoint", str(state), "--timeout", "0"]) == 1
    kept = state.read_bytes()
    assert main(["count", str(QUEENS10), "--checkpoint", str(state)]) == 2
    assert "another problem" in capsys.readouterr().err
    assert state.read_bytes() == kept and not list(tmp_path.glob("*.damaged-*"))


def test_a_deeply_nested_checkpoint_is_a_located_error(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text("[" * 200_000 + "]" * 200_000)
    run = subprocess.run(
        _count_command(QUEENS8, state), capture_output=True, text=True, timeout=BOUND
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"excover: {state}: not a checkpoint (JSON nested too deeply)\n"


def test_a_killed_run_leaves_no_stale_lock(tmp_path: Path) -> None:
    """kill -9 in the middle of a count: its lock goes with it (and its workers), and
    the next run resumes at once. The killed run counts the 3x20 pentomino box by
    dancing links with the leftmost item first, over a minute (a checkpoint names the
    method, not the engine or the heuristic), so it is surely still counting, its two
    workers started, when the kill comes; the next run counts it in a fraction of a
    second."""
    state = tmp_path / "state.json"
    lock = FileLock(state)
    slow = ["--engine", "dlx", "--heuristic", "leftmost"]
    command = _count_command(PENTO3X20, state, "--tasks", "60", "--workers", "2", *slow)
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def counting() -> bool:
        assert run.poll() is None, f"the run ended (status {run.returncode}) before the kill"
        started = lock.holder() == run.pid and state.exists()
        return started and len(children(run.pid)) >= 2

    try:
        _wait_for(counting, "the run to start its workers")
    finally:  # the kill; should the wait fail, no run is left counting for minutes
        run.send_signal(signal.SIGKILL)
        run.wait(BOUND)
    _wait_for(lock.take, "the lock to be free")  # its workers die within a second
    lock.release()
    again = subprocess.run(
        _count_command(PENTO3X20, state), capture_output=True, text=True, timeout=BOUND
    )
    assert again.returncode == 0 and again.stdout == f"{ExactCover.read(PENTO3X20).count()}\n"
    assert "in use" not in again.stderr and f"resuming from {state}" in again.stderr


def test_two_studio_counts_of_one_design_share_the_lock(tmp_path: Path, lock_of: Any) -> None:
    """A studio count whose checkpoint is held by another (a second tab, a run left by an
    earlier studio) counts without it, says so in its events, and writes nothing."""
    from excover.studio import runs
    from excover.studio.child import Outbox

    problem = ExactCover.read(QUEENS8)
    settings = runs.Settings(checkpoints=str(tmp_path), checkpoint_above=0.0)
    path = runs._checkpoint_path(settings, fingerprint(problem))
    assert path is not None
    lock_of(path)
    _kept, there = multiprocessing.Pipe(duplex=False)  # the page's end, kept open
    result = runs._counted(problem, settings, runs._News(Outbox(there, "out of memory")))
    assert result["count"] == "92" and result["complete"]
    assert f"in use by process {os.getpid()}; counting without it" in result["note"]
    assert not path.exists()


def test_a_studio_count_sets_a_damaged_checkpoint_aside(tmp_path: Path) -> None:
    from excover.studio import runs
    from excover.studio.child import Outbox

    problem = ExactCover.read(QUEENS8)
    settings = runs.Settings(checkpoints=str(tmp_path), checkpoint_above=0.0)
    path = runs._checkpoint_path(settings, fingerprint(problem))
    assert path is not None
    path.write_text('{"format": "excover-checkpoint", "ver')
    _kept, there = multiprocessing.Pipe(duplex=False)  # the page's end, kept open
    result = runs._counted(problem, settings, runs._News(Outbox(there, "out of memory")))
    assert result["count"] == "92" and "damaged checkpoint" in result["note"]
    (aside,) = tmp_path.glob("*.damaged-*")
    assert aside.read_text() == '{"format": "excover-checkpoint", "ver'
