# cython: language_level=3
"""Short integer arrays sorted in the hot loops that sort a few values at a time (an
assembly's options in ``burr/_orbits.pyx``, a cell's candidate nodes in
``engines/_cells.pyx``): inline, so each module compiles its own copy for its own
integer type."""

from libc.stdint cimport int32_t, int64_t

ctypedef fused sortable:
    int32_t
    int64_t


cdef inline void insertion_sort(sortable *a, Py_ssize_t n) noexcept nogil:
    """Sort ``a[0:n]`` ascending by insertion: on a few values, faster than any other."""
    cdef Py_ssize_t i, j
    cdef sortable value
    for i in range(1, n):
        value = a[i]
        j = i - 1
        while j >= 0 and a[j] > value:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = value
