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
of the search branches on ``#``. A representative that covers an item with a
multiplicity ``c`` times (two copies of one piece) holds it once in its merged option,
the item's bounds lowered by ``c - 1``; representatives that differ in that go to
merged problems of their own, one per way of covering such items. The others are
searched one by one. A base is chosen
among the orbits of primary items that the group moves options of: the orbit of the item
the plain search branches on at its root (fewest options) when the plain search is
larger than its partial solutions are many (a probe of that many nodes does not finish
it) and they number at most :data:`~excover.symmetry.partials.MAX_PARTIALS`, so that
the search below the base keeps its own order; else the orbit with the fewest partial
solutions, estimated by the product of the items' numbers of options (on the 9 x 9
square of A360498, the centre cell alone, 540 options; branching on it first, the
symmetry-broken count searched 188 million nodes, 1.4 times as many as on the corners).

**Weighing in one run.** :meth:`count <BrokenSearch.count>` merges every representative
left by the splitting below (whatever the size of its orbit) into such problems when
the bit-parallel engine runs it: the engine counts the solutions found under each option
of the root's item apart (:meth:`Search.root_solutions
<excover.engines.Search.root_solutions>`), and each representative's count is weighted
by the size of its orbit, in problems of at most
:data:`~excover.symmetry.extensions.ROOT_OPTIONS` representatives each (the root's work
for each of its options grows with their number). The engine searches each branch of
the root on bitsets of the options compatible with it alone ("Below the root" in
:mod:`excover.engines._bits`), so a representative costs no more per node than the plain
search below the same options. Other engines run one merged problem per orbit size.

**Below the base.** When every primary item is to be covered exactly once, :meth:`count
<BrokenSearch.count>` splits each representative ``P`` with a stabilizer ``K`` other
than the identity: ``K`` maps onto itself the set of options that fit with ``P`` and
cover some item ``P`` leaves uncovered (the one with the fewest such options, those
``K`` fixes counting six times, is taken: each of them leaves a pair with a symmetry),
the solutions extending ``P`` fall apart by the option ``q`` of that set they hold, and
two options of one orbit of ``K`` have as many solutions; so ``P + q`` for one ``q`` per
orbit, weighted by the size of the orbit of ``P`` times that of ``q``, stand for ``P``,
split again under the stabilizer of ``q`` in ``K`` while it is not the identity (up to
:data:`~excover.symmetry.split.MAX_SPLIT` representatives in all; a level is given up as
soon as the rate of its first splits says it would pass that bound).

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

**Where each step lives.** :class:`BrokenSearch` chooses the route and answers the three
questions (every solution, the orbits, one solution per orbit); the steps are modules of
their own: the base and the orbits of its partial solutions
(:mod:`excover.symmetry.partials`, over :mod:`excover.symmetry.graph`), the problems and
counts of the solutions extending representatives (:mod:`excover.symmetry.extensions`),
the splitting below the base (:mod:`excover.symmetry.split`), stabilizers and Burnside's
lemma over them (:mod:`excover.symmetry.stabilizers`), and the searches themselves, on one
deadline and on workers (:mod:`excover.symmetry.runs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import Unpack

from excover.engines import Deadline
from excover.errors import LimitReached, UsageError
from excover.names import canonical_method
from excover.problem import Problem, SearchOptions
from excover.statistics import Stats
from excover.symmetry import fixed
from excover.symmetry.arrays import OptionArrays
from excover.symmetry.chain import Perm
from excover.symmetry.extensions import Extensions
from excover.symmetry.fixed import elements_of
from excover.symmetry.group import Group
from excover.symmetry.partials import Orbit, Partials, find_base
from excover.symmetry.runs import Runs
from excover.symmetry.smallest import OrderedChain
from excover.symmetry.split import split_orbits
from excover.symmetry.stabilizers import (
    burnside_after_count,
    burnside_over,
    descent_generators,
    fixes_at_most_half,
    is_smallest,
    stabilizer,
)
from excover.symmetry.twins import Merged, merge_twins

