"""Preprocessing: a smaller problem with exactly the same solutions, before a search.

Knuth's DLX-PRE (in the CWEB sources of his programs) shrinks an exact cover problem
before it is searched; :func:`preprocess` does the same kind of work, every step keeping
the set of solutions exactly (so every count is unchanged):

* **blocked options** are removed: an option that, once chosen, leaves some primary item
  with no compatible option can be in no solution. Two options are compatible when they
  share no primary item and give every secondary item they share the same color (an
  uncolored secondary item is shared by no two options of a solution). This also removes
  what Knuth calls dominated options: when every option of primary item ``i`` holds item
  ``j`` (uncolored), an option holding ``j`` but not ``i`` blocks ``i``. It is repeated
  to a fixpoint, or until the ``budget`` of work is spent;
* **redundant items** are dropped once no option is blocked: a primary item whose options
  are exactly those of another primary item (the first of them stays), and a secondary
  item that can no longer make two options incompatible (it is in at most one option; all
  its options give it one color; all its options hold one primary item, so that at most
  one of them is chosen) or that is another secondary item's twin (the same options, with
  the same colors);
* **forced options**, the only option left to a primary item, are reported (they are in
  every solution; they stay in the problem).

Dropping an item changes no pair of options from compatible to incompatible or back, so
the options that survive are still unblocked after it. Multiplicities (Knuth's MCC
problems) are left alone: a primary item covered several times lets options share it,
and none of the reasoning above holds as it stands, so such a problem comes back as it
is (``stats.skipped`` says why).

The work is a few dense products of 0/1 matrices (numpy, the options cut into blocks so
that memory stays bounded): per round about ``2 n^2 (p + s + c + p)`` operations for
``n`` options, ``p`` primary items, ``s`` secondary items and ``c`` (secondary item,
color) pairs. The ``budget`` bounds that sum over the rounds; a round that would pass it
is not started and the problem so far is returned (``stats.complete`` false), which is
still exact: every removal made was proven.
"""

from __future__ import annotations

import time

import numpy as np

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, SupportsIndex

    import numpy.typing as npt

    from excover.problem import ExactCover

__all__ = ["DEFAULT_BUDGET", "PreprocessStats", "Preprocessed", "preprocess"]

#: The default bound on the work of :func:`preprocess`, in multiply-adds of its matrix
#: products: about a second on one core of a laptop of 2024.
DEFAULT_BUDGET = 10**10

#: The most bytes one block of a matrix product may take.
_BLOCK_BYTES = 1 << 24


