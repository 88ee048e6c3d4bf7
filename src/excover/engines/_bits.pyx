# cython: language_level=3
"""The bit-parallel search engine: exact cover (with colors) over bitsets of options.

Where it fits
=============

Dancing links keep, for every item, the linked list of the options still in play, and pay a
pointer-chasing *update* for every option they take out or put back. When the options are
few enough to be numbered in a few hundred machine words, flat bitsets do the same work
word by word: a search level holds the set of options in play as one bitset, each item has
a *column*, the bitset of the options that contain it, and

* the options compatible with a chosen option are the parent level's set with the columns
  of the chosen option's items cleared (a few word-wise AND-NOTs);
* the number of options in play that contain item ``i`` is the popcount of the level's set
  AND ``i``'s column, so the MRV choice is a scan of popcounts.

Nothing is ever undone: a level's bitset stays as it was while its children work on the
next ones of the level stack, and backing up is moving down the stack. The two loops that
carry the weight, the filter and the MRV scan, are in ``_bitkernels.h``, compiled for
AVX-512 (with a vector popcount), for AVX2 and for the baseline; the engine takes the best
the CPU runs (``simd``).

This engine solves Algorithm X (primary and secondary items), Algorithm C (colors on
secondary items) and Algorithm M (multiplicities, see below). On X and C it walks the same
search tree as ``excover.engines._links``: the item chosen at each level is the one of fewest
options in play (MRV, ties to the leftmost primary item, stopping at the first with none)
and its options are tried in input order, so solutions come in the same order and the
``nodes`` statistic equals Knuth's DLX1 and DLX2 figures. ``updates`` counts the options
taken out of play, as there are no links to update.

The data structure
==================

*Bits.* Primary item ``i`` is bit ``i``. A secondary item that no option colors is one bit;
a colored secondary item ``x`` gets one bit for "used without a color" plus one per color
it is given. An option *has* the bits it occupies and *forbids* the bits no compatible
option may have: for a primary or uncolored item the two are the same bit; an option
giving ``x`` color ``c`` has ``(x, c)`` and forbids ``(x, uncolored)`` and ``(x, c')`` for
every other color ``c'``; an option using ``x`` without a color forbids every bit of ``x``.
Two options are compatible exactly when neither has a bit the other forbids (the test is
symmetric). ``cols`` holds, for every bit, the bitset of the options that have it, and each
option keeps the list of the bits it forbids; the options compatible with option ``p`` are
those outside the columns of ``p``'s forbidden bits. Each option also keeps the bitset of
its primary items (``pmask``), so that a child level's uncovered items are its parent's
minus that bitset, a few words, rather than a bit cleared per item in turn (each clearing
waits on the one before it).

Options without a primary item can never be chosen and are dropped when the engine is
built; ``original`` maps the engine's option numbers back to the caller's.

*Levels.* Level ``l`` has ``live[l]``, the bitset of options compatible with those chosen
at levels ``< l``, ``uncovered[l]``, the bitset of primary items still to cover, ``item[l]``
the item it branches on and ``choice[l]`` the option of that item being tried (the search
moves to the next by finding the next set bit of ``live[l] & cols[item[l]]``).

Multiplicities
==============

A primary item ``t`` with bounds ``lo..hi`` other than ``1..1`` keeps, per level, how many
chosen options have it (``taken``); it stays *open* (its bit set in ``uncovered``) until
``hi`` options have it, and it is *unsatisfied* while fewer than ``lo`` have.
``n_uncovered`` then counts the unsatisfied items. Choosing an option takes out of play the
columns of its forbidden bits, except those of items with multiplicities that stay open.
Branching on such an item ``t`` that still needs ``need = lo - taken`` covers tries each
of its options ``x`` in play in input order, and in the branch of ``x`` also takes out of
play the options of ``t`` before ``x``: a solution's options of ``t`` are found smallest
first, so each solution once. The branch stops when fewer options are left than the covers
still needed; when ``need`` is 0 a last branch *closes* ``t``: none of its options in
play is taken. The item chosen at each level is the one of fewest branches, Knuth's
``θ = options + 1 - need`` (an item of plain bounds has ``θ = options``), ties to the
leftmost; items that need nothing and have no option in play are done. A solution is a
level where every item is satisfied and no option is in play. Solutions list their options
level by level, leaving out the levels that closed an item.

Forced moves
============

With the heuristic ``FORCED`` (``"forced"``), the MRV scan also marks the items with one
option in play (``single``). When the item it chooses has one (and none has none), the
level is a *forced level*: every marked item still uncovered is covered by its option,
one after another into the next level's bitsets (an option that an earlier one took out
of play ends the level: no solution), and the level branches no further. Its options are
kept on a stack (``forced_start``, ``forced_option``) for the solutions. MRV would take
the same options, one level each, before its next branching, so the search finds the
same solutions in the same order with fewer nodes (see tests/test_bits_heuristics.py).

Weighted item choice
====================

With ``WEIGHTED`` (``"weighted"``), each primary item has a weight, 1 at the start; the
choice counts the options in play of every uncovered item and takes the one of fewest per
unit of weight (ties to the leftmost), and an item found with none ends the node at once
and gains one unit of weight: items that fail often are chosen early (Christine Solnon's
failure weights). The weights live as long as the search (they are reset with it).

The size bound
==============

With ``SIZES`` (``"sizes"``), MRV's search also proves levels dead by counting. Options
that share an uncolored secondary item exclude one another, so a solution takes at most
one option of each such *group*; when every option has a group (its first secondary
item whose options all have the same number of primary items, the group's *size*: a
tiling whose pieces are each used at most once, each piece a group), the primary items
left at a level are covered by options of distinct groups in play, and their number is a
sum of the sizes of distinct groups (a subset sum, kept as a bitset of the reachable
sums, one shift-or per group). A level where it is not has no solution: it branches on
no item (``PRUNED_LEVEL``) and backs up. Each level keeps the groups with an option in
play (``groups``, those of its parent less the ones found without one), and before the
filter makes a child the parent tests the child's number of items left against its own
groups less the option's: most dead children are then never made. That test depends
only on the option's size (its group's options all have it), so a level keeps its
verdict for each size it has judged (``judged``, ``verdicts``). The groups are numbered
by size, so that both scans stop at the first group larger than the items left, and
while fewer than 64 items are left the reachable sums fit in one word. The problems of
Shannon's rectangle sequences, each rectangle's dimensions used at most once, have half
the nodes or fewer (docs/performance.md, "The rectangle sequences"). The solutions and
their order are MRV's; the nodes are fewer. On problems without such groups, or with
multiplicities, the search is MRV's. A search whose root branches on a given item
(``first_item``) exempts that item's options, which are all out of play below the root:
they need no group (a symmetry-broken count's representatives each hold several keys),
and the root, where they are in play, is not bounded.

Shares
======

``share=(k, n, depth)`` runs part ``k`` of ``n`` of the search, for ``n`` processes that
split a count without talking to each other. Every part walks the same top of the tree;
a *unit* is an option tried at level ``depth``, or a solution found above it, numbered in
the order of the search, and part ``k`` takes the units whose number is ``k`` modulo
``n`` and skips the others. The parts partition the solutions; their ``nodes`` and
``updates`` each include the top of the tree. With random tie-breaking, the levels down
to ``depth`` draw from a generator of their own, so that what a part skips does not
change its choices there.

Below the root
==============

On Algorithms X and C the engine renumbers the options in play after each choice at the
root: the options compatible with the root's option become options ``0..L-1`` and the
columns and per-option lists are rebuilt over them, so that every level below works on
bitsets of ``L`` bits instead of all the options' (the same nodes, less time:
docs/performance.md, "Below the root"). Below the root, the filter takes each option's
conflicts out of play in one pass: the union of the columns of its forbidden bits
(``conflicts``), made the first time the option is chosen under the root's choice and
kept for the others (an option is tried many times in a subtree). A symmetry-broken count, whose root branches on
options that are whole subproblems side by side, gains as much: each subproblem is
searched on its own bitsets. The rebuilding costs a pass over the columns per option of
the root; the search tree, its solutions and their order are unchanged. Going back to the root puts the full structures back.

The loop is a state machine that can stop between two steps and resume exactly there: at
a solution, at a limit on nodes or solutions, and after each chunk of work, when the
Python wrapper checks for Ctrl-C and the deadline. It runs without the GIL.
"""

from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

include "_driver.pxi"

cdef extern from "_portable.h":
    int excover_ctz64(unsigned long long x) nogil
    int excover_popcount64(unsigned long long x) nogil

