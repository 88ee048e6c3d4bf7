# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The rules on items of preprocessing (:mod:`excover.preprocess`), and the reduced
problem's arrays, once the blocked options are gone (:mod:`excover.preprocess._blocked`).

:func:`reduce_items` lists, for every item, the options left that hold it (in the order
of the options, with the colors they give it), and from these lists keeps:

* the first primary item of each set of *twins* (items with the same options);
* the secondary items that can still make two options left incompatible: used by two
  options or more, not always with one color, and not only by options that all share
  one primary item (two of which never meet in a solution); of these, the first of each
  set of twins (the same options, with the same colors).

It names the *forced* options (the only option left of a kept primary item) and lays
out the options left over the items kept, as :class:`~excover.EngineInput` holds them.

Compiled, so that preprocessing needs no numpy: the route choice of ``count`` runs it
on long counts, where importing numpy would cost a fresh process more than the
preprocessing itself.
"""

from cpython cimport array
from libc.stdlib cimport calloc, free

import array as py_array


cdef array.array _INTS = py_array.array("i")


def reduce_items(
    int n_primary,
    int n_items,
    int n_colors,
    int[::1] option_start,
    int[::1] node_item,
    int[::1] node_color,
    unsigned char[::1] live,
):
    """The items to keep and the options left over them: ``(alive, kept, forced,
    starts, items, colors, palette)``, arrays of ints: the options left (indices of the
    problem given, in order), the positions of the items kept (the primary ones first,
    each in order), the forced options (indices of the problem given, sorted), the
    options left over the items kept (``starts`` with one entry more than ``alive``,
    then each option's item positions among ``kept`` and its colors, as
    ``option_start``, ``node_item`` and ``node_color`` lay them out), and the colors
    still used (``n_colors`` of them, numbered from 1, in the problem given), numbered
    anew from 1 in order of first use, as ``colors`` numbers them."""
    cdef Py_ssize_t n_options = option_start.shape[0] - 1
    cdef int *item_start = <int *> calloc(n_items + 1, sizeof(int))
    cdef int *fill = <int *> calloc(n_items + 1, sizeof(int))
    cdef int *item_option = NULL
    cdef int *item_color = NULL
    cdef int *position = <int *> calloc(n_items + 1, sizeof(int))
    cdef long long *mark = <long long *> calloc(n_primary + 1, sizeof(long long))
    cdef int *times = <int *> calloc(n_primary + 1, sizeof(int))
    cdef int *renumber = <int *> calloc(n_colors + 1, sizeof(int))
    cdef Py_ssize_t o, p, k, t, total = 0, first, uses
    cdef long long stamp = 0
    cdef int item, color
    cdef bint idle
    try:
        if (item_start == NULL or fill == NULL or position == NULL or mark == NULL
                or times == NULL or renumber == NULL):
            raise MemoryError("preprocessing: no memory for the items' lists")
        for o in range(n_options):
            if live[o]:
                for p in range(option_start[o], option_start[o + 1]):
                    item_start[node_item[p] + 1] += 1
                    total += 1
        for k in range(n_items):
            item_start[k + 1] += item_start[k]
        item_option = <int *> calloc(total + 1, sizeof(int))
        item_color = <int *> calloc(total + 1, sizeof(int))
        if item_option == NULL or item_color == NULL:
            raise MemoryError("preprocessing: no memory for the items' lists")
        alive = array.clone(_INTS, 0, False)
        for o in range(n_options):
            if live[o]:
                _append(alive, <int> o)
                for p in range(option_start[o], option_start[o + 1]):
                    item = node_item[p]
                    t = item_start[item] + fill[item]
                    item_option[t] = <int> o
                    item_color[t] = node_color[p]
                    fill[item] += 1

        kept = array.clone(_INTS, 0, False)
        seen = set()
        for k in range(n_primary):
            key = _key(item_option, NULL, item_start[k], item_start[k + 1])
            if key not in seen:
                seen.add(key)
                _append(kept, <int> k)
        seen.clear()
        for k in range(n_primary, n_items):
            first = item_start[k]
            uses = item_start[k + 1] - first
            idle = uses <= 1
            if not idle:  # one color on every use
                color = item_color[first]
                idle = color > 0
                for t in range(first + 1, first + uses):
                    if item_color[t] != color:
                        idle = False
                        break
            if not idle:  # every option using it holds one same primary item
                stamp += 1
                for t in range(first, first + uses):
                    o = item_option[t]
                    for p in range(option_start[o], option_start[o + 1]):
                        item = node_item[p]
                        if item >= n_primary:
                            continue
                        if mark[item] != stamp:
                            mark[item] = stamp
                            times[item] = 0
                        times[item] += 1
                        if times[item] == uses:
                            idle = True
                    if idle:
                        break
            if idle:
                continue
            key = _key(item_option, item_color, first, first + uses)
            if key not in seen:
                seen.add(key)
                _append(kept, <int> k)

        single = set()
        for t in range(len(kept)):
            k = kept.data.as_ints[t]
            if k < n_primary and item_start[k + 1] - item_start[k] == 1:
                single.add(item_option[item_start[k]])
        forced = py_array.array("i", sorted(single))

        for k in range(n_items):
            position[k] = -1
        for t in range(len(kept)):
            position[kept.data.as_ints[t]] = <int> t
        starts = array.clone(_INTS, len(alive) + 1, False)
        starts.data.as_ints[0] = 0
        items = array.clone(_INTS, 0, False)
        colors = array.clone(_INTS, 0, False)
        palette = array.clone(_INTS, 0, False)
        for t in range(len(alive)):
            o = alive.data.as_ints[t]
            for p in range(option_start[o], option_start[o + 1]):
                if position[node_item[p]] >= 0:
                    _append(items, position[node_item[p]])
                    color = node_color[p]
                    if color > 0 and renumber[color] == 0:
                        _append(palette, color)
                        renumber[color] = <int> len(palette)
                    _append(colors, renumber[color])
            starts.data.as_ints[t + 1] = <int> len(items)
        return alive, kept, forced, starts, items, colors, palette
    finally:
        free(item_start); free(fill); free(item_option); free(item_color); free(position)
        free(mark); free(times); free(renumber)


cdef bytes _key(int *options, int *colors, Py_ssize_t first, Py_ssize_t end):
    """The options of the list ``options[first:end]`` (and their colors, when given) as
    bytes, to find twins by."""
    cdef Py_ssize_t size = (end - first) * sizeof(int)
    cdef bytes key = (<char *> (options + first))[:size]
    if colors != NULL:
        key += b"|" + (<char *> (colors + first))[:size]
    return key


cdef inline void _append(array.array values, int value):
    """Append ``value`` to the array of ints ``values`` (grown by half as needed)."""
    array.resize_smart(values, len(values) + 1)
    values.data.as_ints[len(values) - 1] = value
