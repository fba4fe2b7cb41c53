from libc.stdint cimport int32_t, int64_t, uint8_t


ctypedef fused count_t:
    uint8_t
    int32_t


cdef inline int take_count(count_t* cnt, Py_ssize_t key) noexcept nogil:
    """Take one of cnt[key] if there is one: 1, else 0 (the clipped count of
    an n-gram taken from a table of counts). No branch: whether one is left
    is not predictable."""
    cdef count_t c = cnt[key]
    cdef int left = c > 0
    cnt[key] = <count_t>(c - left)
    return left


ctypedef struct OverlapScratch:
    # Counts by unigram id (cnt1) and by bigram key x * width + y (cnt2),
    # reused by one thread; all zero between calls.
    int32_t* cnt1
    Py_ssize_t cnt1_cap
    int32_t* cnt2
    Py_ssize_t cnt2_cap
    # cnt1 and cnt2 in bytes, for texts of at most BYTE_COUNT_MAX n-grams
    # (a count cannot pass 255): a quarter of the tables' cache lines
    uint8_t* cnt1b
    Py_ssize_t cnt1b_cap
    uint8_t* cnt2b
    Py_ssize_t cnt2b_cap

# Clipped n-gram overlap of two dense id arrays (ids < vocab); -1 when out of
# memory. Touches no Python object.
cdef int64_t clipped_overlap_ids(const int32_t* a, Py_ssize_t na,
                                 const int32_t* b, Py_ssize_t nb,
                                 Py_ssize_t vocab, Py_ssize_t n) noexcept nogil
cdef int64_t clipped_overlap_scratch(const int32_t* a, Py_ssize_t na,
                                     const int32_t* b, Py_ssize_t nb,
                                     Py_ssize_t vocab, Py_ssize_t n,
                                     OverlapScratch* sc) noexcept nogil
cdef int64_t clipped_overlap_numbered(const int32_t* a, Py_ssize_t na,
                                      const int32_t* b, Py_ssize_t nb,
                                      Py_ssize_t vocab_a, Py_ssize_t vocab, Py_ssize_t n,
                                      OverlapScratch* sc) noexcept nogil
cdef void overlap_scratch_free(OverlapScratch* sc) noexcept nogil
