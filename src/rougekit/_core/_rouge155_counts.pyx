# cython: language_level=3
# cython: freethreading_compatible=True
"""Per-evaluation counts of ROUGE-1.5.5.pl's measures; ``_rouge155_counts_py``
is the twin and the specification (same functions, same results).

``score_evals(metric, corpus, jobs, ...)`` counts one measure for many
evaluations: ROUGE-N (the peer's n-grams numbered level by level, or
``_overlap``'s clipped overlap), S/SU (the peer's skip-bigrams counted by
local ids, or by ids from ``_grams.pxd``'s table, the models streamed
through them), L and W (``_rouge155_lcs``). Its typed interface is a
``Corpus`` and a ``Jobs``, each copied and checked once when made (in C,
by the rules of the twin's ``checked_corpus`` and ``checked_jobs``, which
give the errors) and read-only afterwards, so ``score_evals`` reads them in
C without bounds checks and without the GIL; it returns an ``Evals``.

Floating point follows the script operation by operation
(``_rouge155_numbers.pxd``; ``pow`` is the C library's, as Perl's ``**``).
"""
from libc.math cimport floor, isnan, pow
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

import numpy as np

from rougekit._core._grams cimport (GramTable, gram_find, gram_intern, gram_table_clear,
                                    gram_table_free, gram_table_reserve)
from rougekit._core._mem cimport ID_LIMIT, grow_array, unmark
from rougekit._core._overlap cimport (OverlapScratch, clipped_overlap_scratch,
                                       overlap_scratch_free)
from rougekit._core._rouge155_corpus cimport CorpusView, corpus_seq
from rougekit._core._rouge155_lcs cimport (LwScratch, bag_is_sentences, l_summary_hits,
                                           lw_hits, lw_scratch_free, lw_scratch_init)
from rougekit._core._rouge155_numbers cimport f_measure, round5 as _round5

from rougekit._core._rouge155_counts_py import (Evals, check_documents, checked_corpus,
                                                checked_jobs)

__all__ = ["Corpus", "Jobs", "Evals", "score_evals", "round5", "METRICS"]

METRICS = ("N", "S", "L", "W")


def round5(double x):
    """``x`` through the script's ``sprintf("%7.5f", x)`` and back
    (``_rouge155_numbers.pxd``).

    >>> round5(2 / 3)
    0.66667
    """
    return _round5(x)


# ---------------------------------------------------------------------------
# The typed interface
# ---------------------------------------------------------------------------

cdef extern from "Python.h":
    object PyBytes_FromStringAndSize(const char* v, Py_ssize_t n)
    char* PyBytes_AS_STRING(object o)


cdef inline const int32_t* _ptr32(const int32_t[::1] a) noexcept:
    return &a[0] if a.shape[0] > 0 else NULL


cdef inline const int64_t* _ptr64(const int64_t[::1] a) noexcept:
    return &a[0] if a.shape[0] > 0 else NULL


# Corpus and Jobs copy their arrays and check the copies in C: the common
# case (buffers of the kernel's own types: numpy arrays, array.array) costs
# a copy and a pass. Anything else, and anything these checks refuse, goes
# to the twin's checked_corpus / checked_jobs, which convert what they can
# and raise the errors (the checks below are the same rules).

cdef object _frozen(object a, bint wide):
    """A read-only copy of a 1-d C-contiguous buffer of int64 (``wide``) or
    int32, as a numpy array backed by bytes; None when ``a`` is not one."""
    cdef const int32_t[::1] v32
    cdef const int64_t[::1] v64
    cdef const void* data = NULL
    cdef Py_ssize_t size
    try:
        if wide:
            v64 = a
            size = v64.shape[0] * sizeof(int64_t)
            if size:
                data = &v64[0]
        else:
            v32 = a
            size = v32.shape[0] * sizeof(int32_t)
            if size:
                data = &v32[0]
    except (TypeError, ValueError, BufferError):
        return None
    cdef object b = PyBytes_FromStringAndSize(NULL, size)
    if size:
        memcpy(PyBytes_AS_STRING(b), data, size)
    return np.frombuffer(b, dtype=np.int64 if wide else np.int32)


cdef bint _corpus_ok(const int32_t* tok, Py_ssize_t ntok, const int64_t* start,
                     const int64_t* end, Py_ssize_t nseq, const int32_t* ngram,
                     const int32_t* lo, const int32_t* hi, Py_ssize_t ndoc,
                     Py_ssize_t vocab, Py_ssize_t* longest) noexcept nogil:
    """Whether every index is in range (checked_corpus's rules); the most
    tokens of a sequence into *longest."""
    cdef Py_ssize_t i
    # As unsigned 32-bit numbers a negative token is at least 2**31 > vocab:
    # one compare per token.
    cdef uint32_t top = <uint32_t>vocab, outside = 0
    longest[0] = 0
    if vocab < 1 or vocab > ID_LIMIT or nseq > ID_LIMIT or ndoc > ID_LIMIT:
        return False
    for i in range(ntok):
        outside |= <uint32_t>tok[i] >= top
    if outside:
        return False
    for i in range(nseq):
        if not (0 <= start[i] <= end[i] <= ntok):
            return False
        if end[i] - start[i] > longest[0]:
            longest[0] = <Py_ssize_t>(end[i] - start[i])
    for i in range(ndoc):
        if not (0 <= ngram[i] < nseq and 0 <= lo[i] <= hi[i] <= nseq):
            return False
    return True


