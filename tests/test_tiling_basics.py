"""Groups, patterns, tiles, catalogs and pictures of the tiling library."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from budget import examples
from builders import COMBINE_DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExcoverError
from excover.tiling import (
    CUBE,
    D4,
    D4_SUBGROUPS,
    HEX,
    ID,
    ROT90,
    ROT180,
    SQUARE,
    TRIANGLE,
    Grid,
    Pattern,
    Tile,
    Tiling,
    pentominoes,
    polycubes,
    polyhexes,
    polyiamonds,
    polyominoes,
)
from excover.tiling.render import solution_svg
from excover.tiling.tile import Shape


@pytest.mark.parametrize("grid", [SQUARE, CUBE, HEX, TRIANGLE], ids=lambda g: g.name)
def test_group_axioms(grid: Grid) -> None:
    elements = list(grid.isometries)
    identity = [g for g in elements if g.is_identity()]
    assert len(identity) == 1
    assert len(elements) == {"square": 8, "cube": 48, "hex": 12, "triangle": 12}[grid.name]
    assert len(grid.rotations) * 2 == len(elements)
    for g in elements:
        assert (g * g.inverse()).is_identity() and (g.inverse() * g).is_identity()
        for h in elements:
            assert g * h in grid.isometries
            cell = tuple(range(1, grid.dimension + 1))
            assert (g * h)(cell) == g(h(cell))
    rng = np.random.default_rng(1)
    for _ in range(50):
        a, b, c = (elements[i] for i in rng.integers(len(elements), size=3))
        assert (a * b) * c == a * (b * c)


def test_d4_subgroups() -> None:
    assert len(D4_SUBGROUPS) == 10
    assert len({frozenset(g) for g in D4_SUBGROUPS.values()}) == 10
    assert all(group.is_subgroup_of(D4) for group in D4_SUBGROUPS.values())
    assert ROT90 * ROT90 == ROT180 and ROT90((1, 0)) == (0, 1) and ROT90.inverse() * ROT90 == ID


patterns = st.builds(
    lambda w, h, bits: Pattern(np.array(bits[: w * h], dtype=bool).reshape(w, h)),
    st.integers(0, 5),
    st.integers(0, 5),
    st.lists(st.booleans(), min_size=25, max_size=25),
)


@given(patterns, patterns)
def test_set_operations_on_any_shapes(a: Pattern, b: Pattern) -> None:
    sa, sb = set(a.cells), set(b.cells)
    assert set((a | b).cells) == sa | sb
    assert set((a & b).cells) == sa & sb
    assert set((a - b).cells) == sa - sb
    assert set((a ^ b).cells) == sa ^ sb
    assert (a | b).width == max(a.width, b.width) and (a | b).height == max(a.height, b.height)


@given(patterns, st.integers(-2, 3), st.integers(-2, 3), st.integers(0, 4), st.integers(0, 4))
def test_frame_operations(p: Pattern, x: int, y: int, w: int, h: int) -> None:
    cells = set(p.cells)
    crop = p.crop(x, y, w, h)
    assert (crop.width, crop.height) == (w, h)
    expected = {(cx - x, cy - y) for cx, cy in cells if x <= cx < x + w and y <= cy < y + h}
    assert set(crop.cells) == expected
    moved = {(cx + x, cy + y) for cx, cy in cells if cx + x >= 0 and cy + y >= 0}
    assert set(p.shift(x, y).cells) == moved
    assert set(p.resize(w, h).cells) == {(cx, cy) for cx, cy in cells if cx < w and cy < h}
    for g in D4:
        image = p.apply(g)
        assert image.size == p.size
        assert image.apply(g.inverse()) == p
    assert Pattern.from_ascii(p.ascii()).normalized() == p.normalized()


def test_ascii_conventions_and_file(tmp_path: object) -> None:
    p = Pattern.from_ascii(
        """
