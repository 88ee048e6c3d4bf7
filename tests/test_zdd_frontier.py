"""The frontier count over DXZ's states (``excover.zdd.frontier``), on one and two
threads, against the brute-force oracle, Kasteleyn's formula, combine's figures and the
Fibonacci numbers; and the problems it leaves to the DXZ family."""

from __future__ import annotations

import math

import pytest
from builders import COMBINE_DATA, Instance, dominoes, instances, walks
from hypothesis import given, settings

from excover import ExactCover
from excover.zdd import dxz, frontier


@settings(max_examples=150)
@given(instances("X", 10))
def test_counts_match_the_oracle_on_any_number_of_threads(data: Instance) -> None:
    problem = data.build()
    counted = frontier.count(problem)
    if data.n_secondary:
        assert counted is None and not frontier.suits(problem)
        return
    assert counted == len(data.all_covers())
    assert frontier.count(problem, workers=2) == counted == frontier.count(problem, workers=3)


def kasteleyn(m: int, n: int) -> int:
    value = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            value *= (
                4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
            )
    return round(value)


@pytest.mark.parametrize(("m", "n"), [(2, 2), (4, 7), (8, 8), (10, 11)])
def test_domino_rectangles_against_kasteleyn(m: int, n: int) -> None:
    problem = dominoes(m, n)
    assert frontier.count(problem, workers=1) == kasteleyn(m, n) == frontier.count(problem, 2)


def test_the_12x12_square_against_oeis() -> None:
    """Domino tilings of the 12 x 12 square: OEIS A004003(6) (beyond a float's 53 bits,
    so not from the product formula)."""
    problem = dominoes(12, 12)
    assert frontier.count(problem, workers=2) == 53060477521960000 == frontier.count(problem)


def shape(name: str) -> ExactCover:
    """Domino tilings of one of combine's shapes, cells in reading order."""
    rows = (COMBINE_DATA / name).read_text().split()
    cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"}
    ordered = sorted(cells)
    problem = ExactCover(primary=[f"{r}_{c}" for r, c in ordered])
    for r, c in ordered:
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr, c + dc) in cells:
                problem.add_option([f"{r}_{c}", f"{r + dr}_{c + dc}"])
    return problem


@pytest.mark.parametrize(
    ("name", "total"),
    [
        ("caml_large.txt", 32420116341024288),
        ("dominos_c4_22x22.txt", 2255578550442504749056000000),
    ],
)
def test_combines_shapes(name: str, total: int) -> None:
    problem = shape(name)
    assert frontier.count(problem, workers=2) == total == frontier.count(problem)


def test_counts_past_128_bits_go_to_the_dxz_family() -> None:
    """A 200 x 2 board has Fibonacci(201) tilings, beyond 2^128: the frontier count says
    None and count(method="zdd") counts on the family, exactly."""
    fib = [0, 1]
    while len(fib) <= 201:
        fib.append(fib[-1] + fib[-2])
    problem = dominoes(200, 2)
    assert fib[201] > 2**128
    assert frontier.suits(problem) and frontier.count(problem) is None
    assert dxz.count(problem) == fib[201] == problem.count(method="zdd")


def test_problems_it_does_not_suit() -> None:
    """Colors, secondary items, multiplicities and options spanning 63 items or more are
    left to the family; count(method="zdd") and count(workers=2) still count them."""
    colored = walks(4, [("a", "b"), ("b", "a"), ("a", "a")])
    wide = ExactCover(primary=70)
    wide.add_option([0, 69])
    wide.add_option(list(range(1, 69)))
    multiple = ExactCover(primary=["a", "b"])
    multiple.set_multiplicity("a", 0, 2)
    multiple.add_option(["a", "b"])
    multiple.add_option(["a"])
    for problem in (colored, wide, multiple):
        assert not frontier.suits(problem) and frontier.count(problem) is None
        expected = problem.count(method="dlx")
        assert problem.count(method="zdd") == expected
        assert problem.count(method="zdd", workers=2) == expected


def test_parallel_count_by_zdd_uses_threads_and_agrees() -> None:
    problem = dominoes(9, 10)
    assert problem.count(method="zdd", workers=2) == kasteleyn(9, 10)
    assert problem.count(method="zdd", workers=2, tasks=4) == kasteleyn(9, 10)


def test_wide_layers_are_shared_among_threads_with_the_same_count() -> None:
    """A 16x16 board's layers hold tens of thousands of states, past the size from which
    the threads share a layer (smaller layers are done by one thread in turn): the count
    is OEIS A004003's 2,444,888,770,250,892,795,802,079,170,816 on 1, 2 and 3 threads."""
    problem = dominoes(16, 16)
    expected = 2444888770250892795802079170816
    assert [frontier.count(problem, workers=w) for w in (1, 2, 3)] == [expected] * 3
