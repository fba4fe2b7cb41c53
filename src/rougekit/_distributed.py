"""What the engines beyond one process share: ``rougekit.dask``,
``rougekit.spark``, ``rougekit.ray``.

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

A summary that travels as a table row (Spark's and Ray's) is
``Summary.to_record`` there and ``Summary.from_record`` back.

``max_similarity`` (a ``RougeIndex`` queried by every row of a text column)
is checked where the call is made too (``Similarity.for_frame``, which
builds the index once from ``against``); each engine sends the index to its
workers once each (Dask scatters it, Spark broadcasts it, Ray puts it in
its object store), where ``Similarity.frame`` adds ``max_fmeasure`` and
``max_index`` to a partition or batch, each row's ``RougeIndex.max``.

An engine's module keeps only what is its own: how its table is split, how a
function or an index reaches its workers, how summaries come back.
"""
import dataclasses
import json
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from rougekit._checks import as_list, thread_count
from rougekit._doors import resolve
from rougekit._options import ScoringOptions
from rougekit._pipeline import corpus_scores, item_columns, item_rows, kept_items
from rougekit._tables import (
    ColumnKinds,
    check_column_kinds,
    check_columns,
    check_named_columns,
    column_list,
    table_kind,
    table_texts,
)
from rougekit.aggregate import MeanAggregator
from rougekit.corpus import CorpusResult
from rougekit.frames import column_names, options_frame
from rougekit.index import RougeIndex, index_options

#: A table's columns as an engine knows them: their names, or, from its
#: schema, each one's kind (``_tables.ColumnKinds``: wrong types are then
#: refused when the call is made).
Columns = Union[Sequence[Any], ColumnKinds]

