# cython: language_level=3
"""A compiled solver for Sudoku-like grids whose rules are fixed and whose givens vary.

A Sudoku board of side ``N`` is one exact cover, whatever the puzzle: option ``cell*N + d``
puts digit ``d+1`` in ``cell`` and covers the item of that cell and the items "digit
``d+1`` in unit ``u``" of each unit holding the cell (its row, column and box, and its
diagonals or jigsaw region for the variants). Every unit has ``N`` cells. This module
keeps that cover as bitsets rather than links: ``state[cell]`` has bit ``d`` set while
option ``cell*N + d`` is still possible, so the options left on a cell's item are the bits
of one word, and those left on item (unit, digit) are the cells of the unit whose word has
the digit's bit. The tables of units and peers (the cells sharing a unit with a cell) are
built once per board; a puzzle only sets the words of its givens, so a batch of puzzles
costs no rebuilding at all.

Choosing an option covers its items; the deductions Knuth's DLX makes by choosing an item
with a single option are made here directly, until none applies:

- *naked single*: a cell item with one option left. The digit is placed, and removed from
  the words of the cell's peers (the other options on the items it covers);
- *hidden single*: a (unit, digit) item with one option left, found for a whole unit at
  once by two running ORs of its words (digits seen once and seen twice). A digit seen
  nowhere in a unit is an item with no option: a dead end;
- *locked candidates*: when two units share two or more cells and every option of a
  digit in one of them lies in the shared cells, the digit leaves the other unit's other
  cells (the options there would leave the first item uncovered). This is not a single
  item's deduction, but it prunes many branches on hard puzzles at a small cost.

Hidden singles and locked candidates are looked for only in the units whose words
changed since their last look: every change marks the units of its cell in two 64-bit
words (so a board has at most 128 units; 35x35 with diagonals has 107).

When nothing more follows, the search branches on the cell with the fewest digits left
(stopping at once on two). Each level of the explicit stack holds a copy of the words
(``N*N`` 64-bit words), so backing up costs a copy and no undoing; the last digit of a cell
is tried in place, without a copy. The depth is at most the number of cells, since every
level places at least one digit. The digits of a cell are tried from the lowest, or in
a random order (xorshift) when a run is given a seed: the generator's random grids.

A placed cell keeps its digit's bit and gets the flag bit ``PLACED`` (bit 63; boards have at
most 35 digits). Two equal givens in a unit, or any contradiction while propagating, end
the puzzle or the branch: no solution there.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

cdef extern from "Python.h":
    # Runs the Python signal handlers; -1 with their exception set when one raised.
    int check_signals "PyErr_CheckSignals" () noexcept

from excover._portable cimport ctz64 as lowest, popcount64 as popcount


cdef enum:
    # The result of a search interrupted by Ctrl-C: the signal handler's exception is set.
    INTERRUPTED = -2
    # How many branchings pass between two looks at Ctrl-C.
    CHECK_EVERY = 4096
    # The most digits a board may have: one bit each below the flag bit.
    MAX_VALUES = 63

# The flag of a placed cell in its word.
cdef uint64_t PLACED = (<uint64_t>1) << 63


@cython.final
cdef class GridSolver:
    """The rules of a grid puzzle: ``n_cells`` cells taking values ``1..n_values``, and
    units of ``n_values`` cells each holding every value once.

    ``units`` is a sequence of sequences of cell numbers. With ``locked`` (the default)
    the propagation also uses locked candidates; without, only naked and hidden singles.
    """

    cdef int32_t n_cells, n_values, n_units, n_segments
    cdef bint locked
    cdef uint64_t full
    cdef long ticks  # branchings so far, over all puzzles: paces the looks at Ctrl-C
    cdef uint64_t random  # xorshift state for the order of digits; 0: lowest first
    cdef int64_t branchings  # branchings of the current puzzle
    cdef int32_t *unit_cell  # n_units * n_values: the cells of each unit
    cdef int32_t *peer_start  # n_cells + 1 offsets into peer
    cdef int32_t *peer
    cdef int32_t *segment_start  # 3 * n_segments + 1 offsets into segment_cell
    cdef int32_t *segment_cell
    cdef uint64_t *states  # (n_cells + 1) * n_cells: the words of each level
    cdef int32_t *unplaced  # per level: cells not placed yet
    cdef int32_t *branch_cell  # per level: the cell branched on
    cdef uint64_t *branch_left  # per level: its digits not tried yet
    cdef int32_t *queue  # cells with one digit left, not placed yet
    # Sets of units are two words: unit u is bit u % 64 of word u // 64.
    cdef uint64_t *cell_units  # 2 * n_cells: the units of each cell
    cdef uint64_t *segment_units  # 2 * n_segments: the two units of each segment
    cdef uint64_t dirty[2]  # units whose words changed since their last look for singles
    cdef uint64_t dirty_locked[2]  # ... since their last look for locked candidates
    cdef uint64_t all_units[2]

    def __cinit__(self, int n_cells, int n_values, units, bint locked=True):
        cdef int32_t k, j
        if not 1 <= n_values <= MAX_VALUES:
            raise ValueError(f"n_values must be in 1..{MAX_VALUES}")
        unit_lists = [list(unit) for unit in units]
        if len(unit_lists) > 128:
            raise ValueError("at most 128 units")
        for unit in unit_lists:
            if len(unit) != n_values or len(set(unit)) != n_values:
                raise ValueError(f"a unit must have {n_values} distinct cells: {unit}")
            if not all(0 <= cell < n_cells for cell in unit):
                raise ValueError(f"a unit names a cell outside 0..{n_cells - 1}: {unit}")
        peers = [set() for _ in range(n_cells)]
        for unit in unit_lists:
            for cell in unit:
                peers[cell].update(unit)
        for cell in range(n_cells):
            peers[cell].discard(cell)
        segments = []  # (shared cells, rest of the first unit, rest of the second)
        pairs = []  # the two units of each segment
        for k in range(len(unit_lists)):
            for j in range(k + 1, len(unit_lists)):
                shared = set(unit_lists[k]) & set(unit_lists[j])
                if len(shared) >= 2:
                    pairs.append((k, j))
                    segments.append(
                        [sorted(shared), sorted(set(unit_lists[k]) - shared),
                         sorted(set(unit_lists[j]) - shared)]
                    )
        self.n_cells, self.n_values = n_cells, n_values
        self.n_units, self.n_segments = len(unit_lists), len(segments)
        for k in range(self.n_units):
            self.all_units[k // 64] |= (<uint64_t>1) << (k % 64)
        self.locked = locked
        self.full = ((<uint64_t>1) << n_values) - 1
        n_peers = sum(len(p) for p in peers)
        n_segment_cells = sum(len(part) for segment in segments for part in segment)
        self.unit_cell = <int32_t*>malloc((self.n_units * n_values + 1) * sizeof(int32_t))
        self.peer_start = <int32_t*>malloc((n_cells + 1) * sizeof(int32_t))
        self.peer = <int32_t*>malloc((n_peers + 1) * sizeof(int32_t))
        self.segment_start = <int32_t*>malloc((3 * self.n_segments + 1) * sizeof(int32_t))
        self.segment_cell = <int32_t*>malloc((n_segment_cells + 1) * sizeof(int32_t))
        self.states = <uint64_t*>malloc((n_cells + 1) * n_cells * sizeof(uint64_t) + 8)
        self.unplaced = <int32_t*>malloc((n_cells + 1) * sizeof(int32_t))
        self.branch_cell = <int32_t*>malloc((n_cells + 1) * sizeof(int32_t))
        self.branch_left = <uint64_t*>malloc((n_cells + 1) * sizeof(uint64_t))
        self.queue = <int32_t*>malloc((n_cells + 1) * sizeof(int32_t))
        self.cell_units = <uint64_t*>calloc(2 * n_cells + 2, sizeof(uint64_t))
        self.segment_units = <uint64_t*>calloc(2 * self.n_segments + 2, sizeof(uint64_t))
        if (not self.unit_cell or not self.peer_start or not self.peer
                or not self.segment_start or not self.segment_cell or not self.states
                or not self.unplaced or not self.branch_cell or not self.branch_left
                or not self.queue or not self.cell_units or not self.segment_units):
            raise MemoryError()
        k = 0
        for unit in unit_lists:
            for cell in unit:
                self.unit_cell[k] = cell
                k += 1
        k = 0
        for cell in range(n_cells):
            self.peer_start[cell] = k
            for other in sorted(peers[cell]):
                self.peer[k] = other
                k += 1
        self.peer_start[n_cells] = k
        k = 0
        j = 0
        for segment in segments:
            for part in segment:
                self.segment_start[j] = k
                j += 1
                for cell in part:
                    self.segment_cell[k] = cell
                    k += 1
        self.segment_start[j] = k
        for k in range(self.n_segments):
            for j in pairs[k]:
                self.segment_units[2 * k + j // 64] |= (<uint64_t>1) << (j % 64)
        for j in range(self.n_units):
            for cell in unit_lists[j]:
                self.cell_units[2 * cell + j // 64] |= (<uint64_t>1) << (j % 64)

    def __dealloc__(self):
        free(self.unit_cell)
        free(self.peer_start)
        free(self.peer)
        free(self.segment_start)
        free(self.segment_cell)
        free(self.states)
        free(self.unplaced)
        free(self.branch_cell)
        free(self.branch_left)
        free(self.queue)
        free(self.cell_units)
        free(self.segment_units)

    cdef inline void touch(self, int32_t cell) noexcept:
        """Mark the units of ``cell`` for another look: its word changed."""
        self.dirty[0] |= self.cell_units[2 * cell]
        self.dirty[1] |= self.cell_units[2 * cell + 1]
        self.dirty_locked[0] |= self.cell_units[2 * cell]
        self.dirty_locked[1] |= self.cell_units[2 * cell + 1]

    cdef inline int32_t eliminate(self, uint64_t *s, const int32_t *cells, int32_t count,
                                  uint64_t digits, int32_t n_queue) noexcept:
        """Remove ``digits`` from the words of ``cells`` (none of them placed), queueing
        the cells left with one digit: the new queue length, or -1 on a cell left empty."""
        cdef int32_t j, cell
        cdef uint64_t w
        for j in range(count):
            cell = cells[j]
            w = s[cell]
            if w & digits:
                w &= ~digits
                s[cell] = w
                if w == 0:
                    return -1
                self.touch(cell)
                if w & (w - 1) == 0:
                    self.queue[n_queue] = cell
                    n_queue += 1
        return n_queue

    cdef inline int32_t hidden_singles(self, uint64_t *s, int32_t u, int32_t n_queue) noexcept:
        """Place the digits that have one cell left in unit ``u``, queueing those cells:
        the new queue length, or -1 when a digit has no cell left."""
        cdef int32_t n = self.n_values, j
        cdef int32_t *cells = self.unit_cell + u * n
        cdef uint64_t once = 0, twice = 0, placed = 0, w, bit, hidden
        for j in range(n):
            w = s[cells[j]]
            bit = <uint64_t>0 - (w >> 63)  # all ones on a placed cell
            placed |= w & bit
            w &= ~bit
            twice |= once & w
            once |= w
        if (once | placed) & self.full != self.full:
            return -1
        hidden = once & ~twice
        while hidden:
            bit = hidden & (~hidden + 1)
            hidden ^= bit
            for j in range(n):
                w = s[cells[j]]
                if w & bit:
                    if w != bit:  # else queued already, by another unit
                        s[cells[j]] = bit
                        self.touch(cells[j])
                        self.queue[n_queue] = cells[j]
                        n_queue += 1
                    break
        return n_queue

    cdef bint propagate(self, uint64_t *s, int32_t n_queue, int32_t *left) noexcept:
        """Apply the deductions until none is left, starting with the ``n_queue`` queued
        cells (whose units the caller marked dirty); ``left`` counts the unplaced cells
        down. False on a contradiction.

        Only the units marked dirty are looked at for hidden singles and locked
        candidates: the words of the others did not change since their last look, which
        found nothing (every level's words are a fixed point before the search branches).
        """
        cdef int32_t *queue = self.queue
        cdef int32_t *peer = self.peer
        cdef int32_t *peer_start = self.peer_start
        cdef int32_t *start
        cdef int32_t cell, other, j, g, half
        cdef uint64_t full = self.full, v, w, bit, todo
        cdef uint64_t check0, check1
        cdef uint64_t shared, rest_a, rest_b
        cdef bint changed
        while True:
            while n_queue > 0:  # naked singles: place, and clear the digit from the peers
                n_queue -= 1
                cell = queue[n_queue]
                v = s[cell]
                s[cell] = v | PLACED
                left[0] -= 1
                for j in range(peer_start[cell], peer_start[cell + 1]):
                    other = peer[j]
                    w = s[other]
                    if w & v:
                        w &= ~v
                        s[other] = w
                        if w & full == 0:  # an empty cell, or a placed peer had the digit
                            return False
                        self.touch(other)
                        if w & (w - 1) == 0:
                            queue[n_queue] = other
                            n_queue += 1
            if left[0] == 0:
                return True
            for half in range(2):  # hidden singles, in the units marked dirty
                todo = self.dirty[half]
                self.dirty[half] = 0
                while todo:
                    bit = todo & (~todo + 1)
                    todo ^= bit
                    n_queue = self.hidden_singles(s, 64 * half + lowest(bit), n_queue)
                    if n_queue < 0:
                        return False
            if n_queue > 0:
                continue
            if not self.locked:
                return True
            changed = False
            check0 = self.dirty_locked[0]
            check1 = self.dirty_locked[1]
            self.dirty_locked[0] = 0
            self.dirty_locked[1] = 0
            for g in range(self.n_segments):  # locked candidates
                if not (self.segment_units[2 * g] & check0
                        or self.segment_units[2 * g + 1] & check1):
                    continue
                start = self.segment_start + 3 * g
                shared = 0
                rest_a = 0
                rest_b = 0
                for j in range(start[0], start[1]):
                    shared |= s[self.segment_cell[j]]
                for j in range(start[1], start[2]):
                    rest_a |= s[self.segment_cell[j]]
                for j in range(start[2], start[3]):
                    rest_b |= s[self.segment_cell[j]]
                shared &= full
                v = shared & ~rest_a & rest_b  # confined to the shared cells in unit a
                w = shared & ~rest_b & rest_a  # confined to the shared cells in unit b
                if v:
                    n_queue = self.eliminate(s, self.segment_cell + start[2],
                                             start[3] - start[2], v, n_queue)
                if w and n_queue >= 0:
                    n_queue = self.eliminate(s, self.segment_cell + start[1],
                                             start[2] - start[1], w, n_queue)
                if n_queue < 0:
                    return False
                if v or w:
                    changed = True
            if not changed:
                return True

    cdef int32_t choose(self, const uint64_t *s) noexcept:
        """The unplaced cell with the fewest digits left (the first with two)."""
        cdef int32_t cell, best = -1, fewest = MAX_VALUES + 1, k
        cdef uint64_t w
        for cell in range(self.n_cells):
            w = s[cell]
            if not w & PLACED:
                k = popcount(w)
                if k < fewest:
                    best = cell
                    fewest = k
                    if k == 2:
                        break
        return best

    cdef uint64_t pick(self, uint64_t digits) noexcept:
        """A digit of ``digits`` (at least one) drawn at random: Marsaglia's xorshift64."""
        cdef uint64_t x = self.random
        cdef int32_t k
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
        self.random = x
        for k in range(<int32_t>(x % <uint64_t>popcount(digits))):
            digits &= digits - 1
        return digits & (~digits + 1)

    cdef int search(self, int limit, uint8_t *out) noexcept:
        """Count the solutions below the propagated words of level 0, up to ``limit``,
        writing the first into ``out``. Returns the count, or INTERRUPTED when the Ctrl-C
        handler raised (its exception is then set, for the caller to pass on)."""
        cdef int32_t level = 0, target, cell, n = self.n_cells, k
        cdef uint64_t *s = self.states
        cdef uint64_t *child
        cdef uint64_t left, bit
        cdef int count = 0
        while True:
            # Enter the level: a solution, or a branch on the tightest cell.
            s = self.states + level * n
            if self.unplaced[level] == 0:
                count += 1
                if count == 1:
                    for k in range(n):
                        out[k] = <uint8_t>(lowest(s[k] & self.full) + 1)
                if count >= limit:
                    return count
                self.branch_left[level] = 0
            else:
                self.ticks += 1
                self.branchings += 1
                if self.ticks % CHECK_EVERY == 0 and check_signals() != 0:
                    return INTERRUPTED
                cell = self.choose(s)
                self.branch_cell[level] = cell
                self.branch_left[level] = s[cell]
            # Try the next digit at the deepest level that has one left.
            while True:
                left = self.branch_left[level]
                if left == 0:
                    if level == 0:
                        return count
                    level -= 1
                    continue
                bit = left & (~left + 1)
                if self.random:
                    bit = self.pick(left)
                left ^= bit
                self.branch_left[level] = left
                s = self.states + level * n
                cell = self.branch_cell[level]
                if left:
                    target = level + 1
                    child = s + n
                    memcpy(child, s, n * sizeof(uint64_t))
                else:  # the last digit: no need to keep this level's words
                    target = level
                    child = s
                self.unplaced[target] = self.unplaced[level]
                child[cell] = bit
                self.queue[0] = cell
                self.dirty[0] = self.dirty[1] = 0
                self.dirty_locked[0] = self.dirty_locked[1] = 0
                self.touch(cell)
                if self.propagate(child, 1, &self.unplaced[target]):
                    level = target
                    break

    cdef int solve_one(self, const uint8_t *grid, int limit, uint8_t *out) except -2:
        """Set the givens of ``grid``, propagate and search: the count up to ``limit``
        (0 when givens clash), the first solution in ``out``. Raises what the Ctrl-C
        handler raised."""
        cdef int32_t cell, n_queue = 0
        cdef uint64_t *s = self.states
        self.branchings = 0
        for cell in range(self.n_cells):
            if grid[cell] == 0:
                s[cell] = self.full
            else:
                s[cell] = (<uint64_t>1) << (grid[cell] - 1)
                self.queue[n_queue] = cell
                n_queue += 1
        self.unplaced[0] = self.n_cells
        self.dirty[0] = self.dirty_locked[0] = self.all_units[0]
        self.dirty[1] = self.dirty_locked[1] = self.all_units[1]
        if not self.propagate(s, n_queue, &self.unplaced[0]):
            return 0
        return self.search(limit, out)

    def run(self, const uint8_t[:] grids, int limit, uint8_t[:] out, int32_t[:] counts,
            int64_t[:] branchings=None, uint64_t seed=0):
        """Solve the puzzles of ``grids`` (``n_cells`` values each, 0 for a blank) in turn.

        ``counts[p]`` gets the number of solutions of puzzle ``p`` up to ``limit`` and
        ``out`` its first solution (left as is when there is none); ``branchings[p]``,
        when given, the number of branchings its search made (0: propagation alone
        solved it, or refuted it). A nonzero ``seed`` makes the search try the digits of
        a cell in a random order (so the first solution of an empty board is a random
        grid); 0 tries them from the lowest. Values must be in ``0..n_values`` (checked before any
        search). Ctrl-C raises KeyboardInterrupt, ``counts`` and ``out`` filled for the
        puzzles before.
        """
        cdef Py_ssize_t n_puzzles, p, k
        if limit < 1:
            raise ValueError("limit must be at least 1")
        n_puzzles = grids.shape[0] // self.n_cells
        if grids.shape[0] != n_puzzles * self.n_cells or out.shape[0] != grids.shape[0]:
            raise ValueError("grids and out must hold n_cells values per puzzle")
        if counts.shape[0] != n_puzzles:
            raise ValueError("counts must hold one entry per puzzle")
        if branchings is not None and branchings.shape[0] != n_puzzles:
            raise ValueError("branchings must hold one entry per puzzle")
        for k in range(grids.shape[0]):
            if grids[k] > self.n_values:
                raise ValueError(f"value {grids[k]} out of range in puzzle {k // self.n_cells}")
        self.random = seed
        for p in range(n_puzzles):
            counts[p] = self.solve_one(&grids[p * self.n_cells], limit, &out[p * self.n_cells])
            if branchings is not None:
                branchings[p] = self.branchings
