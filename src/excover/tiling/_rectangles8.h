/* The rectangle count on boards of at most 8 x 8 cells: a state's empty cells in one
 * word (included by _rectangles.h, whose text says what a state is).
 *
 * Row r of a region is byte r of a word, column c its bit c, so that the region's
 * mirror images and its transpose are a few word operations each (a byte swap, a bit
 * reversal within bytes, the three-step 8 x 8 transpose) instead of a loop over rows,
 * and its column runs come from its transpose instead of per-cell column words. A
 * state is two words and its count (three with a perimeter target, the budget left
 * third): the region moved to the corner (its box follows
 * from it), and the usable shapes, shape h x w at bit 8 (w - 1) + h - 1 (a shape's
 * quarter turn is the same transpose). Of a region's images (its four mirrors, and
 * with ``turns`` the four of its transpose), a state keeps the least region word among
 * those no taller than wide, then the least shapes word: the same for every image, so
 * states that are images of one another are merged.
 */
#ifndef EXCOVER_RECTANGLES8_H
#define EXCOVER_RECTANGLES8_H

#define EXR8_BYTES 0x0101010101010101ULL

static inline uint64_t exr8_swap(uint64_t x, uint64_t mask, int shift) {
    return ((x >> shift) & mask) | ((x & mask) << shift);
}

/* The rows in reverse order (byte r to byte 7 - r). */
static inline uint64_t exr8_rows_reversed(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(x);
#else
    x = exr8_swap(x, 0x00000000FFFFFFFFULL, 32);
    x = exr8_swap(x, 0x0000FFFF0000FFFFULL, 16);
    return exr8_swap(x, 0x00FF00FF00FF00FFULL, 8);
#endif
}

/* Each row's bits in reverse order (bit c of a byte to bit 7 - c). */
static inline uint64_t exr8_columns_reversed(uint64_t x) {
    x = exr8_swap(x, 0x5555555555555555ULL, 1);
    x = exr8_swap(x, 0x3333333333333333ULL, 2);
    return exr8_swap(x, 0x0F0F0F0F0F0F0F0FULL, 4);
}

/* Bit 8 r + c to bit 8 c + r. */
static inline uint64_t exr8_transposed(uint64_t x) {
    uint64_t y;
    y = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x ^= y ^ (y << 7);
    y = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x ^= y ^ (y << 14);
    y = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    return x ^ y ^ (y << 28);
}

/* The cells of each row's ``w`` first bits on ``h`` rows. */
static inline uint64_t exr8_box(int h, int w) {
    return ((((uint64_t)1) << w) - 1) * (EXR8_BYTES >> (8 * (8 - h)));
}

/* The height and width of a region at the corner (not empty). */
static inline void exr8_size(uint64_t x, int *h, int *w) {
    uint64_t across = x | (x >> 32);
    across |= across >> 16;
    across |= across >> 8;
    *h = (exr_high_bit(x) >> 3) + 1;
    *w = exr_high_bit(across & 255) + 1;
}

/* Whether (region a, shapes sa) comes before (b, sb). */
static inline int exr8_before(uint64_t a, uint64_t sa, uint64_t b, uint64_t sb) {
    return a < b || (a == b && sa < sb);
}

/* The least of the four mirror images of a region of ``h`` rows and ``w`` columns at the
 * corner. */
static inline uint64_t exr8_least_mirror(uint64_t x, int h, int w) {
    uint64_t best = x, image = exr8_rows_reversed(x) >> (8 * (8 - h));
    if (image < best) best = image;
    x = exr8_columns_reversed(x) >> (8 - w);
    if (x < best) best = x;
    image = exr8_rows_reversed(x) >> (8 * (8 - h));
    return image < best ? image : best;
}

/* Append the state of the empty cells ``x`` (``left`` of them, not all) and usable
 * ``shapes``, seen through the image that comes first (the module text says which). */
static inline int exr8_emit(ExrRun *t, uint64_t x, int left, uint64_t shapes, uint64_t count,
                            int budget) {
    uint64_t best, side, turned, fits, key[3], fold = x | (x >> 32);
    int h, w, i;
    if (t->budgeted) {
        /* the region's perimeter, halved, is the least sum of h + w of its tilings */
        i = excover_popcount64(x & (x >> 1) & ~(EXR8_BYTES << 7)) +
            excover_popcount64(x & (x >> 8));
        if (budget < 2 * left - i) return 0;
        shapes &= t->within[budget];
    }
    fold |= fold >> 16;
    fold |= fold >> 8;
    x >>= (excover_ctz64(x) & ~7) + excover_ctz64(fold & 255);
    exr8_size(x, &h, &w);
    best = t->mirrors ? exr8_least_mirror(x, h, w) : x;
    if (t->turns && w <= h) {
        side = exr8_least_mirror(exr8_transposed(x), w, h);
        turned = exr8_transposed(shapes);
        fits = t->fits[h][w][0] & t->small[left];
        if (w < h || exr8_before(side, turned & fits, best, shapes & fits)) {
            best = side;
            shapes = turned;
            i = h;
            h = w;
            w = i;
        }
    }
    key[0] = best;
    key[1] = shapes & t->fits[h][w][0] & t->small[left];
    key[2] = (uint64_t)budget;   /* beyond the state's words when not budgeted */
    return exr_append(t, left, key, count);
}

