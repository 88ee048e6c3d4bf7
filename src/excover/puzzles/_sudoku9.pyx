# cython: language_level=3
"""The compiled 9x9 Sudoku core: digit-major band bitboards (see ``_sudoku9.h``).

:func:`run` takes a batch of classic 9x9 puzzles (81 values 0-9 each, 0 a blank,
concatenated) and counts the solutions of each up to ``limit``, writing the first one
over the puzzle in ``out``. The general solver (``_grid.pyx``) handles every other
board; both are cross-checked in the tests.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t

cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals" () noexcept

cdef extern from "_sudoku9.h":
    void s9_init() noexcept nogil
    long s9_count(const uint8_t *grid, long limit, uint8_t *out, int (*check)() noexcept,
                  long *ticks, long *guesses) noexcept
    long S9_INTERRUPTED

s9_init()

cdef int _interrupted() noexcept:
    return check_signals() != 0


cdef int _pass_on() except -1:
    """Returns -1 with the Ctrl-C handler's exception still set: Cython raises it."""
    return -1


@cython.boundscheck(False)
@cython.wraparound(False)
def run(const uint8_t[::1] grids, long limit, uint8_t[::1] out, int32_t[::1] counts,
        int64_t[::1] guesses=None):
    """Counts the solutions of each 81-value puzzle of ``grids`` up to ``limit``, into
    ``counts``; the first solution of each goes over its puzzle in ``out`` (left as it
    was when there is none). ``guesses``, when given, receives each puzzle's branchings.
    Ctrl-C (or any signal handler that raises) stops the batch with the handler's
    exception, ``counts`` and ``out`` filled for the puzzles before."""
    cdef Py_ssize_t n = grids.shape[0] // 81, k
    cdef long ticks = 0, found, branched
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if out.shape[0] < n * 81 or counts.shape[0] < n:
        raise ValueError("out and counts are too short for the batch")
    if guesses is not None and guesses.shape[0] < n:
        raise ValueError("guesses is too short for the batch")
    for k in range(81 * n):
        if grids[k] > 9:
            raise ValueError(f"value {grids[k]} out of range in puzzle {k // 81}")
    for k in range(n):
        branched = 0
        found = s9_count(&grids[81 * k], limit, &out[81 * k], _interrupted, &ticks, &branched)
        if found == S9_INTERRUPTED:
            _pass_on()
        counts[k] = <int32_t>found
        if guesses is not None:
            guesses[k] = branched
