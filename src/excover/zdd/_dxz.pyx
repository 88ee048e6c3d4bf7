# cython: language_level=3
"""The DXZ construction: dancing links with a memo on the sub-problems, making the ZDD of
all the solutions of an exact cover problem in a :class:`~excover.zdd._store.Store`.

:func:`search` makes a search, :func:`run` runs it (all at once, or a budget of search
nodes at a time), :func:`next_leaf` runs it from one solution-bearing leaf to the next
(the listing of :func:`excover.zdd.dxz.solutions`); the class notes of :class:`Dxz`
describe the links, the memo and its keys. The memo's bytes (and the links') count
against the memory bound of the store the search makes its nodes in
(:meth:`excover.zdd._store.Store.borrow`), and are given back when the search ends.
"""

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, uint64_t, int64_t
from cpython.exc cimport PyErr_CheckSignals
cimport cython

from excover._tables cimport table_alloc, table_free
from excover.zdd._blocks cimport empty_table, free_slot, resize, resize_table
from excover.zdd._store cimport Store


cdef inline uint64_t compact_hash(uint64_t x) noexcept nogil:
    """The hash of a compact key: a multiplication by the golden ratio (Fibonacci
    hashing), its high bits folded onto the low ones that pick a slot."""
    x *= 0x9E3779B97F4A7C15ULL
    return x ^ (x >> 29)


#: The error of a search whose stack cannot grow.
cdef str NO_ROOM = "cannot grow the DXZ stack"


cdef inline int32_t fold(Store store, int32_t f, const int32_t* pend_opt,
                         const int32_t* pend_sub, int64_t start, int64_t top) noexcept:
    """The family of a level that is done: ``f`` (the family of its last branch) and, for
    each pending pair k of ``start..top-1``, the sets ``{pend_opt[k]} x pend_sub[k]``,
    made from the last pair back so that each node is canonical as made; -1 when the node
    limit of ``store`` is reached."""
    cdef int64_t k = top - 1
    while k >= start:
        f = store.make(pend_opt[k], f, pend_sub[k])
        if f < 0:
            return -1
        k -= 1
    return f


cdef bint _plain(const int[:] lo, const int[:] hi):
    """Whether every multiplicity is exactly 1 (no Algorithm M)."""
    cdef Py_ssize_t j
    for j in range(lo.shape[0]):
        if lo[j] != 1 or hi[j] != 1:
            return False
    return True


cdef struct Slot:
    # an entry of the compact memo: the one-word key (never 0) and its ZDD
    uint64_t key
    int32_t value
    int32_t unused


def search(Store store, arrays):
    """A DXZ search for all solutions of an exact cover problem, as a family over
    option numbers in ``store``; :func:`run` runs it.

    ``arrays`` is the problem as the engines read it (an
    :class:`~excover.problem.EngineInput`), its options already sorted by their first
    primary item; the search always branches on the leftmost uncovered primary item, so
    the options chosen along a path have increasing numbers and every node is made
    directly in canonical form. Multiplicities other than 1 make it Algorithm M
    (:meth:`Dxz.set_bounds`).
    """
    cdef Dxz d = Dxz(arrays)
    if not _plain(arrays.lo, arrays.hi):
        d.set_bounds(arrays.lo, arrays.hi)
    store.borrow(d.held_bytes)   # MemoryBoundError when the tables made so far do not fit
    d.owner = store
    return d


def run(Store store, Dxz d, int64_t budget=-1):
    """Run the search ``d`` of :func:`search` until it ends or has entered ``budget``
    search nodes in all (a negative budget means no limit).

    Returns (root, memo entries, search nodes, memo hits); root is -1 when the budget
    stopped the search. Calling again with a larger budget then goes on from there,
    provided no other operation ran on the store in between: the partial results
    belong to no family, and a garbage collection would free them.
    """
    if d.owner is not store:
        raise ValueError("this DXZ search belongs to another store")
    if d.started and not d.resumable:
        raise ValueError("this DXZ search has ended")
    if not d.started:
        store.safe_point()
    cdef int32_t r
    d.budget = budget
    try:
        r = d.run(store)
    except MemoryError:
        store.collect()
        raise
    if r == -3 or r == -4:
        return -1, d.n_memo, d.nodes, d.hits
    if r < 0:
        store._overflow()
    return r, d.n_memo, d.nodes, d.hits


