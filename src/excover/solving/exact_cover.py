"""The public problem, :class:`ExactCover`: the model with its solving methods.

:class:`excover.problem.Problem` holds the problem as data, at the bottom of the package,
where every engine reads it. ``ExactCover`` adds what a user asks of a problem, one floor
above every engine and operation: reading and writing it in Knuth's format and in
BurrTools' (:mod:`excover.formats`), and solving it (``search``, ``first``,
``solutions``, ``count``, ``symmetries``, ``split``, ``estimate``, ``zdd``, ``to_cnf``).
Each solving method checks its arguments against :mod:`excover.names` and calls down to
the operations they ask for, outermost first: preprocessing, a symmetry-broken search
(built by :func:`excover.solving.registry.broken`), a parallel run; what is left is one
method in one process (:mod:`excover.counting.methods`). Operations below never call back
up here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Self, Unpack

from excover.counting.outcome import count_of
from excover.errors import UsageError, check_limit
from excover.names import METHODS, SEARCH_OPTIONS, canonical_method
from excover.problem import Problem, SearchOptions
from excover.solving import orchestrate, registry
from excover.solving.request import api_request

if TYPE_CHECKING:
    from excover.burr.xmpuzzle import BurrPuzzle
    from excover.engines import Search
    from excover.parallel import Estimate, Subproblem
    from excover.permutations import Generator
    from excover.sat import CNF
    from excover.solving.request import Request
    from excover.solving.solutions import Solutions
    from excover.symmetry import Group
    from excover.zdd import Family

__all__ = ["ExactCover"]


class ExactCover(Problem):
    """An exact cover problem, to build, read, write and solve.

    ``primary`` and ``secondary`` are either lists of names or counts; counted items are
    named by their position, ``"0"``, ``"1"``, ..., the secondary ones continuing after the
    primary ones. Names are non-empty printable strings without blanks, ``:`` or ``|`` (so
    that every problem can be written in Knuth's format); so are color names. Build the
    options with :meth:`add_option`, or build the whole problem with :meth:`from_matrix`,
    :meth:`from_sparse`, :meth:`from_dlx` or :meth:`read`. Every malformed input raises
    :class:`~excover.ProblemError` naming the culprit.
    """

    # ----- reading and writing -----

    @classmethod
    def from_dlx(cls, text: str, source: str = "<string>") -> Self:
        """A problem from Knuth's DLX1/DLX2/DLX3 text format (see :mod:`excover.formats.dlx`).

        Errors are :class:`~excover.FormatError` located by ``source`` and line number.
        """
        from excover.formats.dlx import parse_dlx

        return parse_dlx(text, source, cls)

    @classmethod
    def from_burrtools(cls, puzzle: BurrPuzzle, problem: int = 0) -> Self:
        """Problem number ``problem`` (from 0) of a BurrTools puzzle (read by
        :func:`excover.burr.xmpuzzle.read_xmpuzzle`), with the symmetries BurrTools
        counts assemblies under declared (see :mod:`excover.burr.xmpuzzle.cover`)."""
        from excover.burr.xmpuzzle.cover import to_exact_cover

        return to_exact_cover(puzzle, problem, cls)

    @classmethod
    def from_cnf(cls, cnf: CNF) -> Self:
        """The problem a CNF formula written by excover encodes, rebuilt from the
        comments of its header (:meth:`excover.sat.CNF.problem`); a
        :class:`~excover.UsageError` when the formula does not carry it."""
        from excover.formats.dlx import parse_dlx

        if cnf.problem_text is None:
            raise UsageError(
                "this formula does not say which problem it encodes (no 'c excover' "
                "comments in its header)"
            )
        return parse_dlx(cnf.problem_text, "<the CNF's header>", cls)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Self:
        """A problem from a file in Knuth's DLX format; errors name the file and line."""
        from excover.formats.dlx import read_dlx

        return read_dlx(path, cls)

    def to_dlx(self) -> str:
        """The problem in Knuth's DLX text format; :meth:`from_dlx` reads it back equal."""
        from excover.formats.dlx import format_dlx

        return format_dlx(self)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the problem to a file in Knuth's DLX text format."""
        from excover.formats.dlx import write_dlx

        write_dlx(self, path)

    # ----- solving -----

    def search(
        self,
        heuristic: str = "mrv",
        *,
        seed: int | None = None,
        max_solutions: int | None = None,
        max_nodes: int | None = None,
        timeout: float | None = None,
        engine: str = "auto",
    ) -> Search:
        """A search run over this problem (see :class:`excover.Search`)."""
        from excover.engines import Search

        return Search(
            self,
            heuristic=heuristic,
            seed=seed,
            max_solutions=max_solutions,
            max_nodes=max_nodes,
            timeout=timeout,
            engine=engine,
        )

    def first(
        self,
        method: str = "search",
        *,
        solver: str | None = None,
        amo: str | None = None,
        preprocess: bool = False,
        **options: Unpack[SearchOptions],
    ) -> list[int] | None:
        """The first solution (option indices) found by ``method``, or None.

        ``solver`` and ``amo`` choose the SAT solver and at-most-one encoding of
        ``method="sat"`` (see :mod:`excover.sat`), as in :meth:`solutions` and :meth:`count`.
        ``preprocess=True`` searches the problem :func:`excover.preprocess.preprocess`
        reduces, as :meth:`count` does.
        """
        method = _check_method(method)
        _check_options(options)
        request = api_request(method, options, "first", solver, amo, limit=1, preprocess=preprocess)
        found: list[list[int]] = []
        outcome = orchestrate.solutions(self, request, found.append)
        if outcome.error is not None:
            raise outcome.error
        return found[0] if found else None

    def solutions(
        self,
        method: str = "search",
        limit: int | None = None,
        *,
        solver: str | None = None,
        amo: str | None = None,
        workers: int | None = None,
        executor: object | None = None,
        tasks: int | None = None,
        up_to_symmetry: bool = False,
        symmetry: bool | Group | Iterable[Generator] | None = None,
        preprocess: bool = False,
        **options: Unpack[SearchOptions],
    ) -> Iterator[list[int]]:
        """Lazily yield the solutions found by ``method`` (at most ``limit`` of them).

        ``method="zdd"`` lists them, sorted, as the DXZ search meets them, without waiting
        for the whole family (:class:`excover.zdd.dxz.DxzListing`: the first after one
        descent, in lexicographic order of the search's option numbers), within the memory
        bound of :mod:`excover.zdd.memory`; :meth:`first` gives the first.
        ``workers``, ``executor`` or ``tasks`` find them as subproblems in parallel, as
        :meth:`count` does, in a fixed order (see :func:`excover.parallel.solutions`).

        ``up_to_symmetry=True`` yields one solution per orbit (sorted option lists) under
        the group ``symmetry`` (by default the problem's automorphism group, see
        :meth:`symmetries`; a declared widening of the declared group widens the classes
        of its solutions, :mod:`excover.symmetry.widened`); ``symmetry`` alone yields
        every solution, orbit by orbit, from a symmetry-broken search (see
        :mod:`excover.symmetry.broken`).

        ``preprocess=True`` searches the problem :func:`excover.preprocess.preprocess`
        reduces, as :meth:`count` does, and yields its solutions as this problem's options.
        """
        check_limit(limit)
        symmetric = up_to_symmetry or (symmetry is not None and symmetry is not False)
        if symmetric and workers is not None:
            raise UsageError("a listing with symmetry is one search: workers= goes with count()")
        request = _checked_request(
            "solutions",
            method,
            options,
            solver=solver,
            amo=amo,
            limit=limit,
            preprocess=preprocess,
            symmetry=symmetry,
            up_to_symmetry=up_to_symmetry,
            workers=workers,
            executor=executor,
            tasks=tasks,
        )
        return iter(orchestrate.listing(self, request))

    def all(self, method: str = "search", limit: int | None = None, **options: Any) -> Solutions:
        """The solutions that :meth:`solutions` yields with the same arguments (at most
        ``limit``), all found before it returns, in a list that knows this problem
        (:class:`~excover.solving.solutions.Solutions`): a notebook shows it as a table of
        the solutions' options and their items. Give a ``limit`` when there may be many."""
        from excover.solving.solutions import Solutions

        return Solutions(self, self.solutions(method, limit, **options))

    def count(
        self,
        method: str = "auto",
        *,
        solver: str | None = None,
        amo: str | None = None,
        workers: int | None = None,
        executor: object | None = None,
        tasks: int | None = None,
        up_to_symmetry: bool = False,
        symmetry: bool | Group | Iterable[Generator] | None = None,
        preprocess: bool | None = None,
        **options: Unpack[SearchOptions],
    ) -> int:
        """The number of solutions, an exact int.

        ``up_to_symmetry=True`` counts the orbits of solutions under the group
        ``symmetry`` (by default the problem's automorphism group, :meth:`symmetries`;
        a declared widening of the declared group widens the classes of its solutions,
        :mod:`excover.symmetry.widened`); ``symmetry`` alone (True or a group) counts every
        solution by a symmetry-broken search, one branch per orbit at the top of the tree (see
        :mod:`excover.symmetry.broken`); with ``workers=n`` its exact cover problems are
        counted on ``n`` processes. By default (None) a count of every solution breaks
        the group the problem declares (:meth:`declare_symmetries`), when ``method``
        searches and no ``max_nodes`` or ``max_solutions`` bounds it
        (:func:`excover.solving.registry.total_group`); ``symmetry=False`` never does.
        The count is the same either way; ``timeout`` covers finding the group.

        ``method="sat"`` enumerates with the SAT solver and, on long enumerations, races the
        ganak model counter when pyganak is installed (see :func:`excover.sat.solve.count`).
        ``workers=n`` counts on ``n`` processes, ``executor=`` on a concurrent.futures
        Executor or a Dask ``Client``, the problem cut into ``tasks`` subproblems (see
        :mod:`excover.parallel`); each is counted by ``method`` (not ``"sat"``).

        ``preprocess=True`` counts the problem :func:`excover.preprocess.preprocess`
        reduces (blocked options and redundant items removed; the same solutions), by any
        method; it does not combine with ``symmetry`` or ``up_to_symmetry``, whose group
        is the original problem's. By default (None) ``method="auto"`` preprocesses where
        it pays: once its search projects a long count
        (:data:`excover.counting.choice.PREPROCESS_ABOVE`), within a share of that time;
        ``preprocess=False`` never does (docs/model-and-search.md#preprocessing).
        """
        request = _checked_request(
            "count",
            method,
            options,
            solver=solver,
            amo=amo,
            preprocess=preprocess,
            symmetry=symmetry,
            up_to_symmetry=up_to_symmetry,
            workers=workers,
            executor=executor,
            tasks=tasks,
        )
        return count_of(orchestrate.count(self, request))

    def symmetries(self) -> Group:
        """The automorphism group of the problem: the permutations of its options and
        items that map it onto itself (kinds, multiplicities and colors respected), by
        generators, with its exact order (see :mod:`excover.symmetry`). Needs the extra
        ``excover[symmetry]`` (python-igraph). A problem that declares its symmetries
        (:meth:`declared_symmetries`) gets the group they generate instead."""
        return registry.symmetries(self)

    def split(
        self, depth: int | None = None, tasks: int | None = None, *, seed: int = 0
    ) -> list[Subproblem]:
        """Subproblems whose solutions partition this problem's, cut from the top of the
        search tree at ``depth``, or where it is biggest until there are ``tasks`` of
        them (see :func:`excover.parallel.split`)."""
        from excover.parallel import split

        return split(self, depth, tasks, seed=seed)

    def estimate(
        self, samples: int | None = None, *, seed: int | None = 0, timed: bool = True
    ) -> Estimate:
        """Estimates of the search tree (nodes, solutions, updates, each with its standard
        error) and of the time of a dancing-links count, from ``samples`` random probes
        (default 1000), or exact figures when the tree is small (see
        :func:`excover.parallel.estimate`)."""
        from excover.parallel import estimate

        return estimate(self, samples, seed=seed, timed=timed)

    def zdd(self, method: str = "dxz") -> Family:
        """The :class:`~excover.Family` of all solutions (sets of option indices).

        ``"dxz"``: memoised dancing links (:mod:`excover.zdd.dxz`); ``"columns"``:
        combine's intersection of one family per item (:mod:`excover.zdd.columns`).
        Both give the same family, in the default ZDD manager.
        """
        from excover.zdd import columns, dxz

        builds = {"dxz": dxz.dxz, "columns": columns.columns}  # names.ZDD_BUILDS
        build = builds.get(method) if isinstance(method, str) else None
        if build is None:
            raise UsageError(f"unknown ZDD method {method!r}; choose 'dxz' or 'columns'")
        return build(self)

    def to_cnf(self, amo: str = "auto") -> CNF:
        """The problem as a CNF formula, one variable per option (see :mod:`excover.sat`);
        ``amo`` names the at-most-one encoding."""
        from excover.sat import to_cnf

        return to_cnf(self, amo)

    def write_dimacs(self, path: str | os.PathLike[str], amo: str = "auto") -> None:
        """Write :meth:`to_cnf` to ``path`` in DIMACS format, with a header mapping the
        variables back to the options."""
        self.to_cnf(amo).write_dimacs(path)


def _check_options(options: Mapping[str, object]) -> None:
    """Refuse a keyword that is none of the search options (a typo would otherwise reach
    the search as a TypeError, or be ignored)."""
    unknown = sorted(set(options) - set(SEARCH_OPTIONS))
    if unknown:
        known = ", ".join(sorted(SEARCH_OPTIONS))
        raise UsageError(f"unknown keyword argument {unknown[0]!r}; the search options are {known}")


def _check_method(method: str, depth: int = 1) -> str:
    """The method a caller of the API names (an old name, deprecated, read as the method
    it is now: :func:`excover.names.canonical_method`, its warning pointing at the
    caller of the API, ``depth`` frames above this one's caller); unknown ones rejected,
    the valid ones listed."""
    method = canonical_method(method, stacklevel=1 + depth)
    if not isinstance(method, str) or method not in METHODS:
        raise UsageError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    return method


def _checked_request(
    operation: str,
    method: str,
    options: SearchOptions,
    *,
    solver: str | None,
    amo: str | None,
    preprocess: bool | None,
    symmetry: bool | Group | Iterable[Generator] | None,
    up_to_symmetry: bool,
    workers: int | None,
    executor: object | None,
    tasks: int | None,
    limit: int | None = None,
) -> Request:
    """The orchestrator's request of an API call of ``operation`` (``count`` or
    ``solutions``), its arguments checked first: the method, the search options, and
    what a symmetric run or a run on subproblems cannot take."""
    method = _check_method(method, depth=2)  # the API's method, then this function
    _check_options(options)
    if preprocess:
        registry.check_no_symmetry(up_to_symmetry, symmetry)
    if up_to_symmetry or (symmetry is not None and symmetry is not False):
        registry.check_symmetric(method, solver, amo, executor, tasks, options)
    elif workers is not None or executor is not None or tasks is not None:
        _check_parallel(method, solver, amo, options)
    return api_request(
        method,
        options,
        operation,
        solver,
        amo,
        limit=limit,
        preprocess=preprocess,
        symmetry=symmetry,
        up_to_symmetry=up_to_symmetry,
        workers=workers,
        executor=executor,
        tasks=tasks,
    )


def _check_parallel(
    method: str, solver: str | None, amo: str | None, options: Mapping[str, object]
) -> None:
    """Refuse what a run on subproblems cannot take: the SAT arguments, the options of a
    whole search (:func:`excover.parallel.tasks.check_task_options`)."""
    from excover.counting.methods import check_not_sat
    from excover.parallel.tasks import check_task_options

    check_not_sat(method, solver, amo)
    check_task_options(method, dict(options))
