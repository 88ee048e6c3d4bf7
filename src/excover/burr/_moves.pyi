"""Type stub of the disassembler's compiled search (``_moves.pyx``).

Every class is a ``cdef class`` marked ``@cython.final`` (hence ``@final``); each takes
its arguments in ``__cinit__``, which runs in ``__new__`` (hence ``__new__`` here: at
run time ``__init__`` is ``object``'s). The module has no ``__all__``.
"""

from collections.abc import Callable, Sequence
from typing import Protocol, Self, TypeVar, final

#: A voxel or a translation, ``(x, y, z)`` (a name of the stub only).
_Vector = tuple[int, int, int]
#: The voxels of a piece, as any sequence (a list's elements are of one type).
_Voxels = TypeVar("_Voxels", bound=Sequence[_Vector])

class _Budget(Protocol):
    """The limits of a run (:class:`excover.burr.search.DisassemblyBudget`): read when it starts,
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

@final
class Meter:
    """The limits of one run as the compiled search checks them (no Python methods)."""

class _Piece(Protocol):
    @property
    def voxels(self) -> Sequence[_Vector]: ...
    @property
    def weight(self) -> int: ...

#: The axes of each grid (BurrTools' order), as voxel vectors.
AXES: dict[int, tuple[_Vector, ...]]

@final
class Shape:
    """A piece's voxels moved to start near 0, as lines along each axis and as a bitmap
    (made by :class:`Geometry`; no Python methods)."""

    def __new__(cls, voxels: Sequence[Sequence[int]]) -> Self: ...

@final
class Pair:
    """Cutler's gaps of one shape towards another (made by :class:`Geometry`; no
    Python methods)."""

@final
class Geometry:
    """The shapes and pair tables of a problem's pieces, shared by its assemblies."""

    def __new__(cls, grid: int = 0) -> Self: ...
    @property
    def grid(self) -> int: ...

@final
class Part:
    """The pieces of one part (their voxels where the assembly puts them)."""

    # ``pieces`` must be a list (a typed argument of ``__cinit__``), of any sequences
    def __new__(cls, geometry: Geometry, pieces: list[_Voxels]) -> Self: ...
    @property
    def n(self) -> int: ...
    def gaps(self, i: int, j: int, ox: int, oy: int, oz: int) -> tuple[int, ...]:
        """How far piece ``i`` slides along each axis before it meets ``j``, ``j``
        translated by ``(ox, oy, oz)`` from ``i`` (a huge number: never)."""

@final
class Search:
    """The breadth-first search of some pieces of a part (``pieces``, their indices
    there; all by default) from one configuration, ``start`` (required with a part;
    ``Search(None)`` is an empty search, a spare set of buffers)."""

    expanded: int
    def __new__(
        cls,
        part: Part | None,
        start: Sequence[_Vector] | None = None,
        onwards: bool = False,
        pieces: Sequence[int] | None = None,
    ) -> Self: ...
    def next(self, budget: _Budget) -> tuple[int, int] | None:
        """The next separation, ``(mask, direction)``; None when none is left (the
        search stops within ``budget``, and on Ctrl-C)."""
    def path(self) -> list[tuple[int, int, int]]:
        """The moves ``(mask, direction, step)`` to the last separation handed out."""
    def depth(self) -> int:
        """The number of moves of :meth:`path`."""
    def parts(self, mask: int) -> tuple[tuple[_Vector, ...], tuple[_Vector, ...]]:
        """The translations of the pieces outside ``mask`` and in it, there, each
        part's first piece at the origin."""

#: The compiled tree: (the words of the tree, whether a separation of it is not its
#: search's first, the sets left together as groups).
_Found = tuple[bytes, bool, tuple[int, ...]]

@final
class Stages:
    """The stage-by-stage disassembly of the parts of one assembly (``Stages()``, no
    assembly: a spare set of buffers)."""

    def __new__(
        cls,
        whole: Part | None = None,
        weights: Sequence[int] | None = None,
        grouping: Callable[[int], int] | None = None,
        complete: bool = True,
    ) -> Self: ...
    def run(self, budget: _Budget) -> _Found | None:
        """The whole assembly taken apart; None when it does not come apart."""
    def separate(
        self, pieces: Sequence[int], start: Sequence[_Vector], budget: _Budget
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

@final
class Batch:
    """The stage-by-stage disassembly of many assemblies of one geometry, one after
    another, on one set of buffers."""

    def __new__(cls, geometry: Geometry, complete: bool = True) -> Self: ...
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
