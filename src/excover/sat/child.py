"""A PySAT solver that cannot stop on its own (Kissat), run in a child process.

Kissat, through PySAT, has neither a conflict budget that can be resumed nor an
interrupt: once started, a call runs until it has an answer. Run in this process it could
honour neither ``timeout`` nor Ctrl-C. :class:`ChildSolver` runs each call in a child
process instead, which the parent kills at the deadline or on Ctrl-C: the parent only
waits, so the run still uses one core.

The child is forked where the platform allows it (it inherits the clauses without copying
them through a pipe) and spawned elsewhere. Kissat is not incremental, so every call
starts a fresh solver on the formula and the clauses added since: a call after an
interrupted one starts over.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext, SpawnContext

from excover.errors import SolverError
from excover.sat.pool import Clause

__all__ = ["ChildSolver", "OutOfTime"]


class OutOfTime(Exception):
    """The deadline passed before the child solver answered (it was killed)."""


class ChildSolver:
    """The PySAT solver ``name`` on ``clauses``, each :meth:`solve` in a child process."""

    def __init__(self, name: str, clauses: list[Clause]) -> None:
        self.name = name
        self.clauses = clauses
        self.added: list[Clause] = []

    def solve(self, deadline: float | None) -> list[int] | None:
        """A model, or None when the formula is unsatisfiable; raises :class:`OutOfTime`
        once ``time.monotonic()`` passes ``deadline``, and KeyboardInterrupt on Ctrl-C,
        having killed the child either way."""
        context = _context()
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(
            target=_solve,
            args=(self.name, self.clauses, self.added, sender),
            daemon=True,
        )
        child.start()
        sender.close()
        try:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not receiver.poll(timeout):
                raise OutOfTime
            try:
                answer: tuple[str, list[int] | None] = receiver.recv()
            except EOFError:
                child.join()
                raise SolverError(
                    f"the {self.name} process ended without an answer (exit code {child.exitcode})"
                ) from None
        finally:
            receiver.close()
            if child.is_alive():
                child.kill()
            child.join()
        kind, model = answer
        if kind == "error":
            raise SolverError(f"{self.name} failed: {model}")
        return model

    def add_clause(self, clause: Clause) -> None:
        """Add a clause for the next call."""
        self.added.append(clause)

    def close(self) -> None:
        """Nothing to release: each call's solver lives and dies in its child."""


def _context() -> ForkContext | SpawnContext:
    """``fork`` where it exists and no other thread runs (forking a threaded process can
    leave a lock held in the child), ``spawn`` otherwise."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _solve(name: str, clauses: list[Clause], added: list[Clause], sender: Connection) -> None:
    """In the child: solve and send ``("sat", model)``, ``("unsat", None)`` or
    ``("error", message)``. Ctrl-C is left to the parent, which kills the child."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from pysat.solvers import Solver

    try:
        with Solver(name=name, bootstrap_with=clauses) as solver:
            for clause in added:
                solver.add_clause(clause)
            if solver.solve():
                model = solver.get_model()
                sender.send(("sat", list(model) if model is not None else []))
            else:
                sender.send(("unsat", None))
    except Exception as error:  # reported to the parent, which raises SolverError
        sender.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        sender.close()
