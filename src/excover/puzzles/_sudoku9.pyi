from array import array

def run(
    grids: bytes | bytearray,
    limit: int,
    out: bytearray,
    counts: array[int],
    guesses: array[int] | None = None,
) -> None: ...
def run_texts(
    texts: list[str], limit: int, solutions: bool
) -> tuple[list[int], list[str | None] | None] | None: ...
