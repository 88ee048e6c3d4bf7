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

The blocked options are found by a compiled loop (:mod:`excover.preprocess._blocked`)
that tries each option as DLX-PRE does: it marks the options incompatible with it and
counts them item by item, at a cost of the incidences it looks at (*mems*). A blocked
option leaves at once, so the options after it are tried against the smaller problem;
rounds go on until one removes nothing. The ``budget`` bounds the mems; once it is spent
no other option is tried and the problem so far is returned (``stats.complete`` false),
which is still exact: every removal made was proven. The rules on items then take a few
sorts of the incidences left (numpy).
"""

from __future__ import annotations

import time

import numpy as np

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, SupportsIndex

    import numpy.typing as npt

    from excover.problem import ExactCover

__all__ = ["DEFAULT_BUDGET", "PreprocessStats", "Preprocessed", "preprocess"]

#: The default bound on the work of :func:`preprocess`, in mems (incidences looked at):
#: about half a second.
DEFAULT_BUDGET = 10**9


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
    ``problem``'s (see :class:`Preprocessed`). ``budget`` bounds the work, in mems (see
    the module's description)."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise UsageError(f"budget must be a non-negative int (mems), not {budget!r}")
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

    from excover.preprocess._blocked import remove_blocked

    live = bytearray(b"\x01") * n_options
    stats.rounds, _, _, stats.complete = remove_blocked(
        data.n_primary,
        n_items,
        data.option_start,
        data.node_item,
        data.node_color,
        live,
        budget,
    )
    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    node_item = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    node_color = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
    alive = np.flatnonzero(np.frombuffer(live, dtype=np.uint8))
    nodes = _nodes_of(starts, alive)
    uses = _Uses(
        data.n_primary,
        n_items,
        np.repeat(np.arange(len(alive)), np.diff(starts)[alive]),
        node_item[nodes],
        node_color[nodes],
    )
    kept_items = uses.kept_items() if len(alive) else np.zeros(1, dtype=np.int64)
    stats.forced = tuple(alive[uses.forced(kept_items)].tolist()) if len(alive) else ()
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


def _nodes_of(
    starts: npt.NDArray[np.int64], options: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The node numbers of ``options``, option after option."""
    lengths = np.diff(starts)[options]
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    nodes: npt.NDArray[np.int64] = np.repeat(starts[options], lengths) + offsets
    return nodes


class _Uses:
    """The uses of items by the options left (``option`` numbers them from 0), sorted by
    item then option, for the rules on items."""

    def __init__(
        self,
        n_primary: int,
        n_items: int,
        option: npt.NDArray[np.int64],
        item: npt.NDArray[np.int64],
        color: npt.NDArray[np.int64],
    ) -> None:
        order = np.lexsort((option, item))
        self.n_primary = n_primary
        self.n_items = n_items
        self.option = option[order]
        self.item = item[order]
        self.color = color[order]
        self.bounds = np.searchsorted(self.item, np.arange(n_items + 1))

    def options_of(self, item: int) -> npt.NDArray[np.int64]:
        """The options left that use ``item``, in order."""
        return self.option[self.bounds[item] : self.bounds[item + 1]]

    def kept_items(self) -> npt.NDArray[np.int64]:
        """The positions of the items to keep: the first primary item of each set of
        twins (the same options), and the secondary items that can still make two
        options incompatible, the first of each set of twins (the same options with the
        same colors)."""
        n_primary, bounds = self.n_primary, self.bounds
        kept: list[int] = []
        seen: set[bytes] = set()
        for item in range(n_primary):
            key = self.options_of(item).tobytes()
            if key not in seen:
                seen.add(key)
                kept.append(item)
        idle = self._idle_secondary()
        seen.clear()
        for item in range(n_primary, self.n_items):
            if idle[item - n_primary]:
                continue
            where = slice(bounds[item], bounds[item + 1])
            key = self.option[where].tobytes() + b"|" + self.color[where].tobytes()
            if key not in seen:
                seen.add(key)
                kept.append(item)
        return np.array(kept, dtype=np.int64)

    def _idle_secondary(self) -> npt.NDArray[np.bool_]:
        """Which secondary items can make no two options left incompatible: used at most
        once, always with one color, or only by options that share a primary item."""
        n_primary, n_secondary = self.n_primary, self.n_items - self.n_primary
        first = self.bounds[n_primary]
        item = self.item[first:] - n_primary
        color = self.color[first:]
        option = self.option[first:]
        uses = np.bincount(item, minlength=n_secondary)
        big = np.iinfo(np.int64).max
        lowest = np.full(n_secondary, big, dtype=np.int64)
        np.minimum.at(lowest, item, color)
        highest = np.full(n_secondary, -1, dtype=np.int64)
        np.maximum.at(highest, item, color)
        one_color = (lowest == highest) & (lowest > 0)
        # (secondary item, primary item) pairs over the options using both
        by_option = np.argsort(self.option[: self.bounds[n_primary]], kind="stable")
        primary_of = self.item[: self.bounds[n_primary]][by_option]
        owner = self.option[: self.bounds[n_primary]][by_option]
        n_options = int(self.option.max()) + 1 if len(self.option) else 0
        option_first = np.searchsorted(owner, np.arange(n_options + 1))
        per = option_first[option + 1] - option_first[option]
        pair_item = np.repeat(item, per)
        pair_primary = primary_of[_nodes_of(option_first, option)]
        shared = np.zeros(n_secondary, dtype=bool)
        if len(pair_item):
            pairs, counts = np.unique(pair_item * n_primary + pair_primary, return_counts=True)
            full = counts == uses[pairs // n_primary]
            shared[pairs[full] // n_primary] = True
        idle: npt.NDArray[np.bool_] = (uses <= 1) | one_color | shared
        return idle

    def forced(self, kept: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The options (numbered from 0 among those left) that are the only option left
        of a kept primary item, each once, in order."""
        single = [
            int(self.option[self.bounds[item]])
            for item in kept.tolist()
            if item < self.n_primary and self.bounds[item + 1] - self.bounds[item] == 1
        ]
        return np.array(sorted(set(single)), dtype=np.int64)


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
    nodes = _nodes_of(starts, alive)
    new_items = position[node_item[nodes]]
    wanted = new_items >= 0
    owner = np.repeat(np.arange(len(alive)), lengths)[wanted]
    new_starts = np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=len(alive)))])
    reduced.add_options(
        new_starts, new_items[wanted], node_color[nodes][wanted], problem.color_names
    )
    return reduced
