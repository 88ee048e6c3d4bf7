"""excover: exact cover problems, described once and solved by dancing links.

The public names::

    ExactCover   the model: items (primary, secondary), options, colors, multiplicities
    Search       one dancing-links run over a problem, with its statistics
    Stats        the statistics of a run (Knuth's DLX1 definitions)
    ExcoverError and its subclasses ProblemError, FormatError, UsageError, LimitReached,
                 ResourceLimitError, SolverError
    Family       a family of sets of ints as a ZDD (all the solutions of a problem, ...)
"""

from excover.dlx import Search, Stats
from excover.errors import (
    ExcoverError,
    FormatError,
    LimitReached,
    ProblemError,
    ResourceLimitError,
    SolverError,
    UsageError,
)
from excover.problem import ExactCover
from excover.zdd import Family

__all__ = [
    "ExactCover",
    "ExcoverError",
    "Family",
    "FormatError",
    "LimitReached",
    "ProblemError",
    "ResourceLimitError",
    "Search",
    "SolverError",
    "Stats",
    "UsageError",
]

__version__ = "0.1.0"
