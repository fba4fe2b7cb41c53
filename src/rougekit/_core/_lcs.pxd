"""The bit-parallel LCS: its row step (inline, shared by every module that
runs one: ``_lcs`` and ``_index``) and the C entry points of ``_lcs``.

A row of the table of LCS lengths is held as a bit vector over the columns
(Allison-Dix / Hyyro): bit ``j`` of row ``i`` is 0 exactly when
``L[i][j+1] == L[i][j] + 1``, so ``L[i][j]`` is the number of zero bits below
``j``. A row starts as all ones; the token of the next row, whose match mask
``M`` has a bit at each column holding it, advances it by
``S = (S + (S & M)) | (S - (S & M))``, with the carry running across words.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t

cdef extern from "bits.h" nogil:
    int rk_popcount64(uint64_t x)


cdef inline uint64_t lcs_step64(uint64_t s, uint64_t m) noexcept nogil:
    """One row of at most 64 columns: s advanced by the match mask m."""
    cdef uint64_t u = s & m
    return (s + u) | (s - u)


cdef inline void lcs_step128(uint64_t* s0, uint64_t* s1, uint64_t m0, uint64_t m1) noexcept nogil:
    """One row of 65 to 128 columns in two words (s0 the low one), advanced
    by the match mask (m0, m1): lcs_advance for W == 2 with the row in
    registers, the carry out of word 0 going into word 1."""
    cdef uint64_t u0 = s0[0] & m0
    cdef uint64_t u1 = s1[0] & m1
    cdef uint64_t x0 = s0[0] + u0
    cdef uint64_t carry = x0 < s0[0]
    # u is a subset of s, so s - u never borrows across words.
    s1[0] = (s1[0] + u1 + carry) | (s1[0] - u1)
    s0[0] = x0 | (s0[0] - u0)


cdef inline void lcs_advance(uint64_t* S, const uint64_t* M, Py_ssize_t W) noexcept nogil:
    """One row of W words: S advanced by the match mask M (W words)."""
    cdef uint64_t carry = 0, s, u, t, x
    cdef Py_ssize_t w
    for w in range(W):
        s = S[w]
        u = s & M[w]
        t = s + carry
        carry = t < s
        x = t + u
        carry |= x < t
        # u is a subset of s, so s - u never borrows across words.
        S[w] = x | (s - u)


cdef inline Py_ssize_t lcs_zeros_below64(uint64_t s, Py_ssize_t n) noexcept nogil:
    """L[row][n] of a row of n columns, 1 <= n <= 64, in one word s (no loop:
    the hot path of a query scored against many short texts)."""
    return n - rk_popcount64(s & (~(<uint64_t>0) >> (64 - n)))


cdef inline Py_ssize_t lcs_zeros_below(const uint64_t* S, Py_ssize_t j) noexcept nogil:
    """L[row][j]: the zero bits of row S below column j."""
    cdef Py_ssize_t w, full = j >> 6, r = j & 63, z = 0
    for w in range(full):
        z += 64 - rk_popcount64(S[w])
    if r:
        z += r - rk_popcount64(S[full] & (((<uint64_t>1) << r) - 1))
    return z

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
cdef int lcs_scratch_reserve(LcsScratch* sc, Py_ssize_t vocab,
                             Py_ssize_t maxlen) noexcept nogil
cdef int lcs_union_marks(const int32_t* r, Py_ssize_t mr,
                         const int32_t* ctok, const Py_ssize_t* coff, Py_ssize_t nc,
                         LcsScratch* sc, char* marks) noexcept nogil
cdef Py_ssize_t lcs_length_scratch(const int32_t* a, Py_ssize_t na,
                                   const int32_t* b, Py_ssize_t nb,
                                   Py_ssize_t vocab, LcsScratch* sc) noexcept nogil