cdef bint _jobs_ok(const int32_t* ps, const int32_t* pb, Py_ssize_t n, const int64_t* mo,
                   const int32_t* ms, const int32_t* mb, Py_ssize_t k,
                   Py_ssize_t* documents) noexcept nogil:
    """Whether the jobs are consistent (checked_jobs's rules); one more than
    their largest document into *documents."""
    cdef Py_ssize_t i
    cdef int32_t top = -1
    documents[0] = 0
    if mo[0] != 0 or mo[n] != k:
        return False
    for i in range(n):
        if mo[i] > mo[i + 1] or ps[i] < 0 or pb[i] < 0 or ps[i] >= ID_LIMIT or pb[i] >= ID_LIMIT:
            return False
        top = ps[i] if ps[i] > top else top
        top = pb[i] if pb[i] > top else top
    for i in range(k):
        if ms[i] < 0 or mb[i] < 0 or ms[i] >= ID_LIMIT or mb[i] >= ID_LIMIT:
            return False
        top = ms[i] if ms[i] > top else top
        top = mb[i] if mb[i] > top else top
    documents[0] = <Py_ssize_t>top + 1
    return True


cdef class Corpus:
    """The token ids of a run's documents (see ``_rouge155_counts_py``):
    ``Corpus(tokens, seq_start, seq_end, doc_ngram, doc_sent_lo,
    doc_sent_hi, vocab)``, every index checked, the arrays copied and
    read-only (backed by bytes), so ``score_evals`` reads them in C
    unchecked, from any thread."""
    cdef readonly object tokens
    cdef readonly object seq_start
    cdef readonly object seq_end
    cdef readonly object doc_ngram
    cdef readonly object doc_sent_lo
    cdef readonly object doc_sent_hi
    cdef readonly Py_ssize_t vocab
    cdef readonly Py_ssize_t documents
    cdef readonly Py_ssize_t sequences
    cdef Py_ssize_t longest        # the most tokens of a sequence
    cdef CorpusView view

    def __cinit__(self, tokens, seq_start, seq_end, doc_ngram, doc_sent_lo, doc_sent_hi,
                  vocab):
        cdef Py_ssize_t ntok = 0, nseq = 0, ndoc = 0, v = -1
        cdef bint ok
        copies = [_frozen(tokens, False), _frozen(seq_start, True), _frozen(seq_end, True),
                  _frozen(doc_ngram, False), _frozen(doc_sent_lo, False),
                  _frozen(doc_sent_hi, False)]
        if type(vocab) is int and 1 <= vocab <= ID_LIMIT:
            v = vocab
        ok = v > 0 and all([c is not None for c in copies])
        if ok:
            ntok, nseq, ndoc = len(copies[0]), len(copies[1]), len(copies[3])
            ok = (len(copies[2]) == nseq and len(copies[4]) == ndoc
                  and len(copies[5]) == ndoc)
        if ok:
            self.view.tok = _ptr32(copies[0])
            self.view.start = _ptr64(copies[1])
            self.view.end = _ptr64(copies[2])
            self.view.ngram = _ptr32(copies[3])
            self.view.lo = _ptr32(copies[4])
            self.view.hi = _ptr32(copies[5])
            with nogil:
                ok = _corpus_ok(self.view.tok, ntok, self.view.start, self.view.end, nseq,
                                self.view.ngram, self.view.lo, self.view.hi, ndoc, v,
                                &self.longest)
        if not ok:      # the twin's conversions and errors
            arrays = checked_corpus(tokens, seq_start, seq_end, doc_ngram, doc_sent_lo,
                                    doc_sent_hi, vocab)
            copies = list(arrays[:6])
            v = arrays.vocab
            self.longest = arrays.longest
        self.tokens, self.seq_start, self.seq_end = copies[0], copies[1], copies[2]
        self.doc_ngram, self.doc_sent_lo, self.doc_sent_hi = copies[3], copies[4], copies[5]
        self.vocab = v
        self.documents = len(self.doc_ngram)
        self.sequences = len(self.seq_start)
        self.view.tok = _ptr32(self.tokens)
        self.view.start = _ptr64(self.seq_start)
        self.view.end = _ptr64(self.seq_end)
        self.view.ngram = _ptr32(self.doc_ngram)
        self.view.lo = _ptr32(self.doc_sent_lo)
        self.view.hi = _ptr32(self.doc_sent_hi)


