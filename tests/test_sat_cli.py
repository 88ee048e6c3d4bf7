"""``excover solve|count --method sat`` with ``--solver``, ``--amo``, ``--timeout``, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from builders import queens
from runs import cpu_seconds, ended, wait_until_busy
from test_sat_limits import pigeonhole

from excover import ExactCover
from excover.main import main

#: The options that make the pigeonhole problem hard.
PAIRWISE_SAT = ["--method", "sat", "--amo", "pairwise"]

QUEENS8 = str(Path(__file__).parent / "data" / "knuth" / "queens8.dlx")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    """``excover ARGV --json`` in-process: exit status, the JSON result, stderr."""
    status = main([*argv, "--json"])
    out, err = capsys.readouterr()
    result: dict[str, Any] = json.loads(out)
    return status, result, err


@pytest.fixture
def hard(tmp_path: Path) -> str:
    """A DLX file that no SAT solver finishes soon with ``PAIRWISE_SAT`` (see
    test_sat_limits)."""
    path = tmp_path / "pigeonhole12.dlx"
    pigeonhole(12).write(path)
    return str(path)


@pytest.mark.parametrize("extra", [[], ["--solver", "glucose4", "--amo", "product"]])
def test_solve_lists_the_solutions_of_dlx(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    status, sat, _ = run_json(capsys, "solve", QUEENS8, "--method", "sat", *extra)
    assert status == 0
    _, dlx, _ = run_json(capsys, "solve", QUEENS8)
    as_sets = [frozenset(entry["options"]) for entry in sat["solutions"]]
    assert len(as_sets) == len(set(as_sets)) == sat["stats"]["solutions"]
    assert set(as_sets) == {frozenset(entry["options"]) for entry in dlx["solutions"]}
    assert sat["complete"] and sat["method"] == "sat"
    problem = ExactCover.read(QUEENS8)
    assert all(
        entry["items"] == [problem.option_items(o) for o in entry["options"]]
        for entry in sat["solutions"]
    )


def test_solve_limit(capsys: pytest.CaptureFixture[str]) -> None:
    status, result, _ = run_json(capsys, "solve", QUEENS8, "--method", "sat", "--limit", "3")
    assert status == 0
    assert len(result["solutions"]) == 3
    assert (result["complete"], result["stopped_by"]) == (False, "limit")
    assert (result["method"], result["engine"]) == ("sat", "SAT (cadical), amo auto")


def test_solve_text_and_no_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["solve", QUEENS8, "--method", "sat", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("solution 1:\n") and len(out.splitlines()) == 1 + 8
    empty = tmp_path / "queens3.dlx"
    queens(3).write(empty)
    assert main(["solve", str(empty), "--method", "sat"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "excover: no solution\nexcover: method sat, SAT (cadical), amo auto\n"


def test_count_with_solver_and_amo(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["count", QUEENS8, "--method", "sat", "--solver", "minisat22", "--amo", "bitwise"]
    status, result, _ = run_json(capsys, *argv)
    assert (status, result["count"]) == (0, ExactCover.read(QUEENS8).count())
    assert result["engine"] == "SAT (minisat22), amo bitwise"
    assert result["stats"]["algorithm"] == "SAT (minisat22)"


@pytest.mark.parametrize("command", ["count", "solve"])
def test_timeout_gives_a_partial_result_and_status_1(
    capsys: pytest.CaptureFixture[str], hard: str, command: str
) -> None:
    argv = [command, hard, "--method", "sat", "--amo", "pairwise", "--timeout", "0.2"]
    status, result, err = run_json(capsys, *argv)
    assert status == 1
    assert (result["complete"], result["stats"]["stopped_by"]) == (False, "timeout")
    assert "stopped by --timeout" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", QUEENS8, "--solver", "cadical"], "--solver goes with --method sat"),
        (["solve", QUEENS8, "--amo", "product"], "--amo goes with --method sat"),
        (["count", QUEENS8, "--method", "zdd", "--solver", "x"], "not zdd"),
        (["solve", QUEENS8, "--method", "sat", "--seed", "3"], "--seed goes with --heuristic"),
        (["count", QUEENS8, "--method", "sat", "--max-nodes", "3"], "a SAT solver has none"),
        (["solve", QUEENS8, "--method", "sat", "--heuristic", "random"], "--method search"),
        (["solve", QUEENS8, "--method", "sat", "--solver", "nosuch"], "unknown SAT solver"),
    ],
)
def test_bad_usage(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1


def test_ctrl_c_ends_the_json_document(hard: str) -> None:
    """Ctrl-C inside the solver: exit status 130, and the JSON on stdout is complete."""
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "excover", "solve", hard, "--json", *PAIRWISE_SAT],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            while out.tell() == 0 and proc.poll() is None:  # until the JSON document opens
                threading.Event().wait(0.02)
                out.seek(0, 2)
            # into the solver: half a second of CPU time past the document's start
            wait_until_busy(proc, (cpu_seconds(proc.pid) or 0.0) + 0.5)
            assert proc.poll() is None, "the solver finished before it could be interrupted"
            proc.send_signal(signal.SIGINT)
            ended(proc, 30)  # a generous bound, for a loaded machine: it ends at once
            status = proc.returncode
        finally:
            proc.kill()
            proc.wait()
        out.seek(0)
        result = json.loads(out.read())
    assert status == 130
    assert (result["solutions"], result["stats"]["stopped_by"]) == ([], "interrupt")
