"""The rectangle swap of a picture, against brute force over every rectangle."""

from __future__ import annotations

import itertools

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover.nonogram.model import Puzzle
from excover.nonogram.swap import swapped


def clues(grid: bytes, height: int, width: int) -> list[list[int]]:
    """Every row's and column's runs of black (2), computed directly."""
    lines = [grid[r * width : (r + 1) * width] for r in range(height)]
    lines += [grid[c::width] for c in range(width)]
    return [[len(run) for run in bytes(line).split(b"\x01") if run] for line in lines]


def inside_a_block(grid: bytes, height: int, width: int, r: int, c: int) -> bool:
    """Whether cell (r, c) is black with black on both sides along its row or column."""

    def black(rr: int, cc: int) -> bool:
        return 0 <= rr < height and 0 <= cc < width and grid[rr * width + cc] == 2

    return black(r, c) and (
        (black(r, c - 1) and black(r, c + 1)) or (black(r - 1, c) and black(r + 1, c))
    )


def rectangle_swaps(grid: bytes, height: int, width: int) -> list[bytes]:
    """Every picture with the same clues that differs from ``grid`` in the four corners
    of a rectangle, none of whose black corners is inside a block (those swaps split a
    block and join two others, which ``swapped`` does not seek)."""
    same = []
    for r1, r2 in itertools.combinations(range(height), 2):
        for c1, c2 in itertools.combinations(range(width), 2):
            corners = [r1 * width + c1, r1 * width + c2, r2 * width + c1, r2 * width + c2]
            values = [grid[k] for k in corners]
            if values not in ([2, 1, 1, 2], [1, 2, 2, 1]):
                continue
            pairs = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
            if any(inside_a_block(grid, height, width, r, c) for r, c in pairs):
                continue
            cells = bytearray(grid)
            for k in corners:
                cells[k] = 3 - cells[k]
            if clues(bytes(cells), height, width) == clues(grid, height, width):
                same.append(bytes(cells))
    return same


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.data())
def test_swapped_finds_a_rectangle_exactly_when_there_is_one(
    height: int, width: int, data: st.DataObject
) -> None:
    grid = bytes(
        data.draw(
            st.lists(st.sampled_from([1, 2]), min_size=height * width, max_size=height * width)
        )
    )
    expected = rectangle_swaps(grid, height, width)
    found = swapped(grid, height, width)
    if found is None:
        assert expected == []
    else:
        assert found in expected


def test_swapped_picture_solves_the_puzzle() -> None:
    """The 2x2 checkerboard has two pictures, each the other's swap."""
    puzzle = Puzzle.from_clues([[1], [1]], [[1], [1]])
    first = bytes([2, 1, 1, 2])
    second = swapped(first, 2, 2)
    assert second == bytes([1, 2, 2, 1])
    assert puzzle.is_solution(("#.", ".#")) and puzzle.is_solution((".#", "#."))
