"""The dissection count (:func:`excover.tiling.count_dissections`): the ways to cut a
rectangle into connected pieces of one size, against the exact cover of the tiling by
every polyomino of that size (any number of times), the published terms of A172477, and
its own symmetry; its bounds and its errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import MemoryBoundError, UsageError
from excover.tiling import Pattern, Tiling, count_dissections, polyominoes, tiles


def tilings_by_search(height: int, width: int, size: int) -> int:
    """The tilings of the rectangle by every ``size``-omino, counted by the search."""
    board = Tiling(Pattern.constant(height, width), tiles(polyominoes(size), multiplicity="any"))
    return board.problem.count()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 6))
def test_the_count_is_the_number_of_tilings_by_every_polyomino_of_the_size(
    height: int, width: int, size: int
) -> None:
    """Every rectangle up to 5 x 5 and pieces up to 6 cells: the count equals the
    exact cover's (0 when the area is not a multiple of the size)."""
    expected = tilings_by_search(height, width, size) if height * width % size == 0 else 0
    assert count_dissections(height, width, size) == expected


@pytest.mark.parametrize(("height", "width", "size"), [(6, 3, 3), (4, 6, 4), (6, 5, 5)])
def test_larger_boards_agree_with_the_search(height: int, width: int, size: int) -> None:
    """A few boards past the random ones, both ways round."""
    expected = tilings_by_search(height, width, size)
    assert count_dissections(height, width, size) == expected
    assert count_dissections(width, height, size) == expected


def test_the_square_cut_into_n_pieces_of_n_cells_is_oeis_a172477() -> None:
    """A172477's terms up to n = 6 (de Ruiter, 2010); n = 7 and 8 are in
    benchmarks/data/records/ (4 s and 3 minutes of CPU)."""
    published = [1, 2, 10, 117, 4006, 451206]
    assert [count_dissections(n, n, n) for n in range(1, 7)] == published


def test_strips_and_dominoes_follow_their_formulas() -> None:
    """A 1 x n strip cuts one way into pieces of any size dividing n; dominoes on the
    2 x n board are Fibonacci numbers; the empty board has one dissection."""
    assert [count_dissections(1, 12, k) for k in (1, 2, 3, 4, 5, 6)] == [1, 1, 1, 1, 0, 1]
    fibonacci = [1, 2]
    for _ in range(10):
        fibonacci.append(fibonacci[-1] + fibonacci[-2])
    assert [count_dissections(2, n, 2) for n in range(1, 13)] == fibonacci
    assert count_dissections(0, 5, 3) == 1


def test_the_ticks_follow_the_cells() -> None:
    """``tick`` hears of every cell, in order, with the states of its layer."""
    heard: list[tuple[int, int, int]] = []
    count_dissections(3, 4, 4, tick=lambda done, cells, states: heard.append((done, cells, states)))
    assert [done for done, _, _ in heard] == list(range(1, 13))
    assert all(cells == 12 and states >= 1 for _, cells, states in heard)


def test_a_memory_bound_stops_the_count() -> None:
    """Past ``max_bytes`` the count raises MemoryBoundError (an ExcoverError)."""
    with pytest.raises(MemoryBoundError, match="dissection count"):
        count_dissections(7, 7, 7, max_bytes=1 << 20)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((11, 12, 4), "11 cells across"),
        ((8, 8, 32), "at most 31"),
        ((10, 20, 20), "states of 135 bits"),
        ((4, 4, 0), "size must be an integer of at least 1"),
        ((True, 4, 2), "height must be an integer"),
        ((4, -1, 2), "width must be an integer of at least 0"),
    ],
)
def test_bad_arguments_are_usage_errors(arguments: tuple[int, int, int], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        count_dissections(*arguments)
