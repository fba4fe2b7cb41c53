"""ROUGE as DuckDB SQL functions: ``rougekit.duckdb.register(con)``.

``register(con, rouge_types=None, *, prefix="rouge", options=None,
flavor=None, threads=None, **fields)`` adds two functions to the connection
``con``, vectorized over Arrow (one Python call per DuckDB vector of 2,048
rows, never one per row)::

    import duckdb
    import rougekit.duckdb

    con = duckdb.connect()
    rougekit.duckdb.register(con, use_stemmer=True)
    con.sql("SELECT rouge_score(candidate, reference, 'rougeL').fmeasure "
            "FROM 'outputs.parquet'")

- ``rouge_score(candidate, references, rouge_type)``: ``STRUCT(precision
  DOUBLE, recall DOUBLE, fmeasure DOUBLE)``, the scores of one rouge type
  (any of rouge1 to rouge9, rougeL, rougeLsum; usually a constant);
- ``rouge_scores(candidate, references)``: a STRUCT of ``rouge_types``'
  score columns, named as ``rougekit.score_frame``'s (``rouge1_precision``,
  ..., ``rougeLsum_fmeasure``): ``SELECT unnest(rouge_scores(c, r)) FROM t`` gives
  score_frame's columns.

``references`` is a VARCHAR (one reference) or a ``VARCHAR[]`` (several,
combined by ``multi_ref``). Each function is a macro that casts it to
``UNION(one VARCHAR, many VARCHAR[])`` and hands the union's two members,
as plain columns, to a Python function named after it
(``rouge_score_texts``, ``rouge_scores_texts``): DuckDB hands plain columns
to Python in a third of the time it takes for a UNION, and a Python
function can neither be overloaded nor take ANY. Every number equals
``rougekit.score_frame``'s for the same rows and options, with ``==``.

The options are every door's (``options=``, ``flavor=`` with its package's
switches, the option fields of a row's scores), resolved and checked once,
in Python, when the functions are registered: they are fixed for the
functions, and their errors come before any SQL runs. Python UDFs cannot be
overloaded nor take named arguments, and a per-call options string would be
parsed for every vector and checked only once the query runs; for a second
set of options, register again under another ``prefix``
(``register(con, prefix="rouge_stem", use_stemmer=True)`` adds
``rouge_stem_score`` and ``rouge_stem_scores``). Registering again under the
same prefix replaces the functions (a notebook cell run twice).
``register`` returns the resolved ``ScoringOptions`` (``.signature()``).

Nulls: a NULL candidate or references value gives a NULL result, as SQL
functions do (DuckDB does not call the function for those rows). A NULL
inside a list of references and an empty list are errors naming the
function and the start of the row's candidate. Arguments of another type
are DuckDB's errors, before any row is read: a candidate that is not a
VARCHAR a binder error naming ``rouge_score_texts`` and the types, and
references that are neither VARCHAR nor VARCHAR[] a conversion error
naming the UNION.

Needs ``pip install 'rougekit[duckdb]'`` (duckdb and pyarrow).
"""
import dataclasses
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from rougekit._arrow_texts import string_chunks
from rougekit._batches import BatchScorer, lists_of, shown
from rougekit._doors import resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit.frames import column_names
from rougekit.rouge_scorer import MEASURES

try:
    import duckdb
    import pyarrow as pa
except ImportError as error:      # one line that names the extra
    raise ImportError(f"rougekit.duckdb needs {error.name}: pip install 'rougekit[duckdb]'",
                      name=error.name) from None

__all__ = ["register", "DOOR", "REFERENCES_TYPE"]

#: The door's name, as errors and the docs' table of doors show it.
DOOR = "rougekit.duckdb.register"
#: The SQL type of the references parameter: one reference or several.
REFERENCES_TYPE = "UNION(one VARCHAR, many VARCHAR[])"


def _struct(names: Sequence[str]) -> str:
    return "STRUCT(" + ", ".join(f"{name} DOUBLE" for name in names) + ")"


