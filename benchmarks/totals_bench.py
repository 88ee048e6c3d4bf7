"""Totals use the symmetry (issue #60, point 6): a total count through a ``.cmb`` program
and through the studio's count request, the board's symmetry broken (the default)
against the switch turned off, and plain ``.dlx`` counts before and after.

For each board (the 6 x 10 box and Scott's 8 x 8 board with a 2 x 2 hole in the middle,
the twelve pentominoes each once) two front ends count every packing, in this process,
interleaved round by round, the best of ``--repeat`` rounds each in CPU time
(``time.process_time``), everything from the program's text or the page's design
included:

* ``.cmb``: ``count auto NAME`` against ``count auto NAME ~no_break_symmetry``, run by
  the interpreter (:class:`excover.lang.Interpreter`);
* studio: the child's whole run of a ``count`` request (:func:`excover.studio.runs.work`,
  with a pipe that keeps the events and a fresh checkpoint folder, as ``excover studio``
  keeps one), ``{}`` against ``{"break_symmetry": false}``.

The two counts of each pair must agree. Target: the default at most 0.5x the time of
the switch turned off.

With ``--against SRC`` (the ``src`` of a tree from before issue #60, such as commit
61426c2, whose totals knew no symmetry: the issue's "today"), each front end's default
count also runs in a child process under that tree and under this one, interleaved,
each child timing its own ``--repeat`` counts (the best kept, imports left out): the
issue's target is the default at most 0.5x that tree's time.

With ``--before SRC`` (another tree's ``src``, say /work/main/src), the plain ``excover
count FILE`` of every file of ``tests/data/knuth`` runs as a command under that tree and
under this one, interleaved, the best of ``--repeat`` each in the command's CPU time
(user + system, of the child): a ``.dlx`` file declares no symmetry, and its count must
not get slower.

    python benchmarks/totals_bench.py [--repeat 3] [--before /work/main/src] [--against OLD/src]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Any

from excover.lang import Interpreter, parse
from excover.studio.runs import Settings, work
from excover.tiling import pentominoes

ROOT = Path(__file__).resolve().parents[1]
KNUTH = ROOT / "tests" / "data" / "knuth"

#: The boards, as rows of cells ('*') and holes ('.').
BOARDS = {
    "6x10 box": ["*" * 10] * 6,
    "Scott's board": ["*" * 8] * 3 + ["***..***"] * 2 + ["*" * 8] * 3,
}


def program(rows: list[str], off: bool) -> str:
    """The ``.cmb`` program counting the packings of ``rows``."""
    art = "\n".join(rows)
    switch = " ~no_break_symmetry" if off else ""
    return (
        'include "excover:pentominoes"\n'
        f"pattern board = {{\n{art}\n}}\n"
        "problem p = board pentominoes\n"
        f"count auto p{switch}\n"
    )


def by_cmb(rows: list[str], off: bool) -> int:
    """The count of the ``.cmb`` program, as ``excover run`` runs it."""
    interpreter = Interpreter(quiet=True)
    interpreter.run(parse(program(rows, off)))
    (record,) = [r for r in interpreter.results if r["statement"] == "count"]
    return int(record["count"])


class _Pipe:
    """The child's pipe to the server, keeping the events."""

    memory_message = "out of memory"

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def send(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def close(self) -> None:
        """Nothing to release: the events stay in memory for the timing."""


@cache
def pentomino_pieces() -> list[dict[str, Any]]:
    """The twelve pentominoes as the page sends them (made once: the page's work)."""
    return [
        {"name": name, "cells": shape.ascii().splitlines(), "count": "1"}
        for name, shape in pentominoes().items()
    ]


def by_studio(rows: list[str], off: bool) -> int:
    """The count of the studio's count request of the design, as its child runs it."""
    design = {"board": rows, "pieces": pentomino_pieces()}
    with tempfile.TemporaryDirectory() as checkpoints:  # as `excover studio` keeps them
        settings = Settings.from_json({"break_symmetry": False} if off else {}, checkpoints)
        pipe = _Pipe()
        work(design, "count", settings.as_json(), pipe)  # type: ignore[arg-type]
    result = pipe.events[-1]
    if result.get("type") != "result" or not result.get("complete"):
        raise AssertionError(f"the studio's count did not finish: {result}")
    return int(result["count"])


FRONT_ENDS: dict[str, Callable[[list[str], bool], int]] = {"`.cmb`": by_cmb, "studio": by_studio}


def cpu(run: Callable[[], int]) -> tuple[float, int]:
    """The CPU seconds ``run()`` took, and its result."""
    started = time.process_time()
    value = run()
    return time.process_time() - started, value


def front_ends(repeat: int) -> None:
    print("| board | front end | solutions | switch off (s) | default (s) | ratio |")
    print("|---|---|--:|--:|--:|--:|")
    for board, rows in BOARDS.items():
        for name, run in FRONT_ENDS.items():
            best = {False: float("inf"), True: float("inf")}
            counts: set[int] = set()
            for _ in range(repeat):
                for off in (True, False):
                    seconds, value = cpu(partial(run, rows, off))
                    best[off] = min(best[off], seconds)
                    counts.add(value)
            if len(counts) != 1:
                raise AssertionError(f"{board}, {name}: counts differ: {counts}")
            (total,) = counts
            ratio = best[False] / best[True]
            print(
                f"| {board} | {name} | {total:,} | {best[True]:.2f} | {best[False]:.2f} "
                f"| {ratio:.2f}x |",
                flush=True,
            )


def child(board: str, front_end: str, repeat: int) -> int:
    """In a child under some tree: the default count of ``board`` through ``front_end``
    ``repeat`` times, printing the count and the best CPU seconds."""
    seconds, value = min(
        cpu(partial(FRONT_ENDS[front_end], BOARDS[board], False)) for _ in range(repeat)
    )
    print(value, seconds)
    return 0


def child_best(src: str, board: str, front_end: str, repeat: int) -> tuple[float, int]:
    """The best CPU seconds and the count of a child's default counts under ``src``."""
    argv = [sys.executable, __file__, "--child", board, front_end, "--repeat", str(repeat)]
    done = subprocess.run(
        argv, env={**os.environ, "PYTHONPATH": src}, capture_output=True, text=True, check=True
    )
    value, seconds = done.stdout.split()
    return float(seconds), int(value)


def against(old: str, repeat: int, rounds: int = 3) -> None:
    here = str(ROOT / "src")
    print("\n| board | front end | solutions | old tree (s) | default (s) | ratio |")
    print("|---|---|--:|--:|--:|--:|")
    for board in BOARDS:
        for name in FRONT_ENDS:
            best = {old: float("inf"), here: float("inf")}
            counts: set[int] = set()
            for _ in range(rounds):
                for src in (old, here):
                    seconds, value = child_best(src, board, name, repeat)
                    best[src] = min(best[src], seconds)
                    counts.add(value)
            if len(counts) != 1:
                raise AssertionError(f"{board}, {name}: counts differ: {counts}")
            print(
                f"| {board} | {name} | {counts.pop():,} | {best[old]:.2f} | {best[here]:.2f} "
                f"| {best[here] / best[old]:.2f}x |",
                flush=True,
            )


def command_cpu(src: str, path: Path) -> tuple[float, str]:
    """The CPU seconds (user + system) of ``excover count path`` under the tree ``src``,
    and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "excover", "count", str(path), "--quiet"],
        env={**os.environ, "PYTHONPATH": src},
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return seconds, done.stdout.strip()


def dlx_files(before: str, repeat: int) -> None:
    here = str(ROOT / "src")
    print("\n| file | solutions | before (s CPU) | after (s CPU) | after / before |")
    print("|---|--:|--:|--:|--:|")
    ratios = []
    for path in sorted(KNUTH.glob("*.dlx")):
        best = {before: float("inf"), here: float("inf")}
        outputs = set()
        for _ in range(repeat):
            for src in (before, here):
                seconds, out = command_cpu(src, path)
                best[src] = min(best[src], seconds)
                outputs.add(out)
        if len(outputs) != 1:
            raise AssertionError(f"{path.name}: counts differ: {outputs}")
        ratio = best[here] / best[before]
        ratios.append(ratio)
        print(
            f"| {path.name} | {int(outputs.pop()):,} | {best[before]:.3f} | {best[here]:.3f} "
            f"| {ratio:.3f} |",
            flush=True,
        )
    print(f"\nmean after / before: {sum(ratios) / len(ratios):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds (best kept)")
    parser.add_argument("--before", metavar="SRC", help="compare .dlx counts with this tree")
    parser.add_argument("--against", metavar="SRC", help="compare the defaults with this tree")
    parser.add_argument("--child", nargs=2, metavar=("BOARD", "FRONT_END"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        board, front_end = args.child
        return child(board, front_end, args.repeat)
    front_ends(args.repeat)
    if args.against:
        against(args.against, args.repeat)
    if args.before:
        dlx_files(args.before, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
