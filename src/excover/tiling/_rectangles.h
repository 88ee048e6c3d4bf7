/* The tilings of a box by rectangles whose keys are all different, counted by their
 * states (the compiled core of excover.tiling.rectangles; its module text says why).
 *
 * A *state* is what a partial tiling leaves to tile: the cells still empty, moved to the
 * top-left corner of their bounding box, and the *usable shapes*: the shapes of the keys
 * still free that fit that box in at most as many cells as are left (no other shape can
 * be placed any more, so they alone decide the count). States are kept by the number of
 * cells they leave, in one list of requests per number; the list of the largest number
 * is merged (equal states' counts added) and each distinct state is expanded: its
 * rectangles are tried at the empty corner cell (two of its sides closed) where the
 * fewest fit, and each leaves a smaller state, appended to its list, or covers the
 * state's last cells, a tiling. Lists are freed once expanded.
 *
 * Words of a state: the bounding box's cells row by row (``rw`` words, the box's height
 * and width in the top 16 bits of the last one), the usable shapes (``kw`` words, shape
 * h x w at bit (w - 1) * rows + h - 1, so that the heights of one width are one run of
 * bits), with a perimeter target the budget left (one word: the sum of h + w the
 * rectangles still to place must make), the count. A board of at most 8 x 8 cells keeps
 * its states in fewer words (_rectangles8.h).
 */
#ifndef EXCOVER_RECTANGLES_H
#define EXCOVER_RECTANGLES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_portable.h"

#define EXR_MAX_SIDE 62
#define EXR_MAX_RW 4
#define EXR_MAX_KW 4
#define EXR_MAX_KEYS (64 * EXR_MAX_KW)
#define EXR_MAX_WORDS (EXR_MAX_RW + EXR_MAX_KW + 1)

#if defined(__GNUC__) || defined(__clang__)
#define EXR_PREFETCH(p) __builtin_prefetch(p)
#else
#define EXR_PREFETCH(p) ((void)0)
#endif

static inline int exr_high_bit(uint64_t x) { /* x != 0 */
#if defined(_MSC_VER) && !defined(__clang__)
    unsigned long index;
    _BitScanReverse64(&index, x);
    return (int)index;
#else
    return 63 - __builtin_clzll(x);
#endif
}

/* The bits set in each byte value: the count of free shapes at a corner, whose heights
 * fit 16 bits on any box a count finishes on, takes two look-ups where the compiler may
 * not use the popcount instruction (the builtin then calls a library routine). */
static const uint8_t exr_bits_in[256] = {
#define EXR_B2(n) n, n + 1, n + 1, n + 2
#define EXR_B4(n) EXR_B2(n), EXR_B2(n + 1), EXR_B2(n + 1), EXR_B2(n + 2)
#define EXR_B6(n) EXR_B4(n), EXR_B4(n + 1), EXR_B4(n + 1), EXR_B4(n + 2)
    EXR_B6(0), EXR_B6(1), EXR_B6(1), EXR_B6(2)
#undef EXR_B2
#undef EXR_B4
#undef EXR_B6
};

static inline int exr_popcount(uint64_t x) {
#if defined(__POPCNT__)
    return excover_popcount64(x);
#else
    if (x < 65536) return exr_bits_in[x & 255] + exr_bits_in[x >> 8];
    return excover_popcount64(x);
#endif
}

/* States are kept in blocks of EXR_BLOCK states, taken from a pool and given back to it
 * once their list is expanded: lists never move, and memory once touched is reused. */
#define EXR_BLOCK_SHIFT 12
#define EXR_BLOCK (1 << EXR_BLOCK_SHIFT)

typedef struct {
    uint64_t **blocks;  /* n states of ``width`` words */
    int64_t n, n_blocks, cap_blocks;
} ExrList;

