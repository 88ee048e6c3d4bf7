# cython: language_level=3
"""The compiled ZDD node store and its operations.

The store
---------
A node is a triple (var, lo, hi) of 32-bit ints kept in three flat arrays, plus a fourth
array ``ext`` counting the live Python handles (:class:`excover.Family` objects) that
point at the node: 16 bytes per node. Node 0 is the empty family (bottom), node 1 the
family holding only the empty set (top); both carry the variable ``TERMINAL_VAR``, larger
than every real variable, so "the smallest variable of f and g" needs no special case.

Nodes are hash-consed: a unique table (open addressing, linear probing, int32 slots, at
most half full) maps (var, lo, hi) to the node, and ``make`` never builds a node whose hi
edge is bottom (the zero-suppression rule). Every family therefore has exactly one node,
so equality is the comparison of two ints.

Operations are iterative: each keeps an explicit stack of frames (f, g, phase) and a stack
of results, so a family with 100,000 variables along one path costs heap, never C stack.
Their results are remembered in a lossy direct-mapped cache (op, f, g) -> result, which is
cleared when garbage is collected.

Garbage collection runs only between operations (at a "safe point", when no intermediate
result lives on a C stack): the live nodes are the ones reachable from a node with a
positive ``ext`` count; the others go to a free list and the unique table is rebuilt. It
runs when the store is three quarters full; during an operation a full store grows
instead, up to ``max_nodes``; beyond that the operation is abandoned, its partial results
collected, and ``ResourceLimitError`` raised by the Python face.

The memory bound
----------------
A store may be given a bound in bytes (``max_bytes``, 0: none) on what it holds (its
node arrays, unique table and cache: :meth:`Store.held`) together with what a
construction working on it holds (``borrowed``: the DXZ memo, the top-down states, which
report their tables through :meth:`Store.borrow`). The bound is checked where the tables
grow (a doubling), so it costs nothing per node; past it the operation is abandoned as
past the node limit, and :class:`~excover.errors.MemoryBoundError` raised.
"""

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset, memcpy
from libc.stdint cimport int32_t, uint32_t, uint64_t, int64_t
from cpython.exc cimport PyErr_CheckSignals

cdef extern from "Python.h":
    # the same function, declared without error propagation, for the noexcept loops: they
    # return a code and the Python-level caller re-raises the pending KeyboardInterrupt
    int signals_pending "PyErr_CheckSignals" () noexcept


cdef int reraise() except -1:
    """Let the exception already set (by PyErr_CheckSignals) propagate."""
    return -1

from excover._portable cimport u128, u128_add, u128_hi, u128_lo, u128_of
from excover._tables cimport table_free
from excover.zdd._blocks cimport doubled, empty_table, free_slot, resize_table
from excover.errors import MemoryBoundError

DEF TERMINAL_VAR = 0x7FFFFFFF

OP_UNION = 1
OP_INTER = 2
OP_DIFF = 3
OP_XOR = 4
OP_ONSET = 5
OP_OFFSET = 6
OP_CHANGE = 7
OP_JOIN = 8
OP_MEET = 9
OP_NONSUP = 10
OP_NONSUB = 11
OP_MINIMAL = 12
OP_MAXIMAL = 13

cdef enum:
    C_UNION = 1
    C_INTER = 2
    C_DIFF = 3
    C_XOR = 4
    C_ONSET = 5
    C_OFFSET = 6
    C_CHANGE = 7
    C_JOIN = 8
    C_MEET = 9
    C_NONSUP = 10
    C_NONSUB = 11
    C_MINIMAL = 12
    C_MAXIMAL = 13


class StoreFull(Exception):
    """The node limit was reached during an operation (the Python face translates it)."""


# why the last growth of the node arrays was refused (Store.refusal)
DEF REFUSED_NODES = 0
DEF REFUSED_BYTES = 1
DEF REFUSED_MEMORY = 2

#: Bytes per node of the node arrays (var, lo, hi, ext) and per slot of the unique table.
DEF NODE_BYTES = 16
DEF SLOT_BYTES = 4


cdef uint64_t table_size(int64_t capacity) noexcept:
    """The slots of the unique table for ``capacity`` nodes: at most half full."""
    cdef uint64_t size = 1024
    while size < <uint64_t>(2 * capacity):
        size <<= 1
    return size


