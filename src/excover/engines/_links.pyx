# cython: language_level=3
"""The dancing-links search engine: Knuth's Algorithms X, C and M over flat C arrays.

The data structure
==================

It is the one of Knuth's DLX1 (TAOCP 7.2.2.1, and his programs DLX1, DLX2 and DLX3), held
in two arrays of 16-byte records of 32-bit integers, allocated once per problem.

*Items.* The items are numbered ``1..N`` here (the caller's item ``k`` is item ``k+1``),
primary items first: ``1..n_primary``. Item ``i`` has a record ``cl[i]`` with the fields
LLINK and RLINK, its neighbours in the doubly linked, circular list of *active* primary
items, whose head is the root record ``cl[0]``. The list keeps the input order (covering
unlinks an item, uncovering links it back in the same place), so "leftmost" means "first
in input order", and the search has found a solution when the list is empty. Secondary
items never join the list: their LLINK and RLINK point to themselves. Two more fields
serve Algorithm M: BOUND, how many more options may still cover the item, and SLACK, the
constant ``hi - lo``.

*Nodes.* The array ``nd`` holds one node per pair (option, item), with the fields ULINK,
DLINK, TOP and COLOR, and a few special nodes:

* ``nd[1..N]`` are the item *headers*. Header ``i`` heads the doubly linked, circular
  vertical list (ULINK/DLINK) of the nodes of item ``i`` that are still in play, and its
  TOP field holds LEN, the length of that list. (``nd[0]`` is not used.)
* Then come the options in input order, each as consecutive nodes in the order of its
  items, with a *spacer* node before the first option, between two options and after the
  last. Option ``k``, whose items are ``node_item[j:j']`` in the caller's arrays, occupies
  ``nd[N+2+j+k .. N+1+j'+k]``; moving right along an option is adding 1.
* A node's TOP is its item. Its COLOR is the caller's color (0: none) in Algorithms C and
  M; Algorithm X has no colors and uses the field for the distance from the node to the
  spacer that ends its option, so that the loops over an option are counted loops.
* A spacer has TOP ``<= 0``: ``-(k+1)`` for the spacer that ends option ``k`` (0 for the
  first spacer), so walking right from any node to a spacer names its option. Its ULINK
  points to the first node of the option before it and its DLINK to the last node of the
  option after it: reaching a spacer, one jumps to the other end of the option.

*Covering* item ``i`` unlinks it from the active list and *hides* every option still in
its vertical list: each other node of such an option leaves its own item's vertical list,
and that item's LEN drops by one. Uncovering relinks everything: the unlinked nodes still
remember their neighbours, and the links dance back into place. In Algorithm X the LEN of
a covered primary item also carries the bias COVERED (its list does not change while it is
covered), so that a plain scan of the primary headers sees only the active items.

Colors (Algorithm C, as DLX2). Choosing an option with ``x:c`` *purifies* the secondary
item ``x``: the options in ``x``'s list of another color are hidden, and those of color
``c`` get COLOR ``-1``, "known to be compatible". Hiding and unhiding skip the nodes of
COLOR ``-1``; they stay in their purified list, which nothing walks until it is unpurified
and they get their color back.

Multiplicities (Algorithm M, as DLX3 and TAOCP's Algorithm M). Primary item ``i`` with
bounds ``lo..hi`` starts with BOUND ``hi`` and SLACK ``hi - lo``. An option chosen for an
item lowers the BOUND of each of its primary items, and an item whose BOUND reaches 0 is
covered. When the engine branches on an item whose BOUND and SLACK are not both 0, it
*tweaks* the options of the item one by one instead of covering it: the option at the top
of the item's list is hidden and taken out of that list, so the following branches cannot
choose it again; *untweaking* rebuilds the list when the level is left. The last branch
may be the *null move*: the item, whose lower bound is met, takes no further option and
leaves the active list.

The search
==========

The search is depth first, with an explicit level stack instead of recursion, so 100,000
levels are fine. ``choice[l]`` is the node of the option tried at level ``l`` (in Algorithm
M, the item's header for a null move; ``first_tweak[l]`` is the node at the top of the
item's list when level ``l`` was entered). A solution has at most one level per primary
item (Algorithms X and C) or per option and primary item (M), which sizes the stack.

Each level chooses an active primary item by the heuristic (MRV: the first of smallest LEN,
or of smallest branching degree in M), covers it, and tries its options one after the
other, covering the other items of each; it backs up when they are exhausted. The loop is a
state machine that can stop between two steps and resume exactly there: at a solution, at
a limit on nodes or solutions, and after each chunk of work, when the Python wrapper checks
for Ctrl-C and the deadline. The inner functions run without the GIL and never touch a
Python object.

Statistics, with Knuth's DLX1 definitions: ``nodes`` counts each entry into a level where
an item is chosen, plus one per solution; ``updates`` counts each item unlinked from the
active list plus each node unlinked from a vertical list while options are hidden
(covering, purifying, tweaking).
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc

include "_driver.pxi"

__all__ = ["DONE", "MAX_NODES", "MAX_SOLUTIONS", "SOLUTION", "TIMEOUT", "LinksEngine"]

cdef enum:
    # Where a stopped search resumes, besides FORWARD and FINISHED (see _driver.pxi).
    RECOVER = 1     # X, C: undo the option tried at ``level`` and try the next one
    BACKUP = 2      # M: leave level ``level`` (Knuth's step M9)

cdef enum:
    ALGO_X = 0
    ALGO_C = 1
    ALGO_M = 2

#: About this much work (updates, items examined, nodes) between two checks for Ctrl-C
#: and the deadline: a few milliseconds.
cdef uint64_t CHUNK = 1 << 20

cdef enum:
    #: The bias on the LEN of a covered primary item in Algorithm X (LEN stays below it).
    COVERED = 1 << 30
    #: Algorithm X scans the headers of at most this many primary items in index order.
    DENSE_SCAN = 128

DONE = ST_DONE
SOLUTION = ST_SOLUTION
MAX_SOLUTIONS = ST_MAX_SOLUTIONS
MAX_NODES = ST_MAX_NODES
TIMEOUT = ST_TIMEOUT


cdef struct Node:
    int32_t up       # ULINK
    int32_t down     # DLINK
    int32_t top      # TOP: the item; LEN in a header; <= 0 in a spacer
    int32_t color    # COLOR: 0 none, > 0 a color, -1 purified; X: distance to the spacer


cdef struct Item:
    int32_t llink
    int32_t rlink
    int32_t bound    # Algorithm M: how many more options may cover the item
    int32_t slack    # Algorithm M: hi - lo


cdef struct State:
    Run run                  # first: the run state common to the engines
    Node* nd
    Item* cl
    int32_t* choice
    int32_t* first_tweak     # Algorithm M only
    int32_t n_items          # N
    int32_t n_primary


# Every move has two directions, taking out and putting back; one inline function does
# both, its ``out`` argument a constant at every call (TAKE_OUT or PUT_BACK) that the C
# compiler folds, so that each direction compiles to its own branch-free loop.

cdef enum:
    PUT_BACK = 0
    TAKE_OUT = 1


cdef inline void leave_list(Node* nd, int32_t nn, bint out) noexcept nogil:
    """Unlink node ``nn`` from its item's vertical list (``out``), or relink it there."""
    cdef int32_t uu = nd[nn].up, dd = nd[nn].down, cc = nd[nn].top
    if out:
        nd[uu].down = dd
        nd[dd].up = uu
        nd[cc].top -= 1
    else:
        nd[uu].down = nn
        nd[dd].up = nn
        nd[cc].top += 1