typedef struct {
    /* the problem */
    int rows, cols, rw, kw, width, n_keys;
    int board8;         /* at most 8 x 8: states as words (_rectangles8.h) */
    int stride;         /* shape h x w at bit (w - 1) * stride + h - 1 */
    int key_of[EXR_MAX_SIDE + 1][EXR_MAX_SIDE + 1];    /* -1: shape not allowed */
    uint64_t *key_shapes;   /* per key, its shapes (``kw`` words) */
    uint64_t fits[EXR_MAX_SIDE + 1][EXR_MAX_SIDE + 1][EXR_MAX_KW]; /* shapes fitting a box */
    uint64_t *small;    /* per number of cells: the shapes of at most that many cells */
    /* the board being expanded: filled cells by row and by column */
    uint64_t full, column_full;
    uint64_t row_bits[EXR_MAX_SIDE + 2], col_bits[EXR_MAX_SIDE + 1];
    uint64_t avail[EXR_MAX_SIDE + 2];   /* per width: the heights of the usable shapes */
    uint8_t rev8[256];  /* each byte's bits reversed */
    int mirrors;        /* states merged with their mirror images (see exr_emit) */
    int turns;          /* and with their quarter turns */
    int *turned_shape;  /* per shape: the shape turned a quarter */
    /* a perimeter target (``budgeted``): the sum of h + w over the tiling's rectangles
     * must be ``target``; a state keeps what is left of it, one word after its shapes */
    int budgeted, target;
    uint64_t *within;   /* per budget b <= target: the shapes with h + w <= b (kw words) */
    /* the lists, by cells left */
    ExrList *lists;
    uint64_t **pool;    /* blocks given back */
    int64_t pooled, pool_cap;
    uint64_t *slots;    /* the merge table */
    int64_t slot_cap;
    /* accounting */
    int64_t bytes, max_bytes;   /* max_bytes 0: no bound */
    int over_bytes, overflow;
    uint64_t tilings;   /* found so far (times their weights) */
    int64_t states, expanded, merged;
} ExrRun;

static inline int exr_grow(ExrRun *t, int64_t more) {
    if (t->max_bytes && t->bytes + more > t->max_bytes) {
        t->over_bytes = 1;
        return -1;
    }
    t->bytes += more;
    return 0;
}

/* State ``i`` of the list of ``left``. */
static inline uint64_t *exr_state(const ExrRun *t, int left, int64_t i) {
    return t->lists[left].blocks[i >> EXR_BLOCK_SHIFT] + (i & (EXR_BLOCK - 1)) * t->width;
}

/* A block for a list: from the pool, or new. NULL when memory runs out or is bounded. */
static uint64_t *exr_take_block(ExrRun *t) {
    uint64_t *block;
    if (t->pooled > 0) return t->pool[--t->pooled];
    if (exr_grow(t, (int64_t)EXR_BLOCK * t->width * 8) < 0) return NULL;
    block = (uint64_t *)malloc((size_t)EXR_BLOCK * t->width * 8);
    if (block == NULL) t->bytes -= (int64_t)EXR_BLOCK * t->width * 8;
    return block;
}

/* Append a state (``key``: width - 1 words) with ``count`` to the list of ``left``. */
static inline int exr_append(ExrRun *t, int left, const uint64_t *key, uint64_t count) {
    ExrList *l = &t->lists[left];
    uint64_t *to;
    int w;
    if (l->n == l->n_blocks * EXR_BLOCK) {
        if (l->n_blocks == l->cap_blocks) {
            int64_t cap = l->cap_blocks ? 2 * l->cap_blocks : 16;
            uint64_t **grown = (uint64_t **)realloc(l->blocks, (size_t)cap * sizeof(uint64_t *));
            if (grown == NULL) return -1;
            l->blocks = grown;
            l->cap_blocks = cap;
        }
        l->blocks[l->n_blocks] = exr_take_block(t);
        if (l->blocks[l->n_blocks] == NULL) return -1;
        l->n_blocks += 1;
    }
    to = exr_state(t, left, l->n);
    for (w = 0; w < t->width - 1; w++) to[w] = key[w];
    to[t->width - 1] = count;
    l->n += 1;
    return 0;
}

/* The bits of x's low ``w`` bits in reverse order (``rev8``: each byte reversed). */
static inline uint64_t exr_reversed(const uint8_t *rev8, uint64_t x, int w) {
    uint64_t r = 0;
    int i, bytes = (w + 7) >> 3;
    for (i = 0; i < bytes; i++) r = (r << 8) | rev8[(x >> (8 * i)) & 255];
    return r >> (8 * bytes - w);
}

/* A box of ``h`` rows and its four mirror images: ``rows`` and ``flipped`` (each row
 * reversed); image (up, flip) reads ``flip ? flipped : rows`` upward with ``up``. */
typedef struct {
    const uint64_t *rows, *flipped;
    int h;
} ExrImages;

static inline uint64_t exr_image_row(const ExrImages *m, int j, int up, int flip) {
    return (flip ? m->flipped : m->rows)[up ? m->h - 1 - j : j];
}

/* The first of the box's four mirror images in the order of their rows, as (up, flip). */
static inline void exr_first_mirror(const ExrImages *m, int *up, int *flip) {
    int mirror, j;
    uint64_t a, b;
    *up = *flip = 0;
    for (mirror = 1; mirror < 4; mirror++) {
        for (j = 0; j < m->h; j++) {
            a = exr_image_row(m, j, mirror & 1, mirror >> 1);
            b = exr_image_row(m, j, *up, *flip);
            if (a != b) {
                if (a < b) {
                    *up = mirror & 1;
                    *flip = mirror >> 1;
                }
                break;
            }
        }
    }
}

