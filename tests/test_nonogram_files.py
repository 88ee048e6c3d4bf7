"""Tests of nonogram files, pictures and the ``excover nonogram`` command.

Every format is written and read back to the same puzzle; hand-written files in each
format (tests/data/nonogram, examples/nonograms) read to the clues they spell; broken
files fail with the file and line; drawings are checked as XML and text.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import FormatError, UsageError, nonogram
from excover.main import main

DATA = Path(__file__).parent / "data" / "nonogram"
EXAMPLES = Path(__file__).parent.parent / "examples" / "nonograms"


@st.composite
def pictures(draw: st.DrawFn) -> list[str]:
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = draw(st.lists(st.sampled_from("#."), min_size=h * w, max_size=h * w))
    return ["".join(cells[r * w : (r + 1) * w]) for r in range(h)]


@settings(max_examples=examples(40))
@given(pictures(), st.sampled_from(list(nonogram.FORMATS)), st.booleans())
def test_every_format_reads_back_what_it_writes(
    picture: list[str], format: str, titled: bool
) -> None:
    puzzle = nonogram.Puzzle.from_picture(picture, title="A <test> & more" if titled else None)
    if format == "tcga" and puzzle.height != puzzle.width:
        with pytest.raises(UsageError, match="n x n puzzles, not"):
            nonogram.dumps(puzzle, format)
        return
    back = nonogram.loads(nonogram.dumps(puzzle, format), format)
    assert (back.rows, back.cols) == (puzzle.rows, puzzle.cols)
    if format in ("text", "non", "xml", "ini", "g"):  # nin, mk and tcga have no titles
        assert back.title == puzzle.title
    if format in ("non", "xml"):  # the others have no goal picture
        assert back.goal == puzzle.goal


def test_examples_in_three_formats_hold_the_same_puzzles() -> None:
    for name in ("heart", "boat"):
        puzzles = [
            nonogram.read(EXAMPLES / f"{name}{suffix}") for suffix in (".txt", ".non", ".xml")
        ]
        assert len({(p.rows, p.cols, p.title) for p in puzzles}) == 1
        solution = nonogram.solve(puzzles[0])
        assert solution is not None and tuple(solution) == puzzles[1].goal
    hard = nonogram.read(EXAMPLES / "hard12.non")
    assert nonogram.classify(hard) == "unique" and not nonogram.line_solvable(hard)
    assert tuple(nonogram.solve(hard) or ()) == hard.goal


def test_hand_written_files() -> None:
    assert nonogram.classify(nonogram.read(DATA / "none.txt")) == "none"
    assert nonogram.classify(nonogram.read(DATA / "multiple12.txt")) == "multiple"
    simpson = """\
catalogue "test"
title "Simpson's example"
by someone
width 4
height 5

rows
4
1,1
1,1
1, 2
3

columns
5
1,1
1,2
4
"""
    puzzle = nonogram.loads(simpson, "non")
    assert puzzle.rows == ((4,), (1, 1), (1, 1), (1, 2), (3,))
    assert puzzle.cols == ((5,), (1, 1), (1, 2), (4,))
    assert puzzle.title == "Simpson's example"
    assert nonogram.solve(puzzle) == ["####", "#..#", "#..#", "#.##", "###."]
    webpbn = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="black">
<source>hand made</source><title>Tiny</title>
<color name="white" char=".">fff</color><color name="black" char="X">000</color>
<clues type="columns"><line><count>2</count></line><line></line></clues>
<clues type="rows"><line><count>1</count></line><line><count>1</count></line></clues>
<solution type="goal"><image>
|X.|
|X.|
</image></solution>
</puzzle></puzzleset>"""
    tiny = nonogram.loads(webpbn, "xml")
    assert (tiny.rows, tiny.cols, tiny.goal) == (((1,), (1,)), ((2,), ()), ("#.", "#."))


