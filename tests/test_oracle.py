"""The engine against a brute-force oracle, on random small X, XCC and MCC instances.

The oracle (:meth:`builders.Instance.all_covers`) weighs every subset of options (passing
over those that break a bound no added option can mend) and checks the definition of an
exact cover directly, so it shares no code with the model or the engine. Each property
runs for every item-choice heuristic and every engine that can run the instance (dancing
links, the bit-parallel engine, and dancing cells without multiplicities); without
multiplicities and with a deterministic heuristic the engines also agree on the order of
the solutions and on the number of search nodes.
"""

from __future__ import annotations

from budget import examples
from builders import Instance, Kind, instances
from every_way import engines_for
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, Search

HEURISTICS = ("mrv", "leftmost", "random")
KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")


def search(
    problem: ExactCover, heuristic: str, seed: int, engine: str, max_solutions: int | None = None
) -> Search:
    """A fresh run with the given heuristic (the seed only matters for ``random``)."""
    return Search(
        problem, heuristic=heuristic, seed=seed, engine=engine, max_solutions=max_solutions
    )


def check_against_oracle(instance: Instance, seed: int, k: int) -> None:
    """Every property of one instance, for each heuristic: counts, solution sets, first(),
    limits and statistics all agree with the brute-force oracle."""
    expected = instance.all_covers()
    problem = instance.build()
    same_tree = all(bound == (1, 1) for bound in instance.bounds)
    engines = engines_for(problem)  # those that take its multiplicities, if any
    for heuristic in HEURISTICS:
        for engine in engines:
            check_heuristic(instance, problem, expected, heuristic, seed, k, engine)
        if heuristic != "random" and same_tree:
            runs = [search(problem, heuristic, seed, engine) for engine in engines]
            reference = list(runs[0].solutions())
            for run in runs[1:]:
                assert list(run.solutions()) == reference
                assert run.stats.nodes == runs[0].stats.nodes


def check_heuristic(
    instance: Instance,
    problem: ExactCover,
    expected: set[frozenset[int]],
    heuristic: str,
    seed: int,
    k: int,
    engine: str,
) -> None:
    """The properties of :func:`check_against_oracle` for one heuristic and engine; ``k``
    is the bound given to ``solutions(limit=k)`` and ``max_solutions``."""
    counting = search(problem, heuristic, seed, engine)
    assert counting.count() == len(expected)
    stats = counting.stats
    assert stats.solutions == len(expected)
    assert stats.nodes >= stats.solutions
    assert stats.complete and stats.engine == engine

    found = list(search(problem, heuristic, seed, engine).solutions())
    assert all(len(set(solution)) == len(solution) for solution in found)
    as_sets = [frozenset(solution) for solution in found]
    assert len(set(as_sets)) == len(as_sets), "the same set of options came out twice"
    assert set(as_sets) == expected
    assert all(instance.is_cover(solution) for solution in found)

    first = search(problem, heuristic, seed, engine).first()
    assert (first is None) == (not expected)
    assert first is None or frozenset(first) in expected

    limited = list(search(problem, heuristic, seed, engine).solutions(limit=k))
    assert len(limited) == min(k, len(expected))
    assert {frozenset(solution) for solution in limited} <= expected
    assert len({frozenset(solution) for solution in limited}) == len(limited)

    capped = search(problem, heuristic, seed, engine, max_solutions=k)
    assert capped.count() == min(k, len(expected))
    assert capped.stats.solutions == min(k, len(expected))


def seeds() -> st.SearchStrategy[int]:
    """Seeds for the ``random`` heuristic, over the engine's whole 63-bit range."""
    return st.integers(0, 2**63 - 1)


@settings(max_examples=examples(1000), deadline=None)
@given(instances("X"), seeds(), st.integers(0, 4))
def test_x_instances_match_oracle(instance: Instance, seed: int, k: int) -> None:
    check_against_oracle(instance, seed, k)


@settings(max_examples=examples(1000), deadline=None)
@given(instances("XCC"), seeds(), st.integers(0, 4))
def test_xcc_instances_match_oracle(instance: Instance, seed: int, k: int) -> None:
    check_against_oracle(instance, seed, k)


@settings(max_examples=examples(1000), deadline=None)
@given(instances("MCC", max_options=11), seeds(), st.integers(0, 4))
def test_mcc_instances_match_oracle(instance: Instance, seed: int, k: int) -> None:
    check_against_oracle(instance, seed, k)


@settings(max_examples=examples(60), deadline=None)
@given(instances("MCC", max_options=8), st.data())
def test_is_solution_agrees_with_oracle(instance: Instance, data: st.DataObject) -> None:
    """The model's own check of a solution matches the oracle's, on arbitrary subsets of
    options and on every true solution."""
    problem = instance.build()
    for solution in instance.all_covers():
        assert problem.is_solution(sorted(solution))
    indices = st.integers(0, len(instance.options) - 1)
    for _ in range(10):
        subset = data.draw(st.lists(indices, unique=True) if instance.options else st.just([]))
        assert problem.is_solution(subset) == instance.is_cover(subset)


@settings(max_examples=examples(80), deadline=None)
@given(instances("X", max_options=12))
def test_front_doors_agree_on_counts(instance: Instance) -> None:
    """One instance built from a dense matrix, from sparse rows, through add_option and
    through Knuth's text format has the same number of solutions as the oracle."""
    expected = len(instance.all_covers())
    n_items = instance.n_primary + instance.n_secondary
    by_options = instance.build()
    routes = [
        by_options,
        ExactCover.from_sparse(instance.sparse_rows(), n_items, primary=instance.n_primary),
        ExactCover.from_dlx(by_options.to_dlx()),
    ]
    if instance.options:  # a matrix without rows has no width to tell the items
        routes.append(ExactCover.from_matrix(instance.dense_rows(), primary=instance.n_primary))
    assert [route.count() for route in routes] == [expected] * len(routes)
    assert routes[1] == by_options, "sparse rows and add_option built different problems"


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(KINDS).flatmap(instances))
def test_text_format_keeps_counts(instance: Instance) -> None:
    """Colors and multiplicities survive a trip through Knuth's text format."""
    problem = instance.build()
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again == problem
    assert again.count() == len(instance.all_covers())
