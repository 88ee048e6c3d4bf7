"""The ``.cmb`` language on BurrTools' solid grids (prisms, spheres, rhombic dodecahedra,
tetrahedra-octahedra): small programs counted as the Python API counts the same tiling
built directly, and as a brute-force search of its own counts it (placements found by
turning the piece with every isometry of the grid and moving it by the grid's
translations, covers found by trying every placement); the layers drawn and read back;
errors located at the user's line; ``solve3 ... svg`` writes the exploded picture."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from excover.lang import Interpreter, LangError, parse
from excover.lang.catalog import piece_set
from excover.lang.evaluate import draw, layer_drawings
from excover.lang.layers import solid_layers, solid_pattern
from excover.tiling import (
    PrismPattern,
    RhombicPattern,
    SpherePattern,
    TetraOctaPattern,
    Tile,
    Tiling,
    polyprisms,
    polyrhombic_dodecahedra,
    polyspheres,
    rhombic_dodecahedron,
)
from excover.tiling.grids import GRIDS
from excover.tiling.tile import Shape

Cell = tuple[int, ...]


def run(text: str) -> tuple[str, Interpreter]:
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    interpreter.run(parse(text, "t.cmb"))
    return out.getvalue(), interpreter


def brute_force_count(board: Shape, pieces: Sequence[Shape], group: str) -> int:
    """Tilings of ``board`` by any number of copies of ``pieces``, each turned by the
    grid's ``group``: every image of a piece moved so that its lowest cell lands on each
    board cell, kept when the move is a translation of the grid and the piece lands inside
    the board; covers counted by filling the lowest uncovered cell first."""
    grid = board.grid
    cells = {tuple(c) for c in board.coords().tolist()}
    placements: set[frozenset[Cell]] = set()
    for piece in pieces:
        for g in grid.group(group):
            image = g.apply(piece.coords())
            anchor = min(tuple(c) for c in image.tolist())
            for target in sorted(cells):
                step = np.array(target) - np.array(anchor)
                if not grid.translations_ok(step[None, :])[0]:
                    continue
                moved = frozenset(tuple(c) for c in (image + step).tolist())
                if moved <= cells:
                    placements.add(moved)
    by_cell: dict[Cell, list[frozenset[Cell]]] = {cell: [] for cell in cells}
    for placement in placements:
        by_cell[min(placement)].append(placement)

    def count(free: frozenset[Cell]) -> int:
        if not free:
            return 1
        first = min(free)
        return sum(count(free - p) for p in by_cell[first] if p <= free)

    return count(frozenset(cells))


def api_count(board: Shape, pieces: Sequence[Shape], group: str) -> int:
    return Tiling(board, [Tile(p, multiplicity="any", symmetry=group) for p in pieces]).count()


#: Small programs, one per grid: the board, the piece and the group it moves by, as the
#: language writes them and as the API builds them.
CASES = {
    "prism": (
        "pattern3 b = prism [triangle{****$****}, triangle{****$****}]\n"
        "pattern3 d = prism [triangle{**}]\n"
        "pattern3 s = prism [triangle{*}, triangle{*}]\n"
        "problem3 p = b [d ~rot, s ~rot]\ncount3 dlx p\n",
        PrismPattern,
    ),
    "sphere": (
        "pattern3 b = sphere [{*.*.$.*.*$*.*.}, {*.*.$.*.*}]\n"
        "pattern3 two = sphere [{.*$*.}]\n"
        "problem3 p = b [two ~rot]\ncount3 dlx p\n",
        SpherePattern,
    ),
    "rhombic": (
        "pattern3 b = rhombic [{*.*$.*.}, {.*.$*.*}]\n"
        "pattern3 two = rhombic [{.*$*.}]\n"
        "problem3 p = b [two ~rot]\ncount3 dlx p\n",
        RhombicPattern,
    ),
    "tetraocta": (
        # 2 x 2 cubes of 3 voxels a side, each a regular tetrahedron and four corners, by
        # pairs of corners and pairs of a regular tetrahedron and a corner
        "pattern3 b = tetraocta [\n{..**..$......$*....*$*....*$......$..**..},\n"
        "{......$.*..*.$......$......$.*..*.$......},\n"
        "{*....*$......$..**..$..**..$......$*....*}]\n"
        "pattern3 corners = tetraocta [{..**}]\n"
        "pattern3 mixed = tetraocta [{..*}, {.*.$...}]\n"
        "problem3 p = b [corners ~sym, mixed ~sym]\ncount3 dlx p\n",
        TetraOctaPattern,
    ),
}


@pytest.mark.parametrize("grid", list(CASES))
def test_a_program_counts_as_the_api_and_brute_force(grid: str) -> None:
    text, kind = CASES[grid]
    out, interpreter = run(text)
    problem = interpreter.problems3["p"]
    board = problem.board
    assert isinstance(board, kind)
    pieces = [tile.shape for tile in problem.tiles]
    groups = {tile.symmetry for tile in problem.tiles}
    number = int(out.split(") ")[1].split()[0])
    assert number > 0
    (group,) = groups
    assert number == api_count(board, pieces, group)
    assert number == brute_force_count(board, pieces, group)


def test_the_layers_stand_for_the_documented_cells() -> None:
    _, interpreter = run(
        "pattern3 s = sphere [{*.*}, {.*.}]\n"
        "pattern3 r = rhombic [{.*$*.}]\n"
        "pattern3 p = prism [triangle{.*}, triangle{*}]\n"
        "pattern3 t = tetraocta [{*..$...$..*}]\n"
    )
    shapes = {
        name: sorted(map(tuple, p.coords().tolist())) for name, p in interpreter.patterns3.items()
    }
    assert shapes["s"] == [(0, 0, 0), (1, 0, 1), (2, 0, 0)]
    assert shapes["r"] == sorted(rhombic_dodecahedron((0, 0, 0)) + rhombic_dodecahedron((1, 1, 0)))
    prisms = shapes["p"]
    assert len(prisms) == 2 and {c[3] for c in prisms} == {0, 1}
    assert all(sum(c[:3]) in (1, 2) for c in prisms)
    assert shapes["t"] == [(0, 2, 0), (2, 0, 0)]
    assert all(GRIDS["tetraocta"].is_cell(c) for c in shapes["t"])


@pytest.mark.parametrize(
    "shapes",
    [polyprisms(4, "rotations"), polyspheres(4, "rotations"), polyrhombic_dodecahedra(3)],
    ids=["prisms", "spheres", "rhombic"],
)
def test_layers_drawn_read_back_as_the_same_shape(shapes: list[Shape]) -> None:
    for shape in shapes:
        grid = shape.grid
        again = solid_pattern(grid.name, solid_layers(shape))
        assert np.array_equal(grid.normalize(again.coords()), grid.normalize(shape.coords()))
        art = "triangle" if grid.name == "prism" else ""
        layers = ", ".join(art + "{" + "$".join(rows) + "}" for rows in layer_drawings(shape))
        _, interpreter = run(f"pattern3 x = {grid.name} [{layers}]\n")
        read = interpreter.patterns3["x"].coords()
        assert np.array_equal(grid.normalize(read), grid.normalize(shape.coords()))


def test_print_draws_the_layers_side_by_side() -> None:
    out, _ = run("pattern3 b = sphere [{*.*$.*.}, {.*.$*.*}]\nproblem3 p = b [b ~one]\nprint p\n")
    assert out.startswith('problem "p"\n*.* .*.\n.*. *.*\ntile "b" ~one\n')


def test_a_rhombic_pattern_of_partial_dodecahedra_has_no_layers() -> None:
    partial = RhombicPattern(rhombic_dodecahedron((0, 0, 0))[:-1])
    with pytest.raises(Exception, match="whole rhombic dodecahedra"):
        draw(partial)


def test_the_catalog_sets_count_as_the_api() -> None:
    out, interpreter = run(
        'include "excover:trispheres"\n'
        "pattern3 b = sphere [{*.*.*$.*.*.$*.*.*}]\n"
        "problem3 p = b [trisphere2 ~rot, trisphere1 ~rot]\ncount3 dlx p\n"
    )
    pieces = piece_set("trispheres")
    assert pieces is not None and pieces.three_d and len(pieces.pieces) == 5
    problem = interpreter.problems3["p"]
    expected = api_count(problem.board, [t.shape for t in problem.tiles], "rotations")
    assert out == f"p : (DLX) {expected} solutions\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "pattern3 b = sphere [{*.*}, {*}]",
            "1:29: the sphere at x=0, y=0 of layer 2 is off the packing of the cells before "
            "it: x + y + z must be all even or all odd",
        ),
        (
            "pattern3 b = rhombic [{**}]",
            "1:23: the rhombic dodecahedron at x=1, y=0 of layer 1 is off the packing",
        ),
        ("pattern3 b = tetraocta [{*}]", "1:25: voxel x=0, y=0 of layer 1 is not a cell"),
        (
            "pattern3 b = prism [{*}]",
            "1:21: a layer of a prism pattern must be a triangle pattern, not a square pattern",
        ),
        (
            "pattern3 b = [triangle{*}]",
            "1:15: a layer of a 3D pattern must be square, not a triangle pattern (prism [...] "
            "takes triangle layers)",
        ),
        ("pattern3 b = hexagon [{*}]", "1:14: unknown grid 'hexagon' for a 3D pattern"),
        (
            "pattern3 b = sphere [{*}]\npattern3 c = prism [triangle{*}]\nproblem3 p = b [c]",
            "3:17: tile 'c' is a prism pattern but the board of 'p' is a sphere pattern",
        ),
        (
            "pattern3 b = sphere [{*.*}]\npattern3 one = sphere [{*}]\n"
            "problem3 p = b [one ~rot180]",
            "3:17: tile 'one': unknown symmetry 'rot180' on the sphere grid",
        ),
    ],
)
def test_errors_are_located_at_the_users_line(text: str, message: str) -> None:
    with pytest.raises(LangError) as caught:
        run(text + "\n")
    assert str(caught.value).startswith("t.cmb:" + message)


def test_solve3_svg_writes_the_exploded_picture(tmp_path: Path) -> None:
    program = tmp_path / "s.cmb"
    program.write_text(
        "pattern3 b = sphere [{*.*$.*.}, {.*.$*.*}]\npattern3 two = sphere [{.*$*.}]\n"
        'problem3 p = b [two ~rot]\nsolve3 dlx p svg "p.svg"\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "excover", "run", "--quiet", str(program)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'SVG written in file "p.svg"\n'
    _, interpreter = run(program.read_text().replace('svg "p.svg"', "ascii"))
    tiling = interpreter.problems3["p"].tiling
    assert tiling is not None
    first = tiling.first()
    assert first is not None
    assert (tmp_path / "p.svg").read_text() == first.exploded_svg()