cdef extern from "_bitkernels.h":
    ctypedef int64_t (*excover_filter_fn)(uint64_t*, const uint64_t*, const uint64_t*,
                                          const int32_t*, int32_t, int32_t) noexcept nogil
    ctypedef int32_t (*excover_mrv_fn)(const uint64_t*, const uint64_t*, int32_t,
                                       const uint64_t*, int32_t, int64_t*) noexcept nogil
    ctypedef void (*excover_counts_fn)(const uint64_t*, const uint64_t*, int32_t,
                                       const uint64_t*, int32_t, int64_t*) noexcept nogil
    ctypedef int32_t (*excover_forced_fn)(const uint64_t*, const uint64_t*, int32_t,
                                          const uint64_t*, int32_t, int64_t*,
                                          uint64_t*) noexcept nogil
    int excover_bits_level() nogil
    excover_filter_fn excover_filter_kernel(int level) nogil
    excover_mrv_fn excover_mrv_kernel(int level) nogil
    excover_counts_fn excover_counts_kernel(int level) nogil
    excover_forced_fn excover_forced_kernel(int level) nogil

cdef enum:
    # Where a stopped search resumes, besides FORWARD and FINISHED (see _driver.pxi).
    NEXT = 1        # try the next option of the item of level ``level``
    # The item of a forced level (heuristic FORCED), which has no option to try.
    FORCED_LEVEL = -2
    # The item of a level the size bound proved dead, which has no option to try.
    PRUNED_LEVEL = -3

#: The most bits (items, plus the colors of secondary items) the engine takes.
MAX_BITS = 4096
#: The most options (with a primary item) the engine takes.
MAX_OPTIONS = 1 << 20

cdef int SIMD_LEVEL = excover_bits_level()
#: The instruction sets the kernels are compiled for, from the plainest.
SIMD_LEVELS = ("baseline", "avx2", "avx512")
#: The best instruction set the kernels run with on this CPU.
SIMD = SIMD_LEVELS[SIMD_LEVEL]

#: The shortest bitsets (in words) the AVX-512 kernels are used for by default.
cdef int32_t AVX512_WORDS = 8

#: About this many words of bitset work between two checks for Ctrl-C and the deadline:
#: a few milliseconds.
cdef uint64_t CHUNK = 1 << 24


cdef struct BitState:
    Run run                      # first: the run state common to the engines
    # The problem, read-only during the search.
    int32_t n_primary
    int32_t n_options            # options kept (those with a primary item)
    int32_t ow                   # words of a bitset over options (those of the level's numbering)
    int32_t stride               # words between two levels of ``live``: ow of all the options
    int32_t n_bits
    int32_t uw                   # words of a bitset over primary items
    uint64_t* cols               # one bitset over options per bit
    int32_t* forbid_start        # n_options + 1 offsets into forbid_bit
    int32_t* forbid_bit
    int32_t* primary_start       # n_options + 1 offsets into primary_item
    int32_t* primary_item
    int32_t* original            # kept option -> the caller's option number
    uint64_t* pmask              # per option, uw words: the bitset of its primary items
    # The search.
    uint64_t* live               # levels * ow
    uint64_t* uncovered          # levels * uw
    int64_t* n_live              # per level: options in play
    int32_t* n_uncovered         # per level: primary items to cover
    int32_t* item                # per level
    int32_t* choice              # per level
    int64_t* counts              # per primary item: options in play that have it
    int64_t least                # the options in play of the item choose() last chose
    uint64_t* root_solutions     # per option: solutions found under it at level 0, or NULL
    # Below the root (see the module text): the full structures, and those rebuilt for
    # the options in play after the root's choice, which ``cols`` ... ``original`` point
    # to while ``compacted``.
    int32_t compact              # 1: levels below the root run on rebuilt structures
    int32_t compacted            # 1: they do now
    int32_t full_ow
    uint64_t* full_cols
    int32_t* full_forbid_start
    int32_t* full_forbid_bit
    int32_t* full_primary_start
    int32_t* full_primary_item
    int32_t* full_original
    uint64_t* full_pmask
    uint64_t* sub_cols
    int32_t* sub_forbid_start
    int32_t* sub_forbid_bit
    int32_t* sub_primary_start
    int32_t* sub_primary_item
    int32_t* sub_original
    uint64_t* sub_pmask
    int32_t* sub_number          # per option: its number below the root
    uint64_t* conflicts          # per option below the root, ow words: see conflicts_of
    uint64_t* conflict_round     # per option below the root: the ``round`` of its row
    uint64_t round               # the root's choices renumbered so far
    # Forced moves (heuristic FORCED; see "Forced moves" in the module text).
    int32_t* forced_start        # levels + 1 offsets into forced_option
    int32_t* forced_option       # the options a forced level took, level after level
    uint64_t* spare              # ow words: the filter's output while a level is forced
    uint64_t* single             # uw words: the items choose() found with one option left
    # Weighted item choice (heuristic WEIGHTED; see "Weighted item choice" in the module text).
    int64_t* weight              # per primary item: 1 + the times it was found with none
    # The size bound (see "The size bound" in the module text); n_groups is 0 without it.
    int32_t n_groups
    int32_t root_exempt          # 1: the options of the root's item have no group (-1)
    int32_t gw                   # words of a bitset over groups
    int32_t* group_bit           # per group: its secondary item's bit
    int32_t* group_size          # per group: the primary items of each of its options
    int32_t* group_words         # per group: the first and last words of its column, in
    int32_t* full_group_words    # the level's numbering (the full one's, below the root's)
    int32_t* sub_group_words
    int32_t* option_group        # per option of the level's numbering: its group
    int32_t* full_option_group
    int32_t* sub_option_group
    uint64_t* groups             # levels * gw: the groups with an option in play
    uint64_t* all_groups         # gw words: every group
    uint64_t* sums               # uw + 1 words: the sizes the groups can add up to
    int32_t vw                   # words of a bitset over the sizes of options (uw + 1)
    uint64_t* judged             # levels * vw: the sizes of the children judged at a level
    uint64_t* verdicts           # levels * vw: of those, the sizes that fit
    # Algorithm M (multiplicities); see "Multiplicities" in the module text.
    int32_t multi                # 1 when the search runs Algorithm M
    int32_t n_multi              # primary items whose bounds are not 1..1
    int32_t* slot                # per primary item: its index among those, or -1
    int32_t* lo                  # per primary item
    int32_t* hi                  # per primary item
    int32_t* taken               # levels * n_multi: times each such item is covered
    int64_t* remaining           # per level: options of the item not tried yet
    int32_t* need                # per level: covers the item still lacks
    char* closing                # per level: 1 once the level tries "no more options"
    int32_t* scratch             # the bits a chosen option takes out of play
    # Shares (see "Shares" in the module text).
    int32_t share_depth          # the level whose option tries are dealt out; -1: none
    uint64_t share_index         # this engine's share ...
    uint64_t share_count         # ... of this many
    uint64_t unit                # units seen so far
    uint64_t rng_top             # the generator of the levels shares walk in common
    excover_filter_fn filter
    excover_mrv_fn mrv
    excover_counts_fn count_items
    excover_forced_fn forced


cdef inline uint64_t* generator(BitState* s, int32_t level) noexcept nogil:
    """The random generator of ``level``: the levels a share walks in common draw from one
    of their own, so that every share makes the same choices there whatever it skips
    below."""
    return &s.rng_top if level <= s.share_depth else &s.run.rng


cdef inline bint foreign_unit(BitState* s, int32_t level, bint unit) noexcept nogil:
    """Count the unit (see "Shares" in the module text) that ``unit`` says the step at
    ``level`` is, if it is one; True if it belongs to another share and is skipped."""
    if level > s.share_depth or not (level == s.share_depth or unit):
        return False
    s.unit += 1
    return (s.unit - 1) % s.share_count != s.share_index


cdef inline int32_t choose(BitState* s, int32_t level) noexcept nogil:
    """The uncovered primary item level ``level`` branches on, by the run's heuristic."""
    cdef const uint64_t* live = s.live + <int64_t>level * s.stride
    cdef const uint64_t* uncovered = s.uncovered + <int64_t>level * s.uw
    cdef int32_t u, t, best = -1
    cdef int64_t least = INT64_MAX
    cdef uint64_t x, ties = 1
    cdef uint64_t* rng
    s.run.work += <uint64_t>s.ow * <uint64_t>s.n_uncovered[level]
    if level == 0 and s.run.first_item >= 0:
        s.least = 2  # the root branches on the item asked for: no forced move there
        return s.run.first_item
    if s.run.heuristic == MRV:
        return s.mrv(live, s.cols, s.ow, uncovered, s.uw, &s.least)
    if s.run.heuristic == FORCED:
        return s.forced(live, s.cols, s.ow, uncovered, s.uw, &s.least, s.single)
    if s.run.heuristic == WEIGHTED:
        return choose_weighted(s, live, uncovered)
    if s.run.heuristic == LEFTMOST:
        for u in range(s.uw):
            if uncovered[u]:
                return u * 64 + excover_ctz64(uncovered[u])
        return -1
    s.count_items(live, s.cols, s.ow, uncovered, s.uw, s.counts)
    rng = generator(s, level)
    for u in range(s.uw):
        x = uncovered[u]
        while x:
            t = u * 64 + excover_ctz64(x)
            x &= x - 1
            if random_fewest(s.counts[t], &least, &ties, rng):
                best = t
    return best


