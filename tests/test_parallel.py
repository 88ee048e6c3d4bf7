"""Splitting, parallel counting and enumeration, and Knuth's estimates.

The references are independent of the code under test: the brute-force oracle of
``builders.Instance`` on random instances, and the plain dancing-links search (its counts,
its solutions in order, its node counts) on Knuth's files.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest
from budget import examples
from builders import Instance, Kind, dominoes, instances
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, ExcoverWarning, Search, UsageError
from excover.cli.exact_cover.parsers import ESTIMATE_SAMPLES
from excover.parallel import Subproblem, estimate, split, tree
from excover.parallel.probes import SAMPLES, Probe, probe, top_of_tree
from excover.parallel.run import run_tasks
from excover.parallel.tree import Layout, State, reduced_after

KNUTH = Path(__file__).parent / "data" / "knuth"
KINDS: list[Kind] = ["X", "XCC", "MCC"]


def knuth(name: str) -> ExactCover:
    return ExactCover.read(KNUTH / f"{name}.dlx")


def subproblem_solutions(problem: ExactCover, sub: Subproblem) -> list[frozenset[int]]:
    """The solutions of a subproblem, through its reduced problem, as sets of options."""
    small, original = sub.reduce(problem)
    return [
        frozenset(sub.forced) | {original[k] for k in solution}
        for solution in small.solutions(method="search")
    ]


def tree_nodes(state: State) -> int:
    """The nodes of the search tree below ``state``, walked in full (DLX1's definition:
    one per node where an item is chosen, one per solution)."""
    item = state.choose()
    if item is None:
        return 1
    total = 1
    for branch in state.branches(item):
        below = state.copy()
        below.follow(item, branch)
        total += tree_nodes(below)
    return total


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Two worker processes shared by the tests of this module (they start slowly)."""
    with ProcessPoolExecutor(2) as executor:
        yield executor


# --------------------------------------------------------------------------- splitting


@settings(max_examples=examples(40))
@given(
    st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, 9)),
    st.integers(1, 12),
    st.integers(0, 3),
)
def test_split_partitions_the_solutions(instance: Instance, tasks: int, depth: int) -> None:
    problem = instance.build()
    truth = instance.all_covers()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ExcoverWarning)
        by_tasks = split(problem, tasks=tasks)
    if len(by_tasks) != tasks:  # fewer, said, and only when nothing is left to cut
        assert len(by_tasks) < tasks
        assert [str(w.message).split(":")[0] for w in caught] == [
            f"split into {len(by_tasks)} subproblems, not {tasks}"
        ]
        assert all(len(subproblem_solutions(problem, sub)) == 1 for sub in by_tasks)
    else:
        assert not caught
    for subs in (by_tasks, split(problem, depth=depth)):
        found = [s for sub in subs for s in subproblem_solutions(problem, sub)]
        assert len(found) == len(truth)  # no solution twice
        assert set(found) == truth
        assert [sub.path for sub in subs] == sorted(sub.path for sub in subs)


@settings(max_examples=examples(30))
@given(st.sampled_from(KINDS[:2]).flatmap(lambda kind: instances(kind, 10)))
def test_tree_is_the_engines_tree(instance: Instance) -> None:
    """The Python tree walk makes the engine's choices: same nodes, and parallel solutions
    come in the engine's own order."""
    problem = instance.build()
    search = problem.search()
    sequential = list(search.solutions())
    assert tree_nodes(State(Layout.of(problem))) == search.stats.nodes
    assert list(problem.solutions(tasks=5)) == sequential


def tree_walk(state: State) -> list[tuple[int | None, list[int], list[int]]]:
    """Every node below ``state`` in depth-first order: the item chosen there, its
    primary items' counts and its live options."""
    item = state.choose()
    found = [(item, list(state.count), sorted(state.live))]
    if item is None:
        return found
    for branch in state.branches(item):
        below = state.copy()
        below.follow(item, branch)
        found += tree_walk(below)
    return found


@settings(max_examples=examples(30))
@given(st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, 10)))
def test_options_forgotten_in_bulk_walk_the_same_tree(instance: Instance) -> None:
    """The tree walk counts the items of many options taken out of play by numpy
    (:data:`~excover.parallel.tree.BULK_OPTIONS` or more) and of a few by a Counter:
    the same nodes, choices and counts either way, with multiplicities too."""
    problem = instance.build()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tree, "BULK_OPTIONS", 1)
        bulk = tree_walk(State(Layout.of(problem)))
        patch.setattr(tree, "BULK_OPTIONS", 10**9)
        assert tree_walk(State(Layout.of(problem))) == bulk


