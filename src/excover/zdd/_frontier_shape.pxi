# The frontier count's shape test and layout, compiled (included in _frontier.pyx).
#
# Whether the frontier count takes a problem is decided on every auto count and on every
# large component of the component count, most often to say no. These loops answer in a
# pass or two over the options without numpy, whose import alone (60 ms) cost more than
# many whole counts; numpy is loaded only to search for a better order of the items, when
# the bounds below leave hope of one.

from cpython.array cimport array, clone


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


def layout(int n_items, const int[:] option_start, const int[:] node_item,
           const long long[:] position):
    """``(starts, masks)`` for :func:`count`: the options grouped by the first position
    of their items (``position[item]``, a permutation of 0 .. n_items - 1), each as the
    bit mask of its items' positions from that first one; or None when some option
    spans 63 positions or more (bit 63 is the window's last). No option is empty."""
    cdef Py_ssize_t n_options = option_start.shape[0] - 1, o, k
    cdef long long lo, p
    cdef unsigned long long mask
    cdef array starts = clone(array("q"), n_items + 1, True)
    cdef array masks = clone(array("Q"), max(n_options, 0), False)
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
        mask = 0
        for k in range(option_start[o], option_start[o + 1]):
            p = position[node_item[k]] - lo
            if p > 62:
                return None
            mask |= 1ULL << p
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
        mask = 0
        for k in range(option_start[o], option_start[o + 1]):
            mask |= 1ULL << (position[node_item[k]] - lo)
        out[at[lo]] = mask
        at[lo] += 1
    return starts, masks
