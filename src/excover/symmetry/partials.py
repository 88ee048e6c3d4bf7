"""The base of a symmetry-broken search and the orbits of its partial solutions (see
:mod:`excover.symmetry.broken`): the base chosen among the orbits of primary items, the
partial solutions listed by the engine, and their orbits found by following the
generators, every partial solution of one size at once (:mod:`excover.symmetry.graph`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from excover.engines import Search
from excover.problem import Problem
from excover.symmetry.arrays import OptionArrays
from excover.symmetry.chain import Perm
from excover.symmetry.graph import PartialGraph
from excover.symmetry.group import Group

__all__ = ["MAX_PARTIALS", "Orbit", "Partials", "choose_base"]

#: The most partial solutions listed for a base; past this, the plain search is used.
MAX_PARTIALS = 1_000_000


@dataclass(frozen=True)
class Orbit:
    """An orbit of partial solutions: its first member in the engine's order (sorted
    option indices) and its number of members."""

    representative: tuple[int, ...]
    size: int


def choose_base(arrays: OptionArrays, group: Group) -> list[int] | None:
    """The orbit of primary items to branch on first: among those holding an item of an
    option that the group moves, the one with the fewest partial solutions, estimated by
    the product of its items' numbers of options; None when there is none."""
    n_options = arrays.n_options
    moved = np.zeros(n_options, dtype=bool)
    for g in group.generators:
        moved |= g.options != np.arange(n_options)
    degree = arrays.degree
    moved_items = np.zeros(arrays.n_items, dtype=bool)
    moved_items[arrays.items[moved[arrays.owner]]] = True
    best: tuple[float, list[int]] | None = None
    for orbit in group.item_orbit_numbers():
        if orbit[0] >= arrays.n_primary or not moved_items[orbit].any():
            continue
        size = sum(math.log(max(int(degree[i]), 1)) for i in orbit)
        if best is None or size < best[0]:
            best = (size, orbit)
    return None if best is None else best[1]


class Partials:
    """The partial solutions on a ``base`` (an orbit of primary items) and their orbits:
    ``touching``, the options that cover an item of the base (a partial solution is made
    of them); ``orbits``, one per orbit of partial solutions in the order of its first
    member; ``graphs``, the partial solutions of each size and the generators' action on
    them; ``rows``, the partial solutions of each size as rows of an array; ``searched``,
    the nodes of the search that listed them."""

    def __init__(
        self,
        base: list[int],
        touching: Perm,
        listed: list[tuple[int, ...]],
        searched: int,
        group: Group,
    ) -> None:
        self.base = base
        self.touching = touching
        self.touching_set = frozenset(touching.tolist())
        self.searched = searched
        self.graphs: dict[int, PartialGraph] = {}
        self.orbits = self._orbits(listed, [g.options for g in group.generators])
        self.rows = {
            size: np.array([q for q in listed if len(q) == size], dtype=np.int64)
            for size in {len(q) for q in listed}
        }

    @classmethod
    def find(
        cls, problem: Problem, arrays: OptionArrays, base: list[int], group: Group
    ) -> Partials | None:
        """Every partial solution on ``base`` (sorted option tuples, in the engine's
        order) and their orbits under ``group``; None when there are more than
        :data:`MAX_PARTIALS`."""
        touching = arrays.options_covering(base)
        lo, hi = arrays.lo, arrays.hi
        if len(base) == 1 and lo[base[0]] == 1 == hi[base[0]]:
            # One item covered once: each of its options alone is a partial solution, and
            # the search of the restricted problem would list them so, in input order.
            if len(touching) > MAX_PARTIALS:
                return None
            return cls(base, touching, [(option,) for option in touching.tolist()], 0, group)
        restricted = _restricted(problem, arrays, base, touching)
        # Counted first, unless the product of the base items' numbers of options bounds
        # them (each covered once: one option each): listing them all only to give up
        # would cost more than the count.
        once = all(lo[i] == 1 == hi[i] for i in base)
        bound = math.prod(int(arrays.degree[i]) for i in base) if once else MAX_PARTIALS + 1
        if bound > MAX_PARTIALS and (
            Search(restricted, max_solutions=MAX_PARTIALS + 1).count() > MAX_PARTIALS
        ):
            return None
        search = Search(restricted)
        original = touching.tolist()
        listed = [tuple(sorted([original[k] for k in found])) for found in search.solutions()]
        return cls(base, touching, listed, search.stats.nodes, group)

    def _orbits(self, partials: list[tuple[int, ...]], generators: list[Perm]) -> list[Orbit]:
        """The orbits of the partial solutions, in the order of their first member (the
        graph of each size kept in :attr:`graphs`)."""
        by_size: dict[int, list[int]] = {}
        for number, partial in enumerate(partials):
            by_size.setdefault(len(partial), []).append(number)
        orbits = []
        for size, numbers in by_size.items():
            rows = np.array([partials[k] for k in numbers], dtype=np.int64)
            graph = PartialGraph(rows.reshape(len(numbers), size), generators)
            self.graphs[size] = graph
            first = graph.first_members()
            sizes = np.bincount(first, minlength=len(numbers))
            for row in np.flatnonzero(sizes).tolist():
                orbits.append((numbers[row], Orbit(partials[numbers[row]], int(sizes[row]))))
        return [orbit for _, orbit in sorted(orbits, key=lambda pair: pair[0])]

    def fixed_by(self, g: Perm) -> bool:
        """Whether the option permutation ``g`` maps some partial solution onto itself."""
        return any(
            bool((np.sort(g[rows], axis=1) == rows).all(axis=1).any())
            for rows in self.rows.values()
        )


def _restricted(problem: Problem, arrays: OptionArrays, base: list[int], touching: Perm) -> Problem:
    """The problem whose solutions are the partial solutions on ``base``: the options of
    ``touching``, the base's items to be covered, the other primary items covered at
    most as often as their bounds allow (those of bound 1 made secondary)."""
    in_base = set(base)
    lo, hi = arrays.lo, arrays.hi
    others = [i for i in range(problem.n_primary) if i not in in_base]
    counted = base + [i for i in others if hi[i] > 1]
    relaxed = [i for i in others if hi[i] == 1]
    secondary = relaxed + list(range(problem.n_primary, problem.n_items))
    names = problem.items
    restricted = problem.derive([names[i] for i in counted], [names[i] for i in secondary])
    position = np.empty(problem.n_items, dtype=np.int64)
    position[counted + secondary] = np.arange(len(counted) + len(secondary))
    for i in counted:
        low, high = lo[i], hi[i]
        if i not in in_base:
            low = 0
        if (low, high) != (1, 1):
            restricted.set_multiplicity(names[i], low, high)
    nodes = arrays.nodes_of(touching)
    restricted._add_checked_options(
        np.concatenate([[0], np.cumsum(arrays.lengths[touching])]),
        position[arrays.items[nodes]],
        arrays.colors[nodes],
        problem.color_names,
    )
    return restricted
