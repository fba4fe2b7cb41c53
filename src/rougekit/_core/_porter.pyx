# cython: freethreading_compatible=True
"""Compiled Porter stemmer, giving exactly the stems of ``_porter_py``.

rouge-score stems every token with NLTK's ``PorterStemmer``; stemming is a
large share of its running time, so rougekit does it in C.  The C code here
handles the words rouge-score's tokenizer produces -- only ASCII ``a-z`` and
``0-9`` -- on a ``char`` buffer.  Any other word (capitals, other characters,
non-ASCII text, ``str`` subclasses, non-``str`` objects) is passed to the pure
Python :func:`_porter_py.stem`, so the result is always the same as
NLTK's.  The algorithm and its NLTK-specific rules are described in
``_porter_py``; the functions below follow that description step by step.

    >>> stem("generalizations"), stem("Dying")
    ('gener', 'die')
    >>> cache = StemCache()
    >>> cache.stem("running")
    'run'

Memory safety (the module is compiled with boundscheck and wraparound off):
the word buffer holds ``len(word) + 1`` bytes, every write goes through
``_set_tail``/``_chop``, which check the new length against the capacity, and
every read index is checked against the current length where it is computed.
No rule can make a word longer than the input word, so the capacity check
never fails in practice; if it ever did, the pure implementation is used.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, strlen

from rougekit._core._porter_py import IRREGULAR_FORMS as _IRREGULAR_FORMS
from rougekit._core._porter_py import stem as _pure_stem

__all__ = ["StemCache", "stem"]

cdef dict _IRREGULAR = _IRREGULAR_FORMS

# The irregular forms again, as C strings, for stem_ascii (no GIL). The bytes
# objects in _IRREGULAR_BYTES keep the C strings alive.
cdef enum:
    _MAX_IRREGULAR = 32
cdef const char* _IRR_WORD[_MAX_IRREGULAR]
cdef const char* _IRR_STEM[_MAX_IRREGULAR]
cdef Py_ssize_t _N_IRR = 0
cdef list _IRREGULAR_BYTES = []


cdef int _load_irregular() except -1:
    global _N_IRR
    cdef bytes wb, sb
    for w, st in _IRREGULAR_FORMS.items():
        if _N_IRR >= _MAX_IRREGULAR or len(st) > len(w):
            raise RuntimeError("_porter: irregular-forms table does not fit")
        wb, sb = w.encode("ascii"), st.encode("ascii")
        _IRREGULAR_BYTES.append((wb, sb))
        _IRR_WORD[_N_IRR] = wb
        _IRR_STEM[_N_IRR] = sb
        _N_IRR += 1
    return 0


_load_irregular()


cdef struct Word:
    char *s            # s[0:n] is the word being stemmed
    Py_ssize_t n       # current length, always 0 <= n <= cap
    Py_ssize_t cap     # bytes available at s
    bint overflow      # a replacement did not fit (see module docstring)


# --------------------------------------------------------------------------
# Letter classes, measure and the conditions *v*, *d, *o
# (all take a prefix s[0:n] of the word, with 0 <= n <= the word's length)
# --------------------------------------------------------------------------

cdef inline bint _is_vowel(char c) noexcept nogil:
    return c == c'a' or c == c'e' or c == c'i' or c == c'o' or c == c'u'


cdef bint _is_consonant(const char *s, Py_ssize_t i) noexcept nogil:
    """Whether s[i] is a consonant; the caller ensures 0 <= i < length.

    A 'y' is the opposite of the letter before it (a consonant at the start),
    so walk back over a run of 'y' flipping the answer once per 'y'.
    """
    cdef bint flip = False
    while i > 0 and s[i] == c'y':
        flip = not flip
        i -= 1
    return (not _is_vowel(s[i])) != flip


cdef Py_ssize_t _measure(const char *s, Py_ssize_t n) noexcept nogil:
    """m(s[0:n]): how many times a vowel is directly followed by a consonant."""
    cdef Py_ssize_t i
    cdef Py_ssize_t m = 0
    cdef bint consonant
    cdef bint previous = True
    cdef char c
    for i in range(n):
        c = s[i]
        if _is_vowel(c):
            consonant = False
        elif c == c'y':
            consonant = i == 0 or not previous
        else:
            consonant = True
        if consonant and not previous:
            m += 1
        previous = consonant
    return m


cdef bint _contains_vowel(const char *s, Py_ssize_t n) noexcept nogil:
    """Condition *v* on s[0:n].

    Scanning left to right, everything before the first vowel is a
    consonant, so the first vowel is either a, e, i, o, u or a 'y' that is
    not the first letter.
    """
    cdef Py_ssize_t i
    cdef char c
    for i in range(n):
        c = s[i]
        if _is_vowel(c) or (c == c'y' and i > 0):
            return True
    return False


cdef bint _ends_double_consonant(const char *s, Py_ssize_t n) noexcept nogil:
    """Condition *d on s[0:n]."""
    return n >= 2 and s[n - 1] == s[n - 2] and _is_consonant(s, n - 1)


cdef bint _ends_cvc(const char *s, Py_ssize_t n) noexcept nogil:
    """Condition *o on s[0:n], with NLTK's two-letter extension."""
    cdef char last
    if n >= 3:
        last = s[n - 1]
        return (_is_consonant(s, n - 3)
                and not _is_consonant(s, n - 2)
                and _is_consonant(s, n - 1)
                and last != c'w' and last != c'x' and last != c'y')
    if n == 2:
        return not _is_consonant(s, 0) and _is_consonant(s, 1)
    return False


