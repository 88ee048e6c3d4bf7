"""Benchmark dancing links (``engine="dlx"``) on Knuth's inputs, against DLX1's statistics.

Runs every ``.dlx`` file of Knuth's benchmark directory (``tests/data/knuth``
from the repository root, or ``--dir``) except those its MANIFEST.md marks as too many for
plain DLX, plus a few larger instances built here with the :class:`~excover.ExactCover`
API, and prints one row per instance: the algorithm used, solutions, nodes, updates, time,
millions of updates per second, the engine's bytes and Knuth's DLX1 byte count for the
same problem, and whether solutions, nodes and updates equal Knuth's figures (for our own
instances: whether the count equals the known one).

Usage: ``python benchmarks/knuth_dlx.py [--dir DIR] [--files NAME ...] [--skip-large]
[--repeat N]``. ``--skip-large`` leaves out what takes DLX1 a second or more (and our big
instances); ``--repeat N`` runs each instance N times and keeps the fastest, which filters
out the noise of a busy machine.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from _data import KNUTH_DATA

from excover import ExactCover, Search
from excover.puzzles.queens import queens

__all__ = ["main"]

DEFAULT_DIR = KNUTH_DATA

#: Instances that took DLX1 at least this long (seconds) are "large".
LARGE_SECONDS = 1.0


@dataclass(frozen=True)
class Reference:
    """What a run should find: Knuth's DLX1 figures, or a count known from elsewhere."""

    solutions: int | None
    nodes: int | None = None
    updates: int | None = None
    large: bool = False


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    name: str
    algorithm: str
    solutions: int
    nodes: int
    updates: int
    seconds: float
    engine_bytes: int
    knuth_bytes: int
    verdict: str


def read_manifest(path: Path) -> tuple[dict[str, Reference], set[str]]:
    """Knuth's figures by file name, and the files marked too many for plain DLX."""
    figures: dict[str, Reference] = {}
    skipped: set[str] = set()
    for line in path.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[0].endswith((".dlx", ")")):
            continue
        name = cells[0].split()[0]
        if "too many" in line:
            skipped.add(name)
            continue
        solutions, nodes, updates = (int(cell.replace(",", "")) for cell in cells[1:4])
        figures[name] = Reference(solutions, nodes, updates, _is_large(cells[4]))
    return figures, skipped


def _is_large(cell: str) -> bool:
    """Whether a time cell such as ``0.21-0.23 s`` or ``<0.01 s`` reaches LARGE_SECONDS."""
    numbers = [float(number) for number in re.findall(r"\d+(?:\.\d+)?", cell)]
    return bool(numbers) and max(numbers) >= LARGE_SECONDS


def langford(n: int) -> ExactCover:
    """Langford pairs: two copies of each k in 1..n at positions j and j+k+1 of 1..2n."""
    problem = ExactCover(
        primary=[str(k) for k in range(1, n + 1)] + [f"s{j}" for j in range(1, 2 * n + 1)]
    )
    for k in range(1, n + 1):
        for j in range(1, 2 * n - k):
            problem.add_option([str(k), f"s{j}", f"s{j + k + 1}"])
    return problem


#: Our own instances: name, builder, and the known count (OEIS A000170, twice A014552).
OWN: list[tuple[str, Callable[[], ExactCover], Reference]] = [
    ("langford12 (API)", lambda: langford(12), Reference(2 * 108_144)),
    ("queens15 (API)", lambda: queens(15), Reference(2_279_184, large=True)),
]


def knuth_bytes(problem: ExactCover) -> int:
    """DLX1's own byte count: 16 per item record (the root included), 16 per node (item
    headers, option nodes and spacers) and 4 per level (at most one per primary item)."""
    arrays = problem.engine_input()
    items = problem.n_items + 1
    nodes = items + problem.n_options + 1 + len(arrays.node_item)
    return 16 * items + 16 * nodes + 4 * min(problem.n_primary, problem.n_options)


