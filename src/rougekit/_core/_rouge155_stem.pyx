# cython: language_level=3
# cython: freethreading_compatible=True
"""The Porter stemmer of ROUGE-1.5.5.pl on a char buffer; ``_rouge155_stem_py``
is the twin and the specification (the script's regular expressions).

The script's regular expressions (``[C](VC){m}[V]`` with
``C = [^aeiou][^aeiouy]*``, ``V = [aeiouy][aeiou]*``) parse a word into one
sequence of runs only, so each test is a scan of that parse (``_measure``,
``_cvc``). ``stem_chars`` (``_rouge155_stem.pxd``) is what the compiled
tokenizer of the summaries (``_rouge155_tokens``) stems with.
"""
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from rougekit._core._rouge155_stem_py import porter_stem as _porter_stem_py

__all__ = ["porter_stem"]

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
    """The script's Porter stemmer (see ``_rouge155_stem_py.porter_stem``).

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
