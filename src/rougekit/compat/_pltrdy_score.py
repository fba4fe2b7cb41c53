"""The functions of pltrdy's ``rouge.rouge_score`` (rouge 1.0.1), once, for
the two drop-ins that have them: :mod:`rougekit.compat.rouge.rouge_score`
and :mod:`rougekit.compat.rouge_chinese.rouge_score`, which give them their
packages' names (``_get_ngrams`` is ``get_ngrams`` here, ``_lcs`` is
``lcs_table``, and so on).

Sentences are lists of strings whose words are separated by single spaces;
n-grams run across sentence ends. ``exclusive=True`` (the default) counts
distinct n-grams (and distinct words for ROUGE-L), ``exclusive=False`` every
occurrence, shared up to the smaller count.

Unlike pltrdy's, the LCS is rebuilt without recursion (by rougekit's LCS
kernel, which takes the same path back through the table), so sentences of
thousands of words score instead of raising ``RecursionError``;
``lcs_table`` alone still builds pltrdy's full table, since that table is
what it returns.
"""
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence, Tuple

from rougekit.compat._pltrdy import (
    lcs_length_tokens,
    lcs_sum,
    lcs_tokens,
    ngrams_of,
    pltrdy_f,
    prf_n,
    union_lcs_count,
    words_of,
)

__all__ = ["Ngrams", "multi_rouge_n", "rouge_n", "f_r_p_rouge_n", "rouge_l_summary_level",
           "get_ngrams", "split_into_words", "get_word_ngrams", "len_lcs", "lcs_table",
           "recon_lcs", "union_lcs"]


class Ngrams:
    """n-grams as a set (``exclusive=True``) or as a list (``exclusive=False``,
    where intersection shares each n-gram up to the smaller count).

    >>> a = Ngrams(["x", "x", "y"], exclusive=False)
    >>> len(a.intersection(Ngrams(["x", "z", "x", "x"], exclusive=False)))
    2
    """

    def __init__(self, ngrams: Any = (), exclusive: bool = True) -> None:
        self._ngrams: Any = set(ngrams) if exclusive else list(ngrams)
        self.exclusive = exclusive

    def add(self, o: Any) -> None:
        if self.exclusive:
            self._ngrams.add(o)
        else:
            self._ngrams.append(o)

    def __len__(self) -> int:
        return len(self._ngrams)

    def intersection(self, o: "Ngrams") -> "Ngrams":
        if self.exclusive:
            return Ngrams(self._ngrams.intersection(o._ngrams), exclusive=True)
        # each of self's n-grams, in order, while o has an unused copy left
        left = Counter(o._ngrams)
        shared = []
        for e in self._ngrams:
            if left[e] > 0:
                left[e] -= 1
                shared.append(e)
        return Ngrams(shared, exclusive=False)

    def union(self, *ngrams: "Ngrams") -> "Ngrams":
        if self.exclusive:
            return Ngrams(self._ngrams.union(*(o._ngrams for o in ngrams)), exclusive=True)
        joined = list(self._ngrams)
        for o in ngrams:
            joined.extend(o._ngrams)
        return Ngrams(joined, exclusive=False)


def get_ngrams(n: int, text: Sequence[Any], exclusive: bool = True) -> Ngrams:
    """The n-grams of a list of words."""
    return Ngrams(ngrams_of(text, n), exclusive=exclusive)


def split_into_words(sentences: Any) -> List[str]:
    """The words of several sentences, in one list."""
    return words_of(sentences)


def get_word_ngrams(n: int, sentences: Any, exclusive: bool = True) -> Ngrams:
    """The word n-grams of several sentences (n-grams cross sentence ends)."""
    if not len(sentences) > 0:
        raise AssertionError()
    if not n > 0:
        raise AssertionError()
    return get_ngrams(n, split_into_words(sentences), exclusive=exclusive)


def len_lcs(x: Sequence[Any], y: Sequence[Any]) -> int:
    """Length of the longest common subsequence of two lists of words."""
    return lcs_length_tokens(x, y)


def lcs_table(x: Sequence[Any], y: Sequence[Any]) -> Dict[Tuple[int, int], int]:
    """pltrdy's LCS table: ``{(i, j): LCS length of x[:i] and y[:j]}``, every
    cell (quadratic memory: scoring does not use it)."""
    n, m = len(x), len(y)
    table: Dict[Tuple[int, int], int] = {}
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 or j == 0:
                table[i, j] = 0
            elif x[i - 1] == y[j - 1]:
                table[i, j] = table[i - 1, j - 1] + 1
            else:
                table[i, j] = max(table[i - 1, j], table[i, j - 1])
    return table


def recon_lcs(x: Sequence[Any], y: Sequence[Any], exclusive: bool = True) -> Ngrams:
    """The words of the LCS of x and y that pltrdy's backtrack picks."""
    return Ngrams(lcs_tokens(x, y), exclusive=exclusive)


