"""Solving an exact cover problem with a SAT solver: first solution, all, or the count.

``solver`` names the back end:

* a solver of python-sat (PySAT) by any of its names: ``"cadical"`` (the default, CaDiCaL
  1.9.5), ``"glucose4"``, ``"minisat22"``, ``"kissat"``, ... PySAT is imported only here,
  when a SAT method is first used;
* ``"ext:COMMAND"``, an external solver run as ``COMMAND FILE.cnf``, which must print the
  usual competition answer (``s SATISFIABLE`` and ``v`` lines of literals ending with 0,
  or ``s UNSATISFIABLE``);
* ``"ganak"`` for :func:`count` only: the exact projected model counter of the optional
  ``pyganak`` package, counting the models of the formula over the option variables
  (in a child process, see :mod:`excover.sat.ganak`).

Solutions are enumerated by *blocking clauses* over the option variables only, so the
auxiliary variables of an encoding never produce the same solution twice. When every
primary item must be covered an exact number of times (``lo == hi``, as in every X and
XCC problem), no solution contains another, and the blocking clause can simply forbid the
chosen options together; otherwise it must pin every option variable to its value.

Every model is decoded and checked against the problem's own definition
(:meth:`~excover.ExactCover.is_solution`) before it is returned: a model that does not
decode into a solution raises :class:`~excover.SolverError`.

Limits follow :class:`~excover.Search`: ``max_solutions`` stops a run quietly, and
``timeout`` (wall-clock seconds from the call, encoding included, and for a listing the
caller's time between two solutions too) raises
:class:`~excover.LimitReached` with statistics in DLX's form (solutions found so far, no
nodes). Ctrl-C stops a solver call at once with ``KeyboardInterrupt``. Unlike a
dancing-links run, a SAT run cannot be resumed after either.
"""

from __future__ import annotations

import importlib.util
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from excover.entries import check_count_limit, check_time_limit
from excover.errors import LimitReached, SolverError, UsageError, check_limit
from excover.problem import Problem
from excover.sat import ganak
from excover.sat.child import ChildSolver, OutOfTime
from excover.sat.cnf import CNF
from excover.sat.encode import to_cnf
from excover.sat.pool import Clause

if TYPE_CHECKING:
    from typing import Unpack

    from pysat.solvers import Solver

    from excover.engines import Stats
    from excover.problem import SearchOptions

__all__ = [
    "DEFAULT_SOLVER",
    "PROBE_SECONDS",
    "PROBE_SOLUTIONS",
    "checked",
    "count",
    "counted",
    "first",
    "known_solver",
    "models",
    "solutions",
    "solver_names",
]

#: The solver used when none is named: CaDiCaL, through PySAT.
DEFAULT_SOLVER = "cadical"

#: Short names of our own for PySAT solvers.
_ALIASES = {"cadical": "cadical195", "glucose": "glucose4", "minisat": "minisat22"}

#: PySAT solvers that cannot stop at a conflict budget and resume: every call runs in a
#: child process (:mod:`excover.sat.child`), killed at the time limit or on Ctrl-C.
_UNLIMITED = {"kissat404", "lingeling"}

#: Seconds a solver runs, under a time limit, before the clock is read again.
_SLICE = 0.05

#: Clauses given to a solver at a time, the clock read in between (see _PySat._loaded).
_LOAD_CHUNK = 100_000


#: The run's time budget ran out inside a solver call.
_OutOfTime = OutOfTime


class _Backend(Protocol):
    """A solver holding a formula: solve it, add clauses, solve again."""

    def solve(self, deadline: float | None) -> list[int] | None:
        """A model (signed literals), or None when the formula is unsatisfiable; raises
        :class:`_OutOfTime` once ``time.monotonic()`` passes ``deadline``."""

    def add_clause(self, clause: Clause) -> None:
        """Add a clause to the formula."""

    def close(self) -> None:
        """Release the solver."""


