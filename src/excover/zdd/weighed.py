"""The share of a DXZ search's tree walked, the options of its top two levels weighed by
the sizes of their subtrees.

:meth:`excover.zdd._dxz.Dxz.progress` is Knuth's estimate from the current path: each
option of a level holds an equal share of the level's subtree. Where the first options
of the top levels hold far more than that (Scott's puzzle: the first of its 37 options
at the root holds 16% of the search nodes, the next 10%), the share lags far behind
the work and no time left made from it can be right (docs/performance.md, "Time left,
measured"). :class:`Share` weighs the options of the top :data:`LEVELS` levels of the
current path by the sizes of their subtrees as Knuth's probes estimate them
(:meth:`~excover.zdd._dxz.Dxz.child_sizes`, the memo aside): every node of the first
level is walked, and :data:`PROBES` random descents are made below each of its options;
each option of the second level weighs the *median* of its descents (Knuth's estimate
has a heavy tail: on Scott's puzzle a mean of 32 descents was dominated by one of them,
a median was not), each option of the first level the sum of its own. The levels below
keep equal shares.

The probes are made once, at the first reading of the share, on a copy of the search
that never runs (its own links are in the middle of its path); the share is then a fixed
function of the search's place and grows with it as Knuth's does (an option's share
holds its whole subtree's). They are made only when they are cheap beside the search's
likely length: a first round of :data:`ROUGH` descents per option of the root estimates
the tree, and the full probes go on only if their descents, at
:data:`DESCENT_NODES` search nodes each, come within :data:`PROBE_SHARE` of it
(otherwise, and with too few descents per option, equal shares as before).

The probes see the tree as if there were no memo, but DXZ's memo cuts more of it the
further the search has gone: a subproblem met late has more chance of having been solved
already (on Scott's puzzle the options of the root after the first cost 1.2 to 3.3 times
less in the count than each would alone, and the first holds 16% of the count's nodes
where alone it would hold 10%). So the share of the tree walked, ``x``, is turned into a
share of the work by :func:`memo_share`: the work of a search whose cost per node of the
tree falls as ``1 / (1 + a x)``, ``ln(1 + a x) / ln(1 + a)``, with ``a`` :data:`MEMO`
times the memo's *reuse* so far (its hits per subproblem it holds: how often a solved
subproblem came back) beyond :data:`REUSE_FLOOR`. Scott's puzzle reuses 0.12 at a tenth
of its count and 0.25 at its end; the queens 0.01-0.04, where the memo saves a few
percent of the tree while the count's nodes get dearer as its memo grows (its CPU time
per node), so that their share is left the tree's.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable

__all__ = [
    "DESCENTS",
    "DESCENT_NODES",
    "LEVELS",
    "MEMO",
    "PROBES",
    "PROBE_SHARE",
    "REUSE_FLOOR",
    "ROUGH",
    "Share",
    "Sizer",
    "memo_share",
    "share_of",
    "sizes_of",
]

#: The levels from the root whose options are weighed by their subtrees' sizes.
LEVELS = 2
#: Random descents below each option of the second level, at most ...
PROBES = 32
#: ... and fewer when there would be more than this many descents in all; below
#: :data:`MIN_PROBES` per option, no weights.
DESCENTS = 40_000
MIN_PROBES = 8
#: Descents per option of the root of the first round, which estimates the tree.
ROUGH = 8
#: The search nodes' time a descent takes (on Scott's puzzle: 28,000 descents, 0.48 s;
#: the count, 3.6 million search nodes, 11 s): descents start at the top of the tree,
#: where lists are long.
DESCENT_NODES = 6
#: The share of the tree's estimated size the probes' cost may reach.
PROBE_SHARE = 0.05
#: The memo's weight in :func:`memo_share`: ``a`` is this many times the memo's reuse
#: beyond :data:`REUSE_FLOOR` (both chosen by replays on the count's own search nodes and
#: CPU time, docs/performance.md).
MEMO = 8.0
REUSE_FLOOR = 0.05

#: The probes (:meth:`~excover.zdd._dxz.Dxz.child_sizes` from the root): (levels,
#: descents per option, seed) to what they found and the number of descents.
Sizer = Callable[[int, int, int], tuple[dict[tuple[int, ...], object] | None, int]]
#: Estimated subtree sizes of the options of the node at each path from the root.
Sizes = dict[tuple[int, ...], list[float]]


def share_of(
    places: list[tuple[int, int]], sizes: Callable[[tuple[int, ...]], list[float] | None]
) -> float:
    """The share of the tree walked when the search is at ``places`` (for each level
    from the root, the position of the option chosen and the number of options): each
    option's share of its level in proportion to ``sizes(prefix)`` (the sizes of the
    subtrees of the options of the node at the path ``prefix``), equal shares where
    that is None."""
    done, weight = 0.0, 1.0
    prefix: tuple[int, ...] = ()
    for position, options in places:
        weights = sizes(prefix)
        if not weights or len(weights) != options or min(weights) <= 0:
            done += weight * position / options
            weight /= options
        else:
            total = sum(weights)
            done += weight * sum(weights[:position]) / total
            weight *= weights[position] / total
        prefix += (position,)
    return min(max(done, 0.0), 1.0)


def memo_share(walked: float, reuse: float) -> float:
    """The share of the work done when ``walked`` of the tree (as the probes see it, the
    memo aside) is walked and the memo has hit ``reuse`` times per subproblem it holds:
    the work of a search whose cost per node of the tree falls as ``1 / (1 + a x)``
    along it, ``a`` being :data:`MEMO` times ``reuse`` beyond :data:`REUSE_FLOOR`
    (``walked`` itself up to that)."""
    a = MEMO * max(reuse - REUSE_FLOOR, 0.0)
    if a <= 0.0:
        return walked
    return math.log1p(a * walked) / math.log1p(a)


def sizes_of(found: dict[tuple[int, ...], object]) -> Sizes:
    """The sizes of the subtrees of each node's options from what the probes found: the
    median of its descents for an option of the last level, one (its own node) plus the
    sizes of its options for one above."""
    sizes: Sizes = {}

    def size(path: tuple[int, ...]) -> list[float]:
        entry = found[path]
        if isinstance(entry, int):
            sizes[path] = [1 + sum(size((*path, k))) for k in range(entry)]
        else:
            assert isinstance(entry, list)
            sizes[path] = [float(statistics.median(descents)) for descents in entry]
        return sizes[path]

    size(())
    return sizes


class Share:
    """The weighed share of one DXZ search (see the module notes): ``sizer`` makes the
    probes, on a copy of the search that never runs."""

    def __init__(self, sizer: Sizer) -> None:
        self._sizer = sizer
        self._sizes: Sizes | None = None
        #: The random descents the probes made.
        self.descents = 0
        self._shown = 0.0

    def _probe(self) -> Sizes:
        """The sizes, when the probes are cheap enough (else none: equal shares)."""
        rough, descents = self._sizer(1, ROUGH, 1)
        self.descents += descents
        below = None if rough is None else rough.get(())
        if not isinstance(below, list) or not below:
            return {}
        tree = 1 + sum(sum(d) / len(d) for d in below)  # Knuth's estimate: the mean
        shape, _ = self._sizer(LEVELS, 0, 2)  # no descents: the options of each node
        shape = shape or {}
        strata = sum(len(entry) for entry in shape.values() if isinstance(entry, list))
        probes = min(PROBES, DESCENTS // max(strata, 1))
        if probes < MIN_PROBES or probes * strata * DESCENT_NODES > PROBE_SHARE * tree:
            return {}
        found, descents = self._sizer(LEVELS, probes, 3)
        self.descents += descents
        return {} if found is None else sizes_of(found)

    def of(self, places: list[tuple[int, int]], reuse: float = 0.0) -> float:
        """The share of the work done at ``places`` (as :func:`share_of` takes them) with
        the memo's reuse so far (:func:`memo_share`); it never goes back (the reuse may
        fall a little between two readings)."""
        if self._sizes is None:
            self._sizes = self._probe()
        share = memo_share(share_of(places, self._sizes.get), reuse)
        self._shown = max(self._shown, share)
        return self._shown
