# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The hot loop of preprocessing (:mod:`excover.preprocess`): blocked options, removed.

An option is *blocked* when choosing it leaves some primary item with no compatible
option. Two options are incompatible when they share a primary item, or a secondary item
that one of them leaves uncolored, or a secondary item they color differently.

:func:`remove_blocked` tries each live option in turn, as Knuth's DLX-PRE does: it marks
the options incompatible with it (walking the lists of its items), then looks, for each
primary item outside it, for a live option left unmarked, a *witness* (from the one found
last time for that item, which is often still one); an item without a witness blocks the
option. A blocked option leaves at once, so later options are tried against the smaller
problem, and between two rounds the options gone leave the items' lists; rounds go on
until one removes nothing, or the work passes the budget (checked
between two options: every removal made was proven). The work is counted in *mems*, one
per incidence looked at, a measure of time independent of the machine.

Scratch arrays are reset by a *stamp* (an entry counts as set only when it carries the
current stamp), so that no loop clears a whole array.
"""

from libc.stdlib cimport calloc, free, malloc


def remove_blocked(
    int n_primary,
    int n_items,
    int[::1] option_start,
    int[::1] node_item,
    int[::1] node_color,
    unsigned char[::1] live,
    long long budget,
):
    """Remove blocked options from ``live`` (one byte per option, 1 = live, changed in
    place) until a round removes none or ``budget`` mems are spent (none tried if it is
    0); return ``(rounds,
    removed, mems, complete)``, ``complete`` false when the budget stopped the rounds."""
    cdef Py_ssize_t n_options = option_start.shape[0] - 1
    cdef Py_ssize_t n_nodes = node_item.shape[0]
    cdef int *item_start = <int *> calloc(n_items + 1, sizeof(int))
    cdef int *item_option = <int *> malloc((n_nodes + 1) * sizeof(int))
    cdef int *item_color = <int *> malloc((n_nodes + 1) * sizeof(int))
    cdef int *length = <int *> calloc(n_primary + 1, sizeof(int))
    cdef int *hint = <int *> calloc(n_primary + 1, sizeof(int))
    cdef int *own_color = <int *> calloc(n_items + 1, sizeof(int))
    cdef long long *item_stamp = <long long *> calloc(n_items + 1, sizeof(long long))
    cdef long long *option_stamp = <long long *> calloc(n_options + 1, sizeof(long long))
    cdef int *fill = <int *> calloc(n_items + 1, sizeof(int))
    cdef Py_ssize_t o, p, j, q, t, first, size, step
    cdef int item, color
    cdef long long stamp = 0, mems = 0, marking
    cdef double mean_size = n_nodes / <double> n_options if n_options else 0.0
    cdef int rounds = 0, removed = 0, removed_now
    cdef bint blocked, found, complete = True
    if (item_start == NULL or item_option == NULL or item_color == NULL or length == NULL
            or hint == NULL or own_color == NULL or item_stamp == NULL
            or option_stamp == NULL or fill == NULL):
        free(item_start); free(item_option); free(item_color); free(length); free(hint)
        free(own_color); free(item_stamp); free(option_stamp); free(fill)
        raise MemoryError("no memory for preprocessing")
    try:
        # the options of each item, in order, with the color each gives it
        for j in range(n_nodes):
            item_start[node_item[j] + 1] += 1
        for k in range(n_items):
            item_start[k + 1] += item_start[k]
        for o in range(n_options):
            for j in range(option_start[o], option_start[o + 1]):
                item = node_item[j]
                t = item_start[item] + fill[item]
                item_option[t] = <int> o
                item_color[t] = node_color[j]
                fill[item] += 1
                if live[o] and item < n_primary:
                    length[item] += 1
        if budget <= 0:
            return 0, 0, 0, False
        for q in range(n_primary):
            if length[q] == 0:  # no solution: every option is blocked
                return 1, _remove_all(live), mems, True
        while True:
            if mems >= budget:
                complete = False
                break
            rounds += 1
            removed_now = 0
            for o in range(n_options):
                if not live[o]:
                    continue
                if mems >= budget:
                    complete = False
                    break
                stamp += 1
                for j in range(option_start[o], option_start[o + 1]):
                    item_stamp[node_item[j]] = stamp  # the items of o, with their colors
                    own_color[node_item[j]] = node_color[j]
                # first, when it is cheaper than marking the options incompatible with o
                # (about the lengths of o's lists against one option per primary item),
                # the witness found last time for each primary item outside o, checked
                # against o alone: when each is still compatible, o is not blocked
                marking = 0
                for j in range(option_start[o], option_start[o + 1]):
                    marking += fill[node_item[j]]
                found = marking > n_primary * mean_size
                for q in range(n_primary if found else 0):
                    if item_stamp[q] == stamp:
                        continue
                    if fill[q] == 0:
                        found = False
                        break
                    p = item_option[item_start[q] + hint[q]]
                    if not live[p]:
                        found = False
                        break
                    mems += option_start[p + 1] - option_start[p]
                    for j in range(option_start[p], option_start[p + 1]):
                        item = node_item[j]
                        if item_stamp[item] == stamp and (
                            item < n_primary or node_color[j] == 0
                            or node_color[j] != own_color[item]
                        ):
                            found = False
                            break
                    if not found:
                        break
                if found:
                    continue  # else: not cheaper, or a witness failed
                # mark the options incompatible with o
                for j in range(option_start[o], option_start[o + 1]):
                    item = node_item[j]
                    color = node_color[j]
                    mems += fill[item]
                    if item < n_primary or color == 0:
                        for t in range(item_start[item], item_start[item] + fill[item]):
                            option_stamp[item_option[t]] = stamp
                    else:
                        for t in range(item_start[item], item_start[item] + fill[item]):
                            if item_color[t] != color:
                                option_stamp[item_option[t]] = stamp
                # every primary item outside o needs a live unmarked option: a witness,
                # looked for from the one found last time
                blocked = False
                for q in range(n_primary):
                    if item_stamp[q] == stamp:
                        continue
                    first = item_start[q]
                    size = fill[q]
                    found = False
                    for step in range(size):
                        t = hint[q] + step
                        if t >= size:
                            t -= size
                        p = item_option[first + t]
                        if live[p] and option_stamp[p] != stamp:
                            hint[q] = <int> t
                            found = True
                            break
                    mems += step + 1
                    if not found:
                        blocked = True
                        break
                if blocked:
                    live[o] = 0
                    removed_now += 1
                    for j in range(option_start[o], option_start[o + 1]):
                        if node_item[j] < n_primary:
                            length[node_item[j]] -= 1
                            if length[node_item[j]] == 0:  # no solution after all
                                return rounds, removed + removed_now + _remove_all(live), mems, True
            removed += removed_now
            if removed_now == 0 or not complete:
                break
            mems += _compact(n_items, n_primary, item_start, fill, item_option, item_color, hint, live)
        return rounds, removed, mems, complete
    finally:
        free(item_start); free(item_option); free(item_color); free(length); free(hint)
        free(own_color); free(item_stamp); free(option_stamp); free(fill)


cdef int _remove_all(unsigned char[::1] live):
    """Take every option out of ``live``; the number taken."""
    cdef Py_ssize_t o
    cdef int taken = 0
    for o in range(live.shape[0]):
        if live[o]:
            live[o] = 0
            taken += 1
    return taken


cdef long long _compact(
    int n_items,
    int n_primary,
    int *item_start,
    int *fill,
    int *item_option,
    int *item_color,
    int *hint,
    unsigned char[::1] live,
):
    """Drop the options no longer live from the list of every item (``fill`` holds each
    list's length); the mems it took."""
    cdef Py_ssize_t k, t, first, kept
    cdef long long mems = 0
    for k in range(n_items):
        first = item_start[k]
        kept = 0
        for t in range(first, first + fill[k]):
            if live[item_option[t]]:
                item_option[first + kept] = item_option[t]
                item_color[first + kept] = item_color[t]
                kept += 1
        mems += fill[k]
        fill[k] = <int> kept
        if k < n_primary and hint[k] >= kept:
            hint[k] = 0
    return mems
