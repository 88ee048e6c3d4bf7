"""Type stub of the compiled dissection count (``_dissections.pyx``)."""

from collections.abc import Callable

__all__ = ["KEY_BITS", "MAX_SIZE", "MAX_WIDTH", "count_dissections", "key_bits"]

MAX_WIDTH: int
MAX_SIZE: int
KEY_BITS: int

def key_bits(width: int, size: int) -> int: ...

def count_dissections(
    height: int,
    width: int,
    size: int,
    max_bytes: int = 0,
    tick: Callable[[int, int, int], None] | None = None,
) -> tuple[int, int]: ...
