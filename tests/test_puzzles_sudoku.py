"""Tests of :mod:`excover.puzzles.sudoku`: the compiled batch solver, the generic cover,
the generator and the parser.

References, all independent of the compiled solver: the rules checked directly on every
solution; a brute force over all 288 grids of the 4x4 board (with a filter for each
variant); the generic dancing-links engine on :func:`sudoku.problem`; puzzles whose status
follows from how they were built (a solved grid minus one cell per row is unique, a row
that needs a digit its column already has is unsolvable, an empty board has many
solutions).
"""

from __future__ import annotations

import itertools
import random
import signal
import warnings
from functools import cache
from typing import Any

import pytest
from budget import examples
from builders import COMBINE_DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExcoverError, ExcoverWarning, ProblemError, UsageError
from excover.puzzles import sudoku

SHARED = COMBINE_DATA / "sudoku_test.txt"

#: Puzzles known for being hard for solvers that do not search: "Easter Monster" and Arto
#: Inkala's 2012 puzzle; each has exactly one solution.
FAMOUS = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
]

#: A 4x4 jigsaw map: each letter is one region of four cells.
JIGSAW4 = "AABBACBBACDDCCDD"


def units(board: sudoku.SudokuBoard) -> list[list[int]]:
    """The rules' units, written out again here rather than taken from the module."""
    n, (rows, columns) = board.size, board.box
    found = [[r * n + c for c in range(n)] for r in range(n)]
    found += [[r * n + c for r in range(n)] for c in range(n)]
    if board.regions is None:
        for b in range(n):
            top, left = (b // (n // columns)) * rows, (b % (n // columns)) * columns
            found.append([(top + r) * n + left + c for r in range(rows) for c in range(columns)])
    else:
        for label in set(board.regions):
            found.append([k for k in range(n * n) if board.regions[k] == label])
    if board.diagonal:
        found += [[k * n + k for k in range(n)], [k * n + n - 1 - k for k in range(n)]]
    return found


def obeys_rules(puzzle: str, solution: str, board: sudoku.SudokuBoard) -> bool:
    """A full grid, every unit holding each symbol once, every given kept."""
    n = board.size
    symbols = set(sudoku.SYMBOLS[:n])
    givens = puzzle.replace("0", ".")
    return (
        len(solution) == n * n
        and all({solution[k] for k in unit} == symbols for unit in units(board))
        and all(g in (".", s) for g, s in zip(givens, solution, strict=True))
    )


@cache
def latin_squares() -> list[str]:
    """Every 4x4 Latin square, by brute force: rows are permutations, stacked while no
    column repeats. Each variant's grids are the squares that obey its other units."""
    rows = ["".join(p) for p in itertools.permutations("1234")]
    squares = [""]
    for _ in range(4):
        squares = [
            square + row
            for square in squares
            for row in rows
            if all(row[c] not in square[c::4] for c in range(4))
        ]
    return squares


def brute_count(puzzle: str, board: sudoku.SudokuBoard) -> int:
    return sum(
        1
        for grid in latin_squares()
        if obeys_rules("." * 16, grid, board)
        and all(g in ".0" or g == s for g, s in zip(puzzle, grid, strict=True))
    )


def test_the_4x4_board_has_288_grids() -> None:
    assert len(latin_squares()) == 576  # classical figures, found by the brute force
    assert brute_count("." * 16, sudoku.SudokuBoard((2, 2))) == 288
    assert sudoku.count("." * 16, None) == 288


JIGSAW_REGIONS = tuple(ord(ch) - ord("A") for ch in JIGSAW4)
BOARDS_4X4 = [
    sudoku.SudokuBoard((2, 2)),
    sudoku.SudokuBoard((2, 2), diagonal=True),
    sudoku.SudokuBoard((2, 2), regions=JIGSAW_REGIONS),
]


@settings(max_examples=examples(150), deadline=None)
@given(
    board_number=st.sampled_from(range(len(BOARDS_4X4))),
    cells=st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4)), max_size=8),
)
def test_4x4_counts_match_brute_force(board_number: int, cells: list[tuple[int, int]]) -> None:
    board = BOARDS_4X4[board_number]
    grid = ["."] * 16
    for cell, value in cells:
        grid[cell] = str(value)
    puzzle = "".join(grid)
    regions = JIGSAW4 if board.regions else None
    options: dict[str, Any] = {"box": board.box, "diagonal": board.diagonal, "regions": regions}
    expected = brute_count(puzzle, board)
    assert sudoku.count(puzzle, None, **options) == expected
    assert sudoku.classify(puzzle, **options) == ("none", "unique", "multiple")[min(expected, 2)]
    solution = sudoku.solve(puzzle, **options)
    assert (solution is None) == (expected == 0)
    if solution is not None:
        assert obeys_rules(puzzle, solution, board)
    listed = set(sudoku.solutions(puzzle, **options))
    assert len(listed) == expected and all(obeys_rules(puzzle, s, board) for s in listed)


