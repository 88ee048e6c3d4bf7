"""Oversized frames and bounds in .cmb programs: each gives a located LangError (exit status 2 with
``file:line:column``), never a Python traceback; valid programs that looked odd run."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from excover import ExactCover
from excover.lang import Interpreter, LangError, parse
from excover.main import main


def run(text: str) -> str:
    out = io.StringIO()
    Interpreter(out, io.StringIO()).run(parse(text))
    return out.getvalue()


@pytest.mark.parametrize(
    ("program", "column"),
    [
        ("pattern a = constant 0x99999999999999999999999 true", 13),
        ("pattern a = resize {*} 0x99999999999999999999999", 13),
        ("pattern a = crop 0x0 99999999999999999999999x0 {*}", 13),
        # binary operations and 3D layers make frames holding every operand's frame
        ("pattern a = constant 16777216x1 false\npattern b = a || apply Rot90 a", 15),
        ("pattern a = constant 16777216x1 false\npattern3 c = [a, apply Rot90 a]", 15),
        (
            "pattern a = constant 16777216x1 false\npattern3 c = [a]\n"
            "pattern3 d = [apply Rot90 a]\nproblem3 p = c - d [c]",
            16,
        ),
    ],
)
def test_frames_too_large_for_numpy_are_located_errors(program: str, column: int) -> None:
    """A frame with a side beyond numpy's reach, or one that a union of two long thin
    frames would make, is refused before numpy is asked (it raised ValueError or
    MemoryError)."""
    with pytest.raises(LangError, match="frame is too large") as caught:
        run(program)
    assert (caught.value.pos.line, caught.value.column) == (program.count("\n") + 1, column)


def test_large_but_reasonable_frames_still_work() -> None:
    text = """
    pattern a = constant 4000x4000 true
    pattern b = a ^ shift a 3x3
    assert b && a && shift a 3x3 = constant 4003x4003 false
    problem p = crop 0x0 2x1 b [{**}]
    count dlx p
    """
    assert run(text) == "p : (DLX) 1 solutions\n"


def test_dimacs_of_a_problem_with_an_oversized_required_tile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """count says 0 and solve says none; dimacs wrote nothing and exited 2. It now writes
    an unsatisfiable formula, as combine's encoding is (the tile has no placement)."""
    monkeypatch.chdir(tmp_path)  # where a program may write
    path = tmp_path / "p.cnf"
    text = f"""
    problem p = constant 2x1 true [{{***}} ~one, {{**}}]
    count sat "cadical" p
    dimacs p "{path}"
    """
    assert run(text) == "p : (SAT) 0 solutions\n"
    cnf = path.read_text(encoding="utf-8")
    assert "\np cnf 0 1\n0\n" in cnf  # one clause, empty: no assignment satisfies it
    assert "items #1" in cnf  # the required tile that fits nowhere
    assert ExactCover(primary=["#1"]).count(method="sat") == 0


def test_cli_reports_the_frame_error_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "big.cmb"
    program.write_text("pattern a = constant 0x99999999999999999999999 true\n", encoding="utf-8")
    assert main(["run", str(program)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{program}:1:13: a 0x99999999999999999999999 frame is too large")
    assert "Traceback" not in err


def test_a_huge_multiplicity_bound_counts_as_many_as_fit() -> None:
    text = """
    problem p = constant 3x3 true [{*} ~1..99999999999999999999, {**} ~sym]
    problem q = constant 3x3 true [{*} ~1.., {**} ~sym]
    problem r = constant 3x3 true [{*} ~99999999999999999999, {**} ~sym]
    count dlx p
    count dlx q
    count zdd r
    """
    assert run(text) == (
        "p : (DLX) 131 solutions\nq : (DLX) 131 solutions\nr : (ZDD) 0 solutions\n"
    )