cdef inline void leave_active(Item* cl, int32_t c, bint out) noexcept nogil:
    """Unlink item ``c`` from the list of active items (``out``), or relink it there."""
    if out:
        cl[cl[c].llink].rlink = cl[c].rlink
        cl[cl[c].rlink].llink = cl[c].llink
    else:
        cl[cl[c].llink].rlink = c
        cl[cl[c].rlink].llink = c


# ---------------------------------------------------------------------------------------
# Algorithm X: covering without colors. These are the hot loops.

cdef inline uint64_t hide_all(Node* nd, int32_t c, int32_t left, bint out) noexcept nogil:
    """Hide (``out``) or unhide the ``left`` options of item ``c``'s list, Algorithm X's
    layout; return the nodes moved.

    Each option is done in two counted runs: from the node after ``rr`` to the end of the
    option (whose spacer is COLOR nodes away), then from the option's first node (the
    spacer's ULINK) up to ``rr``. Unhiding goes down the list again, which is correct, as
    Knuth observes: the list of a covered item does not change while it is covered.
    """
    cdef int32_t rr = nd[c].down, nn, end
    cdef uint64_t n = 0
    while left > 0:
        left -= 1
        end = rr + nd[rr].color
        nn = rr + 1
        while nn != end:
            leave_list(nd, nn, out)
            nn += 1
        nn = nd[end].up
        n += <uint64_t>(end - nn - 1)
        while nn != rr:
            leave_list(nd, nn, out)
            nn += 1
        rr = nd[rr].down
    return n


