"""Tiles: a shape with a name, how many times it may be used, and how it may be turned.

A tile's *orientations* are the distinct normalised images of its shape under its allowed
isometries. Because the shape is normalised first, a tile drawn with empty margins gives
the same orientations as the trimmed one, and a symmetric tile never yields the same
placement twice.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from excover.errors import UsageError
from excover.tiling.grids import Coords, Grid, Isometry, IsometryGroup

__all__ = ["Multiplicity", "Shape", "Tile", "bounds"]

#: ``"one"`` (exactly once), ``"maybe"`` (at most once), ``"any"`` (any number of times),
#: an int ``n`` (exactly n times) or a range ``(lo, hi)`` (``hi`` None: no upper bound),
#: also written ``"lo..hi"`` (``"lo.."``: no upper bound).
Multiplicity = str | int | tuple[int, int | None]


@runtime_checkable
class Shape(Protocol):
    """What tilings need of a pattern: its grid and its cells as coordinate rows."""

    @property
    def grid(self) -> Grid: ...

    def coords(self) -> Coords: ...


def bounds(multiplicity: Multiplicity, name: str) -> tuple[int, int | None]:
    """The multiplicity as a range ``(lo, hi)``, ``hi`` None when unbounded."""
    given = multiplicity
    if multiplicity == "one":
        return 1, 1
    if multiplicity == "maybe":
        return 0, 1
    if multiplicity == "any":
        return 0, None
    if isinstance(multiplicity, str):
        low, dots, high = multiplicity.partition("..")
        if dots and low.isdigit() and (high.isdigit() or high == ""):
            multiplicity = (int(low), int(high) if high else None)
    if isinstance(multiplicity, int) and not isinstance(multiplicity, bool):
        multiplicity = (multiplicity, multiplicity)
    if (
        isinstance(multiplicity, tuple)
        and len(multiplicity) == 2
        and isinstance(multiplicity[0], int)
        and (multiplicity[1] is None or isinstance(multiplicity[1], int))
    ):
        lo, hi = multiplicity
        if lo >= 0 and (hi is None or hi >= max(lo, 1)):
            return lo, hi
    raise UsageError(
        f"bad multiplicity {given!r} for tile {name!r}: use 'one', 'maybe', 'any', "
        "a count n >= 1 or a range (lo, hi) or 'lo..hi' with 0 <= lo <= hi, hi >= 1"
    )


class Tile:
    """A shape to place on a board.

    ``shape`` is a :class:`~excover.tiling.Pattern` (or any pattern of another grid, or
    ASCII art for a square pattern). ``multiplicity`` is ``"one"``, ``"maybe"``, ``"any"``,
    a count, or a range ``(lo, hi)`` also written ``"lo..hi"``. ``symmetry`` names the
    isometries the tile may be moved by: ``"none"`` (translations only), ``"rotations"``,
    ``"all"`` (rotations and reflections), a subgroup name of D4 on the square grid, or a
    :class:`IsometryGroup`.
    """

    def __init__(
        self,
        shape: Shape | str,
        name: str | None = None,
        multiplicity: Multiplicity = "one",
        symmetry: str | IsometryGroup = "all",
    ) -> None:
        if isinstance(shape, str):
            from excover.tiling.pattern import Pattern

            shape = Pattern.from_ascii(shape, source=f"tile {name!r}")
        if not isinstance(shape, Shape):
            raise UsageError(f"the shape of tile {name!r} must be a pattern, not {shape!r}")
        self.shape = shape
        self.name = name
        label = name if name is not None else "(unnamed)"
        self.grid: Grid = shape.grid
        coords = shape.coords()
        if len(coords) == 0:
            raise UsageError(f"tile {label!r} has no cells")
        self.lo, self.hi = bounds(multiplicity, label)
        self.multiplicity = multiplicity
        try:
            self.group = self.grid.group(symmetry)
        except UsageError as error:
            raise UsageError(f"tile {label!r}: {error}") from None
        self.cells: Coords = self.grid.normalize(coords)
        orientations: list[Coords] = []
        isometries: list[Isometry] = []
        seen: set[bytes] = set()
        for g in self.group:
            image = self.grid.normalize(g.apply(self.cells))
            key = image.tobytes()
            if key not in seen:
                seen.add(key)
                orientations.append(image)
                isometries.append(g)
        self.orientations = orientations
        self.isometries = isometries

    @property
    def size(self) -> int:
        """The number of cells of the tile."""
        return len(self.cells)

    def orientation_keys(self) -> frozenset[bytes]:
        """The orientations as hashable keys: equal for tiles placed in the same ways."""
        return frozenset(o.tobytes() for o in self.orientations)

    def _repr_svg_(self) -> str:
        from excover.tiling.render import pattern_svg

        return pattern_svg(self.shape)

    def __repr__(self) -> str:
        return (
            f"Tile({self.name!r}, {self.size} cells, multiplicity={self.multiplicity!r}, "
            f"symmetry={self.group.name!r}, {len(self.orientations)} orientations)"
        )
