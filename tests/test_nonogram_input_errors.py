"""Malformed nonogram input is refused, naming the fault: numbers that ``str.isdigit`` accepts and
``int`` refuses, XML whose text arrives in many small pieces or whose title holds control
characters, ``.non`` files with a clue too many, files without clues or with a byte order
mark, stdin that is not UTF-8, clues, pictures and generators of the wrong type or shape,
and a count cut short by ``--limit``."""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from excover import FormatError, ProblemError, UsageError, nonogram
from excover.main import main


@pytest.mark.parametrize(
    ("format", "text", "where"),
    [
        ("text", "\u00b2\n\n1\n", ":1:"),
        ("text", "1\n\n" + "1" * 5000 + "\n", ":3:"),
        ("non", "width \u00b2\nheight 1\nrows\n1\ncolumns\n1\n", ":1:"),
        ("non", "width 1\nheight 1\nrows\n1\ncolumns\n" + "9" * 5000 + "\n", ":6:"),
        (
            "xml",
            '<puzzle>\n<clues type="rows"><line><count>\u00b2</count></line></clues>\n'
            '<clues type="columns"><line><count>1</count></line></clues></puzzle>',
            ":2:",
        ),
    ],
    ids=["text-superscript", "text-5000-digits", "non-superscript", "non-5000-digits", "xml"],
)
def test_odd_digits_are_a_format_error(format: str, text: str, where: str) -> None:
    with pytest.raises(FormatError) as caught:
        nonogram.loads(text, format, "in")
    assert str(caught.value).startswith("in" + where)


def test_xml_text_made_of_many_entity_references_reads_in_linear_time() -> None:
    # 200,000 references of 10 characters each: appending them one by one to a string
    # attribute took minutes; the title must come back whole, and quickly.
    entities = '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "' + "&a;" * 100 + '">'
    title = "&b;" * 2000
    text = (
        f"<!DOCTYPE puzzle [{entities}]><puzzle><title>{title}</title>"
        '<clues type="rows"><line><count>1</count></line></clues>'
        '<clues type="columns"><line><count>1</count></line></clues></puzzle>'
    )
    puzzle = nonogram.loads(text, "xml")
    assert puzzle.title == "a" * 2_000_000
    assert nonogram.solve(puzzle) == ["#"]


@pytest.mark.parametrize("draw", [nonogram.ascii_grid, nonogram.svg_grid])
@pytest.mark.parametrize(
    ("picture", "message"),
    [
        ([], "0 rows"),
        (["#", "."], "2 rows"),
        (["##"], "row 1"),
        (["x"], "row 1"),
        ([5], "row 1"),
        (5, "list of rows"),
        ("#", "list of rows"),
    ],
)
def test_drawing_a_picture_of_the_wrong_shape_names_it(
    draw: Callable[[nonogram.Puzzle, Sequence[str] | None], str], picture: Any, message: str
) -> None:
    puzzle = nonogram.Puzzle.from_clues([[1]], [[1]])
    with pytest.raises(ProblemError, match=message):
        draw(puzzle, picture)
    assert "1" in draw(puzzle, ["?"]) and "1" in draw(puzzle, None)


def test_reading_and_writing_objects_of_the_wrong_type() -> None:
    with pytest.raises(UsageError, match="str"):
        nonogram.loads(b"1\n\n1\n")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="Puzzle"):
        nonogram.dumps("1\n\n1\n")  # type: ignore[arg-type]


def test_a_count_cut_by_limit_is_not_complete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.txt"  # a 2x2 puzzle with two solutions
    path.write_text("1\n1\n\n1\n1\n")
    for limit, complete in (("1", False), ("2", False), ("3", True)):
        status = main(["nonogram", str(path), "--count", "--limit", limit, "--json"])
        assert status == (0 if complete else 1)  # a count cut short by --limit: status 1
        result = json.loads(capsys.readouterr().out)
        assert result["count"] == min(int(limit), 2)
        assert result["complete"] is complete


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("width 1\nheight 1\nrows\n1\n1\ncolumns\n1\n", ":5:", "its 1 clues"),
        ("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n\n0\n", ":9:", "its 2 clues"),
        ("width 1\nheight 1\n1\nrows\n1\ncolumns\n1\n", ":3:", "before 'rows'"),
    ],
)
def test_a_non_file_with_a_clue_too_many_is_refused(text: str, where: str, message: str) -> None:
    # the extra clue used to be skipped as an unknown property: a different puzzle
    with pytest.raises(FormatError, match=message) as caught:
        nonogram.loads(text, "non", "in")
    assert str(caught.value).startswith("in" + where)