cdef class Jobs:
    """The evaluations of a ``score_evals`` call (see
    ``_rouge155_counts_py``): ``Jobs(peer_seq, peer_bag, model_off,
    model_seq, model_bag)``, checked, copied and read-only;
    ``len(jobs)`` is the number of evaluations."""
    cdef readonly object peer_seq
    cdef readonly object peer_bag
    cdef readonly object model_off
    cdef readonly object model_seq
    cdef readonly object model_bag
    cdef readonly Py_ssize_t documents    # one more than the largest document index
    cdef readonly Py_ssize_t models
    cdef Py_ssize_t n
    cdef const int32_t* ps
    cdef const int32_t* pb
    cdef const int64_t* mo
    cdef const int32_t* ms
    cdef const int32_t* mb

    def __cinit__(self, peer_seq, peer_bag, model_off, model_seq, model_bag):
        cdef Py_ssize_t n = 0, k = 0
        cdef bint ok
        copies = [_frozen(peer_seq, False), _frozen(peer_bag, False), _frozen(model_off, True),
                  _frozen(model_seq, False), _frozen(model_bag, False)]
        ok = all([c is not None for c in copies])
        if ok:
            n, k = len(copies[0]), len(copies[3])
            ok = len(copies[1]) == n and len(copies[2]) == n + 1 and len(copies[4]) == k
        if ok:
            self.ps = _ptr32(copies[0])
            self.pb = _ptr32(copies[1])
            self.mo = _ptr64(copies[2])
            self.ms = _ptr32(copies[3])
            self.mb = _ptr32(copies[4])
            with nogil:
                ok = _jobs_ok(self.ps, self.pb, n, self.mo, self.ms, self.mb, k,
                              &self.documents)
        if not ok:      # the twin's conversions and errors
            arrays = checked_jobs(peer_seq, peer_bag, model_off, model_seq, model_bag)
            copies = list(arrays[:5])
            self.documents = arrays.documents
        self.peer_seq, self.peer_bag, self.model_off = copies[0], copies[1], copies[2]
        self.model_seq, self.model_bag = copies[3], copies[4]
        self.n = len(self.peer_seq)
        self.models = len(self.model_seq)
        self.ps = _ptr32(self.peer_seq)
        self.pb = _ptr32(self.peer_bag)
        self.mo = _ptr64(self.model_off)
        self.ms = _ptr32(self.model_seq)
        self.mb = _ptr32(self.model_bag)

    def __len__(self):
        return self.n


# ---------------------------------------------------------------------------
# ROUGE-N and ROUGE-S/SU: the peer's grams counted, models streamed
# ---------------------------------------------------------------------------

ctypedef struct PeerGrams:
    # The peer's skip-bigrams: ids from the gram table (_grams.pxd), counts by id.
    GramTable table
    int64_t* count       # the peer's occurrences of each id
    int64_t* used        # occurrences matched by the current model, 0 between models
    Py_ssize_t count_cap


cdef void _table_free(PeerGrams* t) noexcept nogil:
    gram_table_free(&t.table)
    free(t.count)
    free(t.used)
    memset(t, 0, sizeof(PeerGrams))


cdef int _table_clear(PeerGrams* t, Py_ssize_t grams) noexcept nogil:
    """An empty table with room for ``grams`` keys (no growth while the
    peer's are added), their counts zero."""
    cdef Py_ssize_t cap = t.count_cap
    if gram_table_reserve(&t.table, grams) < 0:
        return -1
    gram_table_clear(&t.table)
    if grow_array(<void**>&t.count, &cap, grams + 1, sizeof(int64_t), -1) < 0:
        return -1
    cap = t.count_cap
    if grow_array(<void**>&t.used, &cap, grams + 1, sizeof(int64_t), -1) < 0:
        return -1
    t.count_cap = cap
    memset(t.count, 0, (grams + 1) * sizeof(int64_t))
    memset(t.used, 0, (grams + 1) * sizeof(int64_t))
    return 0


cdef inline int _add_peer(PeerGrams* t, uint64_t key) noexcept nogil:
    cdef int32_t g = gram_intern(&t.table, key)
    if g < 0:
        return -1
    t.count[g] += 1
    return 0


cdef inline int64_t _match_model(PeerGrams* t, uint64_t key) noexcept nogil:
    cdef int32_t g = gram_find(&t.table, key)
    if g >= 0 and t.used[g] < t.count[g]:
        t.used[g] += 1
        return 1
    return 0


cdef inline Py_ssize_t _skip_hi(Py_ssize_t i, Py_ssize_t last, double distance) noexcept nogil:
    """The last j paired with i: j <= i + D + 1 (any j when D < 0)."""
    cdef double top
    if distance < 0:
        return last
    top = <double>i + distance + 1.0
    if top >= <double>last:
        return last
    return <Py_ssize_t>floor(top)


cdef inline uint64_t _bigram_key(int32_t a, int32_t b) noexcept nogil:
    return ((<uint64_t>a) << 32) | <uint64_t><uint32_t>b


cdef inline uint64_t _unigram_key(int32_t a) noexcept nogil:
    return ((<uint64_t>1) << 63) | <uint64_t>a


cdef Py_ssize_t _skip_count(Py_ssize_t T, double distance, bint unigrams) noexcept nogil:
    """How many grams createSkipBigram makes from T tokens."""
    cdef Py_ssize_t i, total = 0
    for i in range(T - 1):
        total += _skip_hi(i, T - 1, distance) - i
        if unigrams:
            total += 1
    return total


