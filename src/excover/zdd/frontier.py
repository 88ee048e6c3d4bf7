"""Counting by DXZ's states, layer by layer and on several threads (see
:mod:`excover.zdd._frontier`).

This is how ``count(method="zdd")`` counts the problems it suits: only primary items, no
colors or multiplicities, and options spanning fewer than 64 items in the problem's item
order (tilings with cells in reading order: a row and a bit). It walks the same states
as DXZ's memo, forward, keeping only the 64 layers ahead instead of the whole memo and
building no ZDD, and it shares each layer among threads: ``workers=2`` is how a domino
count runs on two cores. Other problems, and counts beyond 128 bits, give None: the
caller counts on the DXZ family instead.
"""

from __future__ import annotations

import os
from array import array
from typing import TYPE_CHECKING

from excover.errors import ResourceLimitError

# Threads waiting at a layer's barrier sleep rather than spin: a spinning thread takes the
# core that the thread it waits for, or another process, needs (on a busy 2-core machine
# two spinning workers made a 0.24 s count take 5 s). The OpenMP runtime reads this when
# it loads, with the module below; a policy the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from excover.zdd import _frontier

if TYPE_CHECKING:
    from collections.abc import Callable

    from excover.problem import ExactCover

__all__ = ["count", "suits"]

#: The widest option span the 64-bit state window holds.
MAX_SPAN = 63


def _layout(problem: ExactCover) -> tuple[array[int], array[int]] | None:
    """Each item's options as bit masks from the item (options grouped by their first
    item), or None when the problem does not suit the frontier count."""
    data = problem.engine_input()
    if data.n_secondary or any(data.node_color):
        return None
    if any(lo != 1 for lo in data.lo) or any(hi != 1 for hi in data.hi):
        return None
    start, items = data.option_start, data.node_item
    by_item: list[list[int]] = [[] for _ in range(data.n_primary)]
    for option in range(problem.n_options):
        members = items[start[option] : start[option + 1]]
        first = min(members)
        if max(members) - first >= MAX_SPAN:
            return None
        mask = 0
        for item in members:
            mask |= 1 << (item - first)
        by_item[first].append(mask)
    starts = array("q", [0])
    masks = array("Q")
    for options in by_item:
        masks.extend(options)
        starts.append(len(masks))
    return starts, masks


def suits(problem: ExactCover) -> bool:
    """Whether :func:`count` can count ``problem``."""
    return _layout(problem) is not None


def count(
    problem: ExactCover, workers: int = 1, tick: Callable[[int, int, int], None] | None = None
) -> int | None:
    """The number of solutions counted on ``workers`` threads, or None when the problem
    does not suit this count or the count passes 128 bits. ``tick`` is called after each
    layer (one per primary item) with the layers done, their number and the states of the
    layer just done (for a progress bar)."""
    layout = _layout(problem)
    if layout is None:
        return None
    starts, masks = layout
    n_items = problem.engine_input().n_primary
    try:
        layer = None if tick is None else (lambda done, states: tick(done, n_items, states))
        return _frontier.count(n_items, memoryview(starts), memoryview(masks), workers, layer)
    except ResourceLimitError:
        raise
    except MemoryError as error:  # the compiled count's tables could not grow
        raise ResourceLimitError(f"out of memory: {error}") from None
