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

#endif
