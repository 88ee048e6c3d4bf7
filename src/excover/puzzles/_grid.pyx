# cython: language_level=3
"""A dancing-links solver for grid puzzles whose cover is fixed and whose givens vary.

A Sudoku board of side ``N`` is one exact cover, whatever the puzzle: option ``cell*N + d``
puts digit ``d+1`` in ``cell`` and covers that cell, the digit in its row, in its column
and in its box (and in its diagonals or jigsaw region for the variants). A puzzle only
says which options its givens force. So this module builds the dancing links of the
cover once and, for each puzzle of a batch, *covers* the items of each given option,
searches, and uncovers them again in reverse order: the links are back exactly as they
were, ready for the next puzzle, and nothing is ever rebuilt.

The data structure is Knuth's DLX (TAOCP 7.2.2.1) with every item primary. Items
``0..M-1`` have header nodes ``0..M-1``, whose ``top`` field holds the length of their
vertical list; the active items form a circular list through ``ileft``/``iright`` with the
root ``M``. Option nodes follow the headers, the nodes of one option consecutive and
linked in a circle by ``right``/``left``, and ``node_option`` names each node's option.
Covering an item unlinks it from the active list and hides each option in its vertical
list (every other node of the option leaves its item's list); uncovering undoes the same
steps in reverse. The search chooses the active item with the fewest options (stopping
at once on 0 or 1) and keeps its choices on an explicit stack, so it never recurses.

A given clashes with the givens before it when one of its items is already covered (two
equal digits in a line, or two givens in one cell): the puzzle then has no solution, and
only the givens covered so far are undone.
"""

from libc.stdint cimport int32_t, uint8_t
from libc.stdlib cimport free, malloc

cdef extern from "Python.h":
    # Runs the Python signal handlers; -1 with their exception set when one raised. Declared
    # without an exception value so that the search unwinds its links before passing it on.
    int check_signals "PyErr_CheckSignals" () noexcept


cdef enum:
    # The result of a search interrupted by Ctrl-C: the signal handler's exception is set.
    INTERRUPTED = -2
    # How many search nodes pass between two looks at Ctrl-C.
    CHECK_EVERY = 65536


