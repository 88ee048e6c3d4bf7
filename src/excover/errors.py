"""The exceptions excover raises.

Every error that bad input or a bad argument can cause is an :class:`ExcoverError`, so a
caller can catch one type. Errors about input text carry the source name and line number,
and print as ``source:line: message`` (the form compilers use, and the one the CLI prints).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.statistics import Stats

#: The exceptions and the warning, every one public at the package's top too (excover's
#: ``__all__`` takes this list whole; :func:`check_limit`, a check the API makes, is not
#: one of them).
__all__ = [
    "ExcoverError",
    "ExcoverWarning",
    "FormatError",
    "GroupMemoryError",
    "LimitReached",
    "MemoryBoundError",
    "ProblemError",
    "ResourceLimitError",
    "SolverError",
    "SymmetryError",
    "UsageError",
]


class ExcoverError(Exception):
    """Base class of every error raised by excover."""


class ProblemError(ExcoverError, ValueError):
    """An exact cover problem is malformed: unknown or repeated item, bad multiplicity, ...

    ``source`` and ``line`` locate the fault when the problem was read from text.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line

    def __str__(self) -> str:
        if self.line is None:
            return self.message if self.source is None else f"{self.source}: {self.message}"
        return f"{self.source or '<input>'}:{self.line}: {self.message}"


class FormatError(ProblemError):
    """Input text does not follow its format (Knuth's DLX format, a matrix, ...)."""


class UsageError(ExcoverError, ValueError):
    """An argument of an API call is invalid (unknown method or heuristic, negative limit...)."""


def check_limit(limit: object) -> None:
    """Refuse a ``limit`` on the solutions listed that is not None nor a whole number of
    at least 0 (``True`` included: a bool is an int to Python, but not a number of
    solutions)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise UsageError(f"limit must be a non-negative integer, not {limit!r}")


class LimitReached(ExcoverError):
    """A search stopped because of ``max_nodes`` or ``timeout`` before it was complete.

    ``reason`` is ``"max_nodes"`` or ``"timeout"``; ``stats`` holds the statistics of the
    partial run (``stats.solutions`` is the number of solutions found so far). The search
    object that raised it is left usable: calling it again continues where it stopped.
    """

    def __init__(self, reason: str, stats: Stats):
        super().__init__(
            f"search stopped by {reason} after {stats.nodes} nodes "
            f"with {stats.solutions} solutions found so far"
        )
        self.reason = reason
        self.stats = stats


class ResourceLimitError(ExcoverError, MemoryError):
    """An operation needed more than a configured resource limit (such as the node limit of
    a ZDD manager) and was abandoned; the object that raised it stays usable."""


class MemoryBoundError(ResourceLimitError):
    """A ZDD construction (the node store with the DXZ memo or the top-down states, or
    the frontier count) needed more memory than its bound, ``bound`` bytes (``max_bytes``
    of :class:`excover.zdd.Manager` and :func:`excover.zdd.configure`; ``--max-memory``
    on the command line, which reports it as a stop of the run). The default bound is
    a share of the machine's memory (:mod:`excover.zdd.memory`)."""

    def __init__(self, bound: int, what: str = "the ZDD method") -> None:
        from excover.numbers import byte_size

        super().__init__(f"{what} needs more memory than its bound of {byte_size(bound)}")
        self.bound = bound
        self.what = what

    def __reduce__(self) -> tuple[type[MemoryBoundError], tuple[int, str]]:
        """Pickled as its arguments (the message is made from them), so that a worker
        process can send it back."""
        return (MemoryBoundError, (self.bound, self.what))


class GroupMemoryError(ResourceLimitError):
    """A symmetry group's work (its stabilizer chain, for counts and listings up to
    symmetry) would hold more permutations of its ``points`` points than its bound of
    ``bound`` bytes (:func:`excover.symmetry.chain.memory_bound`): a large symmetric group
    has about ``points^2 / 2`` of them. It stops there rather than have the process
    killed for want of memory."""

    def __init__(self, bound: int, what: str, points: int) -> None:
        from excover.numbers import byte_size

        super().__init__(
            f"{what} needs more memory than its bound of {byte_size(bound)} "
            f"(permutations of {points} points)"
        )
        self.bound = bound
        self.what = what
        self.points = points

    def __reduce__(self) -> tuple[type[GroupMemoryError], tuple[int, str, int]]:
        """Pickled as its arguments, as :class:`MemoryBoundError` is."""
        return (GroupMemoryError, (self.bound, self.what, self.points))


class SolverError(ExcoverError):
    """A SAT solver failed: an external solver command crashed or answered in an unknown
    format, or a solver returned a model that does not decode into a solution (a bug in
    the solver or in excover's encoding, never silently passed on)."""


class SymmetryError(ExcoverError, ValueError):
    """A permutation given as a symmetry of a problem does not map the problem onto itself,
    or a group is too large for what was asked of it."""


class ExcoverWarning(UserWarning):
    """A call did what it could but not all that was asked (for example a split into
    fewer subproblems than asked for, because the search tree has no more nodes)."""
