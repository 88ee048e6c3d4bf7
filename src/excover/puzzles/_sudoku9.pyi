from array import array
from typing import Any

def run(
    grids: bytes | bytearray,
    limit: int,
    out: bytearray,
    counts: array[int],
    guesses: array[int] | None = None,
) -> None: ...
def count_plain_lines(lines: list[str]) -> int: ...
def run_texts(
    texts: list[str],
    limit: int,
    solutions: bool,
    names: tuple[Any, ...] | None = None,
    skip: bool = False,
) -> tuple[list[Any], list[str | None] | None] | None: ...
