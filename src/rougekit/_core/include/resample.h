/* The bootstrap's inner loops (_rouge155.pyx's resample_means): drawing
   the instances of several resamples with Perl's drand48, and summing the
   drawn rows of a table for each of them.

   Every column of every resample is summed in draw order, one IEEE double
   add at a time, as Perl does; a vector add is that same add in each of its
   lanes, so any kernel below gives the same sums bit for bit. The kernels
   differ only in how many resamples they sum at once ("lanes"): each lane
   has its own chain of dependent adds, and more chains keep the adder busy.

   The table is block-major: block k holds columns 8k .. 8k+7 of every row,
   one 64-byte row after another (`rk_resample_table` aligns it to 64 bytes,
   so a row is one cache line). Draw t of lane r is idx[t * lanes + r]. */
#ifndef ROUGEKIT_RESAMPLE_H
#define ROUGEKIT_RESAMPLE_H
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "hints.h"

#define RK_SUM_BLOCK 8      /* columns per block: one row of a block is 64 bytes */
#define RK_MAX_LANES 8      /* the most resamples a kernel sums at once */


/* x86 with GCC or clang: wider kernels, picked at run time by the CPU
   (RK_NO_SIMD leaves them out, as on other CPUs). */
#if !defined(RK_NO_SIMD) && (defined(__x86_64__) || defined(__i386__)) \
    && (defined(__GNUC__) || defined(__clang__))
#define RK_HAVE_WIDE_SUMS 1
#include <immintrin.h>
#endif

/* int(rand(n)) from drand48's state: int(n * state / 2**48). */
static inline int32_t rk_draw_index(uint64_t state, Py_ssize_t n, double dn) {
    Py_ssize_t i = (Py_ssize_t)(dn * ((double)(int64_t)state * (1.0 / 281474976710656.0)));
    return (int32_t)(i < n ? i : n - 1);
}

/* For seeds seed .. seed + lanes - 1: Perl's srand(seed) then n draws of
   int(rand(n)), the generators advancing side by side (their multiplies do
   not wait for each other). */
static RK_ALWAYS_INLINE void
rk_draws_k(uint64_t seed, int lanes, Py_ssize_t n, int32_t *idx) {
    uint64_t state[RK_MAX_LANES];
    double dn = (double)n;
    for (int r = 0; r < lanes; r++)
        state[r] = ((seed + (uint64_t)r) << 16) + 0x330E;
    for (Py_ssize_t t = 0; t < n; t++) {
        for (int r = 0; r < lanes; r++) {
            state[r] = (state[r] * 0x5DEECE66DULL + 0xB) & 0xFFFFFFFFFFFFULL;
            idx[t * lanes + r] = rk_draw_index(state[r], n, dn);
        }
    }
}

/* Two lanes, two columns per 16-byte vector where the compiler has vector
   types (every x86-64 and arm64 CPU runs these). */
#if defined(__GNUC__) || defined(__clang__)
typedef double rk_v2d __attribute__((vector_size(16)));
static inline rk_v2d rk_load2(const double *p) {
    rk_v2d x;
    memcpy(&x, p, sizeof x);
    return x;
}
static void rk_sums_2(const double *table, Py_ssize_t width, Py_ssize_t n,
                      const int32_t *idx, double *sums) {
    for (Py_ssize_t c0 = 0; c0 < width; c0 += RK_SUM_BLOCK) {
        const double *block = table + c0 * n;
        rk_v2d a0 = {0.0, 0.0}, a1 = a0, a2 = a0, a3 = a0;
        rk_v2d b0 = a0, b1 = a0, b2 = a0, b3 = a0;
        for (Py_ssize_t t = 0; t < n; t++) {
            const double *ra = block + (Py_ssize_t)idx[2 * t] * RK_SUM_BLOCK;
            const double *rb = block + (Py_ssize_t)idx[2 * t + 1] * RK_SUM_BLOCK;
            a0 += rk_load2(ra); a1 += rk_load2(ra + 2);
            a2 += rk_load2(ra + 4); a3 += rk_load2(ra + 6);
            b0 += rk_load2(rb); b1 += rk_load2(rb + 2);
            b2 += rk_load2(rb + 4); b3 += rk_load2(rb + 6);
        }
        double *sa = sums + c0, *sb = sums + width + c0;
        memcpy(sa, &a0, 16); memcpy(sa + 2, &a1, 16);
        memcpy(sa + 4, &a2, 16); memcpy(sa + 6, &a3, 16);
        memcpy(sb, &b0, 16); memcpy(sb + 2, &b1, 16);
        memcpy(sb + 4, &b2, 16); memcpy(sb + 6, &b3, 16);
    }
}
#else
static void rk_sums_2(const double *table, Py_ssize_t width, Py_ssize_t n,
                      const int32_t *idx, double *sums) {
    for (Py_ssize_t c0 = 0; c0 < width; c0 += RK_SUM_BLOCK) {
        const double *block = table + c0 * n;
        double a[RK_SUM_BLOCK] = {0.0}, b[RK_SUM_BLOCK] = {0.0};
        for (Py_ssize_t t = 0; t < n; t++) {
            const double *ra = block + (Py_ssize_t)idx[2 * t] * RK_SUM_BLOCK;
            const double *rb = block + (Py_ssize_t)idx[2 * t + 1] * RK_SUM_BLOCK;
            for (int k = 0; k < RK_SUM_BLOCK; k++) { a[k] += ra[k]; b[k] += rb[k]; }
        }
        for (int k = 0; k < RK_SUM_BLOCK; k++) {
            sums[c0 + k] = a[k];
            sums[width + c0 + k] = b[k];
        }
    }
}
#endif

