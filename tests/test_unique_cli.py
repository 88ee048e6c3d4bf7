"""``excover unique FILE``: what it prints matches the API's
:func:`excover.tiling.make_unique` on the same puzzle, its JSON follows the shared schema,
and its exit statuses follow the command line's conventions. The runs that write output,
stop at a timeout or take Ctrl-C are subprocesses, as a user runs them; the others call
:func:`excover.main.main` in this process."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from runs import wait_until_busy

from excover.cli import common
from excover.cli.common import SEARCH_FLAGS
from excover.main import build_parser, main
from excover.tiling import Pattern, Tiling, make_unique, pentominoes, tiles
from excover.tiling.unique import uncoverable_cells

ROOT = Path(__file__).resolve().parent.parent
RECTANGLES = str(ROOT / "examples" / "pentomino_rectangles.cmb")
PENTO = str(ROOT / "examples" / "pento6x10.dlx")
DOMINO = "[[0, 0], [0, 1]]\n"


def excover(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "excover", "unique", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``excover unique ARGV`` in this process: its status, stdout and stderr."""
    status = main(["unique", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def _files(tmp_path: Path, board: str, pieces: str = DOMINO) -> tuple[str, str]:
    board_file, pieces_file = tmp_path / "board.txt", tmp_path / "pieces.txt"
    board_file.write_text(board)
    pieces_file.write_text(pieces)
    return str(board_file), str(pieces_file)


def test_the_json_document_holds_what_the_api_proposes(tmp_path: Path) -> None:
    board, pieces = _files(tmp_path, "####\n####\n")
    done = excover(board, "--pieces", pieces, "--multiplicity", "any", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    jsonschema.Draft202012Validator(common.schema()).validate(document)
    assert document["command"] == "unique" and document["complete"] is True
    report = make_unique(Tiling.from_files(board, pieces, multiplicity="any"), max_proposals=10)
    assert document["listed"] == report.solutions and document["listed_all"] is True
    for kind, proposals in (("placed", report.placed), ("removed", report.removed)):
        assert [p["change"] for p in document[kind]] == [p.describe() for p in proposals]
        assert document[kind] and all(p["count"] == 1 for p in document[kind])


def test_a_cmb_problem_gets_its_proposals_and_the_first_drawn() -> None:
    done = excover(RECTANGLES, "--problem", "p3x20", "--proposals", "2")
    assert done.returncode == 0, done.stderr
    report = make_unique(Tiling(Pattern.constant(20, 3), tiles(pentominoes())), max_proposals=2)
    lines = done.stdout.splitlines()
    assert lines[0] == f"p3x20: {report.solutions} solutions"
    assert f"pre-place 1 piece: {report.placed_total} ways" in lines[1]
    assert [line.strip() for line in lines[2:4]] == [p.describe() for p in report.placed]
    assert report.placed[0].ascii() in done.stdout
    assert "cells cannot be removed" in done.stdout


def test_the_last_problem_of_a_program_is_the_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "two.cmb"
    program.write_text(
        "pattern d = {**}\n"
        "problem first = constant 4x2 true [d ~0.. ~sym]\n"
        "problem second = constant 3x2 true [d ~0.. ~sym]\n"
        "count dlx first\n"
    )
    status, out, err = run(capsys, str(program), "--max-cells", "0")
    assert status == 0, err
    assert out.startswith("second: 3 solutions\n")


def test_svg_draws_the_board_with_the_pre_placed_piece(tmp_path: Path) -> None:
    board, pieces = _files(tmp_path, "####\n####\n")
    out = tmp_path / "unique.svg"
    done = excover(board, "--pieces", pieces, "--multiplicity", "any", "--svg", str(out))
    assert done.returncode == 0, done.stderr
    picture = out.read_text()
    assert picture.startswith("<svg") and picture.count("<polygon") == 8


def test_a_puzzle_without_solution_names_the_cells_no_piece_covers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board, pieces = _files(tmp_path, "##.#\n##..\n")
    status, out, err = run(capsys, board, "--pieces", pieces, "--multiplicity", "any")
    assert status == 0, err
    tiling = Tiling.from_files(board, pieces, multiplicity="any")
    names = " ".join(tiling.grid.cell_name(cell) for cell in uncoverable_cells(tiling))
    assert names and f"no piece can cover these cells: {names}" in out


def test_beyond_the_limit_placements_are_counted_one_by_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board, pieces = _files(tmp_path, "####\n####\n")
    flags = ["--pieces", pieces, "--multiplicity", "any", "--json"]
    full = json.loads(run(capsys, board, *flags, "--max-cells", "0")[1])
    status, out, err = run(capsys, board, *flags, "--max-cells", "0", "--limit", "1")
    assert status == 0, err
    document = json.loads(out)
    assert document["listed_all"] is False and document["complete"] is True
    assert {p["change"] for p in document["placed"]} == {p["change"] for p in full["placed"]}
    # removing cells then searches only the tilings listed: a partial result
    status, out, err = run(capsys, board, *flags, "--limit", "1")
    assert status == 1 and "stopped by --limit" in err
    assert json.loads(out)["stopped_by"] == "limit"


def test_a_timeout_stops_with_status_1() -> None:
    done = excover(RECTANGLES, "--problem", "p6x10", "--timeout", "0.5")
    assert done.returncode == 1, done.stderr
    assert "stopped by --timeout" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no-such.cmb"], "cannot read"),
        ([RECTANGLES, "--problem", "p9x9"], "declares no problem 'p9x9' (its problems: p3x20"),
        ([PENTO], "Knuth's DLX format: 'excover count"),
        ([PENTO], "'excover unique' takes a tiling"),
        ([RECTANGLES, "--multiplicity", "any"], "--multiplicity needs --pieces"),
        ([RECTANGLES, "--workers", "2"], "--workers does not apply to unique"),
        ([RECTANGLES, "--pieces", PENTO, "--problem", "p"], "--problem names a problem"),
        ([RECTANGLES, "--limit", "0"], "--limit"),
    ],
)
def test_bad_input_exits_2_with_a_located_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2 and message in err


def test_ctrl_c_exits_130(tmp_path: Path) -> None:
    """Ctrl-C once the child is past its start-up (:func:`runs.wait_until_busy`, by its
    CPU time, whatever the machine's load) in a listing of hours: dominoes and trominoes
    on a 12x12 board."""
    program = tmp_path / "endless.cmb"
    program.write_text("problem endless = constant 12x12 true [{**}, {***}]\n")
    argv = [sys.executable, "-m", "excover", "unique", str(program), "--limit", "1000000000"]
    process = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    wait_until_busy(process)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted" in err and "Traceback" not in err


def test_help_names_the_flags_and_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0
    for flag in ("--limit", "--timeout", "--json", "--svg", "--pieces", "--problem"):
        assert flag in out
    assert "exit status" in out


def test_every_search_flag_is_taken_or_refused() -> None:
    commands = next(
        action
        for action in build_parser("unique")._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    parser = commands.choices["unique"]
    for name in SEARCH_FLAGS:
        assert len([a for a in parser._actions if a.dest == name]) == 1, name
