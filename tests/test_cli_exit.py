"""How the ``excover`` process ends (:func:`excover.main.program`): its exit handlers run,
its output flushed and its exit status given, without the interpreter's teardown (which
frees every object one by one), unless another thread still runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

QUEENS8 = str(Path(__file__).resolve().parent / "data" / "knuth" / "queens8.dlx")

#: A program that runs ``excover ARGV`` as the ``excover`` program does, beside an object
#: whose finalizer says when the interpreter's teardown frees it; ``{setup}`` runs first.
PROGRAM = """\
import os, sys
from excover.main import program

class Loud:
    def __del__(self, write=os.write):
        write(2, b"torn down\\n")

loud = Loud()
{setup}
sys.argv = ["excover", *{argv!r}]
program()
"""


def run(argv: list[str], setup: str = "") -> subprocess.CompletedProcess[str]:
    """``excover ARGV`` run by :data:`PROGRAM` in a fresh interpreter, which finds the
    excover this one does."""
    code = PROGRAM.format(setup=setup, argv=argv)
    path = os.pathsep.join(os.path.abspath(entry) for entry in sys.path if entry)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": path},
    )


def test_a_count_ends_with_its_output_and_without_the_teardown() -> None:
    done = run(["count", QUEENS8, "--method", "zdd"])
    assert (done.returncode, done.stdout) == (0, "92\n")  # a pipe's buffer flushed
    assert done.stderr == "excover: method zdd, top-down family\n"  # no "torn down"


def test_an_error_keeps_its_status_and_message() -> None:
    done = run(["count", QUEENS8 + ".missing"])
    assert done.returncode == 2
    assert "cannot read" in done.stderr
    assert "torn down" not in done.stderr


def test_the_exit_handlers_run_in_order_before_the_output_is_flushed() -> None:
    setup = (
        "import atexit\n"
        "atexit.register(lambda: print('registered first, run last'))\n"
        "atexit.register(lambda: print('registered last, run first'))"
    )
    done = run(["count", QUEENS8, "--method", "zdd"], setup)
    assert done.returncode == 0
    assert done.stdout == "92\nregistered last, run first\nregistered first, run last\n"
    assert "torn down" not in done.stderr


def test_a_running_thread_is_waited_for_by_the_ordinary_exit() -> None:
    """A thread still running when the command ends keeps the process to the ordinary
    exit, which waits for it and tears the interpreter down. The thread prints once the
    main thread is done, its output written: it waits for the main thread's end (at most
    a minute, a bound for a busy machine only), which that exit marks before it joins
    the other threads."""
    setup = (
        "import threading\n"
        "main = threading.main_thread()\n"
        "threading.Thread(target=lambda: (main.join(60), print('thread'))).start()"
    )
    done = run(["count", QUEENS8, "--method", "zdd"], setup)
    assert (done.returncode, done.stdout) == (0, "92\nthread\n")
    assert done.stderr.endswith("torn down\n")
