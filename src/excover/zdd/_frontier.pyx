# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Counting the solutions of a tiling-like problem over DXZ's states, layer by layer, on
several threads, in integers as wide as the count needs.

The problems: only primary items, no colors, no multiplicities, and every option spans
fewer than 64 items (from its first item to its last). DXZ then branches on the leftmost
uncovered item i, and its state is i with the window of the next items' covered bits (see
``Dxz`` in :mod:`excover.zdd._store`): *layer* i holds the states whose leftmost
uncovered item is i, each with the number of ways to reach it.

Layer 0 holds the empty state, once. Processing layer i sends every state (bits, count)
through every option that starts at item i and fits in the free bits: the covered bits
grow by the option's mask and shift to the next uncovered item i', and the count is added
to state (i', bits') in layer i' > i (or to the total when i' is past the last item). A
layer depends only on earlier ones, so after layer i no state of layer i changes again and
its table is cleared: only the 64 layers ahead are ever stored, instead of the whole memo.

States are dealt to *shards* by a hash of (layer, bits), and shard s belongs to thread
s mod threads. Each thread processes the states of its shards in the current layer and
posts the new (layer, bits, count) triples to the mailbox of their shard; then each
thread empties the mailboxes of its shards into the shards' tables. No two threads write
the same table or mailbox, so no locks are needed; the two phases of each layer are
OpenMP loops, with the GIL released (and Ctrl-C looked at between layers). More shards
than threads keep each table small enough for the processor's caches when a layer holds
millions of states.

