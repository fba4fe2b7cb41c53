"""nltk's Punkt sentence splitting (``PunktSentenceTokenizer.span_tokenize``)
with a model's parameters, without a token object or a regular expression
per token: the pure-Python twin of ``_punkt``.

The steps are nltk's (``nltk/tokenize/punkt.py``), each written as a scan of
the text's characters:

1. Candidate ends (``period_context_re``): a ``.``, ``?`` or ``!`` followed
   by a character of ``NON_WORD``, or by whitespace and a token.
2. Each candidate's context (``_match_potential_end_contexts``): the word
   before it (back to the last ASCII whitespace, merged with the previous
   candidate's word when none), the mark, and what follows it; a candidate
   whose word overlaps the next one's is dropped.
3. The context's tokens (``word_tokenize``, line by line) annotated by the
   first pass (the type of each token) and the second (collocations, the
   orthographic heuristic, frequent sentence starters, initials and
   numbers). A break on any token but the last splits the text there.
4. Closing quotes and brackets after a break join the sentence before
   (``_realign_boundaries``).

Whitespace is the regular-expression module's ``\\s`` (``WHITESPACE``, which
nltk's patterns use), except where nltk uses ``string.whitespace`` or
``str.strip``; a letter or digit outside ASCII is classified by ``regex``
itself (nltk's engine), so the splitting is nltk's for every ``str``.

The work is linear in the text's length: each decided context
(``end_contexts`` gives them) is tokenized once, the words before the marks
do not overlap, and the rest of a context is the token after its mark, so
the contexts cover the text at most three times over.

>>> text = "Mr. Smith arrived. He sat down."
>>> [text[s:e] for s, e in sentence_spans(text, {"mr"}, set(), set(), {})]
['Mr. Smith arrived.', 'He sat down.']
>>> words("Hello, world... (ok) U.S. -- fine.")
['Hello', ',', 'world', '...', '(', 'ok', ')', 'U.S.', '--', 'fine.']
"""
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["WHITESPACE", "NON_WORD", "NOT_WORD_START", "CLOSING", "sentence_spans",
           "end_contexts", "words"]

#: The regular-expression module's ``\s`` (Unicode White_Space).
WHITESPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
                       "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
#: ``string.whitespace``: where nltk looks for the start of the word before an end.
ASCII_WHITESPACE = frozenset(" \t\n\r\x0b\x0c")
#: Characters that cannot appear within words (``_re_non_word_chars``).
NON_WORD = frozenset(")\";}]*:@'({[\u2018\u2019\u201c\u201d\xab\xbb?!")
#: Characters no word token starts with (``_re_word_start`` excludes them).
NOT_WORD_START = frozenset("(\"`{[:;&#*@)}]-,")
#: Closing punctuation moved onto the sentence before (``re_boundary_realignment``).
CLOSING = frozenset("\"')]}\u2018\u2019\u201c\u201d\xab\xbb")
SENTENCE_ENDS = (".", "?", "!")
_END_MARK = re.compile(r"[.?!]")
#: Tokens no sentence starts with (``PunktSentenceTokenizer.PUNCTUATION``).
PUNCTUATION = (";", ":", ",", ".", "!", "?")

# Orthographic contexts (nltk's _ORTHO_* flags).
ORTHO_BEG_UC, ORTHO_MID_UC, ORTHO_UNK_UC = 1 << 1, 1 << 2, 1 << 3
ORTHO_BEG_LC, ORTHO_MID_LC, ORTHO_UNK_LC = 1 << 4, 1 << 5, 1 << 6
ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC
ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC

NUMBER = "##number##"

_classes: Dict[str, Callable[[str], Any]] = {}


def _regex_class(name: str) -> Callable[[str], Any]:
    """``regex``'s ``\\d`` or ``[^\\W\\d]`` (its match function), compiled once:
    nltk's own engine classifies what is not ASCII."""
    if not _classes:
        import regex
        _classes["digit"] = regex.compile(r"\d").match
        _classes["letter"] = regex.compile(r"[^\W\d]").match
    return _classes[name]


def _is_digit(c: str) -> bool:
    if c < "\x80":
        return "0" <= c <= "9"
    return _regex_class("digit")(c) is not None


def _is_letter(c: str) -> bool:
    """``[^\\W\\d]``: a word character that is not a digit."""
    if c < "\x80":
        return c.isalpha() or c == "_"
    return _regex_class("letter")(c) is not None


