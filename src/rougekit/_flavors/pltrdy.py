"""The ``pltrdy`` and ``rouge-chinese`` flavors: ``rouge`` 1.0.1 and ``rouge-chinese`` 1.0.3.

``Rouge(metrics=None, stats=None).get_scores(hyps, refs, avg=False,
ignore_empty=False)``: words split on spaces, case kept; distinct n-grams
(sets); ROUGE-L the distinct words on the union LCS of the sentences
(pltrdy: sentences split on "."; rouge-chinese: its ``cut_sent``'s, and its
ROUGE-L the LCS of the whole texts); F with ``1e-8`` in the denominator;
with ``avg=True`` the items' values added in order, then divided. Here
``avg`` defaults to True (a corpus needs one number); with ``avg=False`` the
corpus number is the items' mean. Where the package raises ("Hypothesis is
empty.") the item scores 0; ``ignore_empty=True`` leaves out the items with
an empty hypothesis or reference, as there.
"""
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from rougekit import _stages
from rougekit._counts import ngram_set_counts, summary_word_set_counts
from rougekit._flavors._flavor import Flavor, Switch, register
from rougekit.compat._pltrdy import pltrdy_f
from rougekit.scoring import Score

__all__ = ["PLTRDY", "ROUGE_CHINESE", "METRICS", "STATS", "AVG", "IGNORE_EMPTY",
           "epsilon_score", "in_order_means", "SetCounting"]

_METRIC_TYPES = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-3": "rouge3",
                 "rouge-4": "rouge4", "rouge-5": "rouge5", "rouge-l": "rougeL"}
_DEFAULT_METRICS = ("rouge1", "rouge2", "rougeL")


def _metrics(value: Any) -> Dict[str, Any]:
    """The packages' ``metrics``: a list of "rouge-1" .. "rouge-5", "rouge-l"
    (None: their default, rouge-1, rouge-2, rouge-l)."""
    if value is None:
        return {"rouge_types": _DEFAULT_METRICS}
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(f"metrics must be a list of names ({', '.join(_METRIC_TYPES)}), "
                        f"not {type(value).__name__}")
    types: List[str] = []
    for metric in value:
        if metric not in _METRIC_TYPES:
            raise ValueError(f"unknown metric {metric!r}; valid: {', '.join(_METRIC_TYPES)}")
        types.append(_METRIC_TYPES[metric])
    if not types:
        raise ValueError("metrics is empty")
    return {"rouge_types": tuple(types)}


def _stats(value: Any) -> Dict[str, Any]:
    """The packages' ``stats``: which of "f", "p", "r" they report; no
    number changes (every door here gives P, R and F)."""
    if value is not None:
        if isinstance(value, str) or not isinstance(value, (list, tuple)) or \
                not value or any(s not in ("f", "p", "r") for s in value):
            raise ValueError(f"stats must be a non-empty list of 'f', 'p', 'r', not {value!r}")
    return {}


#: ``metrics``: the rouge types, in the packages' names.
METRICS = Switch("metrics", ("rouge_types",), translate=_metrics,
                 help="rouge-1 .. rouge-5, rouge-l")
#: ``stats``: accepted and checked; it selects which measures the package
#: prints, and changes no number.
STATS = Switch("stats", (), translate=_stats, help="f, p, r (changes no number)")
#: ``avg``: the items' values added in order, or per-item scores.
AVG = Switch("avg", ("aggregation",), ((True, ("mean-in-order",)), (False, ("mean",))),
             help="average the items in order (default here), or per-item scores")
#: ``ignore_empty``: leave out items with an empty hypothesis or reference.
IGNORE_EMPTY = Switch("ignore_empty", ("skip_empty",), ((False, (False,)), (True, (True,))),
                      help="leave out items with an empty hypothesis or reference")


class SetCounting:
    """Distinct n-grams (sets), and for rougeLsum the distinct words on the
    union LCS of the sentences: the packages' counting."""

    ngrams = staticmethod(ngram_set_counts)
    summary = staticmethod(summary_word_set_counts)


def epsilon_score(hits: Any, candidate_total: Any, reference_total: Any,
                  alpha: float) -> Score:
    """P, R and the packages' F, ``2 (PR / (P + R + 1e-8))``.

    >>> epsilon_score(4, 5, 5, 0.5)
    Score(precision=0.8, recall=0.8, fmeasure=0.7999999950000002)
    """
    precision, recall = hits / candidate_total, hits / reference_total
    return Score(precision, recall, pltrdy_f(precision, recall))


def in_order_means(options: Any, columns: np.ndarray) -> Tuple[Dict[str, Score], None]:
    """Per rouge type, P, R and F summed item by item in order, then divided
    (``get_scores(..., avg=True)``)."""
    names: Sequence[str] = options.rouge_types
    n = columns.shape[1]
    means = []
    for row in columns.tolist():
        total = 0.0
        for value in row:
            total += value
        means.append(total / n)
    return {name: Score(*means[3 * k:3 * k + 3]) for k, name in enumerate(names)}, None


_stages.COUNTINGS.add("sets", SetCounting)
_stages.F_MEASURES.add("epsilon", epsilon_score)
_stages.AGGREGATIONS.add("mean-in-order", in_order_means)

_SWITCHES = (METRICS, STATS, AVG, IGNORE_EMPTY)
_COMMON = {"counting": "sets", "f_measure": "epsilon", "aggregation": "mean-in-order"}

PLTRDY = register(Flavor(
    name="pltrdy", package="rouge 1.0.1 (pltrdy): Rouge().get_scores(hyps, refs, avg=True)",
    fields={**_COMMON, "tokenizer": "pltrdy", "sentence_split": "period",
            "rouge_l": "summary"},
    switches=_SWITCHES, default_types=_DEFAULT_METRICS))
ROUGE_CHINESE = register(Flavor(
    name="rouge-chinese",
    package="rouge-chinese 1.0.3: Rouge().get_scores(hyps, refs, avg=True)",
    fields={**_COMMON, "tokenizer": "rouge-chinese", "sentence_split": "chinese"},
    switches=_SWITCHES, default_types=_DEFAULT_METRICS))
