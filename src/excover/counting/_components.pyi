"""Type stub of the component-decomposition kernels (see _components.pyx)."""

from array import array

class Graph:
    n_options: int
    n_primary: int
    n_items: int
    def __init__(
        self,
        n_primary: int,
        n_items: int,
        option_start: array[int],
        node_item: array[int],
        node_color: array[int],
    ) -> None: ...
    def primary_counts(self) -> array[int]: ...
    def residual(self, live: array[int], chosen: int) -> array[int]: ...
    def split(self, live: array[int]) -> tuple[int, list[tuple[array[int], int]]]: ...
    def mrv(self, live: array[int]) -> tuple[int, array[int]]: ...
    def subproblem(
        self, live: array[int]
    ) -> tuple[int, int, array[int], array[int], array[int]]: ...
