# cython: language_level=3
"""The compiled 9x9 Sudoku core: digit-major band bitboards (see ``_sudoku9.h``).

:func:`run` takes a batch of classic 9x9 puzzles (81 values 0-9 each, 0 a blank,
concatenated) and counts the solutions of each up to ``limit``, writing the first one
over the puzzle in ``out``. The general solver (``_grid.pyx``) handles every other
board; both are cross-checked in the tests.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.string cimport memchr, memcpy, strlen

cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals" () noexcept
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    const void *PyUnicode_DATA(object text)
    object PyUnicode_DecodeLatin1(const char *data, Py_ssize_t size, const char *errors)
    enum: PyUnicode_1BYTE_KIND

cdef extern from "_sudoku9.h":
    void s9_init() noexcept nogil
    long s9_run(const uint8_t *grid, long limit, uint8_t *out, int (*check)() noexcept,
                long *ticks, long *guesses) noexcept
    long S9_INTERRUPTED
    int S9_KERNELS
    const char *s9_kernel_names[]
    int s9_kernel
    int s9_supported(int k) noexcept
    int s9_select(int k) noexcept
    int s9_best() noexcept

s9_init()
s9_select(s9_best())

#: The kernels compiled in, narrowest first (EXCOVER_SIMD's values).
KERNELS = tuple(s9_kernel_names[k].decode("ascii") for k in range(S9_KERNELS))


def supported():
    """The kernels this CPU runs, narrowest first."""
    return tuple(KERNELS[k] for k in range(S9_KERNELS) if s9_supported(k))


def best():
    """The widest kernel this CPU runs: the one in use unless :func:`select` chose another."""
    return KERNELS[s9_best()]


def kernel():
    """The name of the kernel in use."""
    return KERNELS[s9_kernel]


def select(str name):
    """Makes ``name`` the kernel in use. ValueError when it is not one of
    :data:`KERNELS` or this CPU cannot run it."""
    if name not in KERNELS:
        raise ValueError(f"unknown kernel {name!r}")
    if not s9_select(KERNELS.index(name)):
        raise ValueError(f"this CPU cannot run the {name} kernel")

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
        found = s9_run(&grids[81 * k], limit, &out[81 * k], _interrupted, &ticks, &branched)
        if found == S9_INTERRUPTED:
            _pass_on()
        counts[k] = <int32_t>found
        if guesses is not None:
            guesses[k] = branched




# ---------------------------------------------------------------- files of plain lines
#
# A file of one-line 9x9 puzzles is read here as bytes: lines end with '\n' (a '\r' before
# it is dropped); a line is a puzzle (exactly 81 cells in ".0123456789"), or holds none
# (only blanks, or blanks then '#' and a comment in ASCII), or is anything else, which
# sends the whole file to the general reader (it handles every form and names the line
# of an error). A leading UTF-8 byte order mark is skipped.

#: A byte's cell value: '.' and '0' 0, '1'-'9' 1-9, anything else 0xFF (not a cell).
cdef uint8_t _CELL_VALUE[256]
for _byte in range(256):
    _CELL_VALUE[_byte] = 0xFF
_CELL_VALUE[46] = _CELL_VALUE[48] = 0
for _byte in range(49, 58):
    _CELL_VALUE[_byte] = _byte - 48


cdef enum:
    LINE_PUZZLE = 1
    LINE_NONE = 0
    LINE_OTHER = -1


cdef inline int _kind(const unsigned char *line, Py_ssize_t length, uint8_t *grid) noexcept:
    """What a line of a file is (LINE_*); a puzzle's values go to ``grid``."""
    cdef Py_ssize_t j
    cdef unsigned char c
    cdef uint8_t bad = 0
    if length > 0 and line[length - 1] == 13:  # '\r'
        length -= 1
    if length == 81:
        for j in range(81):
            grid[j] = _CELL_VALUE[line[j]]
            bad |= grid[j]
        if not bad & 0x80:
            return LINE_PUZZLE
    for j in range(length):
        c = line[j]
        if c == 35:  # '#': a comment, in ASCII
            for j in range(j + 1, length):
                if line[j] >= 128:
                    return LINE_OTHER
            return LINE_NONE
        if c != 32 and c != 9 and c != 11 and c != 12:
            return LINE_OTHER
    return LINE_NONE