cdef inline uint64_t mix3(int32_t a, int32_t b, int32_t c) nogil:
    cdef uint64_t h = <uint32_t>a
    h = h * 0x9E3779B97F4A7C15ULL + <uint32_t>b
    h = h * 0x9E3779B97F4A7C15ULL + <uint32_t>c
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 32
    return h


cdef int stack_init(Stack* s) noexcept:
    s.capf = 256
    s.capr = 256
    s.nf = 0
    s.nr = 0
    s.frames = <Frame*>malloc(s.capf * sizeof(Frame))
    s.results = <int32_t*>malloc(s.capr * sizeof(int32_t))
    return 0 if (s.frames != NULL and s.results != NULL) else -1


cdef void stack_free(Stack* s) noexcept:
    free(s.frames)
    free(s.results)


cdef inline int push_frame(Stack* s, int32_t f, int32_t g, int32_t phase) noexcept:
    if s.nf == s.capf and doubled(<void**>&s.frames, &s.capf, sizeof(Frame)) < 0:
        return -1
    s.frames[s.nf].f = f
    s.frames[s.nf].g = g
    s.frames[s.nf].phase = phase
    s.nf += 1
    return 0


cdef inline int push_result(Stack* s, int32_t r) noexcept:
    if s.nr == s.capr and doubled(<void**>&s.results, &s.capr, sizeof(int32_t)) < 0:
        return -1
    s.results[s.nr] = r
    s.nr += 1
    return 0


cdef inline int32_t union3(Store store, int32_t a, int32_t b, int32_t c) noexcept:
    """(a | b) | c in ``store``: the error of run() that stops it, if one does."""
    cdef int32_t x = store.run(C_UNION, a, b)
    if x < 0:
        return x
    return store.run(C_UNION, x, c)