def next_leaf(Store store, Dxz d):
    """Run the search ``d`` of :func:`search` to its next *leaf* that holds solutions: a
    sub-problem solved at once (nothing left to cover: the family {∅}) or found in the
    memo (a nonempty family). Returns the leaf's node in ``store``, or -1 once the
    search has ended; :meth:`Dxz.path` gives the options chosen on the way to it.

    Every solution lies below exactly one such leaf (the options of its path, then a
    member of the leaf's family), and the leaves come in the order of the search: the
    options of the branching item in increasing order at every level, so that the
    solutions of the leaves, each family's taken hi edge first, come in lexicographic
    order (of their options as increasing sequences, a set before its prefixes). Between
    two calls nothing else may run on the store (as for :func:`run`)."""
    d.leaves = True
    try:
        root = run(store, d)[0]
    finally:
        d.leaves = False
    return -1 if root >= 0 else d.leaf


@cython.no_gc_clear   # __dealloc__ gives the memo's bytes back to ``owner``
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
    # bytes of the memo (table included) and of the compact memo's slots; held_bytes is
    # all the search holds, counted against ``owner``'s memory bound once it is set
    cdef int64_t memo_bytes, slots_bytes
    cdef readonly int64_t held_bytes
    # listing (next_leaf): stop at each leaf holding solutions, whose node is ``leaf``
    cdef public bint leaves
    cdef public int32_t leaf
    # the search stack, kept here between the calls of a search stopped by its budget
    cdef int32_t* st_item
    cdef int32_t* st_choice
    cdef int64_t* st_base
    cdef int32_t* st_pend_opt
    cdef int32_t* st_pend_sub
    cdef int64_t st_cap, st_pcap, st_ptop, st_level
    cdef bint st_entering
    cdef int32_t st_result
    cdef public bint started, resumable
    cdef Store owner
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

    def __cinit__(self, arrays):
        # ``arrays``: an EngineInput (see :func:`search`; its multiplicities are not read)
        cdef int n_primary = arrays.n_primary
        cdef int n_items = n_primary + arrays.n_secondary
        cdef const int[:] option_start = arrays.option_start
        cdef const int[:] node_item = arrays.node_item
        cdef const int[:] node_color = arrays.node_color
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
        self.memo_bytes = self.slots_bytes = 0
        self.held_bytes = 0
        self.leaves = False
        self.leaf = -1
        self.owner = None
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
        self._borrow((5 * size + 3 * (n_items + 2)) * sizeof(int32_t)
                     + (self.words + n_items + 2) * sizeof(uint64_t))
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
        if self.owner is not None:
            self.owner.borrowed -= self.held_bytes
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
        table_free(self.memo_keys)
        table_free(self.memo_hash)
        table_free(self.memo_val)
        table_free(self.memo_table)
        table_free(self.slots)
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

    cdef int _borrow(self, int64_t more) except -1:
        """Count ``more`` bytes of this search's tables (negative: given back) against the
        memory bound of its store, once it has one (:func:`search` counts those made
        before); MemoryBoundError when they do not fit."""
        if self.owner is not None:
            self.owner.borrow(more)
        self.held_bytes += more
        return 0

    cdef void _release(self) noexcept:
        """Free the memo once the search has ended (nothing looks it up again) and give
        its bytes back."""
        table_free(self.memo_keys)
        table_free(self.memo_hash)
        table_free(self.memo_val)
        table_free(self.memo_table)
        table_free(self.slots)
        self.memo_keys = self.memo_hash = NULL
        self.memo_val = self.memo_table = NULL
        self.slots = NULL
        self.memo_cap = 0
        if self.owner is not None:
            self.owner.borrowed -= self.memo_bytes + self.slots_bytes
        self.held_bytes -= self.memo_bytes + self.slots_bytes
        self.memo_bytes = self.slots_bytes = 0

    cdef int _slots_grow(self, uint64_t size) except -1:
        """Make the compact memo ``size`` slots (a power of two) and put its entries back."""
        cdef Slot* old = self.slots
        cdef uint64_t old_size = self.slot_mask + 1 if old != NULL else 0, k, slot
        cdef int64_t new_bytes = size * sizeof(Slot)
        self._borrow(new_bytes - self.slots_bytes)
        self.slots_bytes = new_bytes
        cdef Slot* grown = <Slot*>table_alloc(size * sizeof(Slot))
        if grown == NULL:
            raise MemoryError("cannot grow the DXZ memo")
        memset(grown, 0, size * sizeof(Slot))
        self.slots = grown
        self.slot_mask = size - 1
        for k in range(old_size):
            if old[k].key != 0:
                slot = compact_hash(old[k].key) & self.slot_mask
                while grown[slot].key != 0:
                    slot = (slot + 1) & self.slot_mask
                grown[slot] = old[k]
        table_free(old)
        return 0

    cdef int _memo_grow(self, int64_t cap) except -1:
        cdef uint64_t size = 1
        while size < <uint64_t>(2 * cap):
            size <<= 1
        cdef int64_t new_bytes = (cap * (self.mwords * sizeof(uint64_t) + sizeof(uint64_t)
                                         + sizeof(int32_t)) + size * sizeof(int32_t))
        self._borrow(new_bytes - self.memo_bytes)
        self.memo_bytes = new_bytes
        cdef str message = "cannot grow the DXZ memo"
        resize_table(<void**>&self.memo_keys, cap * self.mwords * sizeof(uint64_t), message)
        resize_table(<void**>&self.memo_hash, cap * sizeof(uint64_t), message)
        resize_table(<void**>&self.memo_val, cap * sizeof(int32_t), message)
        self.memo_cap = cap
        self.memo_table = empty_table(self.memo_table, size)
        if self.memo_table == NULL:
            raise MemoryError(message)
        self.memo_mask = size - 1
        cdef int64_t e
        for e in range(self.n_memo):
            self.memo_table[free_slot(self.memo_table, self.memo_hash[e] & self.memo_mask,
                                      self.memo_mask)] = <int32_t>e
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

    cdef inline int32_t known(self) noexcept:
        """The family of the sub-problem of the uncovered items when it needs no search:
        1 (the empty set alone) when no primary item is left, else the memo's (a hit,
        counted) for the key :meth:`prepare_key` makes of it; -1 when the memo has none."""
        if self.rlink[0] == 0:
            return 1
        self.prepare_key()
        cdef int32_t result = self.memo_find()
        if result >= 0:
            self.hits += 1
        return result

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
        self.memo_table[free_slot(self.memo_table, self.mhash & self.memo_mask,
                                  self.memo_mask)] = <int32_t>e
        return 0

    cdef inline int32_t step(self, int32_t q, bint out) noexcept:
        """The node after q in its option, to the right (``out``) or to the left, round the
        option: the spacer at its end leads to its other end."""
        q += 1 if out else -1
        if self.top[q] <= 0:
            return self.ulink[q] if out else self.dlink[q]
        return q

    cdef inline void hide(self, int32_t p, bint out) noexcept:
        """Unlink the other nodes of p's option from their items, left to right (``out``),
        or link them back, right to left (not the nodes that purify() marked with color
        -1: they stay where unpurify() will look)."""
        cdef int32_t q = self.step(p, out), x, u, d
        while q != p:
            if self.uncolored or self.color[q] >= 0:
                x = self.top[q]
                u = self.ulink[q]
                d = self.dlink[q]
                if out:
                    self.dlink[u] = d
                    self.ulink[d] = u
                    self.length[x] -= 1
                else:
                    self.dlink[u] = q
                    self.ulink[d] = q
                    self.length[x] += 1
            q = self.step(q, out)

    cdef inline void cover(self, int32_t i) noexcept:
        cdef int32_t p = self.dlink[i]
        while p != i:
            self.hide(p, True)
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
            self.hide(p, False)
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
                self.hide(q, True)
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
                self.hide(q, False)
            q = self.ulink[q]

    cdef inline void commit(self, int32_t q, bint out) noexcept:
        """Commit node q's item (``out``): cover it, or purify it when q has a color (not
        when purify() marked q with color -1); or undo that."""
        if self.color[q] == 0:
            if out:
                self.cover(self.top[q])
            else:
                self.uncover(self.top[q])
        elif self.color[q] > 0:
            if out:
                self.purify(q)
            else:
                self.unpurify(q)

    cdef inline void commit_others(self, int32_t x, bint out) noexcept:
        """Commit the other items of x's option, left to right (``out``); or undo that,
        right to left."""
        cdef int32_t p = self.step(x, out)
        while p != x:
            self.commit(p, out)
            p = self.step(p, out)

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
        table_free(self.slots)
        self.slots = NULL
        self._borrow(-self.slots_bytes)
        self.slots_bytes = 0
        self._borrow(levels * (5 * sizeof(int32_t) + 2 * sizeof(int64_t))
                     + (self.n_options + 1) * 3 * sizeof(int32_t) + (n + 2) * 3 * sizeof(int32_t))
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
        self.hide(x, True)
        self.dlink[self.ulink[x]] = self.dlink[x]
        self.ulink[self.dlink[x]] = self.ulink[x]
        self.length[i] -= 1

    cdef inline void untweak(self, int32_t x) noexcept:
        cdef int32_t i = self.top[x]
        self.length[i] += 1
        self.dlink[self.ulink[x]] = x
        self.ulink[self.dlink[x]] = x
        self.hide(x, False)

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
        else:
            self.commit(q, True)

    cdef inline void count_out(self, int32_t q) noexcept:
        cdef int32_t j = self.top[q]
        if j <= self.n_primary:
            if self.cnt[j] == self.mhi[j]:
                self.uncover(j)
            self.cnt[j] -= 1
            self.set_count_key(j, self.cnt[j])
        else:
            self.commit(q, False)

    cdef inline void apply(self, int32_t x) noexcept:
        """Choose x's option (already tweaked): count in each of its items, x's first."""
        cdef int32_t p = self.step(x, True)
        self.count_in(x)
        while p != x:
            self.count_in(p)
            p = self.step(p, True)

    cdef inline void unapply(self, int32_t x) noexcept:
        cdef int32_t p = self.step(x, False)
        while p != x:
            self.count_out(p)
            p = self.step(p, False)
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
        cdef int64_t level = self.m_level, ptop = self.m_ptop, twtop = self.m_twtop
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
                ptr = 0
                if level > 0 and self.m_item[level - 1] == i:
                    ptr = self.opt[self.m_choice[level - 1]] + 1
                self.set_ptr_key(ptr)
                result = self.known()
                if result >= 0:
                    entering = False
                    if self.leaves and result != 0:
                        return self._multi_leaf(level, ptop, twtop, result)
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
                    self._release()
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
            f = fold(store, self.m_none[level], pend_opt, pend_sub, self.m_base[level], ptop)
            if f < 0:
                return -1
            ptop = self.m_base[level]
            while twtop > self.m_twbase[level]:
                twtop -= 1
                self.untweak(self.m_tweak[twtop])
            self.set_ptr_key(self.m_ptr[level])
            self.prepare_key()
            self.memo_add(f)
            result = f
            entering = False

    cdef int32_t _multi_leaf(self, int64_t level, int64_t ptop, int64_t twtop,
                             int32_t result) noexcept:
        """Pause :meth:`run_multi` at a leaf holding ``result`` (see :func:`next_leaf`):
        the next call goes on as if the leaf's sub-problem had just returned."""
        self.m_level, self.m_ptop, self.m_twtop = level, ptop, twtop
        self.m_entering, self.m_result = False, result
        self.resumable = True
        self.leaf = result
        return -4

    def path(self):
        """The options (numbered as the search has them) chosen on the way to the leaf
        where :func:`next_leaf` paused the search."""
        cdef int64_t l
        if self.multi:
            return [self.opt[self.m_choice[l]] for l in range(self.m_level)
                    if self.m_phase[l] == 0]
        return [self.opt[self.st_choice[l]] for l in range(self.st_level)]

    def progress(self):
        """The share of the search's tree walked so far, by Knuth's estimate from the
        choices on the current path (each option of a level an equal share of it; a
        subproblem found in the memo is done at once): 0 before the search starts, 1
        once it has ended; None on Algorithm M."""
        cdef double done = 0.0, weight = 1.0
        places = self.places()
        if places is None or places == 0.0 or places == 1.0:
            return places
        for r, n in places:
            done += weight * r / n
            weight /= n
        return min(max(done, 0.0), 1.0)

    def places(self):
        """Where the search is: for each level of the current path, the position of the
        option chosen among the options of the level's item (the item's own list, which
        stays whole while the item is covered) and their number, from the root down, as
        :meth:`child_sizes` numbers them; 0.0 before the search starts, 1.0 once it has
        ended; None on Algorithm M."""
        cdef int64_t l
        cdef int32_t i, x, p
        cdef int64_t n, r
        if self.multi:
            return None
        if not self.started:
            return 0.0
        if not self.resumable:
            return 1.0
        places = []
        for l in range(self.st_level):
            i = self.st_item[l]
            x = self.st_choice[l]
            n = 0
            r = -1
            p = self.dlink[i]
            while p != i:
                if p == x:
                    r = n
                n += 1
                p = self.dlink[p]
            if n == 0 or r < 0:
                break
            places.append((r, n))
        return places

    def child_sizes(self, prefix, int levels, int samples, uint64_t seed):
        """Knuth's estimates of the sizes (search nodes, the memo aside) of the subtrees
        below the search node reached from the root by the options at positions
        ``prefix`` (one per level, as :meth:`places` numbers them), down ``levels``
        levels from it: a dict from each node's path below that node (``()``: the node
        itself) to its options: their number for the nodes of the first ``levels`` - 1
        levels, whose every node is walked; for those of the last, a list per option of
        ``samples`` estimates of the size of its subtree (its own node included), each
        by a random descent; an empty list where there is nothing to branch on. None
        when ``prefix`` leads nowhere. Also returns the number of descents, their cost.
        Only on a search not started: the probes walk its links from the root and put
        them back as they were."""
        cdef int64_t cap = self.n_primary + 2
        cdef int32_t i, x, k
        cdef int64_t steps = 0
        cdef uint64_t state = (seed * 0x9E3779B97F4A7C15ULL) | 1
        if self.multi or self.started:
            raise ValueError("probes walk a search with no multiplicities, not started")
        if levels < 1 or samples < 0:
            raise ValueError("probes need a level at least, and no negative samples")
        cdef int32_t* items = <int32_t*>malloc(cap * sizeof(int32_t))
        cdef int32_t* chosen = <int32_t*>malloc(cap * sizeof(int32_t))
        cdef int64_t depth = 0
        if items == NULL or chosen == NULL:
            free(items)
            free(chosen)
            raise MemoryError("cannot allocate the DXZ probes")
        found = {}
        try:
            for r in prefix:
                i = self.rlink[0]
                if i == 0 or r < 0 or r >= self.length[i]:
                    return None, 0
                x = self.dlink[i]
                for k in range(r):
                    x = self.dlink[x]
                depth = self.branch(i, x, items, chosen, depth)
            self._sizes_below((), levels, samples, &state, found, &steps, items, chosen, depth)
            return found, steps
        finally:
            self.unbranch(items, chosen, depth, 0)
            free(items)
            free(chosen)

    cdef int _sizes_below(self, tuple path, int levels, int samples, uint64_t* state,
                          dict found, int64_t* steps, int32_t* items, int32_t* chosen,
                          int64_t depth) except -1:
        """Put in ``found[path]`` the current node's options: their number when
        ``levels`` is above 1 (and the same for the nodes below them), else for each
        its ``samples`` estimates (see :meth:`child_sizes`); the links are as they were
        on return."""
        cdef int32_t i = self.rlink[0], x, k = 0
        cdef int s
        if i == 0 or self.length[i] == 0:
            found[path] = 0 if levels > 1 else []
            return 0
        if levels > 1:
            found[path] = self.length[i]
        else:
            below = []
            found[path] = below
        x = self.dlink[i]
        while x != i:
            self.cover(i)
            self.commit_others(x, True)
            if levels > 1:
                self._sizes_below(path + (k,), levels - 1, samples, state, found, steps,
                                  items, chosen, depth)
            else:
                below.append([self._descent(state, items, chosen, depth)
                              for s in range(samples)])
                steps[0] += samples
            self.commit_others(x, False)
            self.uncover(i)
            x = self.dlink[x]
            k += 1
        return 0

    cdef double _descent(self, uint64_t* state, int32_t* items, int32_t* chosen,
                         int64_t depth) noexcept:
        """Knuth's estimate of the size of the current node's subtree (itself included)
        by one random descent from it; the links are as they were on return."""
        cdef int64_t base = depth
        cdef int32_t j, y, m, r
        cdef double weight = 1.0, estimate = 1.0
        while True:
            j = self.rlink[0]
            m = self.length[j] if j != 0 else 0
            if m == 0:
                break
            state[0] ^= state[0] << 13
            state[0] ^= state[0] >> 7
            state[0] ^= state[0] << 17
            y = self.dlink[j]
            for r in range(<int32_t>(state[0] % <uint64_t>m)):
                y = self.dlink[y]
            depth = self.branch(j, y, items, chosen, depth)
            weight *= m
            estimate += weight
        self.unbranch(items, chosen, depth, base)
        return estimate

    cdef inline int64_t branch(self, int32_t i, int32_t x, int32_t* items, int32_t* chosen,
                               int64_t depth) noexcept:
        """Branch on item i with its option x, noted at ``depth`` of the path of a probe
        (``items``, ``chosen``): the depth below."""
        self.cover(i)
        self.commit_others(x, True)
        items[depth] = i
        chosen[depth] = x
        return depth + 1

    cdef inline void unbranch(self, int32_t* items, int32_t* chosen, int64_t depth,
                              int64_t base) noexcept:
        """Undo the branches of a probe's path from ``depth`` back up to ``base``."""
        while depth > base:
            depth -= 1
            self.commit_others(chosen[depth], False)
            self.uncover(items[depth])

    cdef int32_t run(self, Store store) except -2:
        """The search: an explicit stack of levels, one per chosen option; -1 when the
        node limit of the store is reached, -3 when ``budget`` search nodes have been
        entered, -4 at a leaf when ``leaves`` is set (see :func:`next_leaf`). After -3 or
        -4 (only) the stack is kept here and the next call goes on from there, with the
        same search nodes, memo and ZDD nodes (which no Family holds: the store must not
        collect garbage in between)."""
        cdef int64_t cap = self.n_primary + 2
        cdef int64_t pcap = 1024, ptop = 0
        cdef int64_t level = 0
        cdef int32_t* item
        cdef int32_t* choice
        cdef int64_t* base
        cdef int32_t* pend_opt
        cdef int32_t* pend_sub
        cdef int32_t i, x, result = 0, f
        cdef bint entering = True, keep = False
        if self.multi:
            return self.run_multi(store)
        if self.resumable:
            item, choice, base = self.st_item, self.st_choice, self.st_base
            pend_opt, pend_sub = self.st_pend_opt, self.st_pend_sub
            cap, pcap, ptop, level = self.st_cap, self.st_pcap, self.st_ptop, self.st_level
            entering, result = self.st_entering, self.st_result
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
                    result = self.known()
                    if result >= 0:
                        entering = False
                        if self.leaves and result != 0:
                            self.leaf = result
                            keep = True
                            return -4
                        continue
                    i = self.rlink[0]
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
                        self._release()
                        return result
                    level -= 1
                    x = choice[level]
                    self.commit_others(x, False)
                    if result != 0:
                        if ptop == pcap:
                            pcap *= 2
                            resize(<void**>&pend_opt, pcap * sizeof(int32_t), NO_ROOM)
                            resize(<void**>&pend_sub, pcap * sizeof(int32_t), NO_ROOM)
                        pend_opt[ptop] = self.opt[x]
                        pend_sub[ptop] = result
                        ptop += 1
                    choice[level] = self.dlink[x]
                # try the next option at this level, or finish it
                i = item[level]
                x = choice[level]
                if x == i:
                    f = fold(store, 0, pend_opt, pend_sub, base[level], ptop)
                    if f < 0:
                        return -1
                    ptop = base[level]
                    self.uncover(i)
                    self.prepare_key()
                    self.memo_add(f)
                    result = f
                    entering = False
                    continue
                self.commit_others(x, True)
                level += 1
                if level + 1 >= cap:
                    cap *= 2
                    resize(<void**>&item, cap * sizeof(int32_t), NO_ROOM)
                    resize(<void**>&choice, cap * sizeof(int32_t), NO_ROOM)
                    resize(<void**>&base, cap * sizeof(int64_t), NO_ROOM)
                entering = True
        finally:
            if keep:
                self.st_item, self.st_choice, self.st_base = item, choice, base
                self.st_pend_opt, self.st_pend_sub = pend_opt, pend_sub
                self.st_cap, self.st_pcap, self.st_ptop, self.st_level = cap, pcap, ptop, level
                self.st_entering, self.st_result = entering, result
                self.resumable = True
            else:
                free(item); free(choice); free(base); free(pend_opt); free(pend_sub)
