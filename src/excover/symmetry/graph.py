"""The action of a group's generators on sets of options of one size (the partial
solutions of a symmetry-broken search, :mod:`excover.symmetry.partials`): every set's
image under each generator found at once, the orbits as connected parts, and a tree of an
orbit that gives, for each member, a group element reaching it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from excover.entries import distinct
from excover.symmetry.chain import Perm, Watch
from excover.symmetry.group import orbit_labels

__all__ = ["OrbitTree", "PartialGraph"]


class PartialGraph:
    """Distinct sorted sets of options of one size, closed under the generators, as the
    rows of an array; ``images[x][r]`` is the row of the image of row ``r`` under
    generator ``x`` (found for all rows at once, rows compared as raw bytes). The work
    on it stops once ``deadline`` (a ``time.monotonic()`` instant) has passed
    (LimitReached), and the images, a row number per row and generator, stay within the
    memory bound of a group's work (GroupMemoryError: a million partial solutions under
    thousands of generators would need tens of gigabytes)."""

    def __init__(self, rows: Perm, generators: list[Perm], deadline: float | None = None) -> None:
        self.deadline = deadline
        watch = Watch(len(rows), deadline, "the orbits of the partial solutions")
        watch.hold(len(generators))
        width = rows.shape[1]
        self._bytes = np.dtype((np.void, rows.dtype.itemsize * max(width, 1)))
        self._width = width
        largest = max((len(g) for g in generators), default=int(rows.max(initial=0)) + 1)
        #: Bits per option when a row's options fit in one int64 key side by side.
        self._shift = max(1, (largest - 1).bit_length())
        if self._shift * width > 63:
            self._shift = 0
        keys = self._keys(rows)
        self._order = np.argsort(keys)
        self._sorted_keys = keys[self._order]
        self.images = []
        for g in generators:
            watch.tick(rows.size + len(rows))
            self.images.append(self.row_of(np.sort(g[rows], axis=1)))

    def _keys(self, rows: Perm) -> np.ndarray:
        """One key per row, equal for equal rows: the options side by side in an int64
        when they fit (fast to sort and search), else the row's raw bytes."""
        if self._width == 0:  # the empty set: one row, one key
            return np.zeros(len(rows), dtype=np.int64)
        if self._shift:
            keys = rows[:, 0].copy()
            for column in range(1, self._width):
                keys <<= self._shift
                keys |= rows[:, column]
            return keys
        return np.ascontiguousarray(rows).view(self._bytes).ravel()

    def row_of(self, sets: Perm) -> Perm:
        """The row number of each of ``sets`` (sorted rows, each one of the rows)."""
        return self._order[np.searchsorted(self._sorted_keys, self._keys(sets))]

    def first_members(self) -> Perm:
        """For each row, the number of the first row of its orbit: the orbits are the
        connected parts of the graph joining each row to its images, and every row takes
        the smallest number among its neighbours' and its own, then follows those numbers
        to their end, until nothing changes."""
        return orbit_labels(len(self._order), self.images, self.deadline)

    def tree(self, root: int) -> OrbitTree:
        """A tree of the orbit of row ``root``, breadth first along the generators."""
        parent = np.full(len(self._order), -1, dtype=np.int64)
        via = np.full(len(self._order), -1, dtype=np.int64)
        parent[root] = root
        frontier = np.array([root], dtype=np.int64)
        watch = Watch(len(self._order), self.deadline, "")
        while len(frontier):
            reached = []
            for number, image in enumerate(self.images):
                watch.tick(len(frontier))
                targets = image[frontier]
                new = parent[targets] < 0
                targets, sources = np.unique(targets[new], return_index=True)
                parent[targets] = frontier[new][sources]
                via[targets] = number
                reached.append(targets)
            frontier = distinct(np.concatenate(reached))
        return OrbitTree(parent, via)


@dataclass(frozen=True)
class OrbitTree:
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
