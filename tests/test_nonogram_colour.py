"""Colour nonograms: the model, the three routes against brute force, files, drawings, CLI.

The brute force and the checker here are written apart from the library: a picture is
checked by splitting each line into runs of one character (a run of ``.`` is white) and
comparing the coloured runs with the clue; the solutions of a small grid are every
product of rows that satisfy their clues, kept when the columns do too.
"""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import FormatError, ProblemError, nonogram
from excover.main import main
from excover.nonogram import _core as _nonogram
from excover.nonogram import formats as nonogram_formats
from excover.nonogram.xcc import colour_placements

DATA = Path(__file__).parent / "data" / "nonogram"
EXAMPLES = Path(__file__).parent.parent / "examples" / "nonograms"

Blocks = list[tuple[int, str]]


# ----- an independent checker and brute force -----


def runs(cells: Sequence[str]) -> Blocks:
    """The coloured runs of a line: (length, char) for each maximal run but white's."""
    out: Blocks = []
    for char, group in itertools.groupby(cells):
        if char != ".":
            out.append((len(list(group)), char))
    return out


def satisfies(picture: Sequence[str], rows: list[Blocks], cols: list[Blocks]) -> bool:
    if len(picture) != len(rows) or any(len(row) != len(cols) for row in picture):
        return False
    if any(runs(row) != clue for row, clue in zip(picture, rows, strict=True)):
        return False
    return all(runs([row[c] for row in picture]) == clue for c, clue in enumerate(cols))


def brute_force(rows: list[Blocks], cols: list[Blocks], chars: str) -> set[tuple[str, ...]]:
    width = len(cols)
    fitting = [
        [
            "".join(cells)
            for cells in itertools.product("." + chars, repeat=width)
            if runs(cells) == clue
        ]
        for clue in rows
    ]
    return {
        tuple(picture)
        for picture in itertools.product(*fitting)
        if all(runs([row[c] for row in picture]) == clue for c, clue in enumerate(cols))
    }


def clues_of(picture: Sequence[str]) -> tuple[list[Blocks], list[Blocks]]:
    rows = [runs(row) for row in picture]
    cols = [runs([row[c] for row in picture]) for c in range(len(picture[0]))]
    return rows, cols


PALETTE = {"r": "red", "g": "green", "b": "blue"}


def puzzle_from(rows: list[Blocks], cols: list[Blocks], chars: str) -> nonogram.Puzzle:
    return nonogram.Puzzle.from_clues(
        [[(n, c) for n, c in clue] for clue in rows],
        [[(n, c) for n, c in clue] for clue in cols],
        palette={char: PALETTE[char] for char in chars},
    )


@st.composite
def colour_pictures(draw: st.DrawFn, most: int = 4) -> tuple[list[str], str]:
    chars = "rgb"[: draw(st.integers(1, 3))]
    h, w = draw(st.integers(1, most)), draw(st.integers(1, most))
    cells = draw(st.lists(st.sampled_from("." + chars), min_size=h * w, max_size=h * w))
    return ["".join(cells[r * w : (r + 1) * w]) for r in range(h)], chars


def all_routes(puzzle: nonogram.Puzzle) -> dict[str, set[tuple[str, ...]]]:
    return {
        method: {tuple(p) for p in nonogram.solutions(puzzle, method=method)}
        for method in ("propagate", "xcc", "sat")
    }


@settings(max_examples=examples(150), deadline=None)
@given(colour_pictures())
def test_every_route_finds_the_brute_force_solutions_of_a_picture(
    drawn: tuple[list[str], str],
) -> None:
    picture, chars = drawn
    rows, cols = clues_of(picture)
    expected = brute_force(rows, cols, chars)
    assert tuple(picture) in expected
    puzzle = puzzle_from(rows, cols, chars)
    for method, found in all_routes(puzzle).items():
        assert found == expected, method
        assert all(satisfies(p, rows, cols) for p in found)
    assert nonogram.count(puzzle) == len(expected)
    assert nonogram.classify(puzzle) == ("unique" if len(expected) == 1 else "multiple")


