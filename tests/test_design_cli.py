"""``excover design``: what it prints is what the API's search reports, its JSON follows
the shared schema, the designs it writes are programs and pictures that say the same,
the shared flags are taken or refused, and a run stopped by --timeout or Ctrl-C (a
subprocess, as a user runs it) keeps its ledger, from which the same command resumes.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from runs import ended

from excover.cli import common
from excover.cli.common import SEARCH_FLAGS
from excover.design import Goal, search
from excover.design.ledger import Ledger
from excover.main import build_parser, main
from excover.tiling.designs import PackingSpace

ROOT = Path(__file__).resolve().parent.parent
RECTANGLE = ["packing", "--board", "5x4", "--catalog", "pentominoes", "--pieces", "4"]
DECLARATION = """\
kind = "packing"
board = "5x4"
catalog = "pentominoes"
pieces = 4

[goal]
solutions = 2
top = 3
by = "nodes"
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["design", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_text_report_is_the_search_s(capsys: pytest.CaptureFixture[str]) -> None:
    report = search(PackingSpace(board="5x4", catalog="pentominoes", pieces=4))
    status, out, err = run(capsys, *RECTANGLE)
    assert status == 0 and " s on 1 process; " in err  # the time, on stderr
    assert run(capsys, *RECTANGLE, "--quiet")[1:] == (out, "")
    lines = out.splitlines()
    assert lines[0] == "packing: 4 of the 12 pentominoes (turn all) in the 5x4 rectangle"
    assert lines[1] == "goal: exactly one solution up to symmetry"
    assert "designs by solutions: 0: 469, 1: 9, 2 or more: 17" in lines
    assert "qualifying: 9 designs" in lines
    for rank, found in enumerate(report.found, 1):
        assert f"  {rank}. {found.key}  (1 solution, nodes {found.scores['nodes']})" in lines
    assert "the first, solved:" in lines


def test_the_json_document_follows_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, *RECTANGLE, "--goal", "2", "--json")
    document = json.loads(out)
    jsonschema.validate(document, common.schema())
    report = search(PackingSpace(board="5x4", catalog="pentominoes", pieces=4), Goal(solutions=2))
    assert status == 0 and document["command"] == "design" and document["complete"]
    assert document["qualifying"] == report.qualifying
    assert document["distribution"] == report.distribution
    assert [f["key"] for f in document["found"]] == [f.key for f in report.found]


