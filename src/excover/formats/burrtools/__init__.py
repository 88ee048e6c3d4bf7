"""BurrTools puzzles (``.xmpuzzle`` files): read, write, and turn into exact cover.

:func:`read_xmpuzzle` / :func:`parse_xmpuzzle` give a :class:`Puzzle` (shapes, problems,
colours; :mod:`excover.formats.burrtools.model`), :func:`write_xmpuzzle` /
:func:`format_xmpuzzle` write one back as BurrTools lays out its files
(:mod:`excover.formats.burrtools.files`), :func:`design` makes a puzzle of excover
patterns (:mod:`excover.formats.burrtools.design`), and
:meth:`ExactCover.from_burrtools <excover.ExactCover.from_burrtools>` turns one problem of
a cube-grid puzzle into an exact cover problem whose symmetries are those BurrTools
counts assemblies under (:mod:`excover.formats.burrtools.cover`)::

    puzzle = read_xmpuzzle("AlPackino.xmpuzzle")
    cover = ExactCover.from_burrtools(puzzle, 0)
    cover.count()                        # every assembly
    cover.count(up_to_symmetry=True)     # BurrTools' count
"""

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
    "Shape",
    "design",
    "format_xmpuzzle",
    "parse_xmpuzzle",
    "read_xmpuzzle",
    "write_xmpuzzle",
]
