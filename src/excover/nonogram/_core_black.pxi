# Part of ``_core.pyx`` (pasted in by ``include``): ``Core``, the black-and-white core.
# The module docstring describes its propagation, line caches, probing, skipping of
# probes that still hold, search, restarts, decimation and beliefs; ``LineCore``
# (``_core_base.pxi``) holds the queue, the statistics and the loops it shares with the
# colour core.


# Multipliers of the cache's hash (Knuth's MMIX LCG and another odd 64-bit constant); the
# top 10 bits of the mixed key pick one of the CACHE_SLOTS slots.
cdef uint64_t MIX_LOW = 6364136223846793005
cdef uint64_t MIX_HIGH = 1442695040888963407
# The golden ratio's 64-bit constant (0x9E3779B97F4A7C15), seeding the search's generator;
# and the multiplier of xorshift64*.
cdef uint64_t GOLDEN = (<uint64_t> 0x9E3779B9 << 32) | <uint64_t> 0x7F4A7C15
cdef uint64_t STAR = 2685821657736338717


cdef struct Undo:
    # One entry of the probe log (see ``Core``): ``index`` >= 0 is a cell whose probe
    # record was overwritten (its old stamp, score and first value here, its old touched
    # lines in ``Core.undo_touched``); ``index`` < 0 is line ``~index``, whose old stamp
    # is ``stamp``.
    int32_t index
    uint8_t first
    int64_t stamp
    double score


cdef struct Marginals:
    # Scratch of ``Core.line_marginals``: the prior of each cell of the line, then what
    # it leaves: each cell's share of black, each block's shares of its starts, and the
    # forward and backward sums ((k + 1) rows of n + 2).
    double *prior
    double *black
    double *starts
    double *forward
    double *backward


cdef struct Ranked:
    double key
    int cell


cdef int by_key_descending(const void *a, const void *b) noexcept nogil:
    """qsort's order for :meth:`Core.guess`: the largest key first."""
    cdef double x = (<const Ranked *> a).key, y = (<const Ranked *> b).key
    return -1 if x > y else (1 if x < y else 0)


