"""ROUGE of a Ray Dataset, batch by batch in Arrow: ``rougekit.ray``.

``score_dataset(ds)`` adds the score columns (lazily, as any Ray Data
transformation); ``score_corpus(ds)`` computes the corpus scores and returns
the ``CorpusResult`` that ``rougekit.score_corpus`` gives for the same rows
in the dataset's order, equal with ``==`` (``per_item`` aside: see below);
``max_similarity(ds, column, against=texts)`` adds each row's largest F
against ``texts`` and the position of the text that gives it, as
``RougeIndex(texts).max`` (contamination checks)::

    import ray
    import rougekit.ray

    ds = ray.data.read_parquet("pairs/")     # columns candidate, references
    scored = rougekit.ray.score_dataset(ds, ["rouge1", "rougeL"])
    result = rougekit.ray.score_corpus(ds, ["rouge1", "rougeL"], bootstrap=1000, seed=0)

Each runs ``map_batches(..., batch_format="pyarrow")``: the workers get Arrow
tables (``batch_size`` rows; Ray's default, None, is a whole block) and
score them with ``rougekit.score_frame`` (its columns, options and errors,
and the same options as every door: ``options=``, ``flavor=`` and its
switches, the option fields), ``RougeScorer.score_columns`` underneath; no
row becomes a Python object on the way. ``references`` is a string column or
a list of strings per row.

The corpus: each batch sends back one row, its number of items, its
``MeanAggregator`` (exact sums, merged on the driver into the same means as
one process's) and, with ``bootstrap``, another aggregation than the mean
(a flavor's) or ``per_item=True``, its per-item scores (8 bytes per rouge
type and measure and row), which the driver aggregates and resamples as
``score_corpus`` does. Ray Data hands out blocks in the order they finish
unless the dataset's ``DataContext.execution_options.preserve_order`` is
set; ``score_corpus`` sets it while it runs (and puts it back), so the
items are in the dataset's order: the order of ``ds.take_all()`` with
``preserve_order``, the input's for ``ray.data.from_items`` and the like.
``CorpusResult.per_item`` is None unless ``per_item=True``.

``max_similarity`` builds the ``RougeIndex`` of ``against`` once, on the
driver, puts it in Ray's object store (``ray.put``) and scores on a pool of
actors (``compute``: Ray's default for a class, an autoscaling pool), each
of which loads the index once, as it stores it (token ids, not the texts).

Each task or actor reserves ``num_cpus`` CPUs of Ray's (default: its
``threads``, 1 unless given; ``threads=None``, every core of the worker's
node, reserves Ray's default, 1), so that Ray runs no more threads than CPUs
on any cluster. The ``compute`` of ``score_dataset`` and ``score_corpus``
is Ray's (a ``ray.data.TaskPoolStrategy(size=n)`` caps the tasks running at
once; Ray's default, None, runs as many as its budget allows). Ray Data
(2.60) runs one task at a time for the first second of an execution (its
view of the cluster is empty until its autoscaling coordinator answers) and
short tasks about one at a time after that, so on a small cluster
``threads=2`` is the way to use two cores (``docs/guides/ray.md``). A bad
row's error names its row within its batch; ``score_corpus`` raises it as
itself (a ValueError or TypeError), the lazy functions inside Ray's error
for a failed task. rougekit must be installed
where the workers run. Needs ``pip install 'rougekit[ray]'`` (ray[data]).
"""
import contextlib
from typing import Any, Iterator, List, Optional, Sequence

try:
    import pyarrow as pa
    import ray
    import ray.data
except ImportError as exc:
    raise ImportError(f"rougekit.ray needs Ray Data ({exc}): pip install 'rougekit[ray]'",
                      name=exc.name) from exc

from rougekit._checks import check_real
from rougekit._distributed import Job, Similarity, Summary, corpus_result, summarize
from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit._tables import ColumnKinds, arrow_kind
from rougekit.corpus import CorpusResult

__all__ = ["score_dataset", "score_corpus", "max_similarity"]

# The row each batch of score_corpus sends back: Summary.to_record's, or the
# error of a bad row (raised on the driver as itself, not inside Ray's
# wrapping of a failed task).
_RECORD = pa.schema([("n_items", pa.int64()), ("aggregator", pa.string()),
                     ("items", pa.binary()), ("error", pa.string())])
