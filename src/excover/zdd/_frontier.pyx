# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Counting the solutions of a tiling-like problem over DXZ's states, layer by layer, on
several threads, in integers as wide as the count needs.

The problems: only primary items, no colors, no multiplicities, and every option spans
fewer than 64 w - 1 items (from its first item to its last) for a window of w = 1 to 4
64-bit words. DXZ then branches on the leftmost uncovered item i, and its state is i with
the window of the next items' covered bits (see ``Dxz`` in :mod:`excover.zdd._store`):
*layer* i holds the states whose leftmost uncovered item is i, each with the number of
ways to reach it. The window's last bit is never covered (no option reaches it), so the
next uncovered item after an option always lies within the window. One-word windows (the
tilings) have their own compiled copy of the hot loop (``Window``), where the loops over
the window's words fold away.

Layer 0 holds the empty state, once. Processing layer i sends every state (bits, count)
through every option that starts at item i and fits in the free bits: the covered bits
grow by the option's mask and shift to the next uncovered item i', and the count goes to
state (i', bits') of layer i' > i (or to the total when i' is past the last item). A
layer depends only on earlier ones, so once layer i is done nothing is ever sent to it
again. A count can stop after any layer and go on later (:meth:`Counting.advance`): all
it holds between two layers is its posts.

