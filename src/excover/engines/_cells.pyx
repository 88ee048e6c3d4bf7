# cython: language_level=3
"""The dancing-cells search engine: exact cover (with colors) over sparse sets.

Where it fits
=============

Dancing links keep, for every item, a doubly linked list of the options still in play, and
pay two pointer writes into scattered records for every node they take out or put back.
Knuth's *dancing cells* (his program SSXCC, TAOCP 7.2.2.3) keep each item's options in
play as a *sparse set*: a contiguous block of an array whose first ``size`` entries are the
options in play. Taking an option out of an item's set swaps it with the last entry in play
and shrinks ``size``; putting everything back is restoring the old sizes, as the entries
taken out are still there, just past the end. Nothing is relinked: backing up costs one
write per item touched, and the sets are read sequentially.

This engine solves Algorithm X (primary and secondary items) and Algorithm C (colors on
secondary items); it refuses multiplicities. It walks the same search tree as
``excover.engines._links``: the item chosen at each level is the active primary item of fewest
options in play (MRV), ties to the smallest item number (the sparse sets permute the list
of active items, so the tie rule compares item numbers, not positions), stopping at the
first item with none; and its options are tried in input order. Solutions therefore come
in the same order and ``nodes`` equals Knuth's DLX1 and DLX2 figures (one per level
entered, one per solution). ``updates`` counts the removals of an option from an item's
set, the sparse-set analogue of a node unlinked from a vertical list (there is no separate
count for the items taken out of the active list, so it is below DLX1's figure).

The data structure
==================

*Nodes.* There is one node per pair (option, item) and a *spacer* (item ``-1``) before
the first option and after every option, options in input order. Node ``n`` has its item
``itm[n]``, ``loc[n]``, where it currently sits in its item's set, and in ``nd[n]`` its
color ``clr`` (0: none) and ``first``, the first node of its option (a spacer's ``first``
holds the caller's number of the option before it). Options without a primary item can
never be chosen and are left out (their numbers are skipped).

*Sets.* Item ``u`` owns the block ``set[start[u] .. start[u] + full[u])``, which always
holds the nodes of ``u`` (in some order); the first ``size[u]`` of them are the options
of ``u`` in play, and ``loc[set[q]] == q`` for every ``q``.

*Active items.* The primary items still to cover are the first ``pactive`` entries of
``plist``; the secondary items not yet covered or purified (given a color) the first
``sactive`` of ``slist``; ``pos[u]`` is ``u``'s place in its list. Deactivating an item
swaps it to the end of the active part; reactivating is restoring the count.

Only the sets of active items are kept up to date: when an option is *hidden* (taken out
of play), it leaves the sets of its active items only, and an item's set is frozen from
the moment it is deactivated. Choosing option ``x`` deactivates ``x``'s items first, then
hides the options of each of them that conflict with ``x`` (all of them for a primary or
uncolored item, those of another color for a colored one); the items of ``x`` still count
as maintained while this goes on, so that no option is taken out of a set twice.

*Undo.* Removals only ever swap entries inside the in-play part of a set, so restoring
an item's old ``size`` gives it back exactly the options it had (in another order). The
search is cut into *epochs* (covering a level's item is one, trying one of its options
another); the first removal from a set in an epoch pushes the pair (item, old size) on
``trail`` (the item's ``stamp`` remembers the epoch), and backing up to a mark of the
trail restores the sizes popped. Like Knuth's stack of saved sizes, but only for the
items touched.

The search
==========

Level ``l`` chooses item ``item[l]``, deactivates it and hides all its options, then copies
its set (frozen while the level lives) into ``cand`` and sorts it: node numbers grow with
option numbers, so the options are tried in input order whatever order the set is in. The
candidates of the levels of one path are disjoint (level ``l + 1`` sees none of the options
of ``item[l]``), so ``cand`` needs one entry per option. While hiding for an option, the
engine watches the active primary items: one whose set becomes empty makes the next level
a dead end, which the MRV rules (plain or random ties) would enter only to find an item
of no options and back up. That level is counted as a node without being entered (the
*dead* phase) and the next option is tried. With the leftmost rule the next level is
entered, as dancing links do.

The loop is a state machine that can stop between two steps and resume exactly there: at a
solution, at a limit on nodes or solutions, and after each chunk of work, when the Python
wrapper checks for Ctrl-C and the deadline. It runs without the GIL.
"""

from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, qsort

from excover._sorting cimport insertion_sort

include "_driver.pxi"

__all__ = ["CellEngine"]

