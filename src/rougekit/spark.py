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
errors), ``RougeScorer.score_columns`` underneath; no row becomes a Python
object on the way. ``references`` is a string column or an array of strings
per row. For the corpus, each batch sends back one row: its number of items,
its ``MeanAggregator`` (as JSON: exact sums, merged on the driver into the
same means as one process's) and, with ``bootstrap`` or ``per_item=True``,
its per-item scores (8 bytes per rouge type and measure and row), which the
driver resamples as ``score_corpus`` does. ``CorpusResult.per_item`` is None
unless ``per_item=True``.

``threads`` is per task (default 1: Spark runs one task per core).
rougekit must be installed where the executors run Python. Needs
``pip install 'rougekit[spark]'`` (pyspark, pyarrow, pandas) and Java.
"""
import contextlib
import json
from typing import Any, Iterator, Optional, Sequence

import numpy as np

from rougekit._distributed import (
    Options,
    Summary,
    corpus_result,
    summarize,
)
from rougekit._pipeline import ScoringOptions
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult

__all__ = ["score_frame", "score_corpus"]

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL")

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


def score_frame(sdf: Any, rouge_types: Sequence[str] = DEFAULT_TYPES,
                candidate: str = "candidate", references: str = "references", *,
                tokenizer: Any = "rouge-score", use_stemmer: bool = False,
                lang: Optional[str] = None, stem_stopwords: bool = False,
                sentence_split: str = "newline", multi_ref: str = "max",
                threads: Optional[int] = 1,
                options: Optional[ScoringOptions] = None) -> Any:
    """``sdf`` with the score columns of ``rougekit.score_frame`` added: a
    Spark DataFrame (input columns, then ``"{rouge_type}_{measure}"`` as
    doubles). Options (``lang=``,
    ``sentence_split=`` and the others) are ``rougekit.score_frame``'s,
    checked now; the texts when it is computed."""
    from pyspark.sql.types import DoubleType, StructField, StructType
    _check_frame(sdf)
    run = Options.checked(
        sdf.columns, candidate, references, threads, True, options,
        rouge_types=rouge_types, tokenizer=tokenizer, use_stemmer=use_stemmer, lang=lang,
        stem_stopwords=stem_stopwords, sentence_split=sentence_split,
        multi_ref=multi_ref)
    schema = StructType(list(sdf.schema.fields)
                        + [StructField(name, DoubleType(), True)
                           for name in run.column_names()])

    def score_batches(batches: Iterator[Any]) -> Iterator[Any]:
        for number, batch in enumerate(batches):
            with _where(number):
                scored = run.frame(batch)
            yield scored

    return sdf.mapInArrow(score_batches, schema)


def score_corpus(sdf: Any, rouge_types: Sequence[str] = DEFAULT_TYPES,
                 candidate: str = "candidate", references: str = "references", *,
                 tokenizer: Any = "rouge-score", use_stemmer: bool = False,
                 lang: Optional[str] = None, stem_stopwords: bool = False,
                 sentence_split: str = "newline",
                 multi_ref: str = "max", bootstrap: int = 0, confidence: float = 0.95,
                 seed: Optional[int] = None, threads: Optional[int] = 1,
                 per_item: bool = False,
                 options: Optional[ScoringOptions] = None) -> CorpusResult:
    """``rougekit.score_corpus`` of the rows of ``sdf``, computed on the
    executors: the same scores, intervals, number of items and signature;
    ``per_item`` only when ``per_item=True`` (else None)."""
    _check_frame(sdf)
    run = Options.checked(
        sdf.columns, candidate, references, threads, False, options,
        rouge_types=rouge_types, tokenizer=tokenizer, use_stemmer=use_stemmer, lang=lang,
        stem_stopwords=stem_stopwords, sentence_split=sentence_split,
        multi_ref=multi_ref,
        bootstrap=bootstrap, confidence=confidence, seed=seed)
    if not isinstance(per_item, bool):
        raise TypeError(f"per_item must be a bool, not {type(per_item).__name__}")
    keep = bool(bootstrap) or per_item

    def summarize_batches(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        partition = _partition()
        for number, batch in enumerate(batches):
            with _where(number):
                summary = summarize(batch, run, keep)
            items = summary.items.tobytes() if summary.items is not None else None
            yield pa.RecordBatch.from_pydict({
                "partition": [partition], "batch": [number], "n_items": [summary.n_items],
                "aggregator": [json.dumps(summary.aggregator.to_dict())],
                "items": [items]})

    rows = sdf.mapInArrow(summarize_batches, _SUMMARY_SCHEMA).collect()
    rows.sort(key=lambda row: (row["partition"], row["batch"]))
    width = 3 * len(run.rouge_types)
    summaries = [Summary(row["n_items"],
                         MeanAggregator.from_dict(json.loads(row["aggregator"])),
                         None if row["items"] is None else
                         np.frombuffer(row["items"], dtype=np.float64).reshape(width, -1))
                 for row in rows]
    return corpus_result(summaries, run, per_item)