cdef class GridCover:
    """The fixed cover of a grid puzzle: ``n_cells * n_values`` options over ``n_items``.

    Option ``cell * n_values + d`` (digit ``d + 1`` in ``cell``) covers the items
    ``node_item[option_start[k]:option_start[k+1]]``; every item is primary.
    """

    cdef int32_t n_cells, n_values, n_items, n_options, n_nodes
    cdef long ticks  # search nodes so far, over all puzzles: paces the looks at Ctrl-C
    cdef int32_t *ulink
    cdef int32_t *dlink
    cdef int32_t *top
    cdef int32_t *left
    cdef int32_t *right
    cdef int32_t *node_option
    cdef int32_t *option_first
    cdef int32_t *ileft
    cdef int32_t *iright
    cdef int32_t *choice
    cdef int32_t *forced
    cdef uint8_t *active

    def __cinit__(self, int n_cells, int n_values, int n_items, option_start, node_item):
        cdef int32_t m = n_items, k, j, x, i, first, last
        cdef int32_t n_options = n_cells * n_values
        if len(option_start) != n_options + 1:
            raise ValueError("option_start must have n_cells * n_values + 1 entries")
        self.n_cells, self.n_values, self.n_items = n_cells, n_values, n_items
        self.n_options = n_options
        self.n_nodes = m + len(node_item)
        total = self.n_nodes
        self.ulink = <int32_t*>malloc(total * sizeof(int32_t))
        self.dlink = <int32_t*>malloc(total * sizeof(int32_t))
        self.top = <int32_t*>malloc(total * sizeof(int32_t))
        self.left = <int32_t*>malloc(total * sizeof(int32_t))
        self.right = <int32_t*>malloc(total * sizeof(int32_t))
        self.node_option = <int32_t*>malloc(total * sizeof(int32_t))
        self.option_first = <int32_t*>malloc((n_options + 1) * sizeof(int32_t))
        self.ileft = <int32_t*>malloc((m + 1) * sizeof(int32_t))
        self.iright = <int32_t*>malloc((m + 1) * sizeof(int32_t))
        self.choice = <int32_t*>malloc((m + 1) * sizeof(int32_t))
        self.forced = <int32_t*>malloc((n_cells + 1) * sizeof(int32_t))
        self.active = <uint8_t*>malloc((m + 1) * sizeof(uint8_t))
        if (not self.ulink or not self.dlink or not self.top or not self.left
                or not self.right or not self.node_option or not self.option_first
                or not self.ileft or not self.iright or not self.choice
                or not self.forced or not self.active):
            raise MemoryError()
        for i in range(m + 1):
            self.ileft[i] = i - 1 if i > 0 else m
            self.iright[i] = i + 1 if i < m else 0
            self.active[i] = 1
        for i in range(m):
            self.ulink[i] = i
            self.dlink[i] = i
            self.top[i] = 0
        for k in range(n_options):
            first = m + option_start[k]
            last = m + option_start[k + 1] - 1
            self.option_first[k] = first
            if last < first:
                raise ValueError(f"option {k} has no items")
            for x in range(first, last + 1):
                i = node_item[x - m]
                if not 0 <= i < m:
                    raise ValueError(f"option {k} names item {i}, not in 0..{m - 1}")
                self.node_option[x] = k
                self.left[x] = x - 1 if x > first else last
                self.right[x] = x + 1 if x < last else first
                self.top[x] = i
                self.ulink[x] = self.ulink[i]
                self.dlink[x] = i
                self.dlink[self.ulink[i]] = x
                self.ulink[i] = x
                self.top[i] += 1
        self.option_first[n_options] = self.n_nodes

    def __dealloc__(self):
        free(self.ulink)
        free(self.dlink)
        free(self.top)
        free(self.left)
        free(self.right)
        free(self.node_option)
        free(self.option_first)
        free(self.ileft)
        free(self.iright)
        free(self.choice)
        free(self.forced)
        free(self.active)

    cdef inline void cover(self, int32_t i) noexcept:
        cdef int32_t x, y, u, d
        cdef int32_t *ulink = self.ulink
        cdef int32_t *dlink = self.dlink
        cdef int32_t *top = self.top
        cdef int32_t *right = self.right
        self.iright[self.ileft[i]] = self.iright[i]
        self.ileft[self.iright[i]] = self.ileft[i]
        self.active[i] = 0
        x = dlink[i]
        while x != i:
            y = right[x]
            while y != x:
                u = ulink[y]
                d = dlink[y]
                dlink[u] = d
                ulink[d] = u
                top[top[y]] -= 1
                y = right[y]
            x = dlink[x]

    cdef inline void uncover(self, int32_t i) noexcept:
        cdef int32_t x, y
        cdef int32_t *ulink = self.ulink
        cdef int32_t *dlink = self.dlink
        cdef int32_t *top = self.top
        cdef int32_t *left = self.left
        x = ulink[i]
        while x != i:
            y = left[x]
            while y != x:
                dlink[ulink[y]] = y
                ulink[dlink[y]] = y
                top[top[y]] += 1
                y = left[y]
            x = ulink[x]
        self.iright[self.ileft[i]] = i
        self.ileft[self.iright[i]] = i
        self.active[i] = 1

    cdef inline void cover_rest(self, int32_t x) noexcept:
        """Cover the items of ``x``'s option other than ``x``'s own, left to right."""
        cdef int32_t y = self.right[x]
        while y != x:
            self.cover(self.top[y])
            y = self.right[y]

    cdef inline void uncover_rest(self, int32_t x) noexcept:
        cdef int32_t y = self.left[x]
        while y != x:
            self.uncover(self.top[y])
            y = self.left[y]

    cdef inline void write(self, int32_t level, int32_t n_forced, uint8_t *out) noexcept:
        """Write the givens and the options chosen at levels ``0..level-1`` into ``out``."""
        cdef int32_t k, option
        for k in range(n_forced):
            option = self.forced[k]
            out[option // self.n_values] = <uint8_t>(option % self.n_values + 1)
        for k in range(level):
            option = self.node_option[self.choice[k]]
            out[option // self.n_values] = <uint8_t>(option % self.n_values + 1)

    cdef int search(self, int limit, int32_t n_forced, uint8_t *out) noexcept:
        """Count the solutions up to ``limit``, writing the first into ``out``; the links
        are restored on return. Returns the count, or INTERRUPTED when the Ctrl-C handler
        raised (its exception is then set, for the caller to pass on)."""
        cdef int32_t root = self.n_items, level = 0, i, best, length, x
        cdef int32_t *iright = self.iright
        cdef int32_t *top = self.top
        cdef int count = 0
        while True:
            # Enter a level: a solution, a dead end, or a branch on the tightest item.
            if iright[root] == root:
                count += 1
                if count == 1:
                    self.write(level, n_forced, out)
                if count >= limit:
                    break
                x = -1
            else:
                self.ticks += 1
                if self.ticks % CHECK_EVERY == 0 and check_signals() != 0:
                    count = INTERRUPTED
                    break
                best = iright[root]
                length = top[best]
                i = iright[best]
                while length > 1 and i != root:
                    if top[i] < length:
                        best = i
                        length = top[i]
                    i = iright[i]
                if length == 0:
                    x = -1
                else:
                    self.cover(best)
                    x = self.dlink[best]
                    self.choice[level] = x
                    self.cover_rest(x)
                    level += 1
                    continue
            # Back up: try the next option at the deepest level that has one.
            while True:
                if level == 0:
                    return count
                level -= 1
                x = self.choice[level]
                self.uncover_rest(x)
                x = self.dlink[x]
                if x >= self.n_items:
                    self.choice[level] = x
                    self.cover_rest(x)
                    level += 1
                    break
                self.uncover(x)
        # Stopped early: unwind every level.
        while level > 0:
            level -= 1
            x = self.choice[level]
            self.uncover_rest(x)
            self.uncover(self.top[x])
        return count

    cdef int solve_one(self, const uint8_t *grid, int limit, uint8_t *out) except -2:
        """Cover the givens of ``grid``, search, uncover them: the count up to ``limit``
        (0 when two givens clash), the first solution in ``out``. Raises what the Ctrl-C
        handler raised, with the links restored."""
        cdef int32_t cell, option, n_forced = 0, k, x, y
        cdef int result = 0
        cdef bint clash = False
        for cell in range(self.n_cells):
            if grid[cell] == 0:
                continue
            option = cell * self.n_values + grid[cell] - 1
            x = self.option_first[option]
            y = x
            while True:
                if not self.active[self.top[y]]:
                    clash = True
                    break
                y = self.right[y]
                if y == x:
                    break
            if clash:
                break
            self.forced[n_forced] = option
            n_forced += 1
            self.cover(self.top[x])
            self.cover_rest(x)
        if not clash:
            result = self.search(limit, n_forced, out)
        for k in range(n_forced - 1, -1, -1):
            x = self.option_first[self.forced[k]]
            self.uncover_rest(x)
            self.uncover(self.top[x])
        return result

    def run(self, const uint8_t[:] grids, int limit, uint8_t[:] out, int32_t[:] counts):
        """Solve the puzzles of ``grids`` (``n_cells`` values each, 0 for a blank) in turn.

        ``counts[p]`` gets the number of solutions of puzzle ``p`` up to ``limit`` and
        ``out`` its first solution (left as is when there is none). Values must be in
        ``0..n_values`` (checked before any search). Ctrl-C raises KeyboardInterrupt, the
        links restored, ``counts`` and ``out`` filled for the puzzles before.
        """
        cdef Py_ssize_t n_puzzles, p, k
        if limit < 1:
            raise ValueError("limit must be at least 1")
        n_puzzles = grids.shape[0] // self.n_cells
        if grids.shape[0] != n_puzzles * self.n_cells or out.shape[0] != grids.shape[0]:
            raise ValueError("grids and out must hold n_cells values per puzzle")
        if counts.shape[0] != n_puzzles:
            raise ValueError("counts must hold one entry per puzzle")
        for k in range(grids.shape[0]):
            if grids[k] > self.n_values:
                raise ValueError(f"value {grids[k]} out of range in puzzle {k // self.n_cells}")
        for p in range(n_puzzles):
            counts[p] = self.solve_one(
                &grids[p * self.n_cells], limit, &out[p * self.n_cells]
            )
