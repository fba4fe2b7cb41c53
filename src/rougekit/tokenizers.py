"""Tokenizer classes, as rouge-score's ``tokenizers`` module.

``DefaultTokenizer(use_stemmer)`` tokenizes like rouge-score's and stems with
rougekit's own Porter stemmer, which stems exactly as NLTK's
``PorterStemmer()`` does; stems are cached per tokenizer (a corpus has far
fewer distinct words than tokens). The cache is a dict whose single get and
set are atomic, so one tokenizer may serve many threads.

The default tokenizer keeps only ASCII letters and digits: the first text
whose letters it mostly drops (Chinese, Russian, Hindi...) gets a
``rougekit.TokenizationWarning`` naming the ``lang=`` or tokenizer to use
(once per tokenizer; ``rougekit._letters``). The tokens stay rouge-score's.
"""
import abc
from typing import List, Optional, Union

from rougekit import _backend
from rougekit import tokenize as _tokenize_mod
from rougekit._core._tokenizer_py import WORD_RE
from rougekit._letters import LetterCheck

__all__ = ["Tokenizer", "DefaultTokenizer"]


class Tokenizer(abc.ABC):
    """Abstract base class: subclasses implement ``tokenize(text) -> list``."""

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer: ``[a-z0-9]+`` runs, lowercased.

    >>> DefaultTokenizer(use_stemmer=True).tokenize("Running cats")
    ['run', 'cat']
    """

    def __init__(self, use_stemmer: bool = False) -> None:
        self._stemmer = _backend.porter.StemCache() if use_stemmer else None
        self._letters = LetterCheck()

    def tokenize(self, text: Union[str, bytes]) -> List[str]:
        tokens = _tokenize_mod.tokenize(text, self._stemmer)
        letters = getattr(self, "_letters", None)  # None: unpickled from an old state
        if letters is not None and not letters.done and not text.isascii():
            if isinstance(text, bytes):
                text = text.decode("utf-8")  # valid: tokenize decoded it
            # the pre-check of rougekit._letters (stems may be shorter)
            if 2 * sum(map(len, WORD_RE.findall(text.lower()))) < len(text):
                letters(text)
        return tokens


def default_stemming(tokenizer: object) -> Optional[bool]:
    """Whether ``tokenizer`` stems, if it tokenizes exactly as the default;
    None for any other tokenizer.

    A ``DefaultTokenizer`` (or a subclass, such as the named
    ``RougeScoreTokenizer``) that keeps the default ``tokenize`` and its own
    stem cache behaves as the default, so ``RougeScorer`` may score with the
    compiled engine, which tokenizes the same way.

    >>> default_stemming(DefaultTokenizer(use_stemmer=True))
    True
    >>> default_stemming(object()) is None
    True
    """
    if not isinstance(tokenizer, DefaultTokenizer):
        return None
    if type(tokenizer).tokenize is not DefaultTokenizer.tokenize or \
            "tokenize" in getattr(tokenizer, "__dict__", {}):
        return None
    stemmer = getattr(tokenizer, "_stemmer", None)
    if stemmer is None:
        return False
    return True if type(stemmer) is _backend.porter.StemCache else None


def letter_check(tokenizer: object) -> Optional[LetterCheck]:
    """The "no silent zeros" check (``rougekit._letters``) of a default
    tokenizer, which the engines share so that a scorer warns once; None for
    a tokenizer without one (or one unpickled from a state before it existed).

    >>> letter_check(DefaultTokenizer()) is not None, letter_check(object())
    (True, None)
    """
    return getattr(tokenizer, "_letters", None)
