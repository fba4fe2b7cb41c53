"""Tokenizer classes, as rouge-score's ``tokenizers`` module.

``DefaultTokenizer(use_stemmer)`` tokenizes like rouge-score's and stems with
rougekit's own Porter stemmer, which stems exactly as NLTK's
``PorterStemmer()`` does; stems are cached per tokenizer (a corpus has far
fewer distinct words than tokens). The cache is a dict whose single get and
set are atomic, so one tokenizer may serve many threads.
"""
import abc
from typing import List, Union

from rougekit import tokenize as _tokenize_mod

try:
    from rougekit._porter import StemCache as _StemCache
except ImportError:  # pure-Python install
    _StemCache = None  # type: ignore[assignment,misc]

__all__ = ["Tokenizer", "DefaultTokenizer"]


class Tokenizer(abc.ABC):
    """Abstract base class: subclasses implement ``tokenize(text) -> list``."""

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class _PureStemCache:
    """Memoised pure-Python Porter stems (used when _porter is not built)."""

    def __init__(self):
        from rougekit.porter import PorterStemmer
        self._stem = PorterStemmer().stem
        self._cache = {}

    def stem(self, word):
        s = self._cache.get(word)
        if s is None:
            s = self._cache[word] = self._stem(word)
        return s


def _new_stemmer():
    from rougekit import _backend
    if _StemCache is not None and _backend.NAME == "compiled":
        return _StemCache()
    return _PureStemCache()


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer: ``[a-z0-9]+`` runs, lowercased.

    >>> DefaultTokenizer(use_stemmer=True).tokenize("Running cats")
    ['run', 'cat']
    """

    def __init__(self, use_stemmer: bool = False) -> None:
        self._stemmer = _new_stemmer() if use_stemmer else None

    def tokenize(self, text: Union[str, bytes]) -> List[str]:
        return _tokenize_mod.tokenize(text, self._stemmer)
