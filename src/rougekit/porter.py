"""The Porter stemmer rouge-score uses (NLTK's ``PorterStemmer()``), without nltk.

    >>> stem("running"), PorterStemmer().stem("Generalizations")
    ('run', 'gener')

The algorithm, written to be read as its specification, is in
``rougekit._core._porter_py``; the compiled ``_porter`` gives the same stems.
"""
from rougekit._core._porter_py import IRREGULAR_FORMS, PorterStemmer, stem

__all__ = ["IRREGULAR_FORMS", "PorterStemmer", "stem"]


def new_stem_cache():
    """A new, empty stem cache of the kernel in use.

    A pickled stem cache (in a stemming scorer or ``DefaultTokenizer``) loads
    through this function: its pickle names this public module rather than a
    kernel's, so it loads whatever the layout of ``rougekit._core`` and on
    either backend (keep the name: pickles record it).

        >>> from rougekit import _backend
        >>> type(new_stem_cache()) is _backend.porter.StemCache
        True
    """
    from rougekit import _backend
    return _backend.porter.StemCache()
