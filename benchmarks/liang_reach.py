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
Liang's terms up to height 17. For each width k (11..17 by default) the script counts
every height in one pass (:func:`excover.tiling.count_heights`): one frontier count of
a tall k x N board, read row by row along its width (``Pattern.constant(N, k)``: k cells
to a row, so a state spans about two rows), whose state with an empty window at each
row's start counts the tilings of the rows above; the count stops when the CPU seconds
of the width reach ``--budget``, and every row it finished is a term. The board's height
is not known in advance: a first board of :data:`FIRST_ROWS` rows, and when its count
ends within the budget, a taller one sized by its pace, counted afresh (each count's
seconds are the width's). The states are folded by the board's left-right mirror
(``--no-fold``: not), on one thread (``--workers``).

``--from-scratch`` counts as the script did first: the k x n board for n = 1, 2, ... by
the frontier route (:func:`excover.zdd.frontier.start` on the one-word layout of
:func:`excover.zdd.frontier.layout`: what ``count(p, route="frontier")`` runs, here
paused at the budget), each height from scratch, unfolded, until the width's counts
have spent the budget: a count the budget cuts short is not a term.

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
height within the budget, the CPU seconds of the last count, the seconds of all the
counts of the width, and the states of the widest layer of the last count. In one pass,
also the rows of the last board and the number of boards counted; from scratch,
``all counts / last count`` (what one pass saves) and the bounds of :func:`one_pass`.

Run (nice: the machine is shared)::

    PYTHONPATH=$PWD/src nice python benchmarks/liang_reach.py --budget 60
    PYTHONPATH=$PWD/src nice python benchmarks/liang_reach.py --array A220054 --widths 11-13
    PYTHONPATH=$PWD/src nice python benchmarks/liang_reach.py --from-scratch --budget 30
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

from excover import ExcoverError, counting
from excover.tiling import Pattern, Tile, Tiling, count_heights
from excover.zdd import frontier, memory

DATA = Path(__file__).resolve().parent / "data" / "liang"

#: Each array's tiles: (shape, name, symmetry), every tile used any number of times.
PIECES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "A219967": (("***", "I", "all"), ("**\n**", "O", "none")),
    "A220054": (("**\n*.", "L", "all"), ("*", "M", "none")),
}

#: The widths where the arrays are the only published source past height 10.
DEFAULT_WIDTHS = range(11, 18)


#: New terms saved per width by default, the first ones: one pass reaches thousands of
#: rows of the narrow widths, whose terms (thousands of digits each) would fill
#: megabytes.
SAVE_NEW = 200

#: The rows of the first board a width's one pass counts (a taller one follows when its
#: count ends within the budget), and the most rows of a board.
FIRST_ROWS = 64
MOST_ROWS = 200_000


def tiles(array: str) -> list[Tile]:
    """The tiles of ``array``, each used any number of times."""
    return [Tile(shape, name, "any", symmetry=sym) for shape, name, sym in PIECES[array]]


def tiling(array: str, k: int, n: int) -> Tiling | None:
    """The k x n board of ``array`` (k cells to a row, n rows; the cells numbered row by
    row, so the frontier's window spans about two rows of k), with the tiles that fit in
    its area (a tiling refuses a tile larger than its board); None when none fits."""
    fitting = [tile for tile in tiles(array) if tile.size <= k * n]
    return Tiling(Pattern.constant(n, k), fitting) if fitting else None


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
    counting = frontier.start(
        frontier.FrontierLayout(n_items, 1, *laid_out), 1, memory.default_bound()
    )
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
    count and of all, the widest layer's states, the terms checked and the new ones; in
    one pass, the rows of the last board and the boards counted (from scratch: 0, and
    the number of heights counted)."""

    k: int
    liang: int
    reached: int
    last_seconds: float
    all_seconds: float
    widest: int
    checked: int
    unchecked: int
    new: dict[int, int]
    rows: int = 0
    counts: int = 0


class Terms:
    """The terms of one width checked as they come: against every published term read
    (a disagreement stops the run), else counted as unchecked in a published range, or
    new (the first one printed, all saved)."""

    def __init__(self, array: str, k: int, published: Published) -> None:
        self.array, self.k, self.published = array, k, published
        self.checked = self.unchecked = 0
        self.new: dict[int, int] = {}

    def add(self, n: int, value: int) -> None:
        """Check T(n, k) = ``value``."""
        known = self.published.value(self.k, n)
        if known is not None:
            if known[0] != value:
                raise SystemExit(
                    f"{self.array}: T({n}, {self.k}) = {value} by the frontier route, "
                    f"{known[0]} in {known[1]}"
                )
            self.checked += 1
        elif self.published.published_by(self.k, n) is None:
            if not self.new:
                print(f"  new: {self.array} T({n}, {self.k}) = {value} (not checked)", flush=True)
            self.new[n] = value
        else:
            self.unchecked += 1


def reach(array: str, k: int, budget: float, published: Published) -> Width:
    """Count the k-wide boards of ``array`` by the frontier route for n = 1, 2, ...
    until the width's counts have spent ``budget`` CPU seconds; check each term."""
    spent = last_seconds = 0.0
    reached = widest = 0
    terms = Terms(array, k, published)
    n = 0
    while spent < budget:
        n += 1
        count = frontier_count(array, k, n, budget - spent)
        spent += count.seconds
        if count.value is None:
            break
        reached, last_seconds, widest = n, count.seconds, count.widest
        terms.add(n, count.value)
    return Width(
        k,
        published.liang_last(k),
        reached,
        last_seconds,
        spent,
        widest,
        terms.checked,
        terms.unchecked,
        terms.new,
        counts=n,
    )


