"""Type stub of the compiled dancing-cells engine (``_cells.pyx``)."""

from typing import Literal

from typing_extensions import disjoint_base

from excover.engines._driver import _Driver

__all__ = ["CellEngine"]

@disjoint_base
class CellEngine(_Driver):
    """One dancing-cells (sparse-set) search over a problem given as flat arrays."""

    @property
    def algorithm(self) -> Literal["X", "C"]: ...
