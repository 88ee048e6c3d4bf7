# Cython declarations of _portable.h: bit tricks and 128-bit counters that build with GCC,
# Clang and MSVC alike. A counter is opaque here: only these functions touch it.
from libc.stdint cimport uint64_t

cdef extern from "_portable.h" nogil:
    ctypedef struct u128 "excover_u128":
        pass
    int popcount64 "excover_popcount64" (unsigned long long x) noexcept
    int ctz64 "excover_ctz64" (unsigned long long x) noexcept
    u128 u128_of "excover_u128_of" (uint64_t x) noexcept
    int u128_add "excover_u128_add" (u128* acc, u128 x) noexcept
    uint64_t u128_lo "excover_u128_lo" (u128 x) noexcept
    uint64_t u128_hi "excover_u128_hi" (u128 x) noexcept
