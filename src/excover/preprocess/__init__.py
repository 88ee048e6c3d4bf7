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
which is still exact: every removal made was proven. The rules on items then take one
pass over the incidences left, compiled as well (:mod:`excover.preprocess._items`): no
numpy, whose import would cost a fresh process more than most preprocessing does.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Generic, TypeVar

from excover.errors import UsageError
from excover.problem import Problem
from excover.records import Record

if TYPE_CHECKING:  # the model imports typing already: these cost nothing more
    from collections.abc import Iterable
    from typing import Any, SupportsIndex

__all__ = ["DEFAULT_BUDGET", "PreprocessStats", "Preprocessed", "preprocess"]

#: The default bound on the work of :func:`preprocess`, in mems (incidences looked at):
#: about half a second.
DEFAULT_BUDGET = 10**9


class PreprocessStats(Record):
    """What :func:`preprocess` did: options and items removed, rounds of the fixpoint of
    blocked options, its time in seconds, the forced options (indices in the original
    problem), ``complete`` (false when the budget stopped the rounds early) and
    ``skipped`` (why nothing was tried, or None)."""

    options_removed: int = 0
    items_removed: int = 0
    rounds: int = 0
    seconds: float = 0.0
    forced: tuple[int, ...] = ()
    complete: bool = True
    skipped: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dictionary (``forced`` as a list)."""
        found = {name: getattr(self, name) for name in self._fields}
        found["forced"] = list(self.forced)
        return found


#: A problem of any class: the reduced problem is of the original's (Problem.derive).
P = TypeVar("P", bound=Problem)


class Preprocessed(Record, Generic[P]):
    """The result of :func:`preprocess`: the reduced ``problem``, ``options`` (for each of
    its options, the index of that option in the original problem), ``items`` (the
    original positions of the items kept, in order) and ``stats``."""

    problem: P
    options: tuple[int, ...]
    items: tuple[int, ...]
    stats: PreprocessStats

    def original(self, solution: Iterable[SupportsIndex]) -> list[int]:
        """A solution of the reduced problem as option indices of the original one."""
        options = self.options
        return [options[int(option)] for option in solution]

    def __repr__(self) -> str:
        return f"<Preprocessed: {self.problem!r}, {self.stats!r}>"


def preprocess(problem: P, *, budget: int = DEFAULT_BUDGET) -> Preprocessed[P]:
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
    from excover.preprocess._items import reduce_items

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
    names, color_names = problem.items, problem.color_names
    alive, kept, forced, starts, items, colors, palette = reduce_items(
        data.n_primary,
        n_items,
        len(color_names),
        data.option_start,
        data.node_item,
        data.node_color,
        live,
    )
    stats.forced = tuple(forced)
    stats.options_removed = n_options - len(alive)
    stats.items_removed = n_items - len(kept)
    primary = [names[item] for item in kept if item < data.n_primary]
    secondary = [names[item] for item in kept if item >= data.n_primary]
    reduced = problem.derive(primary, secondary)
    used = [color_names[color - 1] for color in palette]  # renumbered by first use
    reduced._adopt_checked_options(starts, items, colors, used)
    stats.seconds = time.perf_counter() - started
    return Preprocessed(reduced, tuple(alive), tuple(kept), stats)


def _identity(
    problem: P, n_options: int, n_items: int, stats: PreprocessStats, started: float
) -> Preprocessed[P]:
    """``problem`` itself, nothing removed."""
    stats.seconds = time.perf_counter() - started
    return Preprocessed(problem, tuple(range(n_options)), tuple(range(n_items)), stats)
