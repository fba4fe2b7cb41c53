from libc.stdint cimport int32_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset
from cpython.number cimport PyNumber_Index

from rougekit._core._mem cimport ID_LIMIT


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
    if total >= ID_LIMIT:
        raise ValueError("too many tokens: at most 2**31 - 2 per call")
    return total


cdef extern from "Python.h":
    ctypedef struct PyObject
    ctypedef Py_ssize_t Py_hash_t
    object PySequence_Fast(object o, const char* m)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject* PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    Py_hash_t PyObject_Hash(object o) except? -1
    int PyObject_RichCompareBool(object a, object b, int op) except -1
    void Py_INCREF(PyObject* o)
    void Py_DECREF(PyObject* o)
    int Py_EQ
    bint PyUnicode_CheckExact(PyObject* o)
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)
    int PyUnicode_KIND(PyObject* o)
    void* PyUnicode_DATA(PyObject* o)


cdef extern from "compat.h":
    int rk_unicode_ready(object o) except -1


cdef inline int _equal_tokens(PyObject* a, PyObject* b) except -1:
    """``a == b`` as a dict compares keys of equal hash: the same object, or
    ``==``; two exact str (the usual tokens) compared in C."""
    if a == b:
        return 1
    if PyUnicode_CheckExact(a) and PyUnicode_CheckExact(b):
        rk_unicode_ready(<object>a)
        rk_unicode_ready(<object>b)
        return (PyUnicode_GET_LENGTH(a) == PyUnicode_GET_LENGTH(b)
                and PyUnicode_KIND(a) == PyUnicode_KIND(b)
                and memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b),
                           <size_t>(PyUnicode_GET_LENGTH(a) * PyUnicode_KIND(a))) == 0)
    return PyObject_RichCompareBool(<object>a, <object>b, Py_EQ)


ctypedef struct TokenTable:
    # Open addressing over the distinct tokens seen (a strong reference to
    # each): slot s holds key[s] with hash[s] and its id, or id -1.
    PyObject** key
    Py_hash_t* hash
    int32_t* id
    Py_ssize_t mask
    Py_ssize_t n


cdef inline int token_table_init(TokenTable* t, Py_ssize_t tokens) except -1:
    """Room for ``tokens`` distinct tokens at load <= 1/2."""
    cdef Py_ssize_t cap = 8
    while cap < 2 * tokens:
        cap *= 2
    t.key = <PyObject**>malloc(cap * sizeof(PyObject*))
    t.hash = <Py_hash_t*>malloc(cap * sizeof(Py_hash_t))
    t.id = <int32_t*>malloc(cap * sizeof(int32_t))
    t.mask = cap - 1
    t.n = 0
    if t.key == NULL or t.hash == NULL or t.id == NULL:
        free(t.key)
        free(t.hash)
        free(t.id)
        t.key = NULL
        t.hash = NULL
        t.id = NULL
        raise MemoryError()
    memset(t.id, 0xFF, cap * sizeof(int32_t))
    return 0


cdef inline void token_table_free(TokenTable* t) noexcept:
    cdef Py_ssize_t s
    if t.id != NULL:
        for s in range(t.mask + 1):
            if t.id[s] >= 0:
                Py_DECREF(t.key[s])
    free(t.key)
    free(t.hash)
    free(t.id)
    t.key = NULL
    t.hash = NULL
    t.id = NULL


cdef inline int32_t* ids_of_tokens(object seq, TokenTable* t, Py_ssize_t* n_out) except NULL:
    """Dense ids of a sequence of hashable tokens, in a new C array (caller
    frees): tokens are matched as dict keys match (equal hash, then the same
    object or ``==``) and numbered in order of first appearance in the table
    (which must have room for every distinct token given to it). An
    unhashable token is the TypeError ``hash`` raises."""
    cdef object fast = PySequence_Fast(seq, "tokens must be a sequence")
    cdef Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), k, s
    cdef PyObject* item
    cdef Py_hash_t h
    cdef int32_t* out = <int32_t*>malloc((n if n > 0 else 1) * sizeof(int32_t))
    if out == NULL:
        raise MemoryError()
    try:
        for k in range(n):
            # A token's __eq__ may run Python code that changes the list:
            # read each item afresh, and only while it is still there.
            if k >= PySequence_Fast_GET_SIZE(fast):
                raise ValueError("tokens changed size while being read")
            item = PySequence_Fast_GET_ITEM(fast, k)
            h = PyObject_Hash(<object>item)
            s = <Py_ssize_t>(<size_t>h & <size_t>t.mask)
            while True:
                if t.id[s] < 0:
                    if 2 * (t.n + 1) > t.mask + 1:
                        raise ValueError("token table full")  # sized by the caller
                    Py_INCREF(item)
                    t.key[s] = item
                    t.hash[s] = h
                    t.id[s] = <int32_t>t.n
                    t.n += 1
                    break
                if t.hash[s] == h and _equal_tokens(t.key[s], item):
                    break
                s = (s + 1) & t.mask
            out[k] = t.id[s]
    except BaseException:
        free(out)
        raise
    n_out[0] = n
    return out


cdef inline Py_ssize_t* sentence_ids_from(list sents, int32_t** tok_out, Py_ssize_t bound,
                                         str name, TokenTable* table=NULL) except NULL:
    """The sentences' ids side by side in a new array (*tok_out), and the
    offsets of each sentence (returned; ns + 1 of them). Caller frees both.
    Each sentence is a sequence of ints in [0, bound) (``ids_from``), or,
    with ``table``, of hashable tokens numbered through it
    (``ids_of_tokens``; ``bound`` unused)."""
    cdef Py_ssize_t ns = len(sents), k, total = 0, n, off = 0
    for k in range(ns):
        total += len(sents[k])
    cdef Py_ssize_t* offs = <Py_ssize_t*>malloc((ns + 1) * sizeof(Py_ssize_t))
    cdef int32_t* tok = <int32_t*>malloc((total if total > 0 else 1) * sizeof(int32_t))
    cdef int32_t* part
    if offs == NULL or tok == NULL:
        free(offs)
        free(tok)
        raise MemoryError()
    try:
        for k in range(ns):
            offs[k] = off
            if table != NULL:
                part = ids_of_tokens(sents[k], table, &n)
            else:
                part = ids_from(sents[k], &n, bound, name)
            if n > total - off:  # a sentence grew under us
                free(part)
                raise ValueError(f"{name} changed size while being read")
            memcpy(tok + off, part, n * sizeof(int32_t))
            free(part)
            off += n
        offs[ns] = off
    except BaseException:
        free(offs)
        free(tok)
        raise
    tok_out[0] = tok
    return offs