cdef inline int32_t choose_weighted(BitState* s, const uint64_t* live,
                                    const uint64_t* uncovered) noexcept nogil:
    """The uncovered primary item of fewest options in play per unit of weight (ties to
    the leftmost); an item with none is chosen at once, and its weight grows by one."""
    cdef int32_t u, t, best = -1
    cdef int64_t n, fewest = 0, heaviest = 1
    cdef uint64_t x
    s.count_items(live, s.cols, s.ow, uncovered, s.uw, s.counts)
    for u in range(s.uw):
        x = uncovered[u]
        while x:
            t = u * 64 + excover_ctz64(x)
            x &= x - 1
            n = s.counts[t]
            if n == 0:
                s.weight[t] += 1
                return t
            if best < 0 or n * heaviest < fewest * s.weight[t]:
                best = t
                fewest = n
                heaviest = s.weight[t]
    return best


cdef inline int32_t next_option(BitState* s, int32_t level) noexcept nogil:
    """The next option after ``choice[level]`` that is in play and has the level's item,
    or -1."""
    cdef const uint64_t* live = s.live + <int64_t>level * s.stride
    cdef const uint64_t* col = s.cols + <int64_t>s.item[level] * s.ow
    cdef int32_t p = s.choice[level] + 1, w = p >> 6
    cdef uint64_t x
    if w >= s.ow or s.item[level] < 0:  # past the last word, or a forced level
        return -1
    x = live[w] & col[w] & (~<uint64_t>0 << (p & 63))
    while True:
        if x:
            return (w << 6) + excover_ctz64(x)
        w += 1
        if w >= s.ow:
            return -1
        x = live[w] & col[w]


cdef inline void add_size(uint64_t* sums, int32_t top, int32_t size) noexcept nogil:
    """``sums |= sums << size`` over the words ``0..top`` of the bitset of reachable sums,
    from the top word down, so that the group of that size adds once."""
    cdef int32_t q = size >> 6, r = size & 63, w
    cdef uint64_t low
    for w in range(top, q - 1, -1):
        low = sums[w - q - 1] if w > q else 0
        if r:
            sums[w] |= (sums[w - q] << r) | (low >> (64 - r))
        else:
            sums[w] |= sums[w - q]


cdef inline bint add_group(uint64_t* sums, uint64_t* low, int32_t top, int32_t size,
                           uint64_t goal) noexcept nogil:
    """Add a group of ``size`` to the sums reachable so far (the words ``0..top`` of
    ``sums``, or the one word ``low`` when ``top`` is 0) and say whether the items left
    are one of them now (``goal``: their bit in word ``top``): the step of both size
    tests (``sizes_fit``, ``sizes_fit_after``)."""
    if top:
        add_size(sums, top, size)
        return (sums[top] & goal) != 0
    low[0] |= low[0] << size
    return (low[0] & goal) != 0


cdef bint sizes_fit(BitState* s, int32_t level) noexcept nogil:
    """Whether the primary items left to cover at ``level`` number a sum of the sizes of
    distinct groups with an option in play (see "The size bound" in the module text);
    the groups still in play at ``level`` go to its row of ``groups``, and the level's
    verdicts on its children (``sizes_fit_after``) are forgotten."""
    cdef int32_t gw = s.gw, ow = s.ow, left = s.n_uncovered[level]
    cdef int32_t top = left >> 6, g, u, w, size, examined = 0
    cdef const uint64_t* parent = (s.all_groups if level == 0
                                   else s.groups + <int64_t>(level - 1) * gw)
    cdef uint64_t* here = s.groups + <int64_t>level * gw
    cdef const uint64_t* live = s.live + <int64_t>level * s.stride
    cdef const uint64_t* col
    cdef uint64_t* sums = s.sums
    cdef uint64_t x, low = 1, goal = (<uint64_t>1) << (left & 63)
    cdef bint fits = False, in_play, larger = False
    memcpy(here, parent, gw * sizeof(uint64_t))
    memset(s.judged + <int64_t>level * s.vw, 0, s.vw * sizeof(uint64_t))
    if level == 0 and s.root_exempt:
        return True  # the root's options have no group: no bound there
    if top:
        memset(sums, 0, (top + 1) * sizeof(uint64_t))
        sums[0] = 1
    for u in range(gw):
        if larger:  # the groups are by size: every one left is larger than ``left``
            here[u] = 0
            continue
        x = parent[u]
        while x and not fits:
            g = u * 64 + excover_ctz64(x)
            size = s.group_size[g]
            if size > left:  # out of play for good below this level, and those after it
                here[u] &= ((<uint64_t>1) << (g & 63)) - 1
                larger = True
                break
            x &= x - 1
            examined += 1
            in_play = False
            col = s.cols + <int64_t>s.group_bit[g] * ow
            for w in range(s.group_words[2 * g], s.group_words[2 * g + 1] + 1):
                if live[w] & col[w]:
                    in_play = True
                    break
            if not in_play:  # out of play for good below this level
                here[u] &= ~((<uint64_t>1) << (g & 63))
                continue
            fits = add_group(sums, &low, top, size, goal)
        if fits:
            break
    s.run.work += <uint64_t>examined * <uint64_t>(top + 2)
    return fits


cdef bint sizes_fit_after(BitState* s, int32_t level, int32_t own, int32_t left) noexcept nogil:
    """Whether the ``left`` primary items that an option of group ``own`` (-1: of none)
    at level ``level`` leaves number a sum of the sizes of distinct groups other than
    ``own`` among those still in play at ``level``: the size bound of the child, from the
    parent's groups, before the filter makes the child (see "The size bound" in the
    module text). When ``own`` is among those groups the verdict depends on its size
    alone (every option of a group has that many items), and is kept for the level's
    other children of that size."""
    cdef int32_t gw = s.gw, top = left >> 6, g, u, size, examined = 0
    cdef int32_t mine = s.n_uncovered[level] - left
    cdef const uint64_t* here = s.groups + <int64_t>level * gw
    cdef uint64_t* judged = s.judged + <int64_t>level * s.vw
    cdef uint64_t* verdict = s.verdicts + <int64_t>level * s.vw
    cdef uint64_t* sums = s.sums
    cdef uint64_t x, low = 1, goal = (<uint64_t>1) << (left & 63), bit = 0
    cdef bint fits = False, larger = False, remembered = False
    if own >= 0 and (here[own >> 6] >> (own & 63)) & 1:
        remembered = True
        bit = (<uint64_t>1) << (mine & 63)
        if judged[mine >> 6] & bit:
            return (verdict[mine >> 6] & bit) != 0
    if top:
        memset(sums, 0, (top + 1) * sizeof(uint64_t))
        sums[0] = 1
    for u in range(gw):
        x = here[u]
        if own >= 0 and u == own >> 6:
            x &= ~((<uint64_t>1) << (own & 63))
        while x:
            g = u * 64 + excover_ctz64(x)
            x &= x - 1
            size = s.group_size[g]
            if size > left:  # and so are the groups after it
                larger = True
                break
            examined += 1
            fits = add_group(sums, &low, top, size, goal)
            if fits:
                break
        if fits or larger:
            break
    s.run.work += <uint64_t>examined * <uint64_t>(top + 2)
    if remembered:
        judged[mine >> 6] |= bit
        if fits:
            verdict[mine >> 6] |= bit
        else:
            verdict[mine >> 6] &= ~bit
    return fits


cdef int32_t take_forced(BitState* s, int32_t level) noexcept nogil:
    """Level ``level`` as a forced level: every uncovered item with one option in play is
    covered by that option, all at once, into level ``level + 1``; return the primary
    items left to cover, or -1 when two of those options clash (the level has no
    solution)."""
    cdef int32_t ow = s.ow, uw = s.uw, u, t, p, k, w, left = s.n_uncovered[level]
    cdef int32_t top = s.forced_start[level]
    cdef const uint64_t* parent = s.uncovered + <int64_t>level * uw
    cdef const uint64_t* current = s.live + <int64_t>level * s.stride
    cdef uint64_t* child = s.live + <int64_t>(level + 1) * s.stride
    cdef uint64_t* below = s.uncovered + <int64_t>(level + 1) * uw
    cdef const uint64_t* col
    cdef uint64_t x, y
    cdef int64_t kept = s.n_live[level], before
    memcpy(below, parent, uw * sizeof(uint64_t))
    for u in range(uw):
        x = s.single[u]
        while x:
            t = u * 64 + excover_ctz64(x)
            x &= x - 1
            if not (below[u] >> (t & 63)) & 1:
                continue  # covered by a forced option taken before
            col = s.cols + <int64_t>t * ow
            p = -1
            for w in range(ow):
                y = current[w] & col[w]
                if y:
                    p = (w << 6) + excover_ctz64(y)
                    break
            if p < 0:
                s.forced_start[level + 1] = top
                return -1  # an option taken before took this item's last one out of play
            k = s.forbid_start[p]
            before = kept
            kept = s.filter(s.spare, current, s.cols, s.forbid_bit + k,
                            s.forbid_start[p + 1] - k, ow)
            memcpy(child, s.spare, ow * sizeof(uint64_t))
            current = child
            s.run.work += <uint64_t>ow * <uint64_t>(s.forbid_start[p + 1] - k)
            s.run.updates += <uint64_t>(before - kept)
            for k in range(s.primary_start[p], s.primary_start[p + 1]):
                below[s.primary_item[k] >> 6] &= ~((<uint64_t>1) << (s.primary_item[k] & 63))
            left -= s.primary_start[p + 1] - s.primary_start[p]
            s.forced_option[top] = p
            top += 1
    s.forced_start[level + 1] = top
    s.n_live[level + 1] = kept
    s.n_uncovered[level + 1] = left
    return left


