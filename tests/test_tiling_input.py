"""Reading patterns from text and files on every grid, multiplicities written as ranges,
and bad input: each refused with an ExcoverError naming the tile, pattern source, line or
cell at fault."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from excover import ExcoverError, FormatError, UsageError
from excover.tiling import (
    D4_SUBGROUPS,
    HEX,
    ROT90,
    HexPattern,
    Pattern,
    Pattern3,
    Tile,
    Tiling,
    TrianglePattern,
    polyhexes,
)


def test_every_pattern_reads_its_file(tmp_path: Path) -> None:
    square = tmp_path / "square.txt"
    square.write_text("\n**\n*.\n", encoding="utf-8")
    assert Pattern.read(square) == Pattern.from_ascii("**\n*.")
    hexes = tmp_path / "hex.txt"
    hexes.write_text(" * *\n* *\n", encoding="utf-8")
    assert HexPattern.read(hexes) == HexPattern.from_ascii(" * *\n* *")
    assert HexPattern.read(hexes).size == 4
    triangles = tmp_path / "triangles.txt"
    triangles.write_text("***\n", encoding="utf-8")
    assert TrianglePattern.read(triangles) == TrianglePattern.from_ascii(triangles.read_text())
    assert TrianglePattern.read(triangles).size == 3


@pytest.mark.parametrize("kind", [Pattern, Pattern3, HexPattern, TrianglePattern])
def test_unreadable_pattern_files_are_excover_errors(
    kind: type[Pattern | Pattern3 | HexPattern | TrianglePattern], tmp_path: Path
) -> None:
    """A missing file and one that is not UTF-8 text give ExcoverErrors naming the file."""
    missing = tmp_path / "missing.txt"
    with pytest.raises(UsageError, match=r"missing\.txt"):
        kind.read(missing)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("**\n*\xe9\n".encode("latin-1"))
    with pytest.raises(FormatError, match="not UTF-8") as caught:
        kind.read(latin)
    assert caught.value.source == str(latin)


def test_3d_patterns_as_layers_separated_by_blank_lines(tmp_path: Path) -> None:
    text = "\n**\n**\n\n\n*.\n..\n"
    solid = Pattern3.from_ascii(text)
    assert solid == Pattern3.from_layers(["**\n**", "*.\n.."])
    assert solid.cells == [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0)]
    path = tmp_path / "solid.txt"
    path.write_text(text, encoding="utf-8")
    assert Pattern3.read(path) == solid


def test_multiplicity_ranges_as_text() -> None:
    assert (Tile("*", "a", "2..3").lo, Tile("*", "a", "2..3").hi) == (2, 3)
    assert (Tile("*", "a", "1..").lo, Tile("*", "a", "1..").hi) == (1, None)
    assert (Tile("*", "a", "0..1").lo, Tile("*", "a", "0..1").hi) == (0, 1)
    board = Pattern.constant(3, 1)
    as_text = Tiling(board, [Tile("**", "d", "0..1"), Tile("*", "m", "1..")])
    as_tuple = Tiling(board, [Tile("**", "d", (0, 1)), Tile("*", "m", (1, None))])
    assert as_text.count() == as_tuple.count() == 3  # md, dm... and mmm


HEXAGON = HexPattern([(0, 0), (1, 0)])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Tile(HEXAGON, "dh", symmetry="rot180"), "tile 'dh': unknown symmetry 'rot180'"),
        (lambda: Tile(HEXAGON, "dh", symmetry=D4_SUBGROUPS["axes"]), "tile 'dh'.*square grid"),
        (lambda: Tile(TrianglePattern([(1, 0, 0)]), "t", symmetry=HEX.rotations), "tile 't'"),
        (lambda: Tile(Pattern3.from_layers(["**"]), "c", symmetry="diag1"), "tile 'c'.*cube"),
        (lambda: TrianglePattern([(0, 0, 0)]), r"\(0, 0, 0\) is not a triangle"),
        (lambda: TrianglePattern([(0, 1)]), r"\(0, 1\) is not a cell of the triangle grid"),
        (lambda: HexPattern([(0, 1, 2)]), r"\(0, 1, 2\) is not a cell of the hex grid"),
        (lambda: HEXAGON.apply(ROT90), "Rot90 acts on the square grid"),
        (lambda: Tiling(HEXAGON, [Tile("**", "sq")]), "tile 'sq' is on the square grid"),
        (lambda: Tiling(HexPattern([]), [Tile(HEXAGON, "m")]), "the board has no cells"),
        (lambda: Tiling(HEXAGON, [Tile(polyhexes(3)[0], "big")]), "tile 'big' has 3 cells"),
        (lambda: Tile(HexPattern([]), "void"), "tile 'void' has no cells"),
        (lambda: Tile("*", "m", "3..1"), "bad multiplicity '3..1' for tile 'm'"),
        (lambda: Tile("*", "m", "1..x"), "bad multiplicity '1..x' for tile 'm'"),
    ],
)
def test_bad_arguments_name_the_culprit(make: Callable[[], object], message: str) -> None:
    with pytest.raises(ExcoverError, match=message):
        make()


@pytest.mark.parametrize(
    ("make", "located"),
    [
        (lambda: HexPattern.from_ascii("\n * *\n* **", "hex.txt"), "hex.txt:3: .*column 4"),
        (lambda: TrianglePattern.from_ascii("**\n*x*", "tri.txt"), "tri.txt:2: .*'x'"),
        (lambda: Pattern.from_ascii("\n\n**\n*%", "sq.txt"), "sq.txt:4: .*'%'"),
        (lambda: Pattern3.from_layers(["**", "*\n*y"], "c.txt"), "c.txt layer 1:2: .*'y'"),
        (lambda: Pattern3.from_ascii("**\n\n**\n*?", "c.txt"), "c.txt layer 1:4: .*'\\?'"),
    ],
)
def test_stray_characters_are_located(make: Callable[[], object], located: str) -> None:
    with pytest.raises(FormatError, match=located):
        make()


def test_tile_drawn_with_stray_characters_is_named() -> None:
    with pytest.raises(FormatError, match="tile 'bad':1: unexpected character '@'"):
        Tile("*@", "bad")
