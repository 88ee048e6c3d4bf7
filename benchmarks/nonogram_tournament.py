"""The 25x25 tournament sets side by side with nonosolve and LalaFrogKK.

Each set of the TAAI, TCGA and ICGA computer nonogram tournaments is a file of 1,000
25x25 puzzles, and the tournament's job is one picture of each, first to last, as fast
as possible. For every set, in one run, this script times whole processes on the whole
file, one after the other:

* **nonosolve** (FastNonogramSolver, hyouv, 2026: a bit-parallel line solver, probing,
  search with restarts, CaDiCaL and Kissat), built from its public source (``-O3
  -march=native``) into ``~/.cache/excover-bench/nonosolve/bin/nonosolve``
  (``--nonosolve``), run as ``nonosolve --taai FILE -o sol.txt --log log.txt`` in a
  temporary folder (``log.txt``: its seconds per puzzle);
* **LalaFrogKK** (CGI Lab, NCTU; it won every TAAI, TCGA and Computer Olympiad nonogram
  tournament from 2011 to 2015), built from its public source into
  ``~/.cache/excover-bench/lalafrog/bin/lalafrog`` (``--lalafrog``): run in a temporary
  folder on the file as ``input.txt``, it writes ``solution.txt`` and ``log.txt`` (its
  own CPU seconds per puzzle);
* ``python -m excover nonogram FILE``, which prints one picture per puzzle (``$N`` and
  the rows, flushed as each is found);

and, with ``--classify``, ``python -m excover nonogram --classify FILE`` as well, a harder
job (each puzzle's picture proved unique, or a second one found), reported apart.
``--references nonosolve,lalafrog`` picks the reference programs (both by default).

Every program's pictures are checked against the clues by this script's own checker,
which reads the tournament file itself and recomputes every row's and column's blocks;
a missing picture counts as a failure. Times are wall clock and CPU seconds (of the
child process, from ``resource.getrusage``); the ratios are excover's over each
reference's. Under each set come the slowest puzzles of each program: the references'
by their logs, excover's by the time between two pictures arriving on its output (the
first includes Python's start-up). ``--times FILE`` writes every puzzle's times as
tab-separated lines (set, puzzle, then each program's seconds, excover's last).

``--limit N`` takes the first N puzzles of each file (a quick run). LalaFrogKK reads
exactly 1,000 puzzles (``NUM_OF_QUESTIONS`` in its ``config.h``), so its ``input.txt`` is
then filled up to 1,000 with the all-black puzzle (every clue 25), which it settles by
line solving (0.02 s for 1,000); their pictures are not checked. Every LalaFrogKK run
also pays about 0.5 s of system time to map its tables (790 MB) at the start.

**Data**: ``~/.cache/excover-bench/nonogram/tournament/question/*.txt`` (``--data-dir``),
fetched from zxkyjimmy/NonogramRecord (GPL-3.0) by ``python
benchmarks/nonogram_pbnsolve.py --fetch``. A full set takes minutes per program.

Usage: ``python benchmarks/nonogram_tournament.py [--sets taai2011,tcga2016,...]
[--references nonosolve,lalafrog] [--limit N] [--classify] [--times FILE]
[--nonosolve PATH] [--lalafrog PATH] [--data-dir DIR] [--timeout S]``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

__all__ = ["Run", "blocks", "main", "read_clues", "read_excover", "read_zero_one"]

#: A puzzle's clues as the tournament file gives them: 25 columns, then 25 rows.
Clues = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]

SIZE = 25
QUESTIONS = 1000  # LalaFrogKK's NUM_OF_QUESTIONS
DEFAULT_DATA = Path.home() / ".cache/excover-bench/nonogram"
DEFAULT_LALAFROG = Path.home() / ".cache/excover-bench/lalafrog/bin/lalafrog"
DEFAULT_NONOSOLVE = Path.home() / ".cache/excover-bench/nonosolve/bin/nonosolve"
REFERENCES = {"nonosolve": "nonosolve", "lalafrog": "LalaFrogKK"}
SLOWEST = 3  # puzzles listed per program under each set


@dataclass
class Run:
    """One program's run on one file: its times and what the checker made of it."""

    wall: float
    cpu: float
    ok: int = 0  # pictures that fit the clues
    wrong: int = 0  # pictures that break a clue
    missing: int = 0  # puzzles without a picture
    note: str = ""
    times: dict[int, float] = field(default_factory=dict)  # seconds per puzzle
    failed: list[int] = field(default_factory=list)  # puzzles wrong or missing