cdef void compact_below_root(BitState* s) noexcept nogil:
    """Renumber the options in play at level 1 (the full numbering's bitset, just
    filtered) as ``0..L-1``, rebuild the columns and the per-option lists over them, and
    switch the levels below the root to those (see "Below the root")."""
    cdef uint64_t* live = s.live + s.stride
    cdef const uint64_t* uncovered = s.uncovered + s.uw
    cdef int32_t w, o, b, n = 0, f = 0, q = 0, j, ow
    cdef uint64_t x
    cdef const uint64_t* col
    cdef uint64_t* sub
    s.sub_forbid_start[0] = 0
    s.sub_primary_start[0] = 0
    for w in range(s.full_ow):
        x = live[w]
        while x:
            o = (w << 6) + excover_ctz64(x)
            x &= x - 1
            s.sub_number[o] = n
            for j in range(s.full_forbid_start[o], s.full_forbid_start[o + 1]):
                s.sub_forbid_bit[f] = s.full_forbid_bit[j]
                f += 1
            for j in range(s.full_primary_start[o], s.full_primary_start[o + 1]):
                s.sub_primary_item[q] = s.full_primary_item[j]
                q += 1
            s.sub_original[n] = s.full_original[o]
            if s.n_groups:
                s.sub_option_group[n] = s.full_option_group[o]
            memcpy(s.sub_pmask + <int64_t>n * s.uw, s.full_pmask + <int64_t>o * s.uw,
                   s.uw * sizeof(uint64_t))
            n += 1
            s.sub_forbid_start[n] = f
            s.sub_primary_start[n] = q
    ow = max(1, (n + 63) >> 6)
    memset(s.sub_cols, 0, <int64_t>max(1, s.n_bits) * ow * sizeof(uint64_t))
    for b in range(s.n_bits):
        if b < s.n_primary and not (uncovered[b >> 6] >> (b & 63)) & 1:
            continue  # covered by the root's option: no option in play has it
        col = s.full_cols + <int64_t>b * s.full_ow
        sub = s.sub_cols + <int64_t>b * ow
        for w in range(s.full_ow):
            x = col[w] & live[w]
            while x:
                o = s.sub_number[(w << 6) + excover_ctz64(x)]
                x &= x - 1
                sub[o >> 6] |= (<uint64_t>1) << (o & 63)
    s.run.work += <uint64_t>s.n_bits * <uint64_t>s.full_ow + <uint64_t>f
    memset(live, 0, s.full_ow * sizeof(uint64_t))
    for w in range(n >> 6):
        live[w] = ~(<uint64_t>0)
    if n & 63:
        live[n >> 6] = ((<uint64_t>1) << (n & 63)) - 1
    s.cols = s.sub_cols
    s.ow = ow
    s.forbid_start = s.sub_forbid_start
    s.forbid_bit = s.sub_forbid_bit
    s.primary_start = s.sub_primary_start
    s.primary_item = s.sub_primary_item
    s.original = s.sub_original
    s.pmask = s.sub_pmask
    if s.n_groups:
        group_words(s.sub_group_words, s)
        s.group_words = s.sub_group_words
        s.option_group = s.sub_option_group
    s.round += 1  # every row of ``conflicts`` is to be made again
    s.compacted = 1


cdef void conflicts_of(BitState* s, int32_t p) noexcept nogil:
    """Row ``p`` of ``conflicts`` below the root: the options in play after the root's
    choice that one of option ``p``'s forbidden bits takes out of play (the union of
    their columns), for the search's filter to take them out in one pass."""
    cdef int32_t ow = s.ow, w, k
    cdef uint64_t* row = s.conflicts + <int64_t>p * ow
    cdef const uint64_t* col
    memset(row, 0, ow * sizeof(uint64_t))
    for k in range(s.forbid_start[p], s.forbid_start[p + 1]):
        col = s.cols + <int64_t>s.forbid_bit[k] * ow
        for w in range(ow):
            row[w] |= col[w]
    s.conflict_round[p] = s.round
    s.run.work += <uint64_t>ow * <uint64_t>(s.forbid_start[p + 1] - s.forbid_start[p])


cdef void group_words(int32_t* words, BitState* s) noexcept nogil:
    """The first and last nonzero words of each group's column in ``s.cols`` (0 and -1
    for an empty one) into ``words``: a group's options are often numbered close together,
    and its scan for an option in play runs over those words only."""
    cdef int32_t g, w, first, last
    cdef const uint64_t* col
    for g in range(s.n_groups):
        col = s.cols + <int64_t>s.group_bit[g] * s.ow
        first = 0
        last = -1
        for w in range(s.ow):
            if col[w]:
                if last < 0:
                    first = w
                last = w
        words[2 * g] = first
        words[2 * g + 1] = last
    s.run.work += <uint64_t>s.n_groups * <uint64_t>s.ow


cdef inline void full_structures(BitState* s) noexcept nogil:
    """Back to the structures over all the options (the root's, see "Below the root")."""
    s.cols = s.full_cols
    s.ow = s.full_ow
    s.forbid_start = s.full_forbid_start
    s.forbid_bit = s.full_forbid_bit
    s.primary_start = s.full_primary_start
    s.primary_item = s.full_primary_item
    s.original = s.full_original
    s.pmask = s.full_pmask
    s.group_words = s.full_group_words
    s.option_group = s.full_option_group
    s.compacted = 0


cdef inline void count_under_root(BitState* s) noexcept nogil:
    """Count the solution being found under the option tried at level 0, when the engine
    keeps those counts (see ``BitEngine.root_solutions``)."""
    if s.root_solutions != NULL and s.choice[0] >= 0:
        s.root_solutions[s.choice[0]] += 1


cdef int search(BitState* s, bint count_only, int64_t max_solutions, int64_t max_nodes,
                uint64_t budget) noexcept nogil:
    """Run from the saved state until an event or ``budget`` work is done (see the module
    text); the state is saved back into ``s`` at every exit."""
    cdef int32_t stride = s.stride, uw = s.uw
    cdef int32_t level = s.run.level, phase = s.run.phase, p, k, left
    cdef int64_t kept
    cdef uint64_t* below
    cdef const uint64_t* mask
    cdef uint64_t cap = node_cap(max_nodes), work_start = s.run.work
    cdef int status
    while True:
        status = check_step(&s.run.nodes, phase == FORWARD, s.run.work - work_start, budget, cap)
        if status != ST_GO_ON:
            break
        if phase == FORWARD:
            s.choice[level] = -1
            phase = NEXT
            if s.run.heuristic == FORCED:
                s.forced_start[level + 1] = s.forced_start[level]
            if s.n_groups and not sizes_fit(s, level):
                s.item[level] = PRUNED_LEVEL  # no option to try: the level backs up
            else:
                s.item[level] = choose(s, level)
            if s.run.heuristic == FORCED and s.item[level] >= 0 and s.least == 1:
                s.item[level] = FORCED_LEVEL
                left = take_forced(s, level)
                if left == 0:
                    count_under_root(s)
                    status = count_solution(&s.run.nodes, &s.run.solutions, count_only,
                                            max_solutions)
                    if status != ST_GO_ON:
                        break
                elif left > 0:
                    level += 1
                    phase = FORWARD
                    continue
        p = next_option(s, level)
        if p < 0:
            status = back_up(&level, &phase)
            if level == 0 and s.compacted:
                full_structures(s)
            if status != ST_GO_ON:
                break
            continue
        s.choice[level] = p
        left = s.n_uncovered[level] - (s.primary_start[p + 1] - s.primary_start[p])
        if foreign_unit(s, level, left == 0):
            continue  # another part's unit
        if left == 0:
            count_under_root(s)
            status = count_solution(&s.run.nodes, &s.run.solutions, count_only, max_solutions)
            if status != ST_GO_ON:
                break
            continue
        if s.n_groups and not sizes_fit_after(s, level, s.option_group[p], left):
            continue  # the child would fail the size bound: not made
        k = s.forbid_start[p]
        if s.compacted:  # one pass over the option's conflicts, made on first use
            if s.conflict_round[p] != s.round:
                conflicts_of(s, p)
            kept = s.filter(s.live + <int64_t>(level + 1) * stride,
                            s.live + <int64_t>level * stride, s.conflicts, &p, 1, s.ow)
            s.run.work += <uint64_t>s.ow
        else:
            kept = s.filter(s.live + <int64_t>(level + 1) * stride,
                            s.live + <int64_t>level * stride,
                            s.cols, s.forbid_bit + k, s.forbid_start[p + 1] - k, s.ow)
            s.run.work += <uint64_t>s.ow * <uint64_t>(s.forbid_start[p + 1] - k)
        s.run.updates += <uint64_t>(s.n_live[level] - kept)
        below = s.uncovered + <int64_t>(level + 1) * uw
        mask = s.pmask + <int64_t>p * uw
        for k in range(uw):
            below[k] = below[k - uw] & ~mask[k]
        if level == 0 and s.compact:
            compact_below_root(s)
        level += 1
        s.n_live[level] = kept
        s.n_uncovered[level] = left
        phase = FORWARD
    s.run.level = level
    s.run.phase = phase
    return status


