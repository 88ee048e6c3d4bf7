# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Counting the solutions of a tiling-like problem over DXZ's states, layer by layer, on
several threads.

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

Threads own states by a hash of (layer, bits). Each thread processes the states it owns
in the current layer and posts the new (layer, bits, count) triples to the mailbox of
their owner; then each thread empties its mailboxes into its own tables. No two threads
write the same table or mailbox, so no locks are needed; the two phases of each layer
are OpenMP loops, with the GIL released (and Ctrl-C looked at between layers).

Counts are 128-bit; an overflow is reported, and the caller counts another way.
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange

from excover._portable cimport ctz64, u128, u128_add, u128_hi, u128_lo, u128_of

cdef extern from *:
    """
    #define FRONTIER_EMPTY 0xFFFFFFFFFFFFFFFFULL
    """
    const uint64_t EMPTY "FRONTIER_EMPTY"

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


cdef struct Entry:
    uint64_t bits      # EMPTY for a free slot (a window is never all ones: it has 63 bits)
    uint64_t unused
    u128 count


cdef struct Table:
    Entry* entries
    uint64_t mask
    int64_t used


cdef struct Post:
    uint64_t bits
    int64_t layer
    u128 count


cdef struct Mailbox:
    Post* posts
    int64_t n
    int64_t capacity


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    x *= 0x9E3779B97F4A7C15ULL
    return x ^ (x >> 29)


cdef int table_init(Table* t, uint64_t size) noexcept nogil:
    cdef uint64_t k
    t.entries = <Entry*>malloc(size * sizeof(Entry))
    if t.entries == NULL:
        return -1
    for k in range(size):
        t.entries[k].bits = EMPTY
    t.mask = size - 1
    t.used = 0
    return 0


cdef int table_grow(Table* t) noexcept nogil:
    cdef Entry* old = t.entries
    cdef uint64_t size = t.mask + 1, k, slot
    if table_init(t, 2 * size) < 0:
        t.entries = old
        return -1
    for k in range(size):
        if old[k].bits != EMPTY:
            slot = mix(old[k].bits) & t.mask
            while t.entries[slot].bits != EMPTY:
                slot = (slot + 1) & t.mask
            t.entries[slot] = old[k]
            t.used += 1
    free(old)
    return 0


cdef int table_add(Table* t, uint64_t bits, u128 count) noexcept nogil:
    """Add ``count`` to state ``bits``: 0, 1 on overflow, -1 when out of memory."""
    cdef uint64_t slot
    if 4 * (t.used + 1) > 3 * (t.mask + 1) and table_grow(t) < 0:
        return -1
    slot = mix(bits) & t.mask
    while True:
        if t.entries[slot].bits == bits:
            return u128_add(&t.entries[slot].count, count)
        if t.entries[slot].bits == EMPTY:
            t.entries[slot].bits = bits
            t.entries[slot].count = count
            t.used += 1
            return 0
        slot = (slot + 1) & t.mask


cdef void table_clear(Table* t) noexcept nogil:
    cdef uint64_t k
    if t.used:
        for k in range(t.mask + 1):
            t.entries[k].bits = EMPTY
        t.used = 0


cdef int post(Mailbox* box, uint64_t bits, int64_t layer, u128 count) noexcept nogil:
    cdef Post* grown
    if box.n == box.capacity:
        grown = <Post*>realloc(box.posts, (2 * box.capacity + 256) * sizeof(Post))
        if grown == NULL:
            return -1
        box.posts = grown
        box.capacity = 2 * box.capacity + 256
    box.posts[box.n].bits = bits
    box.posts[box.n].layer = layer
    box.posts[box.n].count = count
    box.n += 1
    return 0


cdef inline int owner(uint64_t bits, int64_t layer, int threads) noexcept nogil:
    return <int>(mix(bits ^ (<uint64_t>layer << 48) ^ <uint64_t>layer) % <uint64_t>threads)


cdef class _Run:
    """The tables, mailboxes and totals of one count; freed with the object."""

    cdef int threads
    cdef Table* tables       # tables[t * RING + layer % RING]
    cdef Mailbox* boxes      # boxes[sender * threads + receiver]
    cdef u128* totals
    cdef int* status         # per thread: 0, 1 overflow, -1 out of memory

    def __cinit__(self, int threads):
        cdef int k
        self.threads = threads
        self.tables = <Table*>calloc(threads * RING, sizeof(Table))
        self.boxes = <Mailbox*>calloc(threads * threads, sizeof(Mailbox))
        self.totals = <u128*>calloc(threads, sizeof(u128))
        self.status = <int*>calloc(threads, sizeof(int))
        if self.tables == NULL or self.boxes == NULL or self.totals == NULL or self.status == NULL:
            raise MemoryError("cannot allocate the frontier count")
        for k in range(threads * RING):
            if table_init(&self.tables[k], 256) < 0:
                raise MemoryError("cannot allocate the frontier count")

    def __dealloc__(self):
        cdef int k
        if self.tables != NULL:
            for k in range(self.threads * RING):
                free(self.tables[k].entries)
        if self.boxes != NULL:
            for k in range(self.threads * self.threads):
                free(self.boxes[k].posts)
        free(self.tables)
        free(self.boxes)
        free(self.totals)
        free(self.status)


