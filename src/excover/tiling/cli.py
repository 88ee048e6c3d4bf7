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
from excover.solving.orchestrate import Total
from excover.tiling.colours import tile_colour
from excover.tiling.tiling import Tiling

if TYPE_CHECKING:
    from excover.cli.exact_cover.problem_input import ProblemSource, Totals

__all__ = ["read_board"]


def read_board(
    source: ProblemSource,
) -> tuple[ExactCover, Callable[[list[int], bool], str]]:
    """The tiling of the board ``source.file`` by the pieces ``source.pieces`` (used
    ``source.multiplicity`` times, reflected unless ``source.no_reflections``), and a
    function drawing one of its solutions in ASCII, one letter a piece, or (its flag
    True) as SVG, each piece in its own colour. For ``excover count --method zdd`` the
    problem declares the board's mirrors (:mod:`excover.tiling.mirrors`), by which the
    frontier count folds its states, as :meth:`Tiling.count` does. For ``excover count``
    it fills in ``source.totals`` with :meth:`Tiling.total`: a count of every tiling then
    breaks the board's symmetry by default, as :meth:`Tiling.count`, a ``.cmb`` count and
    the studio do (``--no-break-symmetry`` counts the plain way). For ``excover solve``
    it fills in ``source.mesh``: a solution's STL file (``--stl``, ``--gap``). Without
    ``source.pieces``, the BurrTools puzzle ``source.file`` (:func:`read_puzzle`)."""
    if source.pieces is None:
        return read_puzzle(source)
    tiling = Tiling.from_text(
        read_input(source.file),
        read_input(source.pieces),
        board_source=_name(source.file),
        pieces_source=_name(source.pieces),
        multiplicity=source.multiplicity or "one",
        reflections=not source.no_reflections,
    )

    def draw(solution: list[int], svg: bool) -> str:
        drawn = tiling.decode(solution)
        return drawn.svg(each_piece=True) if svg else drawn.ascii().rstrip("\n")

    if source.command == "solve":

        def mesh(solution: list[int], gap: float | None) -> tuple[bytes, float]:
            from excover.tiling.mesh import default_gap, solution_stl

            apart = default_gap(tiling.grid) if gap is None else gap
            return solution_stl(tiling.decode(solution), apart), apart

        source.mesh = mesh
    method = source.method
    if source.command == "count":
        source.totals = _board_total(tiling, source.route)
    if source.command == "count" and method is not None and METHOD_TRAITS[method].family:
        from excover.tiling.mirrors import mirror_maps

        # the frontier count folds by them; a count by zdd breaks no group
        tiling.problem.declare_symmetries(mirror_maps(tiling.grid.name, tiling.cells))
    return tiling.problem, draw


def _board_total(tiling: Tiling, route: str | None) -> Totals:
    """How ``excover count BOARD --pieces`` uses the board's symmetry by default:
    :meth:`Tiling.total`, but for ``--method auto`` (no ``--route``) the symmetry-broken
    search under the board's group and the exchanges of equal tiles rather than a free
    tile pinned, whose smaller problem auto would race its routes on: their early
    projection misjudges it (Scott's 8x8 board with the pentominoes and the square: 1.9
    s of CPU by the race, 0.8 s by the search, 0.55 s by the broken search, as
    ``--break-symmetry``)."""

    def total(method: str, deadline: float | None) -> Total | None:
        found = tiling.total(method, deadline)
        if found is None or found.group is not None:
            return found
        if not METHOD_TRAITS[method].chooses or route is not None:
            return found
        from excover.symmetry import Group

        board = tiling.board_symmetry(deadline)
        exchanges = tiling._tile_exchanges()  # the group Tiling.total breaks by search
        group = Group(tiling.problem, [m.tolist() for m in board.option_maps] + exchanges)
        if group.option_order == 1:
            return found
        how = f"board group of order {board.order}, symmetry-broken search"
        return Total(tiling.problem, 1, group, how)

    return total


def read_puzzle(
    args: ProblemSource,
) -> tuple[ExactCover, Callable[[list[int], bool], str]]:
    """Problem ``args.problem`` of the BurrTools puzzle ``args.file``, as ``excover
    solve`` reads it, and a function drawing an assembly: as the problem lists its options
    (each a piece kind and its voxels), or (its flag True) as an exploded isometric SVG
    picture of the pieces on the puzzle's grid."""
    from excover.burr.xmpuzzle import parse_xmpuzzle
    from excover.cli.exact_cover.burrtools import read_cover
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
