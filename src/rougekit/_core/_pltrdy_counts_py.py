"""Pure-Python twin of ``_pltrdy_counts``: the per-pair counts of ``rouge``
1.0.1 (pltrdy) and ``rouge-chinese`` 1.0.3, from sets and Counters of the
words (and n-gram tuples), and the LCS kernels' twins on per-pair ids."""
from collections import Counter
from typing import Any, Dict, Set

from rougekit._core import _lcs_py

__all__ = ["LCS_UNION", "LCS_SUM", "LCS_WHOLE", "pair_counts"]

LCS_UNION = 0
LCS_SUM = 1
LCS_WHOLE = 2


def _sentences(text, split_dots):
    """A text's sentences, each the list of its words (never empty)."""
    if split_dots:
        if not isinstance(text, str):
            raise TypeError(f"texts must be str, not {type(text).__name__}")
        pieces: Any = text.split(".")
    else:
        if not isinstance(text, (list, tuple)):
            raise TypeError(f"pieces must be a list of str, not {type(text).__name__}")
        pieces = text
        for piece in pieces:
            if not isinstance(piece, str):
                raise TypeError(f"pieces must be str, not {type(piece).__name__}")
    return [piece.split() or [""] for piece in pieces if len(piece) > 0]


def _ngram_counts(a, b, n, exclusive):
    ga = [tuple(a[i:i + n]) for i in range(len(a) - n + 1)]
    gb = [tuple(b[i:i + n]) for i in range(len(b) - n + 1)]
    if exclusive:
        sa, sb = set(ga), set(gb)
        return len(sa), len(sb), len(sa & sb)
    return len(ga), len(gb), sum((Counter(ga) & Counter(gb)).values())


def _dense(sentences):
    """The sentences' words as ids numbered from 0 (the LCS kernels' twins
    take ids below the number of tokens given)."""
    ids: Dict[Any, int] = {}
    return [[ids.setdefault(w, len(ids)) for w in s] for s in sentences]


def _count_pair(hyp, ref, ns, exclusive, lcs):
    a = [w for s in hyp for w in s]
    b = [w for s in ref for w in s]
    counts = [len(hyp), len(ref), sum(1 for w in a if w), sum(1 for w in b if w)]
    if not a or not b:
        return tuple(counts + [0, 0, 0] * len(ns))
    for n in ns:
        if n > 0:
            counts.extend(_ngram_counts(a, b, n, exclusive))
        elif lcs == LCS_WHOLE:
            counts.extend((len(a), len(b), _lcs_py.lcs_length(*_dense([b, a]))))
        elif lcs == LCS_SUM:
            counts.extend((len(a), len(b), sum(_lcs_py.lcs_length(*_dense([r, h]))
                                               for r in ref for h in hyp)))
        else:
            # pltrdy's LCS of a reference and a hypothesis sentence is
            # rouge-score's with the two swapped: its words, on the hypothesis
            union: Set[Any] = set()
            for h in hyp:
                h_ids, *ref_ids = _dense([h] + ref)
                union.update(h[i] for i in _lcs_py.union_lcs(h_ids, ref_ids))
            counts.extend((len(set(a)), len(set(b)), len(union)))
    return tuple(counts)


def pair_counts(hyps, refs, split_dots, ns, exclusive, lcs):
    """The counts of every (hypothesis, reference) pair, in one call (see
    the compiled module's docstring)."""
    hs, rs = list(hyps), list(refs)
    if len(rs) != len(hs):
        raise ValueError("hyps and refs must have the same length")
    if lcs not in (LCS_UNION, LCS_SUM, LCS_WHOLE):
        raise ValueError(f"lcs must be LCS_UNION, LCS_SUM or LCS_WHOLE, not {lcs}")
    ns = [int(n) for n in ns]
    for n in ns:
        if n < 0:
            raise ValueError(f"n must be >= 1 (or 0 for ROUGE-L), got {n}")
    out = []
    for h, r in zip(hs, rs):
        out.append((_sentences(h, split_dots), _sentences(r, split_dots)))
    return [_count_pair(h, r, ns, exclusive, lcs) for h, r in out]
