"""The ``xcc`` route: a nonogram as an exact cover problem with colours (Knuth's XCC).

Every row and every column is a primary item, covered by exactly one option: one of the
*placements* of its clue (where each block starts). Every cell is a secondary item
``x<row>_<col>``, which each option colours ``B`` (black) or ``W`` (white): a row's
option colours the cells of its row, a column's those of its column, and two options
may share a cell only when they agree on its colour. So a solution picks one placement
per line such that rows and columns agree on every cell: a picture that solves the
puzzle, and each picture is exactly one solution.

A line of ``n`` cells with ``k`` blocks covering ``s`` cells has ``C(n - s + 1, k)``
placements, so this route suits small puzzles (and cross-checking the others); it
refuses a puzzle that would need more than :data:`MAX_OPTIONS` options.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb
from typing import TYPE_CHECKING, Unpack

from excover.errors import UsageError
from excover.problem import ExactCover
from excover.puzzles.nonogram_model import BLACK, WHITE, Clue, Puzzle

if TYPE_CHECKING:
    from excover.problem import SearchOptions

__all__ = ["MAX_OPTIONS", "decode", "placement_count", "placements", "problem", "solutions"]

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


def problem(puzzle: Puzzle) -> tuple[ExactCover, list[str]]:
    """The XCC problem of ``puzzle`` and the placement each row option stands for (the
    options of the rows come first, row by row, then those of the columns)."""
    import numpy as np

    total = sum(
        placement_count(clue, puzzle.width if line < puzzle.height else puzzle.height)
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
    for line, clue in enumerate(puzzle.lines()):
        if line < height:
            length, first, step = width, base + line * width, 1
        else:
            length, first, step = height, base + line - height, width
        for text in placements(clue, length):
            items.append(line)
            colors.append(0)
            items += range(first, first + length * step, step)
            colors += [1 if cell == BLACK else 2 for cell in text]
            starts.append(len(items))
            if line < height:
                row_texts.append(text)
    cover.add_options(np.array(starts), np.array(items), np.array(colors), _COLORS)
    return cover, row_texts


def decode(row_texts: list[str], solution: list[int]) -> tuple[str, ...]:
    """The picture of a solution (option indices): the placements it chooses for the
    rows, whose options come first and in row order, so sorting puts them in place."""
    return tuple(row_texts[option] for option in sorted(solution) if option < len(row_texts))


def solutions(puzzle: Puzzle, **options: Unpack[SearchOptions]) -> Iterator[tuple[str, ...]]:
    """Every solution, found by dancing links on :func:`problem`; ``options`` go to
    :meth:`~excover.ExactCover.solutions` (``timeout``, ``max_nodes``, ...)."""
    cover, row_texts = problem(puzzle)
    for solution in cover.solutions(**options):
        yield decode(row_texts, solution)
