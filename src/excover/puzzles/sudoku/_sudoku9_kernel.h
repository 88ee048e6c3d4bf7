/* One kernel of the 9x9 Sudoku core (see _sudoku9.h, which describes the method and
 * includes this file once per instruction set).
 *
 * Before each inclusion _sudoku9.h defines S9_SUFFIX(name), which names this copy's
 * functions (s9_count_avx2, ...), and S9_LEVEL, the instruction set the copy is compiled
 * for (S9_PORTABLE, S9_SSE4, S9_AVX2, S9_AVX512): the same source, with the vector steps
 * written for the widest registers the level has. The names below are defined to their
 * suffixed forms for the length of this file; at its end, they and the two parameters
 * are undefined, ready for the next inclusion.
 */
#define s9_boxes_of S9_SUFFIX(s9_boxes_of)
#define s9_and S9_SUFFIX(s9_and)
#define s9_place S9_SUFFIX(s9_place)
#define s9_put S9_SUFFIX(s9_put)
#define s9_place_singles S9_SUFFIX(s9_place_singles)
#define s9_stack_shrink S9_SUFFIX(s9_stack_shrink)
#define s9_spread_rows S9_SUFFIX(s9_spread_rows)
#define s9_stack_shrink_lanes S9_SUFFIX(s9_stack_shrink_lanes)
#define s9_count3 S9_SUFFIX(s9_count3)
#define s9_fold_rows S9_SUFFIX(s9_fold_rows)
#define s9_rot2 S9_SUFFIX(s9_rot2)
#define s9_rot1 S9_SUFFIX(s9_rot1)
#define s9_open_cells S9_SUFFIX(s9_open_cells)
#define s9_row_triads S9_SUFFIX(s9_row_triads)
#define s9_triads_check S9_SUFFIX(s9_triads_check)
#define s9_triads_moves S9_SUFFIX(s9_triads_moves)
#define s9_column_triads S9_SUFFIX(s9_column_triads)
#define s9_propagate S9_SUFFIX(s9_propagate)
#define s9_start S9_SUFFIX(s9_start)
#define s9_choose S9_SUFFIX(s9_choose)
#define s9_choose_config S9_SUFFIX(s9_choose_config)
#define s9_write S9_SUFFIX(s9_write)
#define s9_count S9_SUFFIX(s9_count)

/* The (row, box) segments of a band word that hold a cell: a 3x3 matrix, bit 3i+k. */
static inline uint32_t s9_boxes_of(uint32_t w) {
#if S9_LEVEL >= S9_AVX512
    /* A segment's three bits ORed into its lowest, those nine bits gathered by PEXT
     * (fast on every CPU with AVX-512; slow on some AMD CPUs with AVX2 only, hence not
     * in the AVX2 kernel): faster than the three look-ups. */
    return _pext_u32(w | (w >> 1) | (w >> 2), 0x1249249u);
#else
    return s9_rowbox[w & 0x1FF] | (s9_rowbox[(w >> 9) & 0x1FF] << 3) | (s9_rowbox[w >> 18] << 6);
#endif
}


/* F[i] &= mask, noting the word dirty when that changed it. */
static inline void s9_and(s9_state *s, uint32_t *dirty, int i, uint32_t mask) {
    uint32_t before = s->F[i], after = before & mask;
    s->F[i] = after;
    *dirty |= (uint32_t)(after != before) << i;
}

/* Puts digit d in the cells of band b (at most one per row, box and column) whose
 * columns in the band are column_cells and whose peers in the band (rows, boxes and
 * columns, without the cells) are peers. */
static inline void s9_put(s9_state *s, uint32_t *dirty, int d, int b, uint32_t bit,
                          uint32_t column_cells, uint32_t peers) {
    int i = 9 * b + d;
    uint32_t column = ~column_cells;
    s9_and(s, dirty, d + (b == 0 ? 9 : 0), column);
    s9_and(s, dirty, d + (b == 2 ? 9 : 18), column);
    /* The cells leave the band's other eight digits; the placed digit keeps them. */
    uint32_t *band = s->F + 9 * b, keep = ~bit, lost = 0;
#if S9_LEVEL >= S9_AVX512
    /* Eight words in one register, tested into a mask at once (no masked store: some
     * CPUs take them slowly); the ninth alone. */
    __m256i had = _mm256_loadu_si256((const __m256i *)band), gone = _mm256_set1_epi32((int)bit);
    lost = (uint32_t)_mm256_test_epi32_mask(had, gone);
    _mm256_storeu_si256((__m256i *)band, _mm256_andnot_si256(gone, had));
    lost |= (uint32_t)((band[8] & bit) != 0) << 8;
    band[8] &= keep;
#elif S9_LEVEL >= S9_AVX2
    /* Eight words in one register, the ninth alone. */
    __m256i had = _mm256_loadu_si256((const __m256i *)band), gone = _mm256_set1_epi32((int)bit);
    __m256i miss = _mm256_cmpeq_epi32(_mm256_and_si256(had, gone), _mm256_setzero_si256());
    lost = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(miss)) ^ 0xFFu;
    _mm256_storeu_si256((__m256i *)band, _mm256_andnot_si256(gone, had));
    lost |= (uint32_t)((band[8] & bit) != 0) << 8;
    band[8] &= keep;
