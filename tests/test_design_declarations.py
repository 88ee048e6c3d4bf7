"""Bad declarations of design searches give clear errors: each names the field at fault
(the flag that gave it on the command line) and, in a declaration file, the file and
line where it was written; the command line reports them with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from excover.design import (
    DeclarationError,
    DesignError,
    Goal,
    GoalError,
    SearchProgress,
    parse_declaration,
    read_declaration,
    search,
)
from excover.errors import ExcoverError, UsageError
from excover.main import main
from excover.tiling.designs import BoardSpace, PackingSpace, declared_space

FILE = """\
kind = "packing"
board = "5x4"
catalog = "pentominoes"
pieces = 4

[goal]
solutions = "unique"
top = 3
"""


def declared(text: str) -> tuple[object, Goal]:
    declaration = parse_declaration(text, "run.toml")
    return declared_space(declaration), Goal.from_table(declaration.goal)


def test_a_good_declaration_declares_the_space_and_the_goal() -> None:
    space, goal = declared(FILE)
    assert isinstance(space, PackingSpace) and space.size == 495
    assert goal == Goal(solutions=1, top=3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("pieces = 4", 'pieces = "four"'),
            "run.toml:4: pieces: must be a whole number >= 1, not 'four'",
        ),
        (
            ("pieces = 4", "pieces = 13"),
            "run.toml:4: pieces: 13 pieces cannot be chosen from 12, each at most once",
        ),
        (
            ("pieces = 4", "pieces = 4\ncopies = 0"),
            "run.toml:5: copies: must be a whole number >= 1, not 0",
        ),
        (("pieces = 4", "pieces = 4\ncolour = true"), "run.toml:5: colour: is not a field here"),
        (("pieces = 4\n", ""), "run.toml: pieces: is required"),
        (('board = "5x4"', 'board = "5x0"'), "run.toml:2: board: a box has sizes >= 1, not '5x0'"),
        (
            ('board = "5x4"', 'board = "5x4x2"'),
            "run.toml:2: board: '5x4x2' is a box in space, and the pieces are flat",
        ),
        (
            ('board = "5x4"', 'board = "**\\n*+"'),
            "run.toml:2: board: board:2: unexpected character '+'",
        ),
        (
            ('catalog = "pentominoes"', 'catalog = "pentominos"'),
            "run.toml:3: catalog: unknown catalog 'pentominos'",
        ),
        (
            ('catalog = "pentominoes"', "catalog = 5"),
            "run.toml:3: catalog: must be a catalog's name or a table",
        ),
        (
            ('catalog = "pentominoes"', 'catalog = "pentominoes"\nturn = "mirror"'),
            "run.toml:4: turn: must be one of all, rotations, none, not 'mirror'",
        ),
        (("top = 3", "top = 0"), "run.toml:8: goal.top: must be a whole number >= 1, not 0"),
        (
            ('solutions = "unique"', 'solutions = "one"'),
            "run.toml:7: goal.solutions: must be 'unique', 'any' or a whole number >= 1",
        ),
        (
            ("top = 3", 'top = 3\norder = "up"'),
            "run.toml:9: goal.order: must be one of high, low, not 'up'",
        ),
        (
            ("top = 3", "top = 3\nup_to_symmetry = 1"),
            "run.toml:9: goal.up_to_symmetry: must be true or false, not 1",
        ),
        (("top = 3", "top = 3\nwinner = 1"), "run.toml:9: goal.winner: is not a field here"),
    ],
)
def test_each_bad_field_is_named_with_its_line(change: tuple[str, str], message: str) -> None:
    text = FILE.replace(*change)
    assert text != FILE
    with pytest.raises(DeclarationError) as caught:
        declared(text)
    assert str(caught.value).startswith(message), str(caught.value)
    assert isinstance(caught.value, UsageError)


def test_goal_errors_are_goal_errors_naming_the_field() -> None:
    for fields, name in [
        ({"solutions": 0}, "solutions"),
        ({"top": 0}, "top"),
        ({"by": ""}, "by"),
        ({"order": "sideways"}, "order"),
        ({"up_to_symmetry": "yes"}, "up_to_symmetry"),
    ]:
        with pytest.raises(GoalError) as caught:
            Goal(**fields)  # type: ignore[arg-type]
        assert caught.value.field == name and str(caught.value).startswith(f"{name}: ")
    space = PackingSpace(board="5x4", catalog="pentominoes", pieces=4)
    with pytest.raises(
        GoalError, match=r"^by: names no score of these designs \(their scores: solutions, nodes\)"
    ):
        search(space, Goal(by="level"))
    declaration = parse_declaration(FILE.replace("top = 3", 'by = "level"'), "run.toml")
    with pytest.raises(GoalError, match=r"^run\.toml:8: goal\.by: names no score"):
        Goal.from_table(declaration.goal).check_scores(space.scores, declaration.goal)


def test_a_file_that_is_no_toml_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('kind = "packing"\nboard = 5x4\n')
    with pytest.raises(DesignError, match=r"bad\.toml: not a TOML declaration: .*line 2"):
        read_declaration(path)
    with pytest.raises(DesignError, match="cannot read"):
        read_declaration(tmp_path / "missing.toml")
    with pytest.raises(DeclarationError, match=r"^run\.toml:1: goal: must be a table"):
        parse_declaration('goal = 3\nkind = "packing"\n', "run.toml")
    with pytest.raises(DeclarationError, match=r"^run\.toml: kind: is required"):
        parse_declaration('board = "5x4"\n', "run.toml")


def test_drawn_catalogs_are_checked_piece_by_piece() -> None:
    base = 'kind = "packing"\nboard = "4x2"\npieces = 2\n[catalog]\n'
    space, _ = declared(base + 'A = "**\\n**"\nB = "****"\n')
    assert isinstance(space, PackingSpace) and space.names == ["A", "B"]
    with pytest.raises(
        DeclarationError, match=r"^run\.toml:4: catalog: piece 'B' is piece 'A' moved \(all\)"
    ):
        declared(base + 'A = "***\\n*.."\nB = "***\\n..*"\n')
    with pytest.raises(
        DeclarationError, match=r"catalog: piece name 'a b': letters, digits and _ only"
    ):
        declared(base + '"a b" = "**"\n')
    with pytest.raises(DeclarationError, match=r"catalog: piece 'A' has no cells"):
        declared(base + 'A = "..."\n')


def test_boards_declarations() -> None:
    space = BoardSpace(catalog="pentominoes", use=["L", "P"])
    assert space.cells == 10
    with pytest.raises(DeclarationError, match=r"^<api>: use: no piece 'Q' in the catalog"):
        BoardSpace(catalog="pentominoes", use=["L", "Q"])
    with pytest.raises(
        DeclarationError, match="use: the pieces have 15 cells: boards of at most 12"
    ):
        BoardSpace(catalog="pentominoes", use=["L", "P", "Y"])
    with pytest.raises(DeclarationError, match="use: must be a list of piece names"):
        BoardSpace(catalog="pentominoes", use="L")  # type: ignore[arg-type]


def test_the_search_refuses_bad_arguments() -> None:
    space = PackingSpace(board="5x4", catalog="pentominoes", pieces=4)
    for keywords, message in [
        ({"workers": 0}, "workers must be a positive integer"),
        ({"timeout": -1}, "timeout must be None or a number of seconds >= 0"),
        ({"start": 10, "stop": 5}, r"start \(10\) is after stop \(5\)"),
        ({"stop": 496}, "stop must be an index from 0 to 495"),
    ]:
        with pytest.raises(ExcoverError, match=message):
            search(space, **keywords)  # type: ignore[arg-type]
    with pytest.raises(DesignError, match="search needs a DesignSpace"):
        search("packing")  # type: ignore[arg-type]
    with pytest.raises(DesignError, match="the goal must be a Goal"):
        search(space, {"solutions": 1})  # type: ignore[arg-type]


def test_progress_is_told_to_the_end() -> None:
    seen: list[SearchProgress] = []
    space = PackingSpace(board="5x4", catalog="pentominoes", pieces=4)
    search(space, progress=seen.append)
    assert seen and seen[-1].done == seen[-1].total == 495
    assert seen[-1].designs == 495 and seen[-1].qualifying == 9
    assert [p.done for p in seen] == sorted(p.done for p in seen)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["packing", "--board", "5x4", "--catalog", "pentominos", "--pieces", "4"],
            "excover: <command line>: --catalog: unknown catalog 'pentominos'",
        ),
        (
            ["packing", "--board", "5x4", "--catalog", "pentominoes"],
            "excover: <command line>: --pieces: is required",
        ),
        (
            [
                "packing",
                "--board",
                "5x4",
                "--catalog",
                "pentominoes",
                "--pieces",
                "4",
                "--use",
                "L",
            ],
            "excover: <command line>: --use: is not a field here",
        ),
        (
            [
                "packing",
                "--board",
                "5x4",
                "--catalog",
                "pentominoes",
                "--pieces",
                "4",
                "--goal",
                "one",
            ],
            "excover: <command line>: --goal: must be 'unique', 'any' or a whole number",
        ),
        (
            [
                "packing",
                "--board",
                "5x4",
                "--catalog",
                "pentominoes",
                "--pieces",
                "4",
                "--by",
                "level",
            ],
            "excover: <command line>: --by: names no score of these designs",
        ),
        (
            [
                "packing",
                "--board",
                "5x4",
                "--catalog",
                "pentominoes",
                "--pieces",
                "4",
                "--limit",
                "2",
            ],
            "excover: --limit does not apply to design: the goal says how many solutions count",
        ),
        (
            ["nothing.toml"],
            "excover: no declaration file 'nothing.toml', and no kind of design of that name",
        ),
    ],
)
def test_the_command_line_names_the_bad_flag(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status = main(["design", *argv])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith(message), err


def test_a_file_with_declaration_flags_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "run.toml"
    path.write_text(FILE)
    assert main(["design", str(path), "--pieces", "3"]) == 2
    assert (
        f"excover: --pieces goes with a kind (packing, boards, burrs); {path} declares the design"
        in capsys.readouterr().err
    )
    path.write_text(FILE.replace('"packing"', '"burr"'))
    assert main(["design", str(path)]) == 2
    assert f"excover: {path}:1: kind: no kind of design 'burr'" in capsys.readouterr().err
    path.write_text(FILE + "\n[run]\nworkers = 0\n")
    assert main(["design", str(path)]) == 2
    assert f"{path}:11: run.workers: must be a whole number >= 1, not 0" in capsys.readouterr().err
