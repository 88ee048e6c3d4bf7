/* A specialised solver for classic 9x9 Sudoku: digit-major band bitboards.
 *
 * The general grid solver (_grid.pyx) keeps one word of candidate digits per cell and
 * walks tables of units; for the one board everybody uses, this file keeps the same
 * cover the other way round, one bitboard per digit, so that the deductions become a
 * handful of word operations and table look-ups.
 *
 * Representation. Cell (row, col) lies in band b = row / 3 at position
 * p = 9 * (row % 3) + col (0..26), so a band of one digit is a 27-bit word: three rows of
 * nine bits. F[9 * b + d] holds the cells of band b where digit d + 1 is still possible
 * (a band's nine words side by side, so that a cell leaves them all in a few vector
 * steps); U[b] the cells of band b not yet placed. A placed cell keeps its digit's bit
 * and loses every other one, and its digit leaves the cell's peers: the exact-cover
 * options that clash with the chosen one are gone. A word that changes is marked dirty
 * and looked at again; the others are skipped.
 *
 * Deductions, applied until none changes anything:
 *
 * - band shrink: in a band, each of the 3 rows holds the digit once and each of the 3
 *   boxes holds it once, so the (row, box) segments where it can go must contain a
 *   permutation of 3 (a "configuration": which box each row takes the digit in): a 3x3
 *   0/1 matrix M, with segments outside every permutation contained in M struck out
 *   (table s9_support, 512 entries). This is locked candidates (pointing and claiming)
 *   along rows, and more; no permutation left is a dead end. Afterwards a row with one
 *   cell left is a hidden single and is placed. A box with one cell left forces its row
 *   onto that segment, so it shows up as a row single too. The shrinks go in waves (all
 *   the words dirty now, then the singles they found), so that they do not wait on one
 *   another;
 * - stack shrink: the same on the columns and boxes of a stack (3 columns x 3 bands),
 *   which gives locked candidates along columns, and column singles in two steps (the
 *   wider kernels do it for several digits at once, one a vector lane);
 * - cell count: bit-sliced across the nine digits of a band, "at least one" and "at
 *   least two" digits per cell: a cell with none is a dead end, a cell with one a naked
 *   single;
 * - triads (t-dillon's tdoku showed their worth): the 3 cells of a row segment, and
 *   those of a column segment (a column inside a box), hold 3 different digits, so
 *   exactly 3 digits go through each (see _sudoku9_kernel.h); looked at only on grids
 *   with many open cells, where they pay, and first by a cheap test that tells the 9
 *   times in 10 when they have nothing to say.
 *
 * Givens are set up a digit at a time: all the cells of a digit's rows, boxes and
 * columns lose it at once, and masks find two givens that clash.
 *
 * Search: when nothing more follows, branch on the configurations of one digit in one
 * band or one stack (a stack's configuration: which column of its box each band takes
 * the digit in; stacks only on grids with S9_STACKS_OPEN open cells or more): the band
 * or stack whose digits have the fewest configurations in all, its digit with the
 * fewest (at least 2), as tdoku does; when every digit has one configuration in every
 * band (and stack), on an open cell with the fewest digits. The levels of an
 * explicit stack each hold a copy of the state (about 240 bytes), so backing up costs
 * nothing; the last branch of a level is tried in place. Down one path, a configuration
 * branch leaves its word (or its digit's stack) with a single configuration and a cell
 * branch places a cell, which bounds the depth by S9_LEVELS.
 *
 * Kernels chosen at run time. The search (_sudoku9_kernel.h) is compiled once per
 * instruction set into this one module: a portable copy, and on x86 with GCC or Clang
 * copies for SSE4.1, AVX2 and AVX-512 (F, BW, VL), each under its own target attribute,
 * so that the module runs on any x86-64 CPU and the default build needs no -march flag.
 * s9_select picks one (by default the widest the CPU and its OS support, asked with
 * __builtin_cpu_supports), and s9_run calls it. MSVC and other machines have the
 * portable copy only.
 */
#ifndef EXCOVER_SUDOKU9_H
#define EXCOVER_SUDOKU9_H

#include <stdint.h>
#include <string.h>

/* S9_PORTABLE_ONLY builds what MSVC and other processors build: the portable kernel
 * alone, in plain C (no SSE2 either); it lets a build here check that path. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(S9_PORTABLE_ONLY)
#define S9_MULTI 1 /* the SSE4.1, AVX2 and AVX-512 kernels are compiled in */
#include <immintrin.h>
#else
#define S9_MULTI 0
#endif
/* SSE2 is there in every build of the portable kernel on x86-64 (and 32-bit x86 built
 * for it). */
#if (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)) && \
    !defined(S9_PORTABLE_ONLY)
#define S9_SSE2 1
#include <emmintrin.h>
#else
#define S9_SSE2 0
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static __inline int s9_ctz(uint32_t x) {
    unsigned long index;
    _BitScanForward(&index, x);
    return (int)index;
}
#define s9_popcount(x) ((int)__popcnt(x))
#else
#define s9_ctz(x) __builtin_ctz(x)
#define s9_popcount(x) __builtin_popcount(x)
#endif

