# Part of ``_core.pyx`` (pasted in by ``include``): ``ColourCore``, the colour core.
#
# **ColourCore** propagates, probes and searches as ``Core`` does, with what more values
# need: a cell may lose values a few at a time, so the trail keeps each narrowed cell
# with its value before (undoing restores it); probing tries every value a cell still
# has, removes the values whose branch fails and keeps, for every cell narrowed in all
# the branches that succeed, the union of its values there; and the search tries the
# values of its branching cell one after the other. There is no cache of line states.
# ``excover.nonogram.search`` picks this class only for puzzles with a palette. The
# queue, the statistics, the search loop and the probing rounds are ``LineCore``'s.


cdef class ColourCore(LineCore):
    """A colour nonogram being solved: grid of value sets, trail, search stack.

    ``lengths`` and ``colours`` hold the blocks of every line end to end, rows then
    columns (colours are values 1 .. ``n_values - 1``), and ``clue_start`` (``height +
    width + 1`` entries) where each line's blocks begin. Its ``restart``,
    ``next_solution`` and ``propagate_only`` are :class:`LineCore`'s, as ``Core``'s are."""

    cdef int n_values
    cdef uint32_t full
    cdef int32_t *lengths
    cdef int32_t *colours
    cdef uint32_t *grid
    cdef int32_t *trail_cell
    cdef uint32_t *trail_old
    cdef uint32_t *line_in
    cdef uint32_t *line_out
    cdef ColourScratch scratch
    # Probing: per cell, the probe and branch that last touched it, how many of the
    # probe's successful branches narrowed it, and the union of its values there.
    cdef int64_t *probe_mark
    cdef int64_t *branch_mark
    cdef int32_t *seen_count
    cdef uint32_t *seen_union
    cdef int32_t *touched
    cdef int64_t *score
    cdef uint32_t *first_value
    # Search stack: the values left to try at each level.
    cdef uint32_t *stack_left

    def __cinit__(self, int height, int width, int n_values, lengths, colours, clue_start):
        cdef int l, total = len(lengths), trail_size
        self.set_shape(height, width, MAX_CELLS // 32, "a colour nonogram")
        if n_values < 2 or n_values > 32:
            raise ValueError("a colour nonogram has 1 to 31 colours besides white")
        if len(lengths) != len(colours):
            raise ValueError("lengths and colours must have one entry per block")
        self.set_lines(clue_start, total, "lengths")
        self.n_values = n_values
        self.full = <uint32_t> ((<uint64_t> 1 << n_values) - 1)
        self.lengths = <int32_t *> self.alloc(total + 1, sizeof(int32_t))
        self.colours = <int32_t *> self.alloc(total + 1, sizeof(int32_t))
        for l in range(total):
            self.lengths[l] = lengths[l]
            self.colours[l] = colours[l]
            if self.lengths[l] < 1:
                raise ValueError("every block needs at least one cell")
            if self.colours[l] < 1 or self.colours[l] >= n_values:
                raise ValueError(f"block colours are 1 to {n_values - 1}")
        trail_size = self.n_cells * n_values + 1
        self.grid = <uint32_t *> self.alloc(self.n_cells, sizeof(uint32_t))
        self.trail_cell = <int32_t *> self.alloc(trail_size, sizeof(int32_t))
        self.trail_old = <uint32_t *> self.alloc(trail_size, sizeof(uint32_t))
        self.line_in = <uint32_t *> self.alloc(self.longest, sizeof(uint32_t))
        self.line_out = <uint32_t *> self.alloc(self.longest, sizeof(uint32_t))
        self.probe_mark = <int64_t *> self.alloc(self.n_cells, sizeof(int64_t))
        self.branch_mark = <int64_t *> self.alloc(self.n_cells, sizeof(int64_t))
        self.seen_count = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
        self.seen_union = <uint32_t *> self.alloc(self.n_cells, sizeof(uint32_t))
        self.touched = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
        self.score = <int64_t *> self.alloc(self.n_cells, sizeof(int64_t))
        self.first_value = <uint32_t *> self.alloc(self.n_cells, sizeof(uint32_t))
        self.stack_left = <uint32_t *> self.alloc(self.n_cells, sizeof(uint32_t))
        alloc_colour_scratch(&self.scratch, self.memory, n_values, self.largest, self.longest)
        self.restart()

    cdef void reset_cells(self) noexcept:
        """Every cell may take every value."""
        cdef int cell
        for cell in range(self.n_cells):
            self.grid[cell] = self.full

    cdef inline void narrow(self, int cell, uint32_t value) noexcept:
        """Narrow ``cell`` to ``value`` (a proper, non-empty subset of its values), on
        the trail; its row and column become dirty."""
        cdef uint32_t old = self.grid[cell]
        self.trail_cell[self.trail_len] = cell
        self.trail_old[self.trail_len] = old
        self.trail_len += 1
        if several(old) and not several(value):
            self.unknown -= 1
        self.grid[cell] = value
        self.enqueue_lines_of(cell)

    cdef inline void undo(self, int mark) noexcept:
        """Give back the values the cells lost after ``mark``."""
        cdef int cell
        cdef uint32_t old
        while self.trail_len > mark:
            self.trail_len -= 1
            cell = self.trail_cell[self.trail_len]
            old = self.trail_old[self.trail_len]
            if several(old) and not several(self.grid[cell]):
                self.unknown += 1
            self.grid[cell] = old

    cdef int propagate(self) except -1:
        """Solve dirty lines until none is left: 1 at the fixpoint, 0 on a contradiction
        (the queue is then emptied; the caller undoes the trail)."""
        cdef int line, i, n, first, step, cell
        cdef uint32_t value
        while self.queue_count:
            line = self.next_line()
            n = self.line_span(line, &first, &step)
            for i in range(n):
                self.line_in[i] = self.grid[first + i * step]
            if not solve_colour_line(
                n, self.lengths + self.clue_start[line], self.colours + self.clue_start[line],
                self.blocks_of(line), self.n_values,
                self.line_in, self.line_out, &self.scratch,
            ):
                self.clear_queue()
                return 0
            for i in range(n):
                value = self.line_out[i]
                if value != self.line_in[i]:
                    cell = first + i * step
                    self.trail_cell[self.trail_len] = cell
                    self.trail_old[self.trail_len] = self.line_in[i]
                    self.trail_len += 1
                    if several(self.line_in[i]) and not several(value):
                        self.unknown -= 1
                    self.grid[cell] = value
                    self.enqueue_crossing(line, i)
        return 1

    cdef int try_value(self, int cell, uint32_t value) except -1:
        """Narrow ``cell`` to ``value`` and propagate; 1, or 0 on a contradiction."""
        self.narrow(cell, value)
        return self.propagate()

    cdef int probe(self) except -1:
        """Probe every undecided cell, value by value, round after round until nothing
        changes (at the root; one round below it): 1, or 0 when the grid has no
        solution. Scores go to ``score``, the value to try first to ``first_value``."""
        cdef bint one_round = self.depth != 0
        return probe_rounds(self, one_round, False)

    cdef inline int probe_cell(self, int cell, bint near_only) except -1:
        """:meth:`probe_values` on ``cell`` if it is undecided, else ``PROBE_KEPT``."""
        if not several(self.grid[cell]):
            return PROBE_KEPT
        return self.probe_values(cell)

    cdef int probe_values(self, int cell) except -1:
        """Try each value the undecided ``cell`` still has, with propagation: the values
        whose branch fails go, and every cell narrowed in all the branches that succeed
        keeps only the union of its values there; when nothing changes, the cell's
        score (the product of one plus each branch's count of decided cells) and its
        value of fewest consequences are recorded. A ``PROBE_*`` outcome."""
        cdef int mark, t, idx, v, n_ok, n_touched, i
        cdef uint32_t values = self.grid[cell], bit, kept
        cdef int64_t decided, product, fewest, probe_id
        cdef bint changed
        self.probes += 1
        mark = self.trail_len
        self.stamp += 1
        probe_id = self.stamp
        n_ok = 0
        n_touched = 0
        product = 1
        fewest = -1
        for v in range(self.n_values):
            bit = (<uint32_t> 1) << v
            if not values & bit:
                continue
            self.stamp += 1
            if self.try_value(cell, bit):
                n_ok += 1
                decided = self.trail_len - mark
                if product < (<int64_t> 1 << 40):
                    product *= decided + 1
                if fewest < 0 or decided < fewest:
                    fewest = decided
                    self.first_value[cell] = bit
                for t in range(mark, self.trail_len):
                    idx = self.trail_cell[t]
                    if self.branch_mark[idx] == self.stamp:
                        continue
                    self.branch_mark[idx] = self.stamp
                    if self.probe_mark[idx] != probe_id:
                        self.probe_mark[idx] = probe_id
                        self.seen_count[idx] = 0
                        self.seen_union[idx] = 0
                        self.touched[n_touched] = idx
                        n_touched += 1
                    self.seen_count[idx] += 1
                    self.seen_union[idx] |= self.grid[idx]
            self.undo(mark)
        if n_ok == 0:
            return PROBE_FAILED
        changed = False
        for i in range(n_touched):
            idx = self.touched[i]
            if self.seen_count[idx] == n_ok:
                kept = self.seen_union[idx] & self.grid[idx]
                if kept != self.grid[idx]:
                    self.narrow(idx, kept)
                    changed = True
        if changed:
            return PROBE_CHANGED if self.propagate() else PROBE_FAILED
        self.score[cell] = product
        return PROBE_KEPT

    cdef int choose(self) noexcept:
        """The undecided cell with the best probing score."""
        cdef int cell, best = -1
        cdef int64_t best_score = -1
        for cell in range(self.n_cells):
            if several(self.grid[cell]) and self.score[cell] > best_score:
                best, best_score = cell, self.score[cell]
        return best

    cdef int backtrack(self) noexcept:
        """Go to the next untried branch: 1, or 0 when the tree is exhausted."""
        cdef int cell
        cdef uint32_t bit
        while self.depth:
            self.undo(self.stack_mark[self.depth - 1])
            self.clear_queue()
            if self.stack_left[self.depth - 1]:
                cell = self.stack_cell[self.depth - 1]
                bit = (<uint32_t> 1) << lowest(self.stack_left[self.depth - 1])
                self.stack_left[self.depth - 1] &= ~bit
                self.narrow(cell, bit)
                return 1
            self.depth -= 1
        return 0

    cdef void go_down(self, int settled, bint probing) noexcept:
        """Branch on the cell of best score, its value of fewest consequences first (or
        without probing on the first undecided cell, its smallest value first); the
        cell's other values are left for later."""
        cdef int cell
        cdef uint32_t first
        if probing:
            cell = self.choose()
            first = self.first_value[cell] & self.grid[cell]
            if not first:
                first = (<uint32_t> 1) << lowest(self.grid[cell])
        else:
            cell = 0
            while not several(self.grid[cell]):
                cell += 1
            first = (<uint32_t> 1) << lowest(self.grid[cell])
        self.stack_cell[self.depth] = cell
        self.stack_mark[self.depth] = self.trail_len
        self.stack_left[self.depth] = self.grid[cell] & ~first
        self.depth += 1
        self.narrow(cell, first)

    def grid_values(self):
        """The grid, one byte per cell row by row: the value of a decided cell (0 white,
        1.. the colours), 255 for a cell still open."""
        cdef bytearray out = bytearray(self.n_cells)
        cdef int cell
        for cell in range(self.n_cells):
            out[cell] = 255 if several(self.grid[cell]) else lowest(self.grid[cell])
        return bytes(out)

    def grid_sets(self):
        """The grid's value sets, one int per cell row by row (bit ``v`` for value
        ``v``)."""
        return [self.grid[cell] for cell in range(self.n_cells)]

