# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The hot loops of :mod:`excover.formats.burrtools.cover`, compiled: the placements of
a problem's pieces on its result, and the option each option becomes under a symmetry.

- :func:`fitting`: for every orientation of every piece and every translation of the
  grid, whether the translate lies on the result, tested voxel by voxel, stopping at its
  first voxel that leaves the result or lands on a voxel it may not cover: a few
  operations for most translates, where numpy's version of the test made a dozen calls
  a piece on arrays of every translate and every voxel.
- :func:`row_table` and :func:`matching`: the options of one length in a hash table
  (open addressing, keyed by their sorted items), and the option holding the images of
  each option's items under an item permutation, found in it: each image row sorted
  (Shell's sort: insertion sorts of the elements a gap apart, the gaps falling to 1,
  quick on short rows, as most are, and on a large piece's) and looked up, where numpy
  sorted every row, keyed it as bytes and searched the keys.
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np


def fitting(
    const int64_t[::1] offsets,
    const int64_t[::1] bounds,
    const int64_t[:, ::1] low,
    const int64_t[:, ::1] high,
    const int64_t[:, ::1] moves,
    const int64_t[::1] size,
    const int64_t[::1] strides,
    const uint8_t[::1] masks,
):
    """The translates that lie on the result, as ``(which, starts)``: the orientation
    of each (its number) and the flat index of its translation (``moves`` row ``@
    strides``), the orientations in their order, each one's translates in the order of
    ``moves``.

    Orientation ``k``'s voxels are ``offsets[bounds[k]:bounds[k + 1]]``: the flat index
    of each in the result's box (``strides``), plus the start of the mask of its colour
    in ``masks`` (one mask of the box's voxels a colour: 1 where such a voxel may go);
    ``low`` and ``high`` are the corners of its box, ``size`` the result's box."""
    cdef Py_ssize_t n_orientations = bounds.shape[0] - 1
    cdef Py_ssize_t n_moves = moves.shape[0]
    cdef Py_ssize_t k, m, v, found = 0, capacity = 1024
    cdef int64_t start
    cdef bint inside
    which_array = np.empty(capacity, dtype=np.int64)
    starts_array = np.empty(capacity, dtype=np.int64)
    cdef int64_t[::1] which = which_array
    cdef int64_t[::1] starts = starts_array
    for k in range(n_orientations):
        for m in range(n_moves):
            inside = True
            for v in range(3):
                if moves[m, v] < -low[k, v] or moves[m, v] >= size[v] - high[k, v]:
                    inside = False
                    break
            if not inside:
                continue
            start = moves[m, 0] * strides[0] + moves[m, 1] * strides[1] + moves[m, 2] * strides[2]
            for v in range(bounds[k], bounds[k + 1]):
                if not masks[start + offsets[v]]:
                    inside = False
                    break
            if not inside:
                continue
            if found == capacity:
                capacity *= 2
                which_array = np.resize(which_array, capacity)
                starts_array = np.resize(starts_array, capacity)
                which = which_array
                starts = starts_array
            which[found] = k
            starts[found] = start
            found += 1
    return which_array[:found], starts_array[:found]


#: The gaps of Shell's sort (Ciura's sequence), the largest first.
cdef Py_ssize_t[8] _GAPS = [701, 301, 132, 57, 23, 10, 4, 1]


cdef inline uint64_t _hash(const int64_t *row, Py_ssize_t width) noexcept nogil:
    """A hash of a row of integers (FNV-1a over the values, then mixed)."""
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t j
    for j in range(width):
        h = (h ^ <uint64_t> row[j]) * 1099511628211ULL
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    return h


def row_table(const int64_t[:, ::1] rows):
    """A hash table of the rows (each sorted, no two equal): an array of a power of two
    slots, at least twice the rows, each the number of a row or -1, a row at the first
    free slot from its hash on."""
    cdef Py_ssize_t n = rows.shape[0], width = rows.shape[1], size = 2, k
    while size < 2 * n:
        size *= 2
    table_array = np.full(size, -1, dtype=np.int64)
    cdef int64_t[::1] table = table_array
    cdef uint64_t mask = size - 1, slot
    for k in range(n):
        slot = _hash(&rows[k, 0], width) & mask if width else 0
        while table[slot] != -1:
            slot = (slot + 1) & mask
        table[slot] = k
    return table_array


def matching(
    const int64_t[:, ::1] rows,
    const int64_t[::1] items,
    const int64_t[:, ::1] ordered,
    const int64_t[::1] table,
):
    """For each row of ``rows``, the number of the row of ``ordered`` (the same rows,
    each sorted, in ``table``: :func:`row_table`) holding the images of its values under
    ``items`` (value ``v`` goes to ``items[v]``), or -1 where there is none."""
    cdef Py_ssize_t n = rows.shape[0], width = rows.shape[1], k, i, j, gap
    cdef uint64_t mask = table.shape[0] - 1, slot
    cdef int64_t value, candidate
    cdef int64_t *image = <int64_t *> malloc(max(width, 1) * sizeof(int64_t))
    if image == NULL:
        raise MemoryError()
    found_array = np.full(n, -1, dtype=np.int64)
    cdef int64_t[::1] found = found_array
    try:
        for k in range(n):
            for i in range(width):
                image[i] = items[rows[k, i]]
            for gap in _GAPS:  # Shell's sort of the image
                for i in range(gap, width):
                    value = image[i]
                    j = i
                    while j >= gap and image[j - gap] > value:
                        image[j] = image[j - gap]
                        j -= gap
                    image[j] = value
            slot = _hash(image, width) & mask if width else 0
            while True:
                candidate = table[slot]
                if candidate == -1:
                    break
                for i in range(width):
                    if ordered[candidate, i] != image[i]:
                        break
                else:
                    found[k] = candidate
                    break
                slot = (slot + 1) & mask
    finally:
        free(image)
    return found_array