/* Append the state of the board's empty cells in its first ``reach`` rows (``left`` of
 * them) and usable ``shapes``: the cells moved to their bounding box's corner, seen through
 * the first of the box's four mirrors in the order of their rows (a mirror maps every
 * rectangle onto one of the same height and width, so the mirrored state has the same
 * count, and the states that mirror one another are merged); with ``turns`` (a square
 * whose rule a quarter turn keeps, the shapes turned by ``turned_shape``), also through
 * the transposed region's mirrors: the box no taller than wide, then the rows, then the
 * shapes. */
static inline int exr_emit(ExrRun *t, int reach, int left, const uint64_t *shapes,
                           uint64_t count, int budget) {
    uint64_t key[EXR_MAX_WORDS + 1], rows[EXR_MAX_SIDE], flipped[EXR_MAX_SIDE];
    uint64_t across[EXR_MAX_SIDE], across_flipped[EXR_MAX_SIDE], turned[EXR_MAX_KW];
    uint64_t filtered[EXR_MAX_KW], cols_empty = 0, e, a, b, x, above = 0;
    const uint64_t *usable;
    ExrImages plain = {rows, flipped, 0}, side = {across, across_flipped, 0};
    const ExrImages *chosen = &plain;
    int r, r0 = -1, r1 = -1, c0, c1, h, w, q, j, k, up, flip, tup, tflip, shift = 0, turn = 0;
    int joins = 0;
    for (r = 0; r < reach; r++) {
        e = ~t->row_bits[r] & t->full;
        if (t->budgeted) {
            joins += excover_popcount64(e & (e >> 1)) + excover_popcount64(e & above);
            above = e;
        }
        if (e) {
            if (r0 < 0) r0 = r;
            r1 = r;
            cols_empty |= e;
        }
    }
    if (t->budgeted) {
        /* the region's perimeter, halved, is the least sum of h + w of its tilings */
        if (budget < 2 * left - joins) return 0;
        for (q = 0; q < t->kw; q++) filtered[q] = shapes[q] & t->within[budget * t->kw + q];
        shapes = filtered;
    }
    usable = shapes;
    c0 = excover_ctz64(cols_empty);
    c1 = exr_high_bit(cols_empty);
    h = r1 - r0 + 1;
    w = c1 - c0 + 1;
    plain.h = h;
    for (r = 0; r < h; r++)
        rows[r] = ((~t->row_bits[r0 + r] & t->full) >> c0) & ((((uint64_t)1) << w) - 1);
    up = flip = 0;
    if (t->mirrors) {
        for (r = 0; r < h; r++) flipped[r] = exr_reversed(t->rev8, rows[r], w);
        exr_first_mirror(&plain, &up, &flip);
    }
    if (t->turns && w <= h) {
        side.h = w;
        for (j = 0; j < w; j++) {
            across[j] = (~t->col_bits[c0 + j] >> r0) & ((((uint64_t)1) << h) - 1);
            across_flipped[j] = exr_reversed(t->rev8, across[j], h);
        }
        exr_first_mirror(&side, &tup, &tflip);
        if (w < h) {
            turn = 1;
        } else {
            for (j = 0; j < h; j++) {
                a = exr_image_row(&side, j, tup, tflip);
                b = exr_image_row(&plain, j, up, flip);
                if (a != b) {
                    turn = a < b;
                    break;
                }
            }
            if (j == h) turn = -1;   /* the same cells either way: the shapes decide */
        }
        if (turn) {
            for (q = 0; q < t->kw; q++) turned[q] = 0;
            for (q = 0; q < t->kw; q++) {
                x = shapes[q];
                while (x) {
                    k = t->turned_shape[q * 64 + excover_ctz64(x)];
                    x &= x - 1;
                    turned[k >> 6] |= ((uint64_t)1) << (k & 63);
                }
            }
            if (turn < 0) {   /* compare the shapes the state keeps (the same box either way) */
                turn = 0;
                for (q = t->kw - 1; q >= 0; q--) {
                    a = turned[q] & t->fits[h][w][q] & t->small[(int64_t)left * t->kw + q];
                    b = shapes[q] & t->fits[h][w][q] & t->small[(int64_t)left * t->kw + q];
                    if (a != b) {
                        turn = a < b;
                        break;
                    }
                }
            }
        }
        if (turn) {
            chosen = &side;
            usable = turned;
            up = tup;
            flip = tflip;
            j = h;
            h = w;
            w = j;
        }
    }
    for (q = 0; q < t->rw; q++) key[q] = 0;
    for (j = 0; j < h; j++) {
        e = exr_image_row(chosen, j, up, flip);
        key[shift >> 6] |= e << (shift & 63);
        if ((shift & 63) + w > 64) key[(shift >> 6) + 1] |= e >> (64 - (shift & 63));
        shift += w;
    }
    key[t->rw - 1] |= ((uint64_t)h << 48) | ((uint64_t)w << 56);
    for (q = 0; q < t->kw; q++)
        key[t->rw + q] = usable[q] & t->fits[h][w][q] & t->small[(int64_t)left * t->kw + q];
    key[t->rw + t->kw] = (uint64_t)budget;   /* beyond the state's words when not budgeted */
    return exr_append(t, left, key, count);
}

