"""Sentence splitting for rougeLsum, and the "one sentence?" check.

rougeLsum (summary-level ROUGE-L) scores sentence by sentence. rouge-score
takes a text's sentences to be its lines ("\\n"), so a summary whose sentences
are not on lines of their own is one sentence, and its rougeLsum silently
equals its rougeL. ``sentence_split`` chooses the rule:

``"newline"``
    the lines (rouge-score's default; empty lines are skipped).
``"nltk"``
    nltk's ``sent_tokenize`` (Punkt) on the whole text: rouge-score's
    ``split_summaries=True``. Needs nltk and its ``punkt_tab`` data.
    ``nltk_sentences`` gives exactly its sentences, computed by rougekit's
    port of Punkt (``_backend.punkt``) with the parameters of nltk's own
    english tokenizer (see there for when it calls nltk instead).
``"sentencex"``
    each line split further by sentencex (Wikimedia's rule-based splitter,
    about 300 languages, no data to download; ``rougekit[sentences]``), with
    the ``lang=`` language's rules (English without ``lang=``). Its sentences
    keep every character of the line, so the tokens are the same as with
    the other rules; only the sentence boundaries differ.
``"period"``
    the pieces between "." (empty pieces dropped): the sentences of
    pltrdy's ``rouge`` package (the ``pltrdy`` flavor).
``"chinese"``
    rouge-chinese's ``cut_sent``: a break after 。！？ or ? (not before a
    closing quote), after six dots or two ellipses, and after an end mark
    followed by a closing quote; then the lines (the ``rouge-chinese``
    flavor).

With ``"newline"``, a scorer that computes rougeLsum looks at the first
``CHECKED_TEXTS`` texts it gets and warns (``SentenceSplitWarning``), once,
if one has no newline but looks like several sentences in its first
``LOOKED_AT_CHARS`` characters (``looks_like_sentences``; a bound, so the
check costs microseconds per text however long the texts are).

>>> split_sentencex("The cat sat. It was happy.\\nA dog barked.", "en")
['The cat sat. ', 'It was happy.', 'A dog barked.']
>>> looks_like_sentences("The cat sat. It was happy.")
True
>>> looks_like_sentences("Dr. Smith arrived.")
False
"""
import importlib.metadata
import re
from typing import Any, List, Optional, Tuple

from rougekit import _backend
from rougekit._spelling import option
from rougekit._warn import SentenceSplitWarning, warn

__all__ = ["SENTENCE_SPLITS", "CHECKED_TEXTS", "LOOKED_AT_CHARS", "check_sentence_split",
           "nltk_sentences", "PORTED_PUNKT_PATTERNS", "split_sentencex", "split_periods",
           "split_chinese", "sentence_split_provenance", "looks_like_sentences",
           "warn_one_sentence"]

SENTENCE_SPLITS = ("newline", "nltk", "sentencex", "period", "chinese")
CHECKED_TEXTS = 1000
LOOKED_AT_CHARS = 2000


def check_sentence_split(value: object, split_summaries: bool = False) -> str:
    """The sentence-split rule: ``value``, or from ``split_summaries`` when
    None; a ValueError names the valid values or the conflict."""
    if value is None:
        return "nltk" if split_summaries else "newline"
    if not isinstance(value, str):
        raise TypeError(f"sentence_split must be str, not {type(value).__name__}")
    if value not in SENTENCE_SPLITS:
        raise ValueError(f"unknown sentence_split {value!r}; valid: "
                         + ", ".join(SENTENCE_SPLITS))
    if split_summaries and value != "nltk":
        raise ValueError(f"split_summaries=True splits with nltk; it contradicts "
                         f"{option('sentence_split', value)}")
    return value


