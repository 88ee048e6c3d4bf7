# The search driver the three compiled engines share: ``include``d by ``_links.pyx``,
# ``_bits.pyx`` and ``_cells.pyx``, so that each extension compiles its own copy and the
# C compiler inlines the per-node helpers into the engine's loop.
#
# An engine keeps its data structure and its moves; the driver keeps what a search run is
# whatever the engine: the common run state (:c:type:`Run`: the level, the phase where a
# stopped search resumes, the statistics, the random generator), the stop rules that the
# engines' loops apply at every node (the node limit, the solution limit, the chunk of
# work), and the Python face around the loop (:class:`_Driver`: the chunks run without
# the GIL, Ctrl-C and the deadline between them, resuming, resetting, the statistics).
#
# The engine's loop is a state machine that can stop between two steps and resume exactly
# there: at a solution, at a limit on nodes or solutions, and after each chunk of work
# (status ST_BUDGET), when the driver checks for Ctrl-C and the deadline.

from array import array

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint64_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef enum:
    # What a run stops at (ST_BUDGET never leaves the module: the chunk is over).
    ST_DONE = 0
    ST_SOLUTION = 1
    ST_MAX_SOLUTIONS = 2
    ST_MAX_NODES = 3
    ST_TIMEOUT = 4
    ST_BUDGET = 5
    # An engine's loop goes on (the helpers below return it when no stop is due).
    ST_GO_ON = -1

cdef enum:
    # The phases every engine shares (each adds its own between the two).
    FORWARD = 0     # enter level ``level`` and choose an item
    FINISHED = 3    # the whole tree has been explored

cdef enum:
    MRV = 0
    LEFTMOST = 1
    MRV_RANDOM = 2
    FORCED = 3      # MRV with forced moves batched: the bit-parallel engine only
    WEIGHTED = 4    # fewest options per unit of failure weight: the bit-parallel engine only
    SIZES = 5       # MRV with the size bound (dead levels): the bit-parallel engine only


cdef struct Run:
    # The state of a search run common to the engines; the first field of each engine's
    # state, so that the loops reach it at a fixed offset of the state they already hold.
    int32_t level            # the level the search stopped at
    int32_t phase            # where it resumes: FORWARD, FINISHED or the engine's own
    int32_t heuristic        # MRV, LEFTMOST, MRV_RANDOM, FORCED or WEIGHTED (SIZES runs as MRV)
    int32_t first_item       # the item level 0 branches on (each engine's numbering)
    uint64_t rng             # the xorshift64* state of random tie-breaking
    uint64_t nodes
    uint64_t updates
    uint64_t solutions
    uint64_t work            # the engine's measure of work done, for chunking


# ---------------------------------------------------------------------------------------
# Per-node helpers of the engines' loops (inline: no call per node is left in the C code).

cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    """The next number of the xorshift64* generator whose state is ``state``."""
    cdef uint64_t x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * <uint64_t>0x2545F4914F6CDD1D


cdef inline bint coin(uint64_t* state, uint64_t ties) noexcept nogil:
    """True with probability 1/ties: the reservoir rule that makes every tie equally likely."""
    return (next_random(state) >> 32) % ties == 0


cdef inline bint random_fewest(int64_t size, int64_t* least, uint64_t* ties,
                               uint64_t* state) noexcept nogil:
    """The random MRV rule for one more candidate of ``size`` options: whether it becomes
    the choice, by having fewer than ``least`` (then the new least, with no tie yet) or by
    winning its tie (:func:`coin`)."""
    if size < least[0]:
        least[0] = size
        ties[0] = 1
        return True
    if size == least[0]:
        ties[0] += 1
        return coin(state, ties[0])
    return False


cdef inline uint64_t node_cap(int64_t max_nodes) noexcept nogil:
    """The node limit as the loops compare it (-1, no limit, is the largest count)."""
    return <uint64_t>max_nodes if max_nodes >= 0 else <uint64_t>-1


cdef inline int enter_node(uint64_t* nodes, uint64_t cap) noexcept nogil:
    """Count the node of a level about to be entered, unless the node limit stops first:
    ST_MAX_NODES (nothing counted) or ST_GO_ON."""
    if nodes[0] >= cap:
        return ST_MAX_NODES
    nodes[0] += 1
    return ST_GO_ON


cdef inline int solution_stop(uint64_t solutions, bint count_only,
                              int64_t max_solutions) noexcept nogil:
    """Whether the run stops at the solution just counted: ST_SOLUTION when it reports
    solutions, ST_MAX_SOLUTIONS at the limit, else ST_GO_ON."""
    if not count_only:
        return ST_SOLUTION
    if max_solutions >= 0 and solutions >= <uint64_t>max_solutions:
        return ST_MAX_SOLUTIONS
    return ST_GO_ON


