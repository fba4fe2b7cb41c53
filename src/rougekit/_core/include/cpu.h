/* Whether the compiled core takes its x86-64-v3 loops: code built for any
   x86-64 CPU, with functions compiled for AVX2, BMI1, BMI2, LZCNT and
   POPCNT taken at run time where the CPU has them (classify.h's
   classifying and word bounds, walk.h's LCS walk). */
#ifndef ROUGEKIT_CPU_H
#define ROUGEKIT_CPU_H

#if !defined(RK_NO_SIMD) && defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__)) \
    && (defined(__GNUC__) || defined(__clang__))
#define RK_HAVE_X86_64_V3 1

/* 1 while the x86-64-v3 loops run: set by rk_x86_64_v3_init (at a module's
   import) from the CPU, changed only by rk_set_x86_64_v3 (tests). One per
   extension module: it is a static of this header. */
__attribute__((unused)) static int rk_x86_64_v3 = 0;
#endif

/* Whether the CPU runs the x86-64-v3 loops: AVX2, BMI1, BMI2, LZCNT and
   POPCNT (every CPU with AVX2 and BMI2 has the others; checked all the
   same where the compiler can ask). */
static inline int rk_x86_64_v3_supported(void)
{
#ifdef RK_HAVE_X86_64_V3
    __builtin_cpu_init();
    return (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
            && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt")
#if !defined(__clang__)
            && __builtin_cpu_supports("lzcnt")
#endif
            ) ? 1 : 0;
#else
    return 0;
#endif
}

/* Take the x86-64-v3 loops where the CPU has them (a module calls this
   once, when it is imported). */
static inline void rk_x86_64_v3_init(void)
{
#ifdef RK_HAVE_X86_64_V3
    rk_x86_64_v3 = rk_x86_64_v3_supported();
#endif
}

/* Testing hook: on = 1 takes the x86-64-v3 loops (where the CPU has them),
   0 the baseline ones (SSE2, portable C). Returns whether the x86-64-v3 loops
   are taken now. Not thread-safe. */
static inline int rk_set_x86_64_v3(int on)
{
#ifdef RK_HAVE_X86_64_V3
    rk_x86_64_v3 = on && rk_x86_64_v3_supported();
    return rk_x86_64_v3;
#else
    (void)on;
    return 0;
#endif
}

#endif
