"""Type stub of the compiled DXZ construction (see _dxz.pyx for the links and the memo)."""

from array import array
from typing import Self

from typing_extensions import disjoint_base

from excover.problem import EngineInput
from excover.zdd._store import Store

@disjoint_base
class Dxz:
    """A DXZ search made by :func:`search`, run by :func:`run` or :func:`next_leaf` (a
    ``cdef class``: it takes its problem in ``__cinit__``, which runs in ``__new__``)."""

    started: bool
    resumable: bool
    nodes: int
    hits: int
    n_memo: int
    budget: int  # the search nodes :func:`run` may enter in all (negative: no limit)
    leaves: bool  # stop at each leaf holding solutions (:func:`next_leaf`)
    leaf: int  # the node of the leaf it stopped at
    @property
    def compact(self) -> bool:
        """One-word memo keys (see the class notes in _dxz.pyx)."""
    @property
    def held_bytes(self) -> int:
        """The bytes of its tables, counted against its store's memory bound."""
    def __new__(cls, arrays: EngineInput) -> Self: ...
    def set_bounds(self, lo: array[int], hi: array[int]) -> None:
        """Give primary item ``j`` (0-based) the multiplicity ``lo[j]..hi[j]``; only
        before the search starts."""
    def path(self) -> list[int]: ...
    def progress(self) -> float | None: ...
    def places(self) -> list[tuple[int, int]] | float | None: ...
    def child_sizes(
        self, prefix: tuple[int, ...], levels: int, samples: int, seed: int
    ) -> tuple[dict[tuple[int, ...], object] | None, int]: ...

def search(store: Store, arrays: EngineInput) -> Dxz: ...
def run(store: Store, d: Dxz, budget: int = -1) -> tuple[int, int, int, int]: ...
def next_leaf(store: Store, d: Dxz) -> int: ...
