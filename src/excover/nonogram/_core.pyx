# cython: language_level=3
"""The compiled core of the nonogram solver: line solving, propagation, probing, search.

The grid is one byte per cell, row by row, holding the set of values the cell may still
take: bit 0 (``WHITE = 1``) "may be white", bit 1 (``BLACK = 2``) "may be black", so an
unknown cell is ``UNKNOWN = 3`` and a decided cell holds a single bit. (A coloured
nonogram would give each colour its own bit; only the line solver would change.) Cells
only ever lose values while the search goes down, so the *trail*, the list of cells
decided so far in order, is all that is needed to go back up: undoing to a mark resets
the cells decided after it to ``UNKNOWN``.

Lines are numbered rows first (``0..height-1``), then columns. Their clues lie end to end
in ``clues``; line ``l`` has the blocks ``clues[clue_start[l]:clue_start[l+1]]``.

**Line solving.** For a line of ``n`` cells and ``k`` blocks, two tables of booleans by
dynamic programming: ``F[j][i]``, "the first ``j`` blocks fit in cells ``0..i-1`` (every
other cell there white)", and ``G[j][i]``, "blocks ``j..k-1`` fit in cells ``i..n-1``".
Each entry takes O(1) from its neighbours (a cell is white, or a block ends / starts
there, with the prefix counts telling at once whether a stretch may be all black or all
white), so both tables cost O(n k), however many placements the line has. Then a cell
may be white when some ``j`` has ``F[j][i]`` and ``G[j][i+1]``, and block ``j`` may start
at ``s`` when the blocks before it fit to its left, the blocks after it fit to its right,
and its own stretch and the cells beside it allow it; all these starts are added to a
difference array, whose prefix sums say which cells some block may cover. The line has
no placement at all (a contradiction) when ``F[k][n]`` is false. The search holds the
same tables one bit per position: a line of at most 63 cells (every line of most
puzzles) in one 64-bit word a row (:func:`solve_bits`), where each row costs a few word
operations instead of a pass over the line (the median time to classify a random
30x30 puzzle drops from 5.2 to 1.7 ms); a longer line in ``n // 64 + 1`` words a row
(:func:`solve_words`; the 70x80 ``lancaster.txt`` classified in 3.7 ms instead of 8.1,
Faase in 8.2 s instead of 15.2). The byte tables stay as the reference the two are
tested against.

**Propagation** keeps a queue of dirty lines. Solving a line narrows some cells; each
narrowed cell puts its crossing line in the queue (the line itself is at its fixpoint:
narrowing a line to the union of its placements keeps every placement). The queue
empties at the fixpoint, or a line without placement stops everything. Probing and
search solve the same line in the same state again and again (a row untouched by a
branch looks the same at the child node), so each line of at most 127 cells keeps a
small cache, hashed on its two masks (the cells that may be white, those that may be
black), of the states it has solved and their results (a slot holds the last state
hashed to it); on random 30x30 puzzles two line solves in three are found there, five
in six on the hardest.

**Probing** tries each undecided cell both ways, propagating each: when one way fails,
the cell takes the other; when both succeed, every cell decided the same way by both
becomes decided. At the root it goes round the cells until a whole round changes
nothing, first only the cells on the border or next to a decided cell (a probe there
meets a contradiction far more often; on webpbn #803 that cuts the probes from 2,007
to 495), then every cell, so the fixpoint is the same; below the root, to the fixpoint
too (``fixpoint_below_root``; one round only took twice as long on tournament puzzles,
whose search is deep). The number of cells each way decided is kept as the cell's
score.

**Skipping probes that still hold** (``skip_unchanged``; FastNonogramSolver's method).
A probe's outcome depends only on the lines its two propagations solved, so each probe
that decides nothing keeps a record: the clock when it ran, and those lines as a bit
set. A line's stamp is the clock at its last *published* change: the cells a node
decides for good (its branch, propagation and what probing forces), not the trial
values of a probe, which are undone before anything else looks at the grid. A cell
whose recorded lines all have older stamps is skipped: probing it again would find the
same. Backtracking puts the grid back as it was at the branching node, so it puts the
stamps and records back too: every stamp and record overwritten below the root is
logged with its old value, and the log is unwound with the trail. A node's second
branch then probes only what its own decision changed (tcga2016 #703: 11,169 probes
over 62 nodes, where re-probing every cell whose row or column changed took about
twice as many per node).

**Search** runs at each node propagation and probing, and then branches on the
undecided cell with the best score: the smaller of the two counts of cells its probes
decided, plus 1.85 times the logarithm of one plus their difference (``score_rule`` 1,
the rule of LalaFrogKK, the tournaments' champion 2011-2015: a cell that settles much
both ways splits the problem well; on 300 tournament puzzles it took a quarter less
time than rule 0, the product of the two counts plus one each), trying first the value
that decided fewer cells (it constrains the rest less, so it is more often part of a
solution: measured on random 30x30 puzzles, the other order searches about a sixth
more). A probe that completes the grid stops probing and becomes the next branch
(its child is that solution). Its choices sit on an explicit stack (cell, trail
mark, probe-log mark, value left to try), at most one entry per cell, so it never
recurses, and it can stop after each solution and resume later.

**Beliefs** (:meth:`Core.beliefs`, for the phases of the CDCL route): each line weighs
its placements by what the crossing lines say of its cells and passes back its view
of each cell (belief propagation, FastNonogramSolver's phase hints), with the same
forward and backward sums as the line solver, in floating point.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, qsort, realloc
from libc.math cimport fabs, log
from libc.string cimport memcmp, memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from excover._portable cimport ctz64

__all__ = [
    "EXHAUSTED", "MAX_CELLS", "NODE_LIMIT", "SOLUTION", "TIME_LIMIT", "ColourCore", "Core",
    "colour_line_solve", "line_solve"
]

cdef enum:
    WHITE = 1
    BLACK = 2
    UNKNOWN = 3
    # Line solves between two looks at Ctrl-C.
    CHECK_EVERY = 4096
    # Lines of at most this many cells have a cache of their solved states, keyed by the
    # line's two masks (cells that may be white, cells that may be black; one or two
    # 64-bit words each) and of CACHE_SLOTS entries, hashed; an entry is the key and the
    # result, at most ENTRY_WORDS words.
    CACHED_CELLS = 127
    ENTRY_WORDS = 8
    CACHE_SLOTS = 1024
    # Lines of at most this many cells are solved with one 64-bit word per table row.
    BIT_CELLS = 63

# The most cells a grid may have (so that every cell index fits a 32-bit int).
MAX_CELLS = 1 << 28

# What ``Core.next_solution`` returns.
SOLUTION = 1
EXHAUSTED = 0
NODE_LIMIT = -1
TIME_LIMIT = -2

# How the search stands between two calls of ``Core.next_solution``.
cdef enum:
    FRESH = 0       # nothing done yet
    RUNNING = 1     # at a node whose propagation is still to run
    FOUND = 2       # the grid holds a solution; the next call backtracks from it
    DONE = 3        # the whole tree is explored
    BROKEN = 4      # an exception (Ctrl-C) cut a call short; the state is lost
    GUESSING = 5    # decimation paused (deadline or dead ends); ``guess(resume=True)`` goes on


# Multipliers of the cache's hash (Knuth's MMIX LCG and another odd 64-bit constant); the
# top 10 bits of the mixed key pick one of the CACHE_SLOTS slots.
cdef uint64_t MIX_LOW = 6364136223846793005
cdef uint64_t MIX_HIGH = 1442695040888963407
# The golden ratio's 64-bit constant (0x9E3779B97F4A7C15), seeding the search's generator;
# and the multiplier of xorshift64*.
cdef uint64_t GOLDEN = (<uint64_t> 0x9E3779B9 << 32) | <uint64_t> 0x7F4A7C15
cdef uint64_t STAR = 2685821657736338717


cdef struct LineScratch:
    # Work space of the line solver, sized for the longest line and largest clue.
    uint8_t *forward      # F, (k + 1) rows of n + 1 entries
    uint8_t *backward     # G, same shape
    int32_t *no_black     # no_black[i]: cells < i that cannot be black
    int32_t *no_white     # no_white[i]: cells < i that cannot be white
    int32_t *diff         # difference array of the black-possible cells
    int32_t *low          # low[j]: the first cell block j may start at (k + 1 entries)
    int32_t *high         # high[j]: the last cell block j may start at


cdef struct Undo:
    # One entry of the probe log (see ``Core``): ``index`` >= 0 is a cell whose probe
    # record was overwritten (its old stamp, score and first value here, its old touched
    # lines in ``Core.undo_touched``); ``index`` < 0 is line ``~index``, whose old stamp
    # is ``stamp``.
    int32_t index
    uint8_t first
    int64_t stamp
    double score


cdef struct Ranked:
    double key
    int cell


cdef int by_key_descending(const void *a, const void *b) noexcept nogil:
    """qsort's order for :meth:`Core.guess`: the largest key first."""
    cdef double x = (<const Ranked *> a).key, y = (<const Ranked *> b).key
    return -1 if x > y else (1 if x < y else 0)


cdef double monotonic() noexcept:
    """The clock of Python's ``time.monotonic()`` (CLOCK_MONOTONIC), without a Python
    object."""
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + now.tv_nsec * 1e-9


cdef void free_scratch(LineScratch *w) noexcept:
    free(w.forward)
    free(w.backward)
    free(w.no_black)
    free(w.no_white)
    free(w.diff)
    free(w.low)
    free(w.high)


cdef inline bint all_black(const int32_t *no_black, int a, int b) noexcept nogil:
    """Cells ``a..b-1`` may all be black."""
    return no_black[b] == no_black[a]


