"""``rouge_chinese.rouge_score`` of ``rouge-chinese`` 1.0.3: its functions
and results.

All but ``rouge_l_summary_level`` are pltrdy's
(:mod:`rougekit.compat._pltrdy_score`); here ROUGE-L is the LCS of the two
texts' words, every sentence's words in one list, counted with repeats (``exclusive`` is
accepted and ignored, as in the package).

>>> rouge_l_summary_level(["a b", "c d"], ["a c", "b d"])
{'f': 0.749999995, 'p': 0.75, 'r': 0.75}
"""
from typing import Any, Dict

from rougekit.compat._pltrdy import lcs_length_tokens, pltrdy_f
from rougekit.compat._pltrdy_score import (
    Ngrams,
    f_r_p_rouge_n,
    multi_rouge_n,
    rouge_n,
    split_into_words,
)

# The package's own helpers (pltrdy's), under its names.
from rougekit.compat._pltrdy_score import get_ngrams as _get_ngrams
from rougekit.compat._pltrdy_score import get_word_ngrams as _get_word_ngrams
from rougekit.compat._pltrdy_score import lcs_table as _lcs
from rougekit.compat._pltrdy_score import len_lcs as _len_lcs
from rougekit.compat._pltrdy_score import recon_lcs as _recon_lcs
from rougekit.compat._pltrdy_score import split_into_words as _split_into_words
from rougekit.compat._pltrdy_score import union_lcs as _union_lcs

__all__ = ["Ngrams", "multi_rouge_n", "rouge_n", "f_r_p_rouge_n", "rouge_l_summary_level",
           # rouge-chinese's private helpers, as pltrdy's
           "_get_ngrams", "_get_word_ngrams", "_lcs", "_len_lcs", "_recon_lcs",
           "_split_into_words", "_union_lcs"]


def rouge_l_summary_level(evaluated_sentences: Any, reference_sentences: Any,
                          raw_results: bool = False, exclusive: Any = None,
                          **_: Any) -> Dict[str, Any]:
    """rouge-chinese's ROUGE-L: hits are the LCS length of all the
    reference's words and all the hypothesis's words (split on spaces,
    sentences joined), over their counts. ``{"f", "p", "r"}``, or with
    ``raw_results`` the counts ``{"hyp", "ref", "overlap"}``.

    Raises ValueError "Collections must contain at least 1 sentence." for an
    empty list of sentences.
    """
    if len(evaluated_sentences) <= 0 or len(reference_sentences) <= 0:
        raise ValueError("Collections must contain at least 1 sentence.")
    ref_words = split_into_words(reference_sentences)
    hyp_words = split_into_words(evaluated_sentences)
    m, n = len(ref_words), len(hyp_words)
    llcs = lcs_length_tokens(ref_words, hyp_words)
    r_lcs, p_lcs = llcs / m, llcs / n
    if raw_results:
        return {"hyp": n, "ref": m, "overlap": llcs}
    return {"f": pltrdy_f(p_lcs, r_lcs), "p": p_lcs, "r": r_lcs}