def test_options_forgotten_in_bulk_on_a_big_problem() -> None:
    """On pento3x20, whose options rule out dozens at a time, the split and the probes
    are the same whichever way the counts go down."""
    problem = knuth("pento3x20")

    def walks() -> tuple[list[Subproblem], list[Probe]]:
        rng = random.Random(5)
        root = State(Layout.of(problem))
        return split(problem, tasks=20), [probe(root.copy(), rng) for _ in range(50)]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tree, "BULK_OPTIONS", 1)
        bulk = walks()
        patch.setattr(tree, "BULK_OPTIONS", 10**9)
        plain = walks()
    assert [sub.as_dict() for sub in bulk[0]] == [sub.as_dict() for sub in plain[0]]
    assert bulk[1] == plain[1]


@settings(max_examples=examples(60))
@given(st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, 9)), st.data())
def test_reduced_after_is_the_reduced_state(instance: Instance, data: st.DataObject) -> None:
    """The problem left after forced and forbidden options, computed on the flat arrays
    at once, is the one the tree's state reduces to (forced options that conflict
    included), item for item and option for option."""
    problem = instance.build()
    options = range(problem.n_options)
    forced = tuple(
        data.draw(st.lists(st.sampled_from(options), min_size=1, max_size=3)) if options else []
    )
    forbidden = tuple(data.draw(st.lists(st.sampled_from(options), max_size=4)) if options else [])
    expected = State.after(Layout.of(problem), forced, forbidden).reduced()
    assert reduced_after(problem, forced, forbidden) == expected


def test_reduced_after_leaves_out_what_the_forced_options_rule_out() -> None:
    """Each way a forced option rules others out: a primary item filled up to its upper
    bound, a secondary item used without a color, or with another color; and forced
    options in conflict leave no option."""
    problem = ExactCover(primary=["a", "b", "m"], secondary=["s", "t"])
    problem.set_multiplicity("m", 0, 2)
    for option in (
        ["a", "s:red", "m"],  # 0, forced
        ["b", "s:blue"],  # 1: another color on s
        ["b", "s:red", "t"],  # 2: kept (s red), t still free
        ["b", "m"],  # 3: kept (m may take one more)
        ["a", "t"],  # 4: a is full
        ["m", "t"],  # 5, forced with 0: fills m and uses t without a color
        ["b", "t"],  # 6: t is used
    ):
        problem.add_option(option)
    small, original = reduced_after(problem, (0,), ())
    assert original == [2, 3, 5, 6]
    assert small.primary_items == ("b", "m") and small.multiplicity("m") == (0, 1)
    assert small.secondary_items == ("t",)
    small, original = reduced_after(problem, (0, 5), ())
    assert (original, small.primary_items, small.secondary_items) == ([], ("b",), ())
    for forced, forbidden in [((0,), (3,)), ((0, 5), ()), ((0, 4), ()), ((5, 6), ()), ((1, 2), ())]:
        expected = State.after(Layout.of(problem), forced, forbidden).reduced()
        assert reduced_after(problem, forced, forbidden) == expected


def test_forced_options_that_conflict_leave_no_solution() -> None:
    """Forced options that overlap are a dead end even when between them they cover
    every item: nothing is left to cover, yet the node is no solution. The problem left
    has no solution, and a walk of the tree below the node finds none."""
    problem = ExactCover(primary=["a", "b"])
    for option in (["a", "b"], ["a"], ["b"]):
        problem.add_option(option)
    for forced in [(0, 1), (1, 0), (0, 0), (1, 2, 0)]:
        small, original = reduced_after(problem, forced, ())
        assert original == [] and isinstance(small, ExactCover) and small.count() == 0
        state = State.after(Layout.of(problem), forced, ())
        item = state.choose()
        assert item is not None and state.degree(item) == 0  # no solution: a dead end


@settings(max_examples=examples(30))
@given(instances("MCC", 9), st.integers(1, 8))
def test_parallel_solutions_multiplicities(instance: Instance, tasks: int) -> None:
    problem = instance.build()
    found = list(problem.solutions(tasks=tasks))
    assert len(found) == len(instance.all_covers())
    assert {frozenset(s) for s in found} == instance.all_covers()
    assert problem.count(tasks=tasks) == len(found)