#elif S9_SSE2 || S9_LEVEL >= S9_SSE4
    __m128i mask = _mm_set1_epi32((int)keep), zero = _mm_setzero_si128();
    __m128i lo = _mm_loadu_si128((const __m128i *)band);
    __m128i hi = _mm_loadu_si128((const __m128i *)(band + 4));
    __m128i had_lo = _mm_andnot_si128(mask, lo), had_hi = _mm_andnot_si128(mask, hi);
    _mm_storeu_si128((__m128i *)band, _mm_and_si128(lo, mask));
    _mm_storeu_si128((__m128i *)(band + 4), _mm_and_si128(hi, mask));
    lost = (uint32_t)(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(had_lo, zero))) |
                      (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(had_hi, zero))) << 4)) ^
           0xFFu;
    lost |= (uint32_t)((band[8] & bit) != 0) << 8;
    band[8] &= keep;
#else
    for (int e = 0; e < 9; e++) {
        lost |= (uint32_t)((band[e] & bit) != 0) << e;
        band[e] &= keep;
    }
#endif
    band[d] |= bit;
    *dirty |= lost << (9 * b);
    s9_and(s, dirty, i, ~peers);
    s->U[b] &= keep;
}

/* Puts digit d in the cell at position bit of band b; 0 when d is no longer possible
 * there (a clash with an earlier placement). */
static inline int s9_place(s9_state *s, uint32_t *dirty, int d, int b, uint32_t bit) {
    if (!(s->F[9 * b + d] & bit)) return 0;
    int p = s9_ctz(bit);
    s9_put(s, dirty, d, b, bit, s9_column[p % 9], s9_peers[p]);
    return 1;
}

/* Puts digit d in the cells of band b, the hidden singles of its word after a band
 * shrink (so in it, in different rows and boxes), all at once: the same as placing them
 * one by one, which fails when two share a column; 0 then. */
static inline int s9_place_singles(s9_state *s, uint32_t *dirty, int d, int b, uint32_t cells) {
    uint32_t r0 = cells & 0x1FF, r1 = (cells >> 9) & 0x1FF, r2 = cells >> 18;
    if ((r0 & r1) | (r0 & r2) | (r1 & r2)) return 0;
    uint32_t columns = r0 | r1 | r2, column_cells = columns | (columns << 9) | (columns << 18);
    uint32_t boxes = s9_rowbox[columns];
    uint32_t box_cells = s9_expand[boxes | (boxes << 3) | (boxes << 6)];
    uint32_t row_cells = s9_row_cells[s9_boxes_of(cells)];
    s9_put(s, dirty, d, b, cells, column_cells, (row_cells | box_cells | column_cells) & ~cells);
    return 1;
}

/* The stack shrink of digit d (see the top of the file); 0 at a dead end. */
static inline int s9_stack_shrink(s9_state *s, uint32_t *dirty, int d) {
    const uint32_t *f = s->F + d;
    uint32_t present[3], allowed[3] = {0, 0, 0};
    for (int b = 0; b < 3; b++) {
        uint32_t w = f[9 * b];
        present[b] = (w | (w >> 9) | (w >> 18)) & 0x1FF;
    }
    for (int k = 0; k < 3; k++) {
        uint32_t m = ((present[0] >> (3 * k)) & 7) | (((present[1] >> (3 * k)) & 7) << 3) |
                     (((present[2] >> (3 * k)) & 7) << 6);
        uint32_t counted = s9_support_n[m], support = counted & 0x1FF;
        if (!support) return 0;
        s->seg[27 + 9 * k + d] = (uint16_t)counted;
        for (int b = 0; b < 3; b++) allowed[b] |= ((support >> (3 * b)) & 7) << (3 * k);
    }
    for (int b = 0; b < 3; b++) {
        uint32_t a = allowed[b];
        s9_and(s, dirty, 9 * b + d, a | (a << 9) | (a << 18));
    }
    return 1;
}


#if S9_LEVEL >= S9_AVX2 || S9_SSE2 || S9_LEVEL >= S9_SSE4
/* The stack shrinks of S9_LANES digits at once (8 in AVX2 registers, 4 in SSE2 ones),
 * one digit a lane, the support computed without a table: with P0, P1, P2 the columns a
 * digit may take in each band (9 bits, 3 per stack), a permutation of a stack puts the
 * bands' digit in columns c, c+1, c+2 or c, c+2, c+1 (mod 3, within the stack), so with
 * rot1 and rot2 turning each stack's 3 columns by one and by two, P0 & rot1(P1) &
 * rot2(P2) marks at c the first kind and P0 & rot2(P1) & rot1(P2) the second; their
 * union is band 0's support, their bits count the permutations, and bands 1 and 2 are
 * the same turned round. The same as s9_stack_shrink on each digit (which the portable
 * kernel calls), a digit whose words did not change since its last stack shrink changing
 * nothing. The steps are written once over the vector operations below, which name the
 * intrinsics of the level's width. */