# --------------------------------------------------------------------------
# Editing the word
# --------------------------------------------------------------------------

cdef inline Py_ssize_t _suffix_length(const char *suffix) noexcept nogil:
    cdef Py_ssize_t k = 0
    while suffix[k] != 0:
        k += 1
    return k


cdef inline bint _ends(const Word *w, const char *suffix) noexcept nogil:
    """Whether the word ends with ``suffix`` (a byte loop: suffixes are short)."""
    cdef Py_ssize_t k = _suffix_length(suffix)
    cdef Py_ssize_t i
    cdef const char *tail
    if k > w.n:
        return False
    tail = w.s + (w.n - k)
    for i in range(k):
        if tail[i] != suffix[i]:
            return False
    return True


cdef inline void _chop(Word *w, Py_ssize_t k) noexcept nogil:
    """Remove the last k letters."""
    if 0 <= k <= w.n:
        w.n -= k
    else:
        w.overflow = True


cdef void _set_tail(Word *w, Py_ssize_t keep, const char *replacement) noexcept nogil:
    """Make the word s[0:keep] + replacement."""
    cdef Py_ssize_t r = _suffix_length(replacement)
    if keep < 0 or keep > w.n or r > w.cap - keep:
        w.overflow = True
        return
    memcpy(w.s + keep, replacement, <size_t>r)
    w.n = keep + r


cdef bint _rule(Word *w, const char *suffix, const char *replacement,
                Py_ssize_t min_measure) noexcept nogil:
    """One rule of a step: returns whether ``suffix`` ends the word.

    If it does, the suffix is replaced when m(stem) > min_measure; either way
    the step then stops (the caller chains rules with ``or``).
    """
    cdef Py_ssize_t keep
    if not _ends(w, suffix):
        return False
    keep = w.n - _suffix_length(suffix)
    if _measure(w.s, keep) > min_measure:
        _set_tail(w, keep, replacement)
    return True


cdef inline char _last(const Word *w) noexcept nogil:
    """The last letter, or NUL for the empty word."""
    return w.s[w.n - 1] if w.n > 0 else 0


# --------------------------------------------------------------------------
# The steps
#
# Steps 2 to 4 try their rules in the order of ``_porter_py`` but first
# pick out, by the word's last letter, the only rules that could match:
# rules ending in another letter cannot be the first match, so the result is
# the same and most memcmp calls are skipped.
# --------------------------------------------------------------------------

cdef void _step1a(Word *w) noexcept nogil:
    if w.n == 4 and _ends(w, b"ies"):
        _chop(w, 1)                          # "ties" -> "tie"
    elif _ends(w, b"sses") or _ends(w, b"ies"):
        _chop(w, 2)                          # "caresses" -> "caress"
    elif _ends(w, b"ss"):
        pass
    elif _ends(w, b"s"):
        _chop(w, 1)                          # "cats" -> "cat"


cdef void _step1b(Word *w) noexcept nogil:
    cdef char last
    if _ends(w, b"ied"):
        if w.n == 4:
            _set_tail(w, w.n - 3, b"ie")     # "died" -> "die"
        else:
            _set_tail(w, w.n - 3, b"i")      # "spied" -> "spi"
        return
    if _ends(w, b"eed"):
        if _measure(w.s, w.n - 3) > 0:
            _chop(w, 1)                      # "agreed" -> "agree"
        return
    if _ends(w, b"ed") and _contains_vowel(w.s, w.n - 2):
        _chop(w, 2)
    elif _ends(w, b"ing") and _contains_vowel(w.s, w.n - 3):
        _chop(w, 3)
    else:
        return
    # "ed" or "ing" was removed; tidy up what is left.  (NLTK's literal "*d"
    # suffix quirk needs a '*', which never reaches this code.)
    if _ends(w, b"at") or _ends(w, b"bl") or _ends(w, b"iz"):
        _set_tail(w, w.n, b"e")              # "conflat" -> "conflate"
    elif _ends_double_consonant(w.s, w.n):
        last = w.s[w.n - 1]
        if last != c'l' and last != c's' and last != c'z':
            _chop(w, 1)                      # "hopp" -> "hop"
    elif _measure(w.s, w.n) == 1 and _ends_cvc(w.s, w.n):
        _set_tail(w, w.n, b"e")              # "fil" -> "file"


