"""The "no silent zeros" check of rouge-score's default tokenizer.

rouge-score's tokenizer keeps the runs of ASCII letters and digits of the
lowercased text and drops every other character, so a Chinese, Russian or
Hindi text becomes (almost) no tokens and scores (almost) zero. The scores
stay rouge-score's; ``LetterCheck`` only warns, once, when a text loses most
of its letters:

    a text *loses most of its letters* when the letters the tokenizer drops
    (characters with ``str.isalpha()`` other than ASCII letters, the Kelvin
    sign and "İ", which lowercase to ASCII) outnumber the letters and digits
    it keeps.

Checking every text would cost the fast path a pass over each text, so the
tokenizers only call ``LetterCheck`` for a text that can lose most of its
letters: one that is not ASCII and whose kept characters (the total length of
its tokens before stemming) are fewer than half of its characters. Dropped
and kept characters are distinct characters of the text, so a text with
``dropped > kept`` always has ``2 * kept < len(text)``: the pre-check misses
none.

>>> dropped_and_kept("Привет, world!")
(6, 5)
>>> check = LetterCheck()
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     check("Москва — столица России.")
...     check("Москва — столица России.")
False
False
>>> [w.category.__name__ for w in caught]
['TokenizationWarning']
"""
import collections
import unicodedata
from typing import Optional, Tuple, Union

from rougekit._spelling import option
from rougekit._warn import TokenizationWarning, warn

__all__ = ["LetterCheck", "dropped_and_kept", "may_lose_letters"]

_ASCII_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ASCII_DIGITS = b"0123456789"
_ALL_BYTES = bytes(range(256))
_NOT_LETTER = bytes(b for b in _ALL_BYTES if b not in _ASCII_LETTERS)
_NOT_DIGIT = bytes(b for b in _ALL_BYTES if b not in _ASCII_DIGITS)
# Non-ASCII letters that lowercase to an ASCII letter: the tokenizer keeps them.
_KEPT_SPECIAL = ("\u212a", "\u0130")


def dropped_and_kept(text: str) -> Tuple[int, int]:
    """``(dropped, kept)``: the letters rouge-score's tokenizer drops from
    ``text``, and the letters and digits it keeps."""
    letters = sum(map(str.isalpha, text))
    ascii_part = text.encode("ascii", "ignore")
    ascii_letters = len(ascii_part.translate(None, _NOT_LETTER))
    ascii_digits = len(ascii_part.translate(None, _NOT_DIGIT))
    special = sum(text.count(c) for c in _KEPT_SPECIAL)
    return letters - ascii_letters - special, ascii_letters + ascii_digits + special


def may_lose_letters(text: str, kept: int) -> bool:
    """The pre-check: whether ``text``, whose tokens total ``kept``
    characters (or fewer), can lose most of its letters."""
    return 2 * kept < len(text) and not text.isascii()


# The language to suggest for a script: the first word of the Unicode names
# of most dropped letters. Scripts shared by several languages name one.
_SCRIPT_LANG = {
    "CJK": "chinese", "HIRAGANA": "japanese", "KATAKANA": "japanese",
    "HANGUL": "korean", "THAI": "thai", "MYANMAR": "burmese",
    "DEVANAGARI": "hindi", "BENGALI": "bengali", "CYRILLIC": "russian",
    "ARABIC": "arabic", "TAMIL": "tamil", "TELUGU": "telugu",
    "GUJARATI": "gujarati", "GURMUKHI": "punjabi", "SINHALA": "sinhala",
    "ETHIOPIC": "amharic", "LATIN": "vietnamese",
}
_SAMPLE = 400  # dropped letters looked at to name the script


def _script(text: str) -> str:
    """The first word of the Unicode names of most of the dropped letters
    among the first ``_SAMPLE``."""
    counts: "collections.Counter[str]" = collections.Counter()
    for ch in text:
        if ch.isalpha() and not ch.isascii() and ch not in _KEPT_SPECIAL:
            counts[unicodedata.name(ch, "UNKNOWN").split()[0]] += 1
            if sum(counts.values()) >= _SAMPLE:
                break
    if counts.get("HIRAGANA") or counts.get("KATAKANA"):
        return "HIRAGANA"  # kana beside kanji: Japanese
    return counts.most_common(1)[0][0] if counts else "UNKNOWN"


_DROPPED = ("rouge-score's tokenizer dropped most letters of a text (it keeps only "
            "ASCII letters and digits), so such texts score near zero; ")


def _message(text: str, remedy: Optional[str] = None) -> str:
    if remedy is not None:
        return _DROPPED + remedy
    script = _script(text)
    lang = _SCRIPT_LANG.get(script)
    name = "Han" if script == "CJK" else script.title()
    which = (f"most of them {name} letters: use {option('lang', lang)}"
             if lang else f"use {option('lang', placeholder='<your language>')}")
    return (f"{_DROPPED}{which} (XL-Sum's multilingual ROUGE, docs/guides/languages.md) "
            f"or {option('tokenizer', 'unicode')}. The scores are rouge-score's.")


class LetterCheck:
    """Warns (``TokenizationWarning``) the first time it is given a text that
    loses most of its letters; call it only for texts that pass
    ``may_lose_letters``. Returns whether checking should go on (False once
    it has warned). One per scorer or tokenizer: it warns once. ``remedy``:
    what the warning tells the user to do, where the door has other means
    than rougekit's ``lang=`` and tokenizers (torchmetrics' ``ROUGEScore``)."""

    __slots__ = ("done", "remedy")

    def __init__(self, remedy: Optional[str] = None) -> None:
        self.done = False
        self.remedy = remedy

    def __call__(self, text: Union[str, bytes]) -> bool:
        if self.done:
            return False
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        dropped, kept = dropped_and_kept(text)
        if dropped <= kept:
            return True
        self.done = True
        warn(_message(text, getattr(self, "remedy", None)), TokenizationWarning)
        return False
