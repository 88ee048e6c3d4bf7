"""Generated batches of Sudoku puzzles: unique, with the givens and difficulty asked for.

Uniqueness is checked by dancing links on each puzzle's exact cover (``sudoku.problem``),
not by the compiled grid solver the generator itself uses.
"""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from excover import UsageError
from excover.main import main
from excover.puzzles import sudoku
from excover.puzzles.sudoku.generator import generate_many


def unique_by_dancing_links(puzzle: str, box: tuple[int, int] = (3, 3)) -> bool:
    cover = sudoku.problem(puzzle, box=box)
    return cover.search(engine="dlx", max_solutions=2).count() == 1


@pytest.mark.parametrize("givens", [24, 30, 50, 81])
def test_exactly_the_givens_asked_for(givens: int) -> None:
    for puzzle in generate_many(3, seed=givens, givens=givens):
        assert sum(symbol != "." for symbol in puzzle) == givens
        assert unique_by_dancing_links(puzzle)


@pytest.mark.parametrize("difficulty", ["singles", "search"])
def test_difficulty_is_what_singles_alone_settle(difficulty: str) -> None:
    puzzles = list(generate_many(4, seed=5, difficulty=difficulty))  # type: ignore[arg-type]
    assert sudoku.needs_search(puzzles) == [difficulty == "search"] * 4
    assert all(unique_by_dancing_links(p) for p in puzzles)


def test_other_boxes_and_reproducible_seeds() -> None:
    small = list(generate_many(3, (2, 3), seed=9))
    assert small == list(generate_many(3, (2, 3), seed=9))
    assert all(len(p) == 36 and unique_by_dancing_links(p, (2, 3)) for p in small)
    assert list(generate_many(0)) == []


def test_impossible_requests_say_why() -> None:
    with pytest.raises(UsageError, match="no puzzle with 5 givens"):
        next(generate_many(1, seed=1, givens=5))
    with pytest.raises(UsageError, match="givens must be"):
        next(generate_many(1, givens=82))
    with pytest.raises(UsageError, match="unknown difficulty"):
        next(generate_many(1, difficulty="fiendish"))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="non-negative"):
        next(generate_many(-1))


def test_command_line_generates_and_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sudoku", "--generate", "3", "--givens", "28", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.split()
    assert len(lines) == 3 and all(sum(c != "." for c in line) == 28 for line in lines)
    assert lines == list(generate_many(3, seed=4, givens=28))
    for argv, message in [
        (["sudoku", "x", "--generate", "1"], "give no PUZZLE"),
        (["sudoku", "--generate", "1", "--count"], "--count does not go with --generate"),
        (["sudoku", "x", "--givens", "20"], "--givens goes with --generate"),
        (["sudoku"], "give a PUZZLE"),
    ]:
        assert main(argv) == 2
        assert message in capsys.readouterr().err


def test_pretty_prints_solutions_as_grids(capsys: pytest.CaptureFixture[str]) -> None:
    """``--pretty`` prints each solution over several lines, and the grid reads back."""
    puzzles = list(generate_many(2, seed=3))
    status = main(["sudoku", puzzles[0], "--pretty"])
    out = capsys.readouterr().out
    assert status == 0 and out.endswith("\n\n") and len(out.strip().splitlines()) == 11
    assert sudoku.format_grid(sudoku.solve(puzzles[0]) or "") == out.strip()
    assert main(["sudoku", puzzles[0], "--pretty", "--classify"]) == 2
    assert "--pretty shapes printed solutions" in capsys.readouterr().err


def test_cage_sums_stay_clear_of_the_digits() -> None:
    """In every cell that carries a cage sum, the digit's top (its baseline less the 0.72
    em of a digit's height) lies below the sum's baseline, and the digit ends above the
    cage's dashed outline; the sums of two-digit totals too."""
    grid = sudoku.solve("." * 81)
    assert grid is not None
    cages = [
        (int(grid[9 * r + c]) + int(grid[9 * r + c + 1]), [(r, c), (r, c + 1)])
        for r in range(9)
        for c in range(0, 8, 2)
    ]
    cages.append((sum(int(grid[9 * r + 8]) for r in range(9)), [(r, 8) for r in range(9)]))
    svg = ElementTree.fromstring(sudoku.svg_grid("." * 81, grid, cages=cages))
    texts = [e for e in svg.iter() if e.tag.endswith("text")]
    cell = 32
    digits = {
        (int(float(e.get("y", 0)) // cell), int(float(e.get("x", 0)) // cell)): e
        for e in texts
        if not e.get("class")
    }
    sums = [e for e in texts if e.get("class") == "cage-sum"]
    assert len(sums) == len(cages) and len(digits) == 81
    for total in sums:
        row, column = int(float(total.get("y", 0)) // cell), int(float(total.get("x", 0)) // cell)
        digit = digits[(row, column)]
        digit_top = float(digit.get("y", 0)) - 0.72 * float(digit.get("font-size", 0))
        assert digit_top > float(total.get("y", 0))
        assert float(digit.get("y", 0)) < (row + 1) * cell - 4  # above the dashed outline
