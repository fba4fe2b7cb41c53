"""The gram table: exact 64-bit keys to dense int32 ids (inline, shared).

Every kernel that numbers n-grams (or skip-bigrams) without building tuples
makes a key of two ids (``_overlap``: the (n-1)-gram's id and the next
token's; ``_text_index``: the same as (parent << 32 | token); ``_rouge155_counts``:
a skip-bigram's two tokens) and interns it here: the ids are 0, 1, 2, ... in
order of first appearance, so the caller counts in plain arrays by id. The
whole key is stored, so two grams never share an id. ``_vocab.pxd`` is the
same idea for token strings.

Open addressing, linear probing, load at most 1/2, capacity a power of two
(every probe is masked into the table). Every allocation is checked: a
function that allocates returns -1 when out of memory (or, interning, out of
ids), leaving the table as it was. A key must not be ``GRAM_EMPTY``, which
marks a free slot (``gram_intern`` refuses it); keys made of two ids below
2**31 never are.
"""
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from rougekit._core._mem cimport MAX_IDS

cdef enum:
    # The smallest capacity, and the capacity of a table's first growth.
    GRAM_MIN_CAP = 64

cdef extern from *:
    """
    #define RK_GRAM_EMPTY (~(uint64_t)0)
    """
    const uint64_t GRAM_EMPTY "RK_GRAM_EMPTY"


ctypedef struct GramTable:
    uint64_t* keys          # GRAM_EMPTY marks a free slot
    int32_t* ids            # the id of the key in the same slot
    Py_ssize_t cap          # a power of two, or 0 before the first key
    Py_ssize_t n            # keys stored; their ids are 0 .. n - 1


cdef inline Py_ssize_t gram_slot(const uint64_t* keys, Py_ssize_t cap,
                                 uint64_t key) noexcept nogil:
    """The slot of key in a table of cap slots (cap > 0): where it is, or
    the free slot where it would go."""
    cdef Py_ssize_t mask = cap - 1
    cdef uint64_t h = key * 0x9E3779B97F4A7C15ULL
    cdef Py_ssize_t s = <Py_ssize_t>((h ^ (h >> 29)) & <uint64_t>mask)
    while keys[s] != GRAM_EMPTY and keys[s] != key:
        s = (s + 1) & mask
    return s


cdef inline void gram_table_free(GramTable* t) noexcept nogil:
    free(t.keys)
    free(t.ids)
    memset(t, 0, sizeof(GramTable))


cdef inline int gram_table_reserve(GramTable* t, Py_ssize_t keys) noexcept nogil:
    """Room for ``keys`` keys in all at load <= 1/2, the keys stored kept;
    -1 when out of memory (or the size overflows), the table unchanged."""
    cdef Py_ssize_t cap = t.cap if t.cap else GRAM_MIN_CAP, k, s
    cdef uint64_t* new_keys
    cdef int32_t* new_ids
    if keys < 0 or keys > (<Py_ssize_t>1 << 58):
        return -1
    while cap < 2 * keys:
        cap <<= 1
    if cap == t.cap:
        return 0
    new_keys = <uint64_t*>malloc(<size_t>cap * sizeof(uint64_t))
    new_ids = <int32_t*>malloc(<size_t>cap * sizeof(int32_t))
    if new_keys == NULL or new_ids == NULL:
        free(new_keys)
        free(new_ids)
        return -1
    memset(new_keys, 0xFF, <size_t>cap * sizeof(uint64_t))
    for k in range(t.cap):
        if t.keys[k] != GRAM_EMPTY:
            s = gram_slot(new_keys, cap, t.keys[k])
            new_keys[s] = t.keys[k]
            new_ids[s] = t.ids[k]
    free(t.keys)
    free(t.ids)
    t.keys = new_keys
    t.ids = new_ids
    t.cap = cap
    return 0


cdef inline void gram_table_clear(GramTable* t) noexcept nogil:
    """Forget every key (ids start again at 0); the memory is kept."""
    if t.cap:
        memset(t.keys, 0xFF, <size_t>t.cap * sizeof(uint64_t))
    t.n = 0


cdef inline int32_t gram_find(const GramTable* t, uint64_t key) noexcept nogil:
    """The id of key, or -1 if it is not stored."""
    cdef Py_ssize_t s
    if t.cap == 0:
        return -1
    s = gram_slot(t.keys, t.cap, key)
    return t.ids[s] if t.keys[s] == key else -1


cdef inline int32_t gram_intern(GramTable* t, uint64_t key) noexcept nogil:
    """The id of key, stored with the next id if new; -1 when out of memory
    or ids (MAX_IDS of them), or key is GRAM_EMPTY."""
    cdef Py_ssize_t s
    if t.cap:
        s = gram_slot(t.keys, t.cap, key)
        if t.keys[s] == key:
            return t.ids[s]
    if key == GRAM_EMPTY or t.n >= MAX_IDS:
        return -1
    if 2 * (t.n + 1) > t.cap:
        if gram_table_reserve(t, t.cap if t.cap else 1) < 0:
            return -1
    s = gram_slot(t.keys, t.cap, key)
    t.keys[s] = key
    t.ids[s] = <int32_t>t.n
    t.n += 1
    return t.ids[s]


cdef inline int gram_next_level(int32_t* ids, Py_ssize_t count, const int32_t* tok,
                                Py_ssize_t vocab, GramTable* t) noexcept nogil:
    """ids[i] <- the id in t of (n-gram ids[i], token tok[i]), for i < count:
    the (n+1)-grams from the n-grams and the tokens after them (tok[i] <
    vocab). -1 when out of memory or ids."""
    cdef Py_ssize_t i
    cdef int32_t g
    for i in range(count):
        g = gram_intern(t, <uint64_t>ids[i] * <uint64_t>vocab + <uint64_t>tok[i])
        if g < 0:
            return -1
        ids[i] = g
    return 0
