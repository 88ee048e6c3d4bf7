"""BurrTools .xmpuzzle files: reading (gzip or plain), refusing other grids with a located
message, writing back (a round trip keeps every count), the exact cover of a problem, and
its count up to symmetry against the count BurrTools' solver found and against a
brute-force classification of every assembly.

The files of tests/data/burrtools/ were made for these tests; each problem stores the
count of BurrTools' command-line solver burrTxt (see that folder's README.md)."""

from __future__ import annotations

import dataclasses
import gzip
import pickle
import subprocess
import sys
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, ExcoverError, FormatError, UsageError
from excover.burr.xmpuzzle import (
    BurrProblem,
    BurrPuzzle,
    BurrShape,
    Part,
    design,
    files,
    format_xmpuzzle,
    parse_xmpuzzle,
    read_xmpuzzle,
    write_xmpuzzle,
)
from excover.burr.xmpuzzle._cover import matching, row_table
from excover.burr.xmpuzzle.cover import item_voxels, result_symmetries
from excover.tiling import Pattern, Pattern3, pentominoes, soma_pieces

DATA = Path(__file__).parent / "data" / "burrtools"
EXAMPLES = Path(__file__).parents[1] / "examples"
BOX = DATA / "rotations.xmpuzzle"
MIRROR = DATA / "two_problems.xmpuzzle"
VARIABLE = DATA / "variable.xmpuzzle"
COLOURS = DATA / "colours.xmpuzzle"
PRISMS = DATA / "prisms.xmpuzzle"
FILES = [BOX, MIRROR, VARIABLE, COLOURS, PRISMS]

Cells = frozenset[tuple[int, int, int]]


def to_exact_cover(puzzle: BurrPuzzle, number: int = 0) -> ExactCover:
    return ExactCover.from_burrtools(puzzle, number)


def voxel(name: str) -> tuple[int, int, int]:
    x, y, z = (int(v) for v in name.split(","))
    return x, y, z


def cells_of(cover: ExactCover, option: int) -> tuple[str, Cells]:
    """The kind and the result voxels of an option."""
    names = cover.option_items(option)
    voxels = frozenset(voxel(n) for n in names if "," in n)
    kind = next(n for n in names if n.startswith("shape"))
    return kind, voxels


def brute_force_classes(cover: ExactCover, result: BurrShape, mirrors: bool) -> int:
    """The number of classes of assemblies under the result's symmetries, found by
    listing every assembly and moving it by every symmetry, geometrically: a mirrored
    piece becomes whichever kind has a placement on the mirrored voxels."""
    voxels = [v for v, _, _ in result.voxels()]
    low = [min(v[a] for v in voxels) for a in range(3)]
    kinds_on: dict[Cells, set[str]] = {}
    for option in range(cover.n_options):
        kind, cells = cells_of(cover, option)
        kinds_on.setdefault(cells, set()).add(kind)
    seen: set[frozenset[tuple[str, Cells]]] = set()
    classes = 0
    for solution in cover.solutions(method="search"):
        assembly = frozenset(cells_of(cover, option) for option in solution)
        if assembly in seen:
            continue
        classes += 1
        for g in result_symmetries(result):
            if g.determinant < 0 and not mirrors:
                continue
            images = [g(v) for v in voxels]
            shift = [low[a] - min(w[a] for w in images) for a in range(3)]
            image = set()
            for kind, cells in assembly:
                moved = frozenset(
                    voxel(",".join(str(c + s) for c, s in zip(g(cell), shift, strict=True)))
                    for cell in cells
                )
                if g.determinant > 0:
                    image.add((kind, moved))
                else:
                    (partner,) = kinds_on[moved]
                    image.add((partner, moved))
            seen.add(frozenset(image))
    return classes


# ----- reading


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_gzip_and_plain_xml_read_alike(path: Path, tmp_path: Path) -> None:
    plain = tmp_path / path.name
    plain.write_bytes(gzip.decompress(path.read_bytes()))
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    assert read_xmpuzzle(plain) == read_xmpuzzle(path)


