"""The share of DXZ's tree walked (``Run.progress``): Knuth's probes of the subtrees'
sizes (``Dxz.child_sizes``) and the share that weighs the top levels' options by them
(:mod:`excover.zdd.weighed`)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from excover import ExactCover
from excover.puzzles.queens import queens
from excover.zdd import Manager, _dxz, dxz, weighed

KNUTH = Path(__file__).parent / "data" / "knuth"


def links(problem: ExactCover) -> _dxz.Dxz:
    """A DXZ search of ``problem`` that never runs, for its probes."""
    return _dxz.Dxz(dxz.Run(problem, Manager())._arrays)


def regular() -> ExactCover:
    """A tree as regular as can be: item a has 3 options, then item b 2, then c 4 (each
    option covers one item): every node of a level branches alike."""
    problem = ExactCover(["a", "b", "c"])
    for item, copies in (("a", 3), ("b", 2), ("c", 4)):
        for _ in range(copies):
            problem.add_option([item])
    return problem


def test_the_probes_of_a_regular_tree_are_exact() -> None:
    """Knuth's estimate is exact where every node of a level branches alike, whatever
    the random descents: each option of a has 1 + 2 + 2 * 4 nodes below it (its own
    included); each of b, below an option of a, 1 + 4."""
    search = links(regular())
    for seed in (1, 2, 3):
        found, descents = search.child_sizes((), 1, 5, seed)
        assert found == {(): [[11.0] * 5] * 3}
        assert descents == 3 * 5
    found, descents = search.child_sizes((), 2, 4, 9)
    assert (
        found is not None
        and found[()] == 3
        and found[(1,)] == [[5.0] * 4] * 2
        and descents == 3 * 2 * 4
    )
    expected: dict[tuple[int, ...], list[float]] = {(k,): [5.0, 5.0] for k in range(3)}
    assert weighed.sizes_of(found) == {(): [11.0] * 3, **expected}
    assert search.child_sizes((2,), 1, 4, 9)[0] == {(): [[5.0] * 4] * 2}
    assert search.child_sizes((2, 1, 3), 1, 4, 9)[0] == {(): []}  # a solution
    assert search.child_sizes((3,), 1, 4, 9)[0] is None  # a has no fourth option


def test_the_probes_put_the_links_back() -> None:
    """After any probes a search counts as a fresh one does (the same nodes, hits and
    family), and once it has run it refuses to probe (its links are then in the middle
    of its path)."""
    problem = queens(8)
    manager = Manager()
    fresh = dxz.Run(problem, manager).run()
    assert fresh.family is not None
    probed = _dxz.search(manager.store, dxz.Run(problem, manager)._arrays)
    for prefix in ((), (0,), (1, 2), (5, 0, 3)):
        probed.child_sizes(prefix, 2, 3, 7)
    root, _, nodes, hits = _dxz.run(manager.store, probed)
    assert (nodes, hits) == (fresh.nodes, fresh.hits)
    assert root == fresh.family._id
    with pytest.raises(ValueError, match="not started"):
        probed.child_sizes((), 1, 1, 1)


def test_the_weighed_share_is_knuths_without_sizes() -> None:
    """No sizes: each option an equal share, as ``Dxz.progress`` has it; sizes: the
    options before the one chosen hold their sizes' share, the one chosen its own."""
    places = [(1, 4), (2, 3), (0, 2)]
    assert weighed.share_of(places, lambda prefix: None) == pytest.approx(1 / 4 + 2 / 12)
    sizes = {(): [6.0, 2.0, 1.0, 1.0], (1,): [1.0, 1.0, 2.0]}
    share = weighed.share_of(places, sizes.get)
    assert share == pytest.approx(0.6 + 0.2 * 0.5)


def lopsided() -> ExactCover:
    """A problem whose first option at the root holds nearly all the tree: item a's
    first option covers a alone and leaves a set partition of twelve items into pairs
    and singles; its next nine options cover everything at once."""
    rest = [f"x{k}" for k in range(12)]
    problem = ExactCover(["a", *rest])
    problem.add_option(["a"])
    for _ in range(9):
        problem.add_option(["a", *rest])
    for k, item in enumerate(rest):
        problem.add_option([item])
        for other in rest[k + 1 :]:
            problem.add_option([item, other])
    return problem


def trajectory(problem: ExactCover, step: int) -> tuple[list[tuple[int, float, float]], int]:
    """(search nodes, weighed share, equal share) after every ``step`` nodes of a DXZ
    count of ``problem``, then its search nodes in all."""
    run = dxz.Run(problem, Manager())
    seen = []
    budget = 0
    while True:
        budget += step
        probe = run.run(budget)
        if probe.family is not None:
            break
        weighed_share, equal = run.progress(), run._search.progress()
        assert weighed_share is not None and equal is not None
        seen.append((probe.nodes, weighed_share, float(equal)))
    assert run.progress() == 1.0
    return seen, probe.nodes


