"""A tiling given as a board file of '#' cells and a pieces file of [row, col] lists, in the
API (``Tiling.from_files``) and on the command line (``BOARD --pieces PIECES``).

Rows grow downward in both files, so a piece drawn like the board fits it without a
reflection; identical pieces are interchangeable; bad files are refused with the line
at fault.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from excover import ExcoverError, FormatError
from excover.main import main
from excover.tiling import Pattern, Tile, Tiling
from excover.tiling.files import MAX_SPAN, parse_pieces

L = "L: [[0,0],[1,0],[2,0],[2,1]]\n"
L_SHAPE = "#.\n#.\n##\n"  # the L drawn as its [row, col] cells say
J_SHAPE = ".#\n.#\n##\n"  # its mirror image


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def test_rows_grow_downward_as_in_the_board() -> None:
    """Without reflections the L fits the L-shaped board and not the J-shaped one."""
    assert Tiling.from_text(L_SHAPE, L, reflections=False).count() == 1
    assert Tiling.from_text(J_SHAPE, L, reflections=False).count() == 0
    assert Tiling.from_text(J_SHAPE, L).count() == 1


def test_the_same_tiling_as_built_by_hand(tmp_path: Path) -> None:
    board = "###.\n####\n####\n.###\n"
    pieces = "[[0,0],[0,1],[1,1]]\nT: [[0,0],[0,1],[0,2],[1,1]]\n  \n# a comment\n[[0,0],[1,0]]\n"
    tiling = Tiling.from_files(write(tmp_path, "b.txt", board), write(tmp_path, "p.txt", pieces))
    by_hand = Tiling(
        Pattern.from_ascii(board),
        [
            Tile("**\n.*", "P0"),
            Tile("***\n.*.", "T"),
            Tile("*\n*", "P2"),
        ],
        interchangeable=True,
    )
    assert [t.name for t in tiling.tiles] == ["P0", "T", "P2"]
    assert tiling.problem == by_hand.problem


@pytest.mark.parametrize("multiplicity", ["one", "maybe", "any"])
def test_identical_pieces_are_interchangeable(multiplicity: str) -> None:
    """Two copies of the L tile the 4x2 board in the two ways one copy 'any' times does."""
    twice = Tiling.from_text("##\n##\n##\n##\n", L + "K: [[0,1],[1,1],[2,1],[2,0]]\n")
    any_number = Tiling.from_text("##\n##\n##\n##\n", L, multiplicity="any")
    assert twice.count() == any_number.count() == 2
    once = Tiling.from_text("##\n##\n##\n##\n", L, multiplicity=multiplicity)
    assert once.count() == (2 if multiplicity == "any" else 0)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("L [[0,0]]\n", 1, "a piece is a list of"),
        ("\n[[0,0],[0,1]\n", 2, r"piece 'P0': not a JSON list"),
        (
            "A: [[0,0]]\nA: [[0,0],[0,1]]\n",
            2,
            r"a second piece named 'A' \(the first is on line 1\)",
        ),
        ("[[0,0],[0,0]]\n", 1, r"the cell \[0, 0\] is listed twice"),
        ("[[0,0],[0,1.5]]\n", 1, r"the cell \[0, 1.5\] is not a \[row, col\] pair"),
        ("[[0,true]]\n", 1, "is not a"),
        ("[]\n", 1, "non-empty list"),
        (f"[[0,0],[{MAX_SPAN},0]]\n", 1, f"span more than {MAX_SPAN}"),
        ("[" * 100_000 + "]" * 100_000 + "\n", 1, "not a JSON list"),
    ],
)
def test_bad_pieces_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=message) as caught:
        parse_pieces(text, "p.txt")
    assert (caught.value.source, caught.value.line) == ("p.txt", line)


def test_bad_boards_and_files() -> None:
    with pytest.raises(FormatError, match=r"b\.txt:2: unexpected character 'x'"):
        Tiling.from_text("##\n#x\n", L, board_source="b.txt")
    with pytest.raises(FormatError, match="has no '#' cell"):
        Tiling.from_text("..\n", L)
    with pytest.raises(FormatError, match="no pieces"):
        parse_pieces("# only a comment\n")
    with pytest.raises(ExcoverError, match="cannot read"):
        Tiling.from_files("/nonexistent/board", "/nonexistent/pieces")


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "board.txt", "##\n##\n##\n##\n")
    pieces = write(tmp_path, "pieces.txt", L)
    assert main(["count", board, "--pieces", pieces, "--multiplicity", "any"]) == 0
    assert capsys.readouterr().out == "2\n"
    flags = ["--multiplicity", "any", "--no-reflections"]
    assert main(["count", board, "--pieces", pieces, *flags]) == 0
    assert capsys.readouterr().out == "1\n"
    assert main(["solve", board, "--pieces", pieces, *flags]) == 0
    assert capsys.readouterr().out == "solution 1:\nBB\nAB\nAB\nAA\n"
    assert main(["dimacs", board, "--pieces", pieces, "--multiplicity", "any"]) == 0
    assert "c excover items 0,0 0,1" in capsys.readouterr().out
    assert main(["estimate", board, "--pieces", pieces, "--multiplicity", "any"]) == 0
    assert capsys.readouterr().out.startswith("solutions: 2\n")  # a tree this small: exact
    assert main(["count", board, "--no-reflections"]) == 2
    assert "--no-reflections needs --pieces" in capsys.readouterr().err
    bad = write(tmp_path, "bad.txt", "L: [[0,0],[0,0]]\n")
    assert main(["count", board, "--pieces", bad]) == 2
    assert "bad.txt:1: piece 'L': the cell [0, 0] is listed twice" in capsys.readouterr().err