@pytest.mark.parametrize("puzzle", [SHARED.read_text(), *FAMOUS])
def test_hard_9x9_puzzles_are_unique_and_solved(puzzle: str) -> None:
    board = sudoku.board_for(puzzle)
    solution = sudoku.solve(puzzle)
    assert solution is not None and obeys_rules(puzzle.replace("\n", ""), solution, board)
    assert sudoku.classify(puzzle) == "unique"
    assert list(sudoku.solutions(puzzle)) == [solution]  # the generic engine agrees


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 4)])
def test_constructed_statuses(box: tuple[int, int]) -> None:
    n = box[0] * box[1]
    board = sudoku.SudokuBoard(box)
    full = sudoku.solve("." * n * n, box=box)
    assert full is not None and obeys_rules("." * n * n, full, board)
    rng = random.Random(n)
    # One blank per row: each is forced by its row, so the solution is unique.
    holes = list(full)
    for row in range(n):
        holes[row * n + rng.randrange(n)] = "."
    unique = "".join(holes)
    assert sudoku.classify(unique, box=box) == "unique"
    assert sudoku.solve(unique, box=box) == full
    # Row 0 holds every digit but the first cell's, which column 0 already has: no
    # clash among the givens, yet no solution.
    row0 = "." + full[1:n]
    column_given = ["."] * (n * n - n)
    column_given[(box[0] - 1) * n] = full[0]  # cell (box[0], 0): below box 0
    stuck = row0 + "".join(column_given)
    assert sudoku.conflicts(stuck, box=box) == []
    assert sudoku.classify(stuck, box=box) == "none"
    assert sudoku.solve(stuck, box=box) is None
    assert sudoku.classify("." * n * n, box=box) == "multiple"


def test_clashing_givens_are_a_result_and_listed() -> None:
    puzzle = list("." * 81)
    puzzle[0], puzzle[8] = "5", "5"  # same row
    puzzle[30], puzzle[40] = "7", "7"  # same box (rows 3-4, columns 3-4)
    text = "".join(puzzle)
    assert sudoku.solve(text) is None
    assert sudoku.classify(text) == "none"
    assert sudoku.count(text, None) == 0
    assert sudoku.conflicts(text) == [(0, 0), (0, 8), (3, 3), (4, 4)]
    assert sudoku.problem(text).first() is None


def test_multi_line_grid_reads_like_one_line() -> None:
    puzzle = SHARED.read_text()
    one_line = "".join(puzzle.split())
    grid = sudoku.format_grid(one_line)
    assert "|" in grid and "\n" in grid
    assert sudoku.solve(grid) == sudoku.solve(one_line) == sudoku.solve(puzzle)


def test_solve_many_agrees_with_solve_and_keeps_the_cover_intact() -> None:
    puzzles = [sudoku.generate(seed=k) for k in range(20)]
    puzzles += ["11" + "." * 79, "." * 81, FAMOUS[0]]
    one_by_one = [sudoku.solve(p) for p in puzzles]
    assert sudoku.solve_many(puzzles) == one_by_one
    assert sudoku.solve_many(reversed(puzzles)) == one_by_one[::-1]
    statuses = sudoku.classify_many(puzzles)
    assert statuses == [sudoku.classify(p) for p in puzzles]
    assert statuses[-3:] == ["none", "multiple", "unique"]
    assert sudoku.solve_many([]) == []