cdef enum:
    # Where a stopped search resumes, besides FORWARD and FINISHED (see _driver.pxi).
    NEXT = 1        # undo the option tried at ``level`` (if any) and try the next one
    DEAD = 2        # count the dead-end child of the option tried at ``level``, then NEXT

#: About this much work (set removals, items scanned, nodes) between two checks for
#: Ctrl-C and the deadline: a few milliseconds.
cdef uint64_t CHUNK = 1 << 21

#: Candidate lists up to this long are sorted by insertion, longer ones by ``qsort``.
cdef int32_t SHORT_SORT = 24


cdef struct CNode:
    int32_t clr      # the color, 0 for none
    int32_t first    # the first node of the option; spacer: the option before it


cdef struct CItem:
    int32_t start    # the item's block in ``set``
    int32_t size     # options in play
    int32_t pos      # place in ``plist`` (primary) or ``slist`` (secondary)
    int32_t stamp    # the epoch in which the size was last saved on the trail


cdef struct CellState:
    Run run                  # first: the run state common to the engines
    int32_t* itm             # per node: the item, -1 in a spacer
    int32_t* loc             # per node: where it sits in its item's set
    CNode* nd                # per node: the fields read once per option
    CItem* it
    int32_t* set
    int32_t* plist
    int32_t* slist
    int32_t* trail           # pairs (item, size before the epoch's first removal)
    int32_t* cand
    # per level
    int32_t* lv_item
    int32_t* lv_pact         # active primary items once the level's item is out
    int32_t* lv_sact         # active secondary items when the level was entered
    int32_t* lv_tbase        # trail before the level's item was covered
    int32_t* lv_tmark        # trail after it
    int32_t* lv_cbase        # the level's candidates in ``cand`` ...
    int32_t* lv_cn           # ... how many ...
    int32_t* lv_ci           # ... and the one being tried
    int32_t n_primary
    int32_t n_items
    int32_t n_nodes          # records of ``nd``
    int32_t pactive
    int32_t sactive
    int32_t tp
    int32_t epoch


cdef int compare_int32(const void* a, const void* b) noexcept nogil:
    cdef int32_t x = (<const int32_t*>a)[0], y = (<const int32_t*>b)[0]
    return (x > y) - (x < y)


cdef inline void sort_nodes(int32_t* a, int32_t n) noexcept nogil:
    """Sort ``a[0:n]`` ascending: by insertion when short, else by ``qsort``."""
    if n > SHORT_SORT:
        qsort(a, n, sizeof(int32_t), compare_int32)
    else:
        insertion_sort(a, n)


cdef inline int32_t choose(CellState* s) noexcept nogil:
    """The active primary item to branch on, by the run's heuristic (see the module text)."""
    cdef CItem* it = s.it
    cdef int32_t* plist = s.plist
    cdef int32_t n = s.pactive, k, u, size, best = -1, least = 0x7FFFFFFF
    cdef int64_t fewest = INT64_MAX
    cdef uint64_t ties = 1
    s.run.work += <uint64_t>n
    if s.run.heuristic == MRV:
        for k in range(n):
            u = plist[k]
            size = it[u].size
            if size < least or (size == least and u < best):
                least = size
                best = u
                if size == 0:
                    break
        return best
    if s.run.heuristic == LEFTMOST:
        for k in range(n):
            u = plist[k]
            if best < 0 or u < best:
                best = u
        return best
    for k in range(n):
        u = plist[k]
        if random_fewest(it[u].size, &fewest, &ties, &s.run.rng):
            best = u
    return best


cdef inline void deactivate(CItem* it, int32_t* items, int32_t* active,
                            int32_t u) noexcept nogil:
    """Move item ``u`` out of the active part of its list (``items``, whose first
    ``active[0]`` entries are active): swap it with the last active entry, one fewer."""
    cdef int32_t p = active[0] - 1, q = it[u].pos, v = items[p]
    items[p] = u
    items[q] = v
    it[v].pos = q
    it[u].pos = p
    active[0] = p


