"""The piece catalog of the .cmb language (``include "excover:NAME"``): every set draws the
library's own shapes, is usable from a program in any folder, and is refused by name
when it does not exist."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from excover.lang import Interpreter, LangError, parse
from excover.lang.catalog import _declaration, piece_set, piece_sets, set_text
from excover.tiling import Pattern, Tiling, pentominoes, polyhexes, polyiamonds, polyominoes
from excover.tiling.tile import Shape, Tile

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _cells(shape: Shape) -> set[tuple[int, ...]]:
    """The cells of a shape moved so that its smallest coordinates are 0 (a triangle
    keeps its parity: it is moved by the shape's own normalisation)."""
    normalized = shape.normalized()  # type: ignore[attr-defined]
    return {tuple(int(v) for v in cell) for cell in normalized.coords().tolist()}


def _defined(name: str) -> Interpreter:
    interpreter = Interpreter(io.StringIO(), io.StringIO())
    interpreter.run(parse(f'include "excover:{name}"', "t.cmb"))
    return interpreter


@pytest.mark.parametrize("name", [s.name for s in piece_sets()])
def test_each_set_draws_the_librarys_shapes(name: str) -> None:
    piece_set_ = piece_set(name)
    assert piece_set_ is not None
    interpreter = _defined(name)
    drawn = interpreter.patterns3 if piece_set_.three_d else interpreter.patterns
    assert list(drawn) == list(piece_set_.pieces)
    for piece, shape in piece_set_.pieces.items():
        assert drawn[piece].grid.name == piece_set_.grid, piece
        assert _cells(drawn[piece]) == _cells(shape), piece
    tiles = (interpreter.tiles3 if piece_set_.three_d else interpreter.tiles)[name]
    assert [t.name for t in tiles] == list(piece_set_.pieces)


def test_set_sizes_are_the_known_enumerations() -> None:
    # free polyominoes (A000105), free polyiamonds (A000577), free polyhexes (A000228),
    # one-sided polycubes (A038119: mirror images counted apart)
    expected = {
        "trominoes": 2,
        "tetrominoes": 5,
        "pentominoes": 12,
        "hexominoes": 35,
        "tetriamonds": 3,
        "pentiamonds": 4,
        "hexiamonds": 12,
        "trihexes": 3,
        "tetrahexes": 7,
        "pentahexes": 22,
        "tricubes": 2,
        "tetracubes": 8,
        "pentacubes": 29,
        "soma": 7,
    }
    for name, size in expected.items():
        piece_set_ = piece_set(name)
        assert piece_set_ is not None and len(piece_set_.pieces) == size, name


def test_the_catalog_pentominoes_count_as_the_hand_drawn_ones(tmp_path: Path) -> None:
    board = "pattern b = {\n********\n********\n********\n***..***\n***..***\n" + (
        "********\n********\n********\n}\n"
    )
    hand = (EXAMPLES / "include" / "pentominoes.cmb").read_text()
    counts = []
    for head, tiles in ((hand, "all_pentominoes_fixed_f"), ('include "excover:pentominoes"', "")):
        if not tiles:  # the catalog's list, with F kept as drawn, as the examples file does
            tiles = "fixed"
            head += (
                "\ntiles fixed = ["
                + ", ".join(f"{p} ~one" + ("" if p == "F" else " ~sym") for p in "IVZPNWYTFULX")
                + "]"
            )
        program = tmp_path / "scott.cmb"  # far from examples/: the catalog needs no file
        program.write_text(f"{head}\n{board}problem s = b {tiles}\ncount dlx s\n")
        out = io.StringIO()
        Interpreter(out, io.StringIO()).run(parse(program.read_text(), str(program)))
        counts.append(out.getvalue().strip())
    assert counts == ["s : (DLX) 65 solutions"] * 2


def test_catalog_pieces_count_as_the_python_api_does() -> None:
    text = """include "excover:hexiamonds"
pattern board = triangle{
************
 ************
  ************
}
problem p = board hexiamonds
count dlx p
"""
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    interpreter.run(parse(text, "t.cmb"))
    board = interpreter.patterns["board"]
    tiles = [Tile(shape, f"h{i}", "one", "all") for i, shape in enumerate(polyiamonds(6))]
    assert out.getvalue().strip() == f"p : (DLX) {Tiling(board, tiles).count()} solutions"


def test_soma_from_the_catalog_gives_the_known_counts() -> None:
    text = """include "excover:soma"
pattern3 box = [constant 3x3 true, constant 3x3 true, constant 3x3 true]
problem3 cube = box soma
count3 dlx cube
count3 dlx cube ~up_to_symmetry
"""
    out = io.StringIO()
    Interpreter(out, io.StringIO()).run(parse(text, "t.cmb"))
    assert out.getvalue().split("\n")[:2] == [
        "cube : (DLX) 11520 solutions",
        "cube : (DLX) 240 solutions up to symmetry",
    ]


def test_tile_lists_join_with_plus() -> None:
    """``trominoes + [domino ~one] + monomino``: the catalog's lists and a list written
    out, joined in order, in a ``tiles`` statement and in a problem; both count what the
    Python API counts with the same nine pieces' worth of tiles on a 3x3 square."""
    text = """include "excover:trominoes"
include "excover:domino"
include "excover:monomino"
tiles t = trominoes + [domino ~one ~sym] + monomino
pattern board = constant 3x3 true
problem p = board t
problem q = board [domino ~one ~sym] + monomino + trominoes
count dlx p
count dlx q
"""
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    interpreter.run(parse(text, "t.cmb"))
    assert [tile.name for tile in interpreter.tiles["t"]] == ["I3", "L3", "domino", "monomino"]
    assert [(tile.lo, tile.hi, tile.symmetry) for tile in interpreter.tiles["t"]] == [
        (1, 1, "all")
    ] * 4
    board = interpreter.patterns["board"]
    shapes = [*polyominoes(3), polyominoes(2)[0], polyominoes(1)[0]]
    tiles = [Tile(shape, f"t{i}", "one", "all") for i, shape in enumerate(shapes)]
    expected = Tiling(board, tiles).count()
    assert expected > 0
    assert out.getvalue().split("\n")[:2] == [
        f"p : (DLX) {expected} solutions",
        f"q : (DLX) {expected} solutions",
    ]


def test_a_joined_list_names_its_pieces_apart() -> None:
    text = """include "excover:pentominoes"
tiles t = pentominoes + [I ~one]
"""
    interpreter = Interpreter(io.StringIO(), io.StringIO())
    interpreter.run(parse(text, "t.cmb"))
    assert len(interpreter.tiles["t"]) == 13
    problem = parse(text + "problem p = constant 5x13 true t\n", "t.cmb")
    interpreter = Interpreter(io.StringIO(), io.StringIO())
    interpreter.run(problem)
    assert interpreter.problems["p"].names[-1] == "I#2"


@pytest.mark.parametrize(
    ("use", "column"),
    [("hexes pentominoes", 19), ("hexes [] + pentominoes", 24)],
)
def test_a_catalog_tile_error_is_located_at_the_users_line(use: str, column: int) -> None:
    """A square pentomino on a hex board: the error names the program's line and the
    list's name there, not the text excover generated for the catalog."""
    text = f"""include "excover:pentominoes"
pattern hexes = hex{{
* * * *
 * * * *
}}
problem p = {use}
"""
    with pytest.raises(LangError) as caught:
        Interpreter(io.StringIO(), io.StringIO()).run(parse(text, "t.cmb"))
    error = caught.value
    assert error.pos.source.name == "t.cmb"
    assert (error.pos.line, error.pos.column) == (6, column)
    assert "square pattern but the board of 'p' is a hex pattern" in error.message
    assert "pentominoes" in error.report()


def test_an_unknown_list_in_a_sum_is_located() -> None:
    with pytest.raises(LangError) as caught:
        parse('include "excover:pentominoes"\ntiles t = pentominoes + tetrominoes', "t.cmb")
    error = caught.value
    assert (error.pos.line, error.pos.column) == (2, 25)
    assert "unbound tile list 'tetrominoes'" in error.message


def test_the_studio_opens_a_joined_list() -> None:
    from excover.studio.program import from_cmb

    text = """include "excover:pentominoes"
include "excover:tetrominoes"
problem p = constant 8x8 true pentominoes + [O4 ~one]
"""
    design = from_cmb(text, "t.cmb", folder=".")
    assert [piece.name for piece in design.pieces][-2:] == ["X", "O4"]
    assert len(design.pieces) == 13


def test_a_set_included_twice_is_read_once() -> None:
    program = parse('include "excover:tetrominoes"\ninclude "excover:tetrominoes"', "t.cmb")
    assert program.warnings == []
    assert sum(1 for st in program.statements if type(st).__name__ == "PatternDecl") == 5


def test_tetrominoes_and_pentominoes_do_not_clash() -> None:
    program = parse('include "excover:tetrominoes"\ninclude "excover:pentominoes"', "t.cmb")
    assert program.warnings == []


def test_an_unknown_set_is_a_located_error_listing_the_sets() -> None:
    with pytest.raises(LangError) as caught:
        parse('pattern a = {*}\ninclude "excover:pentomino"', "t.cmb")
    error = caught.value
    assert (error.pos.line, error.pos.column) == (2, 1)
    assert "no set 'pentomino'" in str(error) and "pentominoes" in str(error)


def test_generated_text_is_a_readable_program() -> None:
    text = set_text("pentominoes")
    assert text.startswith('# include "excover:pentominoes"')
    assert "pattern X = {\n.*.\n***\n.*.\n}" in text
    assert text.rstrip().endswith("L ~one ~sym, X ~one ~sym]")
    assert _cells(Pattern.from_ascii(".*.\n***\n.*.")) == _cells(pentominoes()["X"])


def test_every_one_sided_polyiamond_and_polyhex_is_drawn_as_itself() -> None:
    # a drawing starts on a column of either parity; a wrong start would draw a chiral
    # triangle shape as another shape (its triangles pointing the other way)
    shapes: list[Shape] = [s for n in range(1, 7) for s in polyiamonds(n, "rotations")]
    shapes += [s for n in range(1, 5) for s in polyhexes(n, "rotations")]
    for number, shape in enumerate(shapes):
        interpreter = Interpreter(io.StringIO(), io.StringIO())
        interpreter.run(parse(_declaration(f"p{number}", shape), "t.cmb"))
        assert _cells(interpreter.patterns[f"p{number}"]) == _cells(shape), shape


def test_the_command_line_runs_a_catalog_program_anywhere(tmp_path: Path) -> None:
    program = tmp_path / "t.cmb"
    program.write_text(
        'include "excover:pentominoes"\n'
        "problem p = constant 10x6 true pentominoes\n"
        "count dlx p ~up_to_symmetry\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "excover", "run", str(program)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "p : (DLX) 2339 solutions up to symmetry"


@pytest.mark.slow  # draws every set's pictures
def test_the_docs_pictures_of_the_sets_are_what_the_catalog_draws(tmp_path: Path) -> None:
    import runpy

    draw_all = runpy.run_path(str(EXAMPLES / "catalog_pictures.py"))["draw_all"]
    committed = EXAMPLES.parent / "docs" / "images" / "catalog"
    for path in draw_all(tmp_path):
        assert (committed / path.name).read_text() == path.read_text(), (
            f"docs/images/catalog/{path.name} is stale: run python examples/catalog_pictures.py "
            "docs/images/catalog"
        )
