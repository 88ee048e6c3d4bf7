"""DIMACS both ways, decoding models from any solver, and the ``excover dimacs`` command.

A formula written and read back is the same formula, and its header brings back the
problem itself, so a model found by a solver that knows nothing of excover decodes into
a solution. Decoding checks every model against the problem: a model that is not an
exact cover is refused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from budget import examples
from builders import Instance, Kind, dominoes, instances, queens
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from excover import ExactCover, FormatError, UsageError
from excover.errors import SolverError
from excover.main import main
from excover.sat import AMO_ENCODINGS, CNF, checked, to_cnf

KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")


@settings(max_examples=examples(60))
@given(st.sampled_from(KINDS).flatmap(instances), st.sampled_from(tuple(AMO_ENCODINGS)))
def test_dimacs_round_trip(instance: Instance, encoding: str) -> None:
    problem = instance.build()
    cnf = to_cnf(problem, encoding)
    again = CNF.from_dimacs(cnf.to_dimacs())
    assert again == cnf
    assert again.problem() == problem
    assert again.to_dimacs() == cnf.to_dimacs()


def test_dimacs_files(tmp_path: Path) -> None:
    problem = queens(6)
    path = tmp_path / "queens6.cnf"
    problem.write_dimacs(path, amo="product")
    cnf = CNF.read_dimacs(path)
    assert cnf == problem.to_cnf("product")
    assert cnf.amo == "product"
    assert list(cnf.projection) == list(range(1, problem.n_options + 1))
    assert cnf.n_vars > problem.n_options  # the product encoding adds variables


@pytest.mark.parametrize("encoding", ["pairwise", "seqcounter"])
def test_header_projection_line(encoding: str) -> None:
    """'c p show' lists the option variables, and only when there are others."""
    text = to_cnf(queens(5), encoding).to_dimacs()
    shows = [line for line in text.splitlines() if line.startswith("c p show")]
    if encoding == "pairwise":
        assert shows == []
    else:
        assert shows == ["c p show " + " ".join(str(v) for v in range(1, 26)) + " 0"]


def test_model_from_the_file_alone_decodes_into_a_solution(tmp_path: Path) -> None:
    """Only the DIMACS file: its clauses go to a solver, its header rebuilds the problem,
    and the model decodes into a solution of the original problem."""
    problem = dominoes(3, 4)
    path = tmp_path / "dominoes.cnf"
    problem.write_dimacs(path, amo="seqcounter")
    cnf = CNF.read_dimacs(path)
    rebuilt = cnf.problem()
    assert rebuilt is not None
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    solution = checked(rebuilt, cnf, model)
    assert problem.is_solution(solution)


def test_plain_dimacs_without_header() -> None:
    cnf = CNF.from_dimacs("c a comment\np cnf 3 2\n1 -2 0\n2 3\n0\n")
    assert (cnf.n_vars, cnf.n_options, cnf.clauses) == (3, 3, [[1, -2], [2, 3]])
    assert cnf.problem() is None and cnf.amo is None
    with pytest.raises(UsageError, match="does not say which problem"):
        ExactCover.from_cnf(cnf)


def test_the_header_rebuilds_a_problem_to_solve(tmp_path: Path) -> None:
    """``ExactCover.from_cnf`` gives the problem of the header back, equal to the one
    written and solvable; ``cnf.problem()`` gives the same as plain data."""
    problem = dominoes(3, 4)
    path = tmp_path / "dominoes.cnf"
    problem.write_dimacs(path)
    cnf = CNF.read_dimacs(path)
    rebuilt = ExactCover.from_cnf(cnf)
    assert rebuilt == problem == cnf.problem()
    assert rebuilt.count("search") == problem.count("search") == 11


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("1 2 0\np cnf 2 1\n", 1, "before the 'p cnf'"),
        ("p cnf 2 1\n1 x 0\n", 2, "bad literal"),
        ("p cnf 2 1\n1 3 0\n", 2, "out of range"),
        ("p cnf 2 2\n1 2 0\n", None, "announces 2 clauses"),
        ("p cnf 2 1\n1 2\n", 2, "not ended by 0"),
        ("p cnf 2 1\np cnf 2 1\n1 0\n", 2, "second 'p' line"),
        ("p dnf 2 1\n", 1, "expected 'p cnf"),
        ("c only a comment\n", 1, "no 'p cnf'"),
        ("c excover options 5\np cnf 2 0\n", 2, "5 options"),
    ],
)
def test_bad_dimacs(text: str, line: int | None, message: str) -> None:
    with pytest.raises(FormatError, match=message) as error:
        CNF.from_dimacs(text, "f.cnf")
    assert error.value.line == line
    assert error.value.source == "f.cnf"


@settings(max_examples=examples(60))
@given(instances("MCC", max_options=8), st.data())
def test_checked_refuses_every_non_cover(instance: Instance, data: st.DataObject) -> None:
    """A model whose chosen options are not a cover (by the oracle) raises SolverError;
    one that is a cover decodes into it. Auxiliary literals do not matter."""
    problem = instance.build()
    cnf = to_cnf(problem, "seqcounter")
    n = len(instance.options)
    chosen = data.draw(st.sets(st.integers(0, n - 1)) if n else st.just(set[int]()))
    aux = data.draw(st.lists(st.booleans(), min_size=cnf.n_vars - n, max_size=cnf.n_vars - n))
    model = [k + 1 if k in chosen else -(k + 1) for k in range(n)]
    model += [v if value else -v for v, value in enumerate(aux, start=n + 1)]
    if instance.is_cover(chosen):
        assert checked(problem, cnf, model) == sorted(chosen)
    else:
        with pytest.raises(SolverError, match="not a solution"):
            checked(problem, cnf, model)


def test_cli_writes_the_same_dimacs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = queens(5)
    source = tmp_path / "queens5.dlx"
    problem.write(source)
    out = tmp_path / "queens5.cnf"
    assert main(["dimacs", str(source), "-o", str(out), "--amo", "commander"]) == 0
    assert out.read_text(encoding="utf-8") == problem.to_cnf("commander").to_dimacs()
    assert main(["dimacs", str(source)]) == 0
    assert capsys.readouterr().out == problem.to_cnf("auto").to_dimacs()


def test_cli_reports_bad_output_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "q.dlx"
    queens(4).write(source)
    assert main(["dimacs", str(source), "-o", str(tmp_path / "missing" / "q.cnf")]) == 2
    assert "cannot write" in capsys.readouterr().err


# ----- external solvers

#: A stand-in for an external solver: reads the DIMACS file named by its last argument and
#: answers in the competition format, honestly or (with ``--lie``) with all variables false.
FAKE_SOLVER = """
import json
import sys
from pysat.formula import CNF
from pysat.solvers import Solver
formula = CNF(from_file=sys.argv[-1])
if "--garble" in sys.argv:
    print("something went wrong"); sys.exit(1)
