"""Permutation groups by a stabilizer chain (the Schreier-Sims algorithm).

A permutation of ``0..n-1`` is a numpy array ``p`` with ``p[x]`` the image of ``x``;
"``p`` then ``q``" is ``q[p]``. A group given by generators is known once it has a *base*
``b_1, ..., b_k`` (no element but the identity fixes every base point) and, for each
level ``i``, the orbit of ``b_i`` under the elements that fix ``b_1 .. b_{i-1}``, with a
*transversal*: one element ``u_beta`` of that stabilizer sending ``b_i`` to each point
``beta`` of the orbit. Then every element is a unique product ``u^(k) then ... then u^(1)``
of one transversal element per level, which gives the order (the product of the orbit
lengths, an exact int) and a way to list the elements, each exactly once.

The chain is built by the deterministic Schreier-Sims algorithm (Holt, Eick and O'Brien,
*Handbook of Computational Group Theory*, section 4.4.2): every Schreier generator
``u_beta then x then (u_{beta x})^-1`` of every level is *sifted* down the chain, and one
that does not sift to the identity becomes a new strong generator (with a new base point
when needed), until every level checks out. The groups met here (the symmetries of a
board, of a puzzle, of a problem's incidence structure) have small bases, so the work is a
few permutations per orbit point.

When the order of the group is known beforehand (:mod:`excover.symmetry.factors` reads
it off the group's structure: direct products, symmetric groups on blocks), no Schreier
generator needs checking: random elements (by product replacement) are sifted in until
the product of the orbit lengths reaches it, which it can only do once the chain is
complete (each orbit is one of a subgroup of its level's stabilizer, so the product never
passes the order of the group). A symmetric group on 40 points takes a few dozen such
elements where the deterministic algorithm sifts tens of thousands of Schreier
generators.

**Bounds.** A transversal holds a whole permutation per orbit point, so a chain of a large
symmetric group holds about ``n^2 / 2`` permutations of ``n`` points: building one stops
with :class:`~excover.errors.GroupMemoryError` once its permutations (transversal
elements, their inverses and the strong generators) would pass :func:`memory_bound`
bytes, before the process runs out of memory, and with
:class:`~excover.LimitReached` once its ``deadline`` (a ``time.monotonic()`` instant)
has passed, looked at every :data:`CHECK_EVERY` permutation products.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np
import numpy.typing as npt

from excover import deadlines
from excover.errors import GroupMemoryError

__all__ = ["CHECK_EVERY", "MAX_CHAIN_BYTES", "Perm", "StabilizerChain", "Watch"]
__all__ += ["identity", "inverse", "is_identity", "memory_bound", "random_products"]

#: A permutation of ``0..n-1`` as an int64 array of images.
Perm = npt.NDArray[np.int64]

#: The most bytes of permutations one stabilizer chain may hold (:func:`memory_bound`
#: lowers it to a quarter of a smaller machine's memory).
MAX_CHAIN_BYTES = 2 << 30
#: Elementary steps of work between two looks at the deadline (a product of two
#: permutations of n points is n of them): a millisecond or so of numpy's work, a few
#: more of Python's.
CHECK_EVERY = 1 << 16
#: Random elements sifted in a row without growing the chain after which a chain of
#: known order is completed by the deterministic algorithm instead (product replacement
#: mixes far faster than this on every group met; the fallback only keeps the build
#: finite whatever happens).
STALL = 1000


def identity(n: int) -> Perm:
    """The identity permutation of ``0..n-1``."""
    return np.arange(n, dtype=np.int64)


def inverse(p: Perm) -> Perm:
    """The inverse permutation."""
    result = np.empty_like(p)
    result[p] = np.arange(len(p), dtype=np.int64)
    return result


def is_identity(p: Perm) -> bool:
    """Whether ``p`` fixes every point."""
    return bool(np.array_equal(p, np.arange(len(p))))


def memory_bound() -> int:
    """The bytes of permutations a chain may hold: :data:`MAX_CHAIN_BYTES`, or a quarter
    of the machine's memory where that is less."""
    from excover.zdd.memory import machine_memory

    machine = machine_memory()
    return MAX_CHAIN_BYTES if machine is None else min(MAX_CHAIN_BYTES, machine // 4)


class Watch:
    """The bounds of one piece of group work: its ``deadline`` (a ``time.monotonic()``
    instant, None: none), looked at once every :data:`CHECK_EVERY` steps of work that
    :meth:`tick` counts, and the permutations of ``n`` points it holds, which
    :meth:`hold` counts against :func:`memory_bound` (``what`` names the work in the
    error)."""

    def __init__(self, n: int, deadline: float | None, what: str) -> None:
        self.n = n
        self.deadline = deadline
        self.what = what
        self.bound = memory_bound()
        self.held = 0  # bytes
        self.steps = 0
        self._next_look = 0  # the first tick looks

    def tick(self, steps: int = 1) -> None:
        """Count ``steps`` elementary steps of work about to be done (a permutation
        product of ``n`` points is ``n``); LimitReached once the deadline has passed,
        looked at by the first call and after every :data:`CHECK_EVERY` steps."""
        if self.steps >= self._next_look:
            deadlines.check(self.deadline)
            self._next_look = self.steps + CHECK_EVERY
        self.steps += steps

    def hold(self, permutations: int) -> None:
        """Count ``permutations`` more permutations held; GroupMemoryError past the bound."""
        self.held += 8 * self.n * permutations
        if self.held > self.bound:
            raise GroupMemoryError(self.bound, self.what, self.n)


def random_products(
    n: int, generators: Sequence[Perm], draw: random.Random, watch: Watch | None = None
) -> Callable[[], Perm]:
    """A function returning random elements of the group the (non-empty) ``generators``
    make, by product replacement (Celler, Leedham-Green, Murray, Niemeyer and O'Brien,
    1995, with Leedham-Green's accumulator): a list of at least ten products of the
    generators, in which a random one is multiplied by another at each step, the
    accumulator by the result. The elements are close to uniformly distributed after
    the first few dozen steps, which are taken at once."""
    state = [g.copy() for g in generators]
    while len(state) < 10:
        state += [g.copy() for g in generators[: 10 - len(state)]]
    accumulator = identity(n)

    def step() -> Perm:
        nonlocal accumulator
        if watch is not None:
            watch.tick(2 * n)
        i, j = draw.sample(range(len(state)), 2)
        state[i] = state[j][state[i]] if draw.random() < 0.5 else state[i][state[j]]
        accumulator = state[i][accumulator]
        return accumulator

    for _ in range(50):
        step()
    return step


@dataclass
class _Level:
    """One level of the chain: its base point, the strong generators fixing the earlier
    base points, and the orbit of the base point with its transversal (and each
    transversal element's inverse)."""

    point: int
    generators: list[Perm] = field(default_factory=list)
    transversal: dict[int, Perm] = field(default_factory=dict)
    inverses: dict[int, Perm] = field(default_factory=dict)
    #: For the k-th orbit point (in the transversal's order), how many of the level's
    #: generators (a prefix) have a Schreier generator with it that sifted.
    checked: list[int] = field(default_factory=list)


class StabilizerChain:
    """A base and strong generating set of the group generated by ``generators``.

    With the group's ``order`` given (exactly), the chain is built by sifting random
    elements until it reaches it (see the module text); otherwise by the deterministic
    Schreier-Sims algorithm. ``deadline`` (a ``time.monotonic()`` instant) and the
    memory bound stop the build (LimitReached, GroupMemoryError); the work done on the
    chain later takes a deadline of its own (a chain may be shared by calls with
    different ones)."""

    def __init__(
        self,
        n: int,
        generators: Sequence[Perm],
        *,
        order: int | None = None,
        deadline: float | None = None,
    ) -> None:
        self.n = n
        self.levels: list[_Level] = []
        self._watch = Watch(n, deadline, "the stabilizer chain of a symmetry group")
        moving = [g for g in generators if not is_identity(g)]
        if order is None or not moving:
            self._deterministic(moving)
        else:
            self._randomised(moving, order)

    # ----- building -----

    def _deterministic(self, generators: list[Perm]) -> None:
        """The chain by the deterministic Schreier-Sims algorithm."""
        for g in generators:
            self._watch.tick(self.n)
            residue, stop = self.sift(g)
            if not is_identity(residue):
                self._add(residue, stop)
        self._complete()

    def _randomised(self, generators: list[Perm], order: int) -> None:
        """The chain of a group of known ``order``: random elements sifted in until the
        chain reaches it (after :data:`STALL` sifts in a row that add nothing, the
        deterministic algorithm completes it)."""
        draw = random_products(self.n, generators, random.Random(0), self._watch)
        idle = 0
        while self.order < order:
            residue, stop = self.sift(draw())
            if is_identity(residue):
                idle += 1
                if idle >= STALL:
                    self._deterministic(generators)
                    break
                continue
            idle = 0
            self._add(residue, stop)
        if self.order != order:  # pragma: no cover - a wrong order given
            raise AssertionError(f"a group of order {self.order}, not {order}")

    def _add(self, g: Perm, depth: int) -> None:
        """Make ``g`` (which fixes the base points above ``depth``) a strong generator of
        the levels ``0..depth`` below its first moved base point, adding a base point it
        moves when every current base point is fixed."""
        self._watch.hold(1)
        if depth == len(self.levels) or all(
            int(g[level.point]) == level.point for level in self.levels[depth:]
        ):
            moved = int(np.flatnonzero(g != np.arange(self.n))[0])
            self.levels.append(_Level(moved))
        for level in self.levels[: self._first_moved(g) + 1]:
            level.generators.append(g)
            self._extend_orbit(level)

    def _first_moved(self, g: Perm) -> int:
        """The first level whose base point ``g`` moves."""
        for number, level in enumerate(self.levels):
            if int(g[level.point]) != level.point:
                return number
        raise AssertionError("a strong generator fixes every base point")  # pragma: no cover

    def _extend_orbit(self, level: _Level) -> None:
        """Grow the orbit of the level's base point under its generators (the transversal
        elements already found are kept, so earlier Schreier checks stay valid)."""
        if not level.transversal:
            self._keep(level, level.point, identity(self.n))
        frontier = list(level.transversal)
        while frontier:
            beta = frontier.pop()
            u = level.transversal[beta]
            for g in level.generators:
                self._watch.tick(self.n)
                image = int(g[beta])
                if image not in level.transversal:
                    self._keep(level, image, g[u])
                    frontier.append(image)

    def _keep(self, level: _Level, point: int, u: Perm) -> None:
        """Add ``u``, which sends the level's base point to ``point``, to its transversal."""
        self._watch.hold(2)
        level.transversal[point] = u
        level.inverses[point] = inverse(u)
        level.checked.append(0)

    def sift(self, g: Perm, start: int = 0) -> tuple[Perm, int]:
        """Strip ``g`` down the chain from level ``start``: the residue and the level where
        it stopped (``len(levels)`` when every level was stripped)."""
        for number in range(start, len(self.levels)):
            level = self.levels[number]
            u_inverse = level.inverses.get(int(g[level.point]))
            if u_inverse is None:
                return g, number
            self._watch.tick(self.n)
            g = u_inverse[g]
        return g, len(self.levels)

    def _complete(self) -> None:
        """Run Schreier-Sims until the Schreier generators of every level sift."""
        depth = len(self.levels) - 1
        while depth >= 0:
            residue = self._failing_schreier_generator(depth)
            if residue is None:
                depth -= 1
                continue
            g, stop = residue
            self._add(g, stop)
            depth = max(depth, min(stop, len(self.levels) - 1))

    def _failing_schreier_generator(self, depth: int) -> tuple[Perm, int] | None:
        """A Schreier generator of level ``depth`` that does not sift through the levels
        below it (its residue, and the level where it stopped), or None. The pairs of an
        orbit point and a generator already checked are skipped (the orbit and the
        generators only grow, each in order, so a count per orbit point says which)."""
        level = self.levels[depth]
        for place, (beta, u) in enumerate(list(level.transversal.items())):
            for number in range(level.checked[place], len(level.generators)):
                x = level.generators[number]
                self._watch.tick(2 * self.n)
                schreier = level.inverses[int(x[beta])][x[u]]
                residue, stop = self.sift(schreier, depth + 1)
                if not is_identity(residue):
                    return residue, stop
                level.checked[place] = number + 1
        return None

    # ----- reading -----

    @property
    def order(self) -> int:
        """The number of elements of the group, exactly."""
        result = 1
        for level in self.levels:
            result *= len(level.transversal)
        return result

    @property
    def base(self) -> list[int]:
        """The base points, level by level."""
        return [level.point for level in self.levels]

    def __contains__(self, g: Perm) -> bool:
        residue, _ = self.sift(g)
        return is_identity(residue)

    def elements(self, deadline: float | None = None) -> Iterator[Perm]:
        """Every element of the group, each once, the identity first (LimitReached once
        ``deadline``, a ``time.monotonic()`` instant, has passed)."""
        if not self.levels:
            yield identity(self.n)
            return
        watch = Watch(self.n, deadline, "")
        transversals = [list(level.transversal.values()) for level in self.levels]
        for choice in product(*transversals):
            watch.tick(self.n * len(choice))
            g = choice[-1]
            for u in reversed(choice[:-1]):
                g = u[g]
            yield g
