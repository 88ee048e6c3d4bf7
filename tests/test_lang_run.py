"""Running .cmb programs: the output of every statement (golden), the extensions, the
run-time errors, and the ``excover run`` command (exit status, caret reports, --json,
--parse-only, stdin)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from runs import ended

from excover import ExactCover
from excover.lang import Interpreter, LangError, Permissions, parse
from excover.lang.sandbox import SAFE
from excover.main import main
from excover.sat.cnf import CNF
from excover.tiling import Pattern, Tile, Tiling


def run(
    text: str, debug: bool = False, timing: bool = False, permissions: Permissions = SAFE
) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    interpreter = Interpreter(out, err, debug=debug, timing=timing, permissions=permissions)
    interpreter.run(parse(text, "t.cmb"))
    return out.getvalue(), err.getvalue()


def output(text: str, debug: bool = False, timing: bool = False) -> str:
    return run(text, debug, timing)[0]


#: What a program running an outside solver needs.
EXTERNAL = Permissions(allow_external=True)


RING = "pattern ring = {\n***\n*.*\n***\n}\npattern domino = {**}\n"


def test_art_follows_combines_rules() -> None:
    text = (
        "pattern a = { * * # a comment inside a pattern }\n *.$ \t $$ .**}\n"
        "pattern b = {**\n*.\n.**}\n"
        "assert a = b\n"
        "pattern c = {\n\n***\n}\nassert c = constant 3x1 true\n"
        "pattern d = {x*o}\nassert d = set constant 3x1 false 1x0 true\n"
        "assert shift {*} 2x1 = {..*$...}\n"
        "pattern e = {}\nassert e = constant 0x0 true\n"
    )
    assert output(text) == ""


def test_pattern_operations_follow_the_tiling_library() -> None:
    text = (
        "pattern a = {\n**.\n.**\n}\n"
        "assert set a 0x0 true = {**.$***}\n"  # y counted from the bottom
        "assert crop 1x0 2x2 a = {*.$**}\n"
        "assert shift a 1x1 = {.**.$..**$....}\n"  # the frame grows (combine dropped cells)
        "assert shift a 0x0 = a\n"
        "assert shift a 5x0 = {.....**.$......**}\n"
        "assert resize a 2x3 = {..$**$.*}\n"
        "assert apply Rot90 a = {.*$**$*.}\n"
        "assert apply VertRefl a = {.**$**.}\n"
        "assert a - {..*} = {**.$.*.}\n"
        "assert a && {***} = {...$.**}\n"
        "assert union a {***} = {**.$***}\n"
        "assert a ^ {***} = {**.$*..}\n"
        "assert constant 2x2 false = {..$..}\n"
    )
    assert output(text) == ""
    a = Pattern.from_ascii("**.\n.**")
    assert a.apply(next(g for g in a.grid.isometries if g.name == "Rot90")) == Pattern.from_ascii(
        ".*\n**\n*."
    )


def test_print_shows_board_tiles_options_and_symmetry_groups() -> None:
    text = RING + "problem p = ring [domino ~sym, {*} ~maybe ~rot, domino ~2..3]\nprint p\n"
    assert output(text) == (
        'problem "p"\n***\n*.*\n***\n'
        'tile "domino" ~sym\n**\n{ Id, Rot180, VertRefl, HorizRefl }\n'
        'tile "#2" ~maybe ~rot\n*\n{ Id, Rot90, Rot180, Rot270, VertRefl, HorizRefl, '
        "Diag1Refl, Diag2Refl }\n"
        'tile "domino#2" ~2..3\n**\n{ Id, Rot180, VertRefl, HorizRefl }\n'
    )


def test_count_with_every_method() -> None:
    text = RING + "problem p = ring [domino ~sym]\n"
    text += "".join(f"count {m} p\n" for m in ("dlx", "zdd", "auto", 'sat "cadical"'))
    text += "count dlx p ~up_to_symmetry\n"
    assert output(text) == (
        "p : (DLX) 2 solutions\np : (ZDD) 2 solutions\np : (AUTO) 2 solutions\n"
        "p : (SAT) 2 solutions\np : (DLX) 1 solutions up to symmetry\n"
    )


def test_counts_agree_with_the_tiling_library_on_a_larger_board() -> None:
    text = "pattern d = {**}\nproblem p = constant 6x5 true [d ~sym, {***} ~rot]\ncount dlx p\n"
    expected = Tiling(
        Pattern.constant(6, 5),
        [Tile("**", "d", "any", "all"), Tile("***", "t", "any", "rotations")],
    ).count("search")
    assert output(text) == f"p : (DLX) {expected} solutions\n"


def test_solve_prints_one_tiling_or_says_there_is_none() -> None:
    text = RING + "problem p = ring [domino ~sym]\nsolve dlx p ascii\n"
    text += "problem q = ring [domino]\nsolve zdd q ascii\n"
    out = output(text)
    picture, rest = out.split("\n\n")
    assert rest == 'problem "q" has no solution\n'
    rows = picture.split("\n")
    assert len(rows) == 3 and rows[1][1] == " "
    symbols = "".join(rows).replace(" ", "")
    assert len(symbols) == 8 and all(symbols.count(c) == 2 for c in symbols)  # 4 dominoes


def test_solve_writes_svg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where a program may write
    target = tmp_path / "out.svg"
    text = RING + f'problem p = ring [domino ~sym]\nsolve dlx p svg "{target}"\n'
    assert output(text) == f'SVG written in file "{target}"\n'
    assert target.read_text().startswith("<svg")


def canonical(picture: str) -> str:
    """A tiling's picture with its symbols renamed in order of first appearance."""
    names: dict[str, str] = {}
    for char in picture:
        if char not in " .\n" and char not in names:
            names[char] = chr(ord("a") + len(names))
    return "".join(names.get(char, char) for char in picture)


