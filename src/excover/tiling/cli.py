"""The tiling side of ``excover count|solve|dimacs BOARD --pieces PIECES``, and of
``excover solve PUZZLE.xmpuzzle --svg OUT``.

The problem commands live in the CLI's layer, below the tiling package, so they do not
import it: ``excover.main`` hands them :func:`read_board`, which reads the board and the
pieces (``-`` for standard input) as :meth:`Tiling.from_text` does and gives back the
exact cover with a function drawing a solution. Given a BurrTools puzzle instead (no
``--pieces``), it reads the puzzle's problem as ``excover solve`` does and draws an
assembly as an exploded isometric view (:mod:`excover.tiling.solidview`), each piece in
its own colour, on any of BurrTools' grids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from excover.cli.common import read_input
from excover.names import METHOD_TRAITS
from excover.solving import ExactCover
from excover.tiling.colours import tile_colour
from excover.tiling.tiling import Tiling

if TYPE_CHECKING:
    from excover.cli.exact_cover.problem_input import ProblemSource

__all__ = ["read_board"]


def read_board(
    args: ProblemSource,
) -> tuple[ExactCover, Callable[[list[int], bool], str]]:
    """The tiling of the board ``args.file`` by the pieces ``args.pieces`` (used
    ``args.multiplicity`` times, reflected unless ``args.no_reflections``), and a
    function drawing one of its solutions in ASCII, one letter a piece, or (its flag
    True) as SVG, each piece in its own colour. For ``excover count --method zdd`` the
    problem declares the board's mirrors (:mod:`excover.tiling.mirrors`), by which the
    frontier count folds its states, as :meth:`Tiling.count` does. Without
    ``args.pieces``, the BurrTools puzzle ``args.file`` (:func:`read_puzzle`)."""
    if args.pieces is None:
        return read_puzzle(args)
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

    method = args.method
    if args.command == "count" and method is not None and METHOD_TRAITS[method].family:
        from excover.tiling.mirrors import mirror_maps

        # the frontier count folds by them; a count by zdd breaks no group
        tiling.problem.declare_symmetries(mirror_maps(tiling.grid.name, tiling.cells))
    return tiling.problem, draw


def read_puzzle(
    args: ProblemSource,
) -> tuple[ExactCover, Callable[[list[int], bool], str]]:
    """Problem ``args.problem`` of the BurrTools puzzle ``args.file``, as ``excover
    solve`` reads it, and a function drawing an assembly: as the problem lists its options
    (each a piece kind and its voxels), or (its flag True) as an exploded isometric SVG
    picture of the pieces on the puzzle's grid."""
    from excover.cli.exact_cover.burrtools import read_cover
    from excover.formats.burrtools import parse_xmpuzzle
    from excover.tiling.grids import by_burrtools
    from excover.tiling.solidview import solid_svg

    data = read_input(args.file, binary=True)
    source = _name(args.file)
    problem = read_cover(data, source, args.problem, args.up_to_symmetry)
    grid_number = parse_xmpuzzle(data, source).grid
    grid = by_burrtools(grid_number)

    def draw(solution: list[int], svg: bool) -> str:
        if not svg:
            return problem.format_solution(solution)
        pieces = []
        for option in solution:
            items = problem.option_items(option)
            if not items[0].startswith("shape"):
                continue  # a hole left in a variable voxel
            voxels = np.array([[int(v) for v in item.split(",")] for item in items[1:]])
            cells = grid.from_voxels(voxels)
            pieces.append(cells.tolist())
        fills = [tile_colour(number) for number in range(len(pieces))]
        return solid_svg(grid, pieces, fills, explode=0.6, fit=480)

    return problem, draw


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path
