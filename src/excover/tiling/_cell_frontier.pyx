# cython: language_level=3
"""The partitions of a board into connected pieces, counted by a frontier over its cells,
on a quotient board whose edges carry the elements of a small abelian group (compiled
core of :mod:`excover.tiling.cell_frontier`).

A *program* says what to do: one op per cell of the (quotient) board, in the order of a
sweep. An op puts its cell on the frontier (in a scratch slot), decides each of its
edges to cells already there (the two cells in one piece or not: two branches each),
forgets the cells whose edges are all decided, then moves the new cell to its slot. The
count is the number of ways through every op.

Two kinds of state, by ``mode``:

**Apart** (mode 0): each frontier cell's *component* (the cells joined through the
decided edges), and, per component, which of them were declared different pieces. On a
quotient board (the cells of a fundamental domain of a group G of symmetries of the
board, order 1, 2 or 4, abelian) an edge joins the lift ``(a, s)`` (the image of cell a
by s) to ``(b, s + v)`` for every s in G, ``v`` its *voltage*. A component C of the
quotient lifts to |G|/|H| pieces of the board, H its *holonomy* (the voltages of its
cycles, a subgroup); each frontier cell carries its *potential* (which lift it is in:
``(a, s)`` lies in sheet ``s - pot(a)``, defined modulo H), each component the elements
its holonomy must never contain (``forb``: an edge left out between two of its cells
that would otherwise be in one piece) and, per pair of components, the sheet offsets
that must never join (``rel``: ``(A-sheet t, B-sheet t + o)`` apart). A cell fixed by
part of G (a cell on a mirror line) starts a component whose holonomy holds its
stabilizer. Each piece of the board is a lift, of ``sigma * |H| / |G|`` cells where
``sigma`` adds the cells' orbit sizes; with a ``size``, every piece has that many
cells. On the plain board (G trivial) a state is the frontier's pieces and the pairs
declared apart, as in :mod:`excover.tiling._dissections`.

**Blocks** (mode 1, G trivial, a size): for few large pieces. Each frontier cell
carries its *block* (the piece it will be in, numbered in the frontier's order) and its
component within the block; each block its size. A block's components must all join:
one that leaves the frontier while its block has another is a dead end. The blocks
number at most the pieces left, and the cells left must fill the blocks on the
frontier (a bound the apart states cannot use): the 8 x 8 square cut into two pieces of
32 cells has 25,824 states at the widest cell this way, where the apart states of four
pieces of 16 passed 150 million.

States with the same key are merged and their counts added. A key is ``key_words``
64-bit words (at most 8), the fields packed one after another in canonical form: the
components numbered in the order the slots meet them, each component's potentials
shifted so that its first cell's is 0 and reduced to the least element of its coset,
the forbidden sets closed under the holonomies. A count is ``limbs`` 64-bit words (1 to
4: up to 2**256), added with carries; past its top word, ResourceLimitError. The layers
live in open-addressing tables of ``key_words + limbs`` words a state, at most 70% full
(empty slots: a count of 0), packed dense between ops.
"""

from cpython.buffer cimport PyBUF_READ
from cpython.exc cimport PyErr_CheckSignals
from cpython.memoryview cimport PyMemoryView_FromMemory
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t
from libc.stdio cimport FILE, SEEK_SET, fclose, fopen, fread, fseek
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from excover.zdd._keys cimport same

import errno
import os
import time

__all__ = [
    "HEADER_WORDS", "MAGIC", "MAX_EDGES", "MAX_KEY_WORDS", "MAX_LIMBS", "MAX_SIZE",
    "MAX_WIDTH", "checksum", "count_program", "key_bits",
]

#: The most frontier slots (cells on the frontier after an op).
MAX_WIDTH = 15
#: The most words of a key (512 bits).
MAX_KEY_WORDS = 8
#: The most 64-bit words of a count.
MAX_LIMBS = 4
#: The most edges an op decides.
MAX_EDGES = 6
#: The largest piece (cells of the board).
MAX_SIZE = 4095

cdef enum:
    MAXW = 16          # slots, with the scratch slot of an op's new cell
    MAXC = 16          # components (at most one a slot)
    MAXK = 8           # key words
    MAXL = 4           # count limbs
    MAXE = 6           # edges of an op
    FULL_TENTHS = 7    # the tenths of a table's slots in use past which it grows by half
    SCRATCH = 15       # the slot of an op's new cell until the op's forgetting is done


cdef extern from *:
    """
    #include <stdint.h>
    static inline uint64_t excover_cf_mix(uint64_t h) {
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 32;
        return h;
    }
    static inline long long excover_cf_scale(uint64_t h, long long cap) {
        return (long long)(((unsigned __int128)h * (unsigned long long)cap) >> 64);
    }
    """
    uint64_t mix "excover_cf_mix"(uint64_t h) nogil
    int64_t scale "excover_cf_scale"(uint64_t h, int64_t cap) nogil