#if S9_LEVEL >= S9_AVX2
#define S9_LANES 8
#define S9_VEC __m256i
#define s9v_and _mm256_and_si256
#define s9v_or _mm256_or_si256
#define s9v_add _mm256_add_epi32
#define s9v_srli _mm256_srli_epi32
#define s9v_slli _mm256_slli_epi32
#define s9v_srl _mm256_srl_epi32
#define s9v_set1 _mm256_set1_epi32
#define s9v_load(p) _mm256_loadu_si256((const __m256i *)(p))
#define s9v_store(p, x) _mm256_storeu_si256((__m256i *)(p), x)
/* The lanes where a and b are equal, a bit a lane. */
#define s9v_same(a, b) \
    ((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b))))
/* 8 words to 8 halfwords at p: pack within each 128-bit half, then join the halves. */
#define s9v_store_halfwords(p, v) \
    _mm_storeu_si128((__m128i *)(p), \
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 8)))
#else
#define S9_LANES 4
#define S9_VEC __m128i
#define s9v_and _mm_and_si128
#define s9v_or _mm_or_si128
#define s9v_add _mm_add_epi32
#define s9v_srli _mm_srli_epi32
#define s9v_slli _mm_slli_epi32
#define s9v_srl _mm_srl_epi32
#define s9v_set1 _mm_set1_epi32
#define s9v_load(p) _mm_loadu_si128((const __m128i *)(p))
#define s9v_store(p, x) _mm_storeu_si128((__m128i *)(p), x)
#define s9v_same(a, b) ((uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b))))
/* 4 words to 4 halfwords at p (below 0x8000: a signed pack does). */
#define s9v_store_halfwords(p, v) _mm_storel_epi64((__m128i *)(p), _mm_packs_epi32(v, v))
#endif
/* Every lane. */
#define S9_ALL_LANES ((1u << S9_LANES) - 1)

static inline S9_VEC s9_rot1(S9_VEC x) {
    return s9v_or(s9v_and(s9v_srli(x, 1), s9v_set1(0xDB)),
                  s9v_and(s9v_slli(x, 2), s9v_set1(0x124)));
}

static inline S9_VEC s9_rot2(S9_VEC x) {
    return s9v_or(s9v_and(s9v_srli(x, 2), s9v_set1(0x49)),
                  s9v_and(s9v_slli(x, 1), s9v_set1(0x1B6)));
}

/* A 9-bit value copied to the three rows of a band word. */
static inline S9_VEC s9_spread_rows(S9_VEC x) {
    return s9v_or(s9v_or(x, s9v_slli(x, 9)), s9v_slli(x, 18));
}

static inline S9_VEC s9_fold_rows(S9_VEC w) {
    return s9v_and(s9v_or(s9v_or(w, s9v_srli(w, 9)), s9v_srli(w, 18)), s9v_set1(0x1FF));
}

/* Each 3-bit group of x counted (0-3), lane by lane. */
static inline S9_VEC s9_count3(S9_VEC x) {
    S9_VEC one = s9v_set1(1);
    return s9v_add(s9v_add(s9v_and(x, one), s9v_and(s9v_srli(x, 1), one)),
                   s9v_and(s9v_srli(x, 2), one));
}

