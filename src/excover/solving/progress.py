"""The sizes of search trees for the progress bars of the orchestrator's runs.

A search's bar (:class:`excover.counting.by_search.SearchBar`) draws its nodes against
the size of its tree: the share walked where the engine tells it, else an estimate that
its request gives (:meth:`excover.counting.request.MethodRequest.size_tree`). Knuth's
random probes make that estimate; they live with the parallel operations
(:mod:`excover.parallel.probes`), above the runners, so the requests of the
orchestrator (:class:`excover.solving.request.Request`) hand the runners a
:class:`TreeSize`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.problem import Problem

__all__ = ["TreeSize"]

#: Seconds a search runs before its bar gets a size for the tree.
SIZE_AFTER = 1.0
#: The share of a search's time the probes that size its tree may take, in all.
PROBE_SHARE = 0.04
#: The longest batch of probes (seconds) at one look.
PROBE_BATCH = 0.25
#: The relative standard error of the probes' mean below which no more are made ...
PROBE_ENOUGH = 0.03
#: ... and above which the mean sizes no bar (it counts up instead).
PROBE_USELESS = 0.5
#: The share of the probes' size a search may walk before that size is taken as too
#: small (the probes' mean of a heavy-tailed tree is mostly below the truth).
PROBES_PROVED_SMALL = 0.95


class TreeSize:
    """The size of a search's tree (its nodes) as its progress bar needs it, for the
    engines that do not tell the share of their tree walked (dancing cells, and any
    engine on Algorithm M; the bit-parallel engine's and dancing links'
    :meth:`~excover.engines.Search.progress` is used where it tells). Knuth's random
    probes (:func:`excover.parallel.probes.probe`), made in batches while the search
    goes on, within :data:`PROBE_SHARE` of its time, and pooled: the mean of all of
    them, sharper the longer the count runs. None while their standard error is more
    than :data:`PROBE_USELESS` of the mean."""

    def __init__(self, problem: Problem, clock: Callable[[], float] = time.monotonic) -> None:
        self.problem = problem
        self.clock = clock
        self.started = clock()
        self.spent = 0.0
        self.values: list[float] = []
        self._root: object = None
        self._rng: object = None

    def nodes(self, walked: int) -> float | None:
        """The estimated nodes of the whole tree, of which ``walked`` are walked,
        probing more first when the time allows; None: unknown yet, or the search has
        walked :data:`PROBES_PROVED_SMALL` of it and goes on (the probes' mean was too
        small: a bar stuck near 100% would say the end is near when nothing says so)."""
        now = self.clock()
        elapsed = now - self.started
        if elapsed < SIZE_AFTER:
            return None
        if not self._sharp() and self.spent < PROBE_SHARE * elapsed:
            self._probe(min(PROBE_BATCH, PROBE_SHARE * elapsed - self.spent))
        if not self.values or self._error() > PROBE_USELESS:
            return None
        mean = sum(self.values) / len(self.values)
        return None if walked >= PROBES_PROVED_SMALL * mean else mean

    def _error(self) -> float:
        """The relative standard error of the probes' mean (inf: too few probes)."""
        n = len(self.values)
        if n < 2:
            return math.inf
        mean = sum(self.values) / n
        spread = sum((v - mean) ** 2 for v in self.values) / (n - 1)
        return math.sqrt(spread / n) / mean if mean > 0 else math.inf

    def _sharp(self) -> bool:
        return self._error() <= PROBE_ENOUGH

    def _probe(self, seconds: float) -> None:
        import random

        from excover.parallel.probes import probe
        from excover.parallel.tree import Layout, State

        started = time.monotonic()
        if self._root is None:
            self._root = State(Layout.of(self.problem))
            self._rng = random.Random(0)
        root, rng = self._root, self._rng
        assert isinstance(root, State) and isinstance(rng, random.Random)
        end = started + seconds
        while not self.values or time.monotonic() < end:
            self.values.append(float(probe(root.copy(), rng).nodes))
        self.spent += time.monotonic() - started