# ---------------------------------------------------------------------------------------
# The group: an abelian group of order 1, 2 or 4 given by its addition table, its
# subsets as bit masks of its elements (element 0 the identity).

cdef struct Algebra:
    int order
    int nsub                  # subgroups
    uint8_t sub[8]            # the subgroups' masks, by index
    uint8_t subidx[16]        # a subgroup mask's index
    uint8_t add[4][4]
    uint8_t neg[4]
    uint8_t gen[16]           # the subgroup a mask generates
    uint8_t shift[16][4]      # {x + e : x in mask}
    uint8_t closed[16][16]    # mask + H, for a subgroup mask H
    uint8_t low[16][4]        # the least element of p + H
    uint8_t negm[16]          # {-x : x in mask}
    uint8_t pop[16]           # elements of a mask


cdef int _algebra(Algebra *g, table) except -1:
    """``g`` made from the addition table ``table`` (a list of rows)."""
    cdef int n = len(table), a, b, m, e, h, x, y, grown
    memset(g, 0, sizeof(Algebra))
    g.order = n
    for a in range(n):
        for b in range(n):
            g.add[a][b] = table[a][b]
    for a in range(n):
        for b in range(n):
            if g.add[a][b] == 0:
                g.neg[a] = b
    for m in range(1 << n):
        g.pop[m] = 0
        for e in range(n):
            if m >> e & 1:
                g.pop[m] += 1
        for e in range(n):
            g.shift[m][e] = 0
            for x in range(n):
                if m >> x & 1:
                    g.shift[m][e] |= 1 << g.add[x][e]
        g.negm[m] = 0
        for x in range(n):
            if m >> x & 1:
                g.negm[m] |= 1 << g.neg[x]
        # the subgroup generated: closed under addition (finite: inverses come free)
        h = m | 1
        grown = 1
        while grown:
            grown = 0
            for x in range(n):
                for y in range(n):
                    if h >> x & 1 and h >> y & 1 and not h >> g.add[x][y] & 1:
                        h |= 1 << g.add[x][y]
                        grown = 1
        g.gen[m] = h
    for m in range(16):
        g.subidx[m] = 255
    for m in range(1, 1 << n):
        if g.gen[m] == m:
            g.subidx[m] = g.nsub
            g.sub[g.nsub] = m
            g.nsub += 1
    for m in range(1 << n):
        for h in range(1 << n):
            g.closed[m][h] = 0
            for e in range(n):
                if h >> e & 1:
                    g.closed[m][h] |= g.shift[m][e]
        for e in range(n):
            g.low[m][e] = 255
            for x in range(n):
                if m >> x & 1 and g.add[e][x] < g.low[m][e]:
                    g.low[m][e] = g.add[e][x]
    return 0


cdef int _bits(int value) noexcept nogil:
    """The bits of ``value`` (0 for 0)."""
    cdef int b = 0
    while value:
        b += 1
        value >>= 1
    return b


# ---------------------------------------------------------------------------------------
# A program's ops and the layout of the keys.

cdef struct Op:
    int slot          # where the new cell goes once the op is done; -1: forgotten then
    int stab          # the new cell's stabilizer (a subgroup mask)
    int sigma         # its orbit's cells (|G| / |stabilizer|)
    int ne
    int other[MAXE]   # each edge's other end (a slot; SCRATCH: the new cell itself)
    int volt[MAXE]    # its voltage, from the new cell (or the edge's first end) to it
    int first[MAXE]   # the edge's first end: SCRATCH for the new cell, or a slot
    int nf
    int forget[MAXW]  # the slots forgotten once its edges are decided
    int64_t done      # the board's cells decided after the op (blocks: the cells left)


cdef struct Layout:
    int width, mode, size, pieces, limbs, words
    int64_t area
    int lbits, pbits, hbits, fbits, sbits, bbits


