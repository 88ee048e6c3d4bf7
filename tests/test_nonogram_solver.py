"""Tests of the nonogram solvers: the compiled line solver, propagation, probing and
search, and the XCC and SAT routes.

References independent of the code under test: every 0/1 line of a length enumerated to
find a clue's placements; every picture of a small grid enumerated to count a puzzle's
solutions; the three routes against one another on larger random puzzles; and puzzles
whose status follows from how they were built.
"""

from __future__ import annotations

import itertools
import random
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import LimitReached, ProblemError, UsageError, nonogram
from excover.nonogram import sat as nonogram_sat
from excover.nonogram import search as nonogram_search
from excover.nonogram import xcc as nonogram_xcc
from excover.nonogram._core import EXHAUSTED, NODE_LIMIT, SOLUTION, line_solve
from excover.sat.pool import Pool

WHITE, BLACK, UNKNOWN = 1, 2, 3


def runs(bits: tuple[int, ...] | str) -> tuple[int, ...]:
    """The clue of a line, computed here from scratch."""
    text = "".join("1" if bit in (1, "#") else "0" for bit in bits)
    return tuple(len(run) for run in text.split("0") if run)


@cache
def all_lines(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product((0, 1), repeat=n))


def brute_line(clue: tuple[int, ...], cells: bytes) -> bytes | None:
    """The values each cell takes over the placements of ``clue`` that agree with
    ``cells``, by enumerating every line."""
    union = [0] * len(cells)
    found = False
    for bits in all_lines(len(cells)):
        if runs(bits) != clue:
            continue
        if any(not cells[i] & (BLACK if bit else WHITE) for i, bit in enumerate(bits)):
            continue
        found = True
        for i, bit in enumerate(bits):
            union[i] |= BLACK if bit else WHITE
    return bytes(union) if found else None


def brute_solutions(puzzle: nonogram.Puzzle) -> set[tuple[str, ...]]:
    """Every picture of the grid whose rows and columns read the clues."""
    h, w = puzzle.height, puzzle.width
    found = set()
    for bits in itertools.product("#.", repeat=h * w):
        rows = tuple("".join(bits[r * w : (r + 1) * w]) for r in range(h))
        if all(runs(rows[r]) == puzzle.rows[r] for r in range(h)) and all(
            runs("".join(row[c] for row in rows)) == puzzle.cols[c] for c in range(w)
        ):
            found.add(rows)
    return found


@st.composite
def lines(draw: st.DrawFn) -> tuple[tuple[int, ...], bytes]:
    """A clue (often that of a random line, sometimes arbitrary) and known cells."""
    n = draw(st.integers(1, 11))
    if draw(st.booleans()):
        clue = runs(tuple(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))))
    else:
        clue = tuple(draw(st.lists(st.integers(1, 4), max_size=4)))
    cells = bytes(draw(st.lists(st.sampled_from([1, 2, 3, 3, 3]), min_size=n, max_size=n)))
    return clue, cells


@settings(max_examples=examples(400))
@given(lines())
def test_line_solver_agrees_with_enumeration(line: tuple[tuple[int, ...], bytes]) -> None:
    clue, cells = line
    assert line_solve(clue, cells) == brute_line(clue, cells)


def test_line_solver_on_a_long_line_with_many_placements() -> None:
    # 30 cells, 8 blocks of 1: C(23, 8) = 490314 placements; the middle of nothing is known,
    # but a known black cell next to a known white one pins a block's edge.
    cells = bytearray([UNKNOWN] * 30)
    assert line_solve((1,) * 8, bytes(cells)) == bytes(cells)
    assert line_solve((15,), bytes(cells)) == bytes([3] * 15 + [3] * 15)
    assert line_solve((16,), bytes(cells)) == bytes([3] * 14 + [2, 2] + [3] * 14)
    cells[0] = BLACK
    solved = line_solve((3, 26), bytes(cells))
    assert solved == bytes([2, 2, 2, 1] + [2] * 26)
    assert line_solve((3, 27), bytes(cells)) is None


def test_line_solver_rejects_bad_cells() -> None:
    with pytest.raises(ValueError):
        line_solve((1,), bytes([0]))
    with pytest.raises(ValueError):
        line_solve((0,), bytes([3]))


@st.composite
def small_puzzles(draw: st.DrawFn) -> nonogram.Puzzle:
    """The puzzle of a random picture of at most 12 cells."""
    h, w = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    cells = draw(st.lists(st.sampled_from("#."), min_size=h * w, max_size=h * w))
    return nonogram.Puzzle.from_picture(["".join(cells[r * w : (r + 1) * w]) for r in range(h)])


@settings(max_examples=examples(60))
@given(small_puzzles(), st.sampled_from(["propagate", "xcc", "sat"]))
def test_every_route_finds_exactly_the_brute_force_solutions(
    puzzle: nonogram.Puzzle, method: str
) -> None:
    expected = brute_solutions(puzzle)
    found = [tuple(s) for s in nonogram.solutions(puzzle, method=method)]
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert nonogram.count(puzzle, method=method) == len(expected)
    assert (
        nonogram.classify(puzzle, method=method)
        == ("none", "unique", "multiple")[min(2, len(expected))]
    )


