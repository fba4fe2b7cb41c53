# cython: language_level=3
# cython: freethreading_compatible=True
"""ROUGE-L and ROUGE-W of ROUGE-1.5.5.pl, one model against one peer; its
``lcs``, ``wlcs`` and ``markLCS``. ``_rouge155_lcs_py`` is the twin and the
specification.

ROUGE-L marks, for each model sentence, the union of its LCS with every peer
sentence (``_lcs``'s bit-parallel ``lcs_mark_ids``, whose walk is the
script's markLCS), and counts a marked token while both unigram bags still
hold it. When each bag is its document's sentences, that is rouge-score's
summary-level union LCS (``summary_hits_scratch``), which ``l_summary_hits``
runs. ROUGE-W's weighted-LCS table is of doubles whose ties depend on the
weights, so it cannot be bit-parallel: ``_wlcs_table`` fills it row by row,
most rows without a cell loop. Floating point follows the script operation
by operation (``pow`` is the C library's, as Perl's ``**``).

The C entry points (``_rouge155_lcs.pxd``) serve ``_rouge155_counts``;
``lcs_hits`` runs them on token lists from Python.
"""
from libc.math cimport pow
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

import numpy as np

from rougekit._core._lcs cimport lcs_mark_ids, lcs_scratch_free, summary_hits_scratch
from rougekit._core._mem cimport grow_array
from rougekit._core._rouge155_corpus cimport corpus_seq

from rougekit._core._rouge155_lcs_py import checked_sequences, checked_weight

__all__ = ["lcs_hits"]


cdef void lw_scratch_free(LwScratch* sc) noexcept nogil:
    lcs_scratch_free(&sc.lcs)
    free(sc.head)
    free(sc.bag_model)
    free(sc.bag_peer)
    free(sc.in_peer)
    free(sc.first_pos)
    free(sc.marks)
    free(sc.roff)
    free(sc.coff)
    free(sc.fw)
    free(sc.wc)
    free(sc.wl)
    free(sc.row_kind)
    free(sc.row_j0)
    free(sc.row_j1)
    free(sc.dirs)
    memset(sc, 0, sizeof(LwScratch))


cdef int lw_scratch_init(LwScratch* sc, Py_ssize_t vocab, Py_ssize_t maxlen,
                         double weight) noexcept nogil:
    """Buffers for token ids below vocab (>= 1) and sequences of at most
    maxlen tokens; -1 when out of memory (sc is then freed)."""
    cdef Py_ssize_t k
    memset(sc, 0, sizeof(LwScratch))
    sc.head = <int32_t*>malloc(vocab * sizeof(int32_t))
    sc.bag_model = <int32_t*>calloc(vocab, sizeof(int32_t))
    sc.bag_peer = <int32_t*>calloc(vocab, sizeof(int32_t))
    sc.in_peer = <char*>calloc(vocab, 1)
    sc.first_pos = <int32_t*>malloc(vocab * sizeof(int32_t))
    sc.marks = <char*>malloc(maxlen + 1)
    sc.fw = <double*>malloc((maxlen + 2) * sizeof(double))
    sc.wc = <double*>malloc((maxlen + 1) * sizeof(double))
    sc.wl = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.row_kind = <char*>malloc(maxlen + 1)
    sc.row_j0 = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.row_j1 = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    if (sc.head == NULL or sc.bag_model == NULL or sc.bag_peer == NULL or sc.in_peer == NULL
            or sc.first_pos == NULL or sc.marks == NULL or sc.fw == NULL or sc.wc == NULL
            or sc.wl == NULL or sc.row_kind == NULL or sc.row_j0 == NULL
            or sc.row_j1 == NULL):
        lw_scratch_free(sc)
        return -1
    memset(sc.head, 0xFF, vocab * sizeof(int32_t))
    for k in range(maxlen + 2):
        sc.fw[k] = pow(<double>k, weight)
    return 0