class Pass(NamedTuple):
    """One count of a tall board: the tilings of each height it passed (entry n: n rows),
    its CPU seconds and the states of its widest layer."""

    heights: list[int]
    seconds: float
    widest: int


def one_count(
    array: str, k: int, rows: int, budget: float, fold: bool = True, workers: int = 1
) -> Pass:
    """Every height of ``array``'s k-wide boards up to ``rows`` from one count of the
    k x ``rows`` board (:func:`excover.tiling.count_heights`), stopped after ``budget``
    CPU seconds (the board's making included)."""
    widest = 0

    def tick(done: int, total: int, states: int) -> None:
        nonlocal widest
        widest = max(widest, states)

    started = time.process_time()
    heights = count_heights(
        k,
        tiles(array),
        rows,
        workers=workers,
        fold=fold,
        stop=lambda: time.process_time() - started > budget,
        tick=tick,
    )
    return Pass(heights, time.process_time() - started, widest)


def taller(rows: int, seconds: float, left: float) -> int:
    """The rows of the next board, after a count of ``rows`` rows that took ``seconds``
    with ``left`` seconds of the budget still to spend: twice the rows that pace would
    pass in them if each row cost more in proportion to its height (the counts' words
    grow so: ``rows * sqrt((seconds + left) / seconds)``), at least twice ``rows``, at
    most :data:`MOST_ROWS`. Rows past the count's reach are not free: the board's making
    and its folds cost about a millisecond a row of CPU, spent from the budget."""
    paced = int(2 * rows * ((seconds + left) / max(seconds, 1e-3)) ** 0.5)
    return min(max(2 * rows, paced), MOST_ROWS)


def one_pass_reach(
    array: str, k: int, budget: float, published: Published, fold: bool = True, workers: int = 1
) -> Width:
    """Every height of the k-wide boards of ``array`` from one count of a tall board,
    within ``budget`` CPU seconds: a board of :data:`FIRST_ROWS` rows, then, while its
    count ends within the budget and the budget left exceeds its seconds, a taller one
    (:func:`taller`); the terms are those of the count that passed the most rows, each
    checked."""
    rows, spent, counts = FIRST_ROWS, 0.0, 0
    best = Pass([1], 0.0, 0)
    best_rows = 0
    while True:
        found = one_count(array, k, rows, budget - spent, fold, workers)
        spent += found.seconds
        counts += 1
        if len(found.heights) >= len(best.heights):
            best, best_rows = found, rows
        left = budget - spent
        if len(found.heights) <= rows or rows >= MOST_ROWS or left <= found.seconds:
            break
        rows = taller(rows, found.seconds, left)
    terms = Terms(array, k, published)
    for n, value in enumerate(best.heights[1:], start=1):
        terms.add(n, value)
    return Width(
        k,
        published.liang_last(k),
        len(best.heights) - 1,
        best.seconds,
        spent,
        best.widest,
        terms.checked,
        terms.unchecked,
        terms.new,
        best_rows,
        counts,
    )


