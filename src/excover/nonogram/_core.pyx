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
operations instead of a pass over the line; a longer line in ``n // 64 + 1`` words a
row (:func:`solve_words`). The byte tables stay as the reference the two are
tested against: the colour line solver (below) run with a single colour, black.

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

**Colour nonograms** (:class:`ColourCore`) give each cell a set of up to 32 values; their
line solver and search are described in ``_core_colour_lines.pxi`` and ``_core_colour.pxi``.

**Layout.** The module is one extension built from one C file, written in parts that
Cython's ``include`` pastes in, in this order:

- ``_core_memory.pxi``: :class:`Blocks`, the owner of every array a core allocates;
- ``_core_lines.pxi``: the bit-parallel black-and-white line solvers and ``line_solve``;
- ``_core_colour_lines.pxi``: the colour line solver (also the byte-table reference of
  the black-and-white ones) and ``colour_line_solve``;
- ``_core_base.pxi``: :class:`LineCore`, what both cores share: the lines and their
  clue offsets, the queue of dirty lines, the search stack's cells and trail marks, the
  statistics, the search loop of ``next_solution`` with its limits and stepping, and the
  rounds of probing, each core supplying its grid, its line solving and its moves;
- ``_core_black.pxi``: :class:`Core`, the black-and-white core (line caches, skipping
  probes that still hold, restarts, decimation, beliefs);
- ``_core_colour.pxi``: :class:`ColourCore`.

Includes rather than several extensions because the hot loops call across these parts
(the queue's inline methods, the line solvers called from propagation): in one
translation unit the C compiler inlines them as before, where calls between extension
modules would go through function pointers.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
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

# What a search returns, for C code (the Python names below hold the same numbers).
cdef enum:
    FOUND_SOLUTION = 1
    ALL_EXPLORED = 0
    LIMIT_NODES = -1
    LIMIT_TIME = -2

# The most cells a grid may have (so that every cell index fits a 32-bit int).
MAX_CELLS = 1 << 28

# What ``next_solution`` returns.
SOLUTION = FOUND_SOLUTION
EXHAUSTED = ALL_EXPLORED
NODE_LIMIT = LIMIT_NODES
TIME_LIMIT = LIMIT_TIME

# How the search stands between two calls of ``next_solution``.
cdef enum:
    FRESH = 0       # nothing done yet
    RUNNING = 1     # at a node whose propagation is still to run
    FOUND = 2       # the grid holds a solution; the next call backtracks from it
    DONE = 3        # the whole tree is explored
    BROKEN = 4      # an exception (Ctrl-C) cut a call short; the state is lost
    GUESSING = 5    # decimation paused (deadline or dead ends); ``guess(resume=True)`` goes on

# What probing one cell did (``LineCore.probe_cell``).
cdef enum:
    PROBE_KEPT = 0        # nothing decided (or the cell was not probed)
    PROBE_CHANGED = 1     # cells were decided for good
    PROBE_FAILED = 2      # no value of the cell is consistent: the grid has no solution
    PROBE_COMPLETED = 3   # a value completes the grid (left as the next branch)


cdef double monotonic() noexcept:
    """The clock of Python's ``time.monotonic()`` (CLOCK_MONOTONIC), without a Python
    object."""
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + now.tv_nsec * 1e-9


include "_core_memory.pxi"
include "_core_lines.pxi"
include "_core_colour_lines.pxi"
include "_core_base.pxi"
include "_core_black.pxi"
include "_core_colour.pxi"
