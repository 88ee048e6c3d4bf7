"""Bad Sudoku and killer arguments are refused, naming the fault: box shapes and regions
of the wrong type, one string given as a batch, a bad puzzle deep in a batch, cages off the board,
odd digits in cage files, malformed killer cages, a file with a byte order mark, and a
count that reaches the compiled solver's cap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from excover import FormatError, ProblemError, UsageError
from excover.main import main
from excover.puzzles import sudoku
from excover.puzzles.sudoku import killer

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.mark.parametrize("box", [(3,), 3, "33", (3.0, 3.0), ("3", "3"), (True, 3), None])
def test_a_box_that_is_not_a_pair_of_ints_is_a_usage_error(box: Any) -> None:
    with pytest.raises(UsageError, match="box shape"):
        sudoku.SudokuBoard(box)
    with pytest.raises(UsageError, match="box shape"):
        sudoku.generate(box, seed=1)
    if box is not None:  # None means: infer it
        with pytest.raises(UsageError, match="box shape"):
            sudoku.solve(PUZZLE, box=box)


def test_a_box_or_regions_given_as_lists_make_a_usable_board() -> None:
    quad = [0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2
    board = sudoku.SudokuBoard([2, 2], regions=quad)  # type: ignore[arg-type]
    assert board == sudoku.SudokuBoard((2, 2), regions=tuple(quad))
    assert hash(board) == hash(sudoku.SudokuBoard((2, 2), regions=tuple(quad)))
    solution = sudoku.solve("1" + "." * 15, box=[2, 2])  # type: ignore[arg-type]
    assert solution is not None and sudoku.classify(solution) == "unique"
    for regions in (5, "aabb"):
        with pytest.raises(UsageError, match="regions"):
            sudoku.SudokuBoard((2, 2), regions=regions)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="regions"):
        sudoku.solve(PUZZLE, regions=5)  # type: ignore[arg-type]


def test_a_huge_box_fails_before_building_anything() -> None:
    with pytest.raises(UsageError, match="1000000x1000000"):
        sudoku.generate((10**6, 10**6))


def test_one_string_is_not_a_batch() -> None:
    # each character would be solved as a 1x1 puzzle: ['1', '1', '1', '1']
    for batch in (sudoku.solve_many, sudoku.classify_many, sudoku.needs_search):
        with pytest.raises(UsageError, match="list of strings"):
            batch("1111")


@pytest.mark.parametrize(
    "call",
    [
        lambda **rules: sudoku.solve(PUZZLE, **rules),
        lambda **rules: sudoku.solve_many([PUZZLE], **rules),  # the compiled lines' path
        lambda **rules: sudoku.classify_many([PUZZLE], **rules),
        lambda **rules: sudoku.needs_search([], **rules),  # an empty batch needs no board
        lambda **rules: killer.solve([(3, [(0, 0), (0, 1)])], (2, 2), **rules),
        lambda **rules: killer.count([(3, [(0, 0), (0, 1)])], (2, 2), **rules),
        lambda **rules: list(killer.solutions([(3, [(0, 0), (0, 1)])], (2, 2), **rules)),
    ],
)
def test_a_misspelt_board_keyword_is_refused_not_ignored(call: Any) -> None:
    with pytest.raises(TypeError, match="'diagonals'"):
        call(diagonals=True)


def test_a_bad_puzzle_in_a_batch_is_named_by_its_number() -> None:
    with pytest.raises(ProblemError, match=r"^puzzle 3: a 9x9 puzzle has 81 cells, not 80$"):
        sudoku.solve_many([PUZZLE, PUZZLE, PUZZLE[1:]])
    with pytest.raises(ProblemError, match=r"^puzzle 1: .* 5 cells"):
        sudoku.classify_many(["12345", PUZZLE])


@pytest.mark.parametrize("cells", [[], [(9, 0)], [(0, -1)]])
def test_a_cage_drawn_off_the_board_is_a_problem_error(cells: list[tuple[int, int]]) -> None:
    with pytest.raises(ProblemError, match="cage of sum 5"):
        sudoku.svg_grid(PUZZLE, cages=[(5, cells)])


def test_a_count_stopped_by_its_limit_is_not_reported_as_exact(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The empty 4x4 board has 288 solutions: a count stopped at 100 is a lower bound.
    assert main(["sudoku", "." * 16, "--count", "--limit", "100", "--json"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert (result["count"], result["complete"]) == (100, False)
    assert main(["sudoku", "." * 16, "--count", "--limit", "289", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert (result["count"], result["complete"]) == (288, True)


@pytest.mark.parametrize(
    "line",
    ["\u00b2: r1c1", "9" * 5000 + ": r1c1", "3: r" + "1" * 5000 + "c1", "3: r\u0661c1"],
    ids=["superscript-sum", "huge-sum", "huge-row", "arabic-indic-row"],
)
def test_odd_digits_in_a_cage_file_are_a_format_error(line: str) -> None:
    with pytest.raises(FormatError) as caught:
        killer.read_cages("3: r2c2\n" + line + "\n", 4, "cages")
    assert str(caught.value).startswith("cages:2: ")


def test_killer_cover_checks_the_box_shape() -> None:
    for box in [(3,), (10**6, 10**6)]:
        with pytest.raises(UsageError, match="box shape"):
            killer.cover([(3, [(0, 0), (0, 1)])], box)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "cage", [("3", [(0, 0), (0, 1)]), (3, [("a", 0)]), (3,), 5, (3, [(0, 0, 1)]), (3, 5)]
)
def test_a_malformed_killer_cage_is_a_usage_error(cage: Any) -> None:
    # a sum given as the string "3" used to match no digits: silently no solution
    with pytest.raises(UsageError, match="cage 1: a cage is"):
        killer.solve([(7, [(1, 1), (1, 2)]), cage], (2, 2))
    assert killer.solve([[3, [[0, 0], [0, 1]]]], (2, 2)) is not None  # type: ignore[list-item]


def test_a_puzzle_file_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_bytes(b"\xef\xbb\xbf" + PUZZLE.encode() + b"\n")
    assert main(["sudoku", str(path)]) == 0
    assert capsys.readouterr().out == sudoku.solve(PUZZLE) + "\n"  # type: ignore[operator]