def test_the_model_holds_shapes_counts_and_the_stored_count() -> None:
    puzzle = read_xmpuzzle(BOX)
    (problem,) = puzzle.problems
    assert problem.assemblies == 15 and problem.state == 2
    assert [(p.shape, p.lo, p.hi, p.groups) for p in problem.parts] == [
        (1, 1, 1, ((1, 1),)), (2, 2, 2, ((1, 2),)), (3, 1, 1, ()),
    ]  # fmt: skip
    variable = read_xmpuzzle(VARIABLE)
    ranged = variable.problems[0].parts[1]
    assert (ranged.lo, ranged.hi) == (0, 4)
    result = variable.shapes[variable.problems[0].result]
    assert len(result.cells("+")) == 4 and len(result.cells("#")) == 6


def test_colours_are_read_per_voxel() -> None:
    """BurrTools' colour syntax: a voxel's state followed by its colour number (``#1``)."""
    puzzle = read_xmpuzzle(COLOURS)
    assert len(puzzle.colors) == 3
    (problem,) = puzzle.problems
    assert problem.color_pairs == {(0, 0), (1, 1), (2, 0), (2, 1)}
    chequer = puzzle.shapes[problem.result]
    assert all(c == 1 + sum(v) % 2 for v, _, c in chequer.voxels())
    domino = puzzle.shapes[2]
    assert domino.text() == "#1#" and domino.colors == (1, 0)


def test_the_prism_grid_gives_burrtools_stored_count() -> None:
    puzzle = read_xmpuzzle(PRISMS)
    assert puzzle.grid == 1 and puzzle.problems[0].assemblies == 2  # burrTxt solves it
    assert to_exact_cover(puzzle).count(up_to_symmetry=True) == 2


def test_an_unknown_grid_is_refused_by_number() -> None:
    puzzle = dataclasses.replace(read_xmpuzzle(PRISMS), grid=7)
    with pytest.raises(FormatError, match="unknown grid type 7"):
        to_exact_cover(puzzle)


#: A problem of two unit cubes with one solution stored: the second cube slides out along +y.
_SOLVED = (
    '<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#</voxel>'
    '<voxel x="2" y="1" z="1" type="0">##</voxel></shapes><problems>'
    '<problem state="2" assemblies="1" solutions="1" time="0"><shapes>'
    '<shape id="0" count="2"/></shapes><result id="1"/><bitmap/><solutions>'
    '<solution asmNum="0" solNum="0"><assembly>0 0 0 0 0 0 0 1</assembly>'
    '<separation><pieces count="2">0 1</pieces>'
    "<state><dx>0 1</dx><dy>0 0</dy><dz>0 0</dz></state>"
    "<state><dx>0 1</dx><dy>0 20000</dy><dz>0 0</dz></state>"
    "</separation></solution></solutions></problem></problems></puzzle>"
)


def test_stored_solutions_are_read_and_written_back() -> None:
    puzzle = parse_xmpuzzle(_SOLVED.encode(), "solved.xmpuzzle")
    (solution,) = puzzle.problems[0].stored
    assert solution.placements == ((0, 0, 0, 0), (0, 0, 0, 1))
    assert (solution.assembly_number, solution.solution_number) == (0, 0)
    assert solution.separation is not None
    assert solution.separation.states == (((0, 0, 0), (1, 0, 0)), ((0, 0, 0), (1, 20000, 0)))
    assert solution.separation.left is None and solution.separation.removed is None
    text = format_xmpuzzle(puzzle)
    assert '<separation>\n      <pieces count="2">0 1</pieces>' in text
    assert "<dy>0 20000</dy>" in text
    assert parse_xmpuzzle(text.encode()).problems == puzzle.problems


