"""Tensor networks as the anchor (issue #58, item 5): how far the frontier route counts
two arrays of rectangle tilings that Kai Liang extended by tensor-network contractions
(arXiv:2503.17698, 2025), beside his published terms.

The arrays (OEIS, read by antidiagonals, A(n, k) the tilings of a k x n rectangle, so
A(n, k) = A(k, n)):

* A219967: straight trominoes (3 x 1, both ways) and 2 x 2 squares;
* A220054: right trominoes (the L of three cells, its four rotations) and 1 x 1 cells.

Liang's b-files hold antidiagonals n + k <= 35 of both. Their columns k <= 10 are entries
of their own, with b-files of 50 to 1000 terms (Alois P. Heinz), far past the arrays', so
the arrays' reach matters from width 11 on; widths past 17 hold only transposes of
Liang's terms up to height 17. For each width k (11..17 by default) the script counts the
k x n board for n = 1, 2, ... by the frontier route (:func:`excover.zdd.frontier.start`
on the one-word layout of :func:`excover.zdd.frontier.layout`: what
``count(p, route="frontier")`` runs, here paused at the budget), each height counted
from scratch, until the CPU seconds of the width's counts reach ``--budget``: a count the
budget cuts short is not a term. The board is laid out row by row along its width
(``Pattern.constant(n, k)``: k cells to a row), so a state spans about two rows.

Each term is checked against every published term read (``benchmarks/data/liang/``,
from the OEIS's data repository): the arrays' data lines, their 9th and 10th columns and
main diagonals, and the b-files themselves when they are put there (their content is in
Git LFS, which the copy read lacks; the script checks a b-file's SHA-256 against the
entry's LFS pointer before it trusts it). A term past every published range (past
Liang's antidiagonal 35 and every related entry's b-file) is new: printed, not checked,
and saved to ``new-terms-ID.json``, the run's figures to ``reach-ID.json`` (for each
array ID, in ``--out``: ``benchmarks/data/liang/`` by default). The two arrays can run
as two processes, one a core (``--array``).

For each width the report gives Liang's last height (35 - k), the frontier route's last
height within the budget, the CPU seconds of that last count, the seconds of all the
counts of the width, and the states of the widest layer of the last count. The route
recounts every height from scratch; one pass over the rows would give every height of a
width at once (the count of the empty state at each row's end), at the cost of the last
count alone: ``all counts / last count`` says what that would save, and ``one pass``
bounds the height it would reach within the budget (:func:`one_pass`).

Run (nice: the machine is shared)::

    PYTHONPATH=$PWD/src nice python benchmarks/liang_reach.py --budget 60
    PYTHONPATH=$PWD/src nice python benchmarks/liang_reach.py --array A220054 --widths 11-13
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from _load import load_line

from excover import counting
from excover.tiling import Pattern, Tile, Tiling
from excover.zdd import frontier, memory

DATA = Path(__file__).resolve().parent / "data" / "liang"

#: Each array's tiles: (shape, name, symmetry), every tile used any number of times.
PIECES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "A219967": (("***", "I", "all"), ("**\n**", "O", "none")),
    "A220054": (("**\n*.", "L", "all"), ("*", "M", "none")),
}

#: The widths where the arrays are the only published source past height 10.
DEFAULT_WIDTHS = range(11, 18)


def tiling(array: str, k: int, n: int) -> Tiling | None:
    """The k x n board of ``array`` (k cells to a row, n rows; the cells numbered row by
    row, so the frontier's window spans about two rows of k), with the tiles that fit in
    its area (a tiling refuses a tile larger than its board); None when none fits."""
    tiles = [
        Tile(shape, name, "any", symmetry=sym)
        for shape, name, sym in PIECES[array]
        if shape.count("*") <= k * n
    ]
    return Tiling(Pattern.constant(n, k), tiles) if tiles else None


class Count(NamedTuple):
    """One frontier count: the term (None: cut short by the budget), its CPU seconds and
    the states of its widest layer."""

    value: int | None
    seconds: float
    widest: int


def frontier_count(array: str, k: int, n: int, budget: float | None = None) -> Count:
    """T(n, k) of ``array`` by the frontier route, stopped after ``budget`` CPU seconds
    (None: none). The count of an empty board (n or k 0) is 1."""
    if n == 0 or k == 0:
        return Count(1, 0.0, 1)
    board = tiling(array, k, n)
    if board is None:
        return Count(0, 0.0, 0)
    problem = board.problem
    laid_out = frontier.layout(problem)
    if laid_out is None:
        raise SystemExit(f"{array}: the frontier route takes no one-word layout of {k} x {n}")
    n_items = problem.engine_input().n_primary
    widest = 0

    def tick(done: int, states: int) -> None:
        nonlocal widest
        widest = max(widest, states)

    started = time.process_time()
    stop = None if budget is None else (lambda: time.process_time() - started > budget)
    counting = frontier.start(frontier.Layout(n_items, 1, *laid_out), 1, memory.default_bound())
    value = counting.advance(tick, stop)
    seconds = time.process_time() - started
    return Count(None if value is None else int(value), seconds, widest)


class Published:
    """The published terms of one array read (``published.json``, and the b-file when
    it is in the data folder), each board by its two sides in either order."""

    def __init__(self, array: str, folder: Path = DATA) -> None:
        entry = json.loads((folder / "published.json").read_text(encoding="utf-8"))["arrays"][array]
        self.array = array
        self.bfile: dict[str, Any] = entry["bfile"]
        self.last_antidiagonal: int = self.bfile["last_antidiagonal"]
        self.terms: dict[tuple[int, int], tuple[int, str]] = {}
        self.ranges: list[tuple[str, str, int | None, int]] = []  # source, kind, k, last n
        self._antidiagonals(entry["data"], f"{array} data")
        for related in entry["related"]:
            source = related["entry"]
            size = related.get("size")
            self.ranges.append((source, related["kind"], size, related["published_to"]))
            for n, text in enumerate(related["terms"]):
                self._add(n if size is None else size, n, int(text), source)
        self.bfile_read = self._read_bfile(folder / self.bfile["file"])

    def _antidiagonals(self, flat: Sequence[str], source: str) -> None:
        """Enter the terms of the flattened antidiagonals ``flat`` (A(n, d - n) for
        n = 0..d, d = 0, 1, ...)."""
        d = n = 0
        for text in flat:
            self._add(n, d - n, int(text), source)
            n += 1
            if n > d:
                d, n = d + 1, 0

    def _add(self, a: int, b: int, value: int, source: str) -> None:
        key = (min(a, b), max(a, b))
        known = self.terms.get(key)
        if known is not None and known[0] != value:
            raise SystemExit(f"{self.array}: {source} and {known[1]} disagree on {a} x {b}")
        if known is None:
            self.terms[key] = (value, source)

    def _read_bfile(self, path: Path) -> bool:
        """Enter the b-file's terms when it is there and its SHA-256 is the LFS
        pointer's; a file that is there but differs is an error."""
        if not path.exists():
            return False
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != self.bfile["lfs_sha256"]:
            raise SystemExit(
                f"{path}: SHA-256 {digest}, not the entry's {self.bfile['lfs_sha256']}"
            )
        flat = []
        for line in path.read_text(encoding="utf-8").splitlines():
            fields = line.split()
            if fields and not line.startswith("#"):
                flat.append(fields[1])
        self._antidiagonals(flat, f"b-file {path.name} ({self.bfile['author']})")
        return True

    def value(self, k: int, n: int) -> tuple[int, str] | None:
        """The published T(n, k) read and its source, or None."""
        return self.terms.get((min(k, n), max(k, n)))

    def liang_last(self, k: int) -> int:
        """The tallest k-wide board in Liang's b-file."""
        return self.last_antidiagonal - k

    def published_by(self, k: int, n: int) -> str | None:
        """A source whose published range (its b-file's included, read or not) holds
        the k x n board, or None: the term is new."""
        if n + k <= self.last_antidiagonal:
            return f"b-file {self.bfile['file']} ({self.bfile['author']})"
        for source, kind, size, last in self.ranges:
            if kind == "diagonal" and k == n and n <= last:
                return source
            if kind == "column" and size in (k, n) and k + n - size <= last:
                return source
        return None


class Width(NamedTuple):
    """The reach of one width: Liang's last height, the route's, the seconds of its last
    count and of all, the widest layer's states, the terms checked and the new ones."""

    k: int
    liang: int
    reached: int
    last_seconds: float
    all_seconds: float
    widest: int
    checked: int
    unchecked: int
    new: dict[int, int]


def reach(array: str, k: int, budget: float, published: Published) -> Width:
    """Count the k-wide boards of ``array`` by the frontier route for n = 1, 2, ...
    until the width's counts have spent ``budget`` CPU seconds; check each term."""
    spent = last_seconds = 0.0
    reached = widest = checked = unchecked = 0
    new: dict[int, int] = {}
    n = 0
    while spent < budget:
        n += 1
        count = frontier_count(array, k, n, budget - spent)
        spent += count.seconds
        if count.value is None:
            break
        reached, last_seconds, widest = n, count.seconds, count.widest
        known = published.value(k, n)
        if known is not None:
            if known[0] != count.value:
                raise SystemExit(
                    f"{array}: T({n}, {k}) = {count.value} by the frontier route, "
                    f"{known[0]} in {known[1]}"
                )
            checked += 1
        elif published.published_by(k, n) is None:
            new[n] = count.value
            print(f"  new: {array} T({n}, {k}) = {count.value} (not checked)", flush=True)
        else:
            unchecked += 1
    return Width(
        k, published.liang_last(k), reached, last_seconds, spent, widest, checked, unchecked, new
    )


def by_dxz(array: str, k: int, n: int) -> tuple[int, float]:
    """T(n, k) of ``array`` by DXZ (``route="dxz"``: dancing links with a memo of
    sub-problems, another algorithm in another compiled core), and its CPU seconds."""
    board = tiling(array, k, n)
    assert board is not None  # a board past the published ranges holds every tile
    started = time.process_time()
    found = counting.count(board.problem, route="dxz").count
    return found, time.process_time() - started


def one_pass(row: Width, budget: float) -> tuple[int, int]:
    """Bounds on the height one pass over the rows would reach in ``budget`` seconds,
    from the last count (n rows in c seconds). Past the first rows each row holds about
    as many states, but their counts gain a word every 64 bits, so a row costs from c / n
    (the upper bound, n B / c) to c / n times the growth of the count's words, at most
    N / n over N rows (the lower bound, n sqrt(B / c))."""
    if row.last_seconds <= 0:
        return row.reached, row.reached
    ratio = budget / row.last_seconds
    return int(row.reached * ratio**0.5), int(row.reached * ratio)


def commit() -> str:
    """The checkout's commit, with ``+`` when its src/ differs from it."""
    root = str(DATA.parents[2])
    head = subprocess.run(
        ["git", "-C", root, "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    changed = subprocess.run(
        ["git", "-C", root, "status", "--porcelain", "--", "src"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return head + ("+" if changed else "")


#: The widths the script takes: below, the columns are entries of their own (with b-files
#: far past the arrays'); above, boards under 9 rows tall pass antidiagonal 35 while
#: their columns' entries (not recorded here) hold them, so "new" could not be told.
WIDEST = 25


def widths(text: str) -> list[int]:
    """``11-17`` or ``11,13``: the widths, each from 11 to :data:`WIDEST`."""
    chosen: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        try:
            chosen.extend(range(int(low), int(high or low) + 1))
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a width or a range: {part!r}") from None
    if not chosen or min(chosen) < 11 or max(chosen) > WIDEST:
        raise argparse.ArgumentTypeError(
            f"widths go from 11 to {WIDEST}: the columns k <= 10 are entries of their own,"
            " with b-files far past the arrays'"
        )
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--array",
        choices=sorted(PIECES),
        action="append",
        help="an array (repeat for both; default: both)",
    )
    parser.add_argument(
        "--widths",
        type=widths,
        default=list(DEFAULT_WIDTHS),
        help="widths, as 11-17 or 11,13 (default 11-17)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=600.0,
        help="CPU seconds of the counts of each width (default 600)",
    )
    parser.add_argument(
        "--dxz",
        action="store_true",
        help="recount the first new term of each width by DXZ (outside the budget)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DATA,
        help="the folder of each array's reach-ID.json (the figures) and new-terms-ID.json"
        " (default benchmarks/data/liang)",
    )
    args = parser.parse_args(argv)
    if args.budget <= 0:
        parser.error("--budget must be positive")
    print(f"budget: {args.budget:g} CPU seconds of frontier counts per width, one thread")
    for array in args.array or sorted(PIECES):
        run_array(array, args.widths, args.budget, args.out, args.dxz)
    return 0


def run_array(
    array: str, chosen: Sequence[int], budget: float, out: Path, dxz: bool = False
) -> None:
    """Count ``array`` at each width of ``chosen``, print its table and save its figures
    and new terms in ``out``; with ``dxz``, recount the first new term of each width by
    DXZ (a disagreement stops the run)."""
    started = datetime.datetime.now(datetime.UTC)
    record: dict[str, Any] = {
        "array": array,
        "date": f"{started:%Y-%m-%d %H:%M} UTC",
        "commit": commit(),
        "budget": budget,
        "load_before": load_line(),
    }
    published = Published(array)
    read = "read" if published.bfile_read else "not here (Git LFS): its terms unchecked"
    print(f"\n{array}: {record['date']}, commit {record['commit']}, {record['load_before']}")
    print(f"Liang's b-file {published.bfile['file']}: {read}")
    print(
        "| k | Liang's last n | reached n | last count (s) | all counts (s) | all / last "
        "| one pass: n | widest layer (states) | checked | unchecked | new |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows: list[dict[str, Any]] = []
    terms: dict[str, dict[str, str]] = {}
    for k in chosen:
        row = reach(array, k, budget, published)
        ratio = row.all_seconds / row.last_seconds if row.last_seconds else 0.0
        low, high = one_pass(row, budget)
        print(
            f"| {k} | {row.liang} | {row.reached} | {row.last_seconds:.2f} "
            f"| {row.all_seconds:.2f} | {ratio:.1f} | {low}-{high} "
            f"| {row.widest:,} | {row.checked} | {row.unchecked} | {len(row.new)} |",
            flush=True,
        )
        rows.append(
            {
                "k": k,
                "liang_last_n": row.liang,
                "reached_n": row.reached,
                "last_count_seconds": round(row.last_seconds, 3),
                "all_counts_seconds": round(row.all_seconds, 3),
                "one_pass_n_low": low,
                "one_pass_n_high": high,
                "widest_layer_states": row.widest,
                "checked": row.checked,
                "unchecked": row.unchecked,
                "new": len(row.new),
            }
        )
        terms[str(k)] = {str(n): str(value) for n, value in row.new.items()}
        if dxz and row.new:
            n = min(row.new)
            found, seconds = by_dxz(array, k, n)
            if found != row.new[n]:
                raise SystemExit(
                    f"{array}: T({n}, {k}) = {row.new[n]} by the frontier route, {found} by DXZ"
                )
            print(f"  DXZ agrees on T({n}, {k}) ({seconds:.2f} s of CPU)", flush=True)
            rows[-1]["dxz_agrees"] = {"n": n, "seconds": round(seconds, 3)}
        save(out, record, published.bfile_read, rows, terms)
    print(load_line())
    print(f"saved to {out}/reach-{array}.json and new-terms-{array}.json")


def save(
    out: Path,
    record: dict[str, Any],
    bfile_read: bool,
    rows: list[dict[str, Any]],
    terms: dict[str, dict[str, str]],
) -> None:
    """Write an array's figures and new terms so far (after each width: a run stopped
    early keeps the widths it finished)."""
    array = record["array"]
    record.update(bfile_read=bfile_read, widths=rows, load_after=load_line())
    figures = json.dumps(record, indent=1) + "\n"
    (out / f"reach-{array}.json").write_text(figures, encoding="utf-8")
    about = (
        "Terms past every published range read (benchmarks/data/liang/README.md), by the"
        " frontier route alone: not checked. By width k, then height n: the tilings of"
        " a k x n board."
    )
    keep = {"about": about, "array": array, "date": record["date"], "commit": record["commit"]}
    new = json.dumps({**keep, "terms": terms}, indent=1) + "\n"
    (out / f"new-terms-{array}.json").write_text(new, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
