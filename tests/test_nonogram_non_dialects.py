"""The dialects of Simpson's ``.non`` format that public puzzle sets write, each read from
a public file (tests/data/nonogram/non, see its PROVENANCE.md): Nonny's colours (``color
red FF0000 #``, clues ``red 1 yellow 4``), Simpson's own (``maxrule``, ``#`` comments),
webpbn's export with its goal, blank lines for empty lines; and the errors, each naming
its line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from excover import FormatError, nonogram
from excover.main import main
from excover.nonogram.model import colour_clue_of

PUBLIC = Path(__file__).parent / "data" / "nonogram" / "non"
NONNY_COLOUR = ["nonny-rainbow.non", "nonny-test.non", "nonny-tree.non"]


def satisfies(puzzle: nonogram.Puzzle, picture: tuple[str, ...]) -> bool:
    """Whether every row and column of ``picture`` has its clue's coloured blocks."""
    columns = ["".join(row[c] for row in picture) for c in range(puzzle.width)]
    rows_ok = all(colour_clue_of(r) == b for r, b in zip(picture, puzzle.row_blocks, strict=True))
    cols_ok = all(colour_clue_of(c) == b for c, b in zip(columns, puzzle.col_blocks, strict=True))
    return rows_ok and cols_ok


@pytest.mark.parametrize("name", NONNY_COLOUR)
def test_the_nonny_colour_puzzles_have_one_solution_by_every_route(name: str) -> None:
    puzzle = nonogram.read(PUBLIC / name)
    assert puzzle.is_colour and puzzle.goal is None  # Nonny publishes no picture
    answers = {
        method: {tuple(p) for p in nonogram.solutions(puzzle, method=method, limit=3)}
        for method in ("propagate", "xcc", "sat")
    }
    assert answers["propagate"] == answers["xcc"] == answers["sat"]
    (picture,) = answers["propagate"]
    assert satisfies(puzzle, picture)


def test_nonny_colour_lines_give_a_name_a_hex_value_and_a_char() -> None:
    puzzle = nonogram.read(PUBLIC / "nonny-rainbow.non")
    palette = [(c.char, c.name, c.rgb) for c in puzzle.palette or ()]
    # green's char is '0', a digit, which cannot name a colour: the name's first
    # letter stands for it (the clues name colours, the chars only draw them)
    assert palette == [
        ("#", "red", (255, 0, 0)),
        ("@", "yellow", (255, 255, 0)),
        ("g", "green", (0x50, 0xC8, 0x78)),
        ("X", "purple", (0x80, 0x00, 0x80)),
    ]
    # 'red 1 yellow 2 green 1 purple 2 green 1 yellow 2 red 1': a name colours the
    # blocks after it until the next name
    assert puzzle.row_blocks[3] == (
        (1, "#"), (2, "@"), (1, "g"), (2, "X"), (1, "g"), (2, "@"), (1, "#"),
    )  # fmt: skip
    assert puzzle.row_blocks[4][3:5] == ((1, "X"), (1, "X"))  # 'purple 1 1'
    assert puzzle.title == "Rainbow"


def test_nonny_blocks_before_any_name_are_black() -> None:
    tree = nonogram.read(PUBLIC / "nonny-tree.non")
    assert tree.rows[0] == ()  # '0'
    assert tree.col_blocks[0] == ((1, "X"),)  # '1': black, declared 'color black 000000 X'
    assert tree.col_blocks[1] == ((1, "#"), (1, "#"), (1, "X"))  # 'green 1 1 black 1'
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
    puzzle = nonogram.read(PUBLIC / "nonny-ampersand.non")
    assert not puzzle.is_colour and puzzle.rows[1] == (2, 2) and puzzle.title == "Ampersand"
    assert nonogram.classify(puzzle) == "unique"


def test_simpsons_own_file_and_his_comments() -> None:
    puzzle = nonogram.read(PUBLIC / "simpson-utnomore.non")  # 'maxrule 10' is ignored
    assert (puzzle.width, puzzle.height, puzzle.title) == (45, 35, "UT no more")
    assert nonogram.classify(puzzle) == "unique"
    text = "# a comment\nwidth 2\nheight 1\nrows\n# in a section too\n2\ncolumns\n1\n1\n"
    assert nonogram.loads(text, "non").rows == ((2,),)


def test_webpbn_export_with_its_goal() -> None:
    puzzle = nonogram.read(PUBLIC / "webpbn-00001-dancer.non")
    assert puzzle.title == "Dancer" and puzzle.goal is not None
    assert nonogram.classify(puzzle) == "unique"
    assert tuple(nonogram.solve(puzzle) or ()) == puzzle.goal


def test_crlf_and_blank_lines_for_empty_columns() -> None:
    raw = (PUBLIC / "wolfyxon-tutorial-5.non").read_bytes()
    assert b"\r\n" in raw  # the file as published, with Windows line ends
    puzzle = nonogram.read(PUBLIC / "wolfyxon-tutorial-5.non")
    assert (puzzle.width, puzzle.height) == (13, 5)
    assert [k for k, clue in enumerate(puzzle.cols) if clue == ()] == [3, 7, 11]
    assert nonogram.classify(puzzle) == "unique"


@pytest.mark.parametrize("name", NONNY_COLOUR)
def test_a_nonny_puzzle_written_by_excover_reads_back(name: str, tmp_path: Path) -> None:
    puzzle = nonogram.read(PUBLIC / name)
    path = tmp_path / name
    nonogram.write(puzzle, path)  # in mikix/nonogram-db's dialect: 'color # #ff0000'
    back = nonogram.read(path)
    assert back.row_blocks == puzzle.row_blocks and back.col_blocks == puzzle.col_blocks
    assert [(c.char, c.rgb) for c in back.palette or ()] == [
        (c.char, c.rgb) for c in puzzle.palette or ()
    ]


def test_the_command_solves_a_nonny_colour_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nonogram", str(PUBLIC / "nonny-test.non"), "--classify"]) == 0
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
