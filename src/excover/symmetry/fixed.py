"""Solutions left unchanged by a symmetry, and Burnside's lemma.

A solution ``S`` is fixed by an automorphism ``g`` when ``g(S) = S``: then ``S`` is a
union of whole cycles of ``g`` on the options. So the fixed solutions are the solutions of
a *quotient* problem with the same items, whose options are the cycles of ``g`` whose
options fit together (no item covered twice by them unless its multiplicity allows it, and
one color per secondary item). A cycle covering a primary item ``k > 1`` times counts
``k`` towards its multiplicity: such an item is *weighted*, and its fixed solutions are
found by listing the quotient's solutions with the item's lower bound dropped and keeping
those whose weights fit the bounds.

Burnside's lemma then counts the orbits of solutions under a group ``G``: the average over
the elements of ``G`` of the number of solutions each one fixes.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Unpack

import numpy as np

from excover.counting import methods
from excover.entries import distinct
from excover.errors import SymmetryError
from excover.numbers import grouped
from excover.problem import Problem, SearchOptions
from excover.symmetry.chain import Perm, is_identity

if TYPE_CHECKING:
    from excover.symmetry.group import Group

__all__ = ["MAX_ELEMENTS", "Quotient", "burnside", "cycle_labels", "cycles", "elements_of"]

#: The largest group whose elements are listed one by one: by :func:`burnside`, and to
#: find small stabilizers (counting up to symmetry lists nothing in larger groups, see
#: :mod:`excover.symmetry.broken`).
MAX_ELEMENTS = 100_000


def cycles(permutation: Perm) -> Iterator[list[int]]:
    """The cycles of a permutation of ``0..n-1``, each from its smallest point."""
    seen = np.zeros(len(permutation), dtype=bool)
    for start in range(len(permutation)):
        if seen[start]:
            continue
        cycle = []
        current = start
        while not seen[current]:
            seen[current] = True
            cycle.append(current)
            current = int(permutation[current])
        yield cycle


def cycle_labels(permutation: Perm) -> Perm:
    """For each point of a permutation of ``0..n-1``, the smallest point of its cycle:
    each point takes the smallest label along ``1, 2, 4, ...`` steps of the permutation,
    doubling the window until it covers the longest cycle."""
    label = np.arange(len(permutation), dtype=np.int64)
    step = permutation.copy()
    window = 1
    while window < len(permutation):
        np.minimum(label, label[step], out=label)
        step = step[step]
        window *= 2
    return label


def elements_of(group: Group, what: str) -> list[Perm]:
    """The distinct option permutations of ``group``; a SymmetryError when there
    are more than :data:`MAX_ELEMENTS` (``what`` says what needed them)."""
    order = group.option_order
    if order > MAX_ELEMENTS:
        raise SymmetryError(
            f"{what} lists the elements of the group, and this one has {grouped(order)}; "
            f"the limit is {MAX_ELEMENTS:,} (count(up_to_symmetry=True) takes any group)"
        )
    return list(group.option_elements())


class Quotient:
    """The problem whose solutions are the solutions of ``problem`` fixed by the option
    permutation ``g``: one option per cycle of ``g`` whose options fit together."""

    def __init__(self, problem: Problem, g: Perm) -> None:
        # All cycles are checked at once on the flat arrays: each node is keyed by its
        # option's cycle and its item, and a cycle fits when no primary item is
        # covered more than its upper bound and each secondary item it meets more
        # than once has one color, never none.
        data = problem.engine_input()
        starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
        node_item = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
        node_color = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
        hi = np.frombuffer(data.hi, dtype=np.intc).astype(np.int64)
        n_primary = data.n_primary
        n_items = problem.n_items
        self.problem = problem
        label = cycle_labels(np.asarray(g, dtype=np.int64))
        owner = np.repeat(np.arange(len(label)), np.diff(starts))
        keys = label[owner] * n_items + node_item
        order = np.argsort(keys, kind="stable")
        keys, colors = keys[order], node_color[order]
        first = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]])[: len(keys)])
        uses = np.diff(np.append(first, len(keys)))
        cycle, item = keys[first] // n_items, keys[first] % n_items
        low = np.minimum.reduceat(colors, first) if len(keys) else colors
        high = np.maximum.reduceat(colors, first) if len(keys) else colors
        primary = item < n_primary
        bad = np.where(
            primary,
            uses > hi[np.minimum(item, max(n_primary - 1, 0))] if n_primary else False,
            (uses > 1) & ((low == 0) | (low != high)),
        )
        good = np.ones(len(label), dtype=bool)
        good[cycle[bad]] = False
        fitting = np.flatnonzero(good & (label == np.arange(len(label))))
        keep = good[cycle]
        cycle, item, uses, color = cycle[keep], item[keep], uses[keep], low[keep]
        number = np.searchsorted(fitting, cycle)  # the quotient option of each node
        self._label = label
        self._fitting = fitting
        heavy = primary[keep] & (uses > 1)
        #: The primary items that some quotient option covers more than once.
        self.weighted: list[int] = distinct(item[heavy]).tolist()
        #: Per quotient option, how many times it covers each weighted item (see
        #: :meth:`solutions`).
        self.uses: list[dict[int, int]] = [{} for _ in fitting]
        # kind="table": isin's sorting method calls np.unique, which imports numpy.ma
        counted = primary[keep] & np.isin(item, item[heavy], kind="table")
        for k, i, u in zip(
            number[counted].tolist(), item[counted].tolist(), uses[counted].tolist(), strict=True
        ):
            self.uses[k][i] = u
        quotient = problem.derive()
        weighted = set(self.weighted)
        for i, (lo, top) in enumerate(zip(data.lo, data.hi, strict=True)):
            if i in weighted:
                lo = 0
            if (lo, top) != (1, 1):
                quotient.set_multiplicity(i, lo, top)
        option_starts = np.searchsorted(number, np.arange(len(fitting) + 1))
        # Each option covers an item once (its nodes are one per cycle and item), with
        # the color its cycle gives it: no rule of add_options to check again.
        quotient._add_checked_options(option_starts, item, color, problem.color_names)
        self.exact_cover = quotient

    @cached_property
    def cycles(self) -> list[list[int]]:
        """The options of ``problem`` in each option of the quotient (found when asked
        for: a count needs none of them)."""
        label, fitting = self._label, self._fitting
        by_cycle = np.argsort(label, kind="stable")
        bounds = np.searchsorted(label[by_cycle], fitting)
        ends = np.searchsorted(label[by_cycle], fitting, side="right")
        return [by_cycle[a:b].tolist() for a, b in zip(bounds.tolist(), ends.tolist(), strict=True)]

    def count(self, method: str = "search", **options: Unpack[SearchOptions]) -> int:
        """The number of solutions of the problem fixed by the permutation."""
        if not self.weighted:
            return methods.count(self.exact_cover, method, **options)
        return sum(1 for _ in self.solutions(method, **options))

    def solutions(
        self, method: str = "search", **options: Unpack[SearchOptions]
    ) -> Iterator[list[int]]:
        """The fixed solutions, as sorted option lists of the problem."""
        bounds = [self.problem.multiplicity(item) for item in self.weighted]
        for found in methods.solutions(self.exact_cover, method, **options):
            if self.weighted:
                totals = dict.fromkeys(self.weighted, 0)
                for option in found:
                    uses = self.uses[option]
                    for item in totals:
                        totals[item] += uses.get(item, 0)
                if not all(
                    lo <= totals[item] <= hi
                    for item, (lo, hi) in zip(self.weighted, bounds, strict=True)
                ):
                    continue
            yield sorted(k for option in found for k in self.cycles[option])


def burnside(
    problem: Problem, group: Group, method: str = "search", **options: Unpack[SearchOptions]
) -> int:
    """The number of orbits of solutions under ``group``, by Burnside's lemma: the mean
    over the group's elements of the number of solutions each fixes. ``timeout`` bounds
    all the counts together (wall-clock seconds from the call)."""
    from excover.engines import Deadline

    deadline = Deadline(options.pop("timeout", None))  # for all the counts together
    total = 0
    elements = elements_of(group, "Burnside's lemma")
    for g in elements:
        if is_identity(g):
            total += methods.count(problem, method, **deadline.options(options))
        else:
            total += Quotient(problem, g).count(method, **deadline.options(options))
    if total % len(elements):  # pragma: no cover - Burnside's lemma says it divides
        raise AssertionError(f"{total} fixed solutions for a group of {len(elements)}")
    return total // len(elements)
