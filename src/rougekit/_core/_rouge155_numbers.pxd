"""Numbers as ROUGE-1.5.5.pl prints them, and its F, for the C kernels
(inline); ``_rouge155_numbers_py`` is the Python definition and the
specification.

Floating point follows the script operation by operation (the extensions
are built with ``-ffp-contract=off``).
"""
from libc.math cimport fabs, floor
from libc.stdio cimport snprintf
from libc.stdlib cimport strtod


cdef inline double round5_slow(double x) noexcept nogil:
    """x through ``snprintf("%.5f")`` and ``strtod``."""
    # "%.5f" of the largest double is 316 characters: the buffer holds any.
    cdef char buf[352]
    snprintf(buf, sizeof(buf), b"%.5f", x)
    return strtod(buf, NULL)


cdef inline double round5(double x) noexcept nogil:
    """x through ``sprintf("%.5f")`` and back: the nearest 5-decimal number
    (ties to even on the exact binary value, as printf), as the nearest
    double to it. k / 100000.0 is that double (IEEE division is correctly
    rounded); below 1000, x * 1e5 is within 1e-8 of the exact product, so
    only values near a tie need printf."""
    cdef double y, k, frac
    if not (x >= 0.0 and x < 1000.0):
        return round5_slow(x)
    y = x * 100000.0
    k = floor(y)
    frac = y - k
    if fabs(frac - 0.5) < 1e-6:
        return round5_slow(x)
    if frac > 0.5:
        k += 1.0
    return k / 100000.0


cdef inline double alpha_fmeasure(double p, double r, double alpha) noexcept nogil:
    """The script's F of precision p and recall r (``-p alpha``):
    P*R / ((1-alpha)*P + alpha*R), 0 when the denominator is not positive;
    unrounded (the bootstrap's resamples)."""
    cdef double d = (1 - alpha) * p + alpha * r
    if d > 0:
        return (p * r) / d
    return 0.0


cdef inline double f_measure(double p, double r, double alpha) noexcept nogil:
    """The F the script prints for an evaluation: alpha_fmeasure of the
    rounded P and R, itself rounded."""
    return round5(alpha_fmeasure(p, r, alpha))
