from collections.abc import Callable

def count(
    n_items: int,
    starts: memoryview,
    masks: memoryview,
    threads: int = 1,
    tick: Callable[[int, int], None] | None = None,
    shards: int = 0,
    words: int = 2,
) -> int: ...

OPENMP: bool
