# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled clipped n-gram overlap on integer token ids.

Each n-gram gets a dense id without building tuples: the (n-1)-gram id at a
position and the next token id form a 64-bit key, which the gram table
(``_grams.pxd``: the whole key stored, so no two n-grams can share an id)
numbers in order of first appearance. The clipped overlap
sum_g min(count_a(g), count_b(g)) is then a pass over counts.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from rougekit._core._ids cimport (TokenTable, check_total, ids_from, ids_of_tokens,
                                 token_table_free, token_table_init)
from rougekit._core._grams cimport (GramTable, gram_intern, gram_next_level, gram_table_clear,
                                    gram_table_free, gram_table_reserve)
from rougekit._core._mem cimport grow_array


cdef int64_t clipped_overlap_ids(const int32_t* a, Py_ssize_t na,
                                 const int32_t* b, Py_ssize_t nb,
                                 Py_ssize_t vocab, Py_ssize_t n) noexcept nogil:
    """sum over n-grams g of min(count in a, count in b); -1 if out of memory."""
    cdef Py_ssize_t ca = na - n + 1, cb = nb - n + 1, i, k, nid
    cdef int64_t hits = 0
    cdef GramTable grams
    if n < 1 or ca <= 0 or cb <= 0:
        return 0
    cdef int32_t* ids = <int32_t*>malloc((ca + cb) * sizeof(int32_t))
    cdef int32_t* cnt = NULL
    if ids == NULL:
        return -1
    # Level 1: the n-gram ids start as the ids of their first tokens.
    for i in range(ca):
        ids[i] = a[i]
    for i in range(cb):
        ids[ca + i] = b[i]
    nid = vocab
    if n > 1:
        memset(&grams, 0, sizeof(GramTable))
        # Room for every n-gram of a and b: no growth while numbering.
        if gram_table_reserve(&grams, ca + cb) < 0:
            free(ids)
            return -1
        for k in range(1, n):
            gram_table_clear(&grams)
            # Ids of level k are < vocab (level 1) or < ca + cb (later levels),
            # and token ids are < vocab, so the keys are distinct and exact.
            if (gram_next_level(ids, ca, a + k, vocab, &grams) < 0
                    or gram_next_level(ids + ca, cb, b + k, vocab, &grams) < 0):
                gram_table_free(&grams)
                free(ids)
                return -1
        nid = grams.n
        gram_table_free(&grams)
    cnt = <int32_t*>malloc((nid if nid > 0 else 1) * sizeof(int32_t))
    if cnt == NULL:
        free(ids)
        return -1
    memset(cnt, 0, nid * sizeof(int32_t))
    for i in range(ca):
        cnt[ids[i]] += 1
    for i in range(cb):
        if cnt[ids[ca + i]] > 0:
            cnt[ids[ca + i]] -= 1
            hits += 1
    free(ids)
    free(cnt)
    return hits


# Bigrams are counted in a direct table of (vocab_a + 1) ** 2 entries up to
# this size (4 MiB of counts); beyond, through the hash table.
cdef Py_ssize_t BIGRAM_TABLE = 1 << 20


cdef enum:
    # n-grams counted in bytes while a text has at most this many (no count
    # passes 255)
    BYTE_COUNT_MAX = 255


cdef void overlap_scratch_free(OverlapScratch* sc) noexcept nogil:
    free(sc.cnt1)
    free(sc.cnt2)
    free(sc.cnt2b)
    free(sc.cnt1b)
    memset(sc, 0, sizeof(OverlapScratch))


cdef inline int64_t _unigram_minima(count_t* cnt, const int32_t* a, Py_ssize_t na,
                                    const int32_t* b, Py_ssize_t nb, Py_ssize_t vocab_a,
                                    Py_ssize_t vocab) noexcept nogil:
    """clipped_overlap_numbered's unigram hits for ids numbered per pair
    (dense, few), in cnt (2 * vocab zeros), left zeroed: both histograms,
    then the sum of the minima over the ids a can hold, which has no chain
    through memory (taking from cnt one token at a time waits on the store
    of the token before whenever an id repeats)."""
    cdef Py_ssize_t i
    cdef int64_t hits = 0
    for i in range(na):
        cnt[a[i]] += 1
    for i in range(nb):
        cnt[vocab + b[i]] += 1
    for i in range(vocab_a):
        hits += cnt[i] if cnt[i] < cnt[vocab + i] else cnt[vocab + i]
    memset(cnt, 0, <size_t>(2 * vocab) * sizeof(count_t))
    return hits