cdef int _skip_peer(PeerGrams* t, const int32_t* p, Py_ssize_t T, double distance,
                    bint unigrams) noexcept nogil:
    cdef Py_ssize_t i, j, hi
    if _table_clear(t, _skip_count(T, distance, unigrams)) < 0:
        return -1
    for i in range(T - 1):
        if unigrams and _add_peer(t, _unigram_key(p[i])) < 0:
            return -1
        hi = _skip_hi(i, T - 1, distance)
        for j in range(i + 1, hi + 1):
            if _add_peer(t, _bigram_key(p[i], p[j])) < 0:
                return -1
    return 0


cdef int64_t _skip_model(PeerGrams* t, const int32_t* q, Py_ssize_t T, double distance,
                         bint unigrams, int64_t* grams) noexcept nogil:
    """Clipped hits of the model's grams against the peer's table."""
    cdef Py_ssize_t i, j, hi
    cdef int64_t hits = 0, count = 0
    for i in range(T - 1):
        if unigrams:
            hits += _match_model(t, _unigram_key(q[i]))
            count += 1
        hi = _skip_hi(i, T - 1, distance)
        for j in range(i + 1, hi + 1):
            hits += _match_model(t, _bigram_key(q[i], q[j]))
            count += 1
    memset(t.used, 0, t.table.n * sizeof(int64_t))
    grams[0] = count
    return hits


ctypedef struct GramScratch:
    # One thread's buffers for N and S (vocab: per token id; maxlen: per
    # position of the longest sequence).
    OverlapScratch overlap   # clipped_overlap_scratch's (an n-gram order past the levels)
    PeerGrams grams          # the peer's skip-bigrams by gram-table id (a large peer)
    # The peer's tokens by local id (_local_ids)
    int32_t* loc             # vocab entries: a token's local id in the peer, -1 between uses
    int32_t* ltok            # the peer's distinct tokens by local id (maxlen entries)
    Py_ssize_t nloc
    # ROUGE-S/SU: the peer's skip-bigrams counted by local ids (see _skip_peer_local)
    int32_t* gram_count      # the peer's count of each local gram, 0 between peers
    int32_t* gram_used       # occurrences matched by the current model, 0 between models
    Py_ssize_t gram_cap
    # ROUGE-N: the peer's n-grams numbered level by level (see _ngram_peer_levels)
    int32_t* trans           # -1 between peers
    Py_ssize_t trans_cap
    Py_ssize_t* level_off    # n + 1 entries
    Py_ssize_t* count_off    # n + 1 entries: where level k's counts start (all n at once)
    Py_ssize_t nlevels       # entries of level_off and count_off (0: not allocated)
    Py_ssize_t levels_built  # levels numbered for the current peer (all n at once)
    int32_t* touched_all     # gram_used entries a model matched (all n at once)
    Py_ssize_t touched_cap
    int32_t* ids_prev        # maxlen entries each
    int32_t* ids_cur
    Py_ssize_t ngram_ids     # distinct n-grams of the current peer


cdef void gram_scratch_free(GramScratch* sc) noexcept nogil:
    overlap_scratch_free(&sc.overlap)
    _table_free(&sc.grams)
    free(sc.loc)
    free(sc.ltok)
    free(sc.gram_count)
    free(sc.gram_used)
    free(sc.trans)
    free(sc.level_off)
    free(sc.count_off)
    free(sc.touched_all)
    free(sc.ids_prev)
    free(sc.ids_cur)
    memset(sc, 0, sizeof(GramScratch))


cdef int gram_scratch_init(GramScratch* sc, Py_ssize_t vocab, Py_ssize_t maxlen) noexcept nogil:
    """Buffers for token ids below vocab (>= 1) and sequences of at most
    maxlen tokens; -1 when out of memory (sc is then freed)."""
    memset(sc, 0, sizeof(GramScratch))
    sc.loc = <int32_t*>malloc(vocab * sizeof(int32_t))
    sc.ltok = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.ids_prev = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.ids_cur = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    if sc.loc == NULL or sc.ltok == NULL or sc.ids_prev == NULL or sc.ids_cur == NULL:
        gram_scratch_free(sc)
        return -1
    memset(sc.loc, 0xFF, vocab * sizeof(int32_t))
    return 0


# A peer whose distinct tokens give at most this many local grams (u * u
# skip-bigrams + u unigrams) is counted in flat arrays; a larger one in the
# hash table.
cdef enum:
    LOCAL_GRAMS_MAX = 1 << 20


cdef Py_ssize_t _local_ids(GramScratch* sc, const int32_t* p, Py_ssize_t T) noexcept nogil:
    """Give the peer's distinct tokens local ids 0 .. u-1 in order of first
    appearance (sc.loc, sc.ltok); returns u."""
    cdef Py_ssize_t i, u = 0
    for i in range(T):
        if sc.loc[p[i]] < 0:
            sc.loc[p[i]] = <int32_t>u
            sc.ltok[u] = p[i]
            u += 1
    sc.nloc = u
    return u


cdef void _local_ids_clear(GramScratch* sc) noexcept nogil:
    unmark(sc.loc, sc.ltok, sc.nloc)
    sc.nloc = 0


