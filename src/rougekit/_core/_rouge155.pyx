# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled kernels of the ROUGE-1.5.5 mode; ``_rouge155_py`` is the twin and
the specification (same functions, same results).

- ``porter_stem``: the script's Porter variant on a char buffer. The
  script's regular expressions (``[C](VC){m}[V]`` with ``C = [^aeiou][^aeiouy]*``,
  ``V = [aeiouy][aeiou]*``) parse a word into one sequence of runs only,
  so each test is a scan of that parse (``_measure``, ``_cvc``).
- ``score_evals``: per-evaluation counts of ROUGE-N (the clipped overlap of
  ``_overlap``), S/SU (a hash table of the peer's skip-bigrams, the models'
  streamed through it), L (the union LCS of ``_lcs``: its walk is the
  script's markLCS) and W (the script's weighted-LCS table of doubles,
  whose ties depend on the weights, so it cannot be bit-parallel).
- ``bootstrap``: Perl's drand48 and the script's resampling, sorting and
  interpolation.

Floating point follows the script operation by operation (the extension is
built with ``-ffp-contract=off``; ``pow`` is the C library's, as Perl's
``**``).
"""
from libc.math cimport ceil, fabs, floor, isnan, pow
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t, uintptr_t
from libc.stdio cimport snprintf
from libc.stdlib cimport calloc, free, malloc, strtod
from libc.string cimport memcpy, memset
from libc.errno cimport errno
from libc.stdio cimport FILE, fclose, ferror, fopen, fread

import os
import sys

import numpy as np

from rougekit._core._lcs cimport (LcsScratch, lcs_mark_ids, lcs_scratch_free,
                                   summary_hits_scratch)
from rougekit._core._grams cimport (GramTable, gram_find, gram_intern, gram_table_clear,
                                    gram_table_free, gram_table_reserve)
from rougekit._core._mem cimport grow_array
from rougekit._core._overlap cimport (OverlapScratch, clipped_overlap_scratch,
                                       overlap_scratch_free)
from rougekit._core._vocab cimport (RK_HASH_SEED, Vocab, vocab_copy, vocab_find, vocab_free,
                                   vocab_hash, vocab_hash_finish, vocab_init, vocab_intern,
                                   vocab_intern_hashed, vocab_prefix)

cdef extern from "classify.h" nogil:
    void rk_classify_latin1(const unsigned char* s, Py_ssize_t n, unsigned char* low,
                            uint64_t* word, uint64_t* nl)
    uint64_t rk_load_prefix(const unsigned char* p, Py_ssize_t n)

cdef extern from "bits.h" nogil:
    int rk_low_bit64(uint64_t x)

cdef extern from "Python.h":
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_KIND(object o)

from rougekit._core._rouge155_py import porter_stem as _porter_stem_py

__all__ = ["porter_stem", "score_evals", "bootstrap", "resample_means", "summarize_resamples",
           "round5", "raw_tokens", "TokenCorpus", "METRICS"]

METRICS = ("N", "S", "L", "W")
_WINDOWS = sys.platform == "win32"


# ---------------------------------------------------------------------------
# The script's Porter stemmer
# ---------------------------------------------------------------------------

cdef inline bint _is_a(char c) noexcept nogil:
    return c == b'a' or c == b'e' or c == b'i' or c == b'o' or c == b'u'


cdef int _measure(const char* s, Py_ssize_t n, bint* has_vowel) noexcept nogil:
    """m of s[0:n] (its number of VC pairs) and whether it has a V run.
    s[0] is never a lowercase y (the stemmer capitalises an initial y)."""
    cdef Py_ssize_t i = 0
    cdef int m = 0
    has_vowel[0] = False
    if n == 0:
        return 0
    if not _is_a(s[0]):                 # the initial C run
        i = 1
        while i < n and not _is_a(s[i]) and s[i] != b'y':
            i += 1
    while i < n:
        has_vowel[0] = True             # a V run: [aeiouy][aeiou]*
        i += 1
        while i < n and _is_a(s[i]):
            i += 1
        if i >= n:
            break
        i += 1                          # a C run: [^aeiou][^aeiouy]*
        while i < n and not _is_a(s[i]) and s[i] != b'y':
            i += 1
        m += 1
    return m


cdef bint _cvc(const char* s, Py_ssize_t n) noexcept nogil:
    """``^C v [^aeiouwxy]$``: one C run, one vowel, one last consonant."""
    cdef Py_ssize_t i = 1
    cdef char last
    if n < 3 or _is_a(s[0]):
        return False
    while i < n and not _is_a(s[i]) and s[i] != b'y':
        i += 1
    if i + 2 != n:
        return False
    last = s[n - 1]
    return not (_is_a(last) or last == b'w' or last == b'x' or last == b'y')


cdef inline bint _ends(const char* s, Py_ssize_t n, const char* suffix,
                       Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t i
    if k > n:
        return False
    for i in range(k):
        if s[n - k + i] != suffix[i]:
            return False
    return True


cdef inline int _m(const char* s, Py_ssize_t n) noexcept nogil:
    cdef bint v
    return _measure(s, n, &v)


cdef inline bint _has_vowel(const char* s, Py_ssize_t n) noexcept nogil:
    cdef bint v
    _measure(s, n, &v)
    return v


# Step 2 and 3 suffixes and replacements, and step 4's first list. A regex
# alternation anchored at the end finds the leftmost, hence longest, suffix.
cdef const char* STEP2_FROM[21]
cdef const char* STEP2_TO[21]
STEP2_FROM[:] = [b"ational", b"tional", b"enci", b"anci", b"izer", b"bli", b"alli",
                 b"entli", b"eli", b"ousli", b"ization", b"ation", b"ator", b"alism",
                 b"iveness", b"fulness", b"ousness", b"aliti", b"iviti", b"biliti", b"logi"]
STEP2_TO[:] = [b"ate", b"tion", b"ence", b"ance", b"ize", b"ble", b"al", b"ent", b"e",
               b"ous", b"ize", b"ate", b"ate", b"al", b"ive", b"ful", b"ous", b"al", b"ive",
               b"ble", b"log"]
cdef const char* STEP3_FROM[7]
cdef const char* STEP3_TO[7]
STEP3_FROM[:] = [b"icate", b"ative", b"alize", b"iciti", b"ical", b"ful", b"ness"]
STEP3_TO[:] = [b"ic", b"", b"al", b"ic", b"ic", b"", b""]
cdef const char* STEP4[16]
STEP4[:] = [b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement", b"ou",
            b"ism", b"ate", b"iti", b"ous", b"ive", b"ize"]


cdef Py_ssize_t _strlen(const char* s) noexcept nogil:
    cdef Py_ssize_t k = 0
    while s[k] != 0:
        k += 1
    return k


cdef int _longest(const char* s, Py_ssize_t n, const char** table, int size,
                  Py_ssize_t* length) noexcept nogil:
    """Index of the longest suffix of s[0:n] in table, or -1."""
    cdef int i, best = -1
    cdef Py_ssize_t k, best_len = -1
    for i in range(size):
        k = _strlen(table[i])
        if k > best_len and _ends(s, n, table[i], k):
            best, best_len = i, k
    length[0] = best_len
    return best


cdef Py_ssize_t _replace(char* s, Py_ssize_t stem, const char* to) noexcept nogil:
    """s[0:stem] + to; ``to`` is never longer than the suffix it replaces."""
    cdef Py_ssize_t k = _strlen(to)
    memcpy(s + stem, to, k)
    return stem + k


cdef Py_ssize_t stem_chars(char* w, Py_ssize_t n) noexcept nogil:
    """Stem the lowercase ASCII word w[0:n] in place; returns its new length.
    w has room for n + 1 chars (step 1b adds an "e" only after removing
    "ed" or "ing"); no rule makes a word longer than it was."""
    cdef bint initial_y
    cdef Py_ssize_t stem, k
    cdef int i, m
    cdef bint v
    cdef char c
    if n < 3:
        return n
    initial_y = w[0] == b'y'
    if initial_y:
        w[0] = b'Y'
    # Step 1a
    if _ends(w, n, b"sses", 4) or _ends(w, n, b"ies", 3):
        n -= 2
    elif w[n - 1] == b's' and w[n - 2] != b's':
        n -= 1
    # Step 1b
    if _ends(w, n, b"eed", 3):
        if _m(w, n - 3) > 0:
            n -= 1
    elif _ends(w, n, b"ed", 2) or _ends(w, n, b"ing", 3):
        stem = n - 2 if _ends(w, n, b"ed", 2) else n - 3
        if _has_vowel(w, stem):
            n = stem
            if _ends(w, n, b"at", 2) or _ends(w, n, b"bl", 2) or _ends(w, n, b"iz", 2):
                w[n] = b'e'
                n += 1
            elif (n >= 2 and w[n - 1] == w[n - 2] and not _is_a(w[n - 1])
                    and w[n - 1] != b'y' and w[n - 1] != b'l' and w[n - 1] != b's'
                    and w[n - 1] != b'z'):
                n -= 1
            elif _cvc(w, n):
                w[n] = b'e'
                n += 1
    # Step 1c
    if n >= 1 and w[n - 1] == b'y' and _has_vowel(w, n - 1):
        w[n - 1] = b'i'
    # Step 2
    i = _longest(w, n, STEP2_FROM, 21, &k)
    if i >= 0 and _m(w, n - k) > 0:
        n = _replace(w, n - k, STEP2_TO[i])
    # Step 3
    i = _longest(w, n, STEP3_FROM, 7, &k)
    if i >= 0 and _m(w, n - k) > 0:
        n = _replace(w, n - k, STEP3_TO[i])
    # Step 4: three tests in a row, each on the result of the one before.
    i = _longest(w, n, STEP4, 16, &k)
    if i >= 0 and _m(w, n - k) > 1:
        n -= k
    if _ends(w, n, b"ment", 4) and _m(w, n - 4) > 1:
        n -= 4
    if _ends(w, n, b"ent", 3):
        if _m(w, n - 3) > 1:
            n -= 3
    elif _ends(w, n, b"sion", 4) or _ends(w, n, b"tion", 4):
        if _m(w, n - 3) > 1:
            n -= 3
    # Step 5
    if n >= 1 and w[n - 1] == b'e':
        m = _measure(w, n - 1, &v)
        if m > 1 or (m == 1 and not _cvc(w, n - 1)):
            n -= 1
    if _ends(w, n, b"ll", 2) and _m(w, n) > 1:
        n -= 1
    if initial_y:
        w[0] = b'y'
    return n


def porter_stem(str word):
    """The script's Porter stemmer (see ``_rouge155_py.porter_stem``).

    >>> [porter_stem(w) for w in ("agreement", "apology", "biology", "running")]
    ['agreem', 'apolog', 'biologi', 'run']
    """
    cdef Py_ssize_t n = len(word), i
    cdef bytes data
    cdef char* buf
    cdef char c
    if n < 3:
        return word
    if not word.isascii():
        return _porter_stem_py(word)
    data = word.encode("ascii")
    for i in range(n):
        c = data[i]
        if not ((b'a' <= c <= b'z') or (b'0' <= c <= b'9')):
            return _porter_stem_py(word)   # the script only stems a-z 0-9 tokens
    buf = <char*>malloc(n + 1)
    if buf == NULL:
        raise MemoryError()
    try:
        memcpy(buf, <const char*>data, n)
        n = stem_chars(buf, n)
        return buf[:n].decode("ascii")
    finally:
        free(buf)


# ---------------------------------------------------------------------------
# Numbers as the script prints them
# ---------------------------------------------------------------------------

cdef double _round5_slow(double x) noexcept nogil:
    # "%.5f" of the largest double is 316 characters: the buffer holds any.
    cdef char buf[352]
    snprintf(buf, sizeof(buf), b"%.5f", x)
    return strtod(buf, NULL)


cdef inline double _round5(double x) noexcept nogil:
    """x through ``sprintf("%.5f")`` and back: the nearest 5-decimal number
    (ties to even on the exact binary value, as printf), as the nearest
    double to it. k / 100000.0 is that double (IEEE division is correctly
    rounded); below 1000, x * 1e5 is within 1e-8 of the exact product, so
    only values near a tie need printf."""
    cdef double y, k, frac
    if not (x >= 0.0 and x < 1000.0):
        return _round5_slow(x)
    y = x * 100000.0
    k = floor(y)
    frac = y - k
    if fabs(frac - 0.5) < 1e-6:
        return _round5_slow(x)
    if frac > 0.5:
        k += 1.0
    return k / 100000.0


def round5(double x):
    """``x`` through the script's ``sprintf("%7.5f", x)`` and back.

    >>> round5(2 / 3)
    0.66667
    """
    return _round5(x)


cdef inline double _f_measure(double p, double r, double alpha) noexcept nogil:
    cdef double d = (1 - alpha) * p + alpha * r
    if d > 0:
        return _round5((p * r) / d)
    return 0.0


# ---------------------------------------------------------------------------
# Skip-bigram counts: the peer's grams in a hash table, models streamed
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


# A peer whose distinct tokens give at most this many local grams (u * u
# skip-bigrams + u unigrams) is counted in flat arrays; a larger one in the
# hash table.
cdef enum:
    LOCAL_GRAMS_MAX = 1 << 20


cdef Py_ssize_t _local_ids(Scratch* sc, const int32_t* p, Py_ssize_t T) noexcept nogil:
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


cdef void _local_ids_clear(Scratch* sc) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(sc.nloc):
        sc.loc[sc.ltok[i]] = -1
    sc.nloc = 0


cdef int _skip_peer_local(Scratch* sc, const int32_t* p, Py_ssize_t T, double distance,
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


cdef void _skip_peer_clear(Scratch* sc, const int32_t* p, Py_ssize_t T, double distance,
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


cdef int64_t _skip_model_local(Scratch* sc, const int32_t* q, Py_ssize_t T, double distance,
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


cdef int _level_room(Scratch* sc, Py_ssize_t n) noexcept nogil:
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


cdef void _ngram_peer_clear(Scratch* sc, const int32_t* p, Py_ssize_t T, Py_ssize_t n,
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


cdef int _ngram_peer_levels(Scratch* sc, const int32_t* p, Py_ssize_t T,
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


cdef int _ngram_model_levels(Scratch* sc, const int32_t* q, Py_ssize_t T,
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


cdef int _ngram_evals(const Corpus* c, const int32_t* ps, const int64_t* mo,
                      const int32_t* ms, Py_ssize_t E, Py_ssize_t vocab, Py_ssize_t maxlen,
                      Py_ssize_t first, Py_ssize_t nmax, bint best_model, double alpha,
                      Scratch* sc, double* out) noexcept nogil:
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
        pt = _seq(c, c.ngram[ps[e]], &np_)
        for kk in range(orders):
            th[kk] = tm[kk] = tp[kk] = 0.0
            best[kk] = -1.0
        local = _ngram_peer_levels(sc, pt, np_, nmax)
        if local < 0:
            err = -1
            break
        for k in range(mo[e], mo[e + 1]):
            md = ms[k]
            mt = _seq(c, c.ngram[md], &nm)
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
            row[5] = _f_measure(p, r, alpha)
        e += 1
    free(th)
    free(tm)
    free(tp)
    free(best)
    free(hits)
    return err


# ---------------------------------------------------------------------------
# ROUGE-L and ROUGE-W of one model against one peer
# ---------------------------------------------------------------------------

ctypedef struct Scratch:
    LcsScratch lcs
    OverlapScratch overlap
    PeerGrams grams
    int32_t* head            # vocab entries, -1 between uses
    int32_t* bag_model       # vocab entries, 0 between uses
    int32_t* bag_peer        # vocab entries, 0 between uses
    char* in_peer            # vocab entries, 0 between uses (ROUGE-W)
    int32_t* first_pos       # vocab entries: a token's first column in the peer (ROUGE-W)
    # ROUGE-S/SU: the peer's skip-bigrams counted by local ids (see _skip_peer)
    int32_t* loc             # vocab entries: a token's local id in the peer, -1 between uses
    int32_t* ltok            # the peer's distinct tokens by local id (maxlen entries)
    Py_ssize_t nloc
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
    int32_t* touched         # n-gram ids a model matched (maxlen entries)
    Py_ssize_t ngram_ids     # distinct n-grams of the current peer
    char* marks              # maxlen entries
    Py_ssize_t* roff         # sentence offsets for summary_hits_scratch
    Py_ssize_t* coff
    Py_ssize_t roff_cap
    Py_ssize_t coff_cap
    double* fw               # fw[k] = pow(k, W), k = 0 .. maxlen + 1
    double* wc               # ROUGE-W's table row, updated in place (maxlen + 1)
    int32_t* wl              # its run lengths (maxlen + 1)
    char* row_kind           # per row of the table (maxlen): see _wlcs_table
    int32_t* row_j0
    int32_t* row_j1
    char* dirs               # ROUGE-W's directions of the rows filled cell by cell
    Py_ssize_t dirs_cap


cdef void _scratch_free(Scratch* sc) noexcept nogil:
    lcs_scratch_free(&sc.lcs)
    overlap_scratch_free(&sc.overlap)
    _table_free(&sc.grams)
    free(sc.head)
    free(sc.bag_model)
    free(sc.bag_peer)
    free(sc.in_peer)
    free(sc.first_pos)
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
    free(sc.touched)
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
    memset(sc, 0, sizeof(Scratch))


cdef int _scratch_init(Scratch* sc, Py_ssize_t vocab, Py_ssize_t maxlen,
                       double weight) noexcept nogil:
    cdef Py_ssize_t k
    memset(sc, 0, sizeof(Scratch))
    sc.head = <int32_t*>malloc(vocab * sizeof(int32_t))
    sc.bag_model = <int32_t*>calloc(vocab, sizeof(int32_t))
    sc.bag_peer = <int32_t*>calloc(vocab, sizeof(int32_t))
    sc.in_peer = <char*>calloc(vocab, 1)
    sc.first_pos = <int32_t*>malloc(vocab * sizeof(int32_t))
    sc.loc = <int32_t*>malloc(vocab * sizeof(int32_t))
    sc.ltok = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.ids_prev = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.ids_cur = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.touched = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.marks = <char*>malloc(maxlen + 1)
    sc.fw = <double*>malloc((maxlen + 2) * sizeof(double))
    sc.wc = <double*>malloc((maxlen + 1) * sizeof(double))
    sc.wl = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.row_kind = <char*>malloc(maxlen + 1)
    sc.row_j0 = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    sc.row_j1 = <int32_t*>malloc((maxlen + 1) * sizeof(int32_t))
    if (sc.head == NULL or sc.bag_model == NULL or sc.bag_peer == NULL or sc.in_peer == NULL
            or sc.first_pos == NULL or sc.loc == NULL or sc.ltok == NULL
            or sc.ids_prev == NULL or sc.ids_cur == NULL
            or sc.touched == NULL or sc.marks == NULL
            or sc.fw == NULL or sc.wc == NULL or sc.wl == NULL or sc.row_kind == NULL
            or sc.row_j0 == NULL or sc.row_j1 == NULL):
        return -1
    memset(sc.head, 0xFF, vocab * sizeof(int32_t))
    memset(sc.loc, 0xFF, vocab * sizeof(int32_t))
    for k in range(maxlen + 2):
        sc.fw[k] = pow(<double>k, weight)
    return 0


cdef int _wlcs_mark(const int32_t* model, Py_ssize_t m, const int32_t* peer, Py_ssize_t n,
                    Scratch* sc) noexcept nogil:
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
                     Scratch* sc) noexcept nogil:
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
# score_evals
# ---------------------------------------------------------------------------

cdef inline const int32_t* _ptr32(const int32_t[::1] a) noexcept:
    return &a[0] if a.shape[0] > 0 else NULL


cdef inline const int64_t* _ptr64(const int64_t[::1] a) noexcept:
    return &a[0] if a.shape[0] > 0 else NULL


cdef struct Corpus:
    const int32_t* tok
    const int64_t* start
    const int64_t* end
    const int32_t* ngram
    const int32_t* lo
    const int32_t* hi


cdef inline const int32_t* _seq(const Corpus* c, Py_ssize_t s, Py_ssize_t* n) noexcept nogil:
    n[0] = <Py_ssize_t>(c.end[s] - c.start[s])
    return c.tok + c.start[s]


cdef int64_t _lcs_general(const Corpus* c, Py_ssize_t md, Py_ssize_t mb, Py_ssize_t pd,
                          Py_ssize_t pb, Scratch* sc, bint weighted, double* whit,
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
    bag = _seq(c, c.ngram[mb], &nb)
    for i in range(nb):
        sc.bag_model[bag[i]] += 1
    bag = _seq(c, c.ngram[pb], &nb)
    for i in range(nb):
        sc.bag_peer[bag[i]] += 1
    whit[0] = 0.0
    wbase[0] = 0.0
    base[0] = 0
    for s in range(c.lo[md], c.hi[md]):
        r = _seq(c, s, &m)
        base[0] += m
        if weighted:
            wbase[0] += sc.fw[m]
        if m == 0:
            continue
        memset(sc.marks, 0, m)
        for q in range(c.lo[pd], c.hi[pd]):
            p = _seq(c, q, &n)
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
    bag = _seq(c, c.ngram[mb], &nb)
    for i in range(nb):
        sc.bag_model[bag[i]] = 0
    bag = _seq(c, c.ngram[pb], &nb)
    for i in range(nb):
        sc.bag_peer[bag[i]] = 0
    return hits


cdef bint _bag_is_sentences(const Corpus* c, Py_ssize_t d) noexcept nogil:
    """Whether document d's n-gram tokens are its sentences' tokens."""
    cdef Py_ssize_t g = c.ngram[d]
    if c.hi[d] == c.lo[d]:
        return c.end[g] == c.start[g]
    return c.start[g] == c.start[c.lo[d]] and c.end[g] == c.end[c.hi[d] - 1]


cdef int _offsets(const Corpus* c, Py_ssize_t d, Py_ssize_t* off) noexcept nogil:
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


cdef int64_t _lcs_fast(const Corpus* c, Py_ssize_t md, Py_ssize_t pd, Py_ssize_t vocab,
                       Scratch* sc) noexcept nogil:
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


cdef int _check_range(const int32_t[::1] a, Py_ssize_t bound, str name) except -1:
    """ValueError naming the first entry of a outside [0, bound)."""
    cdef Py_ssize_t i, n = a.shape[0]
    cdef const uint32_t* p = <const uint32_t*>&a[0] if n > 0 else NULL
    # As unsigned 32-bit numbers a negative entry is at least 2**31, as is
    # every entry at or past a bound above 2**31: one compare per entry.
    cdef uint32_t top = <uint32_t>(bound if 0 <= bound <= 0x80000000 else
                                   (0 if bound < 0 else 0x80000000))
    cdef uint32_t outside = 0
    with nogil:
        for i in range(n):
            outside |= p[i] >= top
    if outside:
        for i in range(n):
            if a[i] < 0 or a[i] >= bound:
                raise ValueError(f"{name}[{i}] = {a[i]} is outside [0, {bound})")
    return 0


def score_evals(str metric, corpus, jobs, *, Py_ssize_t n=1, double skip_distance=-1.0,
                bint skip_unigrams=False, double weight=1.0, bint best_model=False,
                double alpha=0.5, bint all_n=False):
    """Counts and scores of one measure for every evaluation of ``jobs``
    (see ``_rouge155_py.score_evals`` for the arguments and the result)."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    cdef int kind = METRICS.index(metric)
    if kind == 0 and n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if kind == 3 and not weight > 0:
        raise ValueError(f"weight must be > 0, got {weight}")
    if kind == 1 and isnan(skip_distance):
        raise ValueError("skip_distance must be a number, got nan")
    tokens, seq_start, seq_end, doc_ngram, doc_sent_lo, doc_sent_hi, vocab_obj = corpus
    peer_seq, peer_bag, model_off, model_seq, model_bag = jobs
    cdef const int32_t[::1] tok = tokens
    cdef const int64_t[::1] start = seq_start
    cdef const int64_t[::1] end = seq_end
    cdef const int32_t[::1] ngram = doc_ngram
    cdef const int32_t[::1] lo = doc_sent_lo
    cdef const int32_t[::1] hi = doc_sent_hi
    cdef const int32_t[::1] pseq = peer_seq
    cdef const int32_t[::1] pbag = peer_bag
    cdef const int64_t[::1] moff = model_off
    cdef const int32_t[::1] mseq = model_seq
    cdef const int32_t[::1] mbag = model_bag
    cdef Py_ssize_t vocab = vocab_obj
    cdef Py_ssize_t ntok = tok.shape[0], nseq = start.shape[0], ndoc = ngram.shape[0]
    cdef Py_ssize_t E = pseq.shape[0], K = mseq.shape[0], i, maxlen = 0
    # Every index is checked here, so the loops below need no bounds checks.
    if vocab < 1 or vocab > 0x7FFFFFFF:
        raise ValueError(f"vocab must be in [1, 2**31), got {vocab}")
    _check_range(tok, vocab, "tokens")
    if end.shape[0] != nseq or lo.shape[0] != ndoc or hi.shape[0] != ndoc:
        raise ValueError("corpus arrays of different lengths")
    for i in range(nseq):
        if not (0 <= start[i] <= end[i] <= ntok):
            raise ValueError(f"sequence {i} = [{start[i]}, {end[i]}) is outside the tokens")
        if end[i] - start[i] > maxlen:
            maxlen = end[i] - start[i]
    _check_range(ngram, nseq, "doc_ngram")
    for i in range(ndoc):
        if not (0 <= lo[i] <= hi[i] <= nseq):
            raise ValueError(f"document {i}'s sentences [{lo[i]}, {hi[i]}) are outside "
                             "the sequences")
    if pbag.shape[0] != E or moff.shape[0] != E + 1 or mbag.shape[0] != K:
        raise ValueError("job arrays of different lengths")
    _check_range(pseq, ndoc, "peer_seq")
    _check_range(pbag, ndoc, "peer_bag")
    _check_range(mseq, ndoc, "model_seq")
    _check_range(mbag, ndoc, "model_bag")
    if moff[0] != 0 or moff[E] != K:
        raise ValueError("model_off must run from 0 to the number of models")
    for i in range(E):
        if moff[i] > moff[i + 1]:
            raise ValueError("model_off must not decrease")

    if all_n and (kind != 0 or n > 64):
        raise ValueError("all_n is for metric 'N' with n <= 64")
    all_arr = np.zeros((n if all_n else 0, E if all_n else 0, 6), dtype=np.float64)
    cdef double[:, :, ::1] all_view = all_arr
    cdef double* all_out = &all_view[0, 0, 0] if all_n and E > 0 else NULL
    out_arr = np.zeros((0 if all_n else E, 6), dtype=np.float64)
    cdef double[:, ::1] out = out_arr
    cdef double* n_out = &out[0, 0] if not all_n and E > 0 else NULL
    cdef Corpus c
    c.tok = _ptr32(tok)
    c.start = _ptr64(start)
    c.end = _ptr64(end)
    c.ngram = _ptr32(ngram)
    c.lo = _ptr32(lo)
    c.hi = _ptr32(hi)
    cdef const int32_t* ps = _ptr32(pseq)
    cdef const int32_t* pb = _ptr32(pbag)
    cdef const int64_t* mo = _ptr64(moff)
    cdef const int32_t* ms = _ptr32(mseq)
    cdef const int32_t* mb = _ptr32(mbag)
    cdef Scratch sc
    cdef Py_ssize_t e, k, pd, md, np_, nm, nbag, bad = -1
    cdef const int32_t* pt
    cdef const int32_t* mt
    cdef int64_t hit, mcount, pcount, lbase, grams
    cdef double score, best, th, tm, tp, whit, wbase, r, p, inv_w = 1.0 / weight
    cdef int err = 0, local = 0
    cdef bint fast
    with nogil:
        if _scratch_init(&sc, vocab, maxlen, weight) < 0:
            err = -1
        e = 0
        if err == 0 and kind == 0:      # ROUGE-N: one order, or 1 .. n
            err = _ngram_evals(&c, ps, mo, ms, E, vocab, maxlen, 1 if all_n else n, n,
                               best_model, alpha, &sc, all_out if all_n else n_out)
            e = E
        while err == 0 and bad < 0 and e < E:
            pd = ps[e]
            pt = _seq(&c, c.ngram[pd], &np_)
            _seq(&c, c.ngram[pb[e]], &nbag)       # the peer's unigram count (L, W)
            th = tm = tp = 0.0
            best = -1.0
            if kind == 1:
                pcount = _skip_count(np_, skip_distance, skip_unigrams)
                local = _skip_peer_local(&sc, pt, np_, skip_distance, skip_unigrams)
                if local < 0 or (local == 0 and _skip_peer(&sc.grams, pt, np_, skip_distance,
                                                           skip_unigrams) < 0):
                    err = -1
                    break
            else:
                pcount = nbag
            for k in range(mo[e], mo[e + 1]):
                md = ms[k]
                if kind == 1:            # ROUGE-S / SU
                    mt = _seq(&c, c.ngram[md], &nm)
                    if local:
                        hit = _skip_model_local(&sc, mt, nm, skip_distance, skip_unigrams)
                    else:
                        hit = _skip_model(&sc.grams, mt, nm, skip_distance, skip_unigrams,
                                          &grams)
                    mcount = _skip_count(nm, skip_distance, skip_unigrams)
                else:                    # ROUGE-L / W
                    fast = (kind == 2 and mb[k] == md and pb[e] == pd
                            and _bag_is_sentences(&c, md) and _bag_is_sentences(&c, pd))
                    hit = -2
                    if fast:
                        hit = _lcs_fast(&c, md, pd, vocab, &sc)
                        lbase = 0
                        for i in range(c.lo[md], c.hi[md]):
                            lbase += c.end[i] - c.start[i]
                    if hit == -2:
                        hit = _lcs_general(&c, md, mb[k], pd, pb[e], &sc, kind == 3,
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
                _skip_peer_clear(&sc, pt, np_, skip_distance, skip_unigrams, local == 1)
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
            out[e, 5] = _f_measure(p, r, alpha)
            e += 1
        _scratch_free(&sc)
    if err != 0:
        raise MemoryError()
    if all_n:
        return all_arr, -1
    return out_arr, bad


# ---------------------------------------------------------------------------
# Bootstrap
# ---------------------------------------------------------------------------

cdef inline double _at(const double* a, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """Perl's $a[$i] of a numeric array: undef (0) past the end."""
    return a[i] if 0 <= i < n else 0.0


cdef extern from "resample.h" nogil:
    const int SUM_BLOCK "RK_SUM_BLOCK"
    const int MAX_LANES "RK_MAX_LANES"
    int _widest_lanes "rk_resample_lanes" ()
    void _draws "rk_draws" (uint64_t seed, int lanes, Py_ssize_t n, int32_t* idx)
    void _resample_sums "rk_resample_sums" (const double* table, Py_ssize_t width,
                                             Py_ssize_t n, int lanes, const int32_t* idx,
                                             double* sums)

# How many resamples the widest summing kernel this CPU runs takes at once:
# 8 (AVX-512), 4 (AVX2) or 2. Every kernel gives the same sums, bit for bit.
cdef int WIDEST_LANES = _widest_lanes()


# How many resample_means sums at once: 0 for WIDEST_LANES (_set_resample_lanes).
cdef int RESAMPLE_LANES = 0


def _resample_lanes():
    """How many resamples ``resample_means`` sums at once on this CPU (8 with
    AVX-512, 4 with AVX2, else 2); ``_set_resample_lanes`` may ask for fewer
    (the tests run every kernel the CPU has).

    >>> _resample_lanes() in (2, 4, 8)
    True
    """
    return WIDEST_LANES


def _set_resample_lanes(int lanes):
    """Testing hook: ``resample_means`` sums ``lanes`` resamples at once (2,
    4 or 8, at most ``_resample_lanes()``; 0: that many); the means are the
    same for each. Returns the previous value. Not thread-safe; tests only."""
    global RESAMPLE_LANES
    if lanes != 0 and (lanes not in (2, 4, 8) or lanes > WIDEST_LANES):
        raise ValueError(f"lanes must be 2, 4 or 8 and at most {WIDEST_LANES} "
                         f"on this CPU, got {lanes}")
    old = RESAMPLE_LANES
    RESAMPLE_LANES = lanes
    return old


def bootstrap(values, double resamples, double confidence, *, bint token_counts=False,
              double alpha=0.5):
    """The script's printed averages and bounds (see ``_rouge155_py.bootstrap``).

    >>> import numpy as np
    >>> avg, lo, hi = bootstrap(np.array([[0.5], [1.0]]), 1000, 95)
    >>> print("%7.5f %7.5f %7.5f" % (avg[0], lo[0], hi[0]))
    0.75000 0.50000 1.00000
    """
    _check_resamples(resamples)
    _check_confidence(confidence)
    means = resample_means(values, resamples, 0, <Py_ssize_t>ceil(resamples),
                           token_counts=token_counts, alpha=alpha)
    return summarize_resamples(means, resamples, confidence)


cdef _check_resamples(double resamples):
    if not resamples > 0 or resamples > 1e8:
        raise ValueError(f"resamples must be in (0, 1e8], got {resamples!r}")


cdef _check_confidence(double confidence):
    if not 0 <= confidence <= 100:
        raise ValueError(f"confidence must be in [0, 100], got {confidence!r}")


def resample_means(values, double resamples, Py_ssize_t first, Py_ssize_t last, *,
                   bint token_counts=False, double alpha=0.5):
    """The means of resamples ``first .. last - 1``, columns x resamples
    (see ``_rouge155_py.resample_means``). Runs without the GIL, summing
    ``_resample_lanes()`` resamples at once (``_set_resample_lanes``: fewer).

    >>> import numpy as np
    >>> resample_means(np.array([[0.5], [1.0]]), 1000, 0, 3).tolist()
    [[0.75, 0.5, 0.75]]
    """
    arr = np.ascontiguousarray(values, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError("values must be a 2-d array (instances x columns)")
    _check_resamples(resamples)
    cdef Py_ssize_t n = arr.shape[0], cols = arr.shape[1]
    if token_counts and cols % 3:
        raise ValueError("with token_counts the columns come in triples")
    if n > 0x7FFFFFFF:
        raise ValueError(f"at most 2**31 - 1 instances, got {n}")
    if not 0 <= first <= last <= <Py_ssize_t>ceil(resamples):
        raise ValueError(f"resamples [{first}, {last}) out of range")
    cdef int lanes = RESAMPLE_LANES if RESAMPLE_LANES else WIDEST_LANES
    cdef Py_ssize_t count = last - first, s, j, u
    means_arr = np.zeros((cols, count), dtype=np.float64)
    if cols == 0 or count == 0:
        return means_arr
    cdef double[:, ::1] means = means_arr
    # The columns padded with zeros to whole blocks, block-major: column j of
    # row i at table[(j // SUM_BLOCK) * n * SUM_BLOCK + i * SUM_BLOCK + j % SUM_BLOCK],
    # 64-byte aligned (a row of a block is one cache line; the wide kernels'
    # aligned loads need it).
    cdef Py_ssize_t width = (cols + SUM_BLOCK - 1) // SUM_BLOCK * SUM_BLOCK, i
    cdef const double[:, ::1] v = arr
    cdef void* table_mem = calloc(max(n, 1) * width + SUM_BLOCK, sizeof(double))
    cdef double* table = <double*>(((<uintptr_t>table_mem) + 63) & ~(<uintptr_t>63))
    cdef double* sums = <double*>malloc(MAX_LANES * width * sizeof(double))
    cdef int32_t* idx = <int32_t*>malloc(MAX_LANES * (n + 1) * sizeof(int32_t))
    cdef double dn = <double>n, mc, pc, h, rr, pp, d
    cdef double* acc
    if table_mem == NULL or sums == NULL or idx == NULL:
        free(table_mem)
        free(sums)
        free(idx)
        raise MemoryError()
    with nogil:
        for i in range(n):
            for j in range(cols):
                table[(j // SUM_BLOCK) * n * SUM_BLOCK + i * SUM_BLOCK + j % SUM_BLOCK] = v[i, j]
        s = first
        while s < last:
            # (past the last resample, the other lanes' draws are not used)
            _draws(<uint64_t>s, lanes, n, idx)
            _resample_sums(table, width, n, lanes, idx, sums)
            for u in range(s, min(s + lanes, last)):
                acc = sums + (u - s) * width
                if token_counts:
                    for j in range(0, cols, 3):
                        mc, pc, h = acc[j], acc[j + 1], acc[j + 2]
                        rr = h / mc if mc > 0 else 0.0
                        pp = h / pc if pc > 0 else 0.0
                        d = (1 - alpha) * pp + alpha * rr
                        means[j, u - first] = rr
                        means[j + 1, u - first] = pp
                        means[j + 2, u - first] = (rr * pp) / d if d > 0 else 0.0
                else:
                    for j in range(cols):
                        means[j, u - first] = acc[j] / dn if n > 0 else 0.0
            s += lanes
    free(table_mem)
    free(sums)
    free(idx)
    return means_arr


def summarize_resamples(means, double resamples, double confidence):
    """``(average, low, high)`` of each column of ``means`` (columns x all
    the resamples; see ``_rouge155_py.summarize_resamples``).

    >>> import numpy as np
    >>> [x.tolist() for x in summarize_resamples(np.array([[0.2, 0.4, 0.6, 0.8]]), 4, 50)]
    [[0.5], [0.4], [0.6]]
    """
    arr = np.asarray(means, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError("means must be a 2-d array (columns x resamples)")
    _check_resamples(resamples)
    _check_confidence(confidence)
    arr = np.sort(arr, axis=-1)                     # each column's resamples
    cdef Py_ssize_t cols = arr.shape[0], count = arr.shape[1], j, s
    if count != <Py_ssize_t>ceil(resamples):
        raise ValueError(f"means has {count} resamples, expected {<Py_ssize_t>ceil(resamples)}")
    avg_arr = np.zeros(cols, dtype=np.float64)
    lo_arr = np.zeros(cols, dtype=np.float64)
    hi_arr = np.zeros(cols, dtype=np.float64)
    if cols == 0:
        return avg_arr, lo_arr, hi_arr
    cdef double[::1] avg = avg_arr, lo = lo_arr, hi = hi_arr
    cdef double[:, ::1] m = arr
    cdef double delta, ratio, total
    cdef Py_ssize_t upper_a, lower_a
    cdef double* col
    with nogil:
        delta = resamples * ((100 - confidence) / 2.0) / 100.0
        upper_a = <Py_ssize_t>(resamples - delta - 1)
        lower_a = <Py_ssize_t>delta
        ratio = resamples - delta - 1 - upper_a
        for j in range(cols):
            col = &m[j, 0]
            total = 0.0
            for s in range(count):
                total += col[s]
            avg[j] = total / count
            lo[j] = _at(col, count, lower_a) + (_at(col, count, lower_a + 1)
                                                 - _at(col, count, lower_a)) * ratio
            hi[j] = _at(col, count, upper_a) + (_at(col, count, upper_a + 1)
                                                 - _at(col, count, upper_a)) * ratio
    return avg_arr, lo_arr, hi_arr


# ---------------------------------------------------------------------------
# Token ids of the summaries
# ---------------------------------------------------------------------------

cdef enum:
    RECENT_SLOTS = 2048     # TokenCorpus's cache of short tokens (a power of two)

# The script's tokens are runs of ASCII letters and digits (lowercased), the
# word characters of classify.h's Latin-1 classification.
cdef uint64_t ONES = ~(<uint64_t>0)

# A raw token whose final id is not known yet: the fill byte 0xFE of grow_array.
cdef int32_t UNRESOLVED = <int32_t>0xFEFEFEFE

def raw_tokens(bytes text not None):
    """The script's tokens of a text before stopwords and stemming: runs of
    ASCII letters and digits, lowercased (see ``_rouge155_py.raw_tokens``).

    >>> raw_tokens(b"Well-known: 4:00pm")
    [b'well', b'known', b'4', b'00pm']
    """
    return text.translate(_FILTER).split()


_FILTER = bytes(c if (97 <= c <= 122 or 48 <= c <= 57) else (c + 32 if 65 <= c <= 90 else 32)
                for c in range(256))


cdef int _read_file(const char* name, unsigned char** buf, Py_ssize_t* cap,
                    Py_ssize_t* size) noexcept nogil:
    """The bytes of the file ``name`` into *buf (grown as needed), their
    count into *size: 0, an errno, or -1 when out of memory."""
    cdef FILE* fp = fopen(name, b"rb")
    cdef size_t got, want
    cdef int err = 0
    if fp == NULL:
        return errno if errno > 0 else 5        # EIO when the C library says nothing
    size[0] = 0
    while True:
        if size[0] == cap[0] and grow_array(<void**>buf, cap, size[0] + 1, 1, -1) < 0:
            err = -1
            break
        want = <size_t>(cap[0] - size[0])
        got = fread(buf[0] + size[0], 1, want, fp)
        size[0] += <Py_ssize_t>got
        if got < want:              # end of file, or an error
            if ferror(fp):
                err = errno if errno > 0 else 5
            break
    fclose(fp)
    return err


cdef int _narrow(const void* data, Py_ssize_t n, int kind,
                 unsigned char* out) noexcept nogil:
    """A 2- or 4-byte str's code points as the tokenizer's bytes: ASCII as
    it is, any other code point 0xFF (each byte of its UTF-8, or the one
    byte surrogateescape writes for U+DC80..U+DCFF, is >= 0x80: a separator,
    as 0xFF is). -1 for a surrogate that surrogateescape cannot write."""
    cdef Py_ssize_t i
    cdef uint32_t u
    for i in range(n):
        u = (<const uint16_t*>data)[i] if kind == 2 else (<const uint32_t*>data)[i]
        if u < 0x80:
            out[i] = <unsigned char>u
        elif 0xD800 <= u <= 0xDFFF and not (0xDC80 <= u <= 0xDCFF):
            return -1
        else:
            out[i] = 0xFF
    return 0


cdef Py_ssize_t _checked(Py_ssize_t result) except -1:
    """result, or MemoryError for the -1 of a tokenizer step."""
    if result < 0:
        raise MemoryError()
    return result


cdef class TokenCorpus:
    """The token ids of every summary of a run, one sequence per sentence
    (see ``_rouge155_py.TokenCorpus``, the specification).

    A token is a run of ASCII letters and digits, lowercased; any other byte
    separates tokens. Raw tokens are interned in C (``_vocab.pxd``'s
    vocabulary) and resolved once per table to their final id: -1 for a
    stopword; in table 1 (stemming), a token longer than 3 characters becomes
    its WordNet base form or else its Porter stem. Final strings are
    interned in a second vocabulary: equal strings, equal ids.

    Tokenizing touches no Python object: ``add_texts`` and ``add_files`` run
    without the GIL, so corpora can be filled on several threads at once
    (one corpus is not for two threads at once) and joined with ``extend``.
    ``empty_copy`` makes a corpus with the same stopwords and exceptions
    without reading them again.
    """
    cdef Vocab raw              # raw tokens
    cdef Vocab exc              # WordNet exception keys
    cdef Vocab excv             # their base forms
    cdef Vocab fin              # final strings
    cdef int32_t* exc_value     # per exception key id: its base form's id in excv
    cdef Py_ssize_t exc_value_cap
    cdef char* stop             # per raw id: 1 for a stopword
    cdef Py_ssize_t stop_cap
    cdef int32_t* final[2]
    cdef Py_ssize_t final_cap[2]
    cdef int32_t* tokens
    cdef Py_ssize_t ntok, tok_cap
    cdef int64_t* starts
    cdef int64_t* ends
    cdef Py_ssize_t nseq, seq_cap
    cdef char* word             # a token being resolved (stemmed in place)
    cdef Py_ssize_t word_cap
    cdef unsigned char* low     # the text being scanned, lowercased, + 8 readable bytes
    cdef Py_ssize_t low_cap
    cdef uint64_t* bits         # its word-character bitmap (+ a zero word), then newlines
    cdef Py_ssize_t bits_cap
    # Per table, recently seen tokens of up to 8 bytes (their zero-padded
    # prefix; 0, which no token has, marks an empty slot) and their final ids.
    cdef uint64_t recent_pre[2][RECENT_SLOTS]
    cdef int32_t recent_id[2][RECENT_SLOTS]

    def __cinit__(self, stopwords=(), exceptions=None):
        cdef bytes w, v
        cdef int32_t g, gv
        if (vocab_init(&self.raw) < 0 or vocab_init(&self.exc) < 0
                or vocab_init(&self.excv) < 0 or vocab_init(&self.fin) < 0):
            raise MemoryError()
        self.word_cap = 64
        self.word = <char*>malloc(self.word_cap)
        if self.word == NULL:
            raise MemoryError()
        for word in stopwords:
            w = bytes(word)
            g = vocab_intern(&self.raw, <const char*>w, len(w))
            if g < 0 or grow_array(<void**>&self.stop, &self.stop_cap, g + 1, 1, 0) < 0:
                raise MemoryError()
            self.stop[g] = 1
        for key, value in (exceptions or {}).items():
            w = key.encode("ascii") if isinstance(key, str) else bytes(key)
            v = value.encode("ascii") if isinstance(value, str) else bytes(value)
            g = vocab_intern(&self.exc, <const char*>w, len(w))
            gv = vocab_intern(&self.excv, <const char*>v, len(v))
            if g < 0 or gv < 0 or grow_array(<void**>&self.exc_value, &self.exc_value_cap,
                                             g + 1, sizeof(int32_t), -1) < 0:
                raise MemoryError()
            self.exc_value[g] = gv

    def empty_copy(self):
        """A new corpus with this one's stopwords and exceptions and no text
        (this one must have none yet): its tables copied in C."""
        if self.nseq or self.ntok or self.fin.n:
            raise ValueError("empty_copy of a corpus that has text")
        cdef TokenCorpus copy = TokenCorpus.__new__(TokenCorpus)   # empty tables
        vocab_free(&copy.raw)
        vocab_free(&copy.exc)
        vocab_free(&copy.excv)
        if (vocab_copy(&copy.raw, &self.raw) < 0 or vocab_copy(&copy.exc, &self.exc) < 0
                or vocab_copy(&copy.excv, &self.excv) < 0
                or grow_array(<void**>&copy.stop, &copy.stop_cap, self.stop_cap, 1, 0) < 0
                or grow_array(<void**>&copy.exc_value, &copy.exc_value_cap,
                              self.exc_value_cap, sizeof(int32_t), -1) < 0):
            raise MemoryError()
        if self.stop_cap:
            memcpy(copy.stop, self.stop, self.stop_cap)
        if self.exc_value_cap:
            memcpy(copy.exc_value, self.exc_value, self.exc_value_cap * sizeof(int32_t))
        return copy

    def __dealloc__(self):
        vocab_free(&self.raw)
        vocab_free(&self.exc)
        vocab_free(&self.excv)
        vocab_free(&self.fin)
        free(self.exc_value)
        free(self.stop)
        free(self.final[0])
        free(self.final[1])
        free(self.tokens)
        free(self.starts)
        free(self.ends)
        free(self.word)
        free(self.low)
        free(self.bits)

    def __len__(self):
        return self.nseq

    def vocab_size(self):
        """How many distinct final strings the summaries have."""
        return self.fin.n

    # Below, -1 (-3 for a token id) means out of memory; nothing touches a
    # Python object.

    cdef int32_t _resolve(self, int table, int32_t g, Py_ssize_t n) noexcept nogil:
        """The final id of raw token g (word[0:n]) under table."""
        cdef int32_t e, f, v
        if g < self.stop_cap and self.stop[g]:
            return -1
        if table == 1 and n > 3:
            e = vocab_find(&self.exc, self.word, n, vocab_hash(self.word, n),
                           vocab_prefix(self.word, n))
            if e >= 0:                     # a WordNet exception: its base form
                v = self.exc_value[e]
                f = vocab_intern(&self.fin, self.excv.pool + self.excv.off[v],
                                 self.excv.size[v])
            else:                          # the Porter stem, in place
                f = vocab_intern(&self.fin, self.word, stem_chars(self.word, n))
        else:
            f = vocab_intern(&self.fin, self.word, n)
        return f if f >= 0 else -3

    cdef inline int32_t _final(self, int table, const unsigned char* w, Py_ssize_t n,
                               uint64_t h, uint64_t pre) noexcept nogil:
        """The final id of the raw token w[0:n] (hash h, first 8 bytes pre)
        under table (-1: dropped)."""
        cdef int32_t g = vocab_find(&self.raw, <const char*>w, n, h, pre)
        cdef int32_t f
        if g < 0:
            g = vocab_intern_hashed(&self.raw, <const char*>w, n, h)
            if g < 0:
                return -3
        if g >= self.final_cap[table] and grow_array(
                <void**>&self.final[table], &self.final_cap[table], g + 1,
                sizeof(int32_t), 0xFE) < 0:
            return -3
        f = self.final[table][g]
        if f == UNRESOLVED:
            if n > self.word_cap and grow_array(<void**>&self.word, &self.word_cap, n, 1,
                                                -1) < 0:
                return -3
            memcpy(self.word, w, n)
            f = self._resolve(table, g, n)
            if f == -3:
                return -3
            self.final[table][g] = f
        return f

    cdef Py_ssize_t _sequence(self, int64_t start, int64_t end) noexcept nogil:
        cdef Py_ssize_t cap = self.seq_cap
        if self.nseq == self.seq_cap:
            if grow_array(<void**>&self.starts, &cap, self.nseq + 1, sizeof(int64_t), -1) < 0:
                return -1
            cap = self.seq_cap
            if grow_array(<void**>&self.ends, &cap, self.nseq + 1, sizeof(int64_t), -1) < 0:
                return -1
            self.seq_cap = cap
        self.starts[self.nseq] = start
        self.ends[self.nseq] = end
        self.nseq += 1
        return self.nseq - 1

    cdef int _classify(self, const unsigned char* s, Py_ssize_t n) noexcept nogil:
        """Classify s[0:n] 16 bytes at a time (``classify.h``): lowercased
        into ``low``, its word characters marked in ``bits``, its newlines in
        ``bits + nw + 1`` (nw = (n + 63) // 64); and room for its tokens (at
        most (n + 1) // 2, plus the slot ``_tokens`` writes past the last)."""
        cdef Py_ssize_t nw = (n + 63) >> 6
        if (grow_array(<void**>&self.low, &self.low_cap, n + 8, 1, -1) < 0
                or grow_array(<void**>&self.bits, &self.bits_cap, 2 * nw + 1,
                              sizeof(uint64_t), -1) < 0
                or grow_array(<void**>&self.tokens, &self.tok_cap,
                              self.ntok + (n + 1) // 2 + 1, sizeof(int32_t), -1) < 0):
            return -1
        memset(self.low + n, 0, 8)
        rk_classify_latin1(s, n, self.low, self.bits, self.bits + nw + 1)
        self.bits[nw] = 0                # a run ends there at the latest
        return 0

    cdef int _tokens(self, Py_ssize_t first, Py_ssize_t last, int table) noexcept nogil:
        """Append the tokens of the classified text that start in
        [first, last), where byte ``last`` is not a word character (or the
        text ends there): each run of marked bits, interned."""
        cdef Py_ssize_t wi = first >> 6, start, end, length, slot
        cdef uint64_t word_bits, h, pre
        cdef const uint64_t* wbits = self.bits
        cdef int32_t t
        if first >= last:
            return 0
        word_bits = wbits[wi] & (ONES << (first & 63))
        while True:
            while word_bits == 0:
                wi += 1
                if (wi << 6) >= last:
                    return 0
                word_bits = wbits[wi]
            start = (wi << 6) + rk_low_bit64(word_bits)
            if start >= last:
                return 0
            # the run ends at the first clear bit after start
            word_bits = ~word_bits & (ONES << (start & 63))
            while word_bits == 0:
                wi += 1
                word_bits = ~wbits[wi]
            end = (wi << 6) + rk_low_bit64(word_bits)
            length = end - start
            pre = rk_load_prefix(self.low + start, length)
            if length <= 8:
                # A token of up to 8 bytes is its zero-padded prefix (tokens
                # have no zero byte): a small direct-mapped cache from it to
                # the final id saves the vocabulary lookups of most tokens.
                h = vocab_hash_finish(RK_HASH_SEED, pre, length)
                slot = <Py_ssize_t>(h >> 40) & (RECENT_SLOTS - 1)
                if self.recent_pre[table][slot] == pre:
                    t = self.recent_id[table][slot]
                else:
                    t = self._final(table, self.low + start, length, h, pre)
                    if t != -3:
                        self.recent_pre[table][slot] = pre
                        self.recent_id[table][slot] = t
            else:
                h = vocab_hash(<const char*>self.low + start, length)
                t = self._final(table, self.low + start, length, h, pre)
            if t == -3:
                return -1
            # Written either way, kept unless dropped (-1): no branch on
            # stopwords. _classify made room for every token and one more.
            self.tokens[self.ntok] = t
            self.ntok += t >= 0
            word_bits = wbits[wi] & (ONES << (end & 63))

    cdef int _scan(self, const unsigned char* s, Py_ssize_t n, int table) noexcept nogil:
        """Append the tokens of s[0:n]."""
        if n == 0:
            return 0
        if self._classify(s, n) < 0:
            return -1
        return self._tokens(0, n, table)

    def extend(self, TokenCorpus other not None):
        """Append ``other``'s tokens and sequences (its final ids translated
        to this corpus's); returns the index here of its sequence 0."""
        if other is self:
            raise ValueError("a corpus cannot extend itself")
        cdef Py_ssize_t first = self.nseq, base = self.ntok, i
        cdef int32_t* ids = NULL
        cdef Py_ssize_t ids_cap = 0
        cdef int err = 0
        with nogil:
            if (grow_array(<void**>&ids, &ids_cap, other.fin.n + 1, sizeof(int32_t), -1) < 0
                    or grow_array(<void**>&self.tokens, &self.tok_cap, base + other.ntok + 1,
                                  sizeof(int32_t), -1) < 0):
                err = -1
            i = 0
            while err == 0 and i < other.fin.n:
                ids[i] = vocab_intern(&self.fin, other.fin.pool + other.fin.off[i],
                                      other.fin.size[i])
                if ids[i] < 0:
                    err = -1
                i += 1
            if err == 0:
                for i in range(other.ntok):
                    self.tokens[base + i] = ids[other.tokens[i]]
                self.ntok = base + other.ntok
                i = 0
                while err == 0 and i < other.nseq:
                    if self._sequence(base + other.starts[i], base + other.ends[i]) < 0:
                        err = -1
                    i += 1
        free(ids)
        if err != 0:
            raise MemoryError()
        return first

    def add_texts(self, texts, int table):
        """``add_text`` of each text, then a sequence spanning its
        sentences: an int64 array of (first, end, span) sequence indices per
        text. A text is bytes, or str: read as its UTF-8 bytes (lone
        surrogates as ``surrogateescape`` writes them) would be, in place and
        without encoding it, since every byte of a non-ASCII character's
        UTF-8 separates tokens as any non-ASCII code point does here. Runs
        without the GIL."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        cdef list held = list(texts)        # keeps every buffer alive below
        cdef Py_ssize_t k, count = len(held), first, bad = -1, narrow_cap = 0
        out = np.empty((count, 3), dtype=np.int64)
        cdef int64_t[:, ::1] o = out
        cdef const void** data = <const void**>malloc((count + 1) * sizeof(void*))
        cdef Py_ssize_t* size = <Py_ssize_t*>malloc((count + 1) * sizeof(Py_ssize_t))
        cdef char* kind = <char*>malloc(count + 1)
        cdef unsigned char* narrow = NULL
        cdef const unsigned char* chars
        cdef int err = 0
        cdef object text
        if data == NULL or size == NULL or kind == NULL:
            free(data)
            free(size)
            free(kind)
            raise MemoryError()
        try:
            for k in range(count):
                text = held[k]
                if type(text) is not str:
                    if isinstance(text, str):
                        text = held[k] = str(text)
                    elif type(text) is not bytes:
                        if not isinstance(text, (bytes, bytearray)):
                            raise TypeError(f"texts[{k}] must be str or bytes, "
                                            f"not {type(text).__name__}")
                        text = held[k] = bytes(text)
                if type(text) is str:
                    data[k] = PyUnicode_DATA(text)
                    size[k] = PyUnicode_GET_LENGTH(text)
                    kind[k] = <char>PyUnicode_KIND(text)
                else:
                    data[k] = <const char*>text
                    size[k] = len(<bytes>text)
                    kind[k] = 1
            with nogil:
                for k in range(count):
                    chars = <const unsigned char*>data[k]
                    if kind[k] != 1:
                        if grow_array(<void**>&narrow, &narrow_cap, size[k] + 1, 1, -1) < 0:
                            err = -1
                            break
                        if _narrow(data[k], size[k], kind[k], narrow) < 0:
                            bad = k
                            break
                        chars = narrow
                    first = self._lines(chars, size[k], table)
                    if first < 0:
                        err = -1
                        break
                    o[k, 0] = first
                    o[k, 1] = self.nseq
                    o[k, 2] = self._span(first, self.nseq)
                    if o[k, 2] < 0:
                        err = -1
                        break
            if bad >= 0:        # a surrogate surrogateescape cannot write: its error
                held[bad].encode("utf-8", "surrogateescape")
                raise ValueError(f"texts[{bad}] cannot be encoded as UTF-8")
        finally:
            free(data)
            free(size)
            free(kind)
            free(narrow)
        if err != 0:
            raise MemoryError()
        return out

    def add_text(self, bytes data not None, int table):
        """One sequence per non-empty line of ``data`` (SPL); returns the
        index of the first."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        return _checked(self._lines(<const unsigned char*><const char*>data, len(data), table))

    def add_file(self, path, int table):
        """``add_text`` of the file at ``path`` (str or bytes), read in C
        (no bytes object per file)."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        if _WINDOWS:            # fopen takes ANSI paths there: let Python open it
            with open(path, "rb") as f:
                data = f.read()
            return self.add_text(data, table)
        cdef bytes name = os.fsencode(path)
        cdef Py_ssize_t size = 0, cap = 65536
        cdef unsigned char* buf = <unsigned char*>malloc(cap)
        cdef int err
        if buf == NULL:
            raise MemoryError()
        try:
            err = _read_file(<const char*>name, &buf, &cap, &size)
            if err == -1:
                raise MemoryError()
            if err != 0:
                raise OSError(err, os.strerror(err), path)
            return _checked(self._lines(buf, size, table))
        finally:
            free(buf)

    def add_files(self, paths, int table):
        """``add_texts`` of the files at ``paths`` (str, bytes or path-like),
        read in C without the GIL (no bytes object per file); a file that
        cannot be read raises ``OSError`` naming it."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        paths = list(paths)
        if _WINDOWS:            # fopen takes ANSI paths there: let Python open them
            texts = []
            for path in paths:
                with open(path, "rb") as f:
                    texts.append(f.read())
            return self.add_texts(texts, table)
        cdef list names = [os.fsencode(path) for path in paths]
        cdef Py_ssize_t k, count = len(names), first, size = 0, cap = 65536, bad = -1
        out = np.empty((count, 3), dtype=np.int64)
        cdef int64_t[:, ::1] o = out
        cdef const char** cnames = <const char**>malloc((count + 1) * sizeof(char*))
        cdef unsigned char* buf = <unsigned char*>malloc(cap)
        cdef int err = 0
        if cnames == NULL or buf == NULL:
            free(cnames)
            free(buf)
            raise MemoryError()
        for k in range(count):
            cnames[k] = <const char*><bytes>names[k]
        with nogil:
            for k in range(count):
                err = _read_file(cnames[k], &buf, &cap, &size)
                if err == 0:
                    first = self._lines(buf, size, table)
                    o[k, 0] = first
                    o[k, 1] = self.nseq
                    o[k, 2] = self._span(first, self.nseq) if first >= 0 else -1
                    if first < 0 or o[k, 2] < 0:
                        err = -1
                if err != 0:
                    bad = k
                    break
        free(cnames)
        free(buf)
        if err == -1:
            raise MemoryError()
        if err != 0:
            raise OSError(err, os.strerror(err), paths[bad])
        return out

    cdef Py_ssize_t _lines(self, const unsigned char* s, Py_ssize_t n, int table) noexcept nogil:
        """One sequence per non-empty line of s[0:n] (lines end at "\\n"; a
        line of bytes without tokens is an empty sequence); returns the index
        of the first. The text is classified once, its lines found in the
        newline bitmap."""
        cdef Py_ssize_t i = 0, j, wi = 0, nw = (n + 63) >> 6
        cdef Py_ssize_t first = self.nseq
        cdef int64_t start
        cdef const uint64_t* nl
        cdef uint64_t nl_bits
        if n == 0:
            return first
        if self._classify(s, n) < 0:
            return -1
        nl = self.bits + nw + 1
        nl_bits = nl[0]
        while i < n:
            while nl_bits == 0 and wi + 1 < nw:
                wi += 1
                nl_bits = nl[wi]
            if nl_bits:
                j = (wi << 6) + rk_low_bit64(nl_bits)
                nl_bits &= nl_bits - 1
            else:
                j = n
            if j > i:
                start = self.ntok
                if self._tokens(i, j, table) < 0 or self._sequence(start, self.ntok) < 0:
                    return -1
            i = j + 1
        return first

    def add_sentences(self, sentences, int table, bint joined=False):
        """One sequence per sentence (bytes), or with ``joined`` one sequence
        of all their tokens; returns the index of the first."""
        if table not in (0, 1):
            raise ValueError("table must be 0 or 1")
        cdef Py_ssize_t first = self.nseq
        cdef int64_t start = self.ntok
        cdef bytes b
        for sentence in sentences:
            b = sentence
            if not joined:
                start = self.ntok
            _checked(self._scan(<const unsigned char*><const char*>b, len(b), table))
            if not joined:
                _checked(self._sequence(start, self.ntok))
        if joined:
            _checked(self._sequence(start, self.ntok))
        return first

    def add_span(self, Py_ssize_t first, Py_ssize_t last):
        """A sequence from the start of sequence ``first`` to the end of
        sequence ``last - 1`` (empty when ``first == last``); returns its index."""
        if not (0 <= first <= last <= self.nseq):
            raise ValueError(f"sequences [{first}, {last}) out of range")
        return _checked(self._span(first, last))

    cdef Py_ssize_t _span(self, Py_ssize_t first, Py_ssize_t last) noexcept nogil:
        if first == last:
            return self._sequence(self.ntok, self.ntok)
        return self._sequence(self.starts[first], self.ends[last - 1])

    def arrays(self):
        """(tokens int32, seq_start int64, seq_end int64) as new numpy arrays."""
        tokens = np.empty(self.ntok, dtype=np.int32)
        starts = np.empty(self.nseq, dtype=np.int64)
        ends = np.empty(self.nseq, dtype=np.int64)
        cdef int32_t[::1] t = tokens
        cdef int64_t[::1] a = starts
        cdef int64_t[::1] b = ends
        if self.ntok:
            memcpy(&t[0], self.tokens, self.ntok * sizeof(int32_t))
        if self.nseq:
            memcpy(&a[0], self.starts, self.nseq * sizeof(int64_t))
            memcpy(&b[0], self.ends, self.nseq * sizeof(int64_t))
        return tokens, starts, ends
