# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled longest-common-subsequence kernels on integer token ids.

The table of LCS lengths is never built. Each row of it is a bit vector
over the columns, advanced by a handful of word operations per 64 columns
(``_lcs.pxd``: the row step, shared with ``_match_masks.pxd``); rougeLsum's
union LCS of sentences that fit in one word is ``_lcs_one_word.pxd``.

``lcs_mark_ids`` reads out the same LCS as rouge-score's table walk (take a
match; else move left only when the left cell is strictly greater than the
cell above; else move up). It needs every row on the way back, so rows are
kept at checkpoints and each block between two checkpoints is recomputed
once, when the walk enters it: memory O(sqrt(m) * n / 64) words for large
inputs, time at most twice the forward pass.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from rougekit._core._ids cimport (TokenTable, check_total, ids_from, ids_of_tokens,
                                 sentence_ids_from, token_table_free, token_table_init)
from rougekit._core._mem cimport grow_array, unmark

from rougekit._core._lcs_one_word cimport columns_one_word, union_one_word, union_segments

cdef extern from "bits.h" nogil:
    int rk_low_bit64(uint64_t x)

cdef extern from "walk.h" nogil:
    void rk_x86_64_v3_init()
    int rk_set_x86_64_v3(int on)

rk_x86_64_v3_init()


def _set_x86_64_v3(bint on):
    """Testing hook: walk rougeLsum's LCS with the x86-64-v3 loop (on, where
    the CPU has it: LZCNT and BMI2) or the baseline one. Returns whether the
    x86-64-v3 loop is taken now. Not thread-safe; tests only."""
    return bool(rk_set_x86_64_v3(on))

# Keep every row when the whole table of bit rows fits in this many words
# (16 MiB); beyond it, checkpoint every ~sqrt(m) rows.
cdef Py_ssize_t FULL_TABLE_WORDS = 2097152
cdef uint64_t ONES = ~(<uint64_t>0)


# Column index of one LCS problem: how a row finds its match mask.
# head[id] is -1 when id is not among the columns; >= 0, the first column
# holding id, and nxt[col] the next such column (sparse ids: the row's mask is
# set from this list, used, and cleared); <= -2, the id's precomputed mask is
# row -2 - head[id] of dense (W words). Ids with at least DENSE_MIN columns get
# a dense mask, the most frequent first, within DENSE_BUDGET_WORDS; so a row
# costs O(W + min(occurrences, sparse bound)) with a small vocabulary too.
ctypedef struct ColIndex:
    int32_t* head
    int32_t* nxt
    uint64_t* dense
    uint64_t* M          # W zeroed words: a sparse row's mask
    Py_ssize_t W


ctypedef struct RowStore:
    # Rows 0..m of one (ref, can) table as bit vectors, W words each:
    # checkpoints at multiples of K, and the K rows of one block.
    const int32_t* ref
    const ColIndex* ci
    uint64_t* ck
    uint64_t* blk
    uint64_t* M
    Py_ssize_t W, K, m, base


cdef inline int _step(const uint64_t* S, Py_ssize_t k) noexcept nogil:
    """L[row][k+1] - L[row][k], 0 or 1."""
    return <int>(((S[k >> 6] >> (k & 63)) & 1) ^ 1)


cdef Py_ssize_t DENSE_MIN = 8
cdef Py_ssize_t DENSE_BUDGET_WORDS = 4194304      # 32 MiB


cdef inline void _set_bits(uint64_t* M, const int32_t* nxt, int32_t p) noexcept nogil:
    while p >= 0:
        M[p >> 6] |= (<uint64_t>1) << (p & 63)
        p = nxt[p]


cdef inline void _clear_bits(uint64_t* M, const int32_t* nxt, int32_t p) noexcept nogil:
    while p >= 0:
        M[p >> 6] = 0
        p = nxt[p]


