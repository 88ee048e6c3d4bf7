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
size. States with the same key are merged, their counts added.

A key is one 128-bit number: the piece of each frontier cell (4 bits a cell, 0 none),
then each piece's size (as many bits as the size needs), then one bit for each pair of
pieces declared apart; it must fit 128 bits (a width of 10 with pieces of up to 15
cells, 9 with up to 31). A state takes 24 bytes (its key and a 64-bit count) in an
open-addressing table kept at most 70% full, whose empty slots have a count of 0.
"""

from cpython.buffer cimport PyBUF_READ
from cpython.exc cimport PyErr_CheckSignals
from cpython.memoryview cimport PyMemoryView_FromMemory
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.stdio cimport FILE, SEEK_SET, fclose, fopen, fread, fseek

import errno
import os
import time

__all__ = [
    "HEADER_WORDS", "KEY_BITS", "MAGIC", "MAX_CELLS", "MAX_SIZE", "MAX_WIDTH", "checksum",
    "count_dissections", "key_bits",
]

#: The widest board the keys hold (its pieces numbered in 4 bits, the pairs of its
#: pieces and of a new one in a word).
MAX_WIDTH = 10
#: The largest piece a key holds (5 bits a size).
MAX_SIZE = 31
#: The bits of a key.
KEY_BITS = 128
#: The most cells of a board: far past any count that could finish (each cell is a pass
#: over a layer of states), and a bound that keeps the arithmetic of cells from overflowing.
MAX_CELLS = 2**31 - 1

cdef extern from *:
    """
    #include <stdint.h>
    typedef unsigned __int128 excover_u128;
    static inline int excover_add_u64(uint64_t *to, uint64_t more) {
        return __builtin_add_overflow(*to, more, to);
    }
    static inline long long excover_slot(excover_u128 key, long long cap) {
        unsigned long long h = (unsigned long long)key * 0x9E3779B97F4A7C15ULL;
        h ^= (unsigned long long)(key >> 64) * 0xC2B2AE3D27D4EB4FULL;
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 32;
        return (long long)(((excover_u128)h * (unsigned long long)cap) >> 64);
    }
    """
    ctypedef unsigned long long u128 "excover_u128"
    int add_u64 "excover_add_u64"(uint64_t *to, uint64_t more) nogil
    int64_t slot_of "excover_slot"(u128 key, int64_t cap) nogil


cdef enum:
    FULL_TENTHS = 7   # the tenths of a table's slots in use past which it grows by half


cdef struct Table:
    u128 *keys
    uint64_t *counts    # 0: the slot is free
    int64_t cap         # slots
    int64_t n           # slots in use


cdef struct Layout:
    int width, size
    int size_bits       # bits of a size
    int sizes_at        # the first bit of the sizes
    int pairs_at        # the first bit of the pairs
    uint64_t size_mask


cdef class _Counter:
    """The layers of one count: the states after the cells decided (``old``, dense: its
    ``n`` slots all in use), and the hash table being filled from them (``new``, made
    for a fifth more states than ``old`` holds, grown when it must be). Between two
    cells the new table is packed into the dense form and shrunk, so that a layer's
    states cost 24 bytes each while the next layer is made."""

    cdef Table old, new
    cdef int64_t max_bytes, peak
    cdef int overflowed

    def __cinit__(self, int64_t max_bytes):
        self.max_bytes = max_bytes   # the rest starts zeroed: no tables, peak or overflow

    def __dealloc__(self):
        free(self.old.keys)
        free(self.old.counts)
        free(self.new.keys)
        free(self.new.counts)

    cdef int _allocate(self, Table *table, int64_t cap, int64_t besides) except -1:
        """``table`` made an empty table of ``cap`` slots (what it held is not freed:
        the caller does), ``besides`` other slots held meanwhile (for the bound)."""
        cdef int64_t slot_bytes = sizeof(u128) + sizeof(uint64_t)
        _bounded(self.max_bytes, cap + besides, slot_bytes, "the dissection count")
        table.keys = <u128 *>malloc(cap * sizeof(u128))
        table.counts = <uint64_t *>calloc(cap, sizeof(uint64_t))
        if table.keys == NULL or table.counts == NULL:
            free(table.keys)
            free(table.counts)
            table.keys = NULL
            table.counts = NULL
            table.cap = table.n = 0
            raise MemoryError("the dissection count ran out of memory")
        table.cap = cap
        table.n = 0
        return 0

    cdef inline int _add(self, u128 key, uint64_t count) except -1:
        """Add ``count`` to the state ``key`` of the new table (grown past 70% full)."""
        cdef int64_t s
        if 10 * (self.new.n + 1) > FULL_TENTHS * self.new.cap:
            self._grow()
        s = slot_of(key, self.new.cap)
        while self.new.counts[s]:
            if self.new.keys[s] == key:
                if add_u64(&self.new.counts[s], count):
                    self.overflowed = 1
                return 0
            s += 1
            if s == self.new.cap:
                s = 0
        self.new.keys[s] = key
        self.new.counts[s] = count
        self.new.n += 1
        return 0

    cdef int _grow(self) except -1:
        """The new table made half as big again, its states moved over."""
        cdef Table was = self.new
        cdef int64_t s, t
        try:
            self._allocate(&self.new, was.cap + was.cap // 2 + 1024, was.cap + self.old.cap)
        except BaseException:
            self.new = was  # kept, so that it is freed with the counter
            raise
        for s in range(was.cap):
            if not was.counts[s]:
                continue
            t = slot_of(was.keys[s], self.new.cap)
            while self.new.counts[t]:
                t += 1
                if t == self.new.cap:
                    t = 0
            self.new.keys[t] = was.keys[s]
            self.new.counts[t] = was.counts[s]
            self.new.n += 1
        free(was.keys)
        free(was.counts)
        return 0

    cdef void _pack(self) noexcept:
        """The new table, packed and shrunk, becomes the old one (the old one freed); the
        new table is left empty (``_renew`` makes it)."""
        cdef int64_t s, k = 0
        cdef u128 *keys
        cdef uint64_t *counts
        free(self.old.keys)
        free(self.old.counts)
        for s in range(self.new.cap):
            if self.new.counts[s]:
                self.new.keys[k] = self.new.keys[s]
                self.new.counts[k] = self.new.counts[s]
                k += 1
        keys = <u128 *>realloc(self.new.keys, max(k, 1) * sizeof(u128))
        counts = <uint64_t *>realloc(self.new.counts, max(k, 1) * sizeof(uint64_t))
        # shrinking cannot fail for want of memory, but realloc may say it did
        self.old.keys = keys if keys != NULL else self.new.keys
        self.old.counts = counts if counts != NULL else self.new.counts
        self.old.cap = self.old.n = k
        self.new.keys = NULL
        self.new.counts = NULL
        self.new.cap = self.new.n = 0


cdef inline int _pair(int a, int b) noexcept nogil:
    """The bit of the pair of pieces ``a`` and ``b`` (numbered from 1, different)."""
    if a > b:
        a, b = b, a
    return (b - 1) * (b - 2) // 2 + (a - 1)


cdef int _step(_Counter counter, const Layout *at, int column, u128 key,
               uint64_t count) except -1:
    """Every way the cell in ``column`` goes on from the state ``key``, added to the new
    table."""
    cdef int labels[16]
    cdef int sizes[16]
    cdef int order[16]
    cdef int work[16]
    cdef int grown[16]
    cdef int width = at.width, size = at.size
    cdef int pieces = 0, k, j, up, left, choice, x, merged, total
    cdef uint64_t apart, held = <uint64_t>(key >> at.pairs_at), c
    cdef u128 made
    for k in range(width):
        labels[k] = <int>(key >> (4 * k)) & 15
        if labels[k] > pieces:
            pieces = labels[k]
    for k in range(1, pieces + 1):
        sizes[k] = <int>((key >> (at.sizes_at + at.size_bits * (k - 1))) & at.size_mask)
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
        apart = held
        if choice == 0:
            x = pieces + 1
            grown[x] = 1
            if up:
                apart |= (<uint64_t>1) << _pair(up, x)
            if left:
                apart |= (<uint64_t>1) << _pair(left, x)
        elif choice <= 2:
            # the piece above (1) or to the left (2) grows; the other one, if a piece
            # and another, is kept apart from it
            x = up if choice == 1 else left
            if grown[x] >= size:
                continue
            grown[x] += 1
            if up and left and up != left:
                apart |= (<uint64_t>1) << _pair(up, left)
        else:
            if (held >> _pair(up, left)) & 1 or grown[up] + grown[left] + 1 > size:
                continue
            x = up
            grown[up] += grown[left] + 1
            for k in range(width):
                if work[k] == left:
                    work[k] = up
            # the pairs apart from the piece to the left are apart from the joined one
            for k in range(1, pieces + 1):
                if k != left and k != up and (held >> _pair(left, k)) & 1:
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
        made = 0
        for k in range(width):
            if work[k]:
                if order[work[k]] == 0:
                    total += 1
                    order[work[k]] = total
                made |= (<u128>order[work[k]]) << (4 * k)
        for k in range(1, pieces + 2):
            if order[k]:
                made |= (<u128>grown[k]) << (at.sizes_at + at.size_bits * (order[k] - 1))
        c = 0
        for k in range(1, pieces + 2):
            if not order[k]:
                continue
            for j in range(k + 1, pieces + 2):
                if (order[j] and (apart >> _pair(k, j)) & 1
                        and grown[k] + grown[j] + 1 <= size):
                    c |= (<uint64_t>1) << _pair(order[k], order[j])
        made |= (<u128>c) << at.pairs_at
        counter._add(made, count)
    return 0


cdef bint _valid(u128 key, const Layout *at) noexcept:
    """Whether ``key`` is a state's key of the layout ``at`` as ``_step`` makes them (a
    key read from a file must be: ``_step`` indexes arrays of 16 by its pieces): the
    frontier's pieces numbered 1, 2, ... in the order it meets them (so at most the
    width), each of a size of 1 to the size and the unused sizes 0, pairs only of its
    pieces and no bit past them."""
    cdef int k, label, pieces = 0
    cdef uint64_t cells
    for k in range(at.width):
        label = <int>(key >> (4 * k)) & 15
        if label > pieces + 1:
            return False
        if label == pieces + 1:
            pieces = label
    for k in range(at.width):
        cells = <uint64_t>(key >> (at.sizes_at + at.size_bits * k)) & at.size_mask
        if k < pieces and not 1 <= cells <= <uint64_t>at.size:
            return False
        if k >= pieces and cells:
            return False
    # nothing past the pairs of its pieces (two shifts, each by fewer than 128 bits)
    return (key >> at.pairs_at) >> (pieces * (pieces - 1) // 2) == 0


cdef bint _complete(u128 key, const Layout *at) noexcept:
    """Whether every piece of the frontier of a state has the size (the board's end)."""
    cdef int k, label
    for k in range(at.width):
        label = <int>(key >> (4 * k)) & 15
        if label and <int>((key >> (at.sizes_at + at.size_bits * (label - 1)))
                           & at.size_mask) != at.size:
            return False
    return True


def key_bits(int width, int size):
    """The bits of a key of the count of a board ``width`` cells across into pieces of
    ``size`` cells (at most :data:`KEY_BITS`)."""
    return 4 * width + size.bit_length() * width + width * (width - 1) // 2


#: The first bytes of a checkpoint file of the count, and the header's 64-bit words after
#: them: height, width, size, cells done, states, checksum. The header's words and the
#: records after it (a key's low and high words and its count) are in the machine's byte
#: order.
MAGIC = b"excover-dissect2"
HEADER_WORDS = 6
cdef const char *MAGIC_BYTES = b"excover-dissect2"
cdef enum:
    WORDS = 6                    # HEADER_WORDS, for C
    CHUNK_RECORDS = 1 << 16      # records written or read at a time (24 bytes each)

include "_checkpoints.pxi"


cdef inline uint64_t _record_sum(uint64_t lo, uint64_t hi, uint64_t count) noexcept nogil:
    """A record's share of a checkpoint's checksum: the records' shares are added
    (modulo 2**64), so that their order does not matter, and each mixes its three
    words, so that a change of records (two counts swapped between them, which a sum
    of terms linear in each word kept) keeps the sum only by a chance of 2**-64."""
    return _mixed(_mixed(_mixed(0, lo), hi), count)


def checksum(words, records):
    """The checksum of a checkpoint whose header starts with ``words`` (height, width,
    size, cells done, states: the words before the checksum) and whose records are
    ``records`` (a key's low and high words and its count, each): what a file made by
    hand (a test's) must hold."""
    cdef uint64_t header[WORDS]
    cdef uint64_t total = 0
    cdef int k
    for k in range(WORDS - 1):
        header[k] = words[k]
    for lo, hi, count in records:
        total += _record_sum(lo, hi, count)
    return _sealed(total, header)


cdef uint64_t *_chunk() except NULL:
    """A buffer of :data:`CHUNK_RECORDS` records (the caller frees it)."""
    cdef uint64_t *chunk = <uint64_t *>malloc(3 * CHUNK_RECORDS * sizeof(uint64_t))
    if chunk == NULL:
        raise MemoryError("the dissection count's checkpoint")
    return chunk


cdef int _save(_Counter counter, out, int64_t height, int64_t width, int64_t size,
               int64_t done) except -1:
    """Write the states after ``done`` cells (the old table) to the binary stream
    ``out`` (to its file descriptor: its buffer holds nothing): :data:`MAGIC`, the
    header, then a key's two words and the count of each state."""
    cdef int descriptor = out.fileno()
    cdef int64_t s, k = 0
    cdef uint64_t header[WORDS]
    cdef uint64_t total = 0
    cdef uint64_t *chunk
    for s in range(counter.old.cap):
        if counter.old.counts[s]:
            total += _record_sum(<uint64_t>counter.old.keys[s],
                                 <uint64_t>(counter.old.keys[s] >> 64), counter.old.counts[s])
    header[0], header[1], header[2] = height, width, size
    header[3], header[4] = done, counter.old.n
    header[5] = _sealed(total, header)
    chunk = _chunk()
    try:
        _write(descriptor, MAGIC_BYTES, 16)
        _write(descriptor, header, WORDS * sizeof(uint64_t))
        for s in range(counter.old.cap):
            if not counter.old.counts[s]:
                continue
            chunk[3 * k] = <uint64_t>counter.old.keys[s]
            chunk[3 * k + 1] = <uint64_t>(counter.old.keys[s] >> 64)
            chunk[3 * k + 2] = counter.old.counts[s]
            k += 1
            if k == CHUNK_RECORDS:
                _write(descriptor, chunk, k * 3 * sizeof(uint64_t))
                k = 0
        if k:
            _write(descriptor, chunk, k * 3 * sizeof(uint64_t))
    finally:
        free(chunk)
    return 0


cdef int _load(_Counter counter, bytes path, const Layout *at, const uint64_t *header) except -1:
    """Read the records of the checkpoint ``path``, whose ``header`` the caller read and
    checked against the board, into the old table; a short file, a key that is not one
    of the layout ``at`` or a wrong checksum is a DamagedCheckpoint."""
    cdef FILE *source
    cdef int64_t left = header[4], k, got
    cdef uint64_t total = 0
    cdef uint64_t *chunk = _chunk()
    cdef u128 key
    source = _records(path, chunk, &left)
    try:
        while left > 0:
            got = fread(chunk, 3 * sizeof(uint64_t), min(left, <int64_t>CHUNK_RECORDS), source)
            if got <= 0:
                break
            for k in range(got):
                key = (<u128>chunk[3 * k + 1] << 64) | chunk[3 * k]
                if not chunk[3 * k + 2] or not _valid(key, at):
                    left = -1
                    break
                total += _record_sum(chunk[3 * k], chunk[3 * k + 1], chunk[3 * k + 2])
                counter._add(key, chunk[3 * k + 2])
            if left < 0:
                break
            left -= got
            PyErr_CheckSignals()   # a load of gigabytes stops on Ctrl-C
    finally:
        fclose(source)
        free(chunk)
    return _loaded(counter, path, left, total, header)


cdef int _overflowed() except -1:
    """Raise the ResourceLimitError of a count past 2**64 (an OverflowError raised by
    anything else, a tick, goes on as it is)."""
    from excover.errors import ResourceLimitError

    raise ResourceLimitError(
        "the dissection count passed 2**64, the most a state's count holds")


cdef int64_t _kept(_Counter counter, save, int64_t height, int width, int size,
                   int64_t finished) except -1:
    """The states after ``finished`` cells written to the file ``save()`` opens
    (a ``with`` block: :func:`excover.atomic.replacing`, which puts it in place at its
    end): ``finished``, the layer on disk now."""
    with save() as out:
        _save(counter, out, height, width, size, finished)
    return finished


def count_dissections(int64_t height, int width, int size, int64_t max_bytes=0, tick=None,
                      resume=None, save=None, double every=0.0):
    """The number of dissections of the ``height`` x ``width`` rectangle into connected
    pieces of ``size`` cells, and the most states a layer held: ``(count, peak)``.
    ``max_bytes`` (0: none) bounds the two tables (past it, MemoryBoundError);
    ``tick(cells_done, cells, states)`` is called after each cell. A count past 2**64
    raises ResourceLimitError.

    A checkpoint: ``resume`` (an :class:`~excover.tiling.resume.Resume`: a file's path
    and its header's words, which the caller read) starts from its states after the
    cells it has done; ``save()`` (a ``with`` block giving a binary stream, which moves
    the file into place at its end: :func:`excover.atomic.replacing`) is written with
    the states after a cell every ``every`` seconds, when an exception (Ctrl-C, a
    tick's) stops the count, and at the end. A layer already on disk (the one resumed
    from, or the last saved) is not written again."""
    cdef _Counter counter = _Counter(max_bytes)
    cdef Layout at
    cdef int column
    cdef int64_t s, done = 0, cells, area, start = 0, finished, on_disk = -1
    cdef uint64_t total = 0
    cdef uint64_t header[WORDS]
    cdef double last
    if not 1 <= width <= MAX_WIDTH or not 1 <= size <= MAX_SIZE:
        raise ValueError(f"a width of 1 to {MAX_WIDTH} and a size of 1 to {MAX_SIZE}")
    if not 0 <= height <= MAX_CELLS // width:
        raise ValueError(f"a board of 0 to {MAX_CELLS} cells")
    if key_bits(width, size) > KEY_BITS:
        raise ValueError(f"the states of a board {width} across with pieces of {size} cells"
                         f" take {key_bits(width, size)} bits, more than {KEY_BITS}")
    area = height * width
    at.width = width
    at.size = size
    at.size_bits = size.bit_length()
    at.size_mask = (<uint64_t>1 << at.size_bits) - 1
    at.sizes_at = 4 * width
    at.pairs_at = at.sizes_at + at.size_bits * width
    if resume is not None:
        header[0], header[1], header[2] = height, width, size
        start = on_disk = _resumed(counter, resume, header)
        _load(counter, resume.path, &at, header)
    else:
        counter._allocate(&counter.new, 1024, 0)
        counter._add(0, 1)   # nothing decided: no piece anywhere
        counter._pack()
        _renew(counter)
    finished = start  # the cells the old table's states have decided
    last = time.monotonic()
    try:
        for cells in range(start, area):
            column = cells % width
            for s in range(counter.old.cap):
                if not counter.old.counts[s]:
                    continue
                _step(counter, &at, column, counter.old.keys[s], counter.old.counts[s])
                done += 1
                if not done & 0xFFFFF:
                    PyErr_CheckSignals()
            counter._pack()
            finished = cells + 1  # before anything can fail: the old table is that layer
            _turned(counter, tick, finished, area)
            if save is not None and time.monotonic() - last >= every and finished < area:
                on_disk = _kept(counter, save, height, width, size, finished)
                last = time.monotonic()
    except BaseException:
        if save is not None and not counter.overflowed and finished != on_disk:
            _kept(counter, save, height, width, size, finished)
        raise
    if save is not None and finished != on_disk:
        _kept(counter, save, height, width, size, finished)
    for s in range(counter.old.cap):
        if counter.old.counts[s] and _complete(counter.old.keys[s], &at):
            if add_u64(&total, counter.old.counts[s]):
                _overflowed()
    return int(total), counter.peak
