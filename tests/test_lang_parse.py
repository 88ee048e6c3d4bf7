"""The .cmb parser: lexical rules, every statement form, precedence, and every error
path of parsing, includes and name checking (golden messages with line and column)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from excover import ExcoverError, FormatError
from excover.lang import LangError, parse, parse_file
from excover.lang import syntax as s


def show(expr: s.Expr) -> str:
    """An expression as a fully parenthesised prefix form, for golden comparisons."""
    if isinstance(expr, s.Var):
        return expr.name
    if isinstance(expr, s.Art):
        return f"{expr.grid}{{{expr.text}}}" if expr.grid != "square" else f"{{{expr.text}}}"
    if isinstance(expr, s.Constant):
        return f"(constant {expr.width}x{expr.height} {str(expr.value).lower()})"
    if isinstance(expr, s.Binary):
        return f"({expr.op} {show(expr.left)} {show(expr.right)})"
    if isinstance(expr, s.SetCell):
        return f"(set {show(expr.expr)} {expr.x}x{expr.y} {str(expr.value).lower()})"
    if isinstance(expr, s.Crop):
        return f"(crop {expr.x}x{expr.y} {expr.width}x{expr.height} {show(expr.expr)})"
    if isinstance(expr, s.Shift):
        return f"(shift {show(expr.expr)} {expr.dx}x{expr.dy})"
    if isinstance(expr, s.Resize):
        return f"(resize {show(expr.expr)} {expr.width}x{expr.height})"
    return f"(apply {expr.isometry} {show(expr.expr)})"


def declare(names: str) -> str:
    return "".join(f"pattern {name} = {{*}}\n" for name in names.split())


def expression(text: str) -> str:
    program = parse(declare("a b c d e") + f"pattern z = {text}\n")
    last = program.statements[-1]
    assert isinstance(last, s.PatternDecl)
    return show(last.expr)


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("a - b - c", "(diff (diff a b) c)"),
        ("a && b || c ^ d", "(xor (union (inter a b) c) d)"),
        ("a - (b - c)", "(diff a (diff b c))"),
        ("union a b", "(union a b)"),
        ("union a b - c", "(union a (diff b c))"),
        ("union a - b c", "(union (diff a b) c)"),
        ("a - union b c - d", "(diff a (union b (diff c d)))"),
        ("inter diff a b xor c d", "(inter (diff a b) (xor c d))"),
        ("apply Rot90 a - b", "(apply Rot90 (diff a b))"),
        ("(apply Rot90 a) - b", "(diff (apply Rot90 a) b)"),
        ("crop 1x2 3x4 a ^ b", "(crop 1x2 3x4 (xor a b))"),
        ("shift a - b 1x2 - c", "(diff (shift (diff a b) 1x2) c)"),
        ("set a 0x1 false && b", "(inter (set a 0x1 false) b)"),
        ("resize apply Diag2Refl a 5x5", "(resize (apply Diag2Refl a) 5x5)"),
        ("constant 8x3 true - a", "(diff (constant 8x3 true) a)"),
        ("{**}", "{**}"),
        ("hex{* *}", "hex{* *}"),
        ("triangle {**}", "triangle{**}"),
        ("a ^ apply VertRefl apply HorizRefl b", "(xor a (apply VertRefl (apply HorizRefl b)))"),
    ],
)
def test_precedence_and_associativity(text: str, tree: str) -> None:
    assert expression(text) == tree


def test_every_statement_form() -> None:
    program = parse(
        """
        pattern a = {*}
        pattern3 c = [a, a]
        pattern3 empty = []
        tiles t = [a ~one ~sym, a ~maybe ~rot, a, a ~3, a ~1..2, a ~2..]
        tiles3 t3 = [c ~one ~rot]
        problem p = a t
        problem q = a [a ~sym] ~interchangeable
        problem3 r = c t3
        assert true
        assert a = a
        print p
        solve dlx p ascii
        solve zdd p svg "out.svg"
        solve3 sat "cadical" r ascii
        all auto p ~up_to_symmetry
        all3 dlx r
        count sat "ext:kissat -q" p
        count3 zdd r ~up_to_symmetry
        dimacs p "p.cnf"
        debug on
        timing off
        exit
        """
    )
    kinds = [type(st).__name__ for st in program.statements]
    assert kinds == [
        "PatternDecl", "Pattern3Decl", "Pattern3Decl", "TilesDecl", "TilesDecl",
        "ProblemDecl", "ProblemDecl", "ProblemDecl", "Assert", "Assert", "Print", "Solve",
        "Solve", "Solve", "All", "All", "Count", "Count", "Dimacs", "Switch", "Switch", "Exit",
    ]  # fmt: skip
    tiles = program.statements[3]
    assert isinstance(tiles, s.TilesDecl)
    ranges = [(t.lo, t.hi, t.symmetry) for t in tiles.tiles if isinstance(t, s.TileSpec)]
    assert ranges == [
        (1, 1, "all"), (0, 1, "rotations"), (0, None, "none"), (3, 3, "none"),
        (1, 2, "none"), (2, None, "none"),
    ]  # fmt: skip
    q, r = program.statements[6], program.statements[7]
    assert isinstance(q, s.ProblemDecl) and q.interchangeable and not q.three_d
    assert isinstance(r, s.ProblemDecl) and r.three_d and isinstance(r.tiles, s.Var)
    solve = program.statements[13]
    assert isinstance(solve, s.Solve) and solve.three_d
    assert (solve.algo.name, solve.algo.solver, solve.svg) == ("sat", "cadical", None)
    assert isinstance(program.statements[12], s.Solve) and program.statements[12].svg == "out.svg"
    everything = program.statements[14]
    assert isinstance(everything, s.All) and everything.up_to_symmetry
    count = program.statements[16]
    assert isinstance(count, s.Count) and count.algo.solver == "ext:kissat -q"
    flags = program.statements[19:21]
    assert [(f.flag, f.on) for f in flags if isinstance(f, s.Switch)] == [
        ("debug", True),
        ("timing", False),
    ]


def test_last_option_of_each_kind_wins() -> None:
    program = parse("pattern a = {*}\ntiles t = [a ~sym ~one ~rot ~maybe, a ~rot ~axes ~2]")
    tiles = program.statements[1]
    assert isinstance(tiles, s.TilesDecl)
    first, second = tiles.tiles
    assert isinstance(first, s.TileSpec) and isinstance(second, s.TileSpec)
    assert (first.lo, first.hi, first.symmetry) == (0, 1, "rotations")
    assert (second.lo, second.hi, second.symmetry) == (2, 2, "axes")


def test_lexical_rules() -> None:
    program = parse(
        "# a comment\n"
        "pattern a = { * * # a comment inside a pattern }\n *.$ \t $.*}  # after\n"
        "pattern b = {\n\n..*\n*\n\n}\n"
        "pattern dlx_name = {*}\npattern Pattern = {*}\n"
    )
    first = program.statements[0]
    assert isinstance(first, s.PatternDecl) and isinstance(first.expr, s.Art)
    assert first.expr.text.split("\n")[0] == " * * "
    assert [type(st).__name__ for st in program.statements] == ["PatternDecl"] * 4


def test_strings_escape_quotes_and_backslashes_and_span_lines() -> None:
    program = parse('pattern a = {*}\nproblem p = a [a]\ndimacs p "a\\"b\\\\c\\d\ne"')
    dimacs = program.statements[-1]
    assert isinstance(dimacs, s.Dimacs)
    assert dimacs.path == 'a"b\\c\\d\ne'


def test_keywords_are_case_sensitive_and_reserved() -> None:
    parse("pattern Set = {*}\npattern ID = {*}\npattern rot90 = {*}")
    with pytest.raises(LangError, match="unexpected keyword 'set'"):
        parse("pattern set = {*}")


def test_hex_and_triangle_stay_usable_as_names() -> None:
    program = parse("pattern hex = {*}\npattern triangle = hex - hex\n")
    assert show(program.statements[1].expr) == "(diff hex hex)"  # type: ignore[union-attr]


def error_of(text: str, **files: str) -> str:
    with pytest.raises(LangError) as caught:
        parse(text, "t.cmb")
    error = caught.value
    assert isinstance(error, FormatError) and isinstance(error, ExcoverError)
    return str(error)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pattern a = {**} @", "t.cmb:1:18: invalid character '@'"),
        ("pattern a =\n  {**", "t.cmb:2:3: unterminated pattern: no '}' closes this '{'"),
        ('pattern a = {*}\ndimacs a "x', "t.cmb:2:10: unterminated string"),
        ("pattern a = ~", "t.cmb:1:13: bad option; use one of ~one, ~maybe, ~sym, ~rot, ~N, "
         "~LO..HI, ~LO.., ~SUBGROUP"),
        ("pattern a = {*}\n\npattern b = a -\ncount dlx p",
         "t.cmb:4:1: unexpected keyword 'count'; expected a pattern expression"),
        ("pattern a =", "t.cmb:1:12: unexpected end of file; expected a pattern expression"),
        ("pattern a = {*} {*}", "t.cmb:1:17: unexpected pattern; expected a statement "
         "(pattern, tiles, problem, count, solve, ...) or the end of the file"),
        ("pattern a = {*}\npattern b = a -", "t.cmb:2:16: unexpected end of file; expected "
         "a pattern expression"),
        ("pattern a = apply Rot45 b", "t.cmb:1:19: unexpected name 'Rot45'; expected an "
         "isometry (Id, Rot90, Rot180, Rot270, VertRefl, HorizRefl, ...)"),
        ("solve dlx p", "t.cmb:1:12: unexpected end of file; expected 'ascii' or 'svg'"),
        ("debug maybe", "t.cmb:1:7: unexpected name 'maybe'; expected 'off' or 'on'"),
        ("pattern 8x8 = {*}", "t.cmb:1:9: unexpected '8x8'; expected a name"),
        ("pattern a = shift {*} 3", "t.cmb:1:23: a number stands only in a size or a cell "
         "such as 8x8"),
        ("count fast p", "t.cmb:1:7: unknown algorithm 'fast'; use dlx, zdd, auto or "
         'sat "SOLVER"'),
        ("pattern a = {*}\nproblem p = a [a ~tall]", "t.cmb:2:18: unknown tile option "
         "'~tall'; use ~one, ~maybe, ~sym, ~rot, ~N, ~LO..HI, ~LO.., ~SUBGROUP"),
        ("pattern a = {*}\nproblem p = a [a ~3..2]",
         "t.cmb:2:18: bad multiplicity '~3..2': need LO <= HI and HI >= 1"),
        ("pattern a = {*}\nproblem p = a [a ~0]",
         "t.cmb:2:18: bad multiplicity '~0': need LO <= HI and HI >= 1"),
        ("pattern a = {*}\nproblem p = a [a] ~sym",
         "t.cmb:2:19: unknown option '~sym' here; use ~interchangeable"),
        ("pattern a = {*}\nproblem p = a [a]\nall dlx p ~one",
         "t.cmb:3:11: unknown option '~one' here; use ~up_to_symmetry"),
        ("pattern a = b", "t.cmb:1:13: unbound pattern 'b'"),
        ("pattern a = {*}\nproblem p = a t", "t.cmb:2:15: unbound tile list 't'"),
        ("pattern a = {*}\ntiles t = [a]\nproblem3 p = a t",
         "t.cmb:3:14: unbound 3D pattern 'a' (there is a pattern 'a')"),
        ("pattern a = {*}\npattern3 c = [a]\nproblem3 p = c t",
         "t.cmb:3:16: unbound 3D tile list 't'"),
        ("count dlx p", "t.cmb:1:1: unbound problem 'p'"),
        ("pattern3 p = []\ncount3 dlx p", "t.cmb:2:1: unbound 3D problem 'p' (there is a "
         "3D pattern 'p')"),
        ("print p", "t.cmb:1:1: unbound problem 'p'"),
        ('dimacs p "x"', "t.cmb:1:1: unbound problem 'p'"),
        ("assert a = {*}", "t.cmb:1:8: unbound pattern 'a'"),
        ("pattern a = a", "t.cmb:1:13: unbound pattern 'a'"),
    ],
)  # fmt: skip
def test_error_messages(text: str, message: str) -> None:
    assert error_of(text) == message


def test_an_error_report_shows_the_line_and_a_caret() -> None:
    with pytest.raises(LangError) as caught:
        parse("pattern a = {*}\n\tproblem p = a [b]\n", "t.cmb")
    assert caught.value.report() == (
        "t.cmb:2:17: unbound pattern 'b'\n    \tproblem p = a [b]\n    \t               ^"
    )
    assert (caught.value.line, caught.value.column) == (2, 17)


def test_redefinitions_are_warned_about() -> None:
    program = parse("pattern a = {*}\npattern a = {**}\n", "t.cmb")
    assert program.warnings == [
        "t.cmb:2:1: warning: pattern 'a' redefined (first defined at t.cmb:1:1)"
    ]


# ----- includes -----


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_include_is_relative_to_the_including_file_and_keeps_definitions(
    tmp_path: Path,
) -> None:
    write(tmp_path / "lib" / "pieces.cmb", 'include "more.cmb"\npattern b = a || c\n')
    write(tmp_path / "lib" / "more.cmb", "pattern c = {.*}\n")
    main = write(tmp_path / "main.cmb", 'pattern a = {*}\ninclude "lib/pieces.cmb"\n')
    program = parse_file(str(main))
    names = [st.name for st in program.statements if isinstance(st, s.PatternDecl)]
    assert names == ["a", "c", "b"]
    assert program.statements[1].pos.source.name == os.path.join(str(tmp_path), "lib", "more.cmb")


def test_a_file_included_twice_is_read_once(tmp_path: Path) -> None:
    write(tmp_path / "a.cmb", "pattern a = {*}\n")
    main = write(tmp_path / "m.cmb", 'include "a.cmb"\ninclude "a.cmb"\n')
    assert len(parse_file(str(main)).statements) == 1


def test_include_errors(tmp_path: Path) -> None:
    main = write(tmp_path / "m.cmb", 'pattern z = {*}\ninclude "a.cmb"\n')
    write(tmp_path / "a.cmb", 'include "b.cmb"\n')
    write(tmp_path / "b.cmb", '\n  include "a.cmb"\n')
    with pytest.raises(LangError) as caught:
        parse_file(str(main))
    assert str(caught.value) == (
        f"{tmp_path / 'b.cmb'}:2:3: include cycle: a.cmb -> b.cmb -> a.cmb"
    )
    write(tmp_path / "self.cmb", 'include "self.cmb"')
    with pytest.raises(LangError, match=r"self.cmb:1:1: include cycle: self.cmb -> self.cmb"):
        parse_file(str(tmp_path / "self.cmb"))
    write(tmp_path / "missing.cmb", 'pattern a = {*}\ninclude "nowhere/x.cmb"')
    with pytest.raises(LangError) as caught:
        parse_file(str(tmp_path / "missing.cmb"))
    assert str(caught.value) == (
        f"{tmp_path / 'missing.cmb'}:2:1: include: no such file: {tmp_path / 'nowhere/x.cmb'}"
    )
    (tmp_path / "adir").mkdir()
    write(tmp_path / "dir.cmb", 'include "adir"')
    with pytest.raises(LangError, match=r"dir.cmb:1:1: include: cannot read .*adir"):
        parse_file(str(tmp_path / "dir.cmb"))
    (tmp_path / "latin1.cmb").write_bytes(b"pattern \xe9 = {*}")
    write(tmp_path / "bad.cmb", 'include "latin1.cmb"')
    with pytest.raises(LangError, match=r"bad.cmb:1:1: include: cannot read .*: not UTF-8"):
        parse_file(str(tmp_path / "bad.cmb"))


def test_errors_in_an_included_file_name_that_file(tmp_path: Path) -> None:
    write(tmp_path / "lib.cmb", "pattern a = {*}\npattern b = nope\n")
    main = write(tmp_path / "m.cmb", 'include "lib.cmb"\n')
    with pytest.raises(LangError) as caught:
        parse_file(str(main))
    assert str(caught.value) == f"{tmp_path / 'lib.cmb'}:2:13: unbound pattern 'nope'"
    assert caught.value.report().endswith("pattern b = nope\n                ^")


def test_unreadable_program(tmp_path: Path) -> None:
    with pytest.raises(LangError, match=r"cannot read .*nothing\.cmb"):
        parse_file(str(tmp_path / "nothing.cmb"))


def test_includes_nested_too_deeply(tmp_path: Path) -> None:
    for number in range(120):
        write(tmp_path / f"f{number}.cmb", f'include "f{number + 1}.cmb"\n')
    write(tmp_path / "f120.cmb", "pattern a = {*}\n")
    with pytest.raises(LangError, match=r"/f100.cmb:1:1: includes are nested more than 100 deep"):
        parse_file(str(tmp_path / "f0.cmb"))
    assert len(parse_file(str(tmp_path / "f20.cmb")).statements) == 1  # 100 deep: the most
