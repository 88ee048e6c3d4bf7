"""The registry of grids: every grid excover knows, by name, and the lists of them.

A grid enters it once, when it is made (:func:`register`, which
:mod:`excover.tiling.grids` calls for its eight); every list of grids anywhere is read from
here by trait (:func:`grid_names`), never written by hand, so that a grid added here is
drawn, meshed and offered wherever its traits say it can be. This module imports no other
of the tiling package, so that the modules below :mod:`excover.tiling.grids` (the cells'
drawings and solids) can read it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from excover.errors import UsageError

if TYPE_CHECKING:
    from excover.tiling.grids import Grid

__all__ = ["GRIDS", "by_burrtools", "grid_names", "register", "unregister"]

#: Every grid by its name, in the order they were registered.
GRIDS: dict[str, Grid] = {}


def register(grid: Grid) -> Grid:
    """Enter ``grid`` in the registry (a UsageError when its name or BurrTools' number is
    taken); returns it."""
    if grid.name in GRIDS:
        raise UsageError(f"a grid named {grid.name!r} is registered already")
    number = grid.traits.burrtools
    if number is not None and any(g.traits.burrtools == number for g in GRIDS.values()):
        raise UsageError(f"BurrTools' grid {number} is registered already")
    GRIDS[grid.name] = grid
    return grid


def unregister(name: str) -> None:
    """Take the grid called ``name`` out of the registry (a grid made for a test)."""
    GRIDS.pop(name, None)


def grid_names(**traits: Any) -> list[str]:
    """The names of the registered grids whose traits have the values given, in the
    registry's order: ``grid_names(solid=True)``, ``grid_names(layered=True)``. A trait
    named ``solid`` is true when the grid's cells are solids (its ``traits.solid`` is a
    :class:`~excover.tiling.geometry.Solid`), false when they are polygons."""

    def matches(grid: Grid, name: str, wanted: Any) -> bool:
        value = getattr(grid.traits, name)
        if name == "solid":
            return (value is not None) == bool(wanted)
        return bool(value == wanted)

    return [
        grid.name
        for grid in GRIDS.values()
        if all(matches(grid, name, wanted) for name, wanted in traits.items())
    ]


def by_burrtools(number: int) -> Grid:
    """The grid that BurrTools numbers ``number`` (``<gridType type="N"/>``)."""
    for grid in GRIDS.values():
        if grid.traits.burrtools == number:
            return grid
    known = ", ".join(
        f"{g.traits.burrtools} ({g.name})" for g in GRIDS.values() if g.traits.burrtools is not None
    )
    raise UsageError(f"no grid is BurrTools' grid {number}; known: {known}")