cdef int64_t lw_hits(const CorpusView* c, Py_ssize_t md, Py_ssize_t mb, Py_ssize_t pd,
                     Py_ssize_t pb, LwScratch* sc, bint weighted, double* whit,
                     double* wbase, int64_t* base) noexcept nogil:
    """The script's lcs / wlcs of model document md against peer document pd,
    hits clipped by the unigram bags of documents mb and pb. Returns the
    L hits (-1: out of memory); W's hit and base go to whit, wbase."""
    cdef Py_ssize_t s, q, i, m, n, nb, run
    cdef const int32_t* r
    cdef const int32_t* p
    cdef const int32_t* bag
    cdef int64_t hits = 0
    cdef int32_t t
    bag = corpus_seq(c, c.ngram[mb], &nb)
    for i in range(nb):
        sc.bag_model[bag[i]] += 1
    bag = corpus_seq(c, c.ngram[pb], &nb)
    for i in range(nb):
        sc.bag_peer[bag[i]] += 1
    whit[0] = 0.0
    wbase[0] = 0.0
    base[0] = 0
    for s in range(c.lo[md], c.hi[md]):
        r = corpus_seq(c, s, &m)
        base[0] += m
        if weighted:
            wbase[0] += sc.fw[m]
        if m == 0:
            continue
        memset(sc.marks, 0, m)
        for q in range(c.lo[pd], c.hi[pd]):
            p = corpus_seq(c, q, &n)
            if n == 0:
                continue
            if weighted:
                if _wlcs_mark(r, m, p, n, sc) < 0:
                    hits = -1
                    break
            elif lcs_mark_ids(r, m, p, n, sc.head, sc.marks) < 0:
                hits = -1
                break
        if hits < 0:
            break
        run = 0
        for i in range(m):
            if sc.marks[i]:
                t = r[i]
                if sc.bag_model[t] > 0 and sc.bag_peer[t] > 0:
                    hits += 1
                    if weighted:
                        run += 1
                        if (i + 1 < m and not sc.marks[i + 1]) or i + 1 == m:
                            whit[0] += sc.fw[run]
                            run = 0
                    sc.bag_model[t] -= 1
                    sc.bag_peer[t] -= 1
    # Leave the bags zeroed for the next call.
    bag = corpus_seq(c, c.ngram[mb], &nb)
    for i in range(nb):
        sc.bag_model[bag[i]] = 0
    bag = corpus_seq(c, c.ngram[pb], &nb)
    for i in range(nb):
        sc.bag_peer[bag[i]] = 0
    return hits


cdef bint bag_is_sentences(const CorpusView* c, Py_ssize_t d) noexcept nogil:
    """Whether document d's n-gram tokens are its sentences' tokens."""
    cdef Py_ssize_t g = c.ngram[d]
    if c.hi[d] == c.lo[d]:
        return c.end[g] == c.start[g]
    return c.start[g] == c.start[c.lo[d]] and c.end[g] == c.end[c.hi[d] - 1]


cdef int _offsets(const CorpusView* c, Py_ssize_t d, Py_ssize_t* off) noexcept nogil:
    """off[k] = start of sentence k of document d relative to its first, and
    off[count] its end; -1 when the sentences are not contiguous."""
    cdef Py_ssize_t s, k = 0
    cdef int64_t base
    off[0] = 0
    if c.hi[d] == c.lo[d]:
        return 0
    base = c.start[c.lo[d]]
    for s in range(c.lo[d], c.hi[d]):
        if s > c.lo[d] and c.start[s] != c.end[s - 1]:
            return -1
        off[k] = <Py_ssize_t>(c.start[s] - base)
        k += 1
    off[k] = <Py_ssize_t>(c.end[c.hi[d] - 1] - base)
    return 0


cdef int64_t l_summary_hits(const CorpusView* c, Py_ssize_t md, Py_ssize_t pd,
                            Py_ssize_t vocab, LwScratch* sc) noexcept nogil:
    """ROUGE-L hits when each bag is its document's sentences (no -b, and
    the same stemming for a document's sentences and bag): rouge-score's
    summary-level union LCS, whose walk and clipping are the script's.
    Returns -1 when out of memory, -2 when the sentences are not contiguous."""
    cdef Py_ssize_t nr = c.hi[md] - c.lo[md], nc = c.hi[pd] - c.lo[pd]
    if (grow_array(<void**>&sc.roff, &sc.roff_cap, nr + 1, sizeof(Py_ssize_t), 0) < 0
            or grow_array(<void**>&sc.coff, &sc.coff_cap, nc + 1, sizeof(Py_ssize_t), 0) < 0):
        return -1
    if _offsets(c, md, sc.roff) < 0 or _offsets(c, pd, sc.coff) < 0:
        return -2
    if nr == 0 or nc == 0:
        return 0
    return summary_hits_scratch(c.tok + c.start[c.lo[md]], sc.roff, nr,
                                c.tok + c.start[c.lo[pd]], sc.coff, nc, vocab, &sc.lcs)