cdef inline int64_t _bigram_hits(count_t* cnt, const int32_t* a, Py_ssize_t ca,
                                 const int32_t* b, Py_ssize_t cb, int32_t top,
                                 Py_ssize_t w) noexcept nogil:
    """clipped_overlap_numbered's bigram count in cnt (w * w zeros, w = top
    + 1), left zeroed: a's bigrams counted, b's taken from them (b's ids
    from top up read as top, a row and column a never writes). A table of
    at most 64 bytes for each of a's bigrams is cleared whole (a few wide
    stores), a larger one at a's bigrams."""
    cdef Py_ssize_t i, x, y
    cdef int64_t hits = 0
    for i in range(ca):
        cnt[a[i] * w + a[i + 1]] += 1
    x = b[0] if b[0] < top else top
    for i in range(cb):
        y = b[i + 1] if b[i + 1] < top else top
        hits += take_count(cnt, x * w + y)
        x = y
    if <size_t>(w * w) * sizeof(count_t) <= <size_t>ca * 64:
        memset(cnt, 0, <size_t>(w * w) * sizeof(count_t))
    else:
        for i in range(ca):
            cnt[a[i] * w + a[i + 1]] = 0
    return hits


cdef int64_t clipped_overlap_scratch(const int32_t* a, Py_ssize_t na,
                                     const int32_t* b, Py_ssize_t nb,
                                     Py_ssize_t vocab, Py_ssize_t n,
                                     OverlapScratch* sc) noexcept nogil:
    """clipped_overlap_ids, with unigrams and (small-vocabulary) bigrams
    counted in the caller's zeroed tables, which are left zeroed."""
    return clipped_overlap_numbered(a, na, b, nb, vocab, vocab, n, sc)


cdef int64_t clipped_overlap_numbered(const int32_t* a, Py_ssize_t na,
                                      const int32_t* b, Py_ssize_t nb,
                                      Py_ssize_t vocab_a, Py_ssize_t vocab, Py_ssize_t n,
                                      OverlapScratch* sc) noexcept nogil:
    """clipped_overlap_scratch where a's ids are below vocab_a (<= vocab),
    as when a pair's tokens are numbered in order of appearance, a first
    (the engine numbers every token of b that a lacks as vocab_a).

    Only a's tokens can be in a shared n-gram: the unigram minima are summed
    over ids < vocab_a, and bigrams are counted in a table of
    (vocab_a + 1) ** 2, b's other ids all read as vocab_a, whose row and
    column a never writes (for a news pair about 15 KiB instead of the
    40 KiB of vocab ** 2, whose lines were mostly first-level cache misses).
    """
    cdef Py_ssize_t i, ca = na - n + 1, cb = nb - n + 1, w
    cdef bint dense
    cdef int64_t hits = 0
    cdef int32_t* cnt
    cdef int32_t top = <int32_t>vocab_a
    if n < 1 or ca <= 0 or cb <= 0:
        return 0
    if n == 1:
        dense = vocab <= 2 * (na + nb) + 64
        if dense and na <= BYTE_COUNT_MAX and nb <= BYTE_COUNT_MAX:
            if grow_array(<void**>&sc.cnt1b, &sc.cnt1b_cap, 2 * vocab, sizeof(uint8_t), 0) < 0:
                return -1
            return _unigram_minima(sc.cnt1b, a, na, b, nb, vocab_a, vocab)
        if grow_array(<void**>&sc.cnt1, &sc.cnt1_cap, 2 * vocab, sizeof(int32_t), 0) < 0:
            return -1
        cnt = sc.cnt1
        if dense:
            return _unigram_minima(cnt, a, na, b, nb, vocab_a, vocab)
        for i in range(na):
            cnt[a[i]] += 1
        for i in range(nb):
            hits += take_count(cnt, b[i])
        for i in range(na):
            cnt[a[i]] = 0
        return hits
    w = vocab_a + 1
    if n == 2 and w * w <= BIGRAM_TABLE:
        if ca <= BYTE_COUNT_MAX:
            if grow_array(<void**>&sc.cnt2b, &sc.cnt2b_cap, w * w, sizeof(uint8_t), 0) < 0:
                return -1
            return _bigram_hits(sc.cnt2b, a, ca, b, cb, top, w)
        if grow_array(<void**>&sc.cnt2, &sc.cnt2_cap, w * w, sizeof(int32_t), 0) < 0:
            return -1
        return _bigram_hits(sc.cnt2, a, ca, b, cb, top, w)
    return clipped_overlap_ids(a, na, b, nb, vocab, n)