__all__ = ["Job", "Summary", "RECORD_SCHEMA", "summarize", "corpus_result", "Similarity",
           "SIMILARITY_COLUMNS"]


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
    def for_frame(cls, door: str, columns: Columns, candidate: str, references: str,
                  threads: Optional[int], options: Optional[ScoringOptions],
                  flavor: Optional[str], fields: Dict[str, Any]) -> "Job":
        """The job of an engine's ``score_frame`` (``door``: its name)."""
        scoring = resolve(door, options, flavor, **fields)
        return cls._checked(scoring, columns, candidate, references, threads, True)

    @classmethod
    def for_corpus(cls, door: str, columns: Columns, candidate: str, references: str,
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
    def _checked(cls, scoring: ScoringOptions, columns: Columns, candidate: str,
                 references: str, threads: Optional[int], adds_columns: bool) -> "Job":
        if threads is not None:
            thread_count(threads)
        check_columns(list(columns), candidate, references,
                      column_names(scoring.rouge_types) if adds_columns else ())
        if isinstance(columns, dict):    # the engine's schema: each column's kind
            check_column_kinds(columns, (("candidate", candidate), ("references", references)))
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

    def to_record(self) -> Dict[str, Any]:
        """The summary as one table row (``RECORD_SCHEMA``): the
        aggregator's exact sums as JSON, the items' float64 bytes or None."""
        return {"n_items": self.n_items,
                "aggregator": json.dumps(self.aggregator.to_dict()),
                "items": None if self.items is None else self.items.tobytes()}

    @classmethod
    def from_record(cls, record: Any, job: "Job") -> "Summary":
        """The summary of a row ``to_record`` wrote (a dict or a row)."""
        items = record["items"]
        return cls(record["n_items"], MeanAggregator.from_dict(json.loads(record["aggregator"])),
                   None if items is None else np.frombuffer(items, dtype=np.float64)
                   .reshape(3 * len(job.rouge_types), -1))


#: The columns of ``Summary.to_record``'s row, as Spark's DDL.
RECORD_SCHEMA = "n_items long, aggregator string, items binary"


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


# --- max_similarity: a RougeIndex queried by a column --------------------------------

#: The columns max_similarity adds: the largest F against ``against`` (float64)
#: and the position in ``against`` of the text that gives it (int64; the first
#: on ties), each row's ``RougeIndex.max``.
SIMILARITY_COLUMNS = ("max_fmeasure", "max_index")


@dataclasses.dataclass(frozen=True)
class Similarity:
    """A ``max_similarity`` call, checked where it is made; picklable, sent
    to the workers (the index goes its own way: once to each worker)."""

    column: str

    @classmethod
    def for_frame(cls, door: str, columns: Columns, column: str, against: Any,
                  rouge_type: Optional[str], threads: Optional[int],
                  options: Optional[ScoringOptions], flavor: Optional[str],
                  fields: Dict[str, Any]) -> Tuple["Similarity", RougeIndex]:
        """The call of an engine's ``max_similarity`` (``door``: its name),
        and the ``RougeIndex`` of ``against`` with its options (those of
        ``RougeIndex``, refused by the door's name) and ``threads``."""
        scoring, _ = index_options(door, rouge_type, fields.pop("tokenizer", None),
                                   fields.pop("use_stemmer", False), options, flavor, fields)
        if threads is not None:
            thread_count(threads)
        check_named_columns(list(columns), (("column", column),), SIMILARITY_COLUMNS, door)
        if isinstance(columns, dict):
            check_column_kinds(columns, (("column", column),))
        texts = as_list(against, "against", "a list of texts")
        if not texts:
            raise ValueError(f"against is empty: {door} needs at least one text to compare "
                             "each row with")
        return cls(column), RougeIndex(texts, options=scoring, threads=threads)

    def frame(self, table: Any, index: RougeIndex) -> Any:
        """A pandas, polars or pyarrow table with ``max_fmeasure`` and
        ``max_index`` added: each row's ``index.max`` of its text."""
        kind = table_kind(table)
        texts = _text_column(kind, table, self.column)
        fmeasures = np.empty(len(texts), dtype=np.float64)
        ids = np.empty(len(texts), dtype=np.int64)
        for i, text in enumerate(texts):
            ids[i], fmeasures[i] = index.max(text)
        return _with_similarity(kind, table, fmeasures, ids)


def _text_column(kind: str, table: Any, column: str) -> List[Any]:
    """The column's values, each a str or bytes (errors name the row)."""
    if column not in column_list(kind, table):
        raise ValueError(f"column={column!r}: the table has no such column")
    if kind == "pandas":
        values = table[column].tolist()
    elif kind == "polars":
        values = table.get_column(column).to_list()
    else:
        values = table.column(column).to_pylist()
    for i, value in enumerate(values):
        if not isinstance(value, (str, bytes)):
            missing = value is None or (isinstance(value, float) and value != value) \
                or type(value).__name__ in ("NAType", "NaTType")
            what = f"missing value ({value!r})" if missing else \
                f"expected a str or bytes, not {type(value).__name__}"
            row = f"row {i}"
            if kind == "pandas" and not table.index.equals(_default_index(len(table))):
                row += f" (index {table.index[i:i + 1].tolist()[0]!r})"
            raise (ValueError if missing else TypeError)(f"column {column!r}, {row}: {what}")
    return values


def _default_index(n: int) -> Any:
    import pandas as pd
    return pd.RangeIndex(n)


def _with_similarity(kind: str, table: Any, fmeasures: np.ndarray, ids: np.ndarray) -> Any:
    columns = dict(zip(SIMILARITY_COLUMNS, (fmeasures, ids)))
    if kind == "pandas":
        return table.assign(**columns)
    if kind == "polars":
        import polars as pl
        return table.with_columns([pl.Series(name, values) for name, values in columns.items()])
    import pyarrow as pa
    schema, arrays = table.schema, list(table.columns)
    for name, values in columns.items():
        array = pa.array(values)
        schema = schema.append(pa.field(name, array.type))
        arrays.append(array)
    if kind == "arrow-table":
        return pa.Table.from_arrays(arrays, schema=schema)
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