def test_all_lists_every_tiling_then_their_number() -> None:
    text = RING + "problem p = ring [domino ~sym]\nall dlx p\nall zdd p ~up_to_symmetry\n"
    first, second, middle, last = output(text).split("\n\n")
    assert first != second
    count, representative = middle.split("\n", 1)
    assert count == '2 solutions found for problem "p"'
    assert canonical(representative) in (canonical(first), canonical(second))
    assert last == '1 solutions found for problem "p"\n'


def test_sat_lists_and_solves_too() -> None:
    text = RING + 'problem p = ring [domino ~sym]\nall sat "cadical" p\n'
    text += 'solve sat "minisat22" p ascii\ncount sat "cadical" p ~up_to_symmetry\n'
    out = output(text)
    assert '2 solutions found for problem "p"' in out
    assert out.endswith("p : (SAT) 1 solutions up to symmetry\n")


#: A SAT solver in combine's convention (``CMD INPUT OUTPUT``, MiniSat's answer format)
#: that tries every assignment: for the tiny formulas of these tests.
FAKE_MINISAT = """\
import itertools, sys
clauses, n = [], 0
for line in open(sys.argv[1]):
    if line.startswith("p"):
        n = int(line.split()[2])
    elif line.strip() and not line.startswith("c"):
        clauses.append([int(x) for x in line.split()[:-1]])
for bits in itertools.product([False, True], repeat=n):
    if all(any(bits[abs(v) - 1] == (v > 0) for v in c) for c in clauses):
        model = [i + 1 if b else -(i + 1) for i, b in enumerate(bits)]
        open(sys.argv[2], "w").write("SAT\\n" + " ".join(map(str, model)) + " 0\\n")
        break
else:
    open(sys.argv[2], "w").write("UNSAT\\n")
"""


def test_solve_with_a_solver_command_in_combines_convention(tmp_path: Path) -> None:
    solver = tmp_path / "fake_minisat.py"
    solver.write_text(FAKE_MINISAT)
    command = f"{sys.executable} {solver}"
    text = RING + f'problem p = ring [domino ~sym]\nsolve sat "{command}" p ascii\n'
    text += f'problem q = {{***}} [domino]\nsolve sat "{command}" q ascii\n'
    picture, rest = run(text, permissions=EXTERNAL)[0].split("\n\n")
    assert canonical(picture) in ("aab\nc b\ncdd", "abb\na c\nddc")
    assert rest == 'problem "q" has no solution\n'
    silent = tmp_path / "silent.py"
    silent.write_text("print('no answer')")
    with pytest.raises(LangError, match=r"t.cmb:8:7: .* wrote no answer \(exit status 0\)"):
        text = f'problem p = ring [domino ~sym]\nsolve sat "{sys.executable} {silent}" p ascii'
        run(RING + text, permissions=EXTERNAL)
    with pytest.raises(LangError, match=r"or a command on the PATH \(none is 'nosuch'\)"):
        run(RING + 'problem p = ring [domino ~sym]\nsolve sat "nosuch" p ascii')


