"""Nonograms side by side with pbnsolve, on the public puzzle sets: whole processes.

For every puzzle of every set, in one run: the wall time of the whole process
``python -m excover nonogram --classify FILE`` (start-up, reading, solving, printing) and
of ``pbnsolve -u -b FILE``, each the best of ``--runs`` runs taken in turn; checks that
both say the same (unique, multiple or none) and prints a table per set with the ratio
excover / pbnsolve. A puzzle is flagged (``!``) when excover takes longer than pbnsolve
where pbnsolve takes over 50 ms, or longer than 50 ms where pbnsolve takes less (the
target of issue #16). ``--tournament`` adds the 25x25 tournament sets: excover's command
on the whole file of 1,000 puzzles against the sum of pbnsolve's runs, one per puzzle.

**pbnsolve** (Jan Wolter's solver, Apache 2.0) is built from source by
``benchmarks/build-pbnsolve.sh CHECKOUT_OR_BARE_GIT_DIR`` into
``~/.cache/excover-bench/pbnsolve`` (``--pbnsolve``). ``-u`` makes it look for a second
solution after a search, ``-b`` prints one line of words (unique, multiple,
contradiction, timeout, ...), ``-x S`` limits its CPU time. It is given every puzzle as
Simpson's ``.non``, written by excover into a temporary folder (it reads ``.non`` by
suffix; Wilk's ``.nin`` would need ``-fnin``, pynogram's files it cannot read); excover
reads each file as published.

**Data** (``~/.cache/excover-bench/nonogram``, ``--data-dir``). What may be redistributed
is in the repository (``benchmarks/data/nonogram_survey``, see its README: the 14 puzzles
of Wolter's survey whose authors allow it, as ``.nin``); the rest is fetched by ``--fetch``
from the public repositories (``git clone``, or ``--mirrors DIR`` holding bare copies
as ``DIR/OWNER+NAME/repo``), into one folder per set::

    survey        benchmarks/data/nonogram_survey/*.nin (shipped)
    nonogram-db   mikix/nonogram-db db/**/*.non (GPL-3.0; webpbn's under CC-BY-3.0)
    pynogram      tsionyx/pynogram pynogram/examples/*.txt (Apache 2.0 code; puzzles of
                  several origins; two colour ones are skipped)
    pbnsolve      avi-levy/pbnsolve examples/*.mk (Olsak's format; the .g ones are
                  colour, but one, and are skipped)
    gramcracker   danioellay/gramcracker nonograms/survey_by_numbers_dataset/*.txt (no
                  licence: webpbn's survey puzzles in the plain format)
    tournament    zxkyjimmy/NonogramRecord question/*.txt (GPL-3.0): TAAI, TCGA and
                  ICGA sets of 1,000 25x25 puzzles each, in the tournaments' format

Usage: ``python benchmarks/nonogram_pbnsolve.py [--fetch] [--mirrors DIR] [--sets
survey,nonogram-db,...] [--tournament taai2011,...] [--tournament-limit N] [--runs N]
[--timeout S] [--pbnsolve PATH] [--data-dir DIR]``.
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
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SETS", "Result", "main", "pbnsolve_status"]

CACHE = Path.home() / ".cache" / "excover-bench"
SHIPPED = Path(__file__).resolve().parent / "data"

#: The sets: name -> (repository, folder in it, file suffixes); None: shipped here.
SETS: dict[str, tuple[str | None, str, tuple[str, ...]]] = {
    "survey": (None, "nonogram_survey", (".nin",)),
    "nonogram-db": ("mikix/nonogram-db", "db", (".non",)),
    "pynogram": ("tsionyx/pynogram", "pynogram/examples", (".txt",)),
    "pbnsolve": ("avi-levy/pbnsolve", "examples", (".mk",)),
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
    def flagged(self) -> bool:
        limit = self.pbnsolve_s if self.pbnsolve_s > FLOOR else FLOOR
        return self.excover_s > limit


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
    from excover import ExcoverError
    from excover.puzzles import nonogram

    excover = [sys.executable, "-m", "excover", "nonogram", "--classify"]
    results: list[Result] = []
    for path in files:
        try:
            puzzle = nonogram.read(path)
        except ExcoverError as error:
            print(f"  skipped {path.name}: {error}", file=sys.stderr)
            continue
        converted = tmp / f"{len(results)}.non"
        nonogram.write(puzzle, converted)
        best_x = best_p = float("inf")
        answer_x = answer_p = ""
        cap = args.timeout + 5
        for _ in range(args.runs):
            seconds, out = _timed([*excover, "--timeout", str(args.timeout), str(path)], env, cap)
            best_x, answer_x = min(best_x, seconds), out.strip() or "error"
            seconds, out = _timed(
                [str(args.pbnsolve), "-u", "-b", f"-x{int(args.timeout)}", str(converted)], env, cap
            )
            best_p, answer_p = min(best_p, seconds), pbnsolve_status(out)
        results.append(
            Result(path.name, f"{puzzle.height}x{puzzle.width}", answer_x, answer_p, best_x, best_p)
        )
    return results


def _table(name: str, results: list[Result]) -> None:
    print(f"\n{name}: {len(results)} puzzles (whole-process wall time, best of runs)")
    print(
        f"  {'puzzle':<28} {'size':>7} {'excover':>9} {'pbnsolve':>9} "
        f"{'ms ex':>8} {'ms pb':>8} {'ratio':>6}"
    )
    for r in results:
        mark = " !" if r.flagged else ""
        mark += "  DISAGREE" if r.excover != r.pbnsolve else ""
        print(
            f"  {r.name[:28]:<28} {r.size:>7} {r.excover:>9} {r.pbnsolve:>9} "
            f"{1000 * r.excover_s:8.1f} {1000 * r.pbnsolve_s:8.1f} {r.ratio:6.2f}{mark}"
        )
    if results:
        ratios = sorted(r.ratio for r in results)
        flagged = sum(r.flagged for r in results)
        agree = sum(r.excover == r.pbnsolve for r in results)
        print(
            f"  median ratio {ratios[len(ratios) // 2]:.2f}, max {ratios[-1]:.2f}; "
            f"{flagged} flagged; {agree}/{len(results)} agree"
        )


def _tournament(path: Path, args: argparse.Namespace, env: dict[str, str], tmp: Path) -> None:
    from excover.puzzles import nonogram

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
        one = tmp / f"t{k}.non"
        nonogram.write(puzzle, one)
        seconds, out = _timed(
            [str(args.pbnsolve), "-u", "-b", f"-x{int(args.timeout)}", str(one)],
            env,
            args.timeout + 5,
        )
        seconds_p += seconds
        answers_p.append(pbnsolve_status(out))
    agree = sum(a == b for a, b in zip(answers_x, answers_p, strict=False))
    slow_x = answers_x.count("unknown")
    slow_p = sum(a not in ("unique", "multiple", "none") for a in answers_p)
    counts = {s: answers_x.count(s) for s in ("unique", "multiple", "none")}
    print(
        f"  {path.stem:<10} {len(puzzles):>5} {seconds_x:9.1f} {slow_x:>5} "
        f"{seconds_p:9.1f} {slow_p:>5} "
        f"{seconds_x / seconds_p:6.2f}  {agree}/{len(puzzles)} agree; excover {counts}"
    )


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
    args = parser.parse_args(argv)
    names = [name for name in args.sets.split(",") if name]
    if args.fetch:
        _fetch(args.data_dir, args.mirrors, [*names, *(["tournament"] if args.tournament else [])])
    if not args.pbnsolve.exists():
        sys.exit(f"{args.pbnsolve} missing: run benchmarks/build-pbnsolve.sh first")
    cache = tempfile.mkdtemp(prefix="excover-pbn-")
    try:
        # bytecode as an installed package has it (see benchmarks/startup.py)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        subprocess.run(
            [sys.executable, "-m", "excover", "--help"], env=env, capture_output=True, check=True
        )
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"excover against {args.pbnsolve} (load average {load:.2f}); '!': over target")
        every: list[Result] = []
        for name in names:
            results = _compare(_files(args.data_dir, name), args, env, Path(cache))
            _table(name, results)
            every += results
        if every:
            flagged = [r.name for r in every if r.flagged]
            print(
                f"\nall sets: {len(every)} puzzles, {len(flagged)} over target: "
                + ", ".join(flagged)
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
