# Part of ``_core.pyx`` (pasted in by ``include``): the black-and-white line solvers that
# the search uses, one 64-bit word a table row (``solve_bits``) or several
# (``solve_words``); the module docstring says what they compute.


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


cdef size_t word_scratch_size(int largest, int longest) noexcept:
    """How many 64-bit words :func:`bind_word_scratch` needs for clues of up to
    ``largest`` blocks and lines of up to ``longest`` cells."""
    cdef size_t words = longest // 64 + 1
    return 2 * (<size_t> largest + 1) * words + 5 * words


cdef void bind_word_scratch(WordScratch *w, uint64_t *block, int largest, int longest) noexcept:
    """Lay ``w`` out over ``block`` (:func:`word_scratch_size` words, zeroed)."""
    cdef size_t words = longest // 64 + 1
    cdef size_t table = (<size_t> largest + 1) * words
    w.forward = block
    w.backward = w.forward + table
    w.start = w.backward + table
    w.runs = w.start + words
    w.after = w.runs + words
    w.white_rev = w.after + words
    w.black_rev = w.white_rev + words


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
    cdef bint ok
    cdef Blocks memory = Blocks()
    cdef uint64_t *masks = <uint64_t *> memory.alloc(4 * words, sizeof(uint64_t))
    bind_word_scratch(
        &w, <uint64_t *> memory.alloc(word_scratch_size(k, n), sizeof(uint64_t)), k, n)
    for i in range(n):
        masks[i >> 6] |= <uint64_t> (cells[i] & WHITE) << (i & 63)
        masks[words + (i >> 6)] |= <uint64_t> (cells[i] >> 1) << (i & 63)
    ok = solve_words(n, clue, k, masks, masks + words, masks + 2 * words, masks + 3 * words, &w)
    for i in range(n):
        out[i] = ((masks[2 * words + (i >> 6)] >> (i & 63)) & 1) | (
            ((masks[3 * words + (i >> 6)] >> (i & 63)) & 1) << 1)
    return ok


def line_solve(clue, cells, bint bit_parallel=True):
    """Narrow one line: ``cells`` (bytes of 1 white, 2 black, 3 unknown) against
    ``clue`` (block lengths). Returns the narrowed bytes, or None when no placement of
    the clue agrees with the cells. The search solves lines with the bit-parallel
    solvers (one word a row up to BIT_CELLS cells, several beyond);
    ``bit_parallel=False`` uses the byte tables instead (the two are compared in tests):
    the colour line solver with one colour, black, whose value sets are these bytes."""
    cdef int n = len(cells), k = len(clue), j
    cdef bytes given = bytes(cells)
    cdef bytearray out = bytearray(n)
    cdef Blocks memory = Blocks()
    cdef int32_t *blocks = <int32_t *> memory.alloc(k + 1, sizeof(int32_t))
    cdef bint ok
    for j in range(k):
        if clue[j] < 1:
            raise ValueError("every block needs at least one cell")
        blocks[j] = clue[j]
    for j in range(n):
        if given[j] < 1 or given[j] > 3:
            raise ValueError(f"cell value {given[j]} is not 1, 2 or 3")
    if not bit_parallel:
        narrowed = colour_line_solve(clue, [1] * k, 2, list(given))  # value 1: black
        return None if narrowed is None else bytes(narrowed)
    if n <= BIT_CELLS:
        ok = solve_line_bits(n, blocks, k, <const uint8_t *> given, <uint8_t *> out)
    else:
        ok = solve_line_words(n, blocks, k, <const uint8_t *> given, <uint8_t *> out)
    return bytes(out) if ok else None
