"""Corpus-level ROUGE with several references per item.

``score_corpus(candidates, references)`` scores each candidate against its
references, reduces them to one score per item and rouge type with a
multi-reference policy, and averages the items::

    >>> result = score_corpus(
    ...     ["Patient discharged with two-week follow-up scheduled."],
    ...     [["The patient was discharged and will return in two weeks for follow-up.",
    ...       "Discharge completed; follow-up visit set for two weeks."]])
    >>> {t: round(f, 4) for t, f in result.to_dict().items()}
    {'rouge1': 0.4762, 'rouge2': 0.1333, 'rougeL': 0.4762}
    >>> result.signature  # doctest: +ELLIPSIS
    'rougekit:...|types:rouge1,rouge2,rougeL|tok:rouge-score|lang:none|stem:no|stop:none|split:newline|multi:max|agg:mean|boot:none'

Per reference, precision, recall and F are rouge-score's (as ``RougeScorer``;
rougeLsum splits sentences on "\\n" unless ``sentence_split`` says otherwise),
or XL-Sum's with ``lang=``. The multi-reference policies, per item and rouge
type:

``max``
    the reference with the highest F, the first on ties (rouge-score's
    ``score_multi``).
``mean``
    the mean of the per-reference precisions, recalls and F-measures.
``pooled``
    ROUGE-1.5.5's ``-f A``: hits, candidate totals and reference totals are
    summed over the references; P = sum(hits) / sum(candidate totals),
    R = sum(hits) / sum(reference totals), F from these.
``best-recall``
    ROUGE-1.5.5's ``-f B``: the reference with the highest recall, the first
    on ties.
``jackknife``
    Lin (2004): with M >= 2 references, each of the M sets of M - 1
    references gives its ``max`` score, and P, R and F are the means of those
    M scores; with one reference, its score.

With one reference every policy gives that reference's score. The corpus
score of a rouge type is the mean over items of the item precisions, recalls
and F-measures: each the float nearest the exact mean (``aggregate.exact_mean``),
so it is the same on every Python version and in any order of the items, and
equal to ``MeanAggregator``'s. (``sum(values) / n`` is not: Python 3.12 made
``sum`` of floats compensated, which changes last bits from 3.11's.) The
``mean`` and ``jackknife`` policies average the same way.
``aggregation="bootstrap-median"`` reports instead what rouge-score's
``BootstrapAggregator`` (and so Hugging Face evaluate's ``rouge``) reports:
per rouge type the median of ``bootstrap`` resampled means, drawn from numpy's
global random state.

The signature records every option that changes the numbers, as
sacreBLEU's (``rougekit.signature`` describes its fields).
"""
import dataclasses
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from rougekit._bootstrap import corpus_intervals
from rougekit._checks import as_list, check_int, check_real, check_seed, thread_count
from rougekit._counts import lcs_counts, ngram_counts, summary_lcs_counts
from rougekit._multi_ref import (
    MULTI_REF_POLICIES,
    column_means,
    combine_columns,
    combine_counts,
)
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM, parse_rouge_types
from rougekit._sentences import check_sentence_split
from rougekit.lang import LangTokenizer
from rougekit.scoring import AggregateScore, BootstrapAggregator, Score
from rougekit.signature import Signature
from rougekit.word_tokenizers import get_tokenizer

AGGREGATIONS = ("mean", "bootstrap-median")

__all__ = ["score_corpus", "CorpusResult", "MULTI_REF_POLICIES"]



@dataclasses.dataclass(frozen=True)
class CorpusResult:
    """What ``score_corpus`` returns.

    Attributes:
      scores: rouge type -> Score, the corpus means.
      intervals: rouge type -> AggregateScore(low, mid, high) of Scores, the
        bootstrap confidence intervals (mid is the corpus mean); or None.
      per_item: one dict rouge type -> Score per item; None from the Dask
        and Spark ``score_corpus`` unless asked for (``per_item=True``).
      n_items: the number of items.
      signature: the options that produced the numbers (module docstring).
    """

    scores: Dict[str, Score]
    intervals: Optional[Dict[str, AggregateScore]]
    per_item: Optional[List[Dict[str, Score]]]
    n_items: int
    signature: str

    def to_dict(self) -> Dict[str, float]:
        """``{rouge type: corpus F-measure}``, the usual report of a metric card."""
        return {t: s.fmeasure for t, s in self.scores.items()}


