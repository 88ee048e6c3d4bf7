"""Benchmark colour nonograms: classify random colour puzzles and the colour puzzles the
repository holds, check every answer with a checker of this script's own, and compare
the routes.

Random puzzles: ``--per-size`` (default 10) pictures of each size 10, 15, 20, 25, 30,
with 2 to 4 colours and about a quarter of the cells white (seeds from ``--seed``). Each
is classified by the compiled route (``propagate``); ``--sat N`` also classifies the
first N puzzles of each size by SAT and checks that both find the same answer. Then the
colour puzzles of ``examples/nonograms`` and ``tests/data/nonogram``, by all three
routes.

``--mirror ROOT`` adds the colour puzzles of two public repositories when bare git
copies of them are under ROOT (``tsionyx+pynogram/repo``: the ``[colors]`` examples of
pynogram; ``avi-levy+pbnsolve/repo``: the ``.g`` examples with colour declarations,
triangles excepted), by excover's readers of their formats; they are read from there
and not kept in this repository (their puzzles' licences are unclear). When pbnsolve is built at
``~/.cache/excover-bench/pbnsolve/bin/pbnsolve`` the webpbn XML of each puzzle is also
given to it and its answer compared.

Usage: ``python benchmarks/nonogram_colour_bench.py [--per-size N] [--seed S] [--sat N]
[--mirror ROOT]``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from nonogram_pbnsolve import pbnsolve_pictures

from excover import ExcoverError, nonogram

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
SIZES = (10, 15, 20, 25, 30)
PALETTE = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
PBNSOLVE = Path.home() / ".cache" / "excover-bench" / "pbnsolve" / "bin" / "pbnsolve"


def runs(cells: Sequence[str]) -> list[tuple[int, str]]:
    """The coloured runs of a line (``.`` is white): this script's own checker."""
    return [(len(list(g)), ch) for ch, g in itertools.groupby(cells) if ch != "."]


def check(puzzle: nonogram.Puzzle, picture: Sequence[str]) -> bool:
    """Whether ``picture`` satisfies every clue, read from the clues as (length, char)."""
    rows = [[tuple(b) for b in clue] for clue in puzzle.row_blocks]
    cols = [[tuple(b) for b in clue] for clue in puzzle.col_blocks]
    return all(runs(row) == clue for row, clue in zip(picture, rows, strict=True)) and all(
        runs([row[c] for row in picture]) == clue for c, clue in enumerate(cols)
    )


def timed(puzzle: nonogram.Puzzle, method: str) -> tuple[list[list[str]], float]:
    """The first two solutions (enough to classify) and the seconds they took."""
    started = time.perf_counter()
    found = list(nonogram.solutions(puzzle, method=method, limit=2))
    return found, time.perf_counter() - started


def random_puzzle(size: int, rng: random.Random) -> nonogram.Puzzle:
    chars = "rgby"[: rng.randint(2, 4)]
    cells = "." + chars * 3  # about a quarter white with 4 colours, more with fewer
    picture = ["".join(rng.choice(cells) for _ in range(size)) for _ in range(size)]
    palette = {ch: PALETTE[ch] for ch in chars}
    return nonogram.Puzzle.from_picture(picture, palette=palette)


def _status(found: list[list[str]]) -> str:
    return ("none", "unique", "multiple")[len(found)]


def solve_set(name: str, puzzle: nonogram.Puzzle, methods: Sequence[str]) -> None:
    """Solve one named puzzle by ``methods``, check and print."""
    results = []
    for method in methods:
        found, seconds = timed(puzzle, method)
        assert all(check(puzzle, p) for p in found), (name, method)
        results.append(f"{method} {_status(found)} {seconds * 1000:.1f} ms")
        if method == methods[0]:
            first = found
        elif [sorted(map(tuple, first))] != [sorted(map(tuple, found))] and len(first) < 2:
            raise AssertionError(f"{name}: {method} disagrees")
    pbn = pbnsolve_answer(puzzle)
    if pbn is not None:
        results.append(f"pbnsolve {'agrees' if pbn == first[0] else 'DISAGREES'}")
    elif PBNSOLVE.exists():
        results.append("pbnsolve printed no picture")
    print(
        f"{name:<34} {puzzle.height}x{puzzle.width} {len(puzzle.palette or ())} colours: "
        + "; ".join(results)
    )