@pytest.mark.parametrize(
    ("box", "symmetric", "diagonal"),
    [((3, 3), False, False), ((3, 3), True, False), ((2, 3), False, False), ((3, 3), False, True)],
)
def test_generated_puzzles_are_unique_and_minimal(
    box: tuple[int, int], symmetric: bool, diagonal: bool
) -> None:
    for seed in range(3):
        puzzle = sudoku.generate(box, seed=seed, symmetric=symmetric, diagonal=diagonal)
        assert puzzle == sudoku.generate(box, seed=seed, symmetric=symmetric, diagonal=diagonal)
        cover = sudoku.problem(puzzle, box=box, diagonal=diagonal)
        assert cover.count(method="search") == 1  # the generic engine confirms uniqueness
        size = len(puzzle)
        givens = [k for k in range(size) if puzzle[k] != "."]
        groups = {tuple(sorted({k, size - 1 - k} if symmetric else {k})) for k in givens}
        if symmetric:
            assert all(puzzle[size - 1 - k] != "." for k in givens)
        for group in groups:
            fewer = "".join("." if k in group else ch for k, ch in enumerate(puzzle))
            assert sudoku.count(fewer, box=box, diagonal=diagonal) == 2


def test_unminimised_puzzle_is_unique() -> None:
    puzzle = sudoku.generate((2, 3), seed=5, minimal=False)
    assert sudoku.problem(puzzle).count(method="search") == 1


def test_larger_boards() -> None:
    for box in [(4, 4), (5, 5)]:
        n = box[0] * box[1]
        solution = sudoku.solve("0" * n * n)
        assert solution is not None and obeys_rules("." * n * n, solution, sudoku.SudokuBoard(box))
    puzzle = sudoku.generate((4, 4), seed=1)
    assert sudoku.classify(puzzle) == "unique"


@pytest.mark.parametrize("diagonal", [False, True])
def test_25x25_generation_and_solving(diagonal: bool) -> None:
    """Minimal 25x25 puzzles are out of reach (see the README); unminimised ones are
    generated and solved in a blink, and the generic engine confirms uniqueness."""
    board = sudoku.SudokuBoard((5, 5), diagonal=diagonal)
    puzzle = sudoku.generate((5, 5), seed=2, minimal=False, diagonal=diagonal)
    assert len(puzzle) == 625 and set(puzzle) <= set("." + sudoku.SYMBOLS[:25])
    assert puzzle != sudoku.generate((5, 5), seed=3, minimal=False, diagonal=diagonal)
    solution = sudoku.solve(puzzle, diagonal=diagonal)
    assert solution is not None and obeys_rules(puzzle, solution, board)
    assert sudoku.classify(puzzle, diagonal=diagonal) == "unique"
    if not diagonal:
        assert sudoku.problem(puzzle).count(method="search") == 1
    # Without the givens of the first row the solution stays a solution.
    fewer = "." * 25 + puzzle[25:]
    assert sudoku.count(fewer, 2, diagonal=diagonal) >= 1
    assert obeys_rules(fewer, solution, board)


def singles_only(puzzle: str, board: sudoku.SudokuBoard) -> str | None:
    """Naked and hidden singles applied until none is left, in plain Python: the solved
    grid when they solve ``puzzle``, None when they stall or find a contradiction."""
    n = board.size
    digits = set(sudoku.SYMBOLS[:n])
    grid = list(puzzle)
    groups = units(board)
    changed = True
    while changed:
        changed = False
        candidates = {}
        for k in range(n * n):
            if grid[k] == ".":
                seen = {grid[j] for g in groups if k in g for j in g}
                candidates[k] = digits - seen
        for k, left in candidates.items():
            if not left:
                return None
            if len(left) == 1:
                grid[k] = left.pop()
                changed = True
                break
        if changed:
            continue
        for group in groups:
            for digit in digits - {grid[k] for k in group}:
                places = [k for k in group if digit in candidates.get(k, ())]
                if len(places) == 1:
                    grid[places[0]] = digit
                    changed = True
                    break
            if changed:
                break
    return None if "." in grid else "".join(grid)