/* Four lanes (AVX2: a row is two 32-byte vectors) and eight lanes (AVX-512:
   a row is one 64-byte vector), chosen at run time on x86-64. */
#ifdef RK_HAVE_WIDE_SUMS

__attribute__((target("avx2")))
static void rk_sums_4(const double *table, Py_ssize_t width, Py_ssize_t n,
                      const int32_t *idx, double *sums) {
    for (Py_ssize_t c0 = 0; c0 < width; c0 += RK_SUM_BLOCK) {
        const double *block = table + c0 * n;
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, b0 = a0, b1 = a0;
        __m256d c_0 = a0, c_1 = a0, d0 = a0, d1 = a0;
        for (Py_ssize_t t = 0; t < n; t++) {
            const int32_t *k = idx + 4 * t;
            const double *ra = block + (Py_ssize_t)k[0] * RK_SUM_BLOCK;
            const double *rb = block + (Py_ssize_t)k[1] * RK_SUM_BLOCK;
            const double *rc = block + (Py_ssize_t)k[2] * RK_SUM_BLOCK;
            const double *rd = block + (Py_ssize_t)k[3] * RK_SUM_BLOCK;
            a0 = _mm256_add_pd(a0, _mm256_load_pd(ra));
            a1 = _mm256_add_pd(a1, _mm256_load_pd(ra + 4));
            b0 = _mm256_add_pd(b0, _mm256_load_pd(rb));
            b1 = _mm256_add_pd(b1, _mm256_load_pd(rb + 4));
            c_0 = _mm256_add_pd(c_0, _mm256_load_pd(rc));
            c_1 = _mm256_add_pd(c_1, _mm256_load_pd(rc + 4));
            d0 = _mm256_add_pd(d0, _mm256_load_pd(rd));
            d1 = _mm256_add_pd(d1, _mm256_load_pd(rd + 4));
        }
        _mm256_storeu_pd(sums + c0, a0);
        _mm256_storeu_pd(sums + c0 + 4, a1);
        _mm256_storeu_pd(sums + width + c0, b0);
        _mm256_storeu_pd(sums + width + c0 + 4, b1);
        _mm256_storeu_pd(sums + 2 * width + c0, c_0);
        _mm256_storeu_pd(sums + 2 * width + c0 + 4, c_1);
        _mm256_storeu_pd(sums + 3 * width + c0, d0);
        _mm256_storeu_pd(sums + 3 * width + c0 + 4, d1);
    }
}

__attribute__((target("avx512f")))
static void rk_sums_8(const double *table, Py_ssize_t width, Py_ssize_t n,
                      const int32_t *idx, double *sums) {
    for (Py_ssize_t c0 = 0; c0 < width; c0 += RK_SUM_BLOCK) {
        const double *block = table + c0 * n;
        __m512d s[8];
        for (int r = 0; r < 8; r++)
            s[r] = _mm512_setzero_pd();
        for (Py_ssize_t t = 0; t < n; t++) {
            const int32_t *k = idx + 8 * t;
            for (int r = 0; r < 8; r++)
                s[r] = _mm512_add_pd(
                    s[r], _mm512_load_pd(block + (Py_ssize_t)k[r] * RK_SUM_BLOCK));
        }
        for (int r = 0; r < 8; r++)
            _mm512_storeu_pd(sums + r * width + c0, s[r]);
    }
}