cdef inline uint64_t cover(Node* nd, Item* cl, int32_t c, int32_t n_primary,
                           bint out) noexcept nogil:
    """Cover item ``c`` (``out``; Algorithm X layout) or uncover it; return the updates.

    A covered primary item also leaves the active list and takes the COVERED bias on its
    LEN, which does not change while it is covered.
    """
    cdef int32_t left = nd[c].top
    if c <= n_primary:
        if out:
            leave_active(cl, c, TAKE_OUT)
            nd[c].top = left + COVERED
        else:
            left -= COVERED
            nd[c].top = left
            leave_active(cl, c, PUT_BACK)
    return 1 + hide_all(nd, c, left, out)


# ---------------------------------------------------------------------------------------
# Algorithms C and M: hiding that respects purified nodes, and purification.

cdef inline uint64_t hide(Node* nd, int32_t p, bint out) noexcept nogil:
    """Unlink (``out``) or relink the other nodes of ``p``'s option, skipping purified
    ones; return how many."""
    cdef int32_t nn = p + 1
    cdef uint64_t n = 0
    while nn != p:
        if nd[nn].top <= 0:
            nn = nd[nn].up
            continue
        if nd[nn].color >= 0:
            leave_list(nd, nn, out)
            n += 1
        nn += 1
    return n


cdef inline uint64_t cover_c(Node* nd, Item* cl, int32_t c, bint out) noexcept nogil:
    """Cover item ``c`` (``out``; Algorithms C and M) or uncover it; return the updates."""
    cdef int32_t rr = nd[c].down
    cdef uint64_t n = 1
    if out:
        leave_active(cl, c, TAKE_OUT)
    while rr != c:
        n += hide(nd, rr, out)
        rr = nd[rr].down
    if not out:
        leave_active(cl, c, PUT_BACK)
    return n


cdef inline uint64_t purify(Node* nd, int32_t p, uint64_t* work) noexcept nogil:
    """Hide the options of another color in ``p``'s secondary item; mark the agreeing ones.

    Returns the updates; the marked nodes are added to ``work`` (they cost time too).
    """
    cdef int32_t c = nd[p].top, x = nd[p].color, rr = nd[c].down
    cdef uint64_t n = 0, marked = 0
    while rr != c:
        if nd[rr].color == x:
            nd[rr].color = -1
            marked += 1
        else:
            n += hide(nd, rr, TAKE_OUT)
        rr = nd[rr].down
    work[0] += marked
    return n


cdef inline void unpurify(Node* nd, int32_t p) noexcept nogil:
    """Undo :func:`purify`, going up the list (the reverse of purify's order)."""
    cdef int32_t c = nd[p].top, x = nd[p].color, rr = nd[c].up
    while rr != c:
        if nd[rr].color >= 0:
            hide(nd, rr, PUT_BACK)
        else:
            nd[rr].color = x
        rr = nd[rr].up


cdef inline uint64_t commit(Node* nd, Item* cl, int32_t p, uint64_t* work,
                            bint out) noexcept nogil:
    """Settle the secondary item of node ``p`` of a chosen option (``out``): cover or
    purify it; or undo that."""
    cdef int32_t color = nd[p].color
    if color == 0:
        return cover_c(nd, cl, nd[p].top, out)
    if color > 0:
        if out:
            return purify(nd, p, work)
        unpurify(nd, p)
    return 0


# ---------------------------------------------------------------------------------------
# Algorithms X and C: one state machine, compiled twice (``Plain`` for X, ``Colored`` for C).

cdef struct Plain:
    char unused

cdef struct Colored:
    char unused

ctypedef fused Variant:
    Plain
    Colored


cdef inline int32_t choose(Variant* variant, State* s) noexcept nogil:
    """The active primary item to branch on, by the run's heuristic.

    MRV keeps the first item of smallest LEN in left-to-right order, stopping early at
    LEN 0 (Knuth's DLX1); with random tie-breaking every item of smallest LEN is equally
    likely. Algorithm X with few primary items scans their headers in index order instead
    of following the active list: the COVERED bias keeps covered items out of the running,
    and a counted scan of adjacent records is cheaper than chasing links.
    """
    cdef Node* nd = s.nd
    cdef Item* cl = s.cl
    cdef int32_t k = cl[0].rlink, best = k, t, length
    cdef int32_t last = s.n_primary if Variant is Plain and s.n_primary <= DENSE_SCAN else 0
    cdef int64_t fewest
    cdef uint64_t ties = 1, scanned = 0
    if s.run.heuristic == LEFTMOST:
        s.run.work += 1
        return best
    t = nd[k].top
    if s.run.heuristic == MRV and last > 0:
        k += 1
        while t != 0 and k <= last:
            length = nd[k].top
            if length < t:
                t = length
                best = k
            k += 1
        scanned = <uint64_t>k
    elif s.run.heuristic == MRV:
        while t != 0:
            k = cl[k].rlink
            scanned += 1
            if k == 0:
                break
            length = nd[k].top
            if length < t:
                t = length
                best = k
    else:
        fewest = t
        k = cl[k].rlink
        while k != 0:
            scanned += 1
            if random_fewest(nd[k].top, &fewest, &ties, &s.run.rng):
                best = k
            k = cl[k].rlink
    s.run.work += scanned
    return best


