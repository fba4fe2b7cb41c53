# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled Punkt sentence splitting: exactly ``_punkt_py``'s spans.

The same steps as ``_punkt_py`` (where they are described, with nltk's
names), on the text's code points (``Py_UCS4``) instead of Python strings:
the candidate ends, their contexts, the contexts' word tokens and both
annotation passes. A Python string is made only for a token whose type is
looked up in the model (a token ending in "." and the one after it).
Characters outside ASCII are classified as in ``_punkt_py`` (its sets, and
``regex`` for letters and digits).

>>> text = "Mr. Smith arrived. He sat down."
>>> [text[s:e] for s, e in sentence_spans(text, {"mr"}, set(), set(), {})]
['Mr. Smith arrived.', 'He sat down.']

Memory safety (boundscheck and wraparound are off): every read ``s[i]`` is
preceded by a check of ``i`` against the end of the stretch being scanned,
which is never past ``len(s)``.
"""
from rougekit._core._punkt_py import (NUMBER, ORTHO_BEG_LC, ORTHO_LC, ORTHO_MID_UC,
                                      ORTHO_UC, PUNCTUATION)
from rougekit._core._punkt_py import _regex_class

__all__ = ["sentence_spans", "end_contexts", "words"]

cdef int _BEG_LC = ORTHO_BEG_LC
cdef int _LC = ORTHO_LC
cdef int _MID_UC = ORTHO_MID_UC
cdef int _UC = ORTHO_UC
cdef str _NUMBER = NUMBER
cdef tuple _PUNCTUATION = PUNCTUATION

# first-pass marks
cdef enum:
    NONE = 0
    BREAK = 1
    ABBREVIATION = 2
    ELLIPSIS = 3


cdef inline bint is_space(Py_UCS4 c) noexcept:
    """The regular-expression module's ``\\s`` (``_punkt_py.WHITESPACE``)."""
    if c < 0x80:
        return c == 0x20 or 0x09 <= c <= 0x0d
    return (c == 0x85 or c == 0xa0 or c == 0x1680 or 0x2000 <= c <= 0x200a
            or c == 0x2028 or c == 0x2029 or c == 0x202f or c == 0x205f or c == 0x3000)


cdef inline bint is_ascii_space(Py_UCS4 c) noexcept:
    return c == 0x20 or 0x09 <= c <= 0x0d


cdef inline bint is_non_word(Py_UCS4 c) noexcept:
    """``_punkt_py.NON_WORD``."""
    if c < 0x80:
        return (c == u')' or c == u'"' or c == u';' or c == u'}' or c == u']' or c == u'*'
                or c == u':' or c == u'@' or c == u"'" or c == u'(' or c == u'{'
                or c == u'[' or c == u'?' or c == u'!')
    return c == 0x2018 or c == 0x2019 or c == 0x201c or c == 0x201d or c == 0xab or c == 0xbb


cdef inline bint is_not_word_start(Py_UCS4 c) noexcept:
    """``_punkt_py.NOT_WORD_START``."""
    return (c == u'(' or c == u'"' or c == u'`' or c == u'{' or c == u'[' or c == u':'
            or c == u';' or c == u'&' or c == u'#' or c == u'*' or c == u'@' or c == u')'
            or c == u'}' or c == u']' or c == u'-' or c == u',')


cdef inline bint is_closing(Py_UCS4 c) noexcept:
    """``_punkt_py.CLOSING``."""
    return (c == u'"' or c == u"'" or c == u')' or c == u']' or c == u'}' or c == 0x2018
            or c == 0x2019 or c == 0x201c or c == 0x201d or c == 0xab or c == 0xbb)


cdef inline bint is_end_mark(Py_UCS4 c) noexcept:
    return c == u'.' or c == u'?' or c == u'!'


cdef bint is_digit(Py_UCS4 c):
    if c < 0x80:
        return u'0' <= c <= u'9'
    return _regex_class("digit")(chr(c)) is not None


cdef bint is_letter(Py_UCS4 c):
    """``[^\\W\\d]``."""
    if c < 0x80:
        return u'a' <= c <= u'z' or u'A' <= c <= u'Z' or c == u'_'
    return _regex_class("letter")(chr(c)) is not None


cdef str token_type(str tok):
    """``_punkt_py._token_type``."""
    cdef str low = tok.lower()
    cdef Py_ssize_t n = len(low), i = 0
    if i < n and low[i] == u'-':
        i += 1
    if i < n and (low[i] == u'.' or low[i] == u','):
        i += 1
    if i >= n or not is_digit(low[i]):
        return low
    i += 1
    while i < n and (low[i] == u',' or low[i] == u'.' or low[i] == u'-' or is_digit(low[i])):
        i += 1
    return _NUMBER if i == n else low


