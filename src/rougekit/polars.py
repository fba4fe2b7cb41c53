"""ROUGE as a polars expression: ``import rougekit.polars``, then
``pl.col("candidate").rouge.score(pl.col("reference"))``.

Importing this module registers the expression namespace ``rouge``.
``Expr.rouge.score(references, rouge_types=None, *, options=None,
flavor=None, threads=None, **fields)`` gives, for each row, a struct whose
fields are ``rougekit.score_frame``'s columns (``column_names``:
``rouge1_precision``, ..., ``rougeLsum_fmeasure``), float64, equal with
``==`` to ``score_frame``'s for the same rows and options. It works wherever
an expression does: ``select``, ``with_columns``, lazy frames and the
streaming engine, ``group_by(...).agg`` and ``over``::

    import polars as pl
    import rougekit.polars

    scores = pl.col("candidate").rouge.score(pl.col("references"), ["rouge1", "rougeL"],
                                             use_stemmer=True)
    pl.scan_parquet("outputs.parquet").with_columns(scores.struct.unnest()).collect()

The options are every door's: ``options=``, ``flavor=`` with its package's
switches, the option fields of a row's scores (a corpus field is refused, as
by ``score_frame``); they are checked when the expression is built.

Scoring is one Python call per batch of rows (``Expr.map_batches``; the whole
column in memory, each morsel in the streaming engine), never one per row,
through the compiled path on ``threads`` (default all cores); the struct is
built from the float64 columns. Two String columns go to the engine as Arrow
(``Series.to_arrow``), which reads each ASCII text where it lies, no Python
str made; other columns (a list of references, Categorical) and options the
engine does not score are read out as strings (``Series.to_list``, a list
column flattened first). One ``PairScorer`` serves every batch of the
expression (``rougekit._batches``).

Columns: the candidates a String column (Categorical and Enum are read as
their strings); the references a String column (one per row) or a list of
strings per row (``List(String)``, ``Array(String, n)``). Another type is a
TypeError naming the column; polars adds the expression under the message's
first line.

Nulls: a row whose candidate or references value is null gets a null
struct (every field null), as polars' own functions give null for null: a
missing text has no score, and aggregations such as ``mean`` skip it. A null
*inside* a list of references, and an empty list, are errors naming the
column and the row (its position in the batch, and the start of its
candidate): the row has texts, but one of its references is missing, and
scoring it against the others would silently change its number; drop them
first (``.list.drop_nulls()``) if that is what you mean.
"""
from typing import Any, List, Optional, Sequence

import numpy as np

from rougekit._arrow_texts import string_chunks
from rougekit._batches import BatchScorer, lists_of, shown
from rougekit._doors import resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit.frames import column_names

try:
    import polars as pl
except ImportError as error:      # one line that names the extra
    raise ImportError("rougekit.polars needs polars: pip install 'rougekit[polars]'",
                      name=error.name) from None

__all__ = ["RougeNamespace", "DOOR"]

#: The door's name, as errors and the docs' table of doors show it.
DOOR = "Expr.rouge.score"

_TEXT_TYPES = (pl.String, pl.Categorical, pl.Enum)


def _is_text(dtype: Any) -> bool:
    return any(dtype == t or isinstance(dtype, t) for t in _TEXT_TYPES)