cdef void send(_Run run, int t, int64_t i, int64_t n_items, const long long[:] starts,
               const unsigned long long[:] masks) noexcept nogil:
    """Phase 1 of layer i for thread t: every state it owns in layer i through item i's
    options, the new states posted to their owners (or added to t's total)."""
    cdef int T = run.threads, shift
    cdef Table* table = &run.tables[t * RING + i % RING]
    cdef uint64_t slot, bits, grown
    cdef int64_t a, next_layer
    cdef u128 c
    for slot in range(table.mask + 1):
        bits = table.entries[slot].bits
        if bits == EMPTY:
            continue
        c = table.entries[slot].count
        for a in range(starts[i], starts[i + 1]):
            if bits & masks[a]:
                continue
            grown = bits | masks[a]
            shift = ctz64(~grown)
            next_layer = i + shift
            if next_layer >= n_items:
                if u128_add(&run.totals[t], c):
                    run.status[t] = 1
            elif post(&run.boxes[t * T + owner(grown >> shift, next_layer, T)],
                      grown >> shift, next_layer, c) < 0:
                run.status[t] = -1
    table_clear(table)


cdef void file_mail(_Run run, int t) noexcept nogil:
    """Phase 2 for thread t: the posts addressed to it, added to its own tables."""
    cdef int T = run.threads, u, failed
    cdef int64_t p
    cdef Mailbox* box
    for u in range(T):
        box = &run.boxes[u * T + t]
        for p in range(box.n):
            failed = table_add(
                &run.tables[t * RING + box.posts[p].layer % RING],
                box.posts[p].bits, box.posts[p].count,
            )
            if failed != 0:
                run.status[t] = failed
        box.n = 0


def count(int n_items, const long long[:] starts, const unsigned long long[:] masks,
          int threads=1, tick=None):
    """The number of solutions, or None when it does not fit in 128 bits.

    Item i's options are ``masks[starts[i]:starts[i + 1]]``: bit k of a mask is item
    i + k (bit 0, item i itself, always set). ``threads`` OpenMP threads share the work;
    one thread runs without OpenMP at all (so a process forked from one that used OpenMP,
    such as a worker of a process pool, can count safely). ``tick``, when given, is
    called after each layer with the number of layers done and the states of that layer
    (for a progress bar).
    """
    if threads < 1:
        raise ValueError("threads must be at least 1")
    if starts.shape[0] != n_items + 1:
        raise ValueError("one start per item, and one more")
    cdef _Run run = _Run(threads)
    cdef int T = threads, t
    cdef int64_t i, states
    cdef u128 total = u128_of(0)
    if n_items == 0:
        return 1
    run.status[0] = table_add(&run.tables[owner(0, 0, T) * RING], 0, u128_of(1))
    for i in range(n_items):
        states = 0
        for t in range(T):
            states += run.tables[t * RING + i % RING].used
        if T == 1 or states < PARALLEL_LAYER:
            # one thread does every share of a small layer in turn: waking the others
            # and meeting them at two barriers would cost more than the layer itself,
            # and a lot more when another process holds a core
            with nogil:
                for t in range(T):
                    send(run, t, i, n_items, starts, masks)
                for t in range(T):
                    file_mail(run, t)
        else:
            for t in prange(T, nogil=True, num_threads=T, schedule="static", chunksize=1):
                send(run, t, i, n_items, starts, masks)
            for t in prange(T, nogil=True, num_threads=T, schedule="static", chunksize=1):
                file_mail(run, t)
        for t in range(T):
            if run.status[t] == -1:
                raise MemoryError("the frontier count ran out of memory")
        PyErr_CheckSignals()  # Ctrl-C between layers: the KeyboardInterrupt propagates
        if tick is not None:
            tick(i + 1, states)
    for t in range(T):
        if u128_add(&total, run.totals[t]) or run.status[t] == 1:
            return None
    return (int(u128_hi(total)) << 64) | int(u128_lo(total))