@pytest.mark.parametrize("name", ["queens8", "queens10", "domino6x6", "pento3x20", "scott-pfix"])
def test_split_counts_add_up_on_knuth_files(name: str) -> None:
    problem = knuth(name)
    expected = problem.count(method="search")
    subs = split(problem, tasks=24)
    assert len(subs) == 24
    assert sum(sub.reduce(problem)[0].count(method="search") for sub in subs) == expected
    assert sum(sub.reduce(problem)[0].count() for sub in split(problem, depth=1)) == expected
    assert problem.count(method="search", tasks=7) == expected


def test_split_adapts_to_an_unbalanced_tree() -> None:
    """The root's first branch leads to the domino tilings of a 4x5 board, its two others
    to one solution each: the split goes deep on the big side only."""
    board = dominoes(4, 5)
    cells = list(board.primary_items)
    problem = ExactCover(primary=["root", *cells], secondary=["mode"])
    for mode in ("big", "one", "two"):
        problem.add_option(["root", f"mode:{mode}"])
    for k in range(board.n_options):
        problem.add_option([*board.option_items(k), "mode:big"])
    for mode in ("one", "two"):
        problem.add_option([*cells, f"mode:{mode}"])
    subs = split(problem, tasks=12)
    found = sum(sub.reduce(problem)[0].count(method="search") for sub in subs)
    assert found == problem.count(method="search") == board.count(method="search") + 2
    assert max(len(sub.path) for sub in subs) >= 3
    assert [sub.path for sub in subs if sub.path[0] > 0] == [(1,), (2,)]


def test_subproblem_round_trips_and_rejects_bad_data() -> None:
    sub = Subproblem((3, 1), (2,), (0, 4), 12.5)
    assert Subproblem.from_dict(sub.as_dict()) == sub
    for bad in [[1], {"forbidden": []}, {"forced": [-1]}, {"forced": ["a"]}]:
        with pytest.raises(UsageError):
            Subproblem.from_dict(bad)
    with pytest.raises(UsageError, match="option 999"):
        list(run_tasks(knuth("queens8"), [Subproblem((999,))]))
    for bad_sub in [Subproblem((-1,)), Subproblem((0,), (64,)), Subproblem(("0",))]:  # type: ignore[arg-type]
        with pytest.raises(UsageError, match="names option"):
            bad_sub.reduce(knuth("queens8"))


def test_conflicting_forced_options_give_no_solution() -> None:
    problem = knuth("queens8")
    first = problem.first()
    assert first is not None
    row_mate = next(
        k
        for k in range(problem.n_options)
        if k != first[0] and problem.option_items(k)[0] == problem.option_items(first[0])[0]
    )
    assert subproblem_solutions(problem, Subproblem((first[0], row_mate))) == []
    assert len(subproblem_solutions(problem, Subproblem(tuple(first)))) == 1


@pytest.mark.parametrize(
    "call",
    [
        lambda p: split(p),
        lambda p: split(p, depth=1, tasks=2),
        lambda p: split(p, depth=-1),
        lambda p: split(p, tasks=0),
        lambda p: p.count(tasks=0),
        lambda p: p.count(workers=0),
        lambda p: p.count(method="sat", workers=2),
        lambda p: p.count(tasks=4, max_nodes=10),
        lambda p: p.count(executor="not an executor"),
        lambda p: estimate(p, samples=0),
        lambda p: list(p.solutions(tasks=3, limit=-1)),
    ],
)
def test_bad_arguments(call: object) -> None:
    with pytest.raises(UsageError):
        call(knuth("queens8"))  # type: ignore[operator]


# --------------------------------------------------------------------------- parallel


def test_parallel_count_and_solutions_on_a_pool(pool: ProcessPoolExecutor) -> None:
    problem = knuth("pento3x20")
    assert problem.count(executor=pool, tasks=16) == problem.count(method="search") == 8
    queens = knuth("queens10")
    assert list(queens.solutions(executor=pool, tasks=20)) == list(queens.solutions())
    assert list(queens.solutions(executor=pool, tasks=20, limit=5)) == list(
        queens.solutions(limit=5)
    )
    grid = knuth("domino6x6")  # DXZ in each subproblem
    assert grid.count(method="zdd", executor=pool, tasks=8) == grid.count(method="search")
    zdd_solutions = {tuple(s) for s in grid.solutions(method="zdd", executor=pool, tasks=8)}
    assert zdd_solutions == {tuple(sorted(s)) for s in grid.solutions()}