/* The empty cells of column j from row r on, downward (``dy`` > 0) or upward. */
static inline int exr_empty_run(const ExrRun *t, int r, int j, int dy) {
    uint64_t above;
    if (dy > 0) return excover_ctz64((t->col_bits[j] >> r) | (((uint64_t)1) << (t->rows - r)));
    above = ((t->col_bits[j] << 1) | 1) & ((((uint64_t)2) << (r + 1)) - 1);
    return r + 1 - exr_high_bit(above);
}

/* The rectangles at the empty cell (r, c) whose sides toward (dx, dy) are closed, up to
 * ``enough``: widths grow away from the closed side, each with the heights that fit. */
static inline int exr_fitting(const ExrRun *t, int r, int c, int dx, int dy, int enough) {
    int found = 0, reach = dy > 0 ? t->rows - r : r + 1, w, j, d;
    for (w = 1;; w++) {
        j = c + dx * (w - 1);
        if (j < 0 || j >= t->cols) break;
        d = exr_empty_run(t, r, j, dy);
        if (d == 0) break;
        if (d < reach) reach = d;
        found += exr_popcount(t->avail[w] & ((((uint64_t)2) << reach) - 2));
        if (found >= enough) break;
    }
    return found;
}

/* The ``n`` bits (at most 63) of ``words`` from bit ``at`` on. */
static inline uint64_t exr_bits_at(const uint64_t *words, int at, int n) {
    int q = at >> 6, b = at & 63;
    uint64_t x = words[q] >> b;
    if (b + n > 64) x |= words[q + 1] << (64 - b);
    return x & ((((uint64_t)1) << n) - 1);
}

/* Drop the shapes of key ``k`` from ``shapes``. */
static inline void exr_drop_key(const ExrRun *t, uint64_t *shapes, int k) {
    int q;
    for (q = 0; q < t->kw; q++) shapes[q] &= ~t->key_shapes[k * t->kw + q];
}

static inline void exr_fill(ExrRun *t, int r, int c, int h, int w) {
    uint64_t across = ((((uint64_t)1) << w) - 1) << c, down = ((((uint64_t)1) << h) - 1) << r;
    int i;
    for (i = 0; i < h; i++) t->row_bits[r + i] ^= across;
    for (i = 0; i < w; i++) t->col_bits[c + i] ^= down;
}

/* The four corners of an empty cell by the two sides closed there, the rectangles placed
 * at corner o growing toward (exr_dx[o], exr_dy[o]): 0 top-left, 1 top-right, 2
 * bottom-left, 3 bottom-right. */
static const int exr_dx[4] = {1, -1, 1, -1}, exr_dy[4] = {1, 1, -1, -1};

/* The top-left cell (r0, c0) of the h x w rectangle placed at corner o of cell (r, c). */
static inline void exr_top_left(int r, int c, int o, int h, int w, int *r0, int *c0) {
    *r0 = exr_dy[o] > 0 ? r : r - h + 1;
    *c0 = exr_dx[o] > 0 ? c : c - w + 1;
}

/* Whether an h x w rectangle covers the ``left`` cells a state leaves: then the state's
 * ``count`` tilings are found, if on target (the ``budget`` left; any without one). */
static inline int exr_covers_last(ExrRun *t, int left, int h, int w, uint64_t count,
                                  int budget) {
    if (h * w != left) return 0;
    if (t->budgeted && h + w != budget) return 1;
    if (t->tilings + count < t->tilings) t->overflow = 1;
    t->tilings += count;
    return 1;
}

