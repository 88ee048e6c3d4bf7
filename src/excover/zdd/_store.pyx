# cython: language_level=3
"""The compiled ZDD node store, its operations, and the DXZ construction.

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
"""

from libc.stdlib cimport malloc, realloc, free, calloc
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


cdef inline uint64_t mix3(int32_t a, int32_t b, int32_t c) nogil:
    cdef uint64_t h = <uint32_t>a
    h = h * 0x9E3779B97F4A7C15ULL + <uint32_t>b
    h = h * 0x9E3779B97F4A7C15ULL + <uint32_t>c
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 32
    return h


cdef inline uint64_t compact_hash(uint64_t x) noexcept nogil:
    """The hash of a compact key: a multiplication by the golden ratio (Fibonacci
    hashing), its high bits folded onto the low ones that pick a slot."""
    x *= 0x9E3779B97F4A7C15ULL
    return x ^ (x >> 29)


cdef struct Slot:
    # an entry of the compact memo: the one-word key (never 0) and its ZDD
    uint64_t key
    int32_t value
    int32_t unused


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
    cdef Frame* grown
    if s.nf == s.capf:
        grown = <Frame*>realloc(s.frames, 2 * s.capf * sizeof(Frame))
        if grown == NULL:
            return -1
        s.frames = grown
        s.capf *= 2
    s.frames[s.nf].f = f
    s.frames[s.nf].g = g
    s.frames[s.nf].phase = phase
    s.nf += 1
    return 0


cdef inline int push_result(Stack* s, int32_t r) noexcept:
    cdef int32_t* grown
    if s.nr == s.capr:
        grown = <int32_t*>realloc(s.results, 2 * s.capr * sizeof(int32_t))
        if grown == NULL:
            return -1
        s.results = grown
        s.capr *= 2
    s.results[s.nr] = r
    s.nr += 1
    return 0


