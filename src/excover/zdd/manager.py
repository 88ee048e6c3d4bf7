"""The manager of a ZDD node store: its sizes, its limit, and the default instance.

Every :class:`~excover.Family` belongs to one :class:`Manager`, which owns the compiled
node store (``excover.zdd._store``). Families of one manager share their nodes, so equal
families are the same node and compare in O(1); families of two managers cannot be mixed.
Most programs never create a manager: the families they build live in the default one,
whose sizes :func:`configure` sets.
"""

from __future__ import annotations

from excover.errors import UsageError
from excover.zdd._store import Store

__all__ = ["DEFAULT_CACHE", "DEFAULT_MAX_NODES", "DEFAULT_NODES", "Manager", "configure", "default"]

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
    """A ZDD node store: ``nodes`` initial nodes, a ``cache`` of operation results, and at
    most ``max_nodes`` nodes (beyond them an operation raises
    :class:`~excover.ResourceLimitError` and the manager stays usable).

    Dead nodes (reachable from no live :class:`~excover.Family`) are reclaimed
    automatically when the store fills up; :meth:`collect` reclaims them now.
    """

    def __init__(
        self,
        nodes: int = DEFAULT_NODES,
        cache: int = DEFAULT_CACHE,
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> None:
        _positive("nodes", nodes)
        _positive("cache", cache)
        _positive("max_nodes", max_nodes)
        if max_nodes >= 2**31 - 16:
            raise UsageError(f"max_nodes must be below 2**31 - 16, not {max_nodes}")
        self.store = Store(min(nodes, max_nodes), cache, max_nodes)

    @property
    def max_nodes(self) -> int:
        """The node limit; may be changed at any time."""
        return int(self.store.max_nodes)

    @max_nodes.setter
    def max_nodes(self, value: int) -> None:
        self.store.max_nodes = _positive("max_nodes", value)

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


def default() -> Manager:
    """The manager of the families built without an explicit one (created on first use)."""
    global _default
    if _default is None:
        _default = Manager()
    return _default


def configure(
    nodes: int = DEFAULT_NODES, cache: int = DEFAULT_CACHE, max_nodes: int = DEFAULT_MAX_NODES
) -> Manager:
    """Replace the default manager by a new one with these sizes and return it.

    Families already built keep their own manager; new ones go to the new default.
    """
    global _default
    _default = Manager(nodes, cache, max_nodes)
    return _default
