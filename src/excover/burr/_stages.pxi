# The stage-by-stage disassembly of a whole assembly, compiled (included by _moves.pyx).
#
# Stages takes a part apart as excover.burr.search describes: the breadth-first search of
# the part hands out its separations nearest first; the part left behind is taken apart,
# then the part taken out; the first separation whose two parts both come apart is kept
# (the complete search goes on to the next one when they do not, the greedy one stops).
# Outcomes are remembered by part and configuration (the configuration told with the
# part's first piece at the origin), and, in the complete search, a set of pieces that
# does not come apart is remembered as such in any configuration (docs/burr.md says why
# that is safe). A part all in one group is not taken apart, and one that does not come
# apart may stay together when it fits a group: the caller's ``grouping`` decides both.
#
# The tree is kept as arrays (nodes and moves) and handed out as one buffer of 64-bit
# words, each separation in pre-order: its pieces, its number of moves, whether it has a
# left and a removed subtree (bits 0 and 1), then its moves (the pieces that move, the
# direction, the distance plus one, 0 taking them out), then its left subtree, then its
# removed one. excover.burr.disassembly.PackedSeparationTree reads it; the moves are told as the
# Python disassembler told them (the smaller side moves; the lighter side when the
# pieces have weights).

DEF NONE = -1          # an outcome: the part does not come apart
DEF ALONE = -2         # an outcome: the part is left as it is (a piece, or one group)
DEF SAME_GROUP = 1     # grouping: the pieces are all in one group
DEF FITS_GROUP = 2     # grouping: the pieces may stay together as a group

#: Stages kept for reuse (their searches and buffers), taken and given back by
#: stage_by_stage; the GIL makes the list's pop and append atomic.
cdef list _SPARE_STAGES = []


cdef struct Node:
    uint64_t pieces
    int32_t first          # its first move in the move arrays
    int32_t count          # its moves; 0: a group left together (no tree)
    int32_t left
    int32_t removed
    int32_t beyond         # some separation of the subtree is not its search's first


cdef inline void _key_of(int16_t *key, uint64_t mask) noexcept:
    cdef int w
    for w in range(4):
        key[w] = <int16_t>(<uint16_t>((mask >> (16 * w)) & 0xFFFF))