/* The stack shrinks of digits h to h + S9_LANES - 1. 0 at a dead end. */
static inline int s9_stack_shrink_lanes(s9_state *s, uint32_t *dirty, int h) {
    S9_VEC w0 = s9v_load(s->F + h);
    S9_VEC w1 = s9v_load(s->F + 9 + h);
    S9_VEC w2 = s9v_load(s->F + 18 + h);
    S9_VEC p0 = s9_fold_rows(w0), p1 = s9_fold_rows(w1), p2 = s9_fold_rows(w2);
    S9_VEC r1p0 = s9_rot1(p0), r2p0 = s9_rot2(p0), r1p1 = s9_rot1(p1), r2p1 = s9_rot2(p1);
    S9_VEC r1p2 = s9_rot1(p2), r2p2 = s9_rot2(p2);
    S9_VEC cyclic = s9v_and(p0, s9v_and(r1p1, r2p2));
    S9_VEC anti = s9v_and(p0, s9v_and(r2p1, r1p2));
    S9_VEC s0 = s9v_or(cyclic, anti);
    S9_VEC s1 = s9v_and(p1, s9v_or(s9v_and(r1p2, r2p0), s9v_and(r2p2, r1p0)));
    S9_VEC s2 = s9v_and(p2, s9v_or(s9v_and(r1p0, r2p1), s9v_and(r2p0, r1p1)));
    /* Every stack needs a permutation: band 0's support meets each stack. */
    S9_VEC meets = s9v_and(s9v_or(s9v_or(s0, s9v_srli(s0, 1)), s9v_srli(s0, 2)), s9v_set1(0x49));
    if (s9v_same(meets, s9v_set1(0x49)) != S9_ALL_LANES)
        return 0;
    /* The words keep the supported columns of every row. */
    S9_VEC a0 = s9_spread_rows(s0);
    S9_VEC a1 = s9_spread_rows(s1);
    S9_VEC a2 = s9_spread_rows(s2);
    S9_VEC n0 = s9v_and(w0, a0), n1 = s9v_and(w1, a1);
    S9_VEC n2 = s9v_and(w2, a2);
    uint32_t c0 = s9v_same(n0, w0), c1 = s9v_same(n1, w1), c2 = s9v_same(n2, w2);
    s9v_store(s->F + h, n0);
    s9v_store(s->F + 9 + h, n1);
    s9v_store(s->F + 18 + h, n2);
    *dirty |= ((c0 ^ S9_ALL_LANES) | ((c1 ^ S9_ALL_LANES) << 9) | ((c2 ^ S9_ALL_LANES) << 18)) << h;
    /* Each stack's matrices (bit 3 * band + column) with their numbers of permutations,
     * as s9_support_n gives them. */
    for (int k = 0; k < 3; k++) {
        __m128i shift = _mm_cvtsi32_si128(3 * k); /* a count in a register: MSVC too */
        S9_VEC seven = s9v_set1(7);
        S9_VEC b0 = s9v_and(s9v_srl(s0, shift), seven);
        S9_VEC b1 = s9v_and(s9v_srl(s1, shift), seven);
        S9_VEC b2 = s9v_and(s9v_srl(s2, shift), seven);
        S9_VEC m = s9v_or(s9v_or(b0, s9v_slli(b1, 3)), s9v_slli(b2, 6));
        S9_VEC n = s9v_add(s9_count3(s9v_and(s9v_srl(cyclic, shift), seven)),
                           s9_count3(s9v_and(s9v_srl(anti, shift), seven)));
        S9_VEC v = s9v_or(m, s9v_slli(n, 12));
        s9v_store_halfwords(s->seg + 27 + 9 * k + h, v);
    }
    return 1;
}
#undef S9_ALL_LANES
#undef s9v_store_halfwords
#undef s9v_same
#undef s9v_store
#undef s9v_load
#undef s9v_set1
#undef s9v_srl
#undef s9v_slli
#undef s9v_srli
#undef s9v_add
#undef s9v_or
#undef s9v_and
#undef S9_VEC
#undef S9_LANES
#endif

static inline int s9_open_cells(const s9_state *s) {
    uint32_t u0 = s->U[0], u1 = s->U[1], u2 = s->U[2];
    return s9_popcount(u0) + s9_popcount(u1) + s9_popcount(u2);
}

/* Triads. The 3 cells of a row inside a box (a row segment) hold 3 different digits, so
 * exactly 3 digits go through each segment; the same for the 3 cells of a column inside
 * a box (a column segment). A digit is sure to go through a segment when its row (or
 * column) has no other one in that box, which is when its row of the unit's matrix has
 * one bit: the band's (row, box) matrix seg[9 * band + digit], the stack's (band,
 * column) matrix seg[27 + 9 * stack + digit]; both are their own support at a fixed
 * point of the shrinks. Fewer than 3 digits possible in a segment or more than 3 sure is
 * a dead end; with 3 sure, the others leave the segment; with only 3 possible, each is
 * sure to go through it, and leaves the other segments of its row (column) in the box.
 * This is what tdoku's triads give, here looked at only once the other deductions are
 * done, and only on grids with S9_TRIADS_OPEN open cells or more. */

/* Whether the triads of the 9 matrices x[0..8] of a band or a stack say anything: -1 a
 * dead end, 1 something to strike out, 0 nothing (the most common answer by far).
 * Each matrix adds its bits (and, in a second sum, those of its rows with one bit) to 9
 * counters of 4 bits (s9_nibbles), so that the 9 segments are compared at once. */
static inline int s9_triads_check(const uint16_t *x) {
    uint64_t possible = 0, sure = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t m = x[d] & 0x1FF;
        possible += s9_nibbles[m];
        sure += s9_nibbles[s9_lone_rows[m]];
    }
    /* A counter c (at most 9) is >= 3 when c + 5 sets its top bit, >= 4 when c + 4 does. */
    const uint64_t high = 0x888888888ull;
    uint64_t p3 = (possible + 0x555555555ull) & high, p4 = (possible + 0x444444444ull) & high;
    uint64_t s3 = (sure + 0x555555555ull) & high, s4 = (sure + 0x444444444ull) & high;
    if ((p3 != high) | (s4 != 0)) return -1;
    return ((s3 & p4) | (p3 & ~p4 & ~s3)) != 0;
}

/* For each digit d of the 9 matrices x[0..8], the segments it leaves (out[d]) and those
 * it is sure to go through from now on (in[d]), bits 3i+k of its matrix. */