cdef class Store:
    """A ZDD node store with its unique table, cache and garbage collector."""

    cdef int32_t* var
    cdef int32_t* lo
    cdef int32_t* hi
    cdef int32_t* ext
    cdef int64_t capacity      # allocated nodes
    cdef int64_t used          # nodes 0..used-1 have been handed out at least once
    cdef int64_t n_free        # nodes on the free list
    cdef int32_t free_list     # -1 when empty; chained through lo
    cdef int32_t* table        # unique table: node ids, -1 for empty slots
    cdef uint64_t table_mask
    cdef int32_t* cache        # 4 ints per entry: op, f, g, result
    cdef uint64_t cache_mask
    cdef public int64_t max_nodes
    cdef public int64_t collections
    cdef int64_t gc_threshold
    cdef public bint gc_enabled

    def __cinit__(self, int64_t nodes=1 << 16, int64_t cache=1 << 18, int64_t max_nodes=50_000_000):
        if nodes < 16:
            nodes = 16
        self.capacity = 0
        self.var = self.lo = self.hi = self.ext = NULL
        self.table = NULL
        self.cache = NULL
        self.max_nodes = max_nodes
        self.collections = 0
        self.gc_enabled = True
        self._allocate(nodes)
        cdef uint64_t csize = 1024
        while csize < <uint64_t>cache:
            csize <<= 1
        self.cache = <int32_t*>malloc(csize * 4 * sizeof(int32_t))
        if self.cache == NULL:
            raise MemoryError("cannot allocate the ZDD operation cache")
        self.cache_mask = csize - 1
        self._clear_cache()
        self.var[0] = TERMINAL_VAR
        self.var[1] = TERMINAL_VAR
        self.lo[0] = self.hi[0] = 0
        self.lo[1] = self.hi[1] = 1
        self.ext[0] = self.ext[1] = 1
        self.used = 2
        self.n_free = 0
        self.free_list = -1
        self.gc_threshold = (self.capacity * 3) // 4

    def __dealloc__(self):
        free(self.var)
        free(self.lo)
        free(self.hi)
        free(self.ext)
        free(self.table)
        free(self.cache)

    cdef int _allocate(self, int64_t capacity) except -1:
        """Grow the node arrays to ``capacity`` nodes and rebuild the unique table."""
        cdef int32_t* v = <int32_t*>realloc(self.var, capacity * sizeof(int32_t))
        if v == NULL:
            raise MemoryError("cannot grow the ZDD node store")
        self.var = v
        v = <int32_t*>realloc(self.lo, capacity * sizeof(int32_t))
        if v == NULL:
            raise MemoryError("cannot grow the ZDD node store")
        self.lo = v
        v = <int32_t*>realloc(self.hi, capacity * sizeof(int32_t))
        if v == NULL:
            raise MemoryError("cannot grow the ZDD node store")
        self.hi = v
        v = <int32_t*>realloc(self.ext, capacity * sizeof(int32_t))
        if v == NULL:
            raise MemoryError("cannot grow the ZDD node store")
        self.ext = v
        self.capacity = capacity
        return self._rebuild_table()

    cdef int _rebuild_table(self) except -1:
        cdef uint64_t size = 1024
        while size < <uint64_t>(2 * self.capacity):
            size <<= 1
        free(self.table)
        self.table = <int32_t*>malloc(size * sizeof(int32_t))
        if self.table == NULL:
            raise MemoryError("cannot allocate the ZDD unique table")
        memset(self.table, 0xFF, size * sizeof(int32_t))
        self.table_mask = size - 1
        cdef int64_t u
        cdef uint64_t slot
        for u in range(2, self.used):
            if self.var[u] >= 0:
                slot = mix3(self.var[u], self.lo[u], self.hi[u]) & self.table_mask
                while self.table[slot] != -1:
                    slot = (slot + 1) & self.table_mask
                self.table[slot] = <int32_t>u
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
        else:
            if self.used == self.capacity:
                if self._grow() < 0:
                    return -1
                slot = mix3(v, l, h) & self.table_mask
                while self.table[slot] != -1:
                    slot = (slot + 1) & self.table_mask
            u = <int32_t>self.used
            self.used += 1
        self.var[u] = v
        self.lo[u] = l
        self.hi[u] = h
        self.ext[u] = 0
        self.table[slot] = u
        return u

    cdef int _grow(self) noexcept:
        cdef int64_t target = self.capacity * 2
        if target > self.max_nodes:
            target = self.max_nodes
        if target <= self.capacity or target > 0x7FFFFFF0:
            return -1
        try:
            self._allocate(target)
        except MemoryError:
            return -1
        self.gc_threshold = (self.capacity * 3) // 4
        return 0

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
        self.collect()
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

    cdef inline int32_t cache_get(self, int op, int32_t f, int32_t g) noexcept:
        cdef uint64_t slot = (mix3(op, f, g) & self.cache_mask) * 4
        cdef int32_t* e = self.cache + slot
        if e[0] == op and e[1] == f and e[2] == g:
            return e[3]
        return -1

    cdef inline void cache_put(self, int op, int32_t f, int32_t g, int32_t r) noexcept:
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
        """Pop the children's results of op(f, g) and make its node."""
        cdef int32_t v, r0, r1, r2, r3, x
        if op >= C_ONSET and op <= C_CHANGE:
            v = self.var[f]
            s.nr -= 2
            return self.make(v, s.results[s.nr], s.results[s.nr + 1])
        if op == C_MINIMAL or op == C_MAXIMAL:
            v = self.var[f]
            s.nr -= 2
            r0 = s.results[s.nr]
            r1 = s.results[s.nr + 1]
            if op == C_MINIMAL:   # drop from the hi part every set that has a subset in lo
                x = self.run(C_NONSUP, r1, r0)
                if x < 0:
                    return x
                return self.make(v, r0, x)
            x = self.run(C_NONSUB, r0, r1)   # drop from lo every set under a set of hi
            if x < 0:
                return x
            return self.make(v, x, r1)
        v = self.var[f] if self.var[f] < self.var[g] else self.var[g]
        if op == C_JOIN or op == C_MEET:
            s.nr -= 4
            r0 = s.results[s.nr]        # (l, l)
            r1 = s.results[s.nr + 1]    # (h, h)
            r2 = s.results[s.nr + 2]    # (h, l)
            r3 = s.results[s.nr + 3]    # (l, h)
            if op == C_JOIN:
                x = self.run(C_UNION, r1, r2)
                if x < 0:
                    return x
                x = self.run(C_UNION, x, r3)
                if x < 0:
                    return x
                return self.make(v, r0, x)
            x = self.run(C_UNION, r0, r2)
            if x < 0:
                return x
            x = self.run(C_UNION, x, r3)
            if x < 0:
                return x
            return self.make(v, x, r1)
        if op == C_NONSUP:
            s.nr -= 3
            r0 = s.results[s.nr]
            r1 = s.results[s.nr + 1]
            r2 = s.results[s.nr + 2]
            x = self.run(C_INTER, r1, r2)
            if x < 0:
                return x
            return self.make(v, r0, x)
        if op == C_NONSUB:
            s.nr -= 3
            r0 = s.results[s.nr]
            r1 = s.results[s.nr + 1]
            r2 = s.results[s.nr + 2]
            x = self.run(C_INTER, r0, r2)
            if x < 0:
                return x
            return self.make(v, x, r1)
        s.nr -= 2
        return self.make(v, s.results[s.nr], s.results[s.nr + 1])

    # ----- walking a family -----

    cdef int32_t* postorder(self, int32_t root, int64_t* n_out) except? NULL:
        """The inner nodes reachable from root, children before parents (malloc'd)."""
        cdef unsigned char* seen = <unsigned char*>calloc(self.used, 1)
        cdef int32_t* order = <int32_t*>malloc(max(self.used, 16) * sizeof(int32_t))
        cdef Frame* stack = <Frame*>malloc(max(self.used, 16) * sizeof(Frame))
        cdef int64_t n = 0, top = 0
        cdef int32_t u, c
        if seen == NULL or order == NULL or stack == NULL:
            free(seen)
            free(order)
            free(stack)
            raise MemoryError("cannot allocate a ZDD traversal")
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
                continue
            if not seen[c]:
                seen[c] = 1
                stack[top].f = c
                stack[top].phase = 0
                top += 1
        free(seen)
        free(stack)
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

    # ----- DXZ -----

    def dxz_search(self, int n_primary, int n_items, const int[:] option_start,
                   const int[:] node_item, const int[:] node_color, bounds=None):
        """A DXZ search for all solutions of an exact cover problem, as a family over
        option numbers; :meth:`dxz_run` runs it.

        ``option_start`` and ``node_item`` describe the options (engine arrays) already
        sorted by their first primary item; the search always branches on the leftmost
        uncovered primary item, so the options chosen along a path have increasing numbers
        and every node is made directly in canonical form. ``bounds``, when given, is the
        pair of arrays (lo, hi) of the primary items' multiplicities (Algorithm M).
        """
        cdef Dxz d = Dxz(n_primary, n_items, option_start, node_item, node_color)
        if bounds is not None:
            d.set_bounds(bounds[0], bounds[1])
        d.owner = self
        return d

    def dxz_run(self, Dxz d, int64_t budget=-1):
        """Run the search ``d`` of :meth:`dxz_search` until it ends or has entered
        ``budget`` search nodes in all (a negative budget means no limit).

        Returns (root, memo entries, search nodes, memo hits); root is -1 when the budget
        stopped the search. Calling again with a larger budget then goes on from there,
        provided no other operation ran on this store in between: the partial results
        belong to no family, and a garbage collection would free them.
        """
        if d.owner is not self:
            raise ValueError("this DXZ search belongs to another store")
        if d.started and not d.resumable:
            raise ValueError("this DXZ search has ended")
        if not d.started:
            self.safe_point()
        cdef int32_t r
        d.budget = budget
        try:
            r = d.run(self)
        except MemoryError:
            self.collect()
            raise
        if r == -3:
            return -1, d.n_memo, d.nodes, d.hits
        if r < 0:
            self._overflow()
        return r, d.n_memo, d.nodes, d.hits

    def dxz(self, int n_primary, int n_items, const int[:] option_start, const int[:] node_item,
            const int[:] node_color, int64_t budget=-1, bounds=None):
        """:meth:`dxz_search` and :meth:`dxz_run` in one call; a search stopped by its
        budget is abandoned (its nodes collected)."""
        d = self.dxz_search(n_primary, n_items, option_start, node_item, node_color, bounds)
        result = self.dxz_run(d, budget)
        if result[0] == -1:
            self.collect()
        return result


