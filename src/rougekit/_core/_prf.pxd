"""rouge-score's precision, recall and F, for the C kernels (inline).

``_prf_py`` is the Python definition and the readable specification; these
are the same expressions in the same order of operations. ``hits / total``
of two integers below 2**53 is the correctly rounded quotient in C as in
Python, and the extensions are built with ``-ffp-contract=off`` (no fused
multiply-add), so every float equals rouge-score's with ``==``.
"""
from libc.stdint cimport int64_t


cdef inline double fmeasure(double p, double r) noexcept nogil:
    """rouge-score's F: 2 * P * R / (P + R), 0.0 when P + R is 0."""
    if p + r > 0:
        return 2.0 * p * r / (p + r)
    return 0.0


cdef inline void ngram_prf(int64_t hits, Py_ssize_t target_count,
                           Py_ssize_t prediction_count, double* prf) noexcept nogil:
    """rougeN's (P, R, F) into prf[0:3], from the clipped overlap and the
    n-gram counts (a count of 0 divides as 1)."""
    prf[0] = <double>hits / <double>(prediction_count if prediction_count > 1 else 1)
    prf[1] = <double>hits / <double>(target_count if target_count > 1 else 1)
    prf[2] = fmeasure(prf[0], prf[1])


cdef inline void lcs_prf(int64_t hits, Py_ssize_t target_count,
                         Py_ssize_t prediction_count, double* prf) noexcept nogil:
    """rougeL's and rougeLsum's (P, R, F) into prf[0:3], from the LCS hits
    and the token counts; zeros when either count is 0 (where rouge-score
    returns the int 0: the caller says so)."""
    if target_count == 0 or prediction_count == 0:
        prf[0] = prf[1] = prf[2] = 0.0
        return
    prf[0] = <double>hits / <double>prediction_count
    prf[1] = <double>hits / <double>target_count
    prf[2] = fmeasure(prf[0], prf[1])
