"""The solutions of a run, kept by the server so the page can page through them.

A run's child sends its solutions as option numbers of the design's tiling problem (a
few integers each); the server keeps them here and draws a page of them when the page
asks, from its own copy of the tiling (built on the first request: the same design
gives the same problem, option for option). The server keeps the tiling of one list at a
time (:meth:`Listing.release`): a large design's placements take memory. Each solution
is drawn with each piece in its own colour; a polycube solution layer by layer and in an
isometric view.
The list also goes out whole as the command line's JSON document (``excover solve
--json``'s schema).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from excover.studio import library
from excover.studio.design import StudioDesign
from excover.studio.disassembly import BURR_GRIDS

if TYPE_CHECKING:
    from excover.tiling import Tiling, TilingSolution

__all__ = ["MAX_PAGE", "Listing"]

#: The most solutions drawn for one request.
MAX_PAGE = 24


class Listing:
    """The solutions found by one run of ``task`` on ``design`` (its checked JSON)."""

    def __init__(self, design: dict[str, Any], task: str, up_to_symmetry: bool) -> None:
        self.design = design
        self.task = task
        self.up_to_symmetry = up_to_symmetry
        self.options: list[list[int]] = []
        self.stopped_by: str | None = None
        self.finished = False
        self._tiling: Tiling | None = None
        self._lock = threading.Lock()

    def add(self, batch: list[list[int]]) -> None:
        """Keep a batch of solutions the child sent."""
        self.options.extend(batch)

    def finish(self, stopped_by: str | None) -> None:
        """The run ended (``stopped_by``: why early, or None)."""
        self.finished = True
        self.stopped_by = stopped_by

    def release(self) -> None:
        """Let the tiling go (it is built again when needed): the server keeps one."""
        with self._lock:
            self._tiling = None

    @property
    def tiling(self) -> Tiling:
        """The design's tiling, built on first use (from a thread of the server)."""
        with self._lock:
            if self._tiling is None:
                self._tiling = StudioDesign.from_json(self.design).tiling()
            return self._tiling

    def solution(self, index: int) -> TilingSolution:
        """Solution ``index`` (from 0), decoded."""
        return self.tiling.decode(self.options[index])

    def page(self, start: int, count: int) -> list[dict[str, Any]]:
        """Solutions ``start`` to ``start + count`` (at most :data:`MAX_PAGE`), each with
        its number, its picture (``svg``: layer by layer on the cube), its text, and on
        the cube its isometric view (``isometric``) and the surfaces of its pieces that
        the page turns in 3D (``solid``: :func:`excover.studio.library.solid_view`) and
        whether it can be taken apart (``disassembles``: on the cube and prism grids)."""
        from excover.tiling.render import solution_svg

        drawn = []
        for index in range(start, min(start + min(count, MAX_PAGE), len(self.options))):
            solution = self.solution(index)
            entry = {
                "index": index,
                "svg": solution_svg(solution, 24.0, each_piece=True),
                "ascii": solution.ascii(),
            }
            grid = self.tiling.grid
            if grid.solid:
                entry["isometric"] = library.isometric_svg(solution)
                entry["solid"] = library.solid_view(solution)
                entry["disassembles"] = grid.traits.burrtools in BURR_GRIDS.values()
            drawn.append(entry)
        return drawn

    def document(self) -> dict[str, Any]:
        """The solutions as the command line writes them with ``--json`` (the schema of
        ``excover schema``): each solution's options, their items, and its drawing as
        rows (``grid``); the design comes along under ``design``."""
        from excover.documents import document

        problem = self.tiling.problem
        solutions = [
            {
                "options": options,
                "items": [problem.option_items(option) for option in options],
                "grid": self.solution(index).ascii().split("\n"),
            }
            for index, options in enumerate(self.options)
        ]
        engine = "Algorithm X (mrv)"
        if self.up_to_symmetry:
            engine += ", one solution per symmetry class"
        found = document(
            "solve",
            "search",
            engine,
            self.stopped_by,
            count=len(solutions),
            solutions=solutions,
        )
        found["design"] = self.design
        return found
