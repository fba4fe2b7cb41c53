"""The ``evaluate`` flavor: Hugging Face ``evaluate.load("rouge").compute``.

Its ``compute(predictions, references, rouge_types=None, use_aggregator=True,
use_stemmer=False, tokenizer=None)`` scores each item with rouge-score (the
best of several references by F, as ``score_multi``) and, with
``use_aggregator``, reports per rouge type the median of 1,000 bootstrap
resample means drawn by rouge-score's ``BootstrapAggregator`` from numpy's
global random state. Here the draws come from
``numpy.random.RandomState(seed)`` (the same draws as after
``numpy.random.seed(seed)``; ``seed="numpy-global"``: the global state
itself), so the numbers repeat.
"""
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from rougekit import _stages
from rougekit._flavors._flavor import Flavor, Switch, register
from rougekit._flavors.rouge_score import USE_STEMMER
from rougekit._spelling import option
from rougekit.scoring import AggregateScore, BootstrapAggregator, Score

__all__ = ["Tokenizer", "USE_AGGREGATOR", "TOKENIZER", "FLAVOR", "bootstrap_medians",
           "random_state"]


class Tokenizer:
    """Wraps a callable ``text -> list of tokens`` into an object with the
    ``tokenize`` method rouge-score's scorer calls (as evaluate's ``Tokenizer``).
    Two wrap the same callable are equal.

    >>> Tokenizer(str.split).tokenize("a b")
    ['a', 'b']
    """

    def __init__(self, tokenizer_func: Callable[[str], List[Any]]):
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text: str) -> List[Any]:
        return self.tokenizer_func(text)

    def __eq__(self, other: object) -> bool:
        return type(other) is Tokenizer and other.tokenizer_func == self.tokenizer_func

    def __hash__(self) -> int:
        return hash(self.tokenizer_func)

    def __repr__(self) -> str:
        return f"Tokenizer({self.tokenizer_func!r})"


def wrap_tokenizer(tokenizer: Any) -> Any:
    """evaluate's ``tokenizer`` argument as a tokenizer object: a callable is
    wrapped (``Tokenizer``), an object with ``tokenize`` kept, None is None."""
    if tokenizer is None:
        return None
    if callable(tokenizer):
        return Tokenizer(tokenizer)
    if callable(getattr(tokenizer, "tokenize", None)):
        return tokenizer
    raise TypeError("tokenizer must be a callable text -> list of tokens, not "
                    f"{type(tokenizer).__name__}")


def _tokenizer(value: Any) -> Dict[str, Any]:
    if isinstance(value, str):
        if value == "rouge-score":
            return {"tokenizer": value}
        raise ValueError(f"flavor 'evaluate' takes a tokenizer callable (evaluate's "
                         f"tokenizer argument), not {option('tokenizer', value)}")
    wrapped = wrap_tokenizer(value)
    if wrapped is None:
        return {"tokenizer": "rouge-score"}
    # evaluate's (rouge-score's) rule: with a tokenizer, use_stemmer is ignored
    return {"tokenizer": wrapped, "use_stemmer": False}


#: evaluate's ``use_aggregator``: the bootstrap medians, or per-item scores
#: (whose corpus number is then their mean).
USE_AGGREGATOR = Switch("use_aggregator", ("aggregation", "bootstrap"),
                        ((True, ("bootstrap-median", 1000)), (False, ("mean", 0))),
                        help="the medians of rouge-score's BootstrapAggregator, or "
                             "per-item scores")
#: evaluate's ``tokenizer``: a callable ``text -> tokens``.
TOKENIZER = Switch("tokenizer", ("tokenizer",), translate=_tokenizer,
                   accepts=lambda values: values[0] == "rouge-score"
                   or not isinstance(values[0], str),
                   help="a callable text -> list of tokens")


def random_state(seed: Any) -> Any:
    """Where rouge-score's ``BootstrapAggregator`` draws from: a
    ``numpy.random.RandomState(seed)``, numpy's global state for
    "numpy-global", a fresh one (OS entropy) for None."""
    if seed == "numpy-global":
        return np.random
    return np.random.RandomState(seed)


def bootstrap_medians(options: Any, columns: np.ndarray
                      ) -> Tuple[Dict[str, Score], Dict[str, AggregateScore]]:
    """rouge-score's ``BootstrapAggregator`` over the items' columns: per
    rouge type the median (``mid``) of ``options.bootstrap`` resample means,
    and its low/mid/high."""
    names = list(options.rouge_types)
    aggregator = BootstrapAggregator(confidence_interval=options.confidence,
                                     n_samples=options.bootstrap)
    aggregator.random_state = random_state(options.seed)
    values = columns.tolist()
    per_type = [list(map(Score, *values[3 * k:3 * k + 3])) for k in range(len(names))]
    for item in zip(*per_type):
        aggregator.add_scores(dict(zip(names, item)))
    medians = aggregator.aggregate()
    return {name: medians[name].mid for name in names}, medians


_stages.AGGREGATIONS.add("bootstrap-median", bootstrap_medians)

FLAVOR = register(Flavor(
    name="evaluate", package="Hugging Face evaluate: evaluate.load('rouge').compute",
    fields={"aggregation": "bootstrap-median", "bootstrap": 1000},
    switches=(USE_STEMMER, USE_AGGREGATOR, TOKENIZER)))
