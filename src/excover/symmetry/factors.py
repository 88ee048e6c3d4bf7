"""The order of a permutation group read off its structure, before any stabilizer chain.

The symmetries of exact cover problems are often huge products of small groups: ``k``
identical options are exchanged by ``Sym(k)``, ``m`` copies of a part are permuted by
``Sym(m)``, and the copies' own symmetries multiply. The order of such a group is a
product of factorials and small orders, but a stabilizer chain of it has a level per
base point and a transversal per level: 40 items of 3 identical options each (a group of
order ``6^40 * 40!``) took the deterministic Schreier-Sims algorithm minutes, and 1,000
of them more memory than the machine had. :func:`order_of` takes two kinds of factor
out first, as often as they occur:

* **Disjoint supports.** When the generators fall into sets that move disjoint sets of
  points, the group is the direct product of the groups of the sets, and its order the
  product of theirs.
* **Blocks of transpositions.** A generator that exchanges two points and fixes every
  other is a transposition of the group, and so is its conjugate by any element. The
  transpositions from the generators, closed under conjugation by the generators, join
  the points into *blocks*: the group holds the whole symmetric group of each block (a
  connected set of transpositions generates it), and maps blocks onto blocks (the set
  of those transpositions is closed under conjugation). So the group's elements that
  keep every block are exactly the product of the blocks' symmetric groups, and the
  order is the product of the blocks' factorials times the order of the group's action
  on the blocks, which may fall apart again.

What is left is handed to the stabilizer chain (:class:`~excover.symmetry.chain.
StabilizerChain`), on the points its generators move only. Every loop looks at the
deadline (LimitReached past it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from excover.symmetry.chain import Perm, StabilizerChain, Watch

__all__ = ["order_of", "transposition_blocks"]


def order_of(n: int, generators: Sequence[Perm], deadline: float | None = None) -> int:
    """The order of the group that ``generators`` (permutations of ``0..n-1``) make,
    exactly (see the module text); LimitReached once ``deadline`` (a
    ``time.monotonic()`` instant) has passed."""
    watch = Watch(n, deadline, "the order of a symmetry group")
    total = 1
    work = [_localised(generators, watch)]
    while work:
        moving = work.pop()
        if not moving:
            continue
        m = len(moving[0])
        watch.tick(m * len(moving))
        parts = _disjoint_parts(m, moving, watch)
        if len(parts) > 1:
            work += [_localised(part, watch) for part in parts]
            continue
        blocks = transposition_blocks(m, moving, watch=watch)
        if blocks is not None:
            for size in np.bincount(blocks).tolist():
                total *= math.factorial(size)
            firsts = np.unique(blocks, return_index=True)[1]
            work.append(_localised([blocks[g[firsts]] for g in moving], watch))
            continue
        total *= StabilizerChain(m, moving, deadline=deadline).order
    return total


def transposition_blocks(
    n: int,
    generators: Sequence[Perm],
    seeds: Sequence[tuple[int, int]] | None = None,
    watch: Watch | None = None,
) -> Perm | None:
    """The blocks of the points ``0..n-1`` that the transpositions of the group of
    ``generators`` make (see the module text), as a block number per point (numbered in
    the order of their smallest points), or None when no transposition is given. The
    transpositions start from ``seeds`` (pairs of points; by default those of the
    generators that are transpositions) and are closed under conjugation by the
    generators: for each pair that joins two blocks and each generator moving one of
    its points, the pair of their images joins too."""
    watch = Watch(n, None, "the blocks of a symmetry group") if watch is None else watch
    supports = []
    for g in generators:
        watch.tick(n)
        supports.append(np.flatnonzero(g != np.arange(n)))
    if seeds is None:
        seeds = [(int(s[0]), int(s[1])) for s in supports if len(s) == 2]
    if not seeds:
        return None
    # the generators moving each point, as compressed rows
    points = np.concatenate(supports) if supports else np.empty(0, dtype=np.int64)
    owners = np.repeat(np.arange(len(supports)), [len(s) for s in supports])
    order = np.argsort(points, kind="stable")
    movers = owners[order].tolist()
    starts = np.searchsorted(points[order], np.arange(n + 1)).tolist()
    classes = _Classes(n)
    joined = []
    for a, b in seeds:
        if classes.join(a, b):
            joined.append((a, b))
    while joined:
        a, b = joined.pop()
        for number in {*movers[starts[a] : starts[a + 1]], *movers[starts[b] : starts[b + 1]]}:
            watch.tick()
            image_a, image_b = int(generators[number][a]), int(generators[number][b])
            if classes.join(image_a, image_b):
                joined.append((image_a, image_b))
    roots = np.array([classes.root(x) for x in range(n)], dtype=np.int64)
    return np.unique(roots, return_inverse=True)[1].reshape(-1).astype(np.int64)


class _Classes:
    """Points ``0 .. n - 1`` joined into classes (union-find, halving the paths it
    walks), each class named by its smallest point."""

    __slots__ = ("_parent",)

    def __init__(self, n: int) -> None:
        self._parent = list(range(n))

    def root(self, x: int) -> int:
        """The smallest point of the class of ``x``."""
        parent = self._parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(self, a: int, b: int) -> bool:
        """Join the classes of ``a`` and ``b``; whether they were two."""
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return False
        self._parent[max(ra, rb)] = min(ra, rb)
        return True


def _localised(generators: Sequence[Perm], watch: Watch) -> list[Perm]:
    """The generators that move something, on the points they move only (numbered in
    increasing order): the same group, on fewer points."""
    moving = [g for g in generators if not np.array_equal(g, np.arange(len(g)))]
    if not moving:
        return []
    n = len(moving[0])
    moved = np.zeros(n, dtype=bool)
    for g in moving:
        watch.tick(n)
        moved |= g != np.arange(n)
    kept = np.flatnonzero(moved)
    if len(kept) == n:
        return moving
    place = np.full(n, -1, dtype=np.int64)
    place[kept] = np.arange(len(kept))
    return [place[g[kept]] for g in moving]


def _disjoint_parts(n: int, generators: list[Perm], watch: Watch) -> list[list[Perm]]:
    """The generators in sets that move disjoint sets of points (each point moved by
    some generator), by joining the points each generator moves."""
    classes = _Classes(n)
    firsts = []
    for g in generators:
        watch.tick(n)
        moved = np.flatnonzero(g != np.arange(n)).tolist()
        firsts.append(moved[0])
        for x in moved[1:]:
            watch.tick()
            classes.join(moved[0], x)
    parts: dict[int, list[Perm]] = {}
    for g, first in zip(generators, firsts, strict=True):
        parts.setdefault(classes.root(first), []).append(g)
    return list(parts.values())