cdef inline int32_t next_in_option(Node* nd, int32_t p, bint out) noexcept nogil:
    """The node after ``p`` in its option, to the right (``out``) or to the left, round
    the option: the spacer at its end leads to its other end."""
    p += 1 if out else -1
    if nd[p].top <= 0:
        return nd[p].up if out else nd[p].down
    return p


cdef inline uint64_t cover_item(Variant* variant, Node* nd, Item* cl, int32_t c,
                                int32_t n_primary, bint out) noexcept nogil:
    """Cover (``out``) or uncover the item chosen at a level, the way of the variant."""
    if Variant is Plain:
        return cover(nd, cl, c, n_primary, out)
    else:
        return cover_c(nd, cl, c, out)


cdef inline uint64_t cover_others(Variant* variant, Node* nd, Item* cl, int32_t x,
                                  int32_t n_primary, uint64_t* work, bint out) noexcept nogil:
    """Cover (X) or commit (C) every item of ``x``'s option but ``x``'s own, left to right
    (``out``); or undo that, right to left."""
    cdef int32_t pp = next_in_option(nd, x, out), cc
    cdef uint64_t n = 0
    while pp != x:
        cc = nd[pp].top
        if Variant is Plain:
            n += cover(nd, cl, cc, n_primary, out)
        else:
            n += commit(nd, cl, pp, work, out)
        pp = next_in_option(nd, pp, out)
    return n


cdef int dance(Variant* variant, State* s, bint count_only, int64_t max_solutions,
               int64_t max_nodes, uint64_t budget) noexcept nogil:
    """Run Algorithm X or C from the saved state until an event or ``budget`` work is done.

    ``max_solutions`` and ``max_nodes`` are totals (-1: no bound). The state is saved
    back into ``s`` at every exit, so the next call resumes exactly there.
    """
    cdef Node* nd = s.nd
    cdef Item* cl = s.cl
    cdef int32_t* choice = s.choice
    cdef int32_t n_items = s.n_items, n_primary = s.n_primary
    cdef int32_t level = s.run.level, cur, best
    cdef int phase = s.run.phase
    cdef uint64_t nodes = s.run.nodes, updates = s.run.updates, solutions = s.run.solutions
    cdef uint64_t work_start = s.run.work + updates + nodes
    cdef uint64_t cap = node_cap(max_nodes)
    cdef int status
    while True:
        status = check_step(&nodes, phase == FORWARD, s.run.work + updates + nodes - work_start,
                            budget, cap)
        if status != ST_GO_ON:
            break
        if phase == FORWARD:
            # Enter the level: choose an item, cover it, start with its first option.
            best = s.run.first_item if level == 0 and s.run.first_item > 0 else choose(variant, s)
            updates += cover_item(variant, nd, cl, best, n_primary, TAKE_OUT)
            cur = nd[best].down
        else:
            # Undo the option tried at this level and move to the next one.
            cur = choice[level]
            cover_others(variant, nd, cl, cur, n_primary, &s.run.work, PUT_BACK)
            cur = nd[cur].down
        while cur <= n_items:
            # The options of this level are exhausted: uncover its item and back up.
            cover_item(variant, nd, cl, cur, n_primary, PUT_BACK)
            if level == 0:
                phase = FINISHED
                break
            level -= 1
            cur = choice[level]
            cover_others(variant, nd, cl, cur, n_primary, &s.run.work, PUT_BACK)
            cur = nd[cur].down
        if phase == FINISHED:
            status = ST_DONE
            break
        choice[level] = cur
        updates += cover_others(variant, nd, cl, cur, n_primary, &s.run.work, TAKE_OUT)
        if cl[0].rlink == 0:
            phase = RECOVER
            status = count_solution(&nodes, &solutions, count_only, max_solutions)
            if status != ST_GO_ON:
                break
            continue
        level += 1
        phase = FORWARD
    s.run.level = level
    s.run.phase = phase
    s.run.nodes = nodes
    s.run.updates = updates
    s.run.solutions = solutions
    return status