@settings(max_examples=examples(40), deadline=None)
@given(colour_pictures(3), colour_pictures(3))
def test_every_route_agrees_on_clues_of_two_pictures(
    first: tuple[list[str], str], second: tuple[list[str], str]
) -> None:
    """Rows of one picture and columns of another: often no solution at all."""
    rows, _ = clues_of(first[0])
    _, cols = clues_of(second[0])
    chars = "rgb"[: max(len(first[1]), len(second[1]))]
    try:
        puzzle = puzzle_from(rows, cols, chars)
    except ProblemError:  # a clue longer than its line: nothing to solve
        return
    expected = brute_force(rows, cols, chars)
    if puzzle.contradiction is not None:
        assert expected == set()
    for method, found in all_routes(puzzle).items():
        assert found == expected, method


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), max_size=4),
    st.lists(st.integers(1, 15), min_size=1, max_size=9),
)
def test_the_colour_line_solver_keeps_the_union_of_the_placements(
    blocks: list[tuple[int, int]], cells: list[int]
) -> None:
    """Four values (white and three colours); against every placement, filtered."""
    n = len(cells)
    chars = ".abc"
    clue = [nonogram.Block(length, chars[value]) for length, value in blocks]
    union = [0] * n
    fits = False
    for text in colour_placements(clue, n):
        values = [chars.index(ch) for ch in text]
        if all(cells[i] >> values[i] & 1 for i in range(n)):
            fits = True
            for i in range(n):
                union[i] |= 1 << values[i]
    got = _nonogram.colour_line_solve(
        [length for length, _ in blocks], [value for _, value in blocks], 4, cells
    )
    assert got == (union if fits else None)


def test_blocks_of_different_colours_may_touch_and_of_one_colour_may_not() -> None:
    touching = nonogram.Puzzle.from_clues(["1r 1b"], ["1r", "1b"], palette=PALETTE | {"b": "blue"})
    assert nonogram.solve(touching) == ["rb"]
    same = nonogram.Puzzle.from_clues(["1r 1r"], ["1r", "0", "1r"], palette={"r": "red"})
    assert nonogram.solve(same) == ["r.r"]
    with pytest.raises(ProblemError, match="row 1: clue 1r 1r needs 3 cells, the line has 2"):
        nonogram.Puzzle.from_clues(["1r 1r"], ["1r", "1r"], palette={"r": "red"})


def test_the_model_accepts_blocks_in_every_natural_spelling() -> None:
    palette = {"r": "red", "b": (0, 0, 255)}
    by_text = nonogram.Puzzle.from_clues(["2r 1b", "1b"], ["1r", "1r", "2b"], palette=palette)
    by_pairs = nonogram.Puzzle.from_clues(
        [[(2, "r"), nonogram.Block(1, "b")], [("1b")]],
        [[(1, "r")], ["1r"], [(2, "b")]],
        palette=palette,
    )
    bare = nonogram.Puzzle.from_clues([[2, "1b"], ["1b"]], [[1], [1], ["2b"]], palette=palette)
    assert by_text == by_pairs == bare
    assert by_text.row_blocks[0] == (nonogram.Block(2, "r"), nonogram.Block(1, "b"))
    assert by_text.colour("b").hex == "#0000ff"
    assert nonogram.solve(by_text) == ["rrb", "..b"]
    # the black-and-white API is unchanged
    assert nonogram.solve([[1], [3], [1]], [[1], [3], [1]]) == [".#.", "###", ".#."]
    assert not nonogram.Puzzle.from_clues([[1]], [[1]]).is_colour


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: nonogram.Puzzle.from_clues(["2r 1q"], ["1r"], palette={"r": "red"}),
            r"row 1, block 2: colour 'q' is not in the palette \(r\)",
        ),
        (
            lambda: nonogram.Puzzle.from_clues(["1r"], ["1r", "3x"], palette={"r": "red"}),
            "column 2, block 1: '3x'|column 2, block 1: colour 'x'",
        ),
        (
            lambda: nonogram.Puzzle.from_clues(["1r"], ["1r"], palette={"r": "reddish"}),
            "colour 'r': 'reddish' is not a colour name",
        ),
        (
            lambda: nonogram.Puzzle.from_clues(["1."], ["1."], palette={".": "red"}),
            "'.' cannot name a colour",
        ),
        (
            lambda: nonogram.Puzzle.from_clues(["1r 0r"], ["1r"], palette={"r": "red"}),
            "needs at least one cell",
        ),
        (
            lambda: nonogram.Puzzle.from_clues(["1r"], ["1r"], palette={"r": (1, 2, 300)}),
            "not an RGB triple",
        ),
        (
            lambda: nonogram.Puzzle.from_picture(["r?"], palette={"r": "red"}),
            "picture row 1: '\\?' is not '.' or a colour of the palette",
        ),
    ],
)
def test_bad_colour_clues_are_problem_errors_naming_the_culprit(
    build: object, message: str
) -> None:
    with pytest.raises(ProblemError, match=message):
        build()  # type: ignore[operator]


