"""Type stub of the compiled dissection count (``_dissections.pyx``)."""

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import IO

from excover.tiling.resume import Resume

__all__ = [
    "HEADER_WORDS",
    "KEY_BITS",
    "MAGIC",
    "MAX_CELLS",
    "MAX_SIZE",
    "MAX_WIDTH",
    "checksum",
    "count_dissections",
    "key_bits",
]

MAX_WIDTH: int
MAX_SIZE: int
KEY_BITS: int
MAX_CELLS: int
MAGIC: bytes
HEADER_WORDS: int

def key_bits(width: int, size: int) -> int: ...
def checksum(words: Sequence[int], records: Iterable[tuple[int, int, int]]) -> int: ...
def count_dissections(
    height: int,
    width: int,
    size: int,
    max_bytes: int = 0,
    tick: object = None,
    resume: Resume | None = None,
    save: Callable[[], AbstractContextManager[IO[bytes]]] | None = None,
    every: float = 0.0,
) -> tuple[int, int]: ...