class _PySat:
    """A PySAT solver, incremental when the solver allows it.

    The solver runs in slices bounded by a number of conflicts, resized so that a slice
    takes about ``slice_seconds`` (:data:`_SLICE` unless given); between slices the clock
    is read (for ``timeout``) and
    a Ctrl-C held during the slice is raised. A slice keeps everything the solver has
    learnt, so slicing costs little.
    """

    def __init__(self, name: str, clauses: list[Clause], slice_seconds: float = _SLICE) -> None:
        self.name = name
        self.slice_seconds = slice_seconds
        self.clauses = clauses
        self.added: list[Clause] = []  # clauses for the next solver built, if not incremental
        self.solver: Solver | None = None
        self.budget = 1000  # conflicts per slice
        self.phases: list[int] = []  # values to try first, for solvers that take them

    def solve(self, deadline: float | None) -> list[int] | None:
        from pysat.solvers import Solver

        if self.solver is None:
            self.solver = self._loaded(Solver(name=self.name), deadline)
            if self.phases:
                self.solver.set_phases(self.phases)
        solver = self.solver
        if not self._sliced(solver, deadline):
            return None
        model = solver.get_model()
        return list(model) if model is not None else []

    def _loaded(self, solver: Solver, deadline: float | None) -> Solver:
        """``solver`` given the formula in chunks of clauses, the clock read between
        chunks: loading millions of clauses takes seconds, within the time limit too."""
        clauses = self.clauses + self.added
        for start in range(0, len(clauses), _LOAD_CHUNK):
            if deadline is not None and time.monotonic() >= deadline:
                solver.delete()
                raise _OutOfTime
            solver.append_formula(clauses[start : start + _LOAD_CHUNK])
        return solver

    def _sliced(self, solver: Solver, deadline: float | None) -> bool:
        """Solve in slices of conflicts until an answer, or until ``deadline``."""
        while True:
            started = time.monotonic()
            if deadline is not None and started >= deadline:
                raise _OutOfTime
            solver.conf_budget(self.budget)
            status = _with_sigint_held(solver.solve_limited)
            if status is not None:
                return bool(status)
            took = time.monotonic() - started
            if took < self.slice_seconds / 2:
                self.budget *= 2
            elif took > 2 * self.slice_seconds and self.budget > 100:
                self.budget //= 2

    def set_phases(self, literals: list[int]) -> None:
        """Try these values first from the next call on (a hint; CaDiCaL, Glucose and
        the MiniSat family take it)."""
        self.phases = literals
        if self.solver is not None:
            self.solver.set_phases(literals)

    def add_clause(self, clause: Clause) -> None:
        if self.solver is None:
            self.added.append(clause)
        else:
            self.solver.add_clause(clause)

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


def _with_sigint_held(solve: Callable[[], bool | None]) -> bool | None:
    """``solve()`` (one short slice) with SIGINT blocked, so that a Ctrl-C waits for the
    slice to end and then reaches Python as KeyboardInterrupt.

    PySAT's own Ctrl-C handling jumps out of the solver with ``longjmp``, which can leave
    the solver's memory inconsistent: a later call, or freeing the solver, then crashes the
    process (seen under load). Holding the signal for one slice (about ``_SLICE``
    seconds) avoids the jump altogether.

    The mask is read before it is changed: Python runs pending signal handlers inside
    ``pthread_sigmask``, after the change, so a handler that raises there (a time limit's
    alarm, say) must still find the old mask restored.
    """
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        return solve()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _External:
    """An external solver command, run on a DIMACS file for every call (killed at the
    deadline, or on Ctrl-C)."""

    def __init__(self, command: list[str], cnf: CNF) -> None:
        self.command = command
        self.cnf = CNF(cnf.n_vars, list(cnf.clauses), cnf.n_options, cnf.amo, cnf.problem_text)

    def solve(self, deadline: float | None) -> list[int] | None:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        with tempfile.TemporaryDirectory(prefix="excover-") as folder:
            path = Path(folder) / "problem.cnf"
            self.cnf.write_dimacs(path)
            try:
                run = subprocess.run(
                    [*self.command, str(path)],
                    capture_output=True,
                    text=True,
                    check=False,
                    timeout=timeout,
                )
            except subprocess.TimeoutExpired:
                raise _OutOfTime from None
            except OSError as error:
                raise UsageError(
                    f"cannot run solver command {shlex.join(self.command)!r}: {error.strerror}"
                ) from None
        return _parse_answer(run.stdout, run.stderr, self.command)

    def add_clause(self, clause: Clause) -> None:
        self.cnf.clauses.append(clause)

    def close(self) -> None:
        """Nothing to release: every call runs a fresh solver process."""


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
    name = _pysat_name(solver)
    if name in _UNLIMITED:
        return ChildSolver(name, cnf.clauses)
    return _PySat(name, cnf.clauses)


