"""Pure-Python twin of ``_tokenizer``: rouge-score's default tokens of a str.

rouge-score lowercases the text with ``str.lower()``, keeps the runs of
``a-z0-9`` (``WORD_RE``) and, when stemming, replaces every token longer than
3 characters by its Porter stem, dropping a token whose stem is empty.
``sentences`` also splits the text on "\\n" first and leaves out the
sentences that have no tokens, as rougeLsum reads them.

>>> sentences("The cats sat.\\n\\nRunning!", True)
[['the', 'cat', 'sat'], ['run']]
>>> tokenize("İstanbul \\u212aelvin", False)
['i', 'stanbul', 'kelvin']
"""
import re
from typing import Callable, List, Optional

from rougekit._core._porter_py import StemCache

__all__ = ["WORD_RE", "words", "sentences", "tokenize", "kept_chars"]

#: A token: a maximal run of lowercase ASCII letters and digits (splitting on
#: runs of anything else and dropping empty pieces gives the same tokens).
WORD_RE = re.compile(r"[a-z0-9]+")


def words(lowered: str, stem: Optional[Callable[[str], str]]) -> List[str]:
    """The tokens of an already lowercased text, stemmed with ``stem``."""
    tokens = WORD_RE.findall(lowered)
    if stem is None:
        return tokens
    tokens = [stem(t) if len(t) > 3 else t for t in tokens]
    return [t for t in tokens if t]


def _check(text: object) -> str:
    if type(text) is not str:
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return text


def sentences(text: str, use_stemmer: bool = False) -> List[List[str]]:
    """The tokens of each "\\n"-separated sentence that has any."""
    stem = StemCache().stem if use_stemmer else None
    out = []
    for line in _check(text).lower().split("\n"):
        tokens = words(line, stem)
        if tokens:
            out.append(tokens)
    return out


def tokenize(text: str, use_stemmer: bool = False) -> List[str]:
    """The tokens of ``text``."""
    stem = StemCache().stem if use_stemmer else None
    return words(_check(text).lower(), stem)


def kept_chars(text: str) -> int:
    """How many characters of ``text`` are in its tokens (their total length
    before stemming): what the "no silent zeros" pre-check compares with the
    text's length.

    >>> kept_chars("Привет, world 42")
    7
    """
    return sum(map(len, WORD_RE.findall(_check(text).lower())))