def test_the_weighed_share_follows_the_work_on_a_lopsided_tree() -> None:
    """Where one option of the root holds nearly all of the tree, Knuth's equal shares
    give it a tenth; weighed by the probes' sizes, the share walked stays far closer
    to the share of the search nodes entered."""
    seen, total = trajectory(lopsided(), 50)
    inside = [reading for reading in seen if reading[0] < total - 10]  # the first option's
    assert len(inside) > 10
    for nodes, weighed_share, equal in inside:
        truth = nodes / total
        assert equal <= 0.1
        assert abs(weighed_share - truth) < abs(equal - truth)


@pytest.mark.parametrize("name", ["queens", "lopsided"])
def test_the_weighed_share_grows_from_zero_to_one(name: str) -> None:
    """0 before the search starts, 1 once it has ended, never going back in between."""
    problem = queens(9) if name == "queens" else lopsided()
    run = dxz.Run(problem, Manager())
    assert run.progress() == 0.0
    seen, _ = trajectory(problem, 500 if name == "queens" else 20)
    shares = [share for _, share, _ in seen]
    assert len(set(shares)) > 3
    assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise([0.0, *shares, 1.0]))


def test_the_memo_share_is_the_walked_share_where_the_memo_is_seldom_reused() -> None:
    """No hits, or few (up to the floor): the share of the work is the share of the
    tree walked."""
    for walked in (0.0, 0.013, 0.5, 0.97, 1.0):
        for reuse in (0.0, weighed.REUSE_FLOOR / 2, weighed.REUSE_FLOOR):
            assert weighed.memo_share(walked, reuse) == walked


@pytest.mark.parametrize("reuse", [0.06, 0.2, 1.5])
def test_the_memo_share_runs_ahead_of_the_tree_walked(reuse: float) -> None:
    """With hits, the share of the work goes from 0 to 1, ahead of the tree walked and
    the more so the more the memo hits; its pace falls along the tree by 1 + a (the
    cost of a node of the tree at its end against its start), a = MEMO x the reuse
    beyond the floor."""
    grid = [k / 100 for k in range(101)]
    shares = [weighed.memo_share(x, reuse) for x in grid]
    assert shares[0] == 0.0 and shares[-1] == pytest.approx(1.0)
    assert all(a < b for a, b in itertools.pairwise(shares))
    assert all(share > x for x, share in zip(grid[1:-1], shares[1:-1], strict=True))
    more = [weighed.memo_share(x, 1.5 * reuse) for x in grid[1:-1]]
    assert all(b > a for a, b in zip(shares[1:-1], more, strict=True))
    step = 1e-6
    start = weighed.memo_share(step, reuse) / step
    end = (1.0 - weighed.memo_share(1.0 - step, reuse)) / step
    a = weighed.MEMO * (reuse - weighed.REUSE_FLOOR)
    assert start / end == pytest.approx(1 + a, rel=1e-4)


def test_the_share_never_goes_back_when_the_reuse_falls() -> None:
    """The memo's reuse so far may fall between two readings; the share shown does
    not."""
    share = weighed.Share(lambda levels, samples, seed: (None, 0))  # no probes: Knuth's
    places = [(1, 4), (2, 3)]
    first = share.of(places, 0.3)
    assert first > weighed.share_of(places, lambda prefix: None)
    assert share.of(places, 0.1) == first
    assert share.of([(3, 4)], 0.1) > first


def test_the_share_of_a_count_whose_memo_hits_runs_ahead_of_the_tree_walked() -> None:
    """DXZ on dominoes of a 10 x 10 board meets again about one subproblem in two it
    has solved: its share (``Run.progress``) is the memo share of the tree walked at
    the memo's reuse so far (hits per subproblem held), ahead of the tree walked itself
    (the same probes: their seeds are fixed)."""
    problem = ExactCover.read(KNUTH / "domino10x10.dlx")
    run = dxz.Run(problem, Manager())
    prober = links(problem)
    walked = weighed.Share(lambda *probes: prober.child_sizes((), *probes))
    shown, ahead, readings = 0.0, 0, 0
    while run.run(run.nodes + 1000).family is None:
        places = run._search.places()
        assert isinstance(places, list)
        tree, reuse = walked.of(places), run.hits / run.memo
        assert 0.3 < reuse < 0.6
        shown = max(shown, weighed.memo_share(tree, reuse))
        assert run.progress() == pytest.approx(shown)
        readings += 1
        ahead += 0 < tree < shown
    assert readings > 5 and ahead == readings
