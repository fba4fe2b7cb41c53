# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled per-pair counts of ``rouge`` 1.0.1 (pltrdy) and ``rouge-chinese``
1.0.3: what ``rougekit.compat``'s ``Rouge.get_scores`` scores, for a whole
call at once.

A text is a list of pieces (its pieces between "." for pltrdy, its
``cut_sent`` for rouge-chinese); each piece of at least one character is a
sentence, whose words are the piece split on whitespace (``str.split()``),
or the one empty word when it has none (the packages join a sentence's
words with " " and split them again on " "). The words of a pair are
numbered densely (0, 1, 2, ... in order of first appearance), with the GIL
held: each is looked up by its UTF-8 bytes (an ASCII string's own bytes;
a lone surrogate as its three bytes) in a table of words shared by the
pairs of a call (``_vocab.pxd``, started afresh between pairs past
``VOCAB_RESET`` words), whose ids a per-pair map renumbers. Then the counts
are made on the ids without the GIL:

* rouge-N: the n-grams of each text's words (sentence ends ignored), as sets
  (``exclusive``: distinct n-grams, and those in both) or as multisets
  (every occurrence, shared up to the smaller count), numbered without
  tuples through the gram table (``_grams.pxd``);
* ROUGE-L, ``LCS_UNION`` (pltrdy, ``exclusive``): distinct words of each
  text, and the distinct words on the LCS of any (hypothesis sentence,
  reference sentence) pair, each LCS the one pltrdy's backtrack takes
  (``_lcs.pxd``'s ``lcs_union_marks``, rouge-score's walk with the two
  sentences swapped);
* ``LCS_SUM`` (pltrdy, not ``exclusive``): word counts, and the sum of the
  LCS lengths of every sentence pair;
* ``LCS_WHOLE`` (rouge-chinese): word counts, and the LCS length of the two
  texts' whole word lists.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from rougekit._core._grams cimport (GramTable, gram_intern, gram_next_level, gram_table_clear,
                                    gram_table_free)
from rougekit._core._lcs cimport (LcsScratch, lcs_length_scratch, lcs_scratch_free,
                                  lcs_scratch_reserve, lcs_union_marks)
from rougekit._core._mem cimport MAX_IDS, grow_array
from rougekit._core._vocab cimport Vocab, vocab_free, vocab_init, vocab_intern

cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    int PyUnicode_IS_ASCII(object o)
    uint32_t PyUnicode_READ(int kind, void* data, Py_ssize_t i) nogil
    bint Py_UNICODE_ISSPACE(uint32_t ch) nogil

cdef extern from "compat.h":
    int rk_unicode_ready(object o) except -1

__all__ = ["LCS_UNION", "LCS_SUM", "LCS_WHOLE", "pair_counts"]

#: ROUGE-L as pltrdy counts it with ``exclusive=True``: the set union of LCS words.
LCS_UNION = 0
#: ROUGE-L as pltrdy counts it with ``exclusive=False``: the sum of LCS lengths.
LCS_SUM = 1
#: ROUGE-L as rouge-chinese counts it: the LCS of the two whole texts.
LCS_WHOLE = 2

# The table of words is started afresh (between pairs) past this many words,
# so that a long call does not keep every word it has seen.
cdef Py_ssize_t VOCAB_RESET = 1 << 10


ctypedef struct PairSpan:
    # A pair's sentences: the hypothesis's are [h0, h1), the reference's
    # [h1, r1), sentence k being tok[soff[k]:soff[k + 1]].
    Py_ssize_t h0, h1, r1
    Py_ssize_t len_h, len_r       # words that are not empty
    int32_t vocab                 # distinct words of the pair (ids < vocab)


ctypedef struct CompatWords:
    # Every pair's words as ids, dense per pair.
    int32_t* tok
    Py_ssize_t ntok, tok_cap
    Py_ssize_t* soff              # nsent + 1 entries in use
    Py_ssize_t nsent, soff_cap
    PairSpan* pairs
    Py_ssize_t npairs, pairs_cap
    char* wbuf                    # the UTF-8 of one word
    Py_ssize_t wbuf_cap
    int32_t* local                # the pair's id by word-table id; -1 between pairs
    Py_ssize_t local_cap
    int32_t* used                 # the word-table ids of the pair, by pair id
    Py_ssize_t nused, used_cap
    Vocab v


