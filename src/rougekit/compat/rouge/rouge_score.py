"""``rouge.rouge_score`` of ``rouge`` 1.0.1 (pltrdy): its functions and results
(the code is :mod:`rougekit.compat._pltrdy_score`, shared with rouge-chinese).

Sentences are lists of strings whose words are separated by single spaces;
n-grams run across sentence ends. ``exclusive=True`` (the default) counts
distinct n-grams (and distinct words for ROUGE-L), ``exclusive=False`` every
occurrence, shared up to the smaller count.

>>> rouge_n(["the cat is on the mat"], ["the cat sat on the mat"], n=1)
{'f': 0.7999999950000002, 'p': 0.8, 'r': 0.8}

Unlike pltrdy's, the LCS is rebuilt without recursion (by rougekit's LCS
kernel, which takes the same path back through the table), so sentences of
thousands of words score instead of raising ``RecursionError``; ``_lcs``
alone still builds pltrdy's full table, since that table is what it returns.
"""
from rougekit.compat._pltrdy_score import (
    Ngrams,
    f_r_p_rouge_n,
    multi_rouge_n,
    rouge_l_summary_level,
    rouge_n,
)

# The package's own helpers, under its names.
from rougekit.compat._pltrdy_score import get_ngrams as _get_ngrams
from rougekit.compat._pltrdy_score import get_word_ngrams as _get_word_ngrams
from rougekit.compat._pltrdy_score import lcs_table as _lcs
from rougekit.compat._pltrdy_score import len_lcs as _len_lcs
from rougekit.compat._pltrdy_score import recon_lcs as _recon_lcs
from rougekit.compat._pltrdy_score import split_into_words as _split_into_words
from rougekit.compat._pltrdy_score import union_lcs as _union_lcs

__all__ = ["Ngrams", "multi_rouge_n", "rouge_n", "f_r_p_rouge_n", "rouge_l_summary_level",
           # pltrdy's private helpers, which code calls
           "_get_ngrams", "_get_word_ngrams", "_lcs", "_len_lcs", "_recon_lcs",
           "_split_into_words", "_union_lcs"]