cdef class Dxz:
    """Dancing links for Algorithms X and C with memoisation on the uncovered items.

    The links are Knuth's DLX1 layout: nodes 1..n_items are the item headers (node 0 is the
    root of the list of uncovered primary items), then each option's nodes preceded by a
    spacer. ``top`` of an option node is its item; a spacer's ``top`` is minus its option
    number, its ``ulink`` the first node of the previous option and its ``dlink`` the last
    node of the next.

    Colors follow Knuth's Algorithm C (DLX2): choosing an option that gives a secondary
    item a color *purifies* the item (hides the options that give it another color and
    marks with color -1 the nodes that agree, which hide() then leaves in place).

    The memo maps the state of the sub-problem to the ZDD of its solutions. The state is
    the set of uncovered items (a bitset over all items, primary and secondary) and, when
    the problem has colors, the color each secondary item has been given (0: none); keys
    are compared word by word, never by hash alone.

    Multiplicities (Knuth's Algorithm M) take another loop, :meth:`run_multi`, described
    there; its key also holds how often each active primary item is covered already and
    which of the leftmost item's options are used up.

    Compact keys: without secondary items, colors or multiplicities, every option chosen
    was chosen for its smallest item, so when i is the leftmost uncovered item, the items
    before i are covered and those beyond the *reach* of i (the largest item of an option
    whose smallest item is at most i) are not. The state is then i and the bits of a
    window of items from i, as wide as the largest reach; when i and that window fit in
    64 bits (domino tilings in reading order: a row and a bit), the memo stores that one
    word instead of the whole bitset, in a table of (key, value) slots where a lookup
    touches one cache line (the general memo touches three: table, hash, key).
    """

    cdef int n_primary, n_items, n_options
    cdef int32_t* llink
    cdef int32_t* rlink
    cdef int32_t* top
    cdef int32_t* ulink
    cdef int32_t* dlink
    cdef int32_t* length
    cdef int32_t* opt
    cdef int32_t* color
    cdef int64_t n_nodes
    cdef int words, bit_words
    cdef bint uncolored
    cdef uint64_t* key
    cdef uint64_t* zobrist
    cdef uint64_t hash
    # the key the memo sees: the bitset (and colors, counts...) or the compact key
    cdef readonly bint compact
    cdef int window
    cdef uint64_t wmask, ckey, mhash
    cdef uint64_t* mkey
    cdef int mwords
    # the compact memo: open addressing on (key, value) slots, one cache line per probe
    cdef Slot* slots
    cdef uint64_t slot_mask
    # memo
    cdef uint64_t* memo_keys
    cdef uint64_t* memo_hash
    cdef int32_t* memo_val
    cdef public int64_t n_memo
    cdef public int64_t nodes, hits, budget
    cdef int64_t memo_cap
    cdef int32_t* memo_table
    cdef uint64_t memo_mask
    # the search stack, kept here between the calls of a search stopped by its budget
    cdef int32_t* st_item
    cdef int32_t* st_choice
    cdef int64_t* st_base
    cdef int32_t* st_pend_opt
    cdef int32_t* st_pend_sub
    cdef int64_t st_cap, st_pcap, st_ptop, st_level
    cdef public bint started, resumable
    cdef object owner
    # multiplicities (run_multi): bounds and counts per item, key layout, and the search
    # stacks, kept here so that a search stopped by its budget simply goes on
    cdef bint multi
    cdef int32_t* cnt
    cdef int32_t* mlo
    cdef int32_t* mhi
    cdef int count_word, ptr_word
    cdef int32_t* m_item
    cdef int32_t* m_choice
    cdef int32_t* m_phase
    cdef int32_t* m_none
    cdef int32_t* m_ptr
    cdef int64_t* m_base
    cdef int64_t* m_twbase
    cdef int32_t* m_tweak
    cdef int64_t m_level, m_ptop, m_twtop
    cdef bint m_entering
    cdef int32_t m_result

    def __cinit__(self, int n_primary, int n_items, const int[:] option_start,
                  const int[:] node_item, const int[:] node_color):
        cdef int n_options = option_start.shape[0] - 1
        cdef int64_t n_entries = node_item.shape[0]
        cdef int64_t size = n_items + 2 + n_entries + n_options + 1
        cdef int64_t i, j, k, x, last
        cdef uint64_t z = 0x243F6A8885A308D3ULL
        self.n_primary = n_primary
        self.n_items = n_items
        self.n_options = n_options
        self.llink = <int32_t*>calloc(n_items + 2, sizeof(int32_t))
        self.rlink = <int32_t*>calloc(n_items + 2, sizeof(int32_t))
        self.top = <int32_t*>calloc(size, sizeof(int32_t))
        self.ulink = <int32_t*>calloc(size, sizeof(int32_t))
        self.dlink = <int32_t*>calloc(size, sizeof(int32_t))
        self.length = <int32_t*>calloc(n_items + 2, sizeof(int32_t))
        self.opt = <int32_t*>calloc(size, sizeof(int32_t))
        self.color = <int32_t*>calloc(size, sizeof(int32_t))
        self.bit_words = (n_items + 64) // 64
        self.words = self.bit_words
        self.uncolored = True
        for j in range(n_entries):
            if node_color[j] != 0:
                self.uncolored = False
                # room for the color of each secondary item, two 32-bit colors per word
                self.words += (n_items - n_primary + 1) // 2
                break
        self.key = <uint64_t*>calloc(self.words, sizeof(uint64_t))
        self.zobrist = <uint64_t*>calloc(n_items + 2, sizeof(uint64_t))
        self.memo_cap = 0
        self.n_memo = 0
        self.nodes = self.hits = 0
        self.budget = -1
        self.memo_keys = NULL
        self.memo_hash = NULL
        self.memo_val = NULL
        self.memo_table = NULL
        self.st_item = self.st_choice = self.st_pend_opt = self.st_pend_sub = NULL
        self.st_base = NULL
        self.started = self.resumable = False
        self.multi = False
        self.cnt = self.mlo = self.mhi = NULL
        self.m_item = self.m_choice = self.m_phase = self.m_none = self.m_ptr = NULL
        self.m_tweak = NULL
        self.m_base = self.m_twbase = NULL
        if (self.llink == NULL or self.rlink == NULL or self.top == NULL or self.ulink == NULL
                or self.dlink == NULL or self.length == NULL or self.opt == NULL
                or self.key == NULL or self.zobrist == NULL or self.color == NULL):
            raise MemoryError("cannot allocate the DXZ links")
        self.mkey = self.key
        self.mwords = self.words
        self.compact = False
        self.slots = NULL
        if self.uncolored and n_items == n_primary:
            self._choose_window(option_start, node_item)
        if self.compact:
            self._slots_grow(1 << 13)
        else:
            self._memo_grow(1 << 12)
        # item lists: primary items linked from the root 0; secondary ones each alone
        for i in range(n_primary + 1):
            self.llink[i] = <int32_t>(i - 1 if i > 0 else n_primary)
            self.rlink[i] = <int32_t>(i + 1 if i < n_primary else 0)
        for i in range(n_primary + 1, n_items + 1):
            self.llink[i] = self.rlink[i] = <int32_t>i
        self.hash = 0
        for i in range(1, n_items + 1):
            self.ulink[i] = self.dlink[i] = <int32_t>i
            self.top[i] = 0
            z ^= z << 13
            z ^= z >> 7
            z ^= z << 17
            self.zobrist[i] = z
            self.hash ^= z
            self.key[i >> 6] |= (<uint64_t>1) << (i & 63)
        x = n_items + 1
        self.top[x] = 0
        last = x
        for k in range(n_options):
            for j in range(option_start[k], option_start[k + 1]):
                x += 1
                i = node_item[j] + 1
                self.top[x] = <int32_t>i
                self.opt[x] = <int32_t>k
                self.color[x] = node_color[j]
                self.ulink[x] = self.ulink[i]
                self.dlink[x] = <int32_t>i
                self.dlink[self.ulink[i]] = <int32_t>x
                self.ulink[i] = <int32_t>x
                self.length[i] += 1
            x += 1   # spacer
            self.top[x] = <int32_t>(-k - 1)
            self.ulink[x] = <int32_t>(last + 1)
            self.dlink[last] = <int32_t>(x - 1)
            last = x
        self.n_nodes = x + 1

    def __dealloc__(self):
        free(self.llink)
        free(self.rlink)
        free(self.top)
        free(self.ulink)
        free(self.dlink)
        free(self.length)
        free(self.opt)
        free(self.color)
        free(self.key)
        free(self.zobrist)
        free(self.memo_keys)
        free(self.memo_hash)
        free(self.memo_val)
        free(self.memo_table)
        free(self.slots)
        free(self.st_item)
        free(self.st_choice)
        free(self.st_base)
        free(self.st_pend_opt)
        free(self.st_pend_sub)
        free(self.cnt)
        free(self.mlo)
        free(self.mhi)
        free(self.m_item)
        free(self.m_choice)
        free(self.m_phase)
        free(self.m_none)
        free(self.m_ptr)
        free(self.m_base)
        free(self.m_twbase)
        free(self.m_tweak)

    cdef int _choose_window(self, const int[:] option_start, const int[:] node_item) except -1:
        """Use compact keys when the widest reach and the leftmost item fit in 64 bits
        (see the class notes)."""
        cdef int n = self.n_primary, k, i, lo, hi, width = 1, running = 0
        cdef int64_t j
        cdef int32_t* reach = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        if reach == NULL:
            raise MemoryError("cannot allocate the DXZ links")
        for i in range(n):
            reach[i] = i
        for k in range(option_start.shape[0] - 1):
            if option_start[k] == option_start[k + 1]:
                continue
            lo = hi = node_item[option_start[k]]
            for j in range(option_start[k], option_start[k + 1]):
                lo = min(lo, node_item[j])
                hi = max(hi, node_item[j])
            reach[lo] = max(reach[lo], hi)
        for i in range(n):
            running = max(running, reach[i])
            width = max(width, running - i + 1)
        free(reach)
        if width + (n + 1).bit_length() <= 64:
            self.compact = True
            self.window = width
            self.wmask = ((<uint64_t>1) << width) - 1
            self.mkey = &self.ckey
            self.mwords = 1
        return 0

    cdef inline void prepare_key(self) noexcept:
        """Make the key the memo sees for the current state (the compact key when in use;
        the bitset otherwise, whose hash is kept up to date as items are covered)."""
        cdef int32_t i
        cdef int64_t word, shift
        cdef uint64_t bits
        if self.compact:
            i = self.rlink[0]
            word = i >> 6
            shift = i & 63
            bits = self.key[word] >> shift
            if shift != 0 and word + 1 < self.bit_words:
                bits |= self.key[word + 1] << (64 - shift)
            self.ckey = ((<uint64_t>i) << self.window) | (bits & self.wmask)
            self.mhash = compact_hash(self.ckey)
        else:
            self.mhash = self.hash

    cdef int _slots_grow(self, uint64_t size) except -1:
        """Make the compact memo ``size`` slots (a power of two) and put its entries back."""
        cdef Slot* old = self.slots
        cdef uint64_t old_size = self.slot_mask + 1 if old != NULL else 0, k, slot
        cdef Slot* grown = <Slot*>calloc(size, sizeof(Slot))
        if grown == NULL:
            raise MemoryError("cannot grow the DXZ memo")
        self.slots = grown
        self.slot_mask = size - 1
        for k in range(old_size):
            if old[k].key != 0:
                slot = compact_hash(old[k].key) & self.slot_mask
                while grown[slot].key != 0:
                    slot = (slot + 1) & self.slot_mask
                grown[slot] = old[k]
        free(old)
        return 0

    cdef int _memo_grow(self, int64_t cap) except -1:
        cdef uint64_t* mk = <uint64_t*>realloc(self.memo_keys, cap * self.mwords * sizeof(uint64_t))
        if mk == NULL:
            raise MemoryError("cannot grow the DXZ memo")
        self.memo_keys = mk
        mk = <uint64_t*>realloc(self.memo_hash, cap * sizeof(uint64_t))
        if mk == NULL:
            raise MemoryError("cannot grow the DXZ memo")
        self.memo_hash = mk
        cdef int32_t* mv = <int32_t*>realloc(self.memo_val, cap * sizeof(int32_t))
        if mv == NULL:
            raise MemoryError("cannot grow the DXZ memo")
        self.memo_val = mv
        self.memo_cap = cap
        free(self.memo_table)
        cdef uint64_t size = 1
        while size < <uint64_t>(2 * cap):
            size <<= 1
        self.memo_table = <int32_t*>malloc(size * sizeof(int32_t))
        if self.memo_table == NULL:
            raise MemoryError("cannot grow the DXZ memo")
        memset(self.memo_table, 0xFF, size * sizeof(int32_t))
        self.memo_mask = size - 1
        cdef int64_t e
        cdef uint64_t slot
        for e in range(self.n_memo):
            slot = self.memo_hash[e] & self.memo_mask
            while self.memo_table[slot] != -1:
                slot = (slot + 1) & self.memo_mask
            self.memo_table[slot] = <int32_t>e
        return 0

    cdef inline int32_t memo_find(self) noexcept:
        """The memo's value for the key of :meth:`prepare_key`, or -1."""
        cdef uint64_t slot = self.mhash & self.memo_mask
        cdef int32_t e
        cdef int w
        cdef uint64_t* stored
        if self.compact:
            slot = self.mhash & self.slot_mask
            while self.slots[slot].key != 0:
                if self.slots[slot].key == self.ckey:
                    return self.slots[slot].value
                slot = (slot + 1) & self.slot_mask
            return -1
        while True:
            e = self.memo_table[slot]
            if e == -1:
                return -1
            if self.memo_hash[e] == self.mhash:
                stored = self.memo_keys + <int64_t>e * self.mwords
                for w in range(self.mwords):
                    if stored[w] != self.mkey[w]:
                        break
                else:
                    return self.memo_val[e]
            slot = (slot + 1) & self.memo_mask

    cdef int memo_add(self, int32_t value) except -1:
        """Remember ``value`` for the key of :meth:`prepare_key`."""
        cdef uint64_t cslot
        if self.compact:
            if 4 * (<uint64_t>self.n_memo + 1) > 3 * (self.slot_mask + 1):
                self._slots_grow(2 * (self.slot_mask + 1))
            cslot = self.mhash & self.slot_mask
            while self.slots[cslot].key != 0:
                cslot = (cslot + 1) & self.slot_mask
            self.slots[cslot].key = self.ckey
            self.slots[cslot].value = value
            self.n_memo += 1
            return 0
        if self.n_memo == self.memo_cap:
            if self.n_memo >= 0x7FFFFFF0 // 2:
                raise MemoryError("the DXZ memo is full")
            self._memo_grow(2 * self.memo_cap)
        cdef int64_t e = self.n_memo
        memcpy(self.memo_keys + e * self.mwords, self.mkey, self.mwords * sizeof(uint64_t))
        self.memo_hash[e] = self.mhash
        self.memo_val[e] = value
        self.n_memo += 1
        cdef uint64_t slot = self.mhash & self.memo_mask
        while self.memo_table[slot] != -1:
            slot = (slot + 1) & self.memo_mask
        self.memo_table[slot] = <int32_t>e
        return 0

    cdef inline void hide(self, int32_t p) noexcept:
        """Unlink the other nodes of p's option from their items (not the nodes that
        purify() marked with color -1: they stay where unpurify() will look)."""
        cdef int32_t q = p + 1, x, u, d
        while q != p:
            x = self.top[q]
            if x <= 0:
                q = self.ulink[q]
            else:
                if self.uncolored or self.color[q] >= 0:
                    u = self.ulink[q]
                    d = self.dlink[q]
                    self.dlink[u] = d
                    self.ulink[d] = u
                    self.length[x] -= 1
                q += 1

    cdef inline void unhide(self, int32_t p) noexcept:
        cdef int32_t q = p - 1, x, u, d
        while q != p:
            x = self.top[q]
            if x <= 0:
                q = self.dlink[q]
            else:
                if self.uncolored or self.color[q] >= 0:
                    u = self.ulink[q]
                    d = self.dlink[q]
                    self.dlink[u] = q
                    self.ulink[d] = q
                    self.length[x] += 1
                q -= 1

    cdef inline void cover(self, int32_t i) noexcept:
        cdef int32_t p = self.dlink[i]
        while p != i:
            self.hide(p)
            p = self.dlink[p]
        self.rlink[self.llink[i]] = self.rlink[i]
        self.llink[self.rlink[i]] = self.llink[i]
        self.key[i >> 6] ^= (<uint64_t>1) << (i & 63)
        self.hash ^= self.zobrist[i]

    cdef inline void uncover(self, int32_t i) noexcept:
        cdef int32_t p
        self.key[i >> 6] ^= (<uint64_t>1) << (i & 63)
        self.hash ^= self.zobrist[i]
        self.rlink[self.llink[i]] = i
        self.llink[self.rlink[i]] = i
        p = self.ulink[i]
        while p != i:
            self.unhide(p)
            p = self.ulink[p]

    cdef inline void set_key_color(self, int32_t i, int32_t c) noexcept:
        """Record in the memo key (and its hash) that secondary item i has color c."""
        cdef int32_t* colors = <int32_t*>(self.key + self.bit_words)
        cdef int32_t old = colors[i - self.n_primary - 1]
        self.hash ^= self.zobrist[i] * (<uint64_t>old * 2 + 1) * 0x9E3779B97F4A7C15ULL
        self.hash ^= self.zobrist[i] * (<uint64_t>c * 2 + 1) * 0x9E3779B97F4A7C15ULL
        colors[i - self.n_primary - 1] = c

    cdef inline void purify(self, int32_t p) noexcept:
        """Secondary item top[p] takes the color of p: hide the options that give it
        another color, mark the nodes that agree (Knuth's Algorithm C)."""
        cdef int32_t c = self.color[p], i = self.top[p], q = self.dlink[i]
        while q != i:
            if self.color[q] != c:
                self.hide(q)
            elif q != p:
                self.color[q] = -1
            q = self.dlink[q]
        self.set_key_color(i, c)

    cdef inline void unpurify(self, int32_t p) noexcept:
        cdef int32_t c = self.color[p], i = self.top[p], q = self.ulink[i]
        self.set_key_color(i, 0)
        while q != i:
            if self.color[q] < 0:
                self.color[q] = c
            elif q != p:
                self.unhide(q)
            q = self.ulink[q]

    cdef inline void cover_others(self, int32_t x) noexcept:
        """Commit the other items of x's option: cover them, or purify a colored one."""
        cdef int32_t p = x + 1, j
        while p != x:
            j = self.top[p]
            if j <= 0:
                p = self.ulink[p]
            else:
                if self.color[p] == 0:
                    self.cover(j)
                elif self.color[p] > 0:
                    self.purify(p)
                p += 1

    cdef inline void uncover_others(self, int32_t x) noexcept:
        cdef int32_t p = x - 1, j
        while p != x:
            j = self.top[p]
            if j <= 0:
                p = self.dlink[p]
            else:
                if self.color[p] == 0:
                    self.uncover(j)
                elif self.color[p] > 0:
                    self.unpurify(p)
                p -= 1

    def set_bounds(self, const int[:] lo, const int[:] hi):
        """Give primary item ``j`` (0-based) the multiplicity ``lo[j]..hi[j]``: the search
        becomes :meth:`run_multi`. Only before the search starts."""
        if self.started:
            raise ValueError("the bounds of a DXZ search are set before it starts")
        cdef int j, n = self.n_primary
        cdef int64_t levels = <int64_t>self.n_options + n + 2
        if lo.shape[0] != n or hi.shape[0] != n:
            raise ValueError("one pair of bounds per primary item")
        self.multi = True
        self.cnt = <int32_t*>calloc(n + 2, sizeof(int32_t))
        self.mlo = <int32_t*>calloc(n + 2, sizeof(int32_t))
        self.mhi = <int32_t*>calloc(n + 2, sizeof(int32_t))
        self.m_item = <int32_t*>malloc(levels * sizeof(int32_t))
        self.m_choice = <int32_t*>malloc(levels * sizeof(int32_t))
        self.m_phase = <int32_t*>malloc(levels * sizeof(int32_t))
        self.m_none = <int32_t*>malloc(levels * sizeof(int32_t))
        self.m_ptr = <int32_t*>malloc(levels * sizeof(int32_t))
        self.m_base = <int64_t*>malloc(levels * sizeof(int64_t))
        self.m_twbase = <int64_t*>malloc(levels * sizeof(int64_t))
        self.m_tweak = <int32_t*>malloc((self.n_options + 1) * sizeof(int32_t))
        # a level's pending (option, sub-family) pairs: one per tweaked option, so at most
        # n_options on the stack at once, as for the tweaks
        self.st_pend_opt = <int32_t*>malloc((self.n_options + 1) * sizeof(int32_t))
        self.st_pend_sub = <int32_t*>malloc((self.n_options + 1) * sizeof(int32_t))
        if (self.cnt == NULL or self.mlo == NULL or self.mhi == NULL or self.m_item == NULL
                or self.m_choice == NULL or self.m_phase == NULL or self.m_none == NULL
                or self.m_ptr == NULL or self.m_base == NULL or self.m_twbase == NULL
                or self.m_tweak == NULL or self.st_pend_opt == NULL or self.st_pend_sub == NULL):
            raise MemoryError("cannot allocate the DXZ stacks")
        for j in range(n):
            if lo[j] < 0 or hi[j] < max(lo[j], 1):
                raise ValueError(f"bad bounds {lo[j]}..{hi[j]} for primary item {j}")
            self.mlo[j + 1] = lo[j]
            self.mhi[j + 1] = hi[j]
        # key: bitset | colors | a 32-bit count per primary item | the leftmost item's
        # used-up prefix (one word)
        self.count_word = self.words
        self.ptr_word = self.words + (n + 1) // 2
        cdef int words = self.ptr_word + 1
        cdef uint64_t* key = <uint64_t*>calloc(words, sizeof(uint64_t))
        if key == NULL:
            raise MemoryError("cannot allocate the DXZ key")
        memcpy(key, self.key, self.words * sizeof(uint64_t))
        free(self.key)
        self.key = key
        self.words = words
        self.compact = False
        free(self.slots)
        self.slots = NULL
        self.mkey = self.key
        self.mwords = words
        self._memo_grow(1 << 12)
        self.m_level = self.m_ptop = self.m_twtop = 0
        self.m_entering = True
        self.m_result = 0

    cdef inline void set_count_key(self, int32_t j, int32_t c) noexcept:
        """Record in the memo key that active primary item j is covered c times (0 for
        an inactive item, whatever its count: its sub-problems no longer depend on it)."""
        cdef int32_t* counts = <int32_t*>(self.key + self.count_word)
        cdef int32_t old = counts[j - 1]
        self.hash ^= self.zobrist[j] * (<uint64_t>old * 2 + 1) * 0xC2B2AE3D27D4EB4FULL
        self.hash ^= self.zobrist[j] * (<uint64_t>c * 2 + 1) * 0xC2B2AE3D27D4EB4FULL
        counts[j - 1] = c

    cdef inline void set_ptr_key(self, int32_t ptr) noexcept:
        """Record in the memo key that the leftmost item's options numbered below ``ptr``
        are used up (chosen or passed over at the level above)."""
        cdef uint64_t old = self.key[self.ptr_word]
        self.hash ^= (old * 2 + 1) * 0x94D049BB133111EBULL
        self.hash ^= (<uint64_t>ptr * 2 + 1) * 0x94D049BB133111EBULL
        self.key[self.ptr_word] = <uint64_t>ptr

    cdef inline void tweak(self, int32_t x) noexcept:
        """Take option x out of the search: its node x leaves the list of the branching
        item, its other nodes leave theirs (Knuth's Algorithm M does the same)."""
        cdef int32_t i = self.top[x]
        self.hide(x)
        self.dlink[self.ulink[x]] = self.dlink[x]
        self.ulink[self.dlink[x]] = self.ulink[x]
        self.length[i] -= 1

    cdef inline void untweak(self, int32_t x) noexcept:
        cdef int32_t i = self.top[x]
        self.length[i] += 1
        self.dlink[self.ulink[x]] = x
        self.ulink[self.dlink[x]] = x
        self.unhide(x)

    cdef inline void count_in(self, int32_t q) noexcept:
        """Node q's item is covered once more by its (tweaked) option: a primary item
        counts it and leaves the search when it reaches its upper bound; a secondary item
        is covered or purified as in Algorithm C."""
        cdef int32_t j = self.top[q]
        if j <= self.n_primary:
            self.cnt[j] += 1
            if self.cnt[j] == self.mhi[j]:
                self.set_count_key(j, 0)
                self.cover(j)
            else:
                self.set_count_key(j, self.cnt[j])
        elif self.color[q] == 0:
            self.cover(j)
        elif self.color[q] > 0:
            self.purify(q)

    cdef inline void count_out(self, int32_t q) noexcept:
        cdef int32_t j = self.top[q]
        if j <= self.n_primary:
            if self.cnt[j] == self.mhi[j]:
                self.uncover(j)
            self.cnt[j] -= 1
            self.set_count_key(j, self.cnt[j])
        elif self.color[q] == 0:
            self.uncover(j)
        elif self.color[q] > 0:
            self.unpurify(q)

    cdef inline void apply(self, int32_t x) noexcept:
        """Choose x's option (already tweaked): count in each of its items, x's first."""
        cdef int32_t p = x + 1
        self.count_in(x)
        while p != x:
            if self.top[p] <= 0:
                p = self.ulink[p]
            else:
                self.count_in(p)
                p += 1

    cdef inline void unapply(self, int32_t x) noexcept:
        cdef int32_t p = x - 1
        while p != x:
            if self.top[p] <= 0:
                p = self.dlink[p]
            else:
                self.count_out(p)
                p -= 1
        self.count_out(x)

    cdef int32_t run_multi(self, Store store) except -2:
        """The search with multiplicities: Algorithm M's branching, memoised.

        A level branches on the leftmost active primary item i, covered ``cnt[i]`` times:
        first on each option x still in i's list, in order (x is *tweaked*: taken out of
        every list, and stays out for the later branches of the level, so that a set of
        options is found once, in increasing order), then, when ``cnt[i]`` has reached
        its lower bound, on closing i (no more options for it). An item leaves the search
        when its upper bound is reached or it is closed. The family of a level is
        ``union_k {x_k} x sub_k  |  sub_close``, made from the last branch back; the
        options of a branch all come after x_k, and those left when i is closed after
        every option of i, so each node is canonical as made.

        The sub-problem of a level is fixed by the active items, the colors, the counts
        of the active primary items and, for i, which of its options are used up (those
        numbered up to the option chosen at the level above, when that level branched on
        i too): that is the memo key. Returns as :meth:`run` does; the whole search state
        lives in the object, so after -3 the next call simply goes on.
        """
        cdef int64_t level = self.m_level, ptop = self.m_ptop, twtop = self.m_twtop, k
        cdef bint entering = self.m_entering
        cdef int32_t result = self.m_result, i, x, f, ptr
        cdef int32_t* pend_opt = self.st_pend_opt
        cdef int32_t* pend_sub = self.st_pend_sub
        self.started = True
        self.resumable = False
        while True:
            if entering:
                if self.nodes == self.budget:
                    self.m_level, self.m_ptop, self.m_twtop = level, ptop, twtop
                    self.m_entering, self.m_result = True, result
                    self.resumable = True
                    return -3
                self.nodes += 1
                if (self.nodes & 0xFFFF) == 0 and PyErr_CheckSignals() < 0:
                    return -2   # Ctrl-C: the KeyboardInterrupt propagates
                i = self.rlink[0]
                if i == 0:
                    result = 1
                    entering = False
                    continue
                ptr = 0
                if level > 0 and self.m_item[level - 1] == i:
                    ptr = self.opt[self.m_choice[level - 1]] + 1
                self.set_ptr_key(ptr)
                self.prepare_key()
                result = self.memo_find()
                if result >= 0:
                    self.hits += 1
                    entering = False
                    continue
                if self.length[i] < self.mlo[i] - self.cnt[i]:
                    result = 0   # too few options left to reach the lower bound
                    entering = False
                    continue
                self.m_item[level] = i
                self.m_choice[level] = self.dlink[i]
                self.m_phase[level] = 0
                self.m_ptr[level] = ptr
                self.m_base[level] = ptop
                self.m_twbase[level] = twtop
            else:
                if level == 0:
                    return result
                level -= 1
                i = self.m_item[level]
                if self.m_phase[level] == 0:
                    x = self.m_choice[level]
                    self.unapply(x)
                    if result != 0:
                        pend_opt[ptop] = self.opt[x]
                        pend_sub[ptop] = result
                        ptop += 1
                    self.m_choice[level] = self.dlink[x]
                else:
                    self.set_count_key(i, self.cnt[i])
                    self.uncover(i)
                    self.m_none[level] = result
                    self.m_phase[level] = 2
            i = self.m_item[level]
            if self.m_phase[level] == 0:
                x = self.m_choice[level]
                if x != i and self.length[i] >= self.mlo[i] - self.cnt[i]:
                    self.tweak(x)
                    self.m_tweak[twtop] = x
                    twtop += 1
                    self.apply(x)
                    level += 1
                    entering = True
                    continue
                if self.cnt[i] >= self.mlo[i]:
                    self.m_phase[level] = 1
                    self.set_count_key(i, 0)
                    self.cover(i)
                    level += 1
                    entering = True
                    continue
                self.m_none[level] = 0
            # the level is done: make its family, put its tweaked options back
            f = self.m_none[level]
            k = ptop - 1
            while k >= self.m_base[level]:
                f = store.make(pend_opt[k], f, pend_sub[k])
                if f < 0:
                    return -1
                k -= 1
            ptop = self.m_base[level]
            while twtop > self.m_twbase[level]:
                twtop -= 1
                self.untweak(self.m_tweak[twtop])
            self.set_ptr_key(self.m_ptr[level])
            self.prepare_key()
            self.memo_add(f)
            result = f
            entering = False

    cdef int32_t run(self, Store store) except -2:
        """The search: an explicit stack of levels, one per chosen option; -1 when the
        node limit of the store is reached, -3 when ``budget`` search nodes have been
        entered. After -3 (only) the stack is kept here and the next call goes on from
        there, with the same search nodes, memo and ZDD nodes (which no Family holds: the
        store must not collect garbage in between)."""
        cdef int64_t cap = self.n_primary + 2
        cdef int64_t pcap = 1024, ptop = 0
        cdef int64_t level = 0, k
        cdef int32_t* item
        cdef int32_t* choice
        cdef int64_t* base
        cdef int32_t* pend_opt
        cdef int32_t* pend_sub
        cdef int32_t* grown
        cdef int32_t i, x, result = 0, f
        cdef bint entering = True, keep = False
        if self.multi:
            return self.run_multi(store)
        if self.resumable:
            item, choice, base = self.st_item, self.st_choice, self.st_base
            pend_opt, pend_sub = self.st_pend_opt, self.st_pend_sub
            cap, pcap, ptop, level = self.st_cap, self.st_pcap, self.st_ptop, self.st_level
            self.st_item = self.st_choice = self.st_pend_opt = self.st_pend_sub = NULL
            self.st_base = NULL
            self.resumable = False
        else:
            item = <int32_t*>malloc(cap * sizeof(int32_t))
            choice = <int32_t*>malloc(cap * sizeof(int32_t))
            base = <int64_t*>malloc(cap * sizeof(int64_t))
            pend_opt = <int32_t*>malloc(pcap * sizeof(int32_t))
            pend_sub = <int32_t*>malloc(pcap * sizeof(int32_t))
        self.started = True
        if item == NULL or choice == NULL or base == NULL or pend_opt == NULL or pend_sub == NULL:
            free(item); free(choice); free(base); free(pend_opt); free(pend_sub)
            raise MemoryError("cannot allocate the DXZ stack")
        try:
            while True:
                if entering:
                    # enter level: solve the sub-problem of the uncovered items
                    if self.nodes == self.budget:
                        keep = True
                        return -3
                    self.nodes += 1
                    if (self.nodes & 0xFFFF) == 0 and PyErr_CheckSignals() < 0:
                        return -2   # Ctrl-C: the KeyboardInterrupt propagates
                    i = self.rlink[0]
                    if i == 0:
                        result = 1
                        entering = False
                        continue
                    self.prepare_key()
                    result = self.memo_find()
                    if result >= 0:
                        self.hits += 1
                        entering = False
                        continue
                    if self.length[i] == 0:
                        # a dead end is found again as fast as it is looked up: no entry
                        result = 0
                        entering = False
                        continue
                    self.cover(i)
                    item[level] = i
                    choice[level] = self.dlink[i]
                    base[level] = ptop
                else:
                    # a sub-problem returned `result`: leave the level above it
                    if level == 0:
                        return result
                    level -= 1
                    x = choice[level]
                    self.uncover_others(x)
                    if result != 0:
                        if ptop == pcap:
                            pcap *= 2
                            grown = <int32_t*>realloc(pend_opt, pcap * sizeof(int32_t))
                            if grown == NULL:
                                raise MemoryError("cannot grow the DXZ stack")
                            pend_opt = grown
                            grown = <int32_t*>realloc(pend_sub, pcap * sizeof(int32_t))
                            if grown == NULL:
                                raise MemoryError("cannot grow the DXZ stack")
                            pend_sub = grown
                        pend_opt[ptop] = self.opt[x]
                        pend_sub[ptop] = result
                        ptop += 1
                    choice[level] = self.dlink[x]
                # try the next option at this level, or finish it
                i = item[level]
                x = choice[level]
                if x == i:
                    f = 0
                    k = ptop - 1
                    while k >= base[level]:
                        f = store.make(pend_opt[k], f, pend_sub[k])
                        if f < 0:
                            return -1
                        k -= 1
                    ptop = base[level]
                    self.uncover(i)
                    self.prepare_key()
                    self.memo_add(f)
                    result = f
                    entering = False
                    continue
                self.cover_others(x)
                level += 1
                if level + 1 >= cap:
                    cap *= 2
                    grown = <int32_t*>realloc(item, cap * sizeof(int32_t))
                    if grown == NULL:
                        raise MemoryError("cannot grow the DXZ stack")
                    item = grown
                    grown = <int32_t*>realloc(choice, cap * sizeof(int32_t))
                    if grown == NULL:
                        raise MemoryError("cannot grow the DXZ stack")
                    choice = grown
                    base = <int64_t*>realloc(base, cap * sizeof(int64_t))
                    if base == NULL:
                        raise MemoryError("cannot grow the DXZ stack")
                entering = True
        finally:
            if keep:
                self.st_item, self.st_choice, self.st_base = item, choice, base
                self.st_pend_opt, self.st_pend_sub = pend_opt, pend_sub
                self.st_cap, self.st_pcap, self.st_ptop, self.st_level = cap, pcap, ptop, level
                self.resumable = True
            else:
                free(item); free(choice); free(base); free(pend_opt); free(pend_sub)
