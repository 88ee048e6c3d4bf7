/* The two hot loops of the bit-parallel engine (_bits.pyx), compiled for several CPUs.
 *
 * Both work on bitsets over the engine's options (``ow`` 64-bit words each):
 *   - filter: a child level's options in play are its parent's minus every option that
 *     has one of the chosen option's forbidden bits (one column bitset per bit);
 *   - mrv: the uncovered primary item whose column meets the options in play in the
 *     fewest bits (ties to the lowest item; stop at once at zero, as DLX1 does); its
 *     "forced" copy also marks the items with one option left (forced moves).
 *
 * The same source is compiled three times: for AVX-512 with a vector popcount, for AVX2
 * with the scalar POPCNT instruction, and for the baseline of the build; a bitset of 33
 * words then costs a handful of vector instructions instead of a loop of 33. The caller
 * picks once, with excover_bits_level(), the best its CPU runs. Compilers without GCC's
 * target attributes (MSVC) get the baseline only.
 */
#ifndef EXCOVER_BITKERNELS_H
#define EXCOVER_BITKERNELS_H

#include <stdint.h>
#include "_portable.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32)
#define EXCOVER_BITS_DISPATCH 1
#else
#define EXCOVER_BITS_DISPATCH 0
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define EXCOVER_RESTRICT __restrict
#define EXCOVER_INLINE static __forceinline
#else
#define EXCOVER_RESTRICT __restrict__
#define EXCOVER_INLINE static inline __attribute__((always_inline))
#endif

/* child = parent & ~(cols[bit[0]] | cols[bit[1]] | ...); returns the bits set in child. */
EXCOVER_INLINE int64_t excover_filter_body(uint64_t *EXCOVER_RESTRICT child,
                                           const uint64_t *EXCOVER_RESTRICT parent,
                                           const uint64_t *EXCOVER_RESTRICT cols,
                                           const int32_t *EXCOVER_RESTRICT bits, int32_t n_bits,
                                           int32_t ow) {
    int64_t total = 0;
    int32_t w, k;
    const uint64_t *col = cols + (int64_t)bits[0] * ow;
    for (w = 0; w < ow; w++) child[w] = parent[w] & ~col[w];
    for (k = 1; k < n_bits; k++) {
        col = cols + (int64_t)bits[k] * ow;
        for (w = 0; w < ow; w++) child[w] &= ~col[w];
    }
    for (w = 0; w < ow; w++) total += excover_popcount64(child[w]);
    return total;
}

/* The bits set in both ``live`` and ``col`` (``ow`` words): an item's options in play. */
EXCOVER_INLINE int64_t excover_live_count(const uint64_t *EXCOVER_RESTRICT live,
                                          const uint64_t *EXCOVER_RESTRICT col, int32_t ow) {
    int64_t n = 0;
    int32_t w;
    for (w = 0; w < ow; w++) n += excover_popcount64(live[w] & col[w]);
    return n;
}

/* The uncovered item (a set bit of ``uncovered``, ``uw`` words) whose column has the
 * fewest bits in ``live``: the lowest such item, or the first whose count is zero.
 * Its count goes to *least. Returns -1 when no item is uncovered. */
/* The MRV choice; when single is not NULL, it also marks there (uw words, cleared here)
 * the uncovered items with exactly one option in play, the forced moves (of every item
 * when none has no option: the scan stops at the first item with none). */
EXCOVER_INLINE int32_t excover_mrv_body(const uint64_t *EXCOVER_RESTRICT live,
                                        const uint64_t *EXCOVER_RESTRICT cols, int32_t ow,
                                        const uint64_t *EXCOVER_RESTRICT uncovered, int32_t uw,
                                        int64_t *least, uint64_t *EXCOVER_RESTRICT single) {
    int64_t fewest = INT64_MAX, n;
    int32_t best = -1, u, t;
    uint64_t x;
    if (single)
        for (u = 0; u < uw; u++) single[u] = 0;
    for (u = 0; u < uw; u++) {
        x = uncovered[u];
        while (x) {
            t = u * 64 + excover_ctz64(x);
            x &= x - 1;
            n = excover_live_count(live, cols + (int64_t)t * ow, ow);
            if (single && n == 1) single[u] |= (uint64_t)1 << (t & 63);
            if (n < fewest) {
                fewest = n;
                best = t;
                if (n == 0) goto done;
            }
        }
    }
done:
    *least = fewest;
    return best;
}

