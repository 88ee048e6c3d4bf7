"""Knuth's estimate of the size of a search tree by random probes.

Knuth ("Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975) follows
one random path from the root: at a node with ``d`` branches it goes down one of them,
chosen uniformly, and multiplies a running weight by ``d``. The sum of the weights of the
nodes on the path is an unbiased estimate of the number of nodes of the whole tree (each
node at depth ``k`` is reached with probability ``1/(d_0 ... d_{k-1})``); the same sums
weighted by the cost of each node estimate the cost of the search, and the weight of the
leaf, when it is a solution, estimates the number of solutions. One probe is cheap but
the estimates spread widely on irregular trees, so :func:`estimate` averages many and
reports the standard error of the mean.

The tree is the dancing-links engine's, walked by :class:`~excover.parallel.tree.State`
(same item choices, same branches), and nodes, solutions and updates have the engine's
definitions, so the estimates can be compared with ``Search.stats``. The running time is
the estimated updates divided by the engine's speed on this problem, measured by a short
run of the engine itself.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from excover.errors import LimitReached, UsageError
from excover.parallel.tree import Layout, State
from excover.problem import ExactCover

__all__ = ["Estimate", "Probe", "estimate", "probe", "quick_nodes"]

#: Seconds of real search spent measuring the engine's speed for the time estimate.
CALIBRATION_SECONDS = 0.05


@dataclass(frozen=True)
class Probe:
    """One random path down the tree, from which the estimates follow.

    ``path[k]`` is the index of the branch taken at depth ``k`` among the ``degrees[k]``
    branches of that node (the engine's order); ``costs[k]`` estimates the updates of the
    node at depth ``k`` (its item's covering, plus ``degrees[k]`` times what the branch
    taken cost), with one more entry for the node the probe ended at; ``solution`` says
    whether that node is a solution (or a dead end).
    """

    path: tuple[int, ...]
    degrees: tuple[int, ...]
    costs: tuple[int, ...]
    solution: bool

    def _weights(self) -> list[int]:
        """The weight of each node on the path: the product of the degrees above it (an
        exact int: on a deep tree it outgrows any float)."""
        weights = [1]
        for degree in self.degrees:
            weights.append(weights[-1] * degree)
        return weights

    @property
    def nodes(self) -> int:
        """The estimated number of nodes of the tree below the probe's start."""
        return sum(self._weights())

    @property
    def solutions(self) -> int:
        """The estimated number of solutions below the probe's start."""
        return self._weights()[-1] if self.solution else 0

    @property
    def updates(self) -> int:
        """The estimated number of updates of the search below the probe's start."""
        return sum(w * c for w, c in zip(self._weights(), self.costs, strict=True))

    def below(self) -> Probe:
        """The same probe seen from the child it went to: a probe of that subtree."""
        return Probe(self.path[1:], self.degrees[1:], self.costs[1:], self.solution)


def probe(state: State, rng: random.Random) -> Probe:
    """One Knuth probe from ``state`` (which it consumes: pass a copy to keep it)."""
    path: list[int] = []
    degrees: list[int] = []
    costs: list[int] = []
    layout = state.layout
    while True:
        item = state.choose()
        if item is None:
            costs.append(0)
            return Probe(tuple(path), tuple(degrees), tuple(costs), True)
        branches = state.branches(item)
        if not branches:
            costs.append(1)
            return Probe(tuple(path), tuple(degrees), tuple(costs), False)
        degree = len(branches)
        pick = rng.randrange(degree)
        covering = 1 + sum(map(layout.option_cost.__getitem__, layout.item_sets[item] & state.live))
        spent = max(state.follow(item, branches[pick])[1] - covering, 0)
        costs.append(covering + degree * spent)
        path.append(pick)
        degrees.append(degree)


@dataclass(frozen=True)
class Estimate:
    """Knuth's estimates of a search: the means over ``samples`` random probes.

    ``nodes``, ``solutions`` and ``updates`` use the engine's definitions (see
    :class:`excover.Stats`); ``nodes_error`` is the standard error of the mean of
    ``nodes`` (the true value is usually within a few of them, but the estimates of an
    irregular tree are skewed: most probes guess low, a rare one very high).
    ``seconds`` is the estimated time of a plain dancing-links count, from ``updates`` and
    the engine's speed measured on this problem (None when not asked for).
    """

    nodes: float
    solutions: float
    updates: float
    nodes_error: float
    seconds: float | None
    samples: int

    def as_dict(self) -> dict[str, Any]:
        """The estimate as a JSON-ready dictionary."""
        return asdict(self)


def check_samples(samples: object) -> int:
    """``samples`` as a positive int, or a UsageError naming it."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise UsageError(f"samples must be a positive integer, not {samples!r}")
    return samples


def as_float(value: Fraction | int) -> float:
    """``value`` as a float, or infinity when it is too large for one."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def mean(values: list[int]) -> float:
    """The mean of exact ``values``, as a float (infinity if too large for one)."""
    return as_float(Fraction(sum(values), len(values)))


def mean_and_error(values: list[int]) -> tuple[float, float]:
    """The mean of exact ``values`` and its standard error (0 for a single value),
    computed exactly and then rounded to floats (infinity if too large for one)."""
    n = len(values)
    if n < 2:
        return mean(values), 0.0
    total = sum(values)
    squares = sum(value * value for value in values)
    variance_of_mean = Fraction(n * squares - total * total, n * n * (n - 1))
    spread = as_float(variance_of_mean)
    if spread == math.inf:  # beyond floats: the square root of the integer part
        return mean(values), as_float(math.isqrt(int(variance_of_mean)))
    return mean(values), math.sqrt(spread)


def estimate(
    problem: ExactCover, samples: int = 1000, *, seed: int | None = 0, timed: bool = True
) -> Estimate:
    """Estimate the search tree of ``problem`` by ``samples`` of Knuth's random probes.

    ``seed`` seeds the probes (None: a fresh random seed); ``timed`` measures the engine's
    speed on the problem (about :data:`CALIBRATION_SECONDS`) to estimate the time.
    """
    samples = check_samples(samples)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise UsageError(f"seed must be an integer or None, not {seed!r}")
    rng = random.Random(seed)
    root = State(Layout.of(problem))
    probes = [probe(root.copy(), rng) for _ in range(samples)]
    nodes, error = mean_and_error([p.nodes for p in probes])
    updates = mean([p.updates for p in probes])
    solutions = mean([p.solutions for p in probes])
    seconds = updates / _speed(problem) if timed else None
    return Estimate(nodes, solutions, updates, error, seconds, samples)


def quick_nodes(problem: ExactCover, seconds: float, most: int = 1000) -> float:
    """A quick estimate of the nodes of the search tree: the mean of as many probes as
    fit in about ``seconds`` (at least one, at most ``most``), for a progress bar."""
    rng = random.Random(0)
    root = State(Layout.of(problem))
    deadline = time.monotonic() + seconds
    values: list[int] = []
    while not values or (len(values) < most and time.monotonic() < deadline):
        values.append(probe(root.copy(), rng).nodes)
    return mean(values)


def _speed(problem: ExactCover) -> float:
    """The engine's updates per second on ``problem``, from a short count."""
    search = problem.search(timeout=CALIBRATION_SECONDS)
    started = time.perf_counter()
    with contextlib.suppress(LimitReached):
        search.count()
    elapsed = max(time.perf_counter() - started, 1e-9)
    return max(search.stats.updates, 1) / elapsed
