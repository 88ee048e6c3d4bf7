"""Heuristic sampling of a search tree: Knuth's probe with one path per kind of node.

A Knuth probe (:func:`excover.parallel.probes.probe`) follows one random path and weights
each node by the product of the degrees above it. That is unbiased, but it is hopeless on
the trees of Algorithm M: at a node that branches on an item with multiplicities, the last
branch, which *closes* the item (no more of its options), leaves the whole rest of the
problem, while each other branch places one more option and leaves much less. On a
BurrTools puzzle whose 25 shapes may each be used 0 to 6 times, the search closes shape
after shape, and most solutions lie below a chain of closing branches that a uniform path
follows with probability ``1/37`` per level: a thousand probes all missed it, and the
estimate was half the truth with a range that excluded it.

Pang Chen's heuristic sampling ("Heuristic sampling: a method for predicting the
performance of tree searching programs", SIAM J. Comput. 21, 1992) keeps, at each depth,
one node per *stratum* instead of one node in all. Each node carries a weight; a node of
weight ``w`` expands into candidates for the next depth, and candidates of the same
stratum are merged into one, chosen with probability proportional to its weight, that
carries their summed weight. For every node of the tree, the expected weight it is kept
with is 1, so the weighted sums of the kept nodes are unbiased estimates of the tree's
nodes, solutions and cost, whatever the strata. Here a node's stratum is the number of
closing branches on its path: the candidates of a node are one of its option branches,
chosen uniformly (weight ``w`` times their number), and its closing branch (weight ``w``).
Without multiplicities there are no closing branches, and a sample is a Knuth probe.

As in :func:`~excover.parallel.probes.probe`, a node at ``cutoff`` depth or deeper has its
subtree counted in full by the engine when that takes at most ``guard`` search nodes; the
counts are kept in a :class:`Memo` (by the node's path), as the same nodes come back in
sample after sample. A node is walked to only once it is kept: the candidates that a merge
drops cost nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from excover.deadlines import check
from excover.engines import Search
from excover.errors import LimitReached
from excover.parallel.tree import Branch, State

__all__ = ["Memo", "Sample", "count_below", "sample"]

#: A path from a sample's start: the index of the branch taken at each depth.
Path = tuple[int, ...]


@dataclass
class Memo:
    """What the samples from one start learn about its nodes, by path: the counts of the
    subtrees below them (the engine's solutions, nodes and updates, the last with the
    updates of the branch into the subtree; None when the search needs more than the
    guard's nodes), and the nodes whose subtree is too big to count, with the updates of
    the branch into them, so that the samples that come back to a node do not walk to it
    again."""

    counted: dict[Path, tuple[int, int, int] | None] = field(default_factory=dict)
    big: dict[Path, tuple[State, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Sample:
    """The estimates of one heuristic sample of the tree below its start: its nodes,
    solutions and updates (exact integers: the weights are sums of products of degrees).
    ``random`` is False when the sample made no random choice: then every sample from the
    same start is the same, and its figures are the subtree's own."""

    nodes: int
    solutions: int
    updates: int
    random: bool


#: A node kept for the next depth, not yet walked to: its parent, the item and branch
#: that lead to it, the updates of covering the item, its weight and its path.
Kept = tuple[State, int, Branch, int, int, Path]


def sample(
    state: State,
    rng: random.Random,
    engine: str,
    cutoff: int | None = None,
    guard: int = 0,
    memo: Memo | None = None,
    deadline: float | None = None,
) -> Sample:
    """One heuristic sample of the tree below ``state`` (which it does not change),
    searched by ``engine`` where subtrees are counted (see the module text); ``memo``
    holds what earlier samples from ``state`` learnt. Past ``deadline`` it raises
    :class:`~excover.LimitReached`."""
    memo = Memo() if memo is None else memo
    layout = state.layout
    level: dict[int, Kept | tuple[State, int, Path]] = {0: (state, 1, ())}
    nodes = solutions = updates = 0
    chance = False
    depth = 0
    while level:
        following: dict[int, Kept | tuple[State, int, Path]] = {}
        for stratum in sorted(level):
            check(deadline, depth)
            weight, path = level[stratum][-2:]
            below = memo.counted.get(path)
            if below is None:
                node, spent = _reach(level[stratum], memo)
                if cutoff is not None and depth >= cutoff and path not in memo.counted:
                    below = count_below(node, guard, deadline, engine)
                    if below is not None:
                        below = (below[0], below[1], below[2] + spent)
                    memo.counted[path] = below
                    if below is None:
                        memo.big[path] = (node, spent)
            if below is not None:
                solutions += weight * below[0]
                nodes += weight * below[1]
                updates += weight * below[2]
                continue
            updates += weight * spent
            nodes += weight
            item = node.choose()
            if item is None:
                solutions += weight
                continue
            branches = node.branches(item)
            if not branches:
                updates += weight
                continue
            covering = 1 + sum(
                map(layout.option_cost.__getitem__, layout.item_sets[item] & node.live)
            )
            updates += weight * covering
            close = branches[-1][0] is None
            degree = len(branches) - close
            if degree:
                pick = rng.randrange(degree)
                chance = chance or degree > 1
                candidate = (node, item, branches[pick], covering, weight * degree, (*path, pick))
                chance |= _merge(following, stratum, rng, candidate)
            if close:
                chance |= _merge(
                    following,
                    stratum + 1,
                    rng,
                    (node, item, branches[-1], covering, weight, (*path, degree)),
                )
        level = following
        depth += 1
    return Sample(nodes, solutions, updates, chance)


def _merge(
    level: dict[int, Kept | tuple[State, int, Path]],
    stratum: int,
    rng: random.Random,
    candidate: Kept,
) -> bool:
    """Merge ``candidate`` into its ``stratum`` of ``level``: the one kept is chosen in
    proportion to the weights and carries their sum. True when that took a random
    choice (the stratum held a candidate already)."""
    held = level.get(stratum)
    if held is None:
        level[stratum] = candidate
        return False
    weight = candidate[-2]
    total = held[-2] + weight
    chosen = candidate if rng.randrange(total) < weight else held
    level[stratum] = (*chosen[:-2], total, chosen[-1])
    return True


def _reach(kept: Kept | tuple[State, int, Path], memo: Memo) -> tuple[State, int]:
    """The node of ``kept`` (a copy: the samples never change a node they may come back
    to) and the updates of the branch into it beyond its parent's covering."""
    if len(kept) == 3:
        return kept[0].copy(), 0
    parent, item, branch, covering, _, path = kept
    known = memo.big.get(path)
    if known is not None:
        return known[0].copy(), known[1]
    node = parent.copy()
    return node, max(node.follow(item, branch)[1] - covering, 0)


def count_below(
    state: State, guard: int, deadline: float | None = None, engine: str = "auto"
) -> tuple[int, int, int] | None:
    """The solutions, nodes and updates of ``engine``'s search below ``state``, or None
    when it needs more than ``guard`` nodes (LimitReached past ``deadline``)."""
    small, _ = state.reduced()
    search = Search(small, max_nodes=guard, engine=engine)
    search.deadline = deadline
    try:
        solutions = search.count()
    except LimitReached as stop:
        if stop.reason == "timeout":
            raise
        return None
    return solutions, search.stats.nodes, search.stats.updates