cdef inline int check_step(uint64_t* nodes, bint entering, uint64_t spent, uint64_t budget,
                           uint64_t cap) noexcept nogil:
    """The checks at the top of an engine's loop, before a step: ST_BUDGET once ``spent``
    reaches the chunk's ``budget``; when the step ``entering`` a level, ST_MAX_NODES at
    the node limit, else the level's node is counted; ST_GO_ON when the step is to go on."""
    if spent >= budget:
        return ST_BUDGET
    if entering:
        return enter_node(nodes, cap)
    return ST_GO_ON


cdef inline int back_up(int32_t* level, int32_t* phase) noexcept nogil:
    """Leave the current level for its parent; at the root, the search is over: the phase
    is FINISHED and the status ST_DONE (else ST_GO_ON)."""
    if level[0] == 0:
        phase[0] = FINISHED
        return ST_DONE
    level[0] -= 1
    return ST_GO_ON


cdef inline int count_solution(uint64_t* nodes, uint64_t* solutions, bint count_only,
                               int64_t max_solutions) noexcept nogil:
    """Count a solution (and its node, by Knuth's rule); say whether the run stops there:
    ST_SOLUTION when it reports solutions, ST_MAX_SOLUTIONS at the limit, else ST_GO_ON."""
    solutions[0] += 1
    nodes[0] += 1
    return solution_stop(solutions[0], count_only, max_solutions)


# ---------------------------------------------------------------------------------------
# Building: the arguments every engine takes, checked alike.

cdef double monotonic() noexcept nogil:
    """The clock of ``time.monotonic()``."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef uint64_t mix_seed(uint64_t seed) noexcept:
    """SplitMix64 of the seed, so that nearby seeds give unrelated streams (never 0)."""
    cdef uint64_t z = seed + <uint64_t>0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    z ^= z >> 31
    return z if z != 0 else 1


def _int_array(values):
    """``values`` as a buffer of C ints (arrays of typecode 'i' pass through uncopied)."""
    if isinstance(values, array) and values.typecode == "i":
        return values
    try:
        return array("i", values)
    except OverflowError as error:
        raise ValueError(f"a value does not fit in a C int: {error}") from None


def _checked_arrays(arrays, int heuristic, algorithm, int first_item):
    """The five arrays of the problem ``arrays`` (an :class:`~excover.problem.EngineInput`)
    as buffers of C ints, once their shapes and ranges are checked with the engine's other
    arguments (the model guarantees them; this guards misuse)."""
    cdef int n_primary = arrays.n_primary
    starts, items, colors, los, his = checked = (
        _int_array(arrays.option_start), _int_array(arrays.node_item),
        _int_array(arrays.node_color), _int_array(arrays.lo), _int_array(arrays.hi))
    _validate(n_primary, arrays.n_secondary, starts, items, colors, los, his, heuristic)
    if not -1 <= first_item < n_primary:
        raise ValueError(f"first_item {first_item} is not a primary item")
    if algorithm is not None and algorithm not in ("X", "C", "M"):
        raise ValueError(f"unknown algorithm {algorithm!r}")
    return checked


cdef int _validate(int n_primary, int n_secondary, const int[::1] starts,
                   const int[::1] items, const int[::1] colors, const int[::1] los,
                   const int[::1] his, int heuristic) except -1:
    """Check the arrays' shapes and ranges; raise ValueError naming the first fault."""
    cdef Py_ssize_t n_options = starts.shape[0] - 1, n_nodes = items.shape[0], k, j
    cdef int n_items = n_primary + n_secondary, c
    if n_primary < 0 or n_secondary < 0:
        raise ValueError("the numbers of items must be non-negative")
    if heuristic not in (MRV, LEFTMOST, MRV_RANDOM):
        raise ValueError(f"unknown heuristic code {heuristic}")
    if n_options < 0 or starts[0] != 0 or starts[n_options] != n_nodes:
        raise ValueError("option_start must run from 0 to len(node_item)")
    if colors.shape[0] != n_nodes:
        raise ValueError("node_color must have one entry per node")
    if los.shape[0] != n_primary or his.shape[0] != n_primary:
        raise ValueError("lo and hi must have one entry per primary item")
    for j in range(n_primary):
        if not 0 <= los[j] <= his[j] or his[j] < 1:
            raise ValueError(f"bad multiplicity {los[j]}..{his[j]} of item {j}: "
                             "need 0 <= lo <= hi and hi >= 1")
    last_seen = array("i", [-1]) * (n_items if n_items > 0 else 1)
    cdef int[::1] seen = last_seen
    for k in range(n_options):
        if starts[k + 1] < starts[k]:
            raise ValueError(f"option_start decreases at option {k}")
        for j in range(starts[k], starts[k + 1]):
            c = items[j]
            if not 0 <= c < n_items:
                raise ValueError(f"option {k} names item {c}, out of range 0..{n_items - 1}")
            if seen[c] == k:
                raise ValueError(f"option {k} names item {c} twice")
            seen[c] = <int>k
            if colors[j] < 0:
                raise ValueError(f"option {k} gives item {c} the negative color {colors[j]}")
            if colors[j] != 0 and c < n_primary:
                raise ValueError(f"option {k} gives a color to the primary item {c}")
    return 0


