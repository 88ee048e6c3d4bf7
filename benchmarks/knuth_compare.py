"""Time excover against Knuth's DLX1, DLX2, SSXCC and SSMCC on the same inputs.

One row per input, each program run ``--repeat`` times (default 3) interleaved (every
program once, then every program again, ...), so that a busy machine slows all of them
alike; every cell is the best of its runs, in seconds of wall-clock time:

* ``in-proc s``: ``Search(problem, engine=E).count()`` in this process, the problem
  already read, timed around ``count()`` only; one column per engine of ``--engines``
  (default ``auto``). ``engine`` names the engine that ran for the first of them (for
  ``auto``: the one auto picked) and ``alg`` Knuth's algorithm it ran (X, C or M).
* ``process s``: ``python -m excover count FILE``, the whole process (start-up, reading,
  counting). A ``†`` marks a row where that command counted by another method than
  dancing links (its ``--method auto`` may take the ZDD frontier count).
* ``DLX1 s`` ... ``SSMCC s``: Knuth's program as a whole process, ``prog < FILE`` (its
  reading of the file included), the count taken from its closing line on stderr,
  ``Altogether N solutions, ...``. DLX1 takes plain exact cover only (X rows), DLX2 and
  SSXCC colors too (X and XCC rows), SSMCC multiplicities (MCC rows); ``—`` marks a
  program not run on the row, ``missing`` one not found.
* ratios: excover's time over the best (fastest) of Knuth's programs on the row, named in
  ``best Knuth``; below 1, excover was faster.

Every count must agree: excover's with the MANIFEST.md of ``tests/data/knuth`` (or the
count known for the inputs built here), every program's with excover's; a disagreement
stops the script with exit status 1. A last line gives the largest ratios over the rows
where the best Knuth program took more than 0.1 s.

Inputs: Knuth's ``.dlx`` files of ``tests/data/knuth`` except those its MANIFEST.md marks
as too many for plain DLX (``domino10x10``, ``domino12x12``); two 20x20 and 18x18
nonograms in exact-cover-with-colors form (``nonogram20x20``, ``nonogram18x18``, from
:mod:`excover.nonogram.xcc`, 2 solutions each); and two polyomino tilings with
multiplicities: the 6x6 square by pentominoes, each used 0 to 2 times (``pento6x6-m0-2``,
no solution), and the 8x5 rectangle by tetrominoes, each used 1 to 3 times
(``tetro8x5-m1-3``, 78,146 solutions). The built inputs are written in Knuth's format to
a temporary directory for the programs that read files.

Knuth's programs are the executables ``dlx1``, ``dlx2``, ``ssxcc`` and ``ssmcc`` of one
directory: ``--knuth-dir DIR`` if given, else ``$EXCOVER_KNUTH_DIR`` if set, else
``~/.cache/excover-bench/knuth``. Without some of them the script still runs, says
``missing`` in their columns and tells at the end how to build them.

Building Knuth's programs: his CWEB sources ``dlx1.w``, ``dlx2.w``, ``ssxcc.w`` and
``ssmcc.w``, with ``gb_flip.w`` (the random-number module of the Stanford GraphBase, which
they all include), are in the public GitHub repository ascherer/cwebtest. ``ctangle``
(Debian and Ubuntu package ``texlive-binaries``) turns each ``.w`` file into C; compile
``gb_flip`` once and link it into each program. As a shell script (``build-knuth.sh``)::

    git clone --depth 1 https://github.com/ascherer/cwebtest && cd cwebtest
    ctangle gb_flip.w && gcc -O3 -march=native -c gb_flip.c
    for p in dlx1 dlx2 ssxcc ssmcc; do
        ctangle $p.w && gcc -O3 -march=native -o $p $p.c gb_flip.o
    done
    mkdir -p ~/.cache/excover-bench/knuth && cp dlx1 dlx2 ssxcc ssmcc ~/.cache/excover-bench/knuth/

Usage: ``python benchmarks/knuth_compare.py [--repeat N] [--files NAME ...] [--skip-large]
[--engines auto,dlx,bits] [--knuth-dir DIR] [--markdown]``. Ctrl-C stops after the rows
measured so far, with their summary.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from _data import KNUTH_DATA, require

from excover import ExactCover, Search, UsageError, nonogram
from excover.engines import ENGINES, pick_engine
from excover.nonogram import xcc
from excover.tiling import Pattern, Tiling, pentominoes, tetrominoes, tiles

__all__ = ["main"]

#: Knuth's programs, in column order, with their names in the table.
PROGRAMS = {"dlx1": "DLX1", "dlx2": "DLX2", "ssxcc": "SSXCC", "ssmcc": "SSMCC"}

#: The programs run on each kind of problem.
RUNS_ON = {"X": ("dlx1", "dlx2", "ssxcc"), "XCC": ("dlx2", "ssxcc"), "MCC": ("ssmcc",)}

DEFAULT_KNUTH_DIR = Path.home() / ".cache" / "excover-bench" / "knuth"
KNUTH_DIR_VARIABLE = "EXCOVER_KNUTH_DIR"

#: Rows whose DLX1 time in MANIFEST.md reaches this many seconds are left out by --skip-large.
LARGE_SECONDS = 1.0

#: The summary's ratios only cover rows where the best Knuth program took longer than this.
SUMMARY_SECONDS = 0.1

#: The closing line of Knuth's programs on stderr.
ALTOGETHER = re.compile(r"Altogether (\d+) solutions?,")

#: The line on stderr where ``excover count`` names the method that ran.
CLI_METHOD = re.compile(r"excover: method (\w+)")

BUILD_SCRIPT = """\
    git clone --depth 1 https://github.com/ascherer/cwebtest && cd cwebtest
    ctangle gb_flip.w && gcc -O3 -march=native -c gb_flip.c
    for p in dlx1 dlx2 ssxcc ssmcc; do
        ctangle $p.w && gcc -O3 -march=native -o $p $p.c gb_flip.o
    done
    mkdir -p {dir} && cp dlx1 dlx2 ssxcc ssmcc {dir}/"""


class CountMismatch(Exception):
    """Two programs, or a program and the reference, disagree on a row's count."""


