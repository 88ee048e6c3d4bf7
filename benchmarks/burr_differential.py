"""excover's assembler and disassembler against BurrTools' ``burrTxt -d`` on random
puzzles nobody designed.

Each puzzle is drawn from a seed (``--seed`` and its number), one of these kinds:

- ``burr``: a six-piece burr whose pieces come from a pool of Cutler's 59 notchable
  pieces (:func:`excover.burr.sixpiece.notchable_pieces`): three to seven at random (most
  such pools have no assembly), or the pieces of a random assembly (found by a search
  that takes its choices at random) and up to three others; each usable a range of
  times around its count (``min`` < ``max`` for most: BurrTools' second assembler),
  holey (the notchable voxels may stay empty) or solid;
- ``box``: a small box (2 to 4 on a side) cut at random into polycubes of 2 to 6 cubes,
  pieces of the same form merged into one shape with copies, some of them usable a range
  of times, and now and then a spare piece that may be left out;
- ``tray``: the same in a frame: a tray (floor and four walls, or walls only) that is
  itself a piece, the box inside it cut into polycubes;
- ``prisms``, ``spheres``, ``rhombic``, ``tetra``: a connected region of 6 to 12 cells of
  BurrTools' other grids (triangular prisms, spheres, rhombic dodecahedra,
  tetrahedra-octahedra), grown cell by cell from a random one, cut into pieces of 2 to 4
  cells, pieces alike up to the grid's rotations merged, some usable a range of times.
  Neither program disassembles on the last three: those are compared by their
  assemblies only (``burrTxt -q`` against ``count(up_to_symmetry=True)``).

For each puzzle, side by side: the number of assemblies (BurrTools counts one per
symmetry class, as ``excover disassemble`` does), the number of solutions (assemblies
that come apart), and the multiset of level strings of the solutions, excover's
disassembler run greedy (the first separation of each part kept, as BurrTools keeps
it) and complete (every first separation tried: more solutions possible, marked
"beyond"). A puzzle either side cannot settle within ``--timeout`` seconds is counted
as skipped. Every disagreement is printed with the seed that draws its puzzle, and
``--keep DIR`` saves those puzzles as ``.xmpuzzle`` files.

    python benchmarks/burr_differential.py BURRTXT [--puzzles 300] [--seed 1]
        [--kinds burr,box,tray] [--timeout 60] [--keep DIR] [--start N] [--verbose]

(``--kinds burr,box,tray,prisms,spheres,rhombic,tetra`` for every grid.)

BURRTXT is BurrTools' command-line solver, built from github.com/burr-tools/burr-tools
(``build-burrtxt.sh``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from excover import ExactCover, LimitReached
from excover.burr import disassemble_all
from excover.burr.sixpiece import NOTCHABLE, SHAPE, burr_puzzle, notchable_pieces
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part, format_xmpuzzle
from excover.burr.xmpuzzle.lattice import GRIDS

Voxel = tuple[int, int, int]
STEPS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


# ----------------------------------------------------------------------- random puzzles


def burr(rng: random.Random) -> BurrPuzzle:
    """A six-piece burr from a pool of notchable pieces with ranges (see the notes)."""
    holes = rng.random() < 0.7
    pieces = notchable_pieces()
    if rng.random() < 0.5:  # a random pool: most have no assembly
        pool = rng.sample(range(len(pieces)), rng.randint(3, 7))
        counts = {k: rng.choice((0, 0, 0, 1, 1, 2)) for k in pool}
    else:  # the pieces of a random assembly, and a few others
        counts = _random_assembly(rng, holes)
        pool = list(dict.fromkeys([*counts, *rng.sample(range(len(pieces)), rng.randint(0, 3))]))
        rng.shuffle(pool)
    parts = []
    for shape, k in enumerate(pool):
        lo = max(counts.get(k, 0) - rng.choice((0, 0, 1)), 0)
        hi = lo + rng.choice((0, 1, 2, 3, 6))
        parts.append(Part(shape, lo, max(hi, counts.get(k, 0), 1)))
    while sum(p.lo for p in parts) > 6:
        k = rng.randrange(len(parts))
        parts[k] = Part(k, max(parts[k].lo - 1, 0), parts[k].hi)
    while sum(p.hi for p in parts) < 6:
        k = rng.randrange(len(parts))
        parts[k] = Part(k, parts[k].lo, parts[k].hi + 1)
    variable = NOTCHABLE if holes else frozenset()
    shapes = [BurrShape.from_voxels(pieces[k], name=f"piece {n + 1}") for n, k in enumerate(pool)]
    shapes.append(BurrShape.from_voxels(SHAPE - variable, variable, name="burr"))
    return BurrPuzzle(tuple(shapes), (BurrProblem(tuple(parts), len(pool)),))


@cache
def _all_pieces(holes: bool) -> ExactCover:
    """The six-piece burr of all of Cutler's notchable pieces, up to 6 copies each."""
    return ExactCover.from_burrtools(burr_puzzle(notchable_pieces(), 6, holes), 0)