def test_rows_and_columns_asking_for_different_colour_counts_are_a_contradiction() -> None:
    puzzle = nonogram.Puzzle.from_clues(["1r", "1b"], ["1r", "1r"], palette=PALETTE)
    assert puzzle.contradiction == "the row clues ask for 1 red cells, the column clues 2"
    assert nonogram.classify(puzzle) == "none"
    assert puzzle.mismatch(["r.", "r."]) == "row 2 reads 1r, its clue is 1b"


# ----- files -----


@settings(max_examples=examples(40), deadline=None)
@given(colour_pictures(6), st.sampled_from(nonogram_formats.COLOUR_FORMATS))
def test_every_format_reads_back_a_colour_puzzle(drawn: tuple[list[str], str], format: str) -> None:
    picture, chars = drawn
    palette = {char: PALETTE[char] for char in chars}
    puzzle = nonogram.Puzzle.from_picture(picture, title="colours", palette=palette)
    back = nonogram.loads(nonogram.dumps(puzzle, format), format)
    assert back.row_blocks == puzzle.row_blocks and back.col_blocks == puzzle.col_blocks
    assert [(c.char, c.rgb) for c in back.palette or ()] == [
        (c.char, c.rgb) for c in puzzle.palette or ()
    ]
    assert back.title == "colours"
    if format in ("non", "xml"):  # the others have no goal picture
        assert back.goal == tuple(picture)
    if format != "text":
        assert [c.name for c in back.palette or ()] == list(palette.values())


def test_the_text_format_reads_colour_lines() -> None:
    text = "# colour: r red #ff0000\n# colour: x grey #888\n2r 1x\n1x\n\n1r\n1r\n2x\n"
    puzzle = nonogram.loads(text)
    assert [c.char for c in puzzle.palette or ()] == ["r", "x"]
    assert nonogram.solve(puzzle) == ["rrx", "..x"]
    bare = nonogram.loads("# colour: r red #ff0000\n# colour: b blue #00f\n2 1b\n1b\n\n1\n1\n2b\n")
    assert nonogram.solve(bare) == ["rrb", "..b"]  # a bare length takes the first colour


# A colour char the file does not declare is a typo until shown otherwise: the files of
# each format that has colour chars after lengths, with the line of the first culprit.
UNDECLARED = [
    ("text", "1\n3\n1\n\n1\n6x\n1\n", 6, "column 2, block 1 '6x'", "declares none"),
    ("text", "# colour: r red #f00\n2r 1x\n1x\n\n1r\n1r\n2x\n", 2, "row 1, block 2", "r"),
    (
        "non",
        "width 3\nheight 3\nrows\n1\n3\n1\ncolumns\n1\n3x\n1\n",
        9,
        "column 2, block 1 '3x'",
        "declares none",
    ),
    (
        "non",
        "color r #f00\nwidth 1\nheight 2\nrows\n1r\n1b\ncolumns\n1r 1b\n",
        6,
        "row 2, block 1 '1b'",
        "r",
    ),
    ("g", ": rows\n1\n3\n1\n: columns\n1\n3x\n1\n", 7, "column 2, block 1", "declares none"),
    ("g", "#d\n r:r red\n: rows\n1r\n: columns\n1b\n", 6, "column 1, block 1 '1b'", "r"),
]


@pytest.mark.parametrize(("format", "text", "line", "where", "declared"), UNDECLARED)
def test_a_colour_the_file_does_not_declare_is_refused_with_its_line(
    format: str, text: str, line: int, where: str, declared: str
) -> None:
    with pytest.raises(FormatError) as caught:
        nonogram.loads(text, format, "in")
    message = str(caught.value)
    assert message.startswith(f"in:{line}: {where}")
    assert "is not declared" in message and declared in message