def known_solver(solver: str) -> bool:
    """Whether ``solver`` names a back end of :func:`solutions` (a python-sat solver by
    any of its names, or ``ext:COMMAND``), without starting it."""
    if solver.startswith("ext:"):
        return True
    try:
        _pysat_name(solver)
    except UsageError:
        return False
    return True


def _pysat_name(solver: str) -> str:
    """The canonical PySAT name of a solver given by any of its names."""
    if importlib.util.find_spec("pysat") is None:
        raise UsageError("method 'sat' needs python-sat: pip install python-sat")
    from pysat.solvers import SolverNames

    solver = _ALIASES.get(solver, solver)
    for canonical, names in vars(SolverNames).items():
        if not canonical.startswith("_") and solver in names:
            return str(canonical)
    raise UsageError(
        f"unknown SAT solver {solver!r}; choose 'ext:COMMAND' or one of {', '.join(solver_names())}"
    )


def solver_names() -> list[str]:
    """The names of the python-sat solvers: our short ones, then PySAT's own."""
    from pysat.solvers import SolverNames

    return [*_ALIASES, *(name for name in vars(SolverNames) if not name.startswith("_"))]


def checked(problem: Problem, cnf: CNF, model: Iterable[int]) -> list[int]:
    """The solution a model decodes into, after checking it solves ``problem``."""
    solution = cnf.decode(model)
    if not problem.is_solution(solution):
        raise SolverError(f"the solver's model decodes into options {solution}, not a solution")
    return solution


class _Run:
    """The limits and the statistics of one SAT run (first, solutions or count).

    ``timeout`` bounds the run in wall-clock seconds from its start (the time the caller
    spends between two solutions counts too); ``max_solutions`` stops the run quietly
    after that many solutions. ``seconds`` adds up the time spent encoding and solving.
    """

    def __init__(self, algorithm: str, timeout: float | None, max_solutions: int | None) -> None:
        check_time_limit("timeout", timeout)
        check_count_limit("max_solutions", max_solutions)
        self.algorithm = algorithm
        self.began = time.monotonic()
        self.until = None if timeout is None else self.began + timeout
        self.max_solutions = max_solutions
        self.seconds = 0.0
        self.found = 0

    def deadline(self) -> float | None:
        """The monotonic time at which the run's time runs out, or None."""
        return self.until

    def stats(self, complete: bool, stopped_by: str | None) -> Stats:
        """The statistics of the run so far (no search nodes or updates in SAT)."""
        from excover.engines import Stats

        return Stats(
            solutions=self.found,
            seconds=self.seconds,
            complete=complete,
            stopped_by=stopped_by,
            algorithm=self.algorithm,
            engine="sat",
        )

    def final_stats(self) -> Stats:
        """The statistics of a run that ended without a timeout: complete unless it may
        have been cut short by ``max_solutions`` (as a dancing-links run reports it)."""
        if self.max_solutions is not None and self.found >= self.max_solutions:
            return self.stats(complete=False, stopped_by="max_solutions")
        return self.stats(complete=True, stopped_by=None)

    def out_of_time(self) -> LimitReached:
        """The exception that reports the end of the time budget."""
        return LimitReached("timeout", self.stats(complete=False, stopped_by="timeout"))


def first(
    problem: Problem,
    solver: str | None = None,
    amo: str | None = None,
    **options: Unpack[SearchOptions],
) -> list[int] | None:
    """One solution found by the SAT solver, or None when there is none (or when
    ``max_solutions`` is 0). ``timeout`` raises :class:`~excover.LimitReached`."""
    return next(solutions(problem, solver, amo, 1, **options), None)


def solutions(
    problem: Problem,
    solver: str | None = None,
    amo: str | None = None,
    limit: int | None = None,
    **options: Unpack[SearchOptions],
) -> Iterator[list[int]]:
    """Lazily yield the solutions (at most ``limit``, and at most ``max_solutions``), each
    as sorted option indices. ``solver`` defaults to :data:`DEFAULT_SOLVER`, ``amo`` to
    ``"auto"``; ``timeout`` (seconds) raises :class:`~excover.LimitReached` with the
    statistics of the run when it runs out, which ends the run. The other search options,
    the dancing-links engine's, are refused: a SAT solver cannot honour them."""
    timeout, max_solutions = _limits(options)
    check_limit(limit)
    name = DEFAULT_SOLVER if solver is None else solver
    run = _Run(f"SAT ({name})", timeout, max_solutions)
    cnf, backend = _prepare(problem, name, amo, run)
    if max_solutions is not None:
        limit = max_solutions if limit is None else min(limit, max_solutions)
    return _enumerate(problem, cnf, backend, run, limit)


