"""What the command line says when a user slips: a missing file, another command's file,
a refused write. Each message is in the command line's words (its switches, not the
Python API's), names the file, and says what to do; none is a raw ``[Errno N]``.

Most checks call :func:`excover.main.main` in-process, as tests/test_cli.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from excover.main import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

Run = tuple[int, str, str]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    """``excover ARGV`` in-process: exit status, stdout, stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "command",
    [
        ["count"],
        ["solve"],
        ["run"],
        ["dimacs"],
        ["estimate"],
        ["nonogram"],
        ["sudoku"],
        ["studio", "--no-browser"],
    ],
)
def test_a_missing_file_is_named_without_an_errno(
    command: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.txt")
    status, _, err = run(capsys, *command, missing)
    assert status == 2
    assert missing in err
    assert "Errno" not in err and "Traceback" not in err
    assert "no such file" in err.lower()


def test_a_missing_file_that_reads_as_a_sudoku_board_is_still_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 81 characters: the size of a 9x9 puzzle, so the name is read as one and fails on
    # its characters; the error must still say that no such file exists
    monkeypatch.chdir(tmp_path)
    missing = "no_such_file_" + "x" * 64 + ".txt"
    assert len(missing) == 81
    status, _, err = run(capsys, "sudoku", missing)
    assert status == 2
    assert f"{missing}: no such file, and not a puzzle (bad character 'n' at row 1" in err
    assert "Traceback" not in err


def test_run_on_a_dlx_problem_names_the_commands_that_read_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    problem = str(EXAMPLES / "pento6x10.dlx")
    status, _, err = run(capsys, "run", problem)
    assert status == 2
    assert "looks like an exact cover problem in Knuth's DLX format" in err
    assert f"'excover count {problem}'" in err


def test_run_on_a_burrtools_puzzle_names_the_commands_that_read_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "run", str(EXAMPLES / "soma.xmpuzzle"))
    assert status == 2
    assert "looks like a BurrTools puzzle" in err and "excover count" in err


def test_nonogram_on_a_cmb_program_says_run_reads_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "scott.cmb"
    program.write_text((EXAMPLES / "scott.cmb").read_text())
    status, _, err = run(capsys, "nonogram", str(program))
    assert status == 2
    assert "looks like a .cmb program" in err and f"'excover run {program}'" in err


def test_a_program_that_is_no_other_kind_keeps_its_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = tmp_path / "bad.cmb"
    program.write_text("pattern a = {*}\npattern = b\n")
    status, _, err = run(capsys, "run", str(program))
    assert status == 2
    assert f"{program}:2:9:" in err and "looks like" not in err


def test_a_refused_write_names_the_switch_not_the_api(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.cnf").write_text("precious")
    program = tmp_path / "p.cmb"
    program.write_text('pattern b = {**}\nproblem p = b [{*} ~0..]\ndimacs p "p.cnf"\n')
    status, _, err = run(capsys, "run", str(program))
    assert status == 2
    assert "pass --overwrite to replace it" in err
    assert "Permissions" not in err
    assert (tmp_path / "p.cnf").read_text() == "precious"


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["count", "FILE", "--metod", "search"], "(did you mean --method?)"),
        (["count", "FILE", "--method", "serch"], "(did you mean search?)"),
        (["cont", "FILE"], "(did you mean count?)"),
        (["count", "FILE", "--limt=3", "--jsn"], "(did you mean --limit for --limt, --json for"),
        (["nonogram", "FILE", "--method", "sta"], "(did you mean sat?)"),
        (["run", "FILE", "--parse-onyl"], "(did you mean --parse-only?)"),
    ],
)
def test_a_mistyped_flag_or_choice_gets_the_nearest_spelling(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = str(EXAMPLES / "pento6x10.dlx")
    status, out, err = run(capsys, *[problem if word == "FILE" else word for word in argv])
    assert (status, out) == (2, "")
    assert hint in err


def test_nothing_is_suggested_when_nothing_is_close(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "count", str(EXAMPLES / "pento6x10.dlx"), "--zzzzzz")
    assert status == 2 and "unrecognized arguments: --zzzzzz" in err
    assert "did you mean" not in err


def test_solve_draws_the_first_tiling_of_a_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import xml.etree.ElementTree as ET

    picture = tmp_path / "tiling.svg"
    board, pieces = EXAMPLES / "tiling" / "square4.txt", EXAMPLES / "tiling" / "l_tetromino.txt"
    flags = ["--pieces", str(pieces), "--multiplicity", "any", "--limit", "2"]
    status, out, err = run(capsys, "solve", str(board), *flags, "--svg", str(picture))
    assert status == 0 and out.count("solution ") == 2
    assert f"solution 1 drawn in {picture}" in err
    first = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0].split("\n")
    cells = [e for e in ET.parse(picture).iter() if e.tag.endswith("polygon")]
    assert len(cells) == sum(len(row.strip()) for row in first) == 16
    colours = {e.get("fill") for e in cells}
    assert len(colours) == len(set("".join(first))) == 4  # one colour a piece


def test_solve_svg_says_a_problem_has_nothing_to_draw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    picture = tmp_path / "out.svg"
    name, said = "pento6x10.dlx", "with no picture"
    status, out, err = run(capsys, "solve", str(EXAMPLES / name), "--svg", str(picture))
    assert (status, out) == (2, "")
    assert said in err and "--pieces" in err
    assert not picture.exists()
