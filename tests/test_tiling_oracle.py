"""Tilings of small random boards against a brute force written independently: counts,
and counts up to the board's symmetries."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from excover.tiling import HexPattern, Pattern, Pattern3, Tile, Tiling, TrianglePattern
from excover.tiling.tile import Shape

Cell = tuple[int, int]
SHAPES: list[list[Cell]] = [
    [(0, 0)],
    [(0, 0), (1, 0)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 0), (1, 0), (0, 1)],
    [(0, 0), (1, 0), (2, 0), (2, 1)],
]
MAPS: list[Callable[[int, int], Cell]] = [
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
]
ALLOWED = {"none": MAPS[:1], "rotations": MAPS[:4], "all": MAPS}


def normal(cells: set[Cell]) -> frozenset[Cell]:
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return frozenset((x - x0, y - y0) for x, y in cells)


def brute_force(
    board: set[Cell], shapes: list[tuple[list[Cell], int, int | None, str]]
) -> list[frozenset[tuple[int, frozenset[Cell]]]]:
    """Every tiling, as a set of (tile number, cells), by filling the smallest free cell."""
    orientations = [
        {normal({f(x, y) for x, y in cells}) for f in ALLOWED[symmetry]}
        for cells, _, _, symmetry in shapes
    ]
    found = []

    def fill(free: set[Cell], used: list[int], chosen: list[tuple[int, frozenset[Cell]]]) -> None:
        if not free:
            if all(k >= lo for k, (_, lo, _, _) in zip(used, shapes, strict=True)):
                found.append(frozenset(chosen))
            return
        target = min(free)
        for number, (_, _, hi, _) in enumerate(shapes):
            if hi is not None and used[number] >= hi:
                continue
            for shape in orientations[number]:
                for ax, ay in shape:
                    placed = frozenset((x - ax + target[0], y - ay + target[1]) for x, y in shape)
                    if placed <= free:
                        used[number] += 1
                        chosen.append((number, placed))
                        fill(free - placed, used, chosen)
                        chosen.pop()
                        used[number] -= 1

    fill(set(board), [0] * len(shapes), [])
    return found


Solution = frozenset[tuple[int, frozenset[Cell]]]


def orbits(
    board: set[Cell], shapes: list[tuple[list[Cell], int, int | None, str]]
) -> list[set[Solution]]:
    """The classes of tilings equal up to the board symmetries that keep each tile's
    orientations (tiles have distinct free shapes, so a symmetry never exchanges two)."""
    solutions = brute_force(board, shapes)
    x0 = min(x for x, _ in board)
    y0 = min(y for _, y in board)
    norm_board = normal(board)
    group = []
    for f in MAPS:
        image = {f(x, y) for x, y in board}
        if normal(image) != norm_board:
            continue
        keeps = True
        for cells, _, _, symmetry in shapes:
            allowed = {normal({h(x, y) for x, y in cells}) for h in ALLOWED[symmetry]}
            moved = {normal({f(x, y) for x, y in o}) for o in allowed}
            keeps &= moved == allowed
        if keeps:
            group.append(f)
    seen: set[Solution] = set()
    classes: list[set[Solution]] = []
    for solution in solutions:
        if solution in seen:
            continue
        classes.append(set())
        for f in group:
            image = {f(x, y) for x, y in board}
            dx = x0 - min(x for x, _ in image)
            dy = y0 - min(y for _, y in image)
            image_tiling = frozenset(
                (t, frozenset((f(x, y)[0] + dx, f(x, y)[1] + dy) for x, y in cells))
                for t, cells in solution
            )
            seen.add(image_tiling)
            classes[-1].add(image_tiling)
    return classes


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


def build(board: set[Cell], shapes: list[tuple[list[Cell], int, int | None, str]]) -> Tiling:
    size = len(board)
    tile_list = [
        Tile(Pattern.from_cells(cells), f"s{i}", (lo, hi), symmetry)
        for i, (cells, lo, hi, symmetry) in enumerate(shapes)
        if len(cells) <= size
    ]
    return Tiling(Pattern.from_cells(sorted(board)), tile_list)


@settings(max_examples=60)
@given(problems())
def test_counts_match_brute_force(
    problem: tuple[set[Cell], list[tuple[list[Cell], int, int | None, str]]],
) -> None:
    board, shapes = problem
    shapes = [s for s in shapes if len(s[0]) <= len(board)]
    if not shapes:
        return
    tiling = build(board, shapes)
    expected = brute_force(board, shapes)
    assert tiling.count() == len(expected)
    decoded = {
        frozenset((int(p.tile.name[1:]), frozenset(p.cells)) for p in solution)  # type: ignore[index]
        for solution in tiling.solutions()
    }
    assert decoded == set(expected)


@settings(max_examples=60)
@given(problems())
def test_counts_up_to_symmetry_match_brute_force(
    problem: tuple[set[Cell], list[tuple[list[Cell], int, int | None, str]]],
) -> None:
    board, shapes = problem
    shapes = [s for s in shapes if len(s[0]) <= len(board)]
    if not shapes:
        return
    tiling = build(board, shapes)
    classes = orbits(board, shapes)
    assert tiling.count(up_to_symmetry=True) == len(classes)
    listed = [
        frozenset((int(p.tile.name[1:]), frozenset(p.cells)) for p in solution)  # type: ignore[index]
        for solution in tiling.solutions(up_to_symmetry=True)
    ]
    assert len(listed) == len(classes)
    assert all(sum(found in c for found in listed) == 1 for c in classes)  # one per class


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


@settings(max_examples=40)
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