Counts of any size. A count is K little-endian 64-bit words, and the additions are exact
as long as no sum reaches 2^(64 K). Invariant: when a layer starts, every stored count
and every thread's running total is below 2^(64 (K - 1)), so its top word is zero. During
the layer, each sum that receives additions (a state of a later layer, or a total) gets
them from the states of the current layer, each below 2^(64 (K - 1)); there are fewer
than 2^64 of them (one per state and option), so a sum stays below
(1 + 2^64 - 1) 2^(64 (K - 1)) = 2^(64 K): no addition loses a carry. Any sum whose top
word became nonzero is flagged; between layers, a flag widens every table and total to
K + 1 words (the same values, one more zero word), which restores the invariant for the
next layer. So every count is exact, whatever its size, and K grows only as far as the
counts do (the counts of DXZ's states, which bound the final total from above or not,
never make a result wrong, only a word wider). It starts at ``words`` (2: 128 bits).
"""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange

from excover._portable cimport ctz64

include "_frontier_shape.pxi"

cdef extern from *:
    """
    #define FRONTIER_EMPTY 0xFFFFFFFFFFFFFFFFULL

    /* acc[0..k) += x[0..k), little-endian words; returns whether the top word of the
       sum is nonzero (the carry out of the top word is never lost: see the module). */
    static inline int frontier_add(uint64_t *acc, const uint64_t *x, int k) {
        uint64_t carry = 0, sum;
        int w;
        for (w = 0; w < k; w++) {
            sum = acc[w] + carry;
            carry = sum < carry;
            acc[w] = sum + x[w];
            carry += acc[w] < sum;
        }
        return acc[k - 1] != 0;
    }

    static inline void frontier_copy(uint64_t *to, const uint64_t *from, int k) {
        int w;
        for (w = 0; w < k; w++) to[w] = from[w];
    }
    """
    const uint64_t EMPTY "FRONTIER_EMPTY"
    int add_words "frontier_add" (uint64_t* acc, const uint64_t* x, int k) noexcept nogil
    void copy_words "frontier_copy" (uint64_t* to, const uint64_t* source, int k) noexcept nogil

cdef extern from *:
    """
    #ifdef _OPENMP
    #define FRONTIER_OPENMP 1
    #else
    #define FRONTIER_OPENMP 0
    #endif
    """
    const int FRONTIER_OPENMP

#: Whether this build shares each layer among OpenMP threads (else ``threads`` run in turn).
OPENMP = bool(FRONTIER_OPENMP)

#: Layers kept at once: an option spans at most 63 items past its first one.
DEF RING = 64

#: States in a layer below which one thread works through every thread's share.
DEF PARALLEL_LAYER = 4096

#: A table's first size (slots), when its first state arrives.
DEF FIRST_SIZE = 16


cdef struct Table:
    uint64_t* rows     # size rows of 1 + K words: the bits (EMPTY when free), the count
    uint64_t mask      # size - 1 (size a power of two), or no slots when rows is NULL
    int64_t used
    uint64_t hint      # the size to start from: the size the table had when last emptied


#: Emptied tables' memory kept by each thread for the next tables of the same size.
DEF POOL = 4


cdef struct Pool:
    uint64_t* buffers[POOL]
    size_t bytes[POOL]
    int n


cdef uint64_t* pool_take(Pool* pool, size_t bytes) noexcept nogil:
    """A buffer of ``bytes`` bytes: one kept in the pool if it has one that size (no
    fresh pages for the kernel to clear: a 24 x 24 board's layers are 50 MB each), else
    a new one; NULL when out of memory."""
    cdef int k
    for k in range(pool.n):
        if pool.bytes[k] == bytes:
            pool.n -= 1
            pool.buffers[k], pool.buffers[pool.n] = pool.buffers[pool.n], pool.buffers[k]
            pool.bytes[k], pool.bytes[pool.n] = pool.bytes[pool.n], pool.bytes[k]
            return pool.buffers[pool.n]
    return <uint64_t*>malloc(bytes)


cdef void pool_give(Pool* pool, uint64_t* buffer, size_t bytes) noexcept nogil:
    """Keep ``buffer`` for a later table, or free it when the pool is full."""
    if pool.n == POOL:
        free(buffer)
    else:
        pool.buffers[pool.n] = buffer
        pool.bytes[pool.n] = bytes
        pool.n += 1


cdef struct Mailbox:
    uint64_t* posts    # n rows of 2 + K words: the bits, the layer, the count
    int64_t n
    int64_t capacity   # rows


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    x *= 0x9E3779B97F4A7C15ULL
    return x ^ (x >> 29)


cdef int table_init(Table* t, uint64_t size, int stride, Pool* pool) noexcept nogil:
    cdef uint64_t k
    t.rows = pool_take(pool, size * stride * sizeof(uint64_t))
    if t.rows == NULL:
        return -1
    for k in range(size):
        t.rows[k * stride] = EMPTY
    t.mask = size - 1
    t.used = 0
    return 0


cdef int table_rehash(Table* t, uint64_t size, int old_stride, int stride,
                      Pool* pool) noexcept nogil:
    """Move the states into ``size`` slots of ``stride`` words (a wider count gets zero
    top words): 0, or -1 when out of memory (the table unchanged)."""
    cdef uint64_t* old = t.rows
    cdef uint64_t old_size = t.mask + 1, k, slot
    cdef int64_t used = t.used
    if table_init(t, size, stride, pool) < 0:
        t.rows = old
        t.mask = old_size - 1
        return -1
    for k in range(old_size):
        if old[k * old_stride] != EMPTY:
            slot = mix(old[k * old_stride]) & t.mask
            while t.rows[slot * stride] != EMPTY:
                slot = (slot + 1) & t.mask
            memcpy(&t.rows[slot * stride], &old[k * old_stride], old_stride * sizeof(uint64_t))
            if stride > old_stride:
                memset(&t.rows[slot * stride + old_stride], 0,
                       (stride - old_stride) * sizeof(uint64_t))
    t.used = used
    pool_give(pool, old, old_size * old_stride * sizeof(uint64_t))
    return 0


cdef inline int table_add(Table* t, uint64_t bits, const uint64_t* count, int words,
                          Pool* pool) noexcept nogil:
    """Add ``count`` to state ``bits``: 0, 1 when the sum's top word is nonzero, -1 when
    out of memory."""
    cdef uint64_t slot
    cdef int stride = 1 + words
    if t.rows == NULL:
        if table_init(t, t.hint if t.hint else FIRST_SIZE, stride, pool) < 0:
            return -1
    elif 4 * (t.used + 1) > 3 * (t.mask + 1):
        if table_rehash(t, 2 * (t.mask + 1), stride, stride, pool) < 0:
            return -1
    slot = mix(bits) & t.mask
    while True:
        if t.rows[slot * stride] == bits:
            return add_words(&t.rows[slot * stride + 1], count, words)
        if t.rows[slot * stride] == EMPTY:
            t.rows[slot * stride] = bits
            copy_words(&t.rows[slot * stride + 1], count, words)
            t.used += 1
            return count[words - 1] != 0
        slot = (slot + 1) & t.mask


cdef void table_free(Table* t, int stride, Pool* pool) noexcept nogil:
    """Give the table's memory back, keeping its size for its next layer (the layer 64
    further on, which is often as wide): only the layers ahead hold memory."""
    if t.rows != NULL:
        t.hint = t.mask + 1
        pool_give(pool, t.rows, t.hint * stride * sizeof(uint64_t))
        t.rows = NULL
        t.used = 0


cdef inline int post(Mailbox* box, uint64_t bits, int64_t layer, const uint64_t* count,
                     int words) noexcept nogil:
    cdef uint64_t* grown
    cdef int stride = 2 + words
    cdef int64_t capacity
    if box.n == box.capacity:
        capacity = 2 * box.capacity + 64
        grown = <uint64_t*>realloc(box.posts, capacity * stride * sizeof(uint64_t))
        if grown == NULL:
            return -1
        box.posts = grown
        box.capacity = capacity
    grown = &box.posts[box.n * stride]
    grown[0] = bits
    grown[1] = <uint64_t>layer
    copy_words(&grown[2], count, words)
    box.n += 1
    return 0


cdef inline int shard_of(uint64_t bits, int64_t layer, int shards) noexcept nogil:
    # the high half of another product than the slots' hash, so the states of one shard
    # still spread over their table's slots
    # (and scaled to 0..shards - 1 by a product rather than a division)
    cdef uint64_t x = (bits ^ (<uint64_t>layer << 40) ^ <uint64_t>layer) * 0xD6E8FEB86659FD93ULL
    return <int>(((x >> 32) * <uint64_t>shards) >> 32)


cdef class _Run:
    """The tables, mailboxes and totals of one count; freed with the object."""

    cdef int threads, shards, words
    cdef Table* tables       # tables[shard * RING + layer % RING]
    cdef Mailbox* boxes      # boxes[sender thread * shards + shard]
    cdef uint64_t* totals    # threads rows of ``words`` words
    cdef int* status         # per thread: 0, 1 a sum's top word is nonzero, -1 out of memory
    cdef Pool* pools         # per thread

    def __cinit__(self, int threads, int shards, int words):
        self.threads = threads
        self.shards = shards
        self.words = words
        self.tables = <Table*>calloc(shards * RING, sizeof(Table))
        self.boxes = <Mailbox*>calloc(threads * shards, sizeof(Mailbox))
        self.totals = <uint64_t*>calloc(threads * words, sizeof(uint64_t))
        self.status = <int*>calloc(threads, sizeof(int))
        self.pools = <Pool*>calloc(threads, sizeof(Pool))
        if (self.tables == NULL or self.boxes == NULL or self.totals == NULL
                or self.status == NULL or self.pools == NULL):
            raise MemoryError("cannot allocate the frontier count")

    def __dealloc__(self):
        cdef int k, j
        if self.tables != NULL:
            for k in range(self.shards * RING):
                free(self.tables[k].rows)
        if self.boxes != NULL:
            for k in range(self.threads * self.shards):
                free(self.boxes[k].posts)
        if self.pools != NULL:
            for k in range(self.threads):
                for j in range(self.pools[k].n):
                    free(self.pools[k].buffers[j])
        free(self.pools)
        free(self.tables)
        free(self.boxes)
        free(self.totals)
        free(self.status)

    cdef int widen(self) noexcept nogil:
        """One more word in every count (the mailboxes are empty between layers): 0, or
        -1 when out of memory."""
        cdef int k, t, w = self.words
        cdef uint64_t* totals = <uint64_t*>calloc(self.threads * (w + 1), sizeof(uint64_t))
        if totals == NULL:
            return -1
        for t in range(self.threads):
            memcpy(&totals[t * (w + 1)], &self.totals[t * w], w * sizeof(uint64_t))
        free(self.totals)
        self.totals = totals
        for k in range(self.shards * RING):
            if self.tables[k].rows != NULL:
                if table_rehash(&self.tables[k], self.tables[k].mask + 1, 1 + w, 2 + w,
                                &self.pools[0]) < 0:
                    return -1
        for k in range(self.threads * self.shards):
            free(self.boxes[k].posts)
            self.boxes[k].posts = NULL
            self.boxes[k].capacity = 0
        self.words = w + 1
        return 0

    cdef object total(self):
        """The sum of the threads' totals, as a Python int."""
        cdef int t, w
        result = 0
        for t in range(self.threads):
            for w in range(self.words):
                result += int(self.totals[t * self.words + w]) << (64 * w)
        return result


