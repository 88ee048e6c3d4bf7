"""Sudoku side by side with tdoku, on tdoku's own data sets.

For each data set: excover's batch API (:func:`~excover.puzzles.sudoku.solve_many`, the
first solution of each puzzle, and :func:`~excover.puzzles.sudoku.classify_many`, the
count up to 2), tdoku's two same figures, and the wall time of excover's command line
``python -m excover sudoku FILE`` over the whole file; then checks that the answers agree.

**tdoku** (https://github.com/t-dillon/tdoku, the fast SIMD solver) is built from its
public source, outside this repository, into ``~/.cache/excover-bench/tdoku``
(``--tdoku-dir``), holding its ``bin/run_benchmark`` and ``bin/solve``.

Its figures come from two of its programs, each run as a subprocess on the same file:

- ``bin/run_benchmark -s tdoku -r0 -n N -w1 -tT [-f] -c1 FILE``: tdoku's own harness, the
  N puzzles preloaded as given (``-r0``: not permuted), a warm-up, then passes over them
  for at least T seconds; ``-f`` stops at the first solution, without it tdoku counts up to
  2. Its in-process puzzles/second are the "tdoku solve/s" and "tdoku count<=2/s"
  columns.
- ``bin/solve 1 < FILE`` and ``bin/solve 2 < FILE`` (tdoku's ``example/solve.c``), one pass
  that prints ``puzzle:count:solution`` per line: their answers are checked against
  excover's, and the wall time of ``solve 1`` (process start, reading, solving, printing)
  is the "tdoku CLI/s" column, the counterpart of "excover CLI/s".

tdoku reads 81 characters per puzzle with ``.`` for a blank (``0`` is not a blank to it),
and takes the byte after the 81 cells to tell a plain puzzle (newline or NUL) from a
729-character pencilmark one; so every set is first written out normalised (one puzzle of
81 characters per line, ``.`` for blanks) and all the programs read that copy.

excover's figures are those of one batch call over the whole set, passes repeated for at
least ``--min-time`` seconds (one pass at least), all the puzzles over all the time, as
tdoku's harness counts; parsing the text and formatting the solutions are included, as
for a user of the API. The two programs take
turns, three rounds per set (tdoku's solve, excover's solve, tdoku's count, excover's
count), and each figure is its program's best round.

**Data** (``~/.cache/excover-bench/sudoku``, ``--data-dir``). tdoku's ``data.zip`` is not in
every snapshot of its repository; the same files, with tdoku's names and header comments,
are in the repository balmerdx/sudoku_pytorch (commit 9c4391b1ea32, folder ``data/``)::

    puzzles2_17_clue                 49,162 lines, 49,158 puzzles: Gordon Royle's minimal
                                     17-clue puzzles (CRLF line ends)
    puzzles3_magictour_top1465        1,468 lines,  1,465 puzzles: magictour top1465
    puzzles5_forum_hardest_1905_11+  48,766 lines, 48,766 puzzles: enjoysudoku forum,
                                     hardest of 2019-05, SE rating 11+
    puzzles6_forum_hardest_1106         377 lines,    375 puzzles: forum hardest 2011-06
    puzzles7_serg_benchmark          10,002 lines, 10,000 puzzles: Serg's benchmark, with
                                     many puzzles of several solutions (CRLF line ends)

(xiej2520/SudukoSolver, ``data/``, carries 17_clue and forum_hardest_1106 too, and a
forum_hardest_1905_11+ of 48,765 puzzles, one fewer.) To get them::

    git clone --depth 1 https://github.com/balmerdx/sudoku_pytorch /tmp/sp
    mkdir -p ~/.cache/excover-bench/sudoku && cp /tmp/sp/data/puzzles[23567]_* "$_"

Their licences are unclear: keep them out of the repository.

Puzzle files: one puzzle per line, 81 cells ``1-9`` with ``.`` or ``0`` for a blank; blank
lines and lines starting with ``#`` are skipped, anything after the 81 cells of a line is
ignored.

**Kernels.** excover's Sudoku core has one kernel per instruction set, chosen at run time
(:mod:`excover.puzzles.sudoku.simd`); the excover columns are those of the kernel in use
(``EXCOVER_SIMD`` forces one). ``--kernels all`` (or a list such as ``portable,avx2``)
times each kernel in the same rounds and adds a table of each one's figures and ratios to
tdoku's; the CPU's model and vector flags head the output. For the ratio of the two C
cores alone, by CPU time and in one process, see ``benchmarks/sudoku_kernels_vs_tdoku.c``.

Usage: ``python benchmarks/sudoku_tdoku.py [--sets 17_clue,top1465,...] [--limit N]
[--tdoku-dir D] [--data-dir D] [--min-time S] [--no-cli] [--kernels all|K1,K2]``.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

__all__ = ["SETS", "load_puzzles", "main", "parse_args"]

#: The data sets: short name -> file name in the data directory (tdoku's names).
SETS: dict[str, str] = {
    "17_clue": "puzzles2_17_clue",
    "top1465": "puzzles3_magictour_top1465",
    "forum_hardest_1905_11+": "puzzles5_forum_hardest_1905_11+",
    "forum_hardest_1106": "puzzles6_forum_hardest_1106",
    "serg_benchmark": "puzzles7_serg_benchmark",
}

CACHE = Path.home() / ".cache" / "excover-bench"
DATA_HELP = (
    "git clone --depth 1 https://github.com/balmerdx/sudoku_pytorch /tmp/sp && "
    "cp /tmp/sp/data/puzzles[23567]_* DATA_DIR  (see this script's docstring)"
)
TDOKU_HELP = "build tdoku (github.com/t-dillon/tdoku) into TDOKU_DIR first"

_CELLS = frozenset("0123456789.")
_DIGITS = frozenset("123456789")


def load_puzzles(path: Path, limit: int | None = None) -> list[str]:
    """The puzzles of ``path``, normalised to 81 characters with ``.`` for blanks.

    Skips blank lines and ``#`` comments; ignores what follows the 81 cells of a line.
    Raises ValueError naming the line of a puzzle that is too short or has a bad cell."""
    puzzles: list[str] = []
    with path.open(encoding="ascii", errors="replace") as lines:
        for number, raw in enumerate(lines, 1):
            if limit is not None and len(puzzles) >= limit:
                break
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            cells = line[:81]
            if len(cells) < 81 or not _CELLS.issuperset(cells):
                raise ValueError(f"{path}:{number}: not a puzzle of 81 cells: {line[:90]!r}")
            puzzles.append(cells.replace("0", "."))
    return puzzles


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text}")
    return value


def _sets(text: str) -> list[str]:
    names = list(SETS) if text == "all" else [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown set(s) {', '.join(unknown) or '(none)'}; choose among "
            f"{', '.join(SETS)} or 'all'"
        )
    return names


def _kernels(text: str) -> list[str]:
    from excover.puzzles.sudoku.simd import available_kernels, kernel_for

    if text == "all":
        return list(available_kernels())
    try:
        return [kernel_for(name) for name in text.split(",")]
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def cpu_flags() -> str:
    """The CPU's model and its vector flags (from /proc/cpuinfo; '?' elsewhere)."""
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace")
    except OSError:
        return "?"
    model, flags = "?", set()
    for line in info.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            model = value.strip()
        elif key.strip() == "flags":
            flags = set(value.split())
    vector = sorted(f for f in flags if f.startswith(("sse4", "avx", "bmi", "popcnt")))
    return f"{model}; {' '.join(vector)}"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line of this script."""
    parser = argparse.ArgumentParser(
        description="excover's Sudoku solver side by side with tdoku on tdoku's data sets.",
        epilog="Data sets: " + ", ".join(f"{k} ({v})" for k, v in SETS.items()),
    )
    parser.add_argument(
        "--sets", type=_sets, default=list(SETS), help="comma-separated set names, or 'all'"
    )
    parser.add_argument("--limit", type=_positive_int, help="the first N puzzles of each set")
    parser.add_argument(
        "--tdoku-dir",
        type=Path,
        default=CACHE / "tdoku",
        help="where tdoku is built (holding bin/run_benchmark, bin/solve)",
    )
    parser.add_argument(
        "--data-dir", type=Path, default=CACHE / "sudoku", help="the folder of the data sets"
    )
    parser.add_argument(
        "--min-time",
        type=float,
        default=1.0,
        help="seconds each timing runs at least (passes repeated; default 1)",
    )
    parser.add_argument(
        "--no-cli", action="store_true", help="skip the timing of excover's command line"
    )
    parser.add_argument(
        "--kernels",
        type=_kernels,
        default=None,
        help="excover's Sudoku kernels to time side by side, comma-separated, or 'all' "
        "(every one this CPU runs); default: the one in use (EXCOVER_SIMD or the widest)",
    )
    return parser.parse_args(argv)


# --------------------------------------------------------------------------- checks


_UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [
        [(3 * (b // 3) + r) * 9 + 3 * (b % 3) + c for r in range(3) for c in range(3)]
        for b in range(9)
    ]
)


def valid_solution(puzzle: str, solution: str | None) -> bool:
    """Whether ``solution`` is a full grid keeping the givens of ``puzzle``."""
    if solution is None or len(solution) != 81:
        return False
    if any(g != "." and g != s for g, s in zip(puzzle, solution, strict=True)):
        return False
    return all(set(solution[k] for k in unit) == _DIGITS for unit in _UNITS)


# --------------------------------------------------------------------------- tdoku


@dataclass
class Tdoku:
    """The installed tdoku programs (None: missing)."""

    run_benchmark: Path | None
    solve: Path | None

    @classmethod
    def find(cls, directory: Path) -> Tdoku:
        def program(name: str) -> Path | None:
            for candidate in (directory / "bin" / name, directory / name):
                if candidate.is_file() and os.access(candidate, os.X_OK):
                    return candidate
            return None

        return cls(program("run_benchmark"), program("solve"))


def tdoku_rate(program: Path, path: Path, n: int, first: bool, min_time: float) -> float:
    """tdoku's in-process puzzles/second from one run of its harness (``-f``: first
    solution)."""
    seconds = max(1, math.ceil(min_time))
    command = [str(program), "-s", "tdoku", "-r0", "-e1", "-c1", "-w1", f"-t{seconds}"]
    command += [f"-n{n}", *(["-f"] if first else []), str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    for line in done.stdout.splitlines():
        fields = line.split(",")
        if len(fields) >= 9 and fields[-5] == "tdoku":
            return float(fields[-4])
    raise RuntimeError(f"{' '.join(command)}: no result ({done.stdout.strip()[-200:]!r})")


def tdoku_answers(program: Path, path: Path, limit: int) -> tuple[float, list[tuple[int, str]]]:
    """Wall seconds of ``solve LIMIT < path`` and its (count, solution) per puzzle."""
    with path.open("rb") as stdin:
        start = time.perf_counter()
        done = subprocess.run(
            [str(program), str(limit)], stdin=stdin, capture_output=True, check=True
        )
        wall = time.perf_counter() - start
    answers = []
    for line in done.stdout.decode().splitlines():
        _, count, solution = line.split(":")
        answers.append((int(count), solution))
    return wall, answers


# --------------------------------------------------------------------------- one set


def _window_rate(run: Callable[[], object], n: int, min_time: float) -> float:
    """Puzzles/second over passes repeated until ``min_time`` seconds have passed (one
    pass at least): all the puzzles over all the time, as tdoku's harness counts."""
    passes, total = 0, 0.0
    while total < min_time or passes == 0:
        start = time.perf_counter()
        run()
        total += time.perf_counter() - start
        passes += 1
    return n * passes / total if total > 0 else math.inf