def _texts(candidates, references):
    """Checked lists: candidates [str], references [[str, ...]]."""
    candidates = as_list(candidates, "candidates", "a list of str")
    references = as_list(references, "references", "a list (one entry per candidate)")
    if len(candidates) != len(references):
        raise ValueError(f"candidates has {len(candidates)} items but references "
                         f"has {len(references)}")
    if not candidates:
        raise ValueError("candidates is empty: there is nothing to score")
    for i, cand in enumerate(candidates):
        if not isinstance(cand, str):
            raise TypeError(f"candidates[{i}] must be str, not {type(cand).__name__}")
    refs = []
    for i, entry in enumerate(references):
        entry = [entry] if isinstance(entry, str) else entry
        if not isinstance(entry, (list, tuple)):
            raise TypeError(f"references[{i}] must be a str or a list of str, "
                            f"not {type(entry).__name__}")
        if not entry:
            raise ValueError(f"references[{i}] is an empty list")
        for j, ref in enumerate(entry):
            if not isinstance(ref, str):
                raise TypeError(f"references[{i}][{j}] must be str, not "
                                f"{type(ref).__name__}")
        refs.append(list(entry))
    return candidates, refs


class _Tokenized:
    """A text's tokens and its sentences' tokens, on demand, as the
    scorer tokenizes them (for rougeLsum: its sentence rule, empty sentences
    dropped)."""

    def __init__(self, text, scorer):
        self._text, self._scorer = text, scorer
        self._tokenize = scorer._tokenizer.tokenize
        self._tokens = self._sentences = None

    @property
    def tokens(self):
        if self._tokens is None:
            self._tokens = self._tokenize(self._text)
        return self._tokens

    @property
    def sentences(self):
        if self._sentences is None:
            self._sentences = self._scorer._sentences(self._text, "text")
        return self._sentences


def _counts(kind, cand, ref):
    """(hits, candidate total, reference total) of one pair."""
    if kind == ROUGE_L:
        hits, ref_total, cand_total = lcs_counts(ref.tokens, cand.tokens)
    elif kind == ROUGE_LSUM:
        hits, ref_total, cand_total = summary_lcs_counts(ref.sentences, cand.sentences)
    else:
        hits, ref_total, cand_total = ngram_counts(ref.tokens, cand.tokens, kind)
    return hits, cand_total, ref_total


def _item_columns(types, tok, policy, candidates, references, threads, rule="newline"):
    """The per-item scores of checked input, shape (3 * types, items): P, R
    and F of each rouge type in turn, one column per item, floats (0.0 for
    rouge-score's int 0). With rouge-score's tokenizer and newline sentences,
    every policy but "pooled" takes the pairs to ``RougeScorer.score_columns``'s
    engine, on all cores; the others go through token counts here, tokenized
    as a ``RougeScorer`` with ``tok`` and sentence rule ``rule`` does."""
    from rougekit.rouge_scorer import RougeScorer
    names = [name for name, _ in types]
    scorer = RougeScorer(names, tokenizer=tok, sentence_split=rule)
    if policy != "pooled" and scorer._engine is not None:
        targets = [r for refs in references for r in refs]
        predictions = [c for c, refs in zip(candidates, references) for _ in refs]
        flat = scorer._score_matrix(targets, predictions, threads)
        return combine_columns(policy, flat, [len(refs) for refs in references])
    if scorer._lines_to_check:
        scorer._check_lines(t for c, refs in zip(candidates, references) for t in (c, *refs))
    rows = []
    for cand_text, ref_texts in zip(candidates, references):
        cand = _Tokenized(cand_text, scorer)
        refs = [_Tokenized(r, scorer) for r in ref_texts]
        rows.append([x for _, kind in types
                     for x in combine_counts(policy, [_counts(kind, cand, r) for r in refs])])
    return np.array(rows, dtype=np.float64).reshape(len(rows), 3 * len(types)).T.copy()


