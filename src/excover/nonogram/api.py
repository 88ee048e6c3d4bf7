"""The functions and names of :mod:`excover.nonogram`, which that package loads from here
on first use (so that importing the package, as building the ``excover`` parser does,
costs no solver): see the package for what each does and the routes behind ``method``.
The package's ``__all__`` lists them; the names this module takes from the others
(formats, model, drawing, generating, rating) it offers explicitly (``name as name``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice

from excover.errors import UsageError, check_limit
from excover.nonogram import search
from excover.nonogram.formats import FORMATS as FORMATS
from excover.nonogram.formats import dumps as dumps
from excover.nonogram.formats import dumps_all as dumps_all
from excover.nonogram.formats import loads as loads
from excover.nonogram.formats import loads_all as loads_all
from excover.nonogram.formats import read as read
from excover.nonogram.formats import read_all as read_all
from excover.nonogram.formats import write as write
from excover.nonogram.formats import write_all as write_all
from excover.nonogram.model import Block as Block
from excover.nonogram.model import Clue as Clue
from excover.nonogram.model import Colour as Colour
from excover.nonogram.model import Puzzle as Puzzle
from excover.nonogram.model import clue_of as clue_of
from excover.nonogram.model import colour_clue_of as colour_clue_of
from excover.nonogram.model import palette_of as palette_of
from excover.nonogram.search import propagated as propagated

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any, Literal, TypedDict, Unpack

    from excover.nonogram.draw import ascii_grid as ascii_grid
    from excover.nonogram.draw import svg_grid as svg_grid
    from excover.nonogram.generator import generate as generate
    from excover.nonogram.generator import random_picture as random_picture
    from excover.nonogram.rating import LEVELS as LEVELS
    from excover.nonogram.rating import Rating as Rating

    class SolveOptions(TypedDict, total=False):
        """How :func:`solve` and :func:`classify` solve, the keywords :func:`count` takes:
        ``method`` (:data:`METHODS`), ``timeout`` and ``max_nodes``."""

        method: str
        timeout: float | None
        max_nodes: int | None


#: The drawing, generating and rating names, imported on first use (``excover
#: nonogram`` runs that neither draw, generate nor rate skip their modules), and where
#: each lives.
_LAZY = {
    "ascii_grid": "excover.nonogram.draw",
    "svg_grid": "excover.nonogram.draw",
    "generate": "excover.nonogram.generator",
    "random_picture": "excover.nonogram.generator",
    "LEVELS": "excover.nonogram.rating",
    "Rating": "excover.nonogram.rating",
}


def __getattr__(name: str) -> Any:
    if name == "Status":  # made on first use: importing typing would slow every run
        from typing import Literal

        value: Any = Literal[_STATUSES]
    elif name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY, "Status"])


if TYPE_CHECKING:
    #: What :func:`classify` says about a puzzle.
    Status = Literal["none", "unique", "multiple"]

#: The statuses by number of solutions: none, one, two or more.
_STATUSES: tuple[Status, Status, Status] = ("none", "unique", "multiple")

#: The values of ``method``.
METHODS = ("auto", "propagate", "xcc", "sat")

#: Clues given as rows, or a whole puzzle.
Rows = Puzzle | Sequence[Iterable[int]]


def puzzle_of(rows: Rows, cols: Sequence[Iterable[int]] | None = None) -> Puzzle:
    """The :class:`Puzzle` of the arguments every function here takes: a puzzle alone,
    or row clues and column clues."""
    if isinstance(rows, Puzzle):
        if cols is not None:
            raise UsageError("give a Puzzle alone, or row clues and column clues")
        return rows
    if cols is None:
        raise UsageError("the column clues are missing")
    return Puzzle.from_clues(rows, cols)


def _checked(
    rows: Rows,
    cols: Sequence[Iterable[int]] | None,
    method: str,
    limit: int | None,
    solver: str | None,
) -> Puzzle:
    """The puzzle, after checking the arguments every solving function shares."""
    puzzle = puzzle_of(rows, cols)
    check_limit(limit)
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if solver is not None and method != "sat":
        raise UsageError("solver is for method 'sat' only")
    return puzzle


def solutions(
    rows: Rows,
    cols: Sequence[Iterable[int]] | None = None,
    *,
    method: str = "auto",
    limit: int | None = None,
    timeout: float | None = None,
    solver: str | None = None,
    max_nodes: int | None = None,
) -> Iterator[list[str]]:
    """Lazily yield the solutions (at most ``limit``), each a list of rows.

    ``timeout`` (seconds) raises :class:`~excover.LimitReached` when the run takes longer,
    and so does ``max_nodes`` (nodes of the compiled search; methods auto and propagate);
    ``solver`` names the SAT solver of ``method="sat"``."""
    puzzle = _checked(rows, cols, method, limit, solver)
    _check_nodes(method, max_nodes)
    if puzzle.contradiction is not None:  # no search needed to know there is nothing
        return iter(())
    if method == "xcc":
        from excover.nonogram import xcc

        found: Iterator[tuple[str, ...]] = xcc.solutions(puzzle, timeout=timeout)
    elif method == "sat":
        from excover.nonogram import sat

        found = sat.solutions(puzzle, solver=solver, timeout=timeout)
    else:
        found = search.solutions(
            puzzle, timeout=timeout, max_nodes=max_nodes, hybrid=method == "auto"
        )
    return (list(picture) for picture in islice(found, limit))


def _check_nodes(method: str, max_nodes: int | None) -> None:
    """Refuse ``max_nodes`` for the methods that do not count nodes."""
    if max_nodes is not None and method not in ("auto", "propagate"):
        raise UsageError(f"max_nodes is for the methods auto and propagate, not {method!r}")


def solve(
    rows: Rows, cols: Sequence[Iterable[int]] | None = None, **options: Unpack[SolveOptions]
) -> list[str] | None:
    """One solution (a list of rows of ``#`` and ``.``), or None when there is none;
    ``method``, ``timeout`` and ``max_nodes`` as :func:`solutions` takes them."""
    return next(solutions(rows, cols, limit=1, **options), None)


def count(
    rows: Rows,
    cols: Sequence[Iterable[int]] | None = None,
    limit: int | None = None,
    *,
    method: str = "auto",
    timeout: float | None = None,
    max_nodes: int | None = None,
) -> int:
    """The number of solutions, or ``limit`` when there are at least that many."""
    if method in ("auto", "propagate"):  # no pictures to build
        puzzle = _checked(rows, cols, method, limit, None)
        if puzzle.contradiction is not None:
            return 0
        return search.count(
            puzzle, limit, timeout=timeout, max_nodes=max_nodes, hybrid=method == "auto"
        )
    _check_nodes(method, max_nodes)
    return sum(1 for _ in solutions(rows, cols, method=method, limit=limit, timeout=timeout))


def classify(
    rows: Rows, cols: Sequence[Iterable[int]] | None = None, **options: Unpack[SolveOptions]
) -> Status:
    """``"none"``, ``"unique"`` or ``"multiple"``: how many solutions the puzzle has,
    proved by a complete search (the validation task of puzzle designers; ``method``,
    ``timeout`` and ``max_nodes`` as :func:`count` takes them). When the clues alone rule
    out every picture, ``Puzzle.contradiction`` says why."""
    return _STATUSES[count(rows, cols, 2, **options)]


def line_solvable(rows: Rows, cols: Sequence[Iterable[int]] | None = None) -> bool:
    """Whether line solving alone (each line narrowed against its clue until nothing
    changes, no guessing) decides every cell; a puzzle it proves contradictory is not."""
    picture = propagated(puzzle_of(rows, cols))
    return picture is not None and not any(search.UNKNOWN in row for row in picture)


def rate(
    rows: Rows,
    cols: Sequence[Iterable[int]] | None = None,
    *,
    timeout: float | None = None,
    max_depth: int = 2,
) -> Rating:
    """How many pictures the puzzle has and how hard it is: a :class:`Rating` whose
    ``level`` is ``"line"`` (line solving finishes it), ``"probe"`` (probing does, of
    ``depth`` 1 or 2) or ``"search"`` (see :mod:`excover.nonogram.rating`)."""
    from excover.nonogram import rating

    if max_depth not in (1, 2):
        raise UsageError(f"max_depth must be 1 or 2, not {max_depth!r}")
    return rating.rate(puzzle_of(rows, cols), timeout=timeout, max_depth=max_depth)
