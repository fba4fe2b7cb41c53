/* Portable bit helpers for the compiled core. */
#ifndef ROUGEKIT_BITS_H
#define ROUGEKIT_BITS_H

#include <stdint.h>

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_AMD64))
#include <intrin.h>
static inline int rk_popcount64(uint64_t x) { return (int)__popcnt64(x); }
#elif (defined(__GNUC__) || defined(__clang__)) && \
      (defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__)))
/* One instruction where the target has one (aarch64, or x86 built with
   -mpopcnt); baseline x86-64 would call libgcc instead, so it takes the
   inline version below. */
static inline int rk_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int rk_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* Index of the highest set bit of x != 0. */
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_AMD64))
static inline int rk_high_bit64(uint64_t x) {
    unsigned long i; _BitScanReverse64(&i, x); return (int)i;
}
#elif defined(__GNUC__) || defined(__clang__)
static inline int rk_high_bit64(uint64_t x) { return 63 - __builtin_clzll(x); }
#else
static inline int rk_high_bit64(uint64_t x) {
    int i = 0; while (x >>= 1) i++; return i;
}
#endif

/* Index of the lowest set bit of x != 0. */
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_AMD64))
static inline int rk_low_bit64(uint64_t x) {
    unsigned long i; _BitScanForward64(&i, x); return (int)i;
}
#elif defined(__GNUC__) || defined(__clang__)
static inline int rk_low_bit64(uint64_t x) { return __builtin_ctzll(x); }
#else
static inline int rk_low_bit64(uint64_t x) {
    int i = 0; while (!(x & 1)) { x >>= 1; i++; } return i;
}
#endif

/* One row of the bit-parallel LCS over two words (columns 0-127; _lcs.pxd
   explains the step): s advanced by the match mask m, that is
   s = (s + (s & m)) | (s - (s & m)) with the carry running from word 0 into
   word 1. With 128-bit integers (gcc, clang) the add is one add-with-carry;
   RK_NO_SIMD builds take the two-word path below, so that CI tests it. */
static inline void rk_lcs_step128(uint64_t *s0, uint64_t *s1, uint64_t m0, uint64_t m1)
{
#if defined(__SIZEOF_INT128__) && !defined(RK_NO_SIMD)
    unsigned __int128 s = ((unsigned __int128)*s1 << 64) | *s0;
    unsigned __int128 u = s & (((unsigned __int128)m1 << 64) | m0);
    s = (s + u) | (s - u);
    *s0 = (uint64_t)s;
    *s1 = (uint64_t)(s >> 64);
#else
    uint64_t u0 = *s0 & m0, u1 = *s1 & m1;
    uint64_t x0 = *s0 + u0;
    uint64_t carry = x0 < *s0;
    /* u is a subset of s: s - u never borrows across the words */
    *s1 = (*s1 + u1 + carry) | (*s1 - u1);
    *s0 = x0 | (*s0 - u0);
#endif
}

#endif
