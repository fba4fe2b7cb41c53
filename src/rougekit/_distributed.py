"""What ``rougekit.dask`` and ``rougekit.spark`` share.

A corpus split into partitions is scored in three steps: the options are
checked once, where the call is made (``Options``); each partition, on a
worker, becomes a ``Summary``: its number of rows, a ``MeanAggregator`` of
its per-item scores and, when the bootstrap or the per-item scores need
them, the per-item columns themselves (``summarize``); and the summaries,
in row order, become the ``CorpusResult`` that ``rougekit.score_corpus``
gives for the same rows (``corpus_result``): the aggregators' exact sums
merge to the same means, and the bootstrap draws from the same per-item
columns in the same order.
"""
import dataclasses
from typing import Any, List, Optional, Sequence

import numpy as np

from rougekit._bootstrap import corpus_intervals
from rougekit._checks import thread_count
from rougekit._pipeline import ScoringOptions, item_columns, item_rows
from rougekit._tables import check_columns, table_kind, table_texts
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult
from rougekit.frames import column_names, options_frame

__all__ = ["Options", "Summary", "summarize", "corpus_result"]

#: The keyword arguments ``ScoringOptions`` holds, with their defaults.
DEFAULTS = {f.name: f.default for f in dataclasses.fields(ScoringOptions)}


@dataclasses.dataclass(frozen=True)
class Options:
    """A call's options, checked where the call is made; picklable, sent to
    workers: the scoring options, the two columns and the threads."""

    scoring: ScoringOptions
    candidate: str
    references: str
    threads: Optional[int]

    @classmethod
    def checked(cls, columns: Sequence[Any], candidate: str, references: str,
                threads: Optional[int], adds_columns: bool,
                options: Optional[ScoringOptions], **keywords: Any) -> "Options":
        """The options, after the checks ``score_corpus`` and ``score_frame``
        make (``keywords``: theirs, or ``options``); ``columns`` are the
        table's, for the column checks."""
        scoring = ScoringOptions.of(options, DEFAULTS, **keywords)
        if not adds_columns and scoring.aggregation != "mean":
            raise ValueError(f"aggregation={scoring.aggregation!r}: the Dask and Spark "
                             "score_corpus average the items (aggregation='mean'); "
                             "rougekit.score_corpus computes the other aggregations")
        if threads is not None:
            thread_count(threads)
        check_columns(columns, candidate, references,
                      column_names(scoring.rouge_types) if adds_columns else ())
        return cls(scoring, candidate, references, threads)

    @property
    def rouge_types(self) -> Sequence[str]:
        return self.scoring.rouge_types

    def column_names(self) -> List[str]:
        return column_names(self.scoring.rouge_types)

    def frame(self, table: Any) -> Any:
        """``rougekit.score_frame`` of a pandas, polars or pyarrow table."""
        return options_frame(table, self.scoring, self.candidate, self.references,
                             self.threads)


@dataclasses.dataclass
class Summary:
    """One partition's part of a corpus result."""

    n_items: int
    aggregator: MeanAggregator
    items: Optional[np.ndarray]     # (3 * types, n_items) when kept


def summarize(table: Any, options: Options, keep_items: bool) -> Summary:
    """The ``Summary`` of a pandas, polars or pyarrow table's rows."""
    candidates, references = table_texts(table_kind(table), table, options.candidate,
                                         options.references)
    matrix = item_columns(options.scoring, candidates, references, options.threads)
    aggregator = MeanAggregator()
    aggregator.add_columns({name: matrix[3 * k:3 * k + 3]
                            for k, name in enumerate(options.rouge_types)})
    return Summary(len(candidates), aggregator, matrix if keep_items else None)


def corpus_result(summaries: Sequence[Summary], options: Options,
                  per_item: bool) -> CorpusResult:
    """The ``CorpusResult`` of the partitions' summaries, given in row order."""
    scoring = options.scoring
    n_items = sum(s.n_items for s in summaries)
    if n_items == 0:
        raise ValueError("the table has no rows: there is nothing to score")
    merged = sum((s.aggregator for s in summaries), MeanAggregator())
    means = merged.result()
    scores = {name: means[name] for name in scoring.rouge_types}
    items = None
    if scoring.bootstrap or per_item:
        items = np.concatenate([s.items for s in summaries if s.items is not None], axis=1)
    intervals = corpus_intervals(items, scores, scoring.bootstrap, scoring.confidence,
                                 scoring.seed) \
        if scoring.bootstrap and items is not None else None
    return CorpusResult(
        scores=scores, intervals=intervals,
        per_item=item_rows(items, scoring.names) if per_item and items is not None else None,
        n_items=n_items, signature=scoring.signature())
