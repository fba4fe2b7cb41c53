"""Word segmenters for languages written without spaces between words, as
XL-Sum's multilingual ROUGE uses them.

Each ``load_*`` returns ``(segment, provenance)``: ``segment(text) -> list of
str`` takes the cleaned words joined by spaces (``rougekit.lang.normalize``)
and ``provenance`` names the library and version for the score signature.
The libraries are optional extras; a missing one is an ``ImportError`` whose
one-line message names the extra to install.

=========  ==========================================  ==================
language   segmenter                                   extra
=========  ==========================================  ==================
chinese    jieba's ``cut`` (accurate mode, HMM on)     ``rougekit[zh]``
japanese   MeCab via fugashi, ``-O wakati``, with the  ``rougekit[ja]``
           unidic-lite dictionary
thai       pythainlp's ``word_tokenize``, engine       ``rougekit[th]``
           ``newmm``
burmese    XL-Sum's syllable rule (``burmese``),       built in
           no library
=========  ==========================================  ==================

XL-Sum uses fugashi with the full UniDic, which must be downloaded after
installation (``python -m unidic download``); unidic-lite installs from PyPI
with its dictionary, so Japanese tokens can differ from XL-Sum's published
setup where the two dictionaries segment differently.

>>> burmese("မြန်မာ စာ")
['မြန်', 'မာ', 'စာ']
"""
import importlib.metadata
import logging
import os
import threading
from typing import Any, Callable, List, Tuple

from rougekit._spelling import option

__all__ = ["burmese", "load_segmenter", "SEGMENTERS"]

Segment = Callable[[str], List[str]]


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _missing(lang: str, what: str, extra: str) -> ImportError:
    return ImportError(f"{option('lang', lang)} segments words with {what}, which is not "
                       f"installed: pip install 'rougekit[{extra}]'")


# --- Burmese: XL-Sum's rule (after Ding et al., ACM TALLIP 2019) ---------------

_ASAT = "\u103a"        # MYANMAR SIGN ASAT
_DOT_BELOW = "\u1037"   # MYANMAR SIGN DOT BELOW
_VIRAMA = "\u1039"      # MYANMAR SIGN VIRAMA: stacks the next consonant
# Characters that belong to the unit of the character before them.
_DEPENDENT = frozenset([chr(0x102B + k) for k in range(8)] + [chr(0x1036 + k) for k in range(3)]
                       + [chr(0x103B + k) for k in range(4)] + [_ASAT])


def burmese(text: str) -> List[str]:
    """XL-Sum's Burmese syllable segmentation.

    Whitespace is dropped (a zero-width non-joiner counts as whitespace) and
    dot-below + asat is written asat + dot-below. Then: every dependent sign
    (vowel signs U+102B..U+1032, U+1036..U+1038, medials U+103B..U+103E,
    asat) joins the unit before it; a unit of fewer than 4 characters with
    an asat joins the unit before it; a lone virama glues the units on its
    two sides.
    """
    text = text.replace("\u200c", " ").replace(_DOT_BELOW + _ASAT, _ASAT + _DOT_BELOW)
    chars = list("".join(text.lower().split()))
    # Right to left, so a run of dependent signs ends up on the base before it.
    for i in range(len(chars) - 1, 0, -1):
        if chars[i][0] in _DEPENDENT:
            chars[i - 1] += chars[i]
            chars[i] = ""
    units = [u for u in chars if u]
    for i in range(1, len(units)):
        if _ASAT in units[i] and len(units[i]) < 4:
            units[i - 1] += units[i]
            units[i] = ""
    joined = " ".join(u for u in units if u)
    return joined.replace(" " + _VIRAMA + " ", _VIRAMA).split()


# --- the libraries ------------------------------------------------------------------

_lock = threading.Lock()
_loaded: dict = {}


def _jieba(lang: str) -> Tuple[Segment, str]:
    try:
        import jieba
    except ImportError:
        raise _missing(lang, "jieba", "zh") from None
    # A tokenizer of our own (default dictionary): words a program adds to
    # jieba's global one do not change rougekit's numbers. Its start-up
    # messages are silenced.
    tokenizer = jieba.Tokenizer()
    logger = logging.getLogger("jieba")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        tokenizer.initialize()
    finally:
        logger.setLevel(level)
    return (lambda text: list(tokenizer.cut(text))), f"jieba-{_version('jieba')}"


def _fugashi(lang: str) -> Tuple[Segment, str]:
    try:
        import fugashi
        import unidic_lite
    except ImportError:
        raise _missing(lang, "fugashi and unidic-lite", "ja") from None
    dicdir = unidic_lite.DICDIR
    rc = os.path.join(dicdir, "mecabrc")
    tagger: Any = fugashi.Tagger(f'-O wakati -b 50000 -r "{rc}" -d "{dicdir}"')
    lock = threading.Lock()  # a MeCab tagger is not for two threads at once

    def segment(text: str) -> List[str]:
        with lock:
            return tagger.parse(text).split()

    return segment, (f"fugashi-{_version('fugashi')},"
                     f"unidic-lite-{_version('unidic-lite')}")


def _pythainlp(lang: str) -> Tuple[Segment, str]:
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError:
        raise _missing(lang, "pythainlp", "th") from None
    return ((lambda text: word_tokenize(text, engine="newmm")),
            f"pythainlp-{_version('pythainlp')}-newmm")


def _burmese(lang: str) -> Tuple[Segment, str]:
    return burmese, "burmese-rule"


SEGMENTERS = {"jieba": _jieba, "fugashi": _fugashi, "pythainlp": _pythainlp,
              "burmese": _burmese}


def load_segmenter(name: str, lang: str) -> Tuple[Segment, str]:
    """``(segment, provenance)`` of segmenter ``name`` (a key of
    ``SEGMENTERS``), loaded once per process."""
    with _lock:
        if name not in _loaded:
            _loaded[name] = SEGMENTERS[name](lang)
        return _loaded[name]
