"""Splitting below the base (see "Below the base" in :mod:`excover.symmetry.broken`): a
representative ``P`` that symmetries other than the identity map onto themselves (its
stabilizer ``K``) is replaced by one pair ``P + q`` per orbit of ``K`` on the options
``q`` that cover one more item, weighted by the orbit of ``P`` times that of ``q``, and so
on, level by level, while some pair's stabilizer is not the identity: the solutions
extending ``P`` fall apart by the option that covers the item, ``K`` permutes those
options, and ``P`` has as many solutions with each option of one orbit of ``K``."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from excover.entries import distinct
from excover.symmetry.arrays import OptionArrays
from excover.symmetry.chain import Perm, is_identity
from excover.symmetry.partials import Orbit

__all__ = ["MAX_SPLIT", "split_orbits"]

#: The most representatives that :func:`split_orbits` splits the orbits into (each is one
#: branch at the root of the merged problem, and is found in Python).
MAX_SPLIT = 256


def split_orbits(
    orbits: list[Orbit],
    order: int,
    stabilizer: Callable[[tuple[int, ...]], list[Perm]],
    arrays: OptionArrays,
) -> list[Orbit]:
    """The orbits split below the base (see the module text), under a group of ``order``
    elements on the options whose ``stabilizer`` of a partial solution is listed, while
    the representatives stay within :data:`MAX_SPLIT` (a level is given up as soon as
    the rate of its first splits says it would pass that bound). For problems whose
    primary items are all covered exactly once; a representative whose next item has no
    option left has no solution and is dropped."""
    free = [orbit for orbit in orbits if orbit.size == order]
    level = [
        (orbit, [g for g in stabilizer(orbit.representative) if not is_identity(g)])
        for orbit in orbits
        if orbit.size != order
    ]
    while any(kept for _, kept in level):
        deeper: list[tuple[Orbit, list[Perm]]] = []
        to_split = sum(1 for _, kept in level if kept)
        split = grown = 0
        for number, (orbit, kept) in enumerate(level):
            before = len(deeper)
            deeper += _split(orbit, kept, arrays)
            if kept:
                split += 1
                grown += len(deeper) - before
            # The level's representatives once split, at the rate seen so far: the
            # level is given up as soon as they would pass the bound, not at the end.
            rest = len(level) - number - 1 - (to_split - split)
            rate = grown / split if split else 1
            if len(deeper) + rest + (to_split - split) * rate > MAX_SPLIT:
                return free + [orbit for orbit, _ in level]
        level = deeper
    return free + [orbit for orbit, _ in level]


def _split(
    orbit: Orbit, stabilizer: list[Perm], arrays: OptionArrays
) -> list[tuple[Orbit, list[Perm]]]:
    """The weighted pairs that stand for the representative of ``orbit`` (mapped onto
    itself by the elements of ``stabilizer`` besides the identity), each with its own
    stabilizer."""
    if not stabilizer:
        return [(orbit, stabilizer)]
    found = _next_options(orbit.representative, stabilizer, arrays)
    if found is None:
        return [(orbit, [])]  # split no further
    result = []
    seen: set[int] = set()
    for q in found.tolist():
        if q in seen:
            continue
        images = {q, *(int(g[q]) for g in stabilizer)}
        seen |= images
        kept = [g for g in stabilizer if int(g[q]) == q]
        pair = Orbit((*orbit.representative, q), orbit.size * len(images))
        result.append((pair, kept))
    return result


def _next_options(
    partial: tuple[int, ...], stabilizer: list[Perm], arrays: OptionArrays
) -> Perm | None:
    """The options that fit with ``partial`` and cover a primary item it leaves
    uncovered, whose set the stabilizer maps onto itself: for the item with the fewest
    such options, those the stabilizer fixes counting six times (ties to the first; none:
    an empty array, no solution extends ``partial``); None when no item qualifies. The
    set of an item ``i`` is mapped onto itself by ``g`` when ``g`` sends each of its
    options to an option that has ``i`` (``g`` keeps ``partial``, so it keeps the options
    that fit); every item is tested at once, node by node."""
    n_options, n_items, n_primary = arrays.n_options, arrays.n_items, arrays.n_primary
    owner, items_of, colors_of = arrays.owner, arrays.items, arrays.colors
    color = np.full(n_items, -1, dtype=np.int64)  # -1: an item ``partial`` misses
    in_partial = np.zeros(n_options, dtype=bool)
    in_partial[list(partial)] = True
    nodes = in_partial[owner]
    color[items_of[nodes]] = colors_of[nodes]
    theirs = color[items_of]
    clash = (theirs >= 0) & ((items_of < n_primary) | (theirs == 0) | (colors_of != theirs))
    fits = np.bincount(owner[clash], minlength=n_options) == 0
    fitting = fits[owner]
    degree = np.bincount(items_of[fitting], minlength=n_items)
    open_items = np.flatnonzero(color[:n_primary] < 0)
    if not len(open_items):
        return None
    if (degree[open_items] == 0).any():
        return np.empty(0, dtype=np.int64)
    # The fitting nodes of open primary items, and whether each item's set is kept.
    mine = fitting & (items_of < n_primary) & (theirs < 0)
    owners, items = owner[mine], items_of[mine]
    moved = np.zeros(n_items, dtype=bool)
    fixed = np.ones(len(owners), dtype=bool)  # the nodes whose option every g fixes
    keys = arrays.node_keys
    for g in stabilizer:
        images = g[owners] * n_items + items
        found = np.minimum(np.searchsorted(keys, images), len(keys) - 1)
        moved[items[keys[found] != images]] = True
        fixed &= g[owners] == owners
    kept = open_items[~moved[open_items]]
    if not len(kept):
        return None
    # An option the stabilizer fixes leaves a pair that keeps the stabilizer, whose
    # solutions are all searched (twice the work of one per orbit): the item's options
    # count once and its fixed options five times more (the weight that searched the
    # fewest nodes, see docs/performance.md).
    score = degree[kept] + 5 * np.bincount(items[fixed], minlength=n_items)[kept]
    item = int(kept[np.argmin(score)])  # argmin: the first of the lowest
    return distinct(owners[items == item])
