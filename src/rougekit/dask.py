"""ROUGE of a Dask DataFrame, partition by partition: ``rougekit.dask``.

``score_frame(ddf)`` adds the score columns to every partition (lazily, as
any Dask operation); ``score_corpus(ddf)`` computes the corpus scores and
returns the ``CorpusResult`` that ``rougekit.score_corpus`` gives for the
same rows, equal with ``==`` (``per_item`` aside: see below), with the same
options (``options=``, ``flavor=`` and its switches, the option fields);
``max_similarity(ddf, column, against=texts)`` adds each row's largest F
against ``texts`` and the position of the text that gives it, as
``RougeIndex(texts).max`` (contamination checks)::

    import dask.dataframe as dd
    import rougekit.dask

    ddf = dd.read_parquet("pairs/")          # columns candidate, references
    scored = rougekit.dask.score_frame(ddf, ["rouge1", "rougeL"])
    result = rougekit.dask.score_corpus(ddf, ["rouge1", "rougeL"], bootstrap=1000, seed=0)

Each partition is a pandas DataFrame scored by ``rougekit.score_frame`` (the
columns, the options and the errors are that function's), with
``RougeScorer.score_columns`` underneath. The corpus means are merged from
one ``MeanAggregator`` per partition, whose exact sums make them the same
floats as one process's. With ``bootstrap`` or another aggregation than the
mean (a flavor's), each partition also sends its per-item scores (8 bytes
per rouge type and measure and row) to the client, which aggregates and
resamples them there as ``score_corpus`` does; ``per_item=True``
also fills ``CorpusResult.per_item`` (otherwise None: a list of dicts per
row is rarely wanted at cluster scale).

``max_similarity`` builds the ``RougeIndex`` of ``against`` once, on the
client, and sends it to each worker once (``client.scatter(...,
broadcast=True)`` with a ``distributed`` client; Dask's local schedulers
share it), as it stores it: token ids, not the texts. (Dask's active memory
manager may drop a worker's copy while no task queued there needs it; a
task stolen onto that worker later fetches it again.)

``threads`` is per partition: a partition is one Dask task, and the
cluster's parallelism comes from running tasks side by side, so the default
is 1; pass more to let each task use more cores.

A column of lists of references built with ``dd.from_pandas`` under Dask's
default settings arrives as strings (``"['a', 'b']"``): rougekit stops
with a ValueError that says so rather than score each as one reference.

Needs ``pip install 'rougekit[dask]'`` (dask[dataframe], and
dask[distributed] for a cluster); computes on whatever scheduler is active
(a ``distributed.Client``, or Dask's default).
"""
import ast
import uuid
from typing import Any, Optional, Sequence, Tuple

import dask
import dask.dataframe as dd
import pandas as pd

from rougekit._distributed import Job, Similarity, corpus_result, summarize
from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit._tables import ColumnKinds, arrow_kind
from rougekit.corpus import CorpusResult

__all__ = ["score_frame", "score_corpus", "max_similarity"]


def _check_frame(ddf: Any) -> None:
    if not isinstance(ddf, dd.DataFrame):
        raise TypeError(f"ddf must be a dask DataFrame, not {type(ddf).__module__}."
                        f"{type(ddf).__name__}")


def _columns(ddf: Any) -> ColumnKinds:
    """What the dtypes of a dask DataFrame say each column holds (pandas'
    object says nothing: its rows are checked as they are scored)."""
    return {name: _kind(dtype) for name, dtype in ddf.dtypes.items()}


def _kind(dtype: Any) -> Tuple[str, str]:
    arrow = getattr(dtype, "pyarrow_dtype", None)
    if arrow is not None:
        return arrow_kind(arrow)
    if isinstance(dtype, pd.StringDtype):
        return "text", str(dtype)
    types = pd.api.types
    if types.is_numeric_dtype(dtype) or types.is_datetime64_any_dtype(dtype) or \
            types.is_timedelta64_dtype(dtype):
        return "other", str(dtype)
    return "unknown", str(dtype)


