"""``method="auto"``: count with plain dancing links or with DXZ, whichever suits.

DXZ pays off when sub-problems repeat: on domino tilings about a third of the search nodes
find their sub-problem in the memo, and the memo turns an astronomically large search tree
into a small DAG. On pentomino packings or n queens under 2% do, and plain DLX with the
MRV heuristic is faster. Both kinds show early, and the choice is made in steps, each
cheap next to what the step before it already cost, so that it never costs much
whichever method wins:

1. DLX runs for :func:`scout_nodes` search nodes: twice the number of primary items plus
   :data:`SCOUT_BASE`, a few times the depth of a solution (a few microseconds on queens or
   dominoes), so that the density of solutions below is already visible. Tiny problems end
   here.
2. If at least :data:`DENSE` of those nodes were solutions (dominoes: a fifth to a
   quarter; queens a tenth or less; pentominoes under a hundredth), a DXZ probe runs at
   once (see step 4): a dense solution tree with this many solutions is typical of
   repeated sub-problems, and DXZ may finish in a millisecond where DLX takes seconds.
3. Otherwise DLX carries on, the same run, up to :data:`PATIENCE_NODES` nodes; if it has
   not finished by then the DXZ probe runs, now costing a few percent of the time spent.
4. The probe runs DXZ for :data:`PROBE_NODES` search nodes; if it finishes, that is the
   answer; if at least :data:`MIN_HIT_RATE` of its nodes hit the memo, the probe's DXZ
   search goes on to the end; otherwise the DLX run resumes where it stopped. Neither
   search starts again from scratch: no work is lost, only the losing search's few nodes.

Calls that pass DLX search options (a heuristic, limits) go to DLX directly; the choice of
engine (``engine=``) is passed on to the DLX side.

The node budgets of steps 1 and 3 are also bounded by work: each DLX node scans the
active primary items for the MRV choice, so on a problem with a million primary items a
node costs a million steps, while a DXZ node (leftmost item) costs a few. The DLX budgets
shrink so that their scans stay within :data:`SCOUT_WORK` and :data:`PATIENCE_WORK`, and
the DXZ probe gets two more nodes per primary item, enough to finish a problem whose
solutions lie that deep (a million one-item options: DXZ in a fraction of a second, DLX
in hours).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Unpack

if TYPE_CHECKING:
    from excover.engines import Search
    from excover.problem import ExactCover, SearchOptions
    from excover.zdd import dxz

__all__ = ["DENSE", "MIN_HIT_RATE", "PATIENCE_NODES", "PROBE_NODES", "SCOUT_BASE", "Choice"]
__all__ += ["PATIENCE_WORK", "SCOUT_WORK", "choose", "count", "patience_nodes", "scout_nodes"]

#: DLX search nodes before the first look at the solution density, besides two per
#: primary item (see :func:`scout_nodes`).
SCOUT_BASE = 32
#: Solutions per DLX node above which DXZ is probed right after the scout.
DENSE = 0.15
#: DLX search nodes after which DXZ is probed whatever the density.
PATIENCE_NODES = 100_000
#: Search nodes of the DXZ probe.
PROBE_NODES = 1000
#: The share of probe nodes answered by the memo above which DXZ is chosen.
MIN_HIT_RATE = 0.15

#: Item visits of the MRV scans allowed in step 1 and up to step 3 (see the notes).
SCOUT_WORK = 20_000_000
PATIENCE_WORK = 200_000_000


class Choice(NamedTuple):
    """The method chosen (``"dlx"`` or ``"zdd"``), the count when the choice already
    found it, and the run of the chosen method to go on with: the DLX ``search``
    (finished when the count is known), or the unfinished DXZ ``probe`` (the other one is
    None)."""

    method: str
    known: int | None
    search: Search | None
    probe: dxz.Run | None = None


def scout_nodes(problem: ExactCover) -> int:
    """The length of the first DLX run: a solution lies as many levels deep as it has
    options, at most the number of primary items (fewer when options cover several), so
    twice that number plus a few sees the first solutions and how often they come."""
    n_primary = problem.engine_input().n_primary
    return min(SCOUT_BASE + 2 * n_primary, max(SCOUT_BASE, SCOUT_WORK // max(n_primary, 1)))


def patience_nodes(problem: ExactCover) -> int:
    """The DLX nodes of step 3: :data:`PATIENCE_NODES`, fewer when the MRV scans of that
    many nodes would pass :data:`PATIENCE_WORK` item visits."""
    n_primary = max(problem.engine_input().n_primary, 1)
    return min(PATIENCE_NODES, max(scout_nodes(problem), PATIENCE_WORK // n_primary))


def _probe(problem: ExactCover, search: Search) -> Choice:
    """Step 4 of the module notes: DXZ for a few nodes, then DXZ or the DLX run."""
    from excover.zdd import dxz  # only now: most counts that choose DLX never probe

    run = dxz.Run(problem, dxz.search_manager())
    probe = run.run(PROBE_NODES + 2 * problem.engine_input().n_primary)
    if probe.family is not None:
        return Choice("zdd", probe.family.count(), None)
    if probe.hits >= MIN_HIT_RATE * probe.nodes:
        return Choice("zdd", None, None, run)
    return Choice("dlx", None, search)


def choose(problem: ExactCover, engine: str = "auto") -> Choice:
    """The method for counting ``problem``, chosen as the module notes describe; the DLX
    side runs on ``engine`` (see :func:`excover.engines.pick_engine`)."""
    search = problem.search(seed=0, engine=engine)  # MRV ignores the seed (no syscall)
    if search.count_until(scout_nodes(problem)):
        return Choice("dlx", search.count(), search)
    stats = search.stats
    if stats.solutions >= DENSE * stats.nodes:
        return _probe(problem, search)
    if search.count_until(patience_nodes(problem)):
        return Choice("dlx", search.count(), search)
    return _probe(problem, search)


def count(problem: ExactCover, **options: Unpack[SearchOptions]) -> int:
    """The number of solutions, by the method :func:`choose` picks (its DLX side on the
    ``engine`` option, if given)."""
    if set(options) - {"engine"}:
        from excover.engines import wall_clock_search

        return wall_clock_search(problem, **options).count()
    _, known, search, probe = choose(problem, options.get("engine", "auto"))
    if known is not None:
        return known
    if probe is not None:
        from excover.zdd import frontier

        counted = frontier.count(problem)  # when it suits: faster than finishing the probe
        if counted is not None:
            return counted
        family = probe.run().family
        assert family is not None  # no budget, so the search ran to its end
        return family.count()
    assert search is not None  # choose hands back the run it chose
    return search.count()
