"""Solving an exact cover problem with a SAT solver: first solution, all, or the count.

``solver`` names the back end:

* a solver of python-sat (PySAT) by any of its names: ``"cadical"`` (the default, CaDiCaL
  1.9.5), ``"glucose4"``, ``"minisat22"``, ``"kissat"``, ... PySAT is imported only here,
  when a SAT method is first used;
* ``"ext:COMMAND"``, an external solver run as ``COMMAND FILE.cnf``, which must print the
  usual competition answer (``s SATISFIABLE`` and ``v`` lines of literals ending with 0,
  or ``s UNSATISFIABLE``);
* ``"ganak"`` for :func:`count` only: the exact projected model counter of the optional
  ``pyganak`` package, counting the models of the formula over the option variables.

Solutions are enumerated by *blocking clauses* over the option variables only, so the
auxiliary variables of an encoding never produce the same solution twice. When every
primary item must be covered an exact number of times (``lo == hi``, as in every X and
XCC problem), no solution contains another, and the blocking clause can simply forbid the
chosen options together; otherwise it must pin every option variable to its value.

Every model is decoded and checked against the problem's own definition
(:meth:`~excover.ExactCover.is_solution`) before it is returned: a model that does not
decode into a solution raises :class:`~excover.SolverError`.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from excover.errors import SolverError, UsageError
from excover.problem import ExactCover
from excover.sat.cnf import CNF
from excover.sat.encode import to_cnf
from excover.sat.pool import Clause

if TYPE_CHECKING:
    from pysat.solvers import Solver

__all__ = ["DEFAULT_SOLVER", "checked", "count", "first", "solutions"]

#: The solver used when none is named: CaDiCaL, through PySAT.
DEFAULT_SOLVER = "cadical"

#: Short names of our own for PySAT solvers.
_ALIASES = {"cadical": "cadical195", "glucose": "glucose4", "minisat": "minisat22"}

#: PySAT solvers that cannot take new clauses after solving (rebuilt for every call).
_NOT_INCREMENTAL = {"kissat404"}


class _Backend(Protocol):
    """A solver holding a formula: solve it, add clauses, solve again."""

    def solve(self) -> list[int] | None:
        """A model (signed literals), or None when the formula is unsatisfiable."""

    def add_clause(self, clause: Clause) -> None:
        """Add a clause to the formula."""

    def close(self) -> None:
        """Release the solver."""


class _PySat:
    """A PySAT solver, incremental when the solver allows it."""

    def __init__(self, name: str, clauses: list[Clause]) -> None:
        self.name = name
        self.clauses = clauses
        self.added: list[Clause] = []  # clauses for the next solver built, if not incremental
        self.solver: Solver | None = None

    def solve(self) -> list[int] | None:
        from pysat.solvers import Solver

        if self.solver is None:
            self.solver = Solver(name=self.name, bootstrap_with=self.clauses)
            self.solver.append_formula(self.added)
        if not self.solver.solve():
            return None
        model = self.solver.get_model()
        if self.name in _NOT_INCREMENTAL:
            self.close()
        return list(model) if model is not None else []

    def add_clause(self, clause: Clause) -> None:
        if self.name in _NOT_INCREMENTAL or self.solver is None:
            self.added.append(clause)
        else:
            self.solver.add_clause(clause)

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


class _External:
    """An external solver command, run on a DIMACS file for every call."""

    def __init__(self, command: list[str], cnf: CNF) -> None:
        self.command = command
        self.cnf = CNF(cnf.n_vars, list(cnf.clauses), cnf.n_options, cnf.amo, cnf.problem_text)

    def solve(self) -> list[int] | None:
        with tempfile.TemporaryDirectory(prefix="excover-") as folder:
            path = Path(folder) / "problem.cnf"
            self.cnf.write_dimacs(path)
            try:
                run = subprocess.run(
                    [*self.command, str(path)], capture_output=True, text=True, check=False
                )
            except OSError as error:
                raise UsageError(
                    f"cannot run solver command {shlex.join(self.command)!r}: {error.strerror}"
                ) from None
        return _parse_answer(run.stdout, run.stderr, self.command)

    def add_clause(self, clause: Clause) -> None:
        self.cnf.clauses.append(clause)

    def close(self) -> None:
        pass


def _parse_answer(stdout: str, stderr: str, command: list[str]) -> list[int] | None:
    """The model in a solver's competition-format answer, or None for UNSATISFIABLE."""
    status = None
    model: list[int] = []
    for line in stdout.splitlines():
        if line.startswith("s "):
            status = line[2:].strip()
        elif line.startswith("v "):
            try:
                model += [int(token) for token in line[2:].split()]
            except ValueError:
                raise SolverError(f"bad 'v' line from {command[0]!r}: {line!r}") from None
    if status == "UNSATISFIABLE":
        return None
    if status == "SATISFIABLE":
        return [literal for literal in model if literal != 0]
    detail = (stderr.strip().splitlines() or ["no output on stderr"])[-1]
    raise SolverError(f"solver {command[0]!r} gave no 's SATISFIABLE/UNSATISFIABLE' ({detail})")


