"""Disassembling BurrTools puzzles: does an assembly come apart, and how hard is it?

:func:`disassemble` takes an :class:`Assembly` (the pieces where an assembly puts them,
from :func:`assemblies` or made by hand) apart by sliding sets of pieces along the
axes, as BurrTools and Bill Cutler count moves, and returns a :class:`Disassembly`: its
status, the separation tree with every state, BurrTools' level string and the total
number of moves. Unlike BurrTools, which keeps only the first separation its search
finds, every separation is tried before an assembly is called stuck::

    puzzle = read_xmpuzzle("PelikanBurr.xmpuzzle")
    for assembly in assemblies(puzzle, 0):
        result = disassemble(assembly)
        if result.status == "solved":
            print(result.level)          # 98.2.4.2
"""

from __future__ import annotations

from excover.lazy import lazy_dir, lazy_getattr

TYPE_CHECKING = False
if TYPE_CHECKING:
    from excover.burr.api import disassemble, disassemble_all
    from excover.burr.assembly import AssembledPiece, Assembly, assemblies
    from excover.burr.disassembly import Disassembly, Move, Separation, Status

__all__ = [
    "AssembledPiece",
    "Assembly",
    "Disassembly",
    "Move",
    "Separation",
    "Status",
    "assemblies",
    "disassemble",
    "disassemble_all",
]

#: The public names by the module each lives in, imported when first asked for, so that
#: the ``excover`` command's parser (which imports :mod:`excover.burr.cli`) does not load
#: the compiled search and numpy.
_LAZY = {
    "excover.burr.assembly": ["AssembledPiece", "Assembly", "assemblies"],
    "excover.burr.disassembly": ["Disassembly", "Move", "Separation", "Status"],
    "excover.burr.api": ["disassemble", "disassemble_all"],
}


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
__dir__ = lazy_dir(_LAZY, globals())
