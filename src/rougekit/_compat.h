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
#endif
