"""``method="auto"``: count with plain dancing links or with DXZ, whichever suits.

DXZ pays off when sub-problems repeat: on domino tilings about a third of the search nodes
find their sub-problem in the memo, and the memo turns an astronomically large search tree
into a small DAG. On pentomino packings or n queens under 2% do, and plain DLX with the
MRV heuristic is faster. That ratio shows early, so the choice is made by a probe: run DXZ
for :data:`PROBE_NODES` search nodes (a millisecond or two); if it finishes, that is
the answer; if at least :data:`MIN_HIT_RATE` of its nodes hit the memo, run DXZ to the end;
otherwise run DLX. Problems with multiplicities, and calls that pass DLX search
options (a heuristic, limits), go to DLX directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from excover.zdd import dxz
from excover.zdd.manager import Manager

if TYPE_CHECKING:
    from excover.problem import ExactCover, SearchOptions

__all__ = ["MIN_HIT_RATE", "PROBE_NODES", "choose", "count"]

#: Search nodes of the DXZ probe.
PROBE_NODES = 1000
#: The share of probe nodes answered by the memo above which DXZ is chosen.
MIN_HIT_RATE = 0.15


def choose(problem: ExactCover) -> tuple[str, int | None]:
    """The method for counting ``problem`` ("dlx" or "zdd"), and the count itself when
    the probe already finished it."""
    if not dxz.memoisable(problem):
        return "dlx", None
    probe = dxz.run_dxz(problem, Manager(nodes=1024, cache=1024), PROBE_NODES)
    if probe.family is not None:
        return "zdd", probe.family.count()
    return ("zdd" if probe.hits >= MIN_HIT_RATE * probe.nodes else "dlx"), None


def count(problem: ExactCover, **options: Unpack[SearchOptions]) -> int:
    """The number of solutions, by the method :func:`choose` picks."""
    if options:
        return problem.search(**options).count()
    method, known = choose(problem)
    if known is not None:
        return known
    if method == "zdd":
        return dxz.count(problem)
    return problem.search().count()
