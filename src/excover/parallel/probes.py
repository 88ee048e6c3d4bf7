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

import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Any

from excover.deadlines import check
from excover.engines import Search, pick_engine
from excover.errors import LimitReached, UsageError
from excover.parallel import engine_trees
from excover.parallel.sampling import Memo, Sample, count_below, sample
from excover.parallel.tree import Layout, State
from excover.problem import Problem

__all__ = [
    "Estimate",
    "Probe",
    "choose_cutoff",
    "effective_df",
    "estimate",
    "probe",
    "quick_nodes",
]

#: Probes of an estimate, by default.
SAMPLES = 1000
#: Search nodes (and seconds) of the exact count an estimate tries first.
EXACT_NODES = 100_000
EXACT_SECONDS = 0.25
#: When the samples cannot measure their error, the tree is counted if that ends
#: within this many times the time the estimate took and the nodes it estimated
#: (:func:`_count_if_cheap`).
COUNT_SLACK = 2.0
#: Probes per stratum (see :func:`top_of_tree`): the top of the tree has at most
#: ``samples // PER_STRATUM`` nodes at the depth where the strata are taken.
PER_STRATUM = 8
#: Plain probes that measure the shape of the tree to choose the cutoff depth.
SHAPE_PROBES = 300
#: The average size (search nodes) of the subtrees the probes count in full.
SUBTREE_NODES = 200
#: A subtree of more than GUARD * SUBTREE_NODES nodes is probed into, not counted.
GUARD = 100
#: Standard errors on each side of an estimate in :meth:`Estimate.interval`, when the
#: samples of each stratum are many; fewer widen it to the same confidence
#: (:data:`CONFIDENCE`) by Student's t (:func:`spread`).
SPREAD = 3.0
#: The confidence of a range: that of :data:`SPREAD` standard errors of a normal.
CONFIDENCE = math.erf(SPREAD / math.sqrt(2))
#: Degrees of freedom from which Student's t is taken as the normal.
NORMAL_DF = 1000
#: The fewest degrees of freedom :func:`effective_df` gives for the samples' heavy tails
#: (unless the strata have fewer samples): 5.5 standard errors on each side.
FEWEST_DF = 5


@dataclass(frozen=True)
class Probe:
    """One random path down the tree, from which the estimates follow.

    ``path[k]`` is the index of the branch taken at depth ``k`` among the ``degrees[k]``
    branches of that node (the engine's order); ``costs[k]`` estimates the updates of the
    node at depth ``k`` (its item's covering, plus ``degrees[k]`` times what the branch
    taken cost), with one more entry for the node the probe ended at. That last node is a
    leaf (a solution or a dead end: ``end_nodes`` 1, ``end_solutions`` 1 or 0) or the
    root of a subtree the probe counted in full (its nodes, solutions and, as its cost,
    updates).
    """

    path: tuple[int, ...]
    degrees: tuple[int, ...]
    costs: tuple[int, ...]
    end_solutions: int
    end_nodes: int = 1

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
        weights = self._weights()
        return sum(weights[:-1]) + weights[-1] * self.end_nodes

    @property
    def solutions(self) -> int:
        """The estimated number of solutions below the probe's start."""
        return self._weights()[-1] * self.end_solutions

    @property
    def updates(self) -> int:
        """The estimated number of updates of the search below the probe's start."""
        return sum(w * c for w, c in zip(self._weights(), self.costs, strict=True))

    def below(self) -> Probe:
        """The same probe seen from the child it went to: a probe of that subtree."""
        return Probe(
            self.path[1:], self.degrees[1:], self.costs[1:], self.end_solutions, self.end_nodes
        )