@dataclass
class Row:
    """The figures of one set (None: not measured)."""

    name: str
    puzzles: int
    tdoku_solve: float | None = None
    excover_solve: float | None = None
    tdoku_count: float | None = None
    excover_count: float | None = None
    tdoku_cli: float | None = None
    excover_cli: float | None = None
    notes: list[str] = field(default_factory=list)
    #: Every kernel timed: name -> (solve/s, count<=2/s).
    kernels: dict[str, tuple[float, float]] = field(default_factory=dict)


def run_set(name: str, puzzles: list[str], args: argparse.Namespace, tdoku: Tdoku) -> Row:
    """All the measurements and checks of one set."""
    from excover.puzzles import sudoku

    row = Row(name, len(puzzles))
    n = len(puzzles)

    solved = sudoku.solve_many(puzzles)
    statuses = sudoku.classify_many(puzzles)
    bad = sum(
        1
        for p, s in zip(puzzles, solved, strict=True)
        if s is not None and not valid_solution(p, s)
    )
    if bad:
        row.notes.append(f"{bad} excover solutions are WRONG")
    tally = {k: statuses.count(k) for k in ("none", "unique", "multiple")}
    if any(s is None for s in solved) != bool(tally["none"]):
        row.notes.append("excover's solve and classify disagree about puzzles without solution")
    row.notes.append(
        f"excover: {tally['unique']} unique, {tally['multiple']} multiple, {tally['none']} none"
    )

    with tempfile.TemporaryDirectory(prefix="sudoku-tdoku-") as tmp:
        path = Path(tmp) / f"{name}.txt"
        header = "# ALLOWZERO\n" if tally["none"] else ""  # else tdoku's harness stops
        path.write_text(header + "".join(p + "\n" for p in puzzles), encoding="ascii")

        if not args.no_cli:
            row.excover_cli = _cli_rate(path, solved, row.notes, Path(tmp) / "pycache")

        if tdoku.solve is not None:
            wall, firsts = tdoku_answers(tdoku.solve, path, 1)
            row.tdoku_cli = n / wall
            _, counted = tdoku_answers(tdoku.solve, path, 2)
            row.notes.extend(_compare(puzzles, solved, statuses, firsts, counted))
        _throughputs(row, puzzles, path, args, tdoku)
    return row