@pytest.mark.parametrize(
    ("rows", "cols", "message"),
    [
        (((-1,),), ((-1,),), "row 1: every block needs at least one cell"),
        (((1,),), ((1.5,),), "column 1: block lengths must be integers"),
        ("1", ((1,),), "the rows must be a list of clues"),
        (((1,),), 5, "the columns must be a list of clues"),
    ],
)
def test_the_constructor_checks_its_clues(rows: Any, cols: Any, message: str) -> None:
    # Puzzle(...) used to take a negative block, which the compiled solver then refused
    # with a ValueError
    with pytest.raises(ProblemError, match=message):
        nonogram.Puzzle(rows, cols)


def test_the_constructor_normalises_lists_and_checks_the_title() -> None:
    puzzle = nonogram.Puzzle([[1], [0]], [[1], []], goal=["#.", ".."])  # type: ignore[arg-type]
    assert puzzle == nonogram.Puzzle(((1,), ()), ((1,), ()), goal=("#.", ".."))
    assert hash(puzzle) == hash(nonogram.Puzzle.from_picture(["#.", ".."]))
    with pytest.raises(ProblemError, match="title"):
        nonogram.Puzzle.from_clues([[1]], [[1]], title=5)  # type: ignore[arg-type]


def test_an_xml_title_with_control_characters_reads_back() -> None:
    puzzle = nonogram.Puzzle.from_clues([[1]], [[1]], title="a\x00b\x1bc\ufffe d")
    back = nonogram.loads(nonogram.dumps(puzzle, "xml"), "xml")
    assert back.title == "abc d" and back.rows == puzzle.rows


def test_generate_wants_a_random_generator() -> None:
    with pytest.raises(UsageError, match="rng"):
        nonogram.generate(3, 3, 0.5, 7)  # type: ignore[arg-type]
    assert nonogram.generate(3, 3, 0.5, random.Random(7)).goal is not None


@pytest.mark.parametrize(
    ("format", "text", "expected"),
    [
        ("text", "", "in: no clues"),
        ("text", "# title: nothing\n", "in:1: no clues"),
        ("text", "1\n\n", "in:2: no column clues after the blank line"),
        ("text", "1\n1\n", "in:2: no blank line between"),
        ("non", "", "in: no row clues"),
    ],
)
def test_files_without_clues_say_so(format: str, text: str, expected: str) -> None:
    # an empty file was reported at line 0, and missing columns as a missing blank line
    with pytest.raises(FormatError) as caught:
        nonogram.loads(text, format, "in")
    assert str(caught.value).startswith(expected)


def test_stdin_that_is_not_utf8(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # with a strict stdin (a UTF-8 locale) this was a UnicodeDecodeError traceback
    for data, status in ((b"\xff\xfe\n", 2), (b"1\n\n1\n", 0)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), errors="strict"))
        assert main(["nonogram", "-"]) == status
    captured = capsys.readouterr()
    assert "<stdin>: the input is not UTF-8 text" in captured.err and captured.out == "#\n"


@pytest.mark.parametrize("format", list(nonogram.FORMATS))
def test_a_byte_order_mark_is_skipped(format: str, tmp_path: Path) -> None:
    # Windows editors start UTF-8 files with one: it read as part of the first clue, or
    # hid the first .non property ('width')
    puzzle = nonogram.Puzzle.from_picture(["#.", "##"])
    text = nonogram.dumps(puzzle, format).replace("# title", "")
    path = tmp_path / f"puzzle.{format}"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert nonogram.read(path, format).rows == puzzle.rows