def probe(
    state: State,
    rng: random.Random,
    cutoff: int | None = None,
    guard: int = 0,
    deadline: float | None = None,
) -> Probe:
    """One Knuth probe from ``state`` (which it consumes: pass a copy to keep it).

    With ``cutoff``, the probe stops at that depth and counts the subtree below in full
    with the engine, unless that takes more than ``guard`` search nodes: then it goes one
    level further down at random and tries again. Whether a subtree is counted depends on
    the subtree alone, so the estimates stay unbiased; they spread far less, as each probe
    ends with the exact count of many leaves instead of one leaf. Past ``deadline`` (a
    ``time.monotonic()`` value) it raises :class:`~excover.LimitReached`, checked at
    every node: a path through a tree as deep as a problem's ten thousand items is long.
    """
    path: list[int] = []
    degrees: list[int] = []
    costs: list[int] = []
    layout = state.layout
    while True:
        check(deadline, len(path))
        if cutoff is not None and len(path) >= cutoff:
            counted = count_below(state, guard, deadline)
            if counted is not None:
                solutions, nodes, updates = counted
                costs.append(updates)
                return Probe(tuple(path), tuple(degrees), tuple(costs), solutions, nodes)
        item = state.choose()
        if item is None:
            costs.append(0)
            return Probe(tuple(path), tuple(degrees), tuple(costs), 1)
        branches = state.branches(item)
        if not branches:
            costs.append(1)
            return Probe(tuple(path), tuple(degrees), tuple(costs), 0)
        degree = len(branches)
        pick = rng.randrange(degree)
        covering = 1 + sum(map(layout.option_cost.__getitem__, layout.item_sets[item] & state.live))
        spent = max(state.follow(item, branches[pick])[1] - covering, 0)
        costs.append(covering + degree * spent)
        path.append(pick)
        degrees.append(degree)


@dataclass(frozen=True)
class Estimate:
    """Estimates of a search: the means over ``samples`` random probes, or the exact
    figures when the tree was small enough to search in full (``exact``).

    ``nodes``, ``solutions`` and ``updates`` use the engine's definitions (see
    :class:`excover.Stats`); ``nodes_error`` and ``solutions_error`` are the standard
    errors of the means (0 when exact), and :meth:`interval` turns them into a range.
    ``cutoff`` is the depth below which each probe counted its subtree in full (None:
    plain probes, or an exact search). ``seconds`` is the estimated time of a plain
    dancing-links count, from ``updates`` and the engine's speed measured on this
    problem (None when not asked for). ``df`` is the degrees of freedom of the errors
    (:func:`effective_df`: fewer when a few large samples carry the estimates), which
    widen the ranges (None: exact, or no random stratum).
    """

    nodes: float
    solutions: float
    updates: float
    nodes_error: float
    seconds: float | None
    samples: int
    solutions_error: float = 0.0
    exact: bool = False
    cutoff: int | None = None
    df: int | None = None

    def interval(self, what: str = "solutions") -> tuple[float, float]:
        """A range for ``"solutions"`` or ``"nodes"``: the estimate plus or minus
        :func:`spread` ``(df)`` standard errors (:data:`SPREAD` when ``df`` is None),
        never below 0; a single point when exact."""
        if what not in ("solutions", "nodes"):
            raise UsageError(f"an interval is for 'solutions' or 'nodes', not {what!r}")
        value = self.solutions if what == "solutions" else self.nodes
        error = self.solutions_error if what == "solutions" else self.nodes_error
        wide = SPREAD if self.df is None else spread(self.df)
        return max(value - wide * error, 0.0), value + wide * error

    def as_dict(self) -> dict[str, Any]:
        """The estimate as a JSON-ready dictionary, with both intervals; a figure beyond
        a double's range (``inf`` here) is None there, since JSON has no infinity."""
        result = asdict(self)
        result["solutions_interval"] = list(self.interval("solutions"))
        result["nodes_interval"] = list(self.interval("nodes"))
        return {key: _finite(value) for key, value in result.items()}


