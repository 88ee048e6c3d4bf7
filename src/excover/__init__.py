"""excover: exact cover problems, described once and solved by dancing links.

The public names::

    ExactCover   the model: items (primary, secondary), options, colors, multiplicities
    Search       one dancing-links run over a problem, with its statistics
    Stats        the statistics of a run (Knuth's DLX1 definitions)
    ExcoverError and its subclasses ProblemError, FormatError, UsageError, LimitReached
"""

from excover.dlx import Search, Stats
from excover.errors import ExcoverError, FormatError, LimitReached, ProblemError, UsageError
from excover.problem import ExactCover

__all__ = [
    "ExactCover",
    "ExcoverError",
    "FormatError",
    "LimitReached",
    "ProblemError",
    "Search",
    "Stats",
    "UsageError",
]

__version__ = "0.1.0"