cdef double tree_share(BitState* s) noexcept nogil:
    """The share of the search tree walked so far, by Knuth's estimate from the levels'
    choices: each branch of a node taken as an equal share of it, the branches before
    a level's current one done, the current one in progress (done when the level is
    about to try its next). 1 when the search is over. Algorithms X and C."""
    cdef int32_t top = s.run.level, l, w, ow, c
    cdef double done = 0.0, weight = 1.0
    cdef int64_t n, r
    cdef const uint64_t* live
    cdef const uint64_t* col
    cdef uint64_t x
    if s.run.phase == FINISHED:
        return 1.0
    if s.run.phase != FORWARD:
        top += 1  # the current level has its item: its choice's subtree is done
    for l in range(top):
        if s.item[l] < 0:  # a forced level: one branch
            if l == s.run.level:
                done += weight
            continue
        if l == 0:  # the root's numbering is the full one
            col = s.full_cols + <int64_t>s.item[0] * s.full_ow
            ow = s.full_ow
        else:
            col = s.cols + <int64_t>s.item[l] * s.ow
            ow = s.ow
        live = s.live + <int64_t>l * s.stride
        c = s.choice[l]
        n = 0
        r = 0
        for w in range(ow):
            x = live[w] & col[w]
            n += excover_popcount64(x)
            if c >= 0 and w < (c >> 6):
                r += excover_popcount64(x)
            elif c >= 0 and w == (c >> 6):
                r += excover_popcount64(x & (((<uint64_t>1) << (c & 63)) - 1))
        if n == 0:
            break
        if l == s.run.level and c >= 0:
            r += 1  # the choice the level is about to move on from is done
        done += weight * <double>r / <double>n
        weight /= <double>n
    return min(done, 1.0)


cdef inline int32_t choose_multi(BitState* s, int32_t level) noexcept nogil:
    """Algorithm M's item choice: the open item of fewest branches (see "Multiplicities"),
    by the run's heuristic; ``need`` and ``remaining`` of the level are set for it."""
    cdef const uint64_t* live = s.live + <int64_t>level * s.ow
    cdef const uint64_t* uncovered = s.uncovered + <int64_t>level * s.uw
    cdef const int32_t* taken = s.taken + <int64_t>level * s.n_multi
    cdef int32_t u, t, j, need, best = -1, best_need = 0
    cdef int32_t first = s.run.first_item if level == 0 else -1
    cdef int64_t theta, least = 0
    cdef uint64_t x, ties = 1
    s.run.work += <uint64_t>s.ow * <uint64_t>s.n_primary
    s.count_items(live, s.cols, s.ow, uncovered, s.uw, s.counts)
    if first >= 0:
        # branch on the given item if it is open at all; else as the heuristic says
        j = s.slot[first]
        need = 1 if j < 0 else s.lo[first] - taken[j]
        if need > 0 or s.counts[first] > 0:
            s.need[level] = max(0, need)
            s.remaining[level] = s.counts[first]
            return first
    for u in range(s.uw):
        x = uncovered[u]
        while x:
            t = u * 64 + excover_ctz64(x)
            x &= x - 1
            j = s.slot[t]
            need = 1 if j < 0 else s.lo[t] - taken[j]
            if need <= 0:
                need = 0
                if s.counts[t] == 0:
                    continue  # satisfied, nothing left to add: done
            theta = s.counts[t] + 1 - need
            if best >= 0:
                if s.run.heuristic == LEFTMOST or theta > least:
                    continue
                if theta == least:
                    if s.run.heuristic != MRV_RANDOM:
                        continue
                    ties += 1
                    if not coin(generator(s, level), ties):
                        continue
                else:
                    ties = 1
            best = t
            best_need = need
            least = theta
            if theta <= 0:
                break  # a dead end: no need to look further
        if best >= 0 and (least <= 0 or s.run.heuristic == LEFTMOST):
            break
    s.need[level] = best_need
    s.remaining[level] = s.counts[best] if best >= 0 else 0
    return best


cdef int search_multi(BitState* s, bint count_only, int64_t max_solutions, int64_t max_nodes,
                      uint64_t budget) noexcept nogil:
    """:func:`search` for Algorithm M (see "Multiplicities" in the module text)."""
    cdef int32_t ow = s.ow, uw = s.uw, nm = s.n_multi
    cdef int32_t level = s.run.level, phase = s.run.phase, p, t, u, k, j, n, unsatisfied, last_word
    cdef int64_t kept
    cdef uint64_t m
    cdef uint64_t* child
    cdef uint64_t* below
    cdef const uint64_t* col
    cdef int32_t* counts_below
    cdef uint64_t cap = node_cap(max_nodes), work_start = s.run.work
    cdef int status
    while True:
        status = check_step(&s.run.nodes, phase == FORWARD, s.run.work - work_start, budget, cap)
        if status != ST_GO_ON:
            break
        if phase == FORWARD:
            s.item[level] = choose_multi(s, level)
            s.choice[level] = -1
            s.closing[level] = 0
            phase = NEXT
        t = s.item[level]
        p = -1
        if not s.closing[level]:
            # the remaining options can still give the covers the item needs
            if s.remaining[level] >= s.need[level] and s.remaining[level] > 0:
                p = next_option(s, level)
        if p < 0 and not s.closing[level] and s.need[level] == 0 and s.slot[t] >= 0:
            s.closing[level] = 1
        elif p < 0:
            status = back_up(&level, &phase)
            if status != ST_GO_ON:
                break
            continue
        child = s.live + <int64_t>(level + 1) * ow
        below = s.uncovered + <int64_t>(level + 1) * uw
        memcpy(below, below - uw, uw * sizeof(uint64_t))
        counts_below = s.taken + <int64_t>(level + 1) * nm
        memcpy(counts_below, counts_below - nm, nm * sizeof(int32_t))
        unsatisfied = s.n_uncovered[level]
        if p < 0:
            # close the item: none of its options in play is taken
            s.scratch[0] = t
            kept = s.filter(child, child - ow, s.cols, s.scratch, 1, ow)
            s.run.work += <uint64_t>ow
            below[t >> 6] &= ~((<uint64_t>1) << (t & 63))
        else:
            s.choice[level] = p
            s.remaining[level] -= 1
            n = 0
            for k in range(s.forbid_start[p], s.forbid_start[p + 1]):
                u = s.forbid_bit[k]
                if u < s.n_primary:
                    j = s.slot[u]
                    if j >= 0:
                        counts_below[j] += 1
                        if counts_below[j] == s.lo[u]:
                            unsatisfied -= 1
                        if counts_below[j] < s.hi[u]:
                            continue  # still open: its options stay in play
                    else:
                        unsatisfied -= 1
                    below[u >> 6] &= ~((<uint64_t>1) << (u & 63))
                s.scratch[n] = u
                n += 1
            if n:
                kept = s.filter(child, child - ow, s.cols, s.scratch, n, ow)
            else:  # every item of p stays open (the kernel wants at least one bit)
                memcpy(child, child - ow, ow * sizeof(uint64_t))
                kept = s.n_live[level]
            s.run.work += <uint64_t>ow * <uint64_t>(n + 1)
            if s.slot[t] >= 0 and (below[t >> 6] >> (t & 63)) & 1:
                # the item stays open: its options before p leave play
                col = s.cols + <int64_t>t * ow
                last_word = p >> 6
                for k in range(last_word + 1):
                    m = child[k] & col[k]
                    if k == last_word and (p & 63) != 63:
                        m &= ((<uint64_t>1) << ((p & 63) + 1)) - 1
                    child[k] &= ~m
                    kept -= excover_popcount64(m)
        s.run.updates += <uint64_t>(s.n_live[level] - kept)
        if foreign_unit(s, level, unsatisfied == 0 and kept == 0):
            continue  # another part's unit
        if unsatisfied == 0 and kept == 0:
            status = count_solution(&s.run.nodes, &s.run.solutions, count_only, max_solutions)
            if status != ST_GO_ON:
                break
            continue
        level += 1
        s.n_live[level] = kept
        s.n_uncovered[level] = unsatisfied
        phase = FORWARD
    s.run.level = level
    s.run.phase = phase
    return status