def test_search_without_probing_finds_the_same_solutions() -> None:
    rng = random.Random(3)
    for _ in range(15):
        puzzle = nonogram.generate(7, 6, rng.uniform(0.4, 0.6), rng)
        probed = set(nonogram_search.solutions(puzzle))
        plain = set(nonogram_search.solutions(puzzle, probing=False))
        assert probed == plain == set(nonogram_xcc.solutions(puzzle))


def assert_same_solutions(puzzle: nonogram.Puzzle, method: str, limit: int = 40) -> None:
    """The default route and ``method`` find as many solutions (up to ``limit``), all
    valid, and the same ones when there are fewer than ``limit``."""
    ours = sorted(nonogram.solutions(puzzle, limit=limit))
    theirs = sorted(nonogram.solutions(puzzle, method=method, limit=limit))
    assert len(ours) == len(theirs)
    assert all(puzzle.is_solution(s) for s in ours + theirs)
    if len(ours) < limit:
        assert ours == theirs
        assert puzzle.goal is not None and list(puzzle.goal) in ours


def test_routes_agree_on_random_puzzles_beyond_brute_force() -> None:
    rng = random.Random(11)
    hard = 0
    for size in (8, 9, 10):
        for _ in range(4):
            puzzle = nonogram.generate(size, size, rng.uniform(0.45, 0.6), rng)
            assert_same_solutions(puzzle, "sat")
            assert_same_solutions(puzzle, "xcc")
            hard += not nonogram.line_solvable(puzzle)
    assert hard  # some of these need more than line solving


def test_lines_too_long_for_the_cache_are_solved_too() -> None:
    # Columns of 70 cells are solved without the per-line cache (64 cells at most).
    rng = random.Random(8)
    for _ in range(3):
        puzzle = nonogram.generate(70, 4, 0.5, rng)
        assert_same_solutions(puzzle, "sat")


@pytest.mark.parametrize("seed", range(6))
def test_thirty_by_thirty_puzzles_are_solved_and_classified(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = nonogram.generate(30, 30, rng.uniform(0.5, 0.65), rng)
    found = list(nonogram.solutions(puzzle, limit=2))
    assert found and all(puzzle.is_solution(s) for s in found)
    assert nonogram.classify(puzzle) == ("unique", "multiple")[len(found) - 1]
    if len(found) == 1:
        assert found[0] == list(puzzle.goal or ())


def test_propagated_cells_agree_with_every_solution() -> None:
    rng = random.Random(5)
    for _ in range(10):
        puzzle = nonogram.generate(6, 6, rng.uniform(0.4, 0.6), rng)
        partial = nonogram.propagated(puzzle)
        assert partial is not None
        for solution in nonogram_xcc.solutions(puzzle):
            assert all(
                p in ("?", s)
                for prow, srow in zip(partial, solution, strict=True)
                for p, s in zip(prow, srow, strict=True)
            )
        assert nonogram.line_solvable(puzzle) == ("?" not in "".join(partial))


def test_statuses_of_constructed_puzzles() -> None:
    # A plus sign is found by line solving; a 2x2 diagonal has two pictures; a full row
    # crossing an empty column has none (the clues still agree on the black cells).
    plus = ([[1], [3], [1]], [[1], [3], [1]])
    assert nonogram.solve(*plus) == [".#.", "###", ".#."]
    assert nonogram.classify(*plus) == "unique" and nonogram.line_solvable(*plus)
    diagonal = ([[1], [1]], [[1], [1]])
    assert nonogram.count(*diagonal) == 2 and nonogram.classify(*diagonal) == "multiple"
    assert not nonogram.line_solvable(*diagonal)
    none = ([[0], [1], [3]], [[0], [1], [3]])
    assert nonogram.solve(*none) is None and nonogram.classify(*none) == "none"
    assert nonogram.propagated(nonogram.puzzle_of(*none)) is None
    assert not nonogram.line_solvable(*none)
    for method in ("xcc", "sat"):
        assert nonogram.classify(*none, method=method) == "none"


def test_count_of_an_empty_clue_grid_and_of_many_solutions() -> None:
    # n x n with every line holding one black cell: the n! permutation matrices.
    clues = [[1]] * 5
    assert nonogram.count(clues, clues) == 120
    assert nonogram.count(clues, clues, 7) == 7
    assert nonogram.count(clues, clues, method="sat") == 120
    assert nonogram.count(clues, clues, method="xcc") == 120
    assert nonogram.solve([[0]] * 3, [[]] * 2) == ["..", "..", ".."]


def test_sat_encoding_is_compact() -> None:
    # One line of 30 cells with 8 blocks of 1 has 490314 placements; the automaton needs
    # (30 + 1) x (30 - 15 + 1) state variables at most.
    pool = Pool(30)
    clauses = nonogram_sat.line_clauses((1,) * 8, list(range(1, 31)), pool)
    assert pool.top - 30 <= 31 * 16
    assert len(clauses) <= 3 * 31 * 16


def test_limits_stop_a_long_count() -> None:
    clues = [[1]] * 9  # 362880 solutions
    with pytest.raises(LimitReached) as caught:
        nonogram.count(clues, clues, timeout=0.01)
    assert caught.value.reason == "timeout" and not caught.value.stats.complete
    stopped = nonogram_search.solutions(nonogram.puzzle_of(clues, clues), max_nodes=10)
    with pytest.raises(LimitReached) as caught:
        list(stopped)
    assert caught.value.reason == "max_nodes"
    with pytest.raises(LimitReached):
        nonogram.count(clues, clues, method="sat", timeout=0.01)


def test_xcc_route_refuses_huge_puzzles() -> None:
    puzzle = nonogram.generate(40, 40, 0.5, random.Random(1))
    with pytest.raises(UsageError, match="options"):
        nonogram.solve(puzzle, method="xcc")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nonogram.solve([[1]], [[1]], method="search"), "unknown method"),
        (lambda: nonogram.solve([[1]]), "column clues"),
        (lambda: nonogram.count([[1]], [[1]], -1), "limit"),
        (lambda: nonogram.solve([[1]], [[1]], timeout=-1), "timeout"),
        (lambda: list(nonogram.solutions([[1]], [[1]], solver="minisat")), "sat"),
        (lambda: nonogram.generate(0, 3), "height"),
        (lambda: nonogram.generate(3, 3, 1.5), "density"),
    ],
)
def test_bad_arguments_are_usage_errors(call: object, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("rows", "cols", "message"),
    [
        ([[3]], [[1], [1]], "row 1: clue 3 needs 3 cells, the line has 2"),
        ([[1, 1]], [[1], [1]], "row 1: clue 1 1 needs 3 cells"),
        ([[1], [-1]], [[1]], "row 2: every block needs at least one cell"),
        ([["a"]], [[1]], "row 1: block lengths must be integers"),
        ([[True]], [[1]], "row 1: block lengths must be integers"),
        ([], [[1]], "at least one row"),
        ("12", [[1]], "list of clues"),
    ],
)
def test_bad_clues_are_problem_errors(rows: object, cols: object, message: str) -> None:
    with pytest.raises(ProblemError, match=message):
        nonogram.solve(rows, cols)  # type: ignore[arg-type]


