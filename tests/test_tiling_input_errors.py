"""Bad input to the tiling library: each is a UsageError saying what is
wrong, where numpy's ValueError, MemoryError or a TypeError escaped before."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from excover import UsageError
from excover.tiling import (
    ID,
    ROT90,
    HexPattern,
    IsometryGroup,
    Pattern,
    Pattern3,
    Tile,
    Tiling,
    polycubes,
    polyforms,
    polyhexes,
    polyiamonds,
    polyominoes,
)
from excover.tiling.tile import Multiplicity


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Pattern.constant(0, 10**23), "frame is too large"),
        (lambda: Pattern3.constant(1, 0, 10**23), "frame is too large"),
        (lambda: Pattern.constant(1, 1).resize(10**12, 10**12), "frame is too large"),
        (lambda: Pattern.constant(1, 1).crop(0, 0, 0, 10**23), "frame is too large"),
        (lambda: Pattern.from_cells([(10**12, 0)]), "frame is too large"),
        (lambda: Pattern.from_cells([(10**30, 0)]), "integer tuples"),
        (lambda: Pattern.from_cells([(1, 0, 0)]), "has 2 coordinates"),
        (lambda: Pattern.from_cells(["ab"]), "integer tuples"),  # type: ignore[list-item]
        (lambda: Pattern.constant("a", 2), "must be integers"),  # type: ignore[arg-type]
        (lambda: Pattern.constant(1, 1).apply("Rot90"), "needs an Isometry"),  # type: ignore[arg-type]
        (lambda: Tiling("**", 3), "list of Tile objects"),  # type: ignore[arg-type]
        (lambda: Tiling("**", Tile("*")), "list of Tile objects"),  # type: ignore[arg-type]
        (lambda: ROT90((1, 2, 3)), "Rot90 acts on cells of 2 coordinates"),
        (lambda: IsometryGroup("g", [ID, 1]), "1 is not an Isometry"),  # type: ignore[list-item]
    ],
)
def test_bad_arguments_are_usage_errors(make: Callable[[], object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make()


def test_frames_are_unchanged_for_sizes_numpy_can_hold() -> None:
    assert Pattern.constant(0, 5).shape == (0, 5)
    assert Pattern.constant(1, 1).resize(3, 2) == Pattern.from_ascii("...\n*..")
    assert Pattern.from_cells([(2, 1)]) == Pattern.from_ascii("..*\n...")
    assert Pattern.constant(2, 1) | Pattern.constant(1, 2) == Pattern.from_ascii("*.\n**")


def test_far_apart_cells_of_a_frameless_board() -> None:
    """The placements are found in a dense array over the board's bounding box: a hex
    board whose cells are 10**7 apart in both directions is refused by name, while one far
    apart along one axis only is still solved."""
    domino = Tile(HexPattern([(0, 0), (0, 1)]), "d", "any", "none")
    far = HexPattern([(0, 0), (0, 1), (10**7, 10**7), (10**7, 10**7 + 1)])
    with pytest.raises(UsageError, match="too large to index"):
        Tiling(far, [domino])
    apart = HexPattern([(0, 0), (0, 1), (10**5, 0), (10**5, 1)])
    assert Tiling(apart, [domino]).count() == 1


@pytest.mark.parametrize("size", [0, -1, 2.5, "5"])
def test_polyforms_of_no_cells_are_refused(size: object) -> None:
    """polyominoes(0) and polyominoes(-1) returned the monomino: a silent wrong answer."""
    for make in (polyominoes, polycubes, polyhexes, polyiamonds):
        with pytest.raises(UsageError, match="positive number of cells"):
            make(size)  # type: ignore[arg-type]


def test_polyforms_name_an_unknown_grid() -> None:
    with pytest.raises(UsageError, match="unknown grid 'octagon'"):
        polyforms("octagon", 2)
    assert len(polyforms("hex", 3)) == len(polyhexes(3)) == 3


def test_huge_multiplicity_bounds_mean_as_many_as_fit() -> None:
    """A bound beyond the engines' 32-bit multiplicities was refused; no more copies than
    fit on the board can be placed, so an upper bound counts as that many and a lower
    bound above it has no tiling (131 is the number of monomino-domino tilings of the 3x3
    square, 18 those with one monomino, and nine monominoes fill it in one way)."""
    board = Pattern.constant(3, 3)
    domino = Tile("**", "d", "any")
    cases: list[tuple[Multiplicity, int]] = [
        ((0, 10**20), 131),
        ((1, 10**20), 131),
        ((0, 2), 18),
        ((9, None), 1),
        ((10, None), 0),
        ((10**20, None), 0),
        (10**20, 0),
    ]
    for bound, expected in cases:
        tiling = Tiling(board, [Tile("*", "m", bound), domino])
        assert tiling.count("search") == tiling.count("zdd") == tiling.count("sat") == expected