cdef int _skip_peer_local(GramScratch* sc, const int32_t* p, Py_ssize_t T, double distance,
                          bint unigrams) noexcept nogil:
    """Count the peer's grams by local ids: token t is loc[t] (0 .. u-1, in
    order of first appearance), bigram (a, b) is gram a*u + b and unigram a
    is gram u*u + a. A model's gram with a token not in the peer is no hit,
    found with one load. Returns 1, or 0 when the peer has too many
    distinct tokens (use the hash table), -1 when out of memory."""
    cdef Py_ssize_t i, j, hi, u = _local_ids(sc, p, T), a
    if u * u + u > LOCAL_GRAMS_MAX:
        return 0
    cdef Py_ssize_t cap = sc.gram_cap
    if grow_array(<void**>&sc.gram_count, &cap, u * u + u, sizeof(int32_t), 0) < 0:
        return -1
    cap = sc.gram_cap
    if grow_array(<void**>&sc.gram_used, &cap, u * u + u, sizeof(int32_t), 0) < 0:
        return -1
    sc.gram_cap = cap
    for i in range(T - 1):
        a = sc.loc[p[i]]
        if unigrams:
            sc.gram_count[u * u + a] += 1
        hi = _skip_hi(i, T - 1, distance)
        for j in range(i + 1, hi + 1):
            sc.gram_count[a * u + sc.loc[p[j]]] += 1
    return 1


cdef void _skip_peer_clear(GramScratch* sc, const int32_t* p, Py_ssize_t T, double distance,
                           bint unigrams, bint counted) noexcept nogil:
    """Zero what _skip_peer_local set for this peer."""
    cdef Py_ssize_t i, j, hi, u = sc.nloc, a
    if counted:
        for i in range(T - 1):
            a = sc.loc[p[i]]
            if unigrams:
                sc.gram_count[u * u + a] = 0
            hi = _skip_hi(i, T - 1, distance)
            for j in range(i + 1, hi + 1):
                sc.gram_count[a * u + sc.loc[p[j]]] = 0
    _local_ids_clear(sc)


cdef int64_t _skip_model_local(GramScratch* sc, const int32_t* q, Py_ssize_t T, double distance,
                               bint unigrams) noexcept nogil:
    """Clipped hits of the model's grams against the peer's local counts
    (the same as _skip_model's against the hash table)."""
    cdef Py_ssize_t i, j, hi, u = sc.nloc, a, b, g
    cdef int64_t hits = 0
    for i in range(T - 1):
        a = sc.loc[q[i]]
        if a < 0:
            continue
        if unigrams:
            g = u * u + a
            if sc.gram_used[g] < sc.gram_count[g]:
                sc.gram_used[g] += 1
                hits += 1
        hi = _skip_hi(i, T - 1, distance)
        for j in range(i + 1, hi + 1):
            b = sc.loc[q[j]]
            if b >= 0:
                g = a * u + b
                if sc.gram_used[g] < sc.gram_count[g]:
                    sc.gram_used[g] += 1
                    hits += 1
    for i in range(T - 1):           # leave gram_used zeroed
        a = sc.loc[q[i]]
        if a < 0:
            continue
        if unigrams:
            sc.gram_used[u * u + a] = 0
        hi = _skip_hi(i, T - 1, distance)
        for j in range(i + 1, hi + 1):
            b = sc.loc[q[j]]
            if b >= 0:
                sc.gram_used[a * u + b] = 0
    return hits


cdef int _level_room(GramScratch* sc, Py_ssize_t n) noexcept nogil:
    """level_off and count_off with room for levels 0 .. n."""
    if n + 1 <= sc.nlevels:
        return 0
    free(sc.level_off)
    free(sc.count_off)
    sc.level_off = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
    sc.count_off = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
    if sc.level_off == NULL or sc.count_off == NULL:
        free(sc.level_off)
        free(sc.count_off)
        sc.level_off = sc.count_off = NULL
        sc.nlevels = 0
        return -1
    sc.nlevels = n + 1
    return 0


cdef void _ngram_peer_clear(GramScratch* sc, const int32_t* p, Py_ssize_t T, Py_ssize_t n,
                            bint counted) noexcept nogil:
    """Undo _ngram_peer_levels (levels 1 .. n): each level's ids are read
    before its entries are reset."""
    cdef Py_ssize_t i, k, u = sc.nloc, key
    cdef int32_t* tmp
    if counted and T >= n:
        if sc.ngram_ids:        # (gram_count may not exist yet: memset of NULL is UB)
            memset(sc.gram_count, 0, sc.ngram_ids * sizeof(int32_t))
        for i in range(T):
            sc.ids_prev[i] = sc.loc[p[i]]
        for k in range(2, n + 1):
            for i in range(T - k + 1):
                sc.ids_cur[i] = sc.trans[sc.level_off[k] + sc.ids_prev[i] * u
                                         + sc.loc[p[i + k - 1]]]
            for i in range(T - k + 1):
                key = sc.level_off[k] + sc.ids_prev[i] * u + sc.loc[p[i + k - 1]]
                sc.trans[key] = -1
            tmp = sc.ids_prev
            sc.ids_prev = sc.ids_cur
            sc.ids_cur = tmp
    sc.ngram_ids = 0
    _local_ids_clear(sc)