_ERRORS = {"TypeError": TypeError, "ValueError": ValueError}


def _columns(ds: Any) -> ColumnKinds:
    """The columns of a Ray Dataset and what its schema says each holds
    (TypeError for anything else than a Dataset)."""
    if not isinstance(ds, ray.data.Dataset):
        raise TypeError(f"ds must be a ray.data.Dataset, not {type(ds).__module__}."
                        f"{type(ds).__name__}")
    schema = ds.schema()
    if schema is None:
        return {name: ("unknown", "") for name in ds.columns() or []}
    return {name: arrow_kind(t) if isinstance(t, pa.DataType) else ("unknown", str(t))
            for name, t in zip(schema.names, schema.types)}


def _cpus_per_task(threads: Optional[int], num_cpus: Optional[float]) -> Optional[float]:
    """The CPUs each task or actor reserves: ``num_cpus``, or its
    ``threads`` (Ray's default, 1, for ``threads=None``), checked now."""
    if num_cpus is None:
        return threads
    check_real("num_cpus", num_cpus, what="a number of CPUs")
    if not num_cpus > 0:
        raise ValueError(f"num_cpus must be > 0, got {num_cpus!r}")
    return num_cpus


#: The strategies the doors take: tasks for functions, actors for the index.
_TASKS = (ray.data.TaskPoolStrategy, "tasks score the batches")
_ACTORS = (ray.data.ActorPoolStrategy, "actors hold the index")


def _strategy(compute: Any, strategy: Any, why: str) -> Any:
    """``compute`` for ``map_batches``: None (Ray's default) or a
    ``strategy`` (``ray.data.TaskPoolStrategy`` for a function's batches,
    ``ActorPoolStrategy`` for a class's), checked now."""
    if compute is not None and not isinstance(compute, strategy):
        raise TypeError(f"compute must be a ray.data.{strategy.__name__} or None ({why}), "
                        f"not {type(compute).__name__}")
    return compute


@contextlib.contextmanager
def _in_batch(batch: Any) -> Iterator[None]:
    """A bad row's error, raised on a worker, says that its row number is
    the row's within its batch."""
    try:
        yield
    except (TypeError, ValueError) as exc:
        n = batch.num_rows
        raise type(exc)(f"a batch of {n} row{'' if n == 1 else 's'}: {exc}") from None


@contextlib.contextmanager
def _in_order(ds: Any) -> Iterator[None]:
    """The dataset's blocks come out in its order meanwhile (its context's
    ``preserve_order``, which the datasets made from it share)."""
    options = ds.context.execution_options
    before = options.preserve_order
    options.preserve_order = True
    try:
        yield
    finally:
        options.preserve_order = before


def _score_batch(batch: Any, job: Job) -> Any:
    with _in_batch(batch):
        return job.frame(batch)


def _summarize_batch(batch: Any, job: Job) -> Any:
    try:
        with _in_batch(batch):
            record = {**summarize(batch, job).to_record(), "error": None}
    except (TypeError, ValueError) as exc:
        record = {"n_items": 0, "aggregator": None, "items": None,
                  "error": f"{type(exc).__name__}: {exc}"}
    return pa.Table.from_pylist([record], schema=_RECORD)


def _summaries(records: List[Any], job: Job) -> List[Summary]:
    """The batches' summaries; the first bad row's error raised here."""
    for record in records:
        if record["error"] is not None:
            kind, _, message = record["error"].partition(": ")
            raise _ERRORS[kind](message)
    return [Summary.from_record(record, job) for record in records]


