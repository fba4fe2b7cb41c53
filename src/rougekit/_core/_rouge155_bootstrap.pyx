# cython: language_level=3
# cython: freethreading_compatible=True
"""ROUGE-1.5.5.pl's averages and confidence intervals: its bootstrap with
Perl's drand48, its resampling, sorting and interpolation.
``_rouge155_bootstrap_py`` is the twin and the specification.

The resamples are drawn and summed several at a time (``resample.h``: 2, 4
with AVX2 or 8 with AVX-512 lanes, every kernel giving the same sums bit for
bit), without the GIL; floating point follows the script operation by
operation (``_rouge155_numbers.pxd``'s F).
"""
from libc.math cimport ceil
from libc.stdint cimport int32_t, uint64_t, uintptr_t
from libc.stdlib cimport calloc, free, malloc

import numpy as np

from rougekit._core._mem cimport ID_LIMIT
from rougekit._core._rouge155_numbers cimport alpha_fmeasure

__all__ = ["bootstrap", "resample_means", "summarize_resamples"]

cdef inline double _at(const double* a, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """Perl's $a[$i] of a numeric array: undef (0) past the end."""
    return a[i] if 0 <= i < n else 0.0


cdef extern from "resample.h" nogil:
    const int SUM_BLOCK "RK_SUM_BLOCK"
    const int MAX_LANES "RK_MAX_LANES"
    int _widest_lanes "rk_resample_lanes" ()
    void _draws "rk_draws" (uint64_t seed, int lanes, Py_ssize_t n, int32_t* idx)
    void _resample_sums "rk_resample_sums" (const double* table, Py_ssize_t width,
                                             Py_ssize_t n, int lanes, const int32_t* idx,
                                             double* sums)

# How many resamples the widest summing kernel this CPU runs takes at once:
# 8 (AVX-512), 4 (AVX2) or 2. Every kernel gives the same sums, bit for bit.
cdef int WIDEST_LANES = _widest_lanes()


# How many resample_means sums at once: 0 for WIDEST_LANES (_set_resample_lanes).
cdef int RESAMPLE_LANES = 0


def _resample_lanes():
    """How many resamples ``resample_means`` sums at once on this CPU (8 with
    AVX-512, 4 with AVX2, else 2); ``_set_resample_lanes`` may ask for fewer
    (the tests run every kernel the CPU has).

    >>> _resample_lanes() in (2, 4, 8)
    True
    """
    return WIDEST_LANES


def _set_resample_lanes(int lanes):
    """Testing hook: ``resample_means`` sums ``lanes`` resamples at once (2,
    4 or 8, at most ``_resample_lanes()``; 0: that many); the means are the
    same for each. Returns the previous value. Not thread-safe; tests only."""
    global RESAMPLE_LANES
    if lanes != 0 and (lanes not in (2, 4, 8) or lanes > WIDEST_LANES):
        raise ValueError(f"lanes must be 2, 4 or 8 and at most {WIDEST_LANES} "
                         f"on this CPU, got {lanes}")
    old = RESAMPLE_LANES
    RESAMPLE_LANES = lanes
    return old


def bootstrap(values, double resamples, double confidence, *, bint token_counts=False,
              double alpha=0.5):
    """The script's printed averages and bounds (see ``_rouge155_bootstrap_py.bootstrap``).

    >>> import numpy as np
    >>> avg, lo, hi = bootstrap(np.array([[0.5], [1.0]]), 1000, 95)
    >>> print("%7.5f %7.5f %7.5f" % (avg[0], lo[0], hi[0]))
    0.75000 0.50000 1.00000
    """
    _check_resamples(resamples)
    _check_confidence(confidence)
    means = resample_means(values, resamples, 0, <Py_ssize_t>ceil(resamples),
                           token_counts=token_counts, alpha=alpha)
    return summarize_resamples(means, resamples, confidence)


cdef _check_resamples(double resamples):
    if not resamples > 0 or resamples > 1e8:
        raise ValueError(f"resamples must be in (0, 1e8], got {resamples!r}")


cdef _check_confidence(double confidence):
    if not 0 <= confidence <= 100:
        raise ValueError(f"confidence must be in [0, 100], got {confidence!r}")


def resample_means(values, double resamples, Py_ssize_t first, Py_ssize_t last, *,
                   bint token_counts=False, double alpha=0.5):
    """The means of resamples ``first .. last - 1``, columns x resamples
    (see ``_rouge155_bootstrap_py.resample_means``). Runs without the GIL, summing
    ``_resample_lanes()`` resamples at once (``_set_resample_lanes``: fewer).

    >>> import numpy as np
    >>> resample_means(np.array([[0.5], [1.0]]), 1000, 0, 3).tolist()
    [[0.75, 0.5, 0.75]]
    """
    arr = np.ascontiguousarray(values, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError("values must be a 2-d array (instances x columns)")
    _check_resamples(resamples)
    cdef Py_ssize_t n = arr.shape[0], cols = arr.shape[1]
    if token_counts and cols % 3:
        raise ValueError("with token_counts the columns come in triples")
    if n > ID_LIMIT:
        raise ValueError(f"at most 2**31 - 1 instances, got {n}")
    if not 0 <= first <= last <= <Py_ssize_t>ceil(resamples):
        raise ValueError(f"resamples [{first}, {last}) out of range")
    cdef int lanes = RESAMPLE_LANES if RESAMPLE_LANES else WIDEST_LANES
    cdef Py_ssize_t count = last - first, s, j, u
    means_arr = np.zeros((cols, count), dtype=np.float64)
    if cols == 0 or count == 0:
        return means_arr
    cdef double[:, ::1] means = means_arr
    # The columns padded with zeros to whole blocks, block-major: column j of
    # row i at table[(j // SUM_BLOCK) * n * SUM_BLOCK + i * SUM_BLOCK + j % SUM_BLOCK],
    # 64-byte aligned (a row of a block is one cache line; the wide kernels'
    # aligned loads need it).
    cdef Py_ssize_t width = (cols + SUM_BLOCK - 1) // SUM_BLOCK * SUM_BLOCK, i
    cdef const double[:, ::1] v = arr
    cdef void* table_mem = calloc(max(n, 1) * width + SUM_BLOCK, sizeof(double))
    cdef double* table = <double*>(((<uintptr_t>table_mem) + 63) & ~(<uintptr_t>63))
    cdef double* sums = <double*>malloc(MAX_LANES * width * sizeof(double))
    cdef int32_t* idx = <int32_t*>malloc(MAX_LANES * (n + 1) * sizeof(int32_t))
    cdef double dn = <double>n, mc, pc, h, rr, pp
    cdef double* acc
    if table_mem == NULL or sums == NULL or idx == NULL:
        free(table_mem)
        free(sums)
        free(idx)
        raise MemoryError()
    with nogil:
        for i in range(n):
            for j in range(cols):
                table[(j // SUM_BLOCK) * n * SUM_BLOCK + i * SUM_BLOCK + j % SUM_BLOCK] = v[i, j]
        s = first
        while s < last:
            # (past the last resample, the other lanes' draws are not used)
            _draws(<uint64_t>s, lanes, n, idx)
            _resample_sums(table, width, n, lanes, idx, sums)
            for u in range(s, min(s + lanes, last)):
                acc = sums + (u - s) * width
                if token_counts:
                    for j in range(0, cols, 3):
                        mc, pc, h = acc[j], acc[j + 1], acc[j + 2]
                        rr = h / mc if mc > 0 else 0.0
                        pp = h / pc if pc > 0 else 0.0
                        means[j, u - first] = rr
                        means[j + 1, u - first] = pp
                        means[j + 2, u - first] = alpha_fmeasure(pp, rr, alpha)
                else:
                    for j in range(cols):
                        means[j, u - first] = acc[j] / dn if n > 0 else 0.0
            s += lanes
    free(table_mem)
    free(sums)
    free(idx)
    return means_arr


def summarize_resamples(means, double resamples, double confidence):
    """``(average, low, high)`` of each column of ``means`` (columns x all
    the resamples; see ``_rouge155_bootstrap_py.summarize_resamples``).

    >>> import numpy as np
    >>> [x.tolist() for x in summarize_resamples(np.array([[0.2, 0.4, 0.6, 0.8]]), 4, 50)]
    [[0.5], [0.4], [0.6]]
    """
    arr = np.asarray(means, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError("means must be a 2-d array (columns x resamples)")
    _check_resamples(resamples)
    _check_confidence(confidence)
    arr = np.sort(arr, axis=-1)                     # each column's resamples
    cdef Py_ssize_t cols = arr.shape[0], count = arr.shape[1], j, s
    if count != <Py_ssize_t>ceil(resamples):
        raise ValueError(f"means has {count} resamples, expected {<Py_ssize_t>ceil(resamples)}")
    avg_arr = np.zeros(cols, dtype=np.float64)
    lo_arr = np.zeros(cols, dtype=np.float64)
    hi_arr = np.zeros(cols, dtype=np.float64)
    if cols == 0:
        return avg_arr, lo_arr, hi_arr
    cdef double[::1] avg = avg_arr, lo = lo_arr, hi = hi_arr
    cdef double[:, ::1] m = arr
    cdef double delta, ratio, total
    cdef Py_ssize_t upper_a, lower_a
    cdef double* col
    with nogil:
        delta = resamples * ((100 - confidence) / 2.0) / 100.0
        upper_a = <Py_ssize_t>(resamples - delta - 1)
        lower_a = <Py_ssize_t>delta
        ratio = resamples - delta - 1 - upper_a
        for j in range(cols):
            col = &m[j, 0]
            total = 0.0
            for s in range(count):
                total += col[s]
            avg[j] = total / count
            lo[j] = _at(col, count, lower_a) + (_at(col, count, lower_a + 1)
                                                 - _at(col, count, lower_a)) * ratio
            hi[j] = _at(col, count, upper_a) + (_at(col, count, upper_a + 1)
                                                 - _at(col, count, upper_a)) * ratio
    return avg_arr, lo_arr, hi_arr