cdef int _ngram_peer_levels(GramScratch* sc, const int32_t* p, Py_ssize_t T,
                            Py_ssize_t nmax) noexcept nogil:
    """Number the peer's k-grams for k = 1 .. nmax, level by level: level 1
    is the local token id; a (k-1)-gram id x followed by the token of local
    id b is the k-gram trans[level_off[k] + x*u + b], numbered on first
    sight. A model's k-gram is then k loads away, and one with a token or
    prefix not in the peer stops early. The peer's count of each k-gram is
    at gram_count[count_off[k] + id]. Returns 1, 0 when the tables would be
    too large (the caller counts pair by pair), -1 when out of memory."""
    cdef Py_ssize_t i, k, u = _local_ids(sc, p, T), nid, next_nid, off = 0, key, size
    cdef Py_ssize_t total, cap
    cdef int32_t* tmp
    sc.levels_built = 0
    sc.ngram_ids = 0
    if T == 0:
        return 1
    # (T * u < 2**62 as T < 2**31; checked before it multiplies nmax - 1)
    if (T * u > LOCAL_GRAMS_MAX or nmax > LOCAL_GRAMS_MAX
            or (nmax - 1) * (T * u) + u > LOCAL_GRAMS_MAX):
        return 0
    if _level_room(sc, nmax) < 0:
        return -1
    cap = sc.gram_cap
    if grow_array(<void**>&sc.gram_count, &cap, u, sizeof(int32_t), 0) < 0:
        return -1
    cap = sc.gram_cap
    if grow_array(<void**>&sc.gram_used, &cap, u, sizeof(int32_t), 0) < 0:
        return -1
    sc.gram_cap = cap
    for i in range(T):
        sc.ids_prev[i] = sc.loc[p[i]]
        sc.gram_count[sc.ids_prev[i]] += 1
    sc.count_off[1] = 0
    total = nid = u
    sc.levels_built = 1
    sc.ngram_ids = total
    for k in range(2, nmax + 1):
        if T - k + 1 <= 0:
            break
        size = nid * u
        sc.level_off[k] = off
        if grow_array(<void**>&sc.trans, &sc.trans_cap, off + size, sizeof(int32_t), 0xFF) < 0:
            return -1
        next_nid = 0
        for i in range(T - k + 1):
            key = off + sc.ids_prev[i] * u + sc.loc[p[i + k - 1]]
            if sc.trans[key] < 0:
                sc.trans[key] = <int32_t>next_nid
                next_nid += 1
            sc.ids_cur[i] = sc.trans[key]
        cap = sc.gram_cap
        if grow_array(<void**>&sc.gram_count, &cap, total + next_nid, sizeof(int32_t), 0) < 0:
            return -1
        cap = sc.gram_cap
        if grow_array(<void**>&sc.gram_used, &cap, total + next_nid, sizeof(int32_t), 0) < 0:
            return -1
        sc.gram_cap = cap
        sc.count_off[k] = total
        for i in range(T - k + 1):
            sc.gram_count[total + sc.ids_cur[i]] += 1
        total += next_nid
        sc.levels_built = k
        sc.ngram_ids = total
        tmp = sc.ids_prev
        sc.ids_prev = sc.ids_cur
        sc.ids_cur = tmp
        off += size
        nid = next_nid
    return 1


cdef int _ngram_model_levels(GramScratch* sc, const int32_t* q, Py_ssize_t T,
                             int64_t* hits) noexcept nogil:
    """Clipped hits of the model's k-grams for k = 1 .. levels_built
    (hits[k - 1]) against the peer's numbered grams: one walk per position,
    stopped at the first token or prefix not in the peer. -1: out of memory."""
    cdef Py_ssize_t i, k, u = sc.nloc, K = sc.levels_built, x, b, g, touched = 0
    for k in range(K):
        hits[k] = 0
    if K == 0:
        return 0
    if grow_array(<void**>&sc.touched_all, &sc.touched_cap, T * K + 1, sizeof(int32_t),
                  -1) < 0:
        return -1
    for i in range(T):
        x = sc.loc[q[i]]
        k = 1
        while x >= 0:
            g = sc.count_off[k] + x
            if sc.gram_used[g] < sc.gram_count[g]:
                if sc.gram_used[g] == 0:
                    sc.touched_all[touched] = <int32_t>g
                    touched += 1
                sc.gram_used[g] += 1
                hits[k - 1] += 1
            k += 1
            if k > K or i + k - 1 >= T:
                break
            b = sc.loc[q[i + k - 1]]
            x = sc.trans[sc.level_off[k] + x * u + b] if b >= 0 else -1
    for i in range(touched):
        sc.gram_used[sc.touched_all[i]] = 0
    return 0


