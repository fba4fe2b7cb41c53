"""Paired significance tests between two systems, on per-item scores.

Two systems A and B are scored on the same n items (the same references);
``a`` and ``b`` hold their per-item scores, as arrays of shape (n,) or (n, k)
for k measures at once (e.g. P, R and F of several rouge types: every column
then sees the same resamples or swaps). The statistic is the difference of
the corpus means, ``mean(b) - mean(a)``, i.e. the mean of the per-item
differences ``d = b - a``.

``paired_bootstrap``
    Paired bootstrap resampling (Koehn, "Statistical Significance Tests for
    Machine Translation Evaluation", EMNLP 2004): resample the n items with
    replacement, the same items for both systems, and recompute the
    difference.
``approximate_randomization``
    Approximate randomization (Noreen 1989; Riezler and Maxwell, "On Some
    Pitfalls in Automatic Evaluation and Significance Testing for MT", 2005;
    sacreBLEU's ``--paired-ar``): under the null hypothesis the two systems'
    outputs are exchangeable item by item, so each item's two scores are
    swapped with probability 1/2.

``compare_systems``
    Both tests on the per-item P, R and F of each rouge type of two systems:
    what ``rougekit compare`` prints and the HTML report shows.
``bootstrap_interval``
    The percentile bootstrap interval of column means, drawing exactly as
    ``rougekit.score_corpus`` does (all three draw in ``rougekit._bootstrap``).

Resampled sums can differ from the observed one by rounding alone when they
are mathematically equal (e.g. swapping items whose difference is 0), so the
comparisons that decide a p-value allow a tolerance of ``1e-9 * mean(|d|)``
(0 when the systems are identical, where everything is exact).
"""
from typing import Any, Dict, NamedTuple, Optional

import numpy as np

from rougekit._bootstrap import percentile_interval, quantile_bounds, resampled_means
from rougekit._checks import check_int, check_real, check_seed
from rougekit._multi_ref import column_means
from rougekit._options import DEFAULT_SEED
from rougekit.scoring import Score

__all__ = ["PairedBootstrap", "paired_bootstrap", "approximate_randomization",
           "bootstrap_interval", "compare_systems", "COMPARE_SEED"]

#: The seed the tests use unless told otherwise: ``rougekit.DEFAULT_SEED``,
#: every resampling's default (sacreBLEU's
#: default): a comparison is reproducible unless asked not to be.
COMPARE_SEED = DEFAULT_SEED

# Rows of random draws per block in approximate randomization: bounds memory
# at about _AR_BLOCK_CELLS floats whatever n and the number of trials.
_AR_BLOCK_CELLS = 1 << 22


class PairedBootstrap(NamedTuple):
    """What ``paired_bootstrap`` returns (floats, or arrays of shape (k,)).

    diff: the observed difference mean(b) - mean(a).
    low, high: the percentile confidence interval of the difference.
    p_value: Koehn's p-value (``paired_bootstrap``'s docstring).
    """

    diff: object
    low: object
    high: object
    p_value: object


def _check_count(name, value, minimum):
    check_int(name, value, minimum)


def _check_seed(seed):
    check_seed("seed", seed)


def _check_confidence(confidence):
    check_real("confidence", confidence, 0, 1)


def _scores(name, values):
    array = np.asarray(values, dtype=float)
    if array.ndim not in (1, 2):
        raise ValueError(f"{name} must have shape (n,) or (n, k), got {array.shape}")
    if len(array) == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} has a value that is not finite")
    return array


def _differences(a, b):
    a, b = _scores("a", a), _scores("b", b)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    return b - a


def _shape_like(d, value):
    # Scalars in, scalars out: 1-D inputs give floats, 2-D give arrays.
    return float(value[0]) if d.ndim == 1 else value


