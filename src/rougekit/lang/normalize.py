"""XL-Sum's text normalisation and default word segmentation.

XL-Sum's multilingual ROUGE (``multilingual-rouge``) lowercases a text, then
cleans it as BERT's ``BasicTokenizer`` does and splits it into *words*:

- characters of Unicode category C* (control, format, unassigned, private
  use, surrogates) other than tab, newline and carriage return are deleted,
  and so are NUL and U+FFFD (so they join what stands around them);
- whitespace (``str.isspace``) and punctuation separate words: ASCII
  ``!"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~`` and every character of category P*.

``words(text)`` gives those words. A language with a word segmenter
(``rougekit.lang.segmenters``) segments the words joined by spaces; every
other language uses XL-Sum's default segmentation, ``default_segment``:
OpenNMT Tokenizer's "aggressive" mode (pyonmttok) on the words, then each CJK
ideograph on its own. On such cleaned text (letters L*, numbers N*, marks M*,
symbols S* and single spaces) the aggressive mode makes these tokens:

- a letter followed by letters and combining marks;
- a number followed by numbers and combining marks;
- a symbol with the marks that follow it, U+2581, U+FFED and U+FFE8 written
  "_", "■" and "│" (its substitutions);
- marks that start a word: alone at the start of the text, and after a
  space with that space written "％0020" (pyonmttok keeps a space that a
  mark combines with as that escape).

The classes come from the running Python's ``unicodedata``, as XL-Sum's own
cleaning does; tests compare ``default_segment`` with pyonmttok itself.

>>> words("hello, wörld! ½-price… (2,000 ₹)")
['hello', 'wörld', '½', 'price', '2', '000', '₹']
>>> default_segment("abc123 x²y 中文字 ₹5 \u2581")
['abc', '123', 'x', '²', 'y', '中', '文', '字', '₹', '5', '_']
>>> default_segment("\u093f \u093fa")
['ि', '％0020ि', 'a']
"""
import re
import sys
import threading
import unicodedata
from typing import Dict, List, Optional, Tuple

__all__ = ["words", "default_segment", "default_segment_words", "is_cjk_ideograph"]

# BERT's "Chinese character" ranges, which XL-Sum's default segmentation
# makes one token each.
_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
               (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))

# pyonmttok's substitutions of characters that reach it (the others it
# substitutes are punctuation, removed before).
_SUBSTITUTES = {"\u2581": "_", "\uffed": "\u25a0", "\uffe8": "\u2502"}
# How it writes a space that a combining mark follows.
_SPACE_ESCAPE = "\uff050020"


def is_cjk_ideograph(cp: int) -> bool:
    """Whether code point ``cp`` is in BERT's CJK ideograph ranges."""
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def _is_ascii_punct(cp: int) -> bool:
    return 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126


def _class_body(ranges: List[Tuple[int, int]]) -> str:
    out = []
    for lo, hi in ranges:
        out.append(re.escape(chr(lo)) if lo == hi
                   else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return "".join(out)


def _char_class(ranges: List[Tuple[int, int]]) -> str:
    """A regex matching one character of the inclusive code point ranges.

    The Basic Multilingual Plane and the rest are two classes: re compiles a
    class of BMP characters only into a bitmap (one look-up per character),
    but a class with astral characters into a list of ranges it scans.
    """
    bmp = [(lo, min(hi, 0xFFFF)) for lo, hi in ranges if lo <= 0xFFFF]
    astral = [(max(lo, 0x10000), hi) for lo, hi in ranges if hi > 0xFFFF]
    parts = [f"[{_class_body(r)}]" for r in (bmp, astral) if r]
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


def _ranges(flags: List[bool]) -> List[Tuple[int, int]]:
    out: List[Tuple[int, int]] = []
    start: Optional[int] = None
    for cp, on in enumerate(flags):
        if on and start is None:
            start = cp
        elif not on and start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, len(flags) - 1))
    return out