def _backend(solver: object, cnf: CNF) -> _Backend:
    """The back end named ``solver`` (see the module documentation), holding ``cnf``."""
    if not isinstance(solver, str):
        raise UsageError(f"a solver is named by a string, not {solver!r}")
    if solver.startswith("ext:"):
        command = shlex.split(solver[4:])
        if not command:
            raise UsageError("'ext:' must be followed by a solver command")
        return _External(command, cnf)
    if solver == "ganak":
        raise UsageError("ganak counts solutions but does not find them; use it with count()")
    return _PySat(_pysat_name(solver), cnf.clauses)


def _pysat_name(solver: str) -> str:
    """The canonical PySAT name of a solver given by any of its names."""
    if importlib.util.find_spec("pysat") is None:
        raise UsageError("method 'sat' needs python-sat: pip install python-sat")
    from pysat.solvers import SolverNames

    solver = _ALIASES.get(solver, solver)
    for canonical, names in vars(SolverNames).items():
        if not canonical.startswith("_") and solver in names:
            return str(canonical)
    known = [name for name in vars(SolverNames) if not name.startswith("_")]
    raise UsageError(
        f"unknown SAT solver {solver!r}; choose 'ext:COMMAND' or one of "
        f"{', '.join([*_ALIASES, *known])}"
    )


def checked(problem: ExactCover, cnf: CNF, model: Iterable[int]) -> list[int]:
    """The solution a model decodes into, after checking it solves ``problem``."""
    solution = cnf.decode(model)
    if not problem.is_solution(solution):
        raise SolverError(f"the solver's model decodes into options {solution}, not a solution")
    return solution


def first(
    problem: ExactCover, solver: str | None = None, amo: str | None = None, **unused: object
) -> list[int] | None:
    """One solution found by the SAT solver, or None when there is none."""
    return next(solutions(problem, solver, amo, 1, **unused), None)


def solutions(
    problem: ExactCover,
    solver: str | None = None,
    amo: str | None = None,
    limit: int | None = None,
    **unused: object,
) -> Iterator[list[int]]:
    """Lazily yield the solutions (at most ``limit``), each as sorted option indices.
    ``solver`` defaults to :data:`DEFAULT_SOLVER`, ``amo`` to ``"auto"``; ``unused``
    catches the dancing-links options, which a SAT solver cannot honour."""
    _reject(unused)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise UsageError(f"limit must be a non-negative int or None, not {limit!r}")
    cnf = to_cnf(problem, "auto" if amo is None else amo)
    backend = _backend(DEFAULT_SOLVER if solver is None else solver, cnf)
    data = problem.engine_input()
    exact = all(lo == hi for lo, hi in zip(data.lo, data.hi, strict=True))
    return _enumerate(problem, cnf, backend, exact, limit)


def _reject(unused: dict[str, object]) -> None:
    """Refuse the search options of the dancing-links engine given to a SAT method."""
    given = [name for name, value in unused.items() if value is not None]
    if given:
        raise UsageError(f"method 'sat' does not take {', '.join(given)}")


def _enumerate(
    problem: ExactCover, cnf: CNF, backend: _Backend, exact: bool, limit: int | None
) -> Iterator[list[int]]:
    """The solutions of ``cnf``, blocking each one on the option variables once found."""
    if any(not clause for clause in cnf.clauses):  # an empty clause: nothing to search
        return
    found = 0
    try:
        while limit is None or found < limit:
            model = backend.solve()
            if model is None:
                return
            solution = checked(problem, cnf, model)
            found += 1
            yield solution
            chosen = {option + 1 for option in solution}
            if exact:
                block = [-variable for variable in sorted(chosen)]
            else:
                block = [-v if v in chosen else v for v in cnf.projection]
            if not block:  # the empty solution, and no other can exist
                return
            backend.add_clause(block)
    finally:
        backend.close()


def count(
    problem: ExactCover, solver: str | None = None, amo: str | None = None, **unused: object
) -> int:
    """The number of solutions: counted by ganak when ``solver`` is ``"ganak"``, or is None
    and pyganak is installed; otherwise by enumerating them with the named SAT solver."""
    _reject(unused)
    if solver is None:
        solver = "ganak" if importlib.util.find_spec("pyganak") is not None else DEFAULT_SOLVER
    if solver != "ganak":
        return sum(1 for _ in solutions(problem, solver, amo))
    cnf = to_cnf(problem, "auto" if amo is None else amo)
    if importlib.util.find_spec("pyganak") is None:
        raise UsageError("solver 'ganak' needs pyganak: pip install 'excover[count]'")
    return _ganak_count(cnf)


def _ganak_count(cnf: CNF) -> int:
    """The number of models of ``cnf`` projected on its option variables, by ganak."""
    if any(not clause for clause in cnf.clauses):
        return 0
    from pyganak import Counter

    counter = Counter()
    counter.new_vars(cnf.n_vars)
    counter.add_clauses(cnf.clauses)
    counter.set_sampling_set(list(cnf.projection))
    with _quiet_stdout():
        return int(counter.count())


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Send what C code writes on file descriptor 1 to /dev/null (ganak prints progress
    lines on stdout, which would mix with the caller's output)."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no stdout at all: nothing to protect
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
