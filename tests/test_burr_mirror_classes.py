"""Assemblies counted as BurrTools counts them when only some have mirror images.

With a shape usable a range of times (``min`` < ``max``), BurrTools' ``assembler_1``
identifies an assembly with its mirror image only when that image is an assembly of the
puzzle (its mirror-asymmetric pieces swapped with their mirror partners, each shape used
at least its ``min`` times): some assemblies do, others not
(:mod:`excover.burr.xmpuzzle.cover`, :mod:`excover.symmetry.widened`).

Each puzzle's count of classes is the one ``burrTxt -q`` (BurrTools' solver, built from
github.com/burr-tools/burr-tools) printed for it, written here, and a brute-force oracle
checks it: every assembly found by trying every placement, and the classes joined by
BurrTools' own procedure (``assembly.cpp``: each piece a slot, the slots paired in
order, a mirrored assembly's pieces swapped slot by slot, the image dropped when a
piece stays mirrored or a shape is used fewer than its ``min`` times).
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from excover import ExactCover, UsageError
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part, format_xmpuzzle

Voxel = tuple[int, int, int]
Cells = frozenset[Voxel]

#: The two chiral tetracubes (mirror images), a chiral pentacube and its mirror image,
#: and mirror-symmetric pieces.
LEFT = {(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)}
RIGHT = {(1, 0, 0), (0, 0, 0), (0, 1, 0), (0, 1, 1)}
SCREW = {(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 2, 1)}
WERCS = {(1 - x, y, z) for x, y, z in SCREW}
DOMINO = {(0, 0, 0), (1, 0, 0)}
CORNER = {(0, 0, 0), (1, 0, 0), (0, 1, 0)}
SQUARE = {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)}


def puzzle(parts: list[tuple[set[Voxel], int, int]], size: tuple[int, int, int]) -> BurrPuzzle:
    """A box of ``size`` to fill with the parts, each ``(cells, min, max)``."""
    shapes = [
        BurrShape.from_voxels(cells, name=f"piece {k}") for k, (cells, _, _) in enumerate(parts)
    ]
    box = {(x, y, z) for x, y, z in itertools.product(*(range(n) for n in size))}
    shapes.append(BurrShape.from_voxels(box, name="box"))
    problem = BurrProblem(tuple(Part(k, lo, hi) for k, (_, lo, hi) in enumerate(parts)), len(parts))
    return BurrPuzzle(tuple(shapes), (problem,))


#: name, parts, box, the count ``burrTxt -q`` printed, the count under the rotations
#: alone (what excover printed before: assemblies whose mirror image is one are counted
#: twice).
CASES = [
    # a chiral spare without a partner: no assembly that uses it has a mirror image
    ("spare", [(LEFT, 1, 1), (RIGHT, 1, 1), (DOMINO, 0, 2), (SCREW, 0, 1)], (2, 2, 3), 3, 4),
    # the second LEFT has no partner: BurrTools stops pairing there, SCREW and WERCS unpaired
    (
        "pairing stops",
        [(LEFT, 0, 2), (RIGHT, 0, 1), (SCREW, 0, 1), (WERCS, 0, 1), (DOMINO, 0, 6)],
        (2, 2, 3),
        25,
        34,
    ),
    # partners with other minimums: an image must use each at least its partner's minimum
    ("minimums", [(LEFT, 1, 2), (RIGHT, 0, 2), (DOMINO, 0, 4)], (2, 2, 3), 18, 19),
    (
        "minimums, later",
        [(LEFT, 0, 2), (RIGHT, 1, 2), (SQUARE, 0, 3), (DOMINO, 0, 2)],
        (2, 2, 3),
        17,
        18,
    ),
    # the partners last, the second LEFT unpaired
    (
        "partners last",
        [(DOMINO, 0, 6), (CORNER, 0, 2), (RIGHT, 0, 1), (LEFT, 0, 2)],
        (2, 2, 3),
        65,
        109,
    ),
    (
        "pentacubes",
        [(SCREW, 0, 1), (WERCS, 0, 2), (LEFT, 0, 1), (CORNER, 0, 2), (DOMINO, 0, 3)],
        (2, 3, 2),
        44,
        67,
    ),
    # fixed counts, every piece paired: every assembly has its mirror image
    ("fixed", [(LEFT, 1, 1), (RIGHT, 1, 1), (DOMINO, 2, 2)], (2, 2, 3), 3, 3),
]


@pytest.mark.parametrize(("name", "parts", "size", "burrtxt", "rotations"), CASES)
def test_classes_are_burrtools(
    name: str,
    parts: list[tuple[set[Voxel], int, int]],
    size: tuple[int, int, int],
    burrtxt: int,
    rotations: int,
) -> None:
    built = puzzle(parts, size)
    cover = ExactCover.from_burrtools(built, 0)
    assert cover.count(up_to_symmetry=True) == burrtxt, name
    assert oracle_classes(built) == burrtxt, name
    listed = list(cover.solutions(up_to_symmetry=True))
    assert len(listed) == burrtxt
    assert len({tuple(s) for s in listed}) == burrtxt
    assert all(cover.is_solution(s) for s in listed)
    # under the declared group (the rotations) alone, as before
    assert cover.count(up_to_symmetry=True, symmetry=cover.symmetries()) == rotations
    assert (cover.declared_widening() is not None) == (rotations != burrtxt)


def test_differential_seed_1000013() -> None:
    """``benchmarks/burr_differential.py`` seed 1000013: a 2x4x4 box of 324,992
    assemblies (``burrTxt -q``: 20,312; excover gave 40,624, the orbits under the
    rotations): the spare chiral tetracube (0..1 times, no partner) never fits, so that
    every assembly has its mirror image."""
    parts = [
        ({(0, 0, 0), (0, 1, 0)}, 1, 1),
        ({(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 0, 0), (1, 0, 1)}, 3, 3),
        ({(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1)}, 1, 1),
        ({(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 0), (1, 2, 0), (1, 3, 0)}, 1, 1),
        ({(0, 0, 0)}, 3, 3),
        ({(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 1, 0)}, 0, 1),
    ]
    cover = ExactCover.from_burrtools(puzzle(parts, (2, 4, 4)), 0)
    assert cover.count(up_to_symmetry=True) == 20_312
    assert cover.count() == 324_992


def test_command_counts_classes(tmp_path: Path) -> None:
    path = tmp_path / "spare.xmpuzzle"
    _, parts, size, burrtxt, _ = CASES[0]
    path.write_text(format_xmpuzzle(puzzle(parts, size)), encoding="utf-8")
    for command, expected in (("count", f"{burrtxt}\n"), ("solve", None)):
        done = subprocess.run(
            [sys.executable, "-m", "excover", command, str(path), "--up-to-symmetry"],
            capture_output=True,
            text=True,
            check=True,
        )
        if expected is not None:
            assert done.stdout == expected
        else:
            assert done.stdout.count("solution ") == burrtxt
        assert "solutions with more symmetries" in done.stderr


def test_a_widening_widens_a_declared_group() -> None:
    _, parts, size, _, _ = CASES[0]
    cover = ExactCover.from_burrtools(puzzle(parts, size), 0)
    widening = cover.declared_widening()
    assert widening is not None
    with pytest.raises(UsageError, match="declare them too"):
        cover.declare_symmetries(None, widening)


# ----------------------------------------------------------------------- the oracle


def _matrices() -> list[tuple[tuple[tuple[int, ...], ...], int]]:
    """The 48 orthogonal maps of the cube grid, each with its determinant."""
    found = []
    for order in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            rows = tuple(
                tuple(signs[r] if c == order[r] else 0 for c in range(3)) for r in range(3)
            )
            parity = sum(1 for a, b in itertools.combinations(order, 2) if a > b) % 2
            found.append((rows, (-1) ** parity * signs[0] * signs[1] * signs[2]))
    return found


def _apply(rows: tuple[tuple[int, ...], ...], v: Voxel) -> Voxel:
    x, y, z = (sum(r[c] * v[c] for c in range(3)) for r in rows)
    return (x, y, z)


def _normal(cells: Iterable[Voxel]) -> Cells:
    cells = list(cells)
    low = [min(v[a] for v in cells) for a in range(3)]
    return frozenset((x - low[0], y - low[1], z - low[2]) for x, y, z in cells)


def _mover(rows: tuple[tuple[int, ...], ...], low: list[int]) -> Callable[[Voxel], Voxel]:
    """The map of voxels ``rows`` makes, moved back by ``low``."""

    def move(v: Voxel) -> Voxel:
        x, y, z = _apply(rows, v)
        return (x - low[0], y - low[1], z - low[2])

    return move


def oracle_classes(built: BurrPuzzle) -> int:
    """BurrTools' count of assemblies of a box on the cube grid, by brute force."""
    problem = built.problems[0]
    box = set(built.shapes[problem.result].cells("#"))
    maps = _matrices()
    # the box's symmetries, as maps of its voxels
    symmetries: list[tuple[Callable[[Voxel], Voxel], int]] = []
    for rows, det in maps:
        low = [min(_apply(rows, v)[a] for v in box) for a in range(3)]
        if _normal(_apply(rows, v) for v in box) == _normal(box):
            symmetries.append((_mover(rows, low), det))
    parts = list(problem.parts)
    shapes = [_normal(built.shapes[p.shape].cells("#")) for p in parts]
    mirrors = [{_normal(_apply(r, v) for v in s) for r, det in maps if det < 0} for s in shapes]
    chiral = [s not in mirrors[k] for k, s in enumerate(shapes)]
    places = []
    for s in shapes:
        turned = {_normal(_apply(r, v) for v in s) for r, det in maps if det > 0}
        found = set()
        for form in turned:
            for dx, dy, dz in itertools.product(range(-3, 4), repeat=3):
                placed = frozenset((x + dx, y + dy, z + dz) for x, y, z in form)
                if placed <= box:
                    found.add(placed)
        places.append(sorted(found, key=sorted))
    assemblies: list[frozenset[tuple[int, Cells]]] = []

    def fill(k: int, used: frozenset[Voxel], chosen: list[tuple[int, Cells]]) -> None:
        if k == len(parts):
            if used == box:
                assemblies.append(frozenset(chosen))
            return

        def copies(
            n: int, start: int, used: frozenset[Voxel], chosen: list[tuple[int, Cells]]
        ) -> None:
            if n >= parts[k].lo:
                fill(k + 1, used, chosen)
            if n < parts[k].hi:
                for m in range(start, len(places[k])):
                    if not places[k][m] & used:
                        copies(n + 1, m + 1, used | places[k][m], [*chosen, (k, places[k][m])])

        copies(0, 0, used, chosen)

    fill(0, frozenset(), [])
    # BurrTools' slots (a piece each, the copies of a part in turn) and their pairing
    slots = [k for k, p in enumerate(parts) for _ in range(p.hi)]
    first = {k: slots.index(k) for k in set(slots)}
    pair: dict[int, int] = {}
    complete = True
    for a, k in enumerate(slots):
        if a in pair or not chiral[k]:
            continue
        b = next(
            (
                b
                for b in range(a + 1, len(slots))
                if b not in pair and shapes[slots[b]] in mirrors[k]
            ),
            None,
        )
        if b is None:
            complete = False
            break
        pair[a], pair[b] = b, a
    check = complete or any(p.lo != p.hi for p in parts)

    def mirrored(
        assembly: frozenset[tuple[int, Cells]], move: Callable[[Voxel], Voxel]
    ) -> frozenset[tuple[int, Cells]] | None:
        """assembly_c::transform by a mirror, then its checks: None when dropped."""
        state: list[tuple[Cells, bool] | None] = [None] * len(slots)
        for k in range(len(parts)):
            mine = sorted((cells for j, cells in assembly if j == k), key=sorted)
            for c, cells in enumerate(mine):
                state[first[k] + c] = (frozenset(move(v) for v in cells), chiral[k])
        for a in range(len(slots)):
            here = state[a]
            if here is None or not here[1]:
                continue
            if a not in pair:
                return None  # a piece stays mirrored
            b = pair[a]
            there = state[b]
            state[a] = None if there is None else (there[0], False)
            state[b] = (here[0], False)
        for k, p in enumerate(parts):
            placed = 0
            while placed < p.hi and state[first[k] + placed] is not None:
                placed += 1
            if placed < p.lo:
                return None
        return frozenset((slots[a], s[0]) for a, s in enumerate(state) if s is not None)

    number = {a: n for n, a in enumerate(assemblies)}
    parent = list(range(len(assemblies)))

    def root(n: int) -> int:
        while parent[n] != n:
            n = parent[n]
        return n

    for n, assembly in enumerate(assemblies):
        for move, det in symmetries:
            if det > 0:
                image: frozenset[tuple[int, Cells]] | None = frozenset(
                    (k, frozenset(move(v) for v in cells)) for k, cells in assembly
                )
            else:
                image = mirrored(assembly, move) if check else None
            if image is not None:
                parent[root(n)] = root(number[image])
    return len({root(n) for n in range(len(assemblies))})
