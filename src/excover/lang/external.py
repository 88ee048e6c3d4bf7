"""combine's convention for outside SAT solvers: ``solve sat "CMD" P ...``.

combine ran ``CMD INPUT OUTPUT``: the formula in DIMACS CNF in ``INPUT``, the answer
written by the solver to ``OUTPUT`` in MiniSat's format (``SAT`` then the literals of a
model ending with ``0``, or ``UNSAT``). excover keeps this convention for a command it
finds on the ``PATH`` that is not the name of a python-sat solver; ``"ext:CMD"`` is the
other convention (the competition format on standard output, see :mod:`excover.sat`).
Only ``solve`` uses it, as in combine: counting and listing need an incremental solver.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile

from excover.errors import SolverError
from excover.solving import ExactCover

__all__ = ["is_command", "runs_program", "solve_with_command"]


def is_command(solver: str) -> bool:
    """True when ``solver`` is a command line whose program is found on the ``PATH``."""
    try:
        words = shlex.split(solver)
    except ValueError:
        return False
    return bool(words) and shutil.which(words[0]) is not None


def runs_program(solver: str) -> bool:
    """True when the SAT solver ``solver`` of a program is an outside program: an
    ``ext:COMMAND``, or a command line on the PATH that names no python-sat solver (run
    in combine's convention). python-sat's solvers and ganak run inside excover."""
    from excover.sat.solve import known_solver

    if solver.startswith("ext:"):
        return True
    return solver != "ganak" and not known_solver(solver) and is_command(solver)


def solve_with_command(problem: ExactCover, command: str) -> list[int] | None:
    """A solution found by the outside solver ``command`` run as combine ran it, checked
    against the problem, or None when the solver says there is none."""
    from excover.sat import checked

    cnf = problem.to_cnf()
    with tempfile.TemporaryDirectory(prefix="excover-sat-") as directory:
        source = os.path.join(directory, "problem.cnf")
        answer = os.path.join(directory, "answer.txt")
        cnf.write_dimacs(source)
        argv = [*shlex.split(command), source, answer]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, check=False)
        except OSError as exc:
            raise SolverError(f"cannot run {command!r}: {exc.strerror or exc}") from None
        try:
            with open(answer, encoding="utf-8") as handle:
                words = handle.read().split()
        except OSError:
            raise SolverError(
                f"{command!r} wrote no answer (exit status {done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[:200]}"
            ) from None
    if words[:1] == ["UNSAT"]:
        return None
    if words[:1] != ["SAT"]:
        raise SolverError(f"{command!r} answered {' '.join(words[:3])!r}, not SAT or UNSAT")
    try:
        literals = [int(word) for word in words[1:]]
    except ValueError:
        raise SolverError(f"{command!r} wrote a model that is not a list of literals") from None
    model = literals[: literals.index(0)] if 0 in literals else literals
    return checked(problem, cnf, model)