cdef int64_t luby(int64_t i) noexcept:
    """Term ``i`` (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    cdef int64_t k = 1
    while True:
        while (1 << k) - 1 < i:
            k += 1
        if (1 << k) - 1 == i:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1


cdef bint solve_line_table(
    int n, const int32_t *clue, int k, const uint8_t *cells, uint8_t *out, LineScratch *w
) noexcept nogil:
    """Narrow ``cells`` (``n`` values) to the union of the placements of ``clue`` into
    ``out``; false when there is no placement (``out`` is then meaningless).

    Block ``j`` can only start from ``low[j]`` on (the blocks before it need that many
    cells, ``low[j]`` after the gap) and must start by ``high[j]`` (the blocks from it on
    need ``n - high[j]`` cells); so ``F[j][i]`` matters only for ``i`` in
    ``low[j]..high[j]`` and ``G[j][i]`` likewise, and only those entries are computed
    (the rest stay false; ``F[0]`` and ``G[k]`` are computed whole). A line with little
    slack costs little."""
    cdef int i, j, s, length, stride = n + 1, depth, last
    cdef uint8_t *F = w.forward
    cdef uint8_t *G = w.backward
    cdef int32_t *nb = w.no_black
    cdef int32_t *nw = w.no_white
    cdef int32_t *diff = w.diff
    cdef int32_t *low = w.low
    cdef int32_t *high = w.high
    cdef bint ok
    low[0] = 0
    for j in range(1, k + 1):
        low[j] = low[j - 1] + clue[j - 1] + (1 if j > 1 else 0)
    if low[k] > n:
        return False
    high[k] = n
    for j in range(k - 1, -1, -1):
        high[j] = high[j + 1] - clue[j] - (1 if j < k - 1 else 0)
    nb[0] = 0
    nw[0] = 0
    for i in range(n):
        nb[i + 1] = nb[i] + (0 if cells[i] & BLACK else 1)
        nw[i + 1] = nw[i] + (0 if cells[i] & WHITE else 1)
    memset(F, 0, (k + 1) * stride)
    memset(G, 0, (k + 1) * stride)
    # Forward table.
    for i in range(n + 1):
        F[i] = nw[i] == 0
    for j in range(1, k + 1):
        length = clue[j - 1]
        for i in range(low[j], high[j] + 1):
            ok = i >= 1 and (cells[i - 1] & WHITE) and F[j * stride + i - 1]
            if not ok and all_black(nb, i - length, i):
                if j == 1:
                    ok = F[i - length]
                else:
                    ok = (cells[i - length - 1] & WHITE) and F[(j - 1) * stride + i - length - 1]
            F[j * stride + i] = ok
    if not F[k * stride + n]:
        return False
    # Backward table.
    for i in range(n + 1):
        G[k * stride + i] = nw[n] == nw[i]
    for j in range(k - 1, -1, -1):
        length = clue[j]
        for i in range(high[j], low[j] - 1, -1):
            ok = i < n and (cells[i] & WHITE) and G[j * stride + i + 1]
            if not ok and all_black(nb, i, i + length):
                if j == k - 1:
                    ok = G[k * stride + i + length]
                else:
                    ok = (cells[i + length] & WHITE) and G[(j + 1) * stride + i + length + 1]
            G[j * stride + i] = ok
    # Which values each cell keeps: black where some block may start and cover it ...
    memset(diff, 0, (n + 1) * sizeof(int32_t))
    for j in range(k):
        length = clue[j]
        for s in range(low[j] + (1 if j > 0 else 0), high[j] + 1):
            if not all_black(nb, s, s + length):
                continue
            if j == 0:
                ok = F[s]
            else:
                ok = (cells[s - 1] & WHITE) and F[j * stride + s - 1]
            if not ok:
                continue
            if j == k - 1:
                ok = G[k * stride + s + length]
            else:
                ok = (cells[s + length] & WHITE) and G[(j + 1) * stride + s + length + 1]
            if ok:
                diff[s] += 1
                diff[s + length] -= 1
    depth = 0
    for i in range(n):
        depth += diff[i]
        out[i] = BLACK if depth > 0 else 0
    # ... and white where the blocks before it fit to its left and the others to its right.
    for j in range(k + 1):
        last = high[j] if high[j] < n else n - 1
        for i in range(low[j], last + 1):
            if F[j * stride + i] and G[j * stride + i + 1] and (cells[i] & WHITE):
                out[i] |= WHITE
    return True


# ----- the bit-parallel line solver (lines of at most BIT_CELLS cells) -----


cdef inline uint64_t runs_of(uint64_t may, int length) noexcept nogil:
    """The bits ``s`` such that bits ``s .. s+length-1`` of ``may`` are all set (the
    starts of a stretch of ``length`` cells that may all be black): ``may`` ANDed with
    itself shifted by 1, 2, 4, ... and a last shift to make up ``length``."""
    cdef uint64_t r = may
    cdef int w = 1
    while 2 * w <= length:
        r &= r >> w
        w *= 2
    if length > w:
        r &= r >> (length - w)
    return r


cdef inline uint64_t cover_of(uint64_t starts, int length) noexcept nogil:
    """The bits covered by blocks of ``length`` cells starting at the bits of ``starts``."""
    cdef uint64_t c = starts
    cdef int w = 1
    while 2 * w <= length:
        c |= c << w
        w *= 2
    if length > w:
        c |= c << (length - w)
    return c


cdef inline uint64_t across_white(uint64_t reached, uint64_t white) noexcept nogil:
    """The positions reached from ``reached`` by stepping right over cells that may be
    white (position ``p`` is the boundary before cell ``p``; stepping from ``p`` to ``p+1``
    crosses cell ``p``). One addition does it: adding a start's bit to its run of
    ``white`` carries through the run, clearing it from the start up; the cleared bits,
    with the starts themselves (a second start in a run is added after the carry passed),
    are the cells crossed, and each crossed cell ``c`` reaches position ``c+1``."""
    cdef uint64_t starts = reached & white
    cdef uint64_t crossed = (white & ~(white + starts)) | starts
    return reached | (crossed << 1)


cdef inline uint64_t reversed_bits(uint64_t x) noexcept nogil:
    """``x`` with its 64 bits in the opposite order."""
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1)
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2)
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4)
    x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8)
    x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16)
    return (x >> 32) | (x << 32)


cdef inline void prefixes(
    int n, const int32_t *clue, int k, int step, uint64_t white, uint64_t black, uint64_t *F
) noexcept nogil:
    """``F[j]``, as a set of positions ``0..n``: where the first ``j`` blocks of the clue
    (read ``clue[0], clue[step], ...``; ``step`` -1 reads it backwards) can end, every
    other cell before the position white."""
    cdef int j, length
    cdef uint64_t start
    F[0] = across_white(1, white)
    for j in range(1, k + 1):
        length = clue[(j - 1) * step]
        start = F[0] if j == 1 else (F[j - 1] & white) << 1
        F[j] = across_white((start & runs_of(black, length)) << length, white)


cdef bint solve_bits(
    int n, const int32_t *clue, int k, uint64_t white, uint64_t black,
    uint64_t *white_out, uint64_t *black_out,
) noexcept nogil:
    """``solve_line_table`` for ``n <= BIT_CELLS``, with each table row one 64-bit word: the
    line is given as the cells that may be white and those that may be black (bit ``i``
    for cell ``i``), and so is the result.

    ``F[j]`` (the first ``j`` blocks fit in the first ``p`` cells, for each position
    ``p``) is computed from ``F[j-1]`` in a few word operations: the starts allowed by the
    blocks before, those where the block's stretch may be all black (:func:`runs_of`),
    shifted to the block's end and extended right over cells that may be white
    (:func:`across_white`). The backward table is the forward one of the reversed line
    and clue, its positions reversed back. A cell may be white where some ``F[j]`` and
    the backward table of ``j`` meet on either side of it, black where a block start
    allowed on both sides covers it (:func:`cover_of`)."""
    cdef uint64_t F[BIT_CELLS + 2]
    cdef uint64_t R[BIT_CELLS + 2]
    cdef uint64_t white_may = 0, black_may = 0, start, after
    cdef int j, need = k - 1 if k else 0, length
    for j in range(k):
        need += clue[j]
    if need > n:
        return False
    prefixes(n, clue, k, 1, white, black, F)
    if not (F[k] >> n) & 1:
        return False
    # R[j]: positions q such that blocks j..k-1 fit in cells q..n-1.
    prefixes(
        n, clue + k - 1, k, -1, reversed_bits(white) >> (64 - n),
        reversed_bits(black) >> (64 - n), R,
    )
    for j in range(k + 1):
        R[j] = reversed_bits(R[j]) >> (63 - n)
    for j in range(k // 2 + 1):
        start = R[j]
        R[j] = R[k - j]
        R[k - j] = start
    for j in range(k + 1):
        white_may |= F[j] & (R[j] >> 1)
    for j in range(k):
        length = clue[j]
        start = F[0] if j == 0 else (F[j] & white) << 1
        after = R[k] if j == k - 1 else white & (R[j + 1] >> 1)
        black_may |= cover_of(start & runs_of(black, length) & (after >> length), length)
    white_out[0] = white_may & white
    black_out[0] = black_may
    return True


cdef bint solve_line_bits(
    int n, const int32_t *clue, int k, const uint8_t *cells, uint8_t *out
) noexcept nogil:
    """:func:`solve_bits` on a line of bytes."""
    cdef uint64_t white = 0, black = 0, white_out, black_out
    cdef int i
    for i in range(n):
        white |= <uint64_t> (cells[i] & WHITE) << i
        black |= <uint64_t> ((cells[i] & BLACK) >> 1) << i
    if not solve_bits(n, clue, k, white, black, &white_out, &black_out):
        return False
    for i in range(n):
        out[i] = ((white_out >> i) & 1) | (((black_out >> i) & 1) << 1)
    return True


# ----- the multi-word bit-parallel line solver (lines of more than BIT_CELLS cells) -----
#
# The same word operations as above on rows of ``words`` 64-bit words, position ``p`` in
# bit ``p & 63`` of word ``p >> 6`` (``words = n // 64 + 1`` holds the positions
# ``0..n``): shifts move bits across words, and the addition of
# :func:`across_white_words` carries from each word into the next.


cdef struct WordScratch:
    # Work space of ``solve_words``, sized for the longest line and the largest clue.
    uint64_t *forward     # F: (k + 1) rows
    uint64_t *backward    # R: (k + 1) rows
    uint64_t *start       # one row each
    uint64_t *runs
    uint64_t *after
    uint64_t *white_rev   # the line's masks, reversed
    uint64_t *black_rev


cdef bint alloc_word_scratch(WordScratch *w, int largest, int longest) noexcept:
    """Allocate ``w`` for clues of up to ``largest`` blocks and lines of up to ``longest``
    cells, in one block that :func:`free_word_scratch` frees; false when out of memory."""
    cdef size_t words = longest // 64 + 1
    cdef size_t table = (<size_t> largest + 1) * words
    w.forward = <uint64_t *> calloc(2 * table + 5 * words, sizeof(uint64_t))
    if not w.forward:
        return False
    w.backward = w.forward + table
    w.start = w.backward + table
    w.runs = w.start + words
    w.after = w.runs + words
    w.white_rev = w.after + words
    w.black_rev = w.white_rev + words
    return True


cdef void free_word_scratch(WordScratch *w) noexcept:
    free(w.forward)
    w.forward = NULL


cdef inline void shift_down(
    uint64_t *dst, const uint64_t *src, int s, int words
) noexcept nogil:
    """``dst = src >> s``. ``dst`` may be ``src``: each word reads only words at or above
    its own, which are still unchanged."""
    cdef int q = s >> 6, r = s & 63, i
    cdef uint64_t low, high
    for i in range(words):
        low = src[i + q] if i + q < words else 0
        if r:
            high = src[i + q + 1] if i + q + 1 < words else 0
            low = (low >> r) | (high << (64 - r))
        dst[i] = low


cdef inline void shift_up(uint64_t *dst, const uint64_t *src, int s, int words) noexcept nogil:
    """``dst = src << s``, cut to ``words`` words. ``dst`` may be ``src``: the words are
    made from the top down, each from words at or below its own."""
    cdef int q = s >> 6, r = s & 63, i
    cdef uint64_t low, high
    for i in range(words - 1, -1, -1):
        high = src[i - q] if i >= q else 0
        if r:
            low = src[i - q - 1] if i >= q + 1 else 0
            high = (high << r) | (low >> (64 - r))
        dst[i] = high


cdef inline void runs_of_words(
    uint64_t *r, const uint64_t *may, uint64_t *shifted, int length, int words
) noexcept nogil:
    """:func:`runs_of` on rows, into ``r`` (``shifted`` is a row of scratch)."""
    cdef int w = 1, i
    memcpy(r, may, words * sizeof(uint64_t))
    while 2 * w <= length:
        shift_down(shifted, r, w, words)
        for i in range(words):
            r[i] &= shifted[i]
        w *= 2
    if length > w:
        shift_down(shifted, r, length - w, words)
        for i in range(words):
            r[i] &= shifted[i]


cdef inline void cover_of_words(uint64_t *c, uint64_t *shifted, int length, int words) noexcept nogil:
    """:func:`cover_of` on a row, in place (``shifted`` is a row of scratch)."""
    cdef int w = 1, i
    while 2 * w <= length:
        shift_up(shifted, c, w, words)
        for i in range(words):
            c[i] |= shifted[i]
        w *= 2
    if length > w:
        shift_up(shifted, c, length - w, words)
        for i in range(words):
            c[i] |= shifted[i]


cdef inline void across_white_words(
    uint64_t *out, const uint64_t *reached, const uint64_t *white, int words
) noexcept nogil:
    """:func:`across_white` on rows: the addition carries from word to word, and so does
    the shift of the crossed cells by one. ``out`` may be ``reached``."""
    cdef uint64_t starts, total, carry = 0, crossed, spill = 0
    cdef bint overflow
    cdef int i
    for i in range(words):
        starts = reached[i] & white[i]
        total = white[i] + starts
        overflow = total < starts  # this word's own sum carries out of it,
        total += carry
        carry = overflow or total < carry  # or adding the carry that came in does
        crossed = (white[i] & ~total) | starts
        out[i] = reached[i] | (crossed << 1) | spill
        spill = crossed >> 63


cdef inline void reverse_row(
    uint64_t *dst, const uint64_t *src, int shift, int words
) noexcept nogil:
    """``dst`` = the ``64 * words`` bits of ``src`` in the opposite order, shifted down by
    ``shift`` (``dst`` must not be ``src``)."""
    cdef int i
    for i in range(words):
        dst[words - 1 - i] = reversed_bits(src[i])
    shift_down(dst, dst, shift, words)


cdef inline void prefixes_words(
    int n, const int32_t *clue, int k, int step, const uint64_t *white,
    const uint64_t *black, uint64_t *F, WordScratch *w, int words,
) noexcept nogil:
    """:func:`prefixes` on rows: ``F`` holds ``k + 1`` rows of ``words`` words."""
    cdef int j, length, i
    cdef uint64_t *start = w.start
    memset(start, 0, words * sizeof(uint64_t))
    start[0] = 1
    across_white_words(F, start, white, words)
    for j in range(1, k + 1):
        length = clue[(j - 1) * step]
        if j == 1:
            memcpy(start, F, words * sizeof(uint64_t))
        else:
            for i in range(words):
                start[i] = F[(j - 1) * words + i] & white[i]
            shift_up(start, start, 1, words)
        runs_of_words(w.runs, black, w.after, length, words)
        for i in range(words):
            start[i] &= w.runs[i]
        shift_up(start, start, length, words)
        across_white_words(F + j * words, start, white, words)


cdef bint solve_words(
    int n, const int32_t *clue, int k, const uint64_t *white, const uint64_t *black,
    uint64_t *white_out, uint64_t *black_out, WordScratch *w,
) noexcept nogil:
    """:func:`solve_bits` for lines of any length, each table row ``n // 64 + 1`` words;
    the masks in and out are rows too (``w`` sized for the line and its clue)."""
    cdef int words = n // 64 + 1, j, i, length, need = k - 1 if k else 0
    cdef uint64_t *F = w.forward
    cdef uint64_t *R = w.backward
    cdef uint64_t *start = w.start
    cdef uint64_t *after = w.after
    for j in range(k):
        need += clue[j]
    if need > n:
        return False
    prefixes_words(n, clue, k, 1, white, black, F, w, words)
    if not (F[k * words + (n >> 6)] >> (n & 63)) & 1:
        return False
    # R[k - j]: positions q such that blocks j..k-1 fit in cells q..n-1.
    reverse_row(w.white_rev, white, 64 * words - n, words)
    reverse_row(w.black_rev, black, 64 * words - n, words)
    prefixes_words(n, clue + k - 1, k, -1, w.white_rev, w.black_rev, R, w, words)
    for j in range(k + 1):
        reverse_row(start, R + j * words, 64 * words - 1 - n, words)
        memcpy(R + j * words, start, words * sizeof(uint64_t))
    memset(white_out, 0, words * sizeof(uint64_t))
    memset(black_out, 0, words * sizeof(uint64_t))
    for j in range(k + 1):
        shift_down(after, R + (k - j) * words, 1, words)
        for i in range(words):
            white_out[i] |= F[j * words + i] & after[i]
    for i in range(words):
        white_out[i] &= white[i]
    for j in range(k):
        length = clue[j]
        for i in range(words):
            start[i] = F[i] if j == 0 else F[j * words + i] & white[i]
        if j:
            shift_up(start, start, 1, words)
        if j == k - 1:
            memcpy(after, R, words * sizeof(uint64_t))
        else:
            shift_down(after, R + (k - j - 1) * words, 1, words)
            for i in range(words):
                after[i] &= white[i]
        shift_down(after, after, length, words)
        runs_of_words(w.runs, black, w.white_rev, length, words)
        for i in range(words):
            start[i] &= w.runs[i] & after[i]
        cover_of_words(start, w.white_rev, length, words)
        for i in range(words):
            black_out[i] |= start[i]
    return True


cdef bint solve_line_words(
    int n, const int32_t *clue, int k, const uint8_t *cells, uint8_t *out
) except -1:
    """:func:`solve_words` on a line of bytes (its scratch allocated here)."""
    cdef int words = n // 64 + 1, i
    cdef WordScratch w
    cdef uint64_t *masks = <uint64_t *> calloc(4 * words, sizeof(uint64_t))
    cdef bint ok
    if not masks or not alloc_word_scratch(&w, k, n):
        free(masks)
        raise MemoryError()
    for i in range(n):
        masks[i >> 6] |= <uint64_t> (cells[i] & WHITE) << (i & 63)
        masks[words + (i >> 6)] |= <uint64_t> (cells[i] >> 1) << (i & 63)
    ok = solve_words(n, clue, k, masks, masks + words, masks + 2 * words, masks + 3 * words, &w)
    for i in range(n):
        out[i] = ((masks[2 * words + (i >> 6)] >> (i & 63)) & 1) | (
            ((masks[3 * words + (i >> 6)] >> (i & 63)) & 1) << 1)
    free(masks)
    free_word_scratch(&w)
    return ok


cdef class Core:
    """A black-and-white nonogram being solved: the grid, the trail, the search stack.

    ``clues`` holds the blocks of every line end to end, rows then columns, and
    ``clue_start`` (``height + width + 1`` entries) where each line's blocks begin. The
    Python model rejects a clue too long for its line; here it would only be a line
    without placement, so a puzzle without solution.
    """

    cdef int height, width, n_cells, n_lines, longest, largest
    cdef int32_t *clues
    cdef int32_t *clue_start
    cdef uint8_t *grid
    cdef int32_t *trail
    cdef int trail_len
    cdef int unknown
    cdef int32_t *queue
    cdef uint8_t *queued
    cdef int queue_head, queue_count
    # The line being solved by the multi-word solver: its two masks, then the result's,
    # ``longest // 64 + 1`` words each.
    cdef uint64_t *line_masks
    cdef WordScratch word_scratch
    # Scratch of :meth:`line_marginals`: how many cells before each position are white.
    cdef int32_t *white_before
    # Probing: what the first probe decided, and each cell's score.
    cdef uint8_t *seen_value
    cdef int64_t *seen_stamp
    cdef int64_t stamp
    cdef int32_t *agreed
    cdef double *score
    # How a probed cell is scored (0: product; 1: the smaller gain plus 1.85 log(1 + their
    # difference)), and whether probing below the root runs to its fixpoint.
    cdef public int score_rule
    cdef public bint fixpoint_below_root
    cdef uint8_t *first_value
    # Change tracking (see the class docstring): ``clock`` counts published changes, a
    # line's stamp is the clock at its last one, and a cell's probe record is the clock
    # when it was probed and the lines its two probes solved (``touch_words`` 64-bit
    # words a cell in ``probe_touched``; ``touched_now`` gathers them during a probe).
    # ``published``: the trail entries below it have stamped their lines.
    cdef int64_t clock
    cdef int64_t *line_stamp
    cdef int64_t *probe_stamp
    cdef int touch_words
    cdef uint64_t *probe_touched
    cdef uint64_t *touched_now
    cdef int published
    cdef public bint skip_unchanged
    # The probe log: the old values of every line stamp and probe record overwritten
    # below the root, so that backtracking restores them (``log_len`` entries of
    # ``log_cap``; ``undo_touched`` holds ``touch_words`` words an entry).
    cdef Undo *log
    cdef uint64_t *undo_touched
    cdef int64_t log_len, log_cap
    cdef int64_t *stack_log
    # While searching, a probe that completes the grid stops probing and becomes the
    # next branch (``solution_cell``, ``solution_value``) instead of being undone.
    cdef bint stop_at_solution
    cdef int solution_cell
    cdef uint8_t solution_value
    # Whether probing at the root first tries only the cells next to a decided cell or
    # the border, widening to every cell when a round of those changes nothing.
    cdef public bint near_first
    # Restarts: the random state of the randomized search.
    cdef uint64_t rng
    # Search stack: one entry per branching cell.
    cdef int32_t *stack_cell
    cdef int32_t *stack_mark
    cdef uint8_t *stack_other
    # Cells branched on down to the current node: 0 when everything so far was forced.
    cdef readonly int depth
    cdef int state
    cdef public int64_t nodes
    cdef public int64_t line_solves
    cdef public int64_t probes
    cdef public int64_t solutions
    cdef public int64_t cache_hits
    # Decimation (``guess``) between two calls: each cell's messages from its row and its
    # column, the dead ends met so far, and whether the next step is one cell alone.
    cdef double *guess_row_msg
    cdef double *guess_col_msg
    cdef int64_t guess_failures
    cdef bint guess_alone
    # The consistent state of the current decimation with the fewest unknown cells (its
    # grid, and that count; -1: none yet), for :meth:`deepest_guess`.
    cdef uint8_t *guess_deepest
    cdef int32_t *guess_deepest_trail
    cdef int guess_deepest_unknown
    # How many cells the state :meth:`deepest_guess` keeps must leave open at least.
    cdef public int deepest_floor
    # Per cached line, CACHE_SLOTS entries of ENTRY_WORDS words (the key, then the result;
    # a result of zeros records a contradiction); the rows have caches when they are
    # short enough, then the columns likewise. A line of at most BIT_CELLS cells has
    # entries of four words, in the first half of its region.
    cdef uint64_t *cache
    cdef int cached_rows, cached_cols

    def __cinit__(self, int height, int width, clues, clue_start):
        cdef int l, n, total
        if height < 1 or width < 1:
            raise ValueError("a nonogram needs at least one row and one column")
        if <int64_t> height * width > MAX_CELLS:
            raise ValueError(f"a nonogram has at most {MAX_CELLS} cells")
        if len(clue_start) != height + width + 1:
            raise ValueError("clue_start needs height + width + 1 entries")
        self.height = height
        self.width = width
        self.n_cells = height * width
        self.n_lines = height + width
        self.longest = max(height, width)
        total = len(clues)
        self.clues = <int32_t *> calloc(total + 1, sizeof(int32_t))
        self.clue_start = <int32_t *> calloc(self.n_lines + 1, sizeof(int32_t))
        self.grid = <uint8_t *> calloc(self.n_cells, 1)
        self.trail = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.queue = <int32_t *> calloc(self.n_lines, sizeof(int32_t))
        self.queued = <uint8_t *> calloc(self.n_lines, 1)
        self.line_masks = <uint64_t *> calloc(4 * (self.longest // 64 + 1), sizeof(uint64_t))
        self.white_before = <int32_t *> calloc(self.longest + 1, sizeof(int32_t))
        self.seen_value = <uint8_t *> calloc(self.n_cells, 1)
        self.seen_stamp = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        self.agreed = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.score = <double *> calloc(self.n_cells, sizeof(double))
        self.first_value = <uint8_t *> calloc(self.n_cells, 1)
        self.line_stamp = <int64_t *> calloc(self.n_lines, sizeof(int64_t))
        self.probe_stamp = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        self.touch_words = (self.n_lines + 63) // 64
        self.probe_touched = <uint64_t *> calloc(
            <size_t> self.n_cells * self.touch_words, sizeof(uint64_t))
        self.touched_now = <uint64_t *> calloc(self.touch_words, sizeof(uint64_t))
        self.log_cap = 1024
        self.log = <Undo *> calloc(self.log_cap, sizeof(Undo))
        self.undo_touched = <uint64_t *> calloc(self.log_cap * self.touch_words, sizeof(uint64_t))
        self.stack_log = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        self.skip_unchanged = True
        self.near_first = True
        self.score_rule = 1
        self.fixpoint_below_root = True
        self.rng = GOLDEN
        self.stack_cell = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.stack_mark = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.stack_other = <uint8_t *> calloc(self.n_cells, 1)
        self.cached_rows = height if width <= CACHED_CELLS else 0
        self.cached_cols = width if height <= CACHED_CELLS else 0
        self.cache = <uint64_t *> calloc(
            ENTRY_WORDS * CACHE_SLOTS * (self.cached_rows + self.cached_cols) + 1,
            sizeof(uint64_t),
        )
        if (not self.clues or not self.clue_start or not self.grid or not self.trail
                or not self.queue or not self.queued or not self.line_masks
                or not self.white_before or not self.seen_value or not self.seen_stamp or not self.agreed
                or not self.score or not self.first_value or not self.stack_cell
                or not self.stack_mark or not self.stack_other or not self.cache
                or not self.line_stamp or not self.probe_stamp or not self.probe_touched
                or not self.touched_now or not self.log or not self.undo_touched
                or not self.stack_log):
            raise MemoryError()
        for l in range(self.n_lines + 1):
            self.clue_start[l] = clue_start[l]
        if self.clue_start[0] != 0 or self.clue_start[self.n_lines] != total:
            raise ValueError("clue_start must run from 0 to len(clues)")
        self.largest = 0
        for l in range(self.n_lines):
            if self.clue_start[l + 1] < self.clue_start[l]:
                raise ValueError("clue_start must not decrease")
            self.largest = max(self.largest, self.clue_start[l + 1] - self.clue_start[l])
        for l in range(total):
            self.clues[l] = clues[l]
            if self.clues[l] < 1:
                raise ValueError("every block needs at least one cell")
        if self.longest > BIT_CELLS and not alloc_word_scratch(
                &self.word_scratch, self.largest, self.longest):
            raise MemoryError()
        self.restart()

    def __dealloc__(self):
        free(self.clues)
        free(self.clue_start)
        free(self.grid)
        free(self.trail)
        free(self.queue)
        free(self.queued)
        free(self.line_masks)
        free(self.white_before)
        free(self.seen_value)
        free(self.seen_stamp)
        free(self.agreed)
        free(self.score)
        free(self.first_value)
        free(self.line_stamp)
        free(self.probe_stamp)
        free(self.probe_touched)
        free(self.touched_now)
        free(self.log)
        free(self.undo_touched)
        free(self.stack_log)
        free(self.stack_cell)
        free(self.stack_mark)
        free(self.stack_other)
        free(self.cache)
        free(self.guess_row_msg)
        free(self.guess_col_msg)
        free(self.guess_deepest)
        free(self.guess_deepest_trail)
        free_word_scratch(&self.word_scratch)

    def restart(self):
        """Forget everything: every cell unknown, every line dirty, statistics zero."""
        cdef int l
        memset(self.grid, UNKNOWN, self.n_cells)
        self.trail_len = 0
        self.published = 0
        self.log_len = 0
        self.unknown = self.n_cells
        self.queue_head = 0
        self.queue_count = 0
        memset(self.queued, 0, self.n_lines)
        # Every line counts as changed after every probe stamp: each cell gets probed.
        self.clock = 1
        for l in range(self.n_lines):
            self.line_stamp[l] = 1
        memset(self.probe_stamp, 0, self.n_cells * sizeof(int64_t))
        memset(self.first_value, BLACK, self.n_cells)
        for l in range(self.n_lines):
            self.enqueue(l)
        self.depth = 0
        self.stop_at_solution = False
        self.state = FRESH
        self.nodes = 0
        self.line_solves = 0
        self.probes = 0
        self.solutions = 0
        self.cache_hits = 0

    # ----- the grid and the trail -----

    cdef inline void enqueue(self, int line) noexcept:
        if not self.queued[line]:
            self.queued[line] = 1
            self.queue[(self.queue_head + self.queue_count) % self.n_lines] = line
            self.queue_count += 1

    cdef void clear_queue(self) noexcept:
        while self.queue_count:
            self.queued[self.queue[self.queue_head]] = 0
            self.queue_head = (self.queue_head + 1) % self.n_lines
            self.queue_count -= 1

    cdef inline void decide(self, int cell, uint8_t value) noexcept:
        """Narrow ``cell`` to ``value`` (a subset of its values), on the trail, and mark
        its row and column dirty."""
        if self.grid[cell] == UNKNOWN:
            self.trail[self.trail_len] = cell
            self.trail_len += 1
            self.unknown -= 1
        self.grid[cell] = value
        self.enqueue(cell // self.width)
        self.enqueue(self.height + cell % self.width)

    cdef inline void undo(self, int mark) noexcept:
        """Make the cells decided after ``mark`` unknown again; the lines of those that
        were published get a new stamp (a probe made since saw them decided)."""
        cdef int cell
        if self.published > mark:
            self.clock += 1
        while self.trail_len > mark:
            self.trail_len -= 1
            cell = self.trail[self.trail_len]
            self.grid[cell] = UNKNOWN
            self.unknown += 1
            if self.trail_len < self.published:
                self.stamp_line(cell // self.width)
                self.stamp_line(self.height + cell % self.width)
        if self.published > mark:
            self.published = mark

    # ----- change tracking and the probe log -----

    cdef void publish(self) except *:
        """Stamp the lines of the trail entries not yet published with a new clock: the
        grid now holds them for good (until backtracking), so probes made before are
        stale where they solved one of those lines."""
        cdef int t, cell
        if self.published >= self.trail_len:
            return
        self.clock += 1
        for t in range(self.published, self.trail_len):
            cell = self.trail[t]
            self.stamp_line(cell // self.width)
            self.stamp_line(self.height + cell % self.width)
        self.published = self.trail_len

    cdef inline void stamp_line(self, int line) except *:
        """Give ``line`` the current clock, logging its old stamp below the root."""
        cdef Undo *entry
        if self.line_stamp[line] == self.clock:
            return
        if self.depth:
            entry = self.log_entry()
            entry.index = ~line
            entry.stamp = self.line_stamp[line]
        self.line_stamp[line] = self.clock

    cdef Undo *log_entry(self) except NULL:
        """A new entry at the end of the probe log (the log grows by doubling)."""
        cdef Undo *grown
        cdef uint64_t *grown_touched
        if self.log_len == self.log_cap:
            grown = <Undo *> realloc(self.log, 2 * self.log_cap * sizeof(Undo))
            if not grown:
                raise MemoryError()
            self.log = grown
            grown_touched = <uint64_t *> realloc(
                self.undo_touched, 2 * self.log_cap * self.touch_words * sizeof(uint64_t))
            if not grown_touched:
                raise MemoryError()
            self.undo_touched = grown_touched
            self.log_cap *= 2
        self.log_len += 1
        return self.log + self.log_len - 1

    cdef void record_probe(self, int cell, double score, uint8_t first) except *:
        """Keep ``cell``'s probe: valid as of the current clock, over the lines in
        ``touched_now`` (the old record is logged below the root)."""
        cdef Undo *entry
        cdef uint64_t *mine = self.probe_touched + <size_t> cell * self.touch_words
        if self.depth:
            entry = self.log_entry()
            entry.index = cell
            entry.stamp = self.probe_stamp[cell]
            entry.score = self.score[cell]
            entry.first = self.first_value[cell]
            memcpy(self.undo_touched + (self.log_len - 1) * self.touch_words, mine,
                   self.touch_words * sizeof(uint64_t))
        self.probe_stamp[cell] = self.clock
        self.score[cell] = score
        self.first_value[cell] = first
        memcpy(mine, self.touched_now, self.touch_words * sizeof(uint64_t))

    cdef void unwind_log(self, int64_t mark) noexcept:
        """Restore, newest first, every line stamp and probe record logged after
        ``mark``."""
        cdef Undo *entry
        cdef int cell
        while self.log_len > mark:
            self.log_len -= 1
            entry = self.log + self.log_len
            if entry.index < 0:
                self.line_stamp[~entry.index] = entry.stamp
                continue
            cell = entry.index
            self.probe_stamp[cell] = entry.stamp
            self.score[cell] = entry.score
            self.first_value[cell] = entry.first
            memcpy(self.probe_touched + <size_t> cell * self.touch_words,
                   self.undo_touched + self.log_len * self.touch_words,
                   self.touch_words * sizeof(uint64_t))

    cdef bint probe_valid(self, int cell) noexcept:
        """Whether ``cell``'s last probe still holds: no line it solved has changed
        since (probing it again would find the same)."""
        cdef int64_t when = self.probe_stamp[cell]
        cdef uint64_t *mine = self.probe_touched + <size_t> cell * self.touch_words
        cdef uint64_t bits
        cdef int w
        if when == 0:
            return False
        for w in range(self.touch_words):
            bits = mine[w]
            while bits:
                if self.line_stamp[64 * w + ctz64(bits)] > when:
                    return False
                bits &= bits - 1
        return True

    # ----- propagation -----

    cdef int propagate(self) except -1:
        """Solve dirty lines until none is left: 1 at the fixpoint, 0 on a contradiction
        (the queue is then emptied; the caller undoes the trail)."""
        cdef int line, i, n, first, step, word, words
        cdef uint8_t value
        cdef uint64_t white, black, white_out, black_out, changed
        cdef uint64_t *masks = self.line_masks
        while self.queue_count:
            line = self.queue[self.queue_head]
            self.queue_head = (self.queue_head + 1) % self.n_lines
            self.queue_count -= 1
            self.queued[line] = 0
            self.touched_now[line >> 6] |= (<uint64_t> 1) << (line & 63)
            self.line_solves += 1
            if self.line_solves % CHECK_EVERY == 0:
                PyErr_CheckSignals()
            if line < self.height:
                n, first, step = self.width, line * self.width, 1
            else:
                n, first, step = self.height, line - self.height, self.width
            if n <= BIT_CELLS:
                white = 0
                black = 0
                for i in range(n):
                    value = self.grid[first + i * step]
                    white |= <uint64_t> (value & WHITE) << i
                    black |= <uint64_t> (value >> 1) << i
                if not self.solve_bits_cached(line, n, white, black, &white_out, &black_out):
                    self.clear_queue()
                    return 0
                changed = (white ^ white_out) | (black ^ black_out)
                while changed:
                    i = ctz64(changed)
                    changed &= changed - 1
                    self.narrowed(
                        line, i, first + i * step,
                        ((white_out >> i) & 1) | (((black_out >> i) & 1) << 1),
                    )
                continue
            words = n // 64 + 1
            memset(masks, 0, 2 * words * sizeof(uint64_t))
            for i in range(n):
                value = self.grid[first + i * step]
                masks[i >> 6] |= <uint64_t> (value & WHITE) << (i & 63)
                masks[words + (i >> 6)] |= <uint64_t> (value >> 1) << (i & 63)
            if not self.solve_words_cached(line, n, words):
                self.clear_queue()
                return 0
            for word in range(words):
                white_out = masks[2 * words + word]
                black_out = masks[3 * words + word]
                changed = (masks[word] ^ white_out) | (masks[words + word] ^ black_out)
                while changed:
                    i = ctz64(changed)
                    changed &= changed - 1
                    self.narrowed(
                        line, 64 * word + i, first + (64 * word + i) * step,
                        ((white_out >> i) & 1) | (((black_out >> i) & 1) << 1),
                    )
        return 1

    cdef inline void narrowed(self, int line, int i, int cell, uint8_t value) noexcept:
        """Solving ``line`` decided its ``i``-th cell, ``cell``, to ``value``: put it on
        the trail and the crossing line in the queue."""
        self.trail[self.trail_len] = cell
        self.trail_len += 1
        self.unknown -= 1
        self.grid[cell] = value
        if line < self.height:
            self.enqueue(self.height + i)
        else:
            self.enqueue(i)

    cdef bint solve_bits_cached(
        self, int line, int n, uint64_t white, uint64_t black,
        uint64_t *white_out, uint64_t *black_out,
    ) noexcept:
        """:func:`solve_bits` on line ``line`` through its cache, whose entries here are
        four words: the two masks of the state, then those of the result (zeros for a
        contradiction; a line state is never zeros, as every cell keeps a value)."""
        cdef int cached = line if line < self.height else self.cached_rows + line - self.height
        cdef uint64_t mixed = white * MIX_LOW ^ black * MIX_HIGH
        cdef uint64_t *entry = self.cache + ENTRY_WORDS * cached * CACHE_SLOTS + 4 * (mixed >> 54)
        cdef bint ok
        if entry[0] == white and entry[1] == black:
            self.cache_hits += 1
            white_out[0] = entry[2]
            black_out[0] = entry[3]
            return entry[2] | entry[3] != 0
        ok = solve_bits(
            n, self.clues + self.clue_start[line],
            self.clue_start[line + 1] - self.clue_start[line],
            white, black, white_out, black_out,
        )
        entry[0] = white
        entry[1] = black
        entry[2] = white_out[0] if ok else 0
        entry[3] = black_out[0] if ok else 0
        return ok

    cdef bint solve_words_cached(self, int line, int n, int words) noexcept:
        """:func:`solve_words` on line ``line`` of more than ``BIT_CELLS`` cells, whose
        masks are in ``line_masks`` (the result goes after them), through the line's
        cache when it has one: then the masks are two words each, and an entry is the
        four words of the state and the four of the result (zeros for a contradiction)."""
        cdef uint64_t *masks = self.line_masks
        cdef uint64_t mixed
        cdef uint64_t *entry
        cdef int cached = line if line < self.height else self.cached_rows + line - self.height
        cdef int i
        cdef bint ok
        cdef const int32_t *clue = self.clues + self.clue_start[line]
        cdef int k = self.clue_start[line + 1] - self.clue_start[line]
        if n > CACHED_CELLS:
            return solve_words(
                n, clue, k, masks, masks + words, masks + 2 * words, masks + 3 * words,
                &self.word_scratch,
            )
        mixed = masks[0] * MIX_LOW ^ masks[2] * MIX_HIGH
        mixed = (mixed ^ (mixed >> 29) ^ masks[1]) * MIX_LOW ^ masks[3] * MIX_HIGH
        entry = self.cache + ENTRY_WORDS * (cached * CACHE_SLOTS + (mixed >> 54))
        if memcmp(entry, masks, 4 * sizeof(uint64_t)) == 0:
            self.cache_hits += 1
            memcpy(masks + 4, entry + 4, 4 * sizeof(uint64_t))
            return entry[4] | entry[5] | entry[6] | entry[7] != 0
        ok = solve_words(n, clue, k, masks, masks + 2, masks + 4, masks + 6, &self.word_scratch)
        memcpy(entry, masks, 4 * sizeof(uint64_t))
        if ok:
            memcpy(entry + 4, masks + 4, 4 * sizeof(uint64_t))
        else:
            memset(entry + 4, 0, 4 * sizeof(uint64_t))
        return ok

    cdef int try_value(self, int cell, uint8_t value) except -1:
        """Decide ``cell`` and propagate; 1, or 0 on a contradiction."""
        self.decide(cell, value)
        return self.propagate()

    # ----- probing -----

    cdef int probe(self) except -1:
        """Probe every unknown cell, round after round until nothing changes (below the
        root only one round, unless ``fixpoint_below_root``): 1, or 0 when the grid has no
        solution. Scores are left in ``score`` and the value to try first in
        ``first_value``. A cell whose last probe still holds (:meth:`probe_valid`) is
        skipped when ``skip_unchanged``. While searching (``stop_at_solution``), a probe
        that completes the grid stops it: 2, with the cell and its value in
        ``solution_cell`` and ``solution_value``."""
        cdef int cell, mark, since_change = 0, t, n_agreed, i, idx
        cdef int ok_black, ok_white
        cdef int64_t decided_black, decided_white
        cdef double score
        cdef bint one_round = self.depth and not self.fixpoint_below_root
        cdef int visited = 0, budget = self.n_cells if one_round else 1 << 30
        cdef bint near_only = self.near_first and not self.depth
        self.publish()
        cell = 0
        while self.unknown and visited < budget:
            if since_change >= self.n_cells:
                if not near_only:
                    break
                near_only = False  # a round of the near cells changed nothing: all cells
                since_change = 0
            cell = (cell + 1) % self.n_cells
            since_change += 1
            visited += 1
            if self.grid[cell] != UNKNOWN:
                continue
            if near_only and not self.near_decided(cell):
                continue
            if self.skip_unchanged and self.probe_valid(cell):
                continue
            self.probes += 1
            mark = self.trail_len
            self.stamp += 1
            memset(self.touched_now, 0, self.touch_words * sizeof(uint64_t))
            ok_black = self.try_value(cell, BLACK)
            decided_black = self.trail_len - mark
            if ok_black:
                if self.stop_at_solution and not self.unknown:
                    return self.found_by_probe(cell, BLACK, mark)
                for t in range(mark, self.trail_len):
                    idx = self.trail[t]
                    self.seen_stamp[idx] = self.stamp
                    self.seen_value[idx] = self.grid[idx]
            self.undo(mark)
            ok_white = self.try_value(cell, WHITE)
            decided_white = self.trail_len - mark
            if ok_white and self.stop_at_solution and not self.unknown:
                return self.found_by_probe(cell, WHITE, mark)
            if not ok_white:
                self.undo(mark)
                if not ok_black or not self.try_value(cell, BLACK):
                    return 0
                self.publish()
                since_change = 0
                continue
            if not ok_black:  # keep the white branch: it is forced
                self.publish()
                since_change = 0
                continue
            n_agreed = 0
            for t in range(mark + 1, self.trail_len):
                idx = self.trail[t]
                if self.seen_stamp[idx] == self.stamp and self.seen_value[idx] == self.grid[idx]:
                    self.agreed[n_agreed] = idx
                    n_agreed += 1
            self.undo(mark)
            if self.score_rule == 0:
                score = (decided_black + 1) * (decided_white + 1)
            else:
                score = (min(decided_black, decided_white)
                         + 1.85 * log(1.0 + fabs(<double> (decided_black - decided_white))))
            if n_agreed:
                # what both probes decided is a fixpoint of its own: propagation only
                # checks it, and probing the cell again would find nothing new
                for i in range(n_agreed):
                    idx = self.agreed[i]
                    if self.grid[idx] == UNKNOWN:
                        self.decide(idx, self.seen_value[idx])
                if not self.propagate():
                    return 0
                self.publish()
                since_change = 0
            self.record_probe(cell, score, WHITE if decided_black >= decided_white else BLACK)
        return 1

    cdef int found_by_probe(self, int cell, uint8_t value, int mark) noexcept:
        """A probe of ``cell`` to ``value`` completed the grid: undo it and leave it as the
        next branch (2)."""
        self.undo(mark)
        self.solution_cell = cell
        self.solution_value = value
        return 2

    cdef bint near_decided(self, int cell) noexcept:
        """Whether ``cell`` is on the border or next to a decided cell (probes there
        meet a contradiction far more often than in the middle of an unknown area)."""
        cdef int r = cell // self.width, c = cell % self.width
        if r == 0 or c == 0 or r == self.height - 1 or c == self.width - 1:
            return True
        return (self.grid[cell - 1] != UNKNOWN or self.grid[cell + 1] != UNKNOWN
                or self.grid[cell - self.width] != UNKNOWN
                or self.grid[cell + self.width] != UNKNOWN)

    cdef int choose(self) noexcept:
        """The unknown cell with the best probing score."""
        cdef int cell, best = -1
        cdef double best_score = -1
        for cell in range(self.n_cells):
            if self.grid[cell] == UNKNOWN and self.score[cell] > best_score:
                best, best_score = cell, self.score[cell]
        return best

    # ----- search -----

    cdef int backtrack(self) noexcept:
        """Go to the next untried branch: 1, or 0 when the tree is exhausted. The probe
        records and line stamps go back to what they were at the branching node."""
        cdef int cell
        while self.depth:
            self.undo(self.stack_mark[self.depth - 1])
            self.unwind_log(self.stack_log[self.depth - 1])
            self.clear_queue()
            if self.stack_other[self.depth - 1]:
                cell = self.stack_cell[self.depth - 1]
                self.decide(cell, self.stack_other[self.depth - 1])
                self.stack_other[self.depth - 1] = 0
                return 1
            self.depth -= 1
        return 0

    cdef void branch(self, int cell, uint8_t value) noexcept:
        """Go down: decide ``cell`` to ``value``, the other value left for later."""
        self.stack_cell[self.depth] = cell
        self.stack_mark[self.depth] = self.trail_len
        self.stack_log[self.depth] = self.log_len
        self.stack_other[self.depth] = UNKNOWN ^ value
        self.depth += 1
        self.decide(cell, value)

    cdef int settle_node(self, bint probing) except -1:
        """Propagation, then probing (when ``probing`` and cells are left): 0 on a
        contradiction, 1, or 2 when a probe completed the grid (see :meth:`probe`)."""
        if not self.propagate():
            return 0
        if probing and self.unknown:
            return self.probe()
        return 1

    def next_solution(self, int64_t max_nodes=-1, double deadline=-1.0, bint probing=True,
                      int64_t max_probes=-1):
        """Search on to the next solution: ``SOLUTION`` (read it with :meth:`grid_bytes`),
        ``EXHAUSTED``, or ``NODE_LIMIT`` / ``TIME_LIMIT`` when ``nodes`` reached
        ``max_nodes``, ``probes`` reached ``max_probes`` or ``time.monotonic()`` passed
        ``deadline`` (negative: no limit); after a limit the next call carries on.
        ``probing=False`` searches with propagation alone, branching on the first unknown
        cell (for comparisons)."""
        cdef int cell, settled
        if self.state == BROKEN:
            raise RuntimeError("this search was interrupted and cannot go on; restart it")
        if self.state == GUESSING:
            raise RuntimeError("a paused guess cannot be searched on; restart it")
        if self.state == DONE:
            return EXHAUSTED
        if self.state == FOUND and not self.backtrack():
            self.state = DONE
            return EXHAUSTED
        self.state = BROKEN  # until this call returns normally
        self.stop_at_solution = True
        while True:
            if ((max_nodes >= 0 and self.nodes >= max_nodes)
                    or (max_probes >= 0 and self.probes >= max_probes)):
                self.state = RUNNING
                return NODE_LIMIT
            if deadline >= 0 and self.nodes % 16 == 0 and monotonic() > deadline:
                self.state = RUNNING
                return TIME_LIMIT
            self.nodes += 1
            settled = self.settle_node(probing)
            if not settled:
                if not self.backtrack():
                    self.state = DONE
                    return EXHAUSTED
                continue
            if not self.unknown:
                self.solutions += 1
                self.state = FOUND
                return SOLUTION
            if settled == 2:
                self.branch(self.solution_cell, self.solution_value)
            elif probing:
                cell = self.choose()
                self.branch(cell, self.first_value[cell])
            else:
                cell = 0
                while self.grid[cell] != UNKNOWN:
                    cell += 1
                self.branch(cell, BLACK)

    # ----- search with restarts -----

    cdef uint64_t random(self) noexcept:
        """The next number of a xorshift64* generator."""
        self.rng ^= self.rng >> 12
        self.rng ^= self.rng << 25
        self.rng ^= self.rng >> 27
        return self.rng * STAR

    cdef int choose_randomly(self) noexcept:
        """An unknown cell with a good probing score: the best score after each is scaled
        by a random factor from 1/2 to 1, so that runs from the root differ."""
        cdef int cell, best = -1
        cdef double key, best_key = -1.0
        for cell in range(self.n_cells):
            if self.grid[cell] == UNKNOWN:
                key = self.score[cell] * (0.5 + (self.random() >> 11) * (0.5 / 9007199254740992.0))
                if key > best_key:
                    best, best_key = cell, key
        return best

    cdef bint is_forbidden(self, const uint8_t *bad, int n_bad) noexcept:
        """Whether the grid equals one of the ``n_bad`` grids laid end to end at ``bad``
        (the solutions :meth:`hunt` and :meth:`guess` are told to skip)."""
        cdef int k
        for k in range(n_bad):
            if memcmp(self.grid, bad + k * self.n_cells, self.n_cells) == 0:
                return True
        return False

    def hunt(self, int64_t max_nodes=-1, double deadline=-1.0, uint64_t seed=1,
             int64_t first_run=64, bytes forbidden=b""):
        """Search for a solution other than those in ``forbidden`` (grids of
        :meth:`grid_bytes` end to end), restarting from the root after ``first_run``
        times the next term of Luby's sequence (1, 1, 2, 1, 1, 2, 4, ...) of dead ends,
        with randomized branching (``seed``). ``SOLUTION`` (the grid holds it),
        ``EXHAUSTED`` when a run went through its whole tree (so there is no other
        solution: a proof), or ``NODE_LIMIT`` / ``TIME_LIMIT``. Starts afresh each call;
        ``next_solution`` cannot follow it without :meth:`restart`."""
        cdef int run = 1, settled, cell
        cdef int64_t failures = 0, allowed
        cdef int root_mark
        cdef const uint8_t *bad = forbidden
        cdef int n_bad = len(forbidden) // self.n_cells
        cdef bint ok
        self.restart()
        self.rng = seed * GOLDEN + 1
        self.state = BROKEN
        self.stop_at_solution = False  # the root goes to its fixpoint: restarts return there
        self.nodes = 1
        if not self.settle_node(True):
            self.state = DONE
            return EXHAUSTED
        self.stop_at_solution = True
        root_mark = self.trail_len
        allowed = first_run * luby(run)
        settled = 1
        while True:
            if max_nodes >= 0 and self.nodes >= max_nodes:
                self.state = DONE
                return NODE_LIMIT
            if deadline >= 0 and self.nodes % 16 == 0 and monotonic() > deadline:
                self.state = DONE
                return TIME_LIMIT
            if self.depth:  # the root is at its fixpoint already
                self.nodes += 1
                settled = self.settle_node(True)
            ok = settled != 0
            if ok and not self.unknown:
                if not self.is_forbidden(bad, n_bad):
                    self.solutions += 1
                    self.state = DONE
                    return SOLUTION
                ok = False
            if not ok:
                failures += 1
                if not self.backtrack():
                    self.state = DONE
                    return EXHAUSTED
                if failures >= allowed:  # restart from the root
                    self.undo(root_mark)
                    self.unwind_log(0)
                    self.clear_queue()
                    self.depth = 0
                    failures = 0
                    run += 1
                    allowed = first_run * luby(run)
                    settled = 1
                continue
            if settled == 2:
                self.branch(self.solution_cell, self.solution_value)
                continue
            cell = self.choose_randomly()
            self.branch(cell, self.first_value[cell])

    def guess(self, double deadline=-1.0, int iterations=20, double fraction=0.05,
              int64_t max_failures=-1, bytes forbidden=b"", bint resume=False,
              bytes given=b""):
        """Look for a solution other than those in ``forbidden`` by *decimation*: belief
        propagation over the lines (:meth:`beliefs`, its messages kept from one step to
        the next) says which unknown cells are likeliest black or white; the surest
        ``fraction`` of them are decided so, then propagation and probing run, and so on.
        A step that meets a contradiction is taken back whole and made again on its
        surest cell alone, both ways in turn, and dead ends below backtrack as in
        :meth:`next_solution`, so the search is complete. ``SOLUTION`` (the grid holds
        it), ``EXHAUSTED`` (there is no other solution: a proof), ``NODE_LIMIT`` at the
        first node after it has met ``max_failures`` dead ends in all (negative: no
        limit), ``TIME_LIMIT`` at ``deadline``. On large random puzzles the beliefs are
        right so often that a picture comes after a few dozen steps with no dead end,
        where a depth-first search or CDCL looks for long. It starts afresh, unless
        ``resume`` and the last call on this solver was a guess that stopped at its
        deadline or at its ``max_failures`` (to go on with a larger one): then it goes on
        from there, its messages, dead ends and search as they were (nothing is done
        twice when it runs in time slices). ``given`` (a grid as :meth:`grid_bytes`, of
        ``n_cells`` bytes or fewer) decides its cells 1 (white) and 2 (black) at the root
        of a fresh start, before the first probing: ``EXHAUSTED`` then says only that no
        solution has those values. ``next_solution`` cannot follow it without
        :meth:`restart`."""
        cdef int size = (self.largest + 1) * (self.longest + 2)
        cdef double *prior = <double *> calloc(self.longest + 1, sizeof(double))
        cdef double *black = <double *> calloc(self.longest + 1, sizeof(double))
        cdef double *starts = <double *> calloc(size, sizeof(double))
        cdef double *forward = <double *> calloc(size, sizeof(double))
        cdef double *backward = <double *> calloc(size, sizeof(double))
        cdef Ranked *ranked = <Ranked *> calloc(self.n_cells, sizeof(Ranked))
        cdef double *row_msg
        cdef double *col_msg
        cdef const uint8_t *bad = forbidden
        cdef int n_bad = len(forbidden) // self.n_cells
        cdef int cell, k, i, n_ranked, step_depth, first_cell = -1
        cdef uint8_t first_value = WHITE
        cdef double y, z
        cdef bint ok
        try:
            if not prior or not black or not starts or not forward or not backward or not ranked:
                raise MemoryError()
            if not self.guess_row_msg:
                self.guess_row_msg = <double *> calloc(self.n_cells, sizeof(double))
                self.guess_col_msg = <double *> calloc(self.n_cells, sizeof(double))
                self.guess_deepest = <uint8_t *> calloc(self.n_cells, 1)
                self.guess_deepest_trail = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
                if (not self.guess_row_msg or not self.guess_col_msg or not self.guess_deepest
                        or not self.guess_deepest_trail):
                    free(self.guess_row_msg)
                    free(self.guess_col_msg)
                    free(self.guess_deepest)
                    free(self.guess_deepest_trail)
                    self.guess_row_msg = self.guess_col_msg = NULL
                    self.guess_deepest = NULL
                    self.guess_deepest_trail = NULL
                    raise MemoryError()
            row_msg = self.guess_row_msg
            col_msg = self.guess_col_msg
            if not (resume and self.state == GUESSING):
                if len(given) > self.n_cells:
                    raise ValueError(f"given has {len(given)} cells, the grid {self.n_cells}")
                for cell in range(self.n_cells):
                    row_msg[cell] = 0.5
                    col_msg[cell] = 0.5
                self.guess_failures = 0
                self.guess_alone = False
                self.guess_deepest_unknown = -1
                self.restart()
                self.state = BROKEN
                self.nodes = 1
                for cell in range(len(given)):
                    if given[cell] == WHITE or given[cell] == BLACK:
                        self.decide(cell, given[cell])
                if not self.settle_node(True):
                    self.state = DONE
                    return EXHAUSTED
            self.state = BROKEN  # until this call returns normally
            while True:
                # every state here is settled without contradiction
                if self.unknown >= self.deepest_floor and (
                        self.guess_deepest_unknown < 0
                        or self.unknown < self.guess_deepest_unknown):
                    memcpy(self.guess_deepest, self.grid, self.n_cells)
                    memcpy(self.guess_deepest_trail, self.trail, self.trail_len * sizeof(int32_t))
                    self.guess_deepest_unknown = self.unknown
                if deadline >= 0 and monotonic() > deadline:
                    self.state = GUESSING
                    return TIME_LIMIT
                if max_failures >= 0 and self.guess_failures >= max_failures:
                    self.state = GUESSING  # resumed with a larger max_failures, it goes on
                    return NODE_LIMIT
                ok = True
                if not self.unknown:
                    if not self.is_forbidden(bad, n_bad):
                        self.solutions += 1
                        self.state = DONE
                        return SOLUTION
                    ok = False
                else:
                    self.pass_messages(row_msg, col_msg, iterations, prior, black, starts,
                                       forward, backward)
                    n_ranked = 0
                    for cell in range(self.n_cells):
                        if self.grid[cell] == UNKNOWN:
                            y = row_msg[cell] * col_msg[cell]
                            z = (1.0 - row_msg[cell]) * (1.0 - col_msg[cell])
                            ranked[n_ranked].key = fabs(y / (y + z) - 0.5) if y + z > 0.0 else 0.0
                            ranked[n_ranked].cell = cell
                            n_ranked += 1
                    qsort(ranked, n_ranked, sizeof(Ranked), by_key_descending)
                    k = 1 if self.guess_alone else max(1, <int> (n_ranked * fraction))
                    self.guess_alone = False
                    step_depth = self.depth
                    for i in range(k):
                        cell = ranked[i].cell
                        y = row_msg[cell] * col_msg[cell]
                        z = (1.0 - row_msg[cell]) * (1.0 - col_msg[cell])
                        if i == 0:
                            first_cell = cell
                            first_value = BLACK if y > z else WHITE
                        if self.grid[cell] == UNKNOWN:
                            self.branch(cell, BLACK if y > z else WHITE)
                    self.nodes += 1
                    ok = self.settle_node(True) != 0
                    if not ok and k > 1:
                        # take the step back whole and make it on its surest cell alone
                        self.guess_failures += 1
                        self.undo(self.stack_mark[step_depth])
                        self.unwind_log(self.stack_log[step_depth])
                        self.clear_queue()
                        self.depth = step_depth
                        self.branch(first_cell, first_value)
                        self.nodes += 1
                        ok = self.settle_node(True) != 0
                while not ok:
                    self.guess_failures += 1
                    if not self.backtrack():
                        self.state = DONE
                        return EXHAUSTED
                    self.nodes += 1
                    ok = self.settle_node(True) != 0
                    self.guess_alone = True
        finally:
            free(prior)
            free(black)
            free(starts)
            free(forward)
            free(backward)
            free(ranked)

    def deepest_guess(self):
        """The grid (as :meth:`grid_bytes`) of the consistent state with the fewest unknown
        cells that the last decimation (:meth:`guess`) reached, among those that leave at
        least :attr:`deepest_floor` cells open (0 by default): it may hold a wrong
        guess, but on large random puzzles it is often close to a solution. None before
        any decimation."""
        if self.guess_deepest == NULL or self.guess_deepest_unknown < 0:
            return None
        return self.guess_deepest[:self.n_cells]

    def deepest_order(self):
        """The cells the state of :meth:`deepest_guess` decided, in the order they were
        decided (those of ``given`` and the root's probing first); None before any."""
        if self.guess_deepest == NULL or self.guess_deepest_unknown < 0:
            return None
        return [self.guess_deepest_trail[i]
                for i in range(self.n_cells - self.guess_deepest_unknown)]

    def propagate_only(self):
        """Run line propagation from the start, without probing or search: 1 at the
        fixpoint, 0 on a contradiction; :meth:`grid_bytes` shows what it decided."""
        self.restart()
        self.state = BROKEN
        result = self.propagate()
        self.state = DONE
        return result

    def probe_only(self):
        """Line propagation and probing from the start, to their fixpoint, without
        search: 1, or 0 on a contradiction; :meth:`grid_bytes` shows what they decided."""
        self.restart()
        self.state = BROKEN
        result = self.propagate() and (not self.unknown or self.probe())
        self.state = DONE
        return 1 if result else 0

    def probe_deep(self, double deadline=-1.0):
        """Probing of depth 2 from the start, without search: line propagation, probing to
        its fixpoint, then each unknown cell tried both ways *with probing* (not only
        line propagation) inside each branch, keeping what both branches decide or the
        opposite of a branch that fails, round after round until nothing changes. 1, or
        0 on a contradiction, ``TIME_LIMIT`` once ``time.monotonic()`` passes
        ``deadline`` (negative: no limit); :meth:`grid_bytes` shows what it decided.
        Costs about as many probings as there are unknown cells per round: for ratings,
        not search."""
        cdef int cell, mark, since_change = 0, t, n_agreed, i, idx
        cdef int ok_black, ok_white
        cdef int64_t my_stamp = 0
        cdef uint8_t *seen_value = <uint8_t *> calloc(self.n_cells, 1)
        cdef int64_t *seen_stamp = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        cdef int32_t *agreed = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        if not seen_value or not seen_stamp or not agreed:
            free(seen_value)
            free(seen_stamp)
            free(agreed)
            raise MemoryError()
        self.restart()
        self.state = BROKEN
        try:
            if not self.propagate() or (self.unknown and not self.probe()):
                self.state = DONE
                return 0
            cell = 0
            while since_change < self.n_cells and self.unknown:
                cell = (cell + 1) % self.n_cells
                since_change += 1
                if self.grid[cell] != UNKNOWN:
                    continue
                if deadline >= 0 and monotonic() > deadline:
                    self.state = DONE
                    return TIME_LIMIT
                mark = self.trail_len
                my_stamp += 1
                ok_black = self.try_value(cell, BLACK) and (not self.unknown or self.probe())
                if ok_black:
                    for t in range(mark, self.trail_len):
                        idx = self.trail[t]
                        seen_stamp[idx] = my_stamp
                        seen_value[idx] = self.grid[idx]
                self.undo(mark)
                self.clear_queue()
                ok_white = self.try_value(cell, WHITE) and (not self.unknown or self.probe())
                if not ok_white:
                    self.undo(mark)
                    self.clear_queue()
                    if not ok_black or not self.try_value(cell, BLACK) or not self.probe():
                        self.state = DONE
                        return 0
                    since_change = 0
                    continue
                n_agreed = 0
                for t in range(mark, self.trail_len):
                    idx = self.trail[t]
                    if not ok_black or (seen_stamp[idx] == my_stamp
                                        and seen_value[idx] == self.grid[idx]):
                        agreed[n_agreed] = idx
                        n_agreed += 1
                if not ok_black:  # the white branch is forced: keep it whole
                    since_change = 0
                    continue
                self.undo(mark)
                self.clear_queue()
                if n_agreed:
                    for i in range(n_agreed):
                        idx = agreed[i]
                        if self.grid[idx] == UNKNOWN:
                            self.decide(idx, seen_value[idx])
                    if not self.propagate() or (self.unknown and not self.probe()):
                        self.state = DONE
                        return 0
                    since_change = 0
            self.state = DONE
            return 1
        finally:
            free(seen_value)
            free(seen_stamp)
            free(agreed)

    # ----- beliefs: line marginals and belief propagation, for CDCL's phases -----

    cdef double line_marginals(
        self, int line, const double *prior, double *forward, double *backward,
        double *start_out, double *black_out,
    ) noexcept:
        """Weigh every placement of ``line``'s blocks that agrees with the grid by the
        product, over its cells, of ``prior[i]`` (black) or ``1 - prior[i]`` (white), and
        leave in ``start_out[j * n + p]`` the weighted share of placements where block
        ``j`` starts at ``p``, in ``black_out[i]`` the share where cell ``i`` is black.
        The total weight, 0 when no placement fits (or it underflows). Forward and
        backward sums over (blocks placed, cells read), as in the line solver, with a
        white cell ``n`` past the end."""
        cdef int n, first, step, k, i, j, e, t, stride
        cdef const int32_t *clue = self.clues + self.clue_start[line]
        cdef double v, w, total
        cdef int32_t *no_white = self.white_before  # cells before each position known white
        k = self.clue_start[line + 1] - self.clue_start[line]
        if line < self.height:
            n, first, step = self.width, line * self.width, 1
        else:
            n, first, step = self.height, line - self.height, self.width
        stride = n + 2
        no_white[0] = 0
        for i in range(n):
            no_white[i + 1] = no_white[i] + (self.grid[first + i * step] == WHITE)
        memset(forward, 0, (k + 1) * stride * sizeof(double))
        memset(backward, 0, (k + 1) * stride * sizeof(double))
        forward[0] = 1.0
        for i in range(n + 1):
            for j in range(k + 1):
                v = forward[j * stride + i]
                if v == 0.0:
                    continue
                if i == n or self.grid[first + i * step] != BLACK:
                    forward[j * stride + i + 1] += v * (1.0 if i == n else 1.0 - prior[i])
                if j < k:
                    w = self.block_weight(clue[j], i, n, first, step, prior, no_white)
                    if w > 0.0:
                        forward[(j + 1) * stride + i + clue[j] + 1] += v * w
        backward[k * stride + n + 1] = 1.0
        for i in range(n, -1, -1):
            for j in range(k, -1, -1):
                v = 0.0
                if i == n or self.grid[first + i * step] != BLACK:
                    v = backward[j * stride + i + 1] * (1.0 if i == n else 1.0 - prior[i])
                if j < k:
                    w = self.block_weight(clue[j], i, n, first, step, prior, no_white)
                    if w > 0.0:
                        v += backward[(j + 1) * stride + i + clue[j] + 1] * w
                backward[j * stride + i] = v
        total = backward[0]
        memset(black_out, 0, n * sizeof(double))
        memset(start_out, 0, k * n * sizeof(double))
        if not total > 0.0:
            return 0.0
        for j in range(k):
            for i in range(n):
                v = forward[j * stride + i]
                if v == 0.0:
                    continue
                w = self.block_weight(clue[j], i, n, first, step, prior, no_white)
                if w == 0.0:
                    continue
                v = v * w * backward[(j + 1) * stride + i + clue[j] + 1] / total
                start_out[j * n + i] = v
                for t in range(i, i + clue[j]):
                    black_out[t] += v
        return total

    cdef inline double block_weight(
        self, int length, int i, int n, int first, int step, const double *prior,
        const int32_t *no_white,
    ) noexcept:
        """The weight of a block of ``length`` on cells ``i..i+length-1`` and the white
        cell after it (the virtual one past the end included), 0 when the grid forbids
        it."""
        cdef int e = i + length, t
        cdef double w
        if e > n or no_white[e] != no_white[i]:
            return 0.0
        if e < n and self.grid[first + e * step] == BLACK:
            return 0.0
        w = 1.0 if e == n else 1.0 - prior[e]
        for t in range(i, e):
            w *= prior[t]
        return w

    cdef void pass_messages(
        self, double *row_msg, double *col_msg, int iterations, double *prior,
        double *black, double *starts, double *forward, double *backward,
    ) noexcept:
        """``iterations`` rounds of belief propagation, rows then columns: each line
        weighs its placements by the crossing lines' messages (``col_msg`` for a row's
        cells, ``row_msg`` for a column's) and updates its own, damped by half. The
        other pointers are scratch of :meth:`line_marginals`."""
        cdef int it, l, i, n, k, cell, first, step
        cdef double po, pri, y, z, m
        for it in range(iterations):
            for l in range(self.n_lines):
                n, k = self.line_shape(l, &first, &step)
                for i in range(n):
                    cell = first + i * step
                    prior[i] = col_msg[cell] if l < self.height else row_msg[cell]
                if not self.line_marginals(l, prior, forward, backward, starts, black):
                    continue
                for i in range(n):
                    cell = first + i * step
                    po = min(1.0 - 1e-9, max(1e-9, black[i]))
                    pri = prior[i]
                    y = po * (1.0 - pri)
                    z = (1.0 - po) * pri
                    m = min(1.0 - 1e-6, max(1e-6, y / (y + z)))
                    if l < self.height:
                        row_msg[cell] = 0.5 * row_msg[cell] + 0.5 * m
                    else:
                        col_msg[cell] = 0.5 * col_msg[cell] + 0.5 * m

    def beliefs(self, int iterations=20):
        """Belief propagation over the lines, from the grid as it stands (call it after
        :meth:`probe_only`), for the phases of a CDCL solver: each line weighs its
        placements by what the crossing lines say of its cells (starting from "no
        opinion"), passes back what it says of each cell, rows then columns,
        ``iterations`` times. Returns ``(cells, starts)``: the chance that each cell is
        black (0 or 1 when decided), and per line, per block, the chance that the block
        starts at each position, given the crossing lines' messages (with no round, the
        share of the placements that agree with the grid: 0 where none starts it
        there)."""
        cdef int l, i, j, n, k, cell, first, step
        cdef double y, z
        cdef int size = (self.largest + 1) * (self.longest + 2)
        cdef double *row_msg = <double *> calloc(self.n_cells, sizeof(double))
        cdef double *col_msg = <double *> calloc(self.n_cells, sizeof(double))
        cdef double *prior = <double *> calloc(self.longest + 1, sizeof(double))
        cdef double *black = <double *> calloc(self.longest + 1, sizeof(double))
        cdef double *starts = <double *> calloc(size, sizeof(double))
        cdef double *forward = <double *> calloc(size, sizeof(double))
        cdef double *backward = <double *> calloc(size, sizeof(double))
        cdef list cells, start_list
        try:
            if (not row_msg or not col_msg or not prior or not black or not starts
                    or not forward or not backward):
                raise MemoryError()
            for cell in range(self.n_cells):
                row_msg[cell] = 0.5
                col_msg[cell] = 0.5
            self.pass_messages(row_msg, col_msg, iterations, prior, black, starts, forward,
                               backward)
            start_list = []
            for l in range(self.n_lines):
                n, k = self.line_shape(l, &first, &step)
                for i in range(n):
                    cell = first + i * step
                    prior[i] = col_msg[cell] if l < self.height else row_msg[cell]
                self.line_marginals(l, prior, forward, backward, starts, black)
                start_list.append([[starts[j * n + i] for i in range(n)] for j in range(k)])
            cells = []
            for cell in range(self.n_cells):
                if self.grid[cell] != UNKNOWN:
                    cells.append(1.0 if self.grid[cell] == BLACK else 0.0)
                    continue
                y = row_msg[cell] * col_msg[cell]
                z = (1.0 - row_msg[cell]) * (1.0 - col_msg[cell])
                cells.append(y / (y + z) if y + z > 0.0 else 0.5)
            return cells, start_list
        finally:
            free(row_msg)
            free(col_msg)
            free(prior)
            free(black)
            free(starts)
            free(forward)
            free(backward)

    cdef inline (int, int) line_shape(self, int line, int *first, int *step) noexcept:
        """Line ``line``'s length and number of blocks; its first cell and the stride
        between its cells go to ``first`` and ``step``."""
        if line < self.height:
            first[0], step[0] = line * self.width, 1
            return self.width, self.clue_start[line + 1] - self.clue_start[line]
        first[0], step[0] = line - self.height, self.width
        return self.height, self.clue_start[line + 1] - self.clue_start[line]

    def grid_bytes(self):
        """The grid, one byte per cell row by row (1 white, 2 black, 3 unknown)."""
        return bytes(<uint8_t[:self.n_cells]> self.grid)


def line_solve(clue, cells, bint bit_parallel=True):
    """Narrow one line: ``cells`` (bytes of 1 white, 2 black, 3 unknown) against
    ``clue`` (block lengths). Returns the narrowed bytes, or None when no placement of
    the clue agrees with the cells. The search solves lines with the bit-parallel
    solvers (one word a row up to BIT_CELLS cells, several beyond);
    ``bit_parallel=False`` uses the byte tables instead (the two are compared in tests)."""
    cdef int n = len(cells), k = len(clue), j
    cdef LineScratch w
    cdef bytes given = bytes(cells)
    cdef bytearray out = bytearray(n)
    cdef int32_t *blocks = <int32_t *> calloc(k + 1, sizeof(int32_t))
    cdef bint ok
    w.forward = <uint8_t *> calloc((k + 1) * (n + 1), 1)
    w.backward = <uint8_t *> calloc((k + 1) * (n + 1), 1)
    w.low = <int32_t *> calloc(k + 1, sizeof(int32_t))
    w.high = <int32_t *> calloc(k + 1, sizeof(int32_t))
    w.no_black = <int32_t *> calloc(n + 1, sizeof(int32_t))
    w.no_white = <int32_t *> calloc(n + 1, sizeof(int32_t))
    w.diff = <int32_t *> calloc(n + 1, sizeof(int32_t))
    try:
        if (not blocks or not w.forward or not w.backward or not w.no_black
                or not w.no_white or not w.diff or not w.low or not w.high):
            raise MemoryError()
        for j in range(k):
            if clue[j] < 1:
                raise ValueError("every block needs at least one cell")
            blocks[j] = clue[j]
        for j in range(n):
            if given[j] < 1 or given[j] > 3:
                raise ValueError(f"cell value {given[j]} is not 1, 2 or 3")
        if bit_parallel and n <= BIT_CELLS:
            ok = solve_line_bits(n, blocks, k, <const uint8_t *> given, <uint8_t *> out)
        elif bit_parallel:
            ok = solve_line_words(n, blocks, k, <const uint8_t *> given, <uint8_t *> out)
        else:
            ok = solve_line_table(n, blocks, k, <const uint8_t *> given, <uint8_t *> out, &w)
    finally:
        free(blocks)
        free_scratch(&w)
    return bytes(out) if ok else None


# ===================================================================================
# Colour nonograms
# ===================================================================================
#
# A colour puzzle has ``n_values`` cell values: white (value 0) and its colours (values
# 1 .. n_values - 1); a cell is a 32-bit set of the values it may still take, bit ``v``
# for value ``v``. Every block has a length and a colour; two consecutive blocks of one
# colour need a white cell between them, of different colours none.
#
# **The colour line solver** is the black-and-white one with the gap made conditional:
# ``F[j][i]`` "the first ``j`` blocks fit in cells ``0..i-1``" is true when cell ``i-1``
# may be white and ``F[j][i-1]``, or when block ``j-1`` (colour ``c``, length ``L``) may
# cover cells ``i-L..i-1`` and the blocks before it fit to its left: in ``0..i-L-2`` with
# cell ``i-L-1`` white when block ``j-2`` has colour ``c`` too, in ``0..i-L-1`` otherwise
# (block ``j-2`` may then end right where block ``j-1`` starts). ``G[j][i]`` "blocks
# ``j..k-1`` fit in cells ``i..n-1``" mirrors it. Whether a stretch may be all of one
# value is read from prefix counts, one array per value, so the tables cost O(n k) and
# the counts O(n (colours + 1)). A cell keeps white when some ``j`` has ``F[j][i]`` and
# ``G[j][i+1]``; block ``j`` may start at ``s`` when its stretch allows its colour and
# the tables allow what lies left and right of it, and each such start adds to the
# difference array of the block's colour, whose prefix sums give the cells each colour
# may reach.
#
# **ColourCore** propagates, probes and searches as ``Core`` does, with what more values
# need: a cell may lose values a few at a time, so the trail keeps each narrowed cell
# with its value before (undoing restores it); probing tries every value a cell still
# has, removes the values whose branch fails and keeps, for every cell narrowed in all
# the branches that succeed, the union of its values there; and the search tries the
# values of its branching cell one after the other. There is no cache of line states.
# The black-and-white ``Core`` is untouched: ``excover.nonogram.search`` picks this
# class only for puzzles with a palette.

from libc.stdint cimport uint32_t


cdef struct ColourScratch:
    uint8_t *forward      # F, (k + 1) rows of n + 1 entries
    uint8_t *backward     # G, same shape
    int32_t *no_value     # no_value[v * (n + 1) + i]: cells < i that cannot take value v
    int32_t *diff         # a difference array of n + 1 entries per value


cdef void free_colour_scratch(ColourScratch *w) noexcept:
    free(w.forward)
    free(w.backward)
    free(w.no_value)
    free(w.diff)


cdef inline bint all_of(const int32_t *no_value, int stride, int v, int a, int b) noexcept nogil:
    """Cells ``a..b-1`` may all take value ``v``."""
    return no_value[v * stride + b] == no_value[v * stride + a]


cdef bint solve_colour_line(
    int n, const int32_t *lengths, const int32_t *colours, int k, int n_values,
    const uint32_t *cells, uint32_t *out, ColourScratch *w
) noexcept nogil:
    """Narrow ``cells`` (``n`` value sets) to the union of the placements of the clue
    (block ``j``: ``lengths[j]`` cells of value ``colours[j]``, 1 or more) into ``out``;
    false when there is no placement (``out`` is then meaningless)."""
    cdef int i, j, s, v, length, colour, stride = n + 1, depth
    cdef uint8_t *F = w.forward
    cdef uint8_t *G = w.backward
    cdef int32_t *nv = w.no_value
    cdef int32_t *diff = w.diff
    cdef bint ok, gap_before, gap_after
    for v in range(n_values):
        nv[v * stride] = 0
        for i in range(n):
            nv[v * stride + i + 1] = nv[v * stride + i] + (0 if (cells[i] >> v) & 1 else 1)
    memset(F, 0, (k + 1) * stride)
    memset(G, 0, (k + 1) * stride)
    for i in range(n + 1):
        F[i] = nv[i] == 0
    for j in range(1, k + 1):
        length = lengths[j - 1]
        colour = colours[j - 1]
        gap_before = j > 1 and colours[j - 2] == colour
        for i in range(n + 1):
            ok = i >= 1 and (cells[i - 1] & 1) and F[j * stride + i - 1]
            if not ok and i >= length and all_of(nv, stride, colour, i - length, i):
                if j == 1:
                    ok = F[i - length]
                elif gap_before:
                    ok = (i - length >= 1 and (cells[i - length - 1] & 1)
                          and F[(j - 1) * stride + i - length - 1])
                else:
                    ok = F[(j - 1) * stride + i - length]
            F[j * stride + i] = ok
    if not F[k * stride + n]:
        return False
    for i in range(n + 1):
        G[k * stride + i] = nv[n] == nv[i]
    for j in range(k - 1, -1, -1):
        length = lengths[j]
        colour = colours[j]
        gap_after = j < k - 1 and colours[j + 1] == colour
        for i in range(n, -1, -1):
            ok = i < n and (cells[i] & 1) and G[j * stride + i + 1]
            if not ok and i + length <= n and all_of(nv, stride, colour, i, i + length):
                if j == k - 1:
                    ok = G[k * stride + i + length]
                elif gap_after:
                    ok = (i + length < n and (cells[i + length] & 1)
                          and G[(j + 1) * stride + i + length + 1])
                else:
                    ok = G[(j + 1) * stride + i + length]
            G[j * stride + i] = ok
    memset(diff, 0, n_values * stride * sizeof(int32_t))
    for j in range(k):
        length = lengths[j]
        colour = colours[j]
        gap_before = j > 0 and colours[j - 1] == colour
        gap_after = j < k - 1 and colours[j + 1] == colour
        for s in range(n - length + 1):
            if not all_of(nv, stride, colour, s, s + length):
                continue
            if j == 0:
                ok = F[s]
            elif gap_before:
                ok = s >= 1 and (cells[s - 1] & 1) and F[j * stride + s - 1]
            else:
                ok = F[j * stride + s]
            if not ok:
                continue
            if j == k - 1:
                ok = G[k * stride + s + length]
            elif gap_after:
                ok = (s + length < n and (cells[s + length] & 1)
                      and G[(j + 1) * stride + s + length + 1])
            else:
                ok = G[(j + 1) * stride + s + length]
            if ok:
                diff[colour * stride + s] += 1
                diff[colour * stride + s + length] -= 1
    for i in range(n):
        out[i] = 0
    for v in range(1, n_values):
        depth = 0
        for i in range(n):
            depth += diff[v * stride + i]
            if depth > 0:
                out[i] |= (<uint32_t> 1) << v
    for j in range(k + 1):
        for i in range(n):
            if F[j * stride + i] and G[j * stride + i + 1] and (cells[i] & 1):
                out[i] |= 1
    return True


cdef inline bint several(uint32_t value) noexcept nogil:
    """Whether the value set holds more than one value."""
    return (value & (value - 1)) != 0


cdef inline int lowest(uint32_t value) noexcept nogil:
    """The smallest value of a non-empty value set."""
    cdef int v = 0
    while not (value >> v) & 1:
        v += 1
    return v


cdef class ColourCore:
    """A colour nonogram being solved: grid of value sets, trail, search stack.

    ``lengths`` and ``colours`` hold the blocks of every line end to end, rows then
    columns (colours are values 1 .. ``n_values - 1``), and ``clue_start`` (``height +
    width + 1`` entries) where each line's blocks begin. Its methods are ``Core``'s."""

    cdef int height, width, n_cells, n_lines, longest, largest, n_values
    cdef uint32_t full
    cdef int32_t *lengths
    cdef int32_t *colours
    cdef int32_t *clue_start
    cdef uint32_t *grid
    cdef int32_t *trail_cell
    cdef uint32_t *trail_old
    cdef int trail_len
    cdef int unknown
    cdef int32_t *queue
    cdef uint8_t *queued
    cdef int queue_head, queue_count
    cdef uint32_t *line_in
    cdef uint32_t *line_out
    cdef ColourScratch scratch
    # Probing: per cell, the probe and branch that last touched it, how many of the
    # probe's successful branches narrowed it, and the union of its values there.
    cdef int64_t *probe_mark
    cdef int64_t *branch_mark
    cdef int32_t *seen_count
    cdef uint32_t *seen_union
    cdef int32_t *touched
    cdef int64_t stamp
    cdef int64_t *score
    cdef uint32_t *first_value
    cdef int32_t *stack_cell
    cdef int32_t *stack_mark
    cdef uint32_t *stack_left
    cdef int depth
    cdef int state
    cdef public int64_t nodes
    cdef public int64_t line_solves
    cdef public int64_t probes
    cdef public int64_t solutions
    cdef public int64_t cache_hits

    def __cinit__(self, int height, int width, int n_values, lengths, colours, clue_start):
        cdef int l, n, total, trail_size
        if height < 1 or width < 1:
            raise ValueError("a nonogram needs at least one row and one column")
        if <int64_t> height * width > MAX_CELLS // 32:
            raise ValueError(f"a colour nonogram has at most {MAX_CELLS // 32} cells")
        if n_values < 2 or n_values > 32:
            raise ValueError("a colour nonogram has 1 to 31 colours besides white")
        if len(clue_start) != height + width + 1:
            raise ValueError("clue_start needs height + width + 1 entries")
        if len(lengths) != len(colours):
            raise ValueError("lengths and colours must have one entry per block")
        self.height = height
        self.width = width
        self.n_values = n_values
        self.full = <uint32_t> ((<uint64_t> 1 << n_values) - 1)
        self.n_cells = height * width
        self.n_lines = height + width
        self.longest = max(height, width)
        total = len(lengths)
        trail_size = self.n_cells * n_values + 1
        self.lengths = <int32_t *> calloc(total + 1, sizeof(int32_t))
        self.colours = <int32_t *> calloc(total + 1, sizeof(int32_t))
        self.clue_start = <int32_t *> calloc(self.n_lines + 1, sizeof(int32_t))
        self.grid = <uint32_t *> calloc(self.n_cells, sizeof(uint32_t))
        self.trail_cell = <int32_t *> calloc(trail_size, sizeof(int32_t))
        self.trail_old = <uint32_t *> calloc(trail_size, sizeof(uint32_t))
        self.queue = <int32_t *> calloc(self.n_lines, sizeof(int32_t))
        self.queued = <uint8_t *> calloc(self.n_lines, 1)
        self.line_in = <uint32_t *> calloc(self.longest, sizeof(uint32_t))
        self.line_out = <uint32_t *> calloc(self.longest, sizeof(uint32_t))
        self.probe_mark = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        self.branch_mark = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        self.seen_count = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.seen_union = <uint32_t *> calloc(self.n_cells, sizeof(uint32_t))
        self.touched = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.score = <int64_t *> calloc(self.n_cells, sizeof(int64_t))
        self.first_value = <uint32_t *> calloc(self.n_cells, sizeof(uint32_t))
        self.stack_cell = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.stack_mark = <int32_t *> calloc(self.n_cells, sizeof(int32_t))
        self.stack_left = <uint32_t *> calloc(self.n_cells, sizeof(uint32_t))
        if (not self.lengths or not self.colours or not self.clue_start or not self.grid
                or not self.trail_cell or not self.trail_old or not self.queue
                or not self.queued or not self.line_in or not self.line_out
                or not self.probe_mark or not self.branch_mark or not self.seen_count
                or not self.seen_union or not self.touched or not self.score
                or not self.first_value or not self.stack_cell or not self.stack_mark
                or not self.stack_left):
            raise MemoryError()
        for l in range(self.n_lines + 1):
            self.clue_start[l] = clue_start[l]
        if self.clue_start[0] != 0 or self.clue_start[self.n_lines] != total:
            raise ValueError("clue_start must run from 0 to len(lengths)")
        self.largest = 0
        for l in range(self.n_lines):
            if self.clue_start[l + 1] < self.clue_start[l]:
                raise ValueError("clue_start must not decrease")
            self.largest = max(self.largest, self.clue_start[l + 1] - self.clue_start[l])
        for l in range(total):
            self.lengths[l] = lengths[l]
            self.colours[l] = colours[l]
            if self.lengths[l] < 1:
                raise ValueError("every block needs at least one cell")
            if self.colours[l] < 1 or self.colours[l] >= n_values:
                raise ValueError(f"block colours are 1 to {n_values - 1}")
        n = self.longest + 1
        self.scratch.forward = <uint8_t *> calloc((self.largest + 1) * n, 1)
        self.scratch.backward = <uint8_t *> calloc((self.largest + 1) * n, 1)
        self.scratch.no_value = <int32_t *> calloc(n_values * n, sizeof(int32_t))
        self.scratch.diff = <int32_t *> calloc(n_values * n, sizeof(int32_t))
        if (not self.scratch.forward or not self.scratch.backward or not self.scratch.no_value
                or not self.scratch.diff):
            raise MemoryError()
        self.restart()

    def __dealloc__(self):
        free(self.lengths)
        free(self.colours)
        free(self.clue_start)
        free(self.grid)
        free(self.trail_cell)
        free(self.trail_old)
        free(self.queue)
        free(self.queued)
        free(self.line_in)
        free(self.line_out)
        free(self.probe_mark)
        free(self.branch_mark)
        free(self.seen_count)
        free(self.seen_union)
        free(self.touched)
        free(self.score)
        free(self.first_value)
        free(self.stack_cell)
        free(self.stack_mark)
        free(self.stack_left)
        free_colour_scratch(&self.scratch)

    def restart(self):
        """Forget everything: every cell may take every value, every line dirty,
        statistics zero."""
        cdef int l, cell
        for cell in range(self.n_cells):
            self.grid[cell] = self.full
        self.trail_len = 0
        self.unknown = self.n_cells
        self.queue_head = 0
        self.queue_count = 0
        memset(self.queued, 0, self.n_lines)
        for l in range(self.n_lines):
            self.enqueue(l)
        self.depth = 0
        self.state = FRESH
        self.nodes = 0
        self.line_solves = 0
        self.probes = 0
        self.solutions = 0
        self.cache_hits = 0

    cdef inline void enqueue(self, int line) noexcept:
        if not self.queued[line]:
            self.queued[line] = 1
            self.queue[(self.queue_head + self.queue_count) % self.n_lines] = line
            self.queue_count += 1

    cdef void clear_queue(self) noexcept:
        while self.queue_count:
            self.queued[self.queue[self.queue_head]] = 0
            self.queue_head = (self.queue_head + 1) % self.n_lines
            self.queue_count -= 1

    cdef inline void narrow(self, int cell, uint32_t value) noexcept:
        """Narrow ``cell`` to ``value`` (a proper, non-empty subset of its values), on
        the trail; its row and column become dirty."""
        cdef uint32_t old = self.grid[cell]
        self.trail_cell[self.trail_len] = cell
        self.trail_old[self.trail_len] = old
        self.trail_len += 1
        if several(old) and not several(value):
            self.unknown -= 1
        self.grid[cell] = value
        self.enqueue(cell // self.width)
        self.enqueue(self.height + cell % self.width)

    cdef inline void undo(self, int mark) noexcept:
        """Give back the values the cells lost after ``mark``."""
        cdef int cell
        cdef uint32_t old
        while self.trail_len > mark:
            self.trail_len -= 1
            cell = self.trail_cell[self.trail_len]
            old = self.trail_old[self.trail_len]
            if several(old) and not several(self.grid[cell]):
                self.unknown += 1
            self.grid[cell] = old

    cdef int propagate(self) except -1:
        """Solve dirty lines until none is left: 1 at the fixpoint, 0 on a contradiction
        (the queue is then emptied; the caller undoes the trail)."""
        cdef int line, i, n, first, step, cell
        cdef uint32_t value
        while self.queue_count:
            line = self.queue[self.queue_head]
            self.queue_head = (self.queue_head + 1) % self.n_lines
            self.queue_count -= 1
            self.queued[line] = 0
            self.line_solves += 1
            if self.line_solves % CHECK_EVERY == 0:
                PyErr_CheckSignals()
            if line < self.height:
                n, first, step = self.width, line * self.width, 1
            else:
                n, first, step = self.height, line - self.height, self.width
            for i in range(n):
                self.line_in[i] = self.grid[first + i * step]
            if not solve_colour_line(
                n, self.lengths + self.clue_start[line], self.colours + self.clue_start[line],
                self.clue_start[line + 1] - self.clue_start[line], self.n_values,
                self.line_in, self.line_out, &self.scratch,
            ):
                self.clear_queue()
                return 0
            for i in range(n):
                value = self.line_out[i]
                if value != self.line_in[i]:
                    cell = first + i * step
                    self.trail_cell[self.trail_len] = cell
                    self.trail_old[self.trail_len] = self.line_in[i]
                    self.trail_len += 1
                    if several(self.line_in[i]) and not several(value):
                        self.unknown -= 1
                    self.grid[cell] = value
                    if line < self.height:
                        self.enqueue(self.height + i)
                    else:
                        self.enqueue(i)
        return 1

    cdef int try_value(self, int cell, uint32_t value) except -1:
        """Narrow ``cell`` to ``value`` and propagate; 1, or 0 on a contradiction."""
        self.narrow(cell, value)
        return self.propagate()

    cdef int probe(self) except -1:
        """Probe every undecided cell, value by value, round after round until nothing
        changes (at the root; one round below it): 1, or 0 when the grid has no
        solution. Scores go to ``score``, the value to try first to ``first_value``."""
        cdef int cell, mark, since_change = 0, t, idx, v, n_ok, n_touched, i
        cdef uint32_t values, bit, kept
        cdef int64_t decided, product, fewest
        cdef bint changed
        cdef int visited = 0, budget = self.n_cells if self.depth else 1 << 30
        cell = 0
        while since_change < self.n_cells and self.unknown and visited < budget:
            cell = (cell + 1) % self.n_cells
            since_change += 1
            visited += 1
            values = self.grid[cell]
            if not several(values):
                continue
            self.probes += 1
            mark = self.trail_len
            self.stamp += 1
            probe_id = self.stamp
            n_ok = 0
            n_touched = 0
            product = 1
            fewest = -1
            for v in range(self.n_values):
                bit = (<uint32_t> 1) << v
                if not values & bit:
                    continue
                self.stamp += 1
                if self.try_value(cell, bit):
                    n_ok += 1
                    decided = self.trail_len - mark
                    if product < (<int64_t> 1 << 40):
                        product *= decided + 1
                    if fewest < 0 or decided < fewest:
                        fewest = decided
                        self.first_value[cell] = bit
                    for t in range(mark, self.trail_len):
                        idx = self.trail_cell[t]
                        if self.branch_mark[idx] == self.stamp:
                            continue
                        self.branch_mark[idx] = self.stamp
                        if self.probe_mark[idx] != probe_id:
                            self.probe_mark[idx] = probe_id
                            self.seen_count[idx] = 0
                            self.seen_union[idx] = 0
                            self.touched[n_touched] = idx
                            n_touched += 1
                        self.seen_count[idx] += 1
                        self.seen_union[idx] |= self.grid[idx]
                self.undo(mark)
            if n_ok == 0:
                return 0
            changed = False
            for i in range(n_touched):
                idx = self.touched[i]
                if self.seen_count[idx] == n_ok:
                    kept = self.seen_union[idx] & self.grid[idx]
                    if kept != self.grid[idx]:
                        self.narrow(idx, kept)
                        changed = True
            if changed:
                if not self.propagate():
                    return 0
                since_change = 0
                continue
            self.score[cell] = product
        return 1

    cdef int choose(self) noexcept:
        """The undecided cell with the best probing score."""
        cdef int cell, best = -1
        cdef int64_t best_score = -1
        for cell in range(self.n_cells):
            if several(self.grid[cell]) and self.score[cell] > best_score:
                best, best_score = cell, self.score[cell]
        return best

    cdef int backtrack(self) noexcept:
        """Go to the next untried branch: 1, or 0 when the tree is exhausted."""
        cdef int cell
        cdef uint32_t bit
        while self.depth:
            self.undo(self.stack_mark[self.depth - 1])
            self.clear_queue()
            if self.stack_left[self.depth - 1]:
                cell = self.stack_cell[self.depth - 1]
                bit = (<uint32_t> 1) << lowest(self.stack_left[self.depth - 1])
                self.stack_left[self.depth - 1] &= ~bit
                self.narrow(cell, bit)
                return 1
            self.depth -= 1
        return 0

    def next_solution(self, int64_t max_nodes=-1, double deadline=-1.0, bint probing=True):
        """As ``Core.next_solution``: ``SOLUTION`` (read it with :meth:`grid_values`),
        ``EXHAUSTED``, ``NODE_LIMIT`` or ``TIME_LIMIT``."""
        cdef int cell
        cdef uint32_t first
        if self.state == BROKEN:
            raise RuntimeError("this search was interrupted and cannot go on; restart it")
        if self.state == DONE:
            return EXHAUSTED
        if self.state == FOUND and not self.backtrack():
            self.state = DONE
            return EXHAUSTED
        self.state = BROKEN
        while True:
            if max_nodes >= 0 and self.nodes >= max_nodes:
                self.state = RUNNING
                return NODE_LIMIT
            if deadline >= 0 and self.nodes % 16 == 0 and monotonic() > deadline:
                self.state = RUNNING
                return TIME_LIMIT
            self.nodes += 1
            if not self.propagate() or (probing and self.unknown and not self.probe()):
                if not self.backtrack():
                    self.state = DONE
                    return EXHAUSTED
                continue
            if not self.unknown:
                self.solutions += 1
                self.state = FOUND
                return SOLUTION
            if probing:
                cell = self.choose()
                first = self.first_value[cell] & self.grid[cell]
                if not first:
                    first = (<uint32_t> 1) << lowest(self.grid[cell])
            else:
                cell = 0
                while not several(self.grid[cell]):
                    cell += 1
                first = (<uint32_t> 1) << lowest(self.grid[cell])
            self.stack_cell[self.depth] = cell
            self.stack_mark[self.depth] = self.trail_len
            self.stack_left[self.depth] = self.grid[cell] & ~first
            self.depth += 1
            self.narrow(cell, first)

    def propagate_only(self):
        """Run line propagation from the start, without probing or search: 1 at the
        fixpoint, 0 on a contradiction; :meth:`grid_values` shows what it decided."""
        self.restart()
        self.state = BROKEN
        result = self.propagate()
        self.state = DONE
        return result

    def grid_values(self):
        """The grid, one byte per cell row by row: the value of a decided cell (0 white,
        1.. the colours), 255 for a cell still open."""
        cdef bytearray out = bytearray(self.n_cells)
        cdef int cell
        for cell in range(self.n_cells):
            out[cell] = 255 if several(self.grid[cell]) else lowest(self.grid[cell])
        return bytes(out)

    def grid_sets(self):
        """The grid's value sets, one int per cell row by row (bit ``v`` for value
        ``v``)."""
        return [self.grid[cell] for cell in range(self.n_cells)]


def colour_line_solve(lengths, colours, int n_values, cells):
    """Narrow one colour line: ``cells`` (value sets, bit 0 white, bit ``v`` colour
    ``v``) against the blocks (``lengths[j]`` cells of colour ``colours[j]``). Returns
    the narrowed sets as a list, or None when no placement agrees with the cells."""
    cdef int n = len(cells), k = len(lengths), j
    cdef ColourScratch w
    cdef int32_t *blocks = <int32_t *> calloc(k + 1, sizeof(int32_t))
    cdef int32_t *values = <int32_t *> calloc(k + 1, sizeof(int32_t))
    cdef uint32_t *given = <uint32_t *> calloc(n + 1, sizeof(uint32_t))
    cdef uint32_t *out = <uint32_t *> calloc(n + 1, sizeof(uint32_t))
    cdef bint ok
    w.forward = <uint8_t *> calloc((k + 1) * (n + 1), 1)
    w.backward = <uint8_t *> calloc((k + 1) * (n + 1), 1)
    w.no_value = <int32_t *> calloc(max(n_values, 1) * (n + 1), sizeof(int32_t))
    w.diff = <int32_t *> calloc(max(n_values, 1) * (n + 1), sizeof(int32_t))
    try:
        if (not blocks or not values or not given or not out or not w.forward
                or not w.backward or not w.no_value or not w.diff):
            raise MemoryError()
        if n_values < 2 or n_values > 32:
            raise ValueError("n_values is 2 to 32")
        if len(colours) != k:
            raise ValueError("one colour per block")
        for j in range(k):
            if lengths[j] < 1:
                raise ValueError("every block needs at least one cell")
            if colours[j] < 1 or colours[j] >= n_values:
                raise ValueError(f"block colours are 1 to {n_values - 1}")
            blocks[j] = lengths[j]
            values[j] = colours[j]
        for j in range(n):
            if cells[j] < 1 or cells[j] >= (1 << n_values):
                raise ValueError(f"cell value set {cells[j]} is empty or too large")
            given[j] = cells[j]
        ok = solve_colour_line(n, blocks, values, k, n_values, given, out, &w)
        result = [out[j] for j in range(n)] if ok else None
    finally:
        free(blocks)
        free(values)
        free(given)
        free(out)
        free_colour_scratch(&w)
    return result
