"""Cutting the subproblems of a run where the work turns out to be: one mechanism for the
runs on this machine (:mod:`excover.parallel.local`) and on a Dask cluster
(:mod:`excover.parallel.cluster`).

A split's estimates (a few random probes a subtree) can miss a subtree many times the
size of the others: pento6x10 cut in 12 leaves one of 60% of the search, the 8x8 square
with the twelve pentominoes and the 2x2 square cut in 6 one of 83%. Handed out first,
such a task runs on alone while the other workers wait, a progress bar learns nothing
until it ends, and a stop keeps none of it. So a run cuts it where it runs: the
subproblem whose task has run longest (:func:`longest`) is cut into parts
(:func:`cut`: :func:`~excover.parallel.subproblems.split_further`, nodes of the same
search tree), the cut recorded in the run's checkpoint or ledger
(:meth:`Checkpoint.cut <excover.parallel.checkpoint.Checkpoint.cut>`, which keeps
every part of the search counted once whichever finishes first), its task asked to
stop and the parts handed out. The task's work is counted again by the parts (a
search is not handed over branch by branch), so a cut costs at most the time that
task had run.

A new ledger of a cluster is also evened out before any task (:func:`even_out`), by
fresh probes, which costs a few probes a subproblem where a network round trip costs
more than on this machine.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping

from excover.parallel.checkpoint import Checkpoint
from excover.parallel.subproblems import Subproblem, resized, split_further
from excover.problem import Problem

__all__ = ["BIG_SHARE", "EVEN_ROUNDS", "PARTS_PER_SLOT", "cut", "even_out", "longest"]

#: Parts made per worker when a long task is cut.
PARTS_PER_SLOT = 3

#: A new ledger's subproblems are cut until none is estimated above 1 / (this times the
#: worker threads) of the search (:func:`even_out`).
BIG_SHARE = 4

#: Rounds of :func:`even_out` at most.
EVEN_ROUNDS = 3


def longest(
    started: Mapping[int, float],
    ledger: Checkpoint,
    uncuttable: Collection[int],
    now: float,
    after: float,
) -> int | None:
    """The subproblem to cut among those whose tasks run (``started``: the instant each
    began): the one that has run longest, if it has run at least ``after`` seconds and
    is neither cut already, nor settled, nor found ``uncuttable``; None when there is no
    such task."""
    candidates = [
        index
        for index, began in started.items()
        if now - began >= after
        and index not in uncuttable
        and index not in ledger.split
        and not ledger.settled(index)
    ]
    return min(candidates, key=started.__getitem__, default=None)


def cut(
    problem: Problem,
    ledger: Checkpoint,
    index: int,
    parts: int,
    *,
    resize: bool = True,
    deadline: float | None = None,
) -> list[int] | None:
    """Cut subproblem ``index`` of ``ledger`` into about ``parts`` parts, recorded in
    ``ledger``; their indices, biggest estimate first, or None when it cannot be cut (a
    solution, or a chain of single branches down to one). ``resize``: the parts' sizes
    estimated afresh (:func:`~excover.parallel.subproblems.resized`: the weights of
    their share of a bar, as a cluster's ledger has them); else the split's own,
    scaled to add up to the size of the subproblem they come from (no probes more: what
    a run on this machine, which cuts within a second, can afford). Past ``deadline``
    (a ``time.monotonic()`` value): :class:`~excover.LimitReached`."""
    whole = ledger.subproblems[index]
    found = split_further(problem, whole, parts, deadline=deadline)
    if len(found) < 2:
        return None
    found = resized(problem, found, deadline=deadline) if resize else _scaled(found, whole.size)
    made = ledger.cut(index, found)
    return sorted(made, key=lambda part: -ledger.subproblems[part].size)


def _scaled(parts: list[Subproblem], size: float) -> list[Subproblem]:
    """``parts`` with their sizes scaled to add up to ``size`` (as they are, when
    either sum is not a positive finite number)."""
    from dataclasses import replace

    total = sum(part.size for part in parts)
    if not (0 < total < math.inf and 0 < size < math.inf):
        return parts
    return [replace(part, size=part.size * size / total) for part in parts]


def even_out(
    problem: Problem,
    subproblems: list[Subproblem],
    threads: int,
    deadline: float | None = None,
) -> list[Subproblem]:
    """``subproblems`` (with fresh sizes, :func:`resized`), each one estimated above
    1 / (:data:`BIG_SHARE` x ``threads``) of the search replaced by its parts
    (:func:`split_further`, :data:`PARTS_PER_SLOT` per thread, sizes estimated afresh),
    for :data:`EVEN_ROUNDS` rounds at most. The split's own estimates, a few probes each,
    can miss a subtree ten times the size of the others; one such task, handed out first,
    runs on one worker to the end while the others wait for it to be cut (and the work
    it did then is thrown away); cut now, it costs nothing but a few probes. Past
    ``deadline``: :class:`~excover.LimitReached`."""
    for _ in range(EVEN_ROUNDS):
        limit = sum(sub.size for sub in subproblems) / (BIG_SHARE * threads)
        evened: list[Subproblem] = []
        for sub in subproblems:
            parts = [sub]
            if sub.size > limit:
                parts = split_further(problem, sub, PARTS_PER_SLOT * threads, deadline=deadline)
                parts = resized(problem, parts, deadline=deadline) if len(parts) > 1 else [sub]
            evened.extend(parts)
        if len(evened) == len(subproblems):
            break
        subproblems = sorted(evened, key=lambda sub: sub.path)
    return subproblems
