"""The tilings of every rectangle of one width, up to a height, from one count.

A board of ``up_to`` x ``width`` cells is counted by the frontier count
(:func:`excover.zdd.frontier.prefix_counts`) in its cells' order, one slice of ``width``
cells after the other. At the start of each slice, the state with nothing covered from
there on counts the tilings of the slices before it: the count of the tallest board gives
those of every shorter one, at the cost of the tallest alone. A count stopped early (by
``stop``) has the heights it passed, each exact.

The board's mirror along the slices is declared for the count's fold
(:mod:`excover.zdd.folding`), which then holds about half the states; its other mirror
moves the slices, so the fold leaves it out (it would lose the shorter boards' counts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from excover.errors import UsageError
from excover.tiling.mirrors import mirror_maps
from excover.tiling.pattern import Pattern
from excover.tiling.tile import Tile
from excover.tiling.tiling import Tiling

__all__ = ["count_heights"]


def count_heights(
    width: int,
    tiles: Iterable[Tile],
    up_to: int,
    *,
    workers: int = 1,
    fold: bool = True,
    stop: Callable[[], bool] | None = None,
    max_bytes: int | None = None,
    tick: Callable[[int, int, int], None] | None = None,
) -> list[int]:
    """The number of tilings of the ``width`` x n rectangle by ``tiles`` (square-grid
    tiles, each used any number of times), for n = 0, 1, ..., ``up_to``: entry n is the
    n-high board's (entry 0, the empty board's: 1). One frontier count of the ``up_to``
    board gives them all (see the module docstring). ``stop`` (asked every millisecond
    or so) ends the count early: the list then stops at the last height passed. The
    count runs on ``workers`` threads; ``fold`` folds its states by the board's mirror
    along its width (the same counts); ``max_bytes`` bounds its memory as for
    :func:`excover.zdd.frontier.count` (past it, :class:`~excover.MemoryBoundError`);
    ``tick`` is called after each layer (a cell) with the layers done, their number and
    the states of the layer just done."""
    for name, value, least in (("width", width, 1), ("up_to", up_to, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UsageError(f"{name} must be an integer of at least {least}, not {value!r}")
    tiles = list(tiles)
    bounded = [t for t in tiles if isinstance(t, Tile) and (t.lo, t.hi) != (0, None)]
    if bounded:
        raise UsageError(
            f"tile {bounded[0].name!r} is not used any number of times: count_heights counts"
            " tilings by tiles whose multiplicity is 'any'"
        )
    if up_to == 0:
        return [1]
    area = width * up_to
    fitting = [tile for tile in tiles if not isinstance(tile, Tile) or tile.size <= area]
    if not fitting:
        return [1] + [0] * up_to
    from excover.zdd import frontier  # the compiled count, loaded when it is used

    board = Tiling(Pattern.constant(up_to, width), fitting)
    problem = board.problem
    cuts = [width * height for height in range(up_to + 1)]  # the cells go slice by slice
    if fold:  # the board is this count's own: its problem keeps what it declares
        problem.declare_symmetries(mirror_maps(board.grid, board.cells))
    counts = frontier.prefix_counts(problem, cuts, workers, tick, max_bytes, fold, stop)
    if counts is None:
        raise UsageError(
            f"a board {width} cells wide is too wide for the frontier count: its tiles'"
            f" placements span more than {frontier.MAX_SPAN - 1} cells in its order"
        )
    return [counts[cut] for cut in cuts if cut in counts]
