"""excover: exact cover problems, described once and solved by dancing links.

The public names::

    ExactCover   the model: items (primary, secondary), options, colors, multiplicities
    Search       one dancing-links run over a problem, with its statistics
    Stats        the statistics of a run (Knuth's DLX1 definitions)
    ExcoverError and its subclasses ProblemError, FormatError, UsageError, LimitReached,
                 ResourceLimitError (MemoryBoundError, GroupMemoryError), SolverError,
                 SymmetryError
    Family       a family of sets of ints as a ZDD (all the solutions of a problem, ...)
    simd_kernel  the instruction set the compiled Sudoku core runs with ("avx512", ...;
                 EXCOVER_SIMD forces one: excover.puzzles.sudoku.simd)

The model and the engines are imported on first use (``excover.ExactCover`` imports
them then), so that ``import excover`` and the ``excover`` command start fast
(docs/architecture.md draws the layers).
"""

from __future__ import annotations

from excover import errors
from excover.errors import *  # noqa: F403  (the errors, public here too)
from excover.lazy import lazy_dir, lazy_getattr

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.engines import Search
    from excover.puzzles.sudoku.simd import simd_kernel
    from excover.solving import ExactCover
    from excover.statistics import Stats
    from excover.zdd import Family

__all__ = [
    "ExactCover",
    "Family",
    "Search",
    "Stats",
    "simd_kernel",
    *errors.__all__,  # the exceptions and the warning
]

__version__ = "0.9.0"

#: The public names imported on first use, by the module each lives in.
_LAZY = {
    "excover.solving.exact_cover": ["ExactCover"],
    "excover.engines": ["Search"],
    "excover.statistics": ["Stats"],
    "excover.zdd": ["Family"],
    "excover.puzzles.sudoku.simd": ["simd_kernel"],
}

__getattr__ = lazy_getattr(__name__, _LAZY, globals())
__dir__ = lazy_dir(_LAZY, globals())