/* Expand one state of ``left`` cells (``s``: its words): -1 when a list cannot grow. */
static int exr_expand(ExrRun *t, int left, const uint64_t *s) {
    uint64_t last = s[t->rw - 1], count = s[t->width - 1], e, prev = 0, next, x;
    uint64_t shapes[EXR_MAX_KW], child[EXR_MAX_KW];
    int h_box = (int)((last >> 48) & 0xFF), w_box = (int)(last >> 56);
    int r, c, i, j, q, k, o, w, h, d, best = 1 << 30, br = 0, bc = 0, bo = 0, shift = 0;
    int reach, r0, c0, budget = t->budgeted ? (int)s[t->rw + t->kw] : 0;
    uint64_t corners[4], b;
    t->expanded += 1;
    for (r = 0; r < t->rows; r++) t->row_bits[r] = t->full;
    for (j = 0; j < t->cols; j++) t->col_bits[j] = t->column_full;
    for (r = 0; r < h_box; r++) {
        e = s[shift >> 6] >> (shift & 63);
        if ((shift & 63) + w_box > 64) e |= s[(shift >> 6) + 1] << (64 - (shift & 63));
        e &= (((uint64_t)1) << w_box) - 1;
        t->row_bits[r] &= ~e;
        x = e;
        while (x) {
            c = excover_ctz64(x);
            x &= x - 1;
            t->col_bits[c] &= ~(((uint64_t)1) << r);
        }
        shift += w_box;
    }
    for (q = 0; q < t->kw; q++) shapes[q] = s[t->rw + q];
    for (w = 1; w <= w_box; w++) t->avail[w] = exr_bits_at(shapes, (w - 1) * t->stride, t->rows) << 1;
    for (; w <= t->cols; w++) t->avail[w] = 0;
    /* the corner of fewest rectangles */
    for (r = 0; r < h_box && best > 0; r++) {
        e = ~t->row_bits[r] & t->full;
        next = r + 1 < t->rows ? ~t->row_bits[r + 1] & t->full : 0;
        if (!e) {
            prev = 0;
            continue;
        }
        b = e & ~(e << 1);   /* left side closed */
        corners[0] = b & ~prev;
        corners[2] = b & ~next;
        b = e & ~(e >> 1);   /* right side closed */
        corners[1] = b & ~prev;
        corners[3] = b & ~next;
        for (o = 0; o < 4 && best > 0; o++) {
            x = corners[o];
            while (x) {
                c = excover_ctz64(x);
                x &= x - 1;
                d = exr_fitting(t, r, c, exr_dx[o], exr_dy[o], best);
                if (d < best) {
                    best = d;
                    br = r;
                    bc = c;
                    bo = o;
                    if (d == 0) break;
                }
            }
        }
        prev = e;
    }
    if (best == 0) return 0;
    reach = exr_dy[bo] > 0 ? t->rows - br : br + 1;
    for (w = 1;; w++) {
        j = bc + exr_dx[bo] * (w - 1);
        if (j < 0 || j >= t->cols) break;
        d = exr_empty_run(t, br, j, exr_dy[bo]);
        if (d == 0) break;
        if (d < reach) reach = d;
        x = t->avail[w] & ((((uint64_t)2) << reach) - 2);
        while (x) {
            h = excover_ctz64(x);
            x &= x - 1;
            if (exr_covers_last(t, left, h, w, count, budget)) continue;
            k = t->key_of[h][w];
            exr_top_left(br, bc, bo, h, w, &r0, &c0);
            for (q = 0; q < t->kw; q++) child[q] = shapes[q] & ~t->key_shapes[k * t->kw + q];
            exr_fill(t, r0, c0, h, w);
            i = exr_emit(t, h_box, left - h * w, child, count, budget - h - w);
            exr_fill(t, r0, c0, h, w);
            if (i < 0) return -1;
        }
    }
    return 0;
}

#include "_rectangles8.h"

/* Append the state of the board's empty cells (``left`` of them, in its first ``reach``
 * rows) and usable ``shapes``, on any board. */
static int exr_emit_board(ExrRun *t, int reach, int left, uint64_t *shapes, uint64_t count,
                          int budget) {
    if (t->budgeted && budget < 0) return 0;
    if (t->board8) return exr8_emit(t, exr8_board(t), left, shapes[0], count, budget);
    return exr_emit(t, reach, left, shapes, count, budget);
}

/* Expand state ``i`` of the list of ``left``, on any board: -1 when a list cannot grow. */
static int exr_expand_state(ExrRun *t, int left, int64_t i) {
    const uint64_t *s = exr_state(t, left, i);
    return t->board8 ? exr8_expand(t, left, s) : exr_expand(t, left, s);
}

static inline uint64_t exr_hash(const uint64_t *key, int words) {
    uint64_t h = 0x243F6A8885A308D3ULL, factor = 0x9E3779B97F4A7C15ULL;
    int w;
    for (w = 0; w < words; w++) {
        h += key[w] * factor;
        factor += 0x6A09E667F3BCC908ULL;
    }
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 32);
}

/* Merge the equal states of the list of ``left`` (the distinct ones to its front, their
 * counts added): the number of distinct states, -1 when the table cannot grow. */
