"""``excover count`` by subproblems: workers, checkpoints (killed and resumed), progress."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from builders import queens

from excover.main import main
from excover.parallel import checkpoint

KNUTH = Path(__file__).parent / "data" / "knuth"


def run(*argv: str) -> tuple[int, dict[str, object]]:
    """Run the command in this process with --json; its status and JSON output."""
    import contextlib

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, json.loads(out.getvalue()) if out.getvalue() else {}


def test_workers_and_tasks_give_the_plain_count() -> None:
    queens10 = str(KNUTH / "queens10.dlx")
    status, plain = run("count", queens10, "--json")
    assert status == 0
    for extra in (["--tasks", "7"], ["--workers", "2"], ["--tasks", "5", "--method", "zdd"]):
        status, split = run("count", queens10, "--json", *extra)
        assert status == 0
        assert split["count"] == plain["count"] == 724
        assert split["complete"] is True


@pytest.fixture(scope="module")
def queens14(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Knuth's 14 queens problem in a file: a count of about a second."""
    path = tmp_path_factory.mktemp("problems") / "queens14.dlx"
    queens(14).write(path)
    return path


#: The number of solutions of the 14 queens problem.
QUEENS14 = 365596

#: The number of solutions of the 6x10 pentomino problem (Knuth's pento6x10.dlx: every
#: tiling four times, by the board's symmetries).
PENTO6X10 = 9356


@pytest.mark.slow  # a parallel count of seconds, stopped and resumed
def test_checkpoint_resumes_to_the_same_total(queens14: Path, tmp_path: Path) -> None:
    """A run killed (SIGKILL) after a checkpoint resumes and gives the exact total."""
    state = tmp_path / "state.json"
    command = [sys.executable, "-m", "excover", "count", str(queens14), "--json"]
    command += ["--tasks", "150", "--checkpoint", str(state), "--checkpoint-every", "0.05"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        done = 0
        while done == 0 and first.poll() is None:
            time.sleep(0.005)
            if state.exists():
                done = len(json.loads(state.read_text())["done"])
        os.kill(first.pid, signal.SIGKILL)
    finally:
        first.communicate()
    saved = json.loads(state.read_text())
    assert 0 < len(saved["done"]) < len(saved["subproblems"])  # killed in the middle
    second = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(second.stdout)
    assert result["count"] == QUEENS14
    assert result["stats"]["resumed"] >= len(saved["done"])
    assert result["stats"]["done"] == len(saved["subproblems"])
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert json.loads(again.stdout)["count"] == QUEENS14  # finished: nothing left to do


@pytest.mark.slow  # seconds of counting, twice
def test_ctrl_c_saves_the_checkpoint(tmp_path: Path) -> None:
    """Ctrl-C once some subproblems are done (the progress bar says so): the partial
    count is printed and saved, exit status 130, and the next run finishes the count.
    Dancing links proper on the 6x10 pentominoes: seconds of work even on a fast
    machine, so the signal lands in the middle of the run."""
    state = tmp_path / "state.json"
    problem = str(KNUTH / "pento6x10.dlx")
    command = [sys.executable, "-m", "excover", "count", problem, "--workers", "2"]
    command += ["--method", "search", "--engine", "dlx", "--tasks", "150"]
    command += ["--checkpoint", str(state), "--checkpoint-every", "1000"]
    first = subprocess.Popen(
        [*command, "--progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert first.stderr is not None
    seen = b""
    while b"subproblems" not in seen and first.poll() is None:
        seen += os.read(first.stderr.fileno(), 4096)
    first.send_signal(signal.SIGINT)
    out, err = first.communicate()
    assert first.returncode == 130, err
    assert b"interrupted" in err
    partial = int(out)
    saved = json.loads(state.read_text())
    assert saved["count"] == partial < PENTO6X10
    second = subprocess.run(command, capture_output=True, text=True, check=True)
    assert int(second.stdout) == PENTO6X10


def test_timeout_stops_and_resumes(queens14: Path, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    argv = ["count", str(queens14), "--json", "--workers", "2", "--checkpoint", str(state)]
    argv += ["--engine", "dlx"]  # the slower engine, so that 0.3 s stops it
    status, partial = run(*argv, "--timeout", "0.3")
    assert status == 1
    assert partial["complete"] is False
    assert isinstance(partial["count"], int) and partial["count"] < QUEENS14
    if state.exists():  # stopped while counting: what it counted is kept
        assert json.loads(state.read_text())["count"] == partial["count"]
    else:  # stopped while cutting the problem (a slow machine): nothing counted, or kept
        stats = partial["stats"]
        assert partial["count"] == 0 and isinstance(stats, dict) and stats["subproblems"] == 0
    status, whole = run(*argv)
    assert status == 0
    assert whole["count"] == QUEENS14


def test_progress_bar_on_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar of a count by subproblems is tqdm's, as every bar of the command: it names
    the method and the workers, shows the subproblems and ends at 100%."""
    from excover.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)  # show the bar of this short run at once
    argv = ["count", str(KNUTH / "queens8.dlx"), "--progress", "--tasks", "4", "--method", "search"]
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 0
    assert captured.out == "92\n"
    last = captured.err.split("\r")[-1]
    assert last.startswith("count (search, 1 worker): 100%|") and "subproblems=" in last
    assert "excover: method search, " in captured.err  # the method named, as every run does


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--workers", "0"], "positive integer"),
        (["--tasks", "x"], "not an integer"),
        (["--workers", "2", "--method", "sat"], "--method sat"),
        (["--workers", "2", "--max-nodes", "5"], "--max-nodes"),
    ],
)
def test_bad_options(extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", str(KNUTH / "queens8.dlx"), *extra]) == 2
    assert message in capsys.readouterr().err


def test_checkpoint_of_another_problem_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json"
    assert main(["count", str(KNUTH / "queens8.dlx"), "--checkpoint", str(state)]) == 0
    capsys.readouterr()
    assert main(["count", str(KNUTH / "queens10.dlx"), "--checkpoint", str(state)]) == 2
    assert "another problem" in capsys.readouterr().err
    assert main(["count", str(KNUTH / "queens8.dlx"), "--checkpoint", str(state)]) == 0
    capsys.readouterr()
    argv = ["count", str(KNUTH / "queens8.dlx"), "--checkpoint", str(state), "--method", "zdd"]
    assert main(argv) == 2
    assert "--method auto" in capsys.readouterr().err  # the default method
    good = json.loads(state.read_text())
    del good["checksum"]
    for key, value in [
        ("done", {"0": [1]}),
        ("done", {"99": [1, 2]}),
        ("subproblems", 3),
        ("subproblems", [1]),
    ]:
        content = {**good, key: value}  # sealed with a checksum made anew: not damage
        state.write_text(json.dumps({**content, "checksum": checkpoint.checksum(content)}))
        assert main(["count", str(KNUTH / "queens8.dlx"), "--checkpoint", str(state)]) == 2
        assert str(state) in capsys.readouterr().err
    state.write_text("[]")
    assert main(["count", str(KNUTH / "queens8.dlx"), "--checkpoint", str(state)]) == 2
    assert "not an excover-checkpoint" in capsys.readouterr().err
    state.write_text("{not json")  # damaged: set aside (tests/test_checkpoint_sharing.py)
    assert main(["count", str(KNUTH / "queens8.dlx"), "--checkpoint", str(state)]) == 0
    assert "damaged checkpoint (bad JSON" in capsys.readouterr().err
