"""Fresh compiled solvers for a puzzle, and their grids read back as pictures.

The routes of :mod:`excover.nonogram.search`, the culprit search of
:mod:`excover.nonogram.culprit` and the ratings of :mod:`excover.nonogram.rating` all
start from here: :func:`core` and :func:`colour_core` turn a
:class:`~excover.nonogram.model.Puzzle`'s clues into the flat arrays of
:class:`~excover.nonogram._core.Core` and :class:`~excover.nonogram._core.ColourCore`,
and :func:`picture` turns a grid of cell bytes back into rows of ``#``, ``.`` and ``?``.
"""

from __future__ import annotations

from excover.errors import UsageError
from excover.nonogram import _core
from excover.nonogram.model import BLACK, WHITE, Puzzle

__all__ = [
    "GUESS_FRACTION",
    "GUESS_ROUNDS",
    "UNKNOWN",
    "Solver",
    "colour_core",
    "core",
    "picture",
    "picture_of",
    "solver_for",
]

#: The steps of a decimation (:meth:`Core.guess <excover.nonogram._core.Core.guess>`):
#: rounds of belief propagation per step, and the share of the unknown cells each step
#: decides (why these values: :data:`excover.nonogram.search.GUESS_SHARE`).
GUESS_ROUNDS = 20
GUESS_FRACTION = 0.05

#: How :func:`~excover.nonogram.search.propagated` shows a cell line solving leaves open.
UNKNOWN = "?"

#: The core's cell bytes (1 white, 2 black, 3 unknown) as picture characters.
_SYMBOLS = bytes.maketrans(b"\x01\x02\x03", f"{WHITE}{BLACK}{UNKNOWN}".encode())


#: Either compiled solver: black and white, or colour (the same methods but the grid's).
Solver = _core.Core | _core.ColourCore


def solver_for(puzzle: Puzzle) -> Solver:
    """A fresh compiled solver for ``puzzle``: :func:`core`, or :func:`colour_core` when
    it has a palette."""
    return core(puzzle) if puzzle.palette is None else colour_core(puzzle)


def core(puzzle: Puzzle) -> _core.Core:
    """A fresh compiled solver for the black-and-white ``puzzle``."""
    if puzzle.palette is not None:
        raise UsageError("a colour puzzle needs colour_core")
    if puzzle.height * puzzle.width > _core.MAX_CELLS:
        raise UsageError(
            f"a {puzzle.height}x{puzzle.width} puzzle has more than {_core.MAX_CELLS} cells"
        )
    clues: list[int] = []
    starts = [0]
    for clue in puzzle.lines():
        clues += clue
        starts.append(len(clues))
    return _core.Core(puzzle.height, puzzle.width, clues, starts)


def colour_core(puzzle: Puzzle) -> _core.ColourCore:
    """A fresh compiled colour solver for ``puzzle`` (white is value 0, the palette's
    colours values 1, 2, ... in order)."""
    palette = puzzle.palette or ()
    if puzzle.height * puzzle.width > _core.MAX_CELLS // 32:
        raise UsageError(
            f"a {puzzle.height}x{puzzle.width} colour puzzle has more than "
            f"{_core.MAX_CELLS // 32} cells"
        )
    value = {colour.char: k + 1 for k, colour in enumerate(palette)}
    lengths: list[int] = []
    colours: list[int] = []
    starts = [0]
    for line, clue in enumerate(puzzle.lines()):
        lengths += clue
        colours += (value[char] for char in puzzle.line_colours(line))
        starts.append(len(lengths))
    return _core.ColourCore(puzzle.height, puzzle.width, len(palette) + 1, lengths, colours, starts)


def picture_of(solver: Solver, puzzle: Puzzle) -> tuple[str, ...]:
    """The solver's grid as rows of picture characters (``?`` for open cells)."""
    if isinstance(solver, _core.Core):
        return picture(solver.grid_bytes(), puzzle.width)
    symbols = WHITE + "".join(colour.char for colour in puzzle.palette or ())
    table = {k: symbols[k] for k in range(len(symbols))} | {255: UNKNOWN}
    cells = "".join(table[value] for value in solver.grid_values())
    return tuple(cells[k : k + puzzle.width] for k in range(0, len(cells), puzzle.width))


def picture(grid: bytes, width: int) -> tuple[str, ...]:
    """The rows of a grid of cell bytes (1 white, 2 black, 3 unknown)."""
    cells = grid.translate(_SYMBOLS).decode("ascii")
    return tuple(cells[k : k + width] for k in range(0, len(cells), width))