def test_dimacs_writes_the_sat_encoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where a program may write
    target = tmp_path / "p.cnf"
    text = RING + f'problem p = ring [domino ~sym, {{*}} ~maybe]\ndimacs p "{target}"\n'
    assert output(text) == ""
    problem = ExactCover.from_cnf(CNF.read_dimacs(str(target)))
    expected = Tiling(
        Pattern.from_ascii("***\n*.*\n***"),
        [Tile("**", "domino", "any", "all"), Tile("*", "#2", "maybe", "none")],
    ).problem
    assert isinstance(problem, ExactCover)
    assert problem.count("search") == expected.count("search") == 2


def test_debug_prints_the_exact_cover_size_and_the_zdd_size() -> None:
    text = RING + "problem p = ring [domino ~sym, {*} ~maybe]\ncount zdd p\nsolve dlx p ascii\n"
    out, err = run(text, debug=True)
    size = "EMC size is 16 rows x 9 columns, with 8 primary columns\n"
    assert out.startswith(size + "p : (ZDD) 2 solutions\n" + size)
    assert re.fullmatch(r"ZDD has size \d+\n", err)
    assert output("debug on\ndebug off\n" + RING + "problem p = ring [domino]\ncount dlx p") == (
        "p : (DLX) 0 solutions\n"
    )


def test_timing_prints_the_time_of_each_command() -> None:
    text = RING + "timing on\nproblem p = ring [domino ~sym]\ncount dlx p\nsolve dlx p ascii\n"
    text += "all dlx p\ntiming off\ncount dlx p\n"
    lines = output(text).split("\n")
    assert re.fullmatch(r"p solutions counted in \d+\.\d{6}s", lines[1])
    assert re.fullmatch(r'"p" solved in \d+\.\d{6}s', lines[2])
    assert re.fullmatch(r'"p" solved in \d+\.\d{6}s', lines[-3])
    assert lines[-2] == "p : (DLX) 2 solutions"
    assert output(text.replace("timing on", ""), timing=True).count("counted in") == 1


def test_exit_stops_the_program() -> None:
    text = RING + "problem p = ring [domino ~sym]\ncount dlx p\nexit\ncount zdd p\n"
    assert output(text) == "p : (DLX) 2 solutions\nexit\n"


def test_assert() -> None:
    assert output("assert true\npattern a = {*}\nassert a = {*}\n") == ""
    with pytest.raises(LangError, match=r"t.cmb:1:12: assertion failed"):
        run("assert {*} = {*.}")  # equal patterns have equal frames too
    with pytest.raises(LangError, match=r"t.cmb:1:8: assertion failed"):
        run("assert false")
    with pytest.raises(LangError, match=r"t.cmb:2:10: assertion failed"):
        run("pattern a = {*}\nassert a = {**}")
    with pytest.raises(LangError, match=r"assertion failed"):
        run("pattern a = {*}\nassert a = hex{*}")


def test_multiplicity_ranges() -> None:
    text = "pattern d = {**}\npattern m = {*}\n"
    text += "problem two = constant 4x1 true [d, m ~2]\ncount dlx two\n"
    text += "problem some = constant 3x1 true [d, m ~1..]\ncount dlx some\n"
    text += "problem many = constant 3x1 true [d, m ~2..]\ncount zdd many\n"
    text += "problem few = constant 4x1 true [d ~0..1, m]\ncount dlx few\n"
    assert output(text) == (
        "two : (DLX) 3 solutions\nsome : (DLX) 3 solutions\nmany : (ZDD) 1 solutions\n"
        "few : (DLX) 4 solutions\n"
    )


