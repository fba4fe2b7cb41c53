"""Pure-Python twin of ``_alignment``: both sides' positions of the LCS
rouge-score's table walk picks, and of rougeLsum's counted hits.

Same functions, same results, same errors, and the same algorithm, so the
same memory: the table of LCS lengths is never built. Row ``i`` of it is an
int over the columns whose bit ``j`` is 0 exactly when ``L[i][j+1] ==
L[i][j] + 1`` (``_lcs_py.lcs_step`` advances it), so ``L[i][j]`` is the
number of zero bits below ``j``. A forward pass keeps every K-th row; the
walk back (rouge-score's ``_backtrack_norec``: the diagonal on equal tokens,
else left when ``L[i][j-1] > L[i-1][j]``, else up) recomputes the K rows of
a block from its checkpoint when it enters it. K is m + 1 while every row
fits ``_FULL_TABLE_WORDS`` 64-bit words, else about sqrt(m + 1).
"""
from collections import Counter
from math import isqrt

from rougekit._core._ids_py import as_seq, check_ids, check_total
from rougekit._core._lcs_py import MatchMasks, lcs_step

__all__ = ["lcs_alignment", "summary_lcs_alignment"]

# As the compiled kernel's: every row kept while the rows fit this many
# 64-bit words; match masks kept for the most frequent column tokens within
# this many words, the others made per row.
_FULL_TABLE_WORDS = 1048576
_DENSE_BUDGET_WORDS = 1048576


def _column_masks(can):
    """The match masks over the columns ``can``, every token's kept while
    they fit ``_DENSE_BUDGET_WORDS`` (the most frequent first), as the
    compiled kernel keeps them."""
    return MatchMasks(can, dense_min=1, budget_words=_DENSE_BUDGET_WORDS)