# The regular expressions of nltk's Punkt (PunktLanguageVars' period context,
# word tokenizer and boundary realignment; PunktToken's ellipsis, number and
# initial) that _backend.punkt reproduces, as nltk 3.10.4 writes them. The two
# marks "!" and "?" of the character classes come from a set, in either order.
PORTED_PUNKT_PATTERNS = (
    '\n        [\\.\\?!]             # a potential sentence ending\n        (?=(?P<after_tok>\n'
    '            (?:[)\\";}\\]\\*:@\\\'\\({\\[\\u2018\\u2019\\u201c\\u201d\\xab\\xbb!\\?])'
    '              # either other punctuation\n            |\n            \\s+(?P<next_tok>\\S+)'
    '     # or whitespace and some other token\n        ))',
    '(\n        (?:\\-{2,}|\\.{2,}|(?:\\.\\s){2,}\\.)\n        |\n'
    '        (?=[^\\(\\"\\`{\\[:;&\\#\\*@\\)}\\]\\-,])\\S+?'
    '  # Accept word characters until end is found\n'
    '        (?= # Sequences marking a word\'s end\n'
    '            \\s|                                 # White-space\n'
    '            $|                                  # End-of-string\n'
    '            (?:[)\\";}\\]\\*:@\\\'\\({\\[\\u2018\\u2019\\u201c\\u201d\\xab\\xbb!\\?])'
    '|(?:\\-{2,}|\\.{2,}|(?:\\.\\s){2,}\\.)|          # Punctuation\n'
    '            ,(?=$|\\s|'
    '(?:[)\\";}\\]\\*:@\\\'\\({\\[\\u2018\\u2019\\u201c\\u201d\\xab\\xbb!\\?])'
    '|(?:\\-{2,}|\\.{2,}|(?:\\.\\s){2,}\\.)) # Comma if at end of word\n'
    '        )\n        |\n        \\S\n    )',
    '["\\\')\\]}\\u2018\\u2019\\u201c\\u201d\\xab\\xbb]+?(?:\\s+|(?=--)|$)',
    '\\.\\.+$',
    '^-?[\\.,]?\\d[\\d,\\.-]*\\.?$',
    '[^\\W\\d]\\.$',
)

# nltk's tokenizer last looked at, its parameters object, and the parameters
# the port takes when it applies to that tokenizer (else None).
_punkt_checked: List[Any] = [None, None, None]


def _punkt_parameters(tokenizer: Any) -> Optional[Tuple[Any, Any, Any, Any]]:
    """The parameters of nltk's ``tokenizer`` (abbreviations, collocations,
    sentence starters, orthographic contexts: its own objects, not copies)
    when ``_backend.punkt`` splits as it does: nltk's own classes with the
    patterns the port reproduces; else None (nltk splits)."""
    # nltk keeps these as private attributes, with no public accessor (read
    # with getattr: they are nltk's, not another rougekit module's).
    params: Any = getattr(tokenizer, "_params", None)
    if _punkt_checked[0] is tokenizer and _punkt_checked[1] is params:
        return _punkt_checked[2]
    from nltk.tokenize import punkt
    lang_vars: Any = getattr(tokenizer, "_lang_vars", None)
    ported = None
    if (type(tokenizer) is punkt.PunktTokenizer
            and type(lang_vars) is punkt.PunktLanguageVars
            and getattr(tokenizer, "_Token", None) is punkt.PunktToken
            and type(params) is punkt.PunktParameters
            and tuple(lang_vars.sent_end_chars) == (".", "?", "!")
            and tuple(tokenizer.PUNCTUATION) == tuple(";:,.!?")):
        patterns = (lang_vars.period_context_re().pattern,
                    getattr(lang_vars, "_word_tokenizer_re")().pattern,  # noqa: B009
                    lang_vars.re_boundary_realignment.pattern,
                    *(getattr(punkt.PunktToken, name).pattern
                      for name in ("_RE_ELLIPSIS", "_RE_NUMERIC", "_RE_INITIAL")))
        if tuple(p.replace("\\xbb\\?!]", "\\xbb!\\?]") for p in patterns) == \
                PORTED_PUNKT_PATTERNS:
            ported = (params.abbrev_types, params.collocations, params.sent_starters,
                      params.ortho_context)
    _punkt_checked[:] = [tokenizer, params, ported]
    return ported


def nltk_sentences(text: Any) -> List[str]:
    """``nltk.sent_tokenize(text)``: the sentences of nltk's english Punkt
    model, computed by ``_backend.punkt`` with that model's parameters.

    nltk itself splits instead when ``nltk.sent_tokenize`` is not nltk's own
    function (a caller replaced it: rouge-score and torchmetrics would call
    the replacement), ``text`` is not a ``str``, or nltk's tokenizer is not
    what the port reproduces (another class, language variables, token class
    or pattern: ``_punkt_parameters``). An ImportError (no nltk) or
    LookupError (no ``punkt_tab`` data) is nltk's own, for the caller to word.
    (No example here: it needs nltk's data; ``_core._punkt_py`` has some.)
    """
    import nltk
    split = nltk.sent_tokenize
    own = getattr(nltk.tokenize, "_get_punkt_tokenizer", None)
    if split is not nltk.tokenize.sent_tokenize or own is None or type(text) is not str:
        return split(text)
    params = _punkt_parameters(own("english"))
    if params is None:
        return split(text)
    return [text[start:end] for start, end in _backend.punkt.sentence_spans(text, *params)]


