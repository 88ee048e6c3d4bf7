"""Nonograms side by side with pbnsolve, on the public puzzle sets: whole processes.

For every puzzle of every set, in one run: the wall time of the whole process
``excover nonogram --classify FILE`` (start-up, reading, solving, printing; the console
script beside this Python, as a user runs it, else ``python -m excover``) and
of ``pbnsolve -u -b FILE``, each the best of ``--runs`` runs (taken in turn, in rounds over
the set: a slow spell of the machine cannot spoil every run of a puzzle); checks that
both say the same (unique, multiple or none) and prints a table per set with the ratio
excover / pbnsolve. A puzzle is flagged (``!``) when excover takes longer than pbnsolve
where pbnsolve takes over 50 ms, or longer than 50 ms where pbnsolve takes less (the
target of issue #16), unless neither settles it within the time limit; the start-up of
Python alone (``python -c pass``, and ``-S`` without ``site``) is timed at the start and
at the end of the run, the floor under every excover time. ``--tournament`` adds the
25x25 tournament sets: excover's command on the whole file of 1,000 puzzles against the
sum of pbnsolve's runs, one per puzzle.

``--colour`` adds the colour puzzles of the sets (``--no-table`` skips the tables
above): ``excover nonogram --classify --json`` on each file as published, and ``pbnsolve
-u`` on the ``.g`` file as published (it reads Olsak's format itself) or else on the
webpbn XML excover writes; the first picture of each is compared cell by cell (up to a
renaming of chars, one for the whole picture: pbnsolve prints a ``.g`` file's colours
by Olsak's output chars) and both are checked against the clues by this script's own
checker, which recomputes every line's coloured runs (:func:`breaks`). A ``.g`` file
excover cannot read is listed with what pbnsolve makes of it.

**pbnsolve** (Jan Wolter's solver, Apache 2.0; avi-levy/pbnsolve) is built from its
public source, outside this repository, into ``~/.cache/excover-bench/pbnsolve/bin``
(``--pbnsolve``). ``-u`` makes it look for a second
solution after a search, ``-b`` prints one line of words (unique, multiple,
contradiction, timeout, ...), ``-x S`` limits its CPU time. It is given every puzzle as
Simpson's ``.non`` (a colour puzzle as webpbn's XML), written by excover into a temporary
folder (it reads ``.non`` by suffix; Wilk's ``.nin`` would need ``-fnin``, pynogram's
files it cannot read); excover reads each file as published.

**Data** (``~/.cache/excover-bench/nonogram``, ``--data-dir``). What may be redistributed
is in the repository (``benchmarks/data/nonogram_survey``, see its README: the 14 puzzles
of Wolter's survey whose authors allow it, as ``.nin``); the rest is fetched by ``--fetch``
from the public repositories (``git clone``, or ``--mirrors DIR`` holding bare copies
as ``DIR/OWNER+NAME/repo``), into one folder per set::

    survey        benchmarks/data/nonogram_survey/*.nin (shipped)
    nonogram-db   mikix/nonogram-db db/**/*.non (GPL-3.0; webpbn's under CC-BY-3.0)
    pynogram      tsionyx/pynogram pynogram/examples/*.txt (Apache 2.0 code; puzzles of
                  several origins; two in colour)
    pbnsolve      avi-levy/pbnsolve examples/*.mk and *.g (Olsak's formats; of the six
                  .g files four are in colour, bicycle.g is black and white, alladin.g
                  has triangles, which excover refuses)
    gramcracker   danioellay/gramcracker nonograms/survey_by_numbers_dataset/*.txt (no
                  licence: webpbn's survey puzzles in the plain format)
    tournament    zxkyjimmy/NonogramRecord question/*.txt (GPL-3.0): TAAI, TCGA and
                  ICGA sets of 1,000 25x25 puzzles each, in the tournaments' format

Usage: ``python benchmarks/nonogram_pbnsolve.py [--fetch] [--mirrors DIR] [--sets
survey,nonogram-db,...] [--tournament taai2011,...] [--tournament-limit N] [--runs N]
[--timeout S] [--colour] [--no-table] [--pbnsolve PATH] [--data-dir DIR]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from startup import excover_command

if TYPE_CHECKING:
    from excover.nonogram import Puzzle

__all__ = ["SETS", "Result", "main", "pbnsolve_status"]

CACHE = Path.home() / ".cache" / "excover-bench"
SHIPPED = Path(__file__).resolve().parent / "data"

#: The sets: name -> (repository, folder in it, file suffixes); None: shipped here.
SETS: dict[str, tuple[str | None, str, tuple[str, ...]]] = {
    "survey": (None, "nonogram_survey", (".nin",)),
    "nonogram-db": ("mikix/nonogram-db", "db", (".non",)),
    "pynogram": ("tsionyx/pynogram", "pynogram/examples", (".txt",)),
    "pbnsolve": ("avi-levy/pbnsolve", "examples", (".mk", ".g")),
    "gramcracker": ("danioellay/gramcracker", "nonograms/survey_by_numbers_dataset", (".txt",)),
    "tournament": ("zxkyjimmy/NonogramRecord", "question", (".txt",)),
}

#: Where excover's whole-process time is held to at most pbnsolve's, and the floor
#: below which it is held to 50 ms instead.
FLOOR = 0.050


@dataclass
class Result:
    """One puzzle: both programs' answers and best wall times (seconds)."""

    name: str
    size: str
    excover: str
    pbnsolve: str
    excover_s: float
    pbnsolve_s: float

    @property
    def ratio(self) -> float:
        return self.excover_s / self.pbnsolve_s if self.pbnsolve_s > 0 else float("inf")

    @property
    def unsettled(self) -> bool:
        """Neither program settled the puzzle within the time limit."""
        return self.excover not in SETTLED and self.pbnsolve not in SETTLED

    @property
    def note(self) -> str:
        """Empty when both settle the puzzle alike, else what happened."""
        settled = (self.excover in SETTLED, self.pbnsolve in SETTLED)
        if settled == (True, True):
            return "" if self.excover == self.pbnsolve else "DISAGREE"
        return {
            (False, False): "both unsettled",
            (True, False): "pbnsolve unsettled",
            (False, True): "excover unsettled",
        }[settled]

    @property
    def flagged(self) -> bool:
        limit = self.pbnsolve_s if self.pbnsolve_s > FLOOR else FLOOR
        return self.excover_s > limit and not self.unsettled