cdef int _wlcs_mark(const int32_t* model, Py_ssize_t m, const int32_t* peer, Py_ssize_t n,
                    LwScratch* sc) noexcept nogil:
    """The script's wlcs_inner then markLCS: set marks[i] for the model
    positions on the diagonal steps of the walk back from (m, n)."""
    cdef Py_ssize_t j, common = 0
    cdef int result
    if m == 0 or n == 0:
        return 0
    for j in range(n):
        if sc.in_peer[peer[j]] == 0:
            sc.first_pos[peer[j]] = <int32_t>j
            sc.in_peer[peer[j]] = 1
        else:
            sc.in_peer[peer[j]] = 2
    for j in range(m):
        common += sc.in_peer[model[j]]
    # Without a common token every cell is 0 and the walk goes straight up:
    # no marks.
    result = _wlcs_table(model, m, peer, n, sc) if common else 0
    for j in range(n):
        sc.in_peer[peer[j]] = 0
    return result


# The rows of ROUGE-W's table, for the walk back.
cdef enum:
    ROW_CELLS = 0        # directions in sc.dirs
    ROW_UP = 1           # direction 1 everywhere
    ROW_ONE_MATCH = 2    # 3 at j0, 2 on (j0, j1), 1 elsewhere


cdef int _wlcs_table(const int32_t* model, Py_ssize_t m, const int32_t* peer, Py_ssize_t n,
                     LwScratch* sc) noexcept nogil:
    """_wlcs_mark's table and walk (sc.in_peer: 1 for a token once in the
    peer, at sc.first_pos; 2 for more). One row of values and run lengths
    is updated in place, row by row; the numbers are those of the script's
    cell-by-cell loop.

    Most rows need no cell loop. When the row above does not decrease along
    j ("rising"), a row whose token is not in the peer is that row with
    direction 1 everywhere (each cell takes the one above, >= the one to its
    left): nothing changes. A row whose token is in the peer once, at column
    j0, is the row above up to j0, the match at j0 (value v), then v with
    direction 2 until the row above reaches v, then the row above again:
    only [j0, j1) changes, and the row is rising. Other rows go cell by
    cell, their directions kept in sc.dirs."""
    cdef Py_ssize_t i, j, j0, w = n + 1, nonzero = -1
    cdef int32_t k, t, ldiag, labove
    cdef double v, diag, above
    cdef double* c = sc.wc
    cdef int32_t* l = sc.wl
    cdef char* row
    cdef char kind
    cdef bint rising = True          # the current row does not decrease along j
    # nonzero: where l has its one non-zero entry; -1 none, -2 anywhere
    for j in range(w):
        c[j] = 0.0
        l[j] = 0
    for i in range(m):
        t = model[i]
        if rising and sc.in_peer[t] == 0:
            sc.row_kind[i] = ROW_UP
            if nonzero == -2:
                memset(l, 0, w * sizeof(int32_t))
            elif nonzero >= 0:
                l[nonzero] = 0
            nonzero = -1
        elif rising and sc.in_peer[t] == 1:
            j0 = sc.first_pos[t] + 1
            k = l[j0 - 1]
            if nonzero == -2:
                memset(l, 0, w * sizeof(int32_t))
            elif nonzero >= 0:
                l[nonzero] = 0
            # (c + f(k+1)) - f(k), in the script's order of operations
            v = c[j0 - 1] + sc.fw[k + 1] - sc.fw[k]
            c[j0] = v
            l[j0] = k + 1
            nonzero = j0
            j = j0 + 1
            while j < w and c[j] < v:
                c[j] = v
                j += 1
            sc.row_kind[i] = ROW_ONE_MATCH
            sc.row_j0[i] = <int32_t>j0
            sc.row_j1[i] = <int32_t>j
        else:
            if (i + 1) * w > sc.dirs_cap and grow_array(
                    <void**>&sc.dirs, &sc.dirs_cap, m * w, 1, -1) < 0:
                return -1
            sc.row_kind[i] = ROW_CELLS
            row = sc.dirs + i * w
            rising = True
            nonzero = -2
            diag = c[0]
            ldiag = l[0]
            for j in range(1, w):
                above = c[j]
                labove = l[j]
                if t == peer[j - 1]:
                    c[j] = diag + sc.fw[ldiag + 1] - sc.fw[ldiag]
                    l[j] = ldiag + 1
                    row[j] = 3
                elif above >= c[j - 1]:
                    c[j] = above
                    l[j] = 0
                    row[j] = 1
                else:
                    c[j] = c[j - 1]
                    l[j] = 0
                    row[j] = 2
                if c[j] < c[j - 1]:
                    rising = False
                diag = above
                ldiag = labove
    i, j = m, n
    while i != 0 and j != 0:
        kind = sc.row_kind[i - 1]
        if kind == ROW_UP:
            i -= 1
        elif kind == ROW_ONE_MATCH:
            if j == sc.row_j0[i - 1]:
                i -= 1
                j -= 1
                sc.marks[i] = 1
            elif sc.row_j0[i - 1] < j < sc.row_j1[i - 1]:
                j -= 1
            else:
                i -= 1
        elif sc.dirs[(i - 1) * w + j] == 3:
            i -= 1
            j -= 1
            sc.marks[i] = 1
        elif sc.dirs[(i - 1) * w + j] == 1:
            i -= 1
        else:
            j -= 1
    return 0


