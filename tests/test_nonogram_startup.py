"""The start-up of ``excover nonogram``: a run imports only what it needs.

A small puzzle is solved in well under a millisecond, so the command's whole time is its
start-up: the interpreter, the parser and the modules it imports. The run of ``excover
nonogram FILE --classify`` must not load numpy, pysat, lark, tqdm or html, nor the
modules of the other commands; nor ``dataclasses`` (with ``inspect``, ``ast``, ``dis``
and ``tokenize`` behind it: Puzzle is a plain immutable class), ``json`` (loaded for
``--json`` only), ``pathlib`` (with ``urllib.parse`` and ``ipaddress`` behind it: files
are read with ``open``), ``shutil`` (argparse's help formatter imports it to size the help
to the terminal; excover's formatter finds the width itself) or the rating module (loaded
for ``--rate`` only); nor ``typing`` (a tenth of the whole run: annotations name its
types under ``TYPE_CHECKING`` only, and the colour model's named tuples are made by
``collections``) or ``threading`` (signal handlers are refused off the main thread by
``signal`` itself).
"""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path

import pytest
from runs import imported_by

from excover import nonogram
from excover.cli import common
from excover.main import build_parser, main

EXAMPLES = Path(__file__).parent.parent / "examples" / "nonograms"

#: What a nonogram run must not import (top-level packages, or excover's modules).
HEAVY = {"numpy", "pysat", "lark", "tqdm", "html"}
#: Standard modules a run of --classify does not need (each costs start-up time).
UNNEEDED = {
    *("dataclasses", "inspect", "ast", "dis", "tokenize", "json", "pathlib", "shutil"),
    *("typing", "threading"),
}
OTHER_COMMANDS = {
    "excover.problem",
    "excover.puzzles.cli",
    "excover.lang",
    "excover.parallel",
    "excover.engines",
    "excover.nonogram.draw",
    "excover.nonogram.rating",
    "excover.nonogram.generator",
}


@pytest.mark.parametrize("name", ["hard12.non", "heart.xml", "heart.txt"])
def test_classify_imports_no_heavy_module(name: str) -> None:
    modules = imported_by(["nonogram", str(EXAMPLES / name), "--classify"])
    tops = {module.split(".")[0] for module in modules}
    assert not tops & HEAVY
    assert not {m for m in modules for other in OTHER_COMMANDS if m.startswith(other)}
    assert not modules & UNNEEDED


def test_json_and_rate_still_load_what_they_need() -> None:
    # the modules a plain --classify skips are loaded when asked for
    modules = imported_by(["nonogram", str(EXAMPLES / "hard12.non"), "--classify", "--json"])
    assert "json" in modules and "excover.nonogram.rating" not in modules
    modules = imported_by(["nonogram", str(EXAMPLES / "hard12.non"), "--rate"])
    assert "excover.nonogram.rating" in modules
    assert nonogram.Rating is nonogram.__getattr__("Rating")
    assert nonogram.LEVELS == ("line", "probe", "search")


def test_the_light_parser_is_the_whole_parsers_nonogram_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    helps = []
    for only in (None, "nonogram"):
        parser = build_parser(only)
        with pytest.raises(SystemExit):
            parser.parse_args(["nonogram", "--help"])
        helps.append(capsys.readouterr().out)
    assert helps[0] == helps[1] and "usage: excover nonogram" in helps[0]
    # the other commands still run, and --help still lists them all
    assert main(["--help"]) == 0
    listing = capsys.readouterr().out
    assert all(word in listing for word in ("count", "sudoku", "queens", "nonogram", "run"))
    assert main(["queens", "6", "--count"]) == 0
    assert capsys.readouterr().out == "4\n"
    errors = []
    for only in (None, "nonogram"):  # a bad flag reads the same under both parsers
        for argv in (["nonogram", "--no-such-flag", "x"], ["nonogram", "x", "--format", "y"]):
            with pytest.raises(SystemExit):
                build_parser(only).parse_args(argv)
            errors.append(capsys.readouterr().err)
    assert errors[:2] == errors[2:] and "invalid choice: 'y'" in errors[1]


