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

__all__ = [
    "MAX_PARTIALS",
    "MAX_ROOT_PARTIALS",
    "Orbit",
    "Partials",
    "choose_base",
    "find_base",
    "first_branch_base",
]

#: The most partial solutions listed for a base; past this, the plain search is used.
MAX_PARTIALS = 1_000_000
#: The most listed for the orbit of the root's item (:func:`first_branch_base`), whose
#: search is probed first: the corners of the 10 x 10 square of A360498 have 1,679,360.
MAX_ROOT_PARTIALS = 4_000_000


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
    best: tuple[float, list[int]] | None = None
    degree = arrays.degree
    for orbit in _movable_orbits(arrays, group):
        size = sum(math.log(max(int(degree[i]), 1)) for i in orbit)
        if best is None or size < best[0]:
            best = (size, orbit)
    return None if best is None else best[1]


def first_branch_base(arrays: OptionArrays, group: Group) -> list[int] | None:
    """The orbit of the primary item that the plain search branches on at its root (the
    fewest options, ties to the first: MRV's choice), when it holds an item of an option
    that the group moves; else None. Branching first on it keeps the search's own order
    below the base, where a base of items with many options (the centre of a square)
    forces a worse one."""
    if arrays.n_primary == 0:
        return None
    first = int(np.argmin(arrays.degree[: arrays.n_primary]))
    return next((orbit for orbit in _movable_orbits(arrays, group) if first in orbit), None)


def _movable_orbits(arrays: OptionArrays, group: Group) -> list[list[int]]:
    """The orbits of primary items holding an item of an option that the group moves."""
    n_options = arrays.n_options
    moved = np.zeros(n_options, dtype=bool)
    for g in group.generators:
        moved |= g.options != np.arange(n_options)
    moved_items = np.zeros(arrays.n_items, dtype=bool)
    moved_items[arrays.items[moved[arrays.owner]]] = True
    return [
        orbit
        for orbit in group.item_orbit_numbers()
        if orbit[0] < arrays.n_primary and moved_items[orbit].any()
    ]


