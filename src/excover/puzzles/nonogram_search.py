"""The ``propagate`` route: the compiled line solver, propagation, probing and search.

:func:`solutions` drives :class:`~excover.puzzles._nonogram.Core` (see its module for the
algorithms) one solution at a time; :func:`propagated` runs line propagation alone, the
way a person solves a puzzle line by line, and shows how far it gets.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from excover.errors import LimitReached, UsageError
from excover.puzzles import _nonogram
from excover.puzzles.nonogram_model import BLACK, WHITE, Puzzle

if TYPE_CHECKING:
    from excover.dlx import Stats

__all__ = [
    "ALGORITHM",
    "UNKNOWN",
    "colour_core",
    "core",
    "count",
    "picture",
    "propagated",
    "solutions",
    "solver_for",
]

#: How :func:`propagated` shows a cell line solving leaves open.
UNKNOWN = "?"

#: The name of this route in statistics.
ALGORITHM = "nonogram line solving, probing and search"

#: The core's cell bytes (1 white, 2 black, 3 unknown) as picture characters.
_SYMBOLS = bytes.maketrans(b"\x01\x02\x03", f"{WHITE}{BLACK}{UNKNOWN}".encode())


#: Either compiled solver: black and white, or colour (the same methods but the grid's).
Solver = _nonogram.Core | _nonogram.ColourCore


def solver_for(puzzle: Puzzle) -> Solver:
    """A fresh compiled solver for ``puzzle``: :func:`core`, or :func:`colour_core` when
    it has a palette."""
    return core(puzzle) if puzzle.palette is None else colour_core(puzzle)


def core(puzzle: Puzzle) -> _nonogram.Core:
    """A fresh compiled solver for the black-and-white ``puzzle``."""
    if puzzle.palette is not None:
        raise UsageError("a colour puzzle needs colour_core")
    if puzzle.height * puzzle.width > _nonogram.MAX_CELLS:
        raise UsageError(
            f"a {puzzle.height}x{puzzle.width} puzzle has more than {_nonogram.MAX_CELLS} cells"
        )
    clues: list[int] = []
    starts = [0]
    for clue in puzzle.lines():
        clues += clue
        starts.append(len(clues))
    return _nonogram.Core(puzzle.height, puzzle.width, clues, starts)


def colour_core(puzzle: Puzzle) -> _nonogram.ColourCore:
    """A fresh compiled colour solver for ``puzzle`` (white is value 0, the palette's
    colours values 1, 2, ... in order)."""
    palette = puzzle.palette or ()
    if puzzle.height * puzzle.width > _nonogram.MAX_CELLS // 32:
        raise UsageError(
            f"a {puzzle.height}x{puzzle.width} colour puzzle has more than "
            f"{_nonogram.MAX_CELLS // 32} cells"
        )
    value = {colour.char: k + 1 for k, colour in enumerate(palette)}
    lengths: list[int] = []
    colours: list[int] = []
    starts = [0]
    for line, clue in enumerate(puzzle.lines()):
        lengths += clue
        colours += (value[char] for char in puzzle.line_colours(line))
        starts.append(len(lengths))
    return _nonogram.ColourCore(
        puzzle.height, puzzle.width, len(palette) + 1, lengths, colours, starts
    )


def _picture_of(solver: Solver, puzzle: Puzzle) -> tuple[str, ...]:
    """The solver's grid as rows of picture characters (``?`` for open cells)."""
    if isinstance(solver, _nonogram.Core):
        return picture(solver.grid_bytes(), puzzle.width)
    symbols = WHITE + "".join(colour.char for colour in puzzle.palette or ())
    table = {k: symbols[k] for k in range(len(symbols))} | {255: UNKNOWN}
    cells = "".join(table[value] for value in solver.grid_values())
    return tuple(cells[k : k + puzzle.width] for k in range(0, len(cells), puzzle.width))


def picture(grid: bytes, width: int) -> tuple[str, ...]:
    """The rows of a grid of cell bytes (1 white, 2 black, 3 unknown)."""
    cells = grid.translate(_SYMBOLS).decode("ascii")
    return tuple(cells[k : k + width] for k in range(0, len(cells), width))


def propagated(puzzle: Puzzle) -> tuple[str, ...] | None:
    """What line propagation alone decides: the picture with ``?`` for the cells it
    leaves open, or None when it finds a contradiction (no solution)."""
    solver = solver_for(puzzle)
    if not solver.propagate_only():
        return None
    return _picture_of(solver, puzzle)


def solutions(
    puzzle: Puzzle,
    *,
    timeout: float | None = None,
    max_nodes: int | None = None,
    probing: bool = True,
) -> Iterator[tuple[str, ...]]:
    """Lazily yield every solution. ``timeout`` (seconds over the whole run) and
    ``max_nodes`` (search nodes) raise :class:`~excover.LimitReached`; ``probing=False``
    branches after propagation alone (slower, for comparisons)."""
    _check_limits(timeout, max_nodes)
    return _run(puzzle, timeout, max_nodes, probing)


def count(puzzle: Puzzle, limit: int | None = None, *, timeout: float | None = None) -> int:
    """The number of solutions (at most ``limit``), without building their pictures."""
    _check_limits(timeout, None)
    found = 0
    for _ in _statuses(puzzle, timeout, None, True, limit):
        found += 1
    return found


def _check_limits(timeout: object, max_nodes: object) -> None:
    """Reject a negative or non-numeric ``timeout`` or ``max_nodes``."""
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout >= 0
    ):
        raise UsageError(f"timeout must be a non-negative number, not {timeout!r}")
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 0
    ):
        raise UsageError(f"max_nodes must be a non-negative integer, not {max_nodes!r}")


def _run(
    puzzle: Puzzle, timeout: float | None, max_nodes: int | None, probing: bool
) -> Iterator[tuple[str, ...]]:
    for solver in _statuses(puzzle, timeout, max_nodes, probing, None):
        yield _picture_of(solver, puzzle)


def _statuses(
    puzzle: Puzzle,
    timeout: float | None,
    max_nodes: int | None,
    probing: bool,
    limit: int | None,
) -> Iterator[Solver]:
    """The solver, yielded each time it holds a new solution (at most ``limit`` times);
    a limit of time or nodes raises :class:`~excover.LimitReached`."""
    solver = solver_for(puzzle)
    started = time.monotonic()
    deadline = -1.0 if timeout is None else started + timeout
    while limit is None or solver.solutions < limit:
        status = solver.next_solution(-1 if max_nodes is None else max_nodes, deadline, probing)
        if status == _nonogram.EXHAUSTED:
            return
        if status == _nonogram.SOLUTION:
            yield solver
            continue
        reason = "timeout" if status == _nonogram.TIME_LIMIT else "max_nodes"
        raise LimitReached(reason, _stats(solver, time.monotonic() - started, reason))


def _stats(solver: Solver, seconds: float, reason: str) -> Stats:
    """The statistics of a run a limit stopped (nodes are search nodes; the line solves
    stand in for DLX's updates)."""
    from excover.dlx import Stats

    return Stats(
        solutions=solver.solutions,
        nodes=solver.nodes,
        updates=solver.line_solves,
        seconds=seconds,
        complete=False,
        stopped_by=reason,
        algorithm=ALGORITHM,
    )
