"""Every ``.non`` file of the public collections, read and solved: solved, unique,
matches its published picture.

The collections (Simpson's ``.non`` format and its dialects, as found in public
repositories; none is copied into this repository but webpbn's *Dancer*, which the tests
use beside files of excover's own in each dialect, see ``tests/data/nonogram/non/README.md``)::

    gkikola/nonny                 data/puzzles/   the Nonny game: 35 black and white,
                                                  3 in colour ('color red FF0000 #',
                                                  clues 'red 1 yellow 4 red 1'); GPL-3.0
    mikix/nonogram-db             db/             webpbn, qnonograms, gnonograms: every
                                                  file with its 'goal'; GPL-3.0 and the
                                                  puzzles' own licences
    pierre-dejoue/picross-solver  inputs/         webpbn, Wilk's, nonograms.org, a
                                                  512x512 one; MIT
    simpsonst/nonogram            utnomore.non    Steve Simpson's own ('maxrule'); GPL-2.0
    Wolfyxon/3ds-web-stuff        games/picross/boards/   blank lines for empty columns

Each ``MIRROR_DIR`` holds bare git copies laid out as ``MIRROR_DIR/OWNER+NAME/repo`` (or
``MIRROR_DIR/OWNER+NAME`` itself a git directory); the files are read from each copy's
``HEAD`` with ``git``, nothing is written. For each file the script prints its size,
its number of colours, what excover's reader and solver make of it (``unique``,
``multiple``, ``none``, ``timeout`` after ``--timeout`` seconds, or the reader's error)
and whether the solution is the published picture: ``yes`` or ``NO`` against the
file's ``goal`` when the solution is unique; ``fits`` when the puzzle has several
solutions and the goal satisfies every clue (it is one of them); ``-`` when the
collection publishes none. Collections missing from every
mirror are named, with the command that brings them; without any it only says that.

Usage: ``python benchmarks/nonogram_public_non.py [--timeout S] MIRROR_DIR...``; the exit
status is 1 when a file is not read, not solved or does not match its picture.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from excover import ExcoverError, LimitReached, nonogram

__all__ = ["COLLECTIONS", "Row", "main"]

#: The public collections of ``.non`` files: repository and folder (or file) in it.
COLLECTIONS = {
    "gkikola/nonny": "data/puzzles",
    "mikix/nonogram-db": "db",
    "pierre-dejoue/picross-solver": "inputs",
    "simpsonst/nonogram": "utnomore.non",
    "Wolfyxon/3ds-web-stuff": "games/picross/boards",
}


@dataclass
class Row:
    """What became of one file."""

    repo: str
    path: str
    size: str = "-"
    colours: int = 0
    status: str = "-"
    goal: str = "-"
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Read, solved, and the published picture where there is one."""
        return self.status in ("unique", "multiple") and self.goal != "NO"


def _git(git_dir: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def _git_dir(mirrors: list[Path], repo: str) -> Path | None:
    """The bare copy of ``repo`` in the first mirror that has one."""
    for root in mirrors:
        for candidate in (root / repo.replace("/", "+") / "repo", root / repo.replace("/", "+")):
            if (candidate / "HEAD").is_file():
                return candidate
    return None


def _solve(repo: str, path: str, text: str, timeout: float) -> Row:
    """Read and classify one file; compare its solution with its ``goal``."""
    row = Row(repo, path)
    start = time.perf_counter()
    try:
        puzzle = nonogram.loads(text, "non", f"{repo}:{path}")
    except ExcoverError as error:
        row.status = f"error: {error}"
        return row
    row.size = f"{puzzle.width}x{puzzle.height}"
    row.colours = len(puzzle.palette or ())
    try:
        found = [tuple(p) for p in nonogram.solutions(puzzle, limit=2, timeout=timeout)]
        row.status = ("none", "unique", "multiple")[len(found)]
    except LimitReached:
        row.status, found = "timeout", []
    row.seconds = time.perf_counter() - start
    if puzzle.goal is not None and row.status == "unique":
        row.goal = "yes" if puzzle.goal == found[0] else "NO"
    elif puzzle.goal is not None and row.status == "multiple":
        # one picture of many: it must satisfy every clue, as the solutions do
        row.goal = "fits" if puzzle.mismatch(puzzle.goal) is None else "NO"
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mirrors", nargs="*", type=Path, metavar="MIRROR_DIR")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    missing: list[str] = []
    for repo, folder in COLLECTIONS.items():
        git_dir = _git_dir(args.mirrors, repo)
        if git_dir is None:
            missing.append(repo)
            continue
        names = _git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", "--", folder).split("\n")
        for path in sorted(name for name in names if name.endswith(".non")):
            text = _git(git_dir, "show", f"HEAD:{path}")
            rows.append(row := _solve(repo, path, text, args.timeout))
            print(
                f"{repo:<29} {path:<58} {row.size:>7} {row.colours:>2} "
                f"{row.status:<9} {row.goal:<4} {row.seconds:7.3f}s",
                flush=True,
            )
    for repo in missing:
        print(
            f"missing: {repo} (bring a bare copy: git clone --bare "
            f"https://github.com/{repo} MIRROR_DIR/{repo.replace('/', '+')}/repo)"
        )
    if not rows:
        print("no collection found: give the folders holding their bare copies")
        return 2
    solved = sum(row.status in ("unique", "multiple") for row in rows)
    unique = sum(row.status == "unique" for row in rows)
    goals = [row.goal for row in rows if row.goal != "-"]
    print(
        f"{len(rows)} files: {solved} solved, {unique} unique, "
        f"{goals.count('yes')} of {len(goals)} published pictures matched "
        f"({goals.count('fits')} more fit puzzles of several solutions), "
        f"{sum(row.colours > 0 for row in rows)} in colour"
    )
    return 0 if all(row.ok for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