cdef void _words_free(CompatWords* w) noexcept nogil:
    free(w.tok)
    free(w.soff)
    free(w.pairs)
    free(w.wbuf)
    free(w.local)
    free(w.used)
    vocab_free(&w.v)
    memset(w, 0, sizeof(CompatWords))


cdef int _add_word(CompatWords* w, const char* s, Py_ssize_t n) noexcept nogil:
    """Append the pair's id of the word s[0:n]; -1 when out of memory or ids."""
    cdef int32_t g = vocab_intern(&w.v, s, n)
    if g < 0:
        return -1
    if grow_array(<void**>&w.local, &w.local_cap, <Py_ssize_t>g + 1, sizeof(int32_t), 0xFF) < 0:
        return -1
    if w.local[g] < 0:
        if w.nused >= MAX_IDS:
            return -1
        if grow_array(<void**>&w.used, &w.used_cap, w.nused + 1, sizeof(int32_t), -1) < 0:
            return -1
        w.local[g] = <int32_t>w.nused
        w.used[w.nused] = g
        w.nused += 1
    if grow_array(<void**>&w.tok, &w.tok_cap, w.ntok + 1, sizeof(int32_t), -1) < 0:
        return -1
    w.tok[w.ntok] = w.local[g]
    w.ntok += 1
    return 0


cdef inline Py_ssize_t _utf8(char* out, uint32_t c) noexcept nogil:
    """Write c as UTF-8 (a surrogate as its three bytes, as "surrogatepass"
    does: one byte sequence per code point); the number of bytes."""
    if c < 0x80:
        out[0] = <char>c
        return 1
    if c < 0x800:
        out[0] = <char>(0xC0 | (c >> 6))
        out[1] = <char>(0x80 | (c & 0x3F))
        return 2
    if c < 0x10000:
        out[0] = <char>(0xE0 | (c >> 12))
        out[1] = <char>(0x80 | ((c >> 6) & 0x3F))
        out[2] = <char>(0x80 | (c & 0x3F))
        return 3
    out[0] = <char>(0xF0 | (c >> 18))
    out[1] = <char>(0x80 | ((c >> 12) & 0x3F))
    out[2] = <char>(0x80 | ((c >> 6) & 0x3F))
    out[3] = <char>(0x80 | (c & 0x3F))
    return 4


