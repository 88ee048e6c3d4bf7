# cython: language_level=3
"""The disassembler's hot loop: the breadth-first search of one part, compiled.

A *configuration* gives each piece of a part its translation from the assembled
position. In a configuration, the gap of ``i`` towards ``j`` on an axis is how far piece
``i`` can slide along ``+axis`` before it touches ``j`` (``FREE`` when it never does):
the shortest run of empty voxels from a voxel of ``i`` to the next voxel of ``j`` on one
line along the axis. These pairwise values are Bill Cutler's tables ("Computer Analysis
of All 6 Piece Burrs"), as BurrTools computes them.

A *move* slides one set of pieces any distance along one direction of the grid; it
counts as one move whatever the distance. The cube grid has three axes (``+x, -x, +y,
-y, +z, -z``, numbered 0 to 5); the triangular-prism grid (BurrTools' grid 1, voxels
``(x, y, z)`` with a triangle pointing up where ``x + y`` is even) has four, in
BurrTools' order: ``z``, then the three directions of the triangles' edges, in voxel
coordinates ``(2, 0, 0)``, ``(1, 1, 0)`` and ``(-1, 1, 0)`` (one unit: the width of a
triangle), numbered 0 to 7 (``2 * axis``, plus 1 for the negative direction). On the
prism grid one unit step of a triangle along an edge direction sweeps the triangle
between its start and its end (the one sharing an edge with both), which must be empty
too; the gap towards another piece is then the number of free unit steps, found by
walking them.
Moving set ``S`` by ``s`` is legal when no piece of ``S`` meets a piece outside it on the
way: every such gap is at least ``s``. The smallest legal set holding piece ``p`` (its
*closure*) grows with ``s``. BurrTools' move generator takes the closures of at most
half the pieces, for each direction, piece and distance, and every union of closures of
one direction and distance (its "merges"); together they reach every configuration one
move away, in the order BurrTools finds them, kept here so that the first separation
found is BurrTools' own. A set that can slide infinitely far is *free*: moving it out
separates the part in two (single pieces are looked for first, then sets of at most half
the pieces, as BurrTools does). Each free set of a configuration is handed out once, with
the first direction it is free along (another direction leaves the same two parts), and
with it the two parts' configurations, so that the caller builds the moves of a path
only for a separation it keeps.

The search over flat integer arrays:

- A configuration is ``3n`` 16-bit translations (voxel coordinates) (``n`` pieces, at most 64, so that a
  set of pieces is one 64-bit mask), kept with the first piece at the origin.
- Cutler's gaps are looked up in one table per ordered pair of shapes (a piece's voxels
  moved to start at 0: pieces of one shape in one orientation share it, within an
  assembly and between the assemblies of a problem, as in BurrTools' movement cache),
  over the relative offsets at which the two bounding boxes come within a voxel of each
  other (two voxels more on the prism grid), filled in as offsets are met. Away from
  that window the answer needs no table: an offset whose line along the direction
  misses the window leaves the pieces apart for ever (free), one ahead of it along the
  direction adds the steps to the window to the value where the line enters it, one
  behind it puts the other piece behind (free). A window's cells are marked computed in
  a bitmap, so that a table costs only the cells asked for. The search keeps the gaps of
  the configuration it expands last: the next one's are looked up again only for the
  pairs of pieces that moved relative to each other in between (moves change few).
- Known configurations live in three open-addressing hash tables, one per level of the
  search (the last, the current, the next), each over a pool of configurations in the
  order found, which is also the order they are expanded in. Every configuration found
  keeps a record (the one it came from, and the move) so that a path can be read back;
  the state cap bounds them.
- Moves come in BurrTools' order: for each direction, piece and distance the closure of
  the piece (at most half the pieces), then its unions with the sets found before for
  the same direction and distance; free sets are looked for first, single pieces then
  sets of at most half the pieces (those only once the single pieces are handed out).
  For each direction, the pieces each piece meets within each distance are kept as
  bitmasks (built once from the gaps), so that a closure is a few mask operations.
- Onwards (the minimum-total mode): a configuration in which a set is free is moved
  further too, every move but those of a set free along the move's direction (such a
  set only comes out).
"""

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int16_t, int32_t, int64_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from excover._portable cimport ctz64, popcount64

from excover.errors import MemoryBoundError, UsageError


DEF FREE = 1 << 29
DEF MAX_AXES = 4
DEF MAX_PENDING = 1024
DEF MAX_SAME = 1 << 16  # the voxel tuples a Geometry knows by identity, at most
DEF STEPS = 64          # the distances the move generator keeps tables of
DEF CHECK_EVERY = 1024  # ticks between two looks at the clock and for signals
DEF SEEN_SCAN = 16      # the sets of a direction compared one by one, at most
DEF SEEN_ROOM = 256     # the sets of a direction a search holds at first


# ---------------------------------------------------------------------------------------
# Limits. A search can spend a long time within one step: a configuration whose moves
# are every union of a few dozen sets that slide alike (loose cubes in a box) has
# millions of neighbours. So the loops of the search *tick* (:meth:`Meter.tick`: one
# set of pieces considered, one configuration expanded or found, one separation tried),
# and every CHECK_EVERY ticks the meter runs the signal handlers (Ctrl-C raises there,
# between two steps of a loop, never inside a table's update) and reads the clock
# against the deadline; the configurations are counted against the state cap as they
# are found. The tables that grow with the search (the fronts, the records, the sets of
# a direction, the separation tree, the pair tables) count their bytes in ``_held``,
# and a table that would grow past ``_bound`` raises MemoryBoundError instead.

#: The bytes the growing tables of this module hold, in the whole process.
cdef int64_t _held = 0
#: The most they may hold (0: no bound), set by the last run started
#: (:meth:`Meter.start`): a process-wide bound, as memory is the process's.
cdef int64_t _bound = 0


def held() -> int:
    """The bytes the disassembler's growing tables hold in this process (tests)."""
    return _held