cdef int _index_columns(ColIndex* ci, const int32_t* b, Py_ssize_t nb,
                        int32_t* head, int32_t* nxt, uint64_t* M) noexcept nogil:
    """Fill ci for columns b (see ColIndex); head holds -1 everywhere on
    entry. Returns -1 when out of memory (head is then restored)."""
    cdef Py_ssize_t j, k, nd, thr, cnt
    cdef int32_t p, c
    cdef int32_t* occ
    ci.head = head
    ci.nxt = nxt
    ci.dense = NULL
    ci.M = M
    ci.W = (nb + 63) >> 6
    for j in range(nb - 1, -1, -1):
        nxt[j] = head[b[j]]
        head[b[j]] = <int32_t>j
    if nb < DENSE_MIN:
        return 0
    # occ[j]: the number of columns holding b[j], at the first such column
    # (the others: -1); nd ids have at least DENSE_MIN.
    occ = <int32_t*>malloc(nb * sizeof(int32_t))
    if occ == NULL:
        unmark(head, b, nb)
        return -1
    nd = 0
    for j in range(nb):
        occ[j] = -1
        if head[b[j]] == j:
            c = 0
            p = <int32_t>j
            while p >= 0:
                c += 1
                p = nxt[p]
            occ[j] = c
            if c >= DENSE_MIN:
                nd += 1
    # Raise the threshold until the dense rows fit the budget.
    thr = DENSE_MIN
    while nd > 0 and nd * ci.W > DENSE_BUDGET_WORDS:
        thr *= 2
        nd = 0
        for j in range(nb):
            if occ[j] >= thr:
                nd += 1
    if nd > 0:
        ci.dense = <uint64_t*>calloc(nd * ci.W, sizeof(uint64_t))
        if ci.dense == NULL:
            free(occ)
            unmark(head, b, nb)
            return -1
        k = 0
        for j in range(nb):
            if occ[j] >= thr:
                head[b[j]] = <int32_t>(-2 - k)
                k += 1
        for j in range(nb):
            p = head[b[j]]
            if p <= -2:
                ci.dense[(-2 - p) * ci.W + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    free(occ)
    return 0


cdef inline void _release_index(ColIndex* ci, const int32_t* b, Py_ssize_t nb) noexcept nogil:
    unmark(ci.head, b, nb)
    free(ci.dense)
    ci.dense = NULL


cdef inline void _row(const ColIndex* ci, int32_t t, uint64_t* S) noexcept nogil:
    """Advance row S over the columns by one token t."""
    cdef int32_t p = ci.head[t]
    if p == -1:
        return                          # no match: the row is unchanged
    if p <= -2:
        lcs_advance(S, ci.dense + (-2 - p) * ci.W, ci.W)
    else:
        _set_bits(ci.M, ci.nxt, p)
        lcs_advance(S, ci.M, ci.W)
        _clear_bits(ci.M, ci.nxt, p)


cdef inline uint64_t _mask64(const ColIndex* ci, int32_t t) noexcept nogil:
    """The match mask of t when the columns fit in one word."""
    cdef int32_t p = ci.head[t]
    cdef uint64_t m64 = 0
    if p <= -2:
        return ci.dense[-2 - p]
    while p >= 0:
        m64 |= (<uint64_t>1) << p
        p = ci.nxt[p]
    return m64


cdef Py_ssize_t lcs_length_ids(const int32_t* a, Py_ssize_t na,
                               const int32_t* b, Py_ssize_t nb,
                               int32_t* head) noexcept nogil:
    cdef Py_ssize_t i, W, z
    cdef uint64_t s
    cdef ColIndex ci
    if na == 0 or nb == 0:
        return 0
    # Bit vectors run over the columns: the longer text when it fits in one
    # word (one word op per row), the shorter one otherwise.
    if (na > nb and na <= 64) or (nb > 64 and na < nb):
        a, na, b, nb = b, nb, a, na
    W = (nb + 63) >> 6
    # nxt (nb), then S and M (W words each).
    cdef int32_t* nxt = <int32_t*>malloc(nb * sizeof(int32_t))
    cdef uint64_t* S = <uint64_t*>malloc(2 * W * sizeof(uint64_t))
    if nxt == NULL or S == NULL or _index_columns(&ci, b, nb, head, nxt, S + W) < 0:
        free(nxt)
        free(S)
        return -1
    if W == 1:
        s = ONES
        for i in range(na):
            if head[a[i]] != -1:
                s = lcs_step64(s, _mask64(&ci, a[i]))
        z = lcs_zeros_below(&s, nb)
    else:
        memset(S, 0xFF, W * sizeof(uint64_t))
        memset(S + W, 0, W * sizeof(uint64_t))
        for i in range(na):
            _row(&ci, a[i], S)
        z = lcs_zeros_below(S, nb)
    _release_index(&ci, b, nb)
    free(S)
    free(nxt)
    return z


cdef void _load_block(RowStore* st, Py_ssize_t r) noexcept nogil:
    """Recompute the block holding row r from its checkpoint."""
    cdef Py_ssize_t W = st.W, base = (r // st.K) * st.K, top, q
    top = base + st.K - 1
    if top > st.m:
        top = st.m
    memcpy(st.blk, st.ck + (base // st.K) * W, W * sizeof(uint64_t))
    for q in range(base, top):
        memcpy(st.blk + (q + 1 - base) * W, st.blk + (q - base) * W, W * sizeof(uint64_t))
        _row(st.ci, st.ref[q], st.blk + (q + 1 - base) * W)
    st.base = base


cdef inline void _fetch_row(RowStore* st, Py_ssize_t r, uint64_t* dst) noexcept nogil:
    """Copy row r into dst; rows are fetched in decreasing order."""
    if r < st.base:
        _load_block(st, r)
    memcpy(dst, st.blk + (r - st.base) * st.W, st.W * sizeof(uint64_t))


cdef int lcs_mark_ids(const int32_t* ref, Py_ssize_t m,
                      const int32_t* can, Py_ssize_t n,
                      int32_t* head, char* marks) noexcept nogil:
    """Set marks[i] for every ref index i on rouge-score's chosen LCS."""
    if m == 0 or n == 0:
        return 0
    cdef Py_ssize_t W = (n + 63) >> 6
    cdef Py_ssize_t K, nck, i, j
    cdef int64_t a, bv
    cdef int h
    cdef ColIndex ci
    if (m + 1) * W <= FULL_TABLE_WORDS:
        K = m + 1
    else:
        K = 1
        while K * K < m + 1:
            K += 1
    nck = m // K + 1
    cdef int32_t* nxt = <int32_t*>malloc(n * sizeof(int32_t))
    cdef uint64_t* buf = <uint64_t*>malloc((nck + K + 4) * W * sizeof(uint64_t))
    if nxt == NULL or buf == NULL:
        free(nxt)
        free(buf)
        return -1
    cdef RowStore st
    st.ref = ref
    st.ci = &ci
    st.ck = buf                          # nck checkpoint rows
    st.blk = st.ck + nck * W             # K rows of the current block
    st.M = st.blk + K * W                # match mask of one row
    st.W = W
    st.K = K
    st.m = m
    st.base = (m // K) * K
    cdef uint64_t* S = st.M + W          # forward-pass row
    cdef uint64_t* cur = S + W           # row i during the walk
    cdef uint64_t* prev = cur + W        # row i - 1 during the walk
    cdef uint64_t* tmp
    memset(st.M, 0, W * sizeof(uint64_t))
    if _index_columns(&ci, can, n, head, nxt, st.M) < 0:
        free(nxt)
        free(buf)
        return -1

    # Forward pass: checkpoints, and every row of the last block.
    memset(S, 0xFF, W * sizeof(uint64_t))
    for i in range(m + 1):
        if i % K == 0:
            memcpy(st.ck + (i // K) * W, S, W * sizeof(uint64_t))
        if i >= st.base:
            memcpy(st.blk + (i - st.base) * W, S, W * sizeof(uint64_t))
        if i < m:
            _row(&ci, ref[i], S)

    # Walk back from (m, n) as rouge-score's _backtrack_norec does, keeping
    # a = L[i][j] and bv = L[i-1][j].
    i = m
    j = n
    _fetch_row(&st, i, cur)
    _fetch_row(&st, i - 1, prev)
    a = lcs_zeros_below(cur, j)
    bv = lcs_zeros_below(prev, j)
    while True:
        if ref[i - 1] == can[j - 1]:
            marks[i - 1] = 1
            i -= 1
            j -= 1
            if i == 0 or j == 0:
                break
            a = bv - _step(prev, j)
        else:
            h = _step(cur, j - 1)
            if a - h > bv:
                # L[i][j-1] > L[i-1][j]: move left.
                a -= h
                bv -= _step(prev, j - 1)
                j -= 1
                if j == 0:
                    break
                continue
            i -= 1
            if i == 0:
                break
            a = bv
        # Row i is the old row i - 1; fetch the new row i - 1.
        tmp = cur
        cur = prev
        prev = tmp
        _fetch_row(&st, i - 1, prev)
        bv = lcs_zeros_below(prev, j)

    _release_index(&ci, can, n)
    free(nxt)
    free(buf)
    return 0


# Reference sentences of at most this many tokens take the one-word path
# (64; tests set 0 to force the general path everywhere).
cdef Py_ssize_t ONE_WORD_MAX = 64


cdef enum:
    # lcs_length_scratch keeps a mask table of vocab * W words while the bit
    # side has at most this many words (512 tokens); beyond, lcs_length_ids.
    PM_MAX_WORDS = 8


cdef inline void _clear_masks(uint64_t* pm, const int32_t* b, Py_ssize_t nb,
                              Py_ssize_t W) noexcept nogil:
    """lcs_length_scratch's mask table (W words an id, W = 1 or 2) back to
    zeros after the columns b set their bits in it: two columns an
    iteration (half the loop's own instructions). (Not a memset of the
    table, even when it is small: glibc's memset stores 2 KiB or more with
    rep stosb, which callgrind counts as an instruction a byte.)"""
    cdef Py_ssize_t j
    if W == 1:
        for j in range(0, nb - 1, 2):
            pm[b[j]] = 0
            pm[b[j + 1]] = 0
        pm[b[nb - 1]] = 0
        return
    for j in range(0, nb - 1, 2):
        pm[<Py_ssize_t>b[j] << 1] = 0
        pm[(<Py_ssize_t>b[j] << 1) + 1] = 0
        pm[<Py_ssize_t>b[j + 1] << 1] = 0
        pm[(<Py_ssize_t>b[j + 1] << 1) + 1] = 0
    pm[<Py_ssize_t>b[nb - 1] << 1] = 0
    pm[(<Py_ssize_t>b[nb - 1] << 1) + 1] = 0


cdef Py_ssize_t lcs_length_scratch(const int32_t* a, Py_ssize_t na,
                                   const int32_t* b, Py_ssize_t nb,
                                   Py_ssize_t vocab, LcsScratch* sc) noexcept nogil:
    """lcs_length_ids using the caller's zeroed mask table (sc.pm) instead of
    allocating and indexing the columns; ids < vocab."""
    cdef Py_ssize_t i, j, w, W
    cdef uint64_t s0, s1, bit
    cdef uint64_t S[PM_MAX_WORDS]
    cdef uint64_t* pm
    cdef uint64_t* m
    if na == 0 or nb == 0:
        return 0
    # Bit vectors over the shorter text.
    if na < nb:
        a, na, b, nb = b, nb, a, na
    W = (nb + 63) >> 6
    if W > PM_MAX_WORDS:
        return lcs_length_ids(a, na, b, nb, sc.head) if \
            grow_array(<void**>&sc.head, &sc.head_cap, vocab + 1, sizeof(int32_t), 0xFF) == 0 \
            else -1
    if grow_array(<void**>&sc.pm, &sc.pm_cap, vocab * W + 1, sizeof(uint64_t), 0) < 0:
        return -1
    pm = sc.pm
    if W == 1:
        # (the common case, its own loops: no multiply by W per token)
        bit = 1
        for j in range(nb):
            pm[b[j]] |= bit
            bit <<= 1
        s0 = ONES
        for i in range(na):
            s0 = lcs_step64(s0, pm[a[i]])
        _clear_masks(pm, b, nb, 1)
        return lcs_zeros_below64(s0, nb)
    if W == 2:
        # (the 65 to 128 column case: the row in two registers, the table's
        # index a shift)
        # (two columns an iteration, the bit shifted along, not made anew)
        bit = 1
        for j in range(0, 64, 2):
            pm[<Py_ssize_t>b[j] << 1] |= bit
            pm[<Py_ssize_t>b[j + 1] << 1] |= bit << 1
            bit <<= 2
        bit = 1
        for j in range(64, nb):
            pm[(<Py_ssize_t>b[j] << 1) + 1] |= bit
            bit <<= 1
        s0 = ONES
        s1 = ONES
        # two rows an iteration (half the loop's own instructions)
        for i in range(0, na - 1, 2):
            m = pm + (<Py_ssize_t>a[i] << 1)
            lcs_step128(&s0, &s1, m[0], m[1])
            m = pm + (<Py_ssize_t>a[i + 1] << 1)
            lcs_step128(&s0, &s1, m[0], m[1])
        if na & 1:
            m = pm + (<Py_ssize_t>a[na - 1] << 1)
            lcs_step128(&s0, &s1, m[0], m[1])
        _clear_masks(pm, b, nb, 2)
        S[0] = s0
        S[1] = s1
        return lcs_zeros_below(S, nb)
    for j in range(nb):
        pm[<Py_ssize_t>b[j] * W + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    for w in range(W):
        S[w] = ONES
    for i in range(na):
        lcs_advance(S, pm + <Py_ssize_t>a[i] * W, W)
    for j in range(nb):
        pm[<Py_ssize_t>b[j] * W + (j >> 6)] = 0
    return lcs_zeros_below(S, nb)


cdef void lcs_scratch_free(LcsScratch* sc) noexcept nogil:
    free(sc.pm)
    free(sc.cnt)
    free(sc.head)
    free(sc.marks)
    free(sc.rows)
    memset(sc, 0, sizeof(LcsScratch))


cdef int64_t summary_hits_ids(const int32_t* rtok, const Py_ssize_t* roff,
                              Py_ssize_t nr,
                              const int32_t* ctok, const Py_ssize_t* coff,
                              Py_ssize_t nc, Py_ssize_t vocab) noexcept nogil:
    """summary_hits_scratch with scratch buffers of its own."""
    cdef LcsScratch sc
    memset(&sc, 0, sizeof(LcsScratch))
    cdef int64_t hits = summary_hits_scratch(rtok, roff, nr, ctok, coff, nc, vocab, &sc)
    lcs_scratch_free(&sc)
    return hits


cdef int lcs_scratch_reserve(LcsScratch* sc, Py_ssize_t vocab,
                             Py_ssize_t maxlen) noexcept nogil:
    """Room in sc for lcs_union_marks on ids < vocab and sentences of at
    most maxlen tokens (head, pm, marks, rows); -1 when out of memory."""
    if (grow_array(<void**>&sc.head, &sc.head_cap, vocab + 1, sizeof(int32_t), 0xFF) < 0
            or grow_array(<void**>&sc.pm, &sc.pm_cap, vocab + 1, sizeof(uint64_t), 0) < 0):
        return -1
    if maxlen + 1 > sc.rows_cap:
        free(sc.marks)
        free(sc.rows)
        sc.rows_cap = 0
        sc.marks = <char*>malloc(maxlen + 1)
        sc.rows = <uint64_t*>malloc((maxlen + 1) * sizeof(uint64_t))
        if sc.marks == NULL or sc.rows == NULL:
            return -1
        sc.rows_cap = maxlen + 1
    return 0


cdef int lcs_union_marks(const int32_t* r, Py_ssize_t mr,
                         const int32_t* ctok, const Py_ssize_t* coff, Py_ssize_t nc,
                         LcsScratch* sc, char* marks) noexcept nogil:
    """Set marks[i] (i < mr) for every index of r on rouge-score's LCS of r
    with any of the nc sentences ctok[coff[q]:coff[q+1]] (its _union_lcs;
    marks already set stay set). sc must have room (lcs_scratch_reserve)
    for the ids and for r and every sentence. A sentence r of at most
    ONE_WORD_MAX tokens takes the one-word path (columns_one_word, then
    walk_one_word), a longer one the general one (lcs_mark_ids). -1 when
    out of memory."""
    cdef Py_ssize_t i, q, nq
    cdef uint64_t* pm = sc.pm
    cdef uint64_t mk = 0, occ
    if mr == 0:
        return 0
    if mr <= ONE_WORD_MAX:
        for i in range(mr):
            pm[r[i]] |= (<uint64_t>1) << i
        for q in range(nc):
            nq = coff[q + 1] - coff[q]
            if nq > 0:
                occ = columns_one_word(pm, 0, ctok + coff[q], nq, sc.rows)
                mk = union_one_word(mr, 0, pm, ctok + coff[q], nq, sc.rows, occ, mk)
        for i in range(mr):
            pm[r[i]] = 0
        while mk != 0:
            marks[rk_low_bit64(mk)] = 1
            mk &= mk - 1
        return 0
    for q in range(nc):
        nq = coff[q + 1] - coff[q]
        if nq > 0 and lcs_mark_ids(r, mr, ctok + coff[q], nq, sc.head, marks) < 0:
            return -1
    return 0


cdef int64_t summary_hits_scratch(const int32_t* rtok, const Py_ssize_t* roff,
                                  Py_ssize_t nr,
                                  const int32_t* ctok, const Py_ssize_t* coff,
                                  Py_ssize_t nc, Py_ssize_t vocab,
                                  LcsScratch* sc) noexcept nogil:
    """rouge-score's summary-level LCS hits (its _summary_level_lcs).

    For each reference sentence, the union over candidate sentences of the
    LCS positions, read in order; a token counts while both the reference
    and the candidate summary still have an unused occurrence of it. The
    reference always has one: each position is read at most once, so when
    a position holding t is read, fewer than its count of t's positions
    have been used. Only the candidate's counts are kept.
    Sentence k of the references is rtok[roff[k]:roff[k+1]]; ids < vocab.
    Reference sentences of at most 64 tokens take the one-word path: runs
    of them that fit in one word (with a guard bit between two) share one
    forward pass per candidate sentence (columns_one_word), then each is
    walked back in its bits (walk_one_word). The others take the general
    path (lcs_mark_ids). With one
    sentence a side the union is a single LCS, whose tokens both sides have
    enough of: the hits are the LCS length, which lcs_length_scratch finds
    without walking the table back.
    Returns -1 when out of memory.
    """
    cdef Py_ssize_t k, q, i, mr, nq, maxlen = 0, ncan = coff[nc]
    cdef int64_t hits = 0
    cdef int32_t t
    cdef int ok
    cdef uint64_t mk, guards, occ, bit, segs = 0, lows = 0, above = 0
    # a group of sentences in one word (at most 32: each takes a bit and a
    # guard): their indices, offsets and tokens by bit
    cdef Py_ssize_t gk[32]
    cdef Py_ssize_t go[32]
    cdef int32_t gtok[64]
    cdef Py_ssize_t ng, g, o, fill
    cdef const int32_t* c
    cdef const int32_t* r
    if nr == 1 and nc == 1:
        return lcs_length_scratch(rtok + roff[0], roff[1] - roff[0],
                                  ctok + coff[0], coff[1] - coff[0], vocab, sc)
    for k in range(nr):
        if roff[k + 1] - roff[k] > maxlen:
            maxlen = roff[k + 1] - roff[k]
    for q in range(nc):
        if coff[q + 1] - coff[q] > maxlen:
            maxlen = coff[q + 1] - coff[q]
    if (grow_array(<void**>&sc.cnt, &sc.cnt_cap, vocab + 1, sizeof(int32_t), 0) < 0
            or lcs_scratch_reserve(sc, vocab, maxlen) < 0):
        return -1
    cdef int32_t* cnt_c = sc.cnt
    cdef uint64_t* pm = sc.pm
    for i in range(ncan):
        cnt_c[ctok[i]] += 1
    k = 0
    while k < nr:
        r = rtok + roff[k]
        mr = roff[k + 1] - roff[k]
        if mr == 0:
            k += 1
            continue
        if mr <= ONE_WORD_MAX:
            # A group: this sentence and those after it of at most
            # ONE_WORD_MAX tokens that fit in one word, each above a guard.
            guards = 0
            ng = 0
            fill = 0
            while k < nr:
                mr = roff[k + 1] - roff[k]
                if mr > ONE_WORD_MAX:
                    break
                if mr > 0:
                    o = 0 if fill == 0 else fill + 1
                    if o + mr > 64 or ng == 32:
                        break
                    if fill > 0:
                        guards |= (<uint64_t>1) << fill
                    r = rtok + roff[k]
                    bit = (<uint64_t>1) << o
                    for i in range(mr):
                        t = r[i]
                        pm[t] |= bit
                        gtok[o + i] = t
                        bit <<= 1
                    gk[ng] = k
                    go[ng] = o
                    ng += 1
                    fill = o + mr
                k += 1
            mk = 0
            if fill < 64:
                # the group's sentences as union_segments reads them (the
                # first starts at bit 0, each other above its guard)
                segs = (((<uint64_t>1) << fill) - 1) & ~guards
                lows = 1 | (guards << 1)
                above = guards | ((<uint64_t>1) << fill)
            for q in range(nc):
                nq = coff[q + 1] - coff[q]
                if nq > 0:
                    c = ctok + coff[q]
                    occ = columns_one_word(pm, guards, c, nq, sc.rows)
                    if (occ & ~mk) == 0:
                        continue        # every shared position marked already
                    if fill < 64:
                        mk = union_segments(segs, lows, above, guards, pm, c, nq,
                                             sc.rows, occ, mk)
                        continue
                    for g in range(ng):
                        mk = union_one_word(roff[gk[g] + 1] - roff[gk[g]],
                                             go[g], pm, c, nq, sc.rows, occ, mk)
            # (the group's sentences lie side by side in rtok)
            for i in range(roff[gk[0]], roff[gk[ng - 1] + 1]):
                pm[rtok[i]] = 0
            # the marked indices in order
            while mk != 0:
                t = gtok[rk_low_bit64(mk)]
                ok = cnt_c[t] > 0
                hits += ok
                cnt_c[t] -= ok
                mk &= mk - 1
            continue
        k += 1
        memset(sc.marks, 0, mr)
        if lcs_union_marks(r, mr, ctok, coff, nc, sc, sc.marks) < 0:
            hits = -1
            break
        for i in range(mr):
            # (no branch: marks and counts are not predictable)
            t = r[i]
            ok = (sc.marks[i] != 0) & (cnt_c[t] > 0)
            hits += ok
            cnt_c[t] -= ok
    # Restore the invariant: zeros in cnt (pm is cleared above).
    for i in range(ncan):
        cnt_c[ctok[i]] = 0
    return hits


# ---------------------------------------------------------------------------
# Python entry points. Token ids must be ints in [0, number of tokens given):
# the Python layer numbers tokens densely per text pair.

def lcs_length(a, b):
    """Length of the longest common subsequence of two id sequences.

    >>> lcs_length([0, 1, 2], [2, 1, 0, 1])
    2
    """
    a = a if isinstance(a, (list, tuple)) else list(a)
    b = b if isinstance(b, (list, tuple)) else list(b)
    cdef Py_ssize_t bound = check_total(len(a) + len(b)), na, nb, r
    cdef int32_t* ia = ids_from(a, &na, bound, "a")
    cdef int32_t* ib = NULL
    cdef int32_t* head = NULL
    try:
        ib = ids_from(b, &nb, bound, "b")
        head = <int32_t*>malloc((bound + 1) * sizeof(int32_t))
        if head == NULL:
            raise MemoryError()
        memset(head, 0xFF, (bound + 1) * sizeof(int32_t))
        with nogil:
            r = lcs_length_ids(ia, na, ib, nb, head)
        if r < 0:
            raise MemoryError()
        return r
    finally:
        free(ia)
        free(ib)
        free(head)


def union_lcs(ref, cands):
    """Sorted indices into ``ref`` on the union of rouge-score's LCS of
    ``ref`` with each sequence in ``cands`` (its ``_union_lcs``).

    >>> union_lcs([0, 1, 2, 3], [[0, 2], [3]])
    [0, 2, 3]
    """
    ref = ref if isinstance(ref, (list, tuple)) else list(ref)
    cands = [c if isinstance(c, (list, tuple)) else list(c) for c in cands]
    cdef Py_ssize_t bound = len(ref), m, n, q, rc = 0
    for c in cands:
        bound += len(c)
    check_total(bound)
    cdef int32_t* ir = ids_from(ref, &m, bound, "ref")
    cdef int32_t* ic = NULL
    cdef int32_t* head = NULL
    cdef char* marks = NULL
    try:
        head = <int32_t*>malloc((bound + 1) * sizeof(int32_t))
        marks = <char*>malloc(m + 1)
        if head == NULL or marks == NULL:
            raise MemoryError()
        memset(head, 0xFF, (bound + 1) * sizeof(int32_t))
        memset(marks, 0, m + 1)
        for q in range(len(cands)):
            ic = ids_from(cands[q], &n, bound, "cands")
            with nogil:
                rc = lcs_mark_ids(ir, m, ic, n, head, marks)
            free(ic)
            ic = NULL
            if rc < 0:
                raise MemoryError()
        return [q for q in range(m) if marks[q]]
    finally:
        free(ir)
        free(ic)
        free(head)
        free(marks)


def lcs_indices(ref, can):
    """Indices into ``ref`` of the LCS that rouge-score's ``lcs_ind`` picks.

    >>> lcs_indices([0, 1], [1, 0])
    [0]
    """
    return union_lcs(ref, [can])


def summary_lcs_hits(refs, cands):
    """rouge-score's summary-level LCS hit count for tokenized sentences.

    ``refs`` and ``cands`` are lists of sentences, each a list of dense ids.
    """
    refs = [r if isinstance(r, (list, tuple)) else list(r) for r in refs]
    cands = [c if isinstance(c, (list, tuple)) else list(c) for c in cands]
    cdef Py_ssize_t bound = 0, nr = len(refs), nc = len(cands)
    cdef int64_t hits
    for s in refs:
        bound += len(s)
    for s in cands:
        bound += len(s)
    check_total(bound)
    cdef int32_t* rtok = NULL
    cdef int32_t* ctok = NULL
    cdef Py_ssize_t* roff = sentence_ids_from(refs, &rtok, bound, "refs")
    cdef Py_ssize_t* coff = NULL
    try:
        coff = sentence_ids_from(cands, &ctok, bound, "cands")
        with nogil:
            hits = summary_hits_ids(rtok, roff, nr, ctok, coff, nc, bound)
        if hits < 0:
            raise MemoryError()
        return hits
    finally:
        free(rtok)
        free(ctok)
        free(roff)
        free(coff)


# Entry points on tokens of any hashable type, numbered here through a dict
# (C speed, no Python list of ids): rouge-score's helpers on token lists.

def lcs_length_tokens(a, b):
    """LCS length of two sequences of hashable tokens (matched as dict keys;
    an unhashable token raises TypeError).

    >>> lcs_length_tokens(["a", "b", "c"], ["c", "b", "x", "c"])
    2
    """
    a = a if isinstance(a, (list, tuple)) else list(a)
    b = b if isinstance(b, (list, tuple)) else list(b)
    cdef TokenTable ids
    cdef Py_ssize_t na, nb, vocab, r
    cdef int32_t* ia = NULL
    cdef int32_t* ib = NULL
    cdef int32_t* head = NULL
    token_table_init(&ids, check_total(len(a) + len(b)))
    try:
        ia = ids_of_tokens(a, &ids, &na)
        ib = ids_of_tokens(b, &ids, &nb)
        vocab = ids.n
        head = <int32_t*>malloc((vocab + 1) * sizeof(int32_t))
        if head == NULL:
            raise MemoryError()
        memset(head, 0xFF, (vocab + 1) * sizeof(int32_t))
        with nogil:
            r = lcs_length_ids(ia, na, ib, nb, head)
        if r < 0:
            raise MemoryError()
        return r
    finally:
        token_table_free(&ids)
        free(ia)
        free(ib)
        free(head)


def summary_lcs_hits_tokens(refs, cands):
    """``summary_lcs_hits`` of sentences of hashable tokens (matched as dict
    keys; an unhashable token raises TypeError).

    >>> summary_lcs_hits_tokens([["a", "b"], ["c"]], [["a", "b", "c"]])
    3
    """
    refs = [r if isinstance(r, (list, tuple)) else list(r) for r in refs]
    cands = [c if isinstance(c, (list, tuple)) else list(c) for c in cands]
    cdef TokenTable ids
    cdef int64_t hits
    cdef Py_ssize_t nr = len(refs), nc = len(cands), vocab, total = 0
    cdef int32_t* rtok = NULL
    cdef int32_t* ctok = NULL
    cdef Py_ssize_t* roff = NULL
    cdef Py_ssize_t* coff = NULL
    for s in refs:
        total += len(s)
    for s in cands:
        total += len(s)
    token_table_init(&ids, check_total(total))
    try:
        roff = sentence_ids_from(refs, &rtok, 0, "refs", &ids)
        coff = sentence_ids_from(cands, &ctok, 0, "cands", &ids)
        vocab = ids.n
        with nogil:
            hits = summary_hits_ids(rtok, roff, nr, ctok, coff, nc, vocab if vocab > 0 else 1)
        if hits < 0:
            raise MemoryError()
        return hits
    finally:
        token_table_free(&ids)
        free(rtok)
        free(ctok)
        free(roff)
        free(coff)


def _set_one_word_max(Py_ssize_t tokens):
    """Testing hook: the longest reference sentence on the one-word path
    (at most 64; 0 sends every sentence to the general path). Returns the
    previous value. Not thread-safe; tests only."""
    global ONE_WORD_MAX
    if tokens < 0 or tokens > 64:
        raise ValueError("tokens must be in [0, 64]")
    old = ONE_WORD_MAX
    ONE_WORD_MAX = tokens
    return old


def _set_full_table_words(Py_ssize_t words):
    """Testing hook: the table size above which rows are checkpointed.

    Returns the previous value. Not thread-safe; tests only.
    """
    global FULL_TABLE_WORDS
    if words < 0:
        raise ValueError("words must be >= 0")
    old = FULL_TABLE_WORDS
    FULL_TABLE_WORDS = words
    return old


def _set_dense(Py_ssize_t min_count, Py_ssize_t budget_words):
    """Testing hook: ids with at least min_count columns get a dense match
    mask, within budget_words (see ColIndex). Returns the previous pair.
    Not thread-safe; tests only."""
    global DENSE_MIN, DENSE_BUDGET_WORDS
    if min_count < 1 or budget_words < 0:
        raise ValueError("min_count must be >= 1 and budget_words >= 0")
    old = (DENSE_MIN, DENSE_BUDGET_WORDS)
    DENSE_MIN = min_count
    DENSE_BUDGET_WORDS = budget_words
    return old
