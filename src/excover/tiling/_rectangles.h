/* The tilings of a box by rectangles whose keys are all different, counted by their
 * states (the compiled core of excover.tiling.rectangles; its module text says why).
 *
 * A *state* is what a partial tiling leaves to tile: the cells still empty, moved to the
 * top-left corner of their bounding box, and the keys still free among those with a
 * shape that fits that box in at most as many cells as are left (the other keys can no
 * longer be used, so they do not change the count). States are kept by the number of
 * cells they leave, in one list of requests per number; the list of the largest number
 * is merged (equal states' counts added) and each distinct state is expanded: its
 * rectangles are tried at the empty corner cell (two of its sides closed) where the
 * fewest fit, and each leaves a smaller state, appended to its list, or covers the
 * state's last cells, a tiling. Lists are freed once expanded.
 *
 * Words of a state: the bounding box's cells row by row (``rw`` words, the box's height
 * and width in the top 16 bits of the last one), the free keys (``kw`` words), the count.
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

typedef struct {
    uint64_t *words;    /* n states of ``width`` words */
    int64_t n, cap;
} ExrList;

typedef struct {
    /* the problem */
    int rows, cols, rw, kw, width, n_keys;
    int key_of[EXR_MAX_SIDE + 1][EXR_MAX_SIDE + 1];    /* -1: shape not allowed */
    int *shape_start;   /* per key, its shapes' (height, width) pairs in shape_hw */
    int *shape_hw;
    uint64_t fits[EXR_MAX_SIDE + 1][EXR_MAX_SIDE + 1][EXR_MAX_KW]; /* keys fitting a box */
    uint64_t *small;    /* per number of cells: the keys of at most that many cells */
    /* the board being expanded: filled cells by row and by column */
    uint64_t full, column_full;
    uint64_t row_bits[EXR_MAX_SIDE + 2], col_bits[EXR_MAX_SIDE + 1];
    uint64_t avail[EXR_MAX_SIDE + 2];   /* per width: the heights of the free shapes */
    uint8_t rev8[256];  /* each byte's bits reversed */
    int mirrors;        /* states merged with their mirror images (see exr_emit) */
    int turns;          /* and with their quarter turns */
    int *turned_key;    /* per key: the key of its rectangles turned a quarter */
    /* the lists, by cells left */
    ExrList *lists;
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

/* Append a state (``key``: width - 1 words) with ``count`` to the list of ``left``. */
static inline int exr_append(ExrRun *t, int left, const uint64_t *key, uint64_t count) {
    ExrList *l = &t->lists[left];
    uint64_t *to;
    int w;
    if (l->n == l->cap) {
        int64_t cap = l->cap ? 2 * l->cap : 256;
        uint64_t *grown;
        if (exr_grow(t, (cap - l->cap) * t->width * 8) < 0) return -1;
        grown = (uint64_t *)realloc(l->words, cap * t->width * 8);
        if (grown == NULL) {
            t->bytes -= (cap - l->cap) * t->width * 8;
            return -1;
        }
        l->words = grown;
        l->cap = cap;
    }
    to = l->words + l->n * t->width;
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

/* Row ``j`` of a box of ``h`` rows of ``w`` bits seen through a mirror: read upward with
 * ``up``, each row reversed with ``flip``. */
static inline uint64_t exr_row(const ExrRun *t, const uint64_t *rows, int h, int w, int j,
                               int up, int flip) {
    uint64_t e = rows[up ? h - 1 - j : j];
    return flip ? exr_reversed(t->rev8, e, w) : e;
}

/* The best of a box's four mirror images (``h`` rows of ``w`` bits): the first in the
 * order of their rows, as (up, flip) in ``*up``, ``*flip``. */
static inline void exr_first_mirror(const ExrRun *t, const uint64_t *rows, int h, int w,
                                    int *up, int *flip) {
    int mirror, j;
    uint64_t a, b;
    *up = *flip = 0;
    for (mirror = 1; mirror < 4; mirror++) {
        for (j = 0; j < h; j++) {
            a = exr_row(t, rows, h, w, j, mirror & 1, mirror >> 1);
            b = exr_row(t, rows, h, w, j, *up, *flip);
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
 * them) and free ``keys``: the cells moved to their bounding box's corner, seen through
 * the first of the box's four mirrors in the order of their rows (a mirror maps every
 * rectangle onto one of the same height and width, so the mirrored state has the same
 * count, and the states that mirror one another are merged); with ``turns`` (a square
 * whose rule a quarter turn keeps, the keys turned by ``turned_key``), also through the
 * transposed region's mirrors: the box no taller than wide, then the rows, then the
 * keys. */
static inline int exr_emit(ExrRun *t, int reach, int left, const uint64_t *keys,
                           uint64_t count) {
    uint64_t key[EXR_MAX_WORDS], rows[EXR_MAX_SIDE], across[EXR_MAX_SIDE], turned[EXR_MAX_KW];
    uint64_t cols_empty = 0, e, a, b, x;
    const uint64_t *chosen = rows, *free_keys = keys;
    int r, r0 = -1, r1 = -1, c0, c1, h, w, q, j, k, up, flip, tup, tflip, shift = 0, turn = 0;
    for (r = 0; r < reach; r++) {
        e = ~t->row_bits[r] & t->full;
        if (e) {
            if (r0 < 0) r0 = r;
            r1 = r;
            cols_empty |= e;
        }
    }
    c0 = excover_ctz64(cols_empty);
    c1 = exr_high_bit(cols_empty);
    h = r1 - r0 + 1;
    w = c1 - c0 + 1;
    for (r = 0; r < h; r++)
        rows[r] = ((~t->row_bits[r0 + r] & t->full) >> c0) & ((((uint64_t)1) << w) - 1);
    up = flip = 0;
    if (t->mirrors) exr_first_mirror(t, rows, h, w, &up, &flip);
    if (t->turns && w <= h) {
        for (j = 0; j < w; j++)
            across[j] = (~t->col_bits[c0 + j] >> r0) & ((((uint64_t)1) << h) - 1);
        exr_first_mirror(t, across, w, h, &tup, &tflip);
        if (w < h) {
            turn = 1;
        } else {
            for (j = 0; j < h; j++) {
                a = exr_row(t, across, w, h, j, tup, tflip);
                b = exr_row(t, rows, h, w, j, up, flip);
                if (a != b) {
                    turn = a < b;
                    break;
                }
            }
            if (j == h) turn = -1;   /* the same cells either way: the keys decide */
        }
        if (turn) {
            for (q = 0; q < t->kw; q++) turned[q] = 0;
            for (q = 0; q < t->kw; q++) {
                x = keys[q];
                while (x) {
                    k = t->turned_key[q * 64 + excover_ctz64(x)];
                    x &= x - 1;
                    turned[k >> 6] |= ((uint64_t)1) << (k & 63);
                }
            }
            if (turn < 0) {   /* compare the keys the state keeps (the same box either way) */
                turn = 0;
                for (q = t->kw - 1; q >= 0; q--) {
                    a = turned[q] & t->fits[h][w][q] & t->small[(int64_t)left * t->kw + q];
                    b = keys[q] & t->fits[h][w][q] & t->small[(int64_t)left * t->kw + q];
                    if (a != b) {
                        turn = a < b;
                        break;
                    }
                }
            }
        }
        if (turn) {
            chosen = across;
            free_keys = turned;
            up = tup;
            flip = tflip;
            j = h;
            h = w;
            w = j;
        }
    }
    for (q = 0; q < t->rw; q++) key[q] = 0;
    for (j = 0; j < h; j++) {
        e = exr_row(t, chosen, h, w, j, up, flip);
        key[shift >> 6] |= e << (shift & 63);
        if ((shift & 63) + w > 64) key[(shift >> 6) + 1] |= e >> (64 - (shift & 63));
        shift += w;
    }
    key[t->rw - 1] |= ((uint64_t)h << 48) | ((uint64_t)w << 56);
    for (q = 0; q < t->kw; q++)
        key[t->rw + q] = free_keys[q] & t->fits[h][w][q] & t->small[(int64_t)left * t->kw + q];
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

static inline void exr_fill(ExrRun *t, int r, int c, int h, int w) {
    uint64_t across = ((((uint64_t)1) << w) - 1) << c, down = ((((uint64_t)1) << h) - 1) << r;
    int i;
    for (i = 0; i < h; i++) t->row_bits[r + i] ^= across;
    for (i = 0; i < w; i++) t->col_bits[c + i] ^= down;
}

/* Expand one state of ``left`` cells (``s``: its words): -1 when a list cannot grow. */
static int exr_expand(ExrRun *t, int left, const uint64_t *s) {
    static const int dxs[4] = {1, -1, 1, -1}, dys[4] = {1, 1, -1, -1};
    uint64_t last = s[t->rw - 1], count = s[t->width - 1], e, prev = 0, next, x;
    uint64_t keys[EXR_MAX_KW];
    int h_box = (int)((last >> 48) & 0xFF), w_box = (int)(last >> 56);
    int r, c, i, j, q, k, o, w, h, d, best = 1 << 30, br = 0, bc = 0, bo = 0, shift = 0;
    int reach, r0, c0;
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
    for (w = 1; w <= t->cols; w++) t->avail[w] = 0;
    for (q = 0; q < t->kw; q++) {
        keys[q] = s[t->rw + q];
        x = keys[q];
        while (x) {
            k = q * 64 + excover_ctz64(x);
            x &= x - 1;
            for (i = t->shape_start[k]; i < t->shape_start[k + 1]; i++)
                t->avail[t->shape_hw[2 * i + 1]] |= ((uint64_t)1) << t->shape_hw[2 * i];
        }
    }
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
                d = exr_fitting(t, r, c, dxs[o], dys[o], best);
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
    reach = dys[bo] > 0 ? t->rows - br : br + 1;
    for (w = 1;; w++) {
        j = bc + dxs[bo] * (w - 1);
        if (j < 0 || j >= t->cols) break;
        d = exr_empty_run(t, br, j, dys[bo]);
        if (d == 0) break;
        if (d < reach) reach = d;
        x = t->avail[w] & ((((uint64_t)2) << reach) - 2);
        while (x) {
            h = excover_ctz64(x);
            x &= x - 1;
            k = t->key_of[h][w];
            if (h * w == left) {   /* the state's last cells: a tiling */
                if (t->tilings + count < t->tilings) t->overflow = 1;
                t->tilings += count;
                continue;
            }
            r0 = dys[bo] > 0 ? br : br - h + 1;
            c0 = dxs[bo] > 0 ? bc : bc - w + 1;
            keys[k >> 6] &= ~(((uint64_t)1) << (k & 63));
            exr_fill(t, r0, c0, h, w);
            i = exr_emit(t, h_box, left - h * w, keys, count);
            exr_fill(t, r0, c0, h, w);
            keys[k >> 6] |= ((uint64_t)1) << (k & 63);
            if (i < 0) return -1;
        }
    }
    return 0;
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
            hashes[r - start] = exr_hash(l->words + r * t->width, kw1);
            EXR_PREFETCH(t->slots + (hashes[r - start] & mask));
        }
        for (r = start; r < stop; r++) {
            x = l->words + r * t->width;
            i = hashes[r - start] & mask;
            for (;;) {
                if (t->slots[i] == ~(uint64_t)0) {
                    t->slots[i] = (uint64_t)u;
                    if (u != r)
                        for (w = 0; w <= kw1; w++) l->words[u * t->width + w] = x[w];
                    u++;
                    break;
                }
                y = l->words + t->slots[i] * t->width;
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

static void exr_free_list(ExrRun *t, int left) {
    ExrList *l = &t->lists[left];
    t->bytes -= l->cap * t->width * 8;
    free(l->words);
    l->words = NULL;
    l->n = l->cap = 0;
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
 * tiling. -1 when a list cannot grow. */
static int exr_corners(ExrRun *t, int transposes) {
    int R = t->rows, C = t->cols, n = 0, i, g, f, m, dup;
    int a, b, c, d, k[4], same_tr, same_bl, same_br, left, weight;
    int cfg[8], img[8][8];
    int *sh = (int *)malloc(sizeof(int) * 2 * (R * C + 1));
    uint64_t keys[EXR_MAX_KW];
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
                    weight = 0;
                    for (g = 0; g < m; g++) {
                        dup = 0;
                        for (f = 0; f < g && !dup; f++) dup = memcmp(img[f], img[g], sizeof cfg) == 0;
                        weight += !dup;
                    }
                    /* place the distinct rectangles */
                    for (i = 0; i < R; i++) t->row_bits[i] = 0;
                    for (i = 0; i < C; i++) t->col_bits[i] = 0;
                    for (i = 0; i < t->kw; i++) keys[i] = ~(uint64_t)0;
                    left = R * C;
                    exr_fill(t, 0, 0, cfg[0], cfg[1]);
                    left -= cfg[0] * cfg[1];
                    keys[k[0] >> 6] &= ~(((uint64_t)1) << (k[0] & 63));
                    if (!same_tr) {
                        exr_fill(t, 0, C - cfg[3], cfg[2], cfg[3]);
                        left -= cfg[2] * cfg[3];
                        keys[k[1] >> 6] &= ~(((uint64_t)1) << (k[1] & 63));
                    }
                    if (!same_bl) {
                        exr_fill(t, R - cfg[6], 0, cfg[6], cfg[7]);
                        left -= cfg[6] * cfg[7];
                        keys[k[3] >> 6] &= ~(((uint64_t)1) << (k[3] & 63));
                    }
                    if (!same_br) {
                        exr_fill(t, R - cfg[4], C - cfg[5], cfg[4], cfg[5]);
                        left -= cfg[4] * cfg[5];
                        keys[k[2] >> 6] &= ~(((uint64_t)1) << (k[2] & 63));
                    }
                    if (left == 0) {
                        t->tilings += (uint64_t)weight;
                    } else if (exr_emit(t, R, left, keys, (uint64_t)weight) < 0) {
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