def test_boards_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "boards", "--catalog", "trominoes", "--use", "I3,L3", "--json")
    document = json.loads(out)
    jsonschema.validate(document, common.schema())
    assert status == 0 and (document["designs"], document["qualifying"]) == (35, 11)
    assert all(8 % found["weight"] == 0 for found in document["found"])  # orbits of D4
    status, _, _ = run(
        capsys, "boards", "--catalog", "trominoes", "--use", "I3,L3", "--write", str(tmp_path)
    )
    program = tmp_path / f"design-{document['found'][0]['index']}.cmb"
    done = subprocess.run(
        [sys.executable, "-m", "excover", "run", str(program), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert status == 0 and done.stdout.startswith("design : (DLX) 1 solutions up to symmetry")


def test_a_declaration_file_runs_as_its_flags_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "run.toml"
    path.write_text(DECLARATION)
    _, from_file, _ = run(capsys, str(path), "--json")
    _, from_flags, _ = run(
        capsys, *RECTANGLE, "--goal", "2", "--top", "3", "--by", "nodes", "--json"
    )
    first, second = json.loads(from_file), json.loads(from_flags)
    for document in (first, second):
        del document["input"], document["elapsed"], document["seconds"]
    assert first == second and len(first["found"]) == 3
    nodes = [f["scores"]["nodes"] for f in first["found"]]
    assert nodes == sorted(nodes, reverse=True)
    piped = subprocess.run(
        [sys.executable, "-m", "excover", "design", "-", "--json"],
        input="\ufeff" + DECLARATION,  # standard input, with a byte order mark
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert piped.returncode == 0, piped.stderr
    third = json.loads(piped.stdout)
    del third["input"], third["elapsed"], third["seconds"]
    assert third == first


def test_the_run_table_sets_the_ledger_and_the_flags_override_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "run.toml"
    ledger = tmp_path / "file.ledger"
    path.write_text(DECLARATION + f'\n[run]\nledger = "{ledger}"\nstop = 100\n')
    status, out, _ = run(capsys, str(path), "--json")
    assert status == 0 and ledger.exists()
    assert json.loads(out)["range"] == [0, 100]
    other = tmp_path / "flag.ledger"
    status, out, _ = run(capsys, str(path), "--ledger", str(other), "--range", "50:150", "--json")
    assert status == 0 and other.exists() and json.loads(out)["range"] == [50, 150]
    status, out, _ = run(capsys, str(path), "--json")  # the file's ledger: all resumed
    assert json.loads(out)["resumed"] == 100


def test_written_designs_are_programs_and_pictures_of_one_solution(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, *RECTANGLE, "--write", str(tmp_path / "cmb"), "--show", "0")
    assert status == 0 and "wrote 9 designs" in err
    programs = sorted((tmp_path / "cmb").glob("design-*.cmb"))
    assert len(programs) == 9
    for program in programs[:3]:
        done = subprocess.run(
            [sys.executable, "-m", "excover", "run", str(program), "--quiet"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("design : (DLX) 1 solutions up to symmetry\n")
    status, _, _ = run(capsys, *RECTANGLE, "--write", str(tmp_path / "svg"), "--format", "svg")
    pictures = sorted((tmp_path / "svg").glob("design-*.svg"))
    assert status == 0 and len(pictures) == 9
    assert all(p.read_text().lstrip().startswith("<svg") for p in pictures)


def test_every_shared_flag_is_taken_or_refused() -> None:
    commands = next(
        action
        for action in build_parser("design")._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    parser = commands.choices["design"]
    for name in SEARCH_FLAGS:
        assert len([a for a in parser._actions if a.dest == name]) == 1, name


def test_a_timeout_reports_what_was_done_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ledger = tmp_path / "run.ledger"
    status, out, err = run(capsys, *RECTANGLE, "--timeout", "0", "--ledger", str(ledger), "--json")
    assert status == 1 and "stopped by --timeout; the result is partial" in err
    assert "the same command resumes" in err
    document = json.loads(out)
    assert (document["complete"], document["stopped_by"]) == (False, "timeout")
    status, out, _ = run(capsys, *RECTANGLE, "--ledger", str(ledger), "--json")
    assert status == 0 and json.loads(out)["qualifying"] == 9


BOX = ["packing", "--board", "5x3x2", "--catalog", "pentacubes", "--pieces", "6"]


def _recorded(ledger: Path) -> int:
    """The highest index the ledger holds an outcome for (every line read back whole)."""
    space = PackingSpace(board="5x3x2", catalog="pentacubes", pieces=6)
    header = {"kind": "packing", "space": space.declaration(), "size": space.size}
    header["goal"] = Goal().as_dict()
    with Ledger(ledger, header) as book:
        assert book.ranges, "nothing was recorded"
        return max(line.stop for line in book.ranges)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_exits_130_with_the_ledger_whole(tmp_path: Path, workers: str) -> None:
    ledger = tmp_path / "run.ledger"
    argv = [sys.executable, "-m", "excover", "design", *BOX, "--ledger", str(ledger)]
    process = subprocess.Popen(
        [*argv, "--workers", workers],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    end = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < end:  # until outcomes are on disk
        if ledger.exists() and ledger.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = ended(process, 60)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert out.startswith("packing: 6 of the 29 pentacubes")  # the partial report
    done = _recorded(ledger)
    # the same command over a range holding what was recorded: the ledger's outcomes
    # taken, the rest searched, the figures those of a run without a stop
    stop = min(done + 200, 475_020)
    resumed = subprocess.run(
        [*argv, "--range", f"0:{stop}", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    document = json.loads(resumed.stdout)
    assert document["resumed"] > 0
    direct = search(PackingSpace(board="5x3x2", catalog="pentacubes", pieces=6), stop=stop)
    assert document["distribution"] == direct.distribution
    assert document["qualifying"] == direct.qualifying
