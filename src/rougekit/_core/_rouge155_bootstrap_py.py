"""ROUGE-1.5.5.pl's averages and confidence intervals (``computeAverages``,
``bootstrapResampling``): the pure twin of ``_rouge155_bootstrap`` and its
specification. The bootstrap uses Perl's ``drand48`` seeded with
``srand(0)``, ``srand(1)``, ... (the printed average is the mean of the
resample means, not the plain mean).
"""
import math

import numpy as np

from rougekit._core._rouge155_numbers_py import alpha_fmeasure

__all__ = ["bootstrap", "resample_means", "summarize_resamples", "resample_count"]

_DRAND48_A = 0x5DEECE66D
_DRAND48_C = 0xB
_DRAND48_MASK = (1 << 48) - 1


def resample_count(resamples: float) -> int:
    """How many resamples the script draws for ``-r R``: ``for(i=0;i<R;i++)``."""
    return max(0, math.ceil(resamples))


def bootstrap(values, resamples, confidence, *, token_counts=False, alpha=0.5):
    """The script's printed averages and confidence bounds.

    ``values`` (instances x columns, float64) holds one row per evaluation
    instance, in the order of the sorted instance keys. Without
    ``token_counts`` (``-t 0``) the columns are averaged as they are; with it
    (``-t 1``) they are triples (model count, peer count, hits) and every
    resample turns its sums into R, P and F.

    ``resample_means`` then ``summarize_resamples``: the resamples can be
    drawn in parts (on several threads) and joined.

    Returns ``(average, low, high)``, float64 arrays of the output columns.

    >>> avg, lo, hi = bootstrap(np.array([[0.5], [1.0]]), 1000, 95)
    >>> print("%7.5f %7.5f %7.5f" % (avg[0], lo[0], hi[0]))
    0.75000 0.50000 1.00000
    """
    _check_resamples(resamples)
    _check_confidence(confidence)
    means = resample_means(values, resamples, 0, resample_count(resamples),
                           token_counts=token_counts, alpha=alpha)
    return summarize_resamples(means, resamples, confidence)


def _check_resamples(resamples):
    if not resamples > 0 or resamples > 1e8:
        raise ValueError(f"resamples must be in (0, 1e8], got {float(resamples)!r}")


def _check_confidence(confidence):
    if not 0 <= confidence <= 100:
        raise ValueError(f"confidence must be in [0, 100], got {float(confidence)!r}")


def resample_means(values, resamples, first, last, *, token_counts=False, alpha=0.5):
    """The means of resamples ``first .. last - 1`` (of ``resample_count(
    resamples)``), a float64 array of columns x resamples.

    For resample ``s`` Perl's ``srand(s)`` seeds drand48 (state
    ``s << 16 | 0x330E``, next ``state * 0x5DEECE66D + 11 mod 2**48``) and
    each draw is ``int(n * state / 2**48)``; the drawn rows are summed in
    draw order.

    >>> resample_means(np.array([[0.5], [1.0]]), 1000, 0, 3).tolist()
    [[0.75, 0.5, 0.75]]
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError("values must be a 2-d array (instances x columns)")
    _check_resamples(resamples)
    n, cols = values.shape
    if token_counts and cols % 3:
        raise ValueError("with token_counts the columns come in triples")
    if not 0 <= first <= last <= resample_count(resamples):
        raise ValueError(f"resamples [{first}, {last}) out of range")
    count = last - first
    # All resamples advance together, one draw at a time, so each resample's
    # sum is accumulated in its own draw order, as Perl does.
    state = (np.arange(first, last, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    sums = np.zeros((count, cols), dtype=np.float64)
    a, cst, mask = np.uint64(_DRAND48_A), np.uint64(_DRAND48_C), np.uint64(_DRAND48_MASK)
    scale = 2.0 ** -48
    for _ in range(n):
        state = (state * a + cst) & mask     # wraps mod 2**64, then masks to 48 bits
        idx = (float(n) * (state.astype(np.float64) * scale)).astype(np.int64)
        sums += values[np.minimum(idx, n - 1)]
    if token_counts:
        means = np.zeros((count, cols), dtype=np.float64)
        for t in range(0, cols, 3):
            for s in range(count):
                mc, pc, h = sums[s, t], sums[s, t + 1], sums[s, t + 2]
                r = h / mc if mc > 0 else 0.0
                p = h / pc if pc > 0 else 0.0
                means[s, t:t + 3] = (r, p, alpha_fmeasure(p, r, alpha))
    else:
        means = sums / n if n > 0 else np.zeros_like(sums)
    return np.ascontiguousarray(means.T)


def summarize_resamples(means, resamples, confidence):
    """``(average, low, high)`` of each column of ``means`` (columns x all
    the resamples): the mean of the sorted resample means, and the bounds
    interpolated between two of them (an index past the end reads 0, as in
    Perl).

    >>> [x.tolist() for x in summarize_resamples(np.array([[0.2, 0.4, 0.6, 0.8]]), 4, 50)]
    [[0.5], [0.4], [0.6]]
    """
    means = np.ascontiguousarray(means, dtype=np.float64)
    if means.ndim != 2:
        raise ValueError("means must be a 2-d array (columns x resamples)")
    _check_resamples(resamples)
    _check_confidence(confidence)
    if means.shape[1] != resample_count(resamples):
        raise ValueError(f"means has {means.shape[1]} resamples, expected "
                         f"{resample_count(resamples)}")
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    ratio = resamples - delta - 1 - upper_a

    def at(arr, i):
        return arr[i] if 0 <= i < len(arr) else 0.0

    out_cols = means.shape[0]
    avg = np.zeros(out_cols)
    lo = np.zeros(out_cols)
    hi = np.zeros(out_cols)
    for col in range(out_cols):
        ranked = sorted(means[col].tolist())
        total = 0.0
        for x in ranked:                      # in sorted order, one by one
            total += x
        avg[col] = total / len(ranked)
        lo[col] = at(ranked, lower_a) + (at(ranked, lower_a + 1) - at(ranked, lower_a)) * ratio
        hi[col] = at(ranked, upper_a) + (at(ranked, upper_a + 1) - at(ranked, upper_a)) * ratio
    return avg, lo, hi