cdef inline bint hide(CellState* s, int32_t c, int32_t color, bint check, int32_t p_old,
                      int32_t s_old) noexcept nogil:
    """Take out of play the options in ``c``'s set (those of another color than ``color``
    if it is not 0): each leaves the sets of its other items that are maintained, those
    that were active before the current step (positions below ``p_old`` and ``s_old``).

    With ``check``, returns False as soon as a primary item still active (position below
    ``pactive``) has no option left; True otherwise."""
    cdef CNode* nd = s.nd
    cdef const int32_t* itm = s.itm
    cdef int32_t* loc = s.loc
    cdef CItem* it = s.it
    cdef int32_t* st = s.set
    cdef int32_t* trail = s.trail
    cdef int32_t n_primary = s.n_primary, pactive = s.pactive
    cdef int32_t r = it[c].start, end = r + it[c].size, tt, nn, uu, ss, last, moved, vv
    cdef int32_t tp = s.tp, epoch = s.epoch
    cdef uint64_t n = 0
    cdef bint ok = True
    while r < end:
        tt = st[r]
        r += 1
        if color != 0 and nd[tt].clr == color:
            continue
        nn = nd[tt].first
        uu = itm[nn]
        while uu >= 0:
            if nn != tt and it[uu].pos < (p_old if uu < n_primary else s_old):
                ss = it[uu].size - 1
                it[uu].size = ss
                last = it[uu].start + ss
                moved = st[last]
                vv = loc[nn]
                st[last] = nn
                st[vv] = moved
                loc[nn] = last
                loc[moved] = vv
                if it[uu].stamp != epoch:
                    it[uu].stamp = epoch
                    trail[tp] = uu
                    trail[tp + 1] = ss + 1
                    tp += 2
                n += 1
                if ss == 0 and check and uu < n_primary and it[uu].pos < pactive:
                    ok = False
                    break
            nn += 1
            uu = itm[nn]
        if not ok:
            break
    s.run.updates += n
    s.run.work += n
    s.tp = tp
    return ok


cdef inline void new_epoch(CellState* s) noexcept nogil:
    """Start an epoch: the next removal from each set saves its size on the trail."""
    cdef int32_t u
    if s.epoch == 0x7FFFFFFF:
        for u in range(s.n_items):
            s.it[u].stamp = 0
        s.epoch = 0
    s.epoch += 1


cdef inline void undo(CellState* s, int32_t mark) noexcept nogil:
    """Put back every removal made since the trail was at ``mark``, and start an epoch."""
    cdef int32_t tp = s.tp
    cdef int32_t* trail = s.trail
    cdef CItem* it = s.it
    s.run.work += <uint64_t>(tp - mark)
    while tp > mark:
        tp -= 2
        it[trail[tp]].size = trail[tp + 1]
    s.tp = mark
    new_epoch(s)


cdef inline bint try_option(CellState* s, int32_t x, int32_t b) noexcept nogil:
    """Choose the option of node ``x`` (of the level's item ``b``): deactivate its other
    items, then hide the options that conflict with it. False if that leaves an active
    primary item without options and the heuristic would stop there."""
    cdef CNode* nd = s.nd
    cdef const int32_t* itm = s.itm
    cdef int32_t n_primary = s.n_primary
    cdef int32_t p_old = s.pactive, s_old = s.sactive
    cdef int32_t nn = nd[x].first, u
    cdef bint check = s.run.heuristic != LEFTMOST
    u = itm[nn]
    while u >= 0:
        if u != b:
            if u < n_primary:
                deactivate(s.it, s.plist, &s.pactive, u)
            elif s.it[u].pos < s_old:
                deactivate(s.it, s.slist, &s.sactive, u)
        nn += 1
        u = itm[nn]
    nn = nd[x].first
    u = itm[nn]
    while u >= 0:
        if u != b:
            if u < n_primary:
                if not hide(s, u, 0, check, p_old, s_old):
                    return False
            elif s.it[u].pos < s_old:  # not purified at an earlier level
                if not hide(s, u, nd[nn].clr, check, p_old, s_old):
                    return False
        nn += 1
        u = itm[nn]
    return True