def _blocks_of_file(path: Path) -> dict[int, list[str]]:
    """The puzzles of a tournament file as text, by number: each its ``$N`` line and the
    50 clue lines that follow it."""
    lines = path.read_text().splitlines()
    found: dict[int, list[str]] = {}
    k = 0
    while k < len(lines):
        if lines[k].strip().startswith("$"):
            found[int(lines[k].strip().strip("$"))] = lines[k : k + 2 * SIZE + 1]
            k += 2 * SIZE + 1
        else:
            k += 1
    return found


def read_clues(path: Path) -> dict[int, Clues]:
    """The puzzles of a tournament file, by number: ``$N``, then 50 lines of block
    lengths separated by tabs or spaces, the columns' then the rows'."""
    puzzles: dict[int, Clues] = {}
    for number, block in _blocks_of_file(path).items():
        clues = [tuple(int(n) for n in line.split() if n != "0") for line in block[1:]]
        puzzles[number] = (tuple(clues[:SIZE]), tuple(clues[SIZE:]))
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


def read_zero_one(text: str) -> dict[int, list[list[bool]]]:
    """LalaFrogKK's ``solution.txt`` and nonosolve's ``-o`` file: ``$N`` lines, each
    followed by rows of tab-separated 0 and 1."""
    return _pictures(text, "1", split=True)


def read_excover(text: str) -> dict[int, list[list[bool]]]:
    """``excover nonogram FILE``'s output: rows of ``#`` and ``.``."""
    return _pictures(text, "#", split=False)


def _check(run: Run, puzzles: dict[int, Clues], pictures: dict[int, list[list[bool]]]) -> Run:
    for number, clues in puzzles.items():
        picture = pictures.get(number)
        if not picture:
            run.missing += 1
            run.failed.append(number)
        elif fits(clues, picture):
            run.ok += 1
        else:
            run.wrong += 1
            run.failed.append(number)
    return run


def _timed(command: list[str], cwd: Path, timeout: float) -> tuple[Run, str]:
    """The wall and CPU seconds of ``command`` (the CPU time of the finished child, or
    of the child stopped at ``timeout``, noted), its standard output (what it wrote
    before it was stopped, too), and the seconds between two ``$N`` lines of it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    arrived: list[tuple[float, str]] = []
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=errors, text=True)
        assert child.stdout is not None

        def read(stream: IO[str]) -> None:
            for line in stream:
                arrived.append((time.perf_counter(), line))

        reader = threading.Thread(target=read, args=(child.stdout,), daemon=True)
        reader.start()
        note = ""
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            note = f"stopped at {timeout:g} s"
        wall = time.perf_counter() - started
        reader.join()
        if child.returncode and not note:
            errors.seek(0)
            tail = errors.read().decode(errors="replace").strip().splitlines()[-1:]
            note = f"exit {child.returncode}" + (f": {tail[0]}" if tail else "")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    run = Run(wall, cpu, note=note)
    last = started
    for moment, line in arrived:
        if line.startswith("$"):
            run.times[int(line.strip().strip("$"))] = moment - last
            last = moment
    return run, "".join(line for _, line in arrived)


def _read_log(run: Run, log: Path, puzzles: dict[int, Clues]) -> None:
    """Each puzzle's seconds from a reference's log: lines ``#N<tab>seconds...``."""
    for line in log.read_text().splitlines() if log.exists() else []:
        number, _, rest = line.partition("\t")
        if number.startswith("#") and int(number[1:]) in puzzles:
            run.times[int(number[1:])] = float(rest.split("\t")[0])


