"""Type stub of the compiled dissection count (``_dissections.pyx``)."""

from collections.abc import Callable

__all__ = ["MAX_SIZE", "MAX_WIDTH", "count_dissections"]

MAX_WIDTH: int
MAX_SIZE: int

def count_dissections(
    height: int,
    width: int,
    size: int,
    max_bytes: int = 0,
    tick: Callable[[int, int, int], None] | None = None,
) -> tuple[int, int]: ...