cdef double _monotonic() noexcept nogil:
    """The clock of ``time.monotonic()``."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int _afford(size_t grown) except -1:
    """Refuse, with MemoryBoundError, ``grown`` more bytes of tables past the bound."""
    if _bound > 0 and _held + <int64_t>grown > _bound:
        raise MemoryBoundError(_bound, "the disassembler's tables")
    return 0


cdef void *_resized(void *table, size_t before, size_t after, bint zeroed) except NULL:
    """``table`` (``before`` bytes, NULL for none) made ``after`` bytes, its content
    kept (``zeroed``: a new table, every byte 0, the old one freed), the bytes counted
    in ``_held``; MemoryBoundError past the bound, MemoryError when the system refuses."""
    global _held
    cdef void *made
    if after > before:
        _afford(after - before)
    if zeroed:
        made = calloc(after, 1)
        if made == NULL:
            raise MemoryError()
        free(table)
    else:
        made = realloc(table, after)
        if made == NULL:
            raise MemoryError()
    _held += <int64_t>after - <int64_t>before
    return made


cdef void _release(void *table, size_t size) noexcept:
    """Free a table of ``size`` bytes made by :func:`_resized`."""
    global _held
    if table != NULL:
        free(table)
        _held -= <int64_t>size


@cython.final
cdef class Meter:
    """The limits of one run as the compiled search checks them: a budget's deadline
    (a ``time.monotonic()`` value), its cap on the configurations explored, and the
    bound on the bytes of tables. The configurations are counted here as they come
    (:meth:`count`); the budget (``budget.spend(k)``) is told of them now and then and
    whenever a limit is passed, so that it raises the stop (OutOfBudget) with its own
    words."""

    cdef object budget
    cdef double deadline     # INFINITY: none
    cdef int64_t cap         # the configurations the budget allows in all; -1: none
    cdef int64_t states      # counted so far (the budget's own when the run began, plus)
    cdef int64_t told        # those the budget has been told of
    cdef int ticks

    cdef int start(self, budget) except -1:
        """Meter a run of ``budget`` (its ``deadline``, ``max_states``, ``states`` and
        ``max_memory``, each None or a number)."""
        global _bound
        self.budget = budget
        deadline = budget.deadline
        self.deadline = float("inf") if deadline is None else deadline
        cap = budget.max_states
        self.cap = -1 if cap is None else cap
        self.states = self.told = budget.states
        self.ticks = 0
        bound = getattr(budget, "max_memory", None)
        _bound = 0 if bound is None else bound
        return 0

    cdef inline int count(self, int64_t found) except -1:
        """Count ``found`` more configurations; the budget raises past its cap."""
        self.states += found
        if self.cap >= 0 and self.states > self.cap:
            self.tell()
        return 0

    cdef inline int tick(self) except -1:
        """One more step of a loop: every CHECK_EVERY, :meth:`check`."""
        self.ticks += 1
        if self.ticks >= CHECK_EVERY:
            self.check()
        return 0

    cdef int check(self) except -1:
        """Run the signal handlers (their exception, KeyboardInterrupt for Ctrl-C, goes
        through) and look at the clock: past the deadline the budget raises."""
        self.ticks = 0
        PyErr_CheckSignals()
        if _monotonic() >= self.deadline or self.states - self.told >= 4096:
            self.tell()
        return 0

    cdef int tell(self) except -1:
        """Tell the budget of the configurations counted since it was last told (it
        raises past a limit)."""
        cdef int64_t found = self.states - self.told
        self.told = self.states
        self.budget.spend(found)
        return 0

#: The axes of each grid (BurrTools' order), as voxel vectors; a direction is
#: ``2 * axis`` (along the vector) or ``2 * axis + 1`` (against it).
AXES = {
    0: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    1: ((0, 0, 1), (2, 0, 0), (1, 1, 0), (-1, 1, 0)),
}

# On the prism grid, the cells a triangle's unit step along an axis passes through (its
# end, and the triangle sharing an edge with both ends), relative to the start, for a
# triangle pointing up ([0]) and down ([1]); three cells a list, unused ones repeated.
cdef int[4][2][2][3] _PRISM_SWEEP = [
    [[[0, 0, 1], [0, 0, 1]], [[0, 0, 1], [0, 0, 1]]],
    [[[1, 0, 0], [2, 0, 0]], [[1, 0, 0], [2, 0, 0]]],
    [[[1, 0, 0], [1, 1, 0]], [[0, 1, 0], [1, 1, 0]]],
    [[[-1, 0, 0], [-1, 1, 0]], [[0, 1, 0], [-1, 1, 0]]],
]


cdef inline int _floordiv(int a, int b) noexcept nogil:
    """``a // b`` rounded down, for ``b > 0``."""
    return a // b if a >= 0 else -((-a + b - 1) // b)


cdef inline uint64_t _closure_of(const uint64_t *meets, int piece, int cap) noexcept nogil:
    """The pieces reached from ``piece`` through the rows ``meets`` (``meets[p]``: the
    pieces ``p`` meets), as a mask; 0 once they are more than ``cap``. Each piece of the
    set is taken from ``todo`` once: the set is too large once more than ``cap`` have
    been (counting them so spares a branch on each new piece, a branch mispredicted
    often, since how many a piece brings is data)."""
    cdef uint64_t mask = (<uint64_t>1) << piece
    cdef uint64_t todo = mask, new
    cdef int taken = 0
    while todo:
        taken += 1
        if taken > cap:
            return 0
        new = meets[ctz64(todo)] & ~mask
        todo &= todo - 1
        mask |= new
        todo |= new
    return mask


cdef struct Front:
    int width           # values a configuration
    int16_t *pool       # width values a configuration, in the order found
    int64_t *node       # the value kept with each (NULL for a search's front: the
                        # record of its configuration k is base + k, records and
                        # configurations being added in the same order)
    int64_t base        # the record of its first configuration (a search's front)
    Py_ssize_t count
    Py_ssize_t capacity # configurations the pool (and the values) hold
    Py_ssize_t room     # values the pool holds
    int32_t *slots      # index + 1, 0 empty
    Py_ssize_t size     # a power of two
    bint valued         # whether a value is kept with each configuration


cdef inline uint64_t _hash(const int16_t *state, int width) noexcept nogil:
    """A configuration's hash, four values (one 64-bit word) at a time: one multiply a
    word rather than a value (the multiplies are a chain, each waiting for the last),
    then a final mix that brings the high bits down to the low ones the tables use."""
    cdef uint64_t h = 1469598103934665603ULL, word
    cdef int k = 0
    while k + 4 <= width:
        memcpy(&word, state + k, 8)
        h = (h ^ word) * 0x9E3779B97F4A7C15ULL
        k += 4
    while k < width:
        h = (h ^ <uint64_t>(<uint16_t>state[k])) * 1099511628211ULL
        k += 1
    h ^= h >> 32
    h *= 0xD6E8FEB86659FD93ULL
    return h ^ (h >> 29)


cdef int _front_init(Front *f, int width, bint valued) except -1:
    """A new empty front of configurations of ``width`` values (``valued``: a value
    kept with each); its tables count in ``_held``."""
    f.width = width
    f.valued = valued
    f.capacity = 64
    f.count = 0
    f.base = 0
    f.room = f.capacity * width
    f.size = 128
    f.pool = NULL
    f.node = NULL
    f.slots = NULL
    _afford((f.room * sizeof(int16_t) + f.capacity * sizeof(int64_t) * valued
             + f.size * sizeof(int32_t)))
    f.pool = <int16_t *>_resized(NULL, 0, f.room * sizeof(int16_t), False)
    if valued:
        f.node = <int64_t *>_resized(NULL, 0, f.capacity * sizeof(int64_t), False)
    f.slots = <int32_t *>_resized(NULL, 0, f.size * sizeof(int32_t), True)
    return 0


cdef void _front_free(Front *f) noexcept:
    _release(f.pool, f.room * sizeof(int16_t))
    if f.node != NULL:
        _release(f.node, f.capacity * sizeof(int64_t))
    _release(f.slots, f.size * sizeof(int32_t))
    f.pool = NULL
    f.node = NULL
    f.slots = NULL
    f.room = f.capacity = f.size = 0


cdef void _front_clear(Front *f) noexcept:
    f.count = 0
    memset(f.slots, 0, f.size * sizeof(int32_t))


cdef int _front_reset(Front *f, int width) except -1:
    """Empty the front for configurations of ``width`` values, keeping its buffers
    (one grown large, or freed, starts again small)."""
    cdef Py_ssize_t room, capacity
    if f.size > 4096 or f.pool == NULL:
        _front_free(f)
        return _front_init(f, width, f.valued)
    _front_clear(f)
    if width != f.width:
        f.width = width
        if f.room < 64 * width:
            room = 64 * width
            f.pool = <int16_t *>_resized(f.pool, f.room * sizeof(int16_t),
                                         room * sizeof(int16_t), False)
            f.room = room
        capacity = f.room // width
        if f.valued:
            f.node = <int64_t *>_resized(f.node, f.capacity * sizeof(int64_t),
                                         capacity * sizeof(int64_t), False)
        f.capacity = capacity
    return 0


cdef inline Py_ssize_t _front_find(Front *f, const int16_t *state, int width) noexcept nogil:
    return _front_find_hashed(f, state, width, _hash(state, width))


cdef Py_ssize_t _front_find_hashed(Front *f, const int16_t *state, int width,
                                   uint64_t hashed) noexcept nogil:
    """The index of ``state`` in the front (its hash ``hashed``: a search looks one
    configuration up in three fronts), -1 when it is not there."""
    cdef uint64_t mask = f.size - 1
    cdef uint64_t at = hashed & mask
    cdef int32_t slot
    while True:
        slot = f.slots[at]
        if slot == 0:
            return -1
        if memcmp(f.pool + (slot - 1) * width, state, width * sizeof(int16_t)) == 0:
            return slot - 1
        at = (at + 1) & mask


