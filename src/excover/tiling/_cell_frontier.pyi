"""Type stub of the compiled cell frontier count (``_cell_frontier.pyx``)."""

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import IO

from excover.tiling.resume import Resume

__all__ = [
    "HEADER_WORDS",
    "MAGIC",
    "MAX_EDGES",
    "MAX_KEY_WORDS",
    "MAX_LIMBS",
    "MAX_SIZE",
    "MAX_WIDTH",
    "checksum",
    "count_program",
    "key_bits",
]

MAX_WIDTH: int
MAX_KEY_WORDS: int
MAX_LIMBS: int
MAX_EDGES: int
MAX_SIZE: int
MAGIC: bytes
HEADER_WORDS: int

def key_bits(width: int, order: int, size: int, mode: int = 0, pieces: int = 0) -> int: ...
def checksum(words: Sequence[int], records: Iterable[Sequence[int]]) -> int: ...
def count_program(
    ops: Sequence[tuple[int, int, int, Sequence[tuple[int, int, int]], Sequence[int], int]],
    width: int,
    table: Sequence[Sequence[int]],
    size: int = 0,
    mode: int = 0,
    pieces: int = 0,
    area: int = 0,
    limbs: int = 1,
    max_bytes: int = 0,
    tick: Callable[[int, int, int], None] | None = None,
    digest: int = 0,
    resume: Resume | None = None,
    save: Callable[[], AbstractContextManager[IO[bytes]]] | None = None,
    every: float = 0.0,
) -> tuple[int, int]: ...