/* The kernels, in the order of the instruction sets (each needs those before it). */
#define S9_PORTABLE 0
#define S9_SSE4 1
#define S9_AVX2 2
#define S9_AVX512 3
#define S9_KERNELS 4

#define S9_FULL27 0x7FFFFFFu
#define S9_INTERRUPTED (-2)
#define S9_CHECK_EVERY 4096
#define S9_LEVELS (54 + 81 + 1) /* the deepest search: see the top of the file */


typedef struct {
    uint32_t F[28];       /* 9 * band + digit: the cells of the band the digit may take
                             (a 28th word, always 0, rounds the array to whole vectors) */
    uint32_t U[3];        /* the cells of each band not placed yet */
    uint32_t dirty;       /* words changed since their last band shrink (bit 9b + d) */
    uint16_t seg[54];     /* each word's (row, box) segments at its last band shrink; then
                             27 + 9 * stack + digit: its (band, column) cells at its last
                             stack shrink (bit 3 * band + column) */
} s9_state;

/* Tables, filled once by s9_init. */
static uint8_t s9_rowbox[512];    /* a row's 9 bits -> which of its 3 boxes it touches */
static uint16_t s9_support[512];  /* 3x3 matrix (bit 3i+k) -> union of its permutations */
static uint16_t s9_support_n[512]; /* the same, with its number of permutations << 12 */
static uint32_t s9_expand[512];   /* (row i, box k) segments (bit 3i+k) -> their 27 bits */
static uint32_t s9_single[512];   /* a row's 9 bits -> the bits if exactly one, else 0 */
static uint32_t s9_peers[27];     /* a position's row, box and column in its band, not it */
static uint32_t s9_column[9];     /* the 3 cells of a column in a band */
static uint8_t s9_nperm[512];     /* 3x3 matrix -> how many permutations it contains */
static uint16_t s9_perm[6];       /* the 6 permutation matrices */
static uint16_t s9_lone_rows[512]; /* 3x3 matrix -> its rows that hold exactly one bit */
static uint32_t s9_row_cells[512]; /* rows (bit 3i+k, any k) -> all 9 cells of those rows */
static uint64_t s9_nibbles[512];  /* 9 bits -> 9 counters of 4 bits, each 0 or 1 */
static uint8_t s9_permset[512];   /* 3x3 matrix -> the permutations it contains (bit q) */
static uint8_t s9_band_of[27], s9_digit_of[27]; /* of a word's index 9 * band + digit */
static int s9_ready = 0;

static void s9_init(void) {
    if (s9_ready) return;
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int m = 0; m < 512; m++) {
        uint8_t boxes = 0;
        for (int k = 0; k < 3; k++)
            if (m & (7 << (3 * k))) boxes |= (uint8_t)(1 << k);
        s9_rowbox[m] = boxes;
        uint16_t support = 0;
        for (int q = 0; q < 6; q++) {
            uint16_t perm = 0;
            for (int i = 0; i < 3; i++) perm |= (uint16_t)(1 << (3 * i + perms[q][i]));
            if ((m & perm) == perm) support |= perm;
        }
        s9_support[m] = support;
        uint8_t nperm = 0;
        for (int q = 0; q < 6; q++) {
            uint16_t perm = 0;
            for (int i = 0; i < 3; i++) perm |= (uint16_t)(1 << (3 * i + perms[q][i]));
            if (m == 0) s9_perm[q] = perm;
            if ((m & perm) == perm) nperm++;
        }
        s9_nperm[m] = nperm;
        s9_support_n[m] = (uint16_t)(support | (nperm << 12));
        uint8_t pset = 0;
        for (int q = 0; q < 6; q++) {
            uint16_t perm = 0;
            for (int i = 0; i < 3; i++) perm |= (uint16_t)(1 << (3 * i + perms[q][i]));
            if ((m & perm) == perm) pset |= (uint8_t)(1 << q);
        }
        s9_permset[m] = pset;
        uint64_t nib = 0;
        for (int j = 0; j < 9; j++)
            if ((m >> j) & 1) nib |= 1ull << (4 * j);
        s9_nibbles[m] = nib;
        uint32_t cells = 0;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                if (m & (1 << (3 * i + k))) cells |= 7u << (9 * i + 3 * k);
        s9_expand[m] = cells;
        s9_single[m] = (m != 0 && (m & (m - 1)) == 0) ? (uint32_t)m : 0;
        uint16_t lone = 0;
        uint32_t rows = 0;
        for (int i = 0; i < 3; i++) {
            int row = (m >> (3 * i)) & 7;
            if (row && !(row & (row - 1))) lone |= (uint16_t)(row << (3 * i));
            if (row) rows |= 0x1FFu << (9 * i);
        }
        s9_lone_rows[m] = lone;
        s9_row_cells[m] = rows;
    }
    for (int i = 0; i < 27; i++) {
        s9_band_of[i] = (uint8_t)(i / 9);
        s9_digit_of[i] = (uint8_t)(i % 9);
    }
    for (int c = 0; c < 9; c++) s9_column[c] = (1u << c) | (1u << (c + 9)) | (1u << (c + 18));
    for (int p = 0; p < 27; p++) {
        int row = p / 9, col = p % 9, box = col / 3;
        uint32_t peers = (0x1FFu << (9 * row)) | s9_column[col];
        for (int r = 0; r < 3; r++) peers |= 7u << (9 * r + 3 * box);
        s9_peers[p] = peers & ~(1u << p);
    }
    s9_ready = 1;
}