#: The answers that settle a puzzle.
SETTLED = ("unique", "multiple", "none")


def _agree(excover: str, pbnsolve: str) -> bool:
    """The same answer, or none from either (both stopped by the time limit)."""
    return excover == pbnsolve or (excover not in SETTLED and pbnsolve not in SETTLED)


def pbnsolve_status(output: str) -> str:
    """unique, multiple, none or the word pbnsolve gave (timeout, stalled, ...)."""
    words = output.split()
    for word, status in (("contradiction", "none"), ("multiple", "multiple")):
        if word in words:
            return status
    if "unique" in words:
        return "unique"
    return words[0] if words else "error"


def _fetch(data_dir: Path, mirrors: Path | None, names: Sequence[str]) -> None:
    """Copy each set's folder out of its repository (a bare mirror, else a clone)."""
    for name in names:
        repo, folder, _ = SETS[name]
        target = data_dir / name
        if repo is None:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            git_dir = None if mirrors is None else mirrors / repo.replace("/", "+") / "repo"
            if git_dir is None or not git_dir.is_dir():
                url = f"https://github.com/{repo}"
                subprocess.run(
                    ["git", "clone", "-q", "--depth", "1", "--bare", url, tmp], check=True
                )
                git_dir = Path(tmp)
            archive = subprocess.run(
                ["git", f"--git-dir={git_dir}", "archive", "HEAD", folder],
                check=True,
                capture_output=True,
            ).stdout
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        print(f"fetched {name} from {repo}", file=sys.stderr)


def _files(data_dir: Path, name: str) -> list[Path]:
    _, folder, suffixes = SETS[name]
    root = SHIPPED / folder if SETS[name][0] is None else data_dir / name
    if not root.is_dir():
        sys.exit(f"set {name}: {root} missing (run with --fetch)")
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes and p.is_file())


def _timed(command: list[str], env: dict[str, str], timeout: float) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
        out = done.stdout
    except subprocess.TimeoutExpired:
        out = "timeout"
    return time.perf_counter() - start, out


