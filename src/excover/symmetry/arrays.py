"""A problem's options as numpy arrays, node by node, for the steps of the symmetry-broken
search (:mod:`excover.symmetry.broken`) that work on every option at once: choosing the
base, building the merged problem, splitting below the base."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from excover.entries import distinct
from excover.problem import Problem
from excover.symmetry.chain import Perm

__all__ = ["OptionArrays"]


class OptionArrays:
    """The options of ``problem`` as int64 arrays of nodes (one node per item of an
    option, in the engine's order): option ``k`` holds the nodes ``starts[k]`` up to
    ``starts[k + 1]``; node ``j`` has the item ``items[j]``, the color ``colors[j]`` (0:
    none) and belongs to the option ``owner[j]``; option ``k`` has ``lengths[k]`` nodes.
    ``lo`` and ``hi`` are the multiplicity bounds of the primary items."""

    def __init__(self, problem: Problem) -> None:
        data = problem.engine_input()
        self.n_options = problem.n_options
        self.n_items = problem.n_items
        self.n_primary = problem.n_primary
        self.starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
        self.items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
        self.colors = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
        self.lengths = np.diff(self.starts)
        self.owner = np.repeat(np.arange(problem.n_options), self.lengths)
        self.lo: list[int] = list(data.lo)
        self.hi: list[int] = list(data.hi)

    @cached_property
    def degree(self) -> Perm:
        """The number of options of each item."""
        return np.bincount(self.items, minlength=self.n_items)

    @cached_property
    def node_keys(self) -> Perm:
        """``option * n_items + item`` for every node, sorted: which options have which
        items, found by a binary search."""
        return np.sort(self.owner * self.n_items + self.items)

    @cached_property
    def exactly_once(self) -> bool:
        """Whether every primary item is to be covered exactly once."""
        return all(lo == 1 == hi for lo, hi in zip(self.lo, self.hi, strict=True))

    def nodes_of(self, options: Perm) -> Perm:
        """The nodes of ``options`` (an int64 array), option after option."""
        lengths = self.lengths[options]
        nodes = np.repeat(self.starts[options] - np.cumsum(lengths) + lengths, lengths)
        return nodes + np.arange(len(nodes), dtype=np.int64)

    def options_covering(self, items: list[int]) -> Perm:
        """The options that cover one of ``items`` or more, in increasing order."""
        chosen = np.zeros(self.n_items, dtype=bool)
        chosen[items] = True
        return distinct(self.owner[chosen[self.items]])
