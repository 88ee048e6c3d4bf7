# cython: language_level=3
"""Declarations of the compiled ZDD node store, shared with the constructions that make
nodes directly (``_dxz.pyx``, ``_topdown.pyx``): see ``_store.pyx`` for the layout."""

from libc.stdint cimport int32_t, int64_t, uint64_t


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define EXCOVER_PREFETCH(p) __builtin_prefetch(p)
    #define EXCOVER_PREFETCH_WRITE(p) __builtin_prefetch(p, 1)
    #else
    #define EXCOVER_PREFETCH(p) ((void)0)
    #define EXCOVER_PREFETCH_WRITE(p) ((void)0)
    #endif
    """
    # hints to fetch the cache line of p ahead of its use, a read or a write (nothing
    # where unsupported)
    void prefetch "EXCOVER_PREFETCH" (const void* p) noexcept nogil
    void prefetch_write "EXCOVER_PREFETCH_WRITE" (void* p) noexcept nogil


cdef struct Frame:
    int32_t f
    int32_t g
    int32_t phase


cdef struct Stack:
    Frame* frames
    int32_t* results
    int64_t nf
    int64_t nr
    int64_t capf
    int64_t capr


cdef class Store:
    cdef int32_t* var
    cdef int32_t* lo
    cdef int32_t* hi
    cdef int32_t* ext
    cdef int64_t capacity      # allocated nodes
    cdef int64_t used          # nodes 0..used-1 have been handed out at least once
    cdef int64_t n_free        # nodes on the free list
    cdef int32_t free_list     # -1 when empty; chained through lo
    cdef bint ordered          # every node's children have smaller ids than the node
    cdef int32_t* table        # unique table: node ids, -1 for empty slots
    cdef uint64_t table_mask
    cdef int32_t* cache        # 4 ints per entry: op, f, g, result
    cdef uint64_t cache_mask
    cdef public int64_t max_nodes
    cdef public int64_t max_bytes  # the memory bound (0: none), see held() and borrowed
    cdef public int64_t borrowed   # bytes held by a construction working on this store
    cdef int refusal               # why the last growth failed: REFUSED_NODES, _BYTES, _MEMORY
    cdef public int64_t collections
    cdef int64_t gc_threshold
    cdef public bint gc_enabled

    cdef int _allocate(self, int64_t capacity) except -1
    cdef int _rebuild_table(self) except -1
    cdef void _clear_cache(self) noexcept
    cdef int32_t make(self, int32_t v, int32_t l, int32_t h) noexcept
    cdef void make_ahead(self, int32_t v, int32_t l, int32_t h) noexcept
    cdef int _grow(self) noexcept
    cdef int64_t held(self) noexcept
    cdef bint affords(self, int64_t more) noexcept
    cdef int borrow(self, int64_t more) except -1
    cpdef int64_t live(self)
    cdef void safe_point(self)
    cdef int _check(self, int64_t u) except -1
    cdef int32_t cache_get(self, int op, int32_t f, int32_t g) noexcept
    cdef void cache_put(self, int op, int32_t f, int32_t g, int32_t r) noexcept
    cdef int32_t terminal_case(self, int op, int32_t f, int32_t g) noexcept
    cdef bint has_empty(self, int32_t u) noexcept
    cdef int32_t run(self, int op, int32_t f0, int32_t g0) noexcept
    cdef int push_children(self, Stack* s, int op, int32_t f, int32_t g) noexcept
    cdef int32_t combine(self, Stack* s, int op, int32_t f, int32_t g) noexcept
    cdef int32_t* postorder(self, int32_t root, int64_t* n_out) except? NULL