**.
*"""
    )
    assert (p.width, p.height) == (3, 2)
    assert p.cells == [(0, 0), (0, 1), (1, 1)]  # the last row is y = 0
    assert p.set(2, 0).cells == [(0, 0), (0, 1), (1, 1), (2, 0)]
    assert Pattern.constant(2, 3).size == 6 and Pattern.constant(2, 3, False).size == 0
    assert Pattern.from_cells([(1, 2)]).shape == (2, 3)
    assert len(Pattern.from_ascii("***").symmetries()) == 4
    assert Pattern.from_ascii(".*.\n***\n.*.").symmetries() == D4


@given(st.sampled_from(polyominoes(5) + polyominoes(4)), st.sampled_from(list(D4_SUBGROUPS)))
def test_orientations_distinct_and_closed(shape: Pattern, name: str) -> None:
    group = D4_SUBGROUPS[name]
    tile = Tile(shape.shift(2, 1), "t", symmetry=group)  # margins must not matter
    keys = [o.tobytes() for o in tile.orientations]
    assert len(set(keys)) == len(keys)
    for orientation in tile.orientations:
        for g in group:
            assert SQUARE.normalize(g.apply(orientation)).tobytes() in keys
    stabiliser = [g for g in group if g in shape.symmetries()]
    assert len(keys) * len(stabiliser) == len(group)


OTHER_SHAPES = [*polyhexes(4), *polyiamonds(5), *polycubes(4)]


@settings(max_examples=examples(40))
@given(st.sampled_from(OTHER_SHAPES), st.sampled_from(["none", "rotations", "all"]))
def test_orientations_on_other_grids(shape: Shape, symmetry: str) -> None:
    """On the hex, triangle and cubic grids too: orientations distinct, closed under the
    group, as many as the group's order over the shape's stabiliser (orbit-stabiliser)."""
    tile = Tile(shape, "t", symmetry=symmetry)
    grid = shape.grid
    keys = [o.tobytes() for o in tile.orientations]
    assert len(set(keys)) == len(keys)
    for orientation in tile.orientations:
        for g in tile.group:
            assert grid.normalize(g.apply(orientation)).tobytes() in keys
    symmetries = grid.symmetries(shape.coords())
    stabiliser = [g for g in tile.group if g in symmetries]
    assert len(keys) * len(stabiliser) == len(tile.group)


def test_catalog_sizes() -> None:
    assert [len(polyominoes(n)) for n in range(1, 7)] == [1, 1, 2, 5, 12, 35]
    assert [len(polycubes(n)) for n in range(1, 5)] == [1, 1, 2, 7]
    assert [len(polyhexes(n)) for n in range(1, 5)] == [1, 1, 3, 7]
    assert [len(polyiamonds(n)) for n in range(1, 7)] == [1, 1, 1, 3, 4, 12]


def test_pentomino_names_match_combine() -> None:
    text = (COMBINE_DATA / "pieces_pentominoes.txt").read_text(encoding="utf-8")
    named = pentominoes()
    for block in text.split("= ")[1:]:
        name, _, drawing = block.partition("\n")
        drawn = Pattern.from_ascii(drawing)
        assert Tile(drawn, name).orientation_keys() == Tile(named[name], name).orientation_keys()


def test_solution_pictures() -> None:
    tiling = Tiling(Pattern.constant(4, 2), [Tile("**", "d", "any")])
    solution = tiling.first()
    assert solution is not None
    rows = solution.ascii().split("\n")
    assert len(rows) == 2 and all(len(row) == 4 for row in rows)
    assert sorted(solution.ascii().replace("\n", "")) == sorted("AABBCCDD")
    root = ET.fromstring(solution.svg())
    polygons = [e for e in root.iter() if e.tag.endswith("polygon")]
    assert len(polygons) == 8
    assert len({p.get("fill") for p in polygons}) == 1  # one colour per tile
    each = ET.fromstring(solution_svg(solution, each_piece=True))
    fills = [e.get("fill") for e in each.iter() if e.tag.endswith("polygon")]
    assert len(set(fills)) == 4 and all(fills.count(f) == 2 for f in fills)  # one per piece
    ET.fromstring(tiling._repr_svg_())
    ET.fromstring(tiling.tiles[0]._repr_svg_())
    ET.fromstring(Pattern.constant(2, 2)._repr_svg_())


def test_a_notebook_shows_the_board_and_its_pieces() -> None:
    """A Tiling's HTML picture is the problem: the board (as its own SVG shows it) and
    beside it every piece, named, with its multiplicity when not exactly once."""
    pieces = [Tile(shape, name, "one", "all") for name, shape in pentominoes().items()]
    pieces[-1] = Tile(pieces[-1].shape, pieces[-1].name, "maybe", "all")
    tiling = Tiling(Pattern.constant(10, 6), pieces)
    html = tiling._repr_html_()
    root = ET.fromstring(html)
    pictures = [e for e in root.iter() if e.tag.endswith("svg")]
    assert len(pictures) == 2
    assert ET.tostring(pictures[0]) == ET.tostring(ET.fromstring(tiling._repr_svg_()))
    labels = [e.text for e in pictures[1].iter() if e.tag.endswith("text")]
    *once, last = [tile.name for tile in tiling.tiles]
    assert labels == [*once, f"{last} 0-1"]
    sheet_cells = [e for e in pictures[1].iter() if e.tag.endswith("polygon")]
    assert len(sheet_cells) == 5 * len(pieces)


def test_bad_input() -> None:
    with pytest.raises(ExcoverError, match="no cells"):
        Tiling(Pattern.constant(2, 2, False), [Tile("*", "m")])
    with pytest.raises(ExcoverError, match="'big'"):
        Tiling(Pattern.constant(1, 1), [Tile("**", "big")])
    with pytest.raises(ExcoverError, match="'empty'"):
        Tile("..", "empty")
    with pytest.raises(ExcoverError, match=":2: unexpected"):
        Pattern.from_ascii("**\n*x")
    with pytest.raises(ExcoverError, match="'bent'"):
        Tile("**", "bent", symmetry=HEX.isometries)
    with pytest.raises(ExcoverError, match="'m'"):
        Tile("*", "m", multiplicity=(3, 2))