def pbnsolve_answer(puzzle: nonogram.Puzzle) -> list[str] | None:
    """pbnsolve's first picture of the puzzle (given as webpbn XML, whose colour chars
    it prints), when pbnsolve is built, else None."""
    if not PBNSOLVE.exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.xml"
        nonogram.write(puzzle, path)
        out = subprocess.run(
            [str(PBNSOLVE), str(path)], capture_output=True, text=True, timeout=60
        ).stdout
    pictures = pbnsolve_pictures(out, puzzle.height, puzzle.width)
    return pictures[0] if pictures else None


# ----- the public sets under --mirror -----


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", *args], capture_output=True, text=True, check=True
    ).stdout


def pynogram_puzzles(repo: Path) -> list[tuple[str, nonogram.Puzzle]]:
    """pynogram's examples with colours, read by excover's reader of its INI format."""
    return _colour_files(repo, "pynogram/examples/", ".txt", "ini", "pynogram")


def g_puzzles(repo: Path) -> list[tuple[str, nonogram.Puzzle]]:
    """pbnsolve's ``.g`` examples with colours (those with triangles excover refuses)."""
    return _colour_files(repo, "examples/", ".g", "g", "pbnsolve")


def _colour_files(
    repo: Path, folder: str, suffix: str, format: str, label: str
) -> list[tuple[str, nonogram.Puzzle]]:
    out = []
    for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").split():
        if not path.startswith(folder) or not path.endswith(suffix):
            continue
        try:
            puzzle = nonogram.loads(_git(repo, "show", f"HEAD:{path}"), format, path)
        except ExcoverError as error:
            print(f"skipped {path}: {error}")
            continue
        if puzzle.is_colour:
            out.append((f"{label} {Path(path).name}", puzzle))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sat", type=int, default=3)
    parser.add_argument("--mirror", type=Path)
    args = parser.parse_args(argv)
    print(
        f"{'size':>6} {'puzzles':>7} {'unique':>6} {'multi':>5} {'median ms':>9} "
        f"{'max ms':>8} {'sat agrees':>10} {'sat median ms':>13}"
    )
    seed = args.seed
    for size in SIZES:
        times, sat_times, statuses, agree = [], [], [], 0
        for k in range(args.per_size):
            puzzle = random_puzzle(size, random.Random(seed))
            seed += 1
            found, seconds = timed(puzzle, "propagate")
            assert found and all(check(puzzle, p) for p in found)
            times.append(seconds)
            statuses.append(_status(found))
            if k < args.sat:
                other, sat_seconds = timed(puzzle, "sat")
                assert all(check(puzzle, p) for p in other)
                agree += _status(other) == _status(found)
                sat_times.append(sat_seconds)
        print(
            f"{size:>3}x{size:<2} {len(times):>7} {statuses.count('unique'):>6} "
            f"{statuses.count('multiple'):>5} {statistics.median(times) * 1000:>9.2f} "
            f"{max(times) * 1000:>8.2f} {agree:>4}/{len(sat_times):<5} "
            f"{statistics.median(sat_times) * 1000 if sat_times else 0:>13.1f}"
        )
    named = [
        (str(p.relative_to(ROOT)), nonogram.read(p))
        for p in sorted((ROOT / "examples" / "nonograms").glob("*"))
        + sorted((ROOT / "tests" / "data" / "nonogram").glob("*"))
    ]
    if args.mirror is not None:
        for name, reader in (
            ("tsionyx+pynogram", pynogram_puzzles),
            ("avi-levy+pbnsolve", g_puzzles),
        ):
            repo = args.mirror / name / "repo"
            if repo.exists():
                named += reader(repo)
            else:
                print(f"no {repo}: skipped")
    if not PBNSOLVE.exists():
        print(f"(no pbnsolve at {PBNSOLVE}: no cross-check against it)")
    for name, puzzle in named:
        if puzzle.is_colour:
            methods = (
                ("propagate", "sat", "xcc")
                if puzzle.height * puzzle.width <= 600
                else ("propagate", "sat")
            )
            solve_set(name, puzzle, methods)
    if shutil.which("git") is None:
        print("(git not found)")


if __name__ == "__main__":
    main()