def _item_setup(rouge_types, tokenizer="rouge-score", use_stemmer=False, multi_ref="max",
                threads=None, lang=None, stem_stopwords=False):
    """The checked options of ``_item_columns``: ``(types, tokenizer)``."""
    types = parse_rouge_types(rouge_types)
    _check_options(multi_ref, 0, 0.95, None)
    tok = _tokenizer_of(tokenizer, use_stemmer, lang, stem_stopwords)
    if threads is not None:
        thread_count(threads)
    return types, tok


def _item_scores(candidates, references, rouge_types, *, tokenizer="rouge-score",
                 use_stemmer=False, lang=None, stem_stopwords=False, sentence_split="newline",
                 multi_ref="max", threads=None):
    """``score_corpus``'s per-item scores as columns, shape (3 * types,
    items), after the same checks (``_item_columns``); for the command line."""
    rule = check_sentence_split(sentence_split)
    types, tok = _item_setup(rouge_types, tokenizer, use_stemmer, multi_ref, threads,
                             lang, stem_stopwords)
    candidates, references = _texts(candidates, references)
    return _item_columns(types, tok, multi_ref, candidates, references, threads, rule)


def _item_rows(columns, names):
    """``CorpusResult.per_item`` from the per-item columns."""
    values = columns.tolist()
    per_type = [list(map(Score, *values[3 * k:3 * k + 3])) for k in range(len(names))]
    return [dict(zip(names, item)) for item in zip(*per_type)] if names else []


def _check_options(multi_ref, bootstrap, confidence, seed, aggregation="mean"):
    if not isinstance(multi_ref, str):
        raise TypeError(f"multi_ref must be str, not {type(multi_ref).__name__}")
    if multi_ref not in MULTI_REF_POLICIES:
        raise ValueError(f"unknown multi_ref policy {multi_ref!r}; valid: "
                         + ", ".join(MULTI_REF_POLICIES))
    check_int("bootstrap", bootstrap, minimum=0)
    check_real("confidence", confidence, 0, 1)
    check_seed("seed", seed)
    if not isinstance(aggregation, str) or aggregation not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {aggregation!r}; valid: "
                         + ", ".join(AGGREGATIONS))
    if aggregation == "bootstrap-median":
        if not bootstrap:
            raise ValueError("aggregation='bootstrap-median' needs bootstrap=N resamples "
                             "(rouge-score's BootstrapAggregator draws 1000)")
        if seed is not None:
            raise ValueError("aggregation='bootstrap-median' draws from numpy's global "
                             "random state, as rouge-score does: seed it with "
                             "numpy.random.seed, not seed=")


def _tokenizer_of(tokenizer, use_stemmer, lang, stem_stopwords):
    if lang is not None:
        if not (isinstance(tokenizer, str) and tokenizer == "rouge-score"):
            raise ValueError("give lang= or tokenizer=, not both: lang= sets the tokenizer "
                             "(XL-Sum's for that language)")
        return LangTokenizer(lang, use_stemmer, stem_stopwords)
    if stem_stopwords:
        raise ValueError("stem_stopwords=True applies only with lang=")
    return get_tokenizer(tokenizer, use_stemmer=use_stemmer)


