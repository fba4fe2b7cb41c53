"""What the engines beyond one process share: ``rougekit.dask``, ``rougekit.spark``.

A table split into partitions is scored in three steps. Where the call is
made, its options are resolved and checked once, as every door's
(``rougekit._doors.resolve``), with the table's columns (``Job``). Each
partition (or record batch), on a worker, becomes score columns
(``Job.frame``) or a ``Summary``: its number of items, a ``MeanAggregator``
of its per-item scores and, when the aggregation, the bootstrap or the
per-item scores need them, the per-item columns themselves
(``summarize``). The summaries, in row order, become the ``CorpusResult``
that ``rougekit.score_corpus`` gives for the same rows (``corpus_result``):
the aggregators' exact sums merge to the same means, and every other
aggregation and the bootstrap draw from the same per-item columns in the
same order.

An engine's module keeps only what is its own: how its table is split, how a
function reaches its workers, how summaries come back.
"""
import dataclasses
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from rougekit._checks import thread_count
from rougekit._doors import resolve
from rougekit._options import ScoringOptions
from rougekit._pipeline import corpus_scores, item_columns, item_rows, kept_items
from rougekit._tables import check_columns, table_kind, table_texts
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult
from rougekit.frames import column_names, options_frame

__all__ = ["Job", "Summary", "summarize", "corpus_result"]


@dataclasses.dataclass(frozen=True)
class Job:
    """A call's options, checked where the call is made; picklable, sent to
    workers: the scoring options, the two columns, the threads per task, and
    for a corpus whether partitions send their per-item columns."""

    scoring: ScoringOptions
    candidate: str
    references: str
    threads: Optional[int]
    keep_items: bool = False

    @classmethod
    def for_frame(cls, door: str, columns: Sequence[Any], candidate: str, references: str,
                  threads: Optional[int], options: Optional[ScoringOptions],
                  flavor: Optional[str], fields: Dict[str, Any]) -> "Job":
        """The job of an engine's ``score_frame`` (``door``: its name)."""
        scoring = resolve(door, options, flavor, **fields)
        return cls._checked(scoring, columns, candidate, references, threads, True)

    @classmethod
    def for_corpus(cls, door: str, columns: Sequence[Any], candidate: str, references: str,
                   threads: Optional[int], per_item: bool, options: Optional[ScoringOptions],
                   flavor: Optional[str], fields: Dict[str, Any]) -> "Job":
        """The job of an engine's ``score_corpus``."""
        scoring = resolve(door, options, flavor, **fields)
        if not isinstance(per_item, bool):
            raise TypeError(f"per_item must be a bool, not {type(per_item).__name__}")
        job = cls._checked(scoring, columns, candidate, references, threads, False)
        keep = per_item or bool(scoring.bootstrap) or scoring.aggregation != "mean"
        return dataclasses.replace(job, keep_items=keep)

    @classmethod
    def _checked(cls, scoring: ScoringOptions, columns: Sequence[Any], candidate: str,
                 references: str, threads: Optional[int], adds_columns: bool) -> "Job":
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


def summarize(table: Any, job: Job) -> Summary:
    """The ``Summary`` of a pandas, polars or pyarrow table's rows."""
    candidates, references = table_texts(table_kind(table), table, job.candidate,
                                         job.references)
    candidates, references = kept_items(job.scoring, candidates, references, none_left=True)
    matrix = item_columns(job.scoring, candidates, references, job.threads)
    aggregator = MeanAggregator()
    aggregator.add_columns({name: matrix[3 * k:3 * k + 3]
                            for k, name in enumerate(job.rouge_types)})
    return Summary(len(candidates), aggregator, matrix if job.keep_items else None)


def corpus_result(summaries: Sequence[Summary], job: Job, per_item: bool) -> CorpusResult:
    """The ``CorpusResult`` of the partitions' summaries, given in row order."""
    scoring = job.scoring
    n_items = sum(s.n_items for s in summaries)
    if n_items == 0:
        raise ValueError("the table has no rows to score" + (
            " (every one has an empty candidate or reference: skip_empty)"
            if scoring.skip_empty else ""))
    items = None
    if job.keep_items:
        # every aggregation, and the bootstrap, from the items in row order
        items = np.concatenate([s.items for s in summaries if s.items is not None], axis=1)
        scores, intervals, _ = corpus_scores(scoring, items)
    else:
        # the mean: the partitions' exact sums, merged
        means = sum((s.aggregator for s in summaries), MeanAggregator()).result()
        scores, intervals = {name: means[name] for name in scoring.rouge_types}, None
    return CorpusResult(
        scores=scores, intervals=intervals,
        per_item=item_rows(items, scoring.names) if per_item and items is not None else None,
        n_items=n_items, signature=scoring.signature())