def _random_assembly(rng: random.Random, holes: bool) -> dict[int, int]:
    """How many times each notchable piece (its number) is used in an assembly of the
    six-piece burr found by a search that takes its choices at random."""
    cover = _all_pieces(holes)
    found = cover.search(heuristic="random", seed=rng.randrange(1 << 30)).first() or []
    used = Counter(
        int(name[len("shape") :].split("_")[0])
        for option in found
        if (name := cover.option_items(option)[0]).startswith("shape")
    )
    return dict(used)


def _cubes_near(voxel: Voxel) -> list[Voxel]:
    """The six cubes sharing a face with a cube."""
    x, y, z = voxel
    return [(x + dx, y + dy, z + dz) for dx, dy, dz in STEPS]


def _cut(
    rng: random.Random,
    cells: list[Voxel],
    smallest: int,
    largest: int,
    near: Callable[[Voxel], list[Voxel]] = _cubes_near,
) -> list[set[Voxel]]:
    """``cells`` cut at random into connected pieces (``near``: the neighbours of a
    cell), most of ``smallest`` to ``largest`` cells (the last cells left may make
    smaller ones)."""
    free = set(cells)
    pieces = []
    while free:
        start = rng.choice(sorted(free))
        piece = {start}
        free.discard(start)
        goal = rng.randint(smallest, largest)
        while len(piece) < goal:
            grow = sorted(n for cell in piece for n in near(cell) if n in free)
            if not grow:
                break
            cell = rng.choice(grow)
            piece.add(cell)
            free.discard(cell)
        pieces.append(piece)
    return pieces


def _normal(piece: set[Voxel]) -> frozenset[Voxel]:
    """``piece`` moved to the origin (its form up to translation)."""
    low = [min(v[axis] for v in piece) for axis in range(3)]
    return frozenset((x - low[0], y - low[1], z - low[2]) for x, y, z in piece)


def _rotations(piece: frozenset[Voxel]) -> set[frozenset[Voxel]]:
    """The rotations of ``piece`` (24 at most), each moved to the origin: every form
    reached by quarter turns about the x and y axes."""
    found = {piece}
    todo = [piece]
    while todo:
        form = todo.pop()
        for turned in (
            _normal({(x, -z, y) for x, y, z in form}),
            _normal({(z, y, -x) for x, y, z in form}),
        ):
            if turned not in found:
                found.add(turned)
                todo.append(turned)
    return found


def _shapes_of(
    rng: random.Random, pieces: list[set[Voxel]], offset: int
) -> tuple[list[BurrShape], list[Part]]:
    """The pieces as shapes, equal forms (up to rotation) merged into one shape with
    copies, some counts widened to a range; parts numbered from ``offset``."""
    forms: dict[frozenset[Voxel], list[frozenset[Voxel]]] = {}
    for piece in pieces:
        normal = _normal(piece)
        key = min(_rotations(normal), key=sorted)
        forms.setdefault(key, []).append(normal)
    shapes, parts = [], []
    for number, copies in enumerate(forms.values()):
        shapes.append(BurrShape.from_voxels(copies[0], name=f"piece {number + 1}"))
        lo = hi = len(copies)
        if rng.random() < 0.3:
            lo = max(0, lo - rng.randint(0, 1))
            hi = hi + rng.randint(1, 2)
        parts.append(Part(offset + number, lo, hi))
    return shapes, parts


