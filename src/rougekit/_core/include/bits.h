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
/* (63 ^ clz is 63 - clz, as clz < 64: GCC makes it one bsr, and the
   subtraction a bsr and two more instructions) */
static inline int rk_high_bit64(uint64_t x) { return 63 ^ __builtin_clzll(x); }
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

#endif
