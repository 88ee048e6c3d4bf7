"""Benchmark the start-up of the ``excover`` command against a bare Python.

Times, side by side in one run, ``python -c pass``, ``python -c "import excover"``,
``excover --version``, ``excover count TINY.dlx`` and ``excover count TINY.dlx --method
zdd`` (a 3-item problem written to a temporary folder, checked to print 3) and
``excover nonogram examples/nonograms/hard12.non --classify`` (a 12x12 puzzle solved in
a fraction of a millisecond, so that its time is start-up; checked to print unique),
each the best of ``--runs`` runs taken in turn, and prints each command's wall-clock
time as a ratio to the bare Python (issue #13's goal: at most 1.5) and its CPU time
(user and system, which a loaded machine stretches less than the wall clock). The load
average is printed before and after. ``import excover`` is checked too: it must load
neither numpy, lark nor pysat.

``--against DIR`` runs each excover command a second time from another source tree
(``DIR`` holds the ``excover`` package, as a checkout's ``src`` does, with its compiled
extensions), interleaved with this one's, for a before and after in the same run: both
trees then run as ``python -m excover``, this one from the ``src`` beside this script.
``--instructions`` also counts each command's instructions once under valgrind: on a
shared machine, where the load stretches every time, the one before and after figure
that does not move.

Compiled bytecode is used as an installed package has it: the runs write and read it in
a temporary ``PYTHONPYCACHEPREFIX`` (never in the repository), even when the environment
sets ``PYTHONDONTWRITEBYTECODE``, and a first untimed round fills it. ``excover`` is the
console script beside this Python when there is one, else ``python -m excover``.

Usage: ``python benchmarks/startup.py [--runs N] [--against DIR] [--instructions]``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from _load import load_line

__all__ = ["excover_command", "main"]

#: A problem with three solutions: {a b, c}, {a, b c} and {a, b, c}.
TINY = "a b c\na b\nc\na\nb c\nb\n"

#: A small nonogram with a unique solution, beyond line solving.
HARD12 = Path(__file__).resolve().parents[1] / "examples" / "nonograms" / "hard12.non"

#: The source tree beside this script.
SOURCE = Path(__file__).resolve().parents[1] / "src"

#: The names of the other tree's runs (``--against``) start with this.
BEFORE = "before: "

#: Each command's best wall-clock and CPU seconds.
Best = dict[str, tuple[float, float]]


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall-clock and CPU (user and system) seconds of one run of ``command``."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def _best(
    command: list[str], env: dict[str, str], runs: int, best: tuple[float, float]
) -> tuple[float, float]:
    """The best wall-clock and CPU seconds of ``runs`` more runs of ``command`` and of
    ``best``, the best so far."""
    wall, cpu = best
    for _ in range(runs):
        took = _timed(command, env)
        wall, cpu = min(wall, took[0]), min(cpu, took[1])
    return wall, cpu


def excover_command() -> list[str]:
    """The ``excover`` command as a user runs it: the console script beside this Python
    when there is one, else ``python -m excover``."""
    script = Path(sys.executable).with_name("excover")
    return [str(script)] if script.exists() else [sys.executable, "-m", "excover"]


def _commands(excover: list[str], tiny: Path) -> dict[str, list[str]]:
    """The excover commands timed, by name."""
    return {
        "excover --version": [*excover, "--version"],
        "excover count tiny.dlx": [*excover, "count", str(tiny)],
        "excover count tiny.dlx --method zdd": [*excover, "count", str(tiny), "--method", "zdd"],
        "excover nonogram --classify": [*excover, "nonogram", str(HARD12), "--classify"],
    }


def _check(runs: list[tuple[str, list[str], dict[str, str]]]) -> None:
    """Each count prints 3 and the nonogram unique (a benchmark of a broken command
    says nothing)."""
    expected = {"count": "3\n", "nonogram": "unique\n"}
    for name, command, env in runs:
        word = name.removeprefix(BEFORE).split()[1]
        if word in expected:
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.stdout != expected[word]:
                raise SystemExit(f"{name} printed {done.stdout!r}, not {expected[word]!r}")


def _instructions(command: list[str], env: dict[str, str]) -> int:
    """The instructions one run of ``command`` executes, as valgrind's callgrind counts
    them (its ``I refs``): a figure that load does not change, unlike the times."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        env={**env, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count for {' '.join(command)}")
    return int(found.group(1).replace(",", ""))


def _heavy(env: dict[str, str]) -> str:
    """The heavy libraries ``import excover`` loads (none, it should be)."""
    code = (
        "import sys, excover; print(' '.join(m for m in ('numpy', 'lark', 'pysat')"
        " if m in sys.modules))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command (best kept)")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="another source tree (holding the excover package) run beside this one",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count each command's instructions, once, under valgrind (the same on a "
        "loaded machine as on a quiet one)",
    )
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind")
    cache = tempfile.mkdtemp(prefix="excover-startup-")
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        tiny = Path(cache) / "tiny.dlx"
        tiny.write_text(TINY)
        # (name, command, environment) of every run, "before" the other tree's
        runs: list[tuple[str, list[str], dict[str, str]]] = [
            ("python -c pass", [sys.executable, "-c", "pass"], env),
            ("python -c 'import excover'", [sys.executable, "-c", "import excover"], env),
        ]
        if args.against is None:
            runs += [(n, c, env) for n, c in _commands(excover_command(), tiny).items()]
        else:
            module = [sys.executable, "-m", "excover"]
            trees = {"": SOURCE, BEFORE: args.against.resolve()}
            for name, command in _commands(module, tiny).items():
                for label, tree in trees.items():
                    runs.append((label + name, command, {**env, "PYTHONPATH": str(tree)}))
        _check(runs)
        heavy = _heavy(env)
        print(load_line())
        times: Best = {name: (float("inf"), float("inf")) for name, _, _ in runs}
        for _, command, run_env in runs:  # fill the bytecode cache
            _timed(command, run_env)
        rounds = 3
        for _ in range(rounds):  # in turn, so that a change of load touches every command
            for name, command, run_env in runs:
                times[name] = _best(command, run_env, max(1, args.runs // rounds), times[name])
        print(f"start-up, best of {args.runs} runs each:")
        bare = times["python -c pass"][0]
        for name, (wall, cpu) in times.items():
            print(
                f"  {name:<46} {1000 * wall:7.1f} ms  {wall / bare:5.2f}x python"
                f"  cpu {1000 * cpu:7.1f} ms"
            )
        print(load_line())
        if args.instructions:
            print("instructions (valgrind, one run each, PYTHONHASHSEED=0):")
            for name, command, run_env in runs:
                print(f"  {name:<46} {_instructions(command, run_env):>15,}")
        print(f"import excover loads: {heavy or 'none of numpy, lark, pysat'}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
