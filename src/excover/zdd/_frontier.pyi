from array import array
from collections.abc import Callable, Iterable
from typing import Self, overload

from typing_extensions import disjoint_base

@disjoint_base
class Counting:
    """A frontier count that can stop between two layers and go on later (a ``cdef
    class``: it takes its problem in ``__cinit__``, which runs in ``__new__``)."""

    @property
    def n_items(self) -> int: ...
    @property
    def done(self) -> int: ...
    @property
    def bytes(self) -> int:
        """The memory the posts and tables hold now (with the threads' spare chunks)."""
    @property
    def key_bytes(self) -> int:
        """The bytes of a posted state: 4 or 8 with one-word windows, 8 per word else."""
    @property
    def empties(self) -> dict[int, int]: ...
    def __new__(
        cls,
        n_items: int,
        starts: memoryview,
        masks: memoryview,
        threads: int = 1,
        key_words: int = 1,
        buckets: int = 0,
        words: int = 1,
        group: int = 0,
        fine: bool = False,
        max_bytes: int = 0,
        short_keys: bool = True,
        fold_of: memoryview | None = None,
        fold_tables: memoryview | None = None,
        fold_bytes: int = 8,
        watch: Iterable[int] = (),
    ) -> Self: ...
    def advance(
        self,
        tick: Callable[[int, int], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> int | None: ...

OPENMP: bool

def shape(
    n_items: int, option_start: memoryview, node_item: memoryview, pair_budget: int
) -> tuple[int, int, int, int]: ...
def span_at(option_start: memoryview, node_item: memoryview, position: memoryview) -> int: ...
def layout(
    n_items: int,
    option_start: memoryview,
    node_item: memoryview,
    position: memoryview,
    words: int = 1,
) -> tuple[array[int], array[int]] | None: ...
@overload
def narrow_order(
    n_items: int, option_start: memoryview, node_item: memoryview, deadline: None = None
) -> array[int]: ...
@overload
def narrow_order(
    n_items: int, option_start: memoryview, node_item: memoryview, deadline: float | None
) -> array[int] | None: ...
def split_layout(
    n_items: int, starts: memoryview, masks: memoryview, words: int
) -> list[tuple[int, int, int, array[int], array[int]]] | None: ...
