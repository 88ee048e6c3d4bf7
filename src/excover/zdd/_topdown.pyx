# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The ZDD of an exact cover problem built top-down, one variable (option) at a time.

The problems: no colors and no multiplicities (primary items covered exactly once,
secondary items at most once). The variables are the options in the problem's order, so
the family comes out in its canonical form with no renaming.

States
------
Deciding the options in order, the state before option m is the set ``A`` of the options
numbered m or more that are still *available*: compatible with every option chosen so far.
The sub-family below is a function of ``A`` alone: its members are the sets of pairwise
disjoint options of ``A`` that cover the primary items still uncovered, ``U``. In a live
state ``U`` is exactly the set of primary items that some option of ``A`` touches (an
uncovered item no option of ``A`` touches can no longer be covered: the state is dead,
the empty family; a covered one no option of ``A`` touches, since the options touching it
are gone). So two partial choices with the same ``A`` share their sub-family, and the
state is just ``A``, a bitset over the options. A state sits at level ``min(A)``: the
options before it are out, and the variable tested there is ``min(A)``; the empty set of
options is the terminal top (every primary item is covered).

From a state at level m:

* the lo child (m left out) is ``A - {m}``; it is dead when a primary item of m is
  touched by no other option of ``A``;
* the hi child (m chosen) is ``A`` minus every option that shares an item with m; it is
  dead when a primary item not in m that the options of ``A`` touch is touched by none
  of the options left. The items of the options left come from a table ``touch`` that
  gives the primary items of the options of any byte of the bitset, so a check costs a
  lookup per byte, whatever the problem; those of ``A`` travel with it (below).

A state whose leading option cannot be chosen (its hi child is dead) is the same family as
its lo child: such options are dropped before the state is looked up, as TdZdd skips the
squares where no queen fits, so that more states merge and no node is made for them.