def _prepare(problem: Problem, solver: str, amo: str | None, run: _Run) -> tuple[CNF, _Backend]:
    """The formula of ``problem`` and a back end holding it; the time goes to ``run``,
    and the encoding stops with its LimitReached when the run's time is up."""
    started = time.monotonic()
    cnf = _encode(problem, amo, run, started)
    backend = _backend(solver, cnf)
    run.seconds += time.monotonic() - started
    return cnf, backend


def _encode(problem: Problem, amo: str | None, run: _Run, started: float) -> CNF:
    """The formula of ``problem``, encoded from ``started`` on; the encoding stops with
    the run's LimitReached, the time since ``started`` added to the run's, when the
    run's time is up (so a timeout spent encoding is reported as spent, whichever solver
    was to follow). The caller adds the time of an encoding that ends."""
    deadline = run.deadline()

    def check() -> None:
        if deadline is not None and time.monotonic() >= deadline:
            run.seconds += time.monotonic() - started
            raise run.out_of_time()

    return to_cnf(problem, "auto" if amo is None else amo, check)


def _limits(options: SearchOptions) -> tuple[float | None, int | None]:
    """The ``timeout`` and ``max_solutions`` of ``options``; the other search options, the
    dancing-links engine's, refused when given to a SAT method."""
    given = [
        name
        for name, value in options.items()
        if value is not None and name not in ("timeout", "max_solutions")
    ]
    if given:
        raise UsageError(f"method 'sat' does not take {', '.join(given)}")
    return options.get("timeout"), options.get("max_solutions")


def _enumerate(
    problem: Problem, cnf: CNF, backend: _Backend, run: _Run, limit: int | None
) -> Generator[list[int]]:
    """The solutions of ``cnf``, blocking each one on the option variables once found
    (on the chosen ones only when every multiplicity is exact: another solution cannot
    hold them all)."""
    data = problem.engine_input()
    exact = all(lo == hi for lo, hi in zip(data.lo, data.hi, strict=True))

    def block(model: list[int]) -> Clause:
        if exact:
            return [-v for v in cnf.projection if model[v - 1] > 0]
        return _projection_block(cnf, model)

    for model in _models(cnf, backend, run, block, limit):
        yield checked(problem, cnf, model)


def _projection_block(cnf: CNF, model: list[int]) -> Clause:
    """The clause that rules out the model's values of the projection variables."""
    return [-v if model[v - 1] > 0 else v for v in cnf.projection]


def _models(
    cnf: CNF,
    backend: _Backend,
    run: _Run,
    block: Callable[[list[int]], Clause],
    limit: int | None,
) -> Generator[list[int]]:
    """The models the back end finds (each a list of signed literals, ``model[v - 1]``
    the value of variable v), each followed by the clause ``block(model)``, until the
    formula is unsatisfiable, ``limit`` models or an empty block; the back end is
    closed at the end. The time goes to ``run``, which raises its ``LimitReached``."""
    try:
        if any(not clause for clause in cnf.clauses):  # an empty clause: nothing to search
            return
        while limit is None or run.found < limit:
            started = time.monotonic()
            try:
                model = backend.solve(run.deadline())
            except _OutOfTime:
                run.seconds += time.monotonic() - started
                raise run.out_of_time() from None
            run.seconds += time.monotonic() - started
            if model is None:
                return
            model = _full(model, cnf.n_vars)
            run.found += 1
            yield model
            clause = block(model)
            if not clause:  # nothing left to vary: no other model can exist
                return
            backend.add_clause(clause)
    finally:
        backend.close()


def _full(literals: list[int], n_vars: int) -> list[int]:
    """A model as one literal per variable, in order (``model[v - 1]`` is v or -v),
    whatever order and completeness the solver gave it in (unnamed variables false)."""
    model = [-v for v in range(1, n_vars + 1)]
    for literal in literals:
        if 0 < abs(literal) <= n_vars:
            model[abs(literal) - 1] = literal
    return model