cdef inline int _front_add(Front *f, const int16_t *state, int width,
                           int64_t node) except -1:
    return _front_add_hashed(f, state, width, node, _hash(state, width))


cdef int _front_add_hashed(Front *f, const int16_t *state, int width, int64_t node,
                           uint64_t hashed) except -1:
    """Add ``state`` (its hash ``hashed``) to the front, with its value ``node`` (in a
    search's front, its record: the first one's, the others following it)."""
    cdef Py_ssize_t k, capacity, size
    cdef uint64_t mask, at
    cdef int32_t *slots
    if f.count == f.capacity:
        capacity = 2 * f.capacity
        f.pool = <int16_t *>_resized(f.pool, f.room * sizeof(int16_t),
                                     capacity * width * sizeof(int16_t), False)
        f.room = capacity * width
        if f.valued:
            f.node = <int64_t *>_resized(f.node, f.capacity * sizeof(int64_t),
                                         capacity * sizeof(int64_t), False)
        f.capacity = capacity
    if 2 * (f.count + 1) > f.size:
        size = 2 * f.size
        f.slots = <int32_t *>_resized(f.slots, f.size * sizeof(int32_t),
                                      size * sizeof(int32_t), True)
        f.size = size
        mask = f.size - 1
        for k in range(f.count):
            at = _hash(f.pool + k * width, width) & mask
            while f.slots[at]:
                at = (at + 1) & mask
            f.slots[at] = <int32_t>(k + 1)
    memcpy(f.pool + f.count * width, state, width * sizeof(int16_t))
    if f.valued:
        f.node[f.count] = node
    elif f.count == 0:
        f.base = node
    mask = f.size - 1
    at = hashed & mask
    while f.slots[at]:
        at = (at + 1) & mask
    f.count += 1
    f.slots[at] = <int32_t>f.count
    return 0


@cython.final
cdef class Shape:
    """A piece's voxels moved to start near 0 on each axis (exactly at 0 on the cube
    grid; on the prism grid by a translation of the grid, so one voxel later along x when
    parity asks): as lines along each axis (for axis ``a`` a grid over the two other
    axes, the first slower, cell ``c`` holding the sorted coordinates
    ``coords[a][starts[a][c]:starts[a][c + 1]]``), as a list and as a dense bitmap."""

    cdef int high[3]         # the largest coordinate on each axis
    cdef int *starts[3]
    cdef int *coords[3]
    cdef int *voxels         # x, y, z of each voxel
    cdef int count
    cdef unsigned char *filled

    def __cinit__(self, voxels):
        cdef int a, k, m, u, v, dv, cells, cell, value, n = len(voxels)
        cdef int *at
        cdef int *coords
        cdef int *fill
        if n == 0:
            raise ValueError("a piece without voxels")
        self.count = n
        self.voxels = <int *>malloc(3 * n * sizeof(int))
        if self.voxels == NULL:
            raise MemoryError()
        for k in range(n):
            for a in range(3):
                self.voxels[3 * k + a] = voxels[k][a]
        for a in range(3):
            self.high[a] = self.voxels[a]
            for k in range(n):
                if self.voxels[3 * k + a] > self.high[a]:
                    self.high[a] = self.voxels[3 * k + a]
        self.filled = <unsigned char *>calloc(
            (self.high[0] + 1) * (self.high[1] + 1) * (self.high[2] + 1), 1)
        if self.filled == NULL:
            raise MemoryError()
        for k in range(n):
            at = self.voxels + 3 * k
            self.filled[(at[2] * (self.high[1] + 1) + at[1]) * (self.high[0] + 1) + at[0]] = 1
        for a in range(3):
            u = 1 if a == 0 else 0
            v = 1 if a == 2 else 2
            dv = self.high[v] + 1
            cells = (self.high[u] + 1) * dv
            self.starts[a] = <int *>calloc(cells + 1, sizeof(int))
            self.coords[a] = coords = <int *>malloc(n * sizeof(int))
            if self.starts[a] == NULL or coords == NULL:
                raise MemoryError()
            for k in range(n):  # a counting sort by line, each line sorted along the axis
                self.starts[a][self.voxels[3 * k + u] * dv + self.voxels[3 * k + v] + 1] += 1
            for cell in range(cells):
                self.starts[a][cell + 1] += self.starts[a][cell]
            fill = <int *>malloc(cells * sizeof(int))
            if fill == NULL:
                raise MemoryError()
            memcpy(fill, self.starts[a], cells * sizeof(int))
            for k in range(n):
                cell = self.voxels[3 * k + u] * dv + self.voxels[3 * k + v]
                value = self.voxels[3 * k + a]
                m = fill[cell]
                fill[cell] += 1
                while m > self.starts[a][cell] and coords[m - 1] > value:
                    coords[m] = coords[m - 1]
                    m -= 1
                coords[m] = value
            free(fill)

    def __dealloc__(self):
        cdef int a
        for a in range(3):
            free(self.starts[a])
            free(self.coords[a])
        free(self.voxels)
        free(self.filled)

    cdef inline bint has(self, int x, int y, int z) noexcept:
        """Is the voxel ``(x, y, z)`` filled?"""
        if x < 0 or y < 0 or z < 0 or x > self.high[0] or y > self.high[1] or z > self.high[2]:
            return False
        return self.filled[(z * (self.high[1] + 1) + y) * (self.high[0] + 1) + x]


