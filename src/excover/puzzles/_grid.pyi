"""Type stub of the compiled grid-puzzle solver (``_grid.pyx``)."""

from array import array
from collections.abc import Sequence

__all__ = ["GridSolver"]

class GridSolver:
    """The rules of a grid puzzle (cells, values, units), searched once per puzzle."""

    def __init__(
        self, n_cells: int, n_values: int, units: Sequence[Sequence[int]], locked: bool = True
    ) -> None: ...
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