#: Rounds of the throughput figures per set: each round times tdoku then excover, for
#: solving then for counting, and each figure keeps its best round, so that a busy moment
#: of a shared machine cannot fall on one program alone.
ROUNDS = 3


def _throughputs(
    row: Row, puzzles: list[str], path: Path, args: argparse.Namespace, tdoku: Tdoku
) -> None:
    from excover.puzzles import sudoku
    from excover.puzzles.sudoku.simd import simd_kernel, use_kernel

    n = len(puzzles)
    best: dict[str, float] = {}
    in_use = simd_kernel()
    kernels = args.kernels or [in_use]

    def keep(key: str, rate: float) -> None:
        best[key] = max(best.get(key, 0.0), rate)

    for _ in range(ROUNDS):
        for first in (True, False):
            kind = "solve" if first else "count"
            if tdoku.run_benchmark is not None and "failed" not in best:
                try:
                    keep(f"tdoku_{kind}", tdoku_rate(tdoku.run_benchmark, path, n, first, 1.0))
                except RuntimeError as error:
                    row.notes.append(f"tdoku run_benchmark failed: {error}")
                    best["failed"] = 0.0
            run = partial(sudoku.solve_many if first else sudoku.classify_many, puzzles)
            for kernel in kernels:
                use_kernel(kernel)
                keep(f"{kernel}_{kind}", _window_rate(run, n, args.min_time))
    use_kernel(in_use)
    row.tdoku_solve = best.get("tdoku_solve")
    row.tdoku_count = best.get("tdoku_count")
    row.kernels = {k: (best[f"{k}_solve"], best[f"{k}_count"]) for k in kernels}
    row.excover_solve, row.excover_count = row.kernels.get(in_use, row.kernels[kernels[0]])