cdef int64_t luby(int64_t i) noexcept:
    """Term ``i`` (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    cdef int64_t k = 1
    while True:
        while (1 << k) - 1 < i:
            k += 1
        if (1 << k) - 1 == i:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1


cdef class Core(LineCore):
    """A black-and-white nonogram being solved: the grid, the trail, the search stack.

    ``clues`` holds the blocks of every line end to end, rows then columns, and
    ``clue_start`` (``height + width + 1`` entries) where each line's blocks begin. The
    Python model rejects a clue too long for its line; here it would only be a line
    without placement, so a puzzle without solution.
    """

    cdef int32_t *clues
    cdef uint8_t *grid
    cdef int32_t *trail
    # The line being solved by the multi-word solver: its two masks, then the result's,
    # ``longest // 64 + 1`` words each.
    cdef uint64_t *line_masks
    cdef WordScratch word_scratch
    # Scratch of :meth:`line_marginals`: how many cells before each position are white.
    cdef int32_t *white_before
    # Probing: what the first probe decided, and each cell's score.
    cdef uint8_t *seen_value
    cdef int64_t *seen_stamp
    cdef int32_t *agreed
    cdef double *score
    # How a probed cell is scored (0: product; 1: the smaller gain plus 1.85 log(1 + their
    # difference)), and whether probing below the root runs to its fixpoint.
    cdef public int score_rule
    cdef public bint fixpoint_below_root
    cdef uint8_t *first_value
    # Change tracking (see the class docstring): ``clock`` counts published changes, a
    # line's stamp is the clock at its last one, and a cell's probe record is the clock
    # when it was probed and the lines its two probes solved (``touch_words`` 64-bit
    # words a cell in ``probe_touched``; ``touched_now`` gathers them during a probe).
    # ``published``: the trail entries below it have stamped their lines.
    cdef int64_t clock
    cdef int64_t *line_stamp
    cdef int64_t *probe_stamp
    cdef int touch_words
    cdef uint64_t *probe_touched
    cdef uint64_t *touched_now
    cdef int published
    cdef public bint skip_unchanged
    # The probe log: the old values of every line stamp and probe record overwritten
    # below the root, so that backtracking restores them (``log_len`` entries of
    # ``log_cap``; ``undo_touched`` holds ``touch_words`` words an entry).
    cdef Undo *log
    cdef uint64_t *undo_touched
    cdef int64_t log_len, log_cap
    cdef int64_t *stack_log
    # While searching, a probe that completes the grid stops probing and becomes the
    # next branch (``solution_cell``, ``solution_value``) instead of being undone.
    cdef bint stop_at_solution
    cdef int solution_cell
    cdef uint8_t solution_value
    # Whether probing at the root first tries only the cells next to a decided cell or
    # the border, widening to every cell when a round of those changes nothing.
    cdef public bint near_first
    # Restarts: the random state of the randomized search.
    cdef uint64_t rng
    # Search stack: the value left to try at each level (the cell and trail mark are
    # ``LineCore``'s).
    cdef uint8_t *stack_other
    # Decimation (``guess``) between two calls: each cell's messages from its row and its
    # column, the dead ends met so far, and whether the next step is one cell alone.
    cdef double *guess_row_msg
    cdef double *guess_col_msg
    cdef int64_t guess_failures
    cdef bint guess_alone
    # The consistent state of the current decimation with the fewest unknown cells (its
    # grid, and that count; -1: none yet), for :meth:`deepest_guess`.
    cdef uint8_t *guess_deepest
    cdef int32_t *guess_deepest_trail
    cdef int guess_deepest_unknown
    # How many cells the state :meth:`deepest_guess` keeps must leave open at least.
    cdef public int deepest_floor
    # Per cached line, CACHE_SLOTS entries of ENTRY_WORDS words (the key, then the result;
    # a result of zeros records a contradiction); the rows have caches when they are
    # short enough, then the columns likewise. A line of at most BIT_CELLS cells has
    # entries of four words, in the first half of its region.
    cdef uint64_t *cache
    cdef int cached_rows, cached_cols

    def __cinit__(self, int height, int width, clues, clue_start):
        cdef int l, total = len(clues)
        self.set_shape(height, width, MAX_CELLS, "a nonogram")
        self.set_lines(clue_start, total, "clues")
        self.clues = <int32_t *> self.alloc(total + 1, sizeof(int32_t))
        for l in range(total):
            self.clues[l] = clues[l]
            if self.clues[l] < 1:
                raise ValueError("every block needs at least one cell")
        self.grid = <uint8_t *> self.alloc(self.n_cells, 1)
        self.trail = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
        self.line_masks = <uint64_t *> self.alloc(4 * (self.longest // 64 + 1), sizeof(uint64_t))
        self.white_before = <int32_t *> self.alloc(self.longest + 1, sizeof(int32_t))
        self.seen_value = <uint8_t *> self.alloc(self.n_cells, 1)
        self.seen_stamp = <int64_t *> self.alloc(self.n_cells, sizeof(int64_t))
        self.agreed = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
        self.score = <double *> self.alloc(self.n_cells, sizeof(double))
        self.first_value = <uint8_t *> self.alloc(self.n_cells, 1)
        self.line_stamp = <int64_t *> self.alloc(self.n_lines, sizeof(int64_t))
        self.probe_stamp = <int64_t *> self.alloc(self.n_cells, sizeof(int64_t))
        self.touch_words = (self.n_lines + 63) // 64
        self.probe_touched = <uint64_t *> self.alloc(
            <size_t> self.n_cells * self.touch_words, sizeof(uint64_t))
        self.touched_now = <uint64_t *> self.alloc(self.touch_words, sizeof(uint64_t))
        # the probe log grows by realloc, so it is freed by hand
        self.log_cap = 1024
        self.log = <Undo *> calloc(self.log_cap, sizeof(Undo))
        self.undo_touched = <uint64_t *> calloc(self.log_cap * self.touch_words, sizeof(uint64_t))
        if not self.log or not self.undo_touched:
            raise MemoryError()
        self.stack_log = <int64_t *> self.alloc(self.n_cells, sizeof(int64_t))
        self.stack_other = <uint8_t *> self.alloc(self.n_cells, 1)
        self.skip_unchanged = True
        self.near_first = True
        self.score_rule = 1
        self.fixpoint_below_root = True
        self.rng = GOLDEN
        self.cached_rows = height if width <= CACHED_CELLS else 0
        self.cached_cols = width if height <= CACHED_CELLS else 0
        self.cache = <uint64_t *> self.alloc(
            ENTRY_WORDS * CACHE_SLOTS * (self.cached_rows + self.cached_cols) + 1,
            sizeof(uint64_t),
        )
        if self.longest > BIT_CELLS:
            bind_word_scratch(
                &self.word_scratch,
                <uint64_t *> self.alloc(
                    word_scratch_size(self.largest, self.longest), sizeof(uint64_t)),
                self.largest, self.longest,
            )
        self.restart()

    def __dealloc__(self):
        free(self.log)
        free(self.undo_touched)

    cdef void reset_cells(self) noexcept:
        """Every cell unknown; no trail entry published, the probe log empty, every line
        changed after every probe (so each cell gets probed), black tried first."""
        cdef int l
        memset(self.grid, UNKNOWN, self.n_cells)
        self.published = 0
        self.log_len = 0
        self.clock = 1
        for l in range(self.n_lines):
            self.line_stamp[l] = 1
        memset(self.probe_stamp, 0, self.n_cells * sizeof(int64_t))
        memset(self.first_value, BLACK, self.n_cells)
        self.stop_at_solution = False

    # ----- the grid and the trail -----

    cdef inline void decide(self, int cell, uint8_t value) noexcept:
        """Narrow ``cell`` to ``value`` (a subset of its values), on the trail, and mark
        its row and column dirty."""
        if self.grid[cell] == UNKNOWN:
            self.trail[self.trail_len] = cell
            self.trail_len += 1
            self.unknown -= 1
        self.grid[cell] = value
        self.enqueue_lines_of(cell)

    cdef inline void undo(self, int mark) noexcept:
        """Make the cells decided after ``mark`` unknown again; the lines of those that
        were published get a new stamp (a probe made since saw them decided)."""
        cdef int cell
        if self.published > mark:
            self.clock += 1
        while self.trail_len > mark:
            self.trail_len -= 1
            cell = self.trail[self.trail_len]
            self.grid[cell] = UNKNOWN
            self.unknown += 1
            if self.trail_len < self.published:
                self.stamp_line(cell // self.width)
                self.stamp_line(self.height + cell % self.width)
        if self.published > mark:
            self.published = mark

    # ----- change tracking and the probe log -----

    cdef void publish(self) except *:
        """Stamp the lines of the trail entries not yet published with a new clock: the
        grid now holds them for good (until backtracking), so probes made before are
        stale where they solved one of those lines."""
        cdef int t, cell
        if self.published >= self.trail_len:
            return
        self.clock += 1
        for t in range(self.published, self.trail_len):
            cell = self.trail[t]
            self.stamp_line(cell // self.width)
            self.stamp_line(self.height + cell % self.width)
        self.published = self.trail_len

    cdef inline void stamp_line(self, int line) except *:
        """Give ``line`` the current clock, logging its old stamp below the root."""
        cdef Undo *entry
        if self.line_stamp[line] == self.clock:
            return
        if self.depth:
            entry = self.log_entry()
            entry.index = ~line
            entry.stamp = self.line_stamp[line]
        self.line_stamp[line] = self.clock

    cdef Undo *log_entry(self) except NULL:
        """A new entry at the end of the probe log (the log grows by doubling)."""
        cdef Undo *grown
        cdef uint64_t *grown_touched
        if self.log_len == self.log_cap:
            grown = <Undo *> realloc(self.log, 2 * self.log_cap * sizeof(Undo))
            if not grown:
                raise MemoryError()
            self.log = grown
            grown_touched = <uint64_t *> realloc(
                self.undo_touched, 2 * self.log_cap * self.touch_words * sizeof(uint64_t))
            if not grown_touched:
                raise MemoryError()
            self.undo_touched = grown_touched
            self.log_cap *= 2
        self.log_len += 1
        return self.log + self.log_len - 1

    cdef void record_probe(self, int cell, double score, uint8_t first) except *:
        """Keep ``cell``'s probe: valid as of the current clock, over the lines in
        ``touched_now`` (the old record is logged below the root)."""
        cdef Undo *entry
        cdef uint64_t *mine = self.probe_touched + <size_t> cell * self.touch_words
        if self.depth:
            entry = self.log_entry()
            entry.index = cell
            entry.stamp = self.probe_stamp[cell]
            entry.score = self.score[cell]
            entry.first = self.first_value[cell]
            memcpy(self.undo_touched + (self.log_len - 1) * self.touch_words, mine,
                   self.touch_words * sizeof(uint64_t))
        self.probe_stamp[cell] = self.clock
        self.score[cell] = score
        self.first_value[cell] = first
        memcpy(mine, self.touched_now, self.touch_words * sizeof(uint64_t))

    cdef void unwind_log(self, int64_t mark) noexcept:
        """Restore, newest first, every line stamp and probe record logged after
        ``mark``."""
        cdef Undo *entry
        cdef int cell
        while self.log_len > mark:
            self.log_len -= 1
            entry = self.log + self.log_len
            if entry.index < 0:
                self.line_stamp[~entry.index] = entry.stamp
                continue
            cell = entry.index
            self.probe_stamp[cell] = entry.stamp
            self.score[cell] = entry.score
            self.first_value[cell] = entry.first
            memcpy(self.probe_touched + <size_t> cell * self.touch_words,
                   self.undo_touched + self.log_len * self.touch_words,
                   self.touch_words * sizeof(uint64_t))

    cdef bint probe_valid(self, int cell) noexcept:
        """Whether ``cell``'s last probe still holds: no line it solved has changed
        since (probing it again would find the same)."""
        cdef int64_t when = self.probe_stamp[cell]
        cdef uint64_t *mine = self.probe_touched + <size_t> cell * self.touch_words
        cdef uint64_t bits
        cdef int w
        if when == 0:
            return False
        for w in range(self.touch_words):
            bits = mine[w]
            while bits:
                if self.line_stamp[64 * w + ctz64(bits)] > when:
                    return False
                bits &= bits - 1
        return True

    # ----- propagation -----

    cdef int propagate(self) except -1:
        """Solve dirty lines until none is left: 1 at the fixpoint, 0 on a contradiction
        (the queue is then emptied; the caller undoes the trail)."""
        cdef int line, i, n, first, step, word, words
        cdef uint8_t value
        cdef uint64_t white, black, white_out, black_out, changed
        cdef uint64_t *masks = self.line_masks
        while self.queue_count:
            line = self.next_line()
            self.touched_now[line >> 6] |= (<uint64_t> 1) << (line & 63)
            n = self.line_span(line, &first, &step)
            if n <= BIT_CELLS:
                white = 0
                black = 0
                for i in range(n):
                    value = self.grid[first + i * step]
                    white |= <uint64_t> (value & WHITE) << i
                    black |= <uint64_t> (value >> 1) << i
                if not self.solve_bits_cached(line, n, white, black, &white_out, &black_out):
                    self.clear_queue()
                    return 0
                changed = (white ^ white_out) | (black ^ black_out)
                while changed:
                    i = ctz64(changed)
                    changed &= changed - 1
                    self.narrowed(
                        line, i, first + i * step,
                        ((white_out >> i) & 1) | (((black_out >> i) & 1) << 1),
                    )
                continue
            words = n // 64 + 1
            memset(masks, 0, 2 * words * sizeof(uint64_t))
            for i in range(n):
                value = self.grid[first + i * step]
                masks[i >> 6] |= <uint64_t> (value & WHITE) << (i & 63)
                masks[words + (i >> 6)] |= <uint64_t> (value >> 1) << (i & 63)
            if not self.solve_words_cached(line, n, words):
                self.clear_queue()
                return 0
            for word in range(words):
                white_out = masks[2 * words + word]
                black_out = masks[3 * words + word]
                changed = (masks[word] ^ white_out) | (masks[words + word] ^ black_out)
                while changed:
                    i = ctz64(changed)
                    changed &= changed - 1
                    self.narrowed(
                        line, 64 * word + i, first + (64 * word + i) * step,
                        ((white_out >> i) & 1) | (((black_out >> i) & 1) << 1),
                    )
        return 1

    cdef inline void narrowed(self, int line, int i, int cell, uint8_t value) noexcept:
        """Solving ``line`` decided its ``i``-th cell, ``cell``, to ``value``: put it on
        the trail and the crossing line in the queue."""
        self.trail[self.trail_len] = cell
        self.trail_len += 1
        self.unknown -= 1
        self.grid[cell] = value
        self.enqueue_crossing(line, i)

    cdef bint solve_bits_cached(
        self, int line, int n, uint64_t white, uint64_t black,
        uint64_t *white_out, uint64_t *black_out,
    ) noexcept:
        """:func:`solve_bits` on line ``line`` through its cache, whose entries here are
        four words: the two masks of the state, then those of the result (zeros for a
        contradiction; a line state is never zeros, as every cell keeps a value)."""
        cdef int cached = line if line < self.height else self.cached_rows + line - self.height
        cdef uint64_t mixed = white * MIX_LOW ^ black * MIX_HIGH
        cdef uint64_t *entry = self.cache + ENTRY_WORDS * cached * CACHE_SLOTS + 4 * (mixed >> 54)
        cdef bint ok
        if entry[0] == white and entry[1] == black:
            self.cache_hits += 1
            white_out[0] = entry[2]
            black_out[0] = entry[3]
            return entry[2] | entry[3] != 0
        ok = solve_bits(
            n, self.clues + self.clue_start[line], self.blocks_of(line),
            white, black, white_out, black_out,
        )
        entry[0] = white
        entry[1] = black
        entry[2] = white_out[0] if ok else 0
        entry[3] = black_out[0] if ok else 0
        return ok

    cdef bint solve_words_cached(self, int line, int n, int words) noexcept:
        """:func:`solve_words` on line ``line`` of more than ``BIT_CELLS`` cells, whose
        masks are in ``line_masks`` (the result goes after them), through the line's
        cache when it has one: then the masks are two words each, and an entry is the
        four words of the state and the four of the result (zeros for a contradiction)."""
        cdef uint64_t *masks = self.line_masks
        cdef uint64_t mixed
        cdef uint64_t *entry
        cdef int cached = line if line < self.height else self.cached_rows + line - self.height
        cdef int i
        cdef bint ok
        cdef const int32_t *clue = self.clues + self.clue_start[line]
        cdef int k = self.blocks_of(line)
        if n > CACHED_CELLS:
            return solve_words(
                n, clue, k, masks, masks + words, masks + 2 * words, masks + 3 * words,
                &self.word_scratch,
            )
        mixed = masks[0] * MIX_LOW ^ masks[2] * MIX_HIGH
        mixed = (mixed ^ (mixed >> 29) ^ masks[1]) * MIX_LOW ^ masks[3] * MIX_HIGH
        entry = self.cache + ENTRY_WORDS * (cached * CACHE_SLOTS + (mixed >> 54))
        if memcmp(entry, masks, 4 * sizeof(uint64_t)) == 0:
            self.cache_hits += 1
            memcpy(masks + 4, entry + 4, 4 * sizeof(uint64_t))
            return entry[4] | entry[5] | entry[6] | entry[7] != 0
        ok = solve_words(n, clue, k, masks, masks + 2, masks + 4, masks + 6, &self.word_scratch)
        memcpy(entry, masks, 4 * sizeof(uint64_t))
        if ok:
            memcpy(entry + 4, masks + 4, 4 * sizeof(uint64_t))
        else:
            memset(entry + 4, 0, 4 * sizeof(uint64_t))
        return ok

    cdef int try_value(self, int cell, uint8_t value) except -1:
        """Decide ``cell`` and propagate; 1, or 0 on a contradiction."""
        self.decide(cell, value)
        return self.propagate()

    # ----- probing -----

    cdef int probe(self) except -1:
        """Probe every unknown cell, round after round until nothing changes (below the
        root only one round, unless ``fixpoint_below_root``): 1, or 0 when the grid has no
        solution. Scores are left in ``score`` and the value to try first in
        ``first_value``. A cell whose last probe still holds (:meth:`probe_valid`) is
        skipped when ``skip_unchanged``. While searching (``stop_at_solution``), a probe
        that completes the grid stops it: 2, with the cell and its value in
        ``solution_cell`` and ``solution_value``."""
        cdef bint one_round = self.depth and not self.fixpoint_below_root
        cdef bint near_only = self.near_first and not self.depth
        self.publish()
        return probe_rounds(self, one_round, near_only)

    cdef inline int probe_cell(self, int cell, bint near_only) except -1:
        """:meth:`probe_both_ways` on ``cell`` if it is unknown, :meth:`near_decided` or
        not ``near_only``, and its last probe no longer holds (or not
        ``skip_unchanged``); else ``PROBE_KEPT``. (Small, as probing rounds call it for
        every cell they pass.)"""
        if self.grid[cell] != UNKNOWN:
            return PROBE_KEPT
        if near_only and not self.near_decided(cell):
            return PROBE_KEPT
        if self.skip_unchanged and self.probe_valid(cell):
            return PROBE_KEPT
        return self.probe_both_ways(cell)

    cdef int probe_both_ways(self, int cell) except -1:
        """Try the unknown ``cell`` black, then white, each with propagation: a forced
        value is kept, what both values decide alike is decided, and the cell's score
        and first value recorded. A ``PROBE_*`` outcome."""
        cdef int mark, t, n_agreed, i, idx
        cdef int ok_black, ok_white
        cdef int64_t decided_black, decided_white
        cdef double score
        self.probes += 1
        mark = self.trail_len
        self.stamp += 1
        memset(self.touched_now, 0, self.touch_words * sizeof(uint64_t))
        ok_black = self.try_value(cell, BLACK)
        decided_black = self.trail_len - mark
        if ok_black:
            if self.stop_at_solution and not self.unknown:
                return self.found_by_probe(cell, BLACK, mark)
            for t in range(mark, self.trail_len):
                idx = self.trail[t]
                self.seen_stamp[idx] = self.stamp
                self.seen_value[idx] = self.grid[idx]
        self.undo(mark)
        ok_white = self.try_value(cell, WHITE)
        decided_white = self.trail_len - mark
        if ok_white and self.stop_at_solution and not self.unknown:
            return self.found_by_probe(cell, WHITE, mark)
        if not ok_white:
            self.undo(mark)
            if not ok_black or not self.try_value(cell, BLACK):
                return PROBE_FAILED
            self.publish()
            return PROBE_CHANGED
        if not ok_black:  # keep the white branch: it is forced
            self.publish()
            return PROBE_CHANGED
        n_agreed = 0
        for t in range(mark + 1, self.trail_len):
            idx = self.trail[t]
            if self.seen_stamp[idx] == self.stamp and self.seen_value[idx] == self.grid[idx]:
                self.agreed[n_agreed] = idx
                n_agreed += 1
        self.undo(mark)
        if self.score_rule == 0:
            score = (decided_black + 1) * (decided_white + 1)
        else:
            score = (min(decided_black, decided_white)
                     + 1.85 * log(1.0 + fabs(<double> (decided_black - decided_white))))
        if n_agreed:
            # what both probes decided is a fixpoint of its own: propagation only
            # checks it, and probing the cell again would find nothing new
            for i in range(n_agreed):
                idx = self.agreed[i]
                if self.grid[idx] == UNKNOWN:
                    self.decide(idx, self.seen_value[idx])
            if not self.propagate():
                return PROBE_FAILED
            self.publish()
        self.record_probe(cell, score, WHITE if decided_black >= decided_white else BLACK)
        return PROBE_CHANGED if n_agreed else PROBE_KEPT

    cdef int found_by_probe(self, int cell, uint8_t value, int mark) noexcept:
        """A probe of ``cell`` to ``value`` completed the grid: undo it and leave it as the
        next branch (``PROBE_COMPLETED``)."""
        self.undo(mark)
        self.solution_cell = cell
        self.solution_value = value
        return PROBE_COMPLETED

    cdef bint near_decided(self, int cell) noexcept:
        """Whether ``cell`` is on the border or next to a decided cell (probes there
        meet a contradiction far more often than in the middle of an unknown area)."""
        cdef int r = cell // self.width, c = cell % self.width
        if r == 0 or c == 0 or r == self.height - 1 or c == self.width - 1:
            return True
        return (self.grid[cell - 1] != UNKNOWN or self.grid[cell + 1] != UNKNOWN
                or self.grid[cell - self.width] != UNKNOWN
                or self.grid[cell + self.width] != UNKNOWN)

    cdef int choose(self) noexcept:
        """The unknown cell with the best probing score."""
        cdef int cell, best = -1
        cdef double best_score = -1
        for cell in range(self.n_cells):
            if self.grid[cell] == UNKNOWN and self.score[cell] > best_score:
                best, best_score = cell, self.score[cell]
        return best

    # ----- search -----

    cdef int backtrack(self) noexcept:
        """Go to the next untried branch: 1, or 0 when the tree is exhausted. The probe
        records and line stamps go back to what they were at the branching node."""
        cdef int cell
        while self.depth:
            self.undo(self.stack_mark[self.depth - 1])
            self.unwind_log(self.stack_log[self.depth - 1])
            self.clear_queue()
            if self.stack_other[self.depth - 1]:
                cell = self.stack_cell[self.depth - 1]
                self.decide(cell, self.stack_other[self.depth - 1])
                self.stack_other[self.depth - 1] = 0
                return 1
            self.depth -= 1
        return 0

    cdef void branch(self, int cell, uint8_t value) noexcept:
        """Go down: decide ``cell`` to ``value``, the other value left for later."""
        self.stack_cell[self.depth] = cell
        self.stack_mark[self.depth] = self.trail_len
        self.stack_log[self.depth] = self.log_len
        self.stack_other[self.depth] = UNKNOWN ^ value
        self.depth += 1
        self.decide(cell, value)

    cdef void begin_search(self) noexcept:
        """A probe that completes the grid becomes the next branch."""
        self.stop_at_solution = True

    cdef void go_down(self, int settled, bint probing) noexcept:
        """Branch on the cell and value of a probe that completed the grid, else on the
        cell of best score (its value of fewer consequences first), or without probing
        on the first unknown cell, black first."""
        cdef int cell
        if settled == 2:
            self.branch(self.solution_cell, self.solution_value)
        elif probing:
            cell = self.choose()
            self.branch(cell, self.first_value[cell])
        else:
            cell = 0
            while self.grid[cell] != UNKNOWN:
                cell += 1
            self.branch(cell, BLACK)

    # ----- search with restarts -----

    cdef uint64_t random(self) noexcept:
        """The next number of a xorshift64* generator."""
        self.rng ^= self.rng >> 12
        self.rng ^= self.rng << 25
        self.rng ^= self.rng >> 27
        return self.rng * STAR

    cdef int choose_randomly(self) noexcept:
        """An unknown cell with a good probing score: the best score after each is scaled
        by a random factor from 1/2 to 1, so that runs from the root differ."""
        cdef int cell, best = -1
        cdef double key, best_key = -1.0
        for cell in range(self.n_cells):
            if self.grid[cell] == UNKNOWN:
                key = self.score[cell] * (0.5 + (self.random() >> 11) * (0.5 / 9007199254740992.0))
                if key > best_key:
                    best, best_key = cell, key
        return best

    cdef bint is_forbidden(self, const uint8_t *bad, int n_bad) noexcept:
        """Whether the grid equals one of the ``n_bad`` grids laid end to end at ``bad``
        (the solutions :meth:`hunt` and :meth:`guess` are told to skip)."""
        cdef int k
        for k in range(n_bad):
            if memcmp(self.grid, bad + k * self.n_cells, self.n_cells) == 0:
                return True
        return False

    def hunt(self, int64_t max_nodes=-1, double deadline=-1.0, uint64_t seed=1,
             int64_t first_run=64, bytes forbidden=b""):
        """Search for a solution other than those in ``forbidden`` (grids of
        :meth:`grid_bytes` end to end), restarting from the root after ``first_run``
        times the next term of Luby's sequence (1, 1, 2, 1, 1, 2, 4, ...) of dead ends,
        with randomized branching (``seed``). ``SOLUTION`` (the grid holds it),
        ``EXHAUSTED`` when a run went through its whole tree (so there is no other
        solution: a proof), or ``NODE_LIMIT`` / ``TIME_LIMIT``. Starts afresh each call;
        ``next_solution`` cannot follow it without :meth:`restart`."""
        cdef int run = 1, settled, cell, limit
        cdef int64_t failures = 0, allowed
        cdef int root_mark
        cdef const uint8_t *bad = forbidden
        cdef int n_bad = len(forbidden) // self.n_cells
        cdef bint ok
        self.restart()
        self.rng = seed * GOLDEN + 1
        self.state = BROKEN
        self.stop_at_solution = False  # the root goes to its fixpoint: restarts return there
        self.nodes = 1
        if not self.settle_node(True):
            self.state = DONE
            return EXHAUSTED
        self.stop_at_solution = True
        root_mark = self.trail_len
        allowed = first_run * luby(run)
        settled = 1
        while True:
            limit = self.limit_reached(max_nodes, -1, deadline)
            if limit:
                self.state = DONE
                return limit
            if self.depth:  # the root is at its fixpoint already
                self.nodes += 1
                settled = self.settle_node(True)
            ok = settled != 0
            if ok and not self.unknown:
                if not self.is_forbidden(bad, n_bad):
                    self.solutions += 1
                    self.state = DONE
                    return SOLUTION
                ok = False
            if not ok:
                failures += 1
                if not self.backtrack():
                    self.state = DONE
                    return EXHAUSTED
                if failures >= allowed:  # restart from the root
                    self.undo(root_mark)
                    self.unwind_log(0)
                    self.clear_queue()
                    self.depth = 0
                    failures = 0
                    run += 1
                    allowed = first_run * luby(run)
                    settled = 1
                continue
            if settled == 2:
                self.branch(self.solution_cell, self.solution_value)
                continue
            cell = self.choose_randomly()
            self.branch(cell, self.first_value[cell])

    def guess(self, double deadline=-1.0, int iterations=20, double fraction=0.05,
              int64_t max_failures=-1, bytes forbidden=b"", bint resume=False,
              bytes given=b""):
        """Look for a solution other than those in ``forbidden`` by *decimation*: belief
        propagation over the lines (:meth:`beliefs`, its messages kept from one step to
        the next) says which unknown cells are likeliest black or white; the surest
        ``fraction`` of them are decided so, then propagation and probing run, and so on.
        A step that meets a contradiction is taken back whole and made again on its
        surest cell alone, both ways in turn, and dead ends below backtrack as in
        :meth:`next_solution`, so the search is complete. ``SOLUTION`` (the grid holds
        it), ``EXHAUSTED`` (there is no other solution: a proof), ``NODE_LIMIT`` at the
        first node after it has met ``max_failures`` dead ends in all (negative: no
        limit), ``TIME_LIMIT`` at ``deadline``. On large random puzzles the beliefs are
        right so often that a picture comes after a few dozen steps with no dead end,
        where a depth-first search or CDCL looks for long. It starts afresh, unless
        ``resume`` and the last call on this solver was a guess that stopped at its
        deadline or at its ``max_failures`` (to go on with a larger one): then it goes on
        from there, its messages, dead ends and search as they were (nothing is done
        twice when it runs in time slices). ``given`` (a grid as :meth:`grid_bytes`, of
        ``n_cells`` bytes or fewer) decides its cells 1 (white) and 2 (black) at the root
        of a fresh start, before the first probing: ``EXHAUSTED`` then says only that no
        solution has those values. ``next_solution`` cannot follow it without
        :meth:`restart`."""
        cdef Blocks memory = Blocks()
        cdef Marginals scratch
        cdef Ranked *ranked = <Ranked *> memory.alloc(self.n_cells, sizeof(Ranked))
        cdef double *row_msg
        cdef double *col_msg
        cdef uint8_t *deepest
        cdef int32_t *deepest_trail
        cdef const uint8_t *bad = forbidden
        cdef int n_bad = len(forbidden) // self.n_cells
        cdef int cell, k, i, n_ranked, step_depth, first_cell = -1
        cdef uint8_t first_value = WHITE
        cdef double y, z
        cdef bint ok
        self.alloc_marginals(&scratch, memory)
        if not self.guess_row_msg:  # the first guess: all four arrays, or none
            deepest = <uint8_t *> self.alloc(self.n_cells, 1)
            deepest_trail = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
            row_msg = <double *> self.alloc(self.n_cells, sizeof(double))
            col_msg = <double *> self.alloc(self.n_cells, sizeof(double))
            self.guess_deepest = deepest
            self.guess_deepest_trail = deepest_trail
            self.guess_row_msg = row_msg
            self.guess_col_msg = col_msg
        row_msg = self.guess_row_msg
        col_msg = self.guess_col_msg
        if not (resume and self.state == GUESSING):
            if len(given) > self.n_cells:
                raise ValueError(f"given has {len(given)} cells, the grid {self.n_cells}")
            for cell in range(self.n_cells):
                row_msg[cell] = 0.5
                col_msg[cell] = 0.5
            self.guess_failures = 0
            self.guess_alone = False
            self.guess_deepest_unknown = -1
            self.restart()
            self.state = BROKEN
            self.nodes = 1
            for cell in range(len(given)):
                if given[cell] == WHITE or given[cell] == BLACK:
                    self.decide(cell, given[cell])
            if not self.settle_node(True):
                self.state = DONE
                return EXHAUSTED
        self.state = BROKEN  # until this call returns normally
        while True:
            # every state here is settled without contradiction
            if self.unknown >= self.deepest_floor and (
                    self.guess_deepest_unknown < 0
                    or self.unknown < self.guess_deepest_unknown):
                memcpy(self.guess_deepest, self.grid, self.n_cells)
                memcpy(self.guess_deepest_trail, self.trail, self.trail_len * sizeof(int32_t))
                self.guess_deepest_unknown = self.unknown
            if deadline >= 0 and monotonic() > deadline:
                self.state = GUESSING
                return TIME_LIMIT
            if max_failures >= 0 and self.guess_failures >= max_failures:
                self.state = GUESSING  # resumed with a larger max_failures, it goes on
                return NODE_LIMIT
            ok = True
            if not self.unknown:
                if not self.is_forbidden(bad, n_bad):
                    self.solutions += 1
                    self.state = DONE
                    return SOLUTION
                ok = False
            else:
                self.pass_messages(row_msg, col_msg, iterations, &scratch)
                n_ranked = 0
                for cell in range(self.n_cells):
                    if self.grid[cell] == UNKNOWN:
                        y = row_msg[cell] * col_msg[cell]
                        z = (1.0 - row_msg[cell]) * (1.0 - col_msg[cell])
                        ranked[n_ranked].key = fabs(y / (y + z) - 0.5) if y + z > 0.0 else 0.0
                        ranked[n_ranked].cell = cell
                        n_ranked += 1
                qsort(ranked, n_ranked, sizeof(Ranked), by_key_descending)
                k = 1 if self.guess_alone else max(1, <int> (n_ranked * fraction))
                self.guess_alone = False
                step_depth = self.depth
                for i in range(k):
                    cell = ranked[i].cell
                    y = row_msg[cell] * col_msg[cell]
                    z = (1.0 - row_msg[cell]) * (1.0 - col_msg[cell])
                    if i == 0:
                        first_cell = cell
                        first_value = BLACK if y > z else WHITE
                    if self.grid[cell] == UNKNOWN:
                        self.branch(cell, BLACK if y > z else WHITE)
                self.nodes += 1
                ok = self.settle_node(True) != 0
                if not ok and k > 1:
                    # take the step back whole and make it on its surest cell alone
                    self.guess_failures += 1
                    self.undo(self.stack_mark[step_depth])
                    self.unwind_log(self.stack_log[step_depth])
                    self.clear_queue()
                    self.depth = step_depth
                    self.branch(first_cell, first_value)
                    self.nodes += 1
                    ok = self.settle_node(True) != 0
            while not ok:
                self.guess_failures += 1
                if not self.backtrack():
                    self.state = DONE
                    return EXHAUSTED
                self.nodes += 1
                ok = self.settle_node(True) != 0
                self.guess_alone = True

    def deepest_guess(self):
        """The grid (as :meth:`grid_bytes`) of the consistent state with the fewest unknown
        cells that the last decimation (:meth:`guess`) reached, among those that leave at
        least :attr:`deepest_floor` cells open (0 by default): it may hold a wrong
        guess, but on large random puzzles it is often close to a solution. None before
        any decimation."""
        if self.guess_deepest == NULL or self.guess_deepest_unknown < 0:
            return None
        return self.guess_deepest[:self.n_cells]

    def deepest_order(self):
        """The cells the state of :meth:`deepest_guess` decided, in the order they were
        decided (those of ``given`` and the root's probing first); None before any."""
        if self.guess_deepest == NULL or self.guess_deepest_unknown < 0:
            return None
        return [self.guess_deepest_trail[i]
                for i in range(self.n_cells - self.guess_deepest_unknown)]

    def probe_only(self):
        """Line propagation and probing from the start, to their fixpoint, without
        search: 1, or 0 on a contradiction; :meth:`grid_bytes` shows what they decided."""
        self.restart()
        self.state = BROKEN
        result = self.propagate() and (not self.unknown or self.probe())
        self.state = DONE
        return 1 if result else 0

    def probe_deep(self, double deadline=-1.0):
        """Probing of depth 2 from the start, without search: line propagation, probing to
        its fixpoint, then each unknown cell tried both ways *with probing* (not only
        line propagation) inside each branch, keeping what both branches decide or the
        opposite of a branch that fails, round after round until nothing changes. 1, or
        0 on a contradiction, ``TIME_LIMIT`` once ``time.monotonic()`` passes
        ``deadline`` (negative: no limit); :meth:`grid_bytes` shows what it decided.
        Costs about as many probings as there are unknown cells per round: for ratings,
        not search."""
        cdef int cell, mark, since_change = 0, t, n_agreed, i, idx
        cdef int ok_black, ok_white
        cdef int64_t my_stamp = 0
        cdef Blocks memory = Blocks()
        cdef uint8_t *seen_value = <uint8_t *> memory.alloc(self.n_cells, 1)
        cdef int64_t *seen_stamp = <int64_t *> memory.alloc(self.n_cells, sizeof(int64_t))
        cdef int32_t *agreed = <int32_t *> memory.alloc(self.n_cells, sizeof(int32_t))
        self.restart()
        self.state = BROKEN
        if not self.propagate() or (self.unknown and not self.probe()):
            self.state = DONE
            return 0
        cell = 0
        while since_change < self.n_cells and self.unknown:
            cell = (cell + 1) % self.n_cells
            since_change += 1
            if self.grid[cell] != UNKNOWN:
                continue
            if deadline >= 0 and monotonic() > deadline:
                self.state = DONE
                return TIME_LIMIT
            mark = self.trail_len
            my_stamp += 1
            ok_black = self.try_value(cell, BLACK) and (not self.unknown or self.probe())
            if ok_black:
                for t in range(mark, self.trail_len):
                    idx = self.trail[t]
                    seen_stamp[idx] = my_stamp
                    seen_value[idx] = self.grid[idx]
            self.undo(mark)
            self.clear_queue()
            ok_white = self.try_value(cell, WHITE) and (not self.unknown or self.probe())
            if not ok_white:
                self.undo(mark)
                self.clear_queue()
                if not ok_black or not self.try_value(cell, BLACK) or not self.probe():
                    self.state = DONE
                    return 0
                since_change = 0
                continue
            n_agreed = 0
            for t in range(mark, self.trail_len):
                idx = self.trail[t]
                if not ok_black or (seen_stamp[idx] == my_stamp
                                    and seen_value[idx] == self.grid[idx]):
                    agreed[n_agreed] = idx
                    n_agreed += 1
            if not ok_black:  # the white branch is forced: keep it whole
                since_change = 0
                continue
            self.undo(mark)
            self.clear_queue()
            if n_agreed:
                for i in range(n_agreed):
                    idx = agreed[i]
                    if self.grid[idx] == UNKNOWN:
                        self.decide(idx, seen_value[idx])
                if not self.propagate() or (self.unknown and not self.probe()):
                    self.state = DONE
                    return 0
                since_change = 0
        self.state = DONE
        return 1

    # ----- beliefs: line marginals and belief propagation, for CDCL's phases -----

    cdef double line_marginals(self, int line, Marginals *m) noexcept:
        """Weigh every placement of ``line``'s blocks that agrees with the grid by the
        product, over its cells, of ``m.prior[i]`` (black) or ``1 - m.prior[i]`` (white),
        and leave in ``m.starts[j * n + p]`` the weighted share of placements where block
        ``j`` starts at ``p``, in ``m.black[i]`` the share where cell ``i`` is black.
        The total weight, 0 when no placement fits (or it underflows). Forward and
        backward sums over (blocks placed, cells read), as in the line solver, with a
        white cell ``n`` past the end."""
        cdef int n, first, step, k, i, j, e, t, stride
        cdef const int32_t *clue = self.clues + self.clue_start[line]
        cdef double v, w, total
        cdef int32_t *no_white = self.white_before  # cells before each position known white
        cdef const double *prior = m.prior
        cdef double *forward = m.forward
        cdef double *backward = m.backward
        cdef double *start_out = m.starts
        cdef double *black_out = m.black
        k = self.blocks_of(line)
        n = self.line_span(line, &first, &step)
        stride = n + 2
        no_white[0] = 0
        for i in range(n):
            no_white[i + 1] = no_white[i] + (self.grid[first + i * step] == WHITE)
        memset(forward, 0, (k + 1) * stride * sizeof(double))
        memset(backward, 0, (k + 1) * stride * sizeof(double))
        forward[0] = 1.0
        for i in range(n + 1):
            for j in range(k + 1):
                v = forward[j * stride + i]
                if v == 0.0:
                    continue
                if i == n or self.grid[first + i * step] != BLACK:
                    forward[j * stride + i + 1] += v * (1.0 if i == n else 1.0 - prior[i])
                if j < k:
                    w = self.block_weight(clue[j], i, n, first, step, prior, no_white)
                    if w > 0.0:
                        forward[(j + 1) * stride + i + clue[j] + 1] += v * w
        backward[k * stride + n + 1] = 1.0
        for i in range(n, -1, -1):
            for j in range(k, -1, -1):
                v = 0.0
                if i == n or self.grid[first + i * step] != BLACK:
                    v = backward[j * stride + i + 1] * (1.0 if i == n else 1.0 - prior[i])
                if j < k:
                    w = self.block_weight(clue[j], i, n, first, step, prior, no_white)
                    if w > 0.0:
                        v += backward[(j + 1) * stride + i + clue[j] + 1] * w
                backward[j * stride + i] = v
        total = backward[0]
        memset(black_out, 0, n * sizeof(double))
        memset(start_out, 0, k * n * sizeof(double))
        if not total > 0.0:
            return 0.0
        for j in range(k):
            for i in range(n):
                v = forward[j * stride + i]
                if v == 0.0:
                    continue
                w = self.block_weight(clue[j], i, n, first, step, prior, no_white)
                if w == 0.0:
                    continue
                v = v * w * backward[(j + 1) * stride + i + clue[j] + 1] / total
                start_out[j * n + i] = v
                for t in range(i, i + clue[j]):
                    black_out[t] += v
        return total

    cdef inline double block_weight(
        self, int length, int i, int n, int first, int step, const double *prior,
        const int32_t *no_white,
    ) noexcept:
        """The weight of a block of ``length`` on cells ``i..i+length-1`` and the white
        cell after it (the virtual one past the end included), 0 when the grid forbids
        it."""
        cdef int e = i + length, t
        cdef double w
        if e > n or no_white[e] != no_white[i]:
            return 0.0
        if e < n and self.grid[first + e * step] == BLACK:
            return 0.0
        w = 1.0 if e == n else 1.0 - prior[e]
        for t in range(i, e):
            w *= prior[t]
        return w

    cdef int alloc_marginals(self, Marginals *m, Blocks memory) except -1:
        """Allocate the scratch of :meth:`line_marginals` from ``memory``."""
        cdef int size = (self.largest + 1) * (self.longest + 2)
        m.prior = <double *> memory.alloc(self.longest + 1, sizeof(double))
        m.black = <double *> memory.alloc(self.longest + 1, sizeof(double))
        m.starts = <double *> memory.alloc(size, sizeof(double))
        m.forward = <double *> memory.alloc(size, sizeof(double))
        m.backward = <double *> memory.alloc(size, sizeof(double))
        return 0

    cdef double crossing_marginals(
        self, int line, const double *row_msg, const double *col_msg, Marginals *m
    ) noexcept:
        """:meth:`line_marginals` of ``line`` with the crossing lines' messages as its
        prior (``col_msg`` for a row's cells, ``row_msg`` for a column's)."""
        cdef int i, first, step, n = self.line_span(line, &first, &step)
        cdef const double *crossing = col_msg if line < self.height else row_msg
        for i in range(n):
            m.prior[i] = crossing[first + i * step]
        return self.line_marginals(line, m)

    cdef void pass_messages(
        self, double *row_msg, double *col_msg, int iterations, Marginals *m
    ) noexcept:
        """``iterations`` rounds of belief propagation, rows then columns: each line
        weighs its placements by the crossing lines' messages (``col_msg`` for a row's
        cells, ``row_msg`` for a column's) and updates its own, damped by half."""
        cdef int it, l, i, n, cell, first, step
        cdef double po, pri, y, z, msg
        cdef double *own
        for it in range(iterations):
            for l in range(self.n_lines):
                if not self.crossing_marginals(l, row_msg, col_msg, m):
                    continue
                n = self.line_span(l, &first, &step)
                own = row_msg if l < self.height else col_msg
                for i in range(n):
                    cell = first + i * step
                    po = min(1.0 - 1e-9, max(1e-9, m.black[i]))
                    pri = m.prior[i]
                    y = po * (1.0 - pri)
                    z = (1.0 - po) * pri
                    msg = min(1.0 - 1e-6, max(1e-6, y / (y + z)))
                    own[cell] = 0.5 * own[cell] + 0.5 * msg

    def beliefs(self, int iterations=20):
        """Belief propagation over the lines, from the grid as it stands (call it after
        :meth:`probe_only`), for the phases of a CDCL solver: each line weighs its
        placements by what the crossing lines say of its cells (starting from "no
        opinion"), passes back what it says of each cell, rows then columns,
        ``iterations`` times. Returns ``(cells, starts)``: the chance that each cell is
        black (0 or 1 when decided), and per line, per block, the chance that the block
        starts at each position, given the crossing lines' messages (with no round, the
        share of the placements that agree with the grid: 0 where none starts it
        there)."""
        cdef int l, i, j, n, k, cell, first, step
        cdef double y, z
        cdef Blocks memory = Blocks()
        cdef Marginals scratch
        cdef double *row_msg = <double *> memory.alloc(self.n_cells, sizeof(double))
        cdef double *col_msg = <double *> memory.alloc(self.n_cells, sizeof(double))
        cdef list cells, start_list
        self.alloc_marginals(&scratch, memory)
        for cell in range(self.n_cells):
            row_msg[cell] = 0.5
            col_msg[cell] = 0.5
        self.pass_messages(row_msg, col_msg, iterations, &scratch)
        start_list = []
        for l in range(self.n_lines):
            n = self.line_span(l, &first, &step)
            k = self.blocks_of(l)
            self.crossing_marginals(l, row_msg, col_msg, &scratch)
            start_list.append(
                [[scratch.starts[j * n + i] for i in range(n)] for j in range(k)])
        cells = []
        for cell in range(self.n_cells):
            if self.grid[cell] != UNKNOWN:
                cells.append(1.0 if self.grid[cell] == BLACK else 0.0)
                continue
            y = row_msg[cell] * col_msg[cell]
            z = (1.0 - row_msg[cell]) * (1.0 - col_msg[cell])
            cells.append(y / (y + z) if y + z > 0.0 else 0.5)
        return cells, start_list

    def grid_bytes(self):
        """The grid, one byte per cell row by row (1 white, 2 black, 3 unknown)."""
        # a slice of a char pointer is a bytes object; a cast to a typed memoryview would
        # also do, but Cython 3.3 then leaves a type of its shared utility module
        # (setup.py) undeclared in this module's C file
        return (<char*> self.grid)[:self.n_cells]

