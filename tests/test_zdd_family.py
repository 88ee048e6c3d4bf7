"""Family against a model: Python sets of frozensets, on random families of up to 12
variables; canonicity, counting, sampling, drawing, saving and bad input."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExcoverError, FormatError, ResourceLimitError, UsageError
from excover.zdd import Family, Manager

Model = set[frozenset[int]]

sets_of_vars = st.frozensets(st.integers(0, 11), max_size=6)
models = st.sets(sets_of_vars, max_size=14)
variables = st.integers(0, 12)


def family(model: Model) -> Family:
    return Family.from_sets(model)


def as_model(f: Family) -> Model:
    members = list(f)
    assert len(members) == len(set(members)), "iteration repeats a set"
    return set(members)


BINARY: list[tuple[Callable[[Family, Family], Family], Callable[[Model, Model], Model]]] = [
    (lambda f, g: f | g, lambda a, b: a | b),
    (lambda f, g: f & g, lambda a, b: a & b),
    (lambda f, g: f - g, lambda a, b: a - b),
    (lambda f, g: f ^ g, lambda a, b: a ^ b),
    (Family.join, lambda a, b: {x | y for x in a for y in b}),
    (Family.meet, lambda a, b: {x & y for x in a for y in b}),
    (Family.nonsup, lambda a, b: {x for x in a if not any(y <= x for y in b)}),
    (Family.nonsub, lambda a, b: {x for x in a if not any(x <= y for y in b)}),
    (Family.restrict, lambda a, b: {x for x in a if any(y <= x for y in b)}),
    (Family.permit, lambda a, b: {x for x in a if any(x <= y for y in b)}),
]


@settings(max_examples=examples(60), deadline=None)
@given(models, models)
def test_binary_operations_match_the_model(a: Model, b: Model) -> None:
    f, g = family(a), family(b)
    for operation, reference in BINARY:
        assert as_model(operation(f, g)) == reference(a, b)


@settings(max_examples=examples(60), deadline=None)
@given(models, variables)
def test_variable_operations_match_the_model(a: Model, v: int) -> None:
    f = family(a)
    assert as_model(f.onset(v)) == {x for x in a if v in x}
    assert as_model(f.offset(v)) == {x for x in a if v not in x}
    assert as_model(f.change(v)) == {x ^ {v} for x in a}
    assert f.onset(v) | f.offset(v) == f


@settings(max_examples=examples(60), deadline=None)
@given(models)
def test_queries_match_the_model(a: Model) -> None:
    f = family(a)
    assert f.count() == len(a) == len(list(f))
    assert f.is_empty() == (not a)
    assert f.elements() == frozenset().union(*a)
    assert as_model(f.minimal()) == {x for x in a if not any(y < x for y in a)}
    assert as_model(f.maximal()) == {x for x in a if not any(x < y for y in a)}
    for s in a:
        assert s in f
        assert as_model(f.remove(s)) == a - {s}
    if a:
        key: Callable[[frozenset[int]], list[int]] = sorted
        assert f.min() == min(a, key=key)
        assert f.max() == max(a, key=key)
        assert f.choose() in a
    outsider = frozenset({0, 3, 7, 11})
    assert (outsider in f) == (outsider in a)
    assert as_model(f.add(outsider)) == a | {outsider}


@settings(max_examples=examples(60), deadline=None)
@given(models, models)
def test_order_and_division_match_the_model(a: Model, b: Model) -> None:
    f, g = family(a), family(b)
    assert (f <= g) == (a <= b)
    assert (f < g) == (a < b)
    assert (f == g) == (a == b)
    quotient = {
        x
        for x in {y - d for y in a for d in b}
        if b and all(x.isdisjoint(d) and x | d in a for d in b)
    }
    assert as_model(f / g) == quotient
    assert as_model(f % g) == a - {x | d for x in quotient for d in b}


@settings(max_examples=examples(40), deadline=None)
@given(models)
def test_canonical_structural_equality_is_identity(a: Model) -> None:
    f = family(a)
    shuffled = list(a)
    random.Random(len(a)).shuffle(shuffled)
    g = Family.from_sets(shuffled)
    assert f == g and hash(f) == hash(g)
    if f.var is not None:
        assert Family.node(f.var, f.lo, f.hi) == f
        assert f.lo == f.offset(f.var)


@settings(max_examples=examples(40), deadline=None)
@given(models, st.lists(st.integers(-3, 14), max_size=12))
def test_weights_match_brute_force(a: Model, raw: list[int]) -> None:
    weights = (raw + [1] * 12)[:12]
    f = family(a)
    if not a:
        with pytest.raises(UsageError):
            f.max_weight(weights)
        return
    best, value = f.max_weight(weights)
    assert best in a and value == sum(weights[v] for v in best)
    assert value == max(sum(weights[v] for v in s) for s in a)
    low, low_value = f.min_weight(weights)
    assert low in a and low_value == min(sum(weights[v] for v in s) for s in a)
    ranked = list(f.by_weight(weights))
    assert {s for s, _ in ranked} == a and len(ranked) == len(a)
    assert all(w == sum(weights[v] for v in s) for s, w in ranked)
    assert [w for _, w in ranked] == sorted((w for _, w in ranked), reverse=True)
    rising = [w for _, w in f.by_weight(weights, descending=False)]
    assert rising == sorted(rising) and rising[0] == low_value


def test_sample_is_uniform_by_chi_square() -> None:
    members = [{0}, {1, 2}, {3}, set(), {0, 5, 7}, {2, 3}]
    f = Family.from_sets(members)
    draws = f.sample(random.Random(7), 6000)
    counts = Counter(draws)
    assert set(counts) == {frozenset(m) for m in members}
    expected = len(draws) / len(members)
    chi2 = sum((counts[frozenset(m)] - expected) ** 2 / expected for m in members)
    assert chi2 < 20.5  # the 0.999 quantile of chi-square with 5 degrees of freedom


def test_counts_beyond_sixty_four_and_one_hundred_twenty_eight_bits() -> None:
    # the family of all subsets of n variables has 2**n sets and n nodes
    for n in (70, 140, 300):
        f = Family.base()
        for v in reversed(range(n)):
            f = Family.node(v, f, f)
        assert f.count() == 2**n and f.size == n


def test_hundred_thousand_variables_need_no_deep_recursion() -> None:
    n = 100_000
    chain = Family.singleton(range(n))
    odd = Family.singleton(range(1, n, 2))
    both = chain | odd
    assert both.count() == 2 and both.size == n + n // 2 - 1  # both chains end at {n-1}
    assert both & chain == chain and both - chain == odd
    assert (chain ^ odd).count() == 2
    assert both.minimal() == odd and both.maximal() == chain
    assert len(list(both)) == 2
    assert chain.change(n).count() == 1


def test_repr_dot_and_save_load(tmp_path: Path) -> None:
    f = Family.from_sets([{0, 1}, {2}])
    assert repr(f) == "{ {2}, {0,1} }"
    assert repr(Family.empty()) == "{}" and repr(Family.base()) == "{ {} }"
    big = Family.base()
    for v in reversed(range(10)):
        big = Family.node(v, big, big)
    assert repr(big) == "<Family: 1024 sets, 10 nodes>"
    dot = f.to_dot()
    assert dot.startswith("digraph") and dot.count("style=dotted") == f.size
    path = tmp_path / "f.zdd"
    big.save(path)
    assert Family.load(path) == big
    f.save(path)
    assert Family.load(path) == f


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not a zdd\nroot 1\n",
        "excover-zdd 1\n2 0 0 1\n",
        "excover-zdd 1\n2 0 0 5\nroot 2\n",
        "excover-zdd 1\n2 0 0 1\n3 1 2 1\nroot 3\n",
        "excover-zdd 1\n2 x 0 1\nroot 2\n",
        "excover-zdd 1\nroot 9\n",
    ],
)
def test_corrupt_files_are_format_errors(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.zdd"
    path.write_text(text)
    with pytest.raises(FormatError):
        Family.load(path)


def test_bad_arguments() -> None:
    one = Family.singleton({3})
    with pytest.raises(UsageError):
        Family.node(5, Family.empty(), one)  # 5 is not below 3
    with pytest.raises(UsageError):
        Family.node(-1, Family.empty(), Family.base())
    with pytest.raises(UsageError):
        Family.from_sets([{-2}])
    with pytest.raises(UsageError):
        _ = Family.base().lo
    other = Manager()
    with pytest.raises(ExcoverError):
        _ = one | Family.singleton({3}, other)


def test_node_limit_raises_and_the_manager_stays_usable() -> None:
    manager = Manager(nodes=64, max_nodes=200)
    keep = Family.from_sets([{1}, {2, 3}], manager)

    def build_wide() -> Family:
        wide = Family.base(manager)
        for v in reversed(range(300)):
            wide = Family.node(v, wide, Family.base(manager))
        return wide

    with pytest.raises(ResourceLimitError) as caught:
        build_wide()
    assert isinstance(caught.value, MemoryError)
    del caught  # its traceback holds the frame of build_wide, hence the big family
    assert keep.count() == 2 and keep | Family.singleton({4}, manager) != keep
    assert manager.nodes < 200


def test_garbage_is_collected_across_repeated_builds() -> None:
    manager = Manager(nodes=1024)
    for round_ in range(30):
        f = Family.from_sets([{round_, v, v + 40} for v in range(30)], manager)
        assert f.count() == 30
    del f
    manager.collect()
    assert manager.nodes == 2


def _children_first(f: Family) -> bool:
    """Whether the store lists every node of ``f`` after its children, each once."""
    store = f.manager.store
    order = store.nodes(f._id)
    position = {node: k for k, node in enumerate(order)}
    return len(position) == len(order) == f.size and all(
        position.get(child, -1) < position[node]
        for node in order
        for child in store.triple(node)[1:]
        if child >= 2
    )


def test_traversals_agree_whether_the_store_is_ordered_or_not() -> None:
    # a large family in a fresh store (walked by passes over the ids), a small one made
    # after many other nodes (walked depth first), then one made in freed slots whose
    # children have larger ids than it (the store no longer ordered)
    manager = Manager(nodes=1024)
    rng = random.Random(7)
    model = {frozenset(rng.sample(range(40), 5)) for _ in range(300)}
    large = Family.from_sets(model, manager)
    assert large.count() == len(model) and as_model(large) == model and _children_first(large)
    small_model = {frozenset({41, 42}), frozenset({43})}
    garbage = [Family.from_sets([{v, v + 50, w} for w in range(60, 90)], manager) for v in range(9)]
    garbage += [Family.from_sets([{v, w} for w in range(60, 90)], manager) for v in range(9, 30)]
    small = Family.from_sets(small_model, manager)
    assert small.count() == 2 and as_model(small) == small_model and _children_first(small)
    del garbage
    manager.collect()
    reused = large.change(100) | small  # new nodes in the freed low slots
    store = manager.store
    assert any(
        child > node for node in store.nodes(reused._id) for child in store.triple(node)[1:]
    ), "the premise: a node made in a freed slot below one of its children"
    expected = {s | {100} for s in model} | small_model
    assert reused.count() == len(expected) and as_model(reused) == expected
    assert _children_first(reused)