/* Eight generators in the lanes of one vector (AVX-512 with its 64-bit
   multiply, DQ), drawing four steps ahead: steps t+1 .. t+4 are each one
   multiply from step t's state (state * A^k + C_k, the generator jumped k
   steps), so the four multiplies do not wait for each other. The index of
   each draw is computed as rk_draw_index does, in each lane. */
__attribute__((target("avx512f,avx512dq")))
static void rk_draws_8_wide(uint64_t seed, Py_ssize_t n, int32_t *idx) {
    const uint64_t mask48 = 0xFFFFFFFFFFFFULL;
    uint64_t mul[5], add[5];        /* the generator jumped k steps: state * mul[k] + add[k] */
    mul[0] = 1; add[0] = 0;
    for (int k = 1; k <= 4; k++) {
        mul[k] = (mul[k - 1] * 0x5DEECE66DULL) & mask48;
        add[k] = (add[k - 1] * 0x5DEECE66DULL + 0xB) & mask48;
    }
    const __m512i m48 = _mm512_set1_epi64((long long)mask48);
    const __m512i top = _mm512_set1_epi64((long long)(n - 1));
    const __m512d scale = _mm512_set1_pd(1.0 / 281474976710656.0);
    const __m512d dn = _mm512_set1_pd((double)n);
    __m512i state = _mm512_add_epi64(
        _mm512_slli_epi64(_mm512_add_epi64(_mm512_set1_epi64((long long)seed),
                                           _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7)), 16),
        _mm512_set1_epi64(0x330E));
#define RK_JUMP(k) _mm512_and_si512(_mm512_add_epi64(_mm512_mullo_epi64( \
        state, _mm512_set1_epi64((long long)mul[k])), _mm512_set1_epi64((long long)add[k])), m48)
#define RK_STORE(t, x) _mm256_storeu_si256((__m256i *)(idx + 8 * (t)), _mm512_cvtepi64_epi32( \
        _mm512_min_epi64(_mm512_cvttpd_epi64(_mm512_mul_pd(dn, _mm512_mul_pd( \
            _mm512_cvtepi64_pd(x), scale))), top)))
    Py_ssize_t t = 0;
    for (; t + 4 <= n; t += 4) {
        __m512i x1 = RK_JUMP(1), x2 = RK_JUMP(2), x3 = RK_JUMP(3), x4 = RK_JUMP(4);
        RK_STORE(t, x1);
        RK_STORE(t + 1, x2);
        RK_STORE(t + 2, x3);
        RK_STORE(t + 3, x4);
        state = x4;
    }
    for (; t < n; t++) {
        state = RK_JUMP(1);
        RK_STORE(t, state);
    }
#undef RK_JUMP
#undef RK_STORE
}

static int rk_wide_draws = 0;       /* set by rk_resample_lanes: AVX-512 DQ is there */
#endif

/* How many lanes the widest kernel this CPU runs sums at once: 8, 4 or 2. */
static int rk_resample_lanes(void) {
#ifdef RK_HAVE_WIDE_SUMS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        rk_wide_draws = __builtin_cpu_supports("avx512dq");
        return 8;
    }
    if (__builtin_cpu_supports("avx2"))
        return 4;
#endif
    return 2;
}

/* Draws for `lanes` resamples from seed on: idx[t * lanes + r] is draw t of
   seed + r. */
static void rk_draws(uint64_t seed, int lanes, Py_ssize_t n, int32_t *idx) {
#ifdef RK_HAVE_WIDE_SUMS
    if (lanes == 8 && rk_wide_draws) {
        rk_draws_8_wide(seed, n, idx);
        return;
    }
#endif
    switch (lanes) {        /* a constant count of generators unrolls */
    case 8: rk_draws_k(seed, 8, n, idx); break;
    case 4: rk_draws_k(seed, 4, n, idx); break;
    default: rk_draws_k(seed, 2, n, idx); break;
    }
}

/* sums[r * width + c] = the sum of column c over the rows drawn by lane r,
   for lanes 2, 4 or 8 (at most rk_resample_lanes()); idx holds n draws per
   lane, interleaved as rk_draws writes them. */
static void rk_resample_sums(const double *table, Py_ssize_t width, Py_ssize_t n,
                             int lanes, const int32_t *idx, double *sums) {
#ifdef RK_HAVE_WIDE_SUMS
    if (lanes == 8) { rk_sums_8(table, width, n, idx, sums); return; }
    if (lanes == 4) { rk_sums_4(table, width, n, idx, sums); return; }
#endif
    rk_sums_2(table, width, n, idx, sums);
}

#endif
