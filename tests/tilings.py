"""Small tiling problems on the square grid, and a brute force that knows their tilings
and their classes up to symmetry, written without the tiling library.

A :class:`TilingCase` is a board (a set of cells) and tiles, each a polyomino with a
multiplicity and the orientations it may take (``"none"``, ``"rotations"``, ``"all"``).
:meth:`TilingCase.tilings` fills the board's smallest free cell in every possible way;
:meth:`TilingCase.orbit_of` names the class of each tiling under the group that the
library documents (:mod:`excover.tiling.symmetry` and ``Tiling._larger_automatic_group``):
the isometries of the square that map the board onto itself and the orientations of every
tile onto the orientations of a tile with the same multiplicity (tiles with the same
orientations matched in their order), together with the exchanges of tiles that have the
same placements on the board and the same multiplicity. A class is named by the smallest
image of its tilings under that group (each tiling *canonicalised*), so counting the
classes is counting distinct canonical forms.

:func:`tiling_cases` is a hypothesis strategy of such cases: random polyominoes, copies
and mirror images of them, on rectangles with holes that are often symmetric.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from excover.tiling import Pattern, Tile, Tiling

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["MAPS", "Cell", "TileSpec", "TilingCase", "normal", "polyominoes", "tiling_cases"]

Cell = tuple[int, int]
#: A tile: its cells, its multiplicity (lo, hi; hi None for no bound) and its symmetry.
TileSpec = tuple[tuple[Cell, ...], int, int | None, str]
#: A tiling: the cells of each placement, with the number of its tile.
Placed = frozenset[tuple[int, frozenset[Cell]]]

#: The eight isometries of the square grid fixing the origin, identity first.
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
#: The orientations a tile may take, by its symmetry.
ALLOWED = {"none": MAPS[:1], "rotations": MAPS[:4], "all": MAPS}
MULTIPLICITIES: dict[str, tuple[int, int | None]] = {"one": (1, 1), "maybe": (0, 1)}
MULTIPLICITIES |= {"any": (0, None), "1..2": (1, 2), "0..2": (0, 2), "2..": (2, None)}


def normal(cells: set[Cell] | frozenset[Cell]) -> frozenset[Cell]:
    """The cells moved so that their smallest coordinates are 0."""
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return frozenset((x - x0, y - y0) for x, y in cells)


def moved(f: Callable[[int, int], Cell], cells: frozenset[Cell]) -> frozenset[Cell]:
    """The image of ``cells`` under ``f``."""
    return frozenset(f(x, y) for x, y in cells)


class _TooMany(Exception):
    """The brute force found more tilings than it was asked to stop at."""


@dataclass(frozen=True)
class TilingCase:
    """A board and its tiles, with the brute-force answers."""

    board: frozenset[Cell]
    tiles: tuple[TileSpec, ...]

    def build(self) -> Tiling:
        """The problem in the tiling library; tile ``i`` is named ``s{i}``."""
        return Tiling(
            Pattern.from_cells(sorted(self.board)),
            [
                Tile(Pattern.from_cells(list(cells)), f"s{i}", (lo, hi), symmetry)
                for i, (cells, lo, hi, symmetry) in enumerate(self.tiles)
            ],
        )

    @cached_property
    def orientations(self) -> list[frozenset[frozenset[Cell]]]:
        """The orientations of each tile, normalised."""
        return [
            frozenset(normal(moved(f, frozenset(cells))) for f in ALLOWED[symmetry])
            for cells, _, _, symmetry in self.tiles
        ]

    @cached_property
    def placements(self) -> list[frozenset[frozenset[Cell]]]:
        """Where each tile fits on the board: the cells of each placement."""
        return [
            frozenset(
                placed
                for shape in shapes
                for bx, by in self.board
                if (placed := frozenset((x + bx, y + by) for x, y in shape)) <= self.board
            )
            for shapes in self.orientations
        ]

    def tilings(self) -> list[Placed]:
        """Every tiling, by filling the smallest free cell of the board."""
        found = self.at_most(None)
        assert found is not None
        return found

    def at_most(self, most: int | None) -> list[Placed] | None:
        """Every tiling, or None when there are more than ``most``."""
        found: list[Placed] = []
        used = [0] * len(self.tiles)
        chosen: list[tuple[int, frozenset[Cell]]] = []

        def fill(free: frozenset[Cell]) -> None:
            if not free:
                if all(k >= lo for k, (_, lo, _, _) in zip(used, self.tiles, strict=True)):
                    found.append(frozenset(chosen))
                    if most is not None and len(found) > most:
                        raise _TooMany
                return
            tx, ty = min(free)
            for number, (_, _, hi, _) in enumerate(self.tiles):
                if hi is not None and used[number] >= hi:
                    continue
                for shape in self.orientations[number]:
                    for ax, ay in shape:
                        placed = frozenset((x - ax + tx, y - ay + ty) for x, y in shape)
                        if placed <= free:
                            used[number] += 1
                            chosen.append((number, placed))
                            fill(free - placed)
                            chosen.pop()
                            used[number] -= 1

        try:
            fill(self.board)
        except _TooMany:
            return None
        return found

    def symmetries(self) -> list[tuple[Callable[[int, int], Cell], list[int]]]:
        """The board's symmetries of the problem: each isometry that maps the board onto
        itself and every tile's orientations onto those of a tile of the same multiplicity,
        with where it sends each tile."""
        classes: dict[tuple[frozenset[frozenset[Cell]], int, int | None], list[int]] = {}
        for number, (_, lo, hi, _) in enumerate(self.tiles):
            classes.setdefault((self.orientations[number], lo, hi), []).append(number)
        found = []
        for f in MAPS:
            if normal(moved(f, self.board)) != normal(self.board):
                continue
            tile_map = []
            for number, (_, lo, hi, _) in enumerate(self.tiles):
                image = frozenset(normal(moved(f, o)) for o in self.orientations[number])
                source = classes[self.orientations[number], lo, hi]
                target = classes.get((image, lo, hi))
                if target is None or len(target) != len(source):
                    break
                tile_map.append(target[source.index(number)])
            else:
                found.append((f, tile_map))
        return found

    def exchangeable(self) -> list[list[int]]:
        """The classes of tiles that may exchange places: the same placements on the
        board and the same multiplicity."""
        classes: dict[tuple[frozenset[frozenset[Cell]], int, int | None], list[int]] = {}
        for number, (_, lo, hi, _) in enumerate(self.tiles):
            classes.setdefault((self.placements[number], lo, hi), []).append(number)
        return list(classes.values())

    def canonical(self, tiling: Placed) -> tuple[object, ...]:
        """The smallest image of ``tiling`` under the group: every board symmetry (the
        image shifted back onto the board), the tiles of each exchangeable class then
        sorted by the placements they hold (any exchange of them gives the same form)."""
        x0 = min(x for x, _ in self.board)
        y0 = min(y for _, y in self.board)
        forms = []
        for f, tile_map in self.symmetries():
            image = moved(f, self.board)
            dx = x0 - min(x for x, _ in image)
            dy = y0 - min(y for _, y in image)
            held: dict[int, list[tuple[Cell, ...]]] = {t: [] for t in range(len(self.tiles))}
            for tile, cells in tiling:
                shifted = sorted((x + dx, y + dy) for x, y in moved(f, cells))
                held[tile_map[tile]].append(tuple(shifted))
            forms.append(
                tuple(
                    tuple(sorted(tuple(sorted(held[t])) for t in members))
                    for members in self.exchangeable()
                )
            )
        return min(forms)

    def orbit_of(self) -> dict[Placed, tuple[object, ...]]:
        """Each tiling and the canonical form that names its class."""
        return {tiling: self.canonical(tiling) for tiling in self.tilings()}


def decoded(solution: object) -> Placed:
    """A solution of the tiling library (a sequence of placements) as a :data:`Placed`."""
    return frozenset(
        (int(p.tile.name[1:]), frozenset((int(x), int(y)) for x, y in p.cells))
        for p in solution  # type: ignore[attr-defined]
    )


def polyominoes(max_cells: int = 4) -> SearchStrategy[tuple[Cell, ...]]:
    """A hypothesis strategy of polyominoes of 1 to ``max_cells`` cells, normalised and
    sorted: each cell after the first grows next to the ones before."""
    from hypothesis import strategies as st

    @st.composite
    def grow(draw: st.DrawFn) -> tuple[Cell, ...]:
        cells = {(0, 0)}
        for _ in range(draw(st.integers(0, max_cells - 1))):
            around = {(x + dx, y + dy) for x, y in cells for dx, dy in STEPS} - cells
            cells.add(draw(st.sampled_from(sorted(around))))
        return tuple(sorted(normal(cells)))

    return grow()


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def tiling_cases(
    max_side: int = 4,
    max_area: int = 12,
    max_cells: int = 4,
    max_tiles: int = 3,
    max_tilings: int = 2000,
) -> SearchStrategy[TilingCase]:
    """A hypothesis strategy of tiling cases: a rectangle of sides up to ``max_side``
    and area up to ``max_area``, with holes (made symmetric under one of the rectangle's
    symmetries half the time), and 1 to ``max_tiles`` tiles of up to ``max_cells``
    cells, each a new polyomino, a copy of an earlier tile, or an earlier tile's mirror
    image with its multiplicity (pieces a mirror may exchange). Tiles larger than the
    board, which the library refuses, are left out (a monomino stands in when none is
    left). Cases with more than ``max_tilings`` tilings are left out (several pieces
    free to repeat on a large board have millions)."""
    from hypothesis import strategies as st

    shapes = polyominoes(max_cells)  # made once, not once per tile drawn

    @st.composite
    def draw_case(draw: st.DrawFn) -> TilingCase:
        width = draw(st.integers(1, max_side))
        height = draw(st.integers(1, min(max_side, max_area // width)))
        rectangle = frozenset((x, y) for x in range(width) for y in range(height))
        spots = sorted(rectangle)
        holes = set(draw(st.lists(st.sampled_from(spots), max_size=width * height // 3)))
        if draw(st.booleans()):
            keeping = [f for f in MAPS if normal(moved(f, rectangle)) == rectangle]
            f = draw(st.sampled_from(keeping))
            image = moved(f, rectangle)
            dx, dy = -min(x for x, _ in image), -min(y for _, y in image)
            holes |= {(u + dx, v + dy) for u, v in (f(x, y) for x, y in holes)}
        board = rectangle - holes or rectangle
        tiles: list[TileSpec] = []
        for _ in range(draw(st.integers(1, max_tiles))):
            how = draw(
                st.sampled_from(["new", "new", "copy", "mirror"]) if tiles else st.just("new")
            )
            if how == "new":
                lo, hi = MULTIPLICITIES[draw(st.sampled_from(sorted(MULTIPLICITIES)))]
                symmetry = draw(st.sampled_from(sorted(ALLOWED)))
                tiles.append((draw(shapes), lo, hi, symmetry))
                continue
            cells, lo, hi, symmetry = draw(st.sampled_from(tiles))
            if how == "mirror":
                cells = tuple(sorted(normal(moved(MAPS[4], frozenset(cells)))))
            tiles.append((cells, lo, hi, symmetry))
        fitting = tuple(tile for tile in tiles if len(tile[0]) <= len(board))
        return TilingCase(board, fitting or ((((0, 0),), 0, None, "none"),))

    return draw_case().filter(lambda case: case.at_most(max_tilings) is not None)
