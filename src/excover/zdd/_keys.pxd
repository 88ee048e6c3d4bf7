# cython: language_level=3
"""Keys of several 64-bit words, as the compiled counts that hash them compare them (the
ZDD constructions ``_topdown.pyx`` and ``_frontier.pyx``, the cell frontier count
``tiling/_cell_frontier.pyx``): inline, so each module compiles its own copy into its hot
loop."""

from libc.stdint cimport uint64_t


cdef inline bint same(const uint64_t* a, const uint64_t* b, int width) noexcept nogil:
    """Whether the keys ``a`` and ``b`` of ``width`` words are equal."""
    cdef int w
    for w in range(width):
        if a[w] != b[w]:
            return False
    return True
