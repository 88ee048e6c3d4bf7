"""Every shipped example runs and prints the counts its comments promise; the hexagonal
and triangular examples are also checked against independent computations (MacMahon's
formula, and a brute-force search with its own orbit counting)."""

from __future__ import annotations

import io
import re
from fractions import Fraction
from pathlib import Path

import pytest

from excover.lang import Interpreter, parse_file
from excover.lang.evaluate import DeclaredProblem

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAMS = sorted(EXAMPLES.glob("*.cmb"))

#: A count promised in a comment: ``count ... # NAME : (ALGO) N solutions[ up to symmetry]``.
PROMISE = re.compile(r"^\s*count3? [^#]*#\s*(\S+ : \([A-Z]+\) \d+ solutions(?: up to symmetry)?)$")


def run(path: Path) -> tuple[str, Interpreter]:
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    interpreter.run(parse_file(str(path)))
    return out.getvalue(), interpreter


def test_the_examples_are_there() -> None:
    names = {path.stem for path in PROGRAMS}
    assert names >= {
        "caml",
        "caml_small",
        "scott",
        "pentomino_rectangles",
        "penta_5xn",
        "modotri",
        "soma",
        "tetrominoes",
        "trihexes",
        "lozenges",
        "prisms",
        "spheres",
        "rhombic",
        "tetraocta",
    }


@pytest.mark.parametrize("path", PROGRAMS, ids=[path.stem for path in PROGRAMS])
def test_example_prints_its_known_counts(path: Path) -> None:
    promised = [m.group(1) for m in map(PROMISE.match, path.read_text().splitlines()) if m]
    assert promised, f"{path.name} promises no count in its comments"
    out, _ = run(path)
    counts = [line for line in out.splitlines() if " solutions" in line and " : (" in line]
    assert counts == promised


def test_the_large_camel_has_the_count_of_the_quick_start() -> None:
    out, _ = run(EXAMPLES / "caml.cmb")
    assert out.endswith("caml : (ZDD) 32420116341024288 solutions\n")


def macmahon(a: int, b: int, c: int) -> int:
    """Lozenge tilings of the hexagon of sides a, b, c (MacMahon's product formula)."""
    product = Fraction(1)
    for i in range(1, a + 1):
        for j in range(1, b + 1):
            for k in range(1, c + 1):
                product *= Fraction(i + j + k - 1, i + j + k - 2)
    assert product.denominator == 1
    return int(product)


def tilings(problem: DeclaredProblem) -> list[frozenset[frozenset[tuple[int, ...]]]]:
    """Every tiling of a problem whose tiles may be used any number of times, by a plain
    search: cover the smallest uncovered cell with each translate of each orientation."""
    assert problem.tiling is not None
    grid = problem.tiling.grid
    board = {tuple(int(v) for v in cell) for cell in problem.tiling.cells.tolist()}
    shapes = [
        [tuple(int(v) for v in cell) for cell in shape.tolist()]
        for tile in problem.tiling.tiles
        for shape in tile.orientations
    ]
    found: list[frozenset[frozenset[tuple[int, ...]]]] = []

    def search(uncovered: set[tuple[int, ...]], pieces: list[frozenset[tuple[int, ...]]]) -> None:
        if not uncovered:
            found.append(frozenset(pieces))
            return
        target = min(uncovered)
        for shape in shapes:
            offset = [t - s for t, s in zip(target, shape[0], strict=True)]
            if grid.name == "triangle" and sum(offset) != 0:
                continue
            piece = frozenset(
                tuple(c + o for c, o in zip(cell, offset, strict=True)) for cell in shape
            )
            if piece <= uncovered:
                search(uncovered - piece, [*pieces, piece])

    search(board, [])
    return found


def orbits(problem: DeclaredProblem, found: list[frozenset[frozenset[tuple[int, ...]]]]) -> int:
    """The number of classes of tilings under the isometries mapping the board onto
    itself (after a translation), each tiling keyed by its smallest image."""
    assert problem.tiling is not None
    grid = problem.tiling.grid
    cells = problem.tiling.cells
    board = {tuple(int(v) for v in cell) for cell in cells.tolist()}
    maps: list[dict[tuple[int, ...], tuple[int, ...]]] = []
    for g in grid.isometries:
        image = g.apply(cells)
        image = image + (grid.shift(cells) - grid.shift(image))
        mapping = {
            tuple(int(v) for v in a): tuple(int(v) for v in b)
            for a, b in zip(cells.tolist(), image.tolist(), strict=True)
        }
        if set(mapping.values()) == board:
            maps.append(mapping)
    assert len(maps) == 12  # the hexagonal boards here have all 12 symmetries

    def moved(
        tiling: frozenset[frozenset[tuple[int, ...]]],
        mapping: dict[tuple[int, ...], tuple[int, ...]],
    ) -> tuple[tuple[tuple[int, ...], ...], ...]:
        return tuple(sorted(tuple(sorted(mapping[cell] for cell in piece)) for piece in tiling))

    return len({min(moved(t, mapping) for mapping in maps) for t in found})


def test_lozenge_counts_match_macmahon_and_a_brute_force_search() -> None:
    out, interpreter = run(EXAMPLES / "lozenges.cmb")
    assert f"hexagon2 : (DLX) {macmahon(2, 2, 2)} solutions" in out
    assert f"hexagon3 : (ZDD) {macmahon(3, 3, 3)} solutions" in out
    hexagon3 = interpreter.problems["hexagon3"]
    assert hexagon3.tiling is not None
    assert sum(len(t.orientations) for t in hexagon3.tiling.tiles) == 3  # fixed diamonds
    found = tilings(hexagon3)
    assert len(found) == len(set(found)) == macmahon(3, 3, 3)
    assert f"hexagon3 : (DLX) {orbits(hexagon3, found)} solutions up to symmetry" in out


def test_trihex_counts_match_a_brute_force_search() -> None:
    out, interpreter = run(EXAMPLES / "trihexes.cmb")
    ring = interpreter.problems["ring"]
    assert ring.tiling is not None
    # 11 fixed trihexes (OEIS A001207): 3 straight, 2 triangles, 6 bent
    assert [len(t.orientations) for t in ring.tiling.tiles] == [3, 2, 6]
    found = tilings(ring)
    assert len(found) == len(set(found))
    assert f"ring : (DLX) {len(found)} solutions" in out
    assert f"ring : (DLX) {orbits(ring, found)} solutions up to symmetry" in out
