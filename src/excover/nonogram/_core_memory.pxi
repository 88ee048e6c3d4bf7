# Part of ``_core.pyx`` (pasted in by ``include``): who owns the cores' arrays.
#
# A core allocates a few dozen flat arrays, and a method its scratch arrays; each used to
# be freed by hand in ``__dealloc__`` or a ``finally``, and every error path had to free
# what was allocated before it. A ``Blocks`` object owns them instead: it hands out zeroed
# blocks and frees them all when it goes, so a failed allocation only raises.


cdef class Blocks:
    """Zeroed memory blocks that are freed together when this object is freed."""

    cdef void **items
    cdef Py_ssize_t count, capacity

    cdef void *alloc(self, size_t n, size_t size) except NULL:
        """A new block of ``n`` zeroed entries of ``size`` bytes (at least one entry);
        MemoryError when there is no memory."""
        cdef void **grown
        cdef void *block
        if self.count == self.capacity:
            grown = <void **> realloc(self.items, (2 * self.capacity + 8) * sizeof(void *))
            if not grown:
                raise MemoryError()
            self.items = grown
            self.capacity = 2 * self.capacity + 8
        block = calloc(n if n else 1, size)
        if not block:
            raise MemoryError()
        self.items[self.count] = block
        self.count += 1
        return block

    def __dealloc__(self):
        cdef Py_ssize_t i
        for i in range(self.count):
            free(self.items[i])
        free(self.items)
