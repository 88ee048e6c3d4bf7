"""Child processes of the tests: a run that does not end in time is killed, never left
going beside the rest of the suite, and a signal meant for a running search waits until
the search surely runs (importable as ``runs`` from every test module)."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

__all__ = ["children", "cpu_seconds", "ended", "imported_by", "wait_until_busy"]


def ended(process: subprocess.Popen[str], seconds: float) -> tuple[str, str]:
    """The output of ``process`` once it ends. A run still going after ``seconds`` is
    killed, with its process group when it leads one (its workers too), and the test
    fails: a hang must not hang the suite."""
    try:
        return process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        if os.getpgid(process.pid) == process.pid:
            os.killpg(process.pid, signal.SIGKILL)
        process.kill()
        process.communicate()
        pytest.fail(f"the run did not end within {seconds} s")


def modules_after(code: str) -> set[str]:
    """The modules loaded by a fresh interpreter that runs ``code``, which must succeed.
    The interpreter starts with ``-S``, no site: what an environment's .pth files import
    (some import pathlib, re or typing) would hide excover's own imports; this
    interpreter's path finds excover instead. The probe itself imports nothing but sys
    (json would hide a run's import of it)."""
    probe = f"import sys\n{code}\nprint(repr(sorted(sys.modules)), file=sys.stderr)\n"
    path = os.pathsep.join(entry for entry in sys.path if entry)
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stderr
    modules: list[str] = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    return set(modules)


def imported_by(argv: list[str]) -> set[str]:
    """The modules loaded by a run of ``excover ARGV`` (``main(argv)`` in a fresh
    interpreter, see :func:`modules_after`), which must end with status 0."""
    return modules_after(
        f"from excover.main import main\nstatus = main({argv!r})\nassert status == 0, status"
    )


def cpu_seconds(pid: int) -> float | None:
    """The CPU time used so far by process ``pid`` and its live descendants, from Linux's
    /proc; None where there is no /proc entry for it."""
    try:
        own = _times(Path(f"/proc/{pid}/stat").read_text())
    except OSError:
        return None
    return own + sum(cpu_seconds(child) or 0.0 for child in children(pid))


def _times(stat: str) -> float:
    """User and system time of a /proc stat line (fields 14 and 15), in seconds."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (zombies too), from Linux's /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
            except OSError:
                continue
            if int(parent) == pid:
                found.append(int(entry.name))
    return found


def wait_until_busy(process: subprocess.Popen[str], cpu: float = 0.6) -> None:
    """Wait until ``process`` (with its workers or solver children) has used ``cpu``
    seconds of CPU time: start-up and reading the input take about 0.2 s of it, however
    busy the machine, so its search surely runs and a Ctrl-C sent now meets it, not the
    interpreter's start. Where /proc is missing, wait a fixed 1.5 s instead. Returns at
    once if the process ended (the test's checks then say what happened); a process
    that does not get there within 60 s fails the test."""
    if cpu_seconds(process.pid) is None and process.poll() is None:
        time.sleep(1.5)
        return
    end = time.monotonic() + 60
    while process.poll() is None:
        used = cpu_seconds(process.pid)
        if used is None or used >= cpu:
            return
        if time.monotonic() > end:
            pytest.fail(f"the run used {used:.2f} s of CPU time in 60 s, not {cpu} s")
        time.sleep(0.05)
