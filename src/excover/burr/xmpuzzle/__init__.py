"""BurrTools puzzles (``.xmpuzzle`` files): read, write, and turn into exact cover.

:func:`read_xmpuzzle` / :func:`parse_xmpuzzle` give a :class:`BurrPuzzle` (shapes, problems,
colours; :mod:`excover.burr.xmpuzzle.model`), :func:`write_xmpuzzle` /
:func:`format_xmpuzzle` write one back as BurrTools lays out its files
(:mod:`excover.burr.xmpuzzle.files`), :func:`design` makes a puzzle of excover
patterns (:mod:`excover.burr.xmpuzzle.from_patterns`), and
:meth:`ExactCover.from_burrtools <excover.ExactCover.from_burrtools>` turns one problem of
a cube-grid puzzle into an exact cover problem whose symmetries are those BurrTools
counts assemblies under (:mod:`excover.burr.xmpuzzle.cover`)::

    puzzle = read_xmpuzzle("AlPackino.xmpuzzle")
    cover = ExactCover.from_burrtools(puzzle, 0)
    cover.count()                        # every assembly
    cover.count(up_to_symmetry=True)     # BurrTools' count

The subpackage is BurrTools' file format, in :mod:`excover.burr`'s home but on the
formats layer (docs/architecture.md): it imports nothing of :mod:`excover.burr` outside
itself, so that the model's front door, the command line and the tiling library's grids
read it; the assembly analysis and disassembly of :mod:`excover.burr` build on it.
"""

from excover.burr.xmpuzzle.files import (
    format_xmpuzzle,
    parse_xmpuzzle,
    read_xmpuzzle,
    write_xmpuzzle,
)
from excover.burr.xmpuzzle.from_patterns import design
from excover.burr.xmpuzzle.model import BurrProblem, BurrPuzzle, BurrShape, Part

__all__ = [
    "BurrProblem",
    "BurrPuzzle",
    "BurrShape",
    "Part",
    "design",
    "format_xmpuzzle",
    "parse_xmpuzzle",
    "read_xmpuzzle",
    "write_xmpuzzle",
]
