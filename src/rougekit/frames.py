"""ROUGE scores added to a table as columns: pandas, polars or pyarrow.

``score_frame(df)`` scores the candidate of each row against that row's
references and returns the same kind of table with one float64 column per
rouge type and measure added, named ``"{rouge_type}_{measure}"`` (measure:
precision, recall, fmeasure), after the input's columns (``column_names``).
The guide "Tables and data frames" (docs/guides/tables.md) has tested
examples with each library.

Each row's numbers are ``score_corpus``'s per-item scores for that row (so
with one reference, ``RougeScorer.score``'s, with 0.0 where rouge-score gives
the int 0), with the same options: ``tokenizer``, ``use_stemmer``,
``multi_ref`` (how several references combine), ``threads``.

Tables: a pandas ``DataFrame`` (the index is kept), a polars ``DataFrame``,
a pyarrow ``Table`` or ``RecordBatch`` (schema metadata kept). The
candidate column holds strings; the references column a string or a list of
strings per row: Python lists, numpy arrays of strings (what pandas gives for
a Parquet ``list<string>`` column), Arrow and polars list columns. A missing
value, an empty list of references or a column that is not there is an error
naming the column and the row. The libraries are optional: this module
imports pandas, polars or pyarrow only to handle a table of theirs (which is
then already imported), and ``import rougekit`` imports none of them.

For tables larger than one machine, ``rougekit.dask`` and ``rougekit.spark``
score each partition the same way.
"""
import math
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar

import numpy as np

from rougekit._sentences import check_sentence_split
from rougekit.corpus import _item_columns, _item_setup
from rougekit.rouge_scorer import MEASURES

__all__ = ["score_frame", "column_names", "check_columns"]

Table = TypeVar("Table")


def column_names(rouge_types: Sequence[str]) -> List[str]:
    """The names of the score columns, in order: P, R and F of each type.

    Examples:
        >>> column_names(["rouge1", "rougeL"])[:4]
        ['rouge1_precision', 'rouge1_recall', 'rouge1_fmeasure', 'rougeL_precision']
    """
    return [f"{t}_{m}" for t in rouge_types for m in MEASURES]


def score_frame(df: Table, rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
                candidate: str = "candidate", references: str = "references", *,
                tokenizer: Any = "rouge-score", use_stemmer: bool = False,
                lang: Optional[str] = None, stem_stopwords: bool = False,
                sentence_split: str = "newline",
                multi_ref: str = "max", threads: Optional[int] = None) -> Table:
    """``df`` with the scores of each row added as float64 columns.

    Args:
      df: a pandas or polars DataFrame, a pyarrow Table or RecordBatch.
      rouge_types: names among "rouge1" to "rouge9", "rougeL", "rougeLsum".
      candidate: the column of candidate texts (str).
      references: the column of references: a str or a non-empty list of
        str per row.
      tokenizer: as ``score_corpus``.
      use_stemmer: as ``score_corpus``.
      lang: as ``score_corpus`` (docs/guides/languages.md).
      stem_stopwords: as ``score_corpus``.
      sentence_split: as ``score_corpus`` (docs/guides/sentences.md).
      multi_ref: as ``score_corpus``.
      threads: threads for the compiled path (default: all cores).

    Returns a new table of the same kind (the input is not changed): its
    columns, then ``"{rouge_type}_{measure}"`` for each rouge type and
    measure (``column_names``). A table that already has one of those
    columns is a ValueError.
    """
    kind = _kind(df)
    rule = check_sentence_split(sentence_split)
    types, tok = _item_setup(rouge_types, tokenizer, use_stemmer, multi_ref, threads,
                             lang, stem_stopwords)
    names = column_names([name for name, _ in types])
    check_columns(_column_list(kind, df), candidate, references, names)
    cands, refs = _texts(kind, df, candidate, references)
    matrix = _score_texts(types, tok, multi_ref, cands, refs, threads, rule)
    return _with_columns(kind, df, names, matrix)


def check_columns(existing: Sequence[Any], candidate: Any, references: Any,
                  added: Sequence[str] = ()) -> None:
    """Errors naming the argument: ``candidate`` or ``references`` that is
    not a column of a table with columns ``existing``, or a column of
    ``added`` that the table already has."""
    existing = list(existing)
    for role, name in (("candidate", candidate), ("references", references)):
        if not isinstance(name, str):
            raise TypeError(f"{role} must be a column name (str), not {type(name).__name__}")
        if name not in existing:
            shown = ", ".join(repr(c) for c in existing[:10])
            raise ValueError(f"{role}={name!r}: the table has no such column (its columns: "
                             f"{shown}{', ...' if len(existing) > 10 else ''})")
    clash = [name for name in added if name in existing]
    if clash:
        raise ValueError(f"the table already has column {clash[0]!r}, which the scores "
                         "would add; drop or rename it first")


# --- the kinds of table ---------------------------------------------------------