@takes_options("rougekit.ray.score_dataset")
def score_dataset(ds: Any, rouge_types: Optional[Sequence[str]] = None,
                  candidate: str = "candidate", references: str = "references", *,
                  options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                  threads: Optional[int] = 1, batch_size: Optional[int] = None,
                  num_cpus: Optional[float] = None, compute: Any = None,
                  **fields: Any) -> Any:
    """``ds`` with the score columns of ``rougekit.score_frame`` added: a
    lazy ``ray.data.Dataset`` (input columns, then
    ``"{rouge_type}_{measure}"`` as float64). The options are
    ``rougekit.score_frame``'s, checked now with the column names (which Ray
    may compute the first block to learn); the texts when it is computed.
    ``batch_size``: rows per batch (Ray's ``map_batches``; None, its default,
    is a whole block); ``threads`` per task, each task reserving
    ``num_cpus`` CPUs (default: ``threads``); ``compute``: Ray's, e.g.
    ``ray.data.TaskPoolStrategy(size=n)``, at most n tasks at once."""
    columns = _columns(ds)
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    job = Job.for_frame("rougekit.ray.score_dataset", columns, candidate, references, threads,
                        options, flavor, fields)
    return ds.map_batches(_score_batch, batch_format="pyarrow", batch_size=batch_size,
                          fn_kwargs={"job": job}, num_cpus=_cpus_per_task(threads, num_cpus),
                          compute=_strategy(compute, *_TASKS))


@takes_options("rougekit.ray.score_corpus")
def score_corpus(ds: Any, rouge_types: Optional[Sequence[str]] = None,
                 candidate: str = "candidate", references: str = "references", *,
                 options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                 threads: Optional[int] = 1, per_item: bool = False,
                 batch_size: Optional[int] = None, num_cpus: Optional[float] = None,
                 compute: Any = None, **fields: Any) -> CorpusResult:
    """``rougekit.score_corpus`` of the rows of ``ds`` in the dataset's
    order, computed on the workers: the same scores, intervals, number of
    items and signature; ``per_item`` only when ``per_item=True`` (else
    None). ``batch_size``, ``threads``, ``num_cpus`` and ``compute`` as
    ``score_dataset``'s."""
    columns = _columns(ds)
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    job = Job.for_corpus("rougekit.ray.score_corpus", columns, candidate, references,
                         threads, per_item, options, flavor, fields)
    summaries = ds.map_batches(_summarize_batch, batch_format="pyarrow",
                               batch_size=batch_size, fn_kwargs={"job": job},
                               num_cpus=_cpus_per_task(threads, num_cpus),
                               compute=_strategy(compute, *_TASKS))
    with _in_order(summaries):
        records = summaries.take_all()
    return corpus_result(_summaries(records, job), job, per_item)


class _MaxSimilarity:
    """An actor's scorer: the index loaded once from the object store (Ray
    Data passes the reference through as it is), then batch after batch."""

    def __init__(self, index: Any, similarity: Similarity) -> None:
        self.index = ray.get(index) if isinstance(index, ray.ObjectRef) else index
        self.similarity = similarity

    def __call__(self, batch: Any) -> Any:
        with _in_batch(batch):
            return self.similarity.frame(batch, self.index)


@takes_options("rougekit.ray.max_similarity")
def max_similarity(ds: Any, column: str, against: Sequence[Any],
                   rouge_type: Optional[str] = None, *,
                   options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                   threads: Optional[int] = 1, batch_size: Optional[int] = None,
                   compute: Any = None, num_cpus: Optional[float] = None,
                   **fields: Any) -> Any:
    """``ds`` with ``max_fmeasure`` (float64) and ``max_index`` (int64)
    added: for each row, ``RougeIndex(against).max`` of its ``column`` (the
    largest F against the texts of ``against``, and the position of the
    first text that gives it), lazily. ``rouge_type`` and the options are
    ``RougeIndex``'s (``"rougeL"`` by default; how text becomes tokens:
    ``use_stemmer``, ``tokenizer``, ``lang``, ...). The index is built now,
    once, and each actor loads it once (``compute``: the actor pool,
    ``ray.data.ActorPoolStrategy(size=n)``; Ray's default when None), each
    actor reserving ``num_cpus`` CPUs (default: ``threads``)."""
    columns = _columns(ds)
    similarity, index = Similarity.for_frame("rougekit.ray.max_similarity", columns, column,
                                             against, rouge_type, threads, options, flavor,
                                             fields)
    cpus = _cpus_per_task(threads, num_cpus)
    return ds.map_batches(_MaxSimilarity, batch_format="pyarrow", batch_size=batch_size,
                          compute=_strategy(compute, *_ACTORS),
                          fn_constructor_args=(ray.put(index), similarity), num_cpus=cpus)
