"""The dialects of Simpson's ``.non`` format that public puzzle sets write, each read from
a file (tests/data/nonogram/non, see its README.md): Nonny's colours (``color red FF0000
#``, clues ``red 1 yellow 4`` or ``red: 1, 4``), Simpson's own (``maxrule``, ``#``
comments), webpbn's export with its goal, CRLF and blank lines for empty lines; and the
errors, each naming its line. webpbn's puzzle is public; the others are ours, written in
the dialect that the public collections named in the README use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from excover import FormatError, nonogram
from excover.main import main
from excover.nonogram.model import colour_clue_of

DATA = Path(__file__).parent / "data" / "nonogram" / "non"

# The pictures we drew, each in the chars its file declares (a Nonny char that is a digit
# is replaced by its name's first letter: green's '0' is 'g').
FLOWER = (
    "..#.#.#..",
    ".#######.",
    "##@@@@@##",
    ".#@@@@@#.",
    "##@@@@@##",
    ".#######.",
    "..#.g.#..",
    "gg..g..gg",
    ".gggggg..",
    "...gg....",
    "....g....",
)
TRAFFIC_LIGHT = ("XXX", "X#X", "X@X", "X%X", "XXX", ".X.", "XXX")
HOUSE = (
    "........",
    "......#.",
    "...#..#.",
    "..####..",
    ".######.",
    "########",
    ".@@@@@@.",
    ".@XX@X@.",
    ".@XX@@@.",
    "XXXXXXXX",
)
HEART = (
    ".##...##.",
    "####.####",
    "#########",
    "#########",
    ".#######.",
    "..#####..",
    "...###...",
    "....#....",
)
NONNY_COLOUR = {
    "named-colours-flower.non": FLOWER,
    "named-colours-traffic-light.non": TRAFFIC_LIGHT,
    "unnamed-black-house.non": HOUSE,
}


def satisfies(puzzle: nonogram.Puzzle, picture: tuple[str, ...]) -> bool:
    """Whether every row and column of ``picture`` has its clue's coloured blocks."""
    columns = ["".join(row[c] for row in picture) for c in range(puzzle.width)]
    rows_ok = all(colour_clue_of(r) == b for r, b in zip(picture, puzzle.row_blocks, strict=True))
    cols_ok = all(colour_clue_of(c) == b for c, b in zip(columns, puzzle.col_blocks, strict=True))
    return rows_ok and cols_ok


def every_route(puzzle: nonogram.Puzzle) -> set[tuple[str, ...]]:
    """The solutions (up to 3) that the three solvers find, after checking they agree."""
    answers = {
        method: {tuple(p) for p in nonogram.solutions(puzzle, method=method, limit=3)}
        for method in ("propagate", "xcc", "sat")
    }
    assert answers["propagate"] == answers["xcc"] == answers["sat"]
    return answers["propagate"]


@pytest.mark.parametrize("name", NONNY_COLOUR)
def test_the_nonny_colour_puzzles_have_one_solution_by_every_route(name: str) -> None:
    puzzle = nonogram.read(DATA / name)
    assert puzzle.is_colour and puzzle.goal is None  # Nonny's dialect has no goal
    drawn = NONNY_COLOUR[name]
    assert satisfies(puzzle, drawn)  # the clues are our picture's
    assert every_route(puzzle) == {drawn}  # and it is the only solution


def test_nonny_colour_lines_give_a_name_a_hex_value_and_a_char() -> None:
    puzzle = nonogram.read(DATA / "named-colours-flower.non")
    palette = [(c.char, c.name, c.rgb) for c in puzzle.palette or ()]
    # green's char is '0', a digit, which cannot name a colour: the name's first
    # letter stands for it (the clues name colours, the chars only draw them)
    assert palette == [
        ("#", "red", (255, 0, 0)),
        ("@", "yellow", (255, 255, 0)),
        ("g", "green", (0x00, 0xA0, 0x00)),
    ]
    # 'red 2 yellow 5 red 2': a name colours the blocks after it until the next name
    assert puzzle.row_blocks[2] == ((2, "#"), (5, "@"), (2, "#"))
    assert puzzle.row_blocks[0] == ((1, "#"), (1, "#"), (1, "#"))  # 'red 1 1 1'
    assert puzzle.row_blocks[7] == ((2, "g"), (1, "g"), (2, "g"))  # 'green 2 1 2'
    assert puzzle.title == "Flower"


def test_nonny_colons_commas_and_a_white_background_line() -> None:
    puzzle = nonogram.read(DATA / "named-colours-traffic-light.non")
    # 'color background FFFFFF' declares the white cells, not a colour of blocks
    assert [c.name for c in puzzle.palette or ()] == ["black", "red", "yellow", "green"]
    assert puzzle.col_blocks[0] == ((5, "X"), (1, "X"))  # 'black: 5, 1'
    assert puzzle.row_blocks[1] == ((1, "X"), (1, "#"), (1, "X"))  # 'black: 1, red: 1, ...'


def test_nonny_blocks_before_any_name_are_black() -> None:
    house = nonogram.read(DATA / "unnamed-black-house.non")
    assert house.rows[0] == ()  # '0'
    assert house.row_blocks[9] == ((8, "X"),)  # '8': black, declared 'color black 000000 X'
    # 'red 2 2 brown 3 black 1': the chimney and the roof, the wall, the ground
    assert house.col_blocks[6] == ((2, "#"), (2, "#"), (3, "@"), (1, "X"))
    assert house.row_blocks[7][:2] == ((1, "@"), (2, "X"))  # 'brown 1 black 2 ...'
    # a file that names colours but not black: Nonny's black is implied
    text = "width 2\nheight 1\ncolor red FF0000 r\nrows\n1 red 1\ncolumns\n1\nred 1\n"
    puzzle = nonogram.loads(text, "non")
    assert [(c.char, c.name, c.rgb) for c in puzzle.palette or ()] == [
        ("r", "red", (255, 0, 0)),
        ("X", "black", (0, 0, 0)),
    ]
    assert nonogram.solve(puzzle) == ["Xr"]