class PreprocessStats:
    """What :func:`preprocess` did: options and items removed, rounds of the fixpoint of
    blocked options, its time in seconds, the forced options (indices in the original
    problem), ``complete`` (false when the budget stopped the rounds early) and
    ``skipped`` (why nothing was tried, or None)."""

    _FIELDS = (
        "options_removed",
        "items_removed",
        "rounds",
        "seconds",
        "forced",
        "complete",
        "skipped",
    )

    def __init__(self) -> None:
        self.options_removed = 0
        self.items_removed = 0
        self.rounds = 0
        self.seconds = 0.0
        self.forced: tuple[int, ...] = ()
        self.complete = True
        self.skipped: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dictionary (``forced`` as a list)."""
        found = {name: getattr(self, name) for name in self._FIELDS}
        found["forced"] = list(self.forced)
        return found

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
        return f"PreprocessStats({fields})"


class Preprocessed:
    """The result of :func:`preprocess`: the reduced ``problem``, ``options`` (for each of
    its options, the index of that option in the original problem), ``items`` (the
    original positions of the items kept, in order) and ``stats``."""

    def __init__(
        self,
        problem: ExactCover,
        options: tuple[int, ...],
        items: tuple[int, ...],
        stats: PreprocessStats,
    ) -> None:
        self.problem = problem
        self.options = options
        self.items = items
        self.stats = stats

    def original(self, solution: Iterable[SupportsIndex]) -> list[int]:
        """A solution of the reduced problem as option indices of the original one."""
        options = self.options
        return [options[int(option)] for option in solution]

    def __repr__(self) -> str:
        return f"<Preprocessed: {self.problem!r}, {self.stats!r}>"


def preprocess(problem: ExactCover, *, budget: int = DEFAULT_BUDGET) -> Preprocessed:
    """A problem with the same solutions as ``problem``, smaller where the rules of this
    module find options or items to remove, with the map of its options back to
    ``problem``'s (see :class:`Preprocessed`). ``budget`` bounds the work (see the
    module's description)."""
    started = time.perf_counter()
    stats = PreprocessStats()
    data = problem.engine_input()
    n_options = len(data.option_start) - 1
    n_items = data.n_primary + data.n_secondary
    if any(lo != 1 for lo in data.lo) or any(hi != 1 for hi in data.hi):
        stats.skipped = "multiplicities"
        return _identity(problem, n_options, n_items, stats, started)
    if n_options == 0 or data.n_primary == 0:
        return _identity(problem, n_options, n_items, stats, started)

    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    node_item = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    node_color = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
    node_option = np.repeat(np.arange(n_options), np.diff(starts))
    matrices = _Matrices(data.n_primary, n_options, n_items, node_option, node_item, node_color)

    alive = np.arange(n_options)
    spent = 0
    while True:
        cost = matrices.cost(len(alive))
        if spent + cost > budget:
            stats.complete = False
            break
        spent += cost
        stats.rounds += 1
        blocked = matrices.blocked(alive)
        if not blocked.any():
            break
        alive = alive[~blocked]
        if len(alive) == 0:
            break

    kept_items = matrices.kept_items(alive)
    stats.forced = matrices.forced(alive, kept_items)
    stats.options_removed = n_options - len(alive)
    stats.items_removed = n_items - len(kept_items)
    reduced = _build(problem, alive, kept_items, starts, node_item, node_color)
    stats.seconds = time.perf_counter() - started
    return Preprocessed(reduced, tuple(alive.tolist()), tuple(kept_items.tolist()), stats)


def _identity(
    problem: ExactCover, n_options: int, n_items: int, stats: PreprocessStats, started: float
) -> Preprocessed:
    """``problem`` itself, nothing removed."""
    stats.seconds = time.perf_counter() - started
    return Preprocessed(problem, tuple(range(n_options)), tuple(range(n_items)), stats)


