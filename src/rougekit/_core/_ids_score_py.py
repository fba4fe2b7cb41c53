"""Pure-Python twin of ``_ids_score``: ROUGE of token-id rows.

The same classes, function, results and errors as the compiled kernel, on
the same numpy arrays (rows read as Python lists, one pair at a time): each
pair's ids are numbered densely, then the other twins count the n-gram
overlaps (``_overlap_py``), the LCS and the union LCS (``_lcs_py``), and
``_prf_py`` gives rouge-score's P/R/F.
"""
import numpy as np

from rougekit._core._ids_py import ID_LIMIT
from rougekit._core._kinds_py import ROUGE_L, ROUGE_LSUM
from rougekit._core._lcs_py import lcs_length, summary_lcs_hits_tokens
from rougekit._core._overlap_py import ngram_overlap
from rougekit._core._prf_py import lcs_prf, ngram_prf

__all__ = ["IdRows", "IdScratch", "score_rows", "DIRECT_IDS", "KIND_L", "KIND_LSUM"]

KIND_L = ROUGE_L
KIND_LSUM = ROUGE_LSUM
# The compiled kernel numbers ids below this through a table, larger ones
# through a hash table (the same numbers either way).
DIRECT_IDS = 1 << 20
# Tokens read between two looks at the cancel flag.
_CANCEL_BUDGET = 1 << 16


class IdRows:
    """Rows of token ids, read from an int32 or int64 array (see the
    compiled ``IdRows``)."""

    def __init__(self, values, offsets, pad, name, group=1):
        if not isinstance(values, np.ndarray) or values.dtype not in (np.int32, np.int64) \
                or not values.dtype.isnative:
            raise TypeError(f"{name}: values must be a numpy array of native int32 or int64")
        if group < 1:
            raise ValueError("group must be >= 1")
        self.name = name
        self.group = group
        self.values = values
        self.offsets = None
        self._pad = pad
        if offsets is None:
            if values.ndim != 2:
                raise ValueError(f"{name}: a {values.ndim}-D array needs offsets (2-D without)")
            # (An empty array has strides 0: nothing to read, nothing to check.)
            if values.size and values.shape[1] > 1 and values.strides[1] != values.itemsize:
                raise ValueError(f"{name}: the values of a row must be contiguous")
            if values.size and values.shape[0] > 1 and values.strides[0] % values.itemsize:
                raise ValueError(f"{name}: rows must start on whole values")
            self._rows = values.shape[0]
        else:
            if values.ndim != 1:
                raise ValueError(f"{name}: values with offsets must be 1-D, not "
                                 f"{values.ndim}-D")
            if not isinstance(offsets, np.ndarray) or offsets.dtype != np.int64 \
                    or offsets.ndim != 1:
                raise TypeError(f"{name}: offsets must be a 1-D int64 array")
            if len(offsets) < 1:
                raise ValueError(f"{name}: offsets must have at least one entry")
            prev = 0
            for i, o in enumerate(offsets.tolist()):
                if o < prev or o > len(values):
                    raise ValueError(
                        f"{name}: offsets must rise from 0 or more to at most the "
                        f"{len(values)} values; offsets[{i}] is {o}")
                prev = o
            self.offsets = offsets
            self._rows = len(offsets) - 1

    @property
    def rows(self):
        return self._rows

    def __len__(self):
        return self._rows

    def row(self, i):
        """Row i as a list of ints, cut at the first pad; None if i is not a row."""
        if not 0 <= i < self._rows:
            return None
        if self.offsets is None:
            row = self.values[i].tolist()
        else:
            start, stop = int(self.offsets[i]), int(self.offsets[i + 1])
            if not 0 <= start <= stop <= len(self.values):
                return None
            row = self.values[start:stop].tolist()
        if self._pad is not None:
            try:
                row = row[:row.index(self._pad)]
            except ValueError:
                pass
        return row


class IdScratch:
    """The compiled kernel's per-thread buffers; nothing to hold here."""


class _BadId(Exception):
    def __init__(self, side, pos, value):
        super().__init__()
        self.side, self.pos, self.value = side, pos, value


def _number(row, ids, side):
    for pos, v in enumerate(row):
        if v < 0 or v >= ID_LIMIT:
            raise _BadId(side, pos, v)
    return [ids.setdefault(v, len(ids)) for v in row]