def _token_type(tok: str) -> str:
    """``PunktToken.type``: the lowercased token, or ``NUMBER`` when it is
    all of ``-?[.,]?\\d[\\d,.-]*\\.?``."""
    low = tok.lower()
    n, i = len(low), 0
    if i < n and low[i] == "-":
        i += 1
    if i < n and low[i] in ".,":
        i += 1
    if i >= n or not _is_digit(low[i]):
        return low
    i += 1
    while i < n and (low[i] in ",.-" or _is_digit(low[i])):
        i += 1
    if i == n or (i == n - 1 and low[i] == "."):
        return NUMBER
    return low


def _without_period(typ: str) -> str:
    return typ[:-1] if len(typ) > 1 and typ[-1] == "." else typ


def _multi_char_end(s: str, p: int, end: int) -> int:
    """The end of ``-{2,}``, ``\\.{2,}`` or ``(\\.\\s){2,}\\.`` at ``p`` (the
    first that matches, as the regex tries them), or -1."""
    c = s[p]
    q = p
    if c == "-":
        while q < end and s[q] == "-":
            q += 1
        return q if q - p >= 2 else -1
    if c != ".":
        return -1
    if p + 1 < end and s[p + 1] == ".":
        while q < end and s[q] == ".":
            q += 1
        return q
    reps = 0
    while q + 1 < end and s[q] == "." and s[q + 1] in WHITESPACE:
        q += 2
        reps += 1
    if reps >= 2 and q < end and s[q] == ".":
        return q + 1
    if reps >= 3:       # one repetition fewer, then its "."
        return q - 1
    return -1


def _word_ends_at(s: str, e: int, end: int) -> bool:
    """The look-ahead that ends a word token before ``e``."""
    if e >= end:
        return True
    c = s[e]
    if c in WHITESPACE or c in NON_WORD or _multi_char_end(s, e, end) >= 0:
        return True
    if c != ",":
        return False
    f = e + 1
    return (f >= end or s[f] in WHITESPACE or s[f] in NON_WORD
            or _multi_char_end(s, f, end) >= 0)


def _line_tokens(s: str, start: int, end: int, out: List[str]) -> None:
    """``PunktLanguageVars.word_tokenize`` of ``s[start:end]`` (one line),
    appended to ``out``."""
    p = start
    while p < end:
        c = s[p]
        if c in WHITESPACE:
            p += 1
            continue
        q = _multi_char_end(s, p, end)
        if q < 0:
            q = p + 1
            if c not in NOT_WORD_START:
                while not _word_ends_at(s, q, end):
                    q += 1
        out.append(s[p:q])
        p = q


def words(line: str) -> List[str]:
    """nltk's Punkt word tokens of one line (``PunktLanguageVars.word_tokenize``)."""
    out: List[str] = []
    _line_tokens(line, 0, len(line), out)
    return out


def _context_tokens(s: str, start: int, end: int) -> List[str]:
    """The tokens of ``s[start:end]``: its lines' tokens, blank lines skipped
    (``_tokenize_words``)."""
    out: List[str] = []
    a = start
    while a <= end:
        b = s.find("\n", a, end)
        if b < 0:
            b = end
        if s[a:b].strip():
            _line_tokens(s, a, b, out)
        a = b + 1
    return out


class _Model:
    __slots__ = ("abbrev_types", "collocations", "sent_starters", "ortho_context")

    def __init__(self, abbrev_types: Any, collocations: Any, sent_starters: Any,
                 ortho_context: Any) -> None:
        self.abbrev_types = abbrev_types
        self.collocations = collocations
        self.sent_starters = sent_starters
        self.ortho_context = ortho_context

    def first_pass(self, tok: str) -> int:
        """0: nothing; 1: a break; 2: an abbreviation; 3: an ellipsis."""
        if tok in SENTENCE_ENDS:
            return 1
        if len(tok) >= 2 and tok.strip(".") == "":
            return 3
        if tok[-1] == "." and not tok.endswith(".."):
            low = tok[:-1].lower()
            if low in self.abbrev_types or low.rpartition("-")[2] in self.abbrev_types:
                return 2
            return 1
        return 0

    def ortho_heuristic(self, tok: str, typ: str) -> Any:
        """True, False or "unknown": whether ``tok`` (of type ``typ`` without
        its sentence period) starts a sentence."""
        if tok in PUNCTUATION:
            return False
        context = self.ortho_context.get(typ, 0)
        first = tok[0]
        if first.isupper() and (context & ORTHO_LC) and not (context & ORTHO_MID_UC):
            return True
        if first.islower() and ((context & ORTHO_UC) or not (context & ORTHO_BEG_LC)):
            return False
        return "unknown"

    def breaks(self, tok: str, mark: int, following: str, following_mark: int) -> bool:
        """The second pass: whether ``tok`` (first-pass ``mark``) ends a
        sentence, given the token after it."""
        if tok[-1] != ".":
            return mark == 1
        typ = _without_period(_token_type(tok))
        next_typ = _token_type(following)
        if following_mark == 1:
            next_typ = _without_period(next_typ)
        initial = len(tok) == 2 and _is_letter(tok[0])
        if (typ, next_typ) in self.collocations:
            return False
        if mark >= 2 and not initial:
            starts = self.ortho_heuristic(following, next_typ)
            if starts is True:
                return True
            if following[0].isupper() and next_typ in self.sent_starters:
                return True
        if initial or typ == NUMBER:
            starts = self.ortho_heuristic(following, next_typ)
            if starts is False:
                return False
            if (starts == "unknown" and initial and following[0].isupper()
                    and not (self.ortho_context.get(next_typ, 0) & ORTHO_LC)):
                return False
        return mark == 1

    def contains_break(self, s: str, start: int, end: int) -> bool:
        """``text_contains_sentbreak(s[start:end])``: a break on a token that
        is not the last."""
        toks = _context_tokens(s, start, end)
        if len(toks) < 2:
            return False
        marks = [self.first_pass(t) for t in toks]
        for i in range(len(toks) - 1):
            if self.breaks(toks[i], marks[i], toks[i + 1], marks[i + 1]):
                return True
        return False