cdef void _step1c(Word *w) noexcept nogil:
    # 'y' -> 'i' after a consonant that is not the first letter.
    if w.n >= 3 and w.s[w.n - 1] == c'y' and _is_consonant(w.s, w.n - 2):
        w.s[w.n - 1] = c'i'


cdef bint _step2(Word *w) noexcept nogil:
    """Returns whether a rule's suffix matched (unused; see _rule)."""
    cdef char last
    if _ends(w, b"alli") and _measure(w.s, w.n - 4) > 0:
        _chop(w, 2)                          # "alli" -> "al", then the rules
    last = _last(w)
    if last == c'l':
        return (_rule(w, b"ational", b"ate", 0)
                or _rule(w, b"tional", b"tion", 0))
    if last == c'i':
        if (_rule(w, b"enci", b"ence", 0)
                or _rule(w, b"anci", b"ance", 0)
                or _rule(w, b"bli", b"ble", 0)
                or _rule(w, b"alli", b"al", 0)
                or _rule(w, b"entli", b"ent", 0)
                or _rule(w, b"eli", b"e", 0)
                or _rule(w, b"ousli", b"ous", 0)
                or _rule(w, b"aliti", b"al", 0)
                or _rule(w, b"iviti", b"ive", 0)
                or _rule(w, b"biliti", b"ble", 0)
                or _rule(w, b"fulli", b"ful", 0)):
            return True
        # "logi" -> "log", measuring the stem with its "l".
        if not _ends(w, b"logi"):
            return False
        if _measure(w.s, w.n - 3) > 0:
            _chop(w, 1)
        return True
    if last == c'r':
        return (_rule(w, b"izer", b"ize", 0)
                or _rule(w, b"ator", b"ate", 0))
    if last == c'n':
        return (_rule(w, b"ization", b"ize", 0)
                or _rule(w, b"ation", b"ate", 0))
    if last == c'm':
        return _rule(w, b"alism", b"al", 0)
    if last == c's':
        return (_rule(w, b"iveness", b"ive", 0)
                or _rule(w, b"fulness", b"ful", 0)
                or _rule(w, b"ousness", b"ous", 0))
    return False


cdef bint _step3(Word *w) noexcept nogil:
    """Returns whether a rule's suffix matched (unused; see _rule)."""
    cdef char last = _last(w)
    if last == c'e':
        return (_rule(w, b"icate", b"ic", 0)
                or _rule(w, b"ative", b"", 0)
                or _rule(w, b"alize", b"al", 0))
    if last == c'i':
        return _rule(w, b"iciti", b"ic", 0)
    if last == c'l':
        return (_rule(w, b"ical", b"ic", 0)
                or _rule(w, b"ful", b"", 0))
    if last == c's':
        return _rule(w, b"ness", b"", 0)
    return False


cdef bint _step4(Word *w) noexcept nogil:
    """Returns whether a rule's suffix matched (unused; see _rule)."""
    cdef Py_ssize_t keep
    cdef char before
    cdef char last = _last(w)
    if last == c'l':
        return _rule(w, b"al", b"", 1)
    if last == c'e':
        return (_rule(w, b"ance", b"", 1)
                or _rule(w, b"ence", b"", 1)
                or _rule(w, b"able", b"", 1)
                or _rule(w, b"ible", b"", 1)
                or _rule(w, b"ate", b"", 1)
                or _rule(w, b"ive", b"", 1)
                or _rule(w, b"ize", b"", 1))
    if last == c'r':
        return _rule(w, b"er", b"", 1)
    if last == c'c':
        return _rule(w, b"ic", b"", 1)
    if last == c't':
        return (_rule(w, b"ant", b"", 1)
                or _rule(w, b"ement", b"", 1)
                or _rule(w, b"ment", b"", 1)
                or _rule(w, b"ent", b"", 1))
    if last == c'n':
        if not _ends(w, b"ion"):
            return False
        # "ion" is removed only after 's' or 't'.
        keep = w.n - 3
        if keep > 0 and _measure(w.s, keep) > 1:
            before = w.s[keep - 1]
            if before == c's' or before == c't':
                _chop(w, 3)
        return True
    if last == c'u':
        return _rule(w, b"ou", b"", 1)
    if last == c'm':
        return _rule(w, b"ism", b"", 1)
    if last == c'i':
        return _rule(w, b"iti", b"", 1)
    if last == c's':
        return _rule(w, b"ous", b"", 1)
    return False