def _lalafrog(binary: Path, text: str, puzzles: dict[int, Clues], timeout: float) -> Run:
    with tempfile.TemporaryDirectory(prefix="excover-lalafrog-") as folder:
        work = Path(folder)
        (work / "input.txt").write_text(text)
        run, _ = _timed([str(binary.resolve())], work, timeout)
        answers = work / "solution.txt"  # written puzzle by puzzle: partial when stopped
        text = answers.read_text() if answers.exists() else ""
        _read_log(run, work / "log.txt", puzzles)
    return _check(run, puzzles, read_zero_one(text))


def _nonosolve(binary: Path, path: Path, puzzles: dict[int, Clues], timeout: float) -> Run:
    with tempfile.TemporaryDirectory(prefix="excover-nonosolve-") as folder:
        work = Path(folder)
        command = [str(binary.resolve()), "--taai", str(path.resolve())]
        run, _ = _timed([*command, "-o", "sol.txt", "--log", "log.txt"], work, timeout)
        answers = work / "sol.txt"
        text = answers.read_text() if answers.exists() else ""
        _read_log(run, work / "log.txt", puzzles)
    return _check(run, puzzles, read_zero_one(text))


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
    if len(puzzles) == 1 and not out.startswith("$"):  # a file of one is one puzzle
        out = f"${next(iter(puzzles))}\n{out}"
    return _check(run, puzzles, read_excover(out))


def _inputs(path: Path, limit: int | None, folder: Path) -> tuple[Path, str, dict[int, Clues]]:
    """The file for excover, the text of LalaFrogKK's ``input.txt`` (exactly 1,000
    puzzles) and the clues of the puzzles timed: the first ``limit`` of the file."""
    texts = _blocks_of_file(path)
    numbers = sorted(texts)[:limit]
    if len(numbers) > QUESTIONS:
        raise SystemExit(f"{path}: {len(numbers)} puzzles; LalaFrogKK reads {QUESTIONS}")
    chosen = [line for number in numbers for line in texts[number]]
    if limit is not None and limit < len(texts):
        path = folder / path.name
        path.write_text("\n".join(chosen) + "\n")
    filler = [f"${k}\n" + f"{SIZE}\n" * (2 * SIZE) for k in range(len(numbers) + 1, QUESTIONS + 1)]
    clues = read_clues(path)
    return path, "\n".join(chosen) + "\n" + "".join(filler), clues


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:6.2f}" if theirs > 0 else f"{'-':>6}"


def _slowest(name: str, run: Run) -> str:
    worst = sorted(run.times.items(), key=lambda item: -item[1])[:SLOWEST]
    text = ", ".join(f"#{number} {seconds:.2f}" for number, seconds in worst)
    if run.failed:
        text += f"; failed: {', '.join(f'#{n}' for n in run.failed[:10])}"
        text += " ..." if len(run.failed) > 10 else ""
    return f"{name} {text}"