cdef class Store:
    """A ZDD node store with its unique table, cache and garbage collector."""

    def __cinit__(self, int64_t nodes=1 << 16, int64_t cache=1 << 18, int64_t max_nodes=50_000_000,
                  int64_t max_bytes=0):
        if nodes < 16:
            nodes = 16
        self.capacity = 0
        self.var = self.lo = self.hi = self.ext = NULL
        self.table = NULL
        self.cache = NULL
        self.max_nodes = max_nodes
        self.max_bytes = max_bytes
        self.borrowed = 0
        self.refusal = REFUSED_NODES
        self.collections = 0
        self.gc_enabled = True
        self._allocate(nodes)
        cdef uint64_t csize = 1024
        while csize < <uint64_t>cache:
            csize <<= 1
        # zeroed by calloc: its pages cost memory only once an operation touches them
        self.cache = <int32_t*>calloc(csize * 4, sizeof(int32_t))
        if self.cache == NULL:
            raise MemoryError("cannot allocate the ZDD operation cache")
        self.cache_mask = csize - 1
        self.var[0] = TERMINAL_VAR
        self.var[1] = TERMINAL_VAR
        self.lo[0] = self.hi[0] = 0
        self.lo[1] = self.hi[1] = 1
        self.ext[0] = self.ext[1] = 1
        self.used = 2
        self.n_free = 0
        self.free_list = -1
        self.ordered = True
        self.gc_threshold = (self.capacity * 3) // 4

    def __dealloc__(self):
        table_free(self.var)
        table_free(self.lo)
        table_free(self.hi)
        table_free(self.ext)
        table_free(self.table)
        free(self.cache)

    cdef int _allocate(self, int64_t capacity) except -1:
        """Grow the node arrays to ``capacity`` nodes and rebuild the unique table."""
        cdef size_t size = capacity * sizeof(int32_t)
        cdef str message = "cannot grow the ZDD node store"
        resize_table(<void**>&self.var, size, message)
        resize_table(<void**>&self.lo, size, message)
        resize_table(<void**>&self.hi, size, message)
        resize_table(<void**>&self.ext, size, message)
        self.capacity = capacity
        return self._rebuild_table()

    cdef int _rebuild_table(self) except -1:
        cdef uint64_t size = table_size(self.capacity)
        self.table = empty_table(self.table, size)
        if self.table == NULL:
            raise MemoryError("cannot allocate the ZDD unique table")
        self.table_mask = size - 1
        cdef int64_t u
        cdef uint64_t slot
        for u in range(2, self.used):
            if self.var[u] >= 0:
                slot = mix3(self.var[u], self.lo[u], self.hi[u]) & self.table_mask
                self.table[free_slot(self.table, slot, self.table_mask)] = <int32_t>u
        return 0

    cdef void _clear_cache(self) noexcept:
        memset(self.cache, 0, (self.cache_mask + 1) * 4 * sizeof(int32_t))

    # ----- making nodes -----

    cdef int32_t make(self, int32_t v, int32_t l, int32_t h) noexcept:
        """The node (v, l, h), reduced and unique; -1 when the node limit is reached."""
        if h == 0:
            return l
        cdef uint64_t slot = mix3(v, l, h) & self.table_mask
        cdef int32_t u
        while True:
            u = self.table[slot]
            if u == -1:
                break
            if self.var[u] == v and self.lo[u] == l and self.hi[u] == h:
                return u
            slot = (slot + 1) & self.table_mask
        if self.free_list != -1:
            u = self.free_list
            self.free_list = self.lo[u]
            self.n_free -= 1
            if l > u or h > u:
                self.ordered = False
        else:
            if self.used == self.capacity:
                if self._grow() < 0:
                    return -1
                slot = free_slot(self.table, mix3(v, l, h) & self.table_mask, self.table_mask)
            u = <int32_t>self.used
            self.used += 1
        self.var[u] = v
        self.lo[u] = l
        self.hi[u] = h
        self.ext[u] = 0
        self.table[slot] = u
        return u

    cdef void make_ahead(self, int32_t v, int32_t l, int32_t h) noexcept:
        """Fetch the unique table's slot of (v, l, h) into the cache, ahead of a make()
        of it (a construction making many nodes hides the latency of a few at once)."""
        prefetch(self.table + (mix3(v, l, h) & self.table_mask))

    cdef int _grow(self) noexcept:
        """Double the node arrays (up to the node limit, within the memory bound); -1,
        with ``refusal`` saying why, when they cannot grow."""
        cdef int64_t target = self.capacity * 2
        if target > self.max_nodes:
            target = self.max_nodes
        if target <= self.capacity or target > 0x7FFFFFF0:
            self.refusal = REFUSED_NODES
            return -1
        cdef int64_t more = ((target - self.capacity) * NODE_BYTES
                             + <int64_t>(table_size(target) - (self.table_mask + 1)) * SLOT_BYTES)
        if not self.affords(more):
            self.refusal = REFUSED_BYTES
            return -1
        try:
            self._allocate(target)
        except MemoryError:
            self.refusal = REFUSED_MEMORY
            return -1
        self.gc_threshold = (self.capacity * 3) // 4
        return 0

    # ----- the memory bound -----

    cdef int64_t held(self) noexcept:
        """The bytes of the store's own tables: node arrays, unique table, cache."""
        return (self.capacity * NODE_BYTES + <int64_t>(self.table_mask + 1) * SLOT_BYTES
                + <int64_t>(self.cache_mask + 1) * 16)

    cdef bint affords(self, int64_t more) noexcept:
        """Whether ``more`` bytes fit within the memory bound, beside the store's tables
        and what constructions have borrowed."""
        return self.max_bytes <= 0 or self.held() + self.borrowed + more <= self.max_bytes

    cdef int borrow(self, int64_t more) except -1:
        """Count ``more`` bytes of a construction's tables against the bound (a
        negative number gives them back); MemoryBoundError when they do not fit."""
        if more > 0 and not self.affords(more):
            raise MemoryBoundError(self.max_bytes)
        self.borrowed += more
        return 0

    @property
    def memory_bytes(self):
        """The bytes counted against the memory bound: the store's tables and what the
        constructions working on it hold."""
        return self.held() + self.borrowed

    # ----- garbage collection -----

    cpdef int64_t live(self):
        """The number of nodes in use (live or not yet collected), terminals included."""
        return self.used - self.n_free

    def collect(self):
        """Reclaim every node not reachable from a live handle; return how many."""
        cdef unsigned char* mark = <unsigned char*>calloc(self.used, 1)
        cdef int32_t* stack = <int32_t*>malloc(max(self.used, 16) * sizeof(int32_t))
        cdef int64_t top = 0, u, freed = 0
        cdef int32_t x
        if mark == NULL or stack == NULL:
            free(mark)
            free(stack)
            raise MemoryError("cannot allocate the ZDD garbage collector's marks")
        mark[0] = mark[1] = 1
        for u in range(2, self.used):
            if self.var[u] >= 0 and self.ext[u] > 0 and not mark[u]:
                mark[u] = 1
                stack[top] = <int32_t>u
                top += 1
                while top:
                    top -= 1
                    x = stack[top]
                    if not mark[self.lo[x]]:
                        mark[self.lo[x]] = 1
                        stack[top] = self.lo[x]
                        top += 1
                    if not mark[self.hi[x]]:
                        mark[self.hi[x]] = 1
                        stack[top] = self.hi[x]
                        top += 1
        self.free_list = -1
        self.n_free = 0
        for u in range(self.used - 1, 1, -1):
            if not mark[u]:
                if self.var[u] >= 0:
                    freed += 1
                self.var[u] = -1
                self.lo[u] = self.free_list
                self.ext[u] = 0
                self.free_list = <int32_t>u
                self.n_free += 1
        free(mark)
        free(stack)
        self._rebuild_table()
        self._clear_cache()
        self.collections += 1
        cdef int64_t live = self.used - self.n_free
        self.gc_threshold = min(max((self.capacity * 3) // 4, 2 * live), (self.max_nodes * 3) // 4)
        return freed

    cdef void safe_point(self):
        """Collect garbage if the store is filling up (call only between operations)."""
        if self.gc_enabled and self.used - self.n_free > self.gc_threshold:
            self.collect()

    def incref(self, int32_t u):
        self.ext[u] += 1

    def decref(self, int32_t u):
        self.ext[u] -= 1

    # ----- reading nodes -----

    cdef int _check(self, int64_t u) except -1:
        if u < 0 or u >= self.used or self.var[u] < 0:
            raise ValueError(f"no node {u} in this store")
        return 0

    def node(self, int64_t v, int64_t l, int64_t h):
        """The node (v, l, h) after checking that it is well ordered."""
        self._check(l)
        self._check(h)
        if v < 0 or v >= TERMINAL_VAR:
            raise ValueError(f"variable {v} is out of range 0..{TERMINAL_VAR - 1}")
        if self.var[l] <= v or self.var[h] <= v:
            raise ValueError(
                f"variable {v} must be smaller than the variables of its children "
                f"({self._var_text(l)} and {self._var_text(h)})"
            )
        self.safe_point()
        cdef int32_t u = self.make(<int32_t>v, <int32_t>l, <int32_t>h)
        if u < 0:
            self._overflow()
        return u

    def _var_text(self, int32_t u):
        return "terminal" if u < 2 else str(self.var[u])

    def var_of(self, int32_t u):
        self._check(u)
        return self.var[u] if u >= 2 else None

    def lo_of(self, int32_t u):
        self._check(u)
        return self.lo[u]

    def hi_of(self, int32_t u):
        self._check(u)
        return self.hi[u]

    def triple(self, int32_t u):
        """(var, lo, hi) of an inner node."""
        return self.var[u], self.lo[u], self.hi[u]

    def _overflow(self):
        """Abandon an operation whose nodes found no room: its partial results are
        collected, and the cause raised (the node limit, the memory bound, or memory
        refused by the system)."""
        cdef int refusal = self.refusal
        self.refusal = REFUSED_NODES
        self.collect()
        if refusal == REFUSED_BYTES:
            raise MemoryBoundError(self.max_bytes)
        if refusal == REFUSED_MEMORY:
            raise MemoryError("cannot grow the ZDD node store")
        raise StoreFull(self.max_nodes)

    @property
    def capacity_nodes(self):
        return self.capacity

    # ----- sets -----

    def from_sorted(self, list elements):
        """The family holding one set, given as a strictly increasing list of variables."""
        self.safe_point()
        cdef int32_t u = 1
        cdef Py_ssize_t k
        for k in range(len(elements) - 1, -1, -1):
            u = self.make(<int32_t>elements[k], 0, u)
            if u < 0:
                self._overflow()
        return u

    def contains(self, int32_t u, list elements):
        """Whether the strictly increasing list ``elements`` is a member of family u."""
        cdef Py_ssize_t k = 0, n = len(elements)
        cdef int64_t e
        while u >= 2:
            if k < n:
                e = elements[k]
                if e < self.var[u]:
                    return False
                if e == self.var[u]:
                    u = self.hi[u]
                    k += 1
                    continue
            u = self.lo[u]
        return u == 1 and k == n

    # ----- operations -----

    def apply(self, int op, int32_t f, int32_t g):
        """Binary operation ``op`` on nodes f and g (for ONSET/OFFSET/CHANGE g is a var)."""
        self.safe_point()
        cdef int32_t r = self.run(op, f, g)
        if r == -4:
            reraise()
        if r == -2:
            raise MemoryError("out of memory in a ZDD operation")
        if r < 0:
            self._overflow()
        return r

    cdef int32_t cache_get(self, int op, int32_t f, int32_t g) noexcept:
        cdef uint64_t slot = (mix3(op, f, g) & self.cache_mask) * 4
        cdef int32_t* e = self.cache + slot
        if e[0] == op and e[1] == f and e[2] == g:
            return e[3]
        return -1

    cdef void cache_put(self, int op, int32_t f, int32_t g, int32_t r) noexcept:
        cdef uint64_t slot = (mix3(op, f, g) & self.cache_mask) * 4
        cdef int32_t* e = self.cache + slot
        e[0] = op
        e[1] = f
        e[2] = g
        e[3] = r

    cdef int32_t terminal_case(self, int op, int32_t f, int32_t g) noexcept:
        """The result of op(f, g) when it needs no recursion, -1 otherwise, -3 on overflow."""
        cdef int32_t r
        if op == C_UNION:
            if f == 0 or f == g:
                return g
            if g == 0:
                return f
        elif op == C_INTER:
            if f == 0 or g == 0:
                return 0
            if f == g:
                return f
            if f == 1:
                return 1 if self.has_empty(g) else 0
            if g == 1:
                return 1 if self.has_empty(f) else 0
        elif op == C_DIFF:
            if f == 0 or f == g:
                return 0
            if g == 0:
                return f
            if f == 1:
                return 0 if self.has_empty(g) else 1
        elif op == C_XOR:
            if f == g:
                return 0
            if f == 0:
                return g
            if g == 0:
                return f
        elif op == C_ONSET:
            if self.var[f] > g:
                return 0
            if self.var[f] == g:
                r = self.make(g, 0, self.hi[f])
                return -3 if r < 0 else r
        elif op == C_OFFSET:
            if self.var[f] > g:
                return f
            if self.var[f] == g:
                return self.lo[f]
        elif op == C_CHANGE:
            if self.var[f] > g:
                if f == 0:
                    return 0
                r = self.make(g, 0, f)
                return -3 if r < 0 else r
            if self.var[f] == g:
                r = self.make(g, self.hi[f], self.lo[f])
                return -3 if r < 0 else r
        elif op == C_JOIN:
            if f == 0 or g == 0:
                return 0
            if f == 1:
                return g
            if g == 1:
                return f
        elif op == C_MEET:
            if f == 0 or g == 0:
                return 0
            if f == 1 or g == 1:
                return 1
        elif op == C_NONSUP:
            # sets of f that contain no set of g
            if g == 0:
                return f
            if f == 0 or self.has_empty(g) or f == g:
                return 0
        elif op == C_NONSUB:
            # sets of f contained in no set of g
            if f == 0 or g == 0:
                return f
            if f == g:
                return 0
            if f == 1:
                return 0
        elif op == C_MINIMAL:
            if f < 2:
                return f
        elif op == C_MAXIMAL:
            if f < 2:
                return f
        return -1

    cdef bint has_empty(self, int32_t u) noexcept:
        while u >= 2:
            u = self.lo[u]
        return u == 1

    cdef int32_t run(self, int op, int32_t f0, int32_t g0) noexcept:
        """op(f0, g0) with an explicit stack; -1 on node overflow, -2 out of memory,
        -4 on Ctrl-C (KeyboardInterrupt then pending)."""
        cdef Stack s
        cdef int64_t steps = 0
        cdef int32_t f, g, r, r0, r1, r2, r3, v, a, b, t
        cdef int phase
        cdef int32_t fl, fh, gl, gh
        if stack_init(&s) < 0:
            stack_free(&s)
            return -2
        if push_frame(&s, f0, g0, 0) < 0:
            stack_free(&s)
            return -2
        while s.nf:
            steps += 1
            if (steps & 0xFFFF) == 0 and signals_pending() < 0:
                stack_free(&s)
                return -4
            s.nf -= 1
            f = s.frames[s.nf].f
            g = s.frames[s.nf].g
            phase = s.frames[s.nf].phase
            if phase == 0:
                if (op == C_UNION or op == C_INTER or op == C_XOR or op == C_JOIN
                        or op == C_MEET) and f > g:
                    t = f
                    f = g
                    g = t
                r = self.terminal_case(op, f, g)
                if r == -1:
                    r = self.cache_get(op, f, g)
                elif r == -3:
                    stack_free(&s)
                    return -1
                if r >= 0:
                    if push_result(&s, r) < 0:
                        stack_free(&s)
                        return -2
                    continue
                if push_frame(&s, f, g, 1) < 0:
                    stack_free(&s)
                    return -2
                if self.push_children(&s, op, f, g) < 0:
                    stack_free(&s)
                    return -2
            else:
                r = self.combine(&s, op, f, g)
                if r < 0:
                    stack_free(&s)
                    return r
                self.cache_put(op, f, g, r)
                if push_result(&s, r) < 0:
                    stack_free(&s)
                    return -2
        r = s.results[0]
        stack_free(&s)
        return r

    cdef int push_children(self, Stack* s, int op, int32_t f, int32_t g) noexcept:
        """Push the sub-problems of op(f, g); combine() pops their results in reverse."""
        cdef int32_t v, fl, fh, gl, gh
        if op >= C_ONSET and op <= C_CHANGE or op == C_MINIMAL or op == C_MAXIMAL:
            if push_frame(s, self.hi[f], g, 0) < 0:
                return -1
            return push_frame(s, self.lo[f], g, 0)
        v = self.var[f] if self.var[f] < self.var[g] else self.var[g]
        if self.var[f] == v:
            fl = self.lo[f]
            fh = self.hi[f]
        else:
            fl = f
            fh = 0
        if self.var[g] == v:
            gl = self.lo[g]
            gh = self.hi[g]
        else:
            gl = g
            gh = 0
        if op == C_JOIN or op == C_MEET:
            # four cofactor pairs: (l,l), (h,h), (h,l), (l,h), popped in reverse
            if push_frame(s, fl, gh, 0) < 0 or push_frame(s, fh, gl, 0) < 0:
                return -1
            if push_frame(s, fh, gh, 0) < 0 or push_frame(s, fl, gl, 0) < 0:
                return -1
            return 0
        if op == C_NONSUP:
            # f0 \ g0 restricted: lo part nonsup(fl, gl); hi part nonsup(fh, gh) & nonsup(fh, gl)
            if push_frame(s, fh, gl, 0) < 0 or push_frame(s, fh, gh, 0) < 0:
                return -1
            return push_frame(s, fl, gl, 0)
        if op == C_NONSUB:
            # lo part: nonsub(fl, gl) & nonsub(fl, gh); hi part: nonsub(fh, gh)
            if push_frame(s, fl, gh, 0) < 0 or push_frame(s, fh, gh, 0) < 0:
                return -1
            return push_frame(s, fl, gl, 0)
        if push_frame(s, fh, gh, 0) < 0:
            return -1
        return push_frame(s, fl, gl, 0)

    cdef int32_t combine(self, Stack* s, int op, int32_t f, int32_t g) noexcept:
        """Pop the children's results of op(f, g) and make its node: the first two are its
        lo and hi parts, of which some operations first merge one with the others."""
        cdef int32_t v, lo, hi
        cdef int32_t* r
        if op >= C_ONSET and op <= C_CHANGE or op == C_MINIMAL or op == C_MAXIMAL:
            v = self.var[f]
        else:
            v = self.var[f] if self.var[f] < self.var[g] else self.var[g]
        if op == C_JOIN or op == C_MEET:
            s.nr -= 4  # (l, l), (h, h), (h, l), (l, h)
        elif op == C_NONSUP or op == C_NONSUB:
            s.nr -= 3
        else:
            s.nr -= 2
        r = s.results + s.nr
        lo = r[0]
        hi = r[1]
        if op == C_MINIMAL:  # drop from the hi part every set that has a subset in lo
            hi = self.run(C_NONSUP, hi, lo)
        elif op == C_MAXIMAL:  # drop from lo every set under a set of hi
            lo = self.run(C_NONSUB, lo, hi)
        elif op == C_JOIN:
            hi = union3(self, r[1], r[2], r[3])
        elif op == C_MEET:
            lo = union3(self, r[0], r[2], r[3])
        elif op == C_NONSUP:
            hi = self.run(C_INTER, r[1], r[2])
        elif op == C_NONSUB:
            lo = self.run(C_INTER, r[0], r[2])
        if lo < 0:
            return lo
        if hi < 0:
            return hi
        return self.make(v, lo, hi)

    # ----- walking a family -----

    cdef int32_t* postorder(self, int32_t root, int64_t* n_out) except? NULL:
        """The inner nodes reachable from root, children before parents (malloc'd).

        A depth-first walk, whose reads jump across the arrays; in a store whose nodes
        all have children of smaller ids (``ordered``: no node was made in a freed slot)
        a family of more than a 32nd of the ids below its root is walked instead by two
        passes over those ids, in order: one down from the root marking the children of
        the marked nodes, one up listing the marked ones (the walk's marks kept)."""
        if not self.affords(self.used * (1 + sizeof(int32_t) + sizeof(Frame))):
            raise MemoryBoundError(self.max_bytes)
        cdef unsigned char* seen = <unsigned char*>calloc(self.used, 1)
        cdef int32_t* order = <int32_t*>malloc(max(self.used, 16) * sizeof(int32_t))
        cdef Frame* stack = <Frame*>malloc(max(self.used, 16) * sizeof(Frame))
        cdef int64_t n = 0, top = 0, budget = -1
        cdef int32_t u, c
        if seen == NULL or order == NULL or stack == NULL:
            free(seen)
            free(order)
            free(stack)
            raise MemoryError("cannot allocate a ZDD traversal")
        if self.ordered:
            budget = root >> 5
        seen[0] = seen[1] = 1
        if not seen[root]:
            seen[root] = 1
            stack[0].f = root
            stack[0].phase = 0
            top = 1
        while top:
            u = stack[top - 1].f
            if stack[top - 1].phase == 0:
                stack[top - 1].phase = 1
                c = self.lo[u]
            elif stack[top - 1].phase == 1:
                stack[top - 1].phase = 2
                c = self.hi[u]
            else:
                top -= 1
                order[n] = u
                n += 1
                if n == budget:
                    break
                continue
            if not seen[c]:
                seen[c] = 1
                stack[top].f = c
                stack[top].phase = 0
                top += 1
        free(stack)
        if top:   # past the budget: the two passes
            for u in range(root, 1, -1):
                if seen[u]:
                    seen[self.lo[u]] = 1
                    seen[self.hi[u]] = 1
            n = 0
            for u in range(2, root + 1):
                if seen[u]:
                    order[n] = u
                    n += 1
        free(seen)
        n_out[0] = n
        return order

    def nodes(self, int32_t root):
        """The inner nodes of a family, children before parents."""
        cdef int64_t n, k
        cdef int32_t* order = self.postorder(root, &n)
        result = [order[k] for k in range(n)]
        free(order)
        return result

    def size(self, int32_t root):
        """The number of inner nodes of a family."""
        cdef int64_t n
        cdef int32_t* order = self.postorder(root, &n)
        free(order)
        return n

    def count(self, int32_t root):
        """The number of sets in a family, an exact Python int."""
        if root < 2:
            return root
        if not self.affords(self.used * (1 + sizeof(int32_t) + sizeof(Frame) + sizeof(u128))):
            raise MemoryBoundError(self.max_bytes)
        cdef int64_t n, k
        cdef int32_t* order = self.postorder(root, &n)
        cdef u128* c = <u128*>malloc(self.used * sizeof(u128))
        cdef int32_t u
        cdef u128 a
        cdef bint overflow = False
        if c == NULL:
            free(order)
            raise MemoryError("cannot allocate ZDD counts")
        c[0] = u128_of(0)
        c[1] = u128_of(1)
        for k in range(n):
            u = order[k]
            a = c[self.lo[u]]
            if u128_add(&a, c[self.hi[u]]):
                overflow = True
                break
            c[u] = a
        if not overflow:
            a = c[root]
            free(c)
            free(order)
            return (int(u128_hi(a)) << 64) | int(u128_lo(a))
        free(c)
        free(order)
        return self.counts(root)[root]

    def counts(self, int32_t root):
        """A dict from every node of a family (terminals too) to its number of sets."""
        cdef int64_t n, k
        cdef int32_t* order = self.postorder(root, &n)
        cdef dict table = {0: 0, 1: 1}
        cdef int32_t u
        for k in range(n):
            u = order[k]
            table[u] = table[self.lo[u]] + table[self.hi[u]]
        free(order)
        return table

