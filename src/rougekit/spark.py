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

``max_similarity(sdf, column, against=texts)`` adds each row's largest F
against ``texts`` and the position of the text that gives it, as
``RougeIndex(texts).max`` (contamination checks): the index is built once,
on the driver, and broadcast (``SparkContext.broadcast``): each executor's
Python worker loads it once, as it stores it (token ids, not the texts).

``threads`` is per task (default 1: Spark runs one task per core).
rougekit must be installed where the executors run Python. Needs
``pip install 'rougekit[spark]'`` (pyspark, pyarrow, pandas) and Java.
"""
import contextlib
from typing import Any, Callable, Iterator, Optional, Sequence, Tuple

from rougekit._distributed import RECORD_SCHEMA, Job, Similarity, Summary, corpus_result, summarize
from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit._tables import ColumnKinds
from rougekit.corpus import CorpusResult

__all__ = ["score_frame", "score_corpus", "max_similarity"]

# One row per record batch of score_corpus: where it was, and its summary.
_SUMMARY_SCHEMA = "partition long, batch long, " + RECORD_SCHEMA


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


def _columns(sdf: Any) -> ColumnKinds:
    """What the schema of a Spark DataFrame says each column holds."""
    return {field.name: _kind(field.dataType) for field in sdf.schema.fields}


_TEXT_TYPES = ("StringType", "VarcharType", "CharType")


def _kind(data_type: Any) -> Tuple[str, str]:
    name = type(data_type).__name__
    if name in _TEXT_TYPES:
        return "text", data_type.simpleString()
    if name in ("NullType", "BinaryType"):
        return ("null" if name == "NullType" else "bytes"), data_type.simpleString()
    if name == "ArrayType" and type(data_type.elementType).__name__ in (*_TEXT_TYPES,
                                                                         "NullType"):
        return "texts", data_type.simpleString()
    return "other", data_type.simpleString()


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
    job = Job.for_frame("rougekit.spark.score_frame", _columns(sdf), candidate, references,
                        threads, options, flavor, fields)
    schema = StructType(list(sdf.schema.fields) + [StructField(name, DoubleType(), True)
                                                   for name in job.column_names()])

    return sdf.mapInArrow(lambda batches: _each_batch(batches, job.frame), schema)


def _each_batch(batches: Iterator[Any], score: Callable[[Any], Any]) -> Iterator[Any]:
    """``score`` of each record batch, a bad row's error naming where it is."""
    for number, batch in enumerate(batches):
        with _where(number):
            scored = score(batch)
        yield scored


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
    job = Job.for_corpus("rougekit.spark.score_corpus", _columns(sdf), candidate, references,
                         threads, per_item, options, flavor, fields)

    def summarize_batches(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        partition = _partition()
        for number, batch in enumerate(batches):
            with _where(number):
                record = summarize(batch, job).to_record()
            yield pa.RecordBatch.from_pylist([{"partition": partition, "batch": number,
                                               **record}])

    rows = sdf.mapInArrow(summarize_batches, _SUMMARY_SCHEMA).collect()
    rows.sort(key=lambda row: (row["partition"], row["batch"]))
    return corpus_result([Summary.from_record(row, job) for row in rows], job, per_item)


@takes_options("rougekit.spark.max_similarity")
def max_similarity(sdf: Any, column: str, against: Sequence[Any],
                   rouge_type: Optional[str] = None, *,
                   options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                   threads: Optional[int] = 1, **fields: Any) -> Any:
    """``sdf`` with ``max_fmeasure`` (double) and ``max_index`` (long)
    added: for each row, ``RougeIndex(against).max`` of its ``column`` (the
    largest F against the texts of ``against``, and the position of the
    first text that gives it), lazily. ``rouge_type`` and the options are
    ``RougeIndex``'s (``"rougeL"`` by default; how text becomes tokens:
    ``use_stemmer``, ``tokenizer``, ``lang``, ...). The index is built now,
    once, and broadcast."""
    from pyspark.sql.types import DoubleType, LongType, StructField, StructType
    _check_frame(sdf)
    similarity, index = Similarity.for_frame("rougekit.spark.max_similarity", _columns(sdf),
                                             column, against, rouge_type, threads, options,
                                             flavor, fields)
    shipped = sdf.sparkSession.sparkContext.broadcast(index)
    schema = StructType(list(sdf.schema.fields) + [StructField("max_fmeasure", DoubleType()),
                                                   StructField("max_index", LongType())])

    def max_batches(batches: Iterator[Any]) -> Iterator[Any]:
        loaded = shipped.value                 # once per Python worker
        return _each_batch(batches, lambda batch: similarity.frame(batch, loaded))

    return sdf.mapInArrow(max_batches, schema)
