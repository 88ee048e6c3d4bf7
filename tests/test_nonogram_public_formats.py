"""The formats of the public nonogram sets: Wilk's .nin, Olsak's .mk, pynogram's INI
files and the tournaments' files of many puzzles; errors name the line at fault."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from excover import FormatError, UsageError, nonogram
from excover.main import main

SURVEY = Path(__file__).parent.parent / "benchmarks" / "data" / "nonogram_survey"
PLUS = nonogram.Puzzle.from_picture([".#.", "###", ".#."])


def test_the_shipped_survey_puzzles_read() -> None:
    files = sorted(SURVEY.glob("*.nin"))
    assert len(files) == 14  # with Faase
    dancer = nonogram.read(SURVEY / "webpbn-00001.nin")
    assert (dancer.height, dancer.width) == (10, 5) and dancer.rows[1] == (2, 1)
    for path in files:
        assert nonogram.read(path).contradiction is None
    assert nonogram.classify(dancer) == "unique"


def test_nin_mk_and_ini_read_the_same_puzzle() -> None:
    nin = "3 3\n1\n3\n1\n1\n3\n1\n"
    mk = "3 3\n1\n3\n1\n#\n1\n3\n1\n\n"
    ini = "# a plus\n[clues]\ncolumns = 1, 3, '1'  ; inline comment\nrows =\n  1\n\n  3\n  1,\n"
    for text, format in ((nin, "nin"), (mk, "mk"), (ini, "ini")):
        assert nonogram.loads(text, format) == nonogram.Puzzle(PLUS.rows, PLUS.cols)
    assert nonogram.loads(ini, "text").rows == PLUS.rows  # a .txt that is pynogram's


@pytest.mark.parametrize(
    ("text", "format", "line", "message"),
    [
        ("3 x\n1\n", "nin", 1, "expected the width and the height"),
        ("3 3\n1\n3\n1\n1\n3\n1\n2\n", "nin", 8, "a clue too many"),
        ("3 3\n1\n3\n1\n1\n3\n", "nin", 6, "5 clues, not 3 rows + 3 columns"),
        ("3 3\n1\nx\n1\n1\n3\n1\n", "nin", 3, "bad block length 'x'"),
        ("3 3\n1\n3\n#\n1\n3\n1\n", "mk", 4, "'#' after 2 row clues, not 3"),
        ("3 3\n1\n3\n1\n1\n3\n1\n", "mk", 7, "no '#' line"),
        ("[clues]\nrows = 1, 2r\ncolumns = 1\n", "ini", 2, "colour 'r'"),
        ("[clues]\nsize = 3\n", "ini", 2, "unknown key 'size'"),
        ("[clues]\n1 1\n", "ini", 2, "a clue before 'columns ='"),
        ("1\n$1\n1\n1\n", "tcga", 1, "a clue before the first '$' line"),
        ("$1\n1\n1\n1\n", "tcga", 1, "3 clue lines"),
        ("$1\n1\n1\n$2\n1\n1\n", "tcga", 4, "a file of 2 puzzles: read it with read_all"),
        ("$1\n4\n1\n", "tcga", 2, "column 1: clue 4 needs 4 cells"),
    ],
)
def test_errors_name_the_line(text: str, format: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)) as caught:
        nonogram.loads(text, format, "f")
    assert str(caught.value).startswith(f"f:{line}: ")


def test_a_tournament_file_of_many_puzzles(tmp_path: Path) -> None:
    puzzles = [PLUS, nonogram.Puzzle.from_picture(["#.", ".#"]), nonogram.Puzzle(((),), ((),))]
    text = nonogram.dumps_all(puzzles)
    assert text.startswith("$1\n1\n3\n1\n1\n3\n1\n$2\n") and "$3\n0\n0\n" in text
    back = nonogram.loads_all(text.replace("\n", "\r\n").replace("$2\n", "$2\n"))
    assert [(p.rows, p.cols) for p in back] == [(p.rows, p.cols) for p in puzzles]
    assert [p.title for p in back] == ["1", "2", "3"]
    assert nonogram.loads_all(text.replace(" ", "\t"), "tcga")[0].rows == PLUS.rows
    path = tmp_path / "set.txt"
    nonogram.write_all(puzzles, path, "tcga")
    assert len(nonogram.read_all(path)) == 3 and nonogram.read_all(SURVEY / "knotty.nin")
    with pytest.raises(UsageError, match="holds one puzzle, not 3"):
        nonogram.dumps_all(puzzles, "non")
    with pytest.raises(UsageError, match="n x n puzzles, not 1x2"):
        nonogram.dumps_all([nonogram.Puzzle.from_picture(["#."])])
    assert nonogram.dumps_all([PLUS], "nin") == nonogram.dumps(PLUS, "nin")


def test_the_command_prints_one_result_per_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "set.txt"
    nonogram.write_all([PLUS, nonogram.Puzzle.from_picture(["#.", ".#"])], path, "tcga")
    assert main(["nonogram", str(path), "--classify"]) == 0
    assert capsys.readouterr().out == "unique\nmultiple\n"
    assert main(["nonogram", str(path), "--count"]) == 0
    assert capsys.readouterr().out == "1\n2\n"
    assert main(["nonogram", str(path)]) == 0
    assert capsys.readouterr().out == "$1\n.#.\n###\n.#.\n\n$2\n.#\n#.\n\n"
    assert main(["nonogram", str(path), "--svg", str(tmp_path / "x.svg")]) == 2
    assert "draws one puzzle" in capsys.readouterr().err
    assert main(["nonogram", str(SURVEY / "webpbn-00001.nin"), "--classify"]) == 0
    assert capsys.readouterr().out == "unique\n"


# ----- colours: Olsak's .g and pynogram's [colors] -----

G = """A puzzle in Olsak's format: this text is not read.
# title: flags
#declaration of the colours (a '#d' line opens them)
   r:r  red
   0:   white
   1:*  #000000  jet black
   b:b  #0000ff
