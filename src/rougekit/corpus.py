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
import html
from typing import Any, Dict, List, Optional, Sequence

from rougekit._checks import thread_count
from rougekit._multi_ref import MULTI_REF_POLICIES
from rougekit._pipeline import (
    CORPUS_AGGREGATIONS,
    ScoringOptions,
    check_texts,
    corpus_scores,
    item_columns,
)
from rougekit.scoring import AggregateScore, Score

AGGREGATIONS = CORPUS_AGGREGATIONS

__all__ = ["score_corpus", "CorpusResult", "MULTI_REF_POLICIES"]

#: score_corpus's keyword arguments that ``ScoringOptions`` holds, with their defaults.
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(ScoringOptions)}


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

    def to_html(self, candidates: Optional[Sequence[str]] = None,
                references: Optional[Sequence[Any]] = None, **report: Any) -> str:
        """A self-contained HTML report of these scores (``rougekit.report``):
        the scores, intervals and signature, the per-item F histograms, and a
        sortable, searchable table of the items whose rows open to the texts
        with their matches highlighted (when the texts are given).
        ``report`` takes ``corpus_report``'s keyword arguments, e.g.
        ``compare=`` another system's result and ``compare_candidates=``.
        Needs ``pip install rougekit[report]`` (Jinja2 and plotly)."""
        from rougekit.report import corpus_report
        return corpus_report(self, candidates, references, **report)

    def _repr_html_(self) -> str:
        """The scores as an HTML table, for Jupyter: P, R and F per rouge type
        (with their intervals when there are some), the number of items and
        the signature."""
        measures = ("precision", "recall", "fmeasure")
        head = "".join(f"<th>{m}</th>" for m in measures)
        if self.intervals is not None:
            head += "".join(f"<th>{m} interval</th>" for m in measures)
        rows = []
        for rouge_type, score in self.scores.items():
            cells = "".join(f"<td>{getattr(score, m):.4f}</td>" for m in measures)
            if self.intervals is not None:
                iv = self.intervals[rouge_type]
                cells += "".join(f"<td>[{getattr(iv.low, m):.4f}, {getattr(iv.high, m):.4f}]"
                                 "</td>" for m in measures)
            rows.append(f"<tr><th>{html.escape(str(rouge_type))}</th>{cells}</tr>")
        return (f"<table class=\"rougekit-corpus\"><caption>{self.n_items} items &#183; "
                f"<code>{html.escape(self.signature)}</code></caption><thead><tr><th>type</th>"
                f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def score_corpus(candidates: Sequence[str], references: Sequence[Any],
                 rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
                 *, tokenizer: Any = "rouge-score", use_stemmer: bool = False,
                 lang: Optional[str] = None, stem_stopwords: bool = False,
                 sentence_split: str = "newline", multi_ref: str = "max",
                 aggregation: str = "mean", bootstrap: int = 0, confidence: float = 0.95,
                 seed: Optional[int] = None, threads: Optional[int] = None,
                 options: Optional[ScoringOptions] = None,
                 flavor: Optional[str] = None) -> "CorpusResult":
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
      options: a ``rougekit.ScoringOptions`` holding the options above
        (all but ``threads``), instead of the keyword arguments; giving both
        with different values is a ValueError naming them.
      flavor: another package's ROUGE (``rougekit.flavors``): "rouge-score"
        (the default), "evaluate", "rouge155[:FLAGS]", "xlsum:LANGUAGE",
        "pltrdy", "rouge-chinese". It sets the options of its stages;
        giving one of them with another value is a ValueError.

    Returns a ``CorpusResult``.
    """
    options = ScoringOptions.of(
        options, _DEFAULTS, rouge_types=rouge_types, tokenizer=tokenizer,
        use_stemmer=use_stemmer, lang=lang, stem_stopwords=stem_stopwords,
        sentence_split=sentence_split, multi_ref=multi_ref, aggregation=aggregation,
        bootstrap=bootstrap, confidence=confidence, seed=seed)
    if flavor is not None:
        from rougekit.flavors import flavor_options
        options = flavor_options(flavor, options)
    if threads is not None:
        thread_count(threads)          # the same checks on every path
    candidates, references = check_texts(candidates, references)
    columns = item_columns(options, candidates, references, threads)
    scores, intervals, per_item = corpus_scores(options, columns)
    return CorpusResult(scores=scores, intervals=intervals, per_item=per_item,
                        n_items=len(per_item), signature=options.signature())