cdef int _ngram_evals(const CorpusView* c, const int32_t* ps, const int64_t* mo,
                      const int32_t* ms, Py_ssize_t E, Py_ssize_t vocab, Py_ssize_t maxlen,
                      Py_ssize_t first, Py_ssize_t nmax, bint best_model, double alpha,
                      GramScratch* sc, double* out) noexcept nogil:
    """ROUGE-first .. ROUGE-nmax of every evaluation in one pass over the
    texts: the values of ROUGE-k at out[((k - first) * E + e) * 6 + j].
    Returns 0, or -1 when out of memory."""
    cdef Py_ssize_t orders = nmax - first + 1, e, k, kk, md, np_, nm
    cdef double* th = <double*>malloc(orders * sizeof(double))
    cdef double* tm = <double*>malloc(orders * sizeof(double))
    cdef double* tp = <double*>malloc(orders * sizeof(double))
    cdef double* best = <double*>malloc(orders * sizeof(double))
    # (levels beyond the longest sequence have no grams)
    cdef int64_t* hits = <int64_t*>malloc((min(nmax, maxlen) + 1) * sizeof(int64_t))
    cdef const int32_t* pt
    cdef const int32_t* mt
    cdef int64_t hit, mcount, pcount
    cdef double score, r, p
    cdef double* row
    cdef int local, err = 0
    if th == NULL or tm == NULL or tp == NULL or best == NULL or hits == NULL:
        err = -1
    e = 0
    while err == 0 and e < E:
        pt = corpus_seq(c, c.ngram[ps[e]], &np_)
        for kk in range(orders):
            th[kk] = tm[kk] = tp[kk] = 0.0
            best[kk] = -1.0
        local = _ngram_peer_levels(sc, pt, np_, nmax)
        if local < 0:
            err = -1
            break
        for k in range(mo[e], mo[e + 1]):
            md = ms[k]
            mt = corpus_seq(c, c.ngram[md], &nm)
            if local and _ngram_model_levels(sc, mt, nm, hits) < 0:
                err = -1
                break
            for kk in range(first, nmax + 1):          # ROUGE-kk
                if local:
                    hit = hits[kk - 1] if kk <= sc.levels_built else 0
                else:
                    hit = clipped_overlap_scratch(pt, np_, mt, nm, vocab, kk, &sc.overlap)
                    if hit < 0:
                        err = -1
                        break
                mcount = nm - kk + 1 if nm >= kk else 0
                pcount = np_ - kk + 1 if np_ >= kk else 0
                # ngramScore's: sprintf("%07.5f")
                score = _round5(<double>hit / mcount) if mcount else 0.0
                if best_model:
                    if score > best[kk - first]:
                        best[kk - first] = score
                        th[kk - first] = <double>hit
                        tm[kk - first] = <double>mcount
                        tp[kk - first] = <double>pcount
                else:
                    th[kk - first] += <double>hit
                    tm[kk - first] += <double>mcount
                    tp[kk - first] += <double>pcount
            if err != 0:
                break
        _ngram_peer_clear(sc, pt, np_, sc.levels_built, local == 1)
        if err != 0:
            break
        for kk in range(orders):
            r = _round5(th[kk] / tm[kk]) if tm[kk] != 0 else 0.0
            p = _round5(th[kk] / tp[kk]) if tp[kk] != 0 else 0.0
            row = out + (kk * E + e) * 6
            row[0] = tm[kk]
            row[1] = th[kk]
            row[2] = tp[kk]
            row[3] = r
            row[4] = p
            row[5] = f_measure(p, r, alpha)
        e += 1
    free(th)
    free(tm)
    free(tp)
    free(best)
    free(hits)
    return err


# ---------------------------------------------------------------------------
# score_evals
# ---------------------------------------------------------------------------