def _compare(
    files: list[Path], args: argparse.Namespace, env: dict[str, str], tmp: Path
) -> list[Result]:
    from excover import ExcoverError, nonogram

    excover = [*excover_command(), "nonogram", "--classify"]
    puzzles: list[tuple[Path, Puzzle, Path]] = []
    for path in files:
        try:
            puzzle = nonogram.read(path)
        except ExcoverError as error:
            print(f"  skipped {path.name}: {error}", file=sys.stderr)
            continue
        puzzles.append((path, puzzle, _for_pbnsolve(puzzle, tmp / str(len(puzzles)))))
    best_x = [float("inf")] * len(puzzles)
    best_p = [float("inf")] * len(puzzles)
    answer_x = [""] * len(puzzles)
    answer_p = [""] * len(puzzles)
    cap = args.timeout + 5
    # The runs go in rounds over the set, so that a slow spell of the machine (a second
    # or two, seen here) cannot fall on all the runs of one puzzle. Each program's answer
    # is that of its best run (a run stopped by the time limit is never the best unless
    # all are).
    for _ in range(args.runs):
        for i, (path, _puzzle, converted) in enumerate(puzzles):
            seconds, out = _timed([*excover, "--timeout", str(args.timeout), str(path)], env, cap)
            if seconds < best_x[i]:
                best_x[i], answer_x[i] = seconds, out.strip() or "error"
            seconds, out = _timed(
                [str(args.pbnsolve), "-u", "-b", f"-x{int(args.timeout)}", str(converted)], env, cap
            )
            if seconds < best_p[i]:
                best_p[i], answer_p[i] = seconds, pbnsolve_status(out)
    return [
        Result(
            path.name,
            f"{puzzle.height}x{puzzle.width}",
            answer_x[i],
            answer_p[i],
            best_x[i],
            best_p[i],
        )
        for i, (path, puzzle, _converted) in enumerate(puzzles)
    ]


def _for_pbnsolve(puzzle: Puzzle, stem: Path) -> Path:
    """``puzzle`` written where pbnsolve reads it: Simpson's ``.non``, or webpbn's XML
    for a colour puzzle (pbnsolve's ``.non`` reader has no colours)."""
    from excover import nonogram

    path = stem.with_suffix(".xml" if puzzle.is_colour else ".non")
    nonogram.write(puzzle, path)
    return path


def _python_alone(args: argparse.Namespace, env: dict[str, str], when: str) -> None:
    """Print the start-up of this Python alone, with and without ``site`` (best of runs):
    the floor under excover's whole-process times in this run."""
    best = {"python -c pass": float("inf"), "python -S -c pass": float("inf")}
    for _ in range(3 * args.runs):
        for name in best:
            command = [sys.executable, *name.split()[1:]]
            best[name] = min(best[name], _timed(command, env, 60)[0])
    shown = ", ".join(f"{name} {1000 * seconds:.1f} ms" for name, seconds in best.items())
    print(f"python alone {when}: {shown}")


def _table(name: str, results: list[Result]) -> None:
    print(f"\n{name}: {len(results)} puzzles (whole-process wall time, best of runs)")
    print(
        f"  {'puzzle':<28} {'size':>7} {'excover':>9} {'pbnsolve':>9} "
        f"{'ms ex':>8} {'ms pb':>8} {'ratio':>6}"
    )
    for r in results:
        mark = " !" if r.flagged else ""
        mark += f"  {r.note}" if r.note else ""
        print(
            f"  {r.name[:28]:<28} {r.size:>7} {r.excover:>9} {r.pbnsolve:>9} "
            f"{1000 * r.excover_s:8.1f} {1000 * r.pbnsolve_s:8.1f} {r.ratio:6.2f}{mark}"
        )
    if results:
        ratios = sorted(r.ratio for r in results)
        flagged = sum(r.flagged for r in results)
        alike = sum(not r.note for r in results)
        notes = [r.note for r in results if r.note]
        others = "".join(f", {notes.count(n)} {n}" for n in sorted(set(notes)))
        print(
            f"  median ratio {ratios[len(ratios) // 2]:.2f}, max {ratios[-1]:.2f}; "
            f"{flagged} flagged; {alike}/{len(results)} settled alike by both{others}"
        )


