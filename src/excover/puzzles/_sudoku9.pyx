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
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    const void *PyUnicode_DATA(object text)
    object PyUnicode_DecodeLatin1(const char *data, Py_ssize_t size, const char *errors)
    enum: PyUnicode_1BYTE_KIND

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


cdef inline int _read_line(object text, uint8_t *grid):
    """The values of a one-line puzzle of 81 cells ('.' or '0' a blank, '1'-'9'); 0 when
    ``text`` is anything else."""
    cdef const unsigned char *chars
    cdef unsigned char c
    cdef int j
    if type(text) is not str or PyUnicode_GET_LENGTH(text) != 81:
        return 0
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:
        return 0
    chars = <const unsigned char *>PyUnicode_DATA(text)
    for j in range(81):
        c = chars[j]
        if c == 46 or c == 48:  # '.' or '0'
            grid[j] = 0
        elif 49 <= c <= 57:  # '1'..'9'
            grid[j] = c - 48
        else:
            return 0
    return 1


cdef inline int _skipped(object text):
    """Whether a line of a puzzle file holds no puzzle: blank, or a ``#`` comment."""
    cdef const unsigned char *chars
    cdef Py_ssize_t j, n
    if type(text) is not str or PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:
        return 0
    n = PyUnicode_GET_LENGTH(text)
    chars = <const unsigned char *>PyUnicode_DATA(text)
    for j in range(n):
        if chars[j] == 35:  # '#'
            return 1
        if chars[j] not in (32, 9, 12, 11, 13):  # anything but blanks
            return 0
    return 1


def count_plain_lines(list lines):
    """The number of puzzles in ``lines`` when every line is a puzzle of 81 cells
    (``.0123456789``, nothing else on the line) or holds none (blank, or a ``#``
    comment): the lines :func:`run_texts` reads with ``skip=True``; -1 otherwise."""
    cdef uint8_t grid[81]
    cdef Py_ssize_t k, found = 0
    for k in range(len(lines)):
        if _read_line(lines[k], grid):
            found += 1
        elif not _skipped(lines[k]):
            return -1
    return found


def run_texts(list texts, long limit, bint solutions, tuple names=None, bint skip=False):
    """The batch of :func:`run` on one-line puzzles given as text, read and written here.

    Returns ``(counts, firsts)``: each puzzle's count up to ``limit`` (or, with ``names``,
    ``names[min(count, len(names) - 1)]``: the status words of a classification) and,
    with ``solutions``, its first solution as a line of digits (None when it has none;
    with ``solutions`` false, ``firsts`` is None). With ``skip``, blank lines and ``#``
    comments are passed over (they have no entry). Returns None, having solved nothing
    that counts, as soon as a line is not a line of exactly 81 cells in ``.0123456789``:
    the caller then takes its general path, which reads every form and names the
    culprit of an error."""
    cdef Py_ssize_t n = len(texts), k, top = 0
    cdef uint8_t grid[81]
    cdef uint8_t out[81]
    cdef char line[81]
    cdef long ticks = 0, found, branched = 0
    cdef int j
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if names is not None:
        if not names:
            raise ValueError("names must not be empty")
        top = len(names) - 1
    counts = []
    firsts = [] if solutions else None
    for k in range(n):
        if not _read_line(texts[k], grid):
            if skip and _skipped(texts[k]):
                continue
            return None
        found = s9_count(grid, limit, out, _interrupted, &ticks, &branched)
        if found == S9_INTERRUPTED:
            _pass_on()
        counts.append(found if names is None else names[found if found < top else top])
        if solutions:
            if found:
                for j in range(81):
                    line[j] = <char>(48 + out[j])
                firsts.append(PyUnicode_DecodeLatin1(line, 81, NULL))
            else:
                firsts.append(None)
    return counts, firsts