# ---------------------------------------------------------------------------
# From Python: one model against one peer, on token lists
# ---------------------------------------------------------------------------

cdef inline const int32_t* _ptr32(const int32_t[::1] a) noexcept:
    return &a[0] if a.shape[0] > 0 else NULL


cdef inline const int64_t* _ptr64(const int64_t[::1] a) noexcept:
    return &a[0] if a.shape[0] > 0 else NULL


def lcs_hits(model_sents, peer_sents, model_bag, peer_bag, weight=None):
    """The script's lcs (``weight`` None) or wlcs (``weight`` > 0): (hit,
    base) of one model against one peer (see ``_rouge155_lcs_py.lcs_hits``).

    >>> lcs_hits([[0, 1, 2]], [[0, 2], [1]], [0, 1, 2], [0, 2])
    (2, 3)
    """
    model_sents, peer_sents, model_bag, peer_bag = checked_sequences(
        model_sents, peer_sents, model_bag, peer_bag)
    w = checked_weight(weight)
    # Two documents: 0, the model (its sentences, then its bag), and 1, the peer.
    seqs = model_sents + peer_sents + [model_bag, peer_bag]
    sizes = np.array([len(s) for s in seqs], dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = np.ascontiguousarray(ends - sizes)
    tokens = np.array([t for s in seqs for t in s], dtype=np.int32)
    nm, np_ = len(model_sents), len(peer_sents)
    ngram = np.array([nm + np_, nm + np_ + 1], dtype=np.int32)
    lo = np.array([0, nm], dtype=np.int32)
    hi = np.array([nm, nm + np_], dtype=np.int32)
    cdef Py_ssize_t vocab = int(tokens.max()) + 1 if len(tokens) else 1
    cdef Py_ssize_t maxlen = int(sizes.max())
    cdef CorpusView c
    c.tok = _ptr32(tokens)
    c.start = _ptr64(starts)
    c.end = _ptr64(ends)
    c.ngram = _ptr32(ngram)
    c.lo = _ptr32(lo)
    c.hi = _ptr32(hi)
    cdef LwScratch sc
    cdef bint weighted = w is not None
    cdef double whit = 0.0, wbase = 0.0
    cdef int64_t hits = -1, base = 0
    cdef double wt = w if weighted else 1.0
    with nogil:
        if lw_scratch_init(&sc, vocab, maxlen, wt) == 0:
            hits = lw_hits(&c, 0, 0, 1, 1, &sc, weighted, &whit, &wbase, &base)
            lw_scratch_free(&sc)
    if hits < 0:
        raise MemoryError()
    if weighted:
        return whit, wbase
    return hits, base
