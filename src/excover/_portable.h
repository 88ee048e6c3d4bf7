/* Portable bit tricks and 128-bit counters for excover's compiled modules.
 *
 * GCC and Clang have builtins for popcount and count-trailing-zeros, and an unsigned
 * __int128 type; MSVC has intrinsics instead and no 128-bit integer, so there a pair of
 * 64-bit words stands in for it. The compiled modules only ever add counters (with an
 * overflow check) and read their two halves, so these few functions are all they need.
 */
#ifndef EXCOVER_PORTABLE_H
#define EXCOVER_PORTABLE_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>

static __inline int excover_popcount64(unsigned long long x) { return (int)__popcnt64(x); }

static __inline int excover_ctz64(unsigned long long x) {
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
}

typedef struct { uint64_t lo, hi; } excover_u128;

static __inline excover_u128 excover_u128_of(uint64_t x) {
    excover_u128 r;
    r.lo = x;
    r.hi = 0;
    return r;
}

/* acc += x; returns 1 when the sum does not fit in 128 bits. */
static __inline int excover_u128_add(excover_u128 *acc, excover_u128 x) {
    unsigned char carry = _addcarry_u64(0, acc->lo, x.lo, &acc->lo);
    carry = _addcarry_u64(carry, acc->hi, x.hi, &acc->hi);
    return carry;
}

static __inline uint64_t excover_u128_lo(excover_u128 x) { return x.lo; }
static __inline uint64_t excover_u128_hi(excover_u128 x) { return x.hi; }

#else

static inline int excover_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
static inline int excover_ctz64(unsigned long long x) { return __builtin_ctzll(x); }

typedef unsigned __int128 excover_u128;

static inline excover_u128 excover_u128_of(uint64_t x) { return (excover_u128)x; }

/* acc += x; returns 1 when the sum does not fit in 128 bits. */
static inline int excover_u128_add(excover_u128 *acc, excover_u128 x) {
    excover_u128 before = *acc;
    *acc = before + x;
    return *acc < before;
}

static inline uint64_t excover_u128_lo(excover_u128 x) { return (uint64_t)x; }
static inline uint64_t excover_u128_hi(excover_u128 x) { return (uint64_t)(x >> 64); }

#endif
#endif
