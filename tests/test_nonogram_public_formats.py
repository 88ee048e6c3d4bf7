"""The formats of the public nonogram sets: Wilk's .nin, Olsak's .mk, pynogram's INI
files and the tournaments' files of many puzzles; errors name the line at fault."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from excover import FormatError, UsageError
from excover.cli import main
from excover.puzzles import nonogram

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
