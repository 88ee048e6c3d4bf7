"""How long after its ``--timeout`` each command of issue 61's item 6 stops.

Each command runs as a child process (``python -m excover ...``), timed from its start
to its end (start-up and reading included, as a user waits for them); the table gives
its exit status, the wall-clock time and the time past ``--timeout`` (the target: at
most 2 s each), with the load average of the machine. The problem of the ``count``
commands is ``indep10000.dlx``: 10,000 primary items, each covered by 3 options of its
own (3**10000 solutions; a plain count takes about a second, while every probe of a
split walks all 10,000 levels of the tree).

``--workers 100000`` and ``--tasks 10000000`` are usage errors now (exit status 2); they
are run too, to show that they answer at once.

Usage: ``python benchmarks/deadlines.py [--timeout SECONDS] [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]


def write_independent(path: Path, items: int = 10_000, options: int = 3) -> None:
    """``items`` primary items, each covered by ``options`` options of its own, in DLX
    format."""
    lines = [" ".join(f"i{k}" for k in range(items))]
    lines += [f"i{k}" for k in range(items) for _ in range(options)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def commands(problem: Path, timeout: float) -> list[list[str]]:
    """The commands of item 6, each with ``--timeout``."""
    limit = ["--timeout", f"{timeout:g}"]
    return [
        ["count", str(problem), "--tasks", "4", *limit],
        ["count", str(problem), "--workers", "2", *limit],
        ["count", str(problem), "--tasks", "1000000", *limit],
        ["count", str(problem), "--checkpoint", str(problem.with_suffix(".json")), *limit],
        ["queens", "5000", *limit],
        ["queens", "5000", "--count", *limit],
        ["count", str(problem), "--workers", "100000", *limit],
        ["count", str(problem), "--tasks", "10000000", *limit],
    ]


def timed(argv: list[str]) -> tuple[int, float]:
    """The exit status and wall-clock seconds of ``excover ARGV`` in a child process."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "excover", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return done.returncode, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=5.0, help="the --timeout of each")
    parser.add_argument("--runs", type=int, default=1, help="runs of each command (the worst)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        problem = Path(folder) / "indep10000.dlx"
        write_independent(problem)
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'command':<58} {'exit':>4} {'seconds':>8} {'past':>6}")
        worst = 0.0
        for command in commands(problem, args.timeout):
            runs = [timed(command) for _ in range(args.runs)]
            status, seconds = max(runs, key=lambda run: run[1])
            past = seconds - args.timeout if status == 1 else 0.0
            worst = max(worst, past)
            shown = " ".join(command).replace(f"{folder}/", "")
            print(f"{shown:<58} {status:>4} {seconds:>8.2f} {past:>6.2f}")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"worst time past --timeout: {worst:.2f} s (target: at most 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