def test_colour_numbers_of_one_to_three_digits_are_read() -> None:
    """Colour numbers of up to three digits, leading zeros included, after any state."""
    text = (
        '<puzzle version="2"><shapes><voxel x="5" y="1" z="1" type="0">'
        "#007+12_#\n#63</voxel></shapes></puzzle>"
    )
    (shape,) = parse_xmpuzzle(text.encode()).shapes
    assert shape.states == "#+_##"
    assert shape.colors == (7, 12, 0, 0, 63)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('<puzzle version="2">\n<shapes>\n<voxel x="2" y="1" z="1" type="0">#?</voxel>', 3,
         "not well-formed"),
        ('<puzzle version="2">\n<shapes>\n<voxel x="2" y="1" z="1" type="0">#?</voxel>'
         "</shapes></puzzle>", 3, "unknown character '?'"),
        ('<puzzle version="2"><shapes>\n<voxel x="2" y="2" z="1" type="0">##</voxel>'
         "</shapes></puzzle>", 2, "2 voxels for a 2x2x1 space"),
        ('<puzzle version="2"><shapes/><problems>\n<problem><shapes>\n<shape id="4"/>'
         "</shapes></problem></problems></puzzle>", 3, "piece shape 4 does not exist"),
        ('<puzzle version="7"/>', 1, "version 7"),
        ('<puzzle version="2"><shapes>\n<voxel x="a" y="1" z="1" type="0">#</voxel>'
         "</shapes></puzzle>", 2, "x='a' is not a number"),
        (_SOLVED.replace("<assembly>0 0 0 0 0 0 0 1</assembly>",
                         "\n<assembly>0 0 0 0 1</assembly>"), 2,
         "placement 1 is not"),
        ('<puzzle version="2"><shapes>\n<voxel x="4" y="1" z="1" type="0">#1#2?_</voxel>'
         "</shapes></puzzle>", 2, "voxel 2: unknown character '\\?'"),
        ('<puzzle version="2"><shapes>\n<voxel x="2" y="1" z="1" type="0">1#_</voxel>'
         "</shapes></puzzle>", 2, "voxel 0: unknown character '1'"),
        ('<puzzle version="2"><shapes>\n<voxel x="3" y="1" z="1" type="0">#1#64?</voxel>'
         "</shapes></puzzle>", 2, "voxel 1: colour 64 is over 63"),
        ('<puzzle version="2"><shapes>\n<voxel x="3" y="1" z="1" type="0">#1_#0063</voxel>'
         "</shapes></puzzle>", 2, "voxel 2: colour 0063 is over 63"),
    ],
)  # fmt: skip
def test_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(FormatError, match=words) as caught:
        parse_xmpuzzle(text.encode(), "bad.xmpuzzle")
    assert caught.value.line == line
    assert "bad.xmpuzzle" in str(caught.value)


def test_a_stored_separation_is_read_when_asked_for() -> None:
    """A stored separation tree is read, and its errors found (located), the first time
    a solution's ``separation`` is asked for; the rest of the file reads without it."""
    text = _SOLVED.replace("<dz>0 0</dz>", "\n<dz>0 0 0</dz>", 1)
    (solution,) = parse_xmpuzzle(text.encode(), "bad.xmpuzzle").problems[0].stored
    assert solution.placements == ((0, 0, 0, 0), (0, 0, 0, 1))
    with pytest.raises(FormatError, match="holds 3 numbers, not 2") as caught:
        solution.separation  # noqa: B018 - the access reads it
    assert caught.value.line == 2
    assert "bad.xmpuzzle" in str(caught.value)
    (good,) = parse_xmpuzzle(_SOLVED.encode()).problems[0].stored
    copy = pickle.loads(pickle.dumps(good))  # not read yet: it travels unread
    tree = good.separation
    assert tree is not None and good.separation is tree  # read once, then kept
    assert tree.pieces == (0, 1) and len(tree.states) == 2
    assert copy == good == dataclasses.replace(good, separation=tree)


