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
    "METHOD_ALIASES",
    "METHOD_TRAITS",
    "ROUTES",
    "SEARCH_ENGINES",
    "SEARCH_METHOD",
    "SEARCH_OPTIONS",
    "TASK_METHODS",
    "ZDD_BUILDS",
    "MethodTraits",
    "canonical_method",
]

#: The solving methods of :meth:`excover.ExactCover.count` and of every subcommand that
#: solves: ``auto`` picks a route (:mod:`excover.counting`), ``search`` searches with a
#: compiled engine (any of :data:`SEARCH_ENGINES`), ``zdd`` builds or counts the family of
#: solutions, ``sat`` asks a SAT solver.
METHODS: tuple[str, ...] = ("auto", "search", "zdd", "sat")

#: The method that is one compiled search: what a choice among routes given search
#: options runs, and what the command line's symmetric runs always are.
SEARCH_METHOD = "search"

#: The old names of methods, still read where users wrote them (the API's ``method=``,
#: the command line's ``--method``, the checkpoints of a count), deprecated: ``dlx`` was
#: the name of ``search`` when dancing links was its only engine.
METHOD_ALIASES: dict[str, str] = {"dlx": "search"}


def canonical_method(name: str, *, stacklevel: int | None = None) -> str:
    """The method ``name`` stands for: the method an old name of :data:`METHOD_ALIASES`
    is now, any other name (a method or not: its check comes after) itself. Every front
    end reads a user's method through it. With ``stacklevel`` (the API), an old name
    gives a :class:`DeprecationWarning` pointing that many frames above the caller (1:
    the line that called the caller, a user's call of an API method that calls this)."""
    new = METHOD_ALIASES.get(name) if isinstance(name, str) else None
    if new is None:
        return name
    if stacklevel is not None:
        import warnings  # already loaded by Python itself: no cost at start-up

        warnings.warn(
            f"method={name!r} is deprecated: the method is now called {new!r}",
            DeprecationWarning,
            stacklevel=stacklevel + 2,
        )
    return new


class MethodTraits:
    """What a method is, for the operations and front ends that must know: they ask
    these questions of a method rather than compare its name, so that a new method
    declares its answers here and its code in :mod:`excover.counting.methods` and
    :mod:`excover.solving.registry`, and nowhere else."""

    __slots__ = ("chooses", "family", "searches", "solver")

    def __init__(self, *, searches: bool, chooses: bool, family: bool, solver: bool) -> None:
        #: It walks a search tree with a compiled engine (or, for ``auto``, may): it
        #: takes the search options (heuristic, seed, engine, ``max_nodes``), its tree
        #: can be probed (``estimate``), broken by symmetry and run in slices, and a run
        #: stopped early has counted part of the solutions.
        self.searches = searches
        #: It picks a route for each problem (:mod:`excover.counting.choice`).
        self.chooses = chooses
        #: It counts the family of solutions as a whole (a ZDD or the frontier count):
        #: it takes no search options, a run stopped early has no partial count, and
        #: each worker takes one subproblem (each builds a memo of its own).
        self.family = family
        #: It asks a SAT solver: it takes ``solver=`` and ``amo=``, in one process.
        self.solver = solver

    @property
    def one_search(self) -> bool:
        """It is one compiled search, not a choice among routes: it has a node count
        and can be cut into slices and shares of one tree."""
        return self.searches and not self.chooses

    @property
    def splits(self) -> bool:
        """It can count a problem cut into subproblems on workers."""
        return not self.solver


#: The answers of each method of :data:`METHODS`.
METHOD_TRAITS: dict[str, MethodTraits] = {
    "auto": MethodTraits(searches=True, chooses=True, family=False, solver=False),
    "search": MethodTraits(searches=True, chooses=False, family=False, solver=False),
    "zdd": MethodTraits(searches=False, chooses=False, family=True, solver=False),
    "sat": MethodTraits(searches=False, chooses=False, family=False, solver=True),
}

#: The methods that count subproblems on workers (a SAT solver does not take part).
TASK_METHODS: tuple[str, ...] = tuple(name for name in METHODS if METHOD_TRAITS[name].splits)

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
HEURISTICS: tuple[str, ...] = ("mrv", "leftmost", "random", "forced", "weighted", "sizes")

#: The counting routes of ``method="auto"`` that ``route=`` can force
#: (:data:`excover.counting.routes.ROUTES` runs them): each search engine, and the others.
ROUTES: tuple[str, ...] = (*SEARCH_ENGINES, "dxz", "frontier", "components", "parts")

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
