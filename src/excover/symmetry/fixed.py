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
from typing import TYPE_CHECKING, Unpack

import numpy as np

from excover.errors import SymmetryError
from excover.numbers import grouped
from excover.problem import ExactCover, SearchOptions
from excover.symmetry.chain import Perm, is_identity

if TYPE_CHECKING:
    from excover.symmetry.group import Group

__all__ = ["MAX_ELEMENTS", "Quotient", "burnside", "cycles", "elements_of"]

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

    def __init__(self, problem: ExactCover, g: Perm) -> None:
        data = problem.engine_input()
        starts = data.option_start
        node_item = data.node_item
        node_color = data.node_color
        n_primary = data.n_primary
        hi = data.hi
        self.problem = problem
        #: The options of ``problem`` in each option of the quotient.
        self.cycles: list[list[int]] = []
        #: Per quotient option, how many times it covers each of its primary items.
        self.uses: list[dict[int, int]] = []
        options: list[list[tuple[int, int]]] = []
        for cycle in cycles(g):
            nodes: dict[int, int] = {}
            uses: dict[int, int] = {}
            fits = True
            for option in cycle:
                for j in range(starts[option], starts[option + 1]):
                    item, color = node_item[j], node_color[j]
                    if item < n_primary:
                        uses[item] = uses.get(item, 0) + 1
                        if uses[item] > hi[item]:
                            fits = False
                    elif item in nodes and (color == 0 or nodes[item] != color):
                        fits = False
                    nodes[item] = color
                if not fits:
                    break
            if not fits:
                continue
            self.cycles.append(cycle)
            self.uses.append(uses)
            options.append(sorted(nodes.items()))
        weighted = sorted({item for uses in self.uses for item, k in uses.items() if k > 1})
        #: The primary items that some quotient option covers more than once.
        self.weighted = weighted
        quotient = ExactCover(problem.primary_items, problem.secondary_items)
        for item in range(n_primary):
            lo, top = problem.multiplicity(item)
            if item in weighted:
                lo = 0
            if (lo, top) != (1, 1):
                quotient.set_multiplicity(item, lo, top)
        color_names = dict(enumerate(problem.color_names, start=1))
        for nodes_of_cycle in options:
            quotient.add_option(
                [
                    item if color == 0 else f"{problem.items[item]}:{color_names[color]}"
                    for item, color in nodes_of_cycle
                ]
            )
        self.exact_cover = quotient

    def count(self, method: str = "dlx", **options: Unpack[SearchOptions]) -> int:
        """The number of solutions of the problem fixed by the permutation."""
        if not self.weighted:
            return self.exact_cover.count(method=method, **options)
        return sum(1 for _ in self.solutions(method, **options))

    def solutions(
        self, method: str = "dlx", **options: Unpack[SearchOptions]
    ) -> Iterator[list[int]]:
        """The fixed solutions, as sorted option lists of the problem."""
        bounds = [self.problem.multiplicity(item) for item in self.weighted]
        for found in self.exact_cover.solutions(method=method, **options):
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
    problem: ExactCover, group: Group, method: str = "dlx", **options: Unpack[SearchOptions]
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
            total += problem.count(method=method, **deadline.options(options))
        else:
            total += Quotient(problem, g).count(method, **deadline.options(options))
    if total % len(elements):  # pragma: no cover - Burnside's lemma says it divides
        raise AssertionError(f"{total} fixed solutions for a group of {len(elements)}")
    return total // len(elements)
