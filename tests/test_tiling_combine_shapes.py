"""The shapes of ``tests/data/combine`` (taken from combine's examples): counts against the
figures of its INDEX.md, and the boards combine only solves, solved and checked.

combine's 3D counts are too high (its reduction lists every piece's identity orientation
twice), so the pentacube count is computed here two ways (dancing links and ZDD), its
orbits two ways (Burnside's lemma and canonical representatives), and combine's figure is
recovered from ours by weighting each tiling by 2 for every piece placed as drawn.
"""

from __future__ import annotations

import pytest
from builders import COMBINE_DATA
from test_tiling_counts import kasteleyn

from excover.tiling import (
    Pattern,
    Pattern3,
    Tile,
    Tiling,
    TilingSolution,
    polycubes,
    tetrominoes,
    tiles,
)


def blocks(name: str) -> dict[str, list[str]]:
    """The drawings of a multi-shape file: ``= NAME [layerK]`` headers, each followed by
    one block of ASCII art; a name's layers in order (bottom first)."""
    text = (COMBINE_DATA / name).read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for chunk in text.split("= ")[1:]:
        header, _, drawing = chunk.partition("\n")
        found.setdefault(header.split()[0], []).append(drawing.strip("\n"))
    return found


def flat_pieces(name: str) -> dict[str, Pattern]:
    return {key: Pattern.from_ascii(layers[0]) for key, layers in blocks(name).items()}


def solid(name: str) -> Pattern3:
    """A 3D board whose blocks are its layers ``layer0``, ``layer1``, ..."""
    return Pattern3.from_layers([layers[0] for layers in blocks(name).values()])


def check(solution: TilingSolution | None) -> TilingSolution:
    """A tiling really is one: an exact cover whose placements are the tiles' shapes."""
    assert solution is not None
    tiling = solution.tiling
    assert tiling.problem.is_solution(solution.options)
    covered = sorted(cell for p in solution for cell in p.cells)
    assert covered == sorted(tuple(int(v) for v in cell) for cell in tiling.cells.tolist())
    for placement in solution:
        assert len(placement.cells) == placement.tile.size
    return solution


CATS_15 = "yellow purple white black blue turqoise sage yale"
CATS_16 = "darkblue red black blue yale yellow purple turqoise sage"


@pytest.mark.parametrize(("board", "names", "expected"), [(15, CATS_15, 34), (16, CATS_16, 10)])
def test_catstax(board: int, names: str, expected: int) -> None:
    """combine's cat_stax.cmb: every cat once, turned and flipped, except the sage cat,
    which is placed as drawn."""
    cats = flat_pieces("pieces_catstax.txt")
    chosen = [
        Tile(cats[f"{n}_cat"], n, "one", "none" if n == "sage" else "all") for n in names.split()
    ]
    tiling = Tiling(Pattern.read(COMBINE_DATA / f"catstax_board_{board}.txt"), chosen)
    assert tiling.count() == expected
    check(tiling.first())


def test_catstax_in_3d() -> None:
    cats = {k: Pattern3.from_layers(v) for k, v in blocks("pieces_catstax.txt").items()}
    tiling = Tiling(solid("catstax_board_43_layers.txt"), tiles(cats))
    check(tiling.first())


def test_gagnetonpapa() -> None:
    pieces = flat_pieces("pieces_gagnetonpapa.txt")
    assert Tiling(Pattern.constant(5, 5), tiles(pieces)).count() == 8


def hook(k: int) -> Pattern:
    """The k-th layer of a square built outward from a corner: an L of 2k - 1 cells."""
    return Pattern.from_cells([(i, k - 1) for i in range(k)] + [(0, j) for j in range(k - 1)])


@pytest.mark.parametrize("interchangeable", [False, True])
def test_pyth_3_4_5(interchangeable: bool) -> None:
    """The hooks of a 3x3 and a 4x4 square tile the 5x5 square in 640 ways (combine's
    pyth-3-4-5.cmb). The hooks of sizes 1, 3 and 5 come twice, so telling equal pieces
    apart multiplies the count by 2**3 exactly."""
    pieces = [Tile(hook(k), f"a{k}") for k in (1, 2, 3)] + [
        Tile(hook(k), f"b{k}") for k in (1, 2, 3, 4)
    ]
    tiling = Tiling(Pattern.constant(5, 5), pieces, interchangeable=interchangeable)
    assert tiling.count() * (2**3 if interchangeable else 1) == 640
    assert len(tiling.tiles) == (4 if interchangeable else 7)


def test_each_tetromino_twice_on_5x8() -> None:
    """99392 with the two copies of each tetromino told apart; every tiling uses each of
    the five pieces twice, so merging the copies divides the count by 2**5."""
    pairs = [Tile(p, f"{k}{i}") for k, p in tetrominoes().items() for i in range(2)]
    board = Pattern.constant(8, 5)
    told_apart = Tiling(board, pairs).count()
    merged = Tiling(board, pairs, interchangeable=True)
    assert told_apart == 99392
    assert merged.count() * 2**5 == told_apart
    assert all(t.lo == t.hi == 2 for t in merged.tiles)
    assert merged.count() == Tiling(board, tiles(tetrominoes(), multiplicity=2)).count()


