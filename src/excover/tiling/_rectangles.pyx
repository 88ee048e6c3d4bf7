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
        int64_t n
    ctypedef struct ExrRun:
        int kw
        uint64_t fits[63][63][4]
        int turns
        ExrList* lists
        int64_t max_bytes
        int over_bytes, overflow
        uint64_t tilings
        int64_t states
    int exr_init(ExrRun* t, int rows, int cols, const int* shapes, int n_shapes, int n_keys,
                 int mirrors, int turns, int packed, int64_t max_bytes, int target)
    void exr_release(ExrRun* t)
    int exr_corners(ExrRun* t, int transposes, int part, int parts)
    int exr_emit_board(ExrRun* t, int reach, int left, uint64_t* shapes, uint64_t count,
                       int budget)
    int64_t exr_merge(ExrRun* t, int left)
    int exr_expand_state(ExrRun* t, int left, int64_t i)
    void exr_free_list(ExrRun* t, int left)

#: The longest side of a box.
MAX_SIDE = EXR_MAX_SIDE
#: The most keys.
MAX_KEYS = 64 * EXR_MAX_KW
#: The most cells of a box (a state's cells and its box's sides fit 64 x 4 bits).
MAX_CELLS = 64 * EXR_MAX_RW - 16

#: States expanded between two looks for Ctrl-C.
cdef int64_t SLICE = 4096


def count_states(int rows, int cols, shapes, int n_keys, bint corners, bint turns=False,
                 tick=None, int64_t max_bytes=0, bint packed=True, int target=-1,
                 int part=0, int parts=1):
    """The tilings of the ``rows`` x ``cols`` box by the rectangles ``shapes`` (triples
    ``(height, width, key)``, keys numbered from 0 below ``n_keys``, each key used at most
    once, each shape once and fitting the box), and the states expanded: with ``corners``,
    from one choice of the four corner rectangles of each orbit under the box's mirrors,
    each state merged with its mirror images (without, from the empty box, each state as
    it is). ``turns`` (a square whose rule a quarter turn keeps: the key of a rectangle
    on its side a function of the key of the rectangle upright) adds the quarter turns,
    to the corners and to the states merged. ``tick(cells_done, cells, states)`` hears
    after each number of cells left; ``max_bytes`` (0: none) bounds the lists and the
    table (MemoryBoundError past it). ``packed``: a board of at most 8 x 8 cells keeps
    each state's region in one word (``_rectangles8.h``); False keeps it row by row, as
    larger boards do (the tests compare the two). ``target`` (-1: none) counts only the
    tilings whose rectangles' ``height + width`` sum to it (half the sum of their
    perimeters): each state keeps what is left of it, a state whose region's half
    perimeter is more than that is dropped, and a shape is usable only while its
    ``height + width`` is at most what is left. At most ``2 rows cols`` (the caller
    answers 0 past it). ``part`` of ``parts`` (with ``corners``) starts from every
    ``parts``-th orbit of the corner choices only, from the ``part``-th on: the counts
    of the ``parts`` shares add up to the whole."""
    cdef ExrRun* t = <ExrRun*>calloc(1, sizeof(ExrRun))
    cdef int* triples = <int*>calloc(3 * max(1, len(shapes)), sizeof(int))
    cdef int i, left, cells = rows * cols, status = 0
    cdef int64_t n, u
    cdef uint64_t first[4]
    if parts < 1 or not 0 <= part < parts or (parts > 1 and not corners):
        free(t)
        free(triples)
        raise ValueError(f"part {part} of {parts} (with corners only)")
    if target > 2 * cells:
        free(t)
        free(triples)
        raise ValueError(f"target {target} past 2 * cells = {2 * cells}")
    if t == NULL or triples == NULL:
        free(t)
        free(triples)
        raise MemoryError("cannot allocate the rectangle count")
    try:
        for i, (h, w, k) in enumerate(shapes):
            triples[3 * i] = h
            triples[3 * i + 1] = w
            triples[3 * i + 2] = k
        if exr_init(t, rows, cols, triples, len(shapes), n_keys, corners, turns, packed,
                    max_bytes, target) < 0:
            raise MemoryError("cannot allocate the rectangle count")
        with nogil:
            if corners:
                status = exr_corners(t, t.turns, part, parts)
            else:
                for i in range(t.kw):
                    first[i] = t.fits[rows][cols][i]
                status = exr_emit_board(t, rows, cells, first, 1, target)
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
                        if exr_expand_state(t, left, u) < 0:
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
        exr_release(t)
        free(t)
        free(triples)


cdef _failed(ExrRun* t):
    if t.over_bytes:
        raise MemoryBoundError(t.max_bytes, "the rectangle count")
    raise MemoryError("cannot grow the rectangle count's lists")
