"""Counting solutions with ganak, the exact projected model counter of ``pyganak``.

ganak cannot be interrupted or given a time limit, and it prints progress on stdout, so
:class:`GanakRun` runs it in a child process (``python -m excover.sat.ganak FILE``): a
timeout or Ctrl-C then ends the child at once, the caller's stdout stays clean, and the
caller can do something else meanwhile (``count`` races it against enumeration).
The child reads the formula from a DIMACS file and prints the count on a line of its own,
``excover-count N``, which the parent picks out of whatever ganak printed (and reads at
any size: :mod:`excover.numbers`).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from excover.errors import SolverError, UsageError
from excover.numbers import from_decimal, to_decimal
from excover.sat.cnf import CNF

__all__ = ["GanakRun", "GanakTimeout", "available", "ganak_count"]

#: The line prefix that carries the count from the child process.
_MARK = "excover-count "

#: The child's command line. pyganak hands its count to Python as decimal text, which
#: Python refuses beyond 4,300 digits by default: the child, a process of its own that
#: does nothing else, runs without that limit (``-X int_max_str_digits=0``), and prints
#: the count in decimal for the parent to read back at any size.
_CHILD = (sys.executable, "-X", "int_max_str_digits=0", "-m", "excover.sat.ganak")

#: Seconds between two looks at the child process while waiting for it.
_POLL = 0.01


class GanakTimeout(Exception):
    """ganak did not finish within the time it was given (the child was killed)."""


def available() -> bool:
    """True when pyganak is installed."""
    return importlib.util.find_spec("pyganak") is not None


class GanakRun:
    """ganak counting the models of a formula in a child process, started at once: poll
    it, wait for it, or kill it (:meth:`close`, or leaving the ``with`` block)."""

    def __init__(self, cnf: CNF) -> None:
        if not available():
            raise UsageError("solver 'ganak' needs pyganak: pip install 'excover[count]'")
        self.folder = tempfile.TemporaryDirectory(prefix="excover-")
        self.process: subprocess.Popen[bytes] | None = None
        self.trivial = any(not clause for clause in cnf.clauses)  # no model at all
        if self.trivial:
            return
        folder = Path(self.folder.name)
        cnf.write_dimacs(folder / "problem.cnf")
        # Files, not pipes: ganak's progress lines would fill a pipe nobody reads yet.
        with open(folder / "out", "wb") as out, open(folder / "err", "wb") as err:
            self.process = subprocess.Popen(
                [*_CHILD, str(folder / "problem.cnf")],
                stdout=out,
                stderr=err,
            )

    def __enter__(self) -> GanakRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def poll(self) -> int | None:
        """The count if ganak has finished, else None."""
        if self.process is None:
            return 0
        return None if self.process.poll() is None else self._result()

    def wait(self, timeout: float | None) -> int:
        """The count, waiting at most ``timeout`` seconds (then :class:`GanakTimeout`)."""
        if self.process is None:
            return 0
        # Polled rather than Popen.wait(timeout): on Ctrl-C, Popen.wait gives the child a
        # quarter of a second to exit first, but ganak never saw the signal.
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.process.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise GanakTimeout
            time.sleep(_POLL)
        return self._result()

    def _result(self) -> int:
        folder = Path(self.folder.name)
        out = (folder / "out").read_text(errors="replace")
        for line in reversed(out.splitlines()):
            if line.startswith(_MARK):
                return from_decimal(line[len(_MARK) :])
        err = (folder / "err").read_text(errors="replace").strip().splitlines()
        assert self.process is not None
        detail = (err or [f"exit status {self.process.returncode}"])[-1]
        raise SolverError(f"ganak gave no count ({detail})")

    def close(self) -> None:
        """Kill ganak if it still runs, and remove its files."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.folder.cleanup()


def ganak_count(cnf: CNF, timeout: float | None = None) -> int:
    """The number of models of ``cnf`` projected on its option variables, by ganak in a
    child process that is killed after ``timeout`` seconds (raising :class:`GanakTimeout`)
    or when the caller is interrupted."""
    with GanakRun(cnf) as run:
        return run.wait(timeout)


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
    print(f"\n{_MARK}{to_decimal(count)}", flush=True)
