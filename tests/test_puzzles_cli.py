"""Tests of ``excover queens`` and ``excover sudoku``, run in-process through ``main``.

Printed boards and grids are checked against the rules; counts against OEIS A000170 and
the 288 grids of the 4x4 board; statuses against puzzles built to have them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from builders import COMBINE_DATA

from excover.main import main
from excover.puzzles import sudoku
from excover.puzzles.sudoku import _sudoku9, killer
from excover.puzzles.sudoku.files import PuzzleText, read_puzzles

SHARED = COMBINE_DATA / "sudoku_test.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_queens_prints_a_valid_board_and_svg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "q.svg"
    status, out, _ = run(capsys, "queens", "8", "--svg", str(svg))
    assert status == 0
    columns = [line.split().index("Q") for line in out.splitlines()]
    assert sorted(columns) == list(range(8))
    assert len({r + c for r, c in enumerate(columns)}) == 8
    assert len({r - c for r, c in enumerate(columns)}) == 8
    circles = [e for e in ElementTree.parse(svg).iter() if e.tag.endswith("circle")]
    assert len(circles) == 8


@pytest.mark.parametrize(("n", "expected"), [(6, 4), (9, 352)])  # OEIS A000170
def test_queens_count(capsys: pytest.CaptureFixture[str], n: int, expected: int) -> None:
    status, out, err = run(capsys, "queens", str(n), "--count")
    assert (status, out) == (0, f"{expected}\n") and err.startswith("excover: method ")
    status, out, _ = run(capsys, "queens", str(n), "--count", "--method", "zdd", "--json")
    result = json.loads(out)
    assert status == 0 and (result["count"], result["method"]) == (expected, "zdd")


def test_queens_without_placement(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "queens", "3", "--json")
    result = json.loads(out)
    assert status == 0 and (result["n"], result["solutions"], result["complete"]) == (3, [], True)
    assert err == ""


def test_sudoku_file_grid_and_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "s.svg"
    status, out, _ = run(capsys, "sudoku", str(SHARED), "--svg", str(svg))
    solution = out.strip()
    assert status == 0 and solution == sudoku.solve(SHARED.read_text())
    texts = [e.text for e in ElementTree.parse(svg).iter() if e.tag.endswith("text")]
    assert "".join(t or "" for t in texts) == solution  # every cell, row by row
    puzzle = "".join(SHARED.read_text().split())
    status, out, err = run(capsys, "sudoku", puzzle, "--classify")
    assert (status, out, err) == (0, "unique\n", "excover: method grid, compiled 9x9 core\n")


def test_sudoku_batch_file_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    puzzles = [sudoku.generate((2, 3), seed=k) for k in range(5)] + ["11" + "." * 34]
    path = tmp_path / "batch.txt"
    path.write_text("# six puzzles\n" + "\n".join(puzzles) + "\n")
    status, out, err = run(capsys, "sudoku", str(path), "--json")
    results = json.loads(out)["results"]
    assert status == 0 and [r["puzzle"] for r in results] == puzzles
    assert [r["solution"] for r in results] == sudoku.solve_many(puzzles)
    assert results[-1]["status"] == "none" and results[-1]["conflicts"] == [[0, 0], [0, 1]]
    assert "puzzle 6 has no solution: clashing givens at row 1 column 1" in err


def test_sudoku_count_and_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "sudoku", "." * 16, "--count")[:2] == (0, "288\n")
    full = sudoku.solve("." * 16)
    assert full is not None
    top = full[:8] + "." * 8  # the top two rows given: the bottom rows have choices
    status, out, _ = run(capsys, "sudoku", top, "--all")
    listed = out.split()
    assert status == 0 and len(listed) == len(set(listed)) == sudoku.count(top, None) > 1
    for grid in listed:  # each a full grid of the rules that keeps the givens
        assert grid.startswith(full[:8]) and sudoku.classify(grid) == "unique"


def test_sudoku_variants_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "sudoku", "." * 16, "--diagonal", "--count")
    assert (status, out) == (0, f"{sudoku.count('.' * 16, None, diagonal=True)}\n")
    status, out, _ = run(capsys, "sudoku", "." * 36, "--box", "3x2")
    assert status == 0 and sudoku.count(out.strip(), box=(3, 2)) == 1
    status, _, err = run(capsys, "sudoku", "." * 80 + "x")
    assert status == 2 and "row 9, column 9" in err
    status, _, err = run(capsys, "sudoku", "." * 81, "--box", "3by3")
    assert status == 2 and "3by3" in err


def test_read_puzzles_tells_a_grid_from_a_list() -> None:
    grid = SHARED.read_text()
    assert read_puzzles(grid) == [PuzzleText("\n".join(grid.split()), 1)]
    lines = [sudoku.generate(seed=k) for k in range(3)]
    found = read_puzzles("# three\n\n" + "\n".join(lines))
    assert found == [PuzzleText(p, k + 3) for k, p in enumerate(lines)]


def test_sixteen_4x4_puzzles_are_not_a_16x16_grid() -> None:
    fours = [sudoku.generate((2, 2), seed=k) for k in range(16)]
    assert [p.text for p in read_puzzles("\n".join(fours))] == fours
    sixteen = sudoku.generate((4, 4), seed=1)
    rows = [sixteen[k : k + 16] for k in range(0, 256, 16)]
    bare = "\n".join(rows)
    assert len(read_puzzles(bare)) == 16  # as documented: 16 cells make a 4x4 puzzle
    assert read_puzzles(bare, "grid") == [PuzzleText(bare, 1)]
    drawn = sudoku.format_grid(sixteen)  # blanks and bars between cells: a grid
    (only,) = read_puzzles(drawn)
    assert sudoku.parse(only.text, sudoku.SudokuBoard((4, 4))) == sudoku.parse(
        sixteen, sudoku.SudokuBoard((4, 4))
    )
    nine = sudoku.format_grid(lines_of_nine := sudoku.generate(seed=5))  # separator lines too
    (only,) = read_puzzles(nine)
    assert sudoku.solve(only.text) == sudoku.solve(lines_of_nine)
    assert len(read_puzzles(nine, "lines")) == 9


@pytest.mark.parametrize(
    ("text", "layout", "line", "message"),
    [
        ("# c\n" + "." * 81 + "\n" + "." * 40 + "x" + "." * 40 + "\n", "auto", 3, "'x' at row 5"),
        ("." * 81 + "\n\n" + "." * 80 + "\n", "auto", 3, "81 cells, not 80"),
        ("\n".join(["." * 9] * 8 + ["." * 8 + "x"]), "grid", 9, "'x' in column 9"),
        (
            "\n".join(["." * 9] * 4 + ["." * 8] + ["." * 9] * 4),
            "grid",
            5,
            "9 cells on each line, not 8",
        ),
    ],
)
def test_file_errors_name_the_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    text: str,
    layout: str,
    line: int,
    message: str,
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    flags = [] if layout == "auto" else ["--" + layout]
    status, out, err = run(capsys, "sudoku", str(path), *flags)
    assert status == 2 and out == ""
    assert err.startswith(f"{path}:{line}: ") and re.search(message, err)


def cages_4x4(grid: str) -> list[killer.Cage]:
    """Horizontal dominoes cut from ``grid``, with its sums."""
    return [
        (int(grid[k]) + int(grid[k + 1]), [divmod(k, 4), divmod(k + 1, 4)]) for k in range(0, 16, 2)
    ]


def test_killer_cages_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    grid = sudoku.solve("." * 16)
    assert grid is not None
    cages = cages_4x4(grid)
    path = tmp_path / "cages.txt"
    path.write_text(
        "# dominoes\n"
        + "\n".join(f"{t}: " + " ".join(f"r{r + 1}c{c + 1}" for r, c in p) for t, p in cages)
    )
    expected = killer.count(cages, (2, 2))
    status, out, _ = run(capsys, "sudoku", "." * 16, "--cages", str(path), "--count")
    assert (status, out) == (0, f"{expected}\n") and expected >= 1
    status, out, _ = run(capsys, "sudoku", "." * 16, "--cages", str(path), "--all", "--json")
    (result,) = json.loads(out)["results"]
    listed = [entry["grid"] for entry in result["solutions"]]
    assert sorted(listed) == sorted(killer.solutions(cages, (2, 2)))
    status, out, _ = run(capsys, "sudoku", "." * 16, "--cages", str(path))
    solution = out.strip()
    assert status == 0 and solution in listed
    assert sudoku.classify(solution) == "unique"  # a full grid of the rules
    status, out, _ = run(capsys, "sudoku", grid[:4] + "." * 12, "--cages", str(path), "--classify")
    assert (status, out) == (
        0,
        "unique\n" if killer.count(cages, (2, 2), grid[:4] + "." * 12) == 1 else "multiple\n",
    )
    path.write_text("3: r1c1 r1c2\n4: r1c2 r2c2\n")
    status, _, err = run(capsys, "sudoku", "." * 16, "--cages", str(path))
    assert status == 2 and err.startswith(f"{path}:2: cell r1c2 is already in the cage of line 1")


def test_jigsaw_regions_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    regions = "AABB\nACBB\nACDD\nCCDD\n"
    path = tmp_path / "regions.txt"
    path.write_text("# a jigsaw map\n" + regions)
    expected = sudoku.count("." * 16, None, regions=regions.replace("\n", ""))
    status, out, _ = run(capsys, "sudoku", "." * 16, "--regions", str(path), "--count")
    assert (status, out) == (0, f"{expected}\n")


def svg_texts(path: Path) -> list[str]:
    return [e.text or "" for e in ElementTree.parse(path).iter() if e.tag.endswith("text")]


def test_svg_of_every_puzzle_with_diagonals_and_cages(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    puzzles = [sudoku.generate((2, 2), seed=k, diagonal=True) for k in range(3)]
    source = tmp_path / "three.txt"
    source.write_text("\n".join(puzzles))
    out = tmp_path / "x.svg"
    status, _, _ = run(capsys, "sudoku", str(source), "--diagonal", "--classify", "--svg", str(out))
    assert status == 0 and not out.exists()
    for number, puzzle in enumerate(puzzles, 1):
        drawn = tmp_path / f"x-{number}.svg"
        assert "".join(svg_texts(drawn)) == sudoku.solve(puzzle, diagonal=True)
        lines = [e for e in ElementTree.parse(drawn).iter() if e.get("class") == "diagonal"]
        assert len(lines) == 2
    grid = sudoku.solve("." * 16)
    assert grid is not None
    cages = cages_4x4(grid)
    cage_file = tmp_path / "cages.txt"
    cage_file.write_text(
        "\n".join(
            f"{t}: r{p[0][0] + 1}c{p[0][1] + 1} r{p[1][0] + 1}c{p[1][1] + 1}" for t, p in cages
        )
    )
    single = tmp_path / "k.svg"
    status, out_text, _ = run(
        capsys, "sudoku", "." * 16, "--cages", str(cage_file), "--svg", str(single)
    )
    tree = ElementTree.parse(single)
    sums = [e.text for e in tree.iter() if e.get("class") == "cage-sum"]
    assert status == 0 and sums == [str(t) for t, _ in cages]
    digits = "".join(
        e.text or "" for e in tree.iter() if e.tag.endswith("text") and not e.get("class")
    )
    assert digits == out_text.strip()
    # A domino's outline: two long sides and two short ends, each inset in its cells.
    assert len([e for e in tree.iter() if e.get("class") == "cage"]) == 6 * len(cages)


#: Three classic puzzles (unique, several solutions, clashing givens) with a byte order
#: mark, a comment, a blank line and a CRLF ending among them: the plain-lines path
#: reads such a file.
PLAIN_LINES = (
    "\ufeff# a comment\r\n"
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1\r\n"
    "\n" + "." * 81 + "\n" + "55" + "." * 79 + "\n"
)


@pytest.mark.parametrize("mode", [[], ["--classify"]])
def test_plain_lines_print_what_the_general_path_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: list[str]
) -> None:
    path = tmp_path / "plain.txt"
    path.write_bytes(PLAIN_LINES.encode())
    fast = run(capsys, "sudoku", str(path), *mode)
    # trailing blanks after a puzzle: only the general reader takes them
    general_text = PLAIN_LINES.replace("\r\n\n", "   \r\n\n")
    assert _sudoku9.count_plain_lines(PLAIN_LINES.encode()) == 3
    assert _sudoku9.count_plain_lines(general_text.encode()) == -1
    path_general = tmp_path / "general.txt"
    path_general.write_bytes(general_text.encode())
    general = run(capsys, "sudoku", str(path_general), *mode)
    assert fast[0] == general[0] == 0
    assert fast[1] == general[1]
    lines = PLAIN_LINES.lstrip("\ufeff").splitlines()
    puzzles = [ln for ln in lines if ln.strip() and not ln.startswith("#")]
    if mode:
        assert fast[1].split() == [sudoku.classify(p) for p in puzzles]
    else:
        assert fast[1].split() == [sudoku.solve(p) or "none" for p in puzzles]
    # the clashing puzzle is reported, by its number among the puzzles, on both paths
    assert "puzzle 3 has no solution: clashing givens at row 1 column 1" in fast[2]
    assert fast[2] == general[2]
    assert "compiled 9x9 core" in fast[2]


def test_a_bad_line_sends_the_file_to_the_general_path_and_its_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("." * 81 + "\n" + "." * 80 + "x\n")
    status, out, err = run(capsys, "sudoku", str(path))
    assert (status, out) == (2, "")  # nothing printed before the error
    assert f"{path}:2" in err and "'x'" in err


@pytest.mark.parametrize(
    ("text", "puzzles"),
    [
        ("", 0),
        ("\n\n  \t\n# only comments\n", 0),
        ("." * 81, 1),  # no final newline
        ("." * 81 + "\r\n" + "." * 81 + "\n", 2),
        ("." * 80 + "\n", -1),
        ("." * 82 + "\n", -1),
        ("." * 81 + " \n", -1),  # trailing blank: the general reader's
        ("\u00e9" + "." * 80 + "\n", -1),
        ("# caf\u00e9\n" + "." * 81, -1),  # non-ASCII comment: the general reader's
        ("." * 40 + "\r" + "." * 40 + "\n", -1),
        ("a" * 81 + "\n", -1),
    ],
)
def test_which_files_the_plain_lines_path_reads(text: str, puzzles: int) -> None:
    data = text.encode()
    assert _sudoku9.count_plain_lines(data) == puzzles
    if puzzles > 0:
        out, at, done, unsolvable = _sudoku9.run_lines(data, 0, 1, True)
        assert (out, done, unsolvable) == (b"multiple\n", 1, [])
        assert 0 < at <= len(data)
        rest = _sudoku9.run_lines(data, at, 10, False)
        assert rest[2] == puzzles - 1 and rest[1] == len(data)


@pytest.mark.parametrize(
    "argv",
    [
        ["sudoku", "--help"],
        ["sudoku", "--no-such-flag"],
        ["sudoku", "x", "--difficulty", "y"],
        ["queens", "--help"],
        ["queens", "eight"],
    ],
)
def test_a_run_of_sudoku_or_queens_reads_its_flags_as_the_whole_parser_does(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Their runs build only their own parser (start-up): help and errors are the same."""
    from excover.main import build_parser

    printed = []
    for only in (None, argv[0]):
        with pytest.raises(SystemExit) as stop:
            build_parser(only).parse_args(argv)
        printed.append((stop.value.code, *capsys.readouterr()))
    assert printed[0] == printed[1]
    assert printed[0][1] or printed[0][2]  # something was said