/* The count of every uncovered item into counts[t] (for random tie-breaking). */
EXCOVER_INLINE void excover_counts_body(const uint64_t *EXCOVER_RESTRICT live,
                                        const uint64_t *EXCOVER_RESTRICT cols, int32_t ow,
                                        const uint64_t *EXCOVER_RESTRICT uncovered, int32_t uw,
                                        int64_t *EXCOVER_RESTRICT counts) {
    int32_t u, t;
    uint64_t x;
    for (u = 0; u < uw; u++) {
        x = uncovered[u];
        while (x) {
            t = u * 64 + excover_ctz64(x);
            x &= x - 1;
            counts[t] = excover_live_count(live, cols + (int64_t)t * ow, ow);
        }
    }
}

#define EXCOVER_BITS_VARIANT(SUFFIX, ATTRIBUTE)                                              \
    ATTRIBUTE static int64_t excover_filter_##SUFFIX(                                      \
        uint64_t *child, const uint64_t *parent, const uint64_t *cols, const int32_t *bits, \
        int32_t n_bits, int32_t ow) {                                                       \
        return excover_filter_body(child, parent, cols, bits, n_bits, ow);                  \
    }                                                                                       \
    ATTRIBUTE static int32_t excover_mrv_##SUFFIX(const uint64_t *live, const uint64_t *cols, \
                                                  int32_t ow, const uint64_t *uncovered,    \
                                                  int32_t uw, int64_t *least) {             \
        return excover_mrv_body(live, cols, ow, uncovered, uw, least, NULL);                \
    }                                                                                       \
    ATTRIBUTE static void excover_counts_##SUFFIX(const uint64_t *live, const uint64_t *cols, \
                                                  int32_t ow, const uint64_t *uncovered,    \
                                                  int32_t uw, int64_t *counts) {            \
        excover_counts_body(live, cols, ow, uncovered, uw, counts);                         \
    }                                                                                       \
    ATTRIBUTE static int32_t excover_forced_##SUFFIX(                                      \
        const uint64_t *live, const uint64_t *cols, int32_t ow, const uint64_t *uncovered,  \
        int32_t uw, int64_t *least, uint64_t *single) {                                     \
        return excover_mrv_body(live, cols, ow, uncovered, uw, least, single);              \
    }

EXCOVER_BITS_VARIANT(base, )
#if EXCOVER_BITS_DISPATCH
EXCOVER_BITS_VARIANT(avx2, __attribute__((target("avx2,popcnt,bmi"))))
EXCOVER_BITS_VARIANT(avx512,
                     __attribute__((target("avx512f,avx512vl,avx512bw,avx512vpopcntdq,popcnt,bmi"))))
#endif

/* 2: AVX-512 with VPOPCNTDQ, 1: AVX2 and POPCNT, 0: the baseline. */
static int excover_bits_level(void) {
#if EXCOVER_BITS_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vpopcntdq"))
        return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) return 1;
#endif
    return 0;
}

typedef int64_t (*excover_filter_fn)(uint64_t *, const uint64_t *, const uint64_t *,
                                     const int32_t *, int32_t, int32_t);
typedef int32_t (*excover_mrv_fn)(const uint64_t *, const uint64_t *, int32_t,
                                  const uint64_t *, int32_t, int64_t *);
typedef void (*excover_counts_fn)(const uint64_t *, const uint64_t *, int32_t,
                                  const uint64_t *, int32_t, int64_t *);
typedef int32_t (*excover_forced_fn)(const uint64_t *, const uint64_t *, int32_t,
                                     const uint64_t *, int32_t, int64_t *, uint64_t *);

/* The kernel ``name`` of a level (capped at what was compiled in):
 * excover_filter_kernel, excover_mrv_kernel, excover_forced_kernel, excover_counts_kernel. */
#if EXCOVER_BITS_DISPATCH
#define EXCOVER_KERNEL_OF_LEVEL(name)                                                      \
    static excover_##name##_fn excover_##name##_kernel(int level) {                       \
        if (level >= 2) return excover_##name##_avx512;                                   \
        if (level >= 1) return excover_##name##_avx2;                                     \
        return excover_##name##_base;                                                     \
    }
#else
#define EXCOVER_KERNEL_OF_LEVEL(name)                                                      \
    static excover_##name##_fn excover_##name##_kernel(int level) {                       \
        (void)level;                                                                      \
        return excover_##name##_base;                                                     \
    }
#endif
EXCOVER_KERNEL_OF_LEVEL(filter)
EXCOVER_KERNEL_OF_LEVEL(mrv)
EXCOVER_KERNEL_OF_LEVEL(forced)
EXCOVER_KERNEL_OF_LEVEL(counts)

#endif
