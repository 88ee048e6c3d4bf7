"""Type stub of the compiled grid-puzzle solver (``_grid.pyx``)."""

from array import array
from collections.abc import Sequence

__all__ = ["GridCover"]

class GridCover:
    """The fixed cover of a grid puzzle, searched once per puzzle of a batch."""

    def __init__(
        self,
        n_cells: int,
        n_values: int,
        n_items: int,
        option_start: Sequence[int],
        node_item: Sequence[int],
    ) -> None: ...
    def run(self, grids: bytes | bytearray, limit: int, out: bytearray, counts: array[int]) -> None:
        """Count (up to ``limit``) and solve each puzzle of ``grids``."""