cdef void unwind(Variant* variant, State* s) noexcept nogil:
    """Undo every level of a stopped X or C search, restoring the initial links."""
    cdef Node* nd = s.nd
    cdef int32_t level = s.run.level if s.run.phase == RECOVER else s.run.level - 1
    cdef int32_t x
    while level >= 0:
        x = s.choice[level]
        cover_others(variant, nd, s.cl, x, s.n_primary, &s.run.work, PUT_BACK)
        cover_item(variant, nd, s.cl, nd[x].top, s.n_primary, PUT_BACK)
        level -= 1


# ---------------------------------------------------------------------------------------
# Algorithm M: multiplicities (and colors), as Knuth's DLX3 and TAOCP's Algorithm M.

cdef inline int64_t degree(Node* nd, Item* cl, int32_t k) noexcept nogil:
    """The branching degree of item ``k``: LEN + 1 - max(BOUND - SLACK, 0).

    That is how many ways the item can still be advanced at this level: one per option
    that may be the next to cover it, plus the null move when its lower bound is already
    met. Zero means the item cannot reach its lower bound any more.
    """
    cdef int64_t need = <int64_t>cl[k].bound - cl[k].slack
    return <int64_t>nd[k].top + 1 - (need if need > 0 else 0)


cdef inline int32_t choose_m(State* s, int64_t* best_degree) noexcept nogil:
    """The item to branch on for Algorithm M, and its degree (DLX3's rule).

    MRV minimises the degree; among equal degrees it prefers the smaller
    min(SLACK, BOUND) (tighter items), then the longer list, then the leftmost item (or a
    random one among full ties). It stops early at a degree of 0 or less: that level fails
    whichever such item is chosen (a degree is negative when an item's options are fewer
    than it still needs), so the scan need not go on, and no statistic depends on which.
    """
    cdef Node* nd = s.nd
    cdef Item* cl = s.cl
    cdef int32_t k = cl[0].rlink, best = k
    cdef int64_t t = 0, d, tight, best_tight = 0, length, best_length = 0
    cdef uint64_t ties = 1, scanned = 0
    cdef bint chosen = False
    if s.run.heuristic == LEFTMOST:
        s.run.work += 1
        best_degree[0] = degree(nd, cl, best)
        return best
    while k != 0:
        scanned += 1
        d = degree(nd, cl, k)
        tight = cl[k].slack if cl[k].slack < cl[k].bound else cl[k].bound
        length = nd[k].top
        if not chosen or d < t or (d == t and (tight < best_tight or (
                tight == best_tight and length > best_length))):
            chosen = True
            t = d
            best = k
            best_tight = tight
            best_length = length
            ties = 1
            if t <= 0:
                break
        elif d == t and tight == best_tight and length == best_length:
            ties += 1
            if s.run.heuristic == MRV_RANDOM and coin(&s.run.rng, ties):
                best = k
        k = cl[k].rlink
    s.run.work += scanned
    best_degree[0] = t
    return best


cdef inline uint64_t tweak(Node* nd, Item* cl, int32_t x, int32_t i) noexcept nogil:
    """Take ``x``, the top node of item ``i``, out of play: hide its option (unless ``i``
    is covered, which hid it already) and unlink ``x`` from ``i``'s list."""
    cdef uint64_t n = 1
    cdef int32_t d = nd[x].down
    if cl[i].bound != 0:
        n += hide(nd, x, TAKE_OUT)
    nd[i].down = d
    nd[d].up = i
    nd[i].top -= 1
    return n


cdef inline void untweak(Node* nd, Item* cl, int32_t i, int32_t first) noexcept nogil:
    """Relink every node tweaked out of item ``i`` since ``first`` was on top, and unhide
    their options (or uncover ``i`` if it was covered instead)."""
    cdef int32_t z = nd[i].down, x = first, y = i, k = 0
    nd[i].down = first
    while x != z:
        nd[x].up = y
        k += 1
        if cl[i].bound != 0:
            hide(nd, x, PUT_BACK)
        y = x
        x = nd[x].down
    nd[z].up = y
    nd[i].top += k
    if cl[i].bound == 0:
        cover_c(nd, cl, i, PUT_BACK)


cdef inline uint64_t m_cover_others(State* s, int32_t x, bint out) noexcept nogil:
    """Step M6: account for the other items of the chosen option ``x``, left to right
    (``out``); or undo that, right to left."""
    cdef Node* nd = s.nd
    cdef Item* cl = s.cl
    cdef int32_t pp = next_in_option(nd, x, out), cc
    cdef uint64_t n = 0
    while pp != x:
        cc = nd[pp].top
        if cc > s.n_primary:
            n += commit(nd, cl, pp, &s.run.work, out)
        elif out:
            cl[cc].bound -= 1
            if cl[cc].bound == 0:
                n += cover_c(nd, cl, cc, TAKE_OUT)
        else:
            if cl[cc].bound == 0:
                cover_c(nd, cl, cc, PUT_BACK)
            cl[cc].bound += 1
        pp = next_in_option(nd, pp, out)
    return n