with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
    if not solver.solve():
        print("s UNSATISFIABLE"); sys.exit(20)
    model = solver.get_model()
if "--lie" in sys.argv:
    model = [-abs(v) for v in model]
print("s SATISFIABLE")
for start in range(0, len(model), 10):
    print("v", *model[start:start + 10])
print("v 0")
sys.exit(10)
"""


@pytest.fixture
def fake_solver(tmp_path: Path) -> str:
    script = tmp_path / "fake_solver.py"
    script.write_text(FAKE_SOLVER, encoding="utf-8")
    return f"ext:{sys.executable} {script}"


def test_external_solver_enumerates_like_dlx(fake_solver: str) -> None:
    for problem in (queens(5), dominoes(2, 4)):
        found = [frozenset(s) for s in problem.solutions(method="sat", solver=fake_solver)]
        assert len(found) == len(set(found))
        assert set(found) == {frozenset(s) for s in problem.solutions()}
    assert queens(3).first(method="sat", solver=fake_solver) is None


def test_lying_external_solver_is_caught(fake_solver: str) -> None:
    with pytest.raises(SolverError, match="not a solution"):
        queens(5).first(method="sat", solver=fake_solver + " --lie")


def test_garbled_external_answer(fake_solver: str) -> None:
    with pytest.raises(SolverError, match="no 's SATISFIABLE"):
        queens(5).first(method="sat", solver=fake_solver + " --garble")


def test_problem_without_primary_items_has_no_header() -> None:
    cnf = ExactCover().to_cnf()
    assert cnf.problem_text is None
    assert CNF.from_dimacs(cnf.to_dimacs()) == cnf


def test_cli_count_method_sat(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """``count --method sat`` prints DLX's count, and nothing else reaches stdout (ganak's
    own progress lines included, caught at the file-descriptor level)."""
    for n in (3, 6):
        source = tmp_path / f"queens{n}.dlx"
        queens(n).write(source)
        assert main(["count", str(source), "--method", "sat"]) == 0
        assert capfd.readouterr().out == f"{queens(n).count()}\n"
    assert main(["count", str(source), "--method", "sat", "--json", "--stats"]) == 0
    captured = capfd.readouterr()
    result = json.loads(captured.out)
    assert (result["count"], result["method"]) == (queens(6).count(), "sat")
    assert "solutions: 4" in captured.err
    assert main(["count", str(source), "--method", "sat", "--max-nodes", "5"]) == 2
    assert "--max-nodes" in capfd.readouterr().err
