# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The hot loops of the component-decomposition count (:mod:`excover.counting.components`).

A *residual problem* is a set of live options, given as a sorted array of option numbers.
Its primary items are the primary items of its options (all still uncovered); its
solutions are the sets of pairwise compatible live options that cover each of those items
exactly once. Two options are *incompatible* when they share a primary item, or a
secondary item that one of them leaves uncolored, or a secondary item they color
differently.

:class:`Graph` holds the problem twice, as flat arrays: option -> its nodes (item, color)
and item -> its incidences (option, color), both in increasing order. Per-item and
per-option scratch arrays are reset by a *stamp*: an entry counts as set only when it
carries the current stamp, so no loop clears a whole array.

* :meth:`Graph.residual`: the live options compatible with a chosen one (the residual
  problem after choosing it), in time proportional to the live options plus the
  incidences of the chosen option's items.
* :meth:`Graph.split`: the connected components of a residual problem, two options being
  joined when they share any item (union-find over the options, one pass over their nodes),
  with the number of primary items of each.
* :meth:`Graph.mrv`: the primary item with the fewest live options (ties to the smallest
  item) and those options.
* :meth:`Graph.subproblem`: a residual problem as the flat arrays DXZ takes
  (:func:`excover.zdd._dxz.search`), items renumbered from 0 (primary first) and
  options sorted by their first primary item.

