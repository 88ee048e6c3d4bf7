"""The smallest image of a set under a permutation group, without listing the group.

Sets of points (options, for solutions) are compared as sorted tuples. Among sets of one
size, ``A < B`` exactly when the smallest point of the symmetric difference lies in ``A``.
So the smallest image ``M`` of a set ``S`` under a group ``G`` can be decided point by
point, ``0, 1, 2, ...``, as in S. Linton's "Finding the smallest image of a set" (ISSAC
2004): keep a set of *candidates*, images of ``S`` that agree with ``M`` on the points
decided so far, each standing for its images under ``G_p``, the elements fixing
``0 .. p-1``. At point ``p``, with ``O_p`` the orbit of ``p`` under ``G_p``, an image
under ``G_p`` of a candidate ``T`` holds ``p`` exactly when ``T`` meets ``O_p``:

* when some candidate meets ``O_p``, ``M`` holds ``p``, and the new candidates are the
  images ``T u_b^-1`` for each such ``T`` and each ``b`` of ``T`` in ``O_p`` (``u_b`` in
  ``G_p`` sends ``p`` to ``b``, so ``T u_b^-1`` holds ``p``, and every element of ``G_p``
  doing so is ``u_b^-1`` then an element of ``G_{p+1}``);
* otherwise ``M`` leaves ``p`` out, and the new candidates are ``T u_b^-1`` for every
  candidate and every ``b`` of ``O_p`` (``G_p`` is the union of the cosets
  ``u_b^-1 G_{p+1}``).

Candidates are kept without repeats, which keeps them few: they are images of one set.
Where ``G_p`` fixes ``p`` nothing branches, so only the points where the chain moves
something and the points of the candidates are visited. The chain is a stabilizer chain
whose base is increasing (:class:`OrderedChain`); it is built by sifting random elements
of the group, whose order is known (from :class:`~excover.symmetry.chain.StabilizerChain`,
say): the chain is complete exactly when the product of its orbit lengths reaches it.
Its building stops at a deadline and within the memory bound of every chain
(:class:`~excover.symmetry.chain.Watch`).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Sequence

import numpy as np

from excover.symmetry.chain import Perm, StabilizerChain, Watch, identity, inverse

__all__ = ["OrderedChain", "random_elements"]


def random_elements(chain: StabilizerChain, draw: random.Random) -> Callable[[], Perm]:
    """A function returning uniformly random elements of the group of ``chain``: a
    random transversal element of each level, multiplied (each element is one such
    product)."""
    transversals = [list(level.transversal.values()) for level in chain.levels]

    def element() -> Perm:
        g = identity(chain.n)
        for transversal in transversals:
            g = draw.choice(transversal)[g]
        return g

    return element


class OrderedChain:
    """The stabilizer chain along the base ``0, 1, 2, ...`` of a group of permutations of
    ``0..n-1`` known by its ``order`` and a way to ``draw`` uniformly random elements
    (:meth:`of` makes them from a :class:`StabilizerChain`). Only the levels whose orbit
    has more than its base point are stored. Random elements sifted in until the order is
    reached (sifting ``g`` divides it by a transversal element per level; a residue
    becomes a new strong generator) make the chain complete: the product of its orbit
    lengths is at most the order of the group its generators make, so reaching ``order``
    leaves no element out. ``deadline`` (a ``time.monotonic()`` instant) stops the
    building with LimitReached, the memory bound of chains with GroupMemoryError."""

    def __init__(
        self, n: int, order: int, draw: Callable[[], Perm], deadline: float | None = None
    ) -> None:
        self.n = n
        self._watch = Watch(n, deadline, "the stabilizer chain of a symmetry group")
        #: The base points whose level moves something, increasing.
        self.points: list[int] = []
        #: Per level: the strong generators fixing the points below its base point, each
        #: with its inverse.
        self.generators: list[list[tuple[Perm, Perm]]] = []
        #: Per level: ``b -> u_b^-1`` for each ``b`` of the orbit, ``u_b`` sending the
        #: base point to ``b``.
        self.inverses: list[dict[int, Perm]] = []
        while self._order() < order:
            self._sift_in(draw())
        self._watch.hold(sum(len(inverses) for inverses in self.inverses))  # the stacks
        #: Per level: the ``u_b^-1`` stacked, one row per point ``b`` of the orbit, and the
        #: row of each point (-1 outside the orbit), for the images of many sets at once.
        self.stacks = [np.stack(list(inverses.values())) for inverses in self.inverses]
        self.rows: list[Perm] = []
        for inverses in self.inverses:
            row = np.full(n, -1, dtype=np.int64)
            row[list(inverses)] = np.arange(len(inverses))
            self.rows.append(row)

    @classmethod
    def of(
        cls, chain: StabilizerChain, seed: int = 0, deadline: float | None = None
    ) -> OrderedChain:
        """The chain along ``0, 1, 2, ...`` of the group of ``chain``, from random
        elements drawn with ``random.Random(seed)`` (so the same on every run), built by
        ``deadline`` (a ``time.monotonic()`` instant)."""
        draw = random_elements(chain, random.Random(seed))
        return cls(chain.n, chain.order, draw, deadline)

    @property
    def strong_generators(self) -> list[Perm]:
        """Generators of the group (those of the first level hold all the others)."""
        return [g for g, _ in self.generators[0]] if self.generators else []

    # ----- building -----

    def _order(self) -> int:
        result = 1
        for transversal in self.inverses:
            result *= len(transversal)
        return result

    def _level_at(self, point: int) -> int | None:
        """The number of the stored level whose base point is ``point``, or None."""
        where = bisect.bisect_left(self.points, point)
        if where < len(self.points) and self.points[where] == point:
            return where
        return None

    def sift(self, g: Perm) -> tuple[Perm, int] | None:
        """Strip ``g`` level by level: None when it is in the chain's group, else the
        residue (which fixes every point below the second value) and its smallest moved
        point."""
        while True:
            self._watch.tick(2 * self.n)
            moved = np.flatnonzero(g != np.arange(self.n))
            if not len(moved):
                return None
            point = int(moved[0])
            level = self._level_at(point)
            if level is None or int(g[point]) not in self.inverses[level]:
                return g, point
            g = self.inverses[level][int(g[point])][g]

    def _sift_in(self, g: Perm) -> None:
        """Sift ``g``; a residue becomes a strong generator of every level at or below its
        smallest moved point (it fixes the points below), with a new level there if
        needed."""
        residue = self.sift(g)
        if residue is None:
            return
        g, point = residue
        self._watch.hold(2)
        if self._level_at(point) is None:
            where = bisect.bisect_left(self.points, point)
            self.points.insert(where, point)
            # The strong generators of the levels after it fix the points below it too.
            deeper = self.generators[where] if where < len(self.generators) else []
            self.generators.insert(where, list(deeper))
            self.inverses.insert(where, {point: identity(self.n)})
        pair = (g, inverse(g))
        for level, base in enumerate(self.points):
            if base > point:
                break
            self.generators[level].append(pair)
            self._extend_orbit(level)

    def _extend_orbit(self, level: int) -> None:
        """Grow the level's orbit under its generators (for ``u`` sending the base point
        to ``b`` and a generator ``x``, ``(u then x)^-1`` is ``x^-1 then u^-1``)."""
        inverses = self.inverses[level]
        frontier = list(inverses)
        while frontier:
            beta = frontier.pop()
            u_inverse = inverses[beta]
            for x, x_inverse in self.generators[level]:
                self._watch.tick(self.n)
                image = int(x[beta])
                if image not in inverses:
                    self._watch.hold(1)
                    inverses[image] = u_inverse[x_inverse]
                    frontier.append(image)

    # ----- smallest images -----

    def smallest_image(self, points: Sequence[int]) -> tuple[int, ...]:
        """The smallest image of the set ``points`` under the group (sorted)."""
        found = self._smallest(sorted(int(x) for x in points), compare=False)
        assert found is not None
        return found

    def is_smallest(self, points: Sequence[int]) -> bool:
        """Whether the set ``points`` is the smallest of its images; it stops as soon as
        a smaller image shows."""
        return self._smallest(sorted(int(x) for x in points), compare=True) is not None

    def _smallest(self, start: list[int], compare: bool) -> tuple[int, ...] | None:
        """The smallest image of the sorted set ``start`` (see the module text); with
        ``compare``, None as soon as it is known to be smaller than ``start``. The
        candidates are the rows of an array, each sorted."""
        size = len(start)
        candidates = np.array([start], dtype=np.int64).reshape(1, size)
        decided = 0  # the number of points of the smallest image found so far
        level = 0
        while decided < size:
            following = int(candidates[:, decided].min())
            if level < len(self.points) and self.points[level] <= following:
                point = self.points[level]
                candidates, holds = self._branch(candidates, level, decided)
                level += 1
            else:
                point = following
                candidates = candidates[candidates[:, decided] == point]
                holds = True
            if holds:
                if compare and start[decided] != point:
                    return None
                decided += 1
        return tuple(int(x) for x in candidates[0])

    def _branch(self, candidates: Perm, level: int, decided: int) -> tuple[Perm, bool]:
        """The candidates after the level's base point, and whether the smallest image
        holds that point."""
        stack = self.stacks[level]
        rows = self.rows[level][candidates[:, decided:]]
        which, where = np.nonzero(rows >= 0)
        holds = bool(len(which))
        if holds:  # T u_b^-1 for each candidate T and each b of T in the orbit
            images = np.take_along_axis(stack[rows[which, where]], candidates[which], axis=1)
        else:  # T u_b^-1 for each candidate T and each b of the orbit
            images = stack[:, candidates].reshape(-1, candidates.shape[1])
        images.sort(axis=1)
        first: dict[bytes, int] = {}
        for number, image in enumerate(images):
            first.setdefault(image.tobytes(), number)
        return images[list(first.values())], holds
