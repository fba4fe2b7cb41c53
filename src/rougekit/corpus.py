"""Corpus-level ROUGE with several references per item (seed 003).

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
    'rougekit:...|tok:rouge-score|stem:no|multi:max|agg:mean|boot:none'

Per reference, precision, recall and F are rouge-score's (as ``RougeScorer``;
rougeLsum splits sentences on "\\n"). The multi-reference policies, per item
and rouge type:

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

The signature records every option that changes the numbers, as sacreBLEU's,
in fields ``key:value`` joined by "|":

- ``rougekit:VERSION``: the package version;
- ``tok:NAME``: the tokenizer's name (``rougekit.word_tokenizers``; a custom
  tokenizer without a ``name`` attribute is ``custom:ClassName``);
- ``stem:no`` or ``stem:porter``: stemming (a tokenizer named "X+S" is
  tokenizer X with stemmer S);
- ``multi:POLICY``: the multi-reference policy;
- ``agg:mean``: the corpus aggregation;
- ``boot:none``, or ``boot:N,ci:C,seed:S`` with bootstrap intervals.
"""
import dataclasses
import numbers
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from rougekit._checks import as_list
from rougekit.aggregate import exact_mean
from rougekit._counts import lcs_counts, ngram_counts, summary_lcs_counts
from rougekit._version import __version__
from rougekit.scoring import AggregateScore, Score
from rougekit.token_metrics import _score
from rougekit.word_tokenizers import RougeScoreTokenizer, get_tokenizer


def _per_item_compiled(types, tok, policy, candidates, references, threads):
    """Per-item Scores from RougeScorer.score_batch over every (reference,
    candidate) pair: the compiled engine, on all cores."""
    from rougekit.rouge_scorer import RougeScorer
    scorer = RougeScorer([name for name, _ in types],
                         use_stemmer=tok._stemmer is not None)
    targets = [r for refs in references for r in refs]
    predictions = [c for c, refs in zip(candidates, references) for _ in refs]
    flat = scorer.score_batch(targets, predictions, threads=threads)
    per_item, k = [], 0
    for refs in references:
        scores = flat[k:k + len(refs)]
        k += len(refs)
        per_item.append({name: _combine_scores(policy, [_as_floats(s[name]) for s in scores])
                         for name, _ in types})
    return per_item


_FLOAT_ZEROS = Score(0.0, 0.0, 0.0)


def _as_floats(score):
    # rouge-score's int 0 for empty rougeL/rougeLsum; score_corpus reports
    # 0.0, as on its other path.
    return _FLOAT_ZEROS if type(score.precision) is int else score

__all__ = ["score_corpus", "CorpusResult", "MULTI_REF_POLICIES"]

MULTI_REF_POLICIES = ("max", "mean", "pooled", "best-recall", "jackknife")

_ROUGE_N_RE = re.compile(r"rouge([1-9])")
_L, _LSUM = "L", "Lsum"


@dataclasses.dataclass(frozen=True)
class CorpusResult:
    """What ``score_corpus`` returns.

    Attributes:
      scores: rouge type -> Score, the corpus means.
      intervals: rouge type -> AggregateScore(low, mid, high) of Scores, the
        bootstrap confidence intervals (mid is the corpus mean); or None.
      per_item: one dict rouge type -> Score per item.
      n_items: the number of items.
      signature: the options that produced the numbers (module docstring).
    """

    scores: Dict[str, Score]
    intervals: Optional[Dict[str, AggregateScore]]
    per_item: List[Dict[str, Score]]
    n_items: int
    signature: str

    def to_dict(self) -> Dict[str, float]:
        """``{rouge type: corpus F-measure}``, seed 003's output format."""
        return {t: s.fmeasure for t, s in self.scores.items()}