def test_needs_search_agrees_with_a_plain_singles_solver() -> None:
    board = sudoku.SudokuBoard()
    puzzles = [sudoku.generate(seed=k) for k in range(40)] + FAMOUS
    hard = sudoku.needs_search(puzzles)
    by_singles = [singles_only(p, board) for p in puzzles]
    assert hard == [s is None for s in by_singles]
    assert hard[-2:] == [True, True] and 0 < sum(hard[:-2]) < 40  # both kinds are there
    for puzzle, solved in zip(puzzles, by_singles, strict=True):
        if solved is not None:
            assert sudoku.solve(puzzle) == solved


#: A 6x6 jigsaw map: six connected regions of six cells.
JIGSAW6 = "AAAABBAABBBBCCCDDDCCCDDDEEFFFFEEEEFF"


@settings(max_examples=examples(40), deadline=None)
@given(
    variant=st.sampled_from(["boxes", "diagonal", "jigsaw"]),
    seed=st.integers(0, 10**6),
    keep=st.integers(6, 20),
)
def test_6x6_variants_agree_with_the_generic_engine(variant: str, seed: int, keep: int) -> None:
    """The compiled solver against the generic dancing links, on givens cut at random
    from a random grid of each variant (so counts range from one to many)."""
    options: dict[str, Any] = {
        "box": (2, 3),
        "diagonal": variant == "diagonal",
        "regions": JIGSAW6 if variant == "jigsaw" else None,
    }
    full = sudoku.solve(sudoku.generate(seed=seed % 50, minimal=False, **options), **options)
    assert full is not None
    rng = random.Random(seed)
    cells = set(rng.sample(range(36), keep))
    puzzle = "".join(ch if k in cells else "." for k, ch in enumerate(full))
    expected = sum(1 for _ in sudoku.problem(puzzle, **options).solutions(limit=30))
    assert sudoku.count(puzzle, 30, **options) == expected >= 1
    solution = sudoku.solve(puzzle, **options)
    board = sudoku.board_for(puzzle, (2, 3), diagonal=options["diagonal"], regions=JIGSAW6)
    if variant != "jigsaw":
        board = sudoku.SudokuBoard((2, 3), diagonal=options["diagonal"])
    assert solution is not None and obeys_rules(puzzle, solution, board)


@pytest.mark.parametrize(
    ("puzzle", "box", "message"),
    [
        ("1" * 80, (3, 3), "81 cells, not 80"),
        ("1" * 80, None, "80 cells is not a square board"),
        ("1" * 17, None, "17 cells is not a square board"),
        ("." * 40 + "x" + "." * 40, None, r"'x' at row 5, column 5 \(character 41\)"),
        ("." * 15 + "5", None, "row 4, column 4"),
        ("." * 49, None, "unsupported board of side 7"),
        ("." * 81, (0, 9), "unsupported box shape 0x9"),
        ("." * 36 * 36, (6, 6), "unsupported box shape 6x6"),
        ("." * 624, (5, 5), "625 cells, not 624"),
        ("." * 624, None, "624 cells is not a square board"),
        ("." * 300 + "Q" + "." * 324, None, r"'Q' at row 13, column 1 \(character 301\).*1-P"),
        ("." * 624 + "0", (4, 6), "576 cells, not 625"),
        ("." * 625, (5, 6), "900 cells, not 625"),
        ("." * 49 * 49, None, "unsupported box shape 7x7"),
    ],
)
def test_bad_input_names_the_culprit(
    puzzle: str, box: tuple[int, int] | None, message: str
) -> None:
    with pytest.raises(ExcoverError, match=message):
        sudoku.solve(puzzle, box=box)


