# cython: language_level=3
"""The tilings of a box by rectangles of distinct keys, counted by their states (the
compiled core of :mod:`excover.tiling.rectangles`, whose text says how; the C code is
``_rectangles.h``)."""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free

from excover.errors import MemoryBoundError, ResourceLimitError

__all__ = ["MAX_CELLS", "MAX_KEYS", "MAX_SIDE", "count_states"]

cdef extern from "_rectangles.h" nogil:
    int EXR_MAX_SIDE
    int EXR_MAX_RW
    int EXR_MAX_KW
    ctypedef struct ExrList:
        uint64_t* words
        int64_t n
        int64_t cap
    ctypedef struct ExrRun:
        int rows, cols, rw, kw, width, n_keys
        int key_of[63][63]
        int* shape_start
        int* shape_hw
        uint64_t fits[63][63][4]
        uint64_t* small
        uint64_t full, column_full
        unsigned char rev8[256]
        int mirrors
        int turns
        int* turned_key
        uint64_t row_bits[64]
        uint64_t col_bits[63]
        ExrList* lists
        uint64_t* slots
        int64_t slot_cap
        int64_t bytes, max_bytes
        int over_bytes, overflow
        uint64_t tilings
        int64_t states, expanded, merged
    int exr_corners(ExrRun* t, int transposes)
    int exr_emit(ExrRun* t, int reach, int left, const uint64_t* keys, uint64_t count)
    int64_t exr_merge(ExrRun* t, int left)
    int exr_expand(ExrRun* t, int left, const uint64_t* state)
    void exr_free_list(ExrRun* t, int left)

#: The longest side of a box.
MAX_SIDE = EXR_MAX_SIDE
#: The most keys.
MAX_KEYS = 64 * EXR_MAX_KW
#: The most cells of a box (a state's cells and its box's sides fit 64 x 4 bits).
MAX_CELLS = 64 * EXR_MAX_RW - 16

#: States expanded between two looks for Ctrl-C.
cdef int64_t SLICE = 4096


def count_states(int rows, int cols, shapes, int n_keys, bint corners, turned=None,
                 tick=None, int64_t max_bytes=0):
    """The tilings of the ``rows`` x ``cols`` box by the rectangles ``shapes`` (triples
    ``(height, width, key)``, keys numbered from 0 below ``n_keys``, each key used at most
    once), and the states expanded: with ``corners``, from one choice of the four corner
    rectangles of each orbit under the box's mirrors, each state merged with its mirror
    images (without, from the empty box, each state as it is). ``turned`` (a square whose rule a
    quarter turn keeps: per key, the key of its rectangles turned) adds the quarter turns,
    to the corners and to the states merged. ``tick(cells_done, cells, states)`` hears
    after each number of cells left; ``max_bytes`` (0: none) bounds the lists and the
    table (MemoryBoundError past it)."""
    cdef ExrRun* t = <ExrRun*>calloc(1, sizeof(ExrRun))
    cdef int i, left, cells = rows * cols, status = 0
    cdef int64_t n, u
    cdef uint64_t keys[4]
    if t == NULL:
        raise MemoryError("cannot allocate the rectangle count")
    try:
        _setup(t, rows, cols, shapes, n_keys, max_bytes, turned)
        t.mirrors = corners
        with nogil:
            if corners:
                status = exr_corners(t, t.turns)
            else:
                for i in range(t.kw):
                    keys[i] = ~(<uint64_t>0)
                status = exr_emit(t, rows, cells, keys, 1)
        if status < 0:
            _failed(t)
        for left in range(cells, 0, -1):
            if t.lists[left].n == 0:
                continue
            with nogil:
                n = exr_merge(t, left)
            if n < 0:
                _failed(t)
            t.states += n
            u = 0
            while u < n:
                with nogil:
                    while u < n:
                        if exr_expand(t, left, t.lists[left].words + u * t.width) < 0:
                            status = -1
                            break
                        u += 1
                        if u % SLICE == 0:
                            break
                if status < 0:
                    _failed(t)
                PyErr_CheckSignals()
            exr_free_list(t, left)
            if t.overflow:
                raise ResourceLimitError("the count of tilings passed 2**64")
            if tick is not None:
                tick(cells - left + 1, cells, n)
        if t.overflow:
            raise ResourceLimitError("the count of tilings passed 2**64")
        return int(t.tilings), int(t.states)
    finally:
        if t.lists != NULL:
            for left in range(cells + 1):
                exr_free_list(t, left)
        free(t.lists)
        free(t.slots)
        free(t.small)
        free(t.shape_start)
        free(t.shape_hw)
        free(t.turned_key)
        free(t)


cdef _failed(ExrRun* t):
    if t.over_bytes:
        raise MemoryBoundError(t.max_bytes, "the rectangle count")
    raise MemoryError("cannot grow the rectangle count's lists")


cdef _setup(ExrRun* t, int rows, int cols, shapes, int n_keys, int64_t max_bytes, turned):
    """Fill ``t`` for the problem (the caller has checked its sizes)."""
    cdef int cells = rows * cols, h, w, k, q, i, a, bh, bw
    cdef list by_key = [[] for _ in range(n_keys)]
    t.rows = rows
    t.cols = cols
    t.rw = (cells + 16 + 63) // 64
    t.kw = max(1, (n_keys + 63) // 64)
    t.width = t.rw + t.kw + 1
    t.n_keys = n_keys
    t.max_bytes = max_bytes
    for i in range(256):
        t.rev8[i] = sum(((i >> b) & 1) << (7 - b) for b in range(8))
    t.full = ((<uint64_t>1) << cols) - 1
    t.column_full = ((<uint64_t>1) << rows) - 1
    for h in range(63):
        for w in range(63):
            t.key_of[h][w] = -1
    for h, w, k in shapes:
        t.key_of[h][w] = k
        by_key[k].append((h, w))
    t.shape_start = <int*>calloc(n_keys + 1, sizeof(int))
    t.shape_hw = <int*>calloc(2 * max(1, len(shapes)), sizeof(int))
    t.small = <uint64_t*>calloc((cells + 1) * t.kw, sizeof(uint64_t))
    t.lists = <ExrList*>calloc(cells + 1, sizeof(ExrList))
    if t.shape_start == NULL or t.shape_hw == NULL or t.small == NULL or t.lists == NULL:
        raise MemoryError("cannot allocate the rectangle count")
    if turned is not None:
        t.turned_key = <int*>calloc(64 * t.kw, sizeof(int))
        if t.turned_key == NULL:
            raise MemoryError("cannot allocate the rectangle count")
        for k in range(64 * t.kw):  # the bits past the last key stay where they are
            t.turned_key[k] = turned[k] if k < n_keys else k
        t.turns = 1
    i = 0
    for k in range(n_keys):
        t.shape_start[k] = i
        for h, w in by_key[k]:
            t.shape_hw[2 * i] = h
            t.shape_hw[2 * i + 1] = w
            i += 1
    t.shape_start[n_keys] = i
    for bh in range(1, rows + 1):
        for bw in range(1, cols + 1):
            for h, w, k in shapes:
                if h <= bh and w <= bw:
                    t.fits[bh][bw][k >> 6] |= (<uint64_t>1) << (k & 63)
    for h, w, k in shapes:
        for a in range(h * w, cells + 1):
            t.small[a * t.kw + (k >> 6)] |= (<uint64_t>1) << (k & 63)
