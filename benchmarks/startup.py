"""Benchmark the start-up of the ``excover`` command against a bare Python.

Times, side by side in one run, ``python -c pass``, ``python -c "import excover"``,
``excover --version``, ``excover count TINY.dlx`` (a 3-item problem written to a
temporary folder, checked to print 3) and
``excover nonogram examples/nonograms/hard12.non --classify`` (a 12x12 puzzle solved in
a fraction of a millisecond, so that its time is start-up; checked to print unique),
each the best of ``--runs`` runs taken in turn, and prints each command's time as a ratio
to the bare Python (issue #13's goal: at most 1.5). ``import excover`` is checked too: it
must load neither numpy, lark nor pysat.

Compiled bytecode is used as an installed package has it: the runs write and read it in
a temporary ``PYTHONPYCACHEPREFIX`` (never in the repository), even when the environment
sets ``PYTHONDONTWRITEBYTECODE``, and a first untimed round fills it. ``excover`` is the
console script beside this Python when there is one, else ``python -m excover``.

Usage: ``python benchmarks/startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["excover_command", "main"]

#: A problem with three solutions: {a b, c}, {a, b c} and {a, b, c}.
TINY = "a b c\na b\nc\na\nb c\nb\n"

#: A small nonogram with a unique solution, beyond line solving.
HARD12 = Path(__file__).resolve().parents[1] / "examples" / "nonograms" / "hard12.non"


def _best(command: list[str], env: dict[str, str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        best = min(best, time.perf_counter() - start)
    return best


def excover_command() -> list[str]:
    """The ``excover`` command as a user runs it: the console script beside this Python
    when there is one, else ``python -m excover``."""
    script = Path(sys.executable).with_name("excover")
    return [str(script)] if script.exists() else [sys.executable, "-m", "excover"]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command (best kept)")
    args = parser.parse_args(argv)
    cache = tempfile.mkdtemp(prefix="excover-startup-")
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        tiny = Path(cache) / "tiny.dlx"
        tiny.write_text(TINY)
        excover = excover_command()
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -c 'import excover'": [sys.executable, "-c", "import excover"],
            "excover --version": [*excover, "--version"],
            "excover count tiny.dlx": [*excover, "count", str(tiny)],
            "excover nonogram --classify": [*excover, "nonogram", str(HARD12), "--classify"],
        }
        counted = subprocess.run(
            commands["excover count tiny.dlx"], env=env, capture_output=True, text=True
        )
        if counted.stdout != "3\n":
            raise SystemExit(f"excover count tiny.dlx printed {counted.stdout!r}, not 3")
        classified = subprocess.run(
            commands["excover nonogram --classify"], env=env, capture_output=True, text=True
        )
        if classified.stdout != "unique\n":
            raise SystemExit(f"excover nonogram printed {classified.stdout!r}, not unique")
        heavy = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, excover; print(' '.join(m for m in ('numpy', 'lark', 'pysat')"
                " if m in sys.modules))",
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        times = {name: 0.0 for name in commands}
        for name in commands:  # fill the bytecode cache
            _best(commands[name], env, 1)
        rounds = 3
        for _ in range(rounds):  # in turn, so that a change of load touches every command
            for name, command in commands.items():
                best = _best(command, env, max(1, args.runs // rounds))
                times[name] = best if times[name] == 0.0 else min(times[name], best)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"start-up, best of {args.runs} runs each (load average {load:.2f}):")
        bare = times["python -c pass"]
        for name, seconds in times.items():
            print(f"  {name:<28} {1000 * seconds:7.1f} ms  {seconds / bare:5.2f}x python")
        print(f"import excover loads: {heavy or 'none of numpy, lark, pysat'}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
