# cython: language_level=3
"""The token hash table: interned token strings and their ids.

A ``Vocab`` maps each distinct token (a byte string) to a dense int32 id, in
order of first appearance, and keeps the id of each token's Porter stem once
computed, and a 64-bit tag per token that its owner may use (the engine
numbers a pair's tokens there: the tag sits in the token's slot, which the
lookup has just read). It is an open-addressing table (linear probing, load
<= 1/2; a sparse table, the engine's, <= 1/8 below SPARSE_SLOTS slots and
<= 1/4 at it) over a byte pool. Everything here is inline, so the
tokenizer's word loop calls no function across modules; every growth is
checked and reports -1 when out of memory or ids.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from rougekit._core._mem cimport MAX_IDS, grow_array, grow_to

cdef extern from "vocab.h" nogil:
    const uint64_t RK_HASH_MUL
    # One entry of the open-addressing table (vocab.h says more): id -1
    # marks an empty slot; size and the first 16 bytes beside it.
    ctypedef struct Slot "RkSlot":
        uint64_t tag
        uint64_t pre
        uint64_t pre2
        int32_t id
        int32_t size
    # vocab_hash of a token of n bytes whose first two chunks are c0 and c1
    # (the whole token when n <= 16)
    uint64_t vocab_hash16 "rk_hash16"(uint64_t c0, uint64_t c1, int64_t n)
    bint rk_slot_holds(const Slot* s, uint64_t c0, uint64_t c1, int64_t n)
    # the slot of a token of at most 16 bytes, or NULL (vocab.h)
    Slot* vocab_slot_in "rk_slot_find16"(Slot* slots, int64_t mask, int shift, uint64_t h,
                                         uint64_t c0, uint64_t c1, int64_t n)

cdef enum:
    # The pool keeps this many bytes to spare past its last token.
    POOL_SLACK = 16
    # log2 of the slots of a fresh table
    INITIAL_SLOT_BITS = 11
    # A sparse table (vocab_init's sparse) keeps a load of at most 1/8
    # below this many slots (2 MiB), 1/4 at it (16,384 tokens), beyond it
    # 1/2: fewer tokens away from their hash's slot (a second probe is a
    # mispredicted branch in the word loop), for at most 2 MiB more than a
    # table at 1/2 (the most for a vocabulary of 16,385 to 32,768 tokens); a
    # vocabulary of 4,097 to 16,384 tokens has the 2 MiB table. Other tables
    # keep 1/2 at every size.
    SPARSE_SLOTS = 65536


ctypedef struct Vocab:
    # Interned token strings: token g is pool[off[g] : off[g] + size[g]].
    char* pool
    Py_ssize_t pool_len, pool_cap
    Py_ssize_t* off
    int32_t* size
    # stem_of[g]: id of g's stem; -1 not yet computed; -2 the stem is empty
    # (rouge-score would drop the token).
    int32_t* stem_of
    # slot_of[g]: the slot that holds token g
    Py_ssize_t* slot_of
    # stem_slot[g]: the slot whose tag numbers g when stemming (words.h's
    # loop reads it, one load instead of stem_of's and slot_of's): g's own
    # slot when g has at most 3 bytes (its own stem, as rouge-score has it),
    # else its stem's slot once the stem is known; -1 before that, and for
    # an empty stem. Kept by vocab_intern_hashed, vocab_set_stem and _rehash.
    Py_ssize_t* stem_slot
    Py_ssize_t n, cap
    # Open-addressing table over the ids (linear probing, load <= 1/2, or
    # when sparse <= 1/8, 1/4 or 1/2 by its size; SPARSE_SLOTS):
    # nslots = 2 ** (64 - shift), a hash h goes to slot h >> shift.
    Slot* slots
    Py_ssize_t nslots
    int shift
    bint sparse


cdef inline uint64_t vocab_chunk(const char* s, Py_ssize_t n) noexcept nogil:
    """The first min(max(n, 0), 8) bytes of s, zero-padded, in memory order
    (Slot.pre and .pre2, and rk_load_prefix, hold chunks so). Reads only
    those bytes."""
    cdef uint64_t p = 0
    if n > 0:
        memcpy(&p, s, <size_t>(n if n < 8 else 8))
    return p


cdef inline uint64_t vocab_prefix(const char* s, Py_ssize_t n) noexcept nogil:
    """The first 8 bytes of s[0:n], zero-padded, as Slot.pre holds them."""
    return vocab_chunk(s, n)


cdef inline uint64_t vocab_hash(const char* s, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = vocab_hash16(vocab_chunk(s, n), vocab_chunk(s + 8, n - 8), n)
    cdef Py_ssize_t k = 16
    while k < n:
        h = (h ^ vocab_chunk(s + k, n - k)) * RK_HASH_MUL
        k += 8
    return h


cdef inline int vocab_init(Vocab* v, bint sparse) noexcept nogil:
    """An empty table; -1 when out of memory. sparse: kept at a low load
    (SPARSE_SLOTS), for a table whose every lookup is on the hot path (the
    engine's, which looks up every word of every pair); a table built once
    for a corpus or a call keeps 1/2 (a quarter of the memory to fill and
    copy)."""
    memset(v, 0, sizeof(Vocab))
    v.sparse = sparse
    v.cap = 1024
    v.nslots = 1 << INITIAL_SLOT_BITS
    v.shift = 64 - INITIAL_SLOT_BITS
    v.pool_cap = 16384
    v.pool = <char*>malloc(v.pool_cap)
    v.off = <Py_ssize_t*>malloc(v.cap * sizeof(Py_ssize_t))
    v.size = <int32_t*>malloc(v.cap * sizeof(int32_t))
    v.stem_of = <int32_t*>malloc(v.cap * sizeof(int32_t))
    v.slot_of = <Py_ssize_t*>malloc(v.cap * sizeof(Py_ssize_t))
    v.stem_slot = <Py_ssize_t*>malloc(v.cap * sizeof(Py_ssize_t))
    v.slots = <Slot*>malloc(v.nslots * sizeof(Slot))
    if (v.pool == NULL or v.off == NULL or v.size == NULL or v.stem_of == NULL
            or v.slot_of == NULL or v.stem_slot == NULL or v.slots == NULL):
        vocab_free(v)
        return -1
    memset(v.slots, 0xFF, v.nslots * sizeof(Slot))     # every id -1
    return 0


cdef inline int vocab_copy(Vocab* dst, const Vocab* src) noexcept nogil:
    """dst (uninitialized, or freed) becomes a copy of src; -1 when out of
    memory (dst then freed)."""
    memset(dst, 0, sizeof(Vocab))
    dst.pool = <char*>malloc(src.pool_cap)
    dst.off = <Py_ssize_t*>malloc(src.cap * sizeof(Py_ssize_t))
    dst.size = <int32_t*>malloc(src.cap * sizeof(int32_t))
    dst.stem_of = <int32_t*>malloc(src.cap * sizeof(int32_t))
    dst.slot_of = <Py_ssize_t*>malloc(src.cap * sizeof(Py_ssize_t))
    dst.stem_slot = <Py_ssize_t*>malloc(src.cap * sizeof(Py_ssize_t))
    dst.slots = <Slot*>malloc(src.nslots * sizeof(Slot))
    if (dst.pool == NULL or dst.off == NULL or dst.size == NULL or dst.stem_of == NULL
            or dst.slot_of == NULL or dst.stem_slot == NULL or dst.slots == NULL):
        vocab_free(dst)
        return -1
    memcpy(dst.pool, src.pool, src.pool_len)
    memcpy(dst.off, src.off, src.n * sizeof(Py_ssize_t))
    memcpy(dst.size, src.size, src.n * sizeof(int32_t))
    memcpy(dst.stem_of, src.stem_of, src.n * sizeof(int32_t))
    memcpy(dst.slot_of, src.slot_of, src.n * sizeof(Py_ssize_t))
    memcpy(dst.stem_slot, src.stem_slot, src.n * sizeof(Py_ssize_t))
    memcpy(dst.slots, src.slots, src.nslots * sizeof(Slot))
    dst.pool_len, dst.pool_cap = src.pool_len, src.pool_cap
    dst.n, dst.cap, dst.nslots, dst.shift = src.n, src.cap, src.nslots, src.shift
    dst.sparse = src.sparse
    return 0


cdef inline void vocab_free(Vocab* v) noexcept nogil:
    free(v.pool)
    free(v.off)
    free(v.size)
    free(v.stem_of)
    free(v.slot_of)
    free(v.stem_slot)
    free(v.slots)
    memset(v, 0, sizeof(Vocab))


cdef inline int _grow_ids(Vocab* v) noexcept nogil:
    # off, size, stem_of, slot_of and stem_slot share v.cap.
    cdef Py_ssize_t cap = v.cap * 2
    if (grow_to(<void**>&v.off, v.cap, cap, sizeof(Py_ssize_t), -1) < 0
            or grow_to(<void**>&v.size, v.cap, cap, sizeof(int32_t), -1) < 0
            or grow_to(<void**>&v.stem_of, v.cap, cap, sizeof(int32_t), -1) < 0
            or grow_to(<void**>&v.slot_of, v.cap, cap, sizeof(Py_ssize_t), -1) < 0
            or grow_to(<void**>&v.stem_slot, v.cap, cap, sizeof(Py_ssize_t), -1) < 0):
        return -1
    v.cap = cap
    return 0


cdef inline void _set_stem_slot(Vocab* v, int32_t g) noexcept nogil:
    """stem_slot[g] from g's size, stem_of and slot_of (the field's rule)."""
    cdef int32_t s = v.stem_of[g]
    if v.size[g] <= 3:
        v.stem_slot[g] = v.slot_of[g]
    else:
        v.stem_slot[g] = v.slot_of[s] if s >= 0 else -1


cdef inline void vocab_set_stem(Vocab* v, int32_t g, int32_t s) noexcept nogil:
    """Record s (an id, or -2 for an empty stem) as the stem of token g."""
    v.stem_of[g] = s
    _set_stem_slot(v, g)


cdef inline int _rehash(Vocab* v) noexcept nogil:
    cdef Py_ssize_t nslots = v.nslots * 2, mask = nslots - 1, i, k
    cdef int shift = v.shift - 1
    cdef Slot* slots = <Slot*>malloc(nslots * sizeof(Slot))
    if slots == NULL:
        return -1
    memset(slots, 0xFF, nslots * sizeof(Slot))
    cdef int32_t g
    for k in range(v.nslots):
        g = v.slots[k].id
        if g == -1:
            continue
        i = <Py_ssize_t>(vocab_hash(v.pool + v.off[g], v.size[g]) >> shift)
        while slots[i].id != -1:
            i = (i + 1) & mask
        slots[i] = v.slots[k]
        v.slot_of[g] = i
    free(v.slots)
    v.slots = slots
    v.nslots = nslots
    v.shift = shift
    for g in range(<int32_t>v.n):
        _set_stem_slot(v, g)
    return 0


cdef inline bint _same(const char* a, const char* b, Py_ssize_t n) noexcept nogil:
    # Tokens are short: a plain loop beats a call to memcmp.
    cdef Py_ssize_t i
    if n > 32:
        return memcmp(a, b, <size_t>n) == 0
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True


cdef inline int32_t vocab_intern(Vocab* v, const char* s, Py_ssize_t n) noexcept nogil:
    """The id of s[0:n], added if new; -1 when out of memory or ids."""
    return vocab_intern_hashed(v, s, n, vocab_hash(s, n))


cdef inline bint _matches(const Vocab* v, const Slot* slot, const char* s, Py_ssize_t n,
                          uint64_t pre, uint64_t pre2) noexcept nogil:
    """slot holds s[0:n] (first two chunks pre and pre2)."""
    return (rk_slot_holds(slot, pre, pre2, n)
            and (n <= 16 or _same(v.pool + v.off[slot.id] + 16, s + 16, n - 16)))


cdef inline int32_t vocab_intern_hashed(Vocab* v, const char* s, Py_ssize_t n, uint64_t h) noexcept nogil:
    cdef Py_ssize_t mask = v.nslots - 1
    cdef Py_ssize_t i = <Py_ssize_t>(h >> v.shift)
    cdef int32_t g
    cdef uint64_t pre = vocab_chunk(s, n)
    cdef uint64_t pre2 = vocab_chunk(s + 8, n - 8)
    while v.slots[i].id != -1:
        if _matches(v, &v.slots[i], s, n, pre, pre2):
            return v.slots[i].id
        i = (i + 1) & mask
    if v.n >= MAX_IDS or n > MAX_IDS:
        return -1
    if v.n == v.cap and _grow_ids(v) < 0:
        return -1
    if grow_array(<void**>&v.pool, &v.pool_cap, v.pool_len + n + POOL_SLACK, 1, -1) < 0:
        return -1
    g = <int32_t>v.n
    memcpy(v.pool + v.pool_len, s, <size_t>n)
    v.off[g] = v.pool_len
    v.size[g] = <int32_t>n
    v.stem_of[g] = -1
    v.slot_of[g] = i
    v.stem_slot[g] = i if n <= 3 else -1
    v.pool_len += n
    v.slots[i].tag = 0
    v.slots[i].pre = pre
    v.slots[i].pre2 = pre2
    v.slots[i].id = g
    v.slots[i].size = <int32_t>n
    v.n += 1
    if v.n * (2 if not v.sparse or v.nslots > SPARSE_SLOTS
              else 8 if v.nslots < SPARSE_SLOTS else 4) > v.nslots \
            and _rehash(v) < 0:
        return -1
    return g


cdef inline int32_t vocab_find(const Vocab* v, const char* w, Py_ssize_t n,
                               uint64_t h, uint64_t pre) noexcept nogil:
    """The id of w[0:n] (hash h, first 8 bytes pre) if interned, else -1."""
    cdef Py_ssize_t mask = v.nslots - 1
    cdef Py_ssize_t i = <Py_ssize_t>(h >> v.shift)
    cdef uint64_t pre2 = vocab_chunk(w + 8, n - 8)
    while v.slots[i].id != -1:
        if _matches(v, &v.slots[i], w, n, pre, pre2):
            return v.slots[i].id
        i = (i + 1) & mask
    return -1


cdef inline void vocab_clear_tags(Vocab* v) noexcept nogil:
    """Every token's tag back to 0."""
    cdef Py_ssize_t k
    for k in range(v.nslots):
        v.slots[k].tag = 0
