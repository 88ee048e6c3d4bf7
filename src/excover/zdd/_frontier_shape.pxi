# The frontier count's shape test and layout, compiled (included in _frontier.pyx).
#
# Whether the frontier count takes a problem is decided on every auto count and on every
# large component of the component count, most often to say no. These loops answer in a
# pass or two over the options without numpy, whose import alone (60 ms) cost more than
# many whole counts; numpy is loaded only to search for a better order of the items, when
# the bounds below leave hope of one.

from cpython.array cimport array, clone
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


def shape(int n_items, const int[:] option_start, const int[:] node_item,
          long long pair_budget):
    """``(span, shortest, longest, met)`` of the options ``node_item[option_start[o]:option_start[o
    + 1]]`` over items 0 .. n_items - 1: the widest option span in the items' own order
    (last item less first; 0 without options), the fewest and the most items in one
    option, and the
    most other items that share an option with any one item (-1 when the sum of the
    squares of the options' sizes passes ``pair_budget``: the count is not worked out).
    ``longest - 1`` and ``ceil(met / 2)`` are lower bounds on the span of every order
    of the items."""
    cdef Py_ssize_t n_options = option_start.shape[0] - 1, o, k, j
    cdef int lo, hi, it, size, shortest, longest = 0, widest = 0, met = 0, seen, partner
    cdef long long pairs = 0
    if n_options < 1:
        return 0, 0, 0, 0
    shortest = option_start[1] - option_start[0]
    for o in range(n_options):
        size = option_start[o + 1] - option_start[o]
        pairs += <long long>size * size
        if size > longest:
            longest = size
        if size < shortest:
            shortest = size
        if size == 0:
            continue
        lo = hi = node_item[option_start[o]]
        for k in range(option_start[o] + 1, option_start[o + 1]):
            it = node_item[k]
            if it < lo:
                lo = it
            elif it > hi:
                hi = it
        if hi - lo > widest:
            widest = hi - lo
    if pairs > pair_budget:
        return widest, shortest, longest, -1
    # the items' options (compressed rows), then each item's distinct partners by stamps
    cdef array start = clone(array("i"), n_items + 1, True)
    cdef array owner = clone(array("i"), option_start[n_options], False)
    cdef array stamp = clone(array("i"), n_items, False)
    cdef int* first = start.data.as_ints
    cdef int* options = owner.data.as_ints
    cdef int* mark = stamp.data.as_ints
    for k in range(option_start[n_options]):
        first[node_item[k] + 1] += 1
    for it in range(n_items):
        first[it + 1] += first[it]
        mark[it] = -1
    for o in range(n_options):
        for k in range(option_start[o], option_start[o + 1]):
            it = node_item[k]
            options[first[it]] = <int>o
            first[it] += 1
    for it in range(n_items - 1, -1, -1):  # shift the ends back into starts
        first[it + 1] = first[it]
    first[0] = 0
    for it in range(n_items):
        seen = 0
        mark[it] = it
        for j in range(first[it], first[it + 1]):
            o = options[j]
            for k in range(option_start[o], option_start[o + 1]):
                partner = node_item[k]
                if mark[partner] != it:
                    mark[partner] = it
                    seen += 1
        if seen > met:
            met = seen
    return widest, shortest, longest, met


def span_at(const int[:] option_start, const int[:] node_item, const long long[:] position):
    """The widest option's span (last position less first) with the items at
    ``position[item]``; 0 without options."""
    cdef Py_ssize_t o, k
    cdef long long lo, hi, p, widest = 0
    for o in range(option_start.shape[0] - 1):
        if option_start[o] == option_start[o + 1]:
            continue
        lo = hi = position[node_item[option_start[o]]]
        for k in range(option_start[o] + 1, option_start[o + 1]):
            p = position[node_item[k]]
            if p < lo:
                lo = p
            elif p > hi:
                hi = p
        if hi - lo > widest:
            widest = hi - lo
    return widest