def score_corpus(candidates: Sequence[str], references: Sequence[Any],
                 rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
                 *, tokenizer: Any = "rouge-score", use_stemmer: bool = False,
                 lang: Optional[str] = None, stem_stopwords: bool = False,
                 sentence_split: str = "newline", multi_ref: str = "max",
                 aggregation: str = "mean", bootstrap: int = 0, confidence: float = 0.95,
                 seed: Optional[int] = None, threads: Optional[int] = None) -> "CorpusResult":
    """ROUGE of a corpus: each candidate against its references.

    Args:
      candidates: the candidate texts (str).
      references: one entry per candidate: a str, or a non-empty list of str.
      rouge_types: names among "rouge1" to "rouge9", "rougeL", "rougeLsum".
      tokenizer: a name or an object, as ``word_tokenizers.get_tokenizer``.
      use_stemmer: Porter stemming with the "rouge-score" tokenizer; with
        ``lang=``, the language's stemmer.
      lang: a language of ``rougekit.lang.LANGUAGES``: XL-Sum's multilingual
        tokenization (instead of ``tokenizer``; docs/guides/languages.md).
      stem_stopwords: with ``lang=`` of a Snowball language, stem NLTK's
        stopwords too (XL-Sum leaves them unstemmed).
      sentence_split: rougeLsum's sentences: "newline" (rouge-score's rule),
        "nltk" or "sentencex" (``rougekit._sentences``; docs/guides/sentences.md).
      multi_ref: "max", "mean", "pooled", "best-recall" or "jackknife"
        (module docstring).
      aggregation: "mean" (default), or "bootstrap-median" (rouge-score's
        BootstrapAggregator with ``bootstrap`` resamples from numpy's global
        random state: scores are the medians, intervals its low/mid/high).
      bootstrap: N > 0 adds percentile bootstrap confidence intervals from N
        resamples: resample b draws n items with replacement
        (``numpy.random.default_rng(seed).integers(0, n, size=n)``, the same
        items for every rouge type) and takes their mean P, R and F; low and
        high are the (1 - confidence) / 2 and (1 + confidence) / 2 quantiles
        of the N means (numpy's linear interpolation), and mid is the corpus
        mean itself (rouge-score's BootstrapAggregator reports the median of
        the resampled means instead).
      confidence: the interval's coverage, in [0, 1].
      seed: the resampling seed (None: fresh entropy, not reproducible).
      threads: threads for the compiled path (default: all cores); every
        policy but "pooled" with rouge-score's tokenizer scores the pairs with
        ``RougeScorer.score_columns``, which gives the same floats.

    Returns a ``CorpusResult``.
    """
    types = parse_rouge_types(rouge_types)
    rule = check_sentence_split(sentence_split)
    _check_options(multi_ref, bootstrap, confidence, seed, aggregation)
    tok = _tokenizer_of(tokenizer, use_stemmer, lang, stem_stopwords)
    if threads is not None:
        thread_count(threads)          # the same checks on every path
    candidates, references = _texts(candidates, references)

    names = [name for name, _ in types]
    columns = _item_columns(types, tok, multi_ref, candidates, references, threads, rule)
    per_item = _item_rows(columns, names)
    seed_field: Any = seed
    if aggregation == "bootstrap-median":
        aggregator = BootstrapAggregator(confidence_interval=confidence, n_samples=bootstrap)
        for item in per_item:
            aggregator.add_scores(item)
        intervals: Optional[Dict[str, AggregateScore]] = aggregator.aggregate()
        scores = {name: intervals[name].mid for name in names}  # type: ignore[index]
        seed_field = "numpy-global"
    else:
        scores = column_means(columns, names)
        intervals = corpus_intervals(columns, scores, bootstrap, confidence, seed) \
            if bootstrap else None
    return CorpusResult(scores=scores, intervals=intervals, per_item=per_item,
                        n_items=len(per_item),
                        signature=_signature(tok, multi_ref, bootstrap, confidence, seed_field,
                                             names, rule, aggregation))


def _signature(tok, multi_ref, bootstrap, confidence, seed, names, rule="newline",
               aggregation="mean"):
    return str(Signature.of_tokenizer(tok, list(names), rule, multi_ref=multi_ref,
                                      aggregation=aggregation, bootstrap=bootstrap,
                                      confidence=confidence, seed=seed))
