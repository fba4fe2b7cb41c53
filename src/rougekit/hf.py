"""``compute()`` with the inputs and results of Hugging Face evaluate's ``rouge``.

Code written for ``evaluate.load("rouge").compute(...)`` runs unchanged on
``rougekit.compute(...)`` (no ``evaluate``, ``datasets``, ``nltk`` or
``absl`` needed) and gets the same dict: every number is equal with ``==`` to
evaluate's under the same ``numpy.random.seed``, because the scores are
rouge-score's (see ``rougekit.rouge_scorer``) and the aggregation is
``rougekit.scoring.BootstrapAggregator``, which draws from numpy's global
random stream exactly as rouge-score's does.

>>> from rougekit.hf import compute
>>> result = compute(predictions=["hello there", "general kenobi"],
...                  references=["hello there", "general kenobi"])
>>> {key: float(value) for key, value in result.items()}  # numpy floats
{'rouge1': 1.0, 'rouge2': 1.0, 'rougeL': 1.0, 'rougeLsum': 1.0}
>>> compute(["the cat sat", "a dog"], [["the cat sat down", "a cat"], ["the dog"]],
...         rouge_types=["rouge1"], use_aggregator=False)
{'rouge1': [0.8571428571428571, 0.5]}

Migrating from evaluate::

    # before                                   # after
    import evaluate                            import rougekit
    rouge = evaluate.load("rouge")
    rouge.compute(predictions=p, references=r) rougekit.compute(predictions=p, references=r)

Differences from evaluate, all on inputs that evaluate rejects or mishandles
(its ``datasets`` feature encoding fails on them, or ``zip`` silently drops
items):

- ``predictions`` and ``references`` of different lengths, or empty, raise
  ``ValueError``;
- references that mix single texts and lists of texts raise ``TypeError``;
- a reference given as a ``tuple`` counts as a list of references (evaluate
  turns tuples into lists when it stores the inputs in an Arrow table, so
  its ``_compute`` sees lists too);
- ``tokenizer`` may also be an object with a ``tokenize(text)`` method that is
  not itself callable (evaluate only accepts a callable).

Beyond evaluate (keyword-only; the defaults give evaluate's numbers):
``lang=`` (XL-Sum's multilingual tokenization, docs/guides/languages.md),
``stem_stopwords=``, ``sentence_split=`` (rougeLsum's sentences,
docs/guides/sentences.md) and ``return_signature=True``, which returns
``(result, signature)``: the signature line of every option behind the
numbers (``rougekit.signature``).
"""
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from rougekit import rouge_scorer, scoring
from rougekit._pipeline import ScoringOptions, scorer_tokenizer
from rougekit._sentences import check_sentence_split

__all__ = ["compute", "Tokenizer", "DEFAULT_ROUGE_TYPES"]

# evaluate's default, in its order (the result dict keeps this order).
DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


class Tokenizer:
    """Wraps a callable ``text -> list of tokens`` into an object with the
    ``tokenize`` method rouge-score's scorer calls (as evaluate's ``Tokenizer``).

    >>> Tokenizer(str.split).tokenize("a b")
    ['a', 'b']
    """

    def __init__(self, tokenizer_func: Callable[[str], List[Any]]):
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text: str) -> List[Any]:
        return self.tokenizer_func(text)

    def __repr__(self) -> str:
        return f"Tokenizer({self.tokenizer_func!r})"


def _is_multi(reference: Any) -> bool:
    # evaluate tests isinstance(references[0], list) after its Arrow round
    # trip, which has already turned tuples into lists.
    return isinstance(reference, (list, tuple))


def _wrap_tokenizer(tokenizer: Any) -> Any:
    if tokenizer is None:
        return None
    if callable(tokenizer):
        return Tokenizer(tokenizer)
    if callable(getattr(tokenizer, "tokenize", None)):
        return tokenizer
    raise TypeError("tokenizer must be a callable text -> list of tokens, not "
                    f"{type(tokenizer).__name__}")