def _align(ref, can, masks):
    """rouge-score's walk of the table of ``ref`` (rows) and ``can`` (the
    columns of ``masks``), both non-empty: (ref positions, can positions)."""
    m, n = len(ref), len(can)
    full = (1 << n) - 1
    words = (n + 63) >> 6
    K = m + 1 if m + 1 <= _FULL_TABLE_WORDS // words else isqrt(m) + 1

    def advance(S, q):
        mk = masks.get(ref[q])
        return lcs_step(S, mk, full) if mk else S

    # Forward pass: the checkpoints, and every row of the last block.
    checkpoints, block = [], []
    base = (m // K) * K
    S = full
    for i in range(m + 1):
        if i % K == 0:
            checkpoints.append(S)
        if i >= base:
            block.append(S)
        if i < m:
            S = advance(S, i)
    out = n - S.bit_count()
    pi, pj = [0] * out, [0] * out

    def fetch(r):
        """Row r; rows are fetched in decreasing order."""
        nonlocal base, block
        if r < base:
            base = (r // K) * K
            block = [checkpoints[base // K]]
            for q in range(base, min(base + K - 1, m)):
                block.append(advance(block[-1], q))
        return block[r - base]

    def below(S, j):  # L[row][j]
        return j - (S & ((1 << j) - 1)).bit_count()

    def step(S, k):  # L[row][k+1] - L[row][k]
        return ((S >> k) & 1) ^ 1

    # The walk from (m, n), keeping a = L[i][j] and b = L[i-1][j]; one
    # diagonal per LCS token (the other moves keep L), so done after out.
    i, j = m, n
    cur, prev = fetch(i), fetch(i - 1)
    a, b = below(cur, j), below(prev, j)
    k = out
    while k > 0:
        if i == 0 or j == 0:  # (never: L[i][j] = k > 0 here)
            raise RuntimeError("rougekit: the LCS walk left its table (a bug; please report it)")
        if ref[i - 1] == can[j - 1]:
            k -= 1
            pi[k], pj[k] = i - 1, j - 1
            i, j = i - 1, j - 1
            if k == 0:
                break
            a = b - step(prev, j)
        else:
            h = step(cur, j - 1)
            if a - h > b:  # L[i][j-1] > L[i-1][j]: left
                a, b, j = a - h, b - step(prev, j - 1), j - 1
                continue
            i -= 1
            a = b
        if i == 0:
            raise RuntimeError("rougekit: the LCS walk left its table (a bug; please report it)")
        cur, prev = prev, fetch(i - 1)
        b = below(prev, j)
    return pi, pj


def lcs_alignment(ref, can):
    """The LCS rouge-score's table walk picks (``_backtrack_norec`` on
    ``_lcs_table(ref, can)``), as ``(ref positions, can positions)``, both
    increasing: a pair per LCS token.

    >>> lcs_alignment([0, 1, 0], [0, 0])
    ([0, 2], [0, 1])
    >>> lcs_alignment([0, 1], [1, 0])   # the tie: rouge-score keeps the first
    ([0], [1])
    """
    ref, can = as_seq(ref), as_seq(can)
    bound = check_total(len(ref) + len(can))
    check_ids(ref, bound, "ref")
    check_ids(can, bound, "can")
    if not ref or not can:
        return [], []
    return _align(ref, can, _column_masks(can))


def summary_lcs_alignment(refs, cands):
    """rougeLsum's hits (rouge-score's ``_summary_level_lcs`` of the
    sentences ``refs`` and ``cands``), with their positions, as ``(ref
    positions, can positions)``: positions in the sentences laid end to end,
    the ref positions increasing. Per reference sentence, the union of its
    LCS with each candidate sentence (``_union_lcs``), each position in it
    counted while its token is left on both sides; its partner is its
    partner in the first candidate sentence whose LCS holds it.

    >>> summary_lcs_alignment([[0, 1, 2], [2, 0]], [[0, 2], [1, 2, 0]])
    ([0, 1, 2, 3, 4], [0, 2, 1, 1, 4])
    """
    refs = [as_seq(r) for r in refs]
    cands = [as_seq(c) for c in cands]
    bound = check_total(sum(map(len, refs)) + sum(map(len, cands)))
    for r in refs:
        check_ids(r, bound, "refs")
    for c in cands:
        check_ids(c, bound, "cands")
    ref_tokens = [t for r in refs for t in r]
    can_tokens = [t for c in cands for t in c]
    if not ref_tokens or not can_tokens:
        return [], []
    ref_starts, at = [], 0
    for r in refs:
        ref_starts.append(at)
        at += len(r)
    # partner[p]: the reference position p's partner, -1 while none. The
    # candidate sentences outside, so that each one's masks are made once;
    # for each reference position the first candidate sentence still wins.
    # open_[k]: the tokens of sentence k at positions without a partner yet,
    # with their counts. The walk gives a partner only to a position whose
    # token the candidate sentence holds: a sentence none of whose open
    # tokens it holds is skipped.
    partner = [-1] * len(ref_tokens)
    open_ = [Counter(r) for r in refs]
    can_start = 0
    for c in cands:
        if c:
            masks = _column_masks(c)
            for start, r, left in zip(ref_starts, refs, open_):
                if masks.holds_none_of(left):
                    continue
                for i, j in zip(*_align(r, c, masks)):
                    if partner[start + i] < 0:
                        partner[start + i] = can_start + j
                        left[r[i]] -= 1
                        if not left[r[i]]:
                            del left[r[i]]
        can_start += len(c)
    left_c, left_r = Counter(can_tokens), Counter(ref_tokens)
    hit_ref, hit_can = [], []
    for p, t in enumerate(ref_tokens):
        if partner[p] >= 0 and left_c[t] > 0 and left_r[t] > 0:
            left_c[t] -= 1
            left_r[t] -= 1
            hit_ref.append(p)
            hit_can.append(partner[p])
    return hit_ref, hit_can


def _set_limits(full_table_words, dense_budget_words):
    """Testing hook: keep every row while the table fits full_table_words
    (0: always checkpoint), and give the kept match masks at most
    dense_budget_words (0: every mask made per row). Returns the previous
    pair. Not thread-safe; tests only."""
    global _FULL_TABLE_WORDS, _DENSE_BUDGET_WORDS
    if full_table_words < 0 or dense_budget_words < 0:
        raise ValueError("full_table_words and dense_budget_words must be >= 0")
    old = (_FULL_TABLE_WORDS, _DENSE_BUDGET_WORDS)
    _FULL_TABLE_WORDS = full_table_words
    _DENSE_BUDGET_WORDS = dense_budget_words
    return old