def test_workers_make_their_own_pool() -> None:
    problem = knuth("queens10")
    assert problem.count(workers=2) == problem.count(method="search")


@pytest.mark.slow  # starts a Dask cluster of two processes
def test_dask_local_cluster() -> None:
    """A Dask distributed Client works as the executor (two worker processes)."""
    import distributed

    cluster = distributed.LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:  # type: ignore[no-untyped-call]
        problem = knuth("queens10")
        assert problem.count(executor=client, tasks=12) == problem.count(method="search")
        assert list(problem.solutions(executor=client, tasks=6)) == list(problem.solutions())
        grid = knuth("domino6x6")
        assert grid.count(method="zdd", executor=client, tasks=6) == 6728


# --------------------------------------------------------------------------- estimates


@pytest.mark.parametrize("name", ["queens8", "queens10", "domino6x6", "pento3x20", "scott-pfix"])
def test_estimate_is_near_the_node_count(name: str) -> None:
    problem = knuth(name)
    search = problem.search()
    search.count()
    guess = problem.estimate(samples=400, seed=1, timed=False)
    assert 1 / 3 < guess.nodes / search.stats.nodes < 3
    assert 1 / 3 < guess.updates / search.stats.updates < 3
    assert guess.seconds is None


class Scripted:
    """A stand-in for ``random.Random`` whose ``randrange`` follows a script of choices
    (then 0), recording the number of branches of each call."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.asked: list[int] = []

    def randrange(self, degree: int) -> int:
        position = len(self.asked)
        self.asked.append(degree)
        return self.script[position] if position < len(self.script) else 0


def every_probe(
    state: State, prefix: list[int], cutoff: int | None = None, guard: int = 0
) -> Iterator[tuple[Fraction, Probe]]:
    """Every probe from ``state`` that starts with the choices ``prefix``, with its
    probability: the distribution of a probe, enumerated in full."""
    rng = Scripted(prefix)
    found = probe(state.copy(), rng, cutoff, guard)  # type: ignore[arg-type]
    chance = Fraction(1)
    for degree in rng.asked:
        chance /= degree
    yield chance, found
    taken = prefix + [0] * (len(rng.asked) - len(prefix))
    for position in range(len(prefix), len(rng.asked)):
        for other in range(1, rng.asked[position]):
            yield from every_probe(state, [*taken[:position], other], cutoff, guard)


@settings(max_examples=examples(40))
@given(st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, 8)))
def test_probes_are_unbiased(instance: Instance) -> None:
    """Knuth's theorem, checked exactly: over the distribution of one probe, the mean
    estimate of the nodes is the size of the tree and that of the solutions the count."""
    problem = instance.build()
    root = State(Layout.of(problem))
    outcomes = list(every_probe(root, []))
    assert sum(chance for chance, _ in outcomes) == 1
    assert sum(chance * p.nodes for chance, p in outcomes) == tree_nodes(root)
    assert sum(chance * p.solutions for chance, p in outcomes) == len(instance.all_covers())


@settings(max_examples=examples(40), deadline=None)
@given(
    st.sampled_from(KINDS[:2]).flatmap(lambda kind: instances(kind, 8)),
    st.integers(0, 4),
    st.sampled_from([1, 3, 1000]),
)
def test_probes_that_count_subtrees_are_unbiased(
    instance: Instance, cutoff: int, guard: int
) -> None:
    """The same, for probes that count the subtree they reach at ``cutoff`` in full (or
    go deeper when it needs more than ``guard`` nodes): exact in expectation, and never
    further from the truth than plain probes' worst case."""
    problem = instance.build()
    root = State(Layout.of(problem))
    outcomes = list(every_probe(root, [], cutoff, guard))
    assert sum(chance for chance, _ in outcomes) == 1
    assert sum(chance * p.nodes for chance, p in outcomes) == tree_nodes(root)
    assert sum(chance * p.solutions for chance, p in outcomes) == len(instance.all_covers())


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(KINDS[:2]).flatmap(lambda kind: instances(kind, 9)), st.integers(1, 30))
def test_strata_hold_the_whole_tree(instance: Instance, most: int) -> None:
    """The top of the tree and the subtrees of its strata add up to the whole tree: the
    nodes above the strata plus the strata's own searches give the engine's count."""
    problem = instance.build()
    root = State(Layout.of(problem))
    strata, depth, above = top_of_tree(root, most)
    assert len(strata) <= most or depth == 0
    nodes = solutions = 0
    for top in strata:
        small, _ = top.reduced()
        search = Search(small)
        solutions += search.count()
        nodes += search.stats.nodes
    assert above + nodes == tree_nodes(root)
    assert solutions == len(instance.all_covers())


