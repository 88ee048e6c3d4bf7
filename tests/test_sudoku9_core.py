"""The compiled 9x9 core (:mod:`excover.puzzles.sudoku._sudoku9`) against independent references.

The core keeps digit-major bitboards and deduces by table look-ups; the references do
not share any of it: the general grid solver (cell-major words, unit tables, no band
logic), the exact cover searched by dancing links, and the rules checked directly on
every solution. Puzzles are random: grids made by the general solver's random search,
thinned at random, sometimes with a clashing or misplaced given added.
"""

from __future__ import annotations

import random
from array import array

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover.puzzles import sudoku
from excover.puzzles.sudoku import _sudoku9, board, solver

BOARD = sudoku.SudokuBoard()


def rules_hold(puzzle: bytes, solution: bytes) -> bool:
    """Every row, column and box holds 1..9 once, and every given is kept."""
    digits = set(range(1, 10))
    rows = [{solution[9 * r + c] for c in range(9)} for r in range(9)]
    cols = [{solution[9 * r + c] for r in range(9)} for c in range(9)]
    boxes = [
        {solution[9 * (3 * (b // 3) + r) + 3 * (b % 3) + c] for r in range(3) for c in range(3)}
        for b in range(9)
    ]
    return all(unit == digits for unit in rows + cols + boxes) and all(
        g in (0, s) for g, s in zip(puzzle, solution, strict=True)
    )


def core(grids: bytes, limit: int) -> tuple[list[int], bytearray, list[int]]:
    n = len(grids) // 81
    counts, guesses, out = array("i", bytes(4 * n)), array("q", bytes(8 * n)), bytearray(grids)
    _sudoku9.run(grids, limit, out, counts, guesses)
    return list(counts), out, list(guesses)


def general(grids: bytes, limit: int) -> tuple[list[int], bytearray]:
    n = len(grids) // 81
    counts, out = array("i", bytes(4 * n)), bytearray(grids)
    solver._solver(BOARD).run(grids, limit, out, counts)
    return list(counts), out


def random_grid(rng: random.Random) -> bytes:
    """A random full grid, from the general solver's randomised search."""
    _, full = solver._run(BOARD, bytes(81), 1, seed=rng.getrandbits(64) | 1)
    return bytes(full)


@st.composite
def puzzles(draw: st.DrawFn) -> bytes:
    rng = random.Random(draw(st.integers(0, 2**32)))
    grid = bytearray(random_grid(rng))
    keep = draw(st.integers(0, 81))
    for cell in rng.sample(range(81), 81 - keep):
        grid[cell] = 0
    if draw(st.booleans()):  # a random given: often a clash, sometimes just a wrong digit
        grid[rng.randrange(81)] = rng.randrange(1, 10)
    return bytes(grid)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(puzzles(), min_size=1, max_size=8), st.sampled_from([1, 2, 7, 40]))
def test_counts_and_first_solutions_agree_with_the_general_solver(
    batch: list[bytes], limit: int
) -> None:
    grids = b"".join(batch)
    counts, out, _ = core(grids, limit)
    expected, _ = general(grids, limit)
    assert counts == expected
    for k, puzzle in enumerate(batch):
        solution = bytes(out[81 * k : 81 * k + 81])
        if counts[k]:
            assert rules_hold(puzzle, solution)
        else:
            assert solution == puzzle  # left as it was


@settings(max_examples=examples(40), deadline=None)
@given(puzzles())
def test_counts_agree_with_dancing_links(puzzle: bytes) -> None:
    text = bytes(puzzle).translate(board._TO_SYMBOL).decode()
    cover = sudoku.problem(text)
    assert core(puzzle, 30)[0] == [cover.count(method="search", max_solutions=30)]


def test_the_empty_grid_counts_up_to_any_limit() -> None:
    for limit in (1, 2, 5, 1000):
        counts, out, guesses = core(bytes(81), limit)
        assert counts == [limit]
        assert rules_hold(bytes(81), bytes(out))
        assert guesses[0] > 0


def test_clashing_givens_have_no_solution_and_no_search() -> None:
    row_clash = bytes([5, 5] + [0] * 79)
    column_clash = bytes([5] + [0] * 8 + [5] + [0] * 71)
    box_clash = bytes([5] + [0] * 9 + [5] + [0] * 70)
    counts, out, guesses = core(row_clash + column_clash + box_clash, 2)
    assert counts == [0, 0, 0]
    assert guesses == [0, 0, 0]
    assert bytes(out) == row_clash + column_clash + box_clash


def test_a_grid_minus_one_cell_per_row_is_unique() -> None:
    rng = random.Random(5)
    for _ in range(20):
        grid = bytearray(random_grid(rng))
        full = bytes(grid)
        for row in range(9):
            grid[9 * row + rng.randrange(9)] = 0
        counts, out, guesses = core(bytes(grid), 2)
        assert counts == [1] and bytes(out) == full and guesses == [0]


def test_bad_values_and_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="out of range in puzzle 1"):
        core(bytes(81) + bytes([10] + [0] * 80), 1)
    with pytest.raises(ValueError, match="limit"):
        core(bytes(81), 0)
    with pytest.raises(ValueError, match="too short"):
        _sudoku9.run(bytes(162), 1, bytearray(81), array("i", [0, 0]))


def test_the_api_uses_the_core_only_for_the_classic_board() -> None:
    puzzle = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    assert sudoku.solve(puzzle) == sudoku.solve(puzzle, diagonal=False, box=(3, 3))
    # the diagonal variant goes through the general solver and must obey its diagonals
    x = sudoku.solve("." * 81, diagonal=True)
    assert x is not None and len({x[10 * k] for k in range(9)}) == 9
