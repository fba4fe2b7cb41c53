"""The ``rouge-score`` flavor: Google's rouge-score 0.1.2, rougekit's default.

``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False,
tokenizer=None)``: its arithmetic is rougekit's own (registered by
``rougekit._pipeline``), so the flavor fixes nothing; its switches are the
scorer's arguments, and the corpus number is the mean of the items.
"""
from typing import Any, Dict, Tuple

from rougekit._flavors._flavor import Flavor, Switch, register
from rougekit._spelling import option

__all__ = ["USE_STEMMER", "SPLIT_SUMMARIES", "TOKENIZER", "FLAVOR"]

#: rouge-score's ``use_stemmer`` (and XL-Sum's, evaluate's): Porter stemming.
USE_STEMMER = Switch("use_stemmer", ("use_stemmer",), ((False, (False,)), (True, (True,))),
                     help="stem words longer than 3 characters")
#: rouge-score's ``split_summaries``: rougeLsum's sentences from nltk.
SPLIT_SUMMARIES = Switch("split_summaries", ("sentence_split",),
                         ((False, ("newline",)), (True, ("nltk",))),
                         help="rougeLsum's sentences from nltk's sent_tokenize")


def _tokenizer_object(value: Any) -> Dict[str, Any]:
    if value is None or value == "rouge-score":
        return {"tokenizer": "rouge-score"}
    if isinstance(value, str):
        raise ValueError(f"flavor 'rouge-score' takes a tokenizer object (rouge-score's "
                         f"tokenizer argument), not {option('tokenizer', value)}")
    if not callable(getattr(value, "tokenize", None)):
        raise TypeError("flavor 'rouge-score': the tokenizer must have a tokenize method, "
                        f"as rouge-score's; got {type(value).__name__}")
    # rouge-score's rule: with a tokenizer given, use_stemmer is ignored
    return {"tokenizer": value, "use_stemmer": False}


def _default_or_object(values: Tuple[Any, ...]) -> bool:
    return values[0] == "rouge-score" or not isinstance(values[0], str)


#: rouge-score's ``tokenizer``: an object with ``tokenize(text)`` (then, as
#: there, ``use_stemmer`` is ignored: listed after it, it is applied last).
TOKENIZER = Switch("tokenizer", ("tokenizer",), translate=_tokenizer_object,
                   accepts=_default_or_object, help="an object with tokenize(text)")

FLAVOR = register(Flavor(
    name="rouge-score", package="rouge-score 0.1.2: rouge_scorer.RougeScorer",
    fields={}, switches=(USE_STEMMER, SPLIT_SUMMARIES, TOKENIZER)))