def box(rng: random.Random) -> BurrPuzzle:
    """A small box cut into polycubes (see the notes)."""
    size = [rng.randint(2, 4) for _ in range(3)]
    while size[0] * size[1] * size[2] > 36:
        size[rng.randrange(3)] -= 1
    cells = [(x, y, z) for x in range(size[0]) for y in range(size[1]) for z in range(size[2])]
    shapes, parts = _shapes_of(rng, _cut(rng, cells, 2, 6), 0)
    if rng.random() < 0.3:  # a spare piece that may be left out
        spare = _cut(rng, cells, 3, 5)[0]
        shapes.append(BurrShape.from_voxels(_normal(spare), name="spare"))
        parts.append(Part(len(shapes) - 1, 0, 1))
    result = BurrShape.from_voxels(set(cells), name="box")
    return BurrPuzzle((*shapes, result), (BurrProblem(tuple(parts), len(shapes)),))


def tray(rng: random.Random) -> BurrPuzzle:
    """A box inside a frame that is a piece too (see the notes)."""
    size = [rng.randint(2, 3), rng.randint(2, 3), rng.randint(1, 3)]
    floor = rng.random() < 0.5
    inside = [
        (x + 1, y + 1, z + floor)
        for x in range(size[0])
        for y in range(size[1])
        for z in range(size[2])
    ]
    walls = {
        (x, y, z)
        for x in range(size[0] + 2)
        for y in range(size[1] + 2)
        for z in range(size[2] + floor)
        if (z < floor or x in (0, size[0] + 1) or y in (0, size[1] + 1))
    }
    frame = BurrShape.from_voxels(walls, name="frame")
    shapes, parts = _shapes_of(rng, _cut(rng, inside, 2, 5), 1)
    result = BurrShape.from_voxels(walls | set(inside), name="tray")
    all_shapes = (frame, *shapes, result)
    return BurrPuzzle(all_shapes, (BurrProblem((Part(0, 1, 1), *parts), len(all_shapes) - 1),))


def _on_grid(number: int) -> Callable[[random.Random], BurrPuzzle]:
    """Puzzles on BurrTools' grid ``number``: a random connected region of cells (see
    the notes) cut into pieces."""
    grid = GRIDS[number]
    span = {1: 5, 2: 5, 3: 10, 4: 6}[number]
    every = np.array(list(itertools.product(range(span), repeat=3)), dtype=np.int64)
    cells = sorted(map(tuple, every[grid.is_cell(every)].tolist()))

    def near(voxel: Voxel) -> list[Voxel]:
        found = np.array(grid.neighbours(voxel), dtype=np.int64)
        inside = (found >= 0).all(axis=1) & grid.is_cell(found)
        return [(x, y, z) for x, y, z in found[inside].tolist()]

    def form(piece: set[Voxel]) -> bytes:
        """The piece up to the grid's rotations and translations."""
        images, ok = grid.images(np.array(sorted(piece), dtype=np.int64))
        turns = len(grid.rotations)
        keys: list[bytes] = []
        for image in images[:turns][ok[:turns]]:
            moved = image - grid.shift(image)
            keys.append(moved[np.lexsort((moved[:, 2], moved[:, 1], moved[:, 0]))].tobytes())
        return min(keys)

    def placed(piece: set[Voxel]) -> set[Voxel]:
        voxels = np.array(sorted(piece), dtype=np.int64)
        return {(x, y, z) for x, y, z in (voxels - grid.shift(voxels)).tolist()}

    def make(rng: random.Random) -> BurrPuzzle:
        region = {rng.choice(cells)}
        goal = rng.randint(6, {1: 12, 2: 10, 3: 10, 4: 10}[number])
        while len(region) < goal:
            grow = sorted({n for cell in region for n in near(cell)} - region)
            if not grow:
                break
            region.add(rng.choice(grow))
        forms: dict[bytes, list[set[Voxel]]] = {}
        for piece in _cut(rng, sorted(region), 2, 4, near):
            forms.setdefault(form(piece), []).append(piece)
        shapes: list[BurrShape] = []
        parts: list[Part] = []
        for copies in forms.values():
            shapes.append(BurrShape.from_voxels(placed(copies[0]), name=f"piece {len(shapes) + 1}"))
            lo = hi = len(copies)
            if rng.random() < 0.3:
                lo, hi = max(0, lo - rng.randint(0, 1)), hi + rng.randint(1, 2)
            parts.append(Part(len(shapes) - 1, lo, hi))
        shapes.append(BurrShape.from_voxels(placed(region), name="result"))
        problem = BurrProblem(tuple(parts), len(shapes) - 1)
        return BurrPuzzle(tuple(shapes), (problem,), grid=number)

    return make


