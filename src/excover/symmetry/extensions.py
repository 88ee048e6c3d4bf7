"""The solutions extending the representatives of a symmetry-broken search (see
:mod:`excover.symmetry.broken`): the problems whose solutions they are (one merged
problem for many representatives, or the problem left once one is chosen) and their
counts, each representative weighted by the size of its orbit."""

from __future__ import annotations

import numpy as np

from excover.problem import Problem
from excover.symmetry.arrays import OptionArrays
from excover.symmetry.chain import Perm
from excover.symmetry.partials import Orbit, Partials
from excover.symmetry.runs import Runs

__all__ = ["PARTS_PER_WORKER", "ROOT_OPTIONS", "Extensions"]

#: The merged problems of a count on workers, per worker (see
#: :meth:`Extensions.count_merged`): enough for the parts to even out.
PARTS_PER_WORKER = 8

#: The most representatives merged into one problem counted in this process: the
#: engine's root filters and renumbers the whole problem's options for each of its
#: options (see "Below the root" in :mod:`excover.engines._bits`), so one problem of
#: all the representatives costs time in the square of their number.
ROOT_OPTIONS = 1024


class Extensions:
    """The solutions of ``problem`` extending representatives of the orbits of
    ``partials``, found by ``runs``."""

    def __init__(
        self, problem: Problem, arrays: OptionArrays, partials: Partials, runs: Runs
    ) -> None:
        self.problem = problem
        self.arrays = arrays
        self.partials = partials
        self.runs = runs
        self._repeats: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}

    def alike(self, orbits: list[Orbit]) -> list[list[Orbit]]:
        """``orbits`` grouped so that each group merges into one problem
        (:meth:`merged`): by the primary items their representatives cover more than
        once (items with multiplicities) and how many times, in order of first
        appearance."""
        groups: dict[tuple[tuple[int, int], ...], list[Orbit]] = {}
        for orbit, repeated in zip(orbits, self._repeated(orbits), strict=True):
            groups.setdefault(repeated, []).append(orbit)
        return list(groups.values())

    def _nodes(self, orbits: list[Orbit]) -> tuple[Perm, Perm]:
        """The nodes of the representatives of ``orbits``, representative after
        representative, and the number of the representative of each."""
        sizes = [len(orbit.representative) for orbit in orbits]
        options = np.fromiter(
            (k for orbit in orbits for k in orbit.representative), np.int64, sum(sizes)
        )
        nodes = self.arrays.nodes_of(options)
        owner = np.repeat(np.repeat(np.arange(len(orbits)), sizes), self.arrays.lengths[options])
        return nodes, owner

    def _repeated(self, orbits: list[Orbit]) -> list[tuple[tuple[int, int], ...]]:
        """For each representative of ``orbits``, the primary items its options cover
        more than once, each with the number of times, by item (kept for the next
        call)."""
        known = self._repeats
        new = [orbit for orbit in dict.fromkeys(orbits) if orbit.representative not in known]
        if new:
            for orbit, found in zip(new, self._find_repeated(new), strict=True):
                known[orbit.representative] = found
        return [known[orbit.representative] for orbit in orbits]

    def _find_repeated(self, orbits: list[Orbit]) -> list[tuple[tuple[int, int], ...]]:
        """:meth:`_repeated`, computed."""
        arrays = self.arrays
        nodes, owner = self._nodes(orbits)
        items = arrays.items[nodes]
        primary = items < arrays.n_primary
        keys, times = np.unique(
            owner[primary] * arrays.n_items + items[primary], return_counts=True
        )
        found: list[list[tuple[int, int]]] = [[] for _ in orbits]
        for key, count in zip(keys[times > 1].tolist(), times[times > 1].tolist(), strict=True):
            found[key // arrays.n_items].append((key % arrays.n_items, count))
        return [tuple(pairs) for pairs in found]

    def merged(self, orbits: list[Orbit]) -> tuple[Problem, list[tuple[int, ...]]] | None:
        """The problem whose solutions are the solutions extending the representatives of
        ``orbits``: a new first item ``#`` whose options are the representatives, each
        merged into one option, beside the options that miss the base; and the original
        options of each of its options. A primary item that a representative covers
        ``c`` times (``c > 1``: an item with a multiplicity) is held once by its merged
        option, its bounds ``lo..hi`` becoming ``max(lo - c, 0) + 1..hi - c + 1``, so
        every representative must cover it that often: None when they differ in that
        (:meth:`alike` groups them), or without orbits."""
        problem, arrays = self.problem, self.arrays
        repeated = set(self._repeated(orbits))
        if len(repeated) != 1:
            return None
        # kind="table": isin's sorting method calls np.unique, which imports numpy.ma
        options = np.arange(problem.n_options)
        outside = options[~np.isin(options, self.partials.touching, kind="table")]
        marker = "#"
        while marker in problem.items:
            marker += "#"
        merged = problem.derive((marker, *problem.primary_items), problem.secondary_items)
        times = dict(repeated.pop())
        for item in range(problem.n_primary):
            lo, hi = arrays.lo[item], arrays.hi[item]
            if item in times:
                lo, hi = max(lo - times[item], 0) + 1, hi - times[item] + 1
            if (lo, hi) != (1, 1):
                merged.set_multiplicity(item + 1, lo, hi)
        # Each representative's nodes, an item met twice kept once, after a node of "#".
        nodes, owner = self._nodes(orbits)
        _, first = np.unique(owner * arrays.n_items + arrays.items[nodes], return_index=True)
        first.sort()
        nodes, owner = nodes[first], owner[first]
        counts = np.bincount(owner, minlength=len(orbits))
        starts = np.concatenate([[0], np.cumsum(counts + 1)])
        rank = np.arange(len(nodes)) - (np.cumsum(counts) - counts)[owner]
        items = np.zeros(starts[-1], dtype=np.int64)
        colors = np.zeros(starts[-1], dtype=np.int64)
        items[starts[owner] + 1 + rank] = arrays.items[nodes] + 1
        colors[starts[owner] + 1 + rank] = arrays.colors[nodes]
        # The options that miss the base, copied whole (one item later: "#" is first).
        nodes_out = arrays.nodes_of(outside)
        all_starts = np.concatenate([starts, starts[-1] + np.cumsum(arrays.lengths[outside])])
        all_items = np.concatenate([items, arrays.items[nodes_out] + 1])
        all_colors = np.concatenate([colors, arrays.colors[nodes_out]])
        originals = [orbit.representative for orbit in orbits]
        originals += [(option,) for option in outside.tolist()]
        merged._add_checked_options(all_starts, all_items, all_colors, problem.color_names)
        return merged, originals

    def reduced(self, partial: tuple[int, ...]) -> tuple[Problem, list[int]]:
        """The problem of the solutions extending ``partial``, and the original index of
        each of its options."""
        from excover.parallel.tree import reduced_after

        forbidden = tuple(sorted(self.partials.touching_set.difference(partial)))
        return reduced_after(self.problem, partial, forbidden)

    def count_weighted(self, orbits: list[Orbit]) -> int:
        """The solutions extending the representatives of ``orbits``, each weighted by
        the size of its orbit: for each group of :meth:`alike`, part by part
        (:meth:`_parts`), from one run of the engine on a part's
        merged problem when it keeps the counts under each representative apart
        (:meth:`Runs.count_by_root`), else one run per orbit size. The runs' solutions,
        each weighted, go to the runs' :attr:`~excover.symmetry.runs.Runs.counted` as
        they are found."""
        total = 0
        for group in self.alike(orbits):
            for part in self._parts(group):
                weighted = self._count_by_root(part)
                if weighted is None:
                    by_size: dict[int, list[Orbit]] = {}
                    for orbit in part:
                        by_size.setdefault(orbit.size, []).append(orbit)
                    weighted = sum(
                        size * self.count(alike, size) for size, alike in by_size.items()
                    )
                total += weighted
        return total

    def _parts(self, orbits: list[Orbit]) -> list[list[Orbit]]:
        """``orbits`` in parts of at most :data:`ROOT_OPTIONS` for the dancing-links
        searches in this process (whose root walks the whole merged problem for each
        representative), in one part for the other methods and on workers (which deal
        the orbits out to parts of their own, :meth:`count_merged`)."""
        if not self.runs.traits.searches or self.runs.workers is not None:
            return [orbits]
        return [orbits[k : k + ROOT_OPTIONS] for k in range(0, len(orbits), ROOT_OPTIONS)]

    def _count_by_root(self, orbits: list[Orbit]) -> int | None:
        """The weighted count of :meth:`count_weighted` from one run of the engine on the
        merged problem of ``orbits`` (alike); None when that cannot be (orbits of one
        size, which one merged problem counts anyway; another engine or method;
        workers)."""
        if not self.runs.may_count_by_root or len({orbit.size for orbit in orbits}) < 2:
            return None
        merged = self.merged(orbits)
        assert merged is not None  # the orbits are alike
        under = self.runs.count_by_root(merged[0], [orbit.size for orbit in orbits])
        if under is None:
            return None
        # The merged problem's first options are the representatives, in order.
        return sum(orbit.size * under.get(k, 0) for k, orbit in enumerate(orbits))

    def count(self, orbits: list[Orbit], weight: int = 0) -> int:
        """The solutions extending the representatives of ``orbits``: by the merged
        problem of each group of :meth:`alike` (:meth:`count_merged`, each solution
        found weighted by ``weight``)."""
        return sum(self.count_merged(group, weight) for group in self.alike(orbits))

    def count_merged(self, orbits: list[Orbit], weight: int = 0) -> int:
        """The solutions extending the representatives of ``orbits`` (alike): one run
        of the engine on their merged problem, whose root branches on the new item (a
        problem per :meth:`_parts`); on
        the run's workers, the orbits are dealt out to :data:`PARTS_PER_WORKER` merged
        problems a worker, counted in parallel (each still branching first on its
        representatives: a parallel count of the one merged problem would walk the
        engine's own tree, several times larger). The solutions found, times
        ``weight``, go to the runs' :attr:`~excover.symmetry.runs.Runs.counted`."""
        runs = self.runs
        if runs.workers is None:
            total = 0
            for part in self._parts(orbits):
                merged = self.merged(part)
                assert merged is not None  # the orbits are alike
                total += runs.count(merged[0], merged[0].items[0], weight)
            return total
        parts = min(len(orbits), PARTS_PER_WORKER * runs.workers)
        problems = []
        for k in range(parts):
            merged = self.merged(orbits[k::parts])
            assert merged is not None  # the orbits are alike
            problems.append(merged[0])
        return runs.count_parts(problems, weight)