cdef void send(_Run run, int t, int64_t i, int64_t n_items, const long long[:] starts,
               const unsigned long long[:] masks, bint direct) noexcept nogil:
    """Phase 1 of layer i for thread t: every state of its shards in layer i through item
    i's options, the new states posted to their shards (or added to t's total). When
    ``direct`` (one thread does the whole layer), they go straight into the shards' tables
    instead, and no mail is left to file."""
    cdef int S = run.shards, K = run.words, shift, s, j, target, failed
    cdef int stride = 1 + K
    cdef Table* table
    cdef uint64_t slot, bits, grown
    cdef uint64_t* row
    cdef int64_t a, next_layer, first = starts[i], last = starts[i + 1]
    for j in range(S // run.threads):
        s = t + j * run.threads
        table = &run.tables[s * RING + i % RING]
        if table.used == 0:
            continue
        for slot in range(table.mask + 1):
            row = &table.rows[slot * stride]
            bits = row[0]
            if bits == EMPTY:
                continue
            for a in range(first, last):
                if bits & masks[a]:
                    continue
                grown = bits | masks[a]
                shift = ctz64(~grown)
                next_layer = i + shift
                if next_layer >= n_items:
                    failed = add_words(&run.totals[t * K], &row[1], K)
                else:
                    target = shard_of(grown >> shift, next_layer, S)
                    if direct:
                        failed = table_add(&run.tables[target * RING + next_layer % RING],
                                           grown >> shift, &row[1], K, &run.pools[t])
                    else:
                        failed = post(&run.boxes[t * S + target], grown >> shift, next_layer,
                                      &row[1], K)
                if failed != 0 and run.status[t] != -1:
                    run.status[t] = failed
        table_free(table, stride, &run.pools[t])


cdef void file_mail(_Run run, int t) noexcept nogil:
    """Phase 2 for thread t: the posts addressed to its shards, added to their tables."""
    cdef int T = run.threads, S = run.shards, K = run.words, u, s, j, failed
    cdef int stride = 2 + K
    cdef int64_t p
    cdef Mailbox* box
    cdef uint64_t* row
    for j in range(S // T):
        s = t + j * T
        for u in range(T):
            box = &run.boxes[u * S + s]
            for p in range(box.n):
                row = &box.posts[p * stride]
                failed = table_add(&run.tables[s * RING + <int64_t>row[1] % RING],
                                   row[0], &row[2], K, &run.pools[t])
                if failed != 0 and run.status[t] != -1:
                    run.status[t] = failed
            box.n = 0


cdef void one_layer(_Run run, int64_t i, int64_t n_items, int64_t states,
                    const long long[:] starts, const unsigned long long[:] masks):
    """Both phases of layer i, shared among the threads when the layer is wide."""
    cdef int T = run.threads, t
    if T == 1 or states < PARALLEL_LAYER:
        # one thread does every share of a small layer in turn: waking the others and
        # meeting them at two barriers would cost more than the layer itself, and a lot
        # more when another process holds a core
        with nogil:
            for t in range(T):
                send(run, t, i, n_items, starts, masks, True)
    else:
        for t in prange(T, nogil=True, num_threads=T, schedule="static", chunksize=1):
            send(run, t, i, n_items, starts, masks, False)
        for t in prange(T, nogil=True, num_threads=T, schedule="static", chunksize=1):
            file_mail(run, t)


def count(int n_items, const long long[:] starts, const unsigned long long[:] masks,
          int threads=1, tick=None, int shards=0, int words=2):
    """The number of solutions, exact however large.

    Item i's options are ``masks[starts[i]:starts[i + 1]]``: bit k of a mask is item
    i + k (bit 0, item i itself, always set). ``threads`` OpenMP threads share the work;
    one thread runs without OpenMP at all (so a process forked from one that used OpenMP,
    such as a worker of a process pool, can count safely). ``shards`` (a multiple of
    ``threads``; 0 for one table per layer on one thread, 64 per thread on more) split each layer's states into tables small enough
    for the caches. Counts start ``words`` 64-bit words wide (at least 2) and widen as
    they grow. ``tick``, when given, is called after each layer with the number of layers
    done and the states of that layer (for a progress bar).
    """
    if threads < 1:
        raise ValueError("threads must be at least 1")
    if shards == 0:
        shards = 1 if threads == 1 else 64 * threads
    if shards < threads or shards % threads:
        raise ValueError("shards must be a positive multiple of threads")
    if words < 2:
        raise ValueError("counts start at least 2 words wide")
    if starts.shape[0] != n_items + 1:
        raise ValueError("one start per item, and one more")
    if n_items == 0:
        return 1
    cdef _Run run = _Run(threads, shards, words)
    cdef int T = threads, t, s, widen
    cdef int64_t i, states
    cdef uint64_t* one = <uint64_t*>calloc(words, sizeof(uint64_t))
    if one == NULL:
        raise MemoryError("cannot allocate the frontier count")
    one[0] = 1
    failed = table_add(&run.tables[shard_of(0, 0, shards) * RING], 0, one, words, &run.pools[0])
    free(one)
    if failed < 0:
        raise MemoryError("the frontier count ran out of memory")
    for i in range(n_items):
        states = 0
        for s in range(shards):
            states += run.tables[s * RING + i % RING].used
        one_layer(run, i, n_items, states, starts, masks)
        widen = 0
        for t in range(T):
            if run.status[t] == -1:
                raise MemoryError("the frontier count ran out of memory")
            widen |= run.status[t]
            run.status[t] = 0
        if widen and run.widen() < 0:
            raise MemoryError("the frontier count ran out of memory")
        PyErr_CheckSignals()  # Ctrl-C between layers: the KeyboardInterrupt propagates
        if tick is not None:
            tick(i + 1, states)
    return run.total()