def _status(run: Run) -> str:
    return f"{run.ok}/{run.wrong}/{run.missing}" + (f" ({run.note})" if run.note else "")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the comparison and print a few lines per set, then the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--lalafrog", type=Path, default=DEFAULT_LALAFROG)
    parser.add_argument("--nonosolve", type=Path, default=DEFAULT_NONOSOLVE)
    parser.add_argument(
        "--references", default="nonosolve,lalafrog", help="reference programs to time"
    )
    parser.add_argument("--sets", default="", help="e.g. taai2011,tcga2016 (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles of each")
    parser.add_argument(
        "--classify", action="store_true", help="also time excover --classify on each file"
    )
    parser.add_argument("--times", type=Path, default=None, help="write every puzzle's times")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per program")
    args = parser.parse_args(argv)
    folder = args.data_dir / "tournament" / "question"
    names = [name for name in args.sets.split(",") if name] or sorted(
        path.stem for path in folder.glob("*.txt")
    )
    if not names:
        raise SystemExit(f"no tournament file in {folder} (fetch: nonogram_pbnsolve.py --fetch)")
    references = [name for name in args.references.split(",") if name]
    for name in references:
        if name not in REFERENCES:
            raise SystemExit(f"unknown reference {name!r}: choose among {', '.join(REFERENCES)}")
        if not getattr(args, name).exists():
            raise SystemExit(f"{getattr(args, name)} not found: build {REFERENCES[name]} first")
    load = os.getloadavg()
    print(
        f"excover against {', '.join(REFERENCES[name] for name in references)} "
        f"({os.cpu_count()} cores, load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {time.strftime('%Y-%m-%d %H:%M')});"
        " whole processes on whole files, one picture per puzzle; seconds"
        + (f"; the first {args.limit} puzzles of each" if args.limit else "")
    )
    print(
        f"  {'set':<10} {'program':<10} {'puzzles':>7} {'wall':>8} {'cpu':>8} "
        f"{'excover/it wall':>15} {'cpu':>6}  checked ok/wrong/missing"
    )
    programs = [*(REFERENCES[name] for name in references), "excover"]
    totals = {program: [0.0, 0.0, 0] for program in programs}  # wall, cpu, ok
    times = open(args.times, "w") if args.times else None  # noqa: SIM115
    for name in names:
        runs: dict[str, Run] = {}
        with tempfile.TemporaryDirectory(prefix="excover-tournament-") as tmp:
            path, lala_input, puzzles = _inputs(folder / f"{name}.txt", args.limit, Path(tmp))
            for reference in references:
                if reference == "nonosolve":
                    runs["nonosolve"] = _nonosolve(args.nonosolve, path, puzzles, args.timeout)
                else:
                    runs["LalaFrogKK"] = _lalafrog(args.lalafrog, lala_input, puzzles, args.timeout)
            ours = runs["excover"] = _excover(path, puzzles, args.timeout, classify=False)
            full = _excover(path, puzzles, args.timeout, classify=True) if args.classify else None
        for program, run in runs.items():
            ratios = (
                f"{_ratio(ours.wall, run.wall):>15} {_ratio(ours.cpu, run.cpu)}"
                if program != "excover"
                else f"{'':>15} {'':>6}"
            )
            print(
                f"  {name:<10} {program:<10} {len(puzzles):>7} {run.wall:8.1f} {run.cpu:8.1f} "
                f"{ratios}  {_status(run)}"
            )
            totals[program][0] += run.wall
            totals[program][1] += run.cpu
            totals[program][2] += run.ok
        if full is not None:
            print(
                f"  {name:<10} {'classify':<10} {len(puzzles):>7} {full.wall:8.1f} {full.cpu:8.1f}"
                f"  {full.note}"
            )
        print(
            "    slowest: " + "; ".join(_slowest(program, run) for program, run in runs.items()),
            flush=True,
        )
        if times is not None:
            for number in sorted(puzzles):
                cells = [runs[program].times.get(number) for program in programs]
                text = "\t".join(f"{t:.4f}" if t is not None else "" for t in cells)
                times.write(f"{name}\t{number}\t{text}\n")
            times.flush()
    if times is not None:
        times.close()
    ours_total = totals["excover"]
    for program in programs:
        wall, cpu, ok = totals[program]
        ratios = (
            f"{_ratio(ours_total[0], wall):>15} {_ratio(ours_total[1], cpu)}"
            if program != "excover"
            else f"{'':>15} {'':>6}"
        )
        print(f"  {'all':<10} {program:<10} {'':>7} {wall:8.1f} {cpu:8.1f} {ratios}  {ok} ok")


if __name__ == "__main__":
    main()
