"""The CNF encodings against brute force, and the SAT back end against the oracle and DLX.

The at-most-one and cardinality encodings are checked exhaustively on small sizes: an
assignment of the constrained literals extends to a model exactly when it has the right
number of true literals. Whole problems are checked for every at-most-one encoding: on
random X, XCC and MCC instances the solutions enumerated by a SAT solver are exactly the
oracle's (brute force over subsets, :meth:`builders.Instance.all_covers`) and DLX's, and
the projected model count of ganak is their number.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from budget import examples
from builders import Instance, Kind, dominoes, instances, queens, walks
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from excover import ExactCover
from excover.sat import AMO_ENCODINGS, to_cnf
from excover.sat.card import at_least, at_most
from excover.sat.pool import Clause, Pool

ENCODINGS = tuple(AMO_ENCODINGS)
KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")
KNUTH = Path(__file__).parent / "data" / "knuth"


def extendable(n: int, clauses: list[Clause]) -> set[tuple[bool, ...]]:
    """The assignments of variables 1..n that extend to a model of ``clauses``."""
    if [] in clauses:
        return set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        return {
            values
            for values in product([False, True], repeat=n)
            if solver.solve(assumptions=[v if b else -v for v, b in enumerate(values, 1)])
        }


def assignments(n: int, keep: int, at_least_k: bool = False) -> set[tuple[bool, ...]]:
    """The assignments of n variables with at most (or at least) ``keep`` true ones."""
    return {
        values
        for values in product([False, True], repeat=n)
        if (sum(values) >= keep if at_least_k else sum(values) <= keep)
    }


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("n", range(10))
def test_at_most_one_encodings_are_exact(encoding: str, n: int) -> None:
    clauses = AMO_ENCODINGS[encoding](list(range(1, n + 1)), Pool(n))
    assert extendable(n, clauses) == assignments(n, 1)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_at_most_one_on_many_literals(encoding: str) -> None:
    """On 40 literals (past every pairwise cut-off) each literal alone is allowed and
    every pair is forbidden."""
    n = 40
    with Solver(
        name="minisat22", bootstrap_with=AMO_ENCODINGS[encoding](range(1, n + 1), Pool(n))
    ) as s:
        assert all(s.solve(assumptions=[a]) for a in range(1, n + 1))
        assert not any(
            s.solve(assumptions=[a, b]) for a in range(1, n) for b in range(a + 1, n + 1)
        )


@pytest.mark.parametrize("n", range(8))
def test_cardinality_encodings_are_exact(n: int) -> None:
    literals = list(range(1, n + 1))
    for k in range(n + 2):
        assert extendable(n, at_most(k, literals, Pool(n))) == assignments(n, k)
        assert extendable(n, at_least(k, literals, Pool(n))) == assignments(n, k, at_least_k=True)


def check_sat_solutions(instance: Instance, encoding: str) -> None:
    """SAT enumeration finds each solution of the oracle once, and no other; DLX agrees."""
    expected = instance.all_covers()
    problem = instance.build()
    found = list(problem.solutions(method="sat", amo=encoding))
    as_sets = [frozenset(solution) for solution in found]
    assert len(set(as_sets)) == len(as_sets), "the same solution came out twice"
    assert set(as_sets) == expected
    assert {frozenset(s) for s in problem.solutions(method="search")} == expected
    first = problem.first(method="sat", amo=encoding)
    assert (first is None) == (not expected)
    assert first is None or frozenset(first) in expected


@settings(max_examples=examples(40))
@given(st.sampled_from(KINDS).flatmap(instances), st.sampled_from(ENCODINGS))
def test_sat_solutions_match_oracle(instance: Instance, encoding: str) -> None:
    check_sat_solutions(instance, encoding)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=examples(25))
@given(data=st.data())
def test_every_encoding_matches_oracle(kind: Kind, data: st.DataObject) -> None:
    """The same random instance, for each encoding in turn."""
    instance = data.draw(instances(kind))
    for encoding in ENCODINGS:
        check_sat_solutions(instance, encoding)


@settings(max_examples=examples(40))
@given(st.sampled_from(KINDS).flatmap(instances), st.sampled_from(ENCODINGS))
def test_ganak_counts_match_oracle(instance: Instance, encoding: str) -> None:
    """The projected model count over the option variables is the number of solutions
    (auxiliary variables, and options no constraint mentions, counted right)."""
    problem = instance.build()
    assert problem.count(method="sat", solver="ganak", amo=encoding) == len(instance.all_covers())


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_counts_agree_with_dlx_on_classic_problems(encoding: str) -> None:
    """Queens, domino tilings and colored walks: SAT enumeration and ganak count what DLX
    counts."""
    edges = [("a", "b"), ("b", "a"), ("a", "a"), ("b", "c"), ("c", "a")]
    for problem in (queens(5), queens(6), dominoes(4, 5), walks(5, edges)):
        expected = problem.count(method="search")
        assert problem.count(method="sat", solver="cadical", amo=encoding) == expected
        assert problem.count(method="sat", solver="ganak", amo=encoding) == expected
    seven = queens(7)
    assert seven.count(method="sat", solver="cadical", amo=encoding) == seven.count()


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_knuth_files(encoding: str) -> None:
    """Knuth's 8 queens enumerated, his 6x6 domino file counted by ganak: DLX's counts."""
    queens8 = ExactCover.read(KNUTH / "queens8.dlx")
    found = {frozenset(s) for s in queens8.solutions(method="sat", amo=encoding)}
    assert found == {frozenset(s) for s in queens8.solutions()}
    domino6x6 = ExactCover.read(KNUTH / "domino6x6.dlx")
    assert domino6x6.count(method="sat", solver="ganak", amo=encoding) == domino6x6.count()


def test_compact_encodings_are_ten_times_smaller_on_scott() -> None:
    """Scott's pentomino problem (P fixed): the sequential counter and the product
    encoding need at least ten times fewer clauses than pairwise."""
    problem = ExactCover.read(KNUTH / "scott-pfix.dlx")
    pairwise = to_cnf(problem, "pairwise").n_clauses
    for encoding in ("seqcounter", "product"):
        assert 10 * to_cnf(problem, encoding).n_clauses <= pairwise


def test_uncovered_primary_item_is_unsatisfiable() -> None:
    """A primary item without options makes an empty clause: no solution, count 0."""
    problem = ExactCover(primary=["a", "b"])
    problem.add_option(["a"])
    assert to_cnf(problem).clauses.count([]) == 1
    assert list(problem.solutions(method="sat")) == []
    assert problem.count(method="sat", solver="ganak") == 0
    assert problem.count(method="sat", solver="cadical") == 0
