"""The tiling side of ``excover count|solve|dimacs BOARD --pieces PIECES``.

The problem commands live in the CLI's layer, below the tiling package, so they do not
import it: ``excover.main`` hands them :func:`read_board`, which reads the board and the
pieces (``-`` for standard input) as :meth:`Tiling.from_text` does and gives back the
exact cover with a function drawing a solution.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from excover.cli.common import read_input
from excover.solving import ExactCover
from excover.tiling.tiling import Tiling

__all__ = ["read_board"]


def read_board(
    args: argparse.Namespace,
) -> tuple[ExactCover, Callable[[list[int], bool], str]]:
    """The tiling of the board ``args.file`` by the pieces ``args.pieces`` (used
    ``args.multiplicity`` times, reflected unless ``args.no_reflections``), and a
    function drawing one of its solutions in ASCII, one letter a piece, or (its flag
    True) as SVG, each piece in its own colour."""
    tiling = Tiling.from_text(
        read_input(args.file),
        read_input(args.pieces),
        board_source=_name(args.file),
        pieces_source=_name(args.pieces),
        multiplicity=args.multiplicity or "one",
        reflections=not args.no_reflections,
    )

    def draw(solution: list[int], svg: bool) -> str:
        drawn = tiling.decode(solution)
        return drawn.svg(each_piece=True) if svg else drawn.ascii().rstrip("\n")

    return tiling.problem, draw


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path