cdef Py_ssize_t _add_sentence(CompatWords* w, object text, Py_ssize_t start,
                              Py_ssize_t end) except -1:
    """Append the sentence text[start:end] (a str, ready; start < end, both
    within it): its words split on whitespace, or the empty word when there
    is none. Returns the number of its words that are not empty. Reads the
    string: the GIL must be held."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef bint ascii = PyUnicode_IS_ASCII(text)
    cdef const unsigned char* chars = <const unsigned char*>data
    cdef Py_ssize_t i = start, ws, k, nb, words = 0
    cdef int rc
    while True:
        if ascii:
            # kind 1 and every character < 0x80: the bytes are the UTF-8.
            while i < end and Py_UNICODE_ISSPACE(chars[i]):
                i += 1
            if i >= end:
                break
            ws = i
            while i < end and not Py_UNICODE_ISSPACE(chars[i]):
                i += 1
            rc = _add_word(w, <const char*>chars + ws, i - ws)
        else:
            while i < end and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                i += 1
            if i >= end:
                break
            ws = i
            while i < end and not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                i += 1
            if grow_array(<void**>&w.wbuf, &w.wbuf_cap, 4 * (i - ws), 1, -1) < 0:
                raise MemoryError()
            nb = 0
            for k in range(ws, i):
                nb += _utf8(w.wbuf + nb, PyUnicode_READ(kind, data, k))
            rc = _add_word(w, w.wbuf, nb)
        if rc < 0:
            raise MemoryError()
        words += 1
    if words == 0 and _add_word(w, b"", 0) < 0:
        raise MemoryError()
    if grow_array(<void**>&w.soff, &w.soff_cap, w.nsent + 2, sizeof(Py_ssize_t), -1) < 0:
        raise MemoryError()
    w.nsent += 1
    w.soff[w.nsent] = w.ntok
    return words


cdef Py_ssize_t _add_text(CompatWords* w, object text, bint split_dots) except -1:
    """Append the sentences of one text: with split_dots a str, its pieces
    between "."; else a list (or tuple) of str, its pieces. Returns the
    number of words that are not empty."""
    cdef Py_ssize_t i, n, start, words = 0
    cdef int kind
    cdef void* data
    if split_dots:
        if not isinstance(text, str):
            raise TypeError(f"texts must be str, not {type(text).__name__}")
        rk_unicode_ready(text)
        n = PyUnicode_GET_LENGTH(text)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        start = 0
        for i in range(n + 1):
            if i == n or PyUnicode_READ(kind, data, i) == 0x2E:
                if i > start:
                    words += _add_sentence(w, text, start, i)
                start = i + 1
        return words
    if not isinstance(text, (list, tuple)):
        raise TypeError(f"pieces must be a list of str, not {type(text).__name__}")
    for piece in text:
        if not isinstance(piece, str):
            raise TypeError(f"pieces must be str, not {type(piece).__name__}")
        rk_unicode_ready(piece)
        n = PyUnicode_GET_LENGTH(piece)
        if n > 0:
            words += _add_sentence(w, piece, 0, n)
    return words


cdef int _end_pair(CompatWords* w, Py_ssize_t h0, Py_ssize_t h1, Py_ssize_t len_h,
                   Py_ssize_t len_r) except -1:
    """Record the pair just added and forget its ids."""
    cdef Py_ssize_t k
    cdef PairSpan* p
    if grow_array(<void**>&w.pairs, &w.pairs_cap, w.npairs + 1, sizeof(PairSpan), -1) < 0:
        raise MemoryError()
    p = &w.pairs[w.npairs]
    p.h0 = h0
    p.h1 = h1
    p.r1 = w.nsent
    p.len_h = len_h
    p.len_r = len_r
    p.vocab = <int32_t>w.nused
    w.npairs += 1
    for k in range(w.nused):
        w.local[w.used[k]] = -1
    w.nused = 0
    if w.v.n > VOCAB_RESET:
        vocab_free(&w.v)
        if vocab_init(&w.v, False) < 0:
            raise MemoryError()
    return 0


ctypedef struct CountScratch:
    # Reused across the pairs of one call; flags and counts are zero
    # between pairs.
    int32_t* g                    # n-gram ids at one level: the hypothesis's, then
    Py_ssize_t g_cap              # the reference's
    int32_t* cnt                  # a flag or count by n-gram (or word) id
    Py_ssize_t cnt_cap
    char* marks                   # LCS marks over one hypothesis sentence
    Py_ssize_t marks_cap
    GramTable grams
    LcsScratch lcs


cdef void _scratch_free(CountScratch* sc) noexcept nogil:
    free(sc.g)
    free(sc.cnt)
    free(sc.marks)
    gram_table_free(&sc.grams)
    lcs_scratch_free(&sc.lcs)
    memset(sc, 0, sizeof(CountScratch))


cdef void _level_counts(const int32_t* ga, Py_ssize_t ca, const int32_t* gb, Py_ssize_t cb,
                        bint exclusive, int32_t* cnt, int64_t* out) noexcept nogil:
    """(hypothesis, reference, shared) n-grams of one level, from their ids
    (each < the size of cnt, which is zero and left zero): distinct ones
    when exclusive, else every occurrence, shared up to the smaller count."""
    cdef Py_ssize_t i
    cdef int64_t dh = 0, dr = 0, shared = 0
    cdef int32_t f
    if exclusive:
        # bit 1: in the hypothesis; bit 2: in the reference
        for i in range(ca):
            if cnt[ga[i]] == 0:
                cnt[ga[i]] = 1
                dh += 1
        for i in range(cb):
            f = cnt[gb[i]]
            if not (f & 2):
                cnt[gb[i]] = f | 2
                dr += 1
                shared += f & 1
        for i in range(ca):
            cnt[ga[i]] = 0
        for i in range(cb):
            cnt[gb[i]] = 0
        out[0] = dh
        out[1] = dr
        out[2] = shared
        return
    for i in range(ca):
        cnt[ga[i]] += 1
    for i in range(cb):
        if cnt[gb[i]] > 0:
            cnt[gb[i]] -= 1
            shared += 1
    for i in range(ca):
        cnt[ga[i]] = 0
    out[0] = ca
    out[1] = cb
    out[2] = shared


cdef int64_t _union_hits(const int32_t* tok, const Py_ssize_t* soff, Py_ssize_t h0,
                         Py_ssize_t h1, Py_ssize_t r1, Py_ssize_t vocab,
                         CountScratch* sc) noexcept nogil:
    """pltrdy's exclusive ROUGE-L hits: the distinct words on the LCS of any
    (hypothesis sentence, reference sentence) pair, as its backtrack picks
    it (rouge-score's with the sentences swapped: marks on the hypothesis
    sentence). -1 when out of memory."""
    cdef Py_ssize_t k, i, mh, maxlen = 0
    cdef int64_t hits = 0
    cdef const int32_t* h
    cdef int32_t* seen = sc.cnt
    for k in range(h0, r1):
        if soff[k + 1] - soff[k] > maxlen:
            maxlen = soff[k + 1] - soff[k]
    if (lcs_scratch_reserve(&sc.lcs, vocab, maxlen) < 0
            or grow_array(<void**>&sc.marks, &sc.marks_cap, maxlen + 1, 1, 0) < 0):
        return -1
    for k in range(h0, h1):
        h = tok + soff[k]
        mh = soff[k + 1] - soff[k]
        memset(sc.marks, 0, mh)
        if lcs_union_marks(h, mh, tok, soff + h1, r1 - h1, &sc.lcs, sc.marks) < 0:
            return -1
        for i in range(mh):
            if sc.marks[i] and not seen[h[i]]:
                seen[h[i]] = 1
                hits += 1
    for i in range(soff[h0], soff[h1]):
        seen[tok[i]] = 0
    return hits


cdef int _count_pair(const CompatWords* w, const PairSpan* p, const Py_ssize_t* ns,
                     Py_ssize_t nmetrics, Py_ssize_t max_n, bint exclusive, int lcs,
                     CountScratch* sc, int64_t* out) noexcept nogil:
    """The counts of one pair (the layout of pair_counts' tuples) into out;
    -1 when out of memory."""
    cdef const Py_ssize_t* soff = w.soff
    cdef const int32_t* a = w.tok + soff[p.h0]
    cdef const int32_t* b = w.tok + soff[p.h1]
    cdef Py_ssize_t na = soff[p.h1] - soff[p.h0], nb = soff[p.r1] - soff[p.h1]
    cdef Py_ssize_t vocab = p.vocab, level, ca, cb, q, i, j
    cdef int64_t lv[3]
    cdef int64_t hits, r
    out[0] = p.h1 - p.h0
    out[1] = p.r1 - p.h1
    out[2] = p.len_h
    out[3] = p.len_r
    for q in range(nmetrics):
        out[4 + 3 * q] = 0
        out[5 + 3 * q] = 0
        out[6 + 3 * q] = 0
    if na == 0 or nb == 0:
        return 0               # a text without sentences: the caller raises
    if (grow_array(<void**>&sc.g, &sc.g_cap, na + nb, sizeof(int32_t), -1) < 0
            or grow_array(<void**>&sc.cnt, &sc.cnt_cap, na + nb + 1, sizeof(int32_t), 0) < 0):
        return -1
    # Every id below (words, n-grams) is < na + nb, the size of sc.cnt.
    # rouge-N, level by level: level n's ids are those of the n-grams.
    cdef int32_t* ga = sc.g
    cdef int32_t* gb = sc.g + na
    for i in range(na):
        ga[i] = a[i]
    for i in range(nb):
        gb[i] = b[i]
    for level in range(1, max_n + 1):
        ca = na - level + 1 if na >= level else 0
        cb = nb - level + 1 if nb >= level else 0
        _level_counts(ga, ca, gb, cb, exclusive, sc.cnt, lv)
        for q in range(nmetrics):
            if ns[q] == level:
                out[4 + 3 * q] = lv[0]
                out[5 + 3 * q] = lv[1]
                out[6 + 3 * q] = lv[2]
        if level == max_n or (ca <= 1 and cb <= 1):
            break
        gram_table_clear(&sc.grams)
        if (gram_next_level(ga, ca - 1 if ca > 0 else 0, a + level, vocab, &sc.grams) < 0
                or gram_next_level(gb, cb - 1 if cb > 0 else 0, b + level, vocab,
                               &sc.grams) < 0):
            return -1
    # ROUGE-L
    for q in range(nmetrics):
        if ns[q] != 0:
            continue
        if lcs == 2:       # LCS_WHOLE
            hits = lcs_length_scratch(b, nb, a, na, vocab, &sc.lcs)
            out[4 + 3 * q] = na
            out[5 + 3 * q] = nb
        elif lcs == 1:     # LCS_SUM
            hits = 0
            for i in range(p.h1, p.r1):
                for j in range(p.h0, p.h1):
                    r = lcs_length_scratch(w.tok + soff[i], soff[i + 1] - soff[i],
                                           w.tok + soff[j], soff[j + 1] - soff[j],
                                           vocab, &sc.lcs)
                    if r < 0:
                        return -1
                    hits += r
            out[4 + 3 * q] = na
            out[5 + 3 * q] = nb
        else:              # LCS_UNION
            hits = _union_hits(w.tok, soff, p.h0, p.h1, p.r1, vocab, sc)
            _level_counts(a, na, b, nb, True, sc.cnt, lv)
            out[4 + 3 * q] = lv[0]
            out[5 + 3 * q] = lv[1]
        if hits < 0:
            return -1
        out[6 + 3 * q] = hits
    return 0


def pair_counts(hyps, refs, bint split_dots, ns, bint exclusive, int lcs):
    """The counts of every (hypothesis, reference) pair, in one call.

    ``hyps`` and ``refs`` are lists of equal length; with ``split_dots``
    each text is a str, whose pieces are its pieces between "." (pltrdy's
    sentences), else each is a list of str, its pieces (rouge-chinese's
    ``cut_sent``). ``ns`` lists the metrics: n for rouge-n (n >= 1), 0 for
    ROUGE-L, counted as ``lcs`` says (``LCS_UNION``, ``LCS_SUM`` or
    ``LCS_WHOLE``). Returns one tuple a pair: (hypothesis sentences,
    reference sentences, hypothesis words that are not empty, reference
    ones, then hyp, ref, overlap for each entry of ``ns``); a pair with a
    text of no sentence has 0 for every metric count.

    >>> pair_counts(["a b. a"], ["a c"], True, (1, 0), True, LCS_UNION)
    [(2, 1, 3, 2, 2, 2, 1, 2, 2, 1)]
    """
    cdef list hs = list(hyps), rs = list(refs)
    cdef Py_ssize_t npairs = len(hs), nmetrics = len(ns), k, h0, h1, len_h, len_r
    cdef Py_ssize_t max_n = 0, width, q
    cdef int rc = 0
    cdef CompatWords w
    cdef CountScratch sc
    cdef Py_ssize_t* nv = NULL
    cdef int64_t* out = NULL
    if len(rs) != npairs:
        raise ValueError("hyps and refs must have the same length")
    if lcs < 0 or lcs > 2:
        raise ValueError(f"lcs must be LCS_UNION, LCS_SUM or LCS_WHOLE, not {lcs}")
    memset(&w, 0, sizeof(CompatWords))
    memset(&sc, 0, sizeof(CountScratch))
    width = 4 + 3 * nmetrics
    try:
        nv = <Py_ssize_t*>malloc((nmetrics if nmetrics > 0 else 1) * sizeof(Py_ssize_t))
        out = <int64_t*>malloc((npairs * width if npairs > 0 else 1) * sizeof(int64_t))
        if nv == NULL or out == NULL or vocab_init(&w.v, False) < 0:
            raise MemoryError()
        for q in range(nmetrics):
            nv[q] = ns[q]
            if nv[q] < 0:
                raise ValueError(f"n must be >= 1 (or 0 for ROUGE-L), got {nv[q]}")
            if nv[q] > max_n:
                max_n = nv[q]
        if grow_array(<void**>&w.soff, &w.soff_cap, 1, sizeof(Py_ssize_t), -1) < 0:
            raise MemoryError()
        w.soff[0] = 0
        for k in range(npairs):
            h0 = w.nsent
            len_h = _add_text(&w, hs[k], split_dots)
            h1 = w.nsent
            len_r = _add_text(&w, rs[k], split_dots)
            if w.ntok - w.soff[h0] >= MAX_IDS:
                raise ValueError("too many words in one pair")
            _end_pair(&w, h0, h1, len_h, len_r)
        with nogil:
            for k in range(npairs):
                rc = _count_pair(&w, &w.pairs[k], nv, nmetrics, max_n, exclusive, lcs,
                                 &sc, out + k * width)
                if rc < 0:
                    break
        if rc < 0:
            raise MemoryError()
        return [tuple([out[k * width + q] for q in range(width)]) for k in range(npairs)]
    finally:
        _words_free(&w)
        _scratch_free(&sc)
        free(nv)
        free(out)


def _set_vocab_reset(Py_ssize_t words):
    """Testing hook: the number of words past which the table of words is
    started afresh between pairs (at least 1). Returns the previous value.
    Not thread-safe; tests only."""
    global VOCAB_RESET
    if words < 1:
        raise ValueError("words must be >= 1")
    old = VOCAB_RESET
    VOCAB_RESET = words
    return old
