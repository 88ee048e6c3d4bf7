"""The SAT entry points of the model: solvers by name, limits, and argument errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from builders import compositions, dominoes, queens, two_regular_graphs

from excover import ExactCover, UsageError
from excover.sat import DEFAULT_SOLVER


@pytest.mark.parametrize(
    "solver",
    [
        "cadical",
        "glucose4",
        "minisat22",
        pytest.param("kissat", marks=pytest.mark.slow),  # seconds each, in child processes
        pytest.param("lingeling", marks=pytest.mark.slow),
    ],
)
def test_pysat_solvers_enumerate_like_dlx(solver: str) -> None:
    """Incremental solvers and Kissat (rebuilt for every solution) find DLX's solutions."""
    for problem in (queens(6), dominoes(3, 4), compositions(5, 2, 3)):
        found = [frozenset(s) for s in problem.solutions(method="sat", solver=solver)]
        assert len(found) == len(set(found))
        assert set(found) == {frozenset(s) for s in problem.solutions()}


def test_multiplicities_enumerate_without_duplicates() -> None:
    """Spanning 2-regular graphs (every vertex covered twice) and compositions with 0..3
    parts: solutions contain one another there, so blocking pins every option variable."""
    for problem in (two_regular_graphs(6), compositions(6, 0, 3)):
        found = [frozenset(s) for s in problem.solutions(method="sat", amo="product")]
        assert len(found) == len(set(found)) == problem.count()
        assert all(problem.is_solution(s) for s in found)


def test_limit_and_first() -> None:
    problem = queens(6)
    assert len(list(problem.solutions(method="sat", limit=3))) == 3
    assert list(problem.solutions(method="sat", limit=0)) == []
    first = problem.first(method="sat", solver=DEFAULT_SOLVER, amo="bitwise")
    assert first is not None and problem.is_solution(first)
    assert queens(3).first(method="sat") is None


def test_empty_solution() -> None:
    """A problem whose primary items may stay uncovered has the empty solution."""
    problem = ExactCover(primary=["a"])
    problem.set_multiplicity("a", 0, 1)
    problem.add_option(["a"])
    assert sorted(problem.solutions(method="sat")) == [[], [0]]
    assert problem.count(method="sat", solver="ganak") == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: p.first(method="sat", solver="nosuchsolver"), "unknown SAT solver"),
        (lambda p: p.first(method="sat", amo="ladder"), "unknown at-most-one encoding"),
        (lambda p: p.first(method="sat", solver="ganak"), "ganak counts"),
        (lambda p: p.first(method="sat", heuristic="mrv"), "does not take heuristic"),
        (lambda p: p.count(method="sat", max_nodes=10), "does not take max_nodes"),
        (lambda p: p.count(method="sat", timeout=-1.0), "timeout must be"),
        (lambda p: p.first(method="sat", max_solutions=1.5), "max_solutions must be"),
        (lambda p: p.count(solver="cadical"), "go with method='sat'"),
        (lambda p: p.first(method="search", amo="pairwise"), "go with method='sat'"),
        (lambda p: p.solutions(method="sat", limit=-1), "limit"),
        (lambda p: p.first(method="sat", solver="ext:"), "followed by a solver command"),
        (lambda p: p.first(method="sat", solver="ext:/no/such/solver"), "cannot run"),
    ],
)
def test_bad_arguments(call: Callable[[ExactCover], object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        call(queens(4))