def spread(df: int) -> float:
    """The standard errors on each side of a range of :data:`CONFIDENCE` (that of
    :data:`SPREAD` standard errors of a normal) when the variance is estimated with
    ``df`` degrees of freedom: Student's t quantile, found by bisection on its
    distribution (:func:`_t_within`). An estimate's variance adds up those of its strata,
    each from its own few samples, most often too small where the samples are
    heavy-tailed: :func:`effective_df` counts its degrees of freedom."""
    if df >= NORMAL_DF:
        return SPREAD
    df = max(df, 1)
    low, high = SPREAD, 1e6
    for _ in range(100):
        middle = (low + high) / 2
        if _t_within(middle, df) < CONFIDENCE:
            low = middle
        else:
            high = middle
    return high


def _t_within(t: float, df: int) -> float:
    """The chance that Student's t with ``df`` (a whole number) degrees of freedom lies
    within ``t`` of 0 (Abramowitz and Stegun, 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):
            term *= cos2 * (k - 1) / k
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = 1.0
    for k in range(3, df, 2):
        term *= cos2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)


def _finite(value: Any) -> Any:
    """``value`` with every infinite float (in it, or in it as a list) made None."""
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


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


def _mean_and_variance(values: list[int]) -> tuple[Fraction, Fraction]:
    """The mean of exact ``values`` and the variance of that mean (0 for one value),
    both exact."""
    n = len(values)
    total = sum(values)
    if n < 2:
        return Fraction(total, n), Fraction(0)
    squares = sum(value * value for value in values)
    return Fraction(total, n), Fraction(n * squares - total * total, n * n * (n - 1))


def _root(variance: Fraction) -> float:
    """The square root of an exact variance, as a float (beyond floats: the square root
    of its integer part)."""
    spread = as_float(variance)
    if spread == math.inf:
        return as_float(math.isqrt(int(variance)))
    return math.sqrt(spread)


def estimate(
    problem: Problem, samples: int | None = None, *, seed: int | None = 0, timed: bool = True
) -> Estimate:
    """Estimate the search tree of ``problem`` by ``samples`` random samples (default
    :data:`SAMPLES`).

    The engine first searches for up to :data:`EXACT_NODES` nodes (and
    :data:`EXACT_SECONDS`): a tree that small is counted, and the figures are exact.
    Otherwise the estimate is of the tree of the engine that would count (see
    :mod:`excover.parallel.engine_trees`). :data:`SHAPE_PROBES` plain probes measure how
    the tree's nodes spread over its depths, which gives the *cutoff*: the shallowest
    depth whose subtrees have :data:`SUBTREE_NODES` nodes on average. The top of the tree
    is then searched in full down to a level of at most ``samples //``
    :data:`PER_STRATUM` nodes (the strata: :func:`top_of_tree`), and each stratum is
    sampled (:func:`excover.parallel.sampling.sample`: Knuth's probes that keep one path
    per number of closed items, and count in full the subtrees they reach at the cutoff).
    A stratum whose first sample made no random choice is known exactly; the other
    samples are shared out evenly among the others. The estimates of the strata add up,
    and so do the variances of those estimates: see :func:`_error` for when a variance
    is not known (then the tree is counted if that is cheap: :func:`_count_if_cheap`),
    and :func:`spread` for the range they give. ``seed`` seeds the samples (None: a
    fresh random seed); ``timed`` estimates the time of a full count from the engine's
    speed in the first search.
    """
    samples = check_samples(SAMPLES if samples is None else samples)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise UsageError(f"seed must be an integer or None, not {seed!r}")
    search = Search(problem, max_nodes=EXACT_NODES, timeout=EXACT_SECONDS)
    started = time.perf_counter()
    try:
        counted = search.count()
    except LimitReached:
        pass
    else:
        stats = search.stats
        seconds = time.perf_counter() - started if timed else None
        return Estimate(stats.nodes, counted, stats.updates, 0.0, seconds, 0, exact=True)
    speed = max(search.stats.updates, 1) / max(time.perf_counter() - started, 1e-9)
    rng = random.Random(seed)
    layout = Layout.of(problem)
    engine = pick_engine(problem)
    root = engine_trees.root(layout, engine)
    counting = engine if layout.multiplicities else "auto"
    cutoff = choose_cutoff([probe(root.copy(), rng) for _ in range(SHAPE_PROBES)])
    strata, depth, above = top_of_tree(root, max(samples // PER_STRATUM, 1))
    guard = GUARD * SUBTREE_NODES
    below = None if cutoff is None else max(cutoff - depth, 0)
    caches = [Memo() for _ in strata]

    def draw(number: int) -> Sample:
        return sample(strata[number], rng, counting, below, guard, caches[number])

    found = [[draw(number)] for number in range(len(strata))]
    unknown = [number for number, first in enumerate(found) if first[0].random]
    _share_out(found, unknown, max(samples - len(strata), len(unknown)), draw)
    nodes, solutions, updates = Fraction(above), Fraction(0), Fraction(0)
    for values in found:
        nodes += Fraction(sum(s.nodes for s in values), len(values))
        solutions += Fraction(sum(s.solutions for s in values), len(values))
        updates += Fraction(sum(s.updates for s in values), len(values))
    nodes_parts = [[s.nodes for s in found[number]] for number in unknown]
    solutions_parts = [[s.solutions for s in found[number]] for number in unknown]
    nodes_error, solutions_error = _error(nodes_parts), _error(solutions_parts)
    if math.isinf(nodes_error) and math.isinf(solutions_error):
        counted_now = _count_if_cheap(problem, as_float(nodes), started)
        if counted_now is not None:
            return counted_now if timed else replace(counted_now, seconds=None)
    seconds = as_float(updates) / speed if timed else None
    df = min(effective_df(nodes_parts), effective_df(solutions_parts)) if unknown else None
    return Estimate(
        as_float(nodes),
        as_float(solutions),
        as_float(updates),
        nodes_error,
        seconds,
        samples,
        solutions_error,
        False,
        cutoff,
        df,
    )


def _count_if_cheap(problem: Problem, nodes: float, started: float) -> Estimate | None:
    """The exact figures, when the samples cannot measure their error (they all agreed)
    and a count ends within :data:`COUNT_SLACK` times the time the estimate has taken
    since ``started`` and the ``nodes`` they estimate; None when it does not. The count
    is tried whatever the engine's speed projects: that speed comes from a short
    search, which a busy machine slows many times over."""
    spent = time.perf_counter() - started
    if not nodes < math.inf:
        return None
    budget = int(COUNT_SLACK * nodes) + EXACT_NODES
    search = Search(problem, max_nodes=budget, timeout=max(COUNT_SLACK * spent, EXACT_SECONDS))
    begun = time.perf_counter()
    try:
        counted = search.count()
    except LimitReached:
        return None
    stats = search.stats
    took = time.perf_counter() - begun
    return Estimate(stats.nodes, counted, stats.updates, 0.0, took, 0, exact=True)


def _share_out(
    found: list[list[Sample]], unknown: list[int], budget: int, draw: Callable[[int], Sample]
) -> None:
    """Draw ``budget`` more samples for the strata ``unknown`` (those whose samples are
    random), shared out evenly, adding them to ``found``."""
    for k, number in enumerate(unknown):
        more = budget // len(unknown) + (k < budget % len(unknown))
        found[number] += [draw(number) for _ in range(more)]


def _error(parts: list[list[int]]) -> float:
    """The standard error of a sum of the means of ``parts``, the samples of the strata
    drawn at random (the others are exact): the square root of the sum of the variances
    of the means. Infinite when it is not known: when all the samples of every random
    stratum agree (a tree too deep or too uneven for samples to differ says nothing of
    how far they are from the truth), or a stratum has only one sample."""
    if not parts:
        return 0.0
    if any(len(values) < 2 for values in parts) or all(len(set(values)) == 1 for values in parts):
        return math.inf
    return _root(sum((_mean_and_variance(values)[1] for values in parts), Fraction(0)))


def effective_df(parts: list[list[int]]) -> int:
    """The degrees of freedom of the variance of a sum of the means of ``parts`` (the
    samples of the random strata, at least one), for :func:`spread`.

    Welch and Satterthwaite's: ``V**2 / sum(v_h**2 / d_h)``, where ``V`` is the sum of the
    variances ``v_h`` of the strata's means and ``d_h`` the degrees of freedom of each,
    its *effective* samples less one: ``(sum x)**2 / sum x**2`` of its samples ``x``.
    That is the number of its samples when they are alike, and the number of those that
    carry the mean when a few large ones do (a heavy tail, whose spread the few samples
    measure badly): then the range widens. It is at most the fewest samples of a
    stratum less one (the bound for a normal spread in each) and at least
    :data:`FEWEST_DF` below that (fewer degrees give ranges too wide to say anything:
    t has 236 standard errors on each side with one)."""
    most = min(len(values) for values in parts) - 1
    total = Fraction(0)
    weighted = Fraction(0)
    for values in parts:
        n = len(values)
        if n < 2:
            continue
        variance = _mean_and_variance(values)[1]
        if not variance:
            continue
        size = sum(values)
        squares = sum(value * value for value in values)
        effective = min(Fraction(size * size, squares), Fraction(n)) if squares else Fraction(n)
        total += variance
        weighted += variance * variance / max(effective - 1, Fraction(1))
    if not weighted:
        return max(most, 1)
    return max(min(int(total * total / weighted), most), min(FEWEST_DF, most), 1)


def top_of_tree(root: State, most: int) -> tuple[list[State], int, int]:
    """The strata of :func:`estimate`: the nodes of the deepest level of the tree that
    has at most ``most`` of them (solutions met above it are carried down as they are),
    that level's depth, and the number of nodes above it (dead ends included). Each
    stratum is probed on its own, so the random choices at the top of the tree no
    longer add to the spread of the estimates."""
    level = [root]
    depth = above = 0
    while True:
        deeper: list[State] = []
        expanded = 0
        for state in level:
            item = state.choose()
            if item is None:
                deeper.append(state)
                continue
            expanded += 1
            for branch in state.branches(item):
                child = state.copy()
                child.follow(item, branch)
                deeper.append(child)
        if not expanded or not deeper or len(deeper) > most:
            return level, depth, above
        level = deeper
        depth += 1
        above += expanded


def choose_cutoff(probes: list[Probe]) -> int | None:
    """The shallowest depth at which a probe's subtree has at most
    :data:`SUBTREE_NODES` nodes on average, by the plain ``probes``: the part of each
    probe below a depth is itself a probe of the subtree it reached there, so the mean of
    those parts' estimates is the expected cost of counting that subtree. None when no
    depth qualifies (the probes end before: plain probes are then as good)."""
    deepest = max(len(found.degrees) for found in probes)
    for depth in range(1, deepest + 1):
        cost = Fraction(0)
        for found in probes:
            weights = found._weights()
            if depth < len(weights):
                cost += Fraction(
                    sum(weights[depth:-1]) + weights[-1] * found.end_nodes, weights[depth]
                )
        if cost <= SUBTREE_NODES * len(probes):
            return depth
    return None


def quick_nodes(problem: Problem, seconds: float, most: int = 1000) -> float:
    """A quick estimate of the nodes of the search tree: the mean of as many probes as
    fit in about ``seconds`` (at least one, at most ``most``), for a progress bar."""
    rng = random.Random(0)
    root = State(Layout.of(problem))
    deadline = time.monotonic() + seconds
    values: list[int] = []
    while not values or (len(values) < most and time.monotonic() < deadline):
        values.append(probe(root.copy(), rng).nodes)
    return mean(values)
