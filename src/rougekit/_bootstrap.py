"""Bootstrap resampling and percentile intervals: the one implementation.

``score_corpus(bootstrap=N)``, the CLI's ``--bootstrap``,
``significance.bootstrap_interval`` and ``significance.paired_bootstrap``
all draw their resamples here, so the same seed gives the same intervals
everywhere. Resample r (r = 0, 1, ...) draws n rows with replacement,
``numpy.random.default_rng(seed).integers(0, n, size=n)``, and takes their
column means; low and high are the (1 - confidence) / 2 and
(1 + confidence) / 2 quantiles of those means (numpy's linear interpolation).

(rouge-score's ``BootstrapAggregator`` is another statistic, kept exactly as
rouge-score computes it in ``scoring``.)

>>> import numpy as np
>>> low, high = percentile_interval(np.array([[0.0], [1.0]]), 200, 0.9, seed=0)
>>> bool(0.0 <= low[0] <= high[0] <= 1.0)
True
"""
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from rougekit.scoring import AggregateScore, Score

__all__ = ["resampled_means", "quantile_bounds", "percentile_interval",
           "item_matrix", "corpus_intervals"]


def resampled_means(matrix: np.ndarray, n_resamples: int,
                    rng: np.random.Generator) -> np.ndarray:
    """Column means of ``n_resamples`` resamples of the rows of ``matrix``
    (shape (n, k)), one row of the result per resample."""
    n = len(matrix)
    means = np.empty((n_resamples, matrix.shape[1]))
    for r in range(n_resamples):
        means[r] = matrix[rng.integers(0, n, size=n)].mean(axis=0)
    return means


def quantile_bounds(means: np.ndarray, confidence: float) -> Tuple[np.ndarray, np.ndarray]:
    """The percentile interval's (low, high) of resampled means, per column."""
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
    return low, high


def percentile_interval(matrix: np.ndarray, n_resamples: int, confidence: float,
                        seed: Optional[int]) -> Tuple[np.ndarray, np.ndarray]:
    """(low, high) arrays of shape (k,): the percentile bootstrap interval of
    the column means of ``matrix`` (shape (n, k)). Arguments unchecked."""
    means = resampled_means(matrix, n_resamples, np.random.default_rng(seed))
    return quantile_bounds(means, confidence)


def item_matrix(per_item: Sequence[Mapping[str, Sequence[float]]],
                types: Sequence[str]) -> np.ndarray:
    """One row per item: P, R and F of each rouge type in turn, so that each
    resample draws the same items for every type."""
    return np.array([[x for t in types for x in item[t]] for item in per_item],
                    dtype=float).reshape(len(per_item), 3 * len(types))


def corpus_intervals(per_item: List[Mapping[str, Sequence[float]]],
                     scores: Mapping[str, Score], n_resamples: int, confidence: float,
                     seed: Optional[int]) -> Dict[str, AggregateScore]:
    """Per rouge type, ``AggregateScore(low, mid, high)`` of Scores: the
    percentile interval around the corpus means ``scores`` (which are mid)."""
    types = list(scores)
    low, high = percentile_interval(item_matrix(per_item, types), n_resamples,
                                    confidence, seed)
    return {t: AggregateScore(low=Score(*map(float, low[3 * k:3 * k + 3])), mid=scores[t],
                              high=Score(*map(float, high[3 * k:3 * k + 3])))
            for k, t in enumerate(types)}