cdef inline void m_restore(State* s, int32_t i, int32_t level) noexcept nogil:
    """Step M8: give item ``i`` back the state it had when ``level`` was entered."""
    cdef Item* cl = s.cl
    if cl[i].bound == 0 and cl[i].slack == 0:
        cover_c(s.nd, cl, i, PUT_BACK)
    else:
        untweak(s.nd, cl, i, s.first_tweak[level])
    cl[i].bound += 1


cdef enum:
    # Steps of Algorithm M inside one call of dance_m.
    M_ENTER = 0     # M2-M4
    M_TRY = 1       # M5-M6
    M_NEXT = 2      # M7
    M_RESTORE = 3   # M8
    M_LEAVE = 4     # M9


cdef int dance_m(State* s, bint count_only, int64_t max_solutions, int64_t max_nodes,
                 uint64_t budget) noexcept nogil:
    """Run Algorithm M from the saved state (FORWARD or BACKUP) until an event or
    ``budget`` work is done."""
    cdef Node* nd = s.nd
    cdef Item* cl = s.cl
    cdef int32_t* choice = s.choice
    cdef int32_t n_items = s.n_items
    cdef int32_t level = s.run.level, x = 0, i = 0, bound
    cdef int step = M_ENTER if s.run.phase == FORWARD else M_LEAVE
    cdef int64_t theta
    cdef uint64_t work_start = s.run.work + s.run.updates + s.run.nodes
    cdef uint64_t cap = node_cap(max_nodes)
    cdef int status
    while True:
        if step == M_ENTER:
            if s.run.work + s.run.updates + s.run.nodes - work_start >= budget:
                status = ST_BUDGET
            else:
                status = enter_node(&s.run.nodes, cap)
            if status != ST_GO_ON:
                s.run.phase = FORWARD
                break
            if cl[0].rlink == 0:
                # a solution: its node is the one just entered
                s.run.solutions += 1
                s.run.phase = BACKUP
                status = solution_stop(s.run.solutions, count_only, max_solutions)
                if status != ST_GO_ON:
                    break
                step = M_LEAVE
                continue
            if level == 0 and s.run.first_item > 0:
                i = s.run.first_item
                theta = degree(nd, cl, i)
            else:
                i = choose_m(s, &theta)
            if theta <= 0:
                step = M_LEAVE
                continue
            x = nd[i].down
            cl[i].bound -= 1
            if cl[i].bound == 0:
                s.run.updates += cover_c(nd, cl, i, TAKE_OUT)
            if cl[i].bound != 0 or cl[i].slack != 0:
                s.first_tweak[level] = x
            step = M_TRY
        elif step == M_TRY:
            bound = cl[i].bound
            if bound == 0 and cl[i].slack == 0:
                if x == i:
                    step = M_RESTORE
                    continue
            elif nd[i].top <= <int64_t>bound - cl[i].slack:
                step = M_RESTORE
                continue
            elif x != i:
                s.run.updates += tweak(nd, cl, x, i)
            elif bound != 0:
                # The null move: item i takes no more options. Deactivating it is not an
                # update in DLX3's accounting (nothing leaves a vertical list).
                leave_active(cl, i, TAKE_OUT)
            choice[level] = x
            if x != i:
                s.run.updates += m_cover_others(s, x, TAKE_OUT)
            level += 1
            step = M_ENTER
        elif step == M_NEXT:
            m_cover_others(s, x, PUT_BACK)
            x = nd[x].down
            step = M_TRY
        elif step == M_RESTORE:
            m_restore(s, i, level)
            step = M_LEAVE
        else:
            if level == 0:
                s.run.phase = FINISHED
                status = ST_DONE
                break
            level -= 1
            x = choice[level]
            if x <= n_items:
                i = x
                leave_active(cl, i, PUT_BACK)
                step = M_RESTORE
            else:
                i = nd[x].top
                step = M_NEXT
    s.run.level = level
    return status


cdef void unwind_m(State* s) noexcept nogil:
    """Undo every level of a stopped Algorithm M search."""
    cdef int32_t level = s.run.level - 1, x, i
    while level >= 0:
        x = s.choice[level]
        if x <= s.n_items:
            i = x
            leave_active(s.cl, i, PUT_BACK)
        else:
            i = s.nd[x].top
            m_cover_others(s, x, PUT_BACK)
        m_restore(s, i, level)
        level -= 1