# ----- the digits of sudoku puzzles


def hexadecimal_puzzle() -> tuple[str, str]:
    """A 16x16 puzzle written 0-F with '.' blanks, and its solution in 0-F."""
    puzzle = sudoku.generate((4, 4), seed=1)
    solution = sudoku.solve(puzzle)
    assert solution is not None
    to_hex = str.maketrans(sudoku.SYMBOLS[:16], "0123456789ABCDEF")
    return puzzle.translate(to_hex), solution.translate(to_hex)


def test_sudoku_reads_a_hexadecimal_puzzle_with_0_as_a_digit_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    puzzle, solution = hexadecimal_puzzle()
    status, out, err = run(capsys, "sudoku", puzzle)
    assert (status, out) == (0, solution + "\n")
    assert "excover: warning: read as digits 0-F" in err and "--digits 1-G" in err
    status, out, err = run(capsys, "sudoku", puzzle, "--digits", "0-F")
    assert (status, out) == (0, solution + "\n") and "warning" not in err
    path = tmp_path / "hex.txt"
    path.write_text(puzzle + "\n" + puzzle + "\n")
    status, out, err = run(capsys, "sudoku", str(path), "--json")
    document = json.loads(out)
    assert status == 0 and document["digits"] == "0123456789ABCDEF"
    assert [r["solution"] for r in document["results"]] == [solution, solution]
    assert err.count("warning") == 1  # once for the file, not once per puzzle
    status, out, _ = run(capsys, "sudoku", puzzle, "--digits", "0-F", "--all", "--method", "search")
    assert (status, out) == (0, solution + "\n")
    status, out, _ = run(capsys, "sudoku", puzzle, "--digits", "0-F", "--pretty")
    assert status == 0 and out.split("\n")[0].replace(" ", "").replace("|", "") == solution[:16]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--digits", "1-9"], "'1-9' are 9 symbols: a 16x16 board needs 16"),
        (["--digits", "0-F", "--generate", "1"], "--digits reads puzzles"),
    ],
)
def test_sudoku_digits_that_do_not_apply_are_refused(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    puzzle, _ = hexadecimal_puzzle()
    argv = extra if "--generate" in extra else [puzzle, *extra]
    status, out, err = run(capsys, "sudoku", *argv)
    assert (status, out) == (2, "") and message in err