class _Matrices:
    """The options as dense 0/1 matrices (one row per option): ``primary`` (a column per
    primary item), ``secondary`` (a column per secondary item) and ``colored`` (a column
    per secondary item and color), in float32, whose products count shared items exactly
    (they are far below 2**24)."""

    def __init__(
        self,
        n_primary: int,
        n_options: int,
        n_items: int,
        node_option: npt.NDArray[np.int64],
        node_item: npt.NDArray[np.int64],
        node_color: npt.NDArray[np.int64],
    ) -> None:
        self.n_primary = n_primary
        on_primary = node_item < n_primary
        self.primary = np.zeros((n_options, n_primary), dtype=np.float32)
        self.primary[node_option[on_primary], node_item[on_primary]] = 1
        n_secondary = n_items - n_primary
        self.secondary = np.zeros((n_options, n_secondary), dtype=np.float32)
        on_secondary = ~on_primary
        self.secondary[node_option[on_secondary], node_item[on_secondary] - n_primary] = 1
        #: the color of each secondary item in each option: -1 absent, 0 uncolored
        self.color = np.full((n_options, n_secondary), -1, dtype=np.int64)
        self.color[node_option[on_secondary], node_item[on_secondary] - n_primary] = node_color[
            on_secondary
        ]
        colored = on_secondary & (node_color > 0)
        pairs, column = np.unique(
            np.stack([node_item[colored], node_color[colored]]), axis=1, return_inverse=True
        )
        self.colored = np.zeros((n_options, pairs.shape[1]), dtype=np.float32)
        self.colored[node_option[colored], column.reshape(-1)] = 1

    def cost(self, n: int) -> int:
        """The multiply-adds of one round over ``n`` options."""
        width = 2 * self.primary.shape[1] + self.secondary.shape[1] + self.colored.shape[1]
        return n * n * width

    def blocked(self, alive: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Which of the ``alive`` options leave some primary item without a compatible
        option among the ``alive`` ones."""
        primary = self.primary[alive]
        secondary = self.secondary[alive]
        colored = self.colored[alive]
        lengths = primary.sum(axis=0)
        n = len(alive)
        block = max(1, _BLOCK_BYTES // (4 * max(n, 1)))
        result = np.zeros(n, dtype=bool)
        for first in range(0, n, block):
            rows = slice(first, first + block)
            conflict = primary[rows] @ primary.T > 0
            if secondary.shape[1]:
                shared = secondary[rows] @ secondary.T
                if colored.shape[1]:
                    shared -= colored[rows] @ colored.T
                conflict |= shared > 0
            killed = conflict.astype(np.float32) @ primary
            emptied = (killed == lengths) & (primary[rows] == 0)
            result[rows] = emptied.any(axis=1)
        return result

    def kept_items(self, alive: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The positions of the items to keep once ``alive`` is the fixpoint: the first
        primary item of each set of twins, and the secondary items that can still make
        two options incompatible, the first of each set of twins."""
        if len(alive) == 0:  # one primary item without options says "no solution"
            return np.zeros(1, dtype=np.int64)
        primary = self.primary[alive] > 0
        _, first = np.unique(primary.T, axis=0, return_index=True)
        keep_primary = np.sort(first)
        color = self.color[alive]
        present = color >= 0
        uses = present.sum(axis=0)
        colors_of = np.where(present, color, -1)
        lowest = np.where(present, color, np.iinfo(np.int64).max).min(axis=0)
        one_color = (colors_of.max(axis=0) == lowest) & (lowest > 0)
        within = present.T.astype(np.float32) @ primary.astype(np.float32)
        in_one_primary = (within == uses[:, None]).any(axis=1) if primary.shape[1] else False
        needed = np.flatnonzero(~((uses <= 1) | one_color | in_one_primary))
        if len(needed):
            _, first = np.unique(color[:, needed].T, axis=0, return_index=True)
            needed = needed[np.sort(first)]
        kept: npt.NDArray[np.int64] = np.concatenate([keep_primary, needed + self.n_primary])
        return kept.astype(np.int64)

    def forced(self, alive: npt.NDArray[np.int64], kept: npt.NDArray[np.int64]) -> tuple[int, ...]:
        """The original indices of the options that are the only option of a kept
        primary item."""
        primary = self.primary[alive][:, kept[kept < self.n_primary]]
        single = primary[:, primary.sum(axis=0) == 1]
        rows = np.flatnonzero(single.any(axis=1))
        return tuple(alive[rows].tolist())


def _build(
    problem: ExactCover,
    alive: npt.NDArray[np.int64],
    kept: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    node_item: npt.NDArray[np.int64],
    node_color: npt.NDArray[np.int64],
) -> ExactCover:
    """The problem of the ``alive`` options over the ``kept`` items, names and colors as
    in ``problem``."""
    names = problem.items
    n_primary = problem.n_primary
    primary_kept = kept[kept < n_primary]
    secondary_kept = kept[kept >= n_primary]
    reduced = type(problem)(
        [names[i] for i in primary_kept.tolist()], [names[i] for i in secondary_kept.tolist()]
    )
    position = np.full(len(names), -1, dtype=np.int64)
    position[kept] = np.arange(len(kept))
    lengths = np.diff(starts)[alive]
    nodes = np.repeat(starts[alive], lengths) + (
        np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    )
    new_items = position[node_item[nodes]]
    wanted = new_items >= 0
    owner = np.repeat(np.arange(len(alive)), lengths)[wanted]
    new_starts = np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=len(alive)))])
    reduced.add_options(
        new_starts, new_items[wanted], node_color[nodes][wanted], problem.color_names
    )
    return reduced
