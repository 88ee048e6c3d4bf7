"""The 25x25 tournament sets side by side with LalaFrogKK, the tournaments' champion.

Each set of the TAAI, TCGA and ICGA computer nonogram tournaments is a file of 1,000
25x25 puzzles, and the tournament's job is one picture of each, first to last, as fast
as possible. For every set, in one run, this script times two whole processes on the
whole file, one after the other:

* **LalaFrogKK** (CGI Lab, NCTU; it won every TAAI, TCGA and Computer Olympiad nonogram
  tournament from 2011 to 2015), built from source by ``benchmarks/build-lalafrog.sh
  CHECKOUT_OR_BARE_GIT_DIR`` into ``~/.cache/excover-bench/lalafrog`` (``--lalafrog``): run
  in a temporary folder on the file as ``input.txt``, it writes ``solution.txt``;
* ``python -m excover nonogram FILE``, which prints one picture per puzzle (``$N`` and
  the rows);

and, with ``--classify``, ``python -m excover nonogram --classify FILE`` as well, a harder
job (each puzzle's picture proved unique, or a second one found), reported apart.

Both programs' pictures are checked against the clues by this script's own checker,
which reads the tournament file itself and recomputes every row's and column's blocks;
a missing picture counts as a failure. Times are wall clock and CPU seconds (of the
child process, from ``resource.getrusage``); the ratio is excover's over LalaFrogKK's.

**Data**: ``~/.cache/excover-bench/nonogram/tournament/question/*.txt`` (``--data-dir``),
fetched from zxkyjimmy/NonogramRecord (GPL-3.0) by ``python
benchmarks/nonogram_pbnsolve.py --fetch``. Each run takes minutes per set and program.

Usage: ``python benchmarks/nonogram_tournament.py [--sets taai2011,tcga2016,...]
[--classify] [--lalafrog PATH] [--data-dir DIR] [--timeout S]``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Run", "blocks", "main", "read_clues", "read_excover", "read_lalafrog"]

#: A puzzle's clues as the tournament file gives them: 25 columns, then 25 rows.
Clues = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]

SIZE = 25
DEFAULT_DATA = Path.home() / ".cache/excover-bench/nonogram"
DEFAULT_LALAFROG = Path.home() / ".cache/excover-bench/lalafrog/bin/lalafrog"


@dataclass
class Run:
    """One program's run on one file: its times and what the checker made of it."""

    wall: float
    cpu: float
    ok: int = 0  # pictures that fit the clues
    wrong: int = 0  # pictures that break a clue
    missing: int = 0  # puzzles without a picture
    note: str = ""


def read_clues(path: Path) -> dict[int, Clues]:
    """The puzzles of a tournament file, by number: ``$N``, then 50 lines of block
    lengths separated by tabs or spaces, the columns' then the rows'."""
    puzzles: dict[int, Clues] = {}
    lines = [line.strip() for line in path.read_text().splitlines()]
    k = 0
    while k < len(lines):
        if not lines[k].startswith("$"):
            k += 1
            continue
        number = int(lines[k].strip("$"))
        clues = [tuple(int(n) for n in line.split() if n != "0") for line in lines[k + 1 : k + 51]]
        puzzles[number] = (tuple(clues[:SIZE]), tuple(clues[SIZE:]))
        k += 51
    return puzzles


def blocks(cells: Sequence[bool]) -> tuple[int, ...]:
    """The lengths of the runs of black cells of a line."""
    return tuple(len(list(run)) for black, run in itertools.groupby(cells) if black)


def fits(clues: Clues, picture: list[list[bool]]) -> bool:
    """Whether a 25x25 picture (rows of cells, True black) fits the clues."""
    cols, rows = clues
    if len(picture) != SIZE or any(len(row) != SIZE for row in picture):
        return False
    return all(blocks(row) == clue for row, clue in zip(picture, rows, strict=True)) and all(
        blocks([row[c] for row in picture]) == clue for c, clue in enumerate(cols)
    )


def _pictures(text: str, black: str, split: bool) -> dict[int, list[list[bool]]]:
    """The pictures of an output of ``$N`` lines, each followed by its rows."""
    pictures: dict[int, list[list[bool]]] = {}
    number = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("$"):
            number = int(line.strip("$"))
            pictures[number] = []
        elif line and number is not None:
            cells = line.split() if split else list(line)
            pictures[number].append([cell == black for cell in cells])
    return pictures


def read_lalafrog(text: str) -> dict[int, list[list[bool]]]:
    """LalaFrogKK's ``solution.txt``: rows of tab-separated 0 and 1."""
    return _pictures(text, "1", split=True)


def read_excover(text: str) -> dict[int, list[list[bool]]]:
    """``excover nonogram FILE``'s output: rows of ``#`` and ``.``."""
    return _pictures(text, "#", split=False)


