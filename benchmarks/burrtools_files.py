"""BurrTools' own puzzles: every ``.xmpuzzle`` of github.com/burr-tools/burr-tools
(``examples/`` and ``doc_src/``), counted up to symmetry and set beside the count stored
in the file.

For each problem of each file (every grid): the number of assemblies BurrTools stored
(solved problems only), excover's count up to BurrTools' symmetries
(``ExactCover.from_burrtools(puzzle, n).count(up_to_symmetry=True)``, under the group
that :mod:`excover.burr.xmpuzzle.cover` declares),
and the time of reading, building and counting (``burrtools_grids.py`` times the files
of the four other grids beside burrTxt). With ``--burrtxt PATH`` (BurrTools' command-line solver
``burrTxt`` built from the same repository) its count is printed too: a stored count
may come from an older BurrTools.

Target (issue #42): every stored count is matched, or the difference is explained.

    python benchmarks/burrtools_files.py BURR_TOOLS_DIR [--burrtxt PATH]

BURR_TOOLS_DIR is a checkout of burr-tools/burr-tools or a bare git directory of it.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from excover import ExactCover, ExcoverError
from excover.burr.xmpuzzle import parse_xmpuzzle

FOLDERS = ("examples/", "doc_src/")


def puzzle_files(source: Path) -> dict[str, bytes]:
    """The .xmpuzzle files of the repository at ``source`` (a checkout or a bare git
    directory), by path."""
    if (source / "examples").is_dir():
        found = sorted(p for folder in FOLDERS for p in (source / folder).glob("*.xmpuzzle"))
        return {str(p.relative_to(source)): p.read_bytes() for p in found}
    listing = subprocess.run(
        ["git", "-C", str(source), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    paths = sorted(p for p in listing if p.endswith(".xmpuzzle") and p.startswith(FOLDERS))
    return {
        p: subprocess.run(
            ["git", "-C", str(source), "show", f"HEAD:{p}"], capture_output=True, check=True
        ).stdout
        for p in paths
    }


def burrtxt_count(burrtxt: str, data: bytes, number: int) -> str:
    """The number of assemblies ``burrTxt -q -o N`` prints for the problem."""
    with tempfile.NamedTemporaryFile(suffix=".xmpuzzle") as file:
        file.write(data)
        file.flush()
        done = subprocess.run(
            [burrtxt, "-q", "-o", str(number), file.name],
            capture_output=True,
            text=True,
            check=False,
            timeout=3600,
        )
    found = re.search(r"(\d+) assemblies", done.stdout)
    return found.group(1) if found else "?"


def rows_of(path: str, data: bytes, burrtxt: str | None) -> list[list[str]]:
    """The table's rows for one file: one per problem, or one saying why it is refused."""
    try:
        puzzle = parse_xmpuzzle(data, path)
    except ExcoverError as error:
        return [[path, "-", "-", "-", "-", f"unreadable: {error}"]]
    if not puzzle.problems:
        return [[path, "-", "-", "-", "-", f"no problem in the file (grid: {puzzle.grid_name})"]]
    rows = []
    for number, problem in enumerate(puzzle.problems):
        stored = str(problem.assemblies) if problem.state == 2 else "-"
        started = time.perf_counter()
        try:
            ours = str(ExactCover.from_burrtools(puzzle, number).count(up_to_symmetry=True))
        except ExcoverError as error:
            rows.append([path, str(number), stored, "refused", "-", str(error).split(": ", 1)[-1]])
            continue
        seconds = f"{time.perf_counter() - started:.2f}"
        extra = "" if burrtxt is None else f"burrTxt: {burrtxt_count(burrtxt, data, number)}"
        verdict = "" if stored in ("-", ours) else "DIFFERS"
        rows.append(
            [path, str(number), stored, ours, seconds, " ".join(filter(None, [verdict, extra]))]
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, help="burr-tools checkout or bare git dir")
    parser.add_argument("--burrtxt", help="BurrTools' burrTxt binary, for a third column")
    args = parser.parse_args()
    if args.source is None or not args.source.exists():
        print(
            "missing: a copy of github.com/burr-tools/burr-tools (a checkout or a bare git "
            "directory) given as the first argument; its examples/ and doc_src/ hold the "
            "23 .xmpuzzle files this benchmark reads",
            file=sys.stderr,
        )
        return 2
    files = puzzle_files(args.source)
    header = ["file", "problem", "stored", "ours", "time (s)", "note"]
    rows = [row for path, data in files.items() for row in rows_of(path, data, args.burrtxt)]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    for row in [header, *rows]:
        print(
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[5]
        )
    print(f"{len(files)} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