def test_nonny_writes_colons_and_commas_and_may_leave_out_the_char() -> None:
    """Nonny's own writer puts ``red: 1, 2`` and writes a colour's char only when it has
    one; without one, the name's first free letter is its char."""
    spoken = "width 4\nheight 1\ncolor red FF0000\ncolor ruby #E0115F\nrows\nred 1 ruby 2\n"
    written = "width 4\nheight 1\ncolor red FF0000\ncolor ruby #E0115F\nrows\nred: 1, ruby: 2\n"
    columns = "columns\n0\nred 1\nruby 1\nruby 1\n"
    first, second = (nonogram.loads(t + columns, "non") for t in (spoken, written))
    assert first == second
    assert [c.char for c in first.palette or ()] == ["r", "u"]
    assert nonogram.solve(first) == [".ruu"]


def test_nonny_black_and_white_clues_apart_by_spaces() -> None:
    puzzle = nonogram.read(DATA / "spaces-heart.non")
    assert not puzzle.is_colour and puzzle.rows[1] == (4, 4) and puzzle.title == "Heart"
    assert satisfies(puzzle, HEART)
    assert every_route(puzzle) == {HEART}


def test_simpsons_own_file_and_his_comments() -> None:
    path = DATA / "maxrule-arrow.non"
    assert path.read_text().startswith("maxrule 10\nwidth 11\nheight 9\nby ")
    puzzle = nonogram.read(path)  # 'maxrule' is ignored, 'by' and 'title' come last
    assert (puzzle.width, puzzle.height, puzzle.title) == (11, 9, "Arrow")
    assert puzzle.goal is not None
    assert every_route(puzzle) == {puzzle.goal}
    text = "# a comment\nwidth 2\nheight 1\nrows\n# in a section too\n2\ncolumns\n1\n1\n"
    assert nonogram.loads(text, "non").rows == ((2,),)


def test_webpbn_export_with_its_goal() -> None:
    puzzle = nonogram.read(DATA / "webpbn-00001-dancer.non")
    assert puzzle.title == "Dancer" and puzzle.goal is not None
    assert every_route(puzzle) == {puzzle.goal}


def test_crlf_and_blank_lines_for_empty_columns() -> None:
    path = DATA / "crlf-blank-columns-hi.non"
    raw = path.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n")  # Windows line ends throughout
    assert b"\ntutorial " in raw  # a property of the file's own, skipped
    puzzle = nonogram.read(path)
    assert (puzzle.width, puzzle.height, puzzle.title) == (9, 5, "Hi!")
    assert [k for k, clue in enumerate(puzzle.cols) if clue == ()] == [3, 7]
    assert puzzle.goal is not None
    assert every_route(puzzle) == {puzzle.goal}


@pytest.mark.parametrize("name", NONNY_COLOUR)
def test_a_nonny_puzzle_written_by_excover_reads_back(name: str, tmp_path: Path) -> None:
    puzzle = nonogram.read(DATA / name)
    path = tmp_path / name
    nonogram.write(puzzle, path)  # in mikix/nonogram-db's dialect: 'color # #ff0000'
    back = nonogram.read(path)
    assert back.row_blocks == puzzle.row_blocks and back.col_blocks == puzzle.col_blocks
    assert [(c.char, c.rgb) for c in back.palette or ()] == [
        (c.char, c.rgb) for c in puzzle.palette or ()
    ]


def test_the_command_solves_a_nonny_colour_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nonogram", str(DATA / "named-colours-traffic-light.non"), "--classify"]) == 0
    assert capsys.readouterr().out == "unique\n"


NONNY_HEAD = "width 2\nheight 1\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("color red\n", 3, "a colour line is 'color CHAR #rrggbb' (mikix/nonogram-db) or"),
        ("color red FF0000 ab\n", 3, "'color NAME RRGGBB [CHAR]' (Nonny)"),
        ("color red GG0000 r\n", 3, "colour 'red': 'GG0000' is not a hex colour RRGGBB"),
        ("color red FF0000 r\ncolor Red 00FF00 g\n", 4, "colour 'Red' declared twice"),
        ("color background 000000\n", 3, "a background colour other than white"),
        ("color red FF0000 r\nrows\nblue 2\n", 5, "colour 'blue' is not declared"),
        ("color red FF0000 r\nrows\nred\n", 5, "colour names without blocks"),
        ("color red FF0000 r\nrows\ncolumns\nred 1\n", 5, "0 clues where the section needs 1"),
        ("color red FF0000 r\nrows\nred 1 0\n", 5, "a block of length 0"),
        ("color red FF0000 r\nrows\nred 1 1xy\n", 5, "bad block length '1xy'"),
        ("rows\nred 2\ncolumns\n1\n1\n", 4, "colour 'red' is not declared (declared by name: none"),
    ],
)
def test_dialect_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)) as caught:
        nonogram.loads(NONNY_HEAD + text, "non", "f")
    assert str(caught.value).startswith(f"f:{line}: ")


def test_a_white_background_line_is_accepted() -> None:
    text = "width 1\nheight 1\ncolor background FFFFFF .\ncolor red FF0000 r\nrows\nred 1\n"
    puzzle = nonogram.loads(text + "columns\nred 1\n", "non")
    assert [c.name for c in puzzle.palette or ()] == ["red"]
