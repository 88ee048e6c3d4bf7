"""Type stub of the compiled DXZ construction (see _dxz.pyx for the links and the memo)."""

from array import array

from excover.zdd._store import Store

class Dxz:
    """A DXZ search made by :func:`search`, run by :func:`run` or :func:`next_leaf`."""

    started: bool
    resumable: bool
    compact: bool  # one-word memo keys (see the class notes in _dxz.pyx)
    nodes: int
    hits: int
    n_memo: int
    held_bytes: int  # the bytes of its tables, counted against its store's memory bound
    def __init__(
        self,
        n_primary: int,
        n_items: int,
        option_start: array[int],
        node_item: array[int],
        node_color: array[int],
    ) -> None: ...
    def path(self) -> list[int]: ...
    def progress(self) -> float | None: ...
    def places(self) -> list[tuple[int, int]] | float | None: ...
    def child_sizes(
        self, prefix: tuple[int, ...], levels: int, samples: int, seed: int
    ) -> tuple[dict[tuple[int, ...], object] | None, int]: ...

def search(
    store: Store,
    n_primary: int,
    n_items: int,
    option_start: array[int],
    node_item: array[int],
    node_color: array[int],
    bounds: tuple[array[int], array[int]] | None = None,
) -> Dxz: ...
def run(store: Store, d: Dxz, budget: int = -1) -> tuple[int, int, int, int]: ...
def next_leaf(store: Store, d: Dxz) -> int: ...