def end_contexts(text: str) -> List[Tuple[int, int, int, int]]:
    """The candidate ends nltk decides (``_match_potential_end_contexts``):
    for each, the mark's position, its context ``text[start:end]`` and where
    the next token starts (-1 when a punctuation mark follows the end)."""
    n = len(text)
    out = []
    prev: Optional[Tuple[int, int, int, int]] = None
    word_start = word_stop = 0
    for mark in _END_MARK.finditer(text, 0, n - 1):
        i = mark.start()
        c = text[i + 1]
        if c in NON_WORD:
            after_end, next_start = i + 2, -1
        elif c in WHITESPACE:
            j = i + 2
            while j < n and text[j] in WHITESPACE:
                j += 1
            if j == n:
                continue
            k = j + 1
            while k < n and text[k] not in WHITESPACE:
                k += 1
            after_end, next_start = k, j
        else:
            continue
        # the word before: after the last ASCII whitespace since the previous
        # end (one at the very start of that stretch does not count, as in nltk)
        j = i - 1
        while j >= word_stop and text[j] not in ASCII_WHITESPACE:
            j -= 1
        start = j + 1 if j > word_stop else word_start
        if prev is not None and word_stop <= start:
            out.append(prev)
        prev = (i, start, after_end, next_start)
        word_start, word_stop = start, i
    if prev is not None:
        out.append(prev)
    return out


def _closing_run(text: str, start: int, stop: int) -> Tuple[int, int]:
    """``re_boundary_realignment.match(text[start:stop])``: the length of the
    closing punctuation it moves and of the whole match, or (0, 0)."""
    k = start
    while k < stop and text[k] in CLOSING:
        k += 1      # the shortest run of closing marks followed by whitespace, "--" or the end
        if k < stop and text[k] in WHITESPACE:
            end = k + 1
            while end < stop and text[end] in WHITESPACE:
                end += 1
            return k - start, end - start
        if k == stop or text.startswith("--", k, stop):
            return k - start, k - start
    return 0, 0


def sentence_spans(text: str, abbrev_types: Any, collocations: Any, sent_starters: Any,
                   ortho_context: Any) -> List[Tuple[int, int]]:
    """The (start, end) of each sentence of ``text``: nltk's
    ``PunktSentenceTokenizer.span_tokenize(text)`` for a model with these
    parameters (``PunktParameters``' sets and ``ortho_context`` mapping)."""
    if type(text) is not str:
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    model = _Model(abbrev_types, collocations, sent_starters, ortho_context)
    slices = []
    last_break = 0
    for i, start, end, next_start in end_contexts(text):
        if model.contains_break(text, start, end):
            slices.append((last_break, i + 1))
            last_break = next_start if next_start >= 0 else i + 1
    slices.append((last_break, len(text.rstrip())))
    out = []
    realign = 0
    last = len(slices) - 1
    for k, (start, stop) in enumerate(slices):
        start += realign
        if k < last:
            next_start, next_stop = slices[k + 1]
            moved, realign = _closing_run(text, next_start, next_stop)
            if moved:
                out.append((start, next_start + moved))
                continue
        if start < stop:
            out.append((start, stop))
    return out