def test_tiles_limited_to_a_subgroup_of_the_square() -> None:
    text = "pattern l = {**$*.}\n"
    text += "".join(
        f"problem {g} = constant 2x2 true [l ~{g}, {{*}}]\ncount dlx {g}\n"
        for g in ("rot180", "vertical", "horizontal", "diag1", "diag2", "axes", "diagonals")
    )
    text += "problem full = constant 2x2 true [l ~sym, {*}]\ncount dlx full\n"
    # one placement of the L per distinct orientation in the 2x2 box, plus all monominoes;
    # the L drawn here is symmetric about the diagonal of Diag2Refl
    assert output(text).split("\n")[:-1] == [
        "rot180 : (DLX) 3 solutions", "vertical : (DLX) 3 solutions",
        "horizontal : (DLX) 3 solutions", "diag1 : (DLX) 3 solutions",
        "diag2 : (DLX) 2 solutions", "axes : (DLX) 5 solutions",
        "diagonals : (DLX) 3 solutions", "full : (DLX) 5 solutions",
    ]  # fmt: skip
    with pytest.raises(LangError, match=r"t.cmb:1:23: tile '#1': unknown symmetry 'axes'"):
        run("problem q = hex{* *} [hex{*} ~axes]")


def test_interchangeable_identical_tiles() -> None:
    text = "pattern d = {**}\nproblem p = constant 2x2 true [d ~one ~sym, d ~one ~sym]\n"
    text += "count dlx p\nproblem q = constant 2x2 true [d ~one ~sym, d ~one ~sym] "
    text += "~interchangeable\ncount dlx q\n"
    assert output(text) == "p : (DLX) 4 solutions\nq : (DLX) 2 solutions\n"


def test_a_tile_larger_than_the_board() -> None:
    text = "pattern big = {***}\nproblem p = constant 2x1 true [big ~maybe, {*}]\ncount dlx p\n"
    text += "problem q = constant 2x1 true [big ~one, {*}]\ncount dlx q\nsolve dlx q ascii\n"
    text += "all zdd q\n"
    assert output(text) == (
        'p : (DLX) 1 solutions\nq : (DLX) 0 solutions\nproblem "q" has no solution\n'
        '0 solutions found for problem "q"\n'
    )
    # dimacs writes an unsatisfiable formula (see test_lang_review.py)


def test_3d_problems() -> None:
    text = (
        "pattern3 bar = [{**}]\npattern3 box = [constant 2x2 true, constant 2x2 true]\n"
        "tiles3 bars = [bar ~rot]\nproblem3 b = box bars\ncount3 dlx b\n"
        "count3 zdd b ~up_to_symmetry\nsolve3 dlx b ascii\nall3 dlx b\nprint b\n"
        "problem3 c = box [bar]\ncount3 dlx c\n"
    )
    out = output(text)
    # a 2x2x2 box holds 9 tilings by 1x1x2 bars: 3 with parallel bars, 6 with two slabs
    # of crossed bars; 2 up to symmetry
    assert out.startswith("b : (DLX) 9 solutions\nb : (ZDD) 2 solutions up to symmetry\n")
    assert '9 solutions found for problem "b"' in out
    assert 'problem "b"\n** **\n** **\ntile "bar" ~rot\n**\n' in out
    assert out.endswith("c : (DLX) 1 solutions\n")


def test_hex_and_triangle_boards() -> None:
    text = (
        "pattern h = hex{\n * *\n* * *\n * *\n}\npattern pair = hex{* *}\n"
        "problem hexes = hex{\n * *\n* . *\n * *\n} [pair ~sym]\nprint hexes\ncount dlx hexes\n"
        "assert hex{* * *} - hex{*} = hex{  * *}\nassert h && hex{* *} = hex{* *}\n"
        "pattern t = triangle{.****}\nproblem tri = t [triangle{**} ~rot]\ncount dlx tri\n"
    )
    out = output(text)
    assert out.startswith('problem "hexes"\n * *\n*   *\n * *\ntile "pair" ~sym\n* *\n')
    # the ring of six hexagons around a hole: two ways to pair them up
    assert "hexes : (DLX) 2 solutions\n" in out
    assert out.endswith("tri : (DLX) 1 solutions\n")