#: Runs of excover's command line per set, after one that fills the bytecode cache; the
#: fastest counts.
CLI_RUNS = 3


def _cli_rate(path: Path, solved: Sequence[str | None], notes: list[str], cache: Path) -> float:
    """Puzzles/second of ``python -m excover sudoku PATH``, whole process, fastest of
    :data:`CLI_RUNS` runs; its lines are checked against ``solved``. Compiled bytecode
    is used as an installed package has it (written to and read from ``cache``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    command = [sys.executable, "-m", "excover", "sudoku", str(path)]
    best = math.inf
    for run in range(CLI_RUNS + 1):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
        wall = time.perf_counter() - start
        lines = done.stdout.splitlines()
        if done.returncode != 0 or len(lines) != len(solved):
            notes.append(f"excover CLI: status {done.returncode}, {len(lines)} lines")
            return math.nan
        if run == 0:
            if any(a != (b or "none") for a, b in zip(lines, solved, strict=True)):
                notes.append("excover CLI and solve_many print different solutions")
        else:
            best = min(best, wall)
    return len(solved) / best


def _compare(
    puzzles: list[str],
    solved: Sequence[str | None],
    statuses: Sequence[str],
    firsts: list[tuple[int, str]],
    counted: list[tuple[int, str]],
) -> list[str]:
    """Where tdoku's answers (``solve 1``, ``solve 2``) and excover's differ."""
    n = len(puzzles)
    if len(firsts) != n or len(counted) != n:
        return [f"tdoku answered {len(firsts)} / {len(counted)} of {n} puzzles"]
    rank = {"none": 0, "unique": 1, "multiple": 2}
    counts = sum(1 for s, (c, _) in zip(statuses, counted, strict=True) if rank[s] != min(c, 2))
    same = differ = 0
    for ours, status, (c, theirs) in zip(solved, statuses, counted, strict=True):
        if status == "unique" and c == 1:
            if ours == theirs:
                same += 1
            else:
                differ += 1
    wrong = sum(
        1 for p, (c, s) in zip(puzzles, firsts, strict=True) if c > 0 and not valid_solution(p, s)
    )
    solved_tdoku = sum(1 for c, _ in firsts if c > 0)
    solved_ours = sum(1 for s in solved if s is not None)
    notes = [
        f"counts up to 2 equal to tdoku's: {n - counts}/{n}; "
        f"unique solutions equal to tdoku's: {same}/{same + differ}"
    ]
    if counts:
        notes.append(f"counts up to 2 differ from tdoku's on {counts} puzzles")
    if differ:
        notes.append(f"{differ} unique solutions DIFFER from tdoku's")
    if solved_tdoku != solved_ours:
        notes.append(f"solved: tdoku {solved_tdoku}, excover {solved_ours}")
    if wrong:
        notes.append(f"{wrong} tdoku first solutions are not valid")
    return notes


# --------------------------------------------------------------------------- output


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _ratio(numerator: float | None, denominator: float | None) -> str:
    if numerator is None or denominator is None or not denominator or math.isnan(numerator):
        return "-"
    return f"{numerator / denominator:.2f}"


def table(rows: list[Row]) -> str:
    """The Markdown table of the rows: throughputs, excover's as a fraction of tdoku's,
    and the time of excover's command line over the file as a multiple of the batch
    API's time in process."""
    head = [
        "set",
        "puzzles",
        "tdoku solve/s",
        "excover solve/s",
        "excover/tdoku",
        "tdoku count≤2 /s",
        "excover count≤2 /s",
        "excover/tdoku",
        "tdoku CLI /s",
        "excover CLI /s",
        "CLI time / API time",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * 10) + "|"]
    for r in rows:
        cells = [
            r.name,
            f"{r.puzzles:,}",
            _rate(r.tdoku_solve),
            _rate(r.excover_solve),
            _ratio(r.excover_solve, r.tdoku_solve),
            _rate(r.tdoku_count),
            _rate(r.excover_count),
            _ratio(r.excover_count, r.tdoku_count),
            _rate(r.tdoku_cli),
            _rate(r.excover_cli),
            _ratio(r.excover_solve, r.excover_cli),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def kernel_table(rows: list[Row]) -> str:
    """The Markdown table of each kernel's throughput as a fraction of tdoku's, solving
    and counting up to 2, with its raw figures (puzzles/second)."""
    kernels = list(rows[0].kernels) if rows else []
    head = ["set", "tdoku solve/s", "tdoku count≤2 /s"]
    for k in kernels:
        head += [f"{k} solve/s", f"{k} /tdoku", f"{k} count≤2 /s", f"{k} /tdoku"]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|",
    ]
    for r in rows:
        cells = [r.name, _rate(r.tdoku_solve), _rate(r.tdoku_count)]
        for k in kernels:
            solve, count = r.kernels[k]
            cells += [_rate(solve), _ratio(solve, r.tdoku_solve)]
            cells += [_rate(count), _ratio(count, r.tdoku_count)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0, or 1 when an answer disagrees or a solution is wrong."""
    args = parse_args(argv)
    tdoku = Tdoku.find(args.tdoku_dir)
    missing: list[str] = []
    if tdoku.run_benchmark is None or tdoku.solve is None:
        absent = [k for k in ("run_benchmark", "solve") if getattr(tdoku, k) is None]
        missing.append(
            f"tdoku's {' and '.join(absent)} not found in {args.tdoku_dir}/bin: build it with "
            f"{TDOKU_HELP} (the tdoku columns stay empty)"
        )
    rows: list[Row] = []
    for name in args.sets:
        path = args.data_dir / SETS[name]
        if not path.is_file():
            missing.append(f"data set {name}: {path} not found; get it with {DATA_HELP}")
            continue
        puzzles = load_puzzles(path, args.limit)
        if not puzzles:
            missing.append(f"data set {name}: {path} holds no puzzle")
            continue
        print(f"{name}: {len(puzzles)} puzzles ...", file=sys.stderr, flush=True)
        rows.append(run_set(name, puzzles, args, tdoku))

    from excover.puzzles.sudoku.simd import simd_kernel

    print(f"CPU: {cpu_flags()}")
    print(f"excover's Sudoku kernel (the excover columns): {simd_kernel()}")
    print()
    print(table(rows))
    print()
    if args.kernels and len(args.kernels) > 1:
        print(kernel_table(rows))
        print()
    print("excover/tdoku: excover's throughput as a fraction of tdoku's (the target: 1.0")
    print("or more, issue #49). tdoku solve/count: its run_benchmark, in process; excover:")
    print("solve_many / classify_many over >= 1 s; each the best of 3 rounds taken in turn;")
    print("CLI: whole process over the file, fastest")
    print(f"of {CLI_RUNS} (tdoku: example/solve.c `solve 1`, one run; excover: `python -m")
    print("excover sudoku`); CLI time / API time: excover's command line against its")
    print("solve_many on the same set (the target: under 1.5 on 17_clue).")
    for r in rows:
        for note in r.notes:
            print(f"- {r.name}: {note}")
    for line in missing:
        print(f"MISSING: {line}")
    failed = any(
        "WRONG" in note or "DIFFER" in note or "differ" in note or "disagree" in note
        for r in rows
        for note in r.notes
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
