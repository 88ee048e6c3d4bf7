"""What a run of a command found (:class:`Outcome`), and how a dancing-links run is named
and reported: shared by every command that solves, whatever its method, so that each
method's module (:mod:`excover.cli.sat`, :mod:`excover.cli.zdd`, ...) can build its result
without importing the module that dispatches among them (:mod:`excover.cli.solving`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from typing import Any

    from excover.engines import Search

__all__ = ["ENGINE_NAMES", "Outcome", "definitions", "dlx_engine", "dlx_stats"]


class Outcome:
    """What a run found: the method and engine that ran, the count (of the solutions
    counted or listed; None when a stopped method has no partial count), why it stopped
    early (None: it finished), its statistics, and for a count by ``--method auto`` the
    route that finished and why (:func:`excover.cli.solving.route_report`). (A plain
    class: dataclasses would cost the command's start-up the import of ``inspect``.)"""

    def __init__(
        self,
        method: str,
        engine: str | None,
        count: int | None,
        stopped_by: str | None,
        stats: dict[str, Any] | None = None,
        route: dict[str, Any] | None = None,
    ) -> None:
        self.method = method
        self.engine = engine
        self.count = count
        self.stopped_by = stopped_by
        self.stats: dict[str, Any] = {} if stats is None else stats
        self.route = route


#: How the output names each search engine.
ENGINE_NAMES = {"dlx": "dancing links", "bits": "bit-parallel engine", "cells": "dancing cells"}


def dlx_engine(search: Search) -> str:
    """How the output names a search run: the engine, the algorithm and the item choice."""
    heuristic = search.heuristic
    if heuristic == "random":
        heuristic += f", seed {search.seed}"
    return f"{ENGINE_NAMES[search.engine]}, Algorithm {search.stats.algorithm} ({heuristic})"


def dlx_stats(search: Search, stopped_by: str | None) -> dict[str, Any]:
    """The statistics of a dancing-links run, with what stopped it as the command saw it."""
    stats = search.stats.as_dict()
    stats["stopped_by"] = stopped_by
    stats["complete"] = stopped_by is None
    stats["heuristic"] = search.heuristic
    stats["seed"] = search.seed if search.heuristic == "random" else None
    return stats


#: What ``nodes`` counts in every search engine: they walk the same tree.
NODES = "nodes of the search tree, Knuth's DLX1 definition, the same tree in every engine"

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


def definitions(stats: dict[str, Any]) -> dict[str, str]:
    """What each figure of ``stats`` counts, for ``--stats``: the definitions of the
    engine that ran (the ``engine`` figure of a search, or the ZDD method's figures)."""
    engine = stats.get("engine")
    if engine in UPDATES:
        return {"nodes": NODES, "updates": UPDATES[engine]}
    if "zdd_nodes" in stats:
        return {key: text for key, text in ZDD_FIGURES.items() if key in stats}
    return {}