def test_definitions_can_be_redefined_with_a_warning() -> None:
    out, err = run("pattern a = {*}\npattern a = {**}\nproblem p = a [{*}]\ncount dlx p\n")
    assert out == "p : (DLX) 1 solutions\n"
    assert err == "t.cmb:2:1: warning: pattern 'a' redefined (first defined at t.cmb:1:1)\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pattern a = {*}\npattern b = set a 2x0 true", "2:13: cell (2, 0) is outside the "
         "1x1 frame"),
        ("pattern a = hex{* *} - {*}", "1:22: diff: cannot combine a hex pattern with a square "
         "pattern"),
        ("pattern a = shift hex{*} 1x1", "1:13: shift works on square patterns, not on a hex "
         "pattern"),
        ("pattern a = apply Rot90 triangle{*}", "1:13: apply works on square patterns, not on "
         "a triangle pattern"),
        ("pattern a = hex{* x}", "1:13: bad character 'x' in row 0 of a hex pattern: cells are "
         "'*', holes '.' or blanks"),
        ("pattern a = hex{**}", "1:13: the hexagon at column 2 is not on the staggered grid "
         "of the others"),
        ("pattern3 c = [hex{*}]", "1:15: a layer of a 3D pattern must be square, not a hex "
         "pattern"),
        ("pattern3 c = [{*}]\npattern h = {*}\nproblem3 p = c [{*}]", "3:17: tile '#1' is a "
         "square pattern but the board of 'p' is a 3D pattern"),
        ("pattern a = {*}\nproblem p = a [hex{*}]", "2:16: tile '#1' is a hex pattern but the "
         "board of 'p' is a square pattern"),
        ("problem p = {...} [{*}]", "1:1: the board of problem 'p' has no cells"),
        ("problem3 p = {*} [{*}]", "1:14: the board of a 3D problem must be a 3D pattern"),
        ("problem p = {*} [{.}]", "1:18: tile '#1' has no cells"),
        ('problem p = {*} [{*}]\nsolve sat "nosuch" p ascii', "2:7: unknown SAT solver 'nosuch'"),
        ('problem p = {*} [{*}]\ndimacs p "/nonexistent/dir/p.cnf"', "2:1: cannot write "
         "/nonexistent/dir/p.cnf"),
        ('problem p = {*} [{*}]\nsolve dlx p svg "/nonexistent/dir/p.svg"', "2:1: cannot write "
         "/nonexistent/dir/p.svg"),
        ('problem p = {*} [{*}]\ncount sat "glucose4" p ~up_to_symmetry', "2:7: counting up to "
         'symmetry with sat uses the default solver; write sat "cadical"'),
        ("pattern a = constant 100000x100000 true", "1:13: a 100000x100000 frame is too large "
         "(at most 16777216 cells)"),
        ("pattern a = crop 0x0 99999999999999999999x2 {*}", "1:13: a 99999999999999999999x2 "
         "frame is too large"),
        ("pattern a = resize {*} 1x20000000", "1:13: a 1x20000000 frame is too large"),
    ],
)  # fmt: skip
def test_run_time_errors(text: str, message: str) -> None:
    with pytest.raises(LangError) as caught:
        run(text)
    assert str(caught.value).startswith("t.cmb:" + message)


def test_nothing_runs_after_a_run_time_error() -> None:
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    program = parse("problem p = {**} [{*}]\ncount dlx p\nassert false\ncount dlx p\n")
    with pytest.raises(LangError):
        interpreter.run(program)
    assert out.getvalue() == "p : (DLX) 1 solutions\n"
    assert [r["statement"] for r in interpreter.results] == ["count", "assert"]


# ----- the command -----


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_command_runs_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "p.cmb", RING + "problem p = ring [domino ~sym]\ncount dlx p\n")
    assert main(["run", path]) == 0
    assert capsys.readouterr().out == "p : (DLX) 2 solutions\n"
    assert main(["run", path, "--debug", "--timing"]) == 0
    out = capsys.readouterr().out.split("\n")
    assert out[0].startswith("EMC size is") and "counted in" in out[2]