def _tournament(path: Path, args: argparse.Namespace, env: dict[str, str], tmp: Path) -> None:
    from excover import nonogram

    puzzles = nonogram.read_all(path)[: args.tournament_limit]
    whole = tmp / f"{path.stem}.txt"
    nonogram.write_all(puzzles, whole, "tcga")
    command = [
        sys.executable,
        "-m",
        "excover",
        "nonogram",
        "--classify",
        "--timeout",
        str(args.timeout),
        str(whole),
    ]
    seconds_x, out = _timed(command, env, args.timeout * len(puzzles) + 60)
    answers_x = out.split()
    seconds_p = 0.0
    answers_p = []
    slow_p = slow_x = 0
    for k, puzzle in enumerate(puzzles):
        one = _for_pbnsolve(puzzle, tmp / f"t{k}")
        seconds, out = _timed(
            [str(args.pbnsolve), "-u", "-b", f"-x{int(args.timeout)}", str(one)],
            env,
            args.timeout + 5,
        )
        seconds_p += seconds
        answers_p.append(pbnsolve_status(out))
    agree = sum(_agree(a, b) for a, b in zip(answers_x, answers_p, strict=False))
    slow_x = answers_x.count("unknown")
    slow_p = sum(a not in ("unique", "multiple", "none") for a in answers_p)
    counts = {s: answers_x.count(s) for s in ("unique", "multiple", "none")}
    print(
        f"  {path.stem:<10} {len(puzzles):>5} {seconds_x:9.1f} {slow_x:>5} "
        f"{seconds_p:9.1f} {slow_p:>5} "
        f"{seconds_x / seconds_p:6.2f}  {agree}/{len(puzzles)} agree; excover {counts}"
    )


# ----- colour puzzles (--colour): pictures compared, and checked against the clues -----


def runs(cells: str) -> list[tuple[int, str]]:
    """The coloured runs of a line of cells, ``(length, char)`` left to right (``.`` is
    white): this script's own checker, which shares no code with excover's solvers."""
    return [(len(list(group)), char) for char, group in itertools.groupby(cells) if char != "."]


def breaks(puzzle: Puzzle, picture: Sequence[str]) -> str | None:
    """The first line whose recomputed runs differ from its clue, or None when every
    row and column of ``picture`` fits."""
    if len(picture) != puzzle.height or any(len(row) != puzzle.width for row in picture):
        return "wrong shape"
    for r, clue in enumerate(puzzle.row_blocks):
        if runs(picture[r]) != [tuple(block) for block in clue]:
            return f"row {r + 1}"
    for c, clue in enumerate(puzzle.col_blocks):
        if runs("".join(row[c] for row in picture)) != [tuple(block) for block in clue]:
            return f"column {c + 1}"
    return None


def pbnsolve_pictures(output: str, height: int, width: int) -> list[list[str]]:
    """The pictures pbnsolve prints without ``-b``: ``height`` rows of ``width`` cells
    after each heading that names a solution (``UNIQUE LINE SOLUTION:``, ``ALTERNATE
    SOLUTION``, ...); trailing white cells printed as spaces are restored."""
    lines = output.splitlines()
    pictures = []
    for k, line in enumerate(lines):
        if "SOLUTION" in line and line == line.upper() and k + height < len(lines) + 1:
            rows = [row.ljust(width)[:width] for row in lines[k + 1 : k + 1 + height]]
            if len(rows) == height:
                pictures.append(rows)
    return pictures


def renaming(ours: Sequence[str], theirs: Sequence[str]) -> dict[str, str] | None:
    """excover's char of each of pbnsolve's when one renaming, the same on every cell,
    turns pbnsolve's picture into excover's (pbnsolve prints a ``.g`` file's colours by
    Olsak's output chars, white as the file's background char); else None."""
    back: dict[str, str] = {}
    forth: dict[str, str] = {}
    for row_ours, row_theirs in zip(ours, theirs, strict=True):
        for a, b in zip(row_ours, row_theirs, strict=True):
            if back.setdefault(b, a) != a or forth.setdefault(a, b) != b:
                return None
    return back