class _Reader:
    """A function's text arguments, read from DuckDB's Arrow arrays: the
    candidates, and the references as the two members of the union
    (``one``: a VARCHAR, ``many``: a VARCHAR[]; at most one of them is
    non-NULL in a row, both NULL for a NULL references value). ``rows``
    gives the candidates, each row's reference (a str) or references (a
    list of str), and which rows have both (a NULL gives NULL). Errors name
    the function."""

    def __init__(self, function: str) -> None:
        self.function = function

    def rows(self, candidates: Any, one: Any, many: Any
             ) -> Tuple[List[Optional[str]], List[Any], np.ndarray]:
        cands = _array(candidates).to_pylist()
        one, many = _array(one), _array(many)
        has_one, has_many = _valid(one), _valid(many)
        valid = _valid(candidates) & (has_one | has_many)
        if not has_many.any():
            return cands, one.to_pylist(), valid
        lists = self.lists(many, cands)
        if not has_one.any():
            return cands, lists, valid
        ones = one.to_pylist()      # both kinds in one vector: all as lists
        return (cands, [lists[i] if here else None if ones[i] is None else [ones[i]]
                        for i, here in enumerate(has_many.tolist())], valid)

    def arrow_rows(self, candidates: Any, one: Any, many: Any
                   ) -> Optional[Tuple[List[Any], List[Any]]]:
        """The candidates and the references as Arrow string arrays
        (``string_chunks``), when no row has a list of references: for the
        engine to read where they lie (a NULL in either is a NULL row).
        None otherwise (``rows`` reads them)."""
        if many.null_count != len(many):
            return None
        cands, refs = string_chunks(candidates), string_chunks(one)
        if cands is None or refs is None:
            return None
        return cands, refs

    def lists(self, array: Any, cands: List[Optional[str]]) -> List[Optional[List[str]]]:
        counts = array.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)

        def problem(row: int, what: str) -> Exception:
            return ValueError(f"{self.function}: the references of the candidate "
                              f"{shown(cands[row])}: {what}")
        return lists_of(array.flatten().to_pylist(), counts.astype(np.int64), _valid(array),
                        problem)


def _array(column: Any) -> Any:
    """A pyarrow Array of a DuckDB argument (a ChunkedArray's chunks joined)."""
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def _valid(array: Any) -> np.ndarray:
    return np.asarray(array.is_valid().to_numpy(zero_copy_only=False), dtype=bool)


class _ScoreOne:
    """``rouge_score(candidate, references, rouge_type)``."""

    def __init__(self, function: str, options: ScoringOptions,
                 threads: Optional[int]) -> None:
        self.function = function
        self.options = options
        self.threads = threads
        self.reader = _Reader(function)
        self.scorers: Dict[str, BatchScorer] = {}

    def scorer(self, rouge_type: str) -> BatchScorer:
        scorer = self.scorers.get(rouge_type)
        if scorer is None:
            try:
                options = dataclasses.replace(self.options, rouge_types=(rouge_type,))
            except ValueError as error:
                reason = str(error).split(": ", 1)[-1]     # after "rouge_types: "
                raise ValueError(f"{self.function}'s third argument: {reason}") from None
            scorer = self.scorers.setdefault(rouge_type, BatchScorer(options, self.threads))
        return scorer

    def __call__(self, candidates: Any, one: Any, many: Any, rouge_types: Any) -> Any:
        types = rouge_types.to_pylist()
        first = types[0] if types else None
        # a constant
        scorer = self.scorer(first) if first is not None and types.count(first) == len(types) \
            else None
        if scorer is not None:
            matrix = _arrow_scores(scorer, self.reader, candidates, one, many)
            if matrix is not None:
                return _struct_array(list(MEASURES), matrix, ~np.isnan(matrix[0]))
        cands, refs, valid = self.reader.rows(candidates, one, many)
        if scorer is not None:
            return _struct_array(list(MEASURES), scorer.columns(cands, refs, valid), valid)
        out = np.full((3, len(cands)), np.nan)
        for rouge_type in sorted(set(types) - {None}, key=types.index):
            rows = [i for i, t in enumerate(types) if t == rouge_type]
            out[:, rows] = self.scorer(rouge_type).columns(
                [cands[i] for i in rows], [refs[i] for i in rows], valid[rows])
        valid &= np.array([t is not None for t in types], dtype=bool)
        return _struct_array(list(MEASURES), out, valid)


class _ScoreAll:
    """``rouge_scores(candidate, references)``."""

    def __init__(self, function: str, options: ScoringOptions,
                 threads: Optional[int]) -> None:
        self.reader = _Reader(function)
        self.scorer = BatchScorer(options, threads)
        self.names = column_names(options.rouge_types)

    def __call__(self, candidates: Any, one: Any, many: Any) -> Any:
        matrix = _arrow_scores(self.scorer, self.reader, candidates, one, many)
        if matrix is not None:
            return _struct_array(self.names, matrix, ~np.isnan(matrix[0]))
        cands, refs, valid = self.reader.rows(candidates, one, many)
        return _struct_array(self.names, self.scorer.columns(cands, refs, valid), valid)


def _arrow_scores(scorer: BatchScorer, reader: _Reader, candidates: Any, one: Any,
                  many: Any) -> Optional[np.ndarray]:
    """The scores of a vector whose rows have one reference each, read by
    the engine where they lie (NaN for a NULL); None for any other vector
    or options the engine does not score."""
    if not scorer.reads_arrow:
        return None
    columns = reader.arrow_rows(candidates, one, many)
    return None if columns is None else scorer.arrow_columns(*columns)