def _parse_types(rouge_types):
    """[(rouge type, kind)]: kind is n for rougeN, _L or _LSUM."""
    names = as_list(rouge_types, "rouge_types", "a list of rouge type names")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"rouge_types must contain str, not {type(name).__name__}")
    names = list(dict.fromkeys(names))
    if not names:
        raise ValueError("rouge_types is empty")
    parsed: List[Tuple[str, Any]] = []
    for name in names:
        match = _ROUGE_N_RE.fullmatch(name)
        if match:
            parsed.append((name, int(match.group(1))))
        elif name in ("rougeL", "rougeLsum"):
            parsed.append((name, _L if name == "rougeL" else _LSUM))
        else:
            raise ValueError(f"rouge_types: unknown rouge type {name!r}; valid "
                             "types are rouge1 to rouge9, rougeL and rougeLsum")
    return parsed


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
    """A text's tokens and its "\\n"-separated sentences' tokens, on demand,
    as rouge-score's RougeScorer tokenizes them (empty lines dropped)."""

    def __init__(self, text, tokenize):
        self._text, self._tokenize = text, tokenize
        self._tokens = self._sentences = None

    @property
    def tokens(self):
        if self._tokens is None:
            self._tokens = self._tokenize(self._text)
        return self._tokens

    @property
    def sentences(self):
        if self._sentences is None:
            self._sentences = [self._tokenize(s) for s in self._text.split("\n") if s]
        return self._sentences


def _counts(kind, cand, ref):
    """(hits, candidate total, reference total) of one pair."""
    if kind == _L:
        hits, ref_total, cand_total = lcs_counts(ref.tokens, cand.tokens)
    elif kind == _LSUM:
        hits, ref_total, cand_total = summary_lcs_counts(ref.sentences, cand.sentences)
    else:
        hits, ref_total, cand_total = ngram_counts(ref.tokens, cand.tokens, kind)
    return hits, cand_total, ref_total


def _first_max(scores, field):
    # max() keeps the first of equal maxima, as score_multi's numpy.argmax.
    return max(scores, key=lambda s: getattr(s, field))


def _mean(scores):
    """Per field, the float nearest the exact mean (``aggregate.exact_mean``):
    the same floats in any item order and on every Python version."""
    return Score(*(exact_mean(column) for column in zip(*scores)))


def corpus_means(per_item, types):
    """The corpus scores: per rouge type, the means over items of P, R and F."""
    return {t: _mean([item[t] for item in per_item]) for t in types}


def _combine(policy, counts):
    """One Score from the per-reference counts of an item and rouge type."""
    if policy == "pooled":
        return _score(*(sum(column) for column in zip(*counts)))
    return _combine_scores(policy, [_score(*c) for c in counts])


def _combine_scores(policy, scores):
    """One Score from the per-reference Scores (every policy but pooled)."""
    if len(scores) == 1:
        return scores[0]
    if policy == "max":
        return _first_max(scores, "fmeasure")
    if policy == "best-recall":
        return _first_max(scores, "recall")
    if policy == "mean":
        return _mean(scores)
    # jackknife: the max of each leave-one-out set, averaged.
    return _mean([_first_max(scores[:i] + scores[i + 1:], "fmeasure")
                  for i in range(len(scores))])


def _bootstrap(per_item, scores, n_resamples, confidence, seed):
    """Percentile bootstrap intervals around the corpus means ``scores``."""
    types = list(scores)
    # One row per item: P, R, F of every type, so each resample draws the same
    # items for all types.
    matrix = np.array([[x for t in types for x in item[t]] for item in per_item],
                      dtype=float)
    n = len(matrix)
    rng = np.random.default_rng(seed)
    means = np.empty((n_resamples, matrix.shape[1]))
    for b in range(n_resamples):
        means[b] = matrix[rng.integers(0, n, size=n)].mean(axis=0)
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
    intervals = {}
    for k, t in enumerate(types):
        cols = slice(3 * k, 3 * k + 3)
        intervals[t] = AggregateScore(low=Score(*map(float, low[cols])), mid=scores[t],
                                      high=Score(*map(float, high[cols])))
    return intervals


