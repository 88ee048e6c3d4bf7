"""Which pieces? A small design search over the design on screen (issue 76).

The studio's panel *Which pieces?* asks which sets of ``k`` of the pieces chosen on the
page fill the board on the page with exactly one solution (or at most N, or any), and
lists them. Three parts:

- :class:`PieceSets`, the design space (a :class:`~excover.design.DesignSpace` of kind
  ``studio``): its catalog is the design's pieces in use, in the page's order, each with
  its own symmetry, on any of the studio's grids; a design is a set of ``k`` of them
  (each at most once, whatever its count on the page), numbered as
  :class:`~excover.design.Multisets` numbers combinations, its key the pieces' names.
  A design is rejected before any search by its ``area`` (its pieces' cells are not the
  board's), by the checkerboard ``colouring`` on the square and cube grids (the test of
  :mod:`excover.tiling.design_settle`) or when a piece fits nowhere (``fit``); else its
  own :class:`~excover.tiling.Tiling` (equal pieces interchangeable) is counted by
  :func:`~excover.tiling.design_settle.settle`, up to the board's symmetries that keep
  it when the goal asks, stopped as soon as the goal is decided. Every set is a design
  of its own (weight 1): a mirror image of a set is listed too.
  (:class:`excover.tiling.designs.PackingSpace` takes drawn pieces too, but on the
  square and cube grids only and with one motion for every piece; the page's pieces are
  on nine grids, each piece with its own symmetry.)
- :class:`SearchRequest`: what the page asks (``k``, the goal, a top K), checked field
  by field against a design (:meth:`SearchRequest.check`): every error a
  :class:`~excover.studio.design.StudioDesignError` naming the field (``search.pieces``).
- :func:`work`: the child process's life (:mod:`excover.studio.jobs` starts and kills
  it): :func:`excover.design.search` on the space, its progress sent as ``searched``
  events (candidates done of all, designs, qualifying, seconds left), then one
  ``result`` whose ``report`` is the search's report as JSON
  (:meth:`excover.design.Report.as_dict`), its ``found`` (the qualifying designs, best
  first) each with its pieces' names in ``pieces``. The run's time limit (at most the
  studio's longest run time) is the search's ``timeout``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, TypeGuard

from excover.design import Design as Candidate
from excover.design import Evaluation, Goal, Multisets, Score
from excover.design.space import MultisetSpace
from excover.errors import ExcoverError
from excover.studio.cells import shape
from excover.studio.design import StudioDesign, StudioDesignError

if TYPE_CHECKING:
    from excover.studio.child import Outbox
    from excover.tiling import Tile

__all__ = [
    "MAX_CANDIDATES",
    "MAX_FOUND",
    "MAX_SOLUTIONS",
    "SEARCH_TASK",
    "PieceSets",
    "SearchRequest",
    "work",
]

#: The task of a design search, as the page names it (``POST /api/jobs``).
SEARCH_TASK = "design_search"
#: The most sets of pieces one search may try: ``k`` of ``n`` pieces, C(n, k).
MAX_CANDIDATES = 1_000_000
#: The most qualifying designs a search lists (their number is exact beyond), and the
#: largest top K.
MAX_FOUND = 1000
#: The largest N of *at most N solutions*.
MAX_SOLUTIONS = 1_000_000
#: The scores the page may rank by, and the order each goes in unless told.
SCORES = ("solutions", "nodes")
ORDERS = ("low", "high")
#: The fields of a request.
FIELDS = ("pieces", "solutions", "up_to_symmetry", "top", "by", "order")


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class SearchRequest:
    """What the page asks: designs of ``pieces`` pieces; ``solutions`` at most (1:
    exactly one, None: any number, at least one), counted ``up_to_symmetry`` of the
    board or each on its own; the ``top`` K (None: every one, at most
    :data:`MAX_FOUND` listed) ranked ``by`` a score in an ``order`` (None: the fewest
    solutions, else the highest score first)."""

    pieces: int
    solutions: int | None = 1
    up_to_symmetry: bool = True
    top: int | None = None
    by: str = "solutions"
    order: str | None = None

    @classmethod
    def from_json(cls, data: object) -> SearchRequest:
        """The request the page sent (``{"pieces": 4, "solutions": "unique", "top": 10,
        "by": "nodes"}``; every field but ``pieces`` optional), checked field by field.
        ``solutions`` is ``"unique"``, ``"any"`` or a whole number N (at most N)."""
        if not isinstance(data, dict):
            raise StudioDesignError("search", "expected an object with 'pieces' (and the goal)")
        unknown = [name for name in data if name not in FIELDS]
        if unknown:
            raise StudioDesignError(
                "search", f"no field {unknown[0][:40]!r} (the fields: {', '.join(FIELDS)})"
            )
        pieces = data.get("pieces")
        if not _whole(pieces) or not 1 <= pieces <= 400:
            raise StudioDesignError(
                "search.pieces", f"expected 1 to 400 pieces a design, not {pieces!r}"
            )
        given = data.get("solutions", "unique")
        solutions: int | None
        if given == "unique":
            solutions = 1
        elif given == "any":
            solutions = None
        elif _whole(given) and 1 <= given <= MAX_SOLUTIONS:
            solutions = given
        else:
            raise StudioDesignError(
                "search.solutions",
                f"expected 'unique', 'any' or at most N solutions, N from 1 to {MAX_SOLUTIONS:,}, "
                f"not {given!r}",
            )
        symmetric = data.get("up_to_symmetry", True)
        if not isinstance(symmetric, bool):
            raise StudioDesignError("search.up_to_symmetry", "expected true or false")
        top = data.get("top")
        if top is not None and (not _whole(top) or not 1 <= top <= MAX_FOUND):
            raise StudioDesignError(
                "search.top", f"expected none or the best 1 to {MAX_FOUND}, not {top!r}"
            )
        by = data.get("by", "solutions")
        if by not in SCORES:
            raise StudioDesignError("search.by", f"expected one of {', '.join(SCORES)}, not {by!r}")
        order = data.get("order")
        if order is not None and order not in ORDERS:
            raise StudioDesignError(
                "search.order", f"expected one of {', '.join(ORDERS)} or none, not {order!r}"
            )
        return cls(pieces, solutions, symmetric, top, str(by), order)

    def as_json(self) -> dict[str, Any]:
        """The request as :meth:`from_json` reads it back (what the child gets)."""
        solutions: int | str = "unique" if self.solutions == 1 else (self.solutions or "any")
        return {
            "pieces": self.pieces,
            "solutions": solutions,
            "up_to_symmetry": self.up_to_symmetry,
            "top": self.top,
            "by": self.by,
            "order": self.order,
        }

    @property
    def goal(self) -> Goal:
        """The goal of the search."""
        return Goal(self.solutions, self.up_to_symmetry, self.top, self.by, self.order)

    def check(self, design: StudioDesign) -> PieceSets:
        """The space of this request on ``design`` (refused, naming the field, when it
        cannot be searched: no piece chosen, more pieces a design than chosen, too many
        sets to try)."""
        return PieceSets(design, self.pieces)


class PieceSets(MultisetSpace):
    """The sets of ``pieces`` of the pieces ``design`` uses (see the module notes)."""

    kind: ClassVar[str] = "studio"
    scores: ClassVar[tuple[str, ...]] = SCORES
    #: The version of the numbering of the candidates, in the declaration.
    VERSION: ClassVar[int] = 1

    def __init__(self, design: StudioDesign, pieces: int) -> None:
        self.source = design
        self.catalog = design.used
        self.pieces = pieces
        self.names = [piece.name for piece in self.catalog]
        n = len(self.catalog)
        if n == 0:
            raise StudioDesignError(
                "pieces", "no piece is chosen: choose the pieces to search among"
            )
        if not 1 <= pieces <= n:
            raise StudioDesignError(
                "search.pieces",
                f"a design of {pieces} pieces cannot be chosen from the {n} "
                f"piece{'s' if n > 1 else ''} chosen on the page",
            )
        self.multisets = Multisets(n, pieces, 1)
        if self.multisets.count > MAX_CANDIDATES:
            raise StudioDesignError(
                "search.pieces",
                f"{pieces} of the {n} pieces chosen make {self.multisets.count:,} sets, more "
                f"than the {MAX_CANDIDATES:,} a search in the studio tries: choose fewer pieces",
            )
        self.board = design.board_shape()
        self.cells = len(self.board.coords())
        self.sizes = [len(shape(design.grid, piece.cells).coords()) for piece in self.catalog]

    @cached_property
    def tiles(self) -> list[Tile]:
        """Each piece as a tile used once, moved by its own symmetry."""
        from excover.tiling import Tile

        grid = self.source.grid
        return [Tile(shape(grid, p.cells), p.name, 1, p.symmetry) for p in self.catalog]

    @cached_property
    def _colouring(self) -> tuple[int, list[int]] | None:
        """The board's checkerboard imbalance and each piece's, on the grids where the
        colouring test holds (squares and cubes; None elsewhere)."""
        from excover.tiling.design_settle import imbalance
        from excover.tiling.designs import MOST_CELLS
        from excover.tiling.grids import GRIDS

        if GRIDS[self.source.grid] not in MOST_CELLS:
            return None

        pieces = [abs(imbalance(tile.cells)) for tile in self.tiles]
        return imbalance(self.board.coords()), pieces

    def _design(self, index: int, chosen: tuple[int, ...]) -> Candidate:
        return Candidate(index, " ".join(self.names[k] for k in chosen), 1, chosen)

    def names_of(self, index: int) -> list[str]:
        """The names of the pieces of the design at ``index``."""
        return [self.names[k] for k in self.multisets.unrank(index)]

    def rejected(self, chosen: tuple[int, ...]) -> str | None:
        """Why the pieces ``chosen`` cannot fill the board before any search (``area``,
        ``colouring``), or None."""
        if sum(self.sizes[k] for k in chosen) != self.cells:
            return "area"
        colouring = self._colouring
        if colouring is not None:
            from excover.tiling.design_settle import colourable

            board, pieces = colouring
            if not colourable(board, [pieces[k] for k in chosen]):
                return "colouring"
        return None

    def evaluate(
        self, design: Candidate, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:

        from excover.tiling import Tiling
        from excover.tiling.design_settle import settle_tiling

        why = self.rejected(design.parts)
        if why is not None:
            return Evaluation(0, rejected=why)
        tiling = Tiling(self.board, [self.tiles[k] for k in design.parts], interchangeable=True)
        return settle_tiling(tiling, goal, beat, deadline)

    def declaration(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "version": self.VERSION,
            "design": self.source.to_json(),
            "pieces": self.pieces,
        }

    @classmethod
    def from_declaration(cls, declaration: Mapping[str, Any]) -> PieceSets:
        if declaration.get("kind") != cls.kind or declaration.get("version") != cls.VERSION:
            raise StudioDesignError("declaration", f"not a declaration of {cls.kind} designs")
        return cls(StudioDesign.from_json(declaration.get("design")), declaration.get("pieces", 0))

    def describe(self) -> str:
        n = len(self.catalog)
        return (
            f"{self.pieces} of the {n} pieces chosen in a board of {self.cells} cells "
            f"({self.source.grid} grid)"
        )


# ----- the child -----


def work(
    design: dict[str, Any],
    task: str,
    settings: dict[str, Any],
    request: dict[str, Any],
    news: Outbox,
) -> None:
    """The child's whole life: search the space of ``request`` on ``design`` within the
    ``settings``' seconds, sending its news and its result through ``news`` (see the
    module notes)."""
    try:
        news.send(_search(design, task, settings, request, news))
    except ExcoverError as error:
        news.send({"type": "error", "message": str(error)})
    except MemoryError:
        news.send({"type": "error", "message": news.memory_message})
    except Exception as error:  # a bug: said in one line, never a traceback in the page
        news.send({"type": "error", "message": f"internal error: {type(error).__name__}"})
    finally:
        news.close()


def _search(
    design: dict[str, Any],
    task: str,
    settings: dict[str, Any],
    request: dict[str, Any],
    news: Outbox,
) -> dict[str, Any]:
    from excover.design import SearchProgress, search

    started = time.monotonic()
    asked = SearchRequest.from_json(request)
    space = asked.check(StudioDesign.from_json(design))
    goal = asked.goal
    news.send(
        {
            "type": "searching",
            "space": space.describe(),
            "goal": goal.describe(),
            "candidates": space.size,
        }
    )

    def progress(at: SearchProgress) -> None:
        news.send(
            {
                "type": "searched",
                "done": at.done,
                "total": at.total,
                "designs": at.designs,
                "qualifying": at.qualifying,
                "left": None if at.left is None else round(at.left, 2),
            }
        )

    seconds = settings.get("seconds")
    report = search(space, goal, timeout=seconds, progress=progress, keep=MAX_FOUND)
    listed = report.as_dict()
    listed["found"] = [
        {**entry.as_dict(), "pieces": space.names_of(entry.index)} for entry in report.found
    ]
    return {
        "type": "result",
        "task": task,
        "stopped_by": report.stopped_by,
        "complete": report.complete,
        "report": listed,
        "seconds": round(time.monotonic() - started, 3),
    }
