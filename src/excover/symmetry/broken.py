"""Symmetry-broken search: search one branch per orbit at the top of the tree.

Let ``G`` be a group of automorphisms of a problem and ``B`` a set of primary items that
``G`` maps onto itself (a union of orbits of items: the *base*). Every solution ``S``
meets the options of ``B`` in a *partial solution* ``P(S)``: the options of ``S`` that
cover an item of ``B``. ``G`` acts on the partial solutions, since ``P(g S) = g P(S)``, and
the solutions extending ``P`` and those extending ``g P`` correspond one to one through
``g``. So, with one representative ``P`` per orbit of partial solutions:

* **the number of solutions** is the sum over the representatives of the size of the
  orbit of ``P`` times the number of solutions extending ``P``;
* **the number of orbits of solutions** is the sum over the representatives of the
  number of orbits of the solutions extending ``P`` under the stabilizer ``K`` of ``P``
  (the elements of ``G`` that map ``P`` onto itself): two solutions extending ``P`` are in
  one orbit of ``G`` exactly when they are in one orbit of ``K``. When ``K`` is the
  identity, that is the number of those solutions; otherwise Burnside's lemma over ``K``
  counts it (:mod:`excover.symmetry.fixed`);
* **one solution per orbit**: the solutions extending each representative, keeping, when
  ``K`` is not the identity, those that are the smallest of their orbit under ``K``
  (comparing sorted option lists).

The partial solutions are listed by the engine (the solutions of the problem restricted
to the options of ``B``), their orbits found by following the generators, and the
solutions extending the representatives whose stabilizer is the identity are searched in
one run of the engine: a problem with one new item ``#`` whose options are the
representatives, each merged into one option, beside the options that miss ``B``; the root
of the search branches on ``#``. The others are searched one by one. A base is chosen
among the orbits of primary items that the group moves options of, with the fewest
partial solutions (estimated by the product of the items' numbers of options).

**Weighing in one run.** :meth:`count <BrokenSearch.count>` merges every representative
left by the splitting below (whatever the size of its orbit) into one such problem when
the bit-parallel engine runs it: the engine counts the solutions found under each option
of the root's item apart (:meth:`Search.root_solutions
<excover.engines.Search.root_solutions>`), and each representative's count is weighted
by the size of its orbit. The engine searches each branch of the root on bitsets of the
options compatible with it alone ("Below the root" in :mod:`excover.engines._bits`), so
a representative costs no more per node than the plain search below the same options.
Other engines run one merged problem per orbit size.

**Below the base.** When every primary item is to be covered exactly once, :meth:`count
<BrokenSearch.count>` splits each representative ``P`` with a stabilizer ``K`` other
than the identity: ``K`` maps onto itself the set of options that fit with ``P`` and
cover some item ``P`` leaves uncovered (the one with the fewest such options, those
``K`` fixes counting six times, is taken: each of them leaves a pair with a symmetry),
the solutions extending ``P`` fall apart by the option ``q`` of that set they hold, and
two options of one orbit of ``K`` have as many solutions; so ``P + q`` for one ``q`` per
orbit, weighted by the size of the orbit of ``P`` times that of ``q``, stand for ``P``,
split again under the stabilizer of ``q`` in ``K`` while it is not the identity (up to
:data:`MAX_SPLIT` representatives in all; a level is given up as soon as the rate of its
first splits says it would pass that bound).

**Counting orbits after counting.** When no representative left by the splitting has a
symmetry, each orbit of solutions has exactly one member extending a representative: the
number of orbits is the number of solutions over the group's order. Otherwise, under a
group that can be listed (of at most
:data:`MAX_STABILIZER` elements) whose elements other than the identity each fix at most
half of the options, :meth:`count_orbits <BrokenSearch.count_orbits>` is Burnside's lemma
over the whole group, the identity's term (every solution) counted by :meth:`count
<BrokenSearch.count>` and each other element's by its quotient problem; otherwise by the
stabilizers of the representatives, as above.

**Large groups.** Burnside's lemma over a stabilizer lists its elements and counts one
smaller problem for each, so its cost grows with the stabilizer (and listing it filters
the whole group, which is refused past :data:`~excover.symmetry.fixed.MAX_ELEMENTS`). It
is used for stabilizers of up to :data:`MAX_STABILIZER` elements, in groups of up to
``MAX_ELEMENTS``; the other orbits take routes whose cost does not grow with the group's
order:

* under a group of more than ``MAX_STABILIZER`` elements, identical options (the same
  items and colors) are merged first when that is sound (:mod:`excover.symmetry.twins`):
  ``k`` of them make the group ``k!`` times larger and nothing else, and the merged
  problem is counted under the group acting on it;
* *descent*: the orbits of the solutions extending a representative ``P`` with a larger
  stabilizer ``K`` are the orbits, under ``K``, of the solutions of the problem left once
  ``P`` is chosen, so a symmetry-broken search of that smaller problem under ``K``
  counts them, by whichever route its own base and stabilizers call for. ``K`` is found
  without listing anything: it has ``|G| / |orbit|`` elements, random elements of it
  come from random elements of ``G`` and a tree of the orbit, and they are sifted into a
  stabilizer chain until that order is reached (:mod:`excover.symmetry.smallest`);
* without a base (or with too many partial solutions), every solution is listed and
  those that are the smallest of their images kept, each smallest image found along a
  stabilizer chain without listing the group (:mod:`excover.symmetry.smallest`).

:attr:`BrokenSearch.route` says which of these ran.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Unpack

import numpy as np

from excover.counting import methods
from excover.engines import Deadline, Search
from excover.errors import LimitReached, UsageError
from excover.problem import Problem, SearchOptions
from excover.symmetry import fixed
from excover.symmetry.chain import Perm, inverse, is_identity
from excover.symmetry.fixed import Quotient, elements_of
from excover.symmetry.group import Group, orbit_labels
from excover.symmetry.smallest import OrderedChain, random_elements
from excover.symmetry.twins import Merged, merge_twins

if TYPE_CHECKING:
    from excover.engines import Search

__all__ = ["MAX_PARTIALS", "MAX_SPLIT", "MAX_STABILIZER", "BrokenSearch", "Orbit"]

#: The most partial solutions listed for a base; past this, the plain search is used.
MAX_PARTIALS = 1_000_000

#: The merged problems of a count on workers, per worker (see
#: :meth:`BrokenSearch._count_merged`): enough for the parts to even out.
PARTS_PER_WORKER = 8

#: The most representatives that :meth:`BrokenSearch._deeper` splits the orbits into
#: (each is one branch at the root of the merged problem, and is found in Python).
MAX_SPLIT = 256

#: The largest stabilizer that Burnside's lemma goes over (its elements listed, a smaller
#: problem counted for each); orbits under larger ones are counted by smallest images.
MAX_STABILIZER = 64


@dataclass(frozen=True)
class Orbit:
    """An orbit of partial solutions: its first member in the engine's order (sorted
    option indices) and its number of members."""

    representative: tuple[int, ...]
    size: int


class BrokenSearch:
    """The symmetry-broken search of ``problem`` under ``group`` (see the module text).

    ``method`` and the search options apply to every search it runs; ``max_nodes`` bounds
    each of them, ``timeout`` all of them together (wall-clock seconds from the making of
    this object, time spent between two solutions included), and ``max_solutions`` is not
    accepted. ``workers`` (above 1) counts the large exact cover problems of
    :meth:`count` and :meth:`count_orbits` (the whole problem without a base, the merged
    problem of the representatives) on that many processes
    (:func:`excover.parallel.count`); the small counts of single representatives stay in
    this process; ``timeout`` is then looked at between two counts, and ``max_nodes``,
    which bounds one search, is refused.
    """

    def __init__(
        self,
        problem: Problem,
        group: Group,
        method: str = "dlx",
        *,
        workers: int | None = None,
        **options: Unpack[SearchOptions],
    ) -> None:
        self.problem = problem
        self.group = group
        self.method = method
        self.deadline = Deadline(options.pop("timeout", None))
        #: The nodes of the dancing-links searches run so far in this process (the
        #: listing of the partial solutions, the counts of :meth:`count`).
        self.nodes = 0
        self._options = options  # without the timeout: see :meth:`options`
        self.workers = workers if workers is not None and workers > 1 else None
        if self.workers is not None and options.get("max_nodes") is not None:
            raise UsageError("max_nodes bounds one search: it does not go with workers")
        data = problem.engine_input()
        self._starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
        self._items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
        self._colors = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
        self._owner = np.repeat(np.arange(problem.n_options), np.diff(self._starts))
        #: The multiplicity bounds of the primary items.
        self._lo = list(data.lo)
        self._hi = list(data.hi)
        self._generators = [g.options.tolist() for g in group.generators]
        self.base = self._choose_base() if group.moves_options() else None
        self.orbits: list[Orbit] | None = None
        if self.base is not None:
            partials = self._partials(self.base)
            if partials is not None:
                self.orbits = self._orbits(partials)
                #: The partial solutions, one array of rows per size.
                self._partial_rows = {
                    size: np.array([q for q in partials if len(q) == size], dtype=np.int64)
                    for size in {len(q) for q in partials}
                }

    @property
    def options(self) -> SearchOptions:
        """The search options of the next search, its ``timeout`` the time left."""
        return self.deadline.options(self._options)

    # ----- the base and its partial solutions -----

    def _choose_base(self) -> list[int] | None:
        """The orbit of primary items to branch on first (see the module text)."""
        problem = self.problem
        moved = np.zeros(problem.n_options, dtype=bool)
        for g in self.group.generators:
            moved |= g.options != np.arange(problem.n_options)
        degree = np.bincount(self._items, minlength=problem.n_items)
        moved_items = np.zeros(problem.n_items, dtype=bool)
        moved_items[self._items[moved[self._owner]]] = True
        best: tuple[float, list[int]] | None = None
        for orbit in self.group.item_orbit_numbers():
            if orbit[0] >= problem.n_primary or not moved_items[orbit].any():
                continue
            size = sum(math.log(max(int(degree[i]), 1)) for i in orbit)
            if best is None or size < best[0]:
                best = (size, orbit)
        return None if best is None else best[1]

    def _base_options(self, base: list[int]) -> Perm:
        """The options that cover an item of ``base``."""
        in_base = np.zeros(self.problem.n_items, dtype=bool)
        in_base[base] = True
        return np.unique(self._owner[in_base[self._items]])

    def _partials(self, base: list[int]) -> list[tuple[int, ...]] | None:
        """Every partial solution on ``base`` (sorted option tuples, in the engine's
        order), or None when there are more than :data:`MAX_PARTIALS`."""
        problem = self.problem
        self._base_set = set(base)
        touching = self._base_options(base)
        self._touching = touching
        self._touching_set = frozenset(touching.tolist())
        if len(base) == 1 and self._lo[base[0]] == 1 == self._hi[base[0]]:
            # One item covered once: each of its options alone is a partial solution, and
            # the search of the restricted problem would list them so, in input order.
            return (
                [(option,) for option in touching.tolist()]
                if len(touching) <= MAX_PARTIALS
                else None
            )
        others = [i for i in range(problem.n_primary) if i not in self._base_set]
        counted = base + [i for i in others if self._hi[i] > 1]
        relaxed = [i for i in others if self._hi[i] == 1]
        secondary = relaxed + list(range(problem.n_primary, problem.n_items))
        names = problem.items
        restricted = problem.derive([names[i] for i in counted], [names[i] for i in secondary])
        position = np.empty(problem.n_items, dtype=np.int64)
        position[counted + secondary] = np.arange(len(counted) + len(secondary))
        for i in counted:
            lo, hi = self._lo[i], self._hi[i]
            if i not in self._base_set:
                lo = 0
            if (lo, hi) != (1, 1):
                restricted.set_multiplicity(names[i], lo, hi)
        nodes = np.concatenate(
            [np.arange(self._starts[k], self._starts[k + 1]) for k in touching.tolist()]
            or [np.empty(0, dtype=np.int64)]
        )
        lengths = self._starts[touching + 1] - self._starts[touching]
        restricted._add_checked_options(
            np.concatenate([[0], np.cumsum(lengths)]),
            position[self._items[nodes]],
            self._colors[nodes],
            problem.color_names,
        )
        # Counted first, unless the product of the base items' numbers of options bounds
        # them (each covered once: one option each): listing a million partial
        # solutions takes seconds.
        degree = np.bincount(self._items, minlength=problem.n_items)
        once = all(self._lo[i] == 1 == self._hi[i] for i in base)
        bound = math.prod(int(degree[i]) for i in base) if once else MAX_PARTIALS + 1
        if bound > MAX_PARTIALS and (
            Search(restricted, max_solutions=MAX_PARTIALS + 1).count() > MAX_PARTIALS
        ):
            return None
        search = Search(restricted)
        partials = [tuple(sorted(int(touching[k]) for k in found)) for found in search.solutions()]
        self.nodes += search.stats.nodes
        return partials

    def _orbits(self, partials: list[tuple[int, ...]]) -> list[Orbit]:
        """The orbits of the partial solutions, in the order of their first member."""
        generators = [g.options for g in self.group.generators]
        by_size: dict[int, list[int]] = {}
        for number, partial in enumerate(partials):
            by_size.setdefault(len(partial), []).append(number)
        #: The partial solutions of each size and the generators' action on them.
        self._graphs: dict[int, _PartialGraph] = {}
        orbits = []
        for size, numbers in by_size.items():
            rows = np.array([partials[k] for k in numbers], dtype=np.int64)
            graph = _PartialGraph(rows.reshape(len(numbers), size), generators)
            self._graphs[size] = graph
            first = graph.first_members()
            sizes = np.bincount(first, minlength=len(numbers))
            for row in np.flatnonzero(sizes).tolist():
                orbits.append((numbers[row], Orbit(partials[numbers[row]], int(sizes[row]))))
        return [orbit for _, orbit in sorted(orbits, key=lambda pair: pair[0])]

    # ----- searching -----

    def _stabilizer(self, partial: tuple[int, ...]) -> list[Perm]:
        """The option permutations of the group that map ``partial`` onto itself."""
        chosen = np.array(partial, dtype=np.int64)
        return [g for g in self._listed_elements if sorted(g[chosen].tolist()) == list(partial)]

    def _free(self) -> list[Orbit]:
        """The orbits whose representative only the identity maps onto itself."""
        assert self.orbits is not None
        order = self.group.option_order
        return [orbit for orbit in self.orbits if orbit.size == order]

    def _fixed(self) -> list[Orbit]:
        """The other orbits."""
        assert self.orbits is not None
        order = self.group.option_order
        return [orbit for orbit in self.orbits if orbit.size != order]

    def _merged(self, orbits: list[Orbit]) -> tuple[Problem, list[tuple[int, ...]]] | None:
        """The problem whose solutions are the solutions extending the representatives of
        ``orbits`` (see the module text), and the original options of each of its options;
        None when a representative covers a primary item more than once (its options then
        cannot merge into one)."""
        problem = self.problem
        outside = np.setdiff1d(np.arange(problem.n_options), self._touching)
        marker = "#"
        while marker in problem.items:
            marker += "#"
        merged = problem.derive((marker, *problem.primary_items), problem.secondary_items)
        for item in range(problem.n_primary):
            lo, hi = self._lo[item], self._hi[item]
            if (lo, hi) != (1, 1):
                merged.set_multiplicity(item + 1, lo, hi)
        starts: list[int] = [0]
        items: list[int] = []
        colors: list[int] = []
        originals: list[tuple[int, ...]] = []
        for orbit in orbits:
            nodes: dict[int, int] = {}
            for option in orbit.representative:
                for j in range(self._starts[option], self._starts[option + 1]):
                    item = int(self._items[j])
                    if item in nodes and item < problem.n_primary:
                        return None
                    nodes[item] = int(self._colors[j])
            items += [0] + [item + 1 for item in nodes]
            colors += [0, *nodes.values()]
            starts.append(len(items))
            originals.append(orbit.representative)
        # The options that miss the base, copied whole (one item later: "#" is first).
        lengths = self._starts[outside + 1] - self._starts[outside]
        nodes_out = np.repeat(self._starts[outside] - np.cumsum(lengths) + lengths, lengths)
        nodes_out += np.arange(int(lengths.sum()), dtype=np.int64)
        all_starts = np.concatenate([starts, len(items) + np.cumsum(lengths)])
        all_items = np.concatenate([np.array(items, dtype=np.int64), self._items[nodes_out] + 1])
        all_colors = np.concatenate([np.array(colors, dtype=np.int64), self._colors[nodes_out]])
        originals += [(option,) for option in outside.tolist()]
        merged._add_checked_options(all_starts, all_items, all_colors, problem.color_names)
        return merged, originals

    def _count_exact_cover(self, problem: Problem, first: str | None = None) -> int:
        """The solutions of ``problem`` by the method; the root branches on ``first``.
        The nodes of a dancing-links search are added to :attr:`nodes`."""
        if self.method in ("dlx", "auto") and first is not None:
            search = _branching_first(problem, first, self._options, self.deadline)
        elif self.method == "dlx":
            from excover.engines import wall_clock_search

            search = wall_clock_search(problem, **self.options)
        else:
            return methods.count(problem, self.method, **self.options)
        found = search.count()
        self.nodes += search.stats.nodes
        return found

    def _count_on_workers(self, problem: Problem) -> int:
        """The solutions of ``problem`` counted on :attr:`workers` processes, if time is
        left (the parallel count has no deadline of its own: it is looked at before)."""
        from excover.parallel import count

        self._check_time()
        options = {k: v for k, v in self._options.items() if k in ("heuristic", "seed", "engine")}
        return count(problem, self.method, workers=self.workers, options=dict(options))

    def _check_time(self) -> None:
        """Raise :class:`~excover.LimitReached` once the run's time is up."""
        from excover.statistics import Stats

        if self.deadline.left() == 0.0:
            raise LimitReached("timeout", Stats())

    def _count_merged(self, orbits: list[Orbit]) -> int | None:
        """The solutions extending the representatives of ``orbits``: one run of the
        engine on their merged problem, whose root branches on the new item (see the
        module text); on :attr:`workers`, the orbits are dealt out to
        :data:`PARTS_PER_WORKER` merged problems a worker, counted in parallel (each
        still branching first on its representatives: a parallel count of the one
        merged problem would walk the engine's own tree, several times larger). None
        when a representative cannot be merged."""
        if self.workers is None:
            merged = self._merged(orbits)
            return (
                None if merged is None else self._count_exact_cover(merged[0], merged[0].items[0])
            )
        parts = min(len(orbits), PARTS_PER_WORKER * self.workers)
        problems = []
        for k in range(parts):
            merged = self._merged(orbits[k::parts])
            if merged is None:
                return None
            problems.append(merged[0])
        return self._count_parts(problems)

    def _count_parts(self, problems: list[Problem]) -> int:
        """The solutions of merged ``problems`` (each branching first on its first item)
        counted on a pool of :attr:`workers` processes, within the run's time."""
        from excover.parallel import workers

        self._check_time()
        pool = workers.new_pool(self.workers or 1)
        try:
            options = self.options
            parts = [
                pool.submit(_count_part, problem, self.method, options) for problem in problems
            ]
            counts = [part.result() for part in parts]
        except BaseException:  # Ctrl-C, the alarm of a deadline, an error: stop the workers now
            workers.stop(pool)
            raise
        pool.shutdown(wait=True)
        if any(found is None for found in counts):  # a part ran out of time
            from excover.statistics import Stats

            raise LimitReached("timeout", Stats())
        return sum(found for found in counts if found is not None)

    def _solutions_of(self, problem: Problem, first: str | None = None) -> Iterator[list[int]]:
        if self.method in ("dlx", "auto") and first is not None:
            return _branching_first(problem, first, self._options, self.deadline).solutions()
        method = "dlx" if self.method == "auto" else self.method
        return methods.solutions(problem, method, **self.options)

    def _reduced(self, partial: tuple[int, ...]) -> tuple[Problem, list[int]]:
        """The problem of the solutions extending ``partial``, and the original index of
        each of its options."""
        from excover.parallel import Subproblem

        forbidden = tuple(sorted(self._touching_set.difference(partial)))
        return Subproblem(partial, forbidden).reduce(self.problem)

    def _one_by_one_count(self, orbit: Orbit) -> int:
        reduced, _ = self._reduced(orbit.representative)
        return self._count_exact_cover(reduced)

    # ----- the three questions -----

    def count(self) -> int:
        """The number of solutions."""
        if self.orbits is None:
            if self.workers is not None:
                return self._count_on_workers(self.problem)
            return self._count_exact_cover(self.problem)
        weighted = self._count_weighted(self._split_orbits)
        if weighted is not None:
            return weighted
        total = 0
        by_size: dict[int, list[Orbit]] = {}
        for orbit in self._split_orbits:
            by_size.setdefault(orbit.size, []).append(orbit)
        for size, orbits in by_size.items():
            found = self._count_merged(orbits)
            if found is None:
                found = sum(self._one_by_one_count(orbit) for orbit in orbits)
            total += size * found
        return total

    def _count_weighted(self, orbits: list[Orbit]) -> int | None:
        """The solutions extending the representatives of ``orbits``, each weighted by
        the size of its orbit, from one run of the engine on their merged problem that
        counts the solutions under each option of its first item apart (the bit-parallel
        engine keeps those counts: :meth:`~excover.engines.Search.root_solutions`); None
        when that cannot be (orbits of one size, which :meth:`count` merges anyway; a
        representative that does not merge; another engine or method; workers)."""
        if (
            self.workers is not None
            or self.method not in ("dlx", "auto")
            or len({orbit.size for orbit in orbits}) < 2
        ):
            return None
        merged = self._merged(orbits)
        if merged is None:
            return None
        problem = merged[0]
        search = _branching_first(problem, problem.items[0], self._options, self.deadline)
        if search.root_solutions() is None:
            return None
        search.count()
        self.nodes += search.stats.nodes
        under = search.root_solutions()
        assert under is not None
        # The merged problem's first options are the representatives, in order.
        return sum(orbit.size * under.get(k, 0) for k, orbit in enumerate(orbits))

    def _deeper(self, orbits: list[Orbit]) -> list[Orbit]:
        """The orbits, each representative ``P`` that a symmetry other than the
        identity maps onto itself replaced by one pair ``P + q`` per orbit of its
        stabilizer ``K`` on the options ``q`` that cover one more item (see
        :meth:`_next_item`), weighted by the orbit of ``P`` times that of ``q``, and so
        on, level by level, while some pair's stabilizer is not the identity and the
        representatives stay within :data:`MAX_SPLIT`: the solutions extending ``P``
        fall apart by the option that covers the item, ``K`` permutes those options, and
        ``P`` has as many solutions with each option of one orbit of ``K``. Only for
        problems whose primary items are all covered exactly once, under a listed group,
        and not on workers; a representative whose next item has no option left has no
        solution and is dropped."""
        if self.workers is not None or not self._by_burnside(None) or not self._exactly_once:
            return orbits
        order = self.group.option_order
        free = [orbit for orbit in orbits if orbit.size == order]
        level = [
            (orbit, [g for g in self._stabilizer(orbit.representative) if not is_identity(g)])
            for orbit in orbits
            if orbit.size != order
        ]
        while any(stabilizer for _, stabilizer in level):
            deeper: list[tuple[Orbit, list[Perm]]] = []
            to_split = sum(1 for _, stabilizer in level if stabilizer)
            split = grown = 0
            for number, (orbit, stabilizer) in enumerate(level):
                before = len(deeper)
                deeper += self._split(orbit, stabilizer)
                if stabilizer:
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

    @cached_property
    def _split_orbits(self) -> list[Orbit]:
        """The representatives that :meth:`count` searches below: :meth:`_deeper` of
        the orbits of partial solutions."""
        assert self.orbits is not None
        return self._deeper(self.orbits)

    @property
    def _all_free(self) -> bool:
        """Whether no symmetry but the identity maps a representative of
        :attr:`_split_orbits` onto itself (each then stands for a whole orbit of
        the group)."""
        order = self.group.option_order
        return all(orbit.size == order for orbit in self._split_orbits)

    def _split(self, orbit: Orbit, stabilizer: list[Perm]) -> list[tuple[Orbit, list[Perm]]]:
        """The weighted pairs that stand for the representative of ``orbit`` (mapped
        onto itself by the elements of ``stabilizer`` besides the identity), each with
        its own stabilizer: see :meth:`_deeper`."""
        if not stabilizer:
            return [(orbit, stabilizer)]
        found = self._next_item(orbit.representative, stabilizer)
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

    def _next_item(self, partial: tuple[int, ...], stabilizer: list[Perm]) -> Perm | None:
        """The options that fit with ``partial`` and cover a primary item it leaves
        uncovered, whose set the stabilizer maps onto itself: for the item with the
        fewest such options, those the stabilizer fixes counting six times (ties to the
        first; none: an empty array, no solution extends ``partial``); None when no item
        qualifies. The set of an item ``i`` is mapped onto itself by ``g`` when ``g``
        sends each of its options to an option that has ``i`` (``g`` keeps ``partial``,
        so it keeps the options that fit); every item is tested at once, node by node."""
        n_options, n_items = self.problem.n_options, self.problem.n_items
        n_primary = self.problem.n_primary
        color = np.full(n_items, -1, dtype=np.int64)  # -1: an item ``partial`` misses
        in_partial = np.zeros(n_options, dtype=bool)
        in_partial[list(partial)] = True
        nodes = in_partial[self._owner]
        color[self._items[nodes]] = self._colors[nodes]
        theirs = color[self._items]
        clash = (theirs >= 0) & (
            (self._items < n_primary) | (theirs == 0) | (self._colors != theirs)
        )
        fits = np.bincount(self._owner[clash], minlength=n_options) == 0
        fitting = fits[self._owner]
        degree = np.bincount(self._items[fitting], minlength=n_items)
        open_items = np.flatnonzero(color[:n_primary] < 0)
        if not len(open_items):
            return None
        if (degree[open_items] == 0).any():
            return np.empty(0, dtype=np.int64)
        # The fitting nodes of open primary items, and whether each item's set is kept.
        mine = fitting & (self._items < n_primary) & (theirs < 0)
        owners, items = self._owner[mine], self._items[mine]
        moved = np.zeros(n_items, dtype=bool)
        fixed = np.ones(len(owners), dtype=bool)  # the nodes whose option every g fixes
        keys = self._node_keys
        for g in stabilizer:
            images = g[owners] * n_items + items
            found = np.minimum(np.searchsorted(keys, images), len(keys) - 1)
            moved[items[keys[found] != images]] = True
            fixed &= g[owners] == owners
        kept = open_items[~moved[open_items]]
        if not len(kept):
            return None
        # An option the stabilizer fixes leaves a pair that keeps the stabilizer, whose
        # solutions are all searched (twice the work of one per orbit): the item's
        # options count once and its fixed options five times more (on pento5x12, about
        # 621,400 nodes from 658,800 counting its options alone; 638,700 at three).
        score = degree[kept] + 5 * np.bincount(items[fixed], minlength=n_items)[kept]
        item = int(kept[np.argmin(score)])  # argmin: the first of the lowest
        return np.unique(owners[items == item])

    @cached_property
    def _node_keys(self) -> Perm:
        """``option * n_items + item`` for every node, sorted: which options have which
        items, for :meth:`_next_item`."""
        return np.sort(self._owner * self.problem.n_items + self._items)

    @cached_property
    def _exactly_once(self) -> bool:
        """Whether every primary item is to be covered exactly once."""
        return all(lo == 1 == hi for lo, hi in zip(self._lo, self._hi, strict=True))

    def count_orbits(self) -> int:
        """The number of orbits of solutions."""
        if self._twins is not None:
            return self._twins[1].count_orbits()
        if self.orbits is None:
            if self._by_burnside(None):
                return fixed.burnside(self.problem, self.group, self.method, **self.options)
            return sum(1 for _ in self.smallest_of_orbits(self._all_solutions()))
        if self._all_free:
            # Each class of solutions has exactly one member extending a representative.
            return self.count() // self.group.option_order
        if self._burnside_after_count:
            return self._burnside_with_count()
        total = 0
        free = self._free()
        found = self._count_merged(free) if free else 0
        if found is None:
            found = sum(self._one_by_one_count(orbit) for orbit in free)
        total += found
        for orbit in self._fixed():
            if self._by_burnside(orbit):
                total += self._orbits_extending(orbit)
            else:
                total += self._descent(orbit)[0].count_orbits()
        return total

    @cached_property
    def _burnside_after_count(self) -> bool:
        """Whether :meth:`count_orbits` goes by Burnside's lemma over the whole group,
        its identity's term (every solution) counted by the symmetry-broken
        :meth:`count`: when some partial solution has symmetries (else the orbits are
        counted with no fixed solutions at all), the group can be listed and has at most
        :data:`MAX_STABILIZER` elements, and no element but the identity fixes more than
        half of the options. Then each element's fixed solutions are those of a quotient
        problem whose options mostly join two options or more, a far smaller search
        than the whole problem's (an element that swaps two identical options and fixes
        all others would leave a quotient as large as the problem: the stabilizers'
        route takes those)."""
        if not self._fixed() or not self._by_burnside(None):
            return False
        n = self.problem.n_options
        return all(
            is_identity(g) or int(np.count_nonzero(g == np.arange(n))) * 2 <= n
            for g in self._listed_elements
        )

    @cached_property
    def _listed_elements(self) -> list[Perm]:
        """The option permutations of the group, listed (a small group only)."""
        return elements_of(self.group, "a partial solution with symmetries")

    def _burnside_with_count(self) -> int:
        """The number of orbits of solutions by Burnside's lemma: the mean over the
        group's elements of the solutions each fixes, the identity's term being every
        solution, counted by :meth:`count` (one branch per orbit), the others by their
        quotient problems (:class:`~excover.symmetry.fixed.Quotient`). A solution that
        ``g`` fixes meets the base in a partial solution that ``g`` fixes: an element
        that fixes no partial solution fixes no solution, and needs no quotient (on
        pento5x12, the half turn and the mirror across the short axis)."""
        total = 0
        elements = self._listed_elements
        for g in elements:
            if is_identity(g):
                total += self.count()
            elif self._fixes_a_partial(g):
                total += Quotient(self.problem, g).count(self._plain_method(), **self.options)
        if total % len(elements):  # pragma: no cover - Burnside's lemma says it divides
            raise AssertionError(f"{total} fixed solutions for a group of {len(elements)}")
        return total // len(elements)

    def _fixes_a_partial(self, g: Perm) -> bool:
        """Whether the option permutation ``g`` maps some partial solution onto itself."""
        return any(
            bool((np.sort(g[rows], axis=1) == rows).all(axis=1).any())
            for rows in self._partial_rows.values()
        )

    def _orbits_extending(self, orbit: Orbit) -> int:
        """The number of orbits of the solutions extending the orbit's representative,
        by Burnside's lemma over its stabilizer."""
        reduced, original = self._reduced(orbit.representative)
        stabilizer = self._stabilizer(orbit.representative)
        position = {option: k for k, option in enumerate(original)}
        total = 0
        for g in stabilizer:
            if is_identity(g):
                total += self._count_exact_cover(reduced)
                continue
            restricted = np.array([position[int(g[k])] for k in original], dtype=np.int64)
            total += Quotient(reduced, restricted).count(self._plain_method(), **self.options)
        return total // len(stabilizer)

    def _plain_method(self) -> str:
        return "dlx" if self.method == "auto" else self.method

    def representatives(self) -> Iterator[list[int]]:
        """One solution per orbit (sorted option indices): first those extending the
        representatives only the identity fixes, in the order of one engine run, then
        for each other representative (in the engine's order of the partial solutions)
        the solutions extending it that are the smallest of their orbit under its
        stabilizer, or for a stabilizer of more than :data:`MAX_STABILIZER` elements the
        representatives of the problem left, found by descent (see the module text); with
        identical options merged, those of the merged problem, each merged option standing
        for the first of its class."""
        if self._twins is not None:
            twins, inner = self._twins
            for solution in inner.representatives():
                yield twins.original(solution)
            return
        if self.orbits is None:
            yield from self.smallest_of_orbits(self._all_solutions())
            return
        free = self._free()
        merged = self._merged(free) if free else None
        if merged is not None:
            exact_cover, originals = merged
            for found in self._solutions_of(exact_cover, exact_cover.items[0]):
                yield sorted(k for option in found for k in originals[option])
        else:
            for orbit in free:
                reduced, original = self._reduced(orbit.representative)
                for found in self._solutions_of(reduced):
                    yield sorted([*orbit.representative, *(original[k] for k in found)])
        for orbit in self._fixed():
            if not self._by_burnside(orbit):
                inner, original = self._descent(orbit)
                for found in inner.representatives():
                    yield sorted([*orbit.representative, *(original[k] for k in found)])
                continue
            reduced, original = self._reduced(orbit.representative)
            stabilizer = self._stabilizer(orbit.representative)
            for found in self._solutions_of(reduced):
                solution = sorted([*orbit.representative, *(original[k] for k in found)])
                if _smallest(solution, stabilizer):
                    yield solution

    def smallest_of_orbits(self, solutions: Iterable[list[int]]) -> Iterator[list[int]]:
        """The solutions that are the smallest of their orbit under the whole group (its
        elements listed for a group of up to :data:`MAX_STABILIZER`, else by smallest
        images)."""
        if not self._by_burnside(None):
            chain = self._chain_in_input_order
            for solution in solutions:
                if chain.is_smallest(solution):
                    yield sorted(solution)
            return
        elements = elements_of(self.group, "listing one solution per orbit")
        for solution in solutions:
            ordered = sorted(solution)
            if _smallest(ordered, elements):
                yield ordered

    # ----- the route: Burnside's lemma or smallest images -----

    def _by_burnside(self, orbit: Orbit | None) -> bool:
        """Whether the orbits of the solutions extending the representative of ``orbit``
        (of every solution for None) are counted by Burnside's lemma over its stabilizer
        (whose elements are listed, and one smaller problem counted for each), rather
        than by smallest images: when the stabilizer has at most
        :data:`MAX_STABILIZER` elements (see the module text)."""
        order = self.group.option_order
        stabilizer = order if orbit is None else order // orbit.size
        return order <= fixed.MAX_ELEMENTS and stabilizer <= MAX_STABILIZER

    @property
    def route(self) -> str:
        """How :meth:`count_orbits` and :meth:`representatives` go, in words."""
        if not self.group.moves_options():
            return "a plain search (no symmetry moves an option)"
        if self._twins is not None:
            merged, inner = self._twins
            return (
                f"identical options merged ({self.problem.n_options} options into "
                f"{merged.problem.n_options}), then {inner.route}"
            )
        if self.orbits is None:
            if self._by_burnside(None):
                return "Burnside's lemma over the group"
            return "smallest images of every solution"
        if self._all_free and self._fixed():
            return "one branch per orbit, below the base too"
        if self._burnside_after_count:
            return "one branch per orbit, then Burnside's lemma over the group"
        kinds = {self._by_burnside(orbit) for orbit in self._fixed()}
        names = {True: "Burnside's lemma over stabilizers", False: "descent into stabilizers"}
        if not kinds:
            return "one branch per orbit (no symmetry maps a partial solution onto itself)"
        return " and ".join(names[kind] for kind in sorted(kinds, reverse=True))

    @cached_property
    def _twins(self) -> tuple[Merged, BrokenSearch] | None:
        """For a group of more than :data:`MAX_STABILIZER` elements, the problem with its
        identical options merged and the search over it (:mod:`excover.symmetry.twins`),
        or None."""
        if self.group.option_order <= MAX_STABILIZER:
            return None
        merged = merge_twins(self.problem, self.group)
        if merged is None:
            return None
        inner = BrokenSearch(
            merged.problem, merged.group, self.method, workers=self.workers, **self.options
        )
        return merged, inner

    @cached_property
    def _chain_in_input_order(self) -> OrderedChain:
        """The group's chain along the options in input order."""
        return OrderedChain.of(self.group.option_chain)

    def _descent(self, orbit: Orbit) -> tuple[BrokenSearch, list[int]]:
        """The search up to symmetry of the solutions extending the orbit's
        representative ``P``, and the original index of each option of its problem: the
        problem left once ``P`` is chosen, under the stabilizer ``K`` of ``P``. ``K`` has
        ``|G| / |orbit|`` elements, and a uniformly random one is ``g`` then ``u^-1``, for
        ``g`` random in ``G`` and ``u`` an element sending ``P`` to ``g(P)`` (read off a
        tree of the orbit spanned by the generators); sifting such elements until that
        order is reached gives generators of ``K`` (:class:`OrderedChain`)."""
        partial = orbit.representative
        graph = self._graphs[len(partial)]
        tree = graph.tree(graph.row_of(np.array([partial], dtype=np.int64))[0])
        generators = [g.options for g in self.group.generators]
        draw = random_elements(self.group.option_chain, random.Random(0))
        chosen = np.array(partial, dtype=np.int64)

        def element() -> Perm:
            g = draw()
            image = graph.row_of(np.sort(g[chosen]).reshape(1, -1))[0]
            return inverse(tree.element(image, generators))[g]

        n = self.problem.n_options
        stabilizer = OrderedChain(n, self.group.option_order // orbit.size, element)
        reduced, original = self._reduced(partial)
        position = np.full(n, -1, dtype=np.int64)
        position[original] = np.arange(len(original))
        kept = [position[g[original]].tolist() for g in stabilizer.strong_generators]
        inner = BrokenSearch(
            reduced, Group(reduced, kept), self.method, workers=self.workers, **self.options
        )
        return inner, original

    def _all_solutions(self) -> Iterator[list[int]]:
        """Every solution, in the engine's order. With a ``timeout``, the time spent on
        each solution by its reader counts too (testing it for the smallest of its orbit
        can take longer than finding it): once the run's deadline has passed, the search
        stops with :class:`~excover.LimitReached`."""
        if self._plain_method() == "zdd":
            yield from methods.solutions(self.problem, "zdd")
            return
        search = Search(self.problem, **self._options)
        search.deadline = self.deadline.until
        for solution in search.solutions():
            yield solution
            if self.deadline.left() == 0.0:
                raise LimitReached("timeout", search.stats)

    def solutions(self) -> Iterator[list[int]]:
        """Every solution (sorted option indices): each representative of
        :meth:`representatives` followed by the rest of its orbit."""
        for solution in self.representatives():
            for member in _orbit(tuple(solution), self._generators):
                yield list(member)


def _orbit(start: tuple[int, ...], generators: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """The orbit of a sorted set of options under the generators (option maps), ``start``
    first, each member once."""
    orbit = {start}
    frontier = [start]
    yield start
    while frontier:
        current = frontier.pop()
        for g in generators:
            image = tuple(sorted(g[k] for k in current))
            if image not in orbit:
                orbit.add(image)
                frontier.append(image)
                yield image


class _PartialGraph:
    """Distinct sorted sets of options of one size, closed under the generators, as the
    rows of an array; ``images[x][r]`` is the row of the image of row ``r`` under
    generator ``x`` (found for all rows at once, rows compared as raw bytes)."""

    def __init__(self, rows: Perm, generators: list[Perm]) -> None:
        width = rows.shape[1]
        self._bytes = np.dtype((np.void, rows.dtype.itemsize * max(width, 1)))
        self._width = width
        keys = self._keys(rows)
        self._order = np.argsort(keys)
        self._sorted_keys = keys[self._order]
        self.images = [self.row_of(np.sort(g[rows], axis=1)) for g in generators]

    def _keys(self, rows: Perm) -> np.ndarray:
        if self._width == 0:  # the empty set: one row, one key
            return np.zeros(len(rows), dtype=self._bytes)
        return np.ascontiguousarray(rows).view(self._bytes).ravel()

    def row_of(self, sets: Perm) -> Perm:
        """The row number of each of ``sets`` (sorted rows, each one of the rows)."""
        return self._order[np.searchsorted(self._sorted_keys, self._keys(sets))]

    def first_members(self) -> Perm:
        """For each row, the number of the first row of its orbit: the orbits are the
        connected parts of the graph joining each row to its images, and every row takes
        the smallest number among its neighbours' and its own, then follows those numbers
        to their end, until nothing changes."""
        return orbit_labels(len(self._order), self.images)

    def tree(self, root: int) -> _Tree:
        """A tree of the orbit of row ``root``, breadth first along the generators."""
        parent = np.full(len(self._order), -1, dtype=np.int64)
        via = np.full(len(self._order), -1, dtype=np.int64)
        parent[root] = root
        frontier = np.array([root], dtype=np.int64)
        while len(frontier):
            reached = []
            for number, image in enumerate(self.images):
                targets = image[frontier]
                new = parent[targets] < 0
                targets, sources = np.unique(targets[new], return_index=True)
                parent[targets] = frontier[new][sources]
                via[targets] = number
                reached.append(targets)
            frontier = np.unique(np.concatenate(reached))
        return _Tree(parent, via)


@dataclass(frozen=True)
class _Tree:
    """A tree spanning an orbit of rows: ``parent[r]`` (the root is its own) and the
    generator ``via[r]`` that maps the parent's set onto row ``r``'s."""

    parent: Perm
    via: Perm

    def element(self, row: int, generators: list[Perm]) -> Perm:
        """A group element mapping the root's set onto row ``row``'s."""
        path = []
        while int(self.parent[row]) != row:
            path.append(int(self.via[row]))
            row = int(self.parent[row])
        u = np.arange(len(generators[0]) if generators else 0, dtype=np.int64)
        for number in reversed(path):
            u = generators[number][u]
        return u


def _smallest(solution: list[int], elements: list[Perm]) -> bool:
    """Whether the sorted ``solution`` is the smallest of its images under ``elements``."""
    chosen = np.array(solution, dtype=np.int64)
    return all(sorted(g[chosen].tolist()) >= solution for g in elements)


def _count_part(problem: Problem, method: str, options: SearchOptions) -> int | None:
    """The solutions of one merged problem, branching first on its first item (run in a
    worker of :meth:`BrokenSearch._count_parts`); None when its ``timeout`` ran out."""
    try:
        if method in ("dlx", "auto"):
            deadline = Deadline(options.get("timeout"))
            rest: SearchOptions = {k: v for k, v in options.items() if k != "timeout"}  # type: ignore[assignment]
            return _branching_first(problem, problem.items[0], rest, deadline).count()
        return methods.count(problem, method, **options)
    except LimitReached:
        return None


def _branching_first(
    problem: Problem, first: str, options: SearchOptions, deadline: Deadline
) -> Search:
    """A dancing-links search of ``problem`` whose root branches on the item ``first``,
    stopping at ``deadline``."""
    from excover.engines import Search

    search = Search(problem, branch_first=first, **options)
    search.deadline = deadline.until
    return search