@takes_options("rougekit.dask.score_frame")
def score_frame(ddf: Any, rouge_types: Optional[Sequence[str]] = None,
                candidate: str = "candidate", references: str = "references", *,
                options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                threads: Optional[int] = 1, **fields: Any) -> Any:
    """``ddf`` with the score columns of ``rougekit.score_frame`` added to
    each partition: a lazy dask DataFrame (input columns, then
    ``"{rouge_type}_{measure}"`` as float64). The options (``options=``,
    ``flavor=``, the option fields) are ``rougekit.score_frame``'s, checked
    now; the texts when the partitions are computed."""
    _check_frame(ddf)
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    job = Job.for_frame("rougekit.dask.score_frame", _columns(ddf), candidate,
                        references, threads, options, flavor, fields)
    return ddf.map_partitions(_score_partition, job, meta=job.frame(ddf._meta))


def _check_lists_kept(pdf: Any, column: str) -> None:
    """ValueError when a string column of references holds a written-out
    Python list ("['a', 'b']"): what ``dd.from_pandas`` makes of a column of
    lists with Dask's default ``dataframe.convert-string``, which would be
    scored as one reference. Only the first value of a partition is looked
    at: the conversion turns a whole column."""
    series = pdf[column]
    if not isinstance(series.dtype, pd.StringDtype):
        return
    for label, value in series.items():
        if not isinstance(value, str):
            continue
        if value[:1] == "[" and value[-1:] == "]":
            try:
                parsed = ast.literal_eval(value)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return
            if isinstance(parsed, list) and all(isinstance(x, str) for x in parsed):
                raise ValueError(
                    f"column {column!r}, row {label!r}: the string {value[:60]!r} is a "
                    "list of references written out as text: Dask turned a column of "
                    "lists into strings (its default 'dataframe.convert-string'). Build "
                    "the frame under dask.config.set({'dataframe.convert-string': "
                    "False}), or read it with dd.read_parquet, which keeps the lists")
        return


def _score_partition(pdf: Any, job: Job) -> Any:
    _check_lists_kept(pdf, job.references)
    return job.frame(pdf)


def _summarize_partition(pdf: Any, job: Job) -> Any:
    _check_lists_kept(pdf, job.references)
    return summarize(pdf, job)


@takes_options("rougekit.dask.score_corpus")
def score_corpus(ddf: Any, rouge_types: Optional[Sequence[str]] = None,
                 candidate: str = "candidate", references: str = "references", *,
                 options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                 threads: Optional[int] = 1, per_item: bool = False,
                 **fields: Any) -> CorpusResult:
    """``rougekit.score_corpus`` of the rows of ``ddf``, computed partition
    by partition: the same scores, intervals, number of items and
    signature; ``per_item`` only when ``per_item=True`` (else None)."""
    _check_frame(ddf)
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    job = Job.for_corpus("rougekit.dask.score_corpus", _columns(ddf), candidate,
                         references, threads, per_item, options, flavor, fields)
    tasks = [dask.delayed(_summarize_partition)(part, job) for part in ddf.to_delayed()]
    return corpus_result(dask.compute(*tasks), job, per_item)


def _shipped(index: Any) -> Any:
    """The index as the tasks' argument: scattered to every worker of the
    ``distributed`` client in use, once (a future); for Dask's local
    schedulers, which share it, a delayed of its own name (which spares
    Dask from pickling it to name the tasks)."""
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):      # no distributed, or no client
        return dask.delayed(index, name=f"rougekit-index-{uuid.uuid4().hex}",
                            traverse=False)
    return client.scatter(index, broadcast=True, hash=False)


@takes_options("rougekit.dask.max_similarity")
def max_similarity(ddf: Any, column: str, against: Sequence[Any],
                   rouge_type: Optional[str] = None, *,
                   options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                   threads: Optional[int] = 1, **fields: Any) -> Any:
    """``ddf`` with ``max_fmeasure`` (float64) and ``max_index`` (int64)
    added to each partition: for each row, ``RougeIndex(against).max`` of
    its ``column`` (the largest F against the texts of ``against``, and the
    position of the first text that gives it), lazily. ``rouge_type`` and
    the options are ``RougeIndex``'s (``"rougeL"`` by default; how text
    becomes tokens: ``use_stemmer``, ``tokenizer``, ``lang``, ...). The
    index is built now, once, and sent to each worker once."""
    _check_frame(ddf)
    similarity, index = Similarity.for_frame("rougekit.dask.max_similarity", _columns(ddf),
                                             column, against, rouge_type, threads, options,
                                             flavor, fields)
    return ddf.map_partitions(similarity.frame, _shipped(index),
                              meta=similarity.frame(ddf._meta, index))