def compute(predictions: Sequence[str],
            references: Union[Sequence[str], Sequence[Sequence[str]]],
            rouge_types: Optional[Sequence[str]] = None,
            use_aggregator: bool = True,
            use_stemmer: bool = False,
            tokenizer: Optional[Callable[[str], List[Any]]] = None,
            *, lang: Optional[str] = None, stem_stopwords: bool = False,
            sentence_split: Optional[str] = None, return_signature: bool = False,
            ) -> Union[Dict[str, Any], Tuple[Dict[str, Any], str]]:
    """ROUGE F-measures as Hugging Face evaluate's ``rouge`` metric returns them.

    Args:
      predictions: the texts to score, one per item.
      references: per item, one reference text, or a list of references (then
        each item is scored with ``score_multi``: per rouge type, the score
        of the reference with the highest F-measure). Decided on the first
        item, as evaluate does; all items must be of the same kind.
      rouge_types: names to compute; default
        ``["rouge1", "rouge2", "rougeL", "rougeLsum"]``.
      use_aggregator: True: per type, the ``mid`` F-measure of
        ``scoring.BootstrapAggregator`` (1000 resamples, from numpy's global
        random state: seed it with ``numpy.random.seed`` for repeatable
        numbers). Note that ``mid`` is the median of the bootstrap means, not
        the plain mean. False: per type, the list of per-item F-measures.
      use_stemmer: stem tokens longer than 3 characters with the Porter stemmer.
      tokenizer: a callable ``text -> list of tokens`` used instead of the
        default tokenizer (then ``use_stemmer`` has no effect, as in evaluate).
      lang: (keyword) XL-Sum's tokenization for this language
        (``rougekit.lang.LANGUAGES``); ``use_stemmer`` then uses its stemmer.
      stem_stopwords: (keyword) with ``lang=`` of a Snowball language, stem
        NLTK's stopwords too.
      sentence_split: (keyword) rougeLsum's sentences: "newline" (default,
        evaluate's), "nltk" or "sentencex".
      return_signature: (keyword) also return the signature line.

    Returns:
      ``{rouge_type: float}`` (numpy floats, as evaluate's) when aggregated,
      ``{rouge_type: [float, ...]}`` otherwise; with ``return_signature``, the
      pair ``(that, signature)``.

    >>> compute(["the cat sat on the mat"], ["the cat is on the mat"],
    ...         rouge_types=["rouge1", "rougeL"], use_aggregator=False)
    {'rouge1': [0.8333333333333334], 'rougeL': [0.8333333333333334]}
    >>> compute(["a-b c"], ["a b c"], rouge_types=["rouge1"], use_aggregator=False,
    ...         tokenizer=lambda text: text.split())
    {'rouge1': [0.4]}
    """
    if isinstance(predictions, (str, bytes)) or isinstance(references, (str, bytes)):
        raise TypeError("predictions and references must be lists of texts, "
                        "not a single text")
    predictions = list(predictions)
    refs: List[Any] = list(references)
    if len(predictions) != len(refs):
        # evaluate refuses this too (its add_batch); zip() would drop items.
        raise ValueError("predictions and references differ in length: "
                         f"{len(predictions)} and {len(refs)}")
    if not predictions:
        raise ValueError("predictions and references are empty")
    if rouge_types is None:
        rouge_types = list(DEFAULT_ROUGE_TYPES)

    multi_ref = _is_multi(refs[0])
    for i, ref in enumerate(refs):
        if _is_multi(ref) != multi_ref:
            raise TypeError(
                f"references[{i}] is {'a list' if _is_multi(ref) else 'a single text'} "
                f"but references[0] is {'a list' if multi_ref else 'a single text'}: "
                "give every item one reference text, or every item a list")

    tok = scorer_tokenizer(_wrap_tokenizer(tokenizer), use_stemmer, lang, stem_stopwords)
    rule = check_sentence_split(sentence_split)
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, tokenizer=tok,
                                      sentence_split=rule)
    # Batch scoring returns, in order, exactly what score / score_multi return
    # item by item (evaluate's loop), only faster.
    if multi_ref:
        scores = scorer.score_multi_batch(refs, predictions)
    else:
        scores = scorer.score_batch(refs, predictions)

    if use_aggregator:
        # The random draws happen only in aggregate(), type by type in the
        # order the types were first added: evaluate's order.
        aggregator = scoring.BootstrapAggregator()
        for score in scores:
            aggregator.add_scores(score)
        result: Dict[str, Any] = aggregator.aggregate()
        for key in result:
            result[key] = result[key].mid.fmeasure
    else:
        result = {key: [score[key].fmeasure for score in scores] for key in scores[0]}
    if not return_signature:
        return result
    options = ScoringOptions(rouge_types=tuple(result), tokenizer=tok, sentence_split=rule,
                             aggregation="bootstrap-median" if use_aggregator else "mean",
                             bootstrap=1000 if use_aggregator else 0)
    signature = options.signature() if use_aggregator else options.signature(aggregation="none")
    return result, signature