def test_modotri_by_zdd() -> None:
    """Dominoes, monominoes, L and I trominoes, any number of each, on 8x8: a count far
    beyond enumeration, which the ZDD gets exactly (combine's modotri_8_8.cmb)."""
    pieces = flat_pieces("pieces_modotri.txt")
    tiling = Tiling(Pattern.constant(8, 8), tiles(pieces, "any"))
    assert tiling.count(method="zdd") == 92109458286284989468604
    small = Tiling(Pattern.constant(4, 3), tiles(pieces, "any"))
    assert small.count(method="zdd") == small.count(method="search")


def pentacubes() -> dict[str, Pattern3]:
    return {k: Pattern3.from_layers(v) for k, v in blocks("pieces_pentacubes_3d.txt").items()}


def test_the_29_pentacubes_are_the_one_sided_pentacubes() -> None:
    drawn = {Tile(p, k, symmetry="rotations").orientation_keys() for k, p in pentacubes().items()}
    generated = {Tile(p, "p", symmetry="rotations").orientation_keys() for p in polycubes(5)}
    assert len(drawn) == 29 and len(generated) == 23  # free: mirror pairs are one shape
    one_sided = {
        Tile(p, "p", symmetry="rotations").orientation_keys() for p in polycubes(5, "rotations")
    }
    assert drawn == one_sided


def test_pentacubes_in_a_cube_with_a_tunnel() -> None:
    """The 3x3x3 cube minus its two upper centre cells, each of the 29 one-sided pentacubes
    at most once. combine prints 32686: each of our tilings weighted by 2 for each piece in
    its drawn orientation gives exactly that, which confirms both figures."""
    tiling = Tiling(
        solid("pentacubes_board_one_cube_3d.txt"), tiles(pentacubes(), "maybe", "rotations")
    )
    as_drawn = [tiling.placement(k).isometry.is_identity() for k in range(tiling.problem.n_options)]
    found = list(tiling.problem.solutions())  # dancing links
    assert len(found) == tiling.count(method="zdd")
    assert sum(2 ** sum(as_drawn[k] for k in s) for s in found) == 32686
    orbits = tiling.count(up_to_symmetry=True)  # Burnside's lemma
    assert orbits == sum(1 for _ in tiling.symmetry.representatives(found))
    assert tiling.symmetry.order == 8 and len(found) <= 8 * orbits


@pytest.mark.parametrize("name", ["two", "three", "four"])
def test_pentacubes_in_several_cubes_solve(name: str) -> None:
    board = solid(f"pentacubes_board_{name}_cubes_3d.txt")
    check(Tiling(board, tiles(pentacubes(), "maybe", "rotations")).first())


@pytest.mark.parametrize(
    ("board", "without", "heuristic"), [("p18x15_5x3", "", "random"), ("p2", "h11", "mrv")]
)
def test_hexomino_boards_solve(board: str, without: str, heuristic: str) -> None:
    """combine's hexa.cmb: the 35 hexominoes (h34 placed as drawn) on a 15x15 square with
    a 5x3 hole, and the 34 but h11 on a 17x12 board; solve only. The time to a first
    packing is heavy-tailed and hangs on the order of the branches (plain MRV takes a few
    thousand nodes or millions depending on how the options are numbered), so the first
    board uses MRV with ties broken by a seeded generator that finds one in thousands."""
    shapes = flat_pieces("pieces_hexominoes.txt")
    chosen = [
        Tile(p, k, "one", "none" if (k, without) == ("h34", "") else "all")
        for k, p in shapes.items()
        if k != without
    ]
    tiling = Tiling(Pattern.read(COMBINE_DATA / f"hexa_board_{board}.txt"), chosen)
    solution = check(tiling.first(heuristic=heuristic, seed=3))
    assert len(solution) == len(chosen)


def test_boards_are_where_the_index_says() -> None:
    """The shapes read here have the sizes INDEX.md gives (a guard on the readers)."""
    assert solid("pentacubes_board_one_cube_3d.txt").size == 25
    assert solid("catstax_board_43_layers.txt").size == 72
    assert Pattern.read(COMBINE_DATA / "hexa_board_p18x15_5x3.txt").size == 210
    assert len(pentacubes()) == 29 and len(flat_pieces("pieces_hexominoes.txt")) == 35


DOMINO_BOARDS = {
    "caml_large": 32420116341024288,
    "dominos_c2_12x10_octagon": 3637249604,
    "dominos_c3_22x22_ring": 104857600000000,
    "dominos_c4_22x22": 2255578550442504749056000000,
    "dominos_test_22x22": 247319451357235281887232,
    "euler_30x27": 971166110121482088250709280,
}


@pytest.mark.parametrize("name", list(DOMINO_BOARDS))
def test_domino_boards_by_zdd(name: str) -> None:
    """combine's large domino boards, counted exactly through the ZDD of all tilings."""
    board = Pattern.read(COMBINE_DATA / f"{name}.txt")
    assert Tiling(board, [Tile("**", "d", "any")]).count(method="zdd") == DOMINO_BOARDS[name]


def test_domino_rectangles_by_zdd_against_kasteleyn() -> None:
    """The 8x8 square (combine's non-regression figure 12988816) and larger rectangles."""
    for m, n in [(8, 8), (10, 10), (9, 12)]:
        tiling = Tiling(Pattern.constant(m, n), [Tile("**", "d", "any")])
        assert tiling.count(method="zdd") == kasteleyn(m, n)
    assert kasteleyn(8, 8) == 12988816