static inline void s9_triads_moves(const uint16_t *x, uint32_t *out, uint32_t *in) {
    uint32_t sure[9];
    uint32_t p1 = 0, p2 = 0, p3 = 0, p4 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t m = x[d] & 0x1FF, y = sure[d] = s9_lone_rows[m];
        p4 |= p3 & m; p3 |= p2 & m; p2 |= p1 & m; p1 |= m;
        s3 |= s2 & y; s2 |= s1 & y; s1 |= y;
    }
    uint32_t full = s3, exact = p3 & ~p4;
    for (int d = 0; d < 9; d++) {
        uint32_t loose = x[d] & 0x1FF & ~sure[d];
        out[d] = full & loose;
        in[d] = exact & loose;
    }
}

/* The row triads of band b; 0 at a dead end. */
static inline int s9_row_triads(s9_state *s, uint32_t *dirty, int b) {
    const uint16_t *x = s->seg + 9 * b;
    int c = s9_triads_check(x);
    if (c <= 0) return c + 1;
    uint32_t out[9], in[9];
    s9_triads_moves(x, out, in);
    for (int d = 0; d < 9; d++)
        if (out[d] | in[d])
            s9_and(s, dirty, 9 * b + d,
                   ~s9_expand[out[d]] & (s9_expand[in[d]] | ~s9_row_cells[in[d]]));
    return 1;
}

/* The column triads of stack k; 0 at a dead end. */
static inline int s9_column_triads(s9_state *s, uint32_t *dirty, int k) {
    const uint16_t *x = s->seg + 27 + 9 * k;
    int c = s9_triads_check(x);
    if (c <= 0) return c + 1;
    uint32_t out[9], in[9];
    s9_triads_moves(x, out, in);
    const uint32_t *column = s9_column + 3 * k;
    uint32_t stack = column[0] | column[1] | column[2];
    for (int d = 0; d < 9; d++) {
        if (!(out[d] | in[d])) continue;
        for (int b = 0; b < 3; b++) {
            uint32_t o = (out[d] >> (3 * b)) & 7, n = (in[d] >> (3 * b)) & 7;
            if (!(o | n)) continue;
            uint32_t mask = ~0u;
            for (int j = 0; j < 3; j++)
                if ((o >> j) & 1) mask &= ~column[j];
            if (n) mask &= ~stack | column[s9_ctz(n)];
            s9_and(s, dirty, 9 * b + d, mask);
        }
    }
    return 1;
}

/* Applies the deductions until none changes anything; 0 at a dead end. */
static int s9_propagate(s9_state *s) {
    uint32_t dirty_word = s->dirty, *dirty = &dirty_word;
    for (;;) {
        uint32_t shrunk = 0; /* the words shrunk, whose digits need a stack shrink */
        /* In waves: the band shrinks of all the words dirty now (each changes only its
         * own word), then the hidden singles they found, placed; the words that changes
         * make the next wave. Placing each word's singles at once instead made the next
         * words' shrinks see a grid that kept changing, and shrank a word twice on
         * average in one propagation (four times on the 17-clue puzzles). */
        while (*dirty) {
            uint32_t wave = *dirty, found = 0, singles_of[27];
            *dirty = 0;
            shrunk |= wave;
            do {
                int i = s9_ctz(wave);
                wave &= wave - 1;
                uint32_t w = s->F[i];
                uint32_t boxes = s9_boxes_of(w);
                uint32_t counted = s9_support_n[boxes], support = counted & 0x1FF;
                if (!support) return 0;
                w &= s9_expand[support];
                s->F[i] = w;
                s->seg[i] = (uint16_t)counted;
                /* The rows with one cell (every row has one at least, the support meeting
                 * them all): x & (x - 1) clears a row's lowest cell, and a row whose
                 * remainder is not 0 sets its bit 8 when its low 8 bits are added to 0xFF. */
                uint32_t rest = w & (w - 0x40201u);
                uint32_t more = (((rest & 0x3FDFEFFu) + 0x3FDFEFFu) | rest) & 0x4020100u;
                uint32_t singles = w & ~((more - (more >> 8)) | more) & s->U[s9_band_of[i]];
                singles_of[i] = singles;
                found |= (uint32_t)(singles != 0) << i;
            } while (wave);
            while (found) {
                int i = s9_ctz(found);
                found &= found - 1;
                uint32_t singles = singles_of[i];
                /* A single placed since may have taken one of these cells: then its row
                 * has none left for the digit, a dead end. */
                if ((s->F[i] & singles) != singles) return 0;
                if (singles & (singles - 1)) {
                    if (!s9_place_singles(s, dirty, s9_digit_of[i], s9_band_of[i], singles))
                        return 0;
                } else if (!s9_place(s, dirty, s9_digit_of[i], s9_band_of[i], singles)) {
                    return 0;
                }
            }
        }
        uint32_t digits = (shrunk | (shrunk >> 9) | (shrunk >> 18)) & 0x1FF;
#if S9_LEVEL >= S9_AVX2
        if ((digits & 0xFF) && !s9_stack_shrink_lanes(s, dirty, 0)) return 0;
        if ((digits & 0x100) && !s9_stack_shrink(s, dirty, 8)) return 0;
#elif S9_SSE2 || S9_LEVEL >= S9_SSE4
        if ((digits & 0xF) && !s9_stack_shrink_lanes(s, dirty, 0)) return 0;
        if ((digits & 0xF0) && !s9_stack_shrink_lanes(s, dirty, 4)) return 0;
        if ((digits & 0x100) && !s9_stack_shrink(s, dirty, 8)) return 0;
#else
        while (digits) {
            int d = s9_ctz(digits);
            digits &= digits - 1;
            if (!s9_stack_shrink(s, dirty, d)) return 0;
        }
#endif
        if (*dirty) continue;
        if (!(s->U[0] | s->U[1] | s->U[2])) {
            s->dirty = 0;
            return 1; /* every cell placed, no clash */
        }
        int placed = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t ones = 0, twos = 0;
            for (int e = 9 * b; e < 9 * b + 9; e++) {
                twos |= ones & s->F[e];
                ones |= s->F[e];
            }
            if (ones != S9_FULL27) return 0;
            uint32_t naked = ones & ~twos & s->U[b];
            while (naked) {
                uint32_t bit = naked & (0u - naked);
                naked ^= bit;
                /* An earlier naked single of the band may have taken its one digit (the
                 * two were peers): then it has none left, a dead end. */
                int d = 0;
                while (d < 9 && !(s->F[9 * b + d] & bit)) d++;
                if (d == 9 || !s9_place(s, dirty, d, b, bit)) return 0;
                placed = 1;
            }
        }
        if (placed) continue;
        if (s9_open_cells(s) < S9_TRIADS_OPEN) {
            s->dirty = 0;
            return 1;
        }
        for (int b = 0; b < 3; b++)
            if (!s9_row_triads(s, dirty, b)) return 0;
        if (*dirty) continue;
        for (int k = 0; k < 3; k++)
            if (!s9_column_triads(s, dirty, k)) return 0;
        if (!*dirty) {
            s->dirty = 0;
            return 1;
        }
    }
}