cdef inline str without_period(str typ):
    cdef Py_ssize_t n = len(typ)
    if n > 1 and typ[n - 1] == u'.':
        return typ[:n - 1]
    return typ


cdef Py_ssize_t multi_char_end(str s, Py_ssize_t p, Py_ssize_t end):
    """``_punkt_py._multi_char_end`` (``p < end``)."""
    cdef Py_UCS4 c = s[p]
    cdef Py_ssize_t q = p, reps = 0
    if c == u'-':
        while q < end and s[q] == u'-':
            q += 1
        return q if q - p >= 2 else -1
    if c != u'.':
        return -1
    if p + 1 < end and s[p + 1] == u'.':
        while q < end and s[q] == u'.':
            q += 1
        return q
    while q + 1 < end and s[q] == u'.' and is_space(s[q + 1]):
        q += 2
        reps += 1
    if reps >= 2 and q < end and s[q] == u'.':
        return q + 1
    if reps >= 3:
        return q - 1
    return -1


cdef bint word_ends_at(str s, Py_ssize_t e, Py_ssize_t end):
    cdef Py_UCS4 c
    cdef Py_ssize_t f
    if e >= end:
        return True
    c = s[e]
    if is_space(c) or is_non_word(c):
        return True
    if (c == u'-' or c == u'.') and multi_char_end(s, e, end) >= 0:
        return True
    if c != u',':
        return False
    f = e + 1
    if f >= end:
        return True
    c = s[f]
    return (is_space(c) or is_non_word(c)
            or ((c == u'-' or c == u'.') and multi_char_end(s, f, end) >= 0))


cdef Py_ssize_t token_end(str s, Py_ssize_t p, Py_ssize_t end):
    """The end of the word token starting at ``p`` (not whitespace, ``p < end``)."""
    cdef Py_ssize_t q = multi_char_end(s, p, end)
    if q >= 0:
        return q
    q = p + 1
    if not is_not_word_start(s[p]):
        while not word_ends_at(s, q, end):
            q += 1
    return q


cdef void line_token_spans(str s, Py_ssize_t start, Py_ssize_t end, list out):
    cdef Py_ssize_t p = start, q
    while p < end:
        if is_space(s[p]):
            p += 1
            continue
        q = token_end(s, p, end)
        out.append((p, q))
        p = q


def words(str line):
    """nltk's Punkt word tokens of one line (``PunktLanguageVars.word_tokenize``)."""
    cdef list spans = []
    line_token_spans(line, 0, len(line), spans)
    return [line[a:b] for a, b in spans]


cdef list context_token_spans(str s, Py_ssize_t start, Py_ssize_t end):
    """``_punkt_py._context_tokens``, as spans of ``s``."""
    cdef list out = []
    cdef Py_ssize_t a = start, b
    while a <= end:
        b = s.find(u"\n", a, end)
        if b < 0:
            b = end
        if s[a:b].strip():
            line_token_spans(s, a, b, out)
        a = b + 1
    return out


cdef class _Model:
    cdef object abbrev_types, collocations, sent_starters, ortho_context

    def __init__(self, abbrev_types, collocations, sent_starters, ortho_context):
        self.abbrev_types = abbrev_types
        self.collocations = collocations
        self.sent_starters = sent_starters
        self.ortho_context = ortho_context

    cdef int first_pass(self, str s, Py_ssize_t a, Py_ssize_t b) except -1:
        """``_punkt_py._Model.first_pass`` of the token ``s[a:b]``."""
        cdef Py_ssize_t i
        cdef str low
        if s[b - 1] != u'.':
            if b - a == 1 and (s[a] == u'?' or s[a] == u'!'):
                return BREAK
            return NONE
        if b - a == 1:
            return BREAK
        if s[b - 2] == u'.':       # ends with "..": an ellipsis if all dots
            for i in range(a, b - 2):
                if s[i] != u'.':
                    return NONE
            return ELLIPSIS
        low = s[a:b - 1].lower()
        if low in self.abbrev_types or low.rpartition(u"-")[2] in self.abbrev_types:
            return ABBREVIATION
        return BREAK

    cdef object ortho_heuristic(self, str tok, str typ):
        cdef int context
        cdef Py_UCS4 first
        if tok in _PUNCTUATION:
            return False
        context = self.ortho_context.get(typ, 0)
        first = tok[0]
        if first.isupper() and (context & _LC) and not (context & _MID_UC):
            return True
        if first.islower() and ((context & _UC) or not (context & _BEG_LC)):
            return False
        return "unknown"

    cdef bint breaks(self, str s, Py_ssize_t a, Py_ssize_t b, int mark,
                     Py_ssize_t c, Py_ssize_t d, int following_mark) except -1:
        """``_punkt_py._Model.breaks`` for the tokens ``s[a:b]`` and ``s[c:d]``."""
        cdef str tok, following, typ, next_typ
        cdef bint initial
        cdef object starts
        if s[b - 1] != u'.':
            return mark == BREAK
        tok = s[a:b]
        following = s[c:d]
        typ = without_period(token_type(tok))
        next_typ = token_type(following)
        if following_mark == BREAK:
            next_typ = without_period(next_typ)
        initial = b - a == 2 and is_letter(s[a])
        if (typ, next_typ) in self.collocations:
            return False
        if mark >= ABBREVIATION and not initial:
            starts = self.ortho_heuristic(following, next_typ)
            if starts is True:
                return True
            if following[0].isupper() and next_typ in self.sent_starters:
                return True
        if initial or typ == _NUMBER:
            starts = self.ortho_heuristic(following, next_typ)
            if starts is False:
                return False
            if (starts == "unknown" and initial and following[0].isupper()
                    and not (<int>self.ortho_context.get(next_typ, 0) & _LC)):
                return False
        return mark == BREAK

    cdef bint contains_break(self, str s, Py_ssize_t start, Py_ssize_t end) except -1:
        cdef list spans = context_token_spans(s, start, end)
        cdef Py_ssize_t n = len(spans), i, a, b, c, d
        cdef int mark, following_mark
        if n < 2:
            return False
        a, b = spans[0]
        mark = self.first_pass(s, a, b)
        for i in range(1, n):
            c, d = spans[i]
            following_mark = self.first_pass(s, c, d)
            if self.breaks(s, a, b, mark, c, d, following_mark):
                return True
            a, b, mark = c, d, following_mark
        return False