**Posts, not tables, for the layers ahead.** A state sent ahead is not looked up in a
table of its layer at once: on big boards the 24 or so layers ahead hold gigabytes, and
every look-up missed the caches (most of the time went there). It is *posted* instead:
written at the end of a box, a list of fixed-size chunks, chosen by the target layer,
the sending thread and a *bucket* of the layer (the top bits of a hash of the state), so
posting only ever writes memory in order. When layer i's turn comes, every post sent to
it exists, and the layer is counted bucket group by bucket group: the posts of a few
buckets (from every sender) are summed into a small hash table, sized by their number so
that it stays in the processor's cache, whose rows (the group's states with their
counts) are then sent through their options at once. Each chunk read goes back to the
reading thread's spare chunks, where the next posts reuse it while it is still cached.
Posts are what big boards move to memory and back, so they are kept short: with a
one-word window whose options all lie in its low 32 bits (a board up to 31 cells wide),
every state does too and is posted in 4 bytes rather than 8 (``Run.key_bytes``; the
count's words that follow are then read and written unaligned). Each box counts its
posts and its widest chunk, so that planning a layer reads no chunk written a layer ago.

**Threads.** The groups of a layer are shared among OpenMP threads (dynamic schedule: a
thread whose core is busy with another process takes fewer). A thread reads only boxes
of the current layer, which nobody writes during the layer (everything is sent to later
layers), and writes only its own boxes, spare chunks, scratch table and total, so no
locks are needed; the threads meet once per layer, with the GIL released (and Ctrl-C
looked at between layers). A layer with few posts is done by one thread.

**Buckets per layer.** The number of buckets of a layer is a power of two chosen from the
number of posts of the layer being counted when the layer ahead receives its first post
(the layers ahead are about as wide as the current one), so that a bucket holds about
:data:`BUCKET_POSTS` posts; groups join consecutive buckets up to :data:`GROUP_POSTS`
posts, so many small buckets cost little.

**Counts of any size.** A count is w little-endian 64-bit words, and each chunk says how
wide its posts are. A group sums its posts in A = 1 + (the widest of its chunks) words:
each post is below 2^(64 (A - 1)) and there are fewer than 2^64 of them, so each sum
stays below 2^(64 A) and no addition loses a carry. The group's posts are then written
as wide as its largest sum needs (the highest nonzero word), and a box starts a new
chunk when a post is wider than its last chunk (a narrower one is written with zero
words on top). A thread's total is kept with a zero top word: it is widened to one word
more than an addition's before the addition, and by one word whenever the top word
becomes nonzero, so it too never loses a carry. So every count is exact, whatever its
size, and each layer's counts are only as wide as its own states need. The sum of a
chunk and the sending of a group are compiled apart for counts of 1 to 4 words, where
the loops over a count's words unroll (``sum_chunk``, ``send_group``).

**Sending option by option.** With one-word windows a group's states are sent through
item i's options one option at a time: a pass over the rows picks, without a branch,
the rows the option fits (the first two options' rows, and the group's width, in one
pass), and the picked rows are then posted. Row by row, whether an option clashed with
a row's window and where a row's options ended were branches the processor missed
about once a post.

**Folding by symmetry.** A permutation of the items that takes the options onto the
options, and the items before layer L onto themselves, takes a state past L (the items
before L covered, some after) to one with as many completions. Where such a symmetry is
known (:mod:`excover.zdd.folding` finds the layers and makes the tables), each state sent
past L is replaced by the smaller of itself and its image (:func:`fold`), so that the two
are summed as one: a left-right symmetric board scanned row by row folds at every row's
start, and its layers hold about half the states. Only one-word windows fold.

**Counts of prefixes.** The state of layer L whose window is empty (every item before L
covered, none from L on) counts the exact covers of the items before L by the options
within them: on a board read row by row, at a row's start, the tilings of the rows above.
A count may be asked for it at chosen layers (``Counting``'s ``watch``): its hash is 0,
so it lies in bucket 0, and the thread that sums the group of bucket 0 looks it up in
the group's table and keeps its count, once a layer; so one count of a tall board gives
the counts of every shorter one.

**Memory.** A count may be given a limit in bytes (posts, spare chunks, tables): each
thread counts what it allocates and frees, and when a layer starts it may take an equal
share of what the limit leaves; a thread refused memory stops the layer, and the count
ends with a MemoryError (the route choice's race then goes on without it).
"""

from libc.stdint cimport INT64_MAX, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange, threadid

from excover._portable cimport ctz64
from excover.zdd._keys cimport same
from excover.zdd._store cimport prefetch, prefetch_write

include "_frontier_shape.pxi"

cdef extern from *:
    """
    #ifdef _OPENMP
    #define FRONTIER_OPENMP 1
    #else
    #define FRONTIER_OPENMP 0
    #endif
    #define FRONTIER_HASH 0x9E3779B97F4A7C15ULL
    #if defined(__GNUC__) || defined(__clang__)
    #define FRONTIER_UNLIKELY(x) __builtin_expect(!!(x), 0)
    #else
    #define FRONTIER_UNLIKELY(x) (x)
    #endif
    """
    const int FRONTIER_OPENMP
    # a test the processor should expect false (the fold, rare and off the hot path)
    bint unlikely "FRONTIER_UNLIKELY" (bint test) noexcept nogil
    # the multiplier of the states' hash (the bucket is its top bits, the table slot the
    # next ones)
    const uint64_t HASH "FRONTIER_HASH"

#: Whether this build shares each layer among OpenMP threads (else ``threads`` run in turn).
OPENMP = bool(FRONTIER_OPENMP)

#: The most words of a state's window (items i .. i + 64 * words - 1).
DEF MAX_KEY_WORDS = 4

#: Bytes of a one-word window that a fold's tables map (the whole word).
DEF FOLD_BYTES = 8

#: Layers whose boxes exist at once, at most: an option spans fewer items past its first
#: one than the window holds (64 per word of the window), so it sends nothing further.
DEF RING = 256

#: Bytes of a chunk of posts (a post wider than a chunk gets a chunk of its own).
DEF CHUNK_BYTES = 16384

#: Spare chunks a thread keeps for its next posts (beyond them, read chunks are freed).
DEF MAX_SPARE = 4096

#: Posts a bucket of a layer is meant to hold (the buckets' number is chosen for it).
DEF BUCKET_POSTS = 32768

#: The most buckets of a layer, as a power of two.
DEF MAX_LOG_BUCKETS = 7

#: Posts summed at once by default: a group's table and rows then stay in the caches.
DEF GROUP_POSTS = 32768

#: How many posts ahead a group's sum fetches the table slot of a post.
DEF PREFETCH_POSTS = 8

#: Posts of a layer below which one thread counts the whole layer.
DEF PARALLEL_POSTS = 8192

#: When the count may be asked to stop (:meth:`Counting.advance` given ``stop``), a
#: group holds at most this many posts over (1 + the options of its layer's position),
#: and its layer's buckets are dealt finely enough for it: ``stop`` is asked after each
#: group, and a group of the default size, where each state meets hundreds of options,
#: could run many times past the step a race had given the count; much smaller groups
#: are too small for their tables.
DEF STOP_WORK = 1048576


cdef struct Chunk:
    Chunk* next
    int width      # words of each post's count; a post is the state (``Run.key_bytes``),
                   # then the count
    int n          # posts written (set when the box moves on, or its group is summed)
    int capacity   # posts it holds
    int standard   # 1 when CHUNK_BYTES long (reusable), 0 when sized for one wide post
    int64_t bytes  # its size


cdef struct Box:
    Chunk* head
    Chunk* tail
    char* write      # where the next post goes in the tail chunk
    int room         # posts the tail chunk still takes
    int width        # the tail chunk's width
    int widest       # the widest of its chunks' widths
    int64_t posts    # posts in all its chunks (its chunks' headers are not walked to
                     # plan a layer: each is a cache miss, written a layer or more ago)


cdef struct Worker:
    Chunk* spare          # chunks to reuse, linked by next
    int64_t n_spare
    uint32_t* slots       # the group's hash table: 1 + row index, 0 when free
    int64_t slot_capacity
    uint64_t* rows        # the group's states: the state's words then A count words each
    int64_t row_capacity  # words
    uint64_t* total       # total_words words, the top one zero
    int total_words
    int failed            # -1 when out of memory
    int64_t bytes         # memory allocated less memory freed by this thread
    int64_t allowance     # the most ``bytes`` may reach in the current layer
    int over_limit        # 1 when refused memory for the allowance
    int64_t states        # distinct states summed in the current layer
    int64_t posted[RING]  # posts sent to each layer of the ring in the current pass
    char padding[64]      # apart from the next thread's counters


cdef struct Run:
    int threads
    int key_words             # words of a state's window
    int key_bytes             # bytes of a posted state: 4 when every state fits in 32 bits
                              # (one-word windows), else 8 * key_words
    int ring                  # layers ahead with boxes: 64 per word of the window
    int max_log               # log2 of the most buckets of a layer
    int64_t group_posts
    int64_t bucket_target     # posts a bucket is meant to hold
    int64_t parallel_posts    # posts of a layer from which the threads share it
    Box* boxes[RING]          # per layer of the ring: threads << log_buckets boxes
    int64_t box_capacity[RING]
    int log_buckets[RING]
    Worker* workers
    int64_t* bounds           # the bucket groups of the current layer: n_groups + 1 bounds
    int64_t* group_posts_of   # posts of each group
    int64_t* bucket_posts     # posts of each bucket of the current layer
    int n_groups
    int64_t* next_fold        # per layer i: the first fold layer after i (n_items when
                              # none), or NULL: the count folds no states
    const int64_t* fold_of    # per layer: the table of the fold there (-1: no fold)
    const uint64_t* fold_tables  # FOLD_BYTES x 256 words per table
    int fold_bytes            # the low bytes of a window that a fold may meet
    int64_t watch_layer       # the layer whose empty state's count is kept (-1: none)
    uint64_t* empty           # that count's words, once the group holding it is summed
    int empty_words           # their number (0: not met yet)


cdef inline char* posts_of(Chunk* chunk) noexcept nogil:
    return <char*>chunk + sizeof(Chunk)


cdef inline uint64_t load64(const char* at) noexcept nogil:
    """The 64-bit word at ``at``, aligned or not (a post's count after a 4-byte state)."""
    cdef uint64_t word
    memcpy(&word, at, 8)
    return word


cdef inline void store64(char* at, uint64_t word) noexcept nogil:
    """Write ``word`` at ``at``, aligned or not."""
    memcpy(at, &word, 8)


cdef Chunk* chunk_new(Worker* w, int row, int width) noexcept nogil:
    """An empty chunk for posts of ``row`` bytes whose counts are ``width`` words (a
    spare one when it fits), or NULL when out of memory."""
    cdef int64_t capacity = (CHUNK_BYTES - <int64_t>sizeof(Chunk)) // row
    cdef int64_t size = CHUNK_BYTES
    cdef Chunk* chunk
    if capacity >= 1 and w.spare != NULL:
        chunk = w.spare
        w.spare = chunk.next
        w.n_spare -= 1
    else:
        if capacity < 1:
            capacity = 1
            size = sizeof(Chunk) + row
        if w.bytes + size > w.allowance:
            w.over_limit = 1
            return NULL
        chunk = <Chunk*>malloc(size)
        if chunk == NULL:
            return NULL
        w.bytes += size
        chunk.standard = size == CHUNK_BYTES
        chunk.bytes = size
    chunk.next = NULL
    chunk.width = width
    chunk.n = 0
    chunk.capacity = <int>capacity
    return chunk


cdef inline void chunk_drop(Worker* w, Chunk* chunk) noexcept nogil:
    """Keep a read chunk for the thread's next posts, or free it."""
    if chunk.standard and w.n_spare < MAX_SPARE:
        chunk.next = w.spare
        w.spare = chunk
        w.n_spare += 1
    else:
        w.bytes -= chunk.bytes
        free(chunk)


cdef inline int bucket_of(uint64_t hashed, int log_buckets) noexcept nogil:
    return <int>((hashed >> 1) >> (63 - log_buckets))  # 0 when log_buckets is 0


cdef inline uint64_t hash_of(const uint64_t* state, int key_words) noexcept nogil:
    cdef uint64_t hashed = state[0] * HASH
    cdef int k
    for k in range(1, key_words):
        hashed = (hashed ^ state[k]) * HASH
    return hashed


cdef inline uint64_t key_hash(const char* given, int kw, int key_bytes) noexcept nogil:
    """:func:`hash_of` the state of the post at ``given`` (``key_bytes`` bytes)."""
    if key_bytes == 4:
        return (<const uint32_t*>given)[0] * HASH
    return hash_of(<const uint64_t*>given, kw)


cdef inline int post(Run* run, Worker* w, int sender, int ring, const uint64_t* state,
                     int kw, int key_bytes, const char* count, int width) noexcept nogil:
    """Write (state of ``kw`` words, in ``key_bytes`` bytes; count of ``width`` words at
    ``count``) at the end of its box of layer ``ring``: 0, or -1 when out of memory."""
    cdef int log = run.log_buckets[ring]
    cdef Box* box = &run.boxes[ring][(sender << log) + bucket_of(hash_of(state, kw), log)]
    cdef Chunk* chunk
    cdef char* at
    cdef int k
    if box.room == 0 or box.width < width:
        chunk = chunk_new(w, key_bytes + 8 * width, width)
        if chunk == NULL:
            return -1
        if box.tail == NULL:
            box.head = chunk
        else:
            box.tail.n = box.tail.capacity - box.room
            box.tail.next = chunk
        box.tail = chunk
        box.write = posts_of(chunk)
        box.room = chunk.capacity
        box.width = width
        if width > box.widest:
            box.widest = width
    at = box.write
    if key_bytes == 4:
        (<uint32_t*>at)[0] = <uint32_t>state[0]
    else:
        for k in range(kw):
            store64(at + 8 * k, state[k])
    at += key_bytes
    for k in range(width):
        store64(at + 8 * k, load64(count + 8 * k))
    for k in range(width, box.width):
        store64(at + 8 * k, 0)
    box.write = at + 8 * box.width
    prefetch_write(<char*>box.write + 64)  # the box's next post, usually another line
    box.room -= 1
    box.posts += 1
    w.posted[ring] += 1
    return 0


cdef inline void add_into(uint64_t* acc, const char* x, int width, int wide) noexcept nogil:
    """acc[0..wide) += the ``width`` words at ``x`` (aligned or not), width < wide, when
    the sum fits in ``wide`` words."""
    cdef uint64_t carry = 0, sum
    cdef int k
    for k in range(width):
        sum = acc[k] + carry
        carry = sum < carry
        acc[k] = sum + load64(x + 8 * k)
        carry += acc[k] < sum
    k = width
    while carry and k < wide:
        acc[k] += 1
        carry = acc[k] == 0
        k += 1


cdef int total_add(Worker* w, const char* x, int width) noexcept nogil:
    """Add ``x`` (``width`` words) to the thread's total, widening it first to one word
    more than ``x`` and after whenever its top word is nonzero: 0, or -1 when out of
    memory."""
    cdef uint64_t* grown
    cdef int k
    if w.total_words < width + 1:
        grown = <uint64_t*>realloc(w.total, (width + 1) * sizeof(uint64_t))
        if grown == NULL:
            return -1
        for k in range(w.total_words, width + 1):
            grown[k] = 0
        w.total = grown
        w.total_words = width + 1
    add_into(w.total, x, width, w.total_words)
    if w.total[w.total_words - 1] != 0:
        grown = <uint64_t*>realloc(w.total, (w.total_words + 1) * sizeof(uint64_t))
        if grown == NULL:
            return -1
        grown[w.total_words] = 0
        w.total = grown
        w.total_words += 1
    return 0


cdef int reserve(Worker* w, int64_t slots, int64_t words) noexcept nogil:
    """Room for a table of ``slots`` slots and rows of ``words`` words: 0 or -1."""
    if grow(w, <void**>&w.slots, &w.slot_capacity, slots, sizeof(uint32_t)) < 0:
        return -1
    return grow(w, <void**>&w.rows, &w.row_capacity, words, sizeof(uint64_t))


cdef int grow(Worker* w, void** array, int64_t* capacity, int64_t wanted,
              size_t size) noexcept nogil:
    """Room for ``wanted`` entries of ``size`` bytes in the thread's ``array`` of
    ``capacity`` entries (both updated), within its allowance: 0 or -1."""
    cdef void* grown
    if wanted <= capacity[0]:
        return 0
    if w.bytes + (wanted - capacity[0]) * <int64_t>size > w.allowance:
        w.over_limit = 1
        return -1
    grown = realloc(array[0], wanted * size)
    if grown == NULL:
        return -1
    w.bytes += (wanted - capacity[0]) * <int64_t>size
    array[0] = grown
    capacity[0] = wanted
    return 0


cdef inline int next_state(const uint64_t* bits, const uint64_t* mask, int key_words,
                           uint64_t* state) noexcept nogil:
    """The state after an option of ``mask`` is taken in window ``bits`` (items i ..):
    the covered bits grown by the mask, shifted to the next uncovered item, written to
    ``state``; returns the shift (how many items on the next uncovered one is), or 0 when
    the option meets a covered item. The window's top bit is never covered, so the next
    uncovered item lies within it."""
    cdef uint64_t grown[MAX_KEY_WORDS]
    cdef uint64_t clash = 0
    cdef int k, words, bit
    for k in range(key_words):
        clash |= bits[k] & mask[k]
        grown[k] = bits[k] | mask[k]
    if clash:
        return 0
    words = 0
    while grown[words] == ~(<uint64_t>0):
        words += 1
    bit = ctz64(~grown[words])
    for k in range(key_words):
        if k + words >= key_words:
            state[k] = 0
        elif bit == 0:
            state[k] = grown[k + words]
        elif k + words + 1 < key_words:
            state[k] = (grown[k + words] >> bit) | (grown[k + words + 1] << (64 - bit))
        else:
            state[k] = grown[k + words] >> bit
    return 64 * words + bit


cdef int64_t fold(const Run* run, int64_t i, int64_t j, uint64_t* state) noexcept nogil:
    """The layer, and in ``state`` the window, of the state that a post from layer i sends
    to layer j (window ``state``) is folded into at the fold layers L with i < L <= j:
    the covered items from L on, as bits from L, are taken to their image under the
    fold's symmetry (byte by byte, through the fold's tables), and the smaller of the two
    is kept (see :mod:`excover.zdd.folding`). The image has the same completions: the
    symmetry keeps the items before L together and takes the options onto the options."""
    cdef int64_t at = run.next_fold[i]
    cdef const uint64_t* table
    cdef uint64_t covered, image
    cdef int b, shift
    while at <= j:
        covered = (state[0] << (j - at)) | ((<uint64_t>1 << (j - at)) - 1)
        table = run.fold_tables + run.fold_of[at] * (FOLD_BYTES * 256)
        image = 0
        for b in range(run.fold_bytes):
            image |= table[256 * b + ((covered >> (8 * b)) & 255)]
        if image < covered:
            covered = image
        shift = ctz64(~covered)
        j = at + shift
        state[0] = covered >> shift
        at = run.next_fold[at]
    return j


cdef struct OneWord:  # the type that selects the count of one-word windows
    uint64_t word


cdef struct Words:  # the type that selects the count of wider windows
    uint64_t word


ctypedef fused Window:
    OneWord
    Words


cdef inline int64_t sum_posts(Worker* w, const char* given, int64_t count, int kw,
                              int key_bytes, int width, int wide, int log, int log_slots,
                              int64_t n) noexcept nogil:
    """Sum ``count`` posts (a state of ``kw`` words in ``key_bytes`` bytes, then a count of
    ``width`` words) from ``given`` into the thread's table of 2^log_slots slots and its
    ``n`` rows (``kw`` state words, then a count of ``wide`` > ``width`` words): the rows'
    number after. Inlined with constant widths (see :func:`sum_chunk`), so that the word
    loops unroll."""
    cdef uint32_t* slots = w.slots
    cdef uint64_t* rows = w.rows
    cdef uint64_t mask = (<uint64_t>1 << log_slots) - 1, slot
    cdef uint64_t key[1]
    cdef const uint64_t* state = key
    cdef uint32_t index
    cdef uint64_t* row
    cdef int64_t p
    cdef int k, stride = kw + wide, size = key_bytes + 8 * width
    for p in range(count):
        if p + PREFETCH_POSTS < count:  # the slot of a post a few ahead
            prefetch(&slots[(key_hash(given + PREFETCH_POSTS * size, kw, key_bytes) << log)
                            >> (64 - log_slots)])
        if key_bytes == 4:
            key[0] = (<const uint32_t*>given)[0]
        else:
            state = <const uint64_t*>given  # posts of 8-byte states stay aligned
        slot = (hash_of(state, kw) << log) >> (64 - log_slots)
        while True:
            index = slots[slot]
            if index == 0:
                row = rows + n * stride
                for k in range(kw):
                    row[k] = state[k]
                for k in range(width):
                    row[kw + k] = load64(given + key_bytes + 8 * k)
                row[kw + width] = 0  # width < wide; most often wide = width + 1
                k = width + 1
                while k < wide:
                    row[kw + k] = 0
                    k += 1
                n += 1
                slots[slot] = <uint32_t>n
                break
            row = rows + (index - 1) * stride
            if same(row, state, kw):
                add_into(row + kw, given + key_bytes, width, wide)
                break
            slot = (slot + 1) & mask
        given += size
    return n


cdef inline int64_t sum_chunk(Worker* w, const char* given, int64_t count, int kw,
                              int key_bytes, int width, int wide, int log, int log_slots,
                              int64_t n) noexcept nogil:
    """:func:`sum_posts` compiled apart for counts of 1 to 4 words (the word loops
    unrolled: a post's count is copied or added in straight code) and for states of 4
    bytes."""
    if key_bytes == 4:
        if width == 1:
            return sum_posts(w, given, count, 1, 4, 1, wide, log, log_slots, n)
        if width == 2:
            return sum_posts(w, given, count, 1, 4, 2, wide, log, log_slots, n)
        if width == 3:
            return sum_posts(w, given, count, 1, 4, 3, wide, log, log_slots, n)
        if width == 4:
            return sum_posts(w, given, count, 1, 4, 4, wide, log, log_slots, n)
        return sum_posts(w, given, count, 1, 4, width, wide, log, log_slots, n)
    if width == 1:
        return sum_posts(w, given, count, kw, key_bytes, 1, wide, log, log_slots, n)
    if width == 2:
        return sum_posts(w, given, count, kw, key_bytes, 2, wide, log, log_slots, n)
    if width == 3:
        return sum_posts(w, given, count, kw, key_bytes, 3, wide, log, log_slots, n)
    if width == 4:
        return sum_posts(w, given, count, kw, key_bytes, 4, wide, log, log_slots, n)
    return sum_posts(w, given, count, kw, key_bytes, width, wide, log, log_slots, n)


cdef int rows_width(const uint64_t* rows, int64_t n, int kw, int wide) noexcept nogil:
    """The words the largest count of ``n`` rows (``kw`` state words, then ``wide``
    count words) needs, at least 1: the highest word nonzero in some row. The top two
    words are looked at in one pass (the sums of a group need the widest post's width,
    or one word more); narrower groups (a box's chunk wider than its posts) scan on."""
    cdef uint64_t top = 0, second = 0
    cdef const uint64_t* row
    cdef int64_t k
    cdef int stride = kw + wide
    for k in range(n):
        row = rows + k * stride + kw
        top |= row[wide - 1]
        second |= row[wide - 2]
    return width_of(rows, n, kw, wide, top, second)


cdef int width_of(const uint64_t* rows, int64_t n, int kw, int wide, uint64_t top,
                  uint64_t second) noexcept nogil:
    """:func:`rows_width` given the OR of the rows' top words and that of their second
    words from the top."""
    cdef const uint64_t* row
    cdef int64_t k
    cdef int width, high, stride = kw + wide
    if top:
        return wide
    if second or wide == 2:
        return wide - 1
    width = 1
    for k in range(n):
        row = rows + k * stride + kw - 1  # row[c]: the count's word c - 1
        high = wide - 2
        while high > width and row[high] == 0:
            high -= 1
        width = high
    return width


cdef inline int64_t pick_rows(const uint64_t* rows, int64_t n, int stride, uint64_t option,
                              uint32_t* picked) noexcept nogil:
    """The rows (one-word states, ``stride`` words apart) that ``option`` fits, written
    to ``picked`` without a branch: their number."""
    cdef int64_t k, m = 0
    for k in range(n):
        picked[m] = <uint32_t>k
        m += (rows[k * stride] & option) == 0
    return m


cdef inline void pick_rows_tops(const uint64_t* rows, int64_t n, int wide,
                                uint64_t option, uint64_t other, uint32_t* picked,
                                int64_t* ready, uint64_t* tops) noexcept nogil:
    """:func:`pick_rows` for two options at once (``option``'s rows to ``picked``,
    ``other``'s to ``picked + n``, their numbers to ``ready``), also setting ``tops`` to
    the OR of the rows' top count words and that of their second words from the top
    (for :func:`width_of`): one pass over the rows instead of three."""
    cdef int64_t k, m = 0, m_other = 0
    cdef int stride = 1 + wide
    cdef uint64_t top = 0, second = 0
    cdef const uint64_t* row
    cdef uint32_t* picked_other = picked + n
    for k in range(n):
        row = rows + k * stride
        picked[m] = <uint32_t>k
        m += (row[0] & option) == 0
        picked_other[m_other] = <uint32_t>k
        m_other += (row[0] & other) == 0
        top |= row[wide]
        second |= row[wide - 1]
    tops[0] = top
    tops[1] = second
    ready[0] = m
    ready[1] = m_other


cdef inline int send_one_rows(Run* run, Worker* w, int sender, int64_t i, int64_t n_items,
                              const uint64_t* rows, int64_t n, int key_bytes, int wide,
                              int width,
                              int64_t option_first, int64_t option_last,
                              const unsigned long long* masks,
                              const int64_t* ready) noexcept nogil:
    """:func:`send_rows` for one-word windows, option by option: the rows that an option
    fits are picked first, without a branch, into the thread's table (free once the group
    is summed), then sent through it. Whether an option clashes with a row's window, and
    where a row's options end, are then no branches for the processor to guess: row by
    row, they missed about once a post. ``ready`` (or NULL): the numbers of the rows of
    the first two options, already picked (:func:`pick_rows_tops`); ``key_bytes``: the
    states' bytes in a post."""
    cdef int ring = i % run.ring, target, shift
    cdef int64_t k, m, a, stride = 1 + wide, j
    cdef int64_t folds_at = n_items if run.next_fold == NULL else run.next_fold[i]
    cdef uint32_t* picked = w.slots  # 2 entries or more per row
    cdef uint32_t* chosen
    cdef const uint64_t* row
    cdef uint64_t option, grown, state
    for a in range(option_first, option_last):
        option = masks[a]
        if ready != NULL and a == option_first:
            chosen = picked
            m = ready[0]
        elif ready != NULL and a == option_first + 1:
            chosen = picked + n
            m = ready[1]
        else:
            chosen = picked
            m = pick_rows(rows, n, stride, option, picked)
        for k in range(m):
            row = rows + <int64_t>chosen[k] * stride
            grown = row[0] | option
            shift = ctz64(~grown)
            state = grown >> shift
            if i + shift >= n_items:
                if total_add(w, <const char*>(row + 1), width) < 0:
                    return -1
                continue
            if unlikely(i + shift >= folds_at):  # past a fold layer: the state may fold
                j = fold(run, i, i + shift, &state)
                shift = <int>(j - i)
            target = ring + shift  # shift < run.ring: the next layer's place in the ring
            if target >= run.ring:
                target -= run.ring
            if post(run, w, sender, target, &state, 1, key_bytes, <const char*>(row + 1),
                    width) < 0:
                return -1
    return 0


cdef int send_one_group(Run* run, Worker* w, int sender, int64_t i, int64_t n_items,
                        const uint64_t* rows, int64_t n, int key_bytes, int wide, int width,
                        int64_t option_first, int64_t option_last,
                        const unsigned long long* masks, const int64_t* ready) noexcept nogil:
    """:func:`send_one_rows` compiled apart for counts of 1 to 4 words."""
    if width == 1:
        return send_one_rows(run, w, sender, i, n_items, rows, n, key_bytes, wide, 1,
                             option_first, option_last, masks, ready)
    if width == 2:
        return send_one_rows(run, w, sender, i, n_items, rows, n, key_bytes, wide, 2,
                             option_first, option_last, masks, ready)
    if width == 3:
        return send_one_rows(run, w, sender, i, n_items, rows, n, key_bytes, wide, 3,
                             option_first, option_last, masks, ready)
    if width == 4:
        return send_one_rows(run, w, sender, i, n_items, rows, n, key_bytes, wide, 4,
                             option_first, option_last, masks, ready)
    return send_one_rows(run, w, sender, i, n_items, rows, n, key_bytes, wide, width,
                         option_first, option_last, masks, ready)


cdef inline int send_rows(Run* run, Worker* w, int sender, int64_t i, int64_t n_items,
                          const uint64_t* rows, int64_t n, int kw, int wide, int width,
                          int64_t option_first, int64_t option_last,
                          const unsigned long long* masks) noexcept nogil:
    """Send each of the ``n`` rows (``kw`` state words, then ``wide`` count words, the
    count in its low ``width`` words) of layer i through item i's options: 0, or -1 when
    out of memory. Inlined with constant widths (see :func:`send_group`)."""
    cdef int ring = i % run.ring, target, shift
    cdef int64_t k, a, stride = kw + wide
    cdef const uint64_t* row
    cdef uint64_t state[MAX_KEY_WORDS]
    for k in range(n):
        row = rows + k * stride
        for a in range(option_first, option_last):
            shift = next_state(row, <const uint64_t*>&masks[a * kw], kw, state)
            if shift == 0:
                continue
            if i + shift >= n_items:
                if total_add(w, <const char*>(row + kw), width) < 0:
                    return -1
                continue
            target = ring + shift  # shift < run.ring: the next layer's place in the ring
            if target >= run.ring:
                target -= run.ring
            if post(run, w, sender, target, state, kw, 8 * kw, <const char*>(row + kw),
                    width) < 0:
                return -1
    return 0


cdef int send_group(const Window* window, Run* run, Worker* w, int sender, int64_t i,
                    int64_t n_items, const uint64_t* rows, int64_t n, int kw, int wide,
                    int width, int64_t option_first, int64_t option_last,
                    const unsigned long long* masks, const int64_t* ready) noexcept nogil:
    """:func:`send_rows` compiled apart for counts of 1 to 4 words; one-word windows
    are sent option by option (:func:`send_one_rows`, ``ready`` as there)."""
    if Window is OneWord:
        return send_one_group(run, w, sender, i, n_items, rows, n, run.key_bytes, wide,
                              width, option_first, option_last, masks, ready)
    elif width == 1:
        return send_rows(run, w, sender, i, n_items, rows, n, kw, wide, 1, option_first,
                         option_last, masks)
    elif width == 2:
        return send_rows(run, w, sender, i, n_items, rows, n, kw, wide, 2, option_first,
                         option_last, masks)
    elif width == 3:
        return send_rows(run, w, sender, i, n_items, rows, n, kw, wide, 3, option_first,
                         option_last, masks)
    elif width == 4:
        return send_rows(run, w, sender, i, n_items, rows, n, kw, wide, 4, option_first,
                         option_last, masks)
    else:
        return send_rows(run, w, sender, i, n_items, rows, n, kw, wide, width, option_first,
                         option_last, masks)


cdef void count_group(const Window* window, Run* run, int sender, int64_t i,
                      int64_t n_items, int64_t group, const long long* starts,
                      const unsigned long long* masks) noexcept nogil:
    """Sum the posts of one group of buckets of layer i into the thread's table, then
    send each of its states through item i's options. Compiled twice: for windows of
    one word (``Window`` OneWord: the word loops fold away) and of any width."""
    cdef Worker* w = &run.workers[sender]
    cdef int ring = i % run.ring, log = run.log_buckets[ring], T = run.threads
    cdef int kw, key_bytes
    if Window is OneWord:
        kw = 1
        key_bytes = run.key_bytes
    else:
        kw = run.key_words
        key_bytes = 8 * kw
    cdef int64_t first = run.bounds[group], last = run.bounds[group + 1]
    cdef int64_t posts = run.group_posts_of[group], b, n = 0
    cdef int u, wide = 0, log_slots = 4, width
    cdef int64_t ready[2]
    cdef const int64_t* picked = NULL
    cdef uint64_t tops[2]
    cdef Box* box
    cdef Chunk* chunk
    cdef Chunk* following
    if posts == 0:
        return
    if posts > <int64_t>4000000000:  # the table's row indices are 32 bits
        w.failed = -1
        return
    for u in range(T):  # the widest chunk
        for b in range(first, last):
            box = &run.boxes[ring][(u << log) + b]
            if box.widest > wide:
                wide = box.widest
            if box.tail != NULL:
                box.tail.n = box.tail.capacity - box.room
    wide += 1  # A: the sums' words, one more than any post's
    while (<int64_t>1 << log_slots) < 2 * posts:
        log_slots += 1
    if reserve(w, <int64_t>1 << log_slots, posts * (kw + wide)) < 0:
        w.failed = -1
        return
    memset(w.slots, 0, (<int64_t>1 << log_slots) * sizeof(uint32_t))
    for u in range(T):
        for b in range(first, last):
            box = &run.boxes[ring][(u << log) + b]
            chunk = box.head
            while chunk != NULL:
                n = sum_chunk(w, posts_of(chunk), chunk.n, kw, key_bytes, chunk.width, wide,
                              log, log_slots, n)
                following = chunk.next
                chunk_drop(w, chunk)
                chunk = following
            box.head = NULL
            box.tail = NULL
            box.write = NULL
            box.room = 0
            box.width = 0
            box.widest = 0
            box.posts = 0
    w.states += n
    if i == run.watch_layer and first == 0:  # the empty state's bucket is bucket 0
        if keep_empty(run, w.slots, w.rows, kw, wide, log_slots) < 0:
            w.failed = -1
            return
    # the posts' width: as many words as the largest sum needs
    if Window is not Words and starts[i] < starts[i + 1]:  # with the first options' rows
        pick_rows_tops(w.rows, n, wide, masks[starts[i]],
                       masks[min(starts[i] + 1, starts[i + 1] - 1)], w.slots, ready, tops)
        width = width_of(w.rows, n, kw, wide, tops[0], tops[1])
        picked = ready
    else:
        width = rows_width(w.rows, n, kw, wide)
    if send_group(window, run, w, sender, i, n_items, w.rows, n, kw, wide, width, starts[i],
                  starts[i + 1], masks, picked) < 0:
        w.failed = -1


cdef int keep_empty(Run* run, const uint32_t* slots, const uint64_t* rows, int kw, int wide,
                    int log_slots) noexcept nogil:
    """Copy the count of the empty state (every window word 0) from a group's table of
    2^log_slots slots, when the group holds it, to ``run.empty``: 0, or -1 when out of
    memory. The empty state's hash is 0, so it lies in bucket 0 and its probe starts at
    slot 0."""
    cdef uint64_t mask = (<uint64_t>1 << log_slots) - 1, slot = 0
    cdef const uint64_t* row
    cdef uint64_t* grown
    cdef uint64_t bits
    cdef uint32_t index
    cdef int k
    while True:
        index = slots[slot]
        if index == 0:
            return 0
        row = rows + <int64_t>(index - 1) * (kw + wide)
        bits = 0
        for k in range(kw):
            bits |= row[k]
        if bits == 0:
            break
        slot = (slot + 1) & mask
    grown = <uint64_t*>realloc(run.empty, wide * sizeof(uint64_t))
    if grown == NULL:
        return -1
    memcpy(grown, row + kw, wide * sizeof(uint64_t))
    run.empty = grown
    run.empty_words = wide
    return 0


cdef int set_buckets(Run* run, int ring, int log) noexcept nogil:
    """Give the (empty) layer ``ring`` 2^log buckets per thread: 0 or -1."""
    cdef int64_t needed = <int64_t>run.threads << log
    cdef Box* grown
    if needed > run.box_capacity[ring]:
        grown = <Box*>realloc(run.boxes[ring], needed * sizeof(Box))
        if grown == NULL:
            return -1
        memset(&grown[run.box_capacity[ring]], 0,
               (needed - run.box_capacity[ring]) * sizeof(Box))
        run.boxes[ring] = grown
        run.box_capacity[ring] = needed
    run.log_buckets[ring] = log
    return 0


cdef int rebucket(Run* run, int ring, int log) noexcept nogil:
    """Deal the posts of layer ``ring`` again into 2^log buckets (per thread), when it
    got far more posts than the buckets chosen for it expected (a layer that grows fast,
    as the first layers of a packing do): its groups are then small again. The posts
    move to thread 0's boxes, chunk by chunk (each read chunk is reused at once). 0, or
    -1 when out of memory."""
    cdef int T = run.threads, old_log = run.log_buckets[ring], kw = run.key_words, t
    cdef int key_bytes = run.key_bytes
    cdef int64_t n_old = <int64_t>T << old_log, b, p, moved = 0
    cdef Box* saved = <Box*>malloc(n_old * sizeof(Box))
    cdef Chunk* chunk
    cdef Chunk* following
    cdef char* given
    cdef uint64_t key[MAX_KEY_WORDS]
    cdef Worker* w = &run.workers[0]
    if saved == NULL:
        return -1
    memcpy(saved, run.boxes[ring], n_old * sizeof(Box))
    memset(run.boxes[ring], 0, n_old * sizeof(Box))
    if set_buckets(run, ring, log) < 0:
        memcpy(run.boxes[ring], saved, n_old * sizeof(Box))
        run.log_buckets[ring] = old_log
        free(saved)
        return -1
    for t in range(T):
        moved += run.workers[t].posted[ring]
        run.workers[t].posted[ring] = 0
    for b in range(n_old):
        chunk = saved[b].head
        if saved[b].tail != NULL:
            saved[b].tail.n = saved[b].tail.capacity - saved[b].room
        while chunk != NULL:
            given = posts_of(chunk)
            for p in range(chunk.n):
                if key_bytes == 4:
                    key[0] = (<uint32_t*>given)[0]
                else:
                    memcpy(key, given, key_bytes)
                if post(run, w, 0, ring, key, kw, key_bytes, given + key_bytes,
                        chunk.width) < 0:
                    return -1  # the chunks not yet moved are lost: the count cannot go on
                given += key_bytes + 8 * chunk.width
            following = chunk.next
            chunk_drop(w, chunk)
            chunk = following
    free(saved)
    w.posted[ring] = moved
    return 0


cdef void plan_layer(Run* run, int64_t i, int64_t limit) noexcept nogil:
    """The groups of layer i's buckets (consecutive buckets up to ``limit`` posts, or one
    bucket past it)."""
    cdef int ring = i % run.ring, log = run.log_buckets[ring], u
    cdef int64_t n_buckets = <int64_t>1 << log, b, sum = 0
    for b in range(n_buckets):
        run.bucket_posts[b] = 0
        for u in range(run.threads):
            run.bucket_posts[b] += run.boxes[ring][(u << log) + b].posts
    run.n_groups = 0
    run.bounds[0] = 0
    for b in range(n_buckets):
        if sum > 0 and sum + run.bucket_posts[b] > limit:
            run.group_posts_of[run.n_groups] = sum
            run.n_groups += 1
            run.bounds[run.n_groups] = b
            sum = 0
        sum += run.bucket_posts[b]
    run.group_posts_of[run.n_groups] = sum
    run.n_groups += 1
    run.bounds[run.n_groups] = n_buckets


cdef class Counting:
    """A frontier count that can stop between two layers and go on later.

    Item i's options are ``masks[starts[i] * key_words:starts[i + 1] * key_words]``,
    ``key_words`` words each (1 to 4): bit k of an option's words is item i + k (bit 0,
    item i itself, always set; the window's last bit, 64 * key_words - 1, never).
    ``threads`` OpenMP threads share the work; one thread runs without OpenMP at all (so
    a process forked from one that used OpenMP, such as a worker of a process pool, can
    count safely). ``buckets`` (a power of two; 0 for 2^MAX_LOG_BUCKETS) is the most
    buckets a layer is split into, ``group`` (0 for :data:`GROUP_POSTS`) the most posts
    summed at once (past it a group is one bucket), ``words`` the width the first count
    starts at, and ``fine`` splits every layer as finely as they allow (a post per
    bucket, a bucket per group, every layer shared among the threads: for tests). None of
    them changes the result, nor does ``short_keys``: with one-word windows whose
    options all lie in the window's low 32 bits (so every state does), states are posted
    in 4 bytes rather than 8 (False: always 8, for tests). ``max_bytes`` (0: no limit)
    bounds the memory of the posts and tables: past it the count stops with a MemoryError
    (each thread may take its share of what is left when a layer starts; the boxes' own
    small arrays are not counted). ``fold_of``, ``fold_tables`` and ``fold_bytes`` (one-word
    windows only) fold the states by symmetries at some layers (:func:`fold`; the tables
    are made by :mod:`excover.zdd.folding`, which checks that they are symmetries).

    ``watch`` (positions from 0 to ``n_items``) asks for the count of the *empty state*
    at the start of each of those layers, the state whose window is empty: every item
    before the layer covered and none from it on, so its count is the number of exact
    covers of the items before the layer by the options within them (at ``n_items``:
    the count itself). :attr:`empties` holds them, by position, for the layers done; a
    count stopped part way has them up to where it stopped. Folding keeps them exact at
    layers whose items before them every fold until there keeps together
    (:func:`excover.zdd.folding.fold_tables`' ``keep``): the empty state is then its
    own image, and no other state's.
    """

    cdef Run run
    cdef const long long[:] starts
    cdef const unsigned long long[:] masks
    cdef readonly int64_t n_items
    cdef readonly int64_t done
    cdef object result
    cdef bint broken
    cdef int64_t max_bytes
    cdef const long long[:] fold_of
    cdef const unsigned long long[:] fold_tables
    cdef frozenset watch
    cdef readonly dict empties

    def __cinit__(self, int64_t n_items, const long long[:] starts,
                  const unsigned long long[:] masks, int threads=1, int key_words=1,
                  int buckets=0, int words=1, int64_t group=0, bint fine=False,
                  int64_t max_bytes=0, bint short_keys=True,
                  const long long[:] fold_of=None,
                  const unsigned long long[:] fold_tables=None, int fold_bytes=8,
                  watch=()):
        cdef int r, max_log = 0
        cdef int64_t o
        cdef uint64_t zero[MAX_KEY_WORDS]
        cdef uint64_t* one
        if threads < 1:
            raise ValueError("threads must be at least 1")
        if key_words < 1 or key_words > MAX_KEY_WORDS:
            raise ValueError(f"a state's window is 1 to {MAX_KEY_WORDS} words")
        if buckets == 0:
            buckets = 1 << MAX_LOG_BUCKETS
        if buckets < 1 or buckets & (buckets - 1) or buckets > (1 << 20):
            raise ValueError("buckets must be a power of two up to 2^20")
        if words < 1:
            raise ValueError("counts start at least 1 word wide")
        if group == 0:
            group = GROUP_POSTS
        if group < 1:
            raise ValueError("a group sums at least one post")
        if max_bytes < 0:
            raise ValueError("max_bytes is 0 (no limit) or positive")
        if n_items < 0 or starts.shape[0] != n_items + 1:
            raise ValueError("one start per item, and one more")
        if starts[n_items] * key_words != masks.shape[0]:
            raise ValueError("key_words words per option")
        self.watch = frozenset(watch)
        if any(not 0 <= position <= n_items for position in self.watch):
            raise ValueError(f"watched positions lie from 0 to {n_items}")
        self.empties = {}
        self.run.watch_layer = -1
        while (1 << max_log) < buckets:
            max_log += 1
        self.starts = starts
        self.masks = masks
        self.n_items = n_items
        self.done = 0
        self.result = None
        self.max_bytes = max_bytes
        self.run.threads = threads
        self.run.key_words = key_words
        self.run.key_bytes = 8 * key_words
        if short_keys and key_words == 1:  # every state below 2^32 when every option is
            self.run.key_bytes = 4
            for o in range(masks.shape[0]):
                if masks[o] >> 32:
                    self.run.key_bytes = 8
                    break
        self.run.ring = 64 * key_words
        self.run.max_log = max_log
        self.run.group_posts = 1 if fine else group
        self.run.bucket_target = 1 if fine else BUCKET_POSTS
        self.run.parallel_posts = 0 if fine else PARALLEL_POSTS
        self.run.workers = <Worker*>calloc(threads, sizeof(Worker))
        self.run.bounds = <int64_t*>calloc((1 << max_log) + 2, sizeof(int64_t))
        self.run.group_posts_of = <int64_t*>calloc((1 << max_log) + 1, sizeof(int64_t))
        self.run.bucket_posts = <int64_t*>calloc(1 << max_log, sizeof(int64_t))
        if (self.run.workers == NULL or self.run.bounds == NULL
                or self.run.group_posts_of == NULL or self.run.bucket_posts == NULL):
            raise MemoryError("cannot allocate the frontier count")
        for r in range(self.run.ring):
            if set_buckets(&self.run, r, 0) < 0:
                raise MemoryError("cannot allocate the frontier count")
        if fold_of is not None:
            self.set_folds(fold_of, fold_tables, fold_bytes)
        if n_items == 0:
            self.result = 1
            if 0 in self.watch:
                self.empties[0] = 1
            return
        self.share_memory()
        one = <uint64_t*>calloc(words, sizeof(uint64_t))
        if one == NULL:
            raise MemoryError("cannot allocate the frontier count")
        one[0] = 1
        for r in range(key_words):
            zero[r] = 0
        failed = post(&self.run, &self.run.workers[0], 0, 0, zero, key_words,
                      self.run.key_bytes, <const char*>one, words)
        free(one)
        if failed < 0:
            self.check_failures()
            raise MemoryError("the frontier count ran out of memory")

    cdef int set_folds(self, const long long[:] fold_of,
                       const unsigned long long[:] fold_tables, int fold_bytes) except -1:
        """Fold the states at the layers where ``fold_of`` names a table (see
        :func:`fold`; -1 elsewhere): each table maps a window's byte b (of the
        ``fold_bytes`` low ones) to the image of its bits, 256 words per byte and 8 bytes
        per table. One-word windows only."""
        cdef int64_t n_items = self.n_items, n_tables, i, at
        if self.run.key_words != 1:
            raise ValueError("only one-word windows fold")
        if fold_of.shape[0] != n_items:
            raise ValueError("one fold entry per item")
        if fold_tables is None or fold_tables.shape[0] % (FOLD_BYTES * 256):
            raise ValueError(f"fold tables of {FOLD_BYTES} x 256 words each")
        if fold_bytes < 1 or fold_bytes > FOLD_BYTES:
            raise ValueError(f"folds map 1 to {FOLD_BYTES} bytes")
        n_tables = fold_tables.shape[0] // (FOLD_BYTES * 256)
        for i in range(n_items):
            if fold_of[i] < -1 or fold_of[i] >= n_tables or (i == 0 and fold_of[i] != -1):
                raise ValueError("a fold names one of the tables, at a layer after the first")
        self.fold_of = fold_of
        self.fold_tables = fold_tables
        if n_items == 0:
            return 0
        self.run.next_fold = <int64_t*>malloc(max(n_items, 1) * sizeof(int64_t))
        if self.run.next_fold == NULL:
            raise MemoryError("cannot allocate the frontier count")
        at = n_items
        for i in range(n_items - 1, -1, -1):
            self.run.next_fold[i] = at
            if fold_of[i] >= 0:
                at = i
        self.run.fold_of = <const int64_t*>&fold_of[0]
        if n_tables > 0:
            self.run.fold_tables = <const uint64_t*>&fold_tables[0]
        self.run.fold_bytes = fold_bytes
        return 0

    def __dealloc__(self):
        cdef int r, t
        cdef int64_t b
        cdef Chunk* chunk
        cdef Chunk* following
        for r in range(RING):
            if self.run.boxes[r] != NULL:
                for b in range(self.run.box_capacity[r]):
                    chunk = self.run.boxes[r][b].head
                    while chunk != NULL:
                        following = chunk.next
                        free(chunk)
                        chunk = following
                free(self.run.boxes[r])
        if self.run.workers != NULL:
            for t in range(self.run.threads):
                chunk = self.run.workers[t].spare
                while chunk != NULL:
                    following = chunk.next
                    free(chunk)
                    chunk = following
                free(self.run.workers[t].slots)
                free(self.run.workers[t].rows)
                free(self.run.workers[t].total)
        free(self.run.workers)
        free(self.run.bounds)
        free(self.run.group_posts_of)
        free(self.run.bucket_posts)
        free(self.run.next_fold)
        free(self.run.empty)

    @property
    def key_bytes(self):
        """The bytes of a posted state: 4 or 8 with one-word windows, 8 per word else."""
        return self.run.key_bytes

    @property
    def bytes(self):
        """The memory the posts and tables hold now (with the threads' spare chunks)."""
        cdef int t
        cdef int64_t held = 0
        for t in range(self.run.threads):
            held += self.run.workers[t].bytes
        return held

    cdef int share_memory(self) except -1:
        """Give each thread its allowance for the next layer: an equal share of what the
        memory limit leaves; MemoryError when nothing is left."""
        cdef int t, T = self.run.threads
        cdef int64_t left
        if self.max_bytes == 0:
            for t in range(T):
                self.run.workers[t].allowance = INT64_MAX
            return 0
        left = self.max_bytes - self.bytes
        if left <= 0:
            self.broken = True
            raise MemoryError(f"the frontier count passed its memory limit of "
                              f"{self.max_bytes} bytes")
        for t in range(T):
            self.run.workers[t].allowance = self.run.workers[t].bytes + left // T
        return 0

    cdef object total(self):
        """The sum of the threads' totals, as a Python int."""
        cdef int t, k
        result = 0
        for t in range(self.run.threads):
            for k in range(self.run.workers[t].total_words):
                result += int(self.run.workers[t].total[k]) << (64 * k)
        return result

    def advance(self, tick=None, stop=None):
        """Count the layers still to do; the count (exact however large) once the last
        is done, or None when ``stop()`` says to stop (a later call goes on from there).
        ``stop`` is asked after each group of states summed on one thread (a
        millisecond's work or so), and after every few groups per thread or each layer on
        several; Ctrl-C is looked at as often, and also leaves the count able to go on.
        ``tick``, when given, is called after each layer with the number of layers done
        and the states of that layer (for a progress bar). A MemoryError (out of memory,
        or past ``max_bytes``) leaves the count unable to go on."""
        if self.result is not None:
            return self.result
        if self.broken:
            raise MemoryError("the frontier count ran out of memory")
        cdef Run* run = &self.run
        cdef const long long* first = &self.starts[0]
        cdef const unsigned long long* option = NULL
        cdef int T = run.threads, t, ring, d, sender, log, failed
        cdef int64_t i, posts, states, g, group, end, ahead, limit, per, n_items = self.n_items
        cdef bint alone
        if self.masks.shape[0] > 0:
            option = &self.masks[0]
        while self.done < n_items:
            i = self.done
            ring = i % run.ring
            run.watch_layer = i if i in self.watch else -1
            posts = 0
            for t in range(T):
                posts += run.workers[t].posted[ring]
            # the layers ahead that have no post yet get buckets for a layer this wide
            log = log_for(run, posts)
            for d in range(1, run.ring):
                ahead = 0
                for t in range(T):
                    ahead += run.workers[t].posted[(i + d) % run.ring]
                if ahead == 0 and run.log_buckets[(i + d) % run.ring] != log:
                    if set_buckets(run, (i + d) % run.ring, log) < 0:
                        self.broken = True
                        raise MemoryError("the frontier count ran out of memory")
            limit = run.group_posts
            if stop is not None:  # groups of about STOP_WORK, each followed by stop()
                per = max(STOP_WORK // (1 + first[i + 1] - first[i]), 64)
                if per < limit:
                    limit = per
                    while log < run.max_log and (per << log) < posts:
                        log += 1
            if log > run.log_buckets[ring] + 1:  # far more posts than its buckets expected
                with nogil:
                    failed = rebucket(run, ring, log)
                if failed < 0:
                    self.broken = True
                    raise MemoryError("the frontier count ran out of memory")
            alone = T == 1 or posts < run.parallel_posts
            if not alone:
                limit = min(limit, max(posts // (4 * T), 1))
            # the groups of the buckets not yet summed (a layer stopped half way is planned
            # again: the buckets it summed are empty, as nothing is sent to the layer)
            plan_layer(run, i, limit)
            self.share_memory()
            g = 0
            while g < run.n_groups:
                if alone:
                    with nogil:
                        if run.key_words == 1:
                            count_group(<OneWord*>NULL, run, 0, i, n_items, g, first, option)
                        else:
                            count_group(<Words*>NULL, run, 0, i, n_items, g, first, option)
                    g += 1
                else:
                    end = run.n_groups if stop is None else min(run.n_groups, g + 8 * T)
                    for group in prange(g, end, nogil=True, num_threads=T,
                                        schedule="dynamic", chunksize=1):
                        sender = threadid()
                        if run.key_words == 1:
                            count_group(<OneWord*>NULL, run, sender, i, n_items, group,
                                        first, option)
                        else:
                            count_group(<Words*>NULL, run, sender, i, n_items, group,
                                        first, option)
                    g = end
                self.check_failures()
                PyErr_CheckSignals()  # Ctrl-C: the KeyboardInterrupt propagates
                if g < run.n_groups and stop is not None and stop():
                    return None
            states = 0
            for t in range(T):
                states += run.workers[t].states
                run.workers[t].states = 0
                run.workers[t].posted[ring] = 0
            self.done = i + 1
            if run.watch_layer >= 0:
                self.empties[i] = self.empty_count()
            if tick is not None:
                tick(i + 1, states)
            if self.done < n_items and stop is not None and stop():
                return None
        self.result = self.total()
        if n_items in self.watch:
            self.empties[n_items] = self.result
        return self.result

    cdef object empty_count(self):
        """The count of the empty state of the layer just done (0 when it holds none), as
        a Python int; the next watched layer starts without one."""
        cdef int k
        result = 0
        for k in range(self.run.empty_words):
            result += int(self.run.empty[k]) << (64 * k)
        self.run.empty_words = 0
        return result

    cdef int check_failures(self) except -1:
        """MemoryError when a thread was refused memory (the count cannot go on)."""
        cdef int t
        for t in range(self.run.threads):
            if self.run.workers[t].failed < 0:
                self.broken = True
                if self.run.workers[t].over_limit:
                    raise MemoryError(f"the frontier count passed its memory limit of "
                                      f"{self.max_bytes} bytes")
                raise MemoryError("the frontier count ran out of memory")
        return 0


cdef int log_for(Run* run, int64_t posts) noexcept nogil:
    """log2 of the buckets for a layer about as wide as one of ``posts`` posts: about
    :data:`BUCKET_POSTS` posts each, and at least 8 per thread when the threads share it."""
    cdef int log = 0
    while log < run.max_log and (run.bucket_target << log) < posts:
        log += 1
    if run.threads > 1 and posts >= run.parallel_posts:
        while log < run.max_log and (1 << log) < 8 * run.threads:
            log += 1
    return log