@pytest.mark.parametrize(
    ("format", "text", "where"),
    [
        ("text", "1\n2 x\n\n1\n1\n", "<string>:2: bad block length 'x'"),
        ("text", "1\n\n1\n\n1\n", "<string>:5: a third section"),
        ("text", "1\n1\n", "<string>:2: no blank line"),
        ("text", "1\n0 1\n\n1\n1\n", "<string>:2: a block of length 0"),
        ("text", "1\n4\n\n1\n1\n", "<string>:2: row 2: clue 4 needs 4 cells, the line has 2"),
        ("non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n", "<string>:7: 'columns' lists 1"),
        ("non", "width 2\nwidth 3\n", "<string>:2: width given twice"),
        ("non", "width x\n", "<string>:1: bad width 'x'"),
        ("non", "rows\n1\n", "<string>:1: 'rows' before the height"),
        ("non", "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 00", "<string>:7: the goal has 2"),
        ("non", "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 0", "<string>:7: the goal picture"),
        ("xml", "<puzzleset><puzzle>\n<clues>", "<string>:2: bad XML"),
        ("xml", '<puzzle><clues type="diagonal"></clues></puzzle>', "expected 'rows' or 'columns'"),
        (
            "xml",
            '<puzzle>\n<clues type="rows"><line><count>0</count></line></clues></puzzle>',
            "<string>:2: bad count '0'",
        ),
        (
            "xml",
            '<puzzle>\n<clues type="rows"><line>\n<count color="red">1</count></line>'
            "</clues></puzzle>",
            "<string>:3: colour 'red'",
        ),
        ("xml", "<puzzleset></puzzleset>", "no <puzzle>"),
    ],
)
def test_bad_files_name_the_line(format: str, text: str, where: str) -> None:
    with pytest.raises(FormatError) as caught:
        nonogram.loads(text, format)
    assert where in str(caught.value)


def test_reading_a_missing_or_binary_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read"):
        nonogram.read(tmp_path / "absent.non")
    binary = tmp_path / "bad.txt"
    binary.write_bytes(b"\xff\xfe1\n")
    with pytest.raises(FormatError, match="not UTF-8"):
        nonogram.read(binary)


def test_ascii_and_svg_drawings() -> None:
    puzzle = nonogram.Puzzle.from_picture(["#.##", "....", "####"], title="bars & <dots>")
    text = nonogram.ascii_grid(puzzle, list(puzzle.goal or ()))
    lines = text.splitlines()
    assert lines[-3:] == ["1 2 | # . # #", "  0 | . . . .", "  4 | # # # #"]
    assert lines[0].split("|")[1].split() == ["1", "1", "1"]  # columns 1, 3, 4: two blocks
    root = ET.fromstring(nonogram.svg_grid(puzzle, list(puzzle.goal or ())))
    namespace = "{http://www.w3.org/2000/svg}"
    filled = [r for r in root.iter(f"{namespace}rect") if r.get("fill") == "black"]
    assert len(filled) == sum(row.count("#") for row in puzzle.goal or ())
    numbers = sorted(t.text or "" for t in root.iter(f"{namespace}text"))
    expected = [str(b) for clue in puzzle.rows + puzzle.cols for b in clue or (0,)]
    assert numbers == sorted(expected)
    assert root.find(f"{namespace}title") is not None
    assert puzzle._repr_svg_().startswith("<svg")
    empty = nonogram.Puzzle.from_clues([[1]], [[1]])
    assert "<rect" in nonogram.svg_grid(empty)


def test_generated_puzzles_have_their_picture_as_a_solution() -> None:
    rng = random.Random(4)
    for _ in range(10):
        puzzle = nonogram.generate(12, 9, rng.random(), rng)
        assert puzzle.goal is not None and puzzle.is_solution(puzzle.goal)
        assert (puzzle.height, puzzle.width) == (12, 9)