KINDS: dict[str, Callable[[random.Random], BurrPuzzle]] = {
    "burr": burr,
    "box": box,
    "tray": tray,
    "prisms": _on_grid(1),
    "spheres": _on_grid(2),
    "rhombic": _on_grid(3),
    "tetra": _on_grid(4),
}
#: The kinds whose puzzles are compared by their assemblies only (``burrTxt -q``):
#: neither program disassembles on those grids.
ASSEMBLED_ONLY = {"spheres", "rhombic", "tetra"}


# ----------------------------------------------------------------------- the two sides


@dataclass
class Verdict:
    """One side's answer on a puzzle: assemblies, solutions, the level strings of the
    solutions (a multiset), and the seconds it took (None: it did not finish)."""

    assemblies: int = 0
    solutions: int = 0
    levels: Counter[str] = field(default_factory=Counter)
    seconds: float | None = None


#: What ``burrTxt`` prints instead of its counts when its assembler finds, before
#: searching, that no assembly exists: the pieces' volumes cannot fill the result
#: (counting every piece at its minimum or its maximum), or a piece that must be used
#: fits nowhere. excover then finds no assembly either.
_NONE = re.compile(
    r"^(\d+ units too many for the result shape|\d+ units too few for the result shape"
    r"|Piece \d+ can be place nowhere in the result shape)$",
    re.MULTILINE,
)


def burrtxt(binary: str, path: str, timeout: float, disassemble: bool = True) -> Verdict:
    """``burrTxt -d`` on the file: its counts and level strings (``burrTxt -q``, its
    assemblies only, when not ``disassemble``)."""
    started = time.perf_counter()
    try:
        out = subprocess.run(
            [binary, "-d" if disassemble else "-q", path],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        ).stdout
    except subprocess.TimeoutExpired:
        return Verdict()
    counts = re.search(r"(\d+) assemblies and (\d+) solutions", out)
    if counts is None and _NONE.search(out):  # checked before assembling: none exists
        return Verdict(seconds=time.perf_counter() - started)
    if counts is None:
        raise RuntimeError(f"burrTxt printed no counts for {path}:\n{out[-2000:]}")
    levels = Counter(re.findall(r"level: (\S+)", out))
    return Verdict(int(counts[1]), int(counts[2]), levels, time.perf_counter() - started)


def excover_count(puzzle: BurrPuzzle, timeout: float) -> Verdict:
    """excover's count of assemblies, as BurrTools counts them (no disassembly)."""
    started = time.perf_counter()
    cover = ExactCover.from_burrtools(puzzle, 0)
    try:
        found = cover.count(up_to_symmetry=True, timeout=timeout)
    except LimitReached:
        return Verdict()
    return Verdict(found, 0, Counter(), time.perf_counter() - started)


