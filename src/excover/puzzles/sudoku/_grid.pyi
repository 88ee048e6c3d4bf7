"""Type stub of the compiled grid-puzzle solver (``_grid.pyx``; the module has no
``__all__``)."""

from array import array
from collections.abc import Sequence
from typing import Self, final

@final
class GridSolver:
    """The rules of a grid puzzle (cells, values, units), searched once per puzzle (a
    ``cdef class`` marked ``@cython.final``; it takes them in ``__cinit__``, which runs
    in ``__new__``)."""

    def __new__(
        cls, n_cells: int, n_values: int, units: Sequence[Sequence[int]], locked: bool = True
    ) -> Self: ...
    def run(
        self,
        grids: bytes | bytearray,
        limit: int,
        out: bytearray,
        counts: array[int],
        branchings: array[int] | None = None,
        seed: int = 0,
    ) -> None:
        """Count (up to ``limit``) and solve each puzzle of ``grids``."""
