"""The Porter stemmer rouge-score uses (NLTK's ``PorterStemmer()``), without nltk.

    >>> stem("running"), PorterStemmer().stem("Generalizations")
    ('run', 'gener')

The algorithm, written to be read as its specification, is in
``rougekit._core._porter_py``; the compiled ``_porter`` gives the same stems.
"""
from rougekit._core._porter_py import IRREGULAR_FORMS, PorterStemmer, stem

__all__ = ["IRREGULAR_FORMS", "PorterStemmer", "stem"]