__all__ = ["MAX_STABILIZER", "BrokenSearch", "Orbit"]

#: The largest stabilizer that Burnside's lemma goes over (its elements listed, a smaller
#: problem counted for each); orbits under larger ones are counted by smallest images.
MAX_STABILIZER = 64


class BrokenSearch:
    """The symmetry-broken search of ``problem`` under ``group`` (see the module text).

    ``method`` and the search options apply to every search it runs; ``max_nodes`` bounds
    each of them, ``timeout`` all of them together (wall-clock seconds from the making of
    this object, time spent between two solutions included) and the group's work on the
    way (its orders and chains: :meth:`Group.bounded <excover.symmetry.Group.bounded>`),
    and ``max_solutions`` is not accepted. ``workers`` (above 1) counts the large exact
    cover problems of :meth:`count` and :meth:`count_orbits` (the whole problem without
    a base, the merged problem of the representatives) on that many processes
    (:func:`excover.parallel.count`); the small counts of single representatives stay in
    this process; ``timeout`` is then looked at between two counts, and ``max_nodes``,
    which bounds one search, is refused.

    ``base`` is the orbit of primary items branched on first (None without one), and
    ``orbits`` the orbits of its partial solutions (None without a base, or with too many
    partial solutions: then every solution is searched).
    """

    def __init__(
        self,
        problem: Problem,
        group: Group,
        method: str = "search",
        *,
        workers: int | None = None,
        **options: Unpack[SearchOptions],
    ) -> None:
        method = canonical_method(method, stacklevel=1)
        self.problem = problem
        self.method = method
        self.deadline = Deadline(options.pop("timeout", None))
        #: The group, its work (orders, chains, orbits) bounded by the same deadline.
        self.group = group.bounded(self.deadline.until)
        self.workers = workers if workers is not None and workers > 1 else None
        if self.workers is not None and options.get("max_nodes") is not None:
            raise UsageError("max_nodes bounds one search: it does not go with workers")
        self._runs = Runs(method, options, self.deadline, self.workers)
        self._arrays = OptionArrays(problem)
        self.base: list[int] | None = None
        self._partials: Partials | None = None
        self.orbits: list[Orbit] | None = None
        if group.moves_options():
            self.base, self._partials = find_base(problem, self._arrays, group)
            if self._partials is not None:
                self._runs.nodes += self._partials.searched
                self.orbits = self._partials.orbits

    @property
    def options(self) -> SearchOptions:
        """The search options of the next search, its ``timeout`` the time left."""
        return self._runs.options

    @property
    def nodes(self) -> int:
        """The nodes of the dancing-links searches run so far in this process (the
        listing of the partial solutions, the counts of :meth:`count`)."""
        return self._runs.nodes

    # ----- the three questions -----

    def count(self) -> int:
        """The number of solutions. Stopped early, by a limit (:class:`~excover.LimitReached`,
        whose ``stats.solutions`` is then :attr:`counted`) or by Ctrl-C, it leaves in
        :attr:`counted` the solutions it has counted for certain."""
        try:
            return self._count()
        except LimitReached as stop:
            found = {**stop.stats.as_dict(), "solutions": self.counted, "nodes": self.nodes}
            raise LimitReached(stop.reason, Stats(**found)) from None

    @property
    def counted(self) -> int:
        """The solutions the last :meth:`count` has counted so far: the sum over the
        searches it ran (each up to where it stopped) of their solutions, each times
        the number of distinct solutions of the problem it stands for (the size of the
        orbit of its representative; 1 without a base). Those stand-ins are all
        distinct, so a count stopped early has at least this many solutions; a count
        run to its end, exactly this many. Not kept by counts on workers stopped early
        (each part that ran to its end is)."""
        return self._runs.counted

    def _count(self) -> int:
        """The number of solutions, the weighted solutions of each search added to
        :attr:`counted` as it is found."""
        self._runs.counted = 0
        if self.orbits is None:
            if self.workers is not None:
                found = self._runs.count_on_workers(self.problem)
                self._runs.counted = found
                return found
            return self._runs.count(self.problem, weight=1)
        return self._extensions.count_weighted(self._split_orbits)

    def count_orbits(self) -> int:
        """The number of orbits of solutions."""
        if self._twins is not None:
            return self._twins[1].count_orbits()
        if self.orbits is None:
            if self._by_burnside(None):
                return fixed.burnside(self.problem, self.group, self.method, **self.options)
            return sum(1 for _ in self.smallest_of_orbits(self._runs.every_solution(self.problem)))
        if self._all_free:
            # Each class of solutions has exactly one member extending a representative.
            return self._count() // self.group.option_order
        if self._burnside_after_count:
            # A solution that ``g`` fixes meets the base in a partial solution that ``g``
            # fixes: an element that fixes no partial solution needs no quotient.
            partials = self._extensions.partials
            return burnside_after_count(
                self.problem, self._listed_elements, self._count, partials.fixed_by, self._runs
            )
        total = self._extensions.count(self._free())
        for orbit in self._fixed():
            if self._by_burnside(orbit):
                total += self._orbits_extending(orbit)
            else:
                total += self._descent(orbit)[0].count_orbits()
        return total

    def representatives(self) -> Iterator[list[int]]:
        """One solution per orbit (sorted option indices): first those extending the
        representatives only the identity fixes, in the order of the engine's runs on
        their merged problems, then
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
            yield from self.smallest_of_orbits(self._runs.every_solution(self.problem))
            return
        extensions, runs = self._extensions, self._runs
        for alike in extensions.alike(self._free()):
            merged = extensions.merged(alike)
            assert merged is not None  # the orbits are alike
            exact_cover, originals = merged
            for found in runs.solutions(exact_cover, exact_cover.items[0]):
                yield sorted(k for option in found for k in originals[option])
        for orbit in self._fixed():
            if not self._by_burnside(orbit):
                inner, original = self._descent(orbit)
                for found in inner.representatives():
                    yield sorted([*orbit.representative, *(original[k] for k in found)])
                continue
            reduced, original = extensions.reduced(orbit.representative)
            kept = self._stabilizer(orbit.representative)
            for found in runs.solutions(reduced):
                solution = sorted([*orbit.representative, *(original[k] for k in found)])
                if is_smallest(solution, kept):
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
            if is_smallest(ordered, elements):
                yield ordered

    def solutions(self) -> Iterator[list[int]]:
        """Every solution (sorted option indices): each representative of
        :meth:`representatives` followed by the rest of its orbit."""
        for solution in self.representatives():
            for member in _orbit(tuple(solution), self._generators):
                yield list(member)

    @cached_property
    def _generators(self) -> list[list[int]]:
        """The generators' option maps as lists, for the orbits of solutions."""
        return [g.options.tolist() for g in self.group.generators]

    # ----- the route -----

    @property
    def count_route(self) -> str:
        """How :meth:`count` goes, in words."""
        if not self.group.moves_options():
            return "a plain search (no symmetry moves an option)"
        if self.orbits is None:
            return "a plain search (no base with few enough partial solutions)"
        split = self._split_orbits
        below = "" if len(split) == len(self.orbits) else f", {len(split)} once split below it"
        return (
            f"one branch per orbit: {len(self.orbits)} orbits of partial solutions on a "
            f"base of {len(self.base or [])} items{below}, each counted times its orbit's size"
        )

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

    def _by_burnside(self, orbit: Orbit | None) -> bool:
        """Whether the orbits of the solutions extending the representative of ``orbit``
        (of every solution for None) are counted by Burnside's lemma over its stabilizer
        (whose elements are listed, and one smaller problem counted for each), rather
        than by smallest images: when the stabilizer has at most
        :data:`MAX_STABILIZER` elements (see the module text)."""
        order = self.group.option_order
        kept = order if orbit is None else order // orbit.size
        return order <= fixed.MAX_ELEMENTS and kept <= MAX_STABILIZER

    @cached_property
    def _burnside_after_count(self) -> bool:
        """Whether :meth:`count_orbits` goes by Burnside's lemma over the whole group,
        its identity's term (every solution) counted by the symmetry-broken
        :meth:`count`: when some partial solution has symmetries (else the orbits are
        counted with no fixed solutions at all), the group can be listed and has at most
        :data:`MAX_STABILIZER` elements, and no element but the identity fixes more than
        half of the options (an element that swaps two identical options and fixes all
        others would leave a quotient as large as the problem: the stabilizers' route
        takes those)."""
        if not self._fixed() or not self._by_burnside(None):
            return False
        return fixes_at_most_half(self._listed_elements, self.problem.n_options)

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

    # ----- the representatives and their stabilizers -----

    @cached_property
    def _extensions(self) -> Extensions:
        """The solutions extending the representatives (with a base only)."""
        assert self._partials is not None
        return Extensions(self.problem, self._arrays, self._partials, self._runs)

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

    @cached_property
    def _split_orbits(self) -> list[Orbit]:
        """The representatives that :meth:`count` searches below: :meth:`_deeper` of
        the orbits of partial solutions."""
        assert self.orbits is not None
        return self._deeper(self.orbits)

    def _deeper(self, orbits: list[Orbit]) -> list[Orbit]:
        """The orbits split below the base (:func:`~excover.symmetry.split.split_orbits`):
        only for problems whose primary items are all covered exactly once, under a
        listed group, and not on workers."""
        if self.workers is not None or not self._by_burnside(None) or not self._arrays.exactly_once:
            return orbits
        return split_orbits(orbits, self.group.option_order, self._stabilizer, self._arrays)

    @property
    def _all_free(self) -> bool:
        """Whether no symmetry but the identity maps a representative of
        :attr:`_split_orbits` onto itself (each then stands for a whole orbit of
        the group)."""
        order = self.group.option_order
        return all(orbit.size == order for orbit in self._split_orbits)

    @cached_property
    def _listed_elements(self) -> list[Perm]:
        """The option permutations of the group, listed (a small group only)."""
        return elements_of(self.group, "a partial solution with symmetries")

    def _stabilizer(self, partial: tuple[int, ...]) -> list[Perm]:
        """The option permutations of the group that map ``partial`` onto itself."""
        return stabilizer(partial, self._listed_elements)

    def _orbits_extending(self, orbit: Orbit) -> int:
        """The number of orbits of the solutions extending the orbit's representative,
        by Burnside's lemma over its stabilizer."""
        reduced, original = self._extensions.reduced(orbit.representative)
        kept = self._stabilizer(orbit.representative)
        return burnside_over(reduced, original, kept, self._runs)

    def _descent(self, orbit: Orbit) -> tuple[BrokenSearch, list[int]]:
        """The search up to symmetry of the solutions extending the orbit's
        representative ``P``, and the original index of each option of its problem: the
        problem left once ``P`` is chosen, under the stabilizer of ``P``
        (:func:`~excover.symmetry.stabilizers.descent_generators`)."""
        partial = orbit.representative
        partials = self._extensions.partials
        reduced, original = self._extensions.reduced(partial)
        graph = partials.graphs[len(partial)]
        kept = descent_generators(self.group, graph, partial, orbit.size, original)
        stabilizer = Group(reduced, kept, deadline=self.deadline.until)
        inner = BrokenSearch(reduced, stabilizer, self.method, workers=self.workers, **self.options)
        return inner, original

    @cached_property
    def _chain_in_input_order(self) -> OrderedChain:
        """The group's chain along the options in input order."""
        return OrderedChain.of(self.group.option_chain, deadline=self.group.deadline)


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
