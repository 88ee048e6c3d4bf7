"""Type stub of the compiled top-down construction (see _topdown.pyx for its states)."""

from collections.abc import Callable
from typing import Self, final

from excover.problem import EngineInput
from excover.zdd._store import Store

MAX_WORDS: int
MAX_PRIMARY: int

@final
class TopDown:
    """The tables of one construction; :func:`build` runs it (a ``cdef class`` marked
    ``@cython.final``: it takes its problem in ``__cinit__``, which runs in ``__new__``)."""

    def __new__(cls, arrays: EngineInput, max_ids: int) -> Self: ...
    @property
    def states(self) -> int:
        """Nodes of the diagram before reduction."""
    @property
    def held_bytes(self) -> int:
        """The bytes of the tables, counted against the store's memory bound."""

def build(
    store: Store, arrays: EngineInput, tick: Callable[[int, int, int], None] | None = None
) -> tuple[int, int]: ...