def multi_rouge_n(sequences: Sequence[Any], scores_ids: Sequence[Tuple[int, int]],
                  n: int = 2, exclusive: bool = True) -> List[Dict[str, float]]:
    """ROUGE-N of many (hypothesis, reference) pairs drawn from one list of
    texts (each a list of sentences): ``scores_ids[i] = (hyp_id, ref_id)``,
    indices into ``sequences``; each text's n-grams are made once.

    >>> multi_rouge_n([["a b c"], ["a b d"]], [(0, 1)], n=2)
    [{'f': 0.4999999950000001, 'p': 0.5, 'r': 0.5}]
    """
    ngrams = [get_word_ngrams(n, sequence, exclusive=exclusive) for sequence in sequences]
    counts = [len(g) for g in ngrams]
    scores = []
    for hyp_id, ref_id in scores_ids:
        shared = len(ngrams[hyp_id].intersection(ngrams[ref_id]))
        scores.append(f_r_p_rouge_n(counts[hyp_id], counts[ref_id], shared))
    return scores


def rouge_n(evaluated_sentences: Any, reference_sentences: Any, n: int = 2,
            raw_results: bool = False, exclusive: bool = True) -> Dict[str, Any]:
    """ROUGE-N of two lists of sentences: ``{"f", "p", "r"}``, or with
    ``raw_results`` the counts ``{"hyp", "ref", "overlap"}``.

    Raises ValueError "Hypothesis is empty." (or "Reference is empty.") for
    an empty list of sentences.
    """
    if len(evaluated_sentences) <= 0:
        raise ValueError("Hypothesis is empty.")
    if len(reference_sentences) <= 0:
        raise ValueError("Reference is empty.")
    evaluated_ngrams = get_word_ngrams(n, evaluated_sentences, exclusive=exclusive)
    reference_ngrams = get_word_ngrams(n, reference_sentences, exclusive=exclusive)
    reference_count = len(reference_ngrams)
    evaluated_count = len(evaluated_ngrams)
    overlapping_count = len(evaluated_ngrams.intersection(reference_ngrams))
    if raw_results:
        return {"hyp": evaluated_count, "ref": reference_count, "overlap": overlapping_count}
    return f_r_p_rouge_n(evaluated_count, reference_count, overlapping_count)


def f_r_p_rouge_n(evaluated_count: int, reference_count: int,
                  overlapping_count: int) -> Dict[str, float]:
    """``{"f", "p", "r"}`` from n-gram counts (P or R 0.0 on a zero count).

    >>> f_r_p_rouge_n(5, 5, 4)
    {'f': 0.7999999950000002, 'p': 0.8, 'r': 0.8}
    """
    return prf_n(evaluated_count, reference_count, overlapping_count)


def union_lcs(evaluated_sentences: Any, reference_sentence: str,
               prev_union: Optional[Ngrams] = None,
               exclusive: bool = True) -> Tuple[int, Ngrams]:
    """(words added, union): the union so far grown by the LCS of the
    reference sentence with each evaluated sentence."""
    if prev_union is None:
        prev_union = Ngrams(exclusive=exclusive)
    if len(evaluated_sentences) <= 0:
        raise ValueError("Collections must contain at least 1 sentence.")
    lcs_union = prev_union
    prev_count = len(prev_union)
    reference_words = split_into_words([reference_sentence])
    for eval_s in evaluated_sentences:
        lcs = recon_lcs(reference_words, split_into_words([eval_s]), exclusive=exclusive)
        lcs_union = lcs_union.union(lcs)
    return len(lcs_union) - prev_count, lcs_union


def rouge_l_summary_level(evaluated_sentences: Any, reference_sentences: Any,
                          raw_results: bool = False, exclusive: bool = True,
                          **_: Any) -> Dict[str, Any]:
    """pltrdy's summary-level ROUGE-L: hits are the words of the union of
    the LCS of each (reference sentence, evaluated sentence) pair (distinct
    words when ``exclusive``, else the sum of the LCS lengths), over the
    reference's and the hypothesis's words (distinct when ``exclusive``).

    >>> rouge_l_summary_level(["a b c d"], ["a c b d"], raw_results=True)
    {'hyp': 4, 'ref': 4, 'overlap': 3}

    Raises ValueError "Collections must contain at least 1 sentence." for an
    empty list of sentences.
    """
    if len(evaluated_sentences) <= 0 or len(reference_sentences) <= 0:
        raise ValueError("Collections must contain at least 1 sentence.")
    ref_words = split_into_words(reference_sentences)
    hyp_words = split_into_words(evaluated_sentences)
    if exclusive:
        m, n = len(set(ref_words)), len(set(hyp_words))
        llcs = union_lcs_count([s.split(" ") for s in evaluated_sentences],
                               [s.split(" ") for s in reference_sentences])
    else:
        m, n = len(ref_words), len(hyp_words)
        llcs = lcs_sum([s.split(" ") for s in evaluated_sentences],
                       [s.split(" ") for s in reference_sentences])
    if raw_results:
        return {"hyp": n, "ref": m, "overlap": llcs}
    r_lcs, p_lcs = llcs / m, llcs / n
    return {"f": pltrdy_f(p_lcs, r_lcs), "p": p_lcs, "r": r_lcs}
