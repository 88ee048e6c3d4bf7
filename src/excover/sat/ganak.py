"""Counting solutions with ganak, the exact projected model counter of ``pyganak``.

ganak cannot be interrupted or given a time limit, and it prints progress on stdout, so
:func:`ganak_count` runs it in a child process (``python -m excover.sat.ganak FILE``):
a timeout or Ctrl-C then ends the child at once, and the caller's stdout stays clean.
The child reads the formula from a DIMACS file and prints the count on a line of its own,
``excover-count N``, which the parent picks out of whatever ganak printed.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

from excover.errors import SolverError, UsageError
from excover.sat.cnf import CNF

__all__ = ["GanakTimeout", "available", "ganak_count"]

#: The line prefix that carries the count from the child process.
_MARK = "excover-count "


class GanakTimeout(Exception):
    """ganak did not finish within the time it was given (the child was killed)."""


def available() -> bool:
    """True when pyganak is installed."""
    return importlib.util.find_spec("pyganak") is not None


def ganak_count(cnf: CNF, timeout: float | None = None) -> int:
    """The number of models of ``cnf`` projected on its option variables, by ganak in a
    child process that is killed after ``timeout`` seconds (raising :class:`GanakTimeout`)
    or when the caller is interrupted."""
    if not available():
        raise UsageError("solver 'ganak' needs pyganak: pip install 'excover[count]'")
    if any(not clause for clause in cnf.clauses):
        return 0
    with tempfile.TemporaryDirectory(prefix="excover-") as folder:
        path = Path(folder) / "problem.cnf"
        cnf.write_dimacs(path)
        command = [sys.executable, "-m", "excover.sat.ganak", str(path)]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise GanakTimeout from None
    for line in reversed(run.stdout.splitlines()):
        if line.startswith(_MARK):
            return int(line[len(_MARK) :])
    detail = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
    raise SolverError(f"ganak gave no count ({detail})")


def _count_file(path: str) -> int:
    """The projected model count of the DIMACS file at ``path``, in this process."""
    from pyganak import Counter

    cnf = CNF.read_dimacs(path)
    counter = Counter()
    counter.new_vars(cnf.n_vars)
    counter.add_clauses(cnf.clauses)
    counter.set_sampling_set(list(cnf.projection))
    return int(counter.count())


if __name__ == "__main__":
    count = _count_file(sys.argv[1])
    sys.stdout.flush()
    print(f"\n{_MARK}{count}", flush=True)