def ngram_overlap(a, b, Py_ssize_t n):
    """Clipped n-gram overlap of two id sequences.

    Returns ``(hits, ngrams_in_a, ngrams_in_b)``, where hits is
    sum over n-grams g of min(count of g in a, count of g in b).

    >>> ngram_overlap([0, 1, 0, 1], [0, 1, 1], 2)
    (1, 3, 2)
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    a = a if isinstance(a, (list, tuple)) else list(a)
    b = b if isinstance(b, (list, tuple)) else list(b)
    cdef Py_ssize_t na, nb, bound = check_total(len(a) + len(b))
    cdef int32_t* ia = ids_from(a, &na, bound, "a")
    cdef int32_t* ib = NULL
    cdef int64_t hits
    try:
        ib = ids_from(b, &nb, bound, "b")
        with nogil:
            hits = clipped_overlap_ids(ia, na, ib, nb, bound, n)
        if hits < 0:
            raise MemoryError()
    finally:
        free(ia)
        free(ib)
    return hits, max(na - n + 1, 0), max(nb - n + 1, 0)


def ngram_overlap_tokens(a, b, Py_ssize_t n):
    """``ngram_overlap`` of two sequences of hashable tokens (matched as dict
    keys; an unhashable token raises TypeError).

    >>> ngram_overlap_tokens(["a", "b", "a", "b"], ["a", "b", "b"], 2)
    (1, 3, 2)
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    a = a if isinstance(a, (list, tuple)) else list(a)
    b = b if isinstance(b, (list, tuple)) else list(b)
    cdef TokenTable ids
    cdef Py_ssize_t na, nb, vocab
    cdef int32_t* ia = NULL
    cdef int32_t* ib = NULL
    cdef int64_t hits
    token_table_init(&ids, check_total(len(a) + len(b)))
    try:
        ia = ids_of_tokens(a, &ids, &na)
        ib = ids_of_tokens(b, &ids, &nb)
        vocab = ids.n
        with nogil:
            hits = clipped_overlap_ids(ia, na, ib, nb, vocab if vocab > 0 else 1, n)
        if hits < 0:
            raise MemoryError()
    finally:
        token_table_free(&ids)
        free(ia)
        free(ib)
    return hits, max(na - n + 1, 0), max(nb - n + 1, 0)


cdef extern from "Python.h":
    ctypedef struct PyObject
    int PyDict_Next(object d, Py_ssize_t* pos, PyObject** key, PyObject** value)
    PyObject* PyDict_GetItemWithError(object d, object key) except? NULL
    bint PyLong_CheckExact(PyObject* o)
    long long PyLong_AsLongLongAndOverflow(PyObject* o, int* overflow) except? -1


cdef object _Counter = None

# Counts whose sums cannot overflow an int64 (anything larger takes the
# Python path, which has unbounded ints).
cdef long long _COUNT_LIMIT = 1LL << 40


cdef inline bint _small_count(PyObject* value, long long* out) except -1:
    """The count as a C integer, if it is an exact int within the limit."""
    cdef int overflow = 0
    if not PyLong_CheckExact(value):
        return False
    out[0] = PyLong_AsLongLongAndOverflow(value, &overflow)
    return overflow == 0 and -_COUNT_LIMIT <= out[0] <= _COUNT_LIMIT


def counter_overlap(target, prediction):
    """``(sum of min(target[g], prediction[g]) for g in target,
    sum(target.values()), sum(prediction.values()))`` for two
    ``collections.Counter`` of int counts: rouge-score's ``_score_ngrams``
    arithmetic. None when an argument is not exactly a Counter or a count is
    not a small int (the caller then computes it in Python).

    >>> from collections import Counter
    >>> counter_overlap(Counter({("a",): 2, ("b",): 1}), Counter({("a",): 1}))
    (1, 3, 1)
    """
    global _Counter
    if _Counter is None:
        from collections import Counter
        _Counter = Counter
    if type(target) is not _Counter or type(prediction) is not _Counter:
        return None
    cdef long long hits = 0, total_t = 0, total_p = 0, ct, cp
    cdef Py_ssize_t pos = 0
    cdef PyObject* key
    cdef PyObject* value
    cdef PyObject* other
    while PyDict_Next(prediction, &pos, &key, &value):
        if not _small_count(value, &cp):
            return None
        total_p += cp
    pos = 0
    while PyDict_Next(target, &pos, &key, &value):
        if not _small_count(value, &ct):
            return None
        total_t += ct
        # A key's __eq__ may run Python code, but not change these dicts'
        # counts we already read: each count is read once, here.
        other = PyDict_GetItemWithError(prediction, <object>key)
        if other == NULL:
            cp = 0
        elif not _small_count(other, &cp):
            return None
        hits += ct if ct < cp else cp
    return hits, total_t, total_p
