/* Compiler hints of the compiled core's headers: inlining and a branch's
   likely way, each a plain fallback where the compiler has no such hint.
   One home for them (tests/test_one_definition.py). */
#ifndef ROUGEKIT_HINTS_H
#define ROUGEKIT_HINTS_H

#if defined(_MSC_VER)
#define RK_ALWAYS_INLINE __forceinline
#define RK_NOINLINE __declspec(noinline)
#elif defined(__GNUC__) || defined(__clang__)
#define RK_ALWAYS_INLINE inline __attribute__((always_inline))
#define RK_NOINLINE __attribute__((noinline))
#else
#define RK_ALWAYS_INLINE inline
#define RK_NOINLINE
#endif

/* A condition that is nearly always true, for the compiler's layout and
   register choices. */
#if defined(__GNUC__) || defined(__clang__)
#define RK_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define RK_LIKELY(x) (x)
#endif

#endif