def test_a_puzzle_is_immutable_hashable_and_picklable() -> None:
    puzzle = nonogram.read(EXAMPLES / "hard12.non")
    with pytest.raises(AttributeError):
        puzzle.title = "other"
    with pytest.raises(AttributeError):
        del puzzle.rows
    copy = pickle.loads(pickle.dumps(puzzle))
    assert copy == puzzle and hash(copy) == hash(puzzle) and copy is not puzzle
    assert puzzle != nonogram.Puzzle(puzzle.rows, puzzle.cols)  # the title and goal count
    assert puzzle.__eq__("text") is NotImplemented
    assert repr(puzzle).startswith("Puzzle(rows=((") and "goal=(" in repr(puzzle)
    assert eval(repr(puzzle), {"Puzzle": nonogram.Puzzle}) == puzzle
    colour = nonogram.Puzzle.from_picture(["rr.", ".bb"], title="two")
    assert pickle.loads(pickle.dumps(colour)) == colour and hash(colour) != hash(puzzle)
    assert eval(repr(colour), {"Colour": nonogram.Colour, "Puzzle": nonogram.Puzzle}) == colour
    match colour:
        case nonogram.Puzzle(rows, cols, title):
            assert (rows, cols, title) == (((2,), (2,)), ((1,), (1, 1), (1,)), "two")
    assert nonogram.ascii_grid is nonogram.__getattr__("ascii_grid")
    assert "svg_grid" in dir(nonogram)
    with pytest.raises(AttributeError):
        nonogram.__getattr__("no_such_name")


def test_help_is_laid_out_as_argparse_would(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """excover's help formatter sizes the help as argparse's own formatter does, from
    $COLUMNS or else the terminal (80 columns when there is none), without shutil."""
    helps: dict[str, str] = {}
    for columns in ("50", "132", "", "not a number", "-3"):
        monkeypatch.setenv("COLUMNS", columns)
        texts = []
        for formatter in (common.HelpFormatter, argparse.RawDescriptionHelpFormatter):
            parser = build_parser("nonogram")
            parser.formatter_class = formatter
            for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
                for command in action.choices.values():  # type: ignore[union-attr]
                    command.formatter_class = formatter
            with pytest.raises(SystemExit):
                parser.parse_args(["nonogram", "--help"])
            texts.append(parser.format_help() + capsys.readouterr().out)
        assert texts[0] == texts[1], columns
        helps[columns] = texts[0]
    assert helps["50"] != helps["132"]  # the width is read
    assert helps[""] == helps["not a number"] == helps["-3"]  # no terminal under pytest: 80


def test_the_colour_tuples_and_status_are_what_their_types_say() -> None:
    """Made without typing, Colour and Block are still named tuples with the fields and
    types the type checkers see, and Status the Literal of classify's answers."""
    import typing

    block = nonogram.Block(3, "r")
    assert block == (3, "r") and block.length == 3 and block.colour == "r"
    assert nonogram.Block._fields == ("length", "colour") and repr(block) == (
        "Block(length=3, colour='r')"
    )
    assert type(block._replace(length=2)) is nonogram.Block
    colour = nonogram.Colour("r", "red", (255, 0, 0))
    assert (colour.name, colour.rgb, colour.hex) == ("red", (255, 0, 0), "#ff0000")
    assert type(pickle.loads(pickle.dumps(colour))) is nonogram.Colour
    with pytest.raises(AttributeError):
        colour.extra = 1  # type: ignore[attr-defined]
    statuses = typing.get_args(nonogram.Status)
    assert statuses == ("none", "unique", "multiple")
    puzzles = [([[1]], [[1]]), ([[1], [1]], [[1], [1]]), ([[1]], [[0], [0]])]
    assert {nonogram.classify(rows, cols) for rows, cols in puzzles} == set(statuses)
