"""Pure-Python twin of ``_overlap``: clipped n-gram overlap of id sequences."""
from collections import Counter

from rougekit._core._ids_py import as_seq as _seq
from rougekit._core._ids_py import check_ids as _check_ids
from rougekit._core._ids_py import check_total as _check_total

__all__ = ["ngram_overlap", "ngram_overlap_tokens", "counter_overlap"]


def ngram_overlap(a, b, n):
    """Clipped n-gram overlap: ``(hits, ngrams_in_a, ngrams_in_b)``."""
    if not isinstance(n, int):
        raise TypeError(f"n must be int, not {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    a, b = _seq(a), _seq(b)
    bound = _check_total(len(a) + len(b))
    _check_ids(a, bound, "a")
    _check_ids(b, bound, "b")
    ca = Counter(tuple(a[i:i + n]) for i in range(len(a) - n + 1))
    cb = Counter(tuple(b[i:i + n]) for i in range(len(b) - n + 1))
    hits = sum(min(c, cb[g]) for g, c in ca.items())
    return hits, max(len(a) - n + 1, 0), max(len(b) - n + 1, 0)


def ngram_overlap_tokens(a, b, n):
    """``ngram_overlap`` of two sequences of hashable tokens (matched as
    dict keys; an unhashable token raises TypeError)."""
    if not isinstance(n, int):
        raise TypeError(f"n must be int, not {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    a, b = _seq(a), _seq(b)
    _check_total(len(a) + len(b))
    ids: dict = {}
    ia = [ids.setdefault(t, len(ids)) for t in a]
    ib = [ids.setdefault(t, len(ids)) for t in b]
    return ngram_overlap(ia, ib, min(n, len(ia) + len(ib) + 1))


# Counts whose sums cannot overflow an int64 in the compiled twin.
_COUNT_LIMIT = 1 << 40


def counter_overlap(target, prediction):
    """(clipped hits, sum of target counts, sum of prediction counts) of two
    ``collections.Counter`` of small int counts; None otherwise (the caller
    computes it itself)."""
    if type(target) is not Counter or type(prediction) is not Counter:
        return None
    for counts in (target, prediction):
        for c in counts.values():
            if type(c) is not int or not -_COUNT_LIMIT <= c <= _COUNT_LIMIT:
                return None
    hits = 0
    for g, c in target.items():
        other = prediction.get(g, 0)
        hits += c if c < other else other
    return hits, sum(target.values()), sum(prediction.values())
