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
from typing import List

from rougekit._spelling import option
from rougekit._warn import SentenceSplitWarning, warn

__all__ = ["SENTENCE_SPLITS", "CHECKED_TEXTS", "LOOKED_AT_CHARS", "check_sentence_split",
           "split_sentencex", "split_periods", "split_chinese", "sentence_split_provenance",
           "looks_like_sentences",
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
