"""Scores and their aggregation, as rouge-score's ``scoring`` module.

``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator`` and
``fmeasure`` have rouge-score 0.1.2's names, fields and results: after the
same ``numpy.random.seed``, ``BootstrapAggregator`` draws the same samples and
returns the same numbers. Note that its ``mid`` is the median of the bootstrap
means (rouge-score's docstring calls it the mean).
"""
import abc
import collections
from typing import Any, Dict, Mapping

import numpy as np

__all__ = ["Score", "AggregateScore", "BaseScorer", "BootstrapAggregator",
           "fmeasure"]


from rougekit._backend import engine as _engine
from rougekit._checks import check_int, check_real
from rougekit._core import _prf_py

_gc_track = _engine.gc_track


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F-measure of one comparison."""

    # The compiled engine creates Scores untracked by the cyclic garbage
    # collector, as CPython leaves a plain tuple of numbers untracked: three
    # numbers cannot form a reference cycle, and tracking 4 objects per pair
    # cost the collector ~9% of scoring time. An attribute set on a Score
    # (rouge-score's Score has a __dict__, and so does this one) can refer to
    # anything, so a Score is tracked again before one is set.
    _engine_may_untrack = True

    def __setattr__(self, name, value):
        _gc_track(self)
        super().__setattr__(name, value)


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """A confidence interval (low, high) around a central estimate (mid)."""


class BaseScorer(object, metaclass=abc.ABCMeta):
    """Base class of scorers: ``score(target, prediction) -> {type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """Scores ``prediction`` against ``target``."""


def fmeasure(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall; 0.0 when both are 0.

    rouge-score's expression in its order of operations, so that every
    float rounds the same way: the arithmetic every path of rougekit runs
    (``rougekit._core._prf_py``, its one definition; this is its public name).

    >>> fmeasure(0.5, 1.0)
    0.6666666666666666
    """
    return _prf_py.fmeasure(precision, recall)


class BootstrapAggregator(object):
    """Confidence intervals over per-item scores by bootstrap resampling.

    >>> agg = BootstrapAggregator()
    >>> agg.add_scores({"rouge1": Score(1.0, 0.5, 0.6666666666666666)})
    >>> float(agg.aggregate()["rouge1"].mid.recall)
    0.5
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        # rouge-score's checks and messages, plus the types and NaN it lets
        # through to fail later (or never).
        check_real("confidence_interval", confidence_interval)
        if not 0 <= confidence_interval <= 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        check_int("n_samples", n_samples)
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples: int = n_samples
        self._confidence_interval: float = confidence_interval
        #: Where the resamples are drawn from: numpy's global random state,
        #: as rouge-score (a rougekit addition: a ``numpy.random.RandomState``
        #: here draws the same as the global state after ``numpy.random.seed``).
        self.random_state: Any = np.random
        self._scores: Dict[Any, list] = collections.defaultdict(list)

    def add_scores(self, scores: Mapping[Any, Any]) -> None:
        """Adds one item's scores: a dict of score type -> Score."""
        if not isinstance(scores, Mapping):
            raise TypeError("scores must be a dict of score type -> Score, not "
                            f"{type(scores).__name__}")
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> Dict[Any, AggregateScore]:
        """Returns a dict of score type -> AggregateScore(low, mid, high)."""
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            bounds = self._bootstrap_resample(matrix)
            low, mid, high = (scores[0].__class__(*bounds[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _bootstrap_resample(self, matrix):
        # The numpy calls, their order and their arguments are rouge-score's:
        # they consume the global random stream exactly as it does.
        means = np.zeros((self._n_samples, matrix.shape[1]))
        for i in range(self._n_samples):
            idx = self.random_state.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
            means[i, :] = np.mean(matrix[idx, :], axis=0)
        delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        return np.percentile(means, q, axis=0)
