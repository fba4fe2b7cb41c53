from libc.stdint cimport int32_t
from libc.stdlib cimport malloc, free
from cpython.number cimport PyNumber_Index


cdef inline int32_t* ids_from(object seq, Py_ssize_t* n_out, Py_ssize_t bound,
                              str name) except NULL:
    """Copy a sequence of Python ints into a new C array (caller frees).

    Every id must lie in [0, bound): the Python layer numbers tokens densely
    per call, and the kernels index arrays of ``bound`` entries by id.
    """
    cdef Py_ssize_t n = len(seq), k
    cdef long long v
    cdef int32_t* out = <int32_t*>malloc((n if n > 0 else 1) * sizeof(int32_t))
    if out == NULL:
        raise MemoryError()
    try:
        for k in range(n):
            # PyNumber_Index: ints (and numpy ints) only; a float is a
            # TypeError, never silently truncated.
            v = PyNumber_Index(seq[k])
            if v < 0 or v >= bound:
                raise ValueError(
                    f"{name}: token id {v} outside [0, {bound}); ids must be "
                    "dense, numbered from 0 over the tokens given")
            out[k] = <int32_t>v
    except BaseException:
        free(out)
        raise
    n_out[0] = n
    return out


cdef inline Py_ssize_t check_total(Py_ssize_t total) except -1:
    if total >= 0x7FFFFFFF:
        raise ValueError("too many tokens: at most 2**31 - 2 per call")
    return total