def test_a_gzip_bomb_and_broken_gzip_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = BOX.read_bytes()
    for broken in (b"\x1f\x8b\x08\x00garbage", data[: len(data) // 2]):
        with pytest.raises(FormatError, match="broken gzip"):
            parse_xmpuzzle(broken)
    monkeypatch.setattr(files, "MAX_XML_BYTES", 100)
    with pytest.raises(FormatError, match="expands to more than"):
        parse_xmpuzzle(data)


# ----- counting


def test_box_gives_burrtools_stored_count() -> None:
    puzzle = read_xmpuzzle(BOX)
    cover = to_exact_cover(puzzle)
    stored = puzzle.problems[0].assemblies
    assert cover.count(up_to_symmetry=True) == stored == 15  # burrTxt's count
    group = cover.symmetries()
    # the box's 8 rotations, not its 16 isometries: the screw has no mirror partner
    assert len(result_symmetries(puzzle.shapes[0])) == 16 and group.order == 8
    assert brute_force_classes(cover, puzzle.shapes[0], mirrors=False) == stored
    assert cover.count() == 8 * stored  # no assembly of the box is symmetric


def test_variable_voxels_and_piece_ranges() -> None:
    puzzle = read_xmpuzzle(VARIABLE)
    cover = to_exact_cover(puzzle)
    assert len(cover.secondary_items) == 4  # the variable voxels
    assert cover.multiplicity("shape1_unit") == (0, 4)
    every = cover.count(method="search")
    assert every == cover.count(method="zdd") == cover.count(method="sat")
    # the result's one symmetry is a mirror, and both pieces are mirror-symmetric
    (mirror,) = [g for g in result_symmetries(puzzle.shapes[2]) if not g.is_identity()]
    assert mirror.determinant < 0 and cover.symmetries().order == 2
    classes = cover.count(up_to_symmetry=True)
    stored = puzzle.problems[0].assemblies
    assert classes == brute_force_classes(cover, puzzle.shapes[2], mirrors=True) == stored
    assert stored == 26  # burrTxt's count
    assert classes < every


@pytest.mark.parametrize("number", [0, 1])
def test_mirror_images_are_identified_as_burrtools_does(number: int) -> None:
    puzzle = read_xmpuzzle(MIRROR)
    cover = to_exact_cover(puzzle, number)
    result = puzzle.shapes[puzzle.problems[number].result]
    symmetries = result_symmetries(result)
    assert any(g.determinant < 0 for g in symmetries)
    assert cover.symmetries().order == len(symmetries)  # mirrors kept: partners exist
    classes = cover.count(up_to_symmetry=True)
    stored = puzzle.problems[number].assemblies
    assert classes == brute_force_classes(cover, result, mirrors=True) == stored
    assert stored == (15, 11)[number]  # burrTxt's counts
    assert cover.count() > classes
    every = cover.count(method="search")
    assert every == cover.count(method="zdd") == cover.count(method="sat")


def test_colour_file_gives_burrtools_stored_count() -> None:
    """The chequered box: every piece is mirror-symmetric, colours included, so the
    result's mirror symmetries that keep its colours count too."""
    puzzle = read_xmpuzzle(COLOURS)
    cover = to_exact_cover(puzzle)
    result = puzzle.shapes[puzzle.problems[0].result]
    symmetries = result_symmetries(result)
    assert any(g.determinant < 0 for g in symmetries)
    assert len(symmetries) < len(result_symmetries(BurrShape(result.size, result.states)))
    assert cover.symmetries().order == len(symmetries)
    every = cover.count(method="search")
    assert every == cover.count(method="zdd") == cover.count(method="sat")
    classes = cover.count(up_to_symmetry=True)
    stored = puzzle.problems[0].assemblies
    assert classes == brute_force_classes(cover, result, mirrors=True) == stored
    assert stored == 3  # burrTxt's count
    colours = range(len(puzzle.colors))
    anywhere = frozenset(product(colours, colours))
    free = dataclasses.replace(puzzle.problems[0], color_pairs=anywhere)
    unconstrained = to_exact_cover(dataclasses.replace(puzzle, problems=(free,)))
    assert unconstrained.count() > every  # the constraints rule placements out


@pytest.mark.parametrize("width", [0, 1, 3, 40])
def test_option_images_are_found_by_their_items(width: int) -> None:
    """The compiled lookup of an option's image (its items moved by an item
    permutation) gives the option holding those items, whatever their order, or -1 when
    no option holds them: against a dictionary of item sets."""
    rng = np.random.default_rng(width)
    n_items = 60
    sets = {frozenset(rng.choice(n_items, width, replace=False).tolist()) for _ in range(300)}
    rows = np.array([rng.permutation(sorted(s)) for s in sets], dtype=np.int64)
    rows = rows.reshape(len(sets), width)
    table = row_table(rows)
    assert len(table) >= 2 * len(rows) and sorted(table[table >= 0]) == list(range(len(rows)))
    where = {frozenset(row.tolist()): k for k, row in enumerate(rows)}
    for items in (np.arange(n_items), rng.permutation(n_items)):
        expected = [where.get(frozenset(items[row].tolist()), -1) for row in rows]
        assert matching(rows, items, table).tolist() == expected
    assert (matching(rows, np.arange(n_items), table) == np.arange(len(rows))).all()


def test_identical_pieces_are_counted_once() -> None:
    """Two unit cubes filling a 1x2x1 box: one assembly, not two (one per order)."""
    unit = BurrShape.from_voxels({(0, 0, 0)})
    box = BurrShape.from_voxels({(0, 0, 0), (1, 0, 0)})
    puzzle = BurrPuzzle((unit, box), (BurrProblem((Part(0, 2, 2),), result=1),))
    cover = to_exact_cover(puzzle)
    assert cover.count() == 1
    assert cover.count(up_to_symmetry=True) == 1


def test_colour_constraints_restrict_placements() -> None:
    """A red-blue domino in a red-blue box: one way when red must go on red and blue
    on blue, two when nothing is constrained; a colourless voxel takes any colour."""
    domino = BurrShape((2, 1, 1), "##", (1, 2))
    box = BurrShape((2, 1, 1), "##", (1, 2))
    colors = ((255, 0, 0), (0, 0, 255))
    constrained = BurrProblem((Part(0),), 1, color_pairs=frozenset({(0, 0), (1, 1)}))
    assert to_exact_cover(BurrPuzzle((domino, box), (constrained,), colors=colors)).count() == 1
    half = BurrShape((2, 1, 1), "##", (1, 0))  # blue may not go on red, red on nothing may
    assert to_exact_cover(BurrPuzzle((domino, half), (constrained,), colors=colors)).count() == 1
    plain = BurrShape((2, 1, 1), "##")
    assert to_exact_cover(BurrPuzzle((domino, plain), (constrained,), colors=colors)).count() == 2
    blank = BurrPuzzle(
        (BurrShape((2, 1, 1), "##"), BurrShape((2, 1, 1), "##")), (BurrProblem((Part(0),), 1),)
    )
    assert to_exact_cover(blank).count() == 1  # a plain domino's two turns are one


def test_max_holes_bounds_the_empty_variable_voxels() -> None:
    """Unit cubes (0 to 3 of them) in a row of three variable voxels: 8 ways to choose
    the filled voxels; at most one hole leaves 4."""
    unit = BurrShape.from_voxels({(0, 0, 0)})
    row = BurrShape.from_voxels(set(), {(0, 0, 0), (1, 0, 0), (2, 0, 0)})
    free = BurrProblem((Part(0, 0, 3),), 1)
    assert to_exact_cover(BurrPuzzle((unit, row), (free,))).count() == 8
    bounded = BurrProblem((Part(0, 0, 3),), 1, max_holes=1)
    assert to_exact_cover(BurrPuzzle((unit, row), (bounded,))).count() == 4


@pytest.mark.parametrize("holes", [None, 1])
def test_item_voxels_are_the_voxels_the_items_name(holes: int | None) -> None:
    """item_voxels, which the disassembler reads assemblies back with, gives each item
    of the exact cover problem the voxel its name says (None for the kinds and the
    holes' counter), filled, variable and (with maxHoles) primary variable voxels."""
    unit = BurrShape.from_voxels({(0, 0, 0)})
    bar = BurrShape.from_voxels({(0, 0, 0), (1, 0, 0)})
    result = BurrShape.from_voxels({(0, 0, 0), (0, 1, 0), (1, 1, 0)}, {(2, 0, 0), (2, 1, 1)})
    problem = BurrProblem((Part(0, 0, 3), Part(1, 0, 1)), 2, max_holes=holes)
    puzzle = BurrPuzzle((unit, bar, result), (problem,))
    items = to_exact_cover(puzzle).items
    expected = [voxel(name) if name.count(",") == 2 else None for name in items]
    assert item_voxels(puzzle, 0) == expected
    assert expected.count(None) == (3 if holes else 2)


def test_a_square_grid_puzzle_is_one_layer_of_cubes() -> None:
    """The 12 pentominoes in a 3x20 box: flat pieces turn over by rotations of the cube,
    so the count is the square grid's with reflections: 8 tilings, 2 up to symmetry
    (the counts of combine's pentomino_rectangles example)."""
    puzzle = design(Pattern.constant(20, 3, True), pentominoes())
    assert {shape.size[2] for shape in puzzle.shapes} == {1}
    cover = to_exact_cover(puzzle)
    assert cover.count() == 8
    classes = brute_force_classes(cover, puzzle.shapes[-1], mirrors=True)
    assert cover.count(up_to_symmetry=True) == 2 == classes


def test_soma_cube_designed_here() -> None:
    """The Soma cube: 11,520 assemblies; the two chiral pieces are each other's mirror
    image, so BurrTools also identifies mirror images: 240 = 11,520 / 48."""
    puzzle = design(Pattern3.constant(3, 3, 3, True), soma_pieces())
    cover = to_exact_cover(puzzle)
    assert cover.count() == 11520
    assert cover.symmetries().order == 48
    assert cover.count(up_to_symmetry=True) == 240
    shipped = read_xmpuzzle(EXAMPLES / "soma.xmpuzzle")
    assert [s.states for s in shipped.shapes] == [s.states for s in puzzle.shapes]


def test_design_takes_counts_ranges_and_variable_cells() -> None:
    unit = Pattern3.constant(1, 1, 1, True)
    bar = Pattern.constant(3, 1, True)
    puzzle = design(bar, {"u": (unit, 0, 3)}, variable=Pattern.constant(1, 1, True))
    (problem,) = puzzle.problems
    assert problem.parts == (Part(0, 0, 3),)
    result = puzzle.shapes[problem.result]
    assert result.cells("+") == [(0, 0, 0)] and len(result.cells("#")) == 2
    assert to_exact_cover(puzzle).count() == 2  # the variable voxel filled or empty
    with pytest.raises(UsageError, match="counts"):
        design(bar, {"u": (unit, 3, 1)})


def test_declared_symmetries_are_the_group() -> None:
    cover = to_exact_cover(read_xmpuzzle(BOX))
    declared = cover.declared_symmetries()
    assert declared is not None and cover.symmetries().generators
    cover.declare_symmetries(None)
    assert cover.declared_symmetries() is None


def test_problem_numbers() -> None:
    puzzle = read_xmpuzzle(MIRROR)
    with pytest.raises(UsageError, match="numbered 0 to 1"):
        to_exact_cover(puzzle, 2)


# ----- writing


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_round_trip_keeps_the_model_and_every_count(path: Path, tmp_path: Path) -> None:
    puzzle = read_xmpuzzle(path)
    again = parse_xmpuzzle(format_xmpuzzle(puzzle).encode())
    assert again == puzzle
    written = tmp_path / "again.xmpuzzle"
    write_xmpuzzle(again, written)
    assert written.read_bytes()[:2] == b"\x1f\x8b"
    third = read_xmpuzzle(written)
    assert third == puzzle
    if puzzle.grid != 0:
        return
    for number in range(len(puzzle.problems)):
        first, last = to_exact_cover(puzzle, number), to_exact_cover(third, number)
        assert first.count() == last.count()
        assert first.count(up_to_symmetry=True) == last.count(up_to_symmetry=True)


def test_a_design_made_here_is_written_as_burrtools_lays_it_out(tmp_path: Path) -> None:
    """An L tromino and a domino into a 2x2x... box built in excover, written, read back."""
    tromino = BurrShape.from_voxels({(0, 0, 0), (1, 0, 0), (0, 1, 0)}, name="L")
    domino = BurrShape.from_voxels({(0, 0, 0), (1, 0, 0)}, name="I")
    box = BurrShape.from_voxels({(x, y, 0) for x in range(2) for y in range(2)}, {(2, 0, 0)})
    puzzle = BurrPuzzle((tromino, domino, box), (BurrProblem((Part(0), Part(1)), result=2),))
    text = format_xmpuzzle(puzzle)
    assert '<voxel x="2" y="2" z="1" name="L" type="0">###_</voxel>' in text
    assert '<shape id="0" count="1"/>' in text and '<result id="2"/>' in text
    path = tmp_path / "design.xmpuzzle"
    write_xmpuzzle(puzzle, path)
    assert read_xmpuzzle(path) == puzzle
    assert to_exact_cover(read_xmpuzzle(path)).count() == to_exact_cover(puzzle).count()


# ----- command line


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "excover", *args], capture_output=True, text=True, check=False
    )