def _excover_json(path: Path, args: argparse.Namespace, env: dict[str, str]) -> tuple[float, Any]:
    """The best whole-process time of ``excover nonogram --classify --json`` and its
    document (None when the run printed none)."""
    command = [*excover_command(), "nonogram", "--classify", "--json"]
    best, doc = float("inf"), None
    for _ in range(args.runs):
        seconds, out = _timed(
            [*command, "--timeout", str(args.timeout), str(path)], env, args.timeout + 5
        )
        if seconds < best:
            best = seconds
            try:
                doc = json.loads(out)
            except ValueError:
                doc = None
    return best, doc


def _pbnsolve_colour(
    given: Path, args: argparse.Namespace, env: dict[str, str]
) -> tuple[float, str, str]:
    """pbnsolve on ``given``: its best ``-u -b`` time, its answer (or what it said when
    it gave none) and the output of a run without ``-b`` (the pictures)."""
    cap = args.timeout + 5
    brief = [str(args.pbnsolve), "-u", "-b", f"-x{int(args.timeout)}", str(given)]
    best, answer = float("inf"), ""
    for _ in range(args.runs):
        start = time.perf_counter()
        try:
            done = subprocess.run(brief, env=env, capture_output=True, text=True, timeout=cap)
            out, err = done.stdout, done.stderr
        except subprocess.TimeoutExpired:
            out, err = "timeout", ""
        if time.perf_counter() - start < best:
            best = time.perf_counter() - start
            answer = pbnsolve_status(out) if out.strip() else "cannot read: " + _last_line(err)
    full = [str(args.pbnsolve), "-u", f"-x{int(args.timeout)}", str(given)]
    try:
        pictures = subprocess.run(full, env=env, capture_output=True, text=True, timeout=cap)
        text = pictures.stdout
    except subprocess.TimeoutExpired:
        text = ""
    return best, answer, text


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def _colour(files: list[tuple[str, Path]], args: argparse.Namespace, env: dict[str, str]) -> None:
    """The colour puzzles among ``files`` (set, path), and the ``.g`` files excover
    cannot read: both programs' answers, the pictures compared cell by cell and each
    checked against the clues by :func:`breaks`."""
    from excover import ExcoverError, nonogram

    print(
        "\ncolour puzzles: excover nonogram --classify --json on the file as published; "
        "pbnsolve -u on the .g file as published (it reads Olsak's format), else on "
        "webpbn XML written by excover; times are whole processes, best of runs (ms)"
    )
    print(
        f"  {'puzzle':<24} {'size':>6} {'col':>3} {'excover':>9} {'ms':>7}  "
        f"{'pbnsolve input':<14} {'pbnsolve':>9} {'ms':>7}  pictures; checker"
    )
    seen: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for set_name, path in files:
            seen.setdefault(set_name, 0)
            name = f"{set_name}/{path.name}"[:24]
            try:
                puzzle = nonogram.read(path)
            except ExcoverError as error:
                if path.suffix != ".g":
                    continue
                seconds, answer, _ = _pbnsolve_colour(path, args, env)
                print(f"  {name:<24} excover cannot read it: {str(error).split(': ', 1)[1]}")
                print(f"  {'':<24} pbnsolve on the file: {answer} ({1000 * seconds:.1f} ms)")
                continue
            if not puzzle.is_colour:
                continue
            seen[set_name] += 1
            given = path if path.suffix == ".g" else Path(tmp) / f"{path.stem}.xml"
            if given != path:
                nonogram.write(puzzle, given)
            seconds_x, doc = _excover_json(path, args, env)
            seconds_p, answer_p, text = _pbnsolve_colour(given, args, env)
            answer_x = "error" if doc is None else doc.get("status") or "unknown"
            ours = [] if doc is None else [s["grid"] for s in doc.get("solutions", [])]
            theirs = pbnsolve_pictures(text, puzzle.height, puzzle.width)
            verdict = _verdict(puzzle, ours, theirs, answer_x, answer_p)
            source = "as published" if given == path else "XML by excover"
            print(
                f"  {name:<24} {puzzle.height:>3}x{puzzle.width:<3} {len(puzzle.palette or ()):>3} "
                f"{answer_x:>9} {1000 * seconds_x:7.1f}  {source:<14} {answer_p:>9} "
                f"{1000 * seconds_p:7.1f}  {verdict}"
            )
    print("  colour puzzles per set: " + ", ".join(f"{k} {v}" for k, v in seen.items()))


