"""The two entry points of :mod:`excover.burr`: one assembly taken apart, or every
assembly of a problem."""

from __future__ import annotations

import time
from collections.abc import Iterator

from excover.burr._moves import AXES, Geometry
from excover.burr.assembly import Assembly, assemblies
from excover.burr.disassembly import Disassembly
from excover.burr.search import BatchDisassembler, Disassembler, DisassemblyBudget, default_memory
from excover.burr.xmpuzzle import BurrPuzzle

__all__ = ["disassemble", "disassemble_all"]


def disassemble(
    assembly: Assembly,
    *,
    complete: bool = True,
    timeout: float | None = None,
    max_states: int | None = None,
    min_total: bool = False,
    max_memory: int | None = None,
) -> Disassembly:
    """Take ``assembly`` apart.

    ``complete`` (the default) tries every separation before calling the assembly stuck;
    False stops at the first one of each part, as BurrTools does. ``min_total`` finds
    the disassembly with the fewest moves in all, rather than the fewest moves to each
    separation in turn (its level may then start with a larger number). ``timeout``
    (seconds), ``max_states`` (configurations explored, over every search of the
    assembly) and ``max_memory`` (bytes of the searches' tables; None: half of the
    machine's memory, :func:`~excover.burr.search.default_memory`; 0: no bound) bound
    the work: past any, the status is ``"unknown"``, never ``"stuck"``. Ctrl-C raises
    KeyboardInterrupt within a few milliseconds, whatever the search is doing.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    bound = default_memory() if max_memory is None else max_memory
    budget = DisassemblyBudget(deadline, max_states, max_memory=bound)
    return Disassembler(assembly, budget, complete, min_total=min_total).run()


def disassemble_all(
    puzzle: BurrPuzzle,
    problem: int = 0,
    *,
    complete: bool = True,
    deadline: float | None = None,
    max_states: int | None = None,
    min_total: bool = False,
    max_memory: int | None = None,
) -> Iterator[Disassembly]:
    """The disassembly of every assembly of ``problem`` (from 0, as ``burrTxt -o``), in
    the order they are found, the pieces' movement tables shared between them.

    ``deadline`` (a ``time.monotonic()`` value) bounds the whole run: the assembly it
    interrupts is ``"unknown"`` and is the last one yielded; when it passes while the
    next assembly is being looked for, :class:`~excover.LimitReached` (reason
    ``"timeout"``). ``max_states`` bounds each
    assembly's search (past it that assembly is ``"unknown"`` and the next one follows),
    and ``max_memory`` the bytes of its tables (as :func:`disassemble` takes it).
    """
    bound = default_memory() if max_memory is None else max_memory
    # off the grids it knows, a Disassembler says why not at the first assembly
    runner = (
        BatchDisassembler(Geometry(puzzle.grid), complete, min_total)
        if puzzle.grid in AXES
        else None
    )
    for assembly in assemblies(puzzle, problem, deadline):
        budget = DisassemblyBudget(deadline, max_states, max_memory=bound)
        if runner is None:
            result = Disassembler(assembly, budget, complete, None, min_total).run()
        else:
            result = runner.run(assembly, budget)
        yield result
        if deadline is not None and time.monotonic() > deadline:
            return
