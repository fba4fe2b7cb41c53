"""``compute()`` with the inputs and results of Hugging Face evaluate's ``rouge``.

Code written for ``evaluate.load("rouge").compute(...)`` runs unchanged on
``rougekit.compute(...)`` (no ``evaluate``, ``datasets``, ``nltk`` or
``absl`` needed) and gets the same dict: the scores are rouge-score's (see
``rougekit.rouge_scorer``) and the aggregation is rouge-score's
``BootstrapAggregator`` (``rougekit.scoring``), the ``evaluate`` flavor.
Its resamples are drawn from ``numpy.random.RandomState(seed)``, seed
``rougekit.DEFAULT_SEED`` unless given, so the numbers repeat from run to
run and equal evaluate's after ``numpy.random.seed(seed)``; with
``seed="numpy-global"`` they are drawn from numpy's global random state, as
evaluate draws them, and equal evaluate's under the same global state.

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
import dataclasses
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from rougekit import rouge_scorer
from rougekit._doors import resolve, takes_options
from rougekit._flavors.evaluate import Tokenizer, wrap_tokenizer
from rougekit._options import DEFAULT_ROUGE_TYPES, ScoringOptions
from rougekit._pipeline import corpus_scores, kept_items

__all__ = ["compute", "Tokenizer", "DEFAULT_ROUGE_TYPES"]


def _is_multi(reference: Any) -> bool:
    # evaluate tests isinstance(references[0], list) after its Arrow round
    # trip, which has already turned tuples into lists.
    return isinstance(reference, (list, tuple))


@takes_options("compute")
def compute(predictions: Sequence[str],
            references: Union[Sequence[str], Sequence[Sequence[str]]],
            rouge_types: Optional[Sequence[str]] = None,
            use_aggregator: bool = True,
            use_stemmer: bool = False,
            tokenizer: Any = None,
            *, options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
            return_signature: bool = False, threads: Optional[int] = None,
            **fields: Any) -> Union[Dict[str, Any], Tuple[Dict[str, Any], str]]:
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
        ``scoring.BootstrapAggregator`` (1000 resamples, drawn from
        ``numpy.random.RandomState(seed)``: the draws after
        ``numpy.random.seed(seed)``, seed ``rougekit.DEFAULT_SEED`` unless
        given; ``seed="numpy-global"`` draws from numpy's global state, as
        evaluate does). Note that ``mid`` is the median of the bootstrap
        means, not the plain mean. False: per type, the list of per-item
        F-measures. (With another flavor: its corpus number, or the per-item
        F-measures.)
      use_stemmer: stem tokens longer than 3 characters with the Porter stemmer.
      tokenizer: a callable ``text -> list of tokens`` used instead of the
        default tokenizer (then ``use_stemmer`` has no effect, as in evaluate).
      options: (keyword) a ``rougekit.ScoringOptions`` instead of the
        arguments.
      flavor: (keyword) another package's ROUGE and its switches (default:
        evaluate's, with the arguments above as its switches). Without
        ``flavor=``, the other option fields (``lang``, ``sentence_split``,
        ``seed``, ``multi_ref``, ... of ``ScoringOptions``) apply on top of
        evaluate's; with it, only that package's switches do.
      return_signature: (keyword) also return the signature line.
      threads: (keyword) threads for the compiled path; no number changes.
      **fields: (keywords) ``ScoringOptions`` fields, e.g. ``lang=`` (XL-Sum's
        tokenization for a language of ``rougekit.lang.LANGUAGES``;
        ``use_stemmer`` then uses its stemmer), ``sentence_split=``
        (rougeLsum's sentences: "newline", evaluate's, "nltk" or
        "sentencex"), ``seed=``.

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

    multi_ref = _is_multi(refs[0])
    for i, ref in enumerate(refs):
        if _is_multi(ref) != multi_ref:
            raise TypeError(
                f"references[{i}] is {'a list' if _is_multi(ref) else 'a single text'} "
                f"but references[0] is {'a list' if multi_ref else 'a single text'}: "
                "give every item one reference text, or every item a list")

    options = _options(options, flavor, rouge_types, use_aggregator, use_stemmer, tokenizer,
                       fields)
    predictions, refs = kept_items(options, predictions,
                                   [list(r) if multi_ref else [r] for r in refs])
    scorer = rouge_scorer.RougeScorer(options=options)
    # Batch scoring returns, in order, exactly what score / score_multi return
    # item by item (evaluate's loop), only faster.
    if multi_ref:
        scores = scorer.score_multi_batch(refs, predictions, threads)
    else:
        scores = scorer.score_batch([r[0] for r in refs], predictions, threads)
    names = options.names
    if use_aggregator:
        # rouge-score's BootstrapAggregator (the evaluate flavor's) draws only
        # in aggregate(), type by type in the types' order: evaluate's order.
        columns = np.array([[float(getattr(score[t], m)) for score in scores]
                            for t in names for m in ("precision", "recall", "fmeasure")])
        corpus, _, _ = corpus_scores(options, columns.reshape(3 * len(names), len(scores)))
        result: Dict[str, Any] = {t: corpus[t].fmeasure for t in names}
    else:
        result = {t: [score[t].fmeasure for score in scores] for t in names}
    if not return_signature:
        return result
    signature = options.signature() if use_aggregator else options.signature(aggregation="none")
    return result, signature


def _options(options: Optional[ScoringOptions], flavor: Optional[str], rouge_types: Any,
             use_aggregator: bool, use_stemmer: bool, tokenizer: Any,
             fields: Dict[str, Any]) -> ScoringOptions:
    """compute's options: the flavor's (evaluate's by default) with
    evaluate's arguments as its switches; without ``flavor=`` and
    ``options=``, the other fields on top of evaluate's."""
    switches: Dict[str, Any] = {}
    if rouge_types is not None:
        switches["rouge_types"] = rouge_types
    if use_stemmer:
        switches["use_stemmer"] = use_stemmer
    evaluate = flavor == "evaluate" or (flavor is None and options is None)
    if tokenizer is not None:
        switches["tokenizer"] = tokenizer if evaluate else wrap_tokenizer(tokenizer)
    if evaluate:
        switches["use_aggregator"] = bool(use_aggregator)
    if flavor is not None or options is not None:
        return resolve("compute", options, flavor, **switches, **fields)
    resolve("compute", **fields)           # the fields' own checks, named
    for name in ("rouge_types", "seed"):
        if name in fields:
            switches[name] = fields.pop(name)
    preset = resolve("compute", None, "evaluate", **switches)
    return resolve("compute", dataclasses.replace(preset, **fields)) if fields else preset