def _struct_array(names: List[str], matrix: np.ndarray, valid: np.ndarray) -> Any:
    """The Arrow struct of float64 fields ``names`` (the rows of ``matrix``),
    null where not ``valid``; the fields are the float64 rows themselves
    (slices of one Arrow array over the matrix: a call per vector, not one
    per field)."""
    mask = None if valid.all() else pa.array(~valid)
    n = matrix.shape[1]
    values = pa.array(np.ascontiguousarray(matrix).reshape(-1))
    return pa.StructArray.from_arrays([values.slice(k * n, n) for k in range(len(names))],
                                      names=names, mask=mask)


_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@takes_options(DOOR)
def register(con: Any, rouge_types: Optional[Sequence[str]] = None, *,
             prefix: str = "rouge", options: Optional[ScoringOptions] = None,
             flavor: Optional[str] = None, threads: Optional[int] = None,
             **fields: Any) -> ScoringOptions:
    """Add ``{prefix}_score(candidate, references, rouge_type)`` and
    ``{prefix}_scores(candidate, references)`` to the DuckDB connection
    ``con``, scoring with these options; returns them, resolved.

    Args:
      con: a ``duckdb.DuckDBPyConnection``.
      rouge_types: the types of ``{prefix}_scores``' struct (default:
        rouge1, rouge2, rougeL, rougeLsum); ``{prefix}_score`` takes any
        type as its third argument.
      prefix: the functions' names begin with it (an SQL identifier).
      options: a ``rougekit.ScoringOptions`` instead of the keywords.
      flavor: another package's ROUGE and its switches, as ``score_frame``'s.
      **fields: the option fields of a row's scores, as ``score_frame``'s.
      threads: scoring threads per call (default: all cores).

    Examples:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> _ = register(con, ["rouge1", "rougeL"])
        >>> con.sql("SELECT rouge_score('the cat sat', 'the cat sat down', 'rougeL')"
        ...         ".fmeasure").fetchall()
        [(0.8571428571428571,)]
        >>> con.sql("SELECT s.rouge1_recall, s.rougeL_precision FROM (SELECT "
        ...         "rouge_scores('the cat', ['a cat', 'the dog']) AS s)").fetchall()
        [(0.5, 0.5)]
    """
    if not isinstance(con, duckdb.DuckDBPyConnection):
        raise TypeError(f"con must be a duckdb connection (duckdb.connect()), not "
                        f"{type(con).__module__}.{type(con).__name__}")
    if not isinstance(prefix, str) or not _PREFIX.match(prefix):
        raise ValueError(f"prefix must be an SQL identifier (letters, digits, _), not "
                         f"{prefix!r}")
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    scoring = resolve(DOOR, options, flavor, **fields)
    one = f"{prefix}_score"
    score_one = _ScoreOne(one, scoring, threads)
    score_all = _ScoreAll(f"{prefix}_scores", scoring, threads)
    _create(con, one, ["rouge_type"], score_one, _struct(MEASURES))
    _create(con, f"{prefix}_scores", [], score_all, _struct(score_all.names))
    return scoring


def _create(con: Any, name: str, more: List[str], function: Callable[..., Any],
            returns: str) -> None:
    """``name(candidate, refs, *more)``: a macro that casts ``refs`` to
    ``REFERENCES_TYPE`` and hands its two members, as a VARCHAR and a
    VARCHAR[] column, to the Python function ``{name}_texts`` (with the
    ``more`` arguments as VARCHARs). DuckDB turns a UNION argument into Arrow
    far more slowly than two plain columns (bench_tables_sql.py's no-op
    rows), and a Python function can neither be overloaded nor take ANY."""
    texts = f"{name}_texts"
    try:
        con.remove_function(texts)
    except duckdb.Error:       # not registered yet
        pass
    # special: the function sees NULLs (a row with a list of references has a
    # NULL "one", and the reverse) and returns NULL for a NULL row itself
    con.create_function(texts, function, ["VARCHAR", "VARCHAR", "VARCHAR[]"]
                        + ["VARCHAR"] * len(more), returns, type="arrow",
                        null_handling="special")
    member = f"union_extract(CAST(refs AS {REFERENCES_TYPE}), '{{}}')"
    parameters = ", ".join(["candidate", "refs"] + more)
    arguments = ", ".join(["candidate", member.format("one"), member.format("many")] + more)
    con.execute(f"CREATE OR REPLACE TEMP MACRO {name}({parameters}) AS {texts}({arguments})")