class Stop(Exception):
    """Raised by the test's signal handler."""


def test_a_signal_stops_a_long_count() -> None:
    def handler(signum: int, frame: object) -> None:
        raise Stop

    clues = [[1]] * 12  # 12! = 479001600 solutions: the count never ends by itself
    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Stop):
            # the timeout is a backstop: a lost signal fails the test instead of
            # running it on (every solution found is kept) until memory runs out
            nonogram.count(clues, clues, timeout=20)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert nonogram.count([[1]] * 4, [[1]] * 4) == 24


def test_a_search_stopped_by_a_node_limit_carries_on() -> None:
    puzzle = nonogram.puzzle_of([[1]] * 5, [[1]] * 5)
    solver = nonogram_search.core(puzzle)
    found = []
    budget = 0
    while True:
        budget += 3
        status = solver.next_solution(budget)
        if status == EXHAUSTED:
            break
        if status == SOLUTION:
            found.append(nonogram_search.picture(solver.grid_bytes(), 5))
        else:
            assert status == NODE_LIMIT and solver.nodes == budget
    assert sorted(found) == sorted(tuple(s) for s in nonogram.solutions(puzzle))
    assert len(found) == 120


def test_clues_that_disagree_on_the_black_cells_make_a_puzzle_without_solution() -> None:
    """Rows asking for 2 black cells and columns for 3: well formed, and none of the
    methods finds a picture; ``contradiction`` says why, before any search."""
    rows, cols = [[1], [1]], [[2], [1]]
    puzzle = nonogram.puzzle_of(rows, cols)
    assert puzzle.contradiction == "the row clues ask for 2 black cells, the column clues 3"
    for method in ("auto", "propagate", "xcc", "sat"):
        assert nonogram.count(rows, cols, method=method) == 0
        assert nonogram.classify(rows, cols, method=method) == "none"
        assert nonogram.solve(rows, cols, method=method) is None
    assert nonogram.puzzle_of([[1], [1]], [[1], [1]]).contradiction is None


def test_the_command_line_classifies_such_a_puzzle_none_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "disagree.txt"
    path.write_text("1\n1\n\n2\n1\n")
    done = subprocess.run(
        [sys.executable, "-m", "excover", "nonogram", str(path), "--classify"],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout) == (0, "none\n")
    assert "the row clues ask for 2 black cells, the column clues 3" in done.stderr
