"""Multi-reference policies: one score per item from its references' scores.

Per item and rouge type (``corpus`` documents each policy):

``max``          the reference with the highest F, the first on ties
                 (rouge-score's ``score_multi``);
``mean``         the mean P, R and F over the references;
``pooled``       hits and totals summed over the references (ROUGE-1.5.5's
                 ``-f A``), then P, R and F;
``best-recall``  the reference with the highest recall (ROUGE-1.5.5's ``-f B``);
``jackknife``    the mean over the M leave-one-out sets of their ``max``.

Means are the float nearest the exact mean (``aggregate.exact_mean``), the
same in any order and on every Python version.

>>> from rougekit.scoring import Score
>>> combine_scores("max", [Score(1.0, 0.5, 0.6), Score(0.5, 1.0, 0.6)])
Score(precision=1.0, recall=0.5, fmeasure=0.6)
>>> combine_counts("pooled", [(1, 2, 4), (3, 2, 4)])   # (hits, cand, ref)
Score(precision=1.0, recall=0.5, fmeasure=0.6666666666666666)
"""

from rougekit.aggregate import exact_mean
from rougekit.scoring import Score
from rougekit.token_metrics import _score

__all__ = ["MULTI_REF_POLICIES", "first_max", "mean_score", "corpus_means",
           "combine_counts", "combine_scores"]

MULTI_REF_POLICIES = ("max", "mean", "pooled", "best-recall", "jackknife")


def first_max(scores, field):
    # max() keeps the first of equal maxima, as score_multi's numpy.argmax.
    return max(scores, key=lambda s: getattr(s, field))


def mean_score(scores):
    """Per field, the float nearest the exact mean (``aggregate.exact_mean``):
    the same floats in any item order and on every Python version."""
    return Score(*(exact_mean(column) for column in zip(*scores)))


def corpus_means(per_item, types):
    """The corpus scores: per rouge type, the means over items of P, R and F."""
    return {t: mean_score([item[t] for item in per_item]) for t in types}


def combine_counts(policy, counts):
    """One Score from the per-reference counts of an item and rouge type."""
    if policy == "pooled":
        return _score(*(sum(column) for column in zip(*counts)))
    return combine_scores(policy, [_score(*c) for c in counts])


def combine_scores(policy, scores):
    """One Score from the per-reference Scores (every policy but pooled)."""
    if len(scores) == 1:
        return scores[0]
    if policy == "max":
        return first_max(scores, "fmeasure")
    if policy == "best-recall":
        return first_max(scores, "recall")
    if policy == "mean":
        return mean_score(scores)
    # jackknife: the max of each leave-one-out set, averaged.
    return mean_score([first_max(scores[:i] + scores[i + 1:], "fmeasure")
                  for i in range(len(scores))])