cdef list candidate_contexts(str s):
    """``_punkt_py.end_contexts``."""
    cdef Py_ssize_t n = len(s), i, j, k, after_end, next_start
    cdef Py_ssize_t start, word_start = 0, word_stop = 0
    cdef Py_UCS4 c
    cdef list out = []
    cdef tuple prev = None
    for i in range(n - 1):
        if not is_end_mark(s[i]):
            continue
        c = s[i + 1]
        if is_non_word(c):
            after_end, next_start = i + 2, -1
        elif is_space(c):
            j = i + 2
            while j < n and is_space(s[j]):
                j += 1
            if j == n:
                continue
            k = j + 1
            while k < n and not is_space(s[k]):
                k += 1
            after_end, next_start = k, j
        else:
            continue
        j = i - 1
        while j >= word_stop and not is_ascii_space(s[j]):
            j -= 1
        start = j + 1 if j > word_stop else word_start
        if prev is not None and word_stop <= start:
            out.append(prev)
        prev = (i, start, after_end, next_start)
        word_start, word_stop = start, i
    if prev is not None:
        out.append(prev)
    return out


def end_contexts(str text):
    """The candidate ends nltk decides: ``_punkt_py.end_contexts``."""
    return candidate_contexts(text)


cdef Py_ssize_t closing_run(str text, Py_ssize_t start, Py_ssize_t stop,
                            Py_ssize_t *match_end) noexcept:
    """``_punkt_py._closing_run``: the closing marks' length (0: no match),
    the whole match's in ``match_end``."""
    cdef Py_ssize_t k = start, end
    match_end[0] = 0
    while k < stop and is_closing(text[k]):
        k += 1
        if k < stop and is_space(text[k]):
            end = k + 1
            while end < stop and is_space(text[end]):
                end += 1
            match_end[0] = end - start
            return k - start
        if k == stop or (k + 1 < stop and text[k] == u'-' and text[k + 1] == u'-'):
            match_end[0] = k - start
            return k - start
    return 0


def sentence_spans(text, abbrev_types, collocations, sent_starters, ortho_context):
    """The (start, end) of each sentence of ``text``: ``_punkt_py.sentence_spans``."""
    if type(text) is not str:
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    cdef str s = <str>text
    cdef Py_ssize_t i, start, stop, after_end, next_start, last_break = 0
    cdef Py_ssize_t j, k, moved, realign, last, idx
    cdef _Model model = _Model(abbrev_types, collocations, sent_starters, ortho_context)
    cdef list slices = [], out = []
    for i, start, after_end, next_start in candidate_contexts(s):
        if model.contains_break(s, start, after_end):
            slices.append((last_break, i + 1))
            last_break = next_start if next_start >= 0 else i + 1
    slices.append((last_break, len(s.rstrip())))
    # closing punctuation after a break joins the sentence before
    realign = 0
    last = len(slices) - 1
    for idx in range(last + 1):
        start, stop = slices[idx]
        start += realign
        if idx < last:
            j, k = slices[idx + 1]
            moved = closing_run(s, j, k, &realign)
            if moved:
                out.append((start, j + moved))
                continue
        if start < stop:
            out.append((start, stop))
    return out