/* The state of a puzzle's givens (values 0..9 row by row, 0 a blank), propagated;
 * 0 when the givens clash or propagation finds a dead end. */
static int s9_start(s9_state *s, const uint8_t *grid) {
    uint32_t given[28] = {0}, all[3] = {0, 0, 0};
    /* The cells of each given digit in each band, without a branch per cell (which
     * mispredicted on about every other cell: a tenth of the time of an easy puzzle). */
#if S9_LEVEL >= S9_AVX2
    /* A band's 27 values in one register (band 2's read from byte 49, so as not to read
     * past the grid), compared with each digit at once. */
    __m256i band0 = _mm256_loadu_si256((const __m256i *)grid);
    __m256i band1 = _mm256_loadu_si256((const __m256i *)(grid + 27));
    __m256i band2 = _mm256_loadu_si256((const __m256i *)(grid + 49));
    for (int d = 0; d < 9; d++) {
        __m256i v = _mm256_set1_epi8((char)(d + 1));
        given[d] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(band0, v)) & S9_FULL27;
        given[9 + d] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(band1, v)) & S9_FULL27;
        given[18 + d] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(band2, v)) >> 5;
    }
#elif S9_SSE2 || S9_LEVEL >= S9_SSE4
    static const int from[3][2] = {{0, 16}, {27, 43}, {49, 65}};
    for (int b = 0; b < 3; b++) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(grid + from[b][0]));
        __m128i hi = _mm_loadu_si128((const __m128i *)(grid + from[b][1]));
        for (int d = 0; d < 9; d++) {
            __m128i v = _mm_set1_epi8((char)(d + 1));
            uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, v)) |
                         ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, v)) << 16);
            given[9 * b + d] = b == 2 ? m >> 5 : m & S9_FULL27;
        }
    }
#else
    for (int b = 0; b < 3; b++)
        for (int p = 0; p < 27; p++) {
            int v = grid[27 * b + p];
            given[v ? 9 * b + v - 1 : 27] |= 1u << p; /* blanks into the spare word */
        }
    given[27] = 0;
#endif
    for (int b = 0; b < 3; b++) {
        for (int d = 0; d < 9; d++) all[b] |= given[9 * b + d];
        s->U[b] = S9_FULL27 & ~all[b];
    }
    /* Each digit's givens at once: their rows, boxes and columns lose the digit. Two of
     * them in one row, box or column clash: then the rows, boxes or columns they touch
     * are fewer than they are. */
    for (int d = 0; d < 9; d++) {
        uint32_t band_columns[3], columns = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t g = given[9 * b + d];
            uint32_t r0 = g & 0x1FF, r1 = (g >> 9) & 0x1FF, r2 = g >> 18;
            uint32_t m = s9_boxes_of(g); /* (row, box) pairs */
            uint32_t c = band_columns[b] = r0 | r1 | r2;
            int row_clash = (s9_single[r0] != r0) | (s9_single[r1] != r1) | (s9_single[r2] != r2);
            uint32_t column_clash = (r0 & r1) | (r0 & r2) | (r1 & r2) | (c & columns);
            uint32_t box_clash = ((m & (m >> 3)) | (m & (m >> 6)) | ((m >> 3) & (m >> 6))) & 7;
            if (row_clash | column_clash | box_clash) return 0;
            columns |= c;
        }
        uint32_t column_cells = columns | (columns << 9) | (columns << 18);
        for (int b = 0; b < 3; b++) {
            uint32_t g = given[9 * b + d], boxes = s9_rowbox[band_columns[b]];
            uint32_t rows = s9_row_cells[s9_boxes_of(g)];
            uint32_t box_cells = s9_expand[boxes | (boxes << 3) | (boxes << 6)];
            s->F[9 * b + d] = (S9_FULL27 & ~all[b] & ~rows & ~box_cells & ~column_cells) | g;
        }
    }
    s->F[27] = 0;
    s->dirty = S9_FULL27;
    return s9_propagate(s);
}

