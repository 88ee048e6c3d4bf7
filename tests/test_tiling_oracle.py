"""Tilings of small random boards against a brute force written independently: counts,
and counts up to the board's symmetries."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from excover.tiling import Pattern, Tile, Tiling

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


def orbits(board: set[Cell], shapes: list[tuple[list[Cell], int, int | None, str]]) -> int:
    """The number of tilings up to the board symmetries that keep each tile's orientations
    (tiles have distinct free shapes, so a symmetry never exchanges two of them)."""
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
    seen: set[frozenset[tuple[int, frozenset[Cell]]]] = set()
    count = 0
    for solution in solutions:
        if solution in seen:
            continue
        count += 1
        for f in group:
            image = {f(x, y) for x, y in board}
            dx = x0 - min(x for x, _ in image)
            dy = y0 - min(y for _, y in image)
            seen.add(
                frozenset(
                    (t, frozenset((f(x, y)[0] + dx, f(x, y)[1] + dy) for x, y in cells))
                    for t, cells in solution
                )
            )
    return count


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
    expected = orbits(board, shapes)
    assert tiling.count(up_to_symmetry=True) == expected
    assert sum(1 for _ in tiling.solutions(up_to_symmetry=True)) == expected