class ProgramFailed(Exception):
    """A program of the comparison did not end normally or printed no count."""


@dataclass(frozen=True)
class Case:
    """One input: its row name, how to build the problem, its ``.dlx`` file (None for the
    inputs built here, written to a temporary directory), the known count, and whether
    DLX1 needs a second or more on it."""

    name: str
    build: Callable[[], ExactCover]
    path: Path | None
    expected: int | None
    large: bool = False

    def matches(self, wanted: str) -> bool:
        """Whether ``--files`` names this row, with or without ``.dlx``."""
        return wanted.removesuffix(".dlx") == self.name.removesuffix(".dlx")


@dataclass(frozen=True)
class Run:
    """One timed run: the count, the wall-clock seconds, and what ran (an engine and an
    algorithm for excover in-process, a method for ``excover count``)."""

    count: int
    seconds: float
    engine: str = ""
    algorithm: str = ""


@dataclass
class Row:
    """The measurements of one input (best runs by task key)."""

    name: str
    kind: str
    programs: tuple[str, ...]
    unusable: dict[str, str] = field(default_factory=dict)
    best: dict[str, Run] = field(default_factory=dict)

    def knuth_best(self) -> tuple[str, float] | None:
        """The fastest of Knuth's programs run on the row, and its seconds."""
        times = [(name, self.best[name].seconds) for name in self.programs if name in self.best]
        return min(times, key=lambda pair: pair[1]) if times else None


# ----- inputs -----


def read_manifest(path: Path) -> tuple[dict[str, tuple[int, bool]], set[str]]:
    """From MANIFEST.md: DLX1's count of each file with whether it took DLX1 at least
    LARGE_SECONDS, and the files marked too many for plain DLX."""
    counts: dict[str, tuple[int, bool]] = {}
    too_many: set[str] = set()
    for line in path.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or ".dlx" not in cells[0]:
            continue
        name = cells[0].split()[0]
        if "too many" in line:
            too_many.add(name)
            continue
        seconds = [float(number) for number in re.findall(r"\d+(?:\.\d+)?", cells[4])]
        counts[name] = (int(cells[1].replace(",", "")), max(seconds, default=0) >= LARGE_SECONDS)
    return counts, too_many