def test_the_other_formats_refuse_undeclared_colours_too() -> None:
    """XML names colours in <color> elements and INI in [colors]; the sized formats
    have no colour chars at all: each refuses an unknown colour at its line."""
    xml = (
        '<puzzle><color name="black" char="X">000</color>'
        '<clues type="rows"><line><count>1</count></line></clues>\n'
        '<clues type="columns"><line><count color="red">1</count></line></clues></puzzle>'
    )
    with pytest.raises(FormatError, match=r"^in:2: colour 'red' has no <color> element"):
        nonogram.loads(xml, "xml", "in")
    ini = "[clues]\nrows = 1\ncolumns = 1x\n"
    with pytest.raises(FormatError, match=r"^in:3: colour 'x' is not declared in \[colors\]"):
        nonogram.loads(ini, "ini", "in")
    sized = [("nin", "1 1\n1\n1x\n", 3), ("mk", "1 1\n1\n#\n1x\n", 4), ("tcga", "$1\n1x\n1\n", 2)]
    for format, text, line in sized:
        with pytest.raises(FormatError, match=rf"^in:{line}: bad block length '1x'"):
            nonogram.loads(text, format, "in")


def test_a_colour_on_the_zero_of_an_empty_line_is_refused() -> None:
    with pytest.raises(FormatError, match=r"^in:2: '0x': an empty line is '0' alone"):
        nonogram.loads("1\n0x\n\n1\n0\n", "text", "in")


def test_black_and_white_files_are_not_colour_puzzles() -> None:
    """Plain lengths (``6``, ``0``) make a black-and-white puzzle in every format."""
    for format in ("text", "non", "g", "ini", "nin", "mk"):
        text = nonogram.dumps(nonogram.Puzzle(((1,), (3,), (1,)), ((1,), (3,), (1,))), format)
        puzzle = nonogram.loads(text, format)
        assert puzzle.palette is None
        assert nonogram.solve(puzzle) == [".#.", "###", ".#."]


def test_webpbn_xml_with_colours_reads_like_the_site_writes_it() -> None:
    text = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="black">
