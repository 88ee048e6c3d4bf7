"""Tilings of small random boards against a brute force written independently
(``tilings.TilingCase``): counts, and counts up to the board's symmetries."""

from __future__ import annotations

from collections.abc import Callable

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from tilings import Cell, TilingCase, decoded

from excover.tiling import HexPattern, Pattern3, Tile, Tiling, TrianglePattern
from excover.tiling.tile import Shape

SHAPES: list[list[Cell]] = [
    [(0, 0)],
    [(0, 0), (1, 0)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 0), (1, 0), (0, 1)],
    [(0, 0), (1, 0), (2, 0), (2, 1)],
]


multiplicities = st.sampled_from(["one", "maybe", "any", (1, 2), (0, 2), (2, None)])
symmetries = st.sampled_from(["none", "rotations", "all"])


@st.composite
def problems(draw: st.DrawFn) -> tuple[set[Cell], list[tuple[list[Cell], int, int | None, str]]]:
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    cells = [(x, y) for x in range(width) for y in range(height)]
    board = set(draw(st.lists(st.sampled_from(cells), min_size=1, unique=True)))
    numbers = draw(st.lists(st.integers(0, len(SHAPES) - 1), min_size=1, max_size=3, unique=True))
    shapes = []
    for number in numbers:
        kind = draw(multiplicities)
        lo, hi = {"one": (1, 1), "maybe": (0, 1), "any": (0, None)}.get(kind, kind)  # type: ignore[call-overload]
        shapes.append((SHAPES[number], lo, hi, draw(symmetries)))
    return board, shapes


def case_of(board: set[Cell], shapes: list[tuple[list[Cell], int, int | None, str]]) -> TilingCase:
    """The drawn problem as a :class:`tilings.TilingCase` (with its brute force)."""
    return TilingCase(
        frozenset(board),
        tuple((tuple(cells), lo, hi, symmetry) for cells, lo, hi, symmetry in shapes),
    )


@settings(max_examples=examples(60))
@given(problems())
def test_counts_match_brute_force(
    problem: tuple[set[Cell], list[tuple[list[Cell], int, int | None, str]]],
) -> None:
    board, shapes = problem
    shapes = [s for s in shapes if len(s[0]) <= len(board)]
    if not shapes:
        return
    case = case_of(board, shapes)
    tiling = case.build()
    expected = case.tilings()
    assert tiling.count() == len(expected)
    assert {decoded(solution) for solution in tiling.solutions()} == set(expected)


@settings(max_examples=examples(60))
@given(problems())
def test_counts_up_to_symmetry_match_brute_force(
    problem: tuple[set[Cell], list[tuple[list[Cell], int, int | None, str]]],
) -> None:
    board, shapes = problem
    shapes = [s for s in shapes if len(s[0]) <= len(board)]
    if not shapes:
        return
    case = case_of(board, shapes)
    tiling = case.build()
    orbit_of = case.orbit_of()
    assert tiling.count(up_to_symmetry=True) == len(set(orbit_of.values()))
    listed = [orbit_of[decoded(solution)] for solution in tiling.solutions(up_to_symmetry=True)]
    assert len(listed) == len(set(listed)) == len(set(orbit_of.values()))  # one per class


def perfect_matchings(cells: set[tuple[int, ...]], adjacent: Callable[..., bool]) -> int:
    """The number of ways to pair up all the cells into adjacent pairs (brute force)."""
    if not cells:
        return 1
    first = min(cells)
    rest = cells - {first}
    return sum(
        perfect_matchings(rest - {other}, adjacent) for other in rest if adjacent(first, other)
    )


def hex_adjacent(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Axial coordinates: the six neighbours differ by (±1, 0), (0, ±1) or ±(1, -1)."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (dq, dr) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


def triangle_adjacent(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Two triangles share a side when one coordinate differs by one and the others agree."""
    return sorted(abs(x - y) for x, y in zip(a, b, strict=True)) == [0, 0, 1]


def cube_adjacent(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) == 1


TRIANGLES: list[tuple[int, ...]] = [
    (a, b, s - a - b) for s in (1, 2) for a in range(-1, 3) for b in range(-1, 3)
]


HEXES: list[tuple[int, ...]] = [(q, r) for q in range(5) for r in range(4)]
CUBES: list[tuple[int, ...]] = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)]


@settings(max_examples=examples(40))
@given(st.sampled_from(["hex", "triangle", "cube"]), st.data())
def test_domino_tilings_on_every_grid_match_perfect_matchings(
    grid: str, data: st.DataObject
) -> None:
    """Tilings by the two-cell tile are the perfect matchings of the board's adjacency
    graph, counted here from the coordinates alone."""
    universe = {"hex": HEXES, "triangle": TRIANGLES, "cube": CUBES}[grid]
    chosen = data.draw(st.lists(st.sampled_from(universe), min_size=2, max_size=14, unique=True))
    cells = set(chosen)
    board: Shape
    domino: Shape
    if grid == "hex":
        board, domino = HexPattern(chosen), HexPattern([(0, 0), (1, 0)])
        adjacent = hex_adjacent
    elif grid == "triangle":
        board, domino = TrianglePattern(chosen), TrianglePattern([(1, 0, 0), (1, 0, 1)])
        adjacent = triangle_adjacent
    else:
        board, domino = Pattern3.from_cells(chosen), Pattern3.from_cells([(0, 0, 0), (1, 0, 0)])
        adjacent = cube_adjacent
    tiling = Tiling(board, [Tile(domino, "d", "any")])
    assert tiling.count() == perfect_matchings(cells, adjacent)