cdef inline int _read_line(object text, uint8_t *grid):
    """The values of a one-line puzzle of 81 cells ('.' or '0' a blank, '1'-'9'); 0 when
    ``text`` is anything else."""
    if type(text) is not str or PyUnicode_GET_LENGTH(text) != 81:
        return 0
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:
        return 0
    return _kind(<const unsigned char *>PyUnicode_DATA(text), 81, grid) == LINE_PUZZLE


cdef inline Py_ssize_t _line_end(const unsigned char *data, Py_ssize_t at, Py_ssize_t n):
    """The position of the '\n' ending the line at ``at`` (``n`` when there is none)."""
    cdef const void *found = memchr(data + at, 10, n - at)
    return n if found == NULL else <Py_ssize_t>(<const unsigned char *>found - data)


cdef inline Py_ssize_t _first_line(const unsigned char[::1] data):
    """Where the first line starts: after a UTF-8 byte order mark, if any."""
    if data.shape[0] >= 3 and data[0] == 0xEF and data[1] == 0xBB and data[2] == 0xBF:
        return 3
    return 0


def count_plain_lines(const unsigned char[::1] data):
    """The number of puzzles in the file ``data`` when every line is a puzzle of 81 cells
    or holds none (see above), -1 otherwise."""
    cdef uint8_t grid[81]
    cdef Py_ssize_t n = data.shape[0], at = _first_line(data), end, found = 0
    cdef int kind
    while at < n:
        end = _line_end(&data[0], at, n)
        kind = _kind(&data[at], end - at, grid)
        if kind == LINE_OTHER:
            return -1
        found += kind
        at = end + 1
    return found


def run_lines(const unsigned char[::1] data, Py_ssize_t at, Py_ssize_t most, bint classify):
    """Solve (or, with ``classify``, count up to 2) the puzzles of the file ``data`` from
    byte ``at`` on, at most ``most`` of them; the file must have passed
    :func:`count_plain_lines`. Returns ``(text, at, done, unsolvable)``: the output
    lines (each solution, or "none"; or "none", "unique", "multiple"), where the next
    call starts (``len(data)`` at the end), the number of puzzles done, and
    ``(index, puzzle)`` for those without solution (their index among the puzzles done,
    their line)."""
    cdef uint8_t grid[81]
    cdef uint8_t out[81]
    cdef Py_ssize_t n = data.shape[0], end, start, done = 0, size = 0, j
    cdef long ticks = 0, found, branched = 0
    cdef const char *word
    cdef Py_ssize_t length
    cdef char *buffer
    if most < 1:
        raise ValueError("most must be at least 1")
    if at == 0:
        at = _first_line(data)
    text = bytearray(82 * most)
    buffer = text
    unsolvable = []
    while at < n and done < most:
        end = _line_end(&data[0], at, n)
        kind = _kind(&data[at], end - at, grid)
        if kind == LINE_OTHER:
            raise ValueError(f"byte {at}: not a plain line (check with count_plain_lines)")
        start, at = at, end + 1
        if kind == LINE_NONE:
            continue
        found = s9_run(grid, 2 if classify else 1, out, _interrupted, &ticks, &branched)
        if found == S9_INTERRUPTED:
            _pass_on()
        if found == 0:
            unsolvable.append((done, bytes(data[start : start + 81]).decode("ascii")))
        done += 1
        if classify or found == 0:
            word = "none" if found == 0 else ("unique" if found == 1 else "multiple")
            length = strlen(word)
            memcpy(buffer + size, word, length)
            size += length
        else:
            for j in range(81):
                buffer[size + j] = <char>(48 + out[j])
            size += 81
        buffer[size] = 10
        size += 1
    return bytes(text[:size]), min(at, n), done, unsolvable


def run_texts(list texts, long limit, bint solutions, tuple names=None):
    """The batch of :func:`run` on one-line puzzles given as text, read and written here.

    Returns ``(counts, firsts)``: each puzzle's count up to ``limit`` (or, with ``names``,
    ``names[min(count, len(names) - 1)]``: the status words of a classification) and,
    with ``solutions``, its first solution as a line of digits (None when it has none;
    with ``solutions`` false, ``firsts`` is None). Returns None, having solved nothing
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
            return None
        found = s9_run(grid, limit, out, _interrupted, &ticks, &branched)
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