def test_bad_arguments() -> None:
    with pytest.raises(UsageError, match="limit"):
        sudoku.count("." * 81, limit=0)
    with pytest.raises(UsageError, match="region"):
        sudoku.solve("." * 16, regions="AAAA" * 4)
    with pytest.raises(ProblemError):
        sudoku.solve_many(["." * 81, "." * 80])


def test_parse_one_line_and_grid_forms_agree() -> None:
    board = sudoku.SudokuBoard((4, 4))
    puzzle = sudoku.generate((4, 4), seed=3)
    values = sudoku.parse(puzzle, board)
    assert all(
        (ch == ".") == (v == 0) and (ch == "." or sudoku.SYMBOLS[v - 1] == ch)
        for ch, v in zip(puzzle, values, strict=True)
    )
    assert sudoku.parse(puzzle.lower().replace(".", "0"), board) == values
    assert sudoku.parse(sudoku.format_grid(puzzle), board) == values


class Stop(Exception):
    """Raised by the test's signal handler."""


def test_a_signal_stops_the_compiled_search_and_leaves_the_cover_intact() -> None:
    def handler(signum: int, frame: object) -> None:
        raise Stop

    before = sudoku.solve_many(FAMOUS)
    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Stop):  # the handler's own exception comes through
            sudoku.count("." * 81, None)  # 6.7e21 solutions: it never ends by itself
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert sudoku.solve_many(FAMOUS) == before
    assert all(
        s is not None and obeys_rules(p, s, sudoku.SudokuBoard())
        for p, s in zip(FAMOUS, before, strict=True)
    )
    assert sudoku.count("." * 16, None) == 288


# ----- digit sets: a puzzle is read with the digits it is written in, never another way

#: 16x16 digits written 1-9A-G (the default) and 0-F (hexadecimal, where 0 is a digit).
ONE_TO_G, HEX = sudoku.SYMBOLS[:16], "0123456789ABCDEF"


def relabel(text: str, source: str, target: str) -> str:
    """``text`` with each digit of ``source`` written as the digit of ``target`` at the
    same place (blanks and layout unchanged)."""
    return text.translate(str.maketrans(source, target))


def no_warning(call: Any) -> Any:
    """The result of ``call()``, which must warn of nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExcoverWarning)
        return call()


@pytest.mark.parametrize(
    ("spec", "size", "symbols"),
    [
        ("0-F", 16, HEX),
        ("1-9A-G", 16, ONE_TO_G),
        ("1-G", 16, ONE_TO_G),
        ("0-9a-f", 16, HEX),
        ("a-i", 9, "ABCDEFGHI"),
        ("1-4", 4, "1234"),
        ("ACGT", 4, "ACGT"),
    ],
)
def test_digit_sets_are_ranges_along_0_to_z_or_symbols(spec: str, size: int, symbols: str) -> None:
    assert sudoku.digit_set(spec, size) == symbols


@pytest.mark.parametrize(
    ("spec", "size", "message"),
    [
        ("1-9", 16, "'1-9' are 9 symbols: a 16x16 board needs 16"),
        ("F-0", 16, "'F-0' is no range"),
        ("0-9A-E.", 16, "'.' cannot be a digit"),
        ("1123", 4, "'1' is given twice"),
        ("12 3", 4, "' ' cannot be a digit"),
    ],
)
def test_bad_digit_sets_are_usage_errors(spec: str, size: int, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        sudoku.digit_set(spec, size)


def test_a_hexadecimal_16x16_puzzle_is_read_with_0_as_a_digit_and_a_warning() -> None:
    """The issue's case: 0-F with '.' blanks was read with every 0 as a blank, and
    another puzzle solved. Now 0 is a digit (the givens use '.' and no G), with a warning
    naming the digits, and the solution is the original's, written in 0-F."""
    puzzle = sudoku.generate((4, 4), seed=1)
    solution = sudoku.solve(puzzle)
    assert solution is not None and "0" not in puzzle
    hexed = relabel(puzzle, ONE_TO_G, HEX)
    assert "0" in hexed and "." in hexed and "G" not in hexed
    with pytest.warns(ExcoverWarning, match=r"read as digits 0-F: .*\(--digits 1-G\)"):
        found = sudoku.solve(hexed)
    assert found == relabel(solution, ONE_TO_G, HEX)
    assert no_warning(lambda: sudoku.solve(hexed, digits="0-F")) == found
    assert no_warning(lambda: sudoku.classify(hexed, digits="0-F")) == "unique"
    assert no_warning(lambda: list(sudoku.solutions(hexed, digits="0-F"))) == [found]
    assert no_warning(lambda: sudoku.solve_many([hexed, hexed], digits="0-F")) == [found] * 2
    assert obeys_rules(puzzle, relabel(found, HEX, ONE_TO_G), sudoku.SudokuBoard((4, 4)))
    # asked to read 0 as a blank, it is another puzzle (more blanks): solved as asked
    other = no_warning(lambda: sudoku.solve(hexed, digits="1-G"))
    assert other is not None and other != found and "0" not in other


