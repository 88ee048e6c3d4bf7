from array import array

def run(
    grids: bytes | bytearray,
    limit: int,
    out: bytearray,
    counts: array[int],
    guesses: array[int] | None = None,
) -> None: ...