@cython.final
cdef class Pair:
    """Cutler's gaps of one shape towards another, by the offset of the second's origin
    from the first's, over the window of offsets at which their boxes come within one
    voxel (three on the prism grid) of each other; cells are computed as they are first
    asked for (made by :meth:`Geometry.pair`)."""

    cdef Shape mine, theirs
    cdef int grid, axes
    cdef int lo[3]
    cdef int dim[3]
    cdef int dirs[MAX_AXES][3]
    cdef int32_t *cells      # `axes` values a cell, valid where `known`; NULL until used
    cdef uint64_t *known     # a bit a cell: computed

    cdef void _init(self, Shape mine, Shape theirs, int grid, int axes,
                    const int *directions) noexcept:
        """The table of ``mine`` towards ``theirs`` on BurrTools' grid ``grid``, of
        ``axes`` axes (``directions``: the vector of each direction, two a axis)."""
        cdef int a, b, margin = 1 if grid == 0 else 3
        self.mine = mine
        self.theirs = theirs
        self.grid = grid
        self.axes = axes
        for a in range(axes):
            for b in range(3):
                self.dirs[a][b] = directions[6 * a + b]
        for a in range(3):
            self.lo[a] = -theirs.high[a] - margin
            self.dim[a] = mine.high[a] + theirs.high[a] + 2 * margin + 1

    def __dealloc__(self):
        cdef size_t count = self.dim[0] * self.dim[1] * self.dim[2]
        _release(self.cells, self.axes * count * sizeof(int32_t))
        _release(self.known, (count + 63) // 64 * sizeof(uint64_t))

    cdef void _compute(self, int ox, int oy, int oz, int32_t *out) noexcept:
        """The gaps on each axis at one offset: on each line along the axis, the run of
        empty voxels from a voxel of mine to the next voxel of theirs, the shortest."""
        cdef int a, u, v, du, dv, duj, dvj, cu, cv, ju, jv, best, gap, p, pend, q, qend, w
        cdef int *si
        cdef int *sj
        cdef int *ci
        cdef int *cj
        cdef int o[3]
        o[0] = ox
        o[1] = oy
        o[2] = oz
        for a in range(3):
            u = 1 if a == 0 else 0
            v = 1 if a == 2 else 2
            du = self.mine.high[u] + 1
            dv = self.mine.high[v] + 1
            duj = self.theirs.high[u] + 1
            dvj = self.theirs.high[v] + 1
            si = self.mine.starts[a]
            sj = self.theirs.starts[a]
            ci = self.mine.coords[a]
            cj = self.theirs.coords[a]
            best = FREE
            for cu in range(du):
                ju = cu - o[u]
                if ju < 0 or ju >= duj:
                    continue
                for cv in range(dv):
                    jv = cv - o[v]
                    if jv < 0 or jv >= dvj:
                        continue
                    p = si[cu * dv + cv]
                    pend = si[cu * dv + cv + 1]
                    if p == pend:
                        continue
                    q = sj[ju * dvj + jv]
                    qend = sj[ju * dvj + jv + 1]
                    # for each voxel of theirs on the line, the last of mine before it
                    while q < qend:
                        w = cj[q] + o[a]
                        while p + 1 < pend and ci[p + 1] < w:
                            p += 1
                        if ci[p] < w:
                            gap = w - ci[p] - 1
                            if gap < best:
                                best = gap
                        q += 1
            out[a] = best

    cdef void _compute_prism(self, int ox, int oy, int oz, int32_t *out) noexcept:
        """The gaps along each axis of the prism grid at one offset: for each voxel of
        mine, the unit steps it makes before one would sweep a voxel of theirs, walked
        until it is past theirs' box; the fewest."""
        cdef int a, k, c, t, best, px, py, pz, vx, vy, vz, parity
        cdef int *vox
        cdef Shape theirs = self.theirs
        for a in range(4):
            vx = self.dirs[a][0]
            vy = self.dirs[a][1]
            vz = self.dirs[a][2]
            best = FREE
            for k in range(self.mine.count):
                vox = self.mine.voxels + 3 * k
                parity = (vox[0] + vox[1]) & 1
                px = vox[0] - ox
                py = vox[1] - oy
                pz = vox[2] - oz
                t = 0
                while t < best:
                    if ((vx > 0 and px > theirs.high[0] + 2) or (vx < 0 and px < -2)
                            or (vy > 0 and py > theirs.high[1] + 2)
                            or (vz > 0 and pz > theirs.high[2] + 2)):
                        break
                    for c in range(2):
                        if theirs.has(px + _PRISM_SWEEP[a][parity][c][0],
                                      py + _PRISM_SWEEP[a][parity][c][1],
                                      pz + _PRISM_SWEEP[a][parity][c][2]):
                            best = t
                            break
                    px += vx
                    py += vy
                    pz += vz
                    t += 1
            out[a] = best

    cdef int32_t *_cell(self, int *c) except NULL:
        """The gaps at window cell ``c``, computed when first asked for."""
        cdef size_t count
        cdef Py_ssize_t index = (c[2] * self.dim[1] + c[1]) * self.dim[0] + c[0]
        cdef Py_ssize_t cell = self.axes * index
        if self.cells == NULL:
            count = self.dim[0] * self.dim[1] * self.dim[2]
            if self.known == NULL:  # (made already when the cells were refused)
                self.known = <uint64_t *>_resized(
                    NULL, 0, (count + 63) // 64 * sizeof(uint64_t), True)
            self.cells = <int32_t *>_resized(NULL, 0, self.axes * count * sizeof(int32_t),
                                             False)
        if not (self.known[index >> 6] >> (index & 63)) & 1:
            self.known[index >> 6] |= (<uint64_t>1) << (index & 63)
            if self.grid == 0:
                self._compute(c[0] + self.lo[0], c[1] + self.lo[1], c[2] + self.lo[2],
                              self.cells + cell)
            else:
                self._compute_prism(c[0] + self.lo[0], c[1] + self.lo[1], c[2] + self.lo[2],
                                    self.cells + cell)
        return self.cells + cell

    cdef int gap(self, int *off, int a) except -2:
        """How far mine slides along axis ``a`` before it meets theirs at offset ``off``."""
        cdef int c[3]
        cdef int b, extra = 0, value
        if self.grid != 0:
            return self._gap_along(off, a)
        for b in range(3):
            c[b] = off[b] - self.lo[b]
            if b == a:
                if c[b] < 0:
                    return FREE
                if c[b] >= self.dim[b]:
                    extra = c[b] - (self.dim[b] - 1)
                    c[b] = self.dim[b] - 1
            elif c[b] < 0 or c[b] >= self.dim[b]:
                return FREE
        value = self._cell(c)[a]
        if value >= FREE:
            return FREE
        return value + extra

    cdef int gaps(self, int *off, int axes, int32_t *out) except -1:
        """:meth:`gap` along every axis at once: one cell of the window when the offset
        is inside it (most pairs that meet), else axis by axis."""
        cdef int c[3]
        cdef int a
        cdef int32_t *cell
        if self.grid == 0:
            for a in range(3):
                c[a] = off[a] - self.lo[a]
                if c[a] < 0 or c[a] >= self.dim[a]:
                    break
            else:
                cell = self._cell(c)
                for a in range(3):
                    out[a] = cell[a]
                return 0
        for a in range(axes):
            out[a] = self.gap(off, a)
        return 0

    cdef int _gap_along(self, int *off, int a) except -2:
        """:meth:`gap` along any vector: the first step ``t >= 0`` at which the offset
        less ``t`` steps lies in the window, and the value there plus ``t``."""
        cdef int c[3]
        cdef int b, value, low = 0, high = FREE, w
        for b in range(3):
            c[b] = off[b] - self.lo[b]
            w = self.dirs[a][b]
            if w == 0:
                if c[b] < 0 or c[b] >= self.dim[b]:
                    return FREE
            elif w > 0:  # c - t w within [0, dim - 1]
                high = min(high, _floordiv(c[b], w))
                low = max(low, -_floordiv(self.dim[b] - 1 - c[b], w))
            else:
                high = min(high, _floordiv(self.dim[b] - 1 - c[b], -w))
                low = max(low, -_floordiv(c[b], -w))
        if low > high:
            return FREE
        for b in range(3):
            c[b] -= low * self.dirs[a][b]
        value = self._cell(c)[a]
        if value >= FREE:
            return FREE
        return value + low


@cython.final
cdef class Geometry:
    """The shapes and pair tables of a problem's pieces, shared by all its assemblies:
    a piece is its shape (its voxels, moved to start near 0) and its origin (where the
    assembly puts that start); pieces of the same shape in the same orientation share
    their tables, as in BurrTools' movement cache. ``grid`` is BurrTools' grid number
    (0 cubes, 1 triangular prisms)."""

    cdef dict shapes
    cdef list made                 # every pair table made (their references)
    cdef void **pairs              # by shape numbers, ``room`` a row; NULL until made
    cdef list objects              # the Shape of each shape number
    cdef int room
    cdef dict pieces
    cdef dict same                 # id of a voxels tuple met: (the tuple, its entry)
    cdef readonly int grid
    cdef int axes
    cdef int dirs[2 * MAX_AXES][3]   # the vector of each direction

    def __cinit__(self, int grid=0):
        cdef int a, i
        if grid not in AXES:
            raise ValueError(f"no disassembly on BurrTools' grid {grid}")
        self.grid = grid
        self.axes = len(AXES[grid])
        for a, vector in enumerate(AXES[grid]):
            for i in range(3):
                self.dirs[2 * a][i] = vector[i]
                self.dirs[2 * a + 1][i] = -vector[i]
        self.shapes = {}
        self.made = []
        self.objects = []
        self.pairs = NULL
        self.room = 0
        self.pieces = {}
        self.same = {}

    def __dealloc__(self):
        free(self.pairs)

    cdef tuple _shape(self, voxels):
        """``(number, x, y, z)``: the number of the piece's shape and its origin."""
        # an assembly's pieces are the decoder's, one tuple an option for all the
        # problem's assemblies: looked up by identity first, without hashing the voxels
        known = self.same.get(id(voxels))
        if known is not None and (<tuple>known)[0] is voxels:
            return (<tuple>known)[1]
        if not isinstance(voxels, tuple):
            voxels = tuple([tuple(v) for v in voxels])
        found = self.pieces.get(voxels)
        if found is None:
            found = self._new_shape(voxels)
        if len(self.same) >= MAX_SAME:
            self.same.clear()
        self.same[id(voxels)] = (voxels, found)
        return found

    cdef tuple _new_shape(self, tuple voxels):
        """:meth:`_shape` of voxels not met before."""
        cdef int a, n
        cdef int origin[3]
        n = len(voxels)
        if n == 0:
            raise ValueError("a piece without voxels")
        for a in range(3):
            origin[a] = min([v[a] for v in voxels])
        if self.grid == 1 and (origin[0] + origin[1]) % 2:
            origin[0] -= 1  # a translation of the prism grid keeps x + y even
        key = tuple(sorted([(v[0] - origin[0], v[1] - origin[1], v[2] - origin[2])
                            for v in voxels]))
        number = self.shapes.get(key)
        if number is None:
            number = self.shapes[key] = len(self.objects)
            self.objects.append(Shape(key))
        found = self.pieces[voxels] = (number, origin[0], origin[1], origin[2])
        return found

    cdef Pair pair(self, int a, int b):
        """The pair table of two shapes (by their numbers)."""
        cdef int k, room
        cdef void **grown
        cdef Pair found
        if max(a, b) >= self.room:
            room = max(16, 2 * max(a, b) + 2)
            grown = <void **>calloc(room * room, sizeof(void *))
            if grown == NULL:
                raise MemoryError()
            for k in range(self.room * self.room):
                grown[(k // self.room) * room + k % self.room] = self.pairs[k]
            free(self.pairs)
            self.pairs = grown
            self.room = room
        if self.pairs[a * self.room + b] == NULL:
            found = Pair.__new__(Pair)
            found._init(self.objects[a], self.objects[b], self.grid, self.axes,
                        &self.dirs[0][0])
            self.made.append(found)
            self.pairs[a * self.room + b] = <void *>found
        return <Pair>self.pairs[a * self.room + b]


@cython.final
cdef class Part:
    """The pieces of one part: their shapes' pair tables and their origins, and the
    grid's axes. A part's buffers can take other pieces of the same geometry
    (:meth:`_load`: a batch of assemblies reuses one part)."""

    cdef int n
    cdef int room            # the most pieces the buffers hold
    cdef int axes
    cdef int dirs[2 * MAX_AXES][3]   # the vector of each direction
    cdef int *origin         # x, y, z of each piece's origin
    cdef void **pairs        # n n borrowed Pair references (kept alive by `keep`)
    cdef Geometry keep

    def __cinit__(self, Geometry geometry not None, list pieces):
        self.axes = geometry.axes
        memcpy(self.dirs, geometry.dirs, sizeof(self.dirs))
        self.keep = geometry  # which keeps every pair table it makes
        self._load(pieces)

    cdef int _load(self, list pieces) except -1:
        """Take the pieces ``pieces`` (their voxels where the part puts them) of the
        geometry the part was made with, in place of its own."""
        cdef int n = len(pieces), i, j, a
        cdef int shapes[64]
        cdef tuple found
        cdef Pair pair
        cdef Geometry geometry = self.keep
        if not 1 <= n <= 64:
            raise ValueError(f"a part has 1 to 64 pieces, not {n}")
        if n > self.room:
            free(self.origin)
            free(self.pairs)
            self.room = 0
            self.origin = <int *>malloc(3 * n * sizeof(int))
            self.pairs = <void **>malloc(n * n * sizeof(void *))
            if self.origin == NULL or self.pairs == NULL:
                raise MemoryError()
            self.room = n
        self.n = n
        for i in range(n):
            found = geometry._shape(pieces[i])
            shapes[i] = found[0]
            for a in range(3):
                self.origin[3 * i + a] = found[a + 1]
        for i in range(n):
            self.pairs[i * n + i] = NULL
            for j in range(n):
                if i == j:
                    continue
                # the table made already (most are, past an assembly or two), else made
                if shapes[i] < geometry.room and shapes[j] < geometry.room:
                    self.pairs[i * n + j] = geometry.pairs[shapes[i] * geometry.room + shapes[j]]
                    if self.pairs[i * n + j] != NULL:
                        continue
                pair = geometry.pair(shapes[i], shapes[j])
                self.pairs[i * n + j] = <void *>pair
        return 0

    def __dealloc__(self):
        free(self.origin)
        free(self.pairs)

    @property
    def n(self) -> int:
        return self.n

    cdef inline int _gaps(self, int i, int j, int *off, int32_t *out) except -1:
        """:meth:`_gap` along every axis."""
        cdef int o[3]
        cdef int b
        for b in range(3):
            o[b] = off[b] + self.origin[3 * j + b] - self.origin[3 * i + b]
        return (<Pair>self.pairs[i * self.n + j]).gaps(o, self.axes, out)

    cdef inline int _gap(self, int i, int j, int *off, int a) except -2:
        """How far piece ``i`` slides along axis ``a`` before it meets ``j``, ``j``
        translated by ``off`` from ``i``."""
        cdef int o[3]
        cdef int b
        for b in range(3):
            o[b] = off[b] + self.origin[3 * j + b] - self.origin[3 * i + b]
        return (<Pair>self.pairs[i * self.n + j]).gap(o, a)

    def gaps(self, int i, int j, int ox, int oy, int oz) -> tuple:
        """The gaps of piece ``i`` towards ``j`` translated by ``(ox, oy, oz)``, along
        each axis (tests)."""
        cdef int off[3]
        off[0] = ox
        off[1] = oy
        off[2] = oz
        return tuple(self._gap(i, j, off, a) for a in range(self.axes))


@cython.final
cdef class Search:
    """The breadth-first search of one part from one configuration; :meth:`next`
    yields its separations one by one, nearest first. The part is some pieces of a
    :class:`Part` (``pieces``, their indices there; all of them by default); a search
    can be started again on other pieces of a part (:meth:`_restart`), keeping its
    buffers."""

    cdef Part part
    cdef int n
    cdef int room                  # the most pieces the buffers hold
    cdef int *at                   # the part's index of each piece searched
    cdef int width
    cdef uint64_t full
    cdef Front fronts[3]
    cdef int old, cur, new
    cdef Py_ssize_t position       # the next configuration of the current front to expand
    cdef int32_t *table            # 3 n n gaps of the configuration expanded
    cdef uint64_t *blocks          # for each direction and piece, the pieces it meets
                                   # (filled with the table)
    cdef bint preset               # the table holds the first configuration's gaps
    cdef bint valid                # the table holds the gaps of :attr:`filled`
    cdef int16_t *filled
    # records of every configuration found: parent, mask, direction, step
    cdef int64_t *parent
    cdef uint64_t *rmask
    cdef int32_t *rmove            # direction * 65536 + step
    cdef Py_ssize_t records, rcapacity
    # separations of the configuration last expanded, still to hand out
    cdef uint64_t pending_mask[MAX_PENDING]
    cdef int pending_dir[MAX_PENDING]
    cdef int pending, handed
    cdef bint larger_todo          # the free sets of several pieces are still to find
    cdef int64_t pending_node
    cdef int16_t *pending_state    # the configuration they are free in
    # the moves of one direction: masks and steps found so far, in the order found, and
    # past SEEN_SCAN of them a hash table of their indices (+ 1, 0 empty) by mask and step
    cdef uint64_t *seen_mask
    cdef int32_t *seen_step
    cdef int32_t *seen_slots
    cdef Py_ssize_t seen_count, seen_capacity, seen_size
    cdef int16_t *scratch
    # for the axis being expanded, along +axis then -axis, by distance s and piece i:
    # the pieces i meets within s (``within``, rows 0 to STEPS), and at exactly s
    # (``exactly``, kept zero; its row STEPS takes the gaps of STEPS or more)
    cdef uint64_t *within
    cdef uint64_t *exactly
    cdef public long long expanded
    cdef bint onwards              # go on from configurations with a free set too
    cdef Meter meter               # the limits of the run (set by whoever runs it)

    def __cinit__(self, Part part, start=None, bint onwards=False, pieces=None):
        cdef int k, a, n
        cdef int *at
        cdef int16_t *first
        for k in range(3):
            _front_init(&self.fronts[k], 3, False)
        self._resize_records(1024)
        self._resize_seen(SEEN_ROOM, 2 * SEEN_ROOM)
        if part is None:
            return
        n = part.n if pieces is None else len(pieces)
        if start is None or len(start) != n or n < 1:
            raise ValueError("a search needs the translation of each of its pieces")
        self._reserve(part.n)
        at = self.at
        for k in range(n):
            at[k] = k if pieces is None else pieces[k]
            if not 0 <= at[k] < part.n:
                raise ValueError(f"no piece {at[k]} in a part of {part.n}")
        first = self.pending_state  # a scratch buffer until the search runs
        for k in range(n):
            for a in range(3):
                first[3 * k + a] = <int16_t>int(start[k][a])
        self._restart(part, at, n, first, onwards)

    def __dealloc__(self):
        cdef int k
        for k in range(3):
            _front_free(&self.fronts[k])
        free(self.at)
        free(self.table)
        free(self.blocks)
        _release(self.parent, self.rcapacity * sizeof(int64_t))
        _release(self.rmask, self.rcapacity * sizeof(uint64_t))
        _release(self.rmove, self.rcapacity * sizeof(int32_t))
        _release(self.seen_mask, self.seen_capacity * sizeof(uint64_t))
        _release(self.seen_step, self.seen_capacity * sizeof(int32_t))
        _release(self.seen_slots, self.seen_size * sizeof(int32_t))
        free(self.scratch)
        free(self.pending_state)
        free(self.within)
        free(self.exactly)
        free(self.filled)

    cdef int _reserve(self, int n) except -1:
        """Make the buffers hold a part of ``n`` pieces."""
        if n <= self.room:
            return 0
        free(self.at)
        free(self.table)
        free(self.blocks)
        free(self.scratch)
        free(self.pending_state)
        free(self.within)
        free(self.exactly)
        free(self.filled)
        self.filled = <int16_t *>malloc(3 * n * sizeof(int16_t))
        self.within = <uint64_t *>malloc(2 * (STEPS + 1) * n * sizeof(uint64_t))
        self.exactly = <uint64_t *>calloc(2 * (STEPS + 1) * n, sizeof(uint64_t))
        self.at = <int *>malloc(n * sizeof(int))
        self.table = <int32_t *>malloc(MAX_AXES * n * n * sizeof(int32_t))
        self.blocks = <uint64_t *>malloc(2 * MAX_AXES * n * sizeof(uint64_t))
        self.scratch = <int16_t *>malloc(3 * n * sizeof(int16_t))
        self.pending_state = <int16_t *>malloc(3 * n * sizeof(int16_t))
        if not (self.at and self.table and self.blocks and self.scratch and self.pending_state
                and self.within and self.exactly and self.filled):
            self.room = 0
            raise MemoryError()
        self.room = n
        return 0

    cdef int _restart(self, Part part, const int *at, int n, const int16_t *start,
                      bint onwards) except -1:
        """Start the search of the pieces ``at`` (``n`` of them, indices in ``part``)
        from the translations ``start`` (``3 n`` values; the buffers must hold ``n``
        pieces, and ``start`` may be :attr:`pending_state`)."""
        cdef int k, a
        self.part = part
        self.n = n
        self.width = 3 * n
        self.full = (<uint64_t>1 << n) - 1 if n < 64 else <uint64_t>0xFFFFFFFFFFFFFFFF
        if at != self.at:
            memcpy(self.at, at, n * sizeof(int))
        for k in range(n):
            for a in range(3):
                self.scratch[3 * k + a] = start[3 * k + a] - start[a]
        for k in range(3):
            _front_reset(&self.fronts[k], self.width)
        self.shrink()
        self.old, self.cur, self.new = 0, 1, 2
        self.records = 1
        self.parent[0] = -1
        self.rmask[0] = 0
        self.rmove[0] = 0
        _front_add(&self.fronts[self.cur], self.scratch, self.width, 0)
        self.position = 0
        self.pending = 0
        self.handed = 0
        self.larger_todo = False
        self.pending_node = 0
        self.expanded = 0
        self.onwards = onwards
        self.preset = False
        self.valid = False
        return 0

    cdef void _inherit(self, Search parent, const int *local) noexcept:
        """Take the gaps of the first configuration from ``parent``'s table, whose
        configuration puts these pieces (``local``: their indices in ``parent``) where
        this search starts: the gaps depend only on where the pieces are relative to
        each other."""
        cdef int n = self.n, m = parent.n, a, i, j
        cdef int32_t *row
        cdef int32_t *source
        cdef uint64_t meets, bit_i, hit
        cdef uint64_t *back
        memset(self.blocks, 0, 2 * self.part.axes * n * sizeof(uint64_t))
        for a in range(self.part.axes):
            back = self.blocks + (2 * a + 1) * n
            for i in range(n):
                row = self.table + (a * n + i) * n
                source = parent.table + (a * m + local[i]) * m
                meets = 0
                bit_i = (<uint64_t>1) << i
                for j in range(n):  # without branches: whether i meets j is data
                    row[j] = source[local[j]]
                    hit = <uint64_t>(row[j] < FREE)
                    meets |= hit << j
                    back[j] |= bit_i & (0 - hit)  # j meets i the other way
                self.blocks[2 * a * n + i] = meets
        self.preset = True
        memcpy(self.filled, self.fronts[self.cur].pool, self.width * sizeof(int16_t))
        self.valid = True

    cdef int shrink(self) except -1:
        """Give back the memory of a large search (its fronts and records start small
        again; its configurations are forgotten)."""
        cdef int k
        for k in range(3):
            if self.fronts[k].size > 4096:  # made again by the next start
                _front_free(&self.fronts[k])
        if self.rcapacity > 8192:
            self._resize_records(1024)
            self.records = min(self.records, self.rcapacity)
        if self.seen_size > 4096:
            self._resize_seen(SEEN_ROOM, 2 * SEEN_ROOM)
            self.seen_count = 0
        return 0

    cdef int _resize_records(self, Py_ssize_t capacity) except -1:
        """Make the records hold ``capacity`` (the first ones kept)."""
        cdef size_t before = self.rcapacity, after = capacity
        if after > before:
            _afford((after - before) * (sizeof(int64_t) + sizeof(uint64_t) + sizeof(int32_t)))
        self.parent = <int64_t *>_resized(self.parent, before * sizeof(int64_t),
                                          after * sizeof(int64_t), False)
        self.rmask = <uint64_t *>_resized(self.rmask, before * sizeof(uint64_t),
                                          after * sizeof(uint64_t), False)
        self.rmove = <int32_t *>_resized(self.rmove, before * sizeof(int32_t),
                                         after * sizeof(int32_t), False)
        self.rcapacity = capacity
        return 0

    cdef int _record(self, int64_t parent, uint64_t mask, int direction, int step) except -1:
        if self.records == self.rcapacity:
            self._resize_records(2 * self.rcapacity)
        self.parent[self.records] = parent
        self.rmask[self.records] = mask
        self.rmove[self.records] = direction * 65536 + step
        self.records += 1
        return 0

    cdef int _fill(self, const int16_t *state) except -1:
        """The gaps of the configuration ``state``, and whom each piece meets: when the
        table holds another configuration of the search (:attr:`filled`), only the
        pairs of pieces that moved relative to each other since are looked up again."""
        cdef int n = self.n, i, j, a, k, axes = self.part.axes, gap, groups = 1
        cdef int off[3]
        cdef int group[64]
        cdef int32_t found[MAX_AXES]
        cdef int16_t *moved = self.scratch  # the translation of each group since then
        cdef uint64_t bit_i, bit_j, hit
        if not self.valid:
            memset(self.blocks, 0, 2 * axes * n * sizeof(uint64_t))
            for i in range(n):
                group[i] = i
        else:  # the pieces grouped by their translation since (the first one's is 0)
            moved[0] = moved[1] = moved[2] = 0
            for i in range(n):
                for a in range(3):
                    off[a] = state[3 * i + a] - self.filled[3 * i + a]
                for k in range(groups):
                    if (moved[3 * k] == off[0] and moved[3 * k + 1] == off[1]
                            and moved[3 * k + 2] == off[2]):
                        break
                else:
                    k = groups
                    for a in range(3):
                        moved[3 * k + a] = <int16_t>off[a]
                    groups += 1
                group[i] = k
            if groups == 1:
                return 0
        for i in range(n):
            for j in range(n):
                if group[i] == group[j]:
                    if i == j and not self.valid:
                        for a in range(axes):
                            self.table[(a * n + i) * n + j] = FREE
                    continue
                for a in range(3):
                    off[a] = state[3 * j + a] - state[3 * i + a]
                self.part._gaps(self.at[i], self.at[j], off, found)
                bit_i = (<uint64_t>1) << i
                bit_j = (<uint64_t>1) << j
                for a in range(axes):
                    gap = found[a]
                    self.table[(a * n + i) * n + j] = gap
                    # whether i sliding along the axis meets j, without a branch
                    hit = 0 - <uint64_t>(gap < FREE)
                    k = 2 * a * n + i
                    self.blocks[k] = (self.blocks[k] & ~bit_j) | (bit_j & hit)
                    k = (2 * a + 1) * n + j
                    self.blocks[k] = (self.blocks[k] & ~bit_i) | (bit_i & hit)
        memcpy(self.filled, state, self.width * sizeof(int16_t))
        self.valid = True
        return 0

    cdef uint64_t _free_closure(self, int piece, int direction, int cap) noexcept:
        """The set holding ``piece`` that is free along ``direction`` (the pieces it
        meets on the way, and the pieces they meet...) from :attr:`blocks`; 0 when it has
        more than ``cap`` pieces."""
        return _closure_of(self.blocks + direction * self.n, piece, cap)

    cdef uint64_t _closure(self, int piece, int direction, int step, int cap) noexcept:
        """The smallest set holding ``piece`` that slides ``step`` along ``direction``;
        0 when it has more than ``cap`` pieces."""
        cdef int n = self.n, i, j
        cdef const int32_t *gaps = self.table + (direction >> 1) * n * n
        cdef const int32_t *line
        cdef uint64_t mask = (<uint64_t>1) << piece
        cdef uint64_t todo = mask, near
        while todo:
            i = ctz64(todo)
            todo &= todo - 1
            near = 0
            if direction & 1:  # along -axis: the pieces that meet i along +axis
                line = gaps + i
                for j in range(n):
                    near |= (<uint64_t>(line[j * n] < step)) << j
            else:
                line = gaps + i * n
                for j in range(n):
                    near |= (<uint64_t>(line[j] < step)) << j
            near &= ~mask
            if near:
                mask |= near
                todo |= near
                if popcount64(mask) > cap:
                    return 0
        return mask

    cdef int _free_sets(self, bint larger) except -1:
        """Add to the pending separations of the configuration in the table the free
        single pieces (``larger`` false), or the free sets of two pieces up to half of
        them (true): each set once, with the first direction it is free along (taking
        it out along another direction leaves the same two parts in the same
        configurations)."""
        cdef int cap, direction, piece, k, n = self.n
        cdef uint64_t mask, free, taken = 0
        cdef const uint64_t *rows
        cdef bint known
        if not larger:  # the pieces that meet none, a direction at a time, each once
            for direction in range(2 * self.part.axes):
                rows = self.blocks + direction * n
                free = 0
                for piece in range(n):  # without branches: whether a piece is free is data
                    free |= (<uint64_t>(rows[piece] == 0)) << piece
                free &= ~taken
                taken |= free
                while free:
                    self.pending_mask[self.pending] = free & (0 - free)
                    self.pending_dir[self.pending] = direction
                    self.pending += 1
                    free &= free - 1
            return 0
        cap = n // 2
        if cap < 2:
            return 0
        for direction in range(2 * self.part.axes):
            for piece in range(n):
                self.meter.tick()
                mask = self._free_closure(piece, direction, cap)
                if not mask:
                    continue
                known = False
                for k in range(self.pending):
                    if self.pending_mask[k] == mask:
                        known = True
                        break
                if not known and self.pending < MAX_PENDING:
                    self.pending_mask[self.pending] = mask
                    self.pending_dir[self.pending] = direction
                    self.pending += 1
        return 0

    cdef int _emit(self, const int16_t *state, uint64_t mask, int direction, int step,
                   int64_t node) except -1:
        """Add the configuration one move away, unless known."""
        cdef int k, a, d = direction
        cdef uint64_t moving = mask, hashed
        cdef int16_t *after = self.scratch
        if moving & 1:
            moving = self.full ^ moving
            d = direction ^ 1
        memcpy(after, state, self.width * sizeof(int16_t))
        for k in range(self.n):
            if (moving >> k) & 1:
                for a in range(3):
                    after[3 * k + a] += <int16_t>(self.part.dirs[d][a] * step)
        hashed = _hash(after, self.width)
        if (_front_find_hashed(&self.fronts[self.old], after, self.width, hashed) >= 0
                or _front_find_hashed(&self.fronts[self.cur], after, self.width, hashed) >= 0
                or _front_find_hashed(&self.fronts[self.new], after, self.width, hashed) >= 0):
            return 0
        self._record(node, mask, direction, step)
        _front_add_hashed(&self.fronts[self.new], after, self.width, self.records - 1, hashed)
        self.meter.count(1)
        return 0

    cdef int _resize_seen(self, Py_ssize_t capacity, Py_ssize_t size) except -1:
        """Make the sets of a direction hold ``capacity`` (the first ones kept) and
        their hash table ``size`` slots (a power of two, emptied)."""
        self.seen_mask = <uint64_t *>_resized(
            self.seen_mask, self.seen_capacity * sizeof(uint64_t),
            capacity * sizeof(uint64_t), False)
        self.seen_step = <int32_t *>_resized(
            self.seen_step, self.seen_capacity * sizeof(int32_t),
            capacity * sizeof(int32_t), False)
        self.seen_capacity = capacity
        self.seen_slots = <int32_t *>_resized(
            self.seen_slots, self.seen_size * sizeof(int32_t), size * sizeof(int32_t), True)
        self.seen_size = size
        return 0

    cdef inline Py_ssize_t _seen_slot(self, uint64_t mask, int step) noexcept:
        """Where the set (``mask``, ``step``) is in the hash table, or the empty slot
        where it goes."""
        cdef uint64_t at, wrap = self.seen_size - 1
        cdef int32_t slot
        at = ((mask ^ (<uint64_t>step << 58)) * 0x9E3779B97F4A7C15ULL) >> 20
        at &= wrap
        while True:
            slot = self.seen_slots[at]
            if slot == 0 or (self.seen_mask[slot - 1] == mask
                             and self.seen_step[slot - 1] == step):
                return <Py_ssize_t>at
            at = (at + 1) & wrap

    cdef int _seen_clear(self) noexcept:
        """Forget the sets of the last direction."""
        cdef Py_ssize_t k
        if self.seen_count > SEEN_SCAN:  # the hash table holds them
            if self.seen_count > self.seen_size // 8:
                memset(self.seen_slots, 0, self.seen_size * sizeof(int32_t))
            else:  # the last one put in first: the probes of each pass only earlier ones
                for k in range(self.seen_count - 1, -1, -1):
                    self.seen_slots[self._seen_slot(self.seen_mask[k], self.seen_step[k])] = 0
        self.seen_count = 0
        return 0

    cdef int _seen(self, uint64_t mask, int step) except -1:
        """Note a set found in this direction; 1 when it was known already. A few sets
        are compared one by one; past SEEN_SCAN they go to a hash table too (loose
        pieces slide in every union of their sets: millions of them in one
        direction)."""
        cdef Py_ssize_t k, count = self.seen_count
        self.meter.tick()
        if count <= SEEN_SCAN:
            for k in range(count):
                if self.seen_mask[k] == mask and self.seen_step[k] == step:
                    return 1
        elif self.seen_slots[self._seen_slot(mask, step)]:
            return 1
        if count == self.seen_capacity:  # the table (twice as large) is emptied too
            self._resize_seen(2 * count, 4 * count)
            if count > SEEN_SCAN:
                for k in range(count):
                    self.seen_slots[self._seen_slot(self.seen_mask[k], self.seen_step[k])] = (
                        <int32_t>(k + 1))
        self.seen_mask[count] = mask
        self.seen_step[count] = step
        self.seen_count = count + 1
        if count == SEEN_SCAN:  # from now on in the table: all of them
            for k in range(count + 1):
                self.seen_slots[self._seen_slot(self.seen_mask[k], self.seen_step[k])] = (
                    <int32_t>(k + 1))
        elif count > SEEN_SCAN:
            self.seen_slots[self._seen_slot(mask, step)] = <int32_t>(count + 1)
        return 0

    cdef int _steps(self, int axis) noexcept:
        """Fill :attr:`within` for both directions of ``axis`` in the table's
        configuration (along ``-axis`` from the row ``STEPS + 1`` on): the distances
        ``s`` up to the largest gap plus one, the returned value (0 when a gap of
        ``STEPS`` or more, not free, is met: :meth:`_closure` answers then)."""
        cdef int n = self.n, i, j, gap, top = 0, s, half = (STEPS + 1) * n
        cdef const int32_t *gaps = self.table + axis * n * n
        cdef uint64_t *back = self.exactly + (STEPS + 1) * n
        cdef bint beyond = False
        cdef int row, near
        for i in range(n):
            for j in range(n):
                # without branches (whether i meets j is data): a gap of STEPS or more
                # goes to the row STEPS, cleared below
                gap = gaps[i * n + j]
                near = gap < STEPS
                row = gap if near else STEPS
                self.exactly[row * n + i] |= (<uint64_t>1) << j
                back[row * n + j] |= (<uint64_t>1) << i
                top = max(top, (gap + 1) * near)
                beyond |= (not near) & (gap < FREE)
        for i in range(n):
            self.exactly[STEPS * n + i] = back[STEPS * n + i] = 0
        for i in range(n):
            self.within[i] = self.within[half + i] = 0
        for s in range(1, top + 1):
            for i in range(n):
                self.within[s * n + i] = self.within[(s - 1) * n + i] | self.exactly[(s - 1) * n + i]
                self.within[half + s * n + i] = (
                    self.within[half + (s - 1) * n + i] | back[(s - 1) * n + i])
                self.exactly[(s - 1) * n + i] = back[(s - 1) * n + i] = 0
        return 0 if beyond else top

    cdef uint64_t _closure_within(self, const uint64_t *near, int piece, int cap) noexcept:
        """:meth:`_closure` from the rows of :attr:`within` of one direction and
        distance (``near``)."""
        return _closure_of(near, piece, cap)

    cdef int _expand(self, const int16_t *state, int64_t node) except -1:
        """Add every configuration one move away (each counted by the meter as found)."""
        cdef int direction, piece, step, top = 0, cap = self.n // 2
        cdef uint64_t mask, other, union, free
        cdef const uint64_t *rows
        cdef Py_ssize_t k, before
        for direction in range(2 * self.part.axes):
            self._seen_clear()
            if not direction & 1:
                top = self._steps(direction >> 1)
            rows = self.within + (direction & 1) * (STEPS + 1) * self.n
            for piece in range(self.n):
                free = self._closure(piece, direction, FREE, cap) if self.onwards else 0
                step = 1
                while True:
                    if step <= top:
                        mask = self._closure_within(rows + step * self.n, piece, cap)
                    elif top:  # every gap is below the last distance: the same set
                        mask = self._closure_within(rows + top * self.n, piece, cap)
                    else:
                        mask = self._closure(piece, direction, step, cap)
                    if not mask or mask == free:  # a free set only comes out
                        break
                    before = self.seen_count
                    if not self._seen(mask, step):
                        self._emit(state, mask, direction, step, node)
                        for k in range(before):
                            self.meter.tick()
                            if self.seen_step[k] != step:
                                continue
                            other = self.seen_mask[k]
                            union = mask | other
                            if union == mask or union == other or union == self.full:
                                continue
                            if not self._seen(union, step):
                                self._emit(state, union, direction, step, node)
                    step += 1
        return 0

    cdef int _next(self, uint64_t *mask, int *direction) except -1:
        """Go on to the next separation: 1 when one is handed out (its set and
        direction in ``mask`` and ``direction``), 0 when none is left. The
        configurations expanded and found are counted by :attr:`meter`, which stops
        the search (raises) past a limit."""
        cdef Front *front
        cdef const int16_t *state
        cdef int64_t node
        cdef int t
        while True:
            if self.handed < self.pending:
                mask[0] = self.pending_mask[self.handed]
                direction[0] = self.pending_dir[self.handed]
                self.handed += 1
                return 1
            if self.larger_todo:  # the single pieces are handed out: the larger sets
                self.larger_todo = False
                self._free_sets(True)
                continue
            front = &self.fronts[self.cur]
            if self.position == front.count:
                if self.fronts[self.new].count == 0:
                    return 0
                _front_clear(&self.fronts[self.old])
                t = self.old
                self.old = self.cur
                self.cur = self.new
                self.new = t
                self.position = 0
                continue
            state = front.pool + self.position * self.width
            node = front.base + self.position
            self.position += 1
            self.expanded += 1
            self.meter.count(1)
            self.meter.tick()
            if self.preset:
                self.preset = False
            else:
                self._fill(state)
            self.pending = self.handed = 0
            self._free_sets(False)
            if self.pending:  # the larger sets are found once these are handed out
                self.larger_todo = True
            else:
                self._free_sets(True)
            if self.pending:
                self.pending_node = node
                memcpy(self.pending_state, state, self.width * sizeof(int16_t))
                if self.onwards:
                    self._expand(state, node)
                continue
            self._expand(state, node)

    def next(self, budget):
        """The next separation: ``(mask, direction)``, the set of pieces free along the
        direction (bit ``k``: the search's piece ``k``); None once there is none left.
        The search stops within ``budget`` (its ``deadline``, ``max_states`` and
        ``max_memory``), told of the configurations found (``budget.spend(k)``, which
        raises past a limit), and on Ctrl-C (KeyboardInterrupt).
        :meth:`path`, :meth:`depth` and :meth:`parts` tell more about it."""
        cdef uint64_t mask = 0
        cdef int direction = 0
        if self.meter is None:
            self.meter = Meter()
        self.meter.start(budget)
        found = self._next(&mask, &direction)
        self.meter.tell()
        return (mask, direction) if found else None

    def path(self) -> list:
        """The moves ``(mask, direction, step)`` from the start to the configuration of
        the last separation :meth:`next` handed out."""
        cdef list moves = []
        cdef int64_t node = self.pending_node
        while node > 0:
            moves.append((self.rmask[node], self.rmove[node] >> 16, self.rmove[node] & 0xFFFF))
            node = self.parent[node]
        moves.reverse()
        return moves

    def depth(self) -> int:
        """The number of moves of :meth:`path`."""
        cdef int64_t node = self.pending_node
        cdef int count = 0
        while node > 0:
            count += 1
            node = self.parent[node]
        return count

    def parts(self, uint64_t mask) -> tuple:
        """The two parts the set ``mask`` leaves in the configuration of the last
        separation handed out: the translations of the pieces outside ``mask``, then of
        those in it, each part's first piece put at the origin (as a search starts)."""
        return self._side(mask, False), self._side(mask, True)

    cdef tuple _side(self, uint64_t mask, bint inside):
        cdef list found = []
        cdef int k, first = -1
        cdef const int16_t *s = self.pending_state
        for k in range(self.n):
            if ((mask >> k) & 1) != inside:
                continue
            if first < 0:
                first = k
            found.append((s[3 * k] - s[3 * first], s[3 * k + 1] - s[3 * first + 1],
                          s[3 * k + 2] - s[3 * first + 2]))
        return tuple(found)


include "_stages.pxi"
