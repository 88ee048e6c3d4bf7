"""BurrTools puzzles (``.xmpuzzle`` files): read, write, and solve as exact cover.

:func:`read_xmpuzzle` / :func:`parse_xmpuzzle` give a :class:`Puzzle` (shapes, problems,
colours; :mod:`excover.formats.burrtools.model`), :func:`write_xmpuzzle` /
:func:`format_xmpuzzle` write one back as BurrTools lays out its files
(:mod:`excover.formats.burrtools.files`), and :func:`to_exact_cover` turns one problem
of a cube-grid puzzle into a :class:`PuzzleCover`, an :class:`~excover.ExactCover` whose
``symmetries()`` are those BurrTools counts assemblies under
(:mod:`excover.formats.burrtools.cover`); :func:`design` makes a puzzle of excover
patterns (:mod:`excover.formats.burrtools.design`)::

    puzzle = read_xmpuzzle("AlPackino.xmpuzzle")
    cover = to_exact_cover(puzzle, 0)
    cover.count()                                  # every assembly
    BrokenSearch(cover, cover.symmetries(), "dlx").count_orbits()   # BurrTools' count
"""

from excover.formats.burrtools.cover import PuzzleCover, to_exact_cover
from excover.formats.burrtools.design import design
from excover.formats.burrtools.files import (
    format_xmpuzzle,
    parse_xmpuzzle,
    read_xmpuzzle,
    write_xmpuzzle,
)
from excover.formats.burrtools.model import Part, Problem, Puzzle, Shape

__all__ = [
    "Part",
    "Problem",
    "Puzzle",
    "PuzzleCover",
    "Shape",
    "design",
    "format_xmpuzzle",
    "parse_xmpuzzle",
    "read_xmpuzzle",
    "to_exact_cover",
    "write_xmpuzzle",
]