def excover_side(puzzle: BurrPuzzle, complete: bool, timeout: float) -> Verdict:
    """excover's assemblies and disassemblies, greedy or complete."""
    started = time.perf_counter()
    deadline = time.monotonic() + timeout
    verdict = Verdict()
    try:
        listed = list(disassemble_all(puzzle, 0, complete=complete, deadline=deadline))
    except LimitReached:  # the deadline passed while an assembly was looked for
        return Verdict()
    for result in listed:
        if result.status == "unknown":
            return Verdict()
        verdict.assemblies += 1
        if result.status == "solved":
            verdict.solutions += 1
            verdict.levels[result.level or "?"] += 1
    verdict.seconds = time.perf_counter() - started
    return verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("burrtxt")
    parser.add_argument("--puzzles", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="burr,box,tray")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--keep", type=Path, help="save the puzzles that disagree here")
    parser.add_argument(
        "--start", type=int, default=0, help="the first puzzle's number (to go on from a run)"
    )
    parser.add_argument("--verbose", action="store_true", help="a line for every puzzle")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    tally: Counter[str] = Counter()
    times = {"burrTxt": 0.0, "greedy": 0.0, "complete": 0.0}
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.start, args.start + args.puzzles):
            seed = args.seed * 1_000_003 + number
            rng = random.Random(seed)
            kind = kinds[number % len(kinds)]
            puzzle = KINDS[kind](rng)
            text = format_xmpuzzle(puzzle)
            path = str(Path(folder) / f"{kind}-{seed}.xmpuzzle")
            Path(path).write_text(text, encoding="utf-8")
            if kind in ASSEMBLED_ONLY:
                theirs = burrtxt(args.burrtxt, path, args.timeout, disassemble=False)
                greedy = complete = excover_count(puzzle, args.timeout)
                theirs.solutions = 0  # burrTxt -q counts as solutions what it assembles
            else:
                theirs = burrtxt(args.burrtxt, path, args.timeout)
                greedy = excover_side(puzzle, False, args.timeout)
                complete = excover_side(puzzle, True, args.timeout)
            if None in (theirs.seconds, greedy.seconds, complete.seconds):
                tally["skipped"] += 1
                if args.verbose:
                    print(f"{number} {kind} seed {seed}: skipped", flush=True)
                continue
            tally[kind] += 1
            times["burrTxt"] += theirs.seconds or 0.0
            times["greedy"] += greedy.seconds or 0.0
            times["complete"] += complete.seconds or 0.0
            problems = []
            if theirs.assemblies != greedy.assemblies:
                problems.append(f"assemblies {theirs.assemblies} / {greedy.assemblies}")
            if theirs.solutions != greedy.solutions:
                problems.append(f"solutions {theirs.solutions} / {greedy.solutions}")
            if theirs.levels != greedy.levels:
                problems.append(f"levels {dict(theirs.levels)} / {dict(greedy.levels)}")
            if not greedy.levels <= complete.levels:
                problems.append(f"complete lost greedy's levels {dict(complete.levels)}")
            tally["beyond"] += complete.solutions - greedy.solutions
            if args.verbose and not problems:
                print(
                    f"{number} {kind} seed {seed}: agree ({greedy.assemblies} assemblies, "
                    f"{greedy.solutions} solutions)",
                    flush=True,
                )
            if problems:
                tally["disagree"] += 1
                print(f"{kind} seed {seed}: burrTxt / excover: " + "; ".join(problems), flush=True)
                if args.keep is not None:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / Path(path).name).write_text(text, encoding="utf-8")
    compared = sum(tally[kind] for kind in kinds)
    print(
        f"{compared} puzzles compared ({', '.join(f'{tally[k]} {k}' for k in kinds)}), "
        f"{tally['skipped']} skipped (over {args.timeout:g} s), "
        f"{tally['disagree']} disagreeing; {tally['beyond']} solutions beyond BurrTools' "
        f"greedy search; seconds: "
        + ", ".join(f"{name} {seconds:.1f}" for name, seconds in times.items())
    )
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
