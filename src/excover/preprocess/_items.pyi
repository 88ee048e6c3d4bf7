"""Type stub of the rules on items of preprocessing (see _items.pyx)."""

from array import array

def reduce_items(
    n_primary: int,
    n_items: int,
    n_colors: int,
    option_start: array[int],
    node_item: array[int],
    node_color: array[int],
    live: bytearray,
) -> tuple[array[int], array[int], array[int], array[int], array[int], array[int], array[int]]: ...
