"""Pure-Python twin of ``_lcs``: LCS lengths, LCS positions, union LCS.

Same functions, same results, same errors: it runs where the extension is not
built, when ``ROUGEKIT_PURE_PYTHON=1`` is set, and as the oracle the compiled
core is fuzzed against. Rows of the LCS table are Python ints used as bit
vectors, so the pure backend is also bit-parallel (CPython does the word
loops) and needs no quadratic memory.

Row ``i`` of the LCS table over the columns of ``b`` is an int ``S`` whose bit
``j`` is 0 exactly when ``L[i][j+1] == L[i][j] + 1``. Starting from all ones,
a row advances with ``u = S & match; S = (S + u) | (S - u)`` (Allison-Dix,
Hyyro), where ``match`` has the bits of the columns equal to the row's token:
``lcs_step`` and ``lcs_of_masks`` (``_lcs.pxd``'s row step, in Python; the
index's twin runs them too).
"""
from collections import Counter
from math import isqrt

from rougekit._core._ids_py import as_seq as _seq
from rougekit._core._ids_py import check_ids as _check_ids
from rougekit._core._ids_py import check_total as _check_total

__all__ = ["lcs_length", "lcs_indices", "union_lcs", "summary_lcs_hits",
           "lcs_length_tokens", "summary_lcs_hits_tokens", "lcs_step", "lcs_of_masks"]

# Same threshold as the compiled core: above it, keep only checkpoint rows.
_FULL_TABLE_WORDS = 2097152


# Like the compiled core's ColIndex: ids with at least _DENSE_MIN columns keep
# a precomputed mask, the most frequent first, within _DENSE_BUDGET_WORDS
# 64-bit words; the others keep their column list and build the mask when a
# row needs it. Memory stays O(n + budget) however many distinct ids there are.
_DENSE_MIN = 8
_DENSE_BUDGET_WORDS = 4194304


def mask_of(columns, n):
    """The int with the bits of ``columns`` (column numbers below ``n``) set.

    >>> bin(mask_of([0, 2, 5], 6))
    '0b100101'
    """
    if len(columns) <= 2:
        m = 0
        for j in columns:
            m |= 1 << j
        return m
    bits = bytearray((n + 7) >> 3)
    for j in columns:
        bits[j >> 3] |= 1 << (j & 7)
    return int.from_bytes(bits, "little")


class MatchMasks:
    """Match masks over the columns ``b``: ``get(t)`` has bit j set where
    ``b[j] == t`` (0 when t is not in b). The masks of the tokens holding at
    least ``thr`` columns are made once, ``thr`` the least power-of-two
    multiple of ``dense_min`` that keeps them within ``budget_words`` 64-bit
    words; the others are made when a row asks (what the compiled kernels'
    column indexes do, each with its own two numbers).

    >>> masks = MatchMasks([4, 7, 4])
    >>> masks.get(4), masks.get(7), masks.get(9)
    (5, 2, 0)
    """

    __slots__ = ("n", "dense", "sparse")

    def __init__(self, b, dense_min=_DENSE_MIN, budget_words=_DENSE_BUDGET_WORDS):
        self.n = n = len(b)
        columns: dict = {}
        for j, t in enumerate(b):
            columns.setdefault(t, []).append(j)
        words = (n + 63) >> 6
        thr = dense_min
        while True:
            nd = sum(1 for c in columns.values() if len(c) >= thr)
            if nd * words <= budget_words:
                break
            thr *= 2
        self.dense = {t: mask_of(c, n) for t, c in columns.items() if len(c) >= thr}
        self.sparse = {t: c for t, c in columns.items() if len(c) < thr}

    def get(self, t):
        m = self.dense.get(t)
        if m is not None:
            return m
        c = self.sparse.get(t)
        return mask_of(c, self.n) if c is not None else 0

    def holds_none_of(self, tokens):
        """True when no token of ``tokens`` is among the columns."""
        return all(t not in self.dense and t not in self.sparse for t in tokens)


def lcs_step(S, m, full):
    """Row S advanced by the match mask m (rows of ``full``'s bits)."""
    u = S & m
    return ((S + u) | (S - u)) & full


def lcs_of_masks(masks, n, tokens):
    """The LCS length of ``tokens`` and a sequence of ``n`` columns given by
    its match masks (``masks.get(t)``: the bits of the columns holding t, or
    None or 0): one row per token.

    >>> lcs_of_masks({0: 0b101, 1: 0b010}, 3, [1, 0])   # [0, 1, 0] and [1, 0]
    2
    """
    full = (1 << n) - 1
    S = full
    for t in tokens:
        m = masks.get(t)
        if m:
            u = S & m
            S = ((S + u) | (S - u)) & full
    return n - S.bit_count()


