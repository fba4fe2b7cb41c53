"""Reading and writing the tables of ``rougekit.frames``: pandas and polars
DataFrames, pyarrow Tables and RecordBatches.

A table of a library means that library is imported already: its module is
looked up in ``sys.modules``, never imported here. ``table_kind`` names the
kind of a table, ``table_texts`` reads its candidate and references columns
(checked, errors naming the column and the row), ``arrow_texts`` gives two
string columns of polars or pyarrow as Arrow arrays, ``with_columns`` adds
float64 score columns to a new table of the same kind.
"""
import math
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from rougekit._arrow_texts import has_nulls, is_text_type, string_chunks

__all__ = ["ColumnKinds", "check_columns", "check_named_columns", "check_column_kinds",
           "arrow_kind", "table_kind", "column_list", "table_texts", "arrow_texts",
           "with_columns"]


def check_columns(existing: Sequence[Any], candidate: Any, references: Any,
                  added: Sequence[str] = ()) -> None:
    """Errors naming the argument: ``candidate`` or ``references`` that is
    not a column of a table with columns ``existing``, or a column of
    ``added`` that the table already has."""
    check_named_columns(existing, (("candidate", candidate), ("references", references)),
                        added, "the scores")


def check_named_columns(existing: Sequence[Any], named: Sequence[Tuple[str, Any]],
                        added: Sequence[str], adder: str) -> None:
    """``check_columns`` for any arguments: each ``(argument, column name)``
    of ``named`` must name a column of ``existing``; no column of ``added``
    (what ``adder`` would add) may be there already."""
    existing = list(existing)
    for role, name in named:
        if not isinstance(name, str):
            raise TypeError(f"{role} must be a column name (str), not {type(name).__name__}")
        if name not in existing:
            shown = ", ".join(repr(c) for c in existing[:10])
            raise ValueError(f"{role}={name!r}: the table has no such column (its columns: "
                             f"{shown}{', ...' if len(existing) > 10 else ''})")
    clash = [name for name in added if name in existing]
    if clash:
        raise ValueError(f"the table already has column {clash[0]!r}, which {adder} "
                         "would add; drop or rename it first")


#: What an engine's schema says a column holds: (kind, the type's name); the
#: kinds: "text", "texts" (a list of texts per row), "bytes", "null" (no
#: values: every row null), "unknown" (a type that does not say, such as
#: pandas' object: the rows are checked as they are scored) and "other".
ColumnKinds = Dict[str, Tuple[str, str]]


def arrow_kind(arrow_type: Any) -> Tuple[str, str]:
    """``ColumnKinds``' entry of a column of ``arrow_type`` (a pyarrow type).

    >>> import pyarrow as pa
    >>> arrow_kind(pa.string()), arrow_kind(pa.list_(pa.large_string())), arrow_kind(pa.int64())
    (('text', 'string'), ('texts', 'list<item: large_string>'), ('other', 'int64'))
    """
    import pyarrow
    types = pyarrow.types
    if is_text_type(pyarrow, arrow_type):
        return "text", str(arrow_type)
    if types.is_null(arrow_type):
        return "null", "null"
    if types.is_binary(arrow_type) or types.is_large_binary(arrow_type):
        return "bytes", str(arrow_type)
    if types.is_list(arrow_type) or types.is_large_list(arrow_type):
        inner = arrow_type.value_type
        if is_text_type(pyarrow, inner) or types.is_null(inner):
            return "texts", str(arrow_type)
    if isinstance(arrow_type, pyarrow.ExtensionType):     # e.g. Ray's Python objects
        return "unknown", str(arrow_type)
    return "other", str(arrow_type)


#: The kinds each role's column may hold, and how an error says it.
_ROLE_KINDS = {"candidate": (("text",), "the candidates must be strings"),
               "references": (("text", "texts"), "the references must be strings or lists "
                                                 "of strings"),
               "column": (("text", "bytes"), "the texts to check must be strings or bytes")}


def check_column_kinds(kinds: ColumnKinds, named: Sequence[Tuple[str, Any]]) -> None:
    """A TypeError naming the column and its type when an engine's schema
    says a column of ``named`` (``(role, column name)``: "candidate",
    "references" or "column") holds something its role cannot: known before
    any row is read, so at call time, not on a worker."""
    for role, name in named:
        kind, type_name = kinds.get(name, ("unknown", ""))
        allowed, what = _ROLE_KINDS[role]
        if kind not in allowed and kind not in ("null", "unknown"):
            raise TypeError(f"column {name!r} holds {type_name}: {what}")


def table_kind(df: Any) -> str:
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


def column_list(kind: str, df: Any) -> List[Any]:
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


def table_texts(kind: str, df: Any, candidate: str, references: str
                ) -> Tuple[List[str], Union[List[str], List[List[str]]]]:
    """The candidates and the references, checked: one str per row when every
    row has one, else each row's list of references."""
    check_columns(column_list(kind, df), candidate, references)
    where = _row_names(kind, df)
    return (_candidates(_column(kind, df, candidate), candidate, where),
            _references(_column(kind, df, references), references, where))


def arrow_texts(kind: str, df: Any, candidate: str, references: str
                ) -> Optional[Tuple[List[Any], List[Any]]]:
    """The candidates and references as Arrow string arrays
    (``rougekit._arrow_texts.string_chunks``), for the engine to read where
    they lie: when the table is polars or pyarrow and both columns are
    strings without a null (one reference per row). None otherwise:
    ``table_texts`` reads them (and names the row of a null)."""
    if kind == "pandas":
        return None
    get = df.get_column if kind == "polars" else df.column
    cands, refs = string_chunks(get(candidate)), string_chunks(get(references))
    if cands is None or refs is None or has_nulls(cands) or has_nulls(refs):
        return None
    return cands, refs


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
                ) -> Union[List[str], List[List[str]]]:
    """Each row's references: the column itself when every row holds one str
    (``item_columns`` scores such a column as it is), else a list per row."""
    if all(type(v) is str for v in values):
        return values
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
        if any(_missing(v) for v in value):      # (the words of polars' and DuckDB's doors)
            raise ValueError(f"column {column!r}, {where(i)}: a null among the references "
                             "(drop the nulls first to score the others)")
        out.append([v if type(v) is str else _text(v, column, where(i), what)
                    for v in value])
    return out


def with_columns(kind: str, df: Any, names: List[str], matrix: np.ndarray) -> Any:
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