class _ScoreBatch:
    """The function ``map_batches`` calls with a batch: a struct Series of
    the candidate and references columns (fields "candidate" and
    "references"); returns the struct Series of scores. Picklable (a lazy
    query may be sent elsewhere)."""

    def __init__(self, scorer: BatchScorer, candidate: str, references: str) -> None:
        self.scorer = scorer
        self.candidate = candidate
        self.references = references
        self.names = column_names(scorer.options.rouge_types)

    def dtype(self) -> pl.Struct:
        return pl.Struct([pl.Field(name, pl.Float64) for name in self.names])

    def __call__(self, batch: pl.Series) -> pl.Series:
        cand_column = batch.struct.field("candidate")
        refs_column = batch.struct.field("references")
        matrix = self._arrow_matrix(cand_column, refs_column)
        if matrix is None:
            cands = self._candidates(cand_column)
            refs = self._references(refs_column, cands)
            if not len(batch):
                return pl.Series(batch.name, [], dtype=self.dtype())
        valid = (cand_column.is_not_null() & refs_column.is_not_null()).to_numpy()
        if matrix is None:
            matrix = self.scorer.columns(cands, refs, valid)
        scores = pl.DataFrame([pl.Series(name, values) for name, values
                               in zip(self.names, matrix)]).to_struct(batch.name)
        if valid.all():
            return scores
        return pl.DataFrame({"scores": scores, "valid": valid}).select(
            pl.when("valid").then("scores").alias(batch.name)).to_series()

    def _arrow_matrix(self, cand_column: pl.Series, refs_column: pl.Series
                      ) -> Optional[np.ndarray]:
        """The scores of two String columns, read as Arrow where they lie
        (``BatchScorer.arrow_columns``); None for other columns or options."""
        if not (len(cand_column) and cand_column.dtype == pl.String
                and refs_column.dtype == pl.String and self.scorer.reads_arrow):
            return None
        cands, refs = string_chunks(cand_column), string_chunks(refs_column)
        if cands is None or refs is None:
            return None
        return self.scorer.arrow_columns(cands, refs)

    def _candidates(self, column: pl.Series) -> List[Optional[str]]:
        dtype = column.dtype
        if dtype == pl.Null:
            return [None] * len(column)
        if not _is_text(dtype):
            raise TypeError(f"column {self.candidate!r} holds {dtype}: the candidates "
                            "must be strings (String)")
        return column.cast(pl.String).to_list()

    def _references(self, column: pl.Series, cands: List[Optional[str]]) -> List[Any]:
        """One str per row (a String column) or one list of str per row;
        None where null."""
        dtype = column.dtype
        if dtype == pl.Null:
            return [None] * len(column)
        if _is_text(dtype):
            return column.cast(pl.String).to_list()
        inner = getattr(dtype, "inner", None)
        if isinstance(dtype, (pl.List, pl.Array)) and (_is_text(inner) or inner == pl.Null):
            return self._lists(column.cast(pl.List(pl.String)), cands)
        raise TypeError(f"column {self.references!r} holds {dtype}: the references must be "
                        "strings or lists of strings (String or List(String))")

    def _lists(self, column: pl.Series, cands: List[Optional[str]]
               ) -> List[Optional[List[str]]]:
        """The lists of a List(String) column, read as one flat column of
        strings and cut (``to_list`` on the list column builds each row's
        list through polars' generic path, several times slower)."""
        present = column.is_not_null().to_numpy()
        counts = column.list.len().fill_null(0).to_numpy().astype(np.int64)
        flat = column.filter(pl.Series(counts > 0)).explode().to_list()

        def problem(row: int, what: str) -> Exception:
            return ValueError(f"column {self.references!r}, row {row} of a batch of "
                              f"{len(column)} (candidate {shown(cands[row])}): {what}")
        return lists_of(flat, counts, present, problem)


def _name_of(expr: pl.Expr, default: str) -> str:
    name = expr.meta.output_name(raise_if_undetermined=False)
    return name if name is not None else default


@pl.api.register_expr_namespace("rouge")
class RougeNamespace:
    """The ``rouge`` namespace of polars expressions: ``Expr.rouge.score``."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    @takes_options(DOOR)
    def score(self, references: Any, rouge_types: Optional[Sequence[str]] = None, *,
              options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
              threads: Optional[int] = None, **fields: Any) -> pl.Expr:
        """The scores of each row's candidate (this expression) against its
        references, as a struct of float64 fields named as
        ``rougekit.score_frame``'s columns.

        Args:
          references: an expression, or a column name: a String column or a
            list of strings per row.
          rouge_types: as ``score_frame``'s (default: rouge1, rouge2,
            rougeL, rougeLsum).
          options: a ``rougekit.ScoringOptions`` instead of the keywords.
          flavor: another package's ROUGE and its switches, as ``score_frame``'s.
          **fields: the option fields of a row's scores, as ``score_frame``'s.
          threads: threads for the compiled path (default: all cores).

        Returns an expression named as this one (the candidate column):
        ``.struct.unnest()`` gives the score columns, ``.struct.field(name)``
        one of them. A null candidate or references value gives a null
        struct.

        Examples:
            >>> import polars as pl
            >>> df = pl.DataFrame({"candidate": ["the cat sat", None],
            ...                    "reference": ["the cat sat down", "a dog"]})
            >>> scored = df.select(pl.col("candidate").rouge.score("reference", ["rougeL"]))
            >>> scored.unnest("candidate").rows()
            [(1.0, 0.75, 0.8571428571428571), (None, None, None)]
        """
        if rouge_types is not None:
            fields["rouge_types"] = rouge_types
        scoring = resolve(DOOR, options, flavor, **fields)
        if isinstance(references, str):
            references = pl.col(references)
        if not isinstance(references, pl.Expr):
            raise TypeError("references must be a polars expression or a column name, not "
                            f"{type(references).__name__}")
        candidate = _name_of(self._expr, "candidate")
        score = _ScoreBatch(BatchScorer(scoring, threads), candidate,
                            _name_of(references, "references"))
        return pl.struct(self._expr.alias("candidate"),
                         references.alias("references")).map_batches(
            score, return_dtype=score.dtype(), is_elementwise=True).alias(candidate)
