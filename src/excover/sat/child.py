"""A PySAT solver that cannot stop on its own (Kissat), run in a child process.

Kissat, through PySAT, has neither a conflict budget that can be resumed nor an
interrupt: once started, a call runs until it has an answer. Run in this process it could
honour neither ``timeout`` nor Ctrl-C. Here each call runs in a child process instead:

* :class:`ChildRun` is one call that runs only while the parent waits for it
  (:meth:`~ChildRun.advance`): between two waits the child is stopped (``SIGSTOP``), so
  that the parent can give its core to other work and resume the call later where it
  left off; the child is killed by :meth:`~ChildRun.close`, at the latest when the
  parent exits. (Where the platform cannot stop a process, the child runs on meanwhile.)
* :class:`ChildSolver` is a back end of :mod:`excover.sat.solve`: every ``solve`` is a
  run waited for until its answer or the deadline.

The child is forked where the platform allows it (it inherits the clauses without copying
them through a pipe) and spawned elsewhere. Kissat is not incremental, so every call
starts a fresh solver on the formula and the clauses added since.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext, SpawnContext
from multiprocessing.process import BaseProcess

from excover.errors import SolverError
from excover.sat.pool import Clause

__all__ = ["ChildRun", "ChildSolver", "OutOfTime"]

#: Whether a child can be stopped and continued (POSIX).
CAN_PAUSE = hasattr(signal, "SIGSTOP") and hasattr(signal, "SIGCONT")


#: What a child says once it will die with its parent; seconds it may take to say so.
_READY = "ready"
_READY_WAIT = 60.0


class OutOfTime(Exception):
    """The deadline passed before the child solver answered (it was killed)."""


class ChildRun:
    """One call of the PySAT solver ``name`` on ``clauses``, in a child process that runs
    only inside :meth:`advance`."""

    def __init__(self, name: str, clauses: list[Clause]) -> None:
        self.name = name
        context = _context()
        self.receiver, sender = context.Pipe(duplex=False)
        self.child = context.Process(
            target=_solve, args=(name, clauses, sender, os.getpid()), daemon=True
        )
        self.child.start()
        sender.close()
        # A stopped child would ignore the SIGTERM with which multiprocessing ends its
        # children at exit: kill it first, whatever happens to this object.
        self._finalizer = weakref.finalize(self, _kill, self.child, self.receiver)
        # paused only once it is sure to die with this process (see _die_with)
        if not self.receiver.poll(_READY_WAIT) or self.receiver.recv() != _READY:
            self.close()
            raise SolverError(f"the {name} process did not start")
        self._pause()

    def advance(self, until: float | None) -> bool:
        """Let the child run until it answers (True) or ``time.monotonic()`` reaches
        ``until`` (False; None: no limit); KeyboardInterrupt on Ctrl-C."""
        self._resume()
        timeout = None if until is None else max(0.0, until - time.monotonic())
        ready = self.receiver.poll(timeout)
        if not ready:
            self._pause()
        return ready

    def answer(self) -> list[int] | None:
        """The model, or None when the formula is unsatisfiable (after :meth:`advance`
        returned True); the child is then done."""
        try:
            kind, model = self.receiver.recv()
        except EOFError:
            self.child.join()
            raise SolverError(
                f"the {self.name} process ended without an answer (exit code {self.child.exitcode})"
            ) from None
        finally:
            self.close()
        if kind == "error":
            raise SolverError(f"{self.name} failed: {model}")
        model_or_none: list[int] | None = model
        return model_or_none

    def close(self) -> None:
        """Kill the child (if it still runs) and release the pipe."""
        self._finalizer()

    def _pause(self) -> None:
        if CAN_PAUSE and self.child.pid is not None:
            _signal_quietly(self.child.pid, signal.SIGSTOP)

    def _resume(self) -> None:
        if CAN_PAUSE and self.child.pid is not None:
            _signal_quietly(self.child.pid, signal.SIGCONT)


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
        run = ChildRun(self.name, self.clauses + self.added)
        try:
            if not run.advance(deadline):
                raise OutOfTime
            return run.answer()
        finally:
            run.close()

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


def _signal_quietly(pid: int, signum: int) -> None:
    """Send ``signum`` to ``pid``, which may have ended already."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)


def _kill(child: BaseProcess, receiver: Connection) -> None:
    """End ``child`` for good (SIGKILL reaches a stopped process too) and close the pipe."""
    if child.is_alive():
        child.kill()
    child.join()
    receiver.close()


def _die_with(parent: int) -> None:
    """In the child, on Linux: be killed when the process ``parent`` ends, however it
    ends. A parent killed by a signal (``kill``'s SIGTERM, say) runs no finalizer, and
    its child, stopped between two slices, would otherwise stay behind for good."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    set_death_signal = 1  # prctl's PR_SET_PDEATHSIG
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(set_death_signal, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent ended before the call
        os._exit(1)


def _solve(name: str, clauses: list[Clause], sender: Connection, parent: int) -> None:
    """In the child: solve and send ``("sat", model)``, ``("unsat", None)`` or
    ``("error", message)``. Ctrl-C is left to the parent, which kills the child, as
    does the parent's end (:func:`_die_with`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    sender.send(_READY)
    from pysat.solvers import Solver

    try:
        with Solver(name=name, bootstrap_with=clauses) as solver:
            if solver.solve():
                model = solver.get_model()
                sender.send(("sat", list(model) if model is not None else []))
            else:
                sender.send(("unsat", None))
    except Exception as error:  # reported to the parent, which raises SolverError
        sender.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        sender.close()
