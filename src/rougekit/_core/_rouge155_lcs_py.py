"""ROUGE-L and ROUGE-W of one model against one peer, as ROUGE-1.5.5.pl's
``lcs`` and ``wlcs`` (with ``lcs_inner``, ``wlcs_inner`` and ``markLCS``)
count them: the pure twin of ``_rouge155_lcs`` and its specification.

``lcs_hits(model_sents, peer_sents, model_bag, peer_bag, weight=None)`` is
``(hit, base)`` of one model: ``model_sents`` and ``peer_sents`` are the LCS
reader's sentences (lists of token ids), ``model_bag`` and ``peer_bag`` the
n-gram reader's tokens, whose counts clip the hits; ``weight`` None is
ROUGE-L, a number > 0 ROUGE-W's weight.

>>> lcs_hits([[0, 1, 2]], [[0, 2], [1]], [0, 1, 2], [0, 2, 1])
(3, 3)
>>> lcs_hits([[0, 1, 2]], [[0, 2], [1]], [0, 1, 2], [0, 2])
(2, 3)
>>> lcs_hits([[0, 1, 2]], [[0, 1, 2]], [0, 1, 2], [0, 1, 2], weight=2.0)
(9.0, 9.0)
"""
from collections import Counter

import numpy as np

from rougekit._core._ids_py import ID_LIMIT

__all__ = ["lcs_hits"]



def lcs_hits(model_sents, peer_sents, model_bag, peer_bag, weight=None):
    """The script's lcs (``weight`` None) or wlcs (``weight`` > 0): (hit,
    base) of one model against one peer.

    Per model sentence, the union of its LCS with every peer sentence; each
    marked token counts while its count is positive in both bags (which are
    decremented and persist across the model's sentences). ROUGE-W adds
    f(run) = run ** weight for each run of counted tokens ended by an
    unmarked position or the sentence end, and its base is the sum of
    f(sentence length).
    """
    model_sents, peer_sents, model_bag, peer_bag = checked_sequences(
        model_sents, peer_sents, model_bag, peer_bag)
    weight = checked_weight(weight)
    return hits_of(model_sents, peer_sents, Counter(model_bag), Counter(peer_bag), weight)


def checked_sequences(model_sents, peer_sents, model_bag, peer_bag):
    """The arguments of ``lcs_hits`` as lists of int token ids, checked:
    TypeError for a token that is not an int, ValueError for one outside
    [0, 2**31 - 1)."""
    model_sents = [list(s) for s in model_sents]
    peer_sents = [list(s) for s in peer_sents]
    model_bag, peer_bag = list(model_bag), list(peer_bag)
    every = [t for s in model_sents + peer_sents + [model_bag, peer_bag] for t in s]
    ids = np.asarray(every)
    if ids.size and (ids.ndim != 1 or ids.dtype.kind not in "iu"):
        raise TypeError("token ids must be ints")
    if ids.size and (ids.min() < 0 or ids.max() >= ID_LIMIT):
        bad = next(int(t) for t in every if not 0 <= t < ID_LIMIT)
        raise ValueError(f"token ids must be in [0, 2**31 - 1), got {bad}")
    return ([[int(t) for t in s] for s in model_sents], [[int(t) for t in s] for s in peer_sents],
            [int(t) for t in model_bag], [int(t) for t in peer_bag])


def checked_weight(weight):
    """None (ROUGE-L), or ROUGE-W's weight as a float > 0."""
    if weight is None:
        return None
    weight = float(weight)
    if not weight > 0:
        raise ValueError(f"weight must be > 0, got {weight}")
    return weight


def _mark_lcs(model_sent, peer_sent, marks):
    """The script's lcs_inner + markLCS: the LCS walk of rouge-score (take a
    match; move left only when the left cell is strictly greater than the
    cell above; else up), which the bit-parallel kernel reproduces."""
    from rougekit._core import _lcs_py
    _lcs_py._mark_lcs(model_sent, peer_sent, marks)


def _mark_wlcs(model_sent, peer_sent, marks, f):
    """The script's wlcs_inner + markLCS: a weighted-LCS table of floats, a
    diagonal step adding f(k+1) - f(k) for a run of k matches, ties broken as
    in lcs_inner (up when the cell above is >= the cell to the left)."""
    m, n = len(model_sent), len(peer_sent)
    if m == 0:
        return
    up, left, diag = 1, 2, 3
    c_prev = [0.0] * (n + 1)
    l_prev = [0] * (n + 1)
    dirs = []
    for i in range(1, m + 1):
        c_cur = [0.0] * (n + 1)
        l_cur = [0] * (n + 1)
        row = bytearray(n + 1)
        t = model_sent[i - 1]
        for j in range(1, n + 1):
            if t == peer_sent[j - 1]:
                k = l_prev[j - 1]
                c_cur[j] = c_prev[j - 1] + f(k + 1) - f(k)
                row[j] = diag
                l_cur[j] = k + 1
            elif c_prev[j] >= c_cur[j - 1]:
                c_cur[j] = c_prev[j]
                row[j] = up
            else:
                c_cur[j] = c_cur[j - 1]
                row[j] = left
        dirs.append(row)
        c_prev, l_prev = c_cur, l_cur
    i, j = m, n
    while i and j:
        d = dirs[i - 1][j]
        if d == diag:
            i -= 1
            j -= 1
            marks[i] = True
        elif d == up:
            i -= 1
        else:
            j -= 1



def hits_of(model_sents, peer_sents, model_bag, peer_bag, weight):
    """``lcs_hits`` on checked arguments, the bags given as Counters (which
    are decremented: pass copies).

    Per model sentence, the union of its LCS with every peer sentence; each
    marked token counts while its count is positive in both bags (which are
    decremented and persist across the model's sentences). ROUGE-W adds
    f(run) for each run of counted tokens ended by an unmarked position or
    the sentence end, and its base is the sum of f(sentence length).
    """
    f = (lambda k: float(k) ** weight) if weight is not None else None
    hit = 0 if weight is None else 0.0
    base = 0 if weight is None else 0.0
    for sent in model_sents:
        size = len(sent)
        marks = [False] * size
        base += size if f is None else f(size)
        for ps in peer_sents:
            if f is None:
                _mark_lcs(sent, ps, marks)
            else:
                _mark_wlcs(sent, ps, marks, f)
        run = 0
        for j, t in enumerate(sent):
            if marks[j] and model_bag.get(t, 0) > 0 and peer_bag.get(t, 0) > 0:
                if f is None:
                    hit += 1
                else:
                    run += 1
                    if (j + 1 < size and not marks[j + 1]) or j + 1 == size:
                        hit += f(run)
                        run = 0
                model_bag[t] -= 1
                peer_bag[t] -= 1
    return hit, base