def _check_options(multi_ref, bootstrap, confidence, seed):
    if not isinstance(multi_ref, str):
        raise TypeError(f"multi_ref must be str, not {type(multi_ref).__name__}")
    if multi_ref not in MULTI_REF_POLICIES:
        raise ValueError(f"unknown multi_ref policy {multi_ref!r}; valid: "
                         + ", ".join(MULTI_REF_POLICIES))
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, numbers.Integral):
        raise TypeError(f"bootstrap must be an int, not {type(bootstrap).__name__}")
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0 (0 for no intervals), got {bootstrap}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a number, not {type(confidence).__name__}")
    if not 0 <= float(confidence) <= 1:
        raise ValueError(f"confidence must be in [0, 1], got {confidence!r}")
    if seed is not None and (isinstance(seed, bool) or
                             not isinstance(seed, numbers.Integral)):
        raise TypeError(f"seed must be None or an int, not {type(seed).__name__}")
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")


def _signature(tokenizer, multi_ref, bootstrap, confidence, seed):
    name = getattr(tokenizer, "name", None) or f"custom:{type(tokenizer).__name__}"
    tok, _, stemmer = str(name).partition("+")
    boot = f"{bootstrap},ci:{confidence},seed:{'none' if seed is None else seed}" \
        if bootstrap else "none"
    return (f"rougekit:{__version__}|tok:{tok}|stem:{stemmer or 'no'}|"
            f"multi:{multi_ref}|agg:mean|boot:{boot}")


def score_corpus(candidates: Sequence[str], references: Sequence[Any],
                 rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
                 *, tokenizer: Any = "rouge-score", use_stemmer: bool = False,
                 multi_ref: str = "max", bootstrap: int = 0, confidence: float = 0.95,
                 seed: Optional[int] = None, threads: Optional[int] = None) -> "CorpusResult":
    """ROUGE of a corpus: each candidate against its references.

    Args:
      candidates: the candidate texts (str).
      references: one entry per candidate: a str, or a non-empty list of str.
      rouge_types: names among "rouge1" to "rouge9", "rougeL", "rougeLsum".
      tokenizer: a name or an object, as ``word_tokenizers.get_tokenizer``.
      use_stemmer: Porter stemming (only with the "rouge-score" tokenizer).
      multi_ref: "max", "mean", "pooled", "best-recall" or "jackknife"
        (module docstring).
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
        ``RougeScorer.score_batch``, which gives the same Scores.

    Returns a ``CorpusResult``.
    """
    types = _parse_types(rouge_types)
    tok = get_tokenizer(tokenizer, use_stemmer=use_stemmer)
    _check_options(multi_ref, bootstrap, confidence, seed)
    if threads is not None:
        from rougekit.rouge_scorer import _thread_count
        _thread_count(threads)          # the same checks on every path
    candidates, references = _texts(candidates, references)

    if multi_ref != "pooled" and isinstance(tok, RougeScoreTokenizer):
        per_item = _per_item_compiled(types, tok, multi_ref, candidates, references, threads)
    else:
        per_item = []
        for cand_text, ref_texts in zip(candidates, references):
            cand = _Tokenized(cand_text, tok.tokenize)
            refs = [_Tokenized(r, tok.tokenize) for r in ref_texts]
            per_item.append({name: _combine(multi_ref, [_counts(kind, cand, r) for r in refs])
                             for name, kind in types})

    scores = corpus_means(per_item, [name for name, _ in types])
    intervals = _bootstrap(per_item, scores, bootstrap, confidence, seed) \
        if bootstrap else None
    return CorpusResult(scores=scores, intervals=intervals, per_item=per_item,
                        n_items=len(per_item),
                        signature=_signature(tok, multi_ref, bootstrap, confidence, seed))
