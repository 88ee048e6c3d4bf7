"""The search tree each engine walks, for the probes that estimate it.

On problems without multiplicities (Algorithms X and C) every engine makes the choices of
:class:`~excover.parallel.tree.State`: same nodes, same branches. With multiplicities
(Algorithm M) the engines branch on an item the same way (one branch per option that may
be the next to cover it, in input order, and a last *null* branch that leaves the item
when its lower bound is met: Knuth's degree ``θ = options + 1 - max(need, 0)``), but
they choose the item differently:

- dancing links (``dlx``) follows DLX3: the smallest ``θ``, then the smaller
  ``min(slack, room)``, then the longer list, then the leftmost item. An item whose lower
  bound is met and which has no option left still has ``θ = 1``: its null branch is a node
  of the tree. That is :class:`State`.
- the bit-parallel engine (``bits``) takes the smallest ``θ``, ties to the leftmost, and
  treats an item that needs nothing more and has no option left as done: no node. That
  is :class:`BitsState`.

The two trees have the same solutions but not the same nodes (BurrTools'
SolidSixPieceBurrs: 2,133,448 nodes by dancing links, 1,858,354 by the bit-parallel
engine), so an estimate of the nodes walks the tree of the engine that will search.
"""

from __future__ import annotations

from excover.parallel.tree import COVERED, Layout, State

__all__ = ["BitsState", "root"]


class BitsState(State):
    """A node of the bit-parallel engine's tree: :class:`State` with that engine's item
    choice under multiplicities (see the module text); the same as :class:`State`
    without them."""

    __slots__ = ()

    def _key(self, item: int) -> tuple[int, ...]:
        """``(θ,)`` of ``item``, or ``(COVERED,)`` when it is done (it needs nothing more
        and has no option left), which ranks it after every item to branch on."""
        if not self.layout.multiplicities:
            return (self.count[item],)
        need = max(self.need[item], 0)
        count = self.count[item]
        if need == 0 and count == 0:
            return (COVERED,)
        return (count + 1 - need,)

    def _ranked(self, key: tuple[int, ...], item: int) -> int | None:
        """``item``, unless it tops the heap done (every item still open is done: a
        solution)."""
        if not self.layout.multiplicities:
            return super()._ranked(key, item)
        return None if key[0] >= COVERED else item

    def _scan(self) -> int | None:
        """The engine's choice by a look at every item, as the engine scans them."""
        if not self.layout.multiplicities:
            return super()._scan()
        need, count, room, dropped = self.need, self.count, self.room, self.dropped
        best: int | None = None
        least = COVERED
        for item in range(self.layout.n_primary):
            if room[item] <= 0 or item in dropped:
                continue
            theta = count[item] + 1 - max(need[item], 0)
            if theta == 1 and need[item] <= 0:
                continue  # done: nothing needed, no option left
            if theta < least:
                best, least = item, theta
                if theta <= 0:
                    break
        return best


def root(layout: Layout, engine: str) -> State:
    """The root of the tree ``engine`` (``"dlx"``, ``"bits"`` or ``"cells"``) walks on
    ``layout``'s problem."""
    return BitsState(layout) if engine == "bits" else State(layout)
