"""Solution counts of classic problems against the literature and against formulas.

N-queens (OEIS A000170) and Langford pairs (OEIS A014552) come from the literature; domino
tilings from Kasteleyn's product formula, computed here; the color and multiplicity
problems from a count derived independently in each test (a matrix power, a brute force
over words, binomial coefficients, a recurrence for 2-regular graphs).
"""

from __future__ import annotations

import math
from itertools import product
from pathlib import Path

import pytest
from builders import (
    compositions,
    dominoes,
    langford,
    queens,
    two_regular_graphs,
    walks,
    word_squares,
)

from excover import ExactCover, Search

KNUTH = Path(__file__).parent / "data" / "knuth"

#: OEIS A000170: solutions of the n-queens problem, n = 1, 2, ...
A000170 = (1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200)

#: OEIS A014552: Langford pairings of 1..n, n = 1, 2, ..., counted up to reversal.
A014552 = (0, 0, 1, 1, 0, 0, 26, 150)

#: Three-letter words for the word squares, as one string (one word per gap).
VOCABULARY = """
ACE ACT ADD AGE AGO AID AIM AIR ALE APE ARC ARE ART ATE BAT BED BEE CAT COD DOE EAR
EAT EEL ERA ODE OAT ORE TAR TEA TEN TOE TON NET NOD ONE OPT POT RAT SEA TAN ANT
"""
WORDS = VOCABULARY.split()


def kasteleyn(m: int, n: int) -> int:
    """Domino tilings of an m x n rectangle by Kasteleyn's (and Temperley-Fisher's)
    product formula."""
    value = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            value *= (
                4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
            )
    return round(value)


def two_regular_count(n: int) -> int:
    """Labeled 2-regular graphs on n vertices (OEIS A001205), by the recurrence that picks
    the cycle through the last vertex: its k-1 other vertices and one of (k-1)!/2 cyclic
    orders."""
    counts = [1]
    for size in range(1, n + 1):
        counts.append(
            sum(
                math.comb(size - 1, k - 1) * math.factorial(k - 1) // 2 * counts[size - k]
                for k in range(3, size + 1)
            )
        )
    return counts[n]


@pytest.mark.parametrize("n", range(1, len(A000170) + 1))
def test_queens(n: int) -> None:
    assert queens(n).count() == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 10))
@pytest.mark.parametrize("heuristic", ["leftmost", "random"])
def test_queens_other_heuristics(n: int, heuristic: str) -> None:
    assert Search(queens(n), heuristic=heuristic, seed=n).count() == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, len(A014552) + 1))
def test_langford_pairs(n: int) -> None:
    assert langford(n).count() == 2 * A014552[n - 1]


def rectangles(max_cells: int) -> list[tuple[int, int]]:
    """Every m x n rectangle (both orientations) with at most ``max_cells`` cells."""
    return [(m, n) for m in range(1, max_cells + 1) for n in range(1, max_cells // m + 1)]


@pytest.mark.parametrize(("m", "n"), rectangles(40))
def test_domino_tilings(m: int, n: int) -> None:
    assert dominoes(m, n).count() == kasteleyn(m, n)


def test_knuth_domino_file() -> None:
    problem = ExactCover.read(KNUTH / "domino6x6.dlx")
    assert problem.count() == kasteleyn(6, 6)


@pytest.mark.parametrize("length", range(1, 9))
def test_walks_without_repeated_letters(length: int) -> None:
    """Words over {a, b, c} with no letter twice in a row: 3 * 2**length words of
    length + 1 letters (any first letter, then one of two at each step)."""
    edges = [(a, b) for a in "abc" for b in "abc" if a != b]
    assert walks(length, edges).count() == 3 * 2**length


@pytest.mark.parametrize("length", range(1, 9))
def test_walks_in_a_digraph(length: int) -> None:
    """Walks in a digraph with a loop and a one-way edge: the sum of the entries of the
    adjacency matrix to the power ``length``."""
    letters = "abcd"
    edges = [("a", "a"), ("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("d", "b"), ("d", "a")]
    matrix = [[int((u, v) in edges) for v in letters] for u in letters]
    paths = [[int(i == j) for j in range(4)] for i in range(4)]
    for _ in range(length):
        paths = [
            [sum(paths[i][t] * matrix[t][j] for t in range(4)) for j in range(4)] for i in range(4)
        ]
    assert walks(length, edges).count() == sum(map(sum, paths))


def test_double_word_squares() -> None:
    """3 x 3 squares whose rows and columns are six distinct words, against a brute force
    over all choices of three rows."""
    vocabulary = set(WORDS)
    expected = 0
    for rows in product(WORDS, repeat=3):
        columns = ["".join(row[j] for row in rows) for j in range(3)]
        if set(columns) <= vocabulary and len({*rows, *columns}) == 6:
            expected += 1
    assert expected > 0
    problem = word_squares(WORDS)
    assert problem.count() == expected
    for heuristic in ("leftmost", "random"):
        assert Search(problem, heuristic=heuristic, seed=3).count() == expected


@pytest.mark.parametrize("n", range(1, 11))
def test_compositions(n: int) -> None:
    """Compositions of n into exactly k parts: C(n-1, k-1); into 2..4 parts: their sum."""
    for k in range(1, n + 1):
        assert compositions(n, k, k).count() == math.comb(n - 1, k - 1)
    assert compositions(n, 2, 4).count() == sum(math.comb(n - 1, k - 1) for k in range(2, 5))
    assert compositions(n, 0, n).count() == 2 ** (n - 1)


@pytest.mark.parametrize("n", range(1, 9))
def test_two_regular_graphs(n: int) -> None:
    """Edge sets of K_n covering each vertex exactly twice, each set found once."""
    problem = two_regular_graphs(n)
    assert problem.count() == two_regular_count(n)
    sets = [frozenset(solution) for solution in problem.solutions()]
    assert len(sets) == len(set(sets)) == two_regular_count(n)
