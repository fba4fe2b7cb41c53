"""rouge-score's precision, recall and F: the one Python definition of that
arithmetic, in its order of operations (``_prf.pxd`` is the C one, inline in
the compiled kernels, with the same expressions).

Every Python path computes P/R/F here: the pure twins, ``rouge_scorer``'s
helpers, the pipeline's custom-tokenizer path and ``rougekit.scoring.fmeasure``
(rouge-score's public name for ``fmeasure``).

>>> ngram_prf(2, 3, 2)
(1.0, 0.6666666666666666, 0.8)
>>> lcs_prf(0, 0, 5)
(0, 0, 0)
"""
from typing import Any, Tuple

__all__ = ["fmeasure", "fmeasure_columns", "ngram_prf", "lcs_prf"]

Triple = Tuple[Any, Any, Any]


def fmeasure(precision: float, recall: float) -> float:
    """rouge-score's F: ``2 * P * R / (P + R)``, 0.0 when P + R is 0.

    >>> fmeasure(0.5, 1.0)
    0.6666666666666666
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def fmeasure_columns(precision: Any, recall: Any) -> Any:
    """``fmeasure`` of two float64 arrays, elementwise: the same expression
    in the same order (numpy's float64 operations round as Python's).

    >>> import numpy as np
    >>> fmeasure_columns(np.array([0.5, 0.0]), np.array([1.0, 0.0])).tolist()
    [0.6666666666666666, 0.0]
    """
    import numpy as np
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(precision + recall > 0,
                        2 * precision * recall / (precision + recall), 0.0)


def ngram_prf(hits: int, target_count: int, prediction_count: int) -> Triple:
    """rougeN's (P, R, F) from the clipped overlap and the n-gram counts (a
    count of 0 divides as 1, as rouge-score's ``max(count, 1)``)."""
    precision = hits / max(prediction_count, 1)
    recall = hits / max(target_count, 1)
    return precision, recall, fmeasure(precision, recall)


def lcs_prf(hits: int, target_count: int, prediction_count: int) -> Triple:
    """rougeL's and rougeLsum's (P, R, F) from the LCS hits and the token
    counts; the int zeros rouge-score returns when either side is empty."""
    if not target_count or not prediction_count:
        return 0, 0, 0
    precision = hits / prediction_count
    recall = hits / target_count
    return precision, recall, fmeasure(precision, recall)