cdef int search(CellState* s, bint count_only, int64_t max_solutions, int64_t max_nodes,
                uint64_t budget) noexcept nogil:
    """Run from the saved state until an event or ``budget`` work is done (see the module
    text); the state is saved back into ``s`` at every exit."""
    cdef int32_t level = s.run.level, phase = s.run.phase, b, n, base, k
    cdef uint64_t cap = node_cap(max_nodes), work_start = s.run.work + s.run.nodes
    cdef CItem* it = s.it
    cdef int status
    while True:
        # a DEAD step counts the node of the dead-end level it does not enter
        status = check_step(&s.run.nodes, phase == FORWARD or phase == DEAD,
                            s.run.work + s.run.nodes - work_start, budget, cap)
        if status != ST_GO_ON:
            break
        if phase == FORWARD:
            b = s.run.first_item if level == 0 and s.run.first_item >= 0 else choose(s)
            s.lv_item[level] = b
            s.lv_tbase[level] = s.tp
            s.lv_sact[level] = s.sactive
            deactivate(s.it, s.plist, &s.pactive, b)
            s.lv_pact[level] = s.pactive
            new_epoch(s)
            hide(s, b, 0, False, s.pactive, s.sactive)
            s.lv_tmark[level] = s.tp
            new_epoch(s)
            base = s.lv_cbase[level]
            n = it[b].size
            for k in range(n):
                s.cand[base + k] = s.set[it[b].start + k]
            sort_nodes(s.cand + base, n)
            s.run.work += <uint64_t>n
            s.lv_cn[level] = n
            s.lv_ci[level] = -1
        else:
            undo(s, s.lv_tmark[level])
            s.pactive = s.lv_pact[level]
            s.sactive = s.lv_sact[level]
        phase = NEXT
        k = s.lv_ci[level] + 1
        if k >= s.lv_cn[level]:
            # the level's options are exhausted: reactivate its item and back up
            undo(s, s.lv_tbase[level])
            s.pactive = s.lv_pact[level] + 1
            status = back_up(&level, &phase)
            if status != ST_GO_ON:
                break
            continue
        s.lv_ci[level] = k
        if not try_option(s, s.cand[s.lv_cbase[level] + k], s.lv_item[level]):
            phase = DEAD
            continue
        if s.pactive == 0:
            status = count_solution(&s.run.nodes, &s.run.solutions, count_only, max_solutions)
            if status != ST_GO_ON:
                break
            continue
        s.lv_cbase[level + 1] = s.lv_cbase[level] + s.lv_cn[level]
        level += 1
        phase = FORWARD
    s.run.level = level
    s.run.phase = phase
    return status