@cython.final
cdef class Stages:
    """The stage-by-stage disassembly of the parts of one assembly (:class:`Part`
    ``whole``): ``weights`` (one a piece, or None: all alike), ``grouping`` (None, or a
    function of a set of pieces, a mask, giving 1 when they are all in one group plus 2
    when they may stay together as a group) and ``complete`` (try every separation, or
    only the first of each part as BurrTools does)."""

    cdef Part whole
    cdef int n
    cdef int weights[64]
    cdef bint weighted
    cdef object grouping
    cdef bint complete
    cdef Meter meter               # the limits of the run under way
    cdef list searches             # one a depth of the recursion
    cdef Node *nodes
    cdef Py_ssize_t node_count, node_capacity
    cdef uint64_t *move_mask
    cdef int32_t *move_direction
    cdef int32_t *move_step        # -1: out
    cdef Py_ssize_t move_count, move_capacity
    cdef Front memo[65]            # by the part's size: its pieces and configuration
    cdef uint64_t memo_made[2]     # which of them are made
    cdef uint64_t memo_used[2]     # which hold something
    cdef Front stuck               # the sets found not to come apart
    cdef Front grouped             # grouping's answers, by set
    cdef int16_t *starts           # the two parts' configurations, 6 n values a depth,
                                   # then the configuration the recursion starts from
    cdef int *locals               # their pieces' indices in the search, 2 n a depth
    cdef int starts_room

    def __cinit__(self, Part whole=None, weights=None, grouping=None, bint complete=True):
        self.searches = []
        self.meter = Meter()
        self._resize_nodes(64)
        self._resize_moves(256)
        _front_init(&self.stuck, 4, True)
        _front_init(&self.grouped, 4, True)
        if whole is not None:
            self._reset(whole, weights, grouping, complete)

    def __dealloc__(self):
        cdef int k
        for k in range(65):
            if (self.memo_made[k >> 6] >> (k & 63)) & 1:
                _front_free(&self.memo[k])
        _front_free(&self.stuck)
        _front_free(&self.grouped)
        _release(self.nodes, self.node_capacity * sizeof(Node))
        _release(self.move_mask, self.move_capacity * sizeof(uint64_t))
        _release(self.move_direction, self.move_capacity * sizeof(int32_t))
        _release(self.move_step, self.move_capacity * sizeof(int32_t))
        free(self.starts)
        free(self.locals)

    cdef int _resize_nodes(self, Py_ssize_t capacity) except -1:
        """Make the tree's nodes hold ``capacity``."""
        self.nodes = <Node *>_resized(self.nodes, self.node_capacity * sizeof(Node),
                                      capacity * sizeof(Node), False)
        self.node_capacity = capacity
        return 0

    cdef int _resize_moves(self, Py_ssize_t capacity) except -1:
        """Make the tree's moves hold ``capacity``."""
        cdef size_t before = self.move_capacity, after = capacity
        if after > before:
            _afford((after - before) * (sizeof(uint64_t) + 2 * sizeof(int32_t)))
        self.move_mask = <uint64_t *>_resized(self.move_mask, before * sizeof(uint64_t),
                                              after * sizeof(uint64_t), False)
        self.move_direction = <int32_t *>_resized(
            self.move_direction, before * sizeof(int32_t), after * sizeof(int32_t), False)
        self.move_step = <int32_t *>_resized(self.move_step, before * sizeof(int32_t),
                                             after * sizeof(int32_t), False)
        self.move_capacity = capacity
        return 0

    cdef int _trim(self) except -1:
        """Give back what a large run grew (its answer read): a spare waiting for the
        next run holds small tables only, whatever the last run was."""
        cdef int k
        for k in range(65):
            if (self.memo_made[k >> 6] >> (k & 63)) & 1 and self.memo[k].size > 4096:
                _front_free(&self.memo[k])
                _front_init(&self.memo[k], 4 + 3 * k, self.memo[k].valued)
        if self.stuck.size > 4096:
            _front_free(&self.stuck)
            _front_init(&self.stuck, 4, True)
        if self.grouped.size > 4096:
            _front_free(&self.grouped)
            _front_init(&self.grouped, 4, True)
        if self.node_capacity > 4096:
            self._resize_nodes(64)
            self.node_count = 0
        if self.move_capacity > 16384:
            self._resize_moves(256)
            self.move_count = 0
        return 0

    cdef int _reset(self, Part whole, weights, grouping, bint complete) except -1:
        """Forget the last assembly; take apart the parts of ``whole``."""
        cdef int k
        cdef int given[64]
        for k in range(whole.n):
            given[k] = 1 if weights is None else weights[k]
        return self._reset_to(whole, given, grouping, complete)

    cdef int _reset_to(self, Part whole, const int *weights, grouping,
                       bint complete) except -1:
        """:meth:`_reset` with the weights (one a piece) as numbers."""
        cdef int k, n = whole.n
        self.whole = whole
        self.n = n
        self.weighted = False
        for k in range(n):
            self.weights[k] = weights[k]
            if self.weights[k] != self.weights[0]:
                self.weighted = True
        self.grouping = grouping
        self.complete = complete
        self.node_count = 0
        self.move_count = 0
        for k in range(65):
            if (self.memo_used[k >> 6] >> (k & 63)) & 1:
                _front_reset(&self.memo[k], 4 + 3 * k)
        self.memo_used[0] = self.memo_used[1] = 0
        _front_reset(&self.stuck, 4)
        _front_reset(&self.grouped, 4)
        if n > self.starts_room:
            free(self.starts)
            free(self.locals)
            self.starts = <int16_t *>malloc(6 * n * (n + 2) * sizeof(int16_t))
            self.locals = <int *>malloc(2 * n * (n + 2) * sizeof(int))
            if self.starts == NULL or self.locals == NULL:
                self.starts_room = 0
                raise MemoryError()
            self.starts_room = n
        return 0

    def run(self, budget):
        """The whole assembly taken apart (its pieces at their assembled places): None
        when it does not come apart, else ``(tree, beyond, grouped)``: the separations
        (a buffer of 64-bit words, see the module's notes), whether a separation of it
        is not the first its search found, and the sets left together as groups (masks,
        in the tree's pre-order). The run stops within ``budget`` (see :class:`Meter`):
        ``budget.spend(k)`` is told of the configurations found (OutOfBudget, or any
        error it raises, goes through), MemoryBoundError past ``budget.max_memory``,
        KeyboardInterrupt on Ctrl-C."""
        cdef int16_t *start
        if self.n < 2:
            raise ValueError("an assembly of 2 pieces or more comes apart")
        start = self.starts + 6 * self.n * (self.n + 1)
        memset(start, 0, 3 * self.n * sizeof(int16_t))  # every piece where it is assembled
        self.meter.start(budget)
        try:
            found = self._separate(self._all(), self.n, start, 0, None, NULL)
            self.meter.tell()
        finally:
            self._done()
        return None if found == NONE else self._answer(found)

    def separate(self, pieces, start, budget):
        """The part of the pieces ``pieces`` (their indices, in order) taken apart from
        the configuration ``start`` (their translations): None when it does not come
        apart, else ``(tree, grouped)`` as :meth:`run` gives them. Outcomes are
        remembered between calls."""
        cdef int k, a, count = len(pieces)
        cdef uint64_t mask = 0
        cdef int16_t *first = self.starts + 6 * self.n * (self.n + 1)
        if not 2 <= count <= self.n or len(start) != count:
            raise ValueError("a part of 2 pieces or more, with a translation for each")
        for k in range(count):
            mask |= (<uint64_t>1) << <int>pieces[k]
            for a in range(3):
                first[3 * k + a] = <int16_t>(int(start[k][a]) - int(start[0][a]))
        self.meter.start(budget)
        try:
            found = self._separate(mask, count, first, 0, None, NULL)
            self.meter.tell()
        finally:
            self._done()
        if found == NONE:
            return None
        tree, _, grouped = self._answer(found)
        return tree, grouped

    cdef uint64_t _all(self) noexcept:
        return (<uint64_t>1 << self.n) - 1 if self.n < 64 else <uint64_t>0xFFFFFFFFFFFFFFFF

    cdef int _done(self) except -1:
        """After a run: the budget let go, the memory of large searches given back, and
        the pieces let go (a spare kept for the next run must not keep a geometry and its
        pair tables alive: they count against the next run's bound on memory)."""
        cdef Search search
        self.meter.budget = None
        for search in self.searches:
            search.shrink()
            search.part = None
        return 0

    cdef Search _search(self, int depth):
        """The search of this depth of the recursion, its buffers kept between parts."""
        cdef Search search
        while len(self.searches) <= depth:
            self.searches.append(Search(None))
        search = <Search>self.searches[depth]
        search._reserve(self.n)
        search.meter = self.meter
        return search

    cdef int _heaviest(self, uint64_t mask) noexcept:
        cdef int best = -2147483647, k
        while mask:
            k = ctz64(mask)
            mask &= mask - 1
            if self.weights[k] > best:
                best = self.weights[k]
        return best

    cdef bint _heavier(self, uint64_t these, uint64_t others) noexcept:
        """Does a piece of ``these`` outweigh every piece of ``others``?"""
        return self.weighted and self._heaviest(these) > self._heaviest(others)

    cdef int _grouping(self, uint64_t pieces) except -1:
        """``grouping``'s answer for the set, remembered."""
        cdef int16_t key[4]
        cdef Py_ssize_t at
        cdef int flags
        _key_of(key, pieces)
        at = _front_find(&self.grouped, key, 4)
        if at >= 0:
            return <int>self.grouped.node[at]
        flags = self.grouping(pieces)
        _front_add(&self.grouped, key, 4, flags)
        return flags

    cdef int _node(self, uint64_t pieces) except -1:
        """A new node (no moves, no subtrees); its index."""
        if self.node_count == self.node_capacity:
            self._resize_nodes(2 * self.node_capacity)
        self.nodes[self.node_count] = Node(pieces, <int32_t>self.move_count, 0, ALONE, ALONE, 0)
        self.node_count += 1
        return <int>(self.node_count - 1)

    cdef int _tell(self, uint64_t pieces, uint64_t moving, int direction, int step) except -1:
        """Add a move of the part ``pieces``: the set ``moving`` slides ``step`` along
        ``direction`` (-1: out), told as the smaller side moving (the other side moving
        the opposite way is the same move), the lighter side when weights differ."""
        cdef uint64_t still = pieces & ~moving
        if step >= 0 and popcount64(moving) > popcount64(still):
            moving, still = still, moving
            direction ^= 1
        if self._heavier(moving, still):
            moving = still
            direction ^= 1
        if self.move_count == self.move_capacity:
            self._resize_moves(2 * self.move_capacity)
        self.move_mask[self.move_count] = moving
        self.move_direction[self.move_count] = direction
        self.move_step[self.move_count] = step
        self.move_count += 1
        return 0

    cdef int _part(self, uint64_t pieces, int count, const int16_t *start, int depth,
                   Search parent, const int *local) except -3:
        """The outcome of a part (``parent``'s pieces ``local`` where its last
        separation leaves them): ALONE for a piece or a part all in one group, NONE when
        it does not come apart (and does not fit a group), else a node."""
        cdef int flags = 0, found
        if count == 1:
            return ALONE
        if self.grouping is not None:
            flags = self._grouping(pieces)
            if flags & SAME_GROUP:
                return ALONE
        found = self._separate(pieces, count, start, depth, parent, local)
        if found == NONE and flags & FITS_GROUP:
            return self._node(pieces)
        return found

    cdef int _separate(self, uint64_t pieces, int count, const int16_t *start, int depth,
                       Search parent, const int *local) except -3:
        """The part ``pieces`` (``count`` of them) taken apart from ``start`` (``3
        count`` values, its first piece at the origin): NONE or a node. ``parent``,
        when not None, is the search whose configuration puts the pieces there (their
        indices in it: ``local``), its table filled for that configuration."""
        cdef int16_t key[4 + 3 * 64]
        cdef int at[64]
        cdef int k, a, w, direction = 0, step, got, number = -1, found = NONE
        cdef int stays, goes, first_left, first_taken, nl, nt, node_at
        cdef int width = 4 + 3 * count
        cdef uint64_t mask = 0, left, taken, bits, moved
        cdef Py_ssize_t known
        cdef int64_t record
        cdef Front *memo = &self.memo[count]
        cdef Search search
        cdef int16_t *left_start
        cdef int16_t *taken_start
        cdef int *left_local
        cdef int *taken_local
        cdef const int16_t *s
        _key_of(key, pieces)
        memcpy(key + 4, start, 3 * count * sizeof(int16_t))
        if not (self.memo_made[count >> 6] >> (count & 63)) & 1:
            _front_init(memo, width, True)
            self.memo_made[count >> 6] |= (<uint64_t>1) << (count & 63)
        known = _front_find(memo, key, width)
        if known >= 0:
            return <int>memo.node[known]
        if self.complete and _front_find(&self.stuck, key, 4) >= 0:
            return NONE
        bits = pieces
        for k in range(count):
            at[k] = ctz64(bits)
            bits &= bits - 1
        search = self._search(depth)
        search._restart(self.whole, at, count, start, False)
        if parent is not None:
            search._inherit(parent, local)
        left_start = self.starts + 6 * self.n * depth
        taken_start = left_start + 3 * self.n
        left_local = self.locals + 2 * self.n * depth
        taken_local = left_local + self.n
        while True:
            got = search._next(&mask, &direction)
            if got == 0:
                break
            self.meter.tick()
            number += 1
            left = taken = 0
            nl = nt = 0
            first_left = first_taken = -1
            s = search.pending_state
            for k in range(count):
                if (mask >> k) & 1:
                    taken |= (<uint64_t>1) << at[k]
                    if first_taken < 0:
                        first_taken = k
                    for a in range(3):
                        taken_start[3 * nt + a] = s[3 * k + a] - s[3 * first_taken + a]
                    taken_local[nt] = k
                    nt += 1
                else:
                    left |= (<uint64_t>1) << at[k]
                    if first_left < 0:
                        first_left = k
                    for a in range(3):
                        left_start[3 * nl + a] = s[3 * k + a] - s[3 * first_left + a]
                    left_local[nl] = k
                    nl += 1
            if self._heavier(taken, left):  # the heavier set stays: the others come out
                stays = self._part(taken, nt, taken_start, depth + 1, search, taken_local)
                goes = NONE if stays == NONE else self._part(
                    left, nl, left_start, depth + 1, search, left_local)
            else:
                stays = self._part(left, nl, left_start, depth + 1, search, left_local)
                goes = NONE if stays == NONE else self._part(
                    taken, nt, taken_start, depth + 1, search, taken_local)
            if stays != NONE and goes != NONE:
                found = self._node(pieces)
                record = search.pending_node
                while record > 0:  # the moves, last first
                    bits = 0
                    moved = search.rmask[record]
                    while moved:
                        bits |= (<uint64_t>1) << at[ctz64(moved)]
                        moved &= moved - 1
                    self._tell(pieces, bits, search.rmove[record] >> 16,
                               search.rmove[record] & 0xFFFF)
                    record = search.parent[record]
                node_at = self.nodes[found].first
                k, w = node_at, <int>self.move_count - 1
                while k < w:  # into the order they are played
                    self.move_mask[k], self.move_mask[w] = self.move_mask[w], self.move_mask[k]
                    self.move_direction[k], self.move_direction[w] = (
                        self.move_direction[w], self.move_direction[k])
                    self.move_step[k], self.move_step[w] = self.move_step[w], self.move_step[k]
                    k += 1
                    w -= 1
                bits = 0
                moved = mask
                while moved:
                    bits |= (<uint64_t>1) << at[ctz64(moved)]
                    moved &= moved - 1
                self._tell(pieces, bits, direction, -1)
                self.nodes[found].count = <int32_t>(self.move_count - node_at)
                self.nodes[found].left = stays
                self.nodes[found].removed = goes
                self.nodes[found].beyond = (
                    number > 0
                    or (stays >= 0 and self.nodes[stays].beyond)
                    or (goes >= 0 and self.nodes[goes].beyond))
                break
            if not self.complete:
                break
        _key_of(key, pieces)
        memcpy(key + 4, start, 3 * count * sizeof(int16_t))
        _front_add(memo, key, width, found)
        self.memo_used[count >> 6] |= (<uint64_t>1) << (count & 63)
        if found == NONE and self.complete:
            _front_add(&self.stuck, key, 4, 0)
        return found

    cdef tuple _answer(self, int root):
        """``(tree, beyond, grouped)`` of the outcome ``root`` (a node)."""
        cdef Py_ssize_t words = 0, k = 0
        cdef list grouped = []
        cdef uint64_t *buffer
        self._measure(root, &words, grouped)
        buffer = <uint64_t *>malloc(8 * words)
        if buffer == NULL:
            raise MemoryError()
        try:
            self._write(root, buffer, &k)
            tree = (<char *>buffer)[:8 * words]
        finally:
            free(buffer)
        return tree, bool(self.nodes[root].beyond), tuple(grouped)

    cdef int _measure(self, int node, Py_ssize_t *words, list grouped) except -1:
        """Count the words of the subtree of ``node`` and collect its groups."""
        cdef Node *at
        if node < 0:
            return 0
        at = &self.nodes[node]
        if at.count == 0:
            grouped.append(at.pieces)
            return 0
        words[0] += 3 + 3 * at.count
        self._measure(at.left, words, grouped)
        self._measure(at.removed, words, grouped)
        return 0

    cdef int _write(self, int node, uint64_t *view, Py_ssize_t *k) except -1:
        cdef Node *at = &self.nodes[node]
        cdef int m
        cdef bint left = at.left >= 0 and self.nodes[at.left].count > 0
        cdef bint removed = at.removed >= 0 and self.nodes[at.removed].count > 0
        view[k[0]] = at.pieces
        view[k[0] + 1] = <uint64_t>at.count
        view[k[0] + 2] = <uint64_t>(left | (removed << 1))
        k[0] += 3
        for m in range(at.first, at.first + at.count):
            view[k[0]] = self.move_mask[m]
            view[k[0] + 1] = <uint64_t>self.move_direction[m]
            view[k[0] + 2] = <uint64_t>(self.move_step[m] + 1)
            k[0] += 3
        if left:
            self._write(at.left, view, k)
        if removed:
            self._write(at.removed, view, k)
        return 0