def test_small_trees_are_counted_not_estimated() -> None:
    guess = knuth("queens10").estimate()
    assert guess.exact and (guess.solutions, guess.nodes) == (724, 11578)
    assert guess.interval() == (724, 724) and guess.interval("nodes") == (11578, 11578)
    with pytest.raises(UsageError):
        guess.interval("updates")


def test_estimate_of_a_big_tree_and_its_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """queens12 (14,200 solutions, 211,716 nodes in Knuth's manifest) is beyond the exact
    search: the stratified probes land near both figures, their ranges hold them, and the
    same seed gives the same figures."""
    guess = knuth("queens12").estimate(seed=3, timed=False)
    assert not guess.exact and guess.cutoff is not None and guess.samples == SAMPLES
    low, high = guess.interval()
    assert low <= 14_200 <= high and 0.5 < guess.solutions / 14_200 < 2
    low, high = guess.interval("nodes")
    assert low <= 211_716 <= high and 0.5 < guess.nodes / 211_716 < 2
    assert knuth("queens12").estimate(seed=3, timed=False) == guess
    assert ESTIMATE_SAMPLES == SAMPLES  # the command line's default is the library's


def test_estimate_is_exact_on_a_regular_tree() -> None:
    """On a tree whose nodes at each depth all have the same degree every probe gives the
    true size: the options of item k are k+1 choices of it alone."""
    problem = ExactCover(primary=4)
    for item in range(4):
        for _ in range(item + 1):
            problem.add_option([item])
    search = problem.search()
    assert search.count() == 24
    rng = random.Random(5)
    root = State(Layout.of(problem))
    for _ in range(5):
        found = probe(root.copy(), rng)
        assert found.nodes == search.stats.nodes
        assert found.solutions == 24
    timed = problem.estimate(samples=3)
    assert timed.seconds is not None and timed.seconds > 0
    assert timed.nodes_error == 0


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data(), kind=st.sampled_from(["X", "XCC", "MCC"]))
def test_every_split_is_a_partition_and_damaged_ones_are_not(
    data: st.DataObject, kind: Kind
) -> None:
    """check_partition (which vets checkpoints) accepts what split makes, at any depth or
    number of tasks, and refuses the same list with a subproblem left out."""
    from excover.parallel.subproblems import check_partition

    problem = data.draw(instances(kind)).build()
    tasks = data.draw(st.integers(1, 12))
    for subs in (split(problem, tasks=tasks), split(problem, depth=data.draw(st.integers(0, 3)))):
        check_partition(problem, subs)
        if subs and sum(s.reduce(problem)[0].count() for s in subs[1:]) != problem.count():
            with pytest.raises(UsageError):
                check_partition(problem, subs[1:])


def test_a_split_into_an_exact_number_of_tasks_uses_a_rest_subproblem() -> None:
    """queens10 into 7 tasks: exactly 7, one of them the rest of a node's branches; it
    survives a checkpoint's JSON, the partition check accepts it and refuses it damaged,
    and the counts still add up."""
    from excover.parallel.subproblems import check_partition

    problem = knuth("queens10")
    subs = split(problem, tasks=7)
    assert len(subs) == 7 and sum(sub.rest for sub in subs) == 1
    again = [Subproblem.from_dict(sub.as_dict()) for sub in subs]
    assert [(s.forced, s.forbidden, s.path, s.rest) for s in again] == [
        (s.forced, s.forbidden, s.path, s.rest) for s in subs
    ]
    check_partition(problem, again)
    assert sum(sub.reduce(problem)[0].count(method="search") for sub in subs) == 724
    rest = next(k for k, sub in enumerate(subs) if sub.rest)
    damaged = Subproblem(subs[rest].forced, subs[rest].forbidden[:-1], subs[rest].path, rest=True)
    with pytest.raises(UsageError, match="does not hold the options"):
        check_partition(problem, [*subs[:rest], damaged, *subs[rest + 1 :]])
    with pytest.raises(UsageError):
        Subproblem.from_dict({"forced": [], "rest": True})