def layout(int n_items, const int[:] option_start, const int[:] node_item,
           const long long[:] position, int words=1):
    """``(starts, masks)`` for :func:`count`: the options grouped by the first position
    of their items (``position[item]``, a permutation of 0 .. n_items - 1), each as the
    bit mask of its items' positions from that first one, in ``words`` little-endian
    64-bit words; or None when some option spans 64 * words - 1 positions or more (the
    window's last bit stays clear). No option is empty."""
    cdef Py_ssize_t n_options = option_start.shape[0] - 1, o, k
    cdef long long lo, p, reach = 64 * words - 2
    cdef array starts = clone(array("q"), n_items + 1, True)
    cdef array masks = clone(array("Q"), max(n_options, 0) * words, True)
    cdef array heads = clone(array("q"), max(n_options, 0), False)
    cdef long long* start = starts.data.as_longlongs
    cdef long long* head = heads.data.as_longlongs
    cdef unsigned long long* out = masks.data.as_ulonglongs
    for o in range(n_options):
        lo = position[node_item[option_start[o]]]
        for k in range(option_start[o] + 1, option_start[o + 1]):
            p = position[node_item[k]]
            if p < lo:
                lo = p
        for k in range(option_start[o], option_start[o + 1]):
            if position[node_item[k]] - lo > reach:
                return None
        head[o] = lo
        start[lo + 1] += 1
    for p in range(n_items):
        start[p + 1] += start[p]
    cdef array fill = clone(array("q"), n_items + 1, False)
    cdef long long* at = fill.data.as_longlongs
    for p in range(n_items + 1):
        at[p] = start[p]
    for o in range(n_options):  # stable: options keep their order within a position
        lo = head[o]
        for k in range(option_start[o], option_start[o + 1]):
            p = position[node_item[k]] - lo
            out[at[lo] * words + p // 64] |= 1ULL << (p % 64)
        at[lo] += 1
    return starts, masks


#: The most items for which :func:`narrow_order` finds the items' partners with a bit
#: matrix (n_items^2 bits: 2 MiB at this size): a pass over the options ORs each one's
#: items into each of its items' rows, where the stamps below pass over every option of
#: every item, twice (on the SAT 2026 graph instances, options of 20-30 items, the matrix
#: is several times faster).
DEF BITSET_PARTNERS = 4096
#: Units of :func:`narrow_order`'s work (items of options passed over, heap steps)
#: between two looks at signals and the clock: some tens of microseconds of work, so
#: that Ctrl-C and a deadline stop it at once, at a cost lost in the work itself.
DEF WATCH_WORK = 65536


cdef struct Watch:
    # The deadline of :func:`narrow_order` (a ``time.monotonic()`` instant; ``timed``
    # false: none) and the work done since the last look at it.
    bint timed
    double deadline
    long long work


cdef double monotonic() noexcept nogil:
    """The clock of ``time.monotonic()``, without a Python object."""
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + now.tv_nsec * 1e-9


cdef int past(Watch* watch, long long work) except -1:
    """Add ``work`` to ``watch``'s; once :data:`WATCH_WORK` has gathered (and at the
    first call, whose watch starts full), run the signal handlers (Ctrl-C raises
    KeyboardInterrupt from here) and look at the clock: 1 when the deadline has passed,
    else 0."""
    watch.work += work
    if watch.work < WATCH_WORK:
        return 0
    watch.work = 0
    PyErr_CheckSignals()
    return watch.timed and monotonic() >= watch.deadline


cdef array _partners_by_bitset(int n_items, const int[:] option_start,
                               const int[:] node_item, long long* near_first, Watch* watch):
    """The partners of each item (the other items of its options, in increasing order) as
    one array, ``near_first`` set to each item's start in it: by a bit matrix. None when
    ``watch``'s deadline passes first."""
    cdef Py_ssize_t n_options = option_start.shape[0] - 1, o, k
    cdef int words = (n_items + 63) >> 6, it, w, lo, hi
    cdef uint64_t* rows = <uint64_t*>calloc(<size_t>n_items * words + 1, sizeof(uint64_t))
    cdef uint64_t* mask = <uint64_t*>calloc(words + 1, sizeof(uint64_t))
    cdef uint64_t bits
    cdef uint64_t* row
    cdef long long at = 0
    cdef array near_items
    cdef int* near
    if rows == NULL or mask == NULL:
        free(rows)
        free(mask)
        raise MemoryError("cannot allocate the items' partners")
    try:
        for o in range(n_options):
            lo, hi = words, -1
            for k in range(option_start[o], option_start[o + 1]):
                it = node_item[k]
                mask[it >> 6] |= (<uint64_t>1) << (it & 63)
                lo = min(lo, it >> 6)
                hi = max(hi, it >> 6)
            for k in range(option_start[o], option_start[o + 1]):
                row = rows + <size_t>node_item[k] * words
                for w in range(lo, hi + 1):
                    row[w] |= mask[w]
            for w in range(lo, hi + 1):
                mask[w] = 0
            if past(watch, (option_start[o + 1] - option_start[o]) * (hi - lo + 2)):
                return None
        for it in range(n_items):  # not its own partner
            rows[<size_t>it * words + (it >> 6)] &= ~((<uint64_t>1) << (it & 63))
        near_first[0] = 0
        for it in range(n_items):
            row = rows + <size_t>it * words
            for w in range(words):
                bits = row[w]
                while bits:
                    bits &= bits - 1
                    at += 1
            near_first[it + 1] = at
            if past(watch, words):
                return None
        near_items = clone(array("i"), at, False)
        near = near_items.data.as_ints
        at = 0
        for it in range(n_items):
            row = rows + <size_t>it * words
            for w in range(words):
                bits = row[w]
                while bits:
                    near[at] = (w << 6) + <int>ctz64(bits)
                    at += 1
                    bits &= bits - 1
            if past(watch, words):
                return None
        return near_items
    finally:
        free(rows)
        free(mask)


cdef array _partners_by_stamps(int n_items, const int[:] option_start,
                               const int[:] node_item, int* first, int* options, int* mark,
                               long long* near_first, Watch* watch):
    """What :func:`_partners_by_bitset` gives, for any number of items: for each item, a
    pass over its options' items, marking each partner with the item (two passes: count,
    then fill). ``first`` and ``options``: each item's options (compressed rows);
    ``mark``: n_items ints of scratch. None when ``watch``'s deadline passes first."""
    cdef Py_ssize_t o, k, j
    cdef int it, partner
    cdef long long at
    for it in range(n_items):
        mark[it] = it
        for j in range(first[it], first[it + 1]):
            o = options[j]
            for k in range(option_start[o], option_start[o + 1]):
                partner = node_item[k]
                if mark[partner] != it:
                    mark[partner] = it
                    near_first[it + 1] += 1
            if past(watch, option_start[o + 1] - option_start[o] + 1):
                return None
    for it in range(n_items):
        near_first[it + 1] += near_first[it]
        mark[it] = -1
    cdef array near_items = clone(array("i"), near_first[n_items], False)
    cdef int* near = near_items.data.as_ints
    for it in range(n_items):
        mark[it] = it
        at = near_first[it]
        for j in range(first[it], first[it + 1]):
            o = options[j]
            for k in range(option_start[o], option_start[o + 1]):
                partner = node_item[k]
                if mark[partner] != it:
                    mark[partner] = it
                    near[at] = partner
                    at += 1
            if past(watch, option_start[o + 1] - option_start[o] + 1):
                return None
    return near_items


cdef inline bint ahead(int a, int b, const int* fresh, const int* first) noexcept:
    """Whether open item ``a`` comes before ``b`` in :func:`narrow_order`'s choice: the
    fewer unopened partners (``fresh``), then the fewer options (``first``: each item's
    options as compressed rows), then the lower number."""
    if fresh[a] != fresh[b]:
        return fresh[a] < fresh[b]
    if first[a + 1] - first[a] != first[b + 1] - first[b]:
        return first[a + 1] - first[a] < first[b + 1] - first[b]
    return a < b


cdef int sift_up(int* heap, int* where, int at, const int* fresh,
                 const int* first) noexcept:
    """Move the item at ``heap[at]`` up the binary heap of open items (the first of
    :func:`ahead` at its root; ``where[x]``: x's place in it) to where its key, just
    lowered, belongs; the number of levels it rose."""
    cdef int x = heap[at], parent, steps = 0
    while at > 0:
        parent = (at - 1) >> 1
        if not ahead(x, heap[parent], fresh, first):
            break
        heap[at] = heap[parent]
        where[heap[at]] = at
        at = parent
        steps += 1
    heap[at] = x
    where[x] = at
    return steps


cdef int sift_down(int* heap, int* where, int size, int at, const int* fresh,
                   const int* first) noexcept:
    """Move the item at ``heap[at]`` down the heap of ``size`` items to where it
    belongs (as :func:`sift_up`); the number of levels it sank."""
    cdef int x = heap[at], child, steps = 0
    while True:
        child = 2 * at + 1
        if child >= size:
            break
        if child + 1 < size and ahead(heap[child + 1], heap[child], fresh, first):
            child += 1
        if not ahead(heap[child], x, fresh, first):
            break
        heap[at] = heap[child]
        where[heap[at]] = at
        at = child
        steps += 1
    heap[at] = x
    where[x] = at
    return steps


def narrow_order(int n_items, const int[:] option_start, const int[:] node_item,
                 deadline=None):
    """An order of the items that keeps the frontier count's states few: ``order[k]`` is
    the item put at position k (an array of C long longs); None when ``deadline`` (a
    ``time.monotonic()`` instant; None: no limit) passes first. Ctrl-C raises
    KeyboardInterrupt from within.

    The count's state after the items before position k is which items from k on are
    covered; only the items that share an option with an earlier one (the *open* items)
    can be, so the order adds the items one at a time and each time takes, among the open
    items, the one that opens the fewest new items (ties: the fewest options, then the
    lowest number); with no item open (at the start, and at each new component of the
    item graph) it takes the unopened item of the fewest options. This greedy
    minimum-frontier rule is a heuristic for a small path decomposition; on Latin square
    completions it gives 20 times fewer states than the bandwidth orders.

    The open items wait in a binary heap ordered by that rule, and the unopened ones in
    a list sorted by their options, so the order costs O(p log n) for p partners in all
    (a scan of the open items at each step cost O(n^2) where many are open at once: 5.4 s
    on 90,000 items that share one)."""
    cdef Watch watch
    watch.timed = deadline is not None
    watch.deadline = deadline if watch.timed else 0.0
    watch.work = WATCH_WORK  # the first call looks at once
    cdef Py_ssize_t n_options = option_start.shape[0] - 1, o, k, j
    cdef int it, partner, x, chosen, placed, n_open = 0, next_unopened = 0, most = 0
    cdef array start = clone(array("i"), n_items + 1, True)
    cdef array owner = clone(array("i"), option_start[n_options], False)
    cdef array stamp = clone(array("i"), n_items, False)
    cdef int* first = start.data.as_ints
    cdef int* options = owner.data.as_ints
    cdef int* mark = stamp.data.as_ints
    if past(&watch, 0):
        return None
    # each item's options (compressed rows)
    for k in range(option_start[n_options]):
        first[node_item[k] + 1] += 1
    for it in range(n_items):
        first[it + 1] += first[it]
        mark[it] = -1
    for o in range(n_options):
        for k in range(option_start[o], option_start[o + 1]):
            options[first[node_item[k]]] = <int>o
            first[node_item[k]] += 1
    for it in range(n_items - 1, -1, -1):
        first[it + 1] = first[it]
    first[0] = 0
    if past(&watch, 3 * option_start[n_options] + 2 * n_items):
        return None
    # each item's distinct partners (compressed rows)
    cdef array near_start = clone(array("q"), n_items + 1, True)
    cdef long long* near_first = near_start.data.as_longlongs
    cdef array near_items
    if n_items <= BITSET_PARTNERS:
        near_items = _partners_by_bitset(n_items, option_start, node_item, near_first,
                                         &watch)
    else:
        near_items = _partners_by_stamps(n_items, option_start, node_item, first, options,
                                         mark, near_first, &watch)
    if near_items is None:
        return None
    cdef int* near = near_items.data.as_ints
    # the unopened items by their options, fewest first (a counting sort, stable)
    cdef array by_options_array = clone(array("i"), n_items, False)
    cdef int* by_options = by_options_array.data.as_ints
    for it in range(n_items):
        most = max(most, first[it + 1] - first[it])
    cdef array tally_array = clone(array("i"), most + 2, True)
    cdef int* tally = tally_array.data.as_ints
    for it in range(n_items):
        tally[first[it + 1] - first[it] + 1] += 1
    for k in range(most + 1):
        tally[k + 1] += tally[k]
    for it in range(n_items):
        by_options[tally[first[it + 1] - first[it]]] = it
        tally[first[it + 1] - first[it]] += 1
    # the greedy order: state 0 unopened, 1 open, 2 placed; fresh[x]: x's unopened
    # partners; the open items in a heap (where[x]: x's place in it, -1 when out)
    cdef array state_array = clone(array("i"), n_items, True)
    cdef array fresh_array = clone(array("i"), n_items, False)
    cdef array heap_array = clone(array("i"), n_items, False)
    cdef array where_array = clone(array("i"), n_items, False)
    cdef array order = clone(array("q"), n_items, False)
    cdef int* state = state_array.data.as_ints
    cdef int* fresh = fresh_array.data.as_ints
    cdef int* heap = heap_array.data.as_ints
    cdef int* where = where_array.data.as_ints
    cdef long long* out = order.data.as_longlongs
    cdef long long work
    for it in range(n_items):
        fresh[it] = <int>(near_first[it + 1] - near_first[it]) - 1  # less the item itself
        where[it] = -1
    for placed in range(n_items):
        work = 1
        if n_open:
            chosen = heap[0]
            where[chosen] = -1
            n_open -= 1
            if n_open:
                heap[0] = heap[n_open]
                work += sift_down(heap, where, n_open, 0, fresh, first)
        else:  # nothing open: the unopened item of the fewest options
            while state[by_options[next_unopened]] != 0:
                next_unopened += 1
            chosen = by_options[next_unopened]
            for j in range(near_first[chosen], near_first[chosen + 1]):
                if near[j] != chosen:
                    fresh[near[j]] -= 1  # it is no longer unopened (none of them is open)
            work += near_first[chosen + 1] - near_first[chosen]
        state[chosen] = 2
        out[placed] = chosen
        for j in range(near_first[chosen], near_first[chosen + 1]):
            partner = near[j]
            if state[partner] == 0:  # opened now
                state[partner] = 1
                for k in range(near_first[partner], near_first[partner + 1]):
                    x = near[k]
                    if x != partner:
                        fresh[x] -= 1
                        if where[x] >= 0:
                            work += sift_up(heap, where, where[x], fresh, first)
                heap[n_open] = partner
                work += sift_up(heap, where, n_open, fresh, first)
                n_open += 1
                work += near_first[partner + 1] - near_first[partner]
        work += near_first[chosen + 1] - near_first[chosen]
        if past(&watch, work):
            return None
    return order


cdef inline int top_bit(unsigned long long bits) noexcept nogil:
    """The highest set bit of ``bits`` (not 0), by halving."""
    cdef int top = 0
    if bits >> 32:
        bits >>= 32
        top += 32
    if bits >> 16:
        bits >>= 16
        top += 16
    if bits >> 8:
        bits >>= 8
        top += 8
    if bits >> 4:
        bits >>= 4
        top += 4
    if bits >> 2:
        bits >>= 2
        top += 2
    if bits >> 1:
        top += 1
    return top


def split_layout(long long n_items, const long long[:] starts,
                 const unsigned long long[:] masks, int words):
    """The layout ``(starts, masks)`` of :func:`layout` (``words`` words an option) cut
    where no option reaches across, into runs of positions that each need fewer words:
    a list of ``(first position, positions, words, starts, masks)``, one per run, each
    laid out as :func:`layout` lays out a problem of its own (its options in the fewest
    words that hold its widest span, the window's last bit clear).

    At a position that no earlier option reaches, every state of the frontier count has
    an empty window: the states before it have all merged into one, and the count of
    the rest starts afresh from it. The problem's count is then the product of the
    runs' counts, and each run can be counted in a window as narrow as its own options
    allow (on the SAT 2026 graph instances the parts of wide options, 70-item spans, set
    two words for the whole count, and the part of narrow options that holds most of
    its states ran 1.3-2 times slower in them). Adjacent runs that need the same words
    are kept together (one count each, not one per part). None when no cut narrows the
    layout (it is then counted whole)."""
    cdef Py_ssize_t o, p, first = 0
    cdef long long reach = -1, top, widest = 0, need, start_pos, end
    cdef int k, w
    cdef unsigned long long bits
    cdef list runs = []
    cdef list bounds = []  # (first, end, words) of the runs between cuts
    cdef array run_starts, run_masks
    cdef long long* rs
    cdef unsigned long long* rm
    if words < 1 or starts.shape[0] != n_items + 1 or masks.shape[0] != starts[n_items] * words:
        raise ValueError("a layout of one start per item and one more, words words an option")
    for p in range(n_items):
        for o in range(starts[p], starts[p + 1]):
            top = 0
            for k in range(words - 1, -1, -1):
                bits = masks[o * words + k]
                if bits:
                    top = 64 * k + top_bit(bits)
                    break
            if p + top > reach:
                reach = p + top
            if top > widest:
                widest = top
        if reach <= p:  # a cut after position p (always after the last)
            need = (widest + 65) // 64
            if bounds and bounds[len(bounds) - 1][2] == need:
                bounds[len(bounds) - 1] = (bounds[len(bounds) - 1][0], p + 1, need)
            else:
                bounds.append((first, p + 1, need))
            first = p + 1
            widest = 0
    if len(bounds) <= 1:
        return None
    for start_pos, end, w in bounds:
        run_starts = clone(array("q"), end - start_pos + 1, False)
        rs = run_starts.data.as_longlongs
        for p in range(start_pos, end + 1):
            rs[p - start_pos] = starts[p] - starts[start_pos]
        run_masks = clone(array("Q"), (starts[end] - starts[start_pos]) * w, False)
        rm = run_masks.data.as_ulonglongs
        for o in range(starts[start_pos], starts[end]):
            for k in range(w):
                rm[(o - starts[start_pos]) * w + k] = masks[o * words + k]
        runs.append((start_pos, end - start_pos, w, run_starts, run_masks))
    return runs
