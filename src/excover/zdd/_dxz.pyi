"""Type stub of the compiled DXZ construction (see _dxz.pyx for the links and the memo)."""

from array import array

from excover.zdd._store import Store

class Dxz:
    """A DXZ search made by :func:`search`, run by :func:`run`."""

    started: bool
    resumable: bool
    compact: bool  # one-word memo keys (see the class notes in _dxz.pyx)

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
