"""The manager of a ZDD node store: its sizes, its limit, and the default instance.

Every :class:`~excover.Family` belongs to one :class:`Manager`, which owns the compiled
node store (``excover.zdd._store``). Families of one manager share their nodes, so equal
families are the same node and compare in O(1); families of two managers cannot be mixed.
Most programs never create a manager: the families they build live in the default one,
whose sizes :func:`configure` sets.

Two limits keep a store from taking the machine: ``max_nodes`` nodes and ``max_bytes``
bytes of memory (the store's tables with those of a construction working on it, the DXZ
memo or the top-down states; by default a share of the machine's memory, see
:mod:`excover.zdd.memory`). Past either, the operation is abandoned with a
:class:`~excover.ResourceLimitError` (:class:`~excover.errors.MemoryBoundError` for the
memory) and the manager stays usable. :func:`configure` sets both for the default manager
and for the private managers of counts and listings (:func:`excover.zdd.dxz.search_manager`).
"""

from __future__ import annotations

from excover.errors import UsageError
from excover.zdd import memory
from excover.zdd._store import Store

__all__ = [
    "DEFAULT_CACHE",
    "DEFAULT_MAX_NODES",
    "DEFAULT_NODES",
    "Manager",
    "configure",
    "default",
    "default_max_nodes",
]

#: Nodes allocated when a manager starts; the store doubles when it needs more.
DEFAULT_NODES = 1 << 16
#: Entries of the operation cache (rounded up to a power of two; 16 bytes each).
DEFAULT_CACHE = 1 << 18
#: The most nodes a manager may hold (16 bytes each, plus 8 for the unique table).
DEFAULT_MAX_NODES = 50_000_000


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise UsageError(f"{name} must be a positive int, not {value!r}")
    return value


class Manager:
    """A ZDD node store: ``nodes`` initial nodes, a ``cache`` of operation results, at
    most ``max_nodes`` nodes and ``max_bytes`` bytes of memory (None: the default bound of
    :func:`excover.zdd.memory.default_bound`, a share of the machine's memory; 0: no
    bound). Beyond either an operation raises :class:`~excover.ResourceLimitError` (the
    memory bound's :class:`~excover.errors.MemoryBoundError`) and the manager stays usable.

    Dead nodes (reachable from no live :class:`~excover.Family`) are reclaimed
    automatically when the store fills up; :meth:`collect` reclaims them now.
    """

    def __init__(
        self,
        nodes: int = DEFAULT_NODES,
        cache: int = DEFAULT_CACHE,
        max_nodes: int = DEFAULT_MAX_NODES,
        max_bytes: int | None = None,
    ) -> None:
        _positive("nodes", nodes)
        _positive("cache", cache)
        _positive("max_nodes", max_nodes)
        if max_nodes >= 2**31 - 16:
            raise UsageError(f"max_nodes must be below 2**31 - 16, not {max_nodes}")
        bound = memory.default_bound() if max_bytes is None else memory.checked(max_bytes)
        self.store = Store(min(nodes, max_nodes), cache, max_nodes, bound)

    @property
    def max_nodes(self) -> int:
        """The node limit; may be changed at any time."""
        return int(self.store.max_nodes)

    @max_nodes.setter
    def max_nodes(self, value: int) -> None:
        self.store.max_nodes = _positive("max_nodes", value)

    @property
    def max_bytes(self) -> int:
        """The memory bound in bytes (0: none); may be changed at any time."""
        return int(self.store.max_bytes)

    @max_bytes.setter
    def max_bytes(self, value: int) -> None:
        self.store.max_bytes = memory.checked(value)

    @property
    def memory_bytes(self) -> int:
        """The bytes counted against :attr:`max_bytes`: the store's tables, and those of a
        construction under way on it."""
        return int(self.store.memory_bytes)

    @property
    def nodes(self) -> int:
        """The nodes in use, dead ones not yet collected included (terminals too)."""
        return int(self.store.live())

    def collect(self) -> int:
        """Reclaim every node no live family reaches; return how many were freed."""
        return int(self.store.collect())

    def __repr__(self) -> str:
        return f"<excover.zdd.Manager: {self.nodes} nodes, limit {self.max_nodes}>"


_default: Manager | None = None

#: The node limit :func:`configure` set, for the private managers of counts and listings.
_max_nodes = DEFAULT_MAX_NODES


def default() -> Manager:
    """The manager of the families built without an explicit one (created on first use)."""
    global _default
    if _default is None:
        _default = Manager()
    return _default


def configure(
    nodes: int = DEFAULT_NODES,
    cache: int = DEFAULT_CACHE,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_bytes: int | None = None,
) -> Manager:
    """Replace the default manager by a new one with these sizes and return it.

    Families already built keep their own manager; new ones go to the new default. The
    limits, ``max_nodes`` and ``max_bytes`` (None: a share of the machine's memory, 0:
    no bound), are also those of every count and listing by the ZDD method that is not
    given its own (their private managers, the frontier count).
    """
    global _default, _max_nodes
    manager = Manager(nodes, cache, max_nodes, max_bytes)
    memory.set_default_bound(max_bytes)
    _default, _max_nodes = manager, max_nodes
    return manager


def default_max_nodes() -> int:
    """The node limit of the managers made for a count or a listing (:func:`configure`)."""
    return _max_nodes
