"""Tests of ``excover queens`` and ``excover sudoku``, run in-process through ``main``.

Printed boards and grids are checked against the rules; counts against OEIS A000170 and
the 288 grids of the 4x4 board; statuses against puzzles built to have them.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from builders import SHARED_BENCHMARKS

from excover.cli import main
from excover.puzzles import sudoku
from excover.puzzles.cli import read_puzzles

SHARED = SHARED_BENCHMARKS / "sudoku_test.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_queens_prints_a_valid_board_and_svg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "q.svg"
    status, out, _ = run(capsys, "queens", "8", "--svg", str(svg))
    assert status == 0
    columns = [line.split().index("Q") for line in out.splitlines()]
    assert sorted(columns) == list(range(8))
    assert len({r + c for r, c in enumerate(columns)}) == 8
    assert len({r - c for r, c in enumerate(columns)}) == 8
    circles = [e for e in ElementTree.parse(svg).iter() if e.tag.endswith("circle")]
    assert len(circles) == 8


@pytest.mark.parametrize(("n", "expected"), [(6, 4), (9, 352)])  # OEIS A000170
def test_queens_count(capsys: pytest.CaptureFixture[str], n: int, expected: int) -> None:
    assert run(capsys, "queens", str(n), "--count") == (0, f"{expected}\n", "")
    status, out, _ = run(capsys, "queens", str(n), "--count", "--method", "zdd", "--json")
    assert status == 0 and json.loads(out) == {"n": n, "count": expected}


def test_queens_without_placement(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "queens", "3", "--json")
    assert status == 0 and json.loads(out) == {"n": 3, "queens": None} and err == ""


def test_sudoku_file_grid_and_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "s.svg"
    status, out, _ = run(capsys, "sudoku", str(SHARED), "--svg", str(svg))
    solution = out.strip()
    assert status == 0 and solution == sudoku.solve(SHARED.read_text())
    texts = [e.text for e in ElementTree.parse(svg).iter() if e.tag.endswith("text")]
    assert "".join(t or "" for t in texts) == solution  # every cell, row by row
    puzzle = "".join(SHARED.read_text().split())
    assert run(capsys, "sudoku", puzzle, "--classify") == (0, "unique\n", "")


def test_sudoku_batch_file_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    puzzles = [sudoku.generate((2, 3), seed=k) for k in range(5)] + ["11" + "." * 34]
    path = tmp_path / "batch.txt"
    path.write_text("# six puzzles\n" + "\n".join(puzzles) + "\n")
    status, out, err = run(capsys, "sudoku", str(path), "--json")
    results = json.loads(out)["results"]
    assert status == 0 and [r["puzzle"] for r in results] == puzzles
    assert [r["solution"] for r in results] == sudoku.solve_many(puzzles)
    assert results[-1]["status"] == "none" and results[-1]["conflicts"] == [[0, 0], [0, 1]]
    assert "puzzle 6 has no solution: clashing givens at row 1 column 1" in err


def test_sudoku_count_and_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "sudoku", "." * 16, "--count") == (0, "288\n", "")
    full = sudoku.solve("." * 16)
    assert full is not None
    top = full[:8] + "." * 8  # the top two rows given: the bottom rows have choices
    status, out, _ = run(capsys, "sudoku", top, "--all")
    listed = out.split()
    assert status == 0 and len(listed) == len(set(listed)) == sudoku.count(top, None) > 1
    for grid in listed:  # each a full grid of the rules that keeps the givens
        assert grid.startswith(full[:8]) and sudoku.classify(grid) == "unique"


def test_sudoku_variants_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "sudoku", "." * 16, "--diagonal", "--count")
    assert (status, out) == (0, f"{sudoku.count('.' * 16, None, diagonal=True)}\n")
    status, out, _ = run(capsys, "sudoku", "." * 36, "--box", "3x2")
    assert status == 0 and sudoku.count(out.strip(), box=(3, 2)) == 1
    status, _, err = run(capsys, "sudoku", "." * 80 + "x")
    assert status == 2 and "row 9, column 9" in err
    status, _, err = run(capsys, "sudoku", "." * 81, "--box", "3by3")
    assert status == 2 and "3by3" in err


def test_read_puzzles_tells_a_grid_from_a_list() -> None:
    grid = SHARED.read_text()
    assert read_puzzles(grid) == ["\n".join(grid.split())]
    lines = [sudoku.generate(seed=k) for k in range(3)]
    assert read_puzzles("\n".join(lines)) == lines