# ---------------------------------------------------------------------------------------
# The Python face.

cdef class LinksEngine(_Driver):
    """One dancing-links search over a problem given as flat arrays (see the module text).

    ``arrays`` is the problem as :meth:`excover.problem.Problem.engine_input` packs it (an
    :class:`~excover.problem.EngineInput`). ``heuristic``: 0 MRV (DLX1's leftmost tie-break), 1 leftmost, 2 MRV with ties broken
    by a generator seeded with ``seed``. ``first_item`` (a primary item, caller's
    numbering; -1 for none) is the item the root of the tree branches on, whatever the
    heuristic says: the levels below it follow the heuristic. ``algorithm`` forces ``"X"``, ``"C"`` or ``"M"``
    when it can solve the problem (for testing one against another); by default the
    cheapest suitable one is used.
    """

    cdef State s
    cdef int algo
    cdef int32_t n_nodes_total       # headers, spacers and option nodes
    cdef int32_t stack_size

    def __cinit__(self, arrays, int heuristic, seed, algorithm=None, int first_item=-1):
        self.run_state = &self.s.run
        self.s.nd = NULL
        self.s.cl = NULL
        self.s.choice = NULL
        self.s.first_tweak = NULL
        cdef const int[::1] starts, items, colors, los, his
        starts, items, colors, los, his = _checked_arrays(arrays, heuristic, algorithm,
                                                          first_item)
        cdef int n_primary = arrays.n_primary, n_secondary = arrays.n_secondary
        cdef Py_ssize_t n_options = starts.shape[0] - 1
        cdef Py_ssize_t n_nodes = items.shape[0]
        cdef Py_ssize_t total = (n_primary + n_secondary + 1) + (n_options + 1) + n_nodes
        if total >= COVERED:
            raise ValueError(f"problem too large: {total} nodes")
        self.algo = _pick_algorithm(colors, los, his, algorithm)
        self.n_nodes_total = <int32_t>total
        if self.algo == ALGO_M:
            self.stack_size = <int32_t>(n_options + n_primary + 1)
        else:
            self.stack_size = <int32_t>(min(n_options, n_primary) + 1)
        self.s.nd = <Node*>malloc(total * sizeof(Node))
        self.s.cl = <Item*>malloc((n_primary + n_secondary + 1) * sizeof(Item))
        self.s.choice = <int32_t*>malloc(self.stack_size * sizeof(int32_t))
        if self.algo == ALGO_M:
            self.s.first_tweak = <int32_t*>malloc(self.stack_size * sizeof(int32_t))
        if not (self.s.nd and self.s.cl and self.s.choice) or (
                self.algo == ALGO_M and not self.s.first_tweak):
            raise MemoryError()
        self.s.n_items = n_primary + n_secondary
        self.s.n_primary = n_primary
        self.s.run.heuristic = heuristic
        self.s.run.first_item = first_item + 1
        self._build(starts, items, colors, los, his)
        self.seed = mix_seed(<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
        self._restart()

    cdef void _build(self, const int[::1] starts, const int[::1] items,
                     const int[::1] colors, const int[::1] los, const int[::1] his):
        """Lay out the headers, spacers and option nodes (see the module text)."""
        cdef Node* nd = self.s.nd
        cdef Item* cl = self.s.cl
        cdef int32_t n_items = self.s.n_items, n_primary = self.s.n_primary
        cdef int32_t c, x, spacer = n_items + 1, first
        cdef Py_ssize_t k, j
        for c in range(n_items + 1):
            nd[c].up = c
            nd[c].down = c
            nd[c].top = 0
            nd[c].color = 0
            if 1 <= c <= n_primary:
                cl[c].llink = c - 1
                cl[c].rlink = c + 1 if c < n_primary else 0
                cl[c].bound = his[c - 1]
                cl[c].slack = his[c - 1] - los[c - 1]
            elif c == 0:
                cl[c].llink = n_primary
                cl[c].rlink = 1 if n_primary > 0 else 0
                cl[c].bound = 0
                cl[c].slack = 0
            else:
                cl[c].llink = c
                cl[c].rlink = c
                cl[c].bound = 0
                cl[c].slack = 0
        nd[spacer].up = 0
        nd[spacer].top = 0
        nd[spacer].color = 0
        for k in range(starts.shape[0] - 1):
            first = spacer + 1
            for j in range(starts[k], starts[k + 1]):
                x = first + <int32_t>(j - starts[k])
                c = items[j] + 1
                nd[x].top = c
                if self.algo == ALGO_X:
                    nd[x].color = first + <int32_t>(starts[k + 1] - starts[k]) - x
                else:
                    nd[x].color = colors[j]
                nd[x].up = nd[c].up
                nd[x].down = c
                nd[nd[c].up].down = x
                nd[c].up = x
                nd[c].top += 1
            nd[spacer].down = first + <int32_t>(starts[k + 1] - starts[k]) - 1
            spacer = first + <int32_t>(starts[k + 1] - starts[k])
            nd[spacer].up = first
            nd[spacer].top = -<int32_t>(k + 1)
            nd[spacer].color = 0
        nd[spacer].down = spacer

    def __dealloc__(self):
        free(self.s.nd)
        free(self.s.cl)
        free(self.s.choice)
        free(self.s.first_tweak)

    cdef void _unwind(self):
        if self.algo == ALGO_X:
            unwind(<Plain*>NULL, &self.s)
        elif self.algo == ALGO_C:
            unwind(<Colored*>NULL, &self.s)
        else:
            unwind_m(&self.s)

    cdef bint _trivial(self):
        # Algorithm M finds the empty solution itself, at its first node.
        return self.algo != ALGO_M and self.s.n_primary == 0

    cdef int32_t _solution_levels(self):
        # A level of Algorithm M is entered after each move, X and C levels before.
        return self.s.run.level if self.algo == ALGO_M else self.s.run.level + 1

    cdef int _search(self, bint count_only, int64_t max_solutions,
                     int64_t max_nodes) noexcept nogil:
        if self.algo == ALGO_X:
            return dance(<Plain*>NULL, &self.s, count_only, max_solutions, max_nodes, CHUNK)
        if self.algo == ALGO_C:
            return dance(<Colored*>NULL, &self.s, count_only, max_solutions, max_nodes, CHUNK)
        return dance_m(&self.s, count_only, max_solutions, max_nodes, CHUNK)

    def progress(self):
        """The share of the search tree walked so far, by Knuth's estimate from the
        choices on the current path (each option of a level's item an equal share of
        it, those before the current one done, the current one done too when the level
        is about to try its next); 1 once the search is over; None on Algorithm M.
        Each level's item keeps its own list whole while it is covered, so the options
        are counted on it (its LEN is biased while covered)."""
        cdef State* s = &self.s
        cdef Node* nd = s.nd
        cdef int32_t top = s.run.level, l, x, c, p
        cdef int64_t n, r
        cdef double done = 0.0, weight = 1.0
        if self.algo == ALGO_M:
            return None
        if s.run.phase == FINISHED:
            return 1.0
        if s.run.phase != FORWARD:
            top += 1  # the current level's option: its subtree is done
        for l in range(top):
            x = s.choice[l]
            c = nd[x].top
            n = 0
            r = -1
            p = nd[c].down
            while p != c:
                if p == x:
                    r = n
                n += 1
                p = nd[p].down
            if n == 0 or r < 0:
                break
            if l == s.run.level and s.run.phase != FORWARD:
                r += 1
            done += weight * r / n
            weight /= n
        return min(max(done, 0.0), 1.0)

    def solution(self):
        """The option indices of the solution the last ``run()`` stopped at, by level."""
        self._check_solution()
        cdef list out = []
        cdef int32_t lev, x
        for lev in range(self.solution_size):
            x = self.s.choice[lev]
            if x <= self.s.n_items:
                continue
            while self.s.nd[x].top > 0:
                x += 1
            out.append(-self.s.nd[x].top - 1)
        return out

    @property
    def algorithm(self):
        return "XCM"[self.algo]

    @property
    def memory_bytes(self):
        """Bytes of the node and item records and of the level stack."""
        cdef Py_ssize_t stacks = 2 if self.algo == ALGO_M else 1
        return (self.n_nodes_total * sizeof(Node) + (self.s.n_items + 1) * sizeof(Item)
                + stacks * self.stack_size * sizeof(int32_t))


cdef int _pick_algorithm(const int[::1] colors, const int[::1] los, const int[::1] his,
                         algorithm) except -1:
    """The cheapest algorithm for the problem: M if a multiplicity is not (1, 1), else C
    if a node has a color, else X; or the forced one, if it can solve the problem."""
    cdef Py_ssize_t j
    cdef int needed = ALGO_X
    for j in range(colors.shape[0]):
        if colors[j] != 0:
            needed = ALGO_C
            break
    for j in range(los.shape[0]):
        if los[j] != 1 or his[j] != 1:
            needed = ALGO_M
            break
    if algorithm is None:
        return needed
    forced = "XCM".index(algorithm)
    if forced < needed:
        raise ValueError(f"algorithm {algorithm} cannot solve this problem")
    return forced
