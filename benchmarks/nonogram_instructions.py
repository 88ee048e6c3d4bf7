"""Old against new by instruction counts: a fixed nonogram workload under callgrind.

On a shared machine the clock of a run varies by more than the few percent a redesign
of the compiled core may cost; the number of instructions executed does not. This
script runs one deterministic workload (no clock decides anything in it), in a fresh
process per checkout under ``valgrind --tool=callgrind``, and prints for each the
instructions of the whole process and those executed inside the compiled core
(``excover.nonogram._core``), with the ratio new / old, after checking that both gave
the same answers.

The workload: every puzzle of ``examples/nonograms``, ``tests/data/nonogram`` and
webpbn's survey sample (``benchmarks/data/nonogram_survey``, but for the three slowest)
classified by the compiled route, and rated (black and white ones); webpbn #6574 and
Knotty searched for 1,500 and 400 nodes; six random 30x30 puzzles classified, then
searched with restarts (:meth:`Core.hunt`), by decimation (:meth:`Core.guess`, at most
50 dead ends), with belief propagation (:meth:`Core.beliefs`) and two with probing of
depth 2 (:meth:`Core.probe_deep`); four random 15x15 three-colour puzzles counted up to
three solutions.

Usage: ``python benchmarks/nonogram_instructions.py OLD_SRC NEW_SRC`` (each the ``src``
folder of a checkout built in place, as for ``compare_builds.py``), or ``python
benchmarks/nonogram_instructions.py --run`` to run the workload once and print its
answers (what runs under valgrind).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["main", "workload"]

ROOT = Path(__file__).resolve().parent.parent
SURVEY = ROOT / "benchmarks" / "data" / "nonogram_survey"

#: Survey puzzles searched for a fixed number of nodes only (whole, they take seconds).
SEARCHED = (("webpbn-06574.nin", 1500), ("knotty.nin", 400))


def _colour_text(rng: random.Random, size: int) -> str:
    """A random ``size`` x ``size`` picture of three colours as a plain text puzzle."""
    picture = ["".join(rng.choice("..rgb") for _ in range(size)) for _ in range(size)]
    header = "# colour: r red #ff0000\n# colour: g green #00ff00\n# colour: b blue #0000ff\n"

    def clue(line: str) -> str:
        runs = itertools.groupby(line)
        return " ".join(f"{len(list(run))}{char}" for char, run in runs if char != ".") or "0"

    rows = "\n".join(clue(row) for row in picture)
    cols = "\n".join(clue("".join(column)) for column in zip(*picture, strict=True))
    return f"{header}{rows}\n\n{cols}\n"


def workload() -> list[object]:
    """Run the workload; its answers, in order."""
    from excover import LimitReached, nonogram
    from excover.nonogram import _core, search

    answers: list[object] = []
    files = sorted((ROOT / "examples" / "nonograms").iterdir())
    files += sorted((ROOT / "tests" / "data" / "nonogram").glob("*.txt"))
    skipped = {name for name, _ in SEARCHED} | {"faase.nin"}
    files += [path for path in sorted(SURVEY.glob("*.nin")) if path.name not in skipped]
    for path in files:
        puzzle = nonogram.read(path)
        answers.append((path.name, nonogram.classify(puzzle, method="propagate")))
        if puzzle.palette is None:
            answers.append(nonogram.rate(puzzle).level)
    for name, nodes in SEARCHED:
        try:
            answers.append(
                nonogram.classify(nonogram.read(SURVEY / name), method="propagate", max_nodes=nodes)
            )
        except LimitReached as stop:
            answers.append(str(stop))
    for seed in range(6):
        picture = nonogram.random_picture(30, 30, 0.55, random.Random(seed))
        puzzle = nonogram.puzzle_of(
            [nonogram.clue_of(row) for row in picture],
            [nonogram.clue_of("".join(column)) for column in zip(*picture, strict=True)],
        )
        answers.append(nonogram.classify(puzzle, method="propagate"))
        solver: _core.Core = search.core(puzzle)
        answers.append((solver.hunt(seed=seed + 1), solver.nodes, solver.probes))
        answers.append((solver.guess(max_failures=50), solver.nodes))
        solver.probe_only()
        answers.append(round(sum(solver.beliefs(5)[0]), 6))
        if seed < 2:
            answers.append(solver.probe_deep())
    for seed in range(4):
        colour = nonogram.loads(_colour_text(random.Random(100 + seed), 15))
        answers.append(nonogram.count(colour, limit=3, method="propagate"))
    return answers


def _instructions(src: str, scratch: Path, side: str) -> tuple[int, int, str]:
    """Run the workload under callgrind with excover from ``src``: the instructions of
    the whole process, those inside the compiled core, and the answers printed."""
    out = scratch / f"callgrind.{side}"
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--run",
        ],
        env=dict(os.environ, PYTHONPATH=os.path.abspath(src)),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the workload failed under {src}:\n{done.stderr[-2000:]}")
    total = re.search(r"Collected : (\d+)", done.stderr)
    annotated = subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    core = sum(  # each function's own instructions, those of the core's shared object
        int(line.split()[0].replace(",", ""))
        for line in annotated.splitlines()
        if re.search(r"\[[^]]*/nonogram/_core\.[^]]*\]$", line.strip())
    )
    return int(total.group(1)) if total else 0, core, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", nargs="?", help="the src folder of the older checkout")
    parser.add_argument("new", nargs="?", help="the src folder of the newer checkout")
    parser.add_argument("--run", action="store_true", help="run the workload and print it")
    args = parser.parse_args(argv)
    if args.run:
        print(workload())
        return 0
    if args.old is None or args.new is None:
        parser.error("give OLD_SRC and NEW_SRC, or --run")
    with tempfile.TemporaryDirectory() as scratch:
        old = _instructions(args.old, Path(scratch), "old")
        new = _instructions(args.new, Path(scratch), "new")
    print("| instructions | old | new | new/old |")
    print("|---|---|---|---|")
    for label, before, after in (
        ("whole process", old[0], new[0]),
        ("inside nonogram._core", old[1], new[1]),
    ):
        print(f"| {label} | {before:,} | {after:,} | {after / before:.4f} |")
    print(f"same answers: {'yes' if old[2] == new[2] else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