def bootstrap_interval(values: Any, n_resamples: int = 1000, confidence: float = 0.95,
                       seed: Optional[int] = DEFAULT_SEED) -> Any:
    """Percentile bootstrap interval of the column means of ``values``.

    ``values`` has shape (n, k). Resample r draws n rows with replacement
    (``numpy.random.default_rng(seed).integers(0, n, size=n)``, in order r =
    0, 1, ...) and takes their column means (each the float nearest the
    exact mean of the drawn values); low and high are the
    (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the
    n_resamples means (numpy's linear interpolation). These are the draws and
    quantiles of ``score_corpus(..., bootstrap=n_resamples, seed=seed)`` when
    the columns are P, R, F of each rouge type in order, so its intervals
    are reproduced exactly.

    Returns (low, high), two arrays of shape (k,).
    """
    _check_count("n_resamples", n_resamples, 1)
    _check_confidence(confidence)
    _check_seed(seed)
    matrix = _scores("values", values)
    if matrix.ndim != 2:
        raise ValueError(f"values must have shape (n, k), got {matrix.shape}")
    return percentile_interval(matrix, n_resamples, confidence, seed)


def paired_bootstrap(a: Any, b: Any, n_resamples: int = 1000, confidence: float = 0.95,
                     seed: Optional[int] = DEFAULT_SEED) -> Any:
    """Paired bootstrap resampling test (Koehn 2004) of mean(b) - mean(a).

    Resample r (r = 0 .. n_resamples - 1) draws n item indices with
    replacement, ``numpy.random.default_rng(seed).integers(0, n, size=n)``,
    the same indices for both systems and every column, and computes the
    resampled difference ``D_r = mean(d[indices])`` (exact: the float nearest
    the mean of the drawn differences) with ``d = b - a``.

    - diff: the observed difference ``D = mean(d)``.
    - low, high: the (1 - confidence) / 2 and (1 + confidence) / 2 quantiles
      of the D_r (percentile interval, numpy's linear interpolation).
    - p_value: Koehn's one-sided test in the direction that was observed: the
      fraction of resamples in which the winner does not win,
      ``#{r : D_r <= 0} / n_resamples`` if D > 0,
      ``#{r : D_r >= 0} / n_resamples`` if D < 0, and 1 if D = 0 (comparisons
      with the tolerance of the module docstring). Koehn's "B is better with
      95% confidence" is p_value <= 0.05. It can be 0 (no +1 correction).

    Args:
      a: per-item scores of system A, shape (n,) or (n, k).
      b: per-item scores of system B, the same shape.
      n_resamples: N >= 1.
      confidence: the interval's coverage, in [0, 1].
      seed: numpy seed (default ``rougekit.DEFAULT_SEED``; None: fresh entropy,
        not reproducible).

    Returns a ``PairedBootstrap``; its fields are floats for 1-D inputs and
    arrays of shape (k,) for 2-D inputs.

    >>> r = paired_bootstrap([0.2, 0.3, 0.4], [0.3, 0.5, 0.4], seed=1)
    >>> round(r.diff, 4), r.p_value <= 1
    (0.1, True)
    """
    _check_count("n_resamples", n_resamples, 1)
    _check_confidence(confidence)
    _check_seed(seed)
    d = _differences(a, b)
    matrix = d.reshape(len(d), -1)
    observed = matrix.mean(axis=0)
    tol = 1e-9 * np.abs(matrix).mean(axis=0)
    means = resampled_means(matrix, n_resamples, np.random.default_rng(seed))
    low, high = quantile_bounds(means, confidence)
    not_better = np.where(observed > tol, (means <= tol).sum(axis=0),
                          np.where(observed < -tol, (means >= -tol).sum(axis=0),
                                   n_resamples))
    p = not_better / n_resamples
    return PairedBootstrap(*(_shape_like(d, x) for x in (observed, low, high, p)))


