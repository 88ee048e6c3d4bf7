"""Classes of solutions when some solutions have more symmetries than the others.

A problem may declare, beside its group G, a *widening*
(:class:`~excover.problem.Widening`): a sub-problem S, some of whose options are
the problem's, with a larger group H of its own (G acting on S is a subgroup of H). Two
solutions are then the same when G maps one onto the other, or when both solve S and H
maps one onto the other. G keeps the solutions of S among themselves, so every G-orbit
lies inside S or outside it, and the classes are the G-orbits outside S and the H-orbits
inside:

    classes = orbits of G on all solutions - orbits of G on S + orbits of H on S,

three counts of orbits under one group each, by the symmetry-broken search
(:class:`~excover.symmetry.BrokenSearch`). One solution per class: those of the
G-orbits that are not solutions of S, then those of the H-orbits of S.

The case that needs it: BurrTools identifies an assembly with its mirror image only
when that image is an assembly of the puzzle too, which, when pieces may be used a range
of times, holds for some assemblies and not for others
(:mod:`excover.burr.xmpuzzle.cover`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from excover.problem import Problem, Widening
    from excover.symmetry.broken import BrokenSearch
    from excover.symmetry.group import Group

__all__ = ["InsideRows", "WidenedClasses"]


class WidenedClasses:
    """The classes of the solutions of ``problem`` under its declared group and its
    declared ``widening`` (see the module's text). ``search(problem, group)`` makes the
    symmetry-broken search of a problem under a group (None: the group the problem
    declares), with the caller's method and limits."""

    def __init__(
        self,
        problem: Problem,
        widening: Widening,
        search: Callable[[Problem, Group | None], BrokenSearch],
    ) -> None:
        from excover.symmetry.group import Group

        self.problem = problem
        self.widening = widening
        inside = widening.problem
        #: The whole problem under its group, G.
        self.whole = search(problem, None)
        #: The sub-problem under G, and under its own larger group H.
        self.inside_small = search(inside, Group(inside, widening.base))
        self.inside = search(inside, None)
        self.inside_rows = InsideRows(problem, widening)

    @property
    def group(self) -> Group:
        """The whole problem's group, G."""
        return self.whole.group

    @property
    def route(self) -> str:
        """How the classes are counted, in words."""
        order = self.inside.group.order
        return (
            f"{self.whole.route}; for the {self.widening.problem.n_options} options of "
            f"the solutions with more symmetries (a group of order {order}): "
            f"{self.inside.route}"
        )

    def count_orbits(self) -> int:
        """The number of classes."""
        return (
            self.whole.count_orbits()
            - self.inside_small.count_orbits()
            + self.inside.count_orbits()
        )

    def representatives(self) -> Iterator[list[int]]:
        """One solution per class (sorted option numbers of the whole problem)."""
        inside = self.inside_rows
        for solution in self.whole.representatives():
            if not inside.holds(solution):
                yield solution
        options = self.widening.options
        for solution in self.inside.representatives():
            yield [options[k] for k in solution]


class InsideRows:
    """Which solutions of ``problem`` solve the sub-problem of its ``widening``: those
    whose options all are the sub-problem's and that cover each item whose multiplicity
    the sub-problem narrows within its bounds there (the others hold already), checked
    for many solutions at once."""

    def __init__(self, problem: Problem, widening: Widening) -> None:
        whole, inside = problem.engine_input(), widening.problem.engine_input()
        n = problem.n_options
        #: Whether each option (and the padding ``n``) is one of the sub-problem's.
        self.kept = np.zeros(n + 1, dtype=bool)
        self.kept[np.asarray(widening.options, dtype=np.int64)] = True
        self.kept[n] = True
        lo, hi = (np.frombuffer(a, dtype=np.intc) for a in (whole.lo, whole.hi))
        narrow_lo, narrow_hi = (np.frombuffer(a, dtype=np.intc) for a in (inside.lo, inside.hi))
        narrowed = np.flatnonzero((lo != narrow_lo) | (hi != narrow_hi))
        self.lo, self.hi = narrow_lo[narrowed], narrow_hi[narrowed]
        starts = np.frombuffer(whole.option_start, dtype=np.intc)
        items = np.frombuffer(whole.node_item, dtype=np.intc)
        owner = np.repeat(np.arange(n), np.diff(starts))
        #: How many times each option covers each narrowed item (none for the padding).
        self.covers = np.zeros((n + 1, len(narrowed)), dtype=np.int64)
        for column, item in enumerate(narrowed.tolist()):
            np.add.at(self.covers[:, column], owner[items == item], 1)

    def rows(self, table: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """For each row of ``table`` (a solution's options, padded with the number of
        options of ``problem``), whether it solves the sub-problem."""
        counts = self.covers[table].sum(axis=1)
        fits = ((counts >= self.lo) & (counts <= self.hi)).all(axis=1)
        result: npt.NDArray[np.bool_] = self.kept[table].all(axis=1) & fits
        return result

    def holds(self, solution: Sequence[int]) -> bool:
        """Whether one solution (its options) solves the sub-problem."""
        return bool(self.rows(np.asarray([solution], dtype=np.int64).reshape(1, -1))[0])
