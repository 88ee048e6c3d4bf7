"""Type stub of the compiled rectangle count (``_rectangles.pyx``)."""

from collections.abc import Callable, Sequence

__all__ = ["MAX_CELLS", "MAX_KEYS", "MAX_SIDE", "count_states"]

MAX_SIDE: int
MAX_KEYS: int
MAX_CELLS: int

def count_states(
    rows: int,
    cols: int,
    shapes: Sequence[tuple[int, int, int]],
    n_keys: int,
    corners: bool,
    turns: bool = False,
    tick: Callable[[int, int, int], None] | None = None,
    max_bytes: int = 0,
    packed: bool = True,
    target: int = -1,
    part: int = 0,
    parts: int = 1,
) -> tuple[int, int]: ...