/* The empty cells of column j from row r on, downward (``dy`` > 0) or upward, with
 * ``columns`` the region's transpose. */
static inline int exr8_empty_run(uint64_t columns, int r, int j, int dy) {
    uint64_t column = (columns >> (8 * j)) & 255, above;
    if (dy > 0) return excover_ctz64(~(column >> r));
    above = ~column & ((((uint64_t)2) << r) - 1);
    return above ? r - exr_high_bit(above) : r + 1;
}

/* The rectangles at the empty cell (r, c) whose sides toward (dx, dy) are closed, up to
 * ``enough``, with ``columns`` the region's transpose (byte c: column c's empty cells)
 * and ``avail`` the heights of the usable shapes per width. */
static inline int exr8_fitting(uint64_t columns, const uint64_t *avail, int r, int c, int dx,
                               int dy, int enough) {
    int found = 0, reach = dy > 0 ? 8 - r : r + 1, w, j, d;
    for (w = 1;; w++) {
        j = c + dx * (w - 1);
        if (j < 0 || j > 7) break;
        d = exr8_empty_run(columns, r, j, dy);
        if (d == 0) break;
        if (d < reach) reach = d;
        found += exr_popcount(avail[w] & ((((uint64_t)2) << reach) - 2));
        if (found >= enough) break;
    }
    return found;
}

/* Expand one state of ``left`` cells (``s``: its words): -1 when a list cannot grow. */
static int exr8_expand(ExrRun *t, int left, const uint64_t *s) {
    uint64_t x = s[0], shapes = s[1], count = s[t->width - 1], columns, avail[9], corners[4];
    uint64_t up, down, leftward, rightward, bits, heights, child;
    int h_box, w_box, r, c, o, w, h, j, d, k, r0, c0, reach, best = 1 << 30, br = 0, bc = 0,
        bo = 0, budget = t->budgeted ? (int)s[2] : 0;
    t->expanded += 1;
    exr8_size(x, &h_box, &w_box);
    for (w = 1; w <= 8; w++) avail[w] = w <= w_box ? ((shapes >> (8 * (w - 1))) & 255) << 1 : 0;
    columns = exr8_transposed(x);
    up = x & ~(x << 8);
    down = x & ~(x >> 8);
    leftward = x & ~((x << 1) & ~EXR8_BYTES);
    rightward = x & ~((x >> 1) & ~(EXR8_BYTES << 7));
    corners[0] = up & leftward;
    corners[1] = up & rightward;
    corners[2] = down & leftward;
    corners[3] = down & rightward;
    /* the corner of fewest rectangles, row by row */
    for (r = 0; r < h_box && best > 0; r++) {
        for (o = 0; o < 4 && best > 0; o++) {
            bits = (corners[o] >> (8 * r)) & 255;
            while (bits) {
                c = excover_ctz64(bits);
                bits &= bits - 1;
                d = exr8_fitting(columns, avail, r, c, exr_dx[o], exr_dy[o], best);
                if (d < best) {
                    best = d;
                    br = r;
                    bc = c;
                    bo = o;
                    if (d == 0) break;
                }
            }
        }
    }
    if (best == 0) return 0;
    reach = exr_dy[bo] > 0 ? 8 - br : br + 1;
    for (w = 1;; w++) {
        j = bc + exr_dx[bo] * (w - 1);
        if (j < 0 || j > 7) break;
        d = exr8_empty_run(columns, br, j, exr_dy[bo]);
        if (d == 0) break;
        if (d < reach) reach = d;
        heights = avail[w] & ((((uint64_t)2) << reach) - 2);
        while (heights) {
            h = excover_ctz64(heights);
            heights &= heights - 1;
            if (exr_covers_last(t, left, h, w, count, budget)) continue;
            k = t->key_of[h][w];
            exr_top_left(br, bc, bo, h, w, &r0, &c0);
            child = x & ~(exr8_box(h, w) << (8 * r0 + c0));
            if (exr8_emit(t, child, left - h * w, shapes & ~t->key_shapes[k], count,
                          budget - h - w) < 0)
                return -1;
        }
    }
    return 0;
}

/* The board's empty cells (row_bits) as a region word. */
static inline uint64_t exr8_board(const ExrRun *t) {
    uint64_t x = 0;
    int r;
    for (r = 0; r < t->rows; r++) x |= (~t->row_bits[r] & t->full) << (8 * r);
    return x;
}

#endif
