"""Type stub of the preprocessing kernel (see _blocked.pyx)."""

from array import array

def remove_blocked(
    n_primary: int,
    n_items: int,
    option_start: array[int],
    node_item: array[int],
    node_color: array[int],
    live: bytearray,
    budget: int,
) -> tuple[int, int, int, bool]: ...