static int64_t exr_merge(ExrRun *t, int left) {
    enum { BATCH = 32 };
    ExrList *l = &t->lists[left];
    int64_t size = 16, start, stop, r, u = 0;
    uint64_t mask, hashes[BATCH], i, *x, *y;
    int kw1 = t->width - 1, w, same;
    while (size < 2 * l->n) size <<= 1;
    if (size > t->slot_cap) {
        if (exr_grow(t, (size - t->slot_cap) * 8) < 0) return -1;
        free(t->slots);
        t->slots = (uint64_t *)malloc(size * 8);
        if (t->slots == NULL) {
            t->bytes -= (size - t->slot_cap) * 8;
            t->slot_cap = 0;
            return -1;
        }
        t->slot_cap = size;
    }
    memset(t->slots, 0xFF, size * 8);
    mask = (uint64_t)size - 1;
    for (start = 0; start < l->n; start = stop) {
        stop = start + BATCH < l->n ? start + BATCH : l->n;
        for (r = start; r < stop; r++) {
            hashes[r - start] = exr_hash(exr_state(t, left, r), kw1);
            EXR_PREFETCH(t->slots + (hashes[r - start] & mask));
        }
        for (r = start; r < stop; r++) {
            x = exr_state(t, left, r);
            i = hashes[r - start] & mask;
            for (;;) {
                if (t->slots[i] == ~(uint64_t)0) {
                    t->slots[i] = (uint64_t)u;
                    if (u != r) {
                        y = exr_state(t, left, u);
                        for (w = 0; w <= kw1; w++) y[w] = x[w];
                    }
                    u++;
                    break;
                }
                y = exr_state(t, left, (int64_t)t->slots[i]);
                same = 1;
                for (w = 0; w < kw1; w++)
                    if (x[w] != y[w]) {
                        same = 0;
                        break;
                    }
                if (same) {
                    if (y[kw1] + x[kw1] < y[kw1]) t->overflow = 1;
                    y[kw1] += x[kw1];
                    t->merged += 1;
                    break;
                }
                i = (i + 1) & mask;
            }
        }
    }
    return u;
}

/* Give the blocks of the list of ``left`` back to the pool. */
static void exr_free_list(ExrRun *t, int left) {
    ExrList *l = &t->lists[left];
    int64_t b;
    for (b = 0; b < l->n_blocks; b++) {
        if (t->pooled == t->pool_cap) {
            int64_t cap = t->pool_cap ? 2 * t->pool_cap : 64;
            uint64_t **grown = (uint64_t **)realloc(t->pool, (size_t)cap * sizeof(uint64_t *));
            if (grown == NULL) {   /* no room to keep it: give it back to the system */
                t->bytes -= (int64_t)EXR_BLOCK * t->width * 8;
                free(l->blocks[b]);
                continue;
            }
            t->pool = grown;
            t->pool_cap = cap;
        }
        t->pool[t->pooled++] = l->blocks[b];
    }
    free(l->blocks);
    l->blocks = NULL;
    l->n = l->n_blocks = l->cap_blocks = 0;
}

/* Fill ``t`` (zeroed) for the tilings of a ``rows`` x ``cols`` box by the ``n_shapes``
 * rectangles ``shapes`` (triples height, width, key; keys below ``n_keys``, each shape
 * once, every one fitting the box; the caller checks the sizes), the states merged with
 * their mirror images with ``mirrors`` and their quarter turns with ``turns`` (a square
 * whose rule a quarter turn keeps), a board of at most 8 x 8 cells as words with
 * ``packed`` (_rectangles8.h). 0, or -1 when memory runs out. */