def _verdict(
    puzzle: Puzzle, ours: list[list[str]], theirs: list[list[str]], answer_x: str, answer_p: str
) -> str:
    """How the two answers compare: the same picture (up to pbnsolve's chars; with many
    solutions each program's first may differ), and whether the pictures pass the
    checker."""
    bad = [why for picture in ours if (why := breaks(puzzle, picture)) is not None]
    checked = f"excover's breaks {bad[0]}" if bad else "excover's fit"
    status = "" if answer_x == answer_p else "; answers DISAGREE"
    if not ours or not theirs:
        return f"pictures: excover {len(ours)}, pbnsolve {len(theirs)}; {checked}{status}"
    back = renaming(ours[0], theirs[0])
    if back is None:
        other = "different solutions" if answer_x == answer_p == "multiple" else "DIFFER"
        return f"{other}; {checked}{status}"
    renamed = ["".join(back[ch] for ch in row) for row in theirs[0]]
    why = breaks(puzzle, renamed)
    shown = " ".join(f"{b!r}>{a!r}" for b, a in sorted(back.items()) if a != b)
    same = "same" + (f" (pbnsolve's {shown})" if shown else "")
    theirs_checked = "pbnsolve's fits" if why is None else f"pbnsolve's breaks {why}"
    return f"{same}; {checked}, {theirs_checked}{status}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=CACHE / "nonogram")
    parser.add_argument("--pbnsolve", type=Path, default=CACHE / "pbnsolve" / "bin" / "pbnsolve")
    parser.add_argument("--fetch", action="store_true", help="fetch the sets first")
    parser.add_argument("--mirrors", type=Path, help="bare git copies, as DIR/OWNER+NAME/repo")
    parser.add_argument("--sets", default="survey,nonogram-db,pynogram,pbnsolve,gramcracker")
    parser.add_argument("--tournament", default="", help="tournament files, e.g. taai2011,tcga2023")
    parser.add_argument("--tournament-limit", type=int, default=None, help="first N puzzles")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (best kept)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per puzzle")
    parser.add_argument(
        "--colour", action="store_true", help="the colour puzzles of the sets: pictures compared"
    )
    parser.add_argument(
        "--no-table", action="store_true", help="skip the per-puzzle tables of the sets"
    )
    args = parser.parse_args(argv)
    names = [name for name in args.sets.split(",") if name]
    if args.fetch:
        _fetch(args.data_dir, args.mirrors, [*names, *(["tournament"] if args.tournament else [])])
    if not args.pbnsolve.exists():
        sys.exit(f"{args.pbnsolve} missing: build pbnsolve from its source first")
    cache = tempfile.mkdtemp(prefix="excover-pbn-")
    try:
        # bytecode as an installed package has it (see benchmarks/startup.py)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        subprocess.run([*excover_command(), "--help"], env=env, capture_output=True, check=True)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"excover against {args.pbnsolve} (load average {load:.2f}); '!': over target")
        _python_alone(args, env, "at the start")
        every: list[Result] = []
        for name in [] if args.no_table else names:
            results = _compare(_files(args.data_dir, name), args, env, Path(cache))
            _table(name, results)
            every += results
        if every:
            flagged = [r.name for r in every if r.flagged]
            print(
                f"\nall sets: {len(every)} puzzles, {len(flagged)} over target: "
                + ", ".join(flagged)
            )
            unsettled = [r.name for r in every if r.unsettled]
            if unsettled:
                print(f"settled by neither within {args.timeout:g} s: " + ", ".join(unsettled))
            _python_alone(args, env, "at the end")
        if args.colour:
            _colour(
                [(name, path) for name in names for path in _files(args.data_dir, name)],
                args,
                env,
            )
        if args.tournament:
            print(f"\ntournament sets (whole file; per-puzzle limit {args.timeout:g} s; seconds):")
            print(
                f"  {'set':<10} {'n':>5} {'excover':>9} {'unkn':>5} "
                f"{'pbnsolve':>9} {'unkn':>5} {'ratio':>6}"
            )
            for stem in args.tournament.split(","):
                _tournament(
                    args.data_dir / "tournament" / "question" / f"{stem}.txt",
                    args,
                    env,
                    Path(cache),
                )
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
