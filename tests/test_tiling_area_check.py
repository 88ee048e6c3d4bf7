"""The area check: a board whose number of cells no choice of tiles adds up to has no
tiling, and excover says so before any search, with the reason.

The check must be sound (it never rules out a board that has a tiling: compared with the
search on random small boards and tile sets) and catch the classic trap (12 pentominoes,
60 cells, on an 8x8 board of 64)."""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import UsageError
from excover.names import METHODS
from excover.tiling import Pattern, Tile, Tiling, pentominoes, polyominoes, tiles
from excover.tiling.tile import Multiplicity
from excover.tiling.tiling import area_obstruction


def test_twelve_pentominoes_cannot_fill_sixty_four_cells() -> None:
    tiling = Tiling(Pattern.constant(8, 8), tiles(pentominoes()))
    assert tiling.obstruction is not None and "cover 60 cells, not 64" in tiling.obstruction
    assert tiling.count() == 0 and tiling.first() is None
    assert list(tiling.solutions()) == [] and tiling.count(up_to_symmetry=True) == 0


def test_a_board_of_the_right_area_is_searched() -> None:
    board = Pattern.from_ascii("********\n" * 3 + "***..***\n" * 2 + "********\n" * 3)
    tiling = Tiling(board, tiles(pentominoes()))
    assert tiling.obstruction is None and tiling.count() == 520


def test_a_required_tile_too_big_for_the_board_is_named() -> None:
    big = Tile(Pattern.constant(3, 3), name="nine", multiplicity="one")
    reason = area_obstruction(8, [big])
    assert reason is not None and "nine" in reason


def test_an_optional_tile_too_big_for_the_board_is_never_placed() -> None:
    """A catalog on a small board: the tiles that cannot fit and may stay unused change
    nothing, by every method; a required one is refused with its name."""
    board = Pattern.constant(2, 3)
    domino = Tile(Pattern.constant(1, 2), name="domino", multiplicity="any")
    alone = Tiling(board, [domino])
    for multiplicity in ("any", "maybe", (0, 2)):
        big = Tile(Pattern.constant(3, 3), name="nine", multiplicity=multiplicity)
        tiling = Tiling(board, [domino, big])
        for method in METHODS:
            assert tiling.count(method=method) == alone.count() == 3
        placed = {p.tile.name for s in tiling.solutions() for p in s.placements}
        assert placed == {"domino"}
    with pytest.raises(UsageError, match="'nine' has 9 cells"):
        Tiling(board, [domino, Tile(Pattern.constant(3, 3), name="nine")])


@settings(max_examples=examples(60), deadline=None)
@given(
    width=st.integers(2, 4),  # at least 4 cells: no tile is larger than the board
    height=st.integers(2, 4),
    picks=st.lists(
        st.tuples(st.integers(1, 3), st.sampled_from(["one", "maybe", "any", (0, 2), (1, 2)])),
        min_size=1,
        max_size=3,
    ),
)
def test_the_check_never_rules_out_a_tileable_board(
    width: int, height: int, picks: list[tuple[int, Multiplicity]]
) -> None:
    chosen = []
    for number, (size, multiplicity) in enumerate(picks):
        shape = polyominoes(size)[0]
        chosen.append(Tile(shape, name=f"t{number}", multiplicity=multiplicity))
    tiling = Tiling(Pattern.constant(width, height), chosen)
    searched = tiling.problem.count(method="search")
    if tiling.obstruction is not None:
        assert searched == 0
    assert tiling.count() == searched