/* Chooses the cell to branch on: its band, its bit, and its digits (bit d). */
static inline void s9_choose(const s9_state *s, int *band, uint32_t *bit, uint32_t *digits) {
    int best = 10;
    for (int b = 0; b < 3; b++) {
        uint32_t ones = 0, twos = 0, threes = 0;
        for (int e = 9 * b; e < 9 * b + 9; e++) {
            uint32_t x = s->F[e];
            threes |= twos & x;
            twos |= ones & x;
            ones |= x;
        }
        uint32_t pairs = twos & ~threes & s->U[b];
        if (pairs) {
            *band = b;
            *bit = pairs & (0u - pairs);
            best = 2;
            break;
        }
    }
    if (best > 2) {
        for (int b = 0; b < 3; b++) {
            uint32_t open = s->U[b];
            while (open) {
                uint32_t x = open & (0u - open);
                open ^= x;
                int n = 0;
                for (int e = 9 * b; e < 9 * b + 9; e++) n += (s->F[e] & x) != 0;
                if (n < best) {
                    best = n;
                    *band = b;
                    *bit = x;
                }
            }
        }
    }
    uint32_t mask = 0;
    for (int d = 0; d < 9; d++)
        if (s->F[9 * *band + d] & *bit) mask |= 1u << d;
    *digits = mask;
}


/* Chooses where to branch: among the 3 bands and the 3 stacks (the bands only on grids
 * with fewer than S9_STACKS_OPEN open cells), the one whose digits
 * have the fewest configurations in all, and in it the digit with the fewest (at least
 * 2), the first in order on ties (as tdoku does, bands and stacks alike). *word is
 * 9 * unit + digit, units 0-2 the bands and 3-5 the stacks (an index into seg), *perms
 * the configurations (bit q: s9_perm[q]); 0 when every digit has one configuration in
 * every band and every stack. Each digit of a unit gets a key, its number of
 * configurations (15 for fewer than 2) then the digit, and the least is kept; each unit
 * gets a key, its total, then the unit, then its least digit key, and the least is
 * kept. The numbers of configurations are in the top bits of seg (s9_support_n). */
static inline int s9_choose_config(const s9_state *s, int *word, uint32_t *perms) {
    uint32_t best = ~0u;
#if S9_LEVEL >= S9_SSE4
    /* Digits 0-7 in one register (PHMINPOSUW finds the least key), the ninth alone. */
    const __m128i digit = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i one = _mm_set1_epi16(1), fifteen = _mm_set1_epi16(15);
#endif
    int units = s9_open_cells(s) >= S9_STACKS_OPEN ? 6 : 3;
    for (int u = 0; u < units; u++) {
        const uint16_t *x = s->seg + 9 * u;
        uint32_t n8 = (uint32_t)x[8] >> 12;
        uint32_t total = n8, fewest = ((n8 < 2 ? 15u : n8) << 4) | 8u;
#if S9_LEVEL >= S9_SSE4
        __m128i n = _mm_srli_epi16(_mm_loadu_si128((const __m128i *)x), 12);
        __m128i few = _mm_or_si128(n, _mm_andnot_si128(_mm_cmpgt_epi16(n, one), fifteen));
        __m128i keys = _mm_or_si128(_mm_slli_epi16(few, 4), digit);
        uint32_t least = (uint32_t)_mm_cvtsi128_si32(_mm_minpos_epu16(keys)) & 0xFFFF;
        fewest = least < fewest ? least : fewest;
        __m128i sum = _mm_add_epi16(n, _mm_srli_si128(n, 8));
        sum = _mm_add_epi16(sum, _mm_srli_si128(sum, 4));
        sum = _mm_add_epi16(sum, _mm_srli_si128(sum, 2));
        total += (uint32_t)_mm_cvtsi128_si32(sum) & 0xFFFF;
#else
        for (int d = 0; d < 8; d++) {
            uint32_t c = (uint32_t)x[d] >> 12;
            total += c;
            uint32_t key = ((c < 2 ? 15u : c) << 4) | (uint32_t)d;
            fewest = key < fewest ? key : fewest;
        }
#endif
        uint32_t key = fewest < 0xF0 ? (total << 12) | ((uint32_t)u << 8) | fewest : ~0u;
        best = key < best ? key : best;
    }
    if (best == ~0u) return 0;
    int w = 9 * (int)((best >> 8) & 0xF) + (int)(best & 0xF);
    *word = w;
    *perms = s9_permset[s->seg[w] & 0x1FF];
    return 1;
}

