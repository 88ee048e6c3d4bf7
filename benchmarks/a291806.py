"""A291806(n) and A291807(n) by Burnside's lemma: the n x n square's tilings by
polyominoes (its partitions into connected pieces: the compositions of the grid graph,
A145835) up to the square's 8 symmetries, and those of them with a nontrivial symmetry.

    python benchmarks/a291806.py frontier N [N ...] [--folder DIR]   # DIR/A291806-N/
    python benchmarks/a291806.py brute N [N ...]                     # n <= 4

``frontier`` counts, for each n, the compositions each symmetry of the square fixes
(excover.tiling.symmetric_dissections: a frontier over the square's quotient by the
symmetry's group, no size), the identity's (A145835(n)) and the Klein groups' (both
axes, both diagonals) included, each saved to the ledger ``DIR/A291806-N/frontier.json``
as it finishes and checkpointed while it runs (``N-fixed-NAME.states`` beside it, or in
``--states FOLDER``, every ``--every`` seconds and on a stop), so that a killed run
resumes where it was. Second routes beside it, in the same ledger: the identity by rows
with a step (a frontier of n + 1 cells), the half turn on the left half swept by columns
(not the lower half by rows), the Klein groups on the opposite quarter, the conjugate
symmetries on other domains than their twins (Rot270, HorizRefl, Diag2Refl), and the
mirrors whose lines run through cells (the diagonals; the axes of odd n) by folding the
square onto a plain board (``folded_program``: no voltages, no holonomy). Then the
checks (A145835(n) against its published term for n <= 10, every subgroup's Burnside
sum, conjugates, the second routes, A291806's published terms for n <= 4) and the
terms: A291806(n) the mean of the 8 fixed counts, A291807(n) that less the free classes
(benchmarks/_burnside.py derives it by Möbius inversion over the subgroups of D4).

``brute`` lists every composition of the n x n square (n <= 4: 1,691,690 of them) and
finds each one's stabilizer among the 8 symmetries directly: the classes, the classes
with a nontrivial symmetry and every group's fixed count, which must be the frontier's
and the formulas'.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from _burnside import (
    KLEIN,
    OTHERS,
    checks,
    classes,
    count_into,
    load_ledger,
    save_ledger,
    symmetric_classes,
)

from excover.sequences.known import KNOWN

#: A145835(1..10) and A291806(1..5), the published terms (excover.sequences.known, with
#: their sources). A291806's comment's "one-sided" tilings, 1, 5, 222, 213315, are not the
#: classes under the rotations alone (1, 5, 371, 423,302 by the fixed counts, and by the
#: brute force): they are not checked.
A145835 = KNOWN["A145835"]
A291806 = KNOWN["A291806"]

#: The second routes: (name in the ledger, the symmetry or group, how it is counted).
SECOND_ROUTES = (
    ("Id (staircase)", "Id", "twin"),
    ("Rot180 (left half)", "Rot180", "twin"),
    ("axes (far quadrant)", "axes", "twin"),
    ("diagonals (far quarter)", "diagonals", "twin"),
    ("Diag1Refl (folded)", "Diag1Refl", "folded"),
    ("diagonals (folded)", "diagonals", "folded"),
    ("VertRefl (folded)", "VertRefl", "folded"),
    ("axes (folded)", "axes", "folded"),
)


def frontier(
    n: int, folder: Path, states: Path | None, every: float, max_bytes: int | None
) -> dict[str, Any]:
    """Every fixed count of n into the ledger, the second routes too, then the checks and
    the terms (saved to the ledger's ``terms``); the checkpoints in ``states`` (None: the
    ledger's folder)."""
    from excover.tiling.cell_frontier import count_partitions
    from excover.tiling.symmetric_dissections import (
        FOLDABLE,
        count_fixed_dissections,
        folded_program,
        group_of,
    )

    here = folder / f"A291806-{n}"
    here.mkdir(parents=True, exist_ok=True)
    path = here / "frontier.json"
    ledger = load_ledger(path, n)
    # the identity's count by rows, the longest, last (its second route just before it)
    names = (*OTHERS, *KLEIN, "Id")
    routes: list[tuple[str, str, str]] = [(name, name, "quotient") for name in names]
    routes[-1:-1] = [
        route
        for route in SECOND_ROUTES
        if route[2] != "folded" or n % 2 or FOLDABLE[group_of(route[1])]
    ][::-1]
    for key, symmetry, how in routes:

        def count(
            tick: Callable[[int, int, int], None],
            checkpoint: Path,
            symmetry: str = symmetry,
            how: str = how,
        ) -> int:
            if how == "folded":
                return count_partitions(
                    folded_program(n, symmetry),
                    max_bytes=max_bytes,
                    tick=tick,
                    checkpoint=checkpoint,
                    checkpoint_every=every,
                )
            return count_fixed_dissections(
                n,
                symmetry,
                twin=how == "twin",
                max_bytes=max_bytes,
                tick=tick,
                checkpoint=checkpoint,
                checkpoint_every=every,
            )

        slug = key.replace(" ", "-").replace("(", "").replace(")", "")
        checkpoint = (states or here) / f"{n}-fixed-{slug}.states"
        count_into(ledger, path, key, checkpoint, count)
        checkpoint.unlink(missing_ok=True)
    counts = {key: int(record["count"]) for key, record in ledger["fixed"].items()}
    failures = checks(counts["Id"], counts)
    if n <= len(A145835):
        same = counts["Id"] == A145835[n - 1]
        print(f"A145835({n}): {'as published' if same else 'NOT AS PUBLISHED'}", flush=True)
        failures += [] if same else ["A145835"]
    for key, symmetry, _ in routes[len(OTHERS) + len(KLEIN) : -1]:
        same = counts[key] == counts[symmetry]
        print(f"{key}: {counts[key]:,} {'agrees' if same else 'DISAGREES'}", flush=True)
        failures += [] if same else [key]
    rotations = counts["Id"] + counts["Rot90"] + counts["Rot180"] + counts["Rot270"]
    if rotations % 4:
        failures.append("the rotations' classes")
    terms = {
        "A291806": classes(counts["Id"], counts),
        "A291807": symmetric_classes(counts["Id"], counts),
        "classes under the rotations": rotations // 4,
    }
    if n <= len(A291806) and terms["A291806"] != A291806[n - 1]:
        failures.append("A291806 as published")
    ledger["terms"] = {key: str(value) for key, value in terms.items()}
    ledger["failures"] = failures
    ledger["cpu"] = round(sum(sum(s) for s in ledger["sittings"].values()), 2)
    save_ledger(path, ledger)
    print(
        f"A291806({n}) = {terms['A291806']}\nA291807({n}) = {terms['A291807']}\n"
        f"checks: {'all pass' if not failures else 'FAILED ' + ', '.join(failures)}"
        f" ({ledger['cpu']} s of CPU in all sittings)",
        flush=True,
    )
    return ledger


# ---------------------------------------------------------------------------------------
# The brute force: every partition of the n x n grid into connected blocks, as the set of
# edges between two blocks (a bit mask), listed block by block (the block of the first
# cell not yet in one: each connected set of the cells left that holds it).


def grid(height: int, width: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The cells (x, y) of the grid in rows, and its edges (pairs of cell indices)."""
    cells = [(x, y) for y in range(height) for x in range(width)]
    at = {c: i for i, c in enumerate(cells)}
    edges = [
        (at[(x, y)], at[(u, v)])
        for (x, y) in cells
        for (u, v) in ((x + 1, y), (x, y + 1))
        if (u, v) in at
    ]
    return cells, edges


@cache
def partitions(height: int, width: int, size: int | None = None) -> np.ndarray:
    """The cut-edge masks of the partitions of the grid into connected blocks (of
    ``size`` cells each; None: any), as an array of 64-bit words (at most 64 edges)."""
    cells, edges = grid(height, width)
    neighbours = [0] * len(cells)
    touching = [0] * len(cells)  # the edges at each cell, as a mask
    for e, (a, b) in enumerate(edges):
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
        touching[a] |= 1 << e
        touching[b] |= 1 << e
    found: list[int] = []

    def blocks(first: int, allowed: int) -> Iterator[tuple[int, int]]:
        """Each connected set of ``allowed`` holding ``first``, and its boundary (the
        edges with one end in it: the XOR of its cells' edges)."""
        stack = [(1 << first, neighbours[first] & allowed, 1 << first, touching[first])]
        while stack:
            chosen, candidates, excluded, boundary = stack.pop()
            if size is None or chosen.bit_count() == size:
                yield chosen, boundary
            if size is not None and chosen.bit_count() >= size:
                continue
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                u = low.bit_length() - 1
                grown = candidates | (neighbours[u] & allowed & ~chosen & ~excluded & ~low)
                stack.append((chosen | low, grown & ~excluded, excluded, boundary ^ touching[u]))
                excluded |= low

    def split(left: int, cut: int) -> None:
        if not left:
            found.append(cut)
            return
        first = (left & -left).bit_length() - 1
        for block, boundary in blocks(first, left):
            split(left & ~block, cut | boundary)

    split((1 << len(cells)) - 1, 0)
    return np.array(found, dtype=np.uint64)


def edge_map(n: int, name: str) -> list[int]:
    """Where the symmetry ``name`` sends each edge of the n x n square."""
    from excover.tiling import D4

    cells, edges = grid(n, n)
    at = {c: i for i, c in enumerate(cells)}
    (a, b), (c, d) = next(g for g in D4 if g.name == name).matrix

    def image(i: int) -> int:
        x, y = cells[i]
        return at[
            (
                a * x + b * y + (n - 1 if min(a, b) < 0 else 0),
                c * x + d * y + (n - 1 if min(c, d) < 0 else 0),
            )
        ]

    index = {frozenset(e): k for k, e in enumerate(edges)}
    return [index[frozenset((image(p), image(q)))] for p, q in edges]


def brute_force(n: int, size: int | None = None) -> dict[str, int]:
    """From the list of all partitions (of ``size`` pieces; None: any): the classes
    under the 8 symmetries, the classes with a nontrivial symmetry, and the partitions
    each symmetry and each abelian group of them fixes (by the groups' names)."""
    from excover.tiling import D4, D4_SUBGROUPS

    masks = partitions(n, n, size)
    images = {}
    for g in D4:
        image = np.zeros_like(masks)
        for k, to in enumerate(edge_map(n, g.name)):
            image |= ((masks >> np.uint64(k)) & np.uint64(1)) << np.uint64(to)
        images[g.name] = image
    fixes = {name: image == masks for name, image in images.items()}
    smallest = np.minimum.reduce(list(images.values()))
    symmetric = np.zeros(len(masks), dtype=bool)
    for name, fixed in fixes.items():
        if name != "Id":
            symmetric |= fixed
    found = {
        "classes": len(np.unique(smallest)),
        "symmetric classes": len(np.unique(smallest[symmetric])),
    }
    found.update({name: int(fixed.sum()) for name, fixed in fixes.items()})
    for group, elements in D4_SUBGROUPS.items():
        if group != "all":
            keep = np.logical_and.reduce([fixes[g.name] for g in elements])
            found[group] = int(keep.sum())
    return found


def brute(n: int) -> list[str]:
    """The brute force of n against the frontier and the formulas: the failures."""
    from excover.tiling.symmetric_dissections import count_fixed_dissections

    started = time.process_time()
    found = brute_force(n)
    seconds = time.process_time() - started
    failures = []
    for name, value in found.items():
        if "classes" in name:
            continue
        by_frontier = count_fixed_dissections(n, name)
        if by_frontier != value:
            failures.append(name)
        print(f"{name}: {value:,} (frontier {by_frontier:,})", flush=True)
    fixed = {name: value for name, value in found.items() if "classes" not in name}
    formulas = (classes(fixed["Id"], fixed), symmetric_classes(fixed["Id"], fixed))
    listed = (found["classes"], found["symmetric classes"])
    if formulas != listed:
        failures.append("the formulas")
    print(
        f"n = {n}: {listed[0]:,} classes, {listed[1]:,} with a nontrivial symmetry, listed"
        f" ({seconds:.1f} s of CPU); by Burnside and Möbius {formulas[0]:,} and"
        f" {formulas[1]:,}: {'agree' if not failures else 'FAILED ' + ', '.join(failures)}",
        flush=True,
    )
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=["frontier", "brute"])
    parser.add_argument("n", type=int, nargs="+")
    parser.add_argument(
        "--folder",
        type=Path,
        default=Path(__file__).resolve().parent / "data" / "records",
        help="frontier: the folder of the ledgers (A291806-N/ in it)",
    )
    parser.add_argument(
        "--states", type=Path, default=None, help="frontier: the folder of its checkpoints"
    )
    parser.add_argument("--every", type=float, default=600.0, help="seconds between checkpoints")
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        help="the bound of each count's tables in bytes (0: none; default: a share of the"
        " machine's memory)",
    )
    args = parser.parse_args()
    failed = False
    for n in args.n:
        if args.part == "brute":
            if n > 4:
                sys.exit("brute: n <= 4 (the 5 x 5 square has 19,719,299,768 compositions)")
            failed |= bool(brute(n))
        else:
            ledger = frontier(n, args.folder, args.states, args.every, args.max_bytes)
            failed |= bool(ledger["failures"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