def test_a_puzzle_that_reads_both_ways_is_read_the_usual_way_with_a_warning() -> None:
    """A 16x16 grid whose 16 G's are written 0 and no '.': a puzzle with 16 blanks in
    1-G, or a full grid in 0-F. The usual reading (0 a blank) wins, and says so."""
    solution = sudoku.solve(sudoku.generate((4, 4), seed=2))
    assert solution is not None
    both = solution.replace("G", "0")
    with pytest.warns(ExcoverWarning, match="reads as digits 0-F too"):
        assert sudoku.solve(both) == solution
    assert no_warning(lambda: sudoku.solve(both, digits="0-F")) == both


def test_0_is_a_blank_when_the_puzzle_cannot_mean_a_digit() -> None:
    """A 16x16 puzzle that uses G (0 as a digit would make 17), or that writes no '.',
    and any board up to 9x9: 0 is a blank, as ever, without a warning."""
    puzzle = sudoku.generate((4, 4), seed=1)
    assert "G" in puzzle
    assert no_warning(lambda: sudoku.solve(puzzle.replace(".", "0"))) == sudoku.solve(puzzle)
    mixed = puzzle.replace(".", "0", 20)  # both blanks in one puzzle, and a G
    assert no_warning(lambda: sudoku.solve(mixed)) == sudoku.solve(puzzle)
    nine = FAMOUS[0].replace(".", "0", 10)
    assert no_warning(lambda: sudoku.solve(nine)) == sudoku.solve(FAMOUS[0])


def test_other_digits_read_and_write_every_way() -> None:
    """A 9x9 puzzle written with letters A-I: every entry point reads its digits and
    writes its solutions with them; a character outside the set is named."""
    letters = "ABCDEFGHI"
    puzzle = relabel(FAMOUS[1], "123456789", letters)
    solution = relabel(sudoku.solve(FAMOUS[1]) or "", "123456789", letters)
    assert sudoku.solve(puzzle, digits="A-I") == solution
    assert sudoku.count(puzzle, digits="A-I") == 1
    assert sudoku.solve_many([puzzle], digits="A-I") == [solution]
    assert sudoku.classify_many([puzzle], digits="A-I") == ["unique"]
    assert list(sudoku.solutions(puzzle, digits="A-I")) == [solution]
    assert sudoku.conflicts(puzzle[:1] * 2 + puzzle[2:], digits="A-I") != []
    grid = sudoku.format_grid(solution, digits="A-I")
    assert sudoku.solve(grid, digits="A-I") == solution
    cover = sudoku.problem(puzzle, digits="A-I")
    first = cover.first()
    assert first is not None and sudoku.grid_of(cover, first, digits="A-I") == solution
    assert set(sudoku.generate(seed=4, digits="A-I")) <= set("." + letters)
    with pytest.raises(ProblemError, match=r"'1' at row 1, column 1 .* uses A-I and '.' or '0'"):
        sudoku.solve("1" + puzzle[1:], digits="A-I")
    with pytest.raises(ProblemError, match=r"'G' at row 1, column 2 .* uses 0-F and '.' for"):
        sudoku.solve("0G" + "." * 254, digits="0-F")