def _sentences(row, seps):
    """rougeLsum's sentences: the ids, cut at each separator (dropped)."""
    out: list = [[]]
    for v in row:
        if v in seps:
            out.append([])
        else:
            out[-1].append(v)
    return out


def _pair(p, q, kinds, seps):
    """(hits, prediction total, reference total) of each kind."""
    ids: dict = {}
    a = _number(p, ids, 0)
    b = _number(q, ids, 1)
    counts = []
    for kind in kinds:
        if kind == ROUGE_L:
            counts.append((lcs_length(a, b) if a and b else 0, len(a), len(b)))
        elif kind == ROUGE_LSUM:
            rs = _sentences(q, seps)
            ps = _sentences(p, seps)
            m, n = sum(map(len, rs)), sum(map(len, ps))
            counts.append((summary_lcs_hits_tokens(rs, ps) if m and n else 0, n, m))
        else:
            hits, ca, cb = ngram_overlap(a, b, kind)
            counts.append((hits, ca, cb))
    return counts


def score_rows(scratch, preds, refs, kinds, sep, ref_item, per_pred, col0, col_step, lo, hi,
               out, counts, cancel):
    """Score reference rows lo .. hi - 1 of ``refs`` against their
    predictions (see the compiled ``score_rows``)."""
    if not isinstance(scratch, IdScratch) or not isinstance(preds, IdRows) \
            or not isinstance(refs, IdRows):
        raise TypeError("score_rows takes an IdScratch and two IdRows")
    kinds = [int(k) for k in kinds]
    if len(kinds) > 64:
        raise ValueError("at most 64 rouge types at once")
    for kind in kinds:
        if kind < 1 and kind not in (ROUGE_L, ROUGE_LSUM):
            raise ValueError(f"unknown kind {kind}")
    seps = set() if sep is None else set(np.asarray(sep, dtype=np.int64).tolist())
    if ref_item is not None:
        ref_item = np.asarray(ref_item, dtype=np.int64)
        if len(ref_item) != refs.rows:
            raise ValueError("ref_item must have one entry per reference row")
    elif per_pred < 1:
        raise ValueError("per_pred must be >= 1")
    ncols = 0
    if out is not None:
        if out.shape[0] != 3 * len(kinds):
            raise ValueError("out must have 3 rows per kind")
        ncols = out.shape[1]
    if counts is not None:
        if counts.shape[0] != 3 * len(kinds) or (out is not None and counts.shape[1] != ncols):
            raise ValueError("counts must have 3 rows per kind (and out's columns)")
        ncols = counts.shape[1]
    if lo < 0 or hi > refs.rows or lo > hi:
        raise ValueError(f"rows {lo} .. {hi} outside the {refs.rows} reference rows")
    if hi > lo:
        first, last = col0 + lo * col_step, col0 + (hi - 1) * col_step
        if kinds and not (0 <= first < ncols and 0 <= last < ncols):
            raise ValueError(f"columns {first} .. {last} outside the {ncols} columns")
    work = 0
    for k in range(lo, hi):
        it = int(ref_item[k]) if ref_item is not None else k // per_pred
        q = refs.row(k)
        if q is None:
            raise ValueError(f"{refs.name}: row {k}'s offsets fall outside its values")
        p = preds.row(it)
        if p is None:
            raise ValueError(f"{preds.name}: row {it} (of reference row {k}) is not one of "
                             f"its {preds.rows} rows")
        try:
            pair = _pair(p, q, kinds, seps)
        except _BadId as bad:
            rows, row = (preds, it) if bad.side == 0 else (refs, k)
            where = (f"[{row // rows.group}][{row % rows.group}]" if rows.group > 1
                     else f"[{row}]")
            raise ValueError(f"{rows.name}{where}[{bad.pos}]: token id {bad.value} is "
                             f"outside [0, {ID_LIMIT}): token ids must be non-negative and "
                             "below 2**31 - 1") from None
        col = col0 + k * col_step
        for j, (kind, (hits, pred_total, ref_total)) in enumerate(zip(kinds, pair)):
            if counts is not None:
                counts[3 * j:3 * j + 3, col] = (hits, pred_total, ref_total)
            if out is not None:
                prf = (lcs_prf if kind in (ROUGE_L, ROUGE_LSUM) else ngram_prf)(
                    hits, ref_total, pred_total)
                out[3 * j:3 * j + 3, col] = prf
        work += len(p) + len(q)
        if work > _CANCEL_BUDGET:
            work = 0
            if cancel is not None and cancel.is_set():
                return
