"""Many assemblies disassembled on worker processes.

:func:`disassemble_many` takes a list of assemblies apart on ``workers`` processes
(:func:`excover.parallel.workers.new_pool`: they die with this process, and are stopped at
once when the run ends early), a few assemblies to a task, and yields each result with
the assembly's index as it comes. Each assembly is disassembled alone, by the same
search as :func:`~excover.burr.disassemble`, so a result never depends on the number of
workers or on the order the tasks finish in; only the pieces' movement tables, kept by
each worker, are shared between assemblies. ``workers=1`` runs in this process, in
order. The workers ignore Ctrl-C: the process that started them stops them.

On a Dask cluster (``executor=`` a distributed ``Client``, ``excover disassemble --dask
ADDRESS``) the same tasks go to the cluster's workers, which need excover installed: a
worker lost mid-task costs time, as Dask runs its task again elsewhere, never a result.

The deadline travels to the workers as a wall-clock time (``time.time()``), each worker
turning it back into its own ``time.monotonic()``: an assembly a worker is taking apart
when it passes is ``"unknown"`` (``reason`` ``"out of time"``), and the assemblies not
started by then are not yielded (the tasks then end at once). The bound on memory
(``max_memory``, by default :func:`~excover.burr.search.default_memory`) is shared out
between the processes: each worker's tables hold at most its share, so that together
they hold at most the bound; an assembly past it is ``"unknown"`` too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Container, Generator, Iterable, Iterator
from itertools import chain, islice
from typing import NamedTuple

from excover.burr._moves import AXES, Geometry
from excover.burr.assembly import Assembly
from excover.burr.disassembly import (
    Disassembly,
    PackedSeparationTree,
    Separation,
    Status,
    held_tree,
)
from excover.burr.search import BatchDisassembler, Disassembler, DisassemblyBudget, default_memory

__all__ = ["TICK", "Settings", "disassemble_many"]

#: Seconds between two looks at the workers while waiting (Ctrl-C is taken then).
TICK = 0.2

#: The most assemblies sent to a worker in one task.
BATCH = 16

#: The tasks sent ahead for each worker (the others wait to be listed).
AHEAD = 4

#: ``(complete, max_states, min_total)``: how each assembly is disassembled.
Settings = tuple[bool, int | None, bool]


class _Found(NamedTuple):
    """A disassembly as a worker sends it back: without its assembly, which the
    process that asked has (the fields of :class:`Disassembly` after it, in order; the
    tree as the disassembly holds it, a compact :class:`PackedSeparationTree` until read)."""

    status: Status
    tree: Separation | PackedSeparationTree | None
    beyond_greedy: bool
    states_explored: int
    reason: str
    groups: tuple[tuple[int, ...], ...]


#: The movement tables of each grid, kept by a worker process between its tasks.
_GEOMETRIES: dict[int, Geometry] = {}
#: The runners of each grid and mode (``(grid, complete, min_total)``), kept likewise,
#: one set a thread (a runner's buffers serve one assembly at a time, and an executor's
#: tasks may run on threads): they share the grid's tables and keep the search's buffers.
_RUNNERS = threading.local()


def _one(
    assembly: Assembly, settings: Settings, deadline: float | None, max_memory: int
) -> Disassembly:
    """One assembly taken apart (``deadline``: a ``time.monotonic()`` value;
    ``max_memory``: the bytes its tables may hold, 0 for no bound)."""
    complete, max_states, min_total = settings
    budget = DisassemblyBudget(deadline, max_states, max_memory=max_memory)
    if assembly.grid not in AXES:  # Disassembler says why not
        return Disassembler(assembly, budget, complete, None, min_total).run()
    key = (assembly.grid, complete, min_total)
    runners: dict[tuple[int, bool, bool], BatchDisassembler] | None = getattr(
        _RUNNERS, "kept", None
    )
    if runners is None:
        runners = _RUNNERS.kept = {}
    runner = runners.get(key)
    if runner is None:
        geometry = _GEOMETRIES.get(assembly.grid)
        if geometry is None:
            geometry = _GEOMETRIES[assembly.grid] = Geometry(assembly.grid)
        runner = runners[key] = BatchDisassembler(geometry, complete, min_total)
    return runner.run(assembly, budget)


def _batch(
    batch: list[tuple[int, Assembly]],
    settings: Settings,
    wall_deadline: float | None,
    max_memory: int,
) -> list[tuple[int, _Found]]:
    """A worker's task: the assemblies of ``batch`` in turn, until the deadline (a
    ``time.time()`` value) passes, each within ``max_memory`` bytes of tables."""
    deadline = None
    if wall_deadline is not None:
        deadline = time.monotonic() + wall_deadline - time.time()
    found = []
    for index, assembly in batch:
        if deadline is not None and time.monotonic() > deadline:
            break
        result = _one(assembly, settings, deadline, max_memory)
        fields = (getattr(result, name) for name in _Found._fields[2:])
        found.append((index, _Found(result.status, held_tree(result), *fields)))
    return found


def disassemble_many(
    assemblies: Iterable[Assembly],
    settings: Settings = (True, None, False),
    *,
    workers: int = 1,
    deadline: float | None = None,
    skip: Container[int] = (),
    executor: object | None = None,
    max_memory: int | None = None,
) -> Generator[tuple[int, Disassembly]]:
    """``(index, disassembly)`` for each of ``assemblies`` whose index is not in
    ``skip``, as they finish (see the module's notes). ``assemblies`` are read as the
    work goes (a generator of assemblies as they are found streams through, a few
    tasks ahead of the workers), so that none is held once taken apart. ``deadline`` is
    a ``time.monotonic()`` value; ``settings`` are ``(complete, max_states,
    min_total)``, as :func:`~excover.burr.disassemble` takes them; ``max_memory`` bounds
    the bytes of the searches' tables (None: :func:`~excover.burr.search.default_memory`;
    0: no bound), shared out between the workers. ``executor`` (a Dask distributed
    ``Client`` or a ``concurrent.futures`` executor) runs the tasks instead of a pool of
    ``workers`` processes (then the number of its workers, to size the tasks). Closing
    the iterator early stops the workers at once (an executor's tasks not started are
    cancelled)."""
    todo: Iterator[tuple[int, Assembly]] = (
        (k, a) for k, a in enumerate(assemblies) if k not in skip
    )
    bound = default_memory() if max_memory is None else max_memory
    first = list(islice(todo, 2))
    todo = chain(first, todo)
    if executor is None and (workers == 1 or len(first) < 2):  # no process for one
        for index, assembly in todo:
            yield index, _one(assembly, settings, deadline, bound)
            if deadline is not None and time.monotonic() > deadline:
                return
        return
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    from excover.parallel.run import executor_for
    from excover.parallel.workers import give_up, ignoring_interrupts, new_pool

    share = -(-bound // workers)  # each process's share of the bound (0: none)
    wall = None if deadline is None else time.time() + deadline - time.monotonic()
    own = new_pool(workers) if executor is None else None
    pool = executor_for(executor) if own is None else own
    pending: set[Future[list[tuple[int, _Found]]]] = set()
    held: dict[int, Assembly] = {}  # the assemblies sent, until their results come
    listed = submitted = 0
    more = True
    try:
        while more or pending:
            # keep AHEAD tasks a worker waiting; a task takes one eighth of a worker's
            # share of the assemblies listed so far (at most BATCH), as it would of all
            while more and len(pending) < AHEAD * workers:
                size = max(1, min(BATCH, listed // (8 * workers)))
                batch = list(islice(todo, size))
                if not batch:
                    more = False
                    break
                listed += len(batch)
                held.update(batch)
                if submitted < workers:  # the pool starts a worker a task at first
                    with ignoring_interrupts():  # the workers leave Ctrl-C to this process
                        pending.add(pool.submit(_batch, batch, settings, wall, share))
                else:
                    pending.add(pool.submit(_batch, batch, settings, wall, share))
                submitted += 1
            if not pending:
                break
            finished, pending = wait(pending, timeout=TICK, return_when=FIRST_COMPLETED)
            for future in finished:
                for index, result in future.result():
                    yield index, Disassembly(held.pop(index), *result)
                # a task past the deadline leaves its last assemblies out: none comes back
            if wall is not None and time.time() > wall:
                more = False
    finally:
        give_up(own, pending)
