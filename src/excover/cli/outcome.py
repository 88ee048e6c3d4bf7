"""What the figures of a run mean, for ``--stats``: every figure a command prints, and
the definitions of those whose meaning depends on the engine or route that ran. (The run's
answer itself, :class:`~excover.counting.outcome.Outcome`, is the runners', re-exported
here for the commands.)
"""

from __future__ import annotations

from excover.counting.outcome import Outcome
from excover.names import ENGINE_NAMES

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ENGINE_NAMES", "FIGURES", "Outcome", "definitions"]


#: What ``nodes`` counts in every search engine: they walk the same tree.
NODES = "nodes of the search tree, Knuth's DLX1 definition, the same tree in every engine"
#: ... and with ``--heuristic forced``, where chains of forced moves are one node.
FORCED_NODES = (
    "nodes of the search tree with forced moves: every item left with one option is "
    "covered by it at once, in one node (DLX1's tree with its chains of forced nodes "
    "drawn together: fewer nodes)"
)
#: ... and with ``--heuristic weighted``, which branches on other items than DLX1.
WEIGHTED_NODES = (
    "nodes of the search tree of weighted item choice (one entry into a level, plus one "
    "per solution): another tree than DLX1's, so not comparable with its figures"
)
#: ... and with ``--heuristic sizes``, which cuts subtrees out of DLX1's tree.
SIZES_NODES = (
    "nodes of DLX1's search tree less the subtrees the size bound cuts (a node whose "
    "items left are no sum of the sizes of distinct groups in play is not entered)"
)

#: ... and in a symmetry-broken count, the sum over the searches it runs.
BROKEN_NODES = (
    "nodes of every search the symmetry-broken count ran, added up (the listing of the "
    "base's partial solutions and the count of each orbit's representatives), each the "
    "search tree of its own smaller problem: fewer than a plain count's"
)

#: What ``updates`` counts, by engine: only dancing links has links to update.
UPDATES = {
    "dlx": "links changed, Knuth's DLX1 definition",
    "bits": "options taken out of play by the bit-parallel engine, not DLX1's link "
    "updates (several times fewer; --engine dlx counts those)",
    "cells": "removals of an option from an item's set by dancing cells, not DLX1's link "
    "updates (fewer; --engine dlx counts those)",
}

#: The figures of the ZDD method's runs.
ZDD_FIGURES = {
    "nodes": "nodes of DXZ's search (memoised dancing links)",
    "memo_hits": "subproblems DXZ found in its memo instead of searching them",
    "zdd_nodes": "nodes of the ZDD of all the solutions",
}

#: What ``nodes`` counts when a route of ``--method auto`` other than a search engine
#: counted (``excover count --route NAME``), and in a SAT solver's run.
ROUTE_NODES = {
    "dxz": "nodes of DXZ's search (memoised dancing links), not DLX1's tree",
    "frontier": "0: the frontier count walks no search tree (it sweeps the board, keeping "
    "the number of partial covers of each frontier)",
    "components": "nodes entered by the searches of the component count (0 where it needed none)",
    "parts": "nodes entered by the searches of the routes that counted the parts",
    "sat": "0: a SAT solver walks no dancing-links tree",
}

#: Every figure ``--stats`` prints, by the name it prints, with what it means
#: (docs/cli.md, "Statistics", lists the same; tests/test_cli_stats.py checks that every
#: figure a run prints is here and there). Figures whose meaning depends on the engine or
#: route that ran (``nodes``, ``updates``) get a ``meaning of`` line after the figures.
FIGURES = {
    "solutions": "the solutions counted or listed (so far, when the run stopped early)",
    "nodes": "nodes of the search tree, Knuth's DLX1 definition, for a search engine; "
    "other routes say what they count in a 'meaning of nodes' line",
    "updates": "the work of a search engine: DLX1's link updates in dancing links, the "
    "engine's own unit in the others (a 'meaning of updates' line says which)",
    "time": "seconds of wall-clock time the count or search took",
    "algorithm": "Knuth's algorithm that ran (X: exact cover, C: with colors, M: with "
    "multiplicities), or the SAT solver",
    "engine": "the engine that ran: dlx (dancing links), bits (bit-parallel), cells "
    "(dancing cells), sat, or nonogram",
    "heuristic": "the item choice: mrv (fewest remaining options, DLX1's), leftmost, "
    "random (with its seed), forced (mrv, forced moves taken together), weighted "
    "(failure weights), or sizes (mrv, subtrees cut by the size bound)",
    "amo": "the at-most-one encoding of the SAT formula (--amo)",
    "group order": "the order of the symmetry group the count is taken under",
    "symmetry": "the group the count broke: declared (known without a search, broken by "
    "default; --no-break-symmetry counts without it) or automorphism (found first)",
    "workers": "the processes that counted",
    "subproblems": "the parts counted of those the problem was cut into, and how many of "
    "them a checkpoint gave",
    "method": "the method that counted the subproblems",
    "puzzles": "the puzzles read",
    "done": "the puzzles solved or counted (fewer than read when the run stopped early)",
    "memo hits": ZDD_FIGURES["memo_hits"],
    "zdd nodes": ZDD_FIGURES["zdd_nodes"],
    "memory bound": "the bytes the tables of the ZDD method may hold (--max-memory), when "
    "they stopped the run",
    "search": "complete, or what stopped the run early (its result is then partial)",
    "states": "the distinct states a count by states merged and expanded (the rectangle "
    "sequences: partial tilings' empty cells and usable shapes), each once",
    "dissections": "the dissections of the square into connected pieces of n cells, "
    "counted from its cells: the tilings the identity fixes (A328020 by Burnside's lemma)",
    "fixed": "the tilings each other symmetry of the square fixes, counted by search on "
    "its quotient, in the order of the symmetry group's elements (A328020)",
    "dissection seconds": "seconds of CPU the dissections took",
    "fixed seconds": "seconds of CPU the fixed tilings took",
}


def definitions(stats: dict[str, Any], route: str | None = None) -> dict[str, str]:
    """What each figure of ``stats`` whose meaning depends on what ran counts, for
    ``--stats``: the definitions of the engine that ran (the ``engine`` figure of a
    search), of the ``route`` of ``--method auto`` that counted, or of the ZDD method."""
    engine = stats.get("engine")
    if engine in UPDATES:
        nodes = {"forced": FORCED_NODES, "weighted": WEIGHTED_NODES, "sizes": SIZES_NODES}.get(
            stats.get("heuristic") or "", NODES
        )
        return {"nodes": nodes, "updates": UPDATES[engine]}
    if "group_order" in stats and "nodes" in stats:
        return {"nodes": BROKEN_NODES}
    if engine == "sat":
        return {"nodes": ROUTE_NODES["sat"], "updates": "0: a SAT solver has no links to update"}
    if route in ROUTE_NODES and "nodes" in stats:
        return {"nodes": ROUTE_NODES[route]}
    if "zdd_nodes" in stats or "memo_hits" in stats:
        return {key: text for key, text in ZDD_FIGURES.items() if key in stats}
    return {}
