"""Columns of texts read where they lie: Arrow string arrays.

The compiled engine scores two Arrow string arrays straight from their
buffers (``Engine.score_arrow_into``: no Python str for an ASCII text).
This module finds such columns among what the doors are handed: a pyarrow
``string``, ``large_string`` or ``string_view`` Array or ChunkedArray, or a
polars String Series (``Series.to_arrow``: polars' own string views, shared,
where this polars and pyarrow have them); and cuts two of them into pieces
the engine reads together. Like ``rougekit._tables``, it never imports pyarrow or
polars for a column that is not theirs (a polars Series is handed over by
pyarrow, which ``Series.to_arrow`` imports).

>>> import pyarrow as pa
>>> chunks = string_chunks(pa.chunked_array([["a", "b"], ["c"]]))
>>> [(t.to_pylist(), p.to_pylist())
...  for t, p in aligned(chunks, string_chunks(pa.array(["x", "y", "z"])))]
[(['a', 'b'], ['x', 'y']), (['c'], ['z'])]
>>> string_chunks(["a", "b"]) is None
True
"""
import sys
from typing import Any, Iterator, List, Optional, Tuple

__all__ = ["string_chunks", "aligned", "has_nulls", "first_texts", "is_text_type"]


def is_text_type(pyarrow: Any, arrow_type: Any) -> bool:
    """Whether the engine reads an Arrow array of ``arrow_type`` as texts:
    ``string``, ``large_string``, or (pyarrow 16 and later) ``string_view``."""
    is_view = getattr(pyarrow.types, "is_string_view", None)
    return bool(pyarrow.types.is_string(arrow_type) or pyarrow.types.is_large_string(arrow_type)
                or (is_view is not None and is_view(arrow_type)))


def string_chunks(column: Any) -> Optional[List[Any]]:
    """The pyarrow string, large_string or string_view Arrays of a column,
    in order: a pyarrow Array or ChunkedArray of strings, or a polars String
    Series (converted by ``to_arrow``, as string views sharing polars'
    buffers where this polars offers them, else copied; never a str per
    row). None for anything else (a list, a Categorical, a list column,
    ...), which the caller reads as a list."""
    polars = sys.modules.get("polars")
    if polars is not None and isinstance(column, polars.Series):
        if column.dtype != polars.String:
            return None
        try:
            column = _polars_arrow(polars, column)
        except ImportError:         # polars without pyarrow
            return None
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is None or not isinstance(column, (pyarrow.Array, pyarrow.ChunkedArray)):
        return None
    if not is_text_type(pyarrow, column.type):
        return None
    return list(column.chunks) if isinstance(column, pyarrow.ChunkedArray) else [column]


def _polars_arrow(polars: Any, series: Any) -> Any:
    """A polars String Series as pyarrow: its own string views (no copy)
    where this polars can hand them over and this pyarrow (16 or later)
    read them, else ``to_arrow()``'s ``large_string`` copy."""
    import pyarrow  # (to_arrow imports it too; without it, an ImportError either way)
    newest = getattr(getattr(polars, "CompatLevel", None), "newest", None)
    if newest is not None and hasattr(pyarrow.types, "is_string_view"):
        try:
            return series.to_arrow(compat_level=newest())
        except TypeError:           # a polars whose to_arrow takes no compat_level
            pass
    return series.to_arrow()


def aligned(a: List[Any], b: List[Any]) -> List[Tuple[Any, Any]]:
    """Two columns' chunks (``string_chunks``, of equal total length) cut
    into pairs of equally long arrays, in row order: where the chunks of
    both end together, the chunks themselves, else zero-copy slices."""
    out = []
    i = j = at_a = at_b = 0
    while i < len(a) and j < len(b):
        n = min(len(a[i]) - at_a, len(b[j]) - at_b)
        if n:
            out.append((_part(a[i], at_a, n), _part(b[j], at_b, n)))
        at_a += n
        at_b += n
        if at_a == len(a[i]):
            i, at_a = i + 1, 0
        if at_b == len(b[j]):
            j, at_b = j + 1, 0
    return out


def _part(array: Any, start: int, n: int) -> Any:
    return array if start == 0 and n == len(array) else array.slice(start, n)


def has_nulls(chunks: List[Any]) -> bool:
    return any(chunk.null_count for chunk in chunks)


def first_texts(pieces: List[Tuple[Any, Any]], block: int = 1000) -> Iterator[str]:
    """The texts of the rows without a null, in order, each row's first
    array's text then its second's: read ``block`` rows at a time, as far
    as the caller goes (the checks that read a scorer's first texts)."""
    for a, b in pieces:
        for lo in range(0, len(a), block):
            for x, y in zip(a.slice(lo, block).to_pylist(), b.slice(lo, block).to_pylist()):
                if x is not None and y is not None:
                    yield x
                    yield y
