from array import array
from typing import Any

def run(
    grids: bytes | bytearray,
    limit: int,
    out: bytearray,
    counts: array[int],
    guesses: array[int] | None = None,
) -> None: ...

KERNELS: tuple[str, ...]

def supported() -> tuple[str, ...]: ...
def best() -> str: ...
def kernel() -> str: ...
def select(name: str) -> None: ...
def count_plain_lines(data: bytes) -> int: ...
def run_lines(
    data: bytes, at: int, most: int, classify: bool
) -> tuple[bytes, int, int, list[tuple[int, str]]]: ...
def run_texts(
    texts: list[str],
    limit: int,
    solutions: bool,
    names: tuple[Any, ...] | None = None,
) -> tuple[list[Any], list[str | None] | None] | None: ...
