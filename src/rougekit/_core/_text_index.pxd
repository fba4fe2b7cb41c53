"""The text index's C layout (``_text_index``), for the de-duplication filter
(``_dedup_filter``), which reads a ``TextIndex``'s texts in place while it
holds a read of the index (``state``); and rouge-score's F of h common units
(inline), which the index scores and the filter compares with its threshold.
"""
from libc.stdint cimport int32_t, int64_t

from rougekit._core._grams cimport GramTable
from rougekit._core._match_masks cimport Masks
from rougekit._core._prf cimport lcs_prf
from rougekit._core._tokenizer cimport TokenBuf
from rougekit._core._vocab cimport Vocab


cdef inline double hits_fmeasure(Py_ssize_t h, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """F of h common units; a units in the target, b in the prediction
    (rougeL's F of _prf.pxd, which rougeN's is too when a, b > 0)."""
    cdef double prf[3]
    lcs_prf(h, a, b, prf)
    return prf[2]


# The most mask words a text may take before it is compared pair by pair
# with lcs_length_ids (_match_masks.pxd); tests lower it (_set_mask_budget).
cdef Py_ssize_t mask_budget_words() noexcept nogil


cdef class TextIndex:
    cdef readonly int kind
    cdef readonly bint default_tokens
    cdef bint stem
    cdef bint lcs
    cdef Vocab vocab
    cdef TokenBuf tb
    cdef dict token_ids
    cdef Py_ssize_t ntoken_ids    # len(token_ids), readable without the GIL
    cdef GramTable* grams         # kind - 1 tables: n-grams of 2 .. kind tokens
    cdef Py_ssize_t ngrams
    cdef int32_t* units
    cdef Py_ssize_t nunits, units_cap
    cdef Py_ssize_t* off          # text i is units[off[i] : off[i + 1]]
    cdef Py_ssize_t ntexts, off_cap
    cdef int32_t* tmp             # one text's ids while it is added or queried
    cdef Py_ssize_t tmp_cap
    cdef int32_t* q               # the query's units
    cdef Py_ssize_t q_cap
    cdef Masks mk                 # the query's masks (mk.len units)
    cdef long state               # readers-writer state (compat.h)

    # One more than the largest unit id in use.
    cdef Py_ssize_t unit_id_bound(self) noexcept nogil
    cdef Py_ssize_t _units_of(self, const int32_t* tok, Py_ssize_t m, bint add) noexcept nogil
    cdef int _append(self, const int32_t* tok, Py_ssize_t m) noexcept nogil
    cdef int32_t* _intern_tokens(self, list tokens, Py_ssize_t* n_out) except NULL
    cdef int _tokenize(self, str text) except -1
    cdef int32_t* _token_ids_of(self, object tokens, bint add, Py_ssize_t* n_out) except NULL
    cdef int _after_add(self, Py_ssize_t ntexts0, Py_ssize_t nunits0, bint ok) except -1
    cdef int _set_query(self, const int32_t* tok, Py_ssize_t m) except -1
    cdef _copy_out(self, int32_t[::1] units, int64_t[::1] offsets)
    cdef _gram_rows(self)
    cdef _intern_rows(self, const int32_t[:, ::1] rows)
    cdef _copy_in(self, const int32_t[::1] units, const int64_t[::1] offsets)