def approximate_randomization(a: Any, b: Any, n_trials: int = 10000,
                              seed: Optional[int] = DEFAULT_SEED) -> Any:
    """Approximate randomization test (Riezler and Maxwell 2005) of
    mean(b) - mean(a); returns its two-sided p-value.

    Trial t (t = 0 .. n_trials - 1) swaps each item's two scores
    independently with probability 1/2, i.e. multiplies each d_i = b_i - a_i
    by a random sign (``numpy.random.default_rng(seed).integers(0, 2,
    size=(rows, n))``, drawn in blocks of rows trials, one row per trial),
    and counts the trials with ``|sum(sign * d)| >= |sum(d)|`` (with the
    tolerance of the module docstring). The p-value is

        (count + 1) / (n_trials + 1)

    (the +1 counts the observed assignment itself, as Riezler and Maxwell
    and sacreBLEU's ``--paired-ar`` do, so p >= 1 / (n_trials + 1) and the
    test is never anti-conservative). Identical systems give p = 1; a system
    better on every one of n items gives 1 / (n_trials + 1) except with
    probability about n_trials / 2**n (only the all-swapped trial ties).

    Args:
      a: per-item scores of system A, shape (n,) or (n, k).
      b: per-item scores of system B, the same shape.
      n_trials: N >= 1.
      seed: numpy seed (default ``rougekit.DEFAULT_SEED``; None: fresh entropy,
        not reproducible).

    Returns a float for 1-D inputs, an array of shape (k,) for 2-D inputs.

    >>> approximate_randomization([0.5, 0.5], [0.5, 0.5], n_trials=99, seed=0)
    1.0
    """
    _check_count("n_trials", n_trials, 1)
    _check_seed(seed)
    d = _differences(a, b)
    matrix = d.reshape(len(d), -1)
    n = len(matrix)
    observed = np.abs(matrix.sum(axis=0))
    tol = 1e-9 * np.abs(matrix).sum(axis=0)
    rng = np.random.default_rng(seed)
    rows = max(1, _AR_BLOCK_CELLS // n)
    count = np.zeros(matrix.shape[1], dtype=np.int64)
    for start in range(0, n_trials, rows):
        block = min(rows, n_trials - start)
        signs = 1.0 - 2.0 * rng.integers(0, 2, size=(block, n))
        count += (np.abs(signs @ matrix) >= observed - tol).sum(axis=0)
    p = (count + 1) / (n_trials + 1)
    return _shape_like(d, p)


def compare_systems(items_a: Any, items_b: Any, rouge_types: Any, n_resamples: int = 1000,
                    confidence: float = 0.95, n_trials: int = 10000,
                    seed: Optional[int] = COMPARE_SEED) -> Dict[str, Dict[str, Dict[str, float]]]:
    """Per rouge type and measure, systems A and B and both tests of B - A.

    ``items_a`` and ``items_b`` are per-item columns, shape (3 * types, n):
    P, R and F of each of ``rouge_types`` in turn (``score_corpus``'s
    ``per_item`` in columns). Every column sees the same resamples and swaps.

    Returns ``{type: {measure: {"a", "b", "diff", "ci_low", "ci_high",
    "p_bootstrap", "p_ar"}}}``: the corpus means of A and B, ``b - a``, the
    ``paired_bootstrap`` interval and p-value, and the
    ``approximate_randomization`` p-value.

    >>> r = compare_systems([[0.5, 0.5]] * 3, [[0.5, 0.5]] * 3, ["rouge1"], 10, n_trials=9)
    >>> f = r.get("rouge1").get("fmeasure")
    >>> f.get("diff"), f.get("p_ar")
    (0.0, 1.0)
    """
    types = list(rouge_types)
    items_a, items_b = np.asarray(items_a, dtype=float), np.asarray(items_b, dtype=float)
    scores_a, scores_b = column_means(items_a, types), column_means(items_b, types)
    a, b = items_a.T, items_b.T
    pbs = paired_bootstrap(a, b, n_resamples, confidence, seed)
    p_ar = approximate_randomization(a, b, n_trials, seed)
    results: Dict[str, Dict[str, Dict[str, float]]] = {}
    for k, t in enumerate(types):
        results[t] = {}
        for j, m in enumerate(Score._fields):
            col = 3 * k + j
            va, vb = getattr(scores_a[t], m), getattr(scores_b[t], m)
            results[t][m] = {"a": va, "b": vb, "diff": vb - va,
                             "ci_low": float(pbs.low[col]), "ci_high": float(pbs.high[col]),
                             "p_bootstrap": float(pbs.p_value[col]),
                             "p_ar": float(p_ar[col])}
    return results
