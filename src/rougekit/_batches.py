"""Rows that an engine hands over a batch at a time, scored one call per
batch: what the polars expression (``rougekit.polars``) and the DuckDB
functions (``rougekit.duckdb``) share.

Polars calls an expression's function once per batch of rows (the whole
column in memory, a morsel in the streaming engine), DuckDB a function once
per vector of 2,048 rows. A batch of two Arrow string columns (one
reference per row) goes to ``BatchScorer.arrow_columns`` as it is: the
engine reads the texts where they lie (``arrow_item_columns``), NaN for a
row with a null. Otherwise (a list of references per row, options the
engine does not score) the door reads the two columns into lists, with None
for a missing value; ``BatchScorer.columns`` scores the rows that have both
a candidate and references (the door's ``valid`` mask, read from the
columns' validity) through ``item_columns`` (the compiled path, on
``threads``) and gives NaN for the others. The door turns the NaN rows into
nulls.

A ``BatchScorer`` keeps one ``PairScorer`` for all its batches: a new one per
batch would start every batch with cold token tables and stem caches, so
that 2,048-row batches (DuckDB's) scored well below one call over the whole
column; kept, the batches score as fast as one call. It is made at the
first batch, so a scorer pickled with a lazy query (the PairScorer is not
sent) makes its own where it runs.

>>> import numpy as np
>>> from rougekit._options import ScoringOptions
>>> scorer = BatchScorer(ScoringOptions(rouge_types=["rouge1"]))
>>> scorer.columns(["a b", None], [["a"], ["b"]], np.array([True, False])).tolist()
[[0.5, nan], [1.0, nan], [0.6666666666666666, nan]]
"""
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, cast

import numpy as np

from rougekit._checks import thread_count
from rougekit._options import ScoringOptions
from rougekit._pipeline import (
    PairScorer,
    arrow_item_columns,
    item_columns,
    pair_scorer,
    reads_arrow,
)

__all__ = ["BatchScorer", "lists_of", "shown"]


class BatchScorer:
    """A door's resolved options and threads, and the ``PairScorer`` its
    batches share (thread-safe: engines call from several threads)."""

    def __init__(self, options: ScoringOptions, threads: Optional[int] = None) -> None:
        if threads is not None:
            thread_count(threads)
        self.options = options
        self.threads = threads
        self._pairs: Optional[PairScorer] = None
        self._lock = threading.Lock()

    def __getstate__(self) -> Dict[str, Any]:
        return {"options": self.options, "threads": self.threads}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state["options"], state["threads"])  # type: ignore[misc]

    @property
    def pairs(self) -> PairScorer:
        if self._pairs is None:
            with self._lock:
                if self._pairs is None:
                    self._pairs = pair_scorer(self.options)
        return self._pairs

    @property
    def reads_arrow(self) -> bool:
        """Whether ``arrow_columns`` scores with these options (else it
        gives None): a door that has Arrow string columns then hands them
        over as they are, rather than reading them into lists."""
        return reads_arrow(self.options, self.pairs)

    def arrow_columns(self, candidates: List[Any], references: List[Any]
                      ) -> Optional[np.ndarray]:
        """``columns`` of two Arrow string columns, one reference per row
        (``rougekit._arrow_texts.string_chunks``: their arrays), read where
        they lie: NaN where either is null. None when the options do not
        score that way (``reads_arrow``)."""
        return arrow_item_columns(self.options, candidates, references, self.threads,
                                  self.pairs)

    def columns(self, candidates: Sequence[Optional[str]], references: Sequence[Any],
                valid: np.ndarray) -> np.ndarray:
        """The scores of each row, shape (3 * types, rows) as
        ``item_columns`` gives them, NaN where not ``valid`` (a row without
        a candidate or references, which the door makes null). A valid
        row's references are a str or a non-empty list of str (checked by
        the door, which names its columns), all rows alike."""
        if valid.all():
            return item_columns(self.options, cast(List[str], candidates), references,
                                self.threads, self.pairs)
        rows = np.flatnonzero(valid).tolist()
        matrix = np.full((3 * len(self.options.rouge_types), len(candidates)), np.nan)
        if rows:
            matrix[:, rows] = item_columns(
                self.options, [candidates[i] for i in rows], [references[i] for i in rows],
                self.threads, self.pairs)
        return matrix


def lists_of(flat: Sequence[Optional[str]], counts: np.ndarray, present: np.ndarray,
             problem: Callable[[int, str], Exception]) -> List[Optional[List[str]]]:
    """Each row's list of references, cut from a list column's values read
    as one flat list (``flat``: the values of the present rows' lists, in
    order; ``counts``: each row's length, 0 where it is null; ``present``:
    False where it is null, whose rows get None). An empty list or a None
    among the values is ``problem(row, what)``, raised.

    >>> lists_of(["a", "b", "c"], np.array([2, 0, 1]), np.array([True, False, True]),
    ...          lambda row, what: ValueError(f"row {row}: {what}"))
    [['a', 'b'], None, ['c']]
    """
    empty = np.flatnonzero(present & (counts == 0))
    if len(empty):
        raise problem(int(empty[0]), "an empty list of references; each row needs at least "
                                     "one")
    ends = np.cumsum(counts)
    if None in flat:
        first = list(flat).index(None)
        raise problem(int(np.searchsorted(ends, first, side="right")),
                      "a null among the references (drop the nulls first to score the "
                      "others)")
    out: List[Optional[List[str]]] = []
    start = 0
    for end, here in zip(ends.tolist(), present.tolist()):
        out.append(cast(List[str], flat[start:end]) if here else None)
        start = end
    return out


def shown(text: Optional[str], width: int = 40) -> str:
    """A text as an error message shows it: its repr, cut to about
    ``width`` characters.

    >>> shown("The cat sat on the mat and then it sat on the rug.", 20)
    "'The cat sat on the m…'"
    """
    if text is None:
        return "null"
    return repr(text if len(text) <= width else text[:width] + "\u2026")
