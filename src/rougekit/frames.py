"""ROUGE scores added to a table as columns: pandas, polars or pyarrow.

``score_frame(df)`` scores the candidate of each row against that row's
references and returns the same kind of table with one float64 column per
rouge type and measure added, named ``"{rouge_type}_{measure}"`` (measure:
precision, recall, fmeasure), after the input's columns (``column_names``).
The guide "Tables and data frames" (docs/guides/tables.md) has tested
examples with each library.

Each row's numbers are ``score_corpus``'s per-item scores for that row (so
with one reference, ``RougeScorer.score``'s, with 0.0 where rouge-score gives
the int 0), with the same options (every scoring function's: ``options=``, ``flavor=``
and the option fields, ``multi_ref`` among them: how several references
combine).

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
from typing import Any, List, Optional, Sequence, TypeVar

from rougekit._doors import resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit._pipeline import arrow_item_columns, item_columns
from rougekit._tables import (
    arrow_texts,
    check_columns,
    column_list,
    table_kind,
    table_texts,
    with_columns,
)
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


@takes_options("score_frame")
def score_frame(df: Table, rouge_types: Optional[Sequence[str]] = None,
                candidate: str = "candidate", references: str = "references", *,
                options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                threads: Optional[int] = None, **fields: Any) -> Table:
    """``df`` with the scores of each row added as float64 columns.

    Args:
      df: a pandas or polars DataFrame, a pyarrow Table or RecordBatch.
      rouge_types: names among "rouge1" to "rouge9", "rougeL", "rougeLsum"
        (default: rouge1, rouge2, rougeL, rougeLsum).
      candidate: the column of candidate texts (str).
      references: the column of references: a str or a non-empty list of
        str per row.
      options: a ``rougekit.ScoringOptions`` instead of the keywords, as
        ``score_corpus``.
      flavor: another package's ROUGE and its switches, as ``score_corpus``.
      threads: threads for the compiled path (default: all cores).
      **fields: the option fields of a row's scores, as ``score_corpus``'s
        (``tokenizer``, ``use_stemmer``, ``lang``, ``sentence_split``,
        ``multi_ref``, ...); a corpus field (``bootstrap``, ``aggregation``,
        ...) is refused: a row's scores have no corpus.

    Returns a new table of the same kind (the input is not changed): its
    columns, then ``"{rouge_type}_{measure}"`` for each rouge type and
    measure (``column_names``). A table that already has one of those
    columns is a ValueError.
    """
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    return options_frame(df, resolve("score_frame", options, flavor, **fields), candidate,
                         references, threads)


def options_frame(df: Table, options: ScoringOptions, candidate: str = "candidate",
                  references: str = "references", threads: Optional[int] = None) -> Table:
    """``score_frame`` with its options as a ``ScoringOptions`` (for the
    Dask and Spark partitions)."""
    kind = table_kind(df)
    names = column_names(options.rouge_types)
    check_columns(column_list(kind, df), candidate, references, names)
    arrow = arrow_texts(kind, df, candidate, references)
    matrix = arrow_item_columns(options, *arrow, threads) if arrow is not None else None
    if matrix is None:
        cands, refs = table_texts(kind, df, candidate, references)
        matrix = item_columns(options, cands, refs, threads)
    return with_columns(kind, df, names, matrix)