cdef void _step5a(Word *w) noexcept nogil:
    cdef Py_ssize_t m
    if _ends(w, b"e"):
        m = _measure(w.s, w.n - 1)
        if m > 1 or (m == 1 and not _ends_cvc(w.s, w.n - 1)):
            _chop(w, 1)                      # "probate" -> "probat"


cdef void _step5b(Word *w) noexcept nogil:
    if _ends(w, b"ll") and _measure(w.s, w.n - 1) > 1:
        _chop(w, 1)                          # "controll" -> "control"


# --------------------------------------------------------------------------
# Python entry points
# --------------------------------------------------------------------------

cdef inline bint _is_plain(Py_UCS4 ch) noexcept nogil:
    """ASCII a-z or 0-9: the only characters the C path handles."""
    return (u'a' <= ch <= u'z') or (u'0' <= ch <= u'9')


cdef Py_ssize_t stem_ascii(char* s, Py_ssize_t n, Py_ssize_t cap) noexcept nogil:
    """Stem s[0:n] in place; s holds only ASCII a-z and 0-9 and has room for
    cap >= n bytes. Returns the stem's length, or -1 if a rule could not
    write its replacement (never expected; the caller then falls back to the
    pure implementation)."""
    cdef Py_ssize_t k, m
    cdef Word w
    for k in range(_N_IRR):
        m = <Py_ssize_t>strlen(_IRR_WORD[k])
        if m == n and memcmp(s, _IRR_WORD[k], <size_t>n) == 0:
            m = <Py_ssize_t>strlen(_IRR_STEM[k])
            memcpy(s, _IRR_STEM[k], <size_t>m)   # stems are never longer
            return m
    if n <= 2:
        return n
    w.s = s
    w.n = n
    w.cap = cap
    w.overflow = False
    _step1a(&w)
    _step1b(&w)
    _step1c(&w)
    _step2(&w)
    _step3(&w)
    _step4(&w)
    _step5a(&w)
    _step5b(&w)
    if w.overflow:
        return -1
    return w.n


cdef str _stem_str(str word):
    """Stem an exact ``str``."""
    cdef Py_ssize_t n = len(word)
    cdef Py_ssize_t i
    cdef Py_UCS4 ch
    cdef Word w

    w.s = <char *>malloc(<size_t>n + 1)
    if w.s == NULL:
        raise MemoryError()
    try:
        i = 0
        for ch in word:
            if not _is_plain(ch) or i >= n:
                return _pure_stem(word)
            w.s[i] = <char>ch
            i += 1
        # Lowercase ASCII already equals word.lower().
        i = stem_ascii(w.s, n, n + 1)
        if i < 0:
            return _pure_stem(word)
        return w.s[:i].decode("ascii")
    finally:
        free(w.s)


cdef object _stem_any(object word):
    if type(word) is str:
        return _stem_str(<str>word)
    return _pure_stem(word)


def stem(word):
    """Stem ``word`` exactly as NLTK's default ``PorterStemmer().stem`` does.

        >>> stem("connections")
        'connect'
    """
    return _stem_any(word)


cdef class StemCache:
    """A memo of stems: a corpus has far fewer distinct words than tokens.

        >>> cache = StemCache()
        >>> cache.stem("hopping"), cache.stem("hopping"), len(cache)
        ('hop', 'hop', 1)

    One instance may be shared by many threads.  The cache is a ``dict``
    keyed by exact ``str``: a lookup (``dict.get``) and a store
    (``d[word] = stem``) are each a single atomic dict operation -- under the
    GIL because hashing and comparing exact ``str`` objects runs no Python code
    and cannot release it, and on free-threaded builds because every dict
    operation takes the dict's own lock.  There is deliberately no
    check-then-act invariant between the two: if two threads miss on the same
    word at once, both compute the stem, which depends on the word alone, so
    both store and return equal values and the second store merely replaces
    an equal value.  A reader therefore sees either no entry or a complete,
    correct one.  Words that are not exact ``str`` are stemmed without being
    cached.  The cache is unbounded; ``clear()`` empties it.  A cache pickles
    (and copies) as a new, empty one of the kernel in use
    (``rougekit._backend`` registers how).
    """

    cdef dict _stems

    def __cinit__(self):
        self._stems = {}

    def stem(self, word):
        """Stem ``word`` (same result as :func:`stem`), memoised."""
        if type(word) is not str:
            return _pure_stem(word)
        cached = self._stems.get(word)
        if cached is not None:
            return cached
        result = _stem_str(<str>word)
        self._stems[word] = result
        return result

    def __len__(self):
        return len(self._stems)

    def __bool__(self):
        # rouge-score's tokenize() tests ``if stemmer:``; an empty cache must
        # still count as a stemmer.
        return True

    def clear(self):
        """Forget every memoised stem."""
        self._stems.clear()