def _kind(df: Any) -> str:
    """"pandas", "polars", "arrow-table" or "arrow-batch". A table of a
    library means that library is imported already: its module is looked up
    in ``sys.modules``, never imported here."""
    checks = (("pandas", "DataFrame", "pandas"), ("polars", "DataFrame", "polars"),
              ("pyarrow", "Table", "arrow-table"), ("pyarrow", "RecordBatch", "arrow-batch"))
    for module_name, class_name, kind in checks:
        module = sys.modules.get(module_name)
        if module is not None and isinstance(df, getattr(module, class_name)):
            return kind
    package = type(df).__module__.split(".")[0]
    hint = {"dask": "; use rougekit.dask.score_frame",
            "pyspark": "; use rougekit.spark.score_frame",
            "polars": "; collect() a LazyFrame first"}.get(package, "")
    raise TypeError("df must be a pandas or polars DataFrame or a pyarrow Table or "
                    f"RecordBatch, not {type(df).__module__}.{type(df).__name__}{hint}")


def _column_list(kind: str, df: Any) -> List[Any]:
    if kind in ("pandas", "polars"):
        return list(df.columns)
    return list(df.schema.names)


def _column(kind: str, df: Any, name: str) -> List[Any]:
    """The values of column ``name`` (checked by ``check_columns``) as a list."""
    if kind == "pandas":
        return df[name].tolist()
    if kind == "polars":
        return df.get_column(name).to_list()
    return df.column(name).to_pylist()


def _texts(kind: str, df: Any, candidate: str, references: str
           ) -> Tuple[List[str], List[List[str]]]:
    """The candidates and each row's list of references, checked."""
    check_columns(_column_list(kind, df), candidate, references)
    where = _row_names(kind, df)
    return (_candidates(_column(kind, df, candidate), candidate, where),
            _references(_column(kind, df, references), references, where))


def _row_names(kind: str, df: Any) -> Callable[[int], str]:
    """How an error names row i: its position, and its index label when a
    pandas index is not 0, 1, 2, ... (a Dask partition's, say)."""
    if kind == "pandas":
        index = df.index
        default = type(index).__name__ == "RangeIndex" and index.start == 0 \
            and index.step == 1
        if not default:
            return lambda i: f"row {i} (index {index[i]!r})"
    return lambda i: f"row {i}"


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) \
        or type(value).__name__ in ("NAType", "NaTType")


def _problem(column: str, row: str, value: Any, what: str) -> Exception:
    if _missing(value):
        return ValueError(f"column {column!r}, {row}: missing value ({value!r}); "
                          f"each row needs {what}")
    return TypeError(f"column {column!r}, {row}: expected {what}, "
                     f"not {type(value).__name__}")


def _text(value: Any, column: str, row: str, what: str) -> str:
    if type(value) is str:
        return value
    if isinstance(value, str):       # numpy.str_ and other str subclasses
        return str(value)
    raise _problem(column, row, value, what)


def _candidates(values: List[Any], column: str, where: Callable[[int], str]) -> List[str]:
    if all(type(v) is str for v in values):
        return values
    return [v if type(v) is str else _text(v, column, where(i), "a str")
            for i, v in enumerate(values)]


def _references(values: List[Any], column: str, where: Callable[[int], str]
                ) -> List[List[str]]:
    what = "a str or a non-empty list of str"
    out = []
    for i, value in enumerate(values):
        if isinstance(value, str):
            out.append([str(value)])
            continue
        if not isinstance(value, (list, tuple, np.ndarray)):
            raise _problem(column, where(i), value, what)
        if len(value) == 0:
            raise ValueError(f"column {column!r}, {where(i)}: an empty list of references")
        out.append([v if type(v) is str else _text(v, column, where(i), what)
                    for v in value])
    return out


def _score_texts(types: List[Tuple[str, int]], tok: Any, multi_ref: str,
                 candidates: List[str], references: List[List[str]],
                 threads: Optional[int], rule: str = "newline") -> np.ndarray:
    """Per-row scores, shape (3 * types, rows); no rows give no columns."""
    if not candidates:
        return np.zeros((3 * len(types), 0))
    return _item_columns(types, tok, multi_ref, candidates, references, threads, rule)


def _with_columns(kind: str, df: Any, names: List[str], matrix: np.ndarray) -> Any:
    columns: Dict[str, np.ndarray] = dict(zip(names, matrix))
    if kind == "pandas":
        return df.assign(**columns)
    if kind == "polars":
        import polars as pl
        return df.with_columns([pl.Series(name, values) for name, values in columns.items()])
    import pyarrow as pa
    schema = df.schema
    arrays = list(df.columns)
    for name, values in columns.items():
        schema = schema.append(pa.field(name, pa.float64()))
        arrays.append(pa.array(values, type=pa.float64()))
    if kind == "arrow-table":
        return pa.Table.from_arrays(arrays, schema=schema)
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
