"""Bootstrap resampling and percentile intervals: the one implementation.

``score_corpus(bootstrap=N)``, the CLI's ``--bootstrap``, the Dask and
Spark ``score_corpus``, ``significance.bootstrap_interval`` and
``significance.paired_bootstrap`` all draw their resamples here, so the same
seed gives the same intervals everywhere. Resample r (r = 0, 1, ...) draws n
rows with replacement, ``numpy.random.default_rng(seed).integers(0, n,
size=n)``, and takes their column means; low and high are the
(1 - confidence) / 2 and (1 + confidence) / 2 quantiles of those means
(numpy's linear interpolation).

Each resampled mean is the float nearest the exact mean of the drawn values
(as the corpus means, ``aggregate.exact_mean``), so it does not depend on
the order of summation, on the other columns, on numpy's BLAS or on the
machine: the same seed gives the same floats everywhere. Earlier rougekit
versions took ``matrix[rows].mean(axis=0)``, whose rounding can differ
from the exact mean in the last bits; the draws are the same as then.

How, without gathering the drawn rows (the slow part): each resample's draw
becomes a vector of counts (``numpy.bincount``), and a block of count
vectors times the matrix gives a block of sums at once. To make that matrix
product exact, each column is written as integer "limbs" small enough that
every partial sum is an integer below 2**53 (``_ExactColumns``); the limbs'
sums are then put together as Python ints and divided, correctly rounded.

(rouge-score's ``BootstrapAggregator`` is another statistic, kept exactly as
rouge-score computes it in ``scoring``.)

>>> import numpy as np
>>> low, high = percentile_interval(np.array([[0.0], [1.0]]), 200, 0.9, seed=0)
>>> bool(0.0 <= low[0] <= high[0] <= 1.0)
True
"""
from typing import Callable, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from rougekit.scoring import AggregateScore, Score

__all__ = ["resampled_means", "quantile_bounds", "percentile_interval",
           "item_matrix", "corpus_intervals"]


# Count vectors per block of resamples: bounds the block's memory at about
# _BLOCK_CELLS floats (32 MiB) whatever n.
_BLOCK_CELLS = 1 << 22
# Rows per chunk of the exact product (_ExactColumns), and the most draws a
# chunk may hold for the product to stay exact: a resample puts about
# _CHUNK_ROWS draws in each chunk (give or take a few times its square root),
# four times as many never happens in practice, and is handled exactly if it
# does. Small chunks also keep each matrix product below the size at which
# OpenBLAS starts threads of its own, which cost more than they give here.
_CHUNK_ROWS = 1 << 9
_CHUNK_DRAWS = 4 * _CHUNK_ROWS
# Chunks whose int64 sums are added before they could overflow (2**10 sums
# each below 2**53).
_CHUNKS_PER_INT64 = 1 << 10


