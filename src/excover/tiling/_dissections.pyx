# cython: language_level=3
"""The dissections of a rectangle into connected pieces of one size, counted by a
frontier over the cells (compiled core of :mod:`excover.tiling.dissections`).

The cells are decided row by row, each joining a piece: the piece of the cell above, of
the cell to its left, both (the two pieces meet there and are one), or a new one. The
state after a cell is what the cells still to come can see: for each of the last
``width`` cells decided (the frontier), the piece it is in, numbered in the order the
frontier meets them; each of those pieces' sizes so far; and which pairs of them were
declared different pieces (two neighbours put in different pieces may never join later
through other cells: without this, one dissection would be counted once for each way of
growing its pieces). A pair that could not join anyway (their sizes and a cell between
them over the size) is forgotten, and a piece that leaves the frontier must have the
size. States with the same key are merged, their counts added (128-bit counts).

A key is three words: the pieces of the frontier's cells (4 bits a cell, 0 none), the
sizes (5 bits a piece) and the pairs declared apart (one bit a pair): widths up to 10,
sizes up to 31 (a new piece takes the number 11 before the
key is made, and its pairs still fit the word).
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

__all__ = ["MAX_SIZE", "MAX_WIDTH", "count_dissections"]

#: The widest board the keys hold (the pairs of its pieces, and of a new one, fit a word).
MAX_WIDTH = 10
#: The largest piece the keys hold (5 bits a size).
MAX_SIZE = 31

cdef extern from *:
    """
    typedef unsigned __int128 excover_u128;
    static inline int excover_add_u128(excover_u128 *to, excover_u128 more) {
        return __builtin_add_overflow(*to, more, to);
    }
    """
    ctypedef unsigned long long u128 "excover_u128"
    int add_u128 "excover_add_u128"(u128 *to, u128 more) nogil

cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL


cdef struct Table:
    uint64_t *keys     # 3 words a slot; keys[3 s] == EMPTY: free
    u128 *counts
    int64_t cap        # slots, a power of two
    int64_t n          # slots in use


cdef inline uint64_t _mix(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    cdef uint64_t h = a * 0x9E3779B97F4A7C15ULL
    h ^= (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL
    h ^= (c + 0x8CB92BA72F3D8DD7ULL) * 0x165667B19E3779F9ULL
    h ^= h >> 31
    h *= 0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    return h


cdef class _Counter:
    """The layers of one count: the table of the states after the cells decided, and
    the table being filled from it."""

    cdef Table old, new
    cdef int64_t max_bytes, peak
    cdef int overflowed

    def __cinit__(self, int64_t max_bytes):
        self.max_bytes = max_bytes
        self.peak = 0
        self.overflowed = 0
        memset(&self.old, 0, sizeof(Table))
        memset(&self.new, 0, sizeof(Table))

    def __dealloc__(self):
        free(self.old.keys)
        free(self.old.counts)
        free(self.new.keys)
        free(self.new.counts)

    cdef int _allocate(self, Table *table, int64_t cap) except -1:
        """An empty table of ``cap`` slots (freeing what it held)."""
        cdef int64_t s
        cdef int64_t other = self.old.cap if table == &self.new else self.new.cap
        if self.max_bytes and (cap + other) * (3 * sizeof(uint64_t) + sizeof(u128)) > self.max_bytes:
            from excover.errors import MemoryBoundError

            raise MemoryBoundError(self.max_bytes, "the dissection count")
        free(table.keys)
        free(table.counts)
        table.keys = <uint64_t *>malloc(3 * cap * sizeof(uint64_t))
        table.counts = <u128 *>malloc(cap * sizeof(u128))
        if table.keys == NULL or table.counts == NULL:
            free(table.keys)
            free(table.counts)
            table.keys = NULL
            table.counts = NULL
            table.cap = table.n = 0
            raise MemoryError("the dissection count ran out of memory")
        for s in range(cap):
            table.keys[3 * s] = EMPTY
        table.cap = cap
        table.n = 0
        return 0

    cdef int _add(self, uint64_t a, uint64_t b, uint64_t c, u128 count) except -1:
        """Add ``count`` to the state ``(a, b, c)`` of the new table (grown at half full)."""
        cdef int64_t s, mask
        if 2 * (self.new.n + 1) > self.new.cap:
            self._grow()
        mask = self.new.cap - 1
        s = <int64_t>(_mix(a, b, c) & <uint64_t>mask)
        while self.new.keys[3 * s] != EMPTY:
            if (self.new.keys[3 * s] == a and self.new.keys[3 * s + 1] == b
                    and self.new.keys[3 * s + 2] == c):
                if add_u128(&self.new.counts[s], count):
                    self.overflowed = 1
                return 0
            s = (s + 1) & mask
        self.new.keys[3 * s] = a
        self.new.keys[3 * s + 1] = b
        self.new.keys[3 * s + 2] = c
        self.new.counts[s] = count
        self.new.n += 1
        return 0

    cdef int _grow(self) except -1:
        """Double the new table, its states moved over."""
        cdef Table was = self.new
        cdef int64_t s, t, mask
        memset(&self.new, 0, sizeof(Table))
        try:
            self._allocate(&self.new, 2 * was.cap if was.cap else 1024)
        except BaseException:
            free(self.new.keys)
            free(self.new.counts)
            self.new = was
            raise
        mask = self.new.cap - 1
        for s in range(was.cap):
            if was.keys[3 * s] == EMPTY:
                continue
            t = <int64_t>(_mix(was.keys[3 * s], was.keys[3 * s + 1], was.keys[3 * s + 2])
                          & <uint64_t>mask)
            while self.new.keys[3 * t] != EMPTY:
                t = (t + 1) & mask
            self.new.keys[3 * t] = was.keys[3 * s]
            self.new.keys[3 * t + 1] = was.keys[3 * s + 1]
            self.new.keys[3 * t + 2] = was.keys[3 * s + 2]
            self.new.counts[t] = was.counts[s]
            self.new.n += 1
        free(was.keys)
        free(was.counts)
        return 0

    cdef void _swap(self) noexcept:
        """The new table becomes the old one; the old one is emptied for reuse."""
        cdef Table was = self.old
        cdef int64_t s
        self.old = self.new
        self.new = was
        for s in range(self.new.cap):
            self.new.keys[3 * s] = EMPTY
        self.new.n = 0
        if self.old.n > self.peak:
            self.peak = self.old.n


cdef inline int _pair(int a, int b) noexcept nogil:
    """The bit of the pair of pieces ``a`` and ``b`` (numbered from 1, different)."""
    if a > b:
        a, b = b, a
    return (b - 1) * (b - 2) // 2 + (a - 1)


cdef int _step(_Counter counter, int width, int size, int column, uint64_t key_a,
               uint64_t key_b, uint64_t key_c, u128 count) except -1:
    """Every way the cell in ``column`` goes on from one state, added to the new table."""
    cdef int labels[16]
    cdef int sizes[16]
    cdef int order[16]
    cdef int work[16]
    cdef int grown[16]
    cdef int pieces = 0, k, j, up, left, choice, x, merged, total
    cdef uint64_t apart, free_pairs, a, b, c
    for k in range(width):
        labels[k] = (key_a >> (4 * k)) & 15
        if labels[k] > pieces:
            pieces = labels[k]
    for k in range(1, pieces + 1):
        sizes[k] = (key_b >> (5 * (k - 1))) & 31
    up = labels[column]
    left = labels[column - 1] if column > 0 else 0
    for choice in range(4):
        # 0: a new piece; 1: the piece above; 2: the piece to the left; 3: both, joined
        if choice == 1 and up == 0:
            continue
        if choice >= 2 and (left == 0 or left == up):
            continue
        if choice == 3 and up == 0:
            continue
        for k in range(width):
            work[k] = labels[k]
        for k in range(1, pieces + 1):
            grown[k] = sizes[k]
        apart = key_c
        if choice == 0:
            x = pieces + 1
            grown[x] = 1
            if up:
                apart |= (<uint64_t>1) << _pair(up, x)
            if left:
                apart |= (<uint64_t>1) << _pair(left, x)
        elif choice == 1:
            if grown[up] >= size:
                continue
            x = up
            grown[up] += 1
            if left and left != up:
                apart |= (<uint64_t>1) << _pair(up, left)
        elif choice == 2:
            if grown[left] >= size:
                continue
            x = left
            grown[left] += 1
            if up:
                apart |= (<uint64_t>1) << _pair(up, left)
        else:
            if (key_c >> _pair(up, left)) & 1 or grown[up] + grown[left] + 1 > size:
                continue
            x = up
            grown[up] += grown[left] + 1
            for k in range(width):
                if work[k] == left:
                    work[k] = up
            # the pairs apart from the piece to the left are apart from the joined one
            for k in range(1, pieces + 1):
                if k != left and k != up and (key_c >> _pair(left, k)) & 1:
                    apart |= (<uint64_t>1) << _pair(up, k)
        work[column] = x
        if up:
            # the cell above leaves the frontier: its piece is done if no cell holds it
            merged = 0
            for k in range(width):
                if work[k] == up:
                    merged = 1
                    break
            if not merged and grown[up] != size:
                continue
        # the key of the state reached, its pieces numbered in the frontier's order
        for k in range(pieces + 2):
            order[k] = 0
        total = 0
        a = 0
        for k in range(width):
            if work[k]:
                if order[work[k]] == 0:
                    total += 1
                    order[work[k]] = total
                a |= (<uint64_t>order[work[k]]) << (4 * k)
        b = 0
        for k in range(1, pieces + 2):
            if order[k]:
                b |= (<uint64_t>grown[k]) << (5 * (order[k] - 1))
        c = 0
        for k in range(1, pieces + 2):
            if not order[k]:
                continue
            for j in range(k + 1, pieces + 2):
                if (order[j] and (apart >> _pair(k, j)) & 1
                        and grown[k] + grown[j] + 1 <= size):
                    c |= (<uint64_t>1) << _pair(order[k], order[j])
        counter._add(a, b, c, count)
    return 0


cdef bint _complete(uint64_t key_a, uint64_t key_b, int width, int size) noexcept:
    """Whether every piece of the frontier of a state has the size (the board's end)."""
    cdef int k, label
    for k in range(width):
        label = (key_a >> (4 * k)) & 15
        if label and <int>((key_b >> (5 * (label - 1))) & 31) != size:
            return False
    return True


def count_dissections(int height, int width, int size, int64_t max_bytes=0, tick=None):
    """The number of dissections of the ``height`` x ``width`` rectangle into connected
    pieces of ``size`` cells, and the most states a layer held: ``(count, peak)``.
    ``max_bytes`` (0: none) bounds the two tables (past it, MemoryBoundError);
    ``tick(cells_done, cells, states)`` is called after each cell."""
    cdef _Counter counter = _Counter(max_bytes)
    cdef int row, column, k
    cdef int64_t s, done = 0
    cdef u128 total = 0
    if not 1 <= width <= MAX_WIDTH or not 1 <= size <= MAX_SIZE or height < 0:
        raise ValueError(f"a width of 1 to {MAX_WIDTH} and a size of 1 to {MAX_SIZE}")
    counter._allocate(&counter.old, 1024)
    counter._allocate(&counter.new, 1024)
    counter.old.keys[0] = counter.old.keys[1] = counter.old.keys[2] = 0
    counter.old.counts[0] = 1
    counter.old.n = 1
    for row in range(height):
        for column in range(width):
            for s in range(counter.old.cap):
                if counter.old.keys[3 * s] == EMPTY:
                    continue
                _step(counter, width, size, column, counter.old.keys[3 * s],
                      counter.old.keys[3 * s + 1], counter.old.keys[3 * s + 2],
                      counter.old.counts[s])
                done += 1
                if not done & 0xFFFFF:
                    PyErr_CheckSignals()
            counter._swap()
            if tick is not None:
                tick(row * width + column + 1, height * width, counter.old.n)
            PyErr_CheckSignals()
    if counter.overflowed:
        raise OverflowError("the count passed 2**128")
    for s in range(counter.old.cap):
        if counter.old.keys[3 * s] != EMPTY and _complete(
                counter.old.keys[3 * s], counter.old.keys[3 * s + 1], width, size):
            total += counter.old.counts[s]
    return (int(<uint64_t>(total >> 64)) << 64) | int(<uint64_t>total), counter.peak
