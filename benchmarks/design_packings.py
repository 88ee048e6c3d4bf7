"""Packing puzzles found by the design search (excover.design), each count checked by a
second, independent route. A benchmark, not a test: its figures go to docs/design.md.

Three searches, each for the designs with exactly one solution up to the symmetry of
the board (a choice of pieces that fills it in one way only):

- ``rectangles``: which sets of n of the 12 pentominoes fill the 5 x n rectangle, for n
  from 2 to 12. Cross-check: every tiling of the rectangle by distinct pentominoes
  listed by one search (each pentomino at most once), the tilings grouped by their set
  of pieces and their classes under the rectangle's symmetries told apart by their
  smallest image: the sets with exactly one class must be the search's designs.
- ``box532``: which 6 of the 29 pentacubes (turning in space, not mirrored) fill the
  5 x 3 x 2 box. Cross-check as above: the 1,413,576 tilings of the box by distinct
  pentacubes, grouped by their set of pieces (a set and its mirror image are one design,
  as in the search).
- ``box542``: which 8 of the 29 pentacubes fill the 5 x 4 x 2 box: 4,292,145 sets, about
  half as many designs once a set and its mirror image are one. Its tilings by distinct
  pentacubes are too many to list (more than 250 million), so the cross-check is a
  count of its own for every design found unique (``Tiling.count(up_to_symmetry=True)``:
  Burnside's lemma or a pinned piece, not the search's listing) of the top 20 and of
  ``--sample`` more unique designs drawn at random, and of as many of the others
  (against the outcome the ledger holds), and the weights of the designs adding up to
  the 4,292,145 sets. Run with a ledger (``--ledger-dir``), so that a stopped run
  resumes.

    nice -n 10 python benchmarks/design_packings.py [rectangles box532 box542]
        [--workers 2] [--ledger-dir DIR] [--sample 1000]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from excover.design import Evaluation, Goal, Report, SearchProgress, search
from excover.design.ledger import Ledger
from excover.tiling import Tile, Tiling
from excover.tiling.designs import PackingSpace


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def _lex_less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row, whether row a is lexicographically before row b."""
    differ = a != b
    first = differ.argmax(axis=1)
    rows = np.arange(len(a))
    less: np.ndarray = differ.any(axis=1) & (a[rows, first] < b[rows, first])
    return less


def _smallest(images: list[np.ndarray]) -> np.ndarray:
    """Row by row, the lexicographically smallest of several arrays of rows."""
    best = images[0].copy()
    for image in images[1:]:
        less = _lex_less(image, best)
        best[less] = image[less]
    return best


def by_enumeration(space: PackingSpace) -> Counter[int]:
    """The designs of ``space`` by their number of classes of tilings, from every tiling
    of its board by distinct catalog pieces (one search), grouped by their set of pieces
    up to the board's symmetries (designs without a tiling are not counted)."""
    catalog = space.catalog
    tiles = [Tile(shape, name, "maybe", catalog.turn) for name, shape in catalog.pieces.items()]
    whole = Tiling(space.board, tiles)
    options, starts = whole.problem.search(seed=0).solution_table()
    width = space.pieces
    if not np.all(np.diff(starts) == width):
        raise SystemExit("a tiling without the expected number of pieces")
    tilings = np.sort(options.reshape(-1, width), axis=1)
    symmetry = whole.symmetry
    images = [np.sort(np.asarray(m)[tilings], axis=1) for m in symmetry.option_maps]
    canonical = _smallest(images)
    owner = np.asarray(whole.option_tiles(), dtype=np.int64)
    sets = [np.sort(np.asarray(t)[owner[canonical]], axis=1) for t in symmetry.tile_maps]
    design = _smallest(sets)
    keyed = np.unique(np.hstack([design, canonical]), axis=0)
    _, classes = np.unique(keyed[:, :width], axis=0, return_counts=True)
    return Counter(classes.tolist())


def _progress(every: float) -> Callable[[SearchProgress], None]:
    shown = [0.0]

    def show(now: SearchProgress) -> None:
        if now.elapsed - shown[0] < every and now.done < now.total:
            return
        shown[0] = now.elapsed
        left = "?" if now.left is None else f"{now.left / 60:.0f} min"
        print(
            f"  {now.done:,}/{now.total:,} candidates, {now.designs:,} designs, "
            f"{now.qualifying:,} unique, {now.elapsed / 60:.1f} min, {left} left",
            file=sys.stderr,
            flush=True,
        )

    return show


def _say(report: Report) -> None:
    print(
        f"  {report.candidates:,} candidates, {report.designs:,} designs "
        f"({report.resumed:,} from the ledger), rejected before a search: "
        f"{dict(report.rejected) or 'none'}"
    )
    print(f"  designs by solutions: {report.distribution}")
    print(
        f"  unique: {report.qualifying:,} designs; search time {report.seconds:.1f} s "
        f"(all workers), wall {report.elapsed:.1f} s on {report.workers} worker(s)"
    )