def score_evals(str metric, corpus, jobs, *, Py_ssize_t n=1, double skip_distance=-1.0,
                bint skip_unigrams=False, double weight=1.0, bint best_model=False,
                double alpha=0.5, bint all_n=False):
    """Counts and scores of one measure for every evaluation of ``jobs`` (a
    ``Jobs``) on ``corpus`` (a ``Corpus``): an ``Evals`` (see
    ``_rouge155_counts_py.score_evals``). Runs without the GIL."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    cdef int kind = METRICS.index(metric)
    if kind == 0 and n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if kind == 3 and not weight > 0:
        raise ValueError(f"weight must be > 0, got {weight}")
    if kind == 1 and isnan(skip_distance):
        raise ValueError("skip_distance must be a number, got nan")
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a Corpus, not {type(corpus).__name__}")
    if not isinstance(jobs, Jobs):
        raise TypeError(f"jobs must be a Jobs, not {type(jobs).__name__}")
    cdef Corpus cp = <Corpus>corpus
    cdef Jobs jb = <Jobs>jobs
    # The corpus and the jobs checked their own indices when they were made;
    # the jobs' documents must be the corpus's.
    if jb.documents > cp.documents:
        check_documents(jb, cp.documents)
    if all_n and (kind != 0 or n > 64):
        raise ValueError("all_n is for metric 'N' with n <= 64")
    cdef Py_ssize_t E = jb.n, i
    cdef Py_ssize_t vocab = cp.vocab, maxlen = cp.longest
    all_arr = np.zeros((n if all_n else 0, E if all_n else 0, 6), dtype=np.float64)
    cdef double[:, :, ::1] all_view = all_arr
    cdef double* all_out = &all_view[0, 0, 0] if all_n and E > 0 else NULL
    out_arr = np.zeros((0 if all_n else E, 6), dtype=np.float64)
    cdef double[:, ::1] out = out_arr
    cdef double* n_out = &out[0, 0] if not all_n and E > 0 else NULL
    cdef const CorpusView* c = &cp.view
    cdef const int32_t* ps = jb.ps
    cdef const int32_t* pb = jb.pb
    cdef const int64_t* mo = jb.mo
    cdef const int32_t* ms = jb.ms
    cdef const int32_t* mb = jb.mb
    cdef GramScratch gs
    cdef LwScratch lw
    cdef Py_ssize_t e, k, pd, md, np_, nm, nbag, bad = -1
    cdef const int32_t* pt
    cdef const int32_t* mt
    cdef int64_t hit, mcount, pcount, lbase, grams
    cdef double score, best, th, tm, tp, whit, wbase, r, p, inv_w = 1.0 / weight
    cdef int err = 0, local = 0
    cdef bint fast
    memset(&gs, 0, sizeof(GramScratch))
    memset(&lw, 0, sizeof(LwScratch))
    with nogil:
        if kind <= 1:                   # N, S
            err = gram_scratch_init(&gs, vocab, maxlen)
        else:                           # L, W
            err = lw_scratch_init(&lw, vocab, maxlen, weight)
        e = 0
        if err == 0 and kind == 0:      # ROUGE-N: one order, or 1 .. n
            err = _ngram_evals(c, ps, mo, ms, E, vocab, maxlen, 1 if all_n else n, n,
                               best_model, alpha, &gs, all_out if all_n else n_out)
            e = E
        while err == 0 and bad < 0 and e < E:
            pd = ps[e]
            pt = corpus_seq(c, c.ngram[pd], &np_)
            corpus_seq(c, c.ngram[pb[e]], &nbag)    # the peer's unigram count (L, W)
            th = tm = tp = 0.0
            best = -1.0
            if kind == 1:
                pcount = _skip_count(np_, skip_distance, skip_unigrams)
                local = _skip_peer_local(&gs, pt, np_, skip_distance, skip_unigrams)
                if local < 0 or (local == 0 and _skip_peer(&gs.grams, pt, np_, skip_distance,
                                                           skip_unigrams) < 0):
                    err = -1
                    break
            else:
                pcount = nbag
            for k in range(mo[e], mo[e + 1]):
                md = ms[k]
                if kind == 1:            # ROUGE-S / SU
                    mt = corpus_seq(c, c.ngram[md], &nm)
                    if local:
                        hit = _skip_model_local(&gs, mt, nm, skip_distance, skip_unigrams)
                    else:
                        hit = _skip_model(&gs.grams, mt, nm, skip_distance, skip_unigrams,
                                          &grams)
                    mcount = _skip_count(nm, skip_distance, skip_unigrams)
                else:                    # ROUGE-L / W
                    fast = (kind == 2 and mb[k] == md and pb[e] == pd
                            and bag_is_sentences(c, md) and bag_is_sentences(c, pd))
                    hit = -2
                    if fast:
                        hit = l_summary_hits(c, md, pd, vocab, &lw)
                        lbase = 0
                        for i in range(c.lo[md], c.hi[md]):
                            lbase += c.end[i] - c.start[i]
                    if hit == -2:
                        hit = lw_hits(c, md, mb[k], pd, pb[e], &lw, kind == 3,
                                      &whit, &wbase, &lbase)
                    mcount = lbase
                if hit < 0:
                    err = -1
                    break
                if kind == 3:            # the script's wlcs and its use of it
                    if wbase == 0:
                        bad = k          # the script dies: Illegal division by zero
                        break
                    score = pow(whit / wbase, inv_w)
                    if best_model:
                        if score > best:
                            best = score
                            th, tm, tp = whit, pow(wbase, weight), pow(<double>nbag, weight)
                    else:
                        th += whit
                        tm += pow(wbase, weight)
                        tp += pow(<double>nbag, weight)
                    continue
                if kind == 2:            # lcs's score: hit / base, unrounded
                    score = <double>hit / mcount if mcount > 0 else 0.0
                else:                    # ngramScore's: sprintf("%07.5f")
                    score = _round5(<double>hit / mcount) if mcount else 0.0
                if best_model:
                    if score > best:
                        best = score
                        th, tm, tp = <double>hit, <double>mcount, <double>pcount
                else:
                    th += <double>hit
                    tm += <double>mcount
                    tp += <double>pcount
            if kind == 1:
                _skip_peer_clear(&gs, pt, np_, skip_distance, skip_unigrams, local == 1)
            if err != 0 or bad >= 0:
                break
            if kind == 3:
                r = _round5(pow(th / tm, inv_w)) if tm != 0 else 0.0
                p = _round5(pow(th / tp, inv_w)) if tp != 0 else 0.0
            else:
                r = _round5(th / tm) if tm != 0 else 0.0
                p = _round5(th / tp) if tp != 0 else 0.0
            out[e, 0] = tm
            out[e, 1] = th
            out[e, 2] = tp
            out[e, 3] = r
            out[e, 4] = p
            out[e, 5] = f_measure(p, r, alpha)
            e += 1
        gram_scratch_free(&gs)
        lw_scratch_free(&lw)
    if err != 0:
        raise MemoryError()
    if all_n:
        return Evals(all_arr, -1)
    return Evals(out_arr, bad)