def find_base(
    problem: Problem, arrays: OptionArrays, group: Group
) -> tuple[list[int] | None, Partials | None]:
    """The base of the symmetry-broken search and its partial solutions (None when
    there are more than :data:`MAX_PARTIALS`): the orbit of the root's item
    (:func:`first_branch_base`) when it has at most :data:`MAX_ROOT_PARTIALS` partial
    solutions and the plain search is larger than they are many (a probe of that many
    nodes does not finish it: listing them then costs little beside the search), or
    when :func:`choose_base` chooses it too and it has at most :data:`MAX_PARTIALS`;
    else :func:`choose_base`'s."""
    base = choose_base(arrays, group)
    first = first_branch_base(arrays, group)
    if first is not None:
        found = Partials.count(problem, arrays, first, MAX_ROOT_PARTIALS, group.deadline)
        chosen = first == base and found <= MAX_PARTIALS  # listed without a probe
        if found <= MAX_ROOT_PARTIALS and (
            chosen or not _search(problem, group.deadline).count_until(max(found, 1))
        ):
            return first, Partials.find(problem, arrays, first, group, MAX_ROOT_PARTIALS)
    if base is None:
        return None, None
    return base, Partials.find(problem, arrays, base, group)


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
        listed: tuple[Perm, Perm],
        searched: int,
        group: Group,
    ) -> None:
        self.base = base
        self.touching = touching
        self.touching_set = frozenset(touching.tolist())
        self.searched = searched
        self.graphs: dict[int, PartialGraph] = {}
        self.rows: dict[int, Perm] = {}
        self.orbits = self._orbits(*listed, [g.options for g in group.generators], group.deadline)

    @classmethod
    def count(
        cls,
        problem: Problem,
        arrays: OptionArrays,
        base: list[int],
        cap: int | None = None,
        deadline: float | None = None,
    ) -> int:
        """The number of partial solutions on ``base``, counted up to ``cap`` + 1 (more
        is not told apart; :data:`MAX_PARTIALS` by default), by ``deadline`` (a
        ``time.monotonic()`` instant: LimitReached past it)."""
        cap = MAX_PARTIALS if cap is None else cap
        touching = arrays.options_covering(base)
        if _single(arrays, base):
            return min(len(touching), cap + 1)
        restricted = _restricted(problem, arrays, base, touching)
        return _search(restricted, deadline, max_solutions=cap + 1).count()

    @classmethod
    def find(
        cls,
        problem: Problem,
        arrays: OptionArrays,
        base: list[int],
        group: Group,
        cap: int | None = None,
    ) -> Partials | None:
        """Every partial solution on ``base`` (sorted option tuples, in the engine's
        order) and their orbits under ``group``; None when there are more than
        ``cap`` (:data:`MAX_PARTIALS` by default). The searches and the orbits stop at the
        group's deadline (LimitReached)."""
        cap = MAX_PARTIALS if cap is None else cap
        touching = arrays.options_covering(base)
        lo, hi = arrays.lo, arrays.hi
        if _single(arrays, base):
            # One item covered once: each of its options alone is a partial solution, and
            # the search of the restricted problem would list them so, in input order.
            if len(touching) > cap:
                return None
            return cls(base, touching, (touching, np.arange(len(touching) + 1)), 0, group)
        restricted = _restricted(problem, arrays, base, touching)
        # Counted first, unless the product of the base items' numbers of options bounds
        # them (each covered once: one option each): listing them all only to give up
        # would cost more than the count.
        once = all(lo[i] == 1 == hi[i] for i in base)
        bound = math.prod(int(arrays.degree[i]) for i in base) if once else cap + 1
        deadline = group.deadline
        if bound > cap and _search(restricted, deadline, max_solutions=cap + 1).count() > cap:
            return None
        search = _search(restricted, deadline)
        options, starts = search.solution_table()
        return cls(base, touching, (touching[options], starts), search.stats.nodes, group)

    def _orbits(
        self, options: Perm, starts: Perm, generators: list[Perm], deadline: float | None
    ) -> list[Orbit]:
        """The orbits of the partial solutions (the ``k``-th made of
        ``options[starts[k]:starts[k + 1]]``), in the order of their first member (the
        rows and graph of each size kept in :attr:`rows` and :attr:`graphs`), found
        within ``deadline`` (a ``time.monotonic()`` instant)."""
        sizes = np.diff(starts)
        firsts: list[Perm] = []
        found: list[tuple[Perm, Perm]] = []
        for size in np.flatnonzero(np.bincount(sizes)).tolist():  # np.unique loads numpy.ma
            numbers = np.flatnonzero(sizes == size)
            rows = np.sort(options[starts[numbers][:, None] + np.arange(size)], axis=1)
            self.rows[size] = rows
            graph = PartialGraph(rows, generators, deadline)
            self.graphs[size] = graph
            members = np.bincount(graph.first_members(), minlength=len(numbers))
            first = np.flatnonzero(members)
            firsts.append(numbers[first])
            found += [(rows[first], members[first])]
        if not firsts:
            return []
        order = np.argsort(np.concatenate(firsts), kind="stable")
        orbits = [
            Orbit(tuple(row), int(size))
            for rows, members in found
            for row, size in zip(rows.tolist(), members.tolist(), strict=True)
        ]
        return [orbits[k] for k in order.tolist()]

    def fixed_by(self, g: Perm) -> bool:
        """Whether the option permutation ``g`` maps some partial solution onto itself."""
        return any(
            bool((np.sort(g[rows], axis=1) == rows).all(axis=1).any())
            for rows in self.rows.values()
        )


def _search(problem: Problem, deadline: float | None, max_solutions: int | None = None) -> Search:
    """A search of ``problem`` (up to ``max_solutions``) that stops at ``deadline`` (a
    ``time.monotonic()`` instant; None: never) with LimitReached."""
    search = Search(problem, max_solutions=max_solutions)
    search.deadline = deadline
    return search


def _single(arrays: OptionArrays, base: list[int]) -> bool:
    """Whether ``base`` is one item covered exactly once (its options are its partial
    solutions, one each)."""
    return len(base) == 1 and arrays.lo[base[0]] == 1 == arrays.hi[base[0]]


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