def natural_key(name: str) -> tuple[str | int, ...]:
    """Sorts ``queens8`` before ``queens10``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def knuth_cases() -> list[Case]:
    """Knuth's files, except those too many for plain DLX."""
    counts, too_many = read_manifest(require(KNUTH_DATA / "MANIFEST.md"))
    cases = []
    for path in sorted(KNUTH_DATA.glob("*.dlx"), key=lambda p: natural_key(p.name)):
        if path.name in too_many:
            continue
        expected, large = counts.get(path.name, (None, False))
        cases.append(Case(path.name, partial(ExactCover.read, path), path, expected, large))
    return cases


def nonogram_problem(rows: int, columns: int, density: float, seed: int) -> ExactCover:
    """A random nonogram as an exact cover problem with colors."""
    puzzle = nonogram.generate(rows, columns, density, random.Random(seed))
    problem, _ = xcc.problem(puzzle)
    return problem


def pentomino_square() -> ExactCover:
    """The 6x6 square by pentominoes, each used 0 to 2 times."""
    return Tiling(Pattern.constant(6, 6), tiles(pentominoes(), multiplicity=(0, 2))).problem


def tetromino_rectangle() -> ExactCover:
    """The 8x5 rectangle by tetrominoes, each used 1 to 3 times."""
    return Tiling(Pattern.constant(8, 5), tiles(tetrominoes(), multiplicity=(1, 3))).problem


def built_cases() -> list[Case]:
    """The inputs built here: two XCC nonograms and two MCC tilings, with their counts."""
    return [
        Case("nonogram20x20", partial(nonogram_problem, 20, 20, 0.6, 2), None, 2),
        Case("nonogram18x18", partial(nonogram_problem, 18, 18, 0.5, 1), None, 2),
        Case("pento6x6-m0-2", pentomino_square, None, 0),
        Case("tetro8x5-m1-3", tetromino_rectangle, None, 78_146),
    ]


def kind_of(problem: ExactCover) -> str:
    """``MCC`` with multiplicities other than 1, else ``XCC`` with colors, else ``X``."""
    if any(problem.multiplicity(i) != (1, 1) for i in range(problem.n_primary)):
        return "MCC"
    return "XCC" if problem.color_names else "X"


# ----- Knuth's programs -----


def knuth_dir(given: Path | None) -> Path:
    """The directory of Knuth's programs: ``--knuth-dir``, else $EXCOVER_KNUTH_DIR, else
    the default cache directory."""
    if given is not None:
        return given
    from_environment = os.environ.get(KNUTH_DIR_VARIABLE)
    return Path(from_environment) if from_environment else DEFAULT_KNUTH_DIR


def find_programs(directory: Path) -> dict[str, Path]:
    """Knuth's programs found in ``directory`` (executables, ``.exe`` accepted), by name."""
    found: dict[str, Path] = {}
    for name in PROGRAMS:
        for candidate in (directory / name, directory / f"{name}.exe"):
            if candidate.is_file() and os.access(candidate, os.X_OK):
                found[name] = candidate
                break
    return found


def interrupted(returncode: int) -> bool:
    """Whether a child process ended because of Ctrl-C."""
    return returncode in (-signal.SIGINT, 130, 0xC000013A)


