"""The Porter stemmer rouge-score uses (NLTK's ``PorterStemmer()``), without nltk.

    >>> stem("running"), PorterStemmer().stem("Generalizations")
    ('run', 'gener')

The algorithm, written to be read as its specification, is in
``rougekit._core._porter_py``; the compiled ``_porter`` gives the same stems.
"""
from rougekit._backend import new_stem_cache as new_stem_cache
from rougekit._core._porter_py import IRREGULAR_FORMS, PorterStemmer, stem

__all__ = ["IRREGULAR_FORMS", "PorterStemmer", "stem"]

# new_stem_cache(): a new, empty stem cache of the kernel in use, and what
# every pickled stem cache loads through (``rougekit._backend``, where the
# kernel is chosen, defines it and registers the pickling; keep the name here:
# pickles record it).
