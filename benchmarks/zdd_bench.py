"""ZDD benchmarks: counts with time and peak memory, each case in a fresh process.

Run from the repository root: ``python benchmarks/zdd_bench.py`` prints a Markdown table
(``--case NAME`` runs one case and prints its JSON line; ``--auto`` adds the comparison of
``method="auto"`` with plain DLX and DXZ on every Knuth file, ``--auto-only`` prints only
that). The shapes come from
``tests/data/combine`` (combine's examples) and Knuth's ``.dlx`` files from
``tests/data/knuth``; expected counts are the ones recorded there.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _data import COMBINE_DATA, KNUTH_DATA

from excover import ExactCover
from excover.zdd import dxz

SHARED = COMBINE_DATA
KNUTH = KNUTH_DATA

#: Expected counts from tests/data/combine/INDEX.md and tests/data/knuth/MANIFEST.md.
EXPECTED = {
    "caml_large": 32420116341024288,
    "euler_30x27": 971166110121482088250709280,
    "dominos_c4_22x22": 2255578550442504749056000000,
    "domino8x8": 12988816,
    "domino10x10": 258584046368,
    "domino12x12": 53060477521960000,
    "queens8": 92,
    "queens9": 352,
    "queens10": 724,
    "queens11": 2680,
    "queens12": 14200,
    "queens13": 73712,
}


#: Runs known to take far longer than the others, left out of the --auto table: DLX
#: enumerates 10^11 tilings one by one; DXZ on the pentomino packings of rectangles
#: (measured before: over 30 s each, where DLX takes 0.04-5 s).
NOT_RUN = {("domino10x10", "search"), ("domino12x12", "search")}
NOT_RUN |= {(f"pento{shape}", "zdd") for shape in ("3x20", "4x15", "5x12", "6x10", "6x10-xq")}


def shape_dominoes(path: Path) -> ExactCover:
    """Domino tilings of a shape drawn with ``*`` cells: one item per cell (reading
    order), one option per pair of neighbouring cells, in reading order."""
    rows = [line.rstrip("\n") for line in path.read_text().splitlines() if line.strip()]
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"]
    present = set(cells)
    problem = ExactCover(primary=[f"{r}_{c}" for r, c in cells])
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr, c + dc) in present:
                problem.add_option([f"{r}_{c}", f"{r + dr}_{c + dc}"])
    return problem


def queens(n: int) -> ExactCover:
    """Knuth's n queens: rows and columns primary, diagonals secondary."""
    problem = ExactCover(
        primary=[f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
        secondary=[f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)],
    )
    for i in range(n):
        for j in range(n):
            problem.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"])
    return problem


def load(name: str) -> ExactCover:
    if name.startswith("queens") and not (KNUTH / f"{name}.dlx").exists():
        return queens(int(name[6:]))
    if (KNUTH / f"{name}.dlx").exists():
        return ExactCover.read(KNUTH / f"{name}.dlx")
    return shape_dominoes(SHARED / f"{name}.txt")


#: Address-space cap of one case (bytes): a blow-up ends in MemoryError, not swapping.
MEMORY_CAP = 3 * 2**30


#: Cases that take less than this (seconds) are timed again, the best time kept: at a
#: millisecond a single cold run measures page faults and cache misses more than the method.
REPEAT_BELOW = 1.0
#: The most timings of one case.
MAX_REPEATS = 5


