"""The ``xcc`` route: a nonogram as an exact cover problem with colours (Knuth's XCC).

Every row and every column is a primary item, covered by exactly one option: one of the
*placements* of its clue (where each block starts). Every cell is a secondary item
``x<row>_<col>``, which each option colours ``B`` (black) or ``W`` (white): a row's
option colours the cells of its row, a column's those of its column, and two options
may share a cell only when they agree on its colour. So a solution picks one placement
per line such that rows and columns agree on every cell: a picture that solves the
puzzle, and each picture is exactly one solution.

A colour puzzle is the same problem with more colours on the cell items: a placement
colours each cell ``W`` or ``C1``, ``C2``, ... (the palette's colours in order), and
consecutive blocks of different colours may touch (:func:`colour_placements`).

A line of ``n`` cells with ``k`` blocks covering ``s`` cells has ``C(n - s + 1, k)``
placements, so this route suits small puzzles (and cross-checking the others); it
refuses a puzzle that would need more than :data:`MAX_OPTIONS` options.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb
from typing import TYPE_CHECKING, Unpack

from excover.errors import UsageError
from excover.nonogram.model import BLACK, WHITE, Block, Clue, Puzzle
from excover.solving import ExactCover

if TYPE_CHECKING:
    from excover.engines import Deadline
    from excover.problem import SearchOptions

__all__ = [
    "MAX_OPTIONS",
    "colour_placements",
    "decode",
    "placement_count",
    "placements",
    "problem",
    "solutions",
]

#: The most options :func:`problem` builds.
MAX_OPTIONS = 500_000

#: The colours of a cell item: option item colour ids 1 and 2 (see ``add_options``).
_COLORS = ("B", "W")


def placement_count(clue: Clue, length: int) -> int:
    """How many placements ``clue`` has in a line of ``length`` cells (no cell known)."""
    free = length - sum(clue) - len(clue) + 1  # white cells beyond the compulsory gaps
    return comb(free + len(clue), len(clue)) if free >= 0 else 0


def placements(clue: Clue, length: int) -> Iterator[str]:
    """Every placement of ``clue`` in a line of ``length`` cells, as ``#``/``.`` text,
    blocks leftmost first."""
    if not clue:
        yield WHITE * length
        return
    first, rest = clue[0], clue[1:]
    need_after = sum(rest) + len(rest)
    for start in range(length - need_after - first + 1):
        head = WHITE * start + BLACK * first
        if not rest:
            yield head + WHITE * (length - len(head))
            continue
        for tail in placements(rest, length - len(head) - 1):
            yield head + WHITE + tail


def colour_placements(blocks: Sequence[Block], length: int) -> Iterator[str]:
    """Every placement of the colour clue ``blocks`` in a line of ``length`` cells, as
    text of colour chars and ``.``, blocks leftmost first: a white cell is compulsory only
    between two blocks of the same colour."""
    if not blocks:
        yield WHITE * length
        return
    first, rest = blocks[0], blocks[1:]
    gap = 1 if rest and rest[0].colour == first.colour else 0
    need_after = sum(block.length for block in rest) + sum(
        1 for k in range(1, len(rest)) if rest[k].colour == rest[k - 1].colour
    )
    for start in range(length - need_after - gap - first.length + 1):
        head = WHITE * start + first.colour * first.length + WHITE * gap
        if not rest:
            yield head + WHITE * (length - len(head))
            continue
        for tail in colour_placements(rest, length - len(head)):
            yield head + tail


def _colour_placement_count(blocks: Sequence[Block], length: int) -> int:
    """How many placements the colour clue has in an empty line (by the same counting
    as :func:`placement_count`: compulsory gaps only between blocks of one colour)."""
    gaps = sum(1 for k in range(1, len(blocks)) if blocks[k].colour == blocks[k - 1].colour)
    free = length - sum(block.length for block in blocks) - gaps
    if free < 0:
        return 0
    # Each of the k + 1 slack slots (before, between and after blocks) takes any number
    # of the free white cells.
    return comb(free + len(blocks), len(blocks))


def problem(puzzle: Puzzle) -> tuple[ExactCover, list[str]]:
    """The XCC problem of ``puzzle`` and the placement each row option stands for (the
    options of the rows come first, row by row, then those of the columns)."""
    import numpy as np

    colour = puzzle.palette is not None
    total = sum(
        _colour_placement_count(
            puzzle.blocks(line), puzzle.width if line < puzzle.height else puzzle.height
        )
        if colour
        else placement_count(clue, puzzle.width if line < puzzle.height else puzzle.height)
        for line, clue in enumerate(puzzle.lines())
    )
    if total > MAX_OPTIONS:
        raise UsageError(
            f"the XCC route would need {total} options (more than {MAX_OPTIONS}); "
            "use method 'propagate' for a puzzle this size"
        )
    height, width = puzzle.height, puzzle.width
    lines = [f"r{r + 1}" for r in range(height)] + [f"c{c + 1}" for c in range(width)]
    cells = [f"x{r + 1}_{c + 1}" for r in range(height) for c in range(width)]
    cover = ExactCover(primary=lines, secondary=cells)
    items: list[int] = []
    colors: list[int] = []
    starts = [0]
    row_texts: list[str] = []
    base = len(lines)
    names: tuple[str, ...] = _COLORS
    value = {BLACK: 1, WHITE: 2}
    if colour:
        palette = puzzle.palette or ()
        names = ("W", *(f"C{k + 1}" for k in range(len(palette))))
        value = {WHITE: 1} | {c.char: k + 2 for k, c in enumerate(palette)}
    for line, clue in enumerate(puzzle.lines()):
        if line < height:
            length, first, step = width, base + line * width, 1
        else:
            length, first, step = height, base + line - height, width
        texts = (
            colour_placements(puzzle.blocks(line), length) if colour else placements(clue, length)
        )
        for text in texts:
            items.append(line)
            colors.append(0)
            items += range(first, first + length * step, step)
            colors += [value[cell] for cell in text]
            starts.append(len(items))
            if line < height:
                row_texts.append(text)
    cover.add_options(np.array(starts), np.array(items), np.array(colors), names)
    return cover, row_texts


def decode(row_texts: list[str], solution: list[int]) -> tuple[str, ...]:
    """The picture of a solution (option indices): the placements it chooses for the
    rows, whose options come first and in row order, so sorting puts them in place."""
    return tuple(row_texts[option] for option in sorted(solution) if option < len(row_texts))


def solutions(puzzle: Puzzle, **options: Unpack[SearchOptions]) -> Iterator[tuple[str, ...]]:
    """Every solution, found by dancing links on :func:`problem`; ``options`` go to
    :meth:`~excover.ExactCover.solutions` (``timeout``, ``max_nodes``, ...), the
    ``timeout`` counted from this call (the building of the problem included)."""
    from excover.engines import Deadline

    deadline = Deadline(options.pop("timeout", None))
    return _decoded(puzzle, deadline, options)


def _decoded(
    puzzle: Puzzle, deadline: Deadline, options: SearchOptions
) -> Iterator[tuple[str, ...]]:
    cover, row_texts = problem(puzzle)
    for solution in cover.solutions(**deadline.options(options)):
        yield decode(row_texts, solution)