# ---------------------------------------------------------------------------------------
# The Python face around an engine's loop.

cdef class _Driver:
    """What an engine's Python face does whatever the engine: run the search chunk after
    chunk, resume it, reset it, and report its statistics.

    A subclass points ``run_state`` at the :c:type:`Run` of its state, sets ``seed`` and
    overrides the hooks: ``_search`` (one chunk of its loop, without the GIL), ``_rewind``
    (its structure back to the root), and where it differs from the default ``_unwind``,
    ``_trivial``, ``_owns_trivial`` and ``_solution_levels``.
    """

    cdef Run* run_state
    cdef uint64_t seed
    cdef int32_t solution_size       # options in the current solution, -1 if none
    cdef bint running                # run() is searching (in another thread)

    cdef int _search(self, bint count_only, int64_t max_solutions,
                     int64_t max_nodes) noexcept nogil:
        """Run the engine's loop from the saved state for one chunk of work at the most;
        return the status it stops at (ST_BUDGET: the chunk is over)."""
        return ST_DONE

    cdef void _rewind(self):
        """Put the engine's structure back as it is at the root of the search."""

    cdef void _unwind(self):
        """Undo the moves of the levels of a stopped search (engines that undo in place)."""

    cdef bint _trivial(self):
        """Whether the search is the empty solution alone (the loop is not run)."""
        return False

    cdef bint _owns_trivial(self):
        """Whether the empty solution of a trivial search is this engine's to report."""
        return True

    cdef int32_t _solution_levels(self):
        """The levels of the stack the solution the loop stopped at spans."""
        return self.run_state.level + 1

    cdef void _restart(self):
        """Start over at the root: no progress, no statistics, the generator reseeded."""
        self.run_state.level = 0
        self.run_state.phase = FORWARD
        self.run_state.nodes = 0
        self.run_state.updates = 0
        self.run_state.solutions = 0
        self.run_state.work = 0
        self.run_state.rng = self.seed
        self.solution_size = -1
        self._rewind()

    cdef void _check_idle(self) except *:
        """The search state belongs to run() while it works without the GIL."""
        if self.running:
            raise RuntimeError("the engine is running in another thread")

    def reset(self):
        """Forget all progress: undo the levels of a stopped search and start again."""
        self._check_idle()
        if self.run_state.phase != FINISHED:
            self._unwind()
        self._restart()

    def run(self, bint count_only, int64_t max_solutions, int64_t max_nodes, double deadline):
        """Search on from where the last call stopped; return the status of the stop.

        Works chunk after chunk without the GIL, while other threads may not touch the
        engine. Between chunks, where the state is consistent, it checks for Ctrl-C
        (running the signal handlers) and the deadline.
        """
        cdef int status
        self._check_idle()
        self.solution_size = -1
        if self.run_state.phase == FINISHED:
            return ST_DONE
        if max_solutions >= 0 and self.run_state.solutions >= <uint64_t>max_solutions:
            return ST_MAX_SOLUTIONS
        if self._trivial():
            return self._empty_solution(count_only, max_nodes)
        while True:
            self.running = True
            with nogil:
                status = self._search(count_only, max_solutions, max_nodes)
            self.running = False
            if status == ST_BUDGET:
                PyErr_CheckSignals()
                if deadline > 0.0 and monotonic() >= deadline:
                    return ST_TIMEOUT
                continue
            if status == ST_SOLUTION:
                self.solution_size = self._solution_levels()
            return status

    cdef int _empty_solution(self, bint count_only, int64_t max_nodes):
        """With nothing to cover, the empty set of options is the one solution."""
        if max_nodes >= 0 and self.run_state.nodes >= <uint64_t>max_nodes:
            return ST_MAX_NODES
        self.run_state.nodes = 1
        self.run_state.phase = FINISHED
        if not self._owns_trivial():
            return ST_DONE
        self.run_state.solutions = 1
        if count_only:
            return ST_DONE
        self.solution_size = 0
        return ST_SOLUTION

    cdef void _check_solution(self) except *:
        """solution() is only for a run that stopped at a solution."""
        self._check_idle()
        if self.solution_size < 0:
            raise RuntimeError("the last run() did not stop at a solution")

    @property
    def solutions(self):
        return self.run_state.solutions

    @property
    def nodes(self):
        return self.run_state.nodes

    @property
    def updates(self):
        return self.run_state.updates

    @property
    def finished(self):
        return self.run_state.phase == FINISHED
