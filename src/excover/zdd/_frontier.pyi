from array import array
from collections.abc import Callable

def count(
    n_items: int,
    starts: memoryview,
    masks: memoryview,
    threads: int = 1,
    tick: Callable[[int, int], None] | None = None,
    buckets: int = 0,
    words: int = 1,
    group: int = 0,
    fine: bool = False,
) -> int: ...

OPENMP: bool

def shape(
    n_items: int, option_start: memoryview, node_item: memoryview, pair_budget: int
) -> tuple[int, int, int, int]: ...
def layout(
    n_items: int, option_start: memoryview, node_item: memoryview, position: memoryview
) -> tuple[array[int], array[int]] | None: ...
