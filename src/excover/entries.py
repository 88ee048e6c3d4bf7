"""The values a caller hands the model, checked and converted one by one: matrix entries,
option indices, solutions, integer arrays and the limits of a run. Each check refuses
what would otherwise be converted silently (a bool as an index, a float in a matrix),
naming the value at fault. Beside them, :func:`distinct`, the sorted distinct values of
an integer array, which the model and the symmetry code take in place of ``np.unique``,
and :func:`row_keys`, one sortable value per row of an array.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from excover.errors import ProblemError, UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MAX_INT",
    "check_count_limit",
    "check_time_limit",
    "distinct",
    "indices",
    "int_array",
    "matrix_entry",
    "option_number",
    "row_keys",
]

#: Item counts and multiplicity bounds must fit the engines' 32-bit integers.
MAX_INT = 2**31 - 1


def int_array(values: object, what: str) -> npt.NDArray[np.int64]:
    """``values`` as a one-dimensional int64 array; bools, floats, strings and ragged or
    nested input are rejected rather than converted."""
    import numpy as np

    try:
        data = np.asarray(values)
    except (TypeError, ValueError):
        raise ProblemError(f"{what} must be a one-dimensional array of integers") from None
    if data.ndim != 1 or (data.size and data.dtype.kind not in "iu"):
        raise ProblemError(
            f"{what} must be a one-dimensional array of integers, not {data.dtype} "
            f"of shape {data.shape}"
        )
    if data.dtype.kind == "u" and data.size and data.max() > MAX_INT:
        raise ProblemError(f"{what} holds a value above {MAX_INT}")
    return data.astype(np.int64)


def distinct(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The distinct values of the integer array ``values`` (flattened), sorted: what
    ``np.unique(values)`` returns, of the same dtype. ``np.unique`` without ``return_*``
    flags imports ``numpy.ma`` on its first call, a cost every small count would pay at
    start-up; this sorts a copy and keeps each value that differs from the one before."""
    import numpy as np

    ordered = np.sort(values, axis=None)
    keep = np.empty(len(ordered), dtype=bool)
    keep[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def row_keys(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.void]:
    """One value per row of the 2-D array ``rows``, equal for equal rows (their bytes):
    rows sorted, matched or made distinct at once, as one array of keys."""
    import numpy as np

    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel()


def matrix_entry(entry: object, row: int, column: int) -> int:
    """A matrix entry as 0 or 1 (bools and int-like objects accepted)."""
    try:
        value = operator.index(entry)  # type: ignore[arg-type]
    except TypeError:
        value = -1
    if value not in (0, 1):
        raise ProblemError(f"entry {entry!r} in row {row}, column {column} is not 0 or 1")
    return value


def indices(solution: object) -> list[int]:
    """A solution given as an iterable of option indices, as a list of ints."""
    if isinstance(solution, str | bytes) or not isinstance(solution, Iterable):
        raise UsageError(f"a solution must be a list of option indices, not {solution!r}")
    return [option_number(option) for option in solution]


def option_number(option: object) -> int:
    """An option index given as an int or int-like object (not a bool)."""
    if type(option) is int:  # the common case, kept fast: no Protocol isinstance check
        return option
    if isinstance(option, bool):
        raise UsageError(f"an option index must be an integer, not {option!r}")
    try:
        return operator.index(option)  # type: ignore[arg-type]
    except TypeError:
        raise UsageError(f"an option index must be an integer, not {option!r}") from None


def check_count_limit(name: str, value: object) -> None:
    """Refuse a limit ``name`` (a number of nodes, solutions, ...) that is neither None nor
    a non-negative int; a bool is refused too."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise UsageError(f"{name} must be a non-negative integer, not {value!r}")


def check_time_limit(name: str, value: object) -> None:
    """Refuse a limit ``name`` in seconds that is neither None nor a non-negative int or
    float; a bool and nan are refused too."""
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0
    ):  # ``not value >= 0`` also refuses nan
        raise UsageError(f"{name} must be a non-negative number, not {value!r}")
