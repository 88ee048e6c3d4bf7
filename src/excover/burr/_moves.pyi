"""Type stub of the disassembler's compiled search (``_moves.pyx``)."""

from collections.abc import Sequence
from typing import Protocol

__all__ = ["AXES", "Geometry", "Part", "Search"]

Vector = tuple[int, int, int]

class _Budget(Protocol):
    def spend(self, states: int) -> None: ...

#: The axes of each grid (BurrTools' order), as voxel vectors.
AXES: dict[int, tuple[Vector, ...]]

class Geometry:
    """The shapes and pair tables of a problem's pieces, shared by its assemblies."""

    grid: int
    def __init__(self, grid: int = 0) -> None: ...

class Part:
    """The pieces of one part (their voxels where the assembly puts them)."""

    def __init__(self, geometry: Geometry, pieces: Sequence[Sequence[Vector]]) -> None: ...
    @property
    def n(self) -> int: ...
    def subset(self, indices: Sequence[int]) -> Part:
        """The part of some of these pieces (their indices, in order), sharing tables."""
    def gaps(self, i: int, j: int, ox: int, oy: int, oz: int) -> tuple[int, ...]:
        """How far piece ``i`` slides along each axis before it meets ``j``, ``j``
        translated by ``(ox, oy, oz)`` from ``i`` (a huge number: never)."""

class Search:
    """The breadth-first search of one part from one configuration."""

    expanded: int
    def __init__(self, part: Part, start: Sequence[Vector], onwards: bool = False) -> None: ...
    def next(self, budget: _Budget) -> tuple[int, int] | None:
        """The next separation, ``(mask, direction)``; None when none is left."""
    def path(self) -> list[tuple[int, int, int]]:
        """The moves ``(mask, direction, step)`` to the last separation handed out."""
    def depth(self) -> int:
        """The number of moves of :meth:`path`."""
    def parts(self, mask: int) -> tuple[tuple[Vector, ...], tuple[Vector, ...]]:
        """The translations of the pieces outside ``mask`` and in it, there, each
        part's first piece at the origin."""
