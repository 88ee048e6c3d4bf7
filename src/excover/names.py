"""The vocabulary of solving: the names of methods, engines, heuristics and routes.

Every layer checks a user's choice against these tuples and every front end offers them
(``--method``, ``--engine``, ``--heuristic``, ``--route``), so each list is written once,
here, at the bottom of the package: this module imports nothing, so the command line's
start-up can afford it before it knows which engine a run will need. What each name does
lives with the code that runs it (:mod:`excover.solving.registry` for methods,
:mod:`excover.engines` for engines and heuristics, :mod:`excover.counting.routes` for
routes); a test checks that those modules and these lists agree.
"""

from __future__ import annotations

__all__ = [
    "ENGINES",
    "ENGINE_NAMES",
    "HEURISTICS",
    "METHODS",
    "ROUTES",
    "SEARCH_ENGINES",
    "SEARCH_OPTIONS",
    "TASK_METHODS",
    "ZDD_BUILDS",
]

#: The solving methods of :meth:`excover.ExactCover.count` and of every subcommand that
#: solves: ``auto`` picks a route (:mod:`excover.counting`), ``dlx`` searches with a
#: compiled engine, ``zdd`` builds or counts the family of solutions, ``sat`` asks a SAT
#: solver.
METHODS: tuple[str, ...] = ("auto", "dlx", "zdd", "sat")

#: The methods that count subproblems on workers (a SAT solver does not take part).
TASK_METHODS: tuple[str, ...] = ("auto", "dlx", "zdd")

#: The compiled search engines: dancing links, the bit-parallel engine, dancing cells.
SEARCH_ENGINES: tuple[str, ...] = ("dlx", "bits", "cells")

#: The engines a search can ask for: ``auto`` picks the one that suits the problem.
ENGINES: tuple[str, ...] = ("auto", *SEARCH_ENGINES)

#: How outputs name each search engine.
ENGINE_NAMES: dict[str, str] = {
    "dlx": "dancing links",
    "bits": "bit-parallel engine",
    "cells": "dancing cells",
}

#: The item-choice rules of a search (:data:`excover.engines.HEURISTICS` gives each one's
#: code in the engines and what it does).
HEURISTICS: tuple[str, ...] = ("mrv", "leftmost", "random", "forced", "weighted")

#: The counting routes of ``method="auto"`` that ``route=`` can force
#: (:data:`excover.counting.routes.ROUTES` runs them).
ROUTES: tuple[str, ...] = ("dlx", "bits", "cells", "dxz", "frontier", "components", "parts")

#: The ways :meth:`excover.ExactCover.zdd` builds the family of solutions.
ZDD_BUILDS: tuple[str, ...] = ("dxz", "columns")

#: The keyword arguments of a search, which the solving methods pass on to it.
SEARCH_OPTIONS: tuple[str, ...] = (
    "heuristic",
    "seed",
    "max_solutions",
    "max_nodes",
    "timeout",
    "engine",
)