def run_knuth(program: Path, path: Path) -> Run:
    """One whole-process run of a Knuth program reading ``path`` on stdin."""
    with path.open("rb") as stdin:
        started = time.perf_counter()
        done = subprocess.run(
            [str(program)],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - started
    if interrupted(done.returncode):
        raise KeyboardInterrupt
    match = ALTOGETHER.search(done.stderr)
    if done.returncode != 0 or match is None:
        tail = "\n".join(done.stderr.splitlines()[-5:])
        raise ProgramFailed(f"{program} < {path} exited {done.returncode}:\n{tail}")
    return Run(int(match[1]), seconds)


# ----- excover -----


def run_in_process(problem: ExactCover, engine: str) -> Run:
    """One count by ``Search(problem, engine=engine)``, timed around ``count()`` only."""
    search = Search(problem, engine=engine)
    started = time.perf_counter()
    count = search.count()
    seconds = time.perf_counter() - started
    return Run(count, seconds, search.stats.engine, search.stats.algorithm)


def run_cli(path: Path) -> Run:
    """One whole-process run of ``python -m excover count path``."""
    command = [sys.executable, "-m", "excover", "count", str(path)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if interrupted(done.returncode):
        raise KeyboardInterrupt
    if done.returncode != 0 or not done.stdout.strip().isdigit():
        raise ProgramFailed(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    method = CLI_METHOD.search(done.stderr)
    return Run(int(done.stdout), seconds, engine=method[1] if method else "?")


# ----- measuring -----


def in_process_key(engine: str) -> str:
    """The task key of excover's in-process count by ``engine``."""
    return f"in-process {engine}"


PROCESS_KEY = "process"


def tasks_of(
    row: Row, problem: ExactCover, path: Path, engines: Sequence[str], found: dict[str, Path]
) -> list[tuple[str, Callable[[], Run]]]:
    """What to time on a row, in order: excover in-process (each engine that can run the
    problem), excover as a process, and Knuth's programs found for the row's kind."""
    tasks: list[tuple[str, Callable[[], Run]]] = []
    for engine in engines:
        try:
            pick_engine(problem, engine)
        except UsageError as error:
            row.unusable[engine] = str(error)
            continue
        tasks.append((in_process_key(engine), partial(run_in_process, problem, engine)))
    tasks.append((PROCESS_KEY, partial(run_cli, path)))
    tasks.extend((name, partial(run_knuth, found[name], path)) for name in row.programs)
    return tasks


def label(key: str) -> str:
    """A task's name in messages."""
    if key in PROGRAMS:
        return PROGRAMS[key]
    return "excover count" if key == PROCESS_KEY else f"excover ({key.split()[-1]})"


def measure(
    case: Case,
    problem: ExactCover,
    path: Path,
    engines: Sequence[str],
    found: dict[str, Path],
    repeat: int,
) -> Row:
    """Time every task of the row ``repeat`` times, interleaved, keeping each one's best
    run; any count that differs from the reference raises CountMismatch."""
    kind = kind_of(problem)
    row = Row(case.name, kind, tuple(name for name in RUNS_ON[kind] if name in found))
    tasks = tasks_of(row, problem, path, engines, found)
    reference, source = case.expected, "the known count"
    for _ in range(repeat):
        for key, task in tasks:
            run = task()
            if reference is None:
                reference, source = run.count, label(key)
            if run.count != reference:
                raise CountMismatch(
                    f"{case.name}: {label(key)} counts {run.count:,} solutions, "
                    f"but {source} is {reference:,}"
                )
            if key not in row.best or run.seconds < row.best[key].seconds:
                row.best[key] = run
    return row


def input_path(case: Case, problem: ExactCover, scratch: Path) -> Path:
    """The ``.dlx`` file of a row, written to ``scratch`` for the inputs built here."""
    if case.path is not None:
        return case.path
    path = scratch / f"{case.name}.dlx"
    path.write_text(problem.to_dlx())
    return path


# ----- the table -----


@dataclass(frozen=True)
class Column:
    """A column of the table: its header, alignment (numbers to the right) and width."""

    header: str
    numeric: bool
    width: int


class Table:
    """Prints rows one at a time, as aligned text or as a Markdown table."""

    def __init__(self, engines: Sequence[str], names: Sequence[str], markdown: bool) -> None:
        self.engines = list(engines)
        self.markdown = markdown
        several = len(engines) > 1

        def suffix(engine: str) -> str:
            return f" ({engine})" if several else ""

        specs = [
            ("input", False, max(map(len, names), default=5)),
            ("kind", False, 3),
            ("solutions", True, 10),
            ("engine", False, 4),
            ("alg", False, 3),
            *((f"in-proc s{suffix(engine)}", True, 7) for engine in engines),
            ("process s", True, 7),
            *((f"{title} s", True, 7) for title in PROGRAMS.values()),
            ("best Knuth", False, 5),
            *((f"in-proc ratio{suffix(engine)}", True, 5) for engine in engines),
            ("process ratio", True, 5),
        ]
        self.columns = [Column(head, numeric, max(len(head), w)) for head, numeric, w in specs]

    def line(self, values: Sequence[str]) -> str:
        """One line of cells, padded to the column widths."""
        padded = [
            value.rjust(column.width) if column.numeric else value.ljust(column.width)
            for value, column in zip(values, self.columns, strict=True)
        ]
        if self.markdown:
            return "| " + " | ".join(padded) + " |"
        return "  ".join(padded).rstrip()

    def header(self) -> str:
        """The header line and the rule under it."""
        heads = self.line([column.header for column in self.columns])
        if self.markdown:
            rule = "|" + "|".join(
                "-" * (column.width + 1) + (":" if column.numeric else "-")
                for column in self.columns
            )
            return heads + "\n" + rule + "|"
        return heads + "\n" + "  ".join("-" * column.width for column in self.columns)

    def cells(self, row: Row, found: dict[str, Path]) -> list[str]:
        """One row's cells."""
        process = row.best[PROCESS_KEY]
        keys = [*map(in_process_key, self.engines), PROCESS_KEY]
        first = next(row.best[key] for key in keys if key in row.best)
        best = row.knuth_best()
        ran = (first.engine, first.algorithm) if first is not process else ("n/a", "")
        values = [row.name, row.kind, f"{first.count:,}", *ran]
        values += [self.seconds(row, in_process_key(engine)) for engine in self.engines]
        values.append(self.seconds(row, PROCESS_KEY) + ("" if process.engine == "dlx" else "†"))
        for name in PROGRAMS:
            if name not in RUNS_ON[row.kind]:
                values.append("—")
            else:
                values.append(self.seconds(row, name) if name in found else "missing")
        values.append(PROGRAMS[best[0]] if best else "—")
        values += [ratio(row, key, best) for key in keys]
        return values

    @staticmethod
    def seconds(row: Row, key: str) -> str:
        """A task's best time, or ``n/a`` for an engine that could not run the row."""
        return f"{row.best[key].seconds:.3f}" if key in row.best else "n/a"


def ratio(row: Row, key: str, best: tuple[str, float] | None) -> str:
    """excover's time over the best Knuth time, 2 decimals (``—`` without either)."""
    if best is None or key not in row.best or best[1] <= 0:
        return "—"
    return f"{row.best[key].seconds / best[1]:.2f}"


def summary(rows: Sequence[Row], engines: Sequence[str]) -> str:
    """The largest ratios over the rows where the best Knuth program took over
    SUMMARY_SECONDS."""
    slow = [(row, best) for row in rows if (best := row.knuth_best()) and best[1] > SUMMARY_SECONDS]
    if not slow:
        return f"No row where the best Knuth program took over {SUMMARY_SECONDS} s."
    parts = []
    for engine in [*engines, None]:
        key = PROCESS_KEY if engine is None else in_process_key(engine)
        ratios = [
            (row.best[key].seconds / best[1], row.name) for row, best in slow if key in row.best
        ]
        if not ratios:
            continue
        worst, name = max(ratios)
        title = "process" if engine is None else f"in-process ({engine})"
        parts.append(f"{title} {worst:.2f} ({name})")
    return (
        f"Largest ratios over the {len(slow)} rows where the best Knuth program took over "
        f"{SUMMARY_SECONDS} s: " + ", ".join(parts) + "."
    )


def notes(rows: Sequence[Row], directory: Path, found: dict[str, Path], repeat: int) -> list[str]:
    """The notes after the table: the runs, the † marks, engines that could not run, and
    how to build the programs that are missing."""
    lines = [
        f"Best of {repeat} interleaved run(s), wall-clock seconds; ratios are excover's time "
        "over the best Knuth program's (below 1: excover faster)."
    ]
    other = [
        f"{row.name} ({row.best[PROCESS_KEY].engine})"
        for row in rows
        if row.best[PROCESS_KEY].engine != "dlx"
    ]
    if other:
        lines.append(
            "† excover count chose another method than dancing links on: " + ", ".join(other)
        )
    for row in rows:
        for engine, why in row.unusable.items():
            lines.append(f"n/a: engine {engine} on {row.name}: {why}")
    missing = [name for name in PROGRAMS if name not in found]
    if missing:
        lines += [
            f"Knuth's programs missing from {directory}: {', '.join(missing)} "
            "(their columns say 'missing').",
            "Build them from Knuth's CWEB sources dlx1.w, dlx2.w, ssxcc.w, ssmcc.w and "
            "gb_flip.w of the public GitHub repository ascherer/cwebtest, with ctangle "
            "(package texlive-binaries) and gcc, e.g. with this script (build-knuth.sh):",
            BUILD_SCRIPT.format(dir=directory),
            f"or point --knuth-dir or ${KNUTH_DIR_VARIABLE} to where they are.",
        ]
    return lines


# ----- command line -----


def parse_engines(text: str) -> list[str]:
    """``auto,dlx,bits`` as a list of known engines, each once."""
    engines = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [engine for engine in engines if engine not in ENGINES]
    if not engines or unknown:
        raise argparse.ArgumentTypeError(
            f"engines are a comma-separated list of {', '.join(ENGINES)}, not {text!r}"
        )
    return engines


def parser() -> argparse.ArgumentParser:
    """The command line."""
    parse = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parse.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="N",
        help="runs of every program per row, interleaved; the best one counts (default 3)",
    )
    parse.add_argument(
        "--files", nargs="+", metavar="NAME", help="only these rows, by file or row name"
    )
    parse.add_argument(
        "--skip-large",
        action="store_true",
        help=f"leave out Knuth's files that took DLX1 {LARGE_SECONDS:g} s or more (MANIFEST.md)",
    )
    parse.add_argument(
        "--engines",
        type=parse_engines,
        default=["auto"],
        metavar="E,E...",
        help=f"excover engines timed in-process, among {', '.join(ENGINES)} (default auto)",
    )
    parse.add_argument(
        "--knuth-dir",
        type=Path,
        metavar="DIR",
        help=f"where dlx1, dlx2, ssxcc and ssmcc are (default ${KNUTH_DIR_VARIABLE}, "
        f"else {DEFAULT_KNUTH_DIR})",
    )
    parse.add_argument("--markdown", action="store_true", help="print a Markdown table")
    return parse


def select(cases: list[Case], names: Sequence[str] | None, skip_large: bool) -> list[Case]:
    """The rows asked for; an unknown name is an error."""
    if names:
        unknown = [name for name in names if not any(case.matches(name) for case in cases)]
        if unknown:
            choices = ", ".join(case.name for case in cases)
            parser().error(f"no row named {', '.join(unknown)}; rows: {choices}")
        cases = [case for case in cases if any(case.matches(name) for name in names)]
    return [case for case in cases if not (skip_large and case.large)]


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the rows, print the table, the summary and the notes; 1 on a count that
    disagrees or a program that fails, 130 after Ctrl-C."""
    args = parser().parse_args(argv)
    repeat = max(1, args.repeat)
    cases = select(knuth_cases() + built_cases(), args.files, args.skip_large)
    directory = knuth_dir(args.knuth_dir)
    found = find_programs(directory)
    table = Table(args.engines, [case.name for case in cases], args.markdown)
    rows: list[Row] = []
    status = 0
    print(table.header(), flush=True)
    with tempfile.TemporaryDirectory(prefix="knuth-compare-") as scratch:
        try:
            for case in cases:
                problem = case.build()
                path = input_path(case, problem, Path(scratch))
                rows.append(measure(case, problem, path, args.engines, found, repeat))
                print(table.line(table.cells(rows[-1], found)), flush=True)
        except KeyboardInterrupt:
            print(f"\nInterrupted: {len(rows)} of {len(cases)} rows measured.", flush=True)
            status = 130
        except (CountMismatch, ProgramFailed) as error:
            print(f"\nERROR: {error}", file=sys.stderr, flush=True)
            return 1
    print()
    print(summary(rows, args.engines))
    print()
    print("\n\n".join(notes(rows, directory, found, repeat)), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
