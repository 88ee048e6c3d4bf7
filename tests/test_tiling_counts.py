"""Tiling counts against independent values: formulas, the literature, a brute force."""

from __future__ import annotations

import math

import pytest
from builders import COMBINE_DATA

from excover.tiling import (
    HexPattern,
    Pattern,
    Pattern3,
    Tile,
    Tiling,
    TrianglePattern,
    pentominoes,
    polyiamonds,
    soma_pieces,
    tetrominoes,
    tiles,
)
from excover.zdd import Manager, dxz

BENCH = str(COMBINE_DATA)


def kasteleyn(m: int, n: int) -> int:
    """Domino tilings of an m x n rectangle (Kasteleyn's product formula)."""
    product = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            product *= (
                4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
            )
    return round(product) if m * n % 2 == 0 else 0


@pytest.mark.parametrize(("m", "n"), [(2, 2), (2, 7), (3, 4), (4, 4), (5, 6), (6, 6), (3, 5)])
def test_dominoes_kasteleyn(m: int, n: int) -> None:
    tiling = Tiling(Pattern.constant(m, n), [Tile("**", "d", "any")])
    assert tiling.count() == kasteleyn(m, n)


@pytest.mark.parametrize(("width", "height", "expected"), [(20, 3, 8), (15, 4, 1472)])
def test_pentomino_rectangles(width: int, height: int, expected: int) -> None:
    assert Tiling(Pattern.constant(width, height), tiles(pentominoes())).count() == expected


def test_scott_board() -> None:
    board = Pattern.read(f"{BENCH}/scott_board.txt")
    tiling = Tiling(board, tiles(pentominoes()))
    assert tiling.count() == 520
    assert tiling.count(up_to_symmetry=True) == 65  # the I piece pinned to 6 placements
    assert tiling.symmetry.free_tile() is not None
    assert tiling.symmetry.burnside("search", {}) == 65
    assert sum(1 for _ in tiling.solutions(up_to_symmetry=True)) == 65


def test_pentominoes_at_most_once_in_5xn() -> None:
    """OEIS A246902, first terms."""
    found = [
        Tiling(Pattern.constant(n, 5), tiles(pentominoes(), multiplicity="maybe")).count()
        for n in range(1, 9)
    ]
    assert found == [1, 0, 28, 200, 856, 2164, 5584, 13632]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("dominos_c1_8x8_hole", 115662), ("caml_small", 46976)],
)
def test_combine_domino_boards(name: str, expected: int) -> None:
    board = Pattern.read(f"{BENCH}/{name}.txt")
    assert Tiling(board, [Tile("**", "d", "any")]).count() == expected


@pytest.mark.parametrize(("name", "expected"), [("p12", 168), ("p15", 296)])
def test_combine_pentomino_boards(name: str, expected: int) -> None:
    board = Pattern.read(f"{BENCH}/penta_board_{name}.txt")
    assert Tiling(board, tiles(pentominoes())).count() == expected


def test_penta_t_with_pentominoes_at_most_once() -> None:
    board = Pattern.read(f"{BENCH}/penta_board_penta_t.txt")
    assert Tiling(board, tiles(pentominoes(), multiplicity="maybe")).count() == 764


def test_each_tetromino_twice() -> None:
    """57472 for 4x10 when equal pieces are told apart (combine), 2**5 times fewer when
    they are interchangeable."""
    board = Pattern.constant(10, 4)
    pairs = [Tile(p, f"{k}{i}") for k, p in tetrominoes().items() for i in range(2)]
    assert Tiling(board, pairs).count() == 57472
    assert Tiling(board, pairs, interchangeable=True).count() == 57472 // 32
    assert Tiling(board, tiles(tetrominoes(), multiplicity=2)).count() == 57472 // 32


def test_3d_domino_in_a_box_has_one_tiling() -> None:
    box = Pattern3.constant(2, 1, 1)
    assert Tiling(box, [Tile(Pattern3.from_layers(["*", "*"]), "d")]).count() == 1


def test_soma_cube() -> None:
    tiling = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations"))
    assert tiling.count() == 11520
    assert tiling.count(up_to_symmetry=True) == 240


def test_lozenges_in_a_hexagon() -> None:
    hexagon = TrianglePattern.from_ascii(
        """
..*****
.*******
.*******
..*****"""
    )
    tiling = Tiling(hexagon, [Tile(polyiamonds(2)[0], "lozenge", "any")])
    # MacMahon's formula for the 2, 2, 2 hexagon
    assert (
        tiling.count()
        == 20
        == math.prod(math.factorial(i + 4) * math.factorial(i) for i in range(2))
        // math.prod(math.factorial(i + 2) ** 2 for i in range(2))
    )


def test_dihexes_on_a_ring_of_six() -> None:
    ring = HexPattern.from_ascii(
        """
 * *
*   *
 * *"""
    )
    tiling = Tiling(ring, [Tile(HexPattern([(0, 0), (1, 0)]), "d", "any")])
    assert tiling.count() == 2  # a 6-cycle has two perfect matchings
    assert tiling.count(up_to_symmetry=True) == 1


def test_options_are_numbered_in_dxz_order() -> None:
    """A tiling numbers its options by their first board cell, the order in which DXZ
    builds the family, so ``problem.zdd()`` is the search's own family, not a renaming of
    it into the tile-by-tile order (the small camel's dominoes: 910 nodes, not 388,165);
    each option still decodes to its own placement."""
    board = Pattern.read(COMBINE_DATA / "caml_small.txt")
    tiling = Tiling(board, [Tile(Pattern.from_ascii("**"), multiplicity="any", symmetry="all")])
    problem = tiling.problem
    assert dxz.Run(problem, Manager()).order == list(range(problem.n_options))
    family = problem.zdd()
    assert family.count() == 46976 == problem.count(method="search")
    assert family.size < 2000
    for option in range(problem.n_options):
        cells = tiling.placement(option).cells
        names = {tiling.grid.cell_name(cell) for cell in cells}
        assert names == set(problem.option_items(option))