def verdict(reference: Reference, solutions: int, nodes: int, updates: int) -> str:
    """``same`` when every figure the reference has is matched; otherwise what differs."""
    wrong = [
        label
        for label, expected, got in (
            ("solutions", reference.solutions, solutions),
            ("nodes", reference.nodes, nodes),
            ("updates", reference.updates, updates),
        )
        if expected is not None and expected != got
    ]
    if wrong:
        return "DIFFERENT " + ",".join(wrong)
    if reference.solutions is None:
        return "no reference"
    return "same" if reference.nodes is not None else "count ok"


def measure(name: str, problem: ExactCover, reference: Reference, repeat: int) -> Row:
    """Count the problem's solutions ``repeat`` times and collect the row, with the best
    time (every run reports the same statistics)."""
    search = Search(problem, engine="dlx")
    search.count()
    seconds = search.stats.seconds
    for _ in range(repeat - 1):
        search.reset()
        search.count()
        seconds = min(seconds, search.stats.seconds)
    stats = search.stats
    return Row(
        name=name,
        algorithm=stats.algorithm,
        solutions=stats.solutions,
        nodes=stats.nodes,
        updates=stats.updates,
        seconds=seconds,
        engine_bytes=search.memory_bytes,
        knuth_bytes=knuth_bytes(problem),
        verdict=verdict(reference, stats.solutions, stats.nodes, stats.updates),
    )


HEADER = (
    "instance",
    "alg",
    "solutions",
    "nodes",
    "updates",
    "seconds",
    "Mupd/s",
    "bytes",
    "Knuth bytes",
    "vs Knuth",
)


def cells(row: Row) -> tuple[str, ...]:
    rate = row.updates / row.seconds / 1e6 if row.seconds > 0 else 0.0
    return (
        row.name,
        row.algorithm,
        f"{row.solutions:,}",
        f"{row.nodes:,}",
        f"{row.updates:,}",
        f"{row.seconds:.3f}",
        f"{rate:.1f}",
        f"{row.engine_bytes:,}",
        f"{row.knuth_bytes:,}",
        row.verdict,
    )


def format_table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table (numbers right-aligned)."""
    table = [HEADER, *(cells(row) for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    numeric = {2, 3, 4, 5, 6, 7, 8}

    def line(values: Sequence[str]) -> str:
        padded = (
            value.rjust(width) if i in numeric else value.ljust(width)
            for i, (value, width) in enumerate(zip(values, widths, strict=True))
        )
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            "-" * (width + 1) + (":" if i in numeric else "-") for i, width in enumerate(widths)
        )
        + "|"
    )
    return "\n".join([line(HEADER), rule, *(line(values) for values in table[1:])])


def instances(
    directory: Path, names: Sequence[str] | None, skip_large: bool
) -> list[tuple[str, Callable[[], ExactCover], Reference]]:
    """The instances to run, in order: Knuth's files, then our own."""
    figures, too_many = read_manifest(directory / "MANIFEST.md")
    chosen: list[tuple[str, Callable[[], ExactCover], Reference]] = []
    for path in sorted(directory.glob("*.dlx")):
        if path.name in too_many:
            continue
        reference = figures.get(path.name, Reference(None))
        chosen.append((path.name, partial(ExactCover.read, path), reference))
    chosen.extend(OWN)
    if names:
        chosen = [entry for entry in chosen if entry[0].split()[0] in names]
    if skip_large:
        chosen = [entry for entry in chosen if not entry[2].large]
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="Knuth's directory")
    parser.add_argument("--files", nargs="+", metavar="NAME", help="only these instances")
    parser.add_argument("--skip-large", action="store_true", help="skip the slow instances")
    parser.add_argument("--repeat", type=int, default=1, help="runs per instance (best time)")
    args = parser.parse_args(argv)
    rows = []
    for name, build, reference in instances(args.dir, args.files, args.skip_large):
        rows.append(measure(name, build(), reference, max(1, args.repeat)))
        print(f"{name}: done", file=sys.stderr, flush=True)
    print(format_table(rows))
    return 0 if all(not row.verdict.startswith("DIFFERENT") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
