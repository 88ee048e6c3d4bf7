"""Tests of :mod:`excover.puzzles.queens` against the literature and a brute force.

Counts are compared with OEIS A000170; the problem for n = 8, 10, 11 is compared with the
files Knuth's ``queens-dlx`` generator wrote, and the engine's statistics on it with his
DLX1 figures (tests/data/knuth/MANIFEST.md); every decoded placement is checked against
the rules directly, and small boards against an enumeration of all permutations.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from xml.etree import ElementTree

import pytest

from excover import UsageError
from excover.puzzles.queens import ascii_board, decode, middle_out, queens, svg_board

KNUTH = Path(__file__).resolve().parent / "data" / "knuth"

#: OEIS A000170: the number of ways to place n non-attacking queens on an n x n board.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]

#: Knuth's DLX1 on his queens files (MANIFEST.md): solutions, nodes, updates.
DLX1 = {
    8: (92, 1049, 16680),
    10: (724, 11578, 198264),
    11: (2680, 45393, 783140),
    12: (14200, 211716, 3594752),
    13: (73712, 1046319, 17463157),
}


def non_attacking(n: int, squares: list[tuple[int, int]]) -> bool:
    """The rules, directly: n queens, one per row, column and diagonal of each kind."""
    rows, columns = {r for r, _ in squares}, {c for _, c in squares}
    sums, differences = {r + c for r, c in squares}, {r - c for r, c in squares}
    return len(squares) == n and all(
        len(lines) == n for lines in (rows, columns, sums, differences)
    )


def brute_force(n: int) -> set[tuple[tuple[int, int], ...]]:
    """Every placement, from the permutations of the columns."""
    found = set()
    for columns in itertools.permutations(range(n)):
        squares = list(enumerate(columns))
        if non_attacking(n, squares):
            found.add(tuple(squares))
    return found


@pytest.mark.parametrize("n", range(1, len(A000170) + 1))
def test_counts_match_oeis(n: int) -> None:
    assert queens(n).count(method="search") == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 8))
def test_solutions_are_the_brute_force_placements(n: int) -> None:
    decoded = {tuple(decode(n, s)) for s in queens(n).solutions()}
    assert decoded == brute_force(n)


@pytest.mark.parametrize("n", [8, 10, 11])
def test_problem_is_knuths_file(n: int) -> None:
    text = (KNUTH / f"queens{n}.dlx").read_text()
    knuth_lines = [line for line in text.splitlines() if not line.startswith("|")]
    assert queens(n).to_dlx().splitlines() == knuth_lines


@pytest.mark.parametrize("n", sorted(DLX1))
def test_search_matches_dlx1(n: int) -> None:
    search = queens(n).search(engine="dlx")
    search.count()
    assert (search.stats.solutions, search.stats.nodes, search.stats.updates) == DLX1[n]
    fast = queens(n).search(engine="bits")
    fast.count()
    assert (fast.stats.solutions, fast.stats.nodes) == DLX1[n][:2]


def test_middle_out_is_a_permutation_starting_in_the_middle() -> None:
    for n in range(1, 30):
        order = middle_out(n)
        assert sorted(order) == list(range(n))
        assert order[0] == n // 2
        assert all(abs(order[k + 1] - order[0]) >= abs(order[k] - order[0]) for k in range(n - 1))


def test_large_boards_name_items_uniquely() -> None:
    problem = queens(20)  # 39 diagonals: more than one character per coordinate
    assert len(set(problem.items)) == problem.n_items == 2 * 20 + 2 * (2 * 20 - 3)
    first = problem.first()
    assert first is not None and non_attacking(20, decode(20, first))


def test_pictures() -> None:
    squares = decode(8, queens(8).first() or [])
    board = ascii_board(8, squares).splitlines()
    assert [line.split().index("Q") for line in board] == [c for _, c in squares]
    svg = ElementTree.fromstring(svg_board(8, squares))
    circles = [e for e in svg.iter() if e.tag.endswith("circle")]
    assert len(circles) == 8


@pytest.mark.parametrize("bad", [0, -3, 2.5, "8", True])
def test_bad_size_is_refused(bad: object) -> None:
    with pytest.raises(UsageError, match="board size"):
        queens(bad)  # type: ignore[arg-type]