def test_mismatch_names_the_broken_line() -> None:
    puzzle = nonogram.Puzzle.from_clues([[1], [2]], [[2], [1]])
    assert puzzle.is_solution(["#.", "##"])
    assert puzzle.mismatch(["#.", "#."]) == "row 2 reads [1], its clue is [2]"
    assert puzzle.mismatch(["##", ".#"]) == "row 1 reads [2], its clue is [1]"
    assert "picture is 1x2" in (puzzle.mismatch(["##"]) or "")
    assert "'x'" in (puzzle.mismatch(["#x", "##"]) or "")


# ----- the command -----


def test_command_prints_the_picture(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nonogram", str(EXAMPLES / "heart.non")]) == 0
    out = capsys.readouterr().out.split()
    assert tuple(out) == nonogram.read(EXAMPLES / "heart.non").goal


def test_command_counts_classifies_and_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    multiple = str(DATA / "multiple12.txt")
    expected = nonogram.count(nonogram.read(multiple))
    for method in ("auto", "sat"):  # specific methods: nonogram's own, not exact cover's
        assert main(["nonogram", multiple, "--count", "--method", method]) == 0
        assert capsys.readouterr().out.strip() == str(expected)
    assert main(["nonogram", multiple, "--count", "--limit", "2"]) == 1  # cut short: partial
    assert capsys.readouterr().out.strip() == "2"
    assert main(["nonogram", str(DATA / "none.txt"), "--classify"]) == 0
    assert capsys.readouterr().out.strip() == "none"
    assert main(["nonogram", str(DATA / "none.txt")]) == 0
    assert capsys.readouterr().out.strip() == "none"
    svg, non = tmp_path / "out.svg", tmp_path / "out.non"
    hard = str(EXAMPLES / "hard12.non")
    assert (
        main(["nonogram", hard, "--json", "--classify", "--svg", str(svg), "--write", str(non)])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "unique" and result["line_solvable"] is False
    assert tuple(result["solution"]) == nonogram.read(hard).goal
    ET.parse(svg)
    assert nonogram.read(non).rows == nonogram.read(hard).rows
    assert main(["nonogram", hard, "--clues"]) == 0
    assert "| " in capsys.readouterr().out


def test_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n2 x\n\n1\n1\n", encoding="utf-8")
    assert main(["nonogram", str(bad)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"{bad}:2: bad block length 'x' (expected a non-negative integer)"
    )
    assert main(["nonogram", str(bad), "--limit", "3", "--classify"]) == 2
    assert "--limit does not go with --classify" in capsys.readouterr().err
    assert main(["nonogram", str(tmp_path / "absent.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_command_timeout_exits_with_status_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = tmp_path / "many.txt"
    many.write_text("1\n" * 9 + "\n" + "1\n" * 9, encoding="utf-8")  # 9! solutions
    assert main(["nonogram", str(many), "--count", "--timeout", "0.01"]) == 1
    captured = capsys.readouterr()
    assert "timeout" in captured.err and int(captured.out) < 362880


def test_command_stopped_before_an_answer_claims_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hard = str(EXAMPLES / "hard12.non")
    assert main(["nonogram", hard, "--classify", "--timeout", "0"]) == 1
    assert capsys.readouterr().out.strip() == "unknown"
    assert main(["nonogram", hard, "--timeout", "0"]) == 1
    assert capsys.readouterr().out == ""
    assert main(["nonogram", hard, "--classify", "--timeout", "0", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["status"] is None and result["complete"] is False


def test_a_blank_line_in_a_non_section_is_an_empty_line() -> None:
    """mikix/nonogram-db's FORMAT lets a blank line stand for an empty row or column."""
    text = "width 3\nheight 3\nrows\n1\n\n3\ncolumns\n1,1\n1\n1\n"
    puzzle = nonogram.loads(text, "non")
    assert puzzle.rows == ((1,), (), (3,)) and puzzle.cols == ((1, 1), (1,), (1,))
    assert list(nonogram.solutions(puzzle)) == [["#..", "...", "###"]]
