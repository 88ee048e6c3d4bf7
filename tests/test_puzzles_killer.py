"""Tests of :mod:`excover.puzzles.sudoku.killer` against a brute force and the rules.

On the 4x4 board every grid is known (the Latin squares obeying the boxes), so the count
of a killer puzzle is checked against the grids whose cages have the right sums and
distinct digits. On 9x9, cages cut at random from a solved grid must give back a grid
that obeys both the Sudoku rules and the cages.
"""

from __future__ import annotations

import itertools
import random

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import FormatError, UsageError
from excover.puzzles import sudoku
from excover.puzzles.sudoku import killer


def random_cages(grid: str, n: int, rng: random.Random, biggest: int) -> list[killer.Cage]:
    """Cut the board into random connected cages of up to ``biggest`` cells, with the sums
    of ``grid``'s digits, no digit twice in a cage."""
    free = set(range(n * n))
    cages: list[killer.Cage] = []
    for start in rng.sample(range(n * n), n * n):
        if start not in free:
            continue
        free.discard(start)
        cells = [start]
        size = rng.randint(1, biggest)
        while len(cells) < size:
            border = [
                c + d
                for c in cells
                for d in (-n, n, -1, 1)
                if c + d in free
                and (abs(d) == n or (c + d) // n == c // n)
                and grid[c + d] not in {grid[k] for k in cells}
            ]
            if not border:
                break
            pick = rng.choice(border)
            free.discard(pick)
            cells.append(pick)
        total = sum(int(grid[c], 36) for c in cells)
        cages.append((total, [divmod(c, n) for c in cells]))
    return cages


def obeys(grid: str, cages: list[killer.Cage], n: int) -> bool:
    for total, places in cages:
        digits = [int(grid[r * n + c], 36) for r, c in places]
        if sum(digits) != total or len(set(digits)) != len(digits):
            return False
    return True


def latin_squares_4x4() -> list[str]:
    """Every 4x4 Latin square (576), built row by row: a row joins the rows above when it
    repeats none of their digits in a column, which is much quicker than filtering all
    24**4 stacks of four rows."""
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


LATIN_4X4 = latin_squares_4x4()
# The Latin squares that are full valid Sudoku grids (the boxes too).
GRIDS_4X4 = [g for g in LATIN_4X4 if sudoku.classify(g) == "unique"]


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), biggest=st.integers(1, 4))
def test_4x4_killer_counts_match_brute_force(seed: int, biggest: int) -> None:
    rng = random.Random(seed)
    grid = rng.choice(GRIDS_4X4)
    cages = random_cages(grid, 4, rng, biggest)
    expected = sorted(g for g in GRIDS_4X4 if obeys(g, cages, 4))
    assert grid in expected
    assert sorted(killer.solutions(cages, (2, 2))) == expected


@pytest.mark.parametrize("seed", range(3))
def test_9x9_killer_solution_obeys_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    grid = sudoku.solve(sudoku.generate(seed=seed))
    assert grid is not None
    cages = random_cages(grid, 9, rng, 4)
    solution = killer.solve(cages)
    assert solution is not None and obeys(solution, cages, 9)
    assert sudoku.classify(solution) == "unique"  # a full grid obeying the Sudoku rules


def test_givens_and_impossible_cages() -> None:
    cages: list[killer.Cage] = [(3, [(0, 0), (0, 1)])]  # 1 + 2 in some order
    with_given = killer.solve(cages, (2, 2), givens="2" + "." * 15)
    assert with_given is not None and with_given[:2] == "21"
    assert killer.solve([(8, [(0, 0), (0, 1)])], (2, 2)) is None  # 4 + 4 is not distinct


