"""Corpus-level ROUGE with several references per item.

``score_corpus(candidates, references)`` scores each candidate against its
references, reduces them to one score per item and rouge type with a
multi-reference policy, and averages the items::

    >>> result = score_corpus(
    ...     ["Patient discharged with two-week follow-up scheduled."],
    ...     [["The patient was discharged and will return in two weeks for follow-up.",
    ...       "Discharge completed; follow-up visit set for two weeks."]])
    >>> {t: round(f, 4) for t, f in result.to_dict().items()}
    {'rouge1': 0.4762, 'rouge2': 0.1333, 'rougeL': 0.4762, 'rougeLsum': 0.4762}
    >>> result.signature  # doctest: +ELLIPSIS
    'rougekit:...|types:rouge1,rouge2,rougeL,rougeLsum|tok:rouge-score|lang:none|stem:no|stop:none|split:newline|multi:max|agg:mean|boot:none'

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
from rougekit._doors import resolve, takes_options
from rougekit._multi_ref import MULTI_REF_POLICIES
from rougekit._options import CORPUS_AGGREGATIONS, ScoringOptions
from rougekit._pipeline import check_texts, corpus_scores, item_columns, kept_items
from rougekit.scoring import AggregateScore, Score

AGGREGATIONS = CORPUS_AGGREGATIONS

__all__ = ["score_corpus", "CorpusResult", "MULTI_REF_POLICIES"]


@dataclasses.dataclass(frozen=True)
class CorpusResult:
    """What ``score_corpus`` returns.

    Attributes:
      scores: rouge type -> Score, the corpus means.
      intervals: rouge type -> AggregateScore(low, mid, high) of Scores, the
        bootstrap confidence intervals (mid is the corpus mean); or None.
      per_item: one dict rouge type -> Score per item; None from the Dask,
        Spark and Ray ``score_corpus`` unless asked for (``per_item=True``).
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
        Needs ``pip install rougekit[report]`` (Jinja2)."""
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


@takes_options("score_corpus")
def score_corpus(candidates: Sequence[str], references: Sequence[Any],
                 rouge_types: Optional[Sequence[str]] = None, *,
                 options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                 threads: Optional[int] = None, **fields: Any) -> "CorpusResult":
    """ROUGE of a corpus: each candidate against its references.

    Args:
      candidates: the candidate texts (str).
      references: one entry per candidate: a str, or a non-empty list of str.
      rouge_types: names among "rouge1" to "rouge9", "rougeL", "rougeLsum"
        (default: rouge1, rouge2, rougeL, rougeLsum).
      options: a ``rougekit.ScoringOptions`` holding the options, instead of
        the keyword arguments; giving both with different values is a
        ValueError naming them.
      flavor: another package's ROUGE (``rougekit.flavors``): "rouge-score"
        (the default), "evaluate", "rouge155[:FLAGS]", "xlsum:LANGUAGE",
        "pltrdy", "rouge-chinese", with that package's own switches as
        keywords (``flavor="rouge-score", use_stemmer=True``;
        ``flavor="evaluate", use_aggregator=False``; ``flavor="pltrdy",
        metrics=["rouge-1"], ignore_empty=True``). A keyword the package does
        not have is a ValueError naming the flavor.
      threads: threads for the compiled path (default: all cores); it
        changes no number.
      **fields: the option fields (``ScoringOptions``; the guide "One set of
        options" describes each): ``tokenizer``, ``use_stemmer``, ``lang``,
        ``stem_stopwords``, ``sentence_split``, ``remove_stopwords``,
        ``counting``, ``rouge_l``, ``f_measure``, ``alpha``, ``multi_ref``
        (module docstring), ``skip_empty``, ``aggregation`` ("mean"; or
        "bootstrap-median": rouge-score's BootstrapAggregator medians),
        ``bootstrap`` (N > 0: percentile bootstrap confidence intervals from N
        resamples, ``numpy.random.default_rng(seed).integers(0, n, size=n)``
        each, the same items for every rouge type; low and high the (1 -
        confidence) / 2 and (1 + confidence) / 2 quantiles of the resampled
        means, mid the corpus mean itself), ``confidence`` and ``seed``
        (default ``rougekit.DEFAULT_SEED``: the same resamples every run).

    Returns a ``CorpusResult``.
    """
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    options = resolve("score_corpus", options, flavor, **fields)
    if threads is not None:
        thread_count(threads)          # the same checks on every path
    candidates, references = kept_items(options, *check_texts(candidates, references,
                                                              single_as_str=True))
    columns = item_columns(options, candidates, references, threads)
    scores, intervals, per_item = corpus_scores(options, columns)
    return CorpusResult(scores=scores, intervals=intervals, per_item=per_item,
                        n_items=len(per_item), signature=options.signature())