static int exr_init(ExrRun *t, int rows, int cols, const int *shapes, int n_shapes,
                    int n_keys, int mirrors, int turns, int packed, int64_t max_bytes,
                    int target) {
    int cells = rows * cols, i, b, h, w, k, bit, bh, bw, a;
    t->rows = rows;
    t->cols = cols;
    t->board8 = packed && rows <= 8 && cols <= 8;
    t->stride = t->board8 ? 8 : rows;
    t->rw = t->board8 ? 1 : (cells + 16 + 63) / 64;
    t->kw = t->board8 ? 1 : (cells + 63) / 64;
    t->budgeted = target >= 0;
    t->target = target;
    t->width = t->rw + t->kw + t->budgeted + 1;
    t->n_keys = n_keys;
    t->max_bytes = max_bytes;
    t->mirrors = mirrors;
    t->turns = turns;
    t->full = (((uint64_t)1) << cols) - 1;
    t->column_full = (((uint64_t)1) << rows) - 1;
    for (i = 0; i < 256; i++) {
        t->rev8[i] = 0;
        for (b = 0; b < 8; b++) t->rev8[i] |= (uint8_t)(((i >> b) & 1) << (7 - b));
    }
    for (h = 0; h <= EXR_MAX_SIDE; h++)
        for (w = 0; w <= EXR_MAX_SIDE; w++) t->key_of[h][w] = -1;
    t->key_shapes = (uint64_t *)calloc((size_t)(n_keys > 0 ? n_keys : 1) * t->kw, 8);
    t->small = (uint64_t *)calloc((size_t)(cells + 1) * t->kw, 8);
    t->lists = (ExrList *)calloc((size_t)cells + 1, sizeof(ExrList));
    t->turned_shape = (int *)malloc(sizeof(int) * 64 * t->kw);
    t->within = (uint64_t *)calloc((size_t)(target >= 0 ? target + 1 : 1) * t->kw, 8);
    if (!t->key_shapes || !t->small || !t->lists || !t->turned_shape || !t->within) return -1;
    for (bit = 0; bit < 64 * t->kw; bit++) t->turned_shape[bit] = bit;
    for (i = 0; i < n_shapes; i++) {
        h = shapes[3 * i];
        w = shapes[3 * i + 1];
        k = shapes[3 * i + 2];
        bit = (w - 1) * t->stride + h - 1;
        t->key_of[h][w] = k;
        t->key_shapes[k * t->kw + (bit >> 6)] |= ((uint64_t)1) << (bit & 63);
        if (turns) t->turned_shape[bit] = (h - 1) * t->stride + w - 1;
        for (bh = h; bh <= rows; bh++)
            for (bw = w; bw <= cols; bw++) t->fits[bh][bw][bit >> 6] |= ((uint64_t)1) << (bit & 63);
        for (a = h * w; a <= cells; a++)
            t->small[a * t->kw + (bit >> 6)] |= ((uint64_t)1) << (bit & 63);
        for (a = h + w; a <= target; a++)
            t->within[a * t->kw + (bit >> 6)] |= ((uint64_t)1) << (bit & 63);
    }
    return 0;
}

/* Free what ``t`` holds (not ``t``). */
static void exr_release(ExrRun *t) {
    int left;
    if (t->lists != NULL)
        for (left = 0; left <= t->rows * t->cols; left++) exr_free_list(t, left);
    free(t->lists);
    while (t->pooled > 0) free(t->pool[--t->pooled]);
    free(t->pool);
    free(t->slots);
    free(t->small);
    free(t->key_shapes);
    free(t->turned_shape);
    free(t->within);
}

/* Whether image ``b`` of a configuration of corner rectangles comes before ``a``. */
static inline int exr_before(const int *b, const int *a) {
    int i;
    for (i = 0; i < 8; i++)
        if (b[i] != a[i]) return b[i] < a[i];
    return 0;
}

/* The first states: every choice of the rectangles at the box's four corners, one of
 * each orbit of those choices under the box's symmetries (its mirrors, and with
 * ``transposes`` the square's quarter turns and diagonal mirrors too), each standing
 * for its orbit (its count times the orbit's size); a choice that tiles the box is a
 * tiling. Of the orbits, in the order they are met, only those whose rank is ``part``
 * modulo ``parts`` (a share of the count, the shares' counts adding up to the whole).
 * -1 when a list cannot grow. */
