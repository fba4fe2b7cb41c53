from libc.stdint cimport int32_t, int64_t, uint64_t

ctypedef struct LcsScratch:
    # Buffers reused across calls by one thread. Between calls, pm and cnt
    # hold zeros and head holds -1 in every allocated entry.
    uint64_t* pm
    Py_ssize_t pm_cap
    int32_t* cnt
    Py_ssize_t cnt_cap
    int32_t* head
    Py_ssize_t head_cap
    char* marks
    uint64_t* rows
    Py_ssize_t rows_cap

# C entry points shared with other compiled modules. All take dense token ids
# (0 <= id < vocab) and a caller-owned ``head`` array of ``vocab`` entries that
# must hold -1 everywhere on entry; it holds -1 everywhere again on return.
# They return -1 when an allocation fails and never touch Python objects.
cdef Py_ssize_t lcs_length_ids(const int32_t* a, Py_ssize_t na,
                               const int32_t* b, Py_ssize_t nb,
                               int32_t* head) noexcept nogil
cdef int lcs_mark_ids(const int32_t* ref, Py_ssize_t m,
                      const int32_t* can, Py_ssize_t n,
                      int32_t* head, char* marks) noexcept nogil
cdef int64_t summary_hits_ids(const int32_t* rtok, const Py_ssize_t* roff,
                              Py_ssize_t nr,
                              const int32_t* ctok, const Py_ssize_t* coff,
                              Py_ssize_t nc, Py_ssize_t vocab) noexcept nogil
cdef int64_t summary_hits_scratch(const int32_t* rtok, const Py_ssize_t* roff,
                                  Py_ssize_t nr,
                                  const int32_t* ctok, const Py_ssize_t* coff,
                                  Py_ssize_t nc, Py_ssize_t vocab,
                                  LcsScratch* sc) noexcept nogil
cdef void lcs_scratch_free(LcsScratch* sc) noexcept nogil
cdef Py_ssize_t lcs_length_scratch(const int32_t* a, Py_ssize_t na,
                                   const int32_t* b, Py_ssize_t nb,
                                   Py_ssize_t vocab, LcsScratch* sc) noexcept nogil