def key_bits(int width, int order, int size, int mode=0, int pieces=0):
    """The bits of the largest key of a count on ``width`` slots over a group of
    ``order`` elements with pieces of ``size`` cells (0: any size); ``mode`` 1 (blocks)
    with at most ``pieces`` pieces."""
    cdef int lbits = _bits(width), pbits = _bits(order - 1), hbits, sbits
    hbits = {1: 0, 2: 1, 4: 3}[order]
    if mode == 1:
        return (width * lbits + width * _bits(min(pieces, width) - 1)
                + min(pieces, width) * _bits(size))
    sbits = _bits(size * order) if size else 0
    return (width * (lbits + pbits) + width * (hbits + (order - 1) + sbits)
            + width * (width - 1) // 2 * order)


# ---------------------------------------------------------------------------------------
# The tables of states: records of ``words`` key words then ``limbs`` count words.

cdef struct Table:
    uint64_t *rec
    int64_t cap
    int64_t n


cdef inline uint64_t _hash(const uint64_t *key, int words) noexcept nogil:
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(words):
        h = mix((h ^ key[i]) * 0x94D049BB133111EBULL + <uint64_t>i)
    return h


cdef inline bint _empty(const uint64_t *count, int limbs) noexcept nogil:
    cdef int i
    for i in range(limbs):
        if count[i]:
            return False
    return True


cdef inline int _plus(uint64_t *to, const uint64_t *more, int limbs) noexcept nogil:
    """``to += more`` over ``limbs`` words; 1 when it carries past the top word."""
    cdef int i
    cdef uint64_t carry = 0, s
    for i in range(limbs):
        s = to[i] + carry
        carry = s < carry
        to[i] = s + more[i]
        carry += to[i] < s
    return carry != 0


cdef class _Counter:
    """The layers of one count: the states after the ops done (``old``, dense), and the
    hash table being filled from them (``new``)."""

    cdef Table old, new
    cdef int words, limbs, rec
    cdef int64_t max_bytes, peak
    cdef int overflowed

    def __cinit__(self, int words, int limbs, int64_t max_bytes):
        self.words = words
        self.limbs = limbs
        self.rec = words + limbs
        self.max_bytes = max_bytes   # the rest starts zeroed: no tables, peak or overflow

    def __dealloc__(self):
        free(self.old.rec)
        free(self.new.rec)

    cdef int _allocate(self, Table *table, int64_t cap, int64_t besides) except -1:
        """``table`` made an empty table of ``cap`` slots, ``besides`` other slots held
        meanwhile (for the bound)."""
        cdef int64_t slot_bytes = 8 * self.rec
        _bounded(self.max_bytes, cap + besides, slot_bytes, "the cell frontier count")
        table.rec = <uint64_t *>calloc(cap, slot_bytes)
        if table.rec == NULL:
            table.cap = table.n = 0
            raise MemoryError("the cell frontier count ran out of memory")
        table.cap = cap
        table.n = 0
        return 0

    cdef inline int _add(self, const uint64_t *key, const uint64_t *count) except -1:
        """Add ``count`` to the state ``key`` of the new table."""
        cdef int64_t s
        cdef uint64_t *at
        if 10 * (self.new.n + 1) > FULL_TENTHS * self.new.cap:
            self._grow()
        s = scale(_hash(key, self.words), self.new.cap)
        while True:
            at = self.new.rec + s * self.rec
            if _empty(at + self.words, self.limbs):
                memcpy(at, key, 8 * self.words)
                memcpy(at + self.words, count, 8 * self.limbs)
                self.new.n += 1
                return 0
            if same(at, key, self.words):
                if _plus(at + self.words, count, self.limbs):
                    self.overflowed = 1
                return 0
            s += 1
            if s == self.new.cap:
                s = 0

    cdef int _grow(self) except -1:
        """The new table made half as big again, its states moved over."""
        cdef Table was = self.new
        cdef int64_t s, t
        cdef uint64_t *src
        cdef uint64_t *dst
        try:
            self._allocate(&self.new, was.cap + was.cap // 2 + 1024, was.cap + self.old.cap)
        except BaseException:
            self.new = was
            raise
        for s in range(was.cap):
            src = was.rec + s * self.rec
            if _empty(src + self.words, self.limbs):
                continue
            t = scale(_hash(src, self.words), self.new.cap)
            while True:
                dst = self.new.rec + t * self.rec
                if _empty(dst + self.words, self.limbs):
                    break
                t += 1
                if t == self.new.cap:
                    t = 0
            memcpy(dst, src, 8 * self.rec)
            self.new.n += 1
        free(was.rec)
        return 0

    cdef void _pack(self) noexcept:
        """The new table, packed and shrunk, becomes the old one (the old one freed)."""
        cdef int64_t s, k = 0
        cdef uint64_t *rec
        free(self.old.rec)
        for s in range(self.new.cap):
            if not _empty(self.new.rec + s * self.rec + self.words, self.limbs):
                if k != s:
                    memcpy(self.new.rec + k * self.rec, self.new.rec + s * self.rec,
                           8 * self.rec)
                k += 1
        rec = <uint64_t *>realloc(self.new.rec, max(k, 1) * 8 * self.rec)
        self.old.rec = rec if rec != NULL else self.new.rec
        self.old.cap = self.old.n = k
        self.new.rec = NULL
        self.new.cap = self.new.n = 0


# ---------------------------------------------------------------------------------------
# Bits in and out of a key.

cdef inline void _put(uint64_t *w, int *at, uint64_t value, int bits) noexcept nogil:
    cdef int i, o
    if bits == 0:
        return
    i = at[0] >> 6
    o = at[0] & 63
    w[i] |= value << o
    if o + bits > 64:
        w[i + 1] |= value >> (64 - o)
    at[0] += bits


cdef inline uint64_t _get(const uint64_t *w, int *at, int bits) noexcept nogil:
    cdef int i, o
    cdef uint64_t value
    if bits == 0:
        return 0
    i = at[0] >> 6
    o = at[0] & 63
    value = w[i] >> o
    if o + bits > 64:
        value |= w[i + 1] << (64 - o)
    at[0] += bits
    if bits == 64:
        return value
    return value & ((<uint64_t>1 << bits) - 1)


# ---------------------------------------------------------------------------------------
# Apart states.

cdef struct St:
    uint8_t lab[MAXW]         # 0: no cell; else its component + 1
    uint8_t pot[MAXW]
    uint8_t hol[MAXC]         # holonomy (a subgroup mask); 0: the component is gone
    uint8_t forb[MAXC]
    uint16_t sig[MAXC]
    uint8_t rel[MAXC][MAXC]   # rel[a][b]: offsets o, A-sheet t apart from B-sheet t + o
    int nc


cdef int _decode(St *s, const uint64_t *key, const Layout *at, const Algebra *g) noexcept:
    cdef int i, j, b = 0, top = 0, m
    memset(s, 0, sizeof(St))
    for i in range(at.width):
        s.lab[i] = <uint8_t>_get(key, &b, at.lbits)
        s.pot[i] = <uint8_t>_get(key, &b, at.pbits)
        if s.lab[i] > top:
            top = s.lab[i]
    s.nc = top
    for i in range(top):
        s.hol[i] = g.sub[_get(key, &b, at.hbits)]
        s.forb[i] = <uint8_t>(_get(key, &b, at.fbits) << 1)
        s.sig[i] = <uint16_t>_get(key, &b, at.sbits)
    for j in range(top):
        for i in range(j):
            m = <int>_get(key, &b, g.order)
            s.rel[i][j] = m
            s.rel[j][i] = g.negm[m]
    return 0


cdef inline int _numbered(const uint8_t *lab, int width, int *order, int *inv,
                          const uint8_t *pot, int *first, const uint8_t *blk, int *border,
                          int *binv, int *nb) noexcept nogil:
    """Number the components of the slots' labels ``lab`` (0: no cell, else component
    + 1) in the order the slots meet them: component ``c`` gets ``order[c]`` (-1: on no
    slot), number ``j`` is component ``inv[j]``; returns how many there are. With
    ``pot`` (else NULL), ``first[c]`` is ``pot`` at the first slot of ``c``; with
    ``blk`` (else NULL), the blocks ``blk[c]`` are numbered as their first components
    are: ``border`` (all -1 before) and ``binv`` as ``order`` and ``inv``, ``nb[0]`` of
    them. Inlined with its NULLs, each caller's loop is the one pass it was."""
    cdef int i, c, n = 0
    for c in range(MAXC):
        order[c] = -1
    for i in range(width):
        if lab[i]:
            c = lab[i] - 1
            if order[c] < 0:
                order[c] = n
                inv[n] = c
                n += 1
                if pot != NULL:
                    first[c] = pot[i]
                if blk != NULL and border[blk[c]] < 0:
                    border[blk[c]] = nb[0]
                    binv[nb[0]] = blk[c]
                    nb[0] += 1
    return n


cdef bint _encode(const St *s, uint64_t *key, const Layout *at, const Algebra *g) noexcept:
    """The canonical key of ``s`` into ``key``; False when a key read back would not be
    ``s`` (never: the layout holds every state of its width)."""
    cdef int order[MAXC]
    cdef int inv[MAXC]
    cdef int first[MAXC]
    cdef int i, j, c, d, n, b = 0, m, hs
    memset(key, 0, 8 * at.words)
    n = _numbered(s.lab, at.width, order, inv, s.pot, first, NULL, NULL, NULL, NULL)
    for i in range(at.width):
        if s.lab[i]:
            c = s.lab[i] - 1
            _put(key, &b, order[c] + 1, at.lbits)
            _put(key, &b, g.low[s.hol[c]][g.add[s.pot[i]][g.neg[first[c]]]], at.pbits)
        else:
            b += at.lbits + at.pbits
    for j in range(n):
        c = inv[j]
        _put(key, &b, g.subidx[s.hol[c]], at.hbits)
        _put(key, &b, g.closed[s.forb[c]][s.hol[c]] >> 1, at.fbits)
        _put(key, &b, s.sig[c], at.sbits)
    for j in range(n):
        d = inv[j]
        for i in range(j):
            c = inv[i]
            m = s.rel[c][d]
            if m:
                hs = g.gen[s.hol[c] | s.hol[d]]
                if at.size and (s.sig[c] + s.sig[d]) * g.pop[hs] > at.size * g.order:
                    m = 0   # they can never be one piece: too big
                else:
                    m = g.closed[g.shift[g.shift[m][g.neg[first[c]]]][first[d]]][hs]
            _put(key, &b, m, g.order)
    return b <= 64 * at.words


cdef inline int _lift(const St *s, int c, const Algebra *g) noexcept nogil:
    """The cells of each piece the component ``c`` lifts to."""
    return s.sig[c] * g.pop[s.hol[c]] // g.order


cdef bint _edge(St *s, int a, int b, int v, int joined, const Layout *at,
                const Algebra *g) noexcept:
    """Decide the edge from slot ``a`` to slot ``b`` of voltage ``v``: in a piece
    (``joined``) or between two; False when that is not a composition."""
    cdef int A = s.lab[a] - 1, B = s.lab[b] - 1, X, i, m, hn, f
    cdef int d = g.add[g.add[s.pot[a]][v]][g.neg[s.pot[b]]]
    if not joined:
        if A == B:
            if s.hol[A] >> d & 1:
                return False
            s.forb[A] |= 1 << d
        else:
            s.rel[A][B] |= 1 << d
            s.rel[B][A] = g.negm[s.rel[A][B]]
        return True
    if A == B:
        hn = g.gen[s.hol[A] | (1 << d)]
        if s.forb[A] & hn:
            return False
        s.hol[A] = hn
        return not at.size or _lift(s, A, g) <= at.size
    hn = g.gen[s.hol[A] | s.hol[B]]
    f = s.forb[A] | s.forb[B] | g.shift[s.rel[A][B]][g.neg[d]]
    if f & hn:
        return False
    s.hol[A] = hn
    s.forb[A] = f
    s.sig[A] += s.sig[B]
    if at.size and _lift(s, A, g) > at.size:
        return False
    for i in range(MAXW):
        if s.lab[i] == B + 1:
            s.lab[i] = A + 1
            s.pot[i] = g.add[s.pot[i]][d]
    for X in range(s.nc):
        if X == A or X == B or not s.hol[X]:
            continue
        m = s.rel[A][X] | g.shift[s.rel[B][X]][d]
        s.rel[A][X] = m
        s.rel[X][A] = g.negm[m]
        s.rel[B][X] = s.rel[X][B] = 0
    s.rel[A][B] = s.rel[B][A] = 0
    s.hol[B] = 0
    return True


cdef bint _forget(St *s, int slot, const Layout *at, const Algebra *g) noexcept:
    """The cell in ``slot`` leaves the frontier; False when its component, done, is a
    piece of the wrong size."""
    cdef int c = s.lab[slot] - 1, i, X
    s.lab[slot] = 0
    s.pot[slot] = 0
    for i in range(MAXW):
        if s.lab[i] == c + 1:
            return True
    if at.size and _lift(s, c, g) != at.size:
        return False
    for X in range(s.nc):
        s.rel[c][X] = s.rel[X][c] = 0
    s.hol[c] = 0
    return True


cdef int _apart(_Counter counter, const Op *op, const Layout *at, const Algebra *g,
                const uint64_t *key, const uint64_t *count) except -1:
    """Every way the op goes on from the state ``key``, added to the new table."""
    cdef St stack[MAXE + 2]     # a state a depth, and the last to finish one
    cdef uint64_t out[MAXK]
    cdef int depth = 0, c, i, ok
    cdef int choice[MAXE + 1]
    _decode(&stack[0], key, at, g)
    if True:   # every op brings its cell, kept in the scratch slot until its end
        c = stack[0].nc
        stack[0].nc += 1
        stack[0].lab[SCRATCH] = c + 1
        stack[0].pot[SCRATCH] = 0
        stack[0].hol[c] = op.stab
        stack[0].forb[c] = 0
        stack[0].sig[c] = op.sigma
        for i in range(MAXC):
            stack[0].rel[c][i] = stack[0].rel[i][c] = 0
    # depth-first over the edges' choices, at most MAXE deep, without recursion
    choice[0] = -1
    while depth >= 0:
        choice[depth] += 1
        if choice[depth] > 1:
            depth -= 1
            continue
        if depth == op.ne:
            if choice[depth] == 1:
                depth -= 1
                continue
            # every edge decided: forget, move the new cell to its slot, keep
            memcpy(&stack[MAXE + 1], &stack[depth], sizeof(St))
            ok = True
            for i in range(op.nf):
                if not _forget(&stack[MAXE + 1], op.forget[i], at, g):
                    ok = False
                    break
            if ok and op.slot < 0:
                ok = _forget(&stack[MAXE + 1], SCRATCH, at, g)
            if ok:
                if op.slot >= 0:
                    stack[MAXE + 1].lab[op.slot] = stack[MAXE + 1].lab[SCRATCH]
                    stack[MAXE + 1].pot[op.slot] = stack[MAXE + 1].pot[SCRATCH]
                    stack[MAXE + 1].lab[SCRATCH] = 0
                    stack[MAXE + 1].pot[SCRATCH] = 0
                _encode(&stack[MAXE + 1], out, at, g)
                counter._add(out, count)
            continue
        memcpy(&stack[depth + 1], &stack[depth], sizeof(St))
        if _edge(&stack[depth + 1], op.first[depth], op.other[depth], op.volt[depth],
                 choice[depth], at, g):
            depth += 1
            choice[depth] = -1
    return 0


cdef bint _valid_apart(const uint64_t *key, const Layout *at, const Algebra *g) noexcept:
    """Whether ``key`` is one a count of this layout makes (a key read from a file must
    be: the steps index arrays by its fields)."""
    cdef St s
    cdef uint64_t again[MAXK]
    cdef int i
    _decode(&s, key, at, g)
    for i in range(s.nc):
        if s.hol[i] == 0:
            return False
    if not _encode(&s, again, at, g):
        return False
    return same(again, key, at.words)


# ---------------------------------------------------------------------------------------
# Block states (the plain board, few large pieces).

cdef struct Bl:
    uint8_t lab[MAXW]      # 0: no cell; else its component + 1
    uint8_t blk[MAXC]      # each component's block
    uint16_t bsz[MAXC]     # each block's cells (0: no such block)
    int nc, nb


cdef int _bdecode(Bl *s, const uint64_t *key, const Layout *at) noexcept:
    cdef int i, b = 0, top = 0, nb = 0
    memset(s, 0, sizeof(Bl))
    for i in range(at.width):
        s.lab[i] = <uint8_t>_get(key, &b, at.lbits)
        if s.lab[i] > top:
            top = s.lab[i]
    s.nc = top
    for i in range(top):
        s.blk[i] = <uint8_t>_get(key, &b, at.bbits)
        if s.blk[i] + 1 > nb:
            nb = s.blk[i] + 1
    s.nb = nb
    for i in range(nb):
        s.bsz[i] = <uint16_t>_get(key, &b, at.sbits)
    return 0


cdef int _bencode(const Bl *s, uint64_t *key, const Layout *at) noexcept:
    cdef int corder[MAXC]
    cdef int border[MAXC]
    cdef int binv[MAXC]
    cdef int cinv[MAXC]
    cdef int i, n, nb = 0, b = 0
    memset(key, 0, 8 * at.words)
    for i in range(MAXC):
        border[i] = -1
    n = _numbered(s.lab, at.width, corder, cinv, NULL, NULL, s.blk, border, binv, &nb)
    for i in range(at.width):
        _put(key, &b, corder[s.lab[i] - 1] + 1 if s.lab[i] else 0, at.lbits)
    for i in range(n):
        _put(key, &b, border[s.blk[cinv[i]]], at.bbits)
    for i in range(nb):
        _put(key, &b, s.bsz[binv[i]], at.sbits)
    return 0


cdef bint _bforget(Bl *s, int slot, const Layout *at) noexcept:
    """The cell in ``slot`` leaves the frontier; False when that leaves a piece
    that can no longer be connected, or done at the wrong size."""
    cdef int c = s.lab[slot] - 1, i, k
    s.lab[slot] = 0
    for i in range(MAXW):
        if s.lab[i] == c + 1:
            return True
    # the component is done: its block must have no other, and the size
    for i in range(MAXW):
        if s.lab[i] and s.blk[s.lab[i] - 1] == s.blk[c]:
            return False
    if s.bsz[s.blk[c]] != at.size:
        return False
    s.bsz[s.blk[c]] = 0
    return True


cdef int _blocks(_Counter counter, const Op *op, const Layout *at, const uint64_t *key,
                 const uint64_t *count) except -1:
    """Every way the op goes on from the block state ``key`` (each op a new cell whose
    edges go to earlier cells, voltage 0), added to the new table."""
    cdef Bl base, s
    cdef uint64_t out[MAXK]
    cdef int b, i, k, c, x, live, ok, nb
    cdef int64_t inblocks = 0, need, left
    _bdecode(&base, key, at)
    nb = base.nb
    for b in range(nb):
        inblocks += base.bsz[b]
    # the pieces finished: the cells decided before the op, less those in blocks
    live = nb + <int>((op.done - 1 - inblocks) // at.size)
    left = at.area - op.done
    for b in range(nb + 1):
        if b == nb and live + 1 > at.pieces:
            continue
        memcpy(&s, &base, sizeof(Bl))
        if b == nb:
            s.nb += 1
            s.bsz[b] = 0
        if s.bsz[b] + 1 > at.size:
            continue
        s.bsz[b] += 1
        c = s.nc
        s.nc += 1
        s.blk[c] = b
        s.lab[SCRATCH] = c + 1
        for i in range(op.ne):
            x = s.lab[op.other[i]] - 1
            if s.blk[x] == b and x != c:
                for k in range(MAXW):
                    if s.lab[k] == x + 1:
                        s.lab[k] = c + 1
        ok = True
        for i in range(op.nf):
            if not _bforget(&s, op.forget[i], at):
                ok = False
                break
        if ok and op.slot < 0:
            ok = _bforget(&s, SCRATCH, at)
        if not ok:
            continue
        if op.slot >= 0:
            s.lab[op.slot] = s.lab[SCRATCH]
            s.lab[SCRATCH] = 0
        # the cells left must fill the blocks on the frontier
        need = 0
        for i in range(s.nb):
            if s.bsz[i]:
                need += at.size - s.bsz[i]
        if need > left:
            continue
        _bencode(&s, out, at)
        counter._add(out, count)
    return 0


cdef bint _valid_blocks(const uint64_t *key, const Layout *at) noexcept:
    cdef Bl s
    cdef uint64_t again[MAXK]
    cdef int i
    _bdecode(&s, key, at)
    for i in range(s.nb):
        if not 1 <= s.bsz[i] <= at.size:
            return False
    _bencode(&s, again, at)
    return same(again, key, at.words)


# ---------------------------------------------------------------------------------------
# Checkpoints: MAGIC, the header's words, then the records (key words, count words), all
# in the machine's byte order.

#: The first bytes of a checkpoint file, and the header's 64-bit words after them: the
#: program's digest, key words, count words, ops done, states, checksum.
MAGIC = b"excover-cellfr01"
HEADER_WORDS = 6
cdef const char *MAGIC_BYTES = b"excover-cellfr01"
cdef enum:
    WORDS = 6
    CHUNK = 1 << 14      # records written or read at a time

include "_checkpoints.pxi"


cdef inline uint64_t _record_sum(const uint64_t *rec, int n) noexcept nogil:
    """A record's share of the checksum (shares are added, so order does not matter)."""
    cdef uint64_t h = 0
    cdef int i
    for i in range(n):
        h = _mixed(h, rec[i])
    return h


def checksum(words, records):
    """The checksum of a checkpoint whose header starts with ``words`` (digest, key
    words, count words, ops done, states) and whose records are ``records`` (each a
    sequence of its words): what a file made by hand (a test's) must hold."""
    cdef uint64_t header[WORDS]
    cdef uint64_t total = 0
    cdef uint64_t rec[MAXK + MAXL]
    cdef int k, i
    for k in range(WORDS - 1):
        header[k] = words[k]
    for record in records:
        for i, word in enumerate(record):
            rec[i] = word
        total += _record_sum(rec, len(record))
    return _sealed(total, header)


cdef int _save(_Counter counter, out, uint64_t digest, int64_t done) except -1:
    cdef int descriptor = out.fileno()
    cdef uint64_t header[WORDS]
    cdef uint64_t total = 0
    cdef int64_t s, left, k
    for s in range(counter.old.n):
        total += _record_sum(counter.old.rec + s * counter.rec, counter.rec)
    header[0], header[1], header[2] = digest, counter.words, counter.limbs
    header[3], header[4] = done, counter.old.n
    header[5] = _sealed(total, header)
    _write(descriptor, MAGIC_BYTES, 16)
    _write(descriptor, header, WORDS * 8)
    s = 0
    while s < counter.old.n:
        k = min(<int64_t>CHUNK, counter.old.n - s)
        _write(descriptor, counter.old.rec + s * counter.rec, k * 8 * counter.rec)
        s += k
    return 0


cdef int _load(_Counter counter, bytes path, const uint64_t *header, const Layout *at,
               const Algebra *g) except -1:
    """The records of the checkpoint ``path`` (its header read and checked by the
    caller) into the new table; a short file, a key no count makes or a wrong checksum
    is a DamagedCheckpoint."""
    cdef FILE *source
    cdef int64_t left = header[4], got, k
    cdef uint64_t total = 0
    cdef uint64_t *chunk = <uint64_t *>malloc(CHUNK * 8 * counter.rec)
    cdef uint64_t *rec
    if chunk == NULL:
        raise MemoryError("the cell frontier count's checkpoint")
    source = _records(path, chunk, &left)
    try:
        while left > 0:
            got = fread(chunk, 8 * counter.rec, min(left, <int64_t>CHUNK), source)
            if got <= 0:
                break
            for k in range(got):
                rec = chunk + k * counter.rec
                if _empty(rec + counter.words, counter.limbs) or not (
                        _valid_blocks(rec, at) if at.mode else _valid_apart(rec, at, g)):
                    left = -1
                    break
                total += _record_sum(rec, counter.rec)
                counter._add(rec, rec + counter.words)
            if left < 0:
                break
            left -= got
            PyErr_CheckSignals()
    finally:
        fclose(source)
        free(chunk)
    return _loaded(counter, path, left, total, header)


cdef int _overflowed() except -1:
    from excover.errors import ResourceLimitError

    raise ResourceLimitError(
        "the cell frontier count passed the words its counts were given (limbs)")


# ---------------------------------------------------------------------------------------
# The count.

def count_program(ops, int width, table, int size=0, int mode=0, int pieces=0,
                  int64_t area=0, int limbs=1, int64_t max_bytes=0, tick=None,
                  uint64_t digest=0, resume=None, save=None, double every=0.0):
    """Count the ways through the program ``ops`` (each op ``(slot, stabilizer,
    sigma, edges, forget, done)``: the new cell's slot (-1: forgotten at the op's end),
    its stabilizer as a
    mask of the group's elements, its orbit's cells, its edges as ``(first, other,
    voltage)`` (a slot, or -1 for the new cell), the slots forgotten after them, the
    board's cells decided after the op) on ``width`` slots, over the group of addition
    table ``table``; pieces of ``size`` cells (0: any); ``mode`` 0 (apart) or 1 (blocks:
    the plain board, at most ``pieces`` pieces, ``area`` cells). Counts of ``limbs``
    words. Returns ``(count, peak)``, the most states a layer held.

    ``max_bytes`` (0: none) bounds the tables (MemoryBoundError); ``tick(ops_done, ops,
    states)`` after each op. A checkpoint: ``resume`` (an
    :class:`~excover.tiling.resume.Resume`: a file and its header's words) holds the
    states after the ops it has done of the program of ``digest``; ``save()`` (a
    ``with`` block giving a binary stream) is written with the states after an op every
    ``every`` seconds, when an exception stops the count, and at its end (never twice
    for one layer)."""
    cdef Algebra g
    cdef Layout at
    cdef Op *prog = NULL
    cdef _Counter counter
    cdef int nops = len(ops), i, j, words, bits
    cdef int64_t s, seen = 0, start = 0, finished, on_disk = -1
    cdef uint64_t header[WORDS]
    cdef uint64_t zero[MAXK]
    cdef uint64_t one[MAXL]
    cdef uint64_t *rec
    cdef double last
    if len(table) not in (1, 2, 4):
        raise ValueError("a group of 1, 2 or 4 elements")
    if not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"a width of 1 to {MAX_WIDTH} slots")
    if not 1 <= limbs <= MAX_LIMBS:
        raise ValueError(f"counts of 1 to {MAX_LIMBS} words")
    if not 0 <= size <= MAX_SIZE or (mode == 1 and (size < 1 or pieces < 1 or len(table) != 1)):
        raise ValueError("a size of 0 to MAX_SIZE; blocks need a size, pieces, no group")
    _algebra(&g, table)
    bits = key_bits(width, g.order, size, mode, pieces)
    words = (bits + 63) // 64
    if words > MAX_KEY_WORDS:
        raise ValueError(f"keys of {bits} bits: at most {64 * MAX_KEY_WORDS}")
    at.width = width
    at.mode = mode
    at.size = size
    at.pieces = pieces
    at.area = area
    at.limbs = limbs
    at.words = max(words, 1)
    at.lbits = _bits(width)
    at.pbits = _bits(g.order - 1)
    at.hbits = {1: 0, 2: 1, 4: 3}[g.order]
    at.fbits = g.order - 1
    at.sbits = (_bits(size) if mode == 1 else _bits(size * g.order)) if size else 0
    at.bbits = _bits(min(max(pieces, 1), width) - 1)
    prog = <Op *>calloc(max(nops, 1), sizeof(Op))
    if prog == NULL:
        raise MemoryError("the cell frontier count's program")
    try:
        for i, (slot, stab, sigma, edges, forget, done) in enumerate(ops):
            if not -1 <= slot < width or len(edges) > MAXE or len(forget) > width:
                raise ValueError(f"op {i}: a slot past the width or too many edges")
            prog[i].slot = slot
            prog[i].stab = stab
            prog[i].sigma = sigma
            prog[i].ne = len(edges)
            for j, (first, other, volt) in enumerate(edges):
                prog[i].first[j] = SCRATCH if first < 0 else first
                prog[i].other[j] = SCRATCH if other < 0 else other
                prog[i].volt[j] = volt
            prog[i].nf = len(forget)
            for j, f in enumerate(forget):
                prog[i].forget[j] = f
            prog[i].done = done
        counter = _Counter(at.words, limbs, max_bytes)
        memset(zero, 0, sizeof(zero))
        memset(one, 0, sizeof(one))
        one[0] = 1
        if resume is not None:
            header[0], header[1], header[2] = digest, at.words, limbs
            start = on_disk = _resumed(counter, resume, header)
            _load(counter, resume.path, header, &at, &g)
        else:
            counter._allocate(&counter.new, 1024, 0)
            counter._add(zero, one)
            counter._pack()
            _renew(counter)
        finished = start
        last = time.monotonic()
        try:
            for i in range(start, nops):
                for s in range(counter.old.n):
                    rec = counter.old.rec + s * counter.rec
                    if mode == 1:
                        _blocks(counter, &prog[i], &at, rec, rec + at.words)
                    else:
                        _apart(counter, &prog[i], &at, &g, rec, rec + at.words)
                    seen += 1
                    if not seen & 0xFFFF:
                        PyErr_CheckSignals()
                counter._pack()
                finished = i + 1
                _turned(counter, tick, finished, nops)
                if save is not None and time.monotonic() - last >= every and finished < nops:
                    with save() as out:
                        _save(counter, out, digest, finished)
                    on_disk = finished
                    last = time.monotonic()
        except BaseException:
            if save is not None and not counter.overflowed and finished != on_disk:
                with save() as out:
                    _save(counter, out, digest, finished)
            raise
        if save is not None and finished != on_disk:
            with save() as out:
                _save(counter, out, digest, finished)
        total = 0
        for s in range(counter.old.n):
            rec = counter.old.rec + s * counter.rec
            if same(rec, zero, at.words):
                for j in range(limbs):
                    total += int(rec[at.words + j]) << (64 * j)
        return total, counter.peak
    finally:
        free(prog)
