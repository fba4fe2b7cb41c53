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

``combine_columns`` applies a policy (every one but ``pooled``) to
per-reference scores held in columns (``RougeScorer.score_columns``'s rows),
with the same results:

>>> import numpy as np
>>> flat = np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.2], [0.6, 0.6, 0.2]])  # P, R, F rows
>>> combine_columns("max", flat, [2, 1]).tolist()
[[1.0, 0.2], [0.5, 0.2], [0.6, 0.2]]
"""
import functools

import numpy as np

from rougekit import _stages
from rougekit._counts import counts_score
from rougekit.aggregate import exact_mean, exact_means
from rougekit.scoring import Score

__all__ = ["MULTI_REF_POLICIES", "first_max", "mean_score", "corpus_means",
           "column_means", "combine_counts", "combine_scores", "combine_columns",
           "pooled_counts"]

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


def column_means(columns, types):
    """``corpus_means`` of per-item scores held in columns, shape
    (3 * types, items): the same floats, vectorized."""
    means = exact_means(columns)
    return {t: Score(*means[3 * k:3 * k + 3]) for k, t in enumerate(types)}


def pooled_counts(counts, score=counts_score):
    """ROUGE-1.5.5's ``-f A``: one Score from an item's per-reference counts
    (hits, candidate total, reference total), summed."""
    return score(*(sum(column) for column in zip(*counts)))


#: the "pooled" rule combines counts, not scores (rougekit._stages.MULTI_REF_RULES)
pooled_counts.pools_counts = True  # type: ignore[attr-defined]


def combine_counts(policy, counts, score=counts_score):
    """One Score from the per-reference counts (hits, candidate total,
    reference total) of an item and rouge type; ``score`` makes a Score of
    counts (rouge-score's arithmetic by default)."""
    if policy == "pooled":
        return score(*(sum(column) for column in zip(*counts)))
    return combine_scores(policy, [score(*c) for c in counts])


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


# The field each policy picks its reference by, in a Score's order (P, R, F).
_PICK_FIELD = {"max": 2, "best-recall": 1}


def combine_columns(policy, flat, counts):
    """One column per item from per-reference columns: ``flat`` has shape
    (3 * types, references), P, R and F of each rouge type in turn, the
    references of each item consecutive, ``counts[i]`` of them for item i
    (each >= 1). Returns shape (3 * types, items): per item and type, what
    ``combine_scores`` gives (every policy but "pooled", which needs counts).
    """
    if policy not in MULTI_REF_POLICIES or policy == "pooled":
        raise ValueError(f"combine_columns cannot apply policy {policy!r}")
    counts = np.asarray(counts, dtype=np.int64)
    flat = np.asarray(flat, dtype=np.float64)
    if (counts == 1).all():
        return flat
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out = np.empty((flat.shape[0], len(counts)))
    if policy in _PICK_FIELD:
        # Per item, the first reference whose field equals the item's maximum,
        # as first_max (vectorized: maxima by reduceat, then the least position).
        item = np.repeat(np.arange(len(counts)), counts)
        positions = np.arange(flat.shape[1])
        for k in range(0, flat.shape[0], 3):
            key = flat[k + _PICK_FIELD[policy]]
            best = np.maximum.reduceat(key, starts)
            first = np.minimum.reduceat(np.where(key == best[item], positions, len(positions)),
                                        starts)
            out[k:k + 3] = flat[k:k + 3, first]
        return out
    single = counts == 1
    out[:, single] = flat[:, starts[single]]
    rows = flat.T.tolist()
    for i in np.flatnonzero(~single).tolist():
        group = rows[starts[i]:starts[i] + counts[i]]
        for k in range(0, flat.shape[0], 3):
            out[k:k + 3, i] = combine_scores(policy, [Score(*r[k:k + 3]) for r in group])
    return out


# rougekit's multi-reference rules (rougekit._stages: the pipeline looks them
# up by name; a flavor may register others)
for _policy in ("max", "mean", "best-recall", "jackknife"):
    _stages.MULTI_REF_RULES.add(_policy, functools.partial(combine_columns, _policy))
_stages.MULTI_REF_RULES.add("pooled", pooled_counts)
