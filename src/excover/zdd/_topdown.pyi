"""Type stub of the compiled top-down construction (see _topdown.pyx for its states)."""

from array import array
from collections.abc import Callable

from excover.zdd._store import Store

MAX_WORDS: int
MAX_PRIMARY: int

def build(
    store: Store,
    n_primary: int,
    n_items: int,
    option_start: array[int],
    node_item: array[int],
    tick: Callable[[int, int, int], None] | None = None,
) -> tuple[int, int]: ...