def test_cli_counts_up_to_symmetry_as_burrtools() -> None:
    done = run("count", str(BOX), "--up-to-symmetry")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "15"
    assert "stored in the file: 15" in done.stderr


def test_cli_says_what_it_counts_beside_burrtools_count(tmp_path: Path) -> None:
    """The 12 pentominoes in a 3x20 box, solved as BurrTools stores it (2 classes): the
    plain count (8) comes with a note saying what each counts and how to get BurrTools'
    figure; with --up-to-symmetry the two agree and the note says so."""
    puzzle = design(Pattern.constant(20, 3, True), pentominoes())
    (problem,) = puzzle.problems
    stored = dataclasses.replace(problem, state=2, assemblies=2, solutions=2, time=0)
    path = tmp_path / "box.xmpuzzle"
    write_xmpuzzle(dataclasses.replace(puzzle, problems=(stored,)), path)
    plain = run("count", str(path))
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.strip() == "8"
    assert "stored in the file: 2" in plain.stderr
    assert "excover counts every assembly, symmetric ones separately" in plain.stderr
    assert "--up-to-symmetry counts as BurrTools does" in plain.stderr
    classes = run("count", str(path), "--up-to-symmetry")
    assert classes.returncode == 0, classes.stderr
    assert classes.stdout.strip() == "2"
    assert "both count classes" in classes.stderr
    assert "--up-to-symmetry counts as" not in classes.stderr


