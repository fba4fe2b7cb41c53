# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled LCS alignments: both sides' positions of the LCS rouge-score's
table walk picks (rougeL), and of rougeLsum's counted union-LCS hits, what
``rougekit.explain`` shows. ``_alignment_py`` is the pure-Python twin and
the readable specification.

rouge-score reads an LCS off its table ``L`` of LCS lengths (``_lcs_table``,
then ``_backtrack_norec``): from the last cell, the diagonal on equal
tokens; otherwise left when ``L[i][j-1] > L[i-1][j]``, else up. The table is
never built here. Its rows are bit vectors over the columns, advanced by
``_lcs.pxd``'s row step (``L[i][j]`` is the number of zero bits of row i
below j); a forward pass keeps every K-th row, and the walk, going back up,
recomputes the K rows of a block from its checkpoint when it enters it and
evaluates the tie rule on them exactly. While every row fits in
FULL_TABLE_WORDS, K = m + 1 (one block); beyond, K is about sqrt(m + 1): memory
O(sqrt(m) * n / 64) words, time about twice the forward pass, O(m * n / 64).
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from cpython.pyport cimport PY_SSIZE_T_MAX

from rougekit._core._ids cimport check_total, ids_from, sentence_ids_from
from rougekit._core._lcs cimport lcs_advance, lcs_zeros_below
from rougekit._core._mem cimport grow_array, unmark

# Keep every row while the whole table of bit rows fits in this many words
# (8 MiB); beyond it, checkpoint every ~sqrt(m) rows.
cdef Py_ssize_t FULL_TABLE_WORDS = 1048576
# Precomputed match masks (the most frequent column tokens first) take at
# most this many words (8 MiB); the other tokens' masks are set per row.
cdef Py_ssize_t DENSE_BUDGET_WORDS = 1048576


ctypedef struct ColumnMasks:
    # How a row finds its match mask over the columns can[0:n]. head[id] is
    # -1 when id is not among them; >= 0, the first column holding it, and
    # nxt[col] the next such column (the mask is set in M from this list,
    # used and cleared); <= -2, the id's mask is row -2 - head[id] of dense
    # (W words each). The ids holding at least thr columns are dense, thr
    # the least power of two that keeps them within DENSE_BUDGET_WORDS: a
    # row costs O(W + thr).
    int32_t* head
    int32_t* nxt
    uint64_t* dense
    uint64_t* M
    Py_ssize_t W


ctypedef struct AlignScratch:
    # Buffers of one call, grown as needed, freed by align_scratch_free.
    # head holds -1 (vocab entries) and M zeros between two alignments.
    int32_t* head
    Py_ssize_t head_cap
    int32_t* nxt
    Py_ssize_t nxt_cap
    int32_t* occ
    Py_ssize_t occ_cap
    uint64_t* dense
    Py_ssize_t dense_cap
    uint64_t* M
    Py_ssize_t M_cap
    uint64_t* rows           # checkpoints, a block, and three rows
    Py_ssize_t rows_cap
    int32_t* pi              # one alignment's ref positions
    Py_ssize_t pi_cap
    int32_t* pj              # and its can positions
    Py_ssize_t pj_cap


cdef void align_scratch_free(AlignScratch* sc) noexcept nogil:
    free(sc.head)
    free(sc.nxt)
    free(sc.occ)
    free(sc.dense)
    free(sc.M)
    free(sc.rows)
    free(sc.pi)
    free(sc.pj)
    memset(sc, 0, sizeof(AlignScratch))


