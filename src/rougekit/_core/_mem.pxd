# Growing C arrays, shared by the compiled modules (inline: no cross-module
# calls). Every size is checked against overflow before it is allocated.
from libc.stdint cimport SIZE_MAX, int32_t
from libc.stdlib cimport realloc
from libc.string cimport memset

cdef enum:
    # Ids, counts and positions the kernels keep in int32 arrays stay below
    # this, so that any count or sum of two of them fits an int32 (the
    # Python twins' _ids_py.MAX_IDS).
    MAX_IDS = 0x7FFFFFF0
    # Ids and positions given from Python stay below this (_ids_py.ID_LIMIT).
    ID_LIMIT = 0x7FFFFFFF


cdef inline int grow_to(void** buf, Py_ssize_t old_cap, Py_ssize_t new_cap,
                        size_t item, int fill) noexcept nogil:
    """Reallocate *buf from old_cap to new_cap items of item bytes; the new
    items are set to bytes of fill (no fill when fill < 0). Returns -1, with
    *buf unchanged, when the size overflows or the allocation fails."""
    cdef void* p
    if new_cap < 0 or <size_t>new_cap > SIZE_MAX // item:
        return -1
    p = realloc(buf[0], <size_t>new_cap * item)
    if p == NULL:
        return -1
    if fill >= 0 and new_cap > old_cap:
        memset(<char*>p + <size_t>old_cap * item, fill, <size_t>(new_cap - old_cap) * item)
    buf[0] = p
    return 0


cdef inline int grow_array(void** buf, Py_ssize_t* cap, Py_ssize_t need,
                           size_t item, int fill) noexcept nogil:
    """Room for at least need items in *buf (capacity *cap, doubled or set
    to need, whichever is larger); new items set to bytes of fill (none when
    fill < 0). Returns -1 when out of memory; *buf and *cap then unchanged."""
    cdef Py_ssize_t new_cap
    if need <= cap[0]:
        return 0
    new_cap = cap[0] * 2 if cap[0] * 2 > need else need
    if grow_to(buf, cap[0], new_cap, item, fill) < 0:
        return -1
    cap[0] = new_cap
    return 0


cdef inline void unmark(int32_t* table, const int32_t* keys, Py_ssize_t n) noexcept nogil:
    """table[keys[k]] <- -1 for k < n: a table kept at -1 between uses (ids
    by token) forgets the n entries one use set, at the cost of n, not of
    the table's size."""
    cdef Py_ssize_t k
    for k in range(n):
        table[keys[k]] = -1