def by_dxz(array: str, k: int, n: int) -> tuple[int | str, float]:
    """T(n, k) of ``array`` by DXZ (``route="dxz"``: dancing links with a memo of
    sub-problems, another algorithm in another compiled core), and its CPU seconds; why
    not instead of the term when DXZ stops at one of its limits (its memo's nodes)."""
    board = tiling(array, k, n)
    assert board is not None  # a board past the published ranges holds every tile
    started = time.process_time()
    try:
        found: int | str = counting.count(board.problem, route="dxz").count
    except ExcoverError as error:
        found = str(error)
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
        "--from-scratch",
        action="store_true",
        help="count each height from scratch, unfolded, as the script did first",
    )
    parser.add_argument(
        "--no-fold",
        action="store_true",
        help="one pass without folding the states by the board's mirror",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="threads of a one-pass count (default 1)"
    )
    parser.add_argument(
        "--dxz",
        action="store_true",
        help="recount the first new term of each width by DXZ (outside the budget)",
    )
    parser.add_argument(
        "--save-new",
        type=int,
        default=SAVE_NEW,
        help=f"new terms saved per width, the first ones (default {SAVE_NEW}; all are checked"
        " and counted)",
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
    if args.save_new < 0:
        parser.error("--save-new is 0 (all) or positive")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.from_scratch and (args.no_fold or args.workers != 1):
        parser.error("--from-scratch counts unfolded on one thread")
    mode = Mode(False, False) if args.from_scratch else Mode(True, not args.no_fold, args.workers)
    print(f"budget: {args.budget:g} CPU seconds of frontier counts per width, {mode}")
    for array in args.array or sorted(PIECES):
        run_array(array, args.widths, args.budget, args.out, args.dxz, mode, args.save_new)
    return 0


class Mode(NamedTuple):
    """How a width is counted: in one pass or each height from scratch, folded or not,
    on how many threads."""

    one_pass: bool = True
    fold: bool = True
    workers: int = 1

    def __str__(self) -> str:
        if not self.one_pass:
            return "each height from scratch, unfolded, one thread"
        folded = "folded" if self.fold else "unfolded"
        return f"every height in one pass, {folded}, {self.workers} thread(s)"


#: The default: every height in one pass, folded, on one thread.
ONE_PASS = Mode()


def run_array(
    array: str,
    chosen: Sequence[int],
    budget: float,
    out: Path,
    dxz: bool = False,
    mode: Mode = ONE_PASS,
    save_new: int = 0,
) -> None:
    """Count ``array`` at each width of ``chosen`` as ``mode`` says, print its table and
    save its figures and new terms in ``out``; with ``dxz``, recount the first new term
    of each width by DXZ (a disagreement stops the run). ``save_new``: the new terms
    saved per width, the first ones (0: all)."""
    started = datetime.datetime.now(datetime.UTC)
    record: dict[str, Any] = {
        "array": array,
        "date": f"{started:%Y-%m-%d %H:%M} UTC",
        "commit": commit(),
        "budget": budget,
        "mode": str(mode),
        "one_pass": mode.one_pass,
        "fold": mode.fold,
        "workers": mode.workers,
        "load_before": load_line(),
    }
    published = Published(array)
    read = "read" if published.bfile_read else "not here (Git LFS): its terms unchecked"
    print(f"\n{array}: {record['date']}, commit {record['commit']}, {record['load_before']}")
    print(f"Liang's b-file {published.bfile['file']}: {read}")
    middle = "last board (rows) | counts" if mode.one_pass else "all / last | one pass: n"
    print(
        f"| k | Liang's last n | reached n | last count (s) | all counts (s) | {middle} "
        "| widest layer (states) | checked | unchecked | new |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows: list[dict[str, Any]] = []
    terms: dict[str, dict[str, str]] = {}
    for k in chosen:
        figures: dict[str, Any]
        if mode.one_pass:
            row = one_pass_reach(array, k, budget, published, mode.fold, mode.workers)
            middle = f"{row.rows:,} | {row.counts}"
            figures = {"last_board_rows": row.rows, "counts": row.counts}
        else:
            row = reach(array, k, budget, published)
            ratio = row.all_seconds / row.last_seconds if row.last_seconds else 0.0
            low, high = one_pass(row, budget)
            middle = f"{ratio:.1f} | {low}-{high}"
            figures = {"one_pass_n_low": low, "one_pass_n_high": high}
        print(
            f"| {k} | {row.liang} | {row.reached} | {row.last_seconds:.2f} "
            f"| {row.all_seconds:.2f} | {middle} "
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
                **figures,
                "widest_layer_states": row.widest,
                "checked": row.checked,
                "unchecked": row.unchecked,
                "new": len(row.new),
            }
        )
        saved = sorted(row.new)[:save_new] if save_new else sorted(row.new)
        terms[str(k)] = {str(n): str(row.new[n]) for n in saved}
        rows[-1]["new_saved"] = len(saved)
        if len(row.new) > 1:
            print(f"  new: T({min(row.new)}..{max(row.new)}, {k}), {len(row.new)} terms (saved)")
        if dxz and row.new:
            n = min(row.new)
            found, seconds = by_dxz(array, k, n)
            if isinstance(found, str):
                print(f"  DXZ did not count T({n}, {k}) ({seconds:.2f} s of CPU): {found}")
                rows[-1]["dxz_stopped"] = {"n": n, "seconds": round(seconds, 3), "why": found}
            elif found != row.new[n]:
                raise SystemExit(
                    f"{array}: T({n}, {k}) = {row.new[n]} by the frontier route, {found} by DXZ"
                )
            else:
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
