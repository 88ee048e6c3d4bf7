"""Tables past the huge-page threshold (``src/excover/_tables.h``): a table of 4 MiB or
more is a mapping of its own, and one that grows moves its pages to a larger mapping
instead of copying them. The node store and the top-down construction must keep every
entry across both moves (from malloc's memory into a mapping, and from a mapping into a
larger one)."""

from __future__ import annotations

from builders import queens

from excover import Family
from excover.zdd import Manager, dxz

#: The node arrays hold 4 bytes a node: past this many nodes each is a mapping.
MAPPED_NODES = 1 << 20


def test_the_node_store_keeps_its_nodes_as_its_arrays_move() -> None:
    """Two chains of nodes, past the count at which the store's arrays (4 bytes a node)
    leave malloc's memory for mappings and then grow again by moving: every set is still
    there, the operations between them still agree with the sets themselves."""
    n = 720_000
    manager = Manager()
    evens = Family.from_sets([range(0, n, 2)], manager)
    both = Family.from_sets([range(n), range(1, n, 2)], manager)
    assert both.size + evens.size > MAPPED_NODES
    assert both.count() == 2
    assert set(map(frozenset, both | evens)) == {
        frozenset(range(n)),
        frozenset(range(1, n, 2)),
        frozenset(range(0, n, 2)),
    }
    assert (both & evens).count() == 0
    assert (both - evens) == both


def test_the_top_down_tables_keep_their_entries_as_they_move() -> None:
    """queens(13) top-down makes 1.4 million states: its table of children (8 bytes a
    state) moves into a mapping and grows twice there. The family must be the one ddqueens
    builds (204,781 nodes) with the OEIS count of 13-queens solutions (A000170: 73,712)."""
    family = dxz.topdown(queens(13), Manager())
    assert family.size == 204_781
    assert family.count() == 73_712
