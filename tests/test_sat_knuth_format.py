"""Knuth's SAT format (the input of SAT13) both ways, and ``excover dimacs --format knuth``.

A formula written in Knuth's format has the same models as its DIMACS text: both are
read back, every model is enumerated by a SAT solver, and the model sets (over the named
variables, mapped to numbers by the documented naming) agree and decode into exactly the
problem's solutions. The reader follows SAT13's rules (comments, always-true lines,
repeated literals, order of first appearance) and names the line and literal at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from budget import examples
from builders import Instance, Kind, dominoes, instances, queens
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from excover import ExactCover, FormatError, UsageError
from excover.main import main
from excover.sat import AMO_ENCODINGS, CNF, to_cnf
from excover.sat.knuth import FALSE, NAME_LIMIT, knuth_names
from excover.tiling import Tiling

KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")
L_BOARD = "##\n##\n##\n##\n"  # the seeds' example: L tetrominoes on a '#' board
L_PIECES = "L: [[0,0],[1,0],[2,0],[2,1]]\nL2: [[0,0],[1,0],[2,0],[2,1]]\n"


def models(clauses: list[list[int]], n_vars: int) -> set[frozenset[int]]:
    """Every model of the clauses over variables 1..n_vars, as sets of true variables."""
    found: set[frozenset[int]] = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        solver.add_clause([v for v in range(1, n_vars + 1)] + [-v for v in range(1, n_vars + 1)])
        while solver.solve():
            model = [lit for lit in solver.get_model() if abs(lit) <= n_vars]
            found.add(frozenset(lit for lit in model if lit > 0))
            solver.add_clause([-lit for lit in model])
    return found


def knuth_clauses(text: str) -> list[list[int]]:
    """The clauses of an excover file in Knuth's format, read by the documented naming
    alone (independently of the reader): the number after the last '.' or the '_'."""
    clauses = []
    for line in text.splitlines():
        if line.startswith("~ ") or line == "~" + FALSE:
            continue
        clause = []
        for token in line.split():
            name = token.removeprefix("~")
            number = int(re.split(r"[._]", name)[-1])
            if number:  # _0 is false: dropped
                clause.append(-number if token.startswith("~") else number)
        clauses.append(clause)
    return clauses


@pytest.mark.parametrize("amo", ["pairwise", "seqcounter", "product"])
@pytest.mark.parametrize(
    "build",
    [
        lambda: Tiling.from_text(L_BOARD, L_PIECES).problem,
        lambda: Tiling.from_text(L_BOARD, L_PIECES, reflections=False).problem,
        lambda: Tiling.from_text("###\n#.#\n###\n", "[[0,0],[0,1]]\n", multiplicity="any").problem,
        lambda: dominoes(3, 4),
        lambda: queens(5),
    ],
    ids=["L-free", "L-fixed", "ring-dominoes", "dominoes3x4", "queens5"],
)
def test_knuth_text_has_the_models_of_the_dimacs_text(
    build: Callable[[], ExactCover], amo: str
) -> None:
    problem = build()
    cnf = problem.to_cnf(amo)
    dimacs = CNF.from_dimacs(cnf.to_dimacs())
    knuth_text = cnf.to_knuth()
    knuth = CNF.from_knuth(knuth_text)
    expected = models(dimacs.clauses, dimacs.n_vars)
    assert models(knuth.clauses, knuth.n_vars) == expected
    assert models(knuth_clauses(knuth_text), cnf.n_vars) == expected
    solutions = {frozenset(o + 1 for o in s) for s in problem.solutions()}
    assert {m & frozenset(cnf.projection) for m in expected} == solutions


@settings(max_examples=examples(60))
@given(st.sampled_from(KINDS).flatmap(instances), st.sampled_from(tuple(AMO_ENCODINGS)))
def test_knuth_round_trip(instance: Instance, encoding: str) -> None:
    problem = instance.build()
    cnf = to_cnf(problem, encoding)
    text = cnf.to_knuth()
    again = CNF.from_knuth(text)
    assert again == cnf
    assert again.problem() == problem
    assert again.to_knuth() == text
    for line in text.splitlines():
        if not line.startswith("~ "):
            names = [token.removeprefix("~") for token in line.split()]
            assert all(0 < len(n) <= NAME_LIMIT and min(n) >= "!" and max(n) <= "}" for n in names)


def test_names_are_unique_short_and_follow_the_first_item() -> None:
    problem = ExactCover(primary=["verylongitem", "b", "é"])
    problem.add_option(["verylongitem"])
    problem.add_option(["b"])
    problem.add_option(["é", "b"])
    names = knuth_names(12, 3, problem.to_dlx())
    # stems cut so that the widest number fits in 8 characters (12: two digits); no ASCII: o
    assert names[:3] == ["veryl.1", "b.2", "o.3"]
    assert names[3:] == [f"_{k}" for k in range(4, 13)]
    assert len(set(knuth_names(10**6, 10**6 - 5, None))) == 10**6
    with pytest.raises(UsageError, match="too many"):
        knuth_names(10**7, 1, None)


def test_an_empty_clause_is_false_for_knuth_and_for_excover() -> None:
    problem = ExactCover(primary=["a", "b"])
    problem.add_option(["a"])  # b has no option: an empty clause
    cnf = problem.to_cnf()
    text = cnf.to_knuth()
    assert text.endswith("a.1\n_0\n~_0\n")
    assert CNF.from_knuth(text) == cnf
    assert [] in CNF.from_knuth(text).clauses


def test_plain_file_follows_sat13s_rules() -> None:
    text = (
        "~ a comment line\n"
        "x2 x3 ~x4\n"
        "\n"
        "   \n"
        "x1 x1 x3 x4\n"  # a repeated literal counts once
        "a ~a b\n"  # always true: ignored, but a is a variable (b is never read)
        "~x1 x2 ~ anything after a lone tilde\n"
    )
    cnf = CNF.from_knuth(text, "rivest.sat")
    assert cnf.names == ("x2", "x3", "x4", "x1", "a")
    assert cnf.clauses == [[1, 2, -3], [4, 2, 3]]
    assert (cnf.n_vars, cnf.n_options, cnf.problem_text) == (5, 5, None)
    assert CNF.from_knuth(cnf.to_knuth()).clauses == cnf.clauses


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("a\tb", r"rivest.sat:2: character '\\t' in literal 'a\\tb' \(column 2\)"),
        ("a abcdefghi", r"rivest.sat:2: literal 'abcdefghi': a name has at most 8 characters"),
        ("~~a", r"rivest.sat:2: literal '~~a': a name does not begin with '~'"),
        ("a b~c", r"rivest.sat:2: literal 'b~c': a name is made of the characters"),
        ("x é", r"rivest.sat:2: character 'é' in literal 'é' \(column 3\)"),
    ],
)
def test_errors_name_the_line_and_literal(line: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        CNF.from_knuth(f"x y\n{line}\n", "rivest.sat")


def test_excover_file_errors() -> None:
    text = to_cnf(queens(4), "seqcounter").to_knuth()
    first = next(n for n, line in enumerate(text.splitlines(), 1) if not line.startswith("~ "))
    lines = text.splitlines()
    lines.insert(first, "~x9")  # after the first clause: line first + 1
    with pytest.raises(FormatError, match=rf"q.sat:{first + 1}: literal '~x9' is not a variable"):
        CNF.from_knuth("\n".join(lines), "q.sat")
    with pytest.raises(FormatError, match="after the first clause"):
        CNF.from_knuth(text + "~ excover options 3\n")
    with pytest.raises(FormatError, match="allow"):
        CNF.from_knuth("~ excover variables 99999999\n~ excover options 2\n")


def test_sat13_answer_decodes_into_a_solution() -> None:
    """SAT13 prints the literals of a model (in any order) or '~': both are read."""
    problem = dominoes(2, 3)
    cnf = CNF.from_knuth(problem.to_cnf("seqcounter").to_knuth())
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    names = cnf.knuth_names()
    answer = " " + " ".join(
        ("~" if lit < 0 else "") + names[abs(lit) - 1] for lit in reversed(model)
    )
    decoded = cnf.knuth_model(answer)
    assert decoded is not None and sorted(decoded, key=abs) == sorted(model, key=abs)
    assert problem.is_solution(cnf.decode(decoded))
    assert cnf.knuth_model("~\n") is None
    with pytest.raises(FormatError, match="'zz'"):
        cnf.knuth_model("zz")


def test_dimacs_command_writes_knuths_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "q.dlx"
    queens(5).write(source)
    assert main(["dimacs", str(source), "--format", "knuth", "--amo", "pairwise"]) == 0
    text = capsys.readouterr().out
    assert CNF.from_knuth(text) == queens(5).to_cnf("pairwise")
    target = tmp_path / "q.sat"
    assert main(["dimacs", str(source), "--format", "knuth", "-o", str(target)]) == 0
    assert CNF.read_knuth(target) == queens(5).to_cnf()
    assert main(["dimacs", str(source), "--format", "cnf"]) == 2
    assert "invalid choice: 'cnf'" in capsys.readouterr().err


def test_dimacs_help_says_what_format_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dimacs", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--format {dimacs,knuth}" in text
    assert "Knuth's SAT format (the input of his SAT13)" in text