def lcs_length(a, b):
    """Length of the longest common subsequence of two id sequences."""
    a, b = _seq(a), _seq(b)
    bound = _check_total(len(a) + len(b))
    _check_ids(a, bound, "a")
    _check_ids(b, bound, "b")
    if not a or not b:
        return 0
    return lcs_of_masks(MatchMasks(b), len(b), a)


def _mark_lcs(ref, can, marks):
    """Set marks[i] for every ref index on rouge-score's chosen LCS."""
    m, n = len(ref), len(can)
    if not m or not n:
        return
    masks = MatchMasks(can)
    full = (1 << n) - 1
    words = (n + 63) >> 6
    K = m + 1 if (m + 1) * words <= _FULL_TABLE_WORDS else max(isqrt(m + 1), 1) + 1

    def advance(S, i):
        mk = masks.get(ref[i])
        return lcs_step(S, mk, full) if mk else S

    # Forward pass: checkpoint rows, and every row of the last block.
    checkpoints, block = [], {}
    last_base = (m // K) * K
    S = full
    for i in range(m + 1):
        if i % K == 0:
            checkpoints.append(S)
        if i >= last_base:
            block[i] = S
        if i < m:
            S = advance(S, i)

    def row(r):
        if r not in block:
            block.clear()
            base = (r // K) * K
            S = checkpoints[r // K]
            for q in range(base, min(base + K - 1, m) + 1):
                block[q] = S
                if q < m:
                    S = advance(S, q)
        return block[r]

    def below(S, j):  # L[row][j]
        return j - (S & ((1 << j) - 1)).bit_count()

    def step(S, k):  # L[row][k+1] - L[row][k]
        return ((S >> k) & 1) ^ 1

    # rouge-score's _backtrack_norec, with a = L[i][j] and b = L[i-1][j].
    i, j = m, n
    cur, prev = row(i), row(i - 1)
    a, b = below(cur, j), below(prev, j)
    while True:
        if ref[i - 1] == can[j - 1]:
            marks[i - 1] = True
            i, j = i - 1, j - 1
            if i == 0 or j == 0:
                return
            a = b - step(prev, j)
        else:
            h = step(cur, j - 1)
            if a - h > b:
                a, b, j = a - h, b - step(prev, j - 1), j - 1
                if j == 0:
                    return
                continue
            i -= 1
            if i == 0:
                return
            a = b
        cur, prev = prev, row(i - 1)
        b = below(prev, j)


def union_lcs(ref, cands):
    """Sorted indices into ``ref`` on the union of its LCS with each candidate."""
    ref = _seq(ref)
    cands = [_seq(c) for c in cands]
    bound = _check_total(len(ref) + sum(map(len, cands)))
    _check_ids(ref, bound, "ref")
    marks = [False] * len(ref)
    for c in cands:
        _mark_lcs(ref, _check_ids(c, bound, "cands"), marks)
    return [i for i, hit in enumerate(marks) if hit]


def lcs_indices(ref, can):
    """Indices into ``ref`` of the LCS that rouge-score's ``lcs_ind`` picks."""
    return union_lcs(ref, [can])


def summary_lcs_hits(refs, cands):
    """rouge-score's summary-level LCS hit count for tokenized sentences."""
    refs = [_seq(r) for r in refs]
    cands = [_seq(c) for c in cands]
    bound = _check_total(sum(map(len, refs)) + sum(map(len, cands)))
    for r in refs:
        _check_ids(r, bound, "refs")
    for c in cands:
        _check_ids(c, bound, "cands")
    cnt_r = Counter(t for r in refs for t in r)
    cnt_c = Counter(t for c in cands for t in c)
    hits = 0
    for r in refs:
        marks = [False] * len(r)
        for c in cands:
            _mark_lcs(r, c, marks)
        for t, hit in zip(r, marks):
            if hit and cnt_c[t] > 0 and cnt_r[t] > 0:
                hits += 1
                cnt_c[t] -= 1
                cnt_r[t] -= 1
    return hits


def _numbered(tokens, ids):
    """Dense ids of hashable tokens, numbered through the dict ``ids``."""
    return [ids.setdefault(t, len(ids)) for t in tokens]


def lcs_length_tokens(a, b):
    """LCS length of two sequences of hashable tokens (matched as dict keys;
    an unhashable token raises TypeError)."""
    a, b = _seq(a), _seq(b)
    _check_total(len(a) + len(b))
    ids: dict = {}
    return lcs_length(_numbered(a, ids), _numbered(b, ids))


def summary_lcs_hits_tokens(refs, cands):
    """``summary_lcs_hits`` of sentences of hashable tokens."""
    ids: dict = {}
    r = [_numbered(_seq(s), ids) for s in refs]
    c = [_numbered(_seq(s), ids) for s in cands]
    _check_total(sum(map(len, r)) + sum(map(len, c)))
    return summary_lcs_hits(r, c)