@pytest.mark.parametrize(
    ("cages", "message"),
    [
        ([(3, [(0, 0), (4, 0)])], "off the board"),
        ([(3, [(0, 0)]), (4, [(0, 0)])], "in cage 0"),
        ([(3, [])], "1 to 4 cells"),
    ],
)
def test_bad_cages(cages: list[killer.Cage], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        killer.cover(cages, (2, 2))


def cage_text(cages: list[killer.Cage]) -> str:
    """The cages in the file format, written here independently of the reader."""
    lines = ["# generated cages", ""]
    for total, places in cages:
        lines.append(f"{total}: " + " ".join(f"r{r + 1}c{c + 1}" for r, c in places))
    return "\n".join(lines) + "\n"


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), biggest=st.integers(1, 4))
def test_read_cages_gives_back_the_cages(seed: int, biggest: int) -> None:
    rng = random.Random(seed)
    cages = random_cages(rng.choice(GRIDS_4X4), 4, rng, biggest)
    read = killer.read_cages(cage_text(cages), 4)
    assert [(total, list(places)) for total, places in read] == cages


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("3: r1c1 r1c2\n\n# note\n4 r2c1\n", 4, "a cage is 'SUM: CELLS'"),
        ("3: r1c1 x2\n", 1, "'x2' is not a cell"),
        ("3: r1c1\n4: r5c1\n", 2, "r5c1 is off the 4x4 board"),
        ("3: r1c1 r1c2\n5: r2c2 R1C2\n", 2, "R1C2 is already in the cage of line 1"),
        ("3: r1c1 r1c1\n", 1, "already in this cage"),
        ("10: r1c1 r1c2 r1c3 r1c4 r2c1\n", 1, "1 to 4 cells, not 5"),
        ("3:\n", 1, "1 to 4 cells, not 0"),
    ],
)
def test_bad_cage_files_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=message) as caught:
        killer.read_cages(text, 4, source="cages.txt")
    assert caught.value.line == line and str(caught.value).startswith(f"cages.txt:{line}: ")


JIGSAW4 = "AABBACBBACDDCCDD"


def obeys_variant(grid: str, diagonal: bool, regions: str | None) -> bool:
    """A 4x4 Latin square obeying the diagonals or the jigsaw regions (else the boxes)."""
    groups: list[list[int]] = []
    if regions is None:
        groups += [
            [r * 4 + c for r in rows for c in columns]
            for rows in ((0, 1), (2, 3))
            for columns in ((0, 1), (2, 3))
        ]
    else:
        groups += [[k for k in range(16) if regions[k] == label] for label in set(regions)]
    if diagonal:
        groups += [[0, 5, 10, 15], [3, 6, 9, 12]]
    return all(len({grid[k] for k in group}) == 4 for group in groups)


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), biggest=st.integers(1, 4), variant=st.sampled_from([0, 1]))
def test_killer_variants_match_brute_force(seed: int, biggest: int, variant: int) -> None:
    diagonal, regions = (True, None) if variant == 0 else (False, JIGSAW4)
    grids = [g for g in LATIN_4X4 if obeys_variant(g, diagonal, regions)]
    rng = random.Random(seed)
    cages = random_cages(rng.choice(grids), 4, rng, biggest)
    expected = sorted(g for g in grids if obeys(g, cages, 4))
    found = sorted(killer.solutions(cages, (2, 2), diagonal=diagonal, regions=regions))
    assert found == expected
    assert killer.count(cages, (2, 2), diagonal=diagonal, regions=regions) == len(expected)
    two = killer.count(cages, (2, 2), limit=2, diagonal=diagonal, regions=regions)
    assert two == min(len(expected), 2)


@pytest.mark.parametrize(("size", "total"), [(1, 5), (2, 10), (3, 6), (5, 25), (9, 45)])
def test_a_cage_has_one_option_per_digit_set(size: int, total: int) -> None:
    """A cage's options are its sets of distinct digits with the right sum (found by an
    independent enumeration of all combinations), not their orderings; a whole row as
    one cage (sum 45) still solves, holding each digit once."""
    cage = (total, [(0, column) for column in range(size)])
    problem = killer.cover([cage])
    sets = [c for c in itertools.combinations(range(1, 10), size) if sum(c) == total]
    chosen = [k for k in range(problem.n_options) if "k0" in problem.option_items(k)]
    assert len(chosen) == len(sets)
    solution = killer.solve([cage])
    assert solution is not None
    digits = [int(ch) for ch in solution[:size]]
    assert len(set(digits)) == size and sum(digits) == total