Nothing here recurses or allocates inside a loop but the output arrays.
"""

from cpython.array cimport array, clone, copy
from libc.stdlib cimport free, malloc

from excover.problem import EngineInput

cdef array _INTS = array("i")


cdef inline array _ints(Py_ssize_t n):
    """A new int array of length ``n`` (contents undefined)."""
    return clone(_INTS, n, False)


cdef class Graph:
    """The options and items of one problem, with the scratch space of the loops above."""

    cdef readonly int n_options, n_primary, n_items
    cdef int *ostart
    cdef int *oitem
    cdef int *ocolor
    cdef int *istart
    cdef int *iopt
    cdef int *icolor
    cdef int *item_stamp
    cdef int *item_owner
    cdef int *item_count
    cdef int *opt_stamp
    cdef int *parent
    cdef int *label
    cdef int stamp

    def __cinit__(self, arrays):
        # ``arrays``: the problem as the engines read it, an EngineInput (its
        # multiplicities are not read)
        cdef int n_primary = arrays.n_primary
        cdef int n_items = n_primary + arrays.n_secondary
        cdef const int[:] option_start = arrays.option_start
        cdef const int[:] node_item = arrays.node_item
        cdef const int[:] node_color = arrays.node_color
        cdef Py_ssize_t n_options = option_start.shape[0] - 1
        cdef Py_ssize_t n_nodes = node_item.shape[0]
        cdef Py_ssize_t k, j, it, at
        self.n_options = <int>n_options
        self.n_primary = n_primary
        self.n_items = n_items
        self.stamp = 0
        self.ostart = <int *>malloc((n_options + 1) * sizeof(int))
        self.oitem = <int *>malloc((n_nodes + 1) * sizeof(int))
        self.ocolor = <int *>malloc((n_nodes + 1) * sizeof(int))
        self.istart = <int *>malloc((n_items + 1) * sizeof(int))
        self.iopt = <int *>malloc((n_nodes + 1) * sizeof(int))
        self.icolor = <int *>malloc((n_nodes + 1) * sizeof(int))
        self.item_stamp = <int *>malloc((n_items + 1) * sizeof(int))
        self.item_owner = <int *>malloc((n_items + 1) * sizeof(int))
        self.item_count = <int *>malloc((n_items + 1) * sizeof(int))
        self.opt_stamp = <int *>malloc((n_options + 1) * sizeof(int))
        self.parent = <int *>malloc((n_options + 1) * sizeof(int))
        self.label = <int *>malloc((n_options + 1) * sizeof(int))
        if (not self.ostart or not self.oitem or not self.ocolor or not self.istart
                or not self.iopt or not self.icolor or not self.item_stamp
                or not self.item_owner or not self.item_count or not self.opt_stamp
                or not self.parent or not self.label):
            raise MemoryError("no room for the component graph")
        for k in range(n_options + 1):
            self.ostart[k] = option_start[k]
            self.opt_stamp[k] = 0
        for j in range(n_nodes):
            self.oitem[j] = node_item[j]
            self.ocolor[j] = node_color[j]
        for it in range(n_items + 1):
            self.istart[it] = 0
            self.item_stamp[it] = 0
        for j in range(n_nodes):
            self.istart[node_item[j] + 1] += 1
        for it in range(n_items):
            self.istart[it + 1] += self.istart[it]
        for it in range(n_items):
            self.item_count[it] = self.istart[it]  # the next free incidence of each item
        for k in range(n_options):
            for j in range(option_start[k], option_start[k + 1]):
                it = node_item[j]
                at = self.item_count[it]
                self.iopt[at] = <int>k
                self.icolor[at] = node_color[j]
                self.item_count[it] = <int>(at + 1)

    def __dealloc__(self):
        free(self.ostart)
        free(self.oitem)
        free(self.ocolor)
        free(self.istart)
        free(self.iopt)
        free(self.icolor)
        free(self.item_stamp)
        free(self.item_owner)
        free(self.item_count)
        free(self.opt_stamp)
        free(self.parent)
        free(self.label)

    cdef inline int _next_stamp(self):
        """A fresh stamp; when the counter would wrap, every stamp is reset first."""
        cdef Py_ssize_t k
        if self.stamp == 2147483647:
            for k in range(self.n_items + 1):
                self.item_stamp[k] = 0
            for k in range(self.n_options + 1):
                self.opt_stamp[k] = 0
            self.stamp = 0
        self.stamp += 1
        return self.stamp

    def primary_counts(self):
        """The number of primary items of each option, an int array."""
        cdef array out = _ints(self.n_options)
        cdef Py_ssize_t k, j
        cdef int n
        for k in range(self.n_options):
            n = 0
            for j in range(self.ostart[k], self.ostart[k + 1]):
                if self.oitem[j] < self.n_primary:
                    n += 1
            out.data.as_ints[k] = n
        return out

    def residual(self, const int[:] live, int chosen):
        """The options of ``live`` compatible with option ``chosen`` (chosen excluded)."""
        cdef int s = self._next_stamp()
        cdef Py_ssize_t j, k, n = 0
        cdef int it, c, u
        cdef array out
        for j in range(self.ostart[chosen], self.ostart[chosen + 1]):
            it = self.oitem[j]
            c = self.ocolor[j]
            for k in range(self.istart[it], self.istart[it + 1]):
                u = self.iopt[k]
                if it < self.n_primary or c == 0 or self.icolor[k] != c:
                    self.opt_stamp[u] = s
        self.opt_stamp[chosen] = s
        for j in range(live.shape[0]):
            if self.opt_stamp[live[j]] != s:
                n += 1
        out = _ints(n)
        n = 0
        for j in range(live.shape[0]):
            if self.opt_stamp[live[j]] != s:
                out.data.as_ints[n] = live[j]
                n += 1
        return out

    cdef inline int _find(self, int v):
        cdef int root = v, up
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[v] != root:
            up = self.parent[v]
            self.parent[v] = root
            v = up
        return root

    def split(self, const int[:] live):
        """The components of ``live``: ``(primaries, parts)``, the number of primary items
        of ``live`` and a list of ``(options, primary items)`` pairs, one per component,
        in order of their smallest option, each option array sorted."""
        cdef int s = self._next_stamp()
        cdef Py_ssize_t j, k, n = live.shape[0], n_parts = 0
        cdef int v, it, a, b, primaries = 0
        cdef array sizes, prims
        cdef list arrays = [], parts = []
        for j in range(n):
            v = live[j]
            self.parent[v] = v
        for j in range(n):
            v = live[j]
            for k in range(self.ostart[v], self.ostart[v + 1]):
                it = self.oitem[k]
                if self.item_stamp[it] != s:
                    self.item_stamp[it] = s
                    self.item_owner[it] = v
                    if it < self.n_primary:
                        primaries += 1
                else:
                    a = self._find(v)
                    b = self._find(self.item_owner[it])
                    if a != b:
                        if a < b:
                            self.parent[b] = a
                        else:
                            self.parent[a] = b
        # label the roots 0, 1, ... in order of their smallest option (a root is the
        # smallest option of its set: unions keep the smaller root)
        sizes = _ints(n)
        prims = _ints(n)
        for j in range(n):
            v = live[j]
            a = self._find(v)
            if a == v:
                self.label[v] = <int>n_parts
                sizes.data.as_ints[n_parts] = 0
                prims.data.as_ints[n_parts] = 0
                n_parts += 1
            b = self.label[a]
            sizes.data.as_ints[b] += 1
            for k in range(self.ostart[v], self.ostart[v + 1]):
                it = self.oitem[k]
                if it < self.n_primary and self.item_owner[it] == v:
                    prims.data.as_ints[b] += 1
        for j in range(n_parts):
            arrays.append(_ints(sizes.data.as_ints[j]))
            sizes.data.as_ints[j] = 0
        for j in range(n):
            v = live[j]
            b = self.label[self._find(v)]
            (<array>arrays[b]).data.as_ints[sizes.data.as_ints[b]] = v
            sizes.data.as_ints[b] += 1
        for j in range(n_parts):
            parts.append((arrays[j], prims.data.as_ints[j]))
        return primaries, parts

    def mrv(self, const int[:] live):
        """``(item, options)``: the primary item of ``live`` with the fewest options in
        ``live`` (ties to the smallest item) and those options, sorted; ``(-1, empty)``
        when ``live`` is empty."""
        cdef int s = self._next_stamp()
        cdef Py_ssize_t j, k, n = 0
        cdef int v, it, best = -1, fewest = 2147483647
        cdef array out
        for j in range(live.shape[0]):
            v = live[j]
            self.opt_stamp[v] = s
            for k in range(self.ostart[v], self.ostart[v + 1]):
                it = self.oitem[k]
                if it < self.n_primary:
                    if self.item_stamp[it] != s:
                        self.item_stamp[it] = s
                        self.item_count[it] = 0
                    self.item_count[it] += 1
        for j in range(live.shape[0]):
            v = live[j]
            for k in range(self.ostart[v], self.ostart[v + 1]):
                it = self.oitem[k]
                if it < self.n_primary and (self.item_count[it] < fewest or
                                            (self.item_count[it] == fewest and it < best)):
                    fewest = self.item_count[it]
                    best = it
        if best < 0:
            return -1, _ints(0)
        out = _ints(fewest)
        for k in range(self.istart[best], self.istart[best + 1]):
            v = self.iopt[k]
            if self.opt_stamp[v] == s:
                out.data.as_ints[n] = v
                n += 1
        return best, out

    def subproblem(self, const int[:] live):
        """``live`` as a problem of its own (an :class:`~excover.problem.EngineInput`,
        every multiplicity 1): its primary items numbered from 0 in their order, then its
        secondary items, and its options sorted (stably) by their first primary item."""
        cdef int s = self._next_stamp()
        cdef Py_ssize_t j, k, n = live.shape[0], nodes = 0, at
        cdef int v, it, first, n_prim = 0, n_all = 0
        cdef array start, items, colors, order, bucket, ones
        # number the items: primary in increasing order, then secondary
        for j in range(n):
            v = live[j]
            nodes += self.ostart[v + 1] - self.ostart[v]
            for k in range(self.ostart[v], self.ostart[v + 1]):
                it = self.oitem[k]
                if self.item_stamp[it] != s:
                    self.item_stamp[it] = s
                    self.item_owner[it] = -1
        for it in range(self.n_items):
            if self.item_stamp[it] == s and it < self.n_primary:
                self.item_owner[it] = n_prim
                n_prim += 1
        n_all = n_prim
        for it in range(self.n_primary, self.n_items):
            if self.item_stamp[it] == s:
                self.item_owner[it] = n_all
                n_all += 1
        # counting sort of the options by their first (new) primary item
        bucket = _ints(n_prim + 1)
        for j in range(n_prim + 1):
            bucket.data.as_ints[j] = 0
        for j in range(n):
            v = live[j]
            first = n_prim
            for k in range(self.ostart[v], self.ostart[v + 1]):
                it = self.item_owner[self.oitem[k]]
                if it < first:
                    first = it
            self.label[v] = first
            bucket.data.as_ints[first + 1] += 1  # every option has a primary item
        for j in range(n_prim):
            bucket.data.as_ints[j + 1] += bucket.data.as_ints[j]
        order = _ints(n)
        for j in range(n):
            v = live[j]
            at = bucket.data.as_ints[self.label[v]]
            order.data.as_ints[at] = v
            bucket.data.as_ints[self.label[v]] = <int>(at + 1)
        start = _ints(n + 1)
        items = _ints(nodes)
        colors = _ints(nodes)
        start.data.as_ints[0] = 0
        at = 0
        for j in range(n):
            v = order.data.as_ints[j]
            for k in range(self.ostart[v], self.ostart[v + 1]):
                items.data.as_ints[at] = self.item_owner[self.oitem[k]]
                colors.data.as_ints[at] = self.ocolor[k]
                at += 1
            start.data.as_ints[j + 1] = <int>at
        ones = _ints(n_prim)
        for j in range(n_prim):
            ones.data.as_ints[j] = 1
        return EngineInput(n_prim, n_all - n_prim, start, items, colors, ones, copy(ones))