: rows
2r 1
1b

: columns ---
1r
1r 1b
1
: end
more free text
"""

INI = """# title: apples
[colors]
g = (0, 204, 0) %
red = (red) &   ; a name of more than one letter: its symbol is its char
b = (0000FF) @
[clues]
rows = 2g 1, 1red, 0
columns = 1g, '1g 1red', 1
"""


def test_olsak_g_files_declare_colours_and_a_default_one(tmp_path: Path) -> None:
    puzzle = nonogram.loads(G, "g")
    assert puzzle.title == "flags" and (puzzle.height, puzzle.width) == (3, 3)
    assert [(c.char, c.name, c.rgb) for c in puzzle.palette or ()] == [
        ("r", "red", (255, 0, 0)),
        ("*", "jet black", (0, 0, 0)),  # the default colour ('1:') takes Olsak's char
        ("b", "blue", (0, 0, 255)),  # named after its RGB, having no comment
    ]
    assert puzzle.rows[2] == () and puzzle.row_blocks[0] == ((2, "r"), (1, "*"))
    assert nonogram.solve(puzzle) == ["rr*", ".b.", "..."]
    assert nonogram.loads(nonogram.dumps(puzzle, "g"), "g") == puzzle
    path = tmp_path / "flags.g"
    path.write_text(G)
    assert nonogram.read(path) == puzzle  # the suffix names the format
    bw = nonogram.loads("Bicycle\n:\n1\n3\n\n: columns\n1\n2\n1\n:\n", "g")
    assert bw.palette is None and bw.rows == ((1,), (3,), ()) and bw.cols == ((1,), (2,), (1,))


def test_pynogram_colour_files_name_colours_after_lengths() -> None:
    puzzle = nonogram.loads(INI, "text")  # a .txt starting with a [section] is pynogram's
    assert puzzle.title == "apples"
    assert [(c.char, c.name, c.rgb) for c in puzzle.palette or ()] == [
        ("#", "black", (0, 0, 0)),  # first: bare lengths are black
        ("g", "g", (0, 204, 0)),
        ("&", "red", (255, 0, 0)),
        ("b", "blue", (0, 0, 255)),  # declared, though no block uses it
    ]
    assert nonogram.solve(puzzle) == ["gg#", ".&.", "..."]
    assert nonogram.loads(nonogram.dumps(puzzle, "ini"), "ini") == puzzle
    assert nonogram.loads(nonogram.dumps(puzzle, "g"), "g").row_blocks == puzzle.row_blocks
    # a [colors] section that declares nothing leaves a black-and-white puzzle
    assert nonogram.loads("[colors]\n[clues]\nrows = 1\ncolumns = 1\n", "ini").palette is None


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("#d\n  t:/  black/orange\n:\n1t\n:\n1t\n", 2, "triangles (colour 'black/orange')"),
        ("text\n#t\n:\n", 2, "triddlers"),
        ("#d\n  r:r  red\n:\n1\n:\n1r\n", 4, "a block without a colour char, and no default"),
        ("just text\n", 1, "no ':' line before the row clues"),
        ("#d\n  r:r  red\n:\n1r\n", 4, "no ':' line between the row clues and the column"),
        ("#d\n  rr red\n:\n1r\n:\n1r\n", 2, "a colour line is '<inchar>:<outchar> <colour>"),
        ("#d\n  r:r  redish\n:\n1r\n:\n1r\n", 2, "'redish' is not a colour name"),
    ],
)
def test_g_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)) as caught:
        nonogram.loads(text, "g", "f")
    assert str(caught.value).startswith(f"f:{line}: ")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("[colors]\nr = (red) r\n[clues]\nrows = 1x\ncolumns = 1\n", 4, "colour 'x' is not"),
        ("[colors]\nr red\n", 2, "a colour is 'NAME = (COLOUR) SYMBOL'"),
        ("[colors]\nr = (red) r\nr = (blue) b\n", 3, "colour 'r' declared twice"),
        ("[colors]\nr = (red) r\n[clues]\nrows = 1r x\ncolumns = 1r\n", 4, "bad block 'x'"),
    ],
)
def test_ini_colour_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)) as caught:
        nonogram.loads(text, "ini", "f")
    assert str(caught.value).startswith(f"f:{line}: ")
