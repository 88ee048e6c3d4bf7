"""The one door for solving: the vocabulary of :mod:`excover.names` agrees with the code
that runs each name, every method answers through the registry with one Outcome, and a
problem derived from another keeps its class (docs/architecture.md)."""

from __future__ import annotations

import argparse

import pytest
from budget import examples
from builders import Instance, Kind, instances
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, ProblemError, UsageError
from excover.counting import methods
from excover.counting.outcome import Outcome
from excover.counting.routes import ROUTES
from excover.engines import HEURISTICS
from excover.names import (
    ENGINE_NAMES,
    ENGINES,
    METHOD_TRAITS,
    METHODS,
    SEARCH_ENGINES,
    SEARCH_OPTIONS,
    ZDD_BUILDS,
)
from excover.names import (
    ROUTES as ROUTE_NAMES,
)
from excover.problem import Problem, SearchOptions
from excover.solving import orchestrate
from excover.solving.request import Request


def test_the_names_are_those_the_code_runs() -> None:
    import excover.counting.choice  # noqa: F401  (registers the parts route)
    from excover.names import HEURISTICS as HEURISTIC_NAMES

    assert tuple(HEURISTICS) == HEURISTIC_NAMES
    assert set(ROUTES) == set(ROUTE_NAMES)
    assert ("auto", *SEARCH_ENGINES) == ENGINES and set(ENGINE_NAMES) == set(SEARCH_ENGINES)
    assert set(METHOD_TRAITS) == set(METHODS)
    assert set(SearchOptions.__annotations__) == set(SEARCH_OPTIONS)
    problem = ExactCover(["a", "b"])
    for option in (["a"], ["b"], ["a", "b"]):
        problem.add_option(option)
    assert [problem.zdd(build).count() for build in ZDD_BUILDS] == [2] * len(ZDD_BUILDS)


def test_the_command_line_offers_the_names() -> None:
    """``--method``, ``--engine``, ``--heuristic`` and ``--route`` take exactly the names
    of :mod:`excover.names`."""
    from excover.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    count = commands.choices["count"]
    choices = {action.dest: action.choices for action in count._actions if action.choices}
    assert tuple(choices["method"]) == METHODS
    assert tuple(choices["engine"]) == ENGINES
    assert set(choices["route"]) <= set(ROUTE_NAMES)


#: Every kind of random instance: plain, with colors, with multiplicities.
KINDS: list[Kind] = ["X", "XCC", "MCC"]


@settings(max_examples=examples(25), deadline=None)
@given(st.sampled_from(KINDS).flatmap(lambda kind: instances(kind)))
def test_every_method_answers_with_one_outcome_that_agrees(instance: Instance) -> None:
    """Each method's Outcome run counts what the brute-force oracle counts, and lists
    that many solutions, each one a solution."""
    problem = instance.build()
    truth = len(instance.all_covers())
    for method in METHODS:
        counted = orchestrate.count(problem, Request(method))
        assert isinstance(counted, Outcome) and counted.stopped_by is None
        assert counted.count == truth == methods.count(problem, method), method
        listed: list[list[int]] = []
        found = orchestrate.solutions(problem, Request(method), listed.append)
        assert found.count == len(listed) == truth, method
        assert all(problem.is_solution(solution) for solution in listed)


def test_an_unknown_method_is_refused_by_the_registry() -> None:
    problem = ExactCover(["a"])
    problem.add_option(["a"])
    with pytest.raises(UsageError, match="unknown method 'dxz'"):
        orchestrate.count(problem, Request("dxz"))


def test_a_limit_stops_the_outcome_of_a_search() -> None:
    problem = ExactCover(["a", "b"])
    for option in (["a"], ["b"], ["a", "b"]):
        problem.add_option(option)
    found = orchestrate.count(problem, Request("search", limit=1))
    assert (found.count, found.stopped_by, found.method) == (1, "limit", "search")


def test_a_derived_problem_keeps_the_class_and_checks_new_names() -> None:
    problem = ExactCover(["a", "b"], ["x"])
    part = problem.derive(["b"], ["a", "x"])
    assert type(part) is ExactCover
    assert (part.primary_items, part.secondary_items) == (("b",), ("a", "x"))
    plain = Problem(["a"])
    assert type(plain.derive()) is Problem and not hasattr(plain, "count")
    assert problem.derive(["#", "a"]).primary_items == ("#", "a")
    with pytest.raises(ProblemError, match="bad new item name"):
        problem.derive(["a b"])
    with pytest.raises(ProblemError, match="duplicate item name"):
        problem.derive(["a", "a"])


def test_what_an_operation_cuts_out_of_an_exact_cover_solves_itself() -> None:
    """Preprocessing and subproblems hand back problems of the user's class."""
    from excover.preprocess import preprocess

    problem = ExactCover(["a", "b", "c"])
    for option in (["a"], ["b", "c"], ["a", "b"], ["c"]):
        problem.add_option(option)
    reduced = preprocess(problem).problem
    assert isinstance(reduced, ExactCover) and reduced.count() == problem.count() == 2
    subproblems = problem.split(tasks=2)
    parts = [sub.reduce(problem)[0] for sub in subproblems]
    assert all(isinstance(part, ExactCover) for part in parts)
    assert sum(part.count() for part in parts) == 2