class _Tables:
    """Compiled patterns from one pass over every code point (built on
    first use: about a second)."""

    def __init__(self) -> None:
        n = sys.maxunicode + 1
        delete, sep, letter, number, mark = ([False] * n for _ in range(5))
        for cp in range(n):
            ch = chr(cp)
            cat = unicodedata.category(ch)
            if cp == 0 or cp == 0xFFFD or (cat[0] == "C" and ch not in "\t\n\r"):
                delete[cp] = True
            elif ch.isspace() or _is_ascii_punct(cp) or cat[0] == "P":
                sep[cp] = True
            elif cat[0] == "L":
                letter[cp] = True
            elif cat[0] == "N":
                number[cp] = True
            elif cat[0] == "M":
                mark[cp] = True
        self.delete = re.compile(f"{_char_class(_ranges(delete))}+")
        # Within a whitespace-separated piece (str.split), punctuation.
        self.punctuation = re.compile(
            f"{_char_class(_ranges([on and not chr(cp).isspace() for cp, on in enumerate(sep)]))}+")
        other = [not (a or b or c) and cp != 32
                 for cp, (a, b, c) in enumerate(zip(letter, number, mark))]
        ll, nn, mm, oo = (_char_class(_ranges(x)) for x in (letter, number, mark, other))
        lm = _char_class(_ranges([a or b for a, b in zip(letter, mark)]))
        nm = _char_class(_ranges([a or b for a, b in zip(number, mark)]))
        # One word (no spaces): marks at its start are their own token.
        self.aggressive = re.compile(f"{ll}{lm}*|{nn}{nm}*|{oo}{mm}*|^{mm}+")
        self.cjk = re.compile(f"({_char_class(sorted(_CJK_RANGES))})")
        self.mark_start = re.compile(mm)


_tables: Optional[_Tables] = None
_tables_lock = threading.Lock()


def _get_tables() -> _Tables:
    global _tables
    if _tables is None:
        with _tables_lock:
            if _tables is None:
                _tables = _Tables()
    return _tables


# Results per piece of text, shared by every tokenizer: a corpus has far
# fewer distinct words than words, and each costs a few regex passes. A dict's
# get and set are atomic, so threads may share them; each is emptied when it
# grows past _CACHE_MAX entries.
_CACHE_MAX = 1 << 19
_pieces: Dict[str, List[str]] = {}
_segments: Dict[str, List[str]] = {}


def _needs_deleting(text: str) -> bool:
    # isprintable() is False for every C* character (and for whitespace other
    # than " "): only then can the text hold characters to delete.
    if "\n" in text or "\t" in text or "\r" in text:
        text = text.replace("\n", " ").replace("\t", " ").replace("\r", " ")
    return not text.isprintable() or "\ufffd" in text


def words(text: str) -> List[str]:
    """The words of ``text`` (already lowercased) after XL-Sum's cleaning
    (module docstring)."""
    t = _get_tables()
    if _needs_deleting(text):
        text = t.delete.sub("", text)
    out: List[str] = []
    cache = _pieces
    for piece in text.split():  # whitespace: the same characters once C* are gone
        found = cache.get(piece)
        if found is None:
            if len(cache) > _CACHE_MAX:
                cache.clear()
            found = cache[piece] = [w for w in t.punctuation.split(piece) if w]
        out.extend(found)
    return out


def _segment_word(t: _Tables, word: str) -> List[str]:
    """The aggressive mode's tokens of one word, as if a space came before
    it (leading marks then carry the space escape)."""
    out: List[str] = []
    for tok in t.aggressive.findall(word):
        first = tok[0]
        if first in _SUBSTITUTES:
            out.append(_SUBSTITUTES[first] + tok[1:])
        elif len(tok) == 1:
            out.append(tok)
        elif t.cjk.search(tok):
            out.extend(p for p in t.cjk.split(tok) if p)
        else:
            out.append(tok)
    if out and t.mark_start.match(out[0]):
        out[0] = _SPACE_ESCAPE + out[0]
    return out


def default_segment(joined: str) -> List[str]:
    """XL-Sum's default segmentation of cleaned words joined by single
    spaces: pyonmttok's aggressive mode, then CJK ideographs one by one."""
    return default_segment_words(joined.split(" ") if joined else [])


def default_segment_words(ws: List[str]) -> List[str]:
    """``default_segment`` of the words ``ws`` joined by spaces."""
    t = _get_tables()
    cache = _segments
    out: List[str] = []
    for w in ws:
        found = cache.get(w)
        if found is None:
            if len(cache) > _CACHE_MAX:
                cache.clear()
            found = cache[w] = _segment_word(t, w)
        out.extend(found)
    if ws and t.mark_start.match(ws[0]):
        out[0] = out[0][len(_SPACE_ESCAPE):]   # marks that start the text stand alone
    return out