def run_case(name: str, method: str) -> dict[str, object]:
    """One measurement by ``method``: ``search``, ``auto`` (counts), ``zdd`` (the DXZ family,
    counted), ``family`` (``p.zdd()``, renamed to the option numbers), ``columns``; the
    best of up to :data:`MAX_REPEATS` timings while they add up to under
    :data:`REPEAT_BELOW` seconds (``family`` and ``columns`` use the default manager,
    which would remember the nodes of the first run, so they are timed once)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    problem = load(name)
    problem.engine_input()
    timings: list[float] = []
    repeats = MAX_REPEATS if method in ("search", "zdd", "auto") else 1  # fresh state each time
    while len(timings) < repeats and sum(timings) < REPEAT_BELOW:
        start = time.perf_counter()
        value, size = measure(problem, method)
        timings.append(time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "case": name,
        "method": method,
        "count": value,
        "zdd_nodes": size,
        "seconds": min(timings),
        "runs": len(timings),
        "peak_mb": peak,
    }


def measure(problem: ExactCover, method: str) -> tuple[int, int | None]:
    """The count of ``problem`` by ``method`` (see :func:`run_case`), and the ZDD size."""
    size = None
    if method == "family":
        family = problem.zdd()
        value, size = family.count(), family.size
    elif method == "columns":
        family = problem.zdd("columns")
        value, size = family.count(), family.size
    elif method == "zdd":
        built = dxz.run_dxz(problem, dxz.search_manager()).family
        assert built is not None  # no budget: the search ran to its end
        value, size = built.count(), built.size
    else:
        value = problem.count(method=method)
    return value, size


def spawn(name: str, method: str, timeout: float) -> dict[str, object] | None:
    """``run_case`` in a fresh interpreter (so its peak memory is its own)."""
    try:
        out = subprocess.run(
            [sys.executable, __file__, "--case", name, "--method", method],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        ).stdout
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
        return None
    result: dict[str, object] = json.loads(out)
    return result


def table(rows: list[tuple[str, str]], timeout: float, show: Callable[[str], None]) -> None:
    show("| problem | method | count | ok | ZDD nodes | time (s) | peak MB |")
    show("|---|---|---:|:-:|---:|---:|---:|")
    for name, method in rows:
        r = spawn(name, method, timeout)
        if r is None:
            show(f"| {name} | {method} | > {timeout:.0f} s or > 3 GB | | | | |")
            continue
        ok = "yes" if EXPECTED.get(name) in (None, r["count"]) else "NO"
        nodes = "" if r["zdd_nodes"] is None else f"{r['zdd_nodes']:,}"
        show(
            f"| {name} | {method} | {r['count']:,} | {ok} | {nodes} | "
            f"{r['seconds']:.3f} | {r['peak_mb']:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case")
    parser.add_argument("--method", default="zdd")
    parser.add_argument("--compare", help="time DLX, DXZ and auto on one Knuth file")
    parser.add_argument("--auto", action="store_true")
    parser.add_argument("--auto-only", action="store_true", help="only the --auto table")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.method)))
        return
    if args.compare:
        print(json.dumps(compare_case(args.compare)))
        return
    rows = [(name, "zdd") for name in ["caml_large", "euler_30x27", "dominos_c4_22x22"]]
    rows += [(f"domino{n}x{n}", "zdd") for n in (8, 10, 12)]
    rows += [("caml_large", "columns"), ("domino8x8", "columns")]
    rows += [(f"queens{n}", "family") for n in range(8, 14)]
    if args.auto_only:
        rows = []
    if rows:
        table(rows, args.timeout, print)
    if args.auto or args.auto_only:
        auto_table(args.timeout, print)


#: Rounds of the --auto comparison: each round times every method once, in turn, in one
#: process, so that all three see the same machine load; the best of each is kept.
COMPARE_ROUNDS = 40
#: No new round once the rounds so far took this long (seconds).
COMPARE_SECONDS = 2.0


def compare_case(name: str) -> dict[str, object]:
    """The best times of DLX, DXZ and auto on one Knuth file over interleaved rounds."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    problem = load(name)
    problem.engine_input()
    methods = [m for m in ("search", "zdd", "auto") if (name, m) not in NOT_RUN]
    best: dict[str, float] = {}
    counts: dict[str, int] = {}
    rounds, spent = 0, 0.0
    while rounds < COMPARE_ROUNDS and (rounds == 0 or spent < COMPARE_SECONDS):
        for method in methods:
            start = time.perf_counter()
            counts[method] = measure(problem, method)[0]
            seconds = time.perf_counter() - start
            best[method] = min(best.get(method, seconds), seconds)
            spent += seconds
        rounds += 1
    return {"case": name, "best": best, "counts": counts, "rounds": rounds}


def auto_table(timeout: float, show: Callable[[str], None]) -> None:
    """``method="auto"`` against plain DLX and DXZ on every Knuth file (best times over
    interleaved rounds, see :func:`compare_case`), with the ratio of auto's time to the
    better of the two."""
    show("| Knuth file | count | DLX (ms) | DXZ (ms) | auto (ms) | auto / best | rounds |")
    show("|---|---:|---:|---:|---:|---:|---:|")
    for path in sorted(KNUTH.glob("*.dlx")):
        try:
            out = subprocess.run(
                [sys.executable, __file__, "--compare", path.stem],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=True,
            ).stdout
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            show(f"| {path.stem} | > {timeout:.0f} s or > 3 GB | | | | | |")
            continue
        r = json.loads(out)
        best, counts = r["best"], r["counts"]
        if len(set(counts.values())) != 1:
            show(f"| {path.stem} | counts differ: {counts} | | | | | |")
            continue
        cells = [
            f"{best[m] * 1e3:.3f}" if m in best else "not run" for m in ("search", "zdd", "auto")
        ]
        ratio = best["auto"] / min(best[m] for m in best if m != "auto")
        count = counts["auto"]
        show(f"| {path.stem} | {count:,} | {' | '.join(cells)} | {ratio:.2f} | {r['rounds']} |")


if __name__ == "__main__":
    main()