def split_periods(text: str) -> List[str]:
    """pltrdy's sentences: the pieces of ``text`` between ".", empty ones
    dropped (whitespace is kept: the tokenizer collapses it).

    >>> split_periods("The cat sat. It ran..")
    ['The cat sat', ' It ran']
    """
    return [s for s in text.split(".") if len(s) > 0]


# rouge-chinese's sentence breaks, applied in this order: after 。！？ or ?
# (not before a closing quote), after six dots or two ellipses, and after an
# end mark followed by a closing quote (not before more punctuation). Each
# with the strings one of which a text must hold for it to match: the other
# texts skip it (the breaks add no such string).
_CHINESE_END_MARKS = ("。", "！", "？", "?")
_CHINESE_BREAKS = [
    (re.compile("([。！？\\?])([^”’])"), r"\1\n\2", _CHINESE_END_MARKS),
    (re.compile("(\\.{6})([^”’])"), r"\1\n\2", ("......",)),
    (re.compile("(\\…{2})([^”’])"), r"\1\n\2", ("……",)),
    (re.compile("([。！？\\?][”’])([^，。！？\\?])"), r"\1\n\2", _CHINESE_END_MARKS),
]


def split_chinese(text: str) -> List[str]:
    """rouge-chinese's ``cut_sent``: its sentences of a text (empty ones kept).

    >>> split_chinese("你好。再见！“好的。”他说")
    ['你好。', '再见！', '“好的。”', '他说']
    """
    exact = type(text) is str    # else every pattern, for re's own errors
    for pattern, replacement, needed in _CHINESE_BREAKS:
        for mark in needed:
            if not exact or mark in text:
                text = pattern.sub(replacement, text)
                break
    return text.rstrip().split("\n")


def _sentencex():
    try:
        import sentencex
    except ImportError:
        raise ImportError(f"{option('sentence_split', 'sentencex')} needs sentencex, which "
                          "is not installed: pip install 'rougekit[sentences]'") from None
    return sentencex


def split_sentencex(text: str, iso: str) -> List[str]:
    """The sentences of each line of ``text``, by sentencex's rules for
    language ``iso`` (ISO 639 code)."""
    segment = _sentencex().segment
    return [s for line in text.split("\n") for s in segment(iso, line)]


def sentence_split_provenance(rule: str, iso: str) -> str:
    """The signature's ``split`` value: the rule, with its language and
    library version where it has them."""
    if rule == "sentencex":
        _sentencex()
        return f"sentencex-{iso}({importlib.metadata.version('sentencex')})"
    if rule == "nltk":
        try:
            return f"nltk({importlib.metadata.version('nltk')})"
        except importlib.metadata.PackageNotFoundError:
            return "nltk"
    return rule


# A sentence end in scripts with spaces: end punctuation right after a word
# character, closing quotes or brackets, whitespace, opening ones, and the
# next word. It counts when the word before (its last 40 characters) is
# lowercase, two letters or more, or ends in a digit, and the word after
# starts with a capital: "Dr. Smith" and "U.S. Army" do not count. (The
# look-behind keeps the search linear in the text's length.)
_SPACED_END = re.compile(r"(?<=\w)[.!?…]+[\"'”’»)\]]*\s+[\"'“‘«(\[]*(\w)")
_WORD_TAIL = re.compile(r"\w+\Z")
# A sentence end in scripts without spaces (CJK) or with their own marks
# (danda, Arabic question mark): the mark followed by more text.
_OWN_MARK_END = re.compile(r"[。！？।؟][\"'”’」』»)\]]*\s*\w")


def looks_like_sentences(text: object) -> bool:
    """Whether ``text`` (a str) has no newline but at least two sentences
    in its first ``LOOKED_AT_CHARS`` characters, by the patterns above."""
    if not isinstance(text, str) or "\n" in text:
        return False
    if _OWN_MARK_END.search(text, 0, LOOKED_AT_CHARS):
        return True
    for m in _SPACED_END.finditer(text, 0, LOOKED_AT_CHARS):
        if not m.group(1).isupper():
            continue
        tail = _WORD_TAIL.search(text, max(0, m.start() - 40), m.start())
        before = tail.group() if tail else ""
        if (len(before) >= 2 and before.islower()) or before[-1:].isdigit():
            return True
    return False


def warn_one_sentence() -> None:
    warn("rougeLsum was given a text with no newline that looks like several "
         "sentences: sentences are split on \"\\n\" only (rouge-score's rule), so it is "
         "one sentence and its rougeLsum equals rougeL. Put each sentence on its own "
         f"line, or give {option('sentence_split', 'sentencex')} "
         "(docs/guides/sentences.md).",
         SentenceSplitWarning)