def rectangles(args: argparse.Namespace) -> None:
    print("sets of n of the 12 pentominoes filling the 5 x n rectangle in one way:")
    print("  n  sets  with a tiling  unique  (cross-check: unique, with a tiling)")
    for n in range(2, 13):
        space = PackingSpace(board=f"5x{n}", catalog="pentominoes", pieces=n)
        report = search(space, workers=args.workers)
        tiled = report.designs - report.distribution.get("0", 0)
        check = by_enumeration(space)
        agree = check[1] == report.qualifying and sum(check.values()) == tiled
        print(
            f"  {n:>2} {report.designs:>5} {tiled:>14} {report.qualifying:>7}  "
            f"({check[1]}, {sum(check.values())}: {'agree' if agree else 'DISAGREE'})"
        )
        if report.found and n in (5, 6):
            first = space.design(report.found[0].index)
            assert first is not None
            print(f"     e.g. {first.key}:")
            print("     " + (space.show(first) or "").replace("\n", "\n     "))


def box532(args: argparse.Namespace) -> None:
    space = PackingSpace(board="5x3x2", catalog="pentacubes", pieces=6)
    print(f"{space.describe()}: {space.size:,} sets")
    ledger = None if args.ledger_dir is None else Path(args.ledger_dir) / "box532.ledger"
    report = search(space, workers=args.workers, ledger=ledger, progress=_progress(60))
    _say(report)
    started = time.monotonic()
    check = by_enumeration(space)
    tiled = report.designs - report.distribution.get("0", 0)
    print(
        f"  cross-check by listing every tiling of the box ({time.monotonic() - started:.0f} s): "
        f"{check[1]:,} unique designs, {sum(check.values()):,} with a tiling: "
        + ("agree" if (check[1], sum(check.values())) == (report.qualifying, tiled) else "DISAGREE")
    )


def box542(args: argparse.Namespace) -> None:
    space = PackingSpace(board="5x4x2", catalog="pentacubes", pieces=8)
    print(f"{space.describe()}: {space.size:,} sets")
    ledger = None if args.ledger_dir is None else Path(args.ledger_dir) / "box542.ledger"
    report = search(
        space,
        Goal(top=20, by="nodes"),
        workers=args.workers,
        ledger=ledger,
        progress=_progress(300),
    )
    _say(report)
    if not report.complete:
        print("  stopped before the end: run again to resume from the ledger")
        return
    hardest = report.found[0]
    for found in report.found[:5]:
        print(f"  {found.key}: {found.scores['nodes']:,} nodes")
    print(f"  the hardest unique set by search nodes, solved: {hardest.key}")
    first = space.design(hardest.index)
    assert first is not None
    print("  " + (space.show(first) or "").replace("\n", "\n  "))
    started = time.monotonic()
    weights = sum(design.weight for _, design in space.designs(0, space.size) if design)
    agree = "agree" if weights == space.size else "DISAGREE"
    print(f"  the designs' weights add up to {weights:,} sets: {agree}")
    if ledger is None:
        return
    unique: list[tuple[int, Evaluation]] = []
    others: list[tuple[int, Evaluation]] = []
    with Ledger(ledger, _header(space, Goal(top=20, by="nodes"))) as book:
        for line in book.ranges:
            for index, outcome in line:
                if outcome is not None:
                    one = outcome.exact and outcome.solutions == 1
                    (unique if one else others).append((index, outcome))
    rng = random.Random(76)
    chosen = {found.index for found in report.found}
    chosen |= {index for index, _ in rng.sample(unique, args.sample)}
    bad = sum(1 for index in sorted(chosen) if _alone(space, index) != 1)
    print(
        f"  the top 20 and {args.sample} more unique designs drawn at random, each counted "
        f"alone by Tiling.count(up_to_symmetry=True): {len(chosen):,} counted, {bad} "
        f"disagree ({time.monotonic() - started:.0f} s)"
    )
    bad = 0
    for index, outcome in rng.sample(others, args.sample):
        count = _alone(space, index)
        if (outcome.exact and count != outcome.solutions) or count < outcome.solutions:
            bad += 1
    print(f"  {args.sample} other designs drawn at random, counted alone: {bad} disagree")


def _alone(space: PackingSpace, index: int) -> int:
    """The classes of tilings of the design at ``index``, by the tiling library alone."""
    design = space.design(index)
    assert design is not None
    return space.tiling(design).count(up_to_symmetry=True)


def _header(space: PackingSpace, goal: Goal) -> dict[str, object]:
    return {
        "kind": space.kind,
        "space": space.declaration(),
        "size": space.size,
        "goal": goal.as_dict(),
    }


RUNS = {"rectangles": rectangles, "box532": box532, "box542": box542}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("runs", nargs="*", choices=[*RUNS, []], default=list(RUNS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ledger-dir", help="keep the ledgers of box532 and box542 here")
    parser.add_argument(
        "--sample", type=int, default=1000, help="box542: designs of each kind counted alone"
    )
    args = parser.parse_args()
    print(_load())
    for name in args.runs or list(RUNS):
        started = time.monotonic()
        RUNS[name](args)
        print(f"  ({name}: {time.monotonic() - started:.0f} s)\n", flush=True)
    print(_load())


if __name__ == "__main__":
    main()