<title>Two</title>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<color name="red" char="%">ff0000</color>
<clues type="columns"><line><count>1</count></line><line><count color="red">2</count></line></clues>
<clues type="rows"><line><count>1</count><count color="red">1</count></line>
<line><count color="red">1</count></line></clues>
<solution type="goal"><image>
|X%|
|.%|
</image></solution>
</puzzle></puzzleset>"""
    puzzle = nonogram.loads(text, "xml")
    assert [(c.char, c.name, c.rgb) for c in puzzle.palette or ()] == [
        ("X", "black", (0, 0, 0)),
        ("%", "red", (255, 0, 0)),
    ]
    assert puzzle.goal == ("X%", ".%")
    assert nonogram.solve(puzzle) == ["X%", ".%"]
    with pytest.raises(FormatError, match=r":7: colour 'blue' has no <color> element"):
        nonogram.loads(text.replace('<count color="red">2', '<count color="blue">2'), "xml")


@pytest.mark.parametrize(
    ("text", "format", "message"),
    [
        ("# colour: r red\n1r\n\n1r\n", "text", ":1: a colour line is"),
        ("# colour: r rouge #zz0000\n1r\n\n1r\n", "text", ":1: colour 'r': '#zz0000'"),
        (
            "# colour: r red #f00\n3r\n\n1r\n1r\n1r\n",
            "text",
            r":2: row 1: clue 3r needs 3 cells, the line has 3|",
        ),
        ("# colour: r red #f00\n1r 1r\n\n1r\n1r\n", "text", ":2: row 1: clue 1r 1r needs 3 cells"),
        ("color r\nwidth 1\nheight 1\nrows\n1r\ncolumns\n1r\n", "non", ":1: a colour line is"),
    ],
)
def test_broken_colour_files_fail_with_the_line(text: str, format: str, message: str) -> None:
    if message.endswith("|"):  # fits: no error expected
        nonogram.loads(text, format)
        return
    with pytest.raises(FormatError, match=message):
        nonogram.loads(text, format)


def test_mikix_colour_non_example_reads() -> None:
    """The colour extension of the .non format, as its FORMAT.md describes it."""
    text = (
        'title "t"\ncolor a #ff0000\ncolor b #0000ff\nwidth 3\nheight 2\n\n'
        'rows\n1a,2b\n1b\n\ncolumns\n1a\n1b\n2b\n\ngoal "abb00b"\n'
    )
    puzzle = nonogram.loads(text, "non")
    assert puzzle.goal == ("abb", "..b")
    assert nonogram.classify(puzzle) == "unique"


# ----- drawings, real puzzles and the command -----


def test_drawings_show_the_colours() -> None:
    puzzle = nonogram.read(EXAMPLES / "ladybird.txt")
    picture = nonogram.solve(puzzle)
    assert picture is not None
    text = nonogram.ascii_grid(puzzle, picture)
    assert "2r 1k 2r 1k 2r |  r  r  k  r  r  k  r  r" in text
    svg = nonogram.svg_grid(puzzle, picture)
    root = ET.fromstring(svg)
    fills = {e.get("fill") for e in root.iter() if e.tag.endswith("rect")}
    assert {"#ff0000", "#000000"} <= fills
    assert any(e.get("fill") == "#ff0000" for e in root.iter() if e.tag.endswith("text"))


@pytest.mark.parametrize(
    "path",
    [
        EXAMPLES / "ladybird.txt",
        EXAMPLES / "ladybird.non",
        EXAMPLES / "ladybird.xml",
        DATA / "union_flag.txt",
    ],
)
def test_colour_puzzles_in_the_repository_are_unique_by_every_route(path: Path) -> None:
    puzzle = nonogram.read(path)
    assert puzzle.is_colour
    answers = all_routes(puzzle)
    assert len(answers["propagate"]) == 1
    assert answers["xcc"] == answers["sat"] == answers["propagate"]
    (picture,) = answers["propagate"]
    rows: list[Blocks] = [[(n, c) for n, c in clue] for clue in puzzle.row_blocks]
    cols: list[Blocks] = [[(n, c) for n, c in clue] for clue in puzzle.col_blocks]
    assert satisfies(picture, rows, cols)
    if puzzle.goal is not None:
        assert picture == puzzle.goal


def test_random_colour_puzzles_agree_with_sat() -> None:
    """10x10 pictures of three colours: the compiled solver and SAT, same solutions."""
    rng = random.Random(16)
    for _ in range(5):
        picture = ["".join(rng.choice(".rgb") for _ in range(10)) for _ in range(10)]
        puzzle = nonogram.Puzzle.from_picture(picture, palette=PALETTE)
        fast = {tuple(p) for p in nonogram.solutions(puzzle, limit=200)}
        slow = {tuple(p) for p in nonogram.solutions(puzzle, method="sat", limit=200)}
        assert len(fast) < 200 and fast == slow and tuple(picture) in fast


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_solves_colour_puzzles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(EXAMPLES / "ladybird.xml")
    expected = nonogram.read(path).goal
    for method in ("auto", "propagate", "xcc", "sat"):
        code, out, _ = run(capsys, "nonogram", path, "--method", method)
        assert code == 0 and tuple(out.split()) == expected, method
    code, out, _ = run(capsys, "nonogram", path, "--json", "--classify")
    doc = json.loads(out)
    assert doc["status"] == "unique" and doc["palette"]["r"] == {"name": "red", "rgb": "#ff0000"}
    svg = tmp_path / "out.svg"
    code, out, _ = run(capsys, "nonogram", path, "--svg", str(svg), "--clues")
    assert code == 0 and "#ff0000" in svg.read_text() and "3r 1k 4r" in out
    code, out, _ = run(capsys, "nonogram", path, "--write", str(tmp_path / "l.non"))
    assert nonogram.read(tmp_path / "l.non").row_blocks == nonogram.read(path).row_blocks


def test_rating_a_colour_puzzle_is_refused_with_its_reason() -> None:
    from excover import UsageError, nonogram

    puzzle = nonogram.read(EXAMPLES / "ladybird.txt")
    assert nonogram.classify(puzzle) == "unique"
    with pytest.raises(UsageError, match="colour puzzles can be classified"):
        nonogram.rate(puzzle)


@pytest.mark.parametrize(
    "format", sorted(set(nonogram.FORMATS) - set(nonogram_formats.COLOUR_FORMATS))
)
def test_formats_without_colours_refuse_a_colour_puzzle(format: str) -> None:
    from excover import UsageError

    puzzle = nonogram.read(EXAMPLES / "ladybird.txt")
    with pytest.raises(UsageError, match=f"the {format} format has no colours"):
        nonogram.dumps(puzzle, format)