def bits_needed(int n_primary, int n_secondary, node_item, node_color):
    """The number of bits the engine would use for a problem: one per primary item and
    uncolored secondary item, and for a colored secondary item one plus one per color."""
    cdef const int[::1] items = _int_array(node_item)
    cdef const int[::1] colors = _int_array(node_color)
    return _bit_layout(n_primary, n_secondary, items, colors)[0]


def primary_counts(int n_primary, node_item):
    """The number of options of each primary item: a list of ``n_primary`` ints."""
    cdef const int[::1] items = _int_array(node_item)
    counts = array("q", [0]) * n_primary
    cdef long long[::1] tally = counts
    cdef Py_ssize_t j
    for j in range(items.shape[0]):
        if 0 <= items[j] < n_primary:
            tally[items[j]] += 1
    return counts.tolist()


cdef tuple _bit_layout(int n_primary, int n_secondary, const int[::1] items,
                       const int[::1] colors):
    """(bits in all, the first bit of each secondary item, for each secondary item None or
    the offset of each of its colors from that first bit): the numbering of the module
    text."""
    cdef Py_ssize_t j
    cdef int x
    palette = [None] * n_secondary
    for j in range(items.shape[0]):
        x = items[j] - n_primary
        if 0 <= x < n_secondary and colors[j] > 0:
            if palette[x] is None:
                palette[x] = {}
            palette[x].setdefault(colors[j], len(palette[x]) + 1)
    first = []
    cdef int bits = n_primary
    for x in range(n_secondary):
        first.append(bits)
        bits += 1 + (len(palette[x]) if palette[x] is not None else 0)
    return bits, first, palette


cdef inline bint _has_primary(const int[::1] starts, const int[::1] items, Py_ssize_t k,
                              int32_t n_primary) noexcept:
    """Whether option ``k`` has a primary item."""
    cdef Py_ssize_t j
    for j in range(starts[k], starts[k + 1]):
        if items[j] < n_primary:
            return True
    return False