def models(
    cnf: CNF, solver: str | None = None, *, timeout: float | None = None
) -> Iterator[list[int]]:
    """Every model of ``cnf`` that differs on its projection variables (``cnf.projection``),
    found by ``solver`` (see the module documentation; default :data:`DEFAULT_SOLVER`)
    and blocked on those variables once found: the way for other front doors (nonograms)
    to enumerate with the same solvers, limits and Ctrl-C handling. Each model is a list
    of signed literals, ``model[v - 1]`` the value of variable ``v``. ``timeout``
    (wall-clock seconds from the call) raises :class:`~excover.LimitReached`."""
    name = DEFAULT_SOLVER if solver is None else solver
    run = _Run(f"SAT ({name})", timeout, None)
    started = time.monotonic()
    backend = _backend(name, cnf)
    run.seconds += time.monotonic() - started
    return _models(cnf, backend, run, lambda model: _projection_block(cnf, model), None)


#: ``count`` with no solver named enumerates the solutions, and starts ganak (when
#: installed) beside the enumeration once it has run this many seconds ...
PROBE_SECONDS = 1.0
#: ... and found at least this many solutions: the count looks large, and ganak's work
#: does not grow with the count. Whichever finishes first gives the count.
PROBE_SOLUTIONS = 1000


def count(
    problem: Problem,
    solver: str | None = None,
    amo: str | None = None,
    **options: Unpack[SearchOptions],
) -> int:
    """The number of solutions, at most ``max_solutions`` (see :func:`counted`)."""
    timeout, max_solutions = _limits(options)
    return counted(problem, solver, amo, timeout=timeout, max_solutions=max_solutions).solutions


def counted(
    problem: Problem,
    solver: str | None = None,
    amo: str | None = None,
    *,
    timeout: float | None = None,
    max_solutions: int | None = None,
) -> Stats:
    """Count the solutions; return the statistics of the run (``solutions`` is the count,
    ``algorithm`` says who counted).

    ``solver="ganak"`` counts with ganak; any other solver name enumerates the solutions
    with that SAT solver. With no solver named, :data:`DEFAULT_SOLVER` enumerates them;
    once it has run :data:`PROBE_SECONDS` and found :data:`PROBE_SOLUTIONS` without
    finishing, ganak (if pyganak is installed and ``max_solutions`` is not given) counts
    in a child process at the same time, and the first to finish gives the count (ganak's
    answer is looked at between two solutions). ``timeout`` bounds the whole run and
    raises :class:`~excover.LimitReached`.
    """
    if solver == "ganak":
        run = _Run("ganak", timeout, max_solutions)
        return _ganak(_encode(problem, amo, run, run.began), run)
    name = DEFAULT_SOLVER if solver is None else solver
    run = _Run(f"SAT ({name})", timeout, max_solutions)
    cnf, backend = _prepare(problem, name, amo, run)
    race = solver is None and max_solutions is None and ganak.available()
    found = _enumerate(problem, cnf, backend, run, max_solutions)
    with ExitStack() as stack:
        rival: ganak.GanakRun | None = None
        for _ in found:
            if rival is None:
                if race and run.found >= PROBE_SOLUTIONS and run.seconds >= PROBE_SECONDS:
                    rival = stack.enter_context(ganak.GanakRun(cnf))
                continue
            total = rival.poll()
            if total is not None:
                found.close()
                run.found = total
                run.algorithm = f"ganak (raced against {run.algorithm})"
                break
    return run.final_stats()


def _ganak(cnf: CNF, run: _Run) -> Stats:
    """Count the models of ``cnf`` with ganak within the time left to ``run``. Nothing
    else runs in between, so the run's seconds are the whole time since it began
    (encoding, writing the formula, counting)."""
    deadline = run.deadline()
    try:
        total = ganak.ganak_count(cnf, None if deadline is None else deadline - time.monotonic())
    except ganak.GanakTimeout:
        run.seconds = time.monotonic() - run.began
        raise run.out_of_time() from None
    run.seconds = time.monotonic() - run.began
    if run.max_solutions is not None:
        total = min(total, run.max_solutions)
    run.found = total
    return run.final_stats()
