# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled many-texts kernels: one query against a stored collection, and
the greedy de-duplication filter. ``_index_py`` is the pure-Python twin and
the readable specification (its docstring explains the filter's bounds).

A ``TextIndex`` stores texts as *units* in C arrays, with no Python object
per text: token ids for rougeL, n-gram ids for rougeN (an n-gram's id comes
from a trie of exact tables, (id of its first n-1 tokens, last token) -> id in
``_grams.pxd``'s table, so two n-grams never share one). Texts are tokenized
by the compiled default tokenizer into the index's own vocabulary, or come as
token lists (a custom tokenizer) numbered through a dict.

The query is the bit-vector side of the LCS: its match masks are built once
(ceil(len / 64) words per distinct query unit), then each stored text is
one pass over its units, a table look-up and a few word operations per
unit. ``score_range`` runs with the GIL released, so threads scoring
different ranges run in parallel. P, R and F are computed in C by
``_prf.pxd``, with rouge-score's expressions in its order of operations, so
every F equals rouge-score's.

Several threads may read an index at once (``score_range``, a live
``Dedup``); changing it (adding texts, setting the query) needs it unread.
A call that would break that raises RuntimeError instead of waiting;
``rougekit.index`` serializes its own calls with a lock.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memcpy, memset

from rougekit._core._grams cimport GramTable, gram_find, gram_intern, gram_table_free
from rougekit._core._kinds cimport ROUGE_L
from rougekit._core._lcs cimport (lcs_advance, lcs_length_ids, lcs_step64, lcs_zeros_below,
                                   lcs_zeros_below64)
from rougekit._core._mem cimport MAX_IDS, grow_array, grow_to, unmark
from rougekit._core._prf cimport lcs_prf
from rougekit._core._tokenizer cimport (TokenBuf, str_buffer, tokbuf_free, tokbuf_init,
                                         tokenize_text)
from rougekit._core._vocab cimport Vocab, vocab_free, vocab_init, vocab_intern

cdef extern from "compat.h" nogil:
    int rk_flag_try_acquire(long* f)
    void rk_flag_release(long* f)
    int rk_rw_try_read(long* s)
    void rk_rw_read_done(long* s)
    int rk_rw_try_write(long* s)
    void rk_rw_write_done(long* s)
    long rk_fetch_add(long* p, long v)

__all__ = ["KIND_L", "TextIndex", "Dedup", "fmeasure_of", "min_hits", "prefix_length",
           "length_range"]

# rougeL's kind (_kinds.pxd), for Python.
KIND_L = ROUGE_L

cdef enum:
    # Texts tokenized per nogil section in add_texts.
    ADD_CHUNK = 256
    # A text's sorted elements: insertion sort up to this size, else qsort.
    SMALL_SORT = 32
    # int32 fields of a Dedup candidate (Dedup._violates)
    CAND_FIELDS = 7

# Precomputed masks up to this many words (32 MiB) per text; a longer text
# with many distinct units is compared pair by pair with lcs_length_ids.
cdef Py_ssize_t MASK_BUDGET_WORDS = 4194304
cdef uint64_t ONES = ~(<uint64_t>0)
# See _index_py.MARGIN.
cdef double MARGIN = 1e-9

_BUSY = ("this index is in use by another thread (being read, or a deduplication "
         "holds it): its texts and query cannot change now")


# --- rouge-score's F and the filter's bounds (_index_py has the reasoning) -----

cdef inline double _fmeasure_of(Py_ssize_t h, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """F of h common units; a units in the target, b in the prediction
    (rougeL's F of _prf.pxd, which rougeN's is too when a, b > 0)."""
    cdef double prf[3]
    lcs_prf(h, a, b, prf)
    return prf[2]


cdef Py_ssize_t _min_hits(Py_ssize_t a, Py_ssize_t b, double thr) noexcept nogil:
    cdef Py_ssize_t m, h
    cdef double start
    if a == 0 or b == 0:
        return -1
    m = a if a < b else b
    start = thr * <double>(a + b) * 0.5 * (1.0 - MARGIN)
    if not (start <= <double>m + 1.0):
        return -1
    h = <Py_ssize_t>start - 1
    if h < 0:
        h = 0
    while h <= m:
        if _fmeasure_of(h, a, b) > thr:
            return h
        h += 1
    return -1


cdef Py_ssize_t _prefix_length(Py_ssize_t count, double thr) noexcept nogil:
    cdef double x
    cdef Py_ssize_t t
    if count <= 0 or not (thr < 1.0):
        return 0
    x = thr * <double>count / (2.0 - thr)
    t = <Py_ssize_t>(x - x * MARGIN) + 1
    return count - t + 1 if count - t + 1 > 0 else 0


cdef void _length_range(Py_ssize_t count, double thr, Py_ssize_t* low,
                        Py_ssize_t* high) noexcept nogil:
    cdef double x = thr * <double>count / (2.0 - thr), y
    low[0] = <Py_ssize_t>(x - x * MARGIN)
    high[0] = MAX_IDS
    if thr > 0.0:
        y = <double>count * (2.0 - thr) / thr
        y = y + y * MARGIN + 1.0
        if y < <double>MAX_IDS:
            high[0] = <Py_ssize_t>y


def fmeasure_of(Py_ssize_t hits, Py_ssize_t target_count, Py_ssize_t prediction_count):
    """rouge-score's F of ``hits`` common units (_index_py.fmeasure_of).

    >>> fmeasure_of(2, 3, 2)
    0.8
    """
    return _fmeasure_of(hits, target_count, prediction_count)


def min_hits(Py_ssize_t target_count, Py_ssize_t prediction_count, double threshold):
    """The fewest common units giving F > threshold, or -1 (_index_py.min_hits).

    >>> min_hits(10, 10, 0.7), min_hits(10, 30, 0.7), min_hits(0, 5, 0.0)
    (8, -1, -1)
    """
    return _min_hits(target_count, prediction_count, threshold)


def prefix_length(Py_ssize_t count, double threshold):
    """Elements of a text to list or probe (_index_py.prefix_length).

    >>> prefix_length(10, 0.7), prefix_length(10, 0.0), prefix_length(10, 1.0)
    (5, 10, 0)
    """
    return _prefix_length(count, threshold)


def length_range(Py_ssize_t count, double threshold):
    """``(low, high)``: sizes that may pass (_index_py.length_range); ``high``
    is None when unbounded.

    >>> length_range(10, 0.7)
    (5, 19)
    """
    cdef Py_ssize_t low, high
    _length_range(count, threshold, &low, &high)
    return low, (None if high == MAX_IDS else high)


# --- n-gram ids: (id of the first n-1 tokens, last token) -> id -----------------
# (in _grams.pxd's table; one table per n-gram length)

cdef inline uint64_t _gram_key(int32_t parent, int32_t tok) noexcept nogil:
    return (<uint64_t><uint32_t>parent << 32) | <uint64_t><uint32_t>tok


cdef inline int32_t _gram_find(const GramTable* t, int32_t parent, int32_t tok) noexcept nogil:
    """The id of (parent, tok), or -1 if absent (or either part is -1)."""
    if parent < 0 or tok < 0:
        return -1
    return gram_find(t, _gram_key(parent, tok))


# --- one text's match masks (the bit-vector side of the LCS) ------------------------

ctypedef struct Masks:
    # The bit side's units: unit v occurs at the positions set in
    # pm[loc[v] * W : (loc[v] + 1) * W] (rougeL), cnt[loc[v]] times (rougeN);
    # loc[v] is -1 for the other units, and dist lists the units with an
    # entry so that loc is cleared after use. known: the units >= 0, in
    # order (lcs_length_ids's input when the masks would be too big).
    int32_t* loc
    Py_ssize_t loc_cap
    int32_t* dist
    Py_ssize_t ndist, dist_cap
    uint64_t* pm
    Py_ssize_t pm_cap
    int32_t* cnt
    Py_ssize_t cnt_cap
    int32_t* known
    Py_ssize_t nknown, known_cap
    Py_ssize_t W, len
    bint sparse


cdef void _masks_clear(Masks* mk) noexcept nogil:
    unmark(mk.loc, mk.dist, mk.ndist)
    mk.ndist = 0
    mk.len = 0
    mk.nknown = 0
    mk.W = 0
    mk.sparse = False


cdef void _masks_free(Masks* mk) noexcept nogil:
    free(mk.loc)
    free(mk.dist)
    free(mk.pm)
    free(mk.cnt)
    free(mk.known)
    memset(mk, 0, sizeof(Masks))


cdef int _masks_cover(Masks* mk, Py_ssize_t units) noexcept nogil:
    """loc has an entry (-1 when new) for every unit id below ``units``."""
    cdef Py_ssize_t cap
    if units <= mk.loc_cap:
        return 0
    cap = mk.loc_cap * 2 if mk.loc_cap * 2 > units else units
    if grow_to(<void**>&mk.loc, mk.loc_cap, cap, sizeof(int32_t), 0xFF) < 0:
        return -1
    mk.loc_cap = cap
    return 0


cdef int _masks_build(Masks* mk, const int32_t* u, Py_ssize_t n, bint lcs) noexcept nogil:
    """Masks (rougeL) or counts (rougeN) of u[0:n], replacing the previous
    ones; loc must cover every unit of u. Units < 0 match nothing. Returns
    -1 when out of memory (mk is then empty)."""
    cdef Py_ssize_t j, W = (n + 63) >> 6
    cdef int32_t v
    _masks_clear(mk)
    for j in range(n):
        v = u[j]
        if v >= 0 and mk.loc[v] < 0:
            if grow_array(<void**>&mk.dist, &mk.dist_cap, mk.ndist + 1, sizeof(int32_t), -1) < 0:
                _masks_clear(mk)
                return -1
            mk.loc[v] = <int32_t>mk.ndist
            mk.dist[mk.ndist] = v
            mk.ndist += 1
    mk.len = n
    mk.W = W
    if not lcs:
        if grow_array(<void**>&mk.cnt, &mk.cnt_cap, mk.ndist + 1, sizeof(int32_t), -1) < 0:
            _masks_clear(mk)
            return -1
        memset(mk.cnt, 0, mk.ndist * sizeof(int32_t))
        for j in range(n):
            if u[j] >= 0:
                mk.cnt[mk.loc[u[j]]] += 1
        return 0
    if mk.ndist > 0 and W > MASK_BUDGET_WORDS // mk.ndist:
        mk.sparse = True
        if grow_array(<void**>&mk.known, &mk.known_cap, n + 1, sizeof(int32_t), -1) < 0:
            _masks_clear(mk)
            return -1
        for j in range(n):
            if u[j] >= 0:
                mk.known[mk.nknown] = u[j]
                mk.nknown += 1
        return 0
    if grow_array(<void**>&mk.pm, &mk.pm_cap, mk.ndist * W + 1, sizeof(uint64_t), -1) < 0:
        _masks_clear(mk)
        return -1
    memset(mk.pm, 0, mk.ndist * W * sizeof(uint64_t))
    for j in range(n):
        if u[j] >= 0:
            mk.pm[mk.loc[u[j]] * W + (j >> 6)] |= (<uint64_t>1) << (j & 63)
    return 0


cdef Py_ssize_t _lcs_hits(const Masks* mk, const int32_t* y, Py_ssize_t b,
                          uint64_t* S, int32_t* head) noexcept nogil:
    """LCS length of the masked text and y[0:b] (units >= 0 below the loc
    cover); -1 when out of memory. S has room for mk.W words; head (used
    only with sparse masks) holds -1 for every unit."""
    cdef Py_ssize_t a = mk.len, W = mk.W, j, w
    cdef int32_t loc
    cdef uint64_t s
    if b == 0 or mk.ndist == 0:
        return 0
    if mk.sparse:
        # Units no stored text has never match: leaving them out keeps the LCS.
        return lcs_length_ids(mk.known, mk.nknown, y, b, head)
    if W == 1:
        s = ONES
        for j in range(b):
            loc = mk.loc[y[j]]
            if loc >= 0:
                s = lcs_step64(s, mk.pm[loc])
        return lcs_zeros_below64(s, a)
    for w in range(W):
        S[w] = ONES
    for j in range(b):
        loc = mk.loc[y[j]]
        if loc >= 0:
            lcs_advance(S, mk.pm + loc * W, W)
    return lcs_zeros_below(S, a)


cdef Py_ssize_t _ngram_hits(const Masks* mk, const int32_t* y, Py_ssize_t b,
                            int32_t* used) noexcept nogil:
    """Clipped overlap of the masked units and y[0:b]; used holds a zero for
    every local unit, and again on return."""
    cdef Py_ssize_t j, h = 0
    cdef int32_t loc
    for j in range(b):
        loc = mk.loc[y[j]]
        if loc >= 0 and used[loc] < mk.cnt[loc]:
            used[loc] += 1
            h += 1
    for j in range(b):
        loc = mk.loc[y[j]]
        if loc >= 0:
            used[loc] = 0
    return h


ctypedef struct PairScratch:
    # What one thread needs to score a masked text against many texts.
    uint64_t* S                 # the LCS row (W words)
    Py_ssize_t S_cap
    int32_t* head               # lcs_length_ids's table: -1 for every unit
    Py_ssize_t head_cap
    int32_t* used               # rougeN: 0 for every local unit
    Py_ssize_t used_cap


cdef int _pair_reserve(PairScratch* ps, const Masks* mk, bint lcs,
                       Py_ssize_t units) noexcept nogil:
    """Room in ps for the masked text mk; -1 when out of memory."""
    if grow_array(<void**>&ps.S, &ps.S_cap, mk.W + 1, sizeof(uint64_t), -1) < 0:
        return -1
    if not lcs:
        return grow_array(<void**>&ps.used, &ps.used_cap, mk.ndist + 1, sizeof(int32_t), 0)
    if mk.sparse:
        return grow_array(<void**>&ps.head, &ps.head_cap, units + 1, sizeof(int32_t), 0xFF)
    return 0


cdef void _pair_scratch_free(PairScratch* ps) noexcept nogil:
    free(ps.S)
    free(ps.head)
    free(ps.used)
    memset(ps, 0, sizeof(PairScratch))


cdef inline Py_ssize_t _hits(const Masks* mk, bint lcs, const int32_t* y, Py_ssize_t b,
                             PairScratch* ps) noexcept nogil:
    if lcs:
        return _lcs_hits(mk, y, b, ps.S, ps.head)
    return _ngram_hits(mk, y, b, ps.used)


# --- the index -------------------------------------------------------------------

cdef object _py_tokens(str text, bint stem):
    """The pure tokenizer's tokens, for a text the C stemmer gave up on."""
    from rougekit._core import _tokenizer_py
    return _tokenizer_py.tokenize(text, stem)


cdef class TextIndex:
    """Texts stored as unit ids in C arrays (module docstring).

    ``TextIndex(kind, use_stemmer, default_tokens)``: ``kind`` is -1 (rougeL)
    or n (rougeN, 1 to 9); with ``default_tokens`` it takes ``str`` texts
    (``add_texts``, ``set_query_text``), else token lists.
    """
    cdef readonly int kind
    cdef readonly bint default_tokens
    cdef bint stem
    cdef bint lcs
    cdef Vocab vocab
    cdef TokenBuf tb
    cdef dict token_ids
    cdef Py_ssize_t ntoken_ids    # len(token_ids), readable without the GIL
    cdef GramTable* grams         # kind - 1 tables: n-grams of 2 .. kind tokens
    cdef Py_ssize_t ngrams
    cdef int32_t* units
    cdef Py_ssize_t nunits, units_cap
    cdef Py_ssize_t* off          # text i is units[off[i] : off[i + 1]]
    cdef Py_ssize_t ntexts, off_cap
    cdef int32_t* tmp             # one text's ids while it is added or queried
    cdef Py_ssize_t tmp_cap
    cdef int32_t* q               # the query's units
    cdef Py_ssize_t q_cap
    cdef Masks mk                 # the query's masks (mk.len units)
    cdef long state               # readers-writer state (compat.h)

    def __cinit__(self, int kind, bint use_stemmer, bint default_tokens):
        if kind != ROUGE_L and not 1 <= kind <= 9:
            raise ValueError(f"kind must be {KIND_L} (rougeL) or 1 to 9 (rougeN), got {kind}")
        self.kind = kind
        self.lcs = kind == ROUGE_L
        self.default_tokens = default_tokens
        self.stem = use_stemmer and default_tokens
        self.token_ids = {}
        self.state = 0
        if vocab_init(&self.vocab, False) < 0 or tokbuf_init(&self.tb) < 0:
            raise MemoryError()
        self.ngrams = kind - 1 if kind > 1 else 0
        if self.ngrams:
            self.grams = <GramTable*>calloc(self.ngrams, sizeof(GramTable))
            if self.grams == NULL:
                raise MemoryError()
        self.off = <Py_ssize_t*>malloc(16 * sizeof(Py_ssize_t))
        if self.off == NULL:
            raise MemoryError()
        self.off_cap = 16
        self.off[0] = 0

    def __dealloc__(self):
        cdef Py_ssize_t k
        vocab_free(&self.vocab)
        tokbuf_free(&self.tb)
        if self.grams != NULL:
            for k in range(self.ngrams):
                gram_table_free(&self.grams[k])
            free(self.grams)
        free(self.units)
        free(self.off)
        free(self.tmp)
        free(self.q)
        _masks_free(&self.mk)

    def __len__(self):
        return self.ntexts

    def count(self, Py_ssize_t i):
        """The number of units (tokens, or n-grams) of stored text ``i``."""
        cdef Py_ssize_t c
        if not rk_rw_try_read(&self.state):
            raise RuntimeError("this index is being changed by another thread")
        try:
            if not 0 <= i < self.ntexts:
                raise IndexError(f"text {i} out of range [0, {self.ntexts})")
            c = self.off[i + 1] - self.off[i]
        finally:
            rk_rw_read_done(&self.state)
        return c

    cdef Py_ssize_t _unit_space(self) noexcept nogil:
        if self.ngrams:
            return self.grams[self.ngrams - 1].n
        if self.default_tokens:
            return self.vocab.n
        return self.ntoken_ids

    def unit_space(self):
        """One more than the largest unit id in use."""
        return self._unit_space()

    # -- tokens to units ---------------------------------------------------------

    cdef Py_ssize_t _units_of(self, const int32_t* tok, Py_ssize_t m, bint add) noexcept nogil:
        """Units of the token ids tok[0:m] into self.tmp; returns how many,
        or -1 when out of memory or ids. Unknown n-grams (add false) and
        tokens < 0 give unit -1."""
        cdef Py_ssize_t n = self.kind if self.kind > 1 else 1, c, i, lev
        cdef int32_t v
        c = m - n + 1 if m >= n else 0
        if grow_array(<void**>&self.tmp, &self.tmp_cap, m + 1, sizeof(int32_t), -1) < 0:
            return -1
        if self.tmp != tok:
            memcpy(self.tmp, tok, m * sizeof(int32_t))
        for lev in range(2, n + 1):
            # tmp[i]: the id of the (lev-1)-gram at i, then of the lev-gram.
            for i in range(m - lev + 1):
                if add:
                    v = gram_intern(&self.grams[lev - 2],
                                    _gram_key(self.tmp[i], tok[i + lev - 1]))
                    if v < 0:
                        return -1
                else:
                    v = _gram_find(&self.grams[lev - 2], self.tmp[i], tok[i + lev - 1])
                self.tmp[i] = v
        return c

    cdef int _append(self, const int32_t* tok, Py_ssize_t m) noexcept nogil:
        """Store the text of token ids tok[0:m]; -1 when out of memory or ids."""
        cdef Py_ssize_t c = self._units_of(tok, m, True)
        if c < 0 or self.ntexts + 1 >= MAX_IDS:
            return -1
        if (grow_array(<void**>&self.units, &self.units_cap, self.nunits + c + 1,
                       sizeof(int32_t), -1) < 0
                or grow_array(<void**>&self.off, &self.off_cap, self.ntexts + 2,
                              sizeof(Py_ssize_t), -1) < 0):
            return -1
        memcpy(self.units + self.nunits, self.tmp, c * sizeof(int32_t))
        self.nunits += c
        self.ntexts += 1
        self.off[self.ntexts] = self.nunits
        return 0

    cdef int32_t* _intern_tokens(self, list tokens, Py_ssize_t* n_out) except NULL:
        """Ids of str tokens in the vocabulary (the pure tokenizer's tokens)."""
        cdef Py_ssize_t n = len(tokens), k
        cdef int32_t* ids = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        cdef bytes raw
        if ids == NULL:
            raise MemoryError()
        for k in range(n):
            raw = (<str>tokens[k]).encode("utf-8")
            ids[k] = vocab_intern(&self.vocab, raw, len(raw))
            if ids[k] < 0:
                free(ids)
                raise MemoryError()
        n_out[0] = n
        return ids

    cdef int _tokenize(self, str text) except -1:
        """The default tokens of text into self.tb (the pure tokenizer's when
        the C stemmer gives up on a word)."""
        cdef int kind, rc
        cdef const void* data
        cdef Py_ssize_t length, n
        cdef int32_t* ids
        str_buffer(text, &kind, &data, &length)
        with nogil:
            rc = tokenize_text(&self.vocab, &self.tb, kind, data, length, self.stem, NULL)
        if rc == -1:
            raise MemoryError()
        if rc == -2:
            ids = self._intern_tokens(_py_tokens(text, self.stem), &n)
            try:
                if grow_array(<void**>&self.tb.ids, &self.tb.cap, n + 1, sizeof(int32_t), -1) < 0:
                    raise MemoryError()
                memcpy(self.tb.ids, ids, n * sizeof(int32_t))
                self.tb.n = n
            finally:
                free(ids)
        return 0

    cdef int32_t* _token_ids_of(self, object tokens, bint add, Py_ssize_t* n_out) except NULL:
        """Ids of hashable tokens through the dict; unknown ones -1, or new
        ids when add (then every token must be hashable: checked first)."""
        cdef list toks = list(tokens)
        cdef Py_ssize_t n = len(toks), k
        cdef object v
        cdef int32_t* ids
        if add:
            for t in toks:
                hash(t)
            if self.ntoken_ids + n >= MAX_IDS:
                raise ValueError("too many distinct tokens for one index")
        ids = <int32_t*>malloc((n + 1) * sizeof(int32_t))
        if ids == NULL:
            raise MemoryError()
        try:
            for k in range(n):
                v = self.token_ids.get(toks[k])
                if v is None:
                    if add:
                        v = self.ntoken_ids
                        self.token_ids[toks[k]] = v
                        self.ntoken_ids += 1
                    else:
                        v = -1
                ids[k] = <int32_t>v
        except BaseException:
            free(ids)
            raise
        n_out[0] = n
        return ids

    # -- adding texts -----------------------------------------------------------------

    cdef int _after_add(self, Py_ssize_t ntexts0, Py_ssize_t nunits0, bint ok) except -1:
        """The query's look-up table must cover every stored unit; on a
        failed add, the texts added by that call are dropped."""
        if ok and _masks_cover(&self.mk, self._unit_space()) == 0:
            return 0
        self.ntexts = ntexts0
        self.nunits = nunits0
        if _masks_cover(&self.mk, self._unit_space()) < 0:
            # loc cannot cover the new units: forget the query instead.
            _masks_clear(&self.mk)
        return 0

    def add_texts(self, texts):
        """Tokenize and store ``texts`` (each a ``str``); returns the new size."""
        if not self.default_tokens:
            raise ValueError("this index takes token lists (add_token_lists), not texts")
        cdef tuple seq = tuple(texts)
        cdef Py_ssize_t i, n = len(seq), ntexts0 = self.ntexts, nunits0 = self.nunits
        cdef bint ok = False
        for i in range(n):
            if type(seq[i]) is not str:
                raise TypeError(f"texts[{i}] must be str, not {type(seq[i]).__name__}")
        if not rk_rw_try_write(&self.state):
            raise RuntimeError(_BUSY)
        try:
            for i in range(n):
                self._tokenize(<str>seq[i])
                if self._append(self.tb.ids, self.tb.n) < 0:
                    raise MemoryError("out of memory, or more than 2**31 - 16 "
                                      "texts, tokens or n-grams")
            ok = True
        finally:
            self._after_add(ntexts0, nunits0, ok)
            rk_rw_write_done(&self.state)
        return self.ntexts

    def add_token_lists(self, token_lists):
        """Store texts given as lists of hashable tokens; returns the new size."""
        if self.default_tokens:
            raise ValueError("this index tokenizes texts itself (add_texts)")
        cdef list lists = [list(tokens) for tokens in token_lists]
        cdef Py_ssize_t i, n, ntexts0 = self.ntexts, nunits0 = self.nunits
        cdef int32_t* ids = NULL
        cdef bint ok = False
        for tokens in lists:
            for t in tokens:
                hash(t)           # unhashable: TypeError before anything is added
        if not rk_rw_try_write(&self.state):
            raise RuntimeError(_BUSY)
        try:
            for i in range(len(lists)):
                ids = self._token_ids_of(lists[i], True, &n)
                if self._append(ids, n) < 0:
                    raise MemoryError("out of memory, or more than 2**31 - 16 "
                                      "texts, tokens or n-grams")
                free(ids)
                ids = NULL
            ok = True
        finally:
            free(ids)
            self._after_add(ntexts0, nunits0, ok)
            rk_rw_write_done(&self.state)
        return self.ntexts

    # -- one query against many ----------------------------------------------------

    cdef int _set_query(self, const int32_t* tok, Py_ssize_t m) except -1:
        cdef Py_ssize_t c
        cdef int rc = -1
        with nogil:
            _masks_clear(&self.mk)
            c = self._units_of(tok, m, False)
            if (c >= 0
                    and grow_array(<void**>&self.q, &self.q_cap, c + 1, sizeof(int32_t), -1) == 0
                    and _masks_cover(&self.mk, self._unit_space()) == 0):
                memcpy(self.q, self.tmp, c * sizeof(int32_t))
                rc = _masks_build(&self.mk, self.q, c, self.lcs)
        if rc < 0:
            raise MemoryError()
        return 0

    def set_query_text(self, text):
        """Make ``text`` the query; returns its number of units."""
        if not self.default_tokens:
            raise ValueError("this index takes token lists (set_query_tokens), not texts")
        if type(text) is not str:
            raise TypeError(f"query must be str, not {type(text).__name__}")
        if not rk_rw_try_write(&self.state):
            raise RuntimeError(_BUSY)
        try:
            self._tokenize(<str>text)
            self._set_query(self.tb.ids, self.tb.n)
        finally:
            rk_rw_write_done(&self.state)
        return self.mk.len

    def set_query_tokens(self, tokens):
        """Make a list of hashable tokens the query; returns its number of units."""
        if self.default_tokens:
            raise ValueError("this index tokenizes texts itself (set_query_text)")
        cdef Py_ssize_t n
        cdef int32_t* ids = NULL
        if not rk_rw_try_write(&self.state):
            raise RuntimeError(_BUSY)
        try:
            ids = self._token_ids_of(tokens, False, &n)
            self._set_query(ids, n)
        finally:
            free(ids)
            rk_rw_write_done(&self.state)
        return self.mk.len

    def score_range(self, Py_ssize_t lo, Py_ssize_t hi, double[::1] out):
        """``out[i]`` = F of the query (target) against stored text i
        (prediction), for lo <= i < hi; the GIL is released meanwhile."""
        if not 0 <= lo <= hi <= self.ntexts:
            raise ValueError(f"need 0 <= lo <= hi <= {self.ntexts}, got lo={lo}, hi={hi}")
        if out.shape[0] < hi:
            raise ValueError(f"out has {out.shape[0]} items, need at least {hi}")
        if hi == lo:
            return
        cdef double* res = &out[0]
        cdef Py_ssize_t i, a, b, h
        cdef int rc = 0
        cdef PairScratch ps
        memset(&ps, 0, sizeof(PairScratch))
        if not rk_rw_try_read(&self.state):
            raise RuntimeError("this index is being changed by another thread")
        with nogil:
            a = self.mk.len
            if a == 0:
                for i in range(lo, hi):
                    res[i] = 0.0
            elif _pair_reserve(&ps, &self.mk, self.lcs, self._unit_space()) < 0:
                rc = -1
            else:
                for i in range(lo, hi):
                    b = self.off[i + 1] - self.off[i]
                    if b == 0:
                        res[i] = 0.0
                        continue
                    h = _hits(&self.mk, self.lcs, self.units + self.off[i], b, &ps)
                    if h < 0:
                        rc = -1
                        break
                    res[i] = _fmeasure_of(h, a, b)
            _pair_scratch_free(&ps)
            rk_rw_read_done(&self.state)
        if rc < 0:
            raise MemoryError()


# --- the greedy filter ----------------------------------------------------------------

ctypedef struct DedupScratch:
    # One thread's working memory in a Dedup.
    Masks mk                # the probed text's masks (rougeL)
    PairScratch ps
    int32_t* mark           # per text: 1 + its slot while a candidate of the probe
    uint64_t seen[64]       # a bit per hash of each candidate: most list entries
                            # are ruled out here, in cache, without reading mark
    int32_t* cand           # per slot: CAND_FIELDS ints (Dedup._violates)
    Py_ssize_t cand_cap
    int32_t* need           # min_hits by size of the other text, valid where
    uint32_t* stamp         # stamp[size] == probe (sizes 0 .. longest text)
    uint32_t probe
    int64_t nmet, candidates, verified
    long busy
    char pad[64]            # threads write their own scratch: no shared cache line


cdef int _cmp_int32(const void* x, const void* y) noexcept nogil:
    cdef int32_t a = (<const int32_t*>x)[0], b = (<const int32_t*>y)[0]
    return (a > b) - (a < b)


cdef void _sort_int32(int32_t* v, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int32_t t
    if n > SMALL_SORT:
        qsort(v, <size_t>n, sizeof(int32_t), _cmp_int32)
        return
    for i in range(1, n):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] > t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t


cdef inline Py_ssize_t _overlap(const int32_t* x, Py_ssize_t a, const int32_t* y,
                                Py_ssize_t b, Py_ssize_t need) noexcept nogil:
    """Common elements of two ascending arrays; stops early (returning less
    than need) once need can no longer be reached."""
    cdef Py_ssize_t i = 0, j = 0, o = 0, ra, rb
    while i < a and j < b:
        ra = a - i
        rb = b - j
        if o + (ra if ra < rb else rb) < need:
            return o
        if x[i] == y[j]:
            o += 1
            i += 1
            j += 1
        elif x[i] < y[j]:
            i += 1
        else:
            j += 1
    return o


cdef inline uint32_t _seen_bit(int32_t y) noexcept nogil:
    """Which of DedupScratch.seen's 4096 bits stands for text y."""
    return (<uint32_t>y * <uint32_t>2654435761u) >> 20


cdef class Dedup:
    """The greedy filter over ``index``'s texts ``first`` to the end, against
    the texts before ``first`` (_index_py has the whole story). While it is
    open, the index's texts and query cannot change.

    ``Dedup(index, first, threshold, parts)``: up to ``parts`` threads may
    call ``probe`` at once, each with its own ``part``.
    """
    cdef TextIndex index
    cdef bint reading          # holds a read of index.state
    cdef const int32_t* units  # the index's arrays, which stay put while it is read
    cdef const Py_ssize_t* off
    cdef Py_ssize_t nunits
    cdef Py_ssize_t n, first, parts, nunique, nlisted, U, longest
    cdef double thr
    cdef bint lcs
    cdef int32_t* el           # per text, its element ranks ascending (index.off)
    cdef Py_ssize_t* start     # listed rank r >= nunique: its entries start at
    cdef int32_t* fill         # pool[3 * start[r - nunique]], fill[r - nunique] of
    cdef int32_t* pool         # them: (kept text, position of r in it, its size),
                               # texts ascending
    cdef DedupScratch* sc           # parts + 1: the last one is commit's
    cdef long state            # probes read the lists, commit writes them
    cdef long taken            # texts of the current block taken by probes

    def __cinit__(self, TextIndex index not None, Py_ssize_t first, double threshold,
                  Py_ssize_t parts):
        cdef Py_ssize_t i
        cdef int rc
        if not 0 <= first <= len(index):
            raise ValueError(f"need 0 <= first <= {len(index)}, got first={first}")
        if not threshold >= 0.0:
            raise ValueError(f"threshold must be >= 0 here, got {threshold!r}")
        if parts < 1 or parts > 4096:
            raise ValueError(f"parts must be in [1, 4096], got {parts}")
        if not rk_rw_try_read(&index.state):
            raise RuntimeError("the index is being changed by another thread")
        self.index = index
        self.reading = True
        self.n = index.ntexts
        self.units = index.units
        self.off = index.off
        self.nunits = index.nunits
        self.first = first
        self.parts = parts
        self.thr = threshold
        self.lcs = index.lcs
        self.state = 0
        self.taken = 0
        self.U = index._unit_space()
        self.longest = 0
        for i in range(self.n):
            if self.off[i + 1] - self.off[i] > self.longest:
                self.longest = self.off[i + 1] - self.off[i]
        self.sc = <DedupScratch*>calloc(parts + 1, sizeof(DedupScratch))
        if self.sc == NULL:
            raise MemoryError()
        with nogil:
            rc = self._elements()
            if rc == 0:
                rc = self._lists()
            for i in range(parts + 1):
                if rc < 0:
                    break
                self.sc[i].mark = <int32_t*>calloc(self.n + 1, sizeof(int32_t))
                self.sc[i].need = <int32_t*>malloc((self.longest + 1) * sizeof(int32_t))
                self.sc[i].stamp = <uint32_t*>calloc(self.longest + 1, sizeof(uint32_t))
                if (self.sc[i].mark == NULL or self.sc[i].need == NULL
                        or self.sc[i].stamp == NULL
                        or _masks_cover(&self.sc[i].mk, self.U) < 0):
                    rc = -1
            if rc == 0:
                for i in range(first):
                    self._insert(i)
        if rc < 0:
            raise MemoryError()

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.sc != NULL:
            for i in range(self.parts + 1):
                _masks_free(&self.sc[i].mk)
                _pair_scratch_free(&self.sc[i].ps)
                free(self.sc[i].mark)
                free(self.sc[i].cand)
                free(self.sc[i].need)
                free(self.sc[i].stamp)
            free(self.sc)
        free(self.el)
        free(self.start)
        free(self.fill)
        free(self.pool)
        if self.reading:
            rk_rw_read_done(&self.index.state)

    def close(self):
        """Let the index change again (also done when the object goes)."""
        if not rk_rw_try_write(&self.state):
            raise RuntimeError("this Dedup is in use by another thread")
        if self.reading:
            self.reading = False
            rk_rw_read_done(&self.index.state)
        rk_rw_write_done(&self.state)

    def stats(self):
        """Counts so far: entries of the inverted index read (met), pairs
        within the size and position bounds (candidates), and pairs scored
        with rouge-score's F (verified); _index_py.Dedup.stats."""
        cdef Py_ssize_t i
        cdef int64_t m = 0, c = 0, v = 0
        for i in range(self.parts + 1):
            m += self.sc[i].nmet
            c += self.sc[i].candidates
            v += self.sc[i].verified
        return {"met": m, "candidates": c, "verified": v}

    # -- building ---------------------------------------------------------------------

    cdef int _elements(self) noexcept nogil:
        """el: each text's elements (the k-th occurrence of unit u is element
        (u, k)) as ranks in the order (number of texts holding it, element),
        ascending; -1 when out of memory."""
        cdef int rc = -1
        cdef int32_t* occ = <int32_t*>calloc(self.U + 1, sizeof(int32_t))
        cdef int32_t* most = <int32_t*>calloc(self.U + 1, sizeof(int32_t))
        cdef Py_ssize_t* base = <Py_ssize_t*>malloc((self.U + 1) * sizeof(Py_ssize_t))
        self.el = <int32_t*>malloc((self.nunits + 1) * sizeof(int32_t))
        if occ != NULL and most != NULL and base != NULL and self.el != NULL:
            rc = self._rank_elements(occ, most, base)
        free(occ)
        free(most)
        free(base)
        return rc

    cdef int _rank_elements(self, int32_t* occ, int32_t* most,
                            Py_ssize_t* base) noexcept nogil:
        cdef Py_ssize_t t, j, E = 0, nb = self.n + 2
        cdef int32_t u
        # Element (u, k) is base[u] + k, most[u] being u's most occurrences
        # in one text; occ counts occurrences within a text (then zeroed).
        for t in range(self.n):
            for j in range(self.off[t], self.off[t + 1]):
                u = self.units[j]
                occ[u] += 1
                if occ[u] > most[u]:
                    most[u] = occ[u]
            for j in range(self.off[t], self.off[t + 1]):
                occ[self.units[j]] = 0
        for j in range(self.U):
            base[j] = E
            E += most[j]
        cdef int32_t* df = <int32_t*>calloc(E + 1, sizeof(int32_t))
        cdef int32_t* rank = <int32_t*>malloc((E + 1) * sizeof(int32_t))
        cdef Py_ssize_t* bucket = <Py_ssize_t*>calloc(nb + 1, sizeof(Py_ssize_t))
        if df == NULL or rank == NULL or bucket == NULL:
            free(df)
            free(rank)
            free(bucket)
            return -1
        for t in range(self.n):
            for j in range(self.off[t], self.off[t + 1]):
                u = self.units[j]
                df[base[u] + occ[u]] += 1
                occ[u] += 1
            for j in range(self.off[t], self.off[t + 1]):
                occ[self.units[j]] = 0
        # Counting sort by document frequency (1 .. n), stable in the element.
        for j in range(E):
            bucket[df[j] + 1] += 1
        for j in range(1, nb + 1):
            bucket[j] += bucket[j - 1]
        for j in range(E):
            rank[j] = <int32_t>bucket[df[j]]
            bucket[df[j]] += 1
        # Elements of one text only rank first and share nothing: no list.
        self.nunique = 0
        for j in range(E):
            if df[j] == 1:
                self.nunique += 1
        self.nlisted = E - self.nunique
        for t in range(self.n):
            for j in range(self.off[t], self.off[t + 1]):
                u = self.units[j]
                self.el[j] = rank[base[u] + occ[u]]
                occ[u] += 1
            for j in range(self.off[t], self.off[t + 1]):
                occ[self.units[j]] = 0
            _sort_int32(self.el + self.off[t], self.off[t + 1] - self.off[t])
        free(df)
        free(rank)
        free(bucket)
        return 0

    cdef int _lists(self) noexcept nogil:
        """Room in the pool for every text each listed rank could hold."""
        cdef Py_ssize_t t, k, p, r, total = 0
        self.start = <Py_ssize_t*>malloc((self.nlisted + 1) * sizeof(Py_ssize_t))
        self.fill = <int32_t*>calloc(self.nlisted + 1, sizeof(int32_t))
        if self.start == NULL or self.fill == NULL:
            return -1
        for t in range(self.n):
            p = _prefix_length(self.off[t + 1] - self.off[t], self.thr)
            for k in range(p):
                r = self.el[self.off[t] + k] - self.nunique
                if r >= 0:
                    self.fill[r] += 1
        for r in range(self.nlisted):
            self.start[r] = total
            total += self.fill[r]
            self.fill[r] = 0
        self.pool = <int32_t*>malloc((3 * total + 3) * sizeof(int32_t))
        return 0 if self.pool != NULL else -1

    cdef void _insert(self, Py_ssize_t i) noexcept nogil:
        """List text i under its prefix elements (as a kept text)."""
        cdef Py_ssize_t k, r, p = _prefix_length(self.off[i + 1] - self.off[i], self.thr)
        cdef int32_t* e
        for k in range(p):
            r = self.el[self.off[i] + k] - self.nunique
            if r >= 0:
                e = self.pool + 3 * (self.start[r] + self.fill[r])
                e[0] = <int32_t>i
                e[1] = <int32_t>k
                e[2] = <int32_t>(self.off[i + 1] - self.off[i])
                self.fill[r] += 1

    # -- one text against the kept ones ---------------------------------------------

    cdef inline Py_ssize_t _need(self, DedupScratch* sc, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        """min_hits(a, b), remembered per size b for the current probe."""
        if sc.stamp[b] != sc.probe:
            sc.stamp[b] = sc.probe
            sc.need[b] = <int32_t>_min_hits(a, b, self.thr)
        return sc.need[b]

    cdef int _check(self, DedupScratch* sc, Py_ssize_t x, Py_ssize_t a, const int32_t* cd,
                    bint* built) noexcept nogil:
        """Score candidate cd of text x: 1 if F > threshold, 0 if not, -1
        when out of memory. Its exact element overlap is the cd[1] shared
        elements up to the last meeting plus a merge of what follows."""
        cdef int32_t y = cd[0]
        cdef Py_ssize_t b = cd[6], need = sc.need[b], o, h
        sc.candidates += 1
        o = cd[1] + _overlap(self.el + self.off[x] + cd[2] + 1, a - cd[2] - 1,
                             self.el + self.off[y] + cd[3] + 1, b - cd[3] - 1,
                             need - cd[1])
        if o < need:
            return 0
        sc.verified += 1
        if not self.lcs:
            h = o           # rougeN: the element overlap is the clipped overlap
        else:
            if not built[0]:
                if _masks_build(&sc.mk, self.units + self.off[x], a, True) < 0:
                    return -1
                built[0] = True
                if _pair_reserve(&sc.ps, &sc.mk, True, self.U) < 0:
                    return -1
            h = _lcs_hits(&sc.mk, self.units + self.off[y], b, sc.ps.S, sc.ps.head)
            if h < 0:
                return -1
        return 1 if _fmeasure_of(h, a, b) > self.thr else 0

    cdef int _violates(self, DedupScratch* sc, Py_ssize_t x, Py_ssize_t id_lo,
                       Py_ssize_t id_hi) noexcept nogil:
        """1 if text x has F > threshold against a listed text y with
        id_lo <= y < id_hi, else 0; -1 when out of memory."""
        cdef Py_ssize_t a = self.off[x + 1] - self.off[x], b, p, low, high, i, j, q, r
        cdef Py_ssize_t nmet = 0, c, need, room, rest, ncand = 0
        cdef uint32_t bit
        cdef int32_t* cd
        cdef const int32_t* ex = self.el + self.off[x]
        cdef const int32_t* entries
        cdef int32_t y
        cdef int rc = 0
        cdef bint built = False
        p = _prefix_length(a, self.thr)
        if p == 0:
            return 0
        _length_range(a, self.thr, &low, &high)
        sc.probe += 1
        if sc.probe == 0:           # wrapped: forget every stamp
            memset(sc.stamp, 0, (self.longest + 1) * sizeof(uint32_t))
            sc.probe = 1
        # Meet the listed texts that share a prefix element. Lists are
        # ascending: a probe (id_lo 0) reads them from the start, a commit
        # only the tail of texts kept in its block. The first meeting of x
        # and y is at the rarest element they share (i in x, j in y): all
        # the others lie after it in both, so they have at most
        # min(a - i, b - j) in common. A y that fails this fails it at every
        # later meeting too (both positions only grow), so only the ones
        # that pass are marked. A candidate is (y, meetings, last i, last j,
        # first i, scored yet).
        for i in range(p):
            r = ex[i] - self.nunique
            if r < 0:
                continue
            entries = self.pool + 3 * self.start[r]
            q = 0
            if id_lo > 0:
                q = self.fill[r]
                while q > 0 and entries[3 * (q - 1)] >= id_lo:
                    q -= 1
            while q < self.fill[r]:
                y = entries[3 * q]
                j = entries[3 * q + 1]
                b = entries[3 * q + 2]
                q += 1
                if y >= id_hi:
                    break
                nmet += 1
                if b < low or b > high:
                    continue            # never a candidate
                bit = _seen_bit(y)
                if (sc.seen[bit >> 6] >> (bit & 63)) & 1 and sc.mark[y] != 0:
                    cd = sc.cand + CAND_FIELDS * (sc.mark[y] - 1)
                    cd[1] += 1
                    cd[2] = <int32_t>i
                    cd[3] = <int32_t>j
                    continue
                need = self._need(sc, a, b)
                room = a - i if a - i < b - j else b - j
                if need < 0 or need > room:
                    continue
                if grow_array(<void**>&sc.cand, &sc.cand_cap, CAND_FIELDS * (ncand + 1),
                              sizeof(int32_t), -1) < 0:
                    rc = -1
                    break
                cd = sc.cand + CAND_FIELDS * ncand
                cd[0] = y
                cd[1] = 1
                cd[2] = <int32_t>i
                cd[3] = <int32_t>j
                cd[4] = <int32_t>i
                cd[5] = 0
                cd[6] = <int32_t>b
                ncand += 1
                sc.mark[y] = <int32_t>ncand
                sc.seen[bit >> 6] |= (<uint64_t>1) << (bit & 63)
            # A text met at every element since its first meeting, twice or
            # more, is likely a near-duplicate: scored at once, a hit ends
            # the probe without reading the other lists.
            c = 0
            while rc == 0 and c < ncand:
                cd = sc.cand + CAND_FIELDS * c
                c += 1
                if cd[5] == 0 and cd[2] == i and cd[1] >= 2 and cd[1] == i - cd[4] + 1:
                    cd[5] = 1
                    rc = self._check(sc, x, a, cd, &built)
            if rc != 0:
                break
        sc.nmet += nmet
        c = 0
        while rc == 0 and c < ncand:
            cd = sc.cand + CAND_FIELDS * c
            c += 1
            if cd[5]:
                continue
            b = cd[6]
            # Shared elements come in the same order in both texts, and the
            # ones up to the last meeting are the cd[1] met. A later one
            # within x's prefix was not met, so it (and all after it) lies
            # beyond y's listed prefix; else they all lie beyond x's prefix.
            room = a - cd[2] - 1
            if b - _prefix_length(b, self.thr) < room:
                room = b - _prefix_length(b, self.thr)
            rest = a - p if a - p < b - cd[3] - 1 else b - cd[3] - 1
            if rest > room:
                room = rest
            if cd[1] + room < sc.need[b]:
                continue
            rc = self._check(sc, x, a, cd, &built)
        for c in range(ncand):
            y = sc.cand[CAND_FIELDS * c]
            sc.mark[y] = 0
            bit = _seen_bit(y)
            sc.seen[bit >> 6] = 0
        if built:
            _masks_clear(&sc.mk)
        return rc

    # -- blocks ----------------------------------------------------------------------------

    cdef int _check_block(self, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t nflags) except -1:
        if not self.first <= lo <= hi <= self.n:
            raise ValueError(f"need {self.first} <= lo <= hi <= {self.n}, got lo={lo}, hi={hi}")
        if nflags < self.n:
            raise ValueError(f"flags has {nflags} items, need {self.n}")
        return 0

    def probe(self, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t part, unsigned char[::1] flags):
        """``flags[i]`` = 1 if text i fails against the texts kept so far,
        else 0, for the texts i in [lo, hi) that no other probe call has
        taken since the last commit: threads calling it at once, each with
        its own part, share the block text by text (_index_py.Dedup.probe).
        The GIL is released meanwhile."""
        self._check_block(lo, hi, flags.shape[0])
        if not 0 <= part < self.parts:
            raise ValueError(f"part must be in [0, {self.parts}), got {part}")
        if lo == hi:
            if not self.reading:
                raise ValueError("this Dedup is closed")
            return
        cdef DedupScratch* sc = &self.sc[part]
        cdef unsigned char* fl = &flags[0]
        cdef Py_ssize_t i
        cdef int r = 0
        if not rk_flag_try_acquire(&sc.busy):
            raise RuntimeError(f"part {part} is in use by another thread")
        if not rk_rw_try_read(&self.state):
            rk_flag_release(&sc.busy)
            raise RuntimeError("this Dedup is being committed to by another thread")
        if not self.reading:
            rk_rw_read_done(&self.state)
            rk_flag_release(&sc.busy)
            raise ValueError("this Dedup is closed")
        with nogil:
            while True:
                i = lo + rk_fetch_add(&self.taken, 1)
                if i >= hi:
                    break
                r = self._violates(sc, i, 0, lo)
                if r < 0:
                    break
                fl[i] = <unsigned char>r
            rk_rw_read_done(&self.state)
            rk_flag_release(&sc.busy)
        if r < 0:
            raise MemoryError()

    def commit(self, Py_ssize_t lo, Py_ssize_t hi, unsigned char[::1] flags):
        """Decide texts lo to hi - 1 in order, after ``probe`` flagged every
        one of them: a text not flagged is kept unless it fails against a
        text kept earlier in the block. Leaves ``flags[i]`` 0 for a kept
        text, 1 for a dropped one; returns the number kept."""
        self._check_block(lo, hi, flags.shape[0])
        if lo == hi:
            if not self.reading:
                raise ValueError("this Dedup is closed")
            return 0
        cdef DedupScratch* sc = &self.sc[self.parts]
        cdef unsigned char* fl = &flags[0]
        cdef Py_ssize_t i, kept = 0
        cdef int r = 0
        if not rk_rw_try_write(&self.state):
            raise RuntimeError("this Dedup is in use by another thread")
        if not self.reading:
            rk_rw_write_done(&self.state)
            raise ValueError("this Dedup is closed")
        with nogil:
            self.taken = 0
            for i in range(lo, hi):
                if fl[i]:
                    fl[i] = 1
                    continue
                r = self._violates(sc, i, lo, i)
                if r < 0:
                    break
                if r:
                    fl[i] = 1
                    continue
                self._insert(i)
                kept += 1
            rk_rw_write_done(&self.state)
        if r < 0:
            raise MemoryError()
        return kept


def _set_mask_budget(Py_ssize_t words):
    """Testing hook: the most mask words a text may take before it is
    compared pair by pair with lcs_length_ids (0: always). Returns the
    previous value. Not thread-safe; tests only."""
    global MASK_BUDGET_WORDS
    if words < 0:
        raise ValueError("words must be >= 0")
    old = MASK_BUDGET_WORDS
    MASK_BUDGET_WORDS = words
    return old