/* The triads are looked at only while at least this many cells are open: on a grid
 * mostly filled they seldom find anything the cheaper deductions miss (the threshold's
 * measurements: docs/performance.md, Sudoku's kernels). */
#define S9_TRIADS_OPEN 40

/* The stacks' configurations are branched on only while at least this many cells are
 * open. Deep in the search (or on grids with many givens) the bands' alone make fewer
 * branchings (measured: docs/performance.md, Sudoku's kernels). */
#define S9_STACKS_OPEN 45

typedef long (*s9_count_fn)(const uint8_t *grid, long limit, uint8_t *out, int (*check)(void),
                            long *ticks, long *guesses);

#define S9_SUFFIX(name) name##_portable
#define S9_LEVEL S9_PORTABLE
#include "_sudoku9_kernel.h"

#if S9_MULTI
/* Each copy below is compiled for its instruction set (GCC's target pragma, Clang's
 * attribute pragma), only ever called on a CPU that has it; each inclusion of the kernel
 * undefines S9_SUFFIX and S9_LEVEL at its end. */
#define S9_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define S9_TARGET_BEGIN(features) \
    S9_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#define S9_TARGET_END S9_PRAGMA(clang attribute pop)
#else
#define S9_TARGET_BEGIN(features) S9_PRAGMA(GCC push_options) S9_PRAGMA(GCC target(features))
#define S9_TARGET_END S9_PRAGMA(GCC pop_options)
#endif

#define S9_SUFFIX(name) name##_sse4
#define S9_LEVEL S9_SSE4
S9_TARGET_BEGIN("sse4.1,popcnt")
#include "_sudoku9_kernel.h"
S9_TARGET_END

#define S9_SUFFIX(name) name##_avx2
#define S9_LEVEL S9_AVX2
S9_TARGET_BEGIN("avx2,bmi,bmi2,popcnt,lzcnt")
#include "_sudoku9_kernel.h"
S9_TARGET_END

#define S9_SUFFIX(name) name##_avx512
#define S9_LEVEL S9_AVX512
S9_TARGET_BEGIN("avx512f,avx512bw,avx512vl,avx2,bmi,bmi2,popcnt,lzcnt")
#if !defined(__clang__)
/* With AVX-512 on and generic tuning, GCC 12 keeps the tables' addresses in vector
 * registers (vmovq to and fro), which slows this kernel below the AVX2 one; tuning for
 * a CPU of the AVX-512 kind keeps them in general registers (docs/performance.md). */
#pragma GCC target("prefer-vector-width=256,tune=icelake-server")
#endif
#include "_sudoku9_kernel.h"
S9_TARGET_END
#endif /* S9_MULTI */

/* The kernels' names, as EXCOVER_SIMD spells them. */
static const char *const s9_kernel_names[S9_KERNELS] = {"portable", "sse4", "avx2", "avx512"};

/* Whether this CPU (and its OS, which must save the wider registers) runs kernel k. */
static int s9_supported(int k) {
    if (k == S9_PORTABLE) return 1;
#if S9_MULTI
    __builtin_cpu_init();
    switch (k) {
    case S9_SSE4:
        return __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("popcnt");
    case S9_AVX2:
        return s9_supported(S9_SSE4) && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    case S9_AVX512:
        return s9_supported(S9_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    }
#endif
    return 0;
}

static s9_count_fn s9_kernel_fn(int k) {
#if S9_MULTI
    if (k == S9_SSE4) return s9_count_sse4;
    if (k == S9_AVX2) return s9_count_avx2;
    if (k == S9_AVX512) return s9_count_avx512;
#endif
    (void)k;
    return s9_count_portable;
}

static int s9_kernel = S9_PORTABLE;
static s9_count_fn s9_counter = s9_count_portable;

/* The widest kernel this CPU runs. */
static int s9_best(void) {
    int k = S9_KERNELS - 1;
    while (k > S9_PORTABLE && !s9_supported(k)) k--;
    return k;
}

/* Makes kernel k the one s9_run calls; 0 (changing nothing) when the CPU lacks it. */
static int s9_select(int k) {
    if (k < 0 || k >= S9_KERNELS || !s9_supported(k)) return 0;
    s9_kernel = k;
    s9_counter = s9_kernel_fn(k);
    return 1;
}

/* Counts the solutions of one puzzle with the selected kernel (see s9_count). */
static inline long s9_run(const uint8_t *grid, long limit, uint8_t *out, int (*check)(void),
                          long *ticks, long *guesses) {
    return s9_counter(grid, limit, out, check, ticks, guesses);
}

#endif
