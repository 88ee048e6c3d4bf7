# cython: language_level=3
"""The listed solutions of a BurrTools problem made into its assemblies, compiled.

A problem of a thousand small assemblies (BurrTools' DemoPieceGenerator: 1,760 listed
solutions, 928 orbits, 2 symmetries) spent as much on these steps in numpy and Python
as on its search: numpy's calls on rows of a few options cost more than the work, and
each assembly needed a sort of its pieces. Here each solution is one pass:
:func:`smallest_members` finds the smallest member of its orbit (its images under every
element, each insertion-sorted, compared option by option) and keeps it when no row met
before equals it (a hash table of the rows kept); :func:`decoded` puts each row's pieces
in BurrTools' order (by their rank) and makes the assembly.
"""

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from excover._sorting cimport insertion_sort

import numpy as np

__all__ = ["decoded", "smallest_members"]


cdef inline bint _less(const int64_t *a, const int64_t *b, Py_ssize_t length) noexcept nogil:
    """Is ``a`` before ``b``, compared option by option?"""
    cdef Py_ssize_t i
    for i in range(length):
        if a[i] != b[i]:
            return a[i] < b[i]
    return False


cdef inline uint64_t _hash(const int64_t *row, Py_ssize_t length) noexcept nogil:
    cdef uint64_t h = <uint64_t>length * 0x9E3779B97F4A7C15ULL
    cdef Py_ssize_t i
    for i in range(length):
        h = (h ^ <uint64_t>row[i]) * 0xFF51AFD7ED558CCDULL
        h ^= h >> 32
    return h


def smallest_members(const int64_t[:, ::1] elements, const int64_t[::1] options,
                     const int64_t[::1] starts, int64_t pad):
    """The smallest member of the orbit of each solution, each orbit once, in the order
    they are first met: ``elements`` are the group's option permutations (one row
    each), the ``k``-th solution's options are ``options[starts[k]:starts[k + 1]]``.
    Returns ``(table, lengths)``: one row a member, its options sorted and padded at
    the end with ``pad``, and the number of options of each row."""
    cdef Py_ssize_t count = starts.shape[0] - 1, k, e, i, length, width = 0, kept = 0
    cdef Py_ssize_t group = elements.shape[0], room = 1, slot
    cdef int64_t *best
    cdef int64_t *image
    cdef int64_t *table_row
    cdef Py_ssize_t *slots
    cdef int64_t[:, ::1] table
    cdef int64_t[::1] lengths
    if count < 0:
        raise ValueError("starts must hold at least one number")
    if group == 0:
        raise ValueError("a group has one element at least, the identity")
    for k in range(count):
        width = max(width, starts[k + 1] - starts[k])
    for k in range(count):
        for i in range(starts[k], starts[k + 1]):
            if not 0 <= options[i] < elements.shape[1]:
                raise ValueError(f"option {options[i]} is not one the elements permute")
    found = np.full((count, width), pad, dtype=np.int64)
    found_lengths = np.zeros(count, dtype=np.int64)
    table, lengths = found, found_lengths
    while room < 2 * count:
        room *= 2
    best = <int64_t *>malloc((2 * width + 1) * sizeof(int64_t))
    slots = <Py_ssize_t *>malloc(room * sizeof(Py_ssize_t))
    if best == NULL or slots == NULL:
        free(best)
        free(slots)
        raise MemoryError()
    image = best + width
    try:
        for slot in range(room):
            slots[slot] = -1
        for k in range(count):
            length = starts[k + 1] - starts[k]
            for e in range(group):
                for i in range(length):
                    image[i] = elements[e, options[starts[k] + i]]
                insertion_sort(image, length)  # the rows are a few options long
                if e == 0 or _less(image, best, length):
                    memcpy(best, image, length * sizeof(int64_t))
            # kept unless a row kept already is the same
            slot = _hash(best, length) & (room - 1)
            while slots[slot] >= 0:
                table_row = &table[slots[slot], 0]
                if lengths[slots[slot]] == length and not (
                    _less(best, table_row, length) or _less(table_row, best, length)
                ):
                    break
                slot = (slot + 1) & (room - 1)
            else:
                slots[slot] = kept
                if length:
                    memcpy(&table[kept, 0], best, length * sizeof(int64_t))
                lengths[kept] = length
                kept += 1
    finally:
        free(best)
        free(slots)
    return found[:kept], found_lengths[:kept]


def decoded(const int64_t[:, ::1] table, const int64_t[::1] lengths,
            const int64_t[::1] rank, list pieces, groups, grid, make):
    """``make(pieces, groups, options, grid)`` of each row of ``table`` (``lengths[k]``
    options in row ``k``): its options as a tuple, and the pieces they place (``pieces[o]``
    of option ``o``) ordered by ``rank[o]`` (the order BurrTools numbers them in;
    negative: the option places no piece, a hole)."""
    cdef Py_ssize_t count = table.shape[0], k, i, j, length, placed
    cdef Py_ssize_t width = table.shape[1]
    cdef int64_t option
    cdef int64_t *order
    cdef tuple own, made
    cdef object number, piece, assembly
    cdef list found = PyList_New(count)
    if lengths.shape[0] != count:
        raise ValueError("one length a row")
    for k in range(count):
        if not 0 <= lengths[k] <= width:
            raise ValueError(f"row {k} has {width} options, not {lengths[k]}")
        for i in range(lengths[k]):
            if not 0 <= table[k, i] < rank.shape[0] or table[k, i] >= len(pieces):
                raise ValueError(f"option {table[k, i]} has no rank or no piece")
    order = <int64_t *>malloc((width + 1) * sizeof(int64_t))
    if order == NULL:
        raise MemoryError()
    try:
        for k in range(count):
            length = lengths[k]
            own = PyTuple_New(length)
            placed = 0
            for i in range(length):
                option = table[k, i]
                number = option
                Py_INCREF(number)
                PyTuple_SET_ITEM(own, i, number)
                if rank[option] < 0:
                    continue
                # insertion by rank
                j = placed
                while j > 0 and rank[order[j - 1]] > rank[option]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = option
                placed += 1
            made = PyTuple_New(placed)
            for i in range(placed):
                piece = pieces[order[i]]
                Py_INCREF(piece)
                PyTuple_SET_ITEM(made, i, piece)
            assembly = make(made, groups, own, grid)
            Py_INCREF(assembly)
            PyList_SET_ITEM(found, k, assembly)
    finally:
        free(order)
    return found