This is the state TdZdd's N-queens specification keeps (the free squares of the rows to
come), found here for every exact cover problem, and the construction follows TdZdd's
breadth-first scheme. A child is a *request* appended to the list of its level, in
chunks that never move (its key: the words of the bitset from the level's word on, then
the primary items its options touch, known from its parent's: ``U`` for a lo child, ``U``
less m's items for a hi child, unchanged by a dropped option; and where its id must go);
when the level comes (every child lies at a later level than its parent, so the levels
are done in order), its requests are merged in one hash table sized for them, the
distinct states get consecutive ids, their parents get those ids, and the states' own
children are requested. A level's requests are freed once it is done. The ids then run
level by level, children after parents, so the diagram is reduced bottom-up into the
node store by a walk down the ids, each level's distinct nodes found in a table of the
level (which starts small and doubles as it fills: a level has several states for each
distinct node) before the store's unique table sees them; the nodes whose hi edge is the
empty family are dropped. Per state that costs 8 bytes (its two children) once its level
is done, and the key and a back reference per request while it waits.

The two tables read at random, the children of every state and the merge table, are
tables of ``_tables.h``: on huge pages where the system has them, which spares the
translation misses of their random reads and most of their page faults (the N-queens
diagram of n = 13 is built a tenth faster).

Those tables count against the memory bound of the store the nodes go to
(:meth:`excover.zdd._store.Store.borrow`), checked where they grow; past it the
construction stops with :class:`~excover.errors.MemoryBoundError`, and every byte is
given back when it ends.
"""

from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memset
from libc.stdint cimport int32_t, uint32_t, uint64_t, int64_t
from cpython.exc cimport PyErr_CheckSignals
cimport cython

from excover._portable cimport ctz64
from excover._tables cimport table_alloc, table_free, table_resize
from excover.errors import MemoryBoundError
from excover.zdd._keys cimport same
from excover.zdd._store cimport Store, prefetch, prefetch_write

#: The widest bitset of options (in 64-bit words) this construction takes on: a state
#: costs a word per 64 options (the ``touch`` table 16 KiB per word and item word, and
#: 8 KiB more per word for at most 32 primary items).
MAX_WORDS = 64

#: The most primary items (in 64-bit words) it takes on: the sets of items touched by the
#: options of a state are computed on the stack, a word per 64 items.
DEF MAX_PRIMARY_WORDS = 4
MAX_PRIMARY = 64 * MAX_PRIMARY_WORDS


cdef struct Level:
    # the requests for states at one level, in the order made, in chunks of ``CHUNK``
    # (a chunk is never moved: a level that grows takes a new one): their keys (``width``
    # words each: the options from the level's word on, then the primary items they
    # touch, ``pwords`` words), then where each one's node id goes (``ROOT``, or
    # 2 * parent + 0 for the lo child, + 1 for the hi child)
    uint64_t** chunks
    int64_t n
    int64_t n_chunks
    int64_t chunk_room   # the entries of ``chunks``
    int width


cdef enum:
    # the back reference of the root's request (an enum, so that comparing a uint32_t
    # with it stays in C)
    ROOT = 0xFFFFFFFF
    # the requests (and nodes) hashed ahead of their lookups in a merge (a reduction)
    BATCH = 64
    # the requests of a chunk of a level (a multiple of BATCH, so that a group of
    # requests lies in one chunk)
    CHUNK_SHIFT = 11
    CHUNK = 1 << CHUNK_SHIFT

#: An empty slot of the table that merges the nodes of a level in the reduction.
cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL
#: The bits of a slot of the merge of requests that hold its merge's stamp.
cdef uint64_t STAMP_BITS = 0xFF00000000ULL


cdef inline uint64_t key_hash(const uint64_t* key, int width) noexcept nogil:
    """A hash of ``width`` words: their sum, each times its own odd factor (products
    computed side by side, not a chain of them), then mixed."""
    cdef uint64_t h = 0x243F6A8885A308D3ULL, factor = 0x9E3779B97F4A7C15ULL
    cdef int w
    for w in range(width):
        h += key[w] * factor
        factor += 0x6A09E667F3BCC908ULL   # even: the factors stay odd
    h ^= h >> 32
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    h *= 0x94D049BB133111EBULL
    return h ^ (h >> 32)


cdef inline uint64_t pair_hash(uint64_t key) noexcept nogil:
    key ^= key >> 31
    key *= 0x9E3779B97F4A7C15ULL
    key ^= key >> 29
    key *= 0xBF58476D1CE4E5B9ULL
    return key ^ (key >> 32)


ctypedef fused item_word:
    # a word of primary items: 64 of them, or 32 in the compact table
    uint32_t
    uint64_t


cdef inline item_word byte_items(const item_word* row, uint64_t bits) noexcept nogil:
    """The primary items touched by the options ``bits`` of one word, from ``row`` (the
    table of that word's first byte position: 256 entries per byte, eight positions),
    eight lookups and no loop (a loop that ends with the bits mispredicts its exit)."""
    return (row[bits & 255] | row[256 + ((bits >> 8) & 255)]
            | row[512 + ((bits >> 16) & 255)] | row[768 + ((bits >> 24) & 255)]
            | row[1024 + ((bits >> 32) & 255)] | row[1280 + ((bits >> 40) & 255)]
            | row[1536 + ((bits >> 48) & 255)] | row[1792 + (bits >> 56)])


cdef inline bint word_dead(const item_word* touch, const uint64_t* a, const uint64_t* c,
                           int from_word, int words, item_word need) noexcept nogil:
    """Whether one of the primary items ``need`` (one word of them) is touched by no
    option of ``a`` that is not in ``c`` (the options that conflict), from word
    ``from_word`` on: each word of options looked up by byte_items() in ``touch``."""
    cdef int w
    cdef item_word kept = 0
    for w in range(from_word, words):
        kept |= byte_items(touch + <int64_t>w * 8 * 256, a[w] & ~c[w])
    return (need & ~kept) != 0


cdef inline uint64_t* key_at(const Level* level, int64_t r) noexcept nogil:
    """The key of request ``r`` of a level."""
    return level.chunks[r >> CHUNK_SHIFT] + (r & (CHUNK - 1)) * level.width


cdef inline uint32_t* back_at(const Level* level, int64_t r) noexcept nogil:
    """Where the node id of request ``r`` of a level goes (after its chunk's keys)."""
    return (<uint32_t*>(level.chunks[r >> CHUNK_SHIFT] + CHUNK * level.width)
            + (r & (CHUNK - 1)))


cdef inline void copy_key(uint64_t* to, const uint64_t* key, int width) noexcept nogil:
    """Copy ``width`` words, four at a step then one by one: a plain loop is compiled
    into a call to memcpy, which costs more than the copy of a key's few words."""
    cdef int w = 0
    while w + 4 <= width:
        to[w] = key[w]
        to[w + 1] = key[w + 1]
        to[w + 2] = key[w + 2]
        to[w + 3] = key[w + 3]
        w += 4
    if w < width:
        to[w] = key[w]
        if w + 1 < width:
            to[w + 1] = key[w + 1]
            if w + 2 < width:
                to[w + 2] = key[w + 2]


@cython.final
cdef class TopDown:
    """The tables of one construction (see the module notes); :func:`build` runs it."""

    cdef int n_options, n_primary, words
    cdef uint64_t* opts        # per item: the options touching it (``words`` words)
    cdef int32_t* first_word   # per item: the first and last nonzero word of opts
    cdef int32_t* last_word
    cdef uint64_t* conf        # per option: the options sharing an item with it
    cdef int64_t* prim_start   # per option: its primary items (CSR)
    cdef int32_t* prim
    cdef int pwords            # words of a set of primary items (at most MAX_PRIMARY_WORDS)
    cdef uint64_t* touch       # per byte of a bitset of options and per value of that
                               # byte: the primary items the options of the byte touch
    cdef uint32_t* touch32     # the same in half the bytes, for at most 32 primary items
                               # (NULL otherwise): the hi check's lookups stay in cache
    cdef uint64_t* own         # per option: its primary items
    cdef Level* levels
    cdef int64_t* first_id     # per level: the id of its first state (ids go level by level)
    cdef int32_t* kids         # per node id i: kids[2i], kids[2i + 1] the ids of its lo and
                               # hi children, then kids[2i] its reduced node in the store
    cdef int64_t n_ids, id_cap, max_ids
    cdef int32_t root_id
    cdef uint64_t* slots       # the table that merges the requests of the level at hand
                               # (and the nodes of a level while the diagram is reduced)
    cdef int64_t slot_cap      # the slots in use (a power of two)
    cdef int64_t slot_alloc    # the slots allocated
    cdef int stamp             # the stamp of the last merge of requests (0: none since
                               # the table was wiped or made)
    cdef uint64_t* buffer      # the child being made
    cdef readonly int64_t states   # nodes of the diagram before reduction
    cdef Store store           # whose memory bound the tables count against (None: none)
    cdef readonly int64_t held_bytes   # the bytes of the tables, counted against it
    cdef bint over_bytes       # a table was refused its growth by the memory bound

    def __cinit__(self, arrays, int64_t max_ids):
        # ``arrays``: an EngineInput (see :func:`build`; its colors and multiplicities are
        # not read)
        cdef int n_primary = arrays.n_primary
        cdef int n_items = n_primary + arrays.n_secondary
        cdef const int[:] option_start = arrays.option_start
        cdef const int[:] node_item = arrays.node_item
        cdef int n = option_start.shape[0] - 1
        self.n_options = n
        self.n_primary = n_primary
        self.words = (n + 64) // 64    # one spare bit past the last option
        self.max_ids = max_ids
        self.opts = <uint64_t*>calloc(<int64_t>(n_items + 1) * self.words, sizeof(uint64_t))
        self.first_word = <int32_t*>calloc(n_items + 1, sizeof(int32_t))
        self.last_word = <int32_t*>calloc(n_items + 1, sizeof(int32_t))
        self.conf = <uint64_t*>calloc(<int64_t>(n + 1) * self.words, sizeof(uint64_t))
        self.prim_start = <int64_t*>calloc(n + 2, sizeof(int64_t))
        self.pwords = (n_primary + 63) // 64
        self.touch = <uint64_t*>calloc(<int64_t>self.words * 8 * 256 * self.pwords + 1,
                                       sizeof(uint64_t))
        self.own = <uint64_t*>calloc(<int64_t>(n + 1) * self.pwords + 1, sizeof(uint64_t))
        self.levels = <Level*>calloc(n + 1, sizeof(Level))
        self.buffer = <uint64_t*>calloc(self.words, sizeof(uint64_t))
        self.first_id = <int64_t*>calloc(n + 2, sizeof(int64_t))
        self.id_cap = 1 << 12
        self.kids = <int32_t*>table_alloc(2 * self.id_cap * sizeof(int32_t))
        self.slot_cap = self.slot_alloc = 0
        self.stamp = 0
        self.slots = NULL
        self.prim = NULL
        self.touch32 = NULL
        if (self.opts == NULL or self.first_word == NULL or self.last_word == NULL
                or self.conf == NULL or self.prim_start == NULL or self.touch == NULL
                or self.own == NULL
                or self.levels == NULL or self.buffer == NULL or self.kids == NULL
                or self.first_id == NULL):
            raise MemoryError("cannot allocate the top-down construction")
        self.kids[0] = self.kids[1] = 0   # the terminals reduce to themselves
        self.kids[2] = self.kids[3] = 1
        self.n_ids = 2
        self.root_id = 0
        self.states = 0
        self.store = None
        self.over_bytes = False
        self.held_bytes = (
            ((n_items + 1) * self.words + (n + 1) * self.words + self.words * 8 * 256 * self.pwords
             + (n + 1) * self.pwords + self.words) * sizeof(uint64_t)
            + (2 * (n_items + 1) + 2 * self.id_cap + node_item.shape[0]) * sizeof(int32_t)
            + (2 * n + 4) * sizeof(int64_t) + (n + 1) * sizeof(Level))
        self._tables(n_items, option_start, node_item)

    cdef bint grows(self, int64_t more) noexcept:
        """Whether the tables may take ``more`` bytes (then counted, also against the
        store's bound); False, and ``over_bytes`` set, past the bound."""
        if self.store is not None:
            if not self.store.affords(more):
                self.over_bytes = True
                return False
            self.store.borrowed += more
        self.held_bytes += more
        return True

    cdef void shrinks(self, int64_t less) noexcept:
        """``less`` bytes of the tables freed."""
        if self.store is not None:
            self.store.borrowed -= less
        self.held_bytes -= less

    def __dealloc__(self):
        cdef int64_t m
        if self.levels != NULL:
            for m in range(self.n_options + 1):
                self._free_level(&self.levels[m])
        free(self.levels)
        free(self.opts)
        free(self.first_word)
        free(self.last_word)
        free(self.conf)
        free(self.prim_start)
        free(self.prim)
        free(self.touch)
        free(self.touch32)
        free(self.own)
        free(self.buffer)
        table_free(self.kids)
        free(self.first_id)
        table_free(self.slots)

    # ----- the tables of the problem -----

    cdef int _tables(self, int n_items, const int[:] option_start,
                     const int[:] node_item) except -1:
        """opts, first/last words, conf, the primary items of each option, ``touch``."""
        cdef int n = self.n_options, W = self.words, k, j, w
        cdef int64_t e
        for k in range(n):
            for e in range(option_start[k], option_start[k + 1]):
                j = node_item[e]
                self.opts[<int64_t>j * W + (k >> 6)] |= (<uint64_t>1) << (k & 63)
        for j in range(n_items):
            self.first_word[j] = W
            self.last_word[j] = -1
            for w in range(W):
                if self.opts[<int64_t>j * W + w]:
                    self.first_word[j] = min(self.first_word[j], w)
                    self.last_word[j] = w
        for k in range(n):
            for e in range(option_start[k], option_start[k + 1]):
                j = node_item[e]
                for w in range(self.first_word[j], self.last_word[j] + 1):
                    self.conf[<int64_t>k * W + w] |= self.opts[<int64_t>j * W + w]
        self._primary_lists(option_start, node_item)
        return self._touch_table(option_start, node_item)

    cdef int _primary_lists(self, const int[:] option_start, const int[:] node_item) except -1:
        cdef int n = self.n_options, k
        cdef int64_t e, t = 0
        self.prim = <int32_t*>malloc(max(node_item.shape[0], 1) * sizeof(int32_t))
        if self.prim == NULL:
            raise MemoryError("cannot allocate the top-down construction")
        for k in range(n):
            self.prim_start[k] = t
            for e in range(option_start[k], option_start[k + 1]):
                if node_item[e] < self.n_primary:
                    self.prim[t] = node_item[e]
                    t += 1
        self.prim_start[n] = t
        return 0

    cdef int _touch_table(self, const int[:] option_start, const int[:] node_item) except -1:
        """``own`` (each option's primary items) and ``touch``: for byte position b of a
        bitset of options and byte value v, the primary items touched by the options
        8b + i for the bits i of v (built from v with its lowest bit cleared)."""
        cdef int P = self.pwords, k, b, v, q
        cdef int64_t e
        cdef uint64_t* row
        cdef const uint64_t* prev
        cdef const uint64_t* extra
        for k in range(self.n_options):
            for e in range(option_start[k], option_start[k + 1]):
                if node_item[e] < self.n_primary:
                    self.own[<int64_t>k * P + (node_item[e] >> 6)] |= (
                        (<uint64_t>1) << (node_item[e] & 63))
        for b in range(self.words * 8):
            for v in range(1, 256):
                k = b * 8 + ctz64(v)
                if k >= self.n_options:
                    continue
                row = self.touch + (<int64_t>b * 256 + v) * P
                prev = self.touch + (<int64_t>b * 256 + (v & (v - 1))) * P
                extra = self.own + <int64_t>k * P
                for q in range(P):
                    row[q] = prev[q] | extra[q]
        if self.n_primary <= 32:
            self.touch32 = <uint32_t*>malloc(<int64_t>self.words * 8 * 256 * sizeof(uint32_t))
            if self.touch32 == NULL:
                raise MemoryError("cannot allocate the top-down construction")
            self.held_bytes += <int64_t>self.words * 8 * 256 * sizeof(uint32_t)
            for q in range(self.words * 8 * 256):
                self.touch32[q] = <uint32_t>self.touch[q]
        return 0

    # ----- states -----

    cdef inline bint touches(self, const uint64_t* a, int j, int from_word) noexcept:
        """Whether the options of bitset ``a`` (words from ``from_word`` on) touch item j."""
        cdef const uint64_t* o = self.opts + <int64_t>j * self.words
        cdef int w = self.first_word[j] if self.first_word[j] > from_word else from_word
        while w <= self.last_word[j]:
            if a[w] & o[w]:
                return True
            w += 1
        return False

    cdef inline int request(self, int from_word, uint32_t back,
                            const uint64_t* items) noexcept:
        """Ask for the state in ``buffer`` (words from ``from_word`` on), whose options
        touch the primary ``items``, as the child ``back``, after dropping its leading
        options whose choice leads to a dead state (their nodes would be reduced away;
        dropping them first lets more states merge): the top terminal when it is empty,
        the bottom when it is dead, else a request at level min(A), merged with the
        others when that level comes. -1 when out of memory."""
        cdef int w = from_word, m, t
        cdef const uint64_t* c
        while True:
            while w < self.words and self.buffer[w] == 0:
                w += 1
            if w == self.words:
                self.answer(back, 1)
                return 0
            m = w * 64 + ctz64(self.buffer[w])
            c = self.conf + <int64_t>m * self.words
            # hi_dead() for one word of primary items, by word_dead() (in touch32 for 32)
            if self.touch32 != NULL:
                if not word_dead(self.touch32, self.buffer, c, w, self.words,
                                 <uint32_t>(items[0] & ~self.own[m])):
                    break
            elif self.pwords == 1:
                if not word_dead(self.touch, self.buffer, c, w, self.words,
                                 items[0] & ~self.own[m]):
                    break
            elif not self.hi_dead(self.buffer, m, items):
                break
            # dropping m keeps the items touched, unless it was an item's last option
            self.buffer[w] &= self.buffer[w] - 1
            for t in range(self.prim_start[m], self.prim_start[m + 1]):
                if not self.touches(self.buffer, self.prim[t], w):
                    self.answer(back, 0)
                    return 0
        return self.append(&self.levels[m], self.buffer + w, self.words - w, items, back)

    cdef inline void answer(self, uint32_t back, int32_t node) noexcept:
        """Give the request ``back`` its node id."""
        if back == ROOT:
            self.root_id = node
        else:
            self.kids[back] = node

    cdef inline int append(self, Level* level, const uint64_t* key, int words,
                           const uint64_t* items, uint32_t back) noexcept:
        """Add a request to ``level``: its key is the ``words`` words of its bitset and,
        after them, the ``pwords`` words of the primary items its options touch (a
        function of the bitset, so two keys are equal when their bitsets are: kept so
        that a state's checks need not find its items again)."""
        cdef uint64_t* to
        if level.n == level.n_chunks << CHUNK_SHIFT and self._new_chunk(
                level, words + self.pwords) < 0:
            return -1
        to = key_at(level, level.n)
        copy_key(to, key, words)
        copy_key(to + words, items, self.pwords)
        back_at(level, level.n)[0] = back
        level.n += 1
        return 0

    cdef int _new_chunk(self, Level* level, int width) noexcept:
        """One more chunk of requests for ``level``, whose keys are ``width`` words (-1
        when out of memory)."""
        cdef int64_t room
        cdef uint64_t** chunks
        cdef uint64_t* chunk
        if level.n_chunks == level.chunk_room:
            room = 2 * level.chunk_room if level.chunk_room else 4
            chunks = <uint64_t**>realloc(level.chunks, room * sizeof(uint64_t*))
            if chunks == NULL:
                return -1
            level.chunks = chunks
            level.chunk_room = room
        if not self.grows(self.chunk_bytes(width)):
            return -1
        chunk = <uint64_t*>malloc(self.chunk_bytes(width))
        if chunk == NULL:
            self.shrinks(self.chunk_bytes(width))
            return -1
        level.chunks[level.n_chunks] = chunk
        level.n_chunks += 1
        level.width = width
        return 0

    cdef inline int64_t chunk_bytes(self, int width) noexcept:
        """The bytes of a chunk of requests whose keys are ``width`` words."""
        return CHUNK * (width * sizeof(uint64_t) + sizeof(uint32_t))

    cdef void _free_level(self, Level* level) noexcept:
        """Free a level's requests (and give their bytes back)."""
        cdef int64_t c
        for c in range(level.n_chunks):
            free(level.chunks[c])
        self.shrinks(level.n_chunks * self.chunk_bytes(level.width))
        free(level.chunks)
        level.chunks = NULL
        level.n_chunks = level.chunk_room = level.n = 0

    cdef bint hi_dead(self, const uint64_t* a, int m, const uint64_t* items) noexcept:
        """Whether choosing m in state ``a``, whose options touch the primary ``items``,
        leaves a primary item without an option: one of ``items`` outside m that the
        options compatible with m do not touch (``touch`` gives the items of the options
        a byte at a time; the options that conflict with m touch the others); for more
        than 64 primary items, word_dead() for fewer."""
        cdef int P = self.pwords, w, q
        cdef uint64_t kept[MAX_PRIMARY_WORDS]
        cdef const uint64_t* c = self.conf + <int64_t>m * self.words
        cdef const uint64_t* mine = self.own + <int64_t>m * P
        for q in range(P):
            kept[q] = 0
        for w in range(m >> 6, self.words):
            self.items_of(a[w] & ~c[w], w, kept)
        for q in range(P):
            if items[q] & ~mine[q] & ~kept[q]:
                return True
        return False

    cdef inline void items_of(self, uint64_t bits, int w, uint64_t* items) noexcept:
        """Add to ``items`` the primary items of the options ``bits`` of word w."""
        cdef int P = self.pwords, q
        cdef const uint64_t* row = self.touch + <int64_t>w * 8 * 256 * P
        while bits:
            if bits & 255:
                for q in range(P):
                    items[q] |= row[(bits & 255) * P + q]
            bits >>= 8
            row += 256 * P

    cdef void items_all(self, const uint64_t* a, int from_word, uint64_t* items) noexcept:
        """The primary items touched by the options of bitset ``a`` (words from
        ``from_word`` on), ``pwords`` words in ``items``."""
        cdef int w, q
        for q in range(self.pwords):
            items[q] = 0
        for w in range(from_word, self.words):
            self.items_of(a[w], w, items)

    cdef int _slots_for(self, int64_t entries, bint wiped=True) noexcept:
        """A power of two of slots, at least twice ``entries``; ``slot_cap`` is their
        number afterwards (the allocation only grows). With ``wiped``, all of them empty
        (``EMPTY``), for the reduction; else as the merges left them, each stamped with
        the merge that wrote it (see ``merge``). -1 when out of memory."""
        cdef int64_t size = 16
        while size < 2 * entries:
            size <<= 1
        if size > self.slot_alloc:
            if not self.grows((size - self.slot_alloc) * sizeof(uint64_t)):
                return -1
            table_free(self.slots)
            self.slots = <uint64_t*>table_alloc(size * sizeof(uint64_t))
            if self.slots == NULL:
                self.shrinks(size * sizeof(uint64_t))
                self.slot_alloc = self.slot_cap = 0
                return -1
            self.slot_alloc = size
            self.stamp = 0   # stamps of an old table mean nothing here
        self.slot_cap = size
        if wiped:
            memset(self.slots, 0xFF, size * sizeof(uint64_t))
            self.stamp = 0
        return 0

    cdef uint64_t _next_stamp(self) noexcept:
        """The stamp of the merge about to start (the middle byte of its slots' high
        half): a slot holding another stamp is empty for it, so the table is wiped (to
        stamp 0) only when the 255 stamps run out or the table is new, not before every
        level."""
        if self.stamp == 0 or self.stamp == 255:
            memset(self.slots, 0, self.slot_alloc * sizeof(uint64_t))
            self.stamp = 0
        self.stamp += 1
        return (<uint64_t>self.stamp) << 32

    cdef int64_t merge(self, Level* level) noexcept:
        """Merge the equal requests of a level: the distinct keys move to the front, in
        order of first request, and each request's parent gets the id of its state (the
        level's ids follow ``n_ids``). Returns the number of states, -1 out of memory, -3
        beyond the node limit.

        A slot holds a state's index (low half), the stamp of this merge (the next
        byte) and the top 24 bits of its key's hash, so that a probe reads a key only
        when the hashes agree; a slot of another stamp is empty, and the table is not
        wiped between levels (``_next_stamp``). The requests go in groups of ``BATCH``,
        the slots of a group fetched from memory while its hashes are computed (a
        level's table is far larger than the caches)."""
        cdef int width = level.width
        cdef int64_t r, start, stop, u, n_states = 0
        cdef uint64_t mask, slot, entry, tag, stamp
        cdef uint64_t hashes[BATCH]
        cdef const uint64_t* key
        cdef const uint64_t* keys
        cdef const uint32_t* backs
        if self._slots_for(level.n, False) < 0:
            return -1
        stamp = self._next_stamp()
        mask = <uint64_t>(self.slot_cap - 1)
        start = 0
        while start < level.n:
            stop = start + BATCH if start + BATCH < level.n else level.n
            keys = key_at(level, start) - (start & (CHUNK - 1)) * width   # the group's chunk
            backs = back_at(level, start) - (start & (CHUNK - 1))
            for r in range(start, stop):
                # the hash's top 24 bits and the stamp make the high half of its slot
                hashes[r - start] = (key_hash(keys + (r & (CHUNK - 1)) * width, width)
                                     & ~STAMP_BITS) | stamp
                prefetch(self.slots + (hashes[r - start] & mask))
                if backs[r & (CHUNK - 1)] != ROOT:
                    prefetch_write(self.kids + backs[r & (CHUNK - 1)])
            for r in range(start, stop):
                # the key a request most likely meets again: the one at its home slot
                entry = self.slots[hashes[r - start] & mask]
                if ((entry ^ hashes[r - start]) >> 32) == 0:
                    prefetch(key_at(level, <uint32_t>entry))
            for r in range(start, stop):
                key = keys + (r & (CHUNK - 1)) * width
                slot = hashes[r - start] & mask
                tag = hashes[r - start] & 0xFFFFFFFF00000000ULL
                while True:
                    entry = self.slots[slot]
                    if (entry & STAMP_BITS) != stamp:   # empty for this merge
                        u = n_states
                        n_states += 1
                        self.slots[slot] = tag | <uint64_t>u
                        if u != r:
                            copy_key(key_at(level, u), key, width)
                        break
                    if (entry & 0xFFFFFFFF00000000ULL) == tag and same(
                            key_at(level, <uint32_t>entry), key, width):
                        u = <int64_t><uint32_t>entry
                        break
                    slot = (slot + 1) & mask
                self.answer(backs[r & (CHUNK - 1)], <int32_t>(self.n_ids + u))
            start = stop
        return n_states

    cdef int _ids_grow(self, int64_t needed) noexcept:
        """Room for ``needed`` node ids (-1 when out of memory)."""
        cdef int64_t cap = self.id_cap
        cdef int32_t* grown
        while cap < needed:
            cap *= 2
        if cap == self.id_cap:
            return 0
        if not self.grows(2 * (cap - self.id_cap) * sizeof(int32_t)):
            return -1
        grown = <int32_t*>table_resize(self.kids, 2 * cap * sizeof(int32_t))
        if grown == NULL:
            self.shrinks(2 * (cap - self.id_cap) * sizeof(int32_t))
            return -1
        self.kids = grown
        self.id_cap = cap
        return 0

    # ----- the construction -----

    cdef inline int lo_child(self, const uint64_t* key, int m, uint32_t back,
                             const uint64_t* items) noexcept:
        """Ask for ``A - {m}``, A the state whose ``key`` holds words m // 64 on (dead
        when a primary item of m loses its last option; else its options touch the same
        ``items`` as A's)."""
        cdef int base = m >> 6, w
        cdef int64_t t
        for w in range(base, self.words):
            self.buffer[w] = key[w - base]
        self.buffer[base] &= ~((<uint64_t>1) << (m & 63))
        for t in range(self.prim_start[m], self.prim_start[m + 1]):
            if not self.touches(self.buffer, self.prim[t], base):
                self.answer(back, 0)
                return 0
        return self.request(base, back, items)

    cdef inline int hi_child(self, const uint64_t* key, int m, uint32_t back,
                             const uint64_t* items) noexcept:
        """Ask for A minus the options that conflict with m (a live state: request()
        made sure of it when it kept m), whose options touch A's ``items`` but m's; A
        as in lo_child()."""
        cdef int base = m >> 6, w, q
        cdef const uint64_t* c = self.conf + <int64_t>m * self.words
        cdef const uint64_t* mine = self.own + <int64_t>m * self.pwords
        cdef uint64_t left[MAX_PRIMARY_WORDS]
        for w in range(base, self.words):
            self.buffer[w] = key[w - base] & ~c[w]
        for q in range(self.pwords):
            left[q] = items[q] & ~mine[q]
        return self.request(base, back, left)

    cdef int root(self) except -2:
        """Ask for the first state: every option (none when a primary item has none)."""
        cdef int j, k
        cdef uint64_t items[MAX_PRIMARY_WORDS]
        for j in range(self.n_primary):
            if self.last_word[j] < 0:
                return 0
        for k in range(self.n_options):
            self.buffer[k >> 6] |= (<uint64_t>1) << (k & 63)
        self.items_all(self.buffer, 0, items)
        return self.request(0, ROOT, items)

    cdef int expand(self, object tick) except -2:
        """Process the levels in order: merge the level's requests into states, then ask
        for the children of each state; a level's requests are freed once it is done.
        Returns 0, -1 out of memory, -3 beyond the node limit."""
        cdef int m, words
        cdef int64_t u, n_states
        cdef uint32_t i
        cdef Level* level
        cdef const uint64_t* key
        if self.root() < 0:
            return -1
        for m in range(self.n_options):
            level = &self.levels[m]
            self.first_id[m] = self.n_ids
            if level.n == 0:
                continue
            n_states = self.merge(level)
            if n_states < 0:
                return n_states
            if self.n_ids + n_states > self.max_ids:
                return -3
            if self._ids_grow(self.n_ids + n_states) < 0:
                return -1
            words = level.width - self.pwords
            for u in range(n_states):
                # a level may hold millions of states: Ctrl-C or an alarm is seen
                # within one group of them, not only between levels
                if (u & 0xFFFF) == 0xFFFF and PyErr_CheckSignals() < 0:
                    return -2
                key = key_at(level, u)
                i = <uint32_t>(self.n_ids + u)
                if (self.lo_child(key, m, 2 * i, key + words) < 0
                        or self.hi_child(key, m, 2 * i + 1, key + words) < 0):
                    return -1
            self.n_ids += n_states
            self.states += n_states
            self._free_level(level)
            if PyErr_CheckSignals() < 0:
                return -2
            if tick is not None:
                tick(m + 1, self.n_options, n_states)
        self.first_id[self.n_options] = self.n_ids
        return 0

    cdef int _nodes_grow(self, int64_t made) noexcept:
        """Double the table of a level's nodes in the reduction (pairs of slots: a key,
        its node), its ``made`` entries placed again. -1 when out of memory."""
        cdef int64_t pairs = self.slot_cap // 2, p, t = 0
        cdef uint64_t mask, slot
        cdef uint64_t* held
        if not self.grows(2 * made * sizeof(uint64_t)):
            return -1
        held = <uint64_t*>malloc(max(2 * made, 1) * sizeof(uint64_t))
        if held == NULL:
            self.shrinks(2 * made * sizeof(uint64_t))
            return -1
        for p in range(pairs):
            if self.slots[2 * p] != EMPTY:
                held[2 * t] = self.slots[2 * p]
                held[2 * t + 1] = self.slots[2 * p + 1]
                t += 1
        if self._slots_for(2 * pairs) < 0:
            free(held)
            self.shrinks(2 * made * sizeof(uint64_t))
            return -1
        mask = <uint64_t>(self.slot_cap // 2 - 1)
        for p in range(t):
            slot = pair_hash(held[2 * p]) & mask
            while self.slots[2 * slot] != EMPTY:
                slot = (slot + 1) & mask
            self.slots[2 * slot] = held[2 * p]
            self.slots[2 * slot + 1] = held[2 * p + 1]
        free(held)
        self.shrinks(2 * made * sizeof(uint64_t))
        return 0

    cdef int32_t reduce(self, Store store) noexcept:
        """Make the nodes bottom-up in ``store``: the ids go level by level, children
        after parents, so a walk down the ids meets a state's children reduced. The
        states of a level whose reduced children agree are one node: they are merged in
        a table of the level first (slots of a key, the two children, and its node), so
        that the store's unique table sees each distinct node once; the nodes go in
        groups of ``BATCH``, their children, slots, and the store's slots for the new
        ones fetched from memory ahead of their use. Returns the root's node, -1 on
        overflow or out of memory."""
        cdef int m
        cdef int64_t i, start, stop, count
        cdef uint64_t mask, slot, key
        cdef int32_t lo, hi, node
        cdef int32_t* kids = self.kids
        cdef uint64_t keys[BATCH]
        cdef uint64_t hashes[BATCH]
        cdef int64_t kept[BATCH]
        cdef int64_t made
        cdef int k, n_kept
        if self.root_id < 2:
            return self.root_id
        for m in range(self.n_options - 1, -1, -1):
            count = self.first_id[m + 1] - self.first_id[m]
            if count == 0:
                continue
            # a level has far fewer distinct nodes than states (most states reduce to
            # a node made already, or to their lo child): the table starts small, and
            # doubles before a group could fill more than half of it
            if self._slots_for(2 * (count // 8 + BATCH)) < 0:
                return -1
            made = 0
            start = self.first_id[m]
            while start < self.first_id[m + 1]:
                if 4 * (made + BATCH) > self.slot_cap and self._nodes_grow(made) < 0:
                    return -1
                mask = <uint64_t>(self.slot_cap // 2 - 1)
                stop = start + BATCH if start + BATCH < self.first_id[m + 1] else self.first_id[m + 1]
                for i in range(start, stop):
                    prefetch(kids + 2 * kids[2 * i])
                    prefetch(kids + 2 * kids[2 * i + 1])
                # the states whose hi child is not the empty family, listed without a
                # branch (which states reduce to their lo child follows no pattern the
                # processor could learn)
                n_kept = 0
                for i in range(start, stop):
                    lo = kids[2 * kids[2 * i]]
                    hi = kids[2 * kids[2 * i + 1]]
                    kids[2 * i] = lo   # the zero-suppression rule, kept when hi is 0
                    key = (<uint64_t><uint32_t>lo << 32) | <uint32_t>hi
                    kept[n_kept] = i
                    keys[n_kept] = key
                    n_kept += hi != 0
                for k in range(n_kept):
                    hashes[k] = pair_hash(keys[k])
                    prefetch(self.slots + 2 * (hashes[k] & mask))
                for k in range(n_kept):
                    key = keys[k]
                    slot = hashes[k] & mask
                    while self.slots[2 * slot] != EMPTY and self.slots[2 * slot] != key:
                        slot = (slot + 1) & mask
                    if self.slots[2 * slot] == EMPTY:   # a new node: made below
                        self.slots[2 * slot] = key
                        self.slots[2 * slot + 1] = EMPTY
                        made += 1
                        store.make_ahead(m, <int32_t>(key >> 32), <int32_t><uint32_t>key)
                    hashes[k] = slot
                for k in range(n_kept):
                    slot = hashes[k]
                    if self.slots[2 * slot + 1] == EMPTY:
                        key = keys[k]
                        node = store.make(m, <int32_t>(key >> 32), <int32_t><uint32_t>key)
                        if node < 0:
                            return -1
                        self.slots[2 * slot + 1] = <uint64_t>node
                    kids[2 * kept[k]] = <int32_t>self.slots[2 * slot + 1]
                start = stop
        return kids[2 * self.root_id]


def build(Store store, arrays, tick=None):
    """The root node, in ``store``, of the family of all exact covers of the problem
    ``arrays`` as the engines read it (an :class:`~excover.problem.EngineInput`: no
    colors, no multiplicities; options numbered as given), and the number of nodes
    of the diagram before reduction. ``tick``, when given, is called after each level
    with the levels done, their number and the states of that level (for a progress
    bar). Raises MemoryError when the tables cannot grow, MemoryBoundError past the
    store's memory bound, and ``StoreFull`` (through the store) beyond its node limit."""
    cdef TopDown t = TopDown(arrays, min(store.max_nodes, 0x7FFFFFF0))
    cdef int done
    cdef int32_t root
    store.borrow(t.held_bytes)   # the tables of the problem, made already
    t.store = store
    try:
        done = t.expand(tick)
        if done == -1:
            if t.over_bytes:
                raise MemoryBoundError(store.max_bytes)
            raise MemoryError("cannot grow the top-down construction's tables")
        if done == -3:
            store._overflow()
        store.safe_point()
        root = t.reduce(store)
        if root < 0:
            store._overflow()
        return root, t.states
    finally:
        store.borrowed -= t.held_bytes
        t.store = None