cdef class CellEngine(_Driver):
    """One dancing-cells search over a problem given as flat arrays (see the module text).

    The arguments are those of ``excover.engines._links.LinksEngine``; every multiplicity must be
    ``1..1`` (``algorithm`` may force ``"X"`` or ``"C"``, never ``"M"``).
    """

    cdef CellState s
    cdef int32_t n_kept              # options kept (those with a primary item)
    cdef int32_t n_secondary
    cdef bint colored

    def __cinit__(self, arrays, int heuristic, seed, algorithm=None, int first_item=-1):
        self.run_state = &self.s.run
        cdef const int[::1] starts, items, colors, los, his
        starts, items, colors, los, his = _checked_arrays(arrays, heuristic, algorithm,
                                                          first_item)
        cdef int n_primary = arrays.n_primary, n_secondary = arrays.n_secondary
        if algorithm == "M" or any(los[j] != 1 or his[j] != 1 for j in range(n_primary)):
            raise ValueError("the dancing-cells engine does not do multiplicities "
                             "(bounds other than 1..1): use dancing links")
        self.colored = any(colors[j] != 0 for j in range(colors.shape[0]))
        if algorithm == "X" and self.colored:
            raise ValueError("algorithm X cannot solve this problem")
        if algorithm == "C":
            self.colored = True
        self.s.n_primary = n_primary
        self.s.n_items = n_primary + n_secondary
        self.n_secondary = n_secondary
        self.s.run.heuristic = heuristic
        self.s.run.first_item = first_item
        self._build(starts, items, colors)
        self.seed = mix_seed(<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
        self._restart()

    cdef void _build(self, const int[::1] starts, const int[::1] items,
                     const int[::1] colors) except *:
        """The nodes and spacers, the items' blocks and the stacks (see the module text)."""
        cdef CellState* s = &self.s
        cdef Py_ssize_t n_options = starts.shape[0] - 1, k, j, total = 1
        cdef int32_t n_primary = s.n_primary, n_items = s.n_items, kept = 0, nn, first, u
        cdef int64_t offset, levels = n_primary + 1
        for k in range(n_options):
            for j in range(starts[k], starts[k + 1]):
                if items[j] < n_primary:
                    total += starts[k + 1] - starts[k] + 1
                    kept += 1
                    break
        if total >= 0x7FFFFFFF:
            raise ValueError(f"problem too large: {total} nodes")
        self.n_kept = kept
        s.n_nodes = <int32_t>total
        s.nd = <CNode*>malloc(total * sizeof(CNode))
        s.itm = <int32_t*>malloc(total * sizeof(int32_t))
        s.loc = <int32_t*>malloc(total * sizeof(int32_t))
        s.it = <CItem*>malloc(max(1, n_items) * sizeof(CItem))
        s.set = <int32_t*>malloc(total * sizeof(int32_t))
        s.trail = <int32_t*>malloc(2 * total * sizeof(int32_t))
        s.cand = <int32_t*>malloc(max(1, kept) * sizeof(int32_t))
        s.plist = <int32_t*>malloc(max(1, n_primary) * sizeof(int32_t))
        s.slist = <int32_t*>malloc(max(1, n_items - n_primary) * sizeof(int32_t))
        s.lv_item = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_pact = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_sact = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_tbase = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_tmark = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_cbase = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_cn = <int32_t*>malloc(levels * sizeof(int32_t))
        s.lv_ci = <int32_t*>malloc(levels * sizeof(int32_t))
        if not (s.nd and s.itm and s.loc and s.it and s.set and s.trail and s.cand and s.plist and s.slist
                and s.lv_item and s.lv_pact and s.lv_sact and s.lv_tbase and s.lv_tmark
                and s.lv_cbase and s.lv_cn and s.lv_ci):
            raise MemoryError()
        full = array("q", [0]) * max(1, n_items)
        cdef int64_t[::1] counts = full
        nd = s.nd
        s.itm[0] = -1
        s.loc[0] = 0
        nd[0].clr = 0
        nd[0].first = -1
        nn = 1
        for k in range(n_options):
            if not any(items[j] < n_primary for j in range(starts[k], starts[k + 1])):
                continue
            first = nn
            for j in range(starts[k], starts[k + 1]):
                s.itm[nn] = items[j]
                s.loc[nn] = 0
                nd[nn].clr = colors[j]
                nd[nn].first = first
                counts[items[j]] += 1
                nn += 1
            s.itm[nn] = -1
            s.loc[nn] = 0
            nd[nn].clr = 0
            nd[nn].first = <int32_t>k
            nn += 1
        offset = 0
        for u in range(n_items):
            s.it[u].start = <int32_t>offset
            offset += counts[u]

    def __dealloc__(self):
        cdef CellState* s = &self.s
        free(s.nd)
        free(s.itm)
        free(s.loc)
        free(s.it)
        free(s.set)
        free(s.trail)
        free(s.cand)
        free(s.plist)
        free(s.slist)
        free(s.lv_item)
        free(s.lv_pact)
        free(s.lv_sact)
        free(s.lv_tbase)
        free(s.lv_tmark)
        free(s.lv_cbase)
        free(s.lv_cn)
        free(s.lv_ci)

    cdef void _rewind(self):
        """Every set full and in node order, every item active, the search at its root."""
        cdef CellState* s = &self.s
        cdef int32_t u, nn, q
        for u in range(s.n_items):
            s.it[u].size = 0
            s.it[u].stamp = 0
        s.epoch = 1
        for nn in range(s.n_nodes):
            u = s.itm[nn]
            if u >= 0:
                q = s.it[u].start + s.it[u].size
                s.it[u].size += 1
                s.set[q] = nn
                s.loc[nn] = q
        for u in range(s.n_primary):
            s.plist[u] = u
            s.it[u].pos = u
        for u in range(s.n_primary, s.n_items):
            s.slist[u - s.n_primary] = u
            s.it[u].pos = u - s.n_primary
        s.pactive = s.n_primary
        s.sactive = s.n_items - s.n_primary
        s.tp = 0
        s.lv_cbase[0] = 0

    cdef bint _trivial(self):
        # No primary item: no level to enter.
        return self.s.n_primary == 0

    cdef int _search(self, bint count_only, int64_t max_solutions,
                     int64_t max_nodes) noexcept nogil:
        return search(&self.s, count_only, max_solutions, max_nodes, CHUNK)

    def solution(self):
        """The option indices of the solution the last ``run()`` stopped at, by level."""
        self._check_solution()
        cdef CellState* s = &self.s
        cdef int32_t lev, x
        cdef list out = []
        for lev in range(self.solution_size):
            x = s.cand[s.lv_cbase[lev] + s.lv_ci[lev]]
            while s.itm[x] >= 0:
                x += 1
            out.append(s.nd[x].first)
        return out

    @property
    def algorithm(self):
        return "C" if self.colored else "X"

    @property
    def memory_bytes(self):
        """Bytes of the nodes, the sets, the trail, the item records and lists, the
        candidates and the level stack."""
        cdef CellState* s = &self.s
        return (s.n_nodes * (sizeof(CNode) + 16) + s.n_items * (sizeof(CItem) + 4)
                + self.n_kept * 4 + (s.n_primary + 1) * 8 * 4)