class _ExactColumns:
    """Exact resampled column sums of an (n, k) float matrix, as float64
    matrix products.

    Column j's values are integer multiples of one unit, ``2**unit_exp[j]``
    (the unit in the last place of its smallest nonzero value): x = X * unit
    with X an integer, cut into limbs of ``width`` bits,
    X = sum(limb_l * 2**(l * width)), each limb carrying X's sign. The rows
    are cut into chunks of ``_CHUNK_ROWS``; a chunk holding at most
    ``draws_cap`` draws of a resample has every partial sum of counts * limb
    an integer below ``draws_cap * 2**width <= 2**53``, so its float64
    product is exact whatever the order of summation (any BLAS). The chunks'
    products are then added as integers. A resample with more draws in one
    chunk (never seen in practice: the mean is ``_CHUNK_ROWS``) is summed
    with Python ints instead.
    """

    def __init__(self, matrix: np.ndarray) -> None:
        n, k = matrix.shape
        self.n = n
        self.chunks = -(-n // _CHUNK_ROWS)
        self.rows = self.chunks * _CHUNK_ROWS            # n padded with zero rows
        self.draws_cap = 1 << min(n, _CHUNK_DRAWS).bit_length()
        self.width = width = 53 - min(n, _CHUNK_DRAWS).bit_length()
        fraction, exponent = np.frexp(matrix)
        mantissa = (fraction * 2.0 ** 53).astype(np.int64)        # exact
        nonzero = mantissa != 0
        exponent = exponent.astype(np.int64)
        # Per column, the exponent of its smallest nonzero value (0 if none),
        # and each value's offset from it: |X| = |mantissa| << offset.
        low = np.where(nonzero, exponent, np.iinfo(np.int64).max).min(axis=0) \
            if n else np.zeros(k, dtype=np.int64)
        low = np.where(nonzero.any(axis=0), low, 0)
        offset = np.where(nonzero, exponent - low, 0)
        # Every column gets as many limbs as the widest needs (zeros for the
        # others): column j's limbs are j * count ... (j + 1) * count - 1.
        count = int(-(-(53 + offset.max()) // width)) if nonzero.any() else 0
        self.slices = [slice(j * count, (j + 1) * count) for j in range(k)]
        self.unit_exp = (low - 53).tolist()
        # The last column is all ones: its products count each chunk's draws.
        self.limbs = np.zeros((self.rows, k * count + 1))
        self.limbs[:n, -1] = 1.0
        by_column = self.limbs[:, :-1].reshape(self.rows, k, count)       # a view
        magnitude, sign = np.abs(mantissa), np.sign(mantissa)
        mask = (1 << width) - 1
        for limb in range(count):
            # Bits [limb * width, (limb + 1) * width) of |X|, for every column.
            shift = offset - limb * width
            up = np.clip(shift, 0, 63)
            kept = np.where(shift < width, magnitude & (mask >> up), 0) << up
            by_column[:n, :, limb] = sign * np.where(
                shift >= 0, kept, (magnitude >> np.clip(-shift, 0, 63)) & mask)
        self.chunked = self.limbs.reshape(self.chunks, _CHUNK_ROWS, k * count + 1)

    def counts_buffer(self, resamples: int) -> np.ndarray:
        """A zeroed array for the counts of ``resamples`` resamples (the rows
        past n stay 0)."""
        return np.zeros((resamples, self.rows))

    def means(self, counts: np.ndarray) -> np.ndarray:
        """Per row of ``counts`` (a ``counts_buffer``: resample counts of the
        n rows, summing to n), the float nearest the exact mean of each
        column over the drawn rows."""
        b = len(counts)
        by_chunk = counts.reshape(b, self.chunks, _CHUNK_ROWS)
        products = np.matmul(by_chunk.transpose(1, 0, 2), self.chunked)   # (chunks, b, limbs)
        crowded = (products[:, :, -1] > self.draws_cap).any(axis=0)
        products = products[:, :, :-1].astype(np.int64)
        sums = np.zeros((b, products.shape[2]), dtype=object)
        for first in range(0, self.chunks, _CHUNKS_PER_INT64):
            sums += products[first:first + _CHUNKS_PER_INT64].sum(axis=0).astype(object)
        for r in np.flatnonzero(crowded).tolist():
            # Too many draws in a chunk for the float product to be exact.
            sums[r] = (counts[r].astype(np.int64).astype(object)
                       @ self.limbs[:, :-1].astype(np.int64).astype(object))
        out = np.empty((b, len(self.slices)))
        for j, (part, unit) in enumerate(zip(self.slices, self.unit_exp)):
            total = np.zeros(b, dtype=object)
            for limb in range(part.stop - part.start):
                total += sums[:, part.start + limb] << (limb * self.width)
            # total * 2**unit / n, correctly rounded (int / int is).
            out[:, j] = (total << unit) / self.n if unit >= 0 else total / (self.n << -unit)
        return out


def resampled_means(matrix: np.ndarray, n_resamples: int, rng: np.random.Generator,
                    progress: Optional[Callable[[int], None]] = None) -> np.ndarray:
    """Column means of ``n_resamples`` resamples of the rows of ``matrix``
    (shape (n, k)), one row of the result per resample: resample r draws
    ``rng.integers(0, n, size=n)``, in order, and each mean is the float
    nearest the exact mean of its column over the drawn rows.
    ``progress(done)``, if given, is called with the number of resamples
    done after each block of them."""
    matrix = np.asarray(matrix, dtype=np.float64)
    n = len(matrix)
    exact = _ExactColumns(matrix)
    means = np.empty((n_resamples, matrix.shape[1]))
    block = max(1, min(n_resamples, _BLOCK_CELLS // max(n, 1)))
    counts = exact.counts_buffer(block)
    for start in range(0, n_resamples, block):
        rows = min(block, n_resamples - start)
        for b in range(rows):
            counts[b, :n] = np.bincount(rng.integers(0, n, size=n), minlength=n)
        means[start:start + rows] = exact.means(counts[:rows])
        if progress is not None:
            progress(start + rows)
    return means


def quantile_bounds(means: np.ndarray, confidence: float) -> Tuple[np.ndarray, np.ndarray]:
    """The percentile interval's (low, high) of resampled means, per column."""
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
    return low, high


def percentile_interval(matrix: np.ndarray, n_resamples: int, confidence: float,
                        seed: Optional[int],
                        progress: Optional[Callable[[int], None]] = None
                        ) -> Tuple[np.ndarray, np.ndarray]:
    """(low, high) arrays of shape (k,): the percentile bootstrap interval of
    the column means of ``matrix`` (shape (n, k)). Arguments unchecked."""
    means = resampled_means(matrix, n_resamples, np.random.default_rng(seed), progress)
    return quantile_bounds(means, confidence)


def item_matrix(per_item: Sequence[Mapping[str, Sequence[float]]],
                types: Sequence[str]) -> np.ndarray:
    """One row per item: P, R and F of each rouge type in turn, so that each
    resample draws the same items for every type."""
    return np.array([[x for t in types for x in item[t]] for item in per_item],
                    dtype=float).reshape(len(per_item), 3 * len(types))


def corpus_intervals(columns: np.ndarray, scores: Mapping[str, Score], n_resamples: int,
                     confidence: float, seed: Optional[int],
                     progress: Optional[Callable[[int], None]] = None
                     ) -> Dict[str, AggregateScore]:
    """Per rouge type, ``AggregateScore(low, mid, high)`` of Scores: the
    percentile interval around the corpus means ``scores`` (which are mid).
    ``columns`` holds the per-item scores, shape (3 * types, items): P, R
    and F of each type of ``scores`` in turn, so that each resample draws
    the same items for every type."""
    low, high = percentile_interval(np.asarray(columns).T, n_resamples, confidence, seed,
                                    progress)
    return {t: AggregateScore(low=Score(*map(float, low[3 * k:3 * k + 3])), mid=scores[t],
                              high=Score(*map(float, high[3 * k:3 * k + 3])))
            for k, t in enumerate(scores)}