static int exr_corners(ExrRun *t, int transposes, int part, int parts) {
    int R = t->rows, C = t->cols, n = 0, i, g, f, m, dup;
    int a, b, c, d, k[4], same_tr, same_bl, same_br, left, weight, budget;
    int cfg[8], img[8][8];
    int64_t rank = -1;
    int *sh = (int *)malloc(sizeof(int) * 2 * (R * C + 1));
    uint64_t shapes[EXR_MAX_KW];
    if (sh == NULL) return -1;
    for (i = 1; i <= R; i++)
        for (g = 1; g <= C; g++)
            if (t->key_of[i][g] >= 0) {
                sh[2 * n] = i;
                sh[2 * n + 1] = g;
                n++;
            }
    for (a = 0; a < n; a++) {
        cfg[0] = sh[2 * a]; cfg[1] = sh[2 * a + 1];
        k[0] = t->key_of[cfg[0]][cfg[1]];
        same_tr = cfg[1] == C;
        same_bl = cfg[0] == R;
        for (b = 0; b < n; b++) {
            cfg[2] = sh[2 * b]; cfg[3] = sh[2 * b + 1];
            k[1] = t->key_of[cfg[2]][cfg[3]];
            if (same_tr) {
                if (cfg[2] != cfg[0] || cfg[3] != cfg[1]) continue;
            } else if (cfg[1] + cfg[3] > C || k[1] == k[0]) continue;
            for (d = 0; d < n; d++) {
                cfg[6] = sh[2 * d]; cfg[7] = sh[2 * d + 1];
                k[3] = t->key_of[cfg[6]][cfg[7]];
                if (same_bl) {
                    if (cfg[6] != cfg[0] || cfg[7] != cfg[1]) continue;
                } else {
                    if (cfg[0] + cfg[6] > R || k[3] == k[0]) continue;
                    if (!same_tr && (k[3] == k[1] || (cfg[2] + cfg[6] > R && cfg[3] + cfg[7] > C)))
                        continue;
                }
                for (c = 0; c < n; c++) {
                    cfg[4] = sh[2 * c]; cfg[5] = sh[2 * c + 1];
                    k[2] = t->key_of[cfg[4]][cfg[5]];
                    same_br = cfg[2] == R || cfg[7] == C;
                    if (same_br) {
                        if (cfg[2] == R && (cfg[4] != cfg[2] || cfg[5] != cfg[3])) continue;
                        if (cfg[7] == C && (cfg[4] != cfg[6] || cfg[5] != cfg[7])) continue;
                    } else {
                        if (k[2] == k[0] || k[2] == k[1] || k[2] == k[3]) continue;
                        if (cfg[2] + cfg[4] > R || cfg[7] + cfg[5] > C) continue;
                        if (cfg[0] + cfg[4] > R && cfg[1] + cfg[5] > C) continue;
                    }
                    /* the images: the mirrors, the transpose, then the transpose's mirrors */
                    memcpy(img[0], cfg, sizeof cfg);
                    m = transposes ? 8 : 4;
                    for (g = 1; g < m; g++) {
                        const int *p = g <= 4 ? cfg : img[4];
                        int *q = img[g];
                        if (g == 1 || g == 5) {   /* left-right */
                            q[0] = p[2]; q[1] = p[3]; q[2] = p[0]; q[3] = p[1];
                            q[4] = p[6]; q[5] = p[7]; q[6] = p[4]; q[7] = p[5];
                        } else if (g == 2 || g == 6) {   /* top-bottom */
                            q[0] = p[6]; q[1] = p[7]; q[2] = p[4]; q[3] = p[5];
                            q[4] = p[2]; q[5] = p[3]; q[6] = p[0]; q[7] = p[1];
                        } else if (g == 3 || g == 7) {   /* half turn */
                            q[0] = p[4]; q[1] = p[5]; q[2] = p[6]; q[3] = p[7];
                            q[4] = p[0]; q[5] = p[1]; q[6] = p[2]; q[7] = p[3];
                        } else {   /* g == 4: the main diagonal */
                            q[0] = p[1]; q[1] = p[0]; q[2] = p[7]; q[3] = p[6];
                            q[4] = p[5]; q[5] = p[4]; q[6] = p[3]; q[7] = p[2];
                        }
                    }
                    dup = 0;
                    for (g = 1; g < m && !dup; g++) dup = exr_before(img[g], cfg);
                    if (dup) continue;
                    rank += 1;
                    if (parts > 1 && rank % parts != part) continue;
                    weight = 0;
                    for (g = 0; g < m; g++) {
                        dup = 0;
                        for (f = 0; f < g && !dup; f++) dup = memcmp(img[f], img[g], sizeof cfg) == 0;
                        weight += !dup;
                    }
                    /* place the distinct rectangles */
                    for (i = 0; i < R; i++) t->row_bits[i] = 0;
                    for (i = 0; i < C; i++) t->col_bits[i] = 0;
                    for (i = 0; i < t->kw; i++) shapes[i] = t->fits[R][C][i];
                    left = R * C;
                    budget = t->target - cfg[0] - cfg[1];
                    exr_fill(t, 0, 0, cfg[0], cfg[1]);
                    left -= cfg[0] * cfg[1];
                    exr_drop_key(t, shapes, k[0]);
                    if (!same_tr) {
                        exr_fill(t, 0, C - cfg[3], cfg[2], cfg[3]);
                        left -= cfg[2] * cfg[3];
                        budget -= cfg[2] + cfg[3];
                        exr_drop_key(t, shapes, k[1]);
                    }
                    if (!same_bl) {
                        exr_fill(t, R - cfg[6], 0, cfg[6], cfg[7]);
                        left -= cfg[6] * cfg[7];
                        budget -= cfg[6] + cfg[7];
                        exr_drop_key(t, shapes, k[3]);
                    }
                    if (!same_br) {
                        exr_fill(t, R - cfg[4], C - cfg[5], cfg[4], cfg[5]);
                        left -= cfg[4] * cfg[5];
                        budget -= cfg[4] + cfg[5];
                        exr_drop_key(t, shapes, k[2]);
                    }
                    if (left == 0) {
                        if (!t->budgeted || budget == 0) t->tilings += (uint64_t)weight;
                    } else if (exr_emit_board(t, R, left, shapes, (uint64_t)weight, budget) < 0) {
                        free(sh);
                        return -1;
                    }
                }
            }
        }
    }
    free(sh);
    return 0;
}

#endif