def test_cli_picks_problems_and_says_which() -> None:
    first = run("count", str(MIRROR))
    assert first.returncode == 0
    assert "problem 0 ('screws') of 2" in first.stderr
    second = run("count", str(MIRROR), "--problem", "1")
    assert int(second.stdout) == to_exact_cover(read_xmpuzzle(MIRROR), 1).count()
    missing = run("count", str(MIRROR), "--problem", "2")
    assert missing.returncode == 2 and "numbered 0 to 1" in missing.stderr
    prisms = run("count", str(PRISMS), "--up-to-symmetry")
    assert prisms.returncode == 0 and prisms.stdout.strip() == "2"
    assert "stored in the file: 2" in prisms.stderr


def test_cli_problem_flag_needs_a_burrtools_file(tmp_path: Path) -> None:
    dlx = tmp_path / "p.dlx"
    dlx.write_text("a\na\n")
    done = run("count", str(dlx), "--problem", "0")
    assert done.returncode == 2 and ".xmpuzzle" in done.stderr


def test_errors_are_excover_errors() -> None:
    with pytest.raises(ExcoverError):
        parse_xmpuzzle(b"")


def test_elements_left_unread_are_read_later_with_their_lines() -> None:
    """``parse(..., unread=...)`` keeps such elements without their content (the text
    around them kept), and ``Element.read`` reads each later, lines as in the document,
    nested and empty ones included."""
    from excover.formats.xmltree import parse

    text = b'<r>one<b k="1">\n<c>2</c>\n<b><c>3</c></b>\n</b>two<b/><d>\n4</d></r>'
    root = parse(text, "t.xml", unread=frozenset({"b"}))
    first, empty, after = root.children
    assert root.text == "onetwo" and after.text == "\n4" and after.line == 4
    assert first.children == [] and first.unread is not None and empty.unread is not None
    read = first.read("t.xml")
    assert [(c.tag, c.line, c.text) for c in read.children] == [("c", 2, "2"), ("b", 3, "")]
    assert read.attributes == {"k": "1"} and read.children[1].children[0].text == "3"
    assert empty.read("t.xml").tag == "b" and not empty.read("t.xml").children
    assert parse(text, "t.xml").children[0].children[0].line == 2  # all read at once
    assert after.read("t.xml") is after
    # expat still checks what it leaves unread, its handlers off inside it
    with pytest.raises(FormatError, match="mismatched tag") as caught:
        parse(b"<r><b>\n<c></b></c></b></r>", "t.xml", unread=frozenset({"b"}))
    assert caught.value.line == 2


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_group_grown_one_generator_at_a_time_is_the_group_of_them_all(
    data: st.DataObject,
) -> None:
    """``group_elements`` given the group of all generators but the last (as the
    symmetries of a result are chosen, one generator at a time) finds the same
    elements as from the identity, and the closure of the generators under products
    (checked by multiplying every pair)."""
    from excover.burr.xmpuzzle.cover import group_elements

    size = data.draw(st.integers(1, 6))
    generators = [
        (np.array(data.draw(st.permutations(list(range(size)))), dtype=np.int64),)
        for _ in range(data.draw(st.integers(1, 4)))
    ]
    grown = None
    for k in range(1, len(generators) + 1):
        grown = group_elements(generators[:k], (size,), grown)
    whole = group_elements(generators, (size,))
    assert grown is not None and grown.keys() == whole.keys()
    for a, b in product(whole.values(), repeat=2):
        assert a[0][b[0]].tobytes() in whole
