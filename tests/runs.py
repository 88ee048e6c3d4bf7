"""Child processes of the tests: a run that does not end in time is killed, never left
going beside the rest of the suite (importable as ``runs`` from every test module)."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

__all__ = ["ended"]


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