def _check(run: Run, puzzles: dict[int, Clues], pictures: dict[int, list[list[bool]]]) -> Run:
    for number, clues in puzzles.items():
        picture = pictures.get(number)
        if not picture:
            run.missing += 1
        elif fits(clues, picture):
            run.ok += 1
        else:
            run.wrong += 1
    return run


def _timed(command: list[str], cwd: Path, timeout: float) -> tuple[Run, str]:
    """The wall and CPU seconds of ``command`` (the CPU time of the finished child, noted
    when it was stopped at ``timeout``), and its standard output ('' when stopped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    note = ""
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
        out = done.stdout
    except subprocess.TimeoutExpired:
        out, note = "", f"stopped at {timeout:g} s"
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Run(wall, cpu, note=note), out


def _lalafrog(binary: Path, path: Path, puzzles: dict[int, Clues], timeout: float) -> Run:
    with tempfile.TemporaryDirectory(prefix="excover-lalafrog-") as folder:
        work = Path(folder)
        shutil.copyfile(path, work / "input.txt")
        run, _ = _timed([str(binary)], work, timeout)
        answers = work / "solution.txt"  # written puzzle by puzzle: partial when stopped
        text = answers.read_text() if answers.exists() else ""
    return _check(run, puzzles, read_lalafrog(text))


def _excover(path: Path, puzzles: dict[int, Clues], timeout: float, classify: bool) -> Run:
    command = [sys.executable, "-m", "excover", "nonogram", str(path)]
    if classify:
        command.insert(-1, "--classify")
    run, out = _timed(command, path.parent, timeout)
    if classify:
        words = out.split()
        run.ok = len(words)
        run.note = run.note or str({word: words.count(word) for word in sorted(set(words))})
        return run
    return _check(run, puzzles, read_excover(out))


def _stopped(run: Run) -> str:
    return f" ({run.note})" if run.note else ""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the comparison and print one line per set, then the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--lalafrog", type=Path, default=DEFAULT_LALAFROG)
    parser.add_argument("--sets", default="", help="e.g. taai2011,tcga2016 (default: all)")
    parser.add_argument(
        "--classify", action="store_true", help="also time excover --classify on each file"
    )
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per program")
    args = parser.parse_args(argv)
    folder = args.data_dir / "tournament" / "question"
    names = [name for name in args.sets.split(",") if name] or sorted(
        path.stem for path in folder.glob("*.txt")
    )
    if not names:
        raise SystemExit(f"no tournament file in {folder} (fetch: nonogram_pbnsolve.py --fetch)")
    if not args.lalafrog.exists():
        raise SystemExit(f"{args.lalafrog} not found (build: benchmarks/build-lalafrog.sh)")
    load = os.getloadavg()[0]
    print(
        f"excover against {args.lalafrog} ({os.cpu_count()} cores, load average {load:.2f});"
        " whole processes on whole files, one picture per puzzle; seconds"
    )
    print(
        f"  {'set':<10} {'puzzles':>7} {'Lala wall':>9} {'Lala cpu':>9} "
        f"{'excover wall':>12} {'excover cpu':>11} {'ratio':>6}  checked (ok/wrong/missing)"
        + ("  | classify wall, cpu, answers" if args.classify else "")
    )
    totals = [0.0, 0.0, 0.0, 0.0]
    for name in names:
        path = folder / f"{name}.txt"
        puzzles = read_clues(path)
        lala = _lalafrog(args.lalafrog, path, puzzles, args.timeout)
        ours = _excover(path, puzzles, args.timeout, classify=False)
        line = (
            f"  {name:<10} {len(puzzles):>7} {lala.wall:9.1f} {lala.cpu:9.1f} "
            f"{ours.wall:12.1f} {ours.cpu:11.1f} {ours.cpu / lala.cpu:6.2f}  "
            f"Lala {lala.ok}/{lala.wrong}/{lala.missing}{_stopped(lala)}, "
            f"excover {ours.ok}/{ours.wrong}/{ours.missing}{_stopped(ours)}"
        )
        if args.classify:
            full = _excover(path, puzzles, args.timeout, classify=True)
            line += f"  | {full.wall:.1f}, {full.cpu:.1f}, {full.note}"
        print(line, flush=True)
        for k, value in enumerate((lala.wall, lala.cpu, ours.wall, ours.cpu)):
            totals[k] += value
    print(
        f"  {'all':<10} {'':>7} {totals[0]:9.1f} {totals[1]:9.1f} {totals[2]:12.1f} "
        f"{totals[3]:11.1f} {totals[3] / totals[1]:6.2f}"
    )


if __name__ == "__main__":
    main()
