"""The solutions extending the representatives of a symmetry-broken search (see
:mod:`excover.symmetry.broken`): the problems whose solutions they are (one merged
problem for many representatives, or the problem left once one is chosen) and their
counts, each representative weighted by the size of its orbit."""

from __future__ import annotations

import numpy as np

from excover.problem import Problem
from excover.symmetry.arrays import OptionArrays
from excover.symmetry.partials import Orbit, Partials
from excover.symmetry.runs import Runs

__all__ = ["PARTS_PER_WORKER", "Extensions"]

#: The merged problems of a count on workers, per worker (see
#: :meth:`Extensions.count_merged`): enough for the parts to even out.
PARTS_PER_WORKER = 8


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

    def merged(self, orbits: list[Orbit]) -> tuple[Problem, list[tuple[int, ...]]] | None:
        """The problem whose solutions are the solutions extending the representatives of
        ``orbits``: a new first item ``#`` whose options are the representatives, each
        merged into one option, beside the options that miss the base; and the original
        options of each of its options. None when a representative covers a primary item
        more than once (its options then cannot merge into one)."""
        problem, arrays = self.problem, self.arrays
        starts_of, items_of, colors_of = arrays.starts, arrays.items, arrays.colors
        outside = np.setdiff1d(np.arange(problem.n_options), self.partials.touching)
        marker = "#"
        while marker in problem.items:
            marker += "#"
        merged = problem.derive((marker, *problem.primary_items), problem.secondary_items)
        for item in range(problem.n_primary):
            lo, hi = arrays.lo[item], arrays.hi[item]
            if (lo, hi) != (1, 1):
                merged.set_multiplicity(item + 1, lo, hi)
        starts: list[int] = [0]
        items: list[int] = []
        colors: list[int] = []
        originals: list[tuple[int, ...]] = []
        for orbit in orbits:
            nodes: dict[int, int] = {}
            for option in orbit.representative:
                for j in range(starts_of[option], starts_of[option + 1]):
                    item = int(items_of[j])
                    if item in nodes and item < problem.n_primary:
                        return None
                    nodes[item] = int(colors_of[j])
            items += [0] + [item + 1 for item in nodes]
            colors += [0, *nodes.values()]
            starts.append(len(items))
            originals.append(orbit.representative)
        # The options that miss the base, copied whole (one item later: "#" is first).
        lengths = starts_of[outside + 1] - starts_of[outside]
        nodes_out = np.repeat(starts_of[outside] - np.cumsum(lengths) + lengths, lengths)
        nodes_out += np.arange(int(lengths.sum()), dtype=np.int64)
        all_starts = np.concatenate([starts, len(items) + np.cumsum(lengths)])
        all_items = np.concatenate([np.array(items, dtype=np.int64), items_of[nodes_out] + 1])
        all_colors = np.concatenate([np.array(colors, dtype=np.int64), colors_of[nodes_out]])
        originals += [(option,) for option in outside.tolist()]
        merged._add_checked_options(all_starts, all_items, all_colors, problem.color_names)
        return merged, originals

    def reduced(self, partial: tuple[int, ...]) -> tuple[Problem, list[int]]:
        """The problem of the solutions extending ``partial``, and the original index of
        each of its options."""
        from excover.parallel import Subproblem

        forbidden = tuple(sorted(self.partials.touching_set.difference(partial)))
        return Subproblem(partial, forbidden).reduce(self.problem)

    def count_weighted(self, orbits: list[Orbit]) -> int:
        """The solutions extending the representatives of ``orbits``, each weighted by
        the size of its orbit: from one run of the engine on their merged problem when it
        keeps the counts under each representative apart (:meth:`Runs.count_by_root`),
        else one run per orbit size."""
        weighted = self._count_by_root(orbits)
        if weighted is not None:
            return weighted
        total = 0
        by_size: dict[int, list[Orbit]] = {}
        for orbit in orbits:
            by_size.setdefault(orbit.size, []).append(orbit)
        for size, alike in by_size.items():
            total += size * self.count(alike)
        return total

    def _count_by_root(self, orbits: list[Orbit]) -> int | None:
        """The weighted count of :meth:`count_weighted` from one run of the engine on the
        merged problem of ``orbits``; None when that cannot be (orbits of one size, which
        one merged problem counts anyway; a representative that does not merge; another
        engine or method; workers)."""
        if not self.runs.may_count_by_root or len({orbit.size for orbit in orbits}) < 2:
            return None
        merged = self.merged(orbits)
        if merged is None:
            return None
        under = self.runs.count_by_root(merged[0])
        if under is None:
            return None
        # The merged problem's first options are the representatives, in order.
        return sum(orbit.size * under.get(k, 0) for k, orbit in enumerate(orbits))

    def count(self, orbits: list[Orbit]) -> int:
        """The solutions extending the representatives of ``orbits``: by their merged
        problem (:meth:`count_merged`), else one representative at a time."""
        if not orbits:
            return 0
        found = self.count_merged(orbits)
        if found is None:
            found = sum(self.count_one(orbit) for orbit in orbits)
        return found

    def count_merged(self, orbits: list[Orbit]) -> int | None:
        """The solutions extending the representatives of ``orbits``: one run of the
        engine on their merged problem, whose root branches on the new item; on the
        run's workers, the orbits are dealt out to :data:`PARTS_PER_WORKER` merged
        problems a worker, counted in parallel (each still branching first on its
        representatives: a parallel count of the one merged problem would walk the
        engine's own tree, several times larger). None when a representative cannot be
        merged."""
        runs = self.runs
        if runs.workers is None:
            merged = self.merged(orbits)
            return None if merged is None else runs.count(merged[0], merged[0].items[0])
        parts = min(len(orbits), PARTS_PER_WORKER * runs.workers)
        problems = []
        for k in range(parts):
            merged = self.merged(orbits[k::parts])
            if merged is None:
                return None
            problems.append(merged[0])
        return runs.count_parts(problems)

    def count_one(self, orbit: Orbit) -> int:
        """The solutions extending the orbit's representative."""
        reduced, _ = self.reduced(orbit.representative)
        return self.runs.count(reduced)
