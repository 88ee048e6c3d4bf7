# cython: language_level=3
"""Memory blocks of the compiled ZDD modules (``_store.pyx``, ``_dxz.pyx``): arrays grown
with realloc, tables read at random (``_tables.h``: huge pages where the system has them;
freed with ``table_free``), and the open-addressing tables of numbers (nodes, memo
entries) with -1 in an empty slot and linear probing. Inline, so each module compiles its
own copy."""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport realloc
from libc.string cimport memset

from excover._tables cimport table_alloc, table_free, table_resize


cdef inline int resize(void** block, size_t size, str message) except -1:
    """Reallocate ``*block`` to ``size`` bytes; out of memory, ``*block`` is left as it
    was (its owner still frees it) and MemoryError(``message``) is raised."""
    cdef void* grown = realloc(block[0], size)
    if grown == NULL:
        raise MemoryError(message)
    block[0] = grown
    return 0


cdef inline int resize_table(void** block, size_t size, str message) except -1:
    """resize() for a table of ``_tables.h`` (``*block`` NULL or one of its tables)."""
    cdef void* grown = table_resize(block[0], size)
    if grown == NULL:
        raise MemoryError(message)
    block[0] = grown
    return 0


cdef inline int doubled(void** block, int64_t* capacity, size_t item) noexcept:
    """Grow ``*block`` from ``*capacity`` items of ``item`` bytes to twice as many, and
    double ``*capacity``: 0, or -1 (both left as they were) when out of memory."""
    cdef void* grown = realloc(block[0], 2 * capacity[0] * item)
    if grown == NULL:
        return -1
    block[0] = grown
    capacity[0] *= 2
    return 0


cdef inline int32_t* empty_table(int32_t* old, uint64_t size) noexcept:
    """A table of ``size`` slots, all empty, in place of ``old`` (freed; both tables of
    ``_tables.h``); NULL when out of memory."""
    table_free(old)
    cdef int32_t* table = <int32_t*>table_alloc(size * sizeof(int32_t))
    if table != NULL:
        memset(table, 0xFF, size * sizeof(int32_t))
    return table


cdef inline uint64_t free_slot(const int32_t* table, uint64_t slot, uint64_t mask) noexcept nogil:
    """The first empty slot of ``table`` (``mask + 1`` slots) from ``slot`` on."""
    while table[slot] != -1:
        slot = (slot + 1) & mask
    return slot
