"""The stabilizers of partial solutions, and the orbits of solutions counted with them
(see "Counting orbits after counting" and "Large groups" in
:mod:`excover.symmetry.broken`): a stabilizer listed from the group's elements, the
smallest solutions of their orbits under listed elements, Burnside's lemma over a
stabilizer or over the whole group with the identity's term already counted, and the
generators of a stabilizer found without listing anything, for descent."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from excover.problem import Problem
from excover.symmetry.chain import Perm, inverse, is_identity
from excover.symmetry.fixed import Quotient
from excover.symmetry.graph import PartialGraph
from excover.symmetry.group import Group
from excover.symmetry.runs import Runs
from excover.symmetry.smallest import OrderedChain, random_elements

__all__ = [
    "burnside_after_count",
    "burnside_over",
    "descent_generators",
    "fixes_at_most_half",
    "is_smallest",
    "stabilizer",
]


def stabilizer(partial: tuple[int, ...], elements: list[Perm]) -> list[Perm]:
    """The option permutations of ``elements`` that map ``partial`` onto itself."""
    chosen = np.array(partial, dtype=np.int64)
    return [g for g in elements if sorted(g[chosen].tolist()) == list(partial)]


def is_smallest(solution: list[int], elements: list[Perm]) -> bool:
    """Whether the sorted ``solution`` is the smallest of its images under ``elements``."""
    chosen = np.array(solution, dtype=np.int64)
    return all(sorted(g[chosen].tolist()) >= solution for g in elements)


def fixes_at_most_half(elements: list[Perm], n_options: int) -> bool:
    """Whether no element but the identity fixes more than half of the options: each
    element's quotient problem then mostly joins two options or more into one, a far
    smaller search than the whole problem's."""
    return all(
        is_identity(g) or int(np.count_nonzero(g == np.arange(n_options))) * 2 <= n_options
        for g in elements
    )


def burnside_over(reduced: Problem, original: list[int], elements: list[Perm], runs: Runs) -> int:
    """The number of orbits of the solutions of ``reduced`` (whose options are the
    options ``original`` of the whole problem) under ``elements``, a stabilizer that
    maps those options onto themselves, by Burnside's lemma: the identity's term counted
    by the search, each other element's by its quotient problem."""
    position = {option: k for k, option in enumerate(original)}
    total = 0
    for g in elements:
        if is_identity(g):
            total += runs.count(reduced)
            continue
        restricted = np.array([position[int(g[k])] for k in original], dtype=np.int64)
        total += Quotient(reduced, restricted).count(runs.plain_method(), **runs.options)
    return total // len(elements)


def burnside_after_count(
    problem: Problem,
    elements: list[Perm],
    count: Callable[[], int],
    may_fix: Callable[[Perm], bool],
    runs: Runs,
) -> int:
    """The number of orbits of solutions by Burnside's lemma: the mean over the group's
    ``elements`` of the solutions each fixes, the identity's term being every solution
    (``count()``), the others counted by their quotient problems
    (:class:`~excover.symmetry.fixed.Quotient`), skipping the elements ``may_fix`` says
    fix no solution."""
    total = 0
    for g in elements:
        if is_identity(g):
            total += count()
        elif may_fix(g):
            total += Quotient(problem, g).count(runs.plain_method(), **runs.options)
    if total % len(elements):  # pragma: no cover - Burnside's lemma says it divides
        raise AssertionError(f"{total} fixed solutions for a group of {len(elements)}")
    return total // len(elements)


def descent_generators(
    group: Group, graph: PartialGraph, partial: tuple[int, ...], size: int, original: list[int]
) -> list[list[int]]:
    """Generators of the stabilizer ``K`` of ``partial`` (whose orbit has ``size``
    members, the partial solutions of its size in ``graph``), acting on the options
    ``original`` of the problem left once ``partial`` is chosen (as positions in that
    list). ``K`` has ``|G| / size`` elements, and a uniformly random one is ``g`` then
    ``u^-1``, for ``g`` random in ``G`` and ``u`` an element sending ``partial`` to
    ``g(partial)`` (read off a tree of the orbit spanned by the generators); sifting such
    elements until that order is reached gives generators of ``K``
    (:class:`~excover.symmetry.smallest.OrderedChain`). A partial solution that every
    element maps onto itself (an orbit of one) has ``G`` for ``K``, and ``G``'s
    generators are taken as they are (no chain of ``G`` is built: a symmetric group of
    many points has one too large to hold)."""
    n = group.problem.n_options
    position = np.full(n, -1, dtype=np.int64)
    position[original] = np.arange(len(original))
    generators = [g.options for g in group.generators]
    if size == 1:
        return [position[g[original]].tolist() for g in generators]
    tree = graph.tree(graph.row_of(np.array([partial], dtype=np.int64))[0])
    draw = random_elements(group.option_chain, random.Random(0))
    chosen = np.array(partial, dtype=np.int64)

    def element() -> Perm:
        g = draw()
        image = graph.row_of(np.sort(g[chosen]).reshape(1, -1))[0]
        return inverse(tree.element(image, generators))[g]

    chain = OrderedChain(n, group.option_order // size, element, group.deadline)
    return [position[g[original]].tolist() for g in chain.strong_generators]
