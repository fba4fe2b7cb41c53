/* Small portability shims for the compiled modules. */
#ifndef ROUGEKIT_COMPAT_H
#define ROUGEKIT_COMPAT_H
#include <Python.h>

/* Strings are always "ready" from Python 3.12; before, make sure. */
static inline int rk_unicode_ready(PyObject *o) {
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_READY(o);
#else
    (void)o;
    return 0;
#endif
}

/* A flag shared between threads (an engine's "in use" mark, a cancel flag).
   Atomic, so that it stays correct when the GIL is disabled (free-threaded
   CPython); acquire/release order the engine's state between its users. */
#if defined(_MSC_VER)
#include <intrin.h>
static inline int rk_flag_try_acquire(volatile long *f) {
    return _InterlockedCompareExchange(f, 1, 0) == 0;
}
static inline void rk_flag_release(volatile long *f) { _InterlockedExchange(f, 0); }
static inline void rk_flag_set(volatile long *f) { _InterlockedExchange(f, 1); }
static inline int rk_flag_get(volatile long *f) {
    return _InterlockedCompareExchange(f, 0, 0) != 0;
}
#else
static inline int rk_flag_try_acquire(volatile long *f) {
    long expected = 0;
    return __atomic_compare_exchange_n(f, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}
static inline void rk_flag_release(volatile long *f) {
    __atomic_store_n(f, 0, __ATOMIC_RELEASE);
}
static inline void rk_flag_set(volatile long *f) {
    __atomic_store_n(f, 1, __ATOMIC_RELEASE);
}
static inline int rk_flag_get(volatile long *f) {
    return __atomic_load_n(f, __ATOMIC_ACQUIRE) != 0;
}
#endif

/* Atomically add v to *p; returns the value before. */
#if defined(_MSC_VER)
static inline long rk_fetch_add(volatile long *p, long v) {
    return _InterlockedExchangeAdd(p, v);
}
#else
static inline long rk_fetch_add(volatile long *p, long v) {
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
#endif

/* A readers-writer state shared between threads: 0 free, n > 0 read by n
   users, -1 held by one writer. Never blocks: a try that fails tells the
   caller to raise (an index is never read while it is being changed). */
#if defined(_MSC_VER)
static inline int rk_rw_try_read(volatile long *s) {
    long cur = _InterlockedCompareExchange(s, 0, 0);
    while (cur >= 0) {
        long seen = _InterlockedCompareExchange(s, cur + 1, cur);
        if (seen == cur) return 1;
        cur = seen;
    }
    return 0;
}
static inline void rk_rw_read_done(volatile long *s) { _InterlockedDecrement(s); }
static inline int rk_rw_try_write(volatile long *s) {
    return _InterlockedCompareExchange(s, -1, 0) == 0;
}
static inline void rk_rw_write_done(volatile long *s) { _InterlockedExchange(s, 0); }
#else
static inline int rk_rw_try_read(volatile long *s) {
    long cur = __atomic_load_n(s, __ATOMIC_ACQUIRE);
    while (cur >= 0) {
        if (__atomic_compare_exchange_n(s, &cur, cur + 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_ACQUIRE))
            return 1;
    }
    return 0;
}
static inline void rk_rw_read_done(volatile long *s) {
    __atomic_fetch_sub(s, 1, __ATOMIC_RELEASE);
}
static inline int rk_rw_try_write(volatile long *s) {
    long expected = 0;
    return __atomic_compare_exchange_n(s, &expected, -1, 0, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}
static inline void rk_rw_write_done(volatile long *s) {
    __atomic_store_n(s, 0, __ATOMIC_RELEASE);
}
#endif

/* Ask for the cache lines of p[0:n] ahead of their use (at most the first
   RK_PREFETCH_MAX bytes: past them the CPU's own prefetcher follows the
   stream); nothing where the compiler has no prefetch. */
#define RK_PREFETCH_MAX 2048
static inline void rk_prefetch_bytes(const void *p, Py_ssize_t n) {
#if defined(__GNUC__) || defined(__clang__)
    const char *c = (const char *)p;
    Py_ssize_t i;
    if (n > RK_PREFETCH_MAX)
        n = RK_PREFETCH_MAX;
    for (i = 0; i < n; i += 64)
        __builtin_prefetch(c + i);
#else
    (void)p;
    (void)n;
#endif
}

#endif