def stage_by_stage(Part whole, weights, grouping, bint complete, budget):
    """:meth:`Stages.run` of the assembly ``whole``, on spare buffers when there are some."""
    cdef Stages stages = _SPARE_STAGES.pop() if _SPARE_STAGES else Stages()
    stages._reset(whole, weights, grouping, complete)
    try:
        return stages.run(budget)
    finally:
        stages.whole = None
        stages.grouping = None
        stages._trim()
        if len(_SPARE_STAGES) < 8:
            _SPARE_STAGES.append(stages)


@cython.final
cdef class Batch:
    """The stage-by-stage disassembly of many assemblies of one geometry, one after
    another (``complete``: try every separation, or the first of each part as BurrTools
    does): one :class:`Stages` and one :class:`Part` serve them all, their buffers
    kept, so that an assembly costs its search and little else (a problem of a
    thousand small assemblies spends as much on making these as on searching)."""

    cdef Geometry geometry
    cdef Stages stages
    cdef Part part
    cdef bint complete

    def __cinit__(self, Geometry geometry not None, bint complete=True):
        self.geometry = geometry
        self.stages = Stages()
        self.part = None
        self.complete = complete

    def run(self, tuple pieces, grouping, budget):
        """:meth:`Stages.run` of an assembly's pieces (objects with their ``voxels``
        where the assembly puts them and their ``weight``; two to 64), ``grouping`` as
        :class:`Stages` takes it. A piece without voxels is a UsageError."""
        cdef int k, n = len(pieces)
        cdef int weights[64]
        cdef list voxels = []
        if not 2 <= n <= 64:
            raise ValueError(f"an assembly of 2 to 64 pieces, not {n}")
        for k in range(n):
            piece = pieces[k]
            shape = piece.voxels
            if not shape:
                raise UsageError("a piece of the assembly has no voxels")
            voxels.append(shape)
            weights[k] = piece.weight
        if self.part is None:
            self.part = Part(self.geometry, voxels)
        else:
            self.part._load(voxels)
        self.stages._reset_to(self.part, weights, grouping, self.complete)
        try:
            return self.stages.run(budget)
        finally:
            self.stages.grouping = None


def staged(Geometry geometry, tuple pieces, grouping, bint complete, budget):
    """:func:`stage_by_stage` of an assembly's pieces (objects with their ``voxels``
    where the assembly puts them and their ``weight``; two or more), their :class:`Part`
    made here: an assembly taken apart on its own (:class:`Batch` takes many). A piece
    without voxels is a UsageError."""
    cdef list voxels = []
    cdef list weights = []
    for piece in pieces:
        shape = piece.voxels
        if not shape:
            raise UsageError("a piece of the assembly has no voxels")
        voxels.append(shape)
        weights.append(piece.weight)
    return stage_by_stage(Part(geometry, voxels), weights, grouping, complete, budget)
