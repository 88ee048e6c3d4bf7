"""Type stub of the component-decomposition kernels (see _components.pyx)."""

from array import array
from typing import Self

from typing_extensions import disjoint_base

@disjoint_base
class Graph:
    """The options and items of one problem, with the scratch space of the kernels (a
    ``cdef class``: it takes them in ``__cinit__``, which runs in ``__new__``)."""

    @property
    def n_options(self) -> int: ...
    @property
    def n_primary(self) -> int: ...
    @property
    def n_items(self) -> int: ...
    def __new__(
        cls,
        n_primary: int,
        n_items: int,
        option_start: array[int],
        node_item: array[int],
        node_color: array[int],
    ) -> Self: ...
    def primary_counts(self) -> array[int]: ...
    def residual(self, live: array[int], chosen: int) -> array[int]: ...
    def split(self, live: array[int]) -> tuple[int, list[tuple[array[int], int]]]: ...
    def mrv(self, live: array[int]) -> tuple[int, array[int]]: ...
    def subproblem(
        self, live: array[int]
    ) -> tuple[int, int, array[int], array[int], array[int]]: ...