cdef int masks_build(ColumnMasks* cm, AlignScratch* sc, const int32_t* can,
                     Py_ssize_t n) noexcept nogil:
    """The match masks of the columns can[0:n] (n >= 1); sc.head has room
    for every id of can and holds -1 everywhere. Returns -1 when out of
    memory (sc.head then holds -1 again)."""
    cdef Py_ssize_t j, k, nd, thr, W = (n + 63) >> 6
    cdef int32_t p, c
    if (grow_array(<void**>&sc.nxt, &sc.nxt_cap, n, sizeof(int32_t), -1) < 0
            or grow_array(<void**>&sc.occ, &sc.occ_cap, n, sizeof(int32_t), -1) < 0
            or grow_array(<void**>&sc.M, &sc.M_cap, W, sizeof(uint64_t), 0) < 0):
        return -1
    cm.head = sc.head
    cm.nxt = sc.nxt
    cm.M = sc.M
    cm.W = W
    cm.dense = NULL
    for j in range(n - 1, -1, -1):
        sc.nxt[j] = sc.head[can[j]]
        sc.head[can[j]] = <int32_t>j
    # occ[j]: the number of columns holding can[j] at its first column, -1
    # at the others.
    nd = 0
    for j in range(n):
        sc.occ[j] = -1
        if sc.head[can[j]] == j:
            c = 0
            p = <int32_t>j
            while p >= 0:
                c += 1
                p = sc.nxt[p]
            sc.occ[j] = c
            nd += 1
    thr = 1
    while nd > 0 and nd > DENSE_BUDGET_WORDS // W:
        thr *= 2
        nd = 0
        for j in range(n):
            if sc.occ[j] >= thr:
                nd += 1
    if nd == 0:
        return 0
    if grow_array(<void**>&sc.dense, &sc.dense_cap, nd * W, sizeof(uint64_t), -1) < 0:
        unmark(sc.head, can, n)
        return -1
    cm.dense = sc.dense
    memset(sc.dense, 0, nd * W * sizeof(uint64_t))
    k = 0
    for j in range(n):
        if sc.occ[j] >= thr:
            sc.head[can[j]] = <int32_t>(-2 - k)
            k += 1
    for j in range(n):
        p = sc.head[can[j]]
        if p <= -2:
            sc.dense[(-2 - p) * W + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    return 0


cdef inline void advance(const ColumnMasks* cm, int32_t t, uint64_t* S) noexcept nogil:
    """Row S advanced by the row token t."""
    cdef int32_t p = cm.head[t], q
    if p == -1:
        return                          # no match: the row is unchanged
    if p <= -2:
        lcs_advance(S, cm.dense + (-2 - p) * cm.W, cm.W)
        return
    q = p
    while q >= 0:
        cm.M[q >> 6] |= (<uint64_t>1) << (q & 63)
        q = cm.nxt[q]
    lcs_advance(S, cm.M, cm.W)
    while p >= 0:
        cm.M[p >> 6] = 0
        p = cm.nxt[p]


cdef inline int step(const uint64_t* S, Py_ssize_t k) noexcept nogil:
    """L[row][k+1] - L[row][k] of row S: 0 or 1."""
    return <int>(((S[k >> 6] >> (k & 63)) & 1) ^ 1)


cdef void load_block(const int32_t* ref, Py_ssize_t m, const ColumnMasks* cm,
                     const uint64_t* ck, uint64_t* blk, Py_ssize_t K,
                     Py_ssize_t base) noexcept nogil:
    """Rows base .. min(base + K - 1, m) into blk, from the checkpoint of row
    base (a multiple of K)."""
    cdef Py_ssize_t W = cm.W, q, top = base + K - 1
    if top > m:
        top = m
    memcpy(blk, ck + (base // K) * W, W * sizeof(uint64_t))
    for q in range(base, top):
        memcpy(blk + (q + 1 - base) * W, blk + (q - base) * W, W * sizeof(uint64_t))
        advance(cm, ref[q], blk + (q + 1 - base) * W)


cdef inline Py_ssize_t fetch_row(const int32_t* ref, Py_ssize_t m, const ColumnMasks* cm,
                                  const uint64_t* ck, uint64_t* blk, Py_ssize_t K,
                                  Py_ssize_t base, Py_ssize_t r, uint64_t* dst) noexcept nogil:
    """Row r into dst, from the block at base, or from the block holding r
    recomputed when r is below base (rows are fetched in decreasing order).
    Returns the base of the block now held."""
    if r < base:
        base = (r // K) * K
        load_block(ref, m, cm, ck, blk, K, base)
    memcpy(dst, blk + (r - base) * cm.W, cm.W * sizeof(uint64_t))
    return base


cdef Py_ssize_t align(const int32_t* ref, Py_ssize_t m, const int32_t* can, Py_ssize_t n,
                      const ColumnMasks* cm, AlignScratch* sc) noexcept nogil:
    """rouge-score's walk of the table of ref (rows) and can (the columns of
    cm), m, n >= 1: its pairs (ref position, can position) into sc.pi and
    sc.pj in increasing order. Returns their number (the LCS length), -1
    when out of memory, -2 if the walk left the table (a bug: it cannot)."""
    cdef Py_ssize_t W = cm.W, K, nck, i, j, base, out, k
    cdef int64_t a, bv
    cdef int h
    cdef uint64_t* tmp
    if m + 1 <= FULL_TABLE_WORDS // W:
        K = m + 1
    else:
        K = 1
        while K * K < m + 1:
            K += 1
    nck = m // K + 1
    # nck checkpoints, the K rows of a block, the forward row and the walk's
    # rows i and i - 1: at most 2 * sqrt(m + 1) + 5 rows, or m + 4.
    if nck + K + 3 > PY_SSIZE_T_MAX // <Py_ssize_t>sizeof(uint64_t) // W:
        return -1
    if grow_array(<void**>&sc.rows, &sc.rows_cap, (nck + K + 3) * W, sizeof(uint64_t), -1) < 0:
        return -1
    cdef uint64_t* ck = sc.rows
    cdef uint64_t* blk = ck + nck * W
    cdef uint64_t* S = blk + K * W
    cdef uint64_t* cur = S + W
    cdef uint64_t* prev = cur + W

    # Forward pass: the checkpoints, and every row of the last block.
    base = (m // K) * K
    memset(S, 0xFF, W * sizeof(uint64_t))
    for i in range(m + 1):
        if i % K == 0:
            memcpy(ck + (i // K) * W, S, W * sizeof(uint64_t))
        if i >= base:
            memcpy(blk + (i - base) * W, S, W * sizeof(uint64_t))
        if i < m:
            advance(cm, ref[i], S)
    out = lcs_zeros_below(S, n)
    if out == 0:
        return 0
    if (grow_array(<void**>&sc.pi, &sc.pi_cap, out, sizeof(int32_t), -1) < 0
            or grow_array(<void**>&sc.pj, &sc.pj_cap, out, sizeof(int32_t), -1) < 0):
        return -1

    # The walk from (m, n), keeping a = L[i][j] and bv = L[i-1][j]. It takes
    # one diagonal per LCS token (the other moves keep L), so it is done
    # when it has taken out of them.
    i = m
    j = n
    base = fetch_row(ref, m, cm, ck, blk, K, base, i, cur)
    base = fetch_row(ref, m, cm, ck, blk, K, base, i - 1, prev)
    a = lcs_zeros_below(cur, j)
    bv = lcs_zeros_below(prev, j)
    k = out
    while k > 0:
        if i == 0 or j == 0:
            return -2                   # (never: L[i][j] = k > 0 here)
        if ref[i - 1] == can[j - 1]:
            k -= 1
            sc.pi[k] = <int32_t>(i - 1)
            sc.pj[k] = <int32_t>(j - 1)
            i -= 1
            j -= 1
            if k == 0:
                break
            a = bv - step(prev, j)
        else:
            h = step(cur, j - 1)
            if a - h > bv:
                # L[i][j-1] > L[i-1][j]: left.
                a -= h
                bv -= step(prev, j - 1)
                j -= 1
                continue
            i -= 1
            a = bv
        if i == 0:
            return -2
        # Row i is the old row i - 1; fetch the new row i - 1.
        tmp = cur
        cur = prev
        prev = tmp
        base = fetch_row(ref, m, cm, ck, blk, K, base, i - 1, prev)
        bv = lcs_zeros_below(prev, j)
    return out


cdef int reserve(AlignScratch* sc, Py_ssize_t vocab) noexcept nogil:
    """sc.head with room for ids < vocab, -1 in each entry."""
    return grow_array(<void**>&sc.head, &sc.head_cap, vocab if vocab > 0 else 1,
                      sizeof(int32_t), 0xFF)


cdef Py_ssize_t lcs_alignment_ids(const int32_t* ref, Py_ssize_t m,
                                  const int32_t* can, Py_ssize_t n, Py_ssize_t vocab,
                                  AlignScratch* sc) noexcept nogil:
    """align() of ref and can (ids < vocab, any lengths): the pairs in sc.pi
    and sc.pj; their number, or align's -1 or -2."""
    cdef ColumnMasks cm
    cdef Py_ssize_t out
    if m == 0 or n == 0:
        return 0
    if reserve(sc, vocab) < 0 or masks_build(&cm, sc, can, n) < 0:
        return -1
    out = align(ref, m, can, n, &cm, sc)
    unmark(sc.head, can, n)
    return out


cdef Py_ssize_t summary_alignment_ids(const int32_t* rtok, const Py_ssize_t* roff,
                                      Py_ssize_t nr,
                                      const int32_t* ctok, const Py_ssize_t* coff,
                                      Py_ssize_t nc, Py_ssize_t vocab, AlignScratch* sc,
                                      int32_t* hit_ref, int32_t* hit_can) noexcept nogil:
    """rougeLsum's counted hits (rouge-score's _summary_level_lcs), with
    the positions: for each reference position (sentence k is
    rtok[roff[k]:roff[k+1]]), its partner in the first candidate sentence
    whose LCS with its sentence holds it; then, in order, each position that
    has one counted while its token is left on both sides. Writes the hits'
    reference positions and partners (positions in ctok) to hit_ref and
    hit_can (room for roff[nr] each). Returns the number of hits, or align's
    -1 or -2."""
    cdef Py_ssize_t m = roff[nr], n = coff[nc], q, k, t, p, L = 0, hits = 0
    cdef ColumnMasks cm
    cdef int32_t tok
    if m == 0 or n == 0:
        return 0
    # partner[p]: p's partner, -1 while none; cnt: the tokens left, the
    # candidate's at id, the reference's at vocab + id.
    cdef int32_t* partner = <int32_t*>malloc(m * sizeof(int32_t))
    cdef int32_t* cnt = <int32_t*>malloc(2 * vocab * sizeof(int32_t))
    if partner == NULL or cnt == NULL or reserve(sc, vocab) < 0:
        free(partner)
        free(cnt)
        return -1
    memset(partner, 0xFF, m * sizeof(int32_t))
    # Candidate sentences outside, so that each one's masks are built once;
    # for each reference position the first candidate sentence still wins.
    for q in range(nc):
        if coff[q + 1] == coff[q]:
            continue
        if masks_build(&cm, sc, ctok + coff[q], coff[q + 1] - coff[q]) < 0:
            L = -1
            break
        for k in range(nr):
            # The walk gives a partner only to a position whose token the
            # candidate sentence holds: skip it when each of those has one.
            for p in range(roff[k], roff[k + 1]):
                if partner[p] < 0 and sc.head[rtok[p]] != -1:
                    break
            else:
                continue
            L = align(rtok + roff[k], roff[k + 1] - roff[k], ctok + coff[q],
                      coff[q + 1] - coff[q], &cm, sc)
            if L < 0:
                break
            for t in range(L):
                p = roff[k] + sc.pi[t]
                if partner[p] < 0:
                    partner[p] = <int32_t>(coff[q] + sc.pj[t])
        unmark(sc.head, ctok + coff[q], coff[q + 1] - coff[q])
        if L < 0:
            break
    if L >= 0:
        memset(cnt, 0, 2 * vocab * sizeof(int32_t))
        for p in range(n):
            cnt[ctok[p]] += 1
        for p in range(m):
            cnt[vocab + rtok[p]] += 1
        for p in range(m):
            tok = rtok[p]
            if partner[p] >= 0 and cnt[tok] > 0 and cnt[vocab + tok] > 0:
                cnt[tok] -= 1
                cnt[vocab + tok] -= 1
                hit_ref[hits] = <int32_t>p
                hit_can[hits] = partner[p]
                hits += 1
    free(partner)
    free(cnt)
    return hits if L >= 0 else L


cdef int raise_for(Py_ssize_t status) except -1:
    """A kernel's failure as its Python exception."""
    if status == -1:
        raise MemoryError()
    if status < 0:
        raise RuntimeError("rougekit: the LCS walk left its table (a bug; please report it)")
    return 0


# ---------------------------------------------------------------------------
# Python entry points. Token ids must be ints in [0, number of tokens given):
# the Python layer numbers tokens densely per text pair.

def lcs_alignment(ref, can):
    """The LCS rouge-score's table walk picks (``_backtrack_norec`` on
    ``_lcs_table(ref, can)``), as ``(ref positions, can positions)``, both
    increasing: a pair per LCS token.

    >>> lcs_alignment([0, 1, 0], [0, 0])
    ([0, 2], [0, 1])
    >>> lcs_alignment([0, 1], [1, 0])   # the tie: rouge-score keeps the first
    ([0], [1])
    """
    ref = ref if isinstance(ref, (list, tuple)) else list(ref)
    can = can if isinstance(can, (list, tuple)) else list(can)
    cdef Py_ssize_t bound = check_total(len(ref) + len(can)), m, n, out, k
    cdef AlignScratch sc
    memset(&sc, 0, sizeof(AlignScratch))
    cdef int32_t* ir = ids_from(ref, &m, bound, "ref")
    cdef int32_t* ic = NULL
    try:
        ic = ids_from(can, &n, bound, "can")
        with nogil:
            out = lcs_alignment_ids(ir, m, ic, n, bound, &sc)
        raise_for(out)
        return [sc.pi[k] for k in range(out)], [sc.pj[k] for k in range(out)]
    finally:
        align_scratch_free(&sc)
        free(ir)
        free(ic)


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
    refs = [r if isinstance(r, (list, tuple)) else list(r) for r in refs]
    cands = [c if isinstance(c, (list, tuple)) else list(c) for c in cands]
    cdef Py_ssize_t bound = 0, nr = len(refs), nc = len(cands), hits, k
    for s in refs:
        bound += len(s)
    for s in cands:
        bound += len(s)
    check_total(bound)
    cdef AlignScratch sc
    memset(&sc, 0, sizeof(AlignScratch))
    cdef int32_t* rtok = NULL
    cdef int32_t* ctok = NULL
    cdef Py_ssize_t* coff = NULL
    cdef Py_ssize_t* roff = sentence_ids_from(refs, &rtok, bound, "refs")
    cdef int32_t* hit_ref = NULL
    cdef int32_t* hit_can = NULL
    try:
        coff = sentence_ids_from(cands, &ctok, bound, "cands")
        hit_ref = <int32_t*>malloc((roff[nr] + 1) * sizeof(int32_t))
        hit_can = <int32_t*>malloc((roff[nr] + 1) * sizeof(int32_t))
        if hit_ref == NULL or hit_can == NULL:
            raise MemoryError()
        with nogil:
            hits = summary_alignment_ids(rtok, roff, nr, ctok, coff, nc, bound, &sc,
                                         hit_ref, hit_can)
        raise_for(hits)
        return [hit_ref[k] for k in range(hits)], [hit_can[k] for k in range(hits)]
    finally:
        align_scratch_free(&sc)
        free(rtok)
        free(ctok)
        free(roff)
        free(coff)
        free(hit_ref)
        free(hit_can)


def _set_limits(Py_ssize_t full_table_words, Py_ssize_t dense_budget_words):
    """Testing hook: keep every row while the table fits full_table_words
    (0: always checkpoint), and give the precomputed match masks at most
    dense_budget_words (0: every mask set per row). Returns the previous
    pair. Not thread-safe; tests only."""
    global FULL_TABLE_WORDS, DENSE_BUDGET_WORDS
    if full_table_words < 0 or dense_budget_words < 0:
        raise ValueError("full_table_words and dense_budget_words must be >= 0")
    old = (FULL_TABLE_WORDS, DENSE_BUDGET_WORDS)
    FULL_TABLE_WORDS = full_table_words
    DENSE_BUDGET_WORDS = dense_budget_words
    return old
