"""ROUGE of a Spark DataFrame, through Arrow: ``rougekit.spark``.

``score_frame(sdf)`` adds the score columns (lazily, as any Spark
transformation); ``score_corpus(sdf)`` computes the corpus scores and returns
the ``CorpusResult`` that ``rougekit.score_corpus`` gives for the same rows
(in the order ``sdf.collect()`` gives them), equal with ``==`` (``per_item``
aside: see below)::

    import rougekit.spark

    sdf = spark.read.parquet("pairs/")       # columns candidate, references
    scored = rougekit.spark.score_frame(sdf, ["rouge1", "rougeL"])
    result = rougekit.spark.score_corpus(sdf, ["rouge1", "rougeL"], bootstrap=1000, seed=0)

Both run ``mapInArrow``: the executors' Python workers get each partition as
Arrow record batches (``spark.sql.execution.arrow.maxRecordsPerBatch`` rows
each) and score them with ``rougekit.score_frame`` (its columns, options and
errors, and the same options as every door: ``options=``, ``flavor=`` and
its switches, the option fields), ``RougeScorer.score_columns`` underneath;
no row becomes a Python object on the way. ``references`` is a string column or an array of strings
per row. For the corpus, each batch sends back one row: its number of items,
its ``MeanAggregator`` (as JSON: exact sums, merged on the driver into the
same means as one process's) and, with ``bootstrap`` or ``per_item=True``,
its per-item scores (8 bytes per rouge type and measure and row), which the
driver aggregates and resamples as ``score_corpus`` does (and with another
aggregation than the mean, a flavor's, too). ``CorpusResult.per_item`` is None
unless ``per_item=True``.

``threads`` is per task (default 1: Spark runs one task per core).
rougekit must be installed where the executors run Python. Needs
``pip install 'rougekit[spark]'`` (pyspark, pyarrow, pandas) and Java.
"""
import contextlib
import json
from typing import Any, Iterator, Optional, Sequence

import numpy as np

from rougekit._distributed import Job, Summary, corpus_result, summarize
from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult

__all__ = ["score_frame", "score_corpus"]

# One row per record batch of score_corpus: where it was, and its summary.
_SUMMARY_SCHEMA = ("partition long, batch long, n_items long, aggregator string, "
                   "items binary")


@contextlib.contextmanager
def _where(batch: int) -> Iterator[None]:
    """A bad row's error, raised on an executor, also names its partition
    and record batch (the row number is the row's within the batch)."""
    try:
        yield
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"partition {_partition()}, record batch {batch}: {exc}") from None


def _partition() -> int:
    """The partition of the running Spark task."""
    from pyspark import TaskContext
    context = TaskContext.get()
    return context.partitionId() if context is not None else -1


def _check_frame(sdf: Any) -> None:
    module = type(sdf).__module__
    if not (module.startswith("pyspark.") and type(sdf).__name__ == "DataFrame"):
        raise TypeError(f"sdf must be a Spark DataFrame, not {module}.{type(sdf).__name__}")


@takes_options("rougekit.spark.score_frame")
def score_frame(sdf: Any, rouge_types: Optional[Sequence[str]] = None,
                candidate: str = "candidate", references: str = "references", *,
                options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                threads: Optional[int] = 1, **fields: Any) -> Any:
    """``sdf`` with the score columns of ``rougekit.score_frame`` added: a
    Spark DataFrame (input columns, then ``"{rouge_type}_{measure}"`` as
    doubles). The options are ``rougekit.score_frame``'s, checked now; the
    texts when it is computed."""
    from pyspark.sql.types import DoubleType, StructField, StructType
    _check_frame(sdf)
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    job = Job.for_frame("rougekit.spark.score_frame", sdf.columns, candidate, references,
                        threads, options, flavor, fields)
    schema = StructType(list(sdf.schema.fields) + [StructField(name, DoubleType(), True)
                                                   for name in job.column_names()])

    def score_batches(batches: Iterator[Any]) -> Iterator[Any]:
        for number, batch in enumerate(batches):
            with _where(number):
                scored = job.frame(batch)
            yield scored

    return sdf.mapInArrow(score_batches, schema)


@takes_options("rougekit.spark.score_corpus")
def score_corpus(sdf: Any, rouge_types: Optional[Sequence[str]] = None,
                 candidate: str = "candidate", references: str = "references", *,
                 options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                 threads: Optional[int] = 1, per_item: bool = False,
                 **fields: Any) -> CorpusResult:
    """``rougekit.score_corpus`` of the rows of ``sdf``, computed on the
    executors: the same scores, intervals, number of items and signature;
    ``per_item`` only when ``per_item=True`` (else None)."""
    _check_frame(sdf)
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    job = Job.for_corpus("rougekit.spark.score_corpus", sdf.columns, candidate, references,
                         threads, per_item, options, flavor, fields)

    def summarize_batches(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        partition = _partition()
        for number, batch in enumerate(batches):
            with _where(number):
                summary = summarize(batch, job)
            items = summary.items.tobytes() if summary.items is not None else None
            yield pa.RecordBatch.from_pydict({
                "partition": [partition], "batch": [number], "n_items": [summary.n_items],
                "aggregator": [json.dumps(summary.aggregator.to_dict())],
                "items": [items]})

    rows = sdf.mapInArrow(summarize_batches, _SUMMARY_SCHEMA).collect()
    rows.sort(key=lambda row: (row["partition"], row["batch"]))
    width = 3 * len(job.rouge_types)
    summaries = [Summary(row["n_items"],
                         MeanAggregator.from_dict(json.loads(row["aggregator"])),
                         None if row["items"] is None else
                         np.frombuffer(row["items"], dtype=np.float64).reshape(width, -1))
                 for row in rows]
    return corpus_result(summaries, job, per_item)