cdef class BitEngine(_Driver):
    """One bit-parallel search over a problem given as flat arrays (see the module text).

    The arguments are those of ``excover.engines._links.LinksEngine``; the problem must fit in
    :data:`MAX_BITS` bits (:func:`bits_needed`) and have at most :data:`MAX_OPTIONS`
    options with a primary item. ``simd`` caps the instruction set of the kernels (one of
    :data:`SIMD_LEVELS`; by default the best the CPU runs). ``share=(k, n, depth)`` runs
    part ``k`` of ``n`` of the search (see "Shares" in the module text).
    """

    cdef BitState s
    cdef int32_t n_bits
    cdef int simd_level
    cdef bint colored
    cdef int64_t levels

    def __cinit__(self, arrays, int heuristic, seed, algorithm=None, int first_item=-1,
                  simd=None, share=None):
        self.run_state = &self.s.run
        cdef const int[::1] starts, items, colors, los, his
        starts, items, colors, los, his = _checked_arrays(
            arrays, MRV if heuristic in (FORCED, WEIGHTED, SIZES) else heuristic, algorithm,
            first_item)
        cdef int n_primary = arrays.n_primary, n_secondary = arrays.n_secondary
        self.s.multi = any(los[j] != 1 or his[j] != 1 for j in range(n_primary))
        if heuristic in (FORCED, WEIGHTED) and (
                self.s.multi or algorithm == "M" or share is not None):
            raise ValueError("forced moves and weighted choice run on problems without "
                             "multiplicities, searched whole (no share)")
        self.colored = any(colors[j] != 0 for j in range(colors.shape[0]))
        if (algorithm == "X" and (self.colored or self.s.multi)
                or algorithm == "C" and self.s.multi):
            raise ValueError(f"algorithm {algorithm} cannot solve this problem")
        if algorithm == "M":
            self.s.multi = 1
        bits, first, palette = _bit_layout(n_primary, n_secondary, items, colors)
        if bits > MAX_BITS:
            raise ValueError(f"{bits} bits, more than the engine's {MAX_BITS}")
        self.n_bits = bits
        self.s.n_primary = n_primary
        self.s.uw = max(1, (n_primary + 63) // 64)
        self.s.run.heuristic = MRV if heuristic == SIZES else heuristic
        self.s.run.first_item = first_item
        self.s.share_depth = -1
        self.s.share_index = 0
        self.s.share_count = 1
        if share is not None:
            k, n, depth = share
            if not (0 <= k < n and depth >= 0):
                raise ValueError(f"bad share {share!r}: need 0 <= k < n and depth >= 0")
            self.s.share_index = k
            self.s.share_count = n
            self.s.share_depth = depth
        self._build(starts, items, colors, first, palette)
        self._build_multi(los, his)
        if first_item >= 0 and not self.s.multi:
            self.s.root_solutions = <uint64_t*>calloc(max(1, self.s.n_options), sizeof(uint64_t))
            if self.s.root_solutions == NULL:
                raise MemoryError()
        self._build_below_root(not self.s.multi)
        if heuristic == SIZES and not self.s.multi:
            self._build_groups(starts, items, first, palette)
        self._pick_kernels(simd)
        self.seed = mix_seed(<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
        self._restart()

    cdef void _build(self, const int[::1] starts, const int[::1] items,
                     const int[::1] colors, list first, list palette) except *:
        """The columns and the per-option lists of the module text, in two passes over
        the nodes in C (the first sizes the lists, the second fills them): building is a
        small part of a long search, but symmetry-broken counts build several engines."""
        cdef BitState* s = &self.s
        cdef int32_t n_primary = s.n_primary, n_secondary, ow
        cdef Py_ssize_t n_options = starts.shape[0] - 1, n_nodes = items.shape[0]
        cdef Py_ssize_t k, j, kept = 0, n_forbid = 0, n_prim = 0, f = 0, q = 0
        cdef int c, x, bit, width
        cdef int64_t levels = n_primary + 1
        n_secondary = <int32_t>len(first)
        # Per secondary item: its first bit and its number of colors; per node: the bit
        # it has (a colored node: its color's bit, found in the item's palette).
        first_bits = array("i", first) if n_secondary else array("i", [0])
        widths = array("i", [0]) * max(1, n_secondary)
        node_bits = array("i", [0]) * max(1, n_nodes)
        cdef int[::1] first_of = first_bits, width_of = widths, node_bit = node_bits
        for x in range(n_secondary):
            if palette[x] is not None:
                width_of[x] = len(palette[x])
        for j in range(n_nodes):
            c = items[j]
            if c < n_primary:
                node_bit[j] = c
            elif colors[j] == 0:
                node_bit[j] = first_of[c - n_primary]
            else:
                x = c - n_primary
                node_bit[j] = first_of[x] + <int>palette[x][colors[j]]
        # Pass 1: the options kept (those with a primary item) and the lists' lengths.
        for k in range(n_options):
            if not _has_primary(starts, items, k, n_primary):
                continue
            kept += 1
            for j in range(starts[k], starts[k + 1]):
                c = items[j]
                if c < n_primary:
                    n_prim += 1
                    n_forbid += 1
                else:
                    width = width_of[c - n_primary]
                    n_forbid += width + 1 if colors[j] == 0 else width
        if kept > MAX_OPTIONS:
            raise ValueError(f"{kept} options, more than the engine's {MAX_OPTIONS}")
        ow = <int32_t>max(1, (kept + 63) // 64)
        s.n_options = <int32_t>kept
        s.ow = ow
        s.cols = <uint64_t*>calloc(<int64_t>max(1, self.n_bits) * ow, sizeof(uint64_t))
        s.forbid_start = <int32_t*>malloc((kept + 1) * sizeof(int32_t))
        s.forbid_bit = <int32_t*>malloc(max(1, n_forbid) * sizeof(int32_t))
        s.primary_start = <int32_t*>malloc((kept + 1) * sizeof(int32_t))
        s.primary_item = <int32_t*>malloc(max(1, n_prim) * sizeof(int32_t))
        s.original = <int32_t*>malloc(max(1, kept) * sizeof(int32_t))
        s.pmask = <uint64_t*>calloc(<int64_t>max(1, kept) * s.uw, sizeof(uint64_t))
        if not (s.cols and s.forbid_start and s.forbid_bit and s.primary_start
                and s.primary_item and s.original and s.pmask):
            raise MemoryError()
        # Pass 2: fill them.
        kept = 0
        s.forbid_start[0] = 0
        s.primary_start[0] = 0
        for k in range(n_options):
            if not _has_primary(starts, items, k, n_primary):
                continue
            for j in range(starts[k], starts[k + 1]):
                c = items[j]
                s.cols[<int64_t>node_bit[j] * ow + (kept >> 6)] |= (<uint64_t>1) << (kept & 63)
                if c < n_primary:
                    s.forbid_bit[f] = c
                    f += 1
                    s.primary_item[q] = c
                    q += 1
                    s.pmask[<int64_t>kept * s.uw + (c >> 6)] |= (<uint64_t>1) << (c & 63)
                    continue
                x = c - n_primary
                for bit in range(first_of[x], first_of[x] + 1 + width_of[x]):
                    if colors[j] == 0 or bit != node_bit[j]:
                        s.forbid_bit[f] = bit
                        f += 1
            s.original[kept] = <int32_t>k
            kept += 1
            s.forbid_start[kept] = <int32_t>f
            s.primary_start[kept] = <int32_t>q
        self.levels = levels
        s.live = <uint64_t*>calloc(levels * ow, sizeof(uint64_t))
        s.uncovered = <uint64_t*>calloc(levels * s.uw, sizeof(uint64_t))
        s.n_live = <int64_t*>malloc(levels * sizeof(int64_t))
        s.n_uncovered = <int32_t*>malloc(levels * sizeof(int32_t))
        s.item = <int32_t*>malloc(levels * sizeof(int32_t))
        s.choice = <int32_t*>malloc(levels * sizeof(int32_t))
        s.counts = <int64_t*>calloc(n_primary + 1, sizeof(int64_t))
        s.forced_start = <int32_t*>calloc(levels + 1, sizeof(int32_t))
        s.forced_option = <int32_t*>malloc((n_primary + 1) * sizeof(int32_t))
        s.spare = <uint64_t*>calloc(ow, sizeof(uint64_t))
        s.single = <uint64_t*>calloc(s.uw, sizeof(uint64_t))
        s.weight = <int64_t*>calloc(n_primary + 1, sizeof(int64_t))
        if not (s.live and s.uncovered and s.n_live and s.n_uncovered and s.item
                and s.choice and s.counts and s.forced_start and s.forced_option
                and s.spare and s.single and s.weight):
            raise MemoryError()

    cdef void _build_below_root(self, bint compact) except *:
        """The full structures' second names, and with ``compact`` room for those rebuilt
        below the root (see "Below the root" in the module text)."""
        cdef BitState* s = &self.s
        cdef int64_t n = max(1, s.n_options)
        s.n_bits = self.n_bits
        s.stride = s.ow
        s.full_ow = s.ow
        s.full_cols = s.cols
        s.full_forbid_start = s.forbid_start
        s.full_forbid_bit = s.forbid_bit
        s.full_primary_start = s.primary_start
        s.full_primary_item = s.primary_item
        s.full_original = s.original
        s.full_pmask = s.pmask
        s.compact = compact
        s.compacted = 0
        if not compact:
            return
        s.sub_cols = <uint64_t*>malloc(<int64_t>max(1, s.n_bits) * s.ow * sizeof(uint64_t))
        s.sub_forbid_start = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        s.sub_forbid_bit = <int32_t*>malloc(max(1, s.forbid_start[s.n_options]) * sizeof(int32_t))
        s.sub_primary_start = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        s.sub_primary_item = <int32_t*>malloc(
            max(1, s.primary_start[s.n_options]) * sizeof(int32_t))
        s.sub_original = <int32_t*>malloc(n * sizeof(int32_t))
        s.sub_number = <int32_t*>malloc(n * sizeof(int32_t))
        s.sub_pmask = <uint64_t*>malloc(n * s.uw * sizeof(uint64_t))
        s.conflicts = <uint64_t*>malloc(n * s.ow * sizeof(uint64_t))
        s.conflict_round = <uint64_t*>calloc(n, sizeof(uint64_t))
        s.round = 1
        if not (s.sub_cols and s.sub_forbid_start and s.sub_forbid_bit and s.sub_primary_start
                and s.sub_primary_item and s.sub_original and s.sub_number and s.sub_pmask
                and s.conflicts and s.conflict_round):
            raise MemoryError()

    cdef void _build_groups(self, const int[::1] starts, const int[::1] items,
                            list first, list palette) except *:
        """The groups of the size bound (see "The size bound" in the module text), when
        every option has an uncolored secondary item whose options all have as many
        primary items; else none (``n_groups`` stays 0)."""
        cdef BitState* s = &self.s
        cdef Py_ssize_t n_options = starts.shape[0] - 1, k, j
        cdef int32_t n_primary = s.n_primary, kept = 0, size, x, g
        cdef int64_t levels = self.levels
        n_secondary = len(palette)
        # the options of the root's item, when one is given: exempt (see the module text)
        rooted = [False] * n_options
        if s.run.first_item >= 0:
            for k in range(n_options):
                for j in range(starts[k], starts[k + 1]):
                    if items[j] == s.run.first_item:
                        rooted[k] = True
        # per secondary item: the size of its options, -1 unseen, -2 mixed or colored
        size_of = [-1 if palette[x] is None else -2 for x in range(n_secondary)]
        for k in range(n_options):
            if not _has_primary(starts, items, k, n_primary):
                continue
            size = s.primary_start[kept + 1] - s.primary_start[kept]
            kept += 1
            if rooted[k]:
                continue
            for j in range(starts[k], starts[k + 1]):
                x = items[j] - n_primary
                if x >= 0 and size_of[x] != -2:
                    size_of[x] = size if size_of[x] in (-1, size) else -2
        # each option's group: its first secondary item of one size (-1: a root option)
        group_of = {}
        option_group = []
        for k in range(n_options):
            if not _has_primary(starts, items, k, n_primary):
                continue
            if rooted[k]:
                option_group.append(-1)
                continue
            for j in range(starts[k], starts[k + 1]):
                x = items[j] - n_primary
                if x >= 0 and size_of[x] >= 0:
                    option_group.append(group_of.setdefault(x, len(group_of)))
                    break
            else:
                return  # an option of no group: no bound
        if not group_of:
            return
        # groups numbered by size, so that a scan stops at the first one too large
        order = []
        for x, g in group_of.items():
            order.append((size_of[x], g, x))
        order.sort()
        renamed = [0] * len(order)  # old group number -> new
        for g in range(len(order)):
            renamed[order[g][1]] = g
            group_of[order[g][2]] = g
        for k in range(len(option_group)):
            if option_group[k] >= 0:
                option_group[k] = renamed[option_group[k]]
        s.n_groups = <int32_t>len(group_of)
        s.root_exempt = any(rooted)
        s.gw = (s.n_groups + 63) // 64
        s.group_bit = <int32_t*>malloc(s.n_groups * sizeof(int32_t))
        s.group_size = <int32_t*>malloc(s.n_groups * sizeof(int32_t))
        s.groups = <uint64_t*>calloc(levels * s.gw, sizeof(uint64_t))
        s.all_groups = <uint64_t*>calloc(s.gw, sizeof(uint64_t))
        s.sums = <uint64_t*>calloc(s.uw + 1, sizeof(uint64_t))
        s.vw = s.uw + 1
        s.judged = <uint64_t*>calloc(levels * s.vw, sizeof(uint64_t))
        s.verdicts = <uint64_t*>calloc(levels * s.vw, sizeof(uint64_t))
        s.full_group_words = <int32_t*>malloc(2 * s.n_groups * sizeof(int32_t))
        s.sub_group_words = <int32_t*>malloc(2 * s.n_groups * sizeof(int32_t))
        s.full_option_group = <int32_t*>malloc(max(1, s.n_options) * sizeof(int32_t))
        s.sub_option_group = <int32_t*>malloc(max(1, s.n_options) * sizeof(int32_t))
        if not (s.group_bit and s.group_size and s.groups and s.all_groups and s.sums
                and s.judged and s.verdicts
                and s.full_group_words and s.sub_group_words and s.full_option_group
                and s.sub_option_group):
            raise MemoryError()
        for x, g in group_of.items():
            s.group_bit[g] = first[x]
            s.group_size[g] = size_of[x]
            s.all_groups[g >> 6] |= (<uint64_t>1) << (g & 63)
        for k in range(s.n_options):
            s.full_option_group[k] = option_group[k]
        group_words(s.full_group_words, s)
        s.group_words = s.full_group_words
        s.option_group = s.full_option_group

    cdef void _build_multi(self, const int[::1] los, const int[::1] his) except *:
        """The bounds of the items and, for Algorithm M, the deeper level stack and the
        per-level counts of "Multiplicities" in the module text."""
        cdef BitState* s = &self.s
        cdef int32_t t, k, longest = 0
        cdef int64_t levels = s.n_primary + 1, options_of
        s.lo = <int32_t*>malloc(max(1, s.n_primary) * sizeof(int32_t))
        s.hi = <int32_t*>malloc(max(1, s.n_primary) * sizeof(int32_t))
        s.slot = <int32_t*>malloc(max(1, s.n_primary) * sizeof(int32_t))
        for k in range(s.n_options):
            longest = max(longest, s.forbid_start[k + 1] - s.forbid_start[k])
        s.scratch = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
        if not (s.lo and s.hi and s.slot and s.scratch):
            raise MemoryError()
        s.n_multi = 0
        for t in range(s.n_primary):
            s.lo[t] = los[t]
            s.hi[t] = his[t]
            s.slot[t] = -1
            if s.multi and (los[t] != 1 or his[t] != 1):
                s.slot[t] = s.n_multi
                s.n_multi += 1
        if not s.multi:
            return
        # a level adds one cover of an item, or closes an item with multiplicities
        levels = 1 + s.n_multi
        for t in range(s.n_primary):
            options_of = 0
            for k in range(s.ow):
                options_of += excover_popcount64(s.cols[<int64_t>t * s.ow + k])
            levels += min(<int64_t>s.hi[t], options_of)
        self.levels = levels
        free(s.live)
        free(s.uncovered)
        free(s.n_live)
        free(s.n_uncovered)
        free(s.item)
        free(s.choice)
        s.live = <uint64_t*>calloc(levels * s.ow, sizeof(uint64_t))
        s.uncovered = <uint64_t*>calloc(levels * s.uw, sizeof(uint64_t))
        s.n_live = <int64_t*>malloc(levels * sizeof(int64_t))
        s.n_uncovered = <int32_t*>malloc(levels * sizeof(int32_t))
        s.item = <int32_t*>malloc(levels * sizeof(int32_t))
        s.choice = <int32_t*>malloc(levels * sizeof(int32_t))
        s.taken = <int32_t*>calloc(levels * max(1, s.n_multi), sizeof(int32_t))
        s.remaining = <int64_t*>malloc(levels * sizeof(int64_t))
        s.need = <int32_t*>malloc(levels * sizeof(int32_t))
        s.closing = <char*>calloc(levels, sizeof(char))
        if not (s.live and s.uncovered and s.n_live and s.n_uncovered and s.item
                and s.choice and s.taken and s.remaining and s.need and s.closing):
            raise MemoryError()

    cdef void _pick_kernels(self, simd) except *:
        """The kernels for ``simd`` (capped at what the CPU runs). By default AVX-512 only
        for bitsets of 8 words or more: on shorter ones its masked tails cost more than
        they save, and AVX2 is faster."""
        if simd is None:
            level = SIMD_LEVEL
            if level == 2 and self.s.ow < AVX512_WORDS:
                level = 1
        elif simd in SIMD_LEVELS:
            level = min(SIMD_LEVEL, SIMD_LEVELS.index(simd))
        else:
            raise ValueError(f"unknown instruction set {simd!r}")
        self.simd_level = level
        self.s.filter = excover_filter_kernel(level)
        self.s.mrv = excover_mrv_kernel(level)
        self.s.count_items = excover_counts_kernel(level)
        self.s.forced = excover_forced_kernel(level)

    def __dealloc__(self):
        cdef BitState* s = &self.s
        if s.compacted:
            full_structures(s)
        free(s.cols)
        free(s.forbid_start)
        free(s.forbid_bit)
        free(s.primary_start)
        free(s.primary_item)
        free(s.original)
        free(s.pmask)
        free(s.live)
        free(s.uncovered)
        free(s.n_live)
        free(s.n_uncovered)
        free(s.item)
        free(s.choice)
        free(s.counts)
        free(s.forced_start)
        free(s.forced_option)
        free(s.spare)
        free(s.single)
        free(s.weight)
        free(s.group_bit)
        free(s.group_size)
        free(s.groups)
        free(s.all_groups)
        free(s.sums)
        free(s.judged)
        free(s.verdicts)
        free(s.full_group_words)
        free(s.sub_group_words)
        free(s.full_option_group)
        free(s.sub_option_group)
        free(s.lo)
        free(s.hi)
        free(s.slot)
        free(s.taken)
        free(s.remaining)
        free(s.need)
        free(s.closing)
        free(s.scratch)
        free(s.root_solutions)
        free(s.sub_cols)
        free(s.sub_forbid_start)
        free(s.sub_forbid_bit)
        free(s.sub_primary_start)
        free(s.sub_primary_item)
        free(s.sub_original)
        free(s.sub_number)
        free(s.sub_pmask)
        free(s.conflicts)
        free(s.conflict_round)

    cdef void _rewind(self):
        """Level 0: every kept option in play, every primary item uncovered."""
        cdef BitState* s = &self.s
        cdef int32_t k, t
        if s.compacted:
            full_structures(s)
        memset(s.live, 0, s.ow * sizeof(uint64_t))
        for k in range(s.n_options):
            s.live[k >> 6] |= (<uint64_t>1) << (k & 63)
        memset(s.uncovered, 0, s.uw * sizeof(uint64_t))
        for t in range(s.n_primary):
            s.uncovered[t >> 6] |= (<uint64_t>1) << (t & 63)
        s.n_live[0] = s.n_options
        s.n_uncovered[0] = s.n_primary
        for t in range(s.n_primary):
            s.weight[t] = 1
        if s.multi:
            memset(s.taken, 0, max(1, s.n_multi) * sizeof(int32_t))
            s.n_uncovered[0] = 0
            for t in range(s.n_primary):
                if s.lo[t] > 0:
                    s.n_uncovered[0] += 1
        s.unit = 0
        s.rng_top = self.seed
        if s.root_solutions != NULL:
            memset(s.root_solutions, 0, max(1, s.n_options) * sizeof(uint64_t))

    cdef bint _trivial(self):
        # No primary item, or none to cover and no option: no level to enter.
        return self.s.n_primary == 0 or (
            self.s.run.level == 0 and self.s.run.phase == FORWARD
            and self.s.n_uncovered[0] == 0 and self.s.n_live[0] == 0)

    cdef bint _owns_trivial(self):
        # The one solution of a trivial search is share 0's.
        return self.s.share_index == 0

    cdef int _search(self, bint count_only, int64_t max_solutions,
                     int64_t max_nodes) noexcept nogil:
        if self.s.multi:
            return search_multi(&self.s, count_only, max_solutions, max_nodes, CHUNK)
        return search(&self.s, count_only, max_solutions, max_nodes, CHUNK)

    def solution(self):
        """The option indices of the solution the last ``run()`` stopped at, by level."""
        self._check_solution()
        cdef BitState* s = &self.s
        cdef int32_t lev, k
        found = []
        for lev in range(self.solution_size):
            if s.multi and s.closing[lev]:
                continue
            if s.item[lev] == FORCED_LEVEL:
                for k in range(s.forced_start[lev], s.forced_start[lev + 1]):
                    found.append(s.original[s.forced_option[k]])
            elif lev == 0:  # the root's numbering is the full one
                found.append(s.full_original[s.choice[lev]])
            else:
                found.append(s.original[s.choice[lev]])
        return found

    def root_solutions(self):
        """The solutions found so far under each option of the root's item (by the
        caller's option numbers): a dict of ``option: solutions``, every option of the
        item in play at the root included. Kept for searches given a ``first_item``, on
        Algorithms X and C (None otherwise): one run then counts the solutions of several
        subproblems side by side, each weighted as its caller needs (a symmetry-broken
        count weighs each representative by the size of its orbit)."""
        cdef BitState* s = &self.s
        cdef int32_t k
        cdef const uint64_t* col
        if s.root_solutions == NULL:
            return None
        col = s.full_cols + <int64_t>s.run.first_item * s.full_ow
        return {s.full_original[k]: s.root_solutions[k] for k in range(s.n_options)
                if (col[k >> 6] >> (k & 63)) & 1}

    def progress(self):
        """The share of the search tree walked so far, by Knuth's estimate (each branch
        of a node an equal share of it; see ``tree_share``); None on Algorithm M."""
        if self.s.multi:
            return None
        return tree_share(&self.s)

    @property
    def algorithm(self):
        return "M" if self.s.multi else "C" if self.colored else "X"

    @property
    def simd(self):
        """The instruction set this engine's kernels run with."""
        return SIMD_LEVELS[self.simd_level]

    @property
    def memory_bytes(self):
        """Bytes of the columns, the per-option lists and the level stack."""
        cdef BitState* s = &self.s
        return ((max(1, self.n_bits) * s.stride + s.n_options * s.uw) * 8
                * (2 if s.compact else 1)
                + (s.forbid_start[s.n_options] + s.primary_start[s.n_options]) * 4
                + (3 * s.n_options + 2) * 4
                + self.levels * (8 * (s.stride + s.uw) + 8 + 12)
                + (s.n_primary + 1) * 20
                + (self.levels * (4 * s.n_multi + 13) if s.multi else 0)
                + (s.n_options * (s.stride + 1) * 8 if s.compact else 0))
