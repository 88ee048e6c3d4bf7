# Part of ``_core.pyx`` (pasted in by ``include``): ``LineCore``, what the black-and-white
# ``Core`` and the ``ColourCore`` share.
#
# Both hold a grid of cells, each the set of values it may still take, and shrink it by
# solving lines; they differ in what a cell is (a byte, or 32 bits of colours), in how a
# line is solved and in what probing keeps. Everything else is here, once: the shape and
# the lines' clue offsets, the queue of dirty lines, the count of undecided cells and the
# trail's length, the search stack's cells and trail marks, the statistics, and the two
# loops that drive the work, ``next_solution`` (limits, stepping from one solution to
# the next, Ctrl-C leaving the state broken) and the rounds of probing. A core supplies
# the moves through a few methods: ``reset_cells``, ``propagate``, ``probe``,
# ``backtrack`` and ``go_down`` (and ``begin_search`` if it needs to), and an inline
# ``probe_cell`` for the rounds of probing. The queue's methods are ``inline``, so the
# cores' propagation loops call them without going through the virtual table, as
# before; the hooks cost one indirect call a node, next to line solves of hundreds of
# instructions each.


cdef class LineCore:
    """The state both nonogram cores share: lines, queue of dirty lines, trail length,
    search stack, statistics; and the search loop and probing rounds that drive them.

    Not used alone: :class:`Core` and :class:`ColourCore` give it a grid."""

    # Every array of the core, freed when the core is.
    cdef Blocks memory
    cdef int height, width, n_cells, n_lines, longest, largest
    # Where each line's blocks begin in the subclass's clue arrays (``n_lines + 1``).
    cdef int32_t *clue_start
    # The length of the trail (the subclass holds the trail itself), and how many cells
    # are still undecided.
    cdef int trail_len
    cdef int unknown
    # The dirty lines: a ring of ``n_lines`` entries, and a flag per line.
    cdef int32_t *queue
    cdef uint8_t *queued
    cdef int queue_head, queue_count
    # A counter of probe trials, marking what each trial decided.
    cdef int64_t stamp
    # Search stack: the branching cell of each level and the trail length before it.
    cdef int32_t *stack_cell
    cdef int32_t *stack_mark
    # Cells branched on down to the current node: 0 when everything so far was forced.
    cdef readonly int depth
    cdef int state
    cdef public int64_t nodes
    cdef public int64_t line_solves
    cdef public int64_t probes
    cdef public int64_t solutions
    cdef public int64_t cache_hits

    def __cinit__(self, *args, **kwargs):
        if type(self) is LineCore:
            raise TypeError("LineCore is the common base of Core and ColourCore, not a solver")
        self.memory = Blocks()

    cdef void *alloc(self, size_t n, size_t size) except NULL:
        """A zeroed array of the core (freed with it)."""
        return self.memory.alloc(n, size)

    cdef int set_shape(self, int height, int width, int64_t max_cells, str kind) except -1:
        """Check and keep the grid's size (``kind`` names the puzzle in the message when
        it has more than ``max_cells`` cells)."""
        if height < 1 or width < 1:
            raise ValueError("a nonogram needs at least one row and one column")
        if <int64_t> height * width > max_cells:
            raise ValueError(f"{kind} has at most {max_cells} cells")
        self.height = height
        self.width = width
        self.n_cells = height * width
        self.n_lines = height + width
        self.longest = max(height, width)
        return 0

    cdef int set_lines(self, clue_start, Py_ssize_t total, str blocks) except -1:
        """Check and keep ``clue_start`` (it runs from 0 to ``total``, the length of the
        list called ``blocks``, and never decreases), and allocate the queue and the
        search stack."""
        cdef int line
        if len(clue_start) != self.n_lines + 1:
            raise ValueError("clue_start needs height + width + 1 entries")
        self.clue_start = <int32_t *> self.alloc(self.n_lines + 1, sizeof(int32_t))
        self.queue = <int32_t *> self.alloc(self.n_lines, sizeof(int32_t))
        self.queued = <uint8_t *> self.alloc(self.n_lines, 1)
        self.stack_cell = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
        self.stack_mark = <int32_t *> self.alloc(self.n_cells, sizeof(int32_t))
        for line in range(self.n_lines + 1):
            self.clue_start[line] = clue_start[line]
        if self.clue_start[0] != 0 or self.clue_start[self.n_lines] != total:
            raise ValueError(f"clue_start must run from 0 to len({blocks})")
        self.largest = 0
        for line in range(self.n_lines):
            if self.clue_start[line + 1] < self.clue_start[line]:
                raise ValueError("clue_start must not decrease")
            self.largest = max(self.largest, self.blocks_of(line))
        return 0

    def restart(self):
        """Forget everything: every cell may take every value again, every line dirty,
        statistics zero."""
        cdef int line
        self.reset_cells()
        self.trail_len = 0
        self.unknown = self.n_cells
        self.queue_head = 0
        self.queue_count = 0
        memset(self.queued, 0, self.n_lines)
        for line in range(self.n_lines):
            self.enqueue(line)
        self.depth = 0
        self.state = FRESH
        self.nodes = 0
        self.line_solves = 0
        self.probes = 0
        self.solutions = 0
        self.cache_hits = 0

    # ----- what a core supplies -----

    cdef void reset_cells(self) noexcept:
        """Every cell back to all its values, and the core's own state fresh."""

    cdef int propagate(self) except -1:
        """Solve dirty lines until none is left: 1 at the fixpoint, 0 on a contradiction
        (the queue is then emptied; the caller undoes the trail)."""
        return 0

    cdef int probe(self) except -1:
        """Probing at a node (through :func:`probe_rounds`): 0 when the grid has no
        solution, 1, or 2 when a probe completed the grid."""
        return 0

    cdef int backtrack(self) noexcept:
        """Go to the next untried branch: 1, or 0 when the tree is exhausted."""
        return 0

    cdef void go_down(self, int settled, bint probing) noexcept:
        """Branch below a node that :meth:`settle_node` left with undecided cells."""

    cdef void begin_search(self) noexcept:
        """Ready the core for :meth:`next_solution`'s loop."""

    # ----- the queue of dirty lines -----

    cdef inline void enqueue(self, int line) noexcept:
        if not self.queued[line]:
            self.queued[line] = 1
            self.queue[(self.queue_head + self.queue_count) % self.n_lines] = line
            self.queue_count += 1

    cdef inline void enqueue_lines_of(self, int cell) noexcept:
        """Put ``cell``'s row and column in the queue."""
        self.enqueue(cell // self.width)
        self.enqueue(self.height + cell % self.width)

    cdef inline void enqueue_crossing(self, int line, int i) noexcept:
        """Put in the queue the line that crosses ``line`` at its ``i``-th cell."""
        if line < self.height:
            self.enqueue(self.height + i)
        else:
            self.enqueue(i)

    cdef inline int next_line(self) except -1:
        """Take the next dirty line out of the queue, counting it as a line solve (and
        looking at Ctrl-C every ``CHECK_EVERY`` of them)."""
        cdef int line = self.queue[self.queue_head]
        self.queue_head = (self.queue_head + 1) % self.n_lines
        self.queue_count -= 1
        self.queued[line] = 0
        self.line_solves += 1
        if self.line_solves % CHECK_EVERY == 0:
            PyErr_CheckSignals()
        return line

    cdef void clear_queue(self) noexcept:
        while self.queue_count:
            self.queued[self.queue[self.queue_head]] = 0
            self.queue_head = (self.queue_head + 1) % self.n_lines
            self.queue_count -= 1

    cdef inline int line_span(self, int line, int *first, int *step) noexcept:
        """Line ``line``'s number of cells; its first cell and the stride between its
        cells go to ``first`` and ``step``."""
        if line < self.height:
            first[0], step[0] = line * self.width, 1
            return self.width
        first[0], step[0] = line - self.height, self.width
        return self.height

    cdef inline int blocks_of(self, int line) noexcept:
        """How many blocks line ``line``'s clue has."""
        return self.clue_start[line + 1] - self.clue_start[line]

    # ----- search -----

    cdef int settle_node(self, bint probing) except -1:
        """Propagation, then probing (when ``probing`` and cells are left): 0 on a
        contradiction, 1, or 2 when a probe completed the grid (see :meth:`probe`)."""
        if not self.propagate():
            return 0
        if probing and self.unknown:
            return self.probe()
        return 1

    cdef inline int limit_reached(
        self, int64_t max_nodes, int64_t max_probes, double deadline
    ) noexcept:
        """``LIMIT_NODES`` when ``nodes`` reached ``max_nodes`` or ``probes`` reached
        ``max_probes``, ``LIMIT_TIME`` when the clock passed ``deadline`` (looked at
        every 16 nodes; negative: no limit), else 0."""
        if ((max_nodes >= 0 and self.nodes >= max_nodes)
                or (max_probes >= 0 and self.probes >= max_probes)):
            return LIMIT_NODES
        if deadline >= 0 and self.nodes % 16 == 0 and monotonic() > deadline:
            return LIMIT_TIME
        return 0

    def next_solution(self, int64_t max_nodes=-1, double deadline=-1.0, bint probing=True,
                      int64_t max_probes=-1):
        """Search on to the next solution: ``SOLUTION`` (read the grid), ``EXHAUSTED``,
        or ``NODE_LIMIT`` / ``TIME_LIMIT`` when ``nodes`` reached ``max_nodes``,
        ``probes`` reached ``max_probes`` or ``time.monotonic()`` passed ``deadline``
        (negative: no limit); after a limit the next call carries on.
        ``probing=False`` searches with propagation alone, branching on the first
        undecided cell (for comparisons)."""
        cdef int settled, limit
        if self.state == BROKEN:
            raise RuntimeError("this search was interrupted and cannot go on; restart it")
        if self.state == GUESSING:
            raise RuntimeError("a paused guess cannot be searched on; restart it")
        if self.state == DONE:
            return EXHAUSTED
        if self.state == FOUND and not self.backtrack():
            self.state = DONE
            return EXHAUSTED
        self.state = BROKEN  # until this call returns normally
        self.begin_search()
        while True:
            limit = self.limit_reached(max_nodes, max_probes, deadline)
            if limit:
                self.state = RUNNING
                return limit
            self.nodes += 1
            settled = self.settle_node(probing)
            if not settled:
                if not self.backtrack():
                    self.state = DONE
                    return EXHAUSTED
                continue
            if not self.unknown:
                self.solutions += 1
                self.state = FOUND
                return SOLUTION
            self.go_down(settled, probing)

    def propagate_only(self):
        """Run line propagation from the start, without probing or search: 1 at the
        fixpoint, 0 on a contradiction; the grid shows what it decided."""
        self.restart()
        self.state = BROKEN
        result = self.propagate()
        self.state = DONE
        return result


# ----- probing -----
#
# The rounds of probing are one function for both cores, specialised by Cython for each
# (a fused type): each specialisation calls its core's ``probe_cell``, an inline method
# that passes over a decided cell in a few instructions, where a call through the
# virtual table for every cell of every round cost a sixth of all probing.

ctypedef fused AnyCore:
    Core
    ColourCore


cdef inline int probe_rounds(AnyCore core, bint one_round, bint near_only) except -1:
    """Go round the cells probing them (``core.probe_cell``) until a whole round changes
    nothing, or for one round only when ``one_round``: 1, 0 when the grid has no
    solution, 2 when a probe completed it. With ``near_only``, a round first offers the
    core only the cells near decided ones (it may skip the others), and when such a round
    changes nothing, rounds go on over every cell."""
    cdef int cell = 0, since_change = 0, outcome
    cdef int visited = 0, budget = core.n_cells if one_round else 1 << 30
    while core.unknown and visited < budget:
        if since_change >= core.n_cells:
            if not near_only:
                break
            near_only = False  # a round of the near cells changed nothing: all cells
            since_change = 0
        cell = (cell + 1) % core.n_cells
        since_change += 1
        visited += 1
        outcome = core.probe_cell(cell, near_only)
        if outcome == PROBE_CHANGED:
            since_change = 0
        elif outcome == PROBE_FAILED:
            return 0
        elif outcome == PROBE_COMPLETED:
            return 2
    return 1