static inline void s9_write(const s9_state *s, uint8_t *out) {
#if S9_LEVEL >= S9_AVX2
    /* Each word's 27 bits spread to bytes (0xFF where set), its digit kept there; a
     * band's 27 values in one register, into a buffer of whole registers. */
    uint8_t values[96];
    const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
                                          2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bits = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    for (int b = 0; b < 3; b++) {
        __m256i acc = _mm256_setzero_si256();
        for (int d = 0; d < 9; d++) {
            __m256i w = _mm256_shuffle_epi8(_mm256_set1_epi32((int)s->F[9 * b + d]), pick);
            __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(w, bits), bits);
            acc = _mm256_or_si256(acc, _mm256_and_si256(set, _mm256_set1_epi8((char)(d + 1))));
        }
        _mm256_storeu_si256((__m256i *)(values + 27 * b), acc);
    }
    memcpy(out, values, 81);
#else
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++) {
            uint32_t w = s->F[9 * b + d];
            while (w) {
                out[27 * b + s9_ctz(w)] = (uint8_t)(d + 1);
                w &= w - 1;
            }
        }
#endif
}

/* Counts the solutions of one puzzle up to limit (>= 1), writing the first into out
 * (81 values) when there is one. check() is called every S9_CHECK_EVERY branchings and
 * stops the search with S9_INTERRUPTED when it returns nonzero; *ticks paces it across
 * puzzles. *guesses gains the number of branchings. */
static long s9_count(const uint8_t *grid, long limit, uint8_t *out, int (*check)(void),
                     long *ticks, long *guesses) {
    s9_state levels[S9_LEVELS];
    int band[S9_LEVELS], kind[S9_LEVELS];
    uint32_t bit[S9_LEVELS], left[S9_LEVELS];
    long count = 0;
    int depth = 0;
    if (!s9_start(&levels[0], grid)) return 0;
    left[0] = 0;
    int alive = 1; /* levels[depth] is a propagated state not examined yet */
    for (;;) {
        if (alive) {
            s9_state *s = &levels[depth];
            if (s->U[0] | s->U[1] | s->U[2]) {
                kind[depth] = s9_choose_config(s, &band[depth], &left[depth]);
                if (!kind[depth]) s9_choose(s, &band[depth], &bit[depth], &left[depth]);
            } else {
                if (count == 0) s9_write(s, out);
                if (++count >= limit) return count;
                alive = 0;
            }
        }
        if (!alive) {
            while (left[depth] == 0) {
                if (depth == 0) return count;
                depth--;
            }
        }
        if (++*ticks >= S9_CHECK_EVERY) {
            *ticks = 0;
            if (check && check()) return S9_INTERRUPTED;
        }
        ++*guesses;
        uint32_t digits = left[depth];
        int d = s9_ctz(digits), b = band[depth], by_config = kind[depth];
        uint32_t x = bit[depth];
        left[depth] = digits & (digits - 1);
        if (left[depth]) { /* copy for all branches but the last, tried in place */
            levels[depth + 1] = levels[depth];
            left[++depth] = 0;
        }
        s9_state *s = &levels[depth];
        if (by_config && b >= 27) {
            /* Stack k's configuration d for digit e: each band keeps, in the stack, only
             * the column the configuration gives it. */
            int k = (b - 27) / 9, e = (b - 27) % 9;
            uint32_t stack = s9_column[3 * k] | s9_column[3 * k + 1] | s9_column[3 * k + 2];
            for (int bb = 0; bb < 3; bb++) {
                int j = s9_ctz((s9_perm[d] >> (3 * bb)) & 7);
                s9_and(s, &s->dirty, 9 * bb + e, ~stack | s9_column[3 * k + j]);
            }
            alive = s9_propagate(s);
        } else if (by_config) {
            s9_and(s, &s->dirty, b, s9_expand[s9_perm[d]]);
            alive = s9_propagate(s);
        } else {
            alive = s9_place(s, &s->dirty, d, b, x) && s9_propagate(s);
        }
    }
}

#undef s9_boxes_of
#undef s9_and
#undef s9_place
#undef s9_put
#undef s9_place_singles
#undef s9_stack_shrink
#undef s9_spread_rows
#undef s9_stack_shrink_lanes
#undef s9_count3
#undef s9_fold_rows
#undef s9_rot2
#undef s9_rot1
#undef s9_open_cells
#undef s9_row_triads
#undef s9_triads_check
#undef s9_triads_moves
#undef s9_column_triads
#undef s9_propagate
#undef s9_start
#undef s9_choose
#undef s9_choose_config
#undef s9_write
#undef s9_count
#undef S9_SUFFIX
#undef S9_LEVEL