def test_command_reports_errors_with_a_caret_and_runs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "bad.cmb", "problem p = {*} [{*}]\ncount dlx p\ncount dlx q\n")
    assert main(["run", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{path}:3:1: unbound problem 'q'\n    count dlx q\n    ^\n"


def test_command_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = RING + "problem p = ring [domino ~sym]\ncount zdd p\nsolve dlx p ascii\n"
    path = write(tmp_path / "p.cmb", text + "print p\nassert false\n")
    assert main(["run", path, "--json"]) == 2
    document = json.loads(capsys.readouterr().out)
    assert (document["input"], document["command"], document["schema"]) == (path, "run", 1)
    results = document["results"]
    assert [r["statement"] for r in results] == ["count", "solve", "print", "assert"]
    assert results[0]["count"] == 2 and results[0]["method"] == "zdd"
    placements = results[1]["solution"]["placements"]
    assert sorted(c for p in placements for c in map(tuple, p["cells"])) == sorted(
        (x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)
    )
    assert {p["tile"] for p in placements} == {"domino"}
    assert document["error"] == {
        "file": path,
        "line": 11,
        "column": 8,
        "message": "assertion failed",
    }


def test_command_parse_only_and_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "p.cmb", "problem p = {*} [{*}]\ncount dlx p\n")
    assert main(["run", path, "--parse-only"]) == 0
    assert capsys.readouterr().out == f"{path}: ok, 2 statements\n"
    monkeypatch.setattr("sys.stdin", io.StringIO("problem p = {**} [{*}]\ncount dlx p\n"))
    monkeypatch.chdir(tmp_path)
    assert main(["run", "-"]) == 0
    assert capsys.readouterr().out == "p : (DLX) 1 solutions\n"
    monkeypatch.setattr("sys.stdin", io.StringIO('include "p.cmb"\ncount zdd p @'))
    assert main(["run", "-"]) == 2
    assert capsys.readouterr().err.startswith("<stdin>:2:13: invalid character '@'\n")


def test_command_help_mentions_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--debug", "--timing", "--parse-only", "--json", "--timeout", "FILE"):
        assert option in out


def test_command_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", os.fspath(tmp_path / "none.cmb")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    """Past MAX_NESTING levels, the level that passes it is the error: the operator of a
    chain (the 400th from the end: the builder works from the outside in), or the
    parenthesis; neither the builder nor the evaluation recurses further."""
    deep = "t.cmb:2:{}: an expression nests at most 400 deep"
    chain = "pattern a = {*}\npattern b = " + " - ".join(["a"] * 3000)
    column = 13 + 4 * (3000 - 401) - 2  # the '-' 401st from the end: 400 levels inside
    with pytest.raises(LangError, match=deep.format(column)):
        run(chain)
    parens = "pattern a = {*}\npattern b = " + "(" * 3000 + "a" + ")" * 3000
    with pytest.raises(LangError, match=deep.format(13 + 400)):
        run(parens)
    assert run("pattern a = {*}\npattern b = " + " - ".join(["a"] * 400)) == ("", "")


def test_reports_quote_a_window_of_long_lines() -> None:
    line = "pattern b = " + " - ".join(["a"] * 100) + " - x - " + " - ".join(["a"] * 100)
    with pytest.raises(LangError) as caught:
        parse("pattern a = {*}\n" + line, "t.cmb")
    first, quoted, caret = caught.value.report().split("\n")
    assert first == "t.cmb:2:413: unbound pattern 'x'"
    assert quoted.startswith("    ...") and quoted.endswith("...")
    assert quoted[len(caret) - 1] == "x"


def test_ctrl_c_stops_a_long_count(tmp_path: Path) -> None:
    path = write(
        tmp_path / "long.cmb",
        "problem small = {**} [{*}]\ncount dlx small\n"
        "problem big = constant 10x10 true [{**} ~sym]\ncount dlx big\n",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "excover", "run", path, "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    # the first count is printed (and flushed) before the long one starts: hours of DLX
    assert process.stdout.readline() == "small : (DLX) 1 solutions\n"
    process.send_signal(signal.SIGINT)
    out, err = ended(process, 120)
    assert (process.returncode, out) == (130, "")
    # the count stopped says what it counted, if Ctrl-C came once it had begun, or that
    # it had no count yet, if Ctrl-C came while it was still preparing its search (its
    # symmetries, on a loaded machine); tests/test_lang_partial.py checks the figure
    said = r"excover: \S+:4: count big: interrupted \(([\d,]+ solutions so far|no partial count)\);"
    said += " the result is partial\n"
    assert err == "excover: interrupted\n" or re.fullmatch(said, err)


def test_timeout_stops_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path / "long.cmb",
        "problem small = {**} [{*}]\ncount dlx small\n"
        "problem big = constant 10x10 true [{**} ~sym]\ncount dlx big\ncount dlx small\n",
    )
    # long enough for the small count on a loaded machine; the big one never finishes
    assert main(["run", path, "--timeout", "1.5", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "small : (DLX) 1 solutions\n"
    assert re.fullmatch(
        r"excover: \S+:4: count big: stopped by --timeout after 1\.5 s \([\d,]+ solutions so far\)"
        r"; the result is partial\n",
        captured.err,
    )
    assert main(["run", path, "--timeout", "1.5", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["stopped_by"] == "timeout" and len(document["results"]) == 2
    assert document["results"][1]["complete"] is False  # the count stopped, recorded
    assert document["complete"] is False
    assert main(["run", path, "--timeout", "-1"]) == 2
    assert "must be a non-negative number" in capsys.readouterr().err


def test_shift_never_drops_cells_silently() -> None:
    """combine's shift kept the frame and dropped the cells that left it, so a tiling
    board could lose cells without a word; excover grows the frame to hold them."""
    text = (
        "pattern a = {**}\nassert shift a 3x0 = {...**}\n"
        "problem p = shift {**$**} 1x1 [{**} ~sym]\ncount dlx p\n"
    )
    assert output(text) == "p : (DLX) 2 solutions\n"


def test_each_count_names_its_method_and_engine_or_route_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``excover run`` says on stderr, command by command (count, solve, all), the method
    and the engine or route that ran (the API's own choice on the same problem); ``--quiet`` and
    ``--json`` silence it, the JSON records carrying the same. The 3x4 board has 11 domino
    tilings (OEIS A001835)."""
    from excover import counting
    from excover.engines import Search

    text = "problem b = constant 3x4 true [{**} ~sym]\ncount dlx b\ncount zdd b\n"
    path = write(
        tmp_path / "b.cmb",
        text + 'count auto b\ncount sat "cadical" b\nsolve dlx b ascii\nall zdd b\n',
    )
    interpreter = Interpreter(quiet=True)
    interpreter.run(parse(text))
    problem = interpreter.cover(interpreter.problems["b"])
    engine = Search(problem).engine
    route = counting.count(problem).route
    names = {"dlx": "dancing links", "bits": "bit-parallel engine", "cells": "dancing cells"}
    assert main(["run", path]) == 0
    out, err = capsys.readouterr()
    assert out.count(" 11 solutions") == 4 and '11 solutions found for problem "b"' in out
    lines = err.splitlines()
    assert lines[:2] == [
        f"excover: {path}:2: count b: method search, {names[engine]}",
        f"excover: {path}:3: count b: method zdd, DXZ",
    ]
    assert re.fullmatch(
        rf"excover: {re.escape(path)}:4: count b: method auto, route {route}: .+", lines[2]
    )
    assert lines[3:] == [
        f"excover: {path}:5: count b: method sat, solver cadical",
        f"excover: {path}:6: solve b: method search, {names[engine]}",
        f"excover: {path}:7: all b: method zdd, DXZ",
    ]
    assert main(["run", path, "--quiet"]) == 0
    assert capsys.readouterr() == (out, "")
    assert main(["run", path, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    results = json.loads(out)["results"]
    counts = [r for r in results if r["statement"] == "count"]
    assert [(r["statement"], r["engine"]) for r in results[4:]] == [
        ("solve", engine),
        ("all", "dxz"),
    ]
    assert [r["count"] for r in counts] == [11] * 4
    assert [r["engine"] for r in counts] == [engine, "dxz", None, "cadical"]
    assert [r["route"] and r["route"]["name"] for r in counts] == [None, None, route, None]
