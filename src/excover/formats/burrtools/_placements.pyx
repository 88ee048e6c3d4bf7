# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The placements of a BurrTools problem's pieces on its result, compiled: for every
orientation of every piece and every translation of the grid, whether the translate
lies on the result (:meth:`excover.formats.burrtools.cover._Board.placements`).

Each translate is tested voxel by voxel, stopping at its first voxel that leaves the
result or lands on a voxel it may not cover: a few operations for most translates,
where numpy's version of the same test made a dozen calls a piece on arrays of every
translate and every voxel.
"""

from libc.stdint cimport int64_t, uint8_t

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
