"""Type stub of the disassembler's compiled search (``_moves.pyx``)."""

from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = [
    "AXES",
    "Batch",
    "Geometry",
    "Meter",
    "Part",
    "Search",
    "Stages",
    "held",
    "stage_by_stage",
    "staged",
]

Vector = tuple[int, int, int]

class _Budget(Protocol):
    """The limits of a run (:class:`excover.burr.search.Budget`): read when it starts,
    told of the configurations found (``spend`` raises past a limit)."""

    @property
    def deadline(self) -> float | None: ...
    @property
    def max_states(self) -> int | None: ...
    @property
    def states(self) -> int: ...
    @property
    def max_memory(self) -> int | None: ...
    def spend(self, states: int) -> None: ...

def held() -> int:
    """The bytes the disassembler's growing tables hold in this process."""

class Meter:
    """The limits of one run as the compiled search checks them (no Python methods)."""

class _Piece(Protocol):
    @property
    def voxels(self) -> Sequence[Vector]: ...
    @property
    def weight(self) -> int: ...

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
    def gaps(self, i: int, j: int, ox: int, oy: int, oz: int) -> tuple[int, ...]:
        """How far piece ``i`` slides along each axis before it meets ``j``, ``j``
        translated by ``(ox, oy, oz)`` from ``i`` (a huge number: never)."""

class Search:
    """The breadth-first search of some pieces of a part (``pieces``, their indices
    there; all by default) from one configuration."""

    expanded: int
    def __init__(
        self,
        part: Part,
        start: Sequence[Vector],
        onwards: bool = False,
        pieces: Sequence[int] | None = None,
    ) -> None: ...
    def next(self, budget: _Budget) -> tuple[int, int] | None:
        """The next separation, ``(mask, direction)``; None when none is left (the
        search stops within ``budget``, and on Ctrl-C)."""
    def path(self) -> list[tuple[int, int, int]]:
        """The moves ``(mask, direction, step)`` to the last separation handed out."""
    def depth(self) -> int:
        """The number of moves of :meth:`path`."""
    def parts(self, mask: int) -> tuple[tuple[Vector, ...], tuple[Vector, ...]]:
        """The translations of the pieces outside ``mask`` and in it, there, each
        part's first piece at the origin."""

#: The compiled tree: (the words of the tree, whether a separation of it is not its
#: search's first, the sets left together as groups).
_Found = tuple[bytes, bool, tuple[int, ...]]

class Stages:
    """The stage-by-stage disassembly of the parts of one assembly."""

    def __init__(
        self,
        whole: Part,
        weights: Sequence[int] | None,
        grouping: Callable[[int], int] | None,
        complete: bool = True,
    ) -> None: ...
    def run(self, budget: _Budget) -> _Found | None:
        """The whole assembly taken apart; None when it does not come apart."""
    def separate(
        self, pieces: Sequence[int], start: Sequence[Vector], budget: _Budget
    ) -> tuple[bytes, tuple[int, ...]] | None:
        """A part taken apart from ``start``: its tree and its groups, or None."""

def stage_by_stage(
    whole: Part,
    weights: Sequence[int] | None,
    grouping: Callable[[int], int] | None,
    complete: bool,
    budget: _Budget,
) -> _Found | None:
    """:meth:`Stages.run` of ``whole``, on spare buffers."""

class Batch:
    """The stage-by-stage disassembly of many assemblies of one geometry, one after
    another, on one set of buffers."""

    def __init__(self, geometry: Geometry, complete: bool = True) -> None: ...
    def run(
        self,
        pieces: tuple[_Piece, ...],
        grouping: Callable[[int], int] | None,
        budget: _Budget,
    ) -> _Found | None:
        """:meth:`Stages.run` of an assembly's pieces."""

def staged(
    geometry: Geometry,
    pieces: tuple[_Piece, ...],
    grouping: Callable[[int], int] | None,
    complete: bool,
    budget: _Budget,
) -> _Found | None:
    """:func:`stage_by_stage` of an assembly's pieces, their :class:`Part` made here."""
