# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled text index: one query scored against a stored collection of
texts. ``_text_index_py`` is the pure-Python twin and the readable
specification; ``_dedup_filter`` runs the greedy de-duplication filter over
a ``TextIndex``'s texts (its C layout: ``_text_index.pxd``).

A ``TextIndex`` stores texts as *units* in C arrays, with no Python object
per text: token ids for rougeL, n-gram ids for rougeN (an n-gram's id comes
from a trie of exact tables, (id of its first n-1 tokens, last token) -> id in
``_grams.pxd``'s table, so two n-grams never share one). Texts are tokenized
by the compiled default tokenizer into the index's own vocabulary, or come as
token lists (a custom tokenizer) numbered through a dict.

The query is the bit-vector side of the LCS: its match masks
(``_match_masks.pxd``) are built once (ceil(len / 64) words per distinct
query unit), then each stored text is one pass over its units, a table
look-up and a few word operations per unit. ``score_range`` runs with the
GIL released, so threads scoring different ranges run in parallel. P, R and
F are computed in C by ``_prf.pxd``, with rouge-score's expressions in its
order of operations, so every F equals rouge-score's.

``to_state()`` gives what an index stores as plain values (token strings or
tokens, n-grams as token ids, units, offsets: ``_text_index_state``, the
same for both twins), from which ``TextIndex.from_state`` rebuilds it
without tokenizing anything, after checking every id and offset.

Several threads may read an index at once (``score_range``, a live
``_dedup_filter.Dedup``); changing it (adding texts, setting the query)
needs it unread. A call that would break that raises RuntimeError instead of
waiting; ``rougekit.index`` serializes its own calls with a lock.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from rougekit._core._grams cimport (GRAM_EMPTY, GramTable, gram_find, gram_intern,
                                    gram_table_free)
from rougekit._core._kinds cimport ROUGE_L
from rougekit._core._match_masks cimport (Masks, PairScratch, masked_lcs_hits,
                                           masked_ngram_hits, masks_build, masks_clear,
                                           masks_cover, masks_free, pair_reserve,
                                           pair_scratch_free)
from rougekit._core._mem cimport MAX_IDS, grow_array
from rougekit._core._tokenizer cimport (TokenBuf, str_buffer, tokbuf_free, tokbuf_init,
                                         tokenize_text)
from rougekit._core._vocab cimport Vocab, vocab_free, vocab_init, vocab_intern

import numpy as np

from rougekit._core import _text_index_state

cdef extern from "compat.h" nogil:
    int rk_rw_try_read(long* s)
    void rk_rw_read_done(long* s)
    int rk_rw_try_write(long* s)
    void rk_rw_write_done(long* s)

__all__ = ["KIND_L", "TextIndex", "fmeasure_of"]

# rougeL's kind (_kinds.pxd), for Python.
KIND_L = ROUGE_L

# Precomputed masks up to this many words (32 MiB) per text; a longer text
# with many distinct units is compared pair by pair with lcs_length_ids.
cdef Py_ssize_t MASK_BUDGET_WORDS = 4194304

_BUSY = ("this index is in use by another thread (being read, or a deduplication "
         "holds it): its texts and query cannot change now")


cdef Py_ssize_t mask_budget_words() noexcept nogil:
    return MASK_BUDGET_WORDS


def fmeasure_of(Py_ssize_t hits, Py_ssize_t target_count, Py_ssize_t prediction_count):
    """rouge-score's F of ``hits`` common units (_text_index_py.fmeasure_of).

    >>> fmeasure_of(2, 3, 2)
    0.8
    """
    return hits_fmeasure(hits, target_count, prediction_count)


# --- n-gram ids: (id of the first n-1 tokens, last token) -> id -----------------
# (in _grams.pxd's table; one table per n-gram length)

cdef inline uint64_t _gram_key(int32_t parent, int32_t tok) noexcept nogil:
    return (<uint64_t><uint32_t>parent << 32) | <uint64_t><uint32_t>tok


cdef inline int32_t _gram_find(const GramTable* t, int32_t parent, int32_t tok) noexcept nogil:
    """The id of (parent, tok), or -1 if absent (or either part is -1)."""
    if parent < 0 or tok < 0:
        return -1
    return gram_find(t, _gram_key(parent, tok))


# --- the query's hits against one stored text (_match_masks.pxd) ----------------

cdef inline Py_ssize_t _hits(const Masks* mk, bint lcs, const int32_t* y, Py_ssize_t b,
                             PairScratch* ps) noexcept nogil:
    if lcs:
        return masked_lcs_hits(mk, y, b, ps.S, ps.head)
    return masked_ngram_hits(mk, y, b, ps.used)


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
    # (its attributes and C methods are declared in _text_index.pxd)

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
        masks_free(&self.mk)

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

    cdef Py_ssize_t unit_id_bound(self) noexcept nogil:
        if self.ngrams:
            return self.grams[self.ngrams - 1].n
        if self.default_tokens:
            return self.vocab.n
        return self.ntoken_ids

    def unit_space(self):
        """One more than the largest unit id in use."""
        return self.unit_id_bound()

    # -- the stored texts as plain values -------------------------------------------

    def to_state(self):
        """What the index stores, as plain values (``_text_index_state``);
        the query is not part of it."""
        cdef Py_ssize_t i
        if not rk_rw_try_read(&self.state):
            raise RuntimeError("this index is being changed by another thread")
        try:
            if self.default_tokens:
                tokens = []
                for i in range(self.vocab.n):
                    tokens.append((self.vocab.pool + self.vocab.off[i])[:self.vocab.size[i]]
                                  .decode("utf-8"))
            else:
                tokens = list(self.token_ids)     # inserted in id order
            units = np.empty(self.nunits, dtype=np.int32)
            offsets = np.empty(self.ntexts + 1, dtype=np.int64)
            self._copy_out(units, offsets)
            grams = self._gram_rows() if self.ngrams else None
        finally:
            rk_rw_read_done(&self.state)
        return {"format": _text_index_state.FORMAT, "kind": self.kind,
                "use_stemmer": bool(self.stem), "default_tokens": bool(self.default_tokens),
                "tokens": tokens, "grams": grams, "units": units, "offsets": offsets}

    cdef _copy_out(self, int32_t[::1] units, int64_t[::1] offsets):
        cdef Py_ssize_t i
        if self.nunits:
            memcpy(&units[0], self.units, self.nunits * sizeof(int32_t))
        for i in range(self.ntexts + 1):
            offsets[i] = self.off[i]

    cdef _gram_rows(self):
        """The token ids of each n-gram id (n = kind): each level's table
        read into (id of the first n-1 tokens, last token) by id, then
        followed down from the top level."""
        cdef Py_ssize_t levels = self.ngrams, lev, s, g, width = 0
        cdef int32_t id_, p
        cdef const GramTable* t
        for lev in range(levels):
            width = max(width, self.grams[lev].n)
        parent_arr = np.empty((levels, width), dtype=np.int32)
        last_arr = np.empty((levels, width), dtype=np.int32)
        rows_arr = np.empty((self.grams[levels - 1].n, self.kind), dtype=np.int32)
        cdef int32_t[:, ::1] parent = parent_arr, last = last_arr, rows = rows_arr
        for lev in range(levels):
            t = &self.grams[lev]
            for s in range(t.cap):
                if t.keys[s] == GRAM_EMPTY:
                    continue
                id_ = t.ids[s]
                if not 0 <= id_ < t.n:
                    raise RuntimeError("corrupt n-gram table")
                parent[lev, id_] = <int32_t>(t.keys[s] >> 32)
                last[lev, id_] = <int32_t>(t.keys[s] & 0xFFFFFFFF)
        for g in range(rows.shape[0]):
            p = <int32_t>g
            for lev in range(levels - 1, -1, -1):
                if not 0 <= p < self.grams[lev].n:
                    raise RuntimeError("corrupt n-gram table")
                rows[g, lev + 1] = last[lev, p]
                p = parent[lev, p]
            rows[g, 0] = p
        return rows_arr

    @staticmethod
    def from_state(state):
        """The index a state describes (made by either twin's ``to_state``),
        after checking it (``_text_index_state.checked``): ValueError when
        it is not one."""
        kind, stem, default, tokens, grams, units, offsets = _text_index_state.checked(state)
        cdef TextIndex index = TextIndex(kind, stem, default)
        cdef Py_ssize_t i
        cdef int32_t g
        cdef bytes raw
        if default:
            for i in range(len(tokens)):
                raw = (<str>tokens[i]).encode("utf-8")
                g = vocab_intern(&index.vocab, raw, len(raw))
                if g < 0:
                    raise MemoryError()
                if g != i:
                    raise ValueError("not a TextIndex state: a token is listed twice")
        else:
            index.token_ids = {t: i for i, t in enumerate(tokens)}
            index.ntoken_ids = len(tokens)
        if grams is not None:
            index._intern_rows(grams)
        index._copy_in(units, offsets)
        return index

    cdef _intern_rows(self, const int32_t[:, ::1] rows):
        """Each n-gram given as its token ids gets the next id (checked
        distinct), its prefixes interned level by level."""
        cdef Py_ssize_t i, lev
        cdef int32_t v
        for i in range(rows.shape[0]):
            v = rows[i, 0]
            for lev in range(self.ngrams):
                v = gram_intern(&self.grams[lev], _gram_key(v, rows[i, lev + 1]))
                if v < 0:
                    raise MemoryError()
            if v != i:
                raise ValueError("not a TextIndex state: an n-gram is listed twice")

    cdef _copy_in(self, const int32_t[::1] units, const int64_t[::1] offsets):
        cdef Py_ssize_t i, nunits = units.shape[0], ntexts = offsets.shape[0] - 1
        if (grow_array(<void**>&self.units, &self.units_cap, nunits + 1, sizeof(int32_t), -1) < 0
                or grow_array(<void**>&self.off, &self.off_cap, ntexts + 2,
                              sizeof(Py_ssize_t), -1) < 0):
            raise MemoryError()
        if nunits:
            memcpy(self.units, &units[0], nunits * sizeof(int32_t))
        for i in range(ntexts + 1):
            self.off[i] = <Py_ssize_t>offsets[i]
        self.nunits = nunits
        self.ntexts = ntexts
        if masks_cover(&self.mk, self.unit_id_bound()) < 0:
            raise MemoryError()

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
        if ok and masks_cover(&self.mk, self.unit_id_bound()) == 0:
            return 0
        self.ntexts = ntexts0
        self.nunits = nunits0
        if masks_cover(&self.mk, self.unit_id_bound()) < 0:
            # loc cannot cover the new units: forget the query instead.
            masks_clear(&self.mk)
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
            masks_clear(&self.mk)
            c = self._units_of(tok, m, False)
            if (c >= 0
                    and grow_array(<void**>&self.q, &self.q_cap, c + 1, sizeof(int32_t), -1) == 0
                    and masks_cover(&self.mk, self.unit_id_bound()) == 0):
                memcpy(self.q, self.tmp, c * sizeof(int32_t))
                rc = masks_build(&self.mk, self.q, c, self.lcs, MASK_BUDGET_WORDS)
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
            elif pair_reserve(&ps, &self.mk, self.lcs, self.unit_id_bound()) < 0:
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
                    res[i] = hits_fmeasure(h, a, b)
            pair_scratch_free(&ps)
            rk_rw_read_done(&self.state)
        if rc < 0:
            raise MemoryError()


def _set_mask_budget(Py_ssize_t words):
    """Testing hook: the most mask words a text may take before it is
    compared pair by pair with lcs_length_ids (0: always), for the queries
    set and the deduplications made from now on. Returns the previous value.
    Not thread-safe; tests only."""
    global MASK_BUDGET_WORDS
    if words < 0:
        raise ValueError("words must be >= 0")
    old = MASK_BUDGET_WORDS
    MASK_BUDGET_WORDS = words
    return old
